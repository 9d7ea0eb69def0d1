//! Tests of the whole reader: [`Input`] to [`Record`]s, every layout.

use std::io::{Cursor, Write};

use proptest::prelude::*;
use sudoku_core::grid::Grid;

use super::*;

/// A puzzle with one solution, [`S`]: the input module's tests share it.
pub(super) const P: &str =
    "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
/// The solution of [`P`].
pub(super) const S: &str =
    "316452978285679314497318562879234156142965783653187249968721435521843697734596821";
const Q: &str = "000007004000006003860200000509082000640000080000000700000000042010030000703000009";

fn grid(s: &str) -> Grid {
    Grid::parse(s.as_bytes()).unwrap()
}

fn options(format: Format) -> ReadOptions {
    ReadOptions {
        format,
        ..ReadOptions::default()
    }
}

fn read_with(name: &str, data: &[u8], opts: &ReadOptions) -> Result<Vec<Record>, InputError> {
    Input::from_reader(name, Cursor::new(data.to_vec()))
        .records(opts)?
        .collect()
}

fn read(name: &str, data: &str) -> Vec<Record> {
    read_with(name, data.as_bytes(), &ReadOptions::default()).unwrap()
}

/// `(line, Ok(puzzle line) | Err(message))` for each record.
fn brief(records: &[Record]) -> Vec<(u64, Result<String, String>)> {
    records
        .iter()
        .map(|r| (r.line, r.puzzle.clone().map(|g| g.to_line())))
        .collect()
}

fn ok(line: u64, p: &str) -> (u64, Result<String, String>) {
    (line, Ok(grid(p).to_line()))
}

fn bad(line: u64, message: &str) -> (u64, Result<String, String>) {
    (line, Err(message.to_string()))
}

#[test]
fn records_are_send() {
    fn send<T: Send>() {}
    send::<Records>();
    send::<Input>();
}

