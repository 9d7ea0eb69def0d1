//! Reading results back (the rows [`crate::output`] writes): the
//! header's columns found by name, and each row as a [`PuzzleResult`] with
//! its `file` value. `--resume` reads its results file this way (CSV;
//! JSON Lines, whose objects [`json_fields`] lays out as the CSV's
//! records; Parquet, whose rows [`ParquetRecords`] lays out so), and
//! `merge` the shards' results.

use std::borrow::Cow;
use std::fmt;
use std::io::Read;
use std::str::FromStr;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::sizes::{self, Shape, SizedGrid, Symbols};
use sudoku_core::solver::Status;

use crate::input::sized::{looks_sized, same_list_shape};
use crate::output::rating::{RatingColumns, RowRating, APPENDED_COLUMNS, RATE_COLUMNS};
use crate::output::result::{Check, PuzzleResult};
use crate::output::{file_field, file_name, COLUMNS, FILE_COLUMN};

/// Where each results column is in a header: `solve`'s (with `solve
/// --rate`'s `rating,hardest` after them) or `rate`'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    /// The `file` column, present with several inputs.
    pub file: Option<usize>,
    /// The `line` column.
    pub line: usize,
    /// The `puzzle` column.
    pub puzzle: usize,
    /// The `status` column.
    pub status: usize,
    /// The `message` column.
    pub message: usize,
    /// `solve`'s `solution`, `guesses`, `solve_us` and `check` columns, in
    /// that order; `None` in `rate`'s table, which has none of them.
    pub solved: Option<[usize; 4]>,
    /// The `rating` and `hardest` columns, and `steps` (`rate` only), in a
    /// table of ratings.
    pub rating: Option<RatingFields>,
    /// Fields in the header: every row must have as many.
    pub len: usize,
}

/// Where the rating columns are in a table of ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingFields {
    /// The `rating` column.
    pub rating: usize,
    /// The `hardest` column.
    pub hardest: usize,
    /// The `steps` column, which `rate` writes and `solve --rate` does not.
    pub steps: Option<usize>,
}

impl Columns {
    /// The columns a run writes: [`COLUMNS`] (and `rating,hardest` after
    /// them for `solve --rate`), or `rate`'s [`RATE_COLUMNS`], after `file`
    /// with `file_column`.
    pub fn written(file_column: bool, rating: RatingColumns) -> Columns {
        let first = usize::from(file_column);
        let names: Vec<&str> = match rating {
            RatingColumns::None => COLUMNS.to_vec(),
            RatingColumns::Appended => COLUMNS.iter().chain(&APPENDED_COLUMNS).copied().collect(),
            RatingColumns::Only => RATE_COLUMNS.to_vec(),
        };
        let at = |name: &str| first + names.iter().position(|n| *n == name).unwrap_or(0);
        let solved = (rating != RatingColumns::Only)
            .then(|| ["solution", "guesses", "solve_us", "check"].map(at));
        let rating_fields = (rating != RatingColumns::None).then(|| RatingFields {
            rating: at("rating"),
            hardest: at("hardest"),
            steps: (rating == RatingColumns::Only).then(|| at("steps")),
        });
        Columns {
            file: file_column.then_some(0),
            line: at("line"),
            puzzle: at("puzzle"),
            status: at("status"),
            message: at("message"),
            solved,
            rating: rating_fields,
            len: first + names.len(),
        }
    }

    /// One past the last results column: the kept input columns follow.
    pub fn results_end(&self) -> usize {
        let mut last = [self.line, self.puzzle, self.status, self.message];
        last.sort_unstable();
        let solved = self.solved.iter().flatten().copied();
        let rating = self
            .rating
            .iter()
            .flat_map(|r| [Some(r.rating), Some(r.hardest), r.steps])
            .flatten();
        solved.chain(rating).chain(last).max().map_or(0, |m| m + 1)
    }

    /// Finds the results columns in `header` by name (a UTF-8 byte-order
    /// mark before the first is allowed); other columns may come between
    /// and after them. `file` counts only before `line` (see
    /// [`file_column`]). A header with `line`, `puzzle`, `rating`,
    /// `hardest`, `steps`, `status` and `message` but no `solution` is
    /// `rate`'s; `solve --rate`'s has `rating` and `hardest` right after
    /// `message`.
    ///
    /// # Errors
    /// A message naming the first results column missing.
    pub fn find(header: &csv::ByteRecord) -> Result<Columns, String> {
        let names: Vec<&[u8]> = header
            .iter()
            .enumerate()
            .map(|(i, name)| {
                if i == 0 {
                    name.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(name)
                } else {
                    name
                }
            })
            .collect();
        let position = |column: &str| names.iter().position(|n| *n == column.as_bytes());
        let missing = |column: &str| {
            let shown: Vec<String> = names
                .iter()
                .take(10)
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            format!(
                "not a results CSV: no `{column}` column (the header is `{}`)",
                shown.join(",")
            )
        };
        let rate_table =
            position("solution").is_none() && RATE_COLUMNS.iter().all(|c| position(c).is_some());
        let wanted: &[&str] = if rate_table { &RATE_COLUMNS } else { &COLUMNS };
        for column in wanted {
            position(column).ok_or_else(|| missing(column))?;
        }
        let at = |column: &str| position(column).unwrap_or(0);
        let message = at("message");
        let rating = if rate_table {
            Some(RatingFields {
                rating: at("rating"),
                hardest: at("hardest"),
                steps: Some(at("steps")),
            })
        } else {
            let after = |i: usize, column: &str| names.get(i) == Some(&column.as_bytes());
            (after(message + 1, "rating") && after(message + 2, "hardest")).then_some(
                RatingFields {
                    rating: message + 1,
                    hardest: message + 2,
                    steps: None,
                },
            )
        };
        let line = at("line");
        Ok(Columns {
            file: file_column(&names, line),
            line,
            puzzle: at("puzzle"),
            status: at("status"),
            message,
            solved: (!rate_table).then(|| ["solution", "guesses", "solve_us", "check"].map(at)),
            rating,
            len: names.len(),
        })
    }
}

/// Where a header's `file` column is, given its column names (without a
/// byte-order mark) and where its `line` column is: the first `file`
/// before `line`. sudoku-batch writes `file` first (several inputs only)
/// and kept input columns after its own, so a kept column named `file`
/// (written under that name with one input) is not taken for it.
pub fn file_column<N: AsRef<[u8]>>(names: &[N], line: usize) -> Option<usize> {
    names
        .iter()
        .take(line)
        .position(|name| name.as_ref() == FILE_COLUMN.as_bytes())
}

/// One results row read back: its `file` value (with several inputs) and
/// the result (`input` is 0 and `expected` `None`: a row does not say).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The `file` field, when the header has one.
    pub file: Option<String>,
    /// The row's values; `puzzle` and `solution` are `None` for a grid of
    /// another size than 9x9 (see `sized`).
    pub result: PuzzleResult,
    /// The blank its 9x9 `puzzle` field writes (`.` or `0`), when it has
    /// one.
    pub blank: Option<u8>,
    /// The `puzzle` and `solution` fields of a grid of another size than
    /// 9x9.
    pub sized: Option<SizedFields>,
}

/// The `puzzle` and `solution` fields of a results row of a grid of another
/// size than 9x9, as written. A row does not say its alphabet (found per
/// record, or given by `--symbols`) nor its boxes (`--box`), so the fields
/// are read when compared, in the alphabet and boxes of the grid they are
/// compared with: those of the same record read again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizedFields {
    /// The `puzzle` field.
    pub puzzle: String,
    /// The `solution` field; `None` when empty.
    pub solution: Option<String>,
}

impl SizedFields {
    /// True when the `puzzle` field, read in `symbols`, is `grid` (with
    /// its boxes).
    pub fn puzzle_is(&self, grid: &SizedGrid, symbols: &Symbols) -> bool {
        read_sized(&self.puzzle, symbols, grid.shape()).is_some_and(|read| read == *grid)
    }
}

/// `field` read as a grid of `shape` in `symbols`, when it is one.
pub fn read_sized(field: &str, symbols: &Symbols, shape: Shape) -> Option<SizedGrid> {
    sizes::read(field.as_bytes(), Some(symbols), Some(shape))
        .ok()
        .map(|read| read.grid)
        .filter(|grid| grid.shape() == shape)
}

