//! Errors that end a run, and the exit-code contract, in one place.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | every puzzle `solved` and no given solution mismatched (also: no puzzles at all, with a warning; and a closed stdout pipe) |
//! | 1 | some puzzle got another status, or a given solution mismatched |
//! | 2 | a usage error or an I/O error (input, output or summary) |
//! | 130 | SIGINT stopped the run (the rows finished before it are written) |
//! | 143 | SIGTERM stopped the run (likewise) |
//!
//! Problems with single records are not errors: they become `malformed`
//! rows and the run goes on.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use crate::input::InputError;
use crate::process::file_guard::GuardError;
use crate::process::interrupt::Signal;

/// Exit code: every puzzle solved, nothing mismatched.
pub const EXIT_OK: u8 = 0;
/// Exit code: some puzzle was not solved, or a check mismatched.
pub const EXIT_FAILED: u8 = 1;
/// Exit code: usage or I/O error.
pub const EXIT_ERROR: u8 = 2;

/// A failure that stops a run.
#[derive(Debug, Error)]
pub enum Error {
    /// The flags do not make sense together (e.g. `--summary-json -`
    /// without `-o FILE`).
    #[error("{0}")]
    Usage(String),
    /// An output is an input (or another output) by another name: refused
    /// before anything is written.
    #[error(transparent)]
    Guard(#[from] GuardError),
    /// An input could not be opened or read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// Writing the results or the summary failed (e.g. a full disk).
    #[error("writing {what} to {path}: {source}{note}")]
    Write {
        /// What was being written: `results` or `summary`.
        what: &'static str,
        /// Where to (`-` for stdout).
        path: PathBuf,
        /// The cause.
        source: io::Error,
        /// What the file holds after the failure, after `; ` (see
        /// [`Error::noting`]), or nothing.
        note: String,
    },
    /// A thread (the reader, or the solver pool) could not be started.
    #[error("cannot start {what}: {cause}")]
    Threads {
        /// Which threads, e.g. `4 solver threads`.
        what: String,
        /// The cause, from the operating system.
        cause: String,
    },
    /// `--resume` cannot continue the results file: it is not a results
    /// file for these inputs, or its rows differ from them.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// The signal handlers could not be installed.
    #[error("cannot handle SIGINT and SIGTERM: {0}")]
    Signals(io::Error),
    /// `check --baseline`: the baseline cannot be read, or it belongs to
    /// another run (a different puzzle at a line, other inputs, another
    /// solver or mode).
    #[error("baseline {path}: {message}")]
    Baseline {
        /// The baseline file.
        path: PathBuf,
        /// What is wrong, with the line when there is one.
        message: String,
    },
    /// `merge`: the results files cannot be merged (unreadable, of other
    /// runs, overlapping, or missing records of `--inputs`).
    #[error("{0}")]
    Merge(String),
    /// `SUDOKU_BATCH_SIMD` names no level, or one this CPU lacks: refused
    /// at start, before any input is read.
    #[error(transparent)]
    Simd(#[from] sudoku_core::solver::SimdError),
    /// Standard output was closed by its reader (e.g. `| head`): the run
    /// stops quietly with exit code 0, as ripgrep does.
    #[error("standard output closed")]
    BrokenPipe,
}

impl Error {
    /// A write error on `path`, or [`Error::BrokenPipe`] when the cause is
    /// a closed pipe.
    pub fn write(what: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Error {
        if source.kind() == io::ErrorKind::BrokenPipe {
            Error::BrokenPipe
        } else {
            Error::Write {
                what,
                path: path.into(),
                source,
                note: String::new(),
            }
        }
    }

    /// This error, saying what the file it failed to write holds after the
    /// failure (`note`); other errors are given back as they are.
    pub fn noting(self, note: &str) -> Error {
        match self {
            Error::Write {
                what,
                path,
                source,
                note: _,
            } => Error::Write {
                what,
                path,
                source,
                note: format!("; {note}"),
            },
            other => other,
        }
    }

    /// True for a failure to write the results (not a summary).
    pub fn is_results_write(&self) -> bool {
        matches!(
            self,
            Error::Write {
                what: "results",
                ..
            }
        )
    }

    /// True when the error should end the run without a message
    /// ([`Error::BrokenPipe`]).
    pub fn is_quiet(&self) -> bool {
        matches!(self, Error::BrokenPipe)
    }
}

/// How a run that finished without an [`enum@Error`] went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every puzzle `solved` and nothing mismatched (or no puzzles at all).
    Clean,
    /// Some puzzle got another status, or a given solution mismatched.
    Failures,
    /// A signal stopped the run early; the rows finished before it are
    /// written.
    Interrupted(Signal),
}

/// The process exit code for a run's result: see the module docs.
pub fn exit_code(result: &Result<Verdict, Error>) -> u8 {
    match result {
        Ok(Verdict::Clean) => EXIT_OK,
        Ok(Verdict::Failures) => EXIT_FAILED,
        Ok(Verdict::Interrupted(signal)) => signal.exit_code(),
        Err(Error::BrokenPipe) => EXIT_OK,
        Err(_) => EXIT_ERROR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_contract() {
        assert_eq!(exit_code(&Ok(Verdict::Clean)), 0);
        assert_eq!(exit_code(&Ok(Verdict::Failures)), 1);
        let sigint = Verdict::Interrupted(Signal::Interrupt);
        assert_eq!(exit_code(&Ok(sigint)), 130);
        let sigterm = Verdict::Interrupted(Signal::Terminate);
        assert_eq!(exit_code(&Ok(sigterm)), 143);
        assert_eq!(exit_code(&Err(Error::Usage("bad".into()))), 2);
        assert_eq!(exit_code(&Err(Error::BrokenPipe)), 0);
    }

    #[test]
    fn a_closed_pipe_is_quiet_and_a_full_disk_is_not() {
        let pipe = Error::write("results", "-", io::ErrorKind::BrokenPipe.into());
        assert!(pipe.is_quiet());
        let full = Error::write("results", "out.csv", io::Error::from_raw_os_error(28));
        assert!(!full.is_quiet());
        assert!(full.to_string().starts_with("writing results to out.csv: "));
    }
}

/// Why a results file cannot be resumed (`--resume`, see [`crate::job::resume`]).
#[derive(Debug, Error)]
pub enum ResumeError {
    /// The results file could not be read.
    #[error("reading {path} to resume it: {source}")]
    Read {
        /// The results file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A Parquet results file that cannot be continued: no footer (the run
    /// that wrote it was killed outright), or not Parquet at all.
    #[error(
        "{path} cannot be resumed: {cause}; it is left as it was (a run stopped by Ctrl-C, \
         SIGTERM or a full disk leaves a readable file; one killed outright leaves none)"
    )]
    Unreadable {
        /// The results file.
        path: PathBuf,
        /// Why it cannot be read.
        cause: String,
    },
    /// A Parquet results file's columns, or their types, are not those
    /// this run writes.
    #[error(
        "{path}: {why}; --resume continues a results file written by `solve` with the same \
         inputs and the same --keep, --keep-all and --keep-types"
    )]
    Schema {
        /// The results file.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// Its first line is not the header this run writes.
    #[error(
        "{path}: line 1: the header is `{found}`, but this run writes `{expected}`; \
         --resume continues a results file written by `solve` with the same inputs and the \
         same --keep or --keep-all"
    )]
    Header {
        /// The results file.
        path: PathBuf,
        /// Its header, shortened.
        found: String,
        /// The header this run writes.
        expected: String,
    },
    /// Its header is the one this run writes with another delimiter
    /// between the names: one run was given `--output-delimiter`, or
    /// another.
    #[error(
        "{path}: line 1: its fields are separated by {found}, and this run writes them \
         separated by {ours}; --resume continues a results file with the --output-delimiter \
         of the run that wrote it"
    )]
    Delimiter {
        /// The results file.
        path: PathBuf,
        /// Its delimiter, named.
        found: String,
        /// This run's, named.
        ours: String,
    },
    /// The first row of JSON Lines results has other keys than the rows
    /// this run writes.
    #[error(
        "{path}: {at}: the row's keys are `{found}`, but this run writes `{expected}`; \
         --resume continues a results file written by `solve` with the same inputs and the \
         same --keep or --keep-all"
    )]
    Keys {
        /// The results file.
        path: PathBuf,
        /// The row's place in the results file.
        at: RowAt,
        /// Its keys, in order, shortened.
        found: String,
        /// The keys this run writes, in order.
        expected: String,
    },
    /// A complete row is not a results row.
    #[error("{path}: {at}: not a results row: {cause}")]
    BadRow {
        /// The results file.
        path: PathBuf,
        /// The row's place in the results file.
        at: RowAt,
        /// What is wrong.
        cause: String,
    },
    /// A kept row differs from the input record at its place.
    #[error(
        "{path}: {at} does not match the inputs: the row has {row}, \
         but the inputs have {record} there; --resume needs the inputs of the run that wrote it"
    )]
    Mismatch {
        /// The results file.
        path: PathBuf,
        /// The row's place in the results file.
        at: RowAt,
        /// The row, described.
        row: String,
        /// The input record at its place, described.
        record: String,
    },
    /// A kept row, or the previous run's summary, shows that the file was
    /// written under other options than this run's (`--blank`, `--first`,
    /// `--max-guesses`, ...): its rows and this run's would not be of one
    /// run.
    #[error(
        "{path}: {at}: {why}; --resume continues a results file with the options of the run \
         that wrote it"
    )]
    Options {
        /// The results file.
        path: PathBuf,
        /// Where it shows: `line N` (`row N` of Parquet), or the summary
        /// file.
        at: String,
        /// What differs.
        why: String,
    },
    /// The inputs end before the kept rows do.
    #[error(
        "{path}: {at} has {row}, but the inputs end before it; \
         --resume needs the inputs of the run that wrote it"
    )]
    InputShort {
        /// The results file.
        path: PathBuf,
        /// The first row left over, its place in the results file.
        at: RowAt,
        /// The row, described.
        row: String,
    },
}

/// Where a row is in a results file, as a message names it: its line
/// (CSV, JSON Lines) or, in Parquet, which has no lines, its row number
/// (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowAt {
    /// A line of a text file (a CSV header is line 1).
    Line(u64),
    /// A row of a Parquet file (the first is row 1).
    Row(u64),
}

impl std::fmt::Display for RowAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowAt::Line(n) => write!(f, "line {n}"),
            RowAt::Row(n) => write!(f, "row {n}"),
        }
    }
}
