//! Issue 41, round 4: nothing is overwritten by a refused run. A run that
//! refuses (exit 2) before it does its work leaves every file that was
//! there as it was, byte for byte, and creates none: the results (CSV,
//! JSON Lines, Parquet, a torn last row of a resumable file included), the
//! summaries (JSON and HTML), exports, for every subcommand, at several
//! grid sizes and alphabets.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::*;

/// Every file of `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("the scratch directory")
        .map(|entry| {
            let path = entry.expect("an entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("a readable file"))
        })
        .collect()
}

/// Runs `sudoku-batch ARGS` in `dir` and checks that it is refused (exit
/// 2, saying `why`) and that no file of `dir` was changed, added or removed.
fn refused_untouched(dir: &Path, args: &[&str], why: &str) {
    let before = snapshot(dir);
    let output = bin()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs");
    assert_eq!(code(&output), 2, "{args:?}: {}", stderr(&output));
    assert!(
        stderr(&output).contains(why),
        "{args:?}: {}",
        stderr(&output)
    );
    let after = snapshot(dir);
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&after),
        names(&before),
        "{args:?}: files added or removed"
    );
    for (name, bytes) in &before {
        assert!(after[name] == *bytes, "{args:?} rewrote {name}");
    }
}

/// Runs `sudoku-batch ARGS` in `dir`, expecting `code`.
fn run_in(dir: &Path, args: &[&str], expected: i32) {
    let output = bin()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs");
    assert_eq!(code(&output), expected, "{args:?}: {}", stderr(&output));
}

