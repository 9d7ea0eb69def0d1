//! Multi-line grids: telling a grid file, and reading one.
//!
//! A grid row is a line that holds n cells for a side n with boxes (4, 6,
//! 8, 9, 10, 12, ... 64): one token of cell characters (`003020600`,
//! `_________`, or letters and digits with a blank among them, as
//! `5..C..8.1...`), single-character tokens (`4 . . |. . . |8 . 5`,
//! `k,+,m,...`), or numbers of one or two digits (`0,11,9,...`). Titles
//! (`Grid 01`) and separators (`========`, `------+------+------`) come
//! between grids; a line of text that no grid follows, or one that holds
//! cells but is no row, is a `malformed` record naming its line.

use std::collections::VecDeque;
use std::io::BufRead;

use memchr::memchr2;
use sudoku_core::grid::{Grid, ParseError, CELLS};

use super::frame::too_long;
use super::frame::{Framer, MAX_RECORD};
use super::sized::{self, SizeOptions};
use super::{InputError, Record};
use sudoku_core::sizes::Shape;

/// True for a grid side a row can have: 9, or a side from 4 to 64 with
/// usual boxes (not a prime).
pub fn is_side(n: usize) -> bool {
    n == 9 || Shape::usual(n).is_ok()
}

/// True for a cell count that is also a one-line grid of a side with boxes
/// (16, 36, 64: 4x4, 6x6, 8x8): a line of such a count may be a row of a
/// grid of that side, or a whole grid.
fn one_line_count(n: usize) -> bool {
    sudoku_core::sizes::side_of(n).is_some_and(is_side)
}

/// True for a blank character of a grid row other than `0`.
#[inline]
fn is_blank_mark(b: u8) -> bool {
    matches!(b, b'.' | b'_' | b'-' | b'+' | b'*')
}

/// A number too large for a 9x9 cell, in [`row`]'s output.
const BIG: u8 = 0xFF;

/// What a line is, to a grid reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// Blank.
    Blank,
    /// A `#` comment.
    Comment,
    /// A separator drawn with `-`, `=`, `+`, `*`, `~` or `|`.
    Separator,
    /// Words or anything else that is not cells.
    Title,
    /// Holds this many cells; the cells are in the `cells` buffer.
    Cells(usize),
}

#[inline]
fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0B | 0x0C | b',' | b';' | b'|')
}

/// A cell character that is not a letter: a digit or a blank.
#[inline]
fn is_plain_cell(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-' | b'+' | b'*')
}

/// Classifies a line and puts its cells (one byte each: the character, the
/// digit for a one-digit number, or [`BIG`]) in `cells`.
pub fn row(line: &[u8], cells: &mut Vec<u8>) -> Row {
    cells.clear();
    let Some(first) = line.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Row::Blank;
    };
    if line[first] == b'#' {
        return Row::Comment;
    }
    let drawn = |b: &u8| b"-=+*~|".contains(b) || b.is_ascii_whitespace();
    if line.iter().all(drawn)
        && (line.iter().any(|b| b"=~*|".contains(b))
            || (line.contains(&b'+') && line.contains(&b'-')))
    {
        return Row::Separator;
    }
    let tokens = || line.split(|&b| is_separator(b)).filter(|t| !t.is_empty());
    let count = tokens().count();
    if count >= 2
        && tokens().all(|t| t.len() == 1 && (t[0].is_ascii_alphanumeric() || is_plain_cell(t[0])))
    {
        cells.extend(tokens().map(|t| t[0]));
        return Row::Cells(count);
    }
    if count >= 2 && tokens().all(|t| t.len() <= 2 && t.iter().all(u8::is_ascii_digit)) {
        cells.extend(tokens().map(|t| match t {
            [d] => *d,
            [b'0', d] => *d,
            _ => BIG,
        }));
        return Row::Cells(count);
    }
    // Groups of cells (`003 020 600`), unless a group is a whole one-line
    // grid (`3102200002100320,3142243142131324`: a 4x4 and its solution).
    if tokens().all(|t| t.iter().all(|&b| is_plain_cell(b)))
        && (count < 2 || !tokens().any(|t| t.len() == CELLS || one_line_count(t.len())))
    {
        cells.extend(tokens().flatten());
        return Row::Cells(cells.len());
    }
    if count == 1 {
        let t = tokens().next().unwrap_or_default();
        let cellish = t
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || is_plain_cell(b));
        // A row of letters and digits needs a blank to be told from a word
        // (`Puzzle`, `Grid01`), but for the sizes always read so.
        if cellish
            && ([16, 25, 256, 625].contains(&t.len())
                || (is_side(t.len()) && t.iter().any(|&b| is_blank_mark(b))))
        {
            cells.extend_from_slice(t);
            return Row::Cells(t.len());
        }
    }
    Row::Title
}

