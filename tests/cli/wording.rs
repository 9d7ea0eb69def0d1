//! Counts of one read as one: every subcommand's messages, summaries and
//! pages, run on a single record, say `1 puzzle`, `1 row`, `1 file`, never
//! `1 puzzles`.

use crate::common::*;
use tempfile::TempDir;

/// Plural nouns that follow a count somewhere in the tool's output.
const PLURALS: [&str; 23] = [
    "puzzles",
    "records",
    "rows",
    "files",
    "copies",
    "classes",
    "duplicates",
    "leaks",
    "cells",
    "fields",
    "guesses",
    "cores",
    "threads",
    "runs",
    "candidates",
    "failures",
    "summaries",
    "answers",
    "passes",
    "solves",
    "inputs",
    "shards",
    "columns",
];

/// Each `1 NOUNs` in `text`, with the words around it.
fn ones(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .enumerate()
        .filter(|(_, pair)| {
            let count = pair[0].trim_start_matches(['(', '"', '\'', ':', ',']);
            let noun = pair[1].trim_end_matches([',', '.', ';', ':', ')', '"', '\'']);
            count == "1" && PLURALS.contains(&noun)
        })
        .map(|(i, _)| words[i.saturating_sub(3)..(i + 3).min(words.len())].join(" "))
        .collect()
}

/// Runs `sudoku-batch ARGS` in `dir`: its stdout and stderr.
fn run(dir: &TempDir, args: &[&str]) -> String {
    let out = bin()
        .current_dir(dir.path())
        .args(args)
        .output()
        .expect("the binary runs");
    format!("{}{}", stdout(&out), stderr(&out))
}

#[test]
fn a_count_of_one_is_singular_everywhere() {
    let dir = TempDir::new().unwrap();
    // Four guesses (data/magictour_top1465.txt line 23, as ci/baseline.csv says).
    let hard = "....2..4..7...6....1.5.....2......8....3..7..4.9.........6..1.38...9..........5..";
    std::fs::write(dir.path().join("one.txt"), format!("{hard}\n")).unwrap();
    std::fs::write(dir.path().join("bad.txt"), format!("{hard}\n5\n")).unwrap();
    let mut text = String::new();
    for args in [
        &[
            "solve",
            "one.txt",
            "-o",
            "r.csv",
            "-j",
            "1",
            "--summary-html",
            "s.html",
        ][..],
        &[
            "solve", "one.txt", "-o", "s1.csv", "--shard", "1/1", "-j", "1",
        ],
        &["solve", "bad.txt", "-j", "1"],
        &[
            "check",
            "one.txt",
            "--baseline",
            "r.csv",
            "-o",
            "/dev/null",
            "-j",
            "1",
        ],
        &[
            "check",
            "one.txt",
            "--baseline",
            "r.csv",
            "-o",
            "/dev/null",
            "--max-guesses",
            "1",
        ],
        &["merge", "s1.csv", "-o", "m.csv"],
        &[
            "canon",
            "one.txt",
            "-o",
            "c.csv",
            "-j",
            "1",
            "--against",
            "one.txt",
        ],
        &["generate", "-n", "1", "-o", "g.csv", "-j", "1"],
        &["augment", "one.txt", "-n", "1", "-o", "a.csv", "-j", "1"],
        &[
            "bench",
            "one.txt",
            "--solver",
            "fast",
            "-j",
            "1",
            "--runs",
            "1",
            "--time-s",
            "0.05",
            "--warmup-s",
            "0.01",
        ],
    ] {
        text.push_str(&run(&dir, args));
    }
    text.push_str(&std::fs::read_to_string(dir.path().join("s.html")).unwrap());
    // The runs above said what they should (so the check below saw them).
    for said in [
        "1 puzzle in",
        "1 row from 1 file",
        "1 cell, expected 81",
        "canon: 1 record",
    ] {
        assert!(text.contains(said), "no {said:?} in:\n{text}");
    }
    let found = ones(&text);
    assert!(found.is_empty(), "{found:#?}\nin:\n{text}");
}

#[test]
fn the_check_finds_plurals_after_one() {
    assert_eq!(ones("ok: 1 puzzles, 2 rows").len(), 1);
    assert!(ones("1 puzzle, 1.5 rows, 11 files, (1 malformed)").is_empty());
    assert_eq!(ones("(1 rows)").len(), 1);
}
