//! CSV: records framed (and capped) by [`Framer`], fields parsed by the `csv`
//! crate into one reused [`ByteRecord`].
//!
//! The framer finds where each record starts and ends (quotes included), so
//! line numbers are exact and no record over the cap reaches the `csv`
//! crate; the crate then parses one record at a time from a small buffer.

use std::io::{self, Read};
use std::ops::Range;

use csv::{ByteRecord, Reader, ReaderBuilder, Terminator, Trim};
use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::solver::Status;

use super::choose::{self, Choice, Seen};
use super::field;
use super::frame::RowTest;
use super::keep::{self, Keep};
use super::lines::{header_shaped, is_skipped};
use super::sized::{self, SizeOptions};
use super::{Column, InputError, Record};
use crate::kept::{KeptColumn, KeptValue};

/// The bytes of one framed record, handed to the `csv` crate.
#[derive(Default)]
struct Feed {
    pub(super) buf: Vec<u8>,
    pub(super) pos: usize,
}

impl Read for Feed {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let rest = &self.buf[self.pos..];
        let n = rest.len().min(out.len());
        out[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

fn parser(delimiter: u8) -> Reader<Feed> {
    ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .trim(Trim::None)
        .terminator(Terminator::Any(b'\n'))
        .buffer_capacity(8 * 1024)
        .from_reader(Feed::default())
}

/// Which fields hold what, once known.
#[derive(Clone, Debug, Default)]
pub(super) struct Columns {
    /// 0-based puzzle field; `None` until known.
    pub(super) puzzle: Option<usize>,
    /// 0-based solution field: named by the header, else chosen by
    /// content ([`choose::solution_column`]).
    pub(super) solution: Option<usize>,
    /// 0-based `status` field named by the header.
    pub(super) status: Option<usize>,
    /// Fields in the header, trailing empty ones not counted; `None`
    /// without a header.
    pub(super) header_fields: Option<usize>,
    /// Fields of the file's first record (its header, if any), trailing
    /// empty ones counted; `None` until it is read.
    pub(super) fields: Option<usize>,
    /// 0-based kept fields (`--keep`).
    pub(super) kept: Vec<usize>,
    /// 0-based fields of the cells of a grid written a value to a field
    /// under a header that numbers its cells ([`numbered_cells`]), when no
    /// column is named the puzzle: the grid is those fields, the fields
    /// before them the index, any after them other columns.
    pub(super) cells: Option<Range<usize>>,
}

/// The fields of one CSV record: ranges into a buffer, each field whole
/// (unquoted, its spaces kept).
pub struct Fields<'a> {
    pub(super) buf: &'a [u8],
    pub(super) ranges: &'a [(usize, usize)],
}

impl<'a> Fields<'a> {
    /// Field `i` (0-based), without ASCII whitespace at its ends: puzzles,
    /// solutions, statuses and header names are read trimmed.
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        self.raw(i).map(<[u8]>::trim_ascii)
    }

    /// Field `i` (0-based) exactly as the record holds it, unquoted, its
    /// spaces kept: the value `--keep` copies.
    pub fn raw(&self, i: usize) -> Option<&'a [u8]> {
        let buf = self.buf;
        self.ranges.get(i).map(|&(s, e)| &buf[s..e])
    }

    /// The number of fields.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// The fields in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        let buf = self.buf;
        self.ranges
            .iter()
            .map(move |&(s, e)| buf[s..e].trim_ascii())
    }

    /// The number of fields, trailing empty ones not counted.
    pub fn filled_len(&self) -> usize {
        let buf = self.buf;
        self.ranges
            .iter()
            .rposition(|&(s, e)| !buf[s..e].trim_ascii().is_empty())
            .map_or(0, |i| i + 1)
    }
}

/// Splits CSV records into fields with buffers reused from record to
/// record: a record without quotes is split on commas directly; one with
/// quotes goes through the `csv` crate.
pub struct CsvScratch {
    /// The `csv` crate's reader for quoted records, built on the first one
    /// (building it makes its state machine: about 550,000 instructions,
    /// once for the reader and once for every worker, at the start of
    /// every run, though most inputs hold no quote).
    parser: Option<Reader<Feed>>,
    /// The separator `parser` was built for.
    delimiter: u8,
    record: ByteRecord,
    ranges: Vec<(usize, usize)>,
}

impl Default for CsvScratch {
    fn default() -> CsvScratch {
        CsvScratch {
            parser: None,
            delimiter: b',',
            record: ByteRecord::with_capacity(256, 8),
            ranges: Vec::with_capacity(8),
        }
    }
}

