//! The columns of the data-set tables: `generate --columns` (the layouts
//! people train on), and `--keep`/`--keep-all` in `canon` and `augment`
//! (input columns carried through, as `solve` carries them).

use std::collections::HashMap;
use std::process::Output;

use crate::common::{bin, code, stderr};
use sudoku_core::grid::Grid;
use sudoku_core::solver::{FastSolver, Limits, Mode, Solver};

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// The header and rows of a CSV output, each row keyed by column name.
fn table(text: &[u8]) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let mut reader = csv::Reader::from_reader(text);
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(String::from)
        .collect();
    let rows = reader
        .records()
        .map(|r| {
            let r = r.expect("a CSV row");
            assert_eq!(r.len(), header.len(), "{r:?}");
            header
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect();
    (header, rows)
}

#[test]
fn generate_writes_the_layout_columns_asks_for_with_the_same_puzzles() {
    let plain = run(&["generate", "-n", "4", "--seed", "5", "--quiet"]);
    assert_eq!(code(&plain), 0, "{}", stderr(&plain));
    let (_, plain) = table(&plain.stdout);
    let extreme = run(&[
        "generate",
        "-n",
        "4",
        "--seed",
        "5",
        "--quiet",
        "--columns",
        "sudoku-extreme",
    ]);
    assert_eq!(code(&extreme), 0, "{}", stderr(&extreme));
    let (header, rows) = table(&extreme.stdout);
    assert_eq!(header, ["source", "question", "answer", "rating"]);
    assert_eq!(rows.len(), 4);
    for (row, plain) in rows.iter().zip(&plain) {
        assert_eq!(row["question"], plain["puzzle"]);
        assert_eq!(row["answer"], plain["solution"]);
        assert_eq!(
            row["source"],
            format!("generate seed=5 index={}", plain["index"])
        );
        assert_eq!(row["rating"], "", "no rating is made without being asked");
    }
    let two = run(&[
        "generate",
        "-n",
        "4",
        "--seed",
        "5",
        "--quiet",
        "--columns",
        "Question,Answer",
    ]);
    let (header, rows) = table(&two.stdout);
    assert_eq!(header, ["question", "answer"]);
    assert_eq!(rows[3]["question"], plain[3]["puzzle"]);
    let kaggle = run(&[
        "generate",
        "-n",
        "2",
        "--seed",
        "5",
        "--quiet",
        "--columns",
        "kaggle",
    ]);
    let (header, rows) = table(&kaggle.stdout);
    assert_eq!(header, ["quizzes", "solutions"]);
    assert_eq!(rows[1]["solutions"], plain[1]["solution"]);
    let sized = run(&[
        "generate",
        "-n",
        "2",
        "--size",
        "4",
        "--quiet",
        "--columns",
        "answer,clues,index",
    ]);
    assert_eq!(code(&sized), 0, "{}", stderr(&sized));
    let (header, rows) = table(&sized.stdout);
    assert_eq!(header, ["answer", "clues", "index"]);
    assert_eq!(rows[1]["index"], "2");
    assert_eq!(rows[0]["answer"].len(), 16);
}

#[test]
fn solve_reads_a_generated_layout_back_and_checks_its_answers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("extreme.csv");
    let path = path.to_str().unwrap();
    let made = run(&[
        "generate",
        "-n",
        "3",
        "--quiet",
        "--columns",
        "sudoku-extreme",
        "-o",
        path,
    ]);
    assert_eq!(code(&made), 0, "{}", stderr(&made));
    let solved = run(&["solve", path, "--quiet", "--keep", "source"]);
    assert_eq!(code(&solved), 0, "{}", stderr(&solved));
    let (_, rows) = table(&solved.stdout);
    assert_eq!(rows.len(), 3);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["check"], "ok", "{row:?}");
        assert_eq!(row["source"], format!("generate seed=0 index={}", i + 1));
    }
}

