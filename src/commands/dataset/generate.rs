//! `generate`: writes N fresh puzzles, each with exactly one solution and
//! (unless `--no-minimal`) minimal, made by [`sudoku_core::generator`].
//!
//! Columns, exactly: `index,puzzle,solution,clues,guesses`, or the layout
//! `--columns` chooses ([`super::layout`]); `--rating LO-HI` keeps only
//! puzzles rated in the band and adds a `rating` column when the layout has
//! none. Puzzle `i` is a
//! function of `(seed, i)` alone, so the output is byte-identical for every
//! `-j`, and `--start` continues a run or splits it across machines.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;
use sudoku_core::generator::{Generated, Generator, Requirements};
use sudoku_core::rate::{Band, BandError};
use sudoku_core::sizes::{Shape, ShapeError, SizedGenerator, SizedSolver, Symbols};
use sudoku_core::solver::{Limits, Mode};

use super::layout::{Columns, Made};
use super::{rate, run_ordered, thousands, threads, RunArgs, RunSettings, TableWriter};
use crate::error::{Error, Verdict};
use crate::output::progress::Progress;
use crate::process::interrupt::{Interrupt, Signal, SignalGuard};
use crate::process::words::noun;

/// Above this `--min-guesses` a warning says the target may never be met.
pub const LIKELY_GUESSES: u64 = 1000;

/// The most guesses `solve` takes on any puzzle of the shipped hard corpora
/// (`ci/baseline.csv`: data/forum_hardest_2000.txt line 1717, the most of
/// 3,465 puzzles).
const HARDEST_GUESSES: u64 = 689;

/// Options of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many puzzles to write.
    #[arg(short = 'n', long = "count", value_name = "N")]
    pub count: u64,

    /// The seed: the same seed and index always give the same puzzle.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// The index of the first puzzle (the `index` column counts on from
    /// it): `--start 1001` continues a run of `-n 1000`.
    #[arg(long, value_name = "I", default_value_t = 1)]
    pub start: u64,

    /// Keep only puzzles whose unique-mode search needs at least G guesses
    /// (as `solve` counts them): harder sets, made more slowly.
    #[arg(long, value_name = "G", default_value_t = 0)]
    pub min_guesses: u64,

    /// Stop digging at the first given that must stay, instead of trying
    /// every given: faster, more givens, not minimal.
    #[arg(long)]
    pub no_minimal: bool,

    /// The side of the grids: 4, 6, 8, 9, 10, 12, 16, 25, ... up to 64
    /// (any side with boxes). Puzzles other than 9x9 are written in
    /// `1-9A-Z` up to 35x35 and as comma-separated numbers above, `.`
    /// or `0` blanks, so `solve` reads them back without `--symbols`.
    #[arg(long, value_name = "N", default_value_t = 9)]
    pub size: usize,

    /// The boxes, R rows by C columns (R*C the size); default the usual
    /// ones (see `solve --box`).
    #[arg(long = "box", value_name = "RxC", value_parser = parse_shape)]
    pub box_shape: Option<Shape>,

    /// The columns: a layout (`default`: index,puzzle,solution,clues,guesses;
    /// `sudoku-extreme`: source,question,answer,rating; `kaggle`:
    /// quizzes,solutions) or names from index, puzzle (or question,
    /// quizzes), solution (or answer, solutions), clues, guesses, source
    /// (`generate seed=S index=I`) and rating (empty unless --rating).
    #[arg(long, value_name = "LAYOUT|COL,...", default_value = "default")]
    pub columns: Columns,

    /// Keep only puzzles whose Sudoku Explainer rating (as `rate` gives
    /// it) is in the band LO-HI, both ends included (`8.0-9.5`), and write
    /// it in the `rating` column (added last when `--columns` has none).
    /// High bands need many candidates (docs/rate.md says how long each
    /// band takes); 9x9 only.
    #[arg(long, value_name = "LO-HI", value_parser = parse_band)]
    pub rating: Option<Band>,

    /// Output and run options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Runs `generate`.
///
/// # Errors
/// [`Error::Usage`] for `-j 0` or an index range past `u64::MAX`;
/// [`Error::Write`] or [`Error::BrokenPipe`] when the rows cannot be
/// written.
pub fn run(args: &GenerateArgs) -> Result<Verdict, Error> {
    let shape = match args.box_shape {
        Some(shape) => shape
            .fits(args.size)
            .map_err(|e| Error::Usage(format!("--box: {e} (--size {})", args.size)))?,
        None if args.size == 9 => return run_nine(args),
        None => Shape::usual(args.size).map_err(|e| Error::Usage(format!("--size: {e}")))?,
    };
    if shape.side() == 9 && shape.box_rows() == 3 {
        return run_nine(args);
    }
    if args.min_guesses > 0 {
        return Err(Error::Usage(
            "--min-guesses is for 9x9 puzzles only; leave it out with --size".into(),
        ));
    }
    if args.rating.is_some() {
        return Err(Error::Usage(
            "--rating is for 9x9 puzzles only (ratings exist for 9x9 grids); leave it out with \
             --size"
                .into(),
        ));
    }
    run_sized(args, shape)
}

