//! Multiple and dynamic forcing chains: Nishio forcing chains (7.5),
//! cell and region forcing chains (8.0) and their dynamic forms with
//! contradiction and double forcing chains (8.5), then the same with the
//! techniques of [`super::inner`] used inside the chains (Dynamic Forcing
//! Chains (+), 9.0; with static forcing chains inside too, (+ Forcing
//! Chains), 9.5; then static cell and region forcing chains, (+ Multiple
//! Forcing Chains), 10.0; the basic techniques then these dynamic chains
//! themselves, (+ Dynamic Forcing Chains), 10.5), each plus the length
//! term of [`super::chains::length_tenths`]; a nested chain's complexity
//! is added once to that of every step whose causes include its
//! eliminations.
//!
//! A rule run inside a chain (serate's levels 3 and 4) is this same search
//! on the grid the chain has reached, keeping every hint instead of the
//! easiest: sorted as serate sorts them, one per elimination, each turning
//! its elimination off with the candidates the outer chain removed that
//! its own chains needed (the cell's removed digits behind a cell's last
//! digit, the unit's removed places behind a unit's last place) as causes.
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
//!
//! Speed: the consequences of a candidate being on do not depend on which
//! cell or region asks for them, so each is computed once per step and
//! kept until its cell has been searched (region chains ask for the later
//! places of a digit before their cells come up); a run records what it
//! reached as a bitset, so the nodes common to all branches are found by
//! intersecting them; and following an assumption allocates nothing.

use super::board::{bits, cells_of, Board, Mask, CELL_UNITS, PEER_SET, UNITS, UNIT_SET};
use super::chains::length_tenths;
use super::inner;
use super::inner::{CELL, START};
use super::reach::{has, NodeSet, Reach, NODES, NO_NODES};
use super::{Shared, Step};
use std::time::Instant;

#[inline]
fn node(cand: usize, on: bool) -> usize {
    cand * 2 + on as usize
}

/// How a contradiction was reached: the candidate found both on and off,
/// the state it was found in last, and the causes of that state (a range
/// of the run's arena).
#[derive(Clone, Copy)]
struct Absurd {
    cand: usize,
    new_on: bool,
    /// Why the candidate went on, when it was found on last.
    cause: u8,
    parents: (u32, u32),
}

/// The consequences of one assumption.
struct Run {
    /// The nodes reached.
    seen: NodeSet,
    /// The same by digit and state: the cells where each digit (0..9) was
    /// reached off, and on.
    off_cells: [u128; 9],
    on_cells: [u128; 9],
    /// Each reached node's position in `order`.
    index: Vec<u16>,
    /// Nodes reached, in order.
    order: Vec<u16>,
    /// The causes of `order[i]`, as a range (start, length) of `arena`.
    par: Vec<(u32, u16)>,
    /// The nested chain behind `order[i]` (identity, complexity), (0, 0)
    /// for none.
    nest: Vec<(u64, u32)>,
    /// Why `order[i]` went on: [`START`], [`CELL`] (the cell's last digit)
    /// or 2 + the unit type (the digit's last place in the cell's box, row
    /// or column); [`START`] for off nodes, whose cause no rule asks.
    cause: Vec<u8>,
    arena: Vec<u16>,
    /// The contradiction that stopped the run, if one did.
    absurd: Option<Absurd>,
}

impl Run {
    fn new() -> Run {
        Run {
            seen: NO_NODES,
            off_cells: [0; 9],
            on_cells: [0; 9],
            index: vec![0; NODES],
            order: Vec::new(),
            par: Vec::new(),
            nest: Vec::new(),
            cause: Vec::new(),
            arena: Vec::new(),
            absurd: None,
        }
    }

    /// Empties the run and assumes node `n`.
    fn start(&mut self, n: usize) {
        self.seen = NO_NODES;
        self.off_cells = [0; 9];
        self.on_cells = [0; 9];
        self.order.clear();
        self.par.clear();
        self.nest.clear();
        self.cause.clear();
        self.arena.clear();
        self.absurd = None;
        self.add(n, &[], START);
    }

    #[inline]
    fn seen(&self, n: usize) -> bool {
        has(&self.seen, n)
    }

