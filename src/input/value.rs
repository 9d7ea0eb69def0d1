//! Puzzle values of typed inputs (Parquet, JSON Lines): a string of 81
//! cells, a list of 81 integers or a list of 9 lists of 9 integers (0 for a
//! blank). Both readers describe a value as a [`Value`] and share these
//! rules and messages.

use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::sizes::{self, Symbols};

use super::field;
use super::sized::{self, SizeOptions, SizedRecord};

/// The shape of one typed value, as far as a puzzle needs it.
#[derive(Clone)]
pub enum Value<'a> {
    /// Null, or a missing key.
    Null,
    /// Text or bytes.
    Text(&'a [u8]),
    /// A whole number.
    Int(i64),
    /// Anything else, described for a message (`a float (3.5)`, `an object`).
    Other(String),
    /// A list: its items, each described the same way.
    List(Vec<Value<'a>>),
}

impl Value<'_> {
    /// What the value is, for a message: `null`, `a string of 80
    /// characters`, `a list of 80 values`, `an integer (17)`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Text(t) => format!("a string of {} characters", t.len()),
            Value::Int(v) => format!("an integer ({v})"),
            Value::Other(what) => what.clone(),
            Value::List(items) => format!("a list of {} values", items.len()),
        }
    }
}

/// The 9x9 puzzle a value holds, as [`puzzle`] reads it, unless its
/// input numbers 9x9 grids from 0 ([`SizeOptions::numbering`]): a 9x9 list
/// is then no puzzle numbered from 1 (`Err`), and [`sized`] reads it from
/// 0, a complete grid that gives no `-1` blank to show it included.
pub fn puzzle_in(value: &Value<'_>, options: &SizeOptions) -> Result<Grid, String> {
    let from_zero = options.symbols.is_none() && options.numbering.from_zero(9);
    match puzzle(value) {
        Ok(_) if from_zero && matches!(value, Value::List(_)) => {
            Err("a 9x9 list numbered from 0".into())
        }
        read => read,
    }
}

/// The puzzle a value holds, or why it holds none: the field parser's
/// message for a string, `item 5 is 12, expected 0-9` for a list, else
/// `found <what>, expected 81 cells or 9 lists of 9`.
pub fn puzzle(value: &Value<'_>) -> Result<Grid, String> {
    match value {
        Value::Text(t) => {
            let t = t.trim_ascii();
            field::puzzle(t).ok_or_else(|| field::error(t))
        }
        Value::List(items) if items.len() == CELLS => cells(items.iter(), 9),
        Value::List(rows)
            if rows.len() == 9
                && rows
                    .iter()
                    .all(|r| matches!(r, Value::List(row) if row.len() == 9)) =>
        {
            let flat = rows.iter().flat_map(|r| match r {
                Value::List(row) => row.iter(),
                _ => [].iter(),
            });
            cells(flat, 9)
        }
        other => Err(format!(
            "found {}, expected 81 cells or 9 lists of 9",
            other.describe()
        )),
    }
}

/// The given solution a value holds: `Ok(None)` for null, an empty
/// string or a placeholder of a missing value ([`field::missing`]), else
/// the grid or why it is not a complete one.
pub fn solution(value: &Value<'_>) -> Result<Option<Grid>, String> {
    match value {
        Value::Null => Ok(None),
        Value::Text(t) if t.trim_ascii().is_empty() || field::missing(t.trim_ascii()) => Ok(None),
        Value::Text(t) => {
            let t = t.trim_ascii();
            field::solution(t)
                .map(Some)
                .ok_or_else(|| field::not_a_solution(t))
        }
        other => match puzzle(other) {
            Ok(grid) if grid.is_complete() => Ok(Some(grid)),
            Ok(_) => Err("given solution is not a grid: it has blanks".into()),
            Err(why) => Err(format!("given solution is not a grid: {why}")),
        },
    }
}

/// How a list grid numbers its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Numbering {
    /// From 1, `0` blank.
    One,
    /// From 0, `-1` blank (0-based data sets: 16x16 as 0-15), as
    /// `--symbols numbers0` reads text.
    Zero,
}

