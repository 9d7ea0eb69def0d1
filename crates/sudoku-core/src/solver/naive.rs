//! The reference solver: plain recursive backtracking as in the classic
//! LeetCode 37 approach. It takes the first empty cell in row-major order,
//! scans its row, column and box for the digits still allowed, and tries them
//! in order 1..9. Fine on easy puzzles, hopeless on hard ones (days for the
//! 17-clue list), hence its placement limit.

use super::{LimitClock, Limits, Mode, Search, Solver};
use crate::grid::{Grid, CELLS, PEERS};

/// Default most placements per search: 10,000,000.
pub const DEFAULT_MAX_PLACEMENTS: u64 = 10_000_000;

/// The reference first-empty-cell backtracking solver.
#[derive(Clone, Debug)]
pub struct NaiveSolver {
    max_placements: u64,
}

impl Default for NaiveSolver {
    fn default() -> Self {
        NaiveSolver::new()
    }
}

impl NaiveSolver {
    /// A naive solver with the default placement limit
    /// ([`DEFAULT_MAX_PLACEMENTS`]).
    pub fn new() -> NaiveSolver {
        NaiveSolver::with_max_placements(DEFAULT_MAX_PLACEMENTS)
    }

    /// A naive solver that stops with `timeout` after `max_placements`
    /// placements (every digit written into a cell counts one).
    pub fn with_max_placements(max_placements: u64) -> NaiveSolver {
        NaiveSolver { max_placements }
    }
}

struct Run {
    cells: [u8; CELLS],
    target: u8,
    solutions: u8,
    first: Option<Grid>,
    second: Option<Grid>,
    guesses: u64,
    placements: u64,
    max_placements: u64,
    clock: LimitClock,
    stopped: Option<String>,
}

impl Run {
    /// Digits 1..=9 allowed in `cell`, as bits 1..=9.
    fn allowed(&self, cell: usize) -> u16 {
        let mut used = 0u16;
        for &p in &PEERS[cell] {
            used |= 1 << self.cells[p as usize];
        }
        !used & 0x3FE
    }

    /// Returns true when the search must stop (enough solutions or a limit).
    fn recurse(&mut self, from: usize) -> bool {
        let Some(cell) = (from..CELLS).find(|&c| self.cells[c] == 0) else {
            self.solutions += 1;
            if self.first.is_none() {
                self.first = Grid::from_cells(self.cells);
            } else if self.second.is_none() {
                self.second = Grid::from_cells(self.cells);
            }
            return self.solutions >= self.target;
        };
        let allowed = self.allowed(cell);
        let guessing = allowed.count_ones() >= 2;
        for digit in 1..=9u8 {
            if allowed & (1 << digit) == 0 {
                continue;
            }
            // A placement past a limit is refused, not made: neither count
            // ever exceeds its limit.
            let guesses = self.guesses + u64::from(guessing);
            if self.placements + 1 > self.max_placements {
                self.stopped = Some(format!("placement limit {} exceeded", self.max_placements));
                return true;
            }
            if let Some(why) = self.clock.exceeded(guesses, self.placements + 1) {
                self.stopped = Some(why);
                return true;
            }
            self.placements += 1;
            self.guesses = guesses;
            self.cells[cell] = digit;
            if self.recurse(cell + 1) {
                return true;
            }
        }
        self.cells[cell] = 0;
        false
    }
}

impl Solver for NaiveSolver {
    fn name(&self) -> &'static str {
        "naive"
    }

    fn search(&mut self, grid: &Grid, mode: Mode, limits: &Limits) -> Search {
        let mut run = Run {
            cells: *grid.cells(),
            target: if mode == Mode::Unique { 2 } else { 1 },
            solutions: 0,
            first: None,
            second: None,
            guesses: 0,
            placements: 0,
            max_placements: self.max_placements,
            clock: LimitClock::start(limits),
            stopped: None,
        };
        run.recurse(0);
        Search {
            solutions: run.solutions,
            first: run.first,
            second: run.second,
            guesses: run.guesses,
            stopped: run.stopped,
        }
    }
}
