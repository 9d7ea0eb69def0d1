//! `merge` and `check --baseline` of JSON Lines results, run as the binary:
//! shards written as JSON Lines (plain and `.gz`, kept columns too) merge
//! into the single run's JSON Lines or CSV, and a JSON Lines baseline is
//! compared as the same rows in CSV are.

use crate::common::{code, read_output, stderr, without_json_timing, without_timing, Scratch};
use crate::shard::{run, solve_to, ALLOW, CORPUS};

/// Merges `args` (the parts, then options); exit 0.
pub(crate) fn merged(args: &[&str]) {
    let output = run("merge", args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
}

/// A JSON Lines results file's text (`.gz` decompressed), times blanked.
fn jsonl(path: &str) -> String {
    without_json_timing(&read_output(path))
}

/// A CSV results file's text (`.gz` decompressed), times blanked.
pub(crate) fn csv(path: &str) -> String {
    without_timing(&read_output(path))
}

/// The corpus solved in three shards as `rK.EXT` (Parquet, JSON Lines,
/// CSV by `ext`), each with its summary `sK.json`: the parts and the
/// summaries.
pub(crate) fn shards(s: &Scratch, ext: &str) -> (Vec<String>, Vec<String>) {
    let mut parts = vec![];
    let mut summaries = vec![];
    for k in 1..=3 {
        let (part, summary) = (
            s.path(&format!("r{k}.{ext}")),
            s.path(&format!("s{k}.json")),
        );
        solve_to(
            &part,
            &["--shard", &format!("{k}/3"), "--summary-json", &summary],
        );
        parts.push(part);
        summaries.push(summary);
    }
    (parts, summaries)
}

/// The record and status counts of the summary at `path`.
pub(crate) fn counts(path: &str) -> [u64; 6] {
    let json: serde_json::Value = serde_json::from_str(&read_output(path)).unwrap();
    [
        "puzzles",
        "solved",
        "multiple",
        "unsolvable",
        "invalid",
        "malformed",
    ]
    .map(|key| json[key].as_u64().unwrap())
}

#[test]
fn three_json_lines_shards_merge_into_the_single_run_as_json_lines_or_csv() {
    let s = Scratch::new();
    let (whole, whole_csv, whole_json) = (
        s.path("whole.jsonl"),
        s.path("whole.csv"),
        s.path("whole.json"),
    );
    solve_to(&whole, &["--summary-json", &whole_json]);
    solve_to(&whole_csv, &[]);
    let (parts, summaries) = shards(&s, "jsonl");
    assert!(read_output(&parts[0]).lines().count() > 30);
    // In any order, with the shards' summaries.
    let (out, out_csv, out_json) = (s.path("m.jsonl"), s.path("m.csv"), s.path("m.json"));
    let mut args: Vec<&str> = parts.iter().rev().map(String::as_str).collect();
    args.extend(["-o", &out, "--summary-json", &out_json, "--summaries"]);
    args.extend(summaries.iter().map(String::as_str));
    merged(&args);
    assert_eq!(jsonl(&out), jsonl(&whole));
    assert_eq!(counts(&out_json), counts(&whole_json));

    // Into CSV: the single run's CSV.
    let mut args: Vec<&str> = parts.iter().map(String::as_str).collect();
    args.extend(["-o", &out_csv]);
    merged(&args);
    assert_eq!(csv(&out_csv), csv(&whole_csv));
}

#[test]
fn gzip_shards_and_mixed_shards_merge_and_csv_shards_into_json_lines_are_refused() {
    let s = Scratch::new();
    let (whole, whole_csv) = (s.path("whole.jsonl"), s.path("whole.csv"));
    solve_to(&whole, &[]);
    solve_to(&whole_csv, &[]);
    let parts: Vec<String> = (1..=3)
        .map(|k| {
            let part = s.path(&format!("r{k}.jsonl.gz"));
            solve_to(&part, &["--shard", &format!("{k}/3")]);
            part
        })
        .collect();
    let out = s.path("m.jsonl.gz");
    merged(&[&parts[0], &parts[1], &parts[2], "-o", &out]);
    assert_eq!(jsonl(&out), jsonl(&whole));

    // A CSV shard among JSON Lines ones merges into CSV.
    let csv_part = s.path("r1.csv");
    solve_to(&csv_part, &["--shard", "1/3"]);
    let out_csv = s.path("m.csv.gz");
    merged(&[&parts[1], &csv_part, &parts[2], "-o", &out_csv]);
    assert_eq!(csv(&out_csv), csv(&whole_csv));

    // Not into JSON Lines: refused by name, nothing written.
    let out_jsonl = s.path("mixed.jsonl");
    let refused = run(
        "merge",
        &[&parts[1], &csv_part, &parts[2], "-o", &out_jsonl],
    );
    assert_eq!(code(&refused), 2, "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains(&format!(
            "{csv_part} is CSV, and merge writes JSON Lines (-o {out_jsonl}) from JSON Lines \
             results only"
        )),
        "{}",
        stderr(&refused)
    );
    assert!(!std::path::Path::new(&out_jsonl).exists());
}

