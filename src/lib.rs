//! sudoku-batch: solve Sudoku puzzles in bulk.
//!
//! The library behind the `sudoku-batch` command. Its folders follow the
//! data, which flows one way: [`input`] reads records -> [`job`] runs them
//! (its [`pipeline`](job::pipeline) classifies and solves them on a thread
//! pool with the solvers of [`sudoku_core`]) -> [`output`] writes one
//! results row per record as CSV, JSON Lines or Parquet, and the summary,
//! the progress bar and the charts. [`kept`] holds the input columns a row
//! carries through (`--keep`): read by the one, written by the other.
//! [`commands`] holds the subcommands and the command line that calls them;
//! [`process`] the small process-wide helpers (the solve clock, SIGINT and
//! SIGTERM, messages on stderr, the guard that no input is overwritten);
//! [`error`] maps failures to exit codes.
//!
//! ```
//! use sudoku_core::grid::Grid;
//! use sudoku_core::solver::{FastSolver, Limits, Mode, Solver, Status};
//!
//! let puzzle = Grid::parse(
//!     b"016400000200009000400000062070230100100000003003087040960000005000800007000006820",
//! )?;
//! let outcome = FastSolver::new().solve(&puzzle, Mode::Unique, &Limits::default());
//! assert_eq!(outcome.status, Status::Solved);
//! assert!(outcome.solution.unwrap().is_solution_of(&puzzle));
//! # Ok::<(), sudoku_core::grid::ParseError>(())
//! ```

#![warn(missing_docs)]
// No `eprintln!`: it panics on a closed stderr (see `stderr`, clippy.toml).
#![warn(clippy::disallowed_macros)]

pub mod commands;
pub mod error;
pub mod input;
pub mod job;
pub mod kept;
pub mod output;
pub mod process;
