//! `#` lines: comments in text puzzle files (top95's `# From ...`), but
//! records in CSV, which has no comments. An id `#2`, a note `#2 hardest`
//! or a spreadsheet's row-number column named `#` put a `#` first in a
//! record, and pandas and Python's `csv` read it as one: every such record
//! was skipped as a comment (rows gone, exit 0), a header `#,quizzes,...`
//! too (then `--keep quizzes` named no column), and in a `--solutions`
//! file every pairing after it shifted. A spreadsheet's error value
//! (`#REF!`) or pandas' NA string (`#NA`) alone on a line is a value too:
//! a one-column export holds one where a formula failed.

use std::collections::HashMap;
use std::process::Output;

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

/// The exit code and rows (`solve_us` aside: a clock's) of `solve FILE
/// ARGS -o -`, asserted the same as those of the file's bytes from stdin
/// (`cat FILE | solve - ARGS -o -`), where no name says CSV and the first
/// lines tell it from text.
fn same_from_stdin(file: &str, args: &[&str]) -> (i32, Vec<HashMap<String, String>>) {
    let table = |output: &Output| {
        let (header, mut rows) = csv_table(&stdout(output));
        for row in &mut rows {
            row.remove("solve_us");
        }
        (header, rows)
    };
    let named = solve(&[&[file][..], args, &["-o", "-"]].concat());
    let bytes = std::fs::read(file).expect("the input");
    let piped = solve_stdin(&[&["-"][..], args, &["-o", "-"]].concat(), &bytes);
    assert_eq!(
        code(&named),
        code(&piped),
        "{file} {args:?}: {}",
        stderr(&piped)
    );
    let (named_table, piped_table) = (table(&named), table(&piped));
    assert_eq!(named_table, piped_table, "{file} {args:?}");
    (code(&named), named_table.1)
}

#[test]
fn every_hash_form_gives_the_same_rows_from_a_file_and_from_stdin() {
    let scratch = Scratch::new();
    let pairs = kaggle(4);
    let (p, s): (Vec<&str>, Vec<&str>) = pairs.iter().map(|(p, s)| (&p[..], &s[..])).unzip();
    let kept = |rows: &[HashMap<String, String>], name: &str| -> Vec<String> {
        rows.iter().map(|r| r[name].clone()).collect()
    };
    // Notes and ids starting with `#`, a comment after the last record.
    let notes = scratch.file(
        "hash.csv",
        format!(
            "note,puzzle\nfirst,{}\n#2 hardest,{}\n# three,{}\nlast,{}\n# exported by hand\n",
            p[0], p[1], p[2], p[3]
        )
        .as_bytes(),
    );
    let (_, rows) = same_from_stdin(&notes, &[]);
    assert_eq!(rows.len(), 4);
    let (_, rows) = same_from_stdin(&notes, &["--keep", "note"]);
    assert_eq!(
        kept(&rows, "note"),
        ["first", "#2 hardest", "# three", "last"]
    );
    let ids = scratch.file(
        "ids.csv",
        format!("id,puzzle\n1,{}\n#2,{}\n3,{}\n", p[0], p[1], p[2]).as_bytes(),
    );
    let (_, rows) = same_from_stdin(&ids, &["--keep", "id"]);
    assert_eq!(kept(&rows, "id"), ["1", "#2", "3"]);
    // A row-number column named `#`, comma- or tab-separated; the tab
    // form's records start with `#` too, or hold a space before the first
    // tab (text lines would split them on it).
    let comma = format!(
        "#,quizzes,solutions\n1,{},{}\n2,{},{}\n",
        p[0], s[0], p[1], s[1]
    );
    let hashed_ids = format!(
        "#\tquizzes\tsolutions\n#1\t{}\t{}\n#2\t{}\t{}\n",
        p[0], s[0], p[1], s[1]
    );
    let spaced = format!(
        "#\tnote\tquizzes\nrow 1\tsee this\t{}\nrow 2\tx\t{}\n",
        p[0], p[1]
    );
    for (name, text, wanted) in [
        ("rownum.csv", comma, ["1", "2"]),
        ("rownum.tsv", hashed_ids, ["#1", "#2"]),
        ("spaced.tsv", spaced, ["row 1", "row 2"]),
    ] {
        let file = scratch.file(name, text.as_bytes());
        let (_, rows) = same_from_stdin(&file, &[]);
        assert_eq!(rows.len(), 2, "{name}");
        let (_, rows) = same_from_stdin(&file, &["--keep", "#"]);
        assert_eq!(kept(&rows, "#"), wanted, "{name}");
    }
    // Past the records read ahead.
    let body: String = kaggle(1100)
        .iter()
        .enumerate()
        .map(|(i, (p, s))| match i % 250 {
            7 => format!("#{i},{p},{s}\n"),
            _ => format!("{i},{p},{s}\n"),
        })
        .collect();
    let many = scratch.file(
        "many.csv",
        format!("#,quizzes,solutions\n{body}").as_bytes(),
    );
    let (_, rows) = same_from_stdin(&many, &["--keep", "#"]);
    assert_eq!(rows.len(), 1100);
    assert_eq!(rows[1007]["#"], "#1007");
    assert!(rows.iter().all(|r| r["check"] == "ok"));
    // Text comments; a comment before a CSV without a header.
    let text = scratch.file(
        "c.txt",
        format!(
            "# a title, with a comma\n{}\n# {}\n#3 {}\n#{},x\n{}\n",
            p[0], p[1], p[1], p[1], p[1]
        )
        .as_bytes(),
    );
    let (_, rows) = same_from_stdin(&text, &[]);
    assert_eq!(kept(&rows, "line"), ["2", "6"]);
    let headerless = scratch.file(
        "headerless.csv",
        format!("# a, b\n1,{}\n2,{}\n", p[0], p[1]).as_bytes(),
    );
    let (_, rows) = same_from_stdin(&headerless, &["--keep", "field1"]);
    assert_eq!(kept(&rows, "field1"), ["1", "2"]);
    // `--solutions` from stdin pairs as the file does.
    let input = scratch.file("p.txt", format!("{}\n", p.join("\n")).as_bytes());
    for (name, text) in [
        (
            "s.csv",
            format!(
                "note,solution\na,{}\n#x,{}\n# checked by hand\nc,{}\nd,{}\n",
                s[0], s[1], s[2], s[3]
            ),
        ),
        (
            "s.txt",
            format!("# solutions\n{}\n#N/A\n{}\n{}\n", s[0], s[2], s[3]),
        ),
    ] {
        let file = scratch.file(name, text.as_bytes());
        let named = solve_rows(&[&input, "--solutions", &file], 0);
        let output = solve_stdin(&[&input, "--solutions", "-", "-o", "-"], text.as_bytes());
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        assert_eq!(
            row_checks(&named),
            row_checks(&crate::common::rows(&stdout(&output))),
            "{name}"
        );
    }
}

