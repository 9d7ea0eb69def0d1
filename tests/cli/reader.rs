//! The input reader's rules, through the real binary: grids cut short,
//! lines after the last puzzle, unreadable puzzles that are no headers,
//! `--column NAME` checked before any output, gzip found by content.

use crate::common::*;

const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
const Q: &str = "000007004000006003860200000509082000640000080000000700000000042010030000703000009";
/// The solutions of `P` and `Q`.
const SP: &str =
    "316452978285679314497318562879234156142965783653187249968721435521843697734596821";
const SQ: &str =
    "321597864497816253865243197579182436642375981138964725986751342214639578753428619";
const GRID: &str = "003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\n";

fn messages(rows: &[Row]) -> Vec<(u64, &str, &str)> {
    rows.iter()
        .map(|r| (r.line, r.status.as_str(), r.message.as_str()))
        .collect()
}

fn solve_in(scratch: &Scratch, name: &str, text: &[u8], args: &[&str], code: i32) -> Vec<Row> {
    let input = scratch.file(name, text);
    let mut all = vec![input.as_str()];
    all.extend_from_slice(args);
    solve_rows(&all, code)
}

#[test]
fn grid_cut_short_before_a_separator_is_never_joined_with_the_next() {
    let scratch = Scratch::new();
    let short: String = GRID.lines().take(4).map(|l| format!("{l}\n")).collect();
    for sep in ["========", "---", "---------", "Grid 02", "", "~~~~~~"] {
        let text = format!("{GRID}========\n{short}{sep}\n{GRID}");
        let rows = solve_in(
            &scratch,
            "easy.txt",
            text.as_bytes(),
            &["--format", "grid"],
            1,
        );
        assert_eq!(
            messages(&rows),
            [
                (1, "solved", ""),
                (
                    11,
                    "malformed",
                    if sep.is_empty() {
                        "a 9x9 grid cut short after 4 of 9 rows (a blank line)"
                    } else if sep == "Grid 02" {
                        "a 9x9 grid cut short after 4 of 9 rows (a line of text)"
                    } else {
                        "a 9x9 grid cut short after 4 of 9 rows (a separator line)"
                    }
                ),
                (16, "solved", ""),
            ],
            "{sep:?}"
        );
    }
    // Rules between bands of boxes stay inside a grid.
    let rows: Vec<&str> = GRID.lines().collect();
    let ruled = format!(
        "{}\n------+------+------\n{}\n------+------+------\n{}\n",
        rows[..3].join("\n"),
        rows[3..6].join("\n"),
        rows[6..].join("\n")
    );
    let rows = solve_in(
        &scratch,
        "ruled.txt",
        ruled.as_bytes(),
        &["--format", "grid"],
        0,
    );
    assert_eq!(messages(&rows), [(1, "solved", "")]);
}

#[test]
fn lines_after_the_last_puzzle_are_malformed_rows() {
    for (tail, message) in [
        ("12345", "5 cells, expected 81"),
        ("hello world", "bad character 'h' at position 1"),
        (&P[..15], "15 cells, expected 81"),
    ] {
        let output = solve_stdin(&[], format!("{P}\n{tail}\n").as_bytes());
        assert_eq!(code(&output), 1, "{tail}: {}", stderr(&output));
        let rows = rows(&stdout(&output));
        check_rows(&rows);
        assert_eq!(
            messages(&rows),
            [(1, "solved", ""), (2, "malformed", message)],
            "{tail}"
        );
    }
    // Blank and comment lines at the end are still skipped.
    let output = solve_stdin(&[], format!("{P}\n\n# end\n\x1A").as_bytes());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(rows(&stdout(&output)).len(), 1);
}

