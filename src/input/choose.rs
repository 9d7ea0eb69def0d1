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
//! never chosen. Of the others, the one with the most values that read as
//! whole puzzles (of any size) and are not complete grids is the puzzle
//! column (of two with as many, the first): one puzzle in a column that is
//! empty elsewhere does not outweigh a column of them. Else it is the
//! first whose values only look like one (a damaged
//! puzzle, a long number); a column of complete grids (of any size and
//! numbering) is chosen only when no other column could hold puzzles
//! instead: when one is empty (or null, or a placeholder of a missing
//! value or a spreadsheet error: [`field::no_data`]) where it is a
//! complete grid, which one holds
//! the puzzles is unclear and the input is refused, naming the columns and
//! `--column`. With no column named as a solution, the first other column
//! of complete grids is the solution column ([`solution_column`]).

use sudoku_core::sizes::{self, Symbols};

use super::field;
use super::sized::{self, SizeOptions};
use super::value::{self, Value};

/// Header names of the puzzle column (case-insensitive).
pub const PUZZLE_NAMES: [&str; 5] = ["puzzle", "quizzes", "quiz", "question", "grid"];
/// Header names of the solution column (case-insensitive).
pub const SOLUTION_NAMES: [&str; 3] = ["solution", "solutions", "answer"];
/// Header name of the expected-status column (case-insensitive).
pub const STATUS_NAME: &str = "status";

/// What a column shows on the records looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Only empty or null values, or placeholders of a missing value: it
    /// may hold puzzles further on.
    Empty,
    /// Something that is no puzzle, or a column never chosen (named as a
    /// solution or a status).
    Other,
    /// A complete grid of any size and numbering: a solution, or a puzzle
    /// with nothing left to solve.
    Complete,
    /// A value that looks like a puzzle but does not read as one: a
    /// damaged puzzle, or a long number (an id of 17 or more digits).
    Looks,
    /// Values that read as whole puzzles of some size and are not
    /// complete grids: how many.
    Puzzle(usize),
}

impl Seen {
    /// What a column shows once another value of it is seen: puzzles
    /// (counted) outweigh what only looks like one, which outweighs a
    /// complete grid, which outweighs anything else, which outweighs
    /// nothing.
    pub fn and(self, next: Seen) -> Seen {
        match (self, next) {
            (Seen::Puzzle(a), Seen::Puzzle(b)) => Seen::Puzzle(a.saturating_add(b)),
            _ if next.weight() > self.weight() => next,
            _ => self,
        }
    }

    /// The rank of what a column shows, for [`Seen::and`].
    fn weight(self) -> u8 {
        match self {
            Seen::Empty => 0,
            Seen::Other => 1,
            Seen::Complete => 2,
            Seen::Looks => 3,
            Seen::Puzzle(_) => 4,
        }
    }
}

/// What a field of text shows (CSV; a JSON or Parquet string, trimmed):
/// whether it looks like a puzzle of any size is judged as a CSV header's
/// fields are ([`field::looks_like_puzzle`], [`field::near_puzzle`],
/// [`sized::could_be_record`]); `sizes` are the options grids of other
/// sizes are read with.
pub fn seen_text(field: &[u8], sizes: &SizeOptions) -> Seen {
    let looks = || {
        field::looks_like_puzzle(field)
            || field::near_puzzle(field)
            || sized::could_be_record(field, sizes)
    };
    if field.is_empty() || field::no_data(field) {
        Seen::Empty
    } else if !looks() {
        Seen::Other
    } else if complete_text(field, sizes) {
        Seen::Complete
    } else if field::puzzle(field).is_some() || sized::is_puzzle(field, sizes) {
        Seen::Puzzle(1)
    } else {
        Seen::Looks
    }
}

/// What a JSON or Parquet value shows (see [`seen_text`]).
pub fn seen_value(value: &Value<'_>, sizes: &SizeOptions) -> Seen {
    match value {
        Value::Null => Seen::Empty,
        Value::Text(t) => seen_text(t.trim_ascii(), sizes),
        _ if !super::parquet::looks_like_puzzle(value) => Seen::Other,
        Value::List(_) if list_numbers(value).is_some_and(|f| complete_text(&f, sizes)) => {
            Seen::Complete
        }
        _ if value::puzzle(value).is_ok_and(|grid| !grid.is_complete())
            || matches!(value::sized(value, None, sizes), Some((Ok(read), _)) if !read.puzzle.is_complete()) =>
        {
            Seen::Puzzle(1)
        }
        _ => Seen::Looks,
    }
}

