//! Results round trip: rows with kept columns written by the real writer
//! (`ResultsWriter`) as CSV (plain, gzip, zstd), JSON Lines or Parquet,
//! then read back, whole and cut at an arbitrary byte.
//!
//! Invariants:
//! - CSV, whole: the results reader of `merge` and `--resume`
//!   (`RecordReader`, `Columns::find`, `parse_row`) gives every row back,
//!   equal field by field (`file`, `line`, `puzzle`, `status`, `solution`,
//!   `guesses`, `solve_us` to its written tenth of a microsecond, `check`,
//!   the cleaned `message`, every kept value's text); `resume::scan` keeps
//!   every row and the whole length; `check --baseline` matches every row
//!   with no change reported.
//! - CSV cut at any byte: `resume::scan` keeps exactly the rows complete in
//!   the cut (whole rows for plain CSV, whole gzip members for `.gz`) and
//!   their bytes parse back to the first rows, or it refuses the file; the
//!   merge reader and `check --baseline` give only rows equal to the first
//!   rows written (never one cut short: a shortened message or kept value),
//!   or refuse the file.
//! - JSON Lines and Parquet: read back as input with `--keep-all`, every
//!   column of every row holds what the CSV holds (same values, same
//!   order). JSON Lines, whole and cut at any byte: `resume::scan` keeps
//!   exactly its complete lines, and the merge reader
//!   (`RecordReader::jsonl`) and `check --baseline` read it as they read
//!   CSV, whole and cut.
//! - Parquet, written with each `--parquet-compression` (the case picks
//!   one): the merge reader (`RecordReader::parquet`) and `check
//!   --baseline` read it as they read CSV, every row field by field; cut
//!   at any byte short of its end (no footer), they refuse it or give only
//!   rows equal to the first written.
#![no_main]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sudoku_batch::commands::check::baseline::Baseline;
use sudoku_batch::commands::check::report::{Problem, Report};
use sudoku_batch::input::{open_table, Format, Keep, ReadOptions};
use sudoku_batch::kept::{KeptColumn, KeptValue};
use sudoku_batch::output::rating::RatingColumns;
use sudoku_batch::output::read_back::{parse_row, Columns, RecordReader};
use sudoku_batch::output::result::{Check, PuzzleResult};
use sudoku_batch::output::{
    clean_message, Blank, CsvRows, Destination, OutputFormat, ParquetCompression, ResultsWriter,
    Shape,
};
use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::solver::Status;

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum Output {
    Csv,
    CsvGz,
    CsvZst,
    Jsonl,
    Parquet,
}

