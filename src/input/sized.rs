//! Records of grids other than 9x9 (4x4 to 64x64): told apart from 9x9
//! records, read in their alphabet (`--symbols`, or found from what they
//! hold) with their boxes (`--box`, or the usual ones), through
//! [`sudoku_core::sizes`].
//!
//! A field of n * n characters (16, 36, 64, 100, 144, 256, 625, ... but not
//! 81) or of values separated by commas or whitespace is such a record;
//! every 9x9 field keeps the 9x9 readers (so 9x9 records are read and
//! reported exactly as before).

use sudoku_core::grid::Grid;
use sudoku_core::sizes::{self, Shape, SizedGrid, Symbols, SymbolsError};

use super::{field, Record};

/// How records of other sizes are read: `--symbols` and `--box`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SizeOptions {
    /// The alphabet every such record is written in; `None`: found per
    /// record ([`sizes::read`]).
    pub symbols: Option<Symbols>,
    /// The boxes of records of its side; records of another side take
    /// their usual boxes.
    pub shape: Option<Shape>,
    /// How the input numbers its grids, by side, chosen from its first
    /// records when `symbols` is `None` ([`Numbering::of`]); nothing
    /// chosen: each record by what it holds.
    pub numbering: Numbering,
}

/// How one input numbers the cells of its grids written as numbers or
/// characters (from 0, as 0-based data sets write them, or from 1), chosen
/// for the whole input from its first records, before any record is
/// parsed on the workers: each record alone would read a puzzle from 0
/// that gives no `0` (`.` blanks and the values 1-8) as numbered from 1,
/// so one input (pandas' array numbered from 0) would get two numberings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbering {
    /// Bit n set: n x n grids are numbered from 0.
    pub from_zero: u128,
    /// Bit n set: n x n grids are numbered from 1.
    pub from_one: u128,
    /// By side: the records of that side the numbering was chosen on, for
    /// the message of a record it does not read ([`numbered_otherwise`]).
    looked: [Looked; SIDES],
}

/// The sides a [`Numbering`] keeps what it was chosen on for: 0 to
/// [`sizes::MAX_SIDE`].
const SIDES: usize = sizes::MAX_SIDE + 1;

/// What the records of one side looked at said of its numbering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Looked {
    /// The records of that side read (in either numbering).
    records: u32,
    /// Those that read only from 0.
    only_zero: u32,
    /// Those that read only from 1.
    only_one: u32,
    /// Whether any read alone is numbered from 0.
    alone_zero: bool,
}

impl Default for Numbering {
    fn default() -> Numbering {
        Numbering {
            from_zero: 0,
            from_one: 0,
            looked: [Looked::default(); SIDES],
        }
    }
}

impl Numbering {
    /// The three readings of a record looked at, in the order [`Vote::of`]
    /// takes them: alone (by what it holds), every side from 0, every side
    /// from 1.
    pub const READINGS: [Numbering; 3] = [
        Numbering::every(0, 0),
        Numbering::every(u128::MAX, 0),
        Numbering::every(0, u128::MAX),
    ];

    /// The numbering of the sides of `from_zero` from 0 and of `from_one`
    /// from 1 (bit n for n x n), chosen on no record.
    const fn every(from_zero: u128, from_one: u128) -> Numbering {
        Numbering {
            from_zero,
            from_one,
            looked: [Looked {
                records: 0,
                only_zero: 0,
                only_one: 0,
                alone_zero: false,
            }; SIDES],
        }
    }

    /// The numbering of an input whose first records cast `votes`
    /// ([`Vote::of`]): for each side, the one most of its records need. A
    /// record that reads only from 0 (`-1` blanks in a list, a `0` given
    /// among other blanks) counts for 0, one that reads only from 1 (a `9`
    /// in a 9x9) for 1; one that reads either way (no `0` given and no
    /// value as high as its side, or an 81-character 9x9, which no
    /// numbering changes) for neither. Ties (no record either way
    /// included) are read from 0 when any record alone is numbered from 0,
    /// else from 1. A side no record had is left to each record.
    pub fn of(votes: impl IntoIterator<Item = Vote>) -> Numbering {
        let mut numbering = Numbering::default();
        for vote in votes {
            let Some(looked) = numbering.looked.get_mut(vote.side) else {
                continue;
            };
            looked.records += 1;
            looked.only_zero += u32::from(vote.from_zero && !vote.from_one);
            looked.only_one += u32::from(vote.from_one && !vote.from_zero);
            looked.alone_zero |= vote.alone_zero;
        }
        for (side, looked) in numbering.looked.iter().enumerate() {
            if looked.records == 0 {
                continue;
            }
            let zero = match looked.only_zero.cmp(&looked.only_one) {
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Equal => looked.alone_zero,
            };
            if zero {
                numbering.from_zero |= 1 << side;
            } else {
                numbering.from_one |= 1 << side;
            }
        }
        numbering
    }