    #[inline]
    fn add(&mut self, n: usize, parents: &[u16], cause: u8) {
        self.seen[n / 64] |= 1 << (n % 64);
        let (c, d) = (n / 18, n / 2 % 9);
        if n & 1 == 1 {
            self.on_cells[d] |= 1 << c;
        } else {
            self.off_cells[d] |= 1 << c;
        }
        self.index[n] = self.order.len() as u16;
        self.par
            .push((self.arena.len() as u32, parents.len() as u16));
        self.nest.push((0, 0));
        self.cause.push(cause);
        self.arena.extend_from_slice(parents);
        self.order.push(n as u16);
    }

    /// Records the contradiction met on `cand`, reached `new_on` from
    /// `parents`.
    fn set_absurd(&mut self, cand: usize, new_on: bool, cause: u8, parents: &[u16]) {
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(parents);
        self.absurd = Some(Absurd {
            cand,
            new_on,
            cause,
            parents: (start, parents.len() as u32),
        });
    }

    fn parents(&self, n: usize) -> &[u16] {
        let (s, l) = self.par[self.index[n] as usize];
        &self.arena[s as usize..s as usize + l as usize]
    }

    /// Distinct nodes behind the nodes of `roots`, themselves included.
    fn ancestors_of(
        &self,
        roots: &[u16],
        stack: &mut Vec<u16>,
        nested: &mut Vec<(u64, u32)>,
    ) -> usize {
        let mut mark = NO_NODES;
        stack.clear();
        for &r in roots {
            let r = r as usize;
            if !has(&mark, r) {
                mark[r / 64] |= 1 << (r % 64);
                stack.push(r as u16);
            }
        }
        let mut count = 0;
        while let Some(x) = stack.pop() {
            count += 1;
            let nest = self.nest[self.index[x as usize] as usize];
            if nest.0 != 0 && !nested.contains(&nest) {
                nested.push(nest);
            }
            for &p in self.parents(x as usize) {
                let p = p as usize;
                if !has(&mark, p) {
                    mark[p / 64] |= 1 << (p % 64);
                    stack.push(p as u16);
                }
            }
        }
        count
    }
}

/// Follows assumptions on one board.
struct Engine<'a> {
    b: &'a Board,
    /// Whether an on candidate turns off the other digits of its cell and
    /// an off one turns on the cell's last digit (all but Nishio).
    y: bool,
    /// Whether off candidates leave the grid as the run goes.
    dynamic: bool,
    /// The candidates left while a run goes.
    grid: [Mask; 81],
    /// The cells of each digit (0..9) left while a run goes, and on the
    /// board.
    places: [u128; 9],
    board_places: [u128; 9],
    /// Nodes reached and not followed yet; both are followed in the order
    /// reached, every on node before any off node.
    pend_on: Vec<u16>,
    pend_off: Vec<u16>,
    /// Causes of the candidates an off node turns on (ranges of
    /// `made_parents`).
    /// and why (as [`Run::cause`]).
    made: Vec<(usize, (usize, usize), u8)>,
    made_parents: Vec<u16>,
    stack: Vec<u16>,
    /// The nested chains met while counting a step's causes.
    nested: Vec<(u64, u32)>,
    /// Which rules are used inside chains, serate's nesting level: none
    /// (0), the basic ones of [`inner`] (1, Dynamic Forcing Chains (+)),
    /// those then static forcing chains and cycles (2), those then static
    /// cell and region forcing chains (3), the basic ones then dynamic
    /// forcing chains of level `limit` (4).
    level: u8,
    limit: u8,
    /// When the rating must stop: the rules run inside chains look.
    deadline: Option<Instant>,
    /// What the rules of levels 2 and 3 found on each grid of this step.
    cache: Option<&'a mut inner::Cache>,
    found: inner::Found,
    scratch: Vec<u16>,
}