impl Output {
    fn name(self) -> &'static str {
        match self {
            Output::Csv => "r.csv",
            Output::CsvGz => "r.csv.gz",
            Output::CsvZst => "r.csv.zst",
            Output::Jsonl => "r.jsonl",
            Output::Parquet => "r.parquet",
        }
    }

    fn format(self) -> OutputFormat {
        match self {
            Output::Csv | Output::CsvGz | Output::CsvZst => OutputFormat::Csv,
            Output::Jsonl => OutputFormat::Jsonl,
            Output::Parquet => OutputFormat::Parquet,
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind {
    Solved,
    Multiple,
    Unsolvable,
    Invalid,
    Malformed,
    Timeout,
}

#[derive(Arbitrary, Debug)]
struct Row {
    /// The next input (when several).
    next_input: bool,
    /// Lines from the last row of the same input.
    step: u16,
    kind: Kind,
    cells: [u8; CELLS],
    guesses: u64,
    solve_ns: u64,
    check: Option<bool>,
    message: Option<String>,
    kept: Vec<Option<String>>,
    /// Ends a chunk written at once (a gzip member of a `.gz` file).
    flush: bool,
}

#[derive(Arbitrary, Debug)]
struct Case {
    output: Output,
    /// Input names, when the run has several (two or more).
    files: Vec<String>,
    /// Kept columns' names.
    kept: Vec<String>,
    zero_blank: bool,
    rows: Vec<Row>,
    /// Where to cut the file, as a fraction of its length (of 65535).
    cut: u16,
    /// How Parquet is compressed: [`ParquetCompression::ALL`]'s, modulo.
    parquet: u8,
}

/// Names for the kept columns: the fuzz input's, or names that clash with
/// the results columns.
fn kept_name(name: &str) -> String {
    match name.as_bytes().first().map(|b| b % 8) {
        Some(0) => "file".into(),
        Some(1) => "line".into(),
        Some(2) => "puzzle".into(),
        Some(3) => "input_line".into(),
        _ => name.chars().take(20).collect(),
    }
}

fn results(case: &Case, inputs: usize) -> (Vec<PuzzleResult>, Vec<usize>) {
    let mut results = Vec::new();
    let mut chunk_ends = Vec::new();
    let (mut input, mut line) = (0usize, 0u64);
    for row in &case.rows {
        if row.next_input && input + 1 < inputs {
            input += 1;
            line = 0;
        }
        line += 1 + u64::from(row.step);
        let mut cells = [0u8; CELLS];
        for (c, &b) in cells.iter_mut().zip(&row.cells) {
            *c = b % 10;
        }
        let grid = Grid::from_cells(cells).expect("digits");
        let (status, malformed) = match row.kind {
            Kind::Solved => (Status::Solved, false),
            Kind::Multiple => (Status::Multiple, false),
            Kind::Unsolvable => (Status::Unsolvable, false),
            Kind::Invalid => (Status::Invalid, false),
            Kind::Malformed => (Status::Malformed, true),
            Kind::Timeout => (Status::Timeout, false),
        };
        let solved = status == Status::Solved;
        results.push(PuzzleResult {
            input,
            line,
            puzzle: (!malformed).then_some(grid),
            status,
            solution: solved.then_some(grid),
            guesses: (!malformed).then_some(row.guesses % 1_000_000_000),
            // Up to about 11 days: a realistic time for one puzzle.
            solve_ns: (!malformed).then_some(row.solve_ns % 1_000_000_000_000_000),
            check: row
                .check
                .filter(|_| solved)
                .map(|ok| if ok { Check::Ok } else { Check::Mismatch }),
            message: row.message.as_ref().map(|m| m.chars().take(200).collect()),
            expected: None,
            kept: (0..case.kept.len().min(4))
                .map(|i| match row.kept.get(i) {
                    Some(Some(text)) => KeptValue::Text(text.chars().take(100).collect()),
                    _ => KeptValue::Null,
                })
                .collect(),
            // 9x9 rows only: grids of other sizes have their own writers'
            // paths, covered by the records target and the tests.
            sized: None,
            rating: None,
        });
        if row.flush {
            chunk_ends.push(results.len());
        }
    }
    chunk_ends.push(results.len());
    (results, chunk_ends)
}

fn dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("temp dir"))
        .path()
}

/// The micros a `solve_us` field holds, back in nanoseconds.
fn written_ns(ns: u64) -> u64 {
    ns.saturating_add(50) / 100 * 100
}

/// Each column's text for `result` as the CSV writes it, by column name
/// order of [`Shape::column_names`] (the `file` field without its guard).
fn texts(result: &PuzzleResult, shape: &Shape, blank: Blank) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(files) = &shape.files {
        out.push(files[result.input].clone());
    }
    let grid = |g: &Option<Grid>, b: Blank| {
        g.map(|g| String::from_utf8(b.puzzle_bytes(&g).to_vec()).expect("ASCII"))
            .unwrap_or_default()
    };
    out.push(result.line.to_string());
    out.push(grid(&result.puzzle, blank));
    out.push(result.status.name().into());
    out.push(grid(&result.solution, Blank::Dot));
    out.push(result.guesses.map(|g| g.to_string()).unwrap_or_default());
    out.push(
        result
            .solve_ns
            .map(|ns| {
                let tenths = written_ns(ns) / 100;
                format!("{}.{}", tenths / 10, tenths % 10)
            })
            .unwrap_or_default(),
    );
    out.push(
        result
            .check
            .map(|c| c.name().to_string())
            .unwrap_or_default(),
    );
    out.push(
        result
            .message
            .as_deref()
            .map(clean_message)
            .unwrap_or_default(),
    );
    out.extend(result.kept.iter().map(|k| k.text().into_owned()));
    out
}

