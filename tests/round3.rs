//! "Nothing lost", round 3: the real binary on the kinds of fault of the
//! round 3 cases (`tests/cases/CASES.md`) but kept columns (`tests/kept.rs`):
//! options never silently ignored, binary data refused whatever `--format`
//! says, every reader taking gzip and zstd and naming what it does not
//! read, `merge` safe, bounded sizes, figures that were not measured.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::*;

/// A puzzle with one solution, [`S`].
const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
/// The solution of [`P`].
const S: &str = "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

/// Runs `sudoku-batch ARGS` (no `--quiet` added).
fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Asserts exit 2 with `needle` in stderr.
fn refused(output: &Output, needle: &str) {
    assert_eq!(code(output), 2, "stderr: {}", stderr(output));
    assert!(
        stderr(output).contains(needle),
        "wanted {needle:?} in: {}",
        stderr(output)
    );
}

fn zstd_file(s: &Scratch, name: &str, bytes: &[u8]) -> String {
    s.file(name, &zstd::encode_all(bytes, 1).unwrap())
}

// ---- 2: an option is never silently ignored --------------------------------

#[test]
fn r3_08_keep_on_grids_is_refused_before_any_output() {
    let s = Scratch::new();
    let grid = case("r3-08-grid.txt");
    let out = s.path("r.csv");
    for keep in [&["--keep", "no_such_column,field7"][..], &["--keep-all"]] {
        let mut args = vec!["solve", "--format", "grid", &grid, "-o", &out];
        args.extend(keep);
        refused(&run(&args), "grids (--format grid) have none");
        assert!(!Path::new(&out).exists(), "{keep:?} wrote {out}");
    }
    let output = run(&[
        "solve", "--format", "grid", &grid, "--column", "2", "-o", &out,
    ]);
    refused(&output, "--column");
    // Without them the grid solves.
    let output = run(&["solve", "--format", "grid", &grid, "-o", &out, "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
}

#[test]
fn an_option_for_no_input_is_refused_and_one_for_some_is_used_there() {
    let s = Scratch::new();
    let text = s.file("p.txt", format!("{P}\n").as_bytes());
    let json = s.file("p.jsonl", format!("{{\"puzzle\":\"{P}\"}}\n").as_bytes());
    let out = s.path("r.csv");
    // --delimiter when no input is CSV.
    let output = run(&["solve", &text, &json, "--delimiter", ";", "-o", &out]);
    refused(&output, "--delimiter");
    assert!(!Path::new(&out).exists());
    // With a CSV input among them it is used for that one.
    let semi = s.file("p.csv", format!("id;puzzle\n7;{P}\n").as_bytes());
    let output = run(&[
        "solve",
        &json,
        &semi,
        "--delimiter",
        ";",
        "--keep",
        "puzzle",
        "-o",
        &out,
        "--quiet",
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read_output(&out).lines().count(), 3);
    // --column N past a CSV header's or a JSON object's fields.
    let csv = s.file("h.csv", format!("id,puzzle\n1,{P}\n").as_bytes());
    refused(&run(&["solve", &csv, "--column", "5", "-o", &out]), "'5'");
    refused(&run(&["solve", &json, "--column", "3", "-o", &out]), "'3'");
    // merge: --format, --column and --delimiter are for --inputs.
    let results = s.path("one.csv");
    assert_eq!(code(&run(&["solve", &text, "-o", &results, "--quiet"])), 0);
    for flag in [
        &["--format", "csv"][..],
        &["--column", "2"],
        &["--delimiter", ";"],
    ] {
        let mut args = vec!["merge", &results, "-o", &out];
        args.extend(flag);
        refused(&run(&args), flag[0]);
    }
    // bench: --cmd-blank and --cmd-timeout-s are for --cmd solvers.
    for flag in [&["--cmd-blank", "0"][..], &["--cmd-timeout-s", "5"]] {
        let mut args = vec!["bench", &text, "--time-s", "0.01", "--warmup-s", "0.01"];
        args.extend(flag);
        refused(&run(&args), "--cmd");
    }
}

// ---- 7: binary data refused, every reader reads gzip and zstd -------------

#[test]
fn a_parquet_file_is_refused_whatever_format_says() {
    let s = Scratch::new();
    let parquet = case("r3-05-keep-typed-columns.parquet");
    for format in ["csv", "lines", "jsonl", "grid"] {
        let out = s.path(&format!("{format}.csv"));
        let output = run(&["solve", &parquet, "--format", format, "-o", &out]);
        refused(&output, "Parquet");
        assert!(!Path::new(&out).exists(), "--format {format}");
    }
    // canon and augment read inputs the same way.
    let output = run(&["canon", &parquet, "--format", "csv", "-o", &s.path("c.csv")]);
    refused(&output, "Parquet");
}

#[test]
fn every_reader_reads_gzip_and_zstd_and_names_the_formats_it_does_not_read() {
    let s = Scratch::new();
    let input = s.file("in.txt", format!("{P}\n{P}\n").as_bytes());
    let solutions = format!("{S}\n{S}\n");
    // --solutions, zstd-compressed by name and by content.
    for name in ["sol.txt.zst", "sol.bin"] {
        let path = zstd_file(&s, name, solutions.as_bytes());
        let output = run(&[
            "solve",
            &input,
            "--solutions",
            &path,
            "-o",
            &s.path("r.csv"),
            "--quiet",
        ]);
        assert_eq!(code(&output), 0, "{name}: {}", stderr(&output));
        assert_eq!(read_output(s.path("r.csv")).matches(",ok,").count(), 2);
    }
    // check --baseline: a zstd results CSV and a gzip summary.
    let base = s.path("base.csv");
    let summary = s.path("base.json");
    let output = run(&[
        "solve",
        &input,
        "-o",
        &base,
        "--summary-json",
        &summary,
        "--quiet",
    ]);
    assert_eq!(code(&output), 0);
    let zst = zstd_file(&s, "base.csv.zst", &fs::read(&base).unwrap());
    let gz = s.gzip("base.json.gz", &fs::read(&summary).unwrap());
    for baseline in [&zst, &gz] {
        let output = run(&[
            "check",
            &input,
            "--baseline",
            baseline,
            "-o",
            "/dev/null",
            "--quiet",
        ]);
        assert_eq!(code(&output), 0, "{baseline}: {}", stderr(&output));
    }
    // merge: zstd parts.
    let merged = s.path("m.csv");
    let output = run(&["merge", &zst, "-o", &merged, "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read_output(&merged), read_output(&base));
    // canon --against: zstd.
    let output = run(&[
        "canon",
        &input,
        "--against",
        &zst,
        "-o",
        &s.path("c.csv"),
        "--quiet",
    ]);
    assert_eq!(code(&output), 1, "both records leak: {}", stderr(&output));

    // Parquet and JSON Lines results: refused by name where CSV is read.
    let (pq, jl) = (s.path("base.parquet"), s.path("base.jsonl"));
    for out in [&pq, &jl] {
        assert_eq!(code(&run(&["solve", &input, "-o", out, "--quiet"])), 0);
    }
    let copy = s.path("base-jsonl.txt");
    fs::copy(&jl, &copy).unwrap();
    for (file, what) in [(&pq, "Parquet"), (&jl, "JSON Lines"), (&copy, "JSON Lines")] {
        let check = run(&["check", &input, "--baseline", file, "-o", "/dev/null"]);
        refused(&check, what);
        refused(&run(&["merge", file, "-o", &merged]), what);
        let solve = run(&["solve", &input, "--solutions", file, "-o", &s.path("x.csv")]);
        refused(&solve, what);
    }
}
