//! The data-set subcommands: [`generate`] makes fresh puzzles, [`canon`]
//! finds equivalent puzzles (duplicates, and leaks between a training and a
//! test set) and [`augment`] multiplies a set by random symmetries.
//!
//! They share `solve`'s conventions: inputs read by [`crate::input`], `-o`
//! (stdout by default, gzip for `.gz`), `-j`, a progress bar and a summary
//! on stderr (`--quiet` drops both), 130/143 after SIGINT/SIGTERM (the rows
//! finished before it are kept), 2 for usage and I/O errors. The work runs
//! in chunks over a thread pool ([`run_ordered`]) and rows come out in input
//! order, whatever the thread count.

pub mod augment;
pub mod canon;
pub mod generate;
pub mod layout;
mod table;

use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::sync::Arc;
use std::thread;

use clap::Args;
use rayon::prelude::*;
use sudoku_core::grid::Grid;
use sudoku_core::sizes::{Shape, SizedGrid, Symbols};

use crate::commands::flags::{LayoutArgs, ProgressArg};
use crate::error::Error;
use crate::input::sized::{self, SizedRecord};
use crate::input::{self, InputError, Keep, ReadOptions, Record};
use crate::job::config::Environment;
use crate::kept::{KeptColumn, KeptValue};
use crate::output::format::require_csv;
use crate::output::progress::{Draw, ProgressOptions};
use crate::output::{kept_names, Destination, FILE_COLUMN, STDIO};
use crate::process::file_guard::FileGuard;
use crate::process::interrupt::{Interrupt, Signal, POLL};

pub use table::TableWriter;

/// The error of `canon` and `augment` on a record of another size than
/// 9x9 (issue 33), or a 9x9 with other boxes than 3x3 (`--box 1x9`):
/// their symmetries and canonical forms are those of 9x9 grids with 3x3
/// boxes, so the run stops, exit 2, naming the record (`NAME:LINE`) and
/// its size or boxes.
pub fn other_size(command: &str, name: &str, line: u64, shape: Shape) -> Error {
    let side = shape.side();
    let message = if side == 9 {
        format!(
            "{name}:{line}: a 9x9 grid with {shape} boxes: {command} takes 9x9 grids with 3x3 \
             boxes only (`solve` and `generate` take any boxes)"
        )
    } else {
        format!(
            "{name}:{line}: a {side}x{side} grid: {command} takes 9x9 grids only \
             (`solve` and `generate` take every size)"
        )
    };
    Error::Usage(message)
}

/// Refuses `--box` for 9x9 grids with other boxes than 3x3 (`1x9`, `9x1`)
/// given to `command` (`canon`, `augment`), whose symmetries are those of
/// 3x3 boxes: every 9x9 record would otherwise be taken with 3x3 boxes,
/// the option ignored.
///
/// # Errors
/// [`Error::Usage`] naming the option.
pub fn refuse_nine_boxes(command: &str, layout: &LayoutArgs) -> Result<(), Error> {
    match layout
        .box_shape
        .filter(|s| s.side() == 9 && s.box_rows() != 3)
    {
        Some(shape) => Err(Error::Usage(format!(
            "--box {shape}: {command} takes 9x9 grids with 3x3 boxes only (`solve` and \
             `generate` take any boxes)"
        ))),
        None => Ok(()),
    }
}

/// How `canon` and `augment` write a record's 9x9 grids back: as 81
/// characters (`.` blanks), or, for a 9x9 read in another alphabet (numbered
/// from 0: `3,-1,-1,7,...`), in that alphabet, as `solve` writes its
/// puzzle and solution (`.,2,...,0,...`).
#[derive(Clone, Debug)]
pub enum Notation {
    /// 81 characters, `.` blanks.
    Line,
    /// The record's alphabet, with its grid's shape.
    Alphabet(Shape, Symbols),
}

impl Notation {
    /// `grid` written in this notation.
    pub fn write(&self, grid: &Grid) -> String {
        match self {
            Notation::Line => grid.to_line(),
            Notation::Alphabet(shape, symbols) => {
                match SizedGrid::from_cells(*shape, grid.cells().to_vec()) {
                    Some(sized) => symbols.format(&sized, b'.'),
                    None => grid.to_line(),
                }
            }
        }
    }
}

