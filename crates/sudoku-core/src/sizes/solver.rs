//! The solvers for grids of any size, and the classification of a puzzle.
//!
//! [`SizedSolver`] keeps one 64-bit candidate set per cell and propagates
//! with the rules the 9x9 engine uses, generalised: naked singles (a cell
//! with one candidate left, queued as its peers lose candidates), hidden
//! singles (a value with one place left in a unit, found for a whole unit
//! at once from the values seen at least once and at least twice, in the
//! units whose cells lost candidates since the last look), locked
//! candidates (pointing: a value of a box confined to one row or column of
//! it leaves the rest of that line; claiming: a value of a row or column
//! confined to one box leaves the rest of that box) and, from 16x16 up,
//! naked and hidden pairs and triples in the changed units, each rule
//! tried only when the cheaper ones are stuck. Then it guesses in the open
//! cell with the fewest candidates (ties among cells of two or three
//! broken by the candidates a guess removes from open peers, weighted
//! towards peers left with few), copying the state per guess.
//!
//! [`ReferenceSolver`] is the naive solver generalised: the first blank in
//! row-major order, its allowed values found by scanning its peers, tried
//! in order; a reference for tests.

use std::sync::Arc;

use super::grid::{SizedConflict, SizedGrid};
use super::shape::{Geometry, Shape};
use super::symbols::Symbols;
use crate::solver::{LimitClock, Limits, Mode, Status};

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizedSearch {
    /// Solutions found, at most 2 (unique mode) or 1 (first mode).
    pub solutions: u8,
    /// The first solution found.
    pub first: Option<SizedGrid>,
    /// The second (unique mode only).
    pub second: Option<SizedGrid>,
    /// Guesses: each placement of a candidate in a cell that had two or
    /// more (deterministic for a solver, grid and mode).
    pub guesses: u64,
    /// The limit that stopped the search, for the message.
    pub stopped: Option<String>,
}

/// The classification of one grid of any size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizedOutcome {
    /// The status, as for 9x9.
    pub status: Status,
    /// The solution when `solved`.
    pub solution: Option<SizedGrid>,
    /// Guesses made.
    pub guesses: u64,
    /// Why: the conflict for `invalid` (`K twice in row 3: r3c2, r3c9`),
    /// the limit for `timeout`, the first differing cell for `multiple`.
    pub message: Option<String>,
}

/// A solver for grids of any size.
pub trait SizedSearcher: Send {
    /// Searches a grid with no repeated given, stopping at the first
    /// solution (`First`), the second (`Unique`) or a limit.
    fn search(&mut self, grid: &SizedGrid, mode: Mode, limits: &Limits) -> SizedSearch;

    /// Classifies a grid: `invalid` for a repeated given (named with
    /// `symbols`), else what the search found.
    fn solve(
        &mut self,
        grid: &SizedGrid,
        symbols: &Symbols,
        mode: Mode,
        limits: &Limits,
    ) -> SizedOutcome {
        if let Some(conflict) = grid.first_conflict() {
            return SizedOutcome::invalid(&conflict, grid.shape(), symbols);
        }
        SizedOutcome::from_search(self.search(grid, mode, limits), symbols, mode)
    }
}

impl SizedOutcome {
    /// The outcome for a grid whose repeated given is `conflict`, named
    /// with `symbols`.
    pub fn invalid(conflict: &SizedConflict, shape: Shape, symbols: &Symbols) -> SizedOutcome {
        SizedOutcome {
            status: Status::Invalid,
            solution: None,
            guesses: 0,
            message: Some(conflict.describe(shape, symbols)),
        }
    }

