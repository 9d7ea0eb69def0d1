//! Grids of every size through the real binary: every file of
//! `data/sizes/` (copied whole from the shared corpora, see
//! `data/README.md`), read in its alphabet, each record with the status the
//! data calls for, and every solution checked here by a check of its own
//! (each row, column and box a permutation of the symbols, every given
//! kept), not by the library's.

use crate::common::*;

/// A results row's puzzle or solution as cell values (0 blank), read in
/// the alphabet the test names (`1-9A-Z`, `a-z`, numbers).
fn values(text: &str, alphabet: &str) -> Vec<u32> {
    if alphabet == "numbers" {
        return text
            .split(',')
            .map(|t| t.parse().expect("a number"))
            .collect();
    }
    text.chars()
        .map(|ch| match (alphabet, ch) {
            (_, '.') => 0,
            ("1-9A-Z", '1'..='9') => ch as u32 - '0' as u32,
            ("1-9A-Z", 'A'..='Z') => ch as u32 - 'A' as u32 + 10,
            ("A-Z", 'A'..='Z') => ch as u32 - 'A' as u32 + 1,
            ("a-z", 'a'..='z') => ch as u32 - 'a' as u32 + 1,
            _ => panic!("{ch:?} is no symbol of {alphabet}"),
        })
        .collect()
}

/// Asserts that `solution` is a solution grid of `puzzle` with boxes of
/// `rows` x `cols`.
fn assert_solves(puzzle: &[u32], solution: &[u32], rows: usize, cols: usize) {
    let n = rows * cols;
    assert_eq!(solution.len(), n * n);
    assert_eq!(puzzle.len(), n * n);
    for (p, s) in puzzle.iter().zip(solution) {
        assert!(*p == 0 || p == s, "a given changed");
    }
    let all: Vec<u32> = (1..=n as u32).collect();
    let sorted = |cells: Vec<u32>| {
        let mut cells = cells;
        cells.sort_unstable();
        cells
    };
    for i in 0..n {
        let row = (0..n).map(|j| solution[i * n + j]).collect();
        let col = (0..n).map(|j| solution[j * n + i]).collect();
        let (top, left) = (i / rows * rows, i % rows * cols);
        let boxed = (0..n)
            .map(|j| solution[(top + j / cols) * n + left + j % cols])
            .collect();
        assert_eq!(sorted(row), all, "row {}", i + 1);
        assert_eq!(sorted(col), all, "column {}", i + 1);
        assert_eq!(sorted(boxed), all, "box {}", i + 1);
    }
}

/// Runs `solve ARGS`, asserting the exit code, and returns the rows.
fn sized_rows(args: &[&str], expected_code: i32) -> Vec<Row> {
    let output = solve(args);
    assert_eq!(code(&output), expected_code, "stderr: {}", stderr(&output));
    rows(&stdout(&output))
}

/// Every `solved` row's solution solves its puzzle.
fn assert_solved_rows(rows: &[Row], alphabet: &str, box_rows: usize, box_cols: usize) {
    for row in rows.iter().filter(|r| r.status == "solved") {
        assert_solves(
            &values(&row.puzzle, alphabet),
            &values(&row.solution, alphabet),
            box_rows,
            box_cols,
        );
    }
}

#[test]
fn sixteen_by_sixteen_lines_in_1_9a_g_are_solved_in_their_alphabet() {
    let file = repo("data/sizes/16x16_1-9A-G_dots.txt");
    let rows = sized_rows(&[&file, "--first"], 0);
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r.status == "solved"));
    let input = std::fs::read_to_string(&file).unwrap();
    for (row, line) in rows.iter().zip(input.lines()) {
        assert_eq!(row.puzzle, line.trim_end());
    }
    assert_solved_rows(&rows, "1-9A-Z", 4, 4);
}

#[test]
fn sixteen_by_sixteen_a_p_has_several_solutions_a_repeated_given_and_notes() {
    let file = repo("data/sizes/16x16_A-P_dots.txt");
    let rows = sized_rows(&[&file], 1);
    let expected: Vec<(u64, &str)> = (1..=6)
        .map(|l| (l, "multiple"))
        .chain([(7, "invalid")])
        .chain((9..=14).map(|l| (l, "malformed")))
        .collect();
    assert_eq!(statuses(&rows), expected);
    assert!(
        rows[6].message.contains(" twice in "),
        "{}",
        rows[6].message
    );
    assert!(rows[0].message.contains("in one solution and"));
    let first = sized_rows(&[&file, "--first"], 1);
    assert!(first[..6].iter().all(|r| r.status == "solved"));
    assert_solved_rows(&first, "A-Z", 4, 4);
}

#[test]
fn four_by_four_csv_has_124_puzzles_with_several_solutions() {
    let file = repo("data/sizes/4x4_puzzle_solution_crlf.csv");
    let rows = sized_rows(&[&file], 1);
    assert_eq!(rows.len(), 500);
    let multiple = rows.iter().filter(|r| r.status == "multiple").count();
    assert_eq!(multiple, 124);
    assert_eq!(rows.iter().filter(|r| r.status == "solved").count(), 376);
    // Each solved puzzle's solution is the file's own solution column.
    assert!(rows
        .iter()
        .filter(|r| r.status == "solved")
        .all(|r| r.check == "ok"));
    assert_solved_rows(&rows, "1-9A-Z", 2, 2);
    let first = sized_rows(&[&file, "--first"], 1);
    assert!(first.iter().all(|r| r.status == "solved"));
    assert_solved_rows(&first, "1-9A-Z", 2, 2);
}

