//! A Parquet input whose long kept value repeats on every row (a note of
//! 128 KiB on 4,096 rows): Parquet's writers (pyarrow's, Arrow's) store it
//! once, in a dictionary, so the file is small and the footer's sizes say
//! its rows are short. Decoded as Arrow strings, a batch of 4,096 rows took
//! the note's bytes 4,096 times (512 MiB here; at 600 KB a row 2.4 GB,
//! past their 32-bit offsets: "index overflow decoding byte array", exit 2,
//! for a file pyarrow and Polars read). Read as views of the dictionary, a
//! batch takes about the bytes the footer gives its pages, and every row
//! comes back whole: in the results of `solve` with one worker, and through
//! `merge` of those results rewritten in one row group as pyarrow writes
//! them, each run within a data limit (`ulimit -d`) of that one batch of
//! strings, 512 MiB, of which each needs less than half. A run that copies
//! the note on every row of a batch is killed by it.

#![cfg(unix)]

use std::fs::File;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;

use crate::common::{code, limited, stderr, Scratch};

/// Rows of the input: one Arrow batch of the reader's.
const ROWS: usize = 4096;

/// Bytes of the note: 4,096 of them are 512 MiB.
const NOTE_BYTES: usize = 128 << 10;

/// The data limit of each run (`ulimit -d`, in KiB): the [`ROWS`] notes
/// decoded as one batch of Arrow strings, which leaves no room for the
/// rest of a run.
const LIMIT_KIB: usize = ROWS * NOTE_BYTES / 1024;

/// Rows written at a time, so that the test holds no more than a few.
const WRITTEN: usize = 32;

/// A puzzle with a unique solution.
const PUZZLE: &str =
    ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";

/// Runs `sudoku-batch ARGS --quiet` within the data limit [`LIMIT_KIB`],
/// asserting that it exits 0.
fn run_limited(args: &[&str]) {
    let args = [args, &["--quiet"]].concat();
    let output = limited(&format!("ulimit -d {LIMIT_KIB}"), &args);
    assert_eq!(code(&output), 0, "{args:?}: {}", stderr(&output));
}

/// Writes the batches of `batches` to a Parquet file at `path` with
/// Arrow's default settings (dictionary pages, one row group).
fn write(path: &str, batches: impl Iterator<Item = RecordBatch>) {
    let mut batches = batches.peekable();
    let schema = batches.peek().expect("a batch").schema();
    let mut writer = ArrowWriter::try_new(File::create(path).unwrap(), schema, None).unwrap();
    for batch in batches {
        writer.write(&batch).unwrap();
    }
    writer.close().unwrap();
}

/// Checks that every row of the Parquet file at `path` holds the note
/// whole, and that there are [`ROWS`].
fn assert_notes_whole(path: &str, note: &str) {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap())
        .unwrap()
        .with_batch_size(WRITTEN)
        .build()
        .unwrap();
    let mut rows = 0;
    for batch in reader {
        let batch = batch.unwrap();
        let notes = batch.column_by_name("note").unwrap().as_string::<i32>();
        for row in 0..batch.num_rows() {
            assert!(notes.value(row) == note, "{path}: the note of row {rows}");
            rows += 1;
        }
    }
    assert_eq!(rows, ROWS, "{path}");
}

#[test]
fn a_long_value_repeated_in_a_dictionary_is_read_on_every_row() {
    let s = Scratch::new();
    let note = "z".repeat(NOTE_BYTES);
    let input = s.path("notes.parquet");
    write(
        &input,
        (0..ROWS / WRITTEN).map(|_| {
            let puzzles: ArrayRef = Arc::new(StringArray::from(vec![PUZZLE; WRITTEN]));
            let notes: ArrayRef = Arc::new(StringArray::from(vec![note.as_str(); WRITTEN]));
            RecordBatch::try_from_iter([("puzzle", puzzles), ("note", notes)]).unwrap()
        }),
    );
    // The note is stored once.
    assert!(std::fs::metadata(&input).unwrap().len() < 4 * NOTE_BYTES as u64);

    let results = s.path("r.parquet");
    run_limited(&[
        "solve",
        &input,
        "--keep",
        "note",
        "-o",
        &results,
        "-j",
        "1",
        "--progress",
        "never",
    ]);
    assert_notes_whole(&results, &note);

    // The results in one row group, as pyarrow rewrites them, merged.
    let rewritten = s.path("rewritten.parquet");
    let rows = ParquetRecordBatchReaderBuilder::try_new(File::open(&results).unwrap())
        .unwrap()
        .with_batch_size(WRITTEN)
        .build()
        .unwrap()
        .map(Result::unwrap);
    write(&rewritten, rows);
    let merged = s.path("merged.parquet");
    run_limited(&["merge", &rewritten, "-o", &merged]);
    assert_notes_whole(&merged, &note);
}
