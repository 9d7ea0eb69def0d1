//! The columns of a few names (`status`, `check`) as dictionary-encoded
//! Parquet data pages made here, on the solver worker that finishes a
//! chunk, as [`super::grids`] makes the grids' pages: each value is its
//! index in a fixed dictionary of the column's names (the chunk's
//! dictionary page, [`super::grids::column_chunk`]), written as runs of the
//! RLE/bit-packing hybrid, so a page of one status throughout is a few
//! bytes. arrow-rs's column writer copied every name into an Arrow array,
//! compared it for the statistics and compressed the plain values: about
//! 330 instructions a row for `status`, `check` and `message` on the
//! encoders' thread.
//!
//! A page is a data page (format v1) of up to [`PAGE_ROWS`] rows: for a
//! nullable column, the definition levels as one bit-packed run (bit width
//! 1: a null is 0), as the grids' pages have them; then the bit width of
//! the indices (one byte) and their RLE runs (a varint of the run's length
//! shifted left by one, then the index in one byte).

use bytes::Bytes;

use super::grids::{push_level, uleb, write_levels, GridPage, PAGE_ROWS};

/// A column of names' pages being made, a value at a time.
pub(super) struct NamePages {
    pages: Vec<GridPage>,
    /// True when the column has definition levels (a nullable column).
    nullable: bool,
    /// The bit width of an index: enough for the dictionary's last.
    width: u8,
    /// The definition levels of the page being made, 8 rows a byte, the
    /// first row in the lowest bit.
    levels: Vec<u8>,
    /// The finished runs of the page being made.
    runs: Vec<u8>,
    /// The run being counted: an index and its length.
    run: Option<(u8, u32)>,
    /// The names the page being made holds, a bit for each index.
    names: u64,
    nulls: usize,
    rows: usize,
}

impl NamePages {
    /// A column of indices into a dictionary of `names` names (at most
    /// 64), with definition levels when `nullable`.
    pub(super) fn new(names: usize, nullable: bool) -> NamePages {
        let last = names.saturating_sub(1).max(1) as u64;
        NamePages {
            pages: Vec::new(),
            nullable,
            width: (u64::BITS - last.leading_zeros()) as u8,
            levels: Vec::with_capacity(PAGE_ROWS / 8),
            runs: Vec::new(),
            run: None,
            names: 0,
            nulls: 0,
            rows: 0,
        }
    }

    /// Appends the name of index `value`, or a null (only in a nullable
    /// column).
    #[inline]
    pub(super) fn append(&mut self, value: Option<u8>) {
        if self.nullable {
            push_level(&mut self.levels, self.rows, value.is_some());
        }
        match (value, &mut self.run) {
            (Some(index), Some((current, length))) if *current == index => *length += 1,
            (Some(index), _) => {
                self.end_run();
                self.run = Some((index, 1));
                self.names |= 1 << index;
            }
            (None, _) => self.nulls += 1,
        }
        self.rows += 1;
        if self.rows == PAGE_ROWS {
            self.seal();
        }
    }

    /// Writes the run being counted, if any.
    fn end_run(&mut self) {
        if let Some((index, length)) = self.run.take() {
            uleb(&mut self.runs, u64::from(length) << 1);
            self.runs.push(index);
        }
    }

    /// Ends the page being made, if it has rows.
    fn seal(&mut self) {
        if self.rows == 0 {
            return;
        }
        self.end_run();
        let mut body = Vec::with_capacity(8 + self.levels.len() + self.runs.len());
        if self.nullable {
            write_levels(&self.levels, &mut body);
        }
        body.push(self.width);
        body.extend_from_slice(&self.runs);
        self.pages.push(GridPage {
            body: Bytes::from(body),
            uncompressed: None,
            rows: self.rows,
            names: self.names,
            nulls: self.nulls,
            range: None,
            ints: None,
        });
        self.levels.clear();
        self.runs.clear();
        self.names = 0;
        self.nulls = 0;
        self.rows = 0;
    }

    /// The column's pages.
    pub(super) fn finish(mut self) -> Vec<GridPage> {
        self.seal();
        self.pages
    }
}
