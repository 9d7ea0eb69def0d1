//! Grids that pandas and Polars write to CSV from an array of cells, one
//! column per cell: pandas' default `DataFrame(array).to_csv(path)` writes
//! its index as a first column under an empty name (`,0,1,...,80`, rows
//! `0,5,3,0,...`), and `Unnamed: 0` before it when a frame read back is
//! written again; such a file was a `malformed` row per grid, exit 1. Its
//! header numbering the cells reads each row as the index and one grid,
//! at every size, numbered from 1 or from 0, and the frame's other
//! columns after the cells (`...,80,rating`) as columns to keep. Without
//! that header 82 numbers are not guessed at (81 cells and a rating look
//! the same).

use crate::common::*;

/// tests/cases/10-wrong-length.txt line 3, and its solution.
const P: &str = ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";
const S: &str = "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

/// A 4x4 puzzle as numbers from 1, `0` blanks, and its solution.
const FOUR: [i64; 16] = [3, 1, 0, 2, 2, 0, 0, 0, 0, 2, 1, 0, 0, 3, 2, 0];
const FOUR_SOLVED: [i64; 16] = [3, 1, 4, 2, 2, 4, 3, 1, 4, 2, 1, 3, 1, 3, 2, 4];

/// The cells of a grid written one character a cell (`.` blank, digits,
/// then `A`... for 10 and up) as numbers from 1, `0` blank.
fn values(grid: &str) -> Vec<i64> {
    grid.bytes()
        .map(|b| match b {
            b'.' => 0,
            b'1'..=b'9' => i64::from(b - b'0'),
            _ => i64::from(b - b'A') + 10,
        })
        .collect()
}

/// `cells` numbered from 0 instead: each value less one, `-1` blanks.
fn from_zero(cells: &[i64]) -> Vec<i64> {
    cells.iter().map(|v| v - 1).collect()
}

/// A CSV as pandas' `DataFrame(rows).to_csv(path)` writes it: the index
/// columns `index` names (`[""]` by default), then the cells numbered
/// from 0; each row its number in every index column, then its cells.
fn pandas(index: &[&str], rows: &[Vec<i64>]) -> String {
    let cells = rows[0].len();
    let mut names: Vec<String> = index.iter().map(|n| n.to_string()).collect();
    names.extend((0..cells).map(|i| i.to_string()));
    let mut text = format!("{}\n", names.join(","));
    for (i, row) in rows.iter().enumerate() {
        let mut fields: Vec<String> = index.iter().map(|_| i.to_string()).collect();
        fields.extend(row.iter().map(i64::to_string));
        text.push_str(&format!("{}\n", fields.join(",")));
    }
    text
}

/// `grid` with its last cell, `1`, written `2`: a wrong solution.
fn wrong_last(grid: &str) -> String {
    format!("{}2", &grid[..80])
}

/// The rows of `solve FILE ARGS`, exit 0 asserted.
fn solved(file: &str, args: &[&str]) -> Vec<std::collections::HashMap<String, String>> {
    let output = bin()
        .arg("solve")
        .arg(file)
        .args(args)
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{file}: {}", stdout(&output));
    let (_, rows) = csv_table(&stdout(&output));
    assert!(rows.iter().all(|r| r["status"] == "solved"), "{rows:?}");
    rows
}

