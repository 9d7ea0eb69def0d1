//! Forcing chains and cycles on the grid as it stands (no assumption is
//! propagated into other candidates): X-Cycles, Y-Cycles and bidirectional
//! cycles (6.5, 7.0), forcing X-chains (6.6) and forcing chains (7.0),
//! each plus a length term.
//!
//! A candidate ("potential") is on or off. From an on candidate the others
//! of its cell (Y links, when enabled) and the same digit in its peers go
//! off; from an off candidate the cell's last candidate (Y links, when
//! enabled) and the digit's last place in a box, row or column (X links)
//! go on. A cycle returns to its start; a forcing chain from a candidate
//! reaches its opposite, so the start is the other way round. The search
//! is breadth first from each candidate, so the first chain found is the
//! shortest; among all, the step with the lowest rating, then the shortest,
//! then the kind (X before Y before both), then the first found, is taken.

use super::board::{Board, CELL_UNITS, ORDERED_PEERS, PEERS, UNITS};
use super::reach::Reach;
use super::{Shared, Step};

/// Number of candidates (cell * 9 + digit - 1).
const CANDS: usize = 81 * 9;
const NONE: u16 = u16::MAX;

/// The rating added for a chain of `complexity` candidates: 0.1 for each
/// ceiling passed in 4, 6, 8, 12, 16, 24, 32, ... (times 3/2 and 4/3 by
/// turns), counted from the complexity minus 2.
pub(super) fn length_tenths(complexity: usize) -> u8 {
    let length = complexity.saturating_sub(2);
    let (mut added, mut ceil, mut odd) = (0u8, 4usize, false);
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

#[inline]
fn cell_of(p: u16) -> usize {
    p as usize / 9
}

#[inline]
fn digit_of(p: u16) -> usize {
    p as usize % 9
}

/// Candidates going off when `p` is on: the cell's other candidates (with
/// Y links), then the digit in the box, the row and the column.
fn on_to_off(b: &Board, p: u16, y: bool, out: &mut Vec<u16>) {
    out.clear();
    let (c, d) = (cell_of(p), digit_of(p));
    if y {
        let mut m = b.cand[c] & !(1 << d);
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push((c * 9 + o) as u16);
        }
    }
    for &o in &ORDERED_PEERS[c] {
        let o = o as usize;
        if b.cand[o] >> d & 1 != 0 {
            out.push((o * 9 + d) as u16);
        }
    }
}

/// Candidates going on when `p` is off: the cell's other candidate if it
/// has two (Y links), and the digit's one other place in a unit (X links).
/// `pos` holds each unit's places of each digit (see [`positions`]).
fn off_to_on(b: &Board, pos: &Positions, p: u16, y: bool, x: bool, out: &mut Vec<u16>) {
    out.clear();
    let (c, d) = (cell_of(p), digit_of(p));
    if y && b.cand[c].count_ones() == 2 {
        let o = (b.cand[c] & !(1 << d)).trailing_zeros() as usize;
        out.push((c * 9 + o) as u16);
    }
    if x {
        for (t, &u) in CELL_UNITS[c].iter().enumerate() {
            let u = u as usize;
            let here = match t {
                0 => c / 9 % 3 * 3 + c % 9 % 3,
                1 => c % 9,
                _ => c / 9,
            };
            let others = pos[u][d] & !(1 << here);
            if others.count_ones() == 1 {
                let o = UNITS[u][others.trailing_zeros() as usize] as usize;
                out.push((o * 9 + d) as u16);
            }
        }
    }
}

/// Each unit's places (indexes within the unit) of each digit.
type Positions = [[u16; 9]; 27];

/// The places of every digit in every unit of `b`.
fn positions(b: &Board) -> Positions {
    let mut pos = [[0u16; 9]; 27];
    for (u, p) in pos.iter_mut().enumerate() {
        for (i, &c) in UNITS[u].iter().enumerate() {
            let mut m = b.cand[c as usize];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                p[d] |= 1 << i;
            }
        }
    }
    pos
}

/// The links of every candidate on the board searched, computed once per
/// step: what it turns off when on (without and with Y links), what it
/// turns on when off (X links, Y links, both).
pub(super) struct Tables {
    on_off: [Adj; 2],
    off_on: [Adj; 3],
}

