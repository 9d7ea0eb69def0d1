//! `check --baseline FILE`: an earlier run to compare with. A file holding
//! a JSON object is a summary (`--summary-json`); a `.jsonl` or `.ndjson`
//! name, or a first line that is an object with a `line` key or followed by
//! more, is JSON Lines results; anything else is a results CSV (`-o`).
//! Each plain, gzip- or zstd-compressed (by name or content). A plain
//! file that starts with `PAR1` is Parquet results.
//!
//! Results are read as a stream beside the run, never whole, JSON Lines
//! and Parquet rows laid out as the CSV records of the same rows
//! ([`RecordReader::jsonl`], [`RecordReader::parquet`]): its rows
//! are matched on (`file`, `line`) with the run's results, which come in
//! input order, so the baseline's rows must come in that order too (as
//! `solve` and `check` write them: inputs in command-line order, lines
//! ascending). Without a `file` column the rows belong to the run's only
//! input.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

use sudoku_core::grid::Grid;
use sudoku_core::solver::{Mode, SolverKind, Status};

use super::report::{threads_differ, Place, Problem, Report, Solution};
use crate::error::Error;
use crate::input::sized::looks_sized;
use crate::input::{inputs_of, Results};
use crate::job::shard::Shard;
use crate::output::file_name;
use crate::output::rating::RowRating;
use crate::output::read_back::{
    file_column, header_delimiter, read_sized, RecordReader, SizedFields,
};
use crate::output::result::PuzzleResult;
use crate::output::stats::Summary;

/// A baseline, opened.
pub enum Baseline {
    /// A `--summary-json` file: totals only.
    Summary(SummaryBaseline),
    /// A results CSV, matched row by row.
    Rows(Box<RowsBaseline>),
}

impl Baseline {
    /// Opens `path` and tells its kind; for a results CSV, reads the
    /// header. `inputs` are the run's input names, in order.
    ///
    /// # Errors
    /// [`Error::Baseline`] when the file cannot be read, or is neither a
    /// summary nor a results CSV for these inputs.
    pub fn open(path: &Path, inputs: &[String]) -> Result<Baseline, Error> {
        let error = |message: String| Error::Baseline {
            path: path.to_path_buf(),
            message,
        };
        let wanted = "--baseline reads results, CSV or JSON Lines (plain, gzip or zstd) or \
                      Parquet, or a --summary-json";
        let (name, opened) = crate::input::open_results(path, wanted).map_err(|e| match e {
            crate::input::InputError::WrongKind { found, wanted, .. } => {
                error(format!("{found}, and {wanted}"))
            }
            other => error(other.to_string()),
        })?;
        let mut reader = match opened {
            Results::Text(reader) => reader,
            Results::Parquet(file) => {
                let reader = RecordReader::parquet(file, Some(&PARQUET_READ))
                    .map_err(|e| error(format!("not Parquet results: {e}")))?;
                return RowsBaseline::new(path, reader, inputs)
                    .map(|rows| Baseline::Rows(Box::new(rows)));
            }
        };
        if crate::input::jsonl_name(&name) {
            return RowsBaseline::new(path, RecordReader::jsonl(reader), inputs)
                .map(|rows| Baseline::Rows(Box::new(rows)));
        }
        let start = reader.fill_buf().map_err(|e| error(e.to_string()))?;
        let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
        // Results written with --output-delimiter (a tab, `;`) say so in
        // their header.
        let delimiter = header_delimiter(start);
        if start.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
            // A summary is one object; a first line that is a whole object
            // is a row of JSON Lines results.
            let mut first = Vec::new();
            reader
                .read_until(b'\n', &mut first)
                .map_err(|e| error(e.to_string()))?;
            let line = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&first);
            if let Ok(object) =
                serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(line)
            {
                let more = !reader
                    .fill_buf()
                    .map_err(|e| error(e.to_string()))?
                    .is_empty();
                if more || object.contains_key("line") {
                    let rows: Box<dyn BufRead + Send> =
                        Box::new(io::Cursor::new(first).chain(reader));
                    return RowsBaseline::new(path, RecordReader::jsonl(rows), inputs)
                        .map(|rows| Baseline::Rows(Box::new(rows)));
                }
            }
            let mut text = String::from_utf8(first).map_err(|e| error(e.to_string()))?;
            reader
                .read_to_string(&mut text)
                .map_err(|e| error(e.to_string()))?;
            return SummaryBaseline::parse(text.trim_start_matches('\u{feff}'))
                .map(Baseline::Summary)
                .map_err(error);
        }
        RowsBaseline::new(path, RecordReader::delimited(reader, delimiter), inputs)
            .map(|rows| Baseline::Rows(Box::new(rows)))
    }
}

/// What a summary baseline holds that `check` compares.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryBaseline {
    /// Records that got a row.
    pub puzzles: u64,
    /// Rows per status, in the order of [`Status::ALL`].
    pub statuses: [u64; 6],
    /// Total guesses.
    pub guesses: u64,
    /// Puzzles per second; `None` when `null` (a `merge` made without
    /// every shard's summary).
    pub puzzles_per_s: Option<f64>,
    /// Solver threads; `None` when `null`.
    pub threads: Option<u64>,
    /// The solver, by name; `None` when `null`.
    pub solver: Option<String>,
    /// The mode, by name; `None` when `null`.
    pub mode: Option<String>,
}

