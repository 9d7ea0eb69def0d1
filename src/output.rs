//! The results CSV: one row per record, in input order, formatted straight
//! into byte buffers ([`CsvRows`]) and written to stdout, a file, or a gzip
//! file (`.gz`).
//!
//! Columns, exactly: `line,puzzle,status,solution,guesses,solve_us,check,message`,
//! with a `file` column first when the run has several inputs.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use flate2::Compression;

use crate::error::Error;
use crate::grid::{Grid, CELLS};
use crate::result::PuzzleResult;

/// The name that means stdin or stdout.
pub const STDIO: &str = "-";

/// Where an output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output.
    Stdout,
    /// A file, created or truncated.
    File {
        /// The file's path.
        path: PathBuf,
        /// True when the name ends in `.gz`: the file is gzip-compressed.
        gzip: bool,
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
                gzip: path.extension().is_some_and(|ext| ext == "gz"),
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

/// Most characters kept of a message (the text after is cut and marked
/// with `...`). Messages echo at most a field of input, and the reader
/// keeps echoes to 40 characters; this is the backstop.
pub const MESSAGE_MAX_CHARS: usize = 80;

/// Makes a message safe to put in a CSV cell that a spreadsheet may open:
/// every character outside printable ASCII is escaped (`\n`, `\r`, `\t`,
/// `\x1B`, `\u{e9}`), the text is cut to [`MESSAGE_MAX_CHARS`] characters,
/// and a message starting with `=`, `+`, `-` or `@` (a formula) gets a `'`
/// in front.
pub fn clean_message(message: &str) -> String {
    let mut escaped = String::with_capacity(message.len().min(MESSAGE_MAX_CHARS + 8));
    for (count, ch) in message.chars().enumerate() {
        if count == MESSAGE_MAX_CHARS {
            escaped.push_str("...");
            break;
        }
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

/// Formats one results row into a byte buffer: what the solver workers
/// use to format their rows before the writer takes them. A writer with
/// one line of text per row implements it; see [`CsvRows`].
pub trait RowFormat: Send + Sync {
    /// Appends the row of `result`, with its line end.
    fn row(&self, result: &PuzzleResult, out: &mut Vec<u8>);
}

/// Formats results rows as CSV text (RFC 4180: a field is quoted only when
/// it holds a comma, a quote or a line end), straight into a byte buffer:
/// no allocation per row but for a row's message. Shared by the workers,
/// which format their rows before the writer takes them.
#[derive(Clone, Debug, Default)]
pub struct CsvRows {
    /// Each input's `file` field, ready to write (escaped and quoted), when
    /// the run has several inputs.
    files: Option<Vec<Vec<u8>>>,
}

impl CsvRows {
    /// Rows for a run over `file_names` when given (several inputs: a
    /// `file` column first), else without a `file` column.
    pub fn new(file_names: Option<&[String]>) -> CsvRows {
        let files = file_names.map(|names| {
            names
                .iter()
                .map(|name| {
                    let mut field = Vec::with_capacity(name.len() + 2);
                    push_field(&mut field, name.as_bytes());
                    field
                })
                .collect()
        });
        CsvRows { files }
    }

    /// Appends the header line.
    pub fn header(&self, out: &mut Vec<u8>) {
        if self.files.is_some() {
            out.extend_from_slice(FILE_COLUMN.as_bytes());
            out.push(b',');
        }
        out.extend_from_slice(COLUMNS.join(",").as_bytes());
        out.push(b'\n');
    }

    /// Appends one row: [`COLUMNS`], after [`FILE_COLUMN`] when the run has
    /// several inputs.
    pub fn csv_row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        if let Some(files) = &self.files {
            if let Some(file) = files.get(result.input) {
                out.extend_from_slice(file);
            }
            out.push(b',');
        }
        let mut row = Row::new();
        row.number(result.line);
        row.byte(b',');
        if let Some(puzzle) = &result.puzzle {
            row.grid(puzzle);
        }
        row.byte(b',');
        row.text(result.status.name().as_bytes());
        row.byte(b',');
        if let Some(solution) = &result.solution {
            row.grid(solution);
        }
        row.byte(b',');
        if let Some(guesses) = result.guesses {
            row.number(guesses);
        }
        row.byte(b',');
        if let Some(ns) = result.solve_ns {
            row.micros(ns);
        }
        row.byte(b',');
        if let Some(check) = result.check {
            row.text(check.name().as_bytes());
        }
        row.byte(b',');
        match &result.message {
            None => {
                row.byte(b'\n');
                out.extend_from_slice(row.bytes());
            }
            Some(message) => {
                out.extend_from_slice(row.bytes());
                push_field(out, clean_message(message).as_bytes());
                out.push(b'\n');
            }
        }
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
}

/// Appends `field`, quoted (quotes doubled) when it holds a comma, a quote
/// or a line end.
fn push_field(out: &mut Vec<u8>, field: &[u8]) {
    if !field
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
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
#[cfg(test)]
fn push_number(out: &mut Vec<u8>, n: u64) {
    let mut row = Row::new();
    row.number(n);
    out.extend_from_slice(row.bytes());
}

/// Appends a duration in nanoseconds as microseconds with one decimal,
/// rounded (`12.3`).
#[cfg(test)]
fn push_micros(out: &mut Vec<u8>, ns: u64) {
    let mut row = Row::new();
    row.micros(ns);
    out.extend_from_slice(row.bytes());
}

/// The longest results row without its `file` field and message: a line
/// number and guesses of 20 digits, two grids, the longest status and
/// check, solve_us of 22 characters, 7 commas and the line end.
const ROW_BYTES: usize = 20 + 81 + 10 + 81 + 20 + 22 + 8 + 8;

/// One results row built in a fixed buffer on the stack, so that a row is
/// one copy into the output and every field a copy of known length (no
/// capacity check or library call per field).
struct Row {
    buf: [u8; ROW_BYTES],
    len: usize,
}

impl Row {
    fn new() -> Row {
        Row {
            buf: [0; ROW_BYTES],
            len: 0,
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    fn byte(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }

    /// A status or check name (at most 10 bytes).
    fn text(&mut self, text: &[u8]) {
        for &b in text {
            self.byte(b);
        }
    }

    fn grid(&mut self, grid: &Grid) {
        self.buf[self.len..self.len + CELLS].copy_from_slice(&grid.line_bytes());
        self.len += CELLS;
    }

    /// `n` in decimal, written from its last digit back.
    fn number(&mut self, n: u64) {
        let mut digits = 1;
        let mut rest = n / 10;
        while rest != 0 {
            digits += 1;
            rest /= 10;
        }
        let mut rest = n;
        for i in (self.len..self.len + digits).rev() {
            self.buf[i] = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        self.len += digits;
    }

    /// A duration in nanoseconds as microseconds with one decimal, rounded
    /// (`12.3`).
    fn micros(&mut self, ns: u64) {
        let tenths = ns.saturating_add(50) / 100;
        self.number(tenths / 10);
        self.byte(b'.');
        self.byte(b'0' + (tenths % 10) as u8);
    }
}

/// Where a table's bytes go: stdout, a plain file, or a gzip-compressed
/// file. Shared by every writer of rows (results, data-set tables, merge).
pub(crate) enum Sink {
    /// Standard output.
    Stdout(io::Stdout),
    /// A plain file.
    File(File),
    /// A file written gzip-compressed; [`Sink::finish`] ends the stream.
    Gzip(GzEncoder<File>),
}

impl Sink {
    /// Opens `destination`: stdout, or the file created (or truncated),
    /// gzip-compressed when its name ends in `.gz`.
    ///
    /// # Errors
    /// The file cannot be created.
    pub(crate) fn create(destination: &Destination) -> io::Result<Sink> {
        Ok(match destination {
            Destination::Stdout => Sink::Stdout(io::stdout()),
            Destination::File { path, gzip } => Sink::to_file(File::create(path)?, *gzip),
        })
    }

    /// Writes to `file`, gzip-compressed when `gzip`.
    pub(crate) fn to_file(file: File, gzip: bool) -> Sink {
        if gzip {
            Sink::Gzip(GzEncoder::new(file, Compression::default()))
        } else {
            Sink::File(file)
        }
    }

    /// Flushes everything and ends the gzip stream.
    ///
    /// # Errors
    /// The bytes cannot be written.
    pub(crate) fn finish(self) -> io::Result<()> {
        match self {
            Sink::Stdout(mut w) => w.flush(),
            Sink::File(mut w) => w.flush(),
            Sink::Gzip(w) => w.finish().and_then(|mut f| f.flush()),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::File(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::File(w) => w.flush(),
            Sink::Gzip(w) => w.flush(),
        }
    }
}

/// Writes results rows to a [`Destination`].
pub struct ResultsWriter {
    sink: Sink,
    rows: CsvRows,
    text: Vec<u8>,
    destination: Destination,
    /// Stdout was closed before the header could be written: every write
    /// is [`Error::BrokenPipe`], so the caller decides at its first row
    /// whether to stop or go on without writing (`check`).
    closed: bool,
}

impl ResultsWriter {
    /// Creates (or truncates) the destination and writes the header. With
    /// `file_names` (several inputs), rows start with a `file` column holding
    /// the name of the result's input.
    ///
    /// # Errors
    /// [`Error::Write`] when the file cannot be created or written,
    /// [`Error::BrokenPipe`] when stdout is closed.
    pub fn create(
        destination: &Destination,
        file_names: Option<Vec<String>>,
    ) -> Result<ResultsWriter, Error> {
        let sink = Sink::create(destination)
            .map_err(|e| Error::write("results", destination.name(), e))?;
        ResultsWriter::start(sink, destination, file_names, true)
    }

    /// Continues the plain results file `path` (`--resume`): keeps its first
    /// `keep` bytes (the header and the complete rows), drops the rest, and
    /// appends after them; writes the header when `keep` is 0.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn append(
        path: &Path,
        file_names: Option<Vec<String>>,
        keep: u64,
    ) -> Result<ResultsWriter, Error> {
        let error = |e| Error::write("results", path, e);
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(error)?;
        file.set_len(keep).map_err(error)?;
        file.seek(SeekFrom::End(0)).map_err(error)?;
        let destination = Destination::File {
            path: path.to_path_buf(),
            gzip: false,
        };
        ResultsWriter::start(Sink::File(file), &destination, file_names, keep == 0)
    }

    fn start(
        sink: Sink,
        destination: &Destination,
        file_names: Option<Vec<String>>,
        header: bool,
    ) -> Result<ResultsWriter, Error> {
        let mut writer = ResultsWriter {
            sink,
            rows: CsvRows::new(file_names.as_deref()),
            text: Vec::new(),
            destination: destination.clone(),
            closed: false,
        };
        if header {
            let mut text = Vec::new();
            writer.rows.header(&mut text);
            match writer.write_text(&text) {
                Err(Error::BrokenPipe) => writer.closed = true,
                written => written?,
            }
        }
        Ok(writer)
    }

    /// How this writer formats rows, for rows formatted elsewhere (on the
    /// solver workers) and handed over with [`ResultsWriter::write_text`].
    pub fn rows(&self) -> &CsvRows {
        &self.rows
    }

    /// Writes one row per result, in the order given, then hands the bytes to
    /// the destination.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write(&mut self, results: &[PuzzleResult]) -> Result<(), Error> {
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        self.rows.rows(results, &mut text);
        let written = self.write_text(&text);
        self.text = text;
        written
    }

    /// Writes rows already formatted by [`ResultsWriter::rows`], whole lines
    /// in order, and hands them to the destination (gzip compresses them as
    /// they come and is flushed by [`ResultsWriter::finish`]).
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write_text(&mut self, text: &[u8]) -> Result<(), Error> {
        if self.closed {
            return Err(Error::BrokenPipe);
        }
        let written = match &mut self.sink {
            Sink::Stdout(w) => w.lock().write_all(text).and_then(|()| w.flush()),
            Sink::File(w) => w.write_all(text),
            Sink::Gzip(w) => w.write_all(text),
        };
        written.map_err(|e| self.io_error(e))
    }

    /// Flushes everything and ends the gzip stream.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn finish(self) -> Result<(), Error> {
        let destination = self.destination;
        self.sink
            .finish()
            .map_err(|e| Error::write("results", destination.name(), e))
    }

    fn io_error(&self, e: io::Error) -> Error {
        Error::write("results", self.destination.name(), e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::result::Check;
    use crate::solver::Status;

    #[test]
    fn messages_are_escaped_cut_and_never_formulas() {
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
        let long = "x".repeat(500);
        assert_eq!(clean_message(&long).len(), MESSAGE_MAX_CHARS + 3);
    }

    fn format(result: &PuzzleResult, files: Option<&[String]>, header: bool) -> String {
        let rows = CsvRows::new(files);
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
            push_field(&mut out, text.as_bytes());
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
}
