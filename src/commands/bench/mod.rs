//! The `bench` subcommand: measures the solvers' throughput in memory, the
//! way solver benchmarks in this field do (tdoku's `run_benchmark` is the
//! model).
//!
//! Each data set is read once, with `solve`'s input rules, into a vector of
//! grids (the parse time is reported apart, on stderr). Then, for every
//! solver, mode and thread count, [`measure()`] warms up and times repeated
//! passes, and the result becomes one [`BenchRow`]. Rows go to an aligned
//! table on stdout and to the `--export-*` files, which are rewritten as
//! each row arrives (see [`export`]).

pub mod export;
pub mod external;
pub mod measure;
pub mod row;
pub mod spread;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use sudoku_core::grid::Grid;
use sudoku_core::sizes::Shape;
use sudoku_core::solver::{Mode, Simd, SolverKind, SIMD_ENV};

use crate::commands::flags::{solver_parser, LayoutArgs};
use crate::error::{Error, Verdict};
use crate::input::{self, sized, Input, ReadOptions};
use crate::process::file_guard::FileGuard;
use crate::process::words::{count, noun};

pub use self::export::{ExportFormat, Exports, Report};
pub use self::external::{measure_external, Expected, ExternalSolver, Protocol};
pub use self::measure::{measure, Measurement, Plan, Puzzles, SolveTimes};
pub use self::row::{BenchRow, Machine};
pub use self::spread::Spread;

/// The options of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files, one data set each, read with `solve`'s input rules
    /// (text lines, CSV, JSON Lines or Parquet; gzip and zstd decompressed;
    /// `-` is stdin), of any size (a file of several sizes is measured per
    /// size). Malformed records are skipped.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,

    /// The solvers to measure, comma-separated.
    #[arg(
        long,
        value_name = "NAME,...",
        value_delimiter = ',',
        default_values = ["fast", "naive"],
        value_parser = solver_parser(),
    )]
    pub solver: Vec<SolverKind>,

    /// An external solver to measure beside the built-in ones, as NAME=COMMAND
    /// (repeatable). COMMAND runs under `sh -c`, reads puzzles on stdin (one
    /// 81-character line each) and writes one line per puzzle, in order: a
    /// solution, or any other text for "no solution". Every answer is
    /// verified. At `-j N`, N copies run, puzzles dealt round-robin.
    #[arg(long = "cmd", value_name = "NAME=COMMAND", value_parser = ExternalSolver::parse)]
    pub cmd: Vec<ExternalSolver>,

    /// The blank sent to `--cmd` solvers in puzzle lines: `.` or `0`.
    #[arg(long, value_name = "CHAR", default_value = ".", value_parser = ["." , "0"], requires = "cmd")]
    pub cmd_blank: String,

    /// Seconds a `--cmd` solver may take for one answer line; past that the
    /// copy is killed and its remaining puzzles count as missing.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds, requires = "cmd")]
    pub cmd_timeout_s: f64,

    /// The modes to measure, comma-separated: `unique` stops at the second
    /// solution, `first` at the first.
    #[arg(
        long,
        value_name = "MODE,...",
        value_delimiter = ',',
        default_values = ["unique"],
        value_parser = mode_parser(),
    )]
    pub mode: Vec<Mode>,

    /// Thread counts to measure, comma-separated [default: 1 and all
    /// cores].
    #[arg(
        short = 'j',
        long = "threads",
        value_name = "N,...",
        value_delimiter = ','
    )]
    pub threads: Vec<usize>,

    /// Warm-up before each measurement, seconds (fractions allowed). It
    /// also estimates the speed that decides between full passes and a
    /// sample (see `--time-s`).
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0, value_parser = parse_seconds)]
    pub warmup_s: f64,

    /// Timed run per measurement, seconds (fractions allowed): full passes
    /// over the data set until this time is reached, or, for a solver too
    /// slow to finish a pass in twice this time, puzzles in random order
    /// until it is reached.
    #[arg(long, value_name = "SECONDS", default_value_t = 3.0, value_parser = parse_seconds)]
    pub time_s: f64,

    /// Timed runs per measurement: `puzzles_per_s` is their median, and
    /// their spread is reported beside it (warm-up once, before them).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub runs: usize,

    /// Shuffle each data set with this seed before timing it (default: file
    /// order for full passes; sampling always uses a random order, seed 0
    /// unless given).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Load at most N records of each input (malformed ones included).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// How the inputs are laid out, as for `solve`.
    #[command(flatten)]
    pub layout: LayoutArgs,

    /// Write the rows as CSV to FILE (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,

    /// Write the rows as JSON to FILE (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,

    /// Write the rows as a Markdown table to FILE (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,

    /// Write one self-contained HTML page to FILE (`-` for stdout): SVG
    /// charts of puzzles/s per data set and solver with the runs' spread,
    /// thread scaling against the ideal line, and solve-time distributions
    /// per data set (which takes one extra timed pass per data set and
    /// built-in solver), then the rows.
    #[arg(long, value_name = "FILE")]
    pub export_html: Option<PathBuf>,

    /// No progress lines on stderr (the table and errors still print).
    #[arg(long)]
    pub quiet: bool,
}

