//! Human difficulty ratings on the Sudoku Explainer scale (1.0 to 11+).
//!
//! A puzzle's rating is that of the hardest technique a human-style solver
//! needs, trying techniques from easy to hard at every step and applying
//! the first one that makes progress, until the grid is solved. The
//! technique set, their order, their ratings and the rule for the next
//! step follow Sukaku Explainer's command-line rater `serate` (GitHub
//! SudokuMonster/SukakuExplainer at 362854e, default options), learned
//! from its published technique descriptions and ratings; the code here is
//! our own. Ratings are tenths (`23` is 2.3).
//!
//! Covered: singles, direct and plain intersections, direct hidden pairs
//! and triplets, naked and hidden subsets, X-Wing to Jellyfish, chains of
//! two to four strong links (grouped too), XY/XYZ-Wings, unique rectangles
//! and loops (type 3 with naked and hidden sets), BUG types 1 to 4,
//! WXYZ/VWXYZ/UVWXYZ/TUVWXYZ-Wings, aligned pair and triplet exclusion,
//! forcing chains and cycles, Nishio, cell and region forcing chains, their
//! dynamic forms, and the nested forcing chains of serate's default set:
//! Dynamic Forcing Chains (+) (9.0 and up), (+ Forcing Chains) (9.5 and
//! up), (+ Multiple Forcing Chains) (10.0 and up) and (+ Dynamic Forcing
//! Chains) (10.5 and up, its three rules: dynamic chains, then (+), then
//! (+ Forcing Chains) inside).
//!
//! ```
//! use sudoku_core::grid::Grid;
//! use sudoku_core::rate::rate;
//!
//! let puzzle = Grid::parse(
//!     b"004300209005009001070060043006002087190007400050083000600000105003508690042910300",
//! )?;
//! let r = rate(&puzzle);
//! assert_eq!((r.tenths, r.hardest, r.complete), (12, "Hidden Single", true));
//! # Ok::<(), sudoku_core::grid::ParseError>(())
//! ```

// Cells, units and digits are numbers that index several tables at once.
#![allow(clippy::needless_range_loop)]

mod band;
mod basic;
mod board;
mod chains;
mod exclusion;
mod inner;
mod links;
mod multiple;
mod reach;
mod unique;
mod wings;

#[cfg(test)]
mod tests;

pub use band::{Band, BandError};

use std::time::Instant;

use crate::grid::{Grid, CELLS};
use board::{Board, Mask};

/// The outcome of rating one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The rating in tenths of the Sudoku Explainer scale (`72` is 7.2): the
    /// highest rating among the steps taken. When `complete` is false, the
    /// highest rating of the steps taken before the rater got stuck (a
    /// lower bound).
    pub tenths: u16,
    /// Name of the hardest technique used (the first step with the highest
    /// rating), as serate names it; empty when no step was needed.
    pub hardest: &'static str,
    /// Technique applications on the solve path.
    pub steps: u32,
    /// Whether the techniques solved the grid. False when none of them
    /// applies to a grid that is not solved yet (a puzzle beyond this
    /// rater, or one without exactly one solution), and when the deadline
    /// of [`rate_until`] stopped the rating (see `timed_out`).
    pub complete: bool,
    /// True when [`rate_until`]'s deadline passed before the rating was
    /// done: `tenths`, `hardest` and `steps` are then those of the steps
    /// taken before it.
    pub timed_out: bool,
}

impl Rating {
    /// The rating as Sudoku Explainer prints it, with one decimal (`7.2`).
    pub fn to_decimal(&self) -> String {
        format!("{}.{}", self.tenths / 10, self.tenths % 10)
    }
}

/// One step: the technique's rating and name, the candidates it removes
/// and the digit it places, if any.
#[derive(Clone, Copy)]
pub(crate) struct Step {
    tenths: u8,
    name: &'static str,
    elim: [Mask; CELLS],
    place: Option<(usize, usize)>,
}

impl Default for Step {
    fn default() -> Step {
        Step {
            tenths: 0,
            name: "",
            elim: [0; CELLS],
            place: None,
        }
    }
}

impl Step {
    fn clear(&mut self) {
        self.elim = [0; CELLS];
        self.place = None;
    }

