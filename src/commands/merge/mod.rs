//! The `merge` subcommand: joins the outputs of the shards of a run
//! (`--shard K/N`) into the one output a single run would have written,
//! and, for results, its summary.
//!
//! - Any CSV table sudoku-batch writes per record merges: the results CSV
//!   of `solve` and `check`, and tables such as `augment`'s, whose rows are
//!   ordered by `file` (with several inputs), `line` and, when a record has
//!   several rows, `copy`; and JSON Lines and Parquet results, each row
//!   read as the CSV record of the same row ([`RecordReader::jsonl`],
//!   [`RecordReader::parquet`]: a kept value of Parquet as CSV writes its
//!   type, so a JSON number kept from JSON Lines input comes back as its
//!   value's shortest digits).
//! - `-o`'s name chooses the format written, as `solve`'s does: CSV, or
//!   JSON Lines (`.jsonl`, `.ndjson`) from JSON Lines parts only, every row
//!   as its part wrote it, or Parquet from Parquet parts only, every row as
//!   its part holds it (in the parts' columns and types, written with
//!   `solve`'s Parquet settings). Other parts with a JSON Lines or Parquet
//!   `-o` are refused by name; JSON Lines and Parquet parts merge into CSV,
//!   mixed with CSV parts or not. A JSON Lines part with no row (an empty file) adds nothing.
//! - Rows come out in input order: inputs in `--inputs` order when given,
//!   else in the order their names first appear in the files (see
//!   [`order`]); then by line (and copy). Every row is written as it was
//!   read (the header too), so the merge of N shards is byte-identical to a
//!   single run's output (the `solve_us` column aside; of Parquet, the same
//!   columns, types and values, written by Arrow's writer).
//! - A record with rows in more than one file is refused (exit 2, naming
//!   them): each record belongs to one shard.
//! - With `--inputs`, the inputs are read (not solved) and every record
//!   must have a row (exit 2 naming the first record missing, unless
//!   `--allow-missing`), and every row a record; a results row must hold
//!   the record's puzzle.
//! - The merge streams: each file is read in order, twice when the input
//!   order must be found first, and memory holds one row per file (and one
//!   count per distinct solve time, for exact percentiles).
//! - The merged file is written beside `-o` under a temporary name and
//!   renamed when complete: a merge that fails leaves no partial output.
//!   Where a rename would replace rather than fill `-o` (a named pipe, a
//!   device, a file of several names) it is written in place.
//!
//! `--summary-json` writes the summary of merged results rows (see
//! [`summary`]).

pub mod order;
pub mod summary;

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use sudoku_core::grid::Grid;

use self::summary::{MergedSummary, RunFacts, ShardSummary, Times};
use crate::commands::flags::LayoutArgs;
use crate::error::{Error, Verdict};
use crate::input::{self, inputs_of, InputError, Record, SizedRecord};
use crate::output::claim;
use crate::output::format::{choose, OutputFormat};
use crate::output::read_back::{
    delimiter_name, file_column, header_delimiter, parse_row, Columns, RecordReader, Row,
};
use crate::output::staged::StagedFile;
use crate::output::stats::Tally;
use crate::output::unfit_texts::UnfitTexts;
use crate::output::{
    csv_write_error, file_name, Compression, Destination, ParquetCompression, Sink,
};
use crate::process::file_guard::FileGuard;
use crate::process::interrupt::{Interrupt, Signal, SignalGuard};

/// The options of `merge`.
#[derive(Clone, Debug, Args)]
#[command(group(clap::ArgGroup::new("whole").args(["inputs", "summaries"]).multiple(true)))]
pub struct MergeArgs {
    /// The files to merge, in any order: the shards' results, CSV or JSON
    /// Lines (as `solve -o` writes them; plain, gzip or zstd, by name or
    /// content) or Parquet (a plain file), or other per-record CSV tables
    /// (`augment`).
    #[arg(value_name = "RESULTS", required = true)]
    pub results: Vec<PathBuf>,

    /// The merged results file (`-` for stdout): JSON Lines for a `.jsonl`
    /// or `.ndjson` name (of JSON Lines results only), Parquet for a
    /// `.parquet` name (of Parquet results only), else CSV; a name
    /// ending in `.gz` or `.zst` is written compressed. Written under a temporary name and
    /// renamed at the end, so a failed merge leaves nothing behind (stdout,
    /// a named pipe, a device or a file of several names gets the rows as
    /// they come).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,

    /// Write the summary of the merged rows as JSON to FILE (`-` for
    /// stdout): counts, guesses and exact solve-time percentiles from the
    /// rows; `wall_s`, `puzzles_per_s`, `threads`, `solver` and `mode` are
    /// null unless `--summaries` gives every shard's summary.
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,

    /// The shards' own `--summary-json` files, one per results file, in any
    /// order: they give the merged summary the run's wall time (the longest
    /// shard's), puzzles/s, threads (all shards' together), solver and mode.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub summaries: Vec<PathBuf>,

    /// The original inputs, in order, as given to the shards: read (not
    /// solved) so that every record must have a row (and every row a
    /// record), and the rows come out in this order.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub inputs: Vec<PathBuf>,

    /// How the inputs of `--inputs` are laid out.
    #[command(flatten)]
    pub layout: LayoutArgs,

    /// With `--inputs` or `--summaries`: merge even when some records have
    /// no row, or a shard's summary says a signal stopped it (a partial
    /// merge), with a warning naming the first record or the shard.
    #[arg(long, requires = "whole")]
    pub allow_missing: bool,

    /// How a Parquet merge (`-o NAME.parquet`) is compressed, as `solve
    /// --parquet-compression` takes it: `fast` (the default), `none`,
    /// `snappy` or `zstd`. Only for Parquet output.
    #[arg(long, value_name = "CODEC", value_enum)]
    pub parquet_compression: Option<ParquetCompression>,

    /// No report on stderr (errors and warnings still go there).
    #[arg(long)]
    pub quiet: bool,
}

