//! Records cut but not yet parsed, so that parsing runs on the solver
//! workers: the reading thread only finds where each record's bytes start
//! and end and copies them into a [`RecordBatch`] (for Parquet, it decodes
//! the Arrow batches and notes which row is which record); a worker turns
//! each into a [`Record`] with the batch's [`Parser`] (or the Parquet
//! file's `TableRules`).
//!
//! A reader's first records (headers, a column found by content) depend on
//! each other and are parsed while cutting; once the layout is settled,
//! every record can be parsed on its own and is cut raw. Layouts that keep
//! state from record to record (multi-line grids, `--solutions` pairing)
//! push parsed records throughout; a new reader needs nothing more than
//! [`RecordStream`]'s default, which does that.

use std::io::Read;
use std::sync::Arc;

use sudoku_core::grid::Grid;
use sudoku_core::solver::Status;

use super::csv::{CsvRules, CsvScratch};
use super::frame::{Frame, Framer, RecordBytes};
use super::jsonl::JsonRules;
use super::keep::{self, KeptTypes};
use super::lines::{is_skipped, LineRules};
use super::parquet::{Table, TableRules};
use super::{InputError, Record};
use crate::kept::KeptValue;

/// How a raw record of one input becomes a [`Record`], on any thread. Cheap
/// to share: the reader makes one per input once its layout is settled.
#[derive(Clone, Debug)]
pub enum Parser {
    /// Text lines, past the header lines.
    Lines(LineRules),
    /// CSV records, past the header and with the puzzle column known.
    Csv(CsvRules),
    /// JSON Lines, with the puzzle key known.
    Json(JsonRules),
}

/// Buffers a worker reuses from record to record, so parsing allocates
/// nothing on the happy path.
#[derive(Default)]
pub struct Scratch {
    fields: Vec<(usize, usize)>,
    csv: CsvScratch,
}

impl Parser {
    /// Parses one record's bytes (without its line terminator) found at
    /// `line`.
    pub fn parse(&self, line: u64, bytes: &[u8], scratch: &mut Scratch) -> Record {
        match self {
            // Each record is built once, where it is returned: built and
            // then changed, it was copied whole (288 bytes, through
            // `memcpy`).
            Parser::Lines(rules) => {
                let (puzzle, given) = rules.record(bytes, &mut scratch.fields);
                let kept = rules.kept_values(bytes, &mut scratch.fields);
                if let Some(why) = rules.shifted(bytes, &mut scratch.fields) {
                    return Record {
                        kept,
                        ..Record::new(line, Err(why), None)
                    };
                }
                if puzzle.is_err() {
                    let mut record = Record {
                        kept,
                        ..Record::of_line(line, puzzle, given)
                    };
                    rules.refused(bytes, &mut scratch.fields, &mut record);
                    return record;
                }
                Record {
                    line,
                    puzzle,
                    solution: given.solution,
                    solution_error: given.error.map(String::from),
                    expected: None,
                    status_error: None,
                    kept,
                    sized: None,
                }
            }
            Parser::Csv(rules) => match rules.split(&mut scratch.csv, bytes) {
                Some(fields) => rules.record(line, &fields),
                None => Record::new(line, Err("unreadable CSV record".into()), None),
            },
            Parser::Json(rules) => rules.record(line, bytes),
        }
    }
}

impl Parser {
    /// True for a line its input passes over: blank or a `#` comment; in
    /// CSV and text lines, a `#` line only when it is no record of the file
    /// (`CsvRules::skips`, `LineRules::skips`).
    #[inline]
    pub fn skips(&self, line: &[u8]) -> bool {
        match self {
            Parser::Csv(rules) => rules.skips(line),
            Parser::Lines(rules) => rules.skips(line),
            Parser::Json(_) => is_skipped(line),
        }
    }

    /// The puzzle and given solution of a record in the common form its
    /// parser reads without cutting it into fields (see
    /// `CsvRules::plain`): exactly what [`Parser::parse`] would make of
    /// it, a record with nothing else (no message, status or kept value).
    /// `None` for any other record.
    #[inline(always)]
    pub fn plain(&self, bytes: &[u8]) -> Option<(Grid, Option<Grid>)> {
        match self {
            Parser::Csv(rules) => rules.plain(bytes),
            Parser::Lines(_) | Parser::Json(_) => None,
        }
    }
}

