//! Symbols: how the values 1..=n of a grid are written, reading a record
//! in any of them (found from what it holds, or given) and writing a grid
//! back in them.
//!
//! The alphabets are those of the published corpora: digits for n <= 9;
//! `1-9A-Z` (16x16 as `1-9A-G`, the common form); `0-9A-Z` (hexadecimal
//! 16x16, `0` a symbol); letters only, either case (Alphadoku's `A-P` and
//! `a-y`); numbers separated by commas or spaces, `0` blank (the comma
//! grids), or numbered from 0 (0-based data sets: `0` to n-1, blanks `.`
//! or `-1`); or any n characters given in order. Blanks are `.`, `-`, `_`,
//! `+`, and `0` where it is not a symbol.
//!
//! `0` is read as a symbol, never as a blank, where the record says so: a
//! record that writes its blanks with `.`, `-`, `_`, `+` (or `-1` among
//! numbers) and also holds a `0` is numbered from 0 (a 4x4 in `0-3`, a
//! 16x16 as the numbers 0-15), so no `0` given is ever taken for a blank;
//! so is a record of numbers with `-1` blanks and no value as high as n
//! (its `0`s may all be blanks of the puzzle).

use std::fmt;

use thiserror::Error;

use super::grid::{cell_name, SizedConflict, SizedGrid};
use super::shape::{Shape, ShapeError, MAX_SIDE};

/// The blank characters other than `0`.
pub const BLANKS: &[u8] = b".-_+";

/// How the values 1..=n are written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Symbols {
    /// `1`-`9`, then `A`-`Z` (up to n = 35); `0` is a blank. With `lower`
    /// the letters are written in lower case.
    DigitsLetters {
        /// Letters written in lower case.
        lower: bool,
    },
    /// `0`-`9`, then `A`-`Z` (up to n = 36): `0` is the first symbol.
    ZeroDigitsLetters {
        /// Letters written in lower case.
        lower: bool,
    },
    /// `A`-`Z` (up to n = 26), read in either case; `0` is a blank.
    Letters {
        /// Letters written in lower case.
        lower: bool,
    },
    /// Numbers 1..=n separated by commas (or spaces); `0` is a blank.
    Numbers,
    /// Numbers 0..n-1 separated by commas (or spaces), as 0-based data
    /// sets write them: `0` is the first symbol; blanks are `.`, `-`, `_`,
    /// `+` or `-1`.
    ZeroNumbers,
    /// The n characters given, in order; letters are read in either case
    /// when the string has no two letters that differ only in case.
    Chars(Vec<u8>),
}

/// Why a record cannot be read as a grid of some size.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SymbolsError {
    /// A `--symbols` value that names no alphabet.
    #[error("--symbols '{0}': expected 1-9A-Z, 0-9A-Z, A-Z, numbers or the n symbols in order (ASCII, no blank character, none twice)")]
    BadName(String),
    /// A cell count that is no square of a side from 4 to 64.
    #[error("{0} cells: not a square grid of side 4 to 64")]
    CellCount(usize),
    /// A box shape that does not fit.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// More symbols needed than the alphabet has.
    #[error("a {side}x{side} grid needs {side} symbols; {label} has {has} (give --symbols)")]
    TooFew {
        /// The grid's side.
        side: usize,
        /// The alphabet's name.
        label: String,
        /// Its number of symbols.
        has: usize,
    },
    /// A character that is neither a symbol nor a blank.
    #[error("'{ch}' at position {position} is no symbol of {label} (give --symbols)")]
    BadSymbol {
        /// The character (a byte shown as `\xNN` when not printable).
        ch: String,
        /// 1-based position in the record.
        position: usize,
        /// The alphabet's name, as `1-9A-G`.
        label: String,
    },
    /// A value that is no number of the alphabet, nor a blank.
    #[error(
        "number {number} at cell {position} is not one of {label} nor a blank (give --symbols)"
    )]
    BadNumber {
        /// The number as written.
        number: String,
        /// 1-based cell.
        position: usize,
        /// The alphabet's name for the grid's side (`numbers 1-16`).
        label: String,
    },
    /// Several alphabets fit the record.
    #[error("ambiguous symbols, give --symbols: {0}")]
    Ambiguous(String),
}