/// Parses `unique` or `first`.
fn mode_parser() -> impl TypedValueParser<Value = Mode> {
    PossibleValuesParser::new(["unique", "first"]).map(|name| {
        if name == "first" {
            Mode::First
        } else {
            Mode::Unique
        }
    })
}

/// Parses a duration in seconds: finite and not negative.
fn parse_seconds(value: &str) -> Result<f64, String> {
    let seconds: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("'{value}' is not a number of seconds"))?;
    if (0.0..1e9).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!("'{value}' is not a duration in seconds"))
    }
}

/// A validated `bench` configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchConfig {
    /// The data sets' inputs, in order, as given (any name the operating
    /// system accepts); no two are named alike in rows (see
    /// [`input::input_names`]).
    pub inputs: Vec<PathBuf>,
    /// How to read them.
    pub read: ReadOptions,
    /// Records to load per input, at most.
    pub limit: Option<u64>,
    /// Solvers, in the order given, without repeats.
    pub solvers: Vec<SolverKind>,
    /// Modes, in the order given, without repeats.
    pub modes: Vec<Mode>,
    /// Thread counts, ascending, without repeats (so the 1-thread row that
    /// `speedup` divides by comes first).
    pub threads: Vec<usize>,
    /// External solvers, in the order given (names unique).
    pub externals: Vec<ExternalSolver>,
    /// How external solvers are fed and bounded.
    pub protocol: Protocol,
    /// Warm-up and timing.
    pub plan: Plan,
    /// Where the rows go.
    pub exports: Exports,
    /// Progress lines on stderr.
    pub progress: bool,
}

