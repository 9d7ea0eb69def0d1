//! Trial 56, F0-1 and F2-5: two outputs of one run that are one file are
//! refused before anything is written, whether the file is there yet or
//! not and however it is named; and `merge` into a closed stdout ends
//! quietly with exit 0, as every other subcommand does.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::*;

/// What `dir` holds: each file's bytes, each symbolic link's target, each
/// directory (by name).
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .expect("the scratch directory")
        .map(|entry| {
            let path = entry.expect("an entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            let what = if meta.file_type().is_symlink() {
                format!("link to {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                "directory".to_string()
            } else {
                String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()
            };
            (name, what)
        })
        .collect()
}

/// A directory with what the subcommands read: `in.txt` (the first ten
/// puzzles of top95), `r1.csv` and `r2.csv` (its two shards' results),
/// a dangling link `link.csv` to `out.csv`, and a subdirectory `sub`.
fn setup() -> Scratch {
    let dir = Scratch::new();
    let top95 = std::fs::read_to_string(repo("data/top95.txt")).unwrap();
    let ten: String = top95.lines().take(10).map(|l| format!("{l}\n")).collect();
    dir.file("in.txt", ten.as_bytes());
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let out = dir.path(&format!("r{k}.csv"));
        let output = solve(&[&dir.path("in.txt"), "--shard", &shard, "-o", &out]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink("out.csv", dir.path("link.csv")).unwrap();
    std::fs::create_dir(dir.path("sub")).unwrap();
    dir
}

/// A short `bench` of `in.txt`, the rest of its command line.
const BENCH: [&str; 11] = [
    "bench",
    "in.txt",
    "-j",
    "1",
    "--runs",
    "1",
    "--time-s",
    "0.1",
    "--warmup-s",
    "0.1",
    "--quiet",
];

#[test]
fn two_outputs_that_are_one_file_are_refused_before_either_is_written() {
    let dir = setup();
    // Each subcommand with two of its outputs; the rest of its command line.
    let pairs: Vec<(&[&str], &str, &str)> = vec![
        (&["solve", "in.txt", "--quiet"], "-o", "--summary-json"),
        (&["solve", "in.txt", "--quiet"], "-o", "--summary-html"),
        (
            &["solve", "in.txt", "--quiet"],
            "--summary-json",
            "--summary-html",
        ),
        (&["rate", "in.txt", "--quiet"], "-o", "--summary-json"),
        (&["rate", "in.txt", "--quiet"], "-o", "--summary-html"),
        (&["check", "in.txt", "--quiet"], "-o", "--summary-json"),
        (
            &["check", "in.txt", "--quiet", "--baseline", "r1.csv"],
            "-o",
            "--summary-html",
        ),
        (
            &["merge", "r1.csv", "r2.csv", "--quiet"],
            "-o",
            "--summary-json",
        ),
        (&BENCH, "--export-csv", "--export-json"),
        (&BENCH, "--export-csv", "--export-markdown"),
        (&BENCH, "--export-json", "--export-html"),
        (&BENCH, "--export-markdown", "--export-html"),
    ];
    let absolute = dir.path("out.csv");
    // Other names of `out.csv`, which is not there yet.
    let mut spellings = vec!["out.csv", "./out.csv", "sub/../out.csv", absolute.as_str()];
    if cfg!(unix) {
        spellings.push("link.csv");
    }
    let before = snapshot(Path::new(&dir.path("")));
    for (rest, first, second) in &pairs {
        for spelling in &spellings {
            let args: Vec<&str> = rest
                .iter()
                .copied()
                .chain([*first, "out.csv", *second, spelling])
                .collect();
            let output = bin()
                .current_dir(dir.path(""))
                .args(&args)
                .output()
                .expect("the binary runs");
            let err = stderr(&output);
            assert_eq!(code(&output), 2, "{args:?}: {err}");
            assert!(
                err.contains(&format!(
                    "{first} out.csv and {second} {spelling} are the same file"
                )),
                "{args:?}: {err}"
            );
            assert!(output.stdout.is_empty(), "{args:?} wrote to stdout");
            assert_eq!(
                snapshot(Path::new(&dir.path(""))),
                before,
                "{args:?} changed the directory"
            );
        }
    }
}

#[test]
fn stdout_named_by_two_outputs_is_refused_before_either_is_written() {
    let dir = setup();
    // `merge -o - --summary-json -` wrote the JSON after the rows, exit 0.
    let cases: Vec<(&[&str], &str, &str)> = vec![
        (&["solve", "in.txt", "--quiet"], "-o", "--summary-json"),
        (&["rate", "in.txt", "--quiet"], "-o", "--summary-json"),
        (&["check", "in.txt", "--quiet"], "-o", "--summary-json"),
        (
            &["merge", "r1.csv", "r2.csv", "--quiet"],
            "-o",
            "--summary-json",
        ),
        (&BENCH, "--export-csv", "--export-json"),
        (&BENCH, "--export-markdown", "--export-html"),
    ];
    let before = snapshot(Path::new(&dir.path("")));
    for (rest, first, second) in &cases {
        let args: Vec<&str> = rest
            .iter()
            .copied()
            .chain([*first, "-", *second, "-"])
            .collect();
        let output = bin()
            .current_dir(dir.path(""))
            .args(&args)
            .output()
            .expect("the binary runs");
        let err = stderr(&output);
        assert_eq!(code(&output), 2, "{args:?}: {err}");
        assert!(
            err.contains(first) && err.contains(second),
            "{args:?}: {err}"
        );
        assert!(output.stdout.is_empty(), "{args:?} wrote to stdout");
        assert_eq!(snapshot(Path::new(&dir.path(""))), before, "{args:?}");
    }
}

#[test]
fn an_input_not_there_is_missing_even_when_an_output_names_it() {
    // An output not there yet cannot be an input: every input is opened
    // before any output is created, so the run fails as missing and
    // creates nothing.
    let dir = setup();
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", "in.txt", "new.txt", "-o", "./new.txt"],
        vec!["solve", "in.txt", "--solutions", "new.txt", "-o", "new.txt"],
        vec!["rate", "new.txt", "-o", "new.txt"],
        vec![
            "check",
            "in.txt",
            "--baseline",
            "new.txt",
            "-o",
            "./new.txt",
        ],
        vec!["merge", "r1.csv", "new.txt", "-o", "new.txt"],
        vec![
            "merge", "r1.csv", "r2.csv", "--inputs", "new.txt", "-o", "new.txt",
        ],
        vec![
            "merge",
            "r1.csv",
            "r2.csv",
            "--summaries",
            "new.json",
            "new2.json",
            "-o",
            "m.csv",
            "--summary-json",
            "new.json",
        ],
        vec!["canon", "in.txt", "--against", "new.txt", "-o", "new.txt"],
        vec!["augment", "new.txt", "-n", "2", "-o", "new.txt"],
        vec!["bench", "new.txt", "--export-csv", "new.txt"],
    ];
    let before = snapshot(Path::new(&dir.path("")));
    for args in &cases {
        let output = bin()
            .current_dir(dir.path(""))
            .args(args)
            .output()
            .expect("the binary runs");
        let err = stderr(&output);
        assert_eq!(code(&output), 2, "{args:?}: {err}");
        assert!(err.contains("No such file"), "{args:?}: {err}");
        assert_eq!(snapshot(Path::new(&dir.path(""))), before, "{args:?}");
    }
}

