//! Arrow values as text (what CSV writes) and as JSON (what JSON Lines
//! writes), for every type a Parquet file can hold: see [`super`] for the
//! rules. Written here rather than taken from `arrow-cast`, whose display
//! forms are not JSON for nested values and which the build otherwise does
//! without.

use std::fmt::Write as _;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowDictionaryKeyType, Date32Type, Date64Type, Decimal128Type, Decimal256Type, Decimal32Type,
    Decimal64Type, DecimalType, DurationMicrosecondType, DurationMillisecondType,
    DurationNanosecondType, DurationSecondType, Float16Type, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, IntervalDayTimeType, IntervalMonthDayNanoType,
    IntervalYearMonthType, RunEndIndexType, Time32MillisecondType, Time32SecondType,
    Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType, UInt16Type, UInt32Type,
    UInt64Type, UInt8Type,
};
use arrow_array::{Array, DictionaryArray, RunArray};
use arrow_schema::{DataType, IntervalUnit, TimeUnit};

/// `bytes` as lowercase hex, two digits a byte.
pub(super) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// A float as text: the shortest digits that read back as the same float
/// (`0.1`, `1e300`, `-0.0`, `3.0`), and `NaN`, `inf`, `-inf`.
pub(super) fn float(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        serde_json::to_string(&v).unwrap_or_else(|_| v.to_string())
    }
}

/// A 32-bit float as text, by the same rules with its own shortest digits.
fn float32(v: f32) -> String {
    if v.is_finite() {
        serde_json::to_string(&v).unwrap_or_else(|_| v.to_string())
    } else {
        float(v.into())
    }
}

/// A float as JSON: a number, or the text of NaN and the infinities as a
/// string (JSON has no number for them).
pub(super) fn json_float(v: f64, out: &mut String) {
    if v.is_finite() {
        out.push_str(&float(v));
    } else {
        json_string(&float(v), out);
    }
}

