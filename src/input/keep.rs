//! `--keep COL,...` and `--keep-all`: which input columns every record
//! carries through to its results row ([`crate::kept`]), resolved against
//! each input's column names.

use std::path::PathBuf;

use std::sync::Arc;

use super::{Column, InputError, Record};
use crate::kept::{KeptCast, KeptColumn, KeptType, KeptValue};

/// The type each of a run's kept columns is cast to (`--keep-types`), in
/// order; `None` keeps the input's.
pub type KeptTypes = Arc<[Option<KeptCast>]>;

/// Which input columns every record keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// None (the default).
    #[default]
    Nothing,
    /// These, in this order: header names (any case) or 1-based numbers.
    Columns(Vec<Column>),
    /// Every column of the input, in order.
    All,
}

impl Keep {
    /// True when no column is kept.
    pub fn is_nothing(&self) -> bool {
        matches!(self, Keep::Nothing)
    }

    /// The positions (0-based) of the kept columns among `names`, the
    /// input's columns in order.
    ///
    /// # Errors
    /// [`InputError::UnknownColumn`] for a name or number the input lacks.
    pub fn resolve(&self, names: &[String], path: &str) -> Result<Vec<usize>, InputError> {
        match self {
            Keep::Nothing => Ok(Vec::new()),
            Keep::All => Ok((0..names.len()).collect()),
            Keep::Columns(columns) => columns
                .iter()
                .map(|column| {
                    match column {
                        Column::Name(name) => find_name(names, name, path)?,
                        Column::Index(n) => Some(n.saturating_sub(1)).filter(|&i| i < names.len()),
                    }
                    .ok_or_else(|| unknown_in(names, column, path))
                })
                .collect(),
        }
    }

    /// [`Keep::resolve`] against `names` (a header's), a name none of them
    /// is looked for among `numbered` (`field1`, ...: the same columns by
    /// number) too; an unknown one is reported against `names`.
    ///
    /// # Errors
    /// As [`Keep::resolve`].
    pub fn resolve_or_numbered(
        &self,
        names: &[String],
        numbered: &[String],
        path: &str,
    ) -> Result<Vec<usize>, InputError> {
        let Keep::Columns(columns) = self else {
            return self.resolve(names, path);
        };
        let mut at = Vec::with_capacity(columns.len());
        for column in columns {
            let one = Keep::Columns(vec![column.clone()]);
            let found = match one.resolve(names, path) {
                Err(InputError::UnknownColumn { .. }) if names != numbered => one
                    .resolve(numbered, path)
                    .map_err(|_| unknown_in(names, column, path)),
                found => found,
            }?;
            at.extend(found);
        }
        Ok(at)
    }
}

/// The error of `column`, which none of `names` is.
fn unknown_in(names: &[String], column: &Column, path: &str) -> InputError {
    InputError::UnknownColumn {
        path: PathBuf::from(path),
        column: match column {
            Column::Name(name) => name.clone(),
            Column::Index(n) => n.to_string(),
        },
        header: Some(names.join(",")),
    }
}

/// The position of the column `name` among `names`: the one named exactly
/// so, else the one named so ignoring ASCII case; `None` when none is.
///
/// # Errors
/// [`InputError::AmbiguousColumn`] when no name is exact and several match
/// ignoring case (`ID` against `Id` and `id`).
pub fn find_name(names: &[String], name: &str, path: &str) -> Result<Option<usize>, InputError> {
    if let Some(i) = names.iter().position(|n| n == name) {
        return Ok(Some(i));
    }
    let mut alike = names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.eq_ignore_ascii_case(name));
    match (alike.next(), alike.next()) {
        (Some((i, _)), None) => Ok(Some(i)),
        (None, _) => Ok(None),
        (Some((_, first)), Some((_, second))) => Err(InputError::AmbiguousColumn {
            path: PathBuf::from(path),
            column: name.to_string(),
            first: first.clone(),
            second: second.clone(),
        }),
    }
}

/// The names of the fields of a record without a header: `field1`,
/// `field2`, ... for `count` fields, and at least up to the highest number
/// `keep` asks for.
pub fn field_names(count: usize, keep: &Keep) -> Vec<String> {
    let asked = match keep {
        Keep::Columns(columns) => columns
            .iter()
            .filter_map(|c| match c {
                Column::Index(n) => Some(*n),
                Column::Name(_) => None,
            })
            .max()
            .unwrap_or(0),
        _ => 0,
    };
    (1..=count.max(asked))
        .map(|i| format!("field{i}"))
        .collect()
}