/// A plain puzzle: a 9x9 puzzle, and the solution its input gives, if any,
/// with nothing else to carry to its row (read in place from a record in
/// the common form, [`RecordBatch::plain`], or taken from a parsed record,
/// [`PlainRecord::parsed`]).
#[derive(Clone, Copy, Debug)]
pub struct PlainRecord {
    /// Index of the input it came from.
    pub input: usize,
    /// The 1-based physical line where it starts.
    pub line: u64,
    /// The puzzle.
    pub puzzle: Grid,
    /// The solution the input gives.
    pub solution: Option<Grid>,
}

impl PlainRecord {
    /// `record` of input `input` as a plain puzzle, when it is one: a 9x9
    /// puzzle with no kept value, no given solution or expected status
    /// that is not one (each makes its check `mismatch`) and no grid of
    /// another size (its expected status, which only the results carry,
    /// aside).
    pub fn parsed(input: usize, record: &Record) -> Option<PlainRecord> {
        match record.puzzle {
            Ok(puzzle)
                if record.kept.is_empty()
                    && record.solution_error.is_none()
                    && record.status_error.is_none()
                    && record.sized.is_none() =>
            {
                Some(PlainRecord {
                    input,
                    line: record.line,
                    puzzle,
                    solution: record.solution,
                })
            }
            _ => None,
        }
    }
}

/// Below one row in this many kept by [`RecordBatch::retain_since`],
/// Parquet rows are made records at once rather than keep their Arrow
/// batches.
const SPARSE: usize = 8;

/// Where a record of a [`RecordBatch`] is.
#[derive(Clone, Debug)]
enum Item {
    /// Parsed while cutting.
    Parsed { input: usize, record: Box<Record> },
    /// Bytes `start..end` of the batch, parsed by `parsers[parser]`.
    Raw {
        input: usize,
        line: u64,
        start: usize,
        end: usize,
        parser: usize,
    },
    /// Row `row` of the Arrow batch `tables[table]` (Parquet).
    Row {
        input: usize,
        line: u64,
        table: usize,
        row: usize,
    },
}

/// Bytes of records ([`RecordBatch::byte_len`]) at which a batch is full,
/// whatever its record count, unless [`RecordBatch::set_fill_bytes`] says
/// fewer: records of up to [`super::frame::MAX_TABLE_RECORD`] bytes, or
/// Parquet rows with long kept values, would otherwise make a batch of
/// thousands of records take gigabytes.
pub const FILL_BYTES: usize = 16 << 20;

/// Bytes of records that the chunks in flight hold at most, together
/// (each a window's share: `crate::job::pipeline::chunk_bytes`): four
/// chunks of [`FILL_BYTES`], the window of one or two workers. Long records
/// (a kept note of a megabyte) fill a chunk by bytes long before its count
/// of records, and every record's note is held again as its row or its
/// result while the chunk is in flight: a chunk of [`FILL_BYTES`] each
/// made the run's memory grow with the workers (`-j 4`'s window of 8
/// chunks took 150 MB more than `-j 2`'s 4). Short records never come
/// near it (a chunk of 2,048 Kaggle records is 330 KB).
pub const IN_FLIGHT_BYTES: usize = 4 * FILL_BYTES;

