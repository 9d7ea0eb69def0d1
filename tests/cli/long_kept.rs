//! Parquet results of records with long kept values (a megabyte a row, as
//! an encoded image beside the puzzle), run as the binary: a row group ends
//! at 64 MiB of values, long before 32,768 rows (so memory does not grow
//! with the rows' size), in `solve`'s results, in `merge -o .parquet`, and
//! when the results are read again as input; every value comes back whole.

use std::fs::File;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::common::{code, stderr, Scratch};
use crate::shard::run;

/// Records in the input.
const RECORDS: usize = 100;

/// Bytes of each kept note: under the longest CSV record read whole
/// (1 MiB), 100 MB in all.
const NOTE_BYTES: usize = 1_000_000;

/// A puzzle with a unique solution.
const PUZZLE: &str =
    ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";

/// The note kept beside the puzzle of record `i` (0-based): its number,
/// then letters, different for each record.
fn note(i: usize) -> String {
    let mut text = format!("{i:06}");
    let letter = char::from(b'a' + (i % 26) as u8);
    text.extend(std::iter::repeat_n(letter, NOTE_BYTES - text.len()));
    text
}

/// The rows of each row group of the Parquet file at `path`.
fn row_groups(path: &str) -> Vec<i64> {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let metadata = reader.metadata();
    (0..metadata.num_row_groups())
        .map(|g| metadata.row_group(g).num_rows())
        .collect()
}

/// Checks that the Parquet results at `path` hold every record's line
/// (the first `first`) and note, whole and in order.
fn assert_notes_whole(path: &str, first: u64) {
    let file = File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_batch_size(16)
        .build()
        .unwrap();
    let mut i = 0;
    for batch in reader {
        let batch = batch.unwrap();
        let lines = batch
            .column_by_name("line")
            .unwrap()
            .as_primitive::<UInt64Type>();
        let notes = batch.column_by_name("note").unwrap().as_string::<i32>();
        for row in 0..batch.num_rows() {
            assert_eq!(lines.value(row), first + i as u64, "{path}: row {i}");
            assert!(notes.value(row) == note(i), "{path}: the note of row {i}");
            i += 1;
        }
    }
    assert_eq!(i, RECORDS, "{path}");
}

/// Checks that the Parquet file at `path` has its rows in several row
/// groups, each far under 32,768 rows: 64 MiB of notes each, and at most
/// a chunk's 16 MiB more (about 85 notes).
fn assert_groups_by_bytes(path: &str) {
    let groups = row_groups(path);
    assert_eq!(groups.iter().sum::<i64>(), RECORDS as i64, "{path}");
    assert!(groups.len() >= 2, "{path}: row groups {groups:?}");
    assert!(
        groups.iter().all(|&rows| rows <= 90),
        "{path}: row groups {groups:?}"
    );
}

#[test]
fn long_kept_values_end_row_groups_by_bytes_and_come_back_whole() {
    let s = Scratch::new();
    let mut text = String::with_capacity(RECORDS * (NOTE_BYTES + 100));
    text.push_str("puzzle,note\n");
    for i in 0..RECORDS {
        text.push_str(PUZZLE);
        text.push(',');
        text.push_str(&note(i));
        text.push('\n');
    }
    let input = s.file("notes.csv", text.as_bytes());
    drop(text);
    let results = s.path("r.parquet");
    let output = run("solve", &[&input, "--keep", "note", "-o", &results]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_groups_by_bytes(&results);
    // Line 1 is the header.
    assert_notes_whole(&results, 2);

    // The results read as input, their notes kept again.
    let again = s.path("again.parquet");
    let output = run("solve", &[&results, "--keep", "note", "-o", &again]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_groups_by_bytes(&again);
    // A Parquet input's lines are its rows.
    assert_notes_whole(&again, 1);

    let merged = s.path("merged.parquet");
    let output = run("merge", &[&results, "-o", &merged]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_groups_by_bytes(&merged);
    assert_notes_whole(&merged, 2);
}