impl BenchConfig {
    /// Validates `args` for a machine with `cores` cores.
    ///
    /// # Errors
    /// [`Error::Usage`] for a thread count of 0 or above
    /// [`crate::job::config::MAX_THREADS`], a `--runs` or `--time-s` of 0, or stdin
    /// named twice (two exports to one file or stdout are refused by
    /// [`run`]'s [`FileGuard`]); [`Error::Input`] for two
    /// inputs that would have the same name in rows.
    pub fn new(args: &BenchArgs, cores: usize) -> Result<BenchConfig, Error> {
        let mut threads = if args.threads.is_empty() {
            vec![1, cores.max(1)]
        } else {
            args.threads.clone()
        };
        if threads.contains(&0) {
            return Err(Error::Usage("--threads: counts must be at least 1".into()));
        }
        crate::job::config::check_threads(&threads, cores)?;
        threads.sort_unstable();
        threads.dedup();
        let mut externals: Vec<ExternalSolver> = Vec::new();
        for cmd in &args.cmd {
            let builtin = SolverKind::ALL.iter().any(|k| k.name() == cmd.name);
            if builtin || externals.iter().any(|e| e.name == cmd.name) {
                return Err(Error::Usage(format!(
                    "--cmd {}: that solver name is already taken",
                    cmd.name
                )));
            }
            externals.push(cmd.clone());
        }
        if args.cmd_timeout_s <= 0.0 {
            return Err(Error::Usage("--cmd-timeout-s must be more than 0".into()));
        }
        if args.runs == 0 {
            return Err(Error::Usage("--runs must be at least 1".into()));
        }
        if args.time_s <= 0.0 {
            return Err(Error::Usage("--time-s must be more than 0".into()));
        }
        if args.inputs.iter().filter(|i| i.as_os_str() == "-").count() > 1 {
            return Err(Error::Usage("stdin (`-`) can be read only once".into()));
        }
        input::input_names(&args.inputs)?;
        let exports = Exports::new(&[
            (ExportFormat::Csv, args.export_csv.as_deref()),
            (ExportFormat::Json, args.export_json.as_deref()),
            (ExportFormat::Markdown, args.export_markdown.as_deref()),
            (ExportFormat::Html, args.export_html.as_deref()),
        ]);
        Ok(BenchConfig {
            inputs: args.inputs.clone(),
            read: args.layout.read_options(None),
            limit: args.limit,
            solvers: unique(&args.solver),
            modes: unique(&args.mode),
            threads,
            externals,
            protocol: Protocol {
                blank: if args.cmd_blank == "0" { b'0' } else { b'.' },
                timeout: Duration::from_secs_f64(args.cmd_timeout_s),
            },
            plan: Plan {
                warmup: Duration::from_secs_f64(args.warmup_s),
                time: Duration::from_secs_f64(args.time_s),
                seed: args.seed,
                runs: args.runs,
            },
            exports,
            progress: !args.quiet,
        })
    }
}

/// `items` without repeats, first occurrences kept in order.
fn unique<T: PartialEq + Copy>(items: &[T]) -> Vec<T> {
    let mut out = Vec::with_capacity(items.len());
    for &item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// One data set, loaded.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The input's name as given.
    pub name: String,
    /// The puzzles, in file order, one set per size in the order the sizes
    /// first appear (9x9 and 16x16 puzzles of one file are measured apart,
    /// each set making its own rows); no set is empty.
    pub sets: Vec<Puzzles>,
    /// Malformed records skipped.
    pub skipped: u64,
    /// The first of them: its line and why it is no puzzle.
    pub first_skipped: Option<(u64, String)>,
    /// Time to read and parse the input.
    pub parse: Duration,
}

impl Dataset {
    /// Reads every record of an input (at most `limit`), keeping
    /// the puzzles by size and counting the malformed records. A 9x9 record
    /// is a grid of `nine_boxes` when `--box` gives 9x9 grids other boxes
    /// than 3x3 ([`input::SizeOptions::nine_boxes`]), timed on the engine
    /// for other shapes, as `solve` solves it.
    ///
    /// # Errors
    /// [`Error::Input`] when the input cannot be read.
    pub fn load(
        records: input::Records,
        limit: Option<u64>,
        nine_boxes: Option<Shape>,
    ) -> Result<Dataset, Error> {
        let start = Instant::now();
        let name = records.name().to_string();
        let mut sets: Vec<Puzzles> = Vec::new();
        let mut skipped = 0;
        let mut first_skipped = None;
        for record in records.take(usize::try_from(limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX))
        {
            let mut record = record?;
            if let Some(shape) = nine_boxes {
                sized::with_boxes(&mut record, shape);
            }
            // A 9x9 with 3x3 boxes in another alphabet (numbered from 0) is
            // timed on the 9x9 engines, as `solve` solves it.
            let nine = match (record.puzzle, record.sized) {
                (Ok(grid), _) => Ok(grid),
                (Err(why), Some(sized)) => match sized::nine_grids(&sized) {
                    Some((grid, _)) => Ok(grid),
                    None => Err((why, Some(sized))),
                },
                (Err(why), None) => Err((why, None)),
            };
            match nine {
                Ok(grid) => match sets.iter_mut().find_map(|set| match set {
                    Puzzles::Nine(grids) => Some(grids),
                    Puzzles::Sized(_) => None,
                }) {
                    Some(grids) => grids.push(grid),
                    None => sets.push(Puzzles::Nine(vec![grid])),
                },
                Err((_, Some(sized))) => {
                    let side = sized.puzzle.side();
                    match sets.iter_mut().find_map(|set| match set {
                        Puzzles::Sized(grids) if grids.first().map(|g| g.side()) == Some(side) => {
                            Some(grids)
                        }
                        _ => None,
                    }) {
                        Some(grids) => grids.push(sized.puzzle),
                        None => sets.push(Puzzles::Sized(vec![sized.puzzle])),
                    }
                }
                Err((why, None)) => {
                    skipped += 1;
                    first_skipped.get_or_insert((record.line, why));
                }
            }
        }
        Ok(Dataset {
            name,
            sets,
            skipped,
            first_skipped,
            parse: start.elapsed(),
        })
    }

