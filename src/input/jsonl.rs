//! JSON Lines: one JSON value per line, framed (and capped) by [`Framer`]
//! like text lines and parsed with `serde_json`.
//!
//! A line holding an object is a record whose keys are its columns; the
//! puzzle key, and the solution key when none is named as one, are chosen
//! on the first records ([`looked_keys`], see [`super::Format::Jsonl`]);
//! the solution and status keys are looked up in every object.
//! A line holding a string or a list is the puzzle itself. Once the puzzle
//! key is known, lines are cut raw and parsed on the workers.

use std::collections::HashMap;
use std::fmt;
use std::io::Read;

use arrow_schema::DataType;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value as Json;
use sudoku_core::solver::Status;

use super::choose::{self, Choice, Seen};
use super::choose::{PUZZLE_NAMES, SOLUTION_NAMES, STATUS_NAME};
use super::field;
use super::frame::{Framer, MAX_TABLE_RECORD};
use super::keep::Keep;
use super::lines::is_skipped;
use super::value::{self, Value};
use super::{Column, InputError, Record, SizeOptions};
use crate::kept::{KeptColumn, KeptValue};

/// One line's JSON value. An object's keys are kept in their order (for
/// `--column N`), each with its value as written, parsed only when used.
pub(super) enum Line<'a> {
    Object(Vec<(String, &'a RawValue)>),
    Other(Json),
}

impl<'de> Deserialize<'de> for Line<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Line<'de>, D::Error> {
        struct LineVisitor;

        impl<'de> Visitor<'de> for LineVisitor {
            type Value = Line<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line<'de>, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(4));
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    entries.push(entry);
                }
                Ok(Line::Object(entries))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Line<'de>, A::Error> {
                Json::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Line::Other)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Line<'de>, E> {
                Ok(Line::Other(Json::String(v.into())))
            }

            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Line<'de>, E> {
                Ok(Line::Other(Json::Bool(v)))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Line<'de>, E> {
                Ok(Line::Other(v.into()))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Line<'de>, E> {
                Ok(Line::Other(v.into()))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Line<'de>, E> {
                Ok(Line::Other(v.into()))
            }

            fn visit_unit<E: de::Error>(self) -> Result<Line<'de>, E> {
                Ok(Line::Other(Json::Null))
            }
        }

        d.deserialize_any(LineVisitor)
    }
}

/// A value as written, parsed (valid JSON: the line was parsed whole).
fn parse(raw: &RawValue) -> Json {
    serde_json::from_str(raw.get()).unwrap_or_else(|_| match raw.get().as_bytes().first() {
        Some(b'"') => Json::String(lossy_string(raw.get())),
        _ => Json::Null,
    })
}

/// The text of the JSON string `raw` (as written, quotes included, already
/// checked to be one by `serde_json`) with each lone surrogate escape
/// (`"\ud800"`: valid JSON, which `serde_json` reads into no `String`, as
/// UTF-8 cannot hold it) as U+FFFD, as [`String::from_utf16_lossy`] does:
/// the value is kept, marked, rather than lost.
pub(crate) fn lossy_string(raw: &str) -> String {
    fn flush(units: &mut Vec<u16>, out: &mut String) {
        out.extend(
            char::decode_utf16(units.drain(..)).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)),
        );
    }
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(raw);
    let mut out = String::with_capacity(inner.len());
    let mut units = Vec::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            flush(&mut units, &mut out);
            out.push(c);
            continue;
        }
        let escaped = chars.next().unwrap_or('\\');
        if escaped == 'u' {
            let hex: String = chars.by_ref().take(4).collect();
            units.push(u16::from_str_radix(&hex, 16).unwrap_or(0xFFFD));
            continue;
        }
        flush(&mut units, &mut out);
        out.push(match escaped {
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            other => other,
        });
    }
    flush(&mut units, &mut out);
    out
}

/// What a status key's value says it expects: a string as a CSV status
/// field ([`field::status`]), nothing for `null`, and any other value (a
/// number, a boolean, a list, an object) names no status.
fn expected_status(raw: &RawValue) -> Result<Option<Status>, String> {
    match parse(raw) {
        Json::Null => Ok(None),
        Json::String(text) => field::status(text.as_bytes()),
        _ => Err(field::unknown_status(raw.get().as_bytes())),
    }
}