    fn set(&mut self, tenths: u8, name: &'static str) {
        self.tenths = tenths;
        self.name = name;
    }

    fn has_elims(&self) -> bool {
        self.elim.iter().any(|&m| m != 0)
    }

    fn elim_count(&self) -> u32 {
        self.elim.iter().map(|m| m.count_ones()).sum()
    }

    /// Removes the digits of `digits` from the cells of `cells` that hold
    /// them; whether any was removed.
    fn eliminate_in(&mut self, cells: u128, digits: Mask, b: &Board) -> bool {
        let mut any = false;
        for c in board::cells_of(cells) {
            let m = b.cand[c] & digits;
            if m != 0 {
                self.elim[c] |= m;
                any = true;
            }
        }
        any
    }

    fn apply(&self, b: &mut Board) {
        for (c, &m) in self.elim.iter().enumerate() {
            b.cand[c] &= !m;
        }
        if let Some((c, d)) = self.place {
            b.place(c, d);
        }
    }
}

/// What several techniques compute from the board of one step, kept for
/// the step by the first that needs it, and the rating's deadline, which
/// the long searches look at as they go.
#[derive(Default)]
struct Shared {
    /// When the rating must stop ([`rate_until`]).
    deadline: Option<Instant>,
    /// The strong links of every digit (three searches use them).
    links: Option<links::Table>,
    /// The static implication graph with X and Y links (forcing chains
    /// and cycles, then static cell and region forcing chains).
    reach: Option<reach::Reach>,
    /// What the rules inside nested chains found on each grid (levels 2
    /// and 3 search the same grids).
    inner: inner::Cache,
}

impl Shared {
    /// True once the deadline has passed: a search that sees it gives up
    /// (finds nothing), and the rating stops after it.
    fn out_of_time(&self) -> bool {
        past(self.deadline)
    }

    fn links(&mut self, b: &Board) -> &links::Table {
        self.links.get_or_insert_with(|| links::Table::new(b))
    }

    fn reach(&mut self, b: &Board) -> &reach::Reach {
        self.reach
            .get_or_insert_with(|| reach::Reach::new(b, true, true))
    }
}

/// True when `deadline` is set and has passed.
fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

type Finder = fn(&Board, &mut Step, &mut Shared) -> bool;

/// The techniques in the order serate tries them (its default set; the
/// producers it leaves out by default are left out here too).
const TECHNIQUES: &[Finder] = &[
    |b, s, _| basic::hidden_single(b, s),
    |b, s, _| basic::intersection(b, s, true),
    |b, s, _| basic::hidden_set(b, s, 2, true),
    |b, s, _| basic::naked_single(b, s),
    |b, s, _| basic::hidden_set(b, s, 3, true),
    |b, s, _| basic::intersection(b, s, false),
    |b, s, _| basic::naked_set(b, s, 2),
    |b, s, _| basic::fish(b, s, 2),
    |b, s, _| basic::hidden_set(b, s, 2, false),
    |b, s, _| basic::naked_set(b, s, 3),
    |b, s, _| basic::fish(b, s, 3),
    |b, s, _| basic::hidden_set(b, s, 3, false),
    |b, s, sh| links::strong_links(b, s, 2, sh.links(b)),
    |b, s, _| basic::xy_wing(b, s, false),
    |b, s, _| basic::xy_wing(b, s, true),
    |b, s, _| unique::unique_loops(b, s),
    |b, s, _| basic::naked_set(b, s, 4),
    |b, s, _| basic::fish(b, s, 4),
    |b, s, _| basic::hidden_set(b, s, 4, false),
    |b, s, sh| links::strong_links(b, s, 3, sh.links(b)),
    |b, s, _| wings::als_wing(b, s, 3),
    |b, s, _| unique::bug(b, s),
    |b, s, sh| links::strong_links(b, s, 4, sh.links(b)),
    |b, s, _| wings::als_wing(b, s, 4),
    |b, s, _| exclusion::aligned_exclusion(b, s, 2),
    |b, s, _| wings::als_wing(b, s, 5),
    chains::forcing_chains_cycles,
    |b, s, _| wings::als_wing(b, s, 6),
    |b, s, _| exclusion::aligned_exclusion(b, s, 3),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::Nishio, sh),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::Multiple, sh),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::Dynamic, sh),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::Plus, sh),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::NestedChains, sh),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::NestedMultiple, sh),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::NestedDynamic(0), sh),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::NestedDynamic(1), sh),
    |b, s, sh| multiple::forcing_chains(b, s, multiple::Kind::NestedDynamic(2), sh),
];

