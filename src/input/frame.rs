//! Splitting a byte stream into records (physical lines, or CSV records that
//! may span lines inside quotes) in bounded memory.
//!
//! A line ends at `\n`, `\r\n` or a lone `\r` (classic Mac OS), in any
//! mixture; in CSV, only outside quoted fields.
//!
//! A [`Framer`] keeps at most its cap of a record ([`MAX_RECORD`] bytes, or
//! [`MAX_TABLE_RECORD`] for CSV and JSON Lines; plus one for a trailing
//! carriage return); the rest of a longer record is read and thrown away,
//! chunk by chunk, so a line of any length runs in flat memory.
//!
//! A CSV quote that is never closed would swallow every later record into
//! one field. So a record whose quoted fields run past the end of a line
//! must be closed before the end of the input, and by a quote that a CSV
//! writer puts there, taking in no line that reads as a record of the file
//! ([`Framer::with_row_test`]); one that is not is an unterminated quote:
//! the record is cut at the end of the line where it started
//! ([`Frame::open_quote`]) and reading starts again on the next line, from
//! the bytes already read. Past the cap such a record is still scanned to
//! its end, line by line, without keeping its bytes: closed as CSV closes
//! it, it is one record, too long ([`Frame::too_long`]); else only the
//! lines within the cap and those from the one that shows the quote stray
//! can be read again ([`Frame::unread`]).

use std::io::{self, Read};
use std::ops::{Deref, DerefMut};

use memchr::{memchr, memchr2, memchr3, memrchr2};

use crate::process::simd;

/// Longest record kept of text lines and grids, in bytes, not counting its
/// line terminator. A longer record is `malformed` (`line too long`).
pub const MAX_RECORD: usize = 4096;

/// Longest record kept of CSV and JSON Lines, whose records carry the
/// columns `--keep` copies: a long kept field (a note, an encoded image)
/// must not make a record that solves from Parquet `malformed` here.
pub const MAX_TABLE_RECORD: usize = 1 << 20;

/// Longest text line kept, in bytes, so that a one-line grid of another
/// size written as numbers (64x64: 4,096 values, about 12 KB with commas,
/// 16 KB with `, `) is read whole. Any other line over [`MAX_RECORD`]
/// bytes is still `line too long (over 4096 bytes)`.
pub const MAX_SIZED_LINE: usize = 32 * 1024;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The DOS end-of-file byte some old files end with.
const DOS_EOF: u8 = 0x1A;

/// Where a CSV scan is between chunks, mirroring `csv_core` with `,` as
/// delimiter, `\n`, `\r` or `\r\n` as terminator and `""` as the quote
/// escape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scan {
    /// In an unquoted field; `start` when no byte of the field was seen yet.
    Field { start: bool },
    /// Inside a quoted field.
    Quoted,
    /// Just after a quote inside a quoted field (an end quote or half of `""`).
    AfterQuote,
    /// A quoted field ran over line ends and its closing quote is followed
    /// by neither a delimiter, a line end nor another quote: no writer
    /// closes a field so, so the quote that opened it was a stray one
    /// (`"abc` left open), closed by chance by a quote lines later. The
    /// record is then its first line, `malformed` as an unterminated
    /// quote, rather than everything up to that later quote.
    Stray,
}

/// One record found by [`Framer::next`]; its bytes are in [`Framer::bytes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// 1-based physical line where the record starts.
    pub line: u64,
    /// The physical line where the record ends: `line`, but for a CSV
    /// record whose quoted fields run over line ends.
    pub last_line: u64,
    /// The record was over the framer's cap; only its start is kept.
    pub too_long: bool,
    /// CSV: a quote opened on this record's line is never closed (not by
    /// the end of the input, nor but by a stray quote lines later: see
    /// [`Scan::Stray`], nor without taking in a line that reads as a record:
    /// see [`Framer::with_row_test`]): the record is that one line, and the
    /// next record starts on the next line.
    pub open_quote: bool,
    /// With `open_quote`, when the quote ran on past the framer's cap
    /// before it proved unterminated: the first and last of the lines
    /// after it that are not read again, their bytes not kept (the lines
    /// within the cap, and those from the one where the quote proved
    /// unterminated, are). Each of them was scanned and none reads as a
    /// record of the file.
    pub unread: Option<(u64, u64)>,
}

impl Frame {
    /// The message of a `too_long` record of a framer whose
    /// [`Framer::limit`] is `limit`: `line too long (over N bytes)`, or, for
    /// a CSV record over lines, the lines it spans.
    pub fn too_long_message(&self, limit: usize) -> String {
        if self.last_line == self.line {
            too_long(limit)
        } else {
            format!(
                "record too long (over {limit} bytes), {}",
                place(self.line, self.last_line)
            )
        }
    }

    /// The message of an `open_quote` record of a framer whose
    /// [`Framer::limit`] is `limit`: `unterminated quote opened on line N`,
    /// and the lines after it not read again, if any ([`Frame::unread`]).
    pub fn unterminated_message(&self, limit: usize) -> String {
        let line = self.line;
        match self.unread {
            None => format!("unterminated quote opened on line {line}"),
            Some((first, last)) => format!(
                "unterminated quote opened on line {line}; {} after it, \
                 past its first {limit} bytes, not read",
                place(first, last)
            ),
        }
    }
}

/// Bytes read from the source at a time: records are cut from this block
/// in place, so the source is called once per block, not per record. Small
/// enough that the block is still in the core's L2 cache when its records
/// are cut (reads of 1 MiB touched the same lines three times as slowly),
/// and the size of the buffer behind a file (`open`'s `BUFFER`), so that a
/// read of a block goes past that buffer straight to the file.
const BLOCK: usize = 64 * 1024;

/// Bytes of a record's start left unread in the block that
/// [`Framer::plain_into`] moves in front of a block it reads straight into
/// its output: a line of a puzzle file is far shorter.
const DIRECT_SPAN: usize = 4096;

/// Bytes copied at a time by [`append_in_pieces`]: under glibc's
/// threshold for copying with `rep movsb` (2,048 bytes and more, by its
/// CPU tuning), so that each piece is copied with vector loads and stores.
const COPY_PIECE: usize = 2048;

/// Appends `bytes` to `out` in pieces of [`COPY_PIECE`] bytes. One copy of
/// a block's records (up to 64 KiB) is a `rep movsb` in glibc, which ran
/// at a fifth of the speed of the kernel's own copy of the same bytes on an
/// AMD EPYC (Zen 3) VM: 13.5 % of all samples of `solve` of a million
/// Kaggle rows to /dev/null at -j 2, against 2.1 % when glibc was told to
/// use vector copies instead (`GLIBC_TUNABLES`, perf record, one run each).
fn append_in_pieces(out: &mut RecordBytes, bytes: &[u8]) {
    copy_in_pieces(&mut out.room(bytes.len())[..bytes.len()], bytes);
    out.len += bytes.len();
}

/// Copies `from` into `to`, of the same length, in pieces of
/// [`COPY_PIECE`] bytes (see [`append_in_pieces`]).
fn copy_in_pieces(to: &mut [u8], from: &[u8]) {
    for (to, from) in to.chunks_mut(COPY_PIECE).zip(from.chunks(COPY_PIECE)) {
        to.copy_from_slice(from);
    }
}