/// A JSON value as the puzzle rules see it.
fn view(json: &Json) -> Value<'_> {
    match json {
        Json::Null => Value::Null,
        Json::String(s) => Value::Text(s.as_bytes()),
        Json::Number(n) => match n.as_i64() {
            Some(v) => Value::Int(v),
            None => Value::Other(format!("a number ({n})")),
        },
        Json::Bool(b) => Value::Other(format!("a boolean ({b})")),
        Json::Array(items) => Value::List(items.iter().map(view).collect()),
        Json::Object(_) => Value::Other("an object".into()),
    }
}

/// The puzzle key of an object (at `line`) by its values, by [`choose`]:
/// never a key named as a solution or status, a puzzle before a complete
/// grid; `None` when no value looks like a puzzle.
///
/// # Errors
/// [`InputError::PuzzleColumnUnclear`] when a key holds a complete grid
/// and another is null or empty.
fn by_content(
    entries: &[(String, &RawValue)],
    line: u64,
    name: &str,
    sizes: &SizeOptions,
) -> Result<Option<String>, InputError> {
    let seen: Vec<Seen> = entries
        .iter()
        .map(|(key, raw)| {
            if choose::never_puzzle(key) {
                Seen::Other
            } else {
                choose::seen_value(&view(&parse(raw)), sizes)
            }
        })
        .collect();
    match choose::choose(&seen) {
        Choice::Column(i) => Ok(Some(entries[i].0.clone())),
        Choice::Nothing => Ok(None),
        Choice::Unclear { complete, empty } => Err(InputError::PuzzleColumnUnclear {
            path: name.into(),
            place: format!("line {line}"),
            columns: choose::describe(&complete, &empty, |i| entries[i].0.clone()),
        }),
    }
}

/// The keys chosen by content on the records read ahead ([`looked_keys`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Looked {
    /// The puzzle key, when no `--column` and no key named as a puzzle
    /// says which it is and a key shows puzzles.
    pub(super) puzzle: Option<String>,
    /// The solution key, when no key is named as a solution: the first
    /// other key of complete grids ([`choose::solution_column`]).
    pub(super) solution: Option<String>,
}

/// The puzzle and solution keys by what the keys of `objects` (the records
/// read ahead, at `lines`) show over them all, by [`choose`], as Parquet
/// chooses on its first rows: a null or empty first puzzle does not hide
/// its key, and a key of complete grids beside the puzzle's, before or
/// after it, is the solution's. `column` is `--column`'s, if any; `sizes`
/// the options grids of other sizes are read with. The puzzle key is
/// `None` when `--column` or a key named as a puzzle says which it is, or
/// none shows a puzzle (each object is then asked in turn).
///
/// # Errors
/// [`InputError::PuzzleColumnUnclear`] when a key holds complete grids
/// and another is null or empty throughout.
pub(super) fn looked_keys<'a>(
    objects: impl Iterator<Item = &'a [(String, &'a RawValue)]>,
    column: Option<&Column>,
    lines: (u64, u64),
    name: &str,
    sizes: &SizeOptions,
) -> Result<Looked, InputError> {
    let mut keys: Vec<String> = Vec::new();
    let mut seen: Vec<Seen> = Vec::new();
    let mut named_puzzle = None;
    let mut named_solution = false;
    for entries in objects {
        let mut shown: Vec<Seen> = vec![Seen::Empty; keys.len()];
        for (key, raw) in entries {
            named_solution |= SOLUTION_NAMES.iter().any(|n| key.eq_ignore_ascii_case(n));
            let one = if choose::never_puzzle(key) {
                Seen::Other
            } else {
                choose::seen_value(&view(&parse(raw)), sizes)
            };
            let at = match keys.iter().position(|k| k == key) {
                Some(i) => i,
                None => {
                    keys.push(key.clone());
                    seen.push(Seen::Empty);
                    shown.push(Seen::Empty);
                    keys.len() - 1
                }
            };
            shown[at] = shown[at].and(one);
            if named_puzzle.is_none() && PUZZLE_NAMES.iter().any(|n| key.eq_ignore_ascii_case(n)) {
                named_puzzle = Some(at);
            }
        }
        for (all, one) in seen.iter_mut().zip(shown) {
            *all = all.and(one);
        }
    }
    let mut looked = Looked::default();
    let puzzle = match column {
        Some(Column::Name(want)) => keys
            .iter()
            .position(|k| k == want)
            .or_else(|| keys.iter().position(|k| k.eq_ignore_ascii_case(want))),
        Some(Column::Index(_)) => None,
        None if named_puzzle.is_some() => named_puzzle,
        None => match choose::choose(&seen) {
            Choice::Column(i) => {
                looked.puzzle = Some(keys[i].clone());
                Some(i)
            }
            Choice::Nothing => None,
            Choice::Unclear { complete, empty } => {
                return Err(InputError::PuzzleColumnUnclear {
                    path: name.into(),
                    place: super::frame::place(lines.0, lines.1),
                    columns: choose::describe(&complete, &empty, |i| keys[i].clone()),
                })
            }
        },
    };
    if !named_solution {
        looked.solution = puzzle
            .and_then(|p| choose::solution_column(&seen, p))
            .map(|i| keys[i].clone());
    }
    Ok(looked)
}

