//! The benchmark loop, after tdoku's `run_benchmark`.
//!
//! 1. **Warm-up** (`--warmup-s`): puzzles in random order until the time is
//!    up, on every worker, to warm caches and branch predictors and to
//!    estimate the speed.
//! 2. **Timing** (`--time-s`, repeated `--runs` times, the warm-up done
//!    once before them): when the estimate says a full pass over the
//!    data set takes at most twice the timed run, full passes (in file
//!    order, or shuffled with `--seed`) until the time is reached, the
//!    clock read between passes, so that every puzzle counts equally.
//!    Otherwise (a slow solver, or no warm-up to estimate from), puzzles in
//!    random order until the time is reached, the clock read before each
//!    puzzle, so that a slow solver cannot stall the benchmark.
//!
//! Work is spread over a rayon pool of `threads` workers, each with its own
//! solver built once per measurement: workers take the next few puzzles
//! from a shared counter, so the load stays even. Throughput is puzzles
//! searched (whatever the status) over wall-clock time, all workers
//! together.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use sudoku_core::grid::Grid;
use sudoku_core::sizes::{ReferenceSolver, SizedGrid, SizedSearcher, SizedSolver, Symbols};
use sudoku_core::solver::{Limits, Mode, Solver, SolverKind, Status};

use super::spread::Spread;
use crate::error::Error;

/// The seed of the random order used for warm-up and sampling when
/// `--seed` is not given, so that runs are repeatable.
pub const DEFAULT_SEED: u64 = 0;

/// Puzzles a worker takes at a time during full passes.
const PASS_CHUNK: usize = 16;

/// How long to warm up and to time, and how to order the puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Warm-up per measurement; zero skips it (and then the timed run
    /// samples, having no speed estimate).
    pub warmup: Duration,
    /// The timed run per measurement.
    pub time: Duration,
    /// Shuffle full passes with this seed; also the sampling seed.
    pub seed: Option<u64>,
    /// Timed runs per measurement (at least 1), each of `time`.
    pub runs: usize,
}

/// The orders in which a data set's puzzles are visited, as indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orders {
    /// Full passes: file order, or shuffled with `--seed`.
    pub pass: Vec<u32>,
    /// Warm-up and sampling: always shuffled (`--seed`, else
    /// [`DEFAULT_SEED`]).
    pub sample: Vec<u32>,
}

impl Orders {
    /// The orders for a data set of `n` puzzles.
    ///
    /// # Panics
    /// If `n` does not fit in a `u32` (4 billion puzzles).
    pub fn new(n: usize, seed: Option<u64>) -> Orders {
        let n = u32::try_from(n).expect("data sets hold fewer than 2^32 puzzles");
        let identity: Vec<u32> = (0..n).collect();
        let sample = shuffled(identity.clone(), seed.unwrap_or(DEFAULT_SEED));
        let pass = match seed {
            Some(_) => sample.clone(),
            None => identity,
        };
        Orders { pass, sample }
    }
}

/// `items` in a random order drawn from `seed` (Fisher-Yates over
/// SplitMix64): the same seed gives the same order on every machine.
pub fn shuffled<T>(mut items: Vec<T>, seed: u64) -> Vec<T> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..items.len()).rev() {
        // Multiply-shift maps 64 random bits onto 0..=i without division.
        let j = ((u128::from(next()) * (i as u128 + 1)) >> 64) as usize;
        items.swap(i, j);
    }
    items
}

/// Totals over the puzzles searched in one span of work, whatever the
/// status (`invalid`, `unsolvable`, `multiple` and `timeout` ones too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Puzzles searched (a puzzle searched twice counts twice).
    pub puzzles: u64,
    /// Guesses, summed.
    pub guesses: u64,
    /// Puzzles searched without a guess.
    pub no_guess: u64,
    /// Puzzles not stopped by a limit (every status but `timeout`).
    pub finished: u64,
}