#[test]
fn generate_refuses_an_unknown_or_repeated_column() {
    let unknown = run(&["generate", "-n", "1", "--columns", "question,difficulty"]);
    assert_eq!(code(&unknown), 2);
    let message = stderr(&unknown);
    assert!(
        message.contains("unknown column \"difficulty\""),
        "{message}"
    );
    assert!(message.contains("sudoku-extreme"), "{message}");
    assert!(unknown.stdout.is_empty());
    let twice = run(&["generate", "-n", "1", "--columns", "answer,answer"]);
    assert_eq!(code(&twice), 2);
    assert!(stderr(&twice).contains("named twice"), "{}", stderr(&twice));
}

/// A puzzle and its solution, and the pair with digits 1 and 2 swapped
/// (an equivalent puzzle).
fn pairs() -> [(String, String); 2] {
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let grid = Grid::parse(puzzle.as_bytes()).unwrap();
    let solved = FastSolver::new().solve(&grid, Mode::Unique, &Limits::default());
    let solution = solved
        .solution
        .expect("the puzzle has one solution")
        .to_line();
    let swap = |text: &str| {
        text.chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                c => c,
            })
            .collect::<String>()
    };
    [
        (puzzle.to_string(), solution.clone()),
        (swap(puzzle), swap(&solution)),
    ]
}

