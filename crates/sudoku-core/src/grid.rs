//! The 9x9 grid: cells, units (rows, columns, boxes), peers, parsing of one
//! puzzle field and formatting back to an 81-character line.
//!
//! Cells are numbered 0..81 in row-major order; rows, columns and boxes are
//! numbered 0..9 in code and 1..9 in messages (`r4c7` is row 4, column 7).
//! Boxes are numbered row-major: box 1 is top left, box 9 bottom right.

use std::fmt;

use thiserror::Error;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// The characters accepted as a blank cell: `.`, `0`, `_` and `-`.
///
/// `.` is the most common in published lists, `0` in the Kaggle CSVs, `_` in
/// some of Royle's 17-clue copies and `-` in a few older collections.
pub const BLANKS: &[u8] = b".0_-";

/// One cell of the grid, 0..81 in row-major order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub u8);

impl Cell {
    /// Row of the cell, 0..9.
    pub fn row(self) -> usize {
        self.0 as usize / 9
    }

    /// Column of the cell, 0..9.
    pub fn col(self) -> usize {
        self.0 as usize % 9
    }

    /// Box of the cell, 0..9 row-major.
    pub fn box_index(self) -> usize {
        self.row() / 3 * 3 + self.col() / 3
    }
}

impl fmt::Display for Cell {
    /// Formats as `r4c7` (1-based row and column).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// The kind of a unit: a row, a column or a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A row of 9 cells.
    Row,
    /// A column of 9 cells.
    Column,
    /// A 3x3 box.
    Box,
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        })
    }
}

const fn build_units() -> [[u8; 9]; 27] {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (i * 9 + j) as u8;
            units[9 + i][j] = (j * 9 + i) as u8;
            let row = i / 3 * 3 + j / 3;
            let col = i % 3 * 3 + j % 3;
            units[18 + i][j] = (row * 9 + col) as u8;
            j += 1;
        }
        i += 1;
    }
    units
}

/// The 27 units as lists of cells: rows 0..9, then columns 9..18, then boxes
/// 18..27. Each unit lists its cells in row-major order.
pub const UNITS: [[u8; 9]; 27] = build_units();

const fn build_peers() -> [[u8; 20]; CELLS] {
    let mut peers = [[0u8; 20]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        let b = r / 3 * 3 + c / 3;
        let mut n = 0;
        let mut other = 0;
        while other < CELLS {
            let (or, oc) = (other / 9, other % 9);
            let ob = or / 3 * 3 + oc / 3;
            if other != cell && (or == r || oc == c || ob == b) {
                peers[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
}

/// The 20 peers of every cell: the other cells of its row, column and box,
/// in ascending order.
pub const PEERS: [[u8; 20]; CELLS] = build_peers();

/// Why a field is not a 9x9 puzzle. Positions are 1-based byte offsets in the
/// field.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The field has 16, 256 or 625 characters: a grid of another size.
    #[error("a {side}x{side} grid: only 9x9 is supported")]
    OtherSize {
        /// Side of the grid (4, 16 or 25).
        side: usize,
    },
    /// A printable ASCII character that is neither a digit nor a blank.
    #[error("bad character '{ch}' at position {position}")]
    BadCharacter {
        /// The character.
        ch: char,
        /// 1-based position in the field.
        position: usize,
    },
    /// A non-ASCII or control byte.
    #[error("byte 0x{byte:02X} at position {position}")]
    BadByte {
        /// The byte.
        byte: u8,
        /// 1-based position in the field.
        position: usize,
    },
    /// Only digits and blanks, but not 81 of them.
    #[error("{count} {}, expected 81", if *count == 1 { "cell" } else { "cells" })]
    CellCount {
        /// Number of cells found.
        count: usize,
    },
}

/// A repeated digit in a unit: the puzzle is `invalid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated digit, 1..=9.
    pub digit: u8,
    /// The kind of unit.
    pub kind: UnitKind,
    /// The unit's index within its kind, 0..9.
    pub index: usize,
    /// The first two cells holding the digit, in unit order.
    pub cells: (Cell, Cell),
}

impl fmt::Display for Conflict {
    /// Formats as `9 twice in row 1: r1c2, r1c3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} twice in {} {}: {}, {}",
            self.digit,
            self.kind,
            self.index + 1,
            self.cells.0,
            self.cells.1
        )
    }
}

