//! The plain data passed from the solving stage to the writer and the
//! summary: one [`PuzzleResult`] per input record.

use serde::Serialize;
use sudoku_core::grid::Grid;
use sudoku_core::sizes::{SizedGrid, Symbols};
use sudoku_core::solver::Status;

use crate::kept::KeptValue;
use crate::output::rating::RowRating;

/// The check of a solved puzzle against the solution its input gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// The solver's solution equals the given one.
    Ok,
    /// It differs.
    Mismatch,
}

impl Check {
    /// The name written in results: `ok` or `mismatch`.
    pub fn name(self) -> &'static str {
        match self {
            Check::Ok => "ok",
            Check::Mismatch => "mismatch",
        }
    }
}

/// The result for one input record: what becomes one results row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleResult {
    /// Index of the input the record came from (0-based, in command-line
    /// order).
    pub input: usize,
    /// The 1-based physical line where the record starts.
    pub line: u64,
    /// The puzzle; `None` when the record is malformed.
    pub puzzle: Option<Grid>,
    /// The classification.
    pub status: Status,
    /// The solution, only when `status` is `solved`.
    pub solution: Option<Grid>,
    /// Guesses the search made; `None` when malformed (never searched).
    pub guesses: Option<u64>,
    /// Time of this puzzle's classification and search alone, in
    /// nanoseconds; `None` when malformed.
    pub solve_ns: Option<u64>,
    /// The check against what the input gives: a solution (`ok` or
    /// `mismatch` for a `solved` puzzle whose input gives one; `mismatch`,
    /// whatever the status, for one that is no complete grid) and an
    /// expected status (`mismatch` for one that names no status).
    pub check: Option<Check>,
    /// Why: the parser's message for `malformed`, the conflict for
    /// `invalid`, the limit for `timeout`; else `None`. Raw text, possibly
    /// echoing input: writers must clean it (see
    /// [`crate::output::clean_message`]).
    pub message: Option<String>,
    /// The status the input expects for this record, if it says (used by
    /// `check`).
    pub expected: Option<Status>,
    /// The record's values of the kept input columns (`--keep`), one per
    /// kept column in order; empty without `--keep`. See [`crate::kept`].
    pub kept: Vec<KeptValue>,
    /// The puzzle and solution when the record is a grid of another size
    /// than 9x9 (`puzzle` and `solution` are then `None`).
    pub sized: Option<Box<SizedResult>>,
    /// The puzzle's rating, in a rated run (`rate`, `solve --rate`) when
    /// the rater finished it (see [`crate::job::rating`]); else `None`.
    pub rating: Option<RowRating>,
}

/// The puzzle and solution of a grid of another size than 9x9, with the
/// alphabet they are written in (the input's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizedResult {
    /// The puzzle.
    pub puzzle: SizedGrid,
    /// Its alphabet.
    pub symbols: Symbols,
    /// The solution, only when `solved`.
    pub solution: Option<SizedGrid>,
}

impl SizedResult {
    /// The `puzzle` column: the puzzle in its alphabet, `blank` for blanks
    /// (numbers write `0`).
    pub fn puzzle_text(&self, blank: u8) -> String {
        self.symbols.format(&self.puzzle, blank)
    }

    /// The `solution` column, when solved.
    pub fn solution_text(&self) -> Option<String> {
        self.solution.as_ref().map(|s| self.symbols.format(s, b'.'))
    }

    /// The grid's side, n.
    pub fn side(&self) -> usize {
        self.puzzle.side()
    }
}

impl PuzzleResult {
    /// True when the puzzle was searched, i.e. every status but `malformed`.
    pub fn searched(&self) -> bool {
        self.status != Status::Malformed
    }

    /// The `solve_us` column: the solve time in microseconds rounded to
    /// one decimal, as every results format writes it (CSV `12.3`; the
    /// Parquet and Python float the same value); `None` when malformed.
    pub fn solve_us(&self) -> Option<f64> {
        self.solve_ns
            .map(|ns| (ns.saturating_add(50) / 100) as f64 / 10.0)
    }

    /// True when this row makes the run fail (exit code 1): any status but
    /// `solved`, or a mismatched check.
    pub fn is_failure(&self) -> bool {
        self.status != Status::Solved || self.check == Some(Check::Mismatch)
    }
}

/// The fields of a results row from `line` to `check`, borrowed: what a
/// row of a 9x9 grid (or a malformed record) holds before its message, kept
/// values and ratings. The row formatters write these fields from it, for a
/// [`PuzzleResult`] and for a puzzle the workers solved without making one
/// ([`crate::output::RowFormat::plain_rows`]).
#[derive(Clone, Copy, Debug)]
pub struct RowFields<'a> {
    /// Index of the input the record came from.
    pub input: usize,
    /// The 1-based physical line where the record starts.
    pub line: u64,
    /// The puzzle; `None` when the record is malformed.
    pub puzzle: Option<&'a Grid>,
    /// The classification.
    pub status: Status,
    /// The solution, only when `status` is `solved`.
    pub solution: Option<&'a Grid>,
    /// Guesses the search made; `None` when malformed.
    pub guesses: Option<u64>,
    /// Solve time in nanoseconds; `None` when malformed.
    pub solve_ns: Option<u64>,
    /// The check against a given solution.
    pub check: Option<Check>,
}

impl<'a> RowFields<'a> {
    /// The fields of `result` (a grid of another size has its own: see
    /// [`PuzzleResult::sized`]).
    pub fn of(result: &'a PuzzleResult) -> RowFields<'a> {
        RowFields {
            input: result.input,
            line: result.line,
            puzzle: result.puzzle.as_ref(),
            status: result.status,
            solution: result.solution.as_ref(),
            guesses: result.guesses,
            solve_ns: result.solve_ns,
            check: result.check,
        }
    }
}