/// Records named in full when several overlap.
const SHOWN: usize = 10;

/// Runs `merge`: see the module docs. Exit 0 when the merge is written.
///
/// # Errors
/// [`Error::Guard`] when `-o` or `--summary-json` is a file the merge
/// reads, by any name, or they are one file (or both `-`);
/// [`Error::Merge`] when a results file or summary cannot be read or does
/// not fit the others, records overlap, or (with `--inputs`) a record has no
/// row or a row no record; [`Error::Input`] when an input cannot be read,
/// or two `--inputs` would have the same name in rows;
/// [`Error::Write`] when the output cannot be written;
/// [`Error::BrokenPipe`] (exit 0, no message) when `-o -` goes to a pipe
/// its reader closed.
pub fn run(args: &MergeArgs) -> Result<Verdict, Error> {
    // SIGINT and SIGTERM stop the merge at once, even while a read blocks
    // (a part on a pipe): the merge runs on a thread of its own, and a
    // signal removes its temporary file and ends the process.
    let (_signals, interrupt) = SignalGuard::install().map_err(Error::Signals)?;
    let staging = match Destination::from_arg(Some(&args.output)) {
        Destination::Stdout => None,
        Destination::File { path, .. } => StagedFile::beside(&path, "merge"),
    };
    // The merge thread may be blocked for good when a signal comes: this
    // one removes the temporary file then.
    let temporary = staging.as_ref().map(StagedFile::name);
    let work = {
        let (args, interrupt) = (args.clone(), interrupt.clone());
        move || merge(&args, staging, &interrupt)
    };
    match interrupt.wait_for("merge", work) {
        Ok(Ok(merged)) => merged,
        Ok(Err(signal)) => {
            if let Some(temporary) = &temporary {
                temporary.remove();
            }
            Ok(stopped(signal))
        }
        Err(e) => Err(Error::Threads {
            what: "the merge thread".into(),
            cause: e.to_string(),
        }),
    }
}