/// A 9x9 grid: 81 cells in row-major order, 0 for a blank and 1..=9 for a
/// digit. A small `Copy` value.
///
/// Aligned to 16 bytes (96 in all): grids are copied whole, in 16-byte
/// moves, as records and results pass from the parser to the solver and
/// the row formatter, and at an odd offset (after an `Option`'s or a
/// `Result`'s tag) those moves straddle one another, so each load waits
/// for two stores. Aligned, 1,000,000 Kaggle rows take 0.95x to 0.97x the
/// time at `-j 2` (two series of 10 alternating runs); the solver is as
/// fast.
#[derive(Clone, Copy, Eq)]
#[repr(align(16))]
pub struct Grid {
    cells: [u8; CELLS],
}

impl PartialEq for Grid {
    /// Cell by cell, compared in pieces of 32, 32, 16 and 1 cells: the
    /// compiler compares each piece inline, where one comparison of 81
    /// bytes was a call to `bcmp` (a found solution is compared with the
    /// one the input gives, once a row).
    #[inline]
    fn eq(&self, other: &Grid) -> bool {
        let (a, b) = (&self.cells, &other.cells);
        (a[..32] == b[..32])
            & (a[32..64] == b[32..64])
            & (a[64..80] == b[64..80])
            & (a[80] == b[80])
    }
}

impl std::hash::Hash for Grid {
    /// The cells, as [`PartialEq`] compares them.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells.hash(state);
    }
}

