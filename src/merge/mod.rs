//! The `merge` subcommand: joins the results files of the shards of a run
//! (`solve --shard K/N`, or any results files of disjoint records of the
//! same inputs) into the one results file a single run would have written,
//! and its summary.
//!
//! - Rows come out in input order: inputs in `--inputs` order when given,
//!   else in the order their names first appear in the results files (see
//!   [`order`]); then by line. Every row is written as it was read (the
//!   header too), so the merge of N shards is byte-identical to a single
//!   run's results (the `solve_us` column aside).
//! - A record with a row in more than one results file is refused (exit 2,
//!   naming them): each record belongs to one shard.
//! - With `--inputs`, the inputs are read (not solved) and every record
//!   must have a row, with the same puzzle (exit 2 naming the first record
//!   missing, unless `--allow-missing`), and every row a record.
//! - The merge streams: each results file is read in order, twice when the
//!   input order must be found first, and memory holds one row per file (and
//!   one count per distinct solve time, for exact percentiles).
//! - The merged file is written beside `-o` under a temporary name and
//!   renamed when complete: a merge that fails leaves no partial output.
//!
//! `--summary-json` writes the summary of the merged rows (see [`summary`]).

pub mod order;
pub mod summary;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use flate2::bufread::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use self::summary::{MergedSummary, RunFacts, ShardSummary, Times};
use crate::cli::LayoutArgs;
use crate::config::Destination;
use crate::error::{Error, Verdict};
use crate::grid::Grid;
use crate::input::{self, InputError, Record};
use crate::results_reader::{parse_row, Columns, RecordReader, Row};
use crate::stats::Tally;

/// The options of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The results files to merge (results CSV as `solve -o` writes them,
    /// gzip-compressed or not), in any order.
    #[arg(value_name = "RESULTS", required = true)]
    pub results: Vec<PathBuf>,

    /// The merged results file; a name ending in `.gz` is written
    /// gzip-compressed. Written under a temporary name and renamed at the
    /// end, so a failed merge leaves nothing behind.
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
    pub inputs: Vec<String>,

    /// How the inputs of `--inputs` are laid out.
    #[command(flatten)]
    pub layout: LayoutArgs,

    /// With `--inputs`: merge even when some records have no row (a
    /// partial merge), with a warning naming the first.
    #[arg(long, requires = "inputs")]
    pub allow_missing: bool,

    /// No report on stderr (errors and warnings still go there).
    #[arg(long)]
    pub quiet: bool,
}

/// Records named in full when several overlap.
const SHOWN: usize = 10;

