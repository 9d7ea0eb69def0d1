//! The summary of merged results: the keys of a run's `--summary-json`
//! ([`crate::output::stats::Summary`]), computed from the merged rows, with the
//! facts only a run knows (`wall_s`, `puzzles_per_s`, `threads`, `solver`,
//! `mode`) taken from the shards' own summaries when every one is given,
//! else `null`.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;
use sudoku_core::solver::{Mode, SolverKind};

use crate::output::stats::{Guesses, Ratings, RunInfo, RunOptions, SolveTimes, Summary, Tally};

/// Every searched row's solve time, nanoseconds, counted by value: the
/// percentiles of the merged rows, exactly.
#[derive(Clone, Debug, Default)]
pub struct Times {
    counts: BTreeMap<u64, u64>,
    total: u64,
}

impl Times {
    /// Counts one solve time.
    pub fn add(&mut self, ns: u64) {
        *self.counts.entry(ns).or_default() += 1;
        self.total += 1;
    }

    /// The nearest-rank percentile: the smallest time that at least `q`
    /// (0..=1) of the times do not exceed; 0 when there are none.
    pub fn at(&self, q: f64) -> u64 {
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total.max(1));
        let mut seen = 0;
        for (&ns, &count) in &self.counts {
            seen += count;
            if seen >= rank {
                return ns;
            }
        }
        0
    }
}

/// What the shards' summaries tell that rows do not.
#[derive(Clone, Debug, PartialEq)]
pub struct RunFacts {
    /// The longest shard's wall-clock time: the merged run's when the
    /// shards ran side by side.
    pub wall_s: f64,
    /// Solver threads of all shards together.
    pub threads: usize,
    /// The one solver every shard ran.
    pub solver: String,
    /// The one mode every shard ran.
    pub mode: String,
    /// True when a signal stopped any shard.
    pub interrupted: bool,
    /// The options every shard ran with (`shard` null), when their
    /// summaries record them.
    pub options: Option<RunOptions>,
}

/// One shard's `--summary-json`, as far as a merge uses it.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardSummary {
    /// Input names, in order.
    pub inputs: Vec<String>,
    /// Records that got a row.
    pub puzzles: u64,
    /// Rows per status, in the order of [`sudoku_core::solver::Status::ALL`].
    pub statuses: [u64; 6],
    /// Wall-clock time, seconds.
    pub wall_s: f64,
    /// Solver threads.
    pub threads: usize,
    /// The solver's name.
    pub solver: String,
    /// The mode's name.
    pub mode: String,
    /// True when a signal stopped the run.
    pub interrupted: bool,
    /// The options the run recorded (`None` in a summary from before they
    /// were recorded).
    pub options: Option<RunOptions>,
    /// Why the run failed, if it did.
    pub error: Option<String>,
    /// True when the run timed its puzzles (its `solve_us` is not `null`).
    pub timed: bool,
    /// True when the run rated its puzzles (its `ratings` is not `null`).
    pub rated: bool,
}

impl ShardSummary {
    /// Reads a run's `--summary-json` text.
    ///
    /// # Errors
    /// A message naming the JSON error or the missing key.
    pub fn parse(text: &str) -> Result<ShardSummary, String> {
        let json: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not a JSON summary: {e}"))?;
        let get = |key: &str| {
            json.get(key)
                .filter(|v| !v.is_null())
                .ok_or_else(|| format!("not a run's --summary-json: no `{key}`"))
        };
        let number = |key: &str| {
            get(key)?
                .as_u64()
                .ok_or_else(|| format!("`{key}` is not a count"))
        };
        let text = |key: &str| {
            get(key)?
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("`{key}` is not text"))
        };
        let mut statuses = [0; 6];
        for (count, status) in statuses.iter_mut().zip(sudoku_core::solver::Status::ALL) {
            *count = number(status.name())?;
        }
        Ok(ShardSummary {
            inputs: get("inputs")?
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .ok_or("`inputs` is not a list")?,
            puzzles: number("puzzles")?,
            statuses,
            wall_s: get("wall_s")?.as_f64().ok_or("`wall_s` is not a number")?,
            threads: usize::try_from(number("threads")?).map_err(|e| e.to_string())?,
            solver: text("solver")?,
            mode: text("mode")?,
            interrupted: get("interrupted")?.as_bool().unwrap_or(false),
            options: json
                .get("options")
                .filter(|v| !v.is_null())
                .map(|v| serde_json::from_value(v.clone()))
                .transpose()
                .map_err(|e| format!("`options`: {e}"))?,
            error: json
                .get("error")
                .and_then(|v| v.as_str())
                .map(str::to_string),
            timed: json.get("solve_us").is_some_and(|v| !v.is_null()),
            rated: json.get("ratings").is_some_and(|v| !v.is_null()),
        })
    }
}

