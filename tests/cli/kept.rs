//! Kept columns (`--keep`, `--keep-all`) copied exactly, round 3 of
//! "Nothing lost" (the `r3-05` to `r3-07` cases of `tests/cases/CASES.md`):
//! every Arrow type a Parquet input holds, JSON values whose type varies or
//! whose digits a float would lose, keys first seen late, columns that
//! differ between inputs, names alike but for case, formula-like text;
//! through the real binary, into CSV, JSON Lines and Parquet.

use std::fs::File;

use crate::common::*;
use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{json, Value};

/// A puzzle with one solution.
const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";

/// Every row of a Parquet file, as one batch.
fn parquet(path: &str) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let schema = reader.schema().clone();
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// The CSV results' column `name`, as text.
fn csv_column(text: &str, name: &str) -> Vec<String> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let at = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    reader
        .records()
        .map(|r| r.unwrap().get(at).unwrap().to_string())
        .collect()
}

/// The JSON Lines results' key `name`.
fn jsonl_column(text: &str, name: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()[name].clone())
        .collect()
}

/// Runs `solve ARGS -o OUT` and asserts the exit code.
fn solved_into(args: &[&str], out: &str, expected: i32) {
    let mut all = args.to_vec();
    all.extend(["-o", out]);
    let output = solve(&all);
    assert_eq!(code(&output), expected, "{all:?}: {}", stderr(&output));
}

#[test]
fn r3_05_every_parquet_type_is_copied_into_every_format() {
    let s = Scratch::new();
    let input = case("r3-05-keep-typed-columns.parquet");
    let keep = ["--keep", "ts,day,price,meta,score"];
    let (csv, jsonl, pq) = (s.path("r.csv"), s.path("r.jsonl"), s.path("r.parquet"));
    for out in [&csv, &jsonl, &pq] {
        solved_into(&[&input, keep[0], keep[1]], out, 0);
    }
    let text = read_output(&csv);
    assert!(!text.contains("a value of type"), "{text}");
    assert_eq!(
        csv_column(&text, "ts")[..2],
        ["2023-11-14T22:13:20", "2023-11-14T22:13:20.001"]
    );
    assert_eq!(csv_column(&text, "day")[0], "2022-01-08");
    assert_eq!(csv_column(&text, "price")[..2], ["1234.00", "1235.00"]);
    assert_eq!(csv_column(&text, "meta")[0], r#"{"a":0}"#);
    assert_eq!(
        csv_column(&text, "score"),
        ["NaN", "inf", "-inf", "1e+300", "-0.0"]
    );

    let text = read_output(&jsonl);
    assert_eq!(
        jsonl_column(&text, "ts")[1],
        json!("2023-11-14T22:13:20.001")
    );
    assert_eq!(jsonl_column(&text, "day")[0], json!("2022-01-08"));
    assert_eq!(jsonl_column(&text, "price")[0], json!("1234.00"));
    assert_eq!(jsonl_column(&text, "meta")[2], json!({"a": 2}));
    let score = jsonl_column(&text, "score");
    assert_eq!(score[..3], [json!("NaN"), json!("inf"), json!("-inf")]);
    assert_eq!(score[3].as_f64(), Some(1e300));

    // Parquet keeps each column's type and values, exactly.
    let (got, want) = (parquet(&pq), parquet(&input));
    for name in ["ts", "day", "price", "meta", "score"] {
        let (g, w) = (
            got.column_by_name(name).unwrap(),
            want.column_by_name(name).unwrap(),
        );
        assert_eq!(g.data_type(), w.data_type(), "{name}");
        assert_eq!(g.to_data(), w.to_data(), "{name}");
    }
}

#[test]
fn r3_06_a_json_key_whose_type_varies_is_never_null() {
    let s = Scratch::new();
    let input = case("r3-06-jsonl-kept-type-change.jsonl");
    let pq = s.path("t.parquet");
    solved_into(&[&input, "--keep", "id,rating,ok,src"], &pq, 0);
    let batch = parquet(&pq);
    let text = |name: &str| -> Vec<Option<String>> {
        let column = batch.column_by_name(name).unwrap();
        assert_eq!(column.data_type(), &DataType::Utf8, "{name}");
        column
            .as_string::<i32>()
            .iter()
            .map(|v| v.map(str::to_string))
            .collect()
    };
    let some =
        |v: &[&str]| -> Vec<Option<String>> { v.iter().map(|s| Some(s.to_string())).collect() };
    assert_eq!(text("id"), some(&["1", "abc", "2"]));
    assert_eq!(text("ok"), some(&["true", "yes", "false"]));
    assert_eq!(text("src"), [None, None, Some("late key".to_string())]);
    let rating = batch.column_by_name("rating").unwrap();
    let rating = rating.as_primitive::<arrow_array::types::Float64Type>();
    assert_eq!(rating.values().to_vec(), [3.0, 3.5, 4.0]);

    // The same values in CSV and JSON Lines; a key first seen on line 3
    // is kept by --keep and by --keep-all.
    let csv = s.path("t.csv");
    solved_into(&[&input, "--keep", "id,rating,ok,src"], &csv, 0);
    let text = read_output(&csv);
    assert_eq!(csv_column(&text, "id"), ["1", "abc", "2"]);
    assert_eq!(csv_column(&text, "rating"), ["3", "3.5", "4"]);
    assert_eq!(csv_column(&text, "src"), ["", "", "late key"]);
    for out in ["all.csv", "all.jsonl", "all.parquet"] {
        solved_into(&[&input, "--keep-all"], &s.path(out), 0);
    }
    let text = read_output(s.path("all.csv"));
    assert_eq!(csv_column(&text, "src"), ["", "", "late key"]);
    let text = read_output(s.path("all.jsonl"));
    assert_eq!(
        jsonl_column(&text, "id"),
        [json!(1), json!("abc"), json!(2)]
    );
    assert_eq!(jsonl_column(&text, "src")[2], json!("late key"));
    let names: Vec<String> = parquet(&s.path("all.parquet"))
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names[8..], ["id", "input_puzzle", "rating", "ok", "src"]);

    // A key no record has is refused by name, before any output.
    let out = s.path("none.csv");
    let output = solve(&[&input, "--keep", "id,nope", "-o", &out]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("'nope'"), "{}", stderr(&output));
    assert!(!std::path::Path::new(&out).exists());
}

