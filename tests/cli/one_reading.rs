//! What belongs to a whole input is chosen once, from its first records,
//! before any record is parsed on the workers (rows are parsed there in
//! parallel, each alone): how it numbers its grids (from 0 or from 1) and,
//! in CSV and JSON Lines, which column holds the puzzles (Parquet's
//! numbering on its first rows too). Each record alone
//! read a pandas array numbered from 0 with `NaN` blanks from 1 when it
//! gave no `0` (a `9` in a 0-8 data set, exit 0: trial57 F1-4), and a
//! CSV whose first puzzle was empty was refused where Parquet found the
//! puzzle column.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder};
use arrow_array::StringArray;

use crate::common::*;

/// A puzzle that gives a `1` (a `0` numbered from 0), and one that does
/// not (trial57 F1-4's pair).
const P: &str = ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";
const Q: &str = ".................9.....2.3......45.6..3.......97...8.....96......8....4..6.5..2..";
const P_SOLVED: &str =
    "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

/// The rows of `solve FILE ARGS -o -`, exit `code_wanted` asserted.
fn solved(file: &str, args: &[&str], code_wanted: i32) -> Vec<HashMap<String, String>> {
    let args = [&[file][..], args, &["-o", "-"]].concat();
    csv_table(&solve_stdout(&args, code_wanted)).1
}

/// `grid` (one character a cell, `.` blanks) numbered from 0: each digit
/// less one, as `sep`-separated numbers, blanks `blank`.
fn from_zero(grid: &str, blank: &str, sep: &str) -> String {
    let cells: Vec<String> = grid
        .bytes()
        .map(|b| match b {
            b'.' => blank.to_string(),
            _ => (b - b'1').to_string(),
        })
        .collect();
    cells.join(sep)
}

/// pandas' `DataFrame(array).to_csv(path)` of grids numbered from 0 with
/// `NaN` blanks: `,0,...,80`, then each row's index and its cells written
/// as floats (`4.0`), a blank empty.
fn nan_frame(grids: &[&str]) -> String {
    let names: Vec<String> = (0..81).map(|i| i.to_string()).collect();
    let mut text = format!(",{}\n", names.join(","));
    for (i, grid) in grids.iter().enumerate() {
        let cells: Vec<String> = grid
            .bytes()
            .map(|b| match b {
                b'.' => String::new(),
                _ => format!("{}.0", b - b'1'),
            })
            .collect();
        text.push_str(&format!("{i},{}\n", cells.join(",")));
    }
    text
}

/// The solution of `grid` (81 characters) numbered from 0, as results
/// write it: each value less one, separated by commas.
fn solution_from_zero(s: &Scratch, grid: &str) -> String {
    let file = s.file("one.txt", format!("{grid}\n").as_bytes());
    let rows = solved(&file, &[], 0);
    from_zero(&rows[0]["solution"], "", ",")
}

#[test]
fn a_pandas_array_numbered_from_zero_with_nan_blanks_is_read_in_one_numbering() {
    let s = Scratch::new();
    let file = s.file("z0b.csv", nan_frame(&[P, Q]).as_bytes());
    let rows = solved(&file, &[], 0);
    // Q gives no 0, yet it is read from 0 as P is: no 9 in its solution.
    assert_eq!(rows[0]["solution"], from_zero(P_SOLVED, "", ","));
    assert_eq!(rows[1]["solution"], solution_from_zero(&s, Q));
    assert!(!rows[1]["solution"].contains('9'), "{rows:?}");
    // The same from stdin, and with the puzzle giving no 0 first.
    let output = solve_stdin(&["-", "-o", "-"], nan_frame(&[Q, P]).as_bytes());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let rows = csv_table(&stdout(&output)).1;
    assert_eq!(rows[0]["solution"], solution_from_zero(&s, Q));
    // Text lines of such numbers, `.` blanks: the same.
    let text = format!("{}\n{}\n", from_zero(Q, ".", ","), from_zero(P, ".", ","));
    let rows = solved(&s.file("z0.txt", text.as_bytes()), &[], 0);
    assert_eq!(rows[0]["solution"], solution_from_zero(&s, Q));
    assert_eq!(rows[1]["solution"], from_zero(P_SOLVED, "", ","));
}

