//! The puzzles of one `solve()` call, as typed views that the solver
//! threads read without the GIL: Arrow arrays in place (string, binary,
//! their large and view forms, and lists of integers), and the items of a
//! Python list copied once into one buffer.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, FixedSizeListArray, GenericListArray, OffsetSizeTrait,
    PrimitiveArray,
};
use arrow_buffer::ArrowNativeType;
use arrow_schema::DataType;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};
use sudoku_batch::job::in_memory::{puzzle_cells, puzzle_field};
use sudoku_core::grid::{Grid, CELLS};

/// The message of a missing value (a null, `None`).
const MISSING: &str = "missing puzzle (null)";

/// The message of a number where a puzzle should be: a column of puzzles
/// read as numbers (as CSV readers do with `0`-blank puzzles) has lost its
/// leading zeros.
const NUMBER: &str = "a number, not a puzzle (read the column as text: as a number a puzzle loses its leading zeros)";

/// The puzzles of one call: parts in order, each a run of records.
pub struct Puzzles {
    parts: Vec<Part>,
    /// `ends[k]` is the number of records in parts `0..=k`.
    ends: Vec<usize>,
}

impl Puzzles {
    /// Puzzles from parts in order.
    pub fn new(parts: Vec<Part>) -> Puzzles {
        let ends = parts
            .iter()
            .scan(0, |end, part| {
                *end += part.len();
                Some(*end)
            })
            .collect();
        Puzzles { parts, ends }
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Record `i` (0-based over all parts) as a grid, or why it is
    /// `malformed`.
    pub fn puzzle(&self, i: usize) -> Result<Grid, String> {
        let k = self.ends.partition_point(|&end| end <= i);
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        match self.parts.get(k) {
            Some(part) => part.puzzle(i - start),
            None => Err(format!("no record {i}")),
        }
    }
}

/// A run of records of one representation.
pub enum Part {
    /// An Arrow array, read in place.
    Arrow(ArrayRef),
    /// Items of a Python sequence, copied.
    Items(Items),
}

impl Part {
    fn len(&self) -> usize {
        match self {
            Part::Arrow(array) => array.len(),
            Part::Items(items) => items.spans.len(),
        }
    }

    fn puzzle(&self, i: usize) -> Result<Grid, String> {
        match self {
            Part::Arrow(array) => arrow_puzzle(array.as_ref(), i),
            Part::Items(items) => items.puzzle(i),
        }
    }
}

/// Record `i` of an Arrow array.
fn arrow_puzzle(array: &dyn Array, i: usize) -> Result<Grid, String> {
    if array.is_null(i) {
        return Err(MISSING.into());
    }
    match array.data_type() {
        DataType::Null => Err(MISSING.into()),
        DataType::Utf8 => puzzle_field(array.as_string::<i32>().value(i).as_bytes()),
        DataType::LargeUtf8 => puzzle_field(array.as_string::<i64>().value(i).as_bytes()),
        DataType::Utf8View => puzzle_field(array.as_string_view().value(i).as_bytes()),
        DataType::Binary => puzzle_field(array.as_binary::<i32>().value(i)),
        DataType::LargeBinary => puzzle_field(array.as_binary::<i64>().value(i)),
        DataType::BinaryView => puzzle_field(array.as_binary_view().value(i)),
        DataType::List(_) => list_puzzle(array.as_list::<i32>(), i),
        DataType::LargeList(_) => list_puzzle(array.as_list::<i64>(), i),
        DataType::FixedSizeList(_, _) => {
            let list: &FixedSizeListArray = array.as_fixed_size_list();
            let size = list.value_length() as usize;
            cells_puzzle(list.values().as_ref(), list.value_offset_at(i), size)
        }
        other if other.is_numeric() => Err(format!("{other} value: {NUMBER}")),
        other => Err(format!(
            "{other} value, not a puzzle string or a list of 81 integers"
        )),
    }
}

fn list_puzzle<O: OffsetSizeTrait>(list: &GenericListArray<O>, i: usize) -> Result<Grid, String> {
    let offsets = list.value_offsets();
    let start = offsets[i].as_usize();
    let end = offsets[i + 1].as_usize();
    cells_puzzle(list.values().as_ref(), start, end - start)
}

/// The `len` integers of `values` from `start` as a puzzle (0 blank).
fn cells_puzzle(values: &dyn Array, start: usize, len: usize) -> Result<Grid, String> {
    match values.data_type() {
        DataType::Int8 => ints(values.as_primitive::<Int8Type>(), start, len),
        DataType::Int16 => ints(values.as_primitive::<Int16Type>(), start, len),
        DataType::Int32 => ints(values.as_primitive::<Int32Type>(), start, len),
        DataType::Int64 => ints(values.as_primitive::<Int64Type>(), start, len),
        DataType::UInt8 => ints(values.as_primitive::<UInt8Type>(), start, len),
        DataType::UInt16 => ints(values.as_primitive::<UInt16Type>(), start, len),
        DataType::UInt32 => ints(values.as_primitive::<UInt32Type>(), start, len),
        DataType::UInt64 => ints(values.as_primitive::<UInt64Type>(), start, len),
        other => Err(format!(
            "a list of {other} values, not a list of 81 integers"
        )),
    }
}

fn ints<T: ArrowPrimitiveType>(
    values: &PrimitiveArray<T>,
    start: usize,
    len: usize,
) -> Result<Grid, String> {
    if len != CELLS {
        return Err(format!(
            "{}, expected {CELLS}",
            sudoku_batch::process::words::count(len as u64, "cell", "cells")
        ));
    }
    let mut cells = [0i64; CELLS];
    for (k, cell) in cells.iter_mut().enumerate() {
        let at = start + k;
        if values.is_null(at) {
            return Err(format!("null at position {}", k + 1));
        }
        // A u64 beyond i64 is out of range like any value above 9.
        *cell = values.value(at).to_i64().unwrap_or(i64::MAX);
    }
    puzzle_cells(cells.into_iter())
}

/// The items of a Python sequence: text copied into one buffer, anything
/// else judged while the GIL is held.
#[derive(Default)]
pub struct Items {
    bytes: Vec<u8>,
    /// Per item: its byte range in `bytes`, or its classification.
    spans: Vec<Span>,
}

enum Span {
    Text(usize, usize),
    Judged(Result<Grid, String>),
}

impl Items {
    /// Copies the items of `list`: `str` (UTF-8), `bytes` and `bytearray`
    /// as text; a list or tuple of integers as cell values; `None` and
    /// anything else as a malformed record saying what it is.
    pub fn from_list(list: &Bound<'_, PyList>) -> Items {
        let mut items = Items::default();
        for item in list.iter() {
            let span = items.add(&item);
            items.spans.push(span);
        }
        items
    }

