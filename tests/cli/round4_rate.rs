//! Issue 41 kind 4, "Ratings are results like any other", and issue 43's
//! rating distribution in the summary: `rate --resume` and `merge` read
//! `rate`'s rows back, ratings in Parquet with typed columns, a puzzle
//! with several solutions never rated, `--timeout-ms` bounding the
//! rating, the tool's messages never cut, and the `ratings` summary.
//! Cases `r4-30-rate-misc.txt` and `r4-34-rate-first.txt` (copied from the
//! shared cases, see `tests/cases/CASES.md`) and "(no file) `rate` then
//! `--resume`".

use std::fs::File;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::*;

/// Two puzzles whose ratings need dynamic forcing chains (9.0 and 8.9,
/// serate's ratings): tens of milliseconds of rating each, microseconds
/// of solving.
const HARD: &str = "8..1..7......9...17...3.9..6.2...8...8.2.6..3..3..1..2.34....5....96....5........\n\
                    ..3...........249.5...8...6...2..7.9..1.4.....7.1.9....4.7..2...1....9..6...2...4\n";

/// `r4-30-rate-misc.txt` without its line 2, which the rater now rates
/// with nested forcing chains (seconds in a debug build): the case's other
/// 14 records, every kind of row, in `scratch`.
fn misc(scratch: &Scratch) -> String {
    let text = std::fs::read_to_string(case("r4-30-rate-misc.txt")).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != 1)
        .map(|(_, l)| l)
        .collect();
    scratch.file("misc.txt", format!("{}\n", kept.join("\n")).as_bytes())
}

/// Runs `sudoku-batch SUBCOMMAND ARGS --quiet`.
fn run(subcommand: &str, args: &[&str]) -> std::process::Output {
    bin()
        .arg(subcommand)
        .args(args)
        .arg("--quiet")
        .output()
        .expect("the binary runs")
}

/// The first `rows` rows of `text` (header included), then `torn` bytes
/// of the next: a file an interrupted run left.
fn cut(text: &str, rows: usize, torn: usize) -> String {
    let ends: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
    let end = ends[rows];
    let next = ends.get(rows + 1).copied().unwrap_or(end);
    text[..(end + torn).min(next.saturating_sub(1))].to_string()
}

#[test]
fn rate_resume_appends_the_rest_byte_identical_to_a_whole_run() {
    let scratch = Scratch::new();
    let input = misc(&scratch);
    for extra in [&[][..], &["--first"][..], &["-j", "1"][..]] {
        let whole = scratch.path("whole.csv");
        let mut args = vec![input.as_str(), "-o", whole.as_str()];
        args.extend(extra);
        assert_eq!(code(&run("rate", &args)), 1, "an invalid puzzle among them");
        let full = read_output(&whole);
        let rows = full.lines().count() - 1;
        assert_eq!(rows, 14);
        for (kept, torn) in [(0, 0), (1, 0), (6, 0), (6, 20), (2, 90), (13, 3), (14, 0)] {
            let resumed = scratch.file("resumed.csv", cut(&full, kept, torn).as_bytes());
            let mut args = vec![input.as_str(), "-o", resumed.as_str(), "--resume"];
            args.extend(extra);
            let output = run("rate", &args);
            assert_eq!(code(&output), 1, "{kept} rows kept: {}", stderr(&output));
            assert_eq!(
                read_output(&resumed),
                full,
                "{extra:?}: {kept} rows and {torn} bytes kept"
            );
        }
    }
}

#[test]
fn rate_resume_leaves_the_times_and_guesses_it_cannot_know_null() {
    // trial56 F1-1: the kept rows, which carry neither, were counted as 0
    // guesses and 0 us.
    let scratch = Scratch::new();
    let input = misc(&scratch);
    let (whole, whole_json) = (scratch.path("whole.csv"), scratch.path("whole.json"));
    let output = run(
        "rate",
        &[&input, "-o", &whole, "--summary-json", &whole_json],
    );
    assert_eq!(code(&output), 1);
    let summary =
        |path: &str| -> serde_json::Value { serde_json::from_str(&read_output(path)).unwrap() };
    assert!(summary(&whole_json)["guesses"]["total"].as_u64().unwrap() > 0);
    let full = read_output(&whole);
    let (resumed, json) = (
        scratch.file("resumed.csv", cut(&full, 6, 0).as_bytes()),
        scratch.path("resumed.json"),
    );
    let output = bin()
        .args([
            "rate",
            &input,
            "-o",
            &resumed,
            "--resume",
            "--summary-json",
            &json,
        ])
        .output()
        .unwrap();
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(read_output(&resumed), full);
    let (whole, resumed) = (summary(&whole_json), summary(&json));
    for key in ["guesses", "solve_us", "solve_cpu_s"] {
        assert!(resumed[key].is_null(), "{key}: {}", resumed[key]);
    }
    for key in ["puzzles", "solved", "invalid", "ratings"] {
        assert_eq!(resumed[key], whole[key], "{key}");
    }
    assert!(
        stderr(&output).contains("solve time, guesses: not known"),
        "{}",
        stderr(&output)
    );
    // Nothing kept: the run's own figures.
    let fresh = scratch.file("fresh.csv", b"");
    let output = run(
        "rate",
        &[&input, "-o", &fresh, "--resume", "--summary-json", &json],
    );
    assert_eq!(code(&output), 1);
    assert_eq!(summary(&json)["guesses"], whole["guesses"]);
}

