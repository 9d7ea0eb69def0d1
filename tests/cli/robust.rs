//! "Nothing lost": the real binary on every input layout it must read as it
//! is, on every kind of bad input, under SIGINT and SIGTERM, with `--resume`,
//! `--timeout-ms` and a full disk. Every fixture is written here, small.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

/// A puzzle with one solution, [`S`].
const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
/// The solution of [`P`].
const S: &str = "316452978285679314497318562879234156142965783653187249968721435521843697734596821";
/// A 17-clue puzzle with one solution.
const Q: &str = "000007004000006003860200000509082000640000080000000700000000042010030000703000009";
/// A puzzle against row-major backtracking: the naive solver needs far
/// longer than any test waits for it.
const SLOW_FOR_NAIVE: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

/// [`P`] as the results write it, `.` for blanks.
fn dotted(puzzle: &str) -> String {
    puzzle.replace('0', ".")
}

/// [`S`] with its last cell blank: solved at once by any solver.
fn last_cell_blank() -> String {
    format!("{}0", &S[..80])
}

/// Runs `solve` on a file holding `text` (named `name`, so `.csv` matters)
/// with `args`, asserts the exit code, and returns the rows, checked.
fn solve_text(name: &str, text: &[u8], args: &[&str], expected_code: i32) -> Vec<Row> {
    let scratch = Scratch::new();
    let input = scratch.file(name, text);
    let mut all = vec![input.as_str()];
    all.extend_from_slice(args);
    solve_rows(&all, expected_code)
}

fn messages(rows: &[Row]) -> Vec<(u64, &str, &str)> {
    rows.iter()
        .map(|r| (r.line, r.status.as_str(), r.message.as_str()))
        .collect()
}

// ---- Layouts read as they are -------------------------------------------

#[test]
fn free_text_after_the_puzzle_is_a_comment() {
    let text = format!("{P} // from a newspaper, 12/3\n{Q} Very hard (rated 9.1)\n");
    let rows = solve_text("notes.txt", text.as_bytes(), &[], 0);
    assert_eq!(statuses(&rows), [(1, "solved"), (2, "solved")]);
}

#[test]
fn count_and_title_lines_at_the_top_are_headers() {
    for top in ["2\n", "Top 2 hardest, from the forum\n", "49151\n\n"] {
        let text = format!("{top}{P}\n{Q}\n");
        let rows = solve_text("top.txt", text.as_bytes(), &[], 0);
        let first = top.lines().count() as u64 + 1;
        assert_eq!(
            statuses(&rows),
            [(first, "solved"), (first + 1, "solved")],
            "{top:?}"
        );
    }
}

#[test]
fn comment_and_blank_lines_are_skipped_but_counted() {
    let text = format!("# tdoku set\n#! generated\n{P}\n\n\n{Q}\n# the end\n\n");
    let rows = solve_text("c.txt", text.as_bytes(), &[], 0);
    assert_eq!(statuses(&rows), [(3, "solved"), (6, "solved")]);
}

#[test]
fn bom_crlf_mixed_endings_and_no_final_newline() {
    let text = format!("\u{feff}{P}\r\n# lf comment\n{Q}\r\n\r\n{P}");
    let rows = solve_text("dos.txt", text.as_bytes(), &[], 0);
    assert_eq!(
        statuses(&rows),
        [(1, "solved"), (3, "solved"), (5, "solved")]
    );
    assert_eq!(
        rows[0].puzzle,
        dotted(P),
        "the BOM is not part of the puzzle"
    );
}

#[test]
fn a_lone_dos_end_of_file_byte_is_ignored() {
    let text = format!("{P}\r\n{Q}\r\n\x1A");
    let rows = solve_text("top2365.txt", text.as_bytes(), &[], 0);
    assert_eq!(statuses(&rows), [(1, "solved"), (2, "solved")]);
}

#[test]
fn csv_with_an_unnamed_index_column_quotes_and_padding() {
    let text = format!(",puzzle,solution\n0,\"{P}\",  {S}  \n1,  {Q}  ,\n");
    let rows = solve_text("index.csv", text.as_bytes(), &[], 0);
    assert_eq!(statuses(&rows), [(2, "solved"), (3, "solved")]);
    assert_eq!((rows[0].check.as_str(), rows[1].check.as_str()), ("ok", ""));
}