impl Numbering {
    /// The numbering of a list grid of `side` with `items`
    /// ([`sized::numbered_from_zero`]; an item that is no integer is no
    /// cell value from 0 either).
    ///
    /// # Errors
    /// The message of a list numbered from 0 by what it holds (a `-1`
    /// blank) whose input numbers its grids of `side` from 1
    /// ([`sized::Numbering`]).
    fn of(items: &[&Value<'_>], side: usize, options: &SizeOptions) -> Result<Numbering, String> {
        let ints: Option<Vec<i64>> = items
            .iter()
            .map(|v| match v {
                Value::Int(x) => Some(*x),
                _ => None,
            })
            .collect();
        let zero = match &ints {
            Some(ints) => sized::numbered_from_zero(ints, side, options),
            None => options.symbols == Some(Symbols::ZeroNumbers),
        };
        if zero {
            return Ok(Numbering::Zero);
        }
        match &ints {
            Some(ints) if options.symbols.is_none() && sized::from_zero_alone(ints, side) => Err(
                sized::numbered_otherwise(side, &options.numbering, "a list with -1 blanks"),
            ),
            _ => Ok(Numbering::One),
        }
    }

    /// The alphabet the field of these numbers is read in.
    fn symbols(self) -> Symbols {
        match self {
            Numbering::One => Symbols::Numbers,
            Numbering::Zero => Symbols::ZeroNumbers,
        }
    }
}

/// The field a value of a grid of another size than 9x9 holds, as
/// [`sized::read`] reads it: a string that [`sized::looks_sized`], or a
/// list of n * n integers or of n lists of n (0 for a blank; or numbered
/// from 0, -1 blank, see [`Numbering::of`]) as their numbers separated by
/// commas. `None` for any other value (a 9x9 one included, unless it is a
/// list numbered from 0); with the field, the numbering of a list (`None`
/// for a string). A list of that shape with an item that is no cell value
/// is `Some(Err)` naming the item, its place and what is wrong (`item 2
/// (r1c2) is null, expected an integer 0-16`), n lists (9 included) whose
/// first is a list of n with a row that is none names the row (`row 9 is
/// a list of 8 values, expected 9`). `numbering` is the puzzle's,
/// for its solution (which holds no blank to tell it by).
#[allow(clippy::type_complexity)]
fn sized_field(
    value: &Value<'_>,
    options: &SizeOptions,
    numbering: Option<Numbering>,
) -> Option<Result<(Vec<u8>, Option<Numbering>), String>> {
    match value {
        Value::Text(t) => {
            let t = t.trim_ascii();
            sized::looks_sized(t).then(|| Ok((t.to_vec(), None)))
        }
        Value::List(items) => {
            // n lists of n: told by the first row (a 9x9 short of a row
            // is named by its row, as at other sizes).
            let nested = match items.first() {
                Some(Value::List(first)) if first.len() == items.len() => true,
                _ if items.iter().any(|r| matches!(r, Value::List(_))) => return None,
                _ => false,
            };
            let side = if nested {
                items.len()
            } else {
                sizes::side_of(items.len())?
            };
            sizes::side_of(side * side)?;
            let mut flat: Vec<&Value<'_>> = Vec::with_capacity(side * side);
            if nested {
                for (r, row) in items.iter().enumerate() {
                    let Value::List(row) = row else {
                        return Some(Err(format!(
                            "row {} is {}, expected a list of {side} values",
                            r + 1,
                            row.describe()
                        )));
                    };
                    if row.len() != side {
                        return Some(Err(format!(
                            "row {} is a list of {} values, expected {side}",
                            r + 1,
                            row.len()
                        )));
                    }
                    flat.extend(row.iter());
                }
            } else {
                flat.extend(items.iter());
            }
            let numbering = match numbering {
                Some(numbering) => numbering,
                None => match Numbering::of(&flat, side, options) {
                    Ok(numbering) => numbering,
                    Err(why) => return Some(Err(why)),
                },
            };
            // A 9x9 list numbered from 1 is a 9x9 puzzle, with its messages.
            if side == 9 && numbering == Numbering::One {
                return None;
            }
            // A list that only its input's numbering does not fit says so.
            let forced = options.symbols.is_none() && options.numbering.from_zero(side);
            Some(match numbers(&flat, side, numbering) {
                Err(why)
                    if forced
                        && numbering == Numbering::Zero
                        && numbers(&flat, side, Numbering::One).is_ok() =>
                {
                    Err(sized::numbered_otherwise(side, &options.numbering, &why))
                }
                read => read.map(|text| (text, Some(numbering))),
            })
        }
        _ => None,
    }
}

/// The items of a list grid of `side` as [`sized::numbers_field`], or why
/// one item is no cell value (0 blank, 1 to `side`; numbered from 0: -1
/// blank, 0 to `side` - 1).
fn numbers(items: &[&Value<'_>], side: usize, numbering: Numbering) -> Result<Vec<u8>, String> {
    let max = side as i64;
    let (range, expected) = match numbering {
        Numbering::One => (0..=max, format!("0-{max}")),
        Numbering::Zero => (-1..=max - 1, format!("-1 (blank) or 0-{}", max - 1)),
    };
    let mut values = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("item {} (r{}c{})", i + 1, i / side + 1, i % side + 1);
        match item {
            Value::Int(v) if range.contains(v) => values.push(*v),
            Value::Int(v) => return Err(format!("{at} is {v}, expected {expected}")),
            other => {
                return Err(format!(
                    "{at} is {}, expected an integer {expected}",
                    other.describe()
                ))
            }
        }
    }
    Ok(sized::numbers_field(values))
}

/// What a puzzle value of another size than 9x9 (or a 9x9 list numbered
/// from 0) holds, and its solution value's (see [`sized::read`]), for
/// [`crate::input::Record::set_sized`]; `None` when the puzzle value is no
/// such grid. Lists are read as numbers (from 1, or from 0: see
/// [`Numbering::of`]) whatever else `--symbols` says (a list holds
/// numbers).
pub fn sized(
    puzzle: &Value<'_>,
    solution: Option<&Value<'_>>,
    options: &SizeOptions,
) -> Option<(Result<SizedRecord, String>, Option<String>)> {
    let (field, numbering) = match sized_field(puzzle, options, None)? {
        Ok(field) => field,
        Err(why) => return Some((Err(why), None)),
    };
    let (solution, bad_solution) = match solution.and_then(|s| sized_field(s, options, numbering)) {
        Some(Ok((text, _))) => (Some(text), None),
        Some(Err(why)) => (None, Some(format!("given solution is not a grid: {why}"))),
        // A string of no grid's shape is still the given solution, and
        // says why it is none (or is a 9x9 written as 81 characters).
        None => match solution {
            Some(Value::Text(t)) if !t.trim_ascii().is_empty() => {
                (Some(t.trim_ascii().to_vec()), None)
            }
            _ => (None, None),
        },
    };
    let options = match numbering {
        Some(numbering) => SizeOptions {
            symbols: Some(numbering.symbols()),
            shape: options.shape,
            numbering: options.numbering,
        },
        None => options.clone(),
    };
    let (read, why) = sized::read(&field, solution.as_deref(), &options);
    Some((read, why.or(bad_solution)))
}

/// The grid of 81 integer items, each 0 to `max`.
fn cells<'a, 'b: 'a>(items: impl Iterator<Item = &'a Value<'b>>, max: i64) -> Result<Grid, String> {
    let mut out = [0u8; CELLS];
    for (i, (cell, item)) in out.iter_mut().zip(items).enumerate() {
        match item {
            Value::Int(v) if (0..=max).contains(v) => *cell = *v as u8,
            Value::Int(v) => return Err(format!("item {} is {v}, expected 0-{max}", i + 1)),
            other => {
                return Err(format!(
                    "item {} is {}, expected an integer 0-{max}",
                    i + 1,
                    other.describe()
                ))
            }
        }
    }
    Grid::from_cells(out).ok_or_else(|| "a cell above 9".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::input::tests::P;

    fn ints(s: &str) -> Vec<Value<'static>> {
        s.bytes().map(|b| Value::Int(i64::from(b - b'0'))).collect()
    }

