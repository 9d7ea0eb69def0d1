//! A run's validated settings ([`Config`]): what the command line's flags
//! become (`SolveArgs::config` in the `commands` module) and what a library
//! caller builds from [`Config::new`].

use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;

use sudoku_core::solver::{Limits, Mode, SolverKind};

use crate::error::Error;
use crate::input::ReadOptions;
use crate::job::shard::Shard;
use crate::kept::KeptCast;
use crate::output::progress::Draw;
use crate::output::rating::RatingColumns;
use crate::output::{Blank, Compression, Destination, OutputFormat, ParquetCompression};
use crate::process::file_guard::FileGuard;

/// The facts about the process's surroundings that flags are resolved
/// against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Environment {
    /// Whether stderr is a terminal.
    pub stderr_is_terminal: bool,
    /// Whether `NO_COLOR` is set to a non-empty value (no-color.org).
    pub no_color: bool,
    /// Cores available to this process (at least 1).
    pub cores: usize,
}

impl Environment {
    /// The current process's environment.
    pub fn detect() -> Environment {
        Environment {
            stderr_is_terminal: std::io::stderr().is_terminal(),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// A validated `solve` configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The inputs' names in order, never empty; `-` is stdin. A name that
    /// is not UTF-8 is shown with `\u{FFFD}` for its other bytes.
    pub inputs: Vec<String>,
    /// The same inputs as the paths to open, exactly as given (names that
    /// are not UTF-8 included).
    pub input_paths: Vec<PathBuf>,
    /// How to read each input.
    pub read: ReadOptions,
    /// The types kept columns are written in (`--keep-types`), by input
    /// name; the other kept columns keep the input's.
    pub keep_types: Vec<KeptCast>,
    /// Where the results go.
    pub output: Destination,
    /// The results' format when `--output-format` gives it; else the
    /// output's name chooses (see [`Config::output_format`]).
    pub output_format: Option<OutputFormat>,
    /// The field delimiter of CSV results.
    pub output_delimiter: u8,
    /// How Parquet results are compressed (`--parquet-compression`);
    /// `None` is the default ([`ParquetCompression::Fast`]) and the only
    /// setting of other formats.
    pub parquet_compression: Option<ParquetCompression>,
    /// The blank of the results' `puzzle` column.
    pub blank: Blank,
    /// Continue the results file (`--resume`): always a file, CSV or JSON
    /// Lines, plain or gzip.
    pub resume: bool,
    /// Where the JSON summary goes, if anywhere.
    pub summary_json: Option<Destination>,
    /// The file for the HTML summary page, if any.
    pub summary_html: Option<PathBuf>,
    /// Solver threads, at least 1.
    pub threads: usize,
    /// The solver.
    pub solver: SolverKind,
    /// The search mode.
    pub mode: Mode,
    /// Per-puzzle search limits.
    pub limits: Limits,
    /// Stop after this many puzzle records (of the whole inputs, with a
    /// shard).
    pub limit: Option<u64>,
    /// Handle only this shard of the records (`--shard K/N`).
    pub shard: Option<Shard>,
    /// How to draw progress on stderr.
    pub progress: Draw,
    /// Print the human summary on stderr.
    pub human_summary: bool,
    /// Colour is allowed on stderr.
    pub color: bool,
    /// When stdout closes early (`| head`), go on solving every record
    /// without writing it, instead of stopping quietly: `check` must
    /// verify every record. `false` unless set by the subcommand.
    pub finish_when_stdout_closes: bool,
    /// The rating columns: `solve --rate` adds `rating,hardest`; `rate`
    /// writes its own columns (see [`crate::output::rating`]).
    pub rating: RatingColumns,
}

impl Config {
    /// A quiet run of `inputs` into `output` with every other setting at
    /// its default (as `solve` with no other flag, but no progress bar and
    /// no human summary): the starting point of a library caller, which
    /// then sets the fields it needs.
    pub fn new(inputs: Vec<String>, output: Destination) -> Config {
        Config {
            input_paths: inputs.iter().map(PathBuf::from).collect(),
            inputs,
            read: ReadOptions::default(),
            keep_types: Vec::new(),
            output,
            output_format: None,
            output_delimiter: b',',
            parquet_compression: None,
            blank: Blank::Dot,
            resume: false,
            summary_json: None,
            summary_html: None,
            threads: Environment::detect().cores.max(1),
            solver: SolverKind::default(),
            mode: Mode::default(),
            limits: Limits::default(),
            limit: None,
            shard: None,
            progress: Draw::Off,
            human_summary: false,
            color: false,
            finish_when_stdout_closes: false,
            rating: RatingColumns::None,
        }
    }

    /// The results' format: `--output-format`, else the one the output's
    /// name says (see [`crate::output::format`]).
    ///
    /// # Errors
    /// [`Error::Usage`] when the name says no format, for Parquet in a `.gz`
    /// or `.zst` name, for `--resume` of anything but a CSV (with commas),
    /// JSON Lines (plain or gzip) or Parquet file,
    /// for a delimiter other than a comma in any format but CSV, and for
    /// `--parquet-compression` in any format but Parquet.
    pub fn output_format(&self) -> Result<OutputFormat, Error> {
        let path = match &self.output {
            Destination::Stdout => None,
            Destination::File { path, .. } => Some(path.as_path()),
        };
        let format = crate::output::format::choose(path, self.output_format)
            .map_err(|e| Error::Usage(e.to_string()))?;
        if self.output_delimiter != b',' && format != OutputFormat::Csv {
            return Err(Error::Usage(format!(
                "--output-delimiter is for CSV results; {} names {format} results",
                self.output.name().display()
            )));
        }
        if self.parquet_compression.is_some() && format != OutputFormat::Parquet {
            return Err(Error::Usage(format!(
                "--parquet-compression is for Parquet results; {} names {format} results",
                self.output.name().display()
            )));
        }
        if self.resume {
            match &self.output {
                Destination::Stdout => {
                    return Err(Error::Usage(
                        "--resume needs -o FILE: it continues a results file".into(),
                    ))
                }
                Destination::File { path, compression } if *compression == Compression::Zstd => {
                    return Err(Error::Usage(format!(
                        "--resume cannot continue a zstd file ({}): a cut-off zstd stream \
                         cannot be appended to; write plain or .gz results to resume",
                        path.display()
                    )))
                }
                Destination::File { .. } => {}
            }
        }
        Ok(format)
    }

    /// The files this run reads (inputs, stdin, `--solutions`) and writes
    /// (the results, `--summary-json`), for [`FileGuard::check`]; a
    /// subcommand registers its own (`--baseline`) before checking.
    pub fn file_guard(&self) -> FileGuard {
        let mut guard = FileGuard::new();
        for input in &self.input_paths {
            guard.reads("input", input);
        }
        if let Some(solutions) = &self.read.solutions {
            guard.reads("--solutions", solutions);
        }
        guard.writes("-o", self.output.name());
        if let Some(summary) = &self.summary_json {
            guard.writes("--summary-json", summary.name());
        }
        if let Some(html) = &self.summary_html {
            guard.writes("--summary-html", html);
        }
        guard
    }
}

/// The most threads `-j` may ask for: more is a usage error (exit 2),
/// refused before any thread starts.
pub const MAX_THREADS: usize = 1024;

/// Checks `-j` thread counts against [`MAX_THREADS`], and warns once on
/// stderr when the largest is more than the machine's `cores` (allowed, but
/// the threads then share cores and gain nothing).
///
/// # Errors
/// [`Error::Usage`] when a count is above [`MAX_THREADS`].
pub fn check_threads(counts: &[usize], cores: usize) -> Result<(), Error> {
    let Some(&most) = counts.iter().max() else {
        return Ok(());
    };
    if most > MAX_THREADS {
        return Err(Error::Usage(format!(
            "-j/--threads {most}: at most {MAX_THREADS} threads (this machine has {})",
            crate::process::words::count(cores as u64, "core", "cores")
        )));
    }
    if most > cores {
        // A closed stderr loses the warning, nothing else.
        let _ = writeln!(
            std::io::stderr().lock(),
            "sudoku-batch: warning: -j {most} is more threads than the {} of this machine; \
             the extra threads share cores and add no speed",
            crate::process::words::count(cores as u64, "core", "cores")
        );
    }
    Ok(())
}