    /// Puzzles of every size.
    pub fn puzzles(&self) -> usize {
        self.sets.iter().map(Puzzles::len).sum()
    }

    /// What the progress line adds about sizes: nothing for 9x9 puzzles
    /// alone, ` (16x16)` for one other size, and for several how many of
    /// each (`: 2 sizes (3 9x9, 6 16x16) measured apart, one row per
    /// size`).
    fn sizes(&self) -> String {
        match self.sets.as_slice() {
            [] | [Puzzles::Nine(_)] => String::new(),
            [set] => format!(" ({})", set.size()),
            sets => {
                let each: Vec<String> = sets
                    .iter()
                    .map(|set| format!("{} {}", set.len(), set.size()))
                    .collect();
                format!(
                    ": {} sizes ({}) measured apart, one row per size",
                    sets.len(),
                    each.join(", ")
                )
            }
        }
    }
}

/// A data set's name in progress lines and charts, with the size of
/// `set` when it is not 9x9 (`data/g16.csv (16x16)`).
fn set_name(name: &str, set: &Puzzles) -> String {
    match set {
        Puzzles::Nine(_) => name.to_string(),
        Puzzles::Sized(_) => format!("{name} ({})", set.size()),
    }
}

/// The progress line naming the fast solver's level `simd`, and whether
/// `SUDOKU_BATCH_SIMD` chose it (`forced`) or it is the best this CPU has.
fn simd_line(simd: Simd, forced: bool) -> String {
    if forced {
        format!(
            "fast solver at {simd}, set by {SIMD_ENV} (this CPU's best: {})",
            Simd::detect()
        )
    } else {
        format!("fast solver at {simd}, the best this CPU has (set {SIMD_ENV} to choose)")
    }
}

