//! `--keep-types COL=TYPE,...`: kept columns written in a type the user
//! chooses rather than the input's (a CSV `rating` as `int64` in Parquet).
//!
//! A value is cast from what the input holds: an integer or float as it
//! is (a float to `int64` when it is a whole number: `4.0` is 4, `4.5`
//! is refused), anything else by its text ([`KeptValue::text`]) with the
//! spaces around it trimmed. Null stays null, and so does empty (or all-space)
//! text for a number type, as CSV readers take an empty field. A value that
//! does not parse is refused ([`KeptType::cast`]), and its record is
//! `malformed` saying which column and value (see
//! [`crate::input::Records::set_kept_types`]): no value is changed or
//! dropped unseen.

use std::fmt;
use std::str::FromStr;

use arrow_schema::DataType;

use super::KeptValue;

/// A type `--keep-types` writes a kept column in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeptType {
    /// 64-bit signed integers: an optional sign and decimal digits.
    Int64,
    /// 64-bit floats: any decimal or exponent form, `NaN`, `inf`; the
    /// nearest double.
    Float64,
    /// Text: the value as CSV writes it.
    String,
}

impl KeptType {
    /// The names `--keep-types` takes, in order.
    pub const NAMES: [&'static str; 3] = ["int64", "float64", "string"];

    /// The type's name.
    pub fn name(self) -> &'static str {
        match self {
            KeptType::Int64 => "int64",
            KeptType::Float64 => "float64",
            KeptType::String => "string",
        }
    }

    /// The Arrow type of the column.
    pub fn data_type(self) -> DataType {
        match self {
            KeptType::Int64 => DataType::Int64,
            KeptType::Float64 => DataType::Float64,
            KeptType::String => DataType::Utf8,
        }
    }

    /// `value` in this type.
    ///
    /// # Errors
    /// Why it cannot be (`"7.5" is not an int64`, `"x" is not a
    /// float64`).
    pub fn cast(self, value: KeptValue) -> Result<KeptValue, String> {
        match (self, value) {
            (_, KeptValue::Null) => Ok(KeptValue::Null),
            (KeptType::String, KeptValue::Text(text)) => Ok(KeptValue::Text(text)),
            (
                KeptType::String,
                value @ (KeptValue::NotUtf8(_) | KeptValue::LoneSurrogate { .. }),
            ) => Ok(value),
            (KeptType::Int64, KeptValue::Int(v)) => Ok(KeptValue::Int(v)),
            (KeptType::Float64, KeptValue::Float(v)) => Ok(KeptValue::Float(v)),
            (KeptType::Float64, KeptValue::Int(v)) => Ok(KeptValue::Float(v as f64)),
            (KeptType::Float64, KeptValue::UInt(v)) => Ok(KeptValue::Float(v as f64)),
            (KeptType::Int64, KeptValue::Float(v)) => whole(v)
                .map(KeptValue::Int)
                .ok_or_else(|| format!("{:?} is not an int64", KeptValue::Float(v).text())),
            (KeptType::Int64, KeptValue::Number(n)) => KeptType::Int64
                .parse(&n)
                .or_else(|e| n.parse().ok().and_then(whole).map(KeptValue::Int).ok_or(e)),
            (to, value) => to.parse(&value.text()),
        }
    }

    /// `text` in this type.
    fn parse(self, text: &str) -> Result<KeptValue, String> {
        let article = if self == KeptType::Int64 { "an" } else { "a" };
        let refused = || format!("{text:?} is not {article} {}", self.name());
        let trimmed = text.trim();
        match self {
            KeptType::String => Ok(KeptValue::Text(text.to_string())),
            _ if trimmed.is_empty() => Ok(KeptValue::Null),
            KeptType::Int64 => trimmed
                .parse()
                .map(KeptValue::Int)
                .map_err(|_: std::num::ParseIntError| refused()),
            KeptType::Float64 => trimmed
                .parse()
                .map(KeptValue::Float)
                .map_err(|_: std::num::ParseFloatError| refused()),
        }
    }
}

/// `v` as an int64 when it is a whole number in int64's range (a float
/// column's `4.0`), exactly.
fn whole(v: f64) -> Option<i64> {
    // 2^63 is a double; every whole double below it in size is an i64.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (v.fract() == 0.0 && (-LIMIT..LIMIT).contains(&v)).then_some(v as i64)
}

impl fmt::Display for KeptType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One `COL=TYPE` of `--keep-types`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptCast {
    /// The kept column, by its input name (an exact name first, else one
    /// alike but for case, as `--keep` finds it).
    pub column: String,
    /// The type to write it in.
    pub to: KeptType,
}