#[test]
fn rate_resume_refuses_a_file_of_another_limit_or_another_table() {
    let scratch = Scratch::new();
    let input = scratch.file("hard.txt", HARD.as_bytes());
    let limited = scratch.path("limited.csv");
    run("rate", &[&input, "-o", &limited, "--timeout-ms", "2"]);
    let text = read_output(&limited);
    assert!(text.contains("exceeded while rating"), "{text}");
    let refused = run("rate", &[&input, "-o", &limited, "--resume"]);
    assert_eq!(code(&refused), 2);
    assert!(
        stderr(&refused).contains("time limit of 2 ms"),
        "{}",
        stderr(&refused)
    );
    // `solve`'s results are not `rate`'s: the header says so.
    let solved = scratch.path("solved.csv");
    run("solve", &[&input, "-o", &solved]);
    std::fs::write(&solved, cut(&read_output(&solved), 1, 0)).unwrap();
    let refused = run("rate", &[&input, "-o", &solved, "--resume"]);
    assert_eq!(code(&refused), 2);
    assert!(stderr(&refused).contains("header"), "{}", stderr(&refused));
}

#[test]
fn merge_joins_rated_shards_into_the_whole_run_and_its_ratings() {
    let scratch = Scratch::new();
    let input = misc(&scratch);
    let (whole, whole_json) = (scratch.path("whole.csv"), scratch.path("whole.json"));
    run(
        "rate",
        &[&input, "-o", &whole, "--summary-json", &whole_json],
    );
    let mut shards = vec![];
    for k in 1..=3 {
        let shard = scratch.path(&format!("shard{k}.csv"));
        let which = format!("{k}/3");
        run("rate", &[&input, "--shard", &which, "-o", &shard]);
        shards.push(shard);
    }
    let (merged, merged_json) = (scratch.path("merged.csv"), scratch.path("merged.json"));
    let output = run(
        "merge",
        &[
            &shards[2],
            &shards[0],
            &shards[1],
            "-o",
            &merged,
            "--summary-json",
            &merged_json,
        ],
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read_output(&merged), read_output(&whole));
    let json = |path: &str| -> serde_json::Value {
        serde_json::from_str(&read_output(path)).expect("a JSON summary")
    };
    let (merged, whole) = (json(&merged_json), json(&whole_json));
    assert_eq!(merged["ratings"], whole["ratings"]);
    assert_eq!(merged["ratings"]["bands"]["1.0-1.9"], 2, "{merged}");
    assert_eq!(merged["solved"], whole["solved"]);
}

/// The batches of a Parquet file.
fn parquet(path: &str) -> Vec<RecordBatch> {
    let file = File::open(path).expect("the Parquet file exists");
    ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("a valid Parquet footer")
        .build()
        .expect("a reader")
        .map(|b| b.expect("a readable row group"))
        .collect()
}

/// A Parquet column as text fields, as the CSV writes them (empty for
/// null): ratings with one decimal.
fn parquet_fields(batch: &RecordBatch, name: &str) -> Vec<String> {
    let column = batch.column_by_name(name).expect("the column");
    (0..batch.num_rows())
        .map(|i| {
            if column.is_null(i) {
                return String::new();
            }
            match column.data_type() {
                DataType::Float64 => {
                    format!("{:.1}", column.as_primitive::<Float64Type>().value(i))
                }
                DataType::UInt64 => column.as_primitive::<UInt64Type>().value(i).to_string(),
                _ => column.as_string::<i32>().value(i).to_string(),
            }
        })
        .collect()
}

