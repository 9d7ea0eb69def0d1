//! Chains of strong links on one digit (serate's "Strong Links" rules):
//! two links (Skyscraper 4.0, 2-String Kite and turbot fish 4.1), three
//! (5.4 and up) and four (5.8 and up); 0.3 more when a link is grouped.
//!
//! A strong link is a unit where the digit is in one of two places, or
//! one of two groups of places (a line whose places lie in two boxes, or a
//! box whose places lie in one row and one column of it). Links follow one
//! another through weak links (the end of one and the start of the next
//! share a unit); one of the chain's two outer ends holds the digit, so a
//! cell seeing both loses it. When the outer ends share a unit too, the
//! chain is a loop and every weak link's unit loses the digit.

use super::board::{cells_of, Board, CELL_UNITS, PEER_SET, UNITS, UNIT_SET};
use super::Step;

/// One strong link: its unit type (0 box, 1 row, 2 column), its two
/// sides as cell sets, and whether a side is a group.
#[derive(Clone, Copy)]
struct Link {
    kind: usize,
    unit: usize,
    a: u128,
    b: u128,
    grouped: bool,
    /// The units holding all of side `a`, of side `b` (bit per unit).
    units_a: u32,
    units_b: u32,
    /// The cells seeing every cell of side `a`, of side `b`.
    see_a: u128,
    see_b: u128,
}

/// Whether all cells of `set` lie in one unit; the units that hold them
/// (all units for an empty set).
fn common_units(set: u128) -> u32 {
    cells_of(set).fold((1 << 27) - 1, |m, c| {
        m & CELL_UNITS[c].iter().fold(0, |m, &u| m | 1 << u)
    })
}

/// The cells seeing every cell of `set`.
fn seeing_all(set: u128) -> u128 {
    let mut s = (1u128 << 81) - 1;
    for c in cells_of(set) {
        s &= PEER_SET[c];
    }
    s & !set
}

/// A link of `kind` in `unit` between sides `a` and `b`.
fn link(kind: usize, unit: usize, a: u128, b: u128, grouped: bool) -> Link {
    Link {
        kind,
        unit,
        a,
        b,
        grouped,
        units_a: common_units(a),
        units_b: common_units(b),
        see_a: seeing_all(a),
        see_b: seeing_all(b),
    }
}

fn links_of(b: &Board, d: usize, out: &mut Vec<Link>) {
    out.clear();
    for u in 0..27 {
        let pos = b.positions(u, d);
        let n = pos.count_ones();
        if !(2..=6).contains(&n) {
            continue;
        }
        let cell = |i: usize| UNITS[u][i] as usize;
        let set: u128 = (0..9)
            .filter(|i| pos >> i & 1 != 0)
            .fold(0, |s, i| s | 1u128 << cell(i));
        let kind = u / 9;
        if n == 2 {
            let a = 1u128 << cell(pos.trailing_zeros() as usize);
            out.push(link(kind, u, a, set & !a, false));
            continue;
        }
        if kind == 0 {
            // A box: all places in one row and one column of it, the
            // crossing cell (if a place) on either side.
            for e in 0..9 {
                let (r, c) = (e / 3, e % 3);
                let row: u128 = (0..3).fold(0, |s, j| s | 1u128 << cell(r * 3 + j));
                let col: u128 = (0..3).fold(0, |s, i| s | 1u128 << cell(i * 3 + c));
                if set & !(row | col) != 0 {
                    continue;
                }
                let heart = 1u128 << cell(e);
                let (ra, cb) = (set & row & !heart, set & col & !heart);
                if ra == 0 || cb == 0 {
                    continue;
                }
                out.push(link(kind, u, ra | (set & heart), cb, true));
                if set & heart != 0 {
                    out.push(link(kind, u, ra, cb | heart, true));
                }
                break;
            }
        } else {
            // A line: its places in two of its three boxes.
            let segs: Vec<u128> = (0..3)
                .map(|k| set & (0..3).fold(0, |s, j| s | 1u128 << cell(k * 3 + j)))
                .filter(|&s| s != 0)
                .collect();
            if segs.len() == 2 {
                out.push(link(kind, u, segs[0], segs[1], true));
            }
        }
    }
}

/// How the oriented links of one digit (link index * 2, plus 1 when its
/// sides are swapped) chain, as sets of oriented links (a bit each: a
/// digit has at most 36 links, two per box and one per line, so 72
/// oriented links fit in a `u128`). Built once per digit, so the search
/// walks only the links that can follow instead of testing all of them at
/// every depth, in increasing order as before.
struct Graph {
    /// For each oriented link, those that may follow it in a chain: whose
    /// near side shares a unit with its far side (the weak link).
    follow: Vec<u128>,
    /// For each oriented link, those it may follow.
    precede: Vec<u128>,
    /// The oriented links whose far side lies in each unit.
    far_in: [u128; 27],
    /// For each cell, the oriented links whose far side it sees.
    seen_by: [u128; 81],
}

