//! Edges a CI person meets with `check`, `merge` and `bench` (trial 56):
//! a changed rating passed `check --rate --baseline`; results written with
//! `--output-delimiter` were refused by `merge`, `check --baseline` and
//! `--resume`; messages named the wrong line or cause (gzip damage at
//! "line 0", a stray quote as "the last row cut short", a damaged solution
//! as "another --box"); a bench bar said "wrong answers" for missing ones,
//! and a run that searched nothing reported 0.0 us where nothing was
//! measured.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::common::{bin, code, in_dir, run_subcommand, stderr};

const TOP95: &str = "data/top95.txt";

/// Runs `solve ARGS --quiet` into `out`, asserting that it solved
/// everything.
fn solve_to(out: &str, args: &[&str]) {
    let output = run_subcommand("solve", &[args, &["-o", out, "--quiet"]].concat());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
}

/// The file's lines with the `solve_us` field (the 6th of `delimiter`
/// separated fields, or the 7th after `file`) left out: the figures that
/// differ between two runs of the same rows.
fn untimed(path: &Path, delimiter: char, timed: usize) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let mut fields: Vec<&str> = line.split(delimiter).collect();
            fields.remove(timed);
            fields.join("|")
        })
        .collect()
}

#[test]
fn check_rate_fails_on_a_changed_rating_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let base = in_dir(&dir, "base.csv");
    solve_to(&base, &["--rate", TOP95]);
    // Line 3's rating is 2.6, Pointing: a rater regression makes it 9.9.
    let text = std::fs::read_to_string(&base).unwrap();
    let row = text.lines().nth(3).unwrap();
    assert!(row.ends_with(",2.6,Pointing"), "{row}");
    let changed = row.replace(",2.6,Pointing", ",9.9,Nishio Forcing Chains");
    std::fs::write(&base, text.replace(row, &changed)).unwrap();
    let args = [
        "--rate",
        TOP95,
        "--baseline",
        &base,
        "-o",
        "/dev/null",
        "--quiet",
    ];
    let output = run_subcommand("check", &args);
    let err = stderr(&output);
    assert_eq!(code(&output), 1, "{err}");
    assert!(
        err.contains("FAILED: 1 failure in 95 puzzles")
            && err.contains(
                "data/top95.txt:3: rating changed from the baseline: 9.9 Nishio Forcing Chains \
                 -> 2.6 Pointing"
            ),
        "{err}"
    );
    // The same as JSON Lines.
    let jsonl = in_dir(&dir, "base.jsonl");
    solve_to(&jsonl, &["--rate", TOP95]);
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let third = text.lines().nth(2).unwrap();
    let damaged = third.replace("\"rating\":2.6", "\"rating\":3.0");
    assert_ne!(damaged, third, "{third}");
    std::fs::write(&jsonl, text.replace(third, &damaged)).unwrap();
    let output = run_subcommand(
        "check",
        &["--rate", TOP95, "--baseline", &jsonl, "-o", "/dev/null"],
    );
    let err = stderr(&output);
    assert_eq!(code(&output), 1, "{err}");
    assert!(
        err.contains("rating changed from the baseline: 3.0 Pointing -> 2.6 Pointing"),
        "{err}"
    );
}

#[test]
fn ratings_on_one_side_only_are_not_compared_and_the_report_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let plain = in_dir(&dir, "plain.csv");
    solve_to(&plain, &[TOP95]);
    let rated = in_dir(&dir, "rated.csv");
    solve_to(&rated, &["--rate", TOP95]);
    for (rate, base, says) in [
        (
            true,
            &plain,
            "the baseline has no ratings (made without --rate): ratings are not compared",
        ),
        (
            false,
            &rated,
            "the baseline has ratings (made with --rate) and this run rates nothing",
        ),
    ] {
        let mut args = vec![
            TOP95,
            "--baseline",
            base.as_str(),
            "-o",
            "/dev/null",
            "--quiet",
        ];
        if rate {
            args.push("--rate");
        }
        let output = run_subcommand("check", &args);
        let err = stderr(&output);
        assert_eq!(code(&output), 0, "{err}");
        assert!(
            err.contains("ok: 95 puzzles, 95 rows compared")
                && err.contains(&format!("note: {says}")),
            "{err}"
        );
    }
    let output = run_subcommand(
        "check",
        &["--rate", TOP95, "--baseline", &rated, "-o", "/dev/null"],
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(!stderr(&output).contains("note:"), "{}", stderr(&output));
}