/// The facts of the run the shards made together, from every shard's
/// summary; `tally` is the merged rows', to make sure the summaries are
/// those of these rows.
///
/// # Errors
/// A message when the summaries do not count the merged rows (one missing,
/// or given twice) or ran different solvers or modes.
pub fn run_facts(summaries: &[ShardSummary], tally: &Tally) -> Result<RunFacts, String> {
    if let Some(failed) = summaries.iter().find_map(|s| s.error.as_deref()) {
        return Err(format!(
            "a shard's run failed ({failed}): its rows are not a whole shard; run it again"
        ));
    }
    let first = summaries.first();
    if let Some(other) = summaries
        .iter()
        .find(|s| Some(&s.inputs) != first.map(|f| &f.inputs))
    {
        return Err(format!(
            "the shards read different inputs ({} and {}): they are not of one run",
            first.map(|f| f.inputs.join(" ")).unwrap_or_default(),
            other.inputs.join(" ")
        ));
    }
    let options = one_run_options(summaries)?;
    let puzzles: u64 = summaries.iter().map(|s| s.puzzles).sum();
    let mut statuses = [0u64; 6];
    for s in summaries {
        for (sum, n) in statuses.iter_mut().zip(s.statuses) {
            *sum += n;
        }
    }
    let merged: Vec<u64> = sudoku_core::solver::Status::ALL
        .iter()
        .map(|&s| tally.count(s))
        .collect();
    if puzzles != tally.puzzles || statuses[..] != merged[..] {
        return Err(format!(
            "the {} {} {} (per status {statuses:?}), the merged rows {} ({merged:?}): give \
             every shard's summary, once",
            crate::process::words::count(summaries.len() as u64, "summary", "summaries"),
            crate::process::words::noun(summaries.len() as u64, "counts", "count"),
            crate::process::words::count(puzzles, "puzzle", "puzzles"),
            tally.puzzles
        ));
    }
    let one = |what: &str, value: fn(&ShardSummary) -> &str| {
        let first = summaries.first().map(value).unwrap_or_default();
        match summaries.iter().map(value).find(|v| *v != first) {
            None => Ok(first.to_string()),
            Some(other) => Err(format!(
                "the shards ran different {what}s ({first} and {other}): their guess counts \
                 do not add up to one run's"
            )),
        }
    };
    Ok(RunFacts {
        wall_s: summaries.iter().map(|s| s.wall_s).fold(0.0, f64::max),
        threads: summaries.iter().map(|s| s.threads).sum(),
        solver: one("solver", |s| &s.solver)?,
        mode: one("mode", |s| &s.mode)?,
        interrupted: summaries.iter().any(|s| s.interrupted),
        options,
    })
}

