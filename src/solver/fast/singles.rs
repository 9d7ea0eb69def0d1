//! The cheap engine of the fast solver: naked and hidden singles over
//! per-cell candidates, with the set-up and the repeated-given check fused
//! into one pass over the cells.
//!
//! Most puzzles of public data sets (the Kaggle sets: all of them) are
//! solved by singles alone, and for them the strong engine's set-up costs
//! more than the solving. This engine keeps, per unit, the digits already
//! placed (one 9-bit mask per row, column and box) and a list of the open
//! cells; a cell's candidates are the digits none of its three units holds.
//!
//! Every placement it makes is a deduction that holds in every solution (a
//! naked or hidden single), and the strong engine makes each of them too
//! (see the module docs of `band`): so handing it a grid this engine left
//! stalled gives the same propagated state, the same guesses and the same
//! result as handing it the givens. A grid completed by singles alone has
//! exactly one solution, in both modes.
//!
//! The routing (cheap engine first, the strong one only for grids that
//! stall) follows the description of fastdoku's design; the code is this
//! project's own.

use crate::grid::{Grid, CELLS, UNITS};

/// All nine digits, bit `d` for digit `d + 1`.
const ALL: u16 = 0x1FF;

/// For every cell, the indices of its row, column and box in
/// [`Singles::used`]: rows 0..9, columns 9..18, boxes 18..27.
const UNITS_OF: [[u8; 3]; CELLS] = {
    let mut t = [[0u8; 3]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        t[cell] = [r as u8, 9 + c as u8, 18 + (r / 3 * 3 + c / 3) as u8];
        cell += 1;
    }
    t
};

/// A pass over the open cells that fills fewer than one in `TRICKLE` ends
/// the singles engine's work (see [`Singles::run`]).
const TRICKLE: usize = 8;

/// How a run of singles ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Singled {
    /// Every cell is filled: the grid's only solution.
    Solved,
    /// Some cell or unit has no candidate left: no solution.
    Contradiction,
    /// No single left, some cells open: the strong engine takes over.
    Stalled,
}

/// The cell-based state of the singles engine.
pub(super) struct Singles {
    /// Cell values, 0 for open.
    cells: [u8; CELLS],
    /// Per unit (see [`UNITS_OF`]), the digits placed in it.
    used: [u16; 27],
    /// Per open cell, its candidates as of the last pass over the open
    /// cells (0 once filled): never fewer than the true candidates.
    cand: [u16; CELLS],
    /// The open cells (the first `open_len` entries), ascending.
    open: [u8; CELLS],
    open_len: usize,
}

/// Below this many givens singles rarely fill a grid (Royle's 17-clue
/// puzzles, the hardest lists): [`Singles::run`] leaves such grids to the
/// strong engine at once.
const FEW_GIVENS: usize = 22;

impl Singles {
    /// The state for a grid's givens, or `None` when a digit is repeated in
    /// a unit. A unit's mask has one bit per distinct digit, so the givens
    /// repeat a digit exactly when the masks hold fewer bits, all together,
    /// than three per given.
    #[inline(always)]
    pub(super) fn new(grid: &Grid) -> Option<Singles> {
        let cells = *grid.cells();
        let mut used = [0u16; 27];
        let mut open = [0u8; CELLS];
        let mut open_len = 0;
        let mut givens = 0;
        for (cell, &value) in cells.iter().enumerate() {
            // Digit `v` is bit `v - 1`; a blank (0) sets no bit.
            let bit = (1u16 << value) >> 1;
            let [r, c, b] = UNITS_OF[cell];
            used[r as usize] |= bit;
            used[c as usize] |= bit;
            used[b as usize] |= bit;
            open[open_len] = cell as u8;
            open_len += usize::from(value == 0);
            givens += u32::from(value != 0);
        }
        let bits: u32 = used.iter().map(|m| m.count_ones()).sum();
        (bits == 3 * givens).then_some(Singles {
            cells,
            used,
            cand: [0; CELLS],
            open,
            open_len,
        })
    }

    /// The number of open cells.
    #[inline(always)]
    pub(super) fn open(&self) -> usize {
        self.open_len
    }

    /// The grid as far as it is filled.
    #[inline(always)]
    pub(super) fn grid(&self) -> Grid {
        Grid::from_cells(self.cells).unwrap_or(Grid::EMPTY)
    }

