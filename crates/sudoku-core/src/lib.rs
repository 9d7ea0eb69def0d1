//! sudoku-core: the 9x9 Sudoku puzzle model and its solvers, with no I/O.
//!
//! - [`grid`]: the grid (cells, units, peers), parsing one puzzle field
//!   and formatting it back to an 81-character line;
//! - [`solver`]: the [`Solver`](solver::Solver) trait and the
//!   classification of a puzzle into a [`Status`](solver::Status):
//!   [`FastSolver`](solver::FastSolver) (band-oriented bitmask propagation
//!   with backtracking, SIMD levels chosen at run time) and
//!   [`NaiveSolver`](solver::NaiveSolver) (plain backtracking, a reference);
//! - [`transform`]: the equivalence transforms (transposition, band, row,
//!   stack and column permutations, digit relabelling);
//! - [`minlex`]: canonical forms, one representative per equivalence class;
//! - [`generator`]: random puzzles with exactly one solution.
//!
//! This crate is the core of the `sudoku-batch` command-line tool, which
//! adds the streaming readers, the parallel pipeline and the results
//! writers around it.
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
// No printing from the library: it has no I/O (clippy.toml).
#![warn(clippy::disallowed_macros)]

pub mod generator;
pub mod grid;
pub mod minlex;
pub mod rate;
pub mod sizes;
pub mod solver;
pub mod transform;