#[test]
fn csv_of_two_to_ten_columns_finds_the_puzzle_by_name() {
    for columns in 2..=10 {
        let names: Vec<String> = (0..columns)
            .map(|i| match i {
                1 => "Quizzes".to_string(),
                2 => "solutions".to_string(),
                _ => format!("c{i}"),
            })
            .collect();
        let values: Vec<String> = (0..columns)
            .map(|i| match i {
                1 => P.to_string(),
                2 => S.to_string(),
                _ => format!("{i}"),
            })
            .collect();
        let text = format!("{}\r\n{}\r\n", names.join(","), values.join(","));
        let rows = solve_text("wide.csv", text.as_bytes(), &[], 0);
        assert_eq!(statuses(&rows), [(2, "solved")], "{columns} columns");
        assert_eq!(rows[0].puzzle, dotted(P), "{columns} columns");
        let check = if columns > 2 { "ok" } else { "" };
        assert_eq!(rows[0].check, check, "{columns} columns");
    }
}

#[test]
fn a_puzzle_a_spreadsheet_made_a_number_is_malformed_never_guessed() {
    let csv = "quizzes,solutions\r\n4.30021E+78,8.64371E+80\r\n4.01001E+79,3.46179E+80\r\n";
    let rows = solve_text("mangled.csv", csv.as_bytes(), &[], 1);
    assert_eq!(statuses(&rows), [(2, "malformed"), (3, "malformed")]);
    assert_eq!(
        rows[0].message,
        "looks like a spreadsheet number (4.30021E+78): leading zeros lost"
    );
    let lines = format!("{P}\n4.30021E+78\n");
    let rows = solve_text("mangled.txt", lines.as_bytes(), &[], 1);
    assert_eq!(statuses(&rows), [(1, "solved"), (2, "malformed")]);
    assert!(rows[1].message.contains("spreadsheet number"));
}

#[test]
fn id_puzzle_rating_lines_find_the_puzzle_in_a_later_field() {
    // Spaces and tabs are one separator; `;` is not one in this file
    // (its first record's is whitespace), so line 3 is one field.
    let text = format!("1 {P} 2.5\n2\t{Q}\t7.1\n3;{P};{S}\n");
    let rows = solve_text("rated.txt", text.as_bytes(), &[], 1);
    assert_eq!(
        statuses(&rows),
        [(1, "solved"), (2, "solved"), (3, "malformed")]
    );
    assert_eq!(rows[1].puzzle, dotted(Q));
    let text = format!("3;{P};{S}\n");
    let rows = solve_text("rated.txt", text.as_bytes(), &[], 0);
    assert_eq!(
        rows[0].check, "ok",
        "the complete grid is the given solution"
    );
}

#[test]
fn a_short_puzzle_before_its_solution_is_malformed_never_solved_from_it() {
    let text = format!("{},{S}\n", &P[..76]);
    let rows = solve_text("short.txt", text.as_bytes(), &[], 1);
    assert_eq!(messages(&rows), [(1, "malformed", "76 cells, expected 81")]);
}

#[test]
fn column_n_chooses_the_field_for_text_and_csv() {
    let text = format!("{Q} {P}\n");
    let rows = solve_text("two.txt", text.as_bytes(), &["--column", "2"], 0);
    assert_eq!(rows[0].puzzle, dotted(P));
    let csv = format!("first,second\n{Q},{P}\n");
    let rows = solve_text("two.csv", csv.as_bytes(), &["--column", "2"], 0);
    assert_eq!(rows[0].puzzle, dotted(P));
}

#[test]
fn a_solutions_file_is_paired_record_by_record_and_checked() {
    let scratch = Scratch::new();
    let input = scratch.file("top.txt", format!("# two\n{P}\n\n{P}\n").as_bytes());
    let wrong = S.replace("316", "361");
    let solutions = scratch.file("solved_top.txt", format!("{S}\n{wrong}\n").as_bytes());
    let rows = solve_rows(&[&input, "--solutions", &solutions], 1);
    let checks: Vec<(u64, &str)> = rows.iter().map(|r| (r.line, r.check.as_str())).collect();
    assert_eq!(checks, [(2, "ok"), (4, "mismatch")]);
}

/// Norvig's easy50 layout: 9-line grids between `========` lines.
fn grids_9x9() -> String {
    let grid = "003020600\n900305001\n001806400\n008102900\n700000008\n\
                006708200\n002609500\n800203009\n005010300\n";
    format!("{grid}========\n{grid}")
}

