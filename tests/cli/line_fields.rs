//! A record on a text line (a `.txt` file, stdin, a CSV read from stdin)
//! is read as the same record in a CSV field (trial55 F0-1, F0-2, F0-3,
//! F1-3): the puzzle and its given solution are found in a line's fields
//! by the field reader's rules, in every notation a CSV field takes; a
//! damaged grid of any size on a first line is `malformed`, never a header;
//! a quoted CSV from stdin or a `.txt` gives the rows of the same file
//! named `.csv`.
//! The last test reads every record of `data/` and `data/sizes` both ways.

use std::collections::HashMap;

use crate::common::*;

/// The puzzle and solution of `tests/cases/10-wrong-length.txt` line 3.
const P: &str = ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";
const S: &str = "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

/// `cells` (81 characters) as numbers separated by `sep`, each digit
/// shifted by `shift` (-1: numbered from 0), blanks written `blank`.
fn numbers(cells: &str, shift: i32, blank: &str, sep: &str) -> String {
    cells
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) if d > 0 => (d as i32 + shift).to_string(),
            _ => blank.to_string(),
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// A CSV field holding `text`, quoted.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// The results of `solve` on `stdin` (text lines) and on the named file
/// `csv` (header `puzzle,solution`, the same records as quoted fields),
/// without timing, with their exit codes: `lines` are the records, each a
/// puzzle and an optional solution.
fn both_ways(lines: &[(String, Option<String>)]) -> ((i32, String), (i32, String)) {
    let scratch = Scratch::new();
    let mut text = String::from("puzzle solution\n");
    let mut csv = String::from("puzzle,solution\n");
    for (puzzle, solution) in lines {
        match solution {
            Some(solution) => {
                text.push_str(&format!("{puzzle} {solution}\n"));
                csv.push_str(&format!("{},{}\n", quoted(puzzle), quoted(solution)));
            }
            None => {
                text.push_str(&format!("{puzzle}\n"));
                csv.push_str(&format!("{},\n", quoted(puzzle)));
            }
        }
    }
    let from_lines = solve_stdin(&["-"], text.as_bytes());
    let from_csv = solve(&[&scratch.file("records.csv", csv.as_bytes())]);
    let result = |output: &std::process::Output| (code(output), without_timing(&stdout(output)));
    (result(&from_lines), result(&from_csv))
}