/// The merge itself (see [`run`]), stopping early when `interrupt` is
/// raised.
fn merge(
    args: &MergeArgs,
    staging: Option<StagedFile>,
    interrupt: &Interrupt,
) -> Result<Verdict, Error> {
    let format = output_format(&args.output)?;
    if args.parquet_compression.is_some() && format != OutputFormat::Parquet {
        return Err(Error::Usage(format!(
            "--parquet-compression is for Parquet output; {} names {format}",
            args.output.display()
        )));
    }
    // One file named twice would have every record in two files: say so.
    for (i, path) in args.results.iter().enumerate() {
        if args.results[..i].contains(path) {
            return Err(Error::Usage(format!(
                "{} is given twice: each results file once",
                path.display()
            )));
        }
    }
    if args.inputs.is_empty() {
        let layout = &args.layout;
        let given = [
            (
                layout.format != crate::commands::flags::FormatArg::Auto,
                "--format",
            ),
            (layout.column.is_some(), "--column"),
            (layout.delimiter != input::Delimiter::Auto, "--delimiter"),
        ];
        if let Some((_, flag)) = given.iter().find(|(given, _)| *given) {
            return Err(Error::Usage(format!(
                "{flag} says how the --inputs are laid out, and no --inputs are given: give \
                 them, or leave {flag} out (the results files are read as the CSV merge \
                 writes)"
            )));
        }
    }
    refuse_overwriting(args)?;
    // One run writes a results file at a time.
    if let Destination::File { path, .. } = Destination::from_arg(Some(&args.output)) {
        claim::refuse_if_written(&path)?;
    }
    // Before any reading: two inputs named alike would take each other's rows.
    let given = input::input_names(&args.inputs)?;
    let summaries = args
        .summaries
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).map_err(|e| merge_error(path, e))?;
            ShardSummary::parse(&text).map_err(|e| merge_error(path, e))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    // A shard a signal stopped wrote only the rows it reached: its part is
    // not a whole shard, whatever else fits.
    let stopped_shards = interrupted_shards(&args.summaries, &summaries);
    if let (Some(first), false) = (stopped_shards.first(), args.allow_missing) {
        return Err(Error::Merge(format!(
            "{first} was interrupted (its summary says so): its rows are not a whole shard; \
             finish it (the same command with --resume) and merge again, or \
             --allow-missing merges what there is"
        )));
    }
    let mut parts = vec![];
    for path in &args.results {
        let part = Part::open(path)?;
        let kind = part.reader.format_name();
        if format == OutputFormat::Jsonl && !part.reader.is_jsonl() {
            return Err(Error::Usage(format!(
                "{} is {kind}, and merge writes JSON Lines (-o {}) from JSON Lines results \
                 only: give -o a .csv name to merge the shards into CSV",
                path.display(),
                args.output.display()
            )));
        }
        if format == OutputFormat::Parquet && !part.reader.is_parquet() {
            return Err(Error::Usage(format!(
                "{} is {kind}, and merge writes Parquet (-o {}) from Parquet results only (a \
                 kept column's type is Parquet's to tell): give -o a .csv name to merge the \
                 shards into CSV",
                path.display(),
                args.output.display()
            )));
        }
        // A JSON Lines shard with no row is an empty file: no header, and
        // nothing to merge.
        if !part.empty {
            parts.push(part);
        }
    }
    // Shards that are all JSON Lines without a row (the shards of an input
    // with no records, or more shards than records) merge into the JSON
    // Lines of no row one run writes; they name no columns, so no CSV
    // header can be written for them.
    if parts.is_empty() && format != OutputFormat::Jsonl {
        return Err(Error::Merge(format!(
            "every results file is JSON Lines without a row, which names no columns: nothing \
             gives {} a CSV header; give -o a .jsonl name to merge them into JSON Lines",
            args.output.display()
        )));
    }
    // CSV parts are written with the delimiter they were read with: the
    // parts of one run have one.
    let delimiters: Vec<(u8, &Path)> = parts
        .iter()
        .filter_map(|p| p.reader.delimiter().map(|d| (d, p.path.as_path())))
        .collect();
    let delimiter = delimiters.first().map_or(b',', |&(d, _)| d);
    if let Some(&(other, b)) = delimiters.iter().find(|(d, _)| *d != delimiter) {
        return Err(Error::Merge(format!(
            "{} separates its fields with {} and {} with {}: the outputs of one run have one \
             delimiter (--output-delimiter)",
            delimiters[0].1.display(),
            delimiter_name(delimiter),
            b.display(),
            delimiter_name(other)
        )));
    }
    let header = parts.first().map(|p| p.header.clone()).unwrap_or_default();
    for part in parts.iter().skip(1) {
        if part.header != header {
            return Err(Error::Merge(format!(
                "{} and {} have different headers: the outputs of one run have the same columns",
                parts[0].path.display(),
                part.path.display()
            )));
        }
    }
    // Parquet parts merge into Parquet as their rows are: their columns'
    // types must be the same too.
    let schema = parts
        .first()
        .and_then(|part| part.reader.parquet_records())
        .map(|rows| Arc::clone(rows.schema()));
    if format == OutputFormat::Parquet {
        let other = parts.iter().skip(1).find(|part| {
            part.reader
                .parquet_records()
                .is_none_or(|rows| Some(rows.schema()) != schema.as_ref())
        });
        if let Some(part) = other {
            return Err(Error::Merge(format!(
                "{} and {} have columns of different types: the outputs of one run have the \
                 same",
                parts[0].path.display(),
                part.path.display()
            )));
        }
    }
    let results = parts.first().is_none_or(|p| p.results.is_some());
    if !results && (args.summary_json.is_some() || !summaries.is_empty()) {
        return Err(Error::Merge(format!(
            "{} is not a results CSV (no `status`, `guesses` or `solve_us` column): a summary \
             is made of results rows",
            parts[0].path.display()
        )));
    }
    let with_file = parts.first().is_some_and(|p| p.keys.file.is_some());
    let names = if !args.inputs.is_empty() {
        if !with_file && !parts.is_empty() && args.inputs.len() > 1 {
            return Err(Error::Merge(format!(
                "the rows have no `file` column, so they are of one input, and --inputs gives {}",
                args.inputs.len()
            )));
        }
        given
    } else if with_file {
        let sequences = parts
            .iter()
            .map(|p| file_sequence(&p.path, &p.keys, interrupt))
            .collect::<Result<Vec<_>, Error>>()?;
        if let Some(signal) = interrupt.signal() {
            return Ok(Verdict::Interrupted(signal));
        }
        order::input_order(&sequences).map_err(Error::Merge)?
    } else {
        summaries
            .first()
            .map(|s| s.inputs.clone())
            .unwrap_or_default()
    };
    // Keyed by the `file` field as written (see `crate::output::file_field`). An input
    // given twice has its name twice: a row is of the first of them it can
    // follow in its file's order.
    let aliases: RefCell<HashMap<Vec<u8>, Vec<usize>>> = RefCell::default();
    let rank = |name: Option<&[u8]>, (line, copy): (u64, u64), last: Option<RowKey>| {
        let Some(name) = name else {
            return Ok(0);
        };
        // The inputs of the same file, however named (`./data/x.txt` for
        // `data/x.txt`), looked up once per name.
        let mut aliases = aliases.borrow_mut();
        let named = aliases.entry(name.to_vec()).or_insert_with(|| {
            let name = file_name(&String::from_utf8_lossy(name)).to_string();
            inputs_of(&names, &name)
        });
        let Some(&first) = named.first() else {
            return Err(format!(
                "`{}` is not one of the inputs ({}): rows name each input as their run \
                 was given it; give --inputs the same files (the same paths, or other \
                 names of the same files)",
                file_name(&String::from_utf8_lossy(name)),
                names.join(", ")
            ));
        };
        Ok(named
            .iter()
            .copied()
            .find(|&i| last.is_none_or(|last| (i, line, copy) > last))
            .unwrap_or(first))
    };
    let place = |(rank, line): RecordKey| match names.get(rank) {
        Some(name) => format!("{name}:{line}"),
        None => format!("line {line}"),
    };

    let mut expected = if args.inputs.is_empty() {
        None
    } else {
        Some(Expected::open(&args.inputs, &args.layout)?)
    };
    let compression = args.parquet_compression.unwrap_or_default();
    let mut out = Output::create(
        &args.output,
        format,
        delimiter,
        schema,
        compression,
        staging,
    )?;
    let outcome = (|| -> Result<Merged, Error> {
        out.write_header(&header)?;
        let mut merged = Merged::default();
        let mut heap = BinaryHeap::new();
        for (i, part) in parts.iter_mut().enumerate() {
            if let Some(key) = part.advance(&rank)? {
                heap.push(Reverse((key, i)));
            }
        }
        // The record of the row written last, and the file it came from.
        let mut last: Option<(RecordKey, usize)> = None;
        while let Some(Reverse((key, i))) = heap.pop() {
            if let Some(signal) = interrupt.signal() {
                merged.stopped = Some(signal);
                return Ok(merged);
            }
            let record = (key.0, key.1);
            match last {
                Some((before, j)) if before == record && j != i => {
                    merged.overlap(record, place(record), &parts[j].path, &parts[i].path);
                }
                Some((before, _)) if before == record => {}
                _ => {
                    if let Some(expected) = &mut expected {
                        let part = &parts[i];
                        expected.pass(
                            record,
                            part.row.as_ref(),
                            &part.path,
                            &place,
                            &mut merged,
                        )?;
                    }
                }
            }
            last = Some((record, i));
            let part = &parts[i];
            out.write(&part.reader)?;
            if format == OutputFormat::Csv {
                let lone = part.reader.lone_surrogates();
                merged.unfit_texts.add_lone_surrogates(key.0, key.1, lone);
            }
            merged.rows += 1;
            if let Some(row) = &part.row {
                merged.tally.add(&row.result);
                if row.result.searched() {
                    merged.times.add(row.result.solve_ns.unwrap_or(0));
                }
            }
            if let Some(next) = parts[i].advance(&rank)? {
                heap.push(Reverse((next, i)));
            }
        }
        if let Some(expected) = &mut expected {
            expected.finish(&place, &mut merged)?;
        }
        Ok(merged)
    })();
    // On any return before `out.finish`, dropping `out` removes its
    // temporary file.
    let merged = outcome?;
    if let Some(signal) = merged.stopped.or_else(|| interrupt.signal()) {
        drop(out);
        return Ok(Verdict::Interrupted(signal));
    }
    merged.refuse_overlaps()?;
    if let Some((first, count)) = &merged.missing {
        if !args.allow_missing {
            return Err(Error::Merge(format!(
                "no file has a row for {first} (the first of {} of the inputs without one); \
                 --allow-missing merges what there is",
                crate::process::words::count(*count, "record", "records")
            )));
        }
        crate::stderrln!(
            "sudoku-batch merge: warning: {} of the inputs {} no row (the first: {first})",
            crate::process::words::count(*count, "record", "records"),
            crate::process::words::noun(*count, "has", "have")
        );
    }
    // As `solve` warns of the values it writes so.
    let columns: Vec<String> = header
        .iter()
        .map(|name| String::from_utf8_lossy(name).into_owned())
        .collect();
    if let Some(warning) = merged.unfit_texts.warning(format, &names, &columns) {
        crate::stderrln!("sudoku-batch merge: warning: {warning}");
    }
    for shard in &stopped_shards {
        crate::stderrln!(
            "sudoku-batch merge: warning: {shard} was interrupted: the merge lacks the rows it \
             did not reach"
        );
    }
    let facts = if summaries.is_empty() {
        None
    } else {
        Some(run_facts(&summaries, &merged.tally, &args.summaries)?)
    };
    let inputs = match (&facts, summaries.first()) {
        (Some(_), Some(s)) if args.inputs.is_empty() => s.inputs.clone(),
        _ => names.clone(),
    };
    // The rows' columns say whether they were rated and timed; shards of no
    // row (JSON Lines) leave it to their summaries.
    let (rated, timed) = match parts.first() {
        Some(first) => {
            let columns = first.results.as_ref();
            (
                columns.is_some_and(|c| c.rating.is_some()),
                columns.is_some_and(|c| c.solved.is_some()),
            )
        }
        None => summaries
            .first()
            .map_or((false, false), |s| (s.rated, s.timed)),
    };
    let summary = MergedSummary::new(inputs, &merged.tally, &merged.times, facts, rated, timed);
    out.finish()?;
    if let Some(path) = &args.summary_json {
        write_summary(path, &summary)?;
    }
    if !args.quiet {
        let what = if results {
            format!(
                ": solved {}, multiple {}, unsolvable {}, invalid {}, malformed {}, timeout {}; \
                 mismatches {}",
                summary.solved,
                summary.multiple,
                summary.unsolvable,
                summary.invalid,
                summary.malformed,
                summary.timeout,
                summary.mismatches
            )
        } else {
            String::new()
        };
        crate::stderrln!(
            "sudoku-batch merge: {} from {} into {}{what}",
            crate::process::words::count(merged.rows, "row", "rows"),
            crate::process::words::count(args.results.len() as u64, "file", "files"),
            args.output.display(),
        );
        if let Some(ratings) = &summary.ratings {
            crate::stderr!("{ratings}");
        }
    }
    Ok(Verdict::Clean)
}

