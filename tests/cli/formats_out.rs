//! Output formats: the real binary writes CSV, JSON Lines and Parquet (and
//! gzip or zstd around the text formats) as the output's name or
//! `--output-format` says, the same rows in each; every output is read
//! back with the format's own reader (arrow-rs for Parquet).

use std::fs::File;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;

/// A few puzzles of a shipped corpus, then records that are not puzzles,
/// one that has no solution and a spreadsheet-formula message.
fn input(scratch: &Scratch) -> String {
    let corpus = std::fs::read_to_string(repo("data/top95.txt")).expect("a shipped corpus");
    let mut text: String = corpus.lines().take(30).map(|l| format!("{l}\n")).collect();
    text.push_str("12345\n");
    text.push_str(&format!("11{}\n", ".".repeat(79)));
    text.push_str("=cmd|' /C calc'!A0\n");
    scratch.file("in.txt", text.as_bytes())
}

/// The rows of a results CSV file, with the invariants checked.
fn csv_rows(path: &str) -> Vec<Row> {
    let rows = rows(&read_output(path));
    check_rows(&rows);
    rows
}

/// Runs `solve ARGS` and asserts the exit code (1: the input has bad rows).
fn run(args: &[&str], expected: i32) {
    let output = solve(args);
    assert_eq!(code(&output), expected, "stderr: {}", stderr(&output));
}

/// Rows compared across formats: the timing differs from run to run.
fn untimed(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| Row {
            solve_us: String::new(),
            ..r.clone()
        })
        .collect()
}

/// The record batches of a Parquet file.
fn parquet_batches(path: &str) -> Vec<RecordBatch> {
    let file = File::open(path).expect("the Parquet file exists");
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("a valid Parquet footer")
        .build()
        .expect("a reader");
    reader.map(|b| b.expect("a readable row group")).collect()
}

/// A Parquet results file as rows (nulls as empty fields, as CSV writes
/// them), checking each column's type.
fn parquet_rows(path: &str) -> Vec<Row> {
    let mut rows = vec![];
    for batch in parquet_batches(path) {
        let schema = batch.schema();
        let types: Vec<(&str, &DataType)> = schema
            .fields()
            .iter()
            .map(|f| (f.name().as_str(), f.data_type()))
            .collect();
        let text = |name: &str, i: usize| {
            let column = batch
                .column_by_name(name)
                .expect("the column")
                .as_string::<i32>();
            if column.is_null(i) {
                String::new()
            } else {
                column.value(i).to_string()
            }
        };
        let number = |name: &str, i: usize| {
            let column = batch.column_by_name(name).expect("the column");
            if column.is_null(i) {
                return String::new();
            }
            match column.data_type() {
                DataType::UInt64 => column.as_primitive::<UInt64Type>().value(i).to_string(),
                DataType::Float64 => {
                    format!("{:.1}", column.as_primitive::<Float64Type>().value(i))
                }
                other => panic!("{name} is {other}"),
            }
        };
        assert_eq!(
            types[types.len() - 8..],
            [
                ("line", &DataType::UInt64),
                ("puzzle", &DataType::Utf8),
                ("status", &DataType::Utf8),
                ("solution", &DataType::Utf8),
                ("guesses", &DataType::UInt64),
                ("solve_us", &DataType::Float64),
                ("check", &DataType::Utf8),
                ("message", &DataType::Utf8),
            ]
        );
        for i in 0..batch.num_rows() {
            rows.push(Row {
                file: batch.column_by_name("file").map(|_| text("file", i)),
                line: number("line", i).parse().expect("a line number"),
                puzzle: text("puzzle", i),
                status: text("status", i),
                solution: text("solution", i),
                guesses: number("guesses", i),
                solve_us: number("solve_us", i),
                check: text("check", i),
                message: text("message", i),
            });
        }
    }
    check_rows(&rows);
    rows
}

/// A JSON Lines results file as rows, checking that every empty CSV field
/// is `null` and every number a JSON number.
fn jsonl_rows(text: &str) -> Vec<Row> {
    let rows: Vec<Row> = text
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("one JSON object per line");
            let text = |key: &str| match &value[key] {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => panic!("{key} is {other}"),
            };
            let number = |key: &str| match &value[key] {
                Value::Null => String::new(),
                Value::Number(n) if key == "solve_us" => format!("{:.1}", n.as_f64().unwrap()),
                Value::Number(n) => n.as_u64().expect("an unsigned integer").to_string(),
                other => panic!("{key} is {other}"),
            };
            Row {
                file: value.get("file").map(|_| text("file")),
                line: value["line"].as_u64().expect("a line number"),
                puzzle: text("puzzle"),
                status: text("status"),
                solution: text("solution"),
                guesses: number("guesses"),
                solve_us: number("solve_us"),
                check: text("check"),
                message: text("message"),
            }
        })
        .collect();
    check_rows(&rows);
    rows
}

