//! Pass-through columns (`--keep COL,...`, `--keep-all`): input columns
//! copied into every results row, after the results columns, so that a user
//! can join the results back to the input. A kept value is copied exactly,
//! whatever the input and output formats.
//!
//! The interface between the two sides:
//! - the input side names the kept columns once per run, in order, with
//!   their input names and Arrow types ([`KeptColumn`]: text for CSV and
//!   lines, the column's own type for Parquet, the type that holds every
//!   value of the key for JSON Lines), and gives every record one
//!   [`KeptValue`] per kept column, in the same order, malformed records
//!   included (`Record::kept`, copied to [`PuzzleResult::kept`]);
//! - the writers ([`crate::output`]) put them after the results columns
//!   under their input names, with `input_` in front of a name that clashes
//!   with a results column (see [`crate::output::Shape::kept_names`]).
//!
//! How each format writes a value:
//! - **Parquet** keeps the column's type (a timestamp stays a timestamp, a
//!   decimal a decimal, a struct a struct). Columns whose types differ
//!   between inputs ([`unify`]) are written in one that holds them all:
//!   64-bit integers or floats where that is exact, else text.
//! - **CSV** writes every value as text ([`KeptValue::text`]): numbers as
//!   written (a JSON number's own digits), dates and times in ISO 8601
//!   (`2023-11-14T22:13:20.001`, `2022-01-08`; a timestamp with a time zone
//!   in UTC with `Z`), a decimal's exact digits, binary as lowercase hex,
//!   lists, structs and maps as JSON, NaN and the infinities as `NaN`,
//!   `inf`, `-inf`. Text is written as it is: no spreadsheet formula guard
//!   (a `'` in front would change the very keys a join needs), and a field
//!   whose bytes are not UTF-8 (a Latin-1 or cp1252 export) is written
//!   byte for byte ([`KeptValue::NotUtf8`], [`KeptValue::bytes`]).
//! - **JSON Lines** writes booleans and numbers as JSON (numbers with their
//!   own digits), text as strings, lists and structs as JSON, and what JSON
//!   has no type for as a string of the CSV text (dates, times, decimals,
//!   binary, NaN and the infinities) ([`KeptValue::write_json`]).
//!
//! A null is empty in CSV and `null` in JSON Lines and Parquet; a present
//! value is never written as null.
//!
//! Text that a format cannot hold is the one exception to "copied
//! exactly": a field that is not UTF-8 ([`KeptValue::NotUtf8`]) in JSON
//! Lines and Parquet, whose strings are UTF-8, and a JSON string with a
//! lone surrogate escape ([`KeptValue::LoneSurrogate`]) in CSV and Parquet,
//! are written with U+FFFD for what cannot be held, and the run says so on
//! stderr ([`crate::output::unfit_texts::UnfitTexts`], counted in the tally).
//!
//! [`PuzzleResult::kept`]: crate::output::result::PuzzleResult::kept

mod cast;
mod render;

pub use cast::{KeptCast, KeptType};

use std::borrow::Cow;

use arrow_array::{Array, ArrayRef};
pub use arrow_schema::DataType;

/// A kept column: its name in the input (a header name, or `field1`,
/// `field2`, ... for text lines) and the Arrow type of its values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeptColumn {
    /// The column's name in the input.
    pub name: String,
    /// The type its values are written in by Parquet: [`DataType::Utf8`]
    /// for text; any Arrow type for a Parquet column.
    pub data_type: DataType,
}

impl KeptColumn {
    /// A text column named `name`.
    pub fn text(name: impl Into<String>) -> KeptColumn {
        KeptColumn {
            name: name.into(),
            data_type: DataType::Utf8,
        }
    }
}

/// The type a column of type `a` in one input and `b` in another is
/// written in: the same type; integers of any width as `Int64` (unsigned
/// ones as `UInt64` when all are unsigned); floats, and integers of at
/// most 32 bits with floats, as `Float64`; a `Null` column takes the other
/// type; anything else as text, which holds every value.
pub fn unify(a: &DataType, b: &DataType) -> DataType {
    use DataType::*;
    let signed = |t: &DataType| matches!(t, Int8 | Int16 | Int32 | Int64);
    let unsigned = |t: &DataType| matches!(t, UInt8 | UInt16 | UInt32 | UInt64);
    let small_int = |t: &DataType| matches!(t, Int8 | Int16 | Int32 | UInt8 | UInt16 | UInt32);
    let float = |t: &DataType| matches!(t, Float16 | Float32 | Float64);
    match (a, b) {
        _ if a == b => a.clone(),
        (Null, other) | (other, Null) => other.clone(),
        _ if unsigned(a) && unsigned(b) => UInt64,
        _ if (signed(a) || small_int(a)) && (signed(b) || small_int(b)) => Int64,
        _ if (float(a) || small_int(a)) && (float(b) || small_int(b)) => Float64,
        _ => Utf8,
    }
}