impl CsvScratch {
    /// The fields of `bytes`, one record without its terminator, separated
    /// by `delimiter` (see [`Fields`]); `open_quote` closes a quote left open at the
    /// end of the input. `None` when the `csv` crate cannot read it (never
    /// expected).
    pub fn split<'a>(
        &'a mut self,
        bytes: &'a [u8],
        open_quote: bool,
        delimiter: u8,
    ) -> Option<Fields<'a>> {
        self.ranges.clear();
        if !open_quote {
            // One pass for the separators and any quote; a quote sends the
            // record to the `csv` crate.
            let mut start = 0;
            let mut quoted = false;
            for end in memchr::memchr2_iter(delimiter, b'"', bytes) {
                if bytes[end] == b'"' {
                    quoted = true;
                    break;
                }
                self.ranges.push((start, end));
                start = end + 1;
            }
            if !quoted {
                self.ranges.push((start, bytes.len()));
                return Some(Fields {
                    buf: bytes,
                    ranges: &self.ranges,
                });
            }
            self.ranges.clear();
        }
        if delimiter != self.delimiter {
            self.parser = None;
            self.delimiter = delimiter;
        }
        let reader = self.parser.get_or_insert_with(|| parser(delimiter));
        let feed = reader.get_mut();
        feed.buf.clear();
        feed.pos = 0;
        feed.buf.extend_from_slice(bytes);
        if open_quote {
            feed.buf.push(b'"');
        }
        feed.buf.push(b'\n');
        match reader.read_byte_record(&mut self.record) {
            Ok(true) => {}
            _ => {
                // Never expected: start over with a fresh parser.
                self.parser = None;
                return None;
            }
        }
        self.ranges.extend(
            (0..self.record.len()).filter_map(|i| self.record.range(i).map(|r| (r.start, r.end))),
        );
        Some(Fields {
            buf: self.record.as_slice(),
            ranges: &self.ranges,
        })
    }
}

/// The rules that turn a CSV data record into a [`Record`] once the header
/// is read and the puzzle column known; usable on any thread.
#[derive(Clone, Debug)]
pub struct CsvRules {
    pub(super) column: Option<Column>,
    pub(super) cols: Columns,
    /// The field separator.
    pub(super) delimiter: u8,
    /// The `--keep` asked for, and the kept columns once the first record
    /// named them.
    pub(super) keep: Keep,
    pub(super) kept_columns: Vec<KeptColumn>,
    /// How records of other sizes are read.
    pub(super) sizes: SizeOptions,
}

impl CsvRules {
    /// The fields of one record's bytes, in `scratch`.
    pub fn split<'a>(&self, scratch: &'a mut CsvScratch, bytes: &'a [u8]) -> Option<Fields<'a>> {
        scratch.split(bytes, false, self.delimiter)
    }

    /// True for a line of this file to pass over: blank, or a comment
    /// ([`skipped`]: a `#` line that is no record of the file).
    pub fn skips(&self, line: &[u8]) -> bool {
        skipped(line, self.delimiter, self.cols.fields, &self.sizes)
    }

    /// True once the puzzle column (or the numbered cells) is known: every
    /// later record is parsed on its own.
    pub(super) fn settled(&self) -> bool {
        self.cols.puzzle.is_some() || self.cols.cells.is_some()
    }

    /// What each field of a data record shows of the puzzle column
    /// ([`choose`]): never the header's solution or status column.
    pub(super) fn seen(&self, rec: &Fields<'_>) -> Vec<Seen> {
        rec.iter()
            .enumerate()
            .map(|(i, f)| {
                if Some(i) == self.cols.solution || Some(i) == self.cols.status {
                    Seen::Other
                } else {
                    choose::seen_text(f, &self.sizes)
                }
            })
            .collect()
    }

    /// Finds the puzzle column by what the fields show (`seen`, over the
    /// records looked at: [`CsvRules::seen`] folded by [`Seen::and`]) when
    /// no header or `--column` named it, by [`choose`]: never the header's
    /// solution or status column, a puzzle before a complete grid. Without
    /// a header naming the solution, the first other column of complete
    /// grids, before or after the puzzle column, is the solution column
    /// ([`choose::solution_column`]). `Err` with the columns (complete
    /// grids, empty ones) when they leave it unclear.
    pub(super) fn settle(&mut self, seen: &[Seen]) -> Result<(), (Vec<usize>, Vec<usize>)> {
        if !self.settled() {
            if let Some(Column::Index(n)) = &self.column {
                self.cols.puzzle = Some(n.saturating_sub(1));
            } else {
                match choose::choose(seen) {
                    Choice::Column(i) => self.cols.puzzle = Some(i),
                    Choice::Nothing => {}
                    Choice::Unclear { complete, empty } => return Err((complete, empty)),
                }
            }
        }
        if self.cols.solution.is_none() {
            if let Some(puzzle) = self.cols.puzzle {
                self.cols.solution = choose::solution_column(seen, puzzle);
            }
        }
        Ok(())
    }

    /// Resolves `--keep` against the header's names, or `field1`, ... for
    /// the first record of an input without a header.
    pub(super) fn settle_kept(&mut self, names: &[String], name: &str) -> Result<(), InputError> {
        if self.keep.is_nothing() {
            return Ok(());
        }
        self.cols.kept = self.keep.resolve(names, name)?;
        self.kept_columns = keep::text_columns(names, &self.cols.kept);
        Ok(())
    }