impl Symbols {
    /// The alphabet named by a `--symbols` value: `1-9A-Z`, `0-9A-Z`, `A-Z`
    /// (in lower case: letters written so), `numbers`, or else the n
    /// symbols in order.
    ///
    /// # Errors
    /// [`SymbolsError::BadName`] for a string with a non-ASCII, blank or
    /// repeated character, or fewer than 4.
    pub fn from_name(name: &str) -> Result<Symbols, SymbolsError> {
        Ok(match name {
            "1-9A-Z" => Symbols::DigitsLetters { lower: false },
            "1-9a-z" => Symbols::DigitsLetters { lower: true },
            "0-9A-Z" => Symbols::ZeroDigitsLetters { lower: false },
            "0-9a-z" => Symbols::ZeroDigitsLetters { lower: true },
            "A-Z" => Symbols::Letters { lower: false },
            "a-z" => Symbols::Letters { lower: true },
            "numbers" => Symbols::Numbers,
            "numbers0" => Symbols::ZeroNumbers,
            _ => {
                let bytes = name.as_bytes();
                let ok = bytes.len() >= 4
                    && bytes.len() <= MAX_SIDE
                    && bytes
                        .iter()
                        .all(|b| b.is_ascii_graphic() && !BLANKS.contains(b))
                    && bytes
                        .iter()
                        .enumerate()
                        .all(|(i, b)| !bytes[..i].contains(b));
                if !ok {
                    return Err(SymbolsError::BadName(name.to_string()));
                }
                Symbols::Chars(bytes.to_vec())
            }
        })
    }

    /// The alphabet `generate` writes: `1-9A-Z` up to n = 35, numbers
    /// above.
    pub fn for_side(side: usize) -> Symbols {
        if side <= 35 {
            Symbols::DigitsLetters { lower: false }
        } else {
            Symbols::Numbers
        }
    }

    /// How many symbols the alphabet has (`usize::MAX` for numbers).
    pub fn capacity(&self) -> usize {
        match self {
            Symbols::DigitsLetters { .. } => 35,
            Symbols::ZeroDigitsLetters { .. } => 36,
            Symbols::Letters { .. } => 26,
            Symbols::Numbers | Symbols::ZeroNumbers => usize::MAX,
            Symbols::Chars(chars) => chars.len(),
        }
    }

    /// True when `0` is a symbol, not a blank.
    fn zero_is_symbol(&self) -> bool {
        match self {
            Symbols::ZeroDigitsLetters { .. } | Symbols::ZeroNumbers => true,
            Symbols::Chars(chars) => chars.contains(&b'0'),
            _ => false,
        }
    }

    /// The character of value `v` (1..=capacity) for the one-character
    /// alphabets; `None` for numbers.
    fn char_of(&self, v: u8) -> Option<u8> {
        let i = usize::from(v).checked_sub(1)?;
        let letter = |k: usize, lower: bool| {
            let base = if lower { b'a' } else { b'A' };
            base + k as u8
        };
        match self {
            Symbols::DigitsLetters { lower } => Some(if i < 9 {
                b'1' + i as u8
            } else {
                letter(i - 9, *lower)
            }),
            Symbols::ZeroDigitsLetters { lower } => Some(if i < 10 {
                b'0' + i as u8
            } else {
                letter(i - 10, *lower)
            }),
            Symbols::Letters { lower } => Some(letter(i, *lower)),
            Symbols::Numbers | Symbols::ZeroNumbers => None,
            Symbols::Chars(chars) => chars.get(i).copied(),
        }
    }

