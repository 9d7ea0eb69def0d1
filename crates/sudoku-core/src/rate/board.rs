//! The candidate grid the rater works on: values and candidate bitmasks,
//! the 27 units in Sudoku Explainer's order, and the application of a step.

use crate::grid::{Grid, CELLS};

/// Candidate bitmask of one cell: bit `d - 1` for digit `d`.
pub type Mask = u16;

/// All nine digits.
pub const ALL: Mask = 0x1ff;

/// Unit numbers: boxes 0..9, rows 9..18, columns 18..27. Sudoku Explainer
/// numbers its region types box 0, row 1, column 2 and lists the cells of a
/// box row-major, of a row left to right and of a column top to bottom; the
/// techniques walk the units in the orders it does.
pub const UNITS: [[u8; 9]; 27] = units();

/// The three units of each cell: box, row, column.
pub const CELL_UNITS: [[u8; 3]; CELLS] = cell_units();

/// The 20 peers of each cell, in increasing cell order.
pub const PEERS: [[u8; 20]; CELLS] = peers();

/// For each cell, its peers as a 81-bit set.
pub const PEER_SET: [u128; CELLS] = peer_sets();

/// For each unit, its cells as a 81-bit set.
pub const UNIT_SET: [u128; 27] = unit_sets();

/// Each cell's peers in the order the chains visit them: its box, then its
/// row, then its column, each cell once.
pub const ORDERED_PEERS: [[u8; 20]; 81] = ordered_peers();

const fn ordered_peers() -> [[u8; 20]; 81] {
    let mut out = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut seen = 1u128 << c;
        let mut k = 0;
        let mut t = 0;
        while t < 3 {
            let u = CELL_UNITS[c][t] as usize;
            let mut i = 0;
            while i < 9 {
                let o = UNITS[u][i] as usize;
                if seen >> o & 1 == 0 {
                    seen |= 1 << o;
                    out[c][k] = o as u8;
                    k += 1;
                }
                i += 1;
            }
            t += 1;
        }
        c += 1;
    }
    out
}

const fn units() -> [[u8; 9]; 27] {
    let mut u = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            u[i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            u[9 + i][j] = (i * 9 + j) as u8;
            u[18 + i][j] = (j * 9 + i) as u8;
            j += 1;
        }
        i += 1;
    }
    u
}

const fn cell_units() -> [[u8; 3]; CELLS] {
    let mut c = [[0u8; 3]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (r, col) = (i / 9, i % 9);
        c[i] = [(r / 3 * 3 + col / 3) as u8, (9 + r) as u8, (18 + col) as u8];
        i += 1;
    }
    c
}

const fn sees(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

const fn peers() -> [[u8; 20]; CELLS] {
    let mut p = [[0u8; 20]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut k = 0;
        let mut j = 0;
        while j < CELLS {
            if sees(i, j) {
                p[i][k] = j as u8;
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    p
}

const fn peer_sets() -> [u128; CELLS] {
    let mut p = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut j = 0;
        while j < CELLS {
            if sees(i, j) {
                p[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    p
}

const fn unit_sets() -> [u128; 27] {
    let mut s = [0u128; 27];
    let mut u = 0;
    while u < 27 {
        let mut j = 0;
        while j < 9 {
            s[u] |= 1 << UNITS[u][j];
            j += 1;
        }
        u += 1;
    }
    s
}

/// Iterates over the set bits of a 128-bit cell set.
pub fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// Iterates over the set bits of a 16-bit mask, lowest first.
pub fn bits(mut m: Mask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            b
        })
    })
}

/// The grid while it is being rated: placed values and the candidates of
/// the empty cells.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// Cell values, 0 for empty.
    pub value: [u8; CELLS],
    /// Candidates of each empty cell (0 for a filled one).
    pub cand: [Mask; CELLS],
}

impl Board {
    /// The board of a puzzle: the givens placed and every empty cell's
    /// candidates the digits no peer holds.
    pub fn new(puzzle: &Grid) -> Board {
        let mut b = Board {
            value: [0; CELLS],
            cand: [ALL; CELLS],
        };
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                b.place(i, v as usize);
            }
        }
        b
    }

    /// Places digit `d` (1..=9) in cell `c` and removes it from the peers.
    pub fn place(&mut self, c: usize, d: usize) {
        self.value[c] = d as u8;
        self.cand[c] = 0;
        let bit = !(1 << (d - 1));
        for &p in &PEERS[c] {
            self.cand[p as usize] &= bit;
        }
    }

    /// Whether every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.value.iter().all(|&v| v != 0)
    }

    /// Positions (indexes 0..9 within the unit) where digit `d` (1..=9) is
    /// still a candidate.
    #[inline]
    pub fn positions(&self, unit: usize, d: usize) -> Mask {
        let bit = 1 << (d - 1);
        let mut m = 0;
        for (i, &c) in UNITS[unit].iter().enumerate() {
            if self.cand[c as usize] & bit != 0 {
                m |= 1 << i;
            }
        }
        m
    }

    /// Empty cells in a unit.
    #[inline]
    pub fn empty_count(&self, unit: usize) -> u32 {
        UNITS[unit]
            .iter()
            .filter(|&&c| self.value[c as usize] == 0)
            .count() as u32
    }
}
