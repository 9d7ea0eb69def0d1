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
//!
//! One level deeper (Dynamic Forcing Chains (+ Forcing Chains)), when
//! those four find nothing, serate's static forcing chains and cycles are
//! searched on the chain's grid: every X-, Y- and XY-cycle and forcing
//! chain, easiest first, one per set of eliminations; each counts with
//! the removed candidates its links need (a cell's or a unit's), and its
//! complexity is added to the steps that use it. At (+ Multiple Forcing
//! Chains) the same, then static cell and region forcing chains
//! ([`super::multiple`]). The search is as exhaustive as serate's, but
//! runs only from the candidates where the chain grid's implication graph
//! ([`super::reach`]) has a cycle or a path to the negation.

use super::basic::BOX_COL_ROW;
use super::board::{bits, cells_of, Board, Mask, UNITS, UNIT_SET};
use super::reach::Reach;

/// Eliminations found inside a chain: each candidate (cell * 9 + digit)
/// turned off and its causes, the off nodes (`cand * 2`) of the removed
/// candidates the technique needed.
#[derive(Default)]
pub(super) struct Found {
    /// (candidate, start, end) of the causes in `parents`, and the nested
    /// chain that found it: an identity and its complexity ((0, 0) for
    /// none).
    pub offs: Vec<Off>,
    pub parents: Vec<u16>,
    /// The nested chain of the hint being emitted.
    nested: Option<(u64, u32)>,
    /// Scratch: one hint's eliminations, (cell, digits) in the order
    /// first found.
    removals: Vec<(usize, Mask)>,
}

/// What [`basic`] found at levels 2 and 3 (the basic techniques, then
/// static forcing chains and cycles) on the grids chains of one step have
/// reached, by grid: the board a step's chains start from is the same at
/// every level, so the level-3 search meets again every grid of the
/// level-2 search before it, until a rule only level 3 has fires.
#[derive(Default)]
pub(super) struct Cache {
    found: std::collections::HashMap<[Mask; 81], (Vec<Off>, Vec<u16>)>,
}

/// Grids kept at most: the cache is dropped whole past this (about 100
/// MB of grids and eliminations at worst).
const CACHE_GRIDS: usize = 200_000;

impl Cache {
    /// [`basic`] at level 2 on `v`, from the cache when `v.grid` was seen.
    pub(super) fn basic(&mut self, v: &View, f: &mut Found, par: &mut Vec<u16>) -> bool {
        if let Some((offs, parents)) = self.found.get(v.grid) {
            f.offs.clone_from(offs);
            f.parents.clone_from(parents);
            return !f.offs.is_empty();
        }
        let any = basic(v, f, par, 2);
        if self.found.len() >= CACHE_GRIDS {
            self.found.clear();
        }
        self.found
            .insert(*v.grid, (f.offs.clone(), f.parents.clone()));
        any
    }
}

