//! A Parquet input's first look leaves no column unread without a word
//! (after trial60 F0-1): a solution column of long values is read and
//! checked as the same data in CSV is, or, too long even for that, the run
//! says that no solution is checked and how to have it read; a column
//! kept is read whatever its length, so `--keep` steers the choice; and
//! the look goes on past a first row group of a few rows to the first
//! 1,000 rows.

use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, StringArray};

use crate::common::*;

/// (status, check, message) of each row, in order: what a CSV input and a
/// Parquet one of the same values give alike (their `line`s differ by the
/// CSV header).
fn outcomes(rows: &[Row]) -> Vec<(&str, &str, &str)> {
    rows.iter()
        .map(|r| (r.status.as_str(), r.check.as_str(), r.message.as_str()))
        .collect()
}

/// The first `rows` Kaggle pairs as the columns `id`, `puzzle` and
/// `target`, every fourth target 900 KB of junk (a CSV line of it stays
/// under the 1 MiB a record may take), and the same as CSV text.
fn junk_targets(rows: usize) -> (Vec<(&'static str, ArrayRef)>, String) {
    let pairs = kaggle(rows);
    let junk = "x".repeat(900_000);
    let targets: Vec<String> = pairs
        .iter()
        .enumerate()
        .map(|(i, (_, s))| match i % 4 {
            3 => format!("{junk}{i}"),
            _ => s.clone(),
        })
        .collect();
    let mut csv = String::from("id,puzzle,target\n");
    for (i, ((p, _), t)) in pairs.iter().zip(&targets).enumerate() {
        csv.push_str(&format!("{i},{p},{t}\n"));
    }
    let columns: Vec<(&'static str, ArrayRef)> = vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..rows as i64))),
        (
            "puzzle",
            Arc::new(StringArray::from_iter_values(pairs.iter().map(|(p, _)| p))),
        ),
        ("target", Arc::new(StringArray::from(targets))),
    ];
    (columns, csv)
}

#[test]
fn a_long_solution_column_is_read_and_checked_as_in_csv() {
    // 80 rows, 20 of them 900 KB of junk in `target`: 18 MB, over 64 KiB
    // a row and over a batch's 16 MiB, so the look passed it over and no
    // row was checked, exit 0.
    let scratch = Scratch::new();
    let (columns, csv) = junk_targets(80);
    let parquet = scratch.parquet("junk_targets.parquet", columns);
    let csv = scratch.file("junk_targets.csv", csv.as_bytes());
    let output = solve(&[&parquet, "-o", "-"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert!(!stderr(&output).contains("warning"), "{}", stderr(&output));
    let from_parquet = rows(&stdout(&output));
    let from_csv = solve_rows(&[&csv, "-o", "-"], 1);
    assert_eq!(outcomes(&from_parquet), outcomes(&from_csv));
    for row in &from_parquet {
        let want = match row.line % 4 {
            0 => "mismatch",
            _ => "ok",
        };
        assert_eq!((row.status.as_str(), row.check.as_str()), ("solved", want));
    }
    let junk = &from_parquet[3].message;
    assert!(junk.starts_with("given solution is not a grid: "), "{junk}");
    // The puzzle column found by content, the same.
    let (mut columns, _) = junk_targets(80);
    columns[1].0 = "board";
    let board = scratch.parquet("board_targets.parquet", columns);
    let from_board = solve_rows(&[&board, "-o", "-"], 1);
    assert_eq!(outcomes(&from_board), outcomes(&from_csv));
}

#[test]
fn a_solution_column_too_long_to_look_at_is_named_and_kept_is_checked() {
    // 20 rows, one value of 80 MiB in `target`: too long to read to look
    // at; no column read holds a solution, so none is checked, loudly.
    let scratch = Scratch::new();
    let pairs = kaggle(20);
    let junk = "9".repeat(80 << 20);
    let targets: Vec<&str> = pairs
        .iter()
        .enumerate()
        .map(|(i, (_, s))| if i == 4 { junk.as_str() } else { s.as_str() })
        .collect();
    let columns: Vec<(&str, ArrayRef)> = vec![
        (
            "puzzle",
            Arc::new(StringArray::from_iter_values(pairs.iter().map(|(p, _)| p))),
        ),
        ("target", Arc::new(StringArray::from(targets))),
    ];
    let path = scratch.parquet("long_target.parquet", columns);
    let output = solve(&[&path, "-o", "-"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let message = stderr(&output);
    for part in [
        "sudoku-batch: warning: ",
        "long_target.parquet: no solution is checked: no column read holds complete grids, \
         and 'target' is not read (",
        "in its first 20 rows, over 64 KiB a row); --keep target reads it",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
    // Kept, it is read whatever its length, and checked.
    let output = run_subcommand("solve", &[&path, "--keep", "target", "-o", "/dev/null"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let message = stderr(&output);
    assert!(!message.contains("warning"), "{message}");
    assert!(message.contains("mismatches 1"), "{message}");
}

#[test]
fn a_kept_column_is_looked_at_whatever_its_length() {
    // Solutions (the eighth another puzzle's), then puzzles with one value
    // of 80 MiB: unread, `board` left the choice unclear (exit 2) even
    // when kept.
    let scratch = Scratch::new();
    let pairs = kaggle(20);
    let junk = "j".repeat(80 << 20);
    let boards: Vec<&str> = pairs
        .iter()
        .enumerate()
        .map(|(i, (p, _))| if i == 4 { junk.as_str() } else { p.as_str() })
        .collect();
    let targets: Vec<&str> = (0..20)
        .map(|i| pairs[if i == 7 { 8 } else { i }].1.as_str())
        .collect();
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("target", Arc::new(StringArray::from(targets))),
        ("board", Arc::new(StringArray::from(boards))),
    ];
    let path = scratch.parquet("long_board.parquet", columns);
    let unkept = solve(&[&path, "-o", "/dev/null"]);
    assert_eq!(code(&unkept), 2, "{}", stderr(&unkept));
    let kept = run_subcommand("solve", &[&path, "--keep", "board", "-o", "/dev/null"]);
    assert_eq!(code(&kept), 1, "{}", stderr(&kept));
    let message = stderr(&kept);
    assert!(
        message.contains(
            "solved 19, multiple 0, unsolvable 0, invalid 0, malformed 1, timeout 0; mismatches 1"
        ),
        "{message}"
    );
}

#[test]
fn the_look_goes_on_past_a_first_row_group_of_few_rows() {
    // Solutions, then puzzles missing from the first 5 rows, in row groups
    // of 5: the first row group alone made the choice unclear (exit 2).
    let scratch = Scratch::new();
    let pairs = kaggle(60);
    let columns = || -> Vec<(&str, ArrayRef)> {
        vec![
            (
                "target",
                Arc::new(StringArray::from_iter_values(pairs.iter().map(|(_, s)| s))),
            ),
            (
                "board",
                Arc::new(StringArray::from_iter(
                    pairs
                        .iter()
                        .enumerate()
                        .map(|(i, (p, _))| (i >= 5).then_some(p)),
                )),
            ),
        ]
    };
    let mut csv = String::from("target,board\n");
    for (i, (p, s)) in pairs.iter().enumerate() {
        csv.push_str(&format!("{s},{}\n", if i >= 5 { p.as_str() } else { "" }));
    }
    let csv = scratch.file("late_boards.csv", csv.as_bytes());
    let from_csv = solve_rows(&[&csv, "-o", "-"], 1);
    let grouped = scratch.parquet_in_groups("late_boards.parquet", columns(), Some(5));
    let statuses = |rows: &[Row]| -> Vec<(String, String)> {
        rows.iter()
            .map(|r| (r.status.clone(), r.check.clone()))
            .collect()
    };
    let from_parquet = solve_rows(&[&grouped, "-o", "-"], 1);
    assert_eq!(statuses(&from_parquet), statuses(&from_csv));
    assert_eq!(from_parquet.iter().filter(|r| r.check == "ok").count(), 55);
    // Each row in a row group of its own: the same.
    let single = scratch.parquet_in_groups("single_rows.parquet", columns(), Some(1));
    let from_parquet = solve_rows(&[&single, "-o", "-"], 1);
    assert_eq!(statuses(&from_parquet), statuses(&from_csv));
}