/// Reads the records of a results file, header included, one reused record
/// at a time: a CSV's records, or JSON Lines rows laid out as the CSV
/// records of the same rows ([`json_fields`]) after a header of the first
/// row's keys, or Parquet rows laid out so ([`ParquetRecords`]) after a
/// header of its column names, so that one reader of CSV records reads
/// them all. Any number of
/// fields per CSV record (rows are checked against the header by
/// [`parse_row`]; a JSON Lines row has the first row's keys or is refused).
/// A last record without its line end is refused (see [`LastByte`]).
pub struct RecordReader<R> {
    source: RecordSource<R>,
    record: csv::ByteRecord,
    /// The field delimiter of CSV; `None` for JSON Lines and Parquet.
    delimiter: Option<u8>,
    /// Of CSV, the results columns its header names, once read (`None`
    /// before, and for a header without them): a row whose field took in
    /// whole rows after it is refused ([`RowsWithin`]).
    columns: Option<Columns>,
    /// Of CSV, the header is read.
    header_read: bool,
    /// Of JSON Lines, the fields of the record last read whose string held
    /// a lone surrogate escape ([`json_fields`]).
    lone_surrogates: Vec<usize>,
}

/// Where a [`RecordReader`] reads its records.
enum RecordSource<R> {
    Csv(csv::Reader<LastByte<R>>),
    Jsonl(JsonlRecords<R>),
    /// A Parquet file's rows, after its column names given as the header
    /// (`None` once given).
    Parquet(ParquetRecords, Option<Vec<String>>),
}

/// The state of a [`RecordReader`] of JSON Lines.
struct JsonlRecords<R> {
    lines: std::io::BufReader<R>,
    /// The line last read, its line end included.
    text: Vec<u8>,
    /// Its line in the file.
    line: u64,
    /// The first row's keys, once read: every row's.
    names: Option<Vec<String>>,
    /// Where `file` is among them.
    file: Option<usize>,
    /// The first row is read (its keys given as the header) and not given
    /// yet.
    pending: bool,
}

impl<R: Read> JsonlRecords<R> {
    /// Reads the next line that is not blank, refusing one without its
    /// line end; `false` at the end.
    fn next_line(&mut self) -> Result<bool, (u64, String)> {
        loop {
            self.text.clear();
            let n = std::io::BufRead::read_until(&mut self.lines, b'\n', &mut self.text)
                .map_err(|e| (self.line + 1, e.to_string()))?;
            if n == 0 {
                return Ok(false);
            }
            self.line += 1;
            if self.text.last() != Some(&b'\n') {
                return Err((self.line, CUT_SHORT.into()));
            }
            // A blank line is no row.
            if !matches!(&self.text[..], b"\n" | b"\r\n") {
                return Ok(true);
            }
        }
    }
}

impl<R: Read> RecordReader<R> {
    /// Reads `bytes` as comma-separated CSV with no header handling: the
    /// header is the first record read.
    pub fn new(bytes: R) -> RecordReader<R> {
        RecordReader::delimited(bytes, b',')
    }

    /// Reads `bytes` as CSV whose fields `delimiter` separates (see
    /// [`header_delimiter`]), as [`RecordReader::new`] reads them.
    pub fn delimited(bytes: R, delimiter: u8) -> RecordReader<R> {
        RecordReader {
            source: RecordSource::Csv(
                csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .delimiter(delimiter)
                    .from_reader(LastByte::new(bytes)),
            ),
            record: csv::ByteRecord::new(),
            delimiter: Some(delimiter),
            columns: None,
            header_read: false,
            lone_surrogates: Vec::new(),
        }
    }

    /// Reads `bytes` as JSON Lines results: the first record read is the
    /// header (the first row's keys, in order), the next ones the rows
    /// laid out as CSV records, the first row among them. A file with no
    /// row has no header either.
    pub fn jsonl(bytes: R) -> RecordReader<R> {
        RecordReader {
            source: RecordSource::Jsonl(JsonlRecords {
                lines: std::io::BufReader::with_capacity(64 * 1024, bytes),
                text: Vec::new(),
                line: 0,
                names: None,
                file: None,
                pending: false,
            }),
            record: csv::ByteRecord::new(),
            delimiter: None,
            columns: None,
            header_read: false,
            lone_surrogates: Vec::new(),
        }
    }

    /// Reads the Parquet results file `file`: the first record read is
    /// the header (its column names, in order), the next ones its rows laid
    /// out as CSV records ([`ParquetRecords`]). With `read`, only the
    /// results columns named there are read (`file` only when it is the
    /// `file` column, before `line`): the others are empty fields, so a
    /// kept input column of any type (after the results columns, whatever
    /// its name) is passed over. Without, every column is read, the kept
    /// input columns as CSV writes them ([`KeptValue::text`]).
    ///
    /// # Errors
    /// Why the file cannot be read as Parquet: not Parquet, no footer,
    /// columns that cannot be read as Arrow's.
    ///
    /// [`KeptValue::text`]: crate::kept::KeptValue::text
    pub fn parquet(file: std::fs::File, read: Option<&[&str]>) -> Result<RecordReader<R>, String> {
        let metadata = crate::output::parquet::footer(&file)?
            .ok_or("it is empty, not a Parquet file (it does not start with PAR1)")?;
        let names: Vec<String> = parquet::arrow::parquet_to_arrow_schema(
            metadata.file_metadata().schema_descr(),
            metadata.file_metadata().key_value_metadata(),
        )
        .map_err(|e| format!("its columns cannot be read as Arrow's ({e})"))?
        .fields()
        .iter()
        .map(|field| field.name().clone())
        .collect();
        let line = names.iter().position(|name| name == "line");
        let file_at = line.and_then(|line| file_column(&names, line));
        let mut header = csv::ByteRecord::new();
        for name in &names {
            header.push_field(name.as_bytes());
        }
        // The kept input columns follow the results columns.
        let results_end = Columns::find(&header).map_or(names.len(), |c| c.results_end());
        let columns: Vec<usize> = match read {
            Some(read) => read
                .iter()
                .filter(|name| **name != FILE_COLUMN)
                .filter_map(|wanted| names[..results_end].iter().position(|name| name == wanted))
                .chain(file_at.filter(|_| read.contains(&FILE_COLUMN)))
                .collect(),
            None => (0..names.len()).collect(),
        };
        let mut records = ParquetRecords::new(file, metadata, &columns, file_at)?;
        records.kept_from = results_end;
        Ok(RecordReader {
            source: RecordSource::Parquet(records, Some(names)),
            record: csv::ByteRecord::new(),
            delimiter: None,
            columns: None,
            header_read: false,
            lone_surrogates: Vec::new(),
        })
    }

    /// Reads the next record; `false` at the end.
    ///
    /// # Errors
    /// The line (of Parquet, the row) where the file could not be read,
    /// and why: not CSV, a JSON Lines row that is no object or has other
    /// keys than the first row, a last record without its line end
    /// ([`CUT_SHORT`]), a Parquet column of a type no results column has.
    pub fn read(&mut self) -> Result<bool, (u64, String)> {
        match &mut self.source {
            RecordSource::Parquet(rows, header) => match header.take() {
                Some(names) => {
                    self.record.clear();
                    for name in &names {
                        self.record.push_field(name.as_bytes());
                    }
                    Ok(true)
                }
                None => rows
                    .read(&mut self.record)
                    .map_err(|cause| (rows.rows() + 1, cause)),
            },
            RecordSource::Csv(csv) => {
                // An error of the bytes themselves (a gzip member cut short
                // or damaged) has no position of its own: it is in the
                // record being read, on the line after those read whole.
                let more = csv.read_byte_record(&mut self.record).map_err(|e| {
                    let line = e.position().map_or(csv.position().line(), |p| p.line());
                    (line, e.to_string())
                })?;
                if more && csv.get_ref().cut_short(csv.position().byte()) {
                    // The reader's line is past a last line end.
                    let last = csv.get_ref().last == Some(b'\n');
                    let start = self.record.position().map_or(0, |p| p.line());
                    let end = csv.position().line() - u64::from(last);
                    // A row whose quote is never closed takes in every
                    // line after it: it is not the last row cut short.
                    if csv.get_ref().quoted && end > start {
                        return Err((start, unclosed_quote(end)));
                    }
                    return Err((start, CUT_SHORT.into()));
                }
                if more && !self.header_read {
                    self.header_read = true;
                    self.columns = Columns::find(&self.record).ok();
                } else if let (true, Some(columns)) = (more, &self.columns) {
                    let start = self.record.position().map_or(0, |p| p.line());
                    // Records of one line are not looked at.
                    if csv.position().line() <= start + 1 {
                        return Ok(more);
                    }
                    let delimiter = self.delimiter.unwrap_or(b',');
                    if let Some(row) =
                        RowsWithin::in_record(&self.record, start, columns, delimiter)
                    {
                        return Err((start, stray_quote(row)));
                    }
                }
                Ok(more)
            }
            RecordSource::Jsonl(rows) => {
                if rows.pending {
                    rows.pending = false;
                } else if !rows.next_line()? {
                    return Ok(false);
                }
                let at = rows.line;
                match &rows.names {
                    Some(names) => {
                        self.lone_surrogates =
                            json_fields(&rows.text, names, rows.file, &mut self.record)
                                .map_err(|cause| (at, cause))?;
                    }
                    None => {
                        let members = JsonMembers::parse(&rows.text).map_err(|e| (at, e))?;
                        let names: Vec<String> = members.keys().map(str::to_string).collect();
                        drop(members);
                        let line = names.iter().position(|name| name == "line");
                        rows.file = line.and_then(|line| file_column(&names, line));
                        self.record.clear();
                        for name in &names {
                            self.record.push_field(name.as_bytes());
                        }
                        rows.names = Some(names);
                        rows.pending = true;
                        self.lone_surrogates.clear();
                    }
                }
                Ok(true)
            }
        }
    }