#[test]
fn every_subcommand_ends_as_documented_on_a_closed_stdout() {
    // `merge -o - | head -1` was exit 2, "writing results to -: Broken
    // pipe": the CSV writer's error hid the closed pipe.
    let dir = Scratch::new();
    let puzzles = repo("data/17_clue_10000.txt");
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let out = dir.path(&format!("k{k}.csv"));
        let output = solve(&[&puzzles, "--shard", &shard, "-o", &out]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    }
    let (k1, k2) = (dir.path("k1.csv"), dir.path("k2.csv"));
    let top95 = repo("data/top95.txt");
    let bench = |export: &'static str| {
        let mut args = vec!["bench", top95.as_str(), "-j", "1", "--runs", "1"];
        args.extend(["--time-s", "0.1", "--warmup-s", "0.1", "--quiet"]);
        if !export.is_empty() {
            args.extend([export, "-"]);
        }
        args
    };
    let cases: Vec<Vec<&str>> = vec![
        vec!["merge", &k1, &k2, "-o", "-"],
        vec!["merge", &k1, &k2, "-o", "-", "--quiet"],
        vec!["solve", &puzzles, "--quiet"],
        vec!["rate", &top95, "--quiet"],
        vec!["check", &puzzles, "--quiet"],
        vec!["generate", "-n", "50", "--quiet"],
        vec!["canon", &puzzles, "--quiet"],
        vec!["augment", &puzzles, "-n", "2", "--quiet"],
        bench(""),
        bench("--export-csv"),
        bench("--export-json"),
        bench("--export-markdown"),
        bench("--export-html"),
    ];
    for args in &cases {
        // A pipe whose reader is gone before the first row.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
            .args(args)
            .stdout(writer)
            .output()
            .expect("the binary runs");
        let err = stderr(&output);
        assert_eq!(code(&output), 0, "{args:?}: {err}");
        assert!(
            !err.contains("error") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}