impl SummaryBaseline {
    /// Reads the keys `check` needs from a summary's JSON text.
    ///
    /// # Errors
    /// A message naming the JSON error or the missing key.
    pub fn parse(text: &str) -> Result<SummaryBaseline, String> {
        let json: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not a JSON summary: {e}"))?;
        let missing = |key: &str| format!("not a summary from --summary-json: no `{key}`");
        let number = |key: &str| {
            json.get(key)
                .and_then(serde_json::Value::as_u64)
                .ok_or_else(|| missing(key))
        };
        // Keys a merge may leave `null`; absent is still not a summary.
        let nullable = |key: &str| json.get(key).ok_or_else(|| missing(key));
        let text = |key: &str| nullable(key).map(|v| v.as_str().map(str::to_string));
        let mut statuses = [0; 6];
        for (count, status) in statuses.iter_mut().zip(Status::ALL) {
            *count = number(status.name())?;
        }
        Ok(SummaryBaseline {
            puzzles: number("puzzles")?,
            statuses,
            guesses: json
                .get("guesses")
                .and_then(|g| g.get("total"))
                .and_then(serde_json::Value::as_u64)
                .ok_or_else(|| missing("guesses.total"))?,
            puzzles_per_s: nullable("puzzles_per_s")?.as_f64(),
            threads: nullable("threads")?.as_u64(),
            solver: text("solver")?,
            mode: text("mode")?,
        })
    }

    /// Checks that this baseline can be compared with a run of `solver` in
    /// `mode`: guess counts belong to one solver and mode. A baseline that
    /// does not say (a merge without the shards' summaries) fits any.
    ///
    /// # Errors
    /// A message naming both.
    pub fn fits(&self, solver: SolverKind, mode: Mode) -> Result<(), String> {
        let differs =
            |theirs: &Option<String>, ours: &str| theirs.as_deref().is_some_and(|t| t != ours);
        if differs(&self.solver, solver.name()) || differs(&self.mode, mode.name()) {
            return Err(format!(
                "the baseline ran the {} solver in {} mode, this run the {solver} solver in \
                 {mode} mode: guess counts cannot be compared",
                self.solver.as_deref().unwrap_or("(unknown)"),
                self.mode.as_deref().unwrap_or("(unknown)")
            ));
        }
        Ok(())
    }

    /// Compares this run's `summary` with the baseline: every status count
    /// must be the same; total guesses may change by `max_guess_pct`
    /// percent at most; with `min_speed_ratio`, puzzles/s must be at least
    /// that times the baseline's (and a note says when the two ran
    /// different thread counts).
    ///
    /// # Errors
    /// A message when the two runs did not count the same puzzles, or
    /// `min_speed_ratio` is given and the baseline has no puzzles/s.
    pub fn compare(
        &self,
        summary: &Summary,
        max_guess_pct: f64,
        min_speed_ratio: Option<f64>,
        report: &mut Report,
    ) -> Result<(), String> {
        if summary.puzzles != self.puzzles {
            return Err(format!(
                "the baseline counts {}, this run {}: not the same inputs",
                crate::process::words::count(self.puzzles, "puzzle", "puzzles"),
                summary.puzzles
            ));
        }
        let counts = [
            summary.solved,
            summary.multiple,
            summary.unsolvable,
            summary.invalid,
            summary.malformed,
            summary.timeout,
        ];
        for ((status, old), new) in Status::ALL.into_iter().zip(self.statuses).zip(counts) {
            if old != new {
                report.push(Place::Run, Problem::StatusCount { status, old, new });
            }
        }
        // A check's run solves every record: its guesses are known.
        let new = summary.guesses.as_ref().map_or(0, |g| g.total);
        let old = self.guesses;
        let change = if old == 0 {
            if new == 0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (new as f64 - old as f64).abs() / old as f64 * 100.0
        };
        if change > max_guess_pct {
            report.push(
                Place::Run,
                Problem::TotalGuesses {
                    old,
                    new,
                    max_pct: max_guess_pct,
                },
            );
        }
        if let Some(ratio) = min_speed_ratio {
            let old = self.puzzles_per_s.ok_or_else(|| {
                "--min-speed-ratio: the baseline's puzzles_per_s is null (a merge made without \
                 every shard's summary)"
                    .to_string()
            })?;
            let ours = summary.threads as u64;
            let threads = self.threads.filter(|&t| t != ours).map(|t| (t, ours));
            if let Some((old, new)) = threads {
                report.note(threads_differ(old, new));
            }
            if summary.puzzles_per_s < ratio * old {
                report.push(
                    Place::Run,
                    Problem::Speed {
                        old,
                        new: summary.puzzles_per_s,
                        min_ratio: ratio,
                        threads,
                    },
                );
            }
        }
        Ok(())
    }
}

/// The results columns a baseline must have (and `file`, optional).
const NEEDED: [&str; 5] = ["line", "puzzle", "status", "solution", "guesses"];

/// The columns of a Parquet baseline read: [`NEEDED`], `file`, `rating`
/// and `hardest`, the ones compared (kept input columns are not, as in a
/// CSV baseline).
const PARQUET_READ: [&str; 8] = [
    "file", "line", "puzzle", "status", "solution", "guesses", "rating", "hardest",
];

/// One baseline row, as compared.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    /// (input index, line): the matching key, in run order.
    key: (usize, u64),
    /// The row's own line in the baseline file (of Parquet, its row), for messages.
    at: u64,
    puzzle: Option<Grid>,
    status: Status,
    solution: Option<Grid>,
    guesses: Option<u64>,
    /// The puzzle and solution fields of a grid of another size than 9x9
    /// (`puzzle` and `solution` are then `None`).
    sized: Option<SizedFields>,
    /// The `rating` and `hardest` fields, read when ratings are compared
    /// (see [`RowsBaseline::compare_ratings`]); `None` when empty.
    rating: Option<RowRating>,
}

/// A results CSV baseline, read row by row beside the run.
pub struct RowsBaseline {
    path: PathBuf,
    reader: RecordReader<Box<dyn BufRead + Send>>,
    /// Fields in the header: every row has as many.
    fields: usize,
    /// Indices of `file` (if any) and of [`NEEDED`].
    file: Option<usize>,
    columns: [usize; 5],
    /// The `rating` and `hardest` columns (`solve --rate`'s, right after
    /// `message`), when the baseline has them.
    rating: Option<[usize; 2]>,
    /// Ratings are compared: the baseline and this run both have them.
    compare_ratings: bool,
    inputs: Vec<String>,
    /// The inputs of each name in the baseline.
    aliases: RefCell<HashMap<String, Vec<usize>>>,
    next: Option<Row>,
    last: Option<(usize, u64)>,
    /// The (input, line) of the last row read, kept or not.
    placed: Option<(usize, u64)>,
    /// Rows compared with a result.
    matched: u64,
    /// Of those, rows whose guess count changed.
    guesses_changed: u64,
    /// Of those, the baseline's `timeout` rows this run answers.
    timeouts_answered: u64,
    /// The fewest and most guesses of those rows in the baseline.
    timeout_guesses: Option<(u64, u64)>,
    /// With `--shard`: only this shard's rows are compared.
    shard: Option<Shard>,
}