#[test]
fn zero_based_nine_by_nine_with_dot_blanks_alone_on_a_line_keeps_its_zero_givens() {
    // F0-1: S numbered from 0, three cells blank: nine `0` givens.
    let mut cells: Vec<String> = S.chars().map(|c| (c as u8 - b'1').to_string()).collect();
    for i in [2, 3, 4] {
        cells[i] = ".".into();
    }
    let line = cells.join(",");
    let scratch = Scratch::new();
    let path = scratch.file("f0.txt", format!("{line}\n").as_bytes());
    let output = solve(&[&path]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let rows = rows(&stdout(&output));
    assert_eq!(rows[0].puzzle, line);
    assert_eq!(rows[0].solution, numbers(S, -1, ".", ","));
    // As a CSV field: the same row.
    let ((lines_code, lines), (csv_code, csv)) = both_ways(&[(line, None)]);
    assert_eq!((lines_code, lines), (csv_code, csv));
    // P's blanks written `.` and `0` by turns: a `0` is no blank beside
    // `.` blanks, on a line as in a field.
    let mut turn = 0;
    let mixed: Vec<String> = P
        .chars()
        .map(|c| match c {
            '.' => {
                turn += 1;
                if turn % 2 == 1 { "." } else { "0" }.to_string()
            }
            c => c.to_string(),
        })
        .collect();
    let ((lines_code, lines), (csv_code, csv)) = both_ways(&[(mixed.join(","), None)]);
    assert_eq!((lines_code, &lines), (csv_code, &csv));
    assert_eq!(lines_code, 1);
    assert!(
        lines.contains("malformed") && lines.contains("is not one of numbers 0-8 nor a blank"),
        "{lines}"
    );
}

#[test]
fn a_solution_written_as_numbers_after_a_puzzle_on_a_line_is_checked() {
    // F0-2: the right solution, and one with its last digit wrong, as 81
    // numbers separated by commas or by spaces.
    let wrong = format!("{}2", &S[..80]);
    let scratch = Scratch::new();
    for sep in [",", " "] {
        let right = numbers(S, 0, ".", sep);
        let bad = numbers(&wrong, 0, ".", sep);
        for (line, want_code, check, message) in [
            (format!("{P} {right}"), 0, "ok", ""),
            (format!("id7 {P} {right}"), 0, "ok", ""),
            (
                format!("{P} {bad}"),
                1,
                "mismatch",
                "r9c9: given 2, solved 1 (1 cell differs)",
            ),
        ] {
            let path = scratch.file("one.txt", format!("{line}\n").as_bytes());
            let output = solve(&[&path]);
            assert_eq!(code(&output), want_code, "{line}: {}", stderr(&output));
            let rows = rows(&stdout(&output));
            assert_eq!(
                (rows[0].check.as_str(), rows[0].message.as_str()),
                (check, message),
                "{line}"
            );
        }
    }
    // Numbers where the solution stands that are no grid: said, not
    // passed over unchecked.
    let short = numbers(&S[..80], 0, ".", ",");
    let path = scratch.file("short.txt", format!("{P} {short}\n").as_bytes());
    let output = solve(&[&path]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let rows = rows(&stdout(&output));
    assert_eq!(rows[0].check, "mismatch");
    assert_eq!(
        rows[0].message,
        "given solution is not a grid: 80 values, expected 81 (a 9x9 grid)"
    );
    // As CSV fields, the same rows.
    let bad = numbers(&wrong, 0, ".", ",");
    let (lines, csv) = both_ways(&[
        (P.to_string(), Some(numbers(S, 0, ".", ","))),
        (P.to_string(), Some(bad)),
    ]);
    assert_eq!(lines, csv);
}

#[test]
fn a_damaged_sixteen_by_sixteen_on_the_first_line_is_malformed_not_a_header() {
    // F0-3: 254, 255 and 257 letters and digits on line 1.
    let text = std::fs::read_to_string(repo("data/sizes/16x16_1-9A-G_dots.txt")).unwrap();
    let grid = text.lines().next().unwrap().trim_end();
    assert_eq!(grid.len(), 256);
    let scratch = Scratch::new();
    for (damaged, why) in [
        (
            grid[..254].to_string(),
            "254 cells, expected 256 (a 16x16 grid)",
        ),
        (
            grid[..255].to_string(),
            "255 cells, expected 256 (a 16x16 grid)",
        ),
        // `X` is in no 16x16 alphabet: the field reader names it.
        (format!("{grid}X"), "bad character 'E' at position 2"),
    ] {
        let path = scratch.file("wl.txt", format!("{damaged}\n{grid}\n").as_bytes());
        let output = solve(&[&path]);
        assert_eq!(code(&output), 1, "{why}: {}", stderr(&output));
        let rows = rows(&stdout(&output));
        assert_eq!(rows.len(), 2, "{why}");
        assert_eq!(
            (
                rows[0].line,
                rows[0].status.as_str(),
                rows[0].message.as_str()
            ),
            (1, "malformed", why)
        );
        assert_eq!((rows[1].line, rows[1].status.as_str()), (2, "solved"));
        // As a CSV field: the same message.
        let (lines, csv) = both_ways(&[(damaged, None)]);
        assert_eq!(lines, csv);
        assert!(lines.1.contains(why), "{}", lines.1);
    }
}

#[test]
fn a_quoted_csv_from_stdin_or_a_txt_gives_the_rows_of_the_file_named_csv() {
    // F1-3: quotes around a puzzle, a comma in a note, a note over two
    // lines.
    let path = case("13-quotes.csv");
    let file = solve(&[&path]);
    let stdin = solve_stdin(&["-"], &std::fs::read(&path).unwrap());
    assert_eq!(code(&file), 0, "{}", stderr(&file));
    assert_eq!(code(&stdin), 0, "{}", stderr(&stdin));
    assert_eq!(
        without_timing(&stdout(&stdin)),
        without_timing(&stdout(&file))
    );
    // The puzzle a quoted field of numbers, no header.
    let record = format!("1,{},{S}\n", quoted(&numbers(P, 0, ".", ",")));
    let scratch = Scratch::new();
    let named = solve(&[&scratch.file("numbers.csv", record.as_bytes())]);
    let stdin = solve_stdin(&["-"], record.as_bytes());
    assert_eq!(code(&stdin), 0, "{}", stderr(&stdin));
    assert_eq!(
        without_timing(&stdout(&stdin)),
        without_timing(&stdout(&named))
    );
    let read = rows(&stdout(&stdin));
    assert_eq!(
        (
            read[0].puzzle.as_str(),
            read[0].status.as_str(),
            read[0].check.as_str()
        ),
        (P, "solved", "ok")
    );
    // The same bytes in a file whose name says no format (`.txt`, none)
    // give the same rows as the file named `.csv`.
    let csv_rows = without_timing(&stdout(&file));
    let bytes = std::fs::read(&path).unwrap();
    for name in ["quotes.txt", "quotes"] {
        let output = solve(&[&scratch.file(name, &bytes)]);
        assert_eq!(code(&output), 0, "{name}: {}", stderr(&output));
        assert_eq!(without_timing(&stdout(&output)), csv_rows, "{name}");
    }
    // A quoted CSV line further down a text file (after two lines of
    // puzzles) is no puzzle: the message names CSV, not JSON.
    let txt = scratch.file(
        "quoted.txt",
        format!("{P}\n{P}\n\"{P}x\",\"a note\"\n").as_bytes(),
    );
    let output = solve(&[&txt]);
    let rows = rows(&stdout(&output));
    assert!(
        rows[2]
            .message
            .ends_with("(looks like CSV: give --format csv)"),
        "{}",
        rows[2].message
    );
}

/// The files of `data/` and `data/sizes` that hold puzzles, and whether
/// each is read with `--format grid`.
fn data_files() -> Vec<(String, bool)> {
    let mut files = vec![];
    for dir in ["data", "data/sizes"] {
        for entry in std::fs::read_dir(repo(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() || name == "README.md" {
                continue;
            }
            let grid = name.contains("comma_grid") || name.starts_with("alphadoku");
            files.push((path.to_string_lossy().into_owned(), grid));
        }
    }
    files.sort();
    files
}

#[test]
fn every_record_of_the_shipped_data_reads_the_same_on_a_text_line_and_in_a_csv_field() {
    let scratch = Scratch::new();
    let mut compared = HashMap::new();
    for (path, grid) in data_files() {
        let mut args = vec![path.as_str()];
        if grid {
            args.extend(["--format", "grid"]);
        }
        let named = solve(&args);
        let named_code = code(&named);
        let named_rows = rows(&stdout(&named));
        // The file itself: a CSV read from stdin as text lines, and a file
        // of text lines beside the same lines as quoted CSV fields.
        if !grid && (path.ends_with(".csv") || path.ends_with(".txt")) {
            let bytes = std::fs::read(&path).unwrap();
            let (lines, csv) = if path.ends_with(".csv") {
                (solve_stdin(&["-"], &bytes), named.clone())
            } else {
                let text = String::from_utf8(bytes).unwrap();
                let mut fields = String::from("puzzle\n");
                for line in text.split('\n') {
                    let line = line.trim_end_matches('\r');
                    if line.trim().is_empty() || line.trim_start().starts_with('#') {
                        fields.push_str(line);
                    } else {
                        fields.push_str(&quoted(line));
                    }
                    fields.push('\n');
                }
                let csv = scratch.file("fields.csv", fields.as_bytes());
                let lines = format!("puzzle\n{text}");
                (solve_stdin(&["-"], lines.as_bytes()), solve(&[&csv]))
            };
            assert_eq!(code(&lines), code(&csv), "{path}");
            assert_eq!(
                without_timing(&stdout(&lines)),
                without_timing(&stdout(&csv)),
                "{path}"
            );
        }
        // Each record as its results write it, with its solution or
        // without; a 9x9 also as numbers from 1 and from 0 (`.` blanks),
        // its solution as numbers.
        let records: Vec<(&str, &str)> = named_rows
            .iter()
            .filter(|row| !row.puzzle.is_empty())
            .map(|row| (row.puzzle.as_str(), row.solution.as_str()))
            .collect();
        let mut forms: Vec<Vec<(String, Option<String>)>> = vec![
            records
                .iter()
                .map(|&(p, _)| (p.to_string(), None))
                .collect(),
            records
                .iter()
                .map(|&(p, s)| (p.to_string(), Some(s.to_string()).filter(|s| !s.is_empty())))
                .collect(),
        ];
        let nine: Vec<(&str, &str)> = records
            .iter()
            .copied()
            .filter(|(p, _)| p.len() == 81 && !p.contains(','))
            .take(300)
            .collect();
        for (shift, blank, sep) in [(0, "0", ","), (0, ".", " "), (-1, ".", ",")] {
            forms.push(
                nine.iter()
                    .map(|&(p, s)| {
                        let solution = (!s.is_empty()).then(|| numbers(s, shift, blank, sep));
                        (numbers(p, shift, blank, sep), solution)
                    })
                    .collect(),
            );
        }
        for records in forms.iter().filter(|f| !f.is_empty()) {
            let (lines, csv) = both_ways(records);
            assert_eq!(lines.0, csv.0, "{path}: {:?}", records[0]);
            assert_eq!(lines.1, csv.1, "{path}: {:?}", records[0]);
            *compared.entry(path.clone()).or_insert(0) += records.len();
        }
        assert!(named_code <= 1, "{path}: {}", stderr(&named));
    }
    assert!(compared.len() >= 20, "{compared:?}");
}