impl Totals {
    fn add(&mut self, (status, guesses): (Status, u64)) {
        self.puzzles += 1;
        self.guesses += guesses;
        self.no_guess += u64::from(guesses == 0);
        self.finished += u64::from(status != Status::Timeout);
    }

    fn merge(&mut self, other: &Totals) {
        self.puzzles += other.puzzles;
        self.guesses += other.guesses;
        self.no_guess += other.no_guess;
        self.finished += other.finished;
    }
}

/// One measurement: a solver, a mode and a thread count on one data set.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The solver.
    pub solver: SolverKind,
    /// The mode.
    pub mode: Mode,
    /// Worker threads.
    pub threads: usize,
    /// The timed runs' totals, summed.
    pub totals: Totals,
    /// The timed runs' wall-clock time, summed.
    pub elapsed: Duration,
    /// Full passes made in all runs, or `None` when the timed runs sampled
    /// puzzles in random order instead.
    pub passes: Option<u64>,
    /// Puzzles per second of each timed run, all workers together, in run
    /// order.
    pub rates: Vec<f64>,
}

impl Measurement {
    /// The spread of the runs' puzzles per second; its median is the
    /// measurement's figure.
    pub fn spread(&self) -> Spread {
        Spread::of(&self.rates)
    }
}

/// A data set's puzzles of one size, as the solvers take them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzles {
    /// 9x9 grids with 3x3 boxes, for the 9x9 engines, in whatever
    /// alphabet they were written (numbered from 0 too, as `solve` solves
    /// them).
    Nine(Vec<Grid>),
    /// Grids of one other size (or 9x9 grids with other boxes, `--box
    /// 1x9`), for the solvers of every size ([`SizedSolver`] for `fast`,
    /// [`ReferenceSolver`] for `naive`).
    Sized(Vec<SizedGrid>),
}

impl Puzzles {
    /// How many.
    pub fn len(&self) -> usize {
        match self {
            Puzzles::Nine(grids) => grids.len(),
            Puzzles::Sized(grids) => grids.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The size, as the `size` column writes it: `9x9`, `16x16`.
    pub fn size(&self) -> String {
        let side = match self {
            Puzzles::Sized(grids) => grids.first().map_or(9, SizedGrid::side),
            Puzzles::Nine(_) => 9,
        };
        format!("{side}x{side}")
    }
}

/// One worker's solver, for the size of the puzzles it solves.
enum Engine {
    /// A 9x9 engine.
    Nine(Box<dyn Solver>),
    /// The fast solver of every size.
    Sized(SizedSolver),
    /// The naive reference solver of every size.
    Reference(ReferenceSolver),
}

impl Engine {
    fn new(solver: SolverKind, puzzles: &Puzzles) -> Engine {
        match (puzzles, solver) {
            (Puzzles::Nine(_), _) => Engine::Nine(solver.build()),
            (Puzzles::Sized(_), SolverKind::Naive) => Engine::Reference(ReferenceSolver::new()),
            (Puzzles::Sized(_), _) => Engine::Sized(SizedSolver::new()),
        }
    }

    /// Solves the puzzles of `puzzles` that `visit` hands out by index,
    /// calling `each` with every status and guess count; the loop is
    /// chosen once, so the 9x9 engines run as they did alone.
    fn run(
        &mut self,
        puzzles: &Puzzles,
        mode: Mode,
        limits: &Limits,
        visit: impl FnOnce(&mut dyn FnMut(usize) -> (Status, u64)),
    ) {
        // Values are named in messages only, which the benchmark drops.
        let symbols = Symbols::Numbers;
        match (self, puzzles) {
            (Engine::Nine(solver), Puzzles::Nine(grids)) => visit(&mut |i| {
                let outcome = solver.solve(&grids[i], mode, limits);
                (outcome.status, outcome.guesses)
            }),
            (Engine::Sized(solver), Puzzles::Sized(grids)) => visit(&mut |i| {
                let outcome = solver.solve(&grids[i], &symbols, mode, limits);
                (outcome.status, outcome.guesses)
            }),
            (Engine::Reference(solver), Puzzles::Sized(grids)) => visit(&mut |i| {
                let outcome = solver.solve(&grids[i], &symbols, mode, limits);
                (outcome.status, outcome.guesses)
            }),
            _ => unreachable!("an engine is built for its puzzles' size"),
        }
    }
}

/// The workers of one measurement: a pool and one solver per worker.
struct Workers {
    pool: rayon::ThreadPool,
    solvers: Vec<Mutex<Engine>>,
    mode: Mode,
    limits: Limits,
}

impl Workers {
    fn new(
        solver: SolverKind,
        puzzles: &Puzzles,
        mode: Mode,
        threads: usize,
    ) -> Result<Workers, Error> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("bench-{i}"))
            .build()
            .map_err(|e| Error::Threads {
                what: format!("{threads} benchmark threads"),
                cause: e.to_string(),
            })?;
        Ok(Workers {
            pool,
            solvers: (0..threads)
                .map(|_| Mutex::new(Engine::new(solver, puzzles)))
                .collect(),
            mode,
            limits: Limits::default(),
        })
    }

