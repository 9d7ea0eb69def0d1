//! Placeholder while the band solver is written (replaced in the next commit).

use super::{Limits, Mode, NaiveSolver, Search, Solver};
use crate::grid::Grid;

/// The fast solver.
#[derive(Clone, Debug, Default)]
pub struct FastSolver {
    inner: NaiveSolver,
}

impl FastSolver {
    /// A new fast solver.
    pub fn new() -> FastSolver {
        FastSolver::default()
    }
}

impl Solver for FastSolver {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn search(&mut self, grid: &Grid, mode: Mode, limits: &Limits) -> Search {
        self.inner.search(grid, mode, limits)
    }
}
