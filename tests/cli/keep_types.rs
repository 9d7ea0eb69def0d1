//! `--keep-types COL=TYPE,...`: a kept CSV column written as numbers in
//! Parquet (and JSON Lines), read back with its type; a value that does not
//! parse makes its record `malformed`, naming the column and the value.

use std::fs::File;

use crate::common::*;
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// A puzzle with one solution.
const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";

/// Every row of a Parquet file, as one batch.
fn parquet(path: &str) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let schema = reader.schema().clone();
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// Three records: typed values, empty ones, and ones that are no numbers.
fn input(scratch: &Scratch) -> String {
    let text = format!(
        "puzzle,source,rating,score\n{P},a,007,1.5\n{P},b,, 2 \n{P},c,n/a,x\n{P},d,-3,1e3\n"
    );
    scratch.file("in.csv", text.as_bytes())
}

#[test]
fn kept_columns_get_the_types_asked_for_in_parquet() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let out = scratch.path("r.parquet");
    let run = solve(&[
        &input,
        "--keep",
        "source,rating,score",
        "--keep-types",
        "rating=int64,Score=float64",
        "-o",
        &out,
    ]);
    assert_eq!(code(&run), 1, "a malformed record: {}", stderr(&run));
    let batch = parquet(&out);
    let schema = batch.schema();
    let type_of = |name: &str| schema.field_with_name(name).unwrap().data_type().clone();
    assert_eq!(type_of("source"), DataType::Utf8);
    assert_eq!(type_of("rating"), DataType::Int64);
    assert_eq!(type_of("score"), DataType::Float64);
    let column = |name: &str| batch.column(schema.index_of(name).unwrap()).clone();
    let rating = column("rating");
    let rating = rating.as_primitive::<Int64Type>();
    let ratings: Vec<Option<i64>> = (0..4)
        .map(|i| rating.is_valid(i).then(|| rating.value(i)))
        .collect();
    assert_eq!(ratings, [Some(7), None, None, Some(-3)]);
    let score = column("score");
    let score = score.as_primitive::<Float64Type>();
    let scores: Vec<Option<f64>> = (0..4)
        .map(|i| score.is_valid(i).then(|| score.value(i)))
        .collect();
    assert_eq!(scores, [Some(1.5), Some(2.0), None, Some(1000.0)]);
    let status = column("status");
    let statuses: Vec<&str> = (0..4).map(|i| status.as_string::<i32>().value(i)).collect();
    assert_eq!(statuses, ["solved", "solved", "malformed", "solved"]);
    let message = column("message");
    let message = message.as_string::<i32>().value(2);
    assert!(
        message.starts_with(
            "rating: \"n/a\" is not an int64 (--keep-types); score: \"x\" is not a float64"
        ),
        "{message}"
    );
    let source = column("source");
    assert_eq!(
        source.as_string::<i32>().value(2),
        "c",
        "other columns kept"
    );

    // Without --keep-types the CSV column stays text, as it was.
    let plain = scratch.path("plain.parquet");
    solve(&[&input, "--keep", "rating", "-o", &plain]);
    let batch = parquet(&plain);
    let rating = batch.column(batch.schema().index_of("rating").unwrap());
    assert_eq!(rating.data_type(), &DataType::Utf8);
    assert_eq!(rating.as_string::<i32>().value(0), "007");
}

#[test]
fn json_lines_write_the_typed_values_as_numbers() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let out = scratch.path("r.jsonl");
    solve(&[
        &input,
        "--keep-all",
        "--keep-types",
        "rating=int64,source=string",
        "-o",
        &out,
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["rating"], serde_json::json!(7));
    assert_eq!(rows[1]["rating"], serde_json::Value::Null);
    assert_eq!(
        rows[0]["score"],
        serde_json::json!("1.5"),
        "not asked: text"
    );
    assert_eq!(rows[2]["status"], "malformed");
}

#[test]
fn a_type_for_no_kept_column_or_an_unknown_type_is_a_usage_error() {
    let scratch = Scratch::new();
    let input = input(&scratch);
    let none = solve(&[&input, "--keep", "source", "--keep-types", "rating=int64"]);
    assert_eq!(code(&none), 2);
    let message = stderr(&none);
    assert!(
        message.contains("no kept column is named \"rating\" (kept: source)"),
        "{message}"
    );
    assert!(none.stdout.is_empty());
    let unknown = solve(&[&input, "--keep", "rating", "--keep-types", "rating=int32"]);
    assert_eq!(code(&unknown), 2);
    assert!(
        stderr(&unknown).contains("the types are int64, float64, string"),
        "{}",
        stderr(&unknown)
    );
}

/// A CSV of `P` with these `rating` fields, one record each.
fn ratings(scratch: &Scratch, name: &str, fields: &[&str]) -> String {
    let rows: String = fields.iter().map(|f| format!("{P},{f}\n")).collect();
    scratch.file(name, format!("puzzle,rating\n{rows}").as_bytes())
}