    /// The record last read.
    pub fn record(&self) -> &csv::ByteRecord {
        &self.record
    }

    /// Of JSON Lines, the fields of the record last read whose string held
    /// a lone surrogate escape, which [`RecordReader::record`] holds with
    /// U+FFFD for each ([`json_fields`]); none for CSV and Parquet.
    pub fn lone_surrogates(&self) -> &[usize] {
        &self.lone_surrogates
    }

    /// The line in the file where the record last read starts; of
    /// Parquet, its row (from 1; the header is row 0).
    pub fn line(&self) -> u64 {
        match &self.source {
            RecordSource::Csv(_) => self.record.position().map_or(0, |p| p.line()),
            RecordSource::Jsonl(rows) => rows.line,
            RecordSource::Parquet(rows, _) => rows.rows(),
        }
    }

    /// Where line `n` ([`RecordReader::line`]) is, as a message names it:
    /// `line n`, or `row n` of Parquet.
    pub fn place(&self, n: u64) -> String {
        match self.source {
            RecordSource::Parquet(..) => format!("row {n}"),
            _ => format!("line {n}"),
        }
    }

    /// The field delimiter of CSV; `None` for JSON Lines and Parquet.
    pub fn delimiter(&self) -> Option<u8> {
        self.delimiter
    }

    /// True when the file is JSON Lines.
    pub fn is_jsonl(&self) -> bool {
        matches!(self.source, RecordSource::Jsonl(_))
    }

    /// True when the file is Parquet.
    pub fn is_parquet(&self) -> bool {
        matches!(self.source, RecordSource::Parquet(..))
    }

    /// The file's format as messages name it: `CSV`, `JSON Lines` or
    /// `Parquet`.
    pub fn format_name(&self) -> &'static str {
        match self.source {
            RecordSource::Parquet(..) => "Parquet",
            RecordSource::Jsonl(_) => "JSON Lines",
            RecordSource::Csv(_) => "CSV",
        }
    }

    /// Of Parquet, its rows and columns; `None` for CSV and JSON Lines.
    pub fn parquet_records(&self) -> Option<&ParquetRecords> {
        match &self.source {
            RecordSource::Parquet(rows, _) => Some(rows),
            _ => None,
        }
    }

    /// Of JSON Lines, the row last read as written (its line end
    /// included); `None` for CSV, and for the header.
    pub fn jsonl_text(&self) -> Option<&[u8]> {
        match &self.source {
            RecordSource::Jsonl(rows) if !rows.pending && rows.names.is_some() => Some(&rows.text),
            _ => None,
        }
    }
}

/// The field delimiter of a CSV table sudoku-batch wrote, told by the
/// start of its header (`start`, the file's first bytes): its first column
/// is `file` or `line`, and the byte after that name is the delimiter
/// (`--output-delimiter`: a comma unless given, a tab, `;`, ...). A comma
/// when the header starts otherwise (then it is no table the tool wrote,
/// and the columns looked for are not found).
pub fn header_delimiter(start: &[u8]) -> u8 {
    let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
    [&b"file"[..], b"line"]
        .iter()
        .find_map(|name| start.strip_prefix(*name))
        .and_then(|rest| rest.first().copied())
        .filter(|&b| crate::output::check_delimiter(char::from(b)).is_ok())
        .unwrap_or(b',')
}

/// A delimiter as messages name it: `tab`, or the character in quotes
/// (`` `;` ``), or `comma`.
pub fn delimiter_name(delimiter: u8) -> String {
    match delimiter {
        b'\t' => "tab".into(),
        b',' => "comma".into(),
        b' ' => "space".into(),
        other => format!("`{}`", char::from(other)),
    }
}

/// Why a last record without its line end is refused: every row a results
/// file holds ends with one, so the file was cut short, and the record may
/// be a row cut inside its last field (a message or a kept value cut short
/// would read as a valid row).
pub const CUT_SHORT: &str = "the last row has no line end: the file was cut short inside it \
                             (every row sudoku-batch writes ends with one)";

/// Why a record whose quoted field runs from its line `start` to the end of
/// the file, at line `end`, is refused: a quote in it opens a field that no
/// quote closes, so the lines after it read as that field's text.
pub fn unclosed_quote(end: u64) -> String {
    format!(
        "a quote opens a field in this row and no quote closes it up to the end of the file \
         (line {end}): every line after it reads as that field's text (a stray `\"` in this \
         row, or a file cut short inside a quoted field)"
    )
}

/// Tells the whole rows of a results file that a field opened by a stray
/// quote took in: a line inside the field (or, in a file whose quote is
/// never closed, after the line where it opens) that reads on its own as a
/// row of the header's width ([`parse_row`]) whose `line` follows on from
/// the row the quote is in (greater, or of another `file`). A kill cuts
/// only the last row, so such a line means the file was damaged there, not
/// cut short; a value that legitimately spans lines (a kept value, a file
/// name) holds no such line.
pub struct RowsWithin<'a> {
    columns: &'a Columns,
    /// The `file` and `line` of the row the quote is in, when they are
    /// before the quote.
    after: Option<(Option<String>, u64)>,
    /// Reads each line looked at as a record, built once: building a
    /// reader costs more than reading a line.
    reader: csv_core::Reader,
    /// The fields of the line last read, one after the other, and where
    /// each ends, as `reader` writes them.
    fields: Vec<u8>,
    ends: Vec<usize>,
    record: csv::ByteRecord,
}

