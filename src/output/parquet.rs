//! Results as Apache Parquet, with arrow-rs's writer: the CSV's columns,
//! typed, built on the writer's thread from each batch of results and
//! written in row groups of [`ROW_GROUP_ROWS`] as the run goes, the footer
//! when the writer finishes (also after an interrupt).
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
//! | kept columns | Boolean, Int64, Float64 or Utf8 ([`KeptType`]) | null value |
//!
//! Pages are zstd-compressed (level 1); dictionary encoding is off for the
//! columns whose values are nearly all different (`line`, `puzzle`,
//! `solution`, `solve_us`), where it would only cost time.

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int64Builder, StringBuilder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use crate::kept::{KeptType, KeptValue};
use crate::output::{clean_message, Blank, Shape, FILE_COLUMN};
use crate::result::PuzzleResult;

use super::Sink;

/// Rows per row group: about 10 MB of encoded columns held in memory at
/// most, and a row group on disk every few seconds of a fast run.
pub const ROW_GROUP_ROWS: usize = 128 * 1024;

/// Writes results rows as Parquet to a [`Sink`].
pub(crate) struct ParquetRows {
    writer: ArrowWriter<Sink>,
    schema: SchemaRef,
    /// Each input's name, when the run has several inputs.
    files: Option<Vec<String>>,
    kept: Vec<KeptType>,
    blank: Blank,
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
            .set_created_by(format!("sudoku-batch {}", env!("CARGO_PKG_VERSION")));
        for column in ["line", "puzzle", "solution", "solve_us"] {
            props = props.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        let writer = ArrowWriter::try_new(sink, Arc::clone(&schema), Some(props.build()))?;
        Ok(ParquetRows {
            writer,
            schema,
            files: shape.files.clone(),
            kept: shape.kept.iter().map(|c| c.kind).collect(),
            blank: shape.blank,
        })
    }

    /// Adds one row per result; a row group is written each time
    /// [`ROW_GROUP_ROWS`] rows are buffered.
    ///
    /// # Errors
    /// The rows cannot be encoded or written.
    pub(crate) fn write(&mut self, results: &[PuzzleResult]) -> Result<(), ParquetError> {
        if results.is_empty() {
            return Ok(());
        }
        let batch = RecordBatch::try_new(Arc::clone(&self.schema), self.columns(results))?;
        self.writer.write(&batch)
    }

    /// Writes the last row group and the footer, and hands back the sink
    /// (not flushed).
    ///
    /// # Errors
    /// The last rows or the footer cannot be written.
    pub(crate) fn finish(self) -> Result<Sink, ParquetError> {
        self.writer.into_inner()
    }

    /// The columns of `results`, in the schema's order.
    fn columns(&self, results: &[PuzzleResult]) -> Vec<ArrayRef> {
        let n = results.len();
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.schema.fields().len());
        if let Some(files) = &self.files {
            let mut file = StringBuilder::with_capacity(n, n * 16);
            for result in results {
                file.append_option(files.get(result.input));
            }
            columns.push(Arc::new(file.finish()));
        }
        let mut line = UInt64Builder::with_capacity(n);
        let mut puzzle = StringBuilder::with_capacity(n, n * 81);
        let mut status = StringBuilder::with_capacity(n, n * 8);
        let mut solution = StringBuilder::with_capacity(n, n * 81);
        let mut guesses = UInt64Builder::with_capacity(n);
        let mut solve_us = Float64Builder::with_capacity(n);
        let mut check = StringBuilder::with_capacity(n, n * 2);
        let mut message = StringBuilder::new();
        for result in results {
            line.append_value(result.line);
            append_grid(
                &mut puzzle,
                result.puzzle.map(|g| self.blank.puzzle_bytes(&g)),
            );
            status.append_value(result.status.name());
            append_grid(&mut solution, result.solution.map(|g| g.line_bytes()));
            guesses.append_option(result.guesses);
            solve_us.append_option(result.solve_ns.map(micros));
            check.append_option(result.check.map(|c| c.name()));
            message.append_option(result.message.as_deref().map(clean_message));
        }
        columns.push(Arc::new(line.finish()));
        columns.push(Arc::new(puzzle.finish()));
        columns.push(Arc::new(status.finish()));
        columns.push(Arc::new(solution.finish()));
        columns.push(Arc::new(guesses.finish()));
        columns.push(Arc::new(solve_us.finish()));
        columns.push(Arc::new(check.finish()));
        columns.push(Arc::new(message.finish()));
        for (i, kind) in self.kept.iter().enumerate() {
            let values = results
                .iter()
                .map(|r| r.kept.get(i).unwrap_or(&KeptValue::Null));
            columns.push(kept_column(*kind, values, n));
        }
        columns
    }
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
        Field::new("status", DataType::Utf8, false),
        Field::new("solution", DataType::Utf8, true),
        Field::new("guesses", DataType::UInt64, true),
        Field::new("solve_us", DataType::Float64, true),
        Field::new("check", DataType::Utf8, true),
        Field::new("message", DataType::Utf8, true),
    ]);
    for (name, column) in shape.kept_names().into_iter().zip(&shape.kept) {
        let kind = match column.kind {
            KeptType::Bool => DataType::Boolean,
            KeptType::Int => DataType::Int64,
            KeptType::Float => DataType::Float64,
            KeptType::Text => DataType::Utf8,
        };
        fields.push(Field::new(name, kind, true));
    }
    Schema::new(fields)
}