#[test]
fn parquet_holds_the_csv_rows_typed_with_nulls() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let (csv, parquet) = (scratch.path("r.csv"), scratch.path("r.parquet"));
    run(&[&input, "-o", &csv], 1);
    run(&[&input, "-o", &parquet, "-j", "2"], 1);
    let expected = csv_rows(&csv);
    let got = parquet_rows(&parquet);
    assert_eq!(got.len(), 33);
    assert_eq!(untimed(&got), untimed(&expected));
    assert_eq!(got.iter().filter(|r| r.status == "solved").count(), 30);
    let batches = parquet_batches(&parquet);
    let malformed = got.iter().position(|r| r.status == "malformed").unwrap();
    let batch = &batches[0];
    for column in ["puzzle", "solution", "guesses", "solve_us", "check"] {
        assert!(
            batch.column_by_name(column).unwrap().is_null(malformed),
            "{column}"
        );
    }
    assert!(!batch.column_by_name("message").unwrap().is_null(malformed));
    let statuses: Vec<&str> = got[30..].iter().map(|r| r.status.as_str()).collect();
    assert_eq!(statuses, ["malformed", "invalid", "malformed"]);
}

#[test]
fn several_inputs_put_the_file_first_in_parquet_and_json_lines() {
    let scratch = Scratch::new();
    let first = input(&scratch);
    let second = scratch.file("second.txt", format!("{EASY}\n").as_bytes());
    let (parquet, jsonl) = (scratch.path("r.parquet"), scratch.path("r.ndjson"));
    run(&[&first, &second, "-o", &parquet], 1);
    run(&[&first, &second, "-o", &jsonl], 1);
    let rows = parquet_rows(&parquet);
    assert_eq!(rows.len(), 34);
    assert_eq!(rows[33].file.as_deref(), Some(second.as_str()));
    assert_eq!(rows[0].file.as_deref(), Some(first.as_str()));
    let schema = parquet_batches(&parquet)[0].schema();
    assert_eq!(schema.field(0).name(), "file");
    let text = read_output(&jsonl);
    assert!(text.starts_with("{\"file\":"), "{text}");
    assert_eq!(untimed(&jsonl_rows(&text)), untimed(&rows));
}

#[test]
fn json_lines_hold_the_csv_rows_with_numbers_and_nulls() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let (csv, jsonl) = (scratch.path("r.csv"), scratch.path("r.jsonl"));
    run(&[&input, "-o", &csv], 1);
    run(&[&input, "-o", &jsonl], 1);
    let text = read_output(&jsonl);
    assert_eq!(untimed(&jsonl_rows(&text)), untimed(&csv_rows(&csv)));
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert!(
        first["guesses"].is_u64() && first["solve_us"].is_f64(),
        "{first}"
    );
    assert!(
        first["check"].is_null() && first["message"].is_null(),
        "{first}"
    );
}

/// The bytes of a zstd file, decompressed.
fn unzstd(path: &str) -> String {
    let mut text = String::new();
    zstd::stream::read::Decoder::new(File::open(path).expect("the file exists"))
        .expect("a zstd stream")
        .read_to_string(&mut text)
        .expect("a whole zstd stream of UTF-8");
    text
}

#[test]
fn gz_and_zst_compress_csv_and_json_lines() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let csv = scratch.path("r.csv");
    run(&[&input, "-o", &csv], 1);
    let expected = untimed(&csv_rows(&csv));
    let gz = scratch.path("r.csv.gz");
    run(&[&input, "-o", &gz], 1);
    assert_eq!(untimed(&csv_rows(&gz)), expected);
    let zst = scratch.path("r.txt.zst");
    run(&[&input, "-o", &zst], 1);
    let rows = rows(&unzstd(&zst));
    assert_eq!(untimed(&rows), expected);
    let jsonl = scratch.path("r.jsonl.zst");
    run(&[&input, "-o", &jsonl], 1);
    assert_eq!(untimed(&jsonl_rows(&unzstd(&jsonl))), expected);
}

/// The gzip members of a file, each decompressed.
fn gzip_members(path: &str) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).expect("the output file exists");
    let mut rest = &bytes[..];
    let mut members = vec![];
    while !rest.is_empty() {
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        let mut member = vec![];
        decoder
            .read_to_end(&mut member)
            .expect("a whole gzip member");
        members.push(member);
        rest = decoder.into_inner();
    }
    members
}

