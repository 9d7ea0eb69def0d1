//! The techniques Dynamic Forcing Chains (+) use inside a chain: when an
//! assumption has no more singles to follow, the grid it has left is
//! searched for locked candidates, hidden pairs, naked pairs and X-Wings
//! (in that order, serate's "non-trivial implications" for the standard
//! grid); the first of
//! these that applies because of candidates the chain removed turns its
//! eliminations off, each caused by those removed candidates.
//!
//! Which removals a technique depends on (its "parents") and the order of
//! its eliminations decide the causes each off candidate is given, and so
//! the complexity (the length term) of the chains found; both follow the
//! order in which serate walks units, digits and cells, and lists a
//! hint's eliminations (a table keyed by cell, in its hash order).

use super::board::{bits, cells_of, Mask, UNITS, UNIT_SET};

/// Eliminations found inside a chain: each candidate (cell * 9 + digit)
/// turned off and its causes, the off nodes (`cand * 2`) of the removed
/// candidates the technique needed.
#[derive(Default)]
pub(super) struct Found {
    /// (candidate, start, end) of the causes in `parents`.
    pub offs: Vec<(u16, u32, u32)>,
    pub parents: Vec<u16>,
    /// Scratch: one hint's eliminations, (cell, digits) in the order
    /// first found.
    removals: Vec<(usize, Mask)>,
}

/// The state a chain has reached: the board's candidates (`source`), the
/// candidates left (`grid`), each digit's cells left, and the board's
/// placed values.
pub(super) struct View<'a> {
    pub source: &'a [Mask; 81],
    pub grid: &'a [Mask; 81],
    pub places: &'a [u128; 9],
    pub value: &'a [u8; 81],
}

impl Found {
    fn note(&mut self, cell: usize, digits: Mask) {
        if let Some(r) = self.removals.iter_mut().find(|r| r.0 == cell) {
            r.1 |= digits;
        } else {
            self.removals.push((cell, digits));
        }
    }

    /// Records the hint gathered in `removals`, caused by `parents`; it
    /// counts only when it has eliminations and causes.
    fn emit(&mut self, parents: &[u16]) -> bool {
        if self.removals.is_empty() || parents.is_empty() {
            self.removals.clear();
            return false;
        }
        // Serate keeps a hint's eliminations in a hash table keyed by cell
        // (hash = cell index, 16 buckets up to 12 cells, doubling after),
        // and walks them in bucket order, the first put first within one.
        let n = self.removals.len();
        let cap = match n {
            0..=12 => 16,
            13..=24 => 32,
            25..=48 => 64,
            _ => 128,
        };
        self.removals.sort_by_key(|&(c, _)| c % cap);
        let start = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        let end = self.parents.len() as u32;
        for &(c, m) in &self.removals {
            for d in bits(m) {
                self.offs.push(((c * 9 + d) as u16, start, end));
            }
        }
        self.removals.clear();
        true
    }
}

/// Cells of unit `u` holding digit `d` in `grid`.
#[inline]
fn unit_places(v: &View, u: usize, d: usize) -> u128 {
    v.places[d] & UNIT_SET[u]
}

/// The off nodes of the candidates of digit `d` in `cells` that the
/// chain removed (on the board, gone from the grid).
fn removed(v: &View, cells: u128, d: usize, out: &mut Vec<u16>) {
    for c in cells_of(cells) {
        if v.source[c] >> d & 1 != 0 && v.grid[c] >> d & 1 == 0 {
            out.push((c * 9 + d) as u16 * 2);
        }
    }
}

/// The empty cells of unit `u` (the chain places nothing).
fn empty_cells(v: &View, u: usize) -> usize {
    UNITS[u]
        .iter()
        .filter(|&&c| v.value[c as usize] == 0)
        .count()
}

/// Locked candidates: a digit whose places in one unit all lie in a
/// crossing unit goes off in the rest of that unit (box then column, box
/// then row, column then box, row then box; digit by digit; unit by unit).
fn locking(v: &View, f: &mut Found, par: &mut Vec<u16>) -> bool {
    let mut any = false;
    for (t1, t2) in [(0, 2), (0, 1), (2, 0), (1, 0)] {
        for d in 0..9 {
            for i1 in 0..9 {
                let u1 = t1 * 9 + i1;
                let pos = unit_places(v, u1, d);
                if pos.count_ones() < 2 {
                    continue;
                }
                for i2 in 0..9 {
                    let u2 = t2 * 9 + i2;
                    if pos & !UNIT_SET[u2] != 0 {
                        continue;
                    }
                    for &c in &UNITS[u2] {
                        let c = c as usize;
                        if UNIT_SET[u1] >> c & 1 == 0 && v.places[d] >> c & 1 != 0 {
                            f.note(c, 1 << d);
                        }
                    }
                    par.clear();
                    removed(v, UNIT_SET[u1] & !UNIT_SET[u2], d, par);
                    any |= f.emit(par);
                }
            }
        }
    }
    any
}