/// A run of records in input order, each either parsed or raw bytes with
/// the parser for them. Reused from chunk to chunk: [`RecordBatch::clear`]
/// keeps the buffers.
#[derive(Debug, Default)]
pub struct RecordBatch {
    bytes: RecordBytes,
    items: Vec<Item>,
    parsers: Vec<Arc<Parser>>,
    /// The Arrow batches that [`Item::Row`]s are rows of, each with the
    /// rules that make its rows records.
    tables: Vec<(Arc<TableRules>, Table)>,
    /// Bytes of the Arrow batches' arrays that the rows held take
    /// ([`Table::bytes_of`]).
    row_bytes: usize,
    /// Bytes of the kept values of the parsed records held
    /// ([`kept_bytes`]).
    parsed_bytes: usize,
    input: usize,
    /// Kept values every record has (`--keep`): a parsed record with fewer
    /// is padded with nulls.
    kept: usize,
    /// For each input whose own kept columns are not the run's (see
    /// [`crate::input::Records::set_kept_map`]): where each of the run's
    /// kept columns is among its own, applied to its records as they are
    /// made (a parsed record is pushed already in the run's columns).
    maps: Vec<(usize, KeptMap)>,
    /// The types the run's kept columns are cast to (`--keep-types`),
    /// applied to the records made here (a parsed record is pushed cast).
    types: Option<KeptTypes>,
    /// Bytes at which the batch is full ([`RecordBatch::set_fill_bytes`]);
    /// 0 for [`FILL_BYTES`].
    fill_bytes: usize,
}

/// For each of a run's kept columns, the position of the same column among
/// one input's own kept columns (`None`: the input has no such column, and
/// its records keep null there).
pub type KeptMap = Arc<[Option<usize>]>;

/// `kept` (an input's own kept values) as the run's kept columns, by `map`.
pub fn map_kept(map: &[Option<usize>], mut kept: Vec<KeptValue>) -> Vec<KeptValue> {
    map.iter()
        .map(|at| {
            at.and_then(|i| kept.get_mut(i))
                .map_or(KeptValue::Null, std::mem::take)
        })
        .collect()
}

/// Gives `record` of input `input` the run's kept columns: mapped by the
/// input's map among `maps`, if any, and cast by `types`. Changed in place:
/// a record is 288 bytes, and most runs keep nothing.
#[inline]
fn run_kept(
    maps: &[(usize, KeptMap)],
    types: Option<&KeptTypes>,
    input: usize,
    record: &mut Record,
) {
    if let Some((_, map)) = maps.iter().find(|(i, _)| *i == input) {
        record.kept = map_kept(map, std::mem::take(&mut record.kept));
    }
    if let Some(types) = types {
        keep::cast(types, record);
    }
}

/// Bytes of `record`'s kept values that a batch holding it holds: their
/// text and bytes (a number, a boolean or a null takes no more than the
/// record itself).
fn kept_bytes(record: &Record) -> usize {
    record
        .kept
        .iter()
        .map(|value| match value {
            KeptValue::Null
            | KeptValue::Bool(_)
            | KeptValue::Int(_)
            | KeptValue::UInt(_)
            | KeptValue::Float(_) => 0,
            KeptValue::Text(text) | KeptValue::Number(text) | KeptValue::Json(text) => text.len(),
            KeptValue::Bytes(bytes) | KeptValue::NotUtf8(bytes) => bytes.len(),
            KeptValue::LoneSurrogate { json, text } => json.len() + text.len(),
            // A one-row slice of the input's column: its share of the
            // buffers, not the whole column's.
            KeptValue::Arrow(array) => array.to_data().get_slice_memory_size().unwrap_or(0),
        })
        .sum()
}

impl RecordBatch {
    /// Cuts the next records of `framer` into the batch once a reader's
    /// layout is settled, at least one and at most `max`: raw bytes for
    /// `parser`, or a `malformed` record for a line too long or a quote
    /// never closed; skipped lines are passed over. The plain records
    /// already read are cut at once (`Framer::plain_into`). `None` at the
    /// end of the input.
    pub fn push_next_frames<R: Read>(
        &mut self,
        framer: &mut Framer<R>,
        name: &str,
        parser: &Arc<Parser>,
        max: usize,
    ) -> Option<Result<(), InputError>> {
        let (input, parser_index) = (self.input, self.parser_index(parser));
        let items = &mut self.items;
        let cut = framer.plain_into(&mut self.bytes, max, |line, start, end, bytes| {
            if !parser.skips(bytes) {
                items.push(Item::Raw {
                    input,
                    line,
                    start,
                    end,
                    parser: parser_index,
                });
            }
        });
        match cut {
            Ok(0) => {}
            Ok(_) => return Some(Ok(())),
            Err(e) => return Some(Err(InputError::io(name, e))),
        }
        loop {
            let base = self.bytes.len();
            let frame = match framer.next_into(&mut self.bytes) {
                Ok(Some(frame)) => frame,
                Ok(None) => return None,
                Err(e) => {
                    self.bytes.truncate(base);
                    return Some(Err(InputError::io(name, e)));
                }
            };
            let record = if frame.too_long {
                Record::new(
                    frame.line,
                    Err(frame.too_long_message(framer.limit())),
                    None,
                )
            } else if parser.skips(&self.bytes[base..]) {
                self.bytes.truncate(base);
                continue;
            } else if frame.open_quote {
                unterminated(&frame, framer.limit())
            } else {
                self.items.push(Item::Raw {
                    input,
                    line: frame.line,
                    start: base,
                    end: self.bytes.len(),
                    parser: parser_index,
                });
                return Some(Ok(()));
            };
            self.bytes.truncate(base);
            self.push_parsed(record);
            return Some(Ok(()));
        }
    }