#[test]
fn unreadable_81_character_puzzles_are_never_headers() {
    let top95 = std::fs::read_to_string(repo("data/top95.txt"))
        .or_else(|_| std::fs::read_to_string("/work/shared/data/norvig/top95.txt"));
    let euro = |p: &str| p.replace('0', "€");
    let text = match top95 {
        Ok(text) => text.replace('.', "€"),
        Err(_) => format!("{}\n{}\n", euro(P), euro(Q)),
    };
    let scratch = Scratch::new();
    let rows = solve_in(&scratch, "euro.txt", text.as_bytes(), &[], 1);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(rows.len(), lines);
    assert!(rows.iter().all(|r| r.status == "malformed"));
    assert!(rows[0]
        .message
        .starts_with("bad character '\\u{20ac}' at position"));
    // Other near-puzzles: 81 foreign characters, digits among one foreign
    // blank; real headers still skipped.
    let text = format!(
        "quizzes,solutions\n49151\n# c\n{}\n{}\n{P}\n",
        "x".repeat(81),
        &P.replace('0', "*")[..80]
    );
    let rows = solve_in(&scratch, "near.txt", text.as_bytes(), &[], 1);
    assert_eq!(
        messages(&rows),
        [
            (4, "malformed", "bad character 'x' at position 1"),
            (5, "malformed", "bad character '*' at position 1"),
            (6, "solved", ""),
        ]
    );
    // The same in a CSV with no header: the first record is no header.
    let text = format!("{},x\n{P},y\n", euro(P));
    let rows = solve_in(&scratch, "euro.csv", text.as_bytes(), &[], 1);
    assert_eq!(
        messages(&rows),
        [
            (1, "malformed", "bad character '\\u{20ac}' at position 1"),
            (2, "solved", "")
        ]
    );
}

#[test]
fn a_bad_column_name_fails_before_any_output() {
    let scratch = Scratch::new();
    let existing = scratch.file("existing.csv", b"keep\n");
    let csv = scratch.file("in.csv", format!(",puzzle\n0,{P}\n").as_bytes());
    let txt = scratch.file("in.txt", format!("id puzzle\n1 {P}\n").as_bytes());
    for input in [&csv, &txt] {
        let output = solve(&[input, "--column", "nope", "-o", &existing]);
        assert_eq!(code(&output), 2, "{}", stderr(&output));
        assert!(stderr(&output).contains("nope"), "{}", stderr(&output));
        assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep\n");
        let output = solve(&[input, "--column", "nope"]);
        assert_eq!(code(&output), 2);
        assert_eq!(stdout(&output), "", "no header before the error");
    }
    // A CSV with no header at all.
    let bare = scratch.file("bare.csv", format!("{P}\n").as_bytes());
    let output = solve(&[&bare, "--column", "puzzle", "-o", &existing]);
    assert_eq!(code(&output), 2);
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep\n");
    // A good name still works.
    let rows = solve_rows(&[&csv, "--column", "PUZZLE"], 0);
    assert_eq!(messages(&rows), [(2, "solved", "")]);
    let rows = solve_rows(&[&txt, "--column", "puzzle"], 0);
    assert_eq!(messages(&rows), [(2, "solved", "")]);
}

#[test]
fn gzip_is_found_by_content() {
    let scratch = Scratch::new();
    let text = format!("{P}\n{Q}\n");
    let gz = scratch.gzip("puzzles.gz", text.as_bytes());
    let bytes = std::fs::read(&gz).unwrap();
    // On stdin.
    let output = solve_stdin(&["-"], &bytes);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(
        messages(&rows(&stdout(&output))),
        [(1, "solved", ""), (2, "solved", "")]
    );
    // A file not named .gz, and a CSV.
    let plain = scratch.file("puzzles.txt", &bytes);
    assert_eq!(solve_rows(&[&plain], 0).len(), 2);
    let csv = scratch.gzip("p.csv", format!("quizzes,solutions\n{P},\n").as_bytes());
    let got = solve_rows(&[&csv], 0);
    assert_eq!(messages(&got), [(2, "solved", "")]);
    // A lone 0x1F byte is no gzip.
    let output = solve_stdin(&[], b"\x1F");
    assert_eq!(code(&output), 1);
    assert_eq!(
        messages(&rows(&stdout(&output))),
        [(1, "malformed", "byte 0x1F at position 1")]
    );
}

