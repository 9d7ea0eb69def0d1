//! The data-set subcommands run as a user runs them: `generate`, `canon`
//! and `augment` on the shipped corpora, checked with the library's own
//! solver, minlex and transform parser.

use std::collections::{HashMap, HashSet};
use std::process::Output;

use crate::common::{bin, code, repo, stderr};
use sudoku_core::grid::{Cell, Grid};
use sudoku_core::minlex::minlex;
use sudoku_core::solver::{FastSolver, Limits, Mode, Solver, Status};
use sudoku_core::transform::Transform;

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// The CSV rows of an output as header-keyed maps.
fn table(output: &Output) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(&output.stdout[..]);
    let header = reader.headers().expect("a header").clone();
    reader
        .records()
        .map(|r| {
            let r = r.expect("a CSV row");
            header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn header(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

fn grid(text: &str) -> Grid {
    Grid::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn status(grid: &Grid) -> Status {
    FastSolver::new()
        .solve(grid, Mode::Unique, &Limits::default())
        .status
}

/// The first `n` puzzles of the shipped 17-clue slice, as a temporary file.
fn seventeen(dir: &tempfile::TempDir, n: usize) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(repo("data/17_clue_10000.txt")).unwrap();
    let puzzles: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .map(String::from)
        .collect();
    let path = dir.path().join(format!("first{n}.txt"));
    std::fs::write(&path, puzzles.join("\n") + "\n").unwrap();
    (path.to_string_lossy().into_owned(), puzzles)
}

#[test]
fn generated_puzzles_are_unique_minimal_and_have_the_documented_columns() {
    let out = run(&["generate", "-n", "12", "--seed", "11", "--quiet"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(header(&out), "index,puzzle,solution,clues,guesses");
    let rows = table(&out);
    assert_eq!(rows.len(), 12);
    let mut solver = FastSolver::new();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["index"], (i + 1).to_string());
        let puzzle = grid(&row["puzzle"]);
        let outcome = solver.solve(&puzzle, Mode::Unique, &Limits::default());
        assert_eq!(outcome.status, Status::Solved, "{}", row["puzzle"]);
        assert_eq!(outcome.solution, Some(grid(&row["solution"])));
        assert_eq!(row["guesses"], outcome.guesses.to_string());
        assert_eq!(row["clues"], puzzle.givens().to_string());
        for c in 0..81 {
            let cell = Cell(c);
            if puzzle.get(cell) != 0 {
                let mut fewer = puzzle;
                fewer.set(cell, 0);
                assert_eq!(status(&fewer), Status::Multiple, "{} {cell}", row["puzzle"]);
            }
        }
    }
}

#[test]
fn generate_is_the_same_for_every_thread_count_and_start_continues_a_run() {
    let one = run(&["generate", "-n", "40", "--seed", "3", "-j", "1", "--quiet"]);
    let two = run(&["generate", "-n", "40", "--seed", "3", "-j", "2", "--quiet"]);
    assert_eq!(code(&one), 0, "{}", stderr(&one));
    assert_eq!(one.stdout, two.stdout);
    let first = run(&["generate", "-n", "25", "--seed", "3", "--quiet"]);
    let rest = run(&[
        "generate", "-n", "15", "--seed", "3", "--start", "26", "--quiet",
    ]);
    let joined: Vec<u8> = first
        .stdout
        .iter()
        .chain(rest.stdout.splitn(2, |&b| b == b'\n').nth(1).unwrap())
        .copied()
        .collect();
    assert_eq!(joined, one.stdout);
    let other_seed = run(&["generate", "-n", "40", "--seed", "4", "--quiet"]);
    assert_ne!(other_seed.stdout, one.stdout);
}

#[test]
fn rating_bands_keep_only_puzzles_rated_in_them_with_a_rating_column() {
    let out = run(&["generate", "-n", "4", "--seed", "2", "--rating", "2.0-3.6"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(header(&out), "index,puzzle,solution,clues,guesses,rating");
    let rows = table(&out);
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let rating = sudoku_core::rate::rate(&grid(&row["puzzle"]));
        assert!(
            rating.complete && (20..=36).contains(&rating.tenths),
            "{row:?}"
        );
        assert_eq!(row["rating"], rating.to_decimal(), "{row:?}");
    }
    assert!(stderr(&out).contains("  ratings "), "{}", stderr(&out));
    let two = run(&[
        "generate", "-n", "4", "--seed", "2", "--rating", "2.0-3.6", "-j", "2", "--quiet",
    ]);
    assert_eq!(two.stdout, out.stdout);
    for bad in ["9.5-8.0", "8", "x-9"] {
        let out = run(&["generate", "-n", "1", "--rating", bad]);
        assert_eq!(code(&out), 2, "{bad}: {}", stderr(&out));
        assert!(stderr(&out).contains("--rating"), "{bad}: {}", stderr(&out));
    }
    let extreme = run(&[
        "generate",
        "-n",
        "2",
        "--seed",
        "2",
        "--rating",
        "2.0-3.6",
        "--columns",
        "sudoku-extreme",
        "--quiet",
    ]);
    assert_eq!(header(&extreme), "source,question,answer,rating");
    let firsts: Vec<_> = rows.iter().take(2).map(|r| r["rating"].clone()).collect();
    let theirs: Vec<_> = table(&extreme)
        .iter()
        .map(|r| r["rating"].clone())
        .collect();
    assert_eq!(theirs, firsts);
    let sized = run(&["generate", "-n", "1", "--size", "4", "--rating", "1-2"]);
    assert_eq!(code(&sized), 2);
    assert!(
        stderr(&sized).contains("9x9 puzzles only"),
        "{}",
        stderr(&sized)
    );
}

#[test]
fn min_guesses_and_no_minimal_and_the_summary() {
    let out = run(&["generate", "-n", "5", "--min-guesses", "2", "--seed", "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for row in table(&out) {
        assert!(row["guesses"].parse::<u64>().unwrap() >= 2, "{row:?}");
    }
    let summary = stderr(&out);
    assert!(summary.contains("generate: 5 puzzles"), "{summary}");
    assert!(summary.contains("candidates tried"), "{summary}");
    let loose = run(&["generate", "-n", "5", "--no-minimal", "--quiet"]);
    for row in table(&loose) {
        assert_eq!(status(&grid(&row["puzzle"])), Status::Solved);
    }
}

#[test]
fn canon_gives_a_puzzle_and_its_augmented_copies_one_form() {
    let dir = tempfile::tempdir().unwrap();
    let (path, puzzles) = seventeen(&dir, 3);
    let copies = run(&["augment", &path, "-n", "100", "--seed", "9", "--quiet"]);
    assert_eq!(code(&copies), 0, "{}", stderr(&copies));
    let augmented = dir.path().join("augmented.csv");
    std::fs::write(&augmented, &copies.stdout).unwrap();
    let out = run(&["canon", augmented.to_str().unwrap(), "--quiet"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let rows = table(&out);
    assert_eq!(rows.len(), 300);
    for (k, original) in puzzles.iter().enumerate() {
        let form = minlex(&grid(original)).unwrap();
        let form: String = form.cells().iter().map(|v| (b'0' + v) as char).collect();
        for row in &rows[k * 100..k * 100 + 100] {
            assert_eq!(row["canonical"], form, "{}", row["puzzle"]);
        }
        // Each class's first copy is new; the other 99 point back to it.
        let first_line = rows[k * 100]["line"].clone();
        assert_eq!(rows[k * 100]["duplicate_of"], "");
        for row in &rows[k * 100 + 1..k * 100 + 100] {
            assert_eq!(row["duplicate_of"], first_line);
        }
    }
}

#[test]
fn canon_tells_the_first_thousand_17_clue_puzzles_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = seventeen(&dir, 1000);
    let out = run(&["canon", &path, "-j", "2"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        header(&out),
        "line,puzzle,canonical,duplicate_of,against,message"
    );
    let rows = table(&out);
    assert_eq!(rows.len(), 1000);
    let forms: HashSet<&str> = rows.iter().map(|r| r["canonical"].as_str()).collect();
    assert_eq!(forms.len(), 1000);
    assert!(rows.iter().all(|r| r["duplicate_of"].is_empty()));
    let summary = stderr(&out);
    assert!(
        summary.contains("1,000 records") && summary.contains("1,000 distinct classes"),
        "{summary}"
    );
}

#[test]
fn canon_finds_planted_duplicates_and_against_leaks() {
    let dir = tempfile::tempdir().unwrap();
    let (_, puzzles) = seventeen(&dir, 6);
    let shuffled = |p: &str, t: &str| t.parse::<Transform>().unwrap().apply(&grid(p)).to_string();
    let t1 = "transpose rows 312456789 cols 123789456 digits 987654321";
    let t2 = "rows 789456123 cols 213546879 digits 234567891";
    // Lines: 1 A, 2 B, 3 C, 4 A', 5 D, 6 B', 7 A''.
    let test = [
        puzzles[0].clone(),
        puzzles[1].clone(),
        puzzles[2].clone(),
        shuffled(&puzzles[0], t1),
        puzzles[3].clone(),
        shuffled(&puzzles[1], t2),
        shuffled(&puzzles[0], t2),
    ];
    let test_path = dir.path().join("test.txt");
    std::fs::write(&test_path, test.join("\n") + "\n").unwrap();
    // The training set holds C (transformed, at line 2) and E.
    let train = [puzzles[4].clone(), shuffled(&puzzles[2], t1)];
    let train_path = dir.path().join("train.txt");
    std::fs::write(&train_path, train.join("\n") + "\n").unwrap();
    let (test_path, train_path) = (
        test_path.to_str().unwrap().to_string(),
        train_path.to_str().unwrap().to_string(),
    );

    let out = run(&["canon", &test_path, "--against", &train_path]);
    assert_eq!(code(&out), 1, "a leak fails the run: {}", stderr(&out));
    let rows = table(&out);
    let dups: Vec<&str> = rows.iter().map(|r| r["duplicate_of"].as_str()).collect();
    assert_eq!(dups, ["", "", "", "1", "", "2", "1"]);
    let leaks: Vec<&str> = rows.iter().map(|r| r["against"].as_str()).collect();
    let leak = format!("{train_path}:2");
    assert_eq!(leaks, ["", "", leak.as_str(), "", "", "", ""]);
    let summary = stderr(&out);
    assert!(
        summary.contains("7 records, 4 distinct classes, 3 duplicates, 1 leak,"),
        "{summary}"
    );

    let deduped = run(&["canon", &test_path, "--dedupe", "--quiet"]);
    assert_eq!(code(&deduped), 0, "{}", stderr(&deduped));
    let lines: Vec<String> = table(&deduped).iter().map(|r| r["line"].clone()).collect();
    assert_eq!(lines, ["1", "2", "3", "5"]);

    // Two inputs: a `file` column, and positions as file:line.
    let both = run(&["canon", &train_path, &test_path, "--quiet"]);
    assert_eq!(
        header(&both),
        "file,line,puzzle,canonical,duplicate_of,against,message"
    );
    let rows = table(&both);
    assert_eq!(rows[4]["duplicate_of"], format!("{train_path}:2"));
}

#[test]
fn canon_reports_malformed_and_invalid_records_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let (_, puzzles) = seventeen(&dir, 1);
    let mut invalid = puzzles[0].clone().into_bytes();
    let first = invalid.iter().position(|&b| b != b'.').unwrap();
    let digit = invalid[first];
    let other = (first / 9 * 9..first / 9 * 9 + 9)
        .find(|&i| i != first && invalid[i] == b'.')
        .unwrap();
    invalid[other] = digit;
    let text = format!(
        "{}\n{}\n{}x\n",
        puzzles[0],
        String::from_utf8(invalid).unwrap(),
        &puzzles[0][..80]
    );
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, text).unwrap();
    let out = run(&["canon", path.to_str().unwrap(), "--quiet"]);
    assert_eq!(code(&out), 1);
    let rows = table(&out);
    assert_eq!(rows.len(), 3);
    assert!(rows[1]["canonical"].is_empty());
    assert!(rows[1]["message"].contains("twice in row"), "{:?}", rows[1]);
    assert!(rows[2]["canonical"].is_empty() && rows[2]["puzzle"].is_empty());
    assert!(!rows[2]["message"].is_empty());
}

#[test]
fn augmented_copies_are_valid_equivalent_rebuildable_and_stable() {
    let input = repo("data/kaggle1m_10000.csv");
    let dir = tempfile::tempdir().unwrap();
    let head: String = std::fs::read_to_string(&input)
        .unwrap()
        .lines()
        .take(21)
        .map(|l| format!("{l}\n"))
        .collect();
    let path = dir.path().join("head.csv");
    std::fs::write(&path, head).unwrap();
    let path = path.to_str().unwrap();
    let args = [
        "augment",
        path,
        "-n",
        "5",
        "--seed",
        "2",
        "--keep-original",
        "--quiet",
    ];
    let one = bin().args(args).args(["-j", "1"]).output().unwrap();
    let two = bin().args(args).args(["-j", "2"]).output().unwrap();
    assert_eq!(code(&one), 0, "{}", stderr(&one));
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(
        header(&one),
        "line,copy,puzzle,solution,transform,status,message"
    );
    let rows = table(&one);
    assert_eq!(rows.len(), 20 * 6);
    let mut originals = HashMap::new();
    for row in &rows {
        let (puzzle, solution) = (grid(&row["puzzle"]), grid(&row["solution"]));
        assert_eq!(row["status"], "solved");
        assert!(solution.is_solution_of(&puzzle), "{row:?}");
        if row["copy"] == "0" {
            assert_eq!(row["transform"], Transform::IDENTITY.to_string());
            originals.insert(row["line"].clone(), (puzzle, solution));
            continue;
        }
        let (original, original_solution) = originals[&row["line"]];
        let transform: Transform = row["transform"].parse().unwrap();
        assert_eq!(transform.apply(&original), puzzle);
        assert_eq!(transform.apply(&original_solution), solution);
        assert_eq!(minlex(&puzzle), minlex(&original));
        assert_eq!(status(&puzzle), Status::Solved);
    }
    let other = run(&["augment", path, "-n", "5", "--seed", "3", "--quiet"]);
    assert_ne!(table(&other)[0]["puzzle"], rows[1]["puzzle"]);
}

#[test]
fn augment_gives_one_row_to_a_record_it_cannot_augment() {
    let dir = tempfile::tempdir().unwrap();
    let (_, puzzles) = seventeen(&dir, 1);
    let mut multiple = puzzles[0].clone().into_bytes();
    let given = multiple.iter().position(|&b| b != b'.').unwrap();
    multiple[given] = b'.';
    let text = format!(
        "{}\n{}\nnot a puzzle at all, but long enough to be read as one\n",
        puzzles[0],
        String::from_utf8(multiple).unwrap()
    );
    let path = dir.path().join("mixed.txt");
    std::fs::write(&path, text).unwrap();
    let out = run(&["augment", path.to_str().unwrap(), "-n", "2"]);
    assert_eq!(code(&out), 1, "a malformed record: {}", stderr(&out));
    let rows = table(&out);
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str()).collect();
    assert_eq!(statuses, ["solved", "solved", "multiple", "malformed"]);
    assert!(rows[2]["copy"].is_empty() && !rows[2]["message"].is_empty());
    assert!(stderr(&out).contains("1 multiple"), "{}", stderr(&out));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["generate", "-n", "1", "-j", "0"][..],
        &["generate"],
        &["augment", "x.txt"],
        &["canon", "/no/such/file.txt"],
        &["canon", "-", "--against", "-"],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn tables_are_csv_and_a_name_saying_another_format_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["g.parquet", "g.jsonl", "g.xlsx"] {
        let path = dir.path().join(name);
        let out = run(&["generate", "-n", "3", "-o", path.to_str().unwrap()]);
        assert_eq!(code(&out), 2, "{name}: {}", stderr(&out));
        assert!(stderr(&out).contains("write CSV"), "{}", stderr(&out));
        assert!(!path.exists(), "{name} was created");
    }
}