    /// The index of `parser` in the batch's parsers, added if new.
    fn parser_index(&mut self, parser: &Arc<Parser>) -> usize {
        match self.parsers.iter().rposition(|p| Arc::ptr_eq(p, parser)) {
            Some(i) => i,
            None => {
                self.parsers.push(Arc::clone(parser));
                self.parsers.len() - 1
            }
        }
    }

    /// An empty batch.
    pub fn new() -> RecordBatch {
        RecordBatch::default()
    }

    /// Records in the batch.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Bytes of the records held: of raw records, of the Arrow rows and
    /// of the parsed records' kept values. A batch is full at
    /// [`FILL_BYTES`] (long CSV and JSON Lines records, and Parquet rows
    /// with long kept values, fill it before its record count).
    pub fn byte_len(&self) -> usize {
        self.bytes.len() + self.row_bytes + self.parsed_bytes
    }

    /// True while the batch takes more records when it is to hold at most
    /// `max`: it holds fewer, and fewer bytes than its
    /// [`RecordBatch::fill_bytes`] ([`FILL_BYTES`] unless set). The one
    /// test of a full batch: every [`RecordStream::fill`] fills while it
    /// is true and returns `Ok(true)` only once it is false, so that a
    /// stream wrapping another stops where the other stopped, whichever
    /// bound stopped it.
    pub fn has_room(&self, max: usize) -> bool {
        self.len() < max && self.byte_len() < self.fill_bytes()
    }

    /// Bytes of records at which the batch is full: [`FILL_BYTES`], or
    /// fewer as [`RecordBatch::set_fill_bytes`] said.
    pub fn fill_bytes(&self) -> usize {
        match self.fill_bytes {
            0 => FILL_BYTES,
            bytes => bytes,
        }
    }

    /// Makes the batch full at `bytes` of records (at least one byte, at
    /// most [`FILL_BYTES`]), kept by [`RecordBatch::clear`]: the pipeline
    /// shares a fixed budget of bytes among the chunks it holds at once,
    /// so that more workers do not take more memory.
    pub fn set_fill_bytes(&mut self, bytes: usize) {
        self.fill_bytes = bytes.clamp(1, FILL_BYTES);
    }