    /// The value (1..=capacity) of one character; `None` when it is no
    /// symbol of the alphabet. Letters are read in either case.
    fn value_of(&self, b: u8) -> Option<u8> {
        let letter = b.to_ascii_uppercase().wrapping_sub(b'A');
        let v = match self {
            Symbols::DigitsLetters { .. } => match b {
                b'1'..=b'9' => b - b'0',
                _ if letter < 26 => letter + 10,
                _ => return None,
            },
            Symbols::ZeroDigitsLetters { .. } => match b {
                b'0'..=b'9' => b - b'0' + 1,
                _ if letter < 26 => letter + 11,
                _ => return None,
            },
            Symbols::Letters { .. } if letter < 26 => letter + 1,
            Symbols::Letters { .. } | Symbols::Numbers | Symbols::ZeroNumbers => return None,
            Symbols::Chars(chars) => {
                let exact = chars.iter().position(|&c| c == b);
                let folded = || {
                    let twins = chars
                        .iter()
                        .any(|c| c.is_ascii_alphabetic() && chars.contains(&(c ^ 0x20)));
                    (!twins)
                        .then(|| chars.iter().position(|c| c.eq_ignore_ascii_case(&b)))
                        .flatten()
                };
                exact.or_else(folded)? as u8 + 1
            }
        };
        Some(v)
    }

    /// The symbol of value `v` as text, for messages (`K`, `17`, `16` for
    /// 17 numbered from 0).
    pub fn name_of(&self, v: u8) -> String {
        match self.char_of(v) {
            Some(c) => char::from(c).to_string(),
            None if *self == Symbols::ZeroNumbers => (v.saturating_sub(1)).to_string(),
            None => v.to_string(),
        }
    }

    /// The alphabet's name for a grid of side n, as messages show it:
    /// `1-9A-G`, `0-9A-F`, `A-P`, `1-4`, `numbers 1-25`, or the symbols.
    pub fn label(&self, side: usize) -> String {
        let side = side.min(self.capacity());
        match self {
            Symbols::Numbers => format!("numbers 1-{side}"),
            Symbols::ZeroNumbers => format!("numbers 0-{}", side.saturating_sub(1)),
            Symbols::Chars(chars) => String::from_utf8_lossy(&chars[..side]).into_owned(),
            _ => {
                let first = self.char_of(1).map_or('?', char::from);
                let (digits_end, letters) = match self {
                    Symbols::DigitsLetters { .. } => (9, side.saturating_sub(9)),
                    Symbols::ZeroDigitsLetters { .. } => (10, side.saturating_sub(10)),
                    _ => (0, side),
                };
                let mut label = String::new();
                if digits_end > 0 {
                    let last = self
                        .char_of(side.min(digits_end) as u8)
                        .map_or('?', char::from);
                    label.push_str(&format!("{first}-{last}"));
                }
                if letters > 0 {
                    let a = self.char_of((digits_end + 1) as u8).map_or('?', char::from);
                    let z = self.char_of(side as u8).map_or('?', char::from);
                    label.push_str(&format!("{a}-{z}"));
                }
                label
            }
        }
    }

    /// The grid written in this alphabet: one character per cell and
    /// `blank` for blanks, or for numbers comma-separated values with `0`
    /// for blanks (numbers from 0: `blank` for blanks, a `0` blank written
    /// `.`, since `0` is a symbol there; `-1` when no `0` is given, since
    /// numbers with `.` blanks and no `0` read back as numbered from 1).
    pub fn format(&self, grid: &SizedGrid, blank: u8) -> String {
        match self {
            Symbols::Numbers | Symbols::ZeroNumbers => {
                // Numbers from 0 write a blank as `blank` (`.` for a `0`
                // blank, `0` being a symbol), or as `-1` in a grid with
                // no `0` (value 1) given, the one sign of its numbering
                // then; numbers from 1 write `0`.
                let zero_based = *self == Symbols::ZeroNumbers;
                let blank = if zero_based && !grid.cells().contains(&1) {
                    "-1".to_string()
                } else if blank == b'0' {
                    ".".to_string()
                } else {
                    char::from(blank).to_string()
                };
                let mut text = String::with_capacity(grid.cells().len() * 3);
                for (i, &v) in grid.cells().iter().enumerate() {
                    if i > 0 {
                        text.push(',');
                    }
                    match v {
                        0 if zero_based => text.push_str(&blank),
                        v => text.push_str(&(v - u8::from(zero_based)).to_string()),
                    }
                }
                text
            }
            _ => grid
                .cells()
                .iter()
                .map(|&v| char::from(self.char_of(v).unwrap_or(blank)))
                .collect(),
        }
    }

    /// True when `b` is a blank for this alphabet.
    fn is_blank(&self, b: u8) -> bool {
        BLANKS.contains(&b) || (b == b'0' && !self.zero_is_symbol())
    }
}