/// A line that is one token of `side` letters, digits and blanks: a row of
/// the open grid of that side even without a blank (`CABDFE`).
fn letter_row(line: &[u8], side: usize, cells: &mut Vec<u8>) -> bool {
    let t = line.trim_ascii();
    let ok = t.len() == side
        && t.iter()
            .all(|&b| b.is_ascii_alphanumeric() || is_plain_cell(b));
    if ok {
        cells.clear();
        cells.extend_from_slice(t);
    }
    ok
}

/// True for a line that is not a row, title or separator but holds cells:
/// binary bytes, or a token of 4 or more letters, digits and blanks with
/// at least two blanks (`..4.@..`, a grid row cut or run together). Such a
/// line is reported, never skipped as a title.
fn is_junk(line: &[u8]) -> bool {
    if !super::field::is_text(line) {
        return true;
    }
    line.split(|&b| is_separator(b)).any(|t| {
        t.len() >= 4
            && t.iter().all(|&b| b.is_ascii_graphic())
            && t.iter()
                .filter(|&&b| matches!(b, b'.' | b'_' | b'*'))
                .count()
                >= 2
            && t.iter().any(|&b| b.is_ascii_alphanumeric())
    }) || super::field::looks_like_puzzle(line.trim_ascii())
}

/// The verdict on the start of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detected {
    /// Not enough lines yet.
    Undecided,
    /// Not a grid file.
    NotGrid,
    /// A grid file: see [`detect`].
    Grid {
        /// Line of the first grid row.
        line: u64,
        /// The side.
        side: usize,
    },
}

/// Tells whether `prefix`, the start of an input (all of it when `eof`),
/// is a grid file: the first two lines that are not blanks, comments,
/// titles or separators hold the same number of cells n, a side with boxes
/// (4, 6, 8, 9, 10, 12, ... 64). When n is also the cell count of a
/// one-line grid (16, 36, 64: a 4x4, 6x6 or 8x8 on one line), the first
/// block of such rows (up to a blank line, a title, another count or the
/// end) must hold exactly n of them, a whole grid; fewer or more are one
/// grid per line.
pub fn detect(prefix: &[u8], eof: bool) -> Detected {
    let prefix = prefix.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(prefix);
    let mut rest = prefix;
    let mut line_no = 0u64;
    let mut first: Option<(u64, usize)> = None;
    let mut rows = 0usize;
    let mut cells = Vec::new();
    // The verdict where the first block of rows ends.
    let ended = |first: Option<(u64, usize)>, rows: usize| match first {
        Some((line, side)) if one_line_count(side) && rows == side => Detected::Grid { line, side },
        _ => Detected::NotGrid,
    };
    loop {
        line_no += 1;
        // `\n`, `\r\n` and a lone `\r` each end a line.
        let (line, complete) = match memchr2(b'\n', b'\r', rest) {
            Some(i) => {
                let line = &rest[..i];
                let crlf = rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n');
                rest = &rest[i + 1 + usize::from(crlf)..];
                (line, true)
            }
            None => (rest, false),
        };
        if !complete {
            if line.len() > MAX_RECORD {
                return Detected::NotGrid;
            }
            if !eof {
                return Detected::Undecided;
            }
            if line.is_empty() {
                return ended(first, rows);
            }
        }
        if holds_puzzle(line) {
            return Detected::NotGrid;
        }
        let n = if line.len() > MAX_RECORD + 1 {
            0
        } else {
            match row(line, &mut cells) {
                Row::Cells(n) => n,
                kind => {
                    let block = first.is_some_and(|(_, side)| one_line_count(side));
                    if block && !matches!(kind, Row::Separator | Row::Comment) {
                        return ended(first, rows);
                    }
                    if complete {
                        continue;
                    }
                    return ended(first, rows);
                }
            }
        };
        match first {
            // Decided on one row when it cannot be a grid row.
            None if !is_side(n) => return Detected::NotGrid,
            None => {
                first = Some((line_no, n));
                rows = 1;
            }
            Some((line, side)) if !one_line_count(side) => {
                return if side == n {
                    Detected::Grid { line, side }
                } else {
                    Detected::NotGrid
                };
            }
            Some((_, side)) if n != side => return ended(first, rows),
            Some((_, side)) => {
                rows += 1;
                if rows > side {
                    return Detected::NotGrid;
                }
            }
        }
        if !complete {
            return ended(first, rows);
        }
    }
}

