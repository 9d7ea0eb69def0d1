//! Opening inputs (files, stdin, gzip) and the record iterator.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use encoding_rs_io::DecodeReaderBytesBuilder;

use super::batch::{RecordBatch, RecordStream};
use super::csv::CsvReader;
use super::encoding::{self, Sniffed};
use super::grid::{self, Detected, GridReader};
use super::gzip::GzipMembers;
use super::lines::LinesReader;
use super::solutions::{Given, SolutionsReader};
use super::{Column, Format, InputError, ReadOptions, Record};

/// Size of the buffer between the (decompressed) input and the reader.
const BUFFER: usize = 64 * 1024;

/// Most bytes looked at before the first record to tell a grid file.
const SNIFF: usize = 64 * 1024;

/// The byte source behind an input.
type Source = Box<dyn BufRead + Send>;

/// Counts the raw bytes read from a source into a shared counter.
struct Counting<R> {
    inner: R,
    consumed: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// An opened input, not yet read: a file, stdin or a gzip file.
pub struct Input {
    name: String,
    size: Option<u64>,
    consumed: Arc<AtomicU64>,
    source: Source,
    /// Decompressed by name (`.gz`): not looked at for gzip content again.
    gzip: bool,
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input")
            .field("name", &self.name)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// Opens an input: `-` is stdin; a name ending `.gz` (any case) is
/// decompressed, every member of a multi-member gzip file; anything else is
/// read as it is, unless it starts with the gzip magic bytes (`1F 8B`),
/// found when [`Input::records`] starts reading.
///
/// Nothing is read yet, but a missing or unreadable file, or a directory,
/// fails here, so every input can be checked before work starts.
///
/// # Errors
/// [`InputError::Io`] naming the path and the cause.
pub fn open(path: &str) -> Result<Input, InputError> {
    if path == "-" {
        return Ok(Input::from_reader("-", io::stdin()));
    }
    let err = |source| InputError::io(path, source);
    let file = File::open(path).map_err(err)?;
    let meta = file.metadata().map_err(err)?;
    if meta.is_dir() {
        return Err(err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a directory",
        )));
    }
    let size = meta.is_file().then_some(meta.len());
    let consumed = Arc::new(AtomicU64::new(0));
    let counting = Counting {
        inner: file,
        consumed: Arc::clone(&consumed),
    };
    let gzip = path.to_ascii_lowercase().ends_with(".gz");
    let source: Source = if gzip {
        Box::new(BufReader::with_capacity(
            BUFFER,
            GzipMembers::new(BufReader::with_capacity(BUFFER, counting), path),
        ))
    } else {
        Box::new(BufReader::with_capacity(BUFFER, counting))
    };
    Ok(Input {
        name: path.to_string(),
        size,
        consumed,
        source,
        gzip,
    })
}

impl Input {
    /// An input read from any reader, as it is (no decompression), named
    /// `name` in records' errors and for [`Format::Auto`].
    pub fn from_reader(name: &str, reader: impl Read + Send + 'static) -> Input {
        let consumed = Arc::new(AtomicU64::new(0));
        let counting = Counting {
            inner: reader,
            consumed: Arc::clone(&consumed),
        };
        Input {
            name: name.to_string(),
            size: None,
            consumed,
            source: Box::new(BufReader::with_capacity(BUFFER, counting)),
            gzip: false,
        }
    }

