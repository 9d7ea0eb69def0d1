//! The integer columns (`line`, `guesses`) as DELTA_BINARY_PACKED Parquet
//! data pages made here, on the solver worker that finishes a chunk, as
//! [`super::grids`] makes the grids' pages: `line` counts up by one and
//! `guesses` is mostly 0, so a page of them is a few bytes a hundred rows.
//! arrow-rs's column writer took them through a builder, an Arrow array
//! and its encoder thread at about 230 instructions a row.
//!
//! A page is a data page (format v1) of up to [`PAGE_ROWS`] rows: for a
//! nullable column, the definition levels as the grids' pages have them;
//! then the values present, delta-encoded as the format specifies: a
//! header (block size 128, 4 miniblocks, the count, the first value), then
//! for each block of 128 deltas its least delta and the bit width of each
//! miniblock of 32, and the miniblocks' deltas less the least, bit-packed
//! from the lowest bit.

use bytes::Bytes;

use super::grids::{push_level, uleb, write_levels, GridPage, PAGE_ROWS};

/// Deltas in a block.
const BLOCK: usize = 128;

/// Miniblocks in a block.
const MINIBLOCKS: usize = 4;

/// Deltas in a miniblock.
const MINIBLOCK: usize = BLOCK / MINIBLOCKS;

/// An integer column's pages being made, a value at a time.
pub(super) struct DeltaPages {
    pages: Vec<GridPage>,
    /// True when the column has definition levels (a nullable column).
    nullable: bool,
    /// The definition levels of the page being made, 8 rows a byte.
    levels: Vec<u8>,
    /// The values present in the page being made.
    values: Vec<i64>,
    rows: usize,
}

impl DeltaPages {
    /// A column with definition levels when `nullable`.
    pub(super) fn new(nullable: bool) -> DeltaPages {
        DeltaPages {
            pages: Vec::new(),
            nullable,
            levels: Vec::with_capacity(PAGE_ROWS / 8),
            values: Vec::with_capacity(PAGE_ROWS),
            rows: 0,
        }
    }

    /// Appends a value, or a null (only in a nullable column). Values are
    /// below 2^63 (lines and guesses), so their order as `i64` is theirs.
    #[inline(always)]
    pub(super) fn append(&mut self, value: Option<u64>) {
        if self.nullable {
            push_level(&mut self.levels, self.rows, value.is_some());
        }
        if let Some(value) = value {
            self.values.push(value as i64);
        }
        self.rows += 1;
        if self.rows == PAGE_ROWS {
            self.seal();
        }
    }

    /// Ends the page being made, if it has rows.
    fn seal(&mut self) {
        if self.rows == 0 {
            return;
        }
        let mut body = Vec::with_capacity(64 + self.levels.len() + self.values.len() / 8);
        if self.nullable {
            write_levels(&self.levels, &mut body);
        }
        encode(&self.values, &mut body);
        let range = least_and_most(&self.values);
        self.pages.push(GridPage {
            body: Bytes::from(body),
            uncompressed: None,
            rows: self.rows,
            names: 0,
            nulls: self.rows - self.values.len(),
            range: None,
            ints: range,
        });
        self.levels.clear();
        self.values.clear();
        self.rows = 0;
    }

    /// The column's pages.
    pub(super) fn finish(mut self) -> Vec<GridPage> {
        self.seal();
        self.pages
    }
}

/// The least and the greatest of `values`, `None` when there are none, in
/// one pass (`Iterator::min` and `max` made two).
fn least_and_most(values: &[i64]) -> Option<(i64, i64)> {
    let first = *values.first()?;
    let (mut least, mut most) = (first, first);
    for &value in values {
        least = least.min(value);
        most = most.max(value);
    }
    Some((least, most))
}

