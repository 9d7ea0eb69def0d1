//! The strong engine of the fast solver: band-oriented bitmask candidates,
//! propagation of the band and stack rules and of singles, and a
//! depth-first search guessing on a cell with the fewest candidates.
//!
//! # Representation
//! The grid is split into three bands (rows 1-3, 4-6, 7-9). For every digit
//! and band one `u32` holds a 27-bit mask of the band's cells where the digit
//! is still a candidate (bit `9 * row_in_band + column`). This is the layout
//! described for JCZSolve and used, with SIMD, by tdoku: one digit's
//! constraints inside a band are then a few shifts and table look-ups. The
//! masks are stored band by band, so a band's nine digits are adjacent and a
//! cell leaves all of them in one vector operation (the compiler vectorises
//! these branch-free loops at each instruction-set level).
//!
//! Set-up takes the singles engine's per-digit bitboards as they are: each
//! filled cell's digit has already left the cell's row, column and box
//! there (the first deductions propagation would make, one cell at a time),
//! so the boards are only cut into bands and each filled cell's row marked
//! as fixed for its digit, without a pass over the 81 cells.
//!
//! # Propagation
//! For one digit in one band:
//! - *Locked candidates in the band.* Each row and each box of the band holds
//!   the digit exactly once, so the rows use the three boxes in some
//!   permutation. The nine "minirows" (row x box segments) still holding the
//!   digit are looked up in a table of the segments that belong to at least
//!   one such permutation; the others are cleared. No permutation left is a
//!   contradiction. This also finds every hidden single in a box: a box with
//!   one cell left forces its row's segment, which leaves the row one cell.
//! - *Hidden single in a row.* A row left with one cell for the digit fixes
//!   that cell: the digit leaves the cell's column (in every band) and the
//!   other digits leave the cell.
//!
//! Across digits, a cell left with one candidate (*naked single*) is placed,
//! and a cell left with none is a contradiction.
//!
//! # Search
//! When propagation stalls, the solver guesses on a cell with the fewest
//! candidates (the bivalue cell with the most open cells among its peers
//! when there is one), trying its candidates in ascending order on copies of
//! the state (the last one in place). The propagation rules only remove
//! candidates, so the state they stop at does not depend on the order the
//! masks are visited in: the guesses are the same on every path.
//!
//! Ideas from Tom Dillon's write-up of tdoku ("Fast Sudoku solver", 2019),
//! the JCZSolve band representation (Zhouyundong, 2012, as described on the
//! New Sudoku Players' Forum) and Peter Norvig's essay "Solving Every Sudoku
//! Puzzle"; the code is this project's own.

use crate::grid::{Grid, CELLS};
use crate::solver::{LimitClock, Limits, Search};

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// The 9 cells of row `rb` (0..3) of a band.
const fn row_mask(rb: usize) -> u32 {
    0x1FF << (9 * rb)
}

/// The index of a digit's (0..9) mask in a band (0..3) in [`State`]'s
/// candidates and in dirty bits.
#[inline(always)]
const fn at(digit: usize, band: usize) -> usize {
    9 * band + digit
}

/// For row `rb` (0..3) of a band and its 9-bit mask: the row's part of a
/// [`shape`], bit `3 * rb + k` set when the row's segment in box `k` is not
/// empty and bit `9 + rb` set when the row holds exactly one cell.
const fn build_shapes() -> [[u16; 512]; 3] {
    let mut t = [[0u16; 512]; 3];
    let mut rb = 0;
    while rb < 3 {
        let mut x = 0;
        while x < 512 {
            let mut k = 0;
            while k < 3 {
                if (x >> (3 * k)) & 7 != 0 {
                    t[rb][x] |= 1 << (3 * rb + k);
                }
                k += 1;
            }
            if (x as u32).count_ones() == 1 {
                t[rb][x] |= 1 << (9 + rb);
            }
            x += 1;
        }
        rb += 1;
    }
    t
}

/// For a 9-bit mask of minirows (bit `3 * row + box`): the union of the
/// permutations (one segment per row and per box) contained in it; 0 when
/// there is none.
const fn build_permutations() -> [u16; 512] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let bits = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
            if m & bits == bits {
                t[m] |= bits as u16;
            }
            p += 1;
        }
        m += 1;
    }
    t
}

/// For a 9-bit mask of minirows: the 27-bit mask of their cells.
const fn build_expand() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut s = 0;
        while s < 9 {
            if m & (1 << s) != 0 {
                t[m] |= 7 << (9 * (s / 3) + 3 * (s % 3));
            }
            s += 1;
        }
        m += 1;
    }
    t
}

/// For a 3-bit mask of rows in a band: the 27-bit mask of their cells.
const ROWS: [u32; 8] = [
    0,
    row_mask(0),
    row_mask(1),
    row_mask(0) | row_mask(1),
    row_mask(2),
    row_mask(0) | row_mask(2),
    row_mask(1) | row_mask(2),
    BAND,
];

/// For a cell at bit `32 * band + pos` of a grid mask (band `band`'s
/// cell bit `pos` at bit `32 * band + pos`, as [`grid_mask`] lays the
/// bands out): the cells in its row, column and box, itself included. 128
/// entries, so that any bit of a `u128` indexes it.
static PEERS: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut band = 0;
    while band < 3 {
        let mut pos = 0;
        while pos < 27 {
            let (rb, col) = (pos / 9, pos % 9);
            let own = row_mask(rb) | 0x1C0E07 << (3 * (col / 3));
            let mut peers = (own as u128) << (32 * band);
            let mut other = 0;
            while other < 3 {
                peers |= ((0x40201u32 << col) as u128) << (32 * other);
                other += 1;
            }
            t[32 * band + pos] = peers;
            pos += 1;
        }
        band += 1;
    }
    t
};
/// [`PEERS`] for the scalar level's choice ([`pick_bivalue`] without
/// POPCNT), by the same index: the peers in the cell's own band (low 32
/// bits) and its column in the first other band (from bit 32).
static NEAR_PEERS: [u64; 128] = {
    let mut t = [0u64; 128];
    let mut at = 0;
    while at < 128 {
        let (own, column) = peer_halves(at);
        t[at] = own as u64 | (column as u64) << 32;
        at += 1;
    }
    t
};
/// [`PEERS`] for the scalar level's choice, by the same index: the cell's
/// column one bit over from bit 32, for the second other band.
static FAR_PEERS: [u64; 128] = {
    let mut t = [0u64; 128];
    let mut at = 0;
    while at < 128 {
        t[at] = (peer_halves(at).1 as u64) << 33;
        at += 1;
    }
    t
};

