//! "Nothing lost", round 4, parts 1 and 2 (issue 41): a record of any
//! supported size is never a header and never dropped, and every shape is
//! read at every size. The real binary on the round 4 cases
//! (`tests/cases/r4-*`, see `tests/cases/CASES.md`) and on files of the same
//! kinds made here; every solution is checked by a check of this file's
//! own (each row, column and box a permutation of the symbols, every given
//! kept), not by the library's.

use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use parquet::arrow::ArrowWriter;

use crate::common::*;

/// Cell values (0 blank) of a results row's puzzle or solution written in
/// `alphabet`: the symbols in order (a `.` blank), or `numbers`.
fn values(text: &str, alphabet: &str) -> Vec<usize> {
    if alphabet == "numbers" {
        return text
            .split(',')
            .map(|t| t.parse().expect("a number"))
            .collect();
    }
    text.chars()
        .map(|ch| match ch {
            '.' => 0,
            _ => {
                1 + alphabet
                    .find(ch)
                    .unwrap_or_else(|| panic!("{ch:?} not in {alphabet}"))
            }
        })
        .collect()
}

/// Asserts that the row is `solved` with a solution of its puzzle, both in
/// `alphabet`, with boxes of `rows` x `cols`.
fn assert_solved(row: &Row, alphabet: &str, rows: usize, cols: usize) {
    assert_eq!(row.status, "solved", "line {}: {}", row.line, row.message);
    let puzzle = values(&row.puzzle, alphabet);
    let solution = values(&row.solution, alphabet);
    let n = rows * cols;
    assert_eq!(
        (puzzle.len(), solution.len()),
        (n * n, n * n),
        "line {}",
        row.line
    );
    for (p, s) in puzzle.iter().zip(&solution) {
        assert!(*p == 0 || p == s, "line {}: a given changed", row.line);
    }
    let all: Vec<usize> = (1..=n).collect();
    let sorted = |mut cells: Vec<usize>| {
        cells.sort_unstable();
        cells
    };
    for i in 0..n {
        let (top, left) = (i / rows * rows, i % rows * cols);
        let units = [
            (0..n).map(|j| solution[i * n + j]).collect(),
            (0..n).map(|j| solution[j * n + i]).collect(),
            (0..n)
                .map(|j| solution[(top + j / cols) * n + left + j % cols])
                .collect::<Vec<_>>(),
        ];
        for unit in units {
            assert_eq!(sorted(unit), all, "line {}: unit {}", row.line, i + 1);
        }
    }
}

/// Runs `solve ARGS --quiet`, asserting the exit code; the rows.
fn rows_of(args: &[&str], expected_code: i32) -> Vec<Row> {
    let output = solve(args);
    assert_eq!(code(&output), expected_code, "stderr: {}", stderr(&output));
    assert!(
        !stderr(&output).contains("no puzzles found"),
        "{}",
        stderr(&output)
    );
    rows(&stdout(&output))
}

/// `(line, status, message)` of each row.
fn brief(rows: &[Row]) -> Vec<(u64, &str, &str)> {
    rows.iter()
        .map(|r| (r.line, r.status.as_str(), r.message.as_str()))
        .collect()
}

const ONE_TO_Z: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ZERO_TO_Z: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const A_TO_Z: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// ---- 1: a record of any size is never a header, never dropped ------------

#[test]
fn r4_10_puzzles_in_letters_open_a_file_and_are_solved() {
    for format in [&[][..], &["--format", "lines"]] {
        let six = case("r4-10a-six-letters.txt");
        let mut args = vec![six.as_str()];
        args.extend(format);
        let got = rows_of(&args, 0);
        assert_eq!(got.len(), 3, "{format:?}");
        got.iter().for_each(|r| assert_solved(r, A_TO_Z, 2, 3));
        let twelve = case("r4-10c-twelve-letters.txt");
        let mut args = vec![twelve.as_str()];
        args.extend(format);
        let got = rows_of(&args, 0);
        assert_eq!(got.len(), 3, "{format:?}");
        got.iter().for_each(|r| assert_solved(r, A_TO_Z, 3, 4));
    }
    // 8x8 in A-H and 36x36 in 0-9A-Z open a file just as well.
    let got = rows_of(&[&case("r4-10-letters8-and-36.txt")], 0);
    assert_eq!(got.len(), 3);
    assert_solved(&got[0], A_TO_Z, 2, 4);
    assert_solved(&got[1], A_TO_Z, 2, 4);
    assert_solved(&got[2], ZERO_TO_Z, 6, 6);
}

