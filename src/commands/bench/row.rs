//! The result type of `bench`: one [`BenchRow`] per data set, solver, mode
//! and thread count. Plain data: every export format reads the same struct,
//! and its fields are exactly the JSON keys and CSV columns.

use serde::Serialize;
use sudoku_core::solver::{FastSolver, Simd};

use super::external::ExternalMeasurement;
use super::measure::Measurement;

/// The row's fields, in order: the JSON keys and the CSV columns.
pub const FIELDS: [&str; 23] = [
    "dataset",
    "size",
    "solver",
    "mode",
    "threads",
    "puzzles",
    "puzzles_per_s",
    "us_per_puzzle",
    "no_guess_pct",
    "guesses_per_puzzle",
    "speedup",
    "finished_pct",
    "cpu",
    "cores",
    "simd",
    "version",
    "runs",
    "puzzles_per_s_min",
    "puzzles_per_s_max",
    "puzzles_per_s_stddev",
    "wrong",
    "missing",
    "startup_s",
];

/// One measurement's result. Rates are over the timed runs only (the
/// warm-up and the parse are not in them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchRow {
    /// The data set: its input's name as given (bytes that are not UTF-8
    /// shown as `\u{FFFD}`).
    pub dataset: String,
    /// The grids' size, `9x9`, `16x16`: a data set of several sizes has
    /// rows for each.
    pub size: String,
    /// The solver: `fast`, `naive`, or an external solver's NAME
    /// (`--cmd NAME=COMMAND`).
    pub solver: String,
    /// The mode (`unique`, `first`); empty for an external solver.
    pub mode: String,
    /// Worker threads, or copies of an external solver.
    pub threads: usize,
    /// Puzzles in the data set (malformed records not counted).
    pub puzzles: usize,
    /// The median over the timed runs of the puzzles searched per second of
    /// wall-clock time, all threads together (every search counts, whatever
    /// its status).
    pub puzzles_per_s: f64,
    /// `1e6 / puzzles_per_s`: wall-clock microseconds per puzzle, all
    /// threads together; `None` (empty in the table and CSV, `null` in
    /// JSON) when no puzzle was answered (`puzzles_per_s` 0), never 0 or
    /// infinite.
    pub us_per_puzzle: Option<f64>,
    /// Share of the puzzles searched in the timed run whose search made no
    /// guess, percent (every search counts, whatever its status: `invalid`
    /// and `unsolvable` ones too; a puzzle searched twice counts twice);
    /// `None` (`null`) for an external solver.
    pub no_guess_pct: Option<f64>,
    /// Guesses per puzzle searched in the timed run (every search counts,
    /// whatever its status; a puzzle searched twice counts twice); `None`
    /// (`null`) for an external solver.
    pub guesses_per_puzzle: Option<f64>,
    /// `puzzles_per_s` over that of the same data set, solver and mode at 1
    /// thread; `None` (empty in CSV, `null` in JSON) when 1 thread was not
    /// measured, or either rate is 0 (no puzzle answered), never NaN.
    pub speedup: Option<f64>,
    /// Share of the puzzles searched in the timed run not stopped by a limit
    /// (status other than `timeout`), percent; for an external solver, the
    /// share of the puzzles sent that got an answer line.
    pub finished_pct: f64,
    /// The CPU model.
    pub cpu: String,
    /// Cores available to the process.
    pub cores: usize,
    /// The instruction-set level the fast solver ran at in this process
    /// (`scalar`, `avx2`, `avx512`: the best the CPU has, or the one
    /// `SUDOKU_BATCH_SIMD` chose), the same on every row.
    pub simd: String,
    /// The sudoku-batch version.
    pub version: String,
    /// Timed runs (`--runs`) that `puzzles_per_s` is the median of.
    pub runs: usize,
    /// The slowest run's puzzles per second.
    pub puzzles_per_s_min: f64,
    /// The fastest run's puzzles per second.
    pub puzzles_per_s_max: f64,
    /// The sample standard deviation of the runs' puzzles per second (0 for
    /// one run).
    pub puzzles_per_s_stddev: f64,
    /// External solvers: answers that are not right (a grid that breaks a
    /// given or a rule, or "no solution" for a puzzle that has one), over
    /// the timed runs; `None` (`null`) for the built-in solvers.
    pub wrong: Option<u64>,
    /// External solvers: puzzles sent in the timed runs that got no answer
    /// line (the process crashed, stopped early or was killed after
    /// `--cmd-timeout-s`); `None` (`null`) for the built-in solvers.
    pub missing: Option<u64>,
    /// External solvers: seconds for the copies to start and exit on empty
    /// input (median over the runs), taken off each run's time before
    /// dividing; `None` (`null`) for the built-in solvers.
    pub startup_s: Option<f64>,
}