/// Runs `bench`: loads every data set, then measures every combination of
/// data set, solver, mode and thread count, in that nesting order.
///
/// # Errors
/// Usage errors, input errors and export write errors.
pub fn run(args: &BenchArgs) -> Result<Verdict, Error> {
    let machine = Machine::detect();
    let config = BenchConfig::new(args, machine.cores)?;
    let mut guard = FileGuard::new();
    for input in &config.inputs {
        guard.reads("input", input);
    }
    config.exports.register(&mut guard);
    guard.check()?;
    let log = |line: String| {
        if config.progress {
            crate::stderrln!("bench: {line}");
        }
    };
    // Every input is opened before any is read, so that a missing file
    // fails at once.
    let inputs = config
        .inputs
        .iter()
        .map(|path| input::open_path(path))
        .collect::<Result<Vec<Input>, _>>()?;
    let opened = inputs
        .into_iter()
        .map(|input| input.records(&config.read))
        .collect::<Result<Vec<_>, _>>()?;
    let formats: Vec<(&str, input::Format)> =
        opened.iter().map(|r| (r.name(), r.format())).collect();
    input::options_apply(&formats, &config.read)?;
    drop(formats);
    if config.solvers.contains(&SolverKind::Fast) {
        log(simd_line(
            machine.simd,
            Simd::forced().ok().flatten().is_some(),
        ));
    }
    let mut datasets = Vec::with_capacity(opened.len());
    for records in opened {
        let dataset = Dataset::load(records, config.limit, config.read.sizes.nine_boxes())?;
        let skipped = match dataset.skipped {
            0 => String::new(),
            n => format!(" ({n} malformed {} skipped)", noun(n, "record", "records")),
        };
        log(format!(
            "loaded {} from {} in {:.1} ms{skipped}{}",
            count(dataset.puzzles() as u64, "puzzle", "puzzles"),
            dataset.name,
            dataset.parse.as_secs_f64() * 1e3,
            dataset.sizes(),
        ));
        // Said under --quiet too: a measurement that leaves records out
        // must not look like one of the whole file.
        if let Some((line, why)) = &dataset.first_skipped {
            crate::stderrln!(
                "sudoku-batch: warning: {}: {} not measured: no puzzle the solvers take, the \
                 first on line {line}: {why}",
                dataset.name,
                count(dataset.skipped, "malformed record", "malformed records"),
            );
        }
        if dataset.sets.is_empty() {
            crate::stderrln!(
                "sudoku-batch: warning: no puzzles in {}; skipped",
                dataset.name
            );
        }
        datasets.push(dataset);
    }

    let mut record = Recorder {
        config: &config,
        rows: Vec::new(),
        notes: Vec::new(),
        solve_times: Vec::new(),
    };
    for (dataset, set) in datasets
        .iter()
        .flat_map(|d| d.sets.iter().map(move |set| (d, set)))
    {
        let name = set_name(&dataset.name, set);
        let size = set.size();
        let orders = measure::Orders::new(set.len(), config.plan.seed);
        if config.exports.wants(ExportFormat::Html) {
            for &solver in &config.solvers {
                let histogram = measure::solve_times(
                    set,
                    &orders.sample,
                    solver,
                    config.modes[0],
                    config.plan.time,
                );
                record.solve_times.push(SolveTimes {
                    dataset: name.clone(),
                    solver: solver.name().to_string(),
                    histogram,
                });
            }
        }
        for &solver in &config.solvers {
            for &mode in &config.modes {
                let mut single: Option<f64> = None;
                for &threads in &config.threads {
                    let m = measure(set, &orders, solver, mode, threads, &config.plan)?;
                    let what = format!(
                        "{name} {solver} {mode} {threads} thread{}",
                        if threads == 1 { "" } else { "s" }
                    );
                    let how = record.how(&what, m.passes, m.totals.puzzles);
                    let row = BenchRow::new(&dataset.name, &size, set.len(), &m, &machine);
                    record.row(row, &mut single, &what, &how, m.elapsed)?;
                }
            }
        }
        let nine = match set {
            Puzzles::Nine(grids) => grids,
            Puzzles::Sized(_) => {
                if !config.externals.is_empty() {
                    record.notes.push(format!(
                        "{name}: --cmd solvers read 81-character lines: not measured on {size} \
                         puzzles"
                    ));
                }
                continue;
            }
        };
        if !config.externals.is_empty() {
            let puzzles: Arc<[Grid]> = nine.clone().into();
            let expected = Arc::new(Expected::of(nine));
            for solver in &config.externals {
                let mut single: Option<f64> = None;
                for &copies in &config.threads {
                    let m = measure_external(
                        solver,
                        copies,
                        &puzzles,
                        &expected,
                        &orders,
                        &config.plan,
                        &config.protocol,
                    )?;
                    let what = format!(
                        "{} {} {copies} cop{}",
                        dataset.name,
                        solver.name,
                        if copies == 1 { "y" } else { "ies" }
                    );
                    let how = format!(
                        "{}; start-up {:.1} ms apart",
                        record.how(&what, m.passes, m.dealt),
                        m.startup.as_secs_f64() * 1e3
                    );
                    if m.wrong > 0 || m.missing > 0 {
                        crate::stderrln!(
                            "sudoku-batch: warning: {what}: {} and {} without an answer, of \
                             {} sent",
                            count(m.wrong, "wrong answer", "wrong answers"),
                            count(m.missing, "puzzle", "puzzles"),
                            m.dealt
                        );
                    }
                    record
                        .notes
                        .extend(m.notes.iter().map(|n| format!("{}: {n}", dataset.name)));
                    let row = BenchRow::external(&dataset.name, nine.len(), &m, &machine);
                    record.row(row, &mut single, &what, &how, m.elapsed)?;
                }
            }
        }
    }
    config.exports.write_stdout(&record.report())?;
    export::write_table(&record.rows, &record.notes, config.exports.uses_stdout())?;
    Ok(Verdict::Clean)
}

