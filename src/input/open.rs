//! Opening inputs (files, stdin, gzip, zstd) and the record iterator.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use encoding_rs_io::DecodeReaderBytesBuilder;

use super::csv_reader::CsvReader;
use super::direct::{DirectReader, Sizes};
use super::encoding::{self, Sniffed};
use super::grid::{self, Detected, GridReader};
use super::gzip::GzipMembers;
use super::jsonl_reader::JsonlReader;
use super::keep::KeptTypes;
use super::lines_reader::LinesReader;
use super::parquet_reader::ParquetReader;
use super::record_batch::{map_kept, KeptMap, RecordBatch, RecordStream};
use super::sized::SizeOptions;
use super::solutions::{Given, SolutionsReader};
use super::{Column, Delimiter, Format, InputError, Keep, KeyScan, ReadOptions, Record};
use crate::kept::{KeptColumn, KeptValue};

/// Size of the buffer between the (decompressed) input and the reader.
const BUFFER: usize = 64 * 1024;

/// Most bytes looked at before the first record to tell a grid file.
const SNIFF: usize = 64 * 1024;

/// The byte source behind an input.
pub type Source = Box<dyn BufRead + Send>;

/// The zstd frame's magic bytes.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Parquet's magic bytes, at the start and the end of the file.
const PARQUET_MAGIC: &[u8; 4] = b"PAR1";

/// How an input is compressed, as far as its name says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    fn by_name(name: &str) -> Compression {
        let name = name.to_ascii_lowercase();
        if name.ends_with(".gz") {
            Compression::Gzip
        } else if name.ends_with(".zst") {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// `source` decompressed (as it is for `None`).
    fn decode(self, source: impl BufRead + Send + 'static, name: &str) -> io::Result<Source> {
        Ok(match self {
            Compression::None => Box::new(source),
            Compression::Gzip => Box::new(BufReader::with_capacity(
                BUFFER,
                GzipMembers::new(source, name),
            )),
            Compression::Zstd => Box::new(BufReader::with_capacity(
                BUFFER,
                zstd::stream::read::Decoder::with_buffer(source)?,
            )),
        })
    }
}

/// Counts the raw bytes read from a source into a shared counter.
struct Counting<R> {
    inner: R,
    consumed: Arc<AtomicU64>,
}

