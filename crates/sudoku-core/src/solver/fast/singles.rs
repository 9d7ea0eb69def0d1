//! The cheap engine of the fast solver: naked singles over per-digit
//! bitboards, with the set-up and the repeated-given check fused into one
//! pass over the givens.
//!
//! Most puzzles of public data sets (the Kaggle sets: all of them) are
//! solved by naked singles alone, and for them the strong engine's set-up
//! costs more than the solving. This engine keeps, for every digit, one
//! 81-bit board of the open cells where the digit can still go (two `u64`
//! words: cells 0..64 and 64..81). Placing a digit clears its cell's 20
//! peers on that digit's board, read from a table. The naked singles of the
//! whole grid then come out of a few bitwise operations over the nine
//! boards at once: the open cells seen on exactly one board. Every round
//! places all of them together, as in JCZSolve's description of solving
//! easy puzzles with bitboards; the code is this project's own.
//!
//! Every placement it makes is a deduction that holds in every solution (a
//! naked single), and the strong engine makes each of them too (see the
//! module docs of `band`): so handing it a grid this engine left stalled
//! gives the same propagated state, the same guesses and the same result as
//! handing it the givens. A grid completed by singles alone has exactly one
//! solution, in both modes. Hidden singles are left to the strong engine,
//! which finds them per digit and band at a lower cost than a pass over the
//! units here (the Kaggle puzzles almost never need one).
//!
//! The routing (cheap engine first, the strong one only for grids that
//! stall) follows the description of fastdoku's design.

use crate::grid::{Grid, PEERS};

/// An 81-bit set of cells: bit `c` of word `c / 64` for cell `c`.
pub(super) type Board = [u64; 2];

/// The 81 cells of a grid.
const FULL: Board = [u64::MAX, (1 << 17) - 1];

/// For every cell, its 20 peers as a board.
static PEER_BOARDS: [Board; 81] = {
    let mut t = [[0u64; 2]; 81];
    let mut cell = 0;
    while cell < 81 {
        let mut i = 0;
        while i < 20 {
            let p = PEERS[cell][i] as usize;
            t[cell][p / 64] |= 1 << (p % 64);
            i += 1;
        }
        cell += 1;
    }
    t
};

/// A round of naked singles that fills fewer than one in `TRICKLE` of the
/// open cells ends the singles engine's work (see [`Singles::run`]).
const TRICKLE: u32 = 16;

/// Below this many givens naked singles rarely fill a grid (Royle's
/// 17-clue puzzles, the hardest lists): [`Singles::run`] leaves such grids
/// to the strong engine at once.
pub(super) const FEW_GIVENS: u32 = 22;

/// True when a grid with these filled cells ([`filled`]) has fewer than
/// [`FEW_GIVENS`] givens.
#[inline(always)]
pub(super) fn few_givens(filled: Board) -> bool {
    filled[0].count_ones() + filled[1].count_ones() < FEW_GIVENS
}

/// How a run of singles ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ran {
    /// Every cell is filled: the grid's only solution.
    Solved,
    /// Some cell has no candidate left, or two naked singles put one digit
    /// twice in a unit: no solution.
    Contradiction,
    /// No naked single left (or too few), some cells open: the strong
    /// engine takes over.
    Stalled,
}

/// The bitboard state of the singles engine.
pub(super) struct Singles {
    /// Cell values, 0 for open.
    cells: [u8; 81],
    /// Per digit value (index 1..=9; 0 and 10..16 unused, so that a cell
    /// value masked to four bits indexes it without a bounds check), the
    /// open cells where the digit can go.
    cand: [Board; 16],
    /// The open cells.
    open: Board,
}

impl Singles {
    /// The state for a grid's givens, or `None` when a digit is repeated in
    /// a unit. Each given clears its peers on its digit's board; a given
    /// found already cleared on its own board has a peer with its digit.
    #[inline(always)]
    pub(super) fn new(grid: &Grid) -> Option<Singles> {
        Singles::with_filled(grid, filled(grid.cells()))
    }

    /// [`Singles::new`] with the grid's filled cells already found
    /// ([`filled`]).
    #[inline(always)]
    pub(super) fn with_filled(grid: &Grid, filled: Board) -> Option<Singles> {
        let mut singles = Singles::unplaced(grid, filled);
        singles.place_givens().then_some(singles)
    }

    /// The state for a grid whose filled cells are `filled` ([`filled`])
    /// before its givens are placed ([`Singles::place_givens`]): every
    /// digit's board full. Apart from [`Singles::with_filled`] so that a
    /// caller can set the engine up where it keeps it: moving it into and
    /// out of an `Option` copies its 360 bytes through `memcpy`.
    #[inline(always)]
    pub(super) fn unplaced(grid: &Grid, filled: Board) -> Singles {
        Singles {
            cells: *grid.cells(),
            cand: [FULL; 16],
            open: [FULL[0] & !filled[0], FULL[1] & !filled[1]],
        }
    }

