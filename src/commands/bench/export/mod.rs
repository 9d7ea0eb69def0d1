//! Exporting `bench` rows, as hyperfine does: one file per format behind
//! the small [`Exporter`] trait, all reading the same [`BenchRow`]s.
//!
//! `--export-csv`, `--export-json`, `--export-markdown` and `--export-html`
//! each name a file
//! (rewritten after every row, so a failure late in a run keeps what was
//! measured) or `-` for stdout (written once, at the end). The aligned
//! `table` goes to stdout, or to stderr when an export takes stdout.

mod csv;
mod html;
mod json;
mod markdown;
mod table;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::measure::SolveTimes;
use super::row::BenchRow;
use crate::error::Error;
use crate::process::file_guard::FileGuard;

pub use self::csv::CsvExporter;
pub use self::html::HtmlExporter;
pub use self::json::JsonExporter;
pub use self::markdown::MarkdownExporter;
pub use self::table::TableExporter;

/// A format the rows can be written in.
pub trait Exporter {
    /// The rows, in order, as this format's bytes.
    ///
    /// # Errors
    /// Only I/O errors of the underlying writer (none for plain data).
    fn serialize(&self, rows: &[BenchRow]) -> io::Result<Vec<u8>>;

    /// The whole report in this format; most formats show only the rows.
    ///
    /// # Errors
    /// As for [`Exporter::serialize`].
    fn serialize_report(&self, report: &Report<'_>) -> io::Result<Vec<u8>> {
        self.serialize(report.rows)
    }
}

/// What a run has measured so far: the rows, and (for the HTML page) the
/// solve-time distributions.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    /// The rows, in order.
    pub rows: &'a [BenchRow],
    /// Solve times per data set and built-in solver (only measured for
    /// `--export-html`).
    pub solve_times: &'a [SolveTimes],
}

/// The export formats, one per `--export-*` flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// `--export-csv`.
    Csv,
    /// `--export-json`.
    Json,
    /// `--export-markdown`.
    Markdown,
    /// `--export-html`.
    Html,
}

impl ExportFormat {
    /// The exporter for this format.
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            ExportFormat::Csv => Box::new(CsvExporter),
            ExportFormat::Json => Box::new(JsonExporter),
            ExportFormat::Markdown => Box::new(MarkdownExporter),
            ExportFormat::Html => Box::new(HtmlExporter),
        }
    }

    /// The flag that asks for this format.
    pub fn flag(self) -> &'static str {
        match self {
            ExportFormat::Csv => "--export-csv",
            ExportFormat::Json => "--export-json",
            ExportFormat::Markdown => "--export-markdown",
            ExportFormat::Html => "--export-html",
        }
    }
}

/// Where one export goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output, written once when the run ends.
    Stdout,
    /// A file, rewritten after every row.
    File(PathBuf),
}

/// The exports a run asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exports {
    targets: Vec<(ExportFormat, Target)>,
}

impl Exports {
    /// The exports named by `flags` (a format and its flag's value, if
    /// given). Two that are one file, or both stdout, are refused by the
    /// [`FileGuard`] they are [registered](Exports::register) with.
    pub fn new(flags: &[(ExportFormat, Option<&Path>)]) -> Exports {
        let targets = flags
            .iter()
            .filter_map(|&(format, path)| {
                let path = path?;
                let target = if path.as_os_str() == "-" {
                    Target::Stdout
                } else {
                    Target::File(path.to_path_buf())
                };
                Some((format, target))
            })
            .collect();
        Exports { targets }
    }

    /// Registers every export with `guard`, under its flag, so that no
    /// export overwrites an input.
    pub fn register(&self, guard: &mut FileGuard) {
        for (format, target) in &self.targets {
            match target {
                Target::Stdout => guard.writes(format.flag(), "-"),
                Target::File(path) => guard.writes(format.flag(), path),
            };
        }
    }

