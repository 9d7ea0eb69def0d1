//! The results: one row per record, in input order, as CSV, JSON Lines or
//! Parquet (chosen by the output's name, see [`mod@format`]), written to stdout
//! or a file, compressed by gzip (`.gz`) or zstd (`.zst`) for the text
//! formats.
//!
//! Columns, exactly: `line,puzzle,status,solution,guesses,solve_us,check,message`,
//! with a `file` column first when the run has several inputs and the kept
//! input columns ([`crate::kept`]) after them: the same in every format.
//!
//! The text formats are formatted straight into byte buffers by the solver
//! workers ([`RowFormat`]: [`CsvRows`], [`JsonlRows`]), gzip-compressed
//! there a chunk at a time for a `.gz` output (a gzip member each), and the
//! writer only writes the bytes; Parquet's typed columns are built there
//! too, a chunk's at a time ([`RowFormat::columns`]), and the writer hands
//! them to its encoders ([`parquet`]). Text rows for the null device are
//! not formatted at all (`output/discard.rs`).
//!
//! The rest of what a run writes sits here too: the data of one row
//! ([`result`]), the run's tallies and summary ([`stats`]), the progress
//! bar ([`progress`]), the HTML charts ([`plot`]), and a results CSV read
//! back for `--resume` and `merge` ([`read_back`]).

mod discard;
pub mod format;
pub mod jsonl;
mod members;
pub mod parquet;
pub mod plot;
pub mod progress;
pub mod rating;
pub mod read_back;
pub(crate) mod replace;
pub mod result;
mod resumed;
// Only the subcommands that write a whole file under a temporary name
// (merge, canon, augment) use it.
#[cfg(feature = "cli")]
pub(crate) mod staged;
pub mod stats;
pub mod unfit_texts;

use std::fs::{File, OpenOptions};
use std::io::{self, IoSlice, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use flate2::write::GzEncoder;
use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::solver::Status;

use self::discard::{is_null_device, Discarded};
pub use self::format::{Compression, OutputFormat, ParquetCompression};
pub use self::jsonl::JsonlRows;
use self::members::GzipMembers;
pub use self::parquet::Columns;
use self::parquet::ParquetRows;
use self::parquet::Salvaged;
use crate::error::Error;
use crate::kept::{KeptColumn, KeptValue};
use crate::output::rating::{RatingColumns, APPENDED_COLUMNS, RATE_COLUMNS};
use crate::output::result::{Check, PuzzleResult, RowFields, SizedResult};
use crate::output::stats::Tally;
use crate::process::words;
use sudoku_core::sizes::symbols::BLANKS;
use sudoku_core::sizes::Symbols;

/// The name that means stdin or stdout.
pub const STDIO: &str = "-";

/// Where an output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output.
    Stdout,
    /// A file, created, or replaced when it exists (`output/replace.rs`).
    File {
        /// The file's path.
        path: PathBuf,
        /// How the file is compressed: gzip when the name ends in `.gz`,
        /// zstd in `.zst`.
        compression: Compression,
    },
}

impl Destination {
    /// The destination named by a flag: absent or `-` is stdout.
    pub fn from_arg(arg: Option<&Path>) -> Destination {
        match arg {
            None => Destination::Stdout,
            Some(path) if path.as_os_str() == STDIO => Destination::Stdout,
            Some(path) => Destination::File {
                path: path.to_path_buf(),
                compression: Compression::of_name(path),
            },
        }
    }

    /// The name used in messages: the path, or `-` for stdout.
    pub fn name(&self) -> &Path {
        match self {
            Destination::Stdout => Path::new(STDIO),
            Destination::File { path, .. } => path,
        }
    }
}

/// The results columns, in order.
pub const COLUMNS: [&str; 8] = [
    "line", "puzzle", "status", "solution", "guesses", "solve_us", "check", "message",
];

/// The column put first when a run has several inputs: the input's name.
pub const FILE_COLUMN: &str = "file";

/// A file name as the CSV `file` column holds it: a name that starts like
/// a spreadsheet formula (`=`, `+`, `-`, `@`), or with the `'` this adds,
/// gets a `'` in front, so a spreadsheet shows it as text and
/// [`file_name`] gives the name back exactly. JSON Lines and Parquet hold
/// names as they are.
pub fn file_field(name: &str) -> std::borrow::Cow<'_, str> {
    if name.starts_with(['=', '+', '-', '@', '\'']) {
        format!("'{name}").into()
    } else {
        name.into()
    }
}

/// The file name a CSV `file` field holds (see [`file_field`]).
pub fn file_name(field: &str) -> &str {
    field.strip_prefix('\'').unwrap_or(field)
}

/// Makes a message safe to put in a CSV cell that a spreadsheet may open:
/// every character outside printable ASCII is escaped (`\n`, `\r`, `\t`,
/// `\x1B`, `\u{e9}`), and a message starting with `=`, `+`, `-` or `@` (a
/// formula) gets a `'` in front. Never cut: the tool's own words are the
/// useful part of a message (a rating's hardest technique comes last); the
/// input a message quotes is short by construction (a character, a field's
/// length, a cell), never a whole field.
pub fn clean_message(message: &str) -> String {
    let mut escaped = String::with_capacity(message.len() + 8);
    for ch in message.chars() {
        match ch {
            ' '..='~' => escaped.push(ch),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            '\0'..='\x7f' => escaped.push_str(&format!("\\x{:02X}", ch as u32)),
            _ => escaped.push_str(&format!("\\u{{{:x}}}", ch as u32)),
        }
    }
    if escaped.starts_with(['=', '+', '-', '@']) {
        escaped.insert(0, '\'');
    }
    escaped
}

/// The character written for a blank cell in the `puzzle` column
/// (`--blank`); the `solution` column has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Blank {
    /// `.`, as most puzzle collections write blanks.
    #[default]
    #[cfg_attr(feature = "cli", value(name = "."))]
    Dot,
    /// `0`, as the Kaggle and Hugging Face data sets do.
    #[cfg_attr(feature = "cli", value(name = "0"))]
    Zero,
}

impl Blank {
    /// The blank character for a grid of another size in `symbols`: this
    /// one, unless it is one of the symbols (`0` in `0-9A-Z`, or in a
    /// `--symbols` string; `.` in a string), then the first of `.`, `-`,
    /// `_`, `+` that is not, so that a blank never reads back as a value.
    pub fn byte(self, symbols: &Symbols) -> u8 {
        let wanted = self.nine();
        std::iter::once(wanted)
            .chain(BLANKS.iter().copied())
            .find(|&b| !is_symbol(symbols, b))
            .unwrap_or(wanted)
    }

    /// The blank character of 9x9 grids.
    pub fn nine(self) -> u8 {
        match self {
            Blank::Dot => b'.',
            Blank::Zero => b'0',
        }
    }

    /// The puzzle's 81 characters with this blank.
    pub fn puzzle_bytes(self, puzzle: &Grid) -> [u8; 81] {
        let mut line = [0; CELLS];
        write_grid(puzzle, self.nine(), &mut line);
        line
    }
}

/// True when `byte` is one of `symbols`' characters (either case for a
/// `--symbols` string read in either case).
fn is_symbol(symbols: &Symbols, byte: u8) -> bool {
    match symbols {
        Symbols::ZeroDigitsLetters { .. } | Symbols::ZeroNumbers => byte == b'0',
        Symbols::Chars(chars) => chars.iter().any(|c| c.eq_ignore_ascii_case(&byte)),
        Symbols::DigitsLetters { .. } | Symbols::Letters { .. } | Symbols::Numbers => false,
    }
}

/// What a results table holds besides [`COLUMNS`], and how it writes its
/// puzzles: the same for every format.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Each input's name, in command-line order, when the run has several
    /// inputs: then a [`FILE_COLUMN`] comes first.
    pub files: Option<Vec<String>>,
    /// The kept input columns, after the results columns, in order (their
    /// input names: see [`Shape::kept_names`]).
    pub kept: Vec<KeptColumn>,
    /// The blank of the `puzzle` column.
    pub blank: Blank,
    /// The rating columns (`solve --rate`, `rate`).
    pub rating: RatingColumns,
}

impl Shape {
    /// The results columns without `file` and the kept ones: [`COLUMNS`],
    /// with `rating,hardest` after them for `solve --rate`, or
    /// [`RATE_COLUMNS`] for `rate`.
    pub fn result_columns(&self) -> Vec<&'static str> {
        match self.rating {
            RatingColumns::None => COLUMNS.to_vec(),
            RatingColumns::Appended => COLUMNS.iter().chain(&APPENDED_COLUMNS).copied().collect(),
            RatingColumns::Only => RATE_COLUMNS.to_vec(),
        }
    }

    /// The names of every column, in order: `file` (several inputs), then
    /// [`Shape::result_columns`], then [`Shape::kept_names`].
    pub fn column_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        if self.files.is_some() {
            names.push(FILE_COLUMN.into());
        }
        names.extend(self.result_columns().iter().map(|c| c.to_string()));
        names.extend(self.kept_names());
        names
    }

    /// The output names of the kept columns: each input name, with
    /// `input_` in front (again, until it is unique) when it is a results
    /// column's name (`file` too with several inputs) or an earlier kept
    /// column's.
    pub fn kept_names(&self) -> Vec<String> {
        let mut taken = self.result_columns();
        if self.files.is_some() {
            taken.push(FILE_COLUMN);
        }
        kept_names(&taken, &self.kept)
    }
}