/// Lists of candidates per candidate, flattened.
struct Adj {
    start: Vec<u32>,
    list: Vec<u16>,
}

impl Adj {
    fn build(mut f: impl FnMut(u16, &mut Vec<u16>)) -> Adj {
        let mut start = Vec::with_capacity(CANDS + 1);
        // Room for the most links a grid can have (8 digits and 20 peers
        // per candidate), so the list never grows.
        let mut list = Vec::with_capacity(CANDS * 28);
        let mut buf = Vec::with_capacity(32);
        for p in 0..CANDS as u16 {
            start.push(list.len() as u32);
            f(p, &mut buf);
            list.extend_from_slice(&buf);
        }
        start.push(list.len() as u32);
        Adj { start, list }
    }

    #[inline]
    fn get(&self, p: u16) -> &[u16] {
        &self.list[self.start[p as usize] as usize..self.start[p as usize + 1] as usize]
    }
}

impl Tables {
    fn new(b: &Board) -> Tables {
        let pos = positions(b);
        let present = |p: u16| b.cand[cell_of(p)] >> digit_of(p) & 1 != 0;
        let on = |y: bool| {
            Adj::build(|p, out| {
                out.clear();
                if present(p) {
                    on_to_off(b, p, y, out);
                }
            })
        };
        let off = |y: bool, x: bool| {
            Adj::build(|p, out| {
                out.clear();
                if present(p) {
                    off_to_on(b, &pos, p, y, x, out);
                }
            })
        };
        Tables {
            on_off: [on(false), on(true)],
            off_on: [off(false, true), off(true, false), off(true, true)],
        }
    }

    #[inline]
    fn on_to_off(&self, p: u16, y: bool) -> &[u16] {
        self.on_off[y as usize].get(p)
    }

    #[inline]
    fn off_to_on(&self, p: u16, y: bool, x: bool) -> &[u16] {
        let mode = match (y, x) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        self.off_on[mode].get(p)
    }
}

/// Scratch space for the searches, allocated once per step.
pub(super) struct Chains {
    /// For an on candidate reached: the on candidate before it.
    prev_on: Vec<u16>,
    /// For an on candidate reached: the off candidate between.
    via_off: Vec<u16>,
    depth: Vec<u16>,
    /// The search that last reached each on (off) candidate: a candidate
    /// is reached in this search when it holds `stamp`.
    on_seen: Vec<u32>,
    off_seen: Vec<u32>,
    stamp: u32,
    off_depth: Vec<u16>,
    pend_on: Vec<u16>,
    pend_off: Vec<(u16, u16)>,
    next_on: Vec<u16>,
    buf2: Vec<u16>,
    path: Vec<(u16, bool)>,
}

/// The best chain step so far: (tenths, complexity, sort key).
type Key = (u8, usize, u8);

impl Chains {
    pub(super) fn new() -> Chains {
        Chains {
            prev_on: vec![NONE; CANDS],
            via_off: vec![NONE; CANDS],
            depth: vec![0; CANDS],
            on_seen: vec![0; CANDS],
            off_seen: vec![0; CANDS],
            stamp: 0,
            off_depth: vec![0; CANDS],
            pend_on: Vec::with_capacity(CANDS),
            pend_off: Vec::with_capacity(CANDS * 4),
            next_on: Vec::with_capacity(CANDS),
            buf2: Vec::with_capacity(CANDS),
            path: Vec::with_capacity(64),
        }
    }

    /// Whether off candidate `q` is on the path from the start to on
    /// candidate `p`.
    fn is_ancestor(&self, mut p: u16, q: u16) -> bool {
        while self.prev_on[p as usize] != NONE {
            if self.via_off[p as usize] == q {
                return true;
            }
            p = self.prev_on[p as usize];
        }
        false
    }

