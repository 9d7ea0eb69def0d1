//! Results as Apache Parquet, with arrow-rs's writer: the CSV's columns,
//! typed, built from each chunk's results on the solver worker that
//! finished it ([`RowFormat::columns`]) and written in row groups of
//! [`ROW_GROUP_ROWS`] as the run goes, the footer when the writer finishes
//! (also after an interrupt). The columns are encoded and compressed on
//! three threads (`puzzle`; `solution` with `guesses` and `solve_us`; the
//! others), as arrow-rs's column writers allow, and the writer's thread
//! only hands them their slices: compressing them all on the writer's
//! thread held a run to its speed.
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
//! only cost time, and for `status` and `check`, whose few names zstd
//! squeezes to a few hundred bytes a row group anyway. The grids (`puzzle`,
//! `solution`) are written uncompressed and without min/max statistics
//! (every page spans nearly all grids, so they would filter nothing): zstd
//! squeezes the grids' digits only 2.4-2.8 times, by entropy coding, at
//! about 400 MB/s a core, so compressing them took more CPU than solving
//! did (a million easy puzzles: 0.95 CPU-s against the solver's 0.42),
//! and snappy and LZ4 do no better for speed on such text. `line` and
//! `guesses` are delta-encoded (a few bits a row) and `solve_us` plain,
//! all three uncompressed; the rest is zstd-compressed (level 1). On 100,000
//! Kaggle rows these choices took 10 % of the instructions of a run to
//! Parquet (845M to 759M at `-j 1`), for a file 3 % larger (about 178 bytes
//! a row); any reader reads them.

use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use arrow_array::builder::{
    BinaryBuilder, BinaryViewBuilder, BooleanBuilder, Float64Builder, LargeBinaryBuilder,
    LargeStringBuilder, NullBufferBuilder, OffsetBufferBuilder, PrimitiveBuilder, StringBuilder,
    StringViewBuilder, UInt64Builder,
};
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    make_array, new_empty_array, new_null_array, Array, ArrayRef, NullArray, StringArray,
};
use arrow_data::transform::MutableArrayData;
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_writer::{
    compute_leaves, ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory,
};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;

use crate::kept::KeptValue;
use crate::output::rating::RatingColumns;
use crate::output::result::PuzzleResult;
use crate::output::{clean_message, Blank, RowFormat, Shape, FILE_COLUMN};

use super::Sink;

/// Rows per row group: about 10 MB of encoded columns held in memory at
/// most, and a row group on disk every few seconds of a fast run.
pub const ROW_GROUP_ROWS: usize = 128 * 1024;

/// Bytes of a data page at which it is cut (at the end of a mini-batch of
/// 1,024 values: about 83 KB of grids): a page buffer stays under the
/// allocator's threshold for mapping fresh memory, so the pages of one row
/// group reuse the memory of the last instead of faulting in new pages
/// (Parquet's default is 1 MiB).
const PAGE_BYTES: usize = 64 * 1024;

/// The columns of grids: written uncompressed and without statistics (see
/// the module's notes).
const GRID_COLUMNS: [&str; 2] = ["puzzle", "solution"];

/// The columns written without a dictionary: values nearly all different
/// (`line`, the grids, `solve_us`), or so few that plain values compress
/// to nothing (`status`, `check`: interning every value cost 4 % of a
/// Parquet run's instructions).
const NO_DICTIONARY: [&str; 7] = [
    "line", "puzzle", "solution", "solve_us", "status", "check", "guesses",
];

/// The columns written uncompressed: the grids; `line` and `guesses`,
/// which [`DELTA_COLUMNS`] packs to a few bits a row anyway; `solve_us`,
/// 8 bytes a row, which zstd shrinks about 5 times but at 3 % of a
/// Parquet run's instructions (a file 4 % larger).
const UNCOMPRESSED: [&str; 5] = ["puzzle", "solution", "line", "guesses", "solve_us"];

