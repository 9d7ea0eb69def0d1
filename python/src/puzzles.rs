//! The puzzles of one `solve()` call, as typed views that the solver
//! threads read without the GIL: Arrow arrays in place (string, binary,
//! their large and view forms, and lists of n * n integers or of n lists
//! of n), and the items of a Python list copied once into one buffer.
//! Grids of every size are read: 9x9 ones by the 9x9 readers, others by
//! the sized ones ([`sudoku_batch::job::in_memory::puzzle_text`]).

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyList, PyString, PyTuple};
use sudoku_batch::input::{arrow_value, SizeOptions, Value};
use sudoku_batch::job::in_memory::{numbering_of, puzzle_text, value_puzzle, Puzzle};

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
    /// Puzzles from parts in order, grids of other sizes read with `sizes`;
    /// without `symbols=`, in one numbering per grid size chosen on the
    /// first records, as the command line reads an input
    /// ([`numbering_of`]).
    pub fn new(parts: Vec<Part>, sizes: SizeOptions) -> Puzzles {
        let ends = parts
            .iter()
            .scan(0, |end, part| {
                *end += part.len();
                Some(*end)
            })
            .collect();
        let mut puzzles = Puzzles { parts, sizes, ends };
        if puzzles.sizes.symbols.is_none() {
            let numbering = numbering_of(puzzles.len(), &puzzles.sizes, |i, sizes| {
                puzzles.puzzle_in(i, sizes)
            });
            puzzles.sizes.numbering = numbering;
        }
        puzzles
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Record `i` (0-based over all parts) as a grid, or why it is
    /// `malformed`.
    pub fn puzzle(&self, i: usize) -> Puzzle {
        self.puzzle_in(i, &self.sizes)
    }

    /// Record `i` as [`Puzzles::puzzle`] reads it, with `sizes` instead of
    /// the call's options (a reading its numbering is chosen on).
    fn puzzle_in(&self, i: usize, sizes: &SizeOptions) -> Puzzle {
        let k = self.ends.partition_point(|&end| end <= i);
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        match self.parts.get(k) {
            Some(part) => part.puzzle(i - start, sizes),
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

/// Record `i` of an Arrow array: text read as the command line reads a
/// puzzle field, a null or a list as it reads the same value of a Parquet
/// column ([`value_puzzle`]), with its messages.
fn arrow_puzzle(array: &dyn Array, i: usize, sizes: &SizeOptions) -> Puzzle {
    let text = |field: &[u8]| puzzle_text(field, sizes);
    match array.data_type() {
        // A null array has no validity buffer: every value is null.
        DataType::Null => value_puzzle(&Value::Null, sizes),
        _ if array.is_null(i) => value_puzzle(&Value::Null, sizes),
        DataType::Utf8 => text(array.as_string::<i32>().value(i).as_bytes()),
        DataType::LargeUtf8 => text(array.as_string::<i64>().value(i).as_bytes()),
        DataType::Utf8View => text(array.as_string_view().value(i).as_bytes()),
        DataType::Binary => text(array.as_binary::<i32>().value(i)),
        DataType::LargeBinary => text(array.as_binary::<i64>().value(i)),
        DataType::BinaryView => text(array.as_binary_view().value(i)),
        DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(_, _) => {
            value_puzzle(&arrow_value(array, i), sizes)
        }
        other if other.is_numeric() => Puzzle::Nine(Err(format!("{other} value: {NUMBER}"))),
        other => Puzzle::Nine(Err(format!(
            "{other} value, not a puzzle string or a list of 81 integers"
        ))),
    }
}

/// The items of a Python sequence: text copied into one buffer, lists and
/// `None` copied as values (read once the batch's numbering is chosen),
/// anything else judged while the GIL is held.
#[derive(Default)]
pub struct Items {
    bytes: Vec<u8>,
    /// Per item: its byte range in `bytes`, or its classification.
    spans: Vec<Span>,
}

enum Span {
    Text(usize, usize),
    Value(Held),
    Judged(Puzzle),
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
                Err(_) => {
                    return Span::Judged(Puzzle::Nine(Err("a str that is not valid UTF-8".into())))
                }
            }
        } else if let Ok(bytes) = item.cast::<PyBytes>() {
            self.bytes.extend_from_slice(bytes.as_bytes());
        } else if let Ok(bytes) = item.cast::<PyByteArray>() {
            self.bytes.extend_from_slice(&bytes.to_vec());
        } else if item.is_none()
            || item.is_instance_of::<PyList>()
            || item.is_instance_of::<PyTuple>()
        {
            return Span::Value(Held::of(item, 0));
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
            Span::Value(held) => value_puzzle(&held.value(), sizes),
            Span::Judged(judged) => judged.clone(),
        }
    }
}

/// A Python value as the command line's rules for a typed value see it
/// ([`Value`], which borrows its text: a `str` is held here as UTF-8).
enum Held {
    Null,
    Text(Vec<u8>),
    Int(i64),
    Other(String),
    List(Vec<Held>),
}

impl Held {
    /// `item` at `depth` (0 a record, 1 an item or row of it, 2 an item of
    /// a row): `None` is null, `str`, `bytes` and `bytearray` are text, an
    /// `int` is an integer (described past 64 bits), a list or tuple is a
    /// list, anything else is described in the command line's words for a
    /// JSON value (`a number (1.5)`, `a boolean (true)`) or by its type. A
    /// list below an item of a row is only counted: the rules never read
    /// it (and a list holding itself ends there).
    fn of(item: &Bound<'_, PyAny>, depth: usize) -> Held {
        let kind = || {
            item.get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string())
        };
        if item.is_none() {
            Held::Null
        } else if let Ok(text) = item.cast::<PyString>() {
            match text.to_cow() {
                Ok(text) => Held::Text(text.as_bytes().to_vec()),
                Err(_) => Held::Other("a str that is not valid UTF-8".into()),
            }
        } else if let Ok(bytes) = item.cast::<PyBytes>() {
            Held::Text(bytes.as_bytes().to_vec())
        } else if let Ok(bytes) = item.cast::<PyByteArray>() {
            Held::Text(bytes.to_vec())
        } else if let Ok(flag) = item.cast::<PyBool>() {
            Held::Other(format!("a boolean ({})", flag.is_true()))
        } else if let Ok(list) = item.cast::<PyList>() {
            Held::list(list.iter(), list.len(), depth)
        } else if let Ok(tuple) = item.cast::<PyTuple>() {
            Held::list(tuple.iter(), tuple.len(), depth)
        } else if item.is_instance_of::<PyFloat>() {
            Held::Other(format!("a number ({item})"))
        } else if let Ok(v) = item.extract::<i64>() {
            Held::Int(v)
        } else if item.is_instance_of::<pyo3::types::PyInt>() {
            Held::Other(format!("an integer ({item})"))
        } else {
            Held::Other(format!("a {}", kind()))
        }
    }

    fn list<'py>(items: impl Iterator<Item = Bound<'py, PyAny>>, len: usize, depth: usize) -> Held {
        if depth >= 2 {
            return Held::List((0..len).map(|_| Held::Null).collect());
        }
        Held::List(items.map(|item| Held::of(&item, depth + 1)).collect())
    }

    /// The value as the rules take it, borrowing the text held.
    fn value(&self) -> Value<'_> {
        match self {
            Held::Null => Value::Null,
            Held::Text(text) => Value::Text(text),
            Held::Int(v) => Value::Int(*v),
            Held::Other(what) => Value::Other(what.clone()),
            Held::List(items) => Value::List(items.iter().map(Held::value).collect()),
        }
    }
}