/// A record's 9x9 grid for `canon` and `augment`.
// Returned and matched at once, never kept: boxing the grids to shrink the
// other variants would cost an allocation per record instead.
#[allow(clippy::large_enum_variant)]
pub enum Nine {
    /// The puzzle, the given solution, and how they are written back.
    Grids(Grid, Option<Grid>, Notation),
    /// Why the record holds no puzzle (a `malformed` row).
    Malformed(String),
    /// The shape of a grid of another size, or of a 9x9 with other boxes,
    /// and the record's message for it: the run stops ([`other_size`]).
    Other(Shape, String),
}

impl Nine {
    /// The 9x9 grid of `record`'s puzzle and given solution: a 9x9 record,
    /// or one read as a grid of another size that is a 9x9 with 3x3 boxes
    /// in another alphabet ([`sized::nine_grids`]: numbered from 0), which
    /// is taken as any 9x9 is and written back in its alphabet.
    pub fn of(
        puzzle: Result<Grid, String>,
        solution: Option<Grid>,
        sized: Option<Box<SizedRecord>>,
    ) -> Nine {
        match (puzzle, sized) {
            (Ok(grid), _) => Nine::Grids(grid, solution, Notation::Line),
            (Err(why), Some(record)) => match sized::nine_grids(&record) {
                Some((grid, solution)) => {
                    let notation = Notation::Alphabet(record.puzzle.shape(), record.symbols);
                    Nine::Grids(grid, solution, notation)
                }
                None => Nine::Other(record.puzzle.shape(), why),
            },
            (Err(why), None) => Nine::Malformed(why),
        }
    }
}

/// The shape of `record`'s grid when `canon` and `augment` cannot take
/// it: a grid of another size than 9x9, or a 9x9 with other boxes than 3x3
/// (a 9x9 in another alphabet they take); `None` for a 9x9 record,
/// malformed or not. The look before the run ([`refuse_other_sizes`])
/// asks it; the run asks [`Nine::of`], by the same [`sized::nine_grids`].
pub fn other_shape(record: &Record) -> Option<Shape> {
    match (&record.puzzle, &record.sized) {
        (Err(_), Some(sized)) if sized::nine_grids(sized).is_none() => Some(sized.puzzle.shape()),
        _ => None,
    }
}

/// Refuses, before anything is written, a `canon` or `augment` run whose
/// inputs hold a record of another size than 9x9: the first one, as
/// [`other_size`] names it, so that a refused run leaves the output file as
/// it was (the run itself stopped at that record, after the output had
/// replaced the previous one). Only inputs that are all regular files are
/// read here, once more (stdin and pipes can be read only once: the run
/// stops at such a record, as before); a read error or a signal ends the
/// look early and is left to the run.
///
/// # Errors
/// [`Error::Usage`] naming the record; [`Error::Input`] when an input
/// cannot be opened again.
pub fn refuse_other_sizes(
    command: &str,
    paths: &[PathBuf],
    names: &[String],
    layout: &LayoutArgs,
    interrupt: &Interrupt,
) -> Result<(), Error> {
    if !input::read_twice(paths) {
        return Ok(());
    }
    let options = layout.read_options(None);
    for (path, name) in paths.iter().zip(names) {
        for record in input::open_path(path)?.records(&options)? {
            if interrupt.is_raised() {
                return Ok(());
            }
            let Ok(record) = record else {
                return Ok(());
            };
            if let Some(shape) = other_shape(&record) {
                return Err(other_size(command, name, record.line, shape));
            }
        }
    }
    Ok(())
}

/// The table of a `canon` or `augment` run over the inputs `paths`: when
/// they can all be read twice, [`refuse_other_sizes`] has looked through
/// them and the table is written in place; else (stdin, a pipe) a record
/// of another size may still refuse the run part way, so it is written
/// under a temporary name ([`TableWriter::create_staged`]) that such a
/// refusal removes, leaving the output file as it was.
///
/// # Errors
/// As for [`TableWriter::create`].
pub fn sized_table(
    output: &Destination,
    header: &[&str],
    paths: &[PathBuf],
) -> Result<TableWriter, Error> {
    match input::read_twice(paths) {
        true => TableWriter::create(output, header),
        false => TableWriter::create_staged(output, header),
    }
}

/// Items per chunk handed to the thread pool.
pub const CHUNK_ITEMS: usize = 1024;