    /// True when the input's grids of `side` are numbered from 0.
    pub fn from_zero(self, side: usize) -> bool {
        side < 128 && self.from_zero & (1 << side) != 0
    }

    /// True when the input's grids of `side` are numbered from 1.
    pub fn from_one(self, side: usize) -> bool {
        side < 128 && self.from_one & (1 << side) != 0
    }

    /// Where the numbering of `side` was chosen, as the message of a
    /// record it does not read says it: `first 9x9 records are numbered
    /// from 0 (all 1000)`, `most of ...`, or `half of ... (a tie is read
    /// from 0)`; without the counts for a numbering chosen on no record.
    fn chosen(&self, side: usize) -> String {
        let input = if self.from_zero(side) { 0 } else { 1 };
        let chosen = format!("first {side}x{side} records are numbered from {input}");
        let Some(looked) = self.looked.get(side).filter(|l| l.records > 0) else {
            return format!("this input's {chosen}");
        };
        let against = if input == 0 {
            looked.only_one
        } else {
            looked.only_zero
        };
        let (records, fit) = (looked.records, looked.records - against);
        if fit == records {
            format!("this input's {chosen} (all {records})")
        } else if fit * 2 > records {
            format!("most of this input's {chosen} ({fit} of {records})")
        } else {
            format!(
                "half of this input's {chosen} ({fit} of {records}; a tie is read from {input})"
            )
        }
    }
}

/// The side of a record read as a grid; `None` for a `malformed` one.
fn side_of(record: &Record) -> Option<usize> {
    match (&record.sized, &record.puzzle) {
        (Some(sized), _) => Some(sized.puzzle.side()),
        (None, Ok(_)) => Some(9),
        (None, Err(_)) => None,
    }
}

/// What one record looked at says of the numbering of its side
/// ([`Numbering::of`]): whether it reads from 0, from 1, and alone from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vote {
    /// The side of its grid.
    side: usize,
    /// It reads as a grid when its side is numbered from 0.
    from_zero: bool,
    /// It reads as a grid when its side is numbered from 1.
    from_one: bool,
    /// Read alone, by what it holds, it is numbered from 0.
    alone_zero: bool,
}

impl Vote {
    /// The vote of a record read in the three [`Numbering::READINGS`]
    /// (alone, from 0, from 1); `None` for one that reads in none of them
    /// (a `malformed` record counts for no side).
    pub fn of(readings: [Record; 3]) -> Option<Vote> {
        let [alone, from_zero, from_one] = readings;
        let side = [&alone, &from_zero, &from_one]
            .into_iter()
            .find_map(side_of)?;
        Some(Vote {
            side,
            from_zero: side_of(&from_zero).is_some(),
            from_one: side_of(&from_one).is_some(),
            alone_zero: alone.sized.as_ref().is_some_and(|sized| {
                matches!(
                    sized.symbols,
                    Symbols::ZeroNumbers | Symbols::ZeroDigitsLetters { .. }
                )
            }),
        })
    }
}

/// A record's grid of another size, with its alphabet and a solution the
/// input gives (read in the same alphabet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizedRecord {
    /// The puzzle.
    pub puzzle: SizedGrid,
    /// The alphabet it is written in; results write it back in the same.
    pub symbols: Symbols,
    /// A complete solution the input gives.
    pub solution: Option<SizedGrid>,
}

impl SizeOptions {
    /// The boxes `--box` gives 9x9 records when they are not the usual 3x3
    /// ones (`--box 1x9`, `9x1`): such records are then solved as grids of
    /// another shape ([`with_boxes`]), never with 3x3 boxes.
    pub fn nine_boxes(&self) -> Option<Shape> {
        self.shape.filter(|s| s.side() == 9 && s.box_rows() != 3)
    }

    /// Why `--box` or `--symbols` fits none of a run's records, when it
    /// does not: `sides` has bit n set for each side n of the records read
    /// as grids, out of `records` (malformed ones included). `--box RxC`
    /// fits records of side R*C; `--symbols` fits records of other sizes
    /// than 9x9 (read in it) and 9x9 records only when its first nine
    /// symbols are the digits `1`-`9` the 9x9 reader takes. The caller
    /// refuses the run with this message rather than ignore the option.
    pub fn unfit(&self, sides: u128, records: u64) -> Option<String> {
        if records == 0 {
            return None;
        }
        let read = describe_sides(sides, records);
        if let Some(shape) = self.shape {
            let side = shape.side();
            if sides & (1 << side) == 0 {
                return Some(format!(
                    "--box {shape} is for {side}x{side} grids, and no record read is one \
                     ({read}); leave it out, or give the boxes of the input's grids"
                ));
            }
        }
        let symbols = self.symbols.as_ref()?;
        let nine_digits = matches!(
            symbols.label(9).as_str(),
            "1-9" | "123456789" | "numbers 1-9"
        );
        let fits = sides & !(1 << 9) != 0 || (sides & (1 << 9) != 0 && nine_digits);
        (!fits).then(|| {
            let nine = if sides & (1 << 9) != 0 {
                ", and 9x9 records are read in the digits 1-9"
            } else {
                ""
            };
            // Named as the user wrote it (`numbers`, not a range of numbers).
            format!(
                "--symbols {symbols} fits no record read ({read}{nine}); leave it out, or name \
                 the input's alphabet"
            )
        })
    }
}