#[test]
fn r3_06b_a_column_typed_in_one_input_and_text_in_another_is_text() {
    let s = Scratch::new();
    let (first, second) = (
        case("r3-06b-first-input.parquet"),
        case("r3-06b-second-input.csv"),
    );
    let pq = s.path("m.parquet");
    solved_into(&[&first, &second, "--keep", "id"], &pq, 0);
    let batch = parquet(&pq);
    let id = batch.column_by_name("id").unwrap();
    let id: Vec<Option<&str>> = id.as_string::<i32>().iter().collect();
    assert_eq!(id, [Some("7"), Some("8")]);
    for out in ["m.csv", "m.jsonl"] {
        solved_into(&[&first, &second, "--keep", "id"], &s.path(out), 0);
    }
    assert_eq!(csv_column(&read_output(s.path("m.csv")), "id"), ["7", "8"]);
    let ids = jsonl_column(&read_output(s.path("m.jsonl")), "id");
    assert_eq!(ids, [json!(7), json!("8")]);
}

#[test]
fn r3_07_json_integers_beyond_2_53_keep_their_digits() {
    let s = Scratch::new();
    let input = case("r3-07-jsonl-big-integer-ids.jsonl");
    for out in ["i.csv", "i.jsonl", "i.parquet"] {
        solved_into(&[&input, "--keep", "id"], &s.path(out), 0);
    }
    let ids = ["12345678901234567890", "9007199254740993"];
    assert_eq!(csv_column(&read_output(s.path("i.csv")), "id"), ids);
    let text = read_output(s.path("i.jsonl"));
    for (line, id) in text.lines().zip(ids) {
        assert!(line.ends_with(&format!(r#""id":{id}}}"#)), "{line}");
    }
    let batch = parquet(&s.path("i.parquet"));
    let column = batch.column_by_name("id").unwrap();
    let column = column.as_primitive::<arrow_array::types::UInt64Type>();
    assert_eq!(
        column.values().to_vec(),
        [12345678901234567890, 9007199254740993]
    );
}

#[test]
fn keep_all_over_inputs_with_different_columns_keeps_each_value_under_its_name() {
    let s = Scratch::new();
    let a = s.file("a.csv", format!("puzzle,id\n{P},1\n").as_bytes());
    let b = s.file("b.csv", format!("id,x,puzzle,y\n2,xx,{P},yy\n").as_bytes());
    let out = s.path("r.csv");
    solved_into(&[&a, &b, "--keep-all"], &out, 0);
    let text = read_output(&out);
    let header = text.lines().next().unwrap();
    assert!(header.ends_with(",message,input_puzzle,id,x,y"), "{header}");
    assert_eq!(csv_column(&text, "id"), ["1", "2"]);
    assert_eq!(csv_column(&text, "x"), ["", "xx"]);
    assert_eq!(csv_column(&text, "y"), ["", "yy"]);
    assert_eq!(csv_column(&text, "input_puzzle"), [P, P]);
    // --keep 2 names `id` in one input and `x` in the other: refused.
    let output = solve(&[&a, &b, "--keep", "2", "-o", &s.path("n.csv")]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(stderr(&output).contains("--keep 2"), "{}", stderr(&output));
}

#[test]
fn names_exact_before_case_and_duplicates_kept_apart() {
    let s = Scratch::new();
    let input = s.file(
        "n.csv",
        format!("ID,puzzle,id,Id,id\nA,{P},b,C,d\n").as_bytes(),
    );
    let out = s.path("r.csv");
    solved_into(&[&input, "--keep", "id"], &out, 0);
    assert_eq!(csv_column(&read_output(&out), "id"), ["b"]);
    solved_into(&[&input, "--keep", "Id"], &out, 0);
    assert_eq!(csv_column(&read_output(&out), "Id"), ["C"]);
    // No exact name, two alike but for case: refused, naming both.
    let output = solve(&[&input, "--keep", "iD", "-o", &s.path("x.csv")]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("exactly 'iD'"),
        "{}",
        stderr(&output)
    );
    // --keep-all keeps every column, a name twice under two names.
    solved_into(&[&input, "--keep-all"], &out, 0);
    let text = read_output(&out);
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with(",message,ID,input_puzzle,id,Id,input_id"),
        "{text}"
    );
    assert_eq!(csv_column(&text, "input_id"), ["d"]);
}

#[test]
fn formula_like_text_is_copied_as_it_is_in_every_format() {
    let s = Scratch::new();
    let values = ["@a1", "'@a1", "=1+1", "-5", "+x"];
    let mut text = String::from("id,puzzle\n");
    for v in values {
        text.push_str(&format!("{v},{P}\n"));
    }
    let input = s.file("f.csv", text.as_bytes());
    for out in ["r.csv", "r.jsonl", "r.parquet"] {
        solved_into(&[&input, "--keep", "id"], &s.path(out), 0);
    }
    assert_eq!(csv_column(&read_output(s.path("r.csv")), "id"), values);
    let ids = jsonl_column(&read_output(s.path("r.jsonl")), "id");
    assert_eq!(ids, values.map(|v| json!(v)));
    let batch = parquet(&s.path("r.parquet"));
    let id: Vec<Option<&str>> = batch
        .column_by_name("id")
        .unwrap()
        .as_string::<i32>()
        .iter()
        .collect();
    assert_eq!(id, values.map(Some));
}

/// Writes `batch` as a Parquet file at `path`.
fn write_parquet(path: &str, batch: &RecordBatch) {
    let file = File::create(path).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(file, batch.schema(), None).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
}

#[test]
fn a_long_kept_field_solves_from_parquet_csv_and_json_lines_alike() {
    // A 200,000-character note (commas, quotes, non-ASCII, a space at
    // each end, copied as it is) beside the
    // puzzle: one record, whatever the format (CSV and JSON Lines records
    // were cut at 4096 bytes: `line too long`).
    let s = Scratch::new();
    let note: String = format!(" {}", "a, \"b\" é ".repeat(20_000));
    let quoted = note.replace('"', "\"\"");
    let csv = s.file(
        "long.csv",
        format!("puzzle,note\n{P},\"{quoted}\"\n{P},short\n").as_bytes(),
    );
    let line = |n: &str| json!({"puzzle": P, "note": n}).to_string();
    let jsonl = s.file(
        "long.jsonl",
        format!("{}\n{}\n", line(&note), line("short")).as_bytes(),
    );
    let pq = s.path("long.parquet");
    let batch = RecordBatch::try_from_iter([
        (
            "puzzle",
            std::sync::Arc::new(arrow_array::StringArray::from(vec![P, P])) as _,
        ),
        (
            "note",
            std::sync::Arc::new(arrow_array::StringArray::from(vec![note.as_str(), "short"])) as _,
        ),
    ])
    .unwrap();
    write_parquet(&pq, &batch);
    for input in [&csv, &jsonl, &pq] {
        for (out, read) in [("r.csv", 0), ("r.jsonl", 1), ("r.parquet", 2)] {
            let out = s.path(out);
            solved_into(&[input, "--keep", "note"], &out, 0);
            let notes: Vec<String> = match read {
                0 => csv_column(&read_output(&out), "note"),
                1 => jsonl_column(&read_output(&out), "note")
                    .into_iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect(),
                _ => parquet(&out)
                    .column_by_name("note")
                    .unwrap()
                    .as_string::<i32>()
                    .iter()
                    .map(|v| v.unwrap().to_string())
                    .collect(),
            };
            assert_eq!(notes.len(), 2, "{input} -> {out}");
            assert!(notes[0] == note, "{input} -> {out}: the note changed");
            assert_eq!(notes[1], "short");
        }
        let rows = solve_rows(&[input], 0);
        assert_eq!(
            rows.iter().map(|r| r.status.as_str()).collect::<Vec<_>>(),
            ["solved", "solved"],
            "{input}"
        );
    }
    // Past 1 MiB a CSV record is too long, and says so.
    let huge = "x".repeat((1 << 20) + 10);
    let big = s.file(
        "huge.csv",
        format!("puzzle,note\n{P},{huge}\n{P},ok\n").as_bytes(),
    );
    let rows = solve_rows(&[&big], 1);
    assert_eq!(rows[0].status, "malformed");
    assert!(rows[0].message.contains("too long"), "{:?}", rows[0]);
    assert_eq!(rows[1].status, "solved");
}

#[test]
fn binary_values_are_hex_in_text_and_bytes_in_parquet() {
    let s = Scratch::new();
    let bytes: [&[u8]; 3] = [b"\x00\xff,\n\"", b"", b"plain"];
    let batch = RecordBatch::try_from_iter([
        (
            "puzzle",
            std::sync::Arc::new(arrow_array::StringArray::from(vec![P, P, P])) as _,
        ),
        (
            "blob",
            std::sync::Arc::new(arrow_array::BinaryArray::from(bytes.to_vec())) as _,
        ),
        (
            "big",
            std::sync::Arc::new(arrow_array::LargeBinaryArray::from(bytes.to_vec())) as _,
        ),
    ])
    .unwrap();
    let input = s.path("in.parquet");
    write_parquet(&input, &batch);
    for out in ["b.csv", "b.jsonl", "b.parquet"] {
        solved_into(&[&input, "--keep", "blob,big"], &s.path(out), 0);
    }
    let hex = ["00ff2c0a22", "", "706c61696e"];
    let text = read_output(s.path("b.csv"));
    assert_eq!(csv_column(&text, "blob"), hex);
    assert_eq!(csv_column(&text, "big"), hex);
    let text = read_output(s.path("b.jsonl"));
    assert_eq!(jsonl_column(&text, "blob"), hex.map(|h| json!(h)));
    let got = parquet(&s.path("b.parquet"));
    let blob = got.column_by_name("blob").unwrap();
    assert_eq!(blob.data_type(), &DataType::Binary);
    let values: Vec<&[u8]> = blob.as_binary::<i32>().iter().map(Option::unwrap).collect();
    assert_eq!(values, bytes);
}

#[test]
fn duplicate_names_in_json_lines_and_parquet_are_kept_apart_or_refused() {
    let s = Scratch::new();
    // Parquet may hold two columns of one name: --keep-all keeps both, the
    // second as input_NAME, as CSV does.
    let batch = RecordBatch::try_new(
        std::sync::Arc::new(arrow_schema::Schema::new(vec![
            arrow_schema::Field::new("puzzle", DataType::Utf8, false),
            arrow_schema::Field::new("id", DataType::Utf8, false),
            arrow_schema::Field::new("id", DataType::Int64, false),
        ])),
        vec![
            std::sync::Arc::new(arrow_array::StringArray::from(vec![P])),
            std::sync::Arc::new(arrow_array::StringArray::from(vec!["first"])),
            std::sync::Arc::new(arrow_array::Int64Array::from(vec![2])),
        ],
    )
    .unwrap();
    let input = s.path("d.parquet");
    write_parquet(&input, &batch);
    let out = s.path("d.csv");
    solved_into(&[&input, "--keep-all"], &out, 0);
    let text = read_output(&out);
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with(",message,input_puzzle,id,input_id"),
        "{text}"
    );
    assert_eq!(csv_column(&text, "id"), ["first"]);
    assert_eq!(csv_column(&text, "input_id"), ["2"]);
    solved_into(&[&input, "--keep", "id"], &out, 0);
    assert_eq!(csv_column(&read_output(&out), "id"), ["first"]);
}

/// Runs the binary with `args` and asserts the exit code.
fn ran(args: &[&str], expected: i32) {
    let output = bin().args(args).output().expect("the binary runs");
    assert_eq!(code(&output), expected, "{args:?}: {}", stderr(&output));
}

/// With one input the results have no `file` column (several inputs put it
/// first), and only `augment` tables have a `copy` column (after `line`):
/// kept input columns of those names, written after the results columns,
/// are not taken for them by `merge` or `check --baseline`.
#[test]
fn kept_columns_named_file_and_copy_are_not_read_as_results_columns() {
    let s = Scratch::new();
    let quiet = ["--keep-all", "--quiet", "--progress", "never", "-o"];
    for name in ["file", "copy"] {
        let input = s.file(
            &format!("{name}.csv"),
            format!("puzzle,{name}\n{P},b.txt\n{P},\n{P},2\n").as_bytes(),
        );
        let baseline = s.path(&format!("{name}-solve.csv"));
        for command in ["solve", "rate"] {
            let full = s.path(&format!("{name}-{command}.csv"));
            ran(
                &[[command, &input].as_slice(), &quiet, &[&full]].concat(),
                0,
            );
            let text = read_output(&full);
            assert!(
                text.lines().next().unwrap().ends_with(&format!(",{name}")),
                "{text}"
            );
            let mut shards = vec![];
            for k in 1..=2 {
                let shard = s.path(&format!("{name}-{command}{k}.csv"));
                let part = format!("{k}/2");
                let args = [command, &input, "--shard", &part];
                ran(&[args.as_slice(), &quiet, &[&shard]].concat(), 0);
                shards.push(shard);
            }
            let merged = s.path(&format!("{name}-{command}-merged.csv"));
            ran(
                &["merge", &shards[1], &shards[0], "--quiet", "-o", &merged],
                0,
            );
            let timeless = |text: &str| match command {
                "solve" => without_timing(text),
                _ => text.to_string(),
            };
            assert_eq!(timeless(&read_output(&merged)), timeless(&text), "{name}");
        }
        let checked = [
            "check",
            &input,
            "--quiet",
            "--progress",
            "never",
            "-o",
            "/dev/null",
        ];
        ran(
            &[checked.as_slice(), &["--baseline", &baseline]].concat(),
            0,
        );
    }
}

/// Kept values are copied as the input holds them, control bytes too: a
/// results file whose first bytes are many of them (a JSON key of NULs) is
/// still read by `merge` and `check --baseline`, which judge it by its
/// header, not by the rule that refuses binary inputs. Found by the
/// `results` fuzz target.
#[test]
fn results_with_control_bytes_in_kept_columns_are_merged_and_compared() {
    let s = Scratch::new();
    let key = "\\u0000".repeat(10);
    let value = "\\u0001".repeat(10);
    let input = s.file(
        "c.jsonl",
        format!("{{\"puzzle\":\"{P}\",\"{key}\":\"{value}\"}}\n").as_bytes(),
    );
    let results = s.path("c.csv");
    solved_into(&[&input, "--keep-all"], &results, 0);
    assert!(std::fs::read(&results).unwrap().contains(&0));
    let merged = s.path("m.csv");
    ran(&["merge", &results, "--quiet", "-o", &merged], 0);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&results).unwrap()
    );
    let checked = [
        "check",
        &input,
        "--quiet",
        "--progress",
        "never",
        "-o",
        "/dev/null",
    ];
    ran(&[checked.as_slice(), &["--baseline", &results]].concat(), 0);
}