/// Collects the rows and notes of a run, reporting each row as it comes.
struct Recorder<'a> {
    config: &'a BenchConfig,
    rows: Vec<BenchRow>,
    notes: Vec<String>,
    solve_times: Vec<SolveTimes>,
}

impl Recorder<'_> {
    fn report(&self) -> Report<'_> {
        Report {
            rows: &self.rows,
            solve_times: &self.solve_times,
        }
    }

    /// How a measurement went, for its progress line: full passes or a
    /// sample (then also a note), and the runs.
    fn how(&mut self, what: &str, passes: Option<u64>, puzzles: u64) -> String {
        let runs = match self.config.plan.runs {
            1 => String::new(),
            n => format!(", {n} runs"),
        };
        match passes {
            Some(1) => format!("1 full pass{runs}"),
            Some(passes) => format!("{passes} full passes{runs}"),
            None => {
                self.notes.push(format!(
                    "{what}: a sample of {} in random order (a full pass would take over \
                     twice --time-s)",
                    count(puzzles, "puzzle solve", "puzzle solves")
                ));
                format!("a sample of {}{runs}", count(puzzles, "puzzle", "puzzles"))
            }
        }
    }

    /// Adds `row` with its speedup over `single` (the 1-thread figure, set
    /// here when this is it), prints its progress line and spread warning,
    /// and rewrites the export files.
    fn row(
        &mut self,
        row: BenchRow,
        single: &mut Option<f64>,
        what: &str,
        how: &str,
        elapsed: Duration,
    ) -> Result<(), Error> {
        if row.threads == 1 {
            *single = Some(row.puzzles_per_s);
        }
        let row = BenchRow {
            speedup: single.and_then(|one| row.speedup_over(one)),
            ..row
        };
        if self.config.progress {
            // Rounded as in the table, so the two agree. A flagged external
            // solver's rate counts puzzles it answered wrong or not at all:
            // said here too.
            let flag = if row.given_up() {
                format!(
                    "; not a fair figure: {:.1}% of puzzles given up at the solver's limit",
                    100.0 - row.finished_pct
                )
            } else if row.flagged() {
                format!(
                    "; not a fair figure: {} answers missing and {} wrong",
                    row.missing.unwrap_or(0),
                    row.wrong.unwrap_or(0)
                )
            } else {
                String::new()
            };
            crate::stderrln!(
                "bench: {what}: {} puzzles/s over {:.2} s ({how}){flag}",
                export::rate(row.puzzles_per_s),
                elapsed.as_secs_f64()
            );
        }
        warn_about_spread(
            what,
            &Spread {
                runs: row.runs,
                median: row.puzzles_per_s,
                min: row.puzzles_per_s_min,
                max: row.puzzles_per_s_max,
                stddev: row.puzzles_per_s_stddev,
            },
        );
        if let Some(warning) = speedup_warning(what, row.threads, row.speedup) {
            crate::stderrln!("{warning}");
        }
        self.rows.push(row);
        self.config.exports.write_files(&self.report())
    }
}

/// Warns on stderr when the runs of one measurement differ by more than
/// [`spread::LARGE_SPREAD`] of their median, as hyperfine warns about
/// outliers: the figure is then not to be trusted on its own.
fn warn_about_spread(what: &str, spread: &Spread) {
    if spread.is_large() {
        crate::stderrln!(
            "sudoku-batch: warning: {what}: puzzles/s ranged from {} to {} over {} runs \
             ({:.0}% of the median): other programs may have disturbed the measurement; \
             try more --runs, a longer --time-s, a quiet machine or a pinned core (taskset)",
            export::rate(spread.min),
            export::rate(spread.max),
            spread.runs,
            spread.relative_range() * 100.0
        );
    }
}

