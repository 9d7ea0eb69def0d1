//! `sudoku-batch check`, run as a binary: it passes on the shipped data,
//! fails with exit 1 naming the line when a baseline's solution, status or
//! guess count differs, and exits 2 on a missing file or a baseline for
//! other inputs.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use tempfile::TempDir;

const TOP95: &str = "data/top95.txt";

fn cmd(subcommand: &str) -> Command {
    let mut cmd = Command::cargo_bin("sudoku-batch").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg(subcommand)
        .args(["--progress", "never"]);
    cmd
}

fn check(args: &[&str]) -> Command {
    let mut cmd = cmd("check");
    cmd.args(args);
    cmd
}

/// A results CSV baseline of `input`, written by `solve -o`, in `dir`.
fn baseline(dir: &TempDir, input: &str) -> PathBuf {
    let path = dir.path().join("baseline.csv");
    cmd("solve")
        .args([input, "--quiet", "-o"])
        .arg(&path)
        .assert()
        .success();
    path
}

/// The baseline's rows (header first), as records.
fn read_rows(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap();
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn write_rows(path: &Path, rows: &[Vec<String>]) {
    let mut writer = csv::Writer::from_path(path).unwrap();
    for row in rows {
        writer.write_record(row).unwrap();
    }
    writer.flush().unwrap();
}

/// Column indices of a results CSV with one input.
const LINE: usize = 0;
const PUZZLE: usize = 1;
const STATUS: usize = 2;
const SOLUTION: usize = 3;
const GUESSES: usize = 4;

/// The data row for input line `line` (top95 has no header: row k is line k).
fn row_of(rows: &mut [Vec<String>], line: u64) -> &mut Vec<String> {
    rows.iter_mut()
        .find(|r| r[LINE] == line.to_string())
        .expect("the line has a row")
}

/// Runs `check` on top95 with `base` as baseline; returns stderr.
fn check_against(base: &Path, code: i32) -> String {
    let assert = check(&[TOP95, "--quiet", "-o", "-", "--baseline"])
        .arg(base)
        .assert()
        .code(code);
    String::from_utf8(assert.get_output().stderr.clone()).unwrap()
}

#[test]
fn passes_on_the_shipped_data() {
    check(&[
        "data/top95.txt",
        "data/magictour_top1465.txt",
        "data/17_clue_10000.txt",
        "data/forum_hardest_2000.txt",
        "data/kaggle1m_10000.csv",
        "-o",
        "-",
        "-j",
        "2",
        "--quiet",
    ])
    .assert()
    .success()
    .stdout(contains("file,line,puzzle,status"))
    .stderr(contains("sudoku-batch check: ok: 23560 puzzles"));
}

#[test]
fn passes_against_its_own_baseline() {
    let dir = TempDir::new().unwrap();
    let base = baseline(&dir, TOP95);
    let stderr = check_against(&base, 0);
    assert!(
        stderr.contains("ok: 95 puzzles, 95 rows compared with baseline"),
        "{stderr}"
    );
}

/// A baseline made of `./data/top95.txt` checks a run given
/// `data/top95.txt` (and an absolute path): exit 2 "not an input of this
/// run" before (found by a new-user trial).
#[test]
fn passes_against_a_baseline_naming_the_input_otherwise() {
    let dir = TempDir::new().unwrap();
    let base = dir.path().join("dotted.csv");
    let dotted = format!("./{TOP95}");
    cmd("solve")
        .args([dotted.as_str(), TOP95, "--quiet", "-o"])
        .arg(&base)
        .assert()
        .success();
    let absolute = std::fs::canonicalize(TOP95).unwrap();
    check(&[TOP95, "-o", "/dev/null", "--baseline"])
        .arg(&base)
        .arg(&absolute)
        .assert()
        .code(0)
        .stderr(contains("ok: 190 puzzles, 190 rows compared with baseline"));
}

#[test]
fn passes_against_a_baseline_of_an_input_given_twice() {
    let dir = TempDir::new().unwrap();
    let base = dir.path().join("twice.csv");
    cmd("solve")
        .args([TOP95, TOP95, "--quiet", "-o"])
        .arg(&base)
        .assert()
        .success();
    check(&[TOP95, TOP95, "-o", "/dev/null", "--baseline"])
        .arg(&base)
        .assert()
        .code(0)
        .stderr(contains("ok: 190 puzzles, 190 rows compared with baseline"));
    check(&[TOP95, "-o", "/dev/null", "--baseline"])
        .arg(&base)
        .assert()
        .code(2)
        .stderr(contains("given `data/top95.txt` more often than this one"));
}

#[test]
fn an_altered_solution_fails_naming_the_line() {
    let dir = TempDir::new().unwrap();
    let base = baseline(&dir, TOP95);
    let mut rows = read_rows(&base);
    let row = row_of(&mut rows, 17);
    let old = row[SOLUTION].clone();
    // Swap two digits: still 81 digits, no longer this puzzle's solution.
    let mut altered: Vec<char> = old.chars().collect();
    let (i, j) = (0..81)
        .flat_map(|i| (0..81).map(move |j| (i, j)))
        .find(|&(i, j)| altered[i] != altered[j] && row[PUZZLE].as_bytes()[i] == b'.')
        .unwrap();
    altered.swap(i, j);
    let altered: String = altered.into_iter().collect();
    row[SOLUTION] = altered.clone();
    write_rows(&base, &rows);

    let stderr = check_against(&base, 1);
    assert!(
        stderr.contains("FAILED: 1 failure in 95 puzzles"),
        "{stderr}"
    );
    // The first differing cell is named, not two 81-digit strings.
    let cell = format!("r{}c{}", i / 9 + 1, i % 9 + 1);
    let (was, now) = (altered.as_bytes()[i] as char, old.as_bytes()[i] as char);
    assert!(
        stderr.contains(&format!(
            "data/top95.txt:17: solution changed from the baseline: {cell}: {was} -> {now} (the \
             first of 2 changed cells)"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains(&old), "{stderr}");
}

#[test]
fn an_altered_status_fails_naming_the_line() {
    let dir = TempDir::new().unwrap();
    let base = baseline(&dir, TOP95);
    let mut rows = read_rows(&base);
    let row = row_of(&mut rows, 42);
    row[STATUS] = "multiple".into();
    row[SOLUTION] = String::new();
    write_rows(&base, &rows);

    let stderr = check_against(&base, 1);
    assert!(
        stderr.contains("data/top95.txt:42: status changed from the baseline: multiple -> solved"),
        "{stderr}"
    );
    assert!(stderr.contains("1 failure"), "{stderr}");
}

#[test]
fn an_altered_guess_count_fails_naming_the_line() {
    let dir = TempDir::new().unwrap();
    let base = baseline(&dir, TOP95);
    let mut rows = read_rows(&base);
    let row = row_of(&mut rows, 90);
    let old: u64 = row[GUESSES].parse().unwrap();
    row[GUESSES] = (old + 3).to_string();
    write_rows(&base, &rows);

    let stderr = check_against(&base, 1);
    assert!(
        stderr.contains(&format!(
            "data/top95.txt:90: guesses changed from the baseline: {} -> {old}",
            old + 3
        )),
        "{stderr}"
    );
}

#[test]
fn the_report_shows_twenty_failures_then_a_count() {
    let dir = TempDir::new().unwrap();
    let base = baseline(&dir, TOP95);
    let mut rows = read_rows(&base);
    for row in rows.iter_mut().skip(1).take(30) {
        let old: u64 = row[GUESSES].parse().unwrap();
        row[GUESSES] = (old + 1).to_string();
    }
    write_rows(&base, &rows);
    let stderr = check_against(&base, 1);
    assert!(
        stderr.contains("FAILED: 30 failures in 95 puzzles"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("guesses changed").count(), 20, "{stderr}");
    assert!(
        stderr.contains("... and 10 more failures (the first 20 are shown)"),
        "{stderr}"
    );
}

#[test]
fn a_baseline_made_in_another_mode_gets_a_hint_on_the_first_line() {
    let dir = TempDir::new().unwrap();
    let base = dir.path().join("first.csv");
    cmd("solve")
        .args([TOP95, "--first", "--quiet", "-o"])
        .arg(&base)
        .assert()
        .success();
    let stderr = check_against(&base, 1);
    let first = stderr.lines().next().unwrap();
    assert!(
        first.starts_with("sudoku-batch check: FAILED: "),
        "{stderr}"
    );
    assert!(
        first.ends_with(
            "guess counts changed: was the baseline made with the same --solver and --first?"
        ),
        "{stderr}"
    );
}

#[test]
fn a_baseline_with_another_puzzle_at_a_line_is_an_error() {
    let dir = TempDir::new().unwrap();
    let base = baseline(&dir, TOP95);
    let mut rows = read_rows(&base);
    let row = row_of(&mut rows, 5);
    row[PUZZLE] = row[PUZZLE].replacen('.', "1", 1);
    write_rows(&base, &rows);
    let stderr = check_against(&base, 2);
    assert!(
        stderr.contains("the puzzle for data/top95.txt:5 differs from this run's"),
        "{stderr}"
    );
}

#[test]
fn resume_is_refused_since_every_row_must_be_verified() {
    let dir = TempDir::new().unwrap();
    let base = baseline(&dir, TOP95);
    check(&[TOP95, "--quiet", "--resume", "-o"])
        .arg(&base)
        .assert()
        .code(2)
        .stderr(contains("cannot --resume"));
}

#[test]
fn resume_is_hidden_from_check_help_but_still_refused() {
    let help = check(&["--help"]).assert().success();
    let help = String::from_utf8(help.get_output().stdout.clone()).unwrap();
    assert!(!help.contains("--resume"), "{help}");
    assert!(help.contains("--baseline"), "{help}");
    // Without -o too, the reason is that check verifies every row, not
    // that --resume needs -o.
    check(&[TOP95, "--quiet", "--resume"])
        .assert()
        .code(2)
        .stderr(contains("cannot --resume"))
        .stderr(contains("needs -o").not());
}

#[test]
fn a_run_with_no_puzzles_fails_since_nothing_was_checked() {
    let dir = TempDir::new().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let header_only = dir.path().join("header.csv");
    std::fs::write(&header_only, "quizzes,solutions\n").unwrap();
    for input in [&empty, &header_only] {
        let assert = check(&["--quiet", "-o", "-"]).arg(input).assert().code(1);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(
            stderr.contains("FAILED: 1 failure in 0 puzzles"),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!(
                "no puzzles read from {}: nothing was checked",
                input.display()
            )),
            "{stderr}"
        );
        assert!(!stderr.contains("ok:"), "{stderr}");
    }
    check(&["--quiet", "-o", "-", "-"])
        .write_stdin("")
        .assert()
        .code(1)
        .stderr(contains("no puzzles read from stdin: nothing was checked"));
}

#[test]
fn missing_files_exit_2() {
    check(&["data/no-such-file.txt", "--quiet"])
        .assert()
        .code(2)
        .stderr(contains("no-such-file.txt"));
    check(&[
        TOP95,
        "--quiet",
        "-o",
        "-",
        "--baseline",
        "no-such-baseline.csv",
    ])
    .assert()
    .code(2)
    .stderr(contains("baseline no-such-baseline.csv"));
}

/// A summary baseline of top95 in `dir`, its total guesses changed by
/// `delta`.
fn summary_baseline(dir: &TempDir, delta: i64) -> (PathBuf, u64) {
    let path = dir.path().join("summary.json");
    cmd("solve")
        .args([TOP95, "--quiet", "-o", "-", "--summary-json"])
        .arg(&path)
        .assert()
        .success();
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let total = json["guesses"]["total"].as_u64().unwrap();
    json["guesses"]["total"] = (total as i64 + delta).into();
    std::fs::write(&path, json.to_string()).unwrap();
    (path, total)
}

#[test]
fn a_summary_baseline_fails_when_guesses_move_beyond_the_threshold() {
    let dir = TempDir::new().unwrap();
    // Total guesses 10% above this run's: a 10/110 = 9.1% fall.
    let (_, total) = summary_baseline(&dir, 0);
    let (path, _) = summary_baseline(&dir, (total / 10) as i64);
    let old = total + total / 10;
    let run = |pct: &str| {
        let assert = check(&[TOP95, "--quiet", "-o", "-", "--max-guess-change", pct])
            .arg("--baseline")
            .arg(&path)
            .assert();
        assert
    };
    run("0").code(1).stderr(contains(format!(
        "total guesses changed from the baseline: {old} -> {total}"
    )));
    run("5")
        .code(1)
        .stderr(contains("--max-guess-change allows 5%"));
    run("10")
        .success()
        .stderr(contains("ok: 95 puzzles, totals compared with baseline"));
}

#[test]
fn an_unchanged_summary_baseline_passes_and_speed_is_checked_only_on_request() {
    let dir = TempDir::new().unwrap();
    let (path, _) = summary_baseline(&dir, 0);
    let base = path.to_str().unwrap();
    check(&[TOP95, "--quiet", "-o", "-", "--baseline", base])
        .assert()
        .success();
    // No machine runs a thousand times faster than itself.
    check(&[
        TOP95,
        "--quiet",
        "-o",
        "-",
        "--baseline",
        base,
        "--min-speed-ratio",
        "1000",
    ])
    .assert()
    .code(1)
    .stderr(contains("puzzles/s fell from the baseline"));
    // Another mode's guesses cannot be compared: a wrong baseline.
    check(&[TOP95, "--quiet", "-o", "-", "--first", "--baseline", base])
        .assert()
        .code(2)
        .stderr(contains("guess counts cannot be compared"));
}

#[test]
fn statuses_other_than_solved_fail_unless_allowed_or_expected() {
    let multiple = "tests/cases/05-multiple-solutions.txt";
    check(&[multiple, "-o", "-", "--quiet"])
        .assert()
        .code(1)
        .stderr(contains(format!(
            "{multiple}:1: status multiple, expected solved"
        )))
        .stderr(contains("FAILED: 4 failures in 4 puzzles"));
    check(&[multiple, "-o", "-", "--quiet", "--allow", "multiple"])
        .assert()
        .success();

    // A previous results CSV as input: its status column is what is
    // expected of each row.
    let dir = TempDir::new().unwrap();
    let results = dir.path().join("results.csv");
    cmd("solve")
        .args([
            multiple,
            "tests/cases/02-duplicate-givens.txt",
            "--quiet",
            "-o",
        ])
        .arg(&results)
        .assert()
        .code(1);
    check(&["-o", "-", "--quiet"])
        .arg(&results)
        .assert()
        .success()
        .stderr(contains("ok: 10 puzzles"));
}

#[test]
fn the_report_is_printed_even_with_quiet_and_the_outputs_are_solves() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("r.csv");
    let summary = dir.path().join("s.json");
    check(&["tests/cases/04-no-solution.txt", "--quiet", "-o"])
        .arg(&out)
        .arg("--summary-json")
        .arg(&summary)
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(contains(
            "tests/cases/04-no-solution.txt:1: status invalid, expected solved",
        ))
        .stderr(contains(
            "tests/cases/04-no-solution.txt:5: status unsolvable",
        ));
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(csv.starts_with("line,puzzle,status,solution,guesses,solve_us,check,message\n"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["unsolvable"], 4);
}

/// SIGINT on a `check` reading a stdin that never ends: exit 130, and the
/// report says `interrupted after N puzzles` (never `ok`) and lists the
/// failure found before the signal.
#[test]
fn an_interrupted_check_is_not_ok_and_reports_its_failures_so_far() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    const P: &str =
        "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("r.csv");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(["check", "--progress", "never", "--quiet", "-j", "2", "-o"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Line 1 is invalid (a second 1 in row 1); then more than one chunk
    // (2048 records) of good puzzles, and the input never ends.
    let invalid = P.replacen('0', "1", 1);
    let input = format!("{invalid}\n{}", format!("{P}\n").repeat(3000));
    stdin.write_all(input.as_bytes()).unwrap();
    let rows = || std::fs::read(&out).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
    let deadline = Instant::now() + Duration::from_secs(60);
    while rows() <= 2048 {
        assert!(Instant::now() < deadline, "no rows written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = std::process::Command::new("kill")
        .args(["-s", "INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("sudoku-batch check: interrupted after "),
        "{stderr}"
    );
    assert!(stderr.contains("puzzles: 1 failure so far"), "{stderr}");
    assert!(
        stderr.contains(":1: status invalid, expected solved"),
        "{stderr}"
    );
    assert!(!stderr.contains("ok:"), "{stderr}");
}
