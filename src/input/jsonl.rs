//! JSON Lines: one JSON value per line, framed (and capped) by [`Framer`]
//! like text lines and parsed with `serde_json`.
//!
//! A line holding an object is a record whose keys are its columns; the
//! puzzle key is chosen on the first object (see [`super::Format::Jsonl`]).
//! A line holding a string or a list is the puzzle itself. Once the puzzle
//! key is known, lines are cut raw and parsed on the workers.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;

use super::csv::{PUZZLE_NAMES, SOLUTION_NAMES, STATUS_NAME};
use super::keep::Keep;
use super::value::{self, Value};
use super::{field, Column, InputError, Record};
use crate::kept::{KeptColumn, KeptType, KeptValue};
use crate::solver::Status;

/// One line's JSON value, an object's keys kept in their order (for
/// `--column N`).
pub(super) enum Line {
    Object(Vec<(String, Json)>),
    Other(Json),
}

impl<'de> Deserialize<'de> for Line {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Line, D::Error> {
        struct LineVisitor;

        impl<'de> Visitor<'de> for LineVisitor {
            type Value = Line;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(4));
                while let Some(entry) = map.next_entry::<String, Json>()? {
                    entries.push(entry);
                }
                Ok(Line::Object(entries))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Line, A::Error> {
                Json::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Line::Other)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Line, E> {
                Ok(Line::Other(Json::String(v.into())))
            }

            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Line, E> {
                Ok(Line::Other(Json::Bool(v)))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Line, E> {
                Ok(Line::Other(v.into()))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Line, E> {
                Ok(Line::Other(v.into()))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Line, E> {
                Ok(Line::Other(v.into()))
            }

            fn visit_unit<E: de::Error>(self) -> Result<Line, E> {
                Ok(Line::Other(Json::Null))
            }
        }

        d.deserialize_any(LineVisitor)
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

/// True when a JSON value looks like a puzzle: a string that does, or a
/// list of 81 values or of 9 lists.
fn looks_like_puzzle(json: &Json) -> bool {
    match json {
        Json::String(s) => field::looks_like_puzzle(s.trim().as_bytes()),
        Json::Array(items) => items.len() == 81 || items.len() == 9,
        _ => false,
    }
}

/// Which keys hold the puzzle, the solution and the expected status; usable
/// on any thread once the puzzle key is known.
#[derive(Clone, Debug, Default)]
pub struct JsonRules {
    pub(super) puzzle: Option<String>,
    pub(super) solution: Option<String>,
    pub(super) status: Option<String>,
    /// The kept keys (`--keep`), with the first object's names and types.
    pub(super) kept: Vec<KeptColumn>,
}

/// A JSON value kept as it is: numbers, booleans, strings and null as
/// such, a list or an object as its JSON text.
fn kept_value(json: &Json) -> KeptValue {
    match json {
        Json::Null => KeptValue::Null,
        Json::Bool(b) => KeptValue::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(v) => KeptValue::Int(v),
            None => n.as_f64().map_or(KeptValue::Null, KeptValue::Float),
        },
        Json::String(s) => KeptValue::Text(s.clone()),
        other => KeptValue::Text(other.to_string()),
    }
}

/// The type of a kept key, from its value in the first object.
fn kept_type(json: &Json) -> KeptType {
    match json {
        Json::Bool(_) => KeptType::Bool,
        Json::Number(n) if n.is_i64() => KeptType::Int,
        Json::Number(_) => KeptType::Float,
        _ => KeptType::Text,
    }
}

impl JsonRules {
    /// Chooses the keys on the first object: `column`, else a puzzle name,
    /// else the first value that looks like a puzzle.
    pub(super) fn settle(
        &mut self,
        entries: &[(String, Json)],
        column: Option<&Column>,
        keep: &Keep,
        name: &str,
    ) -> Result<(), InputError> {
        let names: Vec<String> = entries.iter().map(|(k, _)| k.clone()).collect();
        self.kept = keep
            .resolve(&names, name)?
            .into_iter()
            .map(|i| KeptColumn {
                name: names[i].clone(),
                kind: kept_type(&entries[i].1),
            })
            .collect();
        let find = |names: &[&str]| {
            entries
                .iter()
                .find(|(k, _)| names.iter().any(|n| k.eq_ignore_ascii_case(n)))
                .map(|(k, _)| k.clone())
        };
        self.puzzle = match column {
            Some(Column::Name(want)) => match find(&[want.as_str()]) {
                Some(k) => Some(k),
                None => {
                    let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
                    return Err(InputError::UnknownColumn {
                        path: name.into(),
                        column: want.clone(),
                        header: Some(keys.join(",")),
                    });
                }
            },
            Some(Column::Index(n)) => entries.get(n.saturating_sub(1)).map(|(k, _)| k.clone()),
            None => find(&PUZZLE_NAMES).or_else(|| {
                entries
                    .iter()
                    .find(|(_, v)| looks_like_puzzle(v))
                    .map(|(k, _)| k.clone())
            }),
        };
        self.solution = find(&SOLUTION_NAMES).filter(|k| Some(k) != self.puzzle.as_ref());
        self.status = find(&[STATUS_NAME]);
        Ok(())
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

    pub(super) fn record_of(&self, line: u64, parsed: &Line) -> Record {
        let entries = match parsed {
            Line::Other(json) => {
                let mut record = Record::new(line, value::puzzle(&view(json)), None);
                record.kept = vec![KeptValue::Null; self.kept.len()];
                return record;
            }
            Line::Object(entries) => entries,
        };
        let get = |key: &Option<String>| {
            key.as_ref()
                .map(|k| entries.iter().find(|(name, _)| name == k).map(|(_, v)| v))
        };
        let puzzle = match get(&self.puzzle) {
            None => Err("no key looks like a puzzle".into()),
            Some(None) => Err(format!(
                "no key '{}'",
                self.puzzle.as_deref().unwrap_or_default()
            )),
            Some(Some(json)) => value::puzzle(&view(json)),
        };
        let mut record = Record::new(line, puzzle, None);
        if let Some(Some(json)) = get(&self.solution) {
            match value::solution(&view(json)) {
                Ok(grid) => record.solution = grid,
                Err(why) => record.solution_error = Some(why),
            }
        }
        record.expected = get(&self.status)
            .flatten()
            .and_then(Json::as_str)
            .and_then(|s| s.parse::<Status>().ok());
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