/// The output names of `kept` columns written after a table's `columns`:
/// each input name, with `input_` in front (again, until it is unique) when
/// it is one of `columns` or an earlier kept column's. The rule of every
/// table that keeps input columns: `solve`'s results, `canon`, `augment`.
pub fn kept_names(columns: &[&str], kept: &[KeptColumn]) -> Vec<String> {
    let mut taken: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
    let mut names = Vec::with_capacity(kept.len());
    for column in kept {
        let mut name = column.name.clone();
        while taken.contains(&name) {
            name.insert_str(0, "input_");
        }
        taken.push(name.clone());
        names.push(name);
    }
    names
}

/// Formats one results row into a byte buffer: what the solver workers
/// use to format their rows before the writer takes them. A writer with
/// one line of text per row implements it; see [`CsvRows`] and
/// [`JsonlRows`].
pub trait RowFormat: Send + Sync {
    /// Appends the row of `result`, with its line end.
    fn row(&self, result: &PuzzleResult, out: &mut Vec<u8>);

    /// The writer of the rows of records that are all [`RowFields`] (no
    /// message, kept values or ratings), as [`RowFormat::row`] writes them
    /// for results with those fields; `None` when this format's rows hold
    /// more (rating columns, Parquet's columns), so that the caller makes a
    /// [`PuzzleResult`] and calls [`RowFormat::row`]. It spares the solver
    /// workers making a result for each plain puzzle.
    fn plain_rows(&self) -> Option<PlainRows<'_>> {
        None
    }

    /// Turns a chunk's rows (`text`: whole rows, in order, from
    /// [`RowFormat::row`]) into the bytes written for them, on the worker
    /// that made them: a gzip member for a `.gz` output. By default the
    /// rows are written as they are.
    fn seal(&self, _text: &mut Vec<u8>) {}

    /// Whether [`RowFormat::seal`] changes the rows: then a chunk's rows
    /// are put together in one buffer to be sealed; else they are written
    /// in the pieces the workers made.
    fn seals(&self) -> bool {
        false
    }

    /// Whether the rows are columns built from a chunk's results
    /// ([`RowFormat::columns`], Parquet) instead of text: then the workers
    /// keep each run's results for it.
    fn builds_columns(&self) -> bool {
        false
    }

    /// The rows of a chunk's results (`runs`: its runs' results, in order)
    /// as columns, on the worker that finished the chunk; `None` for text.
    /// When `spend`, nobody needs the results after: they may be dropped
    /// as they are read (some or all runs left empty).
    fn columns(&self, _runs: &mut [&mut Vec<PuzzleResult>], _spend: bool) -> Option<Columns> {
        None
    }
}

/// A text format's writer of plain rows ([`RowFormat::plain_rows`]): a
/// value the solver workers match on, not a trait object, so that the row
/// is written by code inlined into theirs, at their width (AVX2 where the
/// CPU has it). A call through the trait, which then chose the width
/// again, was 10 % of the samples of the workers' own work on a run to
/// JSON Lines (the call and its `vzeroupper`).
#[derive(Clone, Copy, Debug)]
pub enum PlainRows<'a> {
    /// CSV rows.
    Csv(&'a CsvRows),
    /// JSON Lines rows.
    Jsonl(&'a JsonlRows),
    /// No rows: the output is the null device.
    Discarded,
}

impl PlainRows<'_> {
    /// Appends the row of a record that is all `fields`, with its line
    /// end.
    #[inline(always)]
    pub fn row(self, fields: &RowFields<'_>, out: &mut Vec<u8>) {
        match self {
            PlainRows::Csv(rows) => rows.plain_row(fields, out),
            PlainRows::Jsonl(rows) => rows.plain_row(fields, out),
            PlainRows::Discarded => {}
        }
    }
}

/// Formats results rows as CSV text (RFC 4180: a field is quoted only when
/// it holds the delimiter, a quote or a line end), straight into a byte
/// buffer: no allocation per row but for a row's message and kept text.
/// Shared by the workers, which format their rows before the writer takes
/// them.
#[derive(Clone, Debug)]
pub struct CsvRows {
    /// Each input's `file` field, ready to write (escaped and quoted), when
    /// the run has several inputs.
    files: Option<Vec<Vec<u8>>>,
    /// The header line.
    header: Vec<u8>,
    /// The field delimiter.
    delimiter: u8,
    blank: Blank,
    rating: RatingColumns,
}

impl Default for CsvRows {
    fn default() -> CsvRows {
        CsvRows::new(&Shape::default(), b',')
    }
}

impl CsvRows {
    /// Rows of `shape`, fields separated by `delimiter` (a comma unless
    /// `--output-delimiter` says otherwise; see [`check_delimiter`]).
    pub fn new(shape: &Shape, delimiter: u8) -> CsvRows {
        let files = shape.files.as_ref().map(|names| {
            names
                .iter()
                .map(|name| {
                    let mut field = Vec::with_capacity(name.len() + 3);
                    push_field(&mut field, file_field(name).as_bytes(), delimiter);
                    field
                })
                .collect()
        });
        let mut header = Vec::new();
        for (i, name) in shape.column_names().iter().enumerate() {
            if i > 0 {
                header.push(delimiter);
            }
            push_field(&mut header, name.as_bytes(), delimiter);
        }
        header.push(b'\n');
        CsvRows {
            files,
            header,
            delimiter,
            blank: shape.blank,
            rating: shape.rating,
        }
    }