/// The output and run options every data-set subcommand takes.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// The output CSV; `-` or absent means stdout. A name ending in `.gz` or
    /// `.zst` is written compressed.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Worker threads [default: all cores].
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,

    /// No progress bar and no summary (errors still go to stderr).
    #[arg(long)]
    pub quiet: bool,

    /// Progress bar on stderr: `auto` shows it only when stderr is a terminal
    /// and `--quiet` is absent.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ProgressArg::Auto)]
    pub progress: ProgressArg,
}

/// [`RunArgs`] resolved against the environment.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// Where the rows go.
    pub output: Destination,
    /// Worker threads, at least 1.
    pub threads: usize,
    /// How to draw progress.
    pub progress: ProgressOptions,
    /// Print the summary on stderr.
    pub summary: bool,
}

impl RunArgs {
    /// Resolves the flags.
    ///
    /// # Errors
    /// [`Error::Usage`] for `-j 0` or above [`crate::job::config::MAX_THREADS`].
    pub fn settings(&self) -> Result<RunSettings, Error> {
        let env = Environment::detect();
        let threads = match self.threads {
            Some(0) => return Err(Error::Usage("-j/--threads must be at least 1".into())),
            Some(n) => {
                crate::job::config::check_threads(&[n], env.cores)?;
                n
            }
            None => env.cores.max(1),
        };
        let draw = match (self.progress, env.stderr_is_terminal) {
            (ProgressArg::Never, _) | (ProgressArg::Auto, false) => Draw::Off,
            (ProgressArg::Auto, true) if self.quiet => Draw::Off,
            (ProgressArg::Auto | ProgressArg::Always, true) => Draw::Terminal,
            (ProgressArg::Always, false) => Draw::Log,
        };
        let output = Destination::from_arg(self.output.as_deref());
        if let Destination::File { path, .. } = &output {
            require_csv("generate, canon and augment write", Some(path)).map_err(Error::Usage)?;
        }
        Ok(RunSettings {
            output,
            threads,
            progress: ProgressOptions {
                draw,
                color: !env.no_color,
                total_bytes: None,
                kept: 0,
            },
            summary: !self.quiet,
        })
    }
}

/// Refuses an output that is one of `inputs` (`--against` corpora too) by
/// any name, stdin and stdout included (see [`FileGuard`]): creating it
/// would truncate the input before it is read; and an existing output this
/// user may not write ([`Destination::refuse_unwritable`]).
///
/// # Errors
/// [`Error::Guard`] naming both; [`Error::Write`] for an output that may
/// not be written.
pub fn refuse_overwriting(output: &Destination, inputs: &[PathBuf]) -> Result<(), Error> {
    let mut guard = FileGuard::new();
    for input in inputs {
        guard.reads("input", input);
    }
    guard.writes("-o", output.name());
    guard.check()?;
    output.refuse_unwritable()
}

/// Opened inputs, ready to read.
pub struct Opened {
    /// Each input's records, in order.
    pub records: Vec<input::Records>,
    /// The kept columns (`--keep`, `--keep-all`) of every record, in order:
    /// every input's, as `solve` keeps them ([`input::layout`]).
    pub kept: Vec<KeptColumn>,
    /// The inputs' total size in bytes, when every size is known.
    pub size: Option<u64>,
    /// Each input's raw byte counter, for the progress bar.
    pub counters: Vec<Arc<AtomicU64>>,
}

/// The records of several inputs as one stream, each tagged with its
/// input's index.
pub type Tagged = Box<dyn Iterator<Item = Result<(usize, Record), InputError>> + Send>;

