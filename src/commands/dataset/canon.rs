//! `canon`: the minlex form of every record ([`sudoku_core::minlex`]), with
//! duplicates inside the inputs and leaks from `--against` corpora.
//!
//! Columns, exactly: `line,puzzle,canonical,duplicate_of,against,message`,
//! with `file` first when there are several inputs and the kept input
//! columns (`--keep`, `--keep-all`, as `solve` keeps them) after them;
//! `--dedupe` writes the first record of each class, with its values. `canonical` uses `0`
//! blanks; `duplicate_of` names the first earlier record of the same class
//! (`line`, or `file:line` with several inputs); `against` names the first
//! record of an `--against` corpus in the class, as `file:line`. Files are
//! named as `solve` names them: any name the system accepts, bytes that
//! are not UTF-8 shown as `\u{FFFD}`, and a field starting with `=`, `+`,
//! `-`, `@` or `'` gets a `'` in front (see [`file_field`]).
//!
//! # Seen forms
//! Each distinct form is kept as one 16-byte slot: 72 bits of its XXH3-128
//! hash and the position (input, line) of its first record. Two different
//! forms share 72 bits with probability about n^2 / 2^73 for n distinct
//! forms: 4 x 10^-8 for 20 million, 10^-4 for a billion; such a collision
//! would report a false duplicate. A hash table of 20 million slots takes
//! about 550 MB (up to about 820 MB while it grows).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;
use sudoku_core::grid::Grid;
use sudoku_core::minlex::{form_line, Canonicalizer};
use sudoku_core::sizes::Shape;

use super::{
    input_paths, kept_fields, rate, refuse_overwriting, run_ordered, thousands, threads, Nine,
    Opened, RunArgs,
};
use crate::commands::flags::{KeepArgs, LayoutArgs};
use crate::error::{Error, Verdict};
use crate::input::{Keep, Record};
use crate::kept::KeptValue;
use crate::output::progress::{Progress, ProgressOptions};
use crate::output::{clean_message, file_field};
use crate::process::interrupt::SignalGuard;
use crate::process::words::noun;

/// The columns, in order (after `file` with several inputs).
pub const COLUMNS: [&str; 6] = [
    "line",
    "puzzle",
    "canonical",
    "duplicate_of",
    "against",
    "message",
];

/// Options of `canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    /// Puzzle files, read with `solve`'s input rules (text lines, CSV, JSON
    /// Lines or Parquet; gzip and zstd decompressed); `-` or none means
    /// stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// Write only the first record of each equivalence class.
    #[arg(long)]
    pub dedupe: bool,

    /// A corpus (a training set, say) to look every record up in: a record
    /// equivalent to one of its records is a leak (column `against`, exit
    /// code 1). Repeatable.
    #[arg(long, value_name = "FILE")]
    pub against: Vec<PathBuf>,

    /// How the inputs are laid out.
    #[command(flatten)]
    pub layout: LayoutArgs,

    /// The input columns every row keeps (not the `--against` corpora's).
    #[command(flatten)]
    pub keep: KeepArgs,

    /// Output and run options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Where a record is: its input (index into the names) and line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Position {
    input: usize,
    line: u64,
}

/// Bits of the slot kept for the hash; the rest hold the position.
const HASH_BITS: u32 = 72;
/// Bits for the line number (about 10^12 lines).
const LINE_BITS: u32 = 40;

/// One seen form: 72 hash bits, then 16 bits of input index and 40 of line.
/// Equality and hashing look at the hash bits only.
#[derive(Clone, Copy, Debug)]
struct Slot(u128);

impl Slot {
    const HASH_MASK: u128 = (1 << HASH_BITS) - 1;

    fn new(hash: u128, at: Position) -> Slot {
        let position = (at.input as u128) << LINE_BITS | u128::from(at.line);
        Slot(hash & Slot::HASH_MASK | position << HASH_BITS)
    }

    fn position(self) -> Position {
        let position = self.0 >> HASH_BITS;
        Position {
            input: (position >> LINE_BITS) as usize,
            line: (position & ((1 << LINE_BITS) - 1)) as u64,
        }
    }
}

