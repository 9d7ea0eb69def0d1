//! The grid columns (`puzzle`, `solution`) as Parquet data pages made
//! here, on the solver worker that finishes a chunk, instead of by
//! arrow-rs's column writer on the writer's threads: each value's length and
//! bytes are written once, straight into the page, which the writer then
//! only frames with its header (arrow-rs copied each grid into an Arrow
//! array, into a page buffer that grew by doubling, and into the page again,
//! at about 1,000 instructions a row for the two columns).
//!
//! A page is a data page (format v1) of up to [`PAGE_ROWS`] rows: the
//! definition levels as one bit-packed run of the RLE/bit-packing hybrid
//! (bit width 1: a null is 0), then the values, PLAIN (each a 4-byte
//! little-endian length and its bytes), uncompressed and without
//! statistics, as the module above explains for the grids.

use bytes::Bytes;
use parquet::basic::{Compression, Encoding};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::ParquetError;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

/// Rows of a page, at most: a chunk of the pipeline's (2,048 records) is
/// one page, about 170 KB of 9x9 grids.
pub(super) const PAGE_ROWS: usize = 4096;

/// Bytes before a page's values: the levels' length (4 bytes), the run's
/// header (a varint of at most 2 bytes for [`PAGE_ROWS`] rows) and one bit
/// a row. The values are written after this room, and the levels at its end
/// when the page is sealed, so that nothing is moved.
const HEAD_ROOM: usize = 4 + 2 + PAGE_ROWS / 8;

/// One finished page of a grid column: its body (levels and values) and
/// its rows.
#[derive(Clone, Debug)]
pub(super) struct GridPage {
    body: Bytes,
    rows: usize,
}

impl GridPage {
    /// Rows in the page.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }
}

/// A grid column's pages being made, a value at a time.
pub(super) struct GridPages {
    pages: Vec<GridPage>,
    /// The definition levels of the page being made, 8 rows a byte, the
    /// first row in the lowest bit.
    levels: Vec<u8>,
    /// [`HEAD_ROOM`] bytes, then the values of the page being made.
    values: Vec<u8>,
    /// Rows in the page being made.
    rows: usize,
    /// Bytes to reserve for a page's values.
    page_bytes: usize,
}

impl GridPages {
    /// A column of `n` rows to come, room made for 9x9 grids.
    pub(super) fn with_capacity(n: usize) -> GridPages {
        let page_bytes = HEAD_ROOM + n.min(PAGE_ROWS) * (4 + 81);
        let mut values = Vec::with_capacity(page_bytes);
        values.resize(HEAD_ROOM, 0);
        GridPages {
            pages: Vec::new(),
            levels: Vec::with_capacity(PAGE_ROWS / 8),
            values,
            rows: 0,
            page_bytes,
        }
    }

    /// Appends a value, or a null.
    pub(super) fn append(&mut self, value: Option<&[u8]>) {
        if self.rows.is_multiple_of(8) {
            self.levels.push(0);
        }
        if let Some(value) = value {
            if let Some(byte) = self.levels.last_mut() {
                *byte |= 1 << (self.rows % 8);
            }
            // Longer than 4 GiB would not fit a page anyway (grids are at
            // most 4,096 characters).
            let len = u32::try_from(value.len()).unwrap_or(u32::MAX);
            self.values.extend_from_slice(&len.to_le_bytes());
            self.values.extend_from_slice(value);
        }
        self.rows += 1;
        if self.rows == PAGE_ROWS {
            self.seal();
        }
    }

    /// Ends the page being made, if it has rows: its levels are written at
    /// the end of the room before its values.
    fn seal(&mut self) {
        if self.rows == 0 {
            return;
        }
        let groups = self.levels.len();
        let mut run = [0u8; 2];
        // The run's header: the number of groups of 8 values, shifted left
        // by one, with the low bit set (bit-packed), as a varint.
        let header = (groups << 1) | 1;
        let header_len = if header < 0x80 {
            run[0] = header as u8;
            1
        } else {
            run[0] = (header as u8) | 0x80;
            run[1] = (header >> 7) as u8;
            2
        };
        let levels_len = header_len + groups;
        let start = HEAD_ROOM - 4 - levels_len;
        self.values[start..start + 4].copy_from_slice(&(levels_len as u32).to_le_bytes());
        self.values[start + 4..start + 4 + header_len].copy_from_slice(&run[..header_len]);
        self.values[HEAD_ROOM - groups..HEAD_ROOM].copy_from_slice(&self.levels);
        let mut next = Vec::with_capacity(self.page_bytes);
        next.resize(HEAD_ROOM, 0);
        let values = std::mem::replace(&mut self.values, next);
        self.pages.push(GridPage {
            body: Bytes::from(values).slice(start..),
            rows: self.rows,
        });
        self.levels.clear();
        self.rows = 0;
    }

    /// The column's pages.
    pub(super) fn finish(mut self) -> Vec<GridPage> {
        self.seal();
        self.pages
    }
}

/// A grid column's chunk of a row group, from its `pages` in order: the
/// pages framed by their headers, in one buffer, and what the row group
/// records of it (for [`parquet::file::writer::SerializedRowGroupWriter::append_column`]).
///
/// # Errors
/// The chunk's metadata cannot be built (never expected).
pub(super) fn column_chunk<'a>(
    descr: ColumnDescPtr,
    pages: impl Iterator<Item = &'a GridPage> + Clone,
) -> Result<(Bytes, ColumnCloseResult), ParquetError> {
    let capacity = pages.clone().map(|page| page.body.len() + 32).sum();
    let mut sink = TrackedWrite::new(Vec::with_capacity(capacity));
    let mut rows = 0;
    {
        let mut writer = SerializedPageWriter::new(&mut sink);
        for page in pages {
            let data = Page::DataPage {
                buf: page.body.clone(),
                num_values: u32::try_from(page.rows).unwrap_or(u32::MAX),
                encoding: Encoding::PLAIN,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            };
            writer.write_page(CompressedPage::new(data, page.body.len()))?;
            rows += page.rows;
        }
        writer.close()?;
    }
    let chunk = sink.into_inner()?;
    let size = i64::try_from(chunk.len()).unwrap_or(i64::MAX);
    let metadata = ColumnChunkMetaData::builder(descr)
        .set_compression(Compression::UNCOMPRESSED)
        .set_encodings(vec![Encoding::PLAIN, Encoding::RLE])
        .set_num_values(rows as i64)
        .set_total_compressed_size(size)
        .set_total_uncompressed_size(size)
        .set_data_page_offset(0)
        .build()?;
    let close = ColumnCloseResult {
        bytes_written: chunk.len() as u64,
        rows_written: rows as u64,
        metadata,
        bloom_filter: None,
        column_index: None,
        offset_index: None,
    };
    Ok((Bytes::from(chunk), close))
}