impl<'a> RowsWithin<'a> {
    /// Looks for rows following on from `record`, the row whose field
    /// opened by a quote holds the lines looked at (read as far as its
    /// fields go: its `line` is empty or no number when the quote is
    /// before it).
    pub fn after(record: &csv::ByteRecord, columns: &'a Columns, delimiter: u8) -> RowsWithin<'a> {
        RowsWithin {
            columns,
            after: place_of(record, columns),
            reader: csv_core::ReaderBuilder::new().delimiter(delimiter).build(),
            fields: Vec::new(),
            ends: Vec::new(),
            record: csv::ByteRecord::new(),
        }
    }

    /// As [`RowsWithin::after`], the row being the first line of `text`
    /// (where the quote opens), read on its own.
    pub fn after_line(text: &[u8], columns: &'a Columns, delimiter: u8) -> RowsWithin<'a> {
        let mut within = RowsWithin::after(&csv::ByteRecord::new(), columns, delimiter);
        within.reopen(text);
        within
    }

    /// Looks for rows following on from another row instead, as
    /// [`RowsWithin::after_line`] does, with the same reader: the first
    /// line of `text`, where another quote opens.
    pub fn reopen(&mut self, text: &[u8]) {
        let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
        self.after = if self.read(first) {
            place_of(&self.record, self.columns)
        } else {
            None
        };
    }

    /// Reads `line` (without its line end) as one CSV record, as a CSV
    /// reader reads the first record of the line alone: `false` when it is
    /// empty.
    fn read(&mut self, line: &[u8]) -> bool {
        use csv_core::ReadRecordResult;

        let mut input = line.strip_suffix(b"\r").unwrap_or(line);
        self.reader.reset();
        self.record.clear();
        let (mut written, mut ended) = (0, 0);
        loop {
            // Once the line is read, empty input ends its record.
            let (result, read, out, ends) = self.reader.read_record(
                input,
                &mut self.fields[written..],
                &mut self.ends[ended..],
            );
            input = &input[read..];
            written += out;
            ended += ends;
            match result {
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::OutputFull => {
                    self.fields.resize((self.fields.len() * 2).max(64), 0);
                }
                ReadRecordResult::OutputEndsFull => {
                    self.ends.resize((self.ends.len() * 2).max(16), 0);
                }
                ReadRecordResult::Record => break,
                ReadRecordResult::End => return false,
            }
        }
        let mut start = 0;
        for &end in &self.ends[..ended] {
            self.record.push_field(&self.fields[start..end]);
            start = end;
        }
        true
    }

    /// True when `line` (a whole line, without its line end) is a row
    /// following on.
    pub fn is_row(&mut self, line: &[u8]) -> bool {
        if !self.read(line) || self.record.len() != self.columns.len {
            return false;
        }
        let Ok(row) = parse_row(&self.record, self.columns) else {
            return false;
        };
        match &self.after {
            Some((file, line)) => row.file != *file || row.result.line > *line,
            None => true,
        }
    }

    /// In a `record` read whole, whose first line is line `start` of its
    /// file: the line of the first row a field of it took in (a line of a
    /// field after its first and before its last), if any.
    pub fn in_record(
        record: &csv::ByteRecord,
        start: u64,
        columns: &Columns,
        delimiter: u8,
    ) -> Option<u64> {
        // Most records span one line: one look at all their fields.
        memchr::memchr(b'\n', record.as_slice())?;
        let mut within: Option<RowsWithin> = None;
        let mut line = start;
        for field in record.iter() {
            if memchr::memchr(b'\n', field).is_none() {
                continue;
            }
            let within =
                within.get_or_insert_with(|| RowsWithin::after(record, columns, delimiter));
            let segments: Vec<&[u8]> = field.split(|&b| b == b'\n').collect();
            let inner = segments.len().saturating_sub(1);
            for (i, segment) in segments.iter().enumerate().take(inner).skip(1) {
                if within.is_row(segment) {
                    return Some(line + i as u64);
                }
            }
            line += inner as u64;
        }
        None
    }
}

/// The `file` and `line` of `record`, a results row read as far as its
/// fields go, when its `line` is a number.
fn place_of(record: &csv::ByteRecord, columns: &Columns) -> Option<(Option<String>, u64)> {
    let field = |i: usize| record.get(i).and_then(|f| std::str::from_utf8(f).ok());
    let line = field(columns.line)?.parse().ok()?;
    let file = columns
        .file
        .and_then(field)
        .map(|f| file_name(f).to_string());
    Some((file, line))
}

/// Why a row whose field opened by a quote took in the whole row at line
/// `row` is refused (see [`RowsWithin`]).
pub fn stray_quote(row: u64) -> String {
    format!(
        "a quote opens a field in this row and takes in line {row} after it, a whole row of \
         the file: a stray `\"` in this row (a kill cuts only the last row: the file was \
         damaged here, not cut short)"
    )
}

/// A reader that remembers how many bytes it gave, the last of them, and
/// whether they end inside a quoted field, so that a CSV reader over it can
/// tell a last record ended by the end of the input (cut short) from one
/// ended by its line end.
pub struct LastByte<R> {
    inner: R,
    read: u64,
    last: Option<u8>,
    /// An odd number of `"` read: inside a quoted field (a quote inside
    /// one is written doubled, and other fields hold none).
    quoted: bool,
}

impl<R> LastByte<R> {
    /// Reads `inner`.
    pub fn new(inner: R) -> LastByte<R> {
        LastByte {
            inner,
            read: 0,
            last: None,
            quoted: false,
        }
    }

    /// True when a record that ends at byte `end` (its reader's position
    /// after it) ends the bytes read so far without a line end, or inside
    /// a quoted field (after a line end within it): a record only ends
    /// there when the input ended.
    pub fn cut_short(&self, end: u64) -> bool {
        end == self.read && (self.quoted || self.last.is_some_and(|b| b != b'\n' && b != b'\r'))
    }
}

impl<R: Read> Read for LastByte<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            self.read += n as u64;
            self.last = Some(buf[n - 1]);
            let quotes = buf[..n].iter().filter(|&&b| b == b'"').count();
            self.quoted ^= quotes % 2 == 1;
        }
        Ok(n)
    }
}

/// The members of one JSON object, in order: each key with its value as
/// written.
pub struct JsonMembers<'a>(pub Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'a> JsonMembers<'a> {
    /// Parses `line` (one line of JSON Lines) as a JSON object.
    ///
    /// # Errors
    /// Why it is not one.
    pub fn parse(line: &'a [u8]) -> Result<JsonMembers<'a>, String> {
        serde_json::from_slice(line).map_err(|e| format!("not a JSON object: {e}"))
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(key, _)| key.as_ref())
    }
}

impl<'de> Deserialize<'de> for JsonMembers<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<JsonMembers<'de>, D::Error> {
        struct ObjectVisitor;

        impl<'de> Visitor<'de> for ObjectVisitor {
            type Value = JsonMembers<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<JsonMembers<'de>, A::Error> {
                let mut members = Vec::with_capacity(map.size_hint().unwrap_or(12));
                while let Some((Text(key), value)) = map.next_entry::<Text<'de>, &'de RawValue>()? {
                    members.push((key, value));
                }
                Ok(JsonMembers(members))
            }
        }

        d.deserialize_map(ObjectVisitor)
    }
}

/// A JSON string's text, borrowed from the line when it holds no escape.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text<'de>, D::Error> {
        struct TextVisitor;

        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON string")
            }

            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
        }

        d.deserialize_str(TextVisitor)
    }
}

/// Lays out a JSON Lines results row, `line` (one line of the file), as
/// the CSV record of the same row, into `record`, so that [`parse_row`]
/// reads it as it reads CSV: the values of the keys `names` (the CSV
/// header's columns), found by name, in that order, each as the CSV field
/// holds it: a string's text, a number (or `true`, `false`, a list, an
/// object) as written, `null` as an empty field, and the `file` value (the
/// field at `file`) with the `'` the CSV puts before a name like a formula
/// ([`file_field`]), which [`parse_row`] takes off again. A string holding
/// a lone surrogate escape (`"\ud800x"`, which UTF-8 cannot hold) is its
/// text with U+FFFD for each, as `solve` writes it to CSV; the fields
/// that hold one are returned (none, and no allocation, for most rows).
///
/// # Errors
/// A message saying what is wrong: not a JSON object, a key of `names`
/// missing, or a key that is not among them.
pub fn json_fields(
    line: &[u8],
    names: &[String],
    file: Option<usize>,
    record: &mut csv::ByteRecord,
) -> Result<Vec<usize>, String> {
    let members = JsonMembers::parse(line)?;
    record.clear();
    let mut lone_surrogates = Vec::new();
    for (i, name) in names.iter().enumerate() {
        // The keys come in the header's order, as they are written.
        let value = match members.0.get(i) {
            Some((key, value)) if key == name => value,
            _ => match members.0.iter().find(|(key, _)| key == name) {
                Some((_, value)) => value,
                None => return Err(format!("no `{}` key", name.escape_debug())),
            },
        };
        let raw = value.get();
        match raw.as_bytes().first() {
            Some(b'"') => {
                // A string without escapes is its text between its quotes
                // (a grid, a status): read again only one with escapes.
                let text = match raw.get(1..raw.len() - 1) {
                    Some(inner) if !inner.contains('\\') => Cow::Borrowed(inner),
                    _ => match serde_json::from_str::<Text<'_>>(raw) {
                        Ok(Text(text)) => text,
                        Err(_) => {
                            lone_surrogates.push(i);
                            Cow::Owned(crate::input::lossy_string(raw))
                        }
                    },
                };
                match file {
                    Some(at) if at == i => record.push_field(file_field(&text).as_bytes()),
                    _ => record.push_field(text.as_bytes()),
                }
            }
            Some(b'n') => record.push_field(b""),
            _ => record.push_field(raw.as_bytes()),
        }
    }
    if members.0.len() != names.len() {
        let extra = members
            .keys()
            .find(|key| !names.iter().any(|name| name == key));
        return Err(match extra {
            Some(key) => format!(
                "a `{}` key, which is no column of this run's results",
                key.escape_debug()
            ),
            None => "a key given twice".into(),
        });
    }
    Ok(lone_surrogates)
}

/// Rows of a Parquet results file read at a time, at most (fewer for long
/// rows: [`batch_rows`](crate::input::batch_rows)).
const PARQUET_BATCH_ROWS: usize = 8192;

/// Reads the rows of a Parquet results file, a batch of rows at a time
/// (row group by row group, never the whole file), each laid out as the
/// CSV record of the same row, so that [`parse_row`] reads it as it reads
/// CSV: a field per column of the file, in order; a string as its text
/// (the `file` value with the `'` of [`file_field`]), an unsigned integer
/// as its digits, a double (`solve_us`, `rating`) with one decimal, as
/// the CSV writes them, and a null as an empty field; a kept input column
/// (from [`ParquetRecords::kept_from`] on) holds any type, each value as
/// CSV writes it ([`KeptValue::text`]). Only the columns asked for are
/// read: the others (kept input columns, which [`parse_row`] passes over)
/// are empty fields.
///
/// [`KeptValue::text`]: crate::kept::KeptValue::text
pub struct ParquetRecords {
    batches: parquet::arrow::arrow_reader::ParquetRecordBatchReader,
    /// The batch being read, and its next row.
    batch: Option<(arrow_array::RecordBatch, usize)>,
    /// For each field of a record (each column of the file): where its
    /// column is among a batch's, `None` for a column not read.
    fields: Vec<Option<usize>>,
    /// The `file` column's field.
    file: Option<usize>,
    /// The first kept input column (one past the results columns): it and
    /// the columns after it are read as kept values. The file's width
    /// unless set.
    pub kept_from: usize,
    /// The file's columns, with their types.
    schema: arrow_schema::SchemaRef,
    /// Rows read so far.
    rows: u64,
    /// A number or a decimal, as its field holds it.
    text: String,
}