#[test]
fn case_10_wrong_length() {
    let data = format!(
        "{}\n{}05\n{P} from a newspaper 12/3\n{P}abc\n\n{}\npuzzle\n{Q}\n",
        &P[..80],
        &P[..80],
        (0..27)
            .map(|i| &P[i * 3..i * 3 + 3])
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert_eq!(
        brief(&read("10.txt", &data)),
        vec![
            bad(1, "80 cells, expected 81"),
            bad(2, "82 cells, expected 81"),
            ok(3, P),
            bad(4, "bad character 'a' at position 82"),
            bad(6, "3 cells, expected 81"),
            bad(7, "bad character 'p' at position 1"),
            ok(8, Q),
        ]
    );
}

#[test]
fn line_numbers_count_every_line() {
    let data = format!(
        "\u{feff}# title comment\r\n#! shebang-like\n95\r\n\r\n  {P}\r\n\n\t{Q} \t\r\n{P}\t# note\n\x1A"
    );
    assert_eq!(
        brief(&read("x.txt", &data)),
        vec![ok(5, P), ok(7, Q), ok(8, P)]
    );
    // No final newline; mixed endings.
    let data = format!("{P}\n{Q}\r\n{P}");
    assert_eq!(
        brief(&read("x.txt", &data)),
        vec![ok(1, P), ok(2, Q), ok(3, P)]
    );
}

#[test]
fn a_spreadsheet_placeholder_is_a_line_of_its_own_not_a_comment() {
    // `#N/A` where a puzzle is missing (a column pasted from a
    // spreadsheet): its row, saying so; other `#` lines are comments.
    let data = format!("# top95\n{P}\n#N/A\n#n/a \n# {Q}\n{Q}\n");
    let missing = |v: &str| format!("'{v}' marks a missing value, not a puzzle");
    assert_eq!(
        brief(&read("x.txt", &data)),
        vec![
            ok(2, P),
            (3, Err(missing("#N/A"))),
            (4, Err(missing("#n/a"))),
            ok(6, Q)
        ]
    );
}

#[test]
fn a_spreadsheet_error_or_pandas_placeholder_is_a_line_of_its_own() {
    // A column exported with formula errors and pandas' NA strings: each
    // its row, saying so; a `#` rule, a word and words after a space stay
    // comments.
    let data = format!(
        "puzzle\r\n{P}\r\n#VALUE!\r\n#N/A N/A\r\n#\r\n#####\r\n#hardest\r\n# From x\r\n\
         #NA\r\n-1.#IND\r\n#div/0!\r\n#GETTING_DATA\r\n{Q}\r\n"
    );
    let missing = |v: &str| format!("'{v}' marks a missing value, not a puzzle");
    let error = |v: &str| format!("spreadsheet error value '{v}'");
    let want = |na: &str| {
        vec![
            ok(2, P),
            (3, Err(error("#VALUE!"))),
            (4, Err(missing(na))),
            (9, Err(missing("#NA"))),
            (10, Err(missing("-1.#IND"))),
            (11, Err(error("#div/0!"))),
            (12, Err(error("#GETTING_DATA"))),
            ok(13, Q),
        ]
    };
    // CSV takes the field whole; text lines the line's first word.
    assert_eq!(brief(&read("x.csv", &data)), want("#N/A N/A"));
    assert_eq!(brief(&read("x.txt", &data)), want("#N/A"));
}

#[test]
fn a_hash_line_is_a_value_when_it_or_its_first_field_is_a_spreadsheets() {
    // Values: alone, or first before a delimiter, whatever else follows.
    for value in [
        "#REF!",
        "  #N/A N/A \r",
        "#VALUE!,x",
        "#REF!;x;y",
        "#NAME?\t1",
        "#NA|x",
    ] {
        assert!(lines::spreadsheet_value(value.as_bytes()), "{value:?}");
        assert!(!lines::is_skipped(value.as_bytes()), "{value:?}");
        let sizes = SizeOptions::default();
        assert!(!lines::skipped(value.as_bytes(), None, &sizes), "{value:?}");
        assert!(
            !csv::skipped(value.as_bytes(), b',', Some(3), &sizes),
            "{value:?}"
        );
    }
    // Comments: words after a space (a first word ending in `!` too), `#`
    // alone or a rule of them, a word without a closing `!` or `?`.
    for comment in [
        "# From x",
        "#wow! nice",
        "#",
        "#####",
        "#hardest",
        "#1!",
        "#x, y",
    ] {
        assert!(lines::is_skipped(comment.as_bytes()), "{comment:?}");
    }
}

#[test]
fn a_hash_line_of_a_delimited_text_file_holding_a_record_is_one() {
    // An id `#2` before a puzzle: a record; a puzzle commented out, whole
    // or with its fields, or a comment with a comma: comments.
    let data = format!("id,puzzle\n1,{P}\n#2,{Q}\n#{P},x\n# {P}\n# by, hand\n3,{P}\n");
    assert_eq!(
        brief(&read("x.txt", &data)),
        vec![ok(2, P), ok(3, Q), ok(7, P)]
    );
    let sizes = SizeOptions::default();
    assert!(!lines::skipped(format!("#2;{P}").as_bytes(), None, &sizes));
    assert!(lines::skipped(format!("#2 {P}").as_bytes(), None, &sizes));
    assert!(lines::skipped(
        format!("#2;{P}").as_bytes(),
        Some(lines::FieldRule::Whitespace),
        &sizes
    ));
}

#[test]
fn a_hash_line_shaped_like_a_header_is_told_from_a_comment() {
    // A spreadsheet's row-number column `#`, cut at the first delimiter
    // the line holds; a line naming the puzzle column.
    assert!(lines::hash_header(b"#,quizzes,solutions"));
    assert!(lines::hash_header(b"#\tnote, more\tquizzes\r"));
    assert!(lines::hash_header(b"  #id;board"));
    assert!(lines::hash_header(b"# id,Quizzes"));
    // Comments: words after the `#`, one field, no `#` first.
    assert!(!lines::hash_header(b"# a, b"));
    assert!(!lines::hash_header(
        b"# From http://magictour.free.fr/sudoku.htm"
    ));
    assert!(!lines::hash_header(b"#"));
    assert!(!lines::hash_header(b"id,#"));
}

#[test]
fn numpy_and_r_headers_from_stdin_and_txt() {
    // numpy.savetxt's `# ` before its header, tab-separated, as text
    // lines: `--keep id` finds the first column.
    let opts = ReadOptions {
        keep: Keep::Columns(vec![Column::Name("id".into())]),
        ..ReadOptions::default()
    };
    let data = format!("# id\tpuzzle\tsolution\n7\t{P}\t{S}\n");
    let got = read_with("-", data.as_bytes(), &opts).unwrap();
    assert_eq!(brief(&got), [ok(2, P)]);
    assert_eq!(got[0].kept, [KeptValue::Text("7".into())]);
    let mut names = vec!["#  id".to_string(), "puzzle".to_string()];
    lines::unmark_first_name(&mut names);
    assert_eq!(names, ["id", "puzzle"]);
    let mut names = vec!["#id".to_string(), "#".to_string()];
    lines::unmark_first_name(&mut names);
    assert_eq!(names, ["#id", "#"]);
    // R's write.table(df) with every default: quoted values separated by
    // spaces, row names first; from stdin, a `.txt` and a `.csv` alike.
    let data = format!("\"puzzle\" \"solution\"\n\"1\" \"{P}\" \"{S}\"\n\"2\" \"{P}\" \"\"\n");
    for name in ["-", "r.txt", "r.csv"] {
        let got = read_with(name, data.as_bytes(), &ReadOptions::default()).unwrap();
        assert_eq!(brief(&got), [ok(2, P), ok(3, P)], "{name}");
        assert!(
            got[0].solution.is_some() && got[1].solution.is_none(),
            "{name}"
        );
    }
    // Values in quotes with a `,` beside them are no such header.
    let data = format!("\"puzzle\", \"solution\"\n\"{P}\", \"{S}\"\n");
    let got = read_with("-", data.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(brief(&got), [ok(2, P)]);
}

#[test]
fn lines_after_the_last_puzzle_are_malformed() {
    let data = format!("{P}\n{Q}\n\nVery Hard\n30%\n");
    assert_eq!(
        brief(&read("x.txt", &data)),
        vec![
            ok(1, P),
            ok(2, Q),
            bad(4, "bad character 'V' at position 1"),
            bad(5, "bad character '%' at position 3")
        ]
    );
    let data = format!("{P}\nnote\n{Q}\n");
    assert_eq!(
        brief(&read("x.txt", &data)),
        vec![
            ok(1, P),
            bad(2, "bad character 'n' at position 1"),
            ok(3, Q)
        ]
    );
    // A grouped or cut puzzle at the end is still reported.
    let data = format!("{P}\n016 400 000 200 009 000\n{}", &P[..40]);
    assert_eq!(
        brief(&read("x.txt", &data)),
        vec![
            ok(1, P),
            bad(2, "3 cells, expected 81"),
            bad(3, "40 cells, expected 81")
        ]
    );
}

#[test]
fn solutions_in_later_fields() {
    let data = format!("{P},{S}\n{},{S}\n", &P[..76]);
    let got = read("x.txt", &data);
    assert_eq!(brief(&got), vec![ok(1, P), bad(2, "76 cells, expected 81")]);
    assert_eq!(got[0].solution, Some(grid(S)));
    assert_eq!(got[1].solution, None);
    let got = read("y.txt", &format!("17 {Q} 2.5\n"));
    assert_eq!(brief(&got), vec![ok(1, Q)]);
    assert_eq!(got[0].solution, None);
}

#[test]
fn line_over_the_cap() {
    let long = "1".repeat(100_000);
    let data = format!("{P}\n{long}\n{Q}\n{long}");
    let message = format!("line too long (over {MAX_RECORD} bytes)");
    assert_eq!(
        brief(&read("x.txt", &data)),
        vec![ok(1, P), bad(2, &message), ok(3, Q), bad(4, &message)]
    );
    // CSV and JSON Lines records carry kept columns: their cap is 1 MiB.
    let longer = "1".repeat(MAX_TABLE_RECORD + 1);
    let message = format!("line too long (over {MAX_TABLE_RECORD} bytes)");
    let data = format!("puzzle\n\"{longer}\"\n{Q}\n");
    assert_eq!(
        brief(&read("x.csv", &data)),
        vec![bad(2, &message), ok(3, Q)]
    );
    let data = format!("\"{longer}\"\n\"{Q}\"\n");
    assert_eq!(
        brief(&read("x.jsonl", &data)),
        vec![bad(1, &message), ok(2, Q)]
    );
}

#[test]
fn binary_and_invalid_utf8() {
    let mut data = b"\xffgarbage\n".to_vec();
    data.extend_from_slice(P.as_bytes());
    data.extend_from_slice(b"\n\x01\x02\n12\xC3\xA9");
    data.extend_from_slice(&P.as_bytes()[3..]);
    data.push(b'\n');
    let got = read_with("x.txt", &data, &ReadOptions::default()).unwrap();
    assert_eq!(
        brief(&got),
        vec![
            bad(1, "byte 0xFF at position 1"),
            ok(2, P),
            bad(3, "byte 0x01 at position 1"),
            bad(4, "bad character 'é' at position 3")
        ]
    );
    // Garbage after the last puzzle is reported too (text would be a note).
    let got = read_with("x.txt", b"\x7f\x01\n", &ReadOptions::default()).unwrap();
    assert_eq!(brief(&got), vec![bad(1, "byte 0x7F at position 1")]);
    let data = format!("\u{feff}quizzes,solutions\n{P},{S}\n\x1A");
    assert_eq!(brief(&read("b.csv", &data)), vec![ok(2, P)]);
    let got = read_with("g.csv", b"\xff,x\n", &ReadOptions::default()).unwrap();
    assert_eq!(brief(&got), vec![bad(1, "no field looks like a puzzle")]);
}

#[test]
fn csv_layouts() {
    let data = format!("quizzes,solutions\r\n{P},{S}\r\n\r\n{Q},{S}");
    let got = read("k.csv", &data);
    assert_eq!(brief(&got), vec![ok(2, P), ok(4, Q)]);
    assert_eq!(got[0].solution, Some(grid(S)));
    let data = format!("id,puzzle,solution,clues,difficulty\n12,{Q},{S},17,0.0\n");
    assert_eq!(brief(&read("r.csv", &data)), vec![ok(2, Q)]);
    let data = format!(",puzzle,solution\n0,{P},{S}\n1,{Q},{S}\n");
    assert_eq!(brief(&read("i.csv", &data)), vec![ok(2, P), ok(3, Q)]);
    let data = format!(
        "puzzle,note\n\"{P}\",\"quoted, with comma\"\n  {Q}  ,padded\n{P},\"multi\nline note\"\n{Q}"
    );
    assert_eq!(
        brief(&read("q.csv.gz.csv", &data)),
        vec![
            ok(2, P),
            ok(3, Q),
            ok(4, P),
            bad(6, "1 field, but the header has 2")
        ]
    );
}

#[test]
fn mangled_spreadsheet_csv() {
    let data = "quizzes,solutions\r\n4.30021E+78,8.64371E+80\r\n4.3E+78,8.6E+80\r\n";
    assert_eq!(
        brief(&read("m.csv", data)),
        vec![
            bad(
                2,
                "looks like a spreadsheet number (4.30021E+78): leading zeros lost"
            ),
            bad(
                3,
                "looks like a spreadsheet number (4.3E+78): leading zeros lost"
            ),
        ]
    );
}

#[test]
fn a_line_of_another_format_gets_its_hint_not_the_symbols_one() {
    // A quoted CSV record in a text file (the proptest below found this
    // one): `--symbols` would not help, `--format csv` would.
    let data = b"4.30021E+784.30021E+78\",\"\n";
    let got = read_with("x.txt", data, &options(Format::Lines)).unwrap();
    assert_eq!(
        brief(&got),
        vec![bad(
            1,
            "'4.30021E+784.300...' at position 1 is no symbol of one character per cell \
             (looks like CSV: give --format csv)"
        )]
    );
}

#[test]
fn other_sizes_one_line() {
    let data = format!(
        "{}\n{}\n\nVery Hard\n",
        "..A.".repeat(64),
        "B...".repeat(64)
    );
    let m = "a 16x16 grid: only 9x9 is supported";
    let after = "bad character 'V' at position 1";
    assert_eq!(
        brief(&read("s.txt", &data)),
        vec![bad(1, m), bad(2, m), bad(4, after)]
    );
    let data = "Puzzle,Solution\r\n3102200002100320,3142243142131324\r\n";
    assert_eq!(
        brief(&read("s.csv", data)),
        vec![bad(2, "a 4x4 grid: only 9x9 is supported")]
    );
}

const GRID: &str = "Grid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\n";
const GRID_LINE: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

#[test]
fn grid_files_refused_under_auto_and_read_under_grid() {
    let err = read_with("p096.txt", GRID.as_bytes(), &ReadOptions::default()).unwrap_err();
    let message = err.to_string();
    assert!(matches!(
        err,
        InputError::GridFile {
            line: 2,
            side: 9,
            ..
        }
    ));
    assert!(message.contains("--format grid"), "{message}");
    assert!(message.starts_with("p096.txt: line 2:"), "{message}");
    let got = read_with("p096.txt", GRID.as_bytes(), &options(Format::Grid)).unwrap();
    assert_eq!(brief(&got), vec![ok(2, GRID_LINE)]);
    let records = Input::from_reader("a.csv.gz", Cursor::new(Vec::new()))
        .records(&ReadOptions::default())
        .unwrap();
    assert_eq!(
        (records.format(), records.name()),
        (Format::Csv, "a.csv.gz")
    );
    // Comma grids in a `.csv` are grids too.
    let data = "2,1,0,0\r\n0,3,2,0\r\n0,0,0,4\r\n1,0,0,0";
    let err = read_with("g.csv", data.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert!(matches!(err, InputError::GridFile { side: 4, .. }));
    let got = read_with("g.csv", data.as_bytes(), &options(Format::Grid)).unwrap();
    assert_eq!(
        brief(&got),
        vec![bad(1, "a 4x4 grid: only 9x9 is supported")]
    );
    // A note of lines of four digits after a puzzle is no 4x4 grid.
    let data = format!("puzzle,note\n{P},\"seen in\n2019\n2020\n\"\n");
    assert_eq!(brief(&read("n.csv", &data)), vec![ok(2, P)]);
    // A count line above puzzles is a header, not a grid row.
    let data = format!("1465\n{P}\n{Q}\n");
    assert_eq!(brief(&read("c.txt", &data)), vec![ok(2, P), ok(3, Q)]);
    // Explicit `lines` makes every line a record: the rows are too short
    // to be puzzles, and each says so (none is dropped as a header).
    let got = read_with("p096.txt", GRID.as_bytes(), &options(Format::Lines)).unwrap();
    assert_eq!(got.len(), 10);
    assert_eq!(brief(&got)[1], bad(2, "9 cells, expected 81"));
    assert!(got.iter().all(|r| r.puzzle.is_err()));
}

#[test]
fn explicit_column_for_text_and_csv() {
    let opts = ReadOptions {
        column: Some(Column::Index(2)),
        ..ReadOptions::default()
    };
    let data = format!("{S} {P}\n");
    assert_eq!(
        brief(&read_with("x.txt", data.as_bytes(), &opts).unwrap()),
        vec![ok(1, P)]
    );
    let data = format!("a,b\n{S},{P}\n");
    assert_eq!(
        brief(&read_with("x.csv", data.as_bytes(), &opts).unwrap()),
        vec![ok(2, P)]
    );
    let zero = ReadOptions {
        column: Some(Column::Index(0)),
        ..ReadOptions::default()
    };
    assert!(matches!(
        read_with("x.csv", data.as_bytes(), &zero),
        Err(InputError::ColumnZero)
    ));
}

fn temp(dir: &tempfile::TempDir, name: &str, data: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, data).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn open_files_gzip_and_counters() {
    use flate2::write::GzEncoder;
    use flate2::Compression;
    let dir = tempfile::tempdir().unwrap();
    // Two gzip members, as `cat a.gz b.gz` makes.
    let mut gz = Vec::new();
    for part in [
        format!("quizzes,solutions\n{P},{S}\n"),
        format!("{Q},{S}\n"),
    ] {
        let mut enc = GzEncoder::new(Vec::new(), Compression::default());
        enc.write_all(part.as_bytes()).unwrap();
        gz.extend(enc.finish().unwrap());
    }
    let path = temp(&dir, "k.csv.gz", &gz);
    let input = open(&path).unwrap();
    assert_eq!(input.name(), path);
    assert_eq!(input.size(), Some(gz.len() as u64));
    assert_eq!(input.format_by_name(), Format::Csv);
    let consumed = input.consumed();
    let got: Vec<Record> = input
        .records(&ReadOptions::default())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(brief(&got), vec![ok(2, P), ok(3, Q)]);
    assert!(got.iter().all(|r| r.solution == Some(grid(S))));
    assert_eq!(
        consumed.load(std::sync::atomic::Ordering::Relaxed),
        gz.len() as u64
    );

    let missing = dir.path().join("nope.txt");
    let err = open(missing.to_str().unwrap()).unwrap_err();
    assert!(err.to_string().contains("nope.txt"), "{err}");
    let err = open(dir.path().to_str().unwrap()).unwrap_err();
    assert!(err.to_string().contains("directory"), "{err}");
    // Not gzip at all: an error when reading, never a panic.
    let path = temp(&dir, "bad.txt.gz", b"not gzip\n");
    let err = open(&path).unwrap().records(&ReadOptions::default());
    assert!(matches!(err, Err(InputError::Io { .. })));
    assert_eq!(open("-").unwrap().name(), "-");
    assert_eq!(open("-").unwrap().size(), None);
}

#[test]
fn solutions_file_pairs_record_by_record() {
    let dir = tempfile::tempdir().unwrap();
    let with = |solutions: &str| ReadOptions {
        solutions: Some(temp(&dir, "solved.txt", solutions.as_bytes()).into()),
        ..ReadOptions::default()
    };
    let data = format!("{P}\n# c\n{}\n{Q}", &P[..5]);
    let got = read_with("x.txt", data.as_bytes(), &with(&format!("{S}\n{S}\n{S}"))).unwrap();
    assert_eq!(
        brief(&got),
        vec![ok(1, P), bad(3, "5 cells, expected 81"), ok(4, Q)]
    );
    assert!(got.iter().all(|r| r.solution == Some(grid(S))));

    let err = read_with("x.txt", data.as_bytes(), &with(&format!("{S}\n{S}\n"))).unwrap_err();
    assert!(
        matches!(err, InputError::SolutionsShort { line: 4, .. }),
        "{err}"
    );
    let err = read_with(
        "x.txt",
        data.as_bytes(),
        &with(&format!("{S}\n{S}\n{S}\n{S}")),
    );
    assert!(matches!(
        err,
        Err(InputError::SolutionsLong { line: 4, .. })
    ));
    // A value that is not a grid is kept as the reason; a blank line stands
    // for its record; blank lines after the last solution are no solutions.
    let got = read_with("x.txt", data.as_bytes(), &with(&format!("{S}\n{P}\n\n\n"))).unwrap();
    assert_eq!(got[0].solution, Some(grid(S)));
    let why = "solutions file line 2: not a grid: it has blanks";
    assert_eq!(got[1].solution_error.as_deref(), Some(why));
    assert_eq!((&got[2].solution, &got[2].solution_error), (&None, &None));
    // A CSV of solutions: its solution column.
    let csv = ReadOptions {
        solutions: Some(
            temp(
                &dir,
                "s.csv",
                format!("puzzle,solution\n{Q},{S}\n{Q},{S}\n{Q},{S}").as_bytes(),
            )
            .into(),
        ),
        ..ReadOptions::default()
    };
    let got = read_with("x.txt", data.as_bytes(), &csv).unwrap();
    assert!(got.iter().all(|r| r.solution == Some(grid(S))));
    let missing = ReadOptions {
        solutions: Some(dir.path().join("none.txt")),
        ..ReadOptions::default()
    };
    assert!(matches!(
        read_with("x.txt", data.as_bytes(), &missing),
        Err(InputError::Io { .. })
    ));
}

/// Lines of `data`: `\n`, `\r\n` and a lone `\r` each end one.
fn line_count(data: &[u8]) -> u64 {
    let ends = data
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' && (i == 0 || data[i - 1] != b'\r') || b == b'\r')
        .count() as u64;
    ends + u64::from(!data.is_empty() && !matches!(data.last(), Some(b'\n' | b'\r')))
}

fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..40),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\"".to_vec()),
        Just(b",".to_vec()),
        Just(b"#".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b"\x1A".to_vec()),
        Just(P.as_bytes().to_vec()),
        Just(b"003020600\n".to_vec()),
        Just(b"4.30021E+78".to_vec()),
        (1usize..6000).prop_map(|n| vec![b'5'; n]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_bytes_never_panic(
        pieces in proptest::collection::vec(piece(), 0..24),
        format in prop_oneof![
            Just(Format::Auto),
            Just(Format::Lines),
            Just(Format::Csv),
            Just(Format::Grid),
        ],
        name in prop_oneof![Just("x.txt"), Just("x.csv")],
    ) {
        let data: Vec<u8> = pieces.concat();
        let lines = line_count(&data);
        // UTF-16 with a byte-order mark is decoded: its lines are not the
        // raw bytes' lines.
        let utf16 = data.starts_with(b"\xFF\xFE") || data.starts_with(b"\xFE\xFF");
        // Bytes that open with gzip's or zstd's magic number are read as
        // compressed by content: random bytes after it are a damaged
        // stream, an I/O error naming it, not records.
        let compressed = data.starts_with(b"\x1F\x8B") || data.starts_with(b"\x28\xB5\x2F\xFD");
        let records = match Input::from_reader(name, Cursor::new(data.clone())).records(&options(format)) {
            Ok(records) => records,
            Err(InputError::GridFile { line, .. }) => {
                prop_assert!(line >= 1 && (utf16 || line <= lines));
                return Ok(());
            }
            Err(InputError::NotText { .. }) => {
                prop_assert!(data.contains(&0), "not text without a NUL byte");
                return Ok(());
            }
            Err(InputError::Io { .. }) if compressed => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        let mut last = 0;
        for record in records {
            let record = match record {
                Ok(record) => record,
                Err(InputError::Io { .. }) if compressed => return Ok(()),
                Err(e) => return Err(TestCaseError::fail(e.to_string())),
            };
            prop_assert!(record.line > last, "line {} after {}", record.line, last);
            prop_assert!(utf16 || record.line <= lines, "line {} of {}", record.line, lines);
            if let Err(message) = &record.puzzle {
                prop_assert!(message.len() <= 120, "{}", message);
            }
            last = record.line;
        }
    }
}

fn utf16le(text: &str, bom: bool) -> Vec<u8> {
    let mut bytes = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    bytes
}

#[test]
fn utf16_with_a_byte_order_mark_is_decoded() {
    let data = utf16le(
        &format!("quizzes,solutions\r\n{P},{S}\r\n{Q},{S}\r\n"),
        true,
    );
    assert_eq!(
        brief(&read_with("u.csv", &data, &ReadOptions::default()).unwrap()),
        vec![ok(2, P), ok(3, Q)]
    );
    let data = utf16le(&format!("{P}\n{Q}\n"), true);
    assert_eq!(
        brief(&read_with("u.txt", &data, &ReadOptions::default()).unwrap()),
        vec![ok(1, P), ok(2, Q)]
    );
}

#[test]
fn binary_and_utf16_without_a_mark_are_refused_by_name() {
    let err = read_with(
        "u.txt",
        &utf16le(&format!("{P}\n"), false),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(err, InputError::NotText { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("u.txt: UTF-16LE text without a byte-order mark"),
        "{err}"
    );
    let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00";
    let err = read_with("p.csv", png, &ReadOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("p.csv: binary data (a NUL byte at offset 8)"),
        "{err}"
    );
}

#[test]
fn a_nul_byte_past_the_first_chunk_is_one_malformed_record() {
    // The first chunk is what one read gives: past it, a NUL byte is left
    // to its record.
    let mut data = Vec::new();
    while data.len() < 200_000 {
        data.extend_from_slice(P.as_bytes());
        data.push(b'\n');
    }
    let lines = (data.len() / 82) as u64;
    data.extend_from_slice(b"\x00\n");
    data.extend_from_slice(Q.as_bytes());
    let got = read_with("x.txt", &data, &ReadOptions::default()).unwrap();
    let tail: Vec<_> = brief(&got).into_iter().skip(lines as usize).collect();
    assert_eq!(
        tail,
        vec![bad(lines + 1, "byte 0x00 at position 1"), ok(lines + 2, Q)]
    );
}

/// Found writing the `records` fuzz target's invariants: a kept JSON
/// string holding a lone surrogate escape (valid JSON, not valid UTF-16)
/// was kept as null, and such a solution was taken for none given; it is
/// kept as written, with its text for the formats that need one.
#[test]
fn a_json_string_with_a_lone_surrogate_is_kept_marked_not_lost() {
    let data = format!(
        "{{\"puzzle\":\"{P}\",\"id\":\"a\\ud800b\\u00e9\\ud83d\\ude00\\n\",\"solution\":\"\\udc00\"}}\n"
    );
    let opts = ReadOptions {
        keep: Keep::Columns(vec![Column::Name("id".into())]),
        ..options(Format::Jsonl)
    };
    let records = read_with("a.jsonl", data.as_bytes(), &opts).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(
        records[0].kept,
        [crate::kept::KeptValue::LoneSurrogate {
            json: "\"a\\ud800b\\u00e9\\ud83d\\ude00\\n\"".into(),
            text: "a\u{fffd}b\u{e9}\u{1f600}\n".into(),
        }]
    );
    assert_eq!(records[0].solution, None);
    let why = records[0].solution_error.as_deref().unwrap_or_default();
    assert!(why.contains("not a grid"), "{why}");
}

/// Each puzzle and solution a record of `read` from a `.txt` name, as a
/// line (the two separated by a space), and from a `.csv` name as two
/// quoted fields under a `puzzle,solution` header: the same records (the
/// lines are numbered alike).
fn line_and_field(records: &[(&str, &str)]) -> Vec<Record> {
    let mut lines = String::from("puzzle solution\n");
    let mut csv = String::from("puzzle,solution\n");
    for (puzzle, solution) in records {
        lines.push_str(&format!("{puzzle} {solution}\n"));
        csv.push_str(&format!("\"{puzzle}\",\"{solution}\"\n"));
    }
    let from_lines = read("in.txt", &lines);
    let from_fields = read("in.csv", &csv);
    assert_eq!(from_lines, from_fields);
    from_lines
}

#[test]
fn a_line_finds_its_puzzle_and_solution_as_csv_fields_do() {
    let number = |c: u8, shift: i8| match c {
        b'1'..=b'9' => ((c - b'0') as i8 + shift).to_string(),
        _ => ".".to_string(),
    };
    let list = |cells: &str, shift: i8, sep: &str| {
        let values: Vec<String> = cells.bytes().map(|c| number(c, shift)).collect();
        values.join(sep)
    };
    // Numbered from 0 with `.` blanks: its `0` givens are givens.
    let zero_based = list(P, -1, ",");
    let records = line_and_field(&[(&zero_based, "")]);
    let sized = records[0].sized.as_ref().expect("read in numbers0");
    assert_eq!(sized.symbols.format(&sized.puzzle, b'.'), zero_based);
    // A solution written as numbers after an 81-character puzzle, by
    // commas or spaces, right or wrong.
    let wrong = format!("{}2", &S[..80]);
    for sep in [",", " "] {
        let records = line_and_field(&[(P, &list(S, 0, sep))]);
        assert_eq!(records[0].solution, Some(grid(S)));
        let records = line_and_field(&[(P, &list(&wrong, 0, sep))]);
        assert_eq!(records[0].solution, Some(grid(&wrong)));
    }
    // A puzzle and its solution as values separated by spaces.
    let records = line_and_field(&[(&list(P, 0, " "), &list(S, 0, " "))]);
    assert_eq!(records[0].puzzle, Ok(grid(P)));
    assert_eq!(records[0].solution, Some(grid(S)));
}

/// The puzzle (or why none) and the kept values, as text, of each record
/// of `data` read as `name` keeping `note`.
fn notes(name: &str, data: &[u8], opts: ReadOptions) -> Vec<(Result<String, String>, String)> {
    let opts = ReadOptions {
        keep: Keep::Columns(vec![Column::Name("note".into())]),
        ..opts
    };
    read_with(name, data, &opts)
        .unwrap()
        .into_iter()
        .map(|r| {
            let note = match &r.kept[..] {
                [crate::kept::KeptValue::Text(t)] => t.clone(),
                other => format!("{other:?}"),
            };
            (r.puzzle.map(|g| g.to_line()), note)
        })
        .collect()
}

#[test]
fn tab_separated_values_are_read_whole_by_name_and_by_content() {
    // Excel's "Text (Tab delimited)": CRLF, a value with a space, one with
    // a line end and one with a quote, both quoted.
    let tsv = format!(
        "id\tpuzzle\tnote\r\n1\t{P}\thello world\r\n2\t{Q}\t\"line1\r\nline2\"\r\n\
         3\t{P}\t\"say \"\"hi\"\"\"\r\n"
    );
    let want = vec![
        (Ok(grid(P).to_line()), "hello world".to_string()),
        (Ok(grid(Q).to_line()), "line1\r\nline2".to_string()),
        (Ok(grid(P).to_line()), "say \"hi\"".to_string()),
    ];
    for name in [
        "sp.tsv",
        "SP.TSV",
        "sp.tab",
        "sp.tsv.gz",
        "sp.txt",
        "sp",
        "-",
    ] {
        let got = notes(name, tsv.as_bytes(), ReadOptions::default());
        assert_eq!(got, want, "{name}");
    }
    // Windows' "Unicode Text": UTF-16 LE with a mark, decoded, then the
    // same.
    let got = notes("u.txt", &utf16le(&tsv, true), ReadOptions::default());
    assert_eq!(got, want);
    // `.tsv` is tab-separated even when its header holds a comma.
    let comma = tsv.replacen("id\t", "id, row\t", 1);
    assert_eq!(
        notes("c.tsv", comma.as_bytes(), ReadOptions::default()),
        want
    );
    // A `.txt` of text lines without tabs is read as before.
    let spaced = format!("{P} hello world\n");
    let got = read("s.txt", &spaced);
    assert_eq!(got[0].puzzle, Ok(grid(P)));
    let format = |name: &str, data: &str| {
        Input::from_reader(name, Cursor::new(data.as_bytes().to_vec()))
            .records(&ReadOptions::default())
            .unwrap()
            .format()
    };
    assert_eq!(format("s.txt", &spaced), Format::Lines);
    assert_eq!(format("t.txt", &tsv), Format::Csv);
    // A title before the tab-separated lines: text lines, whose rule
    // (tab after the first record's first field) keeps values whole too.
    let titled = format!("Top puzzles\n{P}\thello world\n");
    assert_eq!(format("t.txt", &titled), Format::Lines);
    let opts = ReadOptions {
        keep: Keep::Columns(vec![Column::Index(2)]),
        ..ReadOptions::default()
    };
    let got = read_with("t.txt", titled.as_bytes(), &opts).unwrap();
    assert_eq!(got[0].kept, [crate::input::keep::text(b"hello world")]);
}
