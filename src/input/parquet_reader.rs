//! Reading Parquet inputs: the `parquet` crate's Arrow reader reads one row
//! group at a time, only the columns used, in batches of [`BATCH_ROWS`]
//! rows, so memory stays bounded by one row group's pages whatever the
//! file's size.
//!
//! Each row is a record; its line is its 1-based row number. The reading
//! thread decodes the Arrow batches and [`ParquetReader`] cuts their rows
//! into a [`RecordBatch`](Batch); the solver workers make them records with
//! the per-row rules of [`super::parquet`] ([`TableRules`]).

use std::fs::File;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder,
};
use parquet::arrow::ProjectionMask;
use parquet::basic::{Repetition, Type as PhysicalType};
use parquet::file::metadata::{
    FileMetaData, ParquetMetaData, ParquetMetaDataBuilder, RowGroupMetaData,
};
use parquet::schema::types::{SchemaDescriptor, Type};

use super::choose::{self, Choice, Seen};
use super::choose::{PUZZLE_NAMES, SOLUTION_NAMES, STATUS_NAME};
use super::keep::Keep;
use super::parquet::{value_at, Table, TableRules};
use super::parquet_file::ParquetFile;
use super::record_batch::{RecordBatch as Batch, FILL_BYTES, IN_FLIGHT_BYTES};
use super::sized::{Numbering, Vote};
use super::{Column, InputError, Record, SizeOptions};
use crate::kept::KeptColumn;

/// Rows per Arrow batch, at most ([`batch_rows`]).
pub const BATCH_ROWS: usize = 4096;

/// Rows of an Arrow batch read from the row group `group`, of its columns
/// at `roots` (positions among the file's columns): `most`, fewer when
/// their values would take more than [`FILL_BYTES`] (by the footer's
/// uncompressed sizes, on average), at least one. Kept values of a
/// megabyte a row would otherwise make a batch of [`BATCH_ROWS`] 4 GB.
pub fn batch_rows(group: &RowGroupMetaData, roots: &[usize], most: usize) -> usize {
    let schema = group.schema_descr();
    let bytes: i64 = group
        .columns()
        .iter()
        .enumerate()
        .filter(|(leaf, _)| roots.contains(&schema.get_column_root_idx(*leaf)))
        .map(|(_, column)| column.uncompressed_size().max(0))
        .sum();
    let rows = group.num_rows().max(1);
    let row_bytes = usize::try_from(bytes / rows).unwrap_or(usize::MAX).max(1);
    (FILL_BYTES / row_bytes).clamp(1, most.max(1))
}

/// Records from a Parquet file.
pub struct ParquetReader {
    file: ParquetFile,
    metadata: ArrowReaderMetadata,
    name: String,
    /// Top-level columns read, ascending (the batch's columns are these).
    projection: Vec<usize>,
    rules: Arc<TableRules>,
    /// The kept columns.
    kept_columns: Vec<KeptColumn>,
    next_group: usize,
    rows: Option<ParquetRecordBatchReader>,
    /// The Arrow batch being cut, its columns found.
    batch: Option<Table>,
    row: usize,
    line: u64,
    /// Raw bytes read, for progress: each row group's compressed size as it
    /// starts (`None` when the bytes were counted as they were spooled).
    consumed: Option<Arc<AtomicU64>>,
    /// The numbering was chosen on the first Arrow batch ([`ParquetReader::look`]).
    looked: bool,
}