/// True when `line` holds an 81-cell puzzle among other text (fields, a
/// quote): a grid file has none, whatever the lines after it hold (a CSV
/// row whose quoted note runs on over lines of a few digits each).
fn holds_puzzle(line: &[u8]) -> bool {
    line.split(|&b| is_separator(b) || b == b'"')
        .any(|t| t.len() == CELLS && t.iter().all(|&b| is_plain_cell(b)))
}

/// Records from a grid file: one per grid, at the line of its first row.
pub struct GridReader<R> {
    framer: Framer<R>,
    name: String,
    cells: Vec<u8>,
    row: Vec<u8>,
    /// The grid being read: its first line and side.
    open: Option<(u64, usize)>,
    rows: usize,
    /// The grid being read writes blanks as `-`.
    dashes: bool,
    /// Records found while closing an unfinished grid or at a line that
    /// showed the titles before it were no titles, returned next in order.
    pending: VecDeque<Record>,
    /// Lines of text since the last grid: titles if a grid follows, else
    /// reported (`malformed`) when the input ends or a record that is no
    /// grid comes.
    titles: Vec<Record>,
    /// The rows of a grid of another size than 9x9 so far, their cells
    /// as written, separated by commas.
    raw: Vec<u8>,
    /// The grid being read writes its cells as numbers (a token of two
    /// digits, or commas between the cells): read in the `numbers`
    /// alphabet; else one character per cell, in the alphabet they show.
    numbers: bool,
    /// How grids of other sizes are read.
    sizes: SizeOptions,
}

impl<R: BufRead> GridReader<R> {
    /// A reader over `src` (named `name` in errors).
    pub fn new(src: R, name: String) -> GridReader<R> {
        GridReader {
            framer: Framer::new(src, false),
            name,
            cells: Vec::with_capacity(CELLS),
            row: Vec::with_capacity(32),
            open: None,
            rows: 0,
            dashes: false,
            pending: VecDeque::new(),
            titles: Vec::new(),
            raw: Vec::new(),
            numbers: false,
            sizes: SizeOptions::default(),
        }
    }

    /// The reader, reading grids of other sizes than 9x9 with `sizes`.
    pub fn with_sizes(mut self, sizes: SizeOptions) -> GridReader<R> {
        self.sizes = sizes;
        self
    }

    /// True when a row of `n` cells can start a grid: 9, or a side with
    /// boxes (the usual ones, or `--box`).
    fn is_side(&self, n: usize) -> bool {
        n == 9 || Shape::usual(n).is_ok() || self.sizes.shape.is_some_and(|s| s.side() == n)
    }

    /// The rows of a box of a grid of `side`.
    fn box_rows(&self, side: usize) -> usize {
        match self.sizes.shape.filter(|s| s.side() == side) {
            Some(shape) => shape.box_rows(),
            None => Shape::usual(side).map_or(3, Shape::box_rows),
        }
    }