    /// True when an export writes to stdout (the table then goes to
    /// stderr).
    pub fn uses_stdout(&self) -> bool {
        self.targets.iter().any(|(_, t)| *t == Target::Stdout)
    }

    /// True when the HTML page is asked for (it needs the solve times
    /// measured).
    pub fn wants(&self, format: ExportFormat) -> bool {
        self.targets.iter().any(|(f, _)| *f == format)
    }

    /// Rewrites every file export with `report`; a file that cannot be
    /// written whole (a full disk) is removed rather than left cut short.
    ///
    /// # Errors
    /// [`Error::Write`] when a file cannot be written.
    pub fn write_files(&self, report: &Report<'_>) -> Result<(), Error> {
        for (format, target) in &self.targets {
            if let Target::File(path) = target {
                let bytes = format
                    .exporter()
                    .serialize_report(report)
                    .and_then(|bytes| crate::output::replace::write_whole(path, &bytes))
                    .map_err(|e| Error::write("benchmark results", path.clone(), e));
                bytes?;
            }
        }
        Ok(())
    }

    /// Writes the stdout export, if any, with `report`.
    ///
    /// # Errors
    /// [`Error::Write`], or [`Error::BrokenPipe`] when stdout is closed.
    pub fn write_stdout(&self, report: &Report<'_>) -> Result<(), Error> {
        for (format, target) in &self.targets {
            if *target == Target::Stdout {
                let bytes = format
                    .exporter()
                    .serialize_report(report)
                    .map_err(|e| Error::write("benchmark results", "-", e))?;
                write_stdout(&bytes)?;
            }
        }
        Ok(())
    }
}

/// Writes bytes to stdout and flushes.
fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| Error::write("benchmark results", "-", e))
}

/// Prints the aligned table of `rows`, then `notes`, on stdout (on stderr
/// when `to_stderr`, because an export took stdout). The notes go to
/// stderr in any case.
///
/// # Errors
/// [`Error::Write`], or [`Error::BrokenPipe`] when stdout is closed.
pub fn write_table(rows: &[BenchRow], notes: &[String], to_stderr: bool) -> Result<(), Error> {
    let table = TableExporter
        .serialize(rows)
        .map_err(|e| Error::write("benchmark table", "-", e))?;
    if to_stderr {
        // Nothing to do about a failing stderr.
        let _ = io::stderr().write_all(&table);
    } else {
        write_stdout(&table)?;
    }
    for note in notes {
        crate::stderrln!("note: {note}");
    }
    Ok(())
}

