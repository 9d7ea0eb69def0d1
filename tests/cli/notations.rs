//! A notation the solver takes is taken by every other reader and command
//! (trial 55): a solutions file reads a 9x9 solution in every notation a
//! solution column takes (81 characters, 81 numbers; numbered from 0 for
//! a puzzle numbered from 0), and `canon` and `augment` take a 9x9
//! numbered from 0 (`-1` blanks) as any 9x9, writing it back in its
//! numbering; a `--box` they cannot honour is refused, not ignored.

use std::collections::HashMap;

use crate::common::*;

/// tests/cases/10-wrong-length.txt line 3, and its solution.
const P: &str = ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";
const S: &str = "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

/// The cells of `grid` (`.` blank) as numbers separated by `sep`, from 1
/// (`0` blank), or from 0 (`-1` blank).
fn numbers(grid: &str, sep: &str, from_zero: bool) -> String {
    let shift = i32::from(from_zero);
    let cells: Vec<String> = grid
        .bytes()
        .map(|b| match b {
            b'.' => (-shift).to_string(),
            _ => (i32::from(b - b'0') - shift).to_string(),
        })
        .collect();
    cells.join(sep)
}

/// `S` with its last cell `1` written `2`: a wrong solution.
fn wrong() -> String {
    format!("{}2", &S[..80])
}

/// The `check` and `message` of each row of `solve ARGS`, with its exit code.
fn checks(args: &[&str], expected_code: i32) -> Vec<(String, String)> {
    let output = solve(args);
    assert_eq!(code(&output), expected_code, "{}", stderr(&output));
    rows(&stdout(&output))
        .into_iter()
        .map(|r| (r.check, r.message))
        .collect()
}

fn ok() -> (String, String) {
    ("ok".into(), String::new())
}

fn mismatch(message: &str) -> (String, String) {
    ("mismatch".into(), message.into())
}

#[test]
fn a_solutions_file_reads_a_nine_by_nine_solution_written_as_numbers() {
    let s = Scratch::new();
    for puzzle in [P.to_string(), numbers(P, ",", false)] {
        let puzzles = s.file("p.txt", format!("{puzzle}\n").repeat(4).as_bytes());
        // Commas, spaces, after an id, and the puzzle then its solution.
        let lines = [
            numbers(S, ",", false),
            numbers(S, " ", false),
            format!("id7 {}", numbers(S, ",", false)),
            format!("{P} {}", numbers(S, ",", false)),
        ];
        let file = s.file("sol.txt", format!("{}\n", lines.join("\n")).as_bytes());
        assert_eq!(checks(&[&puzzles, "--solutions", &file], 0), vec![ok(); 4]);
        // A .csv file: a solution column, quoted numbers, or numbers not
        // quoted (as numpy's savetxt writes them), with a header or none.
        let csv = format!(
            "solution\n\"{}\"\n{}\n{S}\n\"{}\"\n",
            numbers(S, ",", false),
            numbers(S, ",", false),
            numbers(S, " ", false)
        );
        let file = s.file("sol.csv", csv.as_bytes());
        assert_eq!(checks(&[&puzzles, "--solutions", &file], 0), vec![ok(); 4]);
        let bare = format!("{}\n", numbers(S, ",", false)).repeat(4);
        let file = s.file("bare.csv", bare.as_bytes());
        assert_eq!(checks(&[&puzzles, "--solutions", &file], 0), vec![ok(); 4]);
        // A wrong one is a mismatch at its cell; one that is no grid says
        // why, for the whole line (not `1 cell`).
        let lines = [
            numbers(&wrong(), ",", false),
            numbers(&S[1..], ",", false),
            numbers(&format!("{}0", &S[..80]), " ", false),
            S.to_string(),
        ];
        let file = s.file("bad.txt", format!("{}\n", lines.join("\n")).as_bytes());
        assert_eq!(
            checks(&[&puzzles, "--solutions", &file], 1),
            [
                mismatch("r9c9: given 2, solved 1 (1 cell differs)"),
                mismatch("solutions file line 2: not a grid: 80 values, expected 81 (a 9x9 grid)"),
                mismatch("solutions file line 3: not a grid: it has blanks"),
                ok(),
            ]
        );
    }
}

