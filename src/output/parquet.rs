//! Results as Apache Parquet, with arrow-rs's writer: the CSV's columns,
//! typed, built from each chunk's results on the solver worker that
//! finished it ([`RowFormat::columns`]) and written in row groups of about
//! [`ROW_GROUP_ROWS`] (fewer when they reach [`ROW_GROUP_BYTES`]: long kept
//! values) as the run goes, the footer when the writer finishes
//! (also after an interrupt). The columns of every run (`line` to
//! `message`) are made into finished pages there too (`grids.rs`,
//! `names.rs`, `deltas.rs`); the others (`file`, the ratings, kept
//! columns) are encoded and compressed on a thread of their own, as
//! arrow-rs's column writers allow, and the writer's thread only hands
//! them their slices: compressing them all on the writer's thread held a
//! run to its speed. A finished row group is written to the file on one
//! more thread (`FileThread`).
//!
//! | column | Arrow type | null when the CSV field is empty |
//! |---|---|---|
//! | `file` (several inputs) | Utf8 | never |
//! | `line` | UInt64 | never |
//! | `puzzle` | Utf8 | malformed |
//! | `status` | Utf8 | never |
//! | `solution` | Utf8 | not solved |
//! | `guesses` | UInt64 | malformed |
//! | `solve_us` | Float64 (one decimal, as CSV) | malformed |
//! | `check` | Utf8 | no solution given |
//! | `message` | Utf8 | no message |
//! | `rating` (`solve --rate`, `rate`) | Float64 (one decimal, as CSV) | not rated |
//! | `hardest` (`solve --rate`, `rate`) | Utf8 | not rated |
//! | `steps` (`rate`) | UInt64 | not rated |
//! | kept columns | the input column's type ([`crate::kept`]) | null value |
//!
//! `rate` writes `line,puzzle,rating,hardest,steps,status,message` instead
//! of the columns from `status` to `message`, as its CSV does.
//!
//! Dictionary encoding is off for the columns whose values are nearly all
//! different (`line`, `puzzle`, `solution`, `solve_us`), where it would
//! only cost time; `status` and `check` are indices into a fixed dictionary
//! of their names, in runs (a few bytes a page; `names.rs`), with min/max
//! statistics of the names a row group holds. The grids (`puzzle`,
//! `solution`) are written uncompressed and without min/max statistics
//! (every page spans nearly all grids, so they would filter nothing): zstd
//! squeezes the grids' digits only 2.4-2.8 times, by entropy coding, at
//! about 400 MB/s a core, so compressing them took more CPU than solving
//! did (a million easy puzzles: 0.95 CPU-s against the solver's 0.42),
//! and snappy and LZ4 do no better for speed on such text. They are PLAIN
//! pages made from the results straight away (`grids.rs`), as `message`
//! is (nearly always null: a bit a row). `line` and
//! `guesses` are delta-encoded (a few bits a row) and `solve_us` plain,
//! all three uncompressed; the rest is zstd-compressed (level 1). On 100,000
//! Kaggle rows these choices took 10 % of the instructions of a run to
//! Parquet (845M to 759M at `-j 1`), for a file 3 % larger (about 178 bytes
//! a row); any reader reads them.
//!
//! That is `--parquet-compression fast`, the default ([`ParquetCompression`]):
//! `none` leaves every column uncompressed, `snappy` and `zstd` compress
//! every one, the pages made here compressed whole on the worker that made
//! them (`grids.rs`, `PageCodec`), for a smaller file (a million Kaggle rows:
//! 179 MB, 112 MB snappy, 67 MB zstd) at about twice the run's CPU time.
//! `properties` is the one place that says how each column is written,
//! for `merge`'s Arrow writer as for the pages made here.

use std::io::{self, BufWriter};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;

use arrow_array::builder::{
    BinaryBuilder, BinaryViewBuilder, BooleanBuilder, Float64Builder, LargeBinaryBuilder,
    LargeStringBuilder, PrimitiveBuilder, StringBuilder, StringViewBuilder, UInt64Builder,
};
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{make_array, new_empty_array, new_null_array, Array, ArrayRef, NullArray};
use arrow_data::transform::MutableArrayData;
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_writer::{
    compute_leaves, ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory,
};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnDescPtr;

use crate::kept::KeptValue;
use crate::output::format::ParquetCompression;
use crate::output::rating::RatingColumns;
use crate::output::result::{Check, PuzzleResult};
use crate::output::{clean_message, Blank, RowFormat, Shape, FILE_COLUMN};
use crate::process::simd;
use sudoku_core::solver::Status;

use super::Sink;

mod continued;
mod deltas;
mod grids;
mod names;
mod salvage;

pub(crate) use continued::{footer, schema_difference};
use deltas::DeltaPages;
use grids::{column_chunk, GridPage, GridPages, PageCodec, Paged};
use names::NamePages;
pub(crate) use salvage::recount;
pub use salvage::Salvaged;
use salvage::{salvage, Footing};

/// Rows per row group, at least: a group ends with the first page of grids
/// that reaches it (a chunk's rows at most later: a page is never cut).
/// About 6 MB of encoded columns (9x9 results), two groups held in memory
/// at most (one filled, one written): every page of them is memory the
/// kernel faults in the first time: at 131,072 rows a group (46 MB held)
/// a run to Parquet took 10,000-11,000 page faults, against 1,500-1,700
/// for a run to CSV. Readers take 32,768 rows a group as well as larger
/// ones.
pub const ROW_GROUP_ROWS: usize = 32 * 1024;

/// Bytes of a row group's columns (as handed to it: the grids' pages and
/// the other columns' Arrow values) at which it ends, however few rows it
/// has (a chunk's rows at most later): kept values of a megabyte a row
/// would otherwise make [`ROW_GROUP_ROWS`] rows 32 GB, held until written.
/// 9x9 results without kept columns are about 200 bytes a row, 6.5 MB a
/// group: they end at [`ROW_GROUP_ROWS`] as before.
pub const ROW_GROUP_BYTES: usize = 64 << 20;

/// Bytes of the column slices handed to a row group's encoder and not
/// encoded yet at which the writer's thread waits for it (a slice more at
/// most: a chunk's rows). Slices of long kept values (a note of 128 KiB a
/// row) otherwise waited by the 64 (a row group's worth, [`ROW_GROUP_BYTES`],
/// for the group being filled and again for the one being written), each
/// holding its chunk's columns, while the workers went on making more.
/// 9x9 results with short kept values are a few hundred kilobytes of
/// slices at most: they never wait for it.
const QUEUED_BYTES: usize = 16 << 20;

/// Bytes of a data page at which it is cut (at the end of a mini-batch of
/// 1,024 values: about 83 KB of grids): a page buffer stays under the
/// allocator's threshold for mapping fresh memory, so the pages of one row
/// group reuse the memory of the last instead of faulting in new pages
/// (Parquet's default is 1 MiB).
const PAGE_BYTES: usize = 64 * 1024;

/// The columns written as pages of their own, made on the workers: the
/// grids, `solve_us` and `message` as PLAIN values ([`grids`]), `status`
/// and `check` as indices into a dictionary of their names ([`names`]),
/// `line` and `guesses` delta-encoded ([`deltas`]). arrow-rs encodes the
/// others (`file`, the ratings, kept columns) on a thread of its own.
const PAGED_COLUMNS: [&str; 8] = [
    "line", "puzzle", "status", "solution", "guesses", "solve_us", "check", "message",
];

