//! Solvers behind one trait, and the classification of a puzzle into a
//! [`Status`].
//!
//! Two solvers implement [`Solver`]: [`FastSolver`] (band-oriented bitmask
//! propagation with backtracking, the default) and [`NaiveSolver`] (the plain
//! first-empty-cell backtracking of the classic LeetCode 37 approach, kept
//! as a reference and a benchmark baseline).

mod fast;
mod naive;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::grid::Grid;

pub use fast::{FastSolver, Simd, SimdError, SIMD_ENV};
pub use naive::{NaiveSolver, DEFAULT_MAX_PLACEMENTS};

/// How far a search goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Stop at the second solution: `solved` means exactly one solution.
    #[default]
    Unique,
    /// Stop at the first solution: `solved` means a solution was found and
    /// uniqueness was not checked; `multiple` cannot occur.
    First,
}

impl Mode {
    /// The mode's name: `unique` or `first`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Unique => "unique",
            Mode::First => "first",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The classification of one input record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Exactly one solution (in `first` mode: a solution was found).
    Solved,
    /// Two or more solutions.
    Multiple,
    /// The givens are consistent but there is no solution.
    Unsolvable,
    /// A digit is repeated in a row, column or box.
    Invalid,
    /// The record is not a 9x9 puzzle.
    Malformed,
    /// A limit (guesses, placements or time) stopped the search.
    Timeout,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 6] = [
        Status::Solved,
        Status::Multiple,
        Status::Unsolvable,
        Status::Invalid,
        Status::Malformed,
        Status::Timeout,
    ];

    /// The status's position in [`Status::ALL`]: an index for tallies
    /// and dictionaries of statuses.
    pub const fn index(self) -> usize {
        match self {
            Status::Solved => 0,
            Status::Multiple => 1,
            Status::Unsolvable => 2,
            Status::Invalid => 3,
            Status::Malformed => 4,
            Status::Timeout => 5,
        }
    }

    /// The status's name as written in results: `solved`, `multiple`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Malformed => "malformed",
            Status::Timeout => "timeout",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a status name that is not one of the six.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown status '{0}' (expected solved, multiple, unsolvable, invalid, malformed or timeout)"
)]
pub struct UnknownStatus(pub String);

impl FromStr for Status {
    type Err = UnknownStatus;

    fn from_str(s: &str) -> Result<Status, UnknownStatus> {
        Status::ALL
            .into_iter()
            .find(|st| st.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownStatus(s.to_string()))
    }
}

/// Limits on one search. A search that reaches a limit ends with
/// [`Status::Timeout`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Most guesses allowed (see [`Outcome::guesses`]); deterministic.
    pub max_guesses: Option<u64>,
    /// Most wall-clock time for one puzzle; not deterministic, so regression
    /// checks should prefer `max_guesses`.
    pub timeout: Option<Duration>,
}

/// The result of classifying one grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The classification.
    pub status: Status,
    /// The solution when `status` is [`Status::Solved`], else `None`.
    pub solution: Option<Grid>,
    /// Guesses made: the number of times the search placed a candidate in a
    /// cell that had two or more candidates (a cell whose first candidate
    /// fails and second succeeds counts 2). Deterministic for a given solver,
    /// grid and mode.
    pub guesses: u64,
    /// Why: the conflict for `invalid`, the limit for `timeout`, the
    /// evidence for `multiple` (the first cell where two solutions differ,
    /// see [`difference`]); else `None`.
    pub message: Option<String>,
}

impl Outcome {
    /// The outcome for a grid whose repeated given is `conflict`.
    pub fn invalid(conflict: &crate::grid::Conflict) -> Outcome {
        Outcome {
            status: Status::Invalid,
            solution: None,
            guesses: 0,
            message: Some(conflict.to_string()),
        }
    }

    /// Classifies a search's result: `multiple`, `solved`, `timeout` or
    /// `unsolvable` (see [`Solver::solve`]).
    pub fn from_search(search: Search, mode: Mode) -> Outcome {
        let status = match (search.solutions, &search.stopped) {
            (2.., _) => Status::Multiple,
            (1, None) => Status::Solved,
            (1, Some(_)) if mode == Mode::First => Status::Solved,
            (_, Some(_)) => Status::Timeout,
            (_, None) => Status::Unsolvable,
        };
        let message = match status {
            Status::Timeout => search.stopped,
            Status::Multiple => match (&search.first, &search.second) {
                (Some(a), Some(b)) => difference(a, b),
                _ => None,
            },
            _ => None,
        };
        Outcome {
            status,
            solution: if status == Status::Solved {
                search.first
            } else {
                None
            },
            guesses: search.guesses,
            message,
        }
    }
}