impl RowsBaseline {
    fn new(
        path: &Path,
        mut reader: RecordReader<Box<dyn BufRead + Send>>,
        inputs: &[String],
    ) -> Result<RowsBaseline, Error> {
        let error = |message: String| Error::Baseline {
            path: path.to_path_buf(),
            message,
        };
        let kind = if reader.is_jsonl() {
            "not JSON Lines results"
        } else if reader.is_parquet() {
            "not Parquet results"
        } else {
            "not a results CSV"
        };
        // A JSON Lines file with no row (a run of no records) has no keys.
        let header = match reader.read() {
            Ok(true) => reader.record().clone(),
            Ok(false) => csv::ByteRecord::new(),
            Err((line, e)) => return Err(error(format!("{kind}: {}: {e}", reader.place(line)))),
        };
        let names: Vec<&str> = header
            .iter()
            .map(|h| {
                std::str::from_utf8(h)
                    .unwrap_or_default()
                    .trim()
                    .trim_start_matches('\u{feff}')
            })
            .collect();
        let find = |name: &str| names.iter().position(|h| *h == name);
        // Nothing to compare, and no columns to find.
        let no_rows = reader.is_jsonl() && header.is_empty();
        let mut columns = [0; 5];
        for (slot, name) in columns.iter_mut().zip(NEEDED).filter(|_| !no_rows) {
            *slot = find(name).ok_or_else(|| {
                let shown: Vec<&str> = names.iter().take(10).copied().collect();
                error(format!(
                    "{kind}: no `{name}` column (the header is `{}`)",
                    shown.join(",")
                ))
            })?;
        }
        // NEEDED starts with `line`.
        let file = file_column(&names, columns[0]);
        if file.is_none() && inputs.len() > 1 && !no_rows {
            return Err(error(format!(
                "the baseline has no `file` column, so it is for one input, and this run has {}",
                inputs.len()
            )));
        }
        let fields = names.len();
        // As `solve --rate` writes them: right after `message` (a kept
        // input column may have either name).
        let rating = find("message").and_then(|message| {
            let at = |i: usize, name: &str| names.get(i) == Some(&name);
            (at(message + 1, "rating") && at(message + 2, "hardest"))
                .then_some([message + 1, message + 2])
        });
        Ok(RowsBaseline {
            path: path.to_path_buf(),
            reader,
            fields,
            file,
            columns,
            rating,
            compare_ratings: false,
            inputs: inputs.to_vec(),
            aliases: RefCell::default(),
            next: None,
            last: None,
            placed: None,
            matched: 0,
            guesses_changed: 0,
            timeouts_answered: 0,
            timeout_guesses: None,
            shard: None,
        })
    }

    /// Compares ratings (the `rating` and `hardest` columns) when this run
    /// rates (`check --rate`) and the baseline has them, as status,
    /// solution and guesses are compared. When only one of the two has
    /// ratings, they are not compared, and the note returned says so (for
    /// the report: the rest is compared as usual).
    pub fn compare_ratings(&mut self, run_rates: bool) -> Option<String> {
        // A JSON Lines baseline with no row names no columns.
        let no_rows = self.reader.is_jsonl() && self.fields == 0;
        self.compare_ratings = run_rates && self.rating.is_some();
        match (run_rates, self.rating.is_some()) {
            _ if no_rows => None,
            (true, false) => Some(
                "the baseline has no ratings (made without --rate): ratings are not compared; \
                 remake it with --rate to compare them"
                    .into(),
            ),
            (false, true) => Some(
                "the baseline has ratings (made with --rate) and this run rates nothing: \
                 ratings are not compared; add --rate to compare them"
                    .into(),
            ),
            _ => None,
        }
    }

    /// Compares only `shard`'s rows: each result with the baseline's row
    /// for its (`file`, `line`), and the baseline's other rows passed over
    /// unreported, so that the baseline may be the results of the whole
    /// inputs (`solve` without `--shard`, or `merge`) or this shard's own.
    pub fn set_shard(&mut self, shard: Shard) {
        self.shard = Some(shard);
    }

    fn error(&self, message: String) -> Error {
        Error::Baseline {
            path: self.path.clone(),
            message,
        }
    }

    /// The next row, read if need be; `None` at the end.
    fn peek(&mut self) -> Result<Option<&Row>, Error> {
        if self.next.is_none() {
            self.next = self.read()?;
        }
        Ok(self.next.as_ref())
    }

