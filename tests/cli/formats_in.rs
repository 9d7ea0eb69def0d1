//! Data people's input formats through the real binary: Parquet written
//! here with the arrow-rs writer (a puzzle as a string, a list of 81
//! integers, or 9 lists of 9), JSON Lines, zstd-compressed CSV, `;`-separated
//! CSV, and the samples shipped in data/.

use std::fs::File;
use std::sync::Arc;

use crate::common::*;
use arrow_array::builder::{Int64Builder, ListBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, Int64Type, Int8Type};
use arrow_array::{
    Array, ArrayRef, BooleanArray, DictionaryArray, Float64Array, Int64Array, ListArray,
    RecordBatch, StringArray,
};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;

const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
const S: &str = "316452978285679314497318562879234156142965783653187249968721435521843697734596821";
const Q: &str = "000007004000006003860200000509082000640000080000000700000000042010030000703000009";

/// Writes `columns` as a Parquet file of row groups of `group_rows` rows.
fn parquet(
    scratch: &Scratch,
    name: &str,
    columns: Vec<(&str, ArrayRef)>,
    group_rows: usize,
) -> String {
    let path = scratch.path(name);
    let batch = RecordBatch::try_from_iter(columns).expect("columns of one length");
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group_rows))
        .build();
    let mut writer = ArrowWriter::try_new(
        File::create(&path).expect("writable scratch"),
        batch.schema(),
        Some(props),
    )
    .expect("a Parquet writer");
    writer.write(&batch).expect("written");
    writer.close().expect("closed");
    path
}

/// A puzzle as 81 integers, 0 blank.
fn ints(p: &str) -> Vec<i64> {
    p.bytes().map(|b| i64::from(b - b'0')).collect()
}

fn run(args: &[&str], code: i32) -> Vec<Row> {
    let rows = solve_rows(args, code);
    check_rows(&rows);
    rows
}

fn status_messages(rows: &[Row]) -> Vec<(u64, &str, &str, &str)> {
    rows.iter()
        .map(|r| {
            (
                r.line,
                r.status.as_str(),
                r.check.as_str(),
                r.message.as_str(),
            )
        })
        .collect()
}

#[test]
fn parquet_string_puzzles_with_extra_columns_and_malformed_values() {
    let scratch = Scratch::new();
    let short = &P[..80];
    let path = parquet(
        &scratch,
        "ritvik.parquet",
        vec![
            (
                "id",
                Arc::new(Int64Array::from(vec![1, 2, 3, 4, 5])) as ArrayRef,
            ),
            (
                "Puzzle",
                Arc::new(StringArray::from(vec![
                    Some(P),
                    Some(Q),
                    Some(short),
                    None,
                    Some(&P.replace('0', ".")),
                ])),
            ),
            (
                "solution",
                Arc::new(StringArray::from(vec![
                    Some(S),
                    None,
                    None,
                    None,
                    Some(&S[..80]),
                ])),
            ),
            (
                "difficulty",
                Arc::new(Float64Array::from(vec![1.5, 2.0, 0.0, 3.0, 4.0])),
            ),
        ],
        2,
    );
    let rows = run(&[&path], 1);
    assert_eq!(
        status_messages(&rows),
        vec![
            (1, "solved", "ok", ""),
            (2, "solved", "", ""),
            (3, "malformed", "", "80 cells, expected 81"),
            (
                4,
                "malformed",
                "",
                "found null, expected 81 cells or 9 lists of 9"
            ),
            (
                5,
                "solved",
                "mismatch",
                "given solution is not a grid: 80 cells, expected 81"
            ),
        ]
    );
    assert_eq!(rows[0].solution, S);
    // By number, and named in a different case.
    let by_number = run(&[&path, "--column", "2"], 1);
    assert_eq!(by_number[0].solution, S);
    let unknown = solve(&[&path, "--column", "quizzes"]);
    assert_eq!(code(&unknown), 2);
    assert!(
        stderr(&unknown)
            .contains("no column named 'quizzes' (the header is id,Puzzle,solution,difficulty)"),
        "{}",
        stderr(&unknown)
    );
}