#[test]
fn a_solutions_file_reads_a_solution_numbered_from_zero_as_its_column_does() {
    let s = Scratch::new();
    let puzzle = numbers(P, ",", true);
    let puzzles = s.file("p.txt", format!("{puzzle}\n").repeat(3).as_bytes());
    let lines = [
        numbers(S, ",", true),
        numbers(S, " ", true),
        numbers(&wrong(), ",", true),
    ];
    let file = s.file("sol.txt", format!("{}\n", lines.join("\n")).as_bytes());
    let want = [
        ok(),
        ok(),
        mismatch("r9c9: given 1, solved 0 (1 cell differs)"),
    ];
    assert_eq!(checks(&[&puzzles, "--solutions", &file], 1), want);
    // The same as a .csv file, not quoted: the first line is no header.
    let file = s.file("sol.csv", format!("{}\n", lines.join("\n")).as_bytes());
    assert_eq!(checks(&[&puzzles, "--solutions", &file], 1), want);
    // And as the solution column of the puzzle's own CSV.
    let csv: String = lines
        .iter()
        .map(|l| format!("\"{puzzle}\",\"{l}\"\n"))
        .collect();
    let file = s.file("both.csv", format!("puzzle,solution\n{csv}").as_bytes());
    assert_eq!(checks(&[&file], 1), want);
}

#[test]
fn a_csv_of_grids_written_a_value_to_a_field_is_read_and_no_line_is_a_header() {
    let s = Scratch::new();
    let solved = |file: &str, lines: &[u64]| {
        let got = rows(&stdout(&solve(&[file])));
        let read: Vec<(u64, &str)> = got.iter().map(|r| (r.line, r.status.as_str())).collect();
        let want: Vec<(u64, &str)> = lines.iter().map(|&l| (l, "solved")).collect();
        assert_eq!(read, want, "{file}");
        got
    };
    // From 1 with 0 blanks: the 81-character puzzle, from line 1 on (the
    // first line was taken for a header, the others had no puzzle).
    let one = format!("{}\n", numbers(P, ",", false)).repeat(3);
    let got = solved(&s.file("one.csv", one.as_bytes()), &[1, 2, 3]);
    assert!(got.iter().all(|r| r.puzzle == P && r.solution == S));
    // From 0 with -1 blanks: written from 0, as a quoted field is.
    let zero = format!("{}\n", numbers(P, ",", true)).repeat(2);
    let got = solved(&s.file("zero.csv", zero.as_bytes()), &[1, 2]);
    assert!(got[0].puzzle.starts_with(".,0,5,3,"), "{}", got[0].puzzle);
    // A table of one column per cell, under its header.
    let names: Vec<String> = (1..=81)
        .map(|i| format!("r{}c{}", (i - 1) / 9 + 1, (i - 1) % 9 + 1))
        .collect();
    let wide = format!("{}\n{}", names.join(","), one);
    solved(&s.file("wide.csv", wide.as_bytes()), &[2, 3, 4]);
    // pandas' header of an array's columns, numbered 0 to 80: a header
    // (it was read as a grid, `malformed`, exit 1), numbers above 9 being
    // no 9x9 cells.
    let numbered: Vec<String> = (0..81).map(|i| i.to_string()).collect();
    let pandas = format!("{}\n{}", numbered.join(","), one);
    solved(&s.file("pandas.csv", pandas.as_bytes()), &[2, 3, 4]);
    // A 4x4, as every size: the row of the same values quoted.
    let four = "3,1,0,2,2,0,0,0,0,2,1,0,0,3,2,0";
    let got = solved(&s.file("four.csv", format!("{four}\n").as_bytes()), &[1]);
    let quoted = s.file("quoted.csv", format!("puzzle\n\"{four}\"\n").as_bytes());
    let want = rows(&stdout(&solve(&[&quoted])));
    assert_eq!(
        (&got[0].puzzle, &got[0].solution),
        (&want[0].puzzle, &want[0].solution)
    );
}

/// Runs a data-set command and returns its exit code and its rows.
fn table(args: &[&str]) -> (i32, Vec<HashMap<String, String>>, String) {
    let output = bin().args(args).arg("--quiet").output().unwrap();
    let (_, rows) = csv_table(&stdout(&output));
    (code(&output), rows, stderr(&output))
}