    /// Adds the current line's cells to [`GridReader::raw`].
    fn add_raw(&mut self) {
        let line = self.framer.bytes();
        let tokens = line.split(|&b| is_separator(b)).filter(|t| !t.is_empty());
        let tokens: Vec<&[u8]> = tokens.collect();
        let digits = |t: &[u8]| t.iter().all(u8::is_ascii_digit);
        self.numbers |= tokens.len() > 1 && line.contains(&b',')
            || tokens.iter().any(|t| t.len() == 2 && digits(t));
        for t in tokens {
            if !self.raw.is_empty() {
                self.raw.push(b',');
            }
            if t.len() <= 2 && t.iter().all(u8::is_ascii_digit) {
                self.raw.extend_from_slice(t);
            } else {
                // A row written as one token of characters, one per cell.
                for (i, &b) in t.iter().enumerate() {
                    if i > 0 {
                        self.raw.push(b',');
                    }
                    self.raw.push(b);
                }
            }
        }
    }
    /// Ends the grid being read before its last row, as a malformed record.
    fn cut(&mut self, why: &str) -> Option<Record> {
        let (line, side) = self.open.take()?;
        Some(Record::new(
            line,
            Err(format!(
                "a {side}x{side} grid cut short after {} of {side} rows ({why})",
                self.rows
            )),
            None,
        ))
    }

    /// The finished grid as a record.
    fn finish(&mut self) -> Option<Record> {
        let (line, side) = self.open.take()?;
        if side != 9 {
            let mut record =
                Record::new(line, Err(ParseError::OtherSize { side }.to_string()), None);
            if !self.numbers {
                // One character per cell: read in the alphabet they show,
                // and written back in it.
                self.raw.retain(|&b| b != b',');
            }
            record.set_sized(sized::read(&self.raw, None, &self.sizes));
            return Some(record);
        }
        let puzzle = if let Some(i) = self.cells.iter().position(|&c| c == BIG) {
            Err(format!("a number over 9 at r{}c{}", i / 9 + 1, i % 9 + 1))
        } else {
            Grid::parse(&self.cells).map_err(|e| match e {
                ParseError::BadCharacter { ch, position } => {
                    format!("bad character '{ch}' at {}", cell_name(position))
                }
                ParseError::BadByte { byte, position } => {
                    format!("byte 0x{byte:02X} at {}", cell_name(position))
                }
                e => e.to_string(),
            })
        };
        Some(Record::new(line, puzzle, None))
    }

    /// The lines of text since the last grid, reported: no grid follows
    /// them.
    fn flush_titles(&mut self) {
        self.pending.extend(self.titles.drain(..));
    }

    /// A line of text with no grid open: a title, or reported at once.
    fn text_line(&mut self, line: u64) {
        let bytes = self.framer.bytes();
        if is_junk(bytes) {
            self.flush_titles();
            self.pending.push_back(Record::new(
                line,
                Err("not a grid row, title or separator".into()),
                None,
            ));
        } else {
            self.titles.push(Record::new(
                line,
                Err("a line of text that no grid follows".into()),
                None,
            ));
        }
    }

    /// The next record, `None` at the end of the input.
    pub fn next_record(&mut self) -> Option<Result<Record, InputError>> {
        loop {
            if let Some(record) = self.pending.pop_front() {
                return Some(Ok(record));
            }
            match self.step() {
                Step::Record(record) => {
                    self.flush_titles();
                    self.pending.push_back(*record);
                }
                Step::More => {}
                Step::End => {
                    if let Some(cut) = self.cut("end of input") {
                        self.pending.push_back(cut);
                    }
                    self.flush_titles();
                    if self.pending.is_empty() {
                        return None;
                    }
                }
                Step::Error(e) => return Some(Err(e)),
            }
        }
    }

