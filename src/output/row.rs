//! One results row built in a fixed buffer ([`Row`]): every field a copy
//! of known length, numbers two digits at a time, grids 32 cells at a
//! time; the text formats' rows (CSV, JSON Lines) are made of it.

use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::solver::Status;

use crate::output::result::Check;

/// Appends `n` in decimal.
pub(crate) fn push_number(out: &mut Vec<u8>, n: u64) {
    let mut row = Row::<[u8; 24]>::new();
    row.number(n);
    out.extend_from_slice(row.bytes());
}

/// Appends a duration in nanoseconds as microseconds with one decimal,
/// rounded (`12.3`).
pub(crate) fn push_micros(out: &mut Vec<u8>, ns: u64) {
    let mut row = Row::<[u8; 24]>::new();
    row.micros(ns);
    out.extend_from_slice(row.bytes());
}

/// The longest results row without its `file` field and message: a line
/// number and guesses of 20 digits, two grids, the longest status and
/// check, solve_us of 22 characters, 7 delimiters and the line end.
pub(crate) const ROW_BYTES: usize = 20 + 81 + 10 + 81 + 20 + 22 + 8 + 8;

/// One results row built in a fixed buffer of `N` bytes (`B` is `[u8; N]`
/// on the stack, or `&mut [u8; N]` at the end of the output itself: see
/// [`in_place`]), so that every field is a copy of known length (no
/// capacity check or library call per field). A row too long for the
/// buffer is [`Row::flush`]ed into the output before its long parts
/// (another size's grids, messages).
pub(crate) struct Row<B = [u8; ROW_BYTES]> {
    buf: B,
    len: usize,
}

impl<const N: usize> Row<[u8; N]> {
    pub(crate) fn new() -> Row<[u8; N]> {
        Row {
            buf: [0; N],
            len: 0,
        }
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Appends the row so far to `out` and empties it.
    pub(crate) fn flush(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.bytes());
        self.len = 0;
    }
}

/// Writes one row of at most `N` bytes with `write` straight into the end
/// of `out`: room for `N` bytes is added, written, and cut back to what
/// was written. No row on the stack is zeroed and copied over.
#[inline(always)]
pub(crate) fn in_place<const N: usize>(
    out: &mut Vec<u8>,
    write: impl FnOnce(&mut Row<&mut [u8; N]>),
) {
    let start = out.len();
    out.resize(start + N, 0);
    let mut len = 0;
    if let Some(buf) = out
        .get_mut(start..)
        .and_then(|room| <&mut [u8; N]>::try_from(room).ok())
    {
        let mut row = Row { buf, len: 0 };
        write(&mut row);
        len = row.len;
    }
    out.truncate(start + len);
}

impl<B: AsMut<[u8]>> Row<B> {
    #[inline(always)]
    pub(crate) fn byte(&mut self, b: u8) {
        self.buf.as_mut()[self.len] = b;
        self.len += 1;
    }

    /// Bytes of known small length: a status or check name, a JSON key.
    #[inline(always)]
    pub(crate) fn text(&mut self, text: &[u8]) {
        self.buf.as_mut()[self.len..self.len + text.len()].copy_from_slice(text);
        self.len += text.len();
    }

    /// A status's name ([`Status::name`]): each arm a copy of known length,
    /// where the name's length read at run time would make it a library
    /// call.
    #[inline(always)]
    pub(crate) fn status(&mut self, status: Status) {
        match status {
            Status::Solved => self.text(b"solved"),
            Status::Multiple => self.text(b"multiple"),
            Status::Unsolvable => self.text(b"unsolvable"),
            Status::Invalid => self.text(b"invalid"),
            Status::Malformed => self.text(b"malformed"),
            Status::Timeout => self.text(b"timeout"),
        }
    }

    /// A check's name ([`Check::name`]), as [`Row::status`].
    #[inline(always)]
    pub(crate) fn check(&mut self, check: Check) {
        match check {
            Check::Ok => self.text(b"ok"),
            Check::Mismatch => self.text(b"mismatch"),
        }
    }