/// Parses `--rating LO-HI`.
fn parse_band(value: &str) -> Result<Band, BandError> {
    value.parse()
}

/// Parses `--box RxC`.
fn parse_shape(value: &str) -> Result<Shape, ShapeError> {
    value.parse()
}

/// What `run_nine` and `run_sized` share: the options read, the signal
/// guard, the rows' writer and the progress line's counts, from the
/// first row to the summary's first line.
struct Run {
    settings: RunSettings,
    /// One past the last index.
    end: u64,
    started: Instant,
    _signals: SignalGuard,
    interrupt: Interrupt,
    writer: TableWriter,
    counts: Counts,
}

impl Run {
    /// Reads the options, installs the signal handlers, creates the output
    /// with `header` and starts the progress line.
    fn start(args: &GenerateArgs, header: &[&str]) -> Result<Run, Error> {
        let settings = args.run.settings()?;
        let end = args
            .start
            .checked_add(args.count)
            .ok_or_else(|| Error::Usage("--start plus -n is past the largest index".into()))?;
        let started = Instant::now();
        let (signals, interrupt) = SignalGuard::install().map_err(Error::Signals)?;
        let writer = TableWriter::create(&settings.output, header)?;
        let counts = Counts {
            progress: Progress::start_counting(&settings.progress, args.count),
            tried: AtomicU64::new(0),
            kept: AtomicU64::new(0),
        };
        Ok(Run {
            settings,
            end,
            started,
            _signals: signals,
            interrupt,
            writer,
            counts,
        })
    }

    /// Closes the output and writes the summary: `what` follows the count
    /// of puzzles kept (the size, for other sizes than 9x9).
    fn finish(
        self,
        ending: Result<Option<Signal>, Error>,
        tally: &Tally,
        size: Option<Shape>,
    ) -> Result<Verdict, Error> {
        self.counts.progress.finish();
        let ending = self.writer.close(ending)?;
        if self.settings.summary {
            let seconds = self.started.elapsed().as_secs_f64();
            let tried = self.counts.tried.load(Ordering::Relaxed);
            let side = size.map_or(String::new(), |s| format!("{0}x{0} ", s.side()));
            let boxes = size.map_or(String::new(), |s| format!(" (boxes {s})"));
            crate::stderrln!(
                "generate: {} {side}{}{boxes}{} ({} {} tried) in {seconds:.2} s, {}/s on {}",
                thousands(tally.kept),
                noun(tally.kept, "puzzle", "puzzles"),
                if ending.is_some() {
                    ", interrupted"
                } else {
                    ""
                },
                thousands(tried),
                noun(tried, "candidate", "candidates"),
                thousands(rate(tally.kept, seconds)),
                threads(self.settings.threads),
            );
            tally.summary();
        }
        Ok(match ending {
            Some(signal) => Verdict::Interrupted(signal),
            None => Verdict::Clean,
        })
    }
}

/// The progress line and its counts: candidates tried, counted as each
/// is started by any thread (a puzzle that takes a minute, or millions of
/// candidates, shows them as they go, and an interrupted run counts those
/// of the puzzles it did not finish), and puzzles kept, as their rows are
/// written.
struct Counts {
    progress: Progress,
    tried: AtomicU64,
    kept: AtomicU64,
}

impl Counts {
    /// Counts one more candidate started, and shows it.
    fn try_one(&self) {
        self.show(self.tried.fetch_add(1, Ordering::Relaxed) + 1);
    }

    /// Sets the count of puzzles kept and shows it.
    fn keep(&self, kept: u64) {
        self.kept.store(kept, Ordering::Relaxed);
        self.show(self.tried.load(Ordering::Relaxed));
    }

    fn show(&self, tried: u64) {
        self.progress.count(
            self.kept.load(Ordering::Relaxed),
            &format!("kept, {} tried", thousands(tried)),
        );
    }
}