impl PartialEq for Slot {
    fn eq(&self, other: &Slot) -> bool {
        (self.0 ^ other.0) & Slot::HASH_MASK == 0
    }
}

impl Eq for Slot {}

impl Hash for Slot {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0 as u64);
    }
}

/// Passes a slot's hash bits through: they are already uniform.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The distinct forms seen, each with the position of its first record.
#[derive(Default)]
struct Forms(HashSet<Slot, BuildHasherDefault<PassThrough>>);

impl Forms {
    /// Records `hash` at `at` unless it is known; returns the first position
    /// of a known form.
    fn first_or_insert(&mut self, hash: u128, at: Position) -> Option<Position> {
        let slot = Slot::new(hash, at);
        match self.0.get(&slot) {
            Some(first) => Some(first.position()),
            None => {
                self.0.insert(slot);
                None
            }
        }
    }

    fn get(&self, hash: u128) -> Option<Position> {
        let probe = Slot::new(hash, Position { input: 0, line: 0 });
        self.0.get(&probe).map(|s| s.position())
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// One canonicalised record.
struct Canoned {
    at: Position,
    /// The puzzle as the `puzzle` column writes it ([`Notation`]).
    puzzle: Option<String>,
    /// The form and its hash, or the message saying why there is none.
    form: Result<(Grid, u128), String>,
    /// The shape of a grid of another size than 9x9 (or of a 9x9 with
    /// other boxes), which stops the run.
    other: Option<Shape>,
    /// The record's kept values.
    kept: Vec<KeptValue>,
}

fn canonicalise(canon: &mut Canonicalizer, (input, record): (usize, Record)) -> Canoned {
    let Record {
        line,
        puzzle,
        sized,
        kept,
        ..
    } = record;
    let at = Position { input, line };
    let (grid, notation) = match Nine::of(puzzle, None, sized) {
        Nine::Grids(grid, _, notation) => (grid, notation),
        Nine::Malformed(message) => {
            return Canoned {
                at,
                puzzle: None,
                form: Err(message),
                other: None,
                kept,
            }
        }
        Nine::Other(shape, message) => {
            return Canoned {
                at,
                puzzle: None,
                form: Err(message),
                other: Some(shape),
                kept,
            }
        }
    };
    let form = match canon.minlex(&grid) {
        Some(form) => Ok((form, twox_hash::XxHash3_128::oneshot(&form_line(&form)))),
        None => Err(match grid.first_conflict() {
            Some(conflict) => format!("invalid: {conflict}"),
            None => "invalid grid".to_string(),
        }),
    };
    Canoned {
        at,
        puzzle: Some(notation.write(&grid)),
        form,
        other: None,
        kept,
    }
}

/// One output row.
#[derive(Serialize)]
struct Row<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: u64,
    puzzle: Option<String>,
    canonical: Option<String>,
    duplicate_of: Option<String>,
    against: Option<String>,
    message: Option<String>,
}

/// Counts for the summary.
#[derive(Debug, Default)]
struct Tally {
    records: u64,
    malformed: u64,
    duplicates: u64,
    leaks: u64,
    against_records: u64,
    against_malformed: u64,
}

/// Runs `canon`.
///
/// # Errors
/// [`Error::Usage`] for bad flags (stdin named twice, an output that is an
/// input); [`Error::Input`] when an input cannot be opened or read, or two
/// inputs would have the same name in rows;
/// [`Error::Write`] or [`Error::BrokenPipe`] when the rows cannot be
/// written.
pub fn run(args: &CanonArgs) -> Result<Verdict, Error> {
    let settings = args.run.settings()?;
    super::refuse_nine_boxes("canon", &args.layout)?;
    let started = Instant::now();
    let (inputs, mut names) = input_paths(&args.inputs, &args.against)?;
    let against_names = names.split_off(inputs.len());
    let all: Vec<PathBuf> = inputs.iter().chain(&args.against).cloned().collect();
    refuse_overwriting(&settings.output, &all)?;
    let (_signals, interrupt) = SignalGuard::install().map_err(Error::Signals)?;
    let against_inputs = Opened::open(&args.against, &args.layout, &Keep::Nothing)?;
    let main_inputs = Opened::open(&inputs, &args.layout, &args.keep.keep())?;
    super::refuse_other_sizes(
        "canon",
        &args.against,
        &against_names,
        &args.layout,
        &interrupt,
    )?;
    super::refuse_other_sizes("canon", &inputs, &names, &args.layout, &interrupt)?;
    let several = inputs.len() > 1;
    // As `solve` writes them: a name like a formula gets a `'` in front.
    let files: Vec<String> = names.iter().map(|n| file_field(n).into_owned()).collect();
    let header = main_inputs.header(several, &COLUMNS);
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut writer = super::sized_table(&settings.output, &header, &all)?;
    let progress = Progress::start(
        &ProgressOptions {
            total_bytes: against_inputs
                .size
                .zip(main_inputs.size)
                .map(|(a, b)| a + b),
            ..settings.progress.clone()
        },
        against_inputs
            .counters
            .into_iter()
            .chain(main_inputs.counters)
            .collect(),
    );
    let mut tally = Tally::default();

    // The --against corpora first: their forms, each with its first record.
    let against_started = Instant::now();
    let mut against_seconds = 0.0;
    let mut against = Forms::default();
    let mut seen = Forms::default();
    let ending = run_ordered(
        Opened::tagged(against_inputs.records),
        settings.threads,
        &interrupt,
        Canonicalizer::new,
        |canon, item| Some(canonicalise(canon, item)),
        |chunk| {
            for done in chunk {
                if let Some(shape) = done.other {
                    let name = &against_names[done.at.input];
                    return Err(super::other_size("canon", name, done.at.line, shape));
                }
                tally.against_records += 1;
                match done.form {
                    Ok((_, hash)) => {
                        against.first_or_insert(hash, done.at);
                    }
                    Err(_) => tally.against_malformed += 1,
                }
            }
            progress.update(tally.against_records);
            Ok(())
        },
    );
    let ending = match ending {
        Ok(None) => {
            against_seconds = against_started.elapsed().as_secs_f64();
            run_ordered(
                Opened::tagged(main_inputs.records),
                settings.threads,
                &interrupt,
                Canonicalizer::new,
                |canon, item| Some(canonicalise(canon, item)),
                |chunk| {
                    for done in chunk {
                        if let Some(shape) = done.other {
                            let name = &names[done.at.input];
                            return Err(super::other_size("canon", name, done.at.line, shape));
                        }
                        let file = several.then(|| files[done.at.input].as_str());
                        let name = |at: Position| match several {
                            true => {
                                file_field(&format!("{}:{}", names[at.input], at.line)).into_owned()
                            }
                            false => at.line.to_string(),
                        };
                        tally.records += 1;
                        let mut row = Row {
                            file,
                            line: done.at.line,
                            puzzle: done.puzzle,
                            canonical: None,
                            duplicate_of: None,
                            against: None,
                            message: None,
                        };
                        match done.form {
                            Ok((form, hash)) => {
                                row.canonical =
                                    Some(form.cells().iter().map(|v| (b'0' + v) as char).collect());
                                row.duplicate_of = seen.first_or_insert(hash, done.at).map(name);
                                row.against = against.get(hash).map(|at| {
                                    file_field(&format!("{}:{}", against_names[at.input], at.line))
                                        .into_owned()
                                });
                            }
                            Err(message) => {
                                tally.malformed += 1;
                                row.message = Some(clean_message(&message));
                            }
                        }
                        tally.duplicates += u64::from(row.duplicate_of.is_some());
                        tally.leaks += u64::from(row.against.is_some());
                        if !(args.dedupe && row.duplicate_of.is_some()) {
                            writer.row(&(&row, kept_fields(&done.kept)))?;
                        }
                    }
                    writer.flush()?;
                    progress.update(tally.against_records + tally.records);
                    Ok(())
                },
            )
        }
        other => other,
    };
    progress.finish();
    if let Err(refused @ Error::Usage(_)) = ending {
        // A record of another size (the one usage error a chunk returns).
        writer.discard();
        return Err(refused);
    }
    let interrupted = writer.close(ending)?;
    if settings.summary {
        let seconds = started.elapsed().as_secs_f64();
        let counts = Counts {
            tally: &tally,
            classes: seen.len() as u64,
            against_classes: against.len() as u64,
        };
        let times = Times {
            seconds,
            against_seconds,
            threads: settings.threads,
        };
        let interrupted = interrupted.is_some();
        crate::stderr!("{}", summary(&counts, &against_names, &times, interrupted));
    }
    // A leak guard that had nothing to compare fails, as `check` does when
    // it read no puzzle: a CI job pointed at an empty or wrong file.
    let unguarded = !args.against.is_empty()
        && interrupted.is_none()
        && (against.len() == 0 || seen.len() == 0);
    if unguarded {
        let empty = if against.len() == 0 {
            format!("--against {}", against_names.join(", "))
        } else {
            format!("the inputs ({})", names.join(", "))
        };
        crate::stderrln!(
            "sudoku-batch: warning: canon: {empty} held no puzzle with a form: nothing was \
             compared for leaks (exit 1)"
        );
    }
    Ok(if let Some(signal) = interrupted {
        Verdict::Interrupted(signal)
    } else if tally.malformed + tally.against_malformed > 0 || tally.leaks > 0 || unguarded {
        Verdict::Failures
    } else {
        Verdict::Clean
    })
}

/// What the summary counts.
struct Counts<'a> {
    tally: &'a Tally,
    /// Distinct forms among the inputs' records.
    classes: u64,
    /// Distinct forms among the `--against` records.
    against_classes: u64,
}