    /// Places naked and hidden singles until the grid is full, a
    /// contradiction shows, or no single is left; does nothing on a grid
    /// with fewer than [`FEW_GIVENS`] givens. Also gives up
    /// (`Stalled`) when a pass over the open cells or the units fills less
    /// than an eighth of the open cells: singles are then trickling in one chain at a time,
    /// which the strong engine, working per digit and band, follows at a
    /// lower cost than repeated passes.
    #[inline(always)]
    pub(super) fn run(&mut self) -> Singled {
        if CELLS - self.open_len < FEW_GIVENS {
            return Singled::Stalled;
        }
        loop {
            match self.naked() {
                Ok(true) => continue,
                Ok(false) => {}
                Err(end) => return end,
            }
            match self.hidden() {
                Ok(placed) if placed * TRICKLE >= self.open_len => {}
                Ok(_) => return Singled::Stalled,
                Err(end) => return end,
            }
        }
    }

    /// One pass over the open cells, placing every naked single at once
    /// (each later cell sees the earlier placements). Returns whether
    /// something was placed (when nothing was, the candidates are exact, for
    /// [`Singles::hidden`]), or how the run ends.
    #[inline(always)]
    fn naked(&mut self) -> Result<bool, Singled> {
        let (mut kept, mut dead, mut placed) = (0, false, 0);
        let before = self.open_len;
        for i in 0..before {
            let cell = self.open[i] as usize;
            if self.cells[cell] != 0 {
                // Filled by a hidden single since the last pass.
                continue;
            }
            let [r, c, b] = UNITS_OF[cell].map(usize::from);
            let cand = !(self.used[r] | self.used[c] | self.used[b]) & ALL;
            // Branch-free: a cell left with one candidate (or none, caught
            // after the pass) is filled, others stay open.
            let single = cand & cand.wrapping_sub(1) == 0;
            dead |= cand == 0;
            let bit = if single { cand } else { 0 };
            self.used[r] |= bit;
            self.used[c] |= bit;
            self.used[b] |= bit;
            self.cells[cell] = if single {
                (cand | 0x200).trailing_zeros() as u8 + 1
            } else {
                0
            };
            self.cand[cell] = cand & !bit;
            self.open[kept] = cell as u8;
            kept += usize::from(!single);
            placed += usize::from(single);
        }
        self.open_len = kept;
        if dead {
            Err(Singled::Contradiction)
        } else if kept == 0 {
            Err(Singled::Solved)
        } else if placed == 0 {
            Ok(false)
        } else if placed * TRICKLE >= before {
            Ok(true)
        } else {
            Err(Singled::Stalled)
        }
    }

    /// One pass over the 27 units placing hidden singles (a digit with one
    /// open cell left in a unit). Returns how many it placed, or
    /// `Contradiction`.
    ///
    /// Candidates go stale as digits are placed during the pass, but only
    /// ever hold too many digits: a digit seen in one cell of a unit has at
    /// most that cell, and one that cannot go there (a peer took it) has
    /// none, a contradiction.
    #[inline(always)]
    fn hidden(&mut self) -> Result<usize, Singled> {
        let mut placed = 0;
        for (u, unit) in UNITS.iter().enumerate() {
            let (mut one, mut two) = (0u16, 0u16);
            for &cell in unit {
                let x = self.cand[cell as usize];
                two |= one & x;
                one |= x;
            }
            let used = self.used[u];
            if (one | used) != ALL {
                return Err(Singled::Contradiction);
            }
            let mut hidden = one & !two & !used;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden ^= bit;
                let Some(&cell) = unit
                    .iter()
                    .find(|&&cell| self.cand[cell as usize] & bit != 0)
                else {
                    // Its one cell took another hidden single of this unit.
                    return Err(Singled::Contradiction);
                };
                let cell = cell as usize;
                let [r, c, b] = UNITS_OF[cell].map(usize::from);
                if (self.used[r] | self.used[c] | self.used[b]) & bit != 0 {
                    return Err(Singled::Contradiction);
                }
                self.used[r] |= bit;
                self.used[c] |= bit;
                self.used[b] |= bit;
                self.cells[cell] = bit.trailing_zeros() as u8 + 1;
                self.cand[cell] = 0;
                placed += 1;
            }
        }
        Ok(placed)
    }
}