/// A merge stopped by `signal`: nothing written (the temporary file is
/// removed), the verdict the signal's.
fn stopped(signal: Signal) -> Verdict {
    crate::stderrln!(
        "sudoku-batch merge: stopped by {}; nothing was written",
        signal.name()
    );
    Verdict::Interrupted(signal)
}

fn run_facts(
    summaries: &[ShardSummary],
    tally: &Tally,
    paths: &[PathBuf],
) -> Result<RunFacts, Error> {
    summary::run_facts(summaries, tally).map_err(|e| {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        Error::Merge(format!("--summaries {}: {e}", names.join(" ")))
    })
}

/// The shards whose summary says a signal stopped them, as messages name
/// them: `shard 2/3 (s2.json)`, or the summary's name alone when it does
/// not record its shard.
fn interrupted_shards(paths: &[PathBuf], summaries: &[ShardSummary]) -> Vec<String> {
    paths
        .iter()
        .zip(summaries)
        .filter(|(_, summary)| summary.interrupted)
        .map(
            |(path, summary)| match summary.options.as_ref().and_then(|o| o.shard.as_deref()) {
                Some(shard) => format!("shard {shard} ({})", path.display()),
                None => format!("the run of {}", path.display()),
            },
        )
        .collect()
}

fn merge_error(path: &Path, cause: impl std::fmt::Display) -> Error {
    Error::Merge(format!("{}: {cause}", path.display()))
}

/// Refuses an output that is one of the files the merge reads, by any
/// name (see [`FileGuard`]), and an existing `-o` this user may not write
/// ([`Destination::refuse_unwritable`]).
fn refuse_overwriting(args: &MergeArgs) -> Result<(), Error> {
    let mut guard = FileGuard::new();
    for path in &args.results {
        guard.reads("results file", path);
    }
    for path in &args.summaries {
        guard.reads("--summaries", path);
    }
    for input in &args.inputs {
        guard.reads("--inputs", input);
    }
    guard.writes("-o", &args.output);
    if let Some(summary) = &args.summary_json {
        guard.writes("--summary-json", summary);
    }
    guard.check()?;
    Destination::from_arg(Some(&args.output)).refuse_unwritable()
}

/// (input rank, line): a record of the inputs.
type RecordKey = (usize, u64);

/// (input rank, line, copy): the order of rows. `copy` is 0 for tables of
/// one row per record; `augment` writes several, numbered.
type RowKey = (usize, u64, u64);