/// The row a results CSV reader should give back for `result`.
fn read_back(result: &PuzzleResult) -> PuzzleResult {
    PuzzleResult {
        input: 0,
        solve_ns: result.solve_ns.map(written_ns),
        message: result
            .message
            .as_deref()
            .map(clean_message)
            .filter(|m| !m.is_empty()),
        kept: Vec::new(),
        ..result.clone()
    }
}

/// Reads results (CSV in any compression, JSON Lines or Parquet by name)
/// as `merge` does: the rows it gives, in order, each with its fields,
/// until its end or its first error.
fn merge_rows(
    path: &Path,
) -> (
    Vec<(PuzzleResult, Option<String>, Vec<Vec<u8>>)>,
    Option<String>,
) {
    let mut rows = Vec::new();
    let jsonl = path.extension().is_some_and(|e| e == "jsonl");
    let mut reader = if path.extension().is_some_and(|e| e == "parquet") {
        let file = std::fs::File::open(path).expect("open");
        match RecordReader::<Box<dyn std::io::BufRead + Send>>::parquet(file, None) {
            Ok(reader) => reader,
            Err(e) => return (rows, Some(e)),
        }
    } else {
        let source = match open_table(path, "results") {
            Ok((_, source)) => source,
            Err(e) => return (rows, Some(e.to_string())),
        };
        match jsonl {
            true => RecordReader::jsonl(source),
            false => RecordReader::new(source),
        }
    };
    match reader.read() {
        Ok(true) => {}
        // JSON Lines of no row: no header either.
        Ok(false) if jsonl => return (rows, None),
        Ok(false) => return (rows, Some("empty".into())),
        Err((line, e)) => return (rows, Some(format!("line {line}: {e}"))),
    }
    let columns = match Columns::find(reader.record()) {
        Ok(columns) => columns,
        Err(e) => return (rows, Some(e)),
    };
    let results = columns.results_end();
    loop {
        match reader.read() {
            Ok(true) => {}
            Ok(false) => return (rows, None),
            Err((line, e)) => return (rows, Some(format!("line {line}: {e}"))),
        }
        match parse_row(reader.record(), &columns) {
            Ok(row) => {
                let kept = reader
                    .record()
                    .iter()
                    .skip(results)
                    .map(<[u8]>::to_vec)
                    .collect();
                rows.push((row.result, row.file, kept));
            }
            Err(e) => return (rows, Some(e)),
        }
    }
}

/// Checks the merge reader's rows of `path` against the first of `results`.
fn check_merge(path: &Path, results: &[PuzzleResult], shape: &Shape, complete: bool) {
    let (rows, error) = merge_rows(path);
    if complete {
        assert_eq!(error, None, "merge reader refused a whole file");
        assert_eq!(rows.len(), results.len(), "merge reader lost rows");
    }
    assert!(rows.len() <= results.len());
    for (i, ((row, file, kept), result)) in rows.iter().zip(results).enumerate() {
        assert_eq!(row, &read_back(result), "merge reader: row {i} differs");
        let names = shape.files.as_ref();
        assert_eq!(
            file.as_deref(),
            names.map(|n| n[result.input].as_str()),
            "merge reader: row {i}'s file"
        );
        let want: Vec<Vec<u8>> = result
            .kept
            .iter()
            .map(|k| k.text().as_bytes().to_vec())
            .collect();
        assert_eq!(kept, &want, "merge reader: row {i}'s kept values");
    }
}

/// Checks `check --baseline` on `path` against `results`: every row it
/// reads matches its result unchanged; results after those it read are
/// `not in the baseline` (a cut file), and nothing else is reported.
fn check_baseline(path: &Path, results: &[PuzzleResult], names: &[String], complete: bool) {
    let mut baseline = match Baseline::open(path, names) {
        Ok(Baseline::Rows(rows)) => rows,
        Ok(Baseline::Summary(_)) => panic!("a results CSV taken for a summary"),
        Err(e) => {
            assert!(!complete, "baseline refused a whole file: {e}");
            return;
        }
    };
    let mut report = Report::new();
    for result in results {
        if let Err(e) = baseline.compare(result, &mut report) {
            assert!(!complete, "baseline failed on a whole file: {e}");
            return;
        }
    }
    if let Err(e) = baseline.finish(false, &mut report) {
        assert!(!complete, "baseline failed on a whole file: {e}");
        return;
    }
    for failure in report.shown() {
        assert!(
            failure
                .problems
                .iter()
                .all(|p| *p == Problem::NotInBaseline),
            "baseline reported a change: {failure:?}"
        );
    }
    if complete {
        assert_eq!(
            report.total(),
            0,
            "baseline of a whole file: {:?}",
            report.shown()
        );
    }
}