/// Appends `values` DELTA_BINARY_PACKED to `out`.
fn encode(values: &[i64], out: &mut Vec<u8>) {
    uleb(out, BLOCK as u64);
    uleb(out, MINIBLOCKS as u64);
    uleb(out, values.len() as u64);
    uleb(out, zigzag(values.first().copied().unwrap_or(0)));
    // A block's deltas on the stack, its widths in an array: no vectors
    // made per block (two allocations per 128 values before).
    let mut deltas = [0i64; BLOCK];
    for start in (1..values.len()).step_by(BLOCK) {
        let end = (start + BLOCK).min(values.len());
        let block = &mut deltas[..end - start];
        for (delta, pair) in block.iter_mut().zip(values[start - 1..end].windows(2)) {
            *delta = pair[1].wrapping_sub(pair[0]);
        }
        // The least delta and each miniblock's greatest in one pass; a
        // miniblock's width is that of its greatest less the least (the
        // order of deltas less the least, as u64, is theirs).
        let mut least = i64::MAX;
        let mut mosts = [i64::MIN; MINIBLOCKS];
        for (most, mini) in mosts.iter_mut().zip(block.chunks(MINIBLOCK)) {
            for &delta in mini.iter() {
                least = least.min(delta);
                *most = (*most).max(delta);
            }
        }
        uleb(out, zigzag(least));
        let mut widths = [0u32; MINIBLOCKS];
        let used = block.len().div_ceil(MINIBLOCK);
        for (width, most) in widths.iter_mut().zip(mosts).take(used) {
            *width = u64::BITS - (most.wrapping_sub(least) as u64).leading_zeros();
        }
        out.extend(widths.iter().map(|&w| w as u8));
        for (mini, &width) in block.chunks(MINIBLOCK).zip(&widths) {
            pack(
                mini.iter().map(|&d| d.wrapping_sub(least) as u64),
                width,
                out,
            );
        }
    }
}

/// Appends a miniblock's values (padded with zeros to [`MINIBLOCK`]),
/// `width` bits each, from the lowest bit.
fn pack(values: impl Iterator<Item = u64>, width: u32, out: &mut Vec<u8>) {
    if width == 0 {
        return;
    }
    let mut acc: u128 = 0;
    let mut bits = 0;
    let padded = values.chain(std::iter::repeat(0)).take(MINIBLOCK);
    for value in padded {
        acc |= u128::from(value) << bits;
        bits += width;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
}

/// `value` zigzag-encoded.
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_miniblock_is_packed_from_the_lowest_bit_and_padded_to_32_values() {
        let mut out = Vec::new();
        pack([1, 2, 3, 0, 1].into_iter(), 2, &mut out);
        // 01 10 11 00 | 01 then zeros: 32 values of 2 bits are 8 bytes.
        assert_eq!(out, [0b0011_1001, 0b0000_0001, 0, 0, 0, 0, 0, 0]);
        let mut none = Vec::new();
        pack([0, 0].into_iter(), 0, &mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn least_and_most_span_the_values_wherever_they_are() {
        assert_eq!(least_and_most(&[]), None);
        assert_eq!(least_and_most(&[7]), Some((7, 7)));
        assert_eq!(least_and_most(&[3, -2, 9, 0, 9, -2]), Some((-2, 9)));
        assert_eq!(least_and_most(&[5, 4, 3]), Some((3, 5)));
    }

    #[test]
    fn a_run_counting_up_by_one_is_a_header_and_a_few_bytes_a_block() {
        let values: Vec<i64> = (1..=4096).collect();
        let mut out = Vec::new();
        encode(&values, &mut out);
        // Header (128, 4, 4096, first 1) then per block of 128 deltas of
        // 1: the least delta (1, zigzag 2) and four widths of 0.
        let blocks = 4095_usize.div_ceil(BLOCK);
        assert_eq!(out.len(), 2 + 1 + 2 + 1 + blocks * 5);
        assert_eq!(&out[6..11], [2, 0, 0, 0, 0]);
    }
}
