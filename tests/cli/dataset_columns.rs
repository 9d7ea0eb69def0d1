//! The columns of the data-set tables: `generate --columns` (the layouts
//! people train on), and `--keep`/`--keep-all` in `canon` and `augment`
//! (input columns carried through, as `solve` carries them).

use std::collections::HashMap;
use std::process::Output;

use crate::common::{bin, code, stderr};

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