/// Runs `merge`: see the module docs. Exit 0 when the merge is written.
///
/// # Errors
/// [`Error::Usage`] when `-o` names a file the merge reads;
/// [`Error::Merge`] when a results file or summary cannot be read or does
/// not fit the others, records overlap, or (with `--inputs`) a record has no
/// row or a row no record; [`Error::Input`] when an input cannot be read;
/// [`Error::Write`] when the output cannot be written.
pub fn run(args: &MergeArgs) -> Result<Verdict, Error> {
    refuse_overwriting(args)?;
    let summaries = args
        .summaries
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).map_err(|e| merge_error(path, e))?;
            ShardSummary::parse(&text).map_err(|e| merge_error(path, e))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let mut parts = args
        .results
        .iter()
        .map(|path| Part::open(path))
        .collect::<Result<Vec<_>, Error>>()?;
    let header = parts[0].header.clone();
    for part in &parts[1..] {
        if part.header != header {
            return Err(Error::Merge(format!(
                "{} and {} have different headers: results of one run have the same columns",
                parts[0].path.display(),
                part.path.display()
            )));
        }
    }
    let with_file = parts[0].columns.file.is_some();
    let names = if !args.inputs.is_empty() {
        if !with_file && args.inputs.len() > 1 {
            return Err(Error::Merge(format!(
                "the results have no `file` column, so they are of one input, and --inputs \
                 gives {}",
                args.inputs.len()
            )));
        }
        args.inputs.clone()
    } else if with_file {
        let sequences = parts
            .iter()
            .map(|p| file_sequence(&p.path))
            .collect::<Result<Vec<_>, Error>>()?;
        order::input_order(&sequences).map_err(Error::Merge)?
    } else {
        summaries
            .first()
            .map(|s| s.inputs.clone())
            .unwrap_or_default()
    };
    let ranks: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let rank = |row: &Row| -> Result<usize, String> {
        match &row.file {
            None => Ok(0),
            Some(name) => ranks
                .get(name.as_str())
                .copied()
                .ok_or_else(|| format!("`{name}` is not one of the inputs ({})", names.join(", "))),
        }
    };
    let place = |(rank, line): Key| match names.get(rank) {
        Some(name) => format!("{name}:{line}"),
        None => format!("line {line}"),
    };

    let mut expected = if args.inputs.is_empty() {
        None
    } else {
        Some(Expected::open(&args.inputs, &args.layout)?)
    };
    let mut out = Output::create(&args.output)?;
    let outcome = (|| -> Result<Merged, Error> {
        out.write(&header)?;
        let mut merged = Merged::default();
        let mut heap = BinaryHeap::new();
        for (i, part) in parts.iter_mut().enumerate() {
            if let Some(key) = part.advance(&rank)? {
                heap.push(Reverse((key, i)));
            }
        }
        while let Some(Reverse((key, i))) = heap.pop() {
            while let Some(&Reverse((other, j))) = heap.peek() {
                if other != key {
                    break;
                }
                heap.pop();
                merged.overlap(place(key), &parts[i].path, &parts[j].path);
                if let Some(next) = parts[j].advance(&rank)? {
                    heap.push(Reverse((next, j)));
                }
            }
            let part = &parts[i];
            let row = part.row.as_ref().expect("a part in the heap has a row");
            if let Some(expected) = &mut expected {
                expected.pass(key, row, &part.path, &place, &mut merged)?;
            }
            out.write(part.reader.record())?;
            merged.tally.add(&row.result);
            if row.result.searched() {
                merged.times.add(row.result.solve_ns.unwrap_or(0));
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
    let merged = match outcome.and_then(|m| m.refuse_overlaps().map(|()| m)) {
        Ok(merged) => merged,
        Err(e) => {
            out.abandon();
            return Err(e);
        }
    };
    if let Some((first, count)) = &merged.missing {
        if !args.allow_missing {
            out.abandon();
            return Err(Error::Merge(format!(
                "no results file has a row for {first} (the first of {count} records of the \
                 inputs without one); --allow-missing merges what there is"
            )));
        }
        eprintln!(
            "sudoku-batch merge: warning: {count} records of the inputs have no row (the first: \
             {first})"
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
    let summary = MergedSummary::new(inputs, &merged.tally, &merged.times, facts);
    out.finish(&args.output)?;
    if let Some(path) = &args.summary_json {
        write_summary(path, &summary)?;
    }
    if !args.quiet {
        eprintln!(
            "sudoku-batch merge: {} rows from {} results files into {}: solved {}, multiple {}, \
             unsolvable {}, invalid {}, malformed {}, timeout {}; mismatches {}",
            summary.puzzles,
            args.results.len(),
            args.output.display(),
            summary.solved,
            summary.multiple,
            summary.unsolvable,
            summary.invalid,
            summary.malformed,
            summary.timeout,
            summary.mismatches
        );
    }
    Ok(Verdict::Clean)
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

fn merge_error(path: &Path, cause: impl std::fmt::Display) -> Error {
    Error::Merge(format!("{}: {cause}", path.display()))
}

/// Refuses an output that is one of the files the merge reads.
fn refuse_overwriting(args: &MergeArgs) -> Result<(), Error> {
    let Ok(output) = std::fs::canonicalize(&args.output) else {
        return Ok(()); // does not exist yet, so it is read by no one
    };
    let read = args
        .results
        .iter()
        .chain(&args.summaries)
        .map(PathBuf::as_path)
        .chain(args.inputs.iter().map(Path::new));
    for path in read {
        if std::fs::canonicalize(path).is_ok_and(|p| p == output) {
            return Err(Error::Usage(format!(
                "-o {} is also read by the merge: writing to it would destroy it",
                args.output.display()
            )));
        }
    }
    Ok(())
}

/// (input rank, line): the order of rows.
type Key = (usize, u64);

/// One results file being merged.
struct Part {
    path: PathBuf,
    reader: RecordReader<Box<dyn Read>>,
    header: csv::ByteRecord,
    columns: Columns,
    /// The row last read, not written yet.
    row: Option<Row>,
    last: Option<Key>,
}

/// Opens a results file, gzip-compressed or not (by content), for reading.
fn open_results(path: &Path) -> Result<Box<dyn Read>, Error> {
    let file = File::open(path).map_err(|e| merge_error(path, e))?;
    let mut buffered = BufReader::new(file);
    let start = buffered.fill_buf().map_err(|e| merge_error(path, e))?;
    Ok(if start.starts_with(&[0x1F, 0x8B]) {
        Box::new(BufReader::new(MultiGzDecoder::new(buffered)))
    } else {
        Box::new(buffered)
    })
}

fn read_error(path: &Path, (line, cause): (u64, String)) -> Error {
    Error::Merge(format!("{}: line {line}: {cause}", path.display()))
}

impl Part {
    fn open(path: &Path) -> Result<Part, Error> {
        let mut reader = RecordReader::new(open_results(path)?);
        if !reader.read().map_err(|e| read_error(path, e))? {
            return Err(merge_error(path, "empty: not a results file"));
        }
        let header = reader.record().clone();
        let columns = Columns::find(&header).map_err(|e| merge_error(path, e))?;
        Ok(Part {
            path: path.to_path_buf(),
            reader,
            header,
            columns,
            row: None,
            last: None,
        })
    }

    /// Reads the next row; its key, or `None` at the end.
    fn advance(
        &mut self,
        rank: &impl Fn(&Row) -> Result<usize, String>,
    ) -> Result<Option<Key>, Error> {
        self.row = None;
        if !self.reader.read().map_err(|e| read_error(&self.path, e))? {
            return Ok(None);
        }
        let at = self.reader.line();
        let bad = |cause: String| read_error(&self.path, (at, cause));
        let row = parse_row(self.reader.record(), &self.columns).map_err(bad)?;
        let key = (rank(&row).map_err(bad)?, row.result.line);
        if self.last.is_some_and(|last| last >= key) {
            return Err(bad(
                "rows are not in input order (inputs in order, lines ascending, each once), as \
                 `solve -o` writes them"
                    .into(),
            ));
        }
        self.last = Some(key);
        self.row = Some(row);
        Ok(Some(key))
    }
}

/// The input names a results file's rows list, in order, each once per run
/// of rows.
fn file_sequence(path: &Path) -> Result<Vec<String>, Error> {
    let mut reader = RecordReader::new(open_results(path)?);
    reader.read().map_err(|e| read_error(path, e))?;
    let columns = Columns::find(reader.record()).map_err(|e| merge_error(path, e))?;
    let Some(file) = columns.file else {
        return Ok(vec![]);
    };
    let mut names: Vec<String> = vec![];
    while reader.read().map_err(|e| read_error(path, e))? {
        let name = reader.record().get(file).unwrap_or_default();
        if names.last().is_none_or(|last| last.as_bytes() != name) {
            names.push(String::from_utf8_lossy(name).into_owned());
        }
    }
    Ok(names)
}

/// What the merge found on the way.
#[derive(Default)]
struct Merged {
    tally: Tally,
    times: Times,
    /// The first overlaps, named, and their count.
    overlaps: Vec<String>,
    overlap_count: u64,
    /// The first record of the inputs without a row, and their count.
    missing: Option<(String, u64)>,
}

impl Merged {
    fn overlap(&mut self, place: String, a: &Path, b: &Path) {
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
    next: Option<(Key, Option<Grid>)>,
}

impl Expected {
    fn open(names: &[String], layout: &LayoutArgs) -> Result<Expected, Error> {
        let options = layout.read_options(None);
        let inputs = names
            .iter()
            .map(|name| input::open(name))
            .collect::<Result<Vec<_>, InputError>>()?;
        let mut all: Vec<Records> = vec![];
        for (i, input) in inputs.into_iter().enumerate() {
            all.push(Box::new(
                input.records(&options)?.map(move |r| r.map(|r| (i, r))),
            ));
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
            Some((input, record)) => Some(((input, record.line), record.puzzle.ok())),
        };
        Ok(())
    }

    /// Matches the merged row at `key`: records before it have no row.
    ///
    /// # Errors
    /// [`Error::Merge`] when the inputs have no record at `key`, or
    /// another puzzle there.
    fn pass(
        &mut self,
        key: Key,
        row: &Row,
        path: &Path,
        place: &impl Fn(Key) -> String,
        merged: &mut Merged,
    ) -> Result<(), Error> {
        while let Some((next, _)) = self.next.filter(|(k, _)| *k < key) {
            merged.missing(place(next));
            self.advance()?;
        }
        match self.next {
            Some((next, puzzle)) if next == key => {
                if puzzle != row.result.puzzle {
                    return Err(Error::Merge(format!(
                        "{}: the row for {} holds another puzzle than the input: the results \
                         are not of these inputs",
                        path.display(),
                        place(key)
                    )));
                }
                self.advance()
            }
            _ => Err(Error::Merge(format!(
                "{}: a row for {}, which is no record of the inputs: the results are not of \
                 these inputs (or not in their order)",
                path.display(),
                place(key)
            ))),
        }
    }

    /// Every record left has no row.
    fn finish(&mut self, place: &impl Fn(Key) -> String, merged: &mut Merged) -> Result<(), Error> {
        while let Some((next, _)) = self.next {
            merged.missing(place(next));
            self.advance()?;
        }
        Ok(())
    }
}

/// The merged results file, written under a temporary name beside it.
struct Output {
    csv: csv::Writer<Sink>,
    temporary: PathBuf,
}

enum Sink {
    File(io::BufWriter<File>),
    Gzip(GzEncoder<io::BufWriter<File>>),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::File(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(w) => w.flush(),
            Sink::Gzip(w) => w.flush(),
        }
    }
}

impl Output {
    fn create(path: &Path) -> Result<Output, Error> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temporary =
            path.with_file_name(format!(".{name}.merge-{}.partial", std::process::id()));
        let file = File::create(&temporary).map_err(|e| Error::write("results", path, e))?;
        let file = io::BufWriter::new(file);
        let gzip = matches!(
            Destination::from_arg(Some(path)),
            Destination::File { gzip: true, .. }
        );
        let sink = if gzip {
            Sink::Gzip(GzEncoder::new(file, Compression::default()))
        } else {
            Sink::File(file)
        };
        Ok(Output {
            csv: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(sink),
            temporary,
        })
    }

    fn write(&mut self, record: &csv::ByteRecord) -> Result<(), Error> {
        self.csv
            .write_byte_record(record)
            .map_err(|e| Error::write("results", &self.temporary, io::Error::other(e)))
    }

    /// Completes the file and gives it its name.
    fn finish(self, path: &Path) -> Result<(), Error> {
        let error = |e: io::Error| Error::write("results", path, e);
        let temporary = self.temporary.clone();
        let done = (|| {
            let sink = self.csv.into_inner().map_err(|e| e.into_error())?;
            let mut file = match sink {
                Sink::File(w) => w,
                Sink::Gzip(w) => w.finish()?,
            };
            file.flush()?;
            std::fs::rename(&temporary, path)
        })();
        if let Err(e) = done {
            let _ = std::fs::remove_file(&temporary);
            return Err(error(e));
        }
        Ok(())
    }

    /// Removes the temporary file of a merge that failed.
    fn abandon(self) {
        let temporary = self.temporary.clone();
        drop(self.csv);
        // Best effort: the merge already failed with its own error.
        let _ = std::fs::remove_file(temporary);
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
        let run = crate::stats::Summary::new(
            &Tally::new(),
            crate::stats::RunInfo {
                inputs: vec![],
                wall: std::time::Duration::ZERO,
                threads: 1,
                solver: crate::solver::SolverKind::Fast,
                mode: crate::solver::Mode::Unique,
                interrupted: false,
            },
        );
        let keys = |json: &str| -> Vec<String> {
            let value: serde_json::Value = serde_json::from_str(json).unwrap();
            value.as_object().unwrap().keys().cloned().collect()
        };
        let merged = MergedSummary::new(vec![], &Tally::new(), &Times::default(), None);
        assert_eq!(keys(&merged.to_json()), keys(&run.to_json()));
    }
}