/// A kept struct of two fields, a list of such structs, a struct of a
/// struct and a map, each with nulls: Parquet columns of several leaf
/// columns, where each leaf was written to the first leaf's writer (exit 2,
/// `Cannot coerce Utf8 to I64` or a panic, after the whole row group was
/// solved, and the results file left as four bytes).
fn nested_batch(rows: usize) -> RecordBatch {
    use arrow_array::builder::{
        Int64Builder, ListBuilder, MapBuilder, StringBuilder, StructBuilder,
    };
    use arrow_array::{ArrayRef, Int32Array, StringArray};
    use arrow_schema::{Field, Fields};
    use std::sync::Arc;

    let pair_fields = Fields::from(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("b", DataType::Utf8, true),
    ]);
    let append_pair = |b: &mut StructBuilder, i: usize, valid: bool| {
        b.field_builder::<Int64Builder>(0)
            .unwrap()
            .append_value(i as i64);
        b.field_builder::<StringBuilder>(1)
            .unwrap()
            .append_value(format!("x{i}"));
        b.append(valid);
    };
    let mut pair = StructBuilder::from_fields(pair_fields.clone(), rows);
    let mut items = ListBuilder::new(StructBuilder::from_fields(pair_fields.clone(), rows));
    let inner = Field::new("inner", DataType::Struct(pair_fields.clone()), true);
    let mut nested = StructBuilder::from_fields(Fields::from(vec![inner]), rows);
    let mut tags = MapBuilder::new(None, StringBuilder::new(), Int64Builder::new());
    for i in 0..rows {
        append_pair(&mut pair, i, i % 7 != 3);
        for _ in 0..i % 3 {
            append_pair(items.values(), i, true);
        }
        items.append(i % 5 != 4);
        append_pair(
            nested.field_builder::<StructBuilder>(0).unwrap(),
            i,
            i % 2 == 0,
        );
        nested.append(true);
        for j in 0..i % 3 {
            tags.keys().append_value(format!("k{j}"));
            tags.values().append_value(j as i64);
        }
        tags.append(i % 4 != 1).unwrap();
    }
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("puzzle", Arc::new(StringArray::from(vec![P; rows]))),
        ("pair", Arc::new(pair.finish())),
        ("items", Arc::new(items.finish())),
        ("nested", Arc::new(nested.finish())),
        ("tags", Arc::new(tags.finish())),
        (
            "after",
            Arc::new(Int32Array::from_iter_values(0..rows as i32)),
        ),
    ];
    RecordBatch::try_from_iter(columns).unwrap()
}