/// The `status` column's dictionary: [`Status::ALL`]'s names, in order
/// (a status's index there is [`Status::index`]).
const STATUS_NAMES: [&str; Status::ALL.len()] = {
    let mut names = [""; Status::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Status::ALL[i].name();
        i += 1;
    }
    names
};

/// The `check` column's dictionary.
const CHECK_NAMES: [&str; 2] = ["ok", "mismatch"];

/// What a paged column holds.
fn paged(column: &str) -> Paged {
    match column {
        "status" => Paged::Names(&STATUS_NAMES),
        "check" => Paged::Names(&CHECK_NAMES),
        "solve_us" => Paged::Doubles,
        "line" | "guesses" => Paged::Deltas,
        _ => Paged::Text,
    }
}

/// A check's index in [`CHECK_NAMES`].
fn check_index(check: Check) -> u8 {
    match check {
        Check::Ok => 0,
        Check::Mismatch => 1,
    }
}

/// A column written as pages of its own: its position in the schema, its
/// descriptor and what it holds.
type PagedColumn = (usize, ColumnDescPtr, Paged);

/// Bytes of the file's buffer: the grids' column chunks come in pieces of
/// 8 KiB (`append_column` copies them so), written a megabyte at a time.
const FILE_BUFFER: usize = 1 << 20;

/// Writes results rows as Parquet to a [`Sink`].
pub(crate) struct ParquetRows {
    /// The thread writing the row groups to the file.
    file: FileThread,
    /// A second handle on the results file, when it is a regular file: a
    /// write that fails leaves a file of the row groups written whole
    /// through it (`salvage.rs`).
    spare: Option<std::fs::File>,
    factory: ArrowRowGroupWriterFactory,
    /// The row group being filled, `None` before its first rows.
    group: Option<Group>,
    /// The columns written as pages of their own ([`PAGED_COLUMNS`]).
    grids: Vec<PagedColumn>,
    /// How many Parquet leaf columns each of the schema's columns is (one
    /// but for nested kept columns: a struct has one a field).
    leaves: Vec<usize>,
    /// The pages of `group`'s paged columns, a list for each of `grids`.
    grid_pages: Vec<Vec<GridPage>>,
    /// Rows in `group`.
    group_rows: usize,
    /// Bytes of the columns handed to `group` ([`ROW_GROUP_BYTES`]).
    group_bytes: usize,
    /// Row groups written.
    groups: usize,
    schema: SchemaRef,
    /// How the columns are built from results (shared with the workers).
    table: Arc<TableColumns>,
}

/// The file being written.
type FileWriter = SerializedFileWriter<BufWriter<Sink>>;

/// A row group to write: its columns being encoded, and its grids' pages.
type Finished = (Group, Vec<Vec<GridPage>>);

/// The thread that writes the row groups to the file as they are finished
/// (waiting for their encoders, splicing their chunks in), so that the
/// writer's thread goes on handing the next rows to the encoders meanwhile:
/// the solver workers, a few chunks ahead at most, waited for it while it
/// wrote each group (23 MB every 131,072 rows, when groups were that large).
struct FileThread {
    /// The next group, to the thread (one at a time: at most two groups
    /// are held, one being filled and one being written).
    queue: SyncSender<Finished>,
    /// The thread: the file writer, once every group is written (`None`
    /// once joined).
    thread: Option<JoinHandle<Result<Written, Box<Broken>>>>,
    /// The file writer of a thread that ended on a failed write, for
    /// [`salvage`].
    broken: Option<Written>,
}

/// The file writer, and where each row group written whole ends in the
/// file (bytes written to it, through its buffers).
struct Written {
    file: FileWriter,
    ends: Vec<u64>,
}

/// Why the file's thread ended early, and the file as it left it.
type Broken = (ParquetError, Written);

impl FileThread {
    /// Starts writing the row groups of `schema`'s columns to `file`, the
    /// columns at `grids` from their pages (compressed with `compression`).
    /// `ends` are where the row groups already in `file` end.
    fn start(
        mut file: FileWriter,
        schema: &SchemaRef,
        grids: Vec<PagedColumn>,
        compression: Compression,
        mut ends: Vec<u64>,
    ) -> Result<FileThread, ParquetError> {
        let (queue, finished) = sync_channel::<Finished>(0);
        let width = schema.fields().len();
        let thread = std::thread::Builder::new()
            .name("parquet-file".into())
            .spawn(move || {
                for (group, pages) in finished {
                    let written = write_group(&mut file, width, &grids, compression, group, &pages);
                    if let Err(e) = written {
                        return Err(Box::new((e, Written { file, ends })));
                    }
                    ends.push(file.bytes_written() as u64);
                }
                Ok(Written { file, ends })
            })
            .map_err(|e| ParquetError::External(Box::new(e)))?;
        Ok(FileThread {
            queue,
            thread: Some(thread),
            broken: None,
        })
    }

    /// Hands `finished` to the thread.
    ///
    /// # Errors
    /// The thread failed to write an earlier group: its error.
    fn write(&mut self, finished: Finished) -> Result<(), ParquetError> {
        if self.queue.send(finished).is_ok() {
            return Ok(());
        }
        // The thread ended early, on an error.
        match self.join() {
            Err(e) => Err(e),
            Ok(_) => Err(stopped()),
        }
    }

    /// Waits for the thread to write every group handed to it.
    ///
    /// # Errors
    /// A group could not be written.
    fn finish(&mut self) -> Result<Written, ParquetError> {
        let (queue, _) = sync_channel(0);
        drop(std::mem::replace(&mut self.queue, queue));
        self.join()
    }

    /// The thread's outcome, once it ends; the file writer of a thread
    /// that failed is kept in `broken`.
    fn join(&mut self) -> Result<Written, ParquetError> {
        let thread = self.thread.take().ok_or_else(stopped)?;
        match thread.join() {
            Ok(Ok(written)) => Ok(written),
            Ok(Err(broken)) => {
                let (e, written) = *broken;
                self.broken = Some(written);
                Err(e)
            }
            Err(_) => Err(ParquetError::General(
                "the Parquet file's writer panicked".into(),
            )),
        }
    }
}

/// Bytes of `column`'s values, of its own rows only when it is a slice
/// (the whole buffers' size when that cannot be told).
pub(crate) fn slice_bytes(column: &dyn Array) -> usize {
    let data = column.to_data();
    data.get_slice_memory_size()
        .unwrap_or_else(|_| data.get_buffer_memory_size())
}

/// The error of a file thread that ended before its last group.
fn stopped() -> ParquetError {
    ParquetError::General("the Parquet file's writer stopped".into())
}

/// Writes a row group of `width` columns to `file`: the chunks of `group`'s
/// columns once encoded, and at `grids` those of the grid columns' `pages`
/// (compressed with `compression`).
fn write_group(
    file: &mut FileWriter,
    width: usize,
    grids: &[PagedColumn],
    compression: Compression,
    group: Group,
    pages: &[Vec<GridPage>],
) -> Result<(), ParquetError> {
    let mut chunks = group.close()?.into_iter().peekable();
    let mut grids = grids.iter().zip(pages).peekable();
    let mut row_group = file.next_row_group()?;
    for position in 0..width {
        if let Some(((_, descriptor, names), pages)) =
            grids.next_if(|((i, _, _), _)| *i == position)
        {
            let descriptor = Arc::clone(descriptor);
            let (chunk, close) = column_chunk(descriptor, *names, compression, pages.iter())?;
            row_group.append_column(&chunk, close)?;
        } else {
            // Every leaf of the column, in order.
            while let Some((_, chunk)) = chunks.next_if(|(i, _)| *i == position) {
                chunk.append_to_row_group(&mut row_group)?;
            }
        }
    }
    row_group.close()?;
    Ok(())
}

