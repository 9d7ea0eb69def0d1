//! `generate --columns`: the columns `generate` writes, chosen and named as
//! the data sets people train on name them.
//!
//! A layout is a name ([`LAYOUTS`]: `default`, `sudoku-extreme`, `kaggle`)
//! or a list of column names, in order, each one of [`NAMES`]. Some names
//! are other names for one value, so that the file has the header another
//! tool expects: `question` and `quizzes` are the puzzle, `answer` and
//! `solutions` the solution (all names `solve` finds by itself, so it reads
//! the file back and checks the solution). `source` says where a row comes
//! from (`generate seed=S index=I`, from which it can be made again) and
//! `rating` is the Sudoku Explainer rating: empty, as no rating is made
//! unless `generate` is asked to rate (`--rating LO-HI`).

use std::fmt;
use std::str::FromStr;

/// A value a `generate` row can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The puzzle's index (`--start` counts from it).
    Index,
    /// The puzzle.
    Puzzle,
    /// Its solution.
    Solution,
    /// How many givens it has.
    Clues,
    /// The guesses `solve` makes on it in unique mode.
    Guesses,
    /// Where it comes from: `generate seed=S index=I`.
    Source,
    /// Its Sudoku Explainer rating (empty when not rated).
    Rating,
}

/// Every column name `--columns` takes, with the value it holds.
pub const NAMES: [(&str, Value); 11] = [
    ("index", Value::Index),
    ("puzzle", Value::Puzzle),
    ("question", Value::Puzzle),
    ("quizzes", Value::Puzzle),
    ("solution", Value::Solution),
    ("answer", Value::Solution),
    ("solutions", Value::Solution),
    ("clues", Value::Clues),
    ("guesses", Value::Guesses),
    ("source", Value::Source),
    ("rating", Value::Rating),
];

/// The named layouts: `default` (what `generate` writes without
/// `--columns`), `sudoku-extreme` (Hugging Face's `sapientinc/sudoku-extreme`)
/// and `kaggle` (Kaggle's "1 million Sudoku games").
pub const LAYOUTS: [(&str, &str); 3] = [
    ("default", "index,puzzle,solution,clues,guesses"),
    ("sudoku-extreme", "source,question,answer,rating"),
    ("kaggle", "quizzes,solutions"),
];

/// The columns of a `generate` table: each name, in order, with its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns(Vec<(&'static str, Value)>);

impl Default for Columns {
    fn default() -> Columns {
        Columns(vec![
            ("index", Value::Index),
            ("puzzle", Value::Puzzle),
            ("solution", Value::Solution),
            ("clues", Value::Clues),
            ("guesses", Value::Guesses),
        ])
    }
}

impl FromStr for Columns {
    type Err = String;

    /// A layout's name, or column names separated by commas (any case).
    ///
    /// # Errors
    /// An unknown name (the message lists the known ones), a name given
    /// twice, or no name.
    fn from_str(text: &str) -> Result<Columns, String> {
        let list = LAYOUTS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(text.trim()))
            .map_or(text, |(_, list)| list);
        let mut columns: Vec<(&'static str, Value)> = Vec::new();
        for name in list.split(',').map(str::trim) {
            let Some(&(known, value)) = NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))
            else {
                let names: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
                let layouts: Vec<&str> = LAYOUTS.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown column {name:?}: the columns are {}, or a layout: {}",
                    names.join(", "),
                    layouts.join(", ")
                ));
            };
            if columns.iter().any(|(n, _)| *n == known) {
                return Err(format!("the column {known} is named twice"));
            }
            columns.push((known, value));
        }
        Ok(Columns(columns))
    }
}

impl fmt::Display for Columns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.header();
        f.write_str(&names.join(","))
    }
}

/// One generated puzzle, as the columns write it.
pub struct Made {
    /// Its index.
    pub index: u64,
    /// The puzzle, as written.
    pub puzzle: String,
    /// The solution, as written.
    pub solution: String,
    /// Its givens.
    pub clues: usize,
    /// The guesses of a unique-mode search.
    pub guesses: u64,
    /// Its rating (`7.2`), when `generate` rated it.
    pub rating: Option<String>,
}

impl Columns {
    /// These columns with a `rating` column last, unless they have one.
    pub fn with_rating(&self) -> Columns {
        let mut columns = self.clone();
        if !columns.0.iter().any(|(_, v)| *v == Value::Rating) {
            columns.0.push(("rating", Value::Rating));
        }
        columns
    }

    /// The header: the names, in order.
    pub fn header(&self) -> Vec<&'static str> {
        self.0.iter().map(|(name, _)| *name).collect()
    }

    /// The row of `made`, from the run of seed `seed`.
    pub fn row(&self, made: &Made, seed: u64) -> Vec<String> {
        self.0
            .iter()
            .map(|(_, value)| match value {
                Value::Index => made.index.to_string(),
                Value::Puzzle => made.puzzle.clone(),
                Value::Solution => made.solution.clone(),
                Value::Clues => made.clues.to_string(),
                Value::Guesses => made.guesses.to_string(),
                Value::Source => format!("generate seed={seed} index={}", made.index),
                Value::Rating => made.rating.clone().unwrap_or_default(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_and_lists_name_the_columns_in_order() {
        let parse = |text: &str| text.parse::<Columns>().map(|c| c.to_string());
        assert_eq!(Ok(Columns::default()), "default".parse());
        assert_eq!(
            parse("sudoku-extreme").unwrap(),
            "source,question,answer,rating"
        );
        assert_eq!(parse("Kaggle").unwrap(), "quizzes,solutions");
        assert_eq!(parse("Question, ANSWER").unwrap(), "question,answer");
        assert!(parse("question,answer,question")
            .unwrap_err()
            .contains("named twice"));
        let unknown = parse("question,difficulty").unwrap_err();
        assert!(
            unknown.starts_with("unknown column \"difficulty\""),
            "{unknown}"
        );
        assert!(unknown.contains("sudoku-extreme"), "{unknown}");
        assert!(parse("").is_err());
    }

    #[test]
    fn a_row_holds_each_columns_value() {
        let made = Made {
            index: 12,
            puzzle: "1.3".into(),
            solution: "123".into(),
            clues: 2,
            guesses: 4,
            rating: None,
        };
        let columns: Columns = "source,question,answer,rating,clues,guesses,index"
            .parse()
            .unwrap();
        assert_eq!(
            columns.row(&made, 7),
            ["generate seed=7 index=12", "1.3", "123", "", "2", "4", "12"]
        );
    }
}