/// A data set in Hugging Face's sudoku-extreme layout: rows 1 and 3 are
/// equivalent, rows 2 (80 cells) and 4 are malformed; the values are the kind a copy could
/// change (leading zeros, spaces, a comma, a quote, a formula).
fn extreme(dir: &tempfile::TempDir) -> String {
    let [(p1, s1), (p2, s2)] = pairs();
    let other = "...7..8......4..3......9..........2...6..3..8.1..4.........7.......5....3...4.2.";
    let text = format!(
        "source,question,answer,rating\n\
         \"tdoku, hardest\",{p1},{s1},007\n\
         =1+1,{other},,\" 2.5 \"\n\
         later copy,{p2},{s2},3\n\
         \"say \"\"hi\"\"\",12345,,\n"
    );
    let path = dir.path().join("extreme.csv");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn canon_keeps_the_columns_asked_for_exactly_and_dedupe_keeps_the_first_of_a_class() {
    let dir = tempfile::tempdir().unwrap();
    let input = extreme(&dir);
    let [(p1, s1), _] = pairs();
    let out = run(&["canon", &input, "--keep", "source,answer,rating", "--quiet"]);
    assert_eq!(code(&out), 1, "a malformed record: {}", stderr(&out));
    let (header, rows) = table(&out.stdout);
    assert_eq!(
        header,
        [
            "line",
            "puzzle",
            "canonical",
            "duplicate_of",
            "against",
            "message",
            "source",
            "answer",
            "rating"
        ]
    );
    let kept: Vec<[&str; 3]> = rows
        .iter()
        .map(|r| {
            [
                r["source"].as_str(),
                r["answer"].as_str(),
                r["rating"].as_str(),
            ]
        })
        .collect();
    assert_eq!(
        kept,
        [
            ["tdoku, hardest", s1.as_str(), "007"],
            ["=1+1", "", " 2.5 "],
            ["later copy", pairs()[1].1.as_str(), "3"],
            ["say \"hi\"", "", ""],
        ]
    );
    assert_eq!(rows[2]["duplicate_of"], "2");
    assert!(rows[3]["message"].contains("cells"), "{:?}", rows[3]);

    let deduped = run(&["canon", &input, "--dedupe", "--keep-all", "--quiet"]);
    let (header, rows) = table(&deduped.stdout);
    assert_eq!(
        header[6..],
        ["source", "question", "answer", "rating"],
        "every input column, after canon's"
    );
    let lines: Vec<&str> = rows.iter().map(|r| r["line"].as_str()).collect();
    assert_eq!(
        lines,
        ["2", "3", "5"],
        "the later equivalent record is dropped"
    );
    assert_eq!(
        rows[0]["source"], "tdoku, hardest",
        "the first record's values"
    );
    assert_eq!(rows[0]["question"], p1);
    assert_eq!(rows[0]["rating"], "007");
}

#[test]
fn augment_gives_every_copy_its_records_values() {
    let dir = tempfile::tempdir().unwrap();
    let input = extreme(&dir);
    let out = run(&[
        "augment", &input, "-n", "2", "--keep", "rating,1", "--quiet", "-j", "2",
    ]);
    assert_eq!(code(&out), 1, "a malformed record: {}", stderr(&out));
    let (header, rows) = table(&out.stdout);
    assert_eq!(rows[2]["status"], "malformed", "not augmented, one row");
    assert_eq!(
        header,
        [
            "line",
            "copy",
            "puzzle",
            "solution",
            "transform",
            "status",
            "message",
            "rating",
            "source"
        ]
    );
    let kept: Vec<[&str; 4]> = rows
        .iter()
        .map(|r| {
            [
                r["line"].as_str(),
                r["copy"].as_str(),
                r["rating"].as_str(),
                r["source"].as_str(),
            ]
        })
        .collect();
    assert_eq!(
        kept,
        [
            ["2", "1", "007", "tdoku, hardest"],
            ["2", "2", "007", "tdoku, hardest"],
            ["3", "", " 2.5 ", "=1+1"],
            ["4", "1", "3", "later copy"],
            ["4", "2", "3", "later copy"],
            ["5", "", "", "say \"hi\""],
        ]
    );
}

#[test]
fn a_kept_name_the_table_has_gets_input_in_front_and_inputs_join_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.csv");
    let b = dir.path().join("b.csv");
    let [(p1, s1), (p2, _)] = pairs();
    std::fs::write(&a, format!("puzzle,solution,id\n{p1},{s1},a1\n")).unwrap();
    std::fs::write(&b, format!("id,note,puzzle\nb1,x,{p2}\n")).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = run(&["augment", a, b, "-n", "1", "--keep-all", "--quiet"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let (header, rows) = table(&out.stdout);
    assert_eq!(
        header[8..],
        ["input_puzzle", "input_solution", "id", "note"],
        "{header:?}"
    );
    assert_eq!(rows[0]["input_puzzle"], p1);
    assert_eq!(rows[0]["id"], "a1");
    assert_eq!(rows[0]["note"], "");
    assert_eq!(rows[1]["input_puzzle"], p2);
    assert_eq!(rows[1]["input_solution"], "");
    assert_eq!(rows[1]["id"], "b1");
    assert_eq!(rows[1]["note"], "x");
    let canon = run(&["canon", a, b, "--keep", "ID", "--quiet"]);
    let (header, rows) = table(&canon.stdout);
    assert_eq!(header.first().map(String::as_str), Some("file"));
    assert_eq!(header.last().map(String::as_str), Some("id"));
    assert_eq!(rows[1]["id"], "b1");
    assert_eq!(rows[1]["duplicate_of"], format!("{a}:2"));
}

#[test]
fn a_kept_column_the_input_lacks_is_refused_before_any_row() {
    let dir = tempfile::tempdir().unwrap();
    let input = extreme(&dir);
    for command in ["canon", "augment"] {
        let mut args = vec![command, input.as_str(), "--keep", "source,difficulty"];
        if command == "augment" {
            args.extend(["-n", "1"]);
        }
        let out = run(&args);
        assert_eq!(code(&out), 2, "{command}");
        let message = stderr(&out);
        assert!(
            message.contains("no column named 'difficulty'"),
            "{message}"
        );
        assert!(out.stdout.is_empty(), "{command}");
        let both = run(&[command, input.as_str(), "--keep", "source", "--keep-all"]);
        assert_eq!(code(&both), 2, "{command}: --keep and --keep-all conflict");
    }
}