#[test]
fn comma_grids_are_read_with_format_grid_and_written_as_numbers() {
    for (name, side, b) in [
        ("4x4_comma_grid.txt", 4, 2),
        ("16x16_comma_grid.txt", 16, 4),
        ("25x25_comma_grid.txt", 25, 5),
    ] {
        let file = repo(&format!("data/sizes/{name}"));
        let rows = sized_rows(&[&file, "--format", "grid", "--first"], 0);
        assert_eq!(statuses(&rows), [(1, "solved")], "{name}");
        assert_eq!(rows[0].puzzle.split(',').count(), side * side);
        assert_solved_rows(&rows, "numbers", b, b);
    }
}

#[test]
fn alphadoku_letter_grids_are_solved_in_lower_case() {
    for (name, b) in [
        ("alphadoku_16x16_letters.csv", 4),
        ("alphadoku_25x25_letters.csv", 5),
    ] {
        let file = repo(&format!("data/sizes/{name}"));
        let rows = sized_rows(&[&file, "--format", "grid", "--first"], 0);
        assert_eq!(statuses(&rows), [(1, "solved")], "{name}");
        assert!(rows[0].puzzle.starts_with('k') || rows[0].puzzle.starts_with('x'));
        assert_solved_rows(&rows, "a-z", b, b);
    }
}

#[test]
fn auto_still_refuses_grid_files_by_name() {
    let output = solve(&[&repo("data/sizes/16x16_comma_grid.txt")]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("--format grid"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn ambiguous_alphabets_are_refused_with_the_symbols_hint() {
    // `0` among letters up to F with no other blank: a blank of 1-9A-G or
    // a symbol of hexadecimal 0-9A-F.
    let record = format!("1A0F{}\n", "0".repeat(252));
    let output = solve_stdin(&["-"], record.as_bytes());
    assert_eq!(code(&output), 1);
    let rows = rows(&stdout(&output));
    assert_eq!(rows[0].status, "malformed");
    assert!(
        rows[0].message.contains("give --symbols"),
        "{}",
        rows[0].message
    );
    let output = solve_stdin(&["-", "--symbols", "1-9A-Z"], record.as_bytes());
    let rows = rows_of(&output);
    assert_ne!(rows[0].status, "malformed", "{}", rows[0].message);
}

fn rows_of(output: &std::process::Output) -> Vec<Row> {
    rows(&stdout(output))
}

#[test]
fn a_six_by_six_puzzle_with_three_row_boxes_needs_box_3x2() {
    let file = case("sizes-6x6-box-3x2.txt");
    let rows = sized_rows(&[&file, "--box", "3x2"], 0);
    assert_eq!(statuses(&rows), [(1, "solved")]);
    assert_solved_rows(&rows, "1-9A-Z", 3, 2);
    let usual = sized_rows(&[&file], 1);
    assert_eq!(statuses(&usual), [(1, "invalid")]);
}

#[test]
fn generated_puzzles_read_back_without_symbols() {
    for (size, alphabet, b) in [("6", "1-9A-Z", (2, 3)), ("12", "1-9A-Z", (3, 4))] {
        let generated = bin()
            .args([
                "generate",
                "-n",
                "2",
                "--size",
                size,
                "--no-minimal",
                "--quiet",
            ])
            .output()
            .unwrap();
        assert_eq!(code(&generated), 0, "{}", stderr(&generated));
        let output = solve_stdin(&["-", "--format", "csv"], &generated.stdout);
        let rows = rows_of(&output);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.status == "solved" && r.check == "ok"));
        assert_solved_rows(&rows, alphabet, b.0, b.1);
    }
}

#[test]
fn canon_and_augment_refuse_other_sizes_by_name_with_exit_2() {
    let file = repo("data/sizes/16x16_1-9A-G_dots.txt");
    let scratch = Scratch::new();
    for (command, extra) in [("canon", &[][..]), ("augment", &["--copies", "2"][..])] {
        let out = scratch.path(&format!("{command}.csv"));
        let output = bin()
            .arg(command)
            .arg(&file)
            .args(extra)
            .args(["-o", &out, "--quiet"])
            .output()
            .unwrap();
        assert_eq!(code(&output), 2, "{command}: {}", stderr(&output));
        let message = stderr(&output);
        assert!(
            message.contains("16x16_1-9A-G_dots.txt:1: a 16x16 grid")
                && message.contains(&format!("{command} takes 9x9 grids only")),
            "{command}: {message}"
        );
    }
}

#[test]
fn ratings_of_other_sizes_are_empty_and_say_why() {
    let file = repo("data/sizes/4x4_comma_grid.txt");
    let output = bin()
        .args(["rate", &file, "--format", "grid", "--first", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let record = reader.records().next().unwrap().unwrap();
    let field = |name: &str| &record[header.iter().position(|h| h == name).unwrap()];
    assert_eq!(field("puzzle"), "2,1,0,0,0,3,2,0,0,0,0,4,1,0,0,0");
    assert_eq!((field("rating"), field("status")), ("", "solved"));
    assert_eq!(
        field("message"),
        "not rated: the rater is for 9x9 grids only"
    );
    // `solve --rate`: the two rating columns are there, empty.
    let output = solve(&[&file, "--format", "grid", "--first", "--rate"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    assert_eq!(
        &header.iter().collect::<Vec<_>>()[8..],
        ["rating", "hardest"]
    );
    let record = reader.records().next().unwrap().unwrap();
    assert_eq!(record.len(), header.len());
    assert_eq!((&record[2], &record[8], &record[9]), ("solved", "", ""));
}
