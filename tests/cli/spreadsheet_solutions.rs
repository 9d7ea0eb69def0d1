//! `--solutions` files as spreadsheets and R write them: a European
//! Excel export separates its fields by `;` (`id;solution`), which made
//! every row a `mismatch` ("bad character ';'") though an input finds
//! `;` by itself, and `--delimiter ';'` was refused for it; `NA` (R) and
//! `#N/A` (a spreadsheet) where a solution is missing were `mismatch`es,
//! where the same value in a solution column means nothing to check.

use crate::common::*;

/// The puzzles of `pairs` as a text input, and the solutions.
fn input(scratch: &Scratch, pairs: &[(String, String)]) -> (String, Vec<String>) {
    let puzzles: String = pairs.iter().map(|(p, _)| format!("{p}\n")).collect();
    let solutions = pairs.iter().map(|(_, s)| s.clone()).collect();
    (scratch.file("p.txt", puzzles.as_bytes()), solutions)
}

#[test]
fn a_semicolon_separated_solutions_csv_is_read_by_its_delimiter() {
    let scratch = Scratch::new();
    let (input, s) = input(&scratch, &kaggle(3));
    let semi = scratch.file(
        "s.csv",
        format!("id;solution\n1;{}\n2;{}\n3;{}\n", s[0], s[1], s[2]).as_bytes(),
    );
    let all_ok = [
        (1, "solved", "ok"),
        (2, "solved", "ok"),
        (3, "solved", "ok"),
    ];
    let rows = solve_rows(&[&input, "--solutions", &semi], 0);
    assert_eq!(row_checks(&rows), all_ok);
    // Said: the delimiter applies to the solutions file, no input being CSV.
    let rows = solve_rows(&[&input, "--solutions", &semi, "--delimiter", ";"], 0);
    assert_eq!(row_checks(&rows), all_ok);
    // A wrong solution is still one.
    let wrong = scratch.file(
        "w.csv",
        format!("id;solution\n1;{}\n2;{}\n3;{}\n", s[0], s[0], s[2]).as_bytes(),
    );
    let rows = solve_rows(&[&input, "--solutions", &wrong], 1);
    assert_eq!(rows[1].check, "mismatch");
    // With no CSV to apply to, --delimiter is refused as before.
    let text = scratch.file(
        "s.txt",
        format!("{}\n{}\n{}\n", s[0], s[1], s[2]).as_bytes(),
    );
    let out = solve(&[&input, "--solutions", &text, "--delimiter", ";"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("--delimiter"), "{}", stderr(&out));
}

#[test]
fn placeholders_in_a_solutions_file_give_no_solution_to_check() {
    let scratch = Scratch::new();
    let (input, s) = input(&scratch, &kaggle(4));
    let want = [
        (1, "solved", "ok"),
        (2, "solved", ""),
        (3, "solved", ""),
        (4, "solved", "ok"),
    ];
    // R's write.csv: NA; a spreadsheet: #N/A.
    let csv = scratch.file(
        "s.csv",
        format!(
            "\"\",\"solution\"\n\"1\",\"{}\"\n\"2\",NA\n\"3\",#N/A\n\"4\",\"{}\"\n",
            s[0], s[3]
        )
        .as_bytes(),
    );
    let rows = solve_rows(&[&input, "--solutions", &csv], 0);
    assert_eq!(row_checks(&rows), want);
    let semi = scratch.file(
        "e.csv",
        format!("id;solution\n1;{}\n2;#N/A\n3;NA\n4;{}\n", s[0], s[3]).as_bytes(),
    );
    let rows = solve_rows(&[&input, "--solutions", &semi], 0);
    assert_eq!(row_checks(&rows), want);
    // Text lines, a placeholder on the first line too.
    let text = scratch.file(
        "s.txt",
        format!("NA\n#N/A\n{}\n{}\n", s[2], s[3]).as_bytes(),
    );
    let rows = solve_rows(&[&input, "--solutions", &text], 0);
    assert_eq!(
        row_checks(&rows),
        [
            (1, "solved", ""),
            (2, "solved", ""),
            (3, "solved", "ok"),
            (4, "solved", "ok")
        ]
    );
}
