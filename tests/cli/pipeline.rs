//! The parallel pipeline through the real binary: the same rows for any
//! `-j`, the `-j` bound, and a prompt stop while the threads start.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// Records per chunk in the pipeline (`pipeline::CHUNK_RECORDS`).
const CHUNK: usize = 2048;

fn lines_of(path: &str) -> Vec<String> {
    std::fs::read_to_string(repo(path))
        .expect("a shipped corpus")
        .lines()
        .filter(|l| l.len() == 81 && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// A corpus of every kind of record, with the slowest puzzles placed at the
/// end of each chunk, where a pipeline that finished chunks one at a time,
/// or out of order, would show it.
/// Returns the text and the number of records in it.
fn mixed_corpus() -> (String, usize) {
    let easy = lines_of("data/17_clue_10000.txt");
    let mut hard = lines_of("data/forum_hardest_2000.txt");
    hard.extend(lines_of("data/top95.txt"));
    let odd = [
        "1234", // malformed: too short
        "x16400000200009000400000062070230100100000003003087040960000005000800007000006820", // bad character
        ".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6..", // invalid
        ".................................................................................", // multiple
        "516400000200009000400000062070230100100000003003087040960000005000800007000006820", // unsolvable
        "# a comment",
        "",
    ];
    let mut text = String::from("puzzles of every kind\n");
    let (mut e, mut h, mut records) = (0, 0, 0);
    for i in 0..3 * CHUNK + 100 {
        let at = i % CHUNK;
        if at >= CHUNK - 12 {
            text.push_str(&hard[h % hard.len()]);
            h += 1;
        } else if i % 97 == 5 {
            let line = odd[(i / 97) % odd.len()];
            text.push_str(line);
            if line.is_empty() || line.starts_with('#') {
                records -= 1;
            }
        } else {
            text.push_str(&easy[e % easy.len()]);
            e += 1;
        }
        text.push('\n');
        records += 1;
    }
    (text, records)
}

#[test]
fn rows_are_byte_identical_for_1_2_and_7_threads_timing_aside() {
    let scratch = Scratch::new();
    let (text, records) = mixed_corpus();
    let mixed = scratch.file("mixed.txt", text.as_bytes());
    let kaggle = repo("data/kaggle1m_10000.csv");
    let mut outputs = Vec::new();
    let mut first = None;
    for threads in ["1", "2", "7"] {
        let out = scratch.path(&format!("r{threads}.csv"));
        let output = solve(&[&mixed, &kaggle, "-j", threads, "-o", &out]);
        assert_eq!(code(&output), 1, "{}", stderr(&output));
        let text = read_output(&out);
        outputs.push(without_timing(&text));
        first.get_or_insert(text);
    }
    assert_eq!(outputs[0], outputs[1], "-j 1 and -j 2 differ");
    assert_eq!(outputs[0], outputs[2], "-j 1 and -j 7 differ");
    let rows = rows(&first.expect("three runs"));
    check_rows(&rows);
    assert_eq!(rows.len(), records + 10_000);
    for kind in ["solved", "malformed", "invalid", "multiple", "unsolvable"] {
        assert!(rows.iter().any(|r| r.status == kind), "no {kind} row");
    }
}

#[test]
fn more_than_1024_threads_is_a_usage_error_before_any_thread_starts() {
    let top95 = repo("data/top95.txt");
    for command in [
        vec!["solve", &top95, "-j", "1025"],
        vec!["check", &top95, "-j", "100000"],
        vec!["bench", &top95, "-j", "1,5000", "--time-s", "0.1"],
    ] {
        let output = bin().args(&command).output().expect("the binary runs");
        assert_eq!(code(&output), 2, "{command:?}");
        let err = stderr(&output);
        assert!(err.contains("at most 1024 threads"), "{command:?}: {err}");
        assert!(stdout(&output).is_empty(), "{command:?}");
    }
}

#[test]
fn more_threads_than_cores_are_allowed_with_one_warning() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let many = (cores + 1).to_string();
    let top95 = repo("data/top95.txt");
    let output = solve(&[&top95, "-j", &many, "-o", "/dev/null"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let err = stderr(&output);
    assert_eq!(err.matches("more threads than the").count(), 1, "{err}");
    let output = bin()
        .args(["bench", &top95, "-j", &format!("1,{many}")])
        .args(["--solver", "fast", "--time-s", "0.05", "--warmup-s", "0"])
        .output()
        .expect("the binary runs");
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let err = stderr(&output);
    assert_eq!(err.matches("more threads than the").count(), 1, "{err}");
}

/// True once the process `pid` catches SIGTERM (its handler is installed),
/// from `/proc`.
fn catches_sigterm(pid: u32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (15 - 1)) != 0)
}

fn wait_for_exit(child: &mut Child, limit: Duration) -> (Option<i32>, Duration) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return (status.code(), start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return (None, start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn sigterm_while_1024_threads_start_ends_the_run_within_a_second() {
    let scratch = Scratch::new();
    let out = scratch.path("r.csv");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args([
            "solve",
            &repo("data/top95.txt"),
            "-j",
            "1024",
            "-o",
            &out,
            "--quiet",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !catches_sigterm(child.id()) {
        assert!(
            Instant::now() < deadline,
            "no signal handler after a minute"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let sent = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status()
        .expect("the kill command runs");
    assert!(sent.success());
    let (exit, after) = wait_for_exit(&mut child, Duration::from_secs(30));
    eprintln!("ended {after:?} after SIGTERM");
    // 143 when the signal stopped the run; 0 if all 95 puzzles were
    // already solved when it came.
    assert!(matches!(exit, Some(143 | 0)), "exit {exit:?}");
    assert!(after < Duration::from_secs(1), "took {after:?}");
}