#[test]
fn json_lines_shards_with_kept_columns_and_an_empty_shard_merge() {
    let s = Scratch::new();
    // The first puzzle of top95.
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let text: String = std::iter::once("quizzes,rating,note\n".to_string())
        .chain((0..20).map(|i| format!("{p},{i},\"=a, \"\"b\"\" {i}\"\n")))
        .collect();
    let input = s.file("in.csv", text.as_bytes());
    let solve = |out: &str, extra: &[&str]| {
        let mut args = vec![input.as_str(), "-o", out, "--keep", "rating,note"];
        args.extend(extra);
        let output = run("solve", &args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    };
    let (whole, whole_csv) = (s.path("whole.jsonl"), s.path("whole.csv"));
    solve(&whole, &[]);
    solve(&whole_csv, &[]);
    assert!(read_output(&whole).contains(r#""note":"=a, \"b\" 3""#));
    let parts: Vec<String> = (1..=3)
        .map(|k| {
            let part = s.path(&format!("r{k}.jsonl"));
            solve(&part, &["--shard", &format!("{k}/3")]);
            part
        })
        .collect();
    let out = s.path("m.jsonl");
    merged(&[&parts[2], &parts[0], &parts[1], "-o", &out]);
    assert_eq!(jsonl(&out), jsonl(&whole));
    let out_csv = s.path("m.csv");
    merged(&[&parts[2], &parts[0], &parts[1], "-o", &out_csv]);
    assert_eq!(csv(&out_csv), csv(&whole_csv));

    // Two records in three shards: the third is an empty file.
    let two = s.file("two.txt", format!("{p}\n{p}\n").as_bytes());
    let solve_two = |out: &str, extra: &[&str]| {
        let mut args = vec![two.as_str(), "-o", out];
        args.extend(extra);
        let output = run("solve", &args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    };
    let whole = s.path("two.jsonl");
    solve_two(&whole, &[]);
    let parts: Vec<String> = (1..=3)
        .map(|k| {
            let part = s.path(&format!("t{k}.jsonl"));
            solve_two(&part, &["--shard", &format!("{k}/3")]);
            part
        })
        .collect();
    assert_eq!(read_output(&parts[2]), "");
    merged(&[&parts[0], &parts[1], &parts[2], "-o", &out]);
    assert_eq!(jsonl(&out), jsonl(&whole));
}

#[test]
fn a_json_lines_baseline_passes_the_same_run_and_names_a_changed_record() {
    let s = Scratch::new();
    let (base, base_csv) = (s.path("whole.jsonl"), s.path("whole.csv"));
    solve_to(&base, &[]);
    solve_to(&base_csv, &[]);
    let check = |baseline: &str| {
        let mut args: Vec<&str> = CORPUS.to_vec();
        args.extend(["--allow", ALLOW, "-o", "/dev/null", "--baseline", baseline]);
        let output = run("check", &args);
        (code(&output), stderr(&output).replace(baseline, "BASELINE"))
    };
    for baseline in [&base, &base_csv] {
        let (exit, message) = check(baseline);
        assert_eq!(exit, 0, "{baseline}: {message}");
    }
    // Record data/top95.txt:42 says `multiple` in both baselines.
    let text = read_output(&base);
    let row = r#"{"file":"data/top95.txt","line":42,"#;
    let altered: String = text
        .lines()
        .map(|line| match line.starts_with(row) {
            true => line.replace(r#""status":"solved""#, r#""status":"multiple""#) + "\n",
            false => format!("{line}\n"),
        })
        .collect();
    assert_ne!(altered, text);
    std::fs::write(&base, altered).unwrap();
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
}

#[test]
fn json_lines_shards_without_a_row_merge_into_the_single_run_of_no_row() {
    let s = Scratch::new();
    let input = s.file("none.csv", b"puzzle\n");
    let solve = |out: &str, summary: &str, extra: &[&str]| {
        let mut args = vec![input.as_str(), "-o", out, "--summary-json", summary];
        args.extend(extra);
        let output = run("solve", &args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    };
    let (whole, whole_json) = (s.path("whole.jsonl"), s.path("whole.json"));
    solve(&whole, &whole_json, &[]);
    let (mut parts, mut summaries) = (vec![], vec![]);
    for k in 1..=3 {
        let (part, summary) = (
            s.path(&format!("r{k}.jsonl")),
            s.path(&format!("r{k}.json")),
        );
        solve(&part, &summary, &["--shard", &format!("{k}/3")]);
        assert_eq!(read_output(&part), "");
        parts.push(part);
        summaries.push(summary);
    }
    let (out, out_json) = (s.path("m.jsonl"), s.path("m.json"));
    let mut args: Vec<&str> = parts.iter().map(String::as_str).collect();
    args.extend(["-o", &out, "--summary-json", &out_json, "--summaries"]);
    args.extend(summaries.iter().map(String::as_str));
    merged(&args);
    assert_eq!(read_output(&out), read_output(&whole));
    let summary = |path: &str| -> serde_json::Value {
        let json: serde_json::Value = serde_json::from_str(&read_output(path)).unwrap();
        [
            "puzzles", "solved", "solve_us", "guesses", "ratings", "error",
        ]
        .iter()
        .map(|key| (key.to_string(), json[key].clone()))
        .collect()
    };
    assert_eq!(summary(&out_json), summary(&whole_json));

    // Into CSV there is no header to write: refused by name, nothing written.
    let out_csv = s.path("m.csv");
    let output = run("merge", &[&parts[0], &parts[1], &parts[2], "-o", &out_csv]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("give -o a .jsonl name"),
        "{}",
        stderr(&output)
    );
    assert!(!std::path::Path::new(&out_csv).exists());

    // Inputs with records the shards have no row for are missing rows.
    let output = run(
        "merge",
        &[
            &parts[0], &parts[1], &parts[2], "-o", &out, "--inputs", CORPUS[3],
        ],
    );
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("no file has a row for"),
        "{}",
        stderr(&output)
    );
}