#[test]
fn gz_results_are_compressed_a_chunk_at_a_time_into_one_gzip_file() {
    // Several chunks of records, compressed on two workers: a member per
    // chunk after the header's, which read back as one file equal to the
    // plain CSV.
    let scratch = Scratch::new();
    let corpus = std::fs::read_to_string(repo("data/kaggle1m_10000.csv")).expect("a corpus");
    let text: String = corpus
        .lines()
        .take(5001)
        .map(|l| format!("{l}\n"))
        .collect();
    let input = scratch.file("k.csv", text.as_bytes());
    let csv = scratch.path("r.csv");
    run(&[&input, "-o", &csv, "-j", "2"], 0);
    let gz = scratch.path("r.csv.gz");
    run(&[&input, "-o", &gz, "-j", "2"], 0);
    assert_eq!(untimed(&csv_rows(&gz)), untimed(&csv_rows(&csv)));
    let members = gzip_members(&gz);
    assert_eq!(members.len(), 4, "the header and three chunks of rows");
    assert!(members[0].starts_with(b"line,puzzle,"));
    assert_eq!(members[0].iter().filter(|&&b| b == b'\n').count(), 1);
    // With no rows at all, still a valid gzip file: the header alone for
    // CSV, an empty member for JSON Lines.
    let none = scratch.file("none.txt", b"");
    let gz = scratch.path("none.csv.gz");
    run(&[&none, "-o", &gz], 0);
    assert_eq!(
        read_output(&gz),
        "line,puzzle,status,solution,guesses,solve_us,check,message\n"
    );
    let jsonl = scratch.path("none.jsonl.gz");
    run(&[&none, "-o", &jsonl], 0);
    assert_eq!(gzip_members(&jsonl), vec![Vec::<u8>::new()]);
}

#[test]
fn other_extensions_exit_2_before_any_file_is_created() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    for name in ["r.xlsx", "r.json", "r.arrow", "r.parquet.gz", "r.tsv.zst"] {
        let out = scratch.path(name);
        let summary = scratch.path("s.json");
        let output = solve(&[&input, "-o", &out, "--summary-json", &summary]);
        assert_eq!(code(&output), 2, "{name}");
        assert!(
            stderr(&output).contains(name),
            "{name}: {}",
            stderr(&output)
        );
        assert!(!std::path::Path::new(&out).exists(), "{name} was created");
        assert!(
            !std::path::Path::new(&summary).exists(),
            "{name}: summary created"
        );
        let checked = bin()
            .args(["check", &input, "-o", &out, "--quiet"])
            .output()
            .expect("the binary runs");
        assert_eq!(code(&checked), 2, "check {name}");
        assert!(
            !std::path::Path::new(&out).exists(),
            "check: {name} was created"
        );
    }
    let output = solve(&[&input, "-o", &scratch.path("r.xlsx")]);
    assert!(
        stderr(&output).contains("--output-format"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn output_format_overrides_the_name() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let csv = scratch.path("r.csv");
    run(&[&input, "-o", &csv], 1);
    let expected = untimed(&csv_rows(&csv));
    let parquet = scratch.path("results.dat");
    run(&[&input, "-o", &parquet, "--output-format", "parquet"], 1);
    assert_eq!(untimed(&parquet_rows(&parquet)), expected);
    let jsonl = scratch.path("r.csv.gz");
    run(&[&input, "-o", &jsonl, "--output-format", "jsonl"], 1);
    assert_eq!(untimed(&jsonl_rows(&read_output(&jsonl))), expected);
    let xlsx = scratch.path("r.xlsx");
    run(&[&input, "-o", &xlsx, "--output-format", "csv"], 1);
    assert_eq!(untimed(&csv_rows(&xlsx)), expected);
    let output = bin()
        .args(["solve", &input, "--output-format", "jsonl", "--quiet"])
        .output()
        .expect("the binary runs");
    assert_eq!(untimed(&jsonl_rows(&stdout(&output))), expected);
}

#[test]
fn devices_take_csv() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    run(&[&input, "-o", "/dev/null"], 1);
    let output = bin()
        .args(["check", &input, "-o", "/dev/null", "--quiet"])
        .output()
        .expect("the binary runs");
    assert_eq!(code(&output), 1, "{}", stderr(&output));
}

#[test]
fn the_null_device_gets_no_rows_but_the_run_counts_every_record() {
    // Rows for /dev/null are not formatted (output/discard.rs); the
    // summary and the exit code must not tell.
    let scratch = Scratch::new();
    let input = input(&scratch);
    let summary = |output: &str, name: &str| -> Value {
        let path = scratch.path(name);
        run(&[&input, "-o", output, "--summary-json", &path], 1);
        let mut summary: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for timed in ["wall_s", "puzzles_per_s", "solve_cpu_s", "solve_us"] {
            summary.as_object_mut().unwrap().remove(timed);
        }
        summary
    };
    let null = summary("/dev/null", "null.json");
    let file = summary(&scratch.path("r.csv"), "file.json");
    assert_eq!(null, file);
    assert_eq!(null["puzzles"], 33);
    assert_eq!(null["malformed"], 2);
}