    #[test]
    fn strings_flat_and_nested_lists_give_the_same_grid() {
        let want = Grid::parse(P.as_bytes()).unwrap();
        assert_eq!(puzzle(&Value::Text(P.as_bytes())), Ok(want));
        assert_eq!(puzzle(&Value::List(ints(P))), Ok(want));
        let rows = (0..9)
            .map(|r| Value::List(ints(&P[r * 9..r * 9 + 9])))
            .collect();
        assert_eq!(puzzle(&Value::List(rows)), Ok(want));
    }

    #[test]
    fn anything_else_says_what_it_found() {
        let mut list = ints(P);
        list[4] = Value::Int(12);
        assert_eq!(
            puzzle(&Value::List(list)),
            Err("item 5 is 12, expected 0-9".into())
        );
        let mut list = ints(P);
        list[0] = Value::Null;
        assert_eq!(
            puzzle(&Value::List(list)),
            Err("item 1 is null, expected an integer 0-9".into())
        );
        assert_eq!(
            puzzle(&Value::List(ints(&P[..80]))),
            Err("found a list of 80 values, expected 81 cells or 9 lists of 9".into())
        );
        assert!(puzzle(&Value::Int(16400000))
            .unwrap_err()
            .starts_with("found an integer (16400000)"));
        assert!(puzzle(&Value::Null).unwrap_err().starts_with("found null"));
        assert_eq!(
            puzzle(&Value::Text(b"12x")),
            Err("bad character 'x' at position 3".into())
        );
    }

