//! Helpers for the integration tests: run the real binary, parse its
//! results CSV, check rows, so that each test is a few lines.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use arrow_array::{ArrayRef, RecordBatch};
use assert_cmd::Command;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use sudoku_core::grid::Grid;

/// Path of a file under the crate root (`data/...`, `tests/cases/...`).
pub fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// Path of a shared case file, e.g. `case("01-anti-backtracking.txt")`.
pub fn case(name: &str) -> String {
    repo(&format!("tests/cases/{name}"))
}

/// The binary, ready for arguments.
pub fn bin() -> Command {
    let mut cmd = Command::cargo_bin("sudoku-batch").expect("the binary is built");
    cmd.env_remove("NO_COLOR").env_remove("SUDOKU_BATCH_SIMD");
    cmd
}

/// Runs `sudoku-batch solve ARGS --quiet` and returns its output, whatever
/// the exit code.
pub fn solve(args: &[&str]) -> Output {
    bin()
        .arg("solve")
        .args(args)
        .arg("--quiet")
        .output()
        .expect("the binary runs")
}

/// `sudoku-batch SUBCOMMAND ARGS`, run from the crate root (`solve` and
/// `check` without a progress bar); its output whatever the exit code.
pub fn run_subcommand(subcommand: &str, args: &[&str]) -> Output {
    let mut cmd = bin();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).arg(subcommand);
    if matches!(subcommand, "solve" | "check") {
        cmd.args(["--progress", "never"]);
    }
    cmd.args(args).output().expect("the binary runs")
}

/// Runs `sudoku-batch ARGS` from a shell that sets `limits` first (`ulimit
/// -f 40`, as a user's shell would), so that they hold for the binary
/// alone; its output whatever the exit code.
#[cfg(unix)]
pub fn limited(limits: &str, args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{limits}; exec \"$@\""))
        .arg("sh")
        .arg(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("sh runs")
}

/// The file `name` in `dir`, as an argument.
pub fn in_dir(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).to_string_lossy().into_owned()
}

/// The temporary file beside the results file `out` that the run of
/// process `pid` writes until its first row, then renames to `out`
/// (`.NAME.results-PID.partial`).
pub fn results_partial(out: &str, pid: u32) -> String {
    let out = Path::new(out);
    let name = out.file_name().expect("a file name").to_string_lossy();
    out.with_file_name(format!(".{name}.results-{pid}.partial"))
        .to_string_lossy()
        .into_owned()
}

/// Runs `solve` with `stdin` as standard input.
pub fn solve_stdin(args: &[&str], stdin: &[u8]) -> Output {
    bin()
        .arg("solve")
        .args(args)
        .arg("--quiet")
        .write_stdin(stdin.to_vec())
        .output()
        .expect("the binary runs")
}

/// The exit code, panicking with stderr when the process was killed.
pub fn code(output: &Output) -> i32 {
    output
        .status
        .code()
        .unwrap_or_else(|| panic!("killed: {}", stderr(output)))
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("output is UTF-8")
}

/// One parsed results row.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Row {
    /// Only with several inputs.
    #[serde(default)]
    pub file: Option<String>,
    pub line: u64,
    pub puzzle: String,
    pub status: String,
    pub solution: String,
    pub guesses: String,
    pub solve_us: String,
    pub check: String,
    pub message: String,
}

/// Parses a results CSV, checking its header.
pub fn rows(csv_text: &str) -> Vec<Row> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_string)
        .collect();
    let columns = "line,puzzle,status,solution,guesses,solve_us,check,message";
    let header = header.join(",");
    assert!(
        header == columns || header == format!("file,{columns}"),
        "header {header}"
    );
    reader
        .deserialize()
        .map(|row| row.expect("a well-formed row"))
        .collect()
}

/// Runs `solve ARGS` ([`solve`]), asserts the exit code, and returns its
/// standard output (the results, unless `ARGS` name another output).
pub fn solve_stdout(args: &[&str], expected_code: i32) -> String {
    let output = solve(args);
    assert_eq!(code(&output), expected_code, "stderr: {}", stderr(&output));
    stdout(&output)
}

/// Runs `solve ARGS`, asserts the exit code, and returns the rows, each
/// checked: solved rows carry a valid solution keeping the givens, other
/// rows none; timing present exactly when the puzzle was searched.
pub fn solve_rows(args: &[&str], expected_code: i32) -> Vec<Row> {
    let rows = rows(&solve_stdout(args, expected_code));
    check_rows(&rows);
    rows
}

/// (line, status, check) of each results row.
pub fn row_checks(rows: &[Row]) -> Vec<(u64, &str, &str)> {
    rows.iter()
        .map(|r| (r.line, r.status.as_str(), r.check.as_str()))
        .collect()
}