impl<'a> Engine<'a> {
    fn new(
        b: &'a Board,
        y: bool,
        dynamic: bool,
        level: u8,
        limit: u8,
        deadline: Option<Instant>,
    ) -> Engine<'a> {
        let mut board_places = [0u128; 9];
        for (c, &m) in b.cand.iter().enumerate() {
            for d in bits(m) {
                board_places[d] |= 1 << c;
            }
        }
        Engine {
            b,
            y,
            dynamic,
            grid: b.cand,
            places: board_places,
            board_places,
            pend_on: Vec::with_capacity(NODES),
            pend_off: Vec::with_capacity(NODES),
            made: Vec::with_capacity(4),
            made_parents: Vec::with_capacity(32),
            stack: Vec::new(),
            nested: Vec::new(),
            level,
            limit,
            deadline,
            cache: None,
            found: inner::Found::default(),
            scratch: Vec::new(),
        }
    }

    /// Follows the assumption `run` starts with to its end, or to the
    /// contradiction that stops it.
    fn chain(&mut self, run: &mut Run) {
        self.grid = self.b.cand;
        self.places = self.board_places;
        self.pend_on.clear();
        self.pend_off.clear();
        for &n in &run.order {
            if n & 1 == 1 {
                self.pend_on.push(n);
            } else {
                self.pend_off.push(n);
            }
        }
        let (mut on_next, mut off_next) = (0, 0);
        loop {
            if on_next < self.pend_on.len() {
                let p = self.pend_on[on_next];
                on_next += 1;
                if !self.follow_on(run, p) {
                    return;
                }
            } else if off_next < self.pend_off.len() {
                let p = self.pend_off[off_next];
                off_next += 1;
                if !self.follow_off(run, p) {
                    return;
                }
            } else if self.level == 0 || !self.advanced(run) {
                return;
            }
        }
    }

    /// Turns off what on node `p` excludes: the cell's other digits (with
    /// Y links), then the digit in the box, row and column. False when
    /// this meets a contradiction.
    fn follow_on(&mut self, run: &mut Run, p: u16) -> bool {
        let cand = p as usize / 2;
        let (c, d) = (cand / 9, cand % 9);
        if self.y {
            for o in bits(self.grid[c] & !(1 << d)) {
                if !self.turn_off(run, c * 9 + o, p) {
                    return false;
                }
            }
        }
        // The peers in the order of `ORDERED_PEERS`: the box's, then the
        // row's and the column's others, each in increasing order.
        let mut rest = self.places[d] & PEER_SET[c];
        for &u in &CELL_UNITS[c] {
            let here = rest & UNIT_SET[u as usize];
            rest &= !here;
            let new = here & !run.off_cells[d];
            let on = here & run.on_cells[d];
            if on != 0 {
                // A contradiction at the first peer reached on: the peers
                // before it go off first.
                let first = on.trailing_zeros() as usize;
                for o in cells_of(new & ((1 << first) - 1)) {
                    self.add_off(run, o * 9 + d, p);
                }
                run.set_absurd(first * 9 + d, false, START, &[p]);
                return false;
            }
            for o in cells_of(new) {
                self.add_off(run, o * 9 + d, p);
            }
        }
        true
    }

    /// Turns candidate `q` off, from on node `p`; it was not reached yet.
    #[inline]
    fn add_off(&mut self, run: &mut Run, q: usize, p: u16) {
        run.add(node(q, false), &[p], START);
        self.pend_off.push(node(q, false) as u16);
    }

    #[inline]
    fn turn_off(&mut self, run: &mut Run, q: usize, p: u16) -> bool {
        if run.seen(node(q, true)) {
            run.set_absurd(q, false, START, &[p]);
            return false;
        }
        if !run.seen(node(q, false)) {
            run.add(node(q, false), &[p], START);
            self.pend_off.push(node(q, false) as u16);
        }
        true
    }

    /// Turns on what off node `p` leaves: the cell's last digit (with Y
    /// links) and the digit's last place in each unit of the cell; a
    /// dynamic run then removes the candidate. False when this meets a
    /// contradiction.
    fn follow_off(&mut self, run: &mut Run, p: u16) -> bool {
        let cand = p as usize / 2;
        let (c, d) = (cand / 9, cand % 9);
        self.made.clear();
        self.made_parents.clear();
        let m = self.grid[c];
        if self.y && m.count_ones() == 2 && m >> d & 1 != 0 {
            let o = (m & !(1 << d)).trailing_zeros() as usize;
            let start = self.made_parents.len();
            self.made_parents.push(p);
            if self.dynamic {
                for v in bits(self.b.cand[c] & !m) {
                    self.made_parents.push(node(c * 9 + v, false) as u16);
                }
            }
            self.made
                .push((c * 9 + o, (start, self.made_parents.len()), CELL));
        }
        for (t, &u) in CELL_UNITS[c].iter().enumerate() {
            let unit = UNIT_SET[u as usize];
            let others = self.places[d] & unit & !(1 << c);
            if others.count_ones() == 1 {
                let o = others.trailing_zeros() as usize;
                let start = self.made_parents.len();
                self.made_parents.push(p);
                if self.dynamic {
                    for g in cells_of(self.board_places[d] & !self.places[d] & unit) {
                        self.made_parents.push(node(g * 9 + d, false) as u16);
                    }
                }
                self.made
                    .push((o * 9 + d, (start, self.made_parents.len()), 2 + t as u8));
            }
        }
        if self.dynamic {
            self.grid[c] &= !(1 << d);
            self.places[d] &= !(1 << c);
        }
        for i in 0..self.made.len() {
            let (q, (s, e), cause) = self.made[i];
            let parents = &self.made_parents[s..e];
            if run.seen(node(q, false)) {
                run.set_absurd(q, true, cause, parents);
                return false;
            }
            if !run.seen(node(q, true)) {
                run.add(node(q, true), parents, cause);
                self.pend_on.push(node(q, true) as u16);
            }
        }
        true
    }

    /// When singles are exhausted: the eliminations of the first inner
    /// technique that has some, turned off with the removals it needed as
    /// causes. Whether any candidate went off.
    fn advanced(&mut self, run: &mut Run) -> bool {
        // The rules inside take milliseconds at the nested levels: a run
        // past the deadline stops (the search then finds nothing).
        if self.level >= 2 && super::past(self.deadline) {
            return false;
        }
        let view = inner::View {
            source: &self.b.cand,
            grid: &self.grid,
            places: &self.places,
            value: &self.b.value,
        };
        let basic = match self.cache.as_deref_mut() {
            Some(cache) => cache.basic(&view, &mut self.found, &mut self.scratch),
            None => inner::basic(&view, &mut self.found, &mut self.scratch, self.level),
        };
        let found = basic
            || match self.level {
                3 => nested_rule(&view, Kind::Multiple, &mut self.found, self.deadline),
                4 => nested_rule(
                    &view,
                    Kind::inside(self.limit),
                    &mut self.found,
                    self.deadline,
                ),
                _ => false,
            };
        if !found {
            return false;
        }
        let mut any = false;
        for i in 0..self.found.offs.len() {
            let (q, s, e, nest) = self.found.offs[i];
            let n = node(q as usize, false);
            if !run.seen(n) {
                run.add(n, &self.found.parents[s as usize..e as usize], START);
                *run.nest.last_mut().expect("just added") = nest;
                self.pend_off.push(n as u16);
                any = true;
            }
        }
        any
    }

    /// Distinct nodes behind node `n` of `run`, itself included.
    fn ancestors(&mut self, run: &Run, n: usize) -> usize {
        run.ancestors_of(&[n as u16], &mut self.stack, &mut self.nested)
    }

    /// Appends the candidates of `outer` (the board an outer chain started
    /// from) missing from this engine's board that the on nodes behind
    /// node `n` of `run` need: a cell's removed digits when it went on as
    /// the cell's last, a unit's removed places of the digit when as the
    /// unit's last place; the start counts as `start` says.
    fn rule_parents(
        &mut self,
        run: &Run,
        n: usize,
        start: u8,
        outer: &[Mask; 81],
        out: &mut Vec<u16>,
    ) {
        self.walk_parents(run, &[n as u16], start, outer, out);
    }

    fn walk_parents(
        &mut self,
        run: &Run,
        roots: &[u16],
        start: u8,
        outer: &[Mask; 81],
        out: &mut Vec<u16>,
    ) {
        let mut mark = NO_NODES;
        self.stack.clear();
        for &r in roots {
            let r = r as usize;
            if !has(&mark, r) {
                mark[r / 64] |= 1 << (r % 64);
                self.stack.push(r as u16);
            }
        }
        while let Some(x) = self.stack.pop() {
            let x = x as usize;
            if x & 1 == 1 {
                let cause = run.cause[run.index[x] as usize];
                let cause = if cause == START { start } else { cause };
                removed_by(cause, x / 2, outer, &self.b.cand, out);
            }
            for &p in run.parents(x) {
                let p = p as usize;
                if !has(&mark, p) {
                    mark[p / 64] |= 1 << (p % 64);
                    self.stack.push(p as u16);
                }
            }
        }
    }

    /// [`Engine::rule_parents`] of a contradiction: both of its sides.
    fn absurd_parents(&mut self, run: &Run, a: &Absurd, outer: &[Mask; 81], out: &mut Vec<u16>) {
        self.walk_parents(run, &[node(a.cand, !a.new_on) as u16], START, outer, out);
        if a.new_on {
            removed_by(a.cause, a.cand, outer, &self.b.cand, out);
        }
        let (s, l) = (a.parents.0 as usize, a.parents.1 as usize);
        self.walk_parents(run, &run.arena[s..s + l], START, outer, out);
    }

    /// The complexity of the nested chains met since the last call.
    fn take_nested(&mut self) -> usize {
        let sum = self.nested.iter().map(|&(_, c)| c as usize).sum();
        self.nested.clear();
        sum
    }

    /// The complexity of a contradiction: the causes of both sides.
    fn absurd_complexity(&mut self, run: &Run, a: &Absurd) -> usize {
        let old = node(a.cand, !a.new_on);
        let old_count = self.ancestors(run, old);
        let (s, l) = (a.parents.0 as usize, a.parents.1 as usize);
        let new_count =
            1 + run.ancestors_of(&run.arena[s..s + l], &mut self.stack, &mut self.nested);
        old_count + new_count + self.take_nested()
    }
}