impl Graph {
    fn build(&mut self, links: &[Link], places: u128) {
        let mut near_in = [0u128; 27];
        self.far_in = [0; 27];
        self.seen_by = [0; 81];
        for (i, l) in links.iter().enumerate() {
            let (o, swapped) = (1u128 << (2 * i), 1u128 << (2 * i + 1));
            for u in cells_of(l.units_a.into()) {
                near_in[u] |= o;
                self.far_in[u] |= swapped;
            }
            for u in cells_of(l.units_b.into()) {
                near_in[u] |= swapped;
                self.far_in[u] |= o;
            }
            for c in cells_of(l.see_b & places) {
                self.seen_by[c] |= o;
            }
            for c in cells_of(l.see_a & places) {
                self.seen_by[c] |= swapped;
            }
        }
        self.follow.clear();
        self.precede.clear();
        for l in links {
            for (near, far) in [(l.units_a, l.units_b), (l.units_b, l.units_a)] {
                self.follow
                    .push(cells_of(far.into()).fold(0, |m, u| m | near_in[u]));
                self.precede
                    .push(cells_of(near.into()).fold(0, |m, u| m | self.far_in[u]));
            }
        }
    }
}

/// Iterates over the set bits of a 128-bit set, lowest first.
fn members(set: u128) -> impl Iterator<Item = usize> {
    cells_of(set)
}

struct Search<'a> {
    b: &'a Board,
    d: usize,
    /// The cells holding digit `d`.
    places: u128,
    n: usize,
    links: &'a [Link],
    graph: &'a Graph,
    /// For the chain's start, the oriented links worth trying at each
    /// depth: at the last, those whose far side is seen by a cell seeing
    /// the start (or closes a loop); before, those some link worth trying
    /// next can follow. Other chains remove nothing.
    worth: [u128; 4],
    /// The chain: link index and orientation (sides swapped).
    chain: [(usize, bool); 4],
    best: Option<(u8, u32)>,
    step: &'a mut Step,
}

