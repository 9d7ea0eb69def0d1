//! Tab-separated files keep their values whole (trial58 F0-2): a `.tsv` or
//! `.tab` (any case, past `.gz`), and a `.txt`, unnamed file or stdin whose
//! first line is tab-separated (Excel's "Text (Tab delimited)" and
//! "Unicode Text" exports), are read as CSV with a tab delimiter: a value
//! with a space is one value, and Excel's quoted values (a line end, a
//! quote) come back as written. The neighbours keep their rules, and a
//! kept value a text line's separator cuts makes its record `malformed`,
//! saying why, never cut silently.

use crate::common::*;

/// Two puzzles of `data/top95.txt` (lines 2 and 3), each with one
/// solution.
const P1: &str =
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";
const P2: &str =
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....";

/// An Excel "Text (Tab delimited)" export of `id`, `puzzle` and `note`:
/// CRLF line ends, an accented value, one with a space (read as text
/// lines, the first record's 3 fields matched the header, and this one
/// was cut to `hello`, exit 0), and the values Excel quotes: one holding
/// a line end, one holding quotes.
fn excel_tsv() -> String {
    format!(
        "id\tpuzzle\tnote\r\n\
         1\t{P1}\tcafé\r\n\
         2\t{P2}\thello world\r\n\
         3\t{P1}\t\"line1\r\nline2\"\r\n\
         4\t{P2}\t\"say \"\"hi\"\"\"\r\n"
    )
}

/// The notes [`excel_tsv`] holds, as written.
const NOTES: [&str; 4] = ["café", "hello world", "line1\r\nline2", "say \"hi\""];

/// `text` as Windows' "Unicode Text" writes it: UTF-16 LE after a
/// byte-order mark.
fn unicode_text(text: &str) -> Vec<u8> {
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    bytes
}

/// The exit code and the `(status, note)` of each results row of `solve
/// INPUT --keep note -o -` (stdin when `input` is `-`, fed `stdin`), with
/// `extra` arguments.
fn kept_notes(input: &str, stdin: &[u8], extra: &[&str]) -> (i32, Vec<(String, String)>) {
    let mut args = vec![input, "--keep", "note", "-o", "-"];
    args.extend_from_slice(extra);
    let output = solve_stdin(&args, stdin);
    let (_, rows) = csv_table(&stdout(&output));
    let rows = rows
        .iter()
        .map(|row| (row["status"].clone(), row["note"].clone()))
        .collect();
    (code(&output), rows)
}

/// Every row solved, its note as written.
fn whole() -> (i32, Vec<(String, String)>) {
    let rows = NOTES.iter().map(|n| ("solved".to_string(), n.to_string()));
    (0, rows.collect())
}

#[test]
fn a_tsv_keeps_a_value_with_a_space_whole_by_any_name_that_says_tsv() {
    let dir = Scratch::new();
    let tsv = excel_tsv();
    for name in ["sp.tsv", "SP.TSV", "sp.tab", "sp.Tsv"] {
        let path = dir.file(name, tsv.as_bytes());
        assert_eq!(kept_notes(&path, b"", &[]), whole(), "{name}");
    }
    let path = dir.gzip("sp.tsv.gz", tsv.as_bytes());
    assert_eq!(kept_notes(&path, b"", &[]), whole());
}