/// A list of integers, flat or nested, as the field of its numbers
/// separated by commas; `None` when an item is no integer.
fn list_numbers(value: &Value<'_>) -> Option<Vec<u8>> {
    fn flatten(value: &Value<'_>, out: &mut Vec<i64>) -> Option<()> {
        match value {
            Value::Int(v) => out.push(*v),
            Value::List(items) => {
                for item in items {
                    flatten(item, out)?;
                }
            }
            _ => return None,
        }
        Some(())
    }
    let mut values = Vec::new();
    flatten(value, &mut values)?;
    Some(sized::numbers_field(values))
}

/// True for a field that is a complete grid: a 9x9 solution
/// ([`field::solution`]), or a grid of any size with no blank and no
/// repeat in a row, column or box, in the alphabet `sizes` gives or, when
/// it gives none, in the one the field shows or numbered from 0 (a 0-based
/// data set's solution, `3,0,6,...`, holds no `-1` to tell it by).
pub fn complete_text(field: &[u8], sizes: &SizeOptions) -> bool {
    if field::solution(field).is_some() {
        return true;
    }
    if !sized::looks_sized(field) {
        return false;
    }
    let complete = |symbols: Option<&Symbols>| {
        sizes::read(field, symbols, sizes.shape)
            .is_ok_and(|read| read.grid.is_complete() && read.grid.first_conflict().is_none())
    };
    match &sizes.symbols {
        Some(symbols) => complete(Some(symbols)),
        None => complete(None) || complete(Some(&Symbols::ZeroNumbers)),
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

/// The puzzle column by what each column shows (see the module docs):
/// the one of the most puzzles, the first of as many.
pub fn choose(seen: &[Seen]) -> Choice {
    let puzzles = |i: usize| match seen[i] {
        Seen::Puzzle(n) => n,
        _ => 0,
    };
    // `max_by_key` gives the last of equals: the first is wanted.
    if let Some(i) = (0..seen.len())
        .rev()
        .filter(|&i| puzzles(i) > 0)
        .max_by_key(|&i| puzzles(i))
    {
        return Choice::Column(i);
    }
    if let Some(i) = seen.iter().position(|&s| s == Seen::Looks) {
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

/// The solution column by what each column shows, when none is named as
/// one: the first column of complete grids that is not the `puzzle`
/// column, before or after it.
pub fn solution_column(seen: &[Seen], puzzle: usize) -> Option<usize> {
    (0..seen.len()).find(|&i| i != puzzle && seen[i] == Seen::Complete)
}

/// `columns` named by `name` for a message, each quoted: `'a', 'b'`.
pub fn quoted(columns: &[usize], name: impl Fn(usize) -> String) -> String {
    columns
        .iter()
        .map(|&i| format!("'{}'", name(i)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The columns of an unclear choice named for a message: `'target' holds a
/// complete grid, 'board' is empty`.
pub fn describe(complete: &[usize], empty: &[usize], name: impl Fn(usize) -> String) -> String {
    let list = |columns: &[usize]| quoted(columns, &name);
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
        assert_eq!(choose(&[Complete, Other, Puzzle(1)]), Choice::Column(2));
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
        assert_eq!(Complete.and(Puzzle(1)), Puzzle(1));
        let names = ["board", "target"];
        assert_eq!(
            describe(&[1], &[0], |i| names[i].to_string()),
            "'target' holds complete grids, 'board' is empty"
        );
    }

    #[test]
    fn the_column_of_the_most_puzzles_is_chosen_the_first_of_as_many() {
        let folded = |values: &[Seen]| values.iter().fold(Empty, |all, &one| all.and(one));
        // One puzzle in a column empty elsewhere, then a column of them.
        let sparse = folded(&[Empty, Puzzle(1), Empty, Empty]);
        let full = folded(&[Puzzle(1), Puzzle(1), Looks, Puzzle(1)]);
        assert_eq!((sparse, full), (Puzzle(1), Puzzle(3)));
        assert_eq!(choose(&[Other, sparse, full]), Choice::Column(2));
        assert_eq!(choose(&[Puzzle(2), Other, Puzzle(2)]), Choice::Column(0));
        assert_eq!(choose(&[Complete, Puzzle(1), Puzzle(2)]), Choice::Column(2));
    }

    #[test]
    fn a_whole_puzzle_outweighs_what_only_looks_like_one() {
        assert_eq!(choose(&[Looks, Puzzle(1)]), Choice::Column(1));
        assert_eq!(choose(&[Complete, Looks]), Choice::Column(1));
        assert_eq!(Looks.and(Puzzle(1)), Puzzle(1));
        assert_eq!(Complete.and(Looks), Looks);
        assert_eq!(
            solution_column(&[Complete, Puzzle(1), Complete], 1),
            Some(0)
        );
        assert_eq!(solution_column(&[Other, Puzzle(1), Empty], 1), None);
        let sizes = SizeOptions::default();
        let seen = |text: &str| seen_text(text.as_bytes(), &sizes);
        assert_eq!(seen("123456789012345678"), Looks);
        assert_eq!(seen(&"1".repeat(81)), Complete);
    }

    #[test]
    fn placeholders_of_a_missing_value_are_empty() {
        let sizes = SizeOptions::default();
        for missing in [
            "NA", "nan", "None", "null", "NULL", "?", "-", "#N/A", "n/a", "x", "<NA>",
        ] {
            assert_eq!(seen_text(missing.as_bytes(), &sizes), Empty, "{missing}");
            assert_eq!(
                seen_value(&Value::Text(missing.as_bytes()), &sizes),
                Empty,
                "{missing}"
            );
        }
        assert_eq!(seen_text(b"xx", &sizes), Other);
    }

    /// A solution of side `rows * cols` numbered from 0.
    fn from_zero(rows: usize, cols: usize) -> Vec<i64> {
        let n = rows * cols;
        (0..n * n)
            .map(|i| ((cols * (i / n % rows) + i / n / rows + i % n) % n) as i64)
            .collect()
    }

    #[test]
    fn complete_grids_of_any_size_and_numbering_are_complete() {
        let sizes = SizeOptions::default();
        let text = |values: &[i64], alphabet: &[u8]| -> Vec<u8> {
            values.iter().map(|&v| alphabet[v as usize]).collect()
        };
        let four = from_zero(2, 2);
        let sixteen = from_zero(4, 4);
        let nine = from_zero(3, 3);
        let seen = |field: &[u8]| seen_text(field, &sizes);
        assert_eq!(seen(&text(&four, b"1234")), Complete);
        assert_eq!(seen(&text(&sixteen, b"123456789ABCDEFG")), Complete);
        assert_eq!(seen(&sized::numbers_field(nine.clone())), Complete);
        // The same with a blank (a puzzle); a 9x9 of 0 blanks with no 9
        // given, which reads from 0 with repeats, is no complete grid.
        let mut four_blank = text(&four, b"1234");
        four_blank[3] = b'.';
        assert_eq!(seen(&four_blank), Puzzle(1));
        let mut puzzle = nine.clone();
        puzzle[..9].fill(0);
        assert_eq!(seen(&sized::numbers_field(puzzle)), Puzzle(1));
        // Lists, flat and nested, numbered from 0 or from 1.
        let ints = |values: &[i64]| Value::List(values.iter().map(|&v| Value::Int(v)).collect());
        assert_eq!(seen_value(&ints(&nine), &sizes), Complete);
        let nested = Value::List(nine.chunks(9).map(ints).collect());
        assert_eq!(seen_value(&nested, &sizes), Complete);
        let one: Vec<i64> = nine.iter().map(|v| v + 1).collect();
        assert_eq!(seen_value(&ints(&one), &sizes), Complete);
        let mut blank = nine.clone();
        blank[0] = -1;
        assert_eq!(seen_value(&ints(&blank), &sizes), Puzzle(1));
        assert_eq!(seen_value(&ints(&sixteen), &sizes), Complete);
    }
}