/// The kept columns of a run over several inputs, and how each input's
/// own kept columns map to them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeptLayout {
    /// The run's kept columns, in order, each of a type that holds every
    /// input's values ([`crate::kept::unify`]).
    pub columns: Vec<KeptColumn>,
    /// For each input, in order, where each of the run's columns is among
    /// its own; `None` when they are the same.
    pub maps: Vec<Option<Vec<Option<usize>>>>,
}

/// The run's kept columns from each input's own (name and columns, in
/// command-line order). `--keep COL,...` gives every input the same
/// columns, named as the first input names them; `--keep-all` keeps the
/// union of the inputs' columns, by name, in the order first seen (the
/// second column of a name in one input is the second of that name in
/// another); an input without one of them keeps null there.
///
/// # Errors
/// [`InputError::KeptNumberDiffers`] when a column kept by number has
/// another name in another input: its values would not be of one column.
pub fn layout(keep: &Keep, inputs: &[(&str, Vec<KeptColumn>)]) -> Result<KeptLayout, InputError> {
    let Some((first_name, first)) = inputs.first() else {
        return Ok(KeptLayout::default());
    };
    match keep {
        Keep::Nothing => Ok(KeptLayout {
            columns: Vec::new(),
            maps: vec![None; inputs.len()],
        }),
        Keep::Columns(asked) => {
            let mut columns = first.clone();
            for (path, own) in &inputs[1..] {
                for (j, (column, mine)) in columns.iter_mut().zip(own).enumerate() {
                    if let (Some(Column::Index(n)), false) =
                        (asked.get(j), column.name == mine.name)
                    {
                        return Err(InputError::KeptNumberDiffers {
                            number: *n,
                            first_path: PathBuf::from(first_name),
                            first: column.name.clone(),
                            path: PathBuf::from(path),
                            name: mine.name.clone(),
                        });
                    }
                    column.data_type = crate::kept::unify(&column.data_type, &mine.data_type);
                }
            }
            Ok(KeptLayout {
                columns,
                maps: vec![None; inputs.len()],
            })
        }
        Keep::All => {
            // Each column by its name and how many of that name come
            // before it in its input.
            let keyed = |own: &[KeptColumn]| -> Vec<(String, usize)> {
                own.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let before = own[..i].iter().filter(|o| o.name == c.name).count();
                        (c.name.clone(), before)
                    })
                    .collect()
            };
            let mut columns: Vec<KeptColumn> = Vec::new();
            let mut keys: Vec<(String, usize)> = Vec::new();
            for (_, own) in inputs {
                for (key, column) in keyed(own).into_iter().zip(own) {
                    match keys.iter().position(|k| *k == key) {
                        Some(j) => {
                            columns[j].data_type =
                                crate::kept::unify(&columns[j].data_type, &column.data_type);
                        }
                        None => {
                            keys.push(key);
                            columns.push(column.clone());
                        }
                    }
                }
            }
            let maps = inputs
                .iter()
                .map(|(_, own)| {
                    let mine = keyed(own);
                    let map: Vec<Option<usize>> = keys
                        .iter()
                        .map(|k| mine.iter().position(|m| m == k))
                        .collect();
                    let same = map.len() == own.len()
                        && map.iter().enumerate().all(|(j, at)| *at == Some(j));
                    (!same).then_some(map)
                })
                .collect();
            Ok(KeptLayout { columns, maps })
        }
    }
}