impl ParquetRecords {
    /// Reads the Parquet file `file`, whose footer is `metadata`, reading
    /// the columns at `read` (positions among the file's columns); the
    /// `file` column is at `file`.
    ///
    /// # Errors
    /// The file's columns cannot be read as Arrow's.
    pub fn new(
        file: std::fs::File,
        metadata: std::sync::Arc<parquet::file::metadata::ParquetMetaData>,
        read: &[usize],
        file_column: Option<usize>,
    ) -> Result<ParquetRecords, String> {
        use crate::input::batch_rows;
        use arrow_schema::DataType;
        use parquet::arrow::arrow_reader::{
            ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
        };
        let reader = ArrowReaderMetadata::try_new(
            std::sync::Arc::clone(&metadata),
            ArrowReaderOptions::new(),
        )
        .map_err(|e| e.to_string())?;
        let schema = std::sync::Arc::clone(reader.schema());
        let width = schema.fields().len();
        let mut roots: Vec<usize> = read.iter().copied().filter(|&i| i < width).collect();
        roots.sort_unstable();
        roots.dedup();
        // Text and bytes read as views of the pages: a dictionary-encoded
        // column's values are views of its dictionary (a long kept value
        // repeated on every row would otherwise be copied on each, past
        // what Arrow's strings hold), so a batch takes about the bytes the
        // footer gives its pages.
        let viewed = schema
            .fields()
            .iter()
            .map(|field| match field.data_type() {
                DataType::Utf8 | DataType::LargeUtf8 => {
                    field.as_ref().clone().with_data_type(DataType::Utf8View)
                }
                DataType::Binary | DataType::LargeBinary => {
                    field.as_ref().clone().with_data_type(DataType::BinaryView)
                }
                _ => field.as_ref().clone(),
            })
            .collect::<Vec<_>>();
        let viewed = arrow_schema::Schema::new_with_metadata(viewed, schema.metadata().clone());
        let options = ArrowReaderOptions::new().with_schema(std::sync::Arc::new(viewed));
        let reader = ArrowReaderMetadata::try_new(metadata, options).unwrap_or(reader);
        let mask = parquet::arrow::ProjectionMask::roots(reader.parquet_schema(), roots.clone());
        // Fewer rows a batch for rows of long kept values, by the row group
        // whose rows are the longest.
        let batch_rows = reader
            .metadata()
            .row_groups()
            .iter()
            .map(|group| batch_rows(group, &roots, PARQUET_BATCH_ROWS))
            .min()
            .unwrap_or(PARQUET_BATCH_ROWS);
        let batches = ParquetRecordBatchReaderBuilder::new_with_metadata(file, reader)
            .with_projection(mask)
            .with_batch_size(batch_rows)
            .build()
            .map_err(|e| e.to_string())?;
        let fields = (0..width)
            .map(|i| roots.iter().position(|&root| root == i))
            .collect();
        Ok(ParquetRecords {
            batches,
            batch: None,
            fields,
            file: file_column,
            kept_from: width,
            schema,
            rows: 0,
            text: String::new(),
        })
    }

    /// Reads the next row into `record`; `false` after the last.
    ///
    /// # Errors
    /// The file cannot be read (the row it stopped at is
    /// [`ParquetRecords::rows`] + 1), or a column holds a type no results
    /// column has.
    pub fn read(&mut self, record: &mut csv::ByteRecord) -> Result<bool, String> {
        let (batch, row) = loop {
            match &mut self.batch {
                Some((batch, next)) if *next < batch.num_rows() => {
                    *next += 1;
                    break (&*batch, *next - 1);
                }
                _ => match self.batches.next() {
                    None => return Ok(false),
                    Some(batch) => self.batch = Some((batch.map_err(|e| e.to_string())?, 0)),
                },
            }
        };
        record.clear();
        for (field, column) in self.fields.iter().enumerate() {
            let Some(array) = column.map(|c| batch.column(c)) else {
                record.push_field(b"");
                continue;
            };
            if field >= self.kept_from {
                let value = crate::input::parquet::kept_at(array.as_ref(), row);
                record.push_field(value.text().as_bytes());
                continue;
            }
            push_parquet_value(
                array.as_ref(),
                row,
                self.file == Some(field),
                &mut self.text,
                record,
            )?;
        }
        self.rows += 1;
        Ok(true)
    }

    /// Rows read so far: the row last read is row `rows()` (from 1).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The file's columns, with their types.
    pub fn schema(&self) -> &arrow_schema::SchemaRef {
        &self.schema
    }

    /// The row last read, as a batch of one row of the columns read, in
    /// the file's own types (text and bytes are read as views: see
    /// [`ParquetRecords::new`]); other columns are a slice of the batch
    /// read, sharing its buffers.
    pub fn last_row(&self) -> Option<arrow_array::RecordBatch> {
        use arrow_array::cast::AsArray;
        use arrow_array::{ArrayRef, BinaryArray, LargeBinaryArray, LargeStringArray, StringArray};
        use arrow_schema::DataType;

        let (batch, next) = self.batch.as_ref()?;
        let row = batch.slice(next.checked_sub(1)?, 1);
        let (fields, columns): (Vec<_>, Vec<ArrayRef>) = row
            .schema()
            .fields()
            .iter()
            .zip(row.columns())
            .map(|(field, column)| {
                let declared = self.schema.field_with_name(field.name()).ok();
                let field = declared.map_or_else(|| field.as_ref().clone(), |f| f.clone());
                let column: ArrayRef = match (column.data_type(), field.data_type()) {
                    (DataType::Utf8View, DataType::Utf8) => {
                        std::sync::Arc::new(column.as_string_view().iter().collect::<StringArray>())
                    }
                    (DataType::Utf8View, DataType::LargeUtf8) => std::sync::Arc::new(
                        column.as_string_view().iter().collect::<LargeStringArray>(),
                    ),
                    (DataType::BinaryView, DataType::Binary) => {
                        std::sync::Arc::new(column.as_binary_view().iter().collect::<BinaryArray>())
                    }
                    (DataType::BinaryView, DataType::LargeBinary) => std::sync::Arc::new(
                        column.as_binary_view().iter().collect::<LargeBinaryArray>(),
                    ),
                    _ => std::sync::Arc::clone(column),
                };
                (field, column)
            })
            .unzip();
        let schema =
            arrow_schema::Schema::new_with_metadata(fields, row.schema().metadata().clone());
        arrow_array::RecordBatch::try_new(std::sync::Arc::new(schema), columns).ok()
    }
}

/// Pushes the value at `row` of `array`, a column of a Parquet results
/// file, as the CSV field of the same value ([`ParquetRecords`]); `file`
/// when it is the `file` column.
fn push_parquet_value(
    array: &dyn arrow_array::Array,
    row: usize,
    file: bool,
    text: &mut String,
    record: &mut csv::ByteRecord,
) -> Result<(), String> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, UInt64Type};
    use arrow_schema::DataType;
    use std::fmt::Write;

    if array.is_null(row) {
        record.push_field(b"");
        return Ok(());
    }
    text.clear();
    let string = match array.data_type() {
        DataType::Utf8 => Some(array.as_string::<i32>().value(row)),
        DataType::Utf8View => Some(array.as_string_view().value(row)),
        _ => None,
    };
    if let Some(value) = string {
        match file {
            true => record.push_field(file_field(value).as_bytes()),
            false => record.push_field(value.as_bytes()),
        }
        return Ok(());
    }
    match array.data_type() {
        DataType::UInt64 => {
            let _ = write!(text, "{}", array.as_primitive::<UInt64Type>().value(row));
        }
        DataType::Float64 => {
            let _ = write!(
                text,
                "{:.1}",
                array.as_primitive::<Float64Type>().value(row)
            );
        }
        other => {
            return Err(format!(
                "a column of type {other}, which no results column has"
            ))
        }
    }
    record.push_field(text.as_bytes());
    Ok(())
}