/// Reads JSON Lines or Parquet results back as input with `--keep-all`:
/// every column's text equals the CSV's.
/// JSON Lines results `whole` at `path`, whole and cut at `cut`:
/// `resume::scan` keeps every complete line (a row each) and their bytes.
fn check_jsonl_scan(path: &Path, whole: &[u8], cut: usize, names: &[String], header: &[String]) {
    for end in [whole.len(), cut] {
        std::fs::write(path, &whole[..end]).expect("cut");
        let complete = whole[..end]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        let rows = whole[..complete].iter().filter(|&&b| b == b'\n').count();
        let kept = sudoku_batch::job::resume::scan(
            path,
            OutputFormat::Jsonl,
            names,
            header,
            RatingColumns::None,
            b',',
        )
        .expect("resume of JSON Lines results");
        assert_eq!(
            (kept.len, kept.rows),
            (complete as u64, rows as u64),
            "resume of JSON Lines cut at {end}"
        );
    }
}

fn check_as_input(path: &Path, results: &[PuzzleResult], shape: &Shape, blank: Blank) {
    let input = sudoku_batch::input::open_path(path).expect("open");
    let options = ReadOptions {
        format: Format::Auto,
        keep: Keep::All,
        ..ReadOptions::default()
    };
    let records = input.records(&options).expect("results read as input");
    let columns: Vec<String> = records.kept_columns().into_iter().map(|c| c.name).collect();
    let records: Vec<_> = records.map(|r| r.expect("read")).collect();
    assert_eq!(records.len(), results.len(), "rows read as input");
    if results.is_empty() {
        return;
    }
    assert_eq!(columns, shape.column_names(), "columns read as input");
    let solve_us = columns
        .iter()
        .position(|c| c == "solve_us")
        .expect("solve_us");
    for (record, result) in records.iter().zip(results) {
        let want = texts(result, shape, blank);
        let got: Vec<String> = record.kept.iter().map(|k| k.text().into_owned()).collect();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            if i == solve_us && !w.is_empty() {
                let (g, w): (f64, f64) = (g.parse().expect("float"), w.parse().expect("float"));
                assert_eq!(g, w, "solve_us");
            } else {
                assert_eq!(g, w, "column {} of line {}", columns[i], result.line);
            }
        }
        for (value, text) in record.kept.iter().zip(&want) {
            if !text.is_empty() {
                assert!(!value.is_null(), "a value read back as null");
            }
        }
        assert_eq!(got.len(), want.len());
    }
}