    /// Solves `order`'s puzzles once, spread over the workers `chunk` at a
    /// time; with a deadline, each worker stops taking puzzles once it has
    /// passed (after solving at least one chunk, so that every span counts
    /// some work).
    fn span(
        &self,
        puzzles: &Puzzles,
        order: &[u32],
        chunk: usize,
        deadline: Option<Instant>,
    ) -> Totals {
        let next = AtomicUsize::new(0);
        let per_worker = self.pool.broadcast(|ctx| {
            let mut solver = self.solvers[ctx.index()]
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let mut totals = Totals::default();
            solver.run(puzzles, self.mode, &self.limits, |solve| loop {
                if totals.puzzles > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                let start = next.fetch_add(chunk, Ordering::Relaxed);
                if start >= order.len() {
                    break;
                }
                for &i in &order[start..order.len().min(start + chunk)] {
                    totals.add(solve(i as usize));
                }
            });
            totals
        });
        let mut totals = Totals::default();
        for worker in &per_worker {
            totals.merge(worker);
        }
        totals
    }
}

/// Measures `solver` in `mode` with `threads` workers on `puzzles` (not
/// empty), visited in `orders`: warm-up, then the timed run (see the module
/// docs).
///
/// # Errors
/// [`Error::Threads`] when the pool cannot start.
pub fn measure(
    puzzles: &Puzzles,
    orders: &Orders,
    solver: SolverKind,
    mode: Mode,
    threads: usize,
    plan: &Plan,
) -> Result<Measurement, Error> {
    let workers = Workers::new(solver, puzzles, mode, threads)?;
    let rate = if plan.warmup.is_zero() {
        None
    } else {
        Some(until(&workers, puzzles, &orders.sample, plan.warmup).0)
    };
    let full_passes =
        rate.is_some_and(|r| puzzles.len() as f64 <= r * 2.0 * plan.time.as_secs_f64());

    let mut m = Measurement {
        solver,
        mode,
        threads,
        totals: Totals::default(),
        elapsed: Duration::ZERO,
        passes: full_passes.then_some(0),
        rates: Vec::with_capacity(plan.runs),
    };
    for _ in 0..plan.runs.max(1) {
        let (totals, elapsed) = if full_passes {
            let start = Instant::now();
            let mut totals = Totals::default();
            loop {
                totals.merge(&workers.span(puzzles, &orders.pass, PASS_CHUNK, None));
                m.passes = m.passes.map(|p| p + 1);
                if start.elapsed() >= plan.time {
                    break;
                }
            }
            (totals, start.elapsed())
        } else {
            let (_, sampled, elapsed) = until(&workers, puzzles, &orders.sample, plan.time);
            (sampled, elapsed)
        };
        m.rates
            .push(totals.puzzles as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE));
        m.totals.merge(&totals);
        m.elapsed += elapsed;
    }
    Ok(m)
}

