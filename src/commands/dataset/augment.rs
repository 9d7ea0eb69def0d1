//! `augment`: K random equivalent copies of every record, each with its
//! solution moved the same way ([`sudoku_core::transform`]).
//!
//! Columns, exactly: `line,copy,puzzle,solution,transform,status,message`,
//! with `file` first when there are several inputs (written as `solve`
//! writes it, see [`file_field`], so `merge` reads it back) and the kept
//! input columns (`--keep`, `--keep-all`, as `solve` keeps them) after
//! them, every copy of a record with the record's values. `copy` counts from 1
//! (0 is the original, with `--keep-original`); `transform` is the text
//! form of [`Transform`], from which the copy can be rebuilt. A record that
//! is malformed, invalid, unsolvable or has several solutions gets one row
//! with its status and a message. Copy `k` of the record at `line` of input
//! `i` uses a random stream seeded by `(seed, i, line, k)` alone, so the
//! output is the same for every `-j`. A record's copies are made one at a
//! time as they are written, so memory stays flat in `-n` (which is at most
//! 4,294,967,295, a `u32`; clap refuses more with exit 2).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rand::SeedableRng;
use rand_xorshift::XorShiftRng;
use serde::Serialize;
use sudoku_core::grid::Grid;
use sudoku_core::sizes::Shape;
use sudoku_core::solver::{FastSolver, Limits, Mode, Solver, Status};
use sudoku_core::transform::Transform;

use super::{
    input_paths, kept_fields, rate, refuse_overwriting, run_ordered, thousands, threads, Nine,
    Notation, Opened, RunArgs, Tagged,
};
use crate::commands::flags::{KeepArgs, LayoutArgs};
use crate::error::{Error, Verdict};
use crate::input::Record;
use crate::job::shard::{self, Shard};
use crate::kept::KeptValue;
use crate::output::progress::{Progress, ProgressOptions};
use crate::output::{clean_message, file_field};
use crate::process::interrupt::SignalGuard;
use crate::process::words::noun;

/// The columns, in order (after `file` with several inputs).
pub const COLUMNS: [&str; 7] = [
    "line",
    "copy",
    "puzzle",
    "solution",
    "transform",
    "status",
    "message",
];

/// Options of `augment`.
#[derive(Debug, Args)]
pub struct AugmentArgs {
    /// Puzzle files, read with `solve`'s input rules (text lines, CSV, JSON
    /// Lines or Parquet; gzip and zstd decompressed); `-` or none means
    /// stdin. A solution column (or a later
    /// field holding a complete grid) is used when it fits the puzzle; other
    /// puzzles are solved.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// Random equivalent copies per record.
    #[arg(short = 'n', long = "copies", value_name = "K")]
    pub copies: u32,

    /// The seed: the same seed, record and copy always give the same copy.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Also write each original, as copy 0 (identity transform).
    #[arg(long)]
    pub keep_original: bool,

    /// How the inputs are laid out.
    #[command(flatten)]
    pub layout: LayoutArgs,

    /// The input columns every row keeps.
    #[command(flatten)]
    pub keep: KeepArgs,

    /// Handle only shard K of N: the records whose 0-based number across all
    /// inputs, in order, is K-1 modulo N, as `solve --shard`; each copy is
    /// the same as in a whole run, so `merge` joins the shards' outputs into
    /// the whole run's.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,

    /// Output and run options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The random stream of one copy.
pub fn copy_stream(seed: u64, input: usize, line: u64, copy: u32) -> XorShiftRng {
    let mut key = [0u8; 28];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&(input as u64).to_le_bytes());
    key[16..24].copy_from_slice(&line.to_le_bytes());
    key[24..].copy_from_slice(&copy.to_le_bytes());
    XorShiftRng::seed_from_u64(twox_hash::XxHash3_64::oneshot(&key))
}

/// The rows of one record.
struct Augmented {
    input: usize,
    line: u64,
    /// The copies to make, or the status and message of a record not
    /// augmented.
    copies: Result<Copies, (Status, Option<String>, String)>,
    note: Option<String>,
    /// The shape of a grid of another size than 9x9 (or of a 9x9 with
    /// other boxes), which stops the run.
    other: Option<Shape>,
    /// The record's kept values, in each of its rows.
    kept: Vec<KeptValue>,
}

