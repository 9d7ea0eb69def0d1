//! Parquet rows as records: how a row of an Arrow batch read from a Parquet
//! file becomes a [`Record`] ([`TableRules`]), on the solver workers, as
//! the other formats' records are parsed there. The puzzle column is chosen
//! as for CSV (see [`super::Format::Parquet`]), and its values follow
//! [`super::value`]'s rules. The file is read by [`super::parquet_reader`].

use arrow_array::cast::AsArray;
use arrow_array::types::ArrowDictionaryKeyType;
use arrow_array::types::{
    Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type,
    UInt8Type,
};
use std::sync::Arc;

use arrow_array::types::ByteViewType;
use arrow_array::{
    Array, ArrayRef, BinaryViewArray, DictionaryArray, GenericByteViewArray, RecordBatch,
    StringArray, StringViewArray,
};
use arrow_data::{ByteView, MAX_INLINE_VIEW_LEN};
use arrow_schema::DataType;

use sudoku_core::grid::Grid;
use sudoku_core::solver::Status;

use super::value::{self, Value};
use super::{field, Record, SizeOptions};
use crate::kept::KeptValue;

/// The value at `row` of an Arrow array, as the puzzle rules see it.
pub(super) fn value_at(array: &dyn Array, row: usize) -> Value<'_> {
    if array.is_null(row) {
        return Value::Null;
    }
    let int = |v: i64| Value::Int(v);
    match array.data_type() {
        DataType::Utf8 => Value::Text(array.as_string::<i32>().value(row).as_bytes()),
        DataType::LargeUtf8 => Value::Text(array.as_string::<i64>().value(row).as_bytes()),
        DataType::Utf8View => Value::Text(array.as_string_view().value(row).as_bytes()),
        DataType::Binary => Value::Text(array.as_binary::<i32>().value(row)),
        DataType::LargeBinary => Value::Text(array.as_binary::<i64>().value(row)),
        DataType::BinaryView => Value::Text(array.as_binary_view().value(row)),
        DataType::Int8 => int(array.as_primitive::<Int8Type>().value(row).into()),
        DataType::Int16 => int(array.as_primitive::<Int16Type>().value(row).into()),
        DataType::Int32 => int(array.as_primitive::<Int32Type>().value(row).into()),
        DataType::Int64 => int(array.as_primitive::<Int64Type>().value(row)),
        DataType::UInt8 => int(array.as_primitive::<UInt8Type>().value(row).into()),
        DataType::UInt16 => int(array.as_primitive::<UInt16Type>().value(row).into()),
        DataType::UInt32 => int(array.as_primitive::<UInt32Type>().value(row).into()),
        DataType::UInt64 => {
            let v = array.as_primitive::<UInt64Type>().value(row);
            i64::try_from(v).map_or_else(|_| Value::Other(format!("an integer ({v})")), int)
        }
        DataType::List(_) => {
            let list = array.as_list::<i32>();
            let offsets = list.value_offsets();
            let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
            items(list.values().as_ref(), start, end)
        }
        DataType::LargeList(_) => {
            let list = array.as_list::<i64>();
            let offsets = list.value_offsets();
            let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
            items(list.values().as_ref(), start, end)
        }
        DataType::FixedSizeList(_, n) => {
            let n = usize::try_from(*n).unwrap_or(0);
            let list = array.as_fixed_size_list();
            let start = list.value_offset_at(row);
            items(list.values().as_ref(), start, start + n)
        }
        DataType::Dictionary(key, _) => match key.as_ref() {
            DataType::Int8 => entry(array.as_dictionary::<Int8Type>(), row),
            DataType::Int16 => entry(array.as_dictionary::<Int16Type>(), row),
            DataType::Int32 => entry(array.as_dictionary::<Int32Type>(), row),
            DataType::Int64 => entry(array.as_dictionary::<Int64Type>(), row),
            DataType::UInt8 => entry(array.as_dictionary::<UInt8Type>(), row),
            DataType::UInt16 => entry(array.as_dictionary::<UInt16Type>(), row),
            DataType::UInt32 => entry(array.as_dictionary::<UInt32Type>(), row),
            DataType::UInt64 => entry(array.as_dictionary::<UInt64Type>(), row),
            other => Value::Other(format!("a dictionary value keyed by {other}")),
        },
        other => Value::Other(format!("a value of type {other}")),
    }
}

