//! `merge` writes what `solve` writes for the same rows, kept values of
//! every kind included, run as the binary: JSON Lines shards kept from
//! JSON Lines input (strings with escapes and lone surrogate escapes,
//! numbers beyond 2^53, lists and objects, booleans, nulls) merge into
//! the CSV and the JSON Lines of the whole input, with `solve`'s warning
//! for the values CSV cannot hold; CSV shards of non-UTF-8 bytes into its
//! CSV; Parquet shards of a long note into its Parquet, `--shard` of them
//! ending.

use crate::common::{code, read_output, stderr, without_json_timing, without_timing, Scratch};
use crate::shard::run;

/// Puzzles with a unique solution.
const PUZZLES: [&str; 4] = [
    ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
];

/// Solves `input` with `options` into `out` (shard `shard` of 2, or whole);
/// exit 0, and the warning it gave, if any.
fn solve(input: &str, out: &str, shard: Option<u32>, options: &[&str]) -> String {
    let shard = shard.map(|k| format!("{k}/2"));
    let mut args = vec![input, "-o", out];
    args.extend(options);
    if let Some(shard) = &shard {
        args.extend(["--shard", shard.as_str()]);
    }
    let output = run("solve", &args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    stderr(&output)
}

/// Merges `parts` into `out`; exit 0, and its stderr.
fn merge(parts: &[String], out: &str) -> String {
    let mut args: Vec<&str> = parts.iter().map(String::as_str).collect();
    args.extend(["-o", out]);
    let output = run("merge", &args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    stderr(&output)
}

/// The two shards of `input` solved with `options` as `partK.EXT`.
fn shards(s: &Scratch, input: &str, ext: &str, options: &[&str]) -> Vec<String> {
    (1..=2)
        .map(|k| {
            let part = s.path(&format!("part{k}.{ext}"));
            solve(input, &part, Some(k), options);
            part
        })
        .collect()
}

/// The warning of a stderr, without the program's name before it.
fn warning(stderr: &str) -> Option<&str> {
    stderr
        .lines()
        .find_map(|line| line.split_once("warning: ").map(|(_, w)| w))
}

#[test]
fn kept_json_values_merge_into_what_solve_writes_with_its_warning() {
    let s = Scratch::new();
    let notes = [
        r#""\ud800x""#,
        r#"{"id":12345678901234567890123,"tags":["a\"b",null]}"#,
        r#""caf\u00e9 \"quoted\", line\nnext""#,
        r#""\udfff\ud800""#,
    ];
    let ids = ["9007199254740993", "true", "null", "-0.50e+3"];
    let text: String = PUZZLES
        .iter()
        .zip(notes.iter().zip(ids))
        .map(|(p, (n, id))| format!("{{\"id\":{id},\"puzzle\":\"{p}\",\"note\":{n}}}\n"))
        .collect();
    let input = s.file("kinds.jsonl", text.as_bytes());
    let keep = ["--keep", "id,note"];

    let whole = s.path("whole.csv");
    let solved = solve(&input, &whole, None, &keep);
    let parts = shards(&s, &input, "jsonl", &keep);
    let merged = s.path("merged.csv");
    let said = merge(&parts, &merged);
    let whole_text = without_timing(&read_output(&whole));
    assert!(whole_text.contains("\u{fffd}x"), "{whole_text}");
    assert_eq!(without_timing(&read_output(&merged)), whole_text);
    // The same warning, naming the same value (merge names the input
    // only from the rows' `file` column, --inputs or --summaries).
    let warned = warning(&solved).expect("solve's warning");
    let start =
        "2 kept values hold a lone surrogate escape, the first in column \"note\" on line 1 of";
    assert!(warned.starts_with(start), "{warned}");
    assert!(
        warning(&said).is_some_and(|w| w.starts_with(start)),
        "{said}"
    );

    // Into JSON Lines: every value as written, and no warning.
    let whole = s.path("whole.jsonl");
    solve(&input, &whole, None, &keep);
    let merged = s.path("merged.jsonl");
    let said = merge(&parts, &merged);
    assert_eq!(
        without_json_timing(&read_output(&merged)),
        without_json_timing(&read_output(&whole))
    );
    assert_eq!(warning(&said), None, "{said}");
}

#[test]
fn kept_bytes_that_are_not_utf8_merge_into_what_solve_writes() {
    let s = Scratch::new();
    let mut bytes = b"puzzle,note\n".to_vec();
    for (i, p) in PUZZLES.iter().enumerate() {
        bytes.extend_from_slice(p.as_bytes());
        bytes.extend_from_slice(&[b',', b'c', b'a', b'f', 0xE9, b'0' + i as u8, b'\n']);
    }
    let input = s.file("latin1.csv", &bytes);
    let keep = ["--keep", "note"];
    let whole = s.path("whole.csv");
    solve(&input, &whole, None, &keep);
    let parts = shards(&s, &input, "csv", &keep);
    let merged = s.path("merged.csv");
    merge(&parts, &merged);
    let read = |path: &str| {
        let bytes = std::fs::read(path).unwrap();
        without_timing(&String::from_utf8_lossy(&bytes))
    };
    assert_eq!(read(&merged), read(&whole));
    // Byte for byte, as solve keeps them.
    let latin = |path: &str| {
        std::fs::read(path)
            .unwrap()
            .iter()
            .filter(|&&b| b == 0xE9)
            .count()
    };
    assert_eq!(
        (latin(&merged), latin(&whole)),
        (PUZZLES.len(), PUZZLES.len())
    );
}
