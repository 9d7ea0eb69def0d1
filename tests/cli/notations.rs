//! A notation the solver takes is taken by every other reader and command
//! (trial 55): a solutions file reads a 9x9 solution in every notation a
//! solution column takes (81 characters, 81 numbers; numbered from 0 for
//! a puzzle numbered from 0).

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