/// `records` records with the sides of `sides` (bit n for n x n), as
/// messages say it: `12 records: 9x9 grids`.
fn describe_sides(sides: u128, records: u64) -> String {
    let names: Vec<String> = (4..=sizes::MAX_SIDE)
        .filter(|n| sides & (1 << n) != 0)
        .map(|n| format!("{n}x{n}"))
        .collect();
    let noun = if records == 1 { "record" } else { "records" };
    if names.is_empty() {
        format!("{records} {noun}: all malformed")
    } else {
        format!("{records} {noun}: {} grids", names.join(", "))
    }
}

/// `record`, a 9x9 puzzle, as a grid with `shape` boxes ([`SizeOptions::nine_boxes`]),
/// its given solution too, both written in the digits `1`-`9`; a record
/// that is no 9x9 puzzle is left as it is.
pub fn with_boxes(record: &mut Record, shape: Shape) {
    let Ok(grid) = &record.puzzle else {
        return;
    };
    let reshaped = |grid: &Grid| SizedGrid::from_cells(shape, grid.cells().to_vec());
    let Some(puzzle) = reshaped(grid) else {
        return;
    };
    let solution = record.solution.as_ref().and_then(reshaped);
    record.set_sized((
        Ok(SizedRecord {
            puzzle,
            symbols: Symbols::for_side(9),
            solution,
        }),
        record.solution_error.clone(),
    ));
}

impl SizeOptions {
    /// These options for a record of cell values (a list of integers of a
    /// grid of `side`): the `numbers` alphabet whatever else `--symbols`
    /// says, numbered from 0 ([`numbered_from_zero`]) or from 1 (0 blank);
    /// the same boxes.
    pub fn numbers(&self, values: &[i64], side: usize) -> SizeOptions {
        let symbols = if numbered_from_zero(values, side, self) {
            Symbols::ZeroNumbers
        } else {
            Symbols::Numbers
        };
        SizeOptions {
            symbols: Some(symbols),
            shape: self.shape,
            numbering: self.numbering,
        }
    }
}

/// True when a list of the cell values of a grid of `side` is numbered from
/// 0 (0-based data sets: 16x16 as 0-15, blanks -1): `--symbols numbers0`,
/// or, unless `--symbols numbers` says otherwise, a list holding a `-1`
/// whose every value is from -1 to `side` - 1. Numbered from 1 (0 blank), a
/// `-1` is no cell value, so such a list reads from 0 only; text records
/// written with `-1` blanks and a `0` are read the same way.
pub fn numbered_from_zero(values: &[i64], side: usize, options: &SizeOptions) -> bool {
    match options.symbols {
        Some(Symbols::ZeroNumbers) => true,
        Some(Symbols::Numbers) => false,
        _ if options.numbering.from_zero(side) => true,
        _ if options.numbering.from_one(side) => false,
        _ => from_zero_alone(values, side),
    }
}

/// True when a list of the cell values of a grid of `side` is numbered
/// from 0 by what it holds alone: a `-1` among values from -1 to `side` -
/// 1.
pub fn from_zero_alone(values: &[i64], side: usize) -> bool {
    let top = side as i64 - 1;
    values.contains(&-1) && values.iter().all(|v| (-1..=top).contains(v))
}

/// Cell values (0 blank) as the field [`read`] takes in the `numbers`
/// alphabet: the numbers separated by commas.
pub fn numbers_field(values: impl IntoIterator<Item = i64>) -> Vec<u8> {
    let mut field = Vec::new();
    for (i, value) in values.into_iter().enumerate() {
        if i > 0 {
            field.push(b',');
        }
        field.extend_from_slice(value.to_string().as_bytes());
    }
    field
}

