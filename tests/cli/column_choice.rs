//! The puzzle and solution columns chosen right whatever the values look
//! like (trial58 F0-1, F0-3, F1-1, F1-2, F1-3), by one rule in CSV, JSON
//! Lines and Parquet: a placeholder of a missing value (`NA`, `nan`,
//! `None`, ...) is empty for the choice and its row `malformed`; a
//! complete grid of any size and numbering is a solution, never the puzzle
//! column; a value that reads as a whole puzzle wins over a long id that
//! only looks like one; a column of complete grids beside the puzzle
//! column is its solution column in every order and format, and one that
//! disagrees with `--solutions` is a `mismatch`; a header that is not
//! UTF-8 (a cp1252 export) is a header, its names read with U+FFFD.
//! The column of the most puzzles is the puzzle column, not the first that
//! shows one (trial59 F1-7), and a run refused on its inputs (an unclear
//! or unknown column) leaves an existing results file as it was (trial59
//! F1-4), and creates none where there was none.

use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder};
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::*;

/// A string column.
fn strings(values: &[&str]) -> ArrayRef {
    Arc::new(StringArray::from(values.to_vec()))
}

/// A column of lists of integers.
fn int_lists(values: &[Vec<i64>]) -> ArrayRef {
    let mut lists = ListBuilder::new(Int64Builder::new());
    for list in values {
        lists.values().append_slice(list);
        lists.append(true);
    }
    Arc::new(lists.finish())
}

/// A solution grid of side `rows * cols` (boxes `rows` x `cols`), its
/// values numbered from 0, and a puzzle of it with one blank (`-1`) a row.
fn grid_from_zero(rows: usize, cols: usize) -> (Vec<i64>, Vec<i64>) {
    let n = rows * cols;
    let solution: Vec<i64> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((cols * (r % rows) + r / rows + c) % n) as i64
        })
        .collect();
    let mut puzzle = solution.clone();
    for r in 0..n {
        puzzle[r * n + (r * 5 + 1) % n] = -1;
    }
    (puzzle, solution)
}

/// Values from 0 (-1 blank) as one character a cell in `alphabet`, `.`
/// for a blank.
fn in_alphabet(values: &[i64], alphabet: &str) -> String {
    values
        .iter()
        .map(|&v| match usize::try_from(v) {
            Ok(v) => alphabet.as_bytes()[v] as char,
            Err(_) => '.',
        })
        .collect()
}

/// A JSON Lines file of one object a row, keys in the order given.
fn jsonl(rows: &[Vec<(&str, serde_json::Value)>]) -> Vec<u8> {
    let mut text = String::new();
    for row in rows {
        let fields: Vec<String> = row
            .iter()
            .map(|(key, value)| format!("{}:{value}", serde_json::json!(key)))
            .collect();
        text.push('{');
        text.push_str(&fields.join(","));
        text.push_str("}\n");
    }
    text.into_bytes()
}