#[test]
fn a_column_name_on_text_lines_without_a_header_says_to_give_a_number() {
    let unknown = solve(&[&repo("data/top95.txt"), "--column", "nope"]);
    assert_eq!(code(&unknown), 2);
    let message = stderr(&unknown);
    assert!(
        message.contains("top95.txt: no column named 'nope': no header line"),
        "{message}"
    );
    assert!(
        message.contains("give the field's 1-based number"),
        "{message}"
    );
}

#[test]
fn parquet_lists_of_81_integers_and_9_by_9() {
    let scratch = Scratch::new();
    let mut bad = ints(P);
    bad[4] = 12;
    let flat: Vec<Option<Vec<Option<i8>>>> = [ints(P), ints(Q), bad, ints(&P[..80])]
        .iter()
        .map(|v| Some(v.iter().map(|&x| Some(x as i8)).collect()))
        .collect();
    let flat = ListArray::from_iter_primitive::<Int8Type, _, _>(flat);
    let level = StringArray::from(vec!["easy", "hard", "bad", "short"]);
    let path = parquet(
        &scratch,
        "flat.parquet",
        vec![
            ("level", Arc::new(level) as ArrayRef),
            ("cells", Arc::new(flat)),
        ],
        3,
    );
    let rows = run(&[&path], 1);
    assert_eq!(
        status_messages(&rows),
        vec![
            (1, "solved", "", ""),
            (2, "solved", "", ""),
            (3, "malformed", "", "item 5 is 12, expected 0-9"),
            (
                4,
                "malformed",
                "",
                "found a list of 80 values, expected 81 cells or 9 lists of 9"
            ),
        ]
    );
    assert_eq!(rows[0].solution, S);

    // 9 lists of 9, with the solution the same way; `grid` names the column.
    let nested = |grids: &[Vec<i64>]| {
        let mut builder = ListBuilder::new(ListBuilder::new(Int64Builder::new()));
        for grid in grids {
            for row in grid.chunks(9) {
                builder.values().values().append_slice(row);
                builder.values().append(true);
            }
            builder.append(true);
        }
        Arc::new(builder.finish()) as ArrayRef
    };
    let mut eight_rows = ints(Q);
    eight_rows.truncate(72);
    let grids = nested(&[ints(P), ints(Q), eight_rows]);
    let solutions = nested(&[ints(S), ints(P), ints(S)]);
    let path = parquet(
        &scratch,
        "nested.parquet",
        vec![
            ("id", Arc::new(Int64Array::from(vec![7, 8, 9])) as ArrayRef),
            ("grid", grids),
            ("solution", solutions),
        ],
        1000,
    );
    let rows = run(&[&path], 1);
    assert_eq!(
        status_messages(&rows),
        vec![
            (1, "solved", "ok", ""),
            (
                2,
                "solved",
                "mismatch",
                "given solution is not a grid: it has blanks"
            ),
            (
                3,
                "malformed",
                "",
                "found a list of 8 values, expected 81 cells or 9 lists of 9"
            ),
        ]
    );
    assert_eq!(rows[0].puzzle, P.replace('0', "."));
}