#[test]
fn r4_10_symbols_format_lines_and_box_make_every_line_a_record() {
    let s = Scratch::new();
    let eight = case("r4-10-symbols8.txt");
    // The file's own alphabet: solved with it.
    let got = rows_of(&[&eight, "--symbols", "qwertyui"], 0);
    assert_eq!(got.len(), 2);
    got.iter().for_each(|r| assert_solved(r, "qwertyui", 2, 4));
    // Without it, each line is a record that says what to give.
    let got = rows_of(&[&eight], 1);
    assert_eq!(got.len(), 2);
    for row in &got {
        assert_eq!(row.status, "malformed");
        assert!(row.message.contains("--symbols"), "{}", row.message);
    }
    // A title line before puzzles is a header under `auto`, and a record
    // (`malformed`, named) under `--format lines`, `--symbols` or `--box`.
    let mut text = b"quizzes,solutions\n".to_vec();
    text.extend(std::fs::read(case("r4-10a-six-letters.txt")).unwrap());
    let titled = s.file("titled.txt", &text);
    let got = rows_of(&[&titled], 0);
    assert_eq!(brief(&got)[0].0, 2);
    assert_eq!(got.len(), 3);
    for extra in [
        &["--format", "lines"][..],
        &["--symbols", "A-Z"],
        &["--box", "2x3"],
    ] {
        let mut args = vec![titled.as_str()];
        args.extend(extra);
        let got = rows_of(&args, 1);
        assert_eq!(got.len(), 4, "{extra:?}");
        assert_eq!(got[0].line, 1);
        assert_eq!(got[0].status, "malformed", "{extra:?}");
        got[1..].iter().for_each(|r| assert_solved(r, A_TO_Z, 2, 3));
    }
}

#[test]
fn r4_09_one_line_grids_of_numbers_at_every_size() {
    let got = rows_of(&[&case("r4-09a-numbers16-comma.txt")], 0);
    assert_eq!(got.len(), 1);
    assert_solved(&got[0], "numbers", 4, 4);
    let got = rows_of(&[&case("r4-09c-numbers4-comma.txt")], 0);
    assert_eq!(got.len(), 1);
    assert_solved(&got[0], "numbers", 2, 2);
    // 4x4 to 64x64, separated by `,`, ` ` or `, ` (the 64x64 line is
    // 15,320 bytes), and 9x9 written the same way.
    let got = rows_of(&[&case("r4-09-numbers-every-size.txt")], 0);
    let shapes = [
        (2, 2),
        (2, 3),
        (3, 3),
        (3, 4),
        (4, 4),
        (5, 5),
        (6, 6),
        (8, 8),
    ];
    assert_eq!(got.len(), shapes.len());
    for (row, (r, c)) in got.iter().zip(shapes) {
        if r * c == 9 {
            assert_solved(row, ONE_TO_Z, 3, 3);
        } else {
            assert_solved(row, "numbers", r, c);
        }
    }
    // Any other line over 4096 bytes is still too long, and says so.
    let s = Scratch::new();
    let long = s.file("long.txt", format!("{}\n", "1,".repeat(3000)).as_bytes());
    let got = rows_of(&[&long], 1);
    assert_eq!(
        brief(&got),
        [(1, "malformed", "line too long (over 4096 bytes)")]
    );
}

#[test]
fn r4_17_a_grid_cut_into_long_lines_is_reported_line_by_line() {
    let file = case("r4-17-sixteen-as-4-lines-of-64.txt");
    // Read as lines: each 64-character line is an 8x8 record that says why
    // it is none; no line is dropped as a header.
    let got = rows_of(&[&file], 1);
    assert_eq!(got.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 2, 3, 4]);
    for row in &got {
        assert_eq!(row.status, "malformed");
        assert!(row.message.contains("--symbols"), "{}", row.message);
    }
    // As grids: the cut grid is named, not "no puzzles found".
    let got = rows_of(&[&file, "--format", "grid"], 1);
    assert_eq!(
        brief(&got),
        [(
            1,
            "malformed",
            "a 64x64 grid cut short after 4 of 64 rows (end of input)"
        )]
    );
}

#[test]
fn r4_17_format_grid_reports_junk_and_text_no_grid_follows() {
    let s = Scratch::new();
    let grid = std::fs::read_to_string(case("r4-19a-grid6.txt")).unwrap();
    let text = format!("Puzzle 1\n{grid}\n..4.@..x\nThe end\n");
    let file = s.file("junk.txt", text.as_bytes());
    let got = rows_of(&[&file, "--format", "grid"], 1);
    assert_solved(&got[0], "123456", 2, 3);
    assert_eq!(
        brief(&got[1..]),
        [
            (9, "malformed", "not a grid row, title or separator"),
            (10, "malformed", "a line of text that no grid follows"),
        ]
    );
}