impl ParquetReader {
    /// Opens the Parquet `file` (named `name` in errors) and chooses its
    /// columns: `column`, else a puzzle name, else by content
    /// ([`by_content`]).
    ///
    /// # Errors
    /// [`InputError::Parquet`] when the file's footer cannot be read;
    /// [`InputError::UnknownColumn`] for a `--column` it lacks.
    pub fn new(
        file: File,
        column: Option<&Column>,
        keep: &Keep,
        name: String,
        consumed: Option<Arc<AtomicU64>>,
    ) -> Result<ParquetReader, InputError> {
        let error = |e: parquet::errors::ParquetError| InputError::Parquet {
            path: name.clone().into(),
            message: e.to_string(),
        };
        let file = ParquetFile::new(file).map_err(|e| InputError::io(&name, e))?;
        let mut metadata =
            ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).map_err(error)?;
        let names: Vec<String> = metadata
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        let find = |wanted: &[&str]| {
            names
                .iter()
                .position(|n| wanted.iter().any(|w| n.eq_ignore_ascii_case(w)))
        };
        let unknown = |column: String| InputError::UnknownColumn {
            path: name.clone().into(),
            column,
            header: Some(names.join(",")),
        };
        let named_solution = find(&SOLUTION_NAMES);
        let named_puzzle = match column {
            Some(Column::Name(want)) => Some(
                super::keep::find_name(&names, want, &name)?
                    .ok_or_else(|| unknown(want.clone()))?,
            ),
            Some(Column::Index(n)) => Some(
                Some(n - 1)
                    .filter(|&i| i < names.len())
                    .ok_or_else(|| unknown(n.to_string()))?,
            ),
            None => find(&PUZZLE_NAMES),
        };
        let kept = keep.resolve(&names, &name)?;
        // The columns the run reads whatever their length are looked at
        // whatever their length.
        let always = |i: usize| Some(i) == named_puzzle || kept.contains(&i);
        // What each column shows in the first rows, looked at when the
        // puzzle or the solution column is chosen by content. A file whose
        // first rows cannot be read says so where the puzzle column is
        // chosen by content; for the solution column it has none (each
        // row then says what is wrong with it).
        let looked = match (named_puzzle, named_solution) {
            (Some(_), Some(_)) => Looked::default(),
            (Some(_), None) => by_content(&file, &metadata, &names, always).unwrap_or_default(),
            (None, _) => by_content(&file, &metadata, &names, always).map_err(error)?,
        };
        let seen = &looked.seen;
        let puzzle = match named_puzzle {
            Some(i) => Some(i),
            None => match choose::choose(seen) {
                // A column not read may hold the puzzles: only one that
                // shows whole puzzles is chosen over it.
                Choice::Column(i) if matches!(seen[i], Seen::Puzzle(_)) => Some(i),
                _ if !looked.unread.is_empty() => {
                    return Err(InputError::PuzzleColumnUnclear {
                        path: name.into(),
                        place: looked.place(),
                        columns: looked.unread_unclear(|i| names[i].clone()),
                    });
                }
                Choice::Column(i) => Some(i),
                Choice::Nothing => None,
                Choice::Unclear { complete, empty } => {
                    return Err(InputError::PuzzleColumnUnclear {
                        path: name.into(),
                        place: looked.place(),
                        columns: choose::describe(&complete, &empty, |i| names[i].clone()),
                    });
                }
            },
        };
        let solution = match named_solution {
            Some(i) => Some(i).filter(|&i| Some(i) != puzzle),
            None => puzzle.and_then(|p| choose::solution_column(seen, p)),
        };
        // A solution column not read for its length is never left
        // unchecked without a word.
        if puzzle.is_some() && named_solution.is_none() && solution.is_none() {
            if let Some(warning) = looked.unchecked(&name, |i| names[i].clone()) {
                crate::stderrln!("{warning}");
            }
        }
        let status = find(&[STATUS_NAME]);
        let fields = metadata.schema().fields();
        let kept_columns = kept
            .iter()
            .map(|&i| KeptColumn {
                name: names[i].clone(),
                data_type: fields[i].data_type().clone(),
            })
            .collect();
        let read = [puzzle, solution, status];
        if let Some(viewed) = as_views(&metadata, read, &kept) {
            metadata = viewed;
        }
        let mut projection: Vec<usize> = read
            .into_iter()
            .flatten()
            .chain(kept.iter().copied())
            .collect();
        projection.sort_unstable();
        projection.dedup();
        let at = |i: Option<usize>| i.and_then(|i| projection.iter().position(|&p| p == i));
        Ok(ParquetReader {
            rules: Arc::new(TableRules {
                puzzle: at(puzzle),
                solution: at(solution),
                status: at(status),
                kept: kept.iter().filter_map(|&i| at(Some(i))).collect(),
                sizes: SizeOptions::default(),
            }),
            kept_columns,
            projection,
            file,
            metadata,
            name,
            next_group: 0,
            rows: None,
            batch: None,
            row: 0,
            line: 0,
            consumed,
            looked: false,
        })
    }

    /// This reader, reading grids of other sizes than 9x9 with `sizes`
    /// (`--symbols`, `--box`).
    pub fn with_sizes(mut self, sizes: SizeOptions) -> ParquetReader {
        Arc::make_mut(&mut self.rules).sizes = sizes;
        self
    }

    /// The kept columns, with their Parquet types mapped.
    pub fn kept_columns(&self) -> Vec<KeptColumn> {
        self.kept_columns.clone()
    }

    fn error(&self, message: String) -> InputError {
        InputError::Parquet {
            path: self.name.clone().into(),
            message,
        }
    }

    /// Starts the next row group; `Ok(false)` after the last.
    fn next_group(&mut self) -> Result<bool, InputError> {
        let groups = self.metadata.metadata().num_row_groups();
        if self.next_group >= groups {
            return Ok(false);
        }
        let group = self.next_group;
        self.next_group += 1;
        let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(
            self.file.clone(),
            self.metadata.clone(),
        );
        let mask = ProjectionMask::roots(builder.parquet_schema(), self.projection.iter().copied());
        let batch_rows = batch_rows(
            self.metadata.metadata().row_group(group),
            &self.projection,
            BATCH_ROWS,
        );
        let rows = builder
            .with_row_groups(vec![group])
            .with_projection(mask)
            .with_batch_size(batch_rows)
            .build()
            .map_err(|e| self.error(e.to_string()))?;
        if let Some(consumed) = &self.consumed {
            let size = self.metadata.metadata().row_group(group).compressed_size();
            consumed.fetch_add(u64::try_from(size).unwrap_or(0), Ordering::Relaxed);
        }
        self.rows = Some(rows);
        Ok(true)
    }

    /// The next record, `None` at the end of the file.
    pub fn next_record(&mut self) -> Option<Result<Record, InputError>> {
        if let Err(e) = self.rows_left()? {
            return Some(Err(e));
        }
        let batch = self.batch.as_ref()?;
        let row = self.row;
        self.row += 1;
        self.line += 1;
        Some(Ok(self.rules.record(batch, row, self.line)))
    }

    /// Cuts the next rows into `batch`, at least one and at most `max`, as
    /// rows of the Arrow batch they are in: the workers make them records
    /// ([`TableRules::record`]). `None` at the end of the file.
    pub fn next_item(&mut self, batch: &mut Batch, max: usize) -> Option<Result<(), InputError>> {
        if let Err(e) = self.rows_left()? {
            return Some(Err(e));
        }
        let table = self.batch.as_ref()?;
        // No more rows than fill the batch's bytes (one at least).
        let room = batch.fill_bytes().saturating_sub(batch.byte_len()) / table.bytes_of(1).max(1);
        let max = max.min(room).max(1);
        let rows = self.row..table.num_rows().min(self.row + max);
        batch.push_rows(&self.rules, table, rows.clone(), self.line + 1);
        self.line += rows.len() as u64;
        self.row = rows.end;
        Some(Ok(()))
    }

    /// Chooses, unless `--symbols` says, the numbering of the file's grids
    /// ([`Numbering::of`] its first rows read alone and in each numbering:
    /// the first [`ROWS_LOOKED_AT`] of `first`, its first Arrow batch)
    /// before any row is made a record on the workers, so that no row is
    /// read in another (a complete grid numbered from 0 shows no `-1`
    /// blank).
    fn look(&mut self, first: &Table) {
        if self.rules.sizes.symbols.is_some() {
            return;
        }
        let rows = first.num_rows().min(ROWS_LOOKED_AT);
        let rules = Numbering::READINGS.map(|numbering| {
            let mut rules = TableRules::clone(&self.rules);
            rules.sizes.numbering = numbering;
            rules
        });
        let votes = (0..rows).filter_map(|row| {
            Vote::of(
                rules
                    .each_ref()
                    .map(|rules| rules.record(first, row, row as u64 + 1)),
            )
        });
        Arc::make_mut(&mut self.rules).sizes.numbering = Numbering::of(votes);
    }

    /// Makes sure the current Arrow batch has a row left, reading the next
    /// batches (and row groups) as needed; `None` at the end of the file.
    fn rows_left(&mut self) -> Option<Result<(), InputError>> {
        loop {
            if let Some(batch) = &self.batch {
                if self.row < batch.num_rows() {
                    return Some(Ok(()));
                }
                self.batch = None;
            }
            match self.rows.as_mut().map(Iterator::next) {
                Some(Some(Ok(batch))) => {
                    let table = self.rules.table(batch);
                    if !std::mem::replace(&mut self.looked, true) {
                        self.look(&table);
                    }
                    self.batch = Some(table);
                    self.row = 0;
                }
                Some(Some(Err(e))) => {
                    self.rows = None;
                    self.next_group = usize::MAX;
                    return Some(Err(self.error(e.to_string())));
                }
                Some(None) | None => match self.next_group() {
                    Ok(true) => {}
                    Ok(false) => return None,
                    Err(e) => {
                        self.next_group = usize::MAX;
                        return Some(Err(e));
                    }
                },
            }
        }
    }
}

