//! The first records of a CSV or JSON Lines input, read ahead of their
//! turn so that what belongs to the whole input is chosen before any record
//! is parsed on the workers: the puzzle column by content (as Parquet
//! looks at its first 1,000 rows, [`super::choose`]) and how the input
//! numbers its grids ([`super::sized::Numbering`]). The records are then
//! read again, in order, from memory: none is lost, from stdin either.

use std::collections::VecDeque;
use std::io::{self, Read};

use super::frame::{Frame, Framer};
use super::lines::is_skipped;

/// Records read ahead at most (blank and comment lines not counted), as
/// many as Parquet's first look (`parquet_reader`).
pub const AHEAD_RECORDS: usize = 1000;

/// Bytes of records read ahead at most: the look ends at the record that
/// reaches it, so records of long kept values (up to 1 MiB each) take a
/// few MiB, not a gigabyte.
pub const AHEAD_BYTES: usize = 4 << 20;

/// Records read ahead of their turn, handed out again in order before the
/// framer's next ones.
#[derive(Default)]
pub struct Ahead {
    queued: VecDeque<(Frame, Vec<u8>)>,
    /// The bytes of the last record handed out from the queue.
    bytes: Vec<u8>,
    /// The last record handed out came from the queue.
    replayed: bool,
    /// The look was taken (it is taken once, at the first record).
    taken: bool,
    /// The input failed to read during the look: reported after the
    /// records read before the failure.
    failed: Option<io::Error>,
}

impl Ahead {
    /// Reads ahead: `first`, the record `framer` just returned (`None`:
    /// it is not read again), and the records after it, until
    /// [`AHEAD_RECORDS`] records, [`AHEAD_BYTES`] bytes or the end of the
    /// input.
    pub fn look<R: Read>(&mut self, first: Option<Frame>, framer: &mut Framer<R>) {
        self.taken = true;
        let mut size = framer.bytes().len();
        let mut count = 1;
        if let Some(first) = first {
            self.queued.push_back((first, framer.bytes().to_vec()));
        }
        while count < AHEAD_RECORDS && size < AHEAD_BYTES {
            let frame = match framer.next() {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(e) => {
                    self.failed = Some(e);
                    break;
                }
            };
            let bytes = framer.bytes();
            if !frame.too_long && !is_skipped(bytes) {
                count += 1;
            }
            size += bytes.len();
            self.queued.push_back((frame, bytes.to_vec()));
        }
    }

    /// True once [`Ahead::look`] was taken.
    pub fn taken(&self) -> bool {
        self.taken
    }

    /// True while records read ahead (or a read error met during the look)
    /// are still to be handed out.
    pub fn pending(&self) -> bool {
        !self.queued.is_empty() || self.failed.is_some()
    }

    /// The records read ahead and not yet handed out, in order: each
    /// record's frame and kept bytes.
    pub fn records(&self) -> impl Iterator<Item = (Frame, &[u8])> + '_ {
        self.queued
            .iter()
            .map(|(frame, bytes)| (*frame, &bytes[..]))
    }

    /// The next record: the next one read ahead, else the framer's.
    ///
    /// # Errors
    /// The input failed to read (during the look: once its records before
    /// the failure are handed out).
    pub fn next<R: Read>(&mut self, framer: &mut Framer<R>) -> io::Result<Option<Frame>> {
        if let Some((frame, bytes)) = self.queued.pop_front() {
            self.bytes = bytes;
            self.replayed = true;
            return Ok(Some(frame));
        }
        if self.replayed {
            self.replayed = false;
            self.bytes = Vec::new();
        }
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        framer.next()
    }

    /// The kept bytes of the record [`Ahead::next`] returned last.
    pub fn bytes<'a, R: Read>(&'a self, framer: &'a Framer<R>) -> &'a [u8] {
        if self.replayed {
            &self.bytes
        } else {
            framer.bytes()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_ahead_come_again_in_order_then_the_rest() {
        let text: String = (1..=AHEAD_RECORDS + 5)
            .map(|i| format!("{i}\n\n"))
            .collect();
        let mut framer = Framer::new(text.as_bytes(), false);
        let mut ahead = Ahead::default();
        let first = framer.next().unwrap().unwrap();
        ahead.look(Some(first), &mut framer);
        // Blank lines are read ahead but not counted.
        let looked: Vec<&[u8]> = ahead
            .records()
            .map(|(_, bytes)| bytes)
            .filter(|b| !b.is_empty())
            .collect();
        assert_eq!(looked.len(), AHEAD_RECORDS);
        let mut all = Vec::new();
        while let Some(frame) = ahead.next(&mut framer).unwrap() {
            let bytes = ahead.bytes(&framer);
            if !bytes.is_empty() {
                all.push((frame.line, String::from_utf8(bytes.to_vec()).unwrap()));
            }
        }
        let want: Vec<(u64, String)> = (1..=AHEAD_RECORDS + 5)
            .map(|i| (2 * i as u64 - 1, i.to_string()))
            .collect();
        assert_eq!(all, want);
    }

    #[test]
    fn the_look_ends_at_its_bytes() {
        let long = "x".repeat(AHEAD_BYTES / 3);
        let text = format!("{long}\n{long}\n{long}\n{long}\nend\n");
        let mut framer = Framer::new(text.as_bytes(), false).with_cap(1 << 22);
        let mut ahead = Ahead::default();
        let first = framer.next().unwrap().unwrap();
        ahead.look(Some(first), &mut framer);
        assert_eq!(ahead.records().count(), 4);
    }
}