#[test]
fn r4_18_one_line_four_by_four_puzzles_are_read_as_such() {
    let got = rows_of(&[&case("r4-18-four.txt")], 0);
    assert_eq!(got.len(), 5);
    got.iter().for_each(|r| assert_solved(r, "1234", 2, 2));
    // Sixteen rows of sixteen cells are a 16x16 grid file: refused with the
    // advice, which reads it.
    let s = Scratch::new();
    let puzzle = std::fs::read_to_string(case("r4-08-puzzles16.txt")).unwrap();
    let first = puzzle.lines().next().unwrap();
    let rows: Vec<&str> = (0..16).map(|r| &first[r * 16..r * 16 + 16]).collect();
    let file = s.file("g16.txt", format!("{}\n", rows.join("\n")).as_bytes());
    let output = solve(&[&file]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("--format grid"),
        "{}",
        stderr(&output)
    );
    let got = rows_of(&[&file, "--format", "grid"], 0);
    assert_solved(&got[0], &ONE_TO_Z[..16], 4, 4);
}

#[test]
fn r4_19_grid_files_of_every_side_are_recognised() {
    for (name, side, rows, cols) in [
        ("r4-19a-grid6.txt", 6, 2, 3),
        ("r4-19c-grid12.txt", 12, 3, 4),
    ] {
        let file = case(name);
        let output = solve(&[&file]);
        assert_eq!(code(&output), 2, "{name}: {}", stderr(&output));
        let message = stderr(&output);
        assert!(
            message.contains(&format!("{side}x{side} grids")) && message.contains("--format grid"),
            "{message}"
        );
        let got = rows_of(&[&file, "--format", "grid"], 0);
        assert_eq!(got.len(), 1);
        assert_solved(&got[0], &ONE_TO_Z[..side], rows, cols);
    }
}

// ---- 2: every shape at every size -----------------------------------------

#[test]
fn r4_08_a_solutions_file_of_sixteen_by_sixteen_grids_is_checked() {
    let got = rows_of(
        &[
            &case("r4-08-puzzles16.txt"),
            "--solutions",
            &case("r4-08-solutions16.txt"),
        ],
        0,
    );
    assert_eq!(got.len(), 6);
    for row in &got {
        assert_solved(row, &ONE_TO_Z[..16], 4, 4);
        assert_eq!(row.check, "ok", "line {}: {}", row.line, row.message);
    }
    // A wrong one is a mismatch, a line that is no grid names its line.
    let s = Scratch::new();
    let mut solutions: Vec<String> = std::fs::read_to_string(case("r4-08-solutions16.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    solutions.swap(0, 1);
    solutions[2].truncate(200);
    let file = s.file("sol.txt", format!("{}\n", solutions.join("\n")).as_bytes());
    let got = rows_of(&[&case("r4-08-puzzles16.txt"), "--solutions", &file], 1);
    let checks: Vec<&str> = got.iter().map(|r| r.check.as_str()).collect();
    assert_eq!(
        checks,
        ["mismatch", "mismatch", "mismatch", "ok", "ok", "ok"]
    );
    assert!(
        got[2]
            .message
            .starts_with("solutions file line 3: not a 16x16 grid"),
        "{}",
        got[2].message
    );
}

#[test]
fn r4_11_lists_of_lists_at_every_size_from_json_lines_and_parquet() {
    let got = rows_of(&[&case("r4-11a-nested-sizes.jsonl")], 0);
    let shapes = [(2, 2), (2, 3), (2, 4), (2, 5), (3, 4), (4, 4), (5, 5)];
    assert_eq!(got.len(), shapes.len());
    for (row, (r, c)) in got.iter().zip(shapes) {
        assert_solved(row, "numbers", r, c);
    }
    // The same grids as Parquet `list<list<int64>>`.
    let grids: Vec<Vec<Vec<i64>>> = std::fs::read_to_string(case("r4-11a-nested-sizes.jsonl"))
        .unwrap()
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            serde_json::from_value(value["puzzle"].clone()).unwrap()
        })
        .collect();
    let mut builder = ListBuilder::new(ListBuilder::new(Int64Builder::new()));
    for grid in &grids {
        for row in grid {
            builder.values().values().append_slice(row);
            builder.values().append(true);
        }
        builder.append(true);
    }
    let column = Arc::new(builder.finish()) as ArrayRef;
    let batch = RecordBatch::try_from_iter([("puzzle", column)]).unwrap();
    let s = Scratch::new();
    let path = s.path("nested.parquet");
    let mut writer =
        ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let from_parquet = rows_of(&[&path], 0);
    assert_eq!(from_parquet.len(), shapes.len());
    for (row, (r, c)) in from_parquet.iter().zip(shapes) {
        assert_solved(row, "numbers", r, c);
    }
}

