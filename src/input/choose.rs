//! Choosing the puzzle column by what the columns hold, when no name and no
//! `--column` says which it is: the one rule of CSV, JSON Lines and Parquet,
//! applied to what each column shows over the same first records (Parquet's
//! first 1,000 rows; CSV's and JSON Lines' first 1,000 records or 4 MiB,
//! read ahead: `super::ahead`).
//!
//! The names that say which column is which come first ([`PUZZLE_NAMES`],
//! [`SOLUTION_NAMES`], [`STATUS_NAME`]), for every reader.
//!
//! A column named as a solution ([`SOLUTION_NAMES`]) or a status is
//! never chosen. Of the others, the first that holds a value that looks like
//! a puzzle and is not a complete grid is the puzzle column; a column of
//! complete grids is chosen only when no other column could hold puzzles
//! instead: when one is empty (or null) where it is a complete grid, which
//! one holds the puzzles is unclear and the input is refused, naming the
//! columns and `--column`.

use super::value::Value;

/// Header names of the puzzle column (case-insensitive).
pub const PUZZLE_NAMES: [&str; 5] = ["puzzle", "quizzes", "quiz", "question", "grid"];
/// Header names of the solution column (case-insensitive).
pub const SOLUTION_NAMES: [&str; 3] = ["solution", "solutions", "answer"];
/// Header name of the expected-status column (case-insensitive).
pub const STATUS_NAME: &str = "status";

/// What a column shows on the records looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Seen {
    /// Only empty or null values: it may hold puzzles further on.
    Empty,
    /// Something that is no puzzle, or a column never chosen (named as a
    /// solution or a status).
    Other,
    /// A complete grid: a solution, or a puzzle with nothing left to solve.
    Complete,
    /// A value that looks like a puzzle and is not a complete grid.
    Puzzle,
}

impl Seen {
    /// What a column shows once another value of it is seen: a puzzle
    /// outweighs a complete grid, which outweighs anything else, which
    /// outweighs nothing.
    pub fn and(self, next: Seen) -> Seen {
        self.max(next)
    }
}

/// What a field of text shows (CSV): `looks` says whether it looks like a
/// puzzle (of any size), as the reader judges it.
pub fn seen_text(field: &[u8], looks: bool) -> Seen {
    if field.is_empty() {
        Seen::Empty
    } else if !looks {
        Seen::Other
    } else if super::field::solution(field).is_some() {
        Seen::Complete
    } else {
        Seen::Puzzle
    }
}

/// What a JSON or Parquet value shows.
pub fn seen_value(value: &Value<'_>) -> Seen {
    match value {
        Value::Null => Seen::Empty,
        Value::Text(t) if t.trim_ascii().is_empty() => Seen::Empty,
        _ if !super::parquet::looks_like_puzzle(value) => Seen::Other,
        _ => match super::value::solution(value) {
            Ok(Some(_)) => Seen::Complete,
            _ => Seen::Puzzle,
        },
    }
}

/// True for a column name that is never the puzzle column by content: a
/// solution's ([`SOLUTION_NAMES`]) or the status's (any case).
pub fn never_puzzle(name: &str) -> bool {
    SOLUTION_NAMES
        .iter()
        .chain([&STATUS_NAME])
        .any(|n| name.eq_ignore_ascii_case(n))
}

/// The puzzle column chosen from what each column shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The 0-based column.
    Column(usize),
    /// No column looks like it holds puzzles.
    Nothing,
    /// Columns of complete grids (0-based) and others that are empty where
    /// they are complete: any of them may hold the puzzles.
    Unclear {
        /// The columns of complete grids.
        complete: Vec<usize>,
        /// The empty columns.
        empty: Vec<usize>,
    },
}

/// The puzzle column by what each column shows (see the module docs).
pub fn choose(seen: &[Seen]) -> Choice {
    if let Some(i) = seen.iter().position(|&s| s == Seen::Puzzle) {
        return Choice::Column(i);
    }
    let of = |kind: Seen| -> Vec<usize> { (0..seen.len()).filter(|&i| seen[i] == kind).collect() };
    let complete = of(Seen::Complete);
    let empty = of(Seen::Empty);
    match complete.first() {
        None => Choice::Nothing,
        Some(&first) if empty.is_empty() => Choice::Column(first),
        Some(_) => Choice::Unclear { complete, empty },
    }
}

/// The columns of an unclear choice named for a message: `'target' holds a
/// complete grid, 'board' is empty`.
pub fn describe(complete: &[usize], empty: &[usize], name: impl Fn(usize) -> String) -> String {
    let list = |columns: &[usize]| -> String {
        columns
            .iter()
            .map(|&i| format!("'{}'", name(i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let verb = |columns: &[usize], one: &'static str, many: &'static str| {
        if columns.len() == 1 {
            one
        } else {
            many
        }
    };
    format!(
        "{} {} complete grids, {} {} empty",
        list(complete),
        verb(complete, "holds", "hold"),
        list(empty),
        verb(empty, "is", "are")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seen::*;

    #[test]
    fn a_puzzle_outweighs_complete_grids_and_empty_columns_make_it_unclear() {
        assert_eq!(choose(&[Complete, Other, Puzzle]), Choice::Column(2));
        assert_eq!(choose(&[Other, Complete]), Choice::Column(1));
        assert_eq!(choose(&[Other, Empty]), Choice::Nothing);
        assert_eq!(
            choose(&[Empty, Complete]),
            Choice::Unclear {
                complete: vec![1],
                empty: vec![0]
            }
        );
        assert_eq!(Empty.and(Complete).and(Other), Complete);
        assert_eq!(Complete.and(Puzzle), Puzzle);
        let names = ["board", "target"];
        assert_eq!(
            describe(&[1], &[0], |i| names[i].to_string()),
            "'target' holds complete grids, 'board' is empty"
        );
    }
}
