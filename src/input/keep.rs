//! `--keep COL,...` and `--keep-all`: which input columns every record
//! carries through to its results row ([`crate::kept`]), resolved against
//! each input's column names.

use std::path::PathBuf;

use super::{Column, InputError};
use crate::kept::{KeptColumn, KeptType, KeptValue};

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
        let unknown = |column: String| InputError::UnknownColumn {
            path: PathBuf::from(path),
            column,
            header: Some(names.join(",")),
        };
        match self {
            Keep::Nothing => Ok(Vec::new()),
            Keep::All => Ok((0..names.len()).collect()),
            Keep::Columns(columns) => columns
                .iter()
                .map(|column| match column {
                    Column::Name(name) => names
                        .iter()
                        .position(|n| n.eq_ignore_ascii_case(name))
                        .ok_or_else(|| unknown(name.clone())),
                    Column::Index(n) => Some(n.saturating_sub(1))
                        .filter(|&i| i < names.len())
                        .ok_or_else(|| unknown(n.to_string())),
                })
                .collect(),
        }
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

/// Text columns of these names.
pub fn text_columns(names: &[String], at: &[usize]) -> Vec<KeptColumn> {
    at.iter()
        .map(|&i| KeptColumn {
            name: names[i].clone(),
            kind: KeptType::Text,
        })
        .collect()
}

/// A text field's kept value (invalid UTF-8 replaced).
pub fn text(field: &[u8]) -> KeptValue {
    KeptValue::Text(String::from_utf8_lossy(field).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