/// `metadata` with the text and byte columns of `read` and `kept` read as
/// views of the pages (Utf8View, BinaryView) instead of copied into Arrow
/// strings: each value is then a 16-byte view (decoding the three text
/// columns of a results file took 440 instructions a row on the reading
/// thread), and a dictionary-encoded column's values are views of its
/// dictionary, so a batch takes about the bytes the footer gives its pages
/// (a 1 MB note repeated on 4,096 rows, a 52 KB file, was 4 GB of Arrow
/// strings, and overflowed their 32-bit offsets). The grid columns among
/// `read` (puzzle, solution) that are not kept are read as views of bytes
/// (BinaryView), their pages not checked as UTF-8 ([`as_bytes`]): their
/// values are parsed byte by byte as any input's are. A kept value of a
/// view is the same [`KeptValue`](crate::kept::KeptValue) as of the
/// column's own type, which its [`KeptColumn`] keeps. `None` when no
/// column is read so, or the reader refuses the types.
fn as_views(
    metadata: &ArrowReaderMetadata,
    read: [Option<usize>; 3],
    kept: &[usize],
) -> Option<ArrowReaderMetadata> {
    let schema = metadata.schema();
    let view = |i: usize| match schema.field(i).data_type() {
        DataType::Utf8 | DataType::LargeUtf8 => Some(DataType::Utf8View),
        DataType::Binary | DataType::LargeBinary if kept.contains(&i) => Some(DataType::BinaryView),
        _ => None,
    };
    let viewed = |i: usize| (read.contains(&Some(i)) || kept.contains(&i)) && view(i).is_some();
    if !(0..schema.fields().len()).any(viewed) {
        return None;
    }
    let roots = metadata
        .metadata()
        .file_metadata()
        .schema_descr()
        .root_schema();
    let bytes = |i: usize| {
        viewed(i)
            && !kept.contains(&i)
            && schema.field(i).data_type() == &DataType::Utf8
            && [read[0], read[1]].contains(&Some(i))
            && roots.get_fields().get(i).is_some_and(|f| plain_text(f))
    };
    let hinted = |bytes: &dyn Fn(usize) -> bool| {
        let fields: Vec<Field> = schema
            .fields()
            .iter()
            .enumerate()
            .map(|(i, field)| match (viewed(i), bytes(i)) {
                (true, true) => field.as_ref().clone().with_data_type(DataType::BinaryView),
                (true, false) => match view(i) {
                    Some(view) => field.as_ref().clone().with_data_type(view),
                    None => field.as_ref().clone(),
                },
                (false, _) => field.as_ref().clone(),
            })
            .collect();
        let hinted = Schema::new_with_metadata(fields, schema.metadata().clone());
        ArrowReaderOptions::new().with_schema(Arc::new(hinted))
    };
    if (0..schema.fields().len()).any(bytes) {
        let read_as_bytes = as_bytes(metadata.metadata(), &bytes)
            .and_then(|plain| ArrowReaderMetadata::try_new(Arc::new(plain), hinted(&bytes)).ok());
        if read_as_bytes.is_some() {
            return read_as_bytes;
        }
    }
    ArrowReaderMetadata::try_new(Arc::clone(metadata.metadata()), hinted(&|_| false)).ok()
}

/// Whether a top-level column of a Parquet schema is text the grid columns
/// may be read as bytes from: a single (not repeated) byte array.
fn plain_text(field: &Type) -> bool {
    field.is_primitive()
        && field.get_physical_type() == PhysicalType::BYTE_ARRAY
        && field.get_basic_info().repetition() != Repetition::REPEATED
}

/// `metadata` with the top-level text columns `bytes` picks declared plain
/// byte arrays (no UTF-8 annotation), so that their pages are read without
/// checking their bytes as UTF-8 (`from_utf8` of every grid was 7.9M
/// instructions per 100,000 rows of a results file, a tenth of the reading
/// thread's work). Nothing else changes: the columns' chunks, statistics
/// and pages are read as before. `None` when the schema cannot be rebuilt.
fn as_bytes(metadata: &ParquetMetaData, bytes: &dyn Fn(usize) -> bool) -> Option<ParquetMetaData> {
    let file = metadata.file_metadata();
    let root = file.schema_descr().root_schema();
    let fields = root
        .get_fields()
        .iter()
        .enumerate()
        .map(|(i, field)| {
            if !bytes(i) {
                return Some(Arc::clone(field));
            }
            let info = field.get_basic_info();
            Type::primitive_type_builder(field.name(), PhysicalType::BYTE_ARRAY)
                .with_repetition(info.repetition())
                .with_id(info.has_id().then(|| info.id()))
                .build()
                .ok()
                .map(Arc::new)
        })
        .collect::<Option<Vec<_>>>()?;
    let root = Type::group_type_builder(root.name())
        .with_fields(fields)
        .build()
        .ok()?;
    let plain = FileMetaData::new(
        file.version(),
        file.num_rows(),
        file.created_by().map(str::to_owned),
        file.key_value_metadata().cloned(),
        Arc::new(SchemaDescriptor::new(Arc::new(root))),
        file.column_orders().cloned(),
    );
    let mut rest = metadata.clone().into_builder();
    Some(
        ParquetMetaDataBuilder::new(plain)
            .set_row_groups(rest.take_row_groups())
            .set_page_index(rest.take_page_index())
            .build(),
    )
}