/// The integer columns delta-encoded: `line` counts up by one, and
/// `guesses` is mostly 0 on the puzzles that come by the million.
const DELTA_COLUMNS: [&str; 2] = ["line", "guesses"];

/// The columns encoded on threads of their own, a thread for each list:
/// `puzzle` and `solution` are most of the bytes to encode, and the two
/// numbers cost most after them. The others are encoded on one more thread.
const ENCODERS: [&[&str]; 2] = [&["puzzle"], &["solution", "guesses", "solve_us"]];

/// Writes results rows as Parquet to a [`Sink`].
pub(crate) struct ParquetRows {
    file: SerializedFileWriter<Sink>,
    factory: ArrowRowGroupWriterFactory,
    /// The row group being filled, `None` before its first rows.
    group: Option<Group>,
    /// Rows in `group`.
    group_rows: usize,
    /// Row groups written.
    groups: usize,
    schema: SchemaRef,
    /// How the columns are built from results (shared with the workers).
    table: Arc<TableColumns>,
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
}

/// A chunk's rows as the columns of a Parquet table, in the schema's order,
/// built from their results on a solver worker ([`RowFormat::columns`]); or
/// why a column could not be built (a kept value its column cannot hold).
#[derive(Clone, Debug)]
pub struct Columns(Result<Vec<ArrayRef>, String>);

impl Columns {
    /// Rows in the columns (0 for columns that could not be built).
    pub fn rows(&self) -> usize {
        match &self.0 {
            Ok(arrays) => arrays.first().map_or(0, |a| a.len()),
            Err(_) => 0,
        }
    }
}

impl RowFormat for TableColumns {
    /// No text: a table's rows are its [`RowFormat::columns`].
    fn row(&self, _result: &PuzzleResult, _out: &mut Vec<u8>) {}

    fn builds_columns(&self) -> bool {
        true
    }

    fn columns(&self, runs: &[&[PuzzleResult]]) -> Option<Columns> {
        let n = runs.iter().map(|run| run.len()).sum();
        let results = runs.iter().flat_map(|run| run.iter());
        Some(Columns(self.build(results, n).map_err(|e| e.to_string())))
    }
}

impl ParquetRows {
    /// Starts a Parquet file of `shape`'s columns on `sink` (a plain file
    /// or stdout).
    ///
    /// # Errors
    /// The writer cannot start.
    pub(crate) fn create(sink: Sink, shape: &Shape) -> Result<ParquetRows, ParquetError> {
        let schema = Arc::new(schema(shape));
        let mut props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_data_page_size_limit(PAGE_BYTES)
            .set_created_by(format!("sudoku-batch {}", env!("CARGO_PKG_VERSION")));
        for column in NO_DICTIONARY {
            props = props.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        for column in UNCOMPRESSED {
            props =
                props.set_column_compression(ColumnPath::from(column), Compression::UNCOMPRESSED);
        }
        for column in GRID_COLUMNS {
            props = props
                .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
        }
        for column in DELTA_COLUMNS {
            props =
                props.set_column_encoding(ColumnPath::from(column), Encoding::DELTA_BINARY_PACKED);
        }
        // The file writer and the column writers' factory of an
        // `ArrowWriter`: its file metadata (the Arrow schema included), with
        // the columns encoded here.
        let (file, factory) = ArrowWriter::try_new(sink, Arc::clone(&schema), Some(props.build()))?
            .into_serialized_writer()?;
        Ok(ParquetRows {
            file,
            factory,
            group: None,
            group_rows: 0,
            groups: 0,
            table: Arc::new(TableColumns {
                files: shape.files.clone(),
                kept: shape.kept.iter().map(|c| c.data_type.clone()).collect(),
                blank: shape.blank,
                rating: shape.rating,
                width: schema.fields().len(),
            }),
            schema,
        })
    }

    /// How the columns are built from results, for the workers.
    pub(crate) fn table(&self) -> Arc<TableColumns> {
        Arc::clone(&self.table)
    }

    /// Adds one row per result; a row group is written each time
    /// [`ROW_GROUP_ROWS`] rows are buffered.
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
        let columns = self.table.build(runs.iter().flat_map(AsRef::as_ref), n)?;
        self.write_arrays(&columns, n)
    }