/// A lone `"` as a field (a ditto mark, a quote typed by hand) that a later
/// `"` closes at a line end took the rows between into one field: six
/// records gave three rows, exit 0. A line a quoted field takes in that
/// holds a puzzle where the file has its puzzles is a record of its own:
/// the quote is a stray one, its record the one line, `malformed`.
#[test]
fn a_stray_quote_never_takes_in_the_rows_after_it() {
    let scratch = Scratch::new();
    let ditto: String = (1..=6)
        .map(|i| format!("{i},{},\"\n", [P, Q][i % 2]))
        .collect();
    let rows = solve_in(
        &scratch,
        "ditto.csv",
        format!("id,puzzle,note\n{ditto}").as_bytes(),
        &[],
        1,
    );
    let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 3, 4, 5, 6, 7]);
    for row in &rows {
        let opened = format!("unterminated quote opened on line {}", row.line);
        assert_eq!(
            (row.status.as_str(), row.message.as_str()),
            ("malformed", opened.as_str())
        );
    }
    // A note left open, a plain row, a lone quote: the plain rows solved.
    let text = format!("id,puzzle,note\n1,{P},\"best\n2,{Q},plain\n3,{P},\"\n4,{Q},ok\n");
    let rows = solve_in(&scratch, "open.csv", text.as_bytes(), &[], 1);
    assert_eq!(
        messages(&rows),
        [
            (2, "malformed", "unterminated quote opened on line 2"),
            (3, "solved", ""),
            (4, "malformed", "unterminated quote opened on line 4"),
            (5, "solved", ""),
        ]
    );
}

