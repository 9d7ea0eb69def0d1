//! WXYZ-, VWXYZ-, UVWXYZ- and TUVWXYZ-Wings (5.5 to 7.5): an almost
//! locked set of three to six cells in one unit (one digit more than cells) and a
//! bivalue cell sharing both its digits with it. A digit of the bivalue
//! cell whose every holder in the set sees the bivalue cell is a
//! restricted common; the other digit then goes from every cell seeing all
//! its holders, the set's and the bivalue cell. With both digits
//! restricted (a double link), the set's other digits go from cells seeing
//! all their holders too.

use super::basic::subsets;
use super::board::{bits, cells_of, Board, Mask, PEER_SET, UNITS};
use super::Step;

/// The cells seeing every cell of `holders` (none of them included).
fn seeing_all(holders: u128) -> u128 {
    let mut s = (1u128 << 81) - 1;
    for c in cells_of(holders) {
        s &= PEER_SET[c];
    }
    s
}

/// The wing with `size` set cells: the lowest rating, then the most
/// eliminations.
pub(super) fn als_wing(b: &Board, s: &mut Step, size: u32) -> bool {
    let mut best: Option<(u8, u32)> = None;
    let mut scratch = Step::default();
    for u in 0..27 {
        // The places (indexes in the unit) of cells with two candidates
        // or more: a set is made of them only.
        let multi = (0..9)
            .filter(|&i| b.cand[UNITS[u][i] as usize].count_ones() >= 2)
            .fold(0, |m, i| m | 1 << i);
        for pick in subsets(size) {
            if pick & !multi != 0 {
                continue;
            }
            let mut set = 0u128;
            let mut union: Mask = 0;
            let mut biggest = 0;
            for i in bits(pick) {
                let c = UNITS[u][i] as usize;
                biggest = biggest.max(b.cand[c].count_ones());
                union |= b.cand[c];
                set |= 1 << c;
            }
            if union.count_ones() != size + 1 {
                continue;
            }
            // Holders of each digit in the set.
            let mut holders = [0u128; 9];
            for c in cells_of(set) {
                for d in bits(b.cand[c]) {
                    holders[d] |= 1 << c;
                }
            }
            let mut near = 0u128;
            for c in cells_of(set) {
                near |= PEER_SET[c];
            }
            near &= !set;
            let tenths: u8 = match size {
                3 => (55 + 1 - (3i32 - biggest as i32).abs()) as u8,
                4 => (62 + 2 - (3i32 - biggest as i32).abs()) as u8,
                5 => 66,
                _ => 75,
            };
            if best.is_some_and(|(t, _)| t < tenths) {
                continue;
            }
            for yz in cells_of(near) {
                let m = b.cand[yz];
                if m.count_ones() != 2 || m & union != m {
                    continue;
                }
                let x = m.trailing_zeros() as usize;
                let z = 15 - m.leading_zeros() as usize;
                let restricted = |d: usize| holders[d] & !PEER_SET[yz] == 0;
                let (rx, rz) = (restricted(x), restricted(z));
                if !rx && !rz {
                    continue;
                }
                scratch.clear();
                let others = !(set | 1u128 << yz);
                if rx != rz {
                    let e = if rx { z } else { x };
                    let victims = seeing_all(holders[e] | 1u128 << yz) & others;
                    scratch.eliminate_in(victims, 1 << e, b);
                } else {
                    for w in bits(union) {
                        let h = if w == x || w == z {
                            holders[w] | 1u128 << yz
                        } else {
                            holders[w]
                        };
                        let victims = seeing_all(h) & others;
                        scratch.eliminate_in(victims, 1 << w, b);
                    }
                }
                if !scratch.has_elims() {
                    continue;
                }
                let count = scratch.elim_count();
                if best.is_none_or(|(t, c)| tenths < t || (tenths == t && count > c)) {
                    best = Some((tenths, count));
                    let name = match size {
                        3 => "WXYZ-Wing",
                        4 => "VWXYZ-Wing",
                        5 => "UVWXYZ-Wing",
                        _ => "TUVWXYZ-Wing",
                    };
                    scratch.set(tenths, name);
                    *s = scratch;
                }
            }
        }
    }
    best.is_some()
}
