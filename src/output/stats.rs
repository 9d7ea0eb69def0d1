//! Run statistics: a [`Tally`] of results (counts, solve times in the
//! buckets of an hdrhistogram, guesses), built per chunk on the solver
//! threads and merged in input order, and the [`Summary`] it becomes, written as JSON
//! (`--summary-json`) and as a human report on stderr.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;
use sudoku_core::solver::{Mode, SolverKind, Status};

use crate::output::result::{Check, PuzzleResult, RowFields};
use crate::output::unfit_texts::UnfitTexts;

mod times;

use times::{TimeBuckets, TimeCounts};

/// Running totals over results. Tallies of disjoint sets of results merge
/// into the tally of their union.
#[derive(Clone, Debug)]
pub struct Tally {
    /// Records that got a row, malformed ones included.
    pub puzzles: u64,
    /// Rows per status, indexed like [`Status::ALL`].
    pub statuses: [u64; 6],
    /// Solved rows whose check is `mismatch`.
    pub mismatches: u64,
    /// Sum of solve times, nanoseconds.
    pub solve_ns: u64,
    /// Longest solve time, nanoseconds.
    pub max_solve_ns: u64,
    /// Sum of guesses.
    pub guesses: u64,
    /// Searched puzzles that needed no guess.
    pub no_guess: u64,
    /// Searched rows whose solve time and guesses are not known (rows of
    /// `rate`, which writes neither, kept by `--resume`): their times and
    /// guesses are not in the sums, which the summary then leaves `null`.
    pub untimed: u64,
    /// The sides of the records read as grids: bit n for n x n (malformed
    /// records have none), to tell whether `--box` and `--symbols` fit any.
    pub sides: u128,
    /// Solve times of searched puzzles, nanoseconds.
    times: TimeCounts,
    /// The rated rows' ratings (`rate`, `solve --rate`).
    pub ratings: RatingTally,
    /// Kept values that some results format cannot hold as they are.
    pub unfit_texts: UnfitTexts,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally::new()
    }
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally {
            puzzles: 0,
            statuses: [0; 6],
            mismatches: 0,
            solve_ns: 0,
            max_solve_ns: 0,
            guesses: 0,
            no_guess: 0,
            untimed: 0,
            sides: 0,
            times: TimeCounts::default(),
            ratings: RatingTally::default(),
            unfit_texts: UnfitTexts::default(),
        }
    }

    /// The tally of `results`.
    pub fn of(results: &[PuzzleResult]) -> Tally {
        let mut tally = Tally::new();
        for result in results {
            tally.add(result);
        }
        tally
    }

    /// Empties the tally, keeping the solve times' storage (a tally reused
    /// chunk after chunk allocates once).
    pub fn clear(&mut self) {
        self.puzzles = 0;
        self.statuses = [0; 6];
        self.mismatches = 0;
        self.solve_ns = 0;
        self.max_solve_ns = 0;
        self.guesses = 0;
        self.no_guess = 0;
        self.untimed = 0;
        self.sides = 0;
        self.times.clear();
        self.ratings = RatingTally::default();
        self.unfit_texts = UnfitTexts::default();
    }

    /// Counts one result.
    pub fn add(&mut self, result: &PuzzleResult) {
        self.mark(Mark::of(result));
        if let Some(r) = &result.rating {
            self.ratings.add(r.tenths, r.hardest.clone());
        }
        self.unfit_texts
            .add(result.input, result.line, &result.kept);
    }

    /// Counts one result, from what the tally reads of it (its rating
    /// aside: see [`Tally::ratings`]).
    pub fn mark(&mut self, mark: Mark) {
        if let Some(ns) = self.count_mark(mark) {
            self.times.record(ns);
        }
    }

    /// Counts one result but for its solve time; returns its
    /// solve time when it was searched.
    #[inline]
    fn count_mark(&mut self, mark: Mark) -> Option<u64> {
        self.puzzles += 1;
        self.statuses[mark.status.index()] += 1;
        if mark.mismatch {
            self.mismatches += 1;
        }
        if mark.side > 0 {
            self.sides |= 1u128 << mark.side;
        }
        if mark.status == Status::Malformed {
            return None;
        }
        if !mark.timed {
            self.untimed += 1;
            return None;
        }
        let ns = mark.solve_ns;
        self.solve_ns += ns;
        self.max_solve_ns = self.max_solve_ns.max(ns);
        let guesses = mark.guesses;
        self.guesses += guesses;
        if guesses == 0 {
            self.no_guess += 1;
        }
        Some(ns)
    }

    /// Adds every count of a run's `marks` to this tally.
    pub fn add_marks(&mut self, marks: &Marks) {
        self.merge(&marks.counts);
        self.times.add_buckets(&marks.times);
    }

    /// Adds every count of `other` to this tally.
    pub fn merge(&mut self, other: &Tally) {
        self.puzzles += other.puzzles;
        for (mine, theirs) in self.statuses.iter_mut().zip(other.statuses) {
            *mine += theirs;
        }
        self.mismatches += other.mismatches;
        self.solve_ns += other.solve_ns;
        self.max_solve_ns = self.max_solve_ns.max(other.max_solve_ns);
        self.guesses += other.guesses;
        self.no_guess += other.no_guess;
        self.untimed += other.untimed;
        self.sides |= other.sides;
        self.times.add(&other.times);
        self.ratings.merge(&other.ratings);
        self.unfit_texts.merge(&other.unfit_texts);
    }

    /// Rows with `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.statuses[status.index()]
    }

    /// Searched puzzles: every status but `malformed`.
    pub fn searched(&self) -> u64 {
        self.puzzles - self.count(Status::Malformed)
    }

    /// True when every row is `solved` and nothing mismatched (also when
    /// there are no rows).
    pub fn all_solved(&self) -> bool {
        self.count(Status::Solved) == self.puzzles && self.mismatches == 0
    }

    /// The solve times of the searched puzzles, nanoseconds, to 3
    /// significant figures (for `--summary-html`'s distribution): made from
    /// the tally's counts on each call.
    pub fn solve_times(&self) -> Histogram<u64> {
        self.times.histogram()
    }

    /// The solve times at the quantiles `qs` (each 0..=1), nanoseconds, to
    /// 3 significant figures and never above the maximum; 0 when nothing
    /// was searched. One histogram is made for all of them.
    pub fn solve_ns_at<const N: usize>(&self, qs: [f64; N]) -> [u64; N] {
        if self.times.is_empty() {
            return [0; N];
        }
        let histogram = self.times.histogram();
        qs.map(|q| histogram.value_at_quantile(q).min(self.max_solve_ns))
    }
}

