//! A large input file (32 MiB or more) is read past the page cache, a few
//! blocks ahead on a thread of its own (src/input/direct.rs): every record
//! comes out as when the same bytes arrive on stdin, which is read as
//! always, whether or not the file system takes direct reads.

use crate::common::{
    code, kaggle, read_output, solve, solve_stdin, stderr, without_timing, Scratch,
};

/// Bytes of a long note: under the longest CSV record read whole (1 MiB).
const NOTE_BYTES: usize = 1_000_000;

/// A CSV of `puzzle,note` rows of 40 MB: runs of short rows between
/// rows with a megabyte of note, so that records and blocks end at every
/// kind of place.
fn large_csv() -> Vec<u8> {
    let mut text = String::from("puzzle,note\n");
    let puzzles = kaggle(40);
    for (i, (puzzle, _)) in puzzles.iter().enumerate() {
        for k in 0..=(i % 7) {
            text.push_str(&format!("{puzzle},short {i} {k}\n"));
        }
        let letter = char::from(b'a' + (i % 26) as u8);
        let note: String = std::iter::repeat_n(letter, NOTE_BYTES - i).collect();
        text.push_str(&format!("{puzzle},{note}\n"));
    }
    text.into_bytes()
}

#[test]
fn a_large_file_gives_every_record_as_from_stdin() {
    let scratch = Scratch::new();
    let bytes = large_csv();
    // Over the least size read directly (32 MiB).
    assert!(bytes.len() > 32 << 20, "{} bytes", bytes.len());
    let input = scratch.file("large.csv", &bytes);
    let (from_file, from_stdin) = (scratch.path("file.csv"), scratch.path("stdin.csv"));

    let run = solve(&[&input, "--keep", "note", "-o", &from_file]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let stdin_args = ["-", "--format", "csv", "--keep", "note", "-o", &from_stdin];
    let run = solve_stdin(&stdin_args, &bytes);
    assert_eq!(code(&run), 0, "{}", stderr(&run));

    let (file_rows, stdin_rows) = (read_output(&from_file), read_output(&from_stdin));
    let records = bytes.iter().filter(|&&b| b == b'\n').count() - 1;
    assert_eq!(file_rows.lines().count(), records + 1);
    assert!(
        without_timing(&file_rows) == without_timing(&stdin_rows),
        "the file's results differ from stdin's"
    );
}
