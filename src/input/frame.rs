//! Splitting a byte stream into records (physical lines, or CSV records that
//! may span lines inside quotes) in bounded memory.
//!
//! A [`Framer`] keeps at most [`MAX_RECORD`] bytes of a record (plus one for a
//! trailing carriage return); the rest of a longer record is read and thrown
//! away, chunk by chunk, so a line of any length runs in flat memory.

use std::io::{self, BufRead};

use memchr::{memchr, memchr2, memchr_iter};

/// Longest record kept, in bytes, not counting its line terminator. A longer
/// record is `malformed` (`line too long`).
pub const MAX_RECORD: usize = 4096;

/// Bytes kept of a record: the cap, plus one for a carriage return.
const KEEP: usize = MAX_RECORD + 1;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The DOS end-of-file byte some old files end with.
const DOS_EOF: u8 = 0x1A;

/// Where a CSV scan is between chunks, mirroring `csv_core` with `,` as
/// delimiter, `\n` as the only terminator and `""` as the quote escape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scan {
    /// In an unquoted field; `start` when no byte of the field was seen yet.
    Field { start: bool },
    /// Inside a quoted field.
    Quoted,
    /// Just after a quote inside a quoted field (an end quote or half of `""`).
    AfterQuote,
}

/// One record found by [`Framer::next`]; its bytes are in [`Framer::bytes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// 1-based physical line where the record starts.
    pub line: u64,
    /// The record was over [`MAX_RECORD`] bytes; only its start is kept.
    pub too_long: bool,
    /// The record ended (at end of input) inside a quoted field.
    pub open_quote: bool,
}

/// Splits a buffered byte stream into records.
pub struct Framer<R> {
    src: R,
    buf: Vec<u8>,
    /// Line number of the next byte to read.
    line: u64,
    csv: bool,
    at_start: bool,
}

impl<R: BufRead> Framer<R> {
    /// A framer over `src`; `csv` makes a newline inside a quoted field part
    /// of the record instead of its end.
    pub fn new(src: R, csv: bool) -> Framer<R> {
        Framer {
            src,
            buf: Vec::with_capacity(MAX_RECORD + 2),
            line: 1,
            csv,
            at_start: true,
        }
    }

    /// The kept bytes of the last record returned by [`Framer::next`]: its
    /// content without the line terminator (a trailing `\r` removed, a byte
    /// order mark removed from the first record), at most [`MAX_RECORD`]
    /// bytes plus one when the record is too long.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Consumes a UTF-8 byte-order mark at the start of the input, even when
    /// it arrives split across reads. Returns how many bytes were consumed
    /// that matched the start of a mark but not a whole one (they are
    /// content: `\xEF` or `\xEF\xBB`).
    fn skip_bom(&mut self) -> io::Result<usize> {
        let mut matched = 0;
        loop {
            let chunk = match self.src.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let len = chunk.len();
            let n = chunk
                .iter()
                .zip(&BOM[matched..])
                .take_while(|(a, b)| a == b)
                .count();
            if n == 0 {
                return Ok(matched);
            }
            self.src.consume(n);
            matched += n;
            if matched == BOM.len() {
                return Ok(0);
            }
            if n < len {
                return Ok(matched);
            }
        }
    }

    /// Reads the next record; `Ok(None)` at end of input. Empty records are
    /// returned too (the caller skips blank lines).
    pub fn next(&mut self) -> io::Result<Option<Frame>> {
        self.buf.clear();
        let start = self.line;
        let mut total: u64 = 0;
        let mut state = Scan::Field { start: true };
        let mut terminated = false;
        if std::mem::replace(&mut self.at_start, false) {
            let partial = self.skip_bom()?;
            if partial > 0 {
                // The first bytes looked like a byte-order mark but were not.
                self.buf.extend_from_slice(&BOM[..partial]);
                total = partial as u64;
                state = Scan::Field { start: false };
            }
        }
        loop {
            let chunk = match self.src.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            // Once over the cap, a record ends at the end of the physical
            // line, quotes or not: a stray quote costs one line, never the
            // rest of the file. Until then, scan no further than the cap.
            let over = total > KEEP as u64;
            let window = if over {
                chunk.len()
            } else {
                chunk.len().min(KEEP + 1 - total as usize)
            };
            let part = &chunk[..window];
            let (end, newlines) = if self.csv && !over {
                let mut newlines = 0;
                let end = scan_csv(&mut state, part, &mut newlines);
                (end, newlines)
            } else {
                (memchr(b'\n', part), 0)
            };
            let take = end.unwrap_or(window);
            let room = KEEP.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            total += take as u64;
            self.line += newlines;
            match end {
                Some(end) => {
                    self.src.consume(end + 1);
                    self.line += 1;
                    terminated = true;
                    break;
                }
                None => self.src.consume(take),
            }
        }
        if total == 0 && !terminated {
            return Ok(None);
        }
        let truncated = total > self.buf.len() as u64;
        if !truncated {
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
            if !terminated && self.buf.last() == Some(&DOS_EOF) {
                self.buf.pop();
            }
        }
        let too_long = truncated || self.buf.len() > MAX_RECORD;
        Ok(Some(Frame {
            line: start,
            too_long,
            open_quote: !too_long && matches!(state, Scan::Quoted),
        }))
    }
}

