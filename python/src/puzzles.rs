//! The puzzles of one `solve()` call, as typed views that the solver
//! threads read without the GIL: Arrow arrays in place (string, binary,
//! their large and view forms, and lists of n * n integers or of n lists
//! of n), and the items of a Python list copied once into one buffer.
//! Grids of every size are read: 9x9 ones by the 9x9 readers, others by
//! the sized ones ([`sudoku_batch::job::in_memory::puzzle_text`]).

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
use sudoku_batch::input::SizeOptions;
use sudoku_batch::job::in_memory::{
    is_sized_count, list_count_error, nine_cells, puzzle_text, sized_cells, Puzzle,
};
use sudoku_core::grid::CELLS;

/// The message of a missing value (an Arrow null), as the command line
/// words a null puzzle of Parquet or JSON Lines.
const MISSING: &str = "found null, expected 81 cells or 9 lists of 9";

/// The message of a number where a puzzle should be: a column of puzzles
/// read as numbers (as CSV readers do with `0`-blank puzzles) has lost its
/// leading zeros.
const NUMBER: &str = "a number, not a puzzle (read the column as text: as a number a puzzle loses its leading zeros)";

/// The puzzles of one call: parts in order, each a run of records.
pub struct Puzzles {
    parts: Vec<Part>,
    /// How grids of other sizes than 9x9 are read (`symbols=`, `box=`).
    sizes: SizeOptions,
    /// `ends[k]` is the number of records in parts `0..=k`.
    ends: Vec<usize>,
}