#[test]
fn parquet_on_stdin_is_spooled_and_a_broken_file_is_refused() {
    let scratch = Scratch::new();
    let path = parquet(
        &scratch,
        "p.parquet",
        vec![("q", Arc::new(StringArray::from(vec![P, Q])) as ArrayRef)],
        1,
    );
    let bytes = std::fs::read(&path).expect("written");
    let out = solve_stdin(&[], &bytes);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = rows(&stdout(&out));
    assert_eq!(statuses(&got), vec![(1, "solved"), (2, "solved")]);
    // Named `.txt` but Parquet by content.
    let renamed = scratch.file("p.txt", &bytes);
    assert_eq!(
        statuses(&run(&[&renamed], 0)),
        vec![(1, "solved"), (2, "solved")]
    );
    let cut = scratch.file("cut.parquet", &bytes[..bytes.len() / 2]);
    let out = solve(&[&cut]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("cut.parquet: Parquet:"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn json_lines_objects_by_name_and_content() {
    let scratch = Scratch::new();
    let cells: Vec<String> = ints(Q).iter().map(i64::to_string).collect();
    let text = format!(
        "{{\"id\":1,\"quiz\":\"{P}\",\"answer\":\"{S}\",\"level\":\"easy\"}}\r\n\
         \n\
         {{\"id\":2,\"quiz\":[{}],\"level\":\"hard\"}}\n\
         {{\"id\":3,\"quiz\":\n\
         {{\"id\":4,\"quiz\":{{\"a\":1}}}}\n",
        cells.join(",")
    );
    let path = scratch.file("p.ndjson", text.as_bytes());
    let got = run(&[&path], 1);
    let want = vec![
        (1, "solved", "ok", ""),
        (3, "solved", "", ""),
        (
            4,
            "malformed",
            "",
            "not valid JSON: EOF while parsing a value at line 1 column 15",
        ),
        (
            5,
            "malformed",
            "",
            "found an object, expected 81 cells or 9 lists of 9",
        ),
    ];
    assert_eq!(status_messages(&got), want);
    // On stdin, known by its first byte; zstd-compressed, by its name.
    let out = solve_stdin(&[], text.as_bytes());
    assert_eq!(status_messages(&rows(&stdout(&out))), want);
    let zst = scratch.file(
        "p.jsonl.zst",
        &zstd::encode_all(text.as_bytes(), 3).expect("in memory"),
    );
    assert_eq!(status_messages(&run(&[&zst], 1)), want);
}

#[test]
fn zstd_csv_by_name_and_by_content() {
    let scratch = Scratch::new();
    let text = format!("id,puzzle,solution\n1,{P},{S}\n2,{Q},\n");
    let compressed = zstd::encode_all(text.as_bytes(), 3).expect("in memory");
    // Two frames, as a concatenation of compressed files gives.
    let mut two = compressed.clone();
    two.extend(zstd::encode_all(format!("3,{P},{S}\n").as_bytes(), 1).expect("in memory"));
    let by_name = scratch.file("p.csv.zst", &two);
    let rows = run(&[&by_name], 0);
    assert_eq!(
        status_messages(&rows),
        vec![
            (2, "solved", "ok", ""),
            (3, "solved", "", ""),
            (4, "solved", "ok", "")
        ]
    );
    let by_content = scratch.file("p.bin", &compressed);
    let rows = run(&[&by_content, "--format", "csv"], 0);
    assert_eq!(statuses(&rows), vec![(2, "solved"), (3, "solved")]);
}

#[test]
fn csv_delimiters_auto_and_named() {
    let scratch = Scratch::new();
    for (sep, name) in [(";", "semi"), ("\t", "tab"), ("|", "pipe")] {
        let text = format!("quizzes{sep}solutions\r\n{P}{sep}{S}\r\n\"{Q}\"{sep}\r\n");
        let path = scratch.file(&format!("{name}.csv"), text.as_bytes());
        let rows = run(&[&path], 0);
        assert_eq!(
            status_messages(&rows),
            vec![(2, "solved", "ok", ""), (3, "solved", "", "")],
            "{name}"
        );
    }
    // Named: `;` inside a field of a `|` file is text.
    let text = format!("note|puzzle\na;b|{P}\n");
    let path = scratch.file("named.csv", text.as_bytes());
    assert_eq!(
        statuses(&run(&[&path, "--delimiter", "|"], 0)),
        vec![(2, "solved")]
    );
    let out = solve(&[&path, "--delimiter", "ab"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn shipped_samples_solve_and_check() {
    for (file, records) in [
        ("data/ritvik_style_5000.parquet", 5000),
        ("data/nested_grid_1000.parquet", 1000),
        ("data/flat_list_1000.parquet", 1000),
        ("data/puzzles_200.jsonl", 200),
        ("data/semicolon_excel_200.csv", 200),
        ("data/sudoku_extreme_style_500.csv", 500),
    ] {
        let path = repo(file);
        let rows = run(&[&path, "--first"], 0);
        assert_eq!(rows.len(), records, "{file}");
        assert!(rows.iter().all(|r| r.status == "solved"), "{file}");
        let checked = rows.iter().filter(|r| r.check == "ok").count();
        let expected = if file.contains("flat_list") {
            0
        } else {
            records
        };
        assert_eq!(checked, expected, "{file}");
    }
}

#[test]
fn check_and_bench_read_the_same_inputs() {
    let path = repo("data/nested_grid_1000.parquet");
    let out = bin()
        .args(["check", &path, "--quiet", "--first", "-o", "-"])
        .output()
        .expect("runs");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(rows(&stdout(&out)).len(), 1000);
    let jsonl = repo("data/puzzles_200.jsonl");
    let out = bin()
        .args(["bench", &jsonl, "--solver", "fast", "--threads", "1"])
        .args(["--warmup-s", "0.05", "--time-s", "0.1", "--runs", "1"])
        .args(["--export-json", "-", "--quiet"])
        .output()
        .expect("runs");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["results"][0]["puzzles"], 200, "{json}");
}

/// Reads a Parquet results file back: its batches joined into one.
fn read_back(path: &str) -> RecordBatch {
    let file = File::open(path).expect("the output exists");
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("valid Parquet")
        .build()
        .expect("a reader");
    let mut batches: Vec<RecordBatch> = reader.map(|b| b.expect("a batch")).collect();
    assert_eq!(batches.len(), 1, "a small file reads as one batch");
    batches.remove(0)
}

#[test]
fn kept_parquet_columns_keep_their_types_in_parquet_output() {
    let scratch = Scratch::new();
    let input = parquet(
        &scratch,
        "in.parquet",
        vec![
            (
                "id",
                Arc::new(Int64Array::from(vec![10, 20, 30])) as ArrayRef,
            ),
            ("puzzle", Arc::new(StringArray::from(vec![P, &P[..80], Q]))),
            (
                "rating",
                Arc::new(Float64Array::from(vec![Some(1.5), None, Some(3.25)])),
            ),
            (
                "status",
                Arc::new(StringArray::from(vec!["solved", "malformed", "solved"])),
            ),
            (
                "flag",
                Arc::new(BooleanArray::from(vec![true, false, true])),
            ),
        ],
        2,
    );
    let out = scratch.path("out.parquet");
    let output = solve(&[&input, "-o", &out, "--keep", "ID,rating,4,flag"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let batch = read_back(&out);
    assert_eq!(batch.num_rows(), 3);
    let schema = batch.schema();
    let kind = |name: &str| {
        schema
            .field_with_name(name)
            .expect(name)
            .data_type()
            .clone()
    };
    assert_eq!(kind("id"), DataType::Int64);
    assert_eq!(kind("rating"), DataType::Float64);
    assert_eq!(kind("input_status"), DataType::Utf8);
    assert_eq!(kind("flag"), DataType::Boolean);
    let column = |name: &str| batch.column_by_name(name).expect(name).clone();
    let status = column("status");
    let status = status.as_string::<i32>();
    assert_eq!(
        (0..3).map(|i| status.value(i)).collect::<Vec<_>>(),
        ["solved", "malformed", "solved"]
    );
    let id = column("id");
    assert_eq!(id.as_primitive::<Int64Type>().values(), &[10, 20, 30]);
    let rating = column("rating");
    let rating = rating.as_primitive::<Float64Type>();
    assert_eq!((rating.value(0), rating.is_null(1)), (1.5, true));
    let input_status = column("input_status");
    assert_eq!(input_status.as_string::<i32>().value(1), "malformed");
    assert!(!column("flag").as_boolean().value(1));
    // Asked for a column the input lacks: exit 2 before any output.
    let missing = solve(&[
        &input,
        "-o",
        &scratch.path("none.parquet"),
        "--keep",
        "source",
    ]);
    assert_eq!(code(&missing), 2);
    assert!(stderr(&missing).contains("no column named 'source'"));
    assert!(!std::path::Path::new(&scratch.path("none.parquet")).exists());
}

#[test]
fn kept_json_keys_csv_columns_and_line_fields() {
    let scratch = Scratch::new();
    let text = format!(
        "{{\"id\":1,\"puzzle\":\"{P}\",\"score\":2.5,\"tags\":[\"a\"]}}\n\
         {{\"id\":2,\"puzzle\":\"x\"}}\n\
         not json\n"
    );
    let path = scratch.file("p.jsonl", text.as_bytes());
    let out = solve(&[&path, "--keep-all", "-o", "-"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let csv = stdout(&out);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].ends_with("message,id,input_puzzle,score,tags"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with(&format!(",1,{P},2.5,\"[\"\"a\"\"]\"")),
        "{}",
        lines[1]
    );
    assert!(lines[2].ends_with(",2,x,,"), "{}", lines[2]);
    assert!(lines[3].ends_with(",,,,"), "{}", lines[3]);
    // CSV by name and number; every row keeps its fields, malformed too.
    let text = format!(
        "source,question,answer,rating\nforum,{P},{S},142\nforum,{},,7\n",
        &P[..80]
    );
    let path = scratch.file("x.csv", text.as_bytes());
    let rows_text = stdout(&solve(&[&path, "--keep", "rating,1", "-o", "-"]));
    let lines: Vec<&str> = rows_text.lines().collect();
    assert!(lines[0].ends_with(",rating,source"), "{}", lines[0]);
    assert!(lines[1].ends_with(",142,forum"), "{}", lines[1]);
    assert!(lines[2].contains("malformed") && lines[2].ends_with(",7,forum"));
    // Text lines: fields named field1, field2, ... as the line rules split them.
    let path = scratch.file("l.txt", format!("7 {P} hard\n8 {Q} easy\n").as_bytes());
    let rows_text = stdout(&solve(&[&path, "--keep", "field1,3", "-o", "-"]));
    let lines: Vec<&str> = rows_text.lines().collect();
    assert!(lines[0].ends_with(",field1,field3"), "{}", lines[0]);
    assert!(lines[1].ends_with(",7,hard") && lines[2].ends_with(",8,easy"));
}

/// A CSV with a header read as text lines (from stdin, or a `.tsv` or
/// `.txt` file): `--keep NAME` finds the header's names, as `--column NAME`
/// does (it was refused: "the header is field1,field2,...", which was not
/// the header), `field1`, ... still count the fields, and `--keep-all`
/// names the columns by the header.
#[test]
fn keep_finds_a_header_s_names_on_text_lines_too() {
    let scratch = Scratch::new();
    let text = format!("source,question,answer,rating\nforum,{P},{S},142\nforum,{Q},,7\n");
    let out = solve_stdin(&["--keep", "rating,field1", "-o", "-"], text.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let csv = stdout(&out);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].ends_with(",message,rating,source"), "{}", lines[0]);
    assert!(lines[1].ends_with(",ok,,142,forum"), "{}", lines[1]);
    assert!(lines[2].ends_with(",7,forum"), "{}", lines[2]);
    let tsv = scratch.file("t.tsv", text.replace(',', "\t").as_bytes());
    let out = solve(&[&tsv, "--keep-all", "-o", "-"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let header = stdout(&out).lines().next().unwrap_or_default().to_string();
    assert!(
        header.ends_with(",message,source,question,answer,rating"),
        "{header}"
    );
    // Without a header line, a name is refused with how fields are named.
    let bare = format!("forum,{P},142\n");
    let out = solve_stdin(&["--keep", "rating", "-o", "-"], bare.as_bytes());
    assert_eq!(code(&out), 2);
    let message = stderr(&out);
    assert!(
        message.contains("no field named 'rating'") && message.contains("field1 to field3"),
        "{message}"
    );
}

/// Writes a big Parquet input for measuring memory and speed by hand (not
/// run by default, not in CI): the Kaggle puzzles of data/ repeated to
/// `SUDOKU_BIG_ROWS` rows (default 10,000,000) as `puzzle,solution` strings
/// with `0` blanks and an `id` and a `rating`, in row groups of 100,000, to
/// the path in `SUDOKU_BIG_PARQUET`. Then, e.g.:
/// `/usr/bin/time -v sudoku-batch solve big.parquet -o /dev/null --quiet`.
#[test]
#[ignore = "writes a large file; run by hand for measurements"]
fn write_a_big_parquet_input() {
    let Ok(path) = std::env::var("SUDOKU_BIG_PARQUET") else {
        panic!("set SUDOKU_BIG_PARQUET to the file to write");
    };
    let rows: usize = std::env::var("SUDOKU_BIG_ROWS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000_000);
    let text = std::fs::read_to_string(repo("data/kaggle1m_10000.csv")).expect("shipped data");
    let pairs: Vec<(&str, &str)> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(','))
        .collect();
    let schema_batch = |start: usize, n: usize| {
        let ids: Vec<i64> = (start..start + n).map(|i| i as i64).collect();
        let pick = |i: usize| pairs[i % pairs.len()];
        let puzzles: Vec<&str> = (start..start + n).map(|i| pick(i).0).collect();
        let solutions: Vec<&str> = (start..start + n).map(|i| pick(i).1).collect();
        let ratings: Vec<f64> = (start..start + n).map(|i| (i % 90) as f64 / 10.0).collect();
        RecordBatch::try_from_iter(vec![
            ("id", Arc::new(Int64Array::from(ids)) as ArrayRef),
            ("puzzle", Arc::new(StringArray::from(puzzles))),
            ("solution", Arc::new(StringArray::from(solutions))),
            ("rating", Arc::new(Float64Array::from(ratings))),
        ])
        .expect("columns of one length")
    };
    let first = schema_batch(0, 1);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(100_000))
        .build();
    let file = File::create(&path).expect("writable path");
    let mut writer = ArrowWriter::try_new(file, first.schema(), Some(props)).expect("a writer");
    let mut start = 0;
    while start < rows {
        let n = (rows - start).min(100_000);
        writer.write(&schema_batch(start, n)).expect("written");
        start += n;
    }
    writer.close().expect("closed");
}

#[test]
fn parquet_dictionary_encoded_strings_as_pandas_categoricals_write_them() {
    let scratch = Scratch::new();
    let puzzles: DictionaryArray<Int32Type> = [P, Q, P].into_iter().collect();
    let path = parquet(
        &scratch,
        "dict.parquet",
        vec![("puzzle", Arc::new(puzzles) as ArrayRef)],
        10,
    );
    let rows = run(&[&path], 0);
    assert_eq!(
        statuses(&rows),
        vec![(1, "solved"), (2, "solved"), (3, "solved")]
    );
    assert_eq!(rows[2].solution, S);
}

#[test]
fn text_line_fields_follow_one_delimiter_per_file() {
    // A forum list: `,` after the first record's puzzle is the file's
    // delimiter; `;` and `|` are part of fields, and empty fields count, so
    // field 9 is the same column on every row. A row whose puzzle is
    // followed by `;` is malformed, not read with its fields shifted.
    let out = solve(&[&case("r4-forum-list.txt"), "--keep", "field2,field9"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let kept: Vec<(String, String)> = stdout(&out)
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let n = fields.len();
            (
                fields[2].to_string(),
                format!("{} {}", fields[n - 2], fields[n - 1]),
            )
        })
        .collect();
    assert_eq!(
        kept,
        [
            ("status", "field2 field9"),
            ("solved", "Thread-00001;tarx0134 4674"),
            ("solved", "Thread-00002 4675"),
            ("solved", "Thread-00003;a;b 4676"),
            // Split by the same rule: its puzzle and thread are one field.
            ("malformed", "ann 3314"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let out = solve(&[&case("r4-forum-list.txt"), "--keep-all"]);
    let header = stdout(&out).lines().next().unwrap_or_default().to_string();
    assert!(header.ends_with(",field9,field10"), "{header}");
    assert!(
        stdout(&out).contains("bad character ';' at position 82"),
        "{}",
        stdout(&out)
    );
    // --column counts the same fields: field 3 of row 3 is empty.
    let out = solve(&[&case("r4-forum-list.txt"), "--column", "3"]);
    assert!(
        stdout(&out).contains("field 3 is empty"),
        "{}",
        stdout(&out)
    );
}

/// JSON Lines on stdin whose first line is a bare string is read as text
/// lines (`auto` takes JSON Lines for a first byte `{`): each line that is
/// JSON (a string, a list, an object) is `malformed` naming `--format
/// jsonl`, which reads them all.
#[test]
fn json_lines_read_as_text_lines_are_told_about_format_jsonl() {
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let text = format!(
        "\"3.....1.......32\"\n[{}]\n{{\"puzzle\": \"{p}\"}}\n",
        "3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 2"
    );
    let output = solve_stdin(&[], text.as_bytes());
    assert_eq!(code(&output), 1, "stderr: {}", stderr(&output));
    let malformed = rows(&stdout(&output));
    assert_eq!(malformed.len(), 3);
    for row in &malformed {
        assert_eq!(row.status, "malformed");
        let hint = "(the line is JSON: for JSON Lines, give --format jsonl)";
        assert!(row.message.ends_with(hint), "{row:?}");
    }
    let output = solve_stdin(&["--format", "jsonl"], text.as_bytes());
    assert_eq!(code(&output), 0, "stderr: {}", stderr(&output));
    let rows = rows(&stdout(&output));
    assert!(rows.iter().all(|r| r.status == "solved"), "{rows:?}");
}
