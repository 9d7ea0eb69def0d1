//! `check --baseline` and `merge` of Parquet results, run as the binary: a
//! Parquet baseline (`solve -o r.parquet`) passes the run that wrote it and
//! names a changed record exactly as the same rows in CSV do, kept input
//! columns of any type passed over as a CSV baseline passes over its own;
//! Parquet shards (`solve --shard K/N -o rK.parquet`) merge into the single
//! run's CSV, typed kept columns included, and into its Parquet (the same
//! columns, types and values, `solve_us` aside); into JSON Lines they are
//! refused by name.

use std::fs::File;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::{code, read_output, stderr, Scratch};
use crate::merge_jsonl::{counts, csv, merged, shards};
use crate::shard::{run, solve_to, ALLOW, CORPUS};

/// Every row of a Parquet file, as one batch.
fn parquet(path: &str) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let schema = reader.schema().clone();
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// Rewrites the Parquet results at `path` with the `status` of the row of
/// `file` and `line` set to `status`.
fn set_status(path: &str, file: &str, line: u64, status: &str) {
    let batch = parquet(path);
    let files = batch.column_by_name("file").unwrap().as_string::<i32>();
    let lines = batch
        .column_by_name("line")
        .unwrap()
        .as_primitive::<UInt64Type>();
    let statuses = batch.column_by_name("status").unwrap().as_string::<i32>();
    let mut found = false;
    let changed: StringArray = (0..batch.num_rows())
        .map(|i| {
            let this = files.value(i) == file && lines.value(i) == line;
            found |= this;
            Some(if this { status } else { statuses.value(i) })
        })
        .collect();
    assert!(found, "no row {file}:{line}");
    let at = batch.schema().index_of("status").unwrap();
    let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
    columns[at] = Arc::new(changed);
    let batch = RecordBatch::try_new(batch.schema(), columns).unwrap();
    let out = File::create(path).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(out, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
}

/// `check` of the corpus against `baseline`: its exit code and stderr,
/// the baseline's name replaced by `BASELINE`.
fn check(baseline: &str) -> (i32, String) {
    let mut args: Vec<&str> = CORPUS.to_vec();
    args.extend(["--allow", ALLOW, "-o", "/dev/null", "--baseline", baseline]);
    let output = run("check", &args);
    (code(&output), stderr(&output).replace(baseline, "BASELINE"))
}

#[test]
fn a_parquet_baseline_passes_the_same_run_and_names_a_changed_record() {
    let s = Scratch::new();
    let (base, base_csv) = (s.path("whole.parquet"), s.path("whole.csv"));
    solve_to(&base, &[]);
    solve_to(&base_csv, &[]);
    assert_eq!(check(&base).0, 0, "{}", check(&base).1);
    assert_eq!(check(&base), check(&base_csv), "as with a CSV baseline");
    // A Parquet file under another name is read by its content.
    let renamed = s.path("whole.results");
    std::fs::copy(&base, &renamed).unwrap();
    assert_eq!(check(&renamed), check(&base_csv));

    // Record data/top95.txt:42 says `multiple` in both baselines.
    set_status(&base, "data/top95.txt", 42, "multiple");
    let text = read_output(&base_csv);
    let altered: String = text
        .lines()
        .map(|line| match line.starts_with("data/top95.txt,42,") {
            true => line.replace(",solved,", ",multiple,") + "\n",
            false => format!("{line}\n"),
        })
        .collect();
    assert_ne!(altered, text);
    std::fs::write(&base_csv, altered).unwrap();
    let (exit, message) = check(&base);
    assert_eq!(exit, 1, "{message}");
    assert!(
        message.contains("data/top95.txt:42: status changed from the baseline: multiple -> solved"),
        "{message}"
    );
    assert_eq!((exit, message), check(&base_csv), "as with a CSV baseline");

    // The inputs in another order: refused, naming the baseline's row
    // (as a CSV baseline names its line: the header is its line 1).
    let (other, other_csv) = (s.path("other.parquet"), s.path("other.csv"));
    for out in [&other, &other_csv] {
        let mut args: Vec<&str> = CORPUS.to_vec();
        args.reverse();
        args.extend(["-o", out]);
        assert_eq!(code(&run("solve", &args)), 1);
    }
    let order = "the baseline has rows of `data/top95.txt` after rows of \
                 `tests/cases/02-duplicate-givens.txt`, and this run was given them in the \
                 other order";
    for (baseline, place) in [(&other, "row 7"), (&other_csv, "line 8")] {
        let (exit, message) = check(baseline);
        assert_eq!(exit, 2, "{message}");
        assert!(
            message.contains(&format!("baseline BASELINE: {place}: {order}")),
            "{message}"
        );
    }
}

#[test]
fn a_parquet_baseline_with_typed_kept_columns_compares_as_its_csv() {
    let s = Scratch::new();
    // The first puzzle of top95, and the empty grid.
    let one = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let two = ".................................................................................";
    let text: String = std::iter::once("quizzes,rating,note\n".to_string())
        .chain((0..6).map(|i| format!("{},{i},\"=a, \"\"b\"\" {i}\"\n", [one, two][i % 2])))
        .collect();
    let input = s.file("in.csv", text.as_bytes());
    let solve = |out: &str| {
        let args = [
            input.as_str(),
            "-o",
            out,
            "--keep",
            "rating,note",
            "--keep-types",
            "rating=int64",
            "--first",
        ];
        let output = run("solve", &args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    };
    let (base, base_csv) = (s.path("base.parquet"), s.path("base.csv"));
    solve(&base);
    solve(&base_csv);
    let check = |baseline: &str, extra: &[&str]| {
        let mut args = vec![input.as_str(), "-o", "/dev/null", "--baseline", baseline];
        args.extend(["--keep", "rating,note"]);
        args.extend(extra);
        let output = run("check", &args);
        (code(&output), stderr(&output).replace(baseline, "BASELINE"))
    };
    let same = check(&base, &["--first"]);
    assert_eq!(same.0, 0, "{}", same.1);
    assert_eq!(same, check(&base_csv, &["--first"]));
    // Without --first the empty grids have many solutions.
    let changed = check(&base, &["--allow", "multiple"]);
    assert_eq!(changed.0, 1, "{}", changed.1);
    assert!(
        changed
            .1
            .contains("in.csv:3: status changed from the baseline: solved -> multiple"),
        "{}",
        changed.1
    );
    assert_eq!(changed, check(&base_csv, &["--allow", "multiple"]));

    // Rated (`solve --rate`, the kept `rating` written as `input_rating`):
    // ratings are compared as in the CSV; the empty grids are not rated.
    let (rated, rated_csv) = (s.path("rated.parquet"), s.path("rated.csv"));
    for out in [&rated, &rated_csv] {
        let args = [
            input.as_str(),
            "-o",
            out,
            "--keep",
            "rating",
            "--rate",
            "--first",
        ];
        assert_eq!(
            code(&run("solve", &args)),
            1,
            "the empty grids are multiple"
        );
    }
    let flags = ["--first", "--rate", "--allow", "multiple"];
    let same = check(&rated, &flags);
    assert_eq!(same.0, 0, "{}", same.1);
    assert!(!same.1.contains("not compared"), "{}", same.1);
    assert_eq!(same, check(&rated_csv, &flags));
}

#[test]
fn three_parquet_shards_merge_into_the_single_run_as_csv() {
    let s = Scratch::new();
    let (whole_csv, whole_json) = (s.path("whole.csv"), s.path("whole.json"));
    solve_to(&whole_csv, &["--summary-json", &whole_json]);
    let (parts, summaries) = shards(&s, "parquet");
    // In any order, with the shards' summaries: the single run's CSV and
    // summary counts.
    let (out, out_json) = (s.path("m.csv"), s.path("m.json"));
    let mut args: Vec<&str> = parts.iter().rev().map(String::as_str).collect();
    args.extend(["-o", &out, "--summary-json", &out_json, "--summaries"]);
    args.extend(summaries.iter().map(String::as_str));
    merged(&args);
    assert_eq!(csv(&out), csv(&whole_csv));
    assert_eq!(counts(&out_json), counts(&whole_json));

    // Mixed with a CSV shard, into gzip CSV.
    let csv_part = s.path("r2.csv");
    solve_to(&csv_part, &["--shard", "2/3"]);
    let out_gz = s.path("m.csv.gz");
    merged(&[&parts[0], &csv_part, &parts[2], "-o", &out_gz]);
    assert_eq!(csv(&out_gz), csv(&whole_csv));

    // Into Parquet: the single run's Parquet, `solve_us` aside.
    let (whole_parquet, out_parquet) = (s.path("whole.parquet"), s.path("m.parquet"));
    solve_to(&whole_parquet, &[]);
    merged(&[&parts[1], &parts[2], &parts[0], "-o", &out_parquet]);
    assert_same_parquet(&out_parquet, &whole_parquet);
    // Not from CSV parts.
    let refused = run(
        "merge",
        &[&parts[0], &csv_part, &parts[2], "-o", &out_parquet],
    );
    assert_eq!(code(&refused), 2, "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains(&format!(
            "{csv_part} is CSV, and merge writes Parquet (-o {out_parquet}) from Parquet \
             results only"
        )),
        "{}",
        stderr(&refused)
    );

    // Not into JSON Lines: refused by name, nothing written.
    let out_jsonl = s.path("m.jsonl");
    let refused = run(
        "merge",
        &[&parts[0], &parts[1], &parts[2], "-o", &out_jsonl],
    );
    assert_eq!(code(&refused), 2, "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains(&format!(
            "{} is Parquet, and merge writes JSON Lines (-o {out_jsonl}) from JSON Lines \
             results only",
            parts[0]
        )),
        "{}",
        stderr(&refused)
    );
    assert!(!std::path::Path::new(&out_jsonl).exists());
    // Compressed Parquet is refused by name.
    let gz = s.path("r1.parquet.gz");
    std::fs::write(&gz, gzip(&std::fs::read(&parts[0]).unwrap())).unwrap();
    let refused = run("merge", &[&gz, &parts[1], &parts[2], "-o", &out]);
    assert_eq!(code(&refused), 2, "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("Parquet that is compressed or not a plain file"),
        "{}",
        stderr(&refused)
    );
}

