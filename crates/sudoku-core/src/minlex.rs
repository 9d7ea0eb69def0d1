//! Canonical forms: the minlex representative of a grid's equivalence class.
//!
//! The *minlex form* of a grid is the lexicographically smallest
//! 81-character string (row by row, blanks written `0`) among all the grids
//! equivalent to it under the [`crate::transform`] symmetries: transposing,
//! permuting bands, rows inside bands, stacks, columns inside stacks, and
//! relabelling digits. Two grids are equivalent exactly when their minlex
//! forms are equal. Puzzles and complete grids are handled alike.
//!
//! # Algorithm
//! A breadth-first branch and bound over the output rows, in the order the
//! string is compared. For a fixed choice of rows, transposition and column
//! order, the best relabelling numbers digits in order of first appearance,
//! so only positions are searched. Every live candidate has produced the
//! same (so far smallest) prefix; for the next output row, each candidate
//! tries every source row the band structure allows and only the candidates
//! giving the smallest row survive.
//!
//! The column order is not enumerated up front (that would be 1,296 orders
//! per candidate). A candidate fixes its stack order and keeps, inside each
//! stack, an ordered partition of the columns into blocks whose columns are
//! still interchangeable. Placing a row sorts every block at once (blanks
//! first, then digits already labelled in label order, then new digits) and
//! splits it: the blanks stay one block, every digit becomes a fixed column.
//! New digits all get the next labels whatever their order, so their orders
//! are separate candidates (they label digits differently). An empty row
//! thus keeps every column free and a row of one given costs no branching.
//!
//! This is the row-by-row pruning used by published minlex canonicalisers
//! (for example the ones discussed on the New Sudoku Players' Forum); the
//! lazy column blocks and the code are this project's own.

use std::cmp::Ordering;

use crate::grid::{Grid, CELLS};

/// The 6 orders of three things.
const ORDERS3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Positions 0, 3 and 6 start stacks, so they always start a block.
const STACK_STARTS: u16 = 0b0_0100_1001;

/// One way of building the canonical prefix found so far.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// Which source grid: 0 as given, 1 transposed.
    grid: u8,
    /// The source band the current output band takes its rows from.
    band: u8,
    /// Source bands used so far (bit per band).
    bands: u8,
    /// Source rows used so far (bit per row).
    rows: u16,
    /// The source column at each output position; inside a block the order
    /// is arbitrary.
    cols: [u8; 9],
    /// Bit `p` set when output position `p` starts a block.
    starts: u16,
    /// The label given to each source digit so far (0: none yet).
    labels: [u8; 10],
    /// The next label to give.
    next: u8,
}

impl Candidate {
    /// The end (exclusive) of the block starting at position `p`.
    #[inline]
    fn block_end(&self, p: usize) -> usize {
        let after = (u32::from(self.starts) | 1 << 9) >> (p + 1);
        p + 1 + after.trailing_zeros() as usize
    }

    /// The smallest row string this candidate can make of source row `row`.
    #[inline]
    fn row_string(&self, row: &[u8; 9]) -> [u8; 9] {
        let mut out = [0u8; 9];
        let mut next = self.next;
        if self.starts == 0x1FF {
            for (o, &c) in out.iter_mut().zip(&self.cols) {
                let v = row[usize::from(c)];
                *o = match (v, self.labels[usize::from(v)]) {
                    (0, _) => 0,
                    (_, 0) => {
                        next += 1;
                        next - 1
                    }
                    (_, label) => label,
                };
            }
            return out;
        }
        let mut p = 0;
        while p < 9 {
            let end = self.block_end(p);
            let mut blanks = 0;
            let mut known = [0u8; 3];
            let mut nknown = 0;
            let mut new = 0;
            for &c in &self.cols[p..end] {
                let v = row[usize::from(c)];
                if v == 0 {
                    blanks += 1;
                } else if self.labels[usize::from(v)] != 0 {
                    known[nknown] = self.labels[usize::from(v)];
                    nknown += 1;
                } else {
                    new += 1;
                }
            }
            known[..nknown].sort_unstable();
            let mut q = p + blanks;
            out[q..q + nknown].copy_from_slice(&known[..nknown]);
            q += nknown;
            for o in &mut out[q..q + new] {
                *o = next;
                next += 1;
            }
            p = end;
        }
        out
    }