/// The copies of one solved record, made one at a time as they are
/// written, so that memory does not grow with `-n` (a `Vec` of 4e9 copies
/// asked for 960 GB).
struct Copies {
    puzzle: Grid,
    solution: Grid,
    /// How the record's grids, and so its copies, are written.
    notation: Notation,
    /// The copy numbers: from 0 (the original) or 1, to `-n`.
    numbers: std::ops::RangeInclusive<u32>,
}

impl Copies {
    /// Copy `copy` of the record at `line` of input `input`.
    fn make(&self, seed: u64, input: usize, line: u64, copy: u32) -> Copy {
        let transform = if copy == 0 {
            Transform::IDENTITY
        } else {
            Transform::random(&mut copy_stream(seed, input, line, copy))
        };
        Copy {
            copy,
            puzzle: transform.apply(&self.puzzle),
            solution: transform.apply(&self.solution),
            transform,
        }
    }
}

struct Copy {
    copy: u32,
    puzzle: Grid,
    solution: Grid,
    transform: Transform,
}

/// One output row.
#[derive(Serialize)]
struct Row<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: u64,
    copy: Option<u32>,
    puzzle: Option<String>,
    solution: Option<String>,
    transform: Option<String>,
    status: Status,
    message: Option<String>,
}

fn augment(
    solver: &mut FastSolver,
    (input, record): (usize, Record),
    copies: u32,
    keep_original: bool,
) -> Augmented {
    let Record {
        line,
        puzzle,
        solution: given,
        sized,
        kept,
        ..
    } = record;
    let out = |copies, note, other| Augmented {
        input,
        line,
        copies,
        note,
        other,
        kept,
    };
    let (puzzle, given, notation) = match Nine::of(puzzle, given, sized) {
        Nine::Grids(puzzle, given, notation) => (puzzle, given, notation),
        Nine::Malformed(message) => {
            return out(Err((Status::Malformed, None, message)), None, None)
        }
        Nine::Other(shape, message) => {
            return out(Err((Status::Malformed, None, message)), None, Some(shape))
        }
    };
    let mut note = None;
    let solution = match given {
        Some(s) if s.is_solution_of(&puzzle) => s,
        given => {
            if given.is_some() {
                note = Some("the given solution does not fit the puzzle: solved".into());
            }
            let outcome = solver.solve(&puzzle, Mode::Unique, &Limits::default());
            match (outcome.status, outcome.solution) {
                (Status::Solved, Some(s)) => s,
                (status, _) => {
                    let message = match status {
                        Status::Multiple => "several solutions: not augmented".into(),
                        Status::Unsolvable => "no solution: not augmented".into(),
                        _ => outcome.message.unwrap_or_else(|| "not augmented".into()),
                    };
                    let puzzle = notation.write(&puzzle);
                    return out(Err((status, Some(puzzle), message)), note, None);
                }
            }
        }
    };
    let copies = Copies {
        puzzle,
        solution,
        notation,
        numbers: u32::from(!keep_original)..=copies,
    };
    out(Ok(copies), note, None)
}

/// How many copies of one record are written between two looks at the
/// interrupt (a record's copies can take hours: `-n 4000000000`).
const STOP_EVERY: u32 = 1 << 16;

/// Counts for the summary.
#[derive(Debug, Default)]
struct Tally {
    records: u64,
    rows: u64,
    copies: u64,
    by_status: [u64; Status::ALL.len()],
}