/// Scans `chunk` for the `\n` that ends a CSV record, starting in `state`;
/// counts the newlines inside quoted fields on the way. Returns the
/// terminator's index, or `None` when the record goes on past the chunk.
fn scan_csv(state: &mut Scan, chunk: &[u8], newlines: &mut u64) -> Option<usize> {
    let mut i = 0;
    while i < chunk.len() {
        match *state {
            Scan::Field { start } => {
                if start && chunk[i] == b'"' {
                    *state = Scan::Quoted;
                    i += 1;
                    continue;
                }
                match memchr2(b'\n', b',', &chunk[i..]) {
                    None => {
                        *state = Scan::Field { start: false };
                        return None;
                    }
                    Some(k) => {
                        let j = i + k;
                        if chunk[j] == b'\n' {
                            return Some(j);
                        }
                        *state = Scan::Field { start: true };
                        i = j + 1;
                    }
                }
            }
            Scan::Quoted => match memchr(b'"', &chunk[i..]) {
                None => {
                    *newlines += memchr_iter(b'\n', &chunk[i..]).count() as u64;
                    return None;
                }
                Some(k) => {
                    *newlines += memchr_iter(b'\n', &chunk[i..i + k]).count() as u64;
                    *state = Scan::AfterQuote;
                    i += k + 1;
                }
            },
            Scan::AfterQuote => {
                match chunk[i] {
                    b'"' => *state = Scan::Quoted,
                    b',' => *state = Scan::Field { start: true },
                    b'\n' => return Some(i),
                    _ => *state = Scan::Field { start: false },
                }
                i += 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes per `fill_buf`, to test
    /// records split across chunks.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl io::Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn frames(data: &[u8], csv: bool, step: usize) -> Vec<(u64, String, bool)> {
        let src = io::BufReader::with_capacity(step, Trickle { data, step });
        let mut framer = Framer::new(src, csv);
        let mut out = Vec::new();
        while let Some(frame) = framer.next().unwrap() {
            out.push((
                frame.line,
                String::from_utf8_lossy(framer.bytes()).into_owned(),
                frame.too_long,
            ));
        }
        out
    }

    fn both(data: &[u8], csv: bool) -> Vec<(u64, String, bool)> {
        let whole = frames(data, csv, 1 << 16);
        for step in [1, 2, 3, 7] {
            assert_eq!(frames(data, csv, step), whole, "step {step}");
        }
        whole
    }

    fn simple(v: &[(u64, &str)]) -> Vec<(u64, String, bool)> {
        v.iter().map(|&(l, s)| (l, s.to_string(), false)).collect()
    }

    #[test]
    fn lines_lf_crlf_mixed_and_no_final_newline() {
        assert_eq!(
            both(b"a\r\nb\n\r\nc", false),
            simple(&[(1, "a"), (2, "b"), (3, ""), (4, "c")])
        );
        assert_eq!(both(b"", false), simple(&[]));
        assert_eq!(both(b"\n", false), simple(&[(1, "")]));
    }

    #[test]
    fn bom_and_dos_eof() {
        assert_eq!(
            both(b"\xEF\xBB\xBFab\nc\n\x1A", false),
            simple(&[(1, "ab"), (2, "c"), (3, "")])
        );
        assert_eq!(both(b"ab\x1A", false), simple(&[(1, "ab")]));
        assert_eq!(
            both(b"\xEF\xBB\xBF\"a\nb\",c\nd", true),
            simple(&[(1, "\"a\nb\",c"), (3, "d")])
        );
    }

    #[test]
    fn csv_quotes_span_lines() {
        assert_eq!(
            both(b"x,\"a\r\nb\"\r\ny,\"\"\"\n\"\nz,a\"b\nw", true),
            simple(&[
                (1, "x,\"a\r\nb\""),
                (3, "y,\"\"\"\n\""),
                (5, "z,a\"b"),
                (6, "w")
            ])
        );
    }

    #[test]
    fn cap_keeps_only_the_start() {
        let mut data = vec![b'1'; MAX_RECORD];
        data.extend_from_slice(b"\r\n");
        data.extend(vec![b'2'; MAX_RECORD + 1]);
        data.extend_from_slice(b"\nok");
        let got = both(&data, false);
        assert_eq!(got.len(), 3);
        assert_eq!((got[0].0, got[0].1.len(), got[0].2), (1, MAX_RECORD, false));
        assert_eq!((got[1].0, got[1].2), (2, true));
        assert!(got[1].1.len() <= MAX_RECORD + 1);
        assert_eq!(got[2], (3, "ok".to_string(), false));
        // Over the cap inside quotes: the record ends with its line.
        let mut data = b"a,\"".to_vec();
        data.extend(vec![b'x'; MAX_RECORD]);
        data.extend_from_slice(b"\nb,c\n\"d\ne\"");
        let got = both(&data, true);
        assert_eq!((got[0].0, got[0].2), (1, true));
        assert_eq!(&got[1..], &simple(&[(2, "b,c"), (3, "\"d\ne\"")])[..]);
    }
}