fuzz_target!(|case: Case| {
    if case.rows.len() > 200 {
        return;
    }
    let mut files: Vec<String> = Vec::new();
    for name in &case.files {
        let name: String = name.chars().take(40).collect();
        if !name.is_empty() && !files.contains(&name) {
            files.push(name);
        }
    }
    let several = files.len() >= 2;
    let names = if several {
        files.clone()
    } else {
        vec!["in.txt".to_string()]
    };
    let blank = if case.zero_blank {
        Blank::Zero
    } else {
        Blank::Dot
    };
    let shape = Shape {
        files: several.then(|| files.clone()),
        kept: case
            .kept
            .iter()
            .take(4)
            .map(|n| KeptColumn::text(kept_name(n)))
            .collect(),
        blank,
        // Not `solve --rate`'s columns: the writer computes them from the
        // puzzle with the rater; their round trip is not covered here.
        rating: RatingColumns::None,
    };
    let (results, chunk_ends) = results(&case, names.len());
    let path: PathBuf = dir().join(case.output.name());
    let destination = Destination::from_arg(Some(&path));
    let compression = ParquetCompression::ALL[usize::from(case.parquet) % 4];
    let mut writer = ResultsWriter::create(
        &destination,
        case.output.format(),
        &shape,
        b',',
        compression,
    )
    .expect("create");
    // The file's length after each chunk: where each gzip member ends.
    let mut ends = vec![(0usize, std::fs::metadata(&path).map_or(0, |m| m.len()))];
    let mut from = 0;
    for &to in &chunk_ends {
        if to > from {
            writer.write(&results[from..to]).expect("write");
            ends.push((to, std::fs::metadata(&path).expect("written").len()));
        }
        from = to;
    }
    writer.finish().expect("finish");
    let whole = std::fs::read(&path).expect("read back");

    if case.output == Output::Jsonl {
        check_as_input(&path, &results, &shape, blank);
        let cut = whole.len() * usize::from(case.cut) / 65535;
        check_jsonl_scan(&path, &whole, cut, &names, &shape.column_names());
        std::fs::write(&path, &whole).expect("whole");
        check_merge(&path, &results, &shape, true);
        check_baseline(&path, &results, &names, true);
        std::fs::write(&path, &whole[..cut]).expect("cut");
        check_merge(&path, &results, &shape, cut == whole.len());
        check_baseline(&path, &results, &names, cut == whole.len());
        return;
    }
    if case.output == Output::Parquet {
        check_as_input(&path, &results, &shape, blank);
        check_merge(&path, &results, &shape, true);
        check_baseline(&path, &results, &names, true);
        let cut = whole.len() * usize::from(case.cut) / 65535;
        std::fs::write(&path, &whole[..cut]).expect("cut");
        check_merge(&path, &results, &shape, cut == whole.len());
        check_baseline(&path, &results, &names, cut == whole.len());
        return;
    }

    // Whole.
    check_merge(&path, &results, &shape, true);
    check_baseline(&path, &results, &names, true);
    let header = shape.column_names();
    if case.output != Output::CsvZst {
        let kept = sudoku_batch::job::resume::scan(
            &path,
            OutputFormat::Csv,
            &names,
            &header,
            RatingColumns::None,
            b',',
        )
        .expect("resume whole");
        assert_eq!(kept.rows, results.len() as u64, "resume of a whole file");
        assert_eq!(
            kept.len,
            whole.len() as u64,
            "resume of a whole file keeps all"
        );
    }

    // Cut.
    let cut = whole.len() * usize::from(case.cut) / 65535;
    if cut == whole.len() {
        return;
    }
    std::fs::write(&path, &whole[..cut]).expect("cut");
    check_merge(&path, &results, &shape, false);
    check_baseline(&path, &results, &names, false);
    if case.output == Output::CsvZst {
        return;
    }
    // Rows complete in the cut: whole lines (plain) or whole members.
    let complete_rows = match case.output {
        Output::CsvGz => ends
            .iter()
            .filter(|(_, end)| *end as usize <= cut)
            .map(|(rows, _)| *rows)
            .max()
            .unwrap_or(0),
        _ => {
            // Each row's end, from the row formatter the writer uses.
            let rows = CsvRows::new(&shape, b',');
            let mut text = Vec::new();
            rows.header(&mut text);
            let mut row_ends = Vec::new();
            for result in &results {
                rows.csv_row(result, &mut text);
                row_ends.push(text.len());
            }
            assert_eq!(text, whole, "the CSV written is its rows");
            row_ends.iter().filter(|&&end| end <= cut).count()
        }
    };
    match sudoku_batch::job::resume::scan(
        &path,
        OutputFormat::Csv,
        &names,
        &header,
        RatingColumns::None,
        b',',
    ) {
        Ok(kept) => {
            assert_eq!(
                kept.rows as usize, complete_rows,
                "resume of a file cut at {cut}"
            );
            let mut prefix = Vec::new();
            std::fs::File::open(&path)
                .expect("open")
                .take(kept.len)
                .read_to_end(&mut prefix)
                .expect("read");
            std::fs::write(&path, &prefix).expect("prefix");
            let (rows, error) = merge_rows(&path);
            if kept.rows > 0 {
                assert_eq!(error, None, "the kept part of a cut file");
            }
            assert_eq!(rows.len(), complete_rows, "rows in the kept part");
        }
        Err(e) => {
            // Refused: only a .gz member that ends inside a row may be, and
            // solve never writes one.
            panic!("resume refused a file cut at {cut}: {e}");
        }
    }
});
