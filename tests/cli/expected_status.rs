//! An expected status that names no status is never taken silently
//! (trial58 F2-5): a `status` column (CSV, TSV, Parquet, a results file
//! read back) or key (JSON Lines) whose value is no status name
//! (`unique`, `ok`, `Solved!`, a typo, a number) makes the row's `check`
//! `mismatch`, its message naming the value and the names it could be,
//! the record still solved; `check` then fails. An empty value or a
//! placeholder of a missing one (`NA`, `null`) expects nothing, as before.

use std::fs::File;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use parquet::arrow::ArrowWriter;

use crate::common::*;

/// A puzzle of one solution.
const PUZZLE: &str =
    ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";

/// A puzzle of many solutions.
const MULTIPLE: &str =
    ".1....7.....3..2...7...........71...6......4.3........4..5....3.2..8...........6.";

/// The message of a row whose expected status, as a message shows it
/// (`'ok'`), names no status.
fn no_status(shown: &str) -> String {
    format!(
        "expected status {shown} is no status name: expected solved, multiple, unsolvable, \
         invalid, malformed or timeout, or empty for none"
    )
}

/// Runs `SUBCOMMAND PATH ARGS -o - --quiet`, asserting the exit code:
/// (line, status, check, message) of each results row, and stderr.
fn run(subcommand: &str, path: &str, args: &[&str], wanted: i32) -> (Vec<Cells>, String) {
    let mut all = vec![path];
    all.extend(args);
    all.extend(["-o", "-", "--quiet"]);
    let output = run_subcommand(subcommand, &all);
    let err = stderr(&output);
    assert_eq!(code(&output), wanted, "stderr: {err}");
    let rows = rows(&stdout(&output))
        .into_iter()
        .map(|r| (r.line, r.status, r.check, r.message))
        .collect();
    (rows, err)
}

/// (line, status, check, message) of a results row.
type Cells = (u64, String, String, String);

/// The cells of a row.
fn cells(line: u64, status: &str, check: &str, message: &str) -> Cells {
    (line, status.into(), check.into(), message.into())
}

/// `PUZZLE`'s row: solved, with `check` and `message`.
fn solved(line: u64, check: &str, message: &str) -> Cells {
    cells(line, "solved", check, message)
}

#[test]
fn csv_and_tsv_status_values_that_name_no_status_are_mismatches() {
    let scratch = Scratch::new();
    let csv = scratch.file(
        "s.csv",
        format!(
            "puzzle,status\n{PUZZLE},solved\n{PUZZLE},Solved!\n{PUZZLE},unsolvabel\n\
             {PUZZLE},\n{PUZZLE},NA\n{PUZZLE}, Unsolvable \nx,malfromed\n{MULTIPLE},unique\n"
        )
        .as_bytes(),
    );
    let multiple = "r1c1 is 2 in one solution and 5 in another";
    let want = [
        solved(2, "", ""),
        solved(3, "mismatch", &no_status("'Solved!'")),
        solved(4, "mismatch", &no_status("'unsolvabel'")),
        solved(5, "", ""),
        solved(6, "", ""),
        solved(7, "", ""),
        cells(
            8,
            "malformed",
            "mismatch",
            &format!(
                "'x' marks a missing value, not a puzzle; {}",
                no_status("'malfromed'")
            ),
        ),
        cells(
            9,
            "multiple",
            "mismatch",
            &format!("{multiple}; {}", no_status("'unique'")),
        ),
    ];
    // `solve` writes the rows as it reads them; `check` keeps them and
    // fails on each, naming the value.
    let (rows, _) = run("solve", &csv, &[], 1);
    assert_eq!(rows, want);
    let (rows, err) = run("check", &csv, &["--allow", "malformed,multiple"], 1);
    assert_eq!(rows, want);
    for (line, shown) in [(3, "'Solved!'"), (4, "'unsolvabel'")] {
        let said = format!("s.csv:{line}: check mismatch: {}", no_status(shown));
        assert!(err.contains(&said), "{err}");
    }
    // The status a valid name expects is still required.
    assert!(
        err.contains("s.csv:7: status solved, expected unsolvable"),
        "{err}"
    );
    assert!(err.contains("FAILED: 5 failures in 8 puzzles"), "{err}");

    let tsv = scratch.file(
        "s.tsv",
        format!("puzzle\tstatus\n{PUZZLE}\tok\n{PUZZLE}\tnull\n").as_bytes(),
    );
    let want = [solved(2, "mismatch", &no_status("'ok'")), solved(3, "", "")];
    assert_eq!(run("solve", &tsv, &[], 1).0, want);
    assert_eq!(run("check", &tsv, &[], 1).0, want);
}