    /// Adds the rows of `columns`, built by [`TableColumns`] (on a worker).
    ///
    /// # Errors
    /// A column could not be built, or the rows cannot be encoded or
    /// written.
    pub(crate) fn write_columns(&mut self, columns: &Columns) -> Result<(), ParquetError> {
        let arrays = columns
            .0
            .as_ref()
            .map_err(|e| ParquetError::General(e.clone()))?;
        self.write_arrays(arrays, columns.rows())
    }

    /// Adds the `n` rows of `columns` (in the schema's order), cut into row
    /// groups of [`ROW_GROUP_ROWS`].
    fn write_arrays(&mut self, columns: &[ArrayRef], n: usize) -> Result<(), ParquetError> {
        let mut done = 0;
        while done < n {
            let group = match &mut self.group {
                Some(group) => group,
                None => {
                    let writers = self.factory.create_column_writers(self.groups)?;
                    self.group.insert(Group::start(&self.schema, writers)?)
                }
            };
            let take = (n - done).min(ROW_GROUP_ROWS - self.group_rows);
            let slices: Vec<ArrayRef> = columns.iter().map(|c| c.slice(done, take)).collect();
            group.encode(&slices);
            done += take;
            self.group_rows += take;
            if self.group_rows == ROW_GROUP_ROWS {
                self.close_group()?;
            }
        }
        Ok(())
    }

    /// Writes the row group being filled, if any.
    fn close_group(&mut self) -> Result<(), ParquetError> {
        let Some(group) = self.group.take() else {
            return Ok(());
        };
        let chunks = group.close()?;
        let mut row_group = self.file.next_row_group()?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut row_group)?;
        }
        row_group.close()?;
        self.group_rows = 0;
        self.groups += 1;
        Ok(())
    }

    /// Writes the last row group and the footer, and hands back the sink
    /// (not flushed).
    ///
    /// # Errors
    /// The last rows or the footer cannot be written.
    pub(crate) fn finish(mut self) -> Result<Sink, ParquetError> {
        self.close_group()?;
        self.file.into_inner()
    }
}