impl Grid {
    /// The empty grid.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// Builds a grid from 81 cell values (0 blank, 1..=9 digit).
    ///
    /// Returns `None` if any value is above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Grid> {
        // A maximum over all cells, without an early exit, vectorises.
        (cells.iter().fold(0, |m, &v| m.max(v)) <= 9).then_some(Grid { cells })
    }

    /// The grid of 81 digits and blanks (see [`BLANKS`]); `None` when a
    /// byte is neither ([`Grid::parse`] says which). Inlined, so that the
    /// grid is written where its caller keeps it, not copied there from a
    /// `Result`.
    #[inline]
    pub fn from_line(bytes: &[u8; CELLS]) -> Option<Grid> {
        Grid::read_line(bytes, |b| {
            let digit = b.wrapping_sub(b'0');
            let is_digit = digit <= 9;
            let bad = !is_digit & (b != b'.') & (b != b'_') & (b != b'-');
            (if is_digit { digit } else { 0 }, bad)
        })
    }

    /// The complete grid of 81 digits `1`-`9` (a solution); `None` when a
    /// byte is anything else.
    #[inline]
    pub fn complete_from_line(bytes: &[u8; CELLS]) -> Option<Grid> {
        Grid::read_line(bytes, |b| {
            let digit = b.wrapping_sub(b'1');
            (digit.wrapping_add(1), digit > 8)
        })
    }

    /// The grid whose cells `cell` reads from `bytes` (a cell's value, and
    /// whether its byte is wrong), in branch-free passes the compiler
    /// vectorises; `None` when a byte is wrong. Read as 64 cells, 16 and
    /// the last one: a single pass over 81 is compiled 16 cells a step
    /// even where 32-byte vectors are enabled (a caller compiled for AVX2),
    /// since 32 does not divide 81; 64 is two such steps.
    #[inline(always)]
    fn read_line(bytes: &[u8; CELLS], cell: impl Fn(u8) -> (u8, bool)) -> Option<Grid> {
        let mut cells = [0u8; CELLS];
        let mut bad = false;
        let mut read = |values: &mut [u8], bytes: &[u8]| {
            for (value, &b) in values.iter_mut().zip(bytes) {
                let (read, wrong) = cell(b);
                *value = read;
                bad |= wrong;
            }
        };
        read(&mut cells[..64], &bytes[..64]);
        read(&mut cells[64..80], &bytes[64..80]);
        read(&mut cells[80..], &bytes[80..]);
        (!bad).then_some(Grid { cells })
    }

    /// Parses one puzzle field: digits `1`-`9` are givens, `.`, `0`, `_` and
    /// `-` are blanks (see [`BLANKS`]). Nothing is trimmed or skipped.
    ///
    /// # Errors
    /// Checked in this order: a field of 16, 256 or 625 bytes is
    /// [`ParseError::OtherSize`]; else the first byte that is not a digit or a
    /// blank gives [`ParseError::BadCharacter`] (printable ASCII) or
    /// [`ParseError::BadByte`]; else a count other than 81 gives
    /// [`ParseError::CellCount`].
    pub fn parse(field: &[u8]) -> Result<Grid, ParseError> {
        // The common case first; anything wrong is found again below, with
        // its position.
        if let Some(grid) = <&[u8; CELLS]>::try_from(field)
            .ok()
            .and_then(Grid::from_line)
        {
            return Ok(grid);
        }
        match field.len() {
            16 => return Err(ParseError::OtherSize { side: 4 }),
            256 => return Err(ParseError::OtherSize { side: 16 }),
            625 => return Err(ParseError::OtherSize { side: 25 }),
            _ => {}
        }
        if let Some(i) = field
            .iter()
            .position(|&b| !b.is_ascii_digit() && !BLANKS.contains(&b))
        {
            let byte = field[i];
            let position = i + 1;
            return Err(if byte.is_ascii_graphic() || byte == b' ' {
                ParseError::BadCharacter {
                    ch: byte as char,
                    position,
                }
            } else {
                ParseError::BadByte { byte, position }
            });
        }
        if field.len() != CELLS {
            return Err(ParseError::CellCount { count: field.len() });
        }
        let mut cells = [0u8; CELLS];
        for (cell, &b) in cells.iter_mut().zip(field) {
            *cell = if b.is_ascii_digit() { b - b'0' } else { 0 };
        }
        Ok(Grid { cells })
    }

    /// The 81 cell values (0 blank, 1..=9 digit).
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value of one cell (0 blank, 1..=9 digit).
    pub fn get(&self, cell: Cell) -> u8 {
        self.cells[cell.0 as usize]
    }

    /// Sets one cell (0 blank, 1..=9 digit).
    ///
    /// # Panics
    /// If `value` is above 9.
    pub fn set(&mut self, cell: Cell, value: u8) {
        assert!(value <= 9, "cell value {value} out of range");
        self.cells[cell.0 as usize] = value;
    }

    /// Number of givens (filled cells).
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when every cell is filled.
    pub fn is_complete(&self) -> bool {
        // A minimum over all cells, without an early exit, vectorises.
        self.cells.iter().fold(9, |m, &v| m.min(v)) != 0
    }

    /// The first repeated digit, checking rows 1..9, then columns, then
    /// boxes, each unit scanned in order. `None` when the givens are
    /// consistent.
    pub fn first_conflict(&self) -> Option<Conflict> {
        // Most grids have no conflict: find that out with bitmasks, and scan
        // the units in order only to name the first conflict.
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        let mut clash = false;
        for (r, row) in self.cells.chunks_exact(9).enumerate() {
            for (c, &v) in row.iter().enumerate() {
                let bit = (1u16 << v) & !1;
                let b = r / 3 * 3 + c / 3;
                clash |= (rows[r] | cols[c] | boxes[b]) & bit != 0;
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[b] |= bit;
            }
        }
        if !clash {
            return None;
        }
        for (u, unit) in UNITS.iter().enumerate() {
            let mut seen = [None::<Cell>; 10];
            for &c in unit {
                let cell = Cell(c);
                let v = self.get(cell) as usize;
                if v == 0 {
                    continue;
                }
                if let Some(first) = seen[v] {
                    let kind = match u / 9 {
                        0 => UnitKind::Row,
                        1 => UnitKind::Column,
                        _ => UnitKind::Box,
                    };
                    return Some(Conflict {
                        digit: v as u8,
                        kind,
                        index: u % 9,
                        cells: (first, cell),
                    });
                }
                seen[v] = Some(cell);
            }
        }
        None
    }

    /// True when `self` is a complete grid with no repeated digit that keeps
    /// every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.is_complete()
            && self.first_conflict().is_none()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&p, &s)| p == 0 || p == s)
    }

    /// The 81-character line as ASCII bytes, `.` for blanks; no allocation.
    pub fn line_bytes(&self) -> [u8; CELLS] {
        let mut line = [0u8; CELLS];
        // Branch-free over a zip, so that it vectorises: `.` is `0` less 2.
        for (byte, &v) in line.iter_mut().zip(&self.cells) {
            *byte = b'0' + v - 2 * u8::from(v == 0);
        }
        line
    }

    /// Formats as an 81-character line, `.` for blanks.
    pub fn to_line(&self) -> String {
        self.line_bytes().iter().map(|&b| b as char).collect()
    }
}