    /// Turns a data record's fields into a [`Record`], with its kept
    /// fields (null where the record has fewer fields). The record is
    /// built once, where it is returned: built and then changed, it was
    /// copied whole (288 bytes, through `memcpy`) on every record.
    pub fn record(&self, line: u64, rec: &Fields<'_>) -> Record {
        if let Some(header) = self.cols.header_fields {
            // A field too many or too few shifts the columns: nothing in
            // the record can be trusted.
            let filled = rec.filled_len();
            if filled > header || rec.len() < header {
                let fields = if filled > header { filled } else { rec.len() };
                let plural = if fields == 1 { "" } else { "s" };
                let message = format!("{fields} field{plural}, but the header has {header}");
                return self.with_kept(Record::new(line, Err(message), None), rec);
            }
        }
        let Some(at) = self.cols.puzzle else {
            if let Some(cells) = self.cols.cells.clone() {
                return self.numbered_grid(line, rec, cells);
            }
            let message = "no field looks like a puzzle".into();
            let mut record = self.with_kept(Record::new(line, Err(message), None), rec);
            if let Some(grid) = spread_grid(rec) {
                record.set_sized(sized::read(&grid, None, &self.sizes));
            }
            return record;
        };
        let puzzle = match rec.get(at) {
            Some(f) => field::puzzle(f).ok_or_else(|| field::error(f)),
            None => Err(format!(
                "no field {} (the record has {})",
                at + 1,
                rec.len()
            )),
        };
        let mut solution_error = None;
        let given = self
            .cols
            .solution
            .and_then(|i| rec.get(i))
            .filter(|f| !f.is_empty() && !field::missing(f));
        let solution = given.and_then(|f| {
            let grid = field::solution(f);
            if grid.is_none() {
                solution_error = Some(field::not_a_solution(f));
            }
            grid
        });
        let expected = self.expected(rec);
        if puzzle.is_err() {
            if let Some(f) = rec.get(at).filter(|f| sized::looks_sized(f)) {
                let mut record = Record {
                    kept: self.kept(rec),
                    ..Record::new(line, puzzle, None)
                };
                record.set_expected(expected);
                record.set_sized(sized::read(f, given, &self.sizes));
                return record;
            }
        }
        let mut record = Record {
            line,
            puzzle,
            solution,
            solution_error,
            expected: None,
            status_error: None,
            kept: self.kept(rec),
            sized: None,
        };
        record.set_expected(expected);
        record
    }

    /// What the record's status field, if any, says it expects
    /// ([`field::status`]); nothing without a status column or field.
    fn expected(&self, rec: &Fields<'_>) -> Result<Option<Status>, String> {
        match self.cols.status.and_then(|i| rec.get(i)) {
            Some(f) => field::status(f),
            None => Ok(None),
        }
    }

    /// The puzzle and given solution of a record in the common form, the
    /// same as [`CsvRules::record`] would read: an unquoted 9x9 puzzle of 81
    /// digits and blanks in the first field, then nothing or a delimiter and
    /// an 81-digit solution as the second field, in a layout with no status
    /// or kept column. `None` for anything else (nothing is wrong with such
    /// a record: [`CsvRules::record`] reads it). No field is cut: the
    /// puzzle's and solution's bytes are read where they lie.
    #[inline(always)]
    pub fn plain(&self, bytes: &[u8]) -> Option<(Grid, Option<Grid>)> {
        let cols = &self.cols;
        if cols.puzzle != Some(0)
            || cols.status.is_some()
            || !cols.kept.is_empty()
            || field::is_cell(self.delimiter)
            || cols.solution == Some(0)
        {
            return None;
        }
        let puzzle = Grid::from_line(bytes.first_chunk::<CELLS>()?)?;
        let rest = &bytes[CELLS..];
        // The fields a record of one or two fields has: the header's
        // count of them, if any, must match (see `CsvRules::record`).
        let Some((&delimiter, second)) = rest.split_first() else {
            return matches!(cols.header_fields, None | Some(1)).then_some((puzzle, None));
        };
        if delimiter != self.delimiter || !matches!(cols.header_fields, None | Some(2)) {
            return None;
        }
        let solution = Grid::complete_from_line(second.try_into().ok()?)?;
        Some((puzzle, (cols.solution == Some(1)).then_some(solution)))
    }

    /// The record of a grid written a value to a field in fields `cells`,
    /// under a header that numbers them ([`numbered_cells`]):
    /// those values read as one grid of any size, as the same values in
    /// one field are, with the solution and status columns the header
    /// names and the kept fields (the index among them when asked).
    fn numbered_grid(&self, line: u64, rec: &Fields<'_>, cells: Range<usize>) -> Record {
        let mut grid = Vec::with_capacity(cells.len() * 3);
        let first = cells.start;
        for (i, f) in rec.iter().enumerate().take(cells.end).skip(first) {
            if i > first {
                grid.push(b',');
            }
            grid.extend_from_slice(frame_cell(f));
        }
        let given = self.cols.solution.and_then(|i| rec.get(i));
        let mut record = Record {
            kept: self.kept(rec),
            ..Record::new(line, Err("no field looks like a puzzle".into()), None)
        };
        record.set_expected(self.expected(rec));
        record.set_sized(sized::read(
            &grid,
            given.filter(|g| !g.is_empty()),
            &self.sizes,
        ));
        record
    }

    /// `record` (one that is not a puzzle) with the record's kept fields.
    fn with_kept(&self, record: Record, rec: &Fields<'_>) -> Record {
        Record {
            kept: self.kept(rec),
            ..record
        }
    }