/// A kept column of type `kind` from its `n` values: text in a text column
/// whatever its type, an integer in a float column as that float, any other
/// mismatch null (see [`crate::kept`]).
fn kept_column<'a>(
    kind: KeptType,
    values: impl Iterator<Item = &'a KeptValue>,
    n: usize,
) -> ArrayRef {
    match kind {
        KeptType::Bool => {
            let mut column = BooleanBuilder::with_capacity(n);
            for value in values {
                column.append_option(match value {
                    KeptValue::Bool(b) => Some(*b),
                    _ => None,
                });
            }
            Arc::new(column.finish())
        }
        KeptType::Int => {
            let mut column = Int64Builder::with_capacity(n);
            for value in values {
                column.append_option(match value {
                    KeptValue::Int(v) => Some(*v),
                    _ => None,
                });
            }
            Arc::new(column.finish())
        }
        KeptType::Float => {
            let mut column = Float64Builder::with_capacity(n);
            for value in values {
                column.append_option(match value {
                    KeptValue::Float(v) => Some(*v),
                    // Exact up to 2^53, as every reader converts it.
                    KeptValue::Int(v) => Some(*v as f64),
                    _ => None,
                });
            }
            Arc::new(column.finish())
        }
        KeptType::Text => {
            let mut column = StringBuilder::with_capacity(n, n * 8);
            for value in values {
                match value {
                    KeptValue::Null => column.append_null(),
                    KeptValue::Text(text) => column.append_value(text),
                    KeptValue::Bool(b) => column.append_value(b.to_string()),
                    KeptValue::Int(v) => column.append_value(v.to_string()),
                    KeptValue::Float(v) => column.append_value(v.to_string()),
                }
            }
            Arc::new(column.finish())
        }
    }
}

/// Appends a grid's 81 ASCII characters, or null.
fn append_grid(column: &mut StringBuilder, line: Option<[u8; 81]>) {
    match line.as_ref().map(|line| std::str::from_utf8(line)) {
        Some(Ok(text)) => column.append_value(text),
        _ => column.append_null(),
    }
}

/// A duration in nanoseconds as microseconds, rounded to one decimal as
/// the CSV writes it.
fn micros(ns: u64) -> f64 {
    (ns.saturating_add(50) / 100) as f64 / 10.0
}

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int64Type, UInt64Type};
    use arrow_array::Array;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use super::*;
    use crate::grid::Grid;
    use crate::kept::KeptColumn;
    use crate::solver::Status;

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
        }
    }

    #[test]
    fn kept_columns_keep_their_types_and_the_rows_read_back() {
        let column = |name: &str, kind| KeptColumn {
            name: name.into(),
            kind,
        };
        let shape = Shape {
            files: Some(vec!["a.parquet".into(), "b.parquet".into()]),
            kept: vec![
                column("rating", KeptType::Float),
                column("id", KeptType::Int),
                column("hard", KeptType::Bool),
                column("status", KeptType::Text),
            ],
            blank: Blank::Zero,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.parquet");
        let sink = Sink::File(std::fs::File::create(&path).unwrap());
        let mut rows = ParquetRows::create(sink, &shape).unwrap();
        let values = |rating, id: KeptValue, hard, status: &str| {
            vec![rating, id, hard, KeptValue::Text(status.into())]
        };
        rows.write(&[
            result(
                1,
                values(
                    KeptValue::Float(2.5),
                    KeptValue::Int(7),
                    KeptValue::Bool(true),
                    "x",
                ),
            ),
            result(
                2,
                values(
                    KeptValue::Int(3),
                    KeptValue::Text("8".into()),
                    KeptValue::Null,
                    "y",
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
        assert_eq!(names[9..], ["rating", "id", "hard", "input_status"]);
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
        assert_eq!(id.value(0), 7);
        assert!(id.is_null(1), "text in an integer column is null");
        let hard = batch.column_by_name("hard").unwrap().as_boolean().clone();
        assert!(hard.value(0) && hard.is_null(1));
        assert_eq!(text("input_status").value(1), "y");
    }
}
