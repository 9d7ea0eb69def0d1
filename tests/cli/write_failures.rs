//! Runs whose results cannot be written whole (a full disk): made to fail
//! at a given size without root by a file size limit (`ulimit -f`, in
//! 512-byte blocks: the binary ignores SIGXFSZ itself, so that write(2)
//! returns EFBIG), or by `/dev/full`. Each must exit 2 with one message naming the file,
//! the cause and what the file holds; a summary must not pass for a whole
//! run's; a Parquet file keeps its row groups written whole, readable.

#![cfg(unix)]

use std::fs::File;
use std::process::Output;

use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::{self, code, repo, stderr, Scratch};
use crate::resume_parquet::partials;

/// Runs `sudoku-batch ARGS` with files limited to `blocks` 512-byte
/// blocks, from a shell as a user's: SIGXFSZ at its default action, which
/// ended the process (exit 153, no message) until the binary ignored it.
fn limited(blocks: u32, args: &[&str]) -> Output {
    common::limited(&format!("trap - XFSZ; ulimit -f {blocks}"), args)
}

/// The one error line of a failed run, checked to name `path` and the
/// cause.
fn error_line(output: &Output, path: &str) -> String {
    assert_eq!(code(output), 2, "{}", stderr(output));
    let err = stderr(output);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one message: {err}");
    assert!(
        lines[0].starts_with(&format!(
            "sudoku-batch: error: writing results to {path}: File too large"
        )),
        "{err}"
    );
    lines[0].to_string()
}

