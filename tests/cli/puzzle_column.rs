//! Which field is the puzzle and which the solution, in every record
//! (trial57 F0s): a JSON Lines key left out of the first record is still
//! read in later ones, a column named as a solution is never the puzzle
//! column, and choosing the puzzle column by content never takes a column
//! of complete grids over one of puzzles, nor one empty at first: when it
//! cannot tell, it refuses naming `--column` (exit 2). CSV, JSON Lines and
//! Parquet alike.

use std::sync::Arc;

use crate::common::*;
use arrow_array::{ArrayRef, StringArray};

const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
const S: &str = "316452978285679314497318562879234156142965783653187249968721435521843697734596821";
const Q: &str = "000007004000006003860200000509082000640000080000000700000000042010030000703000009";

/// `S` with its last cell wrong.
fn wrong() -> String {
    format!("{}2", &S[..80])
}

/// Writes one-row-group Parquet of string columns (`None` a null).
fn parquet(scratch: &Scratch, name: &str, columns: Vec<(&str, Vec<Option<&str>>)>) -> String {
    let columns = columns
        .into_iter()
        .map(|(n, values)| (n, Arc::new(StringArray::from(values)) as ArrayRef))
        .collect();
    scratch.parquet(name, columns)
}

#[test]
fn a_solution_key_left_out_of_the_first_json_record_is_checked_where_it_is() {
    let scratch = Scratch::new();
    let w = wrong();
    for key in ["solution", "answer", "Solution"] {
        let text = format!(
            "{{\"puzzle\":\"{P}\"}}\n{{\"puzzle\":\"{P}\",\"{key}\":\"{w}\"}}\n\
             {{\"puzzle\":\"{P}\",\"{key}\":\"{S}\"}}\n"
        );
        let path = scratch.file("nosol.jsonl", text.as_bytes());
        let rows = solve_rows(&[&path, "-o", "-"], 1);
        let want = vec![
            (1, "solved", ""),
            (2, "solved", "mismatch"),
            (3, "solved", "ok"),
        ];
        assert_eq!(row_checks(&rows), want, "{key}");
        assert_eq!(rows[1].message, "r9c9: given 2, solved 1 (1 cell differs)");
        let output = solve_stdin(&["-", "--format", "jsonl", "-o", "-"], text.as_bytes());
        assert_eq!(code(&output), 1, "{key}: {}", stderr(&output));
        assert_eq!(
            row_checks(&crate::common::rows(&stdout(&output))),
            want,
            "{key} from stdin"
        );
        let output = bin()
            .args(["check", &path, "-o", "/dev/null"])
            .output()
            .expect("runs");
        assert_eq!(code(&output), 1, "check: {}", stderr(&output));
        assert!(
            stderr(&output).contains("check mismatch"),
            "{}",
            stderr(&output)
        );
    }
    // A solution key after a record that had one, and a status key first
    // seen later, are read too.
    let text = format!(
        "{{\"puzzle\":\"{P}\",\"solution\":\"{S}\"}}\n{{\"puzzle\":\"{P}\",\"answer\":\"{w}\"}}\n"
    );
    let path = scratch.file("answer.jsonl", text.as_bytes());
    assert_eq!(
        row_checks(&solve_rows(&[&path, "-o", "-"], 1)),
        vec![(1, "solved", "ok"), (2, "solved", "mismatch")]
    );
}

#[test]
fn a_first_json_record_without_a_puzzle_does_not_settle_the_puzzle_key() {
    let scratch = Scratch::new();
    let w = wrong();
    for key in ["puzzle", "board"] {
        let text =
            format!("{{\"id\":1}}\n{{\"id\":2,\"{key}\":\"{P}\",\"solution\":\"{w}\"}}\n{{\"id\":3,\"{key}\":\"{Q}\"}}\n");
        let path = scratch.file("noid.jsonl", text.as_bytes());
        let rows = solve_rows(&[&path, "-o", "-"], 1);
        assert_eq!(
            row_checks(&rows),
            vec![
                (1, "malformed", ""),
                (2, "solved", "mismatch"),
                (3, "solved", "")
            ],
            "{key}"
        );
        // The key is chosen on the first lines: `board` by content, so
        // the first line lacks it.
        let message = match key {
            "puzzle" => "no key looks like a puzzle",
            _ => "no key 'board'",
        };
        assert_eq!(rows[0].message, message);
    }
}