    /// A grid's 81 characters, `blank` for its blanks, written in place
    /// (no 81-byte line made and copied).
    #[inline(always)]
    pub(crate) fn grid(&mut self, grid: &Grid, blank: u8) {
        let end = self.len + CELLS;
        if let Some(line) = self.buf.as_mut().get_mut(self.len..end) {
            if let Ok(line) = <&mut [u8; CELLS]>::try_from(line) {
                write_grid(grid, blank, line);
            }
        }
        self.len = end;
    }

    /// A grid's 81 characters in quotes (a JSON string).
    #[inline(always)]
    pub(crate) fn quoted_grid(&mut self, grid: &Grid, blank: u8) {
        self.byte(b'"');
        self.grid(grid, blank);
        self.byte(b'"');
    }

    /// `n` in decimal, its digits written in place, two at a time (no copy
    /// through a formatting buffer of unknown length).
    #[inline(always)]
    pub(crate) fn number(&mut self, mut n: u64) {
        // Most guesses, and most solve times' whole microseconds, are one
        // digit.
        if n < 10 {
            self.byte(b'0' + n as u8);
            return;
        }
        let buf = self.buf.as_mut();
        let digits = n.checked_ilog10().map_or(1, |d| d as usize + 1);
        let mut end = self.len + digits;
        self.len = end;
        while n >= 100 {
            let pair = 2 * (n % 100) as usize;
            n /= 100;
            end -= 2;
            buf[end..end + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        }
        if n >= 10 {
            let pair = 2 * n as usize;
            buf[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        } else {
            buf[end - 1] = b'0' + n as u8;
        }
    }

    /// A duration in nanoseconds as microseconds with one decimal, rounded
    /// (`12.3`).
    #[inline(always)]
    pub(crate) fn micros(&mut self, ns: u64) {
        let tenths = ns.saturating_add(50) / 100;
        self.number(tenths / 10);
        self.byte(b'.');
        self.byte(b'0' + (tenths % 10) as u8);
    }
}

/// "00" to "99", for writing numbers two digits at a time.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Writes `grid`'s 81 characters into `line`, `blank` for its blanks, in
/// pieces of 32, 32, 16 and 1 cells ([`write_piece`]), so that the compiler
/// steps 32 cells at a time where it may use AVX2: one loop over the 81
/// was cut into 16-byte steps behind a check that the grid and the row do
/// not overlap.
#[inline(always)]
pub(crate) fn write_grid(grid: &Grid, blank: u8, line: &mut [u8; CELLS]) {
    let cells: &[u8] = grid.cells();
    let line: &mut [u8] = line;
    let (cells, line) = write_piece::<32>(cells, line, blank);
    let (cells, line) = write_piece::<32>(cells, line, blank);
    let (cells, line) = write_piece::<16>(cells, line, blank);
    write_piece::<1>(cells, line, blank);
}

/// Writes the first `N` cells of `cells` as characters into the first `N`
/// bytes of `line` (read as one value and written whole, branch-free), and
/// returns the rest of both; writes nothing when either is shorter.
#[inline(always)]
fn write_piece<'c, 'l, const N: usize>(
    cells: &'c [u8],
    line: &'l mut [u8],
    blank: u8,
) -> (&'c [u8], &'l mut [u8]) {
    match (
        cells.split_first_chunk::<N>(),
        line.split_first_chunk_mut::<N>(),
    ) {
        (Some((piece, cells)), Some((out, line))) => {
            let mut chars = *piece;
            for c in &mut chars {
                *c = if *c == 0 { blank } else { b'0' + *c };
            }
            *out = chars;
            (cells, line)
        }
        _ => (&[], &mut []),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_rows_are_the_statuses_and_checks_names() {
        let written = |write: &dyn Fn(&mut Row)| {
            let mut row: Row = Row::new();
            write(&mut row);
            String::from_utf8(row.bytes().to_vec()).unwrap()
        };
        for status in Status::ALL {
            assert_eq!(written(&|row| row.status(status)), status.name());
        }
        for check in [Check::Ok, Check::Mismatch] {
            assert_eq!(written(&|row| row.check(check)), check.name());
        }
    }

    #[test]
    fn micros_round_to_one_decimal() {
        let micros = |ns| {
            let mut out = Vec::new();
            push_micros(&mut out, ns);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(micros(0), "0.0");
        assert_eq!(micros(49), "0.0");
        assert_eq!(micros(50), "0.1");
        assert_eq!(micros(1_234_567), "1234.6");
    }
}