#[test]
fn a_grid_file_is_refused_under_auto_naming_format_grid_before_any_row() {
    let euler = format!("Grid 01\n{}", grids_9x9().replace("========", "Grid 02"));
    let comma_4x4 = "2,1,0,0,\n0,3,2,0,\n0,0,0,4,\n1,0,0,0,\n";
    for (name, text) in [
        ("easy50.txt", grids_9x9()),
        ("p096_sudoku.txt", euler),
        ("4x4.txt", comma_4x4.to_string()),
    ] {
        let scratch = Scratch::new();
        let input = scratch.file(name, text.as_bytes());
        let output = solve(&[&input]);
        assert_eq!(code(&output), 2, "{name}");
        assert!(
            output.stdout.is_empty(),
            "{name}: no row, not even a header"
        );
        let err = stderr(&output);
        assert!(err.contains("--format grid") && err.contains(name), "{err}");
    }
}

#[test]
fn grids_of_every_size_are_solved_under_format_grid() {
    let rows = solve_text(
        "easy50.txt",
        grids_9x9().as_bytes(),
        &["--format", "grid"],
        0,
    );
    assert_eq!(statuses(&rows), [(1, "solved"), (11, "solved")]);
    // Other sizes are read too (tests/sizes.rs checks them in full).
    let comma_4x4 = "2,1,0,0,\n0,3,2,0,\n0,0,0,4,\n1,0,0,0,\n";
    let output = solve_stdin(&["-", "--format", "grid"], comma_4x4.as_bytes());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let rows = crate::common::rows(&stdout(&output));
    assert_eq!(rows[0].status, "solved");
    assert_eq!(rows[0].solution, "2,1,4,3,4,3,2,1,3,2,1,4,1,4,3,2");
}

#[test]
fn one_line_puzzles_of_other_sizes_are_read_in_their_size() {
    // Sixteen copies of one row: every symbol repeated in its column.
    let sixteen = format!("{}\n", "6E.F..B82D..5.73".repeat(16));
    let text = format!("{sixteen}{sixteen}");
    let output = solve_stdin(&["-"], text.as_bytes());
    let rows = crate::common::rows(&stdout(&output));
    assert_eq!(rows.len(), 2, "the first line is no header");
    for row in &rows {
        assert_eq!(row.status, "invalid");
        assert_eq!(row.message, "6 twice in column 1: r1c1, r2c1");
    }
    let csv = "Puzzle,Solution\r\n3102200002100320,3142243142131324\r\n";
    let output = solve_stdin(&["-", "--format", "csv"], csv.as_bytes());
    let rows = crate::common::rows(&stdout(&output));
    assert_eq!((rows[0].line, rows[0].status.as_str()), (2, "solved"));
    assert_eq!(rows[0].check, "ok");
}

// ---- Bad and hostile input ----------------------------------------------

#[test]
fn every_kind_of_bad_record_is_a_malformed_row_and_the_run_goes_on() {
    let mut text = format!("{P}\n{}\n{P}5\n", &P[..80]).into_bytes();
    text.extend(format!("{}x{}\n", &P[..4], &P[5..]).bytes());
    text.extend([b'1'; 5000]);
    text.extend(b"\n\x00\x01\x02\xff\xfe garbage \x1b[31m\n");
    text.extend(&P.as_bytes()[..40]);
    text.extend(b"\xc3\x28");
    text.extend(&P.as_bytes()[42..]);
    text.extend(format!("\n{Q}\n").bytes());
    let rows = solve_text("bad.txt", &text, &[], 1);
    assert_eq!(
        messages(&rows),
        [
            (1, "solved", ""),
            (2, "malformed", "80 cells, expected 81"),
            (3, "malformed", "82 cells, expected 81"),
            (4, "malformed", "bad character 'x' at position 5"),
            (5, "malformed", "line too long (over 4096 bytes)"),
            (6, "malformed", "byte 0x00 at position 1"),
            (7, "malformed", "byte 0xC3 at position 41"),
            (8, "solved", ""),
        ]
    );
}

