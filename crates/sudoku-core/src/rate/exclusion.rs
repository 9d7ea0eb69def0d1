//! Aligned Pair (6.2) and Aligned Triplet (7.5) Exclusion: two or three
//! cells cannot take a combination of digits that would empty a cell
//! seeing them all (an excluder, holding at most as many candidates as
//! there are cells), nor one digit twice in a unit; a candidate of theirs
//! in no remaining combination goes.
//!
//! Which cells are tried, and in what order, follows Sudoku Explainer's
//! description of the technique: the base cells are cells of two
//! candidates or more with an excluder among their peers; every pair of
//! them is tried (the second cell rising, then the first); a triplet adds
//! to a pair a base cell that is an excluder of one of the two (those of
//! the first cell, rising, then the new ones of the second); the cells
//! must share at least two excluders. The first set with an elimination
//! is the step.

use super::board::{bits, cells_of, Board, PEER_SET};
use super::Step;

/// The base cells of a degree and the excluders of each, as cell sets.
struct Bases {
    cells: Vec<usize>,
    excluders: Vec<u128>,
    set: u128,
}

impl Bases {
    fn new(b: &Board, degree: u32) -> Bases {
        let mut bases = Bases {
            cells: Vec::new(),
            excluders: Vec::new(),
            set: 0,
        };
        for c in 0..81 {
            if b.cand[c].count_ones() < 2 {
                continue;
            }
            let mut excluders = 0u128;
            let mut naked_single = false;
            for p in cells_of(PEER_SET[c]) {
                match b.cand[p].count_ones() {
                    1 => naked_single = true,
                    n if n >= 2 && n <= degree => excluders |= 1 << p,
                    _ => {}
                }
            }
            if !naked_single && excluders != 0 {
                bases.cells.push(c);
                bases.excluders.push(excluders);
                bases.set |= 1 << c;
            }
        }
        bases
    }
}

/// Aligned Pair (`degree` 2) or Triplet (3) Exclusion.
pub(super) fn aligned_exclusion(b: &Board, s: &mut Step, degree: u32) -> bool {
    let bases = Bases::new(b, degree);
    let n = bases.cells.len();
    if n < degree as usize {
        return false;
    }
    for second in 1..n {
        for first in 0..second {
            let (c0, c1) = (bases.cells[first], bases.cells[second]);
            let (e0, e1) = (bases.excluders[first], bases.excluders[second]);
            if degree == 2 {
                if try_cells(b, s, &[c0, c1], e0 & e1) {
                    return true;
                }
                continue;
            }
            let twin = (e0 | e1) & bases.set & !(1u128 << c0 | 1u128 << c1);
            // The tail cells in the order the twin area lists them: the
            // first cell's excluders, then the second's new ones.
            for tail in cells_of(twin & e0).chain(cells_of(twin & e1 & !e0)) {
                let k = bases
                    .cells
                    .binary_search(&tail)
                    .unwrap_or_else(|_| unreachable!("the twin area holds base cells only"));
                let common = e0 & e1 & bases.excluders[k];
                if try_cells(b, s, &[c0, c1, tail], common) {
                    return true;
                }
            }
        }
    }
    false
}

/// Tries one set of base cells with their common excluders: the step, if
/// some candidate of theirs is in no allowed combination.
fn try_cells(b: &Board, s: &mut Step, cells: &[usize], common: u128) -> bool {
    if common.count_ones() < 2 {
        return false;
    }
    // At most the 20 peers of a cell; an excluder holding a digit no base
    // cell has can never be emptied, so it is left out.
    let union = cells.iter().fold(0, |m, &c| m | b.cand[c]);
    let mut excluders = [0u16; 20];
    let mut n = 0;
    for c in cells_of(common) {
        if b.cand[c] & !union == 0 {
            excluders[n] = b.cand[c];
            n += 1;
        }
    }
    let excluders = &excluders[..n];
    // Digits of each cell that some allowed combination uses.
    let mut allowed = [0u16; 3];
    let mut digits = [0usize; 3];
    let mut search = Combinations {
        b,
        cells,
        excluders,
        digits: &mut digits,
        allowed: &mut allowed,
    };
    search.run(0);
    s.clear();
    let mut any = false;
    for (i, &c) in cells.iter().enumerate() {
        let gone = b.cand[c] & !allowed[i];
        if gone != 0 {
            s.elim[c] = gone;
            any = true;
        }
    }
    if any {
        let (tenths, name) = if cells.len() == 2 {
            (62, "Aligned Pair Exclusion")
        } else {
            (75, "Aligned Triplet Exclusion")
        };
        s.set(tenths, name);
    }
    any
}

/// The combinations of one candidate per base cell.
struct Combinations<'a> {
    b: &'a Board,
    cells: &'a [usize],
    excluders: &'a [u16],
    digits: &'a mut [usize; 3],
    allowed: &'a mut [u16; 3],
}

impl Combinations<'_> {
    /// Every combination from cell `i` on: an allowed one (no digit twice
    /// in cells that see each other, no excluder left without a candidate)
    /// marks its digits in `allowed`. The last cell's digits are taken at
    /// once, as a mask: those not clashing with the others' and not the
    /// last candidate an excluder keeps. True once every candidate is
    /// marked: nothing can go then, and the search stops.
    fn run(&mut self, i: usize) -> bool {
        let cells = self.cells;
        let b = self.b;
        if i + 1 == cells.len() {
            let last = cells[i];
            let used = self.digits[..i].iter().fold(0u16, |m, &d| m | 1 << d);
            let mut free = b.cand[last];
            for k in 0..i {
                if PEER_SET[cells[k]] >> last & 1 != 0 {
                    free &= !(1 << self.digits[k]);
                }
            }
            for &e in self.excluders {
                let left = e & !used;
                if left == 0 {
                    return false;
                }
                if left.count_ones() == 1 {
                    free &= !left;
                }
            }
            if free == 0 {
                return false;
            }
            for (k, &d) in self.digits[..i].iter().enumerate() {
                self.allowed[k] |= 1 << d;
            }
            self.allowed[i] |= free;
            return (0..=i).all(|k| self.allowed[k] == b.cand[cells[k]]);
        }
        for d in bits(self.b.cand[cells[i]]) {
            let clash =
                (0..i).any(|k| self.digits[k] == d && PEER_SET[cells[k]] >> cells[i] & 1 != 0);
            if clash {
                continue;
            }
            self.digits[i] = d;
            if self.run(i + 1) {
                return true;
            }
        }
        false
    }
}