/// The Parquet results at `a` and `b` hold the same columns, with their
/// types, and the same values, `solve_us` aside (as pyarrow compares
/// tables: row groups apart).
fn assert_same_parquet(a: &str, b: &str) {
    let (a, b) = (parquet(a), parquet(b));
    assert_eq!(a.schema(), b.schema());
    assert_eq!(a.num_rows(), b.num_rows());
    for (i, field) in a.schema().fields().iter().enumerate() {
        if field.name() != "solve_us" {
            assert_eq!(a.column(i), b.column(i), "column {}", field.name());
        }
    }
}

/// `bytes` gzip-compressed.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn parquet_shards_with_typed_kept_columns_merge_into_the_single_run_csv() {
    let s = Scratch::new();
    // The first puzzle of top95.
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let text: String = std::iter::once("quizzes,rating,score,note\n".to_string())
        .chain((0..20).map(|i| format!("{p},{i},{i}.25,\"=a, \"\"b\"\" {i}\"\n")))
        .collect();
    let input = s.file("in.csv", text.as_bytes());
    let solve = |out: &str, extra: &[&str]| {
        let mut args = vec![input.as_str(), "-o", out, "--keep", "rating,score,note"];
        args.extend(["--keep-types", "rating=int64,score=float64"]);
        args.extend(extra);
        let output = run("solve", &args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    };
    let whole_csv = s.path("whole.csv");
    solve(&whole_csv, &[]);
    assert!(read_output(&whole_csv).contains(",3,3.25,\"=a, \"\"b\"\" 3\""));
    let parts: Vec<String> = (1..=3)
        .map(|k| {
            let part = s.path(&format!("r{k}.parquet"));
            solve(&part, &["--shard", &format!("{k}/3")]);
            part
        })
        .collect();
    let out = s.path("m.csv");
    merged(&[&parts[2], &parts[0], &parts[1], "-o", &out]);
    assert_eq!(csv(&out), csv(&whole_csv));
    // Into Parquet: the kept columns keep their types.
    let (whole, out) = (s.path("whole.parquet"), s.path("m.parquet"));
    solve(&whole, &[]);
    merged(&[&parts[2], &parts[0], &parts[1], "-o", &out]);
    assert_same_parquet(&out, &whole);
    let kept = parquet(&out);
    assert_eq!(
        kept.schema().field_with_name("rating").unwrap().data_type(),
        &arrow_schema::DataType::Int64
    );
}

