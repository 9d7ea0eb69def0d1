//! The fast solver: a cheap singles engine first, then a strong
//! band-oriented engine with backtracking for the grids singles leave open.
//!
//! # Routing
//! 1. [`singles`]: one pass over the givens builds per-digit bitboards of
//!    the open cells and finds repeated givens; rounds of naked singles
//!    then fill the grid. Easy puzzles (every Kaggle one) end here.
//! 2. [`band`]: the grid singles left is set up as band bitmasks and
//!    searched. Its propagation makes every deduction singles make, so the
//!    guesses, statuses and solutions are those of the strong engine alone
//!    on the givens.
//!
//! At the AVX2 and AVX-512 levels a grid of fewer than 22 givens, which
//! singles would hand over untouched, skips their set-up: it is set up as
//! band vectors straight from its cells (`wide::from_givens`,
//! `wide_avx2::from_givens`), the same state without the bitboards
//! (17-clue puzzles at the AVX-512 level: 1.07 times as fast in all).
//!
//! # Instruction sets
//! The same code is compiled three times: for the baseline x86-64 (or any
//! other target) and, on x86-64, for AVX2 with BMI1/BMI2, LZCNT and POPCNT,
//! and for AVX-512 (F, BW, VL, DQ, CD) on top of those, chosen at run time
//! ([`Simd::detect`]). The release binary is built for the baseline; every
//! path gives the same statuses, solutions and guesses, which the tests check
//! on every path the machine has ([`Simd::available`]).
//!
//! The environment variable `SUDOKU_BATCH_SIMD` ([`SIMD_ENV`]) chooses a
//! level instead of the best one (`scalar`, `avx2` or `avx512`), for
//! measuring a path or working around one: [`Simd::chosen`] reads it once
//! per process and refuses an unknown name or a level this CPU lacks
//! ([`SimdError`]); [`FastSolver::new`] runs at its level.
//!
//! At the AVX-512 level the strong engine propagates grids handed over with
//! many open cells by whole bands, with explicit vector code (`wide`):
//! the same propagated states as the scalar rules' queue, reached about 1.6
//! times as fast on 17-clue puzzles and 1.2 to 1.3 times on the hardest sets.
//! The AVX2 level does the same in 256-bit vectors (`wide_avx2`, one per
//! digit): against its scalar queue about 1.6 times as fast on 17-clue
//! puzzles and 1.1 to 1.2 times on the hardest sets (CPU time, one core).

mod band;
mod singles;
#[cfg(target_arch = "x86_64")]
mod wide;
#[cfg(target_arch = "x86_64")]
mod wide_avx2;

use std::ffi::OsString;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use super::{Limits, Mode, Outcome, Search, Solver, Status};
use crate::grid::Grid;
use band::{Stacks, State, QUEUE};
#[cfg(target_arch = "x86_64")]
use band::{AVX2, AVX512};
use singles::{Ran, Singles};

/// An instruction-set level the fast solver can run at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simd {
    /// Portable code for the baseline of the target (SSE2 on x86-64).
    Scalar,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT.
    Avx2,
    /// x86-64 with AVX-512 F, BW, VL, DQ and CD, and everything of
    /// [`Simd::Avx2`].
    Avx512,
}

impl Simd {
    /// Every level, from the most portable.
    pub const ALL: [Simd; 3] = [Simd::Scalar, Simd::Avx2, Simd::Avx512];