/// Rows [`by_content`] looks at, from the first row group on.
const ROWS_LOOKED_AT: usize = 1000;

/// Bytes a row of a column of grids takes at most, on average by the
/// footer's uncompressed sizes: a 64x64 grid as a list of 4,096 integers
/// of 8 bytes, twice over. A column whose values are longer is read by
/// [`by_content`] only when its rows looked at are short
/// ([`LONG_LOOK_BYTES`]) or the run reads it anyway: a unique note of a
/// megabyte a row, in one row group as pyarrow writes it (its pages a
/// gigabyte of dictionary for 1,000 rows), took 2 GB to look at.
const GRID_ROW_BYTES: i64 = 64 << 10;

/// Bytes of the row groups looked at, by the footer's uncompressed sizes,
/// that [`by_content`] reads of the columns longer than [`GRID_ROW_BYTES`]
/// a row the run would not read anyway, all of them together (a page is
/// decoded whole, so reading a few rows of a column may take its whole
/// chunk): as much as the chunks of records in flight share
/// ([`IN_FLIGHT_BYTES`], 64 MiB). Ten puzzles and one megabyte of junk
/// among them average 100 KB a row, yet the column is looked at; so is a
/// column of 150 solutions and 50 values of 900 KB of junk (45 MB): the
/// solution column, checked on every row.
const LONG_LOOK_BYTES: i64 = IN_FLIGHT_BYTES as i64;

/// A column [`by_content`] did not read: its values are too long to be
/// looked at in bounded memory.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Unread {
    /// The 0-based column.
    column: usize,
    /// Its bytes in the row groups looked at (the footer's uncompressed
    /// sizes).
    bytes: i64,
    /// The rows of the row groups looked at.
    rows: i64,
}

/// The first row groups of `groups` that hold [`ROWS_LOOKED_AT`] rows
/// (all of them when they hold fewer): a first row group of a few rows,
/// or none, as pyarrow writes with a small `row_group_size`, is not all
/// that is looked at.
fn groups_looked_at(groups: &[RowGroupMetaData]) -> usize {
    let mut rows = 0_i64;
    let wanted = i64::try_from(ROWS_LOOKED_AT).unwrap_or(i64::MAX);
    groups
        .iter()
        .take_while(|group| {
            let more = rows < wanted;
            rows = rows.saturating_add(group.num_rows().max(0));
            more
        })
        .count()
}

/// Each top-level column's bytes in `groups` (the footer's uncompressed
/// sizes), and their rows.
fn column_bytes(groups: &[RowGroupMetaData], roots: usize) -> (Vec<i64>, i64) {
    let mut bytes = vec![0_i64; roots];
    let mut rows = 0_i64;
    for group in groups {
        let schema = group.schema_descr();
        for (leaf, column) in group.columns().iter().enumerate() {
            if let Some(sum) = bytes.get_mut(schema.get_column_root_idx(leaf)) {
                *sum = sum.saturating_add(column.uncompressed_size().max(0));
            }
        }
        rows = rows.saturating_add(group.num_rows().max(0));
    }
    (bytes, rows)
}

/// The top-level columns [`by_content`] reads in `groups` (those looked
/// at), ascending, and those it does not read for their length: of the
/// columns not `never` a puzzle (named as a solution or status), those
/// the run reads anyway (`always`: kept, or named as the puzzle column)
/// and those of no more than [`GRID_ROW_BYTES`] a row on average are
/// read, and of the longer ones, in order, those that fit in what is left
/// of [`LONG_LOOK_BYTES`].
fn grid_candidates(
    groups: &[RowGroupMetaData],
    never: impl Fn(usize) -> bool,
    always: impl Fn(usize) -> bool,
) -> (Vec<usize>, Vec<Unread>) {
    let Some(first) = groups.first() else {
        return (Vec::new(), Vec::new());
    };
    let roots = first.schema_descr().root_schema().get_fields().len();
    let (bytes, rows) = column_bytes(groups, roots);
    let mut left = LONG_LOOK_BYTES;
    let mut read = Vec::new();
    let mut unread = Vec::new();
    for (column, &bytes) in bytes.iter().enumerate().filter(|&(i, _)| !never(i)) {
        if always(column) || bytes / rows.max(1) <= GRID_ROW_BYTES {
            read.push(column);
        } else if bytes <= left {
            left -= bytes;
            read.push(column);
        } else {
            unread.push(Unread {
                column,
                bytes,
                rows,
            });
        }
    }
    (read, unread)
}

/// What [`by_content`] saw of a file's first rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Looked {
    /// What each column shows, for [`choose`]: [`Seen::Other`] for a column
    /// not read.
    seen: Vec<Seen>,
    /// The rows looked at.
    rows: usize,
    /// The columns not read for their length ([`grid_candidates`]).
    unread: Vec<Unread>,
}

impl Looked {
    /// Where the choice was made, for a message: `rows 1-1000` (the rows
    /// of the row groups looked at when no column was read).
    fn place(&self) -> String {
        match self.unread.first() {
            Some(unread) if self.rows == 0 => format!("rows 1-{}", unread.rows),
            _ => format!("rows 1-{}", self.rows),
        }
    }

    /// What a column not read is, for a message: `'board' is not read
    /// (20000891 bytes in its first 10 rows, over 64 KiB a row)`.
    fn not_read(unread: &Unread, name: impl Fn(usize) -> String) -> String {
        format!(
            "'{}' is not read ({} bytes in its first {} rows, over {} KiB a row)",
            name(unread.column),
            unread.bytes,
            unread.rows,
            GRID_ROW_BYTES >> 10
        )
    }

    /// Why the puzzle column is unclear when a column was not read and
    /// none read holds whole puzzles: what the columns read show (complete
    /// grids, values that only look like puzzles, nothing) and the columns
    /// not read, named by `name`: `'target' holds complete grids, 'board'
    /// is not read (20000891 bytes in its first 10 rows, over 64 KiB a row)`.
    fn unread_unclear(&self, name: impl Fn(usize) -> String) -> String {
        let list = |columns: &[usize]| choose::quoted(columns, &name);
        let of = |kind: Seen| -> Vec<usize> {
            (0..self.seen.len())
                .filter(|&i| self.seen[i] == kind)
                .collect()
        };
        let mut parts = Vec::new();
        for (kind, one, many) in [
            (
                Seen::Complete,
                "holds complete grids",
                "hold complete grids",
            ),
            (
                Seen::Looks,
                "holds values that only look like puzzles",
                "hold values that only look like puzzles",
            ),
            (Seen::Empty, "is empty", "are empty"),
        ] {
            let columns = of(kind);
            if !columns.is_empty() {
                let verb = if columns.len() == 1 { one } else { many };
                parts.push(format!("{} {verb}", list(&columns)));
            }
        }
        if parts.is_empty() {
            parts.push("no column read holds puzzles".to_string());
        }
        for unread in &self.unread {
            parts.push(Looked::not_read(unread, &name));
        }
        parts.join(", ")
    }