/// For grid mask bit `at` (as [`PEERS`] indexes): the cell's row, column
/// and box in its own band, and its column in a band; none past a band's
/// 27 cells.
const fn peer_halves(at: usize) -> (u32, u32) {
    let pos = at % 32;
    if pos >= 27 || at >= 96 {
        return (0, 0);
    }
    let (rb, col) = (pos / 9, pos % 9);
    let column = 0x40201 << col;
    (row_mask(rb) | 0x1C0E07 << (3 * (col / 3)) | column, column)
}
static SHAPES: [[u16; 512]; 3] = build_shapes();
/// For a band (0..3): the two other bands.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];
/// For a 9-bit mask of minirows (bit `3 * row + box`): bit `row` set when
/// the row has a minirow in it.
static ROW_OF_MINIROWS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut rb = 0;
        while rb < 3 {
            if (m >> (3 * rb)) & 7 != 0 {
                t[m] |= 1 << rb;
            }
            rb += 1;
        }
        m += 1;
    }
    t
};
static PERMUTATIONS: [u16; 512] = build_permutations();
static EXPAND: [u32; 512] = build_expand();
/// For a 9-bit mask of minirows: the cells of the permutations it contains
/// (`EXPAND` of `PERMUTATIONS`), one look-up instead of two on the band
/// rule's critical path; 0 when there is none.
static KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = EXPAND[PERMUTATIONS[m] as usize];
        m += 1;
    }
    t
};

/// The shape of a band's 27-bit cell mask: bits 0..9 its minirows (bit
/// `3 * row + box` set when that segment is not empty), bits 9..12 the rows
/// holding exactly one cell.
#[inline(always)]
fn shape(m: u32) -> u32 {
    let row = |rb: usize| SHAPES[rb][((m >> (9 * rb)) & 0x1FF) as usize] as u32;
    row(0) | row(1) | row(2)
}

/// The whole search state; small and `Copy`, so a guess copies it.
#[derive(Clone, Copy, Debug)]
pub(super) struct State {
    /// Candidate masks, index `9 * band + digit` (digit 0..9 for 1..=9; see
    /// [`at`]): a band's nine digits are adjacent, so clearing a cell from
    /// all of them is one vector operation.
    cand: [u32; 27],
    /// Per band, the cells not yet fixed.
    unsolved: [u32; 3],
    /// Per band, bit `3 * digit + row_in_band` set once the digit is fixed
    /// in that row.
    fixed: [u32; 3],
}

/// Why propagation stopped early: the state has no solution.
pub(super) struct Contradiction;

impl State {
    const START: State = State {
        cand: [BAND; 27],
        unsolved: [BAND; 3],
        fixed: [0; 3],
    };

    /// The state for a grid's givens before any propagation: each given is
    /// fixed, and its digit leaves the given's row, column and box (what
    /// propagation would deduce first, done here for all givens at once).
    /// Repeated givens are not searched for cell by cell (see
    /// [`Grid::first_conflict`]): a digit given twice in a unit leaves an
    /// empty mask, so the state has no solution. The reference the tests
    /// hold [`State::from_boards`] and the routed solver to.
    #[cfg(test)]
    pub(super) fn from_givens(grid: &Grid) -> State {
        let mut givens = [0u32; 27];
        let mut filled = [0u32; 3];
        for (cell, &value) in grid.cells().iter().enumerate() {
            if value != 0 {
                let (band, bit) = (cell / 27, 1 << (cell % 27));
                givens[at(value as usize - 1, band)] |= bit;
                filled[band] |= bit;
            }
        }
        let mut state = State::START;
        state.unsolved = filled.map(|f| BAND & !f);
        for digit in 0..9 {
            let given: [u32; 3] = std::array::from_fn(|band| givens[at(digit, band)]);
            let cols = given
                .iter()
                .fold(0, |acc, &g| acc | (g | g >> 9 | g >> 18) & 0x1FF);
            let column_cells = cols * 0x40201;
            // Each unit holds the digit at most once exactly when the givens
            // use as many rows, columns and boxes as there are givens.
            let (mut count, mut rows_used, mut boxes_used) = (0, 0, 0);
            for band in 0..3 {
                let shape = shape(given[band]);
                let rows = ROW_OF_MINIROWS[shape as usize & 0x1FF];
                let boxes = (shape | shape >> 3 | shape >> 6) & 7;
                count += given[band].count_ones();
                rows_used += rows.count_ones();
                boxes_used += boxes.count_ones();
                let box_cells = EXPAND[(boxes | boxes << 3 | boxes << 6) as usize];
                state.cand[at(digit, band)] =
                    (BAND & !filled[band] & !ROWS[rows as usize] & !column_cells & !box_cells)
                        | given[band];
                state.fixed[band] |= rows << (3 * digit);
            }
            if count != cols.count_ones() || count != rows_used || count != boxes_used {
                state.cand[at(digit, 0)] = 0;
            }
        }
        state
    }