    /// The level's name: `scalar`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Scalar => "scalar",
            Simd::Avx2 => "avx2",
            Simd::Avx512 => "avx512",
        }
    }

    /// True when this CPU can run the level.
    pub fn is_available(self) -> bool {
        match self {
            Simd::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("bmi1")
                    && is_x86_feature_detected!("bmi2")
                    && is_x86_feature_detected!("lzcnt")
                    && is_x86_feature_detected!("popcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => {
                Simd::Avx2.is_available()
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512vl")
                    && is_x86_feature_detected!("avx512dq")
                    && is_x86_feature_detected!("avx512cd")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Simd::Avx2 | Simd::Avx512 => false,
        }
    }

    /// The levels this CPU can run, from the most portable.
    pub fn available() -> Vec<Simd> {
        Simd::ALL.into_iter().filter(|s| s.is_available()).collect()
    }

    /// The best level this CPU can run.
    pub fn detect() -> Simd {
        Simd::available().pop().unwrap_or(Simd::Scalar)
    }

    /// The level [`SIMD_ENV`] asks for, read once per process: `None` when
    /// the variable is unset or empty.
    ///
    /// # Errors
    /// [`SimdError::Unknown`] for a value that is not a level's name,
    /// [`SimdError::Unavailable`] for a level this CPU lacks (refused
    /// rather than run at another level, so a measurement never reports a
    /// level it did not use).
    pub fn forced() -> Result<Option<Simd>, SimdError> {
        static FORCED: OnceLock<Result<Option<Simd>, SimdError>> = OnceLock::new();
        FORCED
            .get_or_init(|| Simd::force(std::env::var_os(SIMD_ENV), Simd::is_available))
            .clone()
    }

    /// The level the fast solver runs at in this process: [`SIMD_ENV`]'s
    /// when set ([`Simd::forced`]), else the best this CPU has
    /// ([`Simd::detect`]).
    ///
    /// # Errors
    /// As [`Simd::forced`]. Front ends call this at start to refuse a bad
    /// value before any work (the command line does).
    pub fn chosen() -> Result<Simd, SimdError> {
        Ok(Simd::forced()?.unwrap_or_else(Simd::detect))
    }

    /// The level asked for by `value`, a value of [`SIMD_ENV`], on a CPU
    /// that has the levels `has` accepts.
    pub(super) fn force(
        value: Option<OsString>,
        has: impl Fn(Simd) -> bool,
    ) -> Result<Option<Simd>, SimdError> {
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            return Ok(None);
        };
        let level: Simd = value.to_string_lossy().parse()?;
        if has(level) {
            Ok(Some(level))
        } else {
            Err(SimdError::Unavailable {
                level,
                available: Simd::ALL
                    .into_iter()
                    .filter(|&s| has(s))
                    .map(Simd::name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }
}

/// The environment variable that chooses the fast solver's level:
/// `scalar`, `avx2` or `avx512` ([`Simd::chosen`]).
pub const SIMD_ENV: &str = "SUDOKU_BATCH_SIMD";

/// Why [`SIMD_ENV`]'s value cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimdError {
    /// The value is not a level's name.
    #[error("{SIMD_ENV}={value}: unknown level; the levels are scalar, avx2 and avx512")]
    Unknown {
        /// The value as given (bytes that are not UTF-8 shown as
        /// `\u{FFFD}`).
        value: String,
    },
    /// This CPU cannot run the level.
    #[error("{SIMD_ENV}={level}: this CPU lacks that level (it has {available})")]
    Unavailable {
        /// The level asked for.
        level: Simd,
        /// The levels this CPU has, comma-separated, from the most
        /// portable.
        available: String,
    },
}

impl FromStr for Simd {
    type Err = SimdError;

    /// A level from its [`Simd::name`] (exactly, lower case).
    fn from_str(name: &str) -> Result<Simd, SimdError> {
        Simd::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| SimdError::Unknown {
                value: name.to_string(),
            })
    }
}

impl fmt::Display for Simd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The fast solver (see the module documentation). One value per worker
/// thread: it keeps the search stack between puzzles.
#[derive(Clone, Debug)]
pub struct FastSolver {
    simd: Simd,
    stack: Stacks,
}

impl Default for FastSolver {
    fn default() -> Self {
        FastSolver::new()
    }
}

impl FastSolver {
    /// A fast solver at the level chosen for this process
    /// ([`Simd::chosen`]: `SUDOKU_BATCH_SIMD`'s, else the best this CPU
    /// has); at the best level when that variable's value cannot be used
    /// (front ends refuse such a value at start with [`Simd::chosen`]).
    pub fn new() -> FastSolver {
        FastSolver {
            simd: Simd::chosen().unwrap_or_else(|_| Simd::detect()),
            stack: Stacks::default(),
        }
    }

    /// A fast solver at `simd`, or `None` when this CPU lacks it.
    pub fn with_simd(simd: Simd) -> Option<FastSolver> {
        simd.is_available().then(|| FastSolver {
            simd,
            stack: Stacks::default(),
        })
    }

    /// The level this solver runs at.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// The fixed cost of one puzzle, apart from propagation and search (for
    /// benchmarks): the set-up every grid goes through first, one pass over
    /// the givens building the per-digit bitboards of the open cells and
    /// checking for repeated givens (at the AVX2 and AVX-512 levels, a grid
    /// of few givens is set up as band vectors instead: `wide::from_givens`,
    /// `wide_avx2::from_givens`).
    /// Returns the number of open cells, or `None` when a digit is
    /// repeated in a unit.
    pub fn set_up(&self, grid: &Grid) -> Option<usize> {
        match self.simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `classify`.
            Simd::Avx2 => match unsafe { set_up_few_avx2(grid) } {
                Some(few) => few,
                // SAFETY: as in `classify`.
                None => unsafe { set_up_avx2(grid) },
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `classify`.
            Simd::Avx512 => match unsafe { set_up_few_avx512(grid) } {
                Some(few) => few,
                // SAFETY: as in `classify`; the singles engine runs at the
                // AVX2 level there too.
                None => unsafe { set_up_avx2(grid) },
            },
            _ => Singles::new(grid).map(|s| s.open()),
        }
    }

    /// The fixed cost of one puzzle apart from the search (for
    /// benchmarks): set-up, the singles engine, and the strong engine's
    /// propagation before its first guess, as [`Solver::solve`] runs them
    /// at this level. Returns the open cells left (0 when propagation
    /// solved the grid), or `None` when a digit is repeated in a unit or
    /// propagation shows there is no solution.
    pub fn propagate_only(&self, grid: &Grid) -> Option<usize> {
        match self.simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `classify`.
            Simd::Avx2 => match unsafe { singles_avx2(grid) } {
                Singled::Stalled(state) => unsafe { root_strong_avx2(state) },
                Singled::Few => unsafe { root_few_avx2(grid) },
                singled => root(singled, grid),
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `classify`; the singles engine runs at the AVX2
            // level there too.
            Simd::Avx512 => match unsafe { singles_avx2(grid) } {
                Singled::Stalled(state) => unsafe { root_strong_avx512(state) },
                Singled::Few => unsafe { root_few_avx512(grid) },
                singled => root(singled, grid),
            },
            _ => root(singles::<false>(grid), grid),
        }
    }

    /// Runs [`classify`] at this solver's level.
    fn classify(&mut self, grid: &Grid, mode: Mode, limits: &Limits) -> Classified {
        match self.simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a solver is only built at a level the CPU has
            // (`new`, `with_simd`).
            Simd::Avx2 => match unsafe { singles_avx2(grid) } {
                Singled::Stalled(state) => unsafe {
                    strong_avx2(state, mode, limits, &mut self.stack)
                },
                Singled::Few => unsafe { few_avx2(grid, mode, limits, &mut self.stack) },
                singled => route(singled, grid, mode, limits, &mut self.stack),
            },
            // The singles engine runs at the AVX2 level, so that easy
            // puzzles never run AVX-512 code: compiled for AVX-512 it took
            // half as long again on Kaggle puzzles (its scalar bitboard
            // stores read back by wide vector loads are the likely cause).
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for AVX2; AVX-512 implies it.
            Simd::Avx512 => match unsafe { singles_avx2(grid) } {
                Singled::Stalled(state) => unsafe {
                    strong_avx512(state, mode, limits, &mut self.stack)
                },
                Singled::Few => unsafe { few_avx512(grid, mode, limits, &mut self.stack) },
                singled => route(singled, grid, mode, limits, &mut self.stack),
            },
            _ => classify(grid, mode, limits, &mut self.stack),
        }
    }
}