    /// Pushes onto `into` every refinement of this candidate that makes its
    /// smallest row string of source row `source` (`row` holds its values):
    /// the row is placed, blocks are split and new digits labelled, one
    /// candidate per order of the new digits inside each block.
    fn refine_into(&self, source: u8, row: &[u8; 9], into: &mut Vec<Candidate>) {
        let mut base = *self;
        base.rows |= 1 << source;
        let band = source / 3;
        base.band = band;
        base.bands |= 1 << band;
        // Blocks holding two or more new digits: (first position, count).
        let mut multi: [(u8, u8); 3] = [(0, 0); 3];
        let mut nmulti = 0;
        let mut p = 0;
        while p < 9 {
            let end = self.block_end(p);
            if end == p + 1 {
                p = end;
                continue;
            }
            let mut blanks = [0u8; 3];
            let mut nblanks = 0;
            let mut known = [(0u8, 0u8); 3];
            let mut nknown = 0;
            let mut new = [0u8; 3];
            let mut nnew = 0;
            for &c in &self.cols[p..end] {
                let v = row[usize::from(c)];
                if v == 0 {
                    blanks[nblanks] = c;
                    nblanks += 1;
                } else if self.labels[usize::from(v)] != 0 {
                    known[nknown] = (self.labels[usize::from(v)], c);
                    nknown += 1;
                } else {
                    new[nnew] = c;
                    nnew += 1;
                }
            }
            known[..nknown].sort_unstable();
            let mut q = p;
            base.cols[q..q + nblanks].copy_from_slice(&blanks[..nblanks]);
            q += nblanks;
            for &(_, c) in &known[..nknown] {
                base.cols[q] = c;
                base.starts |= 1 << q;
                q += 1;
            }
            if nnew >= 2 {
                multi[nmulti] = (q as u8, nnew as u8);
                nmulti += 1;
            }
            for &c in &new[..nnew] {
                base.cols[q] = c;
                base.starts |= 1 << q;
                q += 1;
            }
            // The digits after the blanks start right after them.
            if nblanks > 0 && nblanks < end - p {
                base.starts |= 1 << (p + nblanks);
            }
            p = end;
        }
        let first = into.len();
        into.push(base);
        for &(at, count) in &multi[..nmulti] {
            let at = usize::from(at);
            let upto = into.len();
            for i in first..upto {
                let original = into[i];
                let orders: &[[u8; 3]] = if count == 2 {
                    &ORDERS3[2..3] // the swap, as [1, 0, 2]
                } else {
                    &ORDERS3[1..]
                };
                for order in orders {
                    let mut variant = original;
                    for (k, &o) in order[..usize::from(count)].iter().enumerate() {
                        variant.cols[at + k] = original.cols[at + usize::from(o)];
                    }
                    into.push(variant);
                }
            }
        }
        for candidate in &mut into[first..] {
            for &c in &candidate.cols {
                let v = usize::from(row[usize::from(c)]);
                if v != 0 && candidate.labels[v] == 0 {
                    candidate.labels[v] = candidate.next;
                    candidate.next += 1;
                }
            }
        }
    }
}

/// Computes minlex forms, keeping its work buffers between calls (one per
/// thread).
#[derive(Debug, Default)]
pub struct Canonicalizer {
    live: Vec<Candidate>,
    next: Vec<Candidate>,
}

impl Canonicalizer {
    /// A canonicalizer with empty buffers.
    pub fn new() -> Canonicalizer {
        Canonicalizer::default()
    }

    /// The minlex form of `grid` as 81 cell values (0 blank, 1..=9 digit),
    /// or `None` when a row or column repeats a digit (an invalid grid has
    /// no meaningful form here).
    pub fn minlex(&mut self, grid: &Grid) -> Option<Grid> {
        if grid.first_conflict().is_some() {
            return None;
        }
        let mut sources = [[[0u8; 9]; 9]; 2];
        for (i, &v) in grid.cells().iter().enumerate() {
            sources[0][i / 9][i % 9] = v;
            sources[1][i % 9][i / 9] = v;
        }
        self.live.clear();
        for g in 0..2 {
            for order in ORDERS3 {
                let mut cols = [0u8; 9];
                for (k, &stack) in order.iter().enumerate() {
                    for i in 0..3 {
                        cols[3 * k + i] = 3 * stack + i as u8;
                    }
                }
                self.live.push(Candidate {
                    grid: g,
                    band: 0,
                    bands: 0,
                    rows: 0,
                    cols,
                    starts: STACK_STARTS,
                    labels: [0; 10],
                    next: 1,
                });
            }
        }
        let mut out = [0u8; CELLS];
        for r in 0..9 {
            let mut best = [u8::MAX; 9];
            self.next.clear();
            for candidate in &self.live {
                let source = &sources[usize::from(candidate.grid)];
                let choices: u16 = if r % 3 == 0 {
                    let mut rows = 0;
                    for b in 0..3 {
                        if candidate.bands & (1 << b) == 0 {
                            rows |= 0b111 << (3 * b);
                        }
                    }
                    rows
                } else {
                    (0b111 << (3 * candidate.band)) & !candidate.rows
                };
                let mut left = choices;
                while left != 0 {
                    let s = left.trailing_zeros() as u8;
                    left &= left - 1;
                    let row = &source[usize::from(s)];
                    let string = candidate.row_string(row);
                    match string.cmp(&best) {
                        Ordering::Greater => continue,
                        Ordering::Less => {
                            best = string;
                            self.next.clear();
                        }
                        Ordering::Equal => {}
                    }
                    candidate.refine_into(s, row, &mut self.next);
                }
            }
            out[r * 9..r * 9 + 9].copy_from_slice(&best);
            std::mem::swap(&mut self.live, &mut self.next);
        }
        Grid::from_cells(out)
    }
}