impl FromStr for KeptCast {
    type Err = String;

    /// Parses `COL=TYPE` (the type in any case).
    ///
    /// # Errors
    /// No `=`, an empty name, or an unknown type (the message lists them).
    fn from_str(text: &str) -> Result<KeptCast, String> {
        let Some((column, to)) = text.rsplit_once('=') else {
            return Err(format!("{text:?}: expected COL=TYPE, e.g. rating=int64"));
        };
        if column.trim().is_empty() {
            return Err(format!("{text:?}: the column name is empty"));
        }
        let to = match to.trim().to_ascii_lowercase().as_str() {
            "int64" => KeptType::Int64,
            "float64" => KeptType::Float64,
            "string" => KeptType::String,
            other => {
                return Err(format!(
                    "{other:?} is not a type: the types are {}",
                    KeptType::NAMES.join(", ")
                ))
            }
        };
        Ok(KeptCast {
            column: column.to_string(),
            to,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> KeptValue {
        KeptValue::Text(t.into())
    }

    #[test]
    fn numbers_parse_from_text_and_null_or_empty_stays_null() {
        let int = KeptType::Int64;
        assert_eq!(int.cast(text("007")), Ok(KeptValue::Int(7)));
        assert_eq!(int.cast(text(" -12 ")), Ok(KeptValue::Int(-12)));
        assert_eq!(int.cast(text("")), Ok(KeptValue::Null));
        assert_eq!(int.cast(KeptValue::Null), Ok(KeptValue::Null));
        assert_eq!(
            int.cast(KeptValue::Number("42".into())),
            Ok(KeptValue::Int(42))
        );
        assert_eq!(int.cast(KeptValue::UInt(3)), Ok(KeptValue::Int(3)));
        assert_eq!(
            int.cast(text("7.5")),
            Err("\"7.5\" is not an int64".to_string())
        );
        assert!(int.cast(KeptValue::UInt(u64::MAX)).is_err());
        // A float column's whole numbers, as they are (all of a Parquet
        // `difficulty` column of 0.0 and 4.0 was refused, by its text).
        assert_eq!(int.cast(KeptValue::Float(4.0)), Ok(KeptValue::Int(4)));
        assert_eq!(int.cast(KeptValue::Float(-0.0)), Ok(KeptValue::Int(0)));
        assert_eq!(
            int.cast(KeptValue::Float(-9_223_372_036_854_775_808.0)),
            Ok(KeptValue::Int(i64::MIN))
        );
        assert_eq!(
            int.cast(KeptValue::Number("4.0".into())),
            Ok(KeptValue::Int(4))
        );
        assert_eq!(
            int.cast(KeptValue::Float(5.6)),
            Err("\"5.6\" is not an int64".to_string())
        );
        for refused in [9_223_372_036_854_775_808.0, f64::NAN, f64::INFINITY] {
            assert!(int.cast(KeptValue::Float(refused)).is_err(), "{refused}");
        }
        assert!(int.cast(KeptValue::Number("4.5".into())).is_err());
        assert!(int.cast(text("4.0")).is_err(), "text is cast by its text");
        assert!(int.cast(text("99999999999999999999")).is_err());
        let float = KeptType::Float64;
        assert_eq!(float.cast(text("2.5")), Ok(KeptValue::Float(2.5)));
        assert_eq!(float.cast(KeptValue::Int(3)), Ok(KeptValue::Float(3.0)));
        assert_eq!(float.cast(text("1e3")), Ok(KeptValue::Float(1000.0)));
        assert_eq!(
            float.cast(text("n/a")),
            Err("\"n/a\" is not a float64".to_string())
        );
        assert_eq!(
            KeptType::String.cast(KeptValue::Int(5)),
            Ok(text("5")),
            "a number as its text"
        );
        assert_eq!(KeptType::String.cast(text(" a ")), Ok(text(" a ")));
    }

    #[test]
    fn casts_parse_from_the_command_line() {
        let cast: KeptCast = "rating=Int64".parse().unwrap();
        assert_eq!(
            cast,
            KeptCast {
                column: "rating".into(),
                to: KeptType::Int64
            }
        );
        assert_eq!("a=b=float64".parse::<KeptCast>().unwrap().column, "a=b");
        assert!("rating"
            .parse::<KeptCast>()
            .unwrap_err()
            .contains("COL=TYPE"));
        assert!("=int64".parse::<KeptCast>().is_err());
        let unknown = "rating=int32".parse::<KeptCast>().unwrap_err();
        assert!(unknown.contains("int64, float64, string"), "{unknown}");
    }
}