    /// The state for the singles engine's hand-over (see `Singles::boards`):
    /// per digit, the 81-bit board of the cells holding it or where it can
    /// still go, and the board of the filled cells. Those boards already
    /// hold what [`State::from_givens`] deduces (a filled cell's digit gone
    /// from its peers), so this only cuts them into bands and marks the rows
    /// holding each digit as fixed: the same state, without a pass over the
    /// 81 cells.
    #[inline(always)]
    pub(super) fn from_boards(boards: &[[u64; 2]; 9], filled: [u64; 2]) -> State {
        let bands = |b: [u64; 2]| {
            [
                b[0] as u32 & BAND,
                (b[0] >> 27) as u32 & BAND,
                ((b[0] >> 54) | (b[1] << 10)) as u32 & BAND,
            ]
        };
        let filled = bands(filled);
        let mut state = State::START;
        state.unsolved = filled.map(|f| BAND & !f);
        for (digit, &board) in boards.iter().enumerate() {
            for (band, m) in bands(board).into_iter().enumerate() {
                state.cand[at(digit, band)] = m;
                let shape = shape(m & filled[band]);
                state.fixed[band] |= ROW_OF_MINIROWS[shape as usize & 0x1FF] << (3 * digit);
            }
        }
        state
    }

    /// The state for candidate masks and open cells set up by
    /// `wide::from_givens`, before propagation. `fixed` is left empty: the
    /// wide propagation, which runs first, sets it.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn for_wide(cand: [u32; 27], unsolved: [u32; 3]) -> State {
        State {
            cand,
            unsolved,
            fixed: [0; 3],
        }
    }

    /// Places `digit` in `band` at cell bit `bit`: the other cells of its
    /// row lose the digit and the cell loses the other digits. Returns the
    /// masks changed, as dirty bits.
    #[inline(always)]
    fn place(&mut self, digit: usize, band: usize, bit: u32) -> Result<u32, Contradiction> {
        let idx = at(digit, band);
        let m = self.cand[idx];
        if m & bit == 0 {
            return Err(Contradiction);
        }
        // Branch-free over the band's nine digits (vectorised); this
        // digit's own mask is set after.
        let mut dirty = 0;
        for od in 0..9 {
            let o = at(od, band);
            let old = self.cand[o];
            let new = old & !bit;
            self.cand[o] = new;
            dirty |= ((old != new) as u32) << o;
        }
        let rb = bit.trailing_zeros() as usize / 9;
        self.cand[idx] = (m & !row_mask(rb)) | bit;
        Ok(dirty | 1 << idx)
    }

    /// Applies the band rules for one digit and band until they change
    /// nothing more, marking other masks it changes in `dirty`.
    #[inline(always)]
    fn update(&mut self, idx: usize, dirty: &mut u32) -> Result<(), Contradiction> {
        let digit = idx % 9;
        let band = idx / 9;
        let shift = 3 * digit;
        let mut m = self.cand[idx];
        let mut shape = shape(m);
        loop {
            let keep = KEEP[shape as usize & 0x1FF];
            if keep == 0 {
                return Err(Contradiction);
            }
            if m & !keep != 0 {
                m &= keep;
                shape = self::shape(m);
            }
            let singles = (shape >> 9) & !(self.fixed[band] >> shift) & 7;
            if singles == 0 {
                break;
            }
            self.fixed[band] |= singles << shift;
            let cells = m & ROWS[singles as usize];
            let cols = (cells | cells >> 9 | cells >> 18) & 0x1FF;
            let colmask = cols * 0x40201;
            m &= !colmask | cells;
            shape = self::shape(m);
            self.unsolved[band] &= !cells;
            // The cells leave every digit of the band, this one's mask
            // included: its value is `m`, stored at the end.
            let base = at(0, band);
            let mut hit = 0u32;
            for (od, mask) in self.cand[base..base + 9].iter_mut().enumerate() {
                hit |= u32::from(*mask & cells != 0) << od;
                *mask &= !cells;
            }
            *dirty |= (hit & !(1 << digit)) << base;
            for ob in OTHER_BANDS[band] {
                let o = at(digit, ob);
                let old = self.cand[o];
                *dirty |= u32::from(old & colmask != 0) << o;
                self.cand[o] = old & !colmask;
            }
        }
        self.cand[idx] = m;
        Ok(())
    }

    /// Propagates until nothing changes: band rules for every dirty mask,
    /// then naked singles, repeated.
    #[inline(always)]
    fn propagate(&mut self, mut dirty: u32) -> Result<(), Contradiction> {
        loop {
            let mut touched = 0u16;
            // A pass over a snapshot of the dirty masks: the next mask to
            // update does not wait for the current update's dirty bits, so
            // consecutive updates overlap in the processor. The masks they
            // dirty wait for the next pass, unless this one has yet to
            // reach them.
            while dirty != 0 {
                let mut pass = dirty;
                while pass != 0 {
                    let idx = pass.trailing_zeros() as usize;
                    pass &= pass - 1;
                    dirty &= !(1 << idx);
                    touched |= 1 << (idx % 9);
                    self.update(idx, &mut dirty)?;
                }
            }
            dirty = self.stacks(touched)?;
            if dirty != 0 {
                continue;
            }
            for band in 0..3 {
                let unsolved = self.unsolved[band];
                if unsolved == 0 {
                    continue;
                }
                let (mut one, mut two) = (0u32, 0u32);
                for digit in 0..9 {
                    let m = self.cand[at(digit, band)];
                    two |= one & m;
                    one |= m;
                }
                if unsolved & !one != 0 {
                    return Err(Contradiction);
                }
                let singles = unsolved & !two;
                if singles == 0 {
                    continue;
                }
                for digit in 0..9 {
                    let idx = at(digit, band);
                    let s = self.cand[idx] & singles;
                    if s == 0 {
                        continue;
                    }
                    let mut m = self.cand[idx];
                    for rb in 0..3 {
                        let row = s & row_mask(rb);
                        if row == 0 {
                            continue;
                        }
                        if row & (row - 1) != 0 {
                            return Err(Contradiction);
                        }
                        m = (m & !row_mask(rb)) | row;
                    }
                    self.cand[idx] = m;
                    dirty |= 1 << idx;
                }
            }
            if dirty == 0 {
                return Ok(());
            }
        }
    }

    /// Applies the stack rules to the given digits (bit `d` for digit
    /// `d + 1`): each column and each box of
    /// a stack holds the digit once, so the stack's boxes use its three
    /// columns in some permutation (the band rule turned 90 degrees). Returns
    /// the masks changed, as dirty bits.
    #[inline(always)]
    fn stacks(&mut self, mut digits: u16) -> Result<u32, Contradiction> {
        let mut dirty = 0;
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let cols: [u32; 3] = std::array::from_fn(|b| {
                let m = self.cand[at(digit, b)];
                (m | m >> 9 | m >> 18) & 0x1FF
            });
            let mut keep = [0u32; 3];
            for stack in 0..3 {
                let shift = 3 * stack;
                let minicols = ((cols[0] >> shift) & 7)
                    | ((cols[1] >> shift) & 7) << 3
                    | ((cols[2] >> shift) & 7) << 6;
                let allowed = PERMUTATIONS[minicols as usize] as u32;
                if allowed == 0 {
                    return Err(Contradiction);
                }
                for (band, k) in keep.iter_mut().enumerate() {
                    *k |= ((allowed >> (3 * band)) & 7) << shift;
                }
            }
            for band in 0..3 {
                if keep[band] != cols[band] {
                    self.cand[at(digit, band)] &= keep[band] * 0x40201;
                    dirty |= 1 << at(digit, band);
                }
            }
        }
        Ok(dirty)
    }

    /// Propagation by whole bands with AVX-512 (see `wide`, `WAY` =
    /// [`AVX512`]) or AVX2 (see `wide_avx2`, `WAY` = [`AVX2`]): the same
    /// state as [`State::propagate`] from the same dirty set, which, as
    /// there, must name every mask changed since the state was last
    /// propagated (the AVX2 level starts the band rule with those digits
    /// only; the AVX-512 level starts with all). `fixed` is only
    /// kept as far as [`State::is_solved`] reads it: the search never runs
    /// [`State::update`] after this. Only for code compiled for that level
    /// running on a CPU that has it. (The AVX2 level's search keeps its
    /// candidates as vectors throughout, `wide_avx2::Node`; this is its
    /// propagation before the first guess.)
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn propagate_wide<const WAY: u8>(&mut self, dirty: u32) -> Result<(), Contradiction> {
        let fixed = if WAY == AVX2 {
            let mut wide = super::wide_avx2::Wide::load(&self.cand);
            let fixed = wide
                .propagate(changed_digits(dirty))
                .map_err(|_| Contradiction)?;
            wide.store(&mut self.cand);
            fixed
        } else {
            let mut wide = super::wide::Wide::load(&self.cand);
            let fixed = wide.propagate().map_err(|_| Contradiction)?;
            wide.store(&mut self.cand);
            fixed
        };
        self.unsolved = fixed.map(|f| BAND & !f);
        self.fixed = fixed.map(|f| if f == BAND { BAND } else { 0 });
        Ok(())
    }

    /// The number of open cells (it routes grids at the AVX-512 level).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn open(&self) -> u32 {
        self.unsolved.iter().map(|u| u.count_ones()).sum()
    }

    /// True when every digit is fixed in every row.
    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.fixed == [BAND; 3]
    }

    /// The solved grid (only meaningful when [`State::is_solved`]).
    #[inline(always)]
    fn solution(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for digit in 0..9 {
            for band in 0..3 {
                let mut m = self.cand[at(digit, band)];
                while m != 0 {
                    let bit = m.trailing_zeros() as usize;
                    m &= m - 1;
                    cells[27 * band + bit] = digit as u8 + 1;
                }
            }
        }
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }

    /// The unsolved cells with exactly two candidates, per band.
    #[inline(always)]
    fn bivalue(&self) -> [u32; 3] {
        std::array::from_fn(|band| {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for digit in 0..9 {
                let m = self.cand[at(digit, band)];
                three |= two & m;
                two |= one & m;
                one |= m;
            }
            two & !three & self.unsolved[band]
        })
    }

    /// A cell with the fewest candidates: `(band, bit, digit mask)`. Prefers
    /// the bivalue cell with the most unsolved cells among its peers (the
    /// first of them, [`pick_bivalue`], counted as level `WAY` counts);
    /// otherwise scans every unsolved cell.
    #[inline(always)]
    fn branch_cell<const WAY: u8>(&self) -> (usize, u32, u16) {
        if let Some((band, bit)) = pick_bivalue::<WAY>(&self.unsolved, self.bivalue()) {
            return (band, bit, self.digits_at(band, bit));
        }
        let mut best = (0, 0, 0u16);
        let mut best_count = u32::MAX;
        for band in 0..3 {
            let mut unsolved = self.unsolved[band];
            while unsolved != 0 {
                let bit = unsolved & unsolved.wrapping_neg();
                unsolved &= unsolved - 1;
                let digits = self.digits_at(band, bit);
                if digits.count_ones() < best_count {
                    best_count = digits.count_ones();
                    best = (band, bit, digits);
                }
            }
        }
        best
    }

    /// Candidate digits (bit `d` for digit `d + 1`) of one cell.
    #[inline(always)]
    fn digits_at(&self, band: usize, bit: u32) -> u16 {
        let mut digits = 0u16;
        for digit in 0..9 {
            digits |= u16::from(self.cand[at(digit, band)] & bit != 0) << digit;
        }
        digits
    }
}