impl BenchRow {
    /// The row for measurement `m` on the `puzzles` puzzles of `size`
    /// (`16x16`) of the data set `dataset`, with no speedup yet.
    pub fn new(
        dataset: &str,
        size: &str,
        puzzles: usize,
        m: &Measurement,
        machine: &Machine,
    ) -> BenchRow {
        let t = &m.totals;
        let per_puzzle = |x: u64| {
            if t.puzzles == 0 {
                0.0
            } else {
                x as f64 / t.puzzles as f64
            }
        };
        BenchRow {
            no_guess_pct: Some(per_puzzle(t.no_guess) * 100.0),
            guesses_per_puzzle: Some(per_puzzle(t.guesses)),
            finished_pct: per_puzzle(t.finished) * 100.0,
            ..BenchRow::timed(
                dataset,
                size,
                m.solver.name(),
                m.mode.name(),
                m.threads,
                puzzles,
                &m.spread(),
                machine,
            )
        }
    }

    /// The row for external measurement `m` on the data set `dataset` of
    /// `puzzles` 9x9 puzzles, with no speedup yet.
    pub fn external(
        dataset: &str,
        puzzles: usize,
        m: &ExternalMeasurement,
        machine: &Machine,
    ) -> BenchRow {
        let spread = super::spread::Spread::of(&m.rates);
        BenchRow {
            finished_pct: if m.dealt == 0 {
                0.0
            } else {
                m.answered as f64 * 100.0 / m.dealt as f64
            },
            wrong: Some(m.wrong),
            missing: Some(m.missing),
            startup_s: Some(m.startup.as_secs_f64()),
            ..BenchRow::timed(
                dataset, "9x9", &m.name, "", m.copies, puzzles, &spread, machine,
            )
        }
    }

    /// The fields every row has: what was measured and how fast.
    #[allow(clippy::too_many_arguments)]
    fn timed(
        dataset: &str,
        size: &str,
        solver: &str,
        mode: &str,
        threads: usize,
        puzzles: usize,
        spread: &super::spread::Spread,
        machine: &Machine,
    ) -> BenchRow {
        let puzzles_per_s = spread.median;
        BenchRow {
            dataset: dataset.to_string(),
            size: size.to_string(),
            solver: solver.to_string(),
            mode: mode.to_string(),
            threads,
            puzzles,
            puzzles_per_s,
            us_per_puzzle: (puzzles_per_s > 0.0).then(|| 1e6 / puzzles_per_s),
            no_guess_pct: None,
            guesses_per_puzzle: None,
            speedup: None,
            finished_pct: 0.0,
            cpu: machine.cpu.clone(),
            cores: machine.cores,
            simd: machine.simd.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            runs: spread.runs,
            puzzles_per_s_min: spread.min,
            puzzles_per_s_max: spread.max,
            puzzles_per_s_stddev: spread.stddev,
            wrong: None,
            missing: None,
            startup_s: None,
        }
    }

    /// True when an external solver gave wrong answers or left puzzles
    /// without one, a built-in solver gave some up ([`BenchRow::given_up`]),
    /// or nothing was timed at all: its speed is not a fair figure.
    pub fn flagged(&self) -> bool {
        self.wrong.unwrap_or(0) > 0
            || self.missing.unwrap_or(0) > 0
            || self.us_per_puzzle.is_none()
            || self.given_up()
    }

    /// True when a built-in solver gave up puzzles at its limit (the naive
    /// solver's placements): its rate counts them as solved.
    pub fn given_up(&self) -> bool {
        self.wrong.is_none() && self.us_per_puzzle.is_some() && self.finished_pct < 100.0
    }

    /// `puzzles_per_s` over `single`, the 1-thread rate: `None` when either
    /// is 0 (a solver that answered nothing has no speed to compare).
    pub fn speedup_over(&self, single: f64) -> Option<f64> {
        (self.puzzles_per_s > 0.0 && single > 0.0).then(|| self.puzzles_per_s / single)
    }
}

