//! Streaming input: opens files, stdin and gzip, and turns their lines or CSV
//! records into puzzle [`Record`]s, one at a time, in bounded memory.
//!
//! CONTRACT (to be implemented; see issues 3 and 4): the types below are the
//! interface the pipeline consumes.

use std::path::PathBuf;

use thiserror::Error;

use crate::grid::Grid;
use crate::solver::Status;

/// One puzzle record read from an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The 1-based physical line where the record starts, counting every line
    /// of the file (headers, comments and blank lines included).
    pub line: u64,
    /// The puzzle, or the reason the record is not a 9x9 puzzle (the parser's
    /// message, e.g. `bad character 'a' at position 82`).
    pub puzzle: Result<Grid, String>,
    /// A complete solution given by the input (a solution column, a later
    /// field, or a `--solutions` file), to check the result against.
    pub solution: Option<Grid>,
    /// A status the input expects for this record (a `status` column, as in
    /// a previous results CSV); used by `check`.
    pub expected: Option<Status>,
}

/// How an input's records are laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// `csv` for names ending `.csv` or `.csv.gz`, `lines` otherwise.
    #[default]
    Auto,
    /// One puzzle per line, fields split on whitespace, `,`, `;` and `|`.
    Lines,
    /// CSV with an optional header.
    Csv,
    /// Multi-line grids, one grid row per line.
    Grid,
}

/// Which field holds the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// A header name, matched case-insensitively.
    Name(String),
    /// A 1-based field index.
    Index(usize),
}

/// Options for reading one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// The layout.
    pub format: Format,
    /// The puzzle field, when not found automatically.
    pub column: Option<Column>,
}

/// A failure that stops reading an input (per-record problems are
/// `malformed` records instead).
#[derive(Debug, Error)]
pub enum InputError {
    /// The input could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The input's name (`-` for stdin).
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}