/// Records' bytes, in a buffer whose storage stays written when it is
/// emptied or cut short, so that the source can be read straight into the
/// room after the bytes in use ([`Framer::plain_into`]): `Read::read`
/// writes into bytes already written, and a `Vec`'s spare capacity is not,
/// so a `Vec` would be zeroed before every read. Reads as the bytes in use.
#[derive(Clone, Debug, Default)]
pub struct RecordBytes {
    /// The storage: the first `len` bytes are in use, the rest were written
    /// before (zeroes, or bytes no longer in use).
    buf: Vec<u8>,
    len: usize,
}

impl RecordBytes {
    /// Empties the buffer, keeping its storage.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` bytes (all of them if fewer).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Appends `bytes`.
    pub fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.room(bytes.len())[..bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// Removes the last byte and returns it.
    fn pop(&mut self) -> Option<u8> {
        let last = self.last().copied()?;
        self.len -= 1;
        Some(last)
    }

    /// The storage after the bytes in use, at least `n` bytes of it: grown
    /// (and its new bytes zeroed) only when it is shorter.
    fn room(&mut self, n: usize) -> &mut [u8] {
        let end = self.len + n;
        if self.buf.len() < end {
            self.buf.resize(end, 0);
        }
        &mut self.buf[self.len..]
    }
}

impl Deref for RecordBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl DerefMut for RecordBytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.buf[..self.len]
    }
}

/// The records looked at, from line `first` to line `last`, as a message
/// names them: `line 2`, `lines 2-1001`.
pub fn place(first: u64, last: u64) -> String {
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}-{last}")
    }
}

/// The message of a record over the length cap, `cap` bytes
/// ([`super::MAX_RECORD`] for text lines).
pub fn too_long(cap: usize) -> String {
    format!("line too long (over {cap} bytes)")
}

/// The block of bytes read from the source and not yet consumed.
struct Block {
    bytes: Vec<u8>,
    pos: usize,
    end: usize,
    /// A read returned nothing: the input is at its end, and is not read
    /// again (a terminal would wait for more).
    ended: bool,
}

/// Splits a byte stream into records.
pub struct Framer<R> {
    src: R,
    block: Block,
    buf: RecordBytes,
    /// Bytes read already that are read again before `src` (the lines
    /// after an unterminated quote).
    replay: Vec<u8>,
    /// Where reading goes on once `replay` is read, when lines between
    /// were not kept (an unterminated quote past the cap): until then the
    /// input ends with `replay`.
    resume: Option<Resume>,
    /// Line number of the next byte to read.
    line: u64,
    csv: bool,
    /// The longest record kept, in bytes.
    cap: usize,
    /// The length a record over the cap is reported to be over.
    limit: usize,
    /// The CSV field separator.
    delimiter: u8,
    at_start: bool,
    /// The last record ended with `\r`: a `\n` right after it belongs to
    /// the same line end.
    after_cr: bool,
    /// CSV: whether a line taken into a record by a quoted field reads as a
    /// record of the file on its own ([`Framer::with_row_test`]).
    row_test: Option<RowTest>,
}

/// Whether a line reads as a record of the file on its own: see
/// [`Framer::with_row_test`].
pub type RowTest = Box<dyn Fn(&[u8]) -> bool + Send>;

/// Where reading goes on after the lines of an unterminated quote that
/// were not kept ([`Frame::unread`]).
struct Resume {
    /// The line it goes on at.
    line: u64,
    /// Bytes read already that are read first: that line's start (and,
    /// after it, what was left of the replayed bytes).
    bytes: Vec<u8>,
}

/// The next bytes to read: the replayed ones first, then the block's, read
/// from `src` when it is used up (empty at the end of the input, and
/// while reading is `held` at the end of the replayed ones).
fn fill<'a, R: Read>(
    replay: &'a [u8],
    held: bool,
    src: &mut R,
    block: &'a mut Block,
) -> io::Result<&'a [u8]> {
    if !replay.is_empty() || held {
        return Ok(replay);
    }
    if block.pos == block.end && !block.ended {
        (block.pos, block.end) = (0, 0);
        block.end = loop {
            match src.read(&mut block.bytes) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
                Ok(n) => break n,
            }
        };
    }
    Ok(&block.bytes[block.pos..block.end])
}

/// Counts the line ends in `bytes` (`\n`, `\r\n`, lone `\r`); `after_cr`
/// carries a `\r` at the end of one slice to the start of the next.
fn count_breaks(bytes: &[u8], after_cr: &mut bool) -> u64 {
    let mut count = 0;
    let mut at = 0;
    while let Some(k) = memchr2(b'\n', b'\r', &bytes[at..]) {
        let i = at + k;
        if bytes[i] == b'\r' || !(*after_cr && i == at) {
            count += 1;
        }
        *after_cr = bytes[i] == b'\r';
        at = i + 1;
    }
    if at < bytes.len() {
        *after_cr = false;
    }
    count
}

impl<R: Read> Framer<R> {
    /// A framer over `src`; `csv` makes a line end inside a quoted field
    /// part of the record instead of its end.
    pub fn new(src: R, csv: bool) -> Framer<R> {
        Framer {
            src,
            block: Block {
                bytes: vec![0; BLOCK],
                pos: 0,
                end: 0,
                ended: false,
            },
            buf: RecordBytes::default(),
            cap: MAX_RECORD,
            limit: MAX_RECORD,
            replay: Vec::new(),
            resume: None,
            line: 1,
            csv,
            delimiter: b',',
            at_start: true,
            after_cr: false,
            row_test: None,
        }
    }

    /// Sets the test of a CSV line taken into a record by a quoted field
    /// over line ends: when one of those lines reads as a record of the file
    /// by itself (`test` true: a puzzle where the file has its puzzles),
    /// the quote that opened the field is taken for a stray one (a ditto
    /// mark `"`, a quote typed by hand) and the record is its first line,
    /// `malformed` as an unterminated quote ([`Frame::open_quote`]); the
    /// lines after it are read again as records. Without it, a lone `"`
    /// closed by another at a line end took the rows between into one
    /// field: legal CSV, but the rows were gone without a word.
    pub fn with_row_test(mut self, test: RowTest) -> Framer<R> {
        self.row_test = Some(test);
        self
    }

    /// Replaces the test of [`Framer::with_row_test`] (once the puzzle
    /// column is known).
    pub fn set_row_test(&mut self, test: RowTest) {
        self.row_test = Some(test);
    }

    /// Sets the CSV field separator (`,` by default).
    pub fn with_delimiter(mut self, delimiter: u8) -> Framer<R> {
        self.delimiter = delimiter;
        self
    }

    /// Keeps records of up to `cap` bytes (instead of [`MAX_RECORD`]).
    pub fn with_cap(mut self, cap: usize) -> Framer<R> {
        self.cap = cap.max(MAX_RECORD);
        self.limit = self.cap;
        self
    }

    /// Keeps text lines of up to [`MAX_SIZED_LINE`] bytes, for one-line
    /// grids of numbers; a line over that is reported as over
    /// [`MAX_RECORD`], the limit of every other text line.
    pub fn with_sized_lines(mut self) -> Framer<R> {
        self.cap = MAX_SIZED_LINE;
        self.limit = MAX_RECORD;
        self
    }

    /// The longest record kept, in bytes: a longer one is `too_long`.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The length a `too_long` record is reported to be over (the cap, but
    /// [`MAX_RECORD`] for text lines).
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The kept bytes of the last record returned by [`Framer::next`]: its
    /// content without the line terminator (a byte order mark removed from
    /// the first record), at most the cap plus one byte when the record is
    /// too long.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The next bytes to read ([`fill`]): those replayed, or held while
    /// a record is read again, else the block's.
    fn fill(&mut self) -> io::Result<&[u8]> {
        fill(
            &self.replay,
            self.resume.is_some(),
            &mut self.src,
            &mut self.block,
        )
    }