    /// The record's values of the kept columns, null where it has fewer
    /// fields; empty (no allocation) without kept columns.
    fn kept(&self, rec: &Fields<'_>) -> Vec<KeptValue> {
        if self.cols.kept.is_empty() {
            return Vec::new();
        }
        self.cols
            .kept
            .iter()
            .map(|&i| rec.raw(i).map_or(KeptValue::Null, keep::text))
            .collect()
    }
}

/// What a record of a CSV file is, as far as it is known: the framer's
/// test of a line that a quoted field over line ends took in
/// ([`reads_as_a_record`], [`row_test`]).
#[derive(Clone, Debug)]
pub struct RecordShape {
    /// The field separator.
    pub delimiter: u8,
    /// The fields of the file's first record (its header, if any), once
    /// read.
    pub fields: Option<usize>,
    /// The 0-based field of the file's puzzles (of a solutions file's
    /// solutions), once known.
    pub puzzle: Option<usize>,
    /// The options the file's grids of other sizes are read with.
    pub sizes: SizeOptions,
}

/// True when `line`, a line that a CSV quoted field over line ends took
/// in, reads as a record of the file on its own: the framer's test
/// ([`super::frame::Framer::with_row_test`]) that tells a stray quote (a
/// ditto mark `"`, a quote typed by hand, closed by chance lines later)
/// from a note over several lines. Cut at the delimiter (quotes minded),
/// it reads as one when it has two fields or more, or the file's records
/// have one, and
/// - a field holds a grid in any form the readers read, damaged or not
///   ([`grid_like`]), in any field (a row short of a field, or with one
///   too many, has its puzzle elsewhere);
/// - or 16 fields or more in a row are one cell each ([`spread_like`]): a
///   grid written a value to a field, as pandas writes an array;
/// - or it has as many fields as the file's first record and its field
///   in the puzzle column is empty or marks a missing value
///   ([`field::missing`]: `NA`, `-`, `x`, ...): a row without its puzzle,
///   which reads as `malformed` saying so.
///
/// A line of a note that is a grid alone, in a file of several columns,
/// is a line of the note (a puzzle pasted into a note); a line of prose
/// (`second, with, commas`), whatever its field count, is one unless its
/// field in the puzzle column is empty or a placeholder. A line of a note
/// taken for a row is wrongly so, but then the rows read again are
/// reported, where a stray quote's would be gone without a word.
pub fn reads_as_a_record(line: &[u8], shape: &RecordShape) -> bool {
    let cut = fields_of(line, shape.delimiter);
    if cut.len() < 2 && shape.fields.is_some_and(|n| n != 1) {
        return false;
    }
    let without_puzzle = shape.fields == Some(cut.len())
        && shape
            .puzzle
            .and_then(|i| cut.get(i))
            .is_some_and(|f| f.is_empty() || field::missing(f));
    without_puzzle || spread_like(&cut) || cut.iter().any(|f| grid_like(f, &shape.sizes))
}

/// The framer's row test ([`super::frame::Framer::with_row_test`]) of a CSV
/// file whose records have the `shape` known so far: [`reads_as_a_record`].
pub fn row_test(shape: RecordShape) -> RowTest {
    Box::new(move |line| reads_as_a_record(line, &shape))
}

/// True when 16 fields or more in a row of `fields` (a line's, as
/// [`fields_of`] cuts it), not all empty, are each one cell of a grid
/// written a value to a field, whole or damaged: one character, a number
/// of two (`-1`, `16`), such a number as a float column writes it (`4.0`),
/// or empty (a frame's missing value): `4,.,.,3,...`, `3,0,2,...,note`,
/// `5.0,,3.0,...`, with other columns before or after it ([`is_spread`]'s
/// layout, and [`frame_cell`]'s under a header that numbers the cells).
/// No line of prose has as many one-character fields in a row.
fn spread_like(fields: &[&[u8]]) -> bool {
    let cell = |f: &&[u8]| {
        let f = match f.strip_suffix(b".0") {
            Some(whole) if !whole.is_empty() => whole,
            _ => f,
        };
        f.len() <= 1
            || (f.len() == 2
                && std::str::from_utf8(f)
                    .ok()
                    .and_then(|text| text.parse::<i64>().ok())
                    .is_some_and(|value| (-1..=64).contains(&value)))
    };
    fields
        .split(|f| !cell(f))
        .any(|run| run.len() >= 16 && run.iter().any(|f| !f.is_empty()))
}

/// The fields of the CSV line `line`, cut at `delimiter` outside quotes,
/// trimmed and with the quotes around them taken off (`""` inside left as
/// it is: only telling a grid matters here). A quote left open runs to the
/// line's end.
fn fields_of(line: &[u8], delimiter: u8) -> Vec<&[u8]> {
    let mut fields = Vec::new();
    let (mut quoted, mut start) = (false, 0);
    for (i, &b) in line.iter().enumerate() {
        if b == b'"' {
            quoted = !quoted;
        } else if b == delimiter && !quoted {
            fields.push(&line[start..i]);
            start = i + 1;
        }
    }
    fields.push(&line[start..]);
    fields
        .into_iter()
        .map(|f| {
            let f = f.trim_ascii();
            let f = f.strip_prefix(b"\"").unwrap_or(f);
            f.strip_suffix(b"\"").unwrap_or(f)
        })
        .collect()
}