    /// The warning of an input whose solutions may be in a column not read
    /// (named by `name`), when no other column is its solution column:
    /// that column is not checked, and `--keep` reads it. `None` when
    /// every column was read.
    fn unchecked(&self, path: &str, name: impl Fn(usize) -> String) -> Option<String> {
        let first = self.unread.first()?;
        let unread: Vec<String> = self
            .unread
            .iter()
            .map(|u| Looked::not_read(u, &name))
            .collect();
        Some(format!(
            "sudoku-batch: warning: {path}: no solution is checked: no column read holds \
             complete grids, and {}; --keep {} reads it whatever its length, as the solution \
             column if it holds complete grids",
            unread.join(", "),
            name(first.column)
        ))
    }
}

/// What each column (named `names`) shows in the first
/// [`ROWS_LOOKED_AT`] rows, from the first row group on (fewer when they
/// are long: a batch's bytes, on average), for [`choose`], and how many
/// rows that is: never a puzzle for a column named as a solution or
/// status, nor for one whose values are too long to be read in bounded
/// memory ([`grid_candidates`]) unless the run reads it anyway
/// (`always`); these columns are not read, and those not read for their
/// length are listed. Nothing for a file with no rows.
fn by_content(
    file: &ParquetFile,
    metadata: &ArrowReaderMetadata,
    names: &[String],
    always: impl Fn(usize) -> bool,
) -> Result<Looked, parquet::errors::ParquetError> {
    let groups = metadata.metadata().row_groups();
    let groups = &groups[..groups_looked_at(groups)];
    let never = |i: usize| names.get(i).is_some_and(|n| choose::never_puzzle(n));
    let (read, unread) = grid_candidates(groups, never, always);
    let mut seen = vec![Seen::Other; names.len()];
    if groups.is_empty() {
        return Ok(Looked::default());
    }
    if read.is_empty() {
        return Ok(Looked {
            seen,
            rows: 0,
            unread,
        });
    }
    let (bytes, rows) = column_bytes(groups, names.len());
    let read_bytes: i64 = read.iter().filter_map(|&i| bytes.get(i)).sum();
    let row_bytes = usize::try_from(read_bytes / rows.max(1))
        .unwrap_or(usize::MAX)
        .max(1);
    let look = (FILL_BYTES / row_bytes).clamp(1, ROWS_LOOKED_AT);
    // Text read as views of the pages, as the run reads it: a long kept
    // column is then looked at in the memory the run takes for it.
    let viewed = as_views(metadata, [None; 3], &read);
    let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(
        file.clone(),
        viewed.unwrap_or_else(|| metadata.clone()),
    );
    let mask = ProjectionMask::roots(builder.parquet_schema(), read.iter().copied());
    let batches = builder
        .with_row_groups((0..groups.len()).collect())
        .with_projection(mask)
        .with_batch_size(look)
        .with_limit(look)
        .build()?;
    let sizes = SizeOptions::default();
    let mut looked = 0;
    let mut shown = vec![Seen::Empty; read.len()];
    for batch in batches {
        let batch = batch?;
        for (k, column) in batch.columns().iter().enumerate().take(read.len()) {
            shown[k] = (0..batch.num_rows())
                .map(|row| choose::seen_value(&value_at(column.as_ref(), row), &sizes))
                .fold(shown[k], Seen::and);
        }
        looked += batch.num_rows();
        if looked >= look {
            break;
        }
    }
    if looked == 0 {
        return Ok(Looked::default());
    }
    for (k, &i) in read.iter().enumerate() {
        if let Some(seen) = seen.get_mut(i) {
            *seen = shown[k];
        }
    }
    Ok(Looked {
        seen,
        rows: looked,
        unread,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;

    use sudoku_core::solver::Status;

    use super::*;
    use crate::input::record_batch::{PlainRecord, Scratch};
    use crate::kept::KeptValue;

    use crate::input::tests::{P, S};

    /// A Parquet file of `rows` rows in row groups of 700: puzzles (some
    /// malformed or null), solutions (some wrong), a status and a kept
    /// rating.
    fn file(rows: usize) -> (tempfile::TempDir, std::path::PathBuf) {
        let padded = format!(" {P}");
        let puzzle: StringArray = (0..rows)
            .map(|i| match i % 11 {
                3 => None,
                5 => Some(padded.as_str()),
                7 => Some("12x"),
                _ => Some(P),
            })
            .collect();
        let solution: StringArray = (0..rows)
            .map(|i| match (i % 5, i % 7, i % 13) {
                (1, _, _) => Some(&S[..80]),
                (_, 2, _) => None,
                (_, _, 4) => Some(""),
                (_, _, 6) => Some(P),
                _ => Some(S),
            })
            .collect();
        let status: StringArray = (0..rows)
            .map(|i| Some(if i % 2 == 0 { "solved" } else { "x" }))
            .collect();
        let rating: Int64Array = (0..rows).map(|i| Some(i as i64)).collect();
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("quizzes", Arc::new(puzzle)),
            ("solutions", Arc::new(solution)),
            ("status", Arc::new(status)),
            ("rating", Arc::new(rating)),
        ];
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(700))
            .build();
        let mut writer =
            ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), Some(props))
                .unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        (dir, path)
    }

    fn reader(path: &std::path::Path) -> ParquetReader {
        let keep = Keep::Columns(vec![Column::Name("rating".into())]);
        ParquetReader::new(File::open(path).unwrap(), None, &keep, "p".into(), None).unwrap()
    }

    /// [`reader`] keeping no column.
    fn reader_keeping_nothing(path: &std::path::Path) -> ParquetReader {
        ParquetReader::new(
            File::open(path).unwrap(),
            None,
            &Keep::Nothing,
            "p".into(),
            None,
        )
        .unwrap()
    }

    /// A batch of the next rows of `cut`, up to `max`, cut for the workers.
    fn fill(cut: &mut ParquetReader, max: usize) -> Batch {
        let mut batch = Batch::new();
        while batch.len() < max {
            let room = max - batch.len();
            match cut.next_item(&mut batch, room) {
                Some(result) => result.unwrap(),
                None => break,
            }
        }
        batch
    }

    /// The records of `batch`, made as a worker makes them.
    fn records_of(batch: &Batch) -> Vec<Record> {
        let mut scratch = Scratch::default();
        (0..batch.len())
            .map(|i| batch.record(i, &mut scratch).1)
            .collect()
    }

    /// The first row group of a file of `rows` rows of a puzzle and a
    /// note of `note` bytes.
    fn group_of_notes(rows: usize, note: usize) -> RowGroupMetaData {
        let text = "n".repeat(note);
        let puzzle: StringArray = (0..rows).map(|_| Some(P)).collect();
        let notes: StringArray = (0..rows).map(|_| Some(text.as_str())).collect();
        let columns: Vec<(&str, ArrayRef)> =
            vec![("puzzle", Arc::new(puzzle)), ("note", Arc::new(notes))];
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let mut bytes = Vec::new();
        // Each note's bytes as they are, as distinct notes would be.
        let props = WriterProperties::builder()
            .set_dictionary_enabled(false)
            .build();
        let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), Some(props)).unwrap();
        writer.write(&batch).unwrap();
        let metadata = writer.close().unwrap();
        metadata.row_group(0).clone()
    }

    #[test]
    fn batches_of_long_rows_are_cut_by_bytes_and_of_short_ones_by_rows() {
        let long = group_of_notes(40, 1 << 20);
        // The note's megabyte a row: 16 rows make 16 MiB.
        assert_eq!(batch_rows(&long, &[0, 1], BATCH_ROWS), 15);
        // The puzzles alone are short.
        assert_eq!(batch_rows(&long, &[0], BATCH_ROWS), BATCH_ROWS);
        let short = group_of_notes(100, 10);
        assert_eq!(batch_rows(&short, &[0, 1], BATCH_ROWS), BATCH_ROWS);
        assert_eq!(batch_rows(&short, &[0, 1], 7), 7);
        // Never none.
        assert_eq!(
            batch_rows(&group_of_notes(2, 20 << 20), &[1], BATCH_ROWS),
            1
        );
    }

    #[test]
    fn the_look_reads_no_column_too_long_to_hold_grids_and_too_long_to_read() {
        let columns = |(read, unread): (Vec<usize>, Vec<Unread>)| {
            (read, unread.iter().map(|u| u.column).collect::<Vec<_>>())
        };
        let none = |_: usize| false;
        // A megabyte a row is no grid; ten bytes may be. 80 MiB of notes
        // are more than the look reads of long values.
        let long = [group_of_notes(80, 1 << 20)];
        let (read, unread) = grid_candidates(&long, none, none);
        assert_eq!(read, [0]);
        assert_eq!(unread.len(), 1);
        assert_eq!((unread[0].column, unread[0].rows), (1, 80));
        assert!(unread[0].bytes >= 80 << 20, "{unread:?}");
        assert_eq!(
            columns(grid_candidates(&long, |i| i == 1, none)),
            ([0].into(), [].into())
        );
        // Kept, or named as the puzzle column, they are read: the run
        // reads them anyway.
        assert_eq!(
            columns(grid_candidates(&long, none, |i| i == 1)),
            ([0, 1].into(), [].into())
        );
        let short = [group_of_notes(100, 10)];
        assert_eq!(
            columns(grid_candidates(&short, none, none)),
            ([0, 1].into(), [].into())
        );
        assert_eq!(
            columns(grid_candidates(&short, |i| i == 0, none)),
            ([1].into(), [].into())
        );
        // Long values on few rows are read while they fit in what the
        // chunks in flight hold: ten puzzles beside one megabyte of junk
        // are looked at, and so are 40 MiB of them.
        for rows in [10, 40] {
            let few = [group_of_notes(rows, 1 << 20)];
            assert_eq!(
                columns(grid_candidates(&few, none, none)),
                ([0, 1].into(), [].into()),
                "{rows} rows"
            );
        }
        // Over several row groups, their bytes together.
        let groups = [group_of_notes(40, 1 << 20), group_of_notes(40, 1 << 20)];
        assert_eq!(
            columns(grid_candidates(&groups, none, none)),
            ([0].into(), [1].into())
        );
        assert_eq!(
            columns(grid_candidates(&[], none, none)),
            ([].into(), [].into())
        );

        // A puzzle column named as none, after a column of long notes: the
        // notes are not read (their first page's header is spoilt, so a
        // read of them fails), and the puzzles are found and read.
        let text = "n".repeat(1 << 20);
        let notes: StringArray = (0..70).map(|_| Some(text.as_str())).collect();
        let puzzles: StringArray = (0..70).map(|_| Some(P)).collect();
        let columns: Vec<(&str, ArrayRef)> =
            vec![("note", Arc::new(notes)), ("board", Arc::new(puzzles))];
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let props = WriterProperties::builder()
            .set_dictionary_enabled(false)
            .build();
        let mut bytes = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), Some(props)).unwrap();
        writer.write(&batch).unwrap();
        let metadata = writer.close().unwrap();
        let (start, _) = metadata.row_group(0).column(0).byte_range();
        let start = usize::try_from(start).unwrap();
        bytes[start..start + 16].fill(0xFF);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.parquet");
        std::fs::write(&path, &bytes).unwrap();

        let file = ParquetFile::new(File::open(&path).unwrap()).unwrap();
        let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
        let names = ["note".to_string(), "board".to_string()];
        let looked = by_content(&file, &metadata, &names, |_| false).unwrap();
        assert_eq!(looked.seen, [Seen::Other, Seen::Puzzle(70)]);
        assert_eq!(looked.rows, 70);
        assert_eq!(looked.unread.len(), 1);
        let mut unkept = reader_keeping_nothing(&path);
        let records: Vec<Record> = std::iter::from_fn(|| unkept.next_record())
            .map(Result::unwrap)
            .collect();
        assert_eq!(records.len(), 70);
        assert!(records.iter().all(|r| r.puzzle.is_ok()));
        // Kept, the notes are read, by the look too: the spoilt page says
        // so.
        let keep = Keep::Columns(vec![Column::Name("note".into())]);
        let kept = ParquetReader::new(File::open(&path).unwrap(), None, &keep, "p".into(), None);
        let e = kept.map_or_else(Some, |mut r| r.next_record().and_then(Result::err));
        assert!(matches!(e, Some(InputError::Parquet { .. })), "{e:?}");
    }

    #[test]
    fn a_column_not_read_is_never_passed_over_for_one_of_no_puzzles() {
        // Solutions, then puzzles with one value of junk too long to read
        // in bounded memory: the solutions are not taken for the puzzles.
        let junk = "j".repeat(IN_FLIGHT_BYTES + 1);
        let targets: StringArray = (0..10).map(|_| Some(S)).collect();
        let boards: StringArray = (0..10)
            .map(|i| Some(if i == 4 { junk.as_str() } else { P }))
            .collect();
        let columns: Vec<(&str, ArrayRef)> =
            vec![("target", Arc::new(targets)), ("board", Arc::new(boards))];
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long_board.parquet");
        let mut writer =
            ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();

        let open = |column: Option<&Column>| {
            ParquetReader::new(
                File::open(&path).unwrap(),
                column,
                &Keep::Nothing,
                "p".into(),
                None,
            )
        };
        let Err(e) = open(None) else {
            panic!("the solutions taken for the puzzles");
        };
        let message = e.to_string();
        assert!(
            matches!(e, InputError::PuzzleColumnUnclear { .. }),
            "{message}"
        );
        for part in [
            "rows 1-10",
            "'target' holds complete grids",
            "'board' is not read (",
            "in its first 10 rows, over 64 KiB a row)",
            "--column",
        ] {
            assert!(message.contains(part), "{part}: {message}");
        }
        // Named, the column is read whatever its length.
        let mut named = open(Some(&Column::Name("board".into()))).unwrap();
        let records: Vec<Record> = std::iter::from_fn(|| named.next_record())
            .map(Result::unwrap)
            .collect();
        assert_eq!(records.len(), 10);
        assert!(records[4].puzzle.is_err() && records[5].puzzle.is_ok());
        assert!(records[5].solution.is_some());
        // Kept, the column is looked at whatever its length, and chosen.
        let keep = Keep::Columns(vec![Column::Name("board".into())]);
        let mut kept =
            ParquetReader::new(File::open(&path).unwrap(), None, &keep, "p".into(), None).unwrap();
        let records: Vec<Record> = std::iter::from_fn(|| kept.next_record())
            .map(Result::unwrap)
            .collect();
        assert!(records[4].puzzle.is_err() && records[5].puzzle.is_ok());
        assert!(records[5].solution.is_some());
    }

    #[test]
    fn a_solution_column_not_read_is_named_in_a_warning() {
        let names = |i: usize| ["puzzle", "target"][i].to_string();
        let looked = Looked {
            seen: vec![Seen::Puzzle(3), Seen::Other],
            rows: 3,
            unread: vec![Unread {
                column: 1,
                bytes: 90 << 20,
                rows: 3,
            }],
        };
        assert_eq!(
            looked.unchecked("p.parquet", names).as_deref(),
            Some(
                "sudoku-batch: warning: p.parquet: no solution is checked: no column read \
                 holds complete grids, and 'target' is not read (94371840 bytes in its first 3 \
                 rows, over 64 KiB a row); --keep target reads it whatever its length, as the \
                 solution column if it holds complete grids"
            )
        );
        assert_eq!(Looked::default().unchecked("p.parquet", names), None);
    }

    #[test]
    fn the_look_goes_on_past_a_first_row_group_of_a_few_rows() {
        let groups = |rows: &[usize]| -> Vec<RowGroupMetaData> {
            rows.iter().map(|&n| group_of_notes(n, 10)).collect()
        };
        assert_eq!(groups_looked_at(&groups(&[600, 600, 600])), 2);
        assert_eq!(groups_looked_at(&groups(&[1000, 5])), 1);
        assert_eq!(groups_looked_at(&groups(&[1, 5, 2000, 7])), 3);
        assert_eq!(groups_looked_at(&[]), 0);

        // Solutions beside puzzles missing from the first 5 rows, in row
        // groups of 5: the puzzles are seen in the groups after.
        let targets: StringArray = (0..40).map(|_| Some(S)).collect();
        let boards: StringArray = (0..40).map(|i| (i >= 5).then_some(P)).collect();
        let columns: Vec<(&str, ArrayRef)> =
            vec![("target", Arc::new(targets)), ("board", Arc::new(boards))];
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("late_boards.parquet");
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(5))
            .build();
        let mut writer =
            ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), Some(props))
                .unwrap();
        writer.write(&batch).unwrap();
        assert_eq!(writer.close().unwrap().num_row_groups(), 8);
        let file = ParquetFile::new(File::open(&path).unwrap()).unwrap();
        let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
        let names = ["target".to_string(), "board".to_string()];
        let looked = by_content(&file, &metadata, &names, |_| false).unwrap();
        assert_eq!(looked.seen, [Seen::Complete, Seen::Puzzle(35)]);
        assert_eq!(looked.rows, 40);
    }

    #[test]
    fn a_grid_byte_that_is_no_utf8_makes_one_malformed_record_not_a_failed_batch() {
        use parquet::data_type::{ByteArray, ByteArrayType};
        use parquet::file::writer::SerializedFileWriter;
        use parquet::schema::parser::parse_message_type;

        let schema = "message m { optional binary puzzle (UTF8); optional binary status (UTF8); }";
        let schema = Arc::new(parse_message_type(schema).unwrap());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        let file = File::create(&path).unwrap();
        let mut writer = SerializedFileWriter::new(file, schema, Default::default()).unwrap();
        let mut bad = P.as_bytes().to_vec();
        bad[1] = 0xff;
        let puzzles = [P.as_bytes().to_vec(), bad, P.as_bytes().to_vec()].map(ByteArray::from);
        let statuses = ["solved", "x", "invalid"].map(ByteArray::from);
        let mut group = writer.next_row_group().unwrap();
        for values in [&puzzles, &statuses] {
            let mut column = group.next_column().unwrap().unwrap();
            let typed = column.typed::<ByteArrayType>();
            typed.write_batch(values, Some(&[1, 1, 1]), None).unwrap();
            column.close().unwrap();
        }
        group.close().unwrap();
        writer.close().unwrap();

        let mut one_by_one = reader_keeping_nothing(&path);
        let records: Vec<Record> = std::iter::from_fn(|| one_by_one.next_record())
            .map(Result::unwrap)
            .collect();
        assert_eq!(records.len(), 3);
        assert!(records[0].puzzle.is_ok() && records[2].puzzle.is_ok());
        let why = format!("{:?}", records[1].puzzle);
        assert!(why.contains("0xFF"), "{why}");
        assert_eq!(records[2].expected, Some(Status::Invalid));
        // The workers' records of the same rows.
        let batch = fill(&mut reader_keeping_nothing(&path), 3);
        assert_eq!(records_of(&batch), records);
    }

    #[test]
    fn rows_cut_for_the_workers_become_the_records_read_one_by_one() {
        let rows = 2 * BATCH_ROWS + 300;
        let (_dir, path) = file(rows);
        let mut one_by_one = reader(&path);
        let expected: Vec<Record> = std::iter::from_fn(|| one_by_one.next_record())
            .map(Result::unwrap)
            .collect();
        assert_eq!(expected.len(), rows);
        assert_eq!(expected[7].line, 8);
        assert!(expected[7].puzzle.is_err() && expected[1].solution_error.is_some());
        assert_eq!(expected[2].expected, Some(Status::Solved));
        assert_eq!(expected[9].kept, [KeptValue::Int(9)]);

        // Cut in pieces of every size, across Arrow batches and row groups.
        for max in [1, 333, 2048, BATCH_ROWS + 5] {
            let mut cut = reader(&path);
            let mut records = Vec::new();
            loop {
                let batch = fill(&mut cut, max);
                if batch.is_empty() {
                    break;
                }
                records.extend(records_of(&batch));
            }
            assert_eq!(records, expected, "cut {max} at a time");
        }

        // A shard keeping one row in 10 keeps no Arrow batch; one in 2
        // keeps them for the workers. The records are the same.
        // The rows let go are no longer counted toward the batch's bytes:
        // a shard's batch holds its own rows' bytes (records made of rows
        // keep only a number each).
        for (n, held) in [(10, false), (2, true)] {
            let mut batch = fill(&mut reader(&path), rows);
            let all = batch.byte_len();
            batch.retain_since(0, |k| k % n == 0);
            assert_eq!(batch.tables_held() > 0, held, "one in {n}");
            match held {
                true => assert!(batch.byte_len().abs_diff(all / n) < all / 100, "one in {n}"),
                false => assert_eq!(batch.byte_len(), 0, "one in {n}"),
            }
            let records = records_of(&batch);
            let every_nth: Vec<Record> = expected.iter().step_by(n).cloned().collect();
            assert_eq!(records, every_nth, "one in {n}");
        }
    }

    #[test]
    fn rows_read_in_place_are_the_records_made_of_them() {
        let rows = BATCH_ROWS + 300;
        let (_dir, path) = file(rows);
        let mut scratch = Scratch::default();
        let mut plain = 0;
        for (keeping, max) in [(false, 1000), (true, rows)] {
            let mut cut = match keeping {
                true => reader(&path),
                false => reader_keeping_nothing(&path),
            };
            loop {
                let batch = fill(&mut cut, max);
                if batch.is_empty() {
                    break;
                }
                for i in 0..batch.len() {
                    let (input, record) = batch.record(i, &mut scratch);
                    let read = batch.plain_expected(i);
                    let Some((read, expected)) = read else {
                        // Only a record that is no plain puzzle, or one
                        // with a kept value, is left to `record`.
                        let common = !keeping
                            && record.line % 11 != 6
                            && PlainRecord::parsed(input, &record).is_some();
                        assert!(!common, "line {} not read in place", record.line);
                        continue;
                    };
                    plain += 1;
                    let made = PlainRecord::parsed(input, &record).expect("a plain puzzle");
                    assert_eq!(
                        (read.input, read.line, read.puzzle, read.solution),
                        (made.input, made.line, made.puzzle, made.solution)
                    );
                    assert_eq!(expected, record.expected, "line {}", record.line);
                    let line_only = batch.plain(i).map(|r| r.line);
                    assert_eq!(line_only, Some(record.line));
                }
            }
        }
        // Rows of every kind of solution (a grid, null, empty) were read so.
        assert!(plain > rows / 2, "{plain} of {rows}");
    }

    #[test]
    fn a_column_of_grid_lists_of_another_size_is_found_by_its_values() {
        use arrow_array::builder::{Int64Builder, ListBuilder};

        // A 4x4 puzzle as 16 integers (0 blank), in a column whose name is
        // none of the puzzle names, after a column of ids.
        let cells = [1, 0, 3, 0, 3, 4, 0, 0, 2, 0, 0, 3, 0, 3, 0, 1];
        let mut flat = ListBuilder::new(Int64Builder::new());
        flat.values().append_slice(&cells);
        flat.append(true);
        let mut nested = ListBuilder::new(ListBuilder::new(Int64Builder::new()));
        for row in cells.chunks(4) {
            nested.values().values().append_slice(row);
            nested.values().append(true);
        }
        nested.append(true);
        let ids: ArrayRef = Arc::new(Int64Array::from(vec![7]));
        for (values, how) in [
            (Arc::new(flat.finish()) as ArrayRef, "16 integers"),
            (Arc::new(nested.finish()) as ArrayRef, "4 lists of 4"),
        ] {
            let batch = RecordBatch::try_from_iter([("id", ids.clone()), ("cells", values)])
                .expect("a batch");
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("sized.parquet");
            let mut writer =
                ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), None).unwrap();
            writer.write(&batch).unwrap();
            writer.close().unwrap();
            let file = ParquetFile::new(File::open(&path).unwrap()).unwrap();
            let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
            let names = ["id".to_string(), "cells".to_string()];
            let chosen = choose::choose(
                &by_content(&file, &metadata, &names, |_| false)
                    .unwrap()
                    .seen,
            );
            assert_eq!(chosen, Choice::Column(1), "{how}");
        }
    }
}