    /// True when the batch holds no record.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Empties the batch, keeping its buffers.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.items.clear();
        self.parsers.clear();
        self.tables.clear();
        self.row_bytes = 0;
        self.parsed_bytes = 0;
        self.maps.clear();
    }

    /// Tags the records pushed from now on with the index of their input.
    pub fn set_input(&mut self, input: usize) {
        self.input = input;
    }

    /// Sets how many kept values every record pushed from now on has
    /// (`--keep`); parsed records with fewer are padded with nulls. With
    /// `map`, the records of the current input cut raw are made the run's
    /// kept columns by it (`map_kept`).
    pub fn set_kept(&mut self, kept: usize, map: Option<&KeptMap>, types: Option<&KeptTypes>) {
        self.kept = kept;
        self.types = types.cloned();
        let input = self.input;
        self.maps.retain(|(i, _)| *i != input);
        if let Some(map) = map {
            self.maps.push((input, Arc::clone(map)));
        }
    }

    /// A record of `input` made from raw bytes or a row, with the run's
    /// kept columns.
    #[inline]
    fn mapped(&self, input: usize, mut record: Record) -> Record {
        run_kept(&self.maps, self.types.as_ref(), input, &mut record);
        record
    }

    /// Appends rows `rows` of the Arrow batch `table` (the first found at
    /// `first_line`, the others on the lines after it), made records by
    /// `rules` when they are taken. The Arrow batch's columns are shared,
    /// not copied.
    pub fn push_rows(
        &mut self,
        rules: &Arc<TableRules>,
        table: &Table,
        rows: std::ops::Range<usize>,
        first_line: u64,
    ) {
        let index = self.tables.len();
        self.row_bytes += table.bytes_of(rows.len());
        self.tables.push((Arc::clone(rules), table.clone()));
        let input = self.input;
        self.items
            .extend(rows.zip(first_line..).map(|(row, line)| Item::Row {
                input,
                line,
                table: index,
                row,
            }));
    }

    /// Appends a record its reader parsed while cutting (before its layout
    /// was settled, or read ahead), whose kept values are its input's own
    /// columns: given the run's, mapped and cast as a raw record is when
    /// it is parsed.
    pub fn push_read(&mut self, mut record: Record) {
        run_kept(&self.maps, self.types.as_ref(), self.input, &mut record);
        self.push_parsed(record);
    }

    /// Appends a parsed record, in the run's kept columns.
    pub fn push_parsed(&mut self, mut record: Record) {
        if record.kept.len() < self.kept {
            record.kept.resize(self.kept, KeptValue::Null);
        }
        self.parsed_bytes += kept_bytes(&record);
        self.items.push(Item::Parsed {
            input: self.input,
            record: Box::new(record),
        });
    }

    /// Keeps, of the records pushed since the batch held `start` records,
    /// those for which `keep(k)` is true (`k` counts them from 0), in order,
    /// and frees the bytes of the others, which [`RecordBatch::byte_len`]
    /// no longer counts: `--shard` takes its records this way without
    /// parsing the rest.
    pub fn retain_since(&mut self, start: usize, mut keep: impl FnMut(usize) -> bool) {
        let mut kept = start;
        // Bytes are appended in record order: the first raw record pushed
        // since `start` begins where the kept bytes go.
        let mut free = None;
        // Each push of rows adds its Arrow batch: the first one a row since
        // `start` is of, and every one after it, were pushed since `start`.
        let mut first_table = None;
        for i in start..self.items.len() {
            match self.items[i] {
                Item::Raw { start, .. } => _ = free.get_or_insert(start),
                Item::Row { table, .. } => _ = first_table.get_or_insert(table),
                Item::Parsed { .. } => {}
            }
            if !keep(i - start) {
                match &self.items[i] {
                    Item::Row { table, .. } => self.row_bytes -= self.tables[*table].1.bytes_of(1),
                    Item::Parsed { record, .. } => self.parsed_bytes -= kept_bytes(record),
                    Item::Raw { .. } => {}
                }
                continue;
            }
            self.items.swap(kept, i);
            match &mut self.items[kept] {
                Item::Raw { start, end, .. } => {
                    if let Some(to) = &mut free {
                        self.bytes.copy_within(*start..*end, *to);
                        *end = *to + (*end - *start);
                        *start = *to;
                        *to = *end;
                    }
                }
                Item::Row { .. } | Item::Parsed { .. } => {}
            }
            kept += 1;
        }
        let pushed = self.items.len() - start;
        self.items.truncate(kept);
        if let Some(to) = free {
            self.bytes.truncate(to);
        }
        // A shard of N keeps one row in N: for a large N, holding each kept
        // row's Arrow batch would hold many times the rows kept. Below one
        // row in `SPARSE` kept, the kept rows are made records here, and
        // the batches are let go.
        let Some(first) = first_table else { return };
        if (kept - start) * SPARSE >= pushed {
            return;
        }
        for item in &mut self.items[start..] {
            if let &mut Item::Row {
                input,
                line,
                table,
                row,
            } = item
            {
                let (rules, batch) = &self.tables[table];
                let mut record = rules.record(batch, row, line);
                run_kept(&self.maps, self.types.as_ref(), input, &mut record);
                self.row_bytes -= batch.bytes_of(1);
                self.parsed_bytes += kept_bytes(&record);
                *item = Item::Parsed {
                    input,
                    record: Box::new(record),
                };
            }
        }
        self.tables.truncate(first);
    }

    /// The Arrow batches held for rows not yet made records.
    #[cfg(test)]
    pub(super) fn tables_held(&self) -> usize {
        self.tables.len()
    }

    /// Record `i` when it is in the common form ([`Parser::plain`], or a
    /// Parquet row that `TableRules::plain` reads) and the run maps or
    /// casts no kept columns: what [`RecordBatch::record`] would make of
    /// it, without building a [`Record`]. `None` for any other record.
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn plain(&self, i: usize) -> Option<PlainRecord> {
        self.plain_with(i, false).map(|(record, _)| record)
    }

    /// [`RecordBatch::plain`] of record `i`, with the status the record
    /// expects (`Record::expected`), for a run that keeps its results.
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn plain_expected(&self, i: usize) -> Option<(PlainRecord, Option<Status>)> {
        self.plain_with(i, true)
    }

    /// Record `i` as a plain puzzle, with its expected status when
    /// `expected` asks (a record in the common form of CSV has none).
    #[inline(always)]
    fn plain_with(&self, i: usize, expected: bool) -> Option<(PlainRecord, Option<Status>)> {
        if !self.maps.is_empty() || self.types.is_some() {
            return None;
        }
        let (input, line, puzzle, solution, status) = match self.items[i] {
            Item::Raw {
                input,
                line,
                start,
                end,
                parser,
            } => {
                let (puzzle, solution) = self.parsers[parser].plain(&self.bytes[start..end])?;
                (input, line, puzzle, solution, None)
            }
            Item::Row {
                input,
                line,
                table,
                row,
            } => {
                let (rules, table) = &self.tables[table];
                let (puzzle, solution, status) = rules.plain(table, row, expected)?;
                (input, line, puzzle, solution, status)
            }
            Item::Parsed { .. } => return None,
        };
        let record = PlainRecord {
            input,
            line,
            puzzle,
            solution,
        };
        Some((record, status))
    }

    /// The input index of record `i`, and the record, parsed now if it was
    /// cut raw.
    ///
    /// # Panics
    /// If `i` is out of range.
    pub fn record(&self, i: usize, scratch: &mut Scratch) -> (usize, Record) {
        match &self.items[i] {
            Item::Parsed { input, record } => (*input, Record::clone(record)),
            &Item::Raw {
                input,
                line,
                start,
                end,
                parser,
            } => (
                input,
                self.mapped(
                    input,
                    self.parsers[parser].parse(line, &self.bytes[start..end], scratch),
                ),
            ),
            &Item::Row {
                input,
                line,
                table,
                row,
            } => {
                let (rules, table) = &self.tables[table];
                (input, self.mapped(input, rules.record(table, row, line)))
            }
        }
    }
}

