//! Streaming input: opens files, stdin and gzip, and turns their lines or CSV
//! records into puzzle [`Record`]s, one at a time, in bounded memory.
//!
//! ```no_run
//! use sudoku_batch::input::{open, ReadOptions};
//!
//! let input = open("puzzles.csv.gz")?; // fails at once if missing
//! let progress = input.consumed(); // raw bytes read so far, for a progress bar
//! for record in input.records(&ReadOptions::default())? {
//!     let record = record?; // an I/O error ends the input
//!     match record.puzzle {
//!         Ok(grid) => println!("line {}: {grid}", record.line),
//!         Err(why) => println!("line {}: malformed: {why}", record.line),
//!     }
//! }
//! # let _ = progress;
//! # Ok::<(), sudoku_batch::input::InputError>(())
//! ```
//!
//! # Layouts
//!
//! - **Lines** ([`Format::Lines`]): one puzzle per line, fields split on
//!   whitespace, `,`, `;` and `|` (runs of separators count as one). The
//!   puzzle is the first field, or [`ReadOptions::column`]; when the first
//!   field is not an 81-cell puzzle but exactly one other field is an 81-cell
//!   puzzle that is not a complete grid, that field is the puzzle (so
//!   `<id> <puzzle> <rating>` works). The first later field that is a
//!   complete grid is the given solution; anything else after the puzzle is
//!   free text. A line of 81 one-character values separated by commas or
//!   spaces is a 9x9 puzzle too. Blank lines, `#` comment lines and a lone
//!   0x1A byte are skipped. Before the first record, a line of text with
//!   nothing that looks like a puzzle (a run of 17 or more digits and
//!   blanks, a spreadsheet number such as `4.30021E+78`, a field or line of
//!   exactly 81 characters or bytes, 17 or more digits among one repeated
//!   foreign character) and nothing that could be a grid of another size
//!   ([`sized::could_be_record`]: a field or the whole line) is a header (a
//!   title, a count, column names) and is skipped; under `--format lines`,
//!   `--symbols` or `--box` no line is ([`ReadOptions::sizes`]). A line
//!   over [`MAX_RECORD`] bytes is `too long` unless it is a one-line grid
//!   of another size, kept up to [`MAX_SIZED_LINE`]. Every other line that is not a puzzle,
//!   and after the first record every line that is not a puzzle, blank or
//!   comment, is a `malformed` record: nothing is dropped silently. Binary
//!   garbage and invalid UTF-8 are always `malformed`.
//! - **CSV** ([`Format::Csv`]): fields split on [`ReadOptions::delimiter`];
//!   the first record is a header when none of its
//!   fields looks like a puzzle (by the same rules as a lines header). The puzzle column is [`ReadOptions::column`],
//!   else the header's `puzzle`, `quizzes`, `quiz`, `question` or `grid`
//!   (case-insensitive), else chosen by content (the `choose` rules) on the
//!   first data records (1,000, or 4 MiB: the `ahead` look, read again
//!   from memory). The solution column is the header's
//!   `solution`, `solutions` or `answer`; without a header naming it, the
//!   first other column of complete grids on the same records, before or
//!   after the puzzle column (the `choose` rules). A
//!   `status` column gives [`Record::expected`] (a value that names no
//!   status gives [`Record::status_error`]); a solution column's value
//!   that is not a complete grid gives [`Record::solution_error`]. With a
//!   header, a record with more or fewer fields than it (trailing empty
//!   fields not counted) is `malformed`. Fields are trimmed; quoted fields
//!   may hold separators and line ends; a quote still open at the end of the
//!   input is `malformed` (`unterminated quote opened on line N`) and
//!   costs that line only; a record whose quoted fields span lines over
//!   [`MAX_TABLE_RECORD`] bytes is one `malformed` record
//!   (`record too long (over 1048576 bytes), lines N-M`), read to its end
//!   in bounded memory; blank and `#` lines are skipped.
//! - **Grid** ([`Format::Grid`]): multi-line grids, one grid row per line
//!   (`003020600`, `4 . . |. . . |8 . 5`, `0,11,9,...`), separator and
//!   title lines between grids, rules such as `------+------+------`
//!   between bands of boxes; grids of every side with boxes are read (other
//!   sizes than 9x9 through [`sized`]), and a grid cut short by a blank,
//!   title or separator line (`========`, `---`) or the end of the input is
//!   `malformed`: it is never joined with the next grid. A one-line
//!   81-cell puzzle between grids is read too. A line of text is a title
//!   only when a grid follows it; one that no grid follows, or one that
//!   holds cells but is no row, is `malformed`.
//! - **JSON Lines** ([`Format::Jsonl`]): one JSON value per line, framed
//!   as text lines. An object's puzzle key is [`ReadOptions::column`] (a
//!   name, or a 1-based position in the first object), else one of
//!   [`PUZZLE_NAMES`], else chosen by content (the `choose` rules) on the
//!   first records, as CSV's; [`SOLUTION_NAMES`] (else a key of complete
//!   grids, as for CSV) and [`STATUS_NAME`] as for
//!   CSV, looked up in every object (a key left out of the first ones is
//!   read where it is). A line that is a string or a list is the puzzle itself. A line
//!   that is not JSON is `malformed` (`not valid JSON: ...`).
//! - **Parquet** ([`Format::Parquet`]): read one row group at a time, only
//!   the columns used; columns chosen as for JSON Lines, by the schema's
//!   top-level names (by content on the first rows). [`Record::line`] is the 1-based row number. A file
//!   that is not seekable (stdin, or compressed) is spooled to an anonymous
//!   temporary file first.
//!
//! A puzzle value of JSON Lines or Parquet is a string of 81 cells (any
//! blank style), a list of 81 integers (0 blank) or a list of 9 lists of 9,
//! or the same at another size (n*n cells, n*n integers, n lists of n);
//! anything else is `malformed` saying what it found (`found a list of 80
//! values, expected 81 cells or 9 lists of 9`, `item 5 is 12, expected
//! 0-9`, `item 2 (r1c2) is null, expected an integer 0-16`).
//!
//! Every text layout: an input named `.gz`, or starting with the gzip magic bytes
//! `1F 8B` (stdin included), is decompressed (every member; zero padding
//! after the last is ignored with a warning, as `gzip -t` does), and so is
//! one named `.zst` or starting with zstd's magic bytes (every frame), while
//! [`Input::consumed`] counts the raw bytes; a UTF-8 byte-order mark is
//! dropped; `\n`, `\r\n` and a lone `\r` each end a line, in any mixture; the last line needs no newline; a record over
//! [`MAX_RECORD`] bytes (text lines, grids) or [`MAX_TABLE_RECORD`] (CSV and
//! JSON Lines, whose records carry the kept columns: 1 MiB) is `malformed`
//! (`line too long (over 4096 bytes)`) and is never held whole in memory. [`Record::line`] is the physical line
//! where the record starts, counting every line.