#[test]
fn pandas_default_csv_of_an_array_reads_its_index_and_one_grid_a_row() {
    let s = Scratch::new();
    let nine = values(P);
    let frame = pandas(&[""], &[nine.clone(), nine.clone(), nine.clone()]);
    assert!(frame.starts_with(",0,1,2,"), "{frame}");
    assert!(frame.contains("\n0,0,1,6,4,0,"), "{frame}");
    let file = s.file("frame.csv", frame.as_bytes());
    let rows = solved(&file, &[]);
    let lines: Vec<&str> = rows.iter().map(|r| r["line"].as_str()).collect();
    assert_eq!(lines, ["2", "3", "4"]);
    assert!(rows.iter().all(|r| r["puzzle"] == P && r["solution"] == S));
    // The index is a column as any other: kept by number (its name is
    // empty), and by `--keep-all`, first.
    let kept = solved(&file, &["--keep", "1"]);
    let index: Vec<&str> = kept.iter().map(|r| r[""].as_str()).collect();
    assert_eq!(index, ["0", "1", "2"]);
    let all = bin()
        .args(["solve", &file, "--keep-all", "--quiet"])
        .output()
        .unwrap();
    let (header, _) = csv_table(&stdout(&all));
    assert_eq!(header[8..11], ["", "0", "1"]);

    // A frame read back and written again: `Unnamed: 0`, a second index.
    let again = pandas(&["", "Unnamed: 0"], &[nine.clone(), nine.clone()]);
    let file = s.file("again.csv", again.as_bytes());
    let kept = solved(&file, &["--keep", "Unnamed: 0"]);
    assert_eq!(kept.len(), 2);
    assert!(kept.iter().all(|r| r["puzzle"] == P));
    assert_eq!(kept[1]["Unnamed: 0"], "1");

    // Numbered from 0, `-1` blanks: written back from 0.
    let zero = pandas(&[""], &[from_zero(&nine)]);
    let rows = solved(&s.file("zero.csv", zero.as_bytes()), &[]);
    assert!(rows[0]["puzzle"].starts_with(".,0,5,3,"), "{rows:?}");
    assert_eq!(rows[0]["solution"].split(',').count(), 81);
}

#[test]
fn pandas_default_csv_of_an_array_reads_at_every_size() {
    let s = Scratch::new();
    let sixteen_line = std::fs::read_to_string(case("sizes-16x16-minimal.txt")).unwrap();
    let sixteen = values(sixteen_line.lines().next().unwrap());
    assert_eq!(sixteen.len(), 256);
    for (name, grid) in [("four", FOUR.to_vec()), ("sixteen", sixteen)] {
        // The same grid in one quoted field: what each row must read as.
        let field: Vec<String> = grid.iter().map(i64::to_string).collect();
        let quoted = s.file(
            &format!("{name}-quoted.csv"),
            format!("puzzle\n\"{}\"\n", field.join(",")).as_bytes(),
        );
        let want = &solved(&quoted, &[])[0];
        let frame = pandas(&[""], &[grid.clone(), grid.clone()]);
        let rows = solved(&s.file(&format!("{name}.csv"), frame.as_bytes()), &[]);
        assert_eq!(rows.len(), 2, "{name}");
        for row in &rows {
            assert_eq!(
                (&row["puzzle"], &row["solution"]),
                (&want["puzzle"], &want["solution"]),
                "{name}"
            );
        }
        // Numbered from 0.
        let zero = pandas(&[""], &[from_zero(&grid)]);
        let rows = solved(&s.file(&format!("{name}-zero.csv"), zero.as_bytes()), &[]);
        let cells: Vec<i64> = rows[0]["solution"]
            .split(',')
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(cells.len(), grid.len(), "{name}");
        assert!(cells.contains(&0), "{name}: written from 0");
    }
    // The 4x4's solution is the one the puzzle has.
    let frame = pandas(&[""], &[FOUR.to_vec()]);
    let rows = solved(&s.file("four-check.csv", frame.as_bytes()), &[]);
    let solution: Vec<String> = FOUR_SOLVED.iter().map(i64::to_string).collect();
    assert_eq!(rows[0]["solution"], solution.join(","));
}

