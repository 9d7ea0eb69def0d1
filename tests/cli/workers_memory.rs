//! Memory with long kept values and many workers: the chunks in flight,
//! two a worker (16 at `-j 8`), share one budget of bytes (64 MiB of
//! records), and the Parquet writer's encoder waits with at most 16 MiB of
//! column slices, so a run's peak does not grow with `-j`. Each chunk took
//! 16 MiB of records before, and held each record's note again as its
//! result, its row or its column: 400 MiB of 128 KiB notes solved at
//! `-j 8` took about 1 GB into Parquet. Here each run is held to a data
//! limit (`ulimit -d`) of 512 MiB, and every note comes back whole.

#![cfg(unix)]

use std::fs::File;

use arrow_array::cast::AsArray;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::{code, limited, stderr, Scratch};

/// Records in the input: 400 MiB of notes.
const RECORDS: usize = 3200;

/// Bytes of each note.
const NOTE_BYTES: usize = 128 << 10;

/// The data limit of each run (`ulimit -d`, in KiB): 512 MiB.
const LIMIT_KIB: usize = 512 << 10;

/// A puzzle with a unique solution.
const PUZZLE: &str =
    ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";

/// Letters that every note is cut from: twice a note's length, in no
/// order that zstd squeezes much (each note then costs its encoder time,
/// as an encoded image would).
fn letters() -> Vec<u8> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..2 * NOTE_BYTES)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            b'a' + (state % 26) as u8
        })
        .collect()
}

/// The note of record `i` (0-based), from `letters`: different for each
/// record.
fn note(letters: &[u8], i: usize) -> &str {
    let start = (i * 7919) % NOTE_BYTES;
    std::str::from_utf8(&letters[start..start + NOTE_BYTES]).expect("letters")
}

/// Runs `sudoku-batch solve INPUT --keep note -o OUTPUT -j 8 --quiet`
/// within the data limit [`LIMIT_KIB`], asserting that it exits 0.
fn solve_limited(input: &str, output: &str) {
    let args = [
        "solve", input, "--keep", "note", "-o", output, "-j", "8", "--quiet",
    ];
    let run = limited(&format!("ulimit -d {LIMIT_KIB}"), &args);
    assert_eq!(code(&run), 0, "{args:?}: {}", stderr(&run));
}

#[test]
fn long_kept_values_at_eight_workers_stay_within_a_fixed_budget() {
    let s = Scratch::new();
    let letters = letters();
    let mut csv = Vec::with_capacity(RECORDS * (NOTE_BYTES + 100));
    csv.extend_from_slice(b"puzzle,note\n");
    for i in 0..RECORDS {
        csv.extend_from_slice(PUZZLE.as_bytes());
        csv.push(b',');
        csv.extend_from_slice(note(&letters, i).as_bytes());
        csv.push(b'\n');
    }
    let input = s.file("notes.csv", &csv);
    drop(csv);

    let parquet = s.path("r.parquet");
    solve_limited(&input, &parquet);
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&parquet).unwrap())
        .unwrap()
        .with_batch_size(64)
        .build()
        .unwrap();
    let mut rows = 0;
    for batch in reader {
        let batch = batch.unwrap();
        let notes = batch.column_by_name("note").unwrap().as_string::<i32>();
        for row in 0..batch.num_rows() {
            assert!(notes.value(row) == note(&letters, rows), "row {rows}");
            rows += 1;
        }
    }
    assert_eq!(rows, RECORDS);

    let results = s.path("r.csv");
    solve_limited(&input, &results);
    let text = std::fs::read_to_string(&results).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("line,puzzle,status,solution,guesses,solve_us,check,message,note")
    );
    let mut rows = 0;
    for line in lines {
        assert!(line.ends_with(note(&letters, rows)), "row {rows}");
        assert!(line.contains(",solved,"), "row {rows}");
        rows += 1;
    }
    assert_eq!(rows, RECORDS);
}