/// Rated rows counted by rating band and by hardest technique: the
/// summary's `ratings` ([`Ratings`]). Tallies of disjoint rows merge into
/// the tally of their union.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RatingTally {
    /// Rated rows per whole point of the scale: `bands[k]` counts the
    /// ratings from k.0 to k.9.
    bands: Vec<u64>,
    /// Rated rows per hardest technique (a grid with no blank, rated 0.0,
    /// has none and is not counted here).
    hardest: BTreeMap<Cow<'static, str>, u64>,
}

/// The bands the summary always lists, zero or not: SE's grades from 1.0
/// (hidden singles) to 11.9 (the nested forcing chains of the hardest
/// lists). A rating outside them (0.0 for a grid with no blank, 12.0 and
/// up) adds its own band.
pub const LISTED_BANDS: std::ops::Range<usize> = 1..12;

impl RatingTally {
    /// Counts one rating (`tenths` of the SE scale, its hardest technique).
    pub fn add(&mut self, tenths: u16, hardest: Cow<'static, str>) {
        let band = usize::from(tenths / 10);
        if self.bands.len() <= band {
            self.bands.resize(band + 1, 0);
        }
        self.bands[band] += 1;
        if !hardest.is_empty() {
            *self.hardest.entry(hardest).or_default() += 1;
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &RatingTally) {
        if self.bands.len() < other.bands.len() {
            self.bands.resize(other.bands.len(), 0);
        }
        for (mine, theirs) in self.bands.iter_mut().zip(&other.bands) {
            *mine += theirs;
        }
        for (name, count) in &other.hardest {
            *self.hardest.entry(name.clone()).or_default() += count;
        }
    }

    /// Rated rows.
    pub fn rated(&self) -> u64 {
        self.bands.iter().sum()
    }

    /// The summary's `ratings`: every band of [`LISTED_BANDS`] and any
    /// other band with a rating, in order; the hardest techniques from the
    /// most common.
    pub fn ratings(&self) -> Ratings {
        let top = self.bands.len().max(LISTED_BANDS.end);
        let bands = (0..top)
            .filter_map(|k| {
                let count = self.bands.get(k).copied().unwrap_or(0);
                (LISTED_BANDS.contains(&k) || count > 0).then(|| (format!("{k}.0-{k}.9"), count))
            })
            .collect();
        let mut hardest: Vec<(String, u64)> = self
            .hardest
            .iter()
            .map(|(name, &count)| (name.to_string(), count))
            .collect();
        hardest.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ratings {
            bands: Counts(bands),
            hardest: Counts(hardest),
        }
    }
}

/// The summary's rating distribution: rated rows per band of the SE scale
/// (`"2.0-2.9": 31`) and per hardest technique, written as JSON objects of
/// integer counts. The bands add up to the rows with a rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ratings {
    /// Rated rows per band, in the scale's order (see
    /// [`RatingTally::ratings`]).
    pub bands: Counts,
    /// Rated rows per hardest technique, the most common first.
    pub hardest: Counts,
}