/// Appends the candidates of `outer` missing from `grid` that candidate
/// `cand` needed to go on for `cause` (see [`Engine::rule_parents`]).
fn removed_by(cause: u8, cand: usize, outer: &[Mask; 81], grid: &[Mask; 81], out: &mut Vec<u16>) {
    let (c, d) = (cand / 9, cand % 9);
    if cause == START {
    } else if cause == CELL {
        for o in bits(outer[c] & !grid[c]) {
            out.push(node(c * 9 + o, false) as u16);
        }
    } else {
        let u = CELL_UNITS[c][(cause - 2) as usize] as usize;
        for g in cells_of(UNIT_SET[u]) {
            if outer[g] >> d & 1 != 0 && grid[g] >> d & 1 == 0 {
                out.push(node(g * 9 + d, false) as u16);
            }
        }
    }
}

/// The runs of on candidates, each computed once and kept until its cell
/// has been searched.
struct OnRuns {
    runs: Vec<Run>,
    /// Each candidate's run in `runs`, or `NO_RUN`.
    of_cand: [u16; 81 * 9],
    /// Runs no candidate holds.
    free: Vec<u16>,
}

const NO_RUN: u16 = u16::MAX;

impl OnRuns {
    fn new() -> OnRuns {
        OnRuns {
            runs: Vec::new(),
            of_cand: [NO_RUN; 81 * 9],
            free: Vec::new(),
        }
    }