/// The value at `row` of a dictionary-encoded array (pandas' categorical
/// columns): its entry in the dictionary.
fn entry<K: ArrowDictionaryKeyType>(dict: &DictionaryArray<K>, row: usize) -> Value<'_> {
    match dict.key(row) {
        Some(k) if k < dict.values().len() => value_at(dict.values().as_ref(), k),
        _ => Value::Other("a dictionary key out of range".into()),
    }
}

/// The value at `row` of a kept column, exactly: booleans, integers,
/// 64-bit floats, text and bytes as such, any other type (dates, times,
/// decimals, 16- and 32-bit floats, lists, structs, ...) as a one-row slice
/// of its column (see [`crate::kept`]).
pub(crate) fn kept_at(array: &dyn Array, row: usize) -> KeptValue {
    if array.is_null(row) {
        return KeptValue::Null;
    }
    match array.data_type() {
        DataType::Boolean => KeptValue::Bool(array.as_boolean().value(row)),
        DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64 => {
            match value_at(array, row) {
                Value::Int(v) => KeptValue::Int(v),
                _ => slice(array, row),
            }
        }
        DataType::UInt8 => KeptValue::UInt(array.as_primitive::<UInt8Type>().value(row).into()),
        DataType::UInt16 => KeptValue::UInt(array.as_primitive::<UInt16Type>().value(row).into()),
        DataType::UInt32 => KeptValue::UInt(array.as_primitive::<UInt32Type>().value(row).into()),
        DataType::UInt64 => KeptValue::UInt(array.as_primitive::<UInt64Type>().value(row)),
        DataType::Float64 => KeptValue::Float(array.as_primitive::<Float64Type>().value(row)),
        DataType::Utf8 => KeptValue::Text(array.as_string::<i32>().value(row).into()),
        DataType::LargeUtf8 => KeptValue::Text(array.as_string::<i64>().value(row).into()),
        DataType::Utf8View => KeptValue::Text(array.as_string_view().value(row).into()),
        DataType::Binary => KeptValue::Bytes(array.as_binary::<i32>().value(row).into()),
        DataType::LargeBinary => KeptValue::Bytes(array.as_binary::<i64>().value(row).into()),
        DataType::BinaryView => KeptValue::Bytes(array.as_binary_view().value(row).into()),
        _ => slice(array, row),
    }
}

/// The value at `row` as a one-row slice of its column: no copy, so a
/// kept value costs a few reference counts however deeply nested it is.
/// The slice shares the column's buffers for the input batch, which stay
/// in memory until the batch's last row is written (rows in flight are
/// bounded): the same data a copy would hold, without a copy's allocations
/// per value (Arrow's `take` of one row took about 20 us a nested list,
/// twice the whole run's time on a Parquet file of lists kept with
/// `--keep-all`).
fn slice(array: &dyn Array, row: usize) -> KeptValue {
    KeptValue::Arrow(array.slice(row, 1))
}

/// Items `start..end` of a list's child array.
fn items(values: &dyn Array, start: usize, end: usize) -> Value<'_> {
    Value::List((start..end).map(|i| value_at(values, i)).collect())
}

/// True when a value looks like a puzzle: text that does, or a list that
/// looks like a grid of any size ([`field::looks_like_grid_list`]).
pub(super) fn looks_like_puzzle(value: &Value<'_>) -> bool {
    match value {
        Value::Text(t) => field::looks_like_puzzle(t.trim_ascii()),
        Value::List(items) => {
            let first_len = match items.first() {
                Some(Value::List(inner)) => Some(inner.len()),
                _ => None,
            };
            field::looks_like_grid_list(items.len(), first_len)
        }
        _ => false,
    }
}