    fn read(&mut self) -> Result<Option<Row>, Error> {
        let more = self
            .reader
            .read()
            .map_err(|(line, e)| self.error(format!("{}: {e}", self.reader.place(line))))?;
        if !more {
            return Ok(None);
        }
        let at = self.reader.line();
        let place = self.reader.place(at);
        let found = self.reader.record().len();
        if found != self.fields {
            return Err(self.error(format!(
                "{place}: {}, the header has {}",
                crate::process::words::count(found as u64, "field", "fields"),
                self.fields
            )));
        }
        let key = self.key_of(at)?;
        self.placed = Some(key);
        let field = |i: usize| self.field(i).trim();
        let bad = |what: &str, value: &str| self.error(format!("{place}: bad {what} `{value}`"));
        let [_, puzzle, status, solution, guesses] = self.columns.map(field);
        let grid = |what: &str, text: &str| {
            if text.is_empty() {
                Ok(None)
            } else {
                Grid::parse(text.as_bytes())
                    .map(Some)
                    .map_err(|_| bad(what, text))
            }
        };
        let other_size = looks_sized(puzzle.as_bytes());
        let sized = other_size.then(|| SizedFields {
            puzzle: puzzle.to_string(),
            solution: Some(solution).filter(|s| !s.is_empty()).map(str::to_string),
        });
        let nine = |what: &str, text: &str| {
            if other_size {
                Ok(None)
            } else {
                grid(what, text)
            }
        };
        let rating = match self.rating.filter(|_| self.compare_ratings) {
            Some([rating, hardest]) => RowRating::parse(field(rating), field(hardest), None)
                .map_err(|e| self.error(format!("line {at}: {e}")))?,
            None => None,
        };
        let row = Row {
            key,
            at,
            rating,
            puzzle: nine("puzzle", puzzle)?,
            status: status.parse().map_err(|_| bad("status", status))?,
            solution: nine("solution", solution)?,
            sized,
            guesses: if guesses.is_empty() {
                None
            } else {
                Some(guesses.parse().map_err(|_| bad("guesses", guesses))?)
            },
        };
        if self.last.is_some_and(|last| last >= row.key) {
            return Err(self.error(format!(
                "{place}: rows are not in run order (inputs in command-line order, lines \
                 ascending, each once), as `solve -o` writes them"
            )));
        }
        self.last = Some(row.key);
        Ok(Some(row))
    }

    /// The (input, line) of the row just read at file line `at`: an input
    /// given twice has its name twice, and the row is of the first of them
    /// it can follow in run order.
    fn key_of(&self, at: u64) -> Result<(usize, u64), Error> {
        let at = self.reader.place(at);
        let field = |i: usize| self.field(i).trim();
        let line = field(self.columns[0]);
        let line: u64 = line
            .parse()
            .map_err(|_| self.error(format!("{at}: bad line `{line}`")))?;
        let Some(i) = self.file else {
            return Ok((0, line));
        };
        // The name exactly as written: an input may be named ` a.txt`.
        let name = file_name(self.field(i));
        let named = self.inputs_named(name);
        if named.is_empty() {
            return Err(self.error(format!(
                "{at}: file `{name}` is not an input of this run ({}): the baseline \
                 names each input as its run was given it; give the same files (the same \
                 paths, or other names of the same files)",
                self.inputs.join(", ")
            )));
        }
        if let Some(j) = named
            .iter()
            .copied()
            .find(|&j| self.placed.is_none_or(|last| (j, line) > last))
        {
            return Ok((j, line));
        }
        // Rows of an input this run was given before the last row's: the
        // inputs given in another order than the baseline's run gave them.
        if let Some((last, _)) = self
            .placed
            .filter(|(last, _)| named.iter().all(|j| j < last))
        {
            return Err(self.error(format!(
                "{at}: the baseline has rows of `{name}` after rows of `{}`, and this \
                 run was given them in the other order: give the inputs in the baseline's \
                 order",
                self.inputs[last]
            )));
        }
        Err(self.error(format!(
            "{at}: rows are not in run order (inputs in command-line order, lines \
             ascending, each once), as `solve -o` writes them, or the baseline's run was \
             given `{name}` more often than this one"
        )))
    }

    /// Field `i` of the row last read; empty when it is not UTF-8 (the
    /// fields compared hold numbers, grids, statuses and names).
    fn field(&self, i: usize) -> &str {
        std::str::from_utf8(self.reader.record().get(i).unwrap_or_default()).unwrap_or_default()
    }

    /// The inputs of this run the baseline's `name` is of: those of the
    /// same file ([`inputs_of`]: the baseline's run may have named it
    /// `./data/x.txt`, this one `data/x.txt`), looked up once per name.
    fn inputs_named(&self, name: &str) -> Vec<usize> {
        self.aliases
            .borrow_mut()
            .entry(name.to_string())
            .or_insert_with(|| inputs_of(&self.inputs, name))
            .clone()
    }

    fn place(&self, key: (usize, u64)) -> Place {
        Place::Line {
            file: self.inputs[key.0].clone(),
            line: key.1,
        }
    }

    /// Compares one result (results come in run order) with the baseline's
    /// row for its (`file`, `line`), reporting every change; baseline rows
    /// passed over are reported as not in this run.
    ///
    /// # Errors
    /// [`Error::Baseline`] when the baseline holds another puzzle at that
    /// line (it belongs to other inputs), or cannot be read.
    pub fn compare(&mut self, result: &PuzzleResult, report: &mut Report) -> Result<(), Error> {
        let key = (result.input, result.line);
        self.pass_before(key, report)?;
        match self.peek()? {
            Some(row) if row.key == key => {
                let row = self.next.take().expect("peeked");
                self.compare_row(&row, result, report)
            }
            _ => {
                report.push(self.place(key), Problem::NotInBaseline);
                Ok(())
            }
        }
    }

    /// Reports the baseline rows before `key` (in run order) as not in this
    /// run. [`RowsBaseline::compare`] does this first; calling it before
    /// reporting anything else about the record at `key` keeps that
    /// record's problems together.
    ///
    /// # Errors
    /// [`Error::Baseline`] when the baseline cannot be read.
    pub fn pass_before(&mut self, key: (usize, u64), report: &mut Report) -> Result<(), Error> {
        while let Some(row) = self.peek()? {
            if row.key >= key {
                break;
            }
            let row = self.next.take().expect("peeked");
            // A shard's run has no row for the other shards' records.
            if self.shard.is_none() {
                report.push(self.place(row.key), Problem::NotInRun { old: row.status });
            }
        }
        Ok(())
    }