/// Where the columns that order the rows are: `file` (with several
/// inputs), `line`, and `copy` (several rows per record).
#[derive(Clone, Debug)]
struct KeyColumns {
    file: Option<usize>,
    line: usize,
    copy: Option<usize>,
}

impl KeyColumns {
    /// The key columns of `header` by name and place: sudoku-batch writes
    /// `file` first and `copy` (`augment`) right after `line`, and kept
    /// input columns after its own, so kept columns named `file` or `copy`
    /// (written under those names with one input) are not taken for them.
    fn find(header: &csv::ByteRecord) -> Result<KeyColumns, String> {
        let names: Vec<&[u8]> = header
            .iter()
            .enumerate()
            .map(|(i, name)| match i {
                0 => name.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(name),
                _ => name,
            })
            .collect();
        let line = names
            .iter()
            .position(|name| *name == b"line")
            .ok_or("no `line` column: not a table sudoku-batch writes, one row per record")?;
        Ok(KeyColumns {
            file: file_column(&names, line),
            line,
            copy: (names.get(line + 1) == Some(&&b"copy"[..])).then_some(line + 1),
        })
    }
}

/// One file being merged.
struct Part {
    path: PathBuf,
    reader: RecordReader<Box<dyn Read>>,
    header: csv::ByteRecord,
    keys: KeyColumns,
    /// The results columns, when the file is a results CSV.
    results: Option<Columns>,
    /// The row last read, parsed, when the file is a results CSV.
    row: Option<Row>,
    last: Option<RowKey>,
    /// JSON Lines without a row: no header, no rows.
    empty: bool,
}

/// Opens a results file for reading, as inputs are opened: plain, gzip or
/// zstd (by name or content); CSV, or JSON Lines (by name, or a first line
/// that starts an object) read as the CSV records of the same rows
/// ([`RecordReader::jsonl`]), or a plain Parquet file (by content) read so
/// ([`RecordReader::parquet`]): every column, or only those of `read`.
/// Compressed Parquet is refused by name, other bytes by their header
/// (`merge` joins the CSV tables it writes, whose kept values may hold any
/// bytes: see [`input::open_table`]).
fn open_results(path: &Path, read: Option<&[&str]>) -> Result<RecordReader<Box<dyn Read>>, Error> {
    let wanted = "merge reads the CSV, JSON Lines and Parquet results and the CSV tables \
                  sudoku-batch writes (plain, gzip or zstd; Parquet plain)";
    let (name, opened) = input::open_results(path, wanted).map_err(|e| match e {
        InputError::WrongKind { found, wanted, .. } => {
            merge_error(path, format!("{found}, and {wanted}"))
        }
        other => merge_error(path, other),
    })?;
    let mut reader = match opened {
        input::Results::Text(reader) => reader,
        input::Results::Parquet(file) => {
            return RecordReader::parquet(file, read)
                .map_err(|e| merge_error(path, format!("not Parquet results: {e}")));
        }
    };
    let start = reader.fill_buf().map_err(|e| merge_error(path, e))?;
    Ok(if input::jsonl_name(&name) || start.starts_with(b"{") {
        RecordReader::jsonl(Box::new(reader))
    } else {
        // Results written with --output-delimiter (a tab, `;`) say so in
        // their header.
        let delimiter = header_delimiter(start);
        RecordReader::delimited(Box::new(reader), delimiter)
    })
}

/// The format `merge` writes to `output`, chosen by its name as `solve`
/// chooses it: CSV, JSON Lines (from JSON Lines results) or Parquet (from
/// Parquet results).
///
/// # Errors
/// [`Error::Usage`] for a name that says no format.
fn output_format(output: &Path) -> Result<OutputFormat, Error> {
    choose(Some(output), None)
        .map_err(|e| Error::Usage(format!("merge writes CSV, JSON Lines or Parquet: {e}")))
}

/// A row of the file at `path` that `reader` could not read (at `line`,
/// of Parquet its row).
fn read_error<R: Read>(
    path: &Path,
    reader: &RecordReader<R>,
    (line, cause): (u64, String),
) -> Error {
    Error::Merge(format!(
        "{}: {}: {cause}",
        path.display(),
        reader.place(line)
    ))
}

impl Part {
    fn open(path: &Path) -> Result<Part, Error> {
        let mut reader = open_results(path, None)?;
        let empty = !reader.read().map_err(|e| read_error(path, &reader, e))?;
        if empty && !reader.is_jsonl() {
            return Err(merge_error(path, "empty: not a results file"));
        }
        let header = reader.record().clone();
        let keys = match empty {
            true => KeyColumns {
                file: None,
                line: 0,
                copy: None,
            },
            false => KeyColumns::find(&header).map_err(|e| merge_error(path, e))?,
        };
        Ok(Part {
            path: path.to_path_buf(),
            reader,
            results: Columns::find(&header).ok(),
            header,
            keys,
            row: None,
            last: None,
            empty,
        })
    }

    /// Reads the next row; its key, or `None` at the end.
    fn advance(
        &mut self,
        rank: &impl Fn(Option<&[u8]>, (u64, u64), Option<RowKey>) -> Result<usize, String>,
    ) -> Result<Option<RowKey>, Error> {
        self.row = None;
        if !self
            .reader
            .read()
            .map_err(|e| read_error(&self.path, &self.reader, e))?
        {
            return Ok(None);
        }
        let at = self.reader.line();
        let bad = |cause: String| read_error(&self.path, &self.reader, (at, cause));
        let record = self.reader.record();
        if record.len() != self.header.len() {
            return Err(bad(format!(
                "{}, the header has {}",
                crate::process::words::count(record.len() as u64, "field", "fields"),
                self.header.len()
            )));
        }
        let number = |i: Option<usize>, name: &str| -> Result<u64, String> {
            let Some(i) = i else { return Ok(0) };
            let field = record.get(i).unwrap_or_default();
            if field.is_empty() && name == "copy" {
                return Ok(0);
            }
            std::str::from_utf8(field)
                .ok()
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| format!("{name} `{}` is not a number", field.escape_ascii()))
        };
        let file = self.keys.file.map(|i| record.get(i).unwrap_or_default());
        let line = number(Some(self.keys.line), "line").map_err(bad)?;
        let copy = number(self.keys.copy, "copy").map_err(bad)?;
        let key = (
            rank(file, (line, copy), self.last).map_err(bad)?,
            line,
            copy,
        );
        if let Some(columns) = &self.results {
            self.row = Some(parse_row(record, columns).map_err(bad)?);
        }
        if self.last.is_some_and(|last| last >= key) {
            return Err(bad(
                "rows are not in input order (inputs in order, lines ascending, each once), as \
                 sudoku-batch writes them"
                    .into(),
            ));
        }
        self.last = Some(key);
        Ok(Some(key))
    }
}

