//! A 9x9 numbered from 0 (`3,-1,-1,7,...`, as 0-based data sets write it)
//! is solved by the 9x9 solver the run chose, as the same puzzle written
//! in the digits 1-9: the same status, guesses and cells, with every value
//! written back from 0 (the solution, `invalid`'s conflict, `multiple`'s
//! evidence, a mismatch), in `solve`, `solve --rate`, `check` and `bench`.
//! It was solved by the solver of other sizes: other guess counts and
//! evidence, and a tenth of the pace on the forum's hardest puzzles.

use crate::common::*;

/// The first `n` puzzles of data/forum_hardest_2000.txt.
fn forum(n: usize) -> Vec<String> {
    std::fs::read_to_string(repo("data/forum_hardest_2000.txt"))
        .unwrap()
        .lines()
        .take(n)
        .map(str::to_string)
        .collect()
}

/// An 81-character grid (`.` blank) numbered from 0 with `-1` blanks, as
/// 0-based data sets write it.
fn from_zero(grid: &str) -> String {
    numbers(grid, "-1")
}

/// An 81-character grid (`.` blank) as `solve` writes a 9x9 numbered from
/// 0: numbers from 0, `.` blanks; empty stays empty.
fn written_from_zero(grid: &str) -> String {
    numbers(grid, ".")
}

/// The cells of `grid` as numbers from 0 separated by commas, `blank` for
/// its blanks.
fn numbers(grid: &str, blank: &str) -> String {
    let cells: Vec<String> = grid
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => (b - b'1').to_string(),
            _ => blank.to_string(),
        })
        .collect();
    cells.join(",")
}

/// The rows of `solve FILE ARGS` and its exit code.
fn solved(file: &str, args: &[&str]) -> (Vec<Row>, i32) {
    let output = solve(&[&[file][..], args].concat());
    (rows(&stdout(&output)), code(&output))
}

/// Asserts that `zero`, the rows of puzzles numbered from 0, are `digits`,
/// the rows of the same puzzles in digits, written from 0: the same
/// status, guesses and check, the puzzle and solution written from 0, and
/// the message `message` makes of the digits' one.
fn assert_written_from_zero(zero: &[Row], digits: &[Row], message: impl Fn(&str) -> String) {
    assert_eq!(zero.len(), digits.len());
    for (z, d) in zero.iter().zip(digits) {
        let at = format!("line {}", d.line);
        assert_eq!(
            (z.line, &z.status, &z.guesses, &z.check),
            (d.line, &d.status, &d.guesses, &d.check),
            "{at}"
        );
        assert_eq!(z.puzzle, written_from_zero(&d.puzzle), "{at}");
        assert_eq!(z.solution, written_from_zero(&d.solution), "{at}");
        assert_eq!(z.message, message(&d.message), "{at}");
    }
}

#[test]
fn a_nine_by_nine_numbered_from_zero_is_solved_as_in_digits_by_either_solver() {
    let s = Scratch::new();
    let puzzles = forum(12);
    let digits = s.file("digits.txt", format!("{}\n", puzzles.join("\n")).as_bytes());
    let zero: Vec<String> = puzzles.iter().map(|p| from_zero(p)).collect();
    let zero = s.file("zero.txt", format!("{}\n", zero.join("\n")).as_bytes());
    for solver in ["fast", "naive"] {
        for mode in [&[][..], &["--first"]] {
            let args = [&["--solver", solver][..], mode].concat();
            let (want, code_digits) = solved(&digits, &args);
            let (got, code_zero) = solved(&zero, &args);
            assert_eq!((code_zero, code_digits), (0, 0));
            assert!(want.iter().all(|r| r.status == "solved"));
            assert_written_from_zero(&got, &want, str::to_string);
        }
    }
    // As lists of integers in JSON Lines, read the same way.
    let lists: String = puzzles
        .iter()
        .map(|p| format!("{{\"puzzle\": [{}]}}\n", from_zero(p)))
        .collect();
    let lists = s.file("zero.jsonl", lists.as_bytes());
    let (want, _) = solved(&digits, &[]);
    assert_written_from_zero(&solved(&lists, &[]).0, &want, str::to_string);

    // Their solutions numbered from 0 check them, the one wrong cell named
    // from 0; `check` agrees with the rows written.
    let mut solutions: Vec<String> = want.iter().map(|r| from_zero(&r.solution)).collect();
    let last = want[0].solution.as_bytes()[80];
    let wrong = if last == b'9' {
        '1'
    } else {
        char::from(last + 1)
    };
    solutions[0] = from_zero(&format!("{}{wrong}", &want[0].solution[..80]));
    let file = s.file(
        "solutions.txt",
        format!("{}\n", solutions.join("\n")).as_bytes(),
    );
    let (checked, code_checked) = solved(&zero, &["--solutions", &file]);
    assert_eq!(code_checked, 1);
    let named = |digit: u8| (digit - b'1').to_string();
    assert_eq!(
        (checked[0].check.as_str(), checked[0].message.as_str()),
        (
            "mismatch",
            format!(
                "r9c9: given {}, solved {} (1 cell differs)",
                named(wrong as u8),
                named(last)
            )
            .as_str()
        )
    );
    assert!(checked[1..].iter().all(|r| r.check == "ok"));
    let baseline = s.path("baseline.csv");
    assert_eq!(code(&solve(&[&zero, "-o", &baseline])), 0);
    let output = bin()
        .args(["check", &zero, "--baseline", &baseline, "-o", "/dev/null"])
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
}