/// `generate` for grids of another size or shape than 9x9 (see
/// [`sudoku_core::sizes::generator`]): the same columns and summary,
/// `guesses` as `solve` counts them.
fn run_sized(args: &GenerateArgs, shape: Shape) -> Result<Verdict, Error> {
    let mut run = Run::start(args, &args.columns.header())?;
    let (seed, minimal) = (args.seed, !args.no_minimal);
    let symbols = Symbols::for_side(shape.side());
    let blank = if symbols == Symbols::Numbers {
        b'0'
    } else {
        b'.'
    };
    let stop = run.interrupt.clone();
    let mut tally = Tally::default();
    let (counts, writer) = (&run.counts, &mut run.writer);
    let ending = run_ordered(
        (args.start..run.end).map(Ok),
        run.settings.threads,
        &run.interrupt,
        || (SizedGenerator::new(shape), SizedSolver::new()),
        |(generator, solver), index| {
            counts.try_one();
            let halt = || stop.is_raised();
            let made = generator.generate(seed, index, minimal, &halt)?;
            let search = solver.search_until(&made.puzzle, Mode::Unique, &Limits::default(), &halt);
            search
                .stopped
                .is_none()
                .then_some((index, made, search.guesses))
        },
        |chunk| {
            for (index, made, guesses) in chunk {
                tally.add_sized(made.puzzle.givens(), guesses);
                let made = Made {
                    index,
                    puzzle: symbols.format(&made.puzzle, blank),
                    solution: symbols.format(&made.solution, blank),
                    clues: made.puzzle.givens(),
                    guesses,
                    rating: None,
                };
                writer.row(&args.columns.row(&made, seed))?;
            }
            writer.flush()?;
            counts.keep(tally.kept);
            Ok(())
        },
    );
    run.finish(ending, &tally, Some(shape))
}

/// `generate` for 9x9 puzzles.
fn run_nine(args: &GenerateArgs) -> Result<Verdict, Error> {
    let columns = if args.rating.is_some() {
        args.columns.with_rating()
    } else {
        args.columns.clone()
    };
    let mut run = Run::start(args, &columns.header())?;
    let requirements = Requirements {
        minimal: !args.no_minimal,
        min_guesses: args.min_guesses,
        rating: args.rating,
    };
    if args.min_guesses > LIKELY_GUESSES {
        crate::stderrln!(
            "sudoku-batch: warning: --min-guesses {}: the hardest puzzles known take at most \
             {HARDEST_GUESSES} guesses here (data/forum_hardest_2000.txt, \
             data/magictour_top1465.txt) and generated ones far fewer, so this target may never \
             be met; the progress and the summary count the candidates tried (Ctrl-C stops)",
            args.min_guesses
        );
    }
    let seed = args.seed;
    let stop = run.interrupt.clone();
    let mut tally = Tally::default();
    let (counts, writer) = (&run.counts, &mut run.writer);
    let ending = run_ordered(
        (args.start..run.end).map(Ok),
        run.settings.threads,
        &run.interrupt,
        Generator::new,
        |generator, index| {
            let next = || {
                if stop.is_raised() {
                    return true;
                }
                counts.try_one();
                false
            };
            generator
                .generate(seed, index, &requirements, &next)
                .map(|made| (index, made))
        },
        |chunk| {
            for (index, made) in chunk {
                tally.add(&made);
                let made = Made {
                    index,
                    puzzle: made.puzzle.to_line(),
                    solution: made.solution.to_line(),
                    clues: made.puzzle.givens(),
                    guesses: made.guesses,
                    rating: made.rating.map(|r| r.to_decimal()),
                };
                writer.row(&columns.row(&made, seed))?;
            }
            writer.flush()?;
            counts.keep(tally.kept);
            Ok(())
        },
    );
    run.finish(ending, &tally, None)
}

/// Counts for the summary.
#[derive(Debug, Default)]
struct Tally {
    kept: u64,
    clues: u64,
    min_clues: usize,
    max_clues: usize,
    guesses: u64,
    max_guesses: u64,
    /// The lowest and highest rating kept, in tenths (with `--rating`).
    ratings: Option<(u16, u16)>,
}

impl Tally {
    fn add(&mut self, made: &Generated) {
        self.add_sized(made.puzzle.givens(), made.guesses);
        if let Some(r) = made.rating {
            let (low, high) = self.ratings.unwrap_or((r.tenths, r.tenths));
            self.ratings = Some((low.min(r.tenths), high.max(r.tenths)));
        }
    }

    /// Counts one puzzle of `clues` givens and `guesses` guesses.
    fn add_sized(&mut self, clues: usize, guesses: u64) {
        if self.kept == 0 || clues < self.min_clues {
            self.min_clues = clues;
        }
        self.max_clues = self.max_clues.max(clues);
        self.kept += 1;
        self.clues += clues as u64;
        self.guesses += guesses;
        self.max_guesses = self.max_guesses.max(guesses);
    }

    /// The summary's second line: givens and guesses.
    fn summary(&self) {
        if self.kept > 0 {
            crate::stderrln!(
                "  givens {}-{} (mean {:.1}), guesses mean {:.2}, max {}",
                self.min_clues,
                self.max_clues,
                self.clues as f64 / self.kept as f64,
                self.guesses as f64 / self.kept as f64,
                self.max_guesses,
            );
        }
        if let Some((low, high)) = self.ratings {
            let tenths = |t: u16| format!("{}.{}", t / 10, t % 10);
            crate::stderrln!("  ratings {}-{}", tenths(low), tenths(high));
        }
    }
}
