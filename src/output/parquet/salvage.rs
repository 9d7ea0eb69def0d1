//! What a Parquet results file keeps when a write to it fails (a full
//! disk, a file size limit): a Parquet file is readable only with its
//! footer, written last, so a run cut short would leave even its row groups
//! written whole unreadable. Instead the file is cut after the last row
//! group that reached it whole and given the footer of those groups, so
//! that it is a complete Parquet file of the rows before the failure. Cut
//! back first, the file has room for its footer again (a few kilobytes,
//! less than the part of a row group cut off, as a rule).
//!
//! Nothing of this is on the way of a run that succeeds: the row groups'
//! ends are noted as they are written (one number a group), and a second
//! handle on the file is kept from the start.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, Float64Array, StringArray, UInt64Array};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;
use parquet::errors::ParquetError;
use parquet::file::metadata::{
    FileMetaData, ParquetMetaData, ParquetMetaDataWriter, RowGroupMetaData,
};
use parquet::file::properties::WriterPropertiesPtr;
use parquet::schema::types::{SchemaDescriptor, TypePtr};

use super::FileWriter;
use crate::output::stats::{Mark, Tally};
use sudoku_core::solver::Status;

/// The bytes a Parquet file starts and ends with.
pub(super) const MAGIC: &[u8; 4] = b"PAR1";

/// What a Parquet results file holds after a write to it failed.
#[derive(Debug)]
pub enum Salvaged {
    /// The first `rows` rows: the `groups` row groups written whole before
    /// the failure, with a footer written after it (a readable file).
    Groups {
        /// Rows in the file.
        rows: u64,
        /// Row groups in the file.
        groups: usize,
    },
    /// No footer could be written (the cause): the file is not readable.
    Unreadable(io::Error),
    /// Not a regular file (stdout, a device): nothing to cut or complete.
    NotAFile,
}

/// What the footer of the row groups written so far needs, taken from the
/// file writer (which may be dropped after).
pub(super) struct Footing {
    /// The row groups written, in order.
    groups: Vec<RowGroupMetaData>,
    /// Where each of `groups` ends in the file (bytes handed to the file's
    /// buffers, not all of them in the file yet).
    ends: Vec<u64>,
    schema: TypePtr,
    props: WriterPropertiesPtr,
}

impl Footing {
    /// The footing of `file`, whose row groups end at `ends`.
    pub(super) fn of(file: &FileWriter, ends: &[u64]) -> Footing {
        Footing {
            groups: file.flushed_row_groups().to_vec(),
            ends: ends.to_vec(),
            schema: file.schema_descr().root_schema_ptr(),
            props: Arc::clone(file.properties()),
        }
    }
}

/// A second handle on the results file, for [`salvage`]: `None` for
/// anything but a regular file (stdout, a pipe, a device), or when the
/// handle cannot be had.
pub(super) fn spare(file: &File) -> Option<File> {
    match file.metadata() {
        Ok(meta) if meta.is_file() => file.try_clone().ok(),
        _ => None,
    }
}

/// Cuts `file` after the last of `footing`'s row groups that is in it
/// whole and writes the footer of those groups after them. Call it once
/// every other handle on the file is dropped (their buffers flush what
/// they can on the way, which can only lengthen the file).
pub(super) fn salvage(file: Option<&File>, footing: Footing) -> Salvaged {
    let Some(file) = file else {
        return Salvaged::NotAFile;
    };
    match cut_and_complete(file, footing) {
        Ok((rows, groups)) => Salvaged::Groups { rows, groups },
        Err(e) => Salvaged::Unreadable(e),
    }
}