#[test]
fn r4_12_a_bad_list_item_is_named_with_its_place_and_fault() {
    let got = rows_of(&[&case("r4-12-lists.jsonl")], 1);
    assert_eq!(
        brief(&got[3..6]),
        [
            (4, "malformed", "item 2 (r1c2) is 17, expected 0-16"),
            (5, "malformed", "item 2 (r1c2) is -1, expected 0-16"),
            (
                6,
                "malformed",
                "item 2 (r1c2) is null, expected an integer 0-16"
            ),
        ]
    );
    assert_eq!(
        brief(&got[8..9]),
        [(
            9,
            "malformed",
            "item 2 (r1c2) is a number (3.0), expected an integer 0-16"
        )]
    );
    for i in [0, 1, 2, 6, 7, 9] {
        assert_eq!(
            got[i].status, "solved",
            "line {}: {}",
            got[i].line, got[i].message
        );
    }
    // Lists of lists: the row that is no list of n, or the item.
    let s = Scratch::new();
    let row = |v: &str| format!("[{}]", [v; 4].join(","));
    let rows4 = |r: [String; 4]| format!("{{\"puzzle\": [{}]}}", r.join(","));
    let text = [
        rows4([row("0"), row("0"), "[0,0,0]".into(), row("0")]),
        rows4([row("0"), row("0"), row("0"), "null".into()]),
        rows4([row("0"), "[0,0,true,0]".into(), row("0"), row("0")]),
    ]
    .join("\n");
    let file = s.file("nested.jsonl", text.as_bytes());
    let got = rows_of(&[&file], 1);
    assert_eq!(
        brief(&got),
        [
            (1, "malformed", "row 3 is a list of 3 values, expected 4"),
            (2, "malformed", "row 4 is null, expected a list of 4 values"),
            (
                3,
                "malformed",
                "item 7 (r2c3) is a boolean (true), expected an integer 0-4"
            ),
        ]
    );
    // A 9x9 of lists names its row the same way (it was `found a list of
    // 9 values, expected 81 cells or 9 lists of 9`); 8 rows are no grid.
    let row = |v: &str| format!("[{}]", [v; 9].join(","));
    let rows9 = |last: &str| {
        let mut rows = vec![row("0"); 8];
        rows.push(last.to_string());
        format!("{{\"puzzle\": [{}]}}", rows.join(","))
    };
    let eight = format!("{{\"puzzle\": [{}]}}", vec![row("0"); 8].join(","));
    let text = [rows9("[0,0,0,0,0,0,0,0]"), rows9("null"), eight].join("\n");
    let file = s.file("nested9.jsonl", text.as_bytes());
    assert_eq!(
        brief(&rows_of(&[&file], 1)),
        [
            (1, "malformed", "row 9 is a list of 8 values, expected 9"),
            (2, "malformed", "row 9 is null, expected a list of 9 values"),
            (
                3,
                "malformed",
                "found a list of 8 values, expected 81 cells or 9 lists of 9"
            ),
        ]
    );
}

#[test]
fn r4_27_grids_come_back_in_their_own_alphabet() {
    let got = rows_of(&[&case("r4-27-grid4.txt"), "--format", "grid"], 0);
    assert_eq!(got[0].puzzle, "..42.....1...2.3");
    assert_solved(&got[0], "1234", 2, 2);
    let got = rows_of(
        &[
            &case("r4-19a-grid6.txt"),
            "--format",
            "grid",
            "--blank",
            "0",
        ],
        0,
    );
    assert_eq!(got[0].puzzle, "400000006042000000521060000103100000");
    assert_solved(
        &Row {
            puzzle: got[0].puzzle.replace('0', "."),
            ..got[0].clone()
        },
        "123456",
        2,
        3,
    );
    // Grids of numbers (a comma between cells) stay numbers.
    let s = Scratch::new();
    let file = s.file("c.txt", b"2,1,0,0\n0,3,2,0\n0,0,0,4\n1,0,0,0\n");
    let got = rows_of(&[&file, "--format", "grid"], 0);
    assert_eq!(got[0].puzzle, "2,1,0,0,0,3,2,0,0,0,0,4,1,0,0,0");
    assert_solved(&got[0], "numbers", 2, 2);
}
