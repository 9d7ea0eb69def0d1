//! The results CSV: one row per record, in input order, written with the
//! `csv` crate and serde to stdout, a file, or a gzip file (`.gz`).
//!
//! Columns, exactly: `line,puzzle,status,solution,guesses,solve_us,check,message`,
//! with a `file` column first when the run has several inputs.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

use flate2::write::GzEncoder;
use flate2::Compression;
use serde::{Serialize, Serializer};

use crate::config::Destination;
use crate::error::Error;
use crate::grid::Grid;
use crate::result::{Check, PuzzleResult};
use crate::solver::Status;

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

/// A grid serialized as its 81-character line (`.` blanks), without
/// allocating.
struct GridField<'a>(&'a Grid);

impl Serialize for GridField<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0.line_bytes())
    }
}

/// A duration in nanoseconds serialized as microseconds with one decimal,
/// rounded (`12.3`).
struct Micros(u64);

impl Serialize for Micros {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tenths = self.0.saturating_add(50) / 100;
        let mut buf = [0u8; 24];
        let mut cursor = io::Cursor::new(&mut buf[..]);
        write!(cursor, "{}.{}", tenths / 10, tenths % 10)
            .map_err(|e| serde::ser::Error::custom(e.to_string()))?;
        let len = cursor.position() as usize;
        serializer.serialize_bytes(&buf[..len])
    }
}

/// One results row as the CSV serializer sees it; field order is
/// [`COLUMNS`], after the optional [`FILE_COLUMN`].
#[derive(Serialize)]
struct Row<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: u64,
    puzzle: Option<GridField<'a>>,
    status: Status,
    solution: Option<GridField<'a>>,
    guesses: Option<u64>,
    solve_us: Option<Micros>,
    check: Option<Check>,
    message: Option<String>,
}

impl<'a> Row<'a> {
    fn new(result: &'a PuzzleResult, file: Option<&'a str>) -> Row<'a> {
        Row {
            file,
            line: result.line,
            puzzle: result.puzzle.as_ref().map(GridField),
            status: result.status,
            solution: result.solution.as_ref().map(GridField),
            guesses: result.guesses,
            solve_us: result.solve_ns.map(Micros),
            check: result.check,
            message: result.message.as_deref().map(clean_message),
        }
    }
}

/// Where the CSV bytes go.
enum Sink {
    Stdout(io::Stdout),
    File(File),
    Gzip(GzEncoder<File>),
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

/// Capacity of the CSV writer's buffer, bytes.
const BUFFER_BYTES: usize = 1 << 16;

/// Writes results rows to a [`Destination`].
pub struct ResultsWriter {
    csv: csv::Writer<Sink>,
    destination: Destination,
    file_names: Option<Vec<String>>,
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
        let sink = match destination {
            Destination::Stdout => Sink::Stdout(io::stdout()),
            Destination::File { path, gzip } => {
                let file =
                    File::create(path).map_err(|e| Error::write("results", path.clone(), e))?;
                if *gzip {
                    Sink::Gzip(GzEncoder::new(file, Compression::default()))
                } else {
                    Sink::File(file)
                }
            }
        };
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
        let csv = csv::WriterBuilder::new()
            .has_headers(false)
            .buffer_capacity(BUFFER_BYTES)
            .from_writer(sink);
        let mut writer = ResultsWriter {
            csv,
            destination: destination.clone(),
            file_names,
        };
        if header {
            let file_column = writer.file_names.as_ref().map(|_| FILE_COLUMN);
            let header: Vec<&str> = file_column.into_iter().chain(COLUMNS).collect();
            writer
                .csv
                .write_record(&header)
                .map_err(|e| writer.error(e))?;
        }
        Ok(writer)
    }

    /// Writes one row per result, in the order given, then hands the bytes to
    /// the destination (except for gzip, which is flushed by
    /// [`ResultsWriter::finish`] so that it compresses well).
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write(&mut self, results: &[PuzzleResult]) -> Result<(), Error> {
        for result in results {
            let file = self
                .file_names
                .as_ref()
                .and_then(|names| names.get(result.input))
                .map(String::as_str);
            if let Err(e) = self.csv.serialize(Row::new(result, file)) {
                return Err(self.error(e));
            }
        }
        if !matches!(self.csv.get_ref(), Sink::Gzip(_)) {
            self.csv.flush().map_err(|e| self.io_error(e))?;
        }
        Ok(())
    }

    /// Flushes everything and ends the gzip stream.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn finish(mut self) -> Result<(), Error> {
        self.csv.flush().map_err(|e| self.io_error(e))?;
        let destination = self.destination.clone();
        let sink = self
            .csv
            .into_inner()
            .map_err(|e| Error::write("results", destination.name(), e.into_error()))?;
        let done = match sink {
            Sink::Stdout(mut w) => w.flush(),
            Sink::File(mut w) => w.flush(),
            Sink::Gzip(w) => w.finish().and_then(|mut f| f.flush()),
        };
        done.map_err(|e| Error::write("results", destination.name(), e))
    }

    fn io_error(&self, e: io::Error) -> Error {
        Error::write("results", self.destination.name(), e)
    }

    fn error(&self, e: csv::Error) -> Error {
        let source = match e.into_kind() {
            csv::ErrorKind::Io(io) => io,
            // Rows are plain strings and numbers: serializing cannot fail.
            kind => io::Error::other(format!("{kind:?}")),
        };
        self.io_error(source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn serialize(row: Row<'_>, headers: bool) -> String {
        let mut csv = csv::WriterBuilder::new()
            .has_headers(headers)
            .from_writer(vec![]);
        csv.serialize(row).unwrap();
        String::from_utf8(csv.into_inner().unwrap()).unwrap()
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
        let text = serialize(Row::new(&result, None), true);
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
        let text = serialize(Row::new(&result, Some("a.txt")), true);
        assert_eq!(
            text.lines().next().unwrap(),
            format!("file,{}", COLUMNS.join(","))
        );
    }

    #[test]
    fn malformed_rows_leave_the_searched_columns_empty() {
        let text = serialize(Row::new(&malformed(), None), false);
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
        let text = serialize(Row::new(&result, None), false);
        let expected = format!(
            "7,{},solved,{}9,3,12.3,ok,\n",
            ".".repeat(81),
            "1".repeat(80)
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn micros_round_to_one_decimal() {
        let micros = |ns| serialize_value(Micros(ns));
        assert_eq!(micros(0), "0.0");
        assert_eq!(micros(49), "0.0");
        assert_eq!(micros(50), "0.1");
        assert_eq!(micros(1_234_567), "1234.6");
    }

    fn serialize_value(value: impl Serialize) -> String {
        let mut csv = csv::WriterBuilder::new().from_writer(vec![]);
        csv.serialize([value]).unwrap();
        String::from_utf8(csv.into_inner().unwrap())
            .unwrap()
            .trim_end()
            .to_string()
    }
}