#[test]
fn a_placeholder_of_a_missing_puzzle_is_empty_for_the_choice_and_its_row_malformed() {
    let scratch = Scratch::new();
    let pairs = kaggle(5);
    for missing in [
        "NA", "nan", "NaN", "None", "null", "NULL", "?", "-", "#N/A", "n/a", "x",
    ] {
        let puzzle = |i: usize| if i == 0 { missing } else { pairs[i].0.as_str() };
        let mut text = String::from("id,input,output\n");
        for (i, (_, s)) in pairs.iter().enumerate() {
            text.push_str(&format!("{i},{},{s}\n", puzzle(i)));
        }
        let csv = scratch.file("na.csv", text.as_bytes());
        let objects: Vec<Vec<(&str, serde_json::Value)>> = pairs
            .iter()
            .enumerate()
            .map(|(i, (_, s))| {
                vec![
                    ("id", serde_json::json!(i)),
                    ("input", serde_json::json!(puzzle(i))),
                    ("output", serde_json::json!(s)),
                ]
            })
            .collect();
        let json = scratch.file("na.jsonl", &jsonl(&objects));
        for (path, first) in [(&csv, 2), (&json, 1)] {
            let got = solve_rows(&[path, "-o", "-"], 1);
            let want: Vec<(u64, &str, &str)> = (0..5)
                .map(|i| match i {
                    0 => (first, "malformed", ""),
                    _ => (first + i, "solved", "ok"),
                })
                .collect();
            assert_eq!(row_checks(&got), want, "{missing:?} in {path}");
            assert!(
                got[0].message.contains("missing value"),
                "{missing:?} in {path}: {}",
                got[0].message
            );
            for (row, (p, _)) in got[1..].iter().zip(&pairs[1..]) {
                assert_eq!(row.puzzle.replace('.', "0"), *p, "{missing:?} in {path}");
            }
        }
        // Alone beside a complete grid, as an empty puzzle is: unclear.
        let alone = scratch.file(
            "alone.csv",
            format!("id,input,output\n0,{missing},{}\n", pairs[0].1).as_bytes(),
        );
        let output = solve(&[&alone, "-o", "-"]);
        assert_eq!(code(&output), 2, "{missing:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("--column"), "{}", stderr(&output));
    }
}

/// Runs `solve PATH -o -` (exit 0) and asserts that each of its `count`
/// rows (grids of any size, not checked as 9x9 rows are) solved its
/// puzzle and found the given solution: the column of complete grids was
/// the solution.
fn all_checked(path: &str, count: usize, what: &str) {
    let rows = rows(&solve_stdout(&[path, "-o", "-"], 0));
    assert_eq!(rows.len(), count, "{what}");
    for row in &rows {
        assert_eq!(
            (row.status.as_str(), row.check.as_str()),
            ("solved", "ok"),
            "{what}, line {}: {}",
            row.line,
            row.message
        );
        assert_ne!(row.puzzle, row.solution, "{what}: the solution was solved");
    }
}

#[test]
fn a_complete_grid_of_any_size_and_numbering_is_the_solution_not_the_puzzle() {
    let scratch = Scratch::new();
    let four = grid_from_zero(2, 2);
    let sixteen = grid_from_zero(4, 4);
    for (label, (puzzle, solution), alphabet) in [
        ("4x4", &four, "1234"),
        ("16x16 1-9A-G", &sixteen, "123456789ABCDEFG"),
    ] {
        let (p, s) = (
            in_alphabet(puzzle, alphabet),
            in_alphabet(solution, alphabet),
        );
        let csv = scratch.file(
            "tb.csv",
            format!("target,board\n{s},{p}\n{s},{p}\n").as_bytes(),
        );
        let objects = vec![vec![
            ("target", serde_json::json!(s)),
            ("board", serde_json::json!(p)),
        ]];
        let json = scratch.file("tb.jsonl", &jsonl(&objects));
        let pq = scratch.parquet(
            "tb.parquet",
            vec![("target", strings(&[&s])), ("board", strings(&[&p]))],
        );
        all_checked(&csv, 2, &format!("{label} CSV"));
        all_checked(&json, 1, &format!("{label} JSON Lines"));
        all_checked(&pq, 1, &format!("{label} Parquet"));
    }
    // A 9x9 numbered from 0: its solution holds 0-8, its puzzle -1 blanks.
    let (puzzle, solution) = grid_from_zero(3, 3);
    let nested = |cells: &[i64]| serde_json::json!(cells.chunks(9).collect::<Vec<_>>());
    let flat = vec![
        ("target", serde_json::json!(solution)),
        ("board", serde_json::json!(puzzle)),
    ];
    let deep = vec![("target", nested(&solution)), ("board", nested(&puzzle))];
    let json = scratch.file("zero.jsonl", &jsonl(&[flat, deep]));
    all_checked(&json, 2, "0-based 9x9 JSON Lines");
    let pq = scratch.parquet(
        "zero.parquet",
        vec![
            ("target", int_lists(std::slice::from_ref(&solution))),
            ("board", int_lists(std::slice::from_ref(&puzzle))),
        ],
    );
    all_checked(&pq, 1, "0-based 9x9 Parquet");
}

#[test]
fn a_long_digit_id_before_the_puzzle_column_is_not_the_puzzle() {
    let scratch = Scratch::new();
    let pairs = kaggle(4);
    let id = |i: usize| format!("12345678901234567{i}");
    let mut text = String::from("id,board\n");
    for (i, (p, _)) in pairs.iter().enumerate() {
        text.push_str(&format!("{},{p}\n", id(i)));
    }
    let csv = scratch.file("ids.csv", text.as_bytes());
    let objects: Vec<Vec<(&str, serde_json::Value)>> = pairs
        .iter()
        .enumerate()
        .map(|(i, (p, _))| {
            vec![
                ("id", serde_json::json!(id(i))),
                ("board", serde_json::json!(p)),
            ]
        })
        .collect();
    let json = scratch.file("ids.jsonl", &jsonl(&objects));
    let ids: Vec<String> = (0..4).map(id).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let boards: Vec<&str> = pairs.iter().map(|(p, _)| p.as_str()).collect();
    let pq = scratch.parquet(
        "ids.parquet",
        vec![("id", strings(&ids)), ("board", strings(&boards))],
    );
    for path in [&csv, &json, &pq] {
        let got = solve_rows(&[path, "-o", "-"], 0);
        assert_eq!(got.len(), 4, "{path}");
        for (row, (p, s)) in got.iter().zip(&pairs) {
            assert_eq!(row.status, "solved", "{path}: {}", row.message);
            assert_eq!(row.puzzle.replace('.', "0"), *p, "{path}");
            assert_eq!(row.solution, *s, "{path}");
        }
    }
}

#[test]
fn an_unnamed_solution_column_is_checked_in_every_order_and_format() {
    let scratch = Scratch::new();
    let mut pairs = kaggle(3);
    // Row 2's given solution is wrong in its first cell.
    let wrong = if pairs[1].1.starts_with('1') {
        '2'
    } else {
        '1'
    };
    pairs[1].1.replace_range(0..1, &wrong.to_string());
    let want = |first: u64| {
        vec![
            (first, "solved", "ok"),
            (first + 1, "solved", "mismatch"),
            (first + 2, "solved", "ok"),
        ]
    };
    for names in [
        ["id", "board", "target"],
        ["id", "target", "board"],
        ["id", "puzzle", "target"],
        ["id", "target", "puzzle"],
    ] {
        let value = |name: &str, i: usize| match name {
            "id" => i.to_string(),
            "target" => pairs[i].1.clone(),
            _ => pairs[i].0.clone(),
        };
        let mut text = format!("{}\n", names.join(","));
        for i in 0..3 {
            let fields: Vec<String> = names.iter().map(|n| value(n, i)).collect();
            text.push_str(&format!("{}\n", fields.join(",")));
        }
        let csv = scratch.file("sol.csv", text.as_bytes());
        let objects: Vec<Vec<(&str, serde_json::Value)>> = (0..3)
            .map(|i| {
                names
                    .iter()
                    .map(|&n| (n, serde_json::json!(value(n, i))))
                    .collect()
            })
            .collect();
        let json = scratch.file("sol.jsonl", &jsonl(&objects));
        let columns: Vec<Vec<String>> = names
            .iter()
            .map(|n| (0..3).map(|i| value(n, i)).collect())
            .collect();
        let columns: Vec<(&str, ArrayRef)> = names
            .iter()
            .zip(&columns)
            .map(|(&n, values)| {
                let values: Vec<&str> = values.iter().map(String::as_str).collect();
                (n, strings(&values))
            })
            .collect();
        let pq = scratch.parquet("sol.parquet", columns);
        for (path, first) in [(&csv, 2), (&json, 1), (&pq, 1)] {
            let got = solve_rows(&[path, "-o", "-"], 1);
            assert_eq!(row_checks(&got), want(first), "{names:?} in {path}");
            assert!(
                got[1].message.starts_with("r1c1: given"),
                "{names:?} in {path}: {}",
                got[1].message
            );
        }
    }
}

#[test]
fn a_solution_column_that_disagrees_with_the_solutions_file_is_a_mismatch() {
    let scratch = Scratch::new();
    let pairs = kaggle(3);
    let mut column = pairs.clone();
    let wrong = if column[1].1.starts_with('1') {
        '2'
    } else {
        '1'
    };
    column[1].1.replace_range(0..1, &wrong.to_string());
    let mut text = String::from("puzzle,solution\n");
    for (p, s) in &column {
        text.push_str(&format!("{p},{s}\n"));
    }
    let csv = scratch.file("both.csv", text.as_bytes());
    let file: String = pairs.iter().map(|(_, s)| format!("{s}\n")).collect();
    let right = scratch.file("solutions.txt", file.as_bytes());
    let got = solve_rows(&[&csv, "--solutions", &right, "-o", "-"], 1);
    assert_eq!(
        row_checks(&got),
        vec![
            (2, "solved", "ok"),
            (3, "solved", "mismatch"),
            (4, "solved", "ok")
        ]
    );
    assert!(
        got[1].message.contains("--solutions") && got[1].message.contains("r1c1"),
        "{}",
        got[1].message
    );
    // Where they agree, the row is checked once.
    let agree = scratch.file(
        "agree.csv",
        format!("puzzle,solution\n{},{}\n", pairs[0].0, pairs[0].1).as_bytes(),
    );
    let first = scratch.file("first.txt", format!("{}\n", pairs[0].1).as_bytes());
    let got = solve_rows(&[&agree, "--solutions", &first, "-o", "-"], 0);
    assert_eq!(row_checks(&got), vec![(2, "solved", "ok")]);
}

#[test]
fn a_header_that_is_not_utf8_is_a_header() {
    let scratch = Scratch::new();
    let pairs = kaggle(3);
    // cp1252: ö 0xF6, ß 0xDF, ä 0xE4.
    let mut comma = b"Gr\xf6\xdfe,puzzle,solution\r\n".to_vec();
    let mut semicolon = b"R\xe4tsel;L\xf6sung;Notiz\r\n".to_vec();
    for (i, (p, s)) in pairs.iter().enumerate() {
        comma.extend_from_slice(format!("{i},{p},{s}\r\n").as_bytes());
        semicolon.extend_from_slice(format!("{p};{s};note {i}\r\n").as_bytes());
    }
    let comma = scratch.file("cpw.csv", &comma);
    let semicolon = scratch.file("cpw_semicolon.csv", &semicolon);
    let want = vec![
        (2, "solved", "ok"),
        (3, "solved", "ok"),
        (4, "solved", "ok"),
    ];
    assert_eq!(row_checks(&solve_rows(&[&comma, "-o", "-"], 0)), want);
    assert_eq!(
        row_checks(&solve_rows(&[&comma, "--column", "puzzle", "-o", "-"], 0)),
        want
    );
    assert_eq!(row_checks(&solve_rows(&[&semicolon, "-o", "-"], 0)), want);
    // The kept column found by its name; the names written with U+FFFD
    // for their bytes that are not UTF-8.
    let out = scratch.path("kept.csv");
    let output = solve(&[&semicolon, "--keep", "Notiz", "-o", &out]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let written = std::fs::read(&out).expect("results");
    assert!(written.starts_with(b"line,"), "{written:?}");
    assert!(String::from_utf8_lossy(&written).contains(",note 2"));
    let output = solve(&[&semicolon, "--keep-all", "-o", &out]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let written = std::fs::read(&out).expect("results");
    let header = written.split(|&b| b == b'\n').next().unwrap_or_default();
    assert!(
        header.ends_with("R\u{FFFD}tsel,L\u{FFFD}sung,Notiz".as_bytes()),
        "{}",
        String::from_utf8_lossy(header)
    );
}

#[test]
fn one_puzzle_in_a_mostly_empty_column_does_not_outweigh_a_column_of_puzzles() {
    let scratch = Scratch::new();
    let pairs = kaggle(40);
    // `original` holds one puzzle (record 10), `board` all but one (record
    // 20, where both are empty: a malformed row that says so).
    let original = |i: usize| if i == 10 { pairs[39].0.as_str() } else { "" };
    let board = |i: usize| if i == 20 { "" } else { pairs[i].0.as_str() };
    let mut text = String::from("id,original,board\n");
    for i in 0..pairs.len() {
        text.push_str(&format!("{i},{},{}\n", original(i), board(i)));
    }
    let csv = scratch.file("sparse.csv", text.as_bytes());
    let objects: Vec<Vec<(&str, serde_json::Value)>> = (0..pairs.len())
        .map(|i| {
            vec![
                ("id", serde_json::json!(i)),
                ("original", serde_json::json!(original(i))),
                ("board", serde_json::json!(board(i))),
            ]
        })
        .collect();
    let json = scratch.file("sparse.jsonl", &jsonl(&objects));
    let ids: Vec<String> = (0..pairs.len()).map(|i| i.to_string()).collect();
    let originals: Vec<&str> = (0..pairs.len()).map(original).collect();
    let boards: Vec<&str> = (0..pairs.len()).map(board).collect();
    let parquet = scratch.parquet(
        "sparse.parquet",
        vec![
            (
                "id",
                strings(&ids.iter().map(String::as_str).collect::<Vec<_>>()),
            ),
            ("original", strings(&originals)),
            ("board", strings(&boards)),
        ],
    );
    for (path, first) in [(&csv, 2), (&json, 1), (&parquet, 1)] {
        let got = solve_rows(&[path, "-o", "-"], 1);
        assert_eq!(got.len(), pairs.len(), "{path}");
        for (i, row) in got.iter().enumerate() {
            assert_eq!(row.line, first + i as u64, "{path}");
            if i == 20 {
                assert_eq!(row.status, "malformed", "{path}");
                assert_eq!(row.message, "empty field, expected 81 cells", "{path}");
            } else {
                assert_eq!(
                    (row.status.as_str(), row.message.as_str()),
                    ("solved", ""),
                    "{path}"
                );
                assert_eq!(
                    row.puzzle.replace('.', "0"),
                    pairs[i].0,
                    "{path}, record {i}"
                );
            }
        }
    }
}

#[test]
fn a_run_refused_on_its_inputs_leaves_the_results_file_as_it_was_or_none() {
    let scratch = Scratch::new();
    let pairs = kaggle(5);
    // Complete grids beside an empty column: which holds the puzzles is
    // unclear, found on the records read ahead.
    let mut text = String::from("id,sudoku,note\n");
    for (i, (_, s)) in pairs.iter().enumerate() {
        text.push_str(&format!("{i},{s},\n"));
    }
    let csv = scratch.file("grids.csv", text.as_bytes());
    let objects: Vec<Vec<(&str, serde_json::Value)>> = pairs
        .iter()
        .enumerate()
        .map(|(i, (_, s))| {
            vec![
                ("id", serde_json::json!(i)),
                ("sudoku", serde_json::json!(s)),
                ("note", serde_json::json!("")),
            ]
        })
        .collect();
    let json = scratch.file("grids.jsonl", &jsonl(&objects));
    let headerless = scratch.file("plain.csv", format!("{}\n", pairs[0].0).as_bytes());
    let damaged = scratch.file("damaged.csv.gz", b"not gzip at all\n");
    let known = b"yesterday's results\n";
    // Each results format, tab-separated CSV among them.
    let outputs: [(&str, &[&str]); 6] = [
        ("old.csv", &[]),
        ("old.txt", &["--output-delimiter", "tab"]),
        ("old.jsonl", &[]),
        ("old.parquet", &[]),
        ("old.csv.gz", &[]),
        ("old.jsonl.zst", &[]),
    ];
    let refused: [(&str, &[&str]); 7] = [
        (&csv, &[]),
        (&json, &[]),
        (&csv, &["--column", "nosuch"]),
        (&json, &["--column", "nosuch"]),
        (&headerless, &["--column", "board"]),
        (&csv, &["--column", "sudoku", "--keep", "nosuch"]),
        (&damaged, &[]),
    ];
    for (input, flags) in refused {
        for command in ["solve", "check", "rate"] {
            for (name, format) in outputs {
                // An existing file keeps its bytes; a missing one (also
                // with --resume, which then has nothing to continue) is
                // not created.
                for existing in [true, false] {
                    let path = scratch.path(name);
                    let _ = std::fs::remove_file(&path);
                    if existing {
                        scratch.file(name, known);
                    }
                    let mut args = vec![input, "-o", path.as_str()];
                    args.extend(flags);
                    args.extend(format);
                    if !existing && input == csv && flags.is_empty() {
                        args.push("--resume");
                    }
                    let output = run_subcommand(command, &args);
                    let what = format!("{command} {args:?}");
                    assert_eq!(code(&output), 2, "{what}: {}", stderr(&output));
                    match existing {
                        true => assert_eq!(std::fs::read(&path).expect("there"), known, "{what}"),
                        false => assert!(!std::path::Path::new(&path).exists(), "{what}"),
                    }
                }
            }
        }
    }
    // Nothing left beside them; a run that gets to its rows creates or
    // replaces them, and one of no rows writes the table's start (a CSV
    // header) all the same.
    let given = scratch.file("given.csv", format!("puzzle\n{}\n", pairs[0].0).as_bytes());
    for (name, format) in outputs {
        let path = scratch.path(name);
        let mut args = vec![given.as_str(), "-o", &path];
        args.extend(format);
        let output = run_subcommand("solve", &args);
        assert_eq!(code(&output), 0, "{name}: {}", stderr(&output));
        assert_ne!(std::fs::read(&path).expect("written"), known, "{name}");
    }
    let empty = scratch.file("empty.csv", b"puzzle\n");
    let new = scratch.path("new.csv");
    let output = run_subcommand("solve", &[&empty, "-o", &new]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(&new).expect("created"),
        "line,puzzle,status,solution,guesses,solve_us,check,message\n"
    );
    assert_eq!(dot_files(&scratch), Vec::<String>::new());
}

/// The names starting with a dot in `scratch`, sorted: a results file's
/// temporary twin left behind.
fn dot_files(scratch: &Scratch) -> Vec<String> {
    let mut left: Vec<String> = std::fs::read_dir(scratch.path(""))
        .expect("the scratch directory")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.starts_with('.'))
        .collect();
    left.sort();
    left
}

/// The text of a results file of any format, its timings emptied (of
/// Parquet, its record batches without `solve_us`, as Debug prints them).
fn untimed(path: &str) -> String {
    if path.ends_with(".parquet") {
        let file = std::fs::File::open(path).expect("written");
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .expect("a valid Parquet footer")
            .build()
            .expect("a reader");
        let batches: Vec<RecordBatch> = reader
            .map(|batch| {
                let mut batch = batch.expect("a readable row group");
                let timing = batch.schema().index_of("solve_us").expect("solve_us");
                batch.remove_column(timing);
                batch
            })
            .collect();
        return format!("{batches:?}");
    }
    let text = match path.ends_with(".zst") {
        true => {
            let bytes = std::fs::read(path).expect("written");
            String::from_utf8(zstd::decode_all(&bytes[..]).expect("valid zstd")).expect("UTF-8")
        }
        false => read_output(path),
    };
    match path.contains(".csv") {
        // Tab-separated: no field holds a comma.
        true => without_timing(&text.replace('\t', ",")),
        false => without_json_timing(&text),
    }
}

#[test]
fn a_refused_run_leaves_a_file_with_no_room_beside_it_as_it_was() {
    // Where its temporary name cannot be made beside an existing results
    // file (a directory the user cannot write: trial60 F1-8; here, as root
    // too, a name too long for `.NAME.results-PID.partial`), the table
    // waits elsewhere and the file is cut only at the first row: a text
    // table, and Parquet's.
    let scratch = Scratch::new();
    let pairs = kaggle(2);
    let mut text = String::from("id,sudoku,note\n");
    for (i, (_, s)) in pairs.iter().enumerate() {
        text.push_str(&format!("{i},{s},\n"));
    }
    let unclear = scratch.file("grids.csv", text.as_bytes());
    let given = scratch.file(
        "given.csv",
        format!("puzzle\n{}\n{}\n", pairs[0].0, pairs[1].0).as_bytes(),
    );
    let empty = scratch.file("empty.csv", b"puzzle\n");
    let known = b"yesterday's results\n";
    let long = "r".repeat(236);
    let outputs: [(&str, &[&str]); 6] = [
        ("csv", &[]),
        ("txt.csv", &["--output-delimiter", "tab"]),
        ("jsonl", &[]),
        ("csv.gz", &[]),
        ("jsonl.zst", &[]),
        ("parquet", &[]),
    ];
    for (extension, format) in outputs {
        let path = scratch.path(&format!("{long}.{extension}"));
        let short = scratch.path(&format!("short.{extension}"));
        for command in ["solve", "check", "rate"] {
            scratch.file(&format!("{long}.{extension}"), known);
            let mut args = vec![unclear.as_str(), "-o", path.as_str()];
            args.extend(format);
            let output = run_subcommand(command, &args);
            let what = format!("{command} {extension} {format:?}");
            assert_eq!(code(&output), 2, "{what}: {}", stderr(&output));
            assert_eq!(std::fs::read(&path).expect("there"), known, "{what}");
        }
        // A run that gets to its rows writes the same table as into a
        // file with room beside it; one of no rows, the table's start.
        for (input, rows) in [(&given, 2), (&empty, 0)] {
            scratch.file(&format!("{long}.{extension}"), known);
            for out in [&path, &short] {
                let mut args = vec![input.as_str(), "-o", out.as_str()];
                args.extend(format);
                let output = run_subcommand("solve", &args);
                assert_eq!(code(&output), 0, "{extension}: {}", stderr(&output));
            }
            let written = untimed(&path);
            assert_eq!(written, untimed(&short), "{extension}, {rows} rows");
            assert_eq!(written.matches("solved").count(), rows, "{extension}");
        }
    }
    assert_eq!(dot_files(&scratch), Vec::<String>::new());
}