impl fmt::Display for Grid {
    /// Same as [`Grid::to_line`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "016400000200009000400000062070230100100000003003087040960000005000800007000006820";

    fn message(field: &str) -> String {
        Grid::parse(field.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn grids_differing_in_any_one_cell_are_not_equal() {
        let grid = Grid::parse(PUZZLE.as_bytes()).unwrap();
        let copy = grid;
        assert_eq!(grid, copy);
        for i in 0..CELLS {
            let mut other = grid;
            other.set(Cell(i as u8), (grid.cells()[i] + 1) % 10);
            assert_ne!(grid, other, "cell {i}");
            assert_ne!(other, grid, "cell {i}");
        }
    }

    /// 81 bytes: a puzzle, a solution or any mix of digits, blanks and a
    /// few bytes that are neither, with up to 3 bytes changed.
    fn line() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        const SOLUTION: &[u8] =
            b"316452978285679314497318562879234156142965783653187249968721435521843697734596821";
        let byte = proptest::sample::select(b"123456789.0_-/:a\x00\xff ".to_vec());
        let start = prop_oneof![
            Just(SOLUTION.to_vec()),
            Just(PUZZLE.as_bytes().to_vec()),
            proptest::collection::vec(byte.clone(), CELLS),
        ];
        let edits = proptest::collection::vec((0..CELLS, byte), 0..3);
        (start, edits).prop_map(|(mut line, edits)| {
            for (i, b) in edits {
                line[i] = b;
            }
            line
        })
    }

    proptest::proptest! {
        #[test]
        fn a_line_reads_as_the_parser_reads_it(bytes in line()) {
            let line = <&[u8; CELLS]>::try_from(&bytes[..]).unwrap();
            let parsed = Grid::parse(&bytes).ok();
            proptest::prop_assert_eq!(Grid::from_line(line), parsed);
            proptest::prop_assert_eq!(
                Grid::complete_from_line(line),
                parsed.filter(Grid::is_complete)
            );
        }
    }

    #[test]
    fn parses_and_formats_with_dot_blanks() {
        let grid = Grid::parse(PUZZLE.as_bytes()).unwrap();
        assert_eq!(grid.givens(), 26);
        assert_eq!(grid.to_line(), PUZZLE.replace('0', "."));
        assert_eq!(Grid::parse(grid.to_line().as_bytes()).unwrap(), grid);
    }

    #[test]
    fn every_blank_character_is_a_blank() {
        for blank in ["0", ".", "_", "-"] {
            let grid = Grid::parse(PUZZLE.replace('0', blank).as_bytes()).unwrap();
            assert_eq!(grid.to_line(), PUZZLE.replace('0', "."));
        }
    }

    #[test]
    fn size_message_comes_first() {
        assert_eq!(
            message(&"A".repeat(256)),
            "a 16x16 grid: only 9x9 is supported"
        );
        assert_eq!(
            message(&"1".repeat(16)),
            "a 4x4 grid: only 9x9 is supported"
        );
        assert_eq!(
            message(&".".repeat(625)),
            "a 25x25 grid: only 9x9 is supported"
        );
    }

    #[test]
    fn bad_character_names_position() {
        assert_eq!(
            message(&format!("{PUZZLE}abc")),
            "bad character 'a' at position 82"
        );
        assert_eq!(message("12\u{e9}"), "byte 0xC3 at position 3");
        let mut bad = PUZZLE.as_bytes().to_vec();
        bad[40] = b'x';
        assert_eq!(
            message(std::str::from_utf8(&bad).unwrap()),
            "bad character 'x' at position 41"
        );
        bad[40] = b'/';
        assert_eq!(
            message(std::str::from_utf8(&bad).unwrap()),
            "bad character '/' at position 41"
        );
        bad[40] = b':';
        assert_eq!(
            message(std::str::from_utf8(&bad).unwrap()),
            "bad character ':' at position 41"
        );
        assert_eq!(message("1\t2"), "byte 0x09 at position 2");
    }

    #[test]
    fn wrong_cell_count() {
        assert_eq!(message(&PUZZLE[..80]), "80 cells, expected 81");
        assert_eq!(message(&format!("{PUZZLE}5")), "82 cells, expected 81");
        assert_eq!(message(""), "0 cells, expected 81");
        assert_eq!(message("5"), "1 cell, expected 81");
    }

    #[test]
    fn conflicts_name_digit_unit_and_cells() {
        let grid = Grid::parse(
            b".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6..",
        )
        .unwrap();
        assert_eq!(
            grid.first_conflict().unwrap().to_string(),
            "9 twice in row 1: r1c2, r1c3"
        );
        let mut column = Grid::EMPTY;
        column.set(Cell(4), 5);
        column.set(Cell(76), 5);
        assert_eq!(
            column.first_conflict().unwrap().to_string(),
            "5 twice in column 5: r1c5, r9c5"
        );
        let mut boxed = Grid::EMPTY;
        boxed.set(Cell(80), 3);
        boxed.set(Cell(60), 3);
        assert_eq!(
            boxed.first_conflict().unwrap().to_string(),
            "3 twice in box 9: r7c7, r9c9"
        );
    }

    #[test]
    fn units_and_peers_are_consistent() {
        for (cell, peers) in PEERS.iter().enumerate() {
            assert!(!peers.contains(&(cell as u8)));
            let c = Cell(cell as u8);
            for &p in peers {
                let p = Cell(p);
                assert!(p.row() == c.row() || p.col() == c.col() || p.box_index() == c.box_index());
            }
        }
        assert_eq!(UNITS[18 + 4], [30, 31, 32, 39, 40, 41, 48, 49, 50]);
    }

    #[test]
    fn solution_check_keeps_givens() {
        let solution = Grid::parse(
            b"316452978285679314497318562879234156142965783653187249968721435521843697734596821",
        )
        .unwrap();
        let puzzle = Grid::parse(PUZZLE.as_bytes()).unwrap();
        assert!(solution.is_solution_of(&puzzle));
        let mut other = puzzle;
        other.set(Cell(0), 9);
        assert!(!solution.is_solution_of(&other));
        assert!(!puzzle.is_solution_of(&puzzle));
    }
}
