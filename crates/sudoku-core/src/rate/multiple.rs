//! Multiple and dynamic forcing chains: Nishio forcing chains (7.5),
//! cell and region forcing chains (8.0) and their dynamic forms with
//! contradiction and double forcing chains (8.5), each plus the length term
//! of [`super::chains::length_tenths`].
//!
//! An assumption (a candidate on, or off) is followed to all its
//! consequences: on candidates turn their peers' digit and (but for Nishio)
//! the cell's other digits off; off candidates turn on a cell's last digit
//! and a unit's last place for a digit. Dynamic chains also remove each off
//! candidate from the grid as they go, so later steps see the grid with it
//! gone (and name the removals as the step's extra causes). What every
//! digit of a cell, or every place of a digit in a unit, leads to holds;
//! an assumption leading to a contradiction is false. The complexity of a
//! step is the number of causes behind its conclusions, summed over the
//! branches; the easiest step wins, then the simplest, then the kind.

use super::board::{Board, Mask, CELL_UNITS, UNITS};
use super::chains::length_tenths;
use super::Step;

const NODES: usize = 81 * 9 * 2;

#[inline]
fn node(cand: usize, on: bool) -> usize {
    cand * 2 + on as usize
}

/// The consequences of one assumption.
#[derive(Clone)]
struct Run {
    /// Whether each node (candidate * 2 + on) was reached.
    seen: Vec<bool>,
    /// Each reached node's causes, as a range of `arena`.
    par: Vec<(u32, u8)>,
    arena: Vec<u16>,
    /// Nodes reached, in order.
    order: Vec<u16>,
}

impl Run {
    fn new() -> Run {
        Run {
            seen: vec![false; NODES],
            par: vec![(0, 0); NODES],
            arena: Vec::new(),
            order: Vec::new(),
        }
    }

    fn clear(&mut self) {
        for &n in &self.order {
            self.seen[n as usize] = false;
        }
        self.order.clear();
        self.arena.clear();
    }

    fn add(&mut self, n: usize, parents: &[u16]) {
        self.seen[n] = true;
        self.par[n] = (self.arena.len() as u32, parents.len() as u8);
        self.arena.extend_from_slice(parents);
        self.order.push(n as u16);
    }

    fn parents(&self, n: usize) -> &[u16] {
        let (s, l) = self.par[n];
        &self.arena[s as usize..s as usize + l as usize]
    }

    /// Distinct nodes behind `n`, itself included.
    fn ancestors(&self, n: usize, mark: &mut [bool], stack: &mut Vec<u16>) -> usize {
        self.ancestors_of(&[n as u16], mark, stack)
    }

    fn ancestors_of(&self, roots: &[u16], mark: &mut [bool], stack: &mut Vec<u16>) -> usize {
        stack.clear();
        let mut count = 0;
        let mut touched: Vec<u16> = Vec::new();
        for &r in roots {
            if !mark[r as usize] {
                mark[r as usize] = true;
                touched.push(r);
                stack.push(r);
            }
        }
        while let Some(x) = stack.pop() {
            count += 1;
            for &p in self.parents(x as usize) {
                if !mark[p as usize] {
                    mark[p as usize] = true;
                    touched.push(p);
                    stack.push(p);
                }
            }
        }
        for t in touched {
            mark[t as usize] = false;
        }
        count
    }
}

/// How a contradiction was reached: the node found both ways, the cause of
/// the new one.
struct Absurd {
    cand: usize,
    new_on: bool,
    new_parents: Vec<u16>,
}

struct Engine<'a> {
    b: &'a Board,
    y: bool,
    dynamic: bool,
    grid: [Mask; 81],
    pend_on: std::collections::VecDeque<u16>,
    pend_off: std::collections::VecDeque<u16>,
    buf: Vec<u16>,
    mark: Vec<bool>,
    stack: Vec<u16>,
}