mod ahead;
mod choose;
mod csv;
mod csv_reader;
mod direct;
mod encoding;
mod field;
mod frame;
mod grid;
mod gzip;
mod jsonl;
mod jsonl_reader;
mod keep;
mod lines;
mod lines_reader;
mod name;
mod open;
pub(crate) mod parquet;
mod parquet_file;
mod parquet_reader;
mod record_batch;
pub mod sized;
mod solutions;
#[cfg(test)]
mod tests;
mod value;

use std::path::PathBuf;

use sudoku_core::grid::Grid;
use sudoku_core::solver::Status;
use thiserror::Error;

use crate::kept::KeptValue;

pub use self::ahead::AHEAD_RECORDS;
pub use self::choose::{PUZZLE_NAMES, SOLUTION_NAMES, STATUS_NAME};
pub use self::frame::{MAX_RECORD, MAX_SIZED_LINE, MAX_TABLE_RECORD};
pub use self::gzip::GzipMembers;
pub(crate) use self::jsonl::lossy_string;
pub use self::jsonl::{JsonRules, KeyScan, MAX_KEYS};
pub use self::keep::{kept_types, layout, Keep, KeptFit, KeptLayout, KeptTypes};
pub use self::name::{input_name, input_names, inputs_of, same_input};
pub use self::open::{
    jsonl_name, open, open_path, open_results, open_table, open_text, read_twice, Input, Records,
    Results, Source,
};
pub(crate) use self::parquet_reader::batch_rows;
pub use self::record_batch::{
    Parsed, Parser, PlainRecord, RecordBatch, RecordStream, Scratch, FILL_BYTES, IN_FLIGHT_BYTES,
};
pub use self::sized::{SizeOptions, SizedRecord};
pub use self::value::Value;

