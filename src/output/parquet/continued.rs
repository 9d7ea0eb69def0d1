//! A Parquet results file continued (`--resume`): a Parquet file cannot be
//! appended to and stay readable (its footer comes last), so the continued
//! file is written under a temporary name beside it: its row groups first,
//! copied as they are (their bytes, not decoded and encoded again), then
//! the rows of the run, then the footer of them all; the file is renamed
//! over the old one when the writer ends (see `ResultsWriter`), so that
//! the old file is whole until then, whatever stops the run.
//!
//! Here: reading the old file's footer ([`footer`]), checking that its
//! columns are the run's, with their types ([`schema_difference`]), and
//! copying its row groups into the new file ([`copy_row_groups`]).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;

use arrow_schema::Schema;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::ParquetError;
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};

use super::salvage::MAGIC;
use super::{schema, FileWriter};
use crate::output::Shape;

/// The footer of the Parquet file `file`: `Ok(None)` when the file is
/// empty (a run killed before its first row group reached the file holds
/// no row).
///
/// # Errors
/// Why the file cannot be continued, as a message says it: no footer at
/// its end (the run that wrote it was killed outright), or a footer that
/// cannot be read.
pub(crate) fn footer(mut file: &File) -> Result<Option<Arc<ParquetMetaData>>, String> {
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len == 0 {
        return Ok(None);
    }
    let mut start = [0u8; 4];
    let mut end = [0u8; 4];
    let read = |file: &mut &File, at: SeekFrom, into: &mut [u8; 4]| -> io::Result<()> {
        file.seek(at)?;
        file.read_exact(into)
    };
    let magic = |bytes: &[u8; 4]| bytes == MAGIC;
    if len < 12 || read(&mut file, SeekFrom::Start(0), &mut start).is_err() || !magic(&start) {
        return Err("it is not a Parquet file (it does not start with PAR1)".into());
    }
    if read(&mut file, SeekFrom::End(-4), &mut end).is_err() || !magic(&end) {
        return Err(
            "it has no Parquet footer, so none of its rows can be read: the run that wrote it \
             was killed before it could write one (SIGKILL, an out-of-memory kill, a power cut)"
                .into(),
        );
    }
    ParquetMetaDataReader::new()
        .parse_and_finish(file)
        .map(|metadata| Some(Arc::new(metadata)))
        .map_err(|e| format!("its footer cannot be read ({e})"))
}

/// How the columns of the Parquet file of `metadata` differ from those a
/// run of `shape` writes (names, order, types, nulls); `None` when they are
/// the same, so that its row groups can be copied into the run's file.
pub(crate) fn schema_difference(metadata: &Arc<ParquetMetaData>, shape: &Shape) -> Option<String> {
    let found = match ArrowReaderMetadata::try_new(Arc::clone(metadata), ArrowReaderOptions::new())
    {
        Ok(reader) => Arc::clone(reader.schema()),
        Err(e) => return Some(format!("its columns cannot be read as Arrow's ({e})")),
    };
    let expected = schema(shape);
    difference(&found, &expected)
}

/// How `found`'s columns differ from `expected`'s, named as a message says
/// it.
fn difference(found: &Schema, expected: &Schema) -> Option<String> {
    let names = |schema: &Schema| -> Vec<String> {
        schema.fields().iter().map(|f| f.name().clone()).collect()
    };
    let (found_names, expected_names) = (names(found), names(expected));
    if found_names != expected_names {
        let shown: String = found_names.join(",").chars().take(120).collect();
        return Some(format!(
            "its columns are `{}`, but this run writes `{}`",
            shown.escape_debug(),
            expected_names.join(",")
        ));
    }
    let (found, expected) =
        found
            .fields()
            .iter()
            .zip(expected.fields())
            .find(|(found, expected)| {
                found.data_type() != expected.data_type()
                    || found.is_nullable() != expected.is_nullable()
            })?;
    Some(if found.data_type() == expected.data_type() {
        format!(
            "its column `{}` is {}, and this run writes it {}",
            found.name().escape_debug(),
            nulls(found.is_nullable()),
            nulls(expected.is_nullable())
        )
    } else {
        format!(
            "its column `{}` is of type {}, and this run writes it as {}",
            found.name().escape_debug(),
            found.data_type(),
            expected.data_type()
        )
    })
}

fn nulls(nullable: bool) -> &'static str {
    match nullable {
        true => "nullable",
        false => "never null",
    }
}

/// Copies every row group of `old` (a Parquet file of `metadata`, whose
/// columns are those of `file`: see [`schema_difference`]) into `file`, as
/// they are: each column chunk's bytes, streamed, with its metadata (the
/// page indexes, which readers do without, are not copied). Returns where
/// each group ends in `file`, as the file's thread notes them.
///
/// # Errors
/// A group cannot be read or written.
pub(super) fn copy_row_groups(
    file: &mut FileWriter,
    old: &File,
    metadata: &ParquetMetaData,
) -> Result<Vec<u64>, ParquetError> {
    let mut ends = Vec::with_capacity(metadata.num_row_groups());
    for group in metadata.row_groups() {
        let mut copy = file.next_row_group()?;
        let rows = u64::try_from(group.num_rows()).unwrap_or(0);
        for column in group.columns() {
            let close = ColumnCloseResult {
                bytes_written: u64::try_from(column.compressed_size()).unwrap_or(0),
                rows_written: rows,
                metadata: column.clone(),
                bloom_filter: None,
                column_index: None,
                offset_index: None,
            };
            copy.append_column(old, close)?;
        }
        copy.close()?;
        ends.push(file.bytes_written() as u64);
    }
    Ok(ends)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::{DataType, Field};

    #[test]
    fn columns_differ_by_name_then_by_type_then_by_nulls() {
        let schema = |fields: Vec<Field>| Schema::new(fields);
        let line = Field::new("line", DataType::UInt64, false);
        let kept = |t: DataType, nullable: bool| Field::new("id", t, nullable);
        let expected = schema(vec![line.clone(), kept(DataType::Int64, true)]);
        assert_eq!(difference(&expected, &expected), None);
        let other = schema(vec![
            line.clone(),
            Field::new("source", DataType::Int64, true),
        ]);
        let why = difference(&other, &expected).unwrap();
        assert!(
            why.contains("`line,source`") && why.contains("`line,id`"),
            "{why}"
        );
        let typed = schema(vec![line.clone(), kept(DataType::Utf8, true)]);
        let why = difference(&typed, &expected).unwrap();
        assert!(
            why.contains("`id` is of type Utf8") && why.contains("as Int64"),
            "{why}"
        );
        let required = schema(vec![line, kept(DataType::Int64, false)]);
        let why = difference(&required, &expected).unwrap();
        assert!(why.contains("never null"), "{why}");
    }
}