/// A candidate turned off inside a chain: (candidate, start, end) of its
/// causes in [`Found::parents`], and the nested chain that found it (an
/// identity and its complexity; (0, 0) for none).
pub(super) type Off = (u16, u32, u32, (u64, u32));

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
    /// The nested chain of the hints emitted next, if any.
    pub(super) fn set_nested(&mut self, nested: Option<(u64, u32)>) {
        self.nested = nested;
    }

    pub(super) fn note(&mut self, cell: usize, digits: Mask) {
        if let Some(r) = self.removals.iter_mut().find(|r| r.0 == cell) {
            r.1 |= digits;
        } else {
            self.removals.push((cell, digits));
        }
    }

    /// Records the hint gathered in `removals`, caused by `parents`; it
    /// counts only when it has eliminations and causes.
    pub(super) fn emit(&mut self, parents: &[u16]) -> bool {
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
        let nested = self.nested.unwrap_or((0, 0));
        for &(c, m) in &self.removals {
            for d in bits(m) {
                self.offs.push(((c * 9 + d) as u16, start, end, nested));
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

/// Hidden pairs: two digits with the same two places (each digit in two
/// places at least) in a unit with more than four empty cells.
fn hidden_pair(v: &View, f: &mut Found, par: &mut Vec<u16>) -> bool {
    let mut any = false;
    for &u in &BOX_COL_ROW {
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
    for &u in &BOX_COL_ROW {
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
        // The places of each digit in each base line, as positions 0..9.
        let mut index = [[0u16; 9]; 9];
        for (d, lines) in index.iter_mut().enumerate() {
            for (i, m) in lines.iter_mut().enumerate() {
                for (k, &c) in UNITS[base + i].iter().enumerate() {
                    *m |= ((v.places[d] >> c & 1) as u16) << k;
                }
            }
        }
        for j in 1..9 {
            for i in 0..j {
                for d in 0..9 {
                    if placed[d] + 4 > 9 {
                        continue;
                    }
                    let (pi, pj) = (index[d][i], index[d][j]);
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
pub(super) fn basic(v: &View, f: &mut Found, par: &mut Vec<u16>, level: u8) -> bool {
    f.offs.clear();
    f.parents.clear();
    locking(v, f, par)
        || hidden_pair(v, f, par)
        || naked_pair(v, f, par)
        || x_wing(v, f, par)
        || ((level == 2 || level == 3) && static_chains(v, f, par))
}

/// How a potential of a static chain came: the start, the cell's last or
/// other digit, or a box, row or column (the unit type + 2).
pub(super) const START: u8 = 0;
pub(super) const CELL: u8 = 1;

/// A candidate on or off in a static chain search, with the potential it
/// follows from (`u32::MAX` for the start) and its cause.
#[derive(Clone, Copy)]
struct Pot {
    cand: u16,
    on: bool,
    parent: u32,
    cause: u8,
}

/// One hint of the nested Forcing Chains & Cycles rule.
struct ChainHint {
    tenths: u8,
    complexity: u32,
    sort: u8,
    removals: Vec<(usize, Mask)>,
    /// The chain ends whose potentials are its causes (both ends of a
    /// cycle count every potential; a forcing chain its on ones).
    end: u32,
    cycle: bool,
}

/// Static chains on the chain's grid (serate's "Forcing Chains & Cycles"
/// run inside Dynamic Forcing Chains (+ Forcing Chains)): every cycle and
/// forcing chain, in its order.
struct Statics<'v, 'a> {
    v: &'v View<'a>,
    arena: Vec<Pot>,
    hints: Vec<ChainHint>,
}

impl Statics<'_, '_> {
    fn push(&mut self, cand: usize, on: bool, parent: u32, cause: u8) -> u32 {
        self.arena.push(Pot {
            cand: cand as u16,
            on,
            parent,
            cause,
        });
        self.arena.len() as u32 - 1
    }

    /// Off candidates from on potential `p`: the cell's other digits (Y),
    /// then the digit in the box, row and column.
    fn on_to_off(&self, p: u32, y: bool, out: &mut Vec<(usize, u8)>) {
        out.clear();
        let cand = self.arena[p as usize].cand as usize;
        let (c, d) = (cand / 9, cand % 9);
        if y {
            for o in bits(self.v.grid[c] & !(1 << d)) {
                out.push((c * 9 + o, CELL));
            }
        }
        let mut done = 1u128 << c;
        for t in 0..3 {
            let u = super::board::CELL_UNITS[c][t] as usize;
            for &o in &UNITS[u] {
                let o = o as usize;
                if done >> o & 1 == 0 && self.v.places[d] >> o & 1 != 0 {
                    done |= 1 << o;
                    out.push((o * 9 + d, 2 + t as u8));
                }
            }
        }
    }

    /// On candidates from off potential `p`: the cell's other digit when
    /// it has two (Y), the digit's other place in a unit with two (X).
    fn off_to_on(&self, p: u32, y: bool, x: bool, out: &mut Vec<(usize, u8)>) {
        out.clear();
        let cand = self.arena[p as usize].cand as usize;
        let (c, d) = (cand / 9, cand % 9);
        let m = self.v.grid[c];
        if y && m.count_ones() == 2 {
            let o = (m & !(1 << d)).trailing_zeros() as usize;
            out.push((c * 9 + o, CELL));
        }
        if x {
            for t in 0..3 {
                let u = super::board::CELL_UNITS[c][t] as usize;
                let others = self.v.places[d] & UNIT_SET[u] & !(1 << c);
                if others.count_ones() == 1 {
                    out.push((others.trailing_zeros() as usize * 9 + d, 2 + t as u8));
                }
            }
        }
    }

    /// Whether `cand` off is among the potentials before `p`.
    fn has_parent(&self, p: u32, cand: usize) -> bool {
        let mut i = self.arena[p as usize].parent;
        while i != u32::MAX {
            let q = self.arena[i as usize];
            if !q.on && q.cand as usize == cand {
                return true;
            }
            i = q.parent;
        }
        false
    }

    /// The distinct potentials from `end` back to the start.
    fn count(&self, end: u32) -> u32 {
        let mut seen: Vec<(u16, bool)> = Vec::new();
        let mut i = end;
        while i != u32::MAX {
            let q = self.arena[i as usize];
            if !seen.contains(&(q.cand, q.on)) {
                seen.push((q.cand, q.on));
            }
            i = q.parent;
        }
        seen.len() as u32
    }

    fn cycles(&mut self, src: usize, y: bool, x: bool, buf: &mut Vec<(usize, u8)>) {
        let mut on_seen = [0u128; 9];
        on_seen[src % 9] |= 1 << (src / 9);
        let root = self.push(src, true, u32::MAX, START);
        let mut pend_on = std::collections::VecDeque::from([root]);
        let mut pend_off = std::collections::VecDeque::new();
        let mut length = 0;
        let mut found = Vec::new();
        while !pend_on.is_empty() || !pend_off.is_empty() {
            length += 1;
            while let Some(p) = pend_on.pop_front() {
                self.on_to_off(p, y, buf);
                for &(q, cause) in buf.iter() {
                    if !self.has_parent(p, q) {
                        let n = self.push(q, false, p, cause);
                        pend_off.push_back(n);
                    }
                }
            }
            length += 1;
            while let Some(p) = pend_off.pop_front() {
                self.off_to_on(p, y, x, buf);
                for &(r, cause) in buf.iter() {
                    let n = self.push(r, true, p, cause);
                    if length >= 4 && r == src {
                        found.push(n);
                    }
                    if on_seen[r % 9] >> (r / 9) & 1 == 0 {
                        on_seen[r % 9] |= 1 << (r / 9);
                        pend_on.push_back(n);
                    }
                }
            }
        }
        for end in found {
            self.cycle_hint(end, y, x);
        }
    }

    fn cycle_hint(&mut self, end: u32, y: bool, x: bool) {
        let mut cells = 0u128;
        let mut i = end;
        while self.arena[i as usize].parent != u32::MAX {
            cells |= 1 << (self.arena[i as usize].cand / 9);
            i = self.arena[i as usize].parent;
        }
        let (mut forw, mut back) = ([0 as Mask; 81], [0 as Mask; 81]);
        let mut order: Vec<usize> = Vec::new();
        let mut i = end;
        while self.arena[i as usize].parent != u32::MAX {
            let q = self.arena[i as usize];
            let (c, d) = (q.cand as usize / 9, q.cand as usize % 9);
            for o in cells_of(super::board::PEER_SET[c] & !cells & self.v.places[d]) {
                if q.on {
                    if forw[o] >> d & 1 == 0 {
                        order.push(o * 9 + d);
                    }
                    forw[o] |= 1 << d;
                } else {
                    back[o] |= 1 << d;
                }
            }
            i = q.parent;
        }
        let mut removals: Vec<(usize, Mask)> = Vec::new();
        for cd in order {
            let (c, d) = (cd / 9, cd % 9);
            if back[c] >> d & 1 != 0 {
                if let Some(r) = removals.iter_mut().find(|r| r.0 == c) {
                    r.1 |= 1 << d;
                } else {
                    removals.push((c, 1 << d));
                }
            }
        }
        if removals.is_empty() {
            return;
        }
        let complexity = self.count(end);
        let base = if x && y { 70 } else { 65 };
        self.hints.push(ChainHint {
            tenths: base + super::chains::length_tenths(complexity as usize),
            complexity,
            sort: sort_key(y, x),
            removals,
            end,
            cycle: true,
        });
    }

    fn forcing(&mut self, src: usize, src_on: bool, y: bool, buf: &mut Vec<(usize, u8)>) {
        let (mut on_seen, mut off_seen) = ([0u128; 9], [0u128; 9]);
        let root = self.push(src, src_on, u32::MAX, START);
        let mut pend_on = std::collections::VecDeque::new();
        let mut pend_off = std::collections::VecDeque::new();
        if src_on {
            on_seen[src % 9] |= 1 << (src / 9);
            pend_on.push_back(root);
        } else {
            off_seen[src % 9] |= 1 << (src / 9);
            pend_off.push_back(root);
        }
        let mut found = None;
        while !pend_on.is_empty() || !pend_off.is_empty() {
            while let Some(p) = pend_on.pop_front() {
                self.on_to_off(p, y, buf);
                for &(q, cause) in buf.iter() {
                    let seen = off_seen[q % 9] >> (q / 9) & 1 != 0;
                    if (src_on && q == src && found.is_none()) || !seen {
                        let n = self.push(q, false, p, cause);
                        if src_on && q == src && found.is_none() {
                            found = Some(n);
                        }
                        if !seen {
                            off_seen[q % 9] |= 1 << (q / 9);
                            pend_off.push_back(n);
                        }
                    }
                }
            }
            while let Some(p) = pend_off.pop_front() {
                self.off_to_on(p, y, true, buf);
                for &(r, cause) in buf.iter() {
                    let seen = on_seen[r % 9] >> (r / 9) & 1 != 0;
                    if (!src_on && r == src && found.is_none()) || !seen {
                        let n = self.push(r, true, p, cause);
                        if !src_on && r == src && found.is_none() {
                            found = Some(n);
                        }
                        if !seen {
                            on_seen[r % 9] |= 1 << (r / 9);
                            pend_on.push_back(n);
                        }
                    }
                }
            }
        }
        let Some(end) = found else { return };
        let (c, d) = (src / 9, src % 9);
        let m = if src_on {
            1 << d
        } else {
            self.v.grid[c] & !(1 << d)
        };
        let complexity = self.count(end);
        let base = if y { 70 } else { 66 };
        self.hints.push(ChainHint {
            tenths: base + super::chains::length_tenths(complexity as usize),
            complexity,
            sort: sort_key(y, true),
            removals: vec![(c, m)],
            end,
            cycle: false,
        });
    }

    /// The removed candidates a hint's chain needs: for each potential of
    /// it with a cause (the on ones of a forcing chain, all of a cycle),
    /// the cell's removed digits or the digit's removed places in the unit.
    fn parents(&self, h: &ChainHint, out: &mut Vec<u16>) {
        out.clear();
        let mut i = h.end;
        while i != u32::MAX {
            let q = self.arena[i as usize];
            i = q.parent;
            if q.cause == START || !(q.on || h.cycle) {
                continue;
            }
            let (c, d) = (q.cand as usize / 9, q.cand as usize % 9);
            if q.cause == CELL {
                for o in bits(self.v.source[c] & !self.v.grid[c]) {
                    out.push((c * 9 + o) as u16 * 2);
                }
            } else {
                let u = super::board::CELL_UNITS[c][(q.cause - 2) as usize] as usize;
                removed(self.v, UNIT_SET[u], d, out);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

fn sort_key(y: bool, x: bool) -> u8 {
    match (y, x) {
        (true, true) => 4,
        (true, false) => 3,
        _ => 2,
    }
}

/// Serate's Forcing Chains & Cycles on the chain's grid, all its hints in
/// its order (easiest, then shortest, then kind; one per set of
/// eliminations); each hint with causes is emitted with its complexity as
/// a nested chain.
fn static_chains(v: &View, f: &mut Found, par: &mut Vec<u16>) -> bool {
    let mut s = Statics {
        v,
        arena: Vec::new(),
        hints: Vec::new(),
    };
    let mut buf = Vec::with_capacity(32);
    // A cycle through a candidate, or a chain from it to its negation, is
    // a path of the implication graph of the chain's grid (with X and Y
    // links: the X-only and Y-only searches follow some of its edges): the
    // searches run only from the candidates where the graph has one, and
    // find what they would find from all.
    let graph = Reach::new(
        &Board {
            value: *v.value,
            cand: *v.grid,
        },
        true,
        true,
    );
    for (y, x) in [(false, true), (true, false), (true, true)] {
        for c in 0..81 {
            let m = v.grid[c];
            if v.value[c] != 0 || m.count_ones() < 2 {
                continue;
            }
            for d in bits(m) {
                if !x && m.count_ones() > 2 {
                    continue;
                }
                let cand = c * 9 + d;
                let (on, off) = (cand * 2 + 1, cand * 2);
                if graph.on_cycle(on) {
                    s.cycles(cand, y, x, &mut buf);
                }
                if x {
                    if graph.reaches(on, off) {
                        s.forcing(cand, true, y, &mut buf);
                    }
                    if graph.reaches(off, on) {
                        s.forcing(cand, false, y, &mut buf);
                    }
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..s.hints.len()).collect();
    order.sort_by_key(|&i| (s.hints[i].tenths, s.hints[i].complexity, s.hints[i].sort));
    let mut any = false;
    let mut kept: Vec<Vec<(usize, Mask)>> = Vec::new();
    for i in order {
        let mut key = s.hints[i].removals.clone();
        key.sort_unstable();
        if kept.contains(&key) {
            continue;
        }
        kept.push(key);
        s.parents(&s.hints[i], par);
        let h = &s.hints[i];
        for &(c, m) in &h.removals {
            f.note(c, m);
        }
        // The chain's identity: its eliminations, length and kind.
        let mut id: u64 = 0xcbf2_9ce4_8422_2325;
        for &(c, m) in &kept[kept.len() - 1] {
            for x in [c as u64, u64::from(m)] {
                id = (id ^ x).wrapping_mul(0x100_0000_01b3);
            }
        }
        id = (id ^ u64::from(h.complexity) ^ u64::from(h.sort) << 32).wrapping_mul(0x100_0000_01b3)
            | 1;
        f.nested = Some((id, h.complexity));
        any |= f.emit(par);
        f.nested = None;
    }
    any
}