/// The evidence that a puzzle has two solutions: the first cell (row-major)
/// where `a` and `b` differ and its two digits, as
/// `r1c3 is 4 in one solution and 7 in another`; `None` when they are equal.
pub fn difference(a: &Grid, b: &Grid) -> Option<String> {
    let (cell, (x, y)) = a
        .cells()
        .iter()
        .zip(b.cells())
        .enumerate()
        .find(|(_, (x, y))| x != y)?;
    Some(format!(
        "{} is {x} in one solution and {y} in another",
        crate::grid::Cell(cell as u8)
    ))
}

/// What a raw search found, before it is turned into an [`Outcome`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// Solutions found, at most 2 (unique mode) or 1 (first mode).
    pub solutions: u8,
    /// The first solution found.
    pub first: Option<Grid>,
    /// The second solution found (unique mode only): with `first`, the
    /// evidence for `multiple`.
    pub second: Option<Grid>,
    /// Guesses made (see [`Outcome::guesses`]).
    pub guesses: u64,
    /// Set when a limit stopped the search: the limit, for the message.
    pub stopped: Option<String>,
}

/// A Sudoku solver. Each worker thread owns its own solver value, so
/// implementations may keep scratch state between calls.
pub trait Solver: Send {
    /// The solver's name as given on the command line (`fast`, `naive`).
    fn name(&self) -> &'static str;

    /// Searches a grid whose givens have no repeated digit, stopping at the
    /// first solution (`First`) or the second (`Unique`), or when a limit is
    /// reached.
    fn search(&mut self, grid: &Grid, mode: Mode, limits: &Limits) -> Search;

    /// Classifies a grid: `invalid` (a repeated given, found before any
    /// search), else the search's `solved`, `multiple`, `unsolvable` or
    /// `timeout`.
    fn solve(&mut self, grid: &Grid, mode: Mode, limits: &Limits) -> Outcome {
        if let Some(conflict) = grid.first_conflict() {
            return Outcome::invalid(&conflict);
        }
        Outcome::from_search(self.search(grid, mode, limits), mode)
    }
}

/// The solvers this crate provides, by command-line name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    /// [`FastSolver`].
    #[default]
    Fast,
    /// [`NaiveSolver`].
    Naive,
}

impl SolverKind {
    /// Every solver kind.
    pub const ALL: [SolverKind; 2] = [SolverKind::Fast, SolverKind::Naive];

    /// The command-line name: `fast` or `naive`.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Fast => "fast",
            SolverKind::Naive => "naive",
        }
    }

    /// A new solver of this kind, with its default settings.
    pub fn build(self) -> Box<dyn Solver> {
        match self {
            SolverKind::Fast => Box::new(FastSolver::new()),
            SolverKind::Naive => Box::new(NaiveSolver::new()),
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Checks the guess and time limits during a search. Reading the clock is
/// comparatively slow, so it is read only every 1024 guesses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LimitClock {
    max_guesses: u64,
    deadline: Option<Instant>,
    timeout: Option<Duration>,
}

impl LimitClock {
    /// Starts the clock for one search.
    pub(crate) fn start(limits: &Limits) -> LimitClock {
        LimitClock {
            max_guesses: limits.max_guesses.unwrap_or(u64::MAX),
            deadline: limits.timeout.map(|t| Instant::now() + t),
            timeout: limits.timeout,
        }
    }

    /// Called before each step of a search with the guesses and the step
    /// counter (`ticks`, which samples the clock every 1024 steps) that the
    /// step would bring; returns the message naming the limit when the step
    /// must be refused.
    #[inline(always)]
    pub(crate) fn exceeded(&self, guesses: u64, ticks: u64) -> Option<String> {
        // The common case inline in the search loop, the rest out of line.
        if guesses <= self.max_guesses && !ticks.is_multiple_of(1024) {
            return None;
        }
        self.exceeded_now(guesses, ticks)
    }

    /// [`LimitClock::exceeded`] when a limit may be reached.
    #[cold]
    #[inline(never)]
    fn exceeded_now(&self, guesses: u64, ticks: u64) -> Option<String> {
        if guesses > self.max_guesses {
            return Some(format!("guess limit {} exceeded", self.max_guesses));
        }
        if ticks.is_multiple_of(1024) {
            return self.expired();
        }
        None
    }

    /// The message naming the time limit when it is past, the clock read
    /// now; `None` without one. For steps that take long enough to read it
    /// every time (a round of propagation in a big grid).
    pub(crate) fn expired(&self) -> Option<String> {
        let (deadline, timeout) = (self.deadline?, self.timeout?);
        (Instant::now() >= deadline)
            .then(|| format!("time limit {} ms exceeded", timeout.as_millis()))
    }
}

#[cfg(test)]
mod tests;
