//! A results file damaged by a stray `"` (an edit, a tool that wrote a
//! field back) against one cut short by a kill: `--resume` took every line
//! after an unclosed quote for one row cut short, cut the file there and
//! solved those rows again; `merge` and `check --baseline` read a field
//! that a stray quote opened and a later quote closed as one row, the rows
//! between lost (merge exit 0, check "no row for" them). A kill cuts only
//! the last row, so whole rows after the quote mean damage: refused, exit
//! 2, naming the line where the quote opens, the file left as it was.
//! JSON Lines, a row per line, has no such fault: a line that is not JSON
//! is refused wherever it is but last, where it is a row cut short.

use crate::common::{code, in_dir, run_subcommand, stderr, without_json_timing, without_timing};

const TOP95: &str = "data/top95.txt";

/// The results of `solve ARGS --quiet` into `out`, asserting that it ran
/// clean.
fn solve_to(out: &str, args: &[&str]) -> String {
    let output = run_subcommand("solve", &[args, &["-o", out, "--quiet"]].concat());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    std::fs::read_to_string(out).unwrap()
}

/// `text` with line `n` (from 1) edited by `edit`.
fn edit_line(text: &str, n: usize, edit: impl Fn(&str) -> String) -> String {
    text.split_inclusive('\n')
        .enumerate()
        .map(|(i, line)| match i + 1 == n {
            true => edit(line),
            false => line.to_string(),
        })
        .collect()
}

/// A row's empty message given `message` instead.
fn message(message: &'static str) -> impl Fn(&str) -> String {
    move |line: &str| {
        let start = line.strip_suffix(",\n").expect("a row of an empty message");
        format!("{start},{message}\n")
    }
}