/// The input names a file's rows list, in order, each once per run of
/// rows, and again where a name's lines start over (an input given twice).
fn file_sequence(
    path: &Path,
    keys: &KeyColumns,
    interrupt: &Interrupt,
) -> Result<Vec<String>, Error> {
    // Only the key columns of Parquet are read.
    let mut reader = open_results(path, Some(&["file", "line", "copy"]))?;
    reader.read().map_err(|e| read_error(path, &reader, e))?;
    let Some(file) = keys.file else {
        return Ok(vec![]);
    };
    let mut names: Vec<String> = vec![];
    let mut last_line = 0;
    while reader.read().map_err(|e| read_error(path, &reader, e))? {
        if interrupt.is_raised() {
            break;
        }
        let record = reader.record();
        let field = String::from_utf8_lossy(record.get(file).unwrap_or_default());
        let name = file_name(&field);
        let line = std::str::from_utf8(record.get(keys.line).unwrap_or_default())
            .ok()
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        // The same name again with a line that does not follow: the input
        // given a second time.
        let again = line < last_line || (line == last_line && keys.copy.is_none());
        if names.last().map(String::as_str) != Some(name) || again {
            names.push(name.to_string());
        }
        last_line = line;
    }
    Ok(names)
}

/// What the merge found on the way.
#[derive(Default)]
struct Merged {
    /// Rows written.
    rows: u64,
    tally: Tally,
    times: Times,
    /// The first overlaps, named, and their count.
    overlaps: Vec<String>,
    overlap_count: u64,
    /// The record last found overlapping.
    overlapping: Option<RecordKey>,
    /// The first record of the inputs without a row, and their count.
    missing: Option<(String, u64)>,
    /// The signal that stopped the merge.
    stopped: Option<Signal>,
    /// Values written with U+FFFD (JSON Lines strings with a lone
    /// surrogate escape, into CSV), by input, line and field.
    unfit_texts: UnfitTexts,
}

impl Merged {
    /// `record` (at `place`) has rows in files `a` and `b`; counted once per
    /// record.
    fn overlap(&mut self, record: RecordKey, place: String, a: &Path, b: &Path) {
        if self.overlapping == Some(record) {
            return;
        }
        self.overlapping = Some(record);
        self.overlap_count += 1;
        if self.overlaps.len() < SHOWN {
            self.overlaps
                .push(format!("{place} in {} and {}", a.display(), b.display()));
        }
    }

    fn refuse_overlaps(&self) -> Result<(), Error> {
        if self.overlap_count == 0 {
            return Ok(());
        }
        let mut message = format!(
            "{} record{} a row in more than one results file (each record belongs to one \
             shard):",
            self.overlap_count,
            if self.overlap_count == 1 {
                " has"
            } else {
                "s have"
            },
        );
        for overlap in &self.overlaps {
            message.push_str(&format!("\n  {overlap}"));
        }
        let more = self.overlap_count - self.overlaps.len() as u64;
        if more > 0 {
            message.push_str(&format!("\n  ... and {more} more"));
        }
        Err(Error::Merge(message))
    }

    fn missing(&mut self, place: String) {
        match &mut self.missing {
            None => self.missing = Some((place, 1)),
            Some((_, count)) => *count += 1,
        }
    }
}

/// The records of all inputs, in order, each with its input's index.
type Records = Box<dyn Iterator<Item = Result<(usize, Record), InputError>>>;

/// The records of `--inputs`, in order, matched with the merged rows.
struct Expected {
    records: Records,
    /// The next record's key and puzzle.
    next: Option<(RecordKey, Puzzle)>,
}

/// A record's puzzle, as a results row must hold it.
enum Puzzle {
    /// A 9x9 grid.
    Nine(Grid),
    /// A grid of another size, in its alphabet.
    Sized(Box<SizedRecord>),
    /// None: the record is malformed.
    Malformed,
}

impl Puzzle {
    fn of(record: Record) -> Puzzle {
        match (record.puzzle, record.sized) {
            (Ok(grid), _) => Puzzle::Nine(grid),
            (Err(_), Some(sized)) => Puzzle::Sized(sized),
            (Err(_), None) => Puzzle::Malformed,
        }
    }

    /// True when `row` holds this puzzle (or both are malformed).
    fn is_in(&self, row: &Row) -> bool {
        match (self, &row.result.puzzle, &row.sized) {
            (Puzzle::Nine(grid), Some(kept), None) => grid == kept,
            (Puzzle::Sized(sized), None, Some(kept)) => {
                kept.puzzle_is(&sized.puzzle, &sized.symbols)
            }
            (Puzzle::Malformed, None, None) => true,
            _ => false,
        }
    }
}

impl Expected {
    fn open(paths: &[PathBuf], layout: &LayoutArgs) -> Result<Expected, Error> {
        let options = layout.read_options(None);
        let inputs = paths
            .iter()
            .map(|path| input::open_path(path))
            .collect::<Result<Vec<_>, InputError>>()?;
        let opened = inputs
            .into_iter()
            .map(|input| input.records(&options))
            .collect::<Result<Vec<_>, InputError>>()?;
        let formats: Vec<(&str, input::Format)> =
            opened.iter().map(|r| (r.name(), r.format())).collect();
        input::options_apply(&formats, &options)?;
        drop(formats);
        let mut all: Vec<Records> = vec![];
        for (i, records) in opened.into_iter().enumerate() {
            all.push(Box::new(records.map(move |r| r.map(|r| (i, r)))));
        }
        let mut expected = Expected {
            records: Box::new(all.into_iter().flatten()),
            next: None,
        };
        expected.advance()?;
        Ok(expected)
    }