impl Opened {
    /// Opens every input, in order, by its path (any name the operating
    /// system accepts), each record keeping the columns of `keep`; the
    /// first input that cannot be opened (or whose layout is refused, or
    /// lacks a kept column) fails.
    ///
    /// # Errors
    /// [`Error::Input`].
    pub fn open(paths: &[PathBuf], layout: &LayoutArgs, keep: &Keep) -> Result<Opened, Error> {
        let mut opened = Opened {
            records: Vec::new(),
            kept: Vec::new(),
            size: Some(0),
            counters: Vec::new(),
        };
        let options = ReadOptions {
            keep: keep.clone(),
            ..layout.read_options(None)
        };
        for path in paths {
            let input = input::open_path(path)?;
            opened.size = opened.size.zip(input.size()).map(|(a, b)| a + b);
            opened.counters.push(input.consumed());
            opened.records.push(input.records(&options)?);
        }
        let formats: Vec<(&str, input::Format)> = opened
            .records
            .iter()
            .map(|r| (r.name(), r.format()))
            .collect();
        input::options_apply(&formats, &options)?;
        let own: Vec<(&str, Vec<KeptColumn>)> = opened
            .records
            .iter()
            .map(|r| (r.name(), r.kept_columns()))
            .collect();
        let kept = input::layout(keep, &own)?;
        drop(own);
        for (records, map) in opened.records.iter_mut().zip(kept.maps) {
            if let Some(map) = map {
                records.set_kept_map(map);
            }
        }
        opened.kept = kept.columns;
        Ok(opened)
    }

    /// The header of a table of `columns` (with `file` first for several
    /// inputs) and then the kept columns, named as `solve` names them
    /// ([`kept_names`]).
    pub fn header(&self, several: bool, columns: &[&'static str]) -> Vec<String> {
        let table: Vec<&str> = several
            .then_some(FILE_COLUMN)
            .into_iter()
            .chain(columns.iter().copied())
            .collect();
        let kept = kept_names(&table, &self.kept);
        table.into_iter().map(String::from).chain(kept).collect()
    }

    /// Every record of every input, in order, tagged with its input's index.
    pub fn tagged(records: Vec<input::Records>) -> Tagged {
        Box::new(
            records
                .into_iter()
                .enumerate()
                .flat_map(|(i, records)| records.map(move |r| r.map(|r| (i, r)))),
        )
    }
}

/// The inputs given (stdin when none), and the names that rows and
/// messages give them and then `others` (`--against` corpora), in order.
///
/// # Errors
/// [`Error::Usage`] for stdin named twice, `others` counted;
/// [`Error::Input`] for two different paths with the same name (see
/// [`input::input_names`]).
pub fn input_paths(
    given: &[PathBuf],
    others: &[PathBuf],
) -> Result<(Vec<PathBuf>, Vec<String>), Error> {
    let inputs = if given.is_empty() {
        vec![PathBuf::from(STDIO)]
    } else {
        given.to_vec()
    };
    if inputs
        .iter()
        .chain(others)
        .filter(|p| p.as_os_str() == STDIO)
        .count()
        > 1
    {
        return Err(Error::Usage("stdin (`-`) can be read only once".into()));
    }
    let all: Vec<PathBuf> = inputs.iter().chain(others).cloned().collect();
    let names = input::input_names(&all)?;
    Ok((inputs, names))
}

/// Runs `work` on every item of `items` on a pool of `threads` threads, in
/// chunks of [`CHUNK_ITEMS`], and hands each chunk's results to `sink` in
/// item order on the calling thread. Items are pulled on a thread of their
/// own, at most two chunks ahead, so memory stays bounded and a signal is
/// seen even while an input (stdin) sends nothing.
///
/// `work` returns `None` to say it stopped for the interrupt. Once the
/// interrupt is raised the results finished so far, up to the first gap, go
/// to `sink` and the signal is returned.
///
/// # Errors
/// The first error of `items` (after the chunks before it went to `sink`),
/// of `sink`, or [`Error::Threads`].
pub fn run_ordered<I, T, S>(
    items: impl Iterator<Item = Result<I, InputError>> + Send + 'static,
    threads: usize,
    interrupt: &Interrupt,
    init: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, I) -> Option<T> + Sync + Send,
    mut sink: impl FnMut(Vec<T>) -> Result<(), Error>,
) -> Result<Option<Signal>, Error>
where
    I: Send + 'static,
    T: Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("worker-{i}"))
        .build()
        .map_err(|e| Error::Threads {
            what: format!("{threads} worker threads"),
            cause: e.to_string(),
        })?;
    let (tx, rx) = sync_channel::<Result<Vec<I>, InputError>>(2);
    let stop = interrupt.clone();
    // Never joined: it may be blocked on a stdin that never ends; a closed
    // queue stops it at its next send.
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || {
            let mut chunk = Vec::with_capacity(CHUNK_ITEMS);
            for item in items {
                if stop.is_raised() {
                    return;
                }
                match item {
                    Ok(item) => chunk.push(item),
                    Err(e) => {
                        if !chunk.is_empty() && tx.send(Ok(chunk)).is_err() {
                            return;
                        }
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
                if chunk.len() == CHUNK_ITEMS {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK_ITEMS));
                    if tx.send(Ok(full)).is_err() {
                        return;
                    }
                }
            }
            if !chunk.is_empty() {
                let _ = tx.send(Ok(chunk));
            }
        })
        .map_err(|e| Error::Threads {
            what: "the reader thread".into(),
            cause: e.to_string(),
        })?;
    loop {
        if let Some(signal) = interrupt.signal() {
            return Ok(Some(signal));
        }
        let chunk = match rx.recv_timeout(POLL) {
            Ok(chunk) => chunk?,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(interrupt.signal()),
        };
        let results: Vec<Option<T>> = pool.install(|| {
            chunk
                .into_par_iter()
                .map_init(&init, |state, item| {
                    if interrupt.is_raised() {
                        None
                    } else {
                        work(state, item)
                    }
                })
                .collect()
        });
        let complete = results.iter().all(Option::is_some);
        let done: Vec<T> = results.into_iter().map_while(|r| r).collect();
        if !done.is_empty() {
            sink(done)?;
        }
        if !complete {
            return Ok(Some(interrupt.signal().unwrap_or(Signal::Interrupt)));
        }
    }
}

