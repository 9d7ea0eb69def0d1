//! Kept text that is not UTF-8 (a Latin-1 or cp1252 export's `café` as
//! the byte 0xE9) and JSON strings with a lone surrogate escape (trial57
//! F0): CSV results copy the bytes exactly through `solve`, `rate`,
//! `check`, shards and `merge`, and `--resume`; JSON Lines and Parquet,
//! whose strings are UTF-8, write U+FFFD for them and say so once on
//! stderr (docs/formats.md, "Kept columns").

use std::fs::File;

use crate::common::*;
use arrow_array::cast::AsArray;
use arrow_array::Array;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// A puzzle with one solution.
const P: &str = ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";

/// The `note` values of the input: cp1252 `café1`, two bytes that are no
/// UTF-8, and plain text.
const NOTES: [&[u8]; 4] = [b"caf\xe91", b"\xff\xfe", b"plain", b"caf\xe94"];

/// A CSV input of `P` with the `NOTES`.
fn latin_input(s: &Scratch) -> String {
    let mut csv = b"puzzle,note\n".to_vec();
    for note in NOTES {
        csv.extend_from_slice(P.as_bytes());
        csv.push(b',');
        csv.extend_from_slice(note);
        csv.push(b'\n');
    }
    s.file("lat.csv", &csv)
}

/// The last field of every data row of a CSV file, as bytes (no field
/// here is quoted).
fn last_fields(path: &str) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    bytes
        .split(|&b| b == b'\n')
        .skip(1)
        .filter(|line| !line.is_empty())
        .map(|line| line.rsplit(|&b| b == b',').next().unwrap().to_vec())
        .collect()
}

/// Runs the binary with `args`, expecting exit code 0 and no warning.
fn quietly(args: &[&str]) {
    let output = bin().args(args).output().unwrap();
    assert_eq!(code(&output), 0, "{args:?}: {}", stderr(&output));
    assert!(
        !stderr(&output).contains("warning"),
        "{args:?}: {}",
        stderr(&output)
    );
}

#[test]
fn csv_results_copy_kept_bytes_that_are_not_utf8_exactly() {
    let s = Scratch::new();
    let input = latin_input(&s);
    for command in ["solve", "rate"] {
        let out = s.path(&format!("{command}.csv"));
        quietly(&[command, &input, "--keep", "note", "-o", &out]);
        assert_eq!(last_fields(&out), NOTES, "{command}");
    }
    let out = s.path("check.csv");
    quietly(&["check", &input, "--keep", "note", "-o", &out]);
    assert_eq!(last_fields(&out), NOTES, "check");
}

#[test]
fn shards_and_their_merge_keep_the_bytes() {
    let s = Scratch::new();
    let input = latin_input(&s);
    let shards: Vec<String> = (1..=2)
        .map(|k| {
            let out = s.path(&format!("shard{k}.csv"));
            let shard = format!("{k}/2");
            quietly(&[
                "solve", &input, "--keep", "note", "--shard", &shard, "-o", &out,
            ]);
            out
        })
        .collect();
    let merged = s.path("merged.csv");
    quietly(&["merge", &shards[0], &shards[1], "-o", &merged]);
    assert_eq!(last_fields(&merged), NOTES);
}

#[test]
fn a_resumed_file_keeps_its_own_rows_and_the_new_ones_bytes() {
    let s = Scratch::new();
    let input = latin_input(&s);
    let out = s.path("r.csv");
    quietly(&["solve", &input, "--keep", "note", "-o", &out]);
    // Cut after the header and two rows, the second holding 0xFF 0xFE.
    let whole = std::fs::read(&out).unwrap();
    let cut: usize = whole
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(2)
        .unwrap()
        .0;
    std::fs::write(&out, &whole[..=cut]).unwrap();
    quietly(&["solve", &input, "--keep", "note", "-o", &out, "--resume"]);
    assert_eq!(last_fields(&out), NOTES);
    // Resumed once more, whole: nothing to add, nothing refused.
    quietly(&["solve", &input, "--keep", "note", "-o", &out, "--resume"]);
    assert_eq!(last_fields(&out), NOTES);
}

#[test]
fn json_lines_and_parquet_results_write_u_fffd_and_say_so() {
    let s = Scratch::new();
    let input = latin_input(&s);
    let warning = |format: &str| {
        format!(
            "sudoku-batch: warning: 3 kept values hold bytes that are not UTF-8, the first in \
             column \"note\" on line 2 of {input}: written with U+FFFD for what {format} text \
             cannot hold (CSV results keep them byte for byte)\n"
        )
    };
    let expected = ["caf\u{fffd}1", "\u{fffd}\u{fffd}", "plain", "caf\u{fffd}4"];

    let jsonl = s.path("o.jsonl");
    let output = solve(&[&input, "--keep", "note", "-o", &jsonl]);
    assert_eq!(code(&output), 0);
    assert_eq!(stderr(&output), warning("JSON Lines"));
    let notes: Vec<String> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["note"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(notes, expected);

    let parquet = s.path("o.parquet");
    let output = solve(&[&input, "--keep", "note", "-o", &parquet]);
    assert_eq!(code(&output), 0);
    assert_eq!(stderr(&output), warning("Parquet"));
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&parquet).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let notes: Vec<String> = reader
        .map(Result::unwrap)
        .flat_map(|batch| {
            let column = batch
                .column_by_name("note")
                .unwrap()
                .as_string::<i32>()
                .clone();
            (0..column.len())
                .map(move |i| column.value(i).to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(notes, expected);
}

#[test]
fn a_lone_surrogate_stays_as_written_in_json_lines_and_is_named_elsewhere() {
    let s = Scratch::new();
    let input = s.file(
        "s.jsonl",
        format!("{{\"puzzle\":\"{P}\",\"n\":\"\\ud800x\"}}\n").as_bytes(),
    );
    let jsonl = s.path("o.jsonl");
    quietly(&["solve", &input, "--keep", "n", "-o", &jsonl]);
    assert!(
        std::fs::read_to_string(&jsonl)
            .unwrap()
            .contains(r#","n":"\ud800x"}"#),
        "{}",
        std::fs::read_to_string(&jsonl).unwrap()
    );
    let csv = s.path("o.csv");
    let output = solve(&[&input, "--keep", "n", "-o", &csv]);
    assert_eq!(code(&output), 0);
    assert_eq!(
        stderr(&output),
        format!(
            "sudoku-batch: warning: 1 kept value holds a lone surrogate escape, the first in \
             column \"n\" on line 1 of {input}: written with U+FFFD for what CSV text cannot \
             hold (JSON Lines results keep them as written)\n"
        )
    );
    assert_eq!(last_fields(&csv), [b"\xef\xbf\xbdx".to_vec()]);
}

#[test]
fn canon_and_augment_carry_the_bytes_into_their_tables() {
    let s = Scratch::new();
    let input = latin_input(&s);
    let canon = s.path("canon.csv");
    quietly(&["canon", &input, "--keep", "note", "-o", &canon, "--quiet"]);
    assert_eq!(last_fields(&canon), NOTES);
    let augmented = s.path("augmented.csv");
    quietly(&[
        "augment", &input, "--keep", "note", "--copies", "1", "-o", &augmented, "--quiet",
    ]);
    assert_eq!(last_fields(&augmented), NOTES);
}