/// The digits (bit `d` for digit `d + 1`) of the dirty bits' masks, in any
/// band.
#[inline(always)]
fn changed_digits(dirty: u32) -> u32 {
    (dirty | dirty >> 9 | dirty >> 18) & 0x1FF
}

/// The three bands' masks (bit `9 * row + column` each) as one grid
/// mask, band `b` from bit `32 * b`.
#[inline(always)]
fn grid_mask(bands: [u32; 3]) -> u128 {
    u128::from(bands[0]) | u128::from(bands[1]) << 32 | u128::from(bands[2]) << 64
}

/// Among the `bivalue` cells (per band), the one with the most unsolved
/// cells among its peers, the first of them: `(band, bit)`; `None` when
/// there is no bivalue cell. `WAY` is the search's level ([`QUEUE`] for
/// the scalar one, compiled without POPCNT): the count is made as the
/// level counts cheapest, the cell chosen is the same.
#[inline(always)]
fn pick_bivalue<const WAY: u8>(unsolved: &[u32; 3], bivalue: [u32; 3]) -> Option<(usize, u32)> {
    // One loop over the three bands' cells: a loop per band mispredicted
    // its exit in each. Branch-free choice of the best so far (ties keep
    // the first): the comparisons are unpredictable.
    let mut rest = grid_mask(bivalue);
    let (mut pick, mut pick_score) = (0, 0);
    if WAY == QUEUE {
        // Without POPCNT a count is a dozen instructions: one count of a
        // `u64` per cell, not two. Per band, its cells (low 32 bits) and
        // the first other band's (from bit 32); the second other band's
        // one bit further over, apart, so that the column's cells of each
        // fall on bits of their own.
        let near: [u64; 4] = std::array::from_fn(|band| {
            let other = OTHER_BANDS[band % 3][0];
            u64::from(unsolved[band % 3]) | u64::from(unsolved[other]) << 32
        });
        let far: [u64; 4] =
            std::array::from_fn(|band| u64::from(unsolved[OTHER_BANDS[band % 3][1]]) << 33);
        while rest != 0 {
            let at = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let band = (at >> 5) & 3;
            let peers = near[band] & NEAR_PEERS[at & 127] | far[band] & FAR_PEERS[at & 127];
            let score = peers.count_ones() + 1;
            let better = score > pick_score;
            pick_score = if better { score } else { pick_score };
            pick = if better { at as u32 } else { pick };
        }
    } else {
        let unsolved = grid_mask(*unsolved);
        while rest != 0 {
            let at = rest.trailing_zeros();
            rest &= rest - 1;
            let score = (unsolved & PEERS[at as usize & 127]).count_ones() + 1;
            let better = score > pick_score;
            pick_score = if better { score } else { pick_score };
            pick = if better { at } else { pick };
        }
    }
    (pick_score != 0).then_some(((pick / 32) as usize, 1 << (pick % 32)))
}