/// The solve times of one built-in solver on one data set, for the HTML
/// page's distribution chart.
#[derive(Clone, Debug)]
pub struct SolveTimes {
    /// The data set's name.
    pub dataset: String,
    /// The solver's name.
    pub solver: String,
    /// Solve time per puzzle, nanoseconds.
    pub histogram: Histogram<u64>,
}

/// Times each puzzle alone, on this thread: one pass in `order`, or as
/// many puzzles as fit in `budget` (one at least). Apart from the timed
/// runs, because reading the clock around every puzzle would slow them.
pub fn solve_times(
    puzzles: &Puzzles,
    order: &[u32],
    solver: SolverKind,
    mode: Mode,
    budget: Duration,
) -> Histogram<u64> {
    let mut histogram =
        Histogram::new(3).expect("3 significant figures is a valid histogram precision");
    let mut solver = Engine::new(solver, puzzles);
    let limits = Limits::default();
    let start = Instant::now();
    solver.run(puzzles, mode, &limits, |solve| {
        for &i in order {
            let t = Instant::now();
            solve(i as usize);
            let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
            // `record` grows the histogram to fit; `saturating_record`
            // would clamp to its first, small range instead.
            if histogram.record(ns.max(1)).is_err() {
                histogram.saturating_record(ns.max(1));
            }
            if start.elapsed() >= budget {
                break;
            }
        }
    });
    histogram
}