    /// Places the givens of [`Singles::unplaced`]'s state (its cells not
    /// open) and keeps the digits' boards to the open cells; false when a
    /// digit is repeated in a unit.
    #[inline(always)]
    pub(super) fn place_givens(&mut self) -> bool {
        let filled = [FULL[0] & !self.open[0], FULL[1] & !self.open[1]];
        let mut repeated = 0;
        for (word, &bits) in filled.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let digit = usize::from(self.cells[64 * word + bit] & 15);
                repeated |= self.place(word, bit, digit);
            }
        }
        let open = self.open;
        for board in &mut self.cand[1..10] {
            board[0] &= open[0];
            board[1] &= open[1];
        }
        repeated == 0
    }

    /// Places `digit` (1..=9) in cell `64 * word + bit`: clears the cell's
    /// peers on the digit's board. Returns non-zero when the digit could not
    /// go there (a peer holds it).
    #[inline(always)]
    fn place(&mut self, word: usize, bit: usize, digit: usize) -> u64 {
        let cell = 64 * word + bit;
        let board = &mut self.cand[digit];
        let missing = !board[word] >> bit & 1;
        let peers = &PEER_BOARDS[cell];
        board[0] &= !peers[0];
        board[1] &= !peers[1];
        missing
    }

    /// The number of open cells.
    #[inline(always)]
    pub(super) fn open(&self) -> usize {
        (self.open[0].count_ones() + self.open[1].count_ones()) as usize
    }

    /// The grid as far as it is filled.
    #[inline(always)]
    pub(super) fn grid(&self) -> Grid {
        Grid::from_cells(self.cells).unwrap_or(Grid::EMPTY)
    }

    /// The hand-over to the strong engine: per digit (index 0..9 for
    /// 1..=9), the board of the cells holding it or where it can still go,
    /// and the board of the filled cells. Only the filled cells are visited,
    /// so a grid with few givens costs little more than its bitboards.
    #[inline(always)]
    pub(super) fn boards(&self) -> ([Board; 9], Board) {
        let filled = [FULL[0] & !self.open[0], FULL[1] & !self.open[1]];
        let mut boards: [Board; 9] = std::array::from_fn(|d| self.cand[d + 1]);
        for (word, &bits) in filled.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let digit = usize::from(self.cells[64 * word + bit] & 15);
                boards[digit.wrapping_sub(1) % 9][word] |= 1 << bit;
            }
        }
        (boards, filled)
    }

    /// Places naked singles, a round at a time, until the grid is full, a
    /// contradiction shows, or no single is left; does nothing on a grid
    /// with fewer than [`FEW_GIVENS`] givens. Also gives up (`Stalled`) when
    /// a round fills fewer than a sixteenth of the open cells: singles are
    /// then trickling in one chain at a time, which the strong engine,
    /// working per digit and band, follows at a lower cost.
    #[inline(always)]
    pub(super) fn run(&mut self) -> Ran {
        if 81 - (self.open() as u32) < FEW_GIVENS {
            return Ran::Stalled;
        }
        loop {
            // Per cell, whether one board holds it, and whether two do.
            let (mut one, mut two) = ([0u64; 2], [0u64; 2]);
            for board in &self.cand[1..10] {
                for w in 0..2 {
                    two[w] |= one[w] & board[w];
                    one[w] |= board[w];
                }
            }
            let open = self.open;
            if (open[0] & !one[0]) | (open[1] & !one[1]) != 0 {
                return Ran::Contradiction;
            }
            let naked = [open[0] & !two[0], open[1] & !two[1]];
            let placed = naked[0].count_ones() + naked[1].count_ones();
            let left = open[0].count_ones() + open[1].count_ones();
            if placed == 0 || placed * TRICKLE < left {
                return Ran::Stalled;
            }
            // The digit of a naked single, bit by bit: bit `k` of its value
            // is set when its one board is that of a value with bit `k`.
            let c = &self.cand;
            let plane = |w: usize| {
                [
                    c[1][w] | c[3][w] | c[5][w] | c[7][w] | c[9][w],
                    c[2][w] | c[3][w] | c[6][w] | c[7][w],
                    c[4][w] | c[5][w] | c[6][w] | c[7][w],
                    c[8][w] | c[9][w],
                ]
            };
            let planes = [plane(0), plane(1)];
            let mut repeated = 0;
            for (word, &bits) in naked.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let [p0, p1, p2, p3] = planes[word];
                    let digit = (p0 >> bit & 1)
                        | (p1 >> bit & 1) << 1
                        | (p2 >> bit & 1) << 2
                        | (p3 >> bit & 1) << 3;
                    self.cells[64 * word + bit] = digit as u8;
                    repeated |= self.place(word, bit, digit as usize);
                }
            }
            if repeated != 0 {
                return Ran::Contradiction;
            }
            let open = [open[0] & !naked[0], open[1] & !naked[1]];
            self.open = open;
            if open == [0, 0] {
                return Ran::Solved;
            }
            for board in &mut self.cand[1..10] {
                board[0] &= open[0];
                board[1] &= open[1];
            }
        }
    }
}

/// The filled cells of a grid as a board, eight cells at a time: a byte's
/// high bit is set when the byte is not zero, and a multiplication gathers
/// the eight high bits into one byte.
#[inline(always)]
pub(super) fn filled(cells: &[u8; 81]) -> Board {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let eight = |i: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&cells[8 * i..8 * i + 8]);
        let x = u64::from_le_bytes(bytes);
        let nonzero = (x | ((x & LOW7) + LOW7)) & HIGH;
        (nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
    };
    let mut board = [0u64; 2];
    for i in 0..10 {
        board[i / 8] |= eight(i) << (8 * (i % 8));
    }
    board[1] |= u64::from(cells[80] != 0) << 16;
    board
}