/// The minlex form of `grid` (see the module docs), or `None` for a grid
/// with a repeated digit. Builds fresh buffers; reuse a [`Canonicalizer`]
/// for many grids.
pub fn minlex(grid: &Grid) -> Option<Grid> {
    Canonicalizer::new().minlex(grid)
}

/// The form as an 81-character string with `0` blanks, as `canon` writes it.
pub fn form_line(form: &Grid) -> [u8; CELLS] {
    form.cells().map(|v| b'0' + v)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_xorshift::XorShiftRng;

    use super::*;
    use crate::transform::Transform;

    const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";
    const SOLUTION: &[u8] =
        b"316452978285679314497318562879234156142965783653187249968721435521843697734596821";

    /// The minlex form by brute force over every position transform, for a
    /// grid with few enough rows to try: checks the fast search.
    fn brute_force(grid: &Grid) -> Grid {
        let mut best = [u8::MAX; CELLS];
        let lines = |orders: [usize; 4]| -> [u8; 9] {
            let [b, i, j, k] = orders;
            let bands = ORDERS3[b];
            let mut out = [0u8; 9];
            for (slot, inner) in [i, j, k].into_iter().enumerate() {
                for (q, &x) in ORDERS3[inner].iter().enumerate() {
                    out[slot * 3 + q] = bands[slot] * 3 + x;
                }
            }
            out
        };
        let all: Vec<[u8; 9]> = (0..6 * 6 * 6 * 6)
            .map(|n| lines([n % 6, n / 6 % 6, n / 36 % 6, n / 216]))
            .collect();
        for transpose in [false, true] {
            for rows in &all {
                for cols in &all {
                    let t = Transform::new(transpose, *rows, *cols, [1, 2, 3, 4, 5, 6, 7, 8, 9])
                        .unwrap();
                    let image = t.apply(grid);
                    let mut labels = [0u8; 10];
                    let mut next = 1;
                    let mut cells = [0u8; CELLS];
                    for (o, &v) in cells.iter_mut().zip(image.cells()) {
                        if v != 0 {
                            if labels[usize::from(v)] == 0 {
                                labels[usize::from(v)] = next;
                                next += 1;
                            }
                            *o = labels[usize::from(v)];
                        }
                    }
                    if cells < best {
                        best = cells;
                    }
                }
            }
        }
        Grid::from_cells(best).unwrap()
    }

    #[test]
    fn matches_brute_force_on_a_puzzle_and_a_sparse_grid() {
        let puzzle = Grid::parse(PUZZLE).unwrap();
        assert_eq!(minlex(&puzzle), Some(brute_force(&puzzle)));
        let sparse = Grid::parse(
            b"000000010400000000020000000000050407008000300001090000300400200050100000000806000",
        )
        .unwrap();
        assert_eq!(minlex(&sparse), Some(brute_force(&sparse)));
    }

    #[test]
    fn the_empty_grid_and_a_solution_grid() {
        assert_eq!(minlex(&Grid::EMPTY), Some(Grid::EMPTY));
        let form = minlex(&Grid::parse(SOLUTION).unwrap()).unwrap();
        assert!(form.is_complete());
        assert_eq!(&form_line(&form)[..9], b"123456789");
    }

    #[test]
    fn invalid_grids_have_no_form() {
        let mut cells = *Grid::parse(PUZZLE).unwrap().cells();
        cells[0] = 1; // the row already holds 1
        assert_eq!(minlex(&Grid::from_cells(cells).unwrap()), None);
    }

    #[test]
    fn the_first_seventeen_clue_puzzles_are_inequivalent() {
        let text = include_str!("../../../data/17_clue_10000.txt");
        let mut canon = Canonicalizer::new();
        let mut forms = HashSet::new();
        let puzzles = text.lines().filter(|l| !l.starts_with('#')).take(200);
        for line in puzzles {
            let grid = Grid::parse(line.as_bytes()).unwrap();
            let form = canon.minlex(&grid).unwrap();
            assert_eq!(form.givens(), 17);
            assert!(
                forms.insert(form),
                "{line} has the form of an earlier puzzle"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn every_transform_of_a_grid_has_its_form(seed: u64, blanks in prop::collection::vec(0usize..81, 0..81)) {
            let mut cells = *Grid::parse(SOLUTION).unwrap().cells();
            for b in blanks {
                cells[b] = 0;
            }
            let grid = Grid::from_cells(cells).unwrap();
            let t = Transform::random(&mut XorShiftRng::seed_from_u64(seed));
            let mut canon = Canonicalizer::new();
            let form = canon.minlex(&grid).unwrap();
            prop_assert_eq!(canon.minlex(&t.apply(&grid)), Some(form));
            prop_assert_eq!(canon.minlex(&form), Some(form));
            prop_assert_eq!(form.givens(), grid.givens());
        }
    }
}