impl Puzzles {
    /// Puzzles from parts in order, grids of other sizes read with `sizes`.
    pub fn new(parts: Vec<Part>, sizes: SizeOptions) -> Puzzles {
        let ends = parts
            .iter()
            .scan(0, |end, part| {
                *end += part.len();
                Some(*end)
            })
            .collect();
        Puzzles { parts, sizes, ends }
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Record `i` (0-based over all parts) as a grid, or why it is
    /// `malformed`.
    pub fn puzzle(&self, i: usize) -> Puzzle {
        let k = self.ends.partition_point(|&end| end <= i);
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        match self.parts.get(k) {
            Some(part) => part.puzzle(i - start, &self.sizes),
            None => Puzzle::Nine(Err(format!("no record {i}"))),
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

    fn puzzle(&self, i: usize, sizes: &SizeOptions) -> Puzzle {
        match self {
            Part::Arrow(array) => arrow_puzzle(array.as_ref(), i, sizes),
            Part::Items(items) => items.puzzle(i, sizes),
        }
    }
}

/// Record `i` of an Arrow array.
fn arrow_puzzle(array: &dyn Array, i: usize, sizes: &SizeOptions) -> Puzzle {
    if array.is_null(i) {
        return Puzzle::Nine(Err(MISSING.into()));
    }
    let text = |field: &[u8]| puzzle_text(field, sizes);
    match array.data_type() {
        DataType::Null => Puzzle::Nine(Err(MISSING.into())),
        DataType::Utf8 => text(array.as_string::<i32>().value(i).as_bytes()),
        DataType::LargeUtf8 => text(array.as_string::<i64>().value(i).as_bytes()),
        DataType::Utf8View => text(array.as_string_view().value(i).as_bytes()),
        DataType::Binary => text(array.as_binary::<i32>().value(i)),
        DataType::LargeBinary => text(array.as_binary::<i64>().value(i)),
        DataType::BinaryView => text(array.as_binary_view().value(i)),
        DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(_, _) => {
            match list_range(array, i) {
                Some((values, start, len)) => list_puzzle(values.as_ref(), start, len, sizes),
                None => Puzzle::Nine(Err(format!("{} value, not a list", array.data_type()))),
            }
        }
        other if other.is_numeric() => Puzzle::Nine(Err(format!("{other} value: {NUMBER}"))),
        other => Puzzle::Nine(Err(format!(
            "{other} value, not a puzzle string or a list of 81 integers"
        ))),
    }
}

/// The child values of list `i` of a list array (list, large list or
/// fixed-size list) with the list's start and length in them; `None` for
/// an array of another type.
fn list_range(array: &dyn Array, i: usize) -> Option<(&ArrayRef, usize, usize)> {
    match array.data_type() {
        DataType::List(_) => offsets_range(array.as_list::<i32>(), i),
        DataType::LargeList(_) => offsets_range(array.as_list::<i64>(), i),
        DataType::FixedSizeList(_, _) => {
            let list: &FixedSizeListArray = array.as_fixed_size_list();
            let size = list.value_length() as usize;
            Some((list.values(), list.value_offset_at(i), size))
        }
        _ => None,
    }
}

fn offsets_range<O: OffsetSizeTrait>(
    list: &GenericListArray<O>,
    i: usize,
) -> Option<(&ArrayRef, usize, usize)> {
    let offsets = list.value_offsets();
    let start = offsets[i].as_usize();
    let end = offsets[i + 1].as_usize();
    Some((list.values(), start, end - start))
}

/// The puzzle of the `len` values of `values` from `start`: 81 integers
/// or 9 lists of 9 (the shapes the command line reads from Parquet, see
/// `sudoku_batch::input`), or n * n integers or n lists of n for a grid of
/// another size, 0 blank.
fn list_puzzle(values: &dyn Array, start: usize, len: usize, sizes: &SizeOptions) -> Puzzle {
    let nested = matches!(
        values.data_type(),
        DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(_, _)
    );
    // n lists of n only, as the command line reads them (see
    // `sudoku_batch::input`): other lists get the 9x9 messages.
    let square = || {
        (start..start + len).all(|at| {
            !values.is_null(at) && list_range(values, at).is_some_and(|(_, _, n)| n == len)
        })
    };
    if nested && len != 9 && len.checked_mul(len).is_some_and(is_sized_count) && square() {
        let mut cells = vec![0i64; len * len];
        return Puzzle::Sized(
            read_rows(values, start, &mut cells, len).and_then(|()| sized_cells(&cells, sizes)),
        );
    }
    if !nested && is_sized_count(len) {
        let mut cells = vec![0i64; len];
        return Puzzle::Sized(
            read_ints(values, start, &mut cells, 1).and_then(|()| sized_cells(&cells, sizes)),
        );
    }
    let mut cells = [0i64; CELLS];
    let read = if nested {
        if len != 9 {
            return Puzzle::Nine(Err(list_count_error(len)));
        }
        read_rows(values, start, &mut cells, 9)
    } else if len != CELLS {
        Err(list_count_error(len))
    } else {
        read_ints(values, start, &mut cells, 1)
    };
    match read {
        Ok(()) => nine_cells(&cells, sizes),
        Err(message) => Puzzle::Nine(Err(message)),
    }
}

/// Reads `side` lists of `side` integers of the list array `values` from
/// `start` into `out`, row by row.
fn read_rows(values: &dyn Array, start: usize, out: &mut [i64], side: usize) -> Result<(), String> {
    for (r, row_cells) in out.chunks_mut(side).enumerate() {
        let at = start + r;
        if values.is_null(at) {
            return Err(format!("row {} is null", r + 1));
        }
        let Some((row, from, n)) = list_range(values, at) else {
            return Err(format!("row {} is not a list", r + 1));
        };
        if n != side {
            return Err(format!(
                "row {} has {}, expected {side}",
                r + 1,
                sudoku_batch::process::words::count(n as u64, "cell", "cells")
            ));
        }
        read_ints(row.as_ref(), from, row_cells, r * side + 1)?;
    }
    Ok(())
}

/// Reads the integers of `values` from `start` into `out`; `first` is the
/// 1-based position of `out[0]` in the puzzle, for messages.
fn read_ints(
    values: &dyn Array,
    start: usize,
    out: &mut [i64],
    first: usize,
) -> Result<(), String> {
    match values.data_type() {
        DataType::Int8 => fill(values.as_primitive::<Int8Type>(), start, out, first),
        DataType::Int16 => fill(values.as_primitive::<Int16Type>(), start, out, first),
        DataType::Int32 => fill(values.as_primitive::<Int32Type>(), start, out, first),
        DataType::Int64 => fill(values.as_primitive::<Int64Type>(), start, out, first),
        DataType::UInt8 => fill(values.as_primitive::<UInt8Type>(), start, out, first),
        DataType::UInt16 => fill(values.as_primitive::<UInt16Type>(), start, out, first),
        DataType::UInt32 => fill(values.as_primitive::<UInt32Type>(), start, out, first),
        DataType::UInt64 => fill(values.as_primitive::<UInt64Type>(), start, out, first),
        other => Err(format!(
            "a list of {other} values, not a list of 81 integers"
        )),
    }
}

fn fill<T: ArrowPrimitiveType>(
    values: &PrimitiveArray<T>,
    start: usize,
    out: &mut [i64],
    first: usize,
) -> Result<(), String> {
    for (k, cell) in out.iter_mut().enumerate() {
        let at = start + k;
        if values.is_null(at) {
            return Err(format!(
                "item {} is null, expected an integer 0-9",
                first + k
            ));
        }
        // A u64 beyond i64 is out of range like any value above 9.
        *cell = values.value(at).to_i64().unwrap_or(i64::MAX);
    }
    Ok(())
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
    Judged(Puzzle),
}

impl Items {
    /// Copies the items of `list`: `str` (UTF-8), `bytes` and `bytearray`
    /// as text; a list or tuple of integers as cell values; `None` and
    /// anything else as a malformed record saying what it is. Lists of
    /// cells of other sizes than 9x9 are read with `sizes`.
    pub fn from_list(list: &Bound<'_, PyList>, sizes: &SizeOptions) -> Items {
        let mut items = Items::default();
        for item in list.iter() {
            let span = items.add(&item, sizes);
            items.spans.push(span);
        }
        items
    }

    fn add(&mut self, item: &Bound<'_, PyAny>, sizes: &SizeOptions) -> Span {
        let start = self.bytes.len();
        if let Ok(text) = item.cast::<PyString>() {
            match text.to_cow() {
                Ok(text) => self.bytes.extend_from_slice(text.as_bytes()),
                Err(_) => {
                    return Span::Judged(Puzzle::Nine(Err("a str that is not valid UTF-8".into())))
                }
            }
        } else if let Ok(bytes) = item.cast::<PyBytes>() {
            self.bytes.extend_from_slice(bytes.as_bytes());
        } else if let Ok(bytes) = item.cast::<PyByteArray>() {
            self.bytes.extend_from_slice(&bytes.to_vec());
        } else if item.is_none() {
            return Span::Judged(Puzzle::Nine(Err("missing puzzle (None)".into())));
        } else if item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>() {
            return Span::Judged(sequence_puzzle(item, sizes));
        } else {
            let kind = item
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string());
            let numeric = item.is_instance_of::<pyo3::types::PyInt>()
                || item.is_instance_of::<pyo3::types::PyFloat>();
            return Span::Judged(Puzzle::Nine(Err(if numeric {
                format!("{kind} value: {NUMBER}")
            } else {
                format!("{kind} value, not a puzzle string or a list of 81 integers")
            })));
        }
        Span::Text(start, self.bytes.len())
    }

    fn puzzle(&self, i: usize, sizes: &SizeOptions) -> Puzzle {
        match &self.spans[i] {
            Span::Text(start, end) => puzzle_text(&self.bytes[*start..*end], sizes),
            Span::Judged(judged) => judged.clone(),
        }
    }
}

/// A Python list or tuple of 81 integers, or of 9 lists (or tuples) of 9,
/// as a puzzle; or of n * n integers, or of n lists of n, as a grid of
/// another size.
fn sequence_puzzle(item: &Bound<'_, PyAny>, sizes: &SizeOptions) -> Puzzle {
    let values = match sequence_cells(item) {
        Ok(values) => values,
        Err(message) => return Puzzle::Nine(Err(message)),
    };
    if is_sized_count(values.len()) {
        Puzzle::Sized(sized_cells(&values, sizes))
    } else {
        nine_cells(&values, sizes)
    }
}

/// The integers of a Python list or tuple of cells, or of n lists (or
/// tuples) of n, flattened; the count is checked when it makes no grid.
fn sequence_cells(item: &Bound<'_, PyAny>) -> Result<Vec<i64>, String> {
    let values: Vec<Bound<'_, PyAny>> = item
        .try_iter()
        .and_then(|values| values.collect())
        .map_err(|e| e.to_string())?;
    let side = values.len();
    let is_row =
        |row: &Bound<'_, PyAny>| row.is_instance_of::<PyList>() || row.is_instance_of::<PyTuple>();
    // n lists of n only, as the command line reads them: other lists get
    // the 9x9 messages.
    let nested = if side == 9 {
        values.iter().all(is_row)
    } else {
        side.checked_mul(side).is_some_and(is_sized_count)
            && values
                .iter()
                .all(|row| is_row(row) && row.len().is_ok_and(|n| n == side))
    };
    let values = if nested {
        let mut flat = Vec::with_capacity(side * side);
        for (r, row) in values.iter().enumerate() {
            let row: Vec<Bound<'_, PyAny>> = row
                .try_iter()
                .and_then(|cells| cells.collect())
                .map_err(|e| e.to_string())?;
            if row.len() != side {
                return Err(format!(
                    "row {} has {}, expected {side}",
                    r + 1,
                    sudoku_batch::process::words::count(row.len() as u64, "cell", "cells")
                ));
            }
            flat.extend(row);
        }
        flat
    } else {
        values
    };
    if values.len() != CELLS && !is_sized_count(values.len()) {
        return Err(list_count_error(values.len()));
    }
    let mut cells = Vec::with_capacity(values.len());
    for (k, value) in values.iter().enumerate() {
        match value.extract::<i64>() {
            Ok(v) if !value.is_instance_of::<pyo3::types::PyBool>() => cells.push(v),
            // The command line's words for such an item of a JSON list.
            _ if value.is_none() => {
                return Err(format!("item {} is null, expected an integer 0-9", k + 1));
            }
            _ if value.is_instance_of::<pyo3::types::PyBool>() => {
                return Err(format!(
                    "item {} is {value}, expected an integer 0-9",
                    k + 1
                ));
            }
            _ if value.is_instance_of::<pyo3::types::PyInt>() => {
                return Err(format!("item {} is {value}, expected 0-9", k + 1));
            }
            _ if value.is_instance_of::<pyo3::types::PyFloat>() => {
                return Err(format!(
                    "item {} is a number ({value}), expected an integer 0-9",
                    k + 1
                ));
            }
            _ => {
                let kind = value
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string());
                return Err(format!(
                    "item {} is a {kind}, expected an integer 0-9",
                    k + 1
                ));
            }
        }
    }
    Ok(cells)
}
