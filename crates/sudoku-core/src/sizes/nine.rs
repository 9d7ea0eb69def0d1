//! 9x9 grids with 3x3 boxes written in another alphabet than the digits
//! `1`-`9` (numbered from 0, as 0-based data sets write them:
//! `3,-1,-1,7,...`), solved by the 9x9 engines of [`crate::solver`]
//! rather than by the solvers of every size: the same search, status,
//! solution and guesses as the grid written in digits, with messages that
//! name values in the grid's own alphabet.

use super::grid::{SizedConflict, SizedGrid};
use super::solver::{SizedOutcome, SizedSearch};
use super::symbols::Symbols;
use crate::grid::{Conflict, Grid, CELLS};
use crate::solver::{Limits, Mode, Solver};

/// `grid` as a grid of the 9x9 model (the same values, 0 blank): `Some`
/// for a 9x9 grid with 3x3 boxes ([`super::Shape::is_nine`]), `None` for
/// any other shape.
pub fn nine_grid(grid: &SizedGrid) -> Option<Grid> {
    if !grid.shape().is_nine() {
        return None;
    }
    Grid::from_cells(<[u8; CELLS]>::try_from(grid.cells()).ok()?)
}

/// Classifies `grid`, a 9x9 grid with 3x3 boxes in any alphabet, with the
/// 9x9 engine `solver` (the fast one at the SIMD level it runs, or the
/// naive one), as that engine classifies the same grid written in the
/// digits `1`-`9`: the same status, solution, guesses and cells named,
/// the values named with `symbols`, as [`super::SizedSearcher::solve`]
/// names them (`0 twice in row 3: r3c2, r3c9`). `None` for a grid of
/// another shape ([`nine_grid`]).
pub fn solve_as_nine(
    solver: &mut dyn Solver,
    grid: &SizedGrid,
    symbols: &Symbols,
    mode: Mode,
    limits: &Limits,
) -> Option<SizedOutcome> {
    let nine = nine_grid(grid)?;
    let shape = grid.shape();
    if let Some(conflict) = nine.first_conflict() {
        return Some(SizedOutcome::invalid(&sized(conflict), shape, symbols));
    }
    let search = solver.search(&nine, mode, limits);
    let back = |found: Grid| SizedGrid::from_cells(shape, found.cells().to_vec());
    let search = SizedSearch {
        solutions: search.solutions,
        first: search.first.and_then(back),
        second: search.second.and_then(back),
        guesses: search.guesses,
        stopped: search.stopped,
    };
    Some(SizedOutcome::from_search(search, symbols, mode))
}

/// A 9x9 grid's conflict as the grids of every size name it: the same
/// value, unit and cells (9x9 units are scanned in the same order at both).
fn sized(conflict: Conflict) -> SizedConflict {
    SizedConflict {
        value: conflict.digit,
        kind: conflict.kind,
        index: conflict.index,
        cells: (
            usize::from(conflict.cells.0 .0),
            usize::from(conflict.cells.1 .0),
        ),
    }
}