#[test]
fn a_type_that_fits_no_value_stops_the_run_before_anything_is_written() {
    let scratch = Scratch::new();
    let input = ratings(&scratch, "rated.csv", &["7.2", "", "8.5"]);
    let out = scratch.file("r.csv", b"the previous results\n");
    let summary = scratch.file("s.json", b"{}\n");
    let run = solve(&[
        &input,
        "--keep",
        "rating",
        "--keep-types",
        "rating=int64",
        "-o",
        &out,
        "--summary-json",
        &summary,
    ]);
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert_eq!(
        stderr(&run).trim_end(),
        format!(
            "sudoku-batch: error: --keep-types rating=int64 fits no value of \"rating\": each of \
             the 2 values read is refused, the first on line 2 of {input} (\"7.2\" is not an \
             int64); leave it out, or give the column's type (float64 reads that value)"
        )
    );
    assert_eq!(read_output(&out), "the previous results\n");
    assert_eq!(read_output(&summary), "{}\n");
    // The type that fits: every record solved, the ratings numbers.
    let run = solve(&[&input, "--keep", "rating", "--keep-types", "rating=float64"]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert!(stdout(&run).contains(",7.2\n"));
    // Within --limit: the value that fits is past it.
    let late = ratings(&scratch, "late.csv", &["n/a", "n/a", "7"]);
    let limited = solve(&[
        &late,
        "--keep",
        "rating",
        "--keep-types",
        "rating=int64",
        "--limit",
        "2",
    ]);
    assert_eq!(code(&limited), 2, "{}", stderr(&limited));
    assert!(
        stderr(&limited).contains("each of the 2 values read is refused"),
        "{}",
        stderr(&limited)
    );
}

#[test]
fn one_value_that_fits_is_enough_and_the_others_stay_malformed_rows() {
    let scratch = Scratch::new();
    // Refused values first, in one input and across two.
    let late = ratings(&scratch, "late.csv", &["n/a", "n/a", "7"]);
    let run = solve(&[&late, "--keep", "rating", "--keep-types", "rating=int64"]);
    assert_eq!(code(&run), 1, "{}", stderr(&run));
    let (_, rows) = csv_table(&stdout(&run));
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str()).collect();
    assert_eq!(statuses, ["malformed", "malformed", "solved"]);
    assert_eq!(rows[2]["rating"], "7");
    let bad = ratings(&scratch, "bad.csv", &["n/a"]);
    let good = ratings(&scratch, "good.csv", &["3"]);
    let two = solve(&[
        &bad,
        &good,
        "--keep",
        "rating",
        "--keep-types",
        "rating=int64",
    ]);
    assert_eq!(code(&two), 1, "{}", stderr(&two));
    // Only empty fields: null, neither fitting nor refused.
    let empty = ratings(&scratch, "empty.csv", &["", " "]);
    let run = solve(&[&empty, "--keep", "rating", "--keep-types", "rating=int64"]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    // From stdin, which cannot be read twice: each refused value's row is
    // malformed, as the rows beside values that fit are.
    let text = std::fs::read(&bad).unwrap();
    let piped = solve_stdin(&["--keep", "rating", "--keep-types", "rating=int64"], &text);
    assert_eq!(code(&piped), 1, "{}", stderr(&piped));
    assert!(stdout(&piped).contains("malformed"));
}

#[test]
fn the_checks_before_the_run_leave_a_solutions_pipe_to_the_run() {
    // --keep-types and --symbols read the input file once more before the
    // run; a --solutions pipe (here stdin) is read by the run alone.
    let scratch = Scratch::new();
    let input = ratings(&scratch, "rated.csv", &["7"]);
    let solution =
        "316452978285679314497318562879234156142965783653187249968721435521843697734596821\n";
    let args = [
        "--keep",
        "rating",
        "--keep-types",
        "rating=int64",
        "--solutions",
        "-",
    ];
    let run = solve_stdin(
        &[&[input.as_str()][..], &args].concat(),
        solution.as_bytes(),
    );
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let (_, rows) = csv_table(&stdout(&run));
    assert_eq!(rows[0]["check"], "ok");
    let sixteen = repo("data/sizes/16x16_1-9A-G_dots.txt");
    let solved = solve(&[&sixteen, "--first", "--limit", "2"]);
    let (_, rows) = csv_table(&stdout(&solved));
    let solutions: String = rows
        .iter()
        .map(|r| format!("{}\n", r["solution"]))
        .collect();
    let args = [
        "--first",
        "--limit",
        "2",
        "--symbols",
        "1-9A-Z",
        "--solutions",
        "-",
    ];
    let run = solve_stdin(
        &[&[sixteen.as_str()][..], &args].concat(),
        solutions.as_bytes(),
    );
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let (_, rows) = csv_table(&stdout(&run));
    assert!(rows.iter().all(|r| r["check"] == "ok"), "{rows:?}");
}