/// One puzzle record read from an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The 1-based physical line where the record starts, counting every line
    /// of the file (headers, comments and blank lines included).
    pub line: u64,
    /// The puzzle, or the reason the record is not a 9x9 puzzle (the parser's
    /// message, e.g. `bad character 'a' at position 82`).
    pub puzzle: Result<Grid, String>,
    /// A complete solution given by the input (a solution column, a later
    /// field, or a `--solutions` file), to check the result against.
    pub solution: Option<Grid>,
    /// A solution the input gives that is not a complete grid (a solution
    /// column's value of 80 digits, a junk line of a `--solutions` file):
    /// why, e.g. `given solution is not a grid: 80 cells, expected 81`. The
    /// result's check is then `mismatch`.
    pub solution_error: Option<String>,
    /// A status the input expects for this record (a `status` column, as in
    /// a previous results CSV); used by `check`. `None` for an empty value
    /// or a placeholder of a missing one, and for one that names no status
    /// (`status_error` then says so).
    pub expected: Option<Status>,
    /// An expected status the input gives that names no status (`unique`,
    /// `ok`, a typo): why, e.g. `expected status 'ok' is no status name:
    /// ...`. The result's check is then
    /// `mismatch`, whatever its status: what the input expects was never
    /// tested.
    pub status_error: Option<String>,
    /// The record's values of the kept columns ([`ReadOptions::keep`]), one
    /// per column of [`Records::kept_columns`], null where the record has
    /// none; empty without `--keep`.
    pub kept: Vec<KeptValue>,
    /// The puzzle when it is a grid of another size than 9x9 (see
    /// [`sized`]); `puzzle` then says `only 9x9 is supported` for the
    /// parts of the program that take 9x9 grids only.
    pub sized: Option<Box<SizedRecord>>,
}

impl Record {
    /// A record with no expected status.
    pub fn new(line: u64, puzzle: Result<Grid, String>, solution: Option<Grid>) -> Record {
        Record {
            line,
            puzzle,
            solution,
            solution_error: None,
            expected: None,
            status_error: None,
            kept: Vec::new(),
            sized: None,
        }
    }

    /// Takes what the record's expected-status field says
    /// ([`field::status`]'s reading of a `status` column or key): the
    /// status, nothing, or why the value names no status.
    pub(crate) fn set_expected(&mut self, read: Result<Option<Status>, String>) {
        (self.expected, self.status_error) = match read {
            Ok(status) => (status, None),
            Err(why) => (None, Some(why)),
        };
    }

    /// A record of a text line: its puzzle, and the solution it gives or
    /// why what stands there is none (a `lines::Given`).
    #[inline]
    pub fn of_line(line: u64, puzzle: Result<Grid, String>, given: lines::Given) -> Record {
        Record {
            solution_error: given.error.map(String::from),
            ..Record::new(line, puzzle, given.solution)
        }
    }