/// What [`classify`] found.
enum Classified {
    /// A digit is repeated in a unit.
    Repeated,
    /// Singles alone filled the grid: its only solution.
    Singles(Grid),
    /// Singles alone showed there is no solution.
    NoSolution,
    /// The strong engine's search.
    Searched(Search),
}

/// Singles first, then the strong engine when singles stall.
#[inline(always)]
fn classify(grid: &Grid, mode: Mode, limits: &Limits, stack: &mut Stacks) -> Classified {
    route(singles::<false>(grid), grid, mode, limits, stack)
}

/// How the singles engine left a grid.
enum Singled {
    /// A digit is repeated in a unit.
    Repeated,
    /// Singles filled the grid: its only solution.
    Solved(Grid),
    /// Singles showed there is no solution.
    NoSolution,
    /// Singles stalled: the strong engine's state for the grid as far as
    /// they filled it, set up from their bitboards (no round trip through a
    /// grid).
    Stalled(State),
    /// Fewer givens than [`singles::FEW_GIVENS`], which singles would hand
    /// over at once: left untouched for the AVX-512 level to set up
    /// ([`few_avx512`]). Only with `FEW`.
    Few,
}

/// The singles engine on a grid's givens; with `FEW`, a grid of few givens
/// is left as [`Singled::Few`].
#[inline(always)]
fn singles<const FEW: bool>(grid: &Grid) -> Singled {
    let filled = singles::filled(grid.cells());
    if FEW && singles::few_givens(filled) {
        return Singled::Few;
    }
    // Set up where it stays (see `Singles::unplaced`).
    let mut singles = Singles::unplaced(grid, filled);
    if !singles.place_givens() {
        return Singled::Repeated;
    }
    match singles.run() {
        Ran::Solved => Singled::Solved(singles.grid()),
        Ran::Contradiction => Singled::NoSolution,
        Ran::Stalled => {
            let (boards, filled) = singles.boards();
            Singled::Stalled(State::from_boards(&boards, filled))
        }
    }
}