    fn advance(&mut self) -> Result<(), Error> {
        self.next = match self.records.next().transpose()? {
            None => None,
            Some((input, record)) => Some(((input, record.line), Puzzle::of(record))),
        };
        Ok(())
    }

    /// Matches the first merged row of the record at `key`: records before
    /// it have no row. A results `row` must hold the record's puzzle (other
    /// tables, e.g. `augment`'s, hold changed puzzles).
    ///
    /// # Errors
    /// [`Error::Merge`] when the inputs have no record at `key`, or
    /// another puzzle there.
    fn pass(
        &mut self,
        key: RecordKey,
        row: Option<&Row>,
        path: &Path,
        place: &impl Fn(RecordKey) -> String,
        merged: &mut Merged,
    ) -> Result<(), Error> {
        while let Some(next) = self.next.as_ref().map(|(k, _)| *k).filter(|k| *k < key) {
            merged.missing(place(next));
            self.advance()?;
        }
        match &self.next {
            Some((next, puzzle)) if *next == key => {
                if row.is_some_and(|row| !puzzle.is_in(row)) {
                    return Err(Error::Merge(format!(
                        "{}: the row for {} holds another puzzle than the input: the rows are \
                         not of these inputs",
                        path.display(),
                        place(key)
                    )));
                }
                self.advance()
            }
            _ => Err(Error::Merge(format!(
                "{}: a row for {}, which is no record of the inputs: the rows are not of these \
                 inputs (or not in their order)",
                path.display(),
                place(key)
            ))),
        }
    }

    /// Every record left has no row.
    fn finish(
        &mut self,
        place: &impl Fn(RecordKey) -> String,
        merged: &mut Merged,
    ) -> Result<(), Error> {
        while let Some(next) = self.next.as_ref().map(|(k, _)| *k) {
            merged.missing(place(next));
            self.advance()?;
        }
        Ok(())
    }
}

/// The merged results file, written under a temporary name beside it
/// ([`StagedFile`]), which is removed when the output is dropped
/// unfinished (a failure, a signal): a merge leaves its whole output or
/// nothing. Stdout, a pipe, a device or a file of several links is written
/// in place.
struct Output {
    /// `None` once finished.
    rows: Option<Rows>,
    /// The file written under a temporary name and renamed over `-o`;
    /// `None` when written in place. Declared after `rows`, so that an
    /// output dropped unfinished drops its writer before the temporary
    /// file is removed.
    staging: Option<StagedFile>,
    /// The name in messages: `-o`'s, whatever the temporary name.
    name: PathBuf,
}

/// How the merged rows are written.
enum Rows {
    /// CSV records: the header, then each row's record (of a JSON Lines
    /// part, its row laid out as the CSV record).
    Csv(Box<csv::Writer<Sink>>),
    /// JSON Lines: each row as its part wrote it.
    Jsonl(io::BufWriter<Sink>),
    /// Parquet: each row as its part holds it, a row group at a time.
    Parquet(Box<ParquetRows>),
}

/// Rows of Parquet parts written as Parquet: each a one-row slice of the
/// batch its part read, put together into batches written with the
/// properties of `solve`'s Parquet, in the parts' columns (a run's).
struct ParquetRows {
    writer: parquet::arrow::ArrowWriter<io::BufWriter<Sink>>,
    schema: arrow_schema::SchemaRef,
    /// The rows not written yet.
    rows: Vec<arrow_array::RecordBatch>,
    /// Bytes of their values.
    bytes: usize,
    /// Bytes of the values written to the row group being filled.
    group_bytes: usize,
}

/// Rows put together into one batch written.
const PARQUET_BATCH_ROWS: usize = 8192;

/// Bytes of rows at which they are written, however few (long kept values).
const PARQUET_BATCH_BYTES: usize = 16 << 20;

impl ParquetRows {
    /// Holds `row` (a one-row slice), writing the rows held once they are
    /// [`PARQUET_BATCH_ROWS`] or [`PARQUET_BATCH_BYTES`].
    fn push(&mut self, row: arrow_array::RecordBatch) -> io::Result<()> {
        self.bytes += row
            .columns()
            .iter()
            .map(|column| crate::output::parquet::slice_bytes(column))
            .sum::<usize>();
        self.rows.push(row);
        match self.rows.len() >= PARQUET_BATCH_ROWS || self.bytes >= PARQUET_BATCH_BYTES {
            true => self.flush(),
            false => Ok(()),
        }
    }

    /// Writes the rows held, if any, and ends the row group once it holds
    /// [`ROW_GROUP_BYTES`](crate::output::parquet::ROW_GROUP_BYTES) of
    /// values, as `solve` does (the writer's own rule counts rows only).
    fn flush(&mut self) -> io::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let batch = arrow_select::concat::concat_batches(&self.schema, &self.rows)
            .map_err(io::Error::other)?;
        self.rows.clear();
        self.group_bytes += std::mem::take(&mut self.bytes);
        self.writer.write(&batch).map_err(io::Error::other)?;
        if self.writer.in_progress_rows() < batch.num_rows() {
            // The writer ended a group at its row count, within the batch.
            self.group_bytes = 0;
        }
        if self.group_bytes >= crate::output::parquet::ROW_GROUP_BYTES {
            self.writer.flush().map_err(io::Error::other)?;
            self.group_bytes = 0;
        }
        Ok(())
    }
}