/// Counts by name, written as a JSON object in this order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts(pub Vec<(String, u64)>);

impl Serialize for Counts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, count)| (name, count)))
    }
}

impl Ratings {
    /// Rated rows: the sum of the bands.
    pub fn rated(&self) -> u64 {
        self.bands.0.iter().map(|(_, n)| n).sum()
    }
}

impl fmt::Display for Ratings {
    /// Two lines of the human report: the bands that hold ratings and the
    /// five most common hardest techniques.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let held: Vec<String> = self
            .bands
            .0
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(band, n)| format!("{band} {n}"))
            .collect();
        writeln!(
            f,
            "  ratings: {} rated{}{}",
            self.rated(),
            if held.is_empty() { "" } else { "; by band: " },
            held.join(", ")
        )?;
        if self.hardest.0.is_empty() {
            return Ok(());
        }
        const SHOWN: usize = 5;
        let mut common: Vec<String> = self
            .hardest
            .0
            .iter()
            .take(SHOWN)
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        let others = self.hardest.0.len().saturating_sub(SHOWN);
        if others > 0 {
            common.push(format!(
                "{} more",
                crate::process::words::count(others as u64, "technique", "techniques")
            ));
        }
        writeln!(f, "  hardest technique: {}", common.join(", "))
    }
}

/// What a [`Tally`] reads of one result: a few words where the result
/// holds two grids and strings, so that a run can count its rows without
/// keeping them. A rated run counts its ratings apart, in a
/// [`RatingTally`] (most runs have none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The result's status.
    pub status: Status,
    /// Its check is `mismatch`.
    pub mismatch: bool,
    /// Its solve time, nanoseconds (0 when malformed).
    pub solve_ns: u64,
    /// Its guesses (0 when malformed).
    pub guesses: u64,
    /// Its grid's side (9 for 9x9); 0 when malformed.
    pub side: u8,
    /// Its solve time and guesses are known (false for a row that records
    /// neither: `rate`'s, read back).
    pub timed: bool,
}

impl Mark {
    /// The mark of `result`.
    pub fn of(result: &PuzzleResult) -> Mark {
        match &result.sized {
            Some(sized) => Mark {
                side: sized.puzzle.side() as u8,
                ..Mark::of_fields(&RowFields::of(result))
            },
            None => Mark::of_fields(&RowFields::of(result)),
        }
    }

    /// The mark of a row of a 9x9 grid (or a malformed record) with
    /// `fields`.
    pub fn of_fields(fields: &RowFields<'_>) -> Mark {
        Mark {
            status: fields.status,
            mismatch: fields.check == Some(Check::Mismatch),
            solve_ns: fields.solve_ns.unwrap_or(0),
            guesses: fields.guesses.unwrap_or(0),
            side: if fields.puzzle.is_some() { 9 } else { 0 },
            timed: fields.solve_ns.is_some(),
        }
    }
}