/// A record's kept values as CSV fields, after a table row's own: each
/// value's bytes ([`KeptValue::bytes`]: empty for null, text that is not
/// UTF-8 as the input held it), as `solve` writes them in CSV.
pub fn kept_fields(kept: &[KeptValue]) -> Vec<KeptField<'_>> {
    kept.iter().map(|value| KeptField(value.bytes())).collect()
}

/// A kept value's CSV field, serialized as its bytes (the CSV writer
/// copies them as they are).
pub struct KeptField<'a>(std::borrow::Cow<'a, [u8]>);

impl serde::Serialize for KeptField<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

/// Formats a count with thousands separators (`12,345`).
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// "1 thread" or "N threads", for the summaries' last words.
pub(crate) fn threads(n: usize) -> String {
    format!("{n} thread{}", if n == 1 { "" } else { "s" })
}

/// Items per second, or 0 for an empty duration.
pub(crate) fn rate(items: u64, seconds: f64) -> u64 {
    if seconds > 0.0 {
        (items as f64 / seconds).round() as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn one_thread_is_singular() {
        assert_eq!(threads(1), "1 thread");
        assert_eq!(threads(2), "2 threads");
    }

    #[test]
    fn ordered_results_for_any_thread_count() {
        for threads in [1, 3] {
            let mut seen = Vec::new();
            let items = (0..5000u64).map(Ok);
            let ending = run_ordered(
                items,
                threads,
                &Interrupt::new(),
                || (),
                |_, x| Some(x * 2),
                |chunk| {
                    seen.extend(chunk);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(ending, None);
            assert_eq!(seen, (0..5000).map(|x| x * 2).collect::<Vec<_>>());
        }
    }

    #[test]
    fn an_input_error_ends_the_run_after_the_items_before_it() {
        let items = (0..10u64).map(|x| {
            if x == 7 {
                Err(InputError::ColumnZero)
            } else {
                Ok(x)
            }
        });
        let mut seen = Vec::new();
        let result = run_ordered(
            items,
            2,
            &Interrupt::new(),
            || (),
            |_, x| Some(x),
            |chunk| {
                seen.extend(chunk);
                Ok(())
            },
        );
        assert!(matches!(result, Err(Error::Input(InputError::ColumnZero))));
        assert_eq!(seen, (0..7).collect::<Vec<_>>());
    }

    #[test]
    fn an_interrupt_keeps_the_finished_start() {
        let interrupt = Interrupt::new();
        let raiser = interrupt.clone();
        let mut seen = Vec::new();
        let ending = run_ordered(
            (0..100u64).map(Ok),
            1,
            &interrupt,
            || (),
            |_, x| {
                if x == 10 {
                    raiser.raise(Signal::Terminate);
                    return None;
                }
                Some(x)
            },
            |chunk| {
                seen.extend(chunk);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(ending, Some(Signal::Terminate));
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
    }
}