    /// The run (an index of `runs`) of candidate `cand` on.
    fn get(&mut self, e: &mut Engine, cand: usize) -> usize {
        if self.of_cand[cand] != NO_RUN {
            return self.of_cand[cand] as usize;
        }
        let i = self.free.pop().map_or_else(
            || {
                self.runs.push(Run::new());
                self.runs.len() - 1
            },
            usize::from,
        );
        let run = &mut self.runs[i];
        run.start(node(cand, true));
        e.chain(run);
        self.of_cand[cand] = i as u16;
        i
    }

    /// Frees the runs of the candidates of cell `c`: region chains only
    /// ask for places after the first, so later cells never need them.
    fn release(&mut self, c: usize) {
        for slot in &mut self.of_cand[c * 9..c * 9 + 9] {
            if *slot != NO_RUN {
                self.free.push(*slot);
                *slot = NO_RUN;
            }
        }
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
    /// Dynamic forcing chains (+) (9.0): the same, with the techniques of
    /// [`inner`] used inside the chains.
    Plus,
    /// Dynamic forcing chains (+ forcing chains) (9.5): the same, with
    /// static forcing chains and cycles used inside too.
    NestedChains,
    /// Dynamic forcing chains (+ multiple forcing chains) (10.0): the
    /// same, then static cell and region forcing chains inside.
    NestedMultiple,
    /// Dynamic forcing chains (+ dynamic forcing chains) (10.5): the basic
    /// techniques of [`inner`], then the dynamic forcing chains of the
    /// given kind (`Dynamic`, `Plus` or `NestedChains`: serate's three
    /// rules of this name, tried in that order) inside.
    NestedDynamic(u8),
}

impl Kind {
    /// Serate's nesting level (which rules run inside the chains: see
    /// [`Engine::level`]) and the limit of a level-4 rule.
    fn level(self) -> (u8, u8) {
        match self {
            Kind::Plus => (1, 0),
            Kind::NestedChains => (2, 0),
            Kind::NestedMultiple => (3, 0),
            Kind::NestedDynamic(limit) => (4, limit),
            _ => (0, 0),
        }
    }