impl TableColumns {
    /// The columns of the `n` `results`, in the schema's order.
    ///
    /// # Errors
    /// A kept value its column cannot hold (see [`kept_column`]).
    fn build<'a>(
        &self,
        results: impl Iterator<Item = &'a PuzzleResult> + Clone,
        n: usize,
    ) -> Result<Vec<ArrayRef>, ParquetError> {
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.width);
        if let Some(files) = &self.files {
            let mut file = StringBuilder::with_capacity(n, n * 16);
            for result in results.clone() {
                file.append_option(files.get(result.input));
            }
            columns.push(Arc::new(file.finish()));
        }
        let mut line = UInt64Builder::with_capacity(n);
        let mut puzzle = GridColumn::with_capacity(n);
        let mut status = StringBuilder::with_capacity(n, n * 8);
        let mut solution = GridColumn::with_capacity(n);
        let mut guesses = UInt64Builder::with_capacity(n);
        let mut solve_us = Float64Builder::with_capacity(n);
        let mut check = StringBuilder::with_capacity(n, n * 2);
        let mut message = StringBuilder::new();
        let mut rating = Float64Builder::with_capacity(n);
        let mut hardest = StringBuilder::new();
        let mut steps = UInt64Builder::with_capacity(n);
        for result in results.clone() {
            let rated = result.rating.as_ref();
            rating.append_option(rated.map(|r| r.value()));
            hardest.append_option(rated.map(|r| r.hardest.as_ref()));
            steps.append_option(rated.map(|r| u64::from(r.steps)));
            line.append_value(result.line);
            status.append_value(result.status.name());
            if let Some(sized) = &result.sized {
                let text = sized.puzzle_text(self.blank.byte(&sized.symbols));
                puzzle.append(Some(text.as_bytes()));
                solution.append(sized.solution_text().as_ref().map(|t| t.as_bytes()));
            } else {
                let line = result.puzzle.map(|g| self.blank.puzzle_bytes(&g));
                puzzle.append(line.as_ref().map(|l| &l[..]));
                let line = result.solution.map(|g| g.line_bytes());
                solution.append(line.as_ref().map(|l| &l[..]));
            }
            guesses.append_option(result.guesses);
            solve_us.append_option(result.solve_us());
            check.append_option(result.check.map(|c| c.name()));
            message.append_option(result.message.as_deref().map(clean_message));
        }
        columns.push(Arc::new(line.finish()));
        columns.push(Arc::new(puzzle.finish()?));
        let rating: ArrayRef = Arc::new(rating.finish());
        let hardest: ArrayRef = Arc::new(hardest.finish());
        if self.rating == RatingColumns::Only {
            columns.extend([rating, hardest, Arc::new(steps.finish())]);
            columns.push(Arc::new(status.finish()));
            columns.push(Arc::new(message.finish()));
        } else {
            columns.push(Arc::new(status.finish()));
            columns.push(Arc::new(solution.finish()?));
            columns.push(Arc::new(guesses.finish()));
            columns.push(Arc::new(solve_us.finish()));
            columns.push(Arc::new(check.finish()));
            columns.push(Arc::new(message.finish()));
            if self.rating == RatingColumns::Appended {
                columns.extend([rating, hardest]);
            }
        }
        for (i, data_type) in self.kept.iter().enumerate() {
            let values = results
                .clone()
                .map(|r| r.kept.get(i).unwrap_or(&KeptValue::Null));
            columns.push(kept_column(data_type, values, n)?);
        }
        Ok(columns)
    }
}

/// A row group being encoded: the columns of each list of [`ENCODERS`] on
/// a thread of its own, and the others on one more, each fed through a
/// short queue so that no thread waits for another's page compression, and
/// the writer's thread only hands them their slices.
struct Group {
    /// The threads encoding the columns.
    away: Vec<Encoder>,
}

/// A thread encoding some columns of a row group.
struct Encoder {
    /// The positions of its columns, in order.
    columns: Vec<usize>,
    /// Their slices, to the thread.
    queue: SyncSender<Vec<ArrayRef>>,
    /// The thread: its columns' chunks.
    thread: JoinHandle<Result<Vec<ArrowColumnChunk>, ParquetError>>,
}

impl Group {
    /// Starts a row group of `schema`'s columns on `writers` (one per
    /// column, in order).
    fn start(schema: &SchemaRef, writers: Vec<ArrowColumnWriter>) -> Result<Group, ParquetError> {
        let mut parts: Vec<Vec<(usize, Arc<Field>, ArrowColumnWriter)>> =
            (0..=ENCODERS.len()).map(|_| Vec::new()).collect();
        for (i, (writer, field)) in writers.into_iter().zip(schema.fields()).enumerate() {
            let name = field.name().as_str();
            let part = ENCODERS
                .iter()
                .position(|names| names.contains(&name))
                .unwrap_or(ENCODERS.len());
            parts[part].push((i, Arc::clone(field), writer));
        }
        let mut away = Vec::new();
        for part in parts.into_iter().filter(|p| !p.is_empty()) {
            let columns = part.iter().map(|(i, _, _)| *i).collect();
            // Up to a row group of slices waits (64 chunks of 2,048 rows),
            // so that closing one rarely waits for the encoders.
            let (queue, slices) = sync_channel::<Vec<ArrayRef>>(64);
            let thread = std::thread::Builder::new()
                .name("parquet".into())
                .spawn(move || {
                    let mut part = part;
                    for slice in slices {
                        for ((_, field, writer), column) in part.iter_mut().zip(&slice) {
                            encode(writer, field, column)?;
                        }
                    }
                    part.into_iter()
                        .map(|(_, _, writer)| writer.close())
                        .collect()
                })
                .map_err(|e| ParquetError::External(Box::new(e)))?;
            away.push(Encoder {
                columns,
                queue,
                thread,
            });
        }
        Ok(Group { away })
    }

