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

/// Runs `sudoku-batch ARGS` to the end.
fn run(args: &[&str]) -> std::process::Output {
    bin().args(args).output().expect("the binary runs")
}

/// The results rows of a CSV as header name -> value maps.
fn table(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .map(|row| row.expect("a well-formed row"))
        .collect()
}

#[test]
fn nine_by_nine_puzzles_made_with_1x9_boxes_are_solved_with_them() {
    let scratch = Scratch::new();
    let made = scratch.path("g.csv");
    let output = run(&[
        "generate", "-n", "4", "--size", "9", "--box", "1x9", "-o", &made, "--quiet",
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let output = solve(&[&made, "--box", "1x9"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let rows = table(&stdout(&output));
    let generated = table(&read_output(&made));
    assert_eq!(rows.len(), 4);
    for (row, made) in rows.iter().zip(&generated) {
        assert_eq!(row["status"], "solved", "{row:?}");
        assert_eq!(row["check"], "ok", "the generated solution: {row:?}");
        assert_eq!(row["puzzle"], made["puzzle"]);
        assert_eq!(row["solution"], made["solution"]);
    }
    // With the usual boxes the same puzzles are another matter: a given
    // repeated in a 3x3 box, or another solution; never the 1x9 one.
    let usual = table(&stdout(&solve(&[&made])));
    assert!(usual.iter().all(|row| row["check"] != "ok"), "{usual:?}");
}

#[test]
fn usual_boxes_named_change_nothing_on_nine_by_nine() {
    let input = repo("data/magictour_top1465.txt");
    let args = [input.as_str(), "--limit", "40", "--max-guesses", "1000"];
    let plain = solve(&args);
    let named = solve(&[&args[..], &["--box", "3x3"]].concat());
    assert_eq!(code(&named), code(&plain));
    assert_eq!(
        without_timing(&stdout(&named)),
        without_timing(&stdout(&plain))
    );
}

#[test]
fn a_box_or_alphabet_that_fits_no_record_is_refused_by_name() {
    let input = case("01-anti-backtracking.txt");
    for (option, value, named) in [
        ("--box", "3x2", "--box 3x2 is for 6x6 grids"),
        ("--box", "4x4", "--box 4x4 is for 16x16 grids"),
        ("--symbols", "A-Z", "--symbols A-Z fits no record"),
        ("--symbols", "0-9A-Z", "--symbols 0-9A-Z fits no record"),
        ("--symbols", "numbers0", "--symbols numbers0 fits no record"),
    ] {
        let output = solve(&[&input, option, value]);
        assert_eq!(code(&output), 2, "{option} {value}: {}", stderr(&output));
        let stderr = stderr(&output);
        assert!(stderr.contains(named), "{stderr}");
        assert!(stderr.contains("9x9 grids"), "{stderr}");
    }
    // `numbers` named as written, not as a range of 36 numbers.
    let six = case("sizes-6x6-box-3x2.txt");
    let output = solve(&[&six, "--symbols", "numbers"]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--symbols numbers fits no record read (1 record: all malformed)"),
        "{}",
        stderr(&output)
    );
    // One record that fits is enough: a 6x6 file beside the 9x9 one (exit
    // 1: the second 9x9 puzzle has several solutions).
    let output = solve(&[&input, &six, "--box", "3x2"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert!(stdout(&output).contains(",614352236514452136361245523461145623,"));
    // An alphabet that reads the 9x9 digits fits them.
    let output = solve(&[&input, "--symbols", "1-9A-Z"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
}

#[test]
fn resume_refuses_a_file_written_with_other_boxes() {
    let scratch = Scratch::new();
    // 6x6 solved with 3x2 boxes, resumed with the usual 2x3 ones.
    let six = case("sizes-6x6-box-3x2.txt");
    let out = scratch.path("six.csv");
    assert_eq!(code(&solve(&[&six, "--box", "3x2", "-o", &out])), 0);
    let output = solve(&[&six, "-o", &out, "--resume"]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("its solution breaks this run's 2x3 boxes"),
        "{}",
        stderr(&output)
    );
    // 9x9 solved with 1x9 boxes, resumed with the usual 3x3 ones.
    let made = scratch.path("g.csv");
    let output = run(&[
        "generate", "-n", "3", "--size", "9", "--box", "1x9", "-o", &made, "--quiet",
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let out = scratch.path("nine.csv");
    assert_eq!(code(&solve(&[&made, "--box", "1x9", "-o", &out])), 0);
    let before = read_output(&out);
    let output = solve(&[&made, "-o", &out, "--resume"]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("its solution breaks this run's 3x3 boxes"),
        "{}",
        stderr(&output)
    );
    assert_eq!(read_output(&out), before, "nothing appended");
    // The same file with --box 1x9 resumes: nothing left to do.
    let output = solve(&[&made, "--box", "1x9", "-o", &out, "--resume"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read_output(&out), before);
}

#[test]
fn resume_refuses_another_box_or_alphabet_that_the_summary_records() {
    // Solved with the usual boxes, the 1x9 puzzles get no solution a
    // later run could check; the summary says which boxes wrote the file.
    let scratch = Scratch::new();
    let made = scratch.path("g.csv");
    let output = run(&[
        "generate", "-n", "3", "--size", "9", "--box", "1x9", "-o", &made, "--quiet",
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let (out, summary) = (scratch.path("r.csv"), scratch.path("s.json"));
    solve(&[&made, "-o", &out, "--summary-json", &summary]);
    let json: serde_json::Value =
        serde_json::from_str(&read_output(&summary)).expect("a JSON summary");
    assert!(json["options"]["box"].is_null(), "{json}");
    assert!(json["options"]["symbols"].is_null(), "{json}");
    let before = read_output(&out);
    for (option, value, named) in [
        ("--box", "1x9", "--box none then, 1x9 now"),
        ("--symbols", "1-9A-Z", "--symbols none then, 1-9A-Z now"),
    ] {
        let output = solve(&[
            &made,
            option,
            value,
            "-o",
            &out,
            "--summary-json",
            &summary,
            "--resume",
        ]);
        assert_eq!(code(&output), 2, "{}", stderr(&output));
        assert!(stderr(&output).contains(named), "{}", stderr(&output));
        assert_eq!(read_output(&out), before, "nothing appended");
    }
}

/// Cell values of a 4x4 written in `0-3` (0 blank, `0` read as 1).
fn zero_based_chars(text: &str) -> Vec<u32> {
    text.chars()
        .map(|ch| match ch {
            '.' => 0,
            '0'..='3' => ch as u32 - '0' as u32 + 1,
            _ => panic!("{ch:?} is no symbol of 0-3"),
        })
        .collect()
}

/// True when `solution` (values 1..=4, 2x2 boxes) fills `puzzle`.
fn solves_four(puzzle: &[u32], solution: &[u32]) -> bool {
    let unit = |cells: [usize; 4]| {
        let mut seen: Vec<u32> = cells.iter().map(|&i| solution[i]).collect();
        seen.sort_unstable();
        seen == [1, 2, 3, 4]
    };
    puzzle.len() == 16
        && solution.len() == 16
        && puzzle.iter().zip(solution).all(|(p, s)| *p == 0 || p == s)
        && (0..4).all(|i| {
            let (top, left) = (i / 2 * 2, i % 2 * 2);
            unit([i * 4, i * 4 + 1, i * 4 + 2, i * 4 + 3])
                && unit([i, 4 + i, 8 + i, 12 + i])
                && unit([
                    top * 4 + left,
                    top * 4 + left + 1,
                    (top + 1) * 4 + left,
                    (top + 1) * 4 + left + 1,
                ])
        })
}

#[test]
fn zero_based_numbers_keep_every_given_and_match_their_solution_column() {
    // 16x16 as the numbers 0-15: blanks `.` (row 1) or `-1` (row 2), and
    // a 1-based row with `0` blanks (row 3). Before, every `0` given became
    // a blank: `multiple` and `mismatch`.
    let rows = rows(&stdout(&solve(&[&case("r4-25a-zero-based16.csv")])));
    assert_eq!(rows.len(), 3);
    for row in &rows[..2] {
        assert_eq!(
            (row.status.as_str(), row.check.as_str()),
            ("solved", "ok"),
            "line {}: {}",
            row.line,
            row.message
        );
    }
    // One numbering per input: the two rows numbered from 0 outvote the
    // one numbered from 1, which is refused saying so (alone, it is
    // solved).
    assert_eq!(
        (rows[2].status.as_str(), rows[2].message.as_str()),
        (
            "malformed",
            "numbered from 1 (16 at cell 19), but most of this input's first 16x16 records \
             are numbered from 0 (2 of 3): one numbering per input (--symbols numbers reads it \
             all so)"
        )
    );
    let input = std::fs::read_to_string(case("r4-25a-zero-based16.csv")).unwrap();
    let lines: Vec<&str> = input.lines().collect();
    let scratch = Scratch::new();
    let one = scratch.file(
        "one.csv",
        format!("{}\n{}\n", lines[0], lines[3]).as_bytes(),
    );
    let alone = crate::common::rows(&stdout(&solve(&[&one])));
    assert_eq!(
        (alone[0].status.as_str(), alone[0].check.as_str()),
        ("solved", "ok")
    );
    // Written back as read: numbers from 0, blanks `.`, every `0` given kept.
    let input = std::fs::read_to_string(case("r4-25a-zero-based16.csv")).unwrap();
    let dot_row = input.lines().nth(1).unwrap();
    assert!(
        dot_row.contains(&format!("\"{}\"", rows[0].puzzle)),
        "{}",
        rows[0].puzzle
    );
    assert_eq!(rows[1].puzzle, rows[0].puzzle);
    assert!(rows[0].solution.split(',').any(|v| v == "0"));
    assert!(!rows[0].solution.split(',').any(|v| v == "16"));
}

#[test]
fn zero_based_digits_of_a_4x4_are_givens_not_blanks() {
    // 4x4 lines in `0-3` with `.` blanks after a 9x9 line: before, each `0`
    // given was a blank and every 4x4 came out `multiple`.
    let rows = rows(&stdout(&solve(&[&case("r4-25b-four-0-3.txt")])));
    assert_eq!(rows.len(), 6);
    for row in &rows[1..] {
        assert_eq!(row.status, "solved", "line {}: {}", row.line, row.message);
        assert!(
            solves_four(
                &zero_based_chars(&row.puzzle),
                &zero_based_chars(&row.solution)
            ),
            "line {}: {} does not solve {}",
            row.line,
            row.solution,
            row.puzzle
        );
        assert!(row.solution.contains('0'), "{}", row.solution);
    }
    // `--symbols numbers0` reads such numbers whatever their blanks.
    let scratch = Scratch::new();
    let four = scratch.file("four.txt", b"0,1,2,3,2,3,0,1,1,0,3,2,3,2,1,.\n");
    let given = crate::common::rows(&stdout(&solve(&[&four, "--symbols", "numbers0"])));
    assert_eq!(given[0].status, "solved", "{}", given[0].message);
    assert_eq!(given[0].solution, "0,1,2,3,2,3,0,1,1,0,3,2,3,2,1,0");
}