/// tests/cases/10-wrong-length.txt line 3, with one solution.
const P: &str = ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";

#[test]
fn invalid_and_multiple_name_their_values_from_zero() {
    let s = Scratch::new();
    // `1` twice in row 1; its first row left blank: two solutions.
    let puzzles = [
        format!("1{}", &P[1..]),
        format!("{}{}", ".".repeat(9), &P[9..]),
    ];
    let digits = s.file("digits.txt", format!("{}\n", puzzles.join("\n")).as_bytes());
    let zero: Vec<String> = puzzles.iter().map(|p| from_zero(p)).collect();
    let zero = s.file("zero.txt", format!("{}\n", zero.join("\n")).as_bytes());
    let (want, _) = solved(&digits, &[]);
    let messages: Vec<&str> = want.iter().map(|r| r.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "1 twice in row 1: r1c1, r1c2",
            "r1c2 is 3 in one solution and 8 in another"
        ]
    );
    let (got, code_zero) = solved(&zero, &[]);
    assert_eq!(code_zero, 1);
    let from_zero_message = |message: &str| {
        message
            .replace("1 twice", "0 twice")
            .replace("is 3 in one solution and 8", "is 2 in one solution and 7")
    };
    assert_written_from_zero(&got, &want, from_zero_message);
    // The rating's check of one solution under --first names them so too.
    let rated = |file: &str| csv_table(&stdout(&solve(&[file, "--rate", "--first"]))).1;
    let (want, got) = (rated(&digits), rated(&zero));
    let several = &want[1]["message"];
    assert!(several.starts_with("r1c2 is 3 in one solution and 8 in another: several"));
    for (z, d) in got.iter().zip(&want) {
        assert_eq!((&z["status"], &z["guesses"]), (&d["status"], &d["guesses"]));
        assert_eq!(z["message"], from_zero_message(&d["message"]));
    }
}

#[test]
fn other_boxes_than_three_by_three_keep_the_solver_of_other_shapes() {
    let s = Scratch::new();
    let puzzles = forum(4);
    let digits = s.file("digits.txt", format!("{}\n", puzzles.join("\n")).as_bytes());
    let zero: Vec<String> = puzzles.iter().map(|p| from_zero(p)).collect();
    let zero = s.file("zero.txt", format!("{}\n", zero.join("\n")).as_bytes());
    // Rows for boxes (1x9 makes them rows, so these puzzles have several
    // solutions), solved by the solver of every shape in either numbering.
    let (want, _) = solved(&digits, &["--box", "1x9", "--first"]);
    let (got, _) = solved(&zero, &["--box", "1x9", "--first"]);
    assert_written_from_zero(&got, &want, str::to_string);
    let (three, _) = solved(&zero, &[]);
    assert_ne!(
        got.iter().map(|r| &r.solution).collect::<Vec<_>>(),
        three.iter().map(|r| &r.solution).collect::<Vec<_>>()
    );
    // 3x3 named is the usual boxes.
    assert_eq!(solved(&zero, &["--box", "3x3"]).0.len(), three.len());
    for (named, usual) in solved(&zero, &["--box", "3x3"]).0.iter().zip(&three) {
        assert_eq!(
            (&named.solution, &named.guesses),
            (&usual.solution, &usual.guesses)
        );
    }
}

#[test]
fn bench_times_a_nine_by_nine_numbered_from_zero_on_the_nine_by_nine_solver() {
    let s = Scratch::new();
    let puzzles = forum(8);
    let digits = s.file("digits.txt", format!("{}\n", puzzles.join("\n")).as_bytes());
    let zero: Vec<String> = puzzles.iter().map(|p| from_zero(p)).collect();
    let mixed = format!("{}\n{}\n", puzzles.join("\n"), zero.join("\n"));
    let mixed = s.file("mixed.txt", mixed.as_bytes());
    let zero = s.file("zero.txt", format!("{}\n", zero.join("\n")).as_bytes());
    let json = s.path("bench.json");
    let output = bin()
        .args([
            "bench", &digits, &zero, &mixed, "--solver", "fast", "-j", "1",
        ])
        .args(["--time-s", "0.05", "--warmup-s", "0.05", "--runs", "1"])
        .args(["--export-json", &json, "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&read_output(&json)).unwrap();
    let found: Vec<(String, String, u64, f64)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let dataset = row["dataset"].as_str().unwrap();
            let name = dataset.rsplit('/').next().unwrap().to_string();
            let size = row["size"].as_str().unwrap().to_string();
            let puzzles = row["puzzles"].as_u64().unwrap();
            (
                name,
                size,
                puzzles,
                row["guesses_per_puzzle"].as_f64().unwrap(),
            )
        })
        .collect();
    // One 9x9 row a file (the mixed file's two numberings were two 9x9
    // rows), each at solve's guesses.
    let (want, _) = solved(&digits, &[]);
    let guesses: u64 = want.iter().map(|r| r.guesses.parse::<u64>().unwrap()).sum();
    let mean = guesses as f64 / want.len() as f64;
    let nine = |name: &str, puzzles: u64| (name.to_string(), "9x9".to_string(), puzzles, mean);
    assert_eq!(
        found,
        [
            nine("digits.txt", 8),
            nine("zero.txt", 8),
            nine("mixed.txt", 16)
        ]
    );
}