/// The options every shard ran with, from their summaries (`None` when a
/// summary does not record them): the same but for `shard`, whose K must
/// differ and N agree, with every K of N given.
///
/// # Errors
/// What differs.
fn one_run_options(summaries: &[ShardSummary]) -> Result<Option<RunOptions>, String> {
    let Some(all) = summaries
        .iter()
        .map(|s| s.options.clone())
        .collect::<Option<Vec<RunOptions>>>()
    else {
        return Ok(None);
    };
    let Some(first) = all.first() else {
        return Ok(None);
    };
    let unsharded = |o: &RunOptions| RunOptions {
        shard: None,
        ..o.clone()
    };
    if let Some(other) = all.iter().find(|o| unsharded(o) != unsharded(first)) {
        let shards = match (&first.shard, &other.shard) {
            (Some(a), Some(b)) => format!(", in shards {a} and {b}"),
            _ => String::new(),
        };
        return Err(format!(
            "the shards ran with different options ({}{shards}): their rows are not of one run",
            differences(first, other).join(", ")
        ));
    }
    let shards: Vec<Option<(u64, u64)>> = all
        .iter()
        .map(|o| {
            o.shard.as_deref().and_then(|text| {
                let (k, n) = text.split_once('/')?;
                Some((k.parse().ok()?, n.parse().ok()?))
            })
        })
        .collect();
    if shards.iter().any(Option::is_some) {
        let Some(parts) = shards.iter().copied().collect::<Option<Vec<(u64, u64)>>>() else {
            return Err(
                "some summaries are of shards and some of whole runs: they are not of one run"
                    .into(),
            );
        };
        let n = parts[0].1;
        if let Some((_, other)) = parts.iter().find(|(_, m)| *m != n) {
            return Err(format!(
                "the shards split the run {n} ways and {other} ways: they are not of one run"
            ));
        }
        let mut ks: Vec<u64> = parts.iter().map(|(k, _)| *k).collect();
        ks.sort_unstable();
        if let Some(w) = ks.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!(
                "shard {}/{n} is given twice: give every shard's summary, once",
                w[0]
            ));
        }
        if ks.len() as u64 != n {
            let missing: Vec<String> = (1..=n)
                .filter(|k| !ks.contains(k))
                .map(|k| format!("{k}/{n}"))
                .collect();
            return Err(format!(
                "the summaries are of {} of {} (missing {}): give every shard's summary, once",
                ks.len(),
                crate::process::words::count(n, "shard", "shards"),
                missing.join(", ")
            ));
        }
    }
    Ok(Some(unsharded(first)))
}

/// Each option but `shard` that differs between `a` and `b`, as the command
/// line names it, with both values: `--box none and 3x2`.
fn differences(a: &RunOptions, b: &RunOptions) -> Vec<String> {
    // Every field named, so that an option added later is compared here too.
    let RunOptions {
        shard: _,
        limit,
        max_guesses,
        timeout_ms,
        blank,
        boxes,
        symbols,
    } = a;
    let count = |v: &Option<u64>| v.map_or_else(|| "none".to_string(), |n| n.to_string());
    let text = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".to_string());
    [
        ("--limit", count(limit), count(&b.limit)),
        ("--max-guesses", count(max_guesses), count(&b.max_guesses)),
        ("--timeout-ms", count(timeout_ms), count(&b.timeout_ms)),
        ("--blank", blank.clone(), b.blank.clone()),
        ("--box", text(boxes), text(&b.boxes)),
        ("--symbols", text(symbols), text(&b.symbols)),
    ]
    .into_iter()
    .filter(|(_, x, y)| x != y)
    .map(|(flag, x, y)| format!("{flag} {x} and {y}"))
    .collect()
}

/// The summary of merged rows: the keys of a run's summary, written the
/// same way (see the module docs for which are `null`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergedSummary {
    /// The sudoku-batch version that merged.
    pub version: String,
    /// Input names, in order.
    pub inputs: Vec<String>,
    /// Rows merged, malformed ones included.
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
    /// The longest shard's wall-clock time, seconds; `null` without every
    /// shard's summary.
    pub wall_s: Option<f64>,
    /// `puzzles / wall_s`; `null` without every shard's summary.
    pub puzzles_per_s: Option<f64>,
    /// Sum of the rows' `solve_us`, seconds; `null` for rows without
    /// that column (`rate`'s).
    pub solve_cpu_s: Option<f64>,
    /// Per-puzzle solve times from the rows' `solve_us`, microseconds:
    /// exact mean, nearest-rank percentiles and maximum; `null` for rows
    /// without that column (`rate`'s).
    pub solve_us: Option<SolveTimes>,
    /// Guesses, from the rows; `null` for rows without a `guesses` column
    /// (`rate`'s: each shard's own summary has its guesses).
    pub guesses: Option<Guesses>,
    /// Solver threads of all shards together; `null` without every
    /// shard's summary.
    pub threads: Option<usize>,
    /// The shards' solver; `null` without every shard's summary.
    pub solver: Option<String>,
    /// The shards' mode; `null` without every shard's summary.
    pub mode: Option<String>,
    /// True when a signal stopped any shard whose summary is given.
    pub interrupted: bool,
    /// The options every shard ran with (`shard` null); `null` without
    /// every shard's summary.
    pub options: Option<RunOptions>,
    /// The rating distribution of merged `rate` or `solve --rate` rows
    /// (see [`crate::output::stats::Ratings`]), from the rows; `null` for
    /// rows without ratings.
    pub ratings: Option<Ratings>,
    /// Always `null`: a merge that fails writes no summary.
    pub error: Option<String>,
}