/// What the singles engine's end on `grid` means, calling the strong
/// engine when it stalled.
#[inline(always)]
fn route(
    singled: Singled,
    grid: &Grid,
    mode: Mode,
    limits: &Limits,
    stack: &mut Stacks,
) -> Classified {
    match singled {
        Singled::Repeated => Classified::Repeated,
        Singled::Solved(grid) => Classified::Singles(grid),
        Singled::NoSolution => Classified::NoSolution,
        Singled::Stalled(state) => strong::<QUEUE>(state, mode, limits, stack),
        // Left for the AVX-512 level, which handles it before routing; any
        // other caller takes the singles engine's way.
        Singled::Few => classify(grid, mode, limits, stack),
    }
}

/// [`FastSolver::propagate_only`] after the singles engine's end on `grid`.
#[inline(always)]
fn root(singled: Singled, grid: &Grid) -> Option<usize> {
    match singled {
        Singled::Repeated | Singled::NoSolution => None,
        Singled::Solved(_) => Some(0),
        Singled::Stalled(state) => band::propagate_only::<QUEUE>(state),
        Singled::Few => root(singles::<false>(grid), grid),
    }
}

/// The strong engine's search from the state singles left stalled.
#[inline(always)]
fn strong<const WAY: u8>(
    state: State,
    mode: Mode,
    limits: &Limits,
    stack: &mut Stacks,
) -> Classified {
    let target = if mode == Mode::Unique { 2 } else { 1 };
    #[cfg(target_arch = "x86_64")]
    if WAY == AVX2 {
        let node = state.wide_avx2();
        return Classified::Searched(band::search::<WAY, _>(
            node,
            target,
            limits,
            &mut stack.avx2,
        ));
    }
    Classified::Searched(band::search::<WAY, _>(
        state,
        target,
        limits,
        &mut stack.masks,
    ))
}

/// The strong engine alone on the givens, without the singles engine: the
/// reference the routed solver must agree with, guesses included.
#[cfg(test)]
pub(crate) fn strong_engine_only(grid: &Grid, mode: Mode, limits: &Limits) -> Outcome {
    if let Some(conflict) = grid.first_conflict() {
        return Outcome::invalid(&conflict);
    }
    let target = if mode == Mode::Unique { 2 } else { 1 };
    let search = band::search::<QUEUE, _>(
        State::from_givens(grid),
        target,
        limits,
        &mut Default::default(),
    );
    Outcome::from_search(search, mode)
}

/// [`Singles::new`] compiled for AVX2, BMI1/2, LZCNT and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn set_up_avx2(grid: &Grid) -> Option<usize> {
    Singles::new(grid).map(|s| s.open())
}

/// [`singles`] compiled for AVX2, BMI1/2, LZCNT and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn singles_avx2(grid: &Grid) -> Singled {
    singles::<true>(grid)
}

/// Grids handed to the strong engine with at least this many open cells
/// are propagated by whole bands at the AVX2 and AVX-512 levels (see
/// `wide` and `wide_avx2`); with fewer, their rounds cost more than the
/// scalar queue's few updates.
#[cfg(target_arch = "x86_64")]
const WIDE_FROM: u32 = 50;

/// The wide set-up of a grid of few givens (`wide::from_givens` or
/// `wide_avx2::from_givens` as `WAY` says): the masks and open cells per
/// band, or `None` when a digit is repeated in a unit.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn from_givens<const WAY: u8>(grid: &Grid) -> Option<([u32; 27], [u32; 3])> {
    if WAY == AVX2 {
        wide_avx2::from_givens(grid.cells())
    } else {
        wide::from_givens(grid.cells())
    }
}

/// The set-up of a grid of few givens at a wide level ([`few`]): `Some` of
/// [`FastSolver::set_up`]'s answer for such a grid, `None` for other
/// grids.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn set_up_few<const WAY: u8>(grid: &Grid) -> Option<Option<usize>> {
    if !singles::few_givens(singles::filled(grid.cells())) {
        return None;
    }
    Some(
        from_givens::<WAY>(grid)
            .map(|(_, open)| open.iter().map(|o| o.count_ones() as usize).sum()),
    )
}