    fn add(&mut self, item: &Bound<'_, PyAny>) -> Span {
        let start = self.bytes.len();
        if let Ok(text) = item.cast::<PyString>() {
            match text.to_cow() {
                Ok(text) => self.bytes.extend_from_slice(text.as_bytes()),
                Err(_) => return Span::Judged(Err("a str that is not valid UTF-8".into())),
            }
        } else if let Ok(bytes) = item.cast::<PyBytes>() {
            self.bytes.extend_from_slice(bytes.as_bytes());
        } else if let Ok(bytes) = item.cast::<PyByteArray>() {
            self.bytes.extend_from_slice(&bytes.to_vec());
        } else if item.is_none() {
            return Span::Judged(Err("missing puzzle (None)".into()));
        } else if item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>() {
            return Span::Judged(sequence_puzzle(item));
        } else {
            let kind = item
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string());
            let numeric = item.is_instance_of::<pyo3::types::PyInt>()
                || item.is_instance_of::<pyo3::types::PyFloat>();
            return Span::Judged(Err(if numeric {
                format!("{kind} value: {NUMBER}")
            } else {
                format!("{kind} value, not a puzzle string or a list of 81 integers")
            }));
        }
        Span::Text(start, self.bytes.len())
    }

    fn puzzle(&self, i: usize) -> Result<Grid, String> {
        match &self.spans[i] {
            Span::Text(start, end) => puzzle_field(&self.bytes[*start..*end]),
            Span::Judged(judged) => judged.clone(),
        }
    }
}

/// A Python list or tuple of 81 integers as a puzzle.
fn sequence_puzzle(item: &Bound<'_, PyAny>) -> Result<Grid, String> {
    let values: Vec<Bound<'_, PyAny>> = item
        .try_iter()
        .and_then(|values| values.collect())
        .map_err(|e| e.to_string())?;
    if values.len() != CELLS {
        return Err(format!(
            "{}, expected {CELLS}",
            sudoku_batch::process::words::count(values.len() as u64, "cell", "cells")
        ));
    }
    let mut cells = Vec::with_capacity(CELLS);
    for (k, value) in values.iter().enumerate() {
        match value.extract::<i64>() {
            Ok(v) if !value.is_instance_of::<pyo3::types::PyBool>() => cells.push(v),
            _ => {
                let kind = value
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string());
                return Err(format!("a {kind} at position {}, not an integer", k + 1));
            }
        }
    }
    puzzle_cells(cells.into_iter())
}
