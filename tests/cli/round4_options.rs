//! Issue 41, round 4: an option is applied or refused, never ignored
//! (`--box` on 9x9 records, a `--box` or `--symbols` that fits no record,
//! `--resume` across boxes and alphabets, 0-based numbering,
//! `--timeout-ms` on big grids), and `generate` stops at once on a signal.

use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// Starts `sudoku-batch ARGS` with its output streams piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Waits (at most a generous minute: the machine may be loaded) until
/// `ready` holds.
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The file's text so far (empty when it does not exist yet).
fn text_of(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Sends `signal` (`INT`, `TERM`) with the `kill` command and waits for the
/// process to end: a minute at most, far more than the second it may take,
/// so that a loaded machine never fails the test; a run that ignores the
/// signal fails it.
fn signal_and_wait(child: &mut Child, signal: &str) -> ExitStatus {
    let sent = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .expect("the kill command runs");
    assert!(sent.success(), "kill -s {signal} failed");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            eprintln!("ended {:?} after SIG{signal}", start.elapsed());
            return status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("still running a minute after SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// `generate`'s output after an interrupt: the header, then whole rows of
/// consecutive indexes from 1; returns the rows' count.
fn check_generated(text: &str) -> usize {
    let mut lines = text.split_inclusive('\n');
    assert_eq!(
        lines.next(),
        Some("index,puzzle,solution,clues,guesses\n"),
        "the header comes first, whole"
    );
    let mut rows = 0;
    for (i, line) in lines.enumerate() {
        assert!(line.ends_with('\n'), "a whole row: {line:?}");
        let fields: Vec<&str> = line.trim_end().split(',').collect();
        assert_eq!(fields[0], (i + 1).to_string(), "{line}");
        rows += 1;
    }
    rows
}

/// The stderr of a finished child.
fn child_stderr(child: Child) -> String {
    let output = child.wait_with_output().expect("the child's output");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn sigterm_while_a_minimal_25x25_puzzle_is_made_exits_143_with_the_header() {
    // A minimal 25x25 puzzle takes a minute of a release build (far more
    // here): the signal comes in the middle of the first one.
    let scratch = Scratch::new();
    let out = scratch.path("g.csv");
    let mut child = spawn(&["generate", "-n", "2", "--size", "25", "-j", "1", "-o", &out]);
    wait_until("the header", || text_of(&out).contains('\n'));
    std::thread::sleep(Duration::from_millis(300));
    let status = signal_and_wait(&mut child, "TERM");
    assert_eq!(status.code(), Some(143));
    assert_eq!(check_generated(&text_of(&out)), 0);
    let stderr = child_stderr(child);
    // The summary counts the puzzles started as candidates, as for 9x9.
    assert!(
        stderr.contains("interrupted (1 candidate tried)"),
        "{stderr}"
    );
}

#[test]
fn sigint_between_puzzles_keeps_the_finished_ones_whole_and_exits_130() {
    let scratch = Scratch::new();
    let out = scratch.path("g.csv");
    let mut child = spawn(&[
        "generate",
        "-n",
        "100000",
        "--size",
        "16",
        "--no-minimal",
        "-o",
        &out,
        "--progress",
        "always",
    ]);
    wait_until("a few rows", || text_of(&out).lines().count() > 3);
    let status = signal_and_wait(&mut child, "INT");
    assert_eq!(status.code(), Some(130));
    assert!(check_generated(&text_of(&out)) >= 3);
    let stderr = child_stderr(child);
    assert!(stderr.contains("kept, "), "{stderr}");
    assert!(
        stderr.contains(" tried"),
        "the progress counts candidates: {stderr}"
    );
}