/// [`strong`] at a wide level: by whole bands from [`WIDE_FROM`] open
/// cells on, else with the scalar queue.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn strong_wide<const WAY: u8>(
    state: State,
    mode: Mode,
    limits: &Limits,
    stack: &mut Stacks,
) -> Classified {
    if state.open() >= WIDE_FROM {
        strong::<WAY>(state, mode, limits, stack)
    } else {
        strong::<QUEUE>(state, mode, limits, stack)
    }
}

/// [`strong_wide`]'s propagation before its first guess.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn root_strong<const WAY: u8>(state: State) -> Option<usize> {
    if state.open() >= WIDE_FROM {
        band::propagate_only::<WAY>(state)
    } else {
        band::propagate_only::<QUEUE>(state)
    }
}

/// [`few`]'s set-up and propagation before its first guess.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn root_few<const WAY: u8>(grid: &Grid) -> Option<usize> {
    let (cand, open) = from_givens::<WAY>(grid)?;
    band::propagate_only::<WAY>(State::for_wide(cand, open))
}

/// Grids of fewer than [`singles::FEW_GIVENS`] givens ([`Singled::Few`]),
/// which the singles engine would hand over at once, at a wide level: set
/// up straight from the cells ([`from_givens`], the same state as the
/// hand-over) and searched with the wide propagation.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn few<const WAY: u8>(grid: &Grid, mode: Mode, limits: &Limits, stack: &mut Stacks) -> Classified {
    // So few givens leave more open cells than `WIDE_FROM`: these grids
    // always take the wide propagation, which sets `fixed` itself.
    const _: () = assert!(81 - (singles::FEW_GIVENS - 1) >= WIDE_FROM);
    match from_givens::<WAY>(grid) {
        None => Classified::Repeated,
        Some((cand, open)) => strong::<WAY>(State::for_wide(cand, open), mode, limits, stack),
    }
}

/// Defines the wide level's entry points, each an inline function above
/// compiled for the level's features.
macro_rules! wide_level {
    ($way:ident, $features:literal, $set_up_few:ident, $strong:ident, $root_strong:ident,
     $root_few:ident, $few:ident) => {
        /// [`set_up_few`] compiled for this level.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $set_up_few(grid: &Grid) -> Option<Option<usize>> {
            set_up_few::<$way>(grid)
        }

        /// [`strong_wide`] compiled for this level.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $strong(state: State, mode: Mode, limits: &Limits, stack: &mut Stacks) -> Classified {
            strong_wide::<$way>(state, mode, limits, stack)
        }

        /// [`root_strong`] compiled for this level.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $root_strong(state: State) -> Option<usize> {
            root_strong::<$way>(state)
        }

        /// [`root_few`] compiled for this level.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $root_few(grid: &Grid) -> Option<usize> {
            root_few::<$way>(grid)
        }

        /// [`few`] compiled for this level.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $few(grid: &Grid, mode: Mode, limits: &Limits, stack: &mut Stacks) -> Classified {
            few::<$way>(grid, mode, limits, stack)
        }
    };
}

wide_level!(
    AVX2,
    "avx2,bmi1,bmi2,lzcnt,popcnt",
    set_up_few_avx2,
    strong_avx2,
    root_strong_avx2,
    root_few_avx2,
    few_avx2
);
wide_level!(
    AVX512,
    "avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx2,bmi1,bmi2,lzcnt,popcnt",
    set_up_few_avx512,
    strong_avx512,
    root_strong_avx512,
    root_few_avx512,
    few_avx512
);

impl Solver for FastSolver {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn search(&mut self, grid: &Grid, mode: Mode, limits: &Limits) -> Search {
        let mut search = Search {
            solutions: 0,
            first: None,
            second: None,
            guesses: 0,
            stopped: None,
        };
        match self.classify(grid, mode, limits) {
            Classified::Repeated | Classified::NoSolution => {}
            Classified::Singles(solution) => {
                search.solutions = 1;
                search.first = Some(solution);
            }
            Classified::Searched(found) => search = found,
        }
        search
    }

    fn solve(&mut self, grid: &Grid, mode: Mode, limits: &Limits) -> Outcome {
        match self.classify(grid, mode, limits) {
            Classified::Repeated => match grid.first_conflict() {
                Some(conflict) => Outcome::invalid(&conflict),
                // The masks and the unit scan agree on every grid; should
                // they not, searching is the safe side.
                None => Outcome::from_search(self.search(grid, mode, limits), mode),
            },
            Classified::Singles(solution) => Outcome {
                status: Status::Solved,
                solution: Some(solution),
                guesses: 0,
                message: None,
            },
            Classified::NoSolution => Outcome {
                status: Status::Unsolvable,
                solution: None,
                guesses: 0,
                message: None,
            },
            Classified::Searched(search) => Outcome::from_search(search, mode),
        }
    }
}