impl Search<'_> {
    fn sides(&self, i: usize) -> (u128, u128) {
        let (l, swap) = self.chain[i];
        let l = &self.links[l];
        if swap {
            (l.b, l.a)
        } else {
            (l.a, l.b)
        }
    }

    /// The units holding the near side of chain link `i`.
    fn start_units(&self, i: usize) -> u32 {
        let (l, swap) = self.chain[i];
        let l = &self.links[l];
        if swap {
            l.units_b
        } else {
            l.units_a
        }
    }

    /// The units holding the far side of chain link `i`.
    fn end_units(&self, i: usize) -> u32 {
        let (l, swap) = self.chain[i];
        let l = &self.links[l];
        if swap {
            l.units_a
        } else {
            l.units_b
        }
    }

    fn dfs(&mut self, depth: usize, used: u128, units: u32) {
        if depth == self.n {
            self.finish(used);
            return;
        }
        if depth == 0 {
            for o in 0..self.links.len() * 2 {
                if self.worth_from(o) {
                    self.extend(0, o, used, units);
                }
            }
        } else {
            let (li, swap) = self.chain[depth - 1];
            let o = li * 2 + swap as usize;
            for next in members(self.graph.follow[o] & self.worth[depth]) {
                self.extend(depth, next, used, units);
            }
        }
    }

    /// Sets `worth` for chains starting with oriented link `o`; whether
    /// any is worth trying.
    fn worth_from(&mut self, o: usize) -> bool {
        let g = self.graph;
        let start = &self.links[o / 2];
        let (near_see, near_units) = if o % 2 == 1 {
            (start.see_b, start.units_b)
        } else {
            (start.see_a, start.units_a)
        };
        let seen = cells_of(near_see & self.places).fold(0, |m, v| m | g.seen_by[v]);
        let ring = cells_of(near_units.into()).fold(0, |m, u| m | g.far_in[u]);
        // Two links closing a loop remove nothing.
        self.worth[self.n - 1] = if self.n > 2 {
            seen | ring
        } else {
            seen & !ring
        };
        for k in (1..self.n - 1).rev() {
            self.worth[k] = members(self.worth[k + 1]).fold(0, |m, q| m | g.precede[q]);
        }
        g.follow[o] & self.worth[1] != 0
    }

    /// Puts oriented link `o` (see [`Graph`]) at `depth` of the chain
    /// when its unit and cells are not in the chain yet, and goes on.
    fn extend(&mut self, depth: usize, o: usize, used: u128, units: u32) {
        let l = self.links[o / 2];
        if units >> l.unit & 1 != 0 || (l.a | l.b) & used != 0 {
            return;
        }
        self.chain[depth] = (o / 2, o % 2 == 1);
        self.dfs(depth + 1, used | l.a | l.b, units | 1 << l.unit);
    }

    /// Rates the chain found and, when it removes something and beats the
    /// best so far, keeps it. The rating comes first, as it needs only
    /// the links' kinds, so most chains are dropped before their removals
    /// are worked out (this runs for every chain of the search).
    fn finish(&mut self, used: u128) {
        let mut grouped = false;
        let (mut boxes, mut rows, mut cols) = (false, false, false);
        for i in 0..self.n {
            let l = &self.links[self.chain[i].0];
            grouped |= l.grouped;
            match l.kind {
                0 => boxes = true,
                1 => rows = true,
                _ => cols = true,
            }
        }
        let mixed = rows && cols;
        let base: u8 = match self.n {
            2 => 40,
            3 => 54,
            _ => 58,
        };
        let tenths = base
            + if grouped {
                3
            } else if !boxes && !mixed {
                0
            } else if boxes && mixed {
                2
            } else {
                1
            };
        if self.best.is_some_and(|(t, _)| tenths > t) {
            return;
        }
        // The cells losing the digit: those seeing both ends, and on a
        // loop those sharing a unit with both sides of a weak link.
        let (start, _) = self.sides(0);
        let (_, end) = self.sides(self.n - 1);
        let mut victims = seeing_all(start | end);
        let ring = self.start_units(0) & self.end_units(self.n - 1);
        if ring != 0 {
            if self.n == 2 {
                return;
            }
            for i in 0..self.n {
                let weak = self.end_units(i) & self.start_units((i + 1) % self.n);
                for u in cells_of(weak as u128) {
                    victims |= UNIT_SET[u];
                }
            }
        }
        victims &= self.places & !used;
        let count = victims.count_ones();
        if count == 0 || self.best.is_some_and(|(t, c)| tenths == t && count <= c) {
            return;
        }
        self.best = Some((tenths, count));
        let plain = !boxes && !mixed;
        let name = match (self.n, grouped, plain, !boxes) {
            (2, false, true, _) => "Skyscraper",
            (2, true, true, _) => "Grouped Skyscraper",
            (2, false, false, true) => "2-String Kite",
            (2, true, false, true) => "Grouped 2-String Kite",
            (2, false, _, _) => "2 Strong links",
            (2, true, _, _) => "Grouped 2 Strong links",
            (3, false, true, _) => "3 Skyscrapers",
            (3, true, true, _) => "Grouped 3 Skyscrapers",
            (3, false, false, true) => "3-String Kite",
            (3, true, false, true) => "Grouped 3-String Kite",
            (3, false, _, _) => "3 Strong links",
            (3, true, _, _) => "Grouped 3 Strong links",
            (_, false, true, _) => "4 Skyscrapers",
            (_, true, true, _) => "Grouped 4 Skyscrapers",
            (_, false, _, _) => "4 Strong links",
            (_, true, _, _) => "Grouped 4 Strong links",
        };
        self.step.clear();
        self.step.eliminate_in(victims, 1 << (self.d - 1), self.b);
        self.step.set(tenths, name);
    }
}

/// The strong links of every digit on one board and how they chain,
/// computed once for the three searches (two, three and four links) of a
/// step.
pub(super) struct Table {
    /// For digits 1 to 9: the cells holding it, its links and their graph.
    digits: Vec<(u128, Vec<Link>, Graph)>,
}

impl Table {
    pub(super) fn new(b: &Board) -> Table {
        let digits = (1..=9)
            .map(|d| {
                let mut links = Vec::with_capacity(36);
                links_of(b, d, &mut links);
                let places =
                    (0..81).fold(0u128, |m, c| m | u128::from(b.cand[c] >> (d - 1) & 1) << c);
                let mut graph = Graph {
                    follow: Vec::with_capacity(72),
                    precede: Vec::with_capacity(72),
                    far_in: [0; 27],
                    seen_by: [0; 81],
                };
                graph.build(&links, places);
                (places, links, graph)
            })
            .collect();
        Table { digits }
    }
}

/// Chains of `n` strong links (2 to 4) in `table`, the links of board
/// `b`: the lowest rating, then the most eliminations.
pub(super) fn strong_links(b: &Board, s: &mut Step, n: usize, table: &Table) -> bool {
    s.clear();
    let mut best = None;
    for (d, (places, links, graph)) in (1..=9).zip(&table.digits) {
        let mut search = Search {
            b,
            d,
            places: *places,
            n,
            links,
            graph,
            worth: [0; 4],
            chain: [(0, false); 4],
            best,
            step: s,
        };
        search.dfs(0, 0, 0);
        best = search.best;
    }
    best.is_some()
}