    /// The side of the record's grid (9 for a 9x9 puzzle), as a bit of a
    /// set of sides (bit n for n x n); 0 for a malformed record.
    pub fn side_bit(&self) -> u128 {
        match (&self.sized, &self.puzzle) {
            (Some(sized), _) => 1 << sized.puzzle.side(),
            (None, Ok(_)) => 1 << 9,
            (None, Err(_)) => 0,
        }
    }

    /// Takes what [`sized::read`] made of the record's field: the grid of
    /// another size, or the message that makes the record `malformed`;
    /// and why a given solution is not one. A 9x9 in the digits `1`-`9`
    /// so read (`0,0,3,0,2,...` as a field or a string) becomes the 9x9
    /// puzzle it writes ([`sized::as_nine`]).
    pub fn set_sized(&mut self, read: (Result<SizedRecord, String>, Option<String>)) {
        let (sized, solution_error) = read;
        match sized {
            Ok(sized) => {
                if let Some((puzzle, solution)) = sized::as_nine(&sized) {
                    self.puzzle = Ok(puzzle);
                    self.solution = solution.or(self.solution);
                    self.solution_error = solution_error;
                    return;
                }
                self.puzzle = Err(sized::only_nine(sized.puzzle.side()));
                self.sized = Some(Box::new(sized));
                // The 9x9 reading of the solution field does not apply.
                self.solution_error = solution_error;
            }
            Err(message) => self.puzzle = Err(message),
        }
    }
}

/// The value at `row` of an Arrow array as the puzzle rules of typed
/// inputs see it: as the `solve` subcommand sees a Parquet column's value.
pub fn arrow_value(array: &dyn arrow_array::Array, row: usize) -> Value<'_> {
    parquet::value_at(array, row)
}

/// The 9x9 puzzle a typed value (a Parquet or JSON Lines value, an item of
/// a data frame) holds, or the command line's message for why it holds
/// none (`item 5 is 12, expected 0-9`, `found null, expected 81 cells or 9
/// lists of 9`); a 9x9 list numbered from 0 is none ([`typed_sized`]).
pub fn typed_puzzle(value: &Value<'_>, sizes: &SizeOptions) -> Result<Grid, String> {
    value::puzzle_in(value, sizes)
}

/// What [`sized::read`] makes of a typed value holding a grid of another
/// size than 9x9 (or a 9x9 list numbered from 0), as the `solve`
/// subcommand reads it from Parquet or JSON Lines: the grid, or why one of
/// its items or rows is none (`item 256 (r16c16) is 17, expected 0-16`,
/// `row 16 is a list of 15 values, expected 16`); `None` when the value
/// is no such grid.
pub fn typed_sized(value: &Value<'_>, sizes: &SizeOptions) -> Option<Result<SizedRecord, String>> {
    value::sized(value, None, sizes).map(|(read, _)| read)
}

/// Classifies one field as the readers do: an 81-cell puzzle, or the
/// reader's message for why it is not one (`80 cells, expected 81`,
/// `looks like a spreadsheet number (...)`). Nothing is trimmed.
pub fn puzzle_field(field: &[u8]) -> Result<Grid, String> {
    field::puzzle(field).ok_or_else(|| field::error(field))
}

/// How an input's records are laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// By name, then content: `parquet` for names ending `.parquet` or
    /// content starting `PAR1`; `jsonl` for names ending `.jsonl` or
    /// `.ndjson`, or content starting `{`; `csv` for names ending `.csv`,
    /// and with a tab delimiter for `.tsv` and `.tab`, and for other names
    /// whose first line is tab-separated; `lines` otherwise (a `.gz` or
    /// `.zst` ending is looked past). An input
    /// whose first rows look like a multi-line grid is refused with
    /// [`InputError::GridFile`].
    #[default]
    Auto,
    /// One puzzle per line, fields split on whitespace, `,`, `;` and `|`.
    /// Given explicitly, every line is a record (no header lines).
    Lines,
    /// CSV with an optional header.
    Csv,
    /// Multi-line grids, one grid row per line.
    Grid,
    /// JSON Lines: one JSON object (or puzzle value) per line.
    Jsonl,
    /// Parquet, read one row group at a time.
    Parquet,
}