#[test]
fn messages_never_echo_much_input_nor_start_a_formula() {
    let hostile = [
        "=cmd|' /C calc'!A0".to_string(),
        "+1234567890123456789012345678901234567890123456789".to_string(),
        "-1".to_string(),
        "@SUM(A1:A9)".to_string(),
        format!("\x1b[31m{P}"),
        "\t=1+2".to_string(),
        "=HYPERLINK(\"http://example.com/\";\"x\")".to_string(),
        format!("{P}\u{202e}"),
        "9".repeat(60) + "=x",
    ];
    let mut text = format!("{P}\n").into_bytes();
    for line in &hostile {
        text.extend(line.bytes());
        text.push(b'\n');
    }
    text.extend(b"\xff\xfe=1\n");
    let csv = format!("puzzle,solution\n{P},\n=cmd|x,\n\"=1+2\",{S}\n\"\x07{P}\",\n");
    for (name, bytes) in [("hostile.txt", text), ("hostile.csv", csv.into_bytes())] {
        let scratch = Scratch::new();
        let input = scratch.file(name, &bytes);
        let output = solve(&[&input]);
        assert_eq!(code(&output), 1, "{name}: {}", stderr(&output));
        let rows = rows(&stdout(&output));
        assert!(rows.len() >= 4, "{name}: {rows:?}");
        let source = String::from_utf8_lossy(&bytes);
        for row in rows.iter().filter(|r| r.status == "malformed") {
            let m = &row.message;
            assert!(!m.starts_with(['=', '+', '-', '@']), "{name}: {m}");
            assert!(m.bytes().all(|b| (b' '..=b'~').contains(&b)), "{name}: {m}");
            assert!(m.chars().count() <= 83, "{name}: {m}");
            let echoed = (0..m.len().saturating_sub(40))
                .filter(|&i| m.is_char_boundary(i) && m.is_char_boundary(i + 41))
                .any(|i| source.contains(&m[i..i + 41]));
            assert!(!echoed, "{name}: more than 40 characters of input in {m}");
        }
    }
}

// ---- Interruption -------------------------------------------------------

/// The binary, started with `args`, stdin piped, stdout and stderr kept.
fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .arg("solve")
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
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