/// A search state: what [`search`] needs of the candidates it guesses on.
pub(super) trait Node: Copy {
    /// Propagates to the fixpoint of the rules, `WAY` choosing how where the
    /// node leaves a choice; `dirty` names the masks changed since the last
    /// propagation (bit `9 * band + digit`, all for a node never
    /// propagated).
    fn propagate<const WAY: u8>(&mut self, dirty: u32) -> Result<(), Contradiction>;
    /// True when every cell is fixed (only after [`Node::propagate`]).
    fn is_solved(&self) -> bool;
    /// The solved grid (only meaningful when [`Node::is_solved`]).
    fn solution(&self) -> Grid;
    /// The cell to guess on: `(band, bit, digit mask)`, as
    /// [`State::branch_cell`] chooses it (the same cell at every level
    /// `WAY`).
    fn branch_cell<const WAY: u8>(&self) -> (usize, u32, u16);
    /// Places `digit` at cell `bit` of `band`, a cell whose candidates are
    /// `cell` (bit `d` for digit `d + 1`). Returns the dirty bits for
    /// [`Node::propagate`].
    fn place(
        &mut self,
        digit: usize,
        band: usize,
        bit: u32,
        cell: u16,
    ) -> Result<u32, Contradiction>;
    /// Copies the node into `to`.
    #[inline(always)]
    fn copy_to(&self, to: &mut Self) {
        *to = *self;
    }
}

impl Node for State {
    #[inline(always)]
    fn propagate<const WAY: u8>(&mut self, dirty: u32) -> Result<(), Contradiction> {
        self.propagate_by::<WAY>(dirty)
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        State::is_solved(self)
    }

    #[inline(always)]
    fn solution(&self) -> Grid {
        State::solution(self)
    }

    #[inline(always)]
    fn branch_cell<const WAY: u8>(&self) -> (usize, u32, u16) {
        State::branch_cell::<WAY>(self)
    }

    #[inline(always)]
    fn place(
        &mut self,
        digit: usize,
        band: usize,
        bit: u32,
        _cell: u16,
    ) -> Result<u32, Contradiction> {
        State::place(self, digit, band, bit)
    }
}

/// At the AVX2 level the search keeps the candidates as vectors from one
/// guess to the next: no conversion to and from band masks around each
/// propagation, and a guess placed on the vectors.
#[cfg(target_arch = "x86_64")]
impl Node for super::wide_avx2::Node {
    #[inline(always)]
    fn propagate<const WAY: u8>(&mut self, dirty: u32) -> Result<(), Contradiction> {
        super::wide_avx2::Node::propagate(self, changed_digits(dirty)).map_err(|_| Contradiction)
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved() == [0; 3]
    }

    #[inline(always)]
    fn solution(&self) -> Grid {
        let mut cand = [0; 27];
        self.store(&mut cand);
        State::for_wide(cand, self.unsolved()).solution()
    }

    #[inline(always)]
    fn branch_cell<const WAY: u8>(&self) -> (usize, u32, u16) {
        let unsolved = self.unsolved();
        match pick_bivalue::<WAY>(&unsolved, self.bivalue()) {
            Some((band, bit)) => (band, bit, self.digits_at(band, bit)),
            None => {
                let mut cand = [0; 27];
                self.store(&mut cand);
                State::for_wide(cand, unsolved).branch_cell::<WAY>()
            }
        }
    }