/// The invariants every results row keeps.
pub fn check_rows(rows: &[Row]) {
    for row in rows {
        let at = format!("line {}", row.line);
        if row.status == "malformed" {
            assert!(row.puzzle.is_empty() && row.guesses.is_empty(), "{at}");
            assert!(row.solve_us.is_empty() && !row.message.is_empty(), "{at}");
            continue;
        }
        let puzzle = Grid::parse(row.puzzle.as_bytes()).expect("an 81-character puzzle");
        assert_eq!(row.puzzle.len(), 81, "{at}");
        assert!(row
            .puzzle
            .bytes()
            .all(|b| b == b'.' || (b'1'..=b'9').contains(&b)));
        row.guesses.parse::<u64>().expect("a guess count");
        let (whole, tenths) = row.solve_us.split_once('.').expect("one decimal");
        assert!(whole.parse::<u64>().is_ok() && tenths.len() == 1, "{at}");
        // A given solution that is not a grid: `mismatch` on any row, and
        // the message says why.
        let not_a_grid = row.check == "mismatch" && row.message.contains("not a grid");
        // A mismatch names the first differing cell.
        let differs = row.check == "mismatch" && row.message.contains(" differ");
        if row.status == "solved" {
            let solution = Grid::parse(row.solution.as_bytes()).expect("81 digits");
            assert!(solution.is_solution_of(&puzzle), "{at}: bad solution");
        } else {
            assert!(row.solution.is_empty(), "{at}");
            assert!(row.check.is_empty() || not_a_grid, "{at}");
        }
        let with_message = ["invalid", "timeout", "multiple"].contains(&row.status.as_str())
            || not_a_grid
            || differs;
        assert_eq!(
            !row.message.is_empty(),
            with_message,
            "{at}: {}",
            row.message
        );
    }
}

/// `(line, status)` of each row.
pub fn statuses(rows: &[Row]) -> Vec<(u64, &str)> {
    rows.iter().map(|r| (r.line, r.status.as_str())).collect()
}

/// A results CSV with the `solve_us` column emptied, for comparing runs.
pub fn without_timing(csv_text: &str) -> String {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv_text.as_bytes());
    let mut records = reader.records().map(|r| r.expect("a CSV record"));
    let header = records.next().expect("a header");
    let column = header
        .iter()
        .position(|h| h == "solve_us")
        .expect("a solve_us column");
    let mut writer = csv::Writer::from_writer(vec![]);
    writer.write_record(&header).expect("in memory");
    for record in records {
        let fields = record
            .iter()
            .enumerate()
            .map(|(i, f)| if i == column { "" } else { f });
        writer.write_record(fields).expect("in memory");
    }
    String::from_utf8(writer.into_inner().expect("in memory")).expect("UTF-8")
}

/// JSON Lines results with every `"solve_us":NUMBER` written as null, for
/// comparing runs.
pub fn without_json_timing(text: &str) -> String {
    const KEY: &str = "\"solve_us\":";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(KEY) {
        let (before, after) = rest.split_at(at + KEY.len());
        out.push_str(before);
        let end = after
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(after.len());
        out.push_str(if end == 0 { "" } else { "null" });
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// A temporary directory holding files written by a test.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// A new empty directory.
    pub fn new() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().expect("a temporary directory"),
        }
    }

    /// The path of `name` inside it, as a string.
    pub fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    /// Writes `bytes` to `name` and returns its path.
    pub fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.path(name);
        std::fs::write(&path, bytes).expect("writable temporary directory");
        path
    }

    /// Writes `columns` to `name` as Parquet of one row group, with Arrow's
    /// default settings, and returns its path.
    pub fn parquet(&self, name: &str, columns: Vec<(&str, ArrayRef)>) -> String {
        self.parquet_in_groups(name, columns, None)
    }

    /// Writes `columns` to `name` as Parquet in row groups of `group_rows`
    /// rows (Arrow's default without), Arrow's default settings otherwise,
    /// and returns its path.
    pub fn parquet_in_groups(
        &self,
        name: &str,
        columns: Vec<(&str, ArrayRef)>,
        group_rows: Option<usize>,
    ) -> String {
        let path = self.path(name);
        let batch = RecordBatch::try_from_iter(columns).expect("columns of one length");
        let file = std::fs::File::create(&path).expect("writable temporary directory");
        let props = group_rows.map(|rows| {
            WriterProperties::builder()
                .set_max_row_group_row_count(Some(rows))
                .build()
        });
        let mut writer = ArrowWriter::try_new(file, batch.schema(), props).expect("a writer");
        writer.write(&batch).expect("written");
        writer.close().expect("closed");
        path
    }

    /// Writes `bytes` gzip-compressed to `name` and returns its path.
    pub fn gzip(&self, name: &str, bytes: &[u8]) -> String {
        let mut gz = flate2::write::GzEncoder::new(vec![], flate2::Compression::fast());
        gz.write_all(bytes).expect("in memory");
        self.file(name, &gz.finish().expect("in memory"))
    }
}

/// Reads a file written by the binary, decompressing `.gz`.
pub fn read_output(path: impl Into<PathBuf>) -> String {
    let path = path.into();
    let bytes = std::fs::read(&path).expect("the output file exists");
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::MultiGzDecoder::new(&bytes[..]),
            &mut text,
        )
        .expect("valid gzip");
        text
    } else {
        String::from_utf8(bytes).expect("UTF-8")
    }
}

/// The header and rows of a CSV table, each row a map from column name to
/// field (any columns: `rate`'s, kept ones).
pub fn csv_table(text: &str) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_string)
        .collect();
    let rows = reader
        .records()
        .map(|r| {
            let r = r.expect("a CSV row");
            header
                .iter()
                .cloned()
                .zip(r.iter().map(str::to_string))
                .collect()
        })
        .collect();
    (header, rows)
}

/// The first `n` (puzzle, solution) pairs of the Kaggle sample, puzzles
/// with `0` blanks.
pub fn kaggle(n: usize) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo("data/kaggle1m_10000.csv")).expect("the sample");
    text.lines()
        .skip(1)
        .take(n)
        .map(|line| {
            let (p, s) = line.split_once(',').expect("puzzle,solution");
            (p.to_string(), s.to_string())
        })
        .collect()
}