    /// Reads one line: a record ends there, or not yet.
    fn step(&mut self) -> Step {
        let frame = match self.framer.next() {
            Ok(Some(frame)) => frame,
            Ok(None) => return Step::End,
            Err(e) => return Step::Error(InputError::io(&self.name, e)),
        };
        if frame.too_long {
            let record = Record::new(frame.line, Err(too_long(MAX_RECORD)), None);
            return match self.cut("a line too long") {
                Some(cut) => {
                    self.pending.push_back(cut);
                    Step::Record(Box::new(record))
                }
                None => Step::Record(Box::new(record)),
            };
        }
        let mut kind = row(self.framer.bytes(), &mut self.row);
        if let Some((_, side)) = self.open {
            if kind == Row::Title && letter_row(self.framer.bytes(), side, &mut self.row) {
                kind = Row::Cells(side);
            }
        }
        if let Row::Cells(n) = kind {
            // A line of dashes is a rule, unless it is a row of blanks
            // in a grid that writes its blanks as `-`.
            let dash_row = self.dashes && self.open.is_some_and(|(_, side)| side == n);
            if self.row.iter().all(|&c| c == b'-') && !dash_row {
                kind = Row::Separator;
            }
        }
        if self.framer.bytes() == b"\x1A" {
            return Step::More;
        }
        let cut = match (kind, self.open) {
            (Row::Comment, _) | (Row::Separator | Row::Blank, None) => return Step::More,
            // A rule between bands of boxes (`------+------+------`)
            // belongs to the grid; any other separator ends it.
            (Row::Separator, Some((_, side)))
                if self.rows.is_multiple_of(self.box_rows(side))
                    && !self.framer.bytes().contains(&b'=') =>
            {
                return Step::More
            }
            (Row::Separator, Some(_)) => self.cut("a separator line"),
            (Row::Title, None) => {
                self.text_line(frame.line);
                return Step::More;
            }
            (Row::Blank, Some(_)) => self.cut("a blank line"),
            (Row::Title, Some(_)) => {
                let cut = self.cut("a line of text");
                // It may be the next grid's title.
                self.text_line(frame.line);
                cut
            }
            (Row::Cells(n), Some((_, side))) if n == side => {
                self.rows += 1;
                self.dashes |= self.row.contains(&b'-');
                if side == 9 {
                    self.cells.extend_from_slice(&self.row);
                } else {
                    self.add_raw();
                }
                if self.rows == side {
                    self.finish()
                } else {
                    None
                }
            }
            (Row::Cells(n), Some(_)) => {
                let why = format!(
                    "line {} has {}",
                    frame.line,
                    crate::process::words::count(n as u64, "cell", "cells")
                );
                self.cut(&why)
            }
            (Row::Cells(n), None) if self.is_side(n) => {
                self.titles.clear();
                self.open = Some((frame.line, n));
                self.dashes = self.row.contains(&b'-');
                self.rows = 1;
                self.cells.clear();
                self.raw.clear();
                self.numbers = false;
                if n == 9 {
                    self.cells.extend_from_slice(&self.row);
                } else {
                    self.add_raw();
                }
                None
            }
            (Row::Cells(_), None) => {
                let line = self.framer.bytes();
                let puzzle = match super::field::puzzle(line.trim_ascii()) {
                    Some(grid) => Ok(grid),
                    None => Err(format!(
                        "{}: not a grid row (4 to 64 cells, a side with boxes)",
                        crate::process::words::count(self.row.len() as u64, "cell", "cells")
                    )),
                };
                return Step::Record(Box::new(Record::new(frame.line, puzzle, None)));
            }
        };
        match cut {
            Some(record) => {
                // Records found at this line come after the grid it ends.
                self.pending.push_front(record);
                Step::More
            }
            None => Step::More,
        }
    }
}

/// What one line of a grid file gave.
enum Step {
    /// A record that is no grid (an 81-cell line, a row of no grid's
    /// size, a line too long): the titles before it were none. Boxed: a
    /// record is three times the other variants.
    Record(Box<Record>),
    /// Nothing more yet, or records queued in [`GridReader::pending`].
    More,
    /// The end of the input.
    End,
    /// A read error.
    Error(InputError),
}