impl Format {
    /// The name `--format` gives the layout.
    pub fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Lines => "lines",
            Format::Csv => "csv",
            Format::Grid => "grid",
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
        }
    }
}

/// Refuses a layout option that applies to none of a run's inputs (each
/// named, with the layout it is read in), rather than ignore it: a
/// `--delimiter` other than `auto` when no input is CSV (nor the
/// `--solutions` file, read as CSV for a `.csv` name), a `--column` when
/// every input is grids. One that applies to some inputs only is used for
/// those.
///
/// # Errors
/// [`InputError::NotApplicable`] saying which option and why.
pub fn options_apply(inputs: &[(&str, Format)], options: &ReadOptions) -> Result<(), InputError> {
    if inputs.is_empty() {
        return Ok(());
    }
    let described = || {
        let all: Vec<String> = inputs
            .iter()
            .map(|(name, format)| format!("{name} ({})", format.name()))
            .collect();
        all.join(", ")
    };
    if let Delimiter::Byte(b) = options.delimiter {
        let csv_solutions = options
            .solutions
            .as_deref()
            .is_some_and(|path| open::csv_name(&input_name(path)));
        if !inputs.iter().any(|(_, f)| *f == Format::Csv) && !csv_solutions {
            return Err(InputError::NotApplicable(format!(
                "--delimiter {:?} separates the fields of CSV inputs and of a --solutions .csv \
                 file, and no input is read as CSV: {}; leave it out, or add --format csv",
                char::from(b),
                described()
            )));
        }
    }
    if options.column.is_some() && inputs.iter().all(|(_, f)| *f == Format::Grid) {
        return Err(InputError::NotApplicable(format!(
            "--column chooses the puzzle's field, and grids (--format grid) have none: {}",
            described()
        )));
    }
    Ok(())
}

/// The field separator of CSV input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Delimiter {
    /// A tab for a tab-separated input (by name, `.tsv` or `.tab`, or by
    /// content) or a first line whose first separator outside quotes is a
    /// tab; else `,`, unless the first line holds no comma but `;`, a tab
    /// or `|` (looked for in that order), which is then the separator.
    #[default]
    Auto,
    /// This byte.
    Byte(u8),
}

impl Delimiter {
    /// Parses `--delimiter`: `auto`, `tab` (or `\t`), or one ASCII
    /// character other than a quote or a line end.
    ///
    /// # Errors
    /// Anything else, saying what is expected.
    pub fn parse(value: &str) -> Result<Delimiter, String> {
        match value {
            "auto" => Ok(Delimiter::Auto),
            "tab" | "\\t" => Ok(Delimiter::Byte(b'\t')),
            _ => match value.as_bytes() {
                [b] if b.is_ascii() && !matches!(b, b'"' | b'\n' | b'\r') => {
                    Ok(Delimiter::Byte(*b))
                }
                _ => Err(
                    "expected one ASCII character (not a quote or line end), `tab` or `auto`"
                        .into(),
                ),
            },
        }
    }
}

/// Which field holds the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// A header name, matched case-insensitively.
    Name(String),
    /// A 1-based field index.
    Index(usize),
}

/// Options for reading one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// The layout.
    pub format: Format,
    /// The puzzle field, when not found automatically.
    pub column: Option<Column>,
    /// A file of solutions paired with the input record by record (read as
    /// lines, or CSV for a `.csv` name); each gives [`Record::solution`].
    pub solutions: Option<PathBuf>,
    /// The CSV field separator.
    pub delimiter: Delimiter,
    /// The input columns every record keeps ([`Record::kept`]): by header
    /// name or number for CSV, key for JSON Lines, column for Parquet;
    /// `field1`, `field2`, ... for text lines and CSV without a header.
    pub keep: Keep,
    /// The kept columns' types must hold every value of the input, as
    /// Parquet output needs (one type per column, fixed before the first
    /// row): a JSON Lines input is then read through once first for them
    /// (see [`KeyScan`]). Text outputs write each value as it is and need
    /// not.
    pub kept_types: bool,
    /// How records of other sizes than 9x9 are read (`--symbols`,
    /// `--box`).
    pub sizes: SizeOptions,
}