#[test]
fn ratings_are_written_to_parquet_with_typed_columns() {
    let scratch = Scratch::new();
    let input = misc(&scratch);
    for (subcommand, extra, columns) in [
        (
            "rate",
            None,
            "line,puzzle,rating,hardest,steps,status,message",
        ),
        (
            "solve",
            Some("--rate"),
            "line,puzzle,status,solution,guesses,solve_us,check,message,rating,hardest",
        ),
    ] {
        let (csv, pq) = (scratch.path("r.csv"), scratch.path("r.parquet"));
        for out in [&csv, &pq] {
            let mut args = vec![input.as_str(), "-o", out.as_str()];
            args.extend(extra);
            let output = run(subcommand, &args);
            assert_eq!(
                code(&output),
                1,
                "{subcommand} -o {out}: {}",
                stderr(&output)
            );
        }
        let batches = parquet(&pq);
        let schema = batches[0].schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names.join(","), columns);
        let typed = |name: &str| schema.field_with_name(name).unwrap().data_type().clone();
        assert_eq!(typed("rating"), DataType::Float64);
        assert_eq!(typed("hardest"), DataType::Utf8);
        if subcommand == "rate" {
            assert_eq!(typed("steps"), DataType::UInt64);
        }
        let (_, rows) = csv_table(&read_output(&csv));
        for name in ["rating", "hardest", "status", "message"]
            .into_iter()
            .chain((subcommand == "rate").then_some("steps"))
        {
            let from_parquet: Vec<String> = batches
                .iter()
                .flat_map(|b| parquet_fields(b, name))
                .collect();
            let from_csv: Vec<String> = rows.iter().map(|r| r[name].clone()).collect();
            assert_eq!(from_parquet, from_csv, "{subcommand}: column {name}");
        }
        assert!(rows.iter().any(|r| r["rating"] == "3.4"), "a rated row");
    }
}

#[test]
fn a_puzzle_with_several_solutions_is_never_rated() {
    let input = case("r4-34-rate-first.txt");
    for (subcommand, extra) in [
        ("rate", &["--first"][..]),
        ("rate", &[][..]),
        ("solve", &["--rate", "--first"][..]),
    ] {
        let mut args = vec![input.as_str()];
        args.extend(extra);
        let output = run(subcommand, &args);
        assert_eq!(code(&output), 1, "{}", stderr(&output));
        let (_, rows) = csv_table(&stdout(&output));
        assert_eq!(rows.len(), 4);
        // 10,106 solutions, and the empty grid: `multiple`, saying why.
        for row in &rows[..2] {
            assert_eq!(row["status"], "multiple", "{subcommand} {extra:?}: {row:?}");
            assert!(
                row["rating"].is_empty() && row["hardest"].is_empty(),
                "{row:?}"
            );
            assert!(
                row["message"].contains("in one solution and")
                    && (!extra.contains(&"--first")
                        || row["message"].contains("several solutions, so not rated")),
                "{subcommand} {extra:?}: {row:?}"
            );
        }
        // Near-complete grids with one solution are rated.
        for row in &rows[2..] {
            assert_eq!(row["status"], "solved", "{row:?}");
            assert_eq!(row["rating"], "1.0", "{row:?}");
        }
    }
}

#[test]
fn the_time_limit_bounds_the_rating() {
    let scratch = Scratch::new();
    let input = scratch.file("hard.txt", HARD.as_bytes());
    for (subcommand, extra) in [("rate", None), ("solve", Some("--rate"))] {
        let mut args = vec![input.as_str(), "--timeout-ms", "2", "-j", "1"];
        args.extend(extra);
        let output = run(subcommand, &args);
        assert_eq!(code(&output), 1, "{}", stderr(&output));
        let (_, rows) = csv_table(&stdout(&output));
        for row in &rows {
            assert_eq!(row["status"], "timeout", "{subcommand}: {row:?}");
            assert!(row["rating"].is_empty(), "{row:?}");
            // The solve takes microseconds: the rating is what ran out.
            assert!(
                row["message"].starts_with("time limit 2 ms exceeded while rating"),
                "{subcommand}: {row:?}"
            );
        }
        // With room, the same puzzles are rated as serate rates them.
        let roomy = run(
            subcommand,
            &[&input, "--timeout-ms", "60000", "-j", "1"]
                .into_iter()
                .chain(extra)
                .collect::<Vec<_>>(),
        );
        let (_, rows) = csv_table(&stdout(&roomy));
        let ratings: Vec<&str> = rows.iter().map(|r| r["rating"].as_str()).collect();
        assert_eq!(ratings, ["9.0", "8.9"], "{subcommand}");
    }
}

#[test]
fn the_tools_own_messages_are_never_cut() {
    // The message of a puzzle with several solutions under --first runs
    // past 80 characters, where messages were cut (`hardest s...`).
    let input = case("r4-34-rate-first.txt");
    let csv = run("rate", &[&input, "--first"]);
    let (_, rows) = csv_table(&stdout(&csv));
    let message = rows[0]["message"].clone();
    assert!(message.chars().count() > 80, "{message}");
    assert!(
        message.ends_with("(a rating needs exactly one; the rating checks it under --first too)"),
        "{message}"
    );
    let jsonl = run("rate", &[&input, "--first", "--output-format", "jsonl"]);
    let line = stdout(&jsonl).lines().next().unwrap().to_string();
    let value: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(value["message"], message.as_str());
    let solved = run("solve", &[&input, "--rate", "--first"]);
    let (_, rows) = csv_table(&stdout(&solved));
    assert_eq!(rows[0]["message"], message);
    // `solve --rate` says why a solved puzzle's rating is empty.
    let scratch = Scratch::new();
    let solved = run("solve", &[&misc(&scratch), "--rate"]);
    let (_, rows) = csv_table(&stdout(&solved));
    assert!(rows
        .iter()
        .any(|r| r["message"] == "not rated: the rater is for 9x9 grids only"));
}