    /// The cell's candidates are the masks it changes: the digits whose
    /// band rule must run again (the only dirty bits the vectors read).
    #[inline(always)]
    fn place(
        &mut self,
        digit: usize,
        band: usize,
        bit: u32,
        cell: u16,
    ) -> Result<u32, Contradiction> {
        super::wide_avx2::Node::place(self, digit, band, bit);
        Ok(u32::from(cell))
    }

    #[inline(always)]
    fn copy_to(&self, to: &mut Self) {
        super::wide_avx2::Node::copy_to(self, to);
    }
}

impl State {
    /// The AVX2 search's node for this state (before propagation).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn wide_avx2(&self) -> super::wide_avx2::Node {
        super::wide_avx2::Node::new(&self.cand, self.unsolved)
    }
}

/// A cell guessed on: the search's stack frame (its node is kept apart,
/// see [`Stack`]).
#[derive(Clone, Copy, Debug)]
struct Frame {
    band: usize,
    bit: u32,
    /// Candidates not tried yet, bit `d` for digit `d + 1`.
    digits: u16,
    /// All the cell's candidates.
    cell: u16,
}

/// The most nodes a search holds at once: one per open cell guessed on,
/// and the one propagated.
const DEPTH: usize = CELLS + 1;

/// The search's stack, kept between searches: the frames, and the nodes
/// they guess on with the node being propagated above them. A guess
/// propagates in place: on a copy of its frame's node made in the slot
/// above, or for the frame's last candidate on the node itself.
#[derive(Clone, Debug)]
pub(super) struct Stack<N> {
    nodes: Vec<N>,
    frames: Vec<Frame>,
}

impl<N> Default for Stack<N> {
    fn default() -> Self {
        Stack {
            nodes: Vec::new(),
            frames: Vec::new(),
        }
    }
}

/// The search's stacks, one per kind of node.
#[derive(Clone, Debug, Default)]
pub(super) struct Stacks {
    /// For the band masks ([`State`]).
    pub(super) masks: Stack<State>,
    /// For the AVX2 level's vectors.
    #[cfg(target_arch = "x86_64")]
    pub(super) avx2: Stack<super::wide_avx2::Node>,
}

/// The search's propagation: the scalar rules' queue ([`State::propagate`]).
pub(super) const QUEUE: u8 = 0;
/// The search's propagation: by whole bands with AVX-512 (`wide`).
pub(super) const AVX512: u8 = 1;
/// The search's propagation: by whole bands with AVX2 (`wide_avx2`).
pub(super) const AVX2: u8 = 2;

impl State {
    /// Propagates with the way `WAY` names ([`QUEUE`], [`AVX512`] or
    /// [`AVX2`]; the wide ones only on x86-64, in code compiled for their
    /// level); `dirty` is the queue's start.
    #[inline(always)]
    fn propagate_by<const WAY: u8>(&mut self, dirty: u32) -> Result<(), Contradiction> {
        #[cfg(target_arch = "x86_64")]
        if WAY != QUEUE {
            return self.propagate_wide::<WAY>(dirty);
        }
        self.propagate(dirty)
    }
}

/// Propagates `state` (before propagation) without guessing, as the search
/// does at its root: the open cells left, or `None` when the state has no
/// solution. For benchmarks: the search's fixed cost.
#[inline(always)]
pub(super) fn propagate_only<const WAY: u8>(mut state: State) -> Option<usize> {
    state
        .propagate_by::<WAY>((1 << 27) - 1)
        .ok()
        .map(|_| state.unsolved.iter().map(|u| u.count_ones() as usize).sum())
}