impl fmt::Display for Symbols {
    /// The `--symbols` name: `1-9A-Z`, `0-9A-Z`, `A-Z`, `numbers` or the
    /// string (letters in the case they are written).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbols::DigitsLetters { lower } => {
                f.write_str(if *lower { "1-9a-z" } else { "1-9A-Z" })
            }
            Symbols::ZeroDigitsLetters { lower } => {
                f.write_str(if *lower { "0-9a-z" } else { "0-9A-Z" })
            }
            Symbols::Letters { lower } => f.write_str(if *lower { "a-z" } else { "A-Z" }),
            Symbols::Numbers => f.write_str("numbers"),
            Symbols::ZeroNumbers => f.write_str("numbers0"),
            Symbols::Chars(chars) => f.write_str(&String::from_utf8_lossy(chars)),
        }
    }
}

/// The side of a grid of `count` cells, when it is a square of 4 to 64.
pub fn side_of(count: usize) -> Option<usize> {
    let side = (count as f64).sqrt().round() as usize;
    (side * side == count && (4..=MAX_SIDE).contains(&side)).then_some(side)
}

/// The shape for a grid of `side`: `shape` when it has that side, else the
/// usual boxes.
fn shape_for(side: usize, shape: Option<Shape>) -> Result<Shape, SymbolsError> {
    match shape {
        Some(s) if s.side() == side => Ok(s),
        _ => Ok(Shape::usual(side)?),
    }
}

/// One record read as a grid of any size, with the alphabet it was read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// The grid.
    pub grid: SizedGrid,
    /// Its alphabet (found or given), for writing it and its solution back.
    pub symbols: Symbols,
}

/// Reads one record as a grid of any size: one character per cell (the
/// side from the count, 16 for 4x4 up to 4096 for 64x64), or values
/// separated by commas or whitespace (numbers, or one character each).
/// The alphabet is `symbols`, or found from what the record holds (see the
/// module docs); the boxes are `shape` when it has the record's side, else
/// the usual ones ([`Shape::usual`]).
///
/// # Errors
/// A count that is no square of 4 to 64, a character that is no symbol or
/// blank, an alphabet too small or ambiguous; each message names
/// `--symbols` where giving it could help.
pub fn read(
    field: &[u8],
    symbols: Option<&Symbols>,
    shape: Option<Shape>,
) -> Result<Read, SymbolsError> {
    let separated = field.iter().any(|&b| b == b',' || b.is_ascii_whitespace());
    if !separated {
        return read_chars(field, symbols, shape);
    }
    let tokens: Vec<&[u8]> = field
        .split(|&b| b == b',' || b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    let numbers = tokens
        .iter()
        .all(|t| t.iter().all(|b| b.is_ascii_digit() || BLANKS.contains(b)));
    match symbols {
        None if numbers => return read_numbers(&tokens, shape, None),
        Some(Symbols::Numbers) => return read_numbers(&tokens, shape, Some(false)),
        Some(Symbols::ZeroNumbers) => return read_numbers(&tokens, shape, Some(true)),
        _ => {}
    }
    if let Some(t) = tokens.iter().find(|t| t.len() != 1) {
        return Err(SymbolsError::BadSymbol {
            ch: excerpt(t),
            position: 1 + tokens.iter().position(|x| x == t).unwrap_or(0),
            label: "one character per cell".to_string(),
        });
    }
    let chars: Vec<u8> = tokens.iter().map(|t| t[0]).collect();
    read_chars(&chars, symbols, shape)
}

/// Characters of a token shown in a message, at most: a record's message
/// stays one readable line (a token may be a whole line of thousands of
/// bytes, as a run of digits with one comma).
const EXCERPT_CHARS: usize = 16;

/// `token` as a message shows it: its first [`EXCERPT_CHARS`] characters
/// ([`excerpt_of`]).
fn excerpt(token: &[u8]) -> String {
    excerpt_of(token, EXCERPT_CHARS)
}

/// `bytes` as a message shows them: their first `chars` characters
/// (invalid UTF-8 replaced by U+FFFD), and `...` when there are more, so
/// that a message stays one readable line whatever a record holds.
pub fn excerpt_of(bytes: &[u8], chars: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.into_owned(),
    }
}