    /// The rule serate runs inside the chains of level 4 with `limit`.
    fn inside(limit: u8) -> Kind {
        match limit {
            0 => Kind::Dynamic,
            1 => Kind::Plus,
            _ => Kind::NestedChains,
        }
    }
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

/// One hint of a rule run inside a chain: its place in serate's order
/// (rating, complexity, kind, then the order found), what it removes (one
/// cell's digits), and the candidates the outer chain removed that its
/// chains need (a range of [`All::parents`]).
struct Hint {
    key: (u8, usize, u8),
    cell: usize,
    mask: Mask,
    parents: (usize, usize),
}

/// Every hint of a rule run inside a chain, with what it needs: the
/// candidates of the board the outer chain started from.
struct All<'o> {
    outer: &'o [Mask; 81],
    hints: Vec<Hint>,
    parents: Vec<u16>,
}

/// Where a search puts what it finds: the easiest step (a rule of the
/// rater), or every hint (a rule inside a chain).
enum Sink<'o> {
    Best(Best),
    All(All<'o>),
}

impl Sink<'_> {
    /// Offers the conclusion `cand` (on: placed, off: removed) found with
    /// `key`; for every hint, `parents` appends the removed candidates its
    /// chains need.
    fn offer(
        &mut self,
        e: &mut Engine,
        key: (u8, usize, u8),
        cand: usize,
        on: bool,
        name: &'static str,
        parents: impl FnOnce(&mut Engine, &[Mask; 81], &mut Vec<u16>),
    ) {
        match self {
            Sink::Best(best) => best.offer(key.0, key.1, key.2, || conclusion(e.b, cand, on, name)),
            Sink::All(all) => {
                let (c, d) = (cand / 9, cand % 9);
                let mask = if on {
                    e.b.cand[c] & !(1 << d)
                } else {
                    e.b.cand[c] & 1 << d
                };
                if mask == 0 {
                    return;
                }
                let start = all.parents.len();
                parents(e, all.outer, &mut all.parents);
                all.parents[start..].sort_unstable();
                let mut end = start;
                for i in start..all.parents.len() {
                    if end == start || all.parents[end - 1] != all.parents[i] {
                        all.parents[end] = all.parents[i];
                        end += 1;
                    }
                }
                all.parents.truncate(end);
                all.hints.push(Hint {
                    key,
                    cell: c,
                    mask,
                    parents: (start, end),
                });
            }
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

/// The nodes every run of `runs` reached.
fn common(all: &[Run], runs: &[usize]) -> NodeSet {
    let mut set = all[runs[0]].seen;
    for &r in &runs[1..] {
        for (w, s) in set.iter_mut().zip(&all[r].seen) {
            *w &= s;
        }
    }
    set
}

/// The nodes of `order` in serate's order for a rule's conclusions: the
/// on nodes, then the off nodes, each as reached.
fn on_then_off(order: &[u16]) -> impl Iterator<Item = usize> + '_ {
    let on = order.iter().filter(|&&n| n & 1 == 1);
    let off = order.iter().filter(|&&n| n & 1 == 0);
    on.chain(off).map(|&n| n as usize)
}

/// Runs the rule `kind` on the board: the easiest step it finds.
pub(super) fn forcing_chains(b: &Board, s: &mut Step, kind: Kind, shared: &mut Shared) -> bool {
    let deadline = shared.deadline;
    let cache =
        matches!(kind, Kind::NestedChains | Kind::NestedMultiple).then_some(&mut shared.inner);
    let reach = (kind == Kind::Multiple).then(|| {
        &*shared
            .reach
            .get_or_insert_with(|| Reach::new(b, true, true))
    });
    let mut sink = Sink::Best(Best {
        key: None,
        step: Step::default(),
    });
    if !search(b, kind, deadline, reach, cache, &mut sink) {
        return false;
    }
    match sink {
        Sink::Best(best) if best.key.is_some() => {
            *s = best.step;
            true
        }
        _ => false,
    }
}

/// Serate's rule `kind` run inside a chain (levels 3 and 4) on the grid
/// the chain has reached: every hint, in serate's order, one per set of
/// eliminations, each emitted into `f` with the removals it needs as
/// causes and its complexity as a nested chain. Whether any was.
fn nested_rule(
    v: &inner::View,
    kind: Kind,
    f: &mut inner::Found,
    deadline: Option<Instant>,
) -> bool {
    let b = Board {
        value: *v.value,
        cand: *v.grid,
    };
    let reach = (kind == Kind::Multiple).then(|| Reach::new(&b, true, true));
    let mut sink = Sink::All(All {
        outer: v.source,
        hints: Vec::new(),
        parents: Vec::new(),
    });
    if !search(&b, kind, deadline, reach.as_ref(), None, &mut sink) {
        return false;
    }
    let Sink::All(all) = sink else {
        unreachable!("made as All above")
    };
    let mut order: Vec<usize> = (0..all.hints.len()).collect();
    order.sort_by_key(|&i| all.hints[i].key);
    let mut kept = std::collections::HashSet::new();
    let mut any = false;
    for i in order {
        let h = &all.hints[i];
        if !kept.insert((h.cell, h.mask)) {
            continue;
        }
        f.note(h.cell, h.mask);
        // The chain's identity: its elimination, complexity, kind and
        // causes.
        let mut id: u64 = 0xcbf2_9ce4_8422_2325;
        let causes = &all.parents[h.parents.0..h.parents.1];
        let words = [
            h.cell as u64,
            u64::from(h.mask),
            h.key.1 as u64,
            u64::from(h.key.2),
        ];
        for x in words
            .into_iter()
            .chain(causes.iter().map(|&p| u64::from(p)))
        {
            id = (id ^ x).wrapping_mul(0x100_0000_01b3);
        }
        f.set_nested(Some((id | 1, h.key.1 as u32)));
        any |= f.emit(causes);
        f.set_nested(None);
    }
    any
}

/// The search of rule `kind` on board `b`, its conclusions offered to
/// `sink`; false when the deadline stopped it.
fn search(
    b: &Board,
    kind: Kind,
    deadline: Option<Instant>,
    reach: Option<&Reach>,
    cache: Option<&mut inner::Cache>,
    sink: &mut Sink,
) -> bool {
    let dynamic = kind != Kind::Multiple;
    let base: u8 = match kind {
        Kind::Nishio => 75,
        Kind::Multiple => 80,
        Kind::Dynamic => 85,
        Kind::Plus => 90,
        Kind::NestedChains => 95,
        Kind::NestedMultiple => 100,
        Kind::NestedDynamic(_) => 105,
    };
    let (contradiction_name, double_name, region_name, cell_name) = match kind {
        Kind::Nishio => ("Nishio Forcing Chains", "", "", ""),
        Kind::Multiple => ("", "", "Region Forcing Chains", "Cell Forcing Chains"),
        Kind::Dynamic => (
            "Dynamic Contradiction Forcing Chains",
            "Dynamic Double Forcing Chains",
            "Dynamic Region Forcing Chains",
            "Dynamic Cell Forcing Chains",
        ),
        Kind::Plus => (
            "Dynamic Contradiction Forcing Chains (+)",
            "Dynamic Double Forcing Chains (+)",
            "Dynamic Region Forcing Chains (+)",
            "Dynamic Cell Forcing Chains (+)",
        ),
        Kind::NestedChains => (
            "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
            "Dynamic Double Forcing Chains (+ Forcing Chains)",
            "Dynamic Region Forcing Chains (+ Forcing Chains)",
            "Dynamic Cell Forcing Chains (+ Forcing Chains)",
        ),
        Kind::NestedMultiple => (
            "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
            "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)",
            "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)",
            "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)",
        ),
        Kind::NestedDynamic(_) => (
            "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
            "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains)",
            "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)",
            "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)",
        ),
    };
    let (level, limit) = kind.level();
    let doubles = dynamic && kind != Kind::Nishio;
    let mut e = Engine::new(b, kind != Kind::Nishio, dynamic, level, limit, deadline);
    e.cache = cache;
    let mut on = OnRuns::new();
    let mut off_run = Run::new();
    // A static run reaches what its start reaches in the graph (or less,
    // when it meets a contradiction), so a cell or region whose branches
    // reach no node in common there has no chain, and its runs are not
    // needed. Dynamic runs can reach more: they are all computed.
    let any_common = |cands: &mut dyn Iterator<Item = usize>| {
        reach.is_none_or(|reach| reach.meet(cands.map(|cand| node(cand, true))))
    };
    for c in 0..81 {
        if super::past(deadline) {
            return false;
        }
        let m = b.cand[c];
        let card = m.count_ones();
        if card < 2 || (!dynamic && card < 3) {
            on.release(c);
            continue;
        }
        let cell_chains = kind != Kind::Nishio && any_common(&mut bits(m).map(|d| c * 9 + d));
        // The runs of the cell's digits, in digit order (static ones only
        // when the cell or a region has a chain).
        let mut cell_runs = [0usize; 9];
        let mut nv = 0;
        for d in bits(m) {
            let cand = c * 9 + d;
            let regions = CELL_UNITS[c].map(|u| {
                let u = u as usize;
                let pos = b.positions(u, d + 1);
                let first = kind != Kind::Nishio
                    && pos.count_ones() >= 2
                    && UNITS[u][pos.trailing_zeros() as usize] as usize == c
                    && any_common(&mut bits(pos).map(|i| UNITS[u][i] as usize * 9 + d));
                (u, pos, first)
            });
            if !dynamic && !cell_chains && regions.iter().all(|&(_, _, first)| !first) {
                continue;
            }
            let r = on.get(&mut e, cand);
            cell_runs[nv] = r;
            nv += 1;
            if kind != Kind::Multiple {
                let run = &on.runs[r];
                if let Some(a) = run.absurd {
                    let cx = e.absurd_complexity(run, &a);
                    let key = (base + length_tenths(cx), cx, 7);
                    sink.offer(&mut e, key, cand, false, contradiction_name, |e, o, out| {
                        e.absurd_parents(run, &a, o, out)
                    });
                }
                off_run.start(node(cand, false));
                e.chain(&mut off_run);
                if let Some(a) = off_run.absurd {
                    let cx = e.absurd_complexity(&off_run, &a);
                    let key = (base + length_tenths(cx), cx, 7);
                    let off = &off_run;
                    sink.offer(&mut e, key, cand, true, contradiction_name, |e, o, out| {
                        e.absurd_parents(off, &a, o, out)
                    });
                }
                if doubles && card >= 3 {
                    // Double forcing chains: what both the candidate and
                    // its absence lead to.
                    for n in on_then_off(&run.order) {
                        if n / 2 == cand || !off_run.seen(n) {
                            continue;
                        }
                        let cx = e.ancestors(run, n) + e.ancestors(&off_run, n) + e.take_nested();
                        let key = (base + length_tenths(cx), cx, 1);
                        let off = &off_run;
                        sink.offer(&mut e, key, n / 2, n & 1 == 1, double_name, |e, o, out| {
                            e.rule_parents(run, n, START, o, out);
                            e.rule_parents(off, n, START, o, out);
                        });
                    }
                }
            }
            if kind == Kind::Nishio {
                continue;
            }
            // Region forcing chains from this cell, the first place of the
            // digit in the unit.
            for (t, (u, pos, first)) in regions.into_iter().enumerate() {
                if !first {
                    continue;
                }
                // This cell's run, then the later places' runs.
                let mut places = [r; 9];
                let mut n_places = 1;
                for i in bits(pos & (pos - 1)) {
                    places[n_places] = on.get(&mut e, UNITS[u][i] as usize * 9 + d);
                    n_places += 1;
                }
                let places = &places[..n_places];
                let all = common(&on.runs, places);
                for n in on_then_off(&on.runs[r].order) {
                    if has(&all, n) {
                        let cx: usize = places
                            .iter()
                            .map(|&p| e.ancestors(&on.runs[p], n))
                            .sum::<usize>()
                            + e.take_nested();
                        let key = (base + length_tenths(cx), cx, 6);
                        let runs = &on.runs;
                        sink.offer(&mut e, key, n / 2, n & 1 == 1, region_name, |e, o, out| {
                            for &p in places {
                                e.rule_parents(&runs[p], n, 2 + t as u8, o, out);
                            }
                        });
                    }
                }
            }
        }
        if cell_chains {
            // Cell forcing chains: what every digit of the cell leads to.
            let cell_runs = &cell_runs[..nv];
            let all = common(&on.runs, cell_runs);
            for n in on_then_off(&on.runs[cell_runs[0]].order) {
                if has(&all, n) {
                    let cx: usize = cell_runs
                        .iter()
                        .map(|&p| e.ancestors(&on.runs[p], n))
                        .sum::<usize>()
                        + e.take_nested();
                    let key = (base + length_tenths(cx), cx, 5);
                    let runs = &on.runs;
                    sink.offer(&mut e, key, n / 2, n & 1 == 1, cell_name, |e, o, out| {
                        for &p in cell_runs {
                            e.rule_parents(&runs[p], n, CELL, o, out);
                        }
                    });
                }
            }
        }
        on.release(c);
    }
    !super::past(deadline)
}