impl Output {
    /// Opens the output, written in `format` (CSV's fields separated by
    /// `delimiter`, Parquet compressed as `compression` says): under the
    /// temporary name of `staging`, or in place when `None`.
    fn create(
        path: &Path,
        format: OutputFormat,
        delimiter: u8,
        schema: Option<arrow_schema::SchemaRef>,
        compression: ParquetCompression,
        staging: Option<StagedFile>,
    ) -> Result<Output, Error> {
        let destination = Destination::from_arg(Some(path));
        let sink = match (&destination, &staging) {
            (Destination::Stdout, _) => Sink::Stdout(io::stdout()),
            (Destination::File { .. }, Some(staging)) => {
                let file = staging
                    .create("merge")
                    .map_err(|e| Error::write("results", path, e))?;
                Sink::to_file(file, Compression::of_name(path))
                    .map_err(|e| Error::write("results", path, e))?
            }
            (Destination::File { .. }, None) => {
                Sink::create(&destination).map_err(|e| Error::write("results", path, e))?
            }
        };
        let rows = match (format, schema) {
            (OutputFormat::Jsonl, _) => Rows::Jsonl(io::BufWriter::new(sink)),
            (OutputFormat::Parquet, Some(schema)) => {
                let props = crate::output::parquet::properties(compression, &schema);
                let sink = io::BufWriter::with_capacity(1 << 20, sink);
                let writer =
                    parquet::arrow::ArrowWriter::try_new(sink, Arc::clone(&schema), Some(props))
                        .map_err(|e| Error::write("results", path, io::Error::other(e)))?;
                Rows::Parquet(Box::new(ParquetRows {
                    writer,
                    schema,
                    rows: Vec::with_capacity(PARQUET_BATCH_ROWS),
                    bytes: 0,
                    group_bytes: 0,
                }))
            }
            _ => Rows::Csv(Box::new(
                csv::WriterBuilder::new()
                    .has_headers(false)
                    .delimiter(delimiter)
                    .from_writer(sink),
            )),
        };
        Ok(Output {
            rows: Some(rows),
            staging,
            name: destination.name().to_path_buf(),
        })
    }

    /// A failure to write the merge: named by `-o`, and saying that a file
    /// is left as it was.
    fn error(&self, e: io::Error) -> Error {
        write_error(&self.name, self.staging.is_some(), e)
    }

    /// Writes the header of CSV (JSON Lines has none).
    fn write_header(&mut self, header: &csv::ByteRecord) -> Result<(), Error> {
        let Some(Rows::Csv(csv)) = &mut self.rows else {
            return Ok(());
        };
        match csv.write_byte_record(header) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.error(csv_write_error(e))),
        }
    }

    /// Writes the row `reader` read last: its CSV record, or its JSON
    /// Lines text as read.
    fn write<R: Read>(&mut self, reader: &RecordReader<R>) -> Result<(), Error> {
        let done = match &mut self.rows {
            None => return Ok(()),
            Some(Rows::Csv(csv)) => csv
                .write_byte_record(reader.record())
                .map_err(csv_write_error),
            // Only JSON Lines parts merge into JSON Lines (see `merge`).
            Some(Rows::Jsonl(lines)) => lines.write_all(reader.jsonl_text().unwrap_or_default()),
            // Likewise Parquet.
            Some(Rows::Parquet(parquet)) => {
                match reader.parquet_records().and_then(|rows| rows.last_row()) {
                    Some(row) => parquet.push(row),
                    None => Ok(()),
                }
            }
        };
        done.map_err(|e| self.error(e))
    }

    /// Completes the file and gives it its name.
    fn finish(self) -> Result<(), Error> {
        let Output {
            rows,
            staging,
            name,
        } = self;
        let Some(rows) = rows else {
            return Ok(());
        };
        let staged = staging.is_some();
        // A failure drops `staging` unrenamed, which removes its file.
        let done = (move || {
            let sink = match rows {
                Rows::Csv(csv) => csv.into_inner().map_err(|e| e.into_error())?,
                Rows::Jsonl(lines) => lines.into_inner().map_err(|e| e.into_error())?,
                Rows::Parquet(mut parquet) => {
                    parquet.flush()?;
                    let file = parquet.writer.into_inner().map_err(io::Error::other)?;
                    file.into_inner().map_err(|e| e.into_error())?
                }
            };
            sink.finish()?;
            match staging {
                Some(staging) => staging.commit(),
                None => Ok(()),
            }
        })();
        done.map_err(|e| write_error(&name, staged, e))
    }
}

/// A failure to write the merge: named by `-o` (`name`), and saying that
/// a file written under a temporary name (`staged`) is left as it was.
fn write_error(name: &Path, staged: bool, e: io::Error) -> Error {
    let error = Error::write("results", name, e);
    match staged {
        true => error.noting(&format!(
            "{} is left as it was (a merge writes it whole or not at all)",
            name.display()
        )),
        false => error,
    }
}

fn write_summary(path: &Path, summary: &MergedSummary) -> Result<(), Error> {
    let json = summary.to_json();
    match Destination::from_arg(Some(path)) {
        Destination::Stdout => {
            let mut out = io::stdout().lock();
            out.write_all(json.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Error::write("summary", "-", e))
        }
        Destination::File { path, .. } => {
            std::fs::write(&path, json).map_err(|e| Error::write("summary", path, e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_merged_summary_has_a_run_summary_keys() {
        let run = crate::output::stats::Summary::new(
            &Tally::new(),
            crate::output::stats::RunInfo {
                inputs: vec![],
                wall: std::time::Duration::ZERO,
                threads: 1,
                solver: sudoku_core::solver::SolverKind::Fast,
                mode: sudoku_core::solver::Mode::Unique,
                interrupted: false,
                options: crate::output::stats::RunOptions::default(),
                rated: false,
            },
        );
        let keys = |json: &str| -> Vec<String> {
            let value: serde_json::Value = serde_json::from_str(json).unwrap();
            value.as_object().unwrap().keys().cloned().collect()
        };
        let merged =
            MergedSummary::new(vec![], &Tally::new(), &Times::default(), None, false, true);
        assert_eq!(keys(&merged.to_json()), keys(&run.to_json()));
    }
}