/// True for a blank among numbers: `.`, `-`, `_`, `+` (or a run of
/// them), or `-1`, the blank of 0-based data sets.
fn is_blank_number(token: &[u8]) -> bool {
    token == b"-1" || token.iter().all(|b| BLANKS.contains(b))
}

/// Reads values separated by commas or whitespace as numbers: from 0 when
/// `zero_based` says so, or, when it is `None`, when the record writes
/// its blanks otherwise than `0` and still holds a `0` (see the module
/// docs).
fn read_numbers(
    tokens: &[&[u8]],
    shape: Option<Shape>,
    zero_based: Option<bool>,
) -> Result<Read, SymbolsError> {
    let side = side_of(tokens.len()).ok_or(SymbolsError::CellCount(tokens.len()))?;
    let shape = shape_for(side, shape)?;
    // `-1` blanks are 0-based data's: such a record reads from 0 unless a
    // value is `side` (which only numbers from 1 have).
    let zero_based = zero_based.unwrap_or_else(|| {
        let below_side = || {
            tokens.iter().all(|t| {
                is_blank_number(t)
                    || std::str::from_utf8(t)
                        .ok()
                        .and_then(|t| t.parse::<usize>().ok())
                        .is_some_and(|v| v < side)
            })
        };
        tokens.iter().any(|t| is_blank_number(t))
            && tokens.iter().any(|t| t.iter().all(|&b| b == b'0'))
            || tokens.iter().any(|t| *t == b"-1") && below_side()
    });
    let (first, symbols) = if zero_based {
        (0, Symbols::ZeroNumbers)
    } else {
        (1, Symbols::Numbers)
    };
    let mut cells = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let text = std::str::from_utf8(t).unwrap_or("?");
        let value = text
            .parse::<usize>()
            .ok()
            .filter(|&v| v >= first && v < side + first);
        match value {
            Some(v) => cells.push((v + 1 - first) as u8),
            None if is_blank_number(t) || (!zero_based && text.parse() == Ok(0u32)) => {
                cells.push(0);
            }
            None => {
                return Err(SymbolsError::BadNumber {
                    number: excerpt(t),
                    position: i + 1,
                    label: symbols.label(side),
                })
            }
        }
    }
    let grid = SizedGrid::from_cells(shape, cells).ok_or(SymbolsError::CellCount(tokens.len()))?;
    Ok(Read { grid, symbols })
}

/// The alphabet a one-character-per-cell record of `side` is written in
/// (see the module docs).
fn detect(chars: &[u8], side: usize) -> Result<Symbols, SymbolsError> {
    let (mut letters, mut digits, mut zero, mut dots) = (false, false, false, false);
    let (mut lower, mut upper) = (false, false);
    let mut top_letter = 0u8;
    for &b in chars {
        match b {
            b'1'..=b'9' => digits = true,
            b'0' => zero = true,
            _ if BLANKS.contains(&b) => dots = true,
            _ if b.is_ascii_alphabetic() => {
                letters = true;
                lower |= b.is_ascii_lowercase();
                upper |= b.is_ascii_uppercase();
                top_letter = top_letter.max(b.to_ascii_uppercase() - b'A');
            }
            _ => {}
        }
    }
    let lower = lower && !upper;
    Ok(if zero && dots {
        // Blanks written otherwise, so every `0` is a given: a 4x4 in
        // `0-3`, a 16x16 in `0-9A-F`.
        Symbols::ZeroDigitsLetters { lower }
    } else if !letters && side <= 9 {
        Symbols::DigitsLetters { lower }
    } else if letters && digits {
        // `0` and no other blank: a blank of 1-9A-Z, or a symbol of
        // 0-9A-Z. Only a letter past 0-9A-Z's range tells them apart.
        if zero && side > 10 && usize::from(top_letter) < side - 10 {
            return Err(SymbolsError::Ambiguous(format!(
                "'0' is a blank in {} and a symbol in {}",
                Symbols::DigitsLetters { lower }.label(side),
                Symbols::ZeroDigitsLetters { lower }.label(side)
            )));
        }
        Symbols::DigitsLetters { lower }
    } else if letters {
        Symbols::Letters { lower }
    } else {
        Symbols::DigitsLetters { lower }
    })
}