#[test]
fn a_record_against_the_numbering_of_the_first_records_is_refused_saying_so() {
    let s = Scratch::new();
    // 1,000 records that give no 0 (from 1 as far as they show), then one
    // that gives a 0: it is not read from 0 silently.
    let mut grids = vec![Q; 1000];
    grids.push(P);
    let file = s.file("late.csv", nan_frame(&grids).as_bytes());
    let rows = solved(&file, &[], 1);
    assert_eq!(rows.len(), 1001);
    assert!(rows[..1000].iter().all(|r| r["status"] == "solved"));
    assert_eq!(rows[1000]["status"], "malformed");
    assert_eq!(
        rows[1000]["message"],
        "numbered from 0 (a 0 given among blanks), but this input's first 9x9 records are \
         numbered from 1 (all 1000): one numbering per input"
    );
    // Other sizes name the `--symbols` that reads the whole input so, and
    // it does.
    let mut four = vec!["3,.,2,.,.,1,.,.,.,.,.,.,.,.,.,."; 1000];
    four.push("0,.,2,.,.,1,.,.,.,.,.,.,.,.,.,.");
    let text: String = four.iter().map(|g| format!("{g}\n")).collect();
    let file = s.file("four.txt", text.as_bytes());
    let rows = solved(&file, &[], 1);
    assert_eq!(
        rows[1000]["message"],
        "numbered from 0 (a 0 given among blanks), but this input's first 4x4 records are \
         numbered from 1 (all 1000): one numbering per input (--symbols numbers0 reads it all \
         so)"
    );
    let rows = solved(&file, &["--symbols", "numbers0"], 1);
    assert!(rows.iter().all(|r| r["status"] != "malformed"), "{rows:?}");

    // Text lines numbered from 0, then a record numbered from 1 (a 9):
    // refused, not read from 1 (one record each way: a tie, read from 0).
    let text = format!(
        "{}\n{}\n",
        from_zero(P, ".", ","),
        from_zero(Q, ".", ",").replacen('.', "9", 1)
    );
    let rows = solved(&s.file("nine.txt", text.as_bytes()), &[], 1);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[1]["status"], "malformed");
    assert_eq!(
        rows[1]["message"],
        "numbered from 1 (9 at cell 1), but half of this input's first 9x9 records are \
         numbered from 0 (1 of 2; a tie is read from 0): one numbering per input"
    );
}

#[test]
fn json_lists_numbered_from_zero_read_a_complete_grid_from_zero_too() {
    let s = Scratch::new();
    // A complete grid numbered from 0 has no -1 to show it: alone, its 0s
    // were blanks, filled with 9s.
    let list = |grid: &str| format!("[{}]", from_zero(grid, "-1", ","));
    let text = format!(
        "{{\"puzzle\":{}}}\n{{\"puzzle\":{}}}\n",
        list(P),
        list(P_SOLVED)
    );
    let rows = solved(&s.file("lists.jsonl", text.as_bytes()), &[], 0);
    let want = from_zero(P_SOLVED, "", ",");
    assert_eq!(rows[0]["solution"], want);
    assert_eq!(rows[1]["solution"], want);
    // A list numbered from 1, and one with -1 blanks: the input is
    // numbered from 0 (a tie), and the list numbered from 1 is refused,
    // saying so.
    let digits = |grid: &str| {
        let cells: Vec<String> = grid
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' }.to_string())
            .collect();
        format!("[{}]", cells.join(","))
    };
    let text = format!("{{\"puzzle\":{}}}\n{{\"puzzle\":{}}}\n", digits(P), list(Q));
    let rows = solved(&s.file("mixed.jsonl", text.as_bytes()), &[], 1);
    assert_eq!(rows[0]["status"], "malformed");
    assert_eq!(
        rows[0]["message"],
        "numbered from 1 (item 15 (r2c6) is 9, expected -1 (blank) or 0-8), but half of this \
         input's first 9x9 records are numbered from 0 (1 of 2; a tie is read from 0): one \
         numbering per input"
    );
    assert_eq!(rows[1]["solution"], solution_from_zero(&s, Q));
    // Past the records looked at, a list with -1 blanks after lists
    // numbered from 1 is refused.
    let mut lines = vec![format!("{{\"puzzle\":{}}}\n", digits(P)); 1000];
    lines.push(format!("{{\"puzzle\":{}}}\n", list(Q)));
    let rows = solved(&s.file("late.jsonl", lines.concat().as_bytes()), &[], 1);
    assert_eq!(rows[1000]["status"], "malformed");
    assert!(
        rows[1000]["message"].starts_with("numbered from 0 (a list with -1 blanks), but"),
        "{:?}",
        rows[1000]
    );
}