/// The number in `message` after `before` (`holds its first N rows`).
fn number_after(message: &str, before: &str) -> u64 {
    let at = message
        .find(before)
        .unwrap_or_else(|| panic!("{before:?} in {message}"));
    message[at + before.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a number after {before:?} in {message}"))
}

fn summary(path: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the summary")).expect("JSON")
}

#[test]
fn text_results_cut_short_say_how_many_rows_they_hold_and_csv_resumes() {
    let input = repo("data/kaggle1m_10000.csv");
    for name in ["r.csv", "r.jsonl"] {
        let s = Scratch::new();
        let (out, json) = (s.path(name), s.path("s.json"));
        std::fs::write(&out, "the previous results\n").unwrap();
        let args = [
            "solve",
            &input,
            "-o",
            &out,
            "--summary-json",
            &json,
            "--quiet",
        ];
        let output = limited(40, &args);
        let message = error_line(&output, &out);
        let rows = number_after(&message, &format!("{out} holds its first "));
        assert!(message.ends_with("rows, then a row cut short"), "{message}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(text.len(), 40 * 512, "cut at the limit");
        let header = u64::from(name.ends_with(".csv"));
        assert_eq!(
            text.matches('\n').count() as u64,
            header + rows,
            "{message}"
        );
        // The summary says the run failed and how, and counts no row that
        // is not in the file.
        let summary = summary(&json);
        assert_eq!(summary["error"], message["sudoku-batch: error: ".len()..]);
        assert!(summary["puzzles"].as_u64().unwrap() <= rows, "{summary}");
        if header == 1 {
            // --resume drops the row cut short and finishes the file.
            let args = ["solve", &input, "-o", &out, "--resume", "--quiet"];
            let resumed = crate::common::bin().args(args).output().unwrap();
            assert_eq!(code(&resumed), 0, "{}", stderr(&resumed));
            let text = std::fs::read_to_string(&out).unwrap();
            assert_eq!(text.lines().count(), 10_001);
        }
    }
}

#[test]
fn compressed_results_cut_short_say_so() {
    let input = repo("data/kaggle1m_10000.csv");
    let s = Scratch::new();
    let out = s.path("r.csv.gz");
    // A gzip member a chunk of 2,048 rows: about 100 KB.
    let output = limited(600, &["solve", &input, "-o", &out, "--quiet"]);
    let message = error_line(&output, &out);
    let rows = number_after(&message, &format!("{out} holds its first "));
    assert!(
        message.ends_with("rows in whole gzip members, and maybe a member cut short"),
        "{message}"
    );
    assert!(rows > 0, "{message}");
    let resumed = crate::common::bin()
        .args(["solve", &input, "-o", &out, "--resume", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&resumed), 0, "{}", stderr(&resumed));
    assert_eq!(crate::common::read_output(&out).lines().count(), 10_001);

    let out = s.path("r.jsonl.zst");
    let output = limited(200, &["solve", &input, "-o", &out, "--quiet"]);
    let message = error_line(&output, &out);
    assert!(
        message.ends_with(&format!(
            "{out} holds a zstd stream cut short (`zstd -dc` reads the rows before the cut)"
        )),
        "{message}"
    );
}

/// The rows of a Parquet file, read by arrow-rs (its footer first).
fn parquet_rows(path: &str) -> usize {
    let file = File::open(path).expect("the Parquet file");
    ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("a readable Parquet file: its footer")
        .build()
        .expect("a reader")
        .map(|batch| batch.expect("a readable row group").num_rows())
        .sum()
}

#[test]
fn parquet_results_cut_short_keep_their_whole_row_groups_readable() {
    let s = Scratch::new();
    // 50,000 easy records: one row group of 32,768 written whole, the
    // second cut by the limit (the first is about 5.9 MB).
    let kaggle = std::fs::read_to_string(repo("data/kaggle1m_10000.csv")).unwrap();
    let (header, rows) = kaggle.split_once('\n').unwrap();
    let input = s.file("k.csv", format!("{header}\n{}", rows.repeat(5)).as_bytes());
    let (out, json) = (s.path("r.parquet"), s.path("s.json"));
    let args = [
        "solve",
        &input,
        "-o",
        &out,
        "--summary-json",
        &json,
        "--quiet",
    ];
    let message = error_line(&limited(13_000, &args), &out);
    assert!(
        message.ends_with(&format!(
            "{out} holds its first 32768 rows, readable (cut after the 1 row group written \
             whole before the failure, and given their footer)"
        )),
        "{message}"
    );
    assert_eq!(parquet_rows(&out), 32_768);
    // The summary counts the rows the file holds, read back from it, not
    // the 50,000 handed to the writer.
    let cut = summary(&json);
    assert_eq!(cut["error"], message["sudoku-batch: error: ".len()..]);
    assert_eq!(
        (&cut["puzzles"], &cut["solved"]),
        (&32_768.into(), &32_768.into())
    );

    // Cut before any row group: an empty table, readable all the same.
    let message = error_line(&limited(2, &args), &out);
    assert!(
        message.contains(&format!("{out} holds its first 0 rows, readable")),
        "{message}"
    );
    assert_eq!(parquet_rows(&out), 0);
    assert_eq!(summary(&json)["puzzles"], 0);
}

#[test]
fn a_resumed_parquet_file_cut_short_keeps_every_old_row_and_resumes_again() {
    let s = Scratch::new();
    // 70,000 easy records; the first run keeps one row group of 32,768.
    let kaggle = std::fs::read_to_string(repo("data/kaggle1m_10000.csv")).unwrap();
    let (header, rows) = kaggle.split_once('\n').unwrap();
    let input = s.file("k.csv", format!("{header}\n{}", rows.repeat(7)).as_bytes());
    let (out, json) = (s.path("r.parquet"), s.path("s.json"));
    let args = ["solve", &input, "-o", &out, "--quiet"];
    error_line(&limited(13_000, &args), &out);
    let before = std::fs::read(&out).unwrap();

    // No room for even the old row group beside it: the old file is left.
    let resume = [&args[..], &["--resume", "--summary-json", &json]].concat();
    let message = error_line(&limited(4_000, &resume), &out);
    assert!(
        message.ends_with(&format!("{out} is left as it was, with its 32768 rows")),
        "{message}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert_eq!(partials(&out), Vec::<String>::new());

    // Room for the old group and part of the next: the continued file, cut
    // after its groups written whole (the old one), replaces the old.
    let message = error_line(&limited(13_000, &resume), &out);
    assert!(
        message.ends_with(&format!(
            "{out} holds its first 32768 rows, readable (cut after the 1 row group written \
             whole before the failure, and given their footer)"
        )),
        "{message}"
    );
    assert_eq!(parquet_rows(&out), 32_768);
    assert_eq!(summary(&json)["puzzles"], 32_768);
    assert_eq!(partials(&out), Vec::<String>::new());

    // Room for them all.
    let output = limited(60_000, &resume);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(parquet_rows(&out), 70_000);
    assert_eq!(summary(&json)["puzzles"], 70_000);
}

#[test]
fn a_device_that_is_full_gets_no_word_on_what_it_holds() {
    let output = crate::common::solve(&[
        &repo("data/top95.txt"),
        "-o",
        "/dev/full",
        "--output-format",
        "parquet",
    ]);
    assert_eq!(code(&output), 2);
    assert_eq!(
        stderr(&output),
        "sudoku-batch: error: writing results to /dev/full: No space left on device (os error 28)\n"
    );
}

/// An HTML summary page or a bench export that cannot be written whole
/// is removed, not left cut short (a 5,120-byte page, a 512-byte JSON
/// export were left before); the previous page goes too.
#[test]
fn a_summary_page_or_bench_export_that_cannot_be_written_whole_is_removed() {
    let s = Scratch::new();
    let (html, json) = (s.path("s.html"), s.path("b.json"));
    std::fs::write(&html, "the previous page").unwrap();
    let top95 = repo("data/top95.txt");
    let summary = ["solve", &top95, "-o", "/dev/null", "--summary-html", &html];
    let export = [
        "bench", &top95, "--time-s", "0.01", "--runs", "1", "-j", "1",
    ];
    let cases = [
        (
            4,
            [&summary[..], &["--quiet"]].concat(),
            &html,
            "HTML summary",
        ),
        (
            1,
            [&export[..], &["--export-json", &json]].concat(),
            &json,
            "benchmark results",
        ),
    ];
    for (blocks, args, file, what) in cases {
        let output = limited(blocks, &args);
        assert_eq!(code(&output), 2, "{}", stderr(&output));
        let said = format!("sudoku-batch: error: writing {what} to {file}: File too large");
        assert!(stderr(&output).contains(&said), "{}", stderr(&output));
        assert!(
            !std::path::Path::new(file).exists(),
            "{file} cut short is left"
        );
    }
}

#[test]
fn merge_and_data_set_tables_name_their_file_and_what_it_holds() {
    let s = Scratch::new();
    let input = repo("data/kaggle1m_10000.csv");
    let parts: Vec<String> = ["1/2", "2/2"]
        .iter()
        .map(|shard| {
            let part = s.path(&format!("p{}.csv", &shard[..1]));
            let args = ["solve", &input, "--shard", shard, "-o", &part, "--quiet"];
            let output = crate::common::bin().args(args).output().unwrap();
            assert_eq!(code(&output), 0, "{}", stderr(&output));
            part
        })
        .collect();
    let merged = s.path("m.csv");
    std::fs::write(&merged, "the previous merge\n").unwrap();
    let output = limited(40, &["merge", &parts[0], &parts[1], "-o", &merged]);
    let message = error_line(&output, &merged);
    assert!(
        message.ends_with(&format!(
            "{merged} is left as it was (a merge writes it whole or not at all)"
        )),
        "{message}"
    );
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        "the previous merge\n"
    );
    assert_eq!(
        std::fs::read_dir(s.path(".")).unwrap().count(),
        3,
        "no temporary file left"
    );

    let canon = s.path("c.csv");
    let output = limited(40, &["canon", &input, "-o", &canon]);
    let message = error_line(&output, &canon);
    assert!(
        message.ends_with(&format!(
            "{canon} holds the rows written before the failure, the last maybe cut short"
        )),
        "{message}"
    );
}