    fn compare_row(
        &mut self,
        row: &Row,
        result: &PuzzleResult,
        report: &mut Report,
    ) -> Result<(), Error> {
        let same_puzzle = match (&row.sized, &result.sized) {
            (Some(kept), Some(sized)) => kept.puzzle_is(&sized.puzzle, &sized.symbols),
            (None, None) => row.puzzle == result.puzzle,
            _ => false,
        };
        if !same_puzzle {
            let show = |g: Option<Grid>, sized: Option<String>| match (g, sized) {
                (Some(g), _) => g.to_line(),
                (None, Some(text)) => text,
                (None, None) => "(malformed)".into(),
            };
            return Err(self.error(format!(
                "{}: the puzzle for {}:{} differs from this run's (baseline {}, this run \
                 {}): the baseline is for other inputs",
                self.reader.place(row.at),
                self.inputs[row.key.0],
                row.key.1,
                show(row.puzzle, row.sized.as_ref().map(|s| s.puzzle.clone())),
                show(
                    result.puzzle,
                    result.sized.as_ref().map(|s| s.puzzle_text(b'.'))
                )
            )));
        }
        let old_solution = match (&row.sized, &result.sized) {
            (Some(kept), Some(sized)) => kept.solution.as_ref().map(|text| {
                match read_sized(text, &sized.symbols, sized.puzzle.shape()) {
                    Some(grid) => Solution::Sized(grid, sized.symbols.clone()),
                    None => Solution::Text(text.clone()),
                }
            }),
            _ => row.solution.map(Solution::Nine),
        };
        let new_solution = Solution::of(result);
        self.matched += 1;
        if row.guesses != result.guesses {
            self.guesses_changed += 1;
        }
        if row.status == Status::Timeout && result.status != Status::Timeout {
            self.timeouts_answered += 1;
            if let Some(g) = row.guesses {
                let (least, most) = self.timeout_guesses.get_or_insert((g, g));
                (*least, *most) = ((*least).min(g), (*most).max(g));
            }
        }
        let place = || self.place(row.key);
        if row.status != result.status {
            report.push(
                place(),
                Problem::StatusChanged {
                    old: row.status,
                    new: result.status,
                },
            );
        } else if old_solution != new_solution {
            report.push(
                place(),
                Problem::SolutionChanged {
                    old: old_solution,
                    new: new_solution,
                },
            );
        }
        if self.compare_ratings && row.status == result.status && !same_rating(row, result) {
            report.push(
                place(),
                Problem::RatingChanged {
                    old: row.rating.clone(),
                    new: result.rating.clone(),
                },
            );
        }
        if row.guesses != result.guesses {
            report.push(
                place(),
                Problem::GuessesChanged {
                    old: row.guesses,
                    new: result.guesses,
                },
            );
        }
        Ok(())
    }

    /// Ends the comparison: every baseline row left is reported as not in
    /// this run, unless the run was cut short on purpose (`--limit`).
    /// Returns the number of rows matched with a result.
    ///
    /// # Errors
    /// [`Error::Baseline`] when the rest of the baseline cannot be read.
    pub fn finish(&mut self, cut_short: bool, report: &mut Report) -> Result<u64, Error> {
        if !cut_short && self.shard.is_none() {
            while self.peek()?.is_some() {
                let row = self.next.take().expect("peeked");
                report.push(self.place(row.key), Problem::NotInRun { old: row.status });
            }
        }
        Ok(self.matched)
    }

    /// When most compared rows (at least half, and more than one) changed
    /// their guess count, the likely cause: a results CSV does not record
    /// the solver or mode, and guess counts belong to one solver and mode.
    /// (A baseline made with `--first` checked in mode `unique` changes
    /// most counts but not all: puzzles solved without a guess keep 0.)
    ///
    /// Baseline `timeout` rows this run answers (two or more) point at
    /// the baseline's limits instead: `--max-guesses`, `--timeout-ms` (rows
    /// that time out now are more likely the regression checked for).
    pub fn hint(&self) -> Option<String> {
        let hints: Vec<String> = [self.guesses_hint(), self.limits_hint()]
            .into_iter()
            .flatten()
            .collect();
        (!hints.is_empty()).then(|| hints.join("; "))
    }

    /// [`RowsBaseline::hint`] of the guess counts.
    fn guesses_hint(&self) -> Option<String> {
        let (changed, matched) = (self.guesses_changed, self.matched);
        if changed < 2 || changed * 2 < matched {
            return None;
        }
        let which = if changed == matched {
            format!("all {matched}")
        } else {
            format!("{changed} of {matched}")
        };
        Some(format!(
            "{which} guess counts changed: was the baseline made with the same --solver and \
             --first?"
        ))
    }

    /// [`RowsBaseline::hint`] of the baseline's `timeout` rows answered
    /// now.
    fn limits_hint(&self) -> Option<String> {
        if self.timeouts_answered < 2 {
            return None;
        }
        let stop = match self.timeout_guesses {
            Some((least, most)) if least == most => {
                format!(" (they all stopped at {least} guesses)")
            }
            _ => String::new(),
        };
        Some(format!(
            "{} of the baseline's timeouts are answered now: was the baseline made with the same \
             --max-guesses and --timeout-ms?{stop}",
            self.timeouts_answered
        ))
    }
}