    /// Cycles from on candidate `src`; each found is offered to `best`.
    fn cycles(&mut self, b: &Board, t: &Tables, src: u16, y: bool, x: bool, best: &mut Best) {
        self.stamp += 1;
        let stamp = self.stamp;
        self.prev_on[src as usize] = NONE;
        self.depth[src as usize] = 0;
        self.on_seen[src as usize] = stamp;
        self.pend_on.clear();
        self.pend_on.push(src);
        let mut length = 0;
        while !self.pend_on.is_empty() {
            length += 2;
            // The cycles closed at this level have `length` candidates;
            // when even so they cannot beat the best, neither can longer.
            if !best.better((
                cycle_base(y, x) + length_tenths(length),
                length,
                sort_key(y, x),
            )) {
                return;
            }
            self.pend_off.clear();
            for i in 0..self.pend_on.len() {
                let p = self.pend_on[i];
                for &q in t.on_to_off(p, y) {
                    if !self.is_ancestor(p, q) {
                        self.pend_off.push((q, p));
                    }
                }
            }
            self.next_on.clear();
            for i in 0..self.pend_off.len() {
                let (q, p) = self.pend_off[i];
                for &r in t.off_to_on(q, y, x) {
                    if length >= 4 && r == src {
                        self.offer_cycle(b, src, q, p, y, x, best);
                    }
                    if self.on_seen[r as usize] != stamp {
                        self.on_seen[r as usize] = stamp;
                        self.prev_on[r as usize] = p;
                        self.via_off[r as usize] = q;
                        self.depth[r as usize] = self.depth[p as usize] + 2;
                        self.next_on.push(r);
                    }
                }
            }
            std::mem::swap(&mut self.pend_on, &mut self.next_on);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn offer_cycle(
        &mut self,
        b: &Board,
        src: u16,
        q: u16,
        p: u16,
        y: bool,
        x: bool,
        best: &mut Best,
    ) {
        let complexity = self.depth[p as usize] as usize + 2;
        let tenths = cycle_base(y, x) + length_tenths(complexity);
        let key = (tenths, complexity, sort_key(y, x));
        if !best.better(key) {
            return;
        }
        // The cycle's candidates: the start (on), q (off), then p back to
        // the start's child.
        self.path.clear();
        self.path.push((src, true));
        self.path.push((q, false));
        let mut n = p;
        while self.prev_on[n as usize] != NONE {
            self.path.push((n, true));
            self.path.push((self.via_off[n as usize], false));
            n = self.prev_on[n as usize];
        }
        let mut cells = 0u128;
        for &(c, _) in &self.path {
            cells |= 1 << cell_of(c);
        }
        let mut forw = [0u16; 81];
        let mut back = [0u16; 81];
        for &(c, on) in &self.path {
            let (cell, d) = (cell_of(c), digit_of(c));
            for &o in &PEERS[cell] {
                let o = o as usize;
                if cells >> o & 1 == 0 && b.cand[o] >> d & 1 != 0 {
                    if on {
                        forw[o] |= 1 << d;
                    } else {
                        back[o] |= 1 << d;
                    }
                }
            }
        }
        let mut step = Step::default();
        let mut any = false;
        for i in 0..81 {
            step.elim[i] = forw[i] & back[i];
            any |= step.elim[i] != 0;
        }
        if any {
            let name = match (x, y) {
                (true, true) => "Bidirectional Cycle",
                (false, true) => "Bidirectional Y-Cycle",
                _ => "Bidirectional X-Cycle",
            };
            step.set(tenths, name);
            best.take(key, step);
        }
    }

    /// Forcing chain from `src` (on or off) to its opposite; breadth first,
    /// so the first found is the shortest.
    fn forcing(&mut self, b: &Board, t: &Tables, src: u16, src_on: bool, y: bool, best: &mut Best) {
        self.stamp += 1;
        let stamp = self.stamp;
        self.pend_on.clear();
        self.next_on.clear();
        self.buf2.clear();
        if src_on {
            self.on_seen[src as usize] = stamp;
            self.depth[src as usize] = 0;
            self.pend_on.push(src);
        } else {
            self.off_seen[src as usize] = stamp;
            self.off_depth[src as usize] = 0;
            self.buf2.push(src);
        }
        let mut found = None;
        // The chains found in the k-th round have 2k + 2 candidates; when
        // even so they cannot beat the best, neither can later ones.
        let mut shortest = 2;
        'search: while !self.pend_on.is_empty() || !self.buf2.is_empty() {
            if !best.better((
                forcing_base(y) + length_tenths(shortest),
                shortest,
                sort_key(y, true),
            )) {
                return;
            }
            shortest += 2;
            for i in 0..self.pend_on.len() {
                let p = self.pend_on[i];
                for &q in t.on_to_off(p, y) {
                    if src_on && q == src {
                        found = Some(self.depth[p as usize] as usize + 2);
                        break 'search;
                    }
                    if self.off_seen[q as usize] != stamp {
                        self.off_seen[q as usize] = stamp;
                        self.off_depth[q as usize] = self.depth[p as usize] + 1;
                        self.buf2.push(q);
                    }
                }
            }
            self.next_on.clear();
            for i in 0..self.buf2.len() {
                let q = self.buf2[i];
                for &r in t.off_to_on(q, y, true) {
                    if !src_on && r == src {
                        found = Some(self.off_depth[q as usize] as usize + 2);
                        break 'search;
                    }
                    if self.on_seen[r as usize] != stamp {
                        self.on_seen[r as usize] = stamp;
                        self.depth[r as usize] = self.off_depth[q as usize] + 1;
                        self.next_on.push(r);
                    }
                }
            }
            self.buf2.clear();
            std::mem::swap(&mut self.pend_on, &mut self.next_on);
        }
        let Some(complexity) = found else { return };
        let tenths = forcing_base(y) + length_tenths(complexity);
        let key = (tenths, complexity, sort_key(y, true));
        if !best.better(key) {
            return;
        }
        let mut step = Step::default();
        let (cell, d) = (cell_of(src), digit_of(src));
        if src_on {
            step.elim[cell] = 1 << d;
        } else {
            step.elim[cell] = b.cand[cell] & !(1 << d);
            step.place = Some((cell, d + 1));
        }
        step.set(
            tenths,
            if y {
                "Forcing Chain"
            } else {
                "Forcing X-Chain"
            },
        );
        best.take(key, step);
    }
}

/// The rating of a cycle before the length term: 7.0 with both kinds of
/// links, 6.5 with one.
fn cycle_base(y: bool, x: bool) -> u8 {
    if x && y {
        70
    } else {
        65
    }
}

/// The rating of a forcing chain before the length term: 7.0 with Y
/// links, 6.6 for a forcing X-chain.
fn forcing_base(y: bool) -> u8 {
    if y {
        70
    } else {
        66
    }
}

fn sort_key(y: bool, x: bool) -> u8 {
    match (y, x) {
        (true, true) => 4,
        (true, false) => 3,
        _ => 2,
    }
}

/// The best chain step found so far.
pub(super) struct Best {
    key: Option<Key>,
    step: Step,
}

impl Best {
    fn better(&self, key: Key) -> bool {
        self.key.is_none_or(|k| key < k)
    }

