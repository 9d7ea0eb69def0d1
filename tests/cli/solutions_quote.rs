//! A `--solutions` CSV follows the input's rule for a stray quote: a lone
//! `"` (a ditto mark in a note) closed by another at a line end took the
//! solutions between into one field, so every later solution was checked
//! against the record before its own (`mismatch`es that were no one's,
//! then exit 2: the solutions file is shorter). A line a quoted field
//! takes in that holds a grid in the solution column, with the file's
//! field count, is a solution of its own; the quote's line says so.

use crate::common::*;

#[test]
fn a_stray_quote_in_a_solutions_csv_shifts_no_pairing() {
    let scratch = Scratch::new();
    let pairs = kaggle(5);
    let puzzles: String = pairs.iter().map(|(p, _)| format!("{p}\n")).collect();
    let input = scratch.file("p.txt", puzzles.as_bytes());
    // Ditto marks on the first and fourth solutions' notes.
    let solutions: String = pairs
        .iter()
        .enumerate()
        .map(|(i, (_, s))| {
            let note = if i == 0 || i == 3 { "\"" } else { "" };
            format!("{},{s},{note}\n", i + 1)
        })
        .collect();
    let file = scratch.file("s.csv", format!("id,solution,note\n{solutions}").as_bytes());
    let output = solve(&[&input, "--solutions", &file]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let got: Vec<(u64, String, String)> = rows(&stdout(&output))
        .into_iter()
        .map(|r| (r.line, r.check, r.message))
        .collect();
    let stray = |line: u64| {
        format!("solutions file line {line}: not a grid: unterminated quote opened on line {line}")
    };
    let ok = |line: u64| (line, "ok".to_string(), String::new());
    assert_eq!(
        got,
        [
            (1, "mismatch".into(), stray(2)),
            ok(2),
            ok(3),
            (4, "mismatch".into(), stray(5)),
            ok(5),
        ]
    );
}
