//! 9x9 output byte for byte as before grids of every size were supported:
//! the first 40 records of every shipped 9x9 corpus of `data/`, results
//! CSV in unique mode and JSON Lines in first mode, against the files in
//! `tests/golden/nine/`. Those were written by the last build before the
//! sizes work (`solve FILE --limit 40 -j 2`, and `--first`), with the
//! `solve_us` values blanked; the rest of every row must come out the same
//! bytes (the columns, their order, the statuses, solutions, guess counts,
//! checks and messages, CSV quoting and JSON layout).

use crate::common::{code, repo, solve, without_json_timing};

/// The shipped 9x9 corpora: text lines, CSV, JSON Lines and Parquet.
const CORPORA: [&str; 11] = [
    "17_clue_10000.txt",
    "forum_hardest_2000.txt",
    "magictour_top1465.txt",
    "top95.txt",
    "kaggle1m_10000.csv",
    "semicolon_excel_200.csv",
    "sudoku_extreme_style_500.csv",
    "puzzles_200.jsonl",
    "flat_list_1000.parquet",
    "nested_grid_1000.parquet",
    "ritvik_style_5000.parquet",
];

/// A results CSV with every row's `solve_us` (the sixth field) blank. The
/// five fields before it (line, puzzle, status, solution, guesses) never
/// hold a comma or a quote in 9x9 results, so the field is found by
/// counting commas.
fn blank_csv_times(text: &str) -> String {
    let mut lines = text.split('\n');
    let header = lines.next().unwrap_or_default();
    assert!(
        header.starts_with("line,puzzle,status,solution,guesses,solve_us,"),
        "header: {header}"
    );
    let mut out = vec![header.to_string()];
    for line in lines {
        let mut fields: Vec<&str> = line.splitn(7, ',').collect();
        if fields.len() == 7 {
            fields[5] = "";
        }
        out.push(fields.join(","));
    }
    out.join("\n")
}

/// Solves the first 40 records of `corpus` with `extra` options into
/// `name` and returns the output file's text.
fn results(corpus: &str, extra: &[&str], name: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join(name);
    let input = repo(&format!("data/{corpus}"));
    let out_path = out.to_string_lossy().into_owned();
    let mut args = vec![input.as_str(), "--limit", "40", "-j", "2", "-o", &out_path];
    args.extend_from_slice(extra);
    let output = solve(&args);
    assert_eq!(code(&output), 0, "{corpus} {extra:?}");
    std::fs::read_to_string(&out).expect("the results file")
}

/// The golden file `tests/golden/nine/NAME`.
fn golden(name: &str) -> String {
    let path = repo(&format!("tests/golden/nine/{name}"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The first line where two texts differ, for the failure message.
fn first_difference(got: &str, want: &str) -> String {
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        if g != w {
            return format!("line {}:\n got: {g}\nwant: {w}", i + 1);
        }
    }
    format!(
        "{} lines against {}",
        got.lines().count(),
        want.lines().count()
    )
}

#[test]
fn csv_unique_rows_are_the_bytes_written_before_sizes() {
    for corpus in CORPORA {
        let stem = corpus.rsplit_once('.').map_or(corpus, |(stem, _)| stem);
        let got = blank_csv_times(&results(corpus, &[], "results.csv"));
        let want = golden(&format!("{stem}.unique.csv"));
        assert!(got == want, "{corpus}: {}", first_difference(&got, &want));
    }
}

#[test]
fn jsonl_first_rows_are_the_bytes_written_before_sizes() {
    for corpus in CORPORA {
        let stem = corpus.rsplit_once('.').map_or(corpus, |(stem, _)| stem);
        let got = without_json_timing(&results(corpus, &["--first"], "results.jsonl"));
        let want = golden(&format!("{stem}.first.jsonl"));
        assert!(got == want, "{corpus}: {}", first_difference(&got, &want));
    }
}

#[test]
fn blanking_touches_the_times_only() {
    let csv = "line,puzzle,status,solution,guesses,solve_us,check,message\n\
               1,12,malformed,,,,,\"a, b\"\n2,.1,solved,21,3,4.5,ok,\n";
    assert_eq!(
        blank_csv_times(csv),
        "line,puzzle,status,solution,guesses,solve_us,check,message\n\
         1,12,malformed,,,,,\"a, b\"\n2,.1,solved,21,3,,ok,\n"
    );
    let json = "{\"guesses\":3,\"solve_us\":12.5,\"check\":\"ok\"}\n{\"solve_us\":null}\n";
    assert_eq!(
        without_json_timing(json),
        "{\"guesses\":3,\"solve_us\":null,\"check\":\"ok\"}\n{\"solve_us\":null}\n"
    );
}