impl Engine<'_> {
    /// Follows the assumptions already in `run` to their end; the
    /// contradiction, if one is met (the run stops there).
    fn chain(&mut self, run: &mut Run) -> Option<Absurd> {
        self.grid = self.b.cand;
        self.pend_on.clear();
        self.pend_off.clear();
        for &n in &run.order {
            if n & 1 == 1 {
                self.pend_on.push_back(n);
            } else {
                self.pend_off.push_back(n);
            }
        }
        loop {
            if let Some(p) = self.pend_on.pop_front() {
                let cand = p as usize / 2;
                let (c, d) = (cand / 9, cand % 9);
                self.buf.clear();
                if self.y {
                    let mut m = self.grid[c] & !(1 << d);
                    while m != 0 {
                        let o = m.trailing_zeros() as usize;
                        m &= m - 1;
                        self.buf.push((c * 9 + o) as u16);
                    }
                }
                let mut added = 1u128 << c;
                for &u in &CELL_UNITS[c] {
                    for &o in &UNITS[u as usize] {
                        let o = o as usize;
                        if added >> o & 1 == 0 && self.grid[o] >> d & 1 != 0 {
                            added |= 1 << o;
                            self.buf.push((o * 9 + d) as u16);
                        }
                    }
                }
                for i in 0..self.buf.len() {
                    let q = self.buf[i] as usize;
                    if run.seen[node(q, true)] {
                        return Some(Absurd {
                            cand: q,
                            new_on: false,
                            new_parents: vec![p],
                        });
                    }
                    if !run.seen[node(q, false)] {
                        run.add(node(q, false), &[p]);
                        self.pend_off.push_back(node(q, false) as u16);
                    }
                }
                continue;
            }
            let p = self.pend_off.pop_front()?;
            let cand = p as usize / 2;
            let (c, d) = (cand / 9, cand % 9);
            // (new on candidate, its causes)
            let mut made: Vec<(usize, Vec<u16>)> = Vec::new();
            if self.y && self.grid[c].count_ones() == 2 && self.grid[c] >> d & 1 != 0 {
                let o = (self.grid[c] & !(1 << d)).trailing_zeros() as usize;
                let mut parents = vec![p];
                if self.dynamic {
                    let gone = self.b.cand[c] & !self.grid[c];
                    for v in super::board::bits(gone) {
                        parents.push(node(c * 9 + v, false) as u16);
                    }
                }
                made.push((c * 9 + o, parents));
            }
            for &u in &CELL_UNITS[c] {
                let mut other = usize::MAX;
                let mut count = 0;
                for &o in &UNITS[u as usize] {
                    let o = o as usize;
                    if o != c && self.grid[o] >> d & 1 != 0 {
                        count += 1;
                        other = o;
                    }
                }
                if count == 1 {
                    let mut parents = vec![p];
                    if self.dynamic {
                        for &o in &UNITS[u as usize] {
                            let o = o as usize;
                            if self.b.cand[o] >> d & 1 != 0 && self.grid[o] >> d & 1 == 0 {
                                parents.push(node(o * 9 + d, false) as u16);
                            }
                        }
                    }
                    made.push((other * 9 + d, parents));
                }
            }
            if self.dynamic {
                self.grid[c] &= !(1 << d);
            }
            for (q, parents) in made {
                if run.seen[node(q, false)] {
                    return Some(Absurd {
                        cand: q,
                        new_on: true,
                        new_parents: parents,
                    });
                }
                if !run.seen[node(q, true)] {
                    run.add(node(q, true), &parents);
                    self.pend_on.push_back(node(q, true) as u16);
                }
            }
        }
    }

    fn ancestors(&mut self, run: &Run, n: usize) -> usize {
        run.ancestors(n, &mut self.mark, &mut self.stack)
    }

    /// The complexity of a contradiction: the causes of both sides.
    fn absurd_complexity(&mut self, run: &Run, a: &Absurd) -> usize {
        let old = node(a.cand, !a.new_on);
        let old_count = self.ancestors(run, old);
        let new_count = 1 + run.ancestors_of(&a.new_parents, &mut self.mark, &mut self.stack);
        old_count + new_count
    }
}

/// Which chains a rule uses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Nishio forcing chains (7.5): dynamic, X links only, contradictions.
    Nishio,
    /// Cell and region forcing chains (8.0), static.
    Multiple,
    /// Dynamic forcing chains (8.5): contradictions, double chains, cells
    /// and regions, dynamic.
    Dynamic,
}

struct Best {
    key: Option<(u8, usize, u8)>,
    step: Step,
}

impl Best {
    fn offer(
        &mut self,
        tenths: u8,
        complexity: usize,
        sort: u8,
        make: impl FnOnce() -> Option<Step>,
    ) {
        let key = (tenths, complexity, sort);
        if self.key.is_some_and(|k| k <= key) {
            return;
        }
        if let Some(mut step) = make() {
            step.tenths = tenths;
            self.key = Some(key);
            self.step = step;
        }
    }
}

/// A step removing candidate `cand` or, if `on`, the other candidates of
/// its cell (placing it); `None` when it removes nothing.
fn conclusion(b: &Board, cand: usize, on: bool, name: &'static str) -> Option<Step> {
    let (c, d) = (cand / 9, cand % 9);
    let mut s = Step::default();
    if on {
        s.elim[c] = b.cand[c] & !(1 << d);
        s.place = Some((c, d + 1));
    } else {
        s.elim[c] = b.cand[c] & 1 << d;
    }
    if s.elim[c] == 0 && !on {
        return None;
    }
    if on && b.value[c] != 0 {
        return None;
    }
    s.name = name;
    Some(s)
}