/// A note over several lines stays one record, commas and all, and so does
/// one with a grid alone on a line of it.
#[test]
fn a_note_over_lines_stays_one_record() {
    let scratch = Scratch::new();
    let text = format!(
        "id,puzzle,note\n1,{P},\"first line, more\nsecond, with, commas\"\n\
         2,{Q},\"copied:\n{P}\"\n3,{P},plain\n"
    );
    let input = scratch.file("notes.csv", text.as_bytes());
    let output = solve(&[&input, "--keep", "note"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let (_, table) = csv_table(&stdout(&output));
    let notes: Vec<&str> = table.iter().map(|row| row["note"].as_str()).collect();
    assert_eq!(
        notes,
        [
            "first line, more\nsecond, with, commas",
            &format!("copied:\n{P}"),
            "plain"
        ]
    );
}

/// A note over two lines as CSV writers quote it, whose closing line goes
/// on with the record's puzzle or solution (`second line",<puzzle>,...`),
/// was taken for a stray quote: the record split into two `malformed`
/// rows, or its note cut to `second line"`, or (no header naming the
/// puzzle column) the note column chosen as it. What follows a closing
/// quote is the record's own: every layout reads as its writer wrote it,
/// comma- and tab-separated.
#[test]
fn a_note_closed_before_the_puzzle_is_the_records_note() {
    let scratch = Scratch::new();
    let note = "first line\nsecond line";
    for (header, row) in [
        ("id,puzzle,note,solution", "{i},{p},{n},{s}"),
        ("id,quizzes,comment,solutions", "{i},{p},{n},{s}"),
        ("note,puzzle", "{n},{p}"),
        ("id,note,board", "{i},{n},{p}"),
        ("note,solution,puzzle", "{n},{s},{p}"),
    ] {
        for delimiter in [",", "\t"] {
            let rows: String = (0..4)
                .map(|i| {
                    let (p, s) = [(P, SP), (Q, SQ)][i % 2];
                    let n = if i == 1 {
                        format!("\"{note}\"")
                    } else {
                        "one".into()
                    };
                    let line = row
                        .replace("{i}", &i.to_string())
                        .replace("{p}", p)
                        .replace("{s}", s)
                        .replace("{n}", &n)
                        .replace(',', delimiter);
                    format!("{line}\n")
                })
                .collect();
            let name = if delimiter == "," { "n.csv" } else { "n.tsv" };
            let text = format!("{}\n{rows}", header.replace(',', delimiter));
            let input = scratch.file(name, text.as_bytes());
            let keep = if header.contains("comment") {
                "comment"
            } else {
                "note"
            };
            let output = solve(&[&input, "--keep", keep]);
            assert_eq!(code(&output), 0, "{header} {name}: {}", stderr(&output));
            let (_, table) = csv_table(&stdout(&output));
            let read: Vec<(&str, &str, &str)> = table
                .iter()
                .map(|r| (r["status"].as_str(), r["check"].as_str(), r[keep].as_str()))
                .collect();
            let check = if header.contains("solution") {
                "ok"
            } else {
                ""
            };
            assert_eq!(
                read,
                [
                    ("solved", check, "one"),
                    ("solved", check, note),
                    ("solved", check, "one"),
                    ("solved", check, "one"),
                ],
                "{header} {name}"
            );
        }
    }
}

/// A ditto `"` whose next rows are short of a field, have one too many, or
/// a damaged puzzle took them into its note (the row test looked for a
/// puzzle only where the file has its puzzles); in a `;` file whose
/// puzzles are written cell by cell with spaces or as 0-based numbers with
/// commas, it took every other record. Every record is a row, and the
/// quote's own is `malformed`.
#[test]
fn a_stray_quote_takes_in_no_row_of_any_shape() {
    let scratch = Scratch::new();
    let short = &P[1..];
    for rows in [
        format!("1,x,{P},\"\n2,{Q}\n3,{P},\"\n4,y,{Q},ok\n"),
        format!("1,x,{P},\"\n2,x,y,{Q}\n3,x,y,{P},\"\n4,y,{Q},ok\n"),
        format!("1,x,{P},\"\n2,x,{short}\n3,x,{short},\"\n4,y,{Q},ok\n"),
    ] {
        let text = format!("id,tag,puzzle,comment\n{rows}");
        let rows = solve_in(&scratch, "hide.csv", text.as_bytes(), &[], 1);
        let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 3, 4, 5], "{text}");
        assert_eq!(
            (rows[0].status.as_str(), rows[0].message.as_str()),
            ("malformed", "unterminated quote opened on line 2"),
            "{text}"
        );
    }
    let spaced = |p: &str| p.chars().map(String::from).collect::<Vec<_>>().join(" ");
    let numbers = |p: &str| {
        p.chars()
            .map(|c| match c.to_digit(10) {
                Some(d) if d > 0 => (d - 1).to_string(),
                _ => ".".into(),
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    for form in [spaced, numbers] {
        let rows: String = (1..=6)
            .map(|i| format!("{i};{};\"\n", form([P, Q][i % 2])))
            .collect();
        let text = format!("id;puzzle;note\n{rows}");
        let rows = solve_in(&scratch, "ditto.csv", text.as_bytes(), &[], 1);
        let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7], "{text}");
    }
}

/// A ditto `"` took rows into its note, exit 0 and `check` ok, when it
/// stood in a column before the puzzle (each quote closed on the next line
/// before its delimiter: the rows taken in were only on the quote's own
/// line, `1,",<puzzle>`), when the rows wrote their grid a cell to a field
/// (pandas' array layout), or when the rows had no puzzle (empty, `NA`).
/// Every record is a row now, and each ditto's own is `malformed`.
#[test]
fn a_ditto_quote_takes_in_no_row_before_its_puzzle_spread_or_without_one() {
    let scratch = Scratch::new();
    let stray = |line: u64| {
        (
            line,
            "malformed".to_string(),
            format!("unterminated quote opened on line {line}"),
        )
    };
    let solved = |line: u64| (line, "solved".to_string(), String::new());
    let read = |rows: &[Row]| -> Vec<(u64, String, String)> {
        rows.iter()
            .map(|r| (r.line, r.status.clone(), r.message.clone()))
            .collect()
    };
    // The second ditto's quote runs to the end of the input.
    let text = format!("id,note,puzzle\n1,\",{P}\n2,\",{Q}\n3,x,{P}\n4,y,{Q}\n");
    let rows = solve_in(&scratch, "before.csv", text.as_bytes(), &[], 1);
    assert_eq!(read(&rows), [stray(2), stray(3), solved(4), solved(5)]);
    let text =
        format!("id,comment,quizzes,solutions\n1,\",{P},{SP}\n2,\",{Q},{SQ}\n3,x,{P},{SP}\n");
    let rows = solve_in(&scratch, "kaggle.csv", text.as_bytes(), &[], 1);
    assert_eq!(read(&rows), [stray(2), stray(3), solved(4)]);
    // `0,1,...,80,note`, a ditto on the first and fourth rows.
    let header: Vec<String> = (0..81).map(|i| i.to_string()).collect();
    let rows: String = (0..6)
        .map(|i| {
            let grid = [P, Q][i % 2].replace('0', ".");
            let cells: Vec<String> = grid.chars().map(String::from).collect();
            let note = if i % 3 == 0 { "\"" } else { "ok" };
            format!("{},{note}\n", cells.join(","))
        })
        .collect();
    let text = format!("{},note\n{rows}", header.join(","));
    let rows = solve_in(&scratch, "spread.csv", text.as_bytes(), &[], 1);
    assert_eq!(
        read(&rows),
        [
            stray(2),
            solved(3),
            solved(4),
            stray(5),
            solved(6),
            solved(7)
        ]
    );
    // Rows without a puzzle between two dittos.
    let text = format!("id,puzzle,note\n1,{P},\"\n2,,x\n3,NA,\"\n4,{Q},ok\n");
    let rows = solve_in(&scratch, "none.csv", text.as_bytes(), &[], 1);
    let statuses: Vec<(u64, &str)> = rows.iter().map(|r| (r.line, r.status.as_str())).collect();
    assert_eq!(
        statuses,
        [
            (2, "malformed"),
            (3, "malformed"),
            (4, "malformed"),
            (5, "solved")
        ]
    );
    assert_eq!(read(&rows)[0], stray(2));
    assert_eq!(read(&rows)[2], stray(4));
    let input = scratch.file("none.csv", text.as_bytes());
    let out = scratch.path("none-results.csv");
    assert_eq!(code(&run_subcommand("check", &[&input, "-o", &out])), 1);
}

/// Notes over lines as Python's csv and pandas write them, shaped near a
/// row: a first line with commas in the column before the puzzle, a line
/// with as many fields as the header whose field in the puzzle column is
/// text, fifteen one-letter items, a line with a placeholder in another
/// column. Each stays its record's note.
#[test]
fn a_note_near_a_rows_shape_stays_one_record() {
    let scratch = Scratch::new();
    let letters = ["a"; 15].join(", ");
    for note in [
        "first, with commas\nsecond",
        "done by hand\nthen, after, that, more",
        &format!("items:\n{letters}"),
        "NA, as, said, before\nend",
    ] {
        let quoted = format!("\"{note}\"");
        let text = format!("id,note,puzzle,x\n1,{quoted},{P},y\n2,plain,{Q},y\n");
        let input = scratch.file("notes.csv", text.as_bytes());
        let output = solve(&[&input, "--keep", "note"]);
        assert_eq!(code(&output), 0, "{note:?}: {}", stderr(&output));
        let (_, table) = csv_table(&stdout(&output));
        let notes: Vec<&str> = table.iter().map(|row| row["note"].as_str()).collect();
        assert_eq!(notes, [note, "plain"], "{note:?}");
    }
}

/// A puzzle pasted alone on a line of a note (valid CSV, as Python's csv
/// writes it) is a line of the note, not a record taken in by a stray
/// quote: it neither split the record nor, in the records read ahead,
/// made the solution column before it the puzzle column (every row then
/// "solved" its own solution, exit 1 for the split lines only).
#[test]
fn a_puzzle_alone_on_a_line_of_a_note_stays_in_the_note() {
    let scratch = Scratch::new();
    for header in ["target,board,note", "solution,puzzle,note"] {
        let rows: String = (1..=5)
            .map(|i| {
                let (p, s) = [(P, SP), (Q, SQ)][i % 2];
                let note = if i == 2 {
                    format!("\"see also:\n{Q}\n\"")
                } else {
                    "n".into()
                };
                format!("{s},{p},{note}\n")
            })
            .collect();
        let input = scratch.file("notes.csv", format!("{header}\n{rows}").as_bytes());
        let output = solve(&[&input, "--keep", "note"]);
        assert_eq!(code(&output), 0, "{header}: {}", stderr(&output));
        let (_, table) = csv_table(&stdout(&output));
        let read: Vec<(&str, &str, &str)> = table
            .iter()
            .map(|row| {
                let puzzle = row["puzzle"].as_str();
                (puzzle, row["status"].as_str(), row["note"].as_str())
            })
            .collect();
        let dots = |p: &str| p.replace('0', ".");
        let (p, q) = (dots(P), dots(Q));
        let note = format!("see also:\n{Q}\n");
        assert_eq!(
            read,
            [
                (q.as_str(), "solved", "n"),
                (p.as_str(), "solved", note.as_str()),
                (q.as_str(), "solved", "n"),
                (p.as_str(), "solved", "n"),
                (q.as_str(), "solved", "n"),
            ],
            "{header}"
        );
    }
}