    /// Classifies a search's result: `multiple` (the evidence named with
    /// `symbols`), `solved`, `timeout` or `unsolvable`, as
    /// [`crate::solver::Outcome::from_search`] does for 9x9 grids.
    pub fn from_search(search: SizedSearch, symbols: &Symbols, mode: Mode) -> SizedOutcome {
        let status = match (search.solutions, &search.stopped) {
            (2.., _) => Status::Multiple,
            (1, None) => Status::Solved,
            (1, Some(_)) if mode == Mode::First => Status::Solved,
            (_, Some(_)) => Status::Timeout,
            (_, None) => Status::Unsolvable,
        };
        let message = match status {
            Status::Timeout => search.stopped,
            Status::Multiple => match (&search.first, &search.second) {
                (Some(a), Some(b)) => difference(a, b, symbols),
                _ => None,
            },
            _ => None,
        };
        SizedOutcome {
            status,
            solution: if status == Status::Solved {
                search.first
            } else {
                None
            },
            guesses: search.guesses,
            message,
        }
    }
}

/// The first cell where two solutions differ, as
/// `r1c3 is G in one solution and 4 in another`.
pub fn difference(a: &SizedGrid, b: &SizedGrid, symbols: &Symbols) -> Option<String> {
    let cell = a.cells().iter().zip(b.cells()).position(|(x, y)| x != y)?;
    Some(format!(
        "{} is {} in one solution and {} in another",
        super::grid::cell_name(a.shape(), cell),
        symbols.name_of(a.get(cell)),
        symbols.name_of(b.get(cell))
    ))
}

/// One search state: candidates of every cell (a single bit once placed),
/// the placed values (0 open) and the open cells left.
#[derive(Clone, Debug, Default)]
struct State {
    cand: Vec<u64>,
    value: Vec<u8>,
    open: usize,
    /// Units (bit u of 3 * 64) whose cells lost candidates since hidden
    /// singles were last looked for in them.
    singles_dirty: [u64; 3],
    /// The same for subsets.
    subsets_dirty: [u64; 3],
}

/// The fast solver for grids of any size (see the module docs). Keeps its
/// geometry and state stack between calls: keep one per thread.
#[derive(Debug, Default)]
pub struct SizedSolver {
    /// The first release's guess order, for [`SizedSolver::basic`].
    basic: bool,
    geometry: Option<Arc<Geometry>>,
    stack: Vec<State>,
    queue: Vec<u16>,
    /// Per-segment candidate unions for locked candidates (scratch).
    segments: Vec<u64>,
    /// Per-value places in one unit for hidden subsets (scratch).
    places: Vec<u64>,
    /// Per-cell candidate counts and weights for the guess (scratch).
    sizes: Vec<(u32, u32)>,
}

/// One search's counters and findings.
struct Run<'s> {
    target: u8,
    solutions: u8,
    first: Option<SizedGrid>,
    second: Option<SizedGrid>,
    guesses: u64,
    clock: LimitClock,
    /// Asked with the clock: true stops the search (an interrupt).
    stop: &'s dyn Fn() -> bool,
    stopped: Option<String>,
}

/// The `stop` of a search nothing interrupts.
fn never() -> bool {
    false
}

/// The `stopped` message of a search ended by its `stop` (see
/// [`SizedSolver::search_until`]).
pub const INTERRUPTED: &str = "interrupted";

impl<'s> Run<'s> {
    /// A search for one solution (`first`) or two (`unique`), its clock
    /// started.
    fn new(mode: Mode, limits: &Limits, stop: &'s dyn Fn() -> bool) -> Run<'s> {
        Run {
            target: if mode == Mode::Unique { 2 } else { 1 },
            solutions: 0,
            first: None,
            second: None,
            guesses: 0,
            clock: LimitClock::start(limits),
            stop,
            stopped: None,
        }
    }

    /// Whether the search must stop now, the clock read (when there is a
    /// time limit) and `stop` asked; sets `stopped` if so.
    fn expired(&mut self) -> bool {
        self.stopped = self
            .clock
            .expired()
            .or_else(|| (self.stop)().then(|| INTERRUPTED.to_string()));
        self.stopped.is_some()
    }

    /// Whether the search must stop before a step that brings `guesses`
    /// guesses and `ticks` steps (see [`LimitClock::exceeded`]), `stop`
    /// asked when the clock would be read; sets `stopped` if so.
    fn halts(&mut self, guesses: u64, ticks: u64) -> bool {
        let why = self.clock.exceeded(guesses, ticks).or_else(|| {
            (ticks.is_multiple_of(1024) && (self.stop)()).then(|| INTERRUPTED.to_string())
        });
        let halts = why.is_some();
        self.stopped = why;
        halts
    }
}

impl SizedSolver {
    /// A solver with no geometry yet.
    pub fn new() -> SizedSolver {
        SizedSolver::default()
    }

