//! Kept text that a results format cannot hold as it is (see
//! [`crate::kept`]): counted per run, and named once on stderr.

use super::format::OutputFormat;
use crate::kept::KeptValue;
use crate::process::words;

/// Where a value is: its input (an index into the run's inputs), its line
/// there, and its kept column (an index into the kept columns).
type Place = (usize, u64, usize);

/// Values of one kind: how many, and the first in input order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Count {
    values: u64,
    first: Option<Place>,
}

impl Count {
    fn add(&mut self, at: Place) {
        self.values += 1;
        if self.first.is_none_or(|first| at < first) {
            self.first = Some(at);
        }
    }

    fn merge(&mut self, other: &Count) {
        self.values += other.values;
        if let Some(at) = other.first {
            if self.first.is_none_or(|first| at < first) {
                self.first = Some(at);
            }
        }
    }
}

/// The kept values of a run that some results format writes changed:
/// text that is not UTF-8 ([`KeptValue::NotUtf8`]: JSON Lines and Parquet
/// write U+FFFD for it) and JSON strings with a lone surrogate escape
/// ([`KeptValue::LoneSurrogate`]: CSV and Parquet write U+FFFD for it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnfitTexts {
    not_utf8: Count,
    lone_surrogates: Count,
}

impl UnfitTexts {
    /// Counts the kept values of one row (of input `input`, line `line`).
    #[inline]
    pub fn add(&mut self, input: usize, line: u64, kept: &[KeptValue]) {
        for (column, value) in kept.iter().enumerate() {
            match value {
                KeptValue::NotUtf8(_) => self.not_utf8.add((input, line, column)),
                KeptValue::LoneSurrogate { .. } => self.lone_surrogates.add((input, line, column)),
                _ => {}
            }
        }
    }

    /// Counts the values at `columns` (indexes into the columns the
    /// warning names) of one row (of input `input`, line `line`) that held
    /// a lone surrogate escape: the fields of JSON Lines results that
    /// `merge` writes to CSV with U+FFFD.
    pub fn add_lone_surrogates(&mut self, input: usize, line: u64, columns: &[usize]) {
        for &column in columns {
            self.lone_surrogates.add((input, line, column));
        }
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &UnfitTexts) {
        self.not_utf8.merge(&other.not_utf8);
        self.lone_surrogates.merge(&other.lone_surrogates);
    }

    /// The values `format` changes, what they hold and the results that
    /// keep them.
    fn changed(&self, format: OutputFormat) -> Option<(Count, &'static str, &'static str)> {
        const BYTES: &str = "bytes that are not UTF-8";
        const SURROGATE: &str = "a lone surrogate escape";
        let bytes = (self.not_utf8, BYTES, "CSV results keep them byte for byte");
        let surrogates = (
            self.lone_surrogates,
            SURROGATE,
            "JSON Lines results keep them as written",
        );
        let changed = match format {
            OutputFormat::Csv => surrogates,
            OutputFormat::Jsonl => bytes,
            OutputFormat::Parquet if self.not_utf8.values > 0 => bytes,
            OutputFormat::Parquet => surrogates,
        };
        (changed.0.values > 0).then_some(changed)
    }

    /// The warning for results in `format` that hold some value changed:
    /// how many, of what, and the first (its column, line and input, named
    /// by `columns` and `inputs`); `None` when none is.
    pub fn warning(
        &self,
        format: OutputFormat,
        inputs: &[String],
        columns: &[String],
    ) -> Option<String> {
        let (count, what, keeps) = self.changed(format)?;
        let (input, line, column) = count.first?;
        let input = inputs.get(input).map_or("the input", String::as_str);
        let column = columns.get(column).map_or("?", String::as_str);
        let also = match format {
            OutputFormat::Parquet
                if self.not_utf8.values > 0 && self.lone_surrogates.values > 0 =>
            {
                format!(
                    " (and {} more a lone surrogate escape)",
                    self.lone_surrogates.values
                )
            }
            _ => String::new(),
        };
        let kind = match format {
            OutputFormat::Csv => "CSV",
            OutputFormat::Jsonl => "JSON Lines",
            OutputFormat::Parquet => "Parquet",
        };
        Some(format!(
            "{} {} {what}{also}, the first in column {column:?} on line {line} of {input}: \
             written with U+FFFD for what {kind} text cannot hold ({keeps})",
            words::count(count.values, "kept value", "kept values"),
            words::noun(count.values, "holds", "hold"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warning_names_the_first_value_and_counts_the_rest() {
        let bytes = || KeptValue::NotUtf8(vec![b'c', 0xE9]);
        let mut later = UnfitTexts::default();
        later.add(0, 9, &[KeptValue::Null, bytes()]);
        let mut first = UnfitTexts::default();
        first.add(0, 3, &[bytes(), KeptValue::Text("a".into())]);
        first.merge(&later);
        let inputs = ["lat.csv".to_string()];
        let columns = ["note".to_string(), "id".to_string()];
        assert_eq!(first.warning(OutputFormat::Csv, &inputs, &columns), None);
        assert_eq!(
            first
                .warning(OutputFormat::Jsonl, &inputs, &columns)
                .unwrap(),
            "2 kept values hold bytes that are not UTF-8, the first in column \"note\" on line 3 \
             of lat.csv: written with U+FFFD for what JSON Lines text cannot hold (CSV results \
             keep them byte for byte)"
        );
        let mut both = first;
        both.add(
            0,
            2,
            &[
                KeptValue::Null,
                KeptValue::LoneSurrogate {
                    json: "\"\\ud800\"".into(),
                    text: "\u{fffd}".into(),
                },
            ],
        );
        assert_eq!(
            both.warning(OutputFormat::Parquet, &inputs, &columns)
                .unwrap(),
            "2 kept values hold bytes that are not UTF-8 (and 1 more a lone surrogate escape), \
             the first in column \"note\" on line 3 of lat.csv: written with U+FFFD for what \
             Parquet text cannot hold (CSV results keep them byte for byte)"
        );
        assert_eq!(
            both.warning(OutputFormat::Csv, &inputs, &columns).unwrap(),
            "1 kept value holds a lone surrogate escape, the first in column \"id\" on line 2 \
             of lat.csv: written with U+FFFD for what CSV text cannot hold (JSON Lines results \
             keep them as written)"
        );
    }
}