#[test]
fn blank_zero_writes_zeros_in_the_puzzle_column_of_every_format() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let dots = solve(&[&input]);
    let zeros = solve(&[&input, "--blank", "0"]);
    let (dots, zeros) = (rows(&stdout(&dots)), rows(&stdout(&zeros)));
    assert_eq!(dots.len(), zeros.len());
    for (dot, zero) in dots.iter().zip(&zeros) {
        assert_eq!(zero.puzzle, dot.puzzle.replace('.', "0"));
        assert_eq!(zero.solution, dot.solution);
    }
    assert!(zeros[0].puzzle.contains('0') && !zeros[0].puzzle.contains('.'));
    let parquet = scratch.path("r.parquet");
    run(&[&input, "-o", &parquet, "--blank", "0"], 1);
    let batch = &parquet_batches(&parquet)[0];
    let puzzle = batch.column_by_name("puzzle").unwrap().as_string::<i32>();
    assert_eq!(puzzle.value(0), zeros[0].puzzle);
}

#[test]
fn output_delimiter_separates_csv_fields_and_only_csv() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let output = solve(&[&input, "--output-delimiter", ";"]);
    let text = stdout(&output);
    assert!(text.starts_with("line;puzzle;status;"), "{text}");
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .from_reader(text.as_bytes());
    let plain = rows(&stdout(&solve(&[&input])));
    let read: Vec<Row> = reader.deserialize().map(|r| r.expect("a row")).collect();
    assert_eq!(untimed(&read), untimed(&plain));
    let tabs = stdout(&solve(&[&input, "--output-delimiter", "tab"]));
    assert!(tabs.starts_with("line\tpuzzle\t"), "{tabs}");
    for bad in [
        &["--output-delimiter", "."][..],
        &["--output-delimiter", ";", "-o", "r.jsonl"],
    ] {
        let output = solve(&[&[input.as_str()][..], bad].concat());
        assert_eq!(code(&output), 2, "{bad:?}");
    }
}

#[test]
fn resume_is_refused_for_zstd() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    for name in ["r.csv.zst", "r.jsonl.zst"] {
        let out = scratch.path(name);
        let output = solve(&[&input, "-o", &out, "--resume"]);
        assert_eq!(code(&output), 2, "{name}");
        assert!(stderr(&output).contains("--resume"), "{}", stderr(&output));
        assert!(!std::path::Path::new(&out).exists());
    }
}

#[test]
fn an_output_that_is_an_input_is_refused_in_every_format() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let before = std::fs::read(&input).unwrap();
    let link = scratch.path("link.parquet");
    std::fs::hard_link(&input, &link).unwrap();
    let output = solve(&[&input, "-o", &link]);
    assert_eq!(code(&output), 2);
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// A solution with its last cell blank: solved at once by any solver.
const EASY: &str =
    "31645297828567931449731856287923415614296578365318724996872143552184369773459682.";

/// A puzzle the naive solver takes far longer on than any test waits.
const SLOW_FOR_NAIVE: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

#[test]
fn sigterm_leaves_a_readable_parquet_file_of_the_finished_rows() {
    let scratch = Scratch::new();
    let mut text = format!("{EASY}\n").repeat(8);
    text.push_str(&format!("{SLOW_FOR_NAIVE}\n").repeat(1000));
    let input = scratch.file("slow.txt", text.as_bytes());
    let (out, summary) = (scratch.path("r.parquet"), scratch.path("s.json"));
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(["solve", &input, "-o", &out, "--summary-json", &summary])
        .args(["--solver", "naive", "-j", "1", "--quiet"])
        .stdin(Stdio::null())
        .spawn()
        .expect("the binary starts");
    // Written beside `out` until its first row (which the signal brings).
    let partial = results_partial(&out, child.id());
    let deadline = Instant::now() + Duration::from_secs(60);
    while ![&partial, &out]
        .iter()
        .any(|p| std::path::Path::new(p).exists())
    {
        assert!(Instant::now() < deadline, "no results file");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The easy puzzles come first and take microseconds, even unoptimised.
    std::thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = child.wait().expect("the child ends");
    assert_eq!(status.code(), Some(143));
    let rows = parquet_rows(&out);
    assert!((8..1008).contains(&rows.len()), "{} rows", rows.len());
    let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
    assert_eq!(lines, (1..=rows.len() as u64).collect::<Vec<_>>());
    let json: Value = serde_json::from_str(&read_output(&summary)).unwrap();
    assert_eq!(json["interrupted"], true);
    assert_eq!(json["puzzles"], rows.len());
}
