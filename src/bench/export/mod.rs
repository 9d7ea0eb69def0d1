//! Exporting `bench` rows, as hyperfine does: one file per format behind
//! the small [`Exporter`] trait, all reading the same [`BenchRow`]s.
//!
//! `--export-csv`, `--export-json` and `--export-markdown` each name a file
//! (rewritten after every row, so a failure late in a run keeps what was
//! measured) or `-` for stdout (written once, at the end). The aligned
//! `table` goes to stdout, or to stderr when an export takes stdout.

mod csv;
mod json;
mod markdown;
mod table;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::row::{BenchRow, FIELDS};
use crate::error::Error;
use crate::file_guard::FileGuard;

pub use self::csv::CsvExporter;
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
}

impl ExportFormat {
    /// The exporter for this format.
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            ExportFormat::Csv => Box::new(CsvExporter),
            ExportFormat::Json => Box::new(JsonExporter),
            ExportFormat::Markdown => Box::new(MarkdownExporter),
        }
    }

    /// The flag that asks for this format.
    pub fn flag(self) -> &'static str {
        match self {
            ExportFormat::Csv => "--export-csv",
            ExportFormat::Json => "--export-json",
            ExportFormat::Markdown => "--export-markdown",
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
    /// given).
    ///
    /// # Errors
    /// [`Error::Usage`] when two exports name stdout or the same file.
    pub fn new(flags: &[(ExportFormat, Option<&Path>)]) -> Result<Exports, Error> {
        let mut targets: Vec<(ExportFormat, Target)> = Vec::new();
        for &(format, path) in flags {
            let Some(path) = path else { continue };
            let target = if path.as_os_str() == "-" {
                Target::Stdout
            } else {
                Target::File(path.to_path_buf())
            };
            if let Some((other, _)) = targets.iter().find(|(_, t)| *t == target) {
                return Err(Error::Usage(format!(
                    "{} and {} both write to {}",
                    other.flag(),
                    format.flag(),
                    path.display()
                )));
            }
            targets.push((format, target));
        }
        Ok(Exports { targets })
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

    /// Rewrites every file export with `rows`.
    ///
    /// # Errors
    /// [`Error::Write`] when a file cannot be written.
    pub fn write_files(&self, rows: &[BenchRow]) -> Result<(), Error> {
        for (format, target) in &self.targets {
            if let Target::File(path) = target {
                let bytes = format
                    .exporter()
                    .serialize(rows)
                    .and_then(|bytes| std::fs::write(path, bytes))
                    .map_err(|e| Error::write("benchmark results", path.clone(), e));
                bytes?;
            }
        }
        Ok(())
    }

    /// Writes the stdout export, if any, with `rows`.
    ///
    /// # Errors
    /// [`Error::Write`], or [`Error::BrokenPipe`] when stdout is closed.
    pub fn write_stdout(&self, rows: &[BenchRow]) -> Result<(), Error> {
        for (format, target) in &self.targets {
            if *target == Target::Stdout {
                let bytes = format
                    .exporter()
                    .serialize(rows)
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

/// The cells of one row as the table and Markdown show them: the fields
/// but `cpu`, `cores` and `version` (the same on every row: see
/// [`machine_line`]), numbers rounded for reading.
pub(crate) fn display_cells(row: &BenchRow) -> [String; 11] {
    let micros = |x: f64| {
        if x >= 1000.0 {
            grouped(x)
        } else {
            format!("{x:.2}")
        }
    };
    [
        row.dataset.clone(),
        row.solver.to_string(),
        row.mode.to_string(),
        row.threads.to_string(),
        grouped(row.puzzles as f64),
        rate(row.puzzles_per_s),
        micros(row.us_per_puzzle),
        format!("{:.1}", row.no_guess_pct),
        format!("{:.2}", row.guesses_per_puzzle),
        row.speedup
            .map_or_else(|| "-".to_string(), |s| format!("{s:.2}")),
        format!("{:.1}", row.finished_pct),
    ]
}

/// The header of [`display_cells`]: the row's fields but the last three
/// (`cpu`, `cores`, `version`), which are the same on every row and go to
/// [`machine_line`].
pub(crate) const DISPLAY_FIELDS: [&str; 11] = match FIELDS.first_chunk::<11>() {
    Some(fields) => *fields,
    None => unreachable!(),
};

/// Columns of [`display_cells`] holding text (left-aligned); the others
/// are numbers (right-aligned).
pub(crate) const TEXT_COLUMNS: usize = 3;

/// The line under a table naming what is the same on every row: `cpu: X,
/// N cores; sudoku-batch V`. Empty without rows.
pub(crate) fn machine_line(rows: &[BenchRow]) -> String {
    rows.first().map_or_else(String::new, |row| {
        format!(
            "cpu: {}, {} cores; sudoku-batch {}",
            row.cpu, row.cores, row.version
        )
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::solver::{Mode, SolverKind};

    /// Two rows as a run of one data set at 1 and 2 threads gives them.
    pub(crate) fn rows() -> Vec<BenchRow> {
        let one = BenchRow {
            dataset: "data/top95.txt".into(),
            solver: SolverKind::Fast,
            mode: Mode::Unique,
            threads: 1,
            puzzles: 95,
            puzzles_per_s: 123_456.7,
            us_per_puzzle: 1e6 / 123_456.7,
            no_guess_pct: 12.5,
            guesses_per_puzzle: 9.125,
            speedup: Some(1.0),
            finished_pct: 100.0,
            cpu: "Test CPU".into(),
            cores: 2,
            version: "0.1.0".into(),
        };
        let two = BenchRow {
            threads: 2,
            puzzles_per_s: 40.0,
            us_per_puzzle: 25_000.0,
            speedup: None,
            solver: SolverKind::Naive,
            ..one.clone()
        };
        vec![one, two]
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
        let rows = rows();
        let cells = display_cells(&rows[0]);
        assert_eq!(cells[5], "123,457");
        assert_eq!(cells[6], "8.10");
        assert_eq!(cells[9], "1.00");
        let cells = display_cells(&rows[1]);
        assert_eq!((cells[5].as_str(), cells[6].as_str()), ("40.0", "25,000"));
        assert_eq!(cells[9], "-");
    }

    #[test]
    fn exports_refuse_two_outputs_to_one_place() {
        let csv = Path::new("out.csv");
        assert!(
            Exports::new(&[(ExportFormat::Csv, Some(csv)), (ExportFormat::Json, None)]).is_ok()
        );
        for (a, b) in [("-", "-"), ("x", "x")] {
            let err = Exports::new(&[
                (ExportFormat::Csv, Some(Path::new(a))),
                (ExportFormat::Markdown, Some(Path::new(b))),
            ])
            .unwrap_err();
            assert!(
                err.to_string()
                    .contains("--export-csv and --export-markdown"),
                "{err}"
            );
        }
        let stdout = Exports::new(&[(ExportFormat::Json, Some(Path::new("-")))]).unwrap();
        assert!(stdout.uses_stdout());
    }
}