/// The tally of the rows of the Parquet results file `path` (one that
/// [`salvage`] completed), read back from the columns the tally reads (`status`, `check`, `guesses`, `solve_us`,
/// `rating`, `hardest`, those it has), so that the summary of a run cut
/// short counts the rows its file holds, not the rows handed to the
/// writer. The grids' sides are not read (only a run that reads every
/// record uses them).
///
/// # Errors
/// The file cannot be read back.
pub(crate) fn recount(path: &Path) -> Result<Tally, ParquetError> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?)?;
    let schema = Arc::clone(builder.schema());
    let wanted = [
        "status", "check", "guesses", "solve_us", "rating", "hardest",
    ];
    let roots = wanted.iter().filter_map(|name| schema.index_of(name).ok());
    let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
    let mut tally = Tally::new();
    for batch in builder.with_projection(mask).build()? {
        let batch = batch?;
        let text = |name| {
            batch
                .column_by_name(name)
                .and_then(|c| c.as_any().downcast_ref::<StringArray>())
        };
        let number = |name| {
            batch
                .column_by_name(name)
                .and_then(|c| c.as_any().downcast_ref::<Float64Array>())
        };
        let (status, check, hardest) = (text("status"), text("check"), text("hardest"));
        let (solve_us, rating) = (number("solve_us"), number("rating"));
        let guesses = batch
            .column_by_name("guesses")
            .and_then(|c| c.as_any().downcast_ref::<UInt64Array>());
        let status = status.ok_or_else(|| ParquetError::General("no status column".into()))?;
        for row in 0..batch.num_rows() {
            let status: Status = status
                .value(row)
                .parse()
                .map_err(|_| ParquetError::General("a status that is none".into()))?;
            let us = solve_us.filter(|c| c.is_valid(row)).map(|c| c.value(row));
            tally.mark(Mark {
                status,
                mismatch: text_at(check, row) == Some("mismatch"),
                solve_ns: us.map_or(0, |us| (us * 1000.0).round() as u64),
                guesses: guesses
                    .filter(|c| c.is_valid(row))
                    .map_or(0, |c| c.value(row)),
                side: 0,
                timed: us.is_some(),
            });
            if let Some(r) = rating.filter(|c| c.is_valid(row)) {
                let tenths = (r.value(row) * 10.0).round() as u16;
                let hardest = text_at(hardest, row).unwrap_or_default().to_string();
                tally.ratings.add(tenths, hardest.into());
            }
        }
    }
    Ok(tally)
}

/// The text at `row` of `column`, when it has the column and the value
/// is not null.
fn text_at(column: Option<&StringArray>, row: usize) -> Option<&str> {
    column.filter(|c| c.is_valid(row)).map(|c| c.value(row))
}

fn cut_and_complete(mut file: &File, footing: Footing) -> io::Result<(u64, usize)> {
    let len = file.metadata()?.len();
    // The bytes in the file are the first `len` of those written, in order:
    // a group is in it whole when it ends within them.
    let whole = footing
        .ends
        .iter()
        .take_while(|&&end| end <= len)
        .count()
        .min(footing.groups.len());
    let magic = MAGIC.len() as u64;
    if len < magic {
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(MAGIC)?;
    }
    // The last group may leave no room for the footer (a file size limit
    // it only just fits): then one group fewer, down to none.
    let mut last = None;
    for kept in (0..=whole).rev() {
        let cut = match kept {
            0 => magic,
            n => footing.ends[n - 1],
        };
        let groups = footing.groups[..kept].to_vec();
        let rows: i64 = groups.iter().map(RowGroupMetaData::num_rows).sum();
        let footer = footer(Arc::clone(&footing.schema), &footing.props, groups, rows)
            .map_err(io::Error::other)?;
        let written = file
            .set_len(cut)
            .and_then(|()| file.seek(SeekFrom::Start(cut)))
            .and_then(|_| file.write_all(&footer))
            .and_then(|()| file.flush());
        match written {
            Ok(()) => return Ok((u64::try_from(rows).unwrap_or(0), kept)),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no footer written")))
}

/// The footer of a file of `groups` (`rows` rows in all): its metadata,
/// their length and the magic bytes, as the writer would have ended it.
fn footer(
    schema: TypePtr,
    props: &WriterPropertiesPtr,
    groups: Vec<RowGroupMetaData>,
    rows: i64,
) -> Result<Vec<u8>, ParquetError> {
    let file = FileMetaData::new(
        props.writer_version().as_num(),
        rows,
        Some(props.created_by().to_string()),
        props.key_value_metadata().cloned(),
        Arc::new(SchemaDescriptor::new(schema)),
        None,
    );
    let metadata = ParquetMetaData::new(file, groups);
    let mut footer = Vec::new();
    ParquetMetaDataWriter::new(&mut footer, &metadata)
        .with_write_path_in_schema(props.write_path_in_schema())
        .finish()?;
    Ok(footer)
}