    /// Appends the header line.
    pub fn header(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.header);
    }

    /// Appends one row: [`COLUMNS`], after [`FILE_COLUMN`] when the run has
    /// several inputs, then the kept columns.
    pub fn csv_row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        let delimiter = self.delimiter;
        self.push_file(result.input, out);
        if self.rating == RatingColumns::Only {
            self.rate_row(result, out);
            return;
        }
        if let Some(sized) = &result.sized {
            self.csv_row_sized(result, sized, out);
            return;
        }
        let mut row: Row = Row::new();
        self.push_fields(&RowFields::of(result), &mut row);
        let appended = self.rating == RatingColumns::Appended;
        if result.message.is_none() && result.kept.is_empty() && !appended {
            row.byte(b'\n');
            out.extend_from_slice(row.bytes());
            return;
        }
        out.extend_from_slice(row.bytes());
        if let Some(message) = &result.message {
            push_field(out, clean_message(message).as_bytes(), delimiter);
        }
        if appended {
            out.push(delimiter);
            if let Some(r) = &result.rating {
                out.extend_from_slice(r.to_decimal().as_bytes());
            }
            out.push(delimiter);
            if let Some(r) = &result.rating {
                push_field(out, r.hardest.as_bytes(), delimiter);
            }
        }
        for value in &result.kept {
            out.push(delimiter);
            push_kept(out, value, delimiter);
        }
        out.push(b'\n');
    }

    /// Appends input `input`'s `file` field and its delimiter, when the run
    /// has several inputs.
    fn push_file(&self, input: usize, out: &mut Vec<u8>) {
        if let Some(files) = &self.files {
            if let Some(file) = files.get(input) {
                out.extend_from_slice(file);
            }
            out.push(self.delimiter);
        }
    }

    /// Appends the fields from `line` to `check`, each followed by the
    /// delimiter.
    #[inline(always)]
    fn push_fields<B: AsMut<[u8]>>(&self, fields: &RowFields<'_>, row: &mut Row<B>) {
        let delimiter = self.delimiter;
        row.number(fields.line);
        row.byte(delimiter);
        if let Some(puzzle) = fields.puzzle {
            row.grid(puzzle, self.blank.nine());
        }
        row.byte(delimiter);
        row.status(fields.status);
        row.byte(delimiter);
        if let Some(solution) = fields.solution {
            row.grid(solution, b'.');
        }
        row.byte(delimiter);
        if let Some(guesses) = fields.guesses {
            row.number(guesses);
        }
        row.byte(delimiter);
        if let Some(ns) = fields.solve_ns {
            row.micros(ns);
        }
        row.byte(delimiter);
        if let Some(check) = fields.check {
            row.check(check);
        }
        row.byte(delimiter);
    }

    /// Appends one row of `rate`: [`RATE_COLUMNS`], after [`FILE_COLUMN`]
    /// when the run has several inputs, then the kept columns.
    fn rate_row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        let delimiter = self.delimiter;
        let mut row: Row = Row::new();
        row.number(result.line);
        row.byte(delimiter);
        if let Some(puzzle) = &result.puzzle {
            row.grid(puzzle, self.blank.nine());
        }
        out.extend_from_slice(row.bytes());
        if let Some(sized) = &result.sized {
            self.push_sized_puzzle(sized, out);
        }
        out.push(delimiter);
        if let Some(r) = &result.rating {
            out.extend_from_slice(r.to_decimal().as_bytes());
            out.push(delimiter);
            push_field(out, r.hardest.as_bytes(), delimiter);
            out.push(delimiter);
            push_number(out, u64::from(r.steps));
        } else {
            out.push(delimiter);
            out.push(delimiter);
        }
        out.push(delimiter);
        out.extend_from_slice(result.status.name().as_bytes());
        out.push(delimiter);
        if let Some(message) = &result.message {
            push_field(out, clean_message(message).as_bytes(), delimiter);
        }
        for value in &result.kept {
            out.push(delimiter);
            push_kept(out, value, delimiter);
        }
        out.push(b'\n');
    }

    /// A grid of another size's puzzle field, in its alphabet with the
    /// blank for it, quoted when it holds the delimiter.
    fn push_sized_puzzle(&self, sized: &SizedResult, out: &mut Vec<u8>) {
        let text = sized.puzzle_text(self.blank.byte(&sized.symbols));
        push_field(out, text.as_bytes(), self.delimiter);
    }

    /// [`CsvRows::csv_row`] past the `file` field for a grid of another
    /// size: its puzzle and solution in its alphabet, quoted when they
    /// hold the delimiter (comma-separated numbers).
    fn csv_row_sized(&self, result: &PuzzleResult, sized: &SizedResult, out: &mut Vec<u8>) {
        let delimiter = self.delimiter;
        push_number(out, result.line);
        out.push(delimiter);
        self.push_sized_puzzle(sized, out);
        out.push(delimiter);
        out.extend_from_slice(result.status.name().as_bytes());
        out.push(delimiter);
        if let Some(solution) = sized.solution_text() {
            push_field(out, solution.as_bytes(), delimiter);
        }
        out.push(delimiter);
        if let Some(guesses) = result.guesses {
            push_number(out, guesses);
        }
        out.push(delimiter);
        if let Some(ns) = result.solve_ns {
            push_micros(out, ns);
        }
        out.push(delimiter);
        if let Some(check) = result.check {
            out.extend_from_slice(check.name().as_bytes());
        }
        out.push(delimiter);
        if let Some(message) = &result.message {
            push_field(out, clean_message(message).as_bytes(), delimiter);
        }
        if self.rating == RatingColumns::Appended {
            // Not rated: the rater is for 9x9 grids (the message says so).
            out.push(delimiter);
            out.push(delimiter);
        }
        for value in &result.kept {
            out.push(delimiter);
            push_kept(out, value, delimiter);
        }
        out.push(b'\n');
    }

    /// A plain row ([`RowFormat::plain_rows`]): its `file` field, then its
    /// fields and line end written where they end up in `out`.
    #[inline(always)]
    pub(crate) fn plain_row(&self, fields: &RowFields<'_>, out: &mut Vec<u8>) {
        self.push_file(fields.input, out);
        self.plain_in_place(fields, out);
    }

    /// A plain row's fields and line end, written where they end up in
    /// `out`.
    #[inline(always)]
    fn plain_in_place(&self, fields: &RowFields<'_>, out: &mut Vec<u8>) {
        in_place::<ROW_BYTES>(
            out,
            #[inline(always)]
            |row| {
                self.push_fields(fields, row);
                row.byte(b'\n');
            },
        );
    }

    /// Appends every row of `results`, in order.
    pub fn rows(&self, results: &[PuzzleResult], out: &mut Vec<u8>) {
        for result in results {
            self.csv_row(result, out);
        }
    }
}

impl RowFormat for CsvRows {
    fn row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        self.csv_row(result, out);
    }

    fn plain_rows(&self) -> Option<PlainRows<'_>> {
        (self.rating == RatingColumns::None).then_some(PlainRows::Csv(self))
    }
}

/// Checks an `--output-delimiter`: one ASCII character that no unquoted
/// field of the results can hold (not a letter, a digit, `.`, `"`, or a
/// line end).
///
/// # Errors
/// Why the character cannot separate the fields.
pub fn check_delimiter(delimiter: char) -> Result<u8, String> {
    let byte = u8::try_from(delimiter)
        .ok()
        .filter(u8::is_ascii)
        .ok_or_else(|| format!("{delimiter:?} is not an ASCII character"))?;
    if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'"' | b'\n' | b'\r') {
        return Err(format!(
            "{delimiter:?} appears in the results fields themselves (letters, digits, `.`, quotes \
             and line ends cannot separate them)"
        ));
    }
    Ok(byte)
}

/// Appends a kept value as a CSV field: its bytes ([`KeptValue::bytes`]:
/// empty for null, text that is not UTF-8 as the input held it), quoted as
/// needed, and otherwise as it is. No formula
/// guard: a `'` in front of `@a1` would make it `'@a1`, another value and
/// another join key (see [`crate::kept`]).
fn push_kept(out: &mut Vec<u8>, value: &KeptValue, delimiter: u8) {
    push_field(out, &value.bytes(), delimiter);
}