/// An Arrow batch read from a Parquet file, with its columns of puzzles,
/// solutions and statuses found as text once (a downcast per value, three
/// a row, took a twelfth of a run's samples). Cheap to clone: the columns
/// are shared.
#[derive(Clone, Debug)]
pub struct Table {
    batch: RecordBatch,
    puzzle: Option<TextColumn>,
    solution: Option<TextColumn>,
    status: Option<TextColumn>,
    /// Bytes of the batch's arrays a row, on average.
    row_bytes: usize,
}

impl Table {
    /// Rows in the batch.
    pub fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    /// Bytes of the batch's arrays that `rows` of its rows take, on
    /// average: what a [`RecordBatch`](super::RecordBatch) holding them
    /// counts toward [`FILL_BYTES`](super::FILL_BYTES).
    pub fn bytes_of(&self, rows: usize) -> usize {
        self.row_bytes.saturating_mul(rows)
    }
}

/// Bytes of `batch`'s arrays as its rows hold them: a view column's
/// values each counted (a dictionary-encoded column's views share the
/// dictionary's buffer, which Arrow counts once, while every row made a
/// record copies its value), any other column's buffers.
fn decoded_bytes(batch: &RecordBatch) -> usize {
    fn viewed<T: ByteViewType + ?Sized>(array: &GenericByteViewArray<T>) -> usize {
        let long = array
            .views()
            .iter()
            .map(|&view| view as u32 as usize)
            .filter(|&len| len > MAX_INLINE_VIEW_LEN as usize)
            .sum::<usize>();
        array.get_array_memory_size().max(long + 16 * array.len())
    }
    batch
        .columns()
        .iter()
        .map(|column| match column.data_type() {
            DataType::Utf8View => viewed(column.as_string_view()),
            DataType::BinaryView => viewed(column.as_binary_view()),
            _ => column.get_array_memory_size(),
        })
        .sum()
}

/// A column of a [`Table`], as text when it is.
#[derive(Clone, Debug)]
enum TextColumn {
    /// Read as views of the pages (see `parquet_reader::as_views`).
    Views(StringViewArray),
    /// Read as views of the pages' bytes, not checked as UTF-8 (the grid
    /// columns; see `parquet_reader::as_bytes`).
    Bytes(BinaryViewArray),
    Strings(StringArray),
    /// Any other type, read by [`value_at`].
    Other(ArrayRef),
}

impl TextColumn {
    fn of(array: &ArrayRef) -> TextColumn {
        if let Some(views) = array.as_any().downcast_ref::<StringViewArray>() {
            TextColumn::Views(views.clone())
        } else if let Some(views) = array.as_any().downcast_ref::<BinaryViewArray>() {
            TextColumn::Bytes(views.clone())
        } else if let Some(strings) = array.as_any().downcast_ref::<StringArray>() {
            TextColumn::Strings(strings.clone())
        } else {
            TextColumn::Other(Arc::clone(array))
        }
    }

    /// The text at `row` as it lies in the column, without a [`Value`]
    /// made: `Some(None)` for a null, `None` for a column of another type.
    #[inline(always)]
    fn text(&self, row: usize) -> Option<Option<&[u8]>> {
        match self {
            TextColumn::Views(a) => Some(view_valid(a, row).then(|| view_bytes(a, row))),
            TextColumn::Bytes(a) => Some(view_valid(a, row).then(|| view_bytes(a, row))),
            TextColumn::Strings(a) => Some(a.is_valid(row).then(|| a.value(row).as_bytes())),
            TextColumn::Other(_) => None,
        }
    }