    /// The input's name as given (`-` for stdin).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The raw length in bytes of a regular file (compressed length for
    /// gzip); `None` for stdin, pipes and other non-files.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// A shared counter of the raw bytes read so far (compressed bytes for
    /// gzip), to set against [`Input::size`] for progress. Updated as the
    /// records are read, from the reading thread.
    pub fn consumed(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.consumed)
    }

    /// The layout [`Format::Auto`] means for this input before looking at
    /// its content: `csv` for names ending `.csv` or `.csv.gz`
    /// (case-insensitive), `lines` otherwise (stdin included).
    pub fn format_by_name(&self) -> Format {
        format_by_name(&self.name)
    }

    /// The name and the bytes to read: decompressed when the content is
    /// gzip though the name does not say so, and decoded to UTF-8 when it is
    /// UTF-16 with a byte-order mark. Looks only at the first chunk one read
    /// returns (see [`super::encoding`]), so a slow stdin is not held up.
    ///
    /// # Errors
    /// [`InputError::NotText`] for binary data or UTF-16 without a mark;
    /// [`InputError::Io`] when the first read fails.
    fn decoded(self) -> Result<(String, Source), InputError> {
        let Input {
            name,
            mut source,
            gzip,
            ..
        } = self;
        let io_err = |e| InputError::io(&name, e);
        if !gzip {
            let head = fill(&mut source).map_err(io_err)?;
            if head.len() < 2 && !head.is_empty() {
                // A first read of one byte: read one more to see the magic.
                let magic = peek(&mut source, 2).map_err(io_err)?;
                let is_gzip = magic == [0x1F, 0x8B];
                source = Box::new(Cursor::new(magic).chain(source));
                if is_gzip {
                    source = gunzip(source, &name);
                }
            } else if head.starts_with(&[0x1F, 0x8B]) {
                source = gunzip(source, &name);
            }
        }
        let what = match encoding::sniff(fill(&mut source).map_err(io_err)?) {
            Sniffed::Text => return Ok((name, source)),
            Sniffed::Utf16Bom => {
                let utf8 = DecodeReaderBytesBuilder::new()
                    .strip_bom(true)
                    .build(source);
                return Ok((name, Box::new(BufReader::with_capacity(BUFFER, utf8))));
            }
            Sniffed::Utf16 { big_endian } => format!(
                "UTF-16{} text without a byte-order mark; save it as UTF-8 \
                 (or as UTF-16 with a byte-order mark, which is decoded)",
                if big_endian { "BE" } else { "LE" }
            ),
            Sniffed::Binary { offset } => {
                format!("binary data (a NUL byte at offset {offset})")
            }
        };
        Err(InputError::NotText {
            path: name.into(),
            what,
        })
    }

    /// Starts reading records.
    ///
    /// This reads the first two bytes, to decompress an input that is gzip
    /// by content though not by name. Under [`Format::Auto`] it reads the
    /// first lines (up to the first two that hold cells, at most 64 KiB) to
    /// refuse a multi-line grid file. With a [`Column::Name`] it reads up to
    /// the first record, so that a column no header names fails here,
    /// before any output is made. It also opens [`ReadOptions::solutions`].
    ///
    /// # Errors
    /// [`InputError::GridFile`] for a grid file under [`Format::Auto`];
    /// [`InputError::ColumnZero`]; [`InputError::UnknownColumn`] and
    /// [`InputError::NoHeader`] for a `--column NAME` the input lacks;
    /// [`InputError::Io`] for a read error on the first lines, or when the
    /// solutions file cannot be opened.
    pub fn records(self, options: &ReadOptions) -> Result<Records, InputError> {
        if options.column == Some(Column::Index(0)) {
            return Err(InputError::ColumnZero);
        }
        let solutions = match &options.solutions {
            Some(path) => {
                let input = open(&path.to_string_lossy())?;
                let csv = input.format_by_name() == Format::Csv;
                let (_, source) = input.decoded()?;
                Some(SolutionsReader::new(source, csv, path))
            }
            None => None,
        };
        let (name, mut source) = self.decoded()?;
        let format = match options.format {
            Format::Auto => {
                let (prefix, detected) =
                    sniff(&mut source).map_err(|e| InputError::io(&name, e))?;
                source = Box::new(Cursor::new(prefix).chain(source));
                if let Detected::Grid { line, side } = detected {
                    return Err(InputError::GridFile {
                        path: name.into(),
                        line,
                        side,
                    });
                }
                format_by_name(&name)
            }
            format => format,
        };
        let column = options.column.clone();
        let reader = match format {
            Format::Csv => Reader::Csv(CsvReader::new(source, column, name.clone())),
            Format::Grid => Reader::Grid(GridReader::new(source, name.clone())),
            Format::Lines | Format::Auto => {
                Reader::Lines(LinesReader::new(source, column, name.clone()))
            }
        };
        let mut records = Records {
            format: match format {
                Format::Auto => Format::Lines,
                format => format,
            },
            reader,
            solutions,
            solutions_name: options.solutions.clone().unwrap_or_default(),
            name,
            done: false,
            peeked: None,
        };
        if let Some(Column::Name(_)) = options.column {
            // The header is read now: a bad name is an error before any
            // output exists.
            match records.next_raw() {
                Some(Err(e)) => return Err(e),
                first => records.peeked = Some(first),
            }
        }
        Ok(records)
    }
}

fn format_by_name(name: &str) -> Format {
    let name = name.to_ascii_lowercase();
    if name.ends_with(".csv") || name.ends_with(".csv.gz") {
        Format::Csv
    } else {
        Format::Lines
    }
}

/// The bytes one read of `source` gives, not consumed (empty at its end).
fn fill(source: &mut Source) -> io::Result<&[u8]> {
    loop {
        match source.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // Re-borrowed: the loop's borrow ends at the `continue` above.
            Ok(_) => return source.fill_buf(),
            Err(e) => return Err(e),
        }
    }
}

/// `source`, gzip-decompressed (every member).
fn gunzip(source: Source, name: &str) -> Source {
    Box::new(BufReader::with_capacity(
        BUFFER,
        GzipMembers::new(source, name),
    ))
}

/// Reads the first `n` bytes of `source` (fewer at its end), to be read
/// again.
fn peek(source: &mut Source, n: usize) -> io::Result<Vec<u8>> {
    let mut prefix = Vec::with_capacity(n);
    while prefix.len() < n {
        let chunk = match source.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        let take = chunk.len().min(n - prefix.len());
        prefix.extend_from_slice(&chunk[..take]);
        source.consume(take);
    }
    Ok(prefix)
}