/// Which keys hold the puzzle, the solution and the expected status; usable
/// on any thread once the puzzle key is known.
#[derive(Clone, Debug, Default)]
pub struct JsonRules {
    pub(super) puzzle: Option<String>,
    pub(super) solution: Option<String>,
    pub(super) status: Option<String>,
    /// The kept keys (`--keep`), with the types that hold their values (see
    /// [`KeyScan`]), known before the first record.
    pub(super) kept: Vec<KeptColumn>,
    /// How grids of other sizes than 9x9 are read.
    pub(super) sizes: SizeOptions,
    /// The keys chosen by content on the records read ahead
    /// ([`looked_keys`]), taken by [`JsonRules::settle`]: the puzzle key
    /// when the object at hand has no key named as a puzzle, the solution
    /// key when it has none named as a solution.
    pub(super) looked: Looked,
}

/// A key's value kept as written: a string as its text (one with a lone
/// surrogate escape as written, with its text for the formats that need
/// one: see [`lossy_string`]), `null` as null,
/// `true` and `false` as booleans, a number as its own digits, a list or
/// an object as its JSON text.
fn kept_value(raw: &RawValue) -> KeptValue {
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'"') => match serde_json::from_str(text) {
            Ok(string) => KeptValue::Text(string),
            Err(_) => KeptValue::LoneSurrogate {
                json: text.into(),
                text: lossy_string(text),
            },
        },
        Some(b'n') => KeptValue::Null,
        Some(b't') => KeptValue::Bool(true),
        Some(b'f') => KeptValue::Bool(false),
        Some(b'[' | b'{') => KeptValue::Json(text.into()),
        _ => KeptValue::Number(text.into()),
    }
}

/// Most distinct keys a scan collects: a file whose objects have more
/// (every record its own keys) cannot be kept whole.
pub const MAX_KEYS: usize = 4096;

/// Kinds of value a key holds, as bits.
mod kinds {
    pub const BOOL: u8 = 1;
    /// An integer within the signed 64-bit range.
    pub const INT: u8 = 2;
    /// An integer above the signed 64-bit range, within the unsigned one.
    pub const UINT: u8 = 4;
    /// A negative integer.
    pub const NEG: u8 = 8;
    /// An integer beyond 2^53, which a 64-bit float does not hold exactly.
    pub const BIG: u8 = 16;
    /// A number with a fraction or an exponent, finite as a 64-bit float.
    pub const FLOAT: u8 = 32;
    /// A string, list or object, or a number no other kind holds.
    pub const TEXT: u8 = 64;
}

/// The kind of a value as written.
fn kind_of(raw: &str) -> u8 {
    use kinds::*;
    match raw.as_bytes().first() {
        None | Some(b'n') => 0,
        Some(b't' | b'f') => BOOL,
        Some(b'"' | b'[' | b'{') => TEXT,
        _ if raw.contains(['.', 'e', 'E']) => match raw.parse::<f64>() {
            Ok(v) if v.is_finite() => FLOAT,
            _ => TEXT,
        },
        _ => match (raw.parse::<i64>(), raw.parse::<u64>()) {
            (Ok(v), _) => {
                let neg = if v < 0 { NEG } else { 0 };
                let big = if v.unsigned_abs() > 1 << 53 { BIG } else { 0 };
                INT | neg | big
            }
            (_, Ok(_)) => UINT | BIG,
            _ => TEXT,
        },
    }
}