#[test]
fn resume_refuses_a_stray_quote_with_whole_rows_after_it_and_leaves_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = in_dir(&dir, "r.csv");
    let whole = solve_to(&out, &[TOP95]);
    // Cut inside row 40 (line 41), as a kill leaves it.
    let cut_at = whole
        .split_inclusive('\n')
        .take(40)
        .map(str::len)
        .sum::<usize>()
        + 30;
    let cut = &whole[..cut_at];
    let takes_in = "a quote opens a field in this row and takes in line 13 after it, a whole \
                    row of the file: a stray `\"` in this row (a kill cuts only the last row: \
                    the file was damaged here, not cut short)";
    let inside = "a stray `\"` in this row, inside a field that does not start with one (the \
                  file was damaged here, not cut short)";
    // The quote opening the message (a quoted field), the same with a
    // quoted message further on (which closes it for a count of quotes),
    // and a quote inside the message.
    let quoted_later = edit_line(cut, 20, message("\"a, b\""));
    for (text, stray, cause) in [
        (cut, "\"", takes_in),
        (&quoted_later, "\"", takes_in),
        (cut, "why \"not", inside),
    ] {
        let damaged = edit_line(text, 12, message(stray));
        std::fs::write(&out, &damaged).unwrap();
        let output = run_subcommand("solve", &[TOP95, "-o", &out, "--resume", "--quiet"]);
        let err = stderr(&output);
        assert_eq!(code(&output), 2, "{stray}: {err}");
        assert!(
            err.contains(&format!(
                "{out}: line 12: not a results row: {cause}; remove the quote, or cut the file \
                 before this line, to resume it"
            )),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), damaged, "{stray}");
    }
    // The quote in the last row, nothing after it: that row is taken for
    // one cut short, dropped and solved again.
    std::fs::write(&out, edit_line(cut, 40, message("\""))).unwrap();
    let output = run_subcommand("solve", &[TOP95, "-o", &out, "--resume", "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let resumed = std::fs::read_to_string(&out).unwrap();
    assert_eq!(without_timing(&resumed), without_timing(&whole));
}

#[test]
fn a_cut_inside_a_kept_value_of_several_lines_still_resumes_to_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles =
        std::fs::read_to_string(format!("{}/{TOP95}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    // Every third record's note spans three lines, one with commas.
    let mut input = String::from("puzzle,note\n");
    for (i, puzzle) in puzzles.lines().take(30).enumerate() {
        match i % 3 {
            0 => input.push_str(&format!("{puzzle},\"first {i}\n2,{i},x\nthird\"\n")),
            _ => input.push_str(&format!("{puzzle},plain {i}\n")),
        }
    }
    let csv = in_dir(&dir, "in.csv");
    std::fs::write(&csv, input).unwrap();
    let out = in_dir(&dir, "r.csv");
    let whole = solve_to(&out, &[&csv, "--keep", "note"]);
    // Cut inside the note of the row of record 21, after its second line.
    for inside in ["first 21\n2,21,x\n", "first 21\n2,2", "first 21\n"] {
        let cut_at = whole.find(inside).unwrap() + inside.len();
        std::fs::write(&out, &whole[..cut_at]).unwrap();
        let output = run_subcommand("solve", &[&csv, "--keep", "note", "-o", &out, "--resume"]);
        assert_eq!(code(&output), 0, "{inside:?}: {}", stderr(&output));
        let resumed = std::fs::read_to_string(&out).unwrap();
        assert_eq!(
            without_timing(&resumed),
            without_timing(&whole),
            "{inside:?}"
        );
    }
    // A stray quote in an earlier row's kept value, the file cut as above:
    // refused at that row, the row after it named.
    let cut = &whole[..whole.find("first 21\n").unwrap()];
    let at = cut.find(",plain 4\n").unwrap();
    let line = cut[..at].matches('\n').count() + 1;
    let damaged = cut.replacen(",plain 4\n", ",plain \"4\n", 1);
    std::fs::write(&out, &damaged).unwrap();
    let output = run_subcommand("solve", &[&csv, "--keep", "note", "-o", &out, "--resume"]);
    let err = stderr(&output);
    assert_eq!(code(&output), 2, "{err}");
    assert!(
        err.contains(&format!(
            "{out}: line {line}: not a results row: a stray `\"` in this row, inside a field \
             that does not start with one"
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), damaged);
}

#[test]
fn a_field_a_stray_quote_opens_and_a_later_one_closes_is_refused_not_read_as_one_row() {
    let dir = tempfile::tempdir().unwrap();
    let out = in_dir(&dir, "r.csv");
    let whole = solve_to(&out, &[TOP95]);
    // Line 5's quote opens a field; line 9's closes it: lines 6-8 are in it.
    let damaged = edit_line(&edit_line(&whole, 5, message("\"")), 9, message("x\""));
    std::fs::write(&out, &damaged).unwrap();
    // `merge` and `check` say where, `solve --resume` then "not a results
    // row", as of any row it cannot read.
    let says = "a quote opens a field in this row and takes in line 6 after it, a whole row of \
                the file: a stray `\"` in this row";
    let merged = in_dir(&dir, "m.csv");
    for (subcommand, args) in [
        ("merge", vec![out.as_str(), "-o", &merged]),
        ("check", vec![TOP95, "--baseline", &out, "-o", "/dev/null"]),
        ("solve", vec![TOP95, "-o", &out, "--resume", "--quiet"]),
    ] {
        let output = run_subcommand(subcommand, &args);
        let err = stderr(&output);
        assert_eq!(code(&output), 2, "{subcommand}: {err}");
        assert!(
            err.contains(&format!("{out}: line 5: ")) && err.contains(says),
            "{subcommand}: {err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), damaged);
    assert!(!std::path::Path::new(&merged).exists());
}

#[test]
fn json_lines_refuse_a_line_that_is_not_json_but_the_last_one_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let out = in_dir(&dir, "r.jsonl");
    let whole = solve_to(&out, &[TOP95]);
    let stray = |line: &str| line.replacen("\"status\"", "\"status", 1);
    // In the middle: refused by all three, named at its line.
    let damaged = edit_line(&whole, 12, stray);
    std::fs::write(&out, &damaged).unwrap();
    for (subcommand, args) in [
        ("merge", vec![out.as_str(), "-o", "/dev/null"]),
        ("check", vec![TOP95, "--baseline", &out, "-o", "/dev/null"]),
        ("solve", vec![TOP95, "-o", &out, "--resume", "--quiet"]),
    ] {
        let output = run_subcommand(subcommand, &args);
        let err = stderr(&output);
        assert_eq!(code(&output), 2, "{subcommand}: {err}");
        assert!(
            err.contains(&format!("{out}: line 12")),
            "{subcommand}: {err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), damaged);
    // Last, without its line end: a row cut short, which --resume drops
    // and solves again (merge refuses it as cut short).
    let cut_at = whole
        .split_inclusive('\n')
        .take(40)
        .map(str::len)
        .sum::<usize>()
        + 30;
    std::fs::write(&out, &whole[..cut_at]).unwrap();
    let output = run_subcommand("merge", &[&out, "-o", "/dev/null"]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(stderr(&output).contains("line 41: the last row has no line end"));
    let output = run_subcommand("solve", &[TOP95, "-o", &out, "--resume", "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let resumed = std::fs::read_to_string(&out).unwrap();
    assert_eq!(without_json_timing(&resumed), without_json_timing(&whole));
}