impl<R: Read> Counting<R> {
    /// `inner` read through the input's buffer, its bytes counted into
    /// `consumed`.
    fn buffered(inner: R, consumed: &Arc<AtomicU64>) -> BufReader<Counting<R>> {
        let consumed = Arc::clone(consumed);
        BufReader::with_capacity(BUFFER, Counting { inner, consumed })
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// An opened input, not yet read: a file, stdin, or a gzip or zstd file.
pub struct Input {
    name: String,
    size: Option<u64>,
    consumed: Arc<AtomicU64>,
    source: Source,
    /// Decompressed by name (`.gz`, `.zst`): not looked at for compressed
    /// content again.
    compression: Compression,
    /// The regular file behind an input not compressed by name, for a
    /// reader that seeks (Parquet).
    file: Option<File>,
    /// The path of a regular file (compressed or not), which can be read
    /// again from its start (a JSON Lines input scanned for its keys).
    path: Option<PathBuf>,
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
/// decompressed, every member of a multi-member gzip file, and so is one
/// ending `.zst` (every zstd frame); anything else is read as it is, unless
/// it starts with the gzip magic bytes (`1F 8B`) or zstd's (`28 B5 2F FD`),
/// found when [`Input::records`] starts reading.
///
/// Nothing is read yet, but a missing or unreadable file, or a directory,
/// fails here, so every input can be checked before work starts.
///
/// # Errors
/// [`InputError::Io`] naming the path and the cause.
pub fn open(path: &str) -> Result<Input, InputError> {
    open_path(Path::new(path))
}

/// Whether every input of `paths` is a regular file, which a check before
/// the run can read once more (stdin and pipes can be read only once).
pub fn read_twice(paths: &[PathBuf]) -> bool {
    paths
        .iter()
        .all(|path| std::fs::metadata(path).is_ok_and(|meta| meta.is_file()))
}

/// [`open`] for any name the operating system accepts, UTF-8 or not: the
/// input is named by [`super::input_name`] (`\u{FFFD}` for bytes that are
/// not UTF-8) in records, messages and the results' `file` column.
///
/// # Errors
/// As [`open`].
pub fn open_path(path: &Path) -> Result<Input, InputError> {
    if path.as_os_str() == "-" {
        return Ok(Input::from_reader("-", io::stdin()));
    }
    let name = super::input_name(path);
    let name = name.as_str();
    let err = |source| InputError::io(name, source);
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
    let compression = Compression::by_name(name);
    let seekable = match compression {
        Compression::None if meta.is_file() => file.try_clone().ok(),
        _ => None,
    };
    let source = match size {
        // A large file is read past the page cache (see `super::direct`).
        Some(len) if compression == Compression::None => {
            let direct = DirectReader::new(file, path, len, Sizes::DEFAULT);
            compression.decode(Counting::buffered(direct, &consumed), name)
        }
        _ => compression.decode(Counting::buffered(file, &consumed), name),
    }
    .map_err(err)?;
    Ok(Input {
        name: name.to_string(),
        size,
        consumed,
        source,
        compression,
        file: seekable,
        path: meta.is_file().then(|| path.to_path_buf()),
    })
}

impl Input {
    /// An input read from any reader, as it is (no decompression), named
    /// `name` in records' errors and for [`Format::Auto`].
    pub fn from_reader(name: &str, reader: impl Read + Send + 'static) -> Input {
        let consumed = Arc::new(AtomicU64::new(0));
        Input {
            name: name.to_string(),
            size: None,
            source: Box::new(Counting::buffered(reader, &consumed)),
            consumed,
            compression: Compression::None,
            file: None,
            path: None,
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
    /// its content (case-insensitive, past a `.gz` or `.zst` ending):
    /// `parquet` for `.parquet`, `jsonl` for `.jsonl` or `.ndjson`, `csv` for
    /// `.csv`, and for `.tsv` and `.tab` (CSV with a tab between fields),
    /// `lines` otherwise (stdin included).
    pub fn format_by_name(&self) -> Format {
        format_by_name(&self.name)
    }

    /// The name and the bytes to read: decompressed when the content is
    /// gzip or zstd though the name does not say so, and decoded to UTF-8
    /// when it is UTF-16 with a byte-order mark. Looks only at the first
    /// chunk one read returns (see [`super::encoding`]), so a slow stdin is
    /// not held up; Parquet (`PAR1`) is binary and is not looked at as text.
    /// The file is kept when nothing was decompressed or decoded.
    ///
    /// With `judge` false the bytes are not judged text or binary (nor
    /// decoded from UTF-16): see [`open_table`].
    ///
    /// # Errors
    /// [`InputError::NotText`] for binary data or UTF-16 without a mark;
    /// [`InputError::Io`] when the first read fails.
    fn decoded(self, judge: bool) -> Result<(String, Source, Option<File>), InputError> {
        let Input {
            name,
            mut source,
            compression,
            mut file,
            ..
        } = self;
        let io_err = |e| InputError::io(&name, e);
        if compression == Compression::None {
            let magic = head(&mut source).map_err(io_err)?;
            let by_content = if magic.starts_with(&[0x1F, 0x8B]) {
                Compression::Gzip
            } else if magic == ZSTD_MAGIC {
                Compression::Zstd
            } else {
                Compression::None
            };
            if by_content != Compression::None {
                file = None;
                source = by_content.decode(source, &name).map_err(io_err)?;
            }
        }
        if !judge || head(&mut source).map_err(io_err)? == PARQUET_MAGIC {
            return Ok((name, source, file));
        }
        let what = match encoding::sniff(fill(&mut source).map_err(io_err)?) {
            Sniffed::Text => return Ok((name, source, file)),
            Sniffed::Utf16Bom => {
                let utf8 = DecodeReaderBytesBuilder::new()
                    .strip_bom(true)
                    .build(source);
                return Ok((name, Box::new(BufReader::with_capacity(BUFFER, utf8)), None));
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
    /// This reads the first four bytes, to decompress an input that is gzip
    /// or zstd by content though not by name, and to find Parquet and JSON
    /// Lines by content under [`Format::Auto`]. A Parquet input's footer is
    /// read here (a stream is spooled to a temporary file first). Under [`Format::Auto`] it reads the
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
    /// solutions file cannot be opened; [`InputError::Parquet`] for a
    /// Parquet file whose footer cannot be read.
    pub fn records(self, options: &ReadOptions) -> Result<Records, InputError> {
        if options.column == Some(Column::Index(0)) {
            return Err(InputError::ColumnZero);
        }
        let solutions = match &options.solutions {
            Some(path) => {
                // A `.tsv` of solutions is read as text lines, as before:
                // text lines split a solution from what follows it on tabs
                // too. A `.csv` one's delimiter is found as an input's is
                // (`id;solution` from a spreadsheet set to a European
                // locale), unless `--delimiter` says.
                let csv = csv_name(&super::input_name(path));
                let wanted = "--solutions reads solutions as text lines, or CSV for a .csv name";
                let (name, mut source) = open_text(path, wanted)?;
                let first = head(&mut source).map_err(|e| InputError::io(&name, e))?;
                if format_by_name(&name) == Format::Jsonl || first.starts_with(b"{") {
                    return Err(InputError::WrongKind {
                        path: name.into(),
                        found: "JSON Lines".into(),
                        wanted: wanted.into(),
                    });
                }
                let reader = if csv {
                    let delimiter = match options.delimiter {
                        Delimiter::Byte(b) => b,
                        Delimiter::Auto => {
                            let (prefix, delimiter) = sniff_delimiter(&mut source)
                                .map_err(|e| InputError::io(&name, e))?;
                            source = Box::new(Cursor::new(prefix).chain(source));
                            delimiter
                        }
                    };
                    SolutionsReader::new(source, csv, path).with_delimiter(delimiter)
                } else {
                    SolutionsReader::new(source, csv, path)
                };
                Some(reader)
            }
            None => None,
        };
        let consumed = self.consumed();
        let path = self.path.clone();
        let (name, mut source, file) = self.decoded(true)?;
        let io_error = |e| InputError::io(&name, e);
        let head = head(&mut source).map_err(io_error)?;
        if head == PARQUET_MAGIC && !matches!(options.format, Format::Auto | Format::Parquet) {
            return Err(InputError::WrongKind {
                path: name.into(),
                found: "a Parquet file (it starts with PAR1)".into(),
                wanted: format!(
                    "--format {} reads text; give --format parquet, or leave --format out",
                    options.format.name()
                ),
            });
        }
        // Tab-separated by content (see [`starts_tab_separated`]).
        let mut tabbed = false;
        let format = match options.format {
            Format::Auto if head == PARQUET_MAGIC => Format::Parquet,
            Format::Auto if format_by_name(&name) == Format::Parquet => Format::Parquet,
            Format::Auto if format_by_name(&name) == Format::Jsonl || head.starts_with(b"{") => {
                Format::Jsonl
            }
            Format::Auto => {
                let (prefix, detected) =
                    sniff(&mut source).map_err(|e| InputError::io(&name, e))?;
                // A name that says no format: stdin (`-`), `.txt`, none.
                let unnamed = format_by_name(&name) == Format::Lines;
                let sizes = &options.sizes;
                tabbed = unnamed && starts_tab_separated(&prefix, sizes);
                let as_csv = unnamed
                    && (tabbed
                        || starts_quoted_csv(&prefix, sizes)
                        || first_lines(&prefix, sizes)
                            .next()
                            .is_some_and(quoted_spaced)
                        || starts_numbered_header(&prefix, sizes));
                source = Box::new(Cursor::new(prefix).chain(source));
                if let Detected::Grid { line, side } = detected {
                    return Err(InputError::GridFile {
                        path: name.into(),
                        line,
                        side,
                    });
                }
                if as_csv {
                    Format::Csv
                } else {
                    format_by_name(&name)
                }
            }
            format => format,
        };
        let column = options.column.clone();
        let steady = file.is_some() && solutions.is_none() && format != Format::Parquet;
        let reader = match format {
            Format::Csv => {
                let delimiter = match options.delimiter {
                    Delimiter::Byte(b) => b,
                    Delimiter::Auto if tabbed || tab_name(&name) => b'\t',
                    Delimiter::Auto => {
                        let (prefix, delimiter) = sniff_delimiter(&mut source).map_err(io_error)?;
                        source = Box::new(Cursor::new(prefix).chain(source));
                        delimiter
                    }
                };
                Reader::Csv(Box::new(
                    CsvReader::new(
                        source,
                        column,
                        name.clone(),
                        delimiter,
                        options.keep.clone(),
                    )
                    .with_sizes(options.sizes.clone()),
                ))
            }
            Format::Grid => {
                if !options.keep.is_nothing() {
                    return Err(InputError::NotApplicable(format!(
                        "{name}: --keep and --keep-all copy input columns, and grids (--format \
                         grid) have none: leave them out for this input"
                    )));
                }
                Reader::Grid(
                    GridReader::new(source, name.clone()).with_sizes(options.sizes.clone()),
                )
            }
            Format::Jsonl => {
                let kept = jsonl_kept(&mut source, path.as_deref(), &name, options)?;
                Reader::Jsonl(
                    JsonlReader::new(source, column, name.clone(), kept)
                        .with_sizes(options.sizes.clone()),
                )
            }
            Format::Parquet => {
                let (file, consumed) = match file {
                    Some(file) => (file, Some(consumed)),
                    // Parquet's footer is at the end: a pipe or a
                    // decompressed stream is spooled to a temporary file.
                    None => (spool(&mut source).map_err(io_error)?, None),
                };
                Reader::Parquet(Box::new(
                    ParquetReader::new(
                        file,
                        column.as_ref(),
                        &options.keep,
                        name.clone(),
                        consumed,
                    )?
                    .with_sizes(options.sizes.clone()),
                ))
            }
            Format::Lines | Format::Auto => Reader::Lines({
                let reader = LinesReader::new(source, column, name.clone(), options.keep.clone())
                    .with_sizes(options.sizes.clone());
                if options.format == Format::Lines {
                    reader.without_headers()
                } else {
                    reader
                }
            }),
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
            kept: 0,
            kept_map: None,
            kept_types: None,
            steady,
        };
        if options.column.is_some() || !options.keep.is_nothing() {
            // The header is read now: a bad name is an error before any
            // output exists, and the kept columns are known.
            match records.next_raw() {
                Some(Err(e)) => return Err(e),
                first => records.peeked = Some(first),
            }
        }
        records.kept = records.kept_columns().len();
        Ok(records)
    }
}

/// The kept columns of a JSON Lines input. The first object's keys, as
/// text, when they hold every key `--keep` names and the types do not
/// matter (text output writes each value as it is); else the keys and
/// types of the whole input ([`KeyScan`]): for `--keep-all`, a key first
/// seen in a later record, and Parquet output
/// ([`ReadOptions::kept_types`]). A regular file is scanned by reading it
/// again from its start; a stream is spooled to an anonymous temporary
/// file first, and `source` then reads that.
///
/// # Errors
/// [`InputError::UnknownColumn`] for a key no object has; read errors.
fn jsonl_kept(
    source: &mut Source,
    path: Option<&Path>,
    name: &str,
    options: &ReadOptions,
) -> Result<Vec<KeptColumn>, InputError> {
    let keep = &options.keep;
    if keep.is_nothing() {
        return Ok(Vec::new());
    }
    let io_error = |e| InputError::io(name, e);
    let (prefix, first) = read_until(source, |prefix, eof| {
        let end = memchr::memchr(b'\n', prefix);
        if end.is_none() && !eof && prefix.len() < SNIFF {
            return None;
        }
        Some(first_keys(prefix))
    })
    .map_err(io_error)?;
    let rest = std::mem::replace(source, Box::new(io::empty()));
    *source = Box::new(Cursor::new(prefix).chain(rest));
    if !matches!(keep, Keep::All) && !options.kept_types {
        if let Some(keys) = first.as_deref() {
            if let Ok(at) = keep.resolve(keys, name) {
                return Ok(at.into_iter().map(|i| KeptColumn::text(&keys[i])).collect());
            }
        }
    }
    let scan = match path {
        Some(path) => {
            let (_, again, _) = open_path(path)?.decoded(true)?;
            KeyScan::scan(again, name)?
        }
        None => {
            let file = spool(source).map_err(io_error)?;
            let scan = KeyScan::scan(BufReader::new(file.try_clone().map_err(io_error)?), name)?;
            let mut file = file;
            io::Seek::seek(&mut file, io::SeekFrom::Start(0)).map_err(io_error)?;
            *source = Box::new(BufReader::with_capacity(BUFFER, file));
            scan
        }
    };
    scan.kept(keep, name)
}

/// The keys of the first object among the first lines of `prefix`, when
/// the first line that is not blank or a comment holds one.
fn first_keys(prefix: &[u8]) -> Option<Vec<String>> {
    let line = prefix
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .find(|l| !super::lines::is_skipped(l))?;
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    match serde_json::from_slice::<super::jsonl::Line>(line) {
        Ok(super::jsonl::Line::Object(entries)) => {
            Some(entries.into_iter().map(|(key, _)| key).collect())
        }
        _ => None,
    }
}

/// Opens a file that a subcommand reads as text of its own kind (a results
/// CSV, a summary, solutions) as the inputs are opened: gzip and zstd
/// decompressed (by name or content), UTF-16 with a byte-order mark
/// decoded, binary data refused. Parquet is refused by name: `wanted` says
/// what the reader reads instead. Returns the file's name in messages and
/// its text.
///
/// # Errors
/// [`InputError::Io`] when it cannot be read; [`InputError::NotText`] for
/// binary data; [`InputError::WrongKind`] for Parquet.
pub fn open_text(path: &Path, wanted: &str) -> Result<(String, Source), InputError> {
    open_kind(path, wanted, true)
}

/// Opens a table sudoku-batch writes (a results CSV, for `merge` and
/// `check --baseline`) as [`open_text`] does, but without judging its
/// bytes text or binary: kept values are copied as the input holds them,
/// control bytes too, so a results file may look like binary data by the
/// rule for inputs (a header-only shard whose kept column names hold a
/// few). Its header tells instead.
///
/// # Errors
/// [`InputError::Io`] when it cannot be read; [`InputError::WrongKind`]
/// for Parquet.
pub fn open_table(path: &Path, wanted: &str) -> Result<(String, Source), InputError> {
    open_kind(path, wanted, false)
}

fn open_kind(path: &Path, wanted: &str, judge: bool) -> Result<(String, Source), InputError> {
    let (name, mut source, _) = open_path(path)?.decoded(judge)?;
    if head(&mut source).map_err(|e| InputError::io(&name, e))? == PARQUET_MAGIC {
        return Err(InputError::WrongKind {
            path: name.into(),
            found: "a Parquet file".into(),
            wanted: wanted.into(),
        });
    }
    Ok((name, source))
}

/// A results file [`open_results`] opened.
pub enum Results {
    /// CSV or JSON Lines: the bytes to read, decompressed.
    Text(Source),
    /// A plain Parquet file (by content), read by its footer at its end.
    Parquet(File),
}

/// Opens a results file as [`open_table`] does, but gives a plain Parquet
/// file (one that starts with `PAR1`) as its file, to be read as Parquet
/// results ([`crate::output::read_back::RecordReader::parquet`]).
///
/// # Errors
/// [`InputError::Io`] when it cannot be read; [`InputError::WrongKind`]
/// for Parquet that is compressed or not a file (stdin, a pipe): its
/// footer, at its end, is read first, so it is read from a plain file.
pub fn open_results(path: &Path, wanted: &str) -> Result<(String, Results), InputError> {
    let (name, mut source, file) = open_path(path)?.decoded(false)?;
    if head(&mut source).map_err(|e| InputError::io(&name, e))? != PARQUET_MAGIC {
        return Ok((name, Results::Text(source)));
    }
    match file.filter(|file| file.metadata().is_ok_and(|m| m.is_file())) {
        Some(file) => Ok((name, Results::Parquet(file))),
        None => Err(InputError::WrongKind {
            path: name.into(),
            found: "Parquet that is compressed or not a plain file (stdin, a pipe)".into(),
            wanted: format!("{wanted}; Parquet results are read from a plain file"),
        }),
    }
}

/// True when a name says JSON Lines (`.jsonl`, `.ndjson`, past a `.gz` or
/// `.zst` ending).
pub fn jsonl_name(name: &str) -> bool {
    format_by_name(name) == Format::Jsonl
}

/// The name's ending that says its format, lowercased: past a `.gz` or
/// `.zst` ending, from the last `.` on (empty for none).
fn format_ending(name: &str) -> String {
    let name = name.to_ascii_lowercase();
    let stem = name
        .strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".zst"))
        .unwrap_or(&name);
    stem.rfind('.')
        .map_or_else(String::new, |dot| stem[dot..].to_string())
}

/// True when a name says tab-separated values (`.tsv`, `.tab`, any case,
/// past a `.gz` or `.zst` ending): CSV whose delimiter is a tab.
fn tab_name(name: &str) -> bool {
    matches!(format_ending(name).as_str(), ".tsv" | ".tab")
}

/// True when a name says comma-separated values (`.csv`, past a `.gz` or
/// `.zst` ending).
pub(super) fn csv_name(name: &str) -> bool {
    format_ending(name) == ".csv"
}

fn format_by_name(name: &str) -> Format {
    match format_ending(name).as_str() {
        ".parquet" => Format::Parquet,
        ".jsonl" | ".ndjson" => Format::Jsonl,
        ".csv" | ".tsv" | ".tab" => Format::Csv,
        _ => Format::Lines,
    }
}

/// Copies the rest of `source` into an anonymous temporary file, rewound.
fn spool(source: &mut Source) -> io::Result<File> {
    use std::io::{Seek, SeekFrom};
    let mut file = tempfile::tempfile()?;
    io::copy(source, &mut file)?;
    file.seek(SeekFrom::Start(0))?;
    Ok(file)
}

/// The CSV separator the first line implies: a tab when the first of
/// `,`, `;`, tab and `|` outside quotes is a tab (a tab-separated file
/// whose header or first record has a comma in a later value: `id<TAB>
/// note, more`), else `,` when it holds one, else the first of `;`, tab
/// and `|` it holds, else `,`. Returns the bytes read (to be read again)
/// and the separator.
fn sniff_delimiter(source: &mut Source) -> io::Result<(Vec<u8>, u8)> {
    read_until(source, |prefix, eof| {
        let end = memchr::memchr2(b'\n', b'\r', prefix);
        if end.is_none() && !eof && prefix.len() < SNIFF {
            return None;
        }
        let line = &prefix[..end.unwrap_or(prefix.len())];
        Some(if first_separator(line) == Some(b'\t') {
            b'\t'
        } else if quoted_spaced(line) {
            b' '
        } else if line.contains(&b',') {
            b','
        } else {
            [b';', b'\t', b'|']
                .into_iter()
                .find(|d| line.contains(d))
                .unwrap_or(b',')
        })
    })
}

/// True for a line of two or more values in double quotes, each after
/// one space (`"puzzle" "solution"`): the header R's `write.table` writes
/// by default (`sep = " "`, `quote = TRUE`). Such a file is read as CSV
/// separated by spaces, its quotes taken off as CSV's are; as text lines
/// every puzzle was malformed for its quote.
fn quoted_spaced(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut values = 0;
    for value in line.split(|&b| b == b' ') {
        let inner = value
            .strip_prefix(b"\"")
            .and_then(|v| v.strip_suffix(b"\""));
        if inner.is_none_or(|inner| inner.contains(&b'"')) {
            return false;
        }
        values += 1;
    }
    values >= 2
}

/// The first of `,`, `;`, tab and `|` in `line` outside double quotes.
fn first_separator(line: &[u8]) -> Option<u8> {
    let mut quoted = false;
    line.iter().copied().find(|&b| {
        if b == b'"' {
            quoted = !quoted;
        }
        !quoted && matches!(b, b',' | b';' | b'\t' | b'|')
    })
}

/// The lines of `prefix`, the start of an input whose name says no format
/// (stdin, `.txt`, none), that the look at its layout judges: those its
/// text lines reader reads (a header or a record), not blank lines and
/// comments. A `#` line counts when it holds a record (`#2,<puzzle>`:
/// [`super::lines::skipped`]) or, before the first record, is shaped like
/// a header (`#<TAB>quizzes<TAB>solutions`: [`super::lines::hash_header`]),
/// so that the same file gives the same rows from stdin as under its own
/// name.
fn first_lines<'a>(prefix: &'a [u8], sizes: &'a SizeOptions) -> impl Iterator<Item = &'a [u8]> {
    let mut record = false;
    prefix.split(|&b| b == b'\n').filter(move |line| {
        let header = !record && super::lines::hash_header(line);
        let read = !super::lines::skipped(line, None, sizes);
        record |= read && !header;
        read || header
    })
}

/// True when `prefix`, the start of an input whose name says no format
/// (stdin, `.txt`, none), is tab-separated: its first line that is not
/// blank or a comment (a header, or the first record: [`first_lines`])
/// has a tab between its first field and the next, and no `,`, `;` or `|`
/// there (the rule of text lines, [`super::lines::FieldRule::of`]).
/// Excel's "Text (Tab delimited)" and "Unicode Text" exports are such
/// files.
///
/// Such an input is read as CSV with a tab delimiter, not as text lines:
/// a tab-separated value may hold spaces (`hello world`), which text
/// lines would keep whole too once tab is their delimiter, but Excel
/// also quotes a value that holds a line end or a quote (`"line1
/// line2"`, `"say ""hi"""`), which only CSV's rules read back as the one
/// value written; and a header naming the columns then chooses the puzzle
/// and solution columns by name, and a record with a field too many is
/// `malformed` rather than read with its columns shifted, as in a `.tsv`.
fn starts_tab_separated(prefix: &[u8], sizes: &SizeOptions) -> bool {
    first_lines(prefix, sizes)
        .next()
        .is_some_and(|line| super::lines::FieldRule::of(line) == super::lines::FieldRule::TAB)
}

/// Reads `source` a chunk at a time until `verdict` (given the bytes read so
/// far and whether the input ended) gives one. Returns the bytes read, to be
/// read again, and the verdict.
fn read_until<T>(
    source: &mut Source,
    mut verdict: impl FnMut(&[u8], bool) -> Option<T>,
) -> io::Result<(Vec<u8>, T)> {
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
        if let Some(verdict) = verdict(&prefix, eof) {
            return Ok((prefix, verdict));
        }
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

/// The first four bytes of `source` (fewer at its end), left to be read:
/// from the chunk one read gives when it holds them, else read and put
/// back in front of the rest.
fn head(source: &mut Source) -> io::Result<Vec<u8>> {
    let chunk = fill(source)?;
    if chunk.len() >= 4 || chunk.is_empty() {
        return Ok(chunk[..chunk.len().min(4)].to_vec());
    }
    let magic = peek(source, 4)?;
    let rest = std::mem::replace(source, Box::new(io::empty()));
    *source = Box::new(Cursor::new(magic.clone()).chain(rest));
    Ok(magic)
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

/// True when `prefix`, the start of an input whose name says no format
/// (stdin, `.txt`), is a CSV with quoted fields: one of its first two
/// lines that are not blank or comments ([`first_lines`]) is a CSV record
/// with a field in quotes ([`super::lines::quoted_csv`]). Such an input is
/// read as CSV, as the same file named `.csv` is: as text lines, a quoted
/// field's quotes and commas were read as part of the puzzle.
fn starts_quoted_csv(prefix: &[u8], sizes: &SizeOptions) -> bool {
    first_lines(prefix, sizes)
        .take(2)
        .any(super::lines::quoted_csv)
}

/// True when `prefix`, the start of an input whose name says no format,
/// begins with a CSV header whose names end in one grid's cells numbered
/// from 0 (`,0,1,...,80`, as pandas writes an array: see
/// [`super::csv::numbered_cells`]). Such an input is read as CSV, as the
/// file named `.csv` is: as text lines, its index and cells were 82
/// values.
fn starts_numbered_header(prefix: &[u8], sizes: &SizeOptions) -> bool {
    let Some(line) = first_lines(prefix, sizes).next() else {
        return false;
    };
    let names: Vec<String> = line
        .trim_ascii()
        .split(|&b| b == b',')
        .map(|name| String::from_utf8_lossy(name.trim_ascii()).into_owned())
        .collect();
    super::csv::numbered_cells(&names).is_some()
}

/// Reads the start of `source` until it can tell whether it is a grid file.
/// Returns the bytes read (to be read again) and the verdict.
fn sniff(source: &mut Source) -> io::Result<(Vec<u8>, Detected)> {
    read_until(source, |prefix, eof| match grid::detect(prefix, eof) {
        Detected::Undecided if !eof && prefix.len() < SNIFF => None,
        Detected::Undecided => Some(Detected::NotGrid),
        verdict => Some(verdict),
    })
}

enum Reader {
    Lines(LinesReader<Source>),
    Csv(Box<CsvReader<Source>>),
    Grid(GridReader<Source>),
    Jsonl(JsonlReader<Source>),
    Parquet(Box<ParquetReader>),
}

/// The records of one input, in order: an iterator of
/// `Result<Record, InputError>` that ends after the first error.
///
/// Memory stays bounded whatever the input: one record buffer of at most
/// [`super::MAX_RECORD`] bytes ([`super::MAX_TABLE_RECORD`] for CSV and JSON
/// Lines) and a 64 KiB read buffer.
pub struct Records {
    format: Format,
    reader: Reader,
    solutions: Option<SolutionsReader<Source>>,
    solutions_name: PathBuf,
    name: String,
    done: bool,
    /// The first raw record, read ahead by [`Input::records`].
    peeked: Option<Option<Result<Record, InputError>>>,
    /// Kept values per record: the input's own ([`Records::kept_columns`]),
    /// or the run's with a map.
    kept: usize,
    /// Where the run's kept columns are among the input's own, when they
    /// differ (see [`Records::set_kept_map`]).
    kept_map: Option<KeptMap>,
    /// The types the run's kept columns are cast to (see
    /// [`Records::set_kept_types`]).
    kept_types: Option<KeptTypes>,
    /// Read from an uncompressed regular file, as text, without
    /// `--solutions` (which may name a pipe): see [`RecordStream::steady`].
    steady: bool,
}

impl std::fmt::Debug for Records {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Records {
    /// The layout being read (never `auto`).
    pub fn format(&self) -> Format {
        self.format
    }

    /// The input's name, as given to [`open`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The kept columns ([`ReadOptions::keep`]), in order, with their names
    /// in the input and their types (text for lines and CSV); known once
    /// [`Input::records`] returned.
    pub fn kept_columns(&self) -> Vec<KeptColumn> {
        match &self.reader {
            Reader::Lines(r) => r.kept_columns(),
            Reader::Csv(r) => r.kept_columns(),
            Reader::Grid(_) => Vec::new(),
            Reader::Jsonl(r) => r.kept_columns(),
            Reader::Parquet(r) => r.kept_columns(),
        }
    }

    /// Makes the records' kept values the run's kept columns: for each, its
    /// position among this input's own ([`Records::kept_columns`]), or
    /// `None` where this input has no such column (null in its rows). For a
    /// run over several inputs whose columns differ (`--keep-all`); call it
    /// before reading the records.
    pub fn set_kept_map(&mut self, map: Vec<Option<usize>>) {
        self.kept = map.len();
        self.kept_map = Some(map.into());
    }

    /// Casts the records' kept values (the run's columns, after
    /// [`Records::set_kept_map`]) by `types` (`--keep-types`, see
    /// [`super::keep::kept_types`]): a value that does not parse makes its
    /// record `malformed`, naming the column, the type and the value. Call
    /// it before reading the records.
    pub fn set_kept_types(&mut self, types: KeptTypes) {
        self.kept_types = Some(types);
    }

    fn next_raw(&mut self) -> Option<Result<Record, InputError>> {
        if let Some(first) = self.peeked.take() {
            return first;
        }
        match &mut self.reader {
            Reader::Lines(r) => r.next_record(),
            Reader::Csv(r) => r.next_record(),
            Reader::Grid(r) => r.next_record(),
            Reader::Jsonl(r) => r.next_record(),
            Reader::Parquet(r) => r.next_record(),
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
                if let Some(sized) = record.sized.as_mut() {
                    // A grid of another size: its solution is read in its
                    // alphabet and boxes, as a solution column's is.
                    record.solution = None;
                    if given.solution.is_some() {
                        let column = sized.solution.take();
                        match given.sized(&sized.puzzle, &sized.symbols) {
                            Ok(grid) => {
                                if let Some(column) = column {
                                    record.solution_error =
                                        disagree(column.cells(), grid.cells(), grid.side());
                                }
                                sized.solution = Some(grid);
                            }
                            Err(why) => record.solution_error = Some(why),
                        }
                    }
                    return Ok(record);
                }
                match given.solution {
                    None => {}
                    Some(Ok(grid)) => {
                        if let Some(column) = record.solution.take() {
                            record.solution_error = disagree(column.cells(), grid.cells(), 9);
                        }
                        record.solution = Some(grid);
                    }
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
            Some(Ok(mut record)) => {
                match &self.kept_map {
                    Some(map) => record.kept = map_kept(map, std::mem::take(&mut record.kept)),
                    None => record.kept.resize(self.kept, KeptValue::Null),
                }
                if let Some(types) = &self.kept_types {
                    super::keep::cast(types, &mut record);
                }
                self.pair(record)
            }
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
    /// Cuts records raw once the layout is settled (lines, CSV and JSON
    /// Lines, and Parquet's rows, without `--solutions`); parses them here
    /// otherwise.
    fn fill(&mut self, batch: &mut RecordBatch, max: usize) -> Result<bool, InputError> {
        batch.set_kept(self.kept, self.kept_map.as_ref(), self.kept_types.as_ref());
        while batch.has_room(max) {
            if self.done {
                return Ok(false);
            }
            let item = if self.solutions.is_some() || self.peeked.is_some() {
                None
            } else {
                match &mut self.reader {
                    Reader::Lines(r) => Some(r.next_item(batch, max - batch.len())),
                    Reader::Csv(r) => Some(r.next_item(batch, max - batch.len())),
                    Reader::Jsonl(r) => Some(r.next_item(batch, max - batch.len())),
                    Reader::Parquet(r) => Some(r.next_item(batch, max - batch.len())),
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

    fn steady(&self) -> bool {
        self.steady
    }
}

/// Why a record's solution column and its `--solutions` line, both
/// complete grids of `side` (`column` and `file`, their cells), are not
/// the one solution: the first cell where they differ and how many do;
/// `None` when they agree. `--solutions` is the solution checked; a
/// column that says otherwise makes the row a `mismatch`.
fn disagree(column: &[u8], file: &[u8], side: usize) -> Option<String> {
    let cells = column.len().max(file.len());
    let differ = |i: &usize| column.get(*i) != file.get(*i);
    let first = (0..cells).find(differ)?;
    let count = (0..cells).filter(differ).count();
    let plural = if count == 1 {
        "cell differs"
    } else {
        "cells differ"
    };
    Some(format!(
        "the solution column and --solutions differ at r{}c{} ({count} {plural})",
        first / side + 1,
        first % side + 1
    ))
}