/// True when the baseline `row`'s rating is `result`'s: the same rating
/// and hardest technique (the row does not hold the steps).
fn same_rating(row: &Row, result: &PuzzleResult) -> bool {
    match (&row.rating, &result.rating) {
        (Some(old), Some(new)) => old.tenths == new.tenths && old.hardest == new.hardest,
        (old, new) => old.is_none() && new.is_none(),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use sudoku_core::grid::Grid;

    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn rows(text: &str, inputs: &[&str]) -> Result<RowsBaseline, Error> {
        let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
        RowsBaseline::new(
            Path::new("base.csv"),
            RecordReader::new(Box::new(Cursor::new(text.as_bytes().to_vec()))),
            &inputs,
        )
    }

    fn jsonl_rows(text: &str, inputs: &[&str]) -> Result<RowsBaseline, Error> {
        let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
        RowsBaseline::new(
            Path::new("base.jsonl"),
            RecordReader::jsonl(Box::new(Cursor::new(text.as_bytes().to_vec()))),
            &inputs,
        )
    }

    #[test]
    fn a_json_lines_baseline_is_compared_as_the_same_rows_in_csv() {
        let row = |line: u64, status: &str, guesses: u64| {
            format!(
                "{{\"file\":\"b.txt\",\"line\":{line},\"puzzle\":\"{PUZZLE}\",\
                 \"status\":\"{status}\",\"solution\":null,\"guesses\":{guesses},\
                 \"solve_us\":1.0,\"check\":null,\"message\":null}}\n"
            )
        };
        let text = format!("{}{}", row(1, "multiple", 3), row(2, "multiple", 4));
        let mut report = Report::new();
        let mut base = jsonl_rows(&text, &["a.txt", "b.txt"]).unwrap();
        base.compare(&result(1, 1, Status::Multiple, 3), &mut report)
            .unwrap();
        base.compare(&result(1, 2, Status::Unsolvable, 4), &mut report)
            .unwrap();
        assert_eq!(base.finish(false, &mut report).unwrap(), 2);
        let text = report.render(2, "rows");
        assert!(
            text.contains("b.txt:2: status changed from the baseline: multiple -> unsolvable"),
            "{text}"
        );

        let cut = &row(1, "multiple", 3)[..40];
        let err = jsonl_rows(cut, &["b.txt"]).err().unwrap().to_string();
        assert!(
            err.contains("line 1: the last row has no line end"),
            "{err}"
        );
        // A run of no records: an empty file, every result not in it.
        let mut empty = jsonl_rows("", &["b.txt"]).unwrap();
        let mut report = Report::new();
        empty
            .compare(&result(0, 1, Status::Solved, 0), &mut report)
            .unwrap();
        assert_eq!(report.total(), 1);
    }

    fn result(input: usize, line: u64, status: Status, guesses: u64) -> PuzzleResult {
        PuzzleResult {
            input,
            line,
            puzzle: Some(Grid::parse(PUZZLE.as_bytes()).unwrap()),
            status,
            solution: None,
            guesses: Some(guesses),
            solve_ns: Some(1),
            check: None,
            message: None,
            expected: None,
            kept: Vec::new(),
            sized: None,
            rating: None,
        }
    }

    const HEADER: &str = "line,puzzle,status,solution,guesses,solve_us,check,message\n";

    const SUMMARY: &str = r#"{"puzzles": 3, "solved": 2, "multiple": 1, "unsolvable": 0,
        "invalid": 0, "malformed": 0, "timeout": 0, "guesses": {"total": 12, "mean": 4.0},
        "puzzles_per_s": 99.5, "threads": 4, "solver": "fast", "mode": "unique"}"#;

    fn summary(solved: u64, multiple: u64, guesses: u64, threads: usize) -> Summary {
        let mut tally = crate::output::stats::Tally::new();
        for (status, n) in [(Status::Solved, solved), (Status::Multiple, multiple)] {
            for _ in 0..n {
                let mut r = result(0, 1, status, 0);
                r.guesses = Some(guesses / (solved + multiple));
                tally.add(&r);
            }
        }
        Summary::new(
            &tally,
            crate::output::stats::RunInfo {
                inputs: vec!["a.txt".into()],
                wall: std::time::Duration::from_secs(1),
                threads,
                solver: SolverKind::Fast,
                mode: Mode::Unique,
                interrupted: false,
                options: crate::output::stats::RunOptions::default(),
                rated: false,
            },
        )
    }

    /// Found writing the `results` fuzz target's invariants: an input
    /// named with a space at its end was not found in its own baseline
    /// (the `file` field was trimmed).
    #[test]
    fn file_names_match_exactly_spaces_included() {
        let first = format!("file,{HEADER}\"a.txt \",1,{PUZZLE},multiple,,3,1.0,,\n");
        let text = first + &format!(" a.txt,1,{PUZZLE},multiple,,3,1.0,,\n");
        let mut report = Report::new();
        let mut base = rows(&text, &["a.txt ", " a.txt"]).unwrap();
        for input in [0, 1] {
            base.compare(&result(input, 1, Status::Multiple, 3), &mut report)
                .unwrap();
        }
        assert_eq!(base.finish(false, &mut report).unwrap(), 2);
        assert_eq!(report.total(), 0);
    }

    /// Found writing the `results` fuzz target's invariants: a baseline
    /// cut inside its last row's message read that row as whole.
    #[test]
    fn a_baseline_cut_inside_its_last_row_is_refused() {
        let whole = format!("{HEADER}1,{PUZZLE},multiple,,3,1.0,,r1c1 is 1 in one and 2\n");
        let mut report = Report::new();
        let mut base = rows(&whole, &["a.txt"]).unwrap();
        base.compare(&result(0, 1, Status::Multiple, 3), &mut report)
            .unwrap();
        assert_eq!(base.finish(false, &mut report).unwrap(), 1);
        assert_eq!(report.total(), 0);
        for cut in [whole.len() - 1, whole.len() - 5] {
            let mut base = rows(&whole[..cut], &["a.txt"]).unwrap();
            let err = base
                .compare(&result(0, 1, Status::Multiple, 3), &mut Report::new())
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("line 2: the last row has no line end"),
                "{err}"
            );
        }
    }

    #[test]
    fn a_summary_baseline_names_each_changed_status_count() {
        let base = SummaryBaseline::parse(SUMMARY).unwrap();
        let mut report = Report::new();
        base.compare(&summary(2, 1, 12, 4), 0.0, None, &mut report)
            .unwrap();
        assert_eq!(report.total(), 0);
        base.compare(&summary(3, 0, 12, 4), 0.0, None, &mut report)
            .unwrap();
        let text = report.render(3, "totals");
        assert!(
            text.contains(
                "solved count changed from the baseline: 2 -> 3 (+1); multiple count \
                 changed from the baseline: 1 -> 0 (-1)"
            ),
            "{text}"
        );
        assert!(base
            .compare(&summary(3, 1, 12, 4), 0.0, None, &mut report)
            .unwrap_err()
            .contains("not the same inputs"));
    }

    #[test]
    fn speed_comparisons_say_when_thread_counts_differ() {
        let base = SummaryBaseline::parse(SUMMARY).unwrap();
        let mut report = Report::new();
        // 3 puzzles in 1 s: 3 puzzles/s against the baseline's 99.5.
        base.compare(&summary(2, 1, 12, 2), 0.0, Some(0.5), &mut report)
            .unwrap();
        let text = report.render(3, "totals");
        assert!(
            text.contains(
                "note: the baseline ran 4 solver threads, this run 2: puzzles/s are \
                 not comparable"
            ),
            "{text}"
        );
        assert!(
            text.contains("(0.03x; --min-speed-ratio asks for 0.5x); the baseline ran 4"),
            "{text}"
        );
        let mut same = Report::new();
        base.compare(&summary(2, 1, 12, 4), 0.0, Some(0.01), &mut same)
            .unwrap();
        assert_eq!(
            same.render(3, "totals"),
            "sudoku-batch check: ok: 3 puzzles, totals\n"
        );
    }

    #[test]
    fn a_merged_summary_without_run_facts_fits_any_solver() {
        let merged = SUMMARY
            .replace("99.5", "null")
            .replace("\"fast\"", "null")
            .replace("\"unique\"", "null");
        let base = SummaryBaseline::parse(&merged).unwrap();
        assert!(base.fits(SolverKind::Naive, Mode::First).is_ok());
        let err = base
            .compare(&summary(2, 1, 12, 4), 0.0, Some(1.0), &mut Report::new())
            .unwrap_err();
        assert!(err.contains("puzzles_per_s is null"), "{err}");
    }

    #[test]
    fn summaries_need_their_keys() {
        let ok = SummaryBaseline::parse(SUMMARY).unwrap();
        assert_eq!(
            (ok.puzzles, ok.guesses, ok.puzzles_per_s),
            (3, 12, Some(99.5))
        );
        assert_eq!(ok.statuses, [2, 1, 0, 0, 0, 0]);
        assert_eq!(ok.threads, Some(4));
        assert!(ok.fits(SolverKind::Fast, Mode::Unique).is_ok());
        assert!(ok.fits(SolverKind::Naive, Mode::Unique).is_err());
        let err = SummaryBaseline::parse(r#"{"puzzles": 3}"#).unwrap_err();
        assert!(err.contains("no `solved`"), "{err}");
        let err = SummaryBaseline::parse(&SUMMARY.replace("\"total\"", "\"sum\"")).unwrap_err();
        assert!(err.contains("guesses.total"), "{err}");
        assert!(SummaryBaseline::parse("{oops").is_err());
    }

    #[test]
    fn rows_match_on_line_and_report_each_change() {
        let text = format!(
            "{HEADER}2,{PUZZLE},timeout,,7,1.0,,limit\n3,{PUZZLE},timeout,,9,1.0,,limit\n\
             5,{PUZZLE},timeout,,9,1.0,,limit\n"
        );
        let mut base = rows(&text, &["a.txt"]).unwrap();
        let mut report = Report::new();
        base.compare(&result(0, 2, Status::Timeout, 7), &mut report)
            .unwrap();
        assert_eq!(report.total(), 0);
        base.compare(&result(0, 3, Status::Multiple, 8), &mut report)
            .unwrap();
        base.compare(&result(0, 4, Status::Timeout, 9), &mut report)
            .unwrap();
        assert_eq!(base.finish(false, &mut report).unwrap(), 2);
        assert_eq!(base.hint(), None);
        let lines: Vec<String> = report.shown().iter().map(|f| f.to_string()).collect();
        assert_eq!(
            lines,
            [
                "a.txt:3: status changed from the baseline: timeout -> multiple; guesses changed \
                 from the baseline: 9 -> 8",
                "a.txt:4: a record the baseline has no row for",
                "a.txt:5: the baseline has a row here (status timeout) but this run has no record",
            ]
        );
    }

    #[test]
    fn every_guess_count_changed_hints_at_another_solver_or_mode() {
        let text = format!("{HEADER}2,{PUZZLE},timeout,,7,1.0,,\n3,{PUZZLE},timeout,,9,1.0,,\n");
        let mut base = rows(&text, &["a.txt"]).unwrap();
        let mut report = Report::new();
        base.compare(&result(0, 2, Status::Timeout, 8), &mut report)
            .unwrap();
        base.compare(&result(0, 3, Status::Timeout, 10), &mut report)
            .unwrap();
        assert_eq!(base.finish(false, &mut report).unwrap(), 2);
        assert_eq!(
            base.hint().unwrap(),
            "all 2 guess counts changed: was the baseline made with the same --solver and --first?"
        );
        base.matched = 4;
        assert_eq!(
            base.hint().unwrap(),
            "2 of 4 guess counts changed: was the baseline made with the same --solver and --first?"
        );
        base.matched = 5;
        assert_eq!(base.hint(), None, "fewer than half");
    }

    #[test]
    fn timeouts_answered_now_hint_at_other_limits() {
        // A baseline made with --max-guesses 100: its timeouts stop at 100
        // guesses, and this run answers them.
        let text = format!(
            "{HEADER}2,{PUZZLE},timeout,,100,1.0,,limit\n3,{PUZZLE},timeout,,100,1.0,,limit\n\
             4,{PUZZLE},timeout,,7,1.0,,\n5,{PUZZLE},timeout,,7,1.0,,\n6,{PUZZLE},timeout,,7,1.0,,\n"
        );
        let mut base = rows(&text, &["a.txt"]).unwrap();
        let mut report = Report::new();
        for (line, status, guesses) in [
            (2, Status::Multiple, 104),
            (3, Status::Multiple, 230),
            (4, Status::Timeout, 7),
            (5, Status::Timeout, 7),
            (6, Status::Timeout, 7),
        ] {
            base.compare(&result(0, line, status, guesses), &mut report)
                .unwrap();
        }
        assert_eq!(base.finish(false, &mut report).unwrap(), 5);
        assert_eq!(
            base.hint().unwrap(),
            "2 of the baseline's timeouts are answered now: was the baseline made with the \
             same --max-guesses and --timeout-ms? (they all stopped at 100 guesses)"
        );
    }

    #[test]
    fn another_puzzle_at_a_line_is_a_wrong_baseline() {
        let other = PUZZLE.replacen('4', "5", 1);
        let text = format!("{HEADER}2,{other},solved,,0,1.0,,\n");
        let mut base = rows(&text, &["a.txt"]).unwrap();
        let err = base
            .compare(&result(0, 2, Status::Solved, 0), &mut Report::new())
            .unwrap_err();
        assert!(matches!(err, Error::Baseline { .. }));
        assert!(
            err.to_string()
                .contains("line 2: the puzzle for a.txt:2 differs"),
            "{err}"
        );
    }

    #[test]
    fn an_input_given_twice_takes_the_rows_of_each_turn() {
        let row = |line: u64| format!("a.txt,{line},{PUZZLE},solved,,0,,,\n");
        let text = format!("file,{HEADER}{}{}{}{}", row(1), row(2), row(1), row(2));
        let mut base = rows(&text, &["a.txt", "a.txt"]).unwrap();
        let mut report = Report::new();
        for (input, line) in [(0, 1), (0, 2), (1, 1), (1, 2)] {
            base.compare(&result(input, line, Status::Solved, 0), &mut report)
                .unwrap();
        }
        assert_eq!(base.finish(false, &mut report).unwrap(), 4);
        assert_eq!(report.total(), 0);

        let mut once = rows(&text, &["a.txt"]).unwrap();
        for line in [1, 2] {
            once.compare(&result(0, line, Status::Solved, 0), &mut report)
                .unwrap();
        }
        let err = once.finish(false, &mut report).unwrap_err().to_string();
        assert!(err.contains("line 4: rows are not in run order"), "{err}");
        assert!(err.contains("given `a.txt` more often"), "{err}");
    }

    /// By name, or by another name of the same file: a baseline made with
    /// `./a.txt` refused a run given `a.txt` (found by a new-user trial).
    #[test]
    fn files_are_matched_by_name_in_run_order() {
        let text =
            format!("file,{HEADER}a.txt,1,{PUZZLE},solved,,0,,,\nb.txt,1,{PUZZLE},solved,,0,,,\n");
        let dotted = text.replacen("a.txt", "./a.txt", 1);
        let mut report = Report::new();
        for (text, inputs) in [(&text, ["a.txt", "b.txt"]), (&dotted, ["a.txt", "./b.txt"])] {
            let mut base = rows(text, &inputs).unwrap();
            base.compare(&result(0, 1, Status::Solved, 0), &mut report)
                .unwrap();
            base.compare(&result(1, 1, Status::Solved, 0), &mut report)
                .unwrap();
            assert_eq!(base.finish(false, &mut report).unwrap(), 2);
            assert_eq!(report.total(), 0);
        }

        let mut swapped = rows(&text, &["b.txt", "a.txt"]).unwrap();
        swapped
            .compare(&result(0, 1, Status::Solved, 0), &mut report)
            .unwrap();
        swapped
            .compare(&result(1, 1, Status::Solved, 0), &mut report)
            .unwrap();
        let err = swapped.finish(false, &mut report).unwrap_err().to_string();
        assert!(
            err.contains(
                "line 3: the baseline has rows of `b.txt` after rows of `a.txt`, and this run \
                 was given them in the other order"
            ),
            "{err}"
        );
        let err = rows(&text, &["a.txt", "c.txt"])
            .unwrap()
            .finish(false, &mut report)
            .unwrap_err();
        assert!(err.to_string().contains("`b.txt` is not an input"), "{err}");
        assert!(err.to_string().contains("the same path"), "{err}");
    }

    /// A trial's rater regression (2.6 Pointing made 9.9) passed `check
    /// --rate`: ratings are compared when both sides have them.
    #[test]
    fn ratings_are_compared_when_both_sides_have_them() {
        let header = HEADER.replace("message\n", "message,rating,hardest\n");
        let text = format!(
            "{header}2,{PUZZLE},solved,,0,1.0,,,2.6,Pointing\n3,{PUZZLE},solved,,0,1.0,,,,\n"
        );
        let rated = |tenths: u16, hardest: &'static str| {
            let mut r = result(0, 2, Status::Solved, 0);
            r.rating = Some(RowRating {
                tenths,
                hardest: hardest.into(),
                steps: 12,
            });
            r
        };
        let mut base = rows(&text, &["a.txt"]).unwrap();
        assert_eq!(base.compare_ratings(true), None);
        let mut report = Report::new();
        base.compare(&rated(26, "Pointing"), &mut report).unwrap();
        assert_eq!(report.total(), 0, "the steps are not in the row");
        let mut unrated = rated(26, "Pointing");
        unrated.line = 3;
        base.compare(&unrated, &mut report).unwrap();
        let lines: Vec<String> = report.shown().iter().map(|f| f.to_string()).collect();
        assert_eq!(
            lines,
            ["a.txt:3: rating changed from the baseline: (none) -> 2.6 Pointing"]
        );

        let mut base = rows(&text, &["a.txt"]).unwrap();
        assert!(base
            .compare_ratings(false)
            .unwrap()
            .contains("this run rates nothing"));
        let mut report = Report::new();
        base.compare(&rated(99, "Nishio"), &mut report).unwrap();
        assert_eq!(report.total(), 0, "not compared");
        let mut plain = rows(&format!("{HEADER}2,{PUZZLE},solved,,0,1.0,,\n"), &["a.txt"]).unwrap();
        assert!(plain
            .compare_ratings(true)
            .unwrap()
            .contains("the baseline has no ratings"));
        assert_eq!(plain.compare_ratings(false), None);
    }

    #[test]
    fn headers_must_be_results_csv() {
        assert!(rows("puzzle,solution\n", &["a.txt"]).is_err());
        let err = rows(HEADER, &["a.txt", "b.txt"]).err().unwrap();
        assert!(err.to_string().contains("no `file` column"), "{err}");
    }
}