#[test]
fn canon_and_augment_take_a_nine_by_nine_numbered_from_zero_and_write_it_so() {
    let s = Scratch::new();
    let from_zero = numbers(P, ",", true);
    let zero = s.file("zero.txt", format!("{from_zero}\n").as_bytes());
    let one = s.file("one.txt", format!("{P}\n").as_bytes());
    // `solve` writes the puzzle of such a record from 0, `.` blanks.
    let written = rows(&stdout(&solve(&[&zero])))[0].puzzle.clone();
    assert!(written.starts_with(".,0,5,3,"), "{written}");

    // canon: the same form as the puzzle numbered from 1 (a form is the
    // same under any relabelling), the puzzle as `solve` writes it.
    let (code_zero, zero_rows, why) = table(&["canon", &zero]);
    assert_eq!(code_zero, 0, "{why}");
    let (_, one_rows, _) = table(&["canon", &one]);
    assert_eq!(zero_rows[0]["puzzle"], written);
    assert_eq!(zero_rows[0]["canonical"], one_rows[0]["canonical"]);
    // So the two notations of one puzzle are duplicates, and a leak.
    let (code_both, both, why) = table(&["canon", &one, &zero]);
    assert_eq!(code_both, 0, "{why}");
    assert!(both[1]["duplicate_of"].ends_with("one.txt:1"), "{both:?}");
    let (code_leak, leak, _) = table(&["canon", &zero, "--against", &one]);
    assert_eq!(code_leak, 1);
    assert!(leak[0]["against"].ends_with("one.txt:1"), "{leak:?}");
    // From stdin (read once, not looked through before the run) too.
    let output = bin()
        .args(["canon", "-", "--quiet"])
        .write_stdin(format!("{from_zero}\n"))
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(csv_table(&stdout(&output)).1, zero_rows);
    // A JSON Lines list numbered from 0 too.
    let list = format!("{{\"puzzle\":[{from_zero}]}}\n");
    let jsonl = s.file("zero.jsonl", list.as_bytes());
    let (code_list, list_rows, why) = table(&["canon", &jsonl]);
    assert_eq!(code_list, 0, "{why}");
    assert_eq!(list_rows[0]["canonical"], one_rows[0]["canonical"]);

    // augment: each copy is the copy of the puzzle numbered from 1, written
    // from 0; the given solution (numbered from 0) is used.
    let given = s.file(
        "given.csv",
        format!(
            "puzzle,solution\n\"{from_zero}\",\"{}\"\n",
            numbers(S, ",", true)
        )
        .as_bytes(),
    );
    let (code_zero, zero_rows, why) = table(&["augment", &given, "-n", "3", "--keep-original"]);
    assert_eq!(code_zero, 0, "{why}");
    // Copies depend on the line: the puzzle from 1 on the same line.
    let one_csv = s.file("one.csv", format!("puzzle\n{P}\n").as_bytes());
    let (_, one_rows, _) = table(&["augment", &one_csv, "-n", "3", "--keep-original"]);
    assert_eq!(zero_rows.len(), 4);
    for (zero, one) in zero_rows.iter().zip(&one_rows) {
        assert_eq!(zero["status"], "solved");
        assert_eq!(zero["message"], "", "the given solution fits");
        assert_eq!(zero["transform"], one["transform"]);
        assert_eq!(
            zero["puzzle"],
            numbers(&one["puzzle"], ",", true).replace("-1", ".")
        );
        assert_eq!(zero["solution"], numbers(&one["solution"], ",", true));
    }
    assert_eq!(zero_rows[0]["puzzle"], written);
}

#[test]
fn canon_and_augment_refuse_a_box_they_cannot_honour() {
    let s = Scratch::new();
    let one = s.file("one.txt", format!("{P}\n").as_bytes());
    for (command, extra) in [("canon", &[][..]), ("augment", &["-n", "1"][..])] {
        for shape in ["1x9", "9x1"] {
            let output = bin()
                .arg(command)
                .arg(&one)
                .args(extra)
                .args(["--box", shape, "--quiet"])
                .output()
                .unwrap();
            assert_eq!(code(&output), 2, "{command} --box {shape}");
            assert_eq!(
                stderr(&output),
                format!(
                    "sudoku-batch: error: --box {shape}: {command} takes 9x9 grids with 3x3 \
                     boxes only (`solve` and `generate` take any boxes)\n"
                )
            );
            assert!(stdout(&output).is_empty(), "no table is begun");
        }
        // 3x3 boxes are what they take.
        let output = bin()
            .arg(command)
            .arg(&one)
            .args(extra)
            .args(["--box", "3x3", "--quiet"])
            .output()
            .unwrap();
        assert_eq!(code(&output), 0, "{command}: {}", stderr(&output));
    }
}

/// `P` with its `5` givens left out: unique still, with 8 distinct givens.
const NO_FIVE: &str =
    "..43..2.9.....9..1.7..6..43..6..2.8719...74......83...6.....1....3..869..4291.3..";
