//! sudoku-batch: solve Sudoku puzzles in bulk.
//!
//! The library behind the `sudoku-batch` command. Data flows one way:
//! [`input`] reads records -> [`pipeline`] classifies and solves them on a
//! thread pool with the solvers of [`sudoku_core`] -> [`output`]
//! writes one results row per record ([`result`], with the input columns
//! it keeps: [`kept`]) as CSV, JSON Lines or Parquet -> [`stats`]
//! summarises. [`command`] defines the command line and runs a subcommand,
//! [`cli`] the flags of `solve`, [`config`] validates them, [`solve`] wires the
//! `solve` subcommand together, [`progress`] draws the bar and [`error`]
//! maps failures to exit codes; [`file_guard`] refuses an output that is an
//! input by another name. [`interrupt`] turns SIGINT and SIGTERM into
//! a clean stop and [`resume`] continues a results file. The other two
//! subcommands: [`bench`](mod@bench) measures solver throughput in memory, and
//! [`check`] verifies a run against rules and a baseline for CI. The
//! [`dataset`] subcommands (`generate`, `canon`, `augment`) build puzzle
//! sets with [`sudoku_core`]'s generator, canonical forms and
//! equivalence transforms.
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

pub mod batch;
#[cfg(feature = "cli")]
pub mod bench;
#[cfg(feature = "cli")]
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod clock;
#[cfg(feature = "cli")]
pub mod command;
pub mod config;
#[cfg(feature = "cli")]
pub mod dataset;
pub mod error;
pub mod file_guard;
pub mod input;
pub mod interrupt;
pub mod kept;
#[cfg(feature = "cli")]
pub mod merge;
pub mod output;
pub mod pipeline;
pub mod plot;
pub mod progress;
pub mod result;
pub mod results_reader;
pub mod resume;
pub mod shard;
pub mod solve;
pub mod stats;
pub mod stderr;
