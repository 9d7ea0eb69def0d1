//! `--resume`: continue a results file that an earlier run left unfinished
//! (interrupted, killed, out of disk): CSV or JSON Lines, plain or
//! gzip-compressed, or Parquet.
//!
//! Two steps, both streaming, so a results file of any length is resumed in
//! bounded memory:
//!
//! 1. [`scan`] reads the file before the run: it keeps the complete rows (a
//!    last row without its newline was cut short and is dropped), counts
//!    them and checks that the header (of JSON Lines, the first row's keys)
//!    is the run's, without parsing the rows. A `.gz` file is kept up to
//!    the end of its last complete gzip
//!    member: the results are written a member per chunk of whole rows (see
//!    `output::members`), so a member cut short is dropped as a cut row is.
//! 2. [`skip_kept`] wraps the inputs' record streams: the kept rows are
//!    parsed and checked to be results rows on a thread of their own, then
//!    tallied (so that the summary covers the whole file), and on the
//!    reader thread the first records are compared with them (same input,
//!    same line, same puzzle, or both malformed) and skipped; the records
//!    after them go on to be solved and appended. The first difference, or
//!    a row that is not a results row, ends the run with
//!    [`ResumeError::Mismatch`] (or
//!    [`ResumeError::InputShort`], [`ResumeError::BadRow`]) before anything
//!    is appended.
//!
//! A Parquet file is scanned by [`scan_parquet`] (its footer, and its
//! columns checked with their types) and its rows read back by
//! [`ParquetRecords`], each laid out as the CSV record of the same row and
//! matched as above; it is continued under another name, not appended to
//! ([`crate::output::ResultsWriter::continue_parquet`]).
//!
//! The rows are parsed once, while they are matched: parsing them in
//! [`scan`] as well made resuming a finished run of easy puzzles take
//! longer than solving them again. A JSON Lines row is laid out as the CSV
//! record of the same row ([`json_fields`]) and parsed as CSV rows are.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, PoisonError};

use ::parquet::file::metadata::ParquetMetaData;
use sudoku_core::grid::UnitKind;
use sudoku_core::sizes::{Shape, SizedGrid, Symbols};
use sudoku_core::solver::{Mode, SolverKind, Status};

use crate::input::{InputError, Record, RecordBatch, RecordStream, SizedRecord};
use crate::job::pipeline::Source;
use crate::output::rating::RatingColumns;
use crate::output::read_back::{
    delimiter_name, header_delimiter, json_fields, parse_row, read_sized, stray_quote, Columns,
    JsonMembers, ParquetRecords, Row, RowsWithin,
};
use crate::output::stats::Tally;
use crate::output::{Blank, Compression, OutputFormat};

pub use crate::error::{ResumeError, RowAt};

/// What [`scan`] found in a results file.
#[derive(Clone, Debug)]
pub struct Kept {
    /// The results file.
    pub path: PathBuf,
    /// Its format: CSV, JSON Lines or Parquet.
    pub format: OutputFormat,
    /// Length in bytes of its complete lines, header included: appending
    /// starts here (anything after is a row cut short, and is dropped). 0
    /// when the file is missing, empty, or has no complete header (of JSON
    /// Lines, no complete row).
    pub len: u64,
    /// Complete rows after the header.
    pub rows: u64,
    /// Where the rows' fields are: after a `file` column with several
    /// inputs, and followed by the kept columns (`--keep`).
    columns: Columns,
    /// The header this run writes: of JSON Lines, every row's keys.
    header: Vec<String>,
    /// The field delimiter of CSV (`--output-delimiter`): the run that
    /// wrote the file must have written this one.
    delimiter: u8,
    /// Of a Parquet file, its footer (`None` when the file is missing or
    /// empty): the file is continued under another name
    /// ([`crate::output::ResultsWriter::continue_parquet`]), not appended
    /// to, and `len` is 0.
    pub parquet: Option<Arc<ParquetMetaData>>,
}

impl Kept {
    /// True when the file is gzip-compressed (a `.gz` name).
    fn gzip(&self) -> bool {
        Compression::of_name(&self.path) == Compression::Gzip
    }

    /// True for JSON Lines results.
    fn jsonl(&self) -> bool {
        self.format == OutputFormat::Jsonl
    }

    /// The kept part of the file (its first `len` bytes), as text.
    fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        let bytes = BufReader::new(File::open(&self.path)?).take(self.len);
        Ok(if self.gzip() {
            Box::new(flate2::read::MultiGzDecoder::new(bytes))
        } else {
            Box::new(bytes)
        })
    }

    /// The kept rows, read from the start of the file.
    fn rows(&self) -> Result<RowReader<Box<dyn Read + Send>>, ResumeError> {
        let read_error = |source| ResumeError::Read {
            path: self.path.clone(),
            source,
        };
        let Some(metadata) = &self.parquet else {
            return Ok(RowReader::new(self.open().map_err(read_error)?, self));
        };
        // The columns `parse_row` reads; the kept ones are not read.
        let columns = &self.columns;
        let mut read = vec![
            columns.line,
            columns.puzzle,
            columns.status,
            columns.message,
        ];
        read.extend(columns.file);
        read.extend(columns.solved.iter().flatten());
        read.extend(
            columns
                .rating
                .iter()
                .flat_map(|r| [Some(r.rating), Some(r.hardest), r.steps])
                .flatten(),
        );
        let file = File::open(&self.path).map_err(read_error)?;
        let records = ParquetRecords::new(file, Arc::clone(metadata), &read, columns.file)
            .map_err(|cause| ResumeError::Unreadable {
                path: self.path.clone(),
                cause,
            })?;
        Ok(RowReader::with_rows(Rows::Parquet(records), self))
    }
}

/// Bytes read at a time when looking for the end of the last record.
const READ_BLOCK: usize = 64 * 1024;

/// Reads the results file at `path` in `format` (CSV or JSON Lines)
/// written for inputs named `names`, whose
/// header this run writes as `header` (with the kept columns, `--keep`, and
/// the `rating` columns of `rate` or `solve --rate`; of JSON Lines, the
/// keys of every row): the
/// length of its complete rows and their count, with its header (the first
/// JSON Lines row's keys) checked. A
/// missing file is an empty one. The rows themselves are checked when they
/// are matched (see [`skip_kept`]). Always reads the whole file: the length
/// it finds is where the file is cut before rows are appended, so it is
/// never cut short by a signal (the caller stops waiting for it instead).
///
/// # Errors
/// [`ResumeError::Read`], [`ResumeError::Header`] (a header other than the
/// one this run would write, e.g. one input now and several then),
/// [`ResumeError::Keys`] (likewise, the keys of a JSON Lines row), a
/// first JSON Lines row that is no JSON object ([`ResumeError::BadRow`]),
/// [`ResumeError::BadRow`] for a `.gz` file with a gzip member that ends
/// inside a row (not written by `solve`, which writes whole rows per
/// member: nothing could be appended after that row).
pub fn scan(
    path: &Path,
    format: OutputFormat,
    names: &[String],
    header: &[String],
    rating: RatingColumns,
    delimiter: u8,
) -> Result<Kept, ResumeError> {
    // The results columns come first (`rate`'s own, or `solve`'s with
    // `solve --rate`'s after them); kept columns may follow them.
    let mut columns = Columns::written(names.len() > 1, rating);
    columns.len = header.len();
    let mut kept = Kept {
        path: path.to_path_buf(),
        format,
        len: 0,
        rows: 0,
        columns,
        header: header.to_vec(),
        delimiter,
        parquet: None,
    };
    let read_error = |source| ResumeError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(kept),
        Err(e) => return Err(read_error(e)),
    };
    let json = kept.jsonl();
    let complete = if kept.gzip() {
        complete_members(&mut file, json)
    } else {
        complete_records(&mut file, json)
    }
    .map_err(read_error)?;
    if let Some(line) = complete.torn_lines.filter(|_| !json) {
        let rows = stray_quote_in(&mut file, complete.len, &kept.columns, delimiter)
            .map_err(read_error)?;
        if let Some(row) = rows {
            // Quotes in rows after the stray one (a quoted message or kept
            // value) make the tail start later than it: found from the
            // start, as CSV.
            let (line, cause) = first_stray_quote(&mut file, &kept.columns, delimiter)
                .map_err(read_error)?
                .unwrap_or_else(|| (line, stray_quote(line + row)));
            return Err(ResumeError::BadRow {
                path: path.to_path_buf(),
                at: RowAt::Line(line),
                cause: format!(
                    "{cause}; remove the quote, or cut the file before this line, to resume it"
                ),
            });
        }
    }
    if complete.records == 0 && complete.torn_row.is_none() {
        return Ok(kept);
    }
    kept.len = complete.len;
    // JSON Lines has no header: every record is a row.
    kept.rows = complete.records.saturating_sub(u64::from(!json));
    kept.rows()?.check_columns()?;
    match complete.torn_row {
        Some(line) => Err(ResumeError::BadRow {
            path: path.to_path_buf(),
            at: RowAt::Line(line),
            cause: "a gzip member ends inside this row, so no row can follow it (solve writes \
                    whole rows per member); decompress the file to resume it"
                .into(),
        }),
        None => Ok(kept),
    }
}