/// Its solution.
const NO_FIVE_SOLVED: &str =
    "864371259325849761971265843436192587198657432257483916689734125713528694542916378";

/// `grid` (`.` blank) numbered from 0 with `5` as `0` (1-4 kept, 6-9 one
/// less): written so, a puzzle without `5` has no `0` given.
fn five_as_zero(grid: &str) -> String {
    let cells: Vec<String> = grid
        .bytes()
        .map(|b| match b {
            b'.' => "-1".to_string(),
            b'5' => "0".to_string(),
            b'1'..=b'4' => char::from(b).to_string(),
            _ => (b - b'1').to_string(),
        })
        .collect();
    cells.join(",")
}

/// The puzzle, status, solution and check of each row of results `text`,
/// after the line.
fn results(text: &str) -> Vec<(String, String, String, String)> {
    csv_table(text)
        .1
        .into_iter()
        .map(|r| {
            let field = |name: &str| r[name].clone();
            (
                field("puzzle"),
                field("status"),
                field("solution"),
                field("check"),
            )
        })
        .collect()
}

#[test]
fn results_numbered_from_zero_read_back_as_they_were_written() {
    let s = Scratch::new();
    // Puzzles numbered from 0 with and without a `0` given (a 9x9 and a
    // 4x4: its givens 3, 1 and 2, so from 0 the same), with solutions,
    // and one from 1.
    let four = "3,1,-1,2,2,-1,-1,-1,-1,2,1,-1,-1,3,2,-1";
    let four_solved = "3,1,0,2,2,0,3,1,0,2,1,3,1,3,2,0";
    let input = format!(
        "puzzle,solution\n\"{}\",\"{}\"\n\"{}\",\"{}\"\n\"{four}\",\"{four_solved}\"\n{P},{S}\n",
        five_as_zero(NO_FIVE),
        five_as_zero(NO_FIVE_SOLVED),
        numbers(P, ",", true),
        numbers(S, ",", true),
    );
    let input = s.file("zero.csv", input.as_bytes());
    let first = s.path("first.csv");
    let output = solve(&[&input, "-o", &first]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let written = read_output(&first);
    let first_rows = results(&written);
    assert!(
        first_rows.iter().all(|r| r.1 == "solved" && r.3 == "ok"),
        "{first_rows:?}"
    );
    // No `0` given: `-1` blanks, the one sign of the numbering (`.`
    // blanks read back from 1, and the solution, from 0, had blanks).
    assert_eq!(first_rows[0].0, five_as_zero(NO_FIVE));
    assert_eq!(first_rows[2].0, four);
    // A `0` given: `.` blanks, as before; from 1: 81 characters.
    assert!(first_rows[1].0.starts_with(".,0,5,3,"), "{first_rows:?}");
    assert_eq!(first_rows[3].0, P);

    // The results as the next run's input: the same rows, every check ok.
    let second = s.path("second.csv");
    let output = solve(&[&first, "-o", &second]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let second_rows = results(&read_output(&second));
    let checked: Vec<_> = first_rows
        .iter()
        .map(|r| (r.0.clone(), r.1.clone(), r.2.clone(), "ok".to_string()))
        .collect();
    assert_eq!(second_rows, checked);

    // augment's copies of a puzzle of 8 distinct givens numbered from 0:
    // about one in 9 has no `0` given. Each reads back, its solution ok.
    let given = s.file(
        "given.csv",
        format!(
            "puzzle,solution\n\"{}\",\"{}\"\n",
            numbers(NO_FIVE, ",", true),
            numbers(NO_FIVE_SOLVED, ",", true)
        )
        .as_bytes(),
    );
    let copies = s.path("copies.csv");
    let output = bin()
        .args(["augment", &given, "-n", "40", "-o", &copies, "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let (_, copy_rows) = csv_table(&read_output(&copies));
    let zero_less = copy_rows
        .iter()
        .filter(|r| !r["puzzle"].split(',').any(|v| v == "0"))
        .count();
    assert!(zero_less > 0, "a copy with no 0 given");
    let output = solve(&[&copies]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let read_back = results(&stdout(&output));
    assert_eq!(read_back.len(), 40);
    for (copy, row) in copy_rows.iter().zip(&read_back) {
        assert_eq!(
            (&row.0, &row.2, row.3.as_str()),
            (&copy["puzzle"], &copy["solution"], "ok")
        );
    }
}