#[test]
fn tab_and_semicolon_results_merge_check_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    for (name, delimiter) in [("tab", '\t'), (";", ';')] {
        let part = |k: u32| in_dir(&dir, &format!("r{k}.csv"));
        for k in [1, 2] {
            let shard = format!("{k}/2");
            solve_to(
                &part(k),
                &[TOP95, "--shard", &shard, "--output-delimiter", name],
            );
        }
        let whole = in_dir(&dir, "whole.csv");
        solve_to(&whole, &[TOP95, "--output-delimiter", name]);
        let merged = in_dir(&dir, "merged.csv");
        let output = run_subcommand("merge", &[&part(1), &part(2), "-o", &merged]);
        assert_eq!(code(&output), 0, "{name}: {}", stderr(&output));
        assert_eq!(
            untimed(Path::new(&merged), delimiter, 5),
            untimed(Path::new(&whole), delimiter, 5),
            "{name}: the merge is the single run's file"
        );
        let output = run_subcommand("check", &[TOP95, "--baseline", &whole, "-o", "/dev/null"]);
        assert_eq!(code(&output), 0, "{name}: {}", stderr(&output));
        assert!(
            stderr(&output).contains("95 rows compared"),
            "{}",
            stderr(&output)
        );

        // --resume continues it with the same delimiter, two inputs (a
        // `file` column) and a gzip file alike.
        let two = [TOP95, TOP95, "--output-delimiter", name];
        for out in ["cut.csv", "cut.csv.gz"] {
            let out = in_dir(&dir, out);
            solve_to(&out, &[&two[..], &["--limit", "30"]].concat());
            solve_to(&out, &[&two[..], &["--resume"]].concat());
            let full = in_dir(&dir, "full.csv");
            solve_to(&full, &two);
            if !out.ends_with(".gz") {
                assert_eq!(
                    untimed(Path::new(&out), delimiter, 6),
                    untimed(Path::new(&full), delimiter, 6),
                    "{name}: the resumed file is the whole run's"
                );
            }
            let output = run_subcommand(
                "check",
                &[&two[..2], &["--baseline", &out, "-o", "/dev/null"]].concat(),
            );
            assert!(
                code(&output) == 0 && stderr(&output).contains("190 rows compared"),
                "{name} {out}: {}",
                stderr(&output)
            );
        }
    }
}

#[test]
fn parts_or_resumes_of_another_delimiter_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let (tab, comma) = (in_dir(&dir, "r1.csv"), in_dir(&dir, "r2.csv"));
    solve_to(
        &tab,
        &[TOP95, "--shard", "1/2", "--output-delimiter", "tab"],
    );
    solve_to(&comma, &[TOP95, "--shard", "2/2"]);
    let merged = in_dir(&dir, "m.csv");
    let output = run_subcommand("merge", &[&tab, &comma, "-o", &merged]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("r1.csv separates its fields with tab and")
            && stderr(&output).contains("r2.csv with comma"),
        "{}",
        stderr(&output)
    );
    assert!(!Path::new(&merged).exists());
    let before = std::fs::read(&comma).unwrap();
    let output = run_subcommand(
        "solve",
        &[
            TOP95,
            "--shard",
            "2/2",
            "--output-delimiter",
            "tab",
            "-o",
            &comma,
            "--resume",
        ],
    );
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "line 1: its fields are separated by comma, and this run writes them separated by tab"
        ),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&comma).unwrap(), before, "left as it was");
}

/// The results of top95, gzipped by `solve`, cut after `bytes`.
fn cut_gzip(dir: &TempDir, bytes: usize) -> String {
    let whole = in_dir(dir, "r.csv.gz");
    solve_to(&whole, &[TOP95]);
    let cut = in_dir(dir, "cut.csv.gz");
    let data = std::fs::read(&whole).unwrap();
    std::fs::write(&cut, &data[..bytes]).unwrap();
    cut
}

#[test]
fn gzip_damage_is_named_at_the_line_being_read_not_line_0() {
    let dir = tempfile::tempdir().unwrap();
    let cut = cut_gzip(&dir, 1000);
    for (subcommand, args) in [
        ("check", vec![TOP95, "--baseline", &cut, "-o", "/dev/null"]),
        ("merge", vec![&cut, "-o", "/dev/null"]),
    ] {
        let output = run_subcommand(subcommand, &args);
        let err = stderr(&output);
        assert_eq!(code(&output), 2, "{err}");
        let line: u64 = err
            .split("cut.csv.gz: line ")
            .nth(1)
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a line number: {err}"));
        // Whole rows come out of the first 1000 bytes: the damage is after
        // them, never at "line 0".
        assert!(line > 2, "{err}");
        assert!(
            err.contains("gzip member") && err.contains("is cut short"),
            "{err}"
        );
    }
}