    fn take(&mut self, key: Key, step: Step) {
        self.key = Some(key);
        self.step = step;
    }
}

/// Forcing chains and cycles (serate's "Forcing Chains & Cycles" rule):
/// X-cycles and forcing X-chains, then Y-cycles, then cycles and forcing
/// chains with both kinds of links, from every candidate of every cell
/// with two or more.
pub(super) fn forcing_chains_cycles(b: &Board, s: &mut Step, shared: &mut Shared) -> bool {
    let mut ch = Chains::new();
    let tables = Tables::new(b);
    let mut best = Best {
        key: None,
        step: Step::default(),
    };
    for (y, x) in [(false, true), (true, false), (true, true)] {
        let own;
        let reach = if y && x {
            shared.reach(b)
        } else {
            own = Reach::new(b, y, x);
            &own
        };
        for c in 0..81 {
            let m = b.cand[c];
            if m.count_ones() < 2 || (!x && m.count_ones() > 2) {
                continue;
            }
            for d in 0..9 {
                if m >> d & 1 == 0 {
                    continue;
                }
                let p = (c * 9 + d) as u16;
                // Searched only where the graph has a cycle through the
                // candidate on, or a path to its opposite.
                let (on, off) = (p as usize * 2 + 1, p as usize * 2);
                if reach.on_cycle(on) {
                    ch.cycles(b, &tables, p, y, x, &mut best);
                }
                if x && reach.reaches(on, off) {
                    ch.forcing(b, &tables, p, true, y, &mut best);
                }
                if x && reach.reaches(off, on) {
                    ch.forcing(b, &tables, p, false, y, &mut best);
                }
            }
        }
    }
    if best.key.is_some() {
        *s = best.step;
        true
    } else {
        false
    }
}