#[test]
fn the_summary_counts_ratings_by_band_and_hardest_technique() {
    let scratch = Scratch::new();
    let input = misc(&scratch);
    for (subcommand, extra) in [("rate", None), ("solve", Some("--rate")), ("solve", None)] {
        let json = scratch.path("s.json");
        let mut args = vec![input.as_str(), "--summary-json", json.as_str()];
        args.extend(extra);
        let output = bin().arg(subcommand).args(&args).output().unwrap();
        assert_eq!(code(&output), 1, "{}", stderr(&output));
        let summary: serde_json::Value = serde_json::from_str(&read_output(&json)).unwrap();
        let report = stderr(&output);
        if extra.is_none() && subcommand == "solve" {
            assert_eq!(summary["ratings"], serde_json::Value::Null);
            assert!(!report.contains("ratings:"), "{report}");
            continue;
        }
        let (_, rows) = csv_table(&stdout(&output));
        let ratings = summary["ratings"].as_object().expect("a ratings object");
        assert_eq!(ratings.keys().collect::<Vec<_>>(), ["bands", "hardest"]);
        let bands = ratings["bands"].as_object().unwrap();
        let rated = rows.iter().filter(|r| !r["rating"].is_empty()).count() as u64;
        let sum: u64 = bands
            .values()
            .map(|n| n.as_u64().expect("an integer"))
            .sum();
        assert_eq!(sum, rated, "{subcommand}: {bands:?}");
        for (band, count) in bands {
            let (lo, hi) = band.split_once('-').expect("LO-HI");
            let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
            let inside = rows
                .iter()
                .filter_map(|r| r["rating"].parse::<f64>().ok())
                .filter(|r| (lo..=hi).contains(r))
                .count() as u64;
            assert_eq!(count.as_u64(), Some(inside), "{band}");
        }
        assert!(bands.contains_key("1.0-1.9") && bands.contains_key("11.0-11.9"));
        let hardest = ratings["hardest"].as_object().unwrap();
        for (name, count) in hardest {
            let rows_with = rows.iter().filter(|r| &r["hardest"] == name).count() as u64;
            assert_eq!(count.as_u64(), Some(rows_with), "{name}");
        }
        assert_eq!(hardest["Hidden Single"], 2);
        assert!(
            report.contains(&format!(
                "ratings: {rated} rated; by band: 0.0-0.9 1, 1.0-1.9 2"
            )),
            "{report}"
        );
        assert!(
            report.contains("hardest technique: Hidden Single 2, Hidden Pair 1"),
            "{report}"
        );
    }
}

#[test]
fn a_nine_by_nine_with_other_boxes_says_exactly_why_it_is_not_rated() {
    // Made with 1x9 and 9x1 boxes (unique under them), read back with
    // them: solved, and not rated because the rater knows 3x3 boxes only,
    // by `rate` and `solve --rate`, in CSV and JSON Lines.
    let scratch = Scratch::new();
    for shape in ["1x9", "9x1"] {
        let made = scratch.path(&format!("{shape}.csv"));
        let output = run(
            "generate",
            &["-n", "2", "--size", "9", "--box", shape, "-o", &made],
        );
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let why = format!(
            "not rated: the rater knows 3x3 boxes only, and this 9x9 grid was solved with \
             {shape} boxes (--box {shape})"
        );
        for subcommand in ["rate", "solve"] {
            let mut args = vec![made.as_str(), "--box", shape];
            if subcommand == "solve" {
                args.push("--rate");
            }
            let output = run(subcommand, &args);
            let (_, rows) = csv_table(&stdout(&output));
            assert_eq!(rows.len(), 2, "{}", stderr(&output));
            for row in &rows {
                assert_eq!(row["status"], "solved", "{row:?}");
                assert_eq!(row["message"], why, "{subcommand}: {row:?}");
                assert_eq!(row["rating"], "", "{row:?}");
            }
            args.extend(["--output-format", "jsonl"]);
            let output = run(subcommand, &args);
            for line in stdout(&output).lines() {
                let value: serde_json::Value = serde_json::from_str(line).unwrap();
                assert_eq!(value["message"], why.as_str(), "{value}");
            }
        }
    }
}