    /// The solver with the guess order of its first release (the tie
    /// between cells of two or three candidates broken by the candidates
    /// open peers share, each counted once): the same statuses and, for a
    /// puzzle of one solution, the same solution as [`SizedSolver::new`],
    /// but in first mode the same solution as before among several, so
    /// that `generate` completes the same grids under a seed. Slower on
    /// hard puzzles.
    pub fn basic() -> SizedSolver {
        SizedSolver {
            basic: true,
            ..SizedSolver::default()
        }
    }

    /// Makes the solver ready for grids of `shape` (their geometry: units
    /// and peers, a few milliseconds for 64x64), so that a caller timing
    /// or limiting each puzzle (`--timeout-ms`) can do it before the
    /// first puzzle's clock starts. Searching does it too when needed.
    pub fn prepare(&mut self, shape: Shape) {
        self.geometry(shape);
    }

    fn geometry(&mut self, shape: Shape) -> Arc<Geometry> {
        match &self.geometry {
            Some(g) if g.shape() == shape => Arc::clone(g),
            _ => {
                let g = Arc::new(Geometry::new(shape));
                self.geometry = Some(Arc::clone(&g));
                g
            }
        }
    }

    /// Places value index `d` (0-based) in `cell` of state `s`, removing it
    /// from the peers and queueing those left with one candidate; false on
    /// a contradiction.
    fn place(g: &Geometry, st: &mut State, queue: &mut Vec<u16>, cell: usize, d: u32) -> bool {
        let bit = 1u64 << d;
        st.value[cell] = d as u8 + 1;
        if st.cand[cell] != bit {
            touch(g, st, cell);
        }
        st.cand[cell] = bit;
        st.open -= 1;
        for &p in g.peers(cell) {
            let p = usize::from(p);
            let c = st.cand[p];
            if c & bit == 0 {
                continue;
            }
            if st.value[p] != 0 {
                return false;
            }
            let left = c & !bit;
            st.cand[p] = left;
            touch(g, st, p);
            if left & left.wrapping_sub(1) == 0 {
                if left == 0 {
                    return false;
                }
                queue.push(p as u16);
            }
        }
        true
    }