/// How results become the columns of a Parquet table: on the solver worker
/// that finishes a chunk ([`RowFormat::columns`]), so that the writer's
/// thread only hands finished columns to the encoders (building them there
/// was 830 instructions a row, on one thread for the whole run).
pub(crate) struct TableColumns {
    /// Each input's name, when the run has several inputs.
    files: Option<Vec<String>>,
    /// The kept columns' types.
    kept: Vec<DataType>,
    blank: Blank,
    rating: RatingColumns,
    /// Columns in the schema.
    width: usize,
    /// How the pages made on the workers are compressed.
    pages: Compression,
}

/// A chunk's rows as the columns of a Parquet table, built from their
/// results on a solver worker ([`RowFormat::columns`]); or why a column
/// could not be built (a kept value its column cannot hold).
#[derive(Clone, Debug)]
pub struct Columns(Result<Table, String>);

impl Columns {
    /// Rows in the columns (0 for columns that could not be built).
    pub fn rows(&self) -> usize {
        self.0.as_ref().map_or(0, Table::rows)
    }
}

/// Rows as the columns of a Parquet table.
#[derive(Clone, Debug)]
struct Table {
    /// The columns but the grids, in the schema's order.
    arrays: Vec<ArrayRef>,
    /// The grid columns' pages (`puzzle`, then `solution` when the table
    /// has it), every column's cut at the same rows.
    grids: Vec<Vec<GridPage>>,
}

impl Table {
    fn rows(&self) -> usize {
        self.grids
            .first()
            .map_or(0, |pages| pages.iter().map(GridPage::rows).sum())
    }
}

impl RowFormat for TableColumns {
    /// No text: a table's rows are its [`RowFormat::columns`].
    fn row(&self, _result: &PuzzleResult, _out: &mut Vec<u8>) {}

    fn builds_columns(&self) -> bool {
        true
    }

    fn columns(&self, runs: &mut [&mut Vec<PuzzleResult>], spend: bool) -> Option<Columns> {
        let n = runs.iter().map(|run| run.len()).sum();
        // Compiled for AVX2 where the CPU has it: the grids written into
        // their pages in fewer vector steps.
        let built = simd::widest(
            #[inline(always)]
            || {
                self.build(runs, n, |run: &mut &mut Vec<PuzzleResult>| {
                    if spend {
                        run.clear();
                    }
                })
            },
        );
        Some(Columns(built.map_err(|e| e.to_string())))
    }
}

/// The codec of the columns of every run ([`PAGED_COLUMNS`]), and of the
/// others, that `compression` gives.
fn codecs(compression: ParquetCompression) -> (Compression, Compression) {
    let zstd = Compression::ZSTD(ZstdLevel::default());
    match compression {
        ParquetCompression::Fast => (Compression::UNCOMPRESSED, zstd),
        ParquetCompression::None => (Compression::UNCOMPRESSED, Compression::UNCOMPRESSED),
        ParquetCompression::Snappy => (Compression::SNAPPY, Compression::SNAPPY),
        ParquetCompression::Zstd => (zstd, zstd),
    }
}

/// How sudoku-batch writes Parquet results of `schema`'s columns, the one
/// place that says it (`solve`, `rate` and `merge` write with these):
/// `compression`'s codecs, row groups of [`ROW_GROUP_ROWS`], its name as
/// the writer, and each column of every run ([`PAGED_COLUMNS`]) as
/// `solve` makes its pages: `line` and `guesses` delta-encoded, the text
/// and `solve_us` PLAIN, `status` and `check` dictionary-encoded, every one
/// with chunk statistics but the text (the grids and `message`), which has
/// none. arrow-rs encodes the others with its defaults.
pub(crate) fn properties(compression: ParquetCompression, schema: &Schema) -> WriterProperties {
    use parquet::basic::Encoding;
    use parquet::file::properties::EnabledStatistics;
    use parquet::schema::types::ColumnPath;

    let (pages, rest) = codecs(compression);
    let mut builder = WriterProperties::builder()
        .set_compression(rest)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_data_page_size_limit(PAGE_BYTES)
        .set_created_by(format!("sudoku-batch {}", env!("CARGO_PKG_VERSION")));
    for field in schema.fields() {
        let name = field.name().as_str();
        if !PAGED_COLUMNS.contains(&name) {
            continue;
        }
        let column = ColumnPath::from(name);
        builder = builder.set_column_compression(column.clone(), pages);
        let (encoding, statistics) = match paged(name) {
            Paged::Names(_) => (None, EnabledStatistics::Chunk),
            Paged::Deltas => (
                Some(Encoding::DELTA_BINARY_PACKED),
                EnabledStatistics::Chunk,
            ),
            Paged::Doubles => (Some(Encoding::PLAIN), EnabledStatistics::Chunk),
            Paged::Text => (Some(Encoding::PLAIN), EnabledStatistics::None),
        };
        builder = builder.set_column_statistics_enabled(column.clone(), statistics);
        if let Some(encoding) = encoding {
            builder = builder
                .set_column_dictionary_enabled(column.clone(), false)
                .set_column_encoding(column, encoding);
        }
    }
    builder.build()
}

impl ParquetRows {
    /// Starts a Parquet file of `shape`'s columns on `sink` (a plain file
    /// or stdout), compressed as `compression` says.
    ///
    /// # Errors
    /// The writer cannot start.
    pub(crate) fn create(
        sink: Sink,
        shape: &Shape,
        compression: ParquetCompression,
    ) -> Result<ParquetRows, ParquetError> {
        ParquetRows::start(sink, shape, compression, None)
    }

    /// Starts a Parquet file of `shape`'s columns on `sink` (a new file)
    /// that continues the Parquet file `old`, whose footer is `metadata`
    /// and whose columns are `shape`'s ([`schema_difference`]): its row
    /// groups are copied first, as they are (`continued.rs`), and the
    /// rows written after them, compressed as `compression` says.
    ///
    /// # Errors
    /// The writer cannot start, or a row group cannot be copied.
    pub(crate) fn continued(
        sink: Sink,
        shape: &Shape,
        compression: ParquetCompression,
        old: &std::fs::File,
        metadata: &::parquet::file::metadata::ParquetMetaData,
    ) -> Result<ParquetRows, ParquetError> {
        ParquetRows::start(sink, shape, compression, Some((old, metadata)))
    }