/// One record's value of a kept column. Equal values are the same value:
/// floats compare by their bits (NaN equals itself; 0.0 and -0.0 differ).
#[derive(Clone, Debug, Default)]
pub enum KeptValue {
    /// No value (a missing field or key, a Parquet or JSON null).
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// A signed integer (Parquet INT8 to INT64).
    Int(i64),
    /// An unsigned integer (Parquet UINT8 to UINT64).
    UInt(u64),
    /// A 64-bit float (Parquet DOUBLE).
    Float(f64),
    /// Text, as the input holds it (writers escape it as their format needs).
    Text(String),
    /// A JSON number, as written in the input: its own digits, sign,
    /// fraction and exponent, so that no digit is lost (an id beyond 2^53).
    Number(String),
    /// A JSON list or object, as written in the input.
    Json(String),
    /// Bytes (a Parquet binary value).
    Bytes(Vec<u8>),
    /// Text whose bytes are not UTF-8, as the input holds them (a CSV or
    /// text-lines field of a Latin-1 or cp1252 file): CSV writes them
    /// byte for byte; JSON Lines and Parquet, whose strings are UTF-8,
    /// with U+FFFD for each sequence that is not.
    NotUtf8(Vec<u8>),
    /// A JSON string holding a lone surrogate escape (`"\ud800x"`: valid
    /// JSON that UTF-8 cannot hold): JSON Lines writes it as written, CSV
    /// and Parquet its text with U+FFFD for each lone surrogate.
    LoneSurrogate {
        /// The string as written, quotes and escapes included.
        json: String,
        /// Its text, with U+FFFD for each lone surrogate.
        text: String,
    },
    /// Any other Arrow value (a date, time, timestamp, duration, decimal,
    /// 16- or 32-bit float, list, struct, map, ...): a one-row array (a
    /// slice of the input's column, sharing its buffers), of the input
    /// column's type.
    Arrow(ArrayRef),
}

impl PartialEq for KeptValue {
    fn eq(&self, other: &KeptValue) -> bool {
        match (self, other) {
            (KeptValue::Null, KeptValue::Null) => true,
            (KeptValue::Bool(a), KeptValue::Bool(b)) => a == b,
            (KeptValue::Int(a), KeptValue::Int(b)) => a == b,
            (KeptValue::UInt(a), KeptValue::UInt(b)) => a == b,
            (KeptValue::Float(a), KeptValue::Float(b)) => a.to_bits() == b.to_bits(),
            (KeptValue::Text(a), KeptValue::Text(b))
            | (KeptValue::Number(a), KeptValue::Number(b))
            | (KeptValue::Json(a), KeptValue::Json(b)) => a == b,
            (KeptValue::Bytes(a), KeptValue::Bytes(b))
            | (KeptValue::NotUtf8(a), KeptValue::NotUtf8(b)) => a == b,
            (
                KeptValue::LoneSurrogate { json: a, .. },
                KeptValue::LoneSurrogate { json: b, .. },
            ) => a == b,
            (KeptValue::Arrow(a), KeptValue::Arrow(b)) => a.to_data() == b.to_data(),
            _ => false,
        }
    }
}

impl Eq for KeptValue {}