/// `r3c4` for a 1-based position in an 81-cell field.
fn cell_name(position: usize) -> String {
    format!("r{}c{}", (position - 1) / 9 + 1, (position - 1) % 9 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(line: &str) -> Row {
        row(line.as_bytes(), &mut Vec::new())
    }

    #[test]
    fn rows_titles_and_separators() {
        assert_eq!(kind("003020600"), Row::Cells(9));
        assert_eq!(kind("_________"), Row::Cells(9));
        assert_eq!(kind("4 . . |. . . |8 . 5"), Row::Cells(9));
        assert_eq!(kind("2,1,0,0,"), Row::Cells(4));
        assert_eq!(
            kind("0,11,9,0,0,16,13,4,0,0,14,0,10,6,15,0,"),
            Row::Cells(16)
        );
        assert_eq!(kind("k,+,m,c,j,f,+,+,a,+,g,l,+,+,+,+\r"), Row::Cells(16));
        assert_eq!(kind("1465"), Row::Cells(4));
        assert_eq!(kind("Grid 01"), Row::Title);
        assert_eq!(kind("quizzes,solutions"), Row::Title);
        assert_eq!(kind("========"), Row::Separator);
        assert_eq!(kind("------+------+------"), Row::Separator);
        assert_eq!(kind("---------"), Row::Cells(9));
        assert_eq!(kind("  "), Row::Blank);
        assert_eq!(kind("# x"), Row::Comment);
    }

    fn verdict(data: &str) -> Detected {
        detect(data.as_bytes(), true)
    }

    #[test]
    fn detection() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        assert_eq!(verdict(&format!("1465\n{p}\n{p}\n")), Detected::NotGrid);
        assert_eq!(verdict(&format!("{p}\n{p}")), Detected::NotGrid);
        assert_eq!(
            verdict("Grid 01\n003020600\n900305001\n"),
            Detected::Grid { line: 2, side: 9 }
        );
        assert_eq!(
            verdict("# c\n\n2,1,0,0,\n0,3,2,0,"),
            Detected::Grid { line: 3, side: 4 }
        );
        assert_eq!(verdict("003020600\n"), Detected::NotGrid);
        assert_eq!(detect(b"003020600\n", false), Detected::Undecided);
        assert_eq!(detect(b"003020600\n9003", false), Detected::Undecided);
        assert_eq!(
            detect(format!("{p}\n").as_bytes(), false),
            Detected::NotGrid
        );
        assert_eq!(detect(&[b'1'; 5000], false), Detected::NotGrid);
        // Found by the `records` fuzz target: a CSV row's quoted note runs
        // on over lines of four digits, which read as two 4x4 grid rows.
        let csv = format!("puzzle,note\n{p},\"seen in\n2019\n2020\n\"\n");
        assert_eq!(verdict(&csv), Detected::NotGrid);
        assert_eq!(
            verdict(&format!("\"{p}\"\n2019\n2020\n")),
            Detected::NotGrid
        );
    }

    #[test]
    fn every_side_with_boxes_and_one_line_grids_told_apart() {
        let six = "4.....\n..6.42\n......\n521.6.\n...1.3\n1.....\n";
        assert_eq!(verdict(six), Detected::Grid { line: 1, side: 6 });
        let twelve = "5..C..8.1...\n8...5.14..A.\n";
        assert_eq!(verdict(twelve), Detected::Grid { line: 1, side: 12 });
        // Five lines of 16 cells are five 4x4 puzzles; 16 of them a grid.
        let four = "..42.....1...2.3\n...3.1.44.......\n";
        assert_eq!(verdict(&four.repeat(2)), Detected::NotGrid);
        let sixteen = "..4...1........D\n".repeat(16);
        assert_eq!(verdict(&sixteen), Detected::Grid { line: 1, side: 16 });
        assert_eq!(
            verdict(&format!("{sixteen}\nGrid 2\n{sixteen}")),
            Detected::Grid { line: 1, side: 16 }
        );
        assert_eq!(verdict(&"..4...1........D\n".repeat(17)), Detected::NotGrid);
        assert_eq!(
            detect("..4...1........D\n".repeat(5).as_bytes(), false),
            Detected::Undecided
        );
        // Words are no rows.
        assert_eq!(kind("Puzzle"), Row::Title);
        assert_eq!(kind("Grid01"), Row::Title);
        assert_eq!(kind("5..C..8.1..."), Row::Cells(12));
    }

    #[test]
    fn titles_need_a_grid_after_them_and_junk_is_reported() {
        let got = read("Grid 1\n2,1,0,0\n0,3,2,0\n0,0,0,4\n1,0,0,0\nx..4..y\nThe end\n");
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].0, 2);
        assert_eq!(
            got[1],
            (6, Err("not a grid row, title or separator".into()))
        );
        assert_eq!(
            got[2],
            (7, Err("a line of text that no grid follows".into()))
        );
        // Letter rows inside a grid need no blank.
        let got = read("AB..\n..AB\nBADC\nDC..\n");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1, Err("a 4x4 grid: only 9x9 is supported".into()));
    }

    fn read(data: &str) -> Vec<(u64, Result<String, String>)> {
        let mut r = GridReader::new(data.as_bytes(), "g".into());
        std::iter::from_fn(|| r.next_record())
            .map(|r| {
                let r = r.unwrap();
                (r.line, r.puzzle.map(|g| g.to_line()))
            })
            .collect()
    }

    const GRID: &str = "003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\n";
    const LINE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn reads_grids_with_titles_and_separators() {
        let data = format!(
            "Grid 01\n{GRID}========\n\n{}",
            GRID.replace("0", " . ").replace("\n", "\r\n")
        );
        assert_eq!(
            read(&data),
            vec![(2, Ok(LINE.into())), (13, Ok(LINE.into()))]
        );
    }

    #[test]
    fn cut_grids_and_other_sizes() {
        let short: String = GRID.lines().take(5).map(|l| format!("{l}\n")).collect();
        let data = format!(
            "{short}\n{GRID}2,1,0,0\n0,3,2,0\n0,0,0,4\n1,0,0,0\nThe end\n{}",
            &GRID[..20]
        );
        let got = read(&data);
        assert_eq!(
            got[0],
            (
                1,
                Err("a 9x9 grid cut short after 5 of 9 rows (a blank line)".into())
            )
        );
        assert_eq!(got[1], (7, Ok(LINE.into())));
        assert_eq!(
            got[2],
            (16, Err("a 4x4 grid: only 9x9 is supported".into()))
        );
        assert_eq!(
            got[3],
            (
                21,
                Err("a 9x9 grid cut short after 2 of 9 rows (end of input)".into())
            )
        );
        assert_eq!(got.len(), 4);
        // A separator ends a grid cut short: never joined with the next.
        let short: String = GRID.lines().take(4).map(|l| format!("{l}\n")).collect();
        let got = read(&format!("{short}========\n{GRID}"));
        assert_eq!(
            got,
            vec![
                (
                    1,
                    Err("a 9x9 grid cut short after 4 of 9 rows (a separator line)".into())
                ),
                (6, Ok(LINE.into()))
            ]
        );
        // Rules between bands of boxes are part of the grid.
        let ruled: Vec<&str> = GRID.lines().collect();
        let ruled = format!(
            "{}\n------+------+------\n{}\n---+---+---\n{}\n",
            ruled[..3].join("\n"),
            ruled[3..6].join("\n"),
            ruled[6..].join("\n")
        );
        assert_eq!(read(&ruled), vec![(1, Ok(LINE.into()))]);
        // A line of dashes is a rule too, or a row of blanks in a grid
        // written with `-` blanks.
        let got = read(&format!("{short}---------\n{GRID}"));
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, 1);
        assert!(got[0].1.is_err());
        let dashed = GRID.replace('0', "-").replacen("7-------8", "---------", 1);
        let blank_row = LINE.replacen("7.......8", ".........", 1);
        assert_eq!(read(&dashed), vec![(1, Ok(blank_row))]);
        let wide = format!(
            "{}\n---------------------\n{}\n",
            GRID.lines().take(3).collect::<Vec<_>>().join("\n"),
            GRID.lines().skip(3).collect::<Vec<_>>().join("\n")
        );
        assert_eq!(read(&wide), vec![(1, Ok(LINE.into()))]);
        let bad = GRID.replacen("003020600", "0 0 3 0 2 0 6 0 x", 1);
        assert_eq!(read(&bad)[0], (1, Err("bad character 'x' at r1c9".into())));
    }
}