/// Runs `augment`.
///
/// # Errors
/// [`Error::Usage`] for bad flags; [`Error::Input`] when an input cannot be
/// opened or read, or two inputs would have the same name in rows; [`Error::Write`] or [`Error::BrokenPipe`] when the rows
/// cannot be written.
pub fn run(args: &AugmentArgs) -> Result<Verdict, Error> {
    let settings = args.run.settings()?;
    super::refuse_nine_boxes("augment", &args.layout)?;
    let started = Instant::now();
    let (inputs, names) = input_paths(&args.inputs, &[])?;
    refuse_overwriting(&settings.output, &inputs)?;
    let (_signals, interrupt) = SignalGuard::install().map_err(Error::Signals)?;
    let opened = Opened::open(&inputs, &args.layout, &args.keep.keep())?;
    super::refuse_other_sizes("augment", &inputs, &names, &args.layout, &interrupt)?;
    let several = inputs.len() > 1;
    // As `solve` writes them, which `merge` reads back.
    let files: Vec<String> = names.iter().map(|n| file_field(n).into_owned()).collect();
    let header = opened.header(several, &COLUMNS);
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut writer = super::sized_table(&settings.output, &header, &inputs)?;
    let progress = Progress::start(
        &ProgressOptions {
            total_bytes: opened.size,
            ..settings.progress.clone()
        },
        opened.counters,
    );
    let mut tally = Tally::default();
    let (copies, seed, keep) = (args.copies, args.seed, args.keep_original);
    let records = Opened::tagged(opened.records);
    let records: Tagged = match args.shard {
        Some(shard) => Box::new(shard::keep(records, shard, Default::default(), None)),
        None => records,
    };
    let ending = run_ordered(
        records,
        settings.threads,
        &interrupt,
        FastSolver::new,
        |solver, item| Some(augment(solver, item, copies, keep)),
        |chunk| {
            for done in chunk {
                if let Some(shape) = done.other {
                    return Err(super::other_size(
                        "augment",
                        &names[done.input],
                        done.line,
                        shape,
                    ));
                }
                tally.records += 1;
                let file = several.then(|| files[done.input].as_str());
                let kept = kept_fields(&done.kept);
                match done.copies {
                    Ok(list) => {
                        tally.by_status[0] += 1;
                        for copy in list.numbers.clone() {
                            if copy % STOP_EVERY == 0 && interrupt.is_raised() {
                                // run_ordered returns the signal.
                                return Ok(());
                            }
                            let c = list.make(seed, done.input, done.line, copy);
                            tally.rows += 1;
                            tally.copies += u64::from(c.copy > 0);
                            let row = Row {
                                file,
                                line: done.line,
                                copy: Some(c.copy),
                                puzzle: Some(list.notation.write(&c.puzzle)),
                                solution: Some(list.notation.write(&c.solution)),
                                transform: Some(c.transform.to_string()),
                                status: Status::Solved,
                                message: done.note.clone(),
                            };
                            writer.row(&(&row, &kept))?;
                        }
                    }
                    Err((status, puzzle, message)) => {
                        if let Some(k) = Status::ALL.iter().position(|&s| s == status) {
                            tally.by_status[k] += 1;
                        }
                        tally.rows += 1;
                        let row = Row {
                            file,
                            line: done.line,
                            copy: None,
                            puzzle,
                            solution: None,
                            transform: None,
                            status,
                            message: Some(clean_message(&message)),
                        };
                        writer.row(&(&row, &kept))?;
                    }
                }
            }
            writer.flush()?;
            progress.update(tally.records);
            Ok(())
        },
    );
    progress.finish();
    if let Err(refused @ Error::Usage(_)) = ending {
        // A record of another size (the one usage error a chunk returns).
        writer.discard();
        return Err(refused);
    }
    let interrupted = writer.close(ending)?;
    let malformed = tally.by_status[4];
    if settings.summary {
        let seconds = started.elapsed().as_secs_f64();
        let others: Vec<String> = Status::ALL
            .iter()
            .zip(tally.by_status)
            .skip(1)
            .filter(|(_, n)| *n > 0)
            .map(|(s, n)| format!("{} {s}", thousands(n)))
            .collect();
        crate::stderrln!(
            "augment: {} {}{}, {} {} ({} {}){}{} in {seconds:.2} s \
             ({} records/s, {} copies/s on {})",
            thousands(tally.records),
            noun(tally.records, "record", "records"),
            if interrupted.is_some() {
                " (interrupted)"
            } else {
                ""
            },
            thousands(tally.copies),
            noun(tally.copies, "copy", "copies"),
            thousands(tally.rows),
            noun(tally.rows, "row", "rows"),
            if others.is_empty() {
                ""
            } else {
                ", not augmented: "
            },
            others.join(", "),
            thousands(rate(tally.records, seconds)),
            thousands(rate(tally.copies, seconds)),
            threads(settings.threads),
        );
    }
    Ok(if let Some(signal) = interrupted {
        Verdict::Interrupted(signal)
    } else if malformed > 0 {
        Verdict::Failures
    } else {
        Verdict::Clean
    })
}