/// True for a field that is a grid of another size than 9x9 by its shape:
/// n * n printable ASCII characters for a side n of 4 to 64 other than 9,
/// or 16 or more values separated by commas or whitespace; or a 9x9 grid
/// the 9x9 reader cannot take as it is: 81 numbers from 0 with `-1`
/// blanks (`3,-1,-1,7,...`, [`numbered_from_zero`]) or with `.` blanks
/// and a `0` (`3,.,.,7,...`, as results write them), read in `numbers0` as
/// lists of integers are; or 81 one-digit numbers with `0` blanks
/// (`0,0,3,0,2,...`), which [`Record::set_sized`] turns into the 9x9
/// puzzle they write.
pub fn looks_sized(field: &[u8]) -> bool {
    if !field
        .iter()
        .all(|&b| b.is_ascii_graphic() || b == b' ' || b == b'\t')
    {
        return false;
    }
    let separated = field
        .split(|&b| b == b',' || b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .count();
    if separated >= 16 && field.iter().any(|&b| b == b',' || b == b' ') {
        return match sizes::side_of(separated) {
            Some(9) => nine_digits(field) || nine_from_zero(field),
            side => side.is_some(),
        };
    }
    sizes::side_of(field.len()).is_some_and(|n| n != 9)
}

/// True for 81 one-digit numbers or blanks separated by commas or
/// whitespace (`0,0,3,0,2,...`, `.,.,3,.,2,...`: a 9x9 puzzle with `0` or
/// `.`, `-`, `_`, `+` blanks).
fn nine_digits(field: &[u8]) -> bool {
    field
        .split(|&b| b == b',' || b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .all(|t| matches!(t, [b'0'..=b'9' | b'.' | b'-' | b'_' | b'+']))
}

/// True for a field after a puzzle read as a grid of another size (or a
/// 9x9 one the 9x9 reader cannot take) that is its given solution by its
/// shape: a grid by [`looks_sized`], or a complete 9x9 grid of 81
/// characters beside a 9x9 written as numbers ([`read`] takes either).
/// The one rule of CSV fields and text lines.
pub fn solution_like(field: &[u8]) -> bool {
    looks_sized(field) || field::complete(field).is_some()
}

/// True for a field that is a puzzle of another size (or a 9x9 one the
/// 9x9 reader cannot take) by its shape ([`looks_sized`]) and reads as one
/// under `options`, with a blank: what the 9x9 readers ask of a field
/// that is not the first (`<id> <puzzle> <rating>`), asked at every size.
pub fn is_puzzle(field: &[u8], options: &SizeOptions) -> bool {
    looks_sized(field)
        && sizes::read(field, options.symbols.as_ref(), options.shape)
            .is_ok_and(|read| !read.grid.is_complete())
}

/// True for a grid read as a 9x9 in the digits `1`-`9` with 3x3 boxes,
/// which [`as_nine`] makes a 9x9 puzzle.
fn nine_digit_grid(shape: Shape, symbols: &Symbols) -> bool {
    shape.side() == 9
        && shape.box_rows() == 3
        && matches!(
            symbols.label(9).as_str(),
            "1-9" | "123456789" | "numbers 1-9"
        )
}

/// The 9x9 puzzle (and its given solution) of a record read as a grid of
/// another size that is a 9x9 in the digits `1`-`9` with the usual 3x3
/// boxes (`0,0,3,0,2,...`, [`looks_sized`]): the 9x9 readers' record, so
/// that it is read, solved and written as an 81-character puzzle is.
/// `None` for any other record (numbered from 0, another alphabet, other
/// boxes).
pub fn as_nine(record: &SizedRecord) -> Option<(Grid, Option<Grid>)> {
    if !nine_digit_grid(record.puzzle.shape(), &record.symbols) {
        return None;
    }
    nine_grids(record)
}

/// The 9x9 puzzle (and its given solution) of a record read as a grid of
/// another size that is a 9x9 with the usual 3x3 boxes, in any alphabet
/// (numbered from 0: `3,-1,-1,7,...`): its cells as a [`Grid`]
/// ([`sizes::nine_grid`], the mapping `solve` solves such a record by),
/// for `canon`, `augment` and `bench`; the first two write them back in
/// the record's alphabet. `None` for another size or other boxes.
pub fn nine_grids(record: &SizedRecord) -> Option<(Grid, Option<Grid>)> {
    let puzzle = sizes::nine_grid(&record.puzzle)?;
    Some((puzzle, record.solution.as_ref().and_then(sizes::nine_grid)))
}

/// True for two fields that are value lists of one length (commas or
/// whitespace between 16 or more values): a puzzle and its solution of
/// another size or numbered from 0, whose solution, without blanks, may
/// not show by itself that it is numbered from 0 (`3,0,6,2,...`).
pub fn same_list_shape(puzzle: &[u8], solution: &[u8]) -> bool {
    let values = |field: &[u8]| {
        field.iter().any(|&b| b == b',' || b == b' ').then(|| {
            field
                .split(|&b| b == b',' || b.is_ascii_whitespace())
                .filter(|t| !t.is_empty())
                .count()
        })
    };
    matches!((values(puzzle), values(solution)), (Some(p), Some(s)) if p == s && p >= 16)
}

/// True for 81 values separated by commas or whitespace that are numbered
/// from 0: integers by the rule of lists ([`numbered_from_zero`]), or
/// integers from 0 to 8 with `.`, `-`, `_` or `+` blanks that hold a `0`,
/// as the results of such a record write its puzzle (`3,.,.,7,...,0,...`).
fn nine_from_zero(field: &[u8]) -> bool {
    let mut blanks = false;
    let mut values = Vec::with_capacity(81);
    for token in field
        .split(|&b| b == b',' || b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
    {
        if let [b'.' | b'-' | b'_' | b'+'] = token {
            blanks = true;
            continue;
        }
        match std::str::from_utf8(token).ok().and_then(|t| t.parse().ok()) {
            Some(value) => values.push(value),
            None => return false,
        }
    }
    if blanks {
        values.contains(&0) && values.iter().all(|v| (0..9).contains(v))
    } else {
        numbered_from_zero(&values, 9, &SizeOptions::default())
    }
}

/// The cells of `field`, a one-line grid as written: its values when it
/// has commas or whitespace between them (`3,1,,4` and `3 1  4` are three
/// cells: no empty ones), else each of its characters (`3.14`, four).
pub fn cells_of(field: &[u8]) -> Vec<&[u8]> {
    let separator = |&b: &u8| b == b',' || b.is_ascii_whitespace();
    if field.iter().any(separator) {
        field
            .split(separator)
            .filter(|cell| !cell.is_empty())
            .collect()
    } else {
        field.chunks(1).collect()
    }
}

/// True when `field` could be a record of a grid of another size than 9x9
/// under `options` (`--symbols`, `--box`), so that a line holding it is
/// never a header: it [`looks_sized`] and reads as a grid (in the alphabet
/// `--symbols` gives, or one found from what it holds), or only the
/// alphabet is in doubt, or half or more of its cells are blanks (a
/// puzzle with a character no alphabet fits, reported `malformed`; a
/// file name such as `sudoku-10000.csv` has fewer).
pub fn could_be_record(field: &[u8], options: &SizeOptions) -> bool {
    if !looks_sized(field) {
        return false;
    }
    match sizes::read(field, options.symbols.as_ref(), options.shape) {
        Ok(_) | Err(SymbolsError::Ambiguous(_)) => return true,
        Err(_) => {}
    }
    let cells = cells_of(field);
    let blank = |t: &&&[u8]| t.iter().all(|b| b"0.-_+".contains(b));
    cells.iter().filter(blank).count() * 2 >= cells.len()
}

/// True for a field that is a one-line grid in all but its length, at
/// any size: one the field reader names by its size
/// (`field::other_size_length`: `255 cells, expected 256 (a 16x16
/// grid)`), or 12 or more letters, digits and blanks (`.`, `0`, `-`, `_`,
/// `+`) within a tenth of n * n long for a side n of 4 to 64 (a cell or
/// more short or over), half or more of them blanks. Such a field, however
/// damaged, is a `malformed` record, never a header (a file name such as
/// `sudoku-10000.csv` has fewer blanks).
pub fn damaged_grid(field: &[u8]) -> bool {
    if field::other_size_length(field).is_some() {
        return true;
    }
    let len = field.len();
    let near = (4..=sizes::MAX_SIDE).any(|n| (n * n).abs_diff(len) <= (n * n / 10).max(1));
    let blank = |b: &&u8| b"0.-_+".contains(b);
    len >= 12
        && near
        && field.iter().all(|b| b.is_ascii_alphanumeric() || blank(&b))
        && field.iter().filter(blank).count() * 2 >= len
}

/// Reads a field that [`looks_sized`] as a grid of its size, with the
/// given solution field if any: the record, or the message for a
/// `malformed` one (naming `--symbols` where it helps). The second value
/// is why a given solution is no solution grid, if it is not.
pub fn read(
    field: &[u8],
    solution: Option<&[u8]>,
    options: &SizeOptions,
) -> (Result<SizedRecord, String>, Option<String>) {
    let read = match read_numbered(field, options) {
        Ok(read) => read,
        Err(e) => return (Err(e), None),
    };
    let side = read.grid.side();
    let mut solution_error = None;
    let solution = solution.filter(|s| !s.is_empty()).and_then(|s| {
        match sizes::read(s, Some(&read.symbols), Some(read.grid.shape())) {
            Ok(r) if r.grid.is_complete() => Some(r.grid),
            Ok(_) => {
                solution_error = Some("given solution is not a grid: it has blanks".to_string());
                None
            }
            // A 9x9 of digits written as numbers, its solution as 81
            // characters (or the other way round).
            Err(_)
                if nine_digit_grid(read.grid.shape(), &read.symbols)
                    && field::complete(s).is_some() =>
            {
                let grid = field::complete(s)?;
                SizedGrid::from_cells(read.grid.shape(), grid.cells().to_vec())
            }
            Err(e) => {
                solution_error = Some(format!("given solution is not a {side}x{side} grid: {e}"));
                None
            }
        }
    });
    (
        Ok(SizedRecord {
            puzzle: read.grid,
            symbols: read.symbols,
            solution,
        }),
        solution_error,
    )
}

/// Reads `field` as a grid of its size in the input's numbering
/// ([`SizeOptions::numbering`]) when `--symbols` gives no alphabet: a
/// record that alone reads from 1 (no `0` given) is read from 0 when its
/// side is numbered from 0; one that alone reads from 0 is refused when
/// its side is numbered from 1 and it gives a `0` among other blanks (read
/// from 1, that `0` would be a blank: no grid is read two ways in one
/// input), or `-1` blanks (0-based data's blank, as results write a puzzle
/// from 0 that gives no `0`, and as a list with `-1` is refused: read from
/// 1, every value would be one lower than it was written). A record that
/// does not fit its side's numbering (a `9` in a 9x9 numbered from 0) is
/// refused saying so.
fn read_numbered(field: &[u8], options: &SizeOptions) -> Result<sizes::Read, String> {
    let read =
        sizes::read(field, options.symbols.as_ref(), options.shape).map_err(|e| e.to_string())?;
    if options.symbols.is_some() {
        return Ok(read);
    }
    let side = read.grid.side();
    let again = |symbols: Symbols| sizes::read(field, Some(&symbols), options.shape);
    match read.symbols {
        Symbols::Numbers | Symbols::DigitsLetters { .. } if options.numbering.from_zero(side) => {
            let symbols = match read.symbols {
                Symbols::DigitsLetters { lower } => Symbols::ZeroDigitsLetters { lower },
                _ => Symbols::ZeroNumbers,
            };
            again(symbols).map_err(|e| numbered_otherwise(side, &options.numbering, &against(&e)))
        }
        Symbols::ZeroNumbers | Symbols::ZeroDigitsLetters { .. }
            if options.numbering.from_one(side) =>
        {
            if zero_given(field) {
                return Err(numbered_otherwise(
                    side,
                    &options.numbering,
                    "a 0 given among blanks",
                ));
            }
            if cells_of(field).contains(&&b"-1"[..]) {
                return Err(numbered_otherwise(side, &options.numbering, "-1 blanks"));
            }
            let symbols = match read.symbols {
                Symbols::ZeroDigitsLetters { lower } => Symbols::DigitsLetters { lower },
                _ => Symbols::Numbers,
            };
            again(symbols).map_err(|e| numbered_otherwise(side, &options.numbering, &against(&e)))
        }
        _ => Ok(read),
    }
}

/// What a record holds against a numbering that does not read it, from
/// why it does not: the value and its place (`9 at cell 4`).
fn against(e: &SymbolsError) -> String {
    match e {
        SymbolsError::BadNumber {
            number, position, ..
        } => format!("{number} at cell {position}"),
        SymbolsError::BadSymbol { ch, position, .. } => format!("'{ch}' at position {position}"),
        other => other.to_string(),
    }
}

/// The message of a record of side `side` that its input's numbering
/// ([`Numbering`]) does not read: `why` is what the record holds against
/// it; the message says where the numbering was chosen (`most of this
/// input's first 9x9 records are numbered from 1 (999 of 1000)`). Other
/// sizes than 9x9 name the `--symbols` that reads the whole input in the
/// record's numbering.
pub fn numbered_otherwise(side: usize, numbering: &Numbering, why: &str) -> String {
    let (record, other) = if numbering.from_zero(side) {
        ("1", "numbers")
    } else {
        ("0", "numbers0")
    };
    // A 9x9 takes no `--symbols` (see `SizeOptions::unfit`).
    let hint = if side == 9 {
        String::new()
    } else {
        format!(" (--symbols {other} reads it all so)")
    };
    let chosen = numbering.chosen(side);
    format!("numbered from {record} ({why}), but {chosen}: one numbering per input{hint}")
}

/// True when the cells of `field` ([`cells_of`]) hold a `0` and a blank
/// written otherwise (`.`, `-`, `_`, `+`, `-1`): a `0` that is a given.
fn zero_given(field: &[u8]) -> bool {
    let cells = cells_of(field);
    let zero = cells
        .iter()
        .any(|c| !c.is_empty() && c.iter().all(|&b| b == b'0'));
    let blank = cells
        .iter()
        .any(|c| *c == b"-1" || (!c.is_empty() && c.iter().all(|b| b".-_+".contains(b))));
    zero && blank
}

/// The message a record of another size carries as its 9x9 puzzle error,
/// for the parts of the program that read 9x9 grids only (`canon`,
/// `augment`, `bench`): the 9x9 parser's own.
pub fn only_nine(side: usize) -> String {
    sudoku_core::grid::ParseError::OtherSize { side }.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_values_between_separators_else_characters() {
        assert_eq!(cells_of(b"3,1,,4"), [&b"3"[..], b"1", b"4"]);
        assert_eq!(cells_of(b" 3 1\t\t4, 10 "), [&b"3"[..], b"1", b"4", b"10"]);
        assert_eq!(cells_of(b"-1,0,."), [&b"-1"[..], b"0", b"."]);
        assert_eq!(cells_of(b"3.14"), [&b"3"[..], b".", b"1", b"4"]);
        assert!(cells_of(b"").is_empty());
        assert!(cells_of(b" ,\n").is_empty());
    }

    #[test]
    fn sized_fields_are_told_from_nine_by_nine_ones() {
        assert!(looks_sized(&[b'.'; 256]));
        assert!(looks_sized(b"3102200002100320"));
        assert!(looks_sized(b"2,1,0,0,0,3,2,0,0,0,0,4,1,0,0,0"));
        assert!(!looks_sized(&[b'.'; 81]));
        assert!(!looks_sized(&[b'.'; 80]));
        assert!(!looks_sized(b"1,2,3"));
        // 81 numbers: a 9x9 the 9x9 reader cannot take only when numbered
        // from 0 (a -1, every value -1 to 8).
        let nine = |first: &str, rest: &str| format!("{first},{}", vec![rest; 80].join(","));
        assert!(looks_sized(nine("3", "-1").as_bytes()));
        assert!(!looks_sized(nine("9", "-1").as_bytes()));
        // `.` blanks among one-digit numbers: numbered from 0 with a 0 (as
        // results write such a puzzle), else from 1; either is read.
        for (first, from_zero) in [("0", true), ("3", false), ("9", false)] {
            let field = nine(first, ".");
            assert!(looks_sized(field.as_bytes()), "{first}");
            assert_eq!(nine_from_zero(field.as_bytes()), from_zero, "{first}");
        }
        // Its solution shows no blank: it has the puzzle's shape.
        let (puzzle, solution) = (nine("0", "."), nine("3", "0"));
        assert!(same_list_shape(puzzle.as_bytes(), solution.as_bytes()));
        assert!(!same_list_shape(puzzle.as_bytes(), &[b'1'; 81]));
        assert!(!same_list_shape(puzzle.as_bytes(), b"1,2,3"));
        assert!(!looks_sized(nine("10", "0").as_bytes()));
        // 81 one-digit numbers with 0 blanks: the 9x9 puzzle they write.
        assert!(looks_sized(nine("3", "0").as_bytes()));
        let (read, _) = read(nine("3", "0").as_bytes(), None, &SizeOptions::default());
        let (puzzle, solution) = as_nine(&read.unwrap()).unwrap();
        assert_eq!(puzzle.to_line(), format!("3{}", ".".repeat(80)));
        assert_eq!(solution, None);
    }

    /// `field` as a record looked at, read in the three
    /// [`Numbering::READINGS`].
    fn looked(field: &[u8]) -> [Record; 3] {
        Numbering::READINGS.map(|numbering| {
            let options = SizeOptions {
                numbering,
                ..SizeOptions::default()
            };
            let mut record = Record::new(1, Err(String::new()), None);
            record.set_sized(read(field, None, &options));
            record
        })
    }

    /// The options of an input whose first records are `fields`.
    fn input_of(fields: &[&[u8]]) -> SizeOptions {
        SizeOptions {
            numbering: Numbering::of(fields.iter().filter_map(|f| Vote::of(looked(f)))),
            ..SizeOptions::default()
        }
    }

    #[test]
    fn one_numbering_reads_every_record_of_its_side() {
        // A 4x4 from 0 with `.` blanks, one giving a 0 and one not.
        let (with_zero, without) = (&b"0.2..1.........."[..], &b"3.2..1.........."[..]);
        let alone = SizeOptions::default();
        let read = |field: &[u8], options: &SizeOptions| read(field, None, options).0;
        let input = input_of(&[with_zero]);
        let numbering = input.numbering;
        assert_eq!((numbering.from_zero, numbering.from_one), (1 << 4, 0));
        // Alone, the record without a 0 reads from 1; in the input, from 0.
        assert_eq!(
            read(without, &alone).unwrap().symbols,
            Symbols::DigitsLetters { lower: false }
        );
        assert_eq!(
            read(without, &input).unwrap().symbols,
            Symbols::ZeroDigitsLetters { lower: false }
        );
        // A 4 fits no 4x4 from 0; under first records from 1, a 0 among
        // `.` blanks is refused, and so are numbers with -1 blanks (as a
        // list with them is): read from 1, each value would be one lower.
        let four = &b"4.2..1.........."[..];
        assert_eq!(
            read(four, &input).unwrap_err(),
            "numbered from 1 ('4' at position 1), but this input's first 4x4 records are \
             numbered from 0 (all 1): one numbering per input (--symbols numbers reads it all so)"
        );
        let from_one = input_of(&[four]);
        assert_eq!(
            read(with_zero, &from_one).unwrap_err(),
            "numbered from 0 (a 0 given among blanks), but this input's first 4x4 records are \
             numbered from 1 (all 1): one numbering per input (--symbols numbers0 reads it all \
             so)"
        );
        let minus = b"3,-1,2,-1,-1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1";
        assert_eq!(read(minus, &alone).unwrap().symbols, Symbols::ZeroNumbers);
        assert_eq!(
            read(minus, &from_one).unwrap_err(),
            "numbered from 0 (-1 blanks), but this input's first 4x4 records are numbered \
             from 1 (all 1): one numbering per input (--symbols numbers0 reads it all so)"
        );
        // With a value as high as its side, -1 blanks read from 1 alone.
        let minus_four = b"4,-1,2,-1,-1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1";
        assert_eq!(read(minus_four, &alone).unwrap().symbols, Symbols::Numbers);
        assert_eq!(
            read(minus_four, &from_one).unwrap().symbols,
            Symbols::Numbers
        );
        // Another side keeps its own reading.
        assert!(!numbering.from_zero(9) && !numbering.from_one(9));
    }

    #[test]
    fn the_numbering_most_records_need_is_chosen() {
        let (with_zero, without, four) = (
            &b"0.2..1.........."[..],
            &b"3.2..1.........."[..],
            &b"4.2..1.........."[..],
        );
        let read = |field: &[u8], options: &SizeOptions| read(field, None, options).0;
        // Three records that read only from 1 outvote one that reads only
        // from 0, which is refused saying so.
        let input = input_of(&[four, with_zero, four, four]);
        assert!(input.numbering.from_one(4) && !input.numbering.from_zero(4));
        assert_eq!(
            read(with_zero, &input).unwrap_err(),
            "numbered from 0 (a 0 given among blanks), but most of this input's first 4x4 \
             records are numbered from 1 (3 of 4): one numbering per input (--symbols numbers0 \
             reads it all so)"
        );
        // The other way round.
        let input = input_of(&[with_zero, four, with_zero, with_zero]);
        assert!(input.numbering.from_zero(4));
        assert!(read(four, &input)
            .unwrap_err()
            .contains("most of this input's first 4x4 records are numbered from 0 (3 of 4)"));
        // A record that reads either way votes for neither.
        let input = input_of(&[without, with_zero, without, without]);
        assert!(input.numbering.from_zero(4));
        let input = input_of(&[without, four, without, without]);
        assert!(input.numbering.from_one(4));
        // A tie is read from 0 when a record alone is, as is an input of
        // records that read either way from 1.
        let input = input_of(&[four, without, with_zero]);
        assert!(input.numbering.from_zero(4));
        assert!(read(four, &input)
            .unwrap_err()
            .contains("most of this input's first 4x4 records are numbered from 0 (2 of 3)"));
        let input = input_of(&[four, with_zero]);
        assert!(read(four, &input).unwrap_err().contains(
            "half of this input's first 4x4 records are numbered from 0 (1 of 2; a tie is read \
             from 0)"
        ));
        let input = input_of(&[without, without]);
        assert!(input.numbering.from_one(4));
        assert!(read(with_zero, &input)
            .unwrap_err()
            .contains("this input's first 4x4 records are numbered from 1 (all 2)"));
        // Malformed records count for no side.
        let input = input_of(&[b"4.2..1.........Z", with_zero]);
        assert!(input.numbering.from_zero(4));
    }

    #[test]
    fn damaged_grids_of_any_size_are_told_from_header_words() {
        let sixteen = "6E.F..B8..D..5..".repeat(16);
        for len in [254, 255] {
            assert!(damaged_grid(&sixteen.as_bytes()[..len]), "{len}");
        }
        assert!(damaged_grid(format!("{sixteen}X").as_bytes()));
        assert!(damaged_grid(&[b'.'; 80]));
        for header in [
            "quizzes",
            "sudoku-10000.csv",
            "puzzle_solution",
            "difficultyrating",
        ] {
            assert!(!damaged_grid(header.as_bytes()), "{header}");
        }
    }

    #[test]
    fn solutions_are_read_in_the_puzzle_alphabet() {
        let options = SizeOptions::default();
        let (record, why) = read(b"3102200002100320", Some(b"3142243142131324"), &options);
        let record = record.unwrap();
        assert_eq!(why, None);
        assert!(record.solution.unwrap().is_solution_of(&record.puzzle));
        let (_, why) = read(b"3102200002100320", Some(b"314224314213132"), &options);
        assert_eq!(
            why.unwrap(),
            "given solution is not a 4x4 grid: 15 cells: not a square grid of side 4 to 64"
        );
    }
}