#[test]
fn a_comment_before_a_csv_without_a_header_is_no_header() {
    // `# a, b` is a comment (its `#` starts words), not the header of the
    // records after it: `--keep field1` keeps their first field. A `#`
    // line shaped like a header stays one: a row-number column `#`, or a
    // line naming the puzzle column.
    let scratch = Scratch::new();
    let p = kaggle(2);
    let comment = scratch.file(
        "comment.csv",
        format!("# a, b\n1,{}\n2,{}\n", p[0].0, p[1].0).as_bytes(),
    );
    let out = solve_stdout(&[&comment, "--keep", "field1", "-o", "-"], 0);
    assert_eq!(
        kept(&out, "field1"),
        [row("2", "solved", "1"), row("3", "solved", "2")]
    );
    let named = scratch.file(
        "named.csv",
        format!("# id,quizzes\n1,{}\n2,{}\n", p[0].0, p[1].0).as_bytes(),
    );
    // Its first name without the `# ` (numpy's savetxt writes a header so).
    let out = solve_stdout(&[&named, "--keep", "id", "-o", "-"], 0);
    assert_eq!(
        kept(&out, "id"),
        [row("2", "solved", "1"), row("3", "solved", "2")]
    );
}

/// The error values spreadsheets write for a failed formula, and the `#`
/// placeholders pandas reads as missing (`#N/A` and `#NULL!` were values
/// already).
const ERRORS: [&str; 15] = [
    "#VALUE!",
    "#REF!",
    "#DIV/0!",
    "#NAME?",
    "#NUM!",
    "#SPILL!",
    "#CALC!",
    "#GETTING_DATA",
    "#FIELD!",
    "#BLOCKED!",
    "#CONNECT!",
    "#BUSY!",
    "#UNKNOWN!",
    "#ERROR!",
    "#value!",
];
const NA_STRINGS: [&str; 6] = [
    "#NA", "#N/A N/A", "-1.#IND", "-1.#QNAN", "1.#IND", "1.#QNAN",
];

#[test]
fn spreadsheet_error_values_alone_on_a_line_are_rows() {
    // trial61 F1-6: three puzzles, each followed by an Excel error value,
    // were 3 rows, exit 0, and `check` ok; pandas reads 6 records. Now 6
    // rows, 3 malformed saying why: exit 1.
    let scratch = Scratch::new();
    let p: Vec<String> = kaggle(3).into_iter().map(|(p, _)| p).collect();
    let data = format!(
        "puzzle\r\n{}\r\n#VALUE!\r\n{}\r\n#REF!\r\n{}\r\n#DIV/0!\r\n",
        p[0], p[1], p[2]
    );
    let error = |v: &str| format!("spreadsheet error value '{v}'");
    let wanted = [
        ("2", "solved", String::new()),
        ("3", "malformed", error("#VALUE!")),
        ("4", "solved", String::new()),
        ("5", "malformed", error("#REF!")),
        ("6", "solved", String::new()),
        ("7", "malformed", error("#DIV/0!")),
    ];
    for name in ["xq2.csv", "xq2.txt"] {
        let file = scratch.file(name, data.as_bytes());
        let (exit, rows) = same_from_stdin(&file, &[]);
        assert_eq!(exit, 1, "{name}");
        let got: Vec<(&str, &str, String)> = rows
            .iter()
            .map(|r| (&r["line"][..], &r["status"][..], r["message"].clone()))
            .collect();
        assert_eq!(got, wanted, "{name}");
        let checked = run_subcommand("check", &[&file]);
        assert_eq!(code(&checked), 1, "{name}");
        assert!(
            stderr(&checked).contains("3 failures in 6 puzzles"),
            "{name}: {}",
            stderr(&checked)
        );
    }
}

