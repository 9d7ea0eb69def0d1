//! The techniques rated below 5.0 except the uniqueness tests and strong
//! links: singles, intersections (pointing and claiming, direct or not),
//! naked and hidden subsets, basic fish and XY/XYZ-Wings.
//!
//! Each finder looks for the first instance in Sudoku Explainer's
//! enumeration order (units, digits and subsets in the orders its rules
//! walk them), so that the path a puzzle takes is the one serate takes.

use super::board::{bits, Board, Mask, PEERS, PEER_SET, UNITS, UNIT_SET};
use super::Step;

/// Units in the order Sudoku Explainer walks them for singles and subsets:
/// boxes, then columns, then rows.
pub(super) const BOX_COL_ROW: [usize; 27] = {
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

/// Positions of every digit in a unit: `p[d - 1]`, indexes within the unit.
#[inline]
pub(super) fn unit_positions(b: &Board, unit: usize) -> [Mask; 9] {
    let mut p = [0; 9];
    for (i, &c) in UNITS[unit].iter().enumerate() {
        for d in bits(b.cand[c as usize]) {
            p[d] |= 1 << i;
        }
    }
    p
}

/// Every non-empty subset of 9 items as a bitmask, by size, then in
/// increasing numeric order within a size; `SUBSET_START[k]` is where the
/// k-subsets start.
const SUBSETS: [Mask; 511] = {
    let mut out = [0 as Mask; 511];
    let mut n = 0;
    let mut k = 1;
    while k <= 9 {
        let mut m: Mask = 1;
        while m < 512 {
            if m.count_ones() == k {
                out[n] = m;
                n += 1;
            }
            m += 1;
        }
        k += 1;
    }
    out
};

const SUBSET_START: [usize; 11] = {
    let mut start = [0usize; 11];
    let mut k = 1;
    while k <= 10 {
        let mut n = 0;
        while n < 511 && SUBSETS[n].count_ones() < k as u32 {
            n += 1;
        }
        start[k] = n;
        k += 1;
    }
    start[10] = 511;
    start
};

/// The k-subsets of 9 items (k from 1 to 9) as bitmasks in increasing
/// numeric order (the order of Sudoku Explainer's `Permutations`).
pub(super) fn subsets(k: u32) -> impl Iterator<Item = Mask> {
    SUBSETS[SUBSET_START[k as usize]..SUBSET_START[k as usize + 1]]
        .iter()
        .copied()
}

/// Hidden singles: first a digit in the last empty cell of a unit (1.0),
/// then a digit with one place left in a box (1.2) or a line (1.5).
pub(super) fn hidden_single(b: &Board, s: &mut Step) -> bool {
    for alone in [true, false] {
        for &u in &BOX_COL_ROW {
            let empty = b.empty_count(u);
            if (empty == 1) != alone {
                continue;
            }
            let pos = unit_positions(b, u);
            for d in 0..9 {
                if pos[d].count_ones() == 1 {
                    let cell = UNITS[u][pos[d].trailing_zeros() as usize] as usize;
                    let tenths = if alone {
                        10
                    } else if u < 9 {
                        12
                    } else {
                        15
                    };
                    s.set(tenths, "Hidden Single");
                    s.place = Some((cell, d + 1));
                    return true;
                }
            }
        }
    }
    false
}

/// Naked single: a cell with one candidate left (2.3).
pub(super) fn naked_single(b: &Board, s: &mut Step) -> bool {
    for c in 0..81 {
        if b.cand[c].count_ones() == 1 {
            s.set(23, "Naked Single");
            s.place = Some((c, b.cand[c].trailing_zeros() as usize + 1));
            return true;
        }
    }
    false
}

/// The cells of a unit at the given positions, as a cell set.
#[inline]
fn cells_at(unit: usize, pos: Mask) -> u128 {
    bits(pos).fold(0u128, |s, i| s | 1 << UNITS[unit][i])
}

/// Pointing and claiming. In direct mode the elimination must leave a
/// hidden single in another unit of the first unit's type (1.7 pointing,
/// 1.9 claiming), and the step only places that digit; otherwise any
/// elimination counts (2.6 pointing, 2.8 claiming).
pub(super) fn intersection(b: &Board, s: &mut Step, direct: bool) -> bool {
    // (first unit type, second unit type) in Sudoku Explainer's order:
    // box-column, box-row, column-box, row-box.
    const PAIRS: [(usize, usize); 4] = [(0, 18), (0, 9), (18, 0), (9, 0)];
    for &(t1, t2) in &PAIRS {
        for d in 1..=9 {
            for i1 in 0..9 {
                let u1 = t1 + i1;
                let p1 = b.positions(u1, d);
                if p1.count_ones() < 2 {
                    continue;
                }
                let set1 = cells_at(u1, p1);
                for i2 in 0..9 {
                    let u2 = t2 + i2;
                    if UNIT_SET[u1] & UNIT_SET[u2] == 0 || set1 & !UNIT_SET[u2] != 0 {
                        continue;
                    }
                    let bit = 1 << (d - 1);
                    let elim_cells = UNIT_SET[u2] & !UNIT_SET[u1];
                    if direct {
                        for i3 in 0..9 {
                            let u3 = t1 + i3;
                            if i3 == i1 || UNIT_SET[u3] & UNIT_SET[u2] == 0 {
                                continue;
                            }
                            let p3 = b.positions(u3, d);
                            if p3.count_ones() < 2 {
                                continue;
                            }
                            let rest = cells_at(u3, p3) & !UNIT_SET[u2];
                            if rest.count_ones() == 1 {
                                // A direct step only places the digit: the
                                // elimination is its explanation.
                                if t1 == 0 {
                                    s.set(17, "Direct Pointing");
                                } else {
                                    s.set(19, "Direct Claiming");
                                }
                                s.place = Some((rest.trailing_zeros() as usize, d));
                                return true;
                            }
                        }
                    } else if s.eliminate_in(elim_cells, bit, b) {
                        if t1 == 0 {
                            s.set(26, "Pointing");
                        } else {
                            s.set(28, "Claiming");
                        }
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Hidden subsets of `degree` digits. Direct mode (pairs 2.0, triplets 2.5)
/// needs the subset to leave a hidden single for another digit in the same
/// unit, and the step only places that digit; otherwise it needs an elimination (pair 3.4,
/// triplet 4.0, quad 5.4).
pub(super) fn hidden_set(b: &Board, s: &mut Step, degree: u32, direct: bool) -> bool {
    for &u in &BOX_COL_ROW {
        let empty = b.empty_count(u);
        if !(empty > degree * 2 || (direct && empty > degree)) {
            continue;
        }
        let pos = unit_positions(b, u);
        // Digits with two places or more: a subset needs all its digits so.
        let eligible = (0..9)
            .filter(|&d| pos[d].count_ones() >= 2)
            .fold(0u16, |m, d| m | 1 << d);
        if eligible.count_ones() < degree {
            continue;
        }
        for digits in subsets(degree) {
            if digits & !eligible != 0 {
                continue;
            }
            let mut union = 0;
            let mut ok = true;
            for d in bits(digits) {
                if pos[d].count_ones() < 2 {
                    ok = false;
                    break;
                }
                union |= pos[d];
            }
            if !ok || union.count_ones() != degree {
                continue;
            }
            s.clear();
            for i in bits(union) {
                let c = UNITS[u][i] as usize;
                s.elim[c] = b.cand[c] & !digits;
            }
            if direct {
                for d in 0..9 {
                    if digits >> d & 1 != 0 || pos[d].count_ones() < 2 {
                        continue;
                    }
                    let rest = pos[d] & !union;
                    if rest.count_ones() == 1 {
                        // Only the digit is placed (as serate does).
                        s.clear();
                        let (t, name) = match degree {
                            2 => (20, "Direct Hidden Pair"),
                            _ => (25, "Direct Hidden Triplet"),
                        };
                        s.set(t, name);
                        s.place = Some((UNITS[u][rest.trailing_zeros() as usize] as usize, d + 1));
                        return true;
                    }
                }
            } else if s.has_elims() {
                let (t, name) = match degree {
                    2 => (34, "Hidden Pair"),
                    3 => (40, "Hidden Triplet"),
                    _ => (54, "Hidden Quad"),
                };
                s.set(t, name);
                return true;
            }
        }
    }
    s.clear();
    false
}

/// Naked subsets of `degree` cells (pair 3.0, triplet 3.6, quad 5.0).
pub(super) fn naked_set(b: &Board, s: &mut Step, degree: u32) -> bool {
    for &u in &BOX_COL_ROW {
        if b.empty_count(u) < degree * 2 {
            continue;
        }
        for cells in subsets(degree) {
            let mut union = 0;
            let mut ok = true;
            for i in bits(cells) {
                let m = b.cand[UNITS[u][i] as usize];
                if m.count_ones() < 2 {
                    ok = false;
                    break;
                }
                union |= m;
            }
            if !ok || union.count_ones() != degree {
                continue;
            }
            s.clear();
            for i in 0..9 {
                if cells >> i & 1 == 0 {
                    let c = UNITS[u][i] as usize;
                    s.elim[c] = b.cand[c] & union;
                }
            }
            if s.has_elims() {
                let (t, name) = match degree {
                    2 => (30, "Naked Pair"),
                    3 => (36, "Naked Triplet"),
                    _ => (50, "Naked Quad"),
                };
                s.set(t, name);
                return true;
            }
        }
    }
    s.clear();
    false
}

/// Basic fish of `degree` lines: columns as base first, then rows
/// (X-Wing 3.2, Swordfish 3.8, Jellyfish 5.2).
pub(super) fn fish(b: &Board, s: &mut Step, degree: u32) -> bool {
    let mut placed = [0u32; 10];
    for &v in &b.value {
        placed[v as usize] += 1;
    }
    for (base, cover) in [(18usize, 9usize), (9, 18)] {
        // Positions of each digit in each base line: index within the line
        // is the cross line's number.
        let mut pos = [[0 as Mask; 9]; 9];
        for (i, p) in pos.iter_mut().enumerate() {
            *p = unit_positions(b, base + i);
        }
        for lines in subsets(degree) {
            for d in 0..9 {
                if placed[d + 1] + degree * 2 > 9 {
                    continue;
                }
                let mut union = 0;
                let mut ok = true;
                for i in bits(lines) {
                    if pos[i][d].count_ones() < 2 {
                        ok = false;
                        break;
                    }
                    union |= pos[i][d];
                }
                if !ok || union.count_ones() != degree {
                    continue;
                }
                s.clear();
                for j in bits(union) {
                    for (i, &c) in UNITS[cover + j].iter().enumerate() {
                        if lines >> i & 1 == 0 {
                            s.elim[c as usize] = b.cand[c as usize] & 1 << d;
                        }
                    }
                }
                if s.has_elims() {
                    let (t, name) = match degree {
                        2 => (32, "X-Wing"),
                        3 => (38, "Swordfish"),
                        _ => (52, "Jellyfish"),
                    };
                    s.set(t, name);
                    return true;
                }
            }
        }
    }
    s.clear();
    false
}

/// XY-Wing (4.2) and XYZ-Wing (4.4): a pivot with two or three candidates
/// and two bivalue pincers among its peers.
pub(super) fn xy_wing(b: &Board, s: &mut Step, xyz: bool) -> bool {
    let target = if xyz { 3 } else { 2 };
    for xy in 0..81 {
        let m = b.cand[xy];
        if m.count_ones() != target {
            continue;
        }
        for &xz in &PEERS[xy] {
            let mxz = b.cand[xz as usize];
            if mxz.count_ones() != 2 || (m & !mxz).count_ones() != 1 {
                continue;
            }
            for &yz in &PEERS[xy] {
                let myz = b.cand[yz as usize];
                if myz.count_ones() != 2 || (m | mxz | myz).count_ones() != 3 {
                    continue;
                }
                let inter = m & mxz & myz;
                if inter.count_ones() != if xyz { 1 } else { 0 } {
                    continue;
                }
                let z = mxz & myz;
                if z.count_ones() != 1 {
                    continue;
                }
                let mut victims = PEER_SET[xz as usize] & PEER_SET[yz as usize];
                if xyz {
                    victims &= PEER_SET[xy];
                }
                victims &= !(1u128 << xy | 1u128 << xz | 1u128 << yz);
                s.clear();
                if s.eliminate_in(victims, z, b) {
                    if xyz {
                        s.set(44, "XYZ-Wing");
                    } else {
                        s.set(42, "XY-Wing");
                    }
                    return true;
                }
            }
        }
    }
    s.clear();
    false
}