/// The units in the order serate's subset rules walk them: boxes, then
/// columns, then rows.
const SUBSET_UNITS: [usize; 27] = {
    let mut o = [0usize; 27];
    let mut i = 0;
    while i < 9 {
        o[i] = i;
        o[9 + i] = 18 + i;
        o[18 + i] = 9 + i;
        i += 1;
    }
    o
};

/// Hidden pairs: two digits with the same two places (each digit in two
/// places at least) in a unit with more than four empty cells.
fn hidden_pair(v: &View, f: &mut Found, par: &mut Vec<u16>) -> bool {
    let mut any = false;
    for &u in &SUBSET_UNITS {
        if empty_cells(v, u) <= 4 {
            continue;
        }
        for b in 1..9 {
            for a in 0..b {
                let (pa, pb) = (unit_places(v, u, a), unit_places(v, u, b));
                if pa.count_ones() < 2 || pb.count_ones() < 2 || (pa | pb).count_ones() != 2 {
                    continue;
                }
                let pair: Mask = 1 << a | 1 << b;
                for c in cells_of(pa | pb) {
                    let m = v.grid[c] & !pair;
                    if m != 0 {
                        f.note(c, m);
                    }
                }
                par.clear();
                // The removed places of both digits elsewhere in the unit,
                // cell by cell.
                for c in cells_of(UNIT_SET[u] & !(pa | pb)) {
                    for d in [a, b] {
                        if v.source[c] >> d & 1 != 0 {
                            par.push((c * 9 + d) as u16 * 2);
                        }
                    }
                }
                any |= f.emit(par);
            }
        }
    }
    any
}

/// Naked pairs: two cells of a unit (with four empty cells or more)
/// holding the same two digits; the digits go off in the unit's other
/// cells.
fn naked_pair(v: &View, f: &mut Found, par: &mut Vec<u16>) -> bool {
    let mut any = false;
    for &u in &SUBSET_UNITS {
        if empty_cells(v, u) < 4 {
            continue;
        }
        for j in 1..9 {
            for i in 0..j {
                let (ci, cj) = (UNITS[u][i] as usize, UNITS[u][j] as usize);
                let (mi, mj) = (v.grid[ci], v.grid[cj]);
                let pair = mi | mj;
                if mi.count_ones() < 2 || mj.count_ones() < 2 || pair.count_ones() != 2 {
                    continue;
                }
                for &c in &UNITS[u] {
                    let c = c as usize;
                    if c != ci && c != cj && v.grid[c] & pair != 0 {
                        f.note(c, v.grid[c] & pair);
                    }
                }
                par.clear();
                for c in [ci, cj] {
                    for d in bits(v.source[c] & !pair) {
                        par.push((c * 9 + d) as u16 * 2);
                    }
                }
                any |= f.emit(par);
            }
        }
    }
    any
}

/// X-Wings: a digit in the same two places of two lines (columns first,
/// then rows) goes off elsewhere in the two cross lines.
fn x_wing(v: &View, f: &mut Found, par: &mut Vec<u16>) -> bool {
    let mut placed = [0usize; 9];
    for &x in v.value.iter() {
        if x != 0 {
            placed[x as usize - 1] += 1;
        }
    }
    let mut any = false;
    // (base lines, cover lines): columns 18.., rows 9...
    for (base, cover) in [(18, 9), (9, 18)] {
        for j in 1..9 {
            for i in 0..j {
                for d in 0..9 {
                    if placed[d] + 4 > 9 {
                        continue;
                    }
                    let index = |u: usize| -> u16 {
                        let mut m = 0u16;
                        for k in 0..9 {
                            if v.places[d] >> UNITS[u][k] & 1 != 0 {
                                m |= 1 << k;
                            }
                        }
                        m
                    };
                    let (pi, pj) = (index(base + i), index(base + j));
                    if pi.count_ones() < 2 || pj.count_ones() < 2 || (pi | pj).count_ones() != 2 {
                        continue;
                    }
                    let lines = 1u128 << i | 1u128 << j;
                    for k in bits(pi | pj) {
                        for (p, &c) in UNITS[cover + k].iter().enumerate() {
                            let c = c as usize;
                            if lines >> p & 1 == 0 && v.places[d] >> c & 1 != 0 {
                                f.note(c, 1 << d);
                            }
                        }
                    }
                    par.clear();
                    removed(v, UNIT_SET[base + i] | UNIT_SET[base + j], d, par);
                    any |= f.emit(par);
                }
            }
        }
    }
    any
}

/// Runs the techniques in serate's order on the chain's grid and keeps
/// the eliminations of the first that has any (with causes); whether one
/// did.
pub(super) fn basic(v: &View, f: &mut Found, par: &mut Vec<u16>) -> bool {
    f.offs.clear();
    f.parents.clear();
    locking(v, f, par) || hidden_pair(v, f, par) || naked_pair(v, f, par) || x_wing(v, f, par)
}