    /// The descriptor of its second handle on the results file (for
    /// salvage), when it has one: a results file written elsewhere until
    /// its first row points it at the file then (`writer.rs`).
    #[cfg(unix)]
    pub(crate) fn spare_descriptor(&self) -> Option<std::os::fd::RawFd> {
        use std::os::fd::AsRawFd;
        self.spare.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// [`ParquetRows::create`], after the row groups of `old` when given.
    fn start(
        sink: Sink,
        shape: &Shape,
        compression: ParquetCompression,
        old: Option<(&std::fs::File, &::parquet::file::metadata::ParquetMetaData)>,
    ) -> Result<ParquetRows, ParquetError> {
        let schema = Arc::new(schema(shape));
        let props = properties(compression, &schema);
        let (pages, _) = codecs(compression);
        // The file writer and the column writers' factory of an
        // `ArrowWriter`: its file metadata (the Arrow schema included), with
        // the columns encoded here.
        let spare = match &sink {
            Sink::File(file) => salvage::spare(file),
            _ => None,
        };
        let sink = BufWriter::with_capacity(FILE_BUFFER, sink);
        let (mut file, factory) = ArrowWriter::try_new(sink, Arc::clone(&schema), Some(props))?
            .into_serialized_writer()?;
        let ends = match old {
            Some((old, metadata)) => continued::copy_row_groups(&mut file, old, metadata)?,
            None => Vec::new(),
        };
        let groups = ends.len();
        let descriptors = file.schema_descr();
        let mut leaves = vec![0; schema.fields().len()];
        for leaf in 0..descriptors.num_columns() {
            if let Some(n) = leaves.get_mut(descriptors.get_column_root_idx(leaf)) {
                *n += 1;
            }
        }
        let grids: Vec<PagedColumn> = schema
            .fields()
            .iter()
            .enumerate()
            .filter(|(_, field)| PAGED_COLUMNS.contains(&field.name().as_str()))
            .filter_map(|(i, field)| {
                let name = field.name().as_str();
                let leaf = descriptors
                    .columns()
                    .iter()
                    .find(|c| c.path().parts() == [name])?;
                Some((i, Arc::clone(leaf), paged(name)))
            })
            .collect();
        Ok(ParquetRows {
            file: FileThread::start(file, &schema, grids.clone(), pages, ends)?,
            spare,
            factory,
            group: None,
            grid_pages: grids.iter().map(|_| Vec::new()).collect(),
            grids,
            leaves,
            group_rows: 0,
            group_bytes: 0,
            groups,
            table: Arc::new(TableColumns {
                files: shape.files.clone(),
                kept: shape.kept.iter().map(|c| c.data_type.clone()).collect(),
                blank: shape.blank,
                rating: shape.rating,
                width: schema.fields().len(),
                pages,
            }),
            schema,
        })
    }

    /// How the columns are built from results, for the workers.
    pub(crate) fn table(&self) -> Arc<TableColumns> {
        Arc::clone(&self.table)
    }

    /// Adds one row per result; a row group is written each time
    /// [`ROW_GROUP_ROWS`] rows or [`ROW_GROUP_BYTES`] bytes are buffered.
    ///
    /// # Errors
    /// The rows cannot be encoded or written.
    #[cfg(test)]
    pub(crate) fn write(&mut self, results: &[PuzzleResult]) -> Result<(), ParquetError> {
        self.write_runs(&[results])
    }

    /// Adds one row per result of `runs` (slices of the results, in order),
    /// as [`ParquetRows::write`] of them all.
    ///
    /// # Errors
    /// The rows cannot be encoded or written.
    pub(crate) fn write_runs<R: AsRef<[PuzzleResult]>>(
        &mut self,
        runs: &[R],
    ) -> Result<(), ParquetError> {
        let n = runs.iter().map(|run| run.as_ref().len()).sum();
        let mut runs: Vec<&[PuzzleResult]> = runs.iter().map(AsRef::as_ref).collect();
        let table = self.table.build(&mut runs, n, |_| {})?;
        self.write_table(&table)
    }

    /// Adds the rows of `columns`, built by [`TableColumns`] (on a worker).
    ///
    /// # Errors
    /// A column could not be built, or the rows cannot be encoded or
    /// written.
    pub(crate) fn write_columns(&mut self, columns: &Columns) -> Result<(), ParquetError> {
        let table = columns
            .0
            .as_ref()
            .map_err(|e| ParquetError::General(e.clone()))?;
        self.write_table(table)
    }

    /// Adds the rows of `table` a page of grids at a time, a row group
    /// written each time one reaches [`ROW_GROUP_ROWS`] rows or
    /// [`ROW_GROUP_BYTES`] bytes.
    fn write_table(&mut self, table: &Table) -> Result<(), ParquetError> {
        let Some(first) = table.grids.first() else {
            return Ok(());
        };
        let mut start = 0;
        for (k, page) in first.iter().enumerate() {
            let rows = page.rows();
            let group = match &mut self.group {
                Some(group) => group,
                None => {
                    // Column writers only for a table with columns the
                    // pages leave to arrow-rs: each holds a zstd context
                    // (its `ZSTD_initCCtx` and a dozen allocations a column
                    // a group were 0.7 % of a results run's samples, for
                    // writers never used).
                    let writers = match self.grids.len() < self.schema.fields().len() {
                        true => self.factory.create_column_writers(self.groups)?,
                        false => Vec::new(),
                    };
                    let grids: Vec<usize> = self.grids.iter().map(|(i, _, _)| *i).collect();
                    self.group
                        .insert(Group::start(&self.schema, writers, &self.leaves, &grids)?)
                }
            };
            let slices: Vec<ArrayRef> = table.arrays.iter().map(|c| c.slice(start, rows)).collect();
            let bytes = slices.iter().map(|c| slice_bytes(c)).sum();
            self.group_bytes += bytes;
            group.encode(&slices, bytes);
            for (held, pages) in self.grid_pages.iter_mut().zip(&table.grids) {
                let page = pages.get(k);
                self.group_bytes += page.map_or(0, |page| page.body.len());
                held.extend(page.cloned());
            }
            start += rows;
            self.group_rows += rows;
            if self.group_rows >= ROW_GROUP_ROWS || self.group_bytes >= ROW_GROUP_BYTES {
                self.close_group()?;
            }
        }
        Ok(())
    }

    /// Hands the row group being filled, if any, to the file's thread.
    fn close_group(&mut self) -> Result<(), ParquetError> {
        let Some(group) = self.group.take() else {
            return Ok(());
        };
        let pages = self.grids.iter().map(|_| Vec::new()).collect();
        let pages = std::mem::replace(&mut self.grid_pages, pages);
        self.file.write((group, pages))?;
        self.group_rows = 0;
        self.group_bytes = 0;
        self.groups += 1;
        Ok(())
    }

    /// Writes the last row group and the footer, and hands back the sink
    /// (not flushed).
    ///
    /// # Errors
    /// The rows or the footer cannot be written (now or by an earlier
    /// call): the error, and what the file holds then ([`Salvaged`]: the
    /// row groups written whole, with a footer, when it is a regular file).
    pub(crate) fn finish(mut self) -> Result<Sink, (ParquetError, Salvaged)> {
        let written = match self.close_group().and_then(|()| self.file.finish()) {
            Ok(written) => written,
            Err(e) => {
                let footing = self
                    .file
                    .broken
                    .take()
                    .map(|broken| Footing::of(&broken.file, &broken.ends));
                let salvaged = match footing {
                    Some(footing) => salvage(self.spare.as_ref(), footing),
                    None if self.spare.is_none() => Salvaged::NotAFile,
                    None => Salvaged::Unreadable(io::Error::other(
                        "the Parquet file's writer stopped before it",
                    )),
                };
                return Err((e, salvaged));
            }
        };
        // Taken before the footer is written, which consumes the writer.
        let footing = self
            .spare
            .is_some()
            .then(|| Footing::of(&written.file, &written.ends));
        let ended = written.file.into_inner().and_then(|buffered| {
            buffered
                .into_inner()
                .map_err(|e| ParquetError::External(Box::new(e.into_error())))
        });
        ended.map_err(|e| {
            let salvaged = match footing {
                Some(footing) => salvage(self.spare.as_ref(), footing),
                None => Salvaged::NotAFile,
            };
            (e, salvaged)
        })
    }
}

impl TableColumns {
    /// The columns of the `n` results of `runs` (in order), in the
    /// schema's order. Each run is handed to `spent` once its rows are
    /// read, when no column reads it later (no kept columns): a caller
    /// done with the results drops them there, while they are still in
    /// the cache (dropped when the reader refilled the chunk, they were
    /// 2.4 % of a Parquet -> Parquet run's samples, on the reader's
    /// thread, fetched from memory again).
    ///
    /// # Errors
    /// A kept value its column cannot hold (see [`kept_column`]).
    #[inline(always)]
    fn build<R: AsRef<[PuzzleResult]>>(
        &self,
        runs: &mut [R],
        n: usize,
        mut spent: impl FnMut(&mut R),
    ) -> Result<Table, ParquetError> {
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.width);
        if let Some(files) = &self.files {
            let mut file = StringBuilder::with_capacity(n, n * 16);
            for result in runs.iter().flat_map(AsRef::as_ref) {
                file.append_option(files.get(result.input));
            }
            columns.push(Arc::new(file.finish()));
        }
        let mut line = DeltaPages::new(false);
        let mut puzzle = GridPages::with_capacity(n);
        let mut status = NamePages::new(STATUS_NAMES.len(), false);
        let mut solution = GridPages::with_capacity(n);
        let mut guesses = DeltaPages::new(true);
        let mut solve_us = GridPages::with_room(n, 8);
        let mut check = NamePages::new(CHECK_NAMES.len(), true);
        let mut message = GridPages::with_room(n, 0);
        let mut rating = Float64Builder::with_capacity(n);
        let mut hardest = StringBuilder::new();
        let mut steps = UInt64Builder::with_capacity(n);
        // Only the table's own columns are filled (appending nulls to the
        // others was a sixth of the building).
        let rated = self.rating != RatingColumns::None;
        let solved = self.rating != RatingColumns::Only;
        // The kept columns, if any, read the results again below.
        let spend = self.kept.is_empty();
        for run in runs.iter_mut() {
            for result in run.as_ref() {
                if rated {
                    let rated = result.rating.as_ref();
                    rating.append_option(rated.map(|r| r.value()));
                    hardest.append_option(rated.map(|r| r.hardest.as_ref()));
                    steps.append_option(rated.map(|r| u64::from(r.steps)));
                }
                line.append(Some(result.line));
                status.append(Some(result.status.index() as u8));
                if let Some(sized) = &result.sized {
                    let text = sized.puzzle_text(self.blank.byte(&sized.symbols));
                    puzzle.append(Some(text.as_bytes()));
                    if solved {
                        solution.append(sized.solution_text().as_ref().map(|t| t.as_bytes()));
                    }
                } else {
                    puzzle.append_grid(result.puzzle.as_ref(), self.blank.nine());
                    if solved {
                        // A solution has no blank (`Grid::line_bytes`' is `.`).
                        solution.append_grid(result.solution.as_ref(), b'.');
                    }
                }
                if solved {
                    guesses.append(result.guesses);
                    solve_us.append_double(result.solve_us());
                    check.append(result.check.map(check_index));
                }
                let text = result.message.as_deref().map(clean_message);
                message.append(text.as_ref().map(|t| t.as_bytes()));
            }
            if spend {
                spent(run);
            }
        }
        // The paged columns in the schema's order (`PAGED_COLUMNS`).
        let mut grids = vec![line.finish(), puzzle.finish(), status.finish()];
        let rating: ArrayRef = Arc::new(rating.finish());
        let hardest: ArrayRef = Arc::new(hardest.finish());
        if self.rating == RatingColumns::Only {
            columns.extend([rating, hardest, Arc::new(steps.finish())]);
            grids.push(message.finish());
        } else {
            grids.extend([
                solution.finish(),
                guesses.finish(),
                solve_us.finish(),
                check.finish(),
                message.finish(),
            ]);
            if self.rating == RatingColumns::Appended {
                columns.extend([rating, hardest]);
            }
        }
        let mut codec = PageCodec::new(self.pages)?;
        for page in grids.iter_mut().flatten() {
            page.compress(&mut codec)?;
        }
        for (i, data_type) in self.kept.iter().enumerate() {
            let values = runs
                .iter()
                .flat_map(AsRef::as_ref)
                .map(|r| r.kept.get(i).unwrap_or(&KeptValue::Null));
            columns.push(kept_column(data_type, values, n)?);
        }
        if !spend {
            // Read by the kept columns last: their values (a long note a
            // row) need not wait in the chunk beside its columns.
            runs.iter_mut().for_each(&mut spent);
        }
        Ok(Table {
            arrays: columns,
            grids,
        })
    }
}

