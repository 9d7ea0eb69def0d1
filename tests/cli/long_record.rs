//! A CSV record over the 1 MiB a record may hold whose quoted field runs
//! over line ends (a long note that pandas quotes over many lines) is one
//! `malformed` row naming its lines, as the same note on one line is one
//! `line too long` row: each of its lines was a row of its own (220,001
//! rows for a note of 220,000 lines), and `check --baseline` and
//! `--resume` on such results timed out. A stray quote whose field runs on
//! past 1 MiB still costs its own line: the lines within the 1 MiB and
//! those from the first that reads as a record are rows again, numbered
//! as they lie; the quote's row names the lines between, which are not.

use crate::common::*;

/// The longest CSV record kept, in bytes.
const LIMIT: usize = 1 << 20;

/// The rows of a results CSV as (line, status, message, note).
fn noted_rows(text: &str) -> Vec<(u64, String, String, String)> {
    let (_, rows) = csv_table(text);
    rows.into_iter()
        .map(|row| {
            let line = row["line"].parse().expect("a line number");
            (
                line,
                row["status"].clone(),
                row["message"].clone(),
                row["note"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_quoted_note_of_many_lines_over_a_mebibyte_is_one_row() {
    let scratch = Scratch::new();
    let p: Vec<String> = kaggle(3).into_iter().map(|(p, _)| p).collect();
    // As pandas writes a note of 220,000 lines: quoted, its line ends kept.
    let note = "line\n".repeat(220_000);
    let text = format!("puzzle,note\n{},x\n{},\"{note}\"\n{},y\n", p[0], p[1], p[2]);
    let input = scratch.file("big1.csv", text.as_bytes());
    let out = scratch.path("b1.csv");
    let output = solve(&[&input, "--keep", "note", "-o", &out]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let results = read_output(&out);
    let got = noted_rows(&results);
    let solved = |line: u64, note: &str| (line, "solved".into(), String::new(), note.into());
    assert_eq!(
        got,
        [
            solved(2, "x"),
            (
                3,
                "malformed".into(),
                format!("record too long (over {LIMIT} bytes), lines 3-220003"),
                String::new()
            ),
            solved(220_004, "y"),
        ]
    );
    // The same note on one line: one row, as before.
    let line = "line ".repeat(220_000);
    let text = format!("puzzle,note\n{},x\n{},\"{line}\"\n{},y\n", p[0], p[1], p[2]);
    let input = scratch.file("big2.csv", text.as_bytes());
    let output = solve(&[&input, "--keep", "note", "-o", &out]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let got = noted_rows(&read_output(&out));
    assert_eq!(got[1].2, format!("line too long (over {LIMIT} bytes)"));
    assert_eq!((got[1].0, got[2].0), (3, 4));
}

#[test]
fn a_stray_quote_past_a_mebibyte_costs_its_line_and_the_lines_between() {
    let scratch = Scratch::new();
    let p: Vec<String> = kaggle(3).into_iter().map(|(p, _)| p).collect();
    // A quote left open on line 3, in a note of prose lines of 1,000 bytes
    // (none reads as a record), past 1 MiB to a row of the file, line 1,503.
    let prose = "the note goes on, ".repeat(60);
    let prose = format!("{}\n", &prose[..999]);
    let quote = format!("{},\"left open\n", p[1]);
    let mut text = format!("puzzle,note\n{},x\n", p[0]);
    let start = text.len();
    text.push_str(&quote);
    text.push_str(&prose.repeat(1_499));
    text.push_str(&format!("{},y\n", p[2]));
    text.push_str(&prose.repeat(3));
    text.push_str(&format!("{},z\n", p[0]));
    let kept = &text.as_bytes()[start..start + LIMIT + 1];
    let unread = 3 + kept.iter().filter(|&&b| b == b'\n').count() as u64;
    let input = scratch.file("stray.csv", text.as_bytes());
    let out = scratch.path("s.csv");
    let output = solve(&[&input, "--keep", "note", "-o", &out]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let got = noted_rows(&read_output(&out));
    assert_eq!(got[0].0, 2);
    assert_eq!(
        (got[1].0, &got[1].2[..]),
        (
            3,
            &format!(
                "unterminated quote opened on line 3; lines {unread}-1502 after it, past its \
                 first {LIMIT} bytes, not read"
            )[..]
        )
    );
    // Each line within the 1 MiB is a row of its own, then the row of the
    // file and every line after it, numbered as they lie.
    let lines: Vec<u64> = got[2..].iter().map(|row| row.0).collect();
    let expected: Vec<u64> = (4..unread).chain(1503..=1507).collect();
    assert_eq!(lines, expected);
    let solved: Vec<(u64, &str)> = got
        .iter()
        .filter(|row| row.1 == "solved")
        .map(|row| (row.0, &row.3[..]))
        .collect();
    assert_eq!(solved, [(2, "x"), (1503, "y"), (1507, "z")]);
}

#[test]
fn a_solutions_csv_with_a_note_of_many_lines_over_a_mebibyte_keeps_its_pairing() {
    let scratch = Scratch::new();
    let pairs = kaggle(3);
    let puzzles: String = pairs.iter().map(|(p, _)| format!("{p}\n")).collect();
    let input = scratch.file("p.txt", puzzles.as_bytes());
    let note = "line\n".repeat(220_000);
    let solutions = format!(
        "id,solution,note\n1,{},\n2,{},\"{note}\"\n3,{},\n",
        pairs[0].1, pairs[1].1, pairs[2].1
    );
    let file = scratch.file("s.csv", solutions.as_bytes());
    let output = solve(&[&input, "--solutions", &file]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let got: Vec<(u64, String, String)> = rows(&stdout(&output))
        .into_iter()
        .map(|r| (r.line, r.check, r.message))
        .collect();
    let ok = |line: u64| (line, "ok".to_string(), String::new());
    let why = format!(
        "solutions file line 3: not a grid: record too long (over {LIMIT} bytes), lines 3-220003"
    );
    assert_eq!(got, [ok(1), (2, "mismatch".into(), why), ok(3)]);
}