/// The Arrow type that holds every value of these kinds exactly: booleans,
/// 64-bit integers (unsigned when one is beyond the signed range and none
/// is negative), 64-bit floats (when no integer is beyond 2^53), else text
/// (a mixture of kinds, strings, lists, objects).
fn data_type(kinds: u8) -> DataType {
    use kinds::*;
    match kinds {
        _ if kinds & TEXT != 0 || kinds == 0 => DataType::Utf8,
        BOOL => DataType::Boolean,
        _ if kinds & BOOL != 0 => DataType::Utf8,
        _ if kinds & FLOAT != 0 => {
            if kinds & BIG != 0 {
                DataType::Utf8
            } else {
                DataType::Float64
            }
        }
        _ if kinds & UINT != 0 => {
            if kinds & NEG != 0 {
                DataType::Utf8
            } else {
                DataType::UInt64
            }
        }
        _ => DataType::Int64,
    }
}

/// Every key of a JSON Lines input's objects, in the order first seen, and
/// the type that holds each one's values: what `--keep-all` keeps, what a
/// key first seen in a later record is found by, and what Parquet output
/// types the kept columns by. Made by reading the whole input once, before
/// its records are read.
#[derive(Clone, Debug, Default)]
pub struct KeyScan {
    keys: Vec<String>,
    kinds: Vec<u8>,
}

impl KeyScan {
    /// Scans `source` (named `name` in errors): every line framed as the
    /// reader frames it, every object's keys and values.
    ///
    /// # Errors
    /// [`InputError::Io`] when the input cannot be read;
    /// [`InputError::TooManyKeys`] past [`MAX_KEYS`] distinct keys.
    pub fn scan(source: impl Read, name: &str) -> Result<KeyScan, InputError> {
        let mut scan = KeyScan::default();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut framer = Framer::new(source, false).with_cap(MAX_TABLE_RECORD);
        while let Some(frame) = framer.next().map_err(|e| InputError::io(name, e))? {
            let bytes = framer.bytes();
            if frame.too_long || is_skipped(bytes) {
                continue;
            }
            let Ok(Line::Object(entries)) = serde_json::from_slice::<Line>(bytes) else {
                continue;
            };
            for (key, raw) in entries {
                let at = match index.get(&key) {
                    Some(&at) => at,
                    None => {
                        if scan.keys.len() == MAX_KEYS {
                            return Err(InputError::TooManyKeys {
                                path: name.into(),
                                line: frame.line,
                            });
                        }
                        index.insert(key.clone(), scan.keys.len());
                        scan.keys.push(key);
                        scan.kinds.push(0);
                        scan.keys.len() - 1
                    }
                };
                scan.kinds[at] |= kind_of(raw.get());
            }
        }
        Ok(scan)
    }

    /// The keys, in the order first seen.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// The kept columns `keep` asks for, typed to hold every value.
    ///
    /// # Errors
    /// [`InputError::UnknownColumn`] for a key no object has.
    pub fn kept(&self, keep: &Keep, name: &str) -> Result<Vec<KeptColumn>, InputError> {
        Ok(keep
            .resolve(&self.keys, name)?
            .into_iter()
            .map(|i| KeptColumn {
                name: self.keys[i].clone(),
                data_type: data_type(self.kinds[i]),
            })
            .collect())
    }
}

impl JsonRules {
    /// Chooses the keys on an object (at `line`): `column`, else a puzzle
    /// name, else by content ([`by_content`]). The puzzle key stays
    /// `None` when the object shows none: the next object is asked.
    ///
    /// # Errors
    /// [`InputError::UnknownColumn`] for a `--column` the object lacks;
    /// [`InputError::PuzzleColumnUnclear`] when its values leave the
    /// puzzle key unclear.
    pub(super) fn settle(
        &mut self,
        entries: &[(String, &RawValue)],
        column: Option<&Column>,
        line: u64,
        name: &str,
    ) -> Result<(), InputError> {
        let find = |names: &[&str]| {
            entries
                .iter()
                .find(|(k, _)| names.iter().any(|n| k.eq_ignore_ascii_case(n)))
                .map(|(k, _)| k.clone())
        };
        let names: Vec<String> = entries.iter().map(|(k, _)| k.clone()).collect();
        self.puzzle = match column {
            Some(Column::Name(want)) => match super::keep::find_name(&names, want, name)? {
                Some(i) => Some(names[i].clone()),
                None => {
                    let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
                    return Err(InputError::UnknownColumn {
                        path: name.into(),
                        column: want.clone(),
                        header: Some(keys.join(",")),
                    });
                }
            },
            Some(Column::Index(n)) => match entries.get(n.saturating_sub(1)) {
                Some((k, _)) => Some(k.clone()),
                None => {
                    return Err(InputError::UnknownColumn {
                        path: name.into(),
                        column: n.to_string(),
                        header: Some(names.join(",")),
                    })
                }
            },
            None => match find(&PUZZLE_NAMES) {
                Some(key) => Some(key),
                None => match &self.looked.puzzle {
                    Some(key) => Some(key.clone()),
                    None => by_content(entries, line, name, &self.sizes)?,
                },
            },
        };
        self.solution = find(&SOLUTION_NAMES)
            .or_else(|| self.looked.solution.clone())
            .filter(|k| Some(k) != self.puzzle.as_ref());
        self.status = find(&[STATUS_NAME]);
        Ok(())
    }