#[test]
fn a_column_named_as_the_solution_is_never_the_puzzle_column() {
    let scratch = Scratch::new();
    let w = wrong();
    let csv = scratch.file(
        "solb.csv",
        format!("solution,board\n{S},{P}\n{w},{P}\n").as_bytes(),
    );
    let jsonl = scratch.file(
        "solb.jsonl",
        format!("{{\"solution\":\"{S}\",\"board\":\"{P}\"}}\n{{\"solution\":\"{w}\",\"board\":\"{P}\"}}\n")
            .as_bytes(),
    );
    let pq = parquet(
        &scratch,
        "solb.parquet",
        vec![
            ("solution", vec![Some(S), Some(&w)]),
            ("board", vec![Some(P), Some(P)]),
        ],
    );
    let rows = [1, 2];
    for (path, first) in [(&csv, 2), (&jsonl, 1), (&pq, 1)] {
        let got = solve_rows(&[path, "-o", "-"], 1);
        assert_eq!(
            row_checks(&got),
            rows.iter()
                .map(|&i| (
                    first + i - 1,
                    "solved",
                    if i == 1 { "ok" } else { "mismatch" }
                ))
                .collect::<Vec<_>>(),
            "{path}"
        );
        assert!(
            got.iter().all(|r| r.puzzle.replace('.', "0") == P),
            "{path}"
        );
    }
}

#[test]
fn an_empty_first_puzzle_does_not_send_the_choice_to_the_solutions() {
    let scratch = Scratch::new();
    // Named `solution`: never the puzzle column, so the first row is
    // malformed (its puzzle is empty) and the rest are checked.
    let csv = scratch.file(
        "bsol.csv",
        format!("board,solution\n,{S}\n{P},{S}\n{Q},\n").as_bytes(),
    );
    let jsonl = scratch.file(
        "bsol.jsonl",
        format!(
            "{{\"board\":null,\"solution\":\"{S}\"}}\n{{\"board\":\"{P}\",\"solution\":\"{S}\"}}\n\
             {{\"board\":\"{Q}\"}}\n"
        )
        .as_bytes(),
    );
    let pq = parquet(
        &scratch,
        "bsol.parquet",
        vec![
            ("board", vec![None, Some(P), Some(Q)]),
            ("solution", vec![Some(S), Some(S), None]),
        ],
    );
    for (path, first) in [(&csv, 2), (&jsonl, 1), (&pq, 1)] {
        let got = solve_rows(&[path, "-o", "-"], 1);
        assert_eq!(
            row_checks(&got),
            vec![
                (first, "malformed", ""),
                (first + 1, "solved", "ok"),
                (first + 2, "solved", "")
            ],
            "{path}"
        );
    }
    // Under another name, Parquet, CSV and JSON Lines look further than
    // the first record and find the puzzles; the column of complete grids
    // beside them is their solution, checked in every format (trial58
    // F1-2).
    let pq = parquet(
        &scratch,
        "btgt.parquet",
        vec![
            ("board", vec![None, Some(P), Some(Q)]),
            ("target", vec![Some(S), Some(S), None]),
        ],
    );
    let got = solve_rows(&[&pq, "-o", "-"], 1);
    assert_eq!(
        row_checks(&got),
        vec![(1, "malformed", ""), (2, "solved", "ok"), (3, "solved", "")]
    );
    let text = |csv: bool| {
        if csv {
            format!("board,target\n,{S}\n{P},{S}\n")
        } else {
            format!(
                "{{\"board\":\"\",\"target\":\"{S}\"}}\n{{\"board\":\"{P}\",\"target\":\"{S}\"}}\n"
            )
        }
    };
    for (name, csv) in [("btgt.csv", true), ("btgt.jsonl", false)] {
        let path = scratch.file(name, text(csv).as_bytes());
        assert_eq!(
            row_checks(&solve_rows(&[&path, "-o", "-"], 1)),
            vec![
                (2 - u64::from(!csv), "malformed", ""),
                (3 - u64::from(!csv), "solved", "ok")
            ],
            "{name}"
        );
    }
    // Empty throughout the records looked at: refused naming the columns,
    // the records and --column.
    let csv = scratch.file("btgt1.csv", format!("board,target\n,{S}\n").as_bytes());
    let jsonl = scratch.file(
        "btgt1.jsonl",
        format!("{{\"board\":\"\",\"target\":\"{S}\"}}\n").as_bytes(),
    );
    let headless = scratch.file("btgt1.txt", format!(",{S}\n,{S}\n").as_bytes());
    for (path, place, names) in [
        (
            &csv,
            "line 2",
            "'target' holds complete grids, 'board' is empty",
        ),
        (
            &jsonl,
            "line 1",
            "'target' holds complete grids, 'board' is empty",
        ),
        (
            &headless,
            "lines 1-2",
            "'field2' holds complete grids, 'field1' is empty",
        ),
    ] {
        let format = if path.ends_with(".jsonl") {
            "jsonl"
        } else {
            "csv"
        };
        let output = solve(&[path, "--format", format, "-o", "/dev/null"]);
        assert_eq!(code(&output), 2, "{path}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!(
                "{place}: no column is named as the puzzle, and which one holds the puzzles \
                 is unclear: {names}; give the puzzle column with --column NAME or --column N"
            )),
            "{}",
            stderr(&output)
        );
        let column = if path.ends_with(".txt") { "1" } else { "board" };
        let got = solve_rows(
            &[path, "--format", format, "--column", column, "-o", "-"],
            1,
        );
        assert!(got.iter().all(|r| r.status == "malformed"), "{path}");
    }
}