/// What [`InputError::GridFile`] adds for rows of `side` cells that are
/// also a whole one-line grid with boxes (16 cells: a 4x4; not 25 cells,
/// since a 5x5 has none): each line may be a puzzle of its own.
fn one_line_hint(side: usize) -> String {
    match sudoku_core::sizes::side_of(side) {
        Some(n) if sudoku_core::sizes::Shape::usual(n).is_ok() => {
            format!(", or --format lines if each line is a {n}x{n} puzzle")
        }
        _ => String::new(),
    }
}

/// A failure that stops reading an input (per-record problems are
/// `malformed` records instead).
#[derive(Debug, Error)]
pub enum InputError {
    /// The input could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The input's name (`-` for stdin).
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Under [`Format::Auto`], the input looks like multi-line grids; when
    /// its rows are as long as a one-line grid (16, 36, 64 cells), the
    /// message names `--format lines` too.
    #[error(
        "{path}: line {line}: looks like a file of {side}x{side} grids written one row per line; \
         use --format grid to read it{}",
        one_line_hint(*.side)
    )]
    GridFile {
        /// The input's name.
        path: PathBuf,
        /// The line of the first grid row.
        line: u64,
        /// The grid's side (4, 9, 16 or 25).
        side: usize,
    },
    /// The input is not text: binary data, or UTF-16 without a byte-order
    /// mark (UTF-16 with one is decoded). Found on the first bytes read.
    #[error("{path}: {what}; sudoku-batch reads text (one puzzle per line, CSV or grids), so this input is not read")]
    NotText {
        /// The input's name.
        path: PathBuf,
        /// What it is instead, e.g. `binary data (a NUL byte at offset 8)`.
        what: String,
    },
    /// `--column NAME` names no column of the header.
    #[error("{path}: no column named '{column}'{}", where_columns_are(header.as_deref()))]
    UnknownColumn {
        /// The input's name.
        path: PathBuf,
        /// The name asked for.
        column: String,
        /// The header, shortened, when there is one.
        header: Option<String>,
    },
    /// `--keep NAME` on text lines that no header line names: their fields
    /// go by number only.
    #[error(
        "{path}: no field named '{column}': no header line names the fields of these text \
         lines, so they go by number, field1 to field{count} (a CSV file with a header whose \
         name does not end in .csv, or read from stdin, is read as CSV with --format csv)"
    )]
    UnnamedFields {
        /// The input's name.
        path: PathBuf,
        /// The name asked for.
        column: String,
        /// How many fields the first record has.
        count: usize,
    },
    /// A column name (`--keep`, `--column`) that no column has exactly, and
    /// that two match ignoring case.
    #[error(
        "{path}: no column is named exactly '{column}', and both '{first}' and '{second}' \
         match it ignoring case: give the exact name"
    )]
    AmbiguousColumn {
        /// The input's name.
        path: PathBuf,
        /// The name asked for.
        column: String,
        /// The first name that matches it ignoring case.
        first: String,
        /// Another.
        second: String,
    },
    /// `--keep N` over inputs whose column N has different names.
    #[error(
        "--keep {number}: column {number} is '{first}' in {first_path} but '{name}' in {path}; \
         keep columns by name when the inputs' columns differ"
    )]
    KeptNumberDiffers {
        /// The column number.
        number: usize,
        /// The first input.
        first_path: PathBuf,
        /// Its name there.
        first: String,
        /// Another input.
        path: PathBuf,
        /// Its name there.
        name: String,
    },
    /// A file of a kind this reader does not read (Parquet where text is
    /// read, JSON Lines where CSV is), named so.
    #[error("{path}: {found}, and {wanted}")]
    WrongKind {
        /// The file's name.
        path: PathBuf,
        /// What it is.
        found: String,
        /// What is read instead.
        wanted: String,
    },
    /// An option that does not apply to the input(s) it would be used on
    /// (see [`options_apply`]).
    #[error("{0}")]
    NotApplicable(String),
    /// `--column NAME` on an input with no header.
    #[error(
        "{path}: --column {column} names a column, but the input has no header; use a field number"
    )]
    NoHeader {
        /// The input's name.
        path: PathBuf,
        /// The name asked for.
        column: String,
    },
    /// `--column 0`: columns count from 1.
    #[error("--column 0: columns are numbered from 1")]
    ColumnZero,
    /// No `--column` and no column named as the puzzle, and the columns'
    /// values leave unclear which holds the puzzles: one holds complete
    /// grids where another is empty (see `choose`).
    #[error(
        "{path}: {place}: no column is named as the puzzle, and which one holds the puzzles is \
         unclear: {columns}; give the puzzle column with --column NAME or --column N"
    )]
    PuzzleColumnUnclear {
        /// The input's name.
        path: PathBuf,
        /// Where it was seen: `line 2`, `rows 1-1000`.
        place: String,
        /// The columns, named as `choose::describe` names them.
        columns: String,
    },
    /// A Parquet file that cannot be read (no footer, an unsupported
    /// encoding or compression, a damaged page).
    #[error("{path}: Parquet: {message}")]
    Parquet {
        /// The input's name.
        path: PathBuf,
        /// The cause, in the `parquet` crate's words.
        message: String,
    },
    /// The `--solutions` file ended before the input.
    #[error("{solutions}: no solution for the record at line {line} of {path} (the solutions file is shorter than the input)")]
    SolutionsShort {
        /// The solutions file.
        solutions: PathBuf,
        /// The input's name.
        path: PathBuf,
        /// The input record's line.
        line: u64,
    },
    /// Two different input paths with the same name in rows and messages
    /// (see [`input_names`]): their rows could not be told apart.
    #[error(
        "inputs {first:?} and {second:?} would both be named `{name}` in rows and messages \
         (bytes that are not UTF-8 are shown as U+FFFD), so their rows could not be told \
         apart; rename one"
    )]
    SameName {
        /// The first of the two paths, as given.
        first: PathBuf,
        /// The second, as given.
        second: PathBuf,
        /// The name both go by.
        name: String,
    },
    /// A JSON Lines input whose objects have more than [`MAX_KEYS`]
    /// distinct keys, scanned for `--keep`.
    #[error(
        "{path}: line {line}: over {MAX_KEYS} distinct keys: they cannot all be kept \
         (name the keys to keep with --keep)"
    )]
    TooManyKeys {
        /// The input's name.
        path: PathBuf,
        /// The line where one key too many was found.
        line: u64,
    },
    /// The `--solutions` file has records left after the input ended.
    #[error("{solutions}: line {line}: more solutions than records in {path}")]
    SolutionsLong {
        /// The solutions file.
        solutions: PathBuf,
        /// The input's name.
        path: PathBuf,
        /// The first solution record left over.
        line: u64,
    },
}

/// Where an unknown column's name was looked for: the header's names, or
/// no header at all (text lines name their fields by number only).
fn where_columns_are(header: Option<&str>) -> String {
    match header {
        Some(names) => format!(" (the header is {names})"),
        None => ": no header line before the first puzzle names it (give the field's \
                 1-based number instead, as --column 2 for the second field)"
            .into(),
    }
}

impl InputError {
    /// An I/O error on the input `name`.
    pub(crate) fn io(name: &str, source: std::io::Error) -> InputError {
        InputError::Io {
            path: name.into(),
            source,
        }
    }
}