/// Parses one results row laid out as `columns` says.
///
/// # Errors
/// A message saying what is wrong: the field count, a field that is not
/// UTF-8 or not a valid value, or a puzzle field that does not fit the
/// status (empty exactly when `malformed`).
pub fn parse_row(record: &csv::ByteRecord, columns: &Columns) -> Result<Row, String> {
    if record.len() != columns.len {
        return Err(format!(
            "{}, expected {}",
            crate::process::words::count(record.len() as u64, "field", "fields"),
            columns.len
        ));
    }
    let field = |i: usize, name: &str| -> Result<&str, String> {
        std::str::from_utf8(record.get(i).unwrap_or_default())
            .map_err(|_| format!("{name} is not UTF-8"))
    };
    let file = match columns.file {
        Some(i) => Some(file_name(field(i, FILE_COLUMN)?).to_string()),
        None => None,
    };
    let line = field(columns.line, "line")?
        .parse::<u64>()
        .map_err(|e| format!("line: {e}"))?;
    let puzzle_text = field(columns.puzzle, "puzzle")?;
    let other_size = looks_sized(puzzle_text.as_bytes());
    let (puzzle, blank) = if other_size {
        (None, None)
    } else {
        let blank = puzzle_text
            .bytes()
            .find(|b| !b.is_ascii_digit() || *b == b'0');
        (optional_grid(puzzle_text, "puzzle")?, blank)
    };
    let status = Status::from_str(field(columns.status, "status")?).map_err(|e| e.to_string())?;
    let [solution, guesses, solve_us, check] = match columns.solved {
        Some(fields) => fields.map(Some),
        None => [None; 4],
    };
    let optional_field = |i: Option<usize>, name: &str| match i {
        Some(i) => field(i, name),
        None => Ok(""),
    };
    let solution_text = optional_field(solution, "solution")?;
    let (solution, sized) = if other_size {
        let solution_bytes = solution_text.as_bytes();
        if !solution_text.is_empty()
            && !looks_sized(solution_bytes)
            && !same_list_shape(puzzle_text.as_bytes(), solution_bytes)
        {
            return Err(format!(
                "solution `{}` is not valid",
                solution_text.escape_debug()
            ));
        }
        let sized = SizedFields {
            puzzle: puzzle_text.to_string(),
            solution: Some(solution_text)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        };
        (None, Some(sized))
    } else {
        (optional_grid(solution_text, "solution")?, None)
    };
    let guesses = optional(
        optional_field(guesses, "guesses")?,
        |g| g.parse::<u64>().ok(),
        "guesses",
    )?;
    let solve_ns = optional(
        optional_field(solve_us, "solve_us")?,
        parse_micros,
        "solve_us",
    )?;
    let check = optional(
        optional_field(check, "check")?,
        |c| match c {
            "ok" => Some(Check::Ok),
            "mismatch" => Some(Check::Mismatch),
            _ => None,
        },
        "check",
    )?;
    let rating = match columns.rating {
        Some(at) => {
            let steps = match at.steps {
                Some(i) => Some(field(i, "steps")?),
                None => None,
            };
            RowRating::parse(
                field(at.rating, "rating")?,
                field(at.hardest, "hardest")?,
                steps,
            )?
        }
        None => None,
    };
    if rating.is_some() && status != Status::Solved {
        return Err(format!(
            "status {status} with a rating: only a solved puzzle is rated"
        ));
    }
    let message = Some(field(columns.message, "message")?)
        .filter(|m| !m.is_empty())
        .map(str::to_string);
    if (status == Status::Malformed) != (puzzle.is_none() && sized.is_none()) {
        return Err(format!(
            "status {status} with a puzzle field that does not fit it"
        ));
    }
    Ok(Row {
        file,
        blank,
        sized,
        result: PuzzleResult {
            input: 0,
            line,
            puzzle,
            status,
            solution,
            guesses,
            solve_ns,
            check,
            message,
            expected: None,
            kept: Vec::new(),
            sized: None,
            rating,
        },
    })
}

fn optional<T>(
    field: &str,
    parse: impl Fn(&str) -> Option<T>,
    name: &str,
) -> Result<Option<T>, String> {
    if field.is_empty() {
        return Ok(None);
    }
    parse(field)
        .map(Some)
        .ok_or_else(|| format!("{name} `{}` is not valid", field.escape_debug()))
}

fn optional_grid(field: &str, name: &str) -> Result<Option<Grid>, String> {
    optional(
        field,
        |f| {
            (f.len() == CELLS)
                .then(|| Grid::parse(f.as_bytes()).ok())
                .flatten()
        },
        name,
    )
}