/// The warning for `threads` threads (or copies) more than 10 % faster
/// than `threads` times one: no solver gains more than a thread's worth
/// from each, so one of the two measurements was disturbed (a single run
/// shows no spread to warn about) or the faster one left work undone.
fn speedup_warning(what: &str, threads: usize, speedup: Option<f64>) -> Option<String> {
    let speedup = speedup.filter(|&s| s > 1.1 * threads as f64)?;
    Some(format!(
        "sudoku-batch: warning: {what}: speedup {speedup:.2} over one thread, more than \
         {threads} threads can give: one of the two measurements was disturbed (or this one \
         left puzzles unanswered); try more --runs, a longer --time-s or a quiet machine"
    ))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::commands::command_line::{Cli, Command};

    fn config(args: &[&str]) -> Result<BenchConfig, Error> {
        let cli =
            Cli::try_parse_from(["sudoku-batch", "bench"].iter().chain(args)).expect("flags parse");
        let Command::Bench(args) = cli.command else {
            panic!("parsed as another subcommand")
        };
        BenchConfig::new(&args, 4)
    }

    #[test]
    fn defaults() {
        let c = config(&["a.txt"]).unwrap();
        assert_eq!(c.solvers, [SolverKind::Fast, SolverKind::Naive]);
        assert_eq!(c.modes, [Mode::Unique]);
        assert_eq!(c.threads, [1, 4]);
        assert_eq!(c.plan.warmup, Duration::from_secs(1));
        assert_eq!(c.plan.time, Duration::from_secs(3));
        assert_eq!(c.plan.seed, None);
        assert_eq!(c.plan.runs, 3);
        assert!(c.progress);
    }

    #[test]
    fn lists_are_split_sorted_and_deduplicated() {
        let c = config(&[
            "a.txt",
            "--solver",
            "naive,fast,naive",
            "--mode",
            "first,unique",
            "-j",
            "2,1,2",
            "--time-s",
            "0.05",
            "--warmup-s",
            "0",
            "--seed",
            "7",
        ])
        .unwrap();
        assert_eq!(c.solvers, [SolverKind::Naive, SolverKind::Fast]);
        assert_eq!(c.modes, [Mode::First, Mode::Unique]);
        assert_eq!(c.threads, [1, 2]);
        assert_eq!(c.plan.time, Duration::from_millis(50));
        assert_eq!(c.plan.warmup, Duration::ZERO);
        assert_eq!(c.plan.seed, Some(7));
    }

    #[test]
    fn usage_errors() {
        for args in [
            &["a.txt", "-j", "0"][..],
            &["a.txt", "--time-s", "0"],
            &["a.txt", "--runs", "0"],
            &["-", "-"],
        ] {
            assert!(matches!(config(args), Err(Error::Usage(_))), "{args:?}");
        }
        for args in [
            &["a.txt", "--time-s", "-1"][..],
            &["a.txt", "--warmup-s", "soon"],
            &["a.txt", "--mode", "fastest"],
            &[],
        ] {
            let err = Cli::try_parse_from(["sudoku-batch", "bench"].iter().chain(args));
            assert_eq!(err.unwrap_err().exit_code(), 2, "{args:?}");
        }
    }

    #[test]
    fn a_speedup_beyond_the_threads_is_warned_about() {
        // 3.13 at 2 threads on 2 cores, from one run of each (a trial's).
        let warning = speedup_warning("top95 fast 2 threads", 2, Some(3.13)).unwrap();
        assert!(
            warning.contains("speedup 3.13 over one thread, more than 2 threads can give"),
            "{warning}"
        );
        assert_eq!(speedup_warning("x", 2, Some(2.1)), None);
        assert_eq!(speedup_warning("x", 1, Some(1.0)), None);
        assert_eq!(speedup_warning("x", 2, None), None);
    }
}