    /// Hands one slice of every column (in the schema's order) to the
    /// threads encoding them.
    fn encode(&mut self, columns: &[ArrayRef]) {
        for encoder in &self.away {
            let slice = encoder
                .columns
                .iter()
                .map(|&i| Arc::clone(&columns[i]))
                .collect();
            // A closed queue means the thread failed: `close` reports why.
            let _ = encoder.queue.send(slice);
        }
    }

    /// Ends the row group: every column's chunk, in the schema's order.
    fn close(self) -> Result<Vec<ArrowColumnChunk>, ParquetError> {
        let mut chunks = Vec::new();
        for encoder in self.away {
            drop(encoder.queue);
            let done = encoder.thread.join().unwrap_or_else(|_| {
                Err(ParquetError::General("a column encoder panicked".into()))
            })?;
            chunks.extend(encoder.columns.into_iter().zip(done));
        }
        chunks.sort_by_key(|(i, _)| *i);
        Ok(chunks.into_iter().map(|(_, chunk)| chunk).collect())
    }
}

/// Encodes `column` (of `field`) into `writer`.
fn encode(
    writer: &mut ArrowColumnWriter,
    field: &Field,
    column: &ArrayRef,
) -> Result<(), ParquetError> {
    for leaf in compute_leaves(field, column)? {
        writer.write(&leaf)?;
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

/// A column of grids' text (`puzzle`, `solution`) being built: the
/// values' bytes appended as they are and checked to be UTF-8 once, when
/// the column is finished, instead of once a value (81 bytes each, a
/// twentieth of the Parquet writer's time).
struct GridColumn {
    values: Vec<u8>,
    offsets: OffsetBufferBuilder<i32>,
    nulls: NullBufferBuilder,
}

impl GridColumn {
    /// An empty column with room for `n` 9x9 grids.
    fn with_capacity(n: usize) -> GridColumn {
        GridColumn {
            values: Vec::with_capacity(n * 81),
            offsets: OffsetBufferBuilder::new(n),
            nulls: NullBufferBuilder::new(n),
        }
    }

    /// Appends a value, or a null.
    fn append(&mut self, value: Option<&[u8]>) {
        let text = value.unwrap_or_default();
        self.values.extend_from_slice(text);
        self.nulls.append(value.is_some());
        // Offsets past `i32` are found by `finish`.
        let _ = self.offsets.try_push_length(text.len());
    }

    /// The column as Arrow text.
    ///
    /// # Errors
    /// A value is not UTF-8, or the values pass 2 GiB (never expected:
    /// grids are ASCII, a batch a few thousand rows).
    fn finish(mut self) -> Result<StringArray, ParquetError> {
        let offsets = self.offsets.try_finish().map_err(|e| grid_error(&e))?;
        StringArray::try_new(offsets, self.values.into(), self.nulls.finish())
            .map_err(|e| grid_error(&e))
    }
}

/// The error of a grid column that Arrow refuses.
fn grid_error(e: &dyn std::fmt::Display) -> ParquetError {
    ParquetError::General(format!("a grid column: {e}"))
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
    fn rows_past_a_row_group_are_cut_at_its_size_and_read_back_in_order() {
        let shape = Shape {
            files: None,
            kept: vec![],
            blank: Blank::Dot,
            ..Shape::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.parquet");
        let sink = Sink::File(std::fs::File::create(&path).unwrap());
        let mut rows = ParquetRows::create(sink, &shape).unwrap();
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
        assert_eq!(groups, [ROW_GROUP_ROWS as i64, 3000]);
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
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.parquet");
        let sink = Sink::File(std::fs::File::create(&path).unwrap());
        let mut rows = ParquetRows::create(sink, &shape).unwrap();
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