/// `12.3` (microseconds, one decimal, as the `solve_us` column holds them)
/// as nanoseconds.
pub fn parse_micros(field: &str) -> Option<u64> {
    let (whole, tenths) = field.split_once('.')?;
    let tenths: u64 = match tenths.as_bytes() {
        [d] if d.is_ascii_digit() => u64::from(d - b'0'),
        _ => return None,
    };
    whole
        .parse::<u64>()
        .ok()?
        .checked_mul(1000)?
        .checked_add(tenths * 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "..64.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";

    /// The first record of `text`, a line of a results file.
    fn record(text: &str) -> csv::ByteRecord {
        let line = format!("{text}\n");
        let mut reader = RecordReader::new(line.as_bytes());
        assert!(reader.read().unwrap());
        reader.record().clone()
    }

    /// A record's fields as text, for comparing.
    fn texts(record: &csv::ByteRecord) -> Vec<String> {
        record
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect()
    }

    #[test]
    fn json_lines_read_as_a_header_of_the_first_row_keys_and_csv_records() {
        let text = format!(
            "{{\"file\":\"=a.txt\",\"line\":3,\"puzzle\":\"{P}\",\"guesses\":null}}\n\n\
             {{\"puzzle\":\"{P}\",\"file\":\"b\\u0022.txt\",\"line\":7,\"guesses\":2}}\n"
        );
        let mut reader = RecordReader::jsonl(text.as_bytes());
        let mut read = vec![];
        while reader.read().unwrap() {
            read.push((
                reader.line(),
                texts(reader.record()),
                reader.jsonl_text().is_some(),
            ));
        }
        let fields = |f: [&str; 4]| f.map(str::to_string).to_vec();
        assert_eq!(
            read,
            vec![
                (1, fields(["file", "line", "puzzle", "guesses"]), false),
                (1, fields(["'=a.txt", "3", P, ""]), true),
                (3, fields(["b\".txt", "7", P, "2"]), true),
            ]
        );

        let cut = "{\"line\":1}\n{\"line\":2}";
        let mut reader = RecordReader::jsonl(cut.as_bytes());
        assert!(reader.read().unwrap() && reader.read().unwrap());
        assert_eq!(reader.read(), Err((2, CUT_SHORT.to_string())));

        let other_keys = "{\"line\":1}\n{\"line\":2,\"x\":1}\n";
        let mut reader = RecordReader::jsonl(other_keys.as_bytes());
        assert!(reader.read().unwrap() && reader.read().unwrap());
        let (line, cause) = reader.read().unwrap_err();
        assert_eq!(line, 2);
        assert!(cause.contains("`x`"), "{cause}");

        let mut empty = RecordReader::jsonl(&b"\n"[..]);
        assert_eq!(empty.read(), Ok(false));
    }

    #[test]
    fn parquet_rows_read_as_a_header_of_its_columns_and_csv_records() {
        use arrow_array::{ArrayRef, Float64Array, Int64Array, StringArray, UInt64Array};
        use std::sync::Arc;
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("file", Arc::new(StringArray::from(vec!["=a.txt", "b.txt"]))),
            ("line", Arc::new(UInt64Array::from(vec![3, 7]))),
            ("puzzle", Arc::new(StringArray::from(vec![Some(P), None]))),
            ("solve_us", Arc::new(Float64Array::from(vec![12.5, 2.0]))),
            ("guesses", Arc::new(UInt64Array::from(vec![Some(2), None]))),
            ("rating", Arc::new(Int64Array::from(vec![-1, 5]))),
        ];
        let batch = arrow_array::RecordBatch::try_from_iter(columns).unwrap();
        let mut file = tempfile::tempfile().unwrap();
        let mut writer =
            parquet::arrow::ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        let read = |names: &[&str]| {
            let file = file.try_clone().unwrap();
            let mut reader = RecordReader::<&[u8]>::parquet(file, Some(names)).unwrap();
            let mut records = vec![];
            while reader.read().unwrap() {
                records.push((
                    reader.place(reader.line()),
                    texts(reader.record()).join("|"),
                ));
            }
            records
        };
        let place = |n: &str, fields: &str| (n.to_string(), fields.to_string());
        // The kept `rating` (Int64, no results column's type) is not read.
        assert_eq!(
            read(&["file", "line", "puzzle", "solve_us", "guesses"]),
            vec![
                place("row 0", "file|line|puzzle|solve_us|guesses|rating"),
                place("row 1", &format!("'=a.txt|3|{P}|12.5|2|")),
                place("row 2", "b.txt|7||2.0||"),
            ]
        );
        assert_eq!(read(&["line"])[1], place("row 1", "|3||||"));
        let mut all = RecordReader::<&[u8]>::parquet(file, Some(&["rating"])).unwrap();
        assert!(all.read().unwrap());
        let (row, cause) = all.read().unwrap_err();
        assert_eq!(row, 1);
        assert!(cause.contains("type Int64"), "{cause}");
    }

    #[test]
    fn parquet_kept_columns_read_as_csv_writes_them() {
        use arrow_array::{ArrayRef, BooleanArray, Float64Array, Int64Array};
        use arrow_array::{StringArray, UInt64Array};
        use std::sync::Arc;
        let text = |v: Vec<Option<&str>>| -> ArrayRef { Arc::new(StringArray::from(v)) };
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("line", Arc::new(UInt64Array::from(vec![2]))),
            ("puzzle", text(vec![Some(P)])),
            ("status", text(vec![Some("unsolvable")])),
            ("solution", text(vec![None])),
            ("guesses", Arc::new(UInt64Array::from(vec![4]))),
            ("solve_us", Arc::new(Float64Array::from(vec![1.5]))),
            ("check", text(vec![None])),
            ("message", text(vec![None])),
            ("score", Arc::new(Float64Array::from(vec![2.5]))),
            ("n", Arc::new(Int64Array::from(vec![-3]))),
            ("ok", Arc::new(BooleanArray::from(vec![true]))),
            ("file", text(vec![Some("=x")])),
        ];
        let batch = arrow_array::RecordBatch::try_from_iter(columns).unwrap();
        let mut file = tempfile::tempfile().unwrap();
        let mut writer =
            parquet::arrow::ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        let mut reader = RecordReader::<&[u8]>::parquet(file, None).unwrap();
        assert!(reader.read().unwrap() && reader.read().unwrap());
        let fields: Vec<&str> = reader
            .record()
            .iter()
            .map(|f| std::str::from_utf8(f).unwrap())
            .collect();
        // A kept `file` is a value as written, not the `file` column.
        assert_eq!(
            fields,
            [
                "2",
                P,
                "unsolvable",
                "",
                "4",
                "1.5",
                "",
                "",
                "2.5",
                "-3",
                "true",
                "=x"
            ]
        );
        assert!(!reader.read().unwrap());
    }

    #[test]
    fn micros_parse_back_to_nanoseconds() {
        assert_eq!(parse_micros("12.3"), Some(12_300));
        assert_eq!(parse_micros("0.0"), Some(0));
        for bad in ["1.23", "12", "x.1", "-1.0", ".5"] {
            assert_eq!(parse_micros(bad), None, "{bad}");
        }
    }

    #[test]
    fn columns_are_found_by_name_among_others() {
        let header = record(
            "\u{feff}file,id,line,puzzle,status,solution,guesses,solve_us,check,message,extra",
        );
        let columns = Columns::find(&header).unwrap();
        assert_eq!(columns.file, Some(0));
        let at = &columns;
        assert_eq!([at.line, at.puzzle, at.status, at.message], [2, 3, 4, 9]);
        assert_eq!(columns.solved, Some([5, 6, 7, 8]));
        assert_eq!((columns.len, columns.results_end()), (11, 10));
        assert_eq!(columns.rating, None);
        assert_eq!(
            Columns::find(&record(&COLUMNS.join(","))),
            Ok(Columns::written(false, RatingColumns::None))
        );
        let written = format!("file,{}", COLUMNS.join(","));
        assert_eq!(
            Columns::find(&record(&written)),
            Ok(Columns::written(true, RatingColumns::None))
        );
        let err = Columns::find(&record("line,puzzle,status")).unwrap_err();
        assert!(err.contains("no `solution` column"), "{err}");
    }

    #[test]
    fn the_tables_of_ratings_are_found_and_read() {
        let rate = format!("file,{},source", RATE_COLUMNS.join(","));
        let columns = Columns::find(&record(&rate)).unwrap();
        assert_eq!(columns, {
            let mut written = Columns::written(true, RatingColumns::Only);
            written.len += 1;
            written
        });
        assert_eq!((columns.solved, columns.results_end()), (None, 8));
        let row = parse_row(
            &record(&format!("a.txt,3,{P},7.2,Skyscraper,40,solved,,x")),
            &columns,
        )
        .unwrap();
        let rating = row.result.rating.unwrap();
        assert_eq!(
            (rating.tenths, rating.hardest.as_ref(), rating.steps),
            (72, "Skyscraper", 40)
        );
        assert_eq!((row.result.guesses, row.result.solve_ns), (None, None));
        let unrated = format!("a.txt,3,{P},,,,solved,\"not rated: needs more\",x");
        let row = parse_row(&record(&unrated), &columns).unwrap();
        assert_eq!(row.result.rating, None);
        let bad = format!("a.txt,3,{P},9.0,Nishio,4,multiple,,x");
        assert!(parse_row(&record(&bad), &columns).is_err());
        let appended = format!("{},rating,hardest,source", COLUMNS.join(","));
        let columns = Columns::find(&record(&appended)).unwrap();
        let mut written = Columns::written(false, RatingColumns::Appended);
        written.len += 1;
        assert_eq!(columns, written);
        let row = parse_row(
            &record(&format!("3,{P},solved,,0,1.0,,,4.5,Unique Rectangle,x")),
            &columns,
        )
        .unwrap();
        assert_eq!(
            row.result.rating.map(|r| (r.tenths, r.steps)),
            Some((45, 0))
        );
        // `rating` kept from the input, not after `message`: no ratings.
        let kept = format!("{},source,rating,hardest", COLUMNS.join(","));
        assert_eq!(Columns::find(&record(&kept)).unwrap().rating, None);
    }

    /// Found by the `results` fuzz target: with one input a kept column
    /// named `file` keeps its name, after the results columns, and was
    /// read as the input's name.
    #[test]
    fn a_kept_column_named_file_is_not_the_file_column() {
        let one = format!("{},file", COLUMNS.join(","));
        let columns = Columns::find(&record(&one)).unwrap();
        assert_eq!(columns.file, None);
        assert_eq!(columns.len, COLUMNS.len() + 1);
        let several = format!("file,{},input_file,file", COLUMNS.join(","));
        assert_eq!(Columns::find(&record(&several)).unwrap().file, Some(0));
    }

    /// Found writing the `results` fuzz target's invariants: a results
    /// file cut inside its last row's message or kept value read as a row
    /// with that value cut short, which `merge` then wrote.
    #[test]
    fn a_last_row_cut_short_is_refused() {
        let whole = format!("line,message\n1,{P}\n2,\"two\nlines\"\r\n3,why\n");
        let read_all = |text: &str| -> Result<u64, (u64, String)> {
            let mut reader = RecordReader::new(text.as_bytes());
            let mut records = 0;
            while reader.read()? {
                records += 1;
            }
            Ok(records)
        };
        assert_eq!(read_all(&whole), Ok(4));
        let cut = |at: usize| read_all(&whole[..at]).unwrap_err();
        assert_eq!(cut(whole.len() - 1).1, CUT_SHORT);
        assert_eq!(cut(whole.len() - 3).1, CUT_SHORT);
        assert_eq!(cut(whole.find("lines").unwrap()).1, CUT_SHORT);
        assert_eq!(cut(whole.find("1,").unwrap() + 4), (2, CUT_SHORT.into()));
        for end in ["1,2\r", "1,2\r\n", "1,2\n\n", "1,\"2\"\n"] {
            assert_eq!(read_all(&format!("a,b\n{end}")), Ok(2), "{end:?}");
        }
    }

    /// A stray quote in a row (a trial's `sed`) takes in every line after
    /// it: named at the row that opens it, not as a last row cut short.
    #[test]
    fn a_quote_never_closed_is_named_at_its_row() {
        let text = "line,status,message\n1,solved,\n2,\"solved,\n3,solved,\n4,solved,\n";
        let mut reader = RecordReader::new(text.as_bytes());
        assert_eq!(reader.read(), Ok(true));
        assert_eq!(reader.read(), Ok(true));
        assert_eq!(reader.read(), Err((3, unclosed_quote(5))));
    }

    /// Found by fix57: a quote that opens a field and a later quote that
    /// closes it made the rows between one row's value, which `merge`
    /// wrote as one row (exit 0).
    #[test]
    fn a_field_that_takes_in_whole_rows_is_refused_at_its_row() {
        let header = "line,puzzle,status,solution,guesses,solve_us,check,message\n";
        let row = |line: u64, message: &str| format!("{line},{P},unsolvable,,0,1.0,,{message}\n");
        let read_all = |text: &str| -> Result<u64, (u64, String)> {
            let mut reader = RecordReader::new(text.as_bytes());
            let mut records = 0;
            while reader.read()? {
                records += 1;
            }
            Ok(records)
        };
        let damaged = [
            row(1, ""),
            row(2, "\""),
            row(3, ""),
            row(4, "x\""),
            row(5, ""),
        ]
        .concat();
        assert_eq!(
            read_all(&format!("{header}{damaged}")),
            Err((3, stray_quote(4)))
        );
        // A value of several lines that holds no row following on.
        for value in [
            "\"a\nb,c\nd\"",
            &format!("\"a\n{}\nb\"", row(1, "").trim_end()),
        ] {
            let text = format!("{header}{}{}", row(2, value), row(3, ""));
            assert_eq!(read_all(&text), Ok(3), "{value:?}");
        }
        // Not a results table: not looked at.
        assert_eq!(read_all("a,b\n1,\"2\n3,4\n\"\n"), Ok(2));
    }

    /// Each line inside a quoted field is read by one reader built once
    /// (building one per line made a value of a million lines take half a
    /// minute to read back; trial59 F1-5): it reads a line as a CSV reader
    /// reads the line alone, one line after another.
    #[test]
    fn a_line_within_reads_as_a_csv_reader_reads_it_alone() {
        let columns = Columns::written(false, RatingColumns::None);
        let long = format!("\"{}\"\"x\",{}", "a,".repeat(5000), ";".repeat(3000));
        for delimiter in [b',', b';'] {
            let mut within = RowsWithin::after(&csv::ByteRecord::new(), &columns, delimiter);
            for line in [
                "",
                "a",
                ",",
                "1,\"b,c\",d",
                "\"a\"\"b\";c,\"\"",
                "\"never closed,a",
                "a,b\r",
                "a\rb,c",
                ";;x;",
                &long,
                "",
                "e,f",
            ] {
                let alone = line.strip_suffix('\r').unwrap_or(line);
                let mut expected = csv::ByteRecord::new();
                let more = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .delimiter(delimiter)
                    .from_reader(alone.as_bytes())
                    .read_byte_record(&mut expected)
                    .unwrap();
                assert_eq!(within.read(line.as_bytes()), more, "{line:?}");
                if more {
                    assert_eq!(texts(&within.record), texts(&expected), "{line:?}");
                }
            }
        }
    }

    /// A whole row after many lines of a value (of a million line ends,
    /// read back in seconds before one reader served every line) is found
    /// at its line.
    #[test]
    fn a_whole_row_after_many_lines_of_a_value_is_found() {
        let header = "line,puzzle,status,solution,guesses,solve_us,check,message\n";
        let row = |line: u64, message: &str| format!("{line},{P},unsolvable,,0,1.0,,{message}\n");
        let lines = 100_000;
        let value = format!("\"{}{}x\"", "\n".repeat(lines), row(3, ""));
        let text = format!("{header}{}{}", row(2, &value), row(4, ""));
        let mut reader = RecordReader::new(text.as_bytes());
        assert_eq!(reader.read(), Ok(true));
        assert_eq!(reader.read(), Err((2, stray_quote(2 + lines as u64))));
    }

    #[test]
    fn the_delimiter_is_told_by_the_header() {
        assert_eq!(header_delimiter(b"line\tpuzzle\tstatus"), b'\t');
        assert_eq!(header_delimiter(b"\xEF\xBB\xBFfile;line;puzzle"), b';');
        assert_eq!(header_delimiter(b"line,puzzle"), b',');
        // No table the tool wrote: the columns looked for are not found.
        assert_eq!(header_delimiter(b"puzzle\tsolution"), b',');
        assert_eq!(header_delimiter(b"lines,x"), b',');
        assert_eq!(header_delimiter(b"line"), b',');
        let text = "line\tmessage\n1\t\"a\tb\"\n";
        let mut reader = RecordReader::delimited(text.as_bytes(), b'\t');
        assert_eq!(reader.delimiter(), Some(b'\t'));
        assert_eq!(reader.read(), Ok(true));
        assert_eq!(reader.read(), Ok(true));
        assert_eq!(reader.record().get(1), Some(&b"a\tb"[..]));
        assert_eq!(delimiter_name(b'\t'), "tab");
        assert_eq!(delimiter_name(b';'), "`;`");
    }

    /// Writes `results` in `shape` as CSV and as JSON Lines, and reads each
    /// JSON Lines row back as the CSV record it lays out.
    fn both_ways(shape: &crate::output::Shape, results: &[PuzzleResult]) -> Vec<(Row, Row)> {
        use crate::output::{CsvRows, JsonlRows, RowFormat};
        let csv = CsvRows::new(shape, b',');
        let jsonl = JsonlRows::new(shape);
        let names = shape.column_names();
        let columns = Columns::find(&record(&names.join(","))).unwrap();
        results
            .iter()
            .map(|result| {
                let (mut csv_text, mut json_text) = (Vec::new(), Vec::new());
                csv.csv_row(result, &mut csv_text);
                jsonl.row(result, &mut json_text);
                let from_csv = parse_row(
                    &record(std::str::from_utf8(&csv_text).unwrap().trim_end()),
                    &columns,
                )
                .unwrap();
                let mut fields = csv::ByteRecord::new();
                json_fields(&json_text, &names, columns.file, &mut fields).unwrap();
                (from_csv, parse_row(&fields, &columns).unwrap())
            })
            .collect()
    }

    #[test]
    fn a_json_lines_row_reads_back_as_its_csv_row() {
        use crate::kept::{KeptColumn, KeptValue};
        use crate::output::result::Check;
        use crate::output::Shape;
        use sudoku_core::grid::Grid;
        let shape = Shape {
            files: Some(vec!["=a.txt".into(), "b \"2\".txt".into()]),
            kept: vec![KeptColumn::text("note"), KeptColumn::text("line")],
            ..Shape::default()
        };
        let solved = PuzzleResult {
            input: 0,
            line: 7,
            puzzle: Some(Grid::parse(P.as_bytes()).unwrap()),
            status: Status::Unsolvable,
            solution: None,
            guesses: Some(12),
            solve_ns: Some(12_345),
            check: Some(Check::Mismatch),
            message: Some("why \"not\"\n".into()),
            expected: None,
            kept: vec![KeptValue::Text("a, \"b\"".into()), KeptValue::Int(4)],
            sized: None,
            rating: None,
        };
        let malformed = PuzzleResult {
            input: 1,
            line: 9,
            puzzle: None,
            status: Status::Malformed,
            guesses: None,
            solve_ns: None,
            check: None,
            message: Some("=3 cells".into()),
            kept: vec![KeptValue::Null, KeptValue::Float(2.5)],
            ..solved.clone()
        };
        let rows = both_ways(&shape, &[solved, malformed]);
        for (from_csv, from_json) in &rows {
            assert_eq!(from_json, from_csv);
        }
        assert_eq!(rows[0].1.file.as_deref(), Some("=a.txt"));
        assert_eq!(rows[1].1.result.message.as_deref(), Some("'=3 cells"));
    }

    #[test]
    fn a_json_lines_row_needs_every_key_of_the_run_and_no_other() {
        let names: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
        let mut fields = csv::ByteRecord::new();
        let row = format!(
            r#"{{"line":3,"puzzle":"{P}","status":"solved","solution":null,"guesses":0,"solve_us":1.5,"check":null,"message":null}}"#
        );
        json_fields(row.as_bytes(), &names, None, &mut fields).unwrap();
        assert_eq!(fields.len(), names.len());
        // The keys are found by name, in any order.
        let reordered = row
            .replace(r#""line":3,"#, "")
            .replace('}', r#","line":3}"#);
        let mut again = csv::ByteRecord::new();
        json_fields(reordered.as_bytes(), &names, None, &mut again).unwrap();
        assert_eq!(again, fields);
        for (bad, why) in [
            (row.replace(r#""check":null,"#, ""), "no `check` key"),
            (row.replace('}', r#","note":1}"#), "a `note` key"),
            (row.replace('}', r#","line":4}"#), "a key given twice"),
            (format!("[{row}]"), "not a JSON object"),
            (row[..row.len() - 1].to_string(), "not a JSON object"),
        ] {
            let err = json_fields(bad.as_bytes(), &names, None, &mut fields).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn rows_parse_into_results() {
        let columns = Columns::written(true, RatingColumns::None);
        let row = parse_row(
            &record(&format!("a.txt,7,{P},unsolvable,,3,12.5,,why")),
            &columns,
        )
        .unwrap();
        assert_eq!(row.file.as_deref(), Some("a.txt"));
        assert_eq!(row.result.line, 7);
        assert_eq!(row.result.status, Status::Unsolvable);
        assert_eq!(
            (row.result.guesses, row.result.solve_ns),
            (Some(3), Some(12_500))
        );
        assert_eq!(row.result.message.as_deref(), Some("why"));
        let malformed = parse_row(&record("a.txt,8,,malformed,,,,,\"3 cells\""), &columns).unwrap();
        assert_eq!(malformed.result.puzzle, None);
        for bad in [
            format!("a.txt,x,{P},solved,,,,,"),
            format!("a.txt,1,{P},done,,,,,"),
            format!("a.txt,1,{P},solved,,,,"),
            "a.txt,1,,solved,,,,,".to_string(),
            format!("a.txt,1,{P},solved,,1,1,,"),
        ] {
            assert!(parse_row(&record(&bad), &columns).is_err(), "{bad}");
        }
    }
}
