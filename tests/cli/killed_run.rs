//! A run killed outright (SIGKILL) before its first row leaves its results
//! file's temporary file (`.NAME.results-PID.partial`) beside that file,
//! which is left as it was (or not created): the next `solve`, `check` or
//! `rate` into the same file removes it once that process is gone, saying
//! so once, and leaves one that a live process may be writing; `--resume`
//! continues the file the killed run left.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// `sudoku-batch COMMAND - -o OUT`, given a header and `puzzle` on its
/// stdin, which stays open: it waits for more records to read ahead, its
/// results written beside `out` and no row yet. Returns once the
/// temporary file is there, with that file's path.
fn waiting_run(command: &str, out: &str, puzzle: &str) -> (Child, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args([command, "-", "-o", out, "--quiet", "--progress", "never"])
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    write!(stdin, "puzzle\n{puzzle}\n").expect("the run reads its stdin");
    // Kept open (until the child is waited for): the run waits for the rest.
    child.stdin = Some(stdin);
    let partial = results_partial(out, child.id());
    let deadline = Instant::now() + Duration::from_secs(60);
    while !Path::new(&partial).exists() {
        assert!(Instant::now() < deadline, "{partial} never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, partial)
}

/// Kills `child` outright and waits for it, so that its process is gone.
fn kill(mut child: Child) {
    child.kill().expect("SIGKILL is sent");
    child.wait().expect("the child ends");
}

/// The number of times `part` is in `text`.
fn times(text: &str, part: &str) -> usize {
    text.matches(part).count()
}

/// A `puzzle` CSV of the puzzles of `pairs`, in `scratch`: its path.
fn given_csv(scratch: &Scratch, pairs: &[(String, String)]) -> String {
    let mut text = String::from("puzzle\n");
    for (puzzle, _) in pairs {
        text.push_str(&format!("{puzzle}\n"));
    }
    scratch.file("given.csv", text.as_bytes())
}

#[test]
fn a_partial_file_of_a_run_killed_outright_is_removed_by_the_next_run() {
    let scratch = Scratch::new();
    let pairs = kaggle(5);
    let given = given_csv(&scratch, &pairs);
    for command in ["solve", "check", "rate"] {
        let out = scratch.path(&format!("{command}.csv"));
        let (child, partial) = waiting_run(command, &out, &pairs[0].0);
        let pid = child.id();
        kill(child);
        assert!(Path::new(&partial).exists(), "{command}");
        assert!(!Path::new(&out).exists(), "{command}: created before a row");

        let output = run_subcommand(command, &[&given, "-o", &out, "--quiet"]);
        assert_eq!(code(&output), 0, "{command}: {}", stderr(&output));
        let said = stderr(&output);
        let removed = format!(
            "warning: removed {partial}, what a run of {out} killed outright left (process \
             {pid} is gone)"
        );
        assert_eq!(times(&said, &removed), 1, "{command}: {said}");
        assert_eq!(times(&said, "warning"), 1, "{command}: {said}");
        assert!(!Path::new(&partial).exists(), "{command}");
        let (_, rows) = csv_table(&read_output(&out));
        let statuses: Vec<&str> = rows.iter().map(|row| row["status"].as_str()).collect();
        assert_eq!(statuses, ["solved"; 5], "{command}");
    }
}

#[test]
fn a_partial_file_of_a_live_process_is_left_alone() {
    let scratch = Scratch::new();
    let pairs = kaggle(2);
    let given = scratch.file("given.csv", format!("puzzle\n{}\n", pairs[0].0).as_bytes());
    let out = scratch.path("r.csv");
    // This test's own process: alive, so its file may be being written,
    // but unlocked (a file system without locks): named, and the run goes
    // on.
    let live = scratch.file(
        &format!(".r.csv.results-{}.partial", std::process::id()),
        b"being written\n",
    );
    for command in ["solve", "check", "rate"] {
        let output = run_subcommand(command, &[&given, "-o", &out, "--quiet"]);
        assert_eq!(code(&output), 0, "{command}: {}", stderr(&output));
        let said = stderr(&output);
        let named = format!("warning: {live} is another run's temporary file of {out}");
        assert_eq!(times(&said, &named), 1, "{command}: {said}");
        assert!(!said.contains("removed"), "{command}: {said}");
        let (_, rows) = csv_table(&read_output(&out));
        assert_eq!(rows.len(), 1, "{command}");
        assert_eq!(rows[0]["status"], "solved", "{command}");
    }
    // A run waiting for its input: alive, its file locked; another run
    // into the same file is refused (tests/cli/same_output.rs).
    let (child, waiting) = waiting_run("solve", &out, &pairs[1].0);
    for command in ["solve", "check", "rate"] {
        let output = run_subcommand(command, &[&given, "-o", &out, "--quiet"]);
        assert_eq!(code(&output), 2, "{command}: {}", stderr(&output));
        let said = stderr(&output);
        let named = format!("the lock of its temporary file {waiting}); nothing was written");
        assert_eq!(times(&said, &named), 1, "{command}: {said}");
        assert!(!said.contains("removed"), "{command}: {said}");
        assert!(Path::new(&waiting).exists(), "{command}");
    }
    assert_eq!(std::fs::read(&live).expect("kept"), b"being written\n");
    kill(child);
}

#[test]
fn a_resume_after_a_run_killed_before_its_first_row_continues_the_file_it_left() {
    let scratch = Scratch::new();
    let pairs = kaggle(5);
    let given = given_csv(&scratch, &pairs);
    let whole = scratch.path("whole.csv");
    let output = run_subcommand("solve", &[&given, "-o", &whole, "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));

    // Three rows, then a run into the same file killed before its first.
    let out = scratch.path("r.csv");
    let output = run_subcommand("solve", &[&given, "-o", &out, "--limit", "3", "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let three = std::fs::read(&out).expect("written");
    let (child, partial) = waiting_run("solve", &out, &pairs[0].0);
    let pid = child.id();
    kill(child);
    assert_eq!(std::fs::read(&out).expect("still there"), three);

    // The resume reads the three rows, not the killed run's header, and
    // removes what that run left.
    let output = run_subcommand("solve", &[&given, "-o", &out, "--resume", "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains(&format!("warning: removed {partial}, what a run of {out}")),
        "{said}"
    );
    assert!(said.contains(&format!("(process {pid} is gone)")), "{said}");
    assert!(!Path::new(&partial).exists());
    let resumed = read_output(&out);
    assert!(resumed.starts_with(std::str::from_utf8(&three).expect("UTF-8")));
    assert_eq!(
        without_timing(&resumed),
        without_timing(&read_output(&whole))
    );
}
