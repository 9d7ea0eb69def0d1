//! `#` lines: comments in text puzzle files (top95's `# From ...`), but
//! records in CSV, which has no comments. An id `#2`, a note `#2 hardest`
//! or a spreadsheet's row-number column named `#` put a `#` first in a
//! record, and pandas and Python's `csv` read it as one: every such record
//! was skipped as a comment (rows gone, exit 0), a header `#,quizzes,...`
//! too (then `--keep quizzes` named no column), and in a `--solutions`
//! file every pairing after it shifted.

use crate::common::*;

/// The kept column `name` of each row, with its line and status.
fn kept(text: &str, name: &str) -> Vec<(String, String, String)> {
    csv_table(text)
        .1
        .into_iter()
        .map(|row| {
            (
                row["line"].clone(),
                row["status"].clone(),
                row[name].clone(),
            )
        })
        .collect()
}

fn row(line: &str, status: &str, value: &str) -> (String, String, String) {
    (line.into(), status.into(), value.into())
}

#[test]
fn csv_records_whose_first_field_starts_with_a_hash_are_rows() {
    let scratch = Scratch::new();
    let p: Vec<String> = kaggle(4).into_iter().map(|(p, _)| p).collect();
    let notes = scratch.file(
        "hash.csv",
        format!(
            "note,puzzle\nfirst,{}\n#2 hardest,{}\n# three,{}\nlast,{}\n# exported by hand\n",
            p[0], p[1], p[2], p[3]
        )
        .as_bytes(),
    );
    let out = solve_stdout(&[&notes, "--keep", "note", "-o", "-"], 0);
    assert_eq!(
        kept(&out, "note"),
        [
            row("2", "solved", "first"),
            row("3", "solved", "#2 hardest"),
            row("4", "solved", "# three"),
            row("5", "solved", "last"),
        ]
    );
    let ids = scratch.file(
        "hash2.csv",
        format!("id,puzzle\n1,{}\n#2,{}\n3,{}\n", p[0], p[1], p[2]).as_bytes(),
    );
    let out = solve_stdout(&[&ids, "--keep", "id", "-o", "-"], 0);
    assert_eq!(
        kept(&out, "id"),
        [
            row("2", "solved", "1"),
            row("3", "solved", "#2"),
            row("4", "solved", "3")
        ]
    );
}

#[test]
fn a_hash_record_past_the_records_read_ahead_is_a_row() {
    // Past the first 1,000 records the reader cuts records raw for the
    // workers: the same rule there.
    let scratch = Scratch::new();
    let body: String = kaggle(1100)
        .iter()
        .enumerate()
        .map(|(i, (p, s))| {
            let id = if i % 250 == 7 {
                format!("#{i}")
            } else {
                i.to_string()
            };
            format!("{id},{p},{s}\n")
        })
        .collect();
    let input = scratch.file(
        "many.csv",
        format!("id,quizzes,solutions\n{body}").as_bytes(),
    );
    let out = solve_stdout(&[&input, "--keep", "id", "-o", "-"], 0);
    let rows = kept(&out, "id");
    assert_eq!(rows.len(), 1100);
    assert_eq!(rows[1007], row("1009", "solved", "#1007"));
    let checks = run_subcommand("check", &[&input, "-o", "-"]);
    assert_eq!(code(&checks), 0, "{}", stderr(&checks));
    assert_eq!(rows_of(&stdout(&checks)), 1100);
}

/// The number of results rows.
fn rows_of(text: &str) -> usize {
    csv_table(text).1.len()
}

#[test]
fn a_header_that_names_a_row_number_column_hash_is_the_header() {
    let scratch = Scratch::new();
    let pairs = kaggle(2);
    let input = scratch.file(
        "rownum.csv",
        format!(
            "#,quizzes,solutions\n1,{},{}\n2,{},{}\n",
            pairs[0].0, pairs[0].1, pairs[1].0, pairs[1].1
        )
        .as_bytes(),
    );
    let out = solve_stdout(&[&input, "--keep", "#,quizzes", "-o", "-"], 0);
    let (header, rows) = csv_table(&out);
    assert!(
        header.ends_with(&["#".to_string(), "quizzes".to_string()]),
        "{header:?}"
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["#"], "2");
    assert_eq!(rows[1]["quizzes"], pairs[1].0);
    assert_eq!(rows[1]["check"], "ok");
}

#[test]
fn hash_lines_of_a_solutions_file_shift_no_pairing() {
    let scratch = Scratch::new();
    let pairs = kaggle(4);
    let puzzles: String = pairs.iter().map(|(p, _)| format!("{p}\n")).collect();
    let input = scratch.file("p.txt", puzzles.as_bytes());
    let s: Vec<&str> = pairs.iter().map(|(_, s)| s.as_str()).collect();
    // CSV: a note `#x` is its record's; a comment line is none.
    let notes = scratch.file(
        "s.csv",
        format!(
            "note,solution\na,{}\n#x,{}\n# checked by hand\nc,{}\nd,{}\n",
            s[0], s[1], s[2], s[3]
        )
        .as_bytes(),
    );
    let rows = solve_rows(&[&input, "--solutions", &notes], 0);
    assert_eq!(
        row_checks(&rows),
        [
            (1, "solved", "ok"),
            (2, "solved", "ok"),
            (3, "solved", "ok"),
            (4, "solved", "ok")
        ]
    );
    // Text: `#N/A` where a solution is missing stands for its record.
    let text = scratch.file(
        "s.txt",
        format!("# solutions\n{}\n#N/A\n{}\n{}\n", s[0], s[2], s[3]).as_bytes(),
    );
    let rows = solve_rows(&[&input, "--solutions", &text], 0);
    assert_eq!(
        row_checks(&rows),
        [
            (1, "solved", "ok"),
            (2, "solved", ""),
            (3, "solved", "ok"),
            (4, "solved", "ok")
        ]
    );
}

#[test]
fn hash_lines_of_a_text_puzzle_file_are_still_comments() {
    let rows = solve_rows(
        &[
            &repo("data/magictour_top1465.txt"),
            "--limit",
            "3",
            "-o",
            "-",
        ],
        0,
    );
    assert_eq!(rows.len(), 3);
    let scratch = Scratch::new();
    let p = kaggle(2);
    let text = scratch.file(
        "c.txt",
        format!(
            "# a title, with a comma\n{}\n# {}\n#3 {}\n#{},x\n{}\n",
            p[0].0, p[1].0, p[1].0, p[1].0, p[1].0
        )
        .as_bytes(),
    );
    let rows = solve_rows(&[&text], 0);
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 6]);
}

#[test]
fn a_hash_id_of_a_csv_read_as_text_lines_is_a_row() {
    // The same CSV from stdin, or named `.txt`, is read as text lines:
    // `#2,<puzzle>` holds a record there too (its header names the kept
    // field).
    let scratch = Scratch::new();
    let p: Vec<String> = kaggle(3).into_iter().map(|(p, _)| p).collect();
    let data = format!("id,puzzle\n1,{}\n#2,{}\n3,{}\n", p[0], p[1], p[2]);
    let output = solve_stdin(&["-", "--keep", "field1", "-o", "-"], data.as_bytes());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(
        kept(&stdout(&output), "id"),
        [
            row("2", "solved", "1"),
            row("3", "solved", "#2"),
            row("4", "solved", "3")
        ]
    );
    let text = scratch.file("ids.txt", data.as_bytes());
    let rows = solve_rows(&[&text], 0);
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3, 4]);
}