#[test]
fn minus_one_blanks_number_a_text_record_from_zero() {
    // Q gives no 1: numbered from 0 with -1 blanks it gives no 0, and read
    // from 1 its values (1-8) were each one lower than written, silently,
    // in an input numbered from 1. `-1` is 0-based data's blank (results
    // write a puzzle from 0 that gives no 0 so; a list with it is
    // refused there too): the record reads only from 0.
    let s = Scratch::new();
    let from_one = |grid: &str| {
        let cells: Vec<String> = grid
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' }.to_string())
            .collect();
        cells.join(",")
    };
    let minus = from_zero(Q, "-1", ",");
    assert!(!minus.split(',').any(|c| c == "0"));
    let text = format!(
        "{}\n{minus}\n{}\n{}\n",
        from_one(P),
        from_one(P),
        from_one(P)
    );
    let rows = solved(&s.file("minus.txt", text.as_bytes()), &[], 1);
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str()).collect();
    assert_eq!(statuses, ["solved", "malformed", "solved", "solved"]);
    assert_eq!(
        rows[1]["message"],
        "numbered from 0 (-1 blanks), but most of this input's first 9x9 records are \
         numbered from 1 (3 of 4): one numbering per input"
    );
    // The same in a CSV field, and past the records looked at.
    let mut csv = vec![format!("puzzle\n\"{}\"\n", from_one(P))];
    csv.extend(vec![format!("\"{}\"\n", from_one(P)); 1000]);
    csv.push(format!("\"{minus}\"\n"));
    let rows = solved(&s.file("minus.csv", csv.concat().as_bytes()), &[], 1);
    assert_eq!(rows[1001]["status"], "malformed");
    assert!(
        rows[1001]["message"].starts_with("numbered from 0 (-1 blanks), but this input's"),
        "{:?}",
        rows[1001]
    );
    // Among records from 0 it is read from 0.
    let text = format!("{minus}\n{}\n", from_zero(P, "-1", ","));
    let rows = solved(&s.file("zero.txt", text.as_bytes()), &[], 0);
    assert_eq!(rows[0]["solution"], solution_from_zero(&s, Q));
}