/// A run's rows counted as a worker makes them: every count of a
/// [`Tally`], but the solve times kept as each searched row's bucket (two
/// bytes), so that a chunk's tally takes in a run's counts whole and an
/// increment a time ([`Tally::add_marks`]). Keeping each row's [`Mark`]
/// and counting it into the chunk's tally when the chunk was done cost 74
/// instructions a row there.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The counts and ratings; its solve times stay empty.
    counts: Tally,
    /// The searched rows' solve times.
    times: TimeBuckets,
}

impl Marks {
    /// Counts one row, from what the tally reads of it.
    #[inline]
    pub fn mark(&mut self, mark: Mark) {
        if let Some(ns) = self.counts.count_mark(mark) {
            self.times.record(ns);
        }
    }

    /// Counts one result, its rating too.
    pub fn add(&mut self, result: &PuzzleResult) {
        self.mark(Mark::of(result));
        if let Some(r) = &result.rating {
            self.counts.ratings.add(r.tenths, r.hardest.clone());
        }
        self.counts
            .unfit_texts
            .add(result.input, result.line, &result.kept);
    }

    /// Rows counted.
    pub fn rows(&self) -> u64 {
        self.counts.puzzles
    }

    /// Forgets every row, keeping the storage.
    pub fn clear(&mut self) {
        self.counts.clear();
        self.times.clear();
    }
}

/// Solve time statistics over the searched puzzles, in microseconds; each
/// `None` (`null`) when no puzzle was searched: a figure not measured is
/// not 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveTimes {
    /// Exact mean: `solve_cpu_s` x 1e6 / searched puzzles.
    pub mean: Option<f64>,
    /// Median (from the histogram, 3 significant figures).
    pub p50: Option<f64>,
    /// 90th percentile.
    pub p90: Option<f64>,
    /// 99th percentile.
    pub p99: Option<f64>,
    /// Exact maximum.
    pub max: Option<f64>,
}

/// Guess statistics over the searched puzzles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Guesses {
    /// Sum of guesses.
    pub total: u64,
    /// Guesses per searched puzzle; `None` when none was searched.
    pub mean: Option<f64>,
    /// Share of searched puzzles solved without a guess, percent; `None`
    /// when none was searched.
    pub no_guess_pct: Option<f64>,
}

/// What the summaries say for the per-puzzle figures of a run that
/// searched no puzzle (every record malformed, or none): they are `null`
/// in the JSON.
pub const NONE_SEARCHED: &str = "no puzzle was searched";

/// The options a run's rows depend on beside the solver and the mode, as
/// its summary records them (key `options`), so that `merge` and
/// `--resume` can tell the parts of one run from those of another.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RunOptions {
    /// `--shard K/N` as `K/N`; `null` for a whole run.
    pub shard: Option<String>,
    /// `--limit`.
    pub limit: Option<u64>,
    /// `--max-guesses`.
    pub max_guesses: Option<u64>,
    /// `--timeout-ms`.
    pub timeout_ms: Option<u64>,
    /// The blank of the results' `puzzle` column (`--blank`): `.` or `0`.
    pub blank: String,
    /// `--box RxC`; `null` for the usual boxes.
    #[serde(default, rename = "box")]
    pub boxes: Option<String>,
    /// `--symbols` (`1-9A-Z`, `0-9A-Z`, `A-Z`, `numbers` or the symbols);
    /// `null` when each record's alphabet was found from what it holds.
    #[serde(default)]
    pub symbols: Option<String>,
}

/// What a run was, beside its results.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Input names, in order (`-` for stdin).
    pub inputs: Vec<String>,
    /// Wall-clock time of the whole run.
    pub wall: Duration,
    /// Solver threads.
    pub threads: usize,
    /// The solver.
    pub solver: SolverKind,
    /// The search mode.
    pub mode: Mode,
    /// True when a signal stopped the run early.
    pub interrupted: bool,
    /// The options its rows depend on.
    pub options: RunOptions,
    /// True for a rated run (`rate`, `solve --rate`): its summary has a
    /// rating distribution.
    pub rated: bool,
}

#[cfg(test)]
impl RunInfo {
    /// A run of two threads over `a.txt` for 0.5 s, for tests.
    pub(crate) fn example() -> RunInfo {
        RunInfo {
            inputs: vec!["a.txt".into()],
            wall: Duration::from_millis(500),
            threads: 2,
            solver: SolverKind::Fast,
            mode: Mode::Unique,
            interrupted: false,
            options: RunOptions::default(),
            rated: false,
        }
    }
}

