//! Puzzles of any size with exactly one solution.
//!
//! One puzzle: the boxes on the diagonal see no common row or column, so
//! each gets a random order of the values; the solver completes the grid
//! (first mode, a guess limit against the rare slow completion, after which
//! another start is drawn; [`SizedSolver::basic`], whose guess order fixes
//! the grids a seed gives), and the values are relabelled at random. The
//! givens are then visited in a random order and each is removed when the
//! puzzle keeps one solution: a given that a naked single would put back
//! (its peers hold every other value) without a search, any other with a
//! unique-mode search. With `minimal` every given is tried, so every given
//! left is needed; without, digging stops at the first given that must stay.
//! Puzzle `index` under `seed` depends on nothing else
//! ([`crate::generator::stream`]).

use rand::seq::SliceRandom;

use super::grid::SizedGrid;
use super::shape::{Geometry, Shape};
use super::solver::SizedSolver;
use crate::generator::stream;
use crate::solver::{Limits, Mode};

/// One generated puzzle and its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizedGenerated {
    /// The puzzle: exactly one solution.
    pub puzzle: SizedGrid,
    /// Its solution.
    pub solution: SizedGrid,
}

/// Makes puzzles of one shape; keep one per thread.
#[derive(Debug)]
pub struct SizedGenerator {
    shape: Shape,
    geometry: Geometry,
    /// Completes the diagonal boxes (its guess order fixes the grids).
    completer: SizedSolver,
    /// Checks that a dug puzzle keeps one solution.
    solver: SizedSolver,
}

impl SizedGenerator {
    /// A generator of puzzles with boxes `shape`.
    pub fn new(shape: Shape) -> SizedGenerator {
        SizedGenerator {
            shape,
            geometry: Geometry::new(shape),
            completer: SizedSolver::basic(),
            solver: SizedSolver::new(),
        }
    }

    /// Puzzle `index` under `seed`; minimal when `minimal` (see the module
    /// docs). `stop` is asked before each start and each given tried, and
    /// inside every search: `None` once it returns true (a minimal 25x25
    /// puzzle takes a minute, and an interrupt must not wait for it).
    pub fn generate(
        &mut self,
        seed: u64,
        index: u64,
        minimal: bool,
        stop: &dyn Fn() -> bool,
    ) -> Option<SizedGenerated> {
        let mut rng = stream(seed, index);
        let solution = loop {
            if stop() {
                return None;
            }
            if let Some(s) = self.solution(&mut rng, stop) {
                break s;
            }
        };
        let puzzle = self.dig(&solution, &mut rng, minimal, stop)?;
        Some(SizedGenerated { puzzle, solution })
    }

    /// A random solution grid; `None` when the completion hit its guess
    /// limit.
    fn solution(
        &mut self,
        rng: &mut rand_xorshift::XorShiftRng,
        stop: &dyn Fn() -> bool,
    ) -> Option<SizedGrid> {
        let shape = self.shape;
        let (n, r, c) = (shape.side(), shape.box_rows(), shape.box_cols());
        let mut grid = SizedGrid::empty(shape);
        let mut values: Vec<u8> = (1..=n as u8).collect();
        for b in 0..(n / r).min(n / c) {
            values.shuffle(rng);
            for (k, &v) in values.iter().enumerate() {
                grid.set((b * r + k / c) * n + b * c + k % c, v);
            }
        }
        let limits = Limits {
            max_guesses: Some(100 * n as u64),
            timeout: None,
        };
        let search = self
            .completer
            .search_until(&grid, Mode::First, &limits, stop);
        let solved = search.first?;
        values.shuffle(rng);
        let cells = solved
            .cells()
            .iter()
            .map(|&v| values[usize::from(v) - 1])
            .collect();
        SizedGrid::from_cells(shape, cells)
    }

    /// The puzzle dug from `solution`; `None` when `stop` said so.
    fn dig(
        &mut self,
        solution: &SizedGrid,
        rng: &mut rand_xorshift::XorShiftRng,
        minimal: bool,
        stop: &dyn Fn() -> bool,
    ) -> Option<SizedGrid> {
        let n = self.shape.side();
        let mut order: Vec<usize> = (0..solution.cells().len()).collect();
        order.shuffle(rng);
        let mut puzzle = solution.clone();
        for cell in order {
            if stop() {
                return None;
            }
            let value = puzzle.get(cell);
            puzzle.set(cell, 0);
            let mut seen = 0u128;
            for &p in self.geometry.peers(cell) {
                seen |= 1 << puzzle.get(usize::from(p));
            }
            if (seen >> 1).count_ones() as usize == n - 1 {
                continue;
            }
            let search = self
                .solver
                .search_until(&puzzle, Mode::Unique, &Limits::default(), stop);
            if search.stopped.is_some() {
                return None;
            }
            if search.solutions != 1 {
                puzzle.set(cell, value);
                if !minimal {
                    break;
                }
            }
        }
        Some(puzzle)
    }
}