/// [`scan`] of the Parquet results file at `path` written for inputs named
/// `names`, whose rows this run writes as `shape` says: its footer read,
/// and its columns checked to be the run's, with their types (the kept
/// columns' too: `--keep`, `--keep-types`), so that its row groups can be
/// copied into the continued file. Every row in it is kept: a file cut
/// short by a full disk or a file size limit was given the footer of its
/// row groups written whole (`output/parquet/salvage.rs`). A missing or
/// empty file is an empty one.
///
/// # Errors
/// [`ResumeError::Unreadable`] for a file with no footer (the run that
/// wrote it was killed outright) or that is not Parquet,
/// [`ResumeError::Schema`] for other columns or types,
/// [`ResumeError::Read`].
pub fn scan_parquet(
    path: &Path,
    names: &[String],
    shape: &crate::output::Shape,
    rating: RatingColumns,
) -> Result<Kept, ResumeError> {
    let header = shape.column_names();
    let mut columns = Columns::written(names.len() > 1, rating);
    columns.len = header.len();
    let mut kept = Kept {
        path: path.to_path_buf(),
        format: OutputFormat::Parquet,
        len: 0,
        rows: 0,
        columns,
        header,
        delimiter: b',',
        parquet: None,
    };
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(kept),
        Err(source) => {
            return Err(ResumeError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let unreadable = |cause| ResumeError::Unreadable {
        path: path.to_path_buf(),
        cause,
    };
    let Some(metadata) = crate::output::parquet::footer(&file).map_err(unreadable)? else {
        return Ok(kept);
    };
    if let Some(why) = crate::output::parquet::schema_difference(&metadata, shape) {
        return Err(ResumeError::Schema {
            path: path.to_path_buf(),
            why,
        });
    }
    kept.rows = u64::try_from(metadata.file_metadata().num_rows()).unwrap_or(0);
    kept.parquet = Some(metadata);
    Ok(kept)
}

/// The complete records at the start of a results file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Complete {
    /// Their length in bytes (of the file as stored: compressed for gzip).
    len: u64,
    /// How many, header included (blank lines are not records).
    records: u64,
    /// In a gzip file, the record a complete member ends inside of (its
    /// 1-based number, header included); `len` then ends with that member.
    torn_row: Option<u64>,
    /// Of a plain file, the line (from 1) where the bytes after `len`
    /// start, when they hold a line end (inside a quoted field): a last row
    /// cut inside a value that spans lines, or a stray quote (see
    /// [`stray_quote_in`]).
    torn_lines: Option<u64>,
}

/// Finds the ends of records in CSV text fed to it in pieces: the newlines
/// outside quoted fields (a file name may hold a newline, and a row torn
/// inside such a name must not look complete). A doubled quote inside a
/// quoted field flips the state twice, so counting quotes tells inside
/// from outside. A blank line (empty, or a lone `\r`) ends no record, as
/// the CSV reader skips it. In JSON Lines every newline ends a line (a
/// string holds its newlines and quotes escaped).
#[derive(Default)]
struct RecordEnds {
    /// The text is JSON Lines, not CSV.
    json: bool,
    /// Bytes fed so far.
    offset: u64,
    /// The last byte fed.
    last_byte: u8,
    /// Inside a quoted field at the end of the bytes fed.
    quoted: bool,
    /// The end of the last line outside quotes (the offset after its
    /// newline).
    last_end: u64,
    /// Records ended so far.
    records: u64,
    /// Line ends fed so far, inside quotes too.
    newlines: u64,
    /// Line ends up to `last_end`.
    newlines_at_end: u64,
}

impl RecordEnds {
    fn new(json: bool) -> RecordEnds {
        RecordEnds {
            json,
            ..RecordEnds::default()
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        if self.json {
            for i in memchr::memchr_iter(b'\n', bytes) {
                self.newlines += 1;
                self.line_end(bytes, i);
            }
        } else {
            for i in memchr::memchr2_iter(b'"', b'\n', bytes) {
                if bytes[i] == b'"' {
                    self.quoted = !self.quoted;
                } else {
                    self.newlines += 1;
                    if !self.quoted {
                        self.line_end(bytes, i);
                    }
                }
            }
        }
        if let Some(&last) = bytes.last() {
            self.last_byte = last;
        }
        self.offset += bytes.len() as u64;
    }

    /// A line ends at `bytes[i]` (a newline outside quotes), bytes fed
    /// before `bytes` aside: it ends a record unless it is blank.
    fn line_end(&mut self, bytes: &[u8], i: usize) {
        let at = self.offset + i as u64;
        let before = match i {
            0 => self.last_byte,
            _ => bytes[i - 1],
        };
        let blank = at == self.last_end || (at == self.last_end + 1 && before == b'\r');
        if !blank {
            self.records += 1;
        }
        self.last_end = at + 1;
        self.newlines_at_end = self.newlines;
    }

    /// The line where the bytes after the last line end outside quotes
    /// start, when they hold a line end.
    fn torn_lines(&self) -> Option<u64> {
        (self.newlines > self.newlines_at_end).then_some(self.newlines_at_end + 1)
    }

    /// True when the bytes fed end with a complete record.
    fn at_end(&self) -> bool {
        self.last_end == self.offset
    }
}

impl io::Write for RecordEnds {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.feed(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The complete records of the plain CSV (or, when `json`, JSON Lines)
/// `file`: up to the last newline outside a quoted field. Reads the file
/// once, forward, in blocks.
fn complete_records(file: &mut File, json: bool) -> io::Result<Complete> {
    let mut block = vec![0u8; READ_BLOCK];
    let mut ends = RecordEnds::new(json);
    loop {
        let n = match file.read(&mut block) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        ends.feed(&block[..n]);
    }
    Ok(Complete {
        len: ends.last_end,
        records: ends.records,
        torn_row: None,
        torn_lines: ends.torn_lines(),
    })
}

/// Of the bytes of the plain CSV `file` after its complete records (from
/// `len` on), which start with a line whose quote is never closed: the
/// first whole row after that line ([`RowsWithin`]), as lines after it,
/// if any. A kill cuts only the last row, so a value cut short there (one
/// that spans lines) holds no whole row after its first line: a row found
/// means a stray quote made the rows after it look like that value. Reads
/// up to the first row found, a line at a time.
fn stray_quote_in(
    file: &mut File,
    len: u64,
    columns: &Columns,
    delimiter: u8,
) -> io::Result<Option<u64>> {
    use std::io::{Seek, SeekFrom};

    file.seek(SeekFrom::Start(len))?;
    let mut lines = BufReader::with_capacity(READ_BLOCK, file);
    let mut line = Vec::new();
    lines.read_until(b'\n', &mut line)?;
    let mut within = RowsWithin::after_line(&line, columns, delimiter);
    let mut after = 0;
    loop {
        line.clear();
        if lines.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        after += 1;
        // A last line without its line end may be cut short.
        if let Some(text) = line.strip_suffix(b"\n") {
            if within.is_row(text) {
                return Ok(Some(after));
            }
        }
    }
}

/// Where a quote in the plain CSV `file` first breaks what a CSV writer
/// writes, read from its start (a stray quote having been found by
/// [`stray_quote_in`]): the line and why. A quote inside a field that does
/// not start with one; a quoted field that takes in a whole row
/// ([`RowsWithin`]), or whose closing quote is followed by more text (a
/// stray quote opened it, and a quote that opened a later field closed
/// it), named at the line where it opens. `None` when none is found.
fn first_stray_quote(
    file: &mut File,
    columns: &Columns,
    delimiter: u8,
) -> io::Result<Option<(u64, String)>> {
    use std::io::{Seek, SeekFrom};

    /// Where the scan is in the CSV grammar.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum At {
        FieldStart,
        Unquoted,
        Quoted,
        /// A quote in a quoted field: its end, or the first of two.
        QuoteInQuoted,
    }
    const DAMAGED: &str = "the file was damaged here, not cut short";
    file.seek(SeekFrom::Start(0))?;
    let mut lines = BufReader::with_capacity(READ_BLOCK, file);
    let mut text = Vec::new();
    let mut at = At::FieldStart;
    let mut line = 0;
    // The line where the quoted field being read opens, and the rows it
    // may take in after it (one reader for every such field).
    let mut opened: Option<u64> = None;
    let mut within = RowsWithin::after(&csv::ByteRecord::new(), columns, delimiter);
    loop {
        text.clear();
        if lines.read_until(b'\n', &mut text)? == 0 {
            return Ok(None);
        }
        line += 1;
        if let (At::Quoted, Some(open)) = (at, opened) {
            if let Some(whole) = text.strip_suffix(b"\n") {
                if within.is_row(whole) {
                    return Ok(Some((open, stray_quote(line))));
                }
            }
        }
        for &byte in &text {
            at = match (at, byte) {
                (At::FieldStart, b'"') => {
                    within.reopen(&text);
                    opened = Some(line);
                    At::Quoted
                }
                (At::Quoted, b'"') => At::QuoteInQuoted,
                (At::Quoted, _) => At::Quoted,
                (At::QuoteInQuoted, b'"') => At::Quoted,
                (At::QuoteInQuoted, b'\r') => At::QuoteInQuoted,
                (_, b'\n') => At::FieldStart,
                (_, d) if d == delimiter => At::FieldStart,
                (At::Unquoted, b'"') => {
                    return Ok(Some((
                        line,
                        format!(
                            "a stray `\"` in this row, inside a field that does not start with \
                             one ({DAMAGED})"
                        ),
                    )))
                }
                (At::QuoteInQuoted, _) => {
                    let open = opened.unwrap_or(line);
                    return Ok(Some((
                        open,
                        format!(
                            "a quote opens a field in this row, and the quote on line {line} \
                             that closes it is followed by more of the field: a stray `\"` in \
                             this row ({DAMAGED})"
                        ),
                    )));
                }
                (At::FieldStart | At::Unquoted, _) => At::Unquoted,
            };
        }
    }
}

/// The complete records of the gzip `file` (CSV, or JSON Lines when
/// `json`): those of its complete members,
/// up to the first member cut short or damaged, or to the first whose text
/// ends inside a record ([`Complete::torn_row`]).
fn complete_members(file: &mut File, json: bool) -> io::Result<Complete> {
    let mut bytes = Counted {
        inner: BufReader::with_capacity(READ_BLOCK, file),
        read: 0,
    };
    let mut ends = RecordEnds::new(json);
    let mut complete = Complete::default();
    while !bytes.fill_buf()?.is_empty() {
        let mut member = flate2::bufread::GzDecoder::new(&mut bytes);
        match io::copy(&mut member, &mut ends) {
            Ok(_) => {}
            Err(e) if is_torn(&e) => break,
            Err(e) => return Err(e),
        }
        drop(member);
        complete = Complete {
            len: bytes.read,
            records: ends.records,
            torn_row: None,
            torn_lines: None,
        };
        if !ends.at_end() {
            complete.torn_row = Some(ends.records + 1);
            break;
        }
    }
    Ok(complete)
}

/// True for the errors of a gzip member cut short or damaged, as opposed
/// to a failure to read the file.
fn is_torn(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::UnexpectedEof | io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData
    )
}

/// A buffered reader that counts the bytes taken from it.
struct Counted<R> {
    inner: R,
    read: u64,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.read += n as u64;
    }
}

/// Checks that the header `found` (read with `delimiter` between its
/// fields) is the one this run writes, `expected`.
///
/// # Errors
/// [`ResumeError::Delimiter`] when it is, with another delimiter between
/// the names (`--output-delimiter` given to one run and not the other),
/// else [`ResumeError::Header`].
fn check_header(
    path: &Path,
    found: &csv::ByteRecord,
    expected: &[String],
    delimiter: u8,
) -> Result<(), ResumeError> {
    if found.iter().eq(expected.iter().map(|c| c.as_bytes())) {
        return Ok(());
    }
    // The header's line as written: its names need no quotes.
    let line = found.iter().collect::<Vec<_>>().join(&delimiter);
    if let Some(other) = std::str::from_utf8(&line).ok().and_then(|line| {
        let other = header_delimiter(line.as_bytes());
        (other != delimiter
            && line
                .split(char::from(other))
                .eq(expected.iter().map(String::as_str)))
        .then_some(other)
    }) {
        return Err(ResumeError::Delimiter {
            path: path.to_path_buf(),
            found: delimiter_name(other),
            ours: delimiter_name(delimiter),
        });
    }
    let found = found
        .iter()
        .map(String::from_utf8_lossy)
        .collect::<Vec<_>>()
        .join(",");
    Err(ResumeError::Header {
        path: path.to_path_buf(),
        found: shortened(&found),
        expected: expected.join(","),
    })
}

/// A header found, as a message shows it: its first 80 characters, escaped.
fn shortened(found: &str) -> String {
    let found: String = found.chars().take(80).collect();
    found.escape_debug().to_string()
}

/// The options of this run that a kept row shows: a row written under
/// others is refused (see [`RowOptions::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowOptions {
    /// The blank of the `puzzle` column (`--blank`).
    pub blank: Blank,
    /// The solver.
    pub solver: SolverKind,
    /// The mode.
    pub mode: Mode,
    /// `--max-guesses`.
    pub max_guesses: Option<u64>,
    /// `--timeout-ms`.
    pub timeout_ms: Option<u64>,
    /// The boxes of 9x9 records when `--box` gives others than 3x3
    /// ([`crate::input::SizeOptions::nine_boxes`]).
    pub nine_boxes: Option<Shape>,
    /// A rated run (`rate`, `solve --rate`): it checks uniqueness in
    /// `--first` mode too, so its rows may be `multiple` there.
    pub rated: bool,
}

