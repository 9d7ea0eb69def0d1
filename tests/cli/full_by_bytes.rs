//! A run that drops records before solving them (`--shard`'s other
//! records, `--resume`'s finished rows) over records whose kept values fill
//! a batch's bytes (16 MiB) long before its count of records: a Parquet
//! file whose one-megabyte note repeats on every row, stored once in a
//! dictionary (a small file, 40 MB of notes read). The shard asked the
//! reader for more records into a batch it had filled by its bytes, and
//! the reader, seeing it full, added none: `--shard 1/2` never ended, nor
//! did its `--resume`. Each run here must end within a minute, with the
//! shard's rows, every note whole.

use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::{ArrayRef, StringArray};

use crate::common::{code, csv_table, stderr, without_timing, Scratch};

/// Rows of the input: a shard of half of them fills a batch's bytes.
const ROWS: usize = 40;

/// Bytes of the note: stored once, in a dictionary page (under its 1 MiB
/// limit).
const NOTE_BYTES: usize = 1_000_000;

/// A puzzle with a unique solution.
const PUZZLE: &str =
    ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";

/// How long a run may take before it counts as hung.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `sudoku-batch solve ARGS --quiet --progress never`, killed and
/// failed when it has not ended by [`DEADLINE`]; its output.
fn solve_within_deadline(args: &[&str]) -> Output {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .arg("solve")
        .args(args)
        .args(["--quiet", "--progress", "never"])
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while child
        .try_wait()
        .expect("the child can be waited for")
        .is_none()
    {
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("solve {args:?} still running after {DEADLINE:?}: hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the child's output")
}

/// The lines of the results CSV at `path`, each checked solved with the
/// note whole.
fn lines_solved_with_the_note(path: &str, note: &str) -> Vec<u64> {
    let (_, rows) = csv_table(&std::fs::read_to_string(path).expect("results"));
    rows.iter()
        .map(|row| {
            let line = row["line"].parse().expect("a line number");
            assert_eq!(row["status"], "solved", "{path}: line {line}");
            assert!(row["note"] == note, "{path}: the note of line {line}");
            line
        })
        .collect()
}

#[test]
fn a_shard_and_its_resume_end_when_their_rows_fill_a_batch_by_bytes() {
    let s = Scratch::new();
    let note = "r".repeat(NOTE_BYTES);
    let puzzles: ArrayRef = Arc::new(StringArray::from(vec![PUZZLE; ROWS]));
    let notes: ArrayRef = Arc::new(StringArray::from(vec![note.as_str(); ROWS]));
    let input = s.parquet("notes.parquet", vec![("puzzle", puzzles), ("note", notes)]);
    // The note is stored once.
    assert!(std::fs::metadata(&input).unwrap().len() < 2 * NOTE_BYTES as u64);

    let shard = s.path("shard.csv");
    let output = solve_within_deadline(&[&input, "--keep", "note", "--shard", "1/2", "-o", &shard]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let odd: Vec<u64> = (1..=ROWS as u64).step_by(2).collect();
    assert_eq!(lines_solved_with_the_note(&shard, &note), odd);

    // The first shard's results cut after 5 rows, resumed: the same rows.
    let whole = std::fs::read_to_string(&shard).unwrap();
    let cut: String = whole.split_inclusive('\n').take(1 + 5).collect();
    let resumed = s.file("resumed.csv", cut.as_bytes());
    let output = solve_within_deadline(&[
        &input, "--keep", "note", "--shard", "1/2", "--resume", "-o", &resumed,
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let again = std::fs::read_to_string(&resumed).unwrap();
    assert!(
        without_timing(&again) == without_timing(&whole),
        "the resumed shard differs from the shard run whole"
    );
}