/// Rates a puzzle: solves it step by step with the easiest technique that
/// applies and returns the hardest rating met.
///
/// The puzzle should have exactly one solution (check it with a
/// [`Solver`](crate::solver::Solver) first): uniqueness techniques assume
/// it, and on other grids the rating means nothing.
pub fn rate(puzzle: &Grid) -> Rating {
    rate_observed(puzzle, &mut |_| {})
}

/// [`rate`], stopping once `deadline` has passed: before each step, before
/// each technique of a step, and within the forcing-chain searches (the
/// longest) once per cell, so that a rating ends within a few milliseconds
/// after it. A rating stopped so has [`Rating::timed_out`] set.
pub fn rate_until(puzzle: &Grid, deadline: Instant) -> Rating {
    rate_loop(puzzle, Some(deadline), &mut |_| true)
        .unwrap_or_else(|| unreachable!("only the deadline stops this rating"))
}

/// One step of the solve path, as [`rate_observed`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// The step's rating in tenths.
    pub tenths: u8,
    /// The technique's name.
    pub name: &'static str,
    /// The cell (0..81) and digit placed, if the step places one.
    pub placed: Option<(u8, u8)>,
    /// How many candidates the step removes.
    pub eliminated: u32,
}

/// [`rate`], telling `observe` about every step taken, in order (to show
/// or check a solve path).
pub fn rate_observed(puzzle: &Grid, observe: &mut dyn FnMut(StepInfo)) -> Rating {
    rate_loop(puzzle, None, &mut |info| {
        observe(info);
        true
    })
    .unwrap_or_else(|| unreachable!("the observer never stops the rater"))
}

/// [`rate`], but `None` as soon as a step rates above `max_tenths`: the
/// rating is the highest step's, so such a puzzle cannot rate `max_tenths`
/// or less, and the steps after it (often the costliest) are not searched.
/// Used to keep puzzles of a rating band (`generate --rating`).
pub fn rate_at_most(puzzle: &Grid, max_tenths: u16) -> Option<Rating> {
    rate_loop(puzzle, None, &mut |info| {
        u16::from(info.tenths) <= max_tenths
    })
}

/// The rater's loop: `go_on` sees every step taken, in order, and stops
/// the rating (`None`) by returning false; a `deadline` that passes ends it
/// with [`Rating::timed_out`] (see [`rate_until`]).
fn rate_loop(
    puzzle: &Grid,
    deadline: Option<Instant>,
    go_on: &mut dyn FnMut(StepInfo) -> bool,
) -> Option<Rating> {
    let mut b = Board::new(puzzle);
    let mut r = Rating {
        tenths: 0,
        hardest: "",
        steps: 0,
        complete: true,
        timed_out: false,
    };
    let mut step = Step::default();
    while !b.is_solved() {
        let mut shared = Shared {
            deadline,
            ..Shared::default()
        };
        if b.value.iter().zip(&b.cand).any(|(&v, &m)| v == 0 && m == 0) {
            r.complete = false;
            break;
        }
        step.clear();
        let found = TECHNIQUES
            .iter()
            .any(|f| !shared.out_of_time() && f(&b, &mut step, &mut shared));
        // A search the deadline cut short finds nothing: the step it would
        // have found is not known.
        if shared.out_of_time() {
            r.complete = false;
            r.timed_out = true;
            break;
        }
        if !found {
            r.complete = false;
            break;
        }
        if u16::from(step.tenths) > r.tenths {
            r.tenths = step.tenths.into();
            r.hardest = step.name;
        }
        r.steps += 1;
        let info = StepInfo {
            tenths: step.tenths,
            name: step.name,
            placed: step.place.map(|(c, d)| (c as u8, d as u8)),
            eliminated: step.elim_count(),
        };
        if !go_on(info) {
            return None;
        }
        step.apply(&mut b);
    }
    Some(r)
}