#[test]
fn a_pandas_array_without_its_header_or_with_a_bad_cell_is_not_guessed() {
    let s = Scratch::new();
    let nine = values(P);
    let frame = pandas(&[""], &[nine.clone(), nine.clone()]);
    // Without the header, 82 numbers: 81 cells and a rating, or an index
    // and 81 cells? Not guessed: `malformed`, as before.
    let body: String = frame.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let output = solve(&[&s.file("headless.csv", body.as_bytes())]);
    assert_eq!(code(&output), 1);
    let got = rows(&stdout(&output));
    assert!(
        got.iter()
            .all(|r| r.status == "malformed" && r.message == "no field looks like a puzzle"),
        "{got:?}"
    );
    // A cell no 9x9 has (10) makes its row `malformed`, naming it; the
    // next row is read.
    let mut bad = nine.clone();
    bad[3] = 10;
    let frame = pandas(&[""], &[bad, nine]);
    let output = solve(&[&s.file("bad.csv", frame.as_bytes())]);
    assert_eq!(code(&output), 1);
    let got = rows(&stdout(&output));
    assert_eq!(statuses(&got), [(2, "malformed"), (3, "solved")]);
    assert!(got[0].message.contains("number 10 at cell 4"), "{got:?}");
}

#[test]
fn other_frame_writers_and_a_solutions_file_from_pandas_are_read() {
    let s = Scratch::new();
    // pandas' `to_csv` of a frame with a `puzzle` column: `,puzzle`.
    let column = format!(",puzzle\n0,{P}\n1,{P}\n");
    let read = solved(&s.file("column.csv", column.as_bytes()), &[]);
    assert_eq!(read.len(), 2);
    assert!(read.iter().all(|r| r["puzzle"] == P));
    // Polars' `write_csv` of an array: `column_0,...,column_80`, no index.
    let names: Vec<String> = (0..81).map(|i| format!("column_{i}")).collect();
    let cells: Vec<String> = values(P).iter().map(i64::to_string).collect();
    let polars = format!("{}\n{}\n", names.join(","), cells.join(","));
    let read = solved(&s.file("polars.csv", polars.as_bytes()), &[]);
    assert_eq!(read[0]["puzzle"], P);
    // A frame of the cells with a `solution` column inserted before them
    // (`,solution,0,...,80`): the solution is checked.
    let numbered: Vec<String> = (0..81).map(|i| i.to_string()).collect();
    let with_solution = format!(
        ",solution,{}\n0,{S},{}\n1,{},{}\n",
        numbered.join(","),
        cells.join(","),
        wrong_last(S),
        cells.join(",")
    );
    let output = solve(&[&s.file("with-solution.csv", with_solution.as_bytes())]);
    assert_eq!(code(&output), 1, "a mismatch: {}", stderr(&output));
    let got = rows(&stdout(&output));
    let checked: Vec<&str> = got.iter().map(|r| r.check.as_str()).collect();
    assert_eq!(checked, ["ok", "mismatch"], "{got:?}");
    // A solutions file pandas wrote beside the puzzles: checked.
    let puzzles = s.file("p.txt", format!("{P}\n{P}\n").as_bytes());
    let mut wrong = values(S);
    wrong[80] = 2;
    let solutions = pandas(&[""], &[values(S), wrong]);
    let file = s.file("solutions.csv", solutions.as_bytes());
    let output = solve(&[&puzzles, "--solutions", &file]);
    assert_eq!(code(&output), 1, "a mismatch: {}", stderr(&output));
    let got = rows(&stdout(&output));
    assert_eq!(got[0].check, "ok", "{got:?}");
    assert_eq!(got[1].check, "mismatch", "{got:?}");
    assert!(
        got[1].message.starts_with("r9c9: given 2, solved 1"),
        "{got:?}"
    );
}