/// How long the run took.
struct Times {
    /// The whole run, seconds.
    seconds: f64,
    /// The part spent reading the `--against` corpora, seconds.
    against_seconds: f64,
    threads: usize,
}

/// The summary's lines: the inputs' counts and rate (their records over
/// the time spent on them, so that a large `--against` corpus does not
/// inflate it), then the `--against` corpora's own, when there are any.
fn summary(
    counts: &Counts<'_>,
    against_names: &[String],
    times: &Times,
    interrupted: bool,
) -> String {
    let tally = counts.tally;
    let main_seconds = times.seconds - times.against_seconds;
    let counted =
        |n: u64, one: &str, many: &str| format!("{} {}", thousands(n), noun(n, one, many));
    let mut out = format!(
        "canon: {}{}, {}, {}, {}, {} malformed in {:.2} s ({}/s on {})\n",
        counted(tally.records, "record", "records"),
        if interrupted { " (interrupted)" } else { "" },
        counted(counts.classes, "distinct class", "distinct classes"),
        counted(tally.duplicates, "duplicate", "duplicates"),
        counted(tally.leaks, "leak", "leaks"),
        thousands(tally.malformed),
        times.seconds,
        thousands(rate(tally.records, main_seconds)),
        threads(times.threads),
    );
    if !against_names.is_empty() {
        out.push_str(&format!(
            "  against {}: {}, {}, {} malformed, read in {:.2} s ({}/s)\n",
            against_names.join(", "),
            counted(tally.against_records, "record", "records"),
            counted(counts.against_classes, "distinct class", "distinct classes"),
            thousands(tally.against_malformed),
            times.against_seconds,
            thousands(rate(tally.against_records, times.against_seconds)),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_counts_the_inputs_records_over_their_own_time() {
        let tally = Tally {
            records: 1_000,
            leaks: 3,
            against_records: 81_000,
            ..Tally::default()
        };
        let counts = Counts {
            tally: &tally,
            classes: 990,
            against_classes: 9_000,
        };
        let times = Times {
            seconds: 10.0,
            against_seconds: 8.0,
            threads: 2,
        };
        let text = summary(&counts, &["train.csv".to_string()], &times, false);
        assert_eq!(
            text,
            "canon: 1,000 records, 990 distinct classes, 0 duplicates, 3 leaks, 0 malformed \
             in 10.00 s (500/s on 2 threads)\n  \
             against train.csv: 81,000 records, 9,000 distinct classes, 0 malformed, \
             read in 8.00 s (10,125/s)\n"
        );
        let alone = Times {
            against_seconds: 0.0,
            ..times
        };
        let text = summary(&counts, &[], &alone, true);
        assert_eq!(
            text,
            "canon: 1,000 records (interrupted), 990 distinct classes, 0 duplicates, 3 leaks, \
             0 malformed in 10.00 s (100/s on 2 threads)\n"
        );
    }
}