impl RowOptions {
    /// Whether a kept `solved` row's solution keeps this run's boxes and
    /// alphabet, those `record` (the same record read again) is read with:
    /// a row that another `--box` or `--symbols` wrote is refused rather
    /// than mixed with this run's (a 9x9 solution of 1x9 boxes repeats a
    /// value in a 3x3 box; a 6x6 one of 3x2 boxes breaks the 2x3 ones).
    /// Boxes that every solution keeps (1x9 are the rows) say nothing: the
    /// summary tells those (see [`check_summary`]).
    ///
    /// # Errors
    /// What the solution breaks: [`Unfit::Options`] when it is a solution
    /// of other boxes or written in another alphabet, [`Unfit::Damaged`]
    /// when it is no solution of its puzzle whatever the boxes (it changes
    /// a given, or repeats a value in a row or column).
    pub fn solution_fits(&self, record: &Record, row: &Row) -> Result<(), Unfit> {
        if row.result.status != Status::Solved {
            return Ok(());
        }
        match (&record.sized, &row.sized, &row.result.solution) {
            (Some(sized), Some(kept), _) => {
                let Some(text) = &kept.solution else {
                    return Ok(());
                };
                let shape = sized.puzzle.shape();
                let Some(solution) = read_sized(text, &sized.symbols, shape) else {
                    return Err(Unfit::Options(format!(
                        "its solution is not written in this run's alphabet ({}): the file was \
                         written with another --symbols",
                        sized.symbols.label(shape.side())
                    )));
                };
                if let Some(cell) = given_changed(sized.puzzle.cells(), solution.cells()) {
                    return Err(Unfit::Damaged(damaged(format!(
                        "it changes the given at {}",
                        cell_name(shape.side(), cell)
                    ))));
                }
                match solution.first_conflict() {
                    Some(c) => Err(broken(
                        c.kind,
                        c.describe(shape, &sized.symbols),
                        &shape.to_string(),
                    )),
                    None => Ok(()),
                }
            }
            (None, None, Some(solution)) => {
                if let Some(cell) = row
                    .result
                    .puzzle
                    .and_then(|puzzle| given_changed(puzzle.cells(), solution.cells()))
                {
                    return Err(Unfit::Damaged(damaged(format!(
                        "it changes the given at {}",
                        cell_name(9, cell)
                    ))));
                }
                let conflict = match self.nine_boxes {
                    Some(shape) => SizedGrid::from_cells(shape, solution.cells().to_vec())
                        .and_then(|g| g.first_conflict())
                        .map(|c| {
                            (
                                c.kind,
                                c.describe(shape, &Symbols::DigitsLetters { lower: false }),
                                shape.to_string(),
                            )
                        }),
                    None => solution
                        .first_conflict()
                        .map(|c| (c.kind, c.to_string(), "3x3".to_string())),
                };
                match conflict {
                    Some((kind, what, shape)) => Err(broken(kind, what, &shape)),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// Whether `row` could have been written by a run with these options:
    /// its puzzle's blank; a guess limit or time limit in a `timeout`
    /// row's message, which must be this run's; guesses above this run's
    /// guess limit in a row that did not stop at it; `multiple`, which mode
    /// `first` never gives; the naive solver's placement limit.
    ///
    /// # Errors
    /// What the row shows that differs.
    pub fn check(&self, row: &Row) -> Result<(), String> {
        let ours = match self.blank {
            Blank::Dot => b'.',
            Blank::Zero => b'0',
        };
        if let Some(blank) = row.blank.filter(|b| *b != ours) {
            return Err(format!(
                "its puzzle writes blanks as '{}', and this run as '{}' (--blank)",
                char::from(blank),
                char::from(ours)
            ));
        }
        let result = &row.result;
        if result.status == Status::Multiple && self.mode == Mode::First && !self.rated {
            return Err(
                "it is `multiple`, which --first never gives: the file was written in mode unique"
                    .into(),
            );
        }
        let message = result.message.as_deref().unwrap_or_default();
        let limit = |prefix: &str, suffix: &str| -> Option<u64> {
            let rest = message.split(prefix).nth(1)?;
            rest.split(suffix).next()?.trim().parse().ok()
        };
        if result.status == Status::Timeout {
            if let Some(n) = limit("guess limit ", " exceeded") {
                if self.max_guesses != Some(n) {
                    return Err(format!(
                        "its run stopped at a guess limit of {n}, and this run's is {}",
                        show(self.max_guesses)
                    ));
                }
            }
            if let Some(n) = limit("time limit ", " ms exceeded") {
                if self.timeout_ms != Some(n) {
                    return Err(format!(
                        "its run stopped at a time limit of {n} ms, and this run's is {}",
                        show(self.timeout_ms)
                    ));
                }
            }
            if message.contains("placement limit") && self.solver != SolverKind::Naive {
                return Err("it was solved by the naive solver, and this run uses another".into());
            }
        } else if let (Some(max), Some(guesses)) = (self.max_guesses, result.guesses) {
            if guesses > max {
                return Err(format!(
                    "it made {}, past this run's guess limit of {max}",
                    crate::process::words::count(guesses, "guess", "guesses")
                ));
            }
        }
        Ok(())
    }
}

/// Why a kept `solved` row's solution cannot be continued
/// ([`RowOptions::solution_fits`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// The row was written under other options (`--box`, `--symbols`).
    Options(String),
    /// The solution is no solution of its puzzle with any boxes: the row
    /// was changed after it was written.
    Damaged(String),
}

/// Why a kept `solved` row whose solution repeats a value (`what`, in a
/// unit of `kind`) is refused: a repeat in a box of this run's `shape`
/// alone, rows and columns whole, is a solution of other boxes (the file
/// was written with another `--box`); one in a row or column is no
/// solution with any boxes (the row was damaged).
fn broken(kind: UnitKind, what: String, shape: &str) -> Unfit {
    match kind {
        UnitKind::Box => Unfit::Options(format!(
            "its solution breaks this run's {shape} boxes ({what}), its rows and columns \
             whole: the file was written with another --box"
        )),
        UnitKind::Row | UnitKind::Column => Unfit::Damaged(damaged(what)),
    }
}

/// A kept `solved` row whose solution is no solution of its puzzle
/// whatever the boxes (`why`): the row was changed after the run wrote it.
fn damaged(why: String) -> String {
    format!(
        "its solution is no solution of its puzzle with any boxes ({why}): the row was \
         changed after sudoku-batch wrote it"
    )
}

/// The first cell given in `puzzle` that `solution` holds another value
/// in (cells in row-major order, 0 a blank).
fn given_changed(puzzle: &[u8], solution: &[u8]) -> Option<usize> {
    puzzle
        .iter()
        .zip(solution)
        .position(|(&given, &value)| given != 0 && given != value)
}

/// A cell's name, `r3c12`, by its row-major index in a grid of `side`
/// cells a side.
fn cell_name(side: usize, cell: usize) -> String {
    format!("r{}c{}", cell / side + 1, cell % side + 1)
}

fn show(limit: Option<u64>) -> String {
    limit.map_or_else(|| "none".into(), |n| n.to_string())
}

/// Refuses to resume when the previous run's `--summary-json` (`text`, at
/// `summary`), for the same inputs, records other options than this run's
/// (`run`): solver, mode, shard, limits, blank. A summary of other inputs,
/// or not a summary, says nothing and is passed over.
///
/// # Errors
/// [`ResumeError::Options`] naming what differs.
pub fn check_summary(
    path: &Path,
    summary: &Path,
    text: &str,
    run: &crate::output::stats::Summary,
) -> Result<(), ResumeError> {
    let Ok(old) = serde_json::from_str::<serde_json::Value>(text) else {
        return Ok(());
    };
    let same_inputs = old
        .get("inputs")
        .and_then(|v| serde_json::from_value::<Vec<String>>(v.clone()).ok())
        .is_some_and(|inputs| inputs == run.inputs);
    if !same_inputs {
        return Ok(());
    }
    let mut differ = Vec::new();
    for (key, now) in [
        ("solver", run.solver.name().to_string()),
        (
            "mode",
            serde_json::to_value(run.mode)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
        ),
    ] {
        if let Some(then) = old.get(key).and_then(|v| v.as_str()) {
            if then != now {
                differ.push(format!("{key} {then} then, {now} now"));
            }
        }
    }
    if let Some(then) = old
        .get("options")
        .and_then(|v| serde_json::from_value::<crate::output::stats::RunOptions>(v.clone()).ok())
    {
        let now = &run.options;
        let pairs = [
            ("--shard", then.shard.clone(), now.shard.clone()),
            (
                "--max-guesses",
                then.max_guesses.map(|n| n.to_string()),
                now.max_guesses.map(|n| n.to_string()),
            ),
            (
                "--timeout-ms",
                then.timeout_ms.map(|n| n.to_string()),
                now.timeout_ms.map(|n| n.to_string()),
            ),
            ("--blank", Some(then.blank.clone()), Some(now.blank.clone())),
        ];
        // Summaries written before `box` and `symbols` were recorded say
        // nothing of them.
        let recorded = |key: &str| old.get("options").is_some_and(|o| o.get(key).is_some());
        let pairs = pairs.into_iter().chain(
            [
                ("--box", "box", then.boxes.clone(), now.boxes.clone()),
                (
                    "--symbols",
                    "symbols",
                    then.symbols.clone(),
                    now.symbols.clone(),
                ),
            ]
            .into_iter()
            .filter(|(_, key, _, _)| recorded(key))
            .map(|(flag, _, then, now)| (flag, then, now)),
        );
        for (flag, then, now) in pairs {
            if then != now {
                let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
                differ.push(format!("{flag} {} then, {} now", show(&then), show(&now)));
            }
        }
    }
    if differ.is_empty() {
        return Ok(());
    }
    Err(ResumeError::Options {
        path: path.to_path_buf(),
        at: format!("its run's summary {}", summary.display()),
        why: format!(
            "the run that wrote it had other options ({})",
            differ.join("; ")
        ),
    })
}

/// Whether a kept row's `puzzle` field, `kept`, which holds the grid of
/// `record`, is written as this run writes it (with `blank`, in the
/// record's alphabet): a row written with another `--blank` (or
/// `--symbols`) is refused, as a 9x9 row with another blank is.
///
/// # Errors
/// Where the two differ first.
fn same_text(kept: &str, record: &SizedRecord, blank: Blank) -> Result<(), String> {
    let ours = record
        .symbols
        .format(&record.puzzle, blank.byte(&record.symbols));
    match kept.chars().zip(ours.chars()).position(|(a, b)| a != b) {
        None if kept.len() == ours.len() => Ok(()),
        at => {
            let at = at.unwrap_or(kept.len().min(ours.len()));
            let char_at = |text: &str| {
                text.chars()
                    .nth(at)
                    .map_or_else(|| "nothing".into(), |c| format!("'{c}'"))
            };
            Err(format!(
                "its puzzle has {} at character {}, where this run writes {} (another --blank or \
                 --symbols)",
                char_at(kept),
                at + 1,
                char_at(&ours)
            ))
        }
    }
}

/// A kept row as a message names it: `a.txt line 7 with puzzle 1.3...`.
fn describe_row(row: &Row) -> String {
    let puzzle = match (&row.result.puzzle, &row.sized) {
        (Some(grid), _) => Some(grid.to_string()),
        (None, Some(sized)) => Some(sized.puzzle.clone()),
        (None, None) => None,
    };
    describe(row.file.as_deref(), row.result.line, puzzle)
}

/// A record as a message names it: its puzzle as the results write it
/// with `blank` (a grid of another size in its alphabet).
fn describe_record(file: Option<&str>, record: &Record, blank: Blank) -> String {
    let puzzle = match (&record.puzzle, &record.sized) {
        (Ok(grid), _) => Some(grid.to_string()),
        (Err(_), Some(sized)) => Some(
            sized
                .symbols
                .format(&sized.puzzle, blank.byte(&sized.symbols)),
        ),
        (Err(_), None) => None,
    };
    describe(file, record.line, puzzle)
}

fn describe(file: Option<&str>, line: u64, puzzle: Option<String>) -> String {
    let file = file.unwrap_or("input");
    match puzzle {
        Some(puzzle) => format!("{file} line {line} with puzzle {puzzle}"),
        None => format!("{file} line {line}, malformed"),
    }
}

/// Reads the rows of a results file, one reused record at a time: a CSV
/// record, or a JSON Lines or Parquet row laid out as the CSV record of the
/// same row ([`json_fields`], [`ParquetRecords`]).
struct RowReader<R> {
    rows: Rows<R>,
    record: csv::ByteRecord,
    /// The line of the record last read (of Parquet, its row).
    line: u64,
    path: PathBuf,
    columns: Columns,
    /// The header this run writes: of JSON Lines, every row's keys.
    header: Vec<String>,
    /// The field delimiter of CSV.
    delimiter: u8,
}

/// Where a [`RowReader`] reads its records.
enum Rows<R> {
    Csv(csv::Reader<R>),
    Jsonl {
        lines: BufReader<R>,
        /// The line last read, its line end included.
        text: Vec<u8>,
    },
    /// A Parquet file's rows (no header: its columns are checked by
    /// [`scan_parquet`]).
    Parquet(ParquetRecords),
}

impl<R: Read> RowReader<R> {
    /// Reads the rows of `kept` in `bytes`, its text from the start.
    fn new(bytes: R, kept: &Kept) -> RowReader<R> {
        let rows = if kept.jsonl() {
            Rows::Jsonl {
                lines: BufReader::with_capacity(READ_BLOCK, bytes),
                text: Vec::new(),
            }
        } else {
            Rows::Csv(
                csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .delimiter(kept.delimiter)
                    .from_reader(bytes),
            )
        };
        RowReader::with_rows(rows, kept)
    }

    /// Reads the rows of `kept` from `rows`.
    fn with_rows(rows: Rows<R>, kept: &Kept) -> RowReader<R> {
        RowReader {
            rows,
            record: csv::ByteRecord::new(),
            line: 0,
            path: kept.path.clone(),
            columns: kept.columns.clone(),
            header: kept.header.clone(),
            delimiter: kept.delimiter,
        }
    }

    /// Where the record at `line` is, as a message names it.
    fn at(&self, line: u64) -> RowAt {
        match self.rows {
            Rows::Parquet(_) => RowAt::Row(line),
            _ => RowAt::Line(line),
        }
    }

    fn bad_row(&self, line: u64, cause: String) -> ResumeError {
        ResumeError::BadRow {
            path: self.path.clone(),
            at: self.at(line),
            cause,
        }
    }

    /// Reads the next record; `false` at the end.
    fn read(&mut self) -> Result<bool, ResumeError> {
        if !self.read_line()? {
            return Ok(false);
        }
        if let Rows::Jsonl { text, .. } = &self.rows {
            if let Err(cause) = json_fields(text, &self.header, self.columns.file, &mut self.record)
            {
                return Err(self.bad_row(self.line, cause));
            }
        }
        Ok(true)
    }

    /// Reads the next CSV record, or the next JSON Lines line that is not
    /// blank (not parsed yet); `false` at the end.
    fn read_line(&mut self) -> Result<bool, ResumeError> {
        match &mut self.rows {
            Rows::Csv(csv) => match csv.read_byte_record(&mut self.record) {
                Ok(more) => {
                    self.line = self.record.position().map_or(0, |p| p.line());
                    // A field opened by a stray quote and closed by a later
                    // one takes in the rows between (looked at in records
                    // of several lines only).
                    if more && csv.position().line() > self.line + 1 {
                        let within = RowsWithin::in_record(
                            &self.record,
                            self.line,
                            &self.columns,
                            self.delimiter,
                        );
                        if let Some(row) = within {
                            return Err(self.bad_row(self.line, stray_quote(row)));
                        }
                    }
                    Ok(more)
                }
                // An error of the bytes (no position of its own) is in the
                // record being read.
                Err(e) => {
                    let line = e.position().map_or(csv.position().line(), |p| p.line());
                    Err(self.bad_row(line, e.to_string()))
                }
            },
            Rows::Jsonl { lines, text } => loop {
                text.clear();
                match lines.read_until(b'\n', text) {
                    Ok(0) => return Ok(false),
                    Ok(_) => {}
                    Err(source) => {
                        return Err(ResumeError::Read {
                            path: self.path.clone(),
                            source,
                        })
                    }
                }
                self.line += 1;
                // A blank line is no row (see `RecordEnds`).
                if !matches!(&text[..], b"\n" | b"\r\n") {
                    return Ok(true);
                }
            },
            Rows::Parquet(records) => {
                let read = records.read(&mut self.record);
                self.line = records.rows();
                read.map_err(|cause| self.bad_row(self.line + 1, cause))
            }
        }
    }

    /// Checks the header (of JSON Lines, the first row's keys) against
    /// the one this run writes; a file with no complete line passes.
    fn check_columns(&mut self) -> Result<(), ResumeError> {
        if !self.read_line()? {
            return Ok(());
        }
        let path = &self.path;
        let at = self.at(self.line);
        match &self.rows {
            Rows::Csv(_) => check_header(path, &self.record, &self.header, self.delimiter),
            Rows::Parquet(_) => Ok(()),
            Rows::Jsonl { text, .. } => {
                let members = JsonMembers::parse(text).map_err(|cause| ResumeError::BadRow {
                    path: path.clone(),
                    at,
                    cause,
                })?;
                let mut found: Vec<&str> = members.keys().collect();
                let mut expected: Vec<&str> = self.header.iter().map(String::as_str).collect();
                found.sort_unstable();
                expected.sort_unstable();
                if found == expected {
                    return Ok(());
                }
                let found: String = members.keys().collect::<Vec<_>>().join(",");
                Err(ResumeError::Keys {
                    path: path.clone(),
                    at,
                    found: shortened(&found),
                    expected: self.header.join(","),
                })
            }
        }
    }

    /// Skips the header (JSON Lines and Parquet have none).
    fn skip_header(&mut self) -> Result<(), ResumeError> {
        match self.rows {
            Rows::Csv(_) => self.read_line().map(drop),
            Rows::Jsonl { .. } | Rows::Parquet(_) => Ok(()),
        }
    }

    /// The next row, with its place in the results file.
    fn next_row(&mut self) -> Result<Option<(RowAt, Row)>, ResumeError> {
        if !self.read()? {
            return Ok(None);
        }
        let line = self.line;
        parse_row(&self.record, &self.columns)
            .map(|row| Some((self.at(line), row)))
            .map_err(|cause| self.bad_row(line, cause))
    }
}

/// Kept rows parsed per batch on the reader thread's side.
const FEED_ROWS: usize = 1024;

/// Batches of [`FEED_ROWS`] kept rows in flight between the thread parsing
/// them and the matcher.
const FEED_BATCHES: usize = 4;

/// The kept rows, read and parsed ahead on a thread of their own, so that
/// parsing them (and decompressing a `.gz` file) overlaps with parsing the
/// inputs' records they are matched against, instead of doubling that
/// work on the reader thread. The thread ends at the last row, at the
/// first bad one, or when the feed is dropped.
struct RowFeed {
    batches: Receiver<Result<Vec<(RowAt, Row)>, ResumeError>>,
    batch: std::vec::IntoIter<(RowAt, Row)>,
    /// The thread, joined once it has sent everything: a panic there is
    /// passed on, not taken for the end of the rows.
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RowFeed {
    /// # Errors
    /// [`ResumeError::Read`] when the thread cannot be started.
    fn start(mut rows: RowReader<Box<dyn Read + Send>>) -> Result<RowFeed, ResumeError> {
        let path = rows.path.clone();
        let (sender, batches) = mpsc::sync_channel(FEED_BATCHES);
        let thread = std::thread::Builder::new()
            .name("resume rows".into())
            .spawn(move || loop {
                let mut batch = Vec::with_capacity(FEED_ROWS);
                let read = loop {
                    if batch.len() == FEED_ROWS {
                        break Ok(true);
                    }
                    match rows.next_row() {
                        Ok(Some(row)) => batch.push(row),
                        Ok(None) => break Ok(false),
                        Err(e) => break Err(e),
                    }
                };
                let more = matches!(read, Ok(true));
                if !batch.is_empty() && sender.send(Ok(batch)).is_err() {
                    return;
                }
                if let Err(e) = read {
                    let _ = sender.send(Err(e));
                }
                if !more {
                    return;
                }
            })
            .map_err(|source| ResumeError::Read { path, source })?;
        Ok(RowFeed {
            batches,
            batch: Vec::new().into_iter(),
            thread: Some(thread),
        })
    }

    /// The next kept row, with its place in the results file.
    fn next_row(&mut self) -> Result<Option<(RowAt, Row)>, ResumeError> {
        loop {
            if let Some(row) = self.batch.next() {
                return Ok(Some(row));
            }
            match self.batches.recv() {
                Ok(batch) => self.batch = batch?.into_iter(),
                Err(_) => {
                    if let Some(Err(panic)) = self.thread.take().map(|t| t.join()) {
                        std::panic::resume_unwind(panic);
                    }
                    return Ok(None);
                }
            }
        }
    }
}

/// Shared by the wrapped inputs: the kept rows still to match, read from
/// the results file, the tally of those matched, and the first difference
/// found.
struct Matcher {
    /// The results file.
    path: PathBuf,
    /// What the kept rows must show of this run's options.
    options: RowOptions,
    rows: Option<RowFeed>,
    /// The next kept row, read but not matched yet, with its place.
    next: Option<(RowAt, Row)>,
    /// The input names, to place rows with a `file` column.
    names: Vec<String>,
    /// The input of the last row matched.
    cursor: usize,
    /// The line of the last row matched (0 before any).
    last_line: u64,
    /// The rows matched.
    tally: Tally,
    failure: Option<ResumeError>,
    /// `--limit` ended the inputs before the next kept row: the rows left
    /// are past it, kept as they are (see [`Matching::finish`]).
    past_limit: bool,
}

/// What the wrapped input `input` must do next.
enum Step {
    /// Every kept row is matched: pass the records on.
    PassOn,
    /// The next kept row belongs to this input: match it with its next
    /// record.
    Match,
    /// The next kept row belongs to a later input: this one must end.
    End,
    /// A difference was found: stop.
    Stop,
}

impl Matcher {
    fn step(&mut self, input: usize) -> Step {
        if self.failure.is_some() || self.past_limit {
            return Step::Stop;
        }
        if self.next.is_none() {
            let read = match self.rows.as_mut() {
                Some(rows) => rows.next_row(),
                None => Ok(None),
            };
            match read {
                Ok(Some(row)) => self.next = Some(row),
                Ok(None) => {
                    self.rows = None;
                    return Step::PassOn;
                }
                Err(e) => return self.fail(e),
            }
        }
        let Some((_, row)) = &self.next else {
            return Step::PassOn;
        };
        let place = match &row.file {
            None => 0,
            // An input given twice has its name twice: a row whose line does
            // not follow the last one matched is of a later input, and so is
            // one asked for by a later input, the earlier ones having ended
            // (a shard may hold one record of each turn, lines ascending).
            Some(name) => match (self.cursor.max(input)..self.names.len()).find(|&i| {
                &self.names[i] == name && (i > self.cursor || row.result.line > self.last_line)
            }) {
                Some(place) => place,
                None => {
                    let why = format!(
                        "no record of {name} (the inputs left are {})",
                        self.names[self.cursor..].join(", ")
                    );
                    return self.mismatch(why);
                }
            },
        };
        match place.cmp(&input) {
            std::cmp::Ordering::Equal => Step::Match,
            std::cmp::Ordering::Greater => Step::End,
            // The inputs before this one ended with rows left for them.
            std::cmp::Ordering::Less => self.short(),
        }
    }

    /// True when the next kept row may be of an input after `input` of the
    /// same name (the input given again): `input` ended before it, and the
    /// lines of a shard's rows need not start over between turns.
    fn is_for_later(&self, input: usize) -> bool {
        match &self.next {
            Some((_, row)) => row
                .file
                .as_ref()
                .is_some_and(|name| self.names.iter().skip(input + 1).any(|n| n == name)),
            None => false,
        }
    }

    /// Matches the next kept row with `record` of input `input`.
    fn matches(&mut self, input: usize, record: &Record) -> bool {
        let Some((_, row)) = &self.next else {
            return false;
        };
        let same = row.result.line == record.line
            && match (&record.sized, &row.sized) {
                (Some(sized), Some(kept)) => kept.puzzle_is(&sized.puzzle, &sized.symbols),
                (None, None) => match (&record.puzzle, &row.result.puzzle) {
                    (Ok(grid), Some(kept)) => grid == kept,
                    (Err(_), None) => true,
                    _ => false,
                },
                _ => false,
            };
        if same {
            let checked = self
                .options
                .check(row)
                .and_then(|()| match (&record.sized, &row.sized) {
                    (Some(sized), Some(kept)) => same_text(&kept.puzzle, sized, self.options.blank),
                    _ => Ok(()),
                })
                .map_err(Unfit::Options)
                .and_then(|()| self.options.solution_fits(record, row));
            if let Err(unfit) = checked {
                let Some((at, _)) = self.next.take() else {
                    return false;
                };
                let path = self.path.clone();
                self.fail(match unfit {
                    Unfit::Options(why) => ResumeError::Options {
                        path,
                        at: at.to_string(),
                        why,
                    },
                    Unfit::Damaged(cause) => ResumeError::BadRow { path, at, cause },
                });
                return false;
            }
            self.cursor = input;
            self.last_line = record.line;
            self.tally.add(&row.result);
            // A row does not tell a grid of another size from a malformed
            // record; the record it matched does.
            self.tally.sides |= record.side_bit();
            self.next = None;
        } else {
            let record = self.describe(input, record);
            self.mismatch(record);
        }
        same
    }

    /// `record` of input `input`, as a message names it.
    fn describe(&self, input: usize, record: &Record) -> String {
        let file = (self.names.len() > 1)
            .then(|| self.names.get(input).map(String::as_str))
            .flatten();
        describe_record(file, record, self.options.blank)
    }

    /// The next kept row differs from `record` (described).
    fn mismatch(&mut self, record: String) -> Step {
        let Some((at, row)) = self.next.take() else {
            return Step::Stop;
        };
        self.fail(ResumeError::Mismatch {
            path: self.path.clone(),
            at,
            row: describe_row(&row),
            record,
        })
    }

    /// The inputs ended before the next kept row.
    fn short(&mut self) -> Step {
        let Some((at, row)) = self.next.take() else {
            return Step::Stop;
        };
        self.fail(ResumeError::InputShort {
            path: self.path.clone(),
            at,
            row: describe_row(&row),
        })
    }

    fn fail(&mut self, e: ResumeError) -> Step {
        self.failure.get_or_insert(e);
        self.rows = None;
        Step::Stop
    }
}

/// The first difference between the kept rows and the inputs, once the run
/// is over; see [`skip_kept`].
#[derive(Clone)]
pub struct Matching {
    matcher: Arc<Mutex<Matcher>>,
}

impl Matching {
    /// The tally of the kept rows, or the difference that stopped the run.
    /// Call it after the pipeline has ended: until every kept row is
    /// matched, nothing is appended, and a difference ends every input at
    /// once. Rows the run did not reach (`--limit` ended it first) are read
    /// and tallied here, unless the run was `interrupted`: then the tally
    /// covers the rows matched before the signal.
    ///
    /// # Errors
    /// The difference, a row that is not a results row, or a failure to
    /// read the results file again.
    pub fn finish(&self, interrupted: bool) -> Result<Tally, ResumeError> {
        let mut matcher = lock(&self.matcher);
        if let Some(e) = matcher.failure.take() {
            return Err(e);
        }
        if !interrupted {
            if let Some((_, row)) = matcher.next.take() {
                matcher.tally.add(&row.result);
            }
            if let Some(mut rows) = matcher.rows.take() {
                while let Some((_, row)) = rows.next_row()? {
                    matcher.tally.add(&row.result);
                }
            }
        }
        Ok(std::mem::take(&mut matcher.tally))
    }
}

/// Wraps `sources` (inputs named `names`) so that their first records, the
/// ones [`scan`] kept in the results file, are checked against the kept rows
/// and skipped. The returned [`Matching`] says, after the run, whether they
/// matched.
///
/// # Errors
/// [`ResumeError::Read`] when the results file cannot be opened again.
pub fn skip_kept(
    kept: &Kept,
    names: &[String],
    sources: Vec<Source>,
    options: RowOptions,
) -> Result<(Vec<Source>, Matching), ResumeError> {
    let mut rows = None;
    if kept.rows > 0 {
        let mut reader = kept.rows()?;
        reader.skip_header()?;
        rows = Some(RowFeed::start(reader)?);
    }
    let matcher = Arc::new(Mutex::new(Matcher {
        path: kept.path.clone(),
        options,
        rows,
        next: None,
        names: names.to_vec(),
        cursor: 0,
        last_line: 0,
        tally: Tally::new(),
        failure: None,
        past_limit: false,
    }));
    let sources = sources
        .into_iter()
        .enumerate()
        .map(|(input, source)| Source {
            records: Box::new(Skipping {
                input,
                inner: source.records,
                matcher: Some(Arc::clone(&matcher)),
            }),
            bytes_read: source.bytes_read,
        })
        .collect();
    Ok((sources, Matching { matcher }))
}

/// The matcher, locked.
fn lock(shared: &Mutex<Matcher>) -> std::sync::MutexGuard<'_, Matcher> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One input's records, with those already in the results file skipped.
struct Skipping {
    input: usize,
    inner: Box<dyn RecordStream>,
    /// `None` once every kept row is matched: records then pass straight on.
    matcher: Option<Arc<Mutex<Matcher>>>,
}

impl Iterator for Skipping {
    type Item = Result<Record, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        // The matcher is locked only around its own steps, never while the
        // input is read: an input that sends nothing (a pipe, stdin) must
        // not keep `Matching::finish` from the matcher after a signal.
        while let Some(shared) = self.matcher.clone() {
            let step = lock(&shared).step(self.input);
            match step {
                Step::Stop => return None,
                Step::PassOn => self.matcher = None,
                Step::End => {
                    return match self.inner.next() {
                        None => None,
                        Some(Ok(record)) => {
                            let mut matcher = lock(&shared);
                            let record = matcher.describe(self.input, &record);
                            matcher.mismatch(record);
                            None
                        }
                        Some(Err(e)) => Some(Err(e)),
                    };
                }
                Step::Match => match self.inner.next() {
                    None => {
                        let mut matcher = lock(&shared);
                        if self.inner.at_limit() {
                            // A shard's --limit, lower than the run's that
                            // wrote the file: as without --shard, the rows
                            // past it are kept and nothing is appended.
                            matcher.past_limit = true;
                        } else if !matcher.is_for_later(self.input) {
                            matcher.short();
                        }
                        return None;
                    }
                    Some(Err(e)) => return Some(Err(e)),
                    Some(Ok(record)) => {
                        if !lock(&shared).matches(self.input, &record) {
                            return None;
                        }
                    }
                },
            }
        }
        self.inner.next()
    }
}

impl RecordStream for Skipping {
    /// Parses records while kept rows are matched against them; after
    /// that, cuts them as the inner stream does.
    fn fill(&mut self, batch: &mut RecordBatch, max: usize) -> Result<bool, InputError> {
        while self.matcher.is_some() && batch.has_room(max) {
            match self.next() {
                None => return Ok(false),
                Some(Ok(record)) => batch.push_parsed(record),
                Some(Err(e)) => return Err(e),
            }
        }
        if batch.has_room(max) {
            self.inner.fill(batch, max)
        } else {
            Ok(true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Shape;
    use sudoku_core::grid::Grid;
    use sudoku_core::solver::Status;

    const P: &str =
        "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
    const Q: &str =
        "000007004000006003860200000509082000640000080000000700000000042010030000703000009";
    const HEADER: &str = "line,puzzle,status,solution,guesses,solve_us,check,message\n";

    fn dotted(puzzle: &str) -> String {
        puzzle.replace('0', ".")
    }

    /// A results row: `unsolvable` for a puzzle (so no solution to fill
    /// in), `malformed` without one.
    fn row(line: u64, puzzle: Option<&str>) -> String {
        match puzzle {
            Some(p) => format!("{line},{},unsolvable,,3,12.5,,\n", dotted(p)),
            None => format!("{line},,malformed,,,,,\"3 cells, expected 81\"\n"),
        }
    }

    fn record(line: u64, puzzle: Option<&str>) -> Record {
        let puzzle = match puzzle {
            Some(p) => Ok(Grid::parse(p.as_bytes()).unwrap()),
            None => Err("3 cells, expected 81".to_string()),
        };
        Record::new(line, puzzle, None)
    }

    fn source(records: Vec<Record>) -> Source {
        Source::parsed(records.into_iter().map(Ok))
    }

    /// The header a run over inputs `names` writes, without kept columns.
    fn header(names: &[String]) -> Vec<String> {
        let files = (names.len() > 1).then(|| names.to_vec());
        Shape {
            files,
            ..Shape::default()
        }
        .column_names()
    }

    /// [`scan`] of the results at `path` in `format` of a run over inputs
    /// `names`, with [`header`]'s columns and no ratings.
    fn scan_as(path: &Path, format: OutputFormat, names: &[String]) -> Result<Kept, ResumeError> {
        scan(
            path,
            format,
            names,
            &header(names),
            RatingColumns::None,
            b',',
        )
    }

    /// `text` as one gzip member.
    fn gzip(text: &str) -> Vec<u8> {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap()
    }

    /// The options of the runs these tests resume.
    fn options() -> RowOptions {
        RowOptions {
            blank: Blank::Dot,
            solver: SolverKind::Fast,
            mode: Mode::Unique,
            max_guesses: None,
            timeout_ms: None,
            nine_boxes: None,
            rated: false,
        }
    }

    fn names(n: usize) -> Vec<String> {
        ["a.txt", "b.txt"][..n]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// Scans `text` as a results file and wraps `sources`; returns the
    /// records passed on, the kept rows' count and the verdict (the kept
    /// rows' tally).
    fn resume(
        text: &str,
        inputs: usize,
        sources: Vec<Source>,
    ) -> (Vec<(usize, u64)>, u64, Result<Tally, ResumeError>) {
        resume_named(text, &names(inputs), sources)
    }

    /// As [`resume`], for inputs named `names`.
    fn resume_named(
        text: &str,
        names: &[String],
        sources: Vec<Source>,
    ) -> (Vec<(usize, u64)>, u64, Result<Tally, ResumeError>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, text).unwrap();
        let kept = scan_as(&path, OutputFormat::Csv, names).unwrap();
        let (sources, matching) = skip_kept(&kept, names, sources, options()).unwrap();
        let passed = sources
            .into_iter()
            .enumerate()
            .flat_map(|(i, s)| s.records.map(move |r| (i, r.unwrap().line)))
            .collect();
        (passed, kept.rows, matching.finish(false))
    }

    /// A trial's damaged solution (its first digit changed) was blamed on
    /// "another --box", which no run was given.
    #[test]
    fn a_broken_solution_is_damage_unless_only_a_box_breaks() {
        let row = |kind| broken(kind, "9 twice in row 1: r1c1, r1c6".into(), "3x3");
        assert!(
            matches!(row(UnitKind::Row), Unfit::Damaged(why) if why.contains("with any boxes"))
        );
        assert!(matches!(row(UnitKind::Column), Unfit::Damaged(_)));
        assert!(matches!(row(UnitKind::Box), Unfit::Options(why) if why.contains("another --box")));
        assert_eq!(given_changed(&[0, 3, 0], &[1, 3, 2]), None);
        assert_eq!(given_changed(&[0, 3, 5], &[1, 4, 5]), Some(1));
        assert_eq!(cell_name(9, 10), "r2c2");
    }

    #[test]
    fn scan_keeps_the_complete_rows_and_drops_a_row_cut_short() {
        let complete = format!("{HEADER}{}{}", row(1, Some(P)), row(3, None));
        let text = format!("{complete}4,{}", &dotted(Q)[..20]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, &text).unwrap();
        let kept = scan_as(&path, OutputFormat::Csv, &names(1)).unwrap();
        assert_eq!(kept.len, complete.len() as u64);
        assert_eq!(kept.rows, 2);
    }

    #[test]
    fn the_kept_rows_are_tallied_as_they_are_matched() {
        let text = format!("{HEADER}{}{}", row(1, Some(P)), row(3, None));
        let input = vec![record(1, Some(P)), record(3, None), record(4, Some(Q))];
        let (passed, _, verdict) = resume(&text, 1, vec![source(input)]);
        assert_eq!(passed, [(0, 4)]);
        let tally = verdict.unwrap();
        assert_eq!(tally.count(Status::Unsolvable), 1);
        assert_eq!(tally.count(Status::Malformed), 1);
        assert_eq!((tally.guesses, tally.solve_ns), (3, 12_500));
    }

    #[test]
    fn rows_the_run_did_not_reach_are_tallied_unless_it_was_interrupted() {
        let text = format!(
            "{HEADER}{}{}{}",
            row(1, Some(P)),
            row(2, Some(Q)),
            row(3, None)
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, text).unwrap();
        let kept = scan_as(&path, OutputFormat::Csv, &names(1)).unwrap();
        for (interrupted, puzzles) in [(false, 3), (true, 0)] {
            // The run ends before reading a record: --limit, or a signal.
            let input = vec![record(1, Some(P))];
            let (_, matching) =
                skip_kept(&kept, &names(1), vec![source(input)], options()).unwrap();
            let tally = matching.finish(interrupted).unwrap();
            assert_eq!(tally.puzzles, puzzles, "interrupted: {interrupted}");
        }
        let bad = format!("{HEADER}{}1,x,solved,,,,,\n", row(1, Some(P)));
        std::fs::write(&path, bad).unwrap();
        let kept = scan_as(&path, OutputFormat::Csv, &names(1)).unwrap();
        let (_, matching) = skip_kept(&kept, &names(1), vec![source(vec![])], options()).unwrap();
        let err = matching.finish(false).unwrap_err();
        assert!(
            matches!(
                err,
                ResumeError::BadRow {
                    at: RowAt::Line(3),
                    ..
                }
            ),
            "{err}"
        );
    }

    /// [`row`] as JSON Lines.
    fn json_row(line: u64, puzzle: Option<&str>) -> String {
        match puzzle {
            Some(p) => {
                format!(
                    r#"{{"line":{line},"puzzle":"{}","status":"unsolvable","solution":null,"guesses":3,"solve_us":12.5,"check":null,"message":null}}"#,
                    dotted(p)
                ) + "\n"
            }
            None => {
                format!(
                    r#"{{"line":{line},"puzzle":null,"status":"malformed","solution":null,"guesses":null,"solve_us":null,"check":null,"message":"3 cells, expected 81"}}"#
                ) + "\n"
            }
        }
    }

    #[test]
    fn json_lines_rows_are_kept_whole_matched_and_tallied() {
        let complete = format!("{}\n{}", json_row(1, Some(P)), json_row(3, None));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let scan_jsonl = || scan_as(&path, OutputFormat::Jsonl, &names(1));
        // No header: every complete line but a blank one is a row, and a
        // last row cut short (even after a quote) is dropped.
        for cut in [13, 30, 120] {
            let torn = &json_row(4, Some(Q))[..cut];
            std::fs::write(&path, format!("{complete}{torn}")).unwrap();
            let kept = scan_jsonl().unwrap();
            assert_eq!((kept.len, kept.rows), (complete.len() as u64, 2), "{torn}");
        }
        let input = vec![record(1, Some(P)), record(3, None), record(4, Some(Q))];
        let (sources, matching) = skip_kept(
            &scan_jsonl().unwrap(),
            &names(1),
            vec![source(input)],
            options(),
        )
        .unwrap();
        let passed: Vec<u64> = sources
            .into_iter()
            .flat_map(|s| s.records.map(|r| r.unwrap().line))
            .collect();
        assert_eq!(passed, [4]);
        let tally = matching.finish(false).unwrap();
        assert_eq!(tally.count(Status::Unsolvable), 1);
        assert_eq!(tally.count(Status::Malformed), 1);
        assert_eq!((tally.guesses, tally.solve_ns), (3, 12_500));

        // Another run's keys are refused at the first row, before the run;
        // a later row without them when it is matched (line 3: the blank
        // line counts).
        std::fs::write(&path, complete.replace("\"check\":null,", "")).unwrap();
        let err = scan_jsonl().unwrap_err();
        assert!(
            matches!(
                err,
                ResumeError::Keys {
                    at: RowAt::Line(1),
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("the same --keep"), "{err}");
        let second = json_row(3, None).replace("\"check\":null,", "");
        std::fs::write(&path, format!("{}\n{second}", json_row(1, Some(P)))).unwrap();
        let kept = scan_jsonl().unwrap();
        let input = vec![record(1, Some(P)), record(3, None)];
        let (_, matching) = skip_kept(&kept, &names(1), vec![source(input)], options()).unwrap();
        let err = matching.finish(false).unwrap_err();
        assert!(
            matches!(
                err,
                ResumeError::BadRow {
                    at: RowAt::Line(3),
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("no `check` key"), "{err}");

        // A gzip member ending inside a line: nothing can follow it.
        let path = dir.path().join("r.jsonl.gz");
        let rows = format!("{}{}", json_row(1, Some(P)), json_row(3, None));
        std::fs::write(&path, gzip(&rows[..rows.len() - 9])).unwrap();
        let err = scan_as(&path, OutputFormat::Jsonl, &names(1)).unwrap_err();
        assert!(
            matches!(
                err,
                ResumeError::BadRow {
                    at: RowAt::Line(2),
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn blank_lines_are_not_rows() {
        let text = format!("{HEADER}{}\n\r\n{}\n", row(1, Some(P)), row(3, None));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, &text).unwrap();
        let kept = scan_as(&path, OutputFormat::Csv, &names(1)).unwrap();
        assert_eq!((kept.len, kept.rows), (text.len() as u64, 2));
    }

    #[test]
    fn a_gzip_member_ending_inside_a_row_is_refused_after_the_header_check() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv.gz");
        // Another CSV gzipped whole, without a last newline: not results.
        std::fs::write(&path, gzip("quizzes,solutions\n1,2\n3,4")).unwrap();
        let err = scan_as(&path, OutputFormat::Csv, &names(1)).unwrap_err();
        assert!(matches!(err, ResumeError::Header { .. }), "{err}");
        // Results gzipped by hand after a row was cut short.
        let torn = format!("{HEADER}{}{}", row(1, Some(P)), &row(2, Some(Q))[..30]);
        std::fs::write(&path, gzip(&torn)).unwrap();
        let err = scan_as(&path, OutputFormat::Csv, &names(1)).unwrap_err();
        assert!(
            matches!(
                err,
                ResumeError::BadRow {
                    at: RowAt::Line(3),
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn a_row_torn_inside_a_file_name_with_a_newline_is_dropped() {
        let name = "a\n\"b\".txt";
        let quoted = "\"a\n\"\"b\"\".txt\"";
        let complete = format!(
            "file,{HEADER}{quoted},{}{quoted},{}",
            row(1, Some(P)),
            row(2, None)
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        // Torn after the newline inside the name: the last newline of the
        // file is not the end of a record.
        for torn in ["\"a\n", "\"a\n\"\"b", "\"a\n\"\"b\"\".txt\",4"] {
            std::fs::write(&path, format!("{complete}{torn}")).unwrap();
            let names = vec![name.to_string(), "b.txt".to_string()];
            let kept = scan_as(&path, OutputFormat::Csv, &names).unwrap();
            assert_eq!(kept.len, complete.len() as u64, "{torn:?}");
            assert_eq!(kept.rows, 2, "{torn:?}");
        }
    }

    #[test]
    fn a_stray_quote_with_whole_rows_after_it_is_refused_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let stray = row(2, Some(Q)).replace(",,\n", ",\"x,\n");
        let text = format!(
            "{HEADER}{}{stray}{}{}5,{}",
            row(1, Some(P)),
            row(3, None),
            row(4, Some(P)),
            &dotted(Q)[..20]
        );
        std::fs::write(&path, &text).unwrap();
        let err = scan_as(&path, OutputFormat::Csv, &names(1)).unwrap_err();
        assert!(
            matches!(&err, ResumeError::BadRow { at: RowAt::Line(3), cause, .. }
                if cause.starts_with(&stray_quote(4))),
            "{err}"
        );
        // Lines after it that are no rows following on: a last row cut
        // inside a value of several lines.
        for after in [row(1, Some(P)), "2,3,4\nfree text\n".to_string()] {
            let complete = format!("{HEADER}{}", row(1, Some(P)));
            let text = format!("{complete}{stray}{after}");
            std::fs::write(&path, &text).unwrap();
            let kept = scan_as(&path, OutputFormat::Csv, &names(1)).unwrap();
            assert_eq!(
                (kept.len, kept.rows),
                (complete.len() as u64, 1),
                "{after:?}"
            );
        }
    }

    #[test]
    fn the_first_stray_quote_is_found_from_the_start_as_csv() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let columns = Columns::written(false, RatingColumns::None);
        let columns = Columns {
            len: HEADER.split(',').count(),
            ..columns
        };
        let first = |text: &str| {
            std::fs::write(&path, text).unwrap();
            let found = first_stray_quote(&mut File::open(&path).unwrap(), &columns, b',');
            found.unwrap()
        };
        let (one, three) = (row(1, Some(P)), row(3, None));
        let stray = |with: &str| row(2, Some(Q)).replace(",,\n", with);
        assert_eq!(first(&format!("{HEADER}{one}{three}")), None);
        // Inside a field; opening one that takes in a row; closed, then
        // more of the field.
        for (with, cause) in [
            (
                ",x\"y,\n",
                "a stray `\"` in this row, inside a field".to_string(),
            ),
            (",\"x,\n", stray_quote(4)),
            (
                ",\"x\"y,\n",
                "a quote opens a field in this row, and the quote on line 3 that \
                           closes it is followed by more of the field"
                    .to_string(),
            ),
        ] {
            let text = format!("{HEADER}{one}{}{three}", stray(with));
            let (line, found) = first(&text).unwrap();
            assert_eq!(line, 3, "{with:?}");
            assert!(found.starts_with(&cause), "{with:?}: {found}");
        }
    }

    #[test]
    fn gzip_results_are_kept_up_to_their_last_complete_member() {
        let (a, b, c) = (gzip("a\n"), gzip("b\n"), gzip("c\n"));
        let whole = [a.clone(), b.clone(), c.clone()].concat();
        let complete = |bytes: &[u8]| {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("r.csv.gz");
            std::fs::write(&path, bytes).unwrap();
            let found = complete_members(&mut File::open(&path).unwrap(), false).unwrap();
            (found.len, found.records, found.torn_row)
        };
        let len = |members: &[&Vec<u8>]| members.iter().map(|m| m.len() as u64).sum::<u64>();
        assert_eq!(complete(&whole), (len(&[&a, &b, &c]), 3, None));
        assert_eq!(
            complete(&whole[..whole.len() - 3]),
            (len(&[&a, &b]), 2, None)
        );
        let mut damaged = whole.clone();
        damaged[a.len() + 12] ^= 0xFF;
        assert_eq!(complete(&damaged), (len(&[&a]), 1, None));
        // A complete member whose text ends inside a record: the rows
        // cannot be continued after it.
        let torn = gzip("d\n\ne");
        let with_torn = [a.clone(), torn.clone(), c].concat();
        assert_eq!(complete(&with_torn), (len(&[&a, &torn]), 2, Some(3)));
        assert_eq!(complete(&[]), (0, 0, None));
    }

    #[test]
    fn a_missing_or_headless_file_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let missing = scan_as(&dir.path().join("no.csv"), OutputFormat::Csv, &names(1)).unwrap();
        assert_eq!((missing.len, missing.rows), (0, 0));
        let cut = dir.path().join("cut.csv");
        std::fs::write(&cut, &HEADER[..10]).unwrap();
        let kept = scan_as(&cut, OutputFormat::Csv, &names(1)).unwrap();
        assert_eq!((kept.len, kept.rows), (0, 0));
    }

    #[test]
    fn scan_refuses_another_header_and_matching_rows_that_are_not_results() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, format!("{HEADER}{}", row(1, Some(P)))).unwrap();
        let err = scan_as(&path, OutputFormat::Csv, &names(2)).unwrap_err();
        assert!(matches!(err, ResumeError::Header { .. }), "{err}");
        for bad in [
            "1,,solved,,,,,\n".to_string(),
            format!("x,{},solved,,,,,\n", dotted(P)),
            format!("1,{},solved,,,,\n", dotted(P)),
            format!("1,{},done,,,,,\n", dotted(P)),
        ] {
            let text = format!("{HEADER}{}{bad}", row(1, Some(P)));
            let input = vec![record(1, Some(P)), record(2, Some(P)), record(3, Some(Q))];
            let (passed, rows, verdict) = resume(&text, 1, vec![source(input)]);
            assert_eq!(rows, 2, "{bad}");
            assert!(passed.is_empty(), "{bad}");
            let err = verdict.unwrap_err();
            assert!(
                matches!(
                    err,
                    ResumeError::BadRow {
                        at: RowAt::Line(3),
                        ..
                    }
                ),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn kept_records_are_skipped_and_the_rest_passed_on() {
        let text = format!("{HEADER}{}{}", row(1, Some(P)), row(2, None));
        let input = vec![
            record(1, Some(P)),
            record(2, None),
            record(3, Some(Q)),
            record(5, Some(P)),
        ];
        let (passed, rows, verdict) = resume(&text, 1, vec![source(input)]);
        assert_eq!(passed, [(0, 3), (0, 5)]);
        assert_eq!(rows, 2);
        verdict.unwrap();
    }

    #[test]
    fn kept_rows_across_several_batches_are_all_matched_and_a_late_bad_row_is_found() {
        let kept = 2 * FEED_ROWS as u64 + 300;
        let rows: String = (1..=kept).map(|line| row(line, Some(P))).collect();
        let input = || (1..=kept + 2).map(|line| record(line, Some(P))).collect();
        let (passed, count, verdict) = resume(&format!("{HEADER}{rows}"), 1, vec![source(input())]);
        assert_eq!(passed, [(0, kept + 1), (0, kept + 2)]);
        assert_eq!(count, kept);
        assert_eq!(verdict.unwrap().count(Status::Unsolvable), kept);

        let bad_line = 2 * FEED_ROWS as u64 + 7;
        let rows: String = (1..=kept)
            .map(|line| match line {
                _ if line == bad_line => format!("{line},{},done,,,,,\n", dotted(P)),
                _ => row(line, Some(P)),
            })
            .collect();
        let (passed, _, verdict) = resume(&format!("{HEADER}{rows}"), 1, vec![source(input())]);
        assert!(passed.is_empty());
        let err = verdict.unwrap_err();
        assert!(
            matches!(err, ResumeError::BadRow { at, .. } if at == RowAt::Line(bad_line + 1)),
            "{err}"
        );
    }

    #[test]
    fn the_first_difference_stops_every_input() {
        let text = format!("{HEADER}{}{}", row(1, Some(P)), row(2, Some(P)));
        for second in [record(2, Some(Q)), record(3, Some(P)), record(2, None)] {
            let input = vec![record(1, Some(P)), second.clone(), record(4, Some(Q))];
            let (passed, _, verdict) = resume(&text, 1, vec![source(input)]);
            assert!(passed.is_empty(), "{second:?}");
            let err = verdict.unwrap_err();
            assert!(
                matches!(
                    err,
                    ResumeError::Mismatch {
                        at: RowAt::Line(3),
                        ..
                    }
                ),
                "{err}"
            );
        }
    }

    #[test]
    fn inputs_shorter_than_the_kept_rows_are_an_error() {
        let text = format!("{HEADER}{}{}", row(1, Some(P)), row(2, Some(Q)));
        let (passed, _, verdict) = resume(&text, 1, vec![source(vec![record(1, Some(P))])]);
        assert!(passed.is_empty());
        let err = verdict.unwrap_err();
        assert!(
            matches!(
                err,
                ResumeError::InputShort {
                    at: RowAt::Line(3),
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string().contains("input line 2 with puzzle"),
            "{err}"
        );
    }

    #[test]
    fn several_inputs_are_matched_by_their_file_column() {
        let header = format!("file,{HEADER}");
        let text = format!(
            "{header}a.txt,{}a.txt,{}b.txt,{}",
            row(1, Some(P)),
            row(2, Some(Q)),
            row(1, Some(Q))
        );
        let a = vec![record(1, Some(P)), record(2, Some(Q))];
        let b = vec![record(1, Some(Q)), record(2, Some(P))];
        let (passed, rows, verdict) = resume(&text, 2, vec![source(a.clone()), source(b)]);
        assert_eq!((passed, rows), (vec![(1, 2)], 3));
        verdict.unwrap();

        // Input a.txt now has a third record where the file moves on to b.txt.
        let mut longer = a;
        longer.push(record(3, Some(P)));
        let b = vec![record(1, Some(Q))];
        let (passed, _, verdict) = resume(&text, 2, vec![source(longer), source(b)]);
        assert!(passed.is_empty());
        let err = verdict.unwrap_err().to_string();
        assert!(err.contains("a.txt line 3 with puzzle"), "{err}");
    }

    #[test]
    fn an_input_given_twice_takes_the_rows_of_each_turn() {
        let header = format!("file,{HEADER}");
        let text = format!(
            "{header}a.txt,{}a.txt,{}a.txt,{}",
            row(1, Some(P)),
            row(2, Some(Q)),
            row(1, Some(P))
        );
        let a = || source(vec![record(1, Some(P)), record(2, Some(Q))]);
        let twice = vec!["a.txt".to_string(), "a.txt".to_string()];
        let (passed, rows, verdict) = resume_named(&text, &twice, vec![a(), a()]);
        assert_eq!((passed, rows), (vec![(1, 2)], 3));
        verdict.unwrap();

        // Given once, the third row has no input left to be of.
        let b = source(vec![record(1, Some(P))]);
        let (passed, _, verdict) = resume_named(&text, &names(2), vec![a(), b]);
        assert!(passed.is_empty());
        let err = verdict.unwrap_err().to_string();
        assert!(err.contains("no record of a.txt"), "{err}");
    }
}
