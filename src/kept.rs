//! Pass-through columns (`--keep COL,...`, `--keep-all`): input columns
//! copied into every results row, after the results columns, so that a user
//! can join the results back to the input.
//!
//! The interface between the two sides:
//! - the input side names the kept columns once per run, in order, with
//!   their input names and types ([`KeptColumn`]: text for CSV and lines,
//!   the column's type for Parquet and JSON Lines), and gives every record
//!   one [`KeptValue`] per kept column, in the same order, malformed records
//!   included (`Record::kept`, copied to [`PuzzleResult::kept`]);
//! - the writers ([`crate::output`]) put them after the results columns
//!   under their input names, with `input_` in front of a name that clashes
//!   with a results column (see
//!   [`crate::output::Shape::kept_names`]): typed in
//!   Parquet, JSON numbers, booleans and `null` in JSON Lines, text (empty
//!   for null) in CSV.
//!
//! A value of another type than its column's is written as text in a text
//! column, an integer in a float column as that float; any other mismatch
//! is written as null.
//!
//! [`PuzzleResult::kept`]: crate::result::PuzzleResult::kept

/// The type of a kept column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeptType {
    /// `true`/`false` (Parquet BOOLEAN).
    Bool,
    /// A signed 64-bit integer (Parquet INT64).
    Int,
    /// A 64-bit float (Parquet DOUBLE).
    Float,
    /// UTF-8 text (Parquet STRING); every CSV or text-line field.
    Text,
}

/// A kept column: its name in the input (a header name, or `field1`,
/// `field2`, ... for text lines) and its type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeptColumn {
    /// The column's name in the input.
    pub name: String,
    /// The type of its values.
    pub kind: KeptType,
}

/// One record's value of a kept column. Equal values are the same value:
/// floats compare by their bits (NaN equals itself; 0.0 and -0.0 differ).
#[derive(Clone, Debug)]
pub enum KeptValue {
    /// No value (a missing field, a Parquet or JSON null).
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// Text, as the input holds it (writers escape it as their format needs).
    Text(String),
}

impl PartialEq for KeptValue {
    fn eq(&self, other: &KeptValue) -> bool {
        match (self, other) {
            (KeptValue::Null, KeptValue::Null) => true,
            (KeptValue::Bool(a), KeptValue::Bool(b)) => a == b,
            (KeptValue::Int(a), KeptValue::Int(b)) => a == b,
            (KeptValue::Float(a), KeptValue::Float(b)) => a.to_bits() == b.to_bits(),
            (KeptValue::Text(a), KeptValue::Text(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for KeptValue {}

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
    }
}