#[test]
fn json_lines_status_keys_that_name_no_status_are_mismatches() {
    let scratch = Scratch::new();
    let long = "a".repeat(60);
    let jsonl = scratch.file(
        "s.jsonl",
        format!(
            "{{\"puzzle\":\"{PUZZLE}\",\"status\":\"unique\"}}\n\
             {{\"puzzle\":\"{PUZZLE}\",\"status\":1}}\n\
             {{\"puzzle\":\"{PUZZLE}\",\"status\":null}}\n\
             {{\"puzzle\":\"{PUZZLE}\"}}\n\
             {{\"puzzle\":\"{PUZZLE}\",\"Status\":\"SOLVED\"}}\n\
             {{\"puzzle\":\"{PUZZLE}\",\"status\":[\"solved\"]}}\n\
             {{\"puzzle\":\"{PUZZLE}\",\"status\":\"{long}\"}}\n"
        )
        .as_bytes(),
    );
    let want = [
        solved(1, "mismatch", &no_status("'unique'")),
        solved(2, "mismatch", &no_status("'1'")),
        solved(3, "", ""),
        solved(4, "", ""),
        solved(5, "", ""),
        solved(6, "mismatch", &no_status("'[\"solved\"]'")),
        solved(7, "mismatch", &no_status(&format!("'{}...'", &long[..40]))),
    ];
    assert_eq!(run("solve", &jsonl, &[], 1).0, want);
    let (rows, err) = run("check", &jsonl, &[], 1);
    assert_eq!(rows, want);
    assert!(err.contains("FAILED: 4 failures in 7 puzzles"), "{err}");
}

/// Writes `columns` as one row group of Parquet.
fn parquet(scratch: &Scratch, name: &str, columns: Vec<(&str, ArrayRef)>) -> String {
    let path = scratch.path(name);
    let batch = RecordBatch::try_from_iter(columns).expect("columns of one length");
    let file = File::create(&path).expect("writable scratch");
    let mut writer = ArrowWriter::try_new(file, batch.schema(), None).expect("a writer");
    writer.write(&batch).expect("written");
    writer.close().expect("closed");
    path
}

#[test]
fn parquet_status_values_that_name_no_status_are_mismatches() {
    let scratch = Scratch::new();
    let text = parquet(
        &scratch,
        "s.parquet",
        vec![
            (
                "puzzle",
                Arc::new(StringArray::from(vec![PUZZLE; 4])) as ArrayRef,
            ),
            (
                "status",
                Arc::new(StringArray::from(vec![
                    Some("ok"),
                    Some("solved"),
                    None,
                    Some("NA"),
                ])),
            ),
        ],
    );
    let want = [
        solved(1, "mismatch", &no_status("'ok'")),
        solved(2, "", ""),
        solved(3, "", ""),
        solved(4, "", ""),
    ];
    // Rows written as read (`solve`) and kept (`check`): both ways of
    // reading a Parquet row in place see the value.
    assert_eq!(run("solve", &text, &[], 1).0, want);
    assert_eq!(run("check", &text, &[], 1).0, want);

    let numbers = parquet(
        &scratch,
        "n.parquet",
        vec![
            (
                "puzzle",
                Arc::new(StringArray::from(vec![PUZZLE; 2])) as ArrayRef,
            ),
            ("status", Arc::new(Int64Array::from(vec![Some(1), None]))),
        ],
    );
    let want = [solved(1, "mismatch", &no_status("'1'")), solved(2, "", "")];
    assert_eq!(run("solve", &numbers, &[], 1).0, want);
    assert_eq!(run("check", &numbers, &[], 1).0, want);
}

#[test]
fn a_results_file_read_back_with_a_status_that_names_none_is_a_mismatch() {
    let scratch = Scratch::new();
    let input = scratch.file("p.txt", format!("{PUZZLE}\n{PUZZLE}\n").as_bytes());
    let results = scratch.path("r.csv");
    let output = run_subcommand("solve", &[&input, "--quiet", "-o", &results]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = std::fs::read_to_string(&results).expect("results written");
    let edited = scratch.file(
        "edited.csv",
        text.replacen(",solved,", ",Solved!,", 1).as_bytes(),
    );
    let (rows, err) = run("check", &edited, &[], 1);
    // Its solution column checked too.
    assert_eq!(
        rows,
        [
            solved(2, "mismatch", &no_status("'Solved!'")),
            solved(3, "ok", "")
        ]
    );
    assert!(err.contains("FAILED: 1 failure in 2 puzzles"), "{err}");
    // As a baseline or a file to resume, such a row is no results row.
    let output = run_subcommand(
        "check",
        &[&input, "--quiet", "-o", "-", "--baseline", &edited],
    );
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("bad status `Solved!`"),
        "{}",
        stderr(&output)
    );
    let output = run_subcommand("solve", &[&input, "--quiet", "-o", &edited, "--resume"]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("unknown status 'Solved!'"),
        "{}",
        stderr(&output)
    );
}
