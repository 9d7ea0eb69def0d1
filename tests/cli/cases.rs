//! Every case in `tests/cases/` (see `tests/cases/CASES.md`), run through
//! the real binary: statuses, line numbers, order, messages and exit codes.

use crate::common::*;
use sudoku_core::grid::{Cell, Grid};
use sudoku_core::solver::{FastSolver, Limits, Mode, Solver, Status};

#[test]
fn case_01_anti_backtracking_is_solved_fast_and_its_typo_is_multiple() {
    let rows = solve_rows(&[&case("01-anti-backtracking.txt")], 1);
    assert_eq!(statuses(&rows), [(1, "solved"), (2, "multiple")]);
    assert!(rows[0].solution.starts_with("987654321"));
    assert!(rows[1].solution.is_empty());
}

#[test]
fn case_02_duplicate_givens_are_invalid_with_the_conflict_named() {
    let rows = solve_rows(&[&case("02-duplicate-givens.txt")], 1);
    let expected: Vec<(u64, &str)> = (1..=5).map(|l| (l, "invalid")).collect();
    assert_eq!(statuses(&rows[..5]), expected);
    assert_eq!(statuses(&rows[5..]), [(6, "solved")]);
    assert_eq!(rows[0].message, "9 twice in row 1: r1c2, r1c3");
    assert!(rows[..5].iter().all(|r| r.guesses == "0"));
}

#[test]
fn case_04_unsolvable_is_not_invalid() {
    let rows = solve_rows(&[&case("04-no-solution.txt")], 1);
    assert_eq!(
        statuses(&rows),
        [
            (1, "invalid"),
            (2, "unsolvable"),
            (3, "unsolvable"),
            (4, "unsolvable"),
            (5, "unsolvable")
        ]
    );
}

#[test]
fn case_05_multiple_solutions_are_never_reported_solved() {
    let rows = solve_rows(&[&case("05-multiple-solutions.txt")], 1);
    let expected: Vec<(u64, &str)> = (1..=4).map(|l| (l, "multiple")).collect();
    assert_eq!(statuses(&rows), expected);
    // The evidence: a cell and two digits, each of which the puzzle takes.
    for row in &rows {
        let words: Vec<&str> = row.message.split(' ').collect();
        assert_eq!(
            words[1..].join(" "),
            format!(
                "is {} in one solution and {} in another",
                words[2], words[7]
            ),
            "{}",
            row.message
        );
        let cell = words[0].as_bytes();
        let at = Cell((cell[1] - b'1') * 9 + (cell[3] - b'1'));
        let puzzle = Grid::parse(row.puzzle.as_bytes()).expect("a puzzle");
        assert_eq!(puzzle.get(at), 0, "{}", row.message);
        for digit in [words[2], words[7]] {
            let mut one = puzzle;
            one.set(at, digit.parse().expect("a digit"));
            let outcome = FastSolver::new().solve(&one, Mode::First, &Limits::default());
            assert_eq!(outcome.status, Status::Solved, "{}", row.message);
        }
    }
}

#[test]
fn case_07_keeps_the_last_cell() {
    let rows = solve_rows(&[&case("07-last-cell.txt")], 1);
    assert_eq!(statuses(&rows), [(1, "solved"), (2, "multiple")]);
    assert!(rows[0].solution.ends_with('7'));
    assert!(rows[0].puzzle.ends_with('7'));
}

#[test]
fn case_08_crlf_lines_are_all_read_and_no_carriage_return_leaks() {
    let output = solve(&[&case("08-crlf.txt")]);
    assert_eq!(code(&output), 0);
    assert!(!output.stdout.contains(&b'\r'));
    let rows = rows(&stdout(&output));
    check_rows(&rows);
    let expected: Vec<(u64, &str)> = (1..=4).map(|l| (l, "solved")).collect();
    assert_eq!(statuses(&rows), expected);
}

#[test]
fn case_10_wrong_lengths_are_malformed_never_cut() {
    let rows = solve_rows(&[&case("10-wrong-length.txt")], 1);
    let got: Vec<(u64, &str, &str)> = rows
        .iter()
        .map(|r| (r.line, r.status.as_str(), r.message.as_str()))
        .collect();
    assert_eq!(
        got[..5],
        [
            (1, "malformed", "80 cells, expected 81"),
            (2, "malformed", "82 cells, expected 81"),
            (3, "solved", ""),
            (4, "malformed", "bad character 'a' at position 82"),
            (6, "malformed", "3 cells, expected 81"),
        ]
    );
    assert_eq!(statuses(&rows[5..]), [(7, "malformed"), (8, "solved")]);
}

#[test]
fn case_11_kaggle_and_radcliffe_headers_columns_and_solution_checks() {
    for name in ["11-kaggle-1m.csv", "11-radcliffe-3m.csv"] {
        let rows = solve_rows(&[&case(name)], 0);
        assert_eq!(
            statuses(&rows),
            [(2, "solved"), (3, "solved"), (4, "solved")]
        );
        assert!(rows.iter().all(|r| r.check == "ok"), "{name}");
    }
}

#[test]
fn case_13_quotes_padding_tabs_and_comments() {
    let rows = solve_rows(&[&case("13-quotes.csv")], 0);
    assert_eq!(
        statuses(&rows),
        [(2, "solved"), (3, "solved"), (4, "solved")]
    );
    let rows = solve_rows(&[&case("13-whitespace.txt")], 0);
    assert_eq!(
        statuses(&rows),
        [(2, "solved"), (3, "solved"), (5, "solved"), (6, "solved")]
    );
}

#[test]
fn case_15_order_and_bytes_do_not_depend_on_threads() {
    let input = case("15-parallel-order.txt");
    let run = |j: &str| {
        let output = solve(&[&input, "-j", j]);
        assert_eq!(code(&output), 1, "line 3 is invalid");
        without_timing(&stdout(&output))
    };
    let one = run("1");
    assert_eq!(run("2"), one);
    assert_eq!(run("8"), one);
    let puzzles: Vec<String> = std::fs::read_to_string(&input)
        .unwrap()
        .lines()
        .map(|l| l.replace('0', "."))
        .collect();
    let rows = rows(&one);
    assert_eq!(rows.len(), puzzles.len());
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row.line, k as u64 + 1);
        assert_eq!(row.puzzle, puzzles[k], "row {k}");
    }
}

#[test]
fn case_18_a_huge_line_is_malformed_and_its_neighbours_solved() {
    let rows = solve_rows(&[&case("18-huge-line.txt")], 1);
    assert_eq!(
        statuses(&rows),
        [(1, "solved"), (2, "malformed"), (3, "solved")]
    );
    assert!(
        rows[1].message.starts_with("line too long"),
        "{}",
        rows[1].message
    );
}