impl MergedSummary {
    /// The summary of the merged rows' `tally` and solve `times`, with the
    /// run's `facts` when every shard's summary was given; `timed` when the
    /// rows have `guesses` and `solve_us` columns (`solve`'s, not `rate`'s:
    /// without them those figures are `null`, not a count of nothing).
    pub fn new(
        inputs: Vec<String>,
        tally: &Tally,
        times: &Times,
        facts: Option<RunFacts>,
        rated: bool,
        timed: bool,
    ) -> MergedSummary {
        // A run's summary of the same tally gives the counts, exactly as
        // `solve` computes them; only the percentiles are made exact here.
        let run = Summary::new(
            tally,
            RunInfo {
                inputs,
                wall: Duration::ZERO,
                threads: 0,
                solver: SolverKind::default(),
                mode: Mode::Unique,
                interrupted: false,
                options: crate::output::stats::RunOptions::default(),
                rated,
            },
        );
        let us = |ns: u64| ns as f64 / 1e3;
        let wall_s = facts.as_ref().map(|f| f.wall_s);
        MergedSummary {
            version: run.version,
            inputs: run.inputs,
            puzzles: run.puzzles,
            solved: run.solved,
            multiple: run.multiple,
            unsolvable: run.unsolvable,
            invalid: run.invalid,
            malformed: run.malformed,
            timeout: run.timeout,
            mismatches: run.mismatches,
            wall_s,
            puzzles_per_s: wall_s.map(|w| if w > 0.0 { run.puzzles as f64 / w } else { 0.0 }),
            solve_cpu_s: run.solve_cpu_s.filter(|_| timed),
            // `null` figures (no row searched) stay `null`.
            solve_us: run.solve_us.filter(|_| timed).map(|t| SolveTimes {
                p50: t.p50.map(|_| us(times.at(0.5))),
                p90: t.p90.map(|_| us(times.at(0.9))),
                p99: t.p99.map(|_| us(times.at(0.99))),
                ..t
            }),
            guesses: run.guesses.filter(|_| timed),
            threads: facts.as_ref().map(|f| f.threads),
            solver: facts.as_ref().map(|f| f.solver.clone()),
            mode: facts.as_ref().map(|f| f.mode.clone()),
            interrupted: facts.as_ref().is_some_and(|f| f.interrupted),
            options: facts.and_then(|f| f.options),
            ratings: run.ratings,
            error: None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::result::PuzzleResult;
    use sudoku_core::solver::Status;

    #[test]
    fn percentiles_are_nearest_rank_over_every_value() {
        let mut times = Times::default();
        assert_eq!(times.at(0.5), 0);
        for ns in (1..=100).rev() {
            times.add(ns * 100);
        }
        assert_eq!(times.at(0.5), 5_000);
        assert_eq!(times.at(0.9), 9_000);
        assert_eq!(times.at(0.99), 9_900);
        assert_eq!(times.at(1.0), 10_000);
        assert_eq!(times.at(0.0), 100);
    }

    fn tally(statuses: &[Status]) -> Tally {
        let mut tally = Tally::new();
        for &status in statuses {
            tally.add(&PuzzleResult {
                input: 0,
                line: 1,
                puzzle: None,
                status,
                solution: None,
                guesses: Some(2),
                solve_ns: Some(1_000),
                check: None,
                message: None,
                expected: None,
                kept: Vec::new(),
                sized: None,
                rating: None,
            });
        }
        tally
    }

    fn shard(puzzles: u64, solved: u64, wall_s: f64, solver: &str) -> ShardSummary {
        ShardSummary {
            inputs: vec!["a.txt".into()],
            puzzles,
            statuses: [solved, puzzles - solved, 0, 0, 0, 0],
            wall_s,
            threads: 2,
            solver: solver.into(),
            mode: "unique".into(),
            interrupted: false,
            options: None,
            error: None,
            timed: true,
            rated: false,
        }
    }

    #[test]
    fn run_facts_need_every_shard_once_and_one_solver() {
        let rows = tally(&[Status::Solved, Status::Solved, Status::Multiple]);
        let facts = run_facts(
            &[shard(2, 1, 0.5, "fast"), shard(1, 1, 0.25, "fast")],
            &rows,
        );
        let facts = facts.unwrap();
        assert_eq!((facts.wall_s, facts.threads), (0.5, 4));
        assert_eq!(facts.solver, "fast");
        let err = run_facts(&[shard(2, 1, 0.5, "fast")], &rows).unwrap_err();
        assert!(err.contains("give every shard's summary, once"), "{err}");
        let err = run_facts(
            &[shard(2, 1, 0.5, "fast"), shard(1, 1, 0.2, "naive")],
            &rows,
        )
        .unwrap_err();
        assert!(err.contains("different solvers (fast and naive)"), "{err}");
    }

    #[test]
    fn rows_without_guesses_or_solve_times_leave_them_null() {
        // `rate`'s rows: a merge counted their guesses and times as 0 (0
        // guesses, "100 % needed none") where the shards had 4,299.
        let rows = tally(&[Status::Solved, Status::Solved]);
        let rated = merged_json(&rows, true, false);
        for key in ["guesses", "solve_us", "solve_cpu_s"] {
            assert!(rated[key].is_null(), "{key}: {rated}");
        }
        assert_eq!(rated["solved"].as_u64(), Some(2));
        let solved = merged_json(&rows, true, true);
        assert_eq!(solved["guesses"]["total"].as_u64(), Some(4), "{solved}");
        assert!(solved["solve_us"]["mean"].is_number(), "{solved}");
    }

    /// The JSON summary of merged `rows` of `a.txt`, without the shards'
    /// summaries.
    fn merged_json(rows: &Tally, rated: bool, timed: bool) -> serde_json::Value {
        let summary = MergedSummary::new(
            vec!["a.txt".into()],
            rows,
            &Times::default(),
            None,
            rated,
            timed,
        );
        serde_json::from_str(&summary.to_json()).unwrap()
    }

    #[test]
    fn run_facts_are_null_without_the_summaries() {
        let rows = tally(&[Status::Solved, Status::Multiple]);
        let json = merged_json(&rows, false, true);
        for key in ["wall_s", "puzzles_per_s", "threads", "solver", "mode"] {
            assert!(json[key].is_null(), "{key}");
        }
        assert_eq!(
            (json["solved"].as_u64(), json["multiple"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(json["guesses"]["total"].as_u64(), Some(4));
    }

    #[test]
    fn a_shard_summary_parses_from_a_run_summary() {
        let run = Summary::new(
            &tally(&[Status::Solved]),
            RunInfo {
                inputs: vec!["a.txt".into()],
                wall: Duration::from_millis(250),
                threads: 3,
                solver: SolverKind::Fast,
                mode: Mode::First,
                interrupted: true,
                options: crate::output::stats::RunOptions::default(),
                rated: false,
            },
        );
        let parsed = ShardSummary::parse(&run.to_json()).unwrap();
        assert_eq!(parsed.statuses, [1, 0, 0, 0, 0, 0]);
        assert_eq!((parsed.wall_s, parsed.threads), (0.25, 3));
        assert_eq!(
            (parsed.solver.as_str(), parsed.mode.as_str()),
            ("fast", "first")
        );
        assert!(parsed.interrupted);
        assert!(ShardSummary::parse("{}").is_err());
    }
}
