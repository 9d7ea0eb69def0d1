//! A Parquet puzzle column with one long value is never passed over for
//! the solutions beside it (trial60 F0-1): a column of values too long to
//! be grids on average is still looked at when its first row group's
//! values fit in a batch's bytes (ten puzzles and a megabyte of junk), and
//! when they do not, the puzzle column is chosen over it only where
//! another column holds whole puzzles; else the run is refused, naming it
//! and `--column`.

use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, StringArray};

use crate::common::*;

/// The columns `target` (the solutions) then `board` (the puzzles) of the
/// first `rows` Kaggle pairs, the fifth puzzle replaced by `junk`.
fn target_board(rows: usize, junk: &str) -> (Vec<(&'static str, ArrayRef)>, Vec<String>) {
    let pairs = kaggle(rows);
    let boards: Vec<&str> = pairs
        .iter()
        .enumerate()
        .map(|(i, (p, _))| if i == 4 { junk } else { p.as_str() })
        .collect();
    let targets: Vec<&str> = pairs.iter().map(|(_, s)| s.as_str()).collect();
    let columns: Vec<(&'static str, ArrayRef)> = vec![
        ("target", Arc::new(StringArray::from(targets))),
        ("board", Arc::new(StringArray::from(boards))),
    ];
    (columns, pairs.into_iter().map(|(p, _)| p).collect())
}

/// Asserts that `rows` are the puzzles `puzzles` solved, but the fifth,
/// `malformed`.
fn puzzles_solved_but_the_fifth(rows: &[Row], puzzles: &[String]) {
    assert_eq!(rows.len(), puzzles.len());
    for (row, puzzle) in rows.iter().zip(puzzles) {
        if row.line == 5 {
            assert_eq!(row.status, "malformed", "{row:?}");
        } else {
            // Written with `.` blanks, read with `0`s.
            let written = row.puzzle.replace('.', "0");
            assert_eq!((&written, row.status.as_str()), (puzzle, "solved"));
        }
    }
}

#[test]
fn one_long_value_among_few_rows_leaves_the_puzzle_column_chosen() {
    let scratch = Scratch::new();
    let junk = "junk ".repeat(200_000);
    for (rows, group_rows) in [(10, None), (5000, Some(10))] {
        let (columns, puzzles) = target_board(rows, &junk);
        let name = format!("board_{rows}.parquet");
        let path = scratch.parquet_in_groups(&name, columns, group_rows);
        let rows = solve_rows(&[&path, "-o", "-"], 1);
        puzzles_solved_but_the_fifth(&rows, &puzzles);
        // `target` is its solution column: checked.
        assert!(rows.iter().any(|r| r.check == "ok"), "{:?}", rows[0]);
        let check = run_subcommand("check", &[&path, "-o", "/dev/null"]);
        assert_eq!(code(&check), 1, "{}", stderr(&check));
        assert!(!stderr(&check).contains(": ok: "), "{}", stderr(&check));
    }
    // Beside ids, the same column of puzzles.
    let (mut columns, puzzles) = target_board(10, &junk);
    columns[0] = ("id", Arc::new(Int64Array::from_iter_values(0..10)));
    let path = scratch.parquet("id_board.parquet", columns);
    puzzles_solved_but_the_fifth(&solve_rows(&[&path, "-o", "-"], 1), &puzzles);
}

#[test]
fn a_column_too_long_to_look_at_is_never_passed_over_for_the_solutions() {
    // 1,200 rows in one row group, one value of 80 MiB: over 64 KiB a row
    // on average, too long to read to look at.
    let scratch = Scratch::new();
    let (columns, puzzles) = target_board(1200, &"9".repeat(80 << 20));
    let path = scratch.parquet("long_board.parquet", columns);
    for command in ["solve", "check"] {
        let output = run_subcommand(command, &[&path, "-o", "/dev/null"]);
        let message = stderr(&output);
        assert_eq!(code(&output), 2, "{command}: {message}");
        for part in [
            "rows 1-1000",
            "'target' holds complete grids",
            "'board' is not read (",
            "in its first 1200 rows, over 64 KiB a row)",
            "--column NAME",
        ] {
            assert!(message.contains(part), "{command}: {part}: {message}");
        }
    }
    // Named, the column is read whatever its length.
    let rows = solve_rows(&[&path, "--column", "board", "-o", "-"], 1);
    puzzles_solved_but_the_fifth(&rows, &puzzles);
}