/// A stream of one input's records that can also hand them over cut but
/// unparsed ([`RecordStream::fill`]). Every [`Iterator`] of records is one
/// through [`Parsed`]; [`super::Records`] cuts raw once its layout is
/// settled.
pub trait RecordStream: Iterator<Item = Result<Record, InputError>> + Send {
    /// Appends records to `batch` while it has room for them
    /// ([`RecordBatch::has_room`]: fewer than `max`, and fewer bytes than
    /// [`RecordBatch::fill_bytes`]) and the input lasts. Returns `Ok(false)` when the
    /// input ended, `Ok(true)` only once the batch has no room: a call
    /// with room reads at least one record. A stream that drops records
    /// (a shard's others, `--resume`'s finished ones) asks the stream it
    /// wraps for more while the records it keeps leave room, and stops
    /// once they leave none, whichever bound they reached.
    ///
    /// # Errors
    /// The input failed to read; the records before the failure are in
    /// `batch`, and the stream is over.
    fn fill(&mut self, batch: &mut RecordBatch, max: usize) -> Result<bool, InputError> {
        while batch.has_room(max) {
            match self.next() {
                None => return Ok(false),
                Some(Ok(record)) => batch.push_parsed(record),
                Some(Err(e)) => return Err(e),
            }
        }
        Ok(true)
    }