#[test]
fn an_unclosed_quote_is_named_as_such_not_as_a_last_row_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let part = in_dir(&dir, "r1.csv");
    solve_to(&part, &[TOP95, "--shard", "1/2"]);
    let text = std::fs::read_to_string(&part).unwrap();
    let lines = text.lines().count();
    let eleventh = text.lines().nth(10).unwrap();
    let quoted = text.replace(eleventh, &eleventh.replacen(",solved,", ",\"solved,", 1));
    std::fs::write(&part, quoted).unwrap();
    let other = in_dir(&dir, "r2.csv");
    solve_to(&other, &[TOP95, "--shard", "2/2"]);
    let says = format!(
        "line 11: a quote opens a field in this row and no quote closes it up to the end of the \
         file (line {lines})"
    );
    for (subcommand, args) in [
        ("merge", vec![part.as_str(), &other, "-o", "/dev/null"]),
        (
            "check",
            vec![
                TOP95,
                "--shard",
                "1/2",
                "--baseline",
                &part,
                "-o",
                "/dev/null",
            ],
        ),
    ] {
        let output = run_subcommand(subcommand, &args);
        let err = stderr(&output);
        assert_eq!(code(&output), 2, "{err}");
        assert!(
            err.contains(&says) && !err.contains("the last row"),
            "{err}"
        );
    }
    // A file cut inside a quoted field of its last row is still that.
    let cut = in_dir(&dir, "cut.csv");
    std::fs::write(&cut, format!("{}\"r1c1", &text[..text.len() - 1])).unwrap();
    let output = run_subcommand("merge", &[&cut, "-o", "/dev/null"]);
    assert!(
        stderr(&output).contains("the last row has no line end"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_kept_row_with_a_damaged_solution_is_named_damaged_not_another_box() {
    let dir = tempfile::tempdir().unwrap();
    let out = in_dir(&dir, "ed.csv");
    solve_to(&out, &[TOP95, "--limit", "30"]);
    let text = std::fs::read_to_string(&out).unwrap();
    let row = text.lines().nth(19).unwrap();
    let damaged = row.replacen(",solved,1", ",solved,9", 1);
    assert_ne!(damaged, row);
    std::fs::write(&out, text.replace(row, &damaged)).unwrap();
    let output = run_subcommand("solve", &[TOP95, "-o", &out, "--resume", "--quiet"]);
    let err = stderr(&output);
    assert_eq!(code(&output), 2, "{err}");
    assert!(
        err.contains(
            "ed.csv: line 20: not a results row: its solution is no solution of its puzzle"
        ) && err.contains("twice in row 1")
            && err.contains("the row was changed after sudoku-batch wrote it")
            && !err.contains("--box"),
        "{err}"
    );
}

#[test]
fn a_bench_bar_says_missing_answers_when_no_answer_was_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let html = in_dir(&dir, "b.html");
    let output = run_subcommand(
        "bench",
        &[
            TOP95,
            "--cmd",
            "crash=exit 3",
            "-j",
            "1",
            "--runs",
            "1",
            "--export-html",
            &html,
        ],
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("crash  -j 1 (missing answers!)"), "{page}");
    assert!(!page.contains("(wrong answers!)"), "{page}");
}

#[test]
fn a_run_that_searched_nothing_says_so_with_nulls_not_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("junk.csv");
    std::fs::write(&input, "puzzle\n123\nabc\n").unwrap();
    let (json, html): (PathBuf, PathBuf) = (dir.path().join("s.json"), dir.path().join("s.html"));
    let output = bin()
        .arg("solve")
        .arg(&input)
        .args(["-o", "/dev/null", "--summary-json"])
        .arg(&json)
        .arg("--summary-html")
        .arg(&html)
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(code(&output), 1, "{err}");
    assert!(
        err.contains("  solve time: no puzzle was searched; 0.000 s of solver time")
            && err.contains("  guesses: 0 in all; no puzzle was searched"),
        "{err}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["malformed"], 2);
    for key in ["mean", "p50", "p90", "p99", "max"] {
        assert!(summary["solve_us"][key].is_null(), "{summary}");
    }
    assert_eq!(summary["guesses"]["total"], 0);
    assert!(summary["guesses"]["mean"].is_null() && summary["guesses"]["no_guess_pct"].is_null());
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("No puzzle was searched")
            && !page.contains("0.0 us")
            && !page.contains("0.0 %"),
        "{page}"
    );
}

/// A merge killed outright (SIGKILL) left its temporary file beside the
/// output for good: the next merge into the same file removes it once its
/// process is gone, with a warning, and names one a live process may still
/// be writing, leaving it (as a Parquet `--resume` does with its own).
#[test]
fn a_merge_removes_what_a_merge_killed_outright_left() {
    let dir = tempfile::tempdir().unwrap();
    let shard = in_dir(&dir, "s.csv");
    solve_to(&shard, &[TOP95]);
    let merged = in_dir(&dir, "m.csv");
    // A process id that is gone: a child that has exited and been waited for.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let gone = child.id();
    child.wait().unwrap();
    let left = in_dir(&dir, &format!(".m.csv.merge-{gone}.partial"));
    std::fs::write(&left, "part of a merge\n").unwrap();
    // This test's own process: alive.
    let live = in_dir(
        &dir,
        &format!(".m.csv.merge-{}.partial", std::process::id()),
    );
    std::fs::write(&live, "being written\n").unwrap();
    let output = run_subcommand("merge", &[&shard, "-o", &merged, "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let warned = stderr(&output);
    assert!(!Path::new(&left).exists());
    assert!(
        warned.contains(&format!(
            "warning: removed {left}, what a merge of {merged} killed outright left (process \
             {gone} is gone)"
        )),
        "{warned}"
    );
    assert!(Path::new(&live).exists());
    assert!(
        warned.contains(&format!(
            "warning: {live} is another merge's temporary file of {merged}"
        )),
        "{warned}"
    );
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&shard).unwrap()
    );
}