#[test]
fn excels_tab_delimited_text_is_read_as_tab_separated_by_its_content() {
    let dir = Scratch::new();
    let tsv = excel_tsv();
    // "Text (Tab delimited)" saves `.txt`; a pipe has no name at all.
    let txt = dir.file("export.txt", tsv.as_bytes());
    assert_eq!(kept_notes(&txt, b"", &[]), whole());
    let bare = dir.file("export", tsv.as_bytes());
    assert_eq!(kept_notes(&bare, b"", &[]), whole());
    assert_eq!(kept_notes("-", tsv.as_bytes(), &[]), whole());
    // "Unicode Text": UTF-16 LE with a mark, decoded, then read the same.
    let unicode = dir.file("unicode.txt", &unicode_text(&tsv));
    assert_eq!(kept_notes(&unicode, b"", &[]), whole());
    assert_eq!(kept_notes("-", &unicode_text(&tsv), &[]), whole());
    // Without a header (`--keep 3`), and with a UTF-8 mark.
    let headless = format!("\u{FEFF}{}", tsv.split_once("\r\n").unwrap().1);
    let path = dir.file("headless.txt", headless.as_bytes());
    let output = solve(&[&path, "--keep", "3", "-o", "-"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let (header, rows) = csv_table(&stdout(&output));
    let kept = header.last().unwrap().clone();
    let got: Vec<&str> = rows.iter().map(|r| r[&kept].as_str()).collect();
    assert_eq!(got, NOTES);
}

#[test]
fn an_explicit_tab_delimiter_reads_a_tab_separated_txt() {
    let dir = Scratch::new();
    let txt = dir.file("export.txt", excel_tsv().as_bytes());
    assert_eq!(kept_notes(&txt, b"", &["--delimiter", "\\t"]), whole());
    assert_eq!(
        kept_notes(&txt, b"", &["--format", "csv", "--delimiter", "tab"]),
        whole()
    );
    // `--format csv` alone finds the tab, though the header holds a comma
    // after it.
    let comma = excel_tsv().replacen("\tpuzzle\t", "\tpuzzle, as 81 cells\t", 1);
    let path = dir.file("comma.txt", comma.as_bytes());
    assert_eq!(kept_notes(&path, b"", &["--format", "csv"]), whole());
}

#[test]
fn a_space_separated_value_that_is_cut_makes_its_record_say_so() {
    let dir = Scratch::new();
    // A text file split on spaces: a value with a space, or with a tab,
    // is cut there, and the header names one field fewer.
    let text = format!(
        "id puzzle note\r\n1 {P1} hi\r\n2 {P2} hello world\r\n3 {P1} tab\there\r\n4 {P2}\r\n"
    );
    let path = dir.file("spaced.txt", text.as_bytes());
    let output = solve(&[&path, "--keep", "note", "-o", "-"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let (_, rows) = csv_table(&stdout(&output));
    let got: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["status"].as_str(),
                r["note"].as_str(),
                r["message"].as_str(),
            )
        })
        .collect();
    let why = "4 fields, but the header has 3: a space or tab separates this file's fields, \
               so a value holding one is cut and the kept values would be shifted";
    assert_eq!(
        got,
        [
            ("solved", "hi", ""),
            ("malformed", "hello", why),
            ("malformed", "tab", why),
            ("solved", "", ""),
        ]
    );
    // Without --keep nothing is kept, and nothing is cut: every row solved.
    let rows = solve_rows(&[&path], 0);
    assert!(rows.iter().all(|r| r.status == "solved"), "{rows:?}");
}

#[test]
fn a_semicolon_file_keeps_its_spaces() {
    let dir = Scratch::new();
    let text = format!("id;puzzle;note\r\n1;{P1};hello world\r\n2;{P2};café au lait\r\n");
    for name in ["semi.txt", "semi.csv"] {
        let path = dir.file(name, text.as_bytes());
        let (code, rows) = kept_notes(&path, b"", &[]);
        assert_eq!(code, 0, "{name}");
        let notes: Vec<&str> = rows.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(notes, ["hello world", "café au lait"], "{name}");
    }
}

/// `cells` (n*n characters, `0`-`9` or `.`) as numbers separated by
/// spaces, blanks `0`.
fn spaced(cells: &str) -> String {
    let values: Vec<String> = cells
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0).to_string())
        .collect();
    values.join(" ")
}

#[test]
fn a_puzzle_written_with_spaces_between_cells_still_reads_in_a_tab_separated_file() {
    let dir = Scratch::new();
    // The 16x16 of data/sizes, one number a cell, on one line.
    let grid = std::fs::read_to_string(repo("data/sizes/16x16_comma_grid.txt")).unwrap();
    let sixteen: Vec<&str> = grid
        .lines()
        .take(16)
        .flat_map(|l| l.split(','))
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    assert_eq!(sixteen.len(), 256);
    let text = format!(
        "puzzle\tnote\r\n{}\tnine by nine\r\n{}\tfour by four\r\n{}\tsixteen\r\n",
        spaced(P1),
        spaced("3102200002100320"),
        sixteen.join(" ")
    );
    for name in ["sized.tsv", "sized.txt"] {
        let path = dir.file(name, text.as_bytes());
        let (code, rows) = kept_notes(&path, b"", &[]);
        let want = ["nine by nine", "four by four", "sixteen"]
            .map(|n| ("solved".to_string(), n.to_string()));
        assert_eq!((code, rows), (0, want.to_vec()), "{name}");
    }
}

#[test]
fn text_lines_without_tabs_read_as_before() {
    // The shipped text corpora: every line a record, read as text lines.
    for corpus in ["data/top95.txt", "data/magictour_top1465.txt"] {
        let path = repo(corpus);
        let auto = solve(&[&path, "-o", "-"]);
        let lines = solve(&[&path, "--format", "lines", "-o", "-"]);
        assert_eq!(code(&auto), code(&lines), "{corpus}");
        assert_eq!(
            without_timing(&stdout(&auto)),
            without_timing(&stdout(&lines)),
            "{corpus}"
        );
    }
}