    /// Whether reading never waits for another process or long: an
    /// uncompressed regular file of text. The pipeline then reads it on
    /// the calling thread, between passing chunks on, rather than on a
    /// thread of its own that has to be woken for every chunk or two
    /// (see [`crate::job::pipeline`]). False unless known.
    fn steady(&self) -> bool {
        false
    }

    /// True once the stream has ended because `--limit` ends it there (a
    /// shard's records past the first L of all inputs, see
    /// [`crate::job::shard`]), not because the input ended: what follows in
    /// the input is not this run's. False unless known.
    fn at_limit(&self) -> bool {
        false
    }
}

/// Any iterator of records as a [`RecordStream`] that parses as it reads.
pub struct Parsed<I>(pub I);

impl<I: Iterator<Item = Result<Record, InputError>>> Iterator for Parsed<I> {
    type Item = Result<Record, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
}

impl<I: Iterator<Item = Result<Record, InputError>> + Send> RecordStream for Parsed<I> {}

/// The `malformed` record of a line where a quote opens and never closes
/// (see [`Frame::open_quote`]), of a framer whose [`Framer::limit`] is
/// `limit`.
pub(super) fn unterminated(frame: &Frame, limit: usize) -> Record {
    Record::new(frame.line, Err(frame.unterminated_message(limit)), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A malformed record of `line` keeping a text of `bytes` bytes.
    fn keeping(line: u64, bytes: usize) -> Record {
        Record {
            kept: vec![KeptValue::Text("n".repeat(bytes)), KeptValue::Int(7)],
            ..Record::new(line, Err("12 cells, expected 81".into()), None)
        }
    }

    #[test]
    fn a_batch_counts_the_kept_bytes_it_holds_and_frees_those_it_drops() {
        let mut batch = RecordBatch::new();
        for line in 1..=10 {
            batch.push_parsed(keeping(line, 100 * line as usize));
        }
        assert_eq!(batch.byte_len(), 5500);
        // Keeping lines 1, 3, 5, 7 and 9 of the records since the second.
        batch.retain_since(1, |k| k % 2 == 1);
        assert_eq!(batch.len(), 5);
        assert_eq!(batch.byte_len(), 2500);
        let mut scratch = Scratch::default();
        let lines: Vec<u64> = (0..batch.len())
            .map(|i| batch.record(i, &mut scratch).1.line)
            .collect();
        assert_eq!(lines, [1, 3, 5, 7, 9]);
        batch.clear();
        assert_eq!(batch.byte_len(), 0);
    }

    #[test]
    fn a_batch_has_no_room_at_its_count_or_its_bytes() {
        let mut batch = RecordBatch::new();
        assert!(batch.has_room(1) && !batch.has_room(0));
        batch.push_parsed(keeping(1, 10));
        assert!(!batch.has_room(1) && batch.has_room(2));
        batch.push_parsed(keeping(2, FILL_BYTES - 20));
        assert!(batch.has_room(3));
        batch.push_parsed(keeping(3, 10));
        assert!(!batch.has_room(usize::MAX));
    }

    #[test]
    fn a_batch_set_to_fewer_bytes_is_full_at_them_and_stays_so() {
        let mut batch = RecordBatch::new();
        batch.set_fill_bytes(1000);
        assert_eq!(batch.fill_bytes(), 1000);
        batch.push_parsed(keeping(1, 999));
        assert!(batch.has_room(3));
        batch.push_parsed(keeping(2, 1));
        assert!(!batch.has_room(3));
        batch.clear();
        assert!(batch.has_room(3) && batch.fill_bytes() == 1000);
        // Never more than `FILL_BYTES`, never none.
        batch.set_fill_bytes(usize::MAX);
        assert_eq!(batch.fill_bytes(), FILL_BYTES);
        batch.set_fill_bytes(0);
        assert_eq!(batch.fill_bytes(), 1);
    }
}