/// The machine the benchmark runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The CPU model (`model name` of `/proc/cpuinfo`, else the
    /// architecture).
    pub cpu: String,
    /// Cores available to this process.
    pub cores: usize,
    /// The level the fast solver runs at in this process.
    pub simd: Simd,
}

impl Machine {
    /// The current machine.
    pub fn detect() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| cpu_model(&info))
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            simd: FastSolver::new().simd(),
        }
    }
}

/// The first `model name` (x86) or `Model` / `CPU part` style line of a
/// `/proc/cpuinfo`, with runs of blanks squeezed.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let key = key.trim();
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        (matches!(key, "model name" | "Model" | "cpu model") && !value.is_empty()).then_some(value)
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use sudoku_core::solver::{Mode, SolverKind};

    use super::super::measure::Totals;
    use super::*;

    #[test]
    fn the_row_serializes_exactly_the_fields_in_order() {
        let m = Measurement {
            solver: SolverKind::Naive,
            mode: Mode::First,
            threads: 2,
            totals: Totals {
                puzzles: 8,
                guesses: 20,
                no_guess: 2,
                finished: 6,
            },
            elapsed: Duration::from_millis(750),
            passes: None,
            rates: vec![40.0, 32.0, 24.0],
        };
        let machine = Machine {
            cpu: "Test CPU".into(),
            cores: 2,
            simd: Simd::Avx2,
        };
        let row = BenchRow::new("a.txt", "16x16", 100, &m, &machine);
        assert_eq!(row.size, "16x16");
        assert_eq!(row.puzzles_per_s, 32.0);
        assert_eq!(row.us_per_puzzle, Some(31_250.0));
        assert_eq!(row.no_guess_pct, Some(25.0));
        assert_eq!(row.guesses_per_puzzle, Some(2.5));
        assert_eq!(row.finished_pct, 75.0);
        // A quarter given up at the solver's limit: flagged, as an
        // external solver's missing answers are.
        assert!(row.given_up() && row.flagged());
        assert_eq!(row.runs, 3);
        assert_eq!((row.puzzles_per_s_min, row.puzzles_per_s_max), (24.0, 40.0));
        assert_eq!(row.puzzles_per_s_stddev, 8.0);
        let json = serde_json::to_value(&row).unwrap();
        let mut keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut fields = FIELDS.to_vec();
        keys.sort_unstable();
        fields.sort_unstable();
        assert_eq!(keys, fields);
        assert_eq!(json["solver"], "naive");
        assert_eq!(json["mode"], "first");
        assert_eq!(json["speedup"], serde_json::Value::Null);
        assert_eq!(json["wrong"], serde_json::Value::Null);
    }

    #[test]
    fn external_rows_have_no_mode_and_no_guesses() {
        let m = ExternalMeasurement {
            name: "py".into(),
            copies: 2,
            rates: vec![90.0, 100.0, 110.0],
            startup: Duration::from_millis(20),
            dealt: 300,
            answered: 297,
            wrong: 4,
            missing: 3,
            passes: Some(3),
            elapsed: Duration::from_secs(3),
            notes: vec![],
        };
        let machine = Machine {
            cpu: "Test CPU".into(),
            cores: 2,
            simd: Simd::Avx2,
        };
        let row = BenchRow::external("a.txt", 100, &m, &machine);
        assert_eq!((row.solver.as_str(), row.mode.as_str()), ("py", ""));
        assert_eq!((row.threads, row.puzzles_per_s, row.runs), (2, 100.0, 3));
        assert_eq!(
            (row.wrong, row.missing, row.startup_s),
            (Some(4), Some(3), Some(0.02))
        );
        assert_eq!(row.finished_pct, 99.0);
        assert!(row.flagged() && !row.given_up());
        let json = serde_json::to_value(&row).unwrap();
        assert_eq!(json["mode"], "");
        assert!(json["no_guess_pct"].is_null() && json["guesses_per_puzzle"].is_null());
    }

    #[test]
    fn cpu_models_are_read_from_cpuinfo() {
        let info = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD  EPYC 7B13\n";
        assert_eq!(cpu_model(info).as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(cpu_model("processor : 0\n"), None);
    }
}