#[test]
fn a_refused_resume_leaves_the_results_and_both_summaries_as_they_were() {
    // The reported case: `solve --resume` refused (another box or
    // alphabet) rewrote the earlier run's summary JSON. Here at 9x9, 4x4
    // and 16x16, against every way a resume is refused.
    let s = Scratch::new();
    let dir = Path::new(&s.path("")).to_path_buf();
    let nine: String = read_output(repo("data/top95.txt"))
        .lines()
        .take(6)
        .map(|l| format!("{l}\n"))
        .collect();
    s.file("nine.txt", nine.as_bytes());
    s.file(
        "other.txt",
        read_output(repo("data/17_clue_10000.txt"))
            .lines()
            .take(6)
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    std::fs::copy(case("r4-18-four.txt"), s.path("four.txt")).unwrap();
    std::fs::copy(case("r4-08-puzzles16.txt"), s.path("sixteen.txt")).unwrap();
    for (input, torn) in [
        ("nine.txt", true),
        ("four.txt", false),
        ("sixteen.txt", true),
    ] {
        let (out, json, html) = (
            format!("{input}.csv"),
            format!("{input}.json"),
            format!("{input}.html"),
        );
        run_in(
            &dir,
            &[
                "solve",
                input,
                "-o",
                &out,
                "--summary-json",
                &json,
                "--summary-html",
                &html,
                "--quiet",
            ],
            0,
        );
        if torn {
            // An interrupted run's last row, cut short: kept until a
            // resume appends.
            let mut text = std::fs::read(s.path(&out)).unwrap();
            text.extend_from_slice(b"99,12");
            std::fs::write(s.path(&out), text).unwrap();
        }
        let both = [
            "--summary-json",
            json.as_str(),
            "--summary-html",
            html.as_str(),
        ];
        let resume = |extra: &[&str]| {
            let mut args = vec!["solve", input, "-o", &out, "--resume", "--quiet"];
            args.extend_from_slice(&both);
            args.extend_from_slice(extra);
            args.into_iter().map(String::from).collect::<Vec<_>>()
        };
        let side = match input {
            "nine.txt" => "9x9",
            "four.txt" => "4x4",
            _ => "16x16",
        };
        let other_box = match side {
            "9x9" => "1x9",
            "4x4" => "1x4",
            _ => "2x8",
        };
        for (extra, why) in [
            (vec!["--box", other_box], "--box none then"),
            (vec!["--symbols", "numbers"], "--symbols"),
            (vec!["--first"], "other options"),
            (vec!["--max-guesses", "3"], "other options"),
        ] {
            let args = resume(&extra);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            refused_untouched(&dir, &args, why);
        }
        // Other inputs: the header (a `file` column) or the first row differs.
        let args = [
            "solve",
            input,
            "other.txt",
            "-o",
            &out,
            "--resume",
            "--quiet",
            both[0],
            both[1],
            both[2],
            both[3],
        ];
        refused_untouched(&dir, &args, "header");
        if side == "9x9" {
            let args = [
                "solve",
                "other.txt",
                "-o",
                &out,
                "--resume",
                "--quiet",
                both[0],
                both[1],
                both[2],
                both[3],
            ];
            refused_untouched(&dir, &args, "does not match the inputs");
        }
        // A summary that did not exist is not left behind, empty or not.
        let args = [
            "solve",
            input,
            "other.txt",
            "-o",
            &out,
            "--resume",
            "--summary-json",
            "new.json",
        ];
        let output = bin().current_dir(&dir).args(args).output().unwrap();
        assert_eq!(code(&output), 2, "{}", stderr(&output));
        assert!(
            !dir.join("new.json").exists(),
            "a refused run left new.json"
        );
    }
}

#[test]
fn every_subcommand_refused_before_its_work_writes_nothing() {
    let s = Scratch::new();
    let dir = Path::new(&s.path("")).to_path_buf();
    let nine: String = read_output(repo("data/top95.txt"))
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    s.file("nine.txt", nine.as_bytes());
    std::fs::copy(case("r4-10a-six-letters.txt"), s.path("six.txt")).unwrap();
    std::fs::copy(case("r4-08-puzzles16.txt"), s.path("sixteen.txt")).unwrap();
    // Earlier outputs of every kind, each to be left alone.
    run_in(
        &dir,
        &[
            "solve",
            "nine.txt",
            "-o",
            "r.csv",
            "--summary-json",
            "s.json",
            "--summary-html",
            "s.html",
            "--quiet",
        ],
        0,
    );
    run_in(&dir, &["solve", "nine.txt", "-o", "r.jsonl", "--quiet"], 0);
    run_in(
        &dir,
        &["solve", "nine.txt", "-o", "r.parquet", "--quiet"],
        0,
    );
    run_in(
        &dir,
        &[
            "rate",
            "nine.txt",
            "-o",
            "rate.csv",
            "--summary-json",
            "rate.json",
            "--quiet",
        ],
        0,
    );
    for k in 1..=2 {
        let (shard, out, json) = (
            format!("{k}/2"),
            format!("shard{k}.csv"),
            format!("shard{k}.json"),
        );
        run_in(
            &dir,
            &[
                "solve",
                "nine.txt",
                "--shard",
                &shard,
                "-o",
                &out,
                "--summary-json",
                &json,
                "--quiet",
            ],
            0,
        );
    }
    std::fs::write(dir.join("e.csv"), "old export\n").unwrap();
    std::fs::write(dir.join("e.html"), "old page\n").unwrap();
    std::fs::write(dir.join("c.csv"), "old canon\n").unwrap();
    let summaries = ["--summary-json", "s.json", "--summary-html", "s.html"];
    let with = |args: &[&str], more: &[&str]| -> Vec<String> {
        args.iter().chain(more).map(|a| a.to_string()).collect()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        // --box or --symbols that fits no record: known only by reading
        // the records, and still refused before anything is written.
        (
            with(
                &["solve", "nine.txt", "--box", "3x2", "-o", "r.csv"],
                &summaries,
            ),
            "--box 3x2",
        ),
        (
            with(
                &["solve", "sixteen.txt", "--box", "2x3", "-o", "r.jsonl"],
                &summaries,
            ),
            "--box 2x3",
        ),
        (
            with(
                &[
                    "solve",
                    "six.txt",
                    "--symbols",
                    "1-9A-Z",
                    "--box",
                    "3x4",
                    "-o",
                    "r.parquet",
                ],
                &summaries,
            ),
            "--box 3x4",
        ),
        (
            with(
                &["solve", "nine.txt", "--symbols", "A-Z", "-o", "r.csv"],
                &summaries,
            ),
            "--symbols A-Z",
        ),
        (
            with(
                &[
                    "rate",
                    "nine.txt",
                    "--box",
                    "2x2",
                    "-o",
                    "rate.csv",
                    "--summary-json",
                    "rate.json",
                ],
                &[],
            ),
            "--box 2x2",
        ),
        (
            with(
                &["check", "six.txt", "--box", "2x2", "-o", "r.csv"],
                &summaries,
            ),
            "--box 2x2",
        ),
        // Unreadable inputs, unknown columns, other runs' files.
        (
            with(&["solve", "missing.txt", "-o", "r.csv"], &summaries),
            "missing.txt",
        ),
        (
            with(
                &["solve", "nine.txt", "--keep", "nothing", "-o", "r.parquet"],
                &summaries,
            ),
            "nothing",
        ),
        (
            with(
                &[
                    "rate",
                    "nine.txt",
                    "-o",
                    "r.csv",
                    "--resume",
                    "--summary-json",
                    "s.json",
                ],
                &[],
            ),
            "header",
        ),
        (
            with(
                &[
                    "rate",
                    "missing.txt",
                    "-o",
                    "rate.csv",
                    "--summary-json",
                    "rate.json",
                ],
                &[],
            ),
            "missing.txt",
        ),
        (
            with(
                &[
                    "check",
                    "nine.txt",
                    "--baseline",
                    "missing.csv",
                    "-o",
                    "r.csv",
                ],
                &summaries,
            ),
            "missing.csv",
        ),
        (
            with(
                &[
                    "merge",
                    "shard1.csv",
                    "missing.csv",
                    "-o",
                    "r.csv",
                    "--summary-json",
                    "s.json",
                ],
                &[],
            ),
            "missing.csv",
        ),
        (
            with(&["canon", "missing.txt", "-o", "c.csv"], &[]),
            "missing.txt",
        ),
        (
            with(
                &[
                    "augment", "nine.txt", "--copies", "2", "--keep", "nothing", "-o", "c.csv",
                ],
                &[],
            ),
            "nothing",
        ),
        (
            with(&["generate", "-n", "2", "--size", "7", "-o", "c.csv"], &[]),
            "--box",
        ),
        (
            with(
                &[
                    "bench",
                    "missing.txt",
                    "--export-csv",
                    "e.csv",
                    "--export-html",
                    "e.html",
                ],
                &[],
            ),
            "missing.txt",
        ),
        // An output that is an input by another name.
        (
            with(&["solve", "nine.txt", "-o", "./nine.txt"], &summaries),
            "same file",
        ),
        (
            with(
                &[
                    "merge",
                    "shard1.csv",
                    "shard2.csv",
                    "-o",
                    "m.csv",
                    "--summaries",
                    "shard1.json",
                    "shard2.json",
                    "--summary-json",
                    "./shard2.json",
                ],
                &[],
            ),
            "same file",
        ),
    ];
    for (args, why) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_untouched(&dir, &args, why);
    }
}
