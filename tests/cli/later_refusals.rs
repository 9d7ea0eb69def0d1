//! Refusals that came once the results file was replaced (trial60 F2-2):
//! an input after the first whose puzzle column is unclear, a `check
//! --baseline` row that cannot be read. Each is found before the first
//! row and leaves the results file as it was, in every format and for
//! solve, check and rate; a refusal that can only come later (an input
//! read once, a baseline row past the first rows) says what the file
//! holds.

use crate::common::*;

/// What the results files held before each run.
const KNOWN: &[u8] = b"yesterday's results\n";

/// Each results format.
const OUTPUTS: [&str; 3] = ["old.csv", "old.jsonl", "old.parquet"];

/// `id,sudoku,note` of complete grids beside an empty column: which holds
/// the puzzles is unclear, found on the records read ahead.
fn unclear_csv(pairs: &[(String, String)]) -> String {
    let mut text = String::from("id,sudoku,note\n");
    for (i, (_, s)) in pairs.iter().enumerate() {
        text.push_str(&format!("{i},{s},\n"));
    }
    text
}

/// The puzzles of `pairs`, one a line.
fn puzzle_lines(pairs: &[(String, String)]) -> String {
    pairs.iter().map(|(p, _)| format!("{p}\n")).collect()
}

#[test]
fn an_input_after_the_first_refused_on_its_first_records_leaves_the_results_file_as_it_was() {
    let scratch = Scratch::new();
    let pairs = kaggle(5);
    let first = scratch.file(
        "puz.csv",
        format!("sudoku\n{}", puzzle_lines(&pairs)).as_bytes(),
    );
    let csv = scratch.file("grids.csv", unclear_csv(&pairs).as_bytes());
    let objects: String = pairs
        .iter()
        .enumerate()
        .map(|(i, (_, s))| format!("{{\"id\":{i},\"sudoku\":\"{s}\",\"note\":\"\"}}\n"))
        .collect();
    let json = scratch.file("grids.jsonl", objects.as_bytes());
    let damaged = scratch.file("damaged.csv.gz", b"not gzip at all\n");
    for later in [&csv, &json, &damaged] {
        for command in ["solve", "check", "rate"] {
            for name in OUTPUTS {
                for existing in [true, false] {
                    let path = scratch.path(name);
                    let _ = std::fs::remove_file(&path);
                    if existing {
                        scratch.file(name, KNOWN);
                    }
                    let output = run_subcommand(command, &[&first, later, "-o", &path]);
                    let what = format!("{command} {later} -o {name}");
                    assert_eq!(code(&output), 2, "{what}: {}", stderr(&output));
                    match existing {
                        true => assert_eq!(std::fs::read(&path).expect("there"), KNOWN, "{what}"),
                        false => assert!(!std::path::Path::new(&path).exists(), "{what}"),
                    }
                }
            }
        }
    }
    let output = run_subcommand("solve", &[&first, &csv, "-o", &scratch.path("old.csv")]);
    assert!(stderr(&output).contains("unclear"), "{}", stderr(&output));
    // Given its column, the same run writes every row.
    let path = scratch.path("old.csv");
    let output = solve(&[&first, &csv, "-o", &path, "--column", "sudoku"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(rows(&read_output(&path)).len(), 10);
}

#[cfg(unix)]
#[test]
fn an_input_read_once_refused_after_the_first_row_says_what_the_results_file_holds() {
    // A named pipe cannot be read ahead of the run: its refusal comes once
    // the first input's rows replaced the file, and the message says so.
    let scratch = Scratch::new();
    let pairs = kaggle(3);
    let first = scratch.file("puz.txt", puzzle_lines(&pairs).as_bytes());
    let fifo = scratch.path("grids.csv");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()));
    let out = scratch.file("r.csv", KNOWN);
    let text = unclear_csv(&pairs);
    let writer = {
        let fifo = fifo.clone();
        // Opening a pipe waits for its reader: the run, once it opens it.
        std::thread::spawn(move || std::fs::write(&fifo, text))
    };
    let output = solve(&[&first, &fifo, "-o", &out]);
    writer.join().expect("the writer").expect("written");
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("unclear"), "{message}");
    assert!(
        message.contains(&format!(
            "{out} holds its first 3 rows, written before the error below (it replaced the \
             {out} that was there at this run's first row)"
        )),
        "{message}"
    );
    assert_eq!(rows(&read_output(&out)).len(), 3);
}

/// `solve` of the first `n` Kaggle puzzles into `real.csv` and its
/// results into `base.csv`, whose row `bad` then has the status `ok`.
fn baseline_with_a_bad_status(scratch: &Scratch, n: usize, bad: usize) -> (String, String) {
    let text: String = std::iter::once("puzzle\n".to_string())
        .chain(kaggle(n).into_iter().map(|(p, _)| format!("{p}\n")))
        .collect();
    let input = scratch.file("real.csv", text.as_bytes());
    let base = scratch.path("base.csv");
    let output = solve(&[&input, "-o", &base]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let bad_text: String = read_output(&base)
        .lines()
        .enumerate()
        .map(|(i, line)| match i + 1 == bad {
            true => format!("{}\n", line.replacen(",solved,", ",ok,", 1)),
            false => format!("{line}\n"),
        })
        .collect();
    (input, scratch.file("base.csv", bad_text.as_bytes()))
}

#[test]
fn a_baseline_row_refused_among_the_first_leaves_the_results_file_as_it_was() {
    let scratch = Scratch::new();
    let (input, base) = baseline_with_a_bad_status(&scratch, 300, 8);
    for name in OUTPUTS {
        for existing in [true, false] {
            let path = scratch.path(name);
            let _ = std::fs::remove_file(&path);
            if existing {
                scratch.file(name, KNOWN);
            }
            let output = run_subcommand("check", &[&input, "--baseline", &base, "-o", &path]);
            assert_eq!(code(&output), 2, "{name}: {}", stderr(&output));
            assert!(
                stderr(&output).contains("line 8: bad status `ok`"),
                "{}",
                stderr(&output)
            );
            match existing {
                true => assert_eq!(std::fs::read(&path).expect("there"), KNOWN, "{name}"),
                false => assert!(!std::path::Path::new(&path).exists(), "{name}"),
            }
        }
    }
}

#[test]
fn a_baseline_row_refused_past_the_first_rows_says_what_the_results_file_holds() {
    let scratch = Scratch::new();
    // Past the first chunk of 2,048 records.
    let (input, base) = baseline_with_a_bad_status(&scratch, 3000, 2900);
    let out = scratch.file("ck.csv", KNOWN);
    let output = run_subcommand("check", &[&input, "--baseline", &base, "-o", &out]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("line 2900: bad status `ok`"), "{message}");
    let written = rows(&read_output(&out)).len();
    assert!((1..2899).contains(&written), "{written} rows");
    assert!(
        message.contains(&format!(
            "{out} holds its first {written} rows, written before the error below (it \
             replaced the {out} that was there at this run's first row)"
        )),
        "{message}"
    );
}