/// A row group being encoded: the columns but the paged ones (if any) on
/// a thread of their own, fed through a short queue, so that the writer's
/// thread only hands them their slices.
struct Group {
    /// The threads encoding the columns.
    away: Vec<Encoder>,
}

/// A thread encoding some columns of a row group.
struct Encoder {
    /// Its columns, in order: their positions among the columns but the
    /// grids ([`Table::arrays`]), and in the schema.
    columns: Vec<(usize, usize)>,
    /// Their slices, to the thread, each with its bytes.
    queue: SyncSender<(Vec<ArrayRef>, usize)>,
    /// Bytes of the slices handed to the thread and not encoded yet.
    backlog: Arc<Backlog>,
    /// The thread: its columns' chunks, those of each column's leaves.
    thread: JoinHandle<Result<Vec<Vec<ArrowColumnChunk>>, ParquetError>>,
}

impl Group {
    /// Starts a row group of `schema`'s columns on `writers` (one per
    /// Parquet leaf column, in order: `leaves[i]` of them for the schema's
    /// column `i`, more than one for a kept struct of several fields, a
    /// map or a list of structs), but the columns at `grids` (their pages
    /// are made by [`grids`]).
    fn start(
        schema: &SchemaRef,
        writers: Vec<ArrowColumnWriter>,
        leaves: &[usize],
        grids: &[usize],
    ) -> Result<Group, ParquetError> {
        type Part = Vec<((usize, usize), Arc<Field>, Vec<ArrowColumnWriter>)>;
        let mut writers = writers.into_iter();
        let mut part: Part = Vec::new();
        for (i, field) in schema.fields().iter().enumerate() {
            let mine: Vec<ArrowColumnWriter> = writers.by_ref().take(leaves[i]).collect();
            if !grids.contains(&i) && !mine.is_empty() {
                part.push(((part.len(), i), Arc::clone(field), mine));
            }
        }
        let mut away = Vec::new();
        for part in Some(part).into_iter().filter(|p| !p.is_empty()) {
            let columns = part.iter().map(|(i, _, _)| *i).collect();
            // Up to a row group of short rows' slices waits (64 chunks of
            // 2,048 rows), so that closing one rarely waits for the
            // encoders; fewer of long rows ([`QUEUED_BYTES`]).
            let (queue, slices) = sync_channel::<(Vec<ArrayRef>, usize)>(64);
            let backlog = Arc::new(Backlog::default());
            let drained = Drained(Arc::clone(&backlog));
            let thread = std::thread::Builder::new()
                .name("parquet".into())
                .spawn(move || {
                    let mut part = part;
                    for (slice, bytes) in slices {
                        for ((_, field, writers), column) in part.iter_mut().zip(&slice) {
                            encode(writers, field, column)?;
                        }
                        drop(slice);
                        drained.0.encoded(bytes);
                    }
                    part.into_iter()
                        .map(|(_, _, writers)| writers.into_iter().map(|w| w.close()).collect())
                        .collect()
                })
                .map_err(|e| ParquetError::External(Box::new(e)))?;
            away.push(Encoder {
                columns,
                queue,
                backlog,
                thread,
            });
        }
        Ok(Group { away })
    }

