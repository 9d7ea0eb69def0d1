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
use std::sync::Arc;

use parquet::errors::ParquetError;
use parquet::file::metadata::{
    FileMetaData, ParquetMetaData, ParquetMetaDataWriter, RowGroupMetaData,
};
use parquet::file::properties::WriterPropertiesPtr;
use parquet::schema::types::{SchemaDescriptor, TypePtr};

use super::FileWriter;

/// The bytes a Parquet file starts and ends with.
const MAGIC: &[u8; 4] = b"PAR1";

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
    let cut = match whole {
        0 => magic,
        n => footing.ends[n - 1],
    };
    let groups: Vec<RowGroupMetaData> = footing.groups.into_iter().take(whole).collect();
    let rows: i64 = groups.iter().map(RowGroupMetaData::num_rows).sum();
    let footer = footer(footing.schema, &footing.props, groups, rows).map_err(io::Error::other)?;
    file.set_len(cut)?;
    if len < magic {
        file.seek(SeekFrom::Start(0))?;
        file.write_all(MAGIC)?;
    }
    file.seek(SeekFrom::Start(cut))?;
    file.write_all(&footer)?;
    file.flush()?;
    Ok((u64::try_from(rows).unwrap_or(0), whole))
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