#[test]
fn json_numbers_kept_from_json_lines_come_back_from_parquet_shards_in_their_shortest_form() {
    let s = Scratch::new();
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let text: String = (0..6)
        .map(|i| {
            format!(
                "{{\"puzzle\":\"{p}\",\"score\":1.50,\"e\":1e3,\"big\":12345678901234567890123,\
                 \"n\":{i},\"flag\":true,\"obj\":{{\"a\": [1, \"x\"]}}}}\n"
            )
        })
        .collect();
    let input = s.file("in.jsonl", text.as_bytes());
    let solve = |out: &str, extra: &[&str]| {
        let mut args = vec![input.as_str(), "-o", out, "--keep-all"];
        args.extend(extra);
        let output = run("solve", &args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    };
    let whole_csv = s.path("whole.csv");
    solve(&whole_csv, &[]);
    let parts: Vec<String> = (1..=2)
        .map(|k| {
            let part = s.path(&format!("r{k}.parquet"));
            solve(&part, &["--shard", &format!("{k}/2")]);
            part
        })
        .collect();
    let out = s.path("m.csv");
    merged(&[&parts[0], &parts[1], "-o", &out]);
    // Parquet holds the two float columns as doubles: their values, not
    // the digits the input wrote. Everything else is as the CSV.
    let whole = csv(&whole_csv);
    assert!(
        whole.contains(",1.50,1e3,12345678901234567890123,"),
        "{whole}"
    );
    let shortest = whole.replace(",1.50,1e3,", ",1.5,1000.0,");
    assert_eq!(csv(&out), shortest);
}