#[test]
fn a_pandas_csv_from_stdin_or_a_txt_gives_the_rows_of_the_file_named_csv() {
    let s = Scratch::new();
    let four = pandas(&[""], &[FOUR.to_vec(), FOUR.to_vec()]);
    // One numbering a frame: from 1, and from 0.
    let nine = pandas(&["", "Unnamed: 0"], &[values(P), values(P)]);
    let zero = pandas(&["", "Unnamed: 0"], &vec![from_zero(&values(P)); 2]);
    for (i, frame) in [four, nine, zero].iter().enumerate() {
        let named = bin()
            .args(["solve", &s.file(&format!("f{i}.csv"), frame.as_bytes())])
            .output()
            .unwrap();
        assert_eq!(code(&named), 0, "{}", stderr(&named));
        let rows = without_timing(&stdout(&named));
        let stdin = bin()
            .args(["solve", "-"])
            .write_stdin(frame.as_bytes())
            .output()
            .unwrap();
        assert_eq!(without_timing(&stdout(&stdin)), rows, "stdin");
        for name in [format!("f{i}.txt"), format!("f{i}")] {
            let file = s.file(&name, frame.as_bytes());
            let output = bin().args(["solve", &file]).output().unwrap();
            assert_eq!(code(&output), 0, "{name}: {}", stderr(&output));
            assert_eq!(without_timing(&stdout(&output)), rows, "{name}");
        }
    }
}

#[test]
fn a_frame_with_missing_values_reads_them_as_blanks() {
    // trial56b F2-2: pandas writes a frame's blanks (NaN, <NA>) as empty
    // fields, and every value of a float column as `4.0`; each row was
    // malformed ("35 cells: not a square grid").
    let s = Scratch::new();
    let nine = values(P);
    let plain = pandas(&[""], &[nine.clone(), nine.clone()]);
    let masked = |cell: &i64, float: bool| match (*cell, float) {
        (0, _) => String::new(),
        (v, true) => format!("{v}.0"),
        (v, false) => v.to_string(),
    };
    let mut frames = vec![];
    for float in [false, true] {
        let mut text = plain.lines().next().unwrap().to_string() + "\n";
        for i in 0..2 {
            let cells: Vec<String> = nine.iter().map(|c| masked(c, float)).collect();
            text.push_str(&format!("{i},{}\n", cells.join(",")));
        }
        frames.push(text);
    }
    let want = solved(&s.file("plain.csv", plain.as_bytes()), &[]);
    for (i, frame) in frames.iter().enumerate() {
        let rows = solved(&s.file(&format!("masked{i}.csv"), frame.as_bytes()), &[]);
        let cells = |rows: &[std::collections::HashMap<String, String>]| -> Vec<(String, String)> {
            rows.iter()
                .map(|r| (r["puzzle"].clone(), r["solution"].clone()))
                .collect()
        };
        assert_eq!(cells(&rows), cells(&want), "{frame}");
    }
}

#[test]
fn a_frame_with_columns_after_its_cells_reads_them_as_other_columns() {
    // `df = DataFrame(cells); df["rating"] = ...; df.to_csv(path)`: the
    // frame's own columns after the array's (was `no field looks like a
    // puzzle` on every row).
    let s = Scratch::new();
    let nine = values(P);
    let mut frame = String::new();
    for (i, line) in pandas(&[""], &[nine.clone(), nine.clone()])
        .lines()
        .enumerate()
    {
        let extra = if i == 0 {
            "rating,source"
        } else {
            "1.5,\"forum, 2024\""
        };
        frame.push_str(&format!("{line},{extra}\n"));
    }
    for name in ["rated.csv", "rated.txt"] {
        let file = s.file(name, frame.as_bytes());
        let rows = solved(&file, &["--keep", "rating,source"]);
        assert_eq!(rows.len(), 2, "{name}");
        assert!(rows.iter().all(|r| r["puzzle"] == P && r["solution"] == S));
        assert!(rows
            .iter()
            .all(|r| r["rating"] == "1.5" && r["source"] == "forum, 2024"));
    }
    // Without the index (`to_csv(index=False)`), at 4x4.
    let four: Vec<String> = FOUR.iter().map(i64::to_string).collect();
    let names: Vec<String> = (0..16).map(|i| i.to_string()).collect();
    let text = format!("{},id\n{},7\n", names.join(","), four.join(","));
    let rows = solved(&s.file("four.csv", text.as_bytes()), &["--keep", "id"]);
    assert_eq!(rows[0]["id"], "7");
    assert_eq!(rows[0]["solution"].split(',').count(), 16);
}