/// The run's kept `columns` with the types of `casts` (`--keep-types`),
/// each found by name as `--keep` finds one (an exact name first, else
/// the one alike but for case): their Arrow types set, and the cast of
/// each column, which `cast` applies to every record.
///
/// # Errors
/// A cast naming no kept column, or two alike but for case.
pub fn kept_types(casts: &[KeptCast], columns: &mut [KeptColumn]) -> Result<KeptTypes, String> {
    let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
    let mut types: Vec<Option<KeptCast>> = vec![None; columns.len()];
    for cast in casts {
        let at = find_name(&names, &cast.column, "--keep-types")
            .map_err(|e| e.to_string())?
            .ok_or_else(|| {
                format!(
                    "--keep-types {}={}: no kept column is named {:?} (kept: {}); \
                     keep it with --keep or --keep-all",
                    cast.column,
                    cast.to,
                    cast.column,
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            })?;
        columns[at].data_type = cast.to.data_type();
        types[at] = Some(KeptCast {
            column: names[at].clone(),
            to: cast.to,
        });
    }
    Ok(types.into())
}

/// Casts `record`'s kept values (the run's columns) by `types`: a value
/// that does not parse is null, and the record is `malformed`, its
/// message naming each such column, value and type (`rating: "7.5" is
/// not an int64 (--keep-types)`) after the reader's own message, if any.
pub fn cast(types: &[Option<KeptCast>], record: &mut Record) {
    let mut refused = Vec::new();
    for (value, cast) in record.kept.iter_mut().zip(types) {
        let Some(cast) = cast else { continue };
        match cast.to.cast(std::mem::take(value)) {
            Ok(typed) => *value = typed,
            Err(why) => refused.push(format!("{}: {why} (--keep-types)", cast.column)),
        }
    }
    if refused.is_empty() {
        return;
    }
    let why = refused.join("; ");
    record.puzzle = Err(match (&record.puzzle, &record.sized) {
        (Err(first), None) => format!("{first}; {why}"),
        _ => why,
    });
    record.sized = None;
    record.solution = None;
    record.solution_error = None;
}

/// Whether each `--keep-types` cast fits any value of its column: fed the
/// records of a run's inputs (before the casts), it finds a cast
/// that refuses every value it is given. Such a cast would make every
/// record `malformed`, so the run is refused instead ([`KeptFit::unfit`]);
/// one value that fits is enough to go on, and null values (empty fields
/// for a number type) neither fit nor refuse.
#[derive(Debug)]
pub struct KeptFit {
    types: KeptTypes,
    columns: Vec<Fit>,
}

/// What one kept column's cast made of the values read so far.
#[derive(Clone, Debug, Default)]
struct Fit {
    /// A value was cast (not null).
    fits: bool,
    /// Values refused.
    refused: u64,
    /// The first refused: the input, its line, the value and why.
    first: Option<(String, u64, KeptValue, String)>,
}

impl KeptFit {
    /// A tracker of the casts of `types` (see [`kept_types`]).
    pub fn new(types: KeptTypes) -> KeptFit {
        let columns = vec![Fit::default(); types.len()];
        KeptFit { types, columns }
    }

    /// Casts `record`'s kept values (of the run's columns) from `input`;
    /// true once every cast has fitted a value, when reading on can change
    /// nothing.
    pub fn record(&mut self, input: &str, record: &Record) -> bool {
        for ((value, cast), fit) in record.kept.iter().zip(&*self.types).zip(&mut self.columns) {
            let Some(cast) = cast else { continue };
            if fit.fits {
                continue;
            }
            match cast.to.cast(value.clone()) {
                Ok(typed) => fit.fits = !typed.is_null(),
                Err(why) => {
                    fit.refused += 1;
                    fit.first.get_or_insert_with(|| {
                        (input.to_string(), record.line, value.clone(), why)
                    });
                }
            }
        }
        self.columns
            .iter()
            .zip(&*self.types)
            .all(|(fit, cast)| cast.is_none() || fit.fits)
    }

    /// Why a cast fits no value read: the first such column, its count of
    /// refused values and the first of them, and the type that reads it
    /// when another does.
    pub fn unfit(&self) -> Option<String> {
        self.columns
            .iter()
            .zip(&*self.types)
            .find_map(|(fit, cast)| {
                let cast = cast.as_ref()?;
                let (input, line, value, why) = fit.first.as_ref().filter(|_| !fit.fits)?;
                let reads = [KeptType::Int64, KeptType::Float64]
                    .into_iter()
                    .find(|to| to.cast(value.clone()).is_ok())
                    .unwrap_or(KeptType::String);
                let refused = match fit.refused {
                    1 => "its one value read is refused".to_string(),
                    n => format!("each of the {n} values read is refused, the first"),
                };
                Some(format!(
                "--keep-types {}={} fits no value of {:?}: {refused} on line {line} of {input} \
                 ({why}); leave it out, or give the column's type ({reads} reads that value)",
                cast.column, cast.to, cast.column
            ))
            })
    }
}

/// Text columns of these names.
pub fn text_columns(names: &[String], at: &[usize]) -> Vec<KeptColumn> {
    at.iter().map(|&i| KeptColumn::text(&names[i])).collect()
}

/// A text field's kept value: its text, or its bytes as they are when
/// they are not UTF-8 (CSV results copy them exactly).
pub fn text(field: &[u8]) -> KeptValue {
    match std::str::from_utf8(field) {
        Ok(text) => KeptValue::Text(text.to_owned()),
        Err(_) => KeptValue::NotUtf8(field.to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cast_fits_once_one_value_parses_and_nulls_count_for_nothing() {
        let cast = |column: &str, to| {
            Some(KeptCast {
                column: column.into(),
                to,
            })
        };
        let types: KeptTypes = vec![cast("rating", KeptType::Int64), None].into();
        let record = |line, kept: Vec<KeptValue>| Record {
            kept,
            ..Record::new(line, Err("unread".into()), None)
        };
        let text = |t: &str| KeptValue::Text(t.into());
        let mut fit = KeptFit::new(types.clone());
        assert!(!fit.record("a.csv", &record(2, vec![text("7.5"), text("x")])));
        assert!(!fit.record("a.csv", &record(3, vec![text(""), text("y")])));
        assert_eq!(
            fit.unfit().as_deref(),
            Some(
                "--keep-types rating=int64 fits no value of \"rating\": its one value read is \
                 refused on line 2 of a.csv (\"7.5\" is not an int64); leave it out, or give the \
                 column's type (float64 reads that value)"
            )
        );
        assert!(fit.record("b.csv", &record(2, vec![text(" 7 "), KeptValue::Null])));
        assert_eq!(fit.unfit(), None);
        // Nulls alone neither fit nor refuse; text refused by both numbers
        // is read as a string.
        let mut fit = KeptFit::new(types);
        assert!(!fit.record("a.csv", &record(2, vec![KeptValue::Null, text("x")])));
        assert_eq!(fit.unfit(), None);
        fit.record("a.csv", &record(3, vec![text("n/a"), text("x")]));
        assert!(fit.unfit().unwrap().ends_with("(string reads that value)"));
    }

    #[test]
    fn names_numbers_and_all() {
        let names: Vec<String> = ["id", "Puzzle", "rating"].map(String::from).into();
        let keep = Keep::Columns(vec![Column::Name("RATING".into()), Column::Index(1)]);
        assert_eq!(keep.resolve(&names, "a.csv").unwrap(), vec![2, 0]);
        assert_eq!(Keep::All.resolve(&names, "a.csv").unwrap(), vec![0, 1, 2]);
        let err = Keep::Columns(vec![Column::Index(4)])
            .resolve(&names, "a.csv")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "a.csv: no column named '4' (the header is id,Puzzle,rating)"
        );
        assert_eq!(
            field_names(2, &Keep::Columns(vec![Column::Index(3)])),
            ["field1", "field2", "field3"]
        );
    }

    #[test]
    fn keep_all_over_inputs_keeps_every_column_once_by_name() {
        use arrow_schema::DataType;
        let typed = |name: &str, data_type| KeptColumn {
            name: name.into(),
            data_type,
        };
        let a = vec![
            typed("puzzle", DataType::Utf8),
            typed("id", DataType::Int64),
        ];
        let b = vec![
            KeptColumn::text("id"),
            KeptColumn::text("x"),
            KeptColumn::text("puzzle"),
        ];
        let got = layout(&Keep::All, &[("a.parquet", a.clone()), ("b.csv", b)]).unwrap();
        let names: Vec<&str> = got.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["puzzle", "id", "x"]);
        assert_eq!(got.columns[1].data_type, DataType::Utf8);
        assert_eq!(got.maps[0], Some(vec![Some(0), Some(1), None]));
        assert_eq!(got.maps[1], Some(vec![Some(2), Some(0), Some(1)]));
        let same = layout(&Keep::All, &[("a", a.clone()), ("b", a)]).unwrap();
        assert_eq!(same.maps, [None, None]);
        let err = layout(
            &Keep::Columns(vec![Column::Index(1)]),
            &[
                ("a", vec![KeptColumn::text("id")]),
                ("b", vec![KeptColumn::text("x")]),
            ],
        )
        .unwrap_err();
        assert!(matches!(err, InputError::KeptNumberDiffers { .. }), "{err}");
    }

    #[test]
    fn an_exact_name_comes_before_one_alike_in_case_and_two_alike_are_refused() {
        let names: Vec<String> = ["ID", "puzzle", "id", "Id"].map(String::from).into();
        let keep = |name: &str| Keep::Columns(vec![Column::Name(name.into())]);
        assert_eq!(keep("id").resolve(&names, "a.csv").unwrap(), vec![2]);
        assert_eq!(keep("Id").resolve(&names, "a.csv").unwrap(), vec![3]);
        assert_eq!(keep("PUZZLE").resolve(&names, "a.csv").unwrap(), vec![1]);
        let err = keep("iD").resolve(&names, "a.csv").unwrap_err();
        assert!(matches!(err, InputError::AmbiguousColumn { .. }), "{err}");
    }

    #[test]
    fn a_field_that_is_not_utf8_is_kept_as_its_bytes() {
        assert_eq!(text(b"caf\xc3\xa9"), KeptValue::Text("caf\u{e9}".into()));
        assert_eq!(text(b"caf\xe9"), KeptValue::NotUtf8(b"caf\xe9".to_vec()));
    }
}