/// The summary of a run: plain data, written as JSON with exactly these
/// keys, all always present. Means and percentiles are over the searched
/// puzzles (every status but `malformed`); they are `null` when there are
/// none.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The sudoku-batch version.
    pub version: String,
    /// Input names, in order (`-` for stdin).
    pub inputs: Vec<String>,
    /// Records that got a row, malformed ones included.
    pub puzzles: u64,
    /// Rows `solved`.
    pub solved: u64,
    /// Rows `multiple`.
    pub multiple: u64,
    /// Rows `unsolvable`.
    pub unsolvable: u64,
    /// Rows `invalid`.
    pub invalid: u64,
    /// Rows `malformed`.
    pub malformed: u64,
    /// Rows `timeout`.
    pub timeout: u64,
    /// Solved rows whose check is `mismatch`.
    pub mismatches: u64,
    /// Wall-clock time of the run, seconds.
    pub wall_s: f64,
    /// `puzzles / wall_s`.
    pub puzzles_per_s: f64,
    /// Sum of the solve times, seconds; `None` (`null`) when some rows'
    /// times are not known ([`Tally::untimed`]), as for the two below.
    pub solve_cpu_s: Option<f64>,
    /// Per-puzzle solve times, microseconds.
    pub solve_us: Option<SolveTimes>,
    /// Guesses.
    pub guesses: Option<Guesses>,
    /// Solver threads.
    pub threads: usize,
    /// The solver (`fast`, `naive`).
    pub solver: SolverKind,
    /// The mode (`unique`, `first`).
    pub mode: Mode,
    /// True when a signal stopped the run early.
    pub interrupted: bool,
    /// The options the rows depend on.
    pub options: RunOptions,
    /// The rating distribution of a rated run (`rate`, `solve --rate`):
    /// rated rows per band and per hardest technique; `null` for a run
    /// without ratings.
    pub ratings: Option<Ratings>,
    /// Why the run failed (exit 2: a read or write error, a full disk);
    /// `null` for a run that ended as it should, or by a signal. The
    /// figures then cover the rows written before the failure.
    pub error: Option<String>,
    /// For a shard's run (`--shard`), the records of the whole inputs it
    /// read (within `--limit`), its own and the other shards': `check`
    /// tells a shard that holds none of the records from inputs that hold
    /// none. Not in the JSON; `None` for a whole run.
    #[serde(skip)]
    pub shard_of: Option<u64>,
}

/// Why a summary has no solve times or guesses ([`Tally::untimed`]).
pub const UNTIMED: &str = "not known: the rows kept by --resume record neither (rate writes no \
                           guesses or solve_us column)";

impl Summary {
    /// The summary of `tally` over the run `info`.
    pub fn new(tally: &Tally, info: RunInfo) -> Summary {
        let wall_s = info.wall.as_secs_f64();
        let searched = tally.searched();
        let per_searched = |x: f64| (searched > 0).then(|| x / searched as f64);
        let us = |ns: u64| (searched > 0).then(|| ns as f64 / 1e3);
        let solve_cpu_s = tally.solve_ns as f64 / 1e9;
        let [p50, p90, p99] = tally.solve_ns_at([0.5, 0.9, 0.99]);
        let timed = tally.untimed == 0;
        Summary {
            version: env!("CARGO_PKG_VERSION").to_string(),
            inputs: info.inputs,
            puzzles: tally.puzzles,
            solved: tally.count(Status::Solved),
            multiple: tally.count(Status::Multiple),
            unsolvable: tally.count(Status::Unsolvable),
            invalid: tally.count(Status::Invalid),
            malformed: tally.count(Status::Malformed),
            timeout: tally.count(Status::Timeout),
            mismatches: tally.mismatches,
            wall_s,
            puzzles_per_s: if wall_s > 0.0 {
                tally.puzzles as f64 / wall_s
            } else {
                0.0
            },
            solve_cpu_s: timed.then_some(solve_cpu_s),
            solve_us: timed.then(|| SolveTimes {
                mean: per_searched(solve_cpu_s * 1e6),
                p50: us(p50),
                p90: us(p90),
                p99: us(p99),
                max: us(tally.max_solve_ns),
            }),
            guesses: timed.then(|| Guesses {
                total: tally.guesses,
                mean: per_searched(tally.guesses as f64),
                no_guess_pct: per_searched(tally.no_guess as f64 * 100.0),
            }),
            threads: info.threads,
            solver: info.solver,
            mode: info.mode,
            interrupted: info.interrupted,
            options: info.options,
            ratings: info.rated.then(|| tally.ratings.ratings()),
            error: None,
            shard_of: None,
        }
    }

