//! A `mismatch` names the first differing cell and how many differ: the
//! message `rRcC: given X, solved Y (N cells differ)`, in `solve`'s rows and
//! in `check`'s report, for 9x9 grids and other sizes (in their symbols).

use crate::common::{bin, code, stderr, Scratch};

const PUZZLE: &str =
    ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";
const SOLVED: &str =
    "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

/// `text` with the characters `a` and `b` swapped.
fn swap(text: &str, a: char, b: char) -> String {
    text.chars()
        .map(|c| match c {
            c if c == a => b,
            c if c == b => a,
            c => c,
        })
        .collect()
}

/// The `check` and `message` of each row of `solve`'s CSV.
fn checks(csv: &[u8]) -> Vec<(String, String)> {
    let mut reader = csv::Reader::from_reader(csv);
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (check, message) = (at("check"), at("message"));
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[check].to_string(), r[message].to_string())
        })
        .collect()
}

#[test]
fn solve_and_check_name_the_first_differing_cell_and_the_count() {
    let scratch = Scratch::new();
    // 3 and 1 swapped in the first row only: r1c1 and r1c2 differ.
    let two = SOLVED.replacen("316", "136", 1);
    // Digits 8 and 9 relabelled everywhere: 18 cells, first r1c7 (9 given as 8).
    let many = swap(SOLVED, '8', '9');
    let input = scratch.file(
        "m.csv",
        format!("puzzle,answer\n{PUZZLE},{two}\n{PUZZLE},{SOLVED}\n{PUZZLE},{many}\n").as_bytes(),
    );
    let out = bin().args(["solve", &input, "--quiet"]).output().unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        checks(&out.stdout),
        [
            (
                "mismatch".into(),
                "r1c1: given 1, solved 3 (2 cells differ)".into()
            ),
            ("ok".into(), String::new()),
            (
                "mismatch".into(),
                "r1c7: given 8, solved 9 (18 cells differ)".into()
            ),
        ]
    );
    let out = bin()
        .args(["check", &input, "-o", "/dev/null", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let report = stderr(&out);
    assert!(
        report.contains("m.csv:2: check mismatch: r1c1: given 1, solved 3 (2 cells differ)"),
        "{report}"
    );
    assert!(
        report.contains("m.csv:4: check mismatch: r1c7: given 8, solved 9 (18 cells differ)"),
        "{report}"
    );
    assert!(!report.contains("m.csv:3:"), "{report}");
}

#[test]
fn one_cell_and_other_sizes_in_their_own_symbols() {
    let scratch = Scratch::new();
    let made = bin()
        .args([
            "generate",
            "-n",
            "1",
            "--size",
            "16",
            "--no-minimal",
            "--quiet",
        ])
        .args(["--columns", "puzzle,solution"])
        .output()
        .unwrap();
    let text = String::from_utf8(made.stdout).unwrap();
    let row = text.lines().nth(1).unwrap();
    let (puzzle, solution) = row.split_once(',').unwrap();
    // A and G swapped: the first of the 32 cells holding either, in
    // reading order, is where the message points.
    let wrong = swap(solution, 'A', 'G');
    let first = wrong
        .chars()
        .zip(solution.chars())
        .position(|(a, b)| a != b)
        .unwrap();
    let (given, solved) = (
        wrong.as_bytes()[first] as char,
        solution.as_bytes()[first] as char,
    );
    // One cell of a 9x9 grid: the last one given as 2 instead of 1.
    let last = format!("{}2", &SOLVED[..80]);
    let input = scratch.file(
        "s.csv",
        format!("puzzle,solution\n{puzzle},{wrong}\n{PUZZLE},{last}\n").as_bytes(),
    );
    let out = bin().args(["solve", &input, "--quiet"]).output().unwrap();
    assert_eq!(
        checks(&out.stdout),
        [
            (
                "mismatch".into(),
                format!(
                    "r{}c{}: given {given}, solved {solved} (32 cells differ)",
                    first / 16 + 1,
                    first % 16 + 1
                )
            ),
            (
                "mismatch".into(),
                "r9c9: given 2, solved 1 (1 cell differs)".into()
            ),
        ]
    );
}
