//! Strong links on one digit joined by weak links (Skyscraper 4.0,
//! 2-String Kite and other two-link turbot fish 4.1).
//!
//! A strong link is a unit where the digit has exactly two places; two
//! such links whose inner ends see each other leave the digit true at one
//! of the outer ends, so a cell seeing both outer ends loses it.

use super::board::{Board, CELL_UNITS, PEER_SET, UNITS};
use super::Step;

/// Two strong links: the lowest rating, then the most eliminations.
pub(super) fn two_links(b: &Board, s: &mut Step) -> bool {
    s.clear();
    let mut best: Option<(u8, u32)> = None;
    let mut scratch = Step::default();
    for d in 1..=9 {
        let bit = 1u16 << (d - 1);
        // (cell, cell, unit type 0 box / 1 row / 2 column, unit)
        let mut links = [(0usize, 0usize, 0usize, 0usize); 27];
        let mut n = 0;
        for u in 0..27 {
            let p = b.positions(u, d);
            if p.count_ones() == 2 {
                let a = UNITS[u][p.trailing_zeros() as usize] as usize;
                let c = UNITS[u][15 - p.leading_zeros() as usize] as usize;
                links[n] = (a, c, u / 9, u);
                n += 1;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let (a1, b1, t1, u1) = links[i];
                let (a2, b2, t2, u2) = links[j];
                if u1 == u2 {
                    continue;
                }
                let tenths = if t1 != 0 && t1 == t2 { 40 } else { 41 };
                for (p1, q1) in [(a1, b1), (b1, a1)] {
                    for (p2, q2) in [(a2, b2), (b2, a2)] {
                        let cells = 1u128 << p1 | 1u128 << q1 | 1u128 << p2 | 1u128 << q2;
                        if cells.count_ones() != 4 || PEER_SET[q1] >> q2 & 1 == 0 {
                            continue;
                        }
                        // Both links in one unit pair would be a fish, not
                        // a chain: the outer ends must not share the unit
                        // the inner ends share.
                        if (0..3).any(|t| {
                            CELL_UNITS[q1][t] == CELL_UNITS[q2][t]
                                && CELL_UNITS[p1][t] == CELL_UNITS[q1][t]
                                && CELL_UNITS[p2][t] == CELL_UNITS[q1][t]
                        }) {
                            continue;
                        }
                        let victims = PEER_SET[p1] & PEER_SET[p2] & !cells;
                        scratch.clear();
                        if !scratch.eliminate_in(victims, bit, b) {
                            continue;
                        }
                        let count = scratch.elim_count();
                        if best.is_none_or(|(t, c)| tenths < t || (tenths == t && count > c)) {
                            best = Some((tenths, count));
                            let name = if tenths == 40 {
                                "Skyscraper"
                            } else if t1 != 0 && t2 != 0 {
                                "2-String Kite"
                            } else {
                                "2 Strong links"
                            };
                            scratch.set(tenths, name);
                            *s = scratch;
                        }
                    }
                }
            }
        }
    }
    best.is_some()
}
