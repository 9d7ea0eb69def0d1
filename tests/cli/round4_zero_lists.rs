//! Issue 41, round 4: lists of integers numbered from 0 (0-based data
//! sets: 16x16 as 0-15, 4x4 as 0-3, blanks `-1`) from JSON Lines and
//! Parquet, flat and nested, at every size, are read as text records of
//! numbers are (`numbers0`): every `0` a given, never a blank; a list item
//! that fits no numbering keeps its message.

use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use parquet::arrow::ArrowWriter;

use crate::common::*;

/// A solution grid of side `rows * cols`, boxes `rows` x `cols`, values
/// numbered from 0.
fn solution(rows: usize, cols: usize) -> Vec<i64> {
    let n = rows * cols;
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((cols * (r % rows) + r / rows + c) % n) as i64
        })
        .collect()
}

/// The puzzle of `solution`: one blank (`-1`) a row, so it has one
/// solution; with `keep_zero` false, the blank is the row's `0`, so no `0`
/// is given at all.
fn puzzle(solution: &[i64], n: usize, keep_zero: bool) -> Vec<i64> {
    let mut cells = solution.to_vec();
    for r in 0..n {
        let c = match keep_zero {
            true => (r * 5 + 1) % n,
            false => (0..n).find(|&c| solution[r * n + c] == 0).unwrap(),
        };
        cells[r * n + c] = -1;
    }
    assert_eq!(cells.contains(&0), keep_zero);
    cells
}

/// `cells` as nested JSON rows of `n`.
fn nested(cells: &[i64], n: usize) -> serde_json::Value {
    serde_json::json!(cells.chunks(n).collect::<Vec<_>>())
}

/// The values (numbered from 0, -1 blank) a results row writes as
/// `numbers0`: comma-separated, `.` blanks.
fn zero_numbers(text: &str) -> Vec<i64> {
    text.split(',')
        .map(|t| match t {
            "." => -1,
            _ => t.parse().expect("a number"),
        })
        .collect()
}

/// Asserts that `row` is `solved` with `want`, its given solution `ok`,
/// the puzzle written back as read.
fn assert_read_from_zero(row: &Row, puzzle: &[i64], want: &[i64], checked: bool) {
    assert_eq!(row.status, "solved", "line {}: {}", row.line, row.message);
    assert_eq!(zero_numbers(&row.puzzle), puzzle, "line {}", row.line);
    assert_eq!(zero_numbers(&row.solution), want, "line {}", row.line);
    if checked {
        assert_eq!(row.check, "ok", "line {}: {}", row.line, row.message);
    }
}

const SHAPES: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)];