/// Runs the rule `kind` on the board: the easiest step it finds.
pub(super) fn forcing_chains(b: &Board, s: &mut Step, kind: Kind) -> bool {
    let dynamic = kind != Kind::Multiple;
    let base: u8 = match kind {
        Kind::Nishio => 75,
        Kind::Multiple => 80,
        Kind::Dynamic => 85,
    };
    let mut e = Engine {
        b,
        y: kind != Kind::Nishio,
        dynamic,
        grid: b.cand,
        pend_on: Default::default(),
        pend_off: Default::default(),
        buf: Vec::with_capacity(32),
        mark: vec![false; NODES],
        stack: Vec::new(),
    };
    let mut best = Best {
        key: None,
        step: Step::default(),
    };
    let mut on_runs: Vec<Run> = (0..9).map(|_| Run::new()).collect();
    let mut off_run = Run::new();
    let mut region_runs: Vec<Run> = (0..9).map(|_| Run::new()).collect();
    let prefix_dyn = kind == Kind::Dynamic;
    for c in 0..81 {
        let m = b.cand[c];
        let card = m.count_ones();
        if card < 2 || (!dynamic && card < 3) {
            continue;
        }
        let mut nv = 0;
        for d in super::board::bits(m) {
            let cand = c * 9 + d;
            let run = &mut on_runs[nv];
            nv += 1;
            run.clear();
            run.add(node(cand, true), &[]);
            let absurd_on = e.chain(run);
            if kind != Kind::Multiple {
                if let Some(a) = &absurd_on {
                    let cx = e.absurd_complexity(run, a);
                    let t = base + length_tenths(cx);
                    let name = if kind == Kind::Nishio {
                        "Nishio Forcing Chains"
                    } else {
                        "Dynamic Contradiction Forcing Chains"
                    };
                    best.offer(t, cx, 7, || conclusion(b, cand, false, name));
                }
                off_run.clear();
                off_run.add(node(cand, false), &[]);
                if let Some(a) = e.chain(&mut off_run) {
                    let cx = e.absurd_complexity(&off_run, &a);
                    let t = base + length_tenths(cx);
                    let name = if kind == Kind::Nishio {
                        "Nishio Forcing Chains"
                    } else {
                        "Dynamic Contradiction Forcing Chains"
                    };
                    best.offer(t, cx, 7, || conclusion(b, cand, true, name));
                }
                if kind == Kind::Dynamic && card >= 3 {
                    // Double forcing chains: what both the candidate and
                    // its absence lead to.
                    for i in 0..run.order.len() {
                        let n = run.order[i] as usize;
                        if n / 2 == cand || !off_run.seen[n] {
                            continue;
                        }
                        let cx = e.ancestors(run, n) + e.ancestors(&off_run, n);
                        let t = base + length_tenths(cx);
                        best.offer(t, cx, 1, || {
                            conclusion(b, n / 2, n & 1 == 1, "Dynamic Double Forcing Chains")
                        });
                    }
                }
            }
            if kind == Kind::Nishio {
                continue;
            }
            // Region forcing chains from this cell, the first place of the
            // digit in the unit.
            for &u in &CELL_UNITS[c] {
                let u = u as usize;
                let pos = b.positions(u, d + 1);
                if pos.count_ones() < 2 || UNITS[u][pos.trailing_zeros() as usize] as usize != c {
                    continue;
                }
                let mut n_runs = 0;
                for i in super::board::bits(pos) {
                    let o = UNITS[u][i] as usize;
                    if o == c {
                        continue;
                    }
                    let r = &mut region_runs[n_runs];
                    r.clear();
                    r.add(node(o * 9 + d, true), &[]);
                    e.chain(r);
                    n_runs += 1;
                }
                let run = &on_runs[nv - 1];
                for i in 0..run.order.len() {
                    let n = run.order[i] as usize;
                    if region_runs[..n_runs].iter().all(|r| r.seen[n]) {
                        let mut cx = e.ancestors(run, n);
                        for r in &region_runs[..n_runs] {
                            cx += e.ancestors(r, n);
                        }
                        let t = base + length_tenths(cx);
                        let name = if prefix_dyn {
                            "Dynamic Region Forcing Chains"
                        } else {
                            "Region Forcing Chains"
                        };
                        best.offer(t, cx, 6, || conclusion(b, n / 2, n & 1 == 1, name));
                    }
                }
            }
        }
        if kind == Kind::Nishio {
            continue;
        }
        // Cell forcing chains: what every digit of the cell leads to.
        let first = &on_runs[0];
        for i in 0..first.order.len() {
            let n = first.order[i] as usize;
            if on_runs[1..nv].iter().all(|r| r.seen[n]) {
                let mut cx = 0;
                for r in &on_runs[..nv] {
                    cx += e.ancestors(r, n);
                }
                let t = base + length_tenths(cx);
                let name = if prefix_dyn {
                    "Dynamic Cell Forcing Chains"
                } else {
                    "Cell Forcing Chains"
                };
                best.offer(t, cx, 5, || conclusion(b, n / 2, n & 1 == 1, name));
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