#[test]
fn a_column_of_puzzles_is_chosen_over_an_earlier_column_of_complete_grids() {
    let scratch = Scratch::new();
    let csv = scratch.file("tgtb.txt", format!("{S},{P}\n,{Q}\n").as_bytes());
    let jsonl = scratch.file(
        "tgtb.jsonl",
        format!("{{\"target\":\"{S}\",\"board\":\"{P}\"}}\n").as_bytes(),
    );
    let pq = parquet(
        &scratch,
        "tgtb.parquet",
        vec![("target", vec![Some(S)]), ("board", vec![Some(P)])],
    );
    for (path, format) in [(&csv, "csv"), (&jsonl, "jsonl"), (&pq, "parquet")] {
        let got = solve_rows(&[path, "--format", format, "-o", "-"], 0);
        assert_eq!(got[0].puzzle.replace('.', "0"), P, "{path}");
    }
    // A file of complete grids alone is still read: they are the puzzles.
    let solved = scratch.file("solved.csv", format!("grids,id\n{S},7\n").as_bytes());
    let got = solve_rows(&[&solved, "-o", "-"], 0);
    assert_eq!(got[0].puzzle, S);
}

#[test]
fn a_text_line_of_a_complete_grid_then_a_puzzle_solves_the_puzzle_and_checks_the_grid() {
    let scratch = Scratch::new();
    let w = wrong();
    let path = scratch.file("sp.txt", format!("{S} {P}\n{w} {P}\n{S} 7\n").as_bytes());
    let got = solve_rows(&[&path, "-o", "-"], 1);
    assert_eq!(
        row_checks(&got),
        vec![
            (1, "solved", "ok"),
            (2, "solved", "mismatch"),
            (3, "solved", "")
        ]
    );
    assert_eq!(got[0].puzzle.replace('.', "0"), P);
    assert_eq!(got[2].puzzle, S);
}