    /// Hands one slice of every column (in the schema's order), of
    /// `bytes` in all, to the threads encoding them, once those have fewer
    /// than [`QUEUED_BYTES`] of earlier slices to encode.
    fn encode(&mut self, columns: &[ArrayRef], bytes: usize) {
        for encoder in &self.away {
            let slice: Vec<ArrayRef> = encoder
                .columns
                .iter()
                .map(|&(i, _)| Arc::clone(&columns[i]))
                .collect();
            encoder.backlog.wait_below(QUEUED_BYTES);
            encoder.backlog.handed(bytes);
            // A closed queue means the thread failed: `close` reports why.
            let _ = encoder.queue.send((slice, bytes));
        }
    }

    /// Ends the row group: the chunks of its columns' leaves, in the
    /// schema's order, each with its column's position in it.
    fn close(self) -> Result<Vec<(usize, ArrowColumnChunk)>, ParquetError> {
        let mut chunks = Vec::new();
        for encoder in self.away {
            drop(encoder.queue);
            let done = encoder.thread.join().unwrap_or_else(|_| {
                Err(ParquetError::General("a column encoder panicked".into()))
            })?;
            let positions = encoder.columns.into_iter().map(|(_, i)| i);
            for (i, leaves) in positions.zip(done) {
                chunks.extend(leaves.into_iter().map(|leaf| (i, leaf)));
            }
        }
        // Stable: a column's leaves stay in order.
        chunks.sort_by_key(|(i, _)| *i);
        Ok(chunks)
    }
}

/// Bytes of the slices handed to an [`Encoder`]'s thread and not encoded
/// yet, which the writer's thread waits on ([`QUEUED_BYTES`]).
#[derive(Default)]
struct Backlog {
    /// The bytes, and whether the thread has stopped taking slices.
    state: Mutex<(usize, bool)>,
    /// Signalled as slices are encoded, and when the thread stops.
    encoded: Condvar,
}