    /// The summary as pretty-printed JSON, with a final newline.
    pub fn to_json(&self) -> String {
        let mut json =
            serde_json::to_string_pretty(self).expect("a summary is plain data that serializes");
        json.push('\n');
        json
    }
}

impl fmt::Display for Summary {
    /// The human report printed on stderr, a few lines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} in {:.3} s: {:.0} puzzles/s ({} solver, {} mode, {} thread{}){}",
            crate::process::words::count(self.puzzles, "puzzle", "puzzles"),
            self.wall_s,
            self.puzzles_per_s,
            self.solver,
            self.mode,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            if self.interrupted {
                ", interrupted"
            } else {
                ""
            },
        )?;
        writeln!(
            f,
            "  solved {}, multiple {}, unsolvable {}, invalid {}, malformed {}, timeout {}; \
             mismatches {}",
            self.solved,
            self.multiple,
            self.unsolvable,
            self.invalid,
            self.malformed,
            self.timeout,
            self.mismatches
        )?;
        match (&self.solve_us, self.solve_cpu_s, &self.guesses) {
            (Some(t), Some(cpu_s), Some(g)) => {
                match (t.mean, t.p50, t.p90, t.p99, t.max) {
                    (Some(mean), Some(p50), Some(p90), Some(p99), Some(max)) => writeln!(
                        f,
                        "  solve time: mean {mean:.1} us, p50 {p50:.1}, p90 {p90:.1}, p99 \
                         {p99:.1}, max {max:.1} us; {cpu_s:.3} s of solver time"
                    )?,
                    _ => writeln!(
                        f,
                        "  solve time: {NONE_SEARCHED}; {cpu_s:.3} s of solver time"
                    )?,
                }
                match (g.mean, g.no_guess_pct) {
                    (Some(mean), Some(none)) => writeln!(
                        f,
                        "  guesses: {} in all, {mean:.2} per puzzle, {none:.1}% of puzzles \
                         needed none",
                        g.total
                    )?,
                    _ => writeln!(f, "  guesses: {} in all; {NONE_SEARCHED}", g.total)?,
                }
            }
            _ => writeln!(f, "  solve time, guesses: {UNTIMED}")?,
        }
        match &self.ratings {
            Some(ratings) => write!(f, "{ratings}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: Status, ns: u64, guesses: u64) -> PuzzleResult {
        let searched = status != Status::Malformed;
        PuzzleResult {
            input: 0,
            line: 1,
            puzzle: None,
            status,
            solution: None,
            guesses: searched.then_some(guesses),
            solve_ns: searched.then_some(ns),
            check: None,
            message: None,
            expected: None,
            kept: Vec::new(),
            sized: None,
            rating: None,
        }
    }

    #[test]
    fn chunk_tallies_merge_into_the_tally_of_all_rows() {
        let rows: Vec<PuzzleResult> = (0..500u64)
            .map(|i| match i % 7 {
                0 => row(Status::Malformed, 0, 0),
                1 => row(Status::Multiple, 90_000 + i, 3),
                _ => row(Status::Solved, 150 + i * i, i % 3),
            })
            .collect();
        let whole = Tally::of(&rows);
        let mut merged = Tally::new();
        let mut chunk = Tally::new();
        let mut by_runs = Tally::new();
        let mut run = Marks::default();
        for part in rows.chunks(64) {
            chunk.clear();
            for result in part {
                chunk.mark(Mark::of(result));
            }
            merged.merge(&chunk);
            for runs in part.chunks(32) {
                run.clear();
                for result in runs {
                    run.add(result);
                }
                assert_eq!(run.rows(), runs.len() as u64);
                by_runs.add_marks(&run);
            }
        }
        let qs = [0.0, 0.5, 0.9, 0.99, 1.0];
        for merged in [&merged, &by_runs] {
            assert_eq!(merged.puzzles, 500);
            assert_eq!(merged.statuses, whole.statuses);
            assert_eq!(merged.solve_ns, whole.solve_ns);
            assert_eq!(merged.max_solve_ns, whole.max_solve_ns);
            assert_eq!(merged.guesses, whole.guesses);
            assert_eq!(merged.no_guess, whole.no_guess);
            assert_eq!(merged.sides, whole.sides);
            assert_eq!(merged.solve_times(), whole.solve_times());
            assert_eq!(merged.solve_ns_at(qs), whole.solve_ns_at(qs));
        }
    }

    fn info() -> RunInfo {
        RunInfo::example()
    }

    #[test]
    fn merged_tallies_equal_one_tally() {
        let rows: Vec<_> = (0..100)
            .map(|i| row(Status::ALL[i % 6], i as u64 * 1000, i as u64 % 3))
            .collect();
        let mut merged = Tally::of(&rows[..30]);
        merged.merge(&Tally::of(&rows[30..]));
        let whole = Tally::of(&rows);
        assert_eq!(Summary::new(&merged, info()), Summary::new(&whole, info()));
    }

    #[test]
    fn means_and_percentiles_skip_malformed_rows() {
        let rows = [
            row(Status::Solved, 1_000, 0),
            row(Status::Solved, 3_000, 4),
            row(Status::Malformed, 0, 0),
        ];
        let s = Summary::new(&Tally::of(&rows), info());
        assert_eq!((s.puzzles, s.solved, s.malformed), (3, 2, 1));
        let (t, guesses) = (s.solve_us.unwrap(), s.guesses.unwrap());
        assert_eq!(t.mean, Some(2.0));
        assert_eq!(t.max, Some(3.0));
        assert_eq!((t.p50, t.p99), (Some(1.0), Some(3.0)));
        assert_eq!(s.solve_cpu_s, Some(4e-6));
        assert_eq!(s.puzzles_per_s, 6.0);
        assert_eq!((guesses.total, guesses.mean), (4, Some(2.0)));
        assert_eq!(guesses.no_guess_pct, Some(50.0));
    }

    #[test]
    fn rows_without_times_leave_the_times_and_guesses_unknown() {
        // `rate`'s rows kept by --resume carry no solve time or guesses.
        let mut kept = row(Status::Solved, 0, 0);
        (kept.solve_ns, kept.guesses) = (None, None);
        let mut tally = Tally::of(&[row(Status::Solved, 1_000, 2), kept]);
        assert_eq!((tally.puzzles, tally.untimed), (2, 1));
        let s = Summary::new(&tally, info());
        assert!(s.solve_us.is_none() && s.solve_cpu_s.is_none() && s.guesses.is_none());
        let json: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
        assert!(json["solve_us"].is_null() && json["guesses"].is_null());
        assert!(s.to_string().contains("solve time, guesses: not known"));
        tally.merge(&Tally::of(&[row(Status::Solved, 1_000, 2)]));
        assert_eq!(tally.untimed, 1);
    }

    /// A figure not measured is `null`, never 0 (a trial found 0.0 us and
    /// 0.0 % for a run of malformed records only).
    #[test]
    fn a_run_that_searched_nothing_has_nulls_not_zeros() {
        let malformed = Tally::of(&[row(Status::Malformed, 0, 0)]);
        for tally in [Tally::new(), malformed] {
            let s = Summary::new(&tally, info());
            let (t, guesses) = (s.solve_us.clone().unwrap(), s.guesses.clone().unwrap());
            assert_eq!((t.mean, t.p99), (None, None));
            assert_eq!((guesses.total, guesses.mean), (0, None));
            assert_eq!(guesses.no_guess_pct, None);
            let json: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
            assert!(json["solve_us"]["max"].is_null(), "{json}");
            assert!(json["guesses"]["no_guess_pct"].is_null(), "{json}");
            assert_eq!(json["guesses"]["total"], 0);
            let text = s.to_string();
            assert!(
                text.contains("  solve time: no puzzle was searched; 0.000 s of solver time"),
                "{text}"
            );
            assert!(
                text.contains("  guesses: 0 in all; no puzzle was searched"),
                "{text}"
            );
        }
        assert!(Tally::new().all_solved());
    }

    #[test]
    fn json_has_exactly_the_documented_keys() {
        let json: serde_json::Value =
            serde_json::from_str(&Summary::new(&Tally::new(), info()).to_json()).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut expected = vec![
            "version",
            "inputs",
            "puzzles",
            "solved",
            "multiple",
            "unsolvable",
            "invalid",
            "malformed",
            "timeout",
            "mismatches",
            "wall_s",
            "puzzles_per_s",
            "solve_cpu_s",
            "solve_us",
            "guesses",
            "threads",
            "solver",
            "mode",
            "interrupted",
            "options",
            "ratings",
            "error",
        ];
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        expected.sort_unstable();
        assert_eq!(sorted, expected);
        assert_eq!(json["solver"], "fast");
        assert_eq!(json["mode"], "unique");
        assert_eq!(json["solve_us"].as_object().unwrap().len(), 5);
        assert_eq!(json["guesses"].as_object().unwrap().len(), 3);
    }

    #[test]
    fn ratings_are_counted_by_band_and_hardest_technique() {
        let rated = |tenths: u16, hardest: &'static str| {
            let mut r = row(Status::Solved, 1, 0);
            r.rating = Some(crate::output::rating::RowRating {
                tenths,
                hardest: Cow::Borrowed(hardest),
                steps: 3,
            });
            r
        };
        let rows = [
            rated(12, "Hidden Single"),
            rated(15, "Hidden Single"),
            rated(72, "Forcing Chain"),
            rated(0, ""),
            rated(125, "Nested Forcing Chains"),
            row(Status::Multiple, 1, 0),
        ];
        let mut merged = Tally::of(&rows[..2]);
        merged.merge(&Tally::of(&rows[2..]));
        assert_eq!(merged.ratings, Tally::of(&rows).ratings);
        let json = |rated| {
            let info = RunInfo { rated, ..info() };
            let json = Summary::new(&merged, info).to_json();
            serde_json::from_str::<serde_json::Value>(&json).unwrap()["ratings"].clone()
        };
        assert_eq!(json(false), serde_json::Value::Null);
        let ratings = json(true);
        let bands = ratings["bands"].as_object().unwrap();
        // Written in the scale's order: 0.0-0.9, 1.0-1.9, ..., 11.0-11.9, 12.0-12.9.
        let text = Summary::new(
            &merged,
            RunInfo {
                rated: true,
                ..info()
            },
        )
        .to_json();
        let at = |band: &str| text.find(&format!("\"{band}\"")).unwrap();
        let order = [
            "0.0-0.9",
            "1.0-1.9",
            "2.0-2.9",
            "9.0-9.9",
            "10.0-10.9",
            "11.0-11.9",
            "12.0-12.9",
        ];
        assert!(order.windows(2).all(|w| at(w[0]) < at(w[1])), "{text}");
        assert_eq!(bands.len(), 13);
        assert!(text.find("\"Hidden Single\"") < text.find("\"Forcing Chain\""));
        assert_eq!(bands["1.0-1.9"], 2);
        assert_eq!(bands["7.0-7.9"], 1);
        assert_eq!(bands["3.0-3.9"], 0);
        let sum: u64 = bands.values().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!(sum, 5);
        let hardest = ratings["hardest"].as_object().unwrap();
        assert_eq!(hardest["Hidden Single"], 2);
        assert_eq!(hardest.len(), 3);
        let report = Summary::new(
            &merged,
            RunInfo {
                rated: true,
                ..info()
            },
        )
        .to_string();
        assert!(
            report.contains(
                "ratings: 5 rated; by band: 0.0-0.9 1, 1.0-1.9 2, 7.0-7.9 1, 12.0-12.9 1"
            ),
            "{report}"
        );
        assert!(
            report.contains(
                "hardest technique: Hidden Single 2, Forcing Chain 1, Nested Forcing Chains 1"
            ),
            "{report}"
        );
    }

    #[test]
    fn mismatches_make_a_run_fail() {
        let mut r = row(Status::Solved, 1, 0);
        r.check = Some(Check::Mismatch);
        let t = Tally::of(&[r]);
        assert_eq!(t.mismatches, 1);
        assert!(!t.all_solved());
    }
}