#[test]
fn csv_and_json_lines_choose_the_puzzle_column_on_their_first_records() {
    let s = Scratch::new();
    let wrong = format!("{}2", &P_SOLVED[..80]);
    // `board,target`, no known names, the first board empty: Parquet
    // finds the boards on its first rows, and so do CSV and JSON Lines.
    let csv = format!("board,target\n,{P_SOLVED}\n{P},{P_SOLVED}\n{P},{wrong}\n");
    let want = [("malformed", ""), ("solved", "ok"), ("solved", "mismatch")];
    let got = |rows: &[HashMap<String, String>]| -> Vec<(String, String)> {
        rows.iter()
            .map(|r| (r["status"].clone(), r["check"].clone()))
            .collect()
    };
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let rows = solved(&s.file("board.csv", csv.as_bytes()), &[], 1);
    assert_eq!(got(&rows), want);
    let output = solve_stdin(&["-", "--format", "csv", "-o", "-"], csv.as_bytes());
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(got(&csv_table(&stdout(&output)).1), want);
    let jsonl = format!(
        "{{\"board\":null,\"target\":\"{P_SOLVED}\"}}\n{{\"board\":\"{P}\",\"target\":\"{P_SOLVED}\"}}\n{{\"board\":\"{P}\",\"target\":\"{wrong}\"}}\n"
    );
    let rows = solved(&s.file("board.jsonl", jsonl.as_bytes()), &[], 1);
    assert_eq!(
        rows.iter()
            .map(|r| r["status"].as_str())
            .collect::<Vec<_>>(),
        ["malformed", "solved", "solved"]
    );
    // A column of solutions before the puzzles, not named as one: checked.
    let csv = format!("sol,board\n{P_SOLVED},{P}\n{wrong},{P}\n");
    let rows = solved(&s.file("sol.csv", csv.as_bytes()), &[], 1);
    assert_eq!(
        got(&rows),
        [("solved", "ok"), ("solved", "mismatch")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<Vec<_>>()
    );
    // Empty throughout the first records beside complete grids: still
    // unclear, refused naming the records looked at.
    let csv = format!("board,target\n,{P_SOLVED}\n,{P_SOLVED}\n");
    let output = solve(&[&s.file("empty.csv", csv.as_bytes()), "-o", "-"]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("lines 2-3:") && stderr(&output).contains("--column"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn parquet_reads_its_rows_in_the_numbering_of_its_first_rows() {
    let s = Scratch::new();
    // Lists numbered from 0: a complete grid has no -1 to show it.
    let mut lists = ListBuilder::new(Int64Builder::new());
    for grid in [P, P_SOLVED] {
        let cells: Vec<i64> = grid
            .bytes()
            .map(|b| if b == b'.' { -1 } else { i64::from(b - b'1') })
            .collect();
        lists.values().append_slice(&cells);
        lists.append(true);
    }
    let path = s.parquet("lists.parquet", vec![("puzzle", Arc::new(lists.finish()))]);
    let rows = solved(&path, &[], 0);
    let want = from_zero(P_SOLVED, "", ",");
    assert_eq!(rows[0]["solution"], want);
    assert_eq!(rows[1]["solution"], want);
    // Strings of numbers from 0 with `.` blanks, the first giving no 0.
    let strings = StringArray::from(vec![from_zero(Q, ".", ","), from_zero(P, ".", ",")]);
    let path = s.parquet("strings.parquet", vec![("puzzle", Arc::new(strings))]);
    let rows = solved(&path, &[], 0);
    assert_eq!(rows[0]["solution"], solution_from_zero(&s, Q));
    assert_eq!(rows[1]["solution"], want);
}

/// Kaggle's first 1,200 puzzles as their values numbered from 1 (`0`
/// blanks), but record 4 numbered from 0 (`-1` blanks); with `zero`, the
/// other way round (trial60 F1-6's input).
fn one_odd(zero: bool) -> Vec<Vec<i64>> {
    kaggle(1200)
        .iter()
        .enumerate()
        .map(|(i, (puzzle, _))| {
            let shift = i64::from((i == 3) != zero);
            puzzle
                .bytes()
                .map(|b| i64::from(b - b'0') - shift)
                .collect()
        })
        .collect()
}

/// Asserts that `rows` are all solved but the fourth, `malformed` as a
/// record numbered from `odd` in an input numbered from the other.
fn only_the_odd_one(rows: &[HashMap<String, String>], odd: u8, what: &str) {
    assert_eq!(rows.len(), 1200, "{what}");
    let malformed: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i]["status"] != "solved")
        .collect();
    assert_eq!(malformed, [3], "{what}: {:?}", rows[0]);
    let message = &rows[3]["message"];
    let input = 1 - odd;
    assert!(
        message.starts_with(&format!("numbered from {odd} (")),
        "{what}: {message}"
    );
    assert!(
        message.ends_with(&format!(
            "), but most of this input's first 9x9 records are numbered from {input} \
             (999 of 1000): one numbering per input"
        )),
        "{what}: {message}"
    );
}

#[test]
fn one_odd_record_among_the_first_is_the_only_one_refused() {
    let s = Scratch::new();
    // 1,199 records numbered from 1 and one from 0 (before, the one from
    // 0 decided: 1,199 malformed, "this input's first 9x9 records are
    // numbered from 0"), and the other way round; in every format.
    for (zero, odd) in [(false, 0), (true, 1)] {
        let grids = one_odd(zero);
        let texts: Vec<String> = grids
            .iter()
            .map(|g| {
                g.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        let jsonl: String = texts
            .iter()
            .map(|t| format!("{{\"puzzle\":[{t}]}}\n"))
            .collect();
        let csv: String = std::iter::once("puzzle\n".to_string())
            .chain(texts.iter().map(|t| format!("\"{t}\"\n")))
            .collect();
        let lines: String = texts.iter().map(|t| format!("{t}\n")).collect();
        let mut lists = ListBuilder::new(Int64Builder::new());
        for grid in &grids {
            lists.values().append_slice(grid);
            lists.append(true);
        }
        let files = [
            s.file(&format!("odd{odd}.jsonl"), jsonl.as_bytes()),
            s.file(&format!("odd{odd}.csv"), csv.as_bytes()),
            s.file(&format!("odd{odd}.txt"), lines.as_bytes()),
            s.parquet(
                &format!("odd{odd}.parquet"),
                vec![("puzzle", Arc::new(lists.finish()))],
            ),
        ];
        for file in &files {
            only_the_odd_one(&solved(file, &[], 1), odd, file);
        }
    }
}