/// True for a field that is, or nearly is, a one-line grid in a form the
/// readers read: 17 or more cells (digits and blanks) with a digit among
/// them, nine tenths of the field or more (`4.3..`: an 80-cell puzzle too,
/// which reads as `malformed`); or 17 or more values separated by commas
/// or spaces, nine tenths of them one cell each (`4 . 3 . .`, `3,0,2,...`);
/// a grid of another size ([`field::other_size`]), or a record of another
/// size under `sizes` ([`sized::could_be_record`]).
fn grid_like(f: &[u8], sizes: &SizeOptions) -> bool {
    let digit = f.iter().any(u8::is_ascii_digit);
    let apart = |b: &u8| *b == b',' || b.is_ascii_whitespace();
    let cells = |tokens: &[&[u8]]| {
        let one = tokens
            .iter()
            .filter(|t| matches!(t, [b] if field::is_cell(*b)))
            .count();
        tokens.len() >= 17 && one * 10 >= tokens.len() * 9
    };
    let contiguous = !f.iter().any(apart) && {
        let n = f.iter().filter(|&&b| field::is_cell(b)).count();
        n >= 17 && n * 10 >= f.len() * 9
    };
    let tokens: Vec<&[u8]> = f.split(apart).filter(|t| !t.is_empty()).collect();
    (digit && (contiguous || cells(&tokens)))
        || field::other_size(f).is_some()
        || sized::could_be_record(f, sizes)
}

/// True for a record of `count` fields that is one grid written a value
/// to a field (`0,0,3,0,2,...` not quoted, as numpy's `savetxt` writes a
/// grid, or a table of one column per cell): n*n fields for a side n of 4
/// to 64, each a cell of such a grid: one character (a digit, a letter, a
/// blank), or a number from -1 to n. Such a record is never a header, and
/// is read as that grid ([`spread_grid`]); so is a solutions file's. A
/// header that numbers the columns (`0,1,...,80`, as pandas writes an
/// array's) holds numbers above n: a header still.
pub fn is_spread<'a>(count: usize, mut fields: impl Iterator<Item = &'a [u8]>) -> bool {
    let Some(side) = sudoku_core::sizes::side_of(count).filter(|_| count >= 16) else {
        return false;
    };
    fields.all(|f| {
        f.len() == 1
            || (f.len() == 2
                && std::str::from_utf8(f)
                    .ok()
                    .and_then(|text| text.parse::<i64>().ok())
                    .is_some_and(|value| (-1..=side as i64).contains(&value)))
    })
}

/// A cell as a data frame writes it under a header that numbers the
/// cells ([`numbered_cells`]): a missing value (pandas' `NaN` or `<NA>`,
/// the usual way a frame holds a blank) is an empty field, read as a blank
/// (`.`); a whole number of a float column (`4.0`, as pandas writes every
/// value of a column with a `NaN`) is read as that number (`4`).
fn frame_cell(f: &[u8]) -> &[u8] {
    if f.is_empty() {
        return b".";
    }
    match f.strip_suffix(b".0") {
        Some(whole)
            if !whole.is_empty()
                && whole
                    .strip_prefix(b"-")
                    .unwrap_or(whole)
                    .iter()
                    .all(u8::is_ascii_digit)
                && whole != b"-" =>
        {
            whole
        }
        _ => f,
    }
}

/// The 0-based positions of the cells when a header's names hold the
/// cells of one grid numbered from 0 (`0,1,...,80`: n*n names for a side n
/// of 4 to 64, as pandas names an array's columns): after the index
/// (`,0,1,...,80` as pandas' `to_csv` writes an array with its unnamed
/// index; `,Unnamed: 0,0,1,...` a frame read back and written again), and
/// before other columns a frame adds to the array's (`...,80,rating`).
/// `None` for any other header, and for one whose names from `0` on do
/// not number a grid's cells (`0,...,81`, or a name `0` twice).
pub fn numbered_cells(names: &[String]) -> Option<Range<usize>> {
    let first = names.iter().position(|name| name == "0")?;
    let count = names[first..]
        .iter()
        .enumerate()
        .take_while(|(i, name)| **name == i.to_string())
        .count();
    let cells = first..first + count;
    let again = names[cells.end..].iter().any(|name| name == "0");
    (count >= 16 && sudoku_core::sizes::side_of(count).is_some() && !again).then_some(cells)
}

/// The values of a record that [`is_spread`], joined by commas as the
/// field [`sized::read`] takes.
pub fn spread_grid(rec: &Fields<'_>) -> Option<Vec<u8>> {
    if !is_spread(rec.len(), rec.iter()) {
        return None;
    }
    let mut grid = Vec::with_capacity(rec.len() * 3);
    for (i, f) in rec.iter().enumerate() {
        if i > 0 {
            grid.push(b',');
        }
        grid.extend_from_slice(f);
    }
    Some(grid)
}

