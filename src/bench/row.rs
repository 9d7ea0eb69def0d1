//! The result type of `bench`: one [`BenchRow`] per data set, solver, mode
//! and thread count. Plain data: every export format reads the same struct,
//! and its fields are exactly the JSON keys and CSV columns.

use serde::Serialize;

use super::measure::Measurement;
use crate::solver::{Mode, SolverKind};

/// The row's fields, in order: the JSON keys and the CSV columns.
pub const FIELDS: [&str; 18] = [
    "dataset",
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
    "version",
    "runs",
    "puzzles_per_s_min",
    "puzzles_per_s_max",
    "puzzles_per_s_stddev",
];

/// One measurement's result. Rates are over the timed runs only (the
/// warm-up and the parse are not in them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchRow {
    /// The data set: its input name as given.
    pub dataset: String,
    /// The solver (`fast`, `naive`).
    pub solver: SolverKind,
    /// The mode (`unique`, `first`).
    pub mode: Mode,
    /// Worker threads.
    pub threads: usize,
    /// Puzzles in the data set (malformed records not counted).
    pub puzzles: usize,
    /// The median over the timed runs of the puzzles searched per second of
    /// wall-clock time, all threads together (every search counts, whatever
    /// its status).
    pub puzzles_per_s: f64,
    /// `1e6 / puzzles_per_s`: wall-clock microseconds per puzzle, all
    /// threads together.
    pub us_per_puzzle: f64,
    /// Share of the puzzles searched in the timed run whose search made no
    /// guess, percent (every search counts, whatever its status: `invalid`
    /// and `unsolvable` ones too; a puzzle searched twice counts twice).
    pub no_guess_pct: f64,
    /// Guesses per puzzle searched in the timed run (every search counts,
    /// whatever its status; a puzzle searched twice counts twice).
    pub guesses_per_puzzle: f64,
    /// `puzzles_per_s` over that of the same data set, solver and mode at 1
    /// thread; `None` (empty in CSV, `null` in JSON) when 1 thread was not
    /// measured.
    pub speedup: Option<f64>,
    /// Share of the puzzles searched in the timed run not stopped by a limit
    /// (status other than `timeout`), percent.
    pub finished_pct: f64,
    /// The CPU model.
    pub cpu: String,
    /// Cores available to the process.
    pub cores: usize,
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
}

impl BenchRow {
    /// The row for measurement `m` on the data set `dataset` of `puzzles`
    /// puzzles, with no speedup yet.
    pub fn new(dataset: &str, puzzles: usize, m: &Measurement, machine: &Machine) -> BenchRow {
        let t = &m.totals;
        let per_puzzle = |x: u64| {
            if t.puzzles == 0 {
                0.0
            } else {
                x as f64 / t.puzzles as f64
            }
        };
        let spread = m.spread();
        let puzzles_per_s = spread.median;
        BenchRow {
            dataset: dataset.to_string(),
            solver: m.solver,
            mode: m.mode,
            threads: m.threads,
            puzzles,
            puzzles_per_s,
            us_per_puzzle: if puzzles_per_s > 0.0 {
                1e6 / puzzles_per_s
            } else {
                0.0
            },
            no_guess_pct: per_puzzle(t.no_guess) * 100.0,
            guesses_per_puzzle: per_puzzle(t.guesses),
            speedup: None,
            finished_pct: per_puzzle(t.finished) * 100.0,
            cpu: machine.cpu.clone(),
            cores: machine.cores,
            version: env!("CARGO_PKG_VERSION").to_string(),
            runs: spread.runs,
            puzzles_per_s_min: spread.min,
            puzzles_per_s_max: spread.max,
            puzzles_per_s_stddev: spread.stddev,
        }
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
        };
        let row = BenchRow::new("a.txt", 100, &m, &machine);
        assert_eq!(row.puzzles_per_s, 32.0);
        assert_eq!(row.us_per_puzzle, 31_250.0);
        assert_eq!(row.no_guess_pct, 25.0);
        assert_eq!(row.guesses_per_puzzle, 2.5);
        assert_eq!(row.finished_pct, 75.0);
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
    }

    #[test]
    fn cpu_models_are_read_from_cpuinfo() {
        let info = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD  EPYC 7B13\n";
        assert_eq!(cpu_model(info).as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(cpu_model("processor : 0\n"), None);
    }
}