/// Appends `field`, quoted (quotes doubled) when it holds the delimiter, a
/// quote or a line end.
fn push_field(out: &mut Vec<u8>, field: &[u8], delimiter: u8) {
    if !field
        .iter()
        .any(|&b| b == delimiter || matches!(b, b'"' | b'\n' | b'\r'))
    {
        out.extend_from_slice(field);
        return;
    }
    out.push(b'"');
    for &b in field {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

/// Appends `n` in decimal.
pub(crate) fn push_number(out: &mut Vec<u8>, n: u64) {
    let mut row = Row::<[u8; 24]>::new();
    row.number(n);
    out.extend_from_slice(row.bytes());
}

/// Appends a duration in nanoseconds as microseconds with one decimal,
/// rounded (`12.3`).
pub(crate) fn push_micros(out: &mut Vec<u8>, ns: u64) {
    let mut row = Row::<[u8; 24]>::new();
    row.micros(ns);
    out.extend_from_slice(row.bytes());
}

/// The longest results row without its `file` field and message: a line
/// number and guesses of 20 digits, two grids, the longest status and
/// check, solve_us of 22 characters, 7 delimiters and the line end.
const ROW_BYTES: usize = 20 + 81 + 10 + 81 + 20 + 22 + 8 + 8;

/// One results row built in a fixed buffer of `N` bytes (`B` is `[u8; N]`
/// on the stack, or `&mut [u8; N]` at the end of the output itself: see
/// [`in_place`]), so that every field is a copy of known length (no
/// capacity check or library call per field). A row too long for the
/// buffer is [`Row::flush`]ed into the output before its long parts
/// (another size's grids, messages).
pub(crate) struct Row<B = [u8; ROW_BYTES]> {
    buf: B,
    len: usize,
}

impl<const N: usize> Row<[u8; N]> {
    pub(crate) fn new() -> Row<[u8; N]> {
        Row {
            buf: [0; N],
            len: 0,
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Appends the row so far to `out` and empties it.
    pub(crate) fn flush(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.bytes());
        self.len = 0;
    }
}

/// Writes one row of at most `N` bytes with `write` straight into the end
/// of `out`: room for `N` bytes is added, written, and cut back to what
/// was written. No row on the stack is zeroed and copied over.
#[inline(always)]
pub(crate) fn in_place<const N: usize>(
    out: &mut Vec<u8>,
    write: impl FnOnce(&mut Row<&mut [u8; N]>),
) {
    let start = out.len();
    out.resize(start + N, 0);
    let mut len = 0;
    if let Some(buf) = out
        .get_mut(start..)
        .and_then(|room| <&mut [u8; N]>::try_from(room).ok())
    {
        let mut row = Row { buf, len: 0 };
        write(&mut row);
        len = row.len;
    }
    out.truncate(start + len);
}

impl<B: AsMut<[u8]>> Row<B> {
    #[inline(always)]
    pub(crate) fn byte(&mut self, b: u8) {
        self.buf.as_mut()[self.len] = b;
        self.len += 1;
    }

    /// Bytes of known small length: a status or check name, a JSON key.
    #[inline(always)]
    pub(crate) fn text(&mut self, text: &[u8]) {
        self.buf.as_mut()[self.len..self.len + text.len()].copy_from_slice(text);
        self.len += text.len();
    }

    /// A status's name ([`Status::name`]): each arm a copy of known length,
    /// where the name's length read at run time would make it a library
    /// call.
    #[inline(always)]
    pub(crate) fn status(&mut self, status: Status) {
        match status {
            Status::Solved => self.text(b"solved"),
            Status::Multiple => self.text(b"multiple"),
            Status::Unsolvable => self.text(b"unsolvable"),
            Status::Invalid => self.text(b"invalid"),
            Status::Malformed => self.text(b"malformed"),
            Status::Timeout => self.text(b"timeout"),
        }
    }

    /// A check's name ([`Check::name`]), as [`Row::status`].
    #[inline(always)]
    pub(crate) fn check(&mut self, check: Check) {
        match check {
            Check::Ok => self.text(b"ok"),
            Check::Mismatch => self.text(b"mismatch"),
        }
    }

    /// A grid's 81 characters, `blank` for its blanks, written in place
    /// (no 81-byte line made and copied).
    #[inline(always)]
    pub(crate) fn grid(&mut self, grid: &Grid, blank: u8) {
        let end = self.len + CELLS;
        if let Some(line) = self.buf.as_mut().get_mut(self.len..end) {
            if let Ok(line) = <&mut [u8; CELLS]>::try_from(line) {
                write_grid(grid, blank, line);
            }
        }
        self.len = end;
    }

    /// A grid's 81 characters in quotes (a JSON string).
    #[inline(always)]
    pub(crate) fn quoted_grid(&mut self, grid: &Grid, blank: u8) {
        self.byte(b'"');
        self.grid(grid, blank);
        self.byte(b'"');
    }

    /// `n` in decimal, its digits written in place, two at a time (no copy
    /// through a formatting buffer of unknown length).
    #[inline(always)]
    pub(crate) fn number(&mut self, mut n: u64) {
        // Most guesses, and most solve times' whole microseconds, are one
        // digit.
        if n < 10 {
            self.byte(b'0' + n as u8);
            return;
        }
        let buf = self.buf.as_mut();
        let digits = n.checked_ilog10().map_or(1, |d| d as usize + 1);
        let mut end = self.len + digits;
        self.len = end;
        while n >= 100 {
            let pair = 2 * (n % 100) as usize;
            n /= 100;
            end -= 2;
            buf[end..end + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        }
        if n >= 10 {
            let pair = 2 * n as usize;
            buf[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        } else {
            buf[end - 1] = b'0' + n as u8;
        }
    }

    /// A duration in nanoseconds as microseconds with one decimal, rounded
    /// (`12.3`).
    #[inline(always)]
    pub(crate) fn micros(&mut self, ns: u64) {
        let tenths = ns.saturating_add(50) / 100;
        self.number(tenths / 10);
        self.byte(b'.');
        self.byte(b'0' + (tenths % 10) as u8);
    }
}

/// "00" to "99", for writing numbers two digits at a time.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Writes `grid`'s 81 characters into `line`, `blank` for its blanks, in
/// pieces of 32, 32, 16 and 1 cells ([`write_piece`]), so that the compiler
/// steps 32 cells at a time where it may use AVX2: one loop over the 81
/// was cut into 16-byte steps behind a check that the grid and the row do
/// not overlap.
#[inline(always)]
fn write_grid(grid: &Grid, blank: u8, line: &mut [u8; CELLS]) {
    let cells: &[u8] = grid.cells();
    let line: &mut [u8] = line;
    let (cells, line) = write_piece::<32>(cells, line, blank);
    let (cells, line) = write_piece::<32>(cells, line, blank);
    let (cells, line) = write_piece::<16>(cells, line, blank);
    write_piece::<1>(cells, line, blank);
}

/// Writes the first `N` cells of `cells` as characters into the first `N`
/// bytes of `line` (read as one value and written whole, branch-free), and
/// returns the rest of both; writes nothing when either is shorter.
#[inline(always)]
fn write_piece<'c, 'l, const N: usize>(
    cells: &'c [u8],
    line: &'l mut [u8],
    blank: u8,
) -> (&'c [u8], &'l mut [u8]) {
    match (
        cells.split_first_chunk::<N>(),
        line.split_first_chunk_mut::<N>(),
    ) {
        (Some((piece, cells)), Some((out, line))) => {
            let mut chars = *piece;
            for c in &mut chars {
                *c = if *c == 0 { blank } else { b'0' + *c };
            }
            *out = chars;
            (cells, line)
        }
        _ => (&[], &mut []),
    }
}

/// Where a table's bytes go: stdout, a plain file, or a gzip- or
/// zstd-compressed file. Shared by every writer of rows (results, data-set
/// tables, merge).
pub(crate) enum Sink {
    /// Standard output.
    Stdout(io::Stdout),
    /// A plain file.
    File(File),
    /// A file written gzip-compressed; [`Sink::finish`] ends the stream.
    Gzip(Box<GzEncoder<File>>),
    /// A file written zstd-compressed; [`Sink::finish`] ends the frame.
    Zstd(zstd::stream::write::Encoder<'static, File>),
}

impl Sink {
    /// Opens `destination`: stdout, or the file created (or replaced),
    /// compressed as its name says.
    ///
    /// # Errors
    /// The file cannot be created.
    pub(crate) fn create(destination: &Destination) -> io::Result<Sink> {
        match destination {
            Destination::Stdout => Ok(Sink::Stdout(io::stdout())),
            Destination::File { path, compression } => {
                Sink::to_file(replace::create(path)?, *compression)
            }
        }
    }

    /// Writes to `file`, compressed by `compression`.
    ///
    /// # Errors
    /// The zstd encoder cannot start.
    pub(crate) fn to_file(file: File, compression: Compression) -> io::Result<Sink> {
        Ok(match compression {
            Compression::None => Sink::File(file),
            Compression::Gzip => Sink::Gzip(Box::new(GzEncoder::new(
                file,
                flate2::Compression::new(members::LEVEL),
            ))),
            // Level 1: on results rows (digit strings) three times as fast
            // as the default level 3 and no larger, so the writer keeps up
            // with the solvers.
            Compression::Zstd => Sink::Zstd(zstd::stream::write::Encoder::new(file, 1)?),
        })
    }

    /// Flushes everything and ends the compressed stream.
    ///
    /// # Errors
    /// The bytes cannot be written.
    pub(crate) fn finish(self) -> io::Result<()> {
        match self {
            Sink::Stdout(mut w) => w.flush(),
            Sink::File(mut w) => w.flush(),
            Sink::Gzip(w) => (*w).finish().and_then(|mut f| f.flush()),
            Sink::Zstd(w) => w.finish().and_then(|mut f| f.flush()),
        }
    }

    /// The regular file the bytes go to; `None` for stdout and devices,
    /// which hold nothing a failure could leave cut short.
    pub(crate) fn regular_file(&self) -> Option<&File> {
        let file = match self {
            Sink::File(file) => file,
            Sink::Gzip(encoder) => encoder.get_ref(),
            Sink::Zstd(encoder) => encoder.get_ref(),
            Sink::Stdout(_) => return None,
        };
        file.metadata()
            .is_ok_and(|meta| meta.is_file())
            .then_some(file)
    }

    /// True when the bytes are compressed on their way.
    #[cfg(feature = "cli")]
    pub(crate) fn compressed(&self) -> bool {
        matches!(self, Sink::Gzip(_) | Sink::Zstd(_))
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::File(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
            Sink::Zstd(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::File(w) => w.flush(),
            Sink::Gzip(w) => w.flush(),
            Sink::Zstd(w) => w.flush(),
        }
    }
}

/// The [`io::Error`] behind a failed CSV write, so that a closed stdout
/// stays [`io::ErrorKind::BrokenPipe`] (which ends a run quietly, exit 0:
/// [`Error::BrokenPipe`]) instead of an error that wraps it.
#[cfg(feature = "cli")]
pub(crate) fn csv_write_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(io) => io,
        // Rows are written as plain strings and bytes: only the writing
        // itself can fail.
        kind => io::Error::other(format!("{kind:?}")),
    }
}

/// Writes every byte of `pieces`, in order, in as few system calls as
/// the file takes (`writev`).
///
/// # Errors
/// The cause, and how many bytes of `pieces` were written before it.
fn write_all_vectored(file: &mut File, pieces: &[&[u8]]) -> Result<(), (io::Error, usize)> {
    let mut slices: Vec<IoSlice<'_>> = pieces
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| IoSlice::new(p))
        .collect();
    let mut slices = &mut slices[..];
    let mut written = 0;
    while !slices.is_empty() {
        match file.write_vectored(slices) {
            Ok(0) => return Err((io::ErrorKind::WriteZero.into(), written)),
            Ok(n) => {
                written += n;
                IoSlice::advance_slices(&mut slices, n);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err((e, written)),
        }
    }
    Ok(())
}

/// The whole rows in the first `reached` bytes of `pieces` (rows in
/// order, each ending in a line end; in `csv`, a line end in quotes is
/// inside a field), and whether a row cut short follows them.
fn whole_rows(pieces: &[&[u8]], reached: usize, csv: bool) -> (u64, bool) {
    let (mut rows, mut quoted, mut last) = (0, false, b'\n');
    for &b in pieces.iter().flat_map(|p| p.iter()).take(reached) {
        match b {
            b'"' if csv => quoted = !quoted,
            b'\n' if !quoted => rows += 1,
            _ => {}
        }
        last = b;
    }
    (rows, last != b'\n' || quoted)
}

/// What a [`ResultsWriter`] writes through.
enum Body {
    /// A text format: rows formatted and sealed by `rows` (on the workers
    /// or here) and written as bytes.
    Text {
        sink: Sink,
        rows: Arc<dyn RowFormat>,
        /// A buffer for rows formatted here.
        text: Vec<u8>,
        /// Nothing written yet: an empty table still gets `rows`' seal of
        /// nothing (an empty gzip member), so that it is a valid file.
        empty: bool,
    },
    /// Parquet: typed columns built by its [`RowFormat::columns`] (on the
    /// workers) or here, written in row groups (boxed: the writer is
    /// large).
    Parquet(Box<ParquetRows>),
}

/// Writes results rows to a [`Destination`] in an [`OutputFormat`].
pub struct ResultsWriter {
    body: Body,
    destination: Destination,
    /// Stdout was closed before the header could be written: every write
    /// is [`Error::BrokenPipe`], so the caller decides at its first row
    /// whether to stop or go on without writing (`check`).
    closed: bool,
    /// `--resume`: the length the file is cut to (dropping a row cut
    /// short) before the first row is appended, so that a run refused
    /// before it appends anything leaves the file as it was.
    cut_at: Option<u64>,
    /// A failed write to a plain text file: the rows of it that reached
    /// the file whole, and whether a row cut short follows them.
    cut_rows: Option<(u64, bool)>,
    /// The rows are CSV (a line end in quotes is inside a field).
    csv: bool,
    /// `--resume` of Parquet: the file written under a temporary name,
    /// renamed over the file it continues when the writer ends.
    staged: Option<Staged>,
}

/// A Parquet results file continued under a temporary name
/// ([`ResultsWriter::continue_parquet`]).
struct Staged {
    temporary: PathBuf,
    /// The file it continues, and replaces when it ends.
    target: PathBuf,
    /// The rows of that file: a temporary file that holds fewer (a write
    /// that failed while they were copied) never replaces it.
    kept_rows: u64,
}

impl Staged {
    /// Puts the temporary file in the place of the one it continues.
    fn rename(&self) -> io::Result<()> {
        std::fs::rename(&self.temporary, &self.target)
    }

    /// Removes the temporary file, leaving the one it continues as it was;
    /// says so, for a message.
    fn remove(&self) -> String {
        let _ = std::fs::remove_file(&self.temporary);
        format!(
            "{} is left as it was, with its {}",
            self.target.display(),
            words::count(self.kept_rows, "row", "rows")
        )
    }
}

impl ResultsWriter {
    /// Creates (or replaces) the destination and starts the table: the
    /// header line of CSV, the magic bytes of Parquet. The rows have the
    /// columns of `shape`; CSV fields are separated by `delimiter`, Parquet
    /// pages compressed as `parquet` says.
    ///
    /// # Errors
    /// [`Error::Write`] when the file cannot be created or written,
    /// [`Error::BrokenPipe`] when stdout is closed.
    pub fn create(
        destination: &Destination,
        format: OutputFormat,
        shape: &Shape,
        delimiter: u8,
        parquet: ParquetCompression,
    ) -> Result<ResultsWriter, Error> {
        // gzip text is compressed in members on the workers
        // (`RowFormat::seal`) and written to the file as it is.
        let compression = match destination {
            Destination::File { compression, .. } => *compression,
            Destination::Stdout => Compression::None,
        };
        let members = format != OutputFormat::Parquet && compression == Compression::Gzip;
        let sink = match destination {
            Destination::File { path, .. } if members => replace::create(path).map(Sink::File),
            _ => Sink::create(destination),
        }
        .map_err(|e| Error::write("results", destination.name(), e))?;
        let (rows, header): (Arc<dyn RowFormat>, Vec<u8>) = match format {
            OutputFormat::Csv => {
                let rows = CsvRows::new(shape, delimiter);
                let mut header = Vec::new();
                rows.header(&mut header);
                (Arc::new(rows), header)
            }
            OutputFormat::Jsonl => (Arc::new(JsonlRows::new(shape)), Vec::new()),
            // Parquet's magic bytes are buffered: nothing can fail here
            // for a closed stdout, which the first row group finds.
            OutputFormat::Parquet => {
                let rows = ParquetRows::create(sink, shape, parquet)
                    .map_err(|e| parquet_error(e, destination.name()))?;
                return Ok(ResultsWriter {
                    body: Body::Parquet(Box::new(rows)),
                    destination: destination.clone(),
                    closed: false,
                    cut_at: None,
                    cut_rows: None,
                    csv: false,
                    staged: None,
                });
            }
        };
        let rows = match &sink {
            Sink::File(file) if is_null_device(file) => Arc::new(Discarded),
            _ => GzipMembers::around(rows, compression),
        };
        let mut writer = ResultsWriter::start(sink, rows, destination, &header, true)?;
        writer.csv = format == OutputFormat::Csv;
        Ok(writer)
    }

    /// Continues the results file `path` (`--resume`) in `format`, CSV
    /// (its fields separated by `delimiter`) or JSON Lines, plain or, for a
    /// `.gz` name, gzip members: keeps its first `keep` bytes (the header
    /// and the complete rows, or complete members), and appends after them;
    /// writes the CSV header when `keep` is 0. The rest (a row cut short) is
    /// dropped when the first row is appended: until then the file is left
    /// as it was.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn append(
        path: &Path,
        format: OutputFormat,
        shape: &Shape,
        keep: u64,
        delimiter: u8,
    ) -> Result<ResultsWriter, Error> {
        let error = |e| Error::write("results", path, e);
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(error)?;
        let len = file.metadata().map_err(error)?.len();
        // Nothing kept (an empty file, or one cut inside its header or
        // first row): the file is emptied now and its header written, so
        // there is nothing left to cut when the first row comes (a cut at
        // 0 then would leave the header's bytes a hole of zeros).
        if keep == 0 {
            file.set_len(0).map_err(error)?;
        }
        file.seek(SeekFrom::Start(keep)).map_err(error)?;
        let compression = Compression::of_name(path);
        let destination = Destination::File {
            path: path.to_path_buf(),
            compression,
        };
        let mut header = Vec::new();
        let rows: Arc<dyn RowFormat> = match format {
            OutputFormat::Jsonl => Arc::new(JsonlRows::new(shape)),
            // CSV: Parquet is continued by `ResultsWriter::continue_parquet`.
            _ => {
                let csv = CsvRows::new(shape, delimiter);
                if keep == 0 {
                    csv.header(&mut header);
                }
                Arc::new(csv)
            }
        };
        let rows = GzipMembers::around(rows, compression);
        // A file with kept rows is a valid gzip file as it is: a run that
        // appends nothing (interrupted, or every record kept) leaves it so,
        // without an empty member.
        let mut writer =
            ResultsWriter::start(Sink::File(file), rows, &destination, &header, keep == 0)?;
        writer.cut_at = (keep > 0 && len > keep).then_some(keep);
        writer.csv = format == OutputFormat::Csv;
        Ok(writer)
    }

    /// Continues the Parquet results file `path` (`--resume`), whose
    /// footer is `metadata` and whose columns are `shape`'s (checked by
    /// `resume::scan_parquet`), the rows of this run compressed as
    /// `compression` says (the old row groups keep theirs): the continued
    /// file is written beside
    /// it, under a temporary name (`.NAME.resume-PID.partial`, locked while
    /// it is written; what killed resumes left beside it is removed, or
    /// named in a warning: see `output/resumed.rs`), its row groups copied
    /// first as they are,
    /// and the rows of this run after them. When the writer ends (also
    /// after an interrupt, or a failed write once the file is given its
    /// footer: see [`ResultsWriter::finish_after`]), the temporary file is
    /// renamed over `path`; until then `path` is left as it was, so a run
    /// killed outright loses nothing. [`ResultsWriter::leave_unchanged`]
    /// removes it instead.
    ///
    /// # Errors
    /// [`Error::Write`] when the file cannot be read, the temporary file
    /// cannot be created or the row groups cannot be copied (the temporary
    /// file is removed then), [`Error::Usage`] for a file that a rename
    /// cannot replace (a device, a named pipe, a file of several links).
    pub fn continue_parquet(
        path: &Path,
        shape: &Shape,
        compression: ParquetCompression,
        metadata: &::parquet::file::metadata::ParquetMetaData,
    ) -> Result<ResultsWriter, Error> {
        let error = |e| Error::write("results", path, e);
        let (temporary, target) = resumed::staged(path).ok_or_else(|| {
            Error::Usage(format!(
                "--resume continues a Parquet file by writing it anew beside it and renaming it \
                 over the old one, and {} cannot be replaced so (a device, a named pipe or a \
                 file of several links)",
                path.display()
            ))
        })?;
        let old = File::open(&target).map_err(error)?;
        let file = File::create(&temporary).map_err(error)?;
        resumed::lock(&file);
        for leftover in resumed::leftovers(&target, &temporary) {
            crate::stderrln!("sudoku-batch: warning: {leftover}");
        }
        if let Ok(meta) = old.metadata() {
            let _ = file.set_permissions(meta.permissions());
        }
        let staged = Staged {
            temporary,
            target,
            kept_rows: u64::try_from(metadata.file_metadata().num_rows()).unwrap_or(0),
        };
        let rows = ParquetRows::continued(Sink::File(file), shape, compression, &old, metadata)
            .map_err(|e| parquet_error(e, path).noting(&staged.remove()))?;
        Ok(ResultsWriter {
            body: Body::Parquet(Box::new(rows)),
            destination: Destination::File {
                path: path.to_path_buf(),
                compression: Compression::None,
            },
            closed: false,
            cut_at: None,
            cut_rows: None,
            csv: false,
            staged: Some(staged),
        })
    }

    /// Ends the writer leaving the results file as it was before the run:
    /// for a resumed run refused once its rows were matched against the
    /// inputs (nothing is appended then). A continued Parquet file's
    /// temporary file is removed; a text file, appended nothing, is
    /// finished as [`ResultsWriter::finish`] does.
    pub fn leave_unchanged(self) {
        match self.staged {
            Some(staged) => {
                if let Body::Parquet(rows) = self.body {
                    // Its thread joined before the file is removed.
                    let _ = rows.finish();
                }
                staged.remove();
            }
            None => {
                let _ = self.finish();
            }
        }
    }

    /// A text writer that starts with `header` (none when empty), on a
    /// sink that is `empty` so far.
    fn start(
        sink: Sink,
        rows: Arc<dyn RowFormat>,
        destination: &Destination,
        header: &[u8],
        empty: bool,
    ) -> Result<ResultsWriter, Error> {
        let mut header = header.to_vec();
        if !header.is_empty() {
            rows.seal(&mut header);
        }
        let mut writer = ResultsWriter {
            body: Body::Text {
                sink,
                rows,
                text: Vec::new(),
                empty,
            },
            destination: destination.clone(),
            closed: false,
            cut_at: None,
            cut_rows: None,
            csv: true,
            staged: None,
        };
        if !header.is_empty() {
            match writer.write_text(&header) {
                Err(Error::BrokenPipe) => writer.closed = true,
                written => written?,
            }
        }
        Ok(writer)
    }

    /// How this writer formats rows, for rows formatted elsewhere (on the
    /// solver workers) and handed over with
    /// [`ResultsWriter::write_formatted`]: text, or Parquet's columns
    /// ([`RowFormat::columns`]).
    pub fn row_format(&self) -> Arc<dyn RowFormat> {
        match &self.body {
            Body::Text { rows, .. } => Arc::clone(rows),
            Body::Parquet(rows) => rows.table(),
        }
    }

    /// Writes one row per result, in the order given.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write(&mut self, results: &[PuzzleResult]) -> Result<(), Error> {
        if let Body::Text { rows, text, .. } = &mut self.body {
            let mut formatted = std::mem::take(text);
            formatted.clear();
            for result in results {
                rows.row(result, &mut formatted);
            }
            if !formatted.is_empty() {
                rows.seal(&mut formatted);
            }
            let written = self.write_text(&formatted);
            if let Body::Text { text, .. } = &mut self.body {
                *text = formatted;
            }
            return written;
        }
        self.write_formatted(&[results], &[], None)
    }

    /// Writes the rows of the results in `runs` (slices of them, in
    /// order), formatted by [`ResultsWriter::row_format`] already: `text`
    /// holds them formatted and sealed for a text format (the bytes are
    /// written as they are), `columns` for Parquet (else Parquet's columns
    /// are built here from `runs`).
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write_formatted<R: AsRef<[PuzzleResult]>>(
        &mut self,
        runs: &[R],
        text: &[&[u8]],
        columns: Option<&Columns>,
    ) -> Result<(), Error> {
        if self.closed {
            return Err(Error::BrokenPipe);
        }
        let written = match (&mut self.body, columns) {
            (Body::Text { .. }, _) => return self.write_pieces(text),
            (Body::Parquet(rows), Some(columns)) => rows.write_columns(columns),
            (Body::Parquet(rows), None) => rows.write_runs(runs),
        };
        written.map_err(|e| self.failed(parquet_error(e, self.destination.name())))
    }

    /// Writes rows already formatted and sealed by
    /// [`ResultsWriter::row_format`] (whole lines in order, each chunk of
    /// them sealed at once), and hands them to the destination (a
    /// compressor compresses them as they come and is flushed by
    /// [`ResultsWriter::finish`]); nothing for Parquet.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write_text(&mut self, text: &[u8]) -> Result<(), Error> {
        self.write_pieces(&[text])
    }

    /// [`ResultsWriter::write_text`] for rows in pieces, written in order
    /// (a plain file takes them in one vectored write).
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write_pieces(&mut self, pieces: &[&[u8]]) -> Result<(), Error> {
        if self.closed {
            return Err(Error::BrokenPipe);
        }
        let nothing = pieces.iter().all(|p| p.is_empty());
        if let Body::Text { empty, .. } = &mut self.body {
            *empty &= nothing;
        }
        if let (Some(len), false) = (self.cut_at, nothing) {
            if let Body::Text {
                sink: Sink::File(file),
                ..
            } = &mut self.body
            {
                file.set_len(len)
                    .map_err(|e| Error::write("results", self.destination.name(), e))?;
            }
            self.cut_at = None;
        }
        let written = match &mut self.body {
            Body::Text {
                sink: Sink::Stdout(w),
                ..
            } => {
                let mut w = w.lock();
                pieces
                    .iter()
                    .try_for_each(|p| w.write_all(p))
                    .and_then(|()| w.flush())
            }
            Body::Text {
                sink: Sink::File(file),
                rows,
                ..
            } => write_all_vectored(file, pieces).map_err(|(e, reached)| {
                // Sealed rows (gzip members) are whole only with their
                // member.
                if !rows.seals() {
                    self.cut_rows = Some(whole_rows(pieces, reached, self.csv));
                }
                e
            }),
            Body::Text { sink, .. } => pieces.iter().try_for_each(|p| sink.write_all(p)),
            Body::Parquet(_) => Ok(()),
        };
        written.map_err(|e| Error::write("results", self.destination.name(), e))
    }

    /// Ends the table (Parquet's row group and footer), flushes everything
    /// and ends a compressed stream.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`]; a failure to write a file says
    /// what the file holds then (see [`ResultsWriter::finish_after`]).
    pub fn finish(self) -> Result<(), Error> {
        self.finish_counted().map_err(|failed| failed.0)
    }

    /// [`ResultsWriter::finish`], with the tally of the rows a Parquet
    /// file cut short holds, read back from it (see
    /// [`ResultsWriter::finish_after`]).
    ///
    /// # Errors
    /// As for [`ResultsWriter::finish`], and that tally.
    pub fn finish_counted(self) -> Result<(), Box<(Error, Option<Tally>)>> {
        self.end().map_err(|failed| {
            let Failed { error, note, tally } = *failed;
            let error = match note {
                Some(note) => error.noting(&note),
                None => error,
            };
            Box::new((error, tally.map(|tally| *tally)))
        })
    }

    /// Ends the table as [`ResultsWriter::finish`] does after the run
    /// failed with `failure`, once `rows` rows were written through this
    /// writer, and gives `failure` back; when it is a failure to write the
    /// results file, it then says what the file holds: its first `rows`
    /// rows or more, the last maybe cut short (text), a zstd stream cut
    /// short, or the row groups written whole before the failure, cut
    /// after the last and given their footer, so that it is a readable
    /// Parquet file (see `output/parquet/salvage.rs`). With it comes the
    /// tally of the rows such a Parquet file holds, read back from it.
    pub fn finish_after(self, failure: Error, rows: u64) -> (Error, Option<Tally>) {
        if !failure.is_results_write() {
            // The results so far are kept; the run's own error is the one
            // to report.
            let _ = self.finish();
            return (failure, None);
        }
        let text = self.text_note(rows);
        let (parquet, tally) = match self.end() {
            Ok(()) => (None, None),
            Err(failed) => (failed.note, failed.tally),
        };
        let failure = match text.or(parquet) {
            Some(note) => failure.noting(&note),
            None => failure,
        };
        (failure, tally.map(|tally| *tally))
    }

    /// What a text results file holds after a failed write, once `rows`
    /// rows were written whole; `None` for Parquet and for anything but a
    /// regular file (stdout, a device).
    fn text_note(&self, rows: u64) -> Option<String> {
        let (Body::Text { sink, .. }, Destination::File { path, compression }) =
            (&self.body, &self.destination)
        else {
            return None;
        };
        sink.regular_file()?;
        let path = path.display();
        Some(match (compression, self.cut_rows) {
            (Compression::Zstd, _) => zstd_note(&path),
            (Compression::Gzip, _) => format!(
                "{path} holds its first {} in whole gzip members, and maybe a member cut short",
                words::count(rows, "row", "rows")
            ),
            (_, Some((more, cut))) => format!(
                "{path} holds its first {}{}",
                words::count(rows + more, "row", "rows"),
                if cut { ", then a row cut short" } else { "" }
            ),
            (_, None) => format!(
                "{path} holds its first {}",
                words::count(rows, "row", "rows")
            ),
        })
    }

    /// [`ResultsWriter::finish`], its failure given with what the file
    /// holds then, when that is known here (Parquet, `.zst`).
    fn end(self) -> Result<(), Box<Failed>> {
        let name = self.destination.name();
        let failed = |error, note, tally| Box::new(Failed { error, note, tally });
        let sink = match self.body {
            Body::Text {
                mut sink,
                rows,
                empty,
                ..
            } => {
                if empty {
                    let mut nothing = Vec::new();
                    rows.seal(&mut nothing);
                    sink.write_all(&nothing)
                        .map_err(|e| failed(Error::write("results", name, e), None, None))?;
                }
                sink
            }
            Body::Parquet(rows) => rows.finish().map_err(|(e, salvaged)| {
                let note = match &self.staged {
                    Some(staged) => settle(name, staged, &salvaged),
                    None => salvaged_note(name, &salvaged),
                };
                // The rows the file holds, for the summary.
                let tally = match salvaged {
                    Salvaged::Groups { .. } => parquet::recount(name).ok().map(Box::new),
                    _ => None,
                };
                failed(parquet_error(e, name), note, tally)
            })?,
        };
        if self.closed {
            return Err(failed(Error::BrokenPipe, None, None));
        }
        let zstd = matches!(sink, Sink::Zstd(_));
        sink.finish().map_err(|e| {
            let note = match &self.staged {
                Some(staged) => Some(staged.remove()),
                None => zstd.then(|| zstd_note(&name.display())),
            };
            failed(Error::write("results", name, e), note, None)
        })?;
        match &self.staged {
            Some(staged) => staged.rename().map_err(|e| {
                let note = staged.remove();
                failed(Error::write("results", name, e), Some(note), None)
            }),
            None => Ok(()),
        }
    }

    /// Remembers a closed stdout, so that later writes stop at once.
    fn failed(&mut self, e: Error) -> Error {
        if matches!(e, Error::BrokenPipe) {
            self.closed = true;
        }
        e
    }
}

/// How ending the results failed: the error, what the file holds then
/// (see [`ResultsWriter::finish_after`]), and the tally of its rows when
/// they were read back (Parquet).
struct Failed {
    error: Error,
    note: Option<String>,
    tally: Option<Box<Tally>>,
}

/// What a `.zst` results file `path` holds after a failed write.
fn zstd_note(path: &std::path::Display<'_>) -> String {
    format!("{path} holds a zstd stream cut short (`zstd -dc` reads the rows before the cut)")
}

/// What a continued Parquet file (`staged`) of the results file `path`
/// becomes after a failed write that left it `salvaged`, said as
/// [`salvaged_note`] says it: renamed over the file it continues when it
/// holds every row of that file (the row groups copied, and maybe some of
/// this run's), else removed, the file it continues left as it was.
fn settle(path: &Path, staged: &Staged, salvaged: &Salvaged) -> Option<String> {
    match salvaged {
        Salvaged::Groups { rows, .. } if *rows >= staged.kept_rows => match staged.rename() {
            Ok(()) => salvaged_note(path, salvaged),
            Err(_) => Some(staged.remove()),
        },
        _ => Some(staged.remove()),
    }
}

/// What the Parquet results file `path` holds after a failed write, as
/// [`Error::noting`] says it; `None` for stdout or a device.
fn salvaged_note(path: &Path, salvaged: &Salvaged) -> Option<String> {
    let path = path.display();
    match salvaged {
        Salvaged::Groups { rows, groups, .. } => Some(format!(
            "{path} holds its first {}, readable (cut after the {} written whole before the \
             failure, and given their footer)",
            words::count(*rows, "row", "rows"),
            words::count(*groups as u64, "row group", "row groups")
        )),
        Salvaged::Unreadable(e) => Some(format!(
            "{path} is not a readable Parquet file: its footer could not be written either ({e})"
        )),
        Salvaged::NotAFile => None,
    }
}

/// A Parquet writer's error on `path`: the I/O error under it when there
/// is one (so that a closed stdout is [`Error::BrokenPipe`]).
fn parquet_error(e: ::parquet::errors::ParquetError, path: &Path) -> Error {
    let cause = match e {
        ::parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    };
    Error::write("results", path, cause)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::simd;

    #[test]
    fn blanks_of_other_sizes_are_never_symbols() {
        let letters = Symbols::DigitsLetters { lower: false };
        let hex = Symbols::ZeroDigitsLetters { lower: false };
        assert_eq!(Blank::Zero.byte(&letters), b'0');
        assert_eq!(Blank::Dot.byte(&letters), b'.');
        assert_eq!(Blank::Zero.byte(&Symbols::Numbers), b'0');
        assert_eq!(Blank::Zero.byte(&hex), b'.');
        // `0` last in a --symbols string is a symbol too, not only first.
        assert_eq!(Blank::Zero.byte(&Symbols::Chars(b"1230".to_vec())), b'.');
        assert_eq!(Blank::Dot.byte(&Symbols::Chars(b"ab.c".to_vec())), b'-');
        assert_eq!(Blank::Zero.byte(&Symbols::Chars(b"0.-c".to_vec())), b'_');
        assert_eq!(Blank::Zero.byte(&Symbols::Chars(b"ABCD".to_vec())), b'0');
    }

    #[test]
    fn messages_are_escaped_whole_and_never_formulas() {
        assert_eq!(
            clean_message("bad character 'a' at position 82"),
            "bad character 'a' at position 82"
        );
        assert_eq!(clean_message("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        for lead in ["+1", "-1", "@SUM(A1)"] {
            assert!(clean_message(lead).starts_with('\''), "{lead}");
        }
        assert_eq!(
            clean_message("a\tb\r\n\x1b\u{e9}"),
            "a\\tb\\r\\n\\x1B\\u{e9}"
        );
        assert_eq!(clean_message("\t=1"), "\\t=1");
        let long = format!("not rated: {}hardest so far 9.0 Nishio", "x".repeat(500));
        assert_eq!(clean_message(&long), long);
    }

    fn format(result: &PuzzleResult, files: Option<&[String]>, header: bool) -> String {
        let rows = CsvRows::new(
            &Shape {
                files: files.map(<[String]>::to_vec),
                ..Shape::default()
            },
            b',',
        );
        let mut out = Vec::new();
        if header {
            rows.header(&mut out);
        }
        rows.csv_row(result, &mut out);
        String::from_utf8(out).unwrap()
    }

    fn malformed() -> PuzzleResult {
        PuzzleResult {
            input: 0,
            line: 7,
            puzzle: None,
            status: Status::Malformed,
            solution: None,
            guesses: None,
            solve_ns: None,
            check: None,
            message: Some("80 cells, expected 81".into()),
            expected: None,
            kept: Vec::new(),
            sized: None,
            rating: None,
        }
    }

    #[test]
    fn the_row_struct_has_the_documented_columns() {
        let result = malformed();
        let text = format(&result, None, true);
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
        let text = format(
            &result,
            Some(&["a.txt".to_string(), "b,\"c\".txt".to_string()]),
            true,
        );
        assert_eq!(
            text.lines().next().unwrap(),
            format!("file,{}", COLUMNS.join(","))
        );
    }

    #[test]
    fn malformed_rows_leave_the_searched_columns_empty() {
        let text = format(&malformed(), None, false);
        assert_eq!(text, "7,,malformed,,,,,\"80 cells, expected 81\"\n");
    }

    #[test]
    fn solved_rows_have_the_grids_and_the_time_in_tenths_of_a_microsecond() {
        let puzzle = Grid::parse(&[b'0'; 81]).unwrap();
        let mut cells = [1u8; 81];
        cells[80] = 9;
        let solution = Grid::from_cells(cells).unwrap();
        let result = PuzzleResult {
            puzzle: Some(puzzle),
            status: Status::Solved,
            solution: Some(solution),
            guesses: Some(3),
            solve_ns: Some(12_349),
            check: Some(Check::Ok),
            message: None,
            ..malformed()
        };
        let text = format(&result, None, false);
        let expected = format!(
            "7,{},solved,{}9,3,12.3,ok,\n",
            ".".repeat(81),
            "1".repeat(80)
        );
        assert_eq!(text, expected);
    }

    /// Results of plain records ([`RowFormat::plain_rows`]) with every kind
    /// of field: statuses with and without grids, numbers of one to twenty
    /// digits, both checks and none, both inputs of two.
    pub(super) fn plain_results() -> Vec<PuzzleResult> {
        let puzzle = Grid::parse(
            b"..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..",
        )
        .unwrap();
        let solution = Grid::parse(
            b"864371259325849761971265843436192587198657432257483916689734125713528694542916378",
        )
        .unwrap();
        let numbers = [0, 1, 9, 10, 99, 100, 12_345, 999_950, 1 << 40, u64::MAX];
        let mut results = Vec::new();
        for (i, &n) in numbers.iter().enumerate() {
            for (status, check) in [
                (Status::Solved, Some(Check::Ok)),
                (Status::Solved, Some(Check::Mismatch)),
                (Status::Solved, None),
                (Status::Unsolvable, None),
                (Status::Timeout, None),
            ] {
                results.push(PuzzleResult {
                    input: i % 2,
                    line: n.max(1),
                    puzzle: Some(puzzle),
                    status,
                    solution: (status == Status::Solved).then_some(solution),
                    guesses: Some(numbers[numbers.len() - 1 - i]),
                    solve_ns: Some(n),
                    check,
                    message: None,
                    ..malformed()
                });
            }
        }
        results
    }

    #[test]
    fn plain_rows_are_their_results_rows_at_every_width() {
        let shapes = [
            Shape::default(),
            Shape {
                files: Some(vec!["a.csv".into(), "b;c.csv".into()]),
                blank: Blank::Zero,
                ..Shape::default()
            },
        ];
        for shape in &shapes {
            for delimiter in [b',', b';'] {
                plain_rows_match(&CsvRows::new(shape, delimiter), b"rows before,");
            }
        }
    }

    /// Asserts that `rows` writes each of [`plain_results`] through its
    /// plain rows ([`RowFormat::plain_rows`]), at the CPU's widest SIMD
    /// width (AVX2 here) and at the base width, byte for byte as its
    /// [`RowFormat::row`] does, after the bytes `before`.
    pub(super) fn plain_rows_match(rows: &dyn RowFormat, before: &[u8]) {
        let plain = rows.plain_rows().expect("plain rows");
        for result in plain_results() {
            let fields = RowFields::of(&result);
            let mut whole = before.to_vec();
            rows.row(&result, &mut whole);
            let mut widest = before.to_vec();
            simd::widest(
                #[inline(always)]
                || plain.row(&fields, &mut widest),
            );
            let mut base = before.to_vec();
            plain.row(&fields, &mut base);
            let whole = String::from_utf8(whole).unwrap();
            assert_eq!(String::from_utf8(widest).unwrap(), whole);
            assert_eq!(String::from_utf8(base).unwrap(), whole);
        }
    }

    #[test]
    fn names_in_rows_are_the_statuses_and_checks_names() {
        let written = |write: &dyn Fn(&mut Row)| {
            let mut row: Row = Row::new();
            write(&mut row);
            String::from_utf8(row.bytes().to_vec()).unwrap()
        };
        for status in Status::ALL {
            assert_eq!(written(&|row| row.status(status)), status.name());
        }
        for check in [Check::Ok, Check::Mismatch] {
            assert_eq!(written(&|row| row.check(check)), check.name());
        }
    }

    #[test]
    fn micros_round_to_one_decimal() {
        let micros = |ns| {
            let mut out = Vec::new();
            push_micros(&mut out, ns);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(micros(0), "0.0");
        assert_eq!(micros(49), "0.0");
        assert_eq!(micros(50), "0.1");
        assert_eq!(micros(1_234_567), "1234.6");
    }

    #[test]
    fn fields_are_quoted_only_when_needed() {
        let field = |text: &str| {
            let mut out = Vec::new();
            push_field(&mut out, text.as_bytes(), b',');
            String::from_utf8(out).unwrap()
        };
        assert_eq!(field("a b"), "a b");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("a\nb"), "\"a\nb\"");
        let mut out = Vec::new();
        push_number(&mut out, u64::MAX);
        assert_eq!(out, u64::MAX.to_string().as_bytes());
    }

    #[test]
    fn a_file_column_comes_first_and_is_quoted_when_needed() {
        let names = ["a.txt".to_string(), "b,\"c\".txt".to_string()];
        let mut result = malformed();
        result.input = 1;
        assert_eq!(
            format(&result, Some(&names), false),
            "\"b,\"\"c\"\".txt\",7,,malformed,,,,,\"80 cells, expected 81\"\n"
        );
    }

    fn kept(names: &[&str]) -> Vec<KeptColumn> {
        names.iter().map(|name| KeptColumn::text(*name)).collect()
    }

    #[test]
    fn kept_names_get_input_in_front_on_a_clash() {
        let shape = Shape {
            kept: kept(&["source", "status", "file", "input_status", "source"]),
            ..Shape::default()
        };
        assert_eq!(
            shape.kept_names(),
            [
                "source",
                "input_status",
                "file",
                "input_input_status",
                "input_source"
            ]
        );
        let several = Shape {
            files: Some(vec!["a".into(), "b".into()]),
            ..shape
        };
        assert_eq!(several.kept_names()[2], "input_file");
        assert_eq!(several.column_names().len(), 1 + COLUMNS.len() + 5);
    }

    #[test]
    fn csv_rows_take_the_delimiter_the_blank_and_kept_values() {
        let shape = Shape {
            kept: kept(&["source", "rating", "note", "flag", "score", "gap", "a", "b"]),
            blank: Blank::Zero,
            ..Shape::default()
        };
        let rows = CsvRows::new(&shape, b';');
        let mut out = Vec::new();
        rows.header(&mut out);
        let result = PuzzleResult {
            input: 0,
            line: 3,
            puzzle: Some(Grid::parse(&[b'.'; 81]).unwrap()),
            status: Status::Invalid,
            solution: None,
            guesses: Some(0),
            solve_ns: Some(1_000),
            check: None,
            message: Some("a; b".into()),
            expected: None,
            kept: vec![
                KeptValue::Text("x;y".into()),
                KeptValue::Int(-3),
                KeptValue::Text("=1+1".into()),
                KeptValue::Bool(false),
                KeptValue::Text("-2.5".into()),
                KeptValue::Null,
                KeptValue::Text("@a1".into()),
                KeptValue::Text("'@a1".into()),
            ],
            sized: None,
            rating: None,
        };
        rows.csv_row(&result, &mut out);
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next().unwrap(),
            "line;puzzle;status;solution;guesses;solve_us;check;message;source;rating;note;flag;score;gap;a;b"
        );
        assert_eq!(
            lines.next().unwrap(),
            format!(
                "3;{};invalid;;0;1.0;;\"a; b\";\"x;y\";-3;=1+1;false;-2.5;;@a1;'@a1",
                "0".repeat(81)
            )
        );
    }

    #[test]
    fn whole_rows_of_a_write_cut_short_are_counted_past_quoted_line_ends() {
        let pieces: [&[u8]; 2] = [b"1,a\n2,\"b\nc\"\n", b"3,d\n4,e"];
        let total = pieces.iter().map(|p| p.len()).sum();
        assert_eq!(whole_rows(&pieces, total, true), (3, true));
        assert_eq!(whole_rows(&pieces, 16, true), (3, false));
        assert_eq!(whole_rows(&pieces, 15, true), (2, true));
        assert_eq!(whole_rows(&pieces, 12, true), (2, false));
        // A line end in quotes ends no row.
        assert_eq!(whole_rows(&pieces, 9, true), (1, true));
        assert_eq!(whole_rows(&pieces, 4, true), (1, false));
        assert_eq!(whole_rows(&pieces, 0, true), (0, false));
        // JSON Lines never holds a line end in a value; its quotes are
        // escaped inside strings.
        let jsonl: [&[u8]; 1] = [b"{\"m\":\"a\\\"\"}\n{\"m\":"];
        assert_eq!(whole_rows(&jsonl, jsonl[0].len(), false), (1, true));
    }

    #[test]
    fn delimiters_that_fields_hold_are_refused() {
        for ok in [',', ';', '\t', '|', ' '] {
            assert!(check_delimiter(ok).is_ok(), "{ok:?}");
        }
        for bad in ['.', '0', 'a', '"', '\n', 'é'] {
            assert!(check_delimiter(bad).is_err(), "{bad:?}");
        }
    }
}
