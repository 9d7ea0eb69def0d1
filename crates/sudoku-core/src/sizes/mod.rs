//! Grids of every size: n x n cells in boxes of r x c (n = r * c, 4 to
//! 64), with candidate sets as 64-bit sets.
//!
//! - [`shape`]: the box shape ([`Shape`], `--box RxC`) and its units and
//!   peers ([`Geometry`]);
//! - [`grid`]: the grid ([`SizedGrid`]) and its repeated values;
//! - [`symbols`]: the alphabets records are written in, found or given
//!   ([`Symbols`], [`read`]), and writing grids back in them;
//! - [`solver`]: the fast solver ([`SizedSolver`]) and the naive reference
//!   ([`ReferenceSolver`]);
//! - [`nine`]: 9x9 grids with 3x3 boxes in another alphabet (numbered from
//!   0), solved by the 9x9 engines ([`solve_as_nine`]);
//! - [`generator`]: puzzles with one solution.
//!
//! 9x9 records keep the 9x9 model and its engine ([`crate::grid`],
//! [`crate::solver`]), and so do 9x9 grids with 3x3 boxes written in
//! another alphabet ([`nine`]); this module's solvers serve every other
//! size and shape (and 9x9 grids when asked, as in tests).
//!
//! ```
//! use sudoku_core::sizes::{read, SizedSearcher, SizedSolver};
//! use sudoku_core::solver::{Limits, Mode, Status};
//!
//! let record = read(b"2,1,0,0, 0,3,2,0, 0,0,0,4, 1,0,0,0", None, None)?;
//! let outcome = SizedSolver::new().solve(&record.grid, &record.symbols, Mode::First, &Limits::default());
//! assert_eq!(outcome.status, Status::Solved);
//! assert!(outcome.solution.unwrap().is_solution_of(&record.grid));
//! # Ok::<(), sudoku_core::sizes::SymbolsError>(())
//! ```

pub mod generator;
pub mod grid;
pub mod nine;
pub mod shape;
pub mod solver;
pub mod symbols;
#[cfg(test)]
mod tests;

pub use generator::{SizedGenerated, SizedGenerator};
pub use grid::{SizedConflict, SizedGrid};
pub use nine::{nine_grid, solve_as_nine};
pub use shape::{Geometry, Shape, ShapeError, MAX_SIDE};
pub use solver::{ReferenceSolver, SizedOutcome, SizedSearch, SizedSearcher, SizedSolver};
pub use symbols::{read, side_of, Read, Symbols, SymbolsError};