#[test]
fn kept_structs_lists_of_structs_and_maps_are_copied_into_parquet() {
    let s = Scratch::new();
    let input = s.path("nested.parquet");
    // More rows than a results row group (32,768): the columns of every
    // group, not only the first.
    let batch = nested_batch(40_000);
    write_parquet(&input, &batch);
    let names = ["pair", "items", "nested", "tags", "after"];
    let pq = s.path("r.parquet");
    solved_into(&[&input, "--keep-all"], &pq, 0);
    let got = parquet(&pq);
    assert_eq!(got.num_rows(), batch.num_rows());
    for name in names {
        let (g, w) = (
            got.column_by_name(name).unwrap(),
            batch.column_by_name(name).unwrap(),
        );
        assert_eq!(g.data_type(), w.data_type(), "{name}");
        assert_eq!(g.to_data(), w.to_data(), "{name}");
    }
    // `rate` writes Parquet the same way.
    let rated = s.path("rated.parquet");
    ran(
        &[
            "rate",
            &input,
            "--keep",
            "pair,tags",
            "--limit",
            "20",
            "-o",
            &rated,
        ],
        0,
    );
    let got = parquet(&rated);
    assert_eq!(
        got.column_by_name("tags").unwrap().to_data(),
        batch.column_by_name("tags").unwrap().slice(0, 20).to_data()
    );
    // And the text formats write the same values as JSON.
    let jsonl = s.path("r.jsonl");
    solved_into(&[&input, "--keep-all", "--limit", "8"], &jsonl, 0);
    let text = read_output(&jsonl);
    assert_eq!(jsonl_column(&text, "pair")[1], json!({"a": 1, "b": "x1"}));
    assert_eq!(jsonl_column(&text, "pair")[3], Value::Null);
    assert_eq!(jsonl_column(&text, "tags")[1], Value::Null);
}