    /// The value at `row`.
    fn value(&self, row: usize) -> Value<'_> {
        match self {
            TextColumn::Views(a) if !view_valid(a, row) => Value::Null,
            TextColumn::Views(a) => Value::Text(view_bytes(a, row)),
            TextColumn::Bytes(a) if !view_valid(a, row) => Value::Null,
            TextColumn::Bytes(a) => Value::Text(view_bytes(a, row)),
            TextColumn::Strings(a) if a.is_null(row) => Value::Null,
            TextColumn::Strings(a) => Value::Text(a.value(row).as_bytes()),
            TextColumn::Other(a) => value_at(a.as_ref(), row),
        }
    }
}

/// What a status column's value says it expects: text as a CSV status
/// field ([`field::status`]), nothing for a null, and any other value (a
/// number, a list) names no status.
fn expected_status(value: &Value<'_>) -> Result<Option<Status>, String> {
    match value {
        Value::Null => Ok(None),
        Value::Text(text) => field::status(text),
        Value::Int(v) => Err(field::unknown_status(v.to_string().as_bytes())),
        other => Err(field::not_a_status(&other.describe())),
    }
}

/// Whether `row` of `array` holds a value: read from the null bitmap
/// inline (`Array::is_valid` is a call a value).
#[inline(always)]
fn view_valid<T: ByteViewType + ?Sized>(array: &GenericByteViewArray<T>, row: usize) -> bool {
    array.nulls().is_none_or(|nulls| nulls.is_valid(row))
}

/// The bytes of `row`'s value in `array`, read from its view inline: a
/// value longer than a view holds (every 9x9 grid) lies at the view's
/// buffer and offset, a short one (a status) in the view itself, after its
/// 4-byte length (the views are little-endian 16-byte records). Arrow's
/// `value` is a call with a panic's formatting in it, not inlined: 72
/// instructions a row for the grid and status columns of a results file.
/// A view that does not point into the buffers (never, for arrays the
/// reader makes) goes through `value`, as every view does on a big-endian
/// machine.
#[inline(always)]
fn view_bytes<T: ByteViewType + ?Sized>(array: &GenericByteViewArray<T>, row: usize) -> &[u8] {
    let views = array.views();
    let raw = views[row];
    let len = raw as u32 as usize;
    let held = if !cfg!(target_endian = "little") {
        None
    } else if len <= MAX_INLINE_VIEW_LEN as usize {
        let at = row * 16 + 4;
        views.inner().get(at..at + len)
    } else {
        let view = ByteView::from(raw);
        array
            .data_buffers()
            .get(view.buffer_index as usize)
            .and_then(|buffer| buffer.get(view.offset as usize..))
            .and_then(|bytes| bytes.get(..len))
    };
    held.unwrap_or_else(|| array.value(row).as_ref())
}

/// How a row of an Arrow batch read from a Parquet file becomes a
/// [`Record`], on any thread. Cheap to share: the reader makes one per file.
#[derive(Clone, Debug)]
pub struct TableRules {
    /// Positions in a batch of the puzzle, solution and status columns.
    pub(super) puzzle: Option<usize>,
    pub(super) solution: Option<usize>,
    pub(super) status: Option<usize>,
    /// Positions in a batch of the kept columns.
    pub(super) kept: Vec<usize>,
    /// How grids of other sizes than 9x9 are read.
    pub(super) sizes: SizeOptions,
}

impl TableRules {
    /// `batch` with its columns found.
    pub fn table(&self, batch: RecordBatch) -> Table {
        let column = |i: Option<usize>| i.map(|i| TextColumn::of(batch.column(i)));
        Table {
            puzzle: column(self.puzzle),
            solution: column(self.solution),
            status: column(self.status),
            row_bytes: decoded_bytes(&batch) / batch.num_rows().max(1),
            batch,
        }
    }

