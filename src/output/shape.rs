//! The results columns: their names ([`COLUMNS`], [`FILE_COLUMN`]), what a
//! table holds besides them and how it writes its puzzles ([`Shape`]: the
//! `file` column, the kept columns and their names, the [`Blank`], the
//! rating columns), and the message text every format writes
//! ([`clean_message`]): the same in every format.

use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::sizes::symbols::BLANKS;
use sudoku_core::sizes::Symbols;

use crate::kept::KeptColumn;
use crate::output::rating::{RatingColumns, APPENDED_COLUMNS, RATE_COLUMNS};
use crate::output::row::write_grid;

/// The results columns, in order.
pub const COLUMNS: [&str; 8] = [
    "line", "puzzle", "status", "solution", "guesses", "solve_us", "check", "message",
];

/// The column put first when a run has several inputs: the input's name.
pub const FILE_COLUMN: &str = "file";

/// Makes a message safe to put in a CSV cell that a spreadsheet may open:
/// every character outside printable ASCII is escaped (`\n`, `\r`, `\t`,
/// `\x1B`, `\u{e9}`), and a message starting with `=`, `+`, `-` or `@` (a
/// formula) gets a `'` in front. Never cut: the tool's own words are the
/// useful part of a message (a rating's hardest technique comes last); the
/// input a message quotes is short by construction (a character, a field's
/// length, a cell), never a whole field.
pub fn clean_message(message: &str) -> String {
    let mut escaped = String::with_capacity(message.len() + 8);
    for ch in message.chars() {
        match ch {
            ' '..='~' => escaped.push(ch),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            '\0'..='\x7f' => escaped.push_str(&format!("\\x{:02X}", ch as u32)),
            _ => escaped.push_str(&format!("\\u{{{:x}}}", ch as u32)),
        }
    }
    if escaped.starts_with(['=', '+', '-', '@']) {
        escaped.insert(0, '\'');
    }
    escaped
}

/// The character written for a blank cell in the `puzzle` column
/// (`--blank`); the `solution` column has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Blank {
    /// `.`, as most puzzle collections write blanks.
    #[default]
    #[cfg_attr(feature = "cli", value(name = "."))]
    Dot,
    /// `0`, as the Kaggle and Hugging Face data sets do.
    #[cfg_attr(feature = "cli", value(name = "0"))]
    Zero,
}

impl Blank {
    /// The blank character for a grid of another size in `symbols`: this
    /// one, unless it is one of the symbols (`0` in `0-9A-Z`, or in a
    /// `--symbols` string; `.` in a string), then the first of `.`, `-`,
    /// `_`, `+` that is not, so that a blank never reads back as a value.
    pub fn byte(self, symbols: &Symbols) -> u8 {
        let wanted = self.nine();
        std::iter::once(wanted)
            .chain(BLANKS.iter().copied())
            .find(|&b| !is_symbol(symbols, b))
            .unwrap_or(wanted)
    }

    /// The blank character of 9x9 grids.
    pub fn nine(self) -> u8 {
        match self {
            Blank::Dot => b'.',
            Blank::Zero => b'0',
        }
    }

    /// The puzzle's 81 characters with this blank.
    pub fn puzzle_bytes(self, puzzle: &Grid) -> [u8; 81] {
        let mut line = [0; CELLS];
        write_grid(puzzle, self.nine(), &mut line);
        line
    }
}

/// True when `byte` is one of `symbols`' characters (either case for a
/// `--symbols` string read in either case).
fn is_symbol(symbols: &Symbols, byte: u8) -> bool {
    match symbols {
        Symbols::ZeroDigitsLetters { .. } | Symbols::ZeroNumbers => byte == b'0',
        Symbols::Chars(chars) => chars.iter().any(|c| c.eq_ignore_ascii_case(&byte)),
        Symbols::DigitsLetters { .. } | Symbols::Letters { .. } | Symbols::Numbers => false,
    }
}

/// What a results table holds besides [`COLUMNS`], and how it writes its
/// puzzles: the same for every format.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Each input's name, in command-line order, when the run has several
    /// inputs: then a [`FILE_COLUMN`] comes first.
    pub files: Option<Vec<String>>,
    /// The kept input columns, after the results columns, in order (their
    /// input names: see [`Shape::kept_names`]).
    pub kept: Vec<KeptColumn>,
    /// The blank of the `puzzle` column.
    pub blank: Blank,
    /// The rating columns (`solve --rate`, `rate`).
    pub rating: RatingColumns,
}