/// A number with `,` between groups of three digits, rounded to an integer.
pub(crate) fn grouped(x: f64) -> String {
    let digits = format!("{:.0}", x.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if x < 0.0 && digits != "0" {
        out.push('-');
    }
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Puzzles/s as the table, Markdown and the progress lines show it: whole
/// numbers grouped by thousands from 100 up, one decimal below.
pub(crate) fn rate(x: f64) -> String {
    if x >= 100.0 {
        grouped(x)
    } else {
        format!("{x:.1}")
    }
}

/// The cells of one row as the table and Markdown show them, under
/// [`DISPLAY_FIELDS`]: the fields but `cpu`, `cores`, `simd` and `version`
/// (the same on every row: see [`machine_line`]) and the spread's details, numbers
/// rounded for reading.
pub(crate) fn display_cells(row: &BenchRow) -> [String; DISPLAY_FIELDS.len()] {
    let micros = |x: f64| {
        if x >= 1000.0 {
            grouped(x)
        } else {
            format!("{x:.2}")
        }
    };
    let or_dash = |x: Option<String>| x.unwrap_or_else(|| "-".to_string());
    [
        row.dataset.clone(),
        row.size.clone(),
        if row.flagged() {
            format!("{} {FLAG}", row.solver)
        } else {
            row.solver.clone()
        },
        row.mode.clone(),
        row.threads.to_string(),
        grouped(row.puzzles as f64),
        rate(row.puzzles_per_s),
        spread_cell(row),
        or_dash(row.us_per_puzzle.map(micros)),
        or_dash(row.no_guess_pct.map(|x| format!("{x:.1}"))),
        or_dash(row.guesses_per_puzzle.map(|x| format!("{x:.2}"))),
        or_dash(row.speedup.map(|x| format!("{x:.2}"))),
        format!("{:.1}", row.finished_pct),
        or_dash(row.wrong.map(|x| grouped(x as f64))),
        or_dash(row.missing.map(|x| grouped(x as f64))),
    ]
}

/// The mark after the name of a solver that gave wrong answers or left
/// puzzles without one.
pub(crate) const FLAG: &str = "(!)";

/// The line under a table with a flagged row, saying what the mark means;
/// empty when no row is flagged.
pub(crate) fn flag_line(rows: &[BenchRow]) -> String {
    let given_up = rows.iter().any(BenchRow::given_up);
    if rows.iter().any(|r| r.flagged() && !r.given_up()) {
        format!(
            "{FLAG} wrong answers or puzzles left unanswered (columns wrong, missing; notes on \
             stderr){}: that solver's speed is not a fair figure",
            if given_up {
                ", or given up at the solver's limit (finished_pct)"
            } else {
                ""
            }
        )
    } else if given_up {
        format!(
            "{FLAG} puzzles given up at the solver's limit (finished_pct below 100), counted in \
             its puzzles/s: that solver's speed is not a fair figure"
        )
    } else {
        String::new()
    }
}

/// The `spread` cell: the runs' standard deviation as a share of the
/// median, `±2.1%`; `-` for a single run.
fn spread_cell(row: &BenchRow) -> String {
    if row.runs < 2 || row.puzzles_per_s <= 0.0 {
        "-".to_string()
    } else {
        format!(
            "±{:.1}%",
            row.puzzles_per_s_stddev / row.puzzles_per_s * 100.0
        )
    }
}

/// The header of [`display_cells`]: the row's fields but `cpu`, `cores`,
/// `simd` and `version` (the same on every row, in [`machine_line`]), `startup_s`
/// (on the progress line) and the spread's details, which `spread` sums up
/// as the standard deviation over the median.
pub(crate) const DISPLAY_FIELDS: [&str; 15] = [
    "dataset",
    "size",
    "solver",
    "mode",
    "threads",
    "puzzles",
    "puzzles_per_s",
    "spread",
    "us_per_puzzle",
    "no_guess_pct",
    "guesses_per_puzzle",
    "speedup",
    "finished_pct",
    "wrong",
    "missing",
];

/// Columns of [`display_cells`] holding text (left-aligned); the others
/// are numbers (right-aligned).
pub(crate) const TEXT_COLUMNS: usize = 4;

/// The line under a table naming what is the same on every row: `cpu: X,
/// N cores, SIMD avx2; sudoku-batch V`. Empty without rows.
pub(crate) fn machine_line(rows: &[BenchRow]) -> String {
    rows.first().map_or_else(String::new, |row| {
        format!(
            "cpu: {}, {}, SIMD {}; sudoku-batch {}",
            row.cpu,
            crate::process::words::count(row.cores as u64, "core", "cores"),
            row.simd,
            row.version
        )
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Two rows as a run of one data set at 1 and 2 threads gives them.
    pub(crate) fn rows() -> Vec<BenchRow> {
        let one = BenchRow {
            dataset: "data/top95.txt".into(),
            size: "9x9".into(),
            solver: "fast".into(),
            mode: "unique".into(),
            threads: 1,
            puzzles: 95,
            puzzles_per_s: 123_456.7,
            us_per_puzzle: Some(1e6 / 123_456.7),
            no_guess_pct: Some(12.5),
            guesses_per_puzzle: Some(9.125),
            speedup: Some(1.0),
            finished_pct: 100.0,
            cpu: "Test CPU".into(),
            cores: 2,
            simd: "avx2".into(),
            version: "0.1.0".into(),
            runs: 3,
            puzzles_per_s_min: 120_000.0,
            puzzles_per_s_max: 125_000.0,
            puzzles_per_s_stddev: 2_469.134,
            wrong: None,
            missing: None,
            startup_s: None,
        };
        let two = BenchRow {
            threads: 2,
            puzzles_per_s: 40.0,
            us_per_puzzle: Some(25_000.0),
            speedup: None,
            runs: 1,
            puzzles_per_s_min: 40.0,
            puzzles_per_s_max: 40.0,
            puzzles_per_s_stddev: 0.0,
            solver: "naive".into(),
            ..one.clone()
        };
        vec![one, two]
    }

    /// An external solver's row with wrong answers.
    pub(crate) fn external_row() -> BenchRow {
        BenchRow {
            solver: "py".into(),
            mode: String::new(),
            no_guess_pct: None,
            guesses_per_puzzle: None,
            wrong: Some(3),
            missing: Some(0),
            startup_s: Some(0.02),
            ..rows()[0].clone()
        }
    }

    #[test]
    fn rates_are_rounded_alike_everywhere() {
        assert_eq!(rate(2.84), "2.8");
        assert_eq!(rate(99.96), "100.0");
        assert_eq!(rate(218_983.4), "218,983");
    }

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(grouped(0.4), "0");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(1000.0), "1,000");
        assert_eq!(grouped(1_234_567.5), "1,234,568");
        assert_eq!(grouped(-12345.0), "-12,345");
    }

    #[test]
    fn display_cells_round_for_reading() {
        let two = rows();
        let cells = display_cells(&two[0]);
        assert_eq!(cells[6], "123,457");
        assert_eq!(cells[7], "±2.0%");
        assert_eq!(cells[8], "8.10");
        assert_eq!(cells[11], "1.00");
        let cells = display_cells(&two[1]);
        assert_eq!((cells[6].as_str(), cells[8].as_str()), ("40.0", "25,000"));
        assert_eq!(cells[7], "-", "one run: no spread");
        assert_eq!(cells[11], "-");
        assert_eq!((cells[13].as_str(), cells[14].as_str()), ("-", "-"));
        let cells = display_cells(&external_row());
        assert_eq!(cells[2], "py (!)");
        assert_eq!(cells[3], "");
        assert_eq!((cells[9].as_str(), cells[10].as_str()), ("-", "-"));
        assert_eq!((cells[13].as_str(), cells[14].as_str()), ("3", "0"));
        assert!(flag_line(&[external_row()]).starts_with("(!) wrong answers"));
        assert_eq!(flag_line(&rows()), "");
        let given_up = BenchRow {
            finished_pct: 80.0,
            ..rows()[0].clone()
        };
        assert!(flag_line(std::slice::from_ref(&given_up))
            .starts_with("(!) puzzles given up at the solver's limit"));
        assert!(flag_line(&[given_up, external_row()]).contains(", or given up"));
    }

    #[test]
    fn exports_refuse_two_outputs_to_one_place() {
        let csv = Path::new("out.csv");
        let mut guard = FileGuard::new();
        Exports::new(&[(ExportFormat::Csv, Some(csv)), (ExportFormat::Json, None)])
            .register(&mut guard);
        assert!(guard.check().is_ok());
        for (a, b) in [("-", "-"), ("x", "x"), ("x", "./x")] {
            let mut guard = FileGuard::new();
            Exports::new(&[
                (ExportFormat::Csv, Some(Path::new(a))),
                (ExportFormat::Markdown, Some(Path::new(b))),
            ])
            .register(&mut guard);
            let err = guard.check().unwrap_err();
            assert!(
                err.to_string().contains("--export-csv")
                    && err.to_string().contains("--export-markdown"),
                "{err}"
            );
        }
        let stdout = Exports::new(&[(ExportFormat::Json, Some(Path::new("-")))]);
        assert!(stdout.uses_stdout());
    }
}