    /// Row `row` of `table` as a plain 9x9 puzzle, read where it lies in
    /// the Arrow arrays without a [`Record`] made: its puzzle, its given
    /// solution and, when `expected` asks, the status it expects. Exactly
    /// what [`TableRules::record`] makes of it, for the rows in the common
    /// form: no kept column, a puzzle of exactly 81 cells, a solution
    /// column absent, null, empty or of exactly 81 digits `1`-`9`. `None`
    /// for any other row: `record` then makes it (spaces to trim, grids of
    /// other sizes, lists, messages).
    #[inline(always)]
    pub fn plain(
        &self,
        table: &Table,
        row: usize,
        expected: bool,
    ) -> Option<(Grid, Option<Grid>, Option<Status>)> {
        if !self.kept.is_empty() {
            return None;
        }
        let puzzle = table.puzzle.as_ref()?.text(row)??;
        let puzzle = Grid::from_line(puzzle.try_into().ok()?)?;
        let solution = match table.solution.as_ref().map(|c| c.text(row)) {
            None | Some(Some(None)) => None,
            Some(Some(Some([]))) => None,
            Some(Some(Some(text))) => Some(Grid::complete_from_line(text.try_into().ok()?)?),
            Some(None) => return None,
        };
        // Read whether or not `expected` asks: a value that names no
        // status makes the row's check `mismatch`, which `record` writes.
        let status = match &table.status {
            // Text read where it lies, without a `Value` made and dropped.
            Some(column) => match column.text(row) {
                Some(Some(text)) => field::status(text).ok()?,
                Some(None) => None,
                None => expected_status(&column.value(row)).ok()?,
            },
            None => None,
        };
        Some((puzzle, solution, status.filter(|_| expected)))
    }

    /// The record of row `row` of `table` (made by [`TableRules::table`]),
    /// found at `line` (its 1-based row number in the file).
    pub fn record(&self, table: &Table, row: usize, line: u64) -> Record {
        let batch = &table.batch;
        let kept = match self.kept.is_empty() {
            true => Vec::new(),
            false => self
                .kept
                .iter()
                .map(|&i| kept_at(batch.column(i).as_ref(), row))
                .collect(),
        };
        let Some(puzzle) = &table.puzzle else {
            return Record {
                kept,
                ..Record::new(line, Err("no column looks like a puzzle".into()), None)
            };
        };
        let puzzle_value = puzzle.value(row);
        let solution_value = table.solution.as_ref().map(|c| c.value(row));
        let puzzle = value::puzzle_in(&puzzle_value, &self.sizes);
        // Only a record that is no 9x9 puzzle may be a grid of another size.
        let sized = puzzle
            .is_err()
            .then(|| value::sized(&puzzle_value, solution_value.as_ref(), &self.sizes))
            .flatten();
        let (solution, solution_error) = match solution_value.filter(|_| sized.is_none()) {
            None => (None, None),
            Some(value) => match value::solution(&value) {
                Ok(grid) => (grid, None),
                Err(why) => (None, Some(why)),
            },
        };
        // Built once, where it is returned (see `record_batch::Parser::parse`).
        let mut record = Record {
            kept,
            solution_error,
            ..Record::new(line, puzzle, solution)
        };
        if let Some(column) = &table.status {
            record.set_expected(expected_status(&column.value(row)));
        }
        if let Some(read) = sized {
            record.set_sized(read);
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_reads_the_bytes_value_does() {
        let long = "1".repeat(81);
        let values = [
            Some(long.as_str()),
            None,
            Some("solved"),
            Some(""),
            Some("exactly twelv"),
            Some("twelve bytes"),
            Some(
                "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            ),
        ];
        let whole: StringViewArray = values.iter().copied().collect();
        // A slice of it: its views start past the first.
        let sliced = whole.slice(1, values.len() - 1);
        for (array, values) in [(&whole, &values[..]), (&sliced, &values[1..])] {
            for (row, want) in values.iter().enumerate() {
                assert_eq!(view_valid(array, row), want.is_some(), "row {row}");
                if let Some(want) = want {
                    assert_eq!(view_bytes(array, row), want.as_bytes(), "row {row}");
                }
            }
        }
    }
}