#[test]
fn every_spreadsheet_value_is_a_row_and_comments_stay_comments() {
    // Each error value and NA string after a puzzle, first alone, then
    // first in a line of fields; `#`, a rule of them, a word and words
    // after a space stay comments (top95's and the 17-clue file's).
    let scratch = Scratch::new();
    let p = &kaggle(1)[0].0;
    let values: Vec<&str> = ERRORS.iter().chain(&NA_STRINGS).copied().collect();
    let mut text = format!("# From magictour\n#\n#####\n#hardest\n{p}\n");
    for value in &values {
        text += &format!("{value}\n{p}\n");
    }
    let file = scratch.file("one_column.txt", text.as_bytes());
    let (exit, rows) = same_from_stdin(&file, &[]);
    assert_eq!(exit, 1);
    assert_eq!(rows.len(), 1 + 2 * values.len());
    for (i, value) in values.iter().enumerate() {
        let row = &rows[1 + 2 * i];
        assert_eq!(row["line"], (6 + 2 * i).to_string(), "{value}");
        assert_eq!(row["status"], "malformed", "{value}");
        let placeholder = NA_STRINGS.contains(value);
        // Text lines split `#N/A N/A` on its space: the first word.
        let named = if *value == "#N/A N/A" { "#N/A" } else { value };
        assert_eq!(
            row["message"],
            if placeholder {
                format!("'{named}' marks a missing value, not a puzzle")
            } else {
                format!("spreadsheet error value '{named}'")
            }
        );
        assert_eq!(rows[2 + 2 * i]["status"], "solved", "{value}");
    }
    // In a CSV of two columns, a line of the value alone or first.
    let mut csv = format!("puzzle,note\n{p},a\n");
    for value in &values {
        csv += &format!("{value}\n{value},x,y\n{p},b\n");
    }
    // (Their messages differ: a CSV file's name the field count, text
    // lines from stdin the value.)
    let file = scratch.file("two_columns.csv", csv.as_bytes());
    let piped = solve_stdin(&["-", "-o", "-"], csv.as_bytes());
    for rows in [
        solve_rows(&[&file], 1),
        crate::common::rows(&stdout(&piped)),
    ] {
        let statuses: Vec<&str> = rows.iter().map(|r| &r.status[..]).collect();
        let mut wanted = vec!["solved"];
        for _ in &values {
            wanted.extend(["malformed", "malformed", "solved"]);
        }
        assert_eq!(statuses, wanted);
    }
}

#[test]
fn spreadsheet_values_of_a_solutions_file_shift_no_pairing() {
    // A one-column `--solutions` export: a placeholder stands for its
    // record (nothing to check), an error value is its record's mismatch
    // saying so, and every later solution is its own record's.
    let scratch = Scratch::new();
    let pairs = kaggle(5);
    let (p, s): (Vec<&str>, Vec<&str>) = pairs.iter().map(|(p, s)| (&p[..], &s[..])).unzip();
    let input = scratch.file("p.txt", format!("{}\n", p.join("\n")).as_bytes());
    for (name, text) in [
        (
            "s.txt",
            format!("#REF!\n{}\n#NA\n{}\n#DIV/0!\n", s[1], s[3]),
        ),
        (
            "s.csv",
            format!(
                "solution\r\n#REF!\r\n{}\r\n#NA\r\n{}\r\n#DIV/0!\r\n",
                s[1], s[3]
            ),
        ),
    ] {
        let file = scratch.file(name, text.as_bytes());
        let rows = solve_rows(&[&input, "--solutions", &file], 1);
        assert_eq!(
            row_checks(&rows),
            [
                (1, "solved", "mismatch"),
                (2, "solved", "ok"),
                (3, "solved", ""),
                (4, "solved", "ok"),
                (5, "solved", "mismatch"),
            ],
            "{name}"
        );
        let first = if name == "s.csv" { 2 } else { 1 };
        assert_eq!(
            rows[0].message,
            format!("solutions file line {first}: not a grid: spreadsheet error value '#REF!'"),
            "{name}"
        );
        let output = solve_stdin(&[&input, "--solutions", "-", "-o", "-"], text.as_bytes());
        assert_eq!(code(&output), 1, "{}", stderr(&output));
        assert_eq!(
            row_checks(&rows),
            row_checks(&crate::common::rows(&stdout(&output))),
            "{name} from stdin"
        );
    }
}