impl KeptValue {
    /// The value as CSV writes it (see the module docs): its
    /// [`KeptValue::text`], or the bytes of text that is not UTF-8 as
    /// they are.
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        match self {
            KeptValue::NotUtf8(bytes) => Cow::Borrowed(bytes),
            _ => match self.text() {
                Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
                Cow::Owned(text) => Cow::Owned(text.into_bytes()),
            },
        }
    }

    /// The value as text (see the module docs); empty for null; text that
    /// is not UTF-8 with U+FFFD for each sequence that is not (CSV writes
    /// its [`KeptValue::bytes`]).
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            KeptValue::Null => Cow::Borrowed(""),
            KeptValue::Bool(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
            KeptValue::Int(v) => Cow::Owned(v.to_string()),
            KeptValue::UInt(v) => Cow::Owned(v.to_string()),
            KeptValue::Float(v) => Cow::Owned(render::float(*v)),
            KeptValue::Text(t) | KeptValue::Number(t) | KeptValue::Json(t) => Cow::Borrowed(t),
            KeptValue::Bytes(b) => Cow::Owned(render::hex(b)),
            KeptValue::NotUtf8(bytes) => String::from_utf8_lossy(bytes),
            KeptValue::LoneSurrogate { text, .. } => Cow::Borrowed(text),
            KeptValue::Arrow(array) => Cow::Owned(render::text(array.as_ref(), 0)),
        }
    }

    /// Appends the value as JSON Lines writes it (see the module docs).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            KeptValue::Null => out.extend_from_slice(b"null"),
            KeptValue::Bool(_) | KeptValue::Int(_) | KeptValue::UInt(_) => {
                out.extend_from_slice(self.text().as_bytes());
            }
            KeptValue::Float(v) => {
                let mut json = String::new();
                render::json_float(*v, &mut json);
                out.extend_from_slice(json.as_bytes());
            }
            KeptValue::Number(raw)
            | KeptValue::Json(raw)
            | KeptValue::LoneSurrogate { json: raw, .. } => out.extend_from_slice(raw.as_bytes()),
            KeptValue::Text(text) => render::push_json_string(out, text),
            KeptValue::NotUtf8(bytes) => {
                render::push_json_string(out, &String::from_utf8_lossy(bytes));
            }
            KeptValue::Bytes(b) => render::push_json_string(out, &render::hex(b)),
            KeptValue::Arrow(array) => {
                let mut json = String::new();
                render::json(array.as_ref(), 0, &mut json);
                out.extend_from_slice(json.as_bytes());
            }
        }
    }

    /// True for [`KeptValue::Null`], and for an Arrow value that is null.
    pub fn is_null(&self) -> bool {
        match self {
            KeptValue::Null => true,
            KeptValue::Arrow(array) => array.is_null(0),
            _ => false,
        }
    }

    /// The value as an integer, when it is one (an integer, or a JSON
    /// number written as one).
    pub fn integer(&self) -> Option<i128> {
        match self {
            KeptValue::Int(v) => Some((*v).into()),
            KeptValue::UInt(v) => Some((*v).into()),
            KeptValue::Number(raw) => raw.parse().ok(),
            _ => None,
        }
    }

    /// The value as a 64-bit float, when it is a number that one holds
    /// exactly enough to be its column's type ([`unify`] chooses `Float64`
    /// only for floats and integers of at most 32 bits, and JSON Lines only
    /// for numbers within 2^53).
    pub fn float(&self) -> Option<f64> {
        match self {
            KeptValue::Float(v) => Some(*v),
            KeptValue::Int(v) => Some(*v as f64),
            KeptValue::UInt(v) => Some(*v as f64),
            KeptValue::Number(raw) => raw.parse().ok(),
            KeptValue::Arrow(array) => render::float_of(array.as_ref()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_equal_only_themselves() {
        assert_eq!(KeptValue::Float(f64::NAN), KeptValue::Float(f64::NAN));
        assert_ne!(KeptValue::Float(0.0), KeptValue::Float(-0.0));
        assert_ne!(KeptValue::Int(1), KeptValue::Float(1.0));
        assert_ne!(KeptValue::Null, KeptValue::Text(String::new()));
        assert_eq!(KeptValue::Text("a".into()), KeptValue::Text("a".into()));
        assert_ne!(
            KeptValue::Number("1.0".into()),
            KeptValue::Number("1".into())
        );
    }

    #[test]
    fn types_unify_to_one_that_holds_both() {
        use DataType::*;
        assert_eq!(unify(&Int32, &Int32), Int32);
        assert_eq!(unify(&Int32, &Int64), Int64);
        assert_eq!(unify(&UInt8, &Int64), Int64);
        assert_eq!(unify(&UInt8, &UInt64), UInt64);
        assert_eq!(unify(&UInt64, &Int64), Utf8);
        assert_eq!(unify(&Float32, &Int32), Float64);
        assert_eq!(unify(&Float64, &Int64), Utf8);
        assert_eq!(unify(&Null, &Date32), Date32);
        assert_eq!(unify(&Int64, &Utf8), Utf8);
        assert_eq!(unify(&Date32, &Date64), Utf8);
    }

    #[test]
    fn numbers_keep_their_digits_in_every_text_form() {
        let big = KeptValue::Number("12345678901234567890".into());
        assert_eq!(big.text(), "12345678901234567890");
        let mut json = Vec::new();
        big.write_json(&mut json);
        assert_eq!(json, b"12345678901234567890");
        assert_eq!(KeptValue::UInt(u64::MAX).text(), u64::MAX.to_string());
        assert_eq!(KeptValue::Float(f64::NAN).text(), "NaN");
        assert_eq!(KeptValue::Float(-0.0).text(), "-0.0");
        assert_eq!(KeptValue::Float(1e300).text(), "1e+300");
        let mut json = Vec::new();
        KeptValue::Float(f64::INFINITY).write_json(&mut json);
        assert_eq!(json, b"\"inf\"");
        assert_eq!(KeptValue::Bytes(vec![0, 0xAB, 0x10]).text(), "00ab10");
    }

    #[test]
    fn text_no_format_holds_is_exact_where_one_does() {
        let latin = KeptValue::NotUtf8(b"caf\xe9".to_vec());
        assert_eq!(&*latin.bytes(), b"caf\xe9");
        assert_eq!(latin.text(), "caf\u{fffd}");
        let mut json = Vec::new();
        latin.write_json(&mut json);
        assert_eq!(json, "\"caf\u{fffd}\"".as_bytes());
        let lone = KeptValue::LoneSurrogate {
            json: r#""\ud800x""#.into(),
            text: "\u{fffd}x".into(),
        };
        assert_eq!(&*lone.bytes(), "\u{fffd}x".as_bytes());
        let mut json = Vec::new();
        lone.write_json(&mut json);
        assert_eq!(json, br#""\ud800x""#);
    }
}