/// True for a line of a CSV file to pass over: one [`is_skipped`] skips
/// (blank, a lone 0x1A, a `#` line), unless it is a `#` line that is a
/// record of the file. CSV has no comments: a spreadsheet's row-number
/// column named `#`, an id `#2` or a note `#2 hardest` put a `#` first in
/// a record, and pandas and Python's `csv` read it as one. So a `#` line
/// is a record when it has the file's `fields` (two or more: the header's
/// count, or the first record's, once read), or reads as a record on its
/// own ([`reads_as_a_record`]: a grid in a field); only a line that can be
/// no record of the file (`# exported 2024-01-01`) is a comment.
pub fn skipped(line: &[u8], delimiter: u8, fields: Option<usize>, sizes: &SizeOptions) -> bool {
    if !is_skipped(line) {
        return false;
    }
    if !line.trim_ascii_start().starts_with(b"#") {
        return true;
    }
    let count = fields_of(line, delimiter).len();
    let filled = fields.is_some_and(|n| n >= 2 && count == n);
    let shape = RecordShape {
        delimiter,
        fields,
        puzzle: None,
        sizes: sizes.clone(),
    };
    !filled && !reads_as_a_record(line, &shape)
}

/// The fields of a `#` line before a CSV file's first record that could be
/// its header (`#,quizzes,solutions`: a spreadsheet's row-number column
/// named `#`): a line [`skipped`] passes over that starts with `#` and is
/// shaped like a header, not a comment ([`header_shaped`]: two fields or
/// more, no space in the one the `#` starts, or a later one naming a
/// puzzle or solution column). It is the header when the line after it
/// (blanks and comments aside) is a record of as many fields; else a
/// comment (`# a, b` before a file without a header).
pub fn header_in_hash(line: &[u8], delimiter: u8) -> Option<usize> {
    let fields = fields_of(line, delimiter);
    (line.trim_ascii_start().starts_with(b"#") && header_shaped(fields.iter().copied()))
        .then_some(fields.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";
    const SOLUTION: &str =
        "864371259325849761971265843436192587198657432257483916689734125713528694542916378";

    /// Whether `line` reads as a record of a file of fields separated by
    /// `delimiter`, whose records have `fields` fields and its puzzles in
    /// field `puzzle`, as far as known.
    fn reads_in(line: &str, delimiter: u8, fields: Option<usize>, puzzle: Option<usize>) -> bool {
        let shape = RecordShape {
            delimiter,
            fields,
            puzzle,
            sizes: SizeOptions::default(),
        };
        reads_as_a_record(line.as_bytes(), &shape)
    }

    #[test]
    fn a_hash_line_is_a_record_when_it_can_be_one_of_the_file() {
        let sizes = SizeOptions::default();
        let skips = |line: &str, fields| skipped(line.as_bytes(), b',', fields, &sizes);
        // The file's field count: an id or note `#...`, a row number `#`.
        assert!(!skips("#2,x", Some(2)));
        assert!(!skips("#2 hardest,", Some(2)));
        assert!(!skips("  #, \"a, b\",c", Some(3)));
        // A grid in a field, whatever the count, or before it is known.
        assert!(!skips(&format!("#2,{PUZZLE}"), None));
        assert!(!skips(&format!("#2,{PUZZLE}"), Some(3)));
        // Comments: no grid, another count, or a file of one column.
        assert!(skips("# exported by hand", Some(2)));
        assert!(skips("# exported, by hand", Some(3)));
        assert!(skips("# exported, by hand", None));
        assert!(skips("#x", Some(1)));
        // Blank lines and 0x1A, as everywhere; a placeholder is a value.
        assert!(skips("  ", Some(2)));
        assert!(skips("\x1A", Some(2)));
        assert!(!skips("#N/A", Some(1)));
        assert!(!skips("x,y", Some(3)));
        // Cut at the file's delimiter.
        assert!(skipped(b"#1;x", b',', Some(2), &sizes));
        assert!(!skipped(b"#1;x", b';', Some(2), &sizes));
        assert_eq!(header_in_hash(b"#,quizzes,solutions", b','), Some(3));
        assert_eq!(header_in_hash(b"# quizzes", b','), None);
        // A comment's `#` starts words; a line naming a puzzle or solution
        // column is a header whatever its first field.
        assert_eq!(header_in_hash(b"# a, b", b','), None);
        assert_eq!(header_in_hash(b"# exported, by hand", b','), None);
        assert_eq!(header_in_hash(b"#id;\"quizzes\"", b';'), Some(2));
        assert_eq!(header_in_hash(b"# id,Solution", b','), Some(2));
        assert_eq!(header_in_hash(b"id,#", b','), None);
    }

    #[test]
    fn a_line_with_a_grid_and_a_delimiter_reads_as_a_record() {
        let reads = |line: &str, delimiter, fields| reads_in(line, delimiter, fields, None);
        let line = format!("7, \"{PUZZLE}\" ,\"a, b\"");
        assert!(reads(&line, b',', None));
        assert!(reads(&line, b',', Some(3)));
        // A row short of a field, or with one too many: a grid anywhere.
        assert!(reads(&format!("2,{PUZZLE}"), b',', Some(4)));
        assert!(reads(&format!("2,x,y,{PUZZLE}"), b',', Some(4)));
        // A puzzle cut short by a cell is a damaged record still.
        assert!(reads(&format!("2,x,{}", &PUZZLE[1..]), b',', Some(4)));
        // A quote opened and left open runs to the line's end.
        assert!(reads(&format!("2,{PUZZLE},\""), b',', Some(3)));
        // A grid alone on a line of a note, in a file of three columns; in a
        // file of one, a record.
        assert!(!reads(PUZZLE, b',', Some(3)));
        assert!(reads(PUZZLE, b',', Some(1)));
        assert!(reads(PUZZLE, b',', None));
        // Text with commas, or a grid's first cells only, is a note's line.
        assert!(!reads("second, with, commas", b',', Some(3)));
        assert!(!reads(&format!("x,{}", &PUZZLE[..12]), b',', Some(3)));
        // Cut at another delimiter, the line is one field.
        assert!(!reads(&format!("7,{PUZZLE}"), b';', Some(3)));
        assert!(reads("x;1..4..2.3...1.2.", b';', Some(2)));
    }

    #[test]
    fn grids_written_with_spaces_or_numbers_between_commas_are_grids() {
        let spaced: Vec<String> = PUZZLE.chars().map(String::from).collect();
        let spaced = spaced.join(" ");
        let line = format!("2;{spaced};\"");
        assert!(reads_in(&line, b';', Some(3), None));
        let numbers: Vec<String> = PUZZLE
            .chars()
            .map(|c| match c.to_digit(10) {
                Some(d) if d > 0 => (d - 1).to_string(),
                _ => ".".into(),
            })
            .collect();
        let line = format!("2;{}", numbers.join(","));
        assert!(reads_in(&line, b';', Some(3), None));
        assert!(!reads_in("2;see also: 3, 4", b';', Some(3), None));
    }

    #[test]
    fn a_grid_a_value_to_a_field_reads_as_a_record_whole_or_damaged() {
        let cells: Vec<String> = PUZZLE.chars().map(String::from).collect();
        let spread = cells.join(",");
        // 81 fields and a note, as under pandas' header `0,1,...,80,note`.
        assert!(reads_in(&format!("{spread},ok"), b',', Some(82), None));
        assert!(reads_in(&format!("{spread},"), b',', Some(82), None));
        // A cell short, after an index, or numbers of a 0-based grid.
        assert!(reads_in(&cells[1..].join(","), b',', Some(82), None));
        assert!(reads_in(&format!("7,{spread},ok"), b',', Some(83), None));
        let numbers = ["-1", "3", "0", "8"].repeat(20).join(",");
        assert!(reads_in(&numbers, b',', Some(82), None));
        // A frame's: missing values empty, numbers of a float column.
        let frame = ["5.0", "", "3.0", ""].repeat(20).join(",");
        assert!(reads_in(&format!("0,{frame}"), b',', Some(82), None));
        assert!(!reads_in(&[""; 82].join(","), b',', Some(82), None));
        // Cells cut at the file's own delimiter only; a few in a row are
        // no grid.
        assert!(!reads_in(&format!("{spread},ok"), b';', Some(82), None));
        assert!(!reads_in(
            "a, b, c, d, e, f, g, h, i, j, k, l, m, n, o",
            b',',
            Some(82),
            None
        ));
        assert!(!reads_in(
            "options: 1, 2, or 3, then 4, 5",
            b',',
            Some(82),
            None
        ));
    }

    #[test]
    fn a_line_of_the_files_field_count_without_its_puzzle_reads_as_a_record() {
        // `id,puzzle,note`: a row with no puzzle, or a placeholder of one.
        for line in ["2,,x", "3,NA,", "4, - ,note", "5,\"\",\"a, b\""] {
            assert!(reads_in(line, b',', Some(3), Some(1)), "{line}");
            // Not while the puzzle column is unknown.
            assert!(!reads_in(line, b',', Some(3), None), "{line}");
        }
        // Prose with as many fields, or a placeholder in another field.
        assert!(!reads_in("second, with, commas", b',', Some(3), Some(1)));
        assert!(!reads_in("NA,y,", b',', Some(3), Some(1)));
        // Another field count: a row short of a field has its puzzle
        // elsewhere, or is a line of a note.
        assert!(!reads_in("2,", b',', Some(3), Some(1)));
        assert!(!reads_in("2,,x,y", b',', Some(3), Some(1)));
        assert!(reads_in("2;;x", b';', Some(3), Some(1)));
        assert!(!reads_in("2;;x", b',', Some(3), Some(1)));
    }

    #[test]
    fn a_frames_missing_value_is_a_blank_and_its_whole_floats_are_numbers() {
        for (cell, read) in [
            ("", "."),
            ("4.0", "4"),
            ("-1.0", "-1"),
            ("10.0", "10"),
            ("4", "4"),
            ("4.5", "4.5"),
            (".0", ".0"),
            ("-.0", "-.0"),
            ("x.0", "x.0"),
        ] {
            assert_eq!(frame_cell(cell.as_bytes()), read.as_bytes(), "{cell:?}");
        }
    }

    #[test]
    fn a_spread_grid_holds_cells_of_its_size_only() {
        let spread =
            |text: &str| is_spread(text.split(',').count(), text.split(',').map(str::as_bytes));
        let nine = ["0"; 81].join(",");
        assert!(spread(&nine));
        assert!(spread(&nine.replacen('0', "-1", 3)));
        // Column numbers (pandas' header of an array): 10 and up are no
        // 9x9 cell, but 16 is a 16x16's.
        let numbered: Vec<String> = (0..81).map(|i| i.to_string()).collect();
        assert!(!spread(&numbered.join(",")));
        let sixteen = ["16"; 256].join(",");
        assert!(spread(&sixteen));
        assert!(!spread(&sixteen.replacen("16", "17", 1)));
        // Not a square, or fewer than 16 fields.
        assert!(!spread("1,2,3,4,5,6,7,8,9"));
        assert!(!spread(&["1"; 80].join(",")));
    }

    #[test]
    fn a_header_numbering_a_grids_cells_names_where_they_are() {
        let names = |index: &[&str], cells: usize| -> Vec<String> {
            let mut all: Vec<String> = index.iter().map(|n| n.to_string()).collect();
            all.extend((0..cells).map(|i| i.to_string()));
            all
        };
        // pandas' array: no index, its unnamed index, a frame read back
        // and written again; every size.
        assert_eq!(numbered_cells(&names(&[], 81)), Some(0..81));
        assert_eq!(numbered_cells(&names(&[""], 81)), Some(1..82));
        assert_eq!(numbered_cells(&names(&["", "Unnamed: 0"], 81)), Some(2..83));
        assert_eq!(numbered_cells(&names(&["id"], 16)), Some(1..17));
        assert_eq!(numbered_cells(&names(&[""], 256)), Some(1..257));
        // Not a grid's count, too few, out of order, or not last.
        assert_eq!(numbered_cells(&names(&[""], 82)), None);
        assert_eq!(numbered_cells(&names(&[""], 9)), None);
        let mut swapped = names(&[""], 81);
        swapped.swap(3, 4);
        assert_eq!(numbered_cells(&swapped), None);
        // Other columns of the frame after the cells.
        let mut rated = names(&[""], 81);
        rated.extend(["rating".into(), "source".into()]);
        assert_eq!(numbered_cells(&rated), Some(1..82));
        // The cells of two grids numbered from 0 each: which is the puzzle?
        let mut twice = names(&[""], 81);
        twice.extend((0..81).map(|i| i.to_string()));
        assert_eq!(numbered_cells(&twice), None);
        assert_eq!(numbered_cells(&["puzzle".to_string()]), None);
        assert_eq!(numbered_cells(&[]), None);
    }

    fn rules(cols: Columns, delimiter: u8) -> CsvRules {
        CsvRules {
            column: None,
            cols,
            delimiter,
            keep: Keep::Nothing,
            kept_columns: Vec::new(),
            sizes: SizeOptions::default(),
        }
    }

    /// Every layout `plain` must get right: headers of 1 to 3 fields or
    /// none, the solution named or found by content, status and kept
    /// columns, and a delimiter that is a cell character.
    fn layouts() -> Vec<CsvRules> {
        let mut all = vec![];
        for header_fields in [None, Some(1), Some(2), Some(3)] {
            for solution in [None, Some(1), Some(2)] {
                for (status, kept) in [(None, vec![]), (Some(2), vec![]), (None, vec![1])] {
                    for delimiter in [b',', b';', b'0'] {
                        let cols = Columns {
                            puzzle: Some(0),
                            solution,
                            status,
                            header_fields,
                            fields: header_fields,
                            kept: kept.clone(),
                            cells: None,
                        };
                        all.push(rules(cols, delimiter));
                    }
                }
            }
        }
        all.push(rules(
            Columns {
                puzzle: Some(1),
                ..Columns::default()
            },
            b',',
        ));
        all
    }

    fn records(d: char) -> Vec<String> {
        let wrong = format!("{}1{}", &SOLUTION[..10], &SOLUTION[11..]);
        vec![
            PUZZLE.to_string(),
            format!("{PUZZLE}{d}{SOLUTION}"),
            format!("{PUZZLE}{d}{SOLUTION}{d}"),
            format!("{PUZZLE}{d}{SOLUTION}{d}solved"),
            format!("{PUZZLE}{d}"),
            format!("{PUZZLE}{d}{}", &SOLUTION[..80]),
            format!("{PUZZLE}{d}{SOLUTION} "),
            format!("{PUZZLE}{d}{}", PUZZLE.replace('.', "0")),
            format!("{PUZZLE}{d}{wrong}"),
            format!(" {PUZZLE}{d}{SOLUTION}"),
            format!("\"{PUZZLE}\"{d}{SOLUTION}"),
            format!("{}{d}{SOLUTION}", &PUZZLE[..80]),
            format!("{}x{d}{SOLUTION}", &PUZZLE[..80]),
            format!("{PUZZLE}x{SOLUTION}"),
        ]
    }

    #[test]
    fn plain_records_read_as_the_general_rules_read_them() {
        let mut scratch = CsvScratch::default();
        let mut taken = 0;
        for rules in layouts() {
            for text in records(rules.delimiter as char) {
                let Some((puzzle, solution)) = rules.plain(text.as_bytes()) else {
                    continue;
                };
                taken += 1;
                let fields = rules.split(&mut scratch, text.as_bytes()).unwrap();
                let record = rules.record(7, &fields);
                assert_eq!(
                    record,
                    Record::new(7, Ok(puzzle), solution),
                    "{text:?} in {:?}",
                    rules.cols
                );
            }
        }
        // The common forms are taken: one field, or a puzzle and its
        // solution, in the layouts without status or kept columns.
        assert_eq!(taken, 36);
    }
}