/// Reads the start of `source` until it can tell whether it is a grid file.
/// Returns the bytes read (to be read again) and the verdict.
fn sniff(source: &mut Source) -> io::Result<(Vec<u8>, Detected)> {
    let mut prefix = Vec::new();
    loop {
        let chunk = match source.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let eof = chunk.is_empty();
        prefix.extend_from_slice(chunk);
        let n = chunk.len();
        source.consume(n);
        match grid::detect(&prefix, eof) {
            Detected::Undecided if !eof && prefix.len() < SNIFF => continue,
            Detected::Undecided => return Ok((prefix, Detected::NotGrid)),
            verdict => return Ok((prefix, verdict)),
        }
    }
}

enum Reader {
    Lines(LinesReader<Source>),
    Csv(CsvReader<Source>),
    Grid(GridReader<Source>),
}

/// The records of one input, in order: an iterator of
/// `Result<Record, InputError>` that ends after the first error.
///
/// Memory stays bounded whatever the input: one record buffer of at most
/// [`super::MAX_RECORD`] bytes and a 64 KiB read buffer.
pub struct Records {
    format: Format,
    reader: Reader,
    solutions: Option<SolutionsReader<Source>>,
    solutions_name: PathBuf,
    name: String,
    done: bool,
    /// The first raw record, read ahead by [`Input::records`].
    peeked: Option<Option<Result<Record, InputError>>>,
}

impl std::fmt::Debug for Records {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Records {
    /// The layout being read: `lines`, `csv` or `grid` (never `auto`).
    pub fn format(&self) -> Format {
        self.format
    }

    /// The input's name, as given to [`open`].
    pub fn name(&self) -> &str {
        &self.name
    }

    fn next_raw(&mut self) -> Option<Result<Record, InputError>> {
        if let Some(first) = self.peeked.take() {
            return first;
        }
        match &mut self.reader {
            Reader::Lines(r) => r.next_record(),
            Reader::Csv(r) => r.next_record(),
            Reader::Grid(r) => r.next_record(),
        }
    }

    /// Pairs `record` with the next record of the solutions file.
    fn pair(&mut self, mut record: Record) -> Result<Record, InputError> {
        let Some(solutions) = &mut self.solutions else {
            return Ok(record);
        };
        match solutions.next_given() {
            None => Err(InputError::SolutionsShort {
                solutions: self.solutions_name.clone(),
                path: self.name.clone().into(),
                line: record.line,
            }),
            Some(Err(e)) => Err(e),
            Some(Ok(given)) => {
                match given.solution {
                    None => record.solution = None,
                    Some(Ok(grid)) => record.solution = Some(grid),
                    Some(Err(why)) => {
                        record.solution = None;
                        record.solution_error = Some(why);
                    }
                }
                Ok(record)
            }
        }
    }

    /// At the end of the input: the solutions file must end too (blank
    /// lines may follow its last solution).
    fn check_solutions_end(&mut self) -> Option<InputError> {
        let solutions = self.solutions.as_mut()?;
        loop {
            match solutions.next_given()? {
                Err(e) => return Some(e),
                Ok(Given { solution: None, .. }) => continue,
                Ok(extra) => {
                    return Some(InputError::SolutionsLong {
                        solutions: self.solutions_name.clone(),
                        path: self.name.clone().into(),
                        line: extra.line,
                    })
                }
            }
        }
    }
}

impl Iterator for Records {
    type Item = Result<Record, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = match self.next_raw() {
            Some(Ok(record)) => self.pair(record),
            Some(Err(e)) => Err(e),
            None => {
                self.done = true;
                return self.check_solutions_end().map(Err);
            }
        };
        if item.is_err() {
            self.done = true;
        }
        Some(item)
    }
}

impl std::iter::FusedIterator for Records {}

impl RecordStream for Records {
    /// Cuts records raw once the layout is settled (lines and CSV without
    /// `--solutions`); parses them here otherwise.
    fn fill(&mut self, batch: &mut RecordBatch, max: usize) -> Result<bool, InputError> {
        while batch.len() < max {
            if self.done {
                return Ok(false);
            }
            let item = if self.solutions.is_some() || self.peeked.is_some() {
                None
            } else {
                match &mut self.reader {
                    Reader::Lines(r) => Some(r.next_item(batch)),
                    Reader::Csv(r) => Some(r.next_item(batch)),
                    Reader::Grid(_) => None,
                }
            };
            let item = match item {
                Some(item) => item,
                None => self
                    .next()
                    .map(|record| record.map(|r| batch.push_parsed(r))),
            };
            match item {
                None => {
                    self.done = true;
                    return Ok(false);
                }
                Some(Ok(())) => {}
                Some(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
            }
        }
        Ok(true)
    }
}