    /// The raw value of the key `key` chose, else (a record that leaves
    /// that key out, or `key` is `None`: no record so far had one) of any
    /// key named one of `names` but the puzzle key: a key left out of the
    /// first records (as writers leave out a None) is read where it is.
    fn value<'v>(
        &self,
        entries: &[(String, &'v RawValue)],
        key: &Option<String>,
        names: &[&str],
    ) -> Option<&'v RawValue> {
        let named = |k: &String| {
            Some(k) != self.puzzle.as_ref() && names.iter().any(|n| k.eq_ignore_ascii_case(n))
        };
        key.as_ref()
            .and_then(|key| entries.iter().find(|(k, _)| k == key))
            .or_else(|| entries.iter().find(|(k, _)| named(k)))
            .map(|&(_, v)| v)
    }

    /// Turns one line's bytes into a [`Record`].
    pub fn record(&self, line: u64, bytes: &[u8]) -> Record {
        match serde_json::from_slice::<Line>(bytes) {
            Ok(parsed) => self.record_of(line, &parsed),
            Err(e) => {
                let mut record = Record::new(line, Err(format!("not valid JSON: {e}")), None);
                record.kept = vec![KeptValue::Null; self.kept.len()];
                record
            }
        }
    }

    pub(super) fn record_of(&self, line: u64, parsed: &Line<'_>) -> Record {
        let entries = match parsed {
            Line::Other(json) => {
                let value = view(json);
                let mut record = Record::new(line, value::puzzle_in(&value, &self.sizes), None);
                if record.puzzle.is_err() {
                    if let Some(read) = value::sized(&value, None, &self.sizes) {
                        record.set_sized(read);
                    }
                }
                record.kept = vec![KeptValue::Null; self.kept.len()];
                return record;
            }
            Line::Object(entries) => entries,
        };
        let get = |key: &Option<String>| {
            key.as_ref()
                .map(|k| entries.iter().find(|(name, _)| name == k).map(|(_, v)| v))
        };
        let puzzle_json = match get(&self.puzzle) {
            None => Err("no key looks like a puzzle".to_string()),
            Some(None) => Err(format!(
                "no key '{}'",
                self.puzzle.as_deref().unwrap_or_default()
            )),
            Some(Some(raw)) => Ok(parse(raw)),
        };
        let puzzle = match &puzzle_json {
            Ok(json) => value::puzzle_in(&view(json), &self.sizes),
            Err(why) => Err(why.clone()),
        };
        let solution = self
            .value(entries, &self.solution, &SOLUTION_NAMES)
            .map(parse);
        // Only a record that is no 9x9 puzzle may be a grid of another size.
        let sized = match (&puzzle, &puzzle_json) {
            (Err(_), Ok(json)) => {
                let solution = solution.as_ref().map(view);
                value::sized(&view(json), solution.as_ref(), &self.sizes)
            }
            _ => None,
        };
        let mut record = Record::new(line, puzzle, None);
        match sized {
            Some(read) => record.set_sized(read),
            None => {
                if let Some(json) = &solution {
                    match value::solution(&view(json)) {
                        Ok(grid) => record.solution = grid,
                        Err(why) => record.solution_error = Some(why),
                    }
                }
            }
        }
        if let Some(raw) = self.value(entries, &self.status, &[STATUS_NAME]) {
            record.set_expected(expected_status(raw));
        }
        record.kept = self
            .kept
            .iter()
            .map(|column| {
                entries
                    .iter()
                    .find(|(k, _)| *k == column.name)
                    .map_or(KeptValue::Null, |(_, v)| kept_value(v))
            })
            .collect();
        record
    }
}