/// Appends `text` as a JSON string, escaped.
pub(super) fn push_json_string(out: &mut Vec<u8>, text: &str) {
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

fn json_string(text: &str, out: &mut String) {
    out.push_str(&serde_json::to_string(text).unwrap_or_default());
}

/// The value of a one-row float array as an `f64`.
pub(super) fn float_of(array: &dyn Array) -> Option<f64> {
    if array.is_empty() || array.is_null(0) {
        return None;
    }
    match array.data_type() {
        DataType::Float16 => Some(array.as_primitive::<Float16Type>().value(0).into()),
        DataType::Float32 => Some(array.as_primitive::<Float32Type>().value(0).into()),
        DataType::Float64 => Some(array.as_primitive::<Float64Type>().value(0)),
        _ => None,
    }
}

/// ISO 8601 date and time, with the fraction of a second only when there
/// is one (`2023-11-14T22:13:20`, `...20.001`).
fn datetime(value: Option<chrono::NaiveDateTime>, raw: i64, utc: bool) -> String {
    match value {
        Some(t) => {
            let mut text = t.format("%Y-%m-%dT%H:%M:%S%.f").to_string();
            if utc {
                text.push('Z');
            }
            text
        }
        // Out of chrono's range: the stored number itself.
        None => raw.to_string(),
    }
}

fn time(value: Option<chrono::NaiveTime>, raw: i64) -> String {
    value.map_or_else(|| raw.to_string(), |t| t.format("%H:%M:%S%.f").to_string())
}

/// A count of `unit`s as seconds with their fraction, trailing zeros
/// dropped: `1.5`, `-0.001`, `20`.
fn seconds(count: i128, digits: u32) -> String {
    let scale = 10i128.pow(digits);
    let sign = if count < 0 { "-" } else { "" };
    let count = count.unsigned_abs();
    let (whole, frac) = (count / scale.unsigned_abs(), count % scale.unsigned_abs());
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let frac = format!("{frac:0width$}", width = digits as usize);
    format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
}

/// An ISO 8601 duration of `count` `unit`s: `PT1.5S`, `-PT20S`.
fn duration(count: i64, digits: u32) -> String {
    let text = seconds(count.into(), digits);
    match text.strip_prefix('-') {
        Some(positive) => format!("-PT{positive}S"),
        None => format!("PT{text}S"),
    }
}

fn unit_digits(unit: &TimeUnit) -> u32 {
    match unit {
        TimeUnit::Second => 0,
        TimeUnit::Millisecond => 3,
        TimeUnit::Microsecond => 6,
        TimeUnit::Nanosecond => 9,
    }
}

/// A decimal's exact digits.
fn decimal<T: DecimalType>(array: &dyn Array, row: usize, precision: u8, scale: i8) -> String {
    T::format_decimal(array.as_primitive::<T>().value(row), precision, scale)
}

/// How a scalar (not nested) value is written: as a JSON number or
/// boolean, or as text that JSON writes as a string.
enum Scalar {
    Literal(String),
    Text(String),
}

/// The scalar at `row` of `array`, or `None` for a nested type.
fn scalar(array: &dyn Array, row: usize) -> Option<Scalar> {
    use Scalar::{Literal, Text};
    macro_rules! int {
        ($t:ty) => {
            Literal(array.as_primitive::<$t>().value(row).to_string())
        };
    }
    Some(match array.data_type() {
        DataType::Null => Literal("null".into()),
        DataType::Boolean => Literal(array.as_boolean().value(row).to_string()),
        DataType::Int8 => int!(Int8Type),
        DataType::Int16 => int!(Int16Type),
        DataType::Int32 => int!(Int32Type),
        DataType::Int64 => int!(Int64Type),
        DataType::UInt8 => int!(UInt8Type),
        DataType::UInt16 => int!(UInt16Type),
        DataType::UInt32 => int!(UInt32Type),
        DataType::UInt64 => int!(UInt64Type),
        DataType::Float16 => {
            let v = f32::from(array.as_primitive::<Float16Type>().value(row));
            finite(float32(v), v.is_finite())
        }
        DataType::Float32 => {
            let v = array.as_primitive::<Float32Type>().value(row);
            finite(float32(v), v.is_finite())
        }
        DataType::Float64 => {
            let v = array.as_primitive::<Float64Type>().value(row);
            finite(float(v), v.is_finite())
        }
        DataType::Utf8 => Text(array.as_string::<i32>().value(row).into()),
        DataType::LargeUtf8 => Text(array.as_string::<i64>().value(row).into()),
        DataType::Utf8View => Text(array.as_string_view().value(row).into()),
        DataType::Binary => Text(hex(array.as_binary::<i32>().value(row))),
        DataType::LargeBinary => Text(hex(array.as_binary::<i64>().value(row))),
        DataType::BinaryView => Text(hex(array.as_binary_view().value(row))),
        DataType::FixedSizeBinary(_) => Text(hex(array.as_fixed_size_binary().value(row))),
        DataType::Decimal32(p, s) => Text(decimal::<Decimal32Type>(array, row, *p, *s)),
        DataType::Decimal64(p, s) => Text(decimal::<Decimal64Type>(array, row, *p, *s)),
        DataType::Decimal128(p, s) => Text(decimal::<Decimal128Type>(array, row, *p, *s)),
        DataType::Decimal256(p, s) => Text(decimal::<Decimal256Type>(array, row, *p, *s)),
        DataType::Date32 => {
            let v = array.as_primitive::<Date32Type>().value(row);
            let date = arrow_array::temporal_conversions::as_date::<Date32Type>(v.into());
            Text(date.map_or_else(|| v.to_string(), |d| d.format("%Y-%m-%d").to_string()))
        }
        DataType::Date64 => {
            let v = array.as_primitive::<Date64Type>().value(row);
            let t = arrow_array::temporal_conversions::as_datetime::<Date64Type>(v);
            Text(match t {
                Some(t) if t.time() == chrono::NaiveTime::MIN => {
                    t.date().format("%Y-%m-%d").to_string()
                }
                other => datetime(other, v, false),
            })
        }
        DataType::Timestamp(unit, tz) => {
            use arrow_array::temporal_conversions::as_datetime;
            let utc = tz.is_some();
            Text(match unit {
                TimeUnit::Second => {
                    let v = array.as_primitive::<TimestampSecondType>().value(row);
                    datetime(as_datetime::<TimestampSecondType>(v), v, utc)
                }
                TimeUnit::Millisecond => {
                    let v = array.as_primitive::<TimestampMillisecondType>().value(row);
                    datetime(as_datetime::<TimestampMillisecondType>(v), v, utc)
                }
                TimeUnit::Microsecond => {
                    let v = array.as_primitive::<TimestampMicrosecondType>().value(row);
                    datetime(as_datetime::<TimestampMicrosecondType>(v), v, utc)
                }
                TimeUnit::Nanosecond => {
                    let v = array.as_primitive::<TimestampNanosecondType>().value(row);
                    datetime(as_datetime::<TimestampNanosecondType>(v), v, utc)
                }
            })
        }
        DataType::Time32(unit) => {
            use arrow_array::temporal_conversions::as_time;
            Text(match unit {
                TimeUnit::Millisecond => {
                    let v = array.as_primitive::<Time32MillisecondType>().value(row);
                    time(as_time::<Time32MillisecondType>(v.into()), v.into())
                }
                _ => {
                    let v = array.as_primitive::<Time32SecondType>().value(row);
                    time(as_time::<Time32SecondType>(v.into()), v.into())
                }
            })
        }
        DataType::Time64(unit) => {
            use arrow_array::temporal_conversions::as_time;
            Text(match unit {
                TimeUnit::Nanosecond => {
                    let v = array.as_primitive::<Time64NanosecondType>().value(row);
                    time(as_time::<Time64NanosecondType>(v), v)
                }
                _ => {
                    let v = array.as_primitive::<Time64MicrosecondType>().value(row);
                    time(as_time::<Time64MicrosecondType>(v), v)
                }
            })
        }
        DataType::Duration(unit) => {
            let v = match unit {
                TimeUnit::Second => array.as_primitive::<DurationSecondType>().value(row),
                TimeUnit::Millisecond => array.as_primitive::<DurationMillisecondType>().value(row),
                TimeUnit::Microsecond => array.as_primitive::<DurationMicrosecondType>().value(row),
                TimeUnit::Nanosecond => array.as_primitive::<DurationNanosecondType>().value(row),
            };
            Text(duration(v, unit_digits(unit)))
        }
        DataType::Interval(IntervalUnit::YearMonth) => {
            let months = array.as_primitive::<IntervalYearMonthType>().value(row);
            Text(format!("P{months}M"))
        }
        DataType::Interval(IntervalUnit::DayTime) => {
            let v = array.as_primitive::<IntervalDayTimeType>().value(row);
            Text(format!(
                "P{}DT{}S",
                v.days,
                seconds(v.milliseconds.into(), 3)
            ))
        }
        DataType::Interval(IntervalUnit::MonthDayNano) => {
            let v = array.as_primitive::<IntervalMonthDayNanoType>().value(row);
            Text(format!(
                "P{}M{}DT{}S",
                v.months,
                v.days,
                seconds(v.nanoseconds.into(), 9)
            ))
        }
        _ => return None,
    })
}

/// A float's text: a JSON number when finite, else a string.
fn finite(text: String, is_finite: bool) -> Scalar {
    if is_finite {
        Scalar::Literal(text)
    } else {
        Scalar::Text(text)
    }
}

/// The value at `row` of `array` as CSV text: a scalar's text, a nested
/// value's JSON; empty for null.
pub(super) fn text(array: &dyn Array, row: usize) -> String {
    if array.is_null(row) {
        return String::new();
    }
    match scalar(array, row) {
        Some(Scalar::Literal(t) | Scalar::Text(t)) => t,
        None => match inner(array, row) {
            Some((values, at)) => text(values, at),
            None => {
                let mut out = String::new();
                json(array, row, &mut out);
                out
            }
        },
    }
}

/// For a dictionary, union or run-end encoded array: the array and row
/// that hold the value at `row`.
fn inner(array: &dyn Array, row: usize) -> Option<(&dyn Array, usize)> {
    match array.data_type() {
        DataType::Dictionary(key, _) => {
            let at = match key.as_ref() {
                DataType::Int8 => key_at(array.as_dictionary::<Int8Type>(), row),
                DataType::Int16 => key_at(array.as_dictionary::<Int16Type>(), row),
                DataType::Int32 => key_at(array.as_dictionary::<Int32Type>(), row),
                DataType::Int64 => key_at(array.as_dictionary::<Int64Type>(), row),
                DataType::UInt8 => key_at(array.as_dictionary::<UInt8Type>(), row),
                DataType::UInt16 => key_at(array.as_dictionary::<UInt16Type>(), row),
                DataType::UInt32 => key_at(array.as_dictionary::<UInt32Type>(), row),
                DataType::UInt64 => key_at(array.as_dictionary::<UInt64Type>(), row),
                _ => None,
            }?;
            Some((array.as_any_dictionary().values().as_ref(), at))
        }
        DataType::Union(_, _) => {
            let union = array.as_union();
            let child = union.child(union.type_id(row));
            Some((child.as_ref(), union.value_offset(row)))
        }
        DataType::RunEndEncoded(ends, _) => match ends.data_type() {
            DataType::Int16 => run_at(array.as_run::<Int16Type>(), row),
            DataType::Int32 => run_at(array.as_run::<Int32Type>(), row),
            DataType::Int64 => run_at(array.as_run::<Int64Type>(), row),
            _ => None,
        },
        _ => None,
    }
}

fn key_at<K: ArrowDictionaryKeyType>(dict: &DictionaryArray<K>, row: usize) -> Option<usize> {
    dict.key(row).filter(|&k| k < dict.values().len())
}

fn run_at<R: RunEndIndexType>(run: &RunArray<R>, row: usize) -> Option<(&dyn Array, usize)> {
    Some((run.values().as_ref(), run.get_physical_index(row)))
}

/// Appends the value at `row` of `array` as JSON: numbers and booleans as
/// such, lists as arrays, structs and maps as objects (a map's keys as
/// their text), anything else as the string of its text.
pub(super) fn json(array: &dyn Array, row: usize, out: &mut String) {
    if array.is_null(row) {
        out.push_str("null");
        return;
    }
    match scalar(array, row) {
        Some(Scalar::Literal(t)) => return out.push_str(&t),
        Some(Scalar::Text(t)) => return json_string(&t, out),
        None => {}
    }
    if let Some((values, at)) = inner(array, row) {
        return json(values, at, out);
    }
    let items = match array.data_type() {
        DataType::List(_) => Some(array.as_list::<i32>().value(row)),
        DataType::LargeList(_) => Some(array.as_list::<i64>().value(row)),
        DataType::FixedSizeList(_, _) => Some(array.as_fixed_size_list().value(row)),
        DataType::ListView(_) => Some(array.as_list_view::<i32>().value(row)),
        DataType::LargeListView(_) => Some(array.as_list_view::<i64>().value(row)),
        _ => None,
    };
    if let Some(items) = items {
        out.push('[');
        for i in 0..items.len() {
            if i > 0 {
                out.push(',');
            }
            json(items.as_ref(), i, out);
        }
        out.push(']');
        return;
    }
    match array.data_type() {
        DataType::Struct(fields) => {
            let columns = array.as_struct().columns();
            out.push('{');
            for (i, (field, column)) in fields.iter().zip(columns).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(field.name(), out);
                out.push(':');
                json(column.as_ref(), row, out);
            }
            out.push('}');
        }
        DataType::Map(_, _) => {
            let entries = array.as_map().value(row);
            let (keys, values) = (entries.column(0), entries.column(1));
            out.push('{');
            for i in 0..entries.len() {
                if i > 0 {
                    out.push(',');
                }
                json_string(&text(keys.as_ref(), i), out);
                out.push(':');
                json(values.as_ref(), i, out);
            }
            out.push('}');
        }
        // Every type Arrow has is handled above; a new one is named.
        other => json_string(&format!("<{other}>"), out),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::builder::{Int64Builder, ListBuilder};
    use arrow_array::{
        ArrayRef, BinaryArray, Date32Array, Decimal128Array, DurationMillisecondArray,
        Float32Array, Int64Array, StructArray, TimestampMillisecondArray,
    };
    use arrow_schema::Field;

    use super::*;

    fn both(array: &dyn Array) -> (String, String) {
        let mut out = String::new();
        json(array, 0, &mut out);
        (text(array, 0), out)
    }

    #[test]
    fn dates_times_and_decimals_are_iso_text_and_exact_digits() {
        let ts = TimestampMillisecondArray::from(vec![1_700_000_000_001]);
        assert_eq!(
            both(&ts),
            (
                "2023-11-14T22:13:20.001".into(),
                "\"2023-11-14T22:13:20.001\"".into()
            )
        );
        let utc = TimestampMillisecondArray::from(vec![1_700_000_000_000]).with_timezone("UTC");
        assert_eq!(text(&utc, 0), "2023-11-14T22:13:20Z");
        assert_eq!(text(&Date32Array::from(vec![19_000]), 0), "2022-01-08");
        let price = Decimal128Array::from(vec![123_400])
            .with_precision_and_scale(10, 2)
            .unwrap();
        assert_eq!(both(&price), ("1234.00".into(), "\"1234.00\"".into()));
        assert_eq!(
            text(&DurationMillisecondArray::from(vec![-1500]), 0),
            "-PT1.5S"
        );
        assert_eq!(text(&Float32Array::from(vec![0.1f32]), 0), "0.1");
        assert_eq!(text(&BinaryArray::from(vec![&b"\x00\xff"[..]]), 0), "00ff");
    }

    #[test]
    fn nested_values_are_json() {
        let a: ArrayRef = Arc::new(Int64Array::from(vec![7]));
        let s: ArrayRef = Arc::new(arrow_array::StringArray::from(vec!["x\"y"]));
        let st = StructArray::from(vec![
            (Arc::new(Field::new("a", DataType::Int64, true)), a),
            (Arc::new(Field::new("b", DataType::Utf8, true)), s),
        ]);
        assert_eq!(both(&st).1, r#"{"a":7,"b":"x\"y"}"#);
        assert_eq!(both(&st).0, r#"{"a":7,"b":"x\"y"}"#);
        let mut list = ListBuilder::new(Int64Builder::new());
        list.values().append_value(1);
        list.values().append_null();
        list.append(true);
        assert_eq!(both(&list.finish()).1, "[1,null]");
    }
}