    /// Propagates state `s` to a fixpoint of the three rules; false on a
    /// contradiction, or when `run` must stop (its time is up or it is
    /// interrupted: `run.stopped` says so). The time is read once a round
    /// of the rules: a 64x64 grid's first propagation takes up to hundreds
    /// of milliseconds, far past a `--timeout-ms` read only at guesses.
    fn propagate(&mut self, g: &Geometry, s: usize, run: &mut Run) -> bool {
        let n = g.shape().side();
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let st = &mut self.stack[s];
        loop {
            while let Some(cell) = self.queue.pop() {
                let cell = usize::from(cell);
                if st.value[cell] != 0 {
                    continue;
                }
                let c = st.cand[cell];
                if c == 0 || !Self::place(g, st, &mut self.queue, cell, c.trailing_zeros()) {
                    return false;
                }
            }
            if st.open == 0 {
                return true;
            }
            if run.expired() {
                return false;
            }
            // Hidden singles, every unit changed since the last look.
            let mut found = false;
            let todo = std::mem::take(&mut st.singles_dirty);
            for u in (0..3 * n).filter(|&u| todo[u / 64] & (1 << (u % 64)) != 0) {
                let unit = g.unit(u);
                let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
                for &cell in unit {
                    let cell = usize::from(cell);
                    let c = st.cand[cell];
                    let open = u64::from(st.value[cell] == 0).wrapping_neg();
                    placed |= c & !open;
                    twice |= once & c & open;
                    once |= c & open;
                }
                if (once | placed) != full {
                    return false;
                }
                let hidden = once & !twice & !placed;
                if hidden == 0 {
                    continue;
                }
                for &cell in unit {
                    let cell = usize::from(cell);
                    let c = st.cand[cell];
                    if st.value[cell] == 0 && c & hidden != 0 {
                        let only = c & hidden;
                        if only & only.wrapping_sub(1) != 0 {
                            return false;
                        }
                        st.cand[cell] = only;
                        touch(g, st, cell);
                        self.queue.push(cell as u16);
                        found = true;
                    }
                }
            }
            if found {
                continue;
            }
            match locked(g, st, &mut self.segments, &mut self.queue) {
                None => return false,
                Some(true) => continue,
                Some(false) if self.basic || n < SUBSETS_FROM => return true,
                Some(false) => {}
            }
            match subsets(g, st, &mut self.places, &mut self.queue) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Searches from state `s` (propagated, consistent, open cells left);
    /// true when the search must stop.
    fn branch(&mut self, g: &Geometry, s: usize, run: &mut Run) -> bool {
        let (cell, cands) = guess_cell(g, &self.stack[s], self.basic, &mut self.sizes);
        if self.stack.len() <= s + 1 {
            self.stack.push(State::default());
        }
        let mut left = cands;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left &= left - 1;
            let guesses = run.guesses + 1;
            // The clock is read every 1024 ticks: a guess here costs tens
            // of 9x9 ones, so it counts 64 (the clock read every 16).
            if run.halts(guesses, guesses << 6) {
                return true;
            }
            run.guesses = guesses;
            let (from, to) = self.stack.split_at_mut(s + 1);
            to[0].clone_from(&from[s]);
            to[0].cand[cell] = bit;
            touch(g, &mut to[0], cell);
            self.queue.clear();
            self.queue.push(cell as u16);
            if !self.propagate(g, s + 1, run) {
                if run.stopped.is_some() {
                    return true;
                }
                continue;
            }
            if self.stack[s + 1].open == 0 {
                if self.found(g, s + 1, run) {
                    return true;
                }
            } else if self.branch(g, s + 1, run) {
                return true;
            }
        }
        false
    }

    /// Records the solution in state `s`; true when enough are found.
    fn found(&self, g: &Geometry, s: usize, run: &mut Run) -> bool {
        run.solutions += 1;
        let grid = SizedGrid::from_cells(g.shape(), self.stack[s].value.clone());
        if run.first.is_none() {
            run.first = grid;
        } else if run.second.is_none() {
            run.second = grid;
        }
        run.solutions >= run.target
    }
}

/// The open cell to guess in: the fewest candidates; among cells of two
/// or three, the one whose candidates its open peers hold most (a guess
/// there removes the most candidates), the first in row-major order on a
/// tie. A shared candidate counts [`WEIGHT`] of the peer's candidate count
/// (`basic`: 1 each, the first release's order). On 50 minimal 16x16
/// puzzles of `generate` in unique mode the weights cut 1,748 guesses a
/// puzzle to 400 (the first cell of two candidates: 3,829).
fn guess_cell(g: &Geometry, st: &State, basic: bool, sizes: &mut Vec<(u32, u32)>) -> (usize, u64) {
    // Every cell's candidate count and weight (0 placed), and the fewest.
    sizes.clear();
    let mut fewest = u32::MAX;
    for (&c, &v) in st.cand.iter().zip(&st.value) {
        if v != 0 {
            sizes.push((u32::MAX, 0));
            continue;
        }
        let k = c.count_ones();
        fewest = fewest.min(k);
        sizes.push((k, if basic { 1 } else { WEIGHT[k as usize] }));
    }
    let (mut best, mut best_score) = (usize::MAX, 0);
    for (cell, &(k, _)) in sizes.iter().enumerate() {
        if k != fewest {
            continue;
        }
        if k > 3 {
            return (cell, st.cand[cell]);
        }
        let c = st.cand[cell];
        let mut score = 0;
        for &p in g.peers(cell) {
            let p = usize::from(p);
            let shared = st.cand[p] & c;
            if shared != 0 {
                let two = shared & shared.wrapping_sub(1);
                let count = 1 + u32::from(two != 0) + u32::from(two & two.wrapping_sub(1) != 0);
                score += count * sizes[p].1;
            }
        }
        if best == usize::MAX || score > best_score {
            (best, best_score) = (cell, score);
        }
    }
    (best, st.cand[best])
}

/// The weight of a candidate a guess removes from a peer of k candidates:
/// 4096 / k^3, so that taking one of a peer's two candidates (which places
/// it) outweighs many removed from peers with more.
const WEIGHT: [u32; 65] = {
    let mut w = [0u32; 65];
    let mut k = 1;
    while k < 65 {
        w[k] = 4096 / (k * k * k) as u32;
        k += 1;
    }
    w
};

/// Locked candidates over every box (pointing) and every row and column
/// (claiming); `Some(true)` when a candidate was removed, `None` on a
/// contradiction.
fn locked(
    g: &Geometry,
    st: &mut State,
    segments: &mut Vec<u64>,
    queue: &mut Vec<u16>,
) -> Option<bool> {
    let shape = g.shape();
    let (n, r, c) = (shape.side(), shape.box_rows(), shape.box_cols());
    let mut changed = false;
    // Two passes: rows cut by stacks (segments of c cells: r bands... per
    // row n/c = r segments), then columns cut by bands (c segments of r).
    for pass in 0..2 {
        // In pass 0 a "line" is a row, cut into `pieces` = n / c segments of
        // `len` = c cells; a box holds `per_box` = r consecutive lines'
        // segments. Pass 1 is the same with columns.
        let (pieces, len, per_box) = if pass == 0 { (r, c, r) } else { (c, r, c) };
        let at = |line: usize, k: usize| {
            if pass == 0 {
                line * n + k
            } else {
                k * n + line
            }
        };
        segments.clear();
        for line in 0..n {
            for piece in 0..pieces {
                let mut m = 0u64;
                for k in piece * len..(piece + 1) * len {
                    let cell = at(line, k);
                    if st.value[cell] == 0 {
                        m |= st.cand[cell];
                    }
                }
                segments.push(m);
            }
        }
        for line in 0..n {
            let band = line / per_box;
            for piece in 0..pieces {
                let seg = segments[line * pieces + piece];
                if seg == 0 {
                    continue;
                }
                // Claiming: values of this line only in this piece.
                let mut others_line = 0u64;
                for q in 0..pieces {
                    if q != piece {
                        others_line |= segments[line * pieces + q];
                    }
                }
                // Pointing: values of this box only in this line.
                let mut others_box = 0u64;
                for l in band * per_box..(band + 1) * per_box {
                    if l != line {
                        others_box |= segments[l * pieces + piece];
                    }
                }
                let claim = seg & !others_line & others_box;
                if claim != 0 {
                    // Remove from the box's other lines within this piece.
                    for l in band * per_box..(band + 1) * per_box {
                        if l == line {
                            continue;
                        }
                        for k in piece * len..(piece + 1) * len {
                            changed |= remove(g, st, at(l, k), claim, queue)?;
                        }
                    }
                }
                let point = seg & !others_box & others_line;
                if point != 0 {
                    for k in 0..n {
                        if k / len != piece {
                            changed |= remove(g, st, at(line, k), point, queue)?;
                        }
                    }
                }
                if changed {
                    return Some(true);
                }
            }
        }
    }
    Some(changed)
}

/// The smallest side whose searches look for subsets: on 200 minimal
/// 12x12 puzzles of `generate` they cut 15.7 guesses a puzzle to 9.6 but
/// cost 16 % more instructions; on minimal 16x16 ones they cut 402 to 143
/// and 29 % of the instructions.
const SUBSETS_FROM: usize = 16;

/// Naked and hidden subsets of two and three in every unit changed since
/// the last look: two open
/// cells whose candidates are the same two values (three cells, three
/// values) leave those values to them, and two values with the same two
/// places (three values within three places) leave those places to them.
/// `Some(true)` when a candidate was removed, `None` on a contradiction.
fn subsets(
    g: &Geometry,
    st: &mut State,
    places: &mut Vec<u64>,
    queue: &mut Vec<u16>,
) -> Option<bool> {
    let n = g.shape().side();
    places.resize(n, 0);
    for word in 0..3 {
        while st.subsets_dirty[word] != 0 {
            let u = word * 64 + st.subsets_dirty[word].trailing_zeros() as usize;
            st.subsets_dirty[word] &= st.subsets_dirty[word] - 1;
            if subsets_in(g, g.unit(u), st, places, queue)? {
                return Some(true);
            }
        }
    }
    Some(false)
}

/// Naked and hidden subsets in one unit (see [`subsets`]).
fn subsets_in(
    g: &Geometry,
    unit: &[u16],
    st: &mut State,
    places: &mut [u64],
    queue: &mut Vec<u16>,
) -> Option<bool> {
    // Open cells of two or three candidates (candidates, position), and
    // the values seen at least once, twice, three and four times.
    let mut few = [(0u64, 0u64); 64];
    let mut count = 0;
    let (mut one, mut two, mut three, mut four) = (0u64, 0u64, 0u64, 0u64);
    for (i, &cell) in unit.iter().enumerate() {
        let cell = usize::from(cell);
        if st.value[cell] != 0 {
            continue;
        }
        let c = st.cand[cell];
        four |= three & c;
        three |= two & c;
        two |= one & c;
        one |= c;
        if at_most_three(c) {
            few[count] = (c, 1 << i);
            count += 1;
        }
    }
    let mut changed = count >= 2
        && subsets_of(&few[..count], |values, cells| {
            naked_subset(g, unit, st, values, cells, queue)
        })?;
    // Values of two or three places (places, value).
    let rare = two & !four;
    if rare.count_ones() >= 2 {
        for d in ones(rare) {
            places[d] = 0;
        }
        for (i, &cell) in unit.iter().enumerate() {
            let cell = usize::from(cell);
            if st.value[cell] == 0 {
                for d in ones(st.cand[cell] & rare) {
                    places[d] |= 1 << i;
                }
            }
        }
        count = 0;
        for d in ones(rare) {
            if at_most_three(places[d]) && places[d].count_ones() >= 2 {
                few[count] = (places[d], 1 << d);
                count += 1;
            }
        }
        changed |= subsets_of(&few[..count], |cells, values| {
            hidden_subset(g, unit, st, cells, values, queue)
        })?;
    }
    Some(changed)
}

/// Calls `found(union, members)` for every two or three of `sets` (each a
/// set and its member bit) whose union has as many elements as members;
/// `Some(true)` when a call removed a candidate, `None` on a contradiction.
fn subsets_of(
    sets: &[(u64, u64)],
    mut found: impl FnMut(u64, u64) -> Option<bool>,
) -> Option<bool> {
    let mut changed = false;
    for (a, &(sa, ma)) in sets.iter().enumerate() {
        for (b, &(sb, mb)) in sets.iter().enumerate().skip(a + 1) {
            let ab = sa | sb;
            match ab.count_ones() {
                2 => changed |= found(ab, ma | mb)?,
                3 => {
                    for &(sc, mc) in &sets[b + 1..] {
                        let abc = ab | sc;
                        if abc.count_ones() == 3 {
                            changed |= found(abc, ma | mb | mc)?;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Some(changed)
}

/// Removes `values` from the open cells of `unit` outside `cells` (unit
/// positions).
fn naked_subset(
    g: &Geometry,
    unit: &[u16],
    st: &mut State,
    values: u64,
    cells: u64,
    queue: &mut Vec<u16>,
) -> Option<bool> {
    let mut changed = false;
    for (i, &cell) in unit.iter().enumerate() {
        if cells & (1 << i) == 0 {
            changed |= remove(g, st, usize::from(cell), values, queue)?;
        }
    }
    Some(changed)
}

/// Removes every value but `values` from the cells of `unit` at `cells`.
fn hidden_subset(
    g: &Geometry,
    unit: &[u16],
    st: &mut State,
    cells: u64,
    values: u64,
    queue: &mut Vec<u16>,
) -> Option<bool> {
    let mut changed = false;
    for i in ones(cells) {
        changed |= remove(g, st, usize::from(unit[i]), !values, queue)?;
    }
    Some(changed)
}

/// The elements of `set`, smallest first.
#[inline]
fn ones(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// Whether `set` has at most three elements, without a population count
/// (the default x86-64 target has no instruction for it).
#[inline]
fn at_most_three(set: u64) -> bool {
    let two = set & set.wrapping_sub(1);
    let three = two & two.wrapping_sub(1);
    three & three.wrapping_sub(1) == 0
}

/// Marks the units of `cell` as changed, for hidden singles and
/// [`subsets`].
#[inline]
fn touch(g: &Geometry, st: &mut State, cell: usize) {
    for u in g.units_of(cell) {
        st.singles_dirty[usize::from(u >> 6)] |= 1 << (u & 63);
        st.subsets_dirty[usize::from(u >> 6)] |= 1 << (u & 63);
    }
}

/// Removes `mask` from an open cell's candidates; `Some(true)` if any
/// went, `None` when none is left.
#[inline]
fn remove(
    g: &Geometry,
    st: &mut State,
    cell: usize,
    mask: u64,
    queue: &mut Vec<u16>,
) -> Option<bool> {
    let c = st.cand[cell];
    if st.value[cell] != 0 || c & mask == 0 {
        return Some(false);
    }
    let left = c & !mask;
    if left == 0 {
        return None;
    }
    st.cand[cell] = left;
    touch(g, st, cell);
    if left & (left - 1) == 0 {
        queue.push(cell as u16);
    }
    Some(true)
}

impl SizedSearcher for SizedSolver {
    fn search(&mut self, grid: &SizedGrid, mode: Mode, limits: &Limits) -> SizedSearch {
        self.search_until(grid, mode, limits, &never)
    }
}

impl SizedSolver {
    /// [`SizedSearcher::search`] that also ends, with `stopped`
    /// [`INTERRUPTED`], once `stop` returns true: asked as often as the
    /// clock is read, so that an interrupt ends a long search (a minimal
    /// 25x25 puzzle being made) within milliseconds.
    pub fn search_until(
        &mut self,
        grid: &SizedGrid,
        mode: Mode,
        limits: &Limits,
        stop: &dyn Fn() -> bool,
    ) -> SizedSearch {
        let g = self.geometry(grid.shape());
        let n = grid.side();
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut run = Run::new(mode, limits, stop);
        if self.stack.is_empty() {
            self.stack.push(State::default());
        }
        let st = &mut self.stack[0];
        st.cand.clear();
        st.cand.resize(grid.cells().len(), full);
        st.value.clear();
        st.value.resize(grid.cells().len(), 0);
        st.open = grid.cells().len();
        st.singles_dirty = [0; 3];
        for u in 0..3 * n {
            st.singles_dirty[u / 64] |= 1 << (u % 64);
        }
        st.subsets_dirty = st.singles_dirty;
        self.queue.clear();
        let mut ok = true;
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                let bit = 1u64 << (v - 1);
                if st.cand[cell] & bit == 0 {
                    ok = false;
                    break;
                }
                ok &= Self::place(&g, st, &mut self.queue, cell, u32::from(v - 1));
                if !ok {
                    break;
                }
            }
        }
        if ok && self.propagate(&g, 0, &mut run) {
            if self.stack[0].open == 0 {
                self.found(&g, 0, &mut run);
            } else {
                self.branch(&g, 0, &mut run);
            }
        }
        SizedSearch {
            solutions: run.solutions,
            first: run.first,
            second: run.second,
            guesses: run.guesses,
            stopped: run.stopped,
        }
    }
}

/// Default most placements per search of the reference solver.
pub const REFERENCE_MAX_PLACEMENTS: u64 = 10_000_000;

/// The reference solver: the naive solver generalised (see the module
/// docs). Stops with `timeout` after its placement limit.
#[derive(Clone, Debug)]
pub struct ReferenceSolver {
    max_placements: u64,
}

impl Default for ReferenceSolver {
    fn default() -> Self {
        ReferenceSolver::new()
    }
}

impl ReferenceSolver {
    /// A reference solver with [`REFERENCE_MAX_PLACEMENTS`].
    pub fn new() -> ReferenceSolver {
        ReferenceSolver {
            max_placements: REFERENCE_MAX_PLACEMENTS,
        }
    }

    /// A reference solver that stops after `max_placements` placements.
    pub fn with_max_placements(max_placements: u64) -> ReferenceSolver {
        ReferenceSolver { max_placements }
    }
}

struct Naive<'a> {
    g: &'a Geometry,
    cells: Vec<u8>,
    run: Run<'a>,
    placements: u64,
    max_placements: u64,
}

impl Naive<'_> {
    fn recurse(&mut self, from: usize) -> bool {
        let Some(cell) = (from..self.cells.len()).find(|&c| self.cells[c] == 0) else {
            self.run.solutions += 1;
            let grid = SizedGrid::from_cells(self.g.shape(), self.cells.clone());
            if self.run.first.is_none() {
                self.run.first = grid;
            } else if self.run.second.is_none() {
                self.run.second = grid;
            }
            return self.run.solutions >= self.run.target;
        };
        let mut used = 0u128;
        for &p in self.g.peers(cell) {
            used |= 1 << self.cells[usize::from(p)];
        }
        let n = self.g.shape().side();
        let allowed = (1..=n as u8).filter(|v| used & (1 << v) == 0).count();
        for v in 1..=n as u8 {
            if used & (1 << v) != 0 {
                continue;
            }
            let guesses = self.run.guesses + u64::from(allowed >= 2);
            if self.placements + 1 > self.max_placements {
                self.run.stopped =
                    Some(format!("placement limit {} exceeded", self.max_placements));
                return true;
            }
            if self.run.halts(guesses, self.placements + 1) {
                return true;
            }
            self.placements += 1;
            self.run.guesses = guesses;
            self.cells[cell] = v;
            if self.recurse(cell + 1) {
                return true;
            }
        }
        self.cells[cell] = 0;
        false
    }
}

impl SizedSearcher for ReferenceSolver {
    fn search(&mut self, grid: &SizedGrid, mode: Mode, limits: &Limits) -> SizedSearch {
        let g = Geometry::new(grid.shape());
        let mut naive = Naive {
            g: &g,
            cells: grid.cells().to_vec(),
            run: Run::new(mode, limits, &never),
            placements: 0,
            max_placements: self.max_placements,
        };
        naive.recurse(0);
        let run = naive.run;
        SizedSearch {
            solutions: run.solutions,
            first: run.first,
            second: run.second,
            guesses: run.guesses,
            stopped: run.stopped,
        }
    }
}