impl Shape {
    /// The results columns without `file` and the kept ones: [`COLUMNS`],
    /// with `rating,hardest` after them for `solve --rate`, or
    /// [`RATE_COLUMNS`] for `rate`.
    pub fn result_columns(&self) -> Vec<&'static str> {
        match self.rating {
            RatingColumns::None => COLUMNS.to_vec(),
            RatingColumns::Appended => COLUMNS.iter().chain(&APPENDED_COLUMNS).copied().collect(),
            RatingColumns::Only => RATE_COLUMNS.to_vec(),
        }
    }

    /// The names of every column, in order: `file` (several inputs), then
    /// [`Shape::result_columns`], then [`Shape::kept_names`].
    pub fn column_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        if self.files.is_some() {
            names.push(FILE_COLUMN.into());
        }
        names.extend(self.result_columns().iter().map(|c| c.to_string()));
        names.extend(self.kept_names());
        names
    }

    /// The output names of the kept columns: each input name, with
    /// `input_` in front (again, until it is unique) when it is a results
    /// column's name (`file` too with several inputs) or an earlier kept
    /// column's.
    pub fn kept_names(&self) -> Vec<String> {
        let mut taken = self.result_columns();
        if self.files.is_some() {
            taken.push(FILE_COLUMN);
        }
        kept_names(&taken, &self.kept)
    }
}

/// The output names of `kept` columns written after a table's `columns`:
/// each input name, with `input_` in front (again, until it is unique) when
/// it is one of `columns` or an earlier kept column's. The rule of every
/// table that keeps input columns: `solve`'s results, `canon`, `augment`.
pub fn kept_names(columns: &[&str], kept: &[KeptColumn]) -> Vec<String> {
    let mut taken: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
    let mut names = Vec::with_capacity(kept.len());
    for column in kept {
        let mut name = column.name.clone();
        while taken.contains(&name) {
            name.insert_str(0, "input_");
        }
        taken.push(name.clone());
        names.push(name);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::tests::kept;

    #[test]
    fn blanks_of_other_sizes_are_never_symbols() {
        let letters = Symbols::DigitsLetters { lower: false };
        let hex = Symbols::ZeroDigitsLetters { lower: false };
        assert_eq!(Blank::Zero.byte(&letters), b'0');
        assert_eq!(Blank::Dot.byte(&letters), b'.');
        assert_eq!(Blank::Zero.byte(&Symbols::Numbers), b'0');
        assert_eq!(Blank::Zero.byte(&hex), b'.');
        // `0` last in a --symbols string is a symbol too, not only first.
        assert_eq!(Blank::Zero.byte(&Symbols::Chars(b"1230".to_vec())), b'.');
        assert_eq!(Blank::Dot.byte(&Symbols::Chars(b"ab.c".to_vec())), b'-');
        assert_eq!(Blank::Zero.byte(&Symbols::Chars(b"0.-c".to_vec())), b'_');
        assert_eq!(Blank::Zero.byte(&Symbols::Chars(b"ABCD".to_vec())), b'0');
    }

    #[test]
    fn messages_are_escaped_whole_and_never_formulas() {
        assert_eq!(
            clean_message("bad character 'a' at position 82"),
            "bad character 'a' at position 82"
        );
        assert_eq!(clean_message("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        for lead in ["+1", "-1", "@SUM(A1)"] {
            assert!(clean_message(lead).starts_with('\''), "{lead}");
        }
        assert_eq!(
            clean_message("a\tb\r\n\x1b\u{e9}"),
            "a\\tb\\r\\n\\x1B\\u{e9}"
        );
        assert_eq!(clean_message("\t=1"), "\\t=1");
        let long = format!("not rated: {}hardest so far 9.0 Nishio", "x".repeat(500));
        assert_eq!(clean_message(&long), long);
    }

    #[test]
    fn kept_names_get_input_in_front_on_a_clash() {
        let shape = Shape {
            kept: kept(&["source", "status", "file", "input_status", "source"]),
            ..Shape::default()
        };
        assert_eq!(
            shape.kept_names(),
            [
                "source",
                "input_status",
                "file",
                "input_input_status",
                "input_source"
            ]
        );
        let several = Shape {
            files: Some(vec!["a".into(), "b".into()]),
            ..shape
        };
        assert_eq!(several.kept_names()[2], "input_file");
        assert_eq!(several.column_names().len(), 1 + COLUMNS.len() + 5);
    }
}