fn read_chars(
    chars: &[u8],
    symbols: Option<&Symbols>,
    shape: Option<Shape>,
) -> Result<Read, SymbolsError> {
    let side = side_of(chars.len()).ok_or(SymbolsError::CellCount(chars.len()))?;
    let shape = shape_for(side, shape)?;
    let symbols = match symbols {
        Some(s) => s.clone(),
        None => detect(chars, side)?,
    };
    if symbols.capacity() < side {
        return Err(SymbolsError::TooFew {
            side,
            label: symbols.to_string(),
            has: symbols.capacity(),
        });
    }
    let mut cells = Vec::with_capacity(chars.len());
    for (i, &b) in chars.iter().enumerate() {
        if symbols.is_blank(b) {
            cells.push(0);
            continue;
        }
        match symbols.value_of(b) {
            Some(v) if usize::from(v) <= side => cells.push(v),
            _ => {
                return Err(SymbolsError::BadSymbol {
                    ch: if b.is_ascii_graphic() {
                        char::from(b).to_string()
                    } else {
                        format!("\\x{b:02X}")
                    },
                    position: i + 1,
                    label: symbols.label(side),
                })
            }
        }
    }
    let grid = SizedGrid::from_cells(shape, cells).ok_or(SymbolsError::CellCount(chars.len()))?;
    Ok(Read { grid, symbols })
}

impl SizedConflict {
    /// The conflict in words with the grid's symbols, as
    /// `K twice in row 3: r3c2, r3c9` (1-based rows and columns).
    pub fn describe(&self, shape: Shape, symbols: &Symbols) -> String {
        format!(
            "{} twice in {} {}: {}, {}",
            symbols.name_of(self.value),
            self.kind,
            self.index + 1,
            cell_name(shape, self.cells.0),
            cell_name(shape, self.cells.1)
        )
    }
}