/// Searches from `state` (before propagation) until `target` solutions
/// are found, every branch is closed, or a limit is reached. Depth first,
/// candidates in ascending order, the last candidate of a cell tried on the
/// frame's own state; `stack` is scratch space kept between searches.
/// `WAY` chooses the propagation of a [`State`] ([`QUEUE`], or on x86-64
/// [`AVX512`] or [`AVX2`] only at those levels).
#[inline(always)]
pub(super) fn search<const WAY: u8, N: Node>(
    state: N,
    target: u8,
    limits: &Limits,
    stack: &mut Stack<N>,
) -> Search {
    let clock = LimitClock::start(limits);
    let mut out = Search {
        solutions: 0,
        first: None,
        second: None,
        guesses: 0,
        stopped: None,
    };
    let Stack { nodes, frames } = stack;
    frames.clear();
    if nodes.len() < DEPTH {
        nodes.resize(DEPTH, state);
    }
    nodes[0] = state;
    // The node propagated is `nodes[depth]`; below it, each frame's node
    // (frame `k`'s is `nodes[k]`), untouched since the frame was made:
    // there are `depth` frames whenever a node is propagated.
    let mut depth = 0;
    let mut dirty = (1 << 27) - 1;
    'node: loop {
        let node = &mut nodes[depth];
        if node.propagate::<WAY>(dirty).is_ok() {
            if node.is_solved() {
                let grid = node.solution();
                if out.solutions == 0 {
                    out.first = Some(grid);
                } else {
                    out.second = Some(grid);
                }
                out.solutions += 1;
                if out.solutions >= target {
                    break;
                }
            } else {
                let (band, bit, digits) = node.branch_cell::<WAY>();
                frames.push(Frame {
                    band,
                    bit,
                    digits,
                    cell: digits,
                });
            }
        }
        // Backtrack to the deepest cell with a candidate left to try.
        while let Some(top) = frames.last_mut() {
            if top.digits == 0 {
                frames.pop();
                continue;
            }
            let digit = top.digits.trailing_zeros() as usize;
            top.digits &= top.digits - 1;
            // A guess past the limit is refused, not made: `guesses` never
            // exceeds the limit.
            if let Some(why) = clock.exceeded(out.guesses + 1, out.guesses + 1) {
                out.stopped = Some(why);
                break 'node;
            }
            out.guesses += 1;
            let (band, bit, cell, last) = (top.band, top.bit, top.cell, top.digits == 0);
            // The frame's last candidate is tried on its own node, the
            // others on a copy above it.
            let k = frames.len() - 1;
            if last {
                frames.pop();
                depth = k;
            } else {
                let (below, above) = nodes.split_at_mut(k + 1);
                below[k].copy_to(&mut above[0]);
                depth = k + 1;
            }
            if let Ok(changed) = nodes[depth].place(digit, band, bit, cell) {
                dirty = changed;
                continue 'node;
            }
        }
        break;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::singles::{Ran, Singles};
    use super::*;

    fn grid(givens: &[(usize, u8)]) -> Grid {
        let mut cells = [0u8; CELLS];
        for &(cell, value) in givens {
            cells[cell] = value;
        }
        Grid::from_cells(cells).expect("a grid")
    }

    fn solutions(grid: &Grid) -> u8 {
        search::<QUEUE, _>(
            State::from_givens(grid),
            2,
            &Limits::default(),
            &mut Stack::default(),
        )
        .solutions
    }

    #[test]
    fn set_up_from_bitboards_is_the_set_up_from_givens() {
        let files = [
            include_str!("../../../../../data/17_clue_10000.txt"),
            include_str!("../../../../../data/magictour_top1465.txt"),
            include_str!("../../../../../data/kaggle1m_10000.csv"),
        ];
        let mut stalled = 0;
        for text in files {
            let fields = text.lines().filter_map(|line| line.split(',').next());
            let grids = fields.filter_map(|field| Grid::parse(field.as_bytes()).ok());
            for grid in grids.take(300) {
                let mut singles = Singles::new(&grid).expect("no repeated given");
                if singles.run() != Ran::Stalled {
                    continue;
                }
                stalled += 1;
                let (boards, filled) = singles.boards();
                let state = State::from_boards(&boards, filled);
                let reference = State::from_givens(&singles.grid());
                assert_eq!(state.cand, reference.cand, "{grid}");
                assert_eq!(state.unsolved, reference.unsolved, "{grid}");
                assert_eq!(state.fixed, reference.fixed, "{grid}");
            }
        }
        assert!(stalled > 300, "{stalled} grids handed over");
    }

    /// `wide::from_givens` compiled as the fast solver's AVX-512 level
    /// compiles it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx2,bmi1,bmi2,lzcnt,popcnt"
    )]
    fn from_givens_avx512(cells: &[u8; CELLS]) -> Option<([u32; 27], [u32; 3])> {
        super::super::wide::from_givens(cells)
    }

    /// `wide_avx2::from_givens` compiled as the fast solver's AVX2 level
    /// compiles it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn from_givens_avx2(cells: &[u8; CELLS]) -> Option<([u32; 27], [u32; 3])> {
        super::super::wide_avx2::from_givens(cells)
    }

    /// The wide set-ups of few givens this CPU can run.
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::type_complexity)]
    fn wide_set_ups() -> Vec<unsafe fn(&[u8; CELLS]) -> Option<([u32; 27], [u32; 3])>> {
        use super::super::Simd;
        let mut set_ups: Vec<unsafe fn(&[u8; CELLS]) -> Option<([u32; 27], [u32; 3])>> = Vec::new();
        if Simd::Avx2.is_available() {
            set_ups.push(from_givens_avx2);
        }
        if Simd::Avx512.is_available() {
            set_ups.push(from_givens_avx512);
        }
        set_ups
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_wide_set_up_of_few_givens_is_the_singles_hand_over() {
        use rand::{RngExt, SeedableRng};
        use rand_xorshift::XorShiftRng;

        let set_ups = wide_set_ups();
        if set_ups.is_empty() {
            return;
        }
        let text = include_str!("../../../../../data/17_clue_10000.txt");
        let puzzles = text
            .lines()
            .filter_map(|line| Grid::parse(line.as_bytes()).ok());
        // Seeded: which given to change or drop is the same on every run.
        let mut rng = XorShiftRng::seed_from_u64(0x2545_f491_4f6c_dd1d);
        let mut next = |n: usize| rng.random_range(0..n);
        let (mut compared, mut repeated) = (0, 0);
        for puzzle in puzzles.take(400) {
            let cells = *puzzle.cells();
            let filled: Vec<usize> = (0..CELLS).filter(|&c| cells[c] != 0).collect();
            let mut variants = vec![cells];
            // A given copied into one of its peers: a repeat in a row,
            // column or box (or, once in a while, a blank peer stays).
            let mut copied = cells;
            let from = filled[next(filled.len())];
            let to = crate::grid::PEERS[from][next(20)] as usize;
            copied[to] = cells[from];
            variants.push(copied);
            // A given changed to another digit, and a given dropped.
            let mut changed = cells;
            changed[filled[next(filled.len())]] = next(9) as u8 + 1;
            variants.push(changed);
            let mut dropped = cells;
            dropped[filled[next(filled.len())]] = 0;
            variants.push(dropped);
            for cells in variants {
                let grid = Grid::from_cells(cells).expect("a grid");
                // SAFETY: only the set-ups this CPU has (`wide_set_ups`).
                let wides = set_ups.iter().map(|set_up| unsafe { set_up(grid.cells()) });
                let Some(singles) = Singles::new(&grid) else {
                    for wide in wides {
                        assert!(wide.is_none(), "{grid}");
                    }
                    repeated += 1;
                    continue;
                };
                let (boards, filled) = singles.boards();
                let state = State::from_boards(&boards, filled);
                for wide in wides {
                    let (cand, open) = wide.expect("no repeated given");
                    assert_eq!(cand, state.cand, "{grid}");
                    assert_eq!(open, state.unsolved, "{grid}");
                }
                compared += 1;
            }
        }
        assert!(
            compared > 1000 && repeated > 200,
            "{compared} compared, {repeated} repeated"
        );
    }

    /// [`State::propagate_wide`] compiled as the fast solver's AVX-512
    /// level compiles it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx2,bmi1,bmi2,lzcnt,popcnt"
    )]
    fn propagate_wide_avx512(state: &mut State, dirty: u32) -> bool {
        state.propagate_wide::<AVX512>(dirty).is_ok()
    }

    /// [`State::propagate_wide`] compiled as the fast solver's AVX2 level
    /// compiles it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn propagate_wide_avx2(state: &mut State, dirty: u32) -> bool {
        state.propagate_wide::<AVX2>(dirty).is_ok()
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn wide_propagation_stops_at_the_scalar_propagations_state() {
        use super::super::Simd;
        let mut ways: Vec<unsafe fn(&mut State, u32) -> bool> = Vec::new();
        if Simd::Avx2.is_available() {
            ways.push(propagate_wide_avx2);
        }
        if Simd::Avx512.is_available() {
            ways.push(propagate_wide_avx512);
        }
        if ways.is_empty() {
            return;
        }
        let files = [
            include_str!("../../../../../data/17_clue_10000.txt"),
            include_str!("../../../../../data/magictour_top1465.txt"),
            include_str!("../../../../../data/forum_hardest_2000.txt"),
        ];
        let (mut compared, mut contradictions) = (0, 0);
        for text in files {
            let fields = text.lines().filter_map(|line| line.split(',').next());
            let grids = fields.filter_map(|field| Grid::parse(field.as_bytes()).ok());
            for grid in grids.take(200) {
                // The givens, then each candidate of the cell the search
                // guesses on first, placed in the propagated state as the
                // search places it.
                let givens = State::from_givens(&grid);
                let mut states = vec![(givens, (1 << 27) - 1)];
                let mut start = givens;
                if start.propagate((1 << 27) - 1).is_ok() && !start.is_solved() {
                    let (band, bit, digits) = start.branch_cell::<QUEUE>();
                    for digit in (0..9).filter(|d| digits & (1 << d) != 0) {
                        let mut guessed = start;
                        if let Ok(dirty) = guessed.place(digit, band, bit) {
                            states.push((guessed, dirty));
                        }
                    }
                }
                for (state, dirty) in states {
                    let mut scalar = state;
                    let ok = scalar.propagate(dirty).is_ok();
                    compared += 1;
                    contradictions += usize::from(!ok);
                    for way in &ways {
                        let mut wide = state;
                        // SAFETY: only the levels this CPU has (above).
                        assert_eq!(ok, unsafe { way(&mut wide, dirty) }, "{grid}");
                        if ok {
                            assert_eq!(scalar.cand, wide.cand, "{grid}");
                            assert_eq!(scalar.unsolved, wide.unsolved, "{grid}");
                            assert_eq!(scalar.is_solved(), wide.is_solved(), "{grid}");
                        }
                    }
                }
            }
        }
        assert!(
            compared > 1000 && contradictions > 50,
            "{compared}, {contradictions}"
        );
    }

    #[test]
    fn every_level_picks_the_bivalue_cell_with_the_most_unsolved_peers() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..2000 {
            // Denser or sparser grids of unsolved cells, a few bivalue.
            let unsolved: [u32; 3] = std::array::from_fn(|_| {
                let m = next() as u32 | if round % 2 == 0 { next() as u32 } else { 0 };
                m & BAND
            });
            let bivalue: [u32; 3] =
                std::array::from_fn(|band| unsolved[band] & next() as u32 & next() as u32);
            let open = |cell: usize| unsolved[cell / 27] >> (cell % 27) & 1 != 0;
            let mut expected = None;
            let mut best = 0;
            for cell in (0..CELLS).filter(|&c| bivalue[c / 27] >> (c % 27) & 1 != 0) {
                let score = crate::grid::PEERS[cell]
                    .iter()
                    .filter(|&&p| open(p as usize))
                    .count();
                if expected.is_none() || score > best {
                    (expected, best) = (Some((cell / 27, 1 << (cell % 27))), score);
                }
            }
            assert_eq!(pick_bivalue::<QUEUE>(&unsolved, bivalue), expected);
            assert_eq!(pick_bivalue::<AVX2>(&unsolved, bivalue), expected);
        }
    }

    #[test]
    fn a_digit_given_twice_in_a_unit_has_no_solution() {
        // Same row, same column (other bands), same box (other rows).
        for pair in [[(0, 5), (8, 5)], [(4, 5), (76, 5)], [(0, 5), (20, 5)]] {
            assert_eq!(solutions(&grid(&pair)), 0, "{pair:?}");
        }
    }

    #[test]
    fn givens_are_fixed_and_leave_their_units() {
        let state = State::from_givens(&grid(&[(0, 5), (40, 7)]));
        // r1c1 = 5: fixed in row 1 of band 0; gone from row 1, column 1 and
        // box 1, elsewhere still open.
        assert_eq!(state.cand[at(4, 0)] & 0x1FF, 1);
        assert_eq!(state.cand[at(4, 1)] & 0x40201, 0);
        assert_eq!(state.cand[at(4, 0)] & 0x1C0E07, 1);
        assert_ne!(state.cand[at(4, 1)] & (1 << 14), 0);
        assert_eq!(state.fixed[0], 1 << (3 * 4));
        // r5c5 = 7 is band 1, row 1 of the band; no other digit keeps it.
        assert_eq!(state.fixed[1], 1 << (3 * 6 + 1));
        assert_eq!(state.unsolved[1] & (1 << 13), 0);
        assert!((0..9).all(|d| d == 6 || state.cand[at(d, 1)] & (1 << 13) == 0));
        assert_eq!(solutions(&grid(&[(0, 5), (40, 7)])), 2);
    }
}