    fn consume(&mut self, n: usize) {
        if self.replay.is_empty() {
            self.block.pos += n;
        } else {
            self.replay.drain(..n);
        }
    }

    /// Consumes a UTF-8 byte-order mark at the start of the input, even when
    /// it arrives split across reads. Returns how many bytes were consumed
    /// that matched the start of a mark but not a whole one (they are
    /// content: `\xEF` or `\xEF\xBB`).
    fn skip_bom(&mut self) -> io::Result<usize> {
        let mut matched = 0;
        loop {
            let chunk = self.fill()?;
            let len = chunk.len();
            let n = chunk
                .iter()
                .zip(&BOM[matched..])
                .take_while(|(a, b)| a == b)
                .count();
            if n == 0 {
                return Ok(matched);
            }
            self.consume(n);
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
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let frame = self.next_into(&mut buf);
        self.buf = buf;
        frame
    }

    /// Cuts the plain records that come next: each ends in `\n` or `\r\n`,
    /// is at most the cap long and, in CSV, holds no quote, so no rule but
    /// the line end applies to it. At most `max` of them; their bytes go to
    /// `out` (the line ends between them too), and `each(line, start, end,
    /// bytes)` is told each record's line and where its content (`bytes`)
    /// lies in `out`. Returns how many were cut: none when the next record
    /// is not plain, or the input is at its start, its end or inside a line
    /// end; [`Framer::next_into`] then reads it with every rule. A file of
    /// short plain lines thus costs a search for each line end, not a call
    /// per record.
    ///
    /// The records already read are copied from the block; once the block
    /// holds none but the start of one (at most [`DIRECT_SPAN`] bytes), that
    /// start is moved to `out` and the next block is read straight after
    /// it, where its records are cut in place: the bytes after the last
    /// record cut go back to the block. So most bytes of a file of puzzles
    /// are copied once, by the kernel, not again from a block to `out`.
    ///
    /// # Errors
    /// The source failed to read; nothing was consumed.
    pub fn plain_into(
        &mut self,
        out: &mut RecordBytes,
        max: usize,
        mut each: impl FnMut(u64, usize, usize, &[u8]),
    ) -> io::Result<usize> {
        if self.at_start
            || self.after_cr
            || !self.replay.is_empty()
            || self.resume.is_some()
            || max == 0
        {
            return Ok(0);
        }
        let block = &mut self.block;
        let data = &block.bytes[block.pos..block.end];
        let base = out.len();
        // The records of `data` cut, as from `base` in `out`.
        let (line, csv, cap) = (&mut self.line, self.csv, self.cap);
        let mut cut_from_base = |data: &[u8]| cut_plain(data, base, line, csv, cap, max, &mut each);
        let (cut, at) = cut_from_base(data);
        append_in_pieces(out, &data[..at]);
        block.pos += at;
        let pending = block.end - block.pos;
        if cut > 0 || pending > DIRECT_SPAN || block.ended {
            return Ok(cut);
        }
        let room = out.room(pending + BLOCK);
        room[..pending].copy_from_slice(&block.bytes[block.pos..block.end]);
        let read = loop {
            match self.src.read(&mut room[pending..pending + BLOCK]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
                Ok(n) => break n,
            }
        };
        if read == 0 {
            // What is left in the block is taken by `next_into`.
            block.ended = true;
            return Ok(0);
        }
        let data = &room[..pending + read];
        let (cut, at) = cut_from_base(data);
        let rest = &data[at..];
        if block.bytes.len() < rest.len() {
            block.bytes.resize(rest.len(), 0);
        }
        copy_in_pieces(&mut block.bytes[..rest.len()], rest);
        (block.pos, block.end) = (0, rest.len());
        out.len = base + at;
        Ok(cut)
    }

    /// As [`Framer::next`], but appends the record's kept bytes to `out`
    /// (what [`Framer::bytes`] would hold) instead of keeping them, so a
    /// batch takes them with one copy.
    pub fn next_into(&mut self, out: &mut RecordBytes) -> io::Result<Option<Frame>> {
        let base = out.len();
        // Bytes kept of a record: the cap, plus one to tell a record over it.
        let keep = self.cap + 1;
        let (csv, delimiter) = (self.csv, self.delimiter);
        if std::mem::take(&mut self.after_cr) && self.fill()?.first() == Some(&b'\n') {
            self.consume(1);
        }
        if self.replay.is_empty() {
            if let Some(resume) = self.resume.take() {
                self.line = resume.line;
                self.replay = resume.bytes;
            }
        }
        let start = self.line;
        let mut total: u64 = 0;
        let mut state = Scan::Field { start: true };
        // Line ends inside quoted fields, and whether the last byte seen
        // there was a `\r`.
        let mut inner_breaks = 0;
        let mut inner_cr = false;
        let mut terminated = false;
        if std::mem::replace(&mut self.at_start, false) {
            let partial = self.skip_bom()?;
            if partial > 0 {
                // The first bytes looked like a byte-order mark but were not.
                out.extend_from_slice(&BOM[..partial]);
                total = partial as u64;
                state = Scan::Field { start: false };
            }
        }
        loop {
            let chunk = self.fill()?;
            if chunk.is_empty() {
                break;
            }
            // Once over the cap, a record ends at the end of the physical
            // line, quotes or not: a stray quote costs one line, never the
            // rest of the file. Until then, scan no further than the cap,
            // which is also how far a CSV quoted field may run over line
            // ends (a long note that pandas quotes is one record, as long
            // as one on a single line may be).
            let over = total >= keep as u64;
            let window = if over {
                chunk.len()
            } else {
                chunk.len().min(keep - total as usize)
            };
            let part = &chunk[..window];
            let end = if csv && !over {
                // Most records hold no quote: then the first line end is
                // the record's end, found in one pass.
                let fresh = total == 0 && state == (Scan::Field { start: true });
                match memchr3(b'\n', b'\r', b'"', part) {
                    Some(j) if fresh && part[j] != b'"' => Some(j),
                    _ => scan_csv(
                        &mut state,
                        part,
                        delimiter,
                        &mut inner_breaks,
                        &mut inner_cr,
                    ),
                }
            } else {
                memchr2(b'\n', b'\r', part)
            };
            let take = end.unwrap_or(window);
            let room = keep.saturating_sub(out.len() - base);
            out.extend_from_slice(&chunk[..take.min(room)]);
            total += take as u64;
            if inner_breaks > 0 && state == Scan::Stray {
                // A quote ran past its line and was closed only by a stray
                // quote (its line end, if found, is read again after the
                // record's first line).
                self.consume(take);
                return Ok(Some(self.unterminated(start, out, base)));
            }
            if inner_breaks > 0 && total >= keep as u64 {
                // A quote ran past its line and on past the cap.
                self.consume(take);
                let scan = Quote {
                    state,
                    breaks: inner_breaks,
                    cr: inner_cr,
                };
                return self.past_cap(start, out, base, scan).map(Some);
            }
            match end {
                Some(end) => {
                    self.after_cr = chunk[end] == b'\r';
                    self.consume(end + 1);
                    terminated = true;
                    break;
                }
                None => self.consume(take),
            }
        }
        if total == 0 && !terminated {
            return Ok(None);
        }
        if state == Scan::Quoted && !terminated && inner_breaks > 0 {
            // The input ended inside a quote opened lines before.
            return Ok(Some(self.unterminated(start, out, base)));
        }
        if inner_breaks > 0 && self.takes_in_a_row(&out[base..]) {
            if terminated {
                // The line end that ended the record is read again, after
                // the lines put back.
                let end = if std::mem::take(&mut self.after_cr) {
                    b'\r'
                } else {
                    b'\n'
                };
                out.extend_from_slice(&[end]);
            }
            return Ok(Some(self.unterminated(start, out, base)));
        }
        self.line += inner_breaks + u64::from(terminated);
        let kept = out.len() - base;
        let truncated = total > kept as u64;
        if !truncated && !terminated && out.last() == Some(&DOS_EOF) && kept > 0 {
            out.pop();
        }
        let too_long = truncated || out.len() - base > self.cap;
        Ok(Some(Frame {
            line: start,
            last_line: start + inner_breaks,
            too_long,
            open_quote: !too_long && state == Scan::Quoted,
            unread: None,
        }))
    }

    /// Reads on a CSV record (`out[base..]`, its kept bytes, all of those
    /// read, from line `start`) whose quoted field runs over line ends and
    /// on past the cap, to its end, in `scan`'s state: the lines after the
    /// cap are read one by one and not kept (only the one being read, up
    /// to the cap), each tested as [`Framer::takes_in_a_row`] tests those
    /// of a whole record. A record closed as CSV closes it, none of whose
    /// lines reads as a record, is one record, `too_long`. Else its quote
    /// is an unterminated one, as within the cap, but of the lines after
    /// its first only those kept (up to the cap) and those from the line
    /// where it proved so (a line that reads as a record, a stray closing
    /// quote's, the last one) are read again: the lines between are not
    /// ([`Frame::unread`]). So the record costs no more memory than the
    /// cap, and no line read as a record of the file is lost.
    fn past_cap(
        &mut self,
        start: u64,
        out: &mut RecordBytes,
        base: usize,
        mut scan: Quote,
    ) -> io::Result<Frame> {
        let keep = self.cap + 1;
        let kept = &out[base..];
        // The kept bytes end inside a quoted field, on a line that may go
        // on: the lines before it are whole.
        let whole = memrchr2(b'\n', b'\r', kept).map_or(0, |i| i + 1);
        if self.takes_in_a_row(&kept[..whole]) {
            return Ok(self.unterminated(start, out, base));
        }
        // The first line not kept whole, and the one being read.
        let first_unkept = start + scan.breaks;
        let mut line = kept[whole..].to_vec();
        let delimiter = self.delimiter;
        loop {
            let here = start + scan.breaks;
            let chunk = self.fill()?;
            if chunk.is_empty() {
                // The input ends: inside the quote (unterminated), or
                // after it closed.
                if scan.state != Scan::Quoted && !self.reads_as_a_record(&line, false) {
                    self.line += scan.breaks;
                    return Ok(over_lines(start, scan.breaks));
                }
                return Ok(self.unterminated_past_cap(start, out, base, first_unkept, here, line));
            }
            let content = memchr2(b'\n', b'\r', chunk);
            let piece = content.map_or(chunk.len(), |k| k + 1);
            let end = scan_csv(
                &mut scan.state,
                &chunk[..piece],
                delimiter,
                &mut scan.breaks,
                &mut scan.cr,
            );
            let room = keep.saturating_sub(line.len());
            let length = content.unwrap_or(chunk.len());
            line.extend_from_slice(&chunk[..length.min(room)]);
            let ending = content.map(|k| chunk[k]);
            self.consume(piece);
            // Closed by a stray quote on this line, or a whole line that
            // reads as a record: the line is read again from its start.
            let stray = match (end, ending) {
                _ if scan.state == Scan::Stray => true,
                (Some(_), Some(_)) => self.reads_as_a_record(&line, false),
                (None, Some(_)) => self.reads_as_a_record(&line, true),
                _ => false,
            };
            if stray {
                line.extend(ending);
                return Ok(self.unterminated_past_cap(start, out, base, first_unkept, here, line));
            }
            match (end, ending) {
                // The record ends with this line.
                (Some(_), Some(ending)) => {
                    self.after_cr = ending == b'\r';
                    self.line += scan.breaks + 1;
                    return Ok(over_lines(start, scan.breaks));
                }
                // A line end inside a quoted field: the line is whole.
                (None, Some(_)) => line.clear(),
                _ => {}
            }
        }
    }

    /// True when `line`, a line read past the cap that starts inside a
    /// quoted field (and, when `runs_on`, ends inside one that goes on to
    /// the next line), reads as a record by the row test
    /// ([`Framer::with_row_test`]): its parts that [`quoted_lines`]
    /// would take of the whole record.
    fn reads_as_a_record(&self, line: &[u8], runs_on: bool) -> bool {
        let Some(test) = &self.row_test else {
            return false;
        };
        !line.is_empty() && quoted_lines(line, self.delimiter, true, runs_on).any(test)
    }

    /// Ends a record whose quote ran on past the cap and proved
    /// unterminated on line `here` (see [`Framer::past_cap`]): the record is
    /// its first line, the lines kept whole after it (`out[base..]`) are
    /// read again, then `here`, from `again` (its bytes read so far), and
    /// on; the lines from `first_unkept` to the one before `here` are not.
    fn unterminated_past_cap(
        &mut self,
        start: u64,
        out: &mut RecordBytes,
        base: usize,
        first_unkept: u64,
        here: u64,
        mut again: Vec<u8>,
    ) -> Frame {
        let whole = memrchr2(b'\n', b'\r', &out[base..]).map_or(0, |i| i + 1);
        out.truncate(base + whole);
        // Bytes replayed that the scan did not reach come after `here`'s.
        again.append(&mut self.replay);
        let mut frame = self.unterminated(start, out, base);
        frame.unread = (first_unkept < here).then(|| (first_unkept, here - 1));
        self.resume = Some(Resume {
            line: here,
            bytes: again,
        });
        frame
    }

    /// True when a line inside a quoted field of `record` that runs over
    /// line ends reads as a record of the file by the row test
    /// ([`Framer::with_row_test`]): the field's lines after its first, the
    /// last up to the quote that closes the field, and the part of its
    /// first line after the opening quote when it holds a delimiter (the
    /// rest of a row after a ditto mark in a column before the puzzle:
    /// `1,",<puzzle>`) ([`quoted_lines`]). What follows a closing quote
    /// is the record's own next fields, and what precedes the opening
    /// quote the record's own first fields: neither is tested.
    fn takes_in_a_row(&self, record: &[u8]) -> bool {
        let Some(test) = &self.row_test else {
            return false;
        };
        quoted_lines(record, self.delimiter, false, false).any(test)
    }

    /// Ends the record being read (`out[base..]`) at the end of its first
    /// line, where an unterminated quote opened, and puts the bytes after
    /// that line back to be read again.
    fn unterminated(&mut self, start: u64, out: &mut RecordBytes, base: usize) -> Frame {
        let record = &out[base..];
        let cut = memchr2(b'\n', b'\r', record).unwrap_or(record.len());
        let mut after = cut + 1;
        if record.get(cut) == Some(&b'\r') && record.get(after) == Some(&b'\n') {
            after += 1;
        }
        // A `\r` last in the buffer may have its `\n` still to come.
        self.after_cr = record.get(cut) == Some(&b'\r') && after >= record.len();
        let kept = base + cut.min(record.len());
        let mut rest = out[kept..].to_vec();
        out.truncate(kept);
        rest.drain(..(after - cut).min(rest.len()));
        rest.extend_from_slice(&self.replay);
        self.replay = rest;
        self.line = start + 1;
        Frame {
            line: start,
            last_line: start,
            too_long: false,
            open_quote: true,
            unread: None,
        }
    }
}

/// Where a scan of a CSV record is inside its quoted fields, carried past
/// the cap ([`Framer::past_cap`]).
struct Quote {
    state: Scan,
    /// Line ends inside quoted fields so far.
    breaks: u64,
    /// The last byte seen inside a quoted field was a `\r`.
    cr: bool,
}

/// The frame of a CSV record from line `start` over `breaks` line ends
/// inside its quoted fields that ran on past the cap: too long.
fn over_lines(start: u64, breaks: u64) -> Frame {
    Frame {
        line: start,
        last_line: start + breaks,
        too_long: true,
        open_quote: false,
        unread: None,
    }
}

/// Cuts the plain records `data` starts with, at most `max` (see
/// [`Framer::plain_into`]), `data` being `out[base..]`: tells `each` of
/// each, counting lines from `line`. Returns how many were cut and the
/// length of their bytes (with their line ends).
fn cut_plain(
    data: &[u8],
    base: usize,
    line: &mut u64,
    csv: bool,
    cap: usize,
    max: usize,
    each: &mut impl FnMut(u64, usize, usize, &[u8]),
) -> (usize, usize) {
    let (mut at, mut cut) = (0, 0);
    // The length of the last record cut, when it ended at a lone `\n` and
    // no run of records of its length failed to be taken yet.
    let mut last = None;
    while cut < max {
        if let Some(len) = last {
            let n = same_length_records(&data[at..], len, max - cut, csv);
            if n == 0 {
                // Not a run: do not try again in this block, so that a file
                // of lines of uneven length costs one search each.
                last = None;
            } else {
                for _ in 0..n {
                    each(*line, base + at, base + at + len, &data[at..at + len]);
                    *line += 1;
                    at += len + 1;
                }
                cut += n;
                continue;
            }
        }
        // A plain record's line end is within the cap (plus the `\n` of a
        // `\r\n`): search no further.
        let rest = &data[at..data.len().min(at + cap + 2)];
        let end = if csv {
            memchr3(b'\n', b'\r', b'"', rest)
        } else {
            memchr2(b'\n', b'\r', rest)
        };
        let Some(len) = end.filter(|&len| len <= cap) else {
            break;
        };
        let next = match (rest[len], rest.get(len + 1)) {
            (b'\n', _) => len + 1,
            (b'\r', Some(b'\n')) => len + 2,
            // A quote, a lone `\r`, or a `\r` whose `\n` is not read yet.
            _ => break,
        };
        if cut == 0 && next == len + 1 {
            last = Some(len);
        }
        each(*line, base + at, base + at + len, &rest[..len]);
        *line += 1;
        at += next;
        cut += 1;
    }
    (cut, at)
}

/// The lines of `record` (a CSV record of fields separated by
/// `delimiter`) that lie inside a quoted field with a line end in it: the
/// field's first line, from its opening quote, when it holds `delimiter`;
/// every line after it, the last one up to the field's closing quote;
/// empty lines left out. A field is quoted when it starts with `"`; a
/// doubled `""` inside it is a quote of its text; a quote never closed
/// runs to the record's end.
///
/// `record` may also be one line of such a record: `inside`, it starts
/// inside a quoted field (a line after the field's first); `runs_on`, it
/// ends inside one that goes on to the next line. Its lines are then
/// those the whole record's would be on it.
fn quoted_lines(
    record: &[u8],
    delimiter: u8,
    inside: bool,
    runs_on: bool,
) -> impl Iterator<Item = &[u8]> {
    // Each quoted field over lines, and whether its first line on
    // `record` is a line after its own first.
    let mut fields = Vec::new();
    let (mut i, mut at_start) = (0, true);
    let mut open = inside.then_some(0);
    loop {
        let from = match open.take() {
            Some(from) => from,
            None if i >= record.len() => break,
            None if at_start && record[i] == b'"' => i + 1,
            None => {
                at_start = record[i] == delimiter;
                i += 1;
                continue;
            }
        };
        let mut close = None;
        let mut j = from;
        while let Some(k) = memchr(b'"', &record[j..]) {
            if record.get(j + k + 1) == Some(&b'"') {
                j += k + 2;
            } else {
                close = Some(j + k);
                break;
            }
        }
        let to = close.unwrap_or(record.len());
        let field = &record[from..to];
        // Only `inside` puts a field's start at the record's.
        let later = from == 0;
        if later || (close.is_none() && runs_on) || memchr2(b'\n', b'\r', field).is_some() {
            fields.push((field, later));
        }
        (i, at_start) = (to + 1, false);
    }
    fields.into_iter().flat_map(move |(field, later)| {
        field
            .split(|&b| b == b'\n' || b == b'\r')
            .enumerate()
            .filter(move |(i, line)| *i > 0 || later || line.contains(&delimiter))
            .map(|(_, line)| line)
            .filter(|line| !line.is_empty())
    })
}

/// Scans `chunk` for the line end that ends a CSV record with fields
/// separated by `delimiter`, starting in `state`; counts the line ends inside quoted fields on the way (`cr`
/// carries a `\r` between chunks). Returns the terminator's index (of its
/// first byte), or `None` when the record goes on past the chunk.
fn scan_csv(
    state: &mut Scan,
    chunk: &[u8],
    delimiter: u8,
    breaks: &mut u64,
    cr: &mut bool,
) -> Option<usize> {
    let mut i = 0;
    while i < chunk.len() {
        match *state {
            Scan::Field { start } => {
                if start && chunk[i] == b'"' {
                    *state = Scan::Quoted;
                    i += 1;
                    continue;
                }
                match memchr3(b'\n', b'\r', delimiter, &chunk[i..]) {
                    None => {
                        *state = Scan::Field { start: false };
                        return None;
                    }
                    Some(k) => {
                        let j = i + k;
                        if chunk[j] != delimiter {
                            return Some(j);
                        }
                        *state = Scan::Field { start: true };
                        i = j + 1;
                    }
                }
            }
            Scan::Quoted => match memchr(b'"', &chunk[i..]) {
                None => {
                    *breaks += count_breaks(&chunk[i..], cr);
                    return None;
                }
                Some(k) => {
                    *breaks += count_breaks(&chunk[i..i + k], cr);
                    *cr = false;
                    *state = Scan::AfterQuote;
                    i += k + 1;
                }
            },
            Scan::AfterQuote => {
                match chunk[i] {
                    b'"' => *state = Scan::Quoted,
                    b'\n' | b'\r' => return Some(i),
                    b if b == delimiter => *state = Scan::Field { start: true },
                    _ if *breaks > 0 => {
                        *state = Scan::Stray;
                        return None;
                    }
                    _ => *state = Scan::Field { start: false },
                }
                i += 1;
            }
            Scan::Stray => return None,
        }
    }
    None
}

/// How many records of `len` bytes, each ending at a lone `\n`, `data`
/// starts with (at most `max`): plain records, as
/// [`Framer::plain_into`] cuts them one by one, when none holds a `\n`, a
/// `\r` or (in CSV) a quote. Puzzle files are mostly lines of one length:
/// the line ends are checked where they are expected, and the records'
/// bytes in one pass that counts the bytes that end or quote a record,
/// instead of a search per record. 0 when the first is not such a record,
/// or any of the run holds such a byte.
fn same_length_records(data: &[u8], len: usize, max: usize, csv: bool) -> usize {
    // The count runs compiled for AVX2 where the CPU has it.
    simd::widest(
        #[inline(always)]
        || same_length_records_at_width(data, len, max, csv),
    )
}

/// [`same_length_records`]' work, inlined into it for the instruction set
/// it runs with.
#[inline(always)]
fn same_length_records_at_width(data: &[u8], len: usize, max: usize, csv: bool) -> usize {
    let stride = len + 1;
    let n = (0..max.min(data.len() / stride))
        .take_while(|&i| data[i * stride + len] == b'\n')
        .count();
    if n == 0 {
        return 0;
    }
    // Outside CSV a quote is an ordinary byte: count `\n` in its place.
    let quote = if csv { b'"' } else { b'\n' };
    // Counted in chunks of 128 bytes (four 32-byte vectors, and no count
    // over 255), each a loop the compiler vectorises whole, with no
    // remainder (240-byte chunks left 112 bytes of each to narrower steps).
    let count = |bytes: &[u8]| {
        bytes.iter().fold(0u8, |count, &b| {
            count + u8::from((b == b'\n') | (b == b'\r') | (b == quote))
        }) as usize
    };
    let chunks = data[..n * stride].chunks_exact(128);
    let special = count(chunks.remainder()) + chunks.map(count).sum::<usize>();
    if special == n {
        n
    } else {
        0
    }
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
    fn a_lone_carriage_return_ends_a_line_in_any_mixture() {
        assert_eq!(
            both(b"a\rb\r\nc\n\rd\r", false),
            simple(&[(1, "a"), (2, "b"), (3, "c"), (4, ""), (5, "d")])
        );
        assert_eq!(
            both(b"\r\r\n\n\ra", false),
            simple(&[(1, ""), (2, ""), (3, ""), (4, ""), (5, "a")])
        );
        // In CSV, outside quotes only; inside, each kind counts one line.
        assert_eq!(
            both(b"x,\"a\rb\r\nc\nd\"\ry,z\r\nw", true),
            simple(&[(1, "x,\"a\rb\r\nc\nd\""), (5, "y,z"), (6, "w")])
        );
        assert_eq!(
            both(b"x,\"a\"\ry", true),
            simple(&[(1, "x,\"a\""), (2, "y")])
        );
    }

    /// Frames with their `open_quote` flag.
    fn quoted(data: &[u8]) -> Vec<(u64, String, bool)> {
        quoted_with(data, false)
    }

    /// [`quoted`], a line that starts with `r` reading as a record of the
    /// file on its own when `row_test` is set.
    fn quoted_with(data: &[u8], row_test: bool) -> Vec<(u64, String, bool)> {
        let mut all = Vec::new();
        for step in [1 << 16, 1, 2, 5] {
            let src = io::BufReader::with_capacity(step, Trickle { data, step });
            let mut framer = Framer::new(src, true);
            if row_test {
                framer.set_row_test(Box::new(|line: &[u8]| line.starts_with(b"r")));
            }
            let mut out = Vec::new();
            while let Some(frame) = framer.next().unwrap() {
                let text = String::from_utf8_lossy(framer.bytes()).into_owned();
                out.push((frame.line, text, frame.open_quote));
            }
            all.push(out);
        }
        assert!(all.windows(2).all(|w| w[0] == w[1]), "{all:?}");
        all.swap_remove(0)
    }

    #[test]
    fn an_unterminated_quote_costs_its_own_line_only() {
        let open = |l: u64, s: &str| (l, s.to_string(), true);
        let shut = |l: u64, s: &str| (l, s.to_string(), false);
        // The input ends inside the quote.
        assert_eq!(
            quoted(b"a,\"b\r\nc\rd,e\n"),
            [open(1, "a,\"b"), shut(2, "c"), shut(3, "d,e")]
        );
        // On the last line: the record is that line.
        assert_eq!(quoted(b"a\nb,\"c"), [shut(1, "a"), open(2, "b,\"c")]);
        // A quoted note over two lines that closes is one record.
        assert_eq!(
            quoted(b"p,\"multi\nline\"\nq"),
            [shut(1, "p,\"multi\nline\""), shut(3, "q")]
        );
        // A stray quote closed lines later by a quote that no writer puts
        // there (followed by a letter): the stray one's line alone.
        assert_eq!(
            quoted(b"a,\"stray\nb,c\nd,\"e\"f\n"),
            [open(1, "a,\"stray"), shut(2, "b,c"), shut(3, "d,\"e\"f")]
        );
        // On one line, such a quote is taken as it comes (as csv does).
        assert_eq!(quoted(b"a,\"e\"f\n"), [shut(1, "a,\"e\"f")]);
    }

    /// Every frame and its kept bytes (as text, cut to 20 bytes), the same
    /// read in blocks of any size; a line that starts with `r` reads as a
    /// record of the file.
    fn framed_past_cap(data: &[u8]) -> Vec<(Frame, String)> {
        let mut all = Vec::new();
        for step in [1 << 16, 1, 7, 4096] {
            let src = io::BufReader::with_capacity(step, Trickle { data, step });
            let mut framer = Framer::new(src, true);
            framer.set_row_test(Box::new(|line: &[u8]| line.starts_with(b"r")));
            let mut out = Vec::new();
            while let Some(frame) = framer.next().unwrap() {
                let bytes = &framer.bytes()[..framer.bytes().len().min(20)];
                out.push((frame, String::from_utf8_lossy(bytes).into_owned()));
            }
            all.push(out);
        }
        assert!(all.windows(2).all(|w| w[0] == w[1]));
        all.swap_remove(0)
    }

    /// A file whose line 2 opens a quote (`r1,"open`) over `notes` lines
    /// of a note (`note 00012, more`), each ended with `end`, the one at
    /// `row` (0-based) replaced with `r2,in the note`; closed on the line
    /// after them by `close` (`x",y`: as CSV closes it); then `r3,z`.
    /// Returns it and the first line not kept whole (past the cap).
    fn note_past_cap(notes: usize, row: Option<usize>, close: &str, end: &str) -> (Vec<u8>, u64) {
        let mut data = format!("h,note{end}r1,\"open{end}");
        let start = "h,note".len() + end.len();
        for i in 0..notes {
            if Some(i) == row {
                data.push_str("r2,in the note");
            } else {
                data.push_str(&format!("note {i:05}, more"));
            }
            data.push_str(end);
        }
        data.push_str(close);
        data.push_str(end);
        data.push_str("r3,z");
        data.push_str(end);
        let kept = &data.as_bytes()[start..start + MAX_RECORD + 1];
        let ends = kept.iter().filter(|&&b| b == end.as_bytes()[0]).count();
        (data.into_bytes(), 2 + ends as u64)
    }

    #[test]
    fn a_quoted_record_past_the_cap_closed_as_csv_closes_it_is_one_record() {
        let notes = 3 * MAX_RECORD / 16;
        let last = 3 + notes as u64;
        for end in ["\n", "\r\n", "\r"] {
            let (data, _) = note_past_cap(notes, None, "x\",y", end);
            let got = framed_past_cap(&data);
            let lines: Vec<(u64, u64, bool, bool)> = got
                .iter()
                .map(|(f, _)| (f.line, f.last_line, f.too_long, f.open_quote))
                .collect();
            // One record, too long, from line 2 to its closing line; the
            // next record is numbered from there.
            assert_eq!(
                lines,
                [
                    (1, 1, false, false),
                    (2, last, true, false),
                    (last + 1, last + 1, false, false)
                ],
                "{end:?}"
            );
            assert_eq!(got[2].1, "r3,z");
            assert_eq!(
                got[1].0.too_long_message(MAX_RECORD),
                format!("record too long (over {MAX_RECORD} bytes), lines 2-{last}")
            );
            // Ended by the end of the input after its closing quote: the same.
            let cut = data.len() - "r3,z".len() - 2 * end.len();
            let got = framed_past_cap(&data[..cut]);
            assert_eq!(got.len(), 2);
            assert_eq!(
                (got[1].0.line, got[1].0.last_line, got[1].0.too_long),
                (2, last, true)
            );
        }
    }

    #[test]
    fn a_stray_quote_past_the_cap_costs_its_line_and_the_lines_not_kept() {
        let notes = 3 * MAX_RECORD / 16;
        let last = 3 + notes as u64;
        for end in ["\n", "\r\n", "\r"] {
            let row = 2 * MAX_RECORD / 16;
            let at = 3 + row as u64;
            let (data, unkept) = note_past_cap(notes, Some(row), "x\",y", end);
            let got = framed_past_cap(&data);
            // The quote's line, then the note's lines kept (each a record of
            // its own), then, past the lines not kept, the one that reads as
            // a record and those after it: numbered as they lie.
            assert_eq!(got[0].0.line, 1);
            let open = got[1].0;
            assert_eq!(
                (open.line, open.open_quote, open.too_long),
                (2, true, false)
            );
            assert_eq!(open.unread, Some((unkept, at - 1)), "{end:?}");
            assert_eq!(
                open.unterminated_message(MAX_RECORD),
                format!(
                    "unterminated quote opened on line 2; lines {unkept}-{} after it, \
                     past its first {MAX_RECORD} bytes, not read",
                    at - 1
                )
            );
            let lines: Vec<u64> = got[2..].iter().map(|(f, _)| f.line).collect();
            let expected: Vec<u64> = (3..unkept).chain(at..=last + 1).collect();
            assert_eq!(lines, expected, "{end:?}");
            let found = got.iter().find(|(f, _)| f.line == at).unwrap();
            assert_eq!(found.1, "r2,in the note");
            assert!(!found.0.open_quote && !found.0.too_long);
            assert_eq!(got[got.len() - 1].1, "r3,z");
            // The lines after it, read again, are records as they come.
            let closing = got.iter().find(|(f, _)| f.line == last).unwrap();
            assert_eq!(closing.1, "x\",y");
        }
    }

    #[test]
    fn past_the_cap_a_quote_closed_by_a_stray_one_or_never_is_unterminated() {
        let notes = 3 * MAX_RECORD / 16;
        let last = 3 + notes as u64;
        // Closed by a quote followed by a letter: read again from that line.
        let (data, unkept) = note_past_cap(notes, None, "x,\"y\"z", "\n");
        let got = framed_past_cap(&data);
        assert_eq!(got[1].0.unread, Some((unkept, last - 1)));
        let tail: Vec<(u64, &str)> = got[got.len() - 2..]
            .iter()
            .map(|(f, text)| (f.line, &text[..]))
            .collect();
        assert_eq!(tail, [(last, "x,\"y\"z"), (last + 1, "r3,z")]);
        assert_eq!(got.len(), 2 + (unkept - 3) as usize + 2);
        // Never closed: its last line is read again.
        let open = b"h,note\nr1,\"open\n";
        let mut data = open.to_vec();
        for i in 0..notes {
            data.extend_from_slice(format!("note {i:05}, more\n").as_bytes());
        }
        data.extend_from_slice(b"last");
        let got = framed_past_cap(&data);
        let unkept = 2 + data[b"h,note\n".len()..][..MAX_RECORD + 1]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64;
        assert_eq!(got[1].0.unread, Some((unkept, last - 1)));
        assert_eq!(got[got.len() - 1].0.line, last);
        assert_eq!(got[got.len() - 1].1, "last");
        // A line that reads as a record within the cap: every line after
        // the quote's is read again, as for a shorter record.
        let (data, _) = note_past_cap(notes, Some(10), "x\",y", "\n");
        let got = framed_past_cap(&data);
        assert_eq!(got[1].0.unread, None);
        let lines: Vec<u64> = got.iter().map(|(f, _)| f.line).collect();
        assert_eq!(lines, (1..=last + 1).collect::<Vec<u64>>());
        // A note line cut by the cap that reads as a record is read again
        // whole: no line is left unread.
        for row in 236..246 {
            let (data, unkept) = note_past_cap(notes, Some(row), "x\",y", "\n");
            let at = 3 + row as u64;
            let got = framed_past_cap(&data);
            let lines: Vec<u64> = got[2..].iter().map(|(f, _)| f.line).collect();
            let expected: Vec<u64> = (3..unkept.min(at)).chain(at..=last + 1).collect();
            assert_eq!(lines, expected, "{row}");
            assert_eq!(
                got[1].0.unread,
                (unkept < at).then(|| (unkept, at - 1)),
                "{row}"
            );
        }
    }

    #[test]
    fn a_quote_that_takes_in_a_row_of_the_file_is_a_stray_one() {
        let open = |l: u64, s: &str| (l, s.to_string(), true);
        let shut = |l: u64, s: &str| (l, s.to_string(), false);
        // Lone quotes closed by the next line's: each line its own record,
        // whatever the line ends.
        for end in ["\n", "\r\n", "\r"] {
            let data = ["r1,\"", "r2,\"", "r3,x"].join(end) + end;
            assert_eq!(
                quoted_with(data.as_bytes(), true),
                [open(1, "r1,\""), open(2, "r2,\""), shut(3, "r3,x")],
                "{end:?}"
            );
        }
        // A note over lines none of which reads as a row stays one record.
        assert_eq!(
            quoted_with(b"r1,\"a\nb, c\"\nr2,x\n", true),
            [shut(1, "r1,\"a\nb, c\""), shut(3, "r2,x")]
        );
        // Without the test, the rows are taken in, as CSV reads them.
        assert_eq!(quoted(b"r1,\"\nr2,\"\n"), [shut(1, "r1,\"\nr2,\"")]);
    }

    #[test]
    fn the_lines_tested_are_those_inside_a_quote_over_line_ends() {
        let lines = |record: &str, delimiter| -> Vec<String> {
            quoted_lines(record.as_bytes(), delimiter, false, false)
                .map(|line| String::from_utf8_lossy(line).into_owned())
                .collect()
        };
        // After the opening line, up to the closing quote.
        assert_eq!(lines("1,p,\"a\n2,q,\"", b','), ["2,q,"]);
        assert_eq!(lines("1,p,\"a\r\n\r\nb\",c", b','), ["b"]);
        // The opening line's part inside the quote, when it holds a
        // delimiter: the rest of a row after a ditto mark (`1,",<puzzle>`).
        assert_eq!(lines("1,\",p1\n2,\",p2", b','), [",p1", "2,"]);
        assert_eq!(lines("1,\"a, b\nc\"", b','), ["a, b", "c"]);
        assert_eq!(lines("1;\"a, b\nc\"", b';'), ["c"]);
        // A quoted field on one line is not tested, nor are a doubled
        // quote's lines cut at it.
        assert!(lines("1,\"p, q\",\"a\"", b',').is_empty());
        assert_eq!(lines("\"x,\"\"y\nz\"\"\",w", b','), ["x,\"\"y", "z\"\""]);
        // One line of a record, from inside a quoted field (and on into
        // the next line): the lines the whole record's test takes on it.
        let part = |line: &str, runs_on| -> Vec<String> {
            quoted_lines(line.as_bytes(), b',', true, runs_on)
                .map(|line| String::from_utf8_lossy(line).into_owned())
                .collect()
        };
        assert_eq!(part("2,q,", true), ["2,q,"]);
        assert_eq!(part("2,q,\",x", false), ["2,q,"]);
        assert_eq!(part("b\",c,\"d", true), ["b"]);
        assert_eq!(part("b\",c,\",p1", true), ["b", ",p1"]);
        assert_eq!(part("b\",c,\",p1\"", false), ["b"]);
        assert_eq!(part("\"\"q, r", true), ["\"\"q, r"]);
        assert!(part("\",x", false).is_empty());
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

    /// Every record as (line, bytes, too long, open quote), cut by
    /// [`Framer::plain_into`] at most `max` at a time wherever it takes
    /// them, by [`Framer::next_into`] elsewhere, into one buffer emptied
    /// once it holds `chunk` bytes or more (as a chunk is).
    fn cut_all(
        data: &[u8],
        csv: bool,
        step: usize,
        max: usize,
        chunk: usize,
    ) -> Vec<(u64, Vec<u8>, bool, bool)> {
        let src = io::BufReader::with_capacity(step, Trickle { data, step });
        let mut framer = Framer::new(src, csv);
        let (mut out, mut records) = (RecordBytes::default(), Vec::new());
        loop {
            if out.len() >= chunk {
                out.clear();
            }
            let mut spans = Vec::new();
            let cut = framer
                .plain_into(&mut out, max, |line, start, end, bytes| {
                    spans.push((line, start, end, bytes.to_vec()));
                })
                .unwrap();
            assert!(cut <= max);
            if cut > 0 {
                for (line, start, end, bytes) in spans {
                    assert_eq!(out[start..end], bytes[..]);
                    records.push((line, bytes, false, false));
                }
                continue;
            }
            let base = out.len();
            let Some(frame) = framer.next_into(&mut out).unwrap() else {
                return records;
            };
            records.push((
                frame.line,
                out[base..].to_vec(),
                frame.too_long,
                frame.open_quote,
            ));
        }
    }

    #[test]
    fn runs_of_records_of_one_length_are_taken_whole_and_only_when_plain() {
        let line = |c: u8| {
            let mut l = vec![c; 9];
            l.push(b'\n');
            l
        };
        let run: Vec<u8> = (0..30).flat_map(|_| line(b'1')).collect();
        assert_eq!(same_length_records(&run, 9, 100, true), 30);
        assert_eq!(same_length_records(&run, 9, 7, true), 7);
        assert_eq!(same_length_records(&run, 8, 100, true), 0);
        for (at, byte, csv, taken) in [
            (5, b'"', true, 0),
            (5, b'"', false, 30),
            (5, b'\r', false, 0),
            (5, b'\n', true, 0),
        ] {
            let mut odd = run.clone();
            odd[10 * 12 + at] = byte;
            assert_eq!(
                same_length_records(&odd, 9, 100, csv),
                taken,
                "{byte} {csv}"
            );
        }
        // Cut at once or one by one, the records are the same, whatever
        // breaks the run: a quote, a short line, a `\r\n`, a long line.
        let mut data = run.clone();
        data.extend_from_slice(b"22222\"222\n333\n444444444\r\n");
        data.extend(run.iter().copied());
        data.extend_from_slice(b"5555555555555\n");
        data.extend(run.iter().copied());
        for csv in [false, true] {
            let src = io::BufReader::new(&data[..]);
            let mut framer = Framer::new(src, csv);
            let mut one_by_one = Vec::new();
            while let Some(frame) = framer.next().unwrap() {
                let bytes = framer.bytes().to_vec();
                one_by_one.push((frame.line, bytes, frame.too_long, frame.open_quote));
            }
            assert!(one_by_one.len() > 90, "{}", one_by_one.len());
            for max in [1, 5, 2048] {
                assert_eq!(cut_all(&data, csv, 1 << 16, max, 1 << 20), one_by_one);
                assert_eq!(cut_all(&data, csv, 100, max, 1 << 20), one_by_one);
            }
        }
    }

    /// Records cut from many blocks read straight into the output: the
    /// same as read one by one, whatever ends a block (a record's start, a
    /// quote, a `\r\n` cut in two, a record longer than the bytes moved in
    /// front of a block), in chunks of any number of records.
    #[test]
    fn records_read_straight_into_the_output_are_the_records_read_one_by_one() {
        let mut data = Vec::new();
        for i in 0..12_000usize {
            let line = match i % 997 {
                0 => "\"quoted, field\",x\n".to_string(),
                1 => format!("{}\r\n", "7".repeat(81)),
                2 => format!("{}\n", "8".repeat(DIRECT_SPAN + 10)),
                3 => "\n".to_string(),
                _ => format!("{:081},{i}\n", i * 7919),
            };
            data.extend_from_slice(line.as_bytes());
        }
        assert!(data.len() > 10 * BLOCK);
        for csv in [false, true] {
            let src = io::BufReader::new(&data[..]);
            let mut framer = Framer::new(src, csv);
            let mut one_by_one = Vec::new();
            while let Some(frame) = framer.next().unwrap() {
                let bytes = framer.bytes().to_vec();
                one_by_one.push((frame.line, bytes, frame.too_long, frame.open_quote));
            }
            assert_eq!(one_by_one.len(), 12_000);
            for (step, max) in [(1 << 16, 2048), (1 << 16, 333), (5000, 2048), (1 << 20, 7)] {
                let got = cut_all(&data, csv, step, max, 300_000);
                assert_eq!(got, one_by_one, "step {step}, max {max}");
            }
        }
    }

    /// A read that fails is reported, and the records before it were cut.
    #[test]
    fn a_failed_read_is_an_error() {
        struct Failing(usize);
        impl io::Read for Failing {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk gone"));
                }
                self.0 -= 1;
                let line = b"123456789\n";
                let n = out.len() / line.len() * line.len();
                for piece in out[..n].chunks_mut(line.len()) {
                    piece.copy_from_slice(line);
                }
                Ok(n)
            }
        }
        let mut framer = Framer::new(Failing(3), false);
        let mut out = RecordBytes::default();
        assert!(framer.next_into(&mut out).unwrap().is_some());
        let mut cut = 1;
        let err = loop {
            match framer.plain_into(&mut out, 1 << 20, |_, _, _, _| {}) {
                Ok(n) => cut += n,
                Err(e) => break e,
            }
        };
        assert_eq!(err.to_string(), "disk gone");
        assert_eq!(cut, 3 * (BLOCK / 10));
        // The first record came without its line end.
        assert_eq!(out.len(), cut * 10 - 1);
    }

    proptest::proptest! {
        #[test]
        fn plain_records_cut_at_once_are_the_records_read_one_by_one(
            parts in proptest::collection::vec(0..12usize, 0..120),
            csv: bool,
            step in proptest::sample::select(vec![1usize, 3, 64, 1 << 16]),
            max in 1..6usize,
        ) {
            const PARTS: [&[u8]; 11] =
                [b"1", b".", b",", b"\"", b"\n", b"\r", b"\r\n", b"#", b" ", b"\x1A", BOM];
            let long = vec![b'7'; MAX_RECORD - 1];
            let data: Vec<u8> = parts
                .iter()
                .flat_map(|&i| PARTS.get(i).copied().unwrap_or(&long[..]).iter().copied())
                .collect();
            let src = io::BufReader::with_capacity(step, Trickle { data: &data, step });
            let mut framer = Framer::new(src, csv);
            let mut one_by_one = Vec::new();
            while let Some(frame) = framer.next().unwrap() {
                let bytes = framer.bytes().to_vec();
                one_by_one.push((frame.line, bytes, frame.too_long, frame.open_quote));
            }
            proptest::prop_assert_eq!(cut_all(&data, csv, step, max, 64), one_by_one);
        }
    }
}