impl Backlog {
    fn state(&self) -> std::sync::MutexGuard<'_, (usize, bool)> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until fewer than `bytes` wait to be encoded, or the thread
    /// stopped.
    fn wait_below(&self, bytes: usize) {
        let mut state = self.state();
        while state.0 >= bytes && !state.1 {
            state = self
                .encoded
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Counts a slice of `bytes` handed to the thread.
    fn handed(&self, bytes: usize) {
        self.state().0 += bytes;
    }

    /// On the thread: a slice of `bytes` encoded.
    fn encoded(&self, bytes: usize) {
        let mut state = self.state();
        state.0 = state.0.saturating_sub(bytes);
        drop(state);
        self.encoded.notify_one();
    }
}

/// An encoder thread's hold on its [`Backlog`]: dropped when the thread
/// ends, however (a failed encode too), so that the writer's thread never
/// waits for slices nobody will encode.
struct Drained(Arc<Backlog>);

impl Drop for Drained {
    fn drop(&mut self) {
        self.0.state().1 = true;
        self.0.encoded.notify_all();
    }
}

/// Encodes `column` (of `field`) into `writers`, one for each of its
/// Parquet leaf columns, in order.
///
/// # Errors
/// The column's leaves are not as many as `writers` (never expected: both
/// come from `field`), or a leaf cannot be encoded.
fn encode(
    writers: &mut [ArrowColumnWriter],
    field: &Field,
    column: &ArrayRef,
) -> Result<(), ParquetError> {
    let leaves = compute_leaves(field, column)?;
    if leaves.len() != writers.len() {
        return Err(ParquetError::General(format!(
            "column {}: {} Parquet leaf columns for {} writers",
            field.name(),
            leaves.len(),
            writers.len()
        )));
    }
    for (writer, leaf) in writers.iter_mut().zip(&leaves) {
        writer.write(leaf)?;
    }
    Ok(())
}

/// The Arrow schema of `shape`'s columns.
fn schema(shape: &Shape) -> Schema {
    let mut fields = Vec::new();
    if shape.files.is_some() {
        fields.push(Field::new(FILE_COLUMN, DataType::Utf8, false));
    }
    fields.extend([
        Field::new("line", DataType::UInt64, false),
        Field::new("puzzle", DataType::Utf8, true),
    ]);
    let rating = Field::new("rating", DataType::Float64, true);
    let hardest = Field::new("hardest", DataType::Utf8, true);
    if shape.rating == RatingColumns::Only {
        fields.extend([
            rating,
            hardest,
            Field::new("steps", DataType::UInt64, true),
            Field::new("status", DataType::Utf8, false),
            Field::new("message", DataType::Utf8, true),
        ]);
    } else {
        fields.extend([
            Field::new("status", DataType::Utf8, false),
            Field::new("solution", DataType::Utf8, true),
            Field::new("guesses", DataType::UInt64, true),
            Field::new("solve_us", DataType::Float64, true),
            Field::new("check", DataType::Utf8, true),
            Field::new("message", DataType::Utf8, true),
        ]);
        if shape.rating == RatingColumns::Appended {
            fields.extend([rating, hardest]);
        }
    }
    for (name, column) in shape.kept_names().into_iter().zip(&shape.kept) {
        fields.push(Field::new(name, column.data_type.clone(), true));
    }
    Schema::new(fields)
}

/// A kept column of `data_type` from its `n` values (see
/// [`crate::kept`]): text of any value in a text column, integers and
/// floats widened as [`crate::kept::unify`] chose, and any other type's
/// one-row values joined into one array.
///
/// # Errors
/// A value that the column's type cannot hold (never expected: each
/// input's values are of its own column type, which the column's holds).
fn kept_column<'a>(
    data_type: &DataType,
    values: impl Iterator<Item = &'a KeptValue>,
    n: usize,
) -> Result<ArrayRef, ParquetError> {
    let misfit = |value: &KeptValue| {
        ParquetError::General(format!(
            "a kept value ({}) that a {data_type} column cannot hold",
            value.text()
        ))
    };
    macro_rules! integers {
        ($t:ty) => {{
            let mut column = PrimitiveBuilder::<$t>::with_capacity(n);
            for value in values {
                match value {
                    KeptValue::Null => column.append_null(),
                    v => column.append_value(
                        v.integer()
                            .and_then(|i| i.try_into().ok())
                            .ok_or_else(|| misfit(v))?,
                    ),
                }
            }
            Arc::new(column.finish()) as ArrayRef
        }};
    }
    macro_rules! texts {
        ($builder:expr) => {{
            let mut column = $builder;
            for value in values {
                match value {
                    KeptValue::Null => column.append_null(),
                    v => column.append_value(v.text()),
                }
            }
            Arc::new(column.finish()) as ArrayRef
        }};
    }
    macro_rules! bytes {
        ($builder:expr) => {{
            let mut column = $builder;
            for value in values {
                match value {
                    KeptValue::Null => column.append_null(),
                    KeptValue::Bytes(b) => column.append_value(b),
                    v => return Err(misfit(v)),
                }
            }
            Arc::new(column.finish()) as ArrayRef
        }};
    }
    Ok(match data_type {
        DataType::Boolean => {
            let mut column = BooleanBuilder::with_capacity(n);
            for value in values {
                match value {
                    KeptValue::Null => column.append_null(),
                    KeptValue::Bool(b) => column.append_value(*b),
                    v => return Err(misfit(v)),
                }
            }
            Arc::new(column.finish())
        }
        DataType::Int8 => integers!(Int8Type),
        DataType::Int16 => integers!(Int16Type),
        DataType::Int32 => integers!(Int32Type),
        DataType::Int64 => integers!(Int64Type),
        DataType::UInt8 => integers!(UInt8Type),
        DataType::UInt16 => integers!(UInt16Type),
        DataType::UInt32 => integers!(UInt32Type),
        DataType::UInt64 => integers!(UInt64Type),
        DataType::Float64 => {
            let mut column = Float64Builder::with_capacity(n);
            for value in values {
                match value {
                    KeptValue::Null => column.append_null(),
                    v => column.append_value(v.float().ok_or_else(|| misfit(v))?),
                }
            }
            Arc::new(column.finish())
        }
        DataType::Utf8 => texts!(StringBuilder::with_capacity(n, n * 8)),
        DataType::LargeUtf8 => texts!(LargeStringBuilder::with_capacity(n, n * 8)),
        DataType::Utf8View => texts!(StringViewBuilder::with_capacity(n)),
        DataType::Binary => bytes!(BinaryBuilder::with_capacity(n, n * 8)),
        DataType::LargeBinary => bytes!(LargeBinaryBuilder::with_capacity(n, n * 8)),
        DataType::BinaryView => bytes!(BinaryViewBuilder::with_capacity(n)),
        DataType::Null => {
            if let Some(v) = values.into_iter().find(|v| !v.is_null()) {
                return Err(misfit(v));
            }
            Arc::new(NullArray::new(n))
        }
        _ => {
            // Every other type comes as one-row arrays of its own type.
            let null = new_null_array(data_type, 1);
            let mut parts: Vec<ArrayRef> = Vec::with_capacity(n);
            for value in values {
                parts.push(match value {
                    KeptValue::Null => Arc::clone(&null),
                    KeptValue::Arrow(array) if array.data_type() == data_type => Arc::clone(array),
                    v => return Err(misfit(v)),
                });
            }
            if parts.is_empty() {
                new_empty_array(data_type)
            } else if matches!(data_type, DataType::Dictionary(..)) {
                // `concat` keeps one dictionary when the rows share it (they
                // do when they come from one input batch: each is a slice of it).
                let parts: Vec<&dyn Array> = parts.iter().map(AsRef::as_ref).collect();
                arrow_select::concat::concat(&parts)?
            } else {
                // Arrow's kernels are built unoptimised (Cargo.toml), so the
                // rows are put together with arrow-data's `MutableArrayData`.
                let parts: Vec<ArrayData> = parts.iter().map(|part| part.to_data()).collect();
                let mut column = MutableArrayData::try_new(parts.iter().collect(), false, n)?;
                for (i, part) in parts.iter().enumerate() {
                    column.try_extend(i, 0, part.len())?;
                }
                make_array(column.freeze())
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int64Type, UInt64Type};
    use arrow_array::{Array, RecordBatch};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use sudoku_core::grid::Grid;
    use sudoku_core::solver::Status;

    use super::*;
    use crate::kept::KeptColumn;

    /// A writer of `shape`'s columns on `r.parquet` in a fresh directory
    /// (removed when the returned guard drops), and the file's path.
    fn writer(shape: &Shape) -> (tempfile::TempDir, std::path::PathBuf, ParquetRows) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.parquet");
        let sink = Sink::File(std::fs::File::create(&path).unwrap());
        let rows = ParquetRows::create(sink, shape, ParquetCompression::Fast).unwrap();
        (dir, path, rows)
    }

    fn result(line: u64, kept: Vec<KeptValue>) -> PuzzleResult {
        PuzzleResult {
            input: 1,
            line,
            puzzle: Some(Grid::parse(&[b'.'; 81]).unwrap()),
            status: Status::Multiple,
            solution: None,
            guesses: Some(line),
            solve_ns: Some(1_250),
            check: None,
            message: Some("=r1c1".into()),
            expected: None,
            kept,
            sized: None,
            rating: None,
        }
    }

    #[test]
    fn rows_past_a_row_group_are_cut_at_the_first_page_end_past_it_and_read_back_in_order() {
        let shape = Shape {
            files: None,
            kept: vec![],
            blank: Blank::Dot,
            ..Shape::default()
        };
        let (_dir, path, mut rows) = writer(&shape);
        let rows_in_all = ROW_GROUP_ROWS + 3000;
        let mut line = 0;
        while line < rows_in_all as u64 {
            let batch: Vec<PuzzleResult> = (line..(line + 2000).min(rows_in_all as u64))
                .map(|l| result(l, vec![]))
                .collect();
            line += batch.len() as u64;
            rows.write(&batch).unwrap();
        }
        rows.finish().unwrap().finish().unwrap();

        let reader =
            ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&path).unwrap()).unwrap();
        let groups: Vec<i64> = (0..reader.metadata().num_row_groups())
            .map(|g| reader.metadata().row_group(g).num_rows())
            .collect();
        // A write of 2,000 rows is a page of grids, never cut.
        let first = ROW_GROUP_ROWS.div_ceil(2000) * 2000;
        assert_eq!(groups, [first as i64, (rows_in_all - first) as i64]);
        let mut next = 0;
        for batch in reader.build().unwrap() {
            let batch = batch.unwrap();
            let lines = batch
                .column_by_name("line")
                .unwrap()
                .as_primitive::<UInt64Type>();
            let guesses = batch
                .column_by_name("guesses")
                .unwrap()
                .as_primitive::<UInt64Type>();
            let messages = batch.column_by_name("message").unwrap().as_string::<i32>();
            for i in 0..batch.num_rows() {
                assert_eq!((lines.value(i), guesses.value(i)), (next, next));
                assert_eq!(messages.value(i), "'=r1c1");
                next += 1;
            }
        }
        assert_eq!(next, rows_in_all as u64);
    }

    #[test]
    fn the_dictionaries_name_every_status_and_check_at_their_index() {
        for status in Status::ALL {
            assert_eq!(STATUS_NAMES[status.index()], status.name());
        }
        for check in [Check::Ok, Check::Mismatch] {
            assert_eq!(CHECK_NAMES[usize::from(check_index(check))], check.name());
        }
    }

    #[test]
    fn paged_columns_and_their_nulls_read_back_across_pages() {
        let shape = Shape {
            blank: Blank::Dot,
            ..Shape::default()
        };
        let (_dir, path, mut rows) = writer(&shape);
        let solution = Grid::parse(&[b'1'; 81]).unwrap();
        // Two pages and a bit, nulls in runs and alone, in both columns.
        let n = 2 * grids::PAGE_ROWS + 13;
        let results: Vec<PuzzleResult> = (0..n as u64)
            .map(|line| {
                let mut r = result(line, vec![]);
                if line % 7 == 3 || (100..140).contains(&line) {
                    r.puzzle = None;
                }
                if line % 3 == 0 {
                    r.solution = Some(solution);
                }
                // Statuses and checks in runs and alone; a few messages.
                r.status = match line {
                    l if l % 11 == 5 => Status::Invalid,
                    l if (4000..4500).contains(&l) => Status::Timeout,
                    _ => Status::Solved,
                };
                r.check = match line % 5 {
                    0 => None,
                    1 => Some(Check::Mismatch),
                    _ => Some(Check::Ok),
                };
                r.message = (line % 13 == 0).then(|| format!("message {line}"));
                r.solve_ns = (line % 17 != 2).then_some(line * 1_234);
                // Guesses in runs of 0, nulls and jumps of every width.
                r.guesses = match line % 9 {
                    0 => None,
                    1 => Some(line.pow(4) + (1 << 40)),
                    2 => Some(line % 5),
                    _ => Some(0),
                };
                r
            })
            .collect();
        rows.write(&results).unwrap();
        rows.finish().unwrap().finish().unwrap();

        let file = std::fs::File::open(&path).unwrap();
        let mut next = 0;
        for batch in ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap()
        {
            let batch = batch.unwrap();
            let puzzles = batch.column_by_name("puzzle").unwrap().as_string::<i32>();
            let solutions = batch.column_by_name("solution").unwrap().as_string::<i32>();
            let column = |name| batch.column_by_name(name).unwrap().as_string::<i32>();
            let (statuses, checks, messages) =
                (column("status"), column("check"), column("message"));
            let times = batch.column_by_name("solve_us").unwrap();
            let times = times.as_primitive::<Float64Type>();
            let number = |name| {
                batch
                    .column_by_name(name)
                    .unwrap()
                    .as_primitive::<UInt64Type>()
            };
            let (lines, guesses) = (number("line"), number("guesses"));
            for i in 0..batch.num_rows() {
                let want = &results[next];
                let text =
                    |c: &arrow_array::StringArray| c.is_valid(i).then(|| c.value(i).to_owned());
                assert_eq!(statuses.value(i), want.status.name(), "row {next}");
                assert_eq!(text(checks), want.check.map(|c| c.name().to_owned()));
                assert_eq!(text(messages), want.message, "row {next}");
                let time = times.is_valid(i).then(|| times.value(i));
                assert_eq!(time, want.solve_us(), "row {next}");
                let guess = guesses.is_valid(i).then(|| guesses.value(i));
                assert_eq!(guess, want.guesses, "row {next}");
                assert_eq!(lines.value(i), want.line);
                let puzzle = want.puzzle.map(|_| ".".repeat(81));
                assert_eq!(
                    puzzles.is_valid(i).then(|| puzzles.value(i)),
                    puzzle.as_deref()
                );
                let solution = want.solution.map(|_| "1".repeat(81));
                assert_eq!(
                    solutions.is_valid(i).then(|| solutions.value(i)),
                    solution.as_deref(),
                    "row {next}"
                );
                next += 1;
            }
        }
        assert_eq!(next, n);

        // The one row group's statistics of `solve_us` and `status`.
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::file::statistics::Statistics;
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let group = reader.metadata().row_group(0);
        let stats = |name: &str| {
            let column = group
                .columns()
                .iter()
                .find(|c| c.column_path().string() == name);
            column.and_then(|c| c.statistics().cloned()).unwrap()
        };
        let times: Vec<f64> = results.iter().filter_map(PuzzleResult::solve_us).collect();
        let times_held = times.len();
        let least = times.iter().copied().fold(f64::INFINITY, f64::min);
        let most = times.iter().copied().fold(0.0, f64::max);
        let Statistics::Double(times) = stats("solve_us") else {
            panic!("solve_us: no statistics of doubles");
        };
        assert_eq!(
            (times.min_opt(), times.max_opt()),
            (Some(&least), Some(&most))
        );
        assert_eq!(times.null_count_opt(), Some((n - times_held) as u64));
        let Statistics::ByteArray(names) = stats("status") else {
            panic!("status: no statistics of names");
        };
        let name = |v: Option<&parquet::data_type::ByteArray>| v.map(|b| b.data().to_vec());
        assert_eq!(name(names.min_opt()), Some(b"invalid".to_vec()));
        assert_eq!(name(names.max_opt()), Some(b"timeout".to_vec()));
    }

    #[test]
    fn kept_columns_keep_their_types_and_the_rows_read_back() {
        let column = |name: &str, data_type| KeptColumn {
            name: name.into(),
            data_type,
        };
        let shape = Shape {
            files: Some(vec!["a.parquet".into(), "b.parquet".into()]),
            kept: vec![
                column("rating", DataType::Float64),
                column("id", DataType::Int64),
                column("hard", DataType::Boolean),
                column("status", DataType::Utf8),
                column("day", DataType::Date32),
            ],
            blank: Blank::Zero,
            ..Shape::default()
        };
        let (_dir, path, mut rows) = writer(&shape);
        let day = |d: i32| KeptValue::Arrow(Arc::new(arrow_array::Date32Array::from(vec![d])));
        let values = |rating, id: KeptValue, hard, status: &str, day| {
            vec![rating, id, hard, KeptValue::Text(status.into()), day]
        };
        rows.write(&[
            result(
                1,
                values(
                    KeptValue::Float(2.5),
                    KeptValue::Int(7),
                    KeptValue::Bool(true),
                    "x",
                    day(19_000),
                ),
            ),
            result(
                2,
                values(
                    KeptValue::Int(3),
                    KeptValue::UInt(8),
                    KeptValue::Null,
                    "y",
                    KeptValue::Null,
                ),
            ),
        ])
        .unwrap();
        rows.write(&[result(3, vec![])]).unwrap();
        rows.finish().unwrap().finish().unwrap();

        let file = std::fs::File::open(&path).unwrap();
        let batches: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(batches.len(), 1, "three rows are one row group");
        let batch = &batches[0];
        let names: Vec<&str> = batch
            .schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        assert_eq!(names[0], "file");
        assert_eq!(names[9..], ["rating", "id", "hard", "input_status", "day"]);
        let text = |name: &str| {
            batch
                .column_by_name(name)
                .unwrap()
                .as_string::<i32>()
                .clone()
        };
        assert_eq!(text("file").value(0), "b.parquet");
        assert_eq!(text("puzzle").value(0), "0".repeat(81));
        assert_eq!(text("message").value(0), "'=r1c1");
        assert!(text("solution").is_null(0) && text("check").is_null(2));
        let guesses = batch.column_by_name("guesses").unwrap();
        assert_eq!(guesses.as_primitive::<UInt64Type>().value(2), 3);
        let micros = batch.column_by_name("solve_us").unwrap();
        assert_eq!(micros.as_primitive::<Float64Type>().value(0), 1.3);
        let rating = batch
            .column_by_name("rating")
            .unwrap()
            .as_primitive::<Float64Type>()
            .clone();
        assert_eq!((rating.value(0), rating.value(1)), (2.5, 3.0));
        assert!(rating.is_null(2), "a row without values has nulls");
        let id = batch
            .column_by_name("id")
            .unwrap()
            .as_primitive::<Int64Type>()
            .clone();
        assert_eq!((id.value(0), id.value(1)), (7, 8));
        let day = batch.column_by_name("day").unwrap();
        assert_eq!(day.data_type(), &DataType::Date32);
        assert!(day.is_valid(0) && day.is_null(1));
        let hard = batch.column_by_name("hard").unwrap().as_boolean().clone();
        assert!(hard.value(0) && hard.is_null(1));
        assert_eq!(text("input_status").value(1), "y");
    }

    #[test]
    fn a_value_its_column_cannot_hold_is_an_error_never_a_null() {
        let text = [KeptValue::Text("8".into())];
        assert!(kept_column(&DataType::Int64, text.iter(), 1).is_err());
        let big = [KeptValue::UInt(u64::MAX)];
        assert!(kept_column(&DataType::Int64, big.iter(), 1).is_err());
        let column = kept_column(&DataType::Utf8, big.iter(), 1).unwrap();
        assert_eq!(column.as_string::<i32>().value(0), u64::MAX.to_string());
    }
}