#[test]
fn zero_based_lists_from_json_lines_flat_and_nested_at_every_size() {
    let s = Scratch::new();
    let mut lines = Vec::new();
    let mut want = Vec::new();
    for (rows, cols) in SHAPES {
        let n = rows * cols;
        let answer = solution(rows, cols);
        for keep_zero in [true, false] {
            let cells = puzzle(&answer, n, keep_zero);
            lines.push(serde_json::json!({"puzzle": cells, "solution": answer}).to_string());
            lines.push(
                serde_json::json!({"puzzle": nested(&cells, n), "solution": nested(&answer, n)})
                    .to_string(),
            );
            want.push((cells.clone(), answer.clone()));
            want.push((cells, answer.clone()));
        }
    }
    let file = s.file("zero.jsonl", lines.join("\n").as_bytes());
    let output = solve(&[&file]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let got = rows(&stdout(&output));
    assert_eq!(got.len(), want.len());
    for (row, (cells, answer)) in got.iter().zip(&want) {
        assert_read_from_zero(row, cells, answer, true);
    }
    // The 9x9 ones are rated as any 9x9 puzzle.
    let output = bin().args(["rate", &file, "--quiet"]).output().unwrap();
    let text = stdout(&output);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut nine = 0;
    for record in reader.records() {
        let record = record.unwrap();
        // line,puzzle,rating,hardest,steps,status,message
        if record[1].split(',').count() == 81 {
            nine += 1;
            assert_eq!(&record[5], "solved", "{record:?}");
            assert!(!record[2].is_empty(), "not rated: {record:?}");
        }
    }
    assert_eq!(nine, 4);
}

#[test]
fn zero_based_lists_from_parquet_flat_and_nested() {
    let s = Scratch::new();
    let mut flat = ListBuilder::new(Int64Builder::new());
    let mut deep = ListBuilder::new(ListBuilder::new(Int64Builder::new()));
    let mut want = Vec::new();
    for (rows, cols) in SHAPES {
        let n = rows * cols;
        let answer = solution(rows, cols);
        let cells = puzzle(&answer, n, rows != cols);
        flat.values().append_slice(&cells);
        flat.append(true);
        for row in cells.chunks(n) {
            deep.values().values().append_slice(row);
            deep.values().append(true);
        }
        deep.append(true);
        want.push((cells, answer));
    }
    for (name, column) in [
        ("flat", Arc::new(flat.finish()) as ArrayRef),
        ("nested", Arc::new(deep.finish()) as ArrayRef),
    ] {
        let batch = RecordBatch::try_from_iter([("puzzle", column)]).unwrap();
        let path = s.path(&format!("{name}.parquet"));
        let file = std::fs::File::create(&path).unwrap();
        let mut writer = ArrowWriter::try_new(file, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        let output = solve(&[&path]);
        assert_eq!(code(&output), 0, "{name}: {}", stderr(&output));
        let got = rows(&stdout(&output));
        assert_eq!(got.len(), want.len(), "{name}");
        for (row, (cells, answer)) in got.iter().zip(&want) {
            assert_read_from_zero(row, cells, answer, false);
        }
    }
}

#[test]
fn a_list_no_numbering_fits_keeps_its_message_and_numbers0_is_applied() {
    let s = Scratch::new();
    let answer = solution(4, 4);
    let mut cells: Vec<i64> = answer.iter().map(|v| v + 1).collect();
    // From 1 with `0` blanks, a `-1` beside a 16: no numbering fits.
    cells[1] = -1;
    cells[2] = 0;
    let mut zero = puzzle(&answer, 16, true);
    // From 0, a 16 is out of range under --symbols numbers0.
    let lines = [
        serde_json::json!({ "puzzle": cells }).to_string(),
        serde_json::json!({ "puzzle": zero.clone() }).to_string(),
    ];
    let file = s.file("bad.jsonl", lines.join("\n").as_bytes());
    let got = rows(&stdout(&solve(&[&file])));
    // The input is numbered from 0 (its second record), so the first is
    // read so too: its 16 is what no numbering of the input fits.
    assert_eq!(
        (got[0].status.as_str(), got[0].message.as_str()),
        (
            "malformed",
            "item 16 (r1c16) is 16, expected -1 (blank) or 0-15"
        )
    );
    assert_eq!(got[1].status, "solved", "{}", got[1].message);
    let good = serde_json::json!({ "puzzle": zero.clone() }).to_string();
    zero[5] = 16;
    let bad = serde_json::json!({ "puzzle": zero }).to_string();
    let file = s.file("bad0.jsonl", format!("{bad}\n{good}\n").as_bytes());
    let output = solve(&[&file, "--symbols", "numbers0"]);
    let got = rows(&stdout(&output));
    assert_eq!(got.len(), 2, "{}", stderr(&output));
    assert_eq!(
        (got[0].status.as_str(), got[0].message.as_str()),
        (
            "malformed",
            "item 6 (r1c6) is 16, expected -1 (blank) or 0-15"
        )
    );
    assert_eq!(got[1].status, "solved", "{}", got[1].message);
}

#[test]
fn text_numbers_with_minus_one_blanks_and_no_zero_given_read_from_zero() {
    // As lists are: a 4x4 in 0-3 whose `0`s are all blanks.
    let answer = solution(2, 2);
    let cells = puzzle(&answer, 4, false);
    assert!(!cells.contains(&0));
    let line: Vec<String> = cells.iter().map(i64::to_string).collect();
    let s = Scratch::new();
    let file = s.file("four.txt", format!("{}\n", line.join(",")).as_bytes());
    let got = rows(&stdout(&solve(&[&file])));
    assert_read_from_zero(&got[0], &cells, &answer, false);
}

#[test]
fn text_nine_by_nine_numbers_with_minus_one_blanks_read_from_zero() {
    // 81 numbers in 0-8 with -1 blanks, with and without a `0` given, as
    // 9x9 lists are read: solved, and written back from 0, whether the
    // text is a line, a CSV field or a JSON Lines string.
    let answer = solution(3, 3);
    let s = Scratch::new();
    for keep_zero in [false, true] {
        let cells = puzzle(&answer, 9, keep_zero);
        let text: Vec<String> = cells.iter().map(i64::to_string).collect();
        let text = text.join(",");
        for (name, data) in [
            ("nine.txt", format!("{text}\n")),
            ("nine.csv", format!("id,puzzle\n1,\"{text}\"\n")),
            ("nine.jsonl", format!("{{\"puzzle\":\"{text}\"}}\n")),
        ] {
            let file = s.file(name, data.as_bytes());
            let got = rows(&stdout(&solve(&[&file])));
            assert_eq!(got.len(), 1, "{name}");
            assert_read_from_zero(&got[0], &cells, &answer, false);
        }
    }
}