    #[test]
    fn values_of_other_sizes_are_read_as_their_grids() {
        let text = "3.1..2.....2.3.1";
        let options = SizeOptions::default();
        let read =
            |value: &Value<'_>| sized(value, None, &options).map(|(r, _)| r.map(|r| r.puzzle));
        let want = read(&Value::Text(text.as_bytes())).unwrap().unwrap();
        let cells: Vec<Value<'_>> = text
            .bytes()
            .map(|b| Value::Int(if b == b'.' { 0 } else { i64::from(b - b'0') }))
            .collect();
        assert_eq!(read(&Value::List(cells.clone())), Some(Ok(want.clone())));
        let rows = cells
            .chunks(4)
            .map(|row| Value::List(row.to_vec()))
            .collect();
        assert_eq!(read(&Value::List(rows)), Some(Ok(want)));
        assert!(read(&Value::Text(P.as_bytes())).is_none());
        assert!(read(&Value::List(ints(P))).is_none());
        let mut bad = cells;
        bad[0] = Value::Int(5);
        assert_eq!(
            read(&Value::List(bad.clone())),
            Some(Err("item 1 (r1c1) is 5, expected 0-4".into()))
        );
        // A `-1` beside a 4: no reading from 0 fits, so it is no cell value.
        bad[0] = Value::Int(-1);
        bad[1] = Value::Int(4);
        assert_eq!(
            read(&Value::List(bad.clone())),
            Some(Err("item 1 (r1c1) is -1, expected 0-4".into()))
        );
        bad[1] = Value::Int(0);
        bad[6] = Value::Null;
        bad[0] = Value::Int(0);
        assert_eq!(
            read(&Value::List(bad.clone())),
            Some(Err("item 7 (r2c3) is null, expected an integer 0-4".into()))
        );
        let rows: Vec<Value<'_>> = bad.chunks(4).map(|r| Value::List(r.to_vec())).collect();
        assert_eq!(
            read(&Value::List(rows.clone())),
            Some(Err("item 7 (r2c3) is null, expected an integer 0-4".into()))
        );
        let mut short = rows;
        short[3] = Value::List(vec![Value::Int(0); 3]);
        assert_eq!(
            read(&Value::List(short.clone())),
            Some(Err("row 4 is a list of 3 values, expected 4".into()))
        );
        short[3] = Value::Null;
        assert_eq!(
            read(&Value::List(short)),
            Some(Err("row 4 is null, expected a list of 4 values".into()))
        );
    }

    #[test]
    fn a_row_short_of_its_cells_is_named_at_every_side() {
        let options = SizeOptions::default();
        for side in [4, 9, 16] {
            let mut rows: Vec<Value<'_>> = (0..side)
                .map(|_| Value::List(vec![Value::Int(0); side]))
                .collect();
            rows[side - 1] = Value::List(vec![Value::Int(0); side - 1]);
            let read = sized(&Value::List(rows.clone()), None, &options).map(|(r, _)| r);
            let want = format!(
                "row {side} is a list of {} values, expected {side}",
                side - 1
            );
            assert_eq!(read, Some(Err(want)));
            rows[side - 1] = Value::Null;
            let read = sized(&Value::List(rows), None, &options).map(|(r, _)| r);
            let want = format!("row {side} is null, expected a list of {side} values");
            assert_eq!(read, Some(Err(want)));
        }
    }

    #[test]
    fn lists_of_lists_of_every_side() {
        let options = SizeOptions::default();
        for side in [4, 6, 12, 16, 25, 36] {
            let rows = (0..side)
                .map(|_| Value::List(vec![Value::Int(0); side]))
                .collect();
            let read = sized(&Value::List(rows), None, &options)
                .unwrap()
                .0
                .unwrap();
            assert_eq!(read.puzzle.side(), side);
        }
    }

    #[test]
    fn solutions_must_be_complete() {
        assert_eq!(solution(&Value::Null), Ok(None));
        assert_eq!(
            solution(&Value::List(ints(P))),
            Err("given solution is not a grid: it has blanks".into())
        );
        assert!(solution(&Value::Text(&P.as_bytes()[..80]))
            .unwrap_err()
            .contains("80 cells"));
    }
}