/// Solves puzzles in `order`, cycling, one at a time per worker, until
/// `time` has passed; returns the speed (puzzles/s), the totals and the
/// wall-clock time.
fn until(
    workers: &Workers,
    puzzles: &Puzzles,
    order: &[u32],
    time: Duration,
) -> (f64, Totals, Duration) {
    let start = Instant::now();
    let deadline = start + time;
    let mut totals = Totals::default();
    loop {
        totals.merge(&workers.span(puzzles, order, 1, Some(deadline)));
        if Instant::now() >= deadline {
            break;
        }
    }
    let elapsed = start.elapsed();
    let rate = totals.puzzles as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE);
    (rate, totals, elapsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";

    #[test]
    fn shuffles_are_permutations_and_repeatable() {
        let a = shuffled((0..1000).collect::<Vec<u32>>(), 7);
        let b = shuffled((0..1000).collect::<Vec<u32>>(), 7);
        let c = shuffled((0..1000).collect::<Vec<u32>>(), 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, (0..1000).collect::<Vec<u32>>());
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<u32>>());
        assert!(shuffled(Vec::<u8>::new(), 1).is_empty());
    }

    #[test]
    fn orders_follow_the_seed() {
        let plain = Orders::new(50, None);
        assert_eq!(plain.pass, (0..50).collect::<Vec<u32>>());
        assert_eq!(plain.sample, shuffled((0..50).collect(), DEFAULT_SEED));
        let seeded = Orders::new(50, Some(3));
        assert_eq!(seeded.pass, seeded.sample);
        assert_eq!(seeded.pass, shuffled((0..50).collect(), 3));
    }

    fn plan(warmup_ms: u64, time_ms: u64) -> Plan {
        Plan {
            warmup: Duration::from_millis(warmup_ms),
            time: Duration::from_millis(time_ms),
            seed: None,
            runs: 1,
        }
    }

    #[test]
    fn full_passes_count_every_puzzle_equally() {
        let puzzles = Puzzles::Nine(vec![Grid::parse(PUZZLE).unwrap(); 10]);
        let orders = Orders::new(puzzles.len(), None);
        for threads in [1, 2] {
            // Full passes need a warm-up estimate of at least 50 puzzles/s
            // (10 puzzles in twice the 100 ms): a warm-up long enough that a
            // busy machine (other tests, other builds) still gives one.
            let m = measure(
                &puzzles,
                &orders,
                SolverKind::Fast,
                Mode::Unique,
                threads,
                &plan(50, 100),
            )
            .unwrap();
            let passes = m.passes.expect("a fast solver makes full passes");
            assert!(passes >= 1);
            assert_eq!(m.totals.puzzles, passes * 10);
            assert_eq!(m.totals.finished, m.totals.puzzles);
            assert!(m.elapsed >= Duration::from_millis(100));
            assert!(m.spread().median > 0.0);
            assert_eq!(m.rates.len(), 1);
        }
    }

    #[test]
    fn totals_count_every_puzzle_searched_invalid_ones_too() {
        let mut bad = PUZZLE.to_vec();
        bad[0] = b'1'; // a second 1 in the first row: invalid
        let puzzles = Puzzles::Nine(vec![
            Grid::parse(PUZZLE).unwrap(),
            Grid::parse(&bad).unwrap(),
        ]);
        let orders = Orders::new(puzzles.len(), None);
        let m = measure(
            &puzzles,
            &orders,
            SolverKind::Fast,
            Mode::Unique,
            1,
            &plan(50, 100),
        )
        .unwrap();
        let passes = m.passes.expect("full passes");
        assert_eq!(m.totals.puzzles, passes * 2, "the invalid puzzle counts");
        assert!(
            m.totals.no_guess >= passes,
            "an invalid puzzle needs no guess"
        );
        assert_eq!(m.totals.finished, m.totals.puzzles);
    }

    #[test]
    fn runs_are_repeated_after_one_warm_up() {
        let puzzles = Puzzles::Nine(vec![Grid::parse(PUZZLE).unwrap(); 10]);
        let orders = Orders::new(puzzles.len(), None);
        let m = measure(
            &puzzles,
            &orders,
            SolverKind::Fast,
            Mode::Unique,
            1,
            &Plan {
                runs: 3,
                ..plan(5, 10)
            },
        )
        .unwrap();
        assert_eq!(m.rates.len(), 3);
        assert!(m.rates.iter().all(|&r| r > 0.0));
        assert!(m.elapsed >= Duration::from_millis(30));
        let s = m.spread();
        assert!(s.min <= s.median && s.median <= s.max);
    }

    #[test]
    fn solve_times_count_each_puzzle_of_a_pass_once() {
        let puzzles = Puzzles::Nine(vec![Grid::parse(PUZZLE).unwrap(); 5]);
        let order: Vec<u32> = (0..5).collect();
        let h = solve_times(
            &puzzles,
            &order,
            SolverKind::Fast,
            Mode::Unique,
            Duration::from_secs(60),
        );
        assert_eq!(h.len(), 5);
        assert!(h.min() > 0);
        let mut big = Histogram::<u64>::new(3).unwrap();
        big.record(5_000_000).unwrap();
        assert!(
            big.max() >= 4_990_000,
            "an auto-resizing histogram keeps large values"
        );
        let one = solve_times(
            &puzzles,
            &order,
            SolverKind::Fast,
            Mode::Unique,
            Duration::ZERO,
        );
        assert_eq!(one.len(), 1, "one puzzle at least");
    }

    #[test]
    fn without_warm_up_the_run_samples_and_stops_on_time() {
        let puzzles = Puzzles::Nine(vec![Grid::parse(PUZZLE).unwrap(); 3]);
        let orders = Orders::new(puzzles.len(), None);
        let m = measure(
            &puzzles,
            &orders,
            SolverKind::Fast,
            Mode::First,
            2,
            &plan(0, 10),
        )
        .unwrap();
        assert_eq!(m.passes, None);
        assert!(m.totals.puzzles >= 2, "every worker solves one at least");
        assert!(m.elapsed >= Duration::from_millis(10));
    }
}