impl fmt::Display for SizedGrid {
    /// The values as comma-separated numbers, 0 for blanks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Symbols::Numbers.format(self, b'0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(field: &str) -> String {
        read(field.as_bytes(), None, None)
            .map_or_else(|e| e.to_string(), |r| r.symbols.label(r.grid.side()))
    }

    #[test]
    fn a_zero_beside_other_blanks_is_a_given_numbered_from_0() {
        // Characters: `.` blanks and a `0`: 0-based, at every side.
        assert_eq!(found("..31.....0...1.2"), "0-3");
        assert_eq!(found("1..2..3.4......."), "1-4");
        // Numbers: `.` or `-1` blanks beside a `0`: numbered from 0.
        assert_eq!(found("0,1,2,3,.,.,.,.,.,.,.,.,.,.,.,."), "numbers 0-3");
        assert_eq!(
            found("0,1,2,3,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1"),
            "numbers 0-3"
        );
        assert_eq!(found("4,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0"), "numbers 1-4");
        // `-1` blanks without a `0` given: from 0 unless a value is 4.
        assert_eq!(
            found("3,1,2,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1"),
            "numbers 0-3"
        );
        assert_eq!(
            found("4,1,2,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1"),
            "numbers 1-4"
        );
        let read = read(b"3,.,.,0,.,.,.,.,.,.,.,.,.,.,.,.", None, None).unwrap();
        assert_eq!(&read.grid.cells()[..4], [4, 0, 0, 1]);
        assert_eq!(
            read.symbols.format(&read.grid, b'.'),
            "3,.,.,0,.,.,.,.,.,.,.,.,.,.,.,."
        );
        // Written back from 0 with no `0` given, its blanks are `-1`, the
        // one sign of its numbering (`.` blanks would read from 1).
        let zero_less = "3,1,2,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1";
        let read_back = super::read(zero_less.as_bytes(), None, None).unwrap();
        for blank in [b'.', b'0', b'-'] {
            assert_eq!(read_back.symbols.format(&read_back.grid, blank), zero_less);
        }
        // A value outside the alphabet is refused, naming it.
        assert_eq!(
            found("0,1,2,4,.,.,.,.,.,.,.,.,.,.,.,."),
            "number 4 at cell 4 is not one of numbers 0-3 nor a blank (give --symbols)"
        );
        assert_eq!(Symbols::from_name("numbers0"), Ok(Symbols::ZeroNumbers));
        assert_eq!(Symbols::ZeroNumbers.to_string(), "numbers0");
    }

    #[test]
    fn alphabets_are_found_from_the_record() {
        assert_eq!(found("1..2..3.4.......".trim()), "1-4");
        assert_eq!(found(&format!("1A.G{}", ".".repeat(252))), "1-9A-G");
        assert_eq!(found(&format!("0A.F{}", ".".repeat(252))), "0-9A-F");
        assert_eq!(found(&format!("AP{}", "0".repeat(254))), "A-P");
        assert_eq!(found(&format!("ap{}", "+".repeat(254))), "a-p");
        assert_eq!(
            found("2,1,0,0,\n0,3,2,0,\n0,0,0,4,\n1,0,0,0,"),
            "numbers 1-4"
        );
        assert_eq!(found("d,+,b,c,a,+,+,+,c,+,+,+,+,+,+,+"), "a-d");
        assert_eq!(found("d a\tb c a . . . c + + + + + + +"), "a-d");
    }

    #[test]
    fn ambiguous_and_foreign_records_name_the_option() {
        let zero = format!("1A0F{}", "0".repeat(252));
        assert_eq!(
            found(&zero),
            "ambiguous symbols, give --symbols: '0' is a blank in 1-9A-G and a symbol in 0-9A-F"
        );
        let ok = read(
            zero.as_bytes(),
            Some(&Symbols::from_name("1-9A-Z").unwrap()),
            None,
        )
        .unwrap();
        assert_eq!(ok.grid.givens(), 3);
        assert_eq!(
            found(&format!("1AQ{}", ".".repeat(253))),
            "'Q' at position 3 is no symbol of 1-9A-G (give --symbols)"
        );
        assert_eq!(found("1,2,3"), "3 cells: not a square grid of side 4 to 64");
        assert_eq!(
            found(&format!("17{}", ",0".repeat(15))),
            "number 17 at cell 1 is not one of numbers 1-4 nor a blank (give --symbols)"
        );
    }

    #[test]
    fn long_tokens_are_shown_clipped() {
        // A line of 370 digits and a comma: one token of 370 characters.
        let line = format!("{}4.30021E+78,", "5".repeat(370));
        assert_eq!(
            found(&line),
            "'5555555555555555...' at position 1 is no symbol of one character per cell (give --symbols)"
        );
        let numbers = format!("{}{}", "9".repeat(300), ",1".repeat(15));
        assert_eq!(
            found(&numbers),
            "number 9999999999999999... at cell 1 is not one of numbers 1-4 nor a blank (give --symbols)"
        );
        assert_eq!(
            excerpt("é".repeat(17).as_bytes()),
            format!("{}...", "é".repeat(16))
        );
        assert_eq!(excerpt(b"\xFFab"), "\u{FFFD}ab");
    }

    #[test]
    fn grids_are_written_back_in_their_alphabet() {
        for field in [
            format!("1A.G{}", ".".repeat(252)),
            format!("ap{}", ".".repeat(254)),
            format!("0A.F{}", ".".repeat(252)),
        ] {
            let read = read(field.as_bytes(), None, None).unwrap();
            assert_eq!(read.symbols.format(&read.grid, b'.'), field);
        }
        let read = read(b"2,1,0,0,0,3,2,0,0,0,0,4,1,0,0,0", None, None).unwrap();
        assert_eq!(
            read.symbols.format(&read.grid, b'.'),
            "2,1,0,0,0,3,2,0,0,0,0,4,1,0,0,0"
        );
    }

    #[test]
    fn given_strings_and_boxes_are_used() {
        let symbols = Symbols::from_name("abcdef").unwrap();
        let shape: Shape = "3x2".parse().unwrap();
        let read = read(
            format!("af{}", ".".repeat(34)).as_bytes(),
            Some(&symbols),
            Some(shape),
        )
        .unwrap();
        assert_eq!(read.grid.shape(), shape);
        assert_eq!(&read.grid.cells()[..3], &[1, 6, 0]);
        assert!(Symbols::from_name("aab1").is_err());
        assert!(Symbols::from_name("ab.c").is_err());
    }
}