/// Lines in the file at `path` so far (0 when it does not exist yet).
fn lines_in(path: &str) -> usize {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

/// True once the process `pid` catches SIGINT and SIGTERM (its signal
/// handlers are installed), from `/proc`.
fn catches_signals(pid: u32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    let caught = status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .unwrap_or(0);
    let bit = |signal: u32| 1u64 << (signal - 1);
    caught & bit(2) != 0 && caught & bit(15) != 0
}

/// Sends `signal` (`INT`, `TERM`) with the `kill` command, then waits for
/// the process to end (at most a minute) and returns how it ended and how
/// long after the signal it did.
fn signal_and_wait(child: &mut Child, signal: &str) -> (ExitStatus, Duration) {
    let sent = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .expect("the kill command runs");
    assert!(sent.success(), "kill -s {signal} failed");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return (status, start.elapsed());
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("still running a minute after SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The rows of an interrupted run's results file: every line complete, the
/// rows a gap-free prefix of `lines` (the input's record lines, in order),
/// and the summary agreeing; returns the rows.
fn check_interrupted(out: &str, summary: &str, lines: &[u64]) -> Vec<Row> {
    let text = read_output(out);
    assert!(text.ends_with('\n'), "no half row at the end");
    let rows = rows(&text);
    check_rows(&rows);
    let got: Vec<u64> = rows.iter().map(|r| r.line).collect();
    assert_eq!(got, lines[..got.len()], "a gap-free prefix of the input");
    let json: Value = serde_json::from_str(&read_output(summary)).expect("a JSON summary");
    assert_eq!(json["interrupted"], true);
    assert_eq!(json["puzzles"], rows.len());
    rows
}

#[test]
fn sigint_on_a_stdin_that_never_ends_writes_the_finished_rows_and_exits_130() {
    let scratch = Scratch::new();
    let (out, summary) = (scratch.path("r.csv"), scratch.path("s.json"));
    let mut child = spawn(&["-o", &out, "--summary-json", &summary, "-j", "2"]);
    let mut stdin = child.stdin.take().expect("piped stdin");
    // More than one chunk (2048 records), then nothing more, never closed.
    let records = 3000;
    stdin
        .write_all(format!("{P}\n").repeat(records).as_bytes())
        .expect("the child reads its stdin");
    wait_until("the first chunk's rows", || lines_in(&out) > 2048);
    let (status, after) = signal_and_wait(&mut child, "INT");
    eprintln!("exited {after:?} after SIGINT");
    assert_eq!(status.code(), Some(130));
    let lines: Vec<u64> = (1..=records as u64).collect();
    let rows = check_interrupted(&out, &summary, &lines);
    assert!(rows.len() >= 2048, "{} rows", rows.len());
    assert!(rows.iter().all(|r| r.status == "solved"));
    drop(stdin);
}

#[test]
fn sigterm_during_a_slow_chunk_writes_its_finished_start_and_exits_143() {
    let scratch = Scratch::new();
    // One chunk: easy puzzles, then puzzles the naive solver takes ages on.
    // The first 32 easy ones are a run of their own (the records a worker
    // takes in one go), written once solved; the 8 after them are solved
    // with the first slow one, and written once it is.
    let easy = last_cell_blank();
    let mut text = format!("{easy}\n").repeat(40);
    text.push_str(&format!("{SLOW_FOR_NAIVE}\n").repeat(1000));
    let input = scratch.file("slow.txt", text.as_bytes());
    let (out, summary) = (scratch.path("r.csv"), scratch.path("s.json"));
    let mut child = spawn(&[
        &input,
        "-o",
        &out,
        "--summary-json",
        &summary,
        "--solver",
        "naive",
        "-j",
        "1",
    ]);
    wait_until("the signal handlers", || catches_signals(child.id()));
    // Written beside `out` until its first row (which the signal brings).
    let partial = results_partial(&out, child.id());
    wait_until("the results file", || {
        [&partial, &out]
            .iter()
            .any(|p| std::path::Path::new(p).exists())
    });
    // However far the solving got, a chunk of 1040 puzzles takes far longer
    // than the minute `signal_and_wait` allows.
    std::thread::sleep(Duration::from_millis(300));
    let (status, after) = signal_and_wait(&mut child, "TERM");
    eprintln!("exited {after:?} after SIGTERM");
    assert_eq!(status.code(), Some(143));
    let lines: Vec<u64> = (1..=1040).collect();
    let rows = check_interrupted(&out, &summary, &lines);
    assert!(rows.len() >= 32, "{} rows: the finished run", rows.len());
    assert!(rows.len() < 1040, "the slow chunk was not waited for");
}

#[cfg(target_os = "linux")]
#[test]
fn sigint_while_stdin_sends_nothing_ends_the_run_at_once_and_leaves_the_results_file() {
    // Stopped before its first row (here while the input is opened), a
    // run leaves an existing results file as it was, in every format, and
    // creates none where there was none; the summary says it was
    // interrupted.
    let scratch = Scratch::new();
    let known = b"yesterday's results\n";
    for name in ["r.csv", "r.jsonl", "r.parquet", "new.csv"] {
        let out = scratch.path(name);
        let existing = name.starts_with("r.");
        if existing {
            scratch.file(name, known);
        }
        let summary = scratch.path("s.json");
        let mut child = spawn(&["-o", &out, "--summary-json", &summary]);
        let stdin = child.stdin.take();
        wait_until("the signal handlers", || catches_signals(child.id()));
        let (status, _) = signal_and_wait(&mut child, "INT");
        assert_eq!(status.code(), Some(130), "{name}");
        let mut message = String::new();
        child
            .stderr
            .take()
            .expect("piped stderr")
            .read_to_string(&mut message)
            .expect("stderr");
        match existing {
            true => {
                assert_eq!(std::fs::read(&out).expect("there"), known, "{name}");
                assert!(message.contains("is left as it was"), "{name}: {message}");
            }
            false => {
                assert!(!std::path::Path::new(&out).exists(), "{name}");
                assert!(message.contains("is not created"), "{name}: {message}");
            }
        }
        let json: Value = serde_json::from_str(&read_output(&summary)).expect("a summary");
        assert_eq!(json["interrupted"], true, "{name}");
        assert_eq!(json["puzzles"], 0, "{name}");
        drop(stdin);
    }
    // To stdout, the table's start (the CSV header) all the same.
    let mut child = spawn(&["-o", "-"]);
    let stdin = child.stdin.take();
    wait_until("the signal handlers", || catches_signals(child.id()));
    let (status, _) = signal_and_wait(&mut child, "INT");
    assert_eq!(status.code(), Some(130));
    let mut text = String::new();
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_string(&mut text)
        .expect("stdout");
    assert!(text.starts_with("line,puzzle,status"), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    drop(stdin);
}

// ---- Resume -------------------------------------------------------------

/// An input of `n` records (some malformed) and its full results.
fn input_and_full_run(scratch: &Scratch, n: usize) -> (String, String) {
    let text: String = (0..n)
        .map(|i| match i % 5 {
            3 => format!("{}\n", &P[..70]),
            4 => format!("{Q}\n"),
            _ => format!("{P}\n"),
        })
        .collect();
    let input = scratch.file("in.txt", text.as_bytes());
    let full = scratch.path("full.csv");
    assert_eq!(code(&solve(&[&input, "-o", &full])), 1);
    (input, full)
}

#[test]
fn resume_cuts_a_half_written_row_and_appends_the_rest() {
    let scratch = Scratch::new();
    let (input, full) = input_and_full_run(&scratch, 40);
    let text = read_output(&full);
    // Rows 1-12 whole, row 13 cut in the middle.
    let cut: usize = text.lines().take(14).map(|l| l.len() + 1).sum::<usize>() - 30;
    let out = scratch.file("r.csv", &text.as_bytes()[..cut]);
    let summary = scratch.path("s.json");
    let output = solve(&[&input, "-o", &out, "--resume", "--summary-json", &summary]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(
        without_timing(&read_output(&out)),
        without_timing(&text),
        "the resumed file equals a full run"
    );
    let json: Value = serde_json::from_str(&read_output(&summary)).unwrap();
    assert_eq!(json["puzzles"], 40, "the summary covers the whole file");
    assert_eq!(json["malformed"], 8);
    assert_eq!(json["interrupted"], false);

    let again = solve(&[&input, "-o", &out, "--resume"]);
    assert_eq!(code(&again), 1);
    assert_eq!(without_timing(&read_output(&out)), without_timing(&text));
}

#[test]
fn resume_of_a_file_cut_inside_its_header_writes_it_again() {
    // trial56 F0-2: the header's bytes were left a hole of zeros.
    let scratch = Scratch::new();
    let (input, full) = input_and_full_run(&scratch, 5);
    let text = read_output(&full);
    let header = text.find('\n').unwrap() + 1;
    for cut in 0..=header + 3 {
        let out = scratch.file("r.csv", &text.as_bytes()[..cut]);
        let output = solve(&[&input, "-o", &out, "--resume"]);
        assert_eq!(code(&output), 1, "cut at {cut}: {}", stderr(&output));
        assert_eq!(
            without_timing(&read_output(&out)),
            without_timing(&text),
            "cut at {cut}"
        );
    }
    // `rate`'s header likewise.
    let rated = scratch.path("rated.csv");
    let rate = |args: &[&str]| {
        bin()
            .arg("rate")
            .args(args)
            .arg("--quiet")
            .output()
            .unwrap()
    };
    assert_eq!(code(&rate(&[&input, "-o", &rated])), 1);
    let text = read_output(&rated);
    let out = scratch.file("rc.csv", &text.as_bytes()[..20]);
    let output = rate(&[&input, "-o", &out, "--resume"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(read_output(&out), text);
}

#[test]
fn resume_continues_an_input_given_twice_in_its_second_turn() {
    let scratch = Scratch::new();
    let (input, _) = input_and_full_run(&scratch, 10);
    let full = scratch.path("twice.csv");
    assert_eq!(code(&solve(&[&input, &input, "-o", &full])), 1);
    let text = read_output(&full);
    // The header, the first turn's 10 rows and 3 of the second's.
    let kept: String = text.lines().take(14).map(|l| format!("{l}\n")).collect();
    let out = scratch.file("r.csv", kept.as_bytes());
    let output = solve(&[&input, &input, "-o", &out, "--resume"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(without_timing(&read_output(&out)), without_timing(&text));
}

#[test]
fn resume_refuses_a_file_that_does_not_match_the_inputs() {
    let scratch = Scratch::new();
    let (input, full) = input_and_full_run(&scratch, 10);
    let text = read_output(&full);
    let kept: String = text.lines().take(6).map(|l| format!("{l}\n")).collect();
    let out = scratch.file("r.csv", kept.as_bytes());
    let other = scratch.file("other.txt", format!("{P}\n{Q}\n").repeat(5).as_bytes());
    for (input, what) in [(&other, "input line 2 with puzzle"), (&input, "")] {
        let output = solve(&[input, "-o", &out, "--resume"]);
        if what.is_empty() {
            assert_eq!(code(&output), 1, "the right input resumes");
            continue;
        }
        assert_eq!(code(&output), 2);
        let err = stderr(&output);
        assert!(
            err.contains("r.csv: line 3 does not match") && err.contains(what),
            "{err}"
        );
        assert_eq!(read_output(&out), kept, "nothing appended");
    }
    let short = scratch.file("short.txt", format!("{P}\n").as_bytes());
    let output = solve(&[&short, "-o", &out, "--resume"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("the inputs end before it"));
}

#[test]
fn resume_refuses_zstd_and_stdout_and_starts_a_missing_file() {
    let scratch = Scratch::new();
    let input = scratch.file("in.txt", format!("{P}\n").as_bytes());
    for args in [
        &["--resume", "-o", "-"][..],
        &["--resume", "-o", "r.csv.zst"],
    ] {
        let mut all = vec![input.as_str()];
        all.extend_from_slice(args);
        let output = solve(&all);
        assert_eq!(code(&output), 2, "{args:?}");
        assert!(stderr(&output).contains("--resume"), "{}", stderr(&output));
    }
    let out = scratch.path("new.csv");
    assert_eq!(code(&solve(&[&input, "-o", &out, "--resume"])), 0);
    assert_eq!(rows(&read_output(&out)).len(), 1);
}

#[test]
fn resume_continues_gzip_results_from_their_last_complete_member() {
    // 4,500 records are three chunks: with the header, four gzip members.
    // The first run stops at 4,200 records and its last member is then cut
    // short: the two whole chunks are kept, the rest solved again.
    let scratch = Scratch::new();
    let (input, full) = input_and_full_run(&scratch, 4500);
    let out = scratch.path("r.csv.gz");
    assert_eq!(code(&solve(&[&input, "-o", &out, "--limit", "4200"])), 1);
    let bytes = std::fs::read(&out).unwrap();
    std::fs::write(&out, &bytes[..bytes.len() - 10]).unwrap();
    let summary = scratch.path("s.json");
    let output = solve(&[&input, "-o", &out, "--resume", "--summary-json", &summary]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let expected = without_timing(&read_output(&full));
    assert_eq!(without_timing(&read_output(&out)), expected);
    let json: Value = serde_json::from_str(&read_output(&summary)).unwrap();
    assert_eq!(json["puzzles"], 4500, "the summary covers the whole file");
    assert_eq!(json["malformed"], 900);

    let before = std::fs::read(&out).unwrap();
    let again = solve(&[&input, "-o", &out, "--resume"]);
    assert_eq!(code(&again), 1);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        before,
        "nothing added, not even an empty gzip member"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn sigint_while_a_resumed_stdin_sends_nothing_ends_at_once_and_leaves_the_file() {
    let scratch = Scratch::new();
    let (input, full) = input_and_full_run(&scratch, 40);
    let text = std::fs::read(&full).unwrap();
    let out = scratch.file("r.csv", &text);
    let summary = scratch.path("s.json");
    let mut child = spawn(&["-", "-o", &out, "--resume", "--summary-json", &summary]);
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Half the kept rows' records, then nothing, the pipe left open: the
    // run waits for the next record while matching the kept rows.
    let records: String = read_output(&input)
        .lines()
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    stdin
        .write_all(records.as_bytes())
        .expect("the child reads its stdin");
    wait_until("the signal handlers", || catches_signals(child.id()));
    std::thread::sleep(Duration::from_millis(300));
    let (status, after) = signal_and_wait(&mut child, "INT");
    eprintln!("exited {after:?} after SIGINT");
    assert_eq!(status.code(), Some(130));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        text,
        "the results file is left as it was"
    );
    let json: Value = serde_json::from_str(&read_output(&summary)).unwrap();
    assert_eq!(json["interrupted"], true);
    assert!(json["puzzles"].as_u64().unwrap() <= 20, "{json}");
    drop(stdin);
}

#[test]
fn resume_continues_a_run_with_kept_columns() {
    let scratch = Scratch::new();
    let text: String = std::iter::once("quizzes,rating,note\n".to_string())
        .chain((0..30).map(|i| format!("{},{i},\"a, b\"\n", if i % 4 == 3 { Q } else { P })))
        .collect();
    let input = scratch.file("in.csv", text.as_bytes());
    for keep in [&["--keep", "rating,note"][..], &["--keep-all"]] {
        let full = scratch.path("full.csv");
        let args = |out: &str, more: &[&str]| {
            let mut args = vec![input.as_str(), "-o", out];
            args.extend_from_slice(keep);
            args.extend_from_slice(more);
            args.into_iter().map(str::to_string).collect::<Vec<_>>()
        };
        let run = |args: Vec<String>| solve(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code(&run(args(&full, &[]))), 0);
        let whole = read_output(&full);
        let cut: usize = whole.lines().take(12).map(|l| l.len() + 1).sum::<usize>() - 5;
        let out = scratch.file("r.csv", &whole.as_bytes()[..cut]);
        let resumed = run(args(&out, &["--resume"]));
        assert_eq!(code(&resumed), 0, "{keep:?}: {}", stderr(&resumed));
        assert_eq!(
            without_timing(&read_output(&out)),
            without_timing(&whole),
            "{keep:?}"
        );
        // Without the kept columns, the file is another run's.
        let plain = solve(&[&input, "-o", &out, "--resume"]);
        assert_eq!(code(&plain), 2, "{keep:?}");
        let message = stderr(&plain);
        assert!(message.contains("the header is"), "{message}");
        assert!(message.contains("the same --keep"), "{message}");
    }
}

#[test]
fn an_interrupted_run_resumed_equals_a_full_run() {
    let scratch = Scratch::new();
    let records = 2500;
    let text = format!("{P}\n{}\n", &P[..70]).repeat(records / 2);
    let input = scratch.file("in.txt", text.as_bytes());
    let out = scratch.path("r.csv");
    let summary = scratch.path("s.json");
    let mut child = spawn(&["-o", &out, "--summary-json", &summary]);
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(text.as_bytes()).unwrap();
    wait_until("the first chunk's rows", || lines_in(&out) > 2048);
    let (status, _) = signal_and_wait(&mut child, "INT");
    assert_eq!(status.code(), Some(130));
    let lines: Vec<u64> = (1..=records as u64).collect();
    let kept = check_interrupted(&out, &summary, &lines).len();
    assert!(kept < records);
    drop(stdin);

    let output = solve(&[&input, "-o", &out, "--resume", "--summary-json", &summary]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let full = scratch.path("full.csv");
    assert_eq!(code(&solve(&[&input, "-o", &full])), 1);
    assert_eq!(
        without_timing(&read_output(&out)),
        without_timing(&read_output(&full))
    );
    let json: Value = serde_json::from_str(&read_output(&summary)).unwrap();
    assert_eq!(json["puzzles"], records);
    assert_eq!(json["malformed"], records / 2);
}

#[test]
fn resume_with_several_inputs_matches_the_file_column() {
    let scratch = Scratch::new();
    let a = scratch.file("a.txt", format!("{P}\n{Q}\n").as_bytes());
    let b = scratch.file("b.txt", format!("{Q}\n{P}\n{P}\n").as_bytes());
    let full = scratch.path("full.csv");
    assert_eq!(code(&solve(&[&a, &b, "-o", &full])), 0);
    let text = read_output(&full);
    let kept: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    let out = scratch.file("r.csv", kept.as_bytes());
    assert_eq!(code(&solve(&[&a, &b, "-o", &out, "--resume"])), 0);
    assert_eq!(without_timing(&read_output(&out)), without_timing(&text));
    let swapped = solve(&[&b, &a, "-o", &out, "--resume"]);
    assert_eq!(code(&swapped), 2, "{}", stderr(&swapped));
}

// ---- Time limit and write errors ------------------------------------------

#[test]
fn timeout_ms_gives_a_timeout_row_naming_the_limit_and_the_run_goes_on() {
    let text = format!("{SLOW_FOR_NAIVE}\n{}\n", last_cell_blank());
    let args = ["--solver", "naive", "--timeout-ms", "1"];
    let rows = solve_text("slow.txt", text.as_bytes(), &args, 1);
    assert_eq!(statuses(&rows), [(1, "timeout"), (2, "solved")]);
    assert_eq!(rows[0].message, "time limit 1 ms exceeded");
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_for_the_summary_is_a_clear_error_with_exit_2() {
    let scratch = Scratch::new();
    let input = scratch.file("in.txt", format!("{P}\n").as_bytes());
    let out = scratch.path("r.csv");
    let output = solve(&[&input, "-o", &out, "--summary-json", "/dev/full"]);
    assert_eq!(code(&output), 2);
    let err = stderr(&output);
    assert!(
        err.contains("writing summary to /dev/full") && err.contains("No space left"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
