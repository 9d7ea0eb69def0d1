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
//! little-endian length and its bytes), without statistics, as the module
//! above explains for the grids; uncompressed, unless
//! `--parquet-compression` says otherwise ([`PageCodec`]: the page's body
//! compressed as one block on the worker, once the page is made).

use std::io::Read;

use bytes::{Buf, Bytes};
use parquet::basic::{Compression, Encoding};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::reader::{ChunkReader, Length};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::schema::types::ColumnDescPtr;
use sudoku_core::grid::{Grid, CELLS};

/// Rows of a page, at most: a chunk of the pipeline's (2,048 records) is
/// one page, about 170 KB of 9x9 grids.
pub(super) const PAGE_ROWS: usize = 4096;

/// Bytes before a page's values: the levels' length (4 bytes), the run's
/// header (a varint of at most 2 bytes for [`PAGE_ROWS`] rows) and one bit
/// a row. The values are written after this room, and the levels at its end
/// when the page is sealed, so that nothing is moved.
const HEAD_ROOM: usize = 4 + 2 + PAGE_ROWS / 8;

/// One finished page of a column made here: its body (levels and values)
/// and its rows; for a column of names ([`super::names`]), which names it
/// holds and its nulls, for the chunk's statistics.
#[derive(Clone, Debug)]
pub(super) struct GridPage {
    pub(super) body: Bytes,
    /// The body's bytes before it was compressed ([`GridPage::compress`]);
    /// `None` while it is as made.
    pub(super) uncompressed: Option<usize>,
    pub(super) rows: usize,
    /// Bit `i` set when the page holds the dictionary's name `i`.
    pub(super) names: u64,
    pub(super) nulls: usize,
    /// The least and greatest value of a page of numbers
    /// ([`GridPages::append_double`]) holding any.
    pub(super) range: Option<(f64, f64)>,
    /// The least and greatest value of a page of integers
    /// ([`super::deltas`]) holding any.
    pub(super) ints: Option<(i64, i64)>,
}

/// What a column made as pages of its own holds, for its chunk's
/// metadata ([`column_chunk`]).
#[derive(Clone, Copy, Debug)]
pub(super) enum Paged {
    /// PLAIN text (the grids, `message`): no statistics.
    Text,
    /// PLAIN 64-bit floats (`solve_us`), with min/max statistics.
    Doubles,
    /// DELTA_BINARY_PACKED integers (`line`, `guesses`; [`super::deltas`]),
    /// with min/max statistics.
    Deltas,
    /// Indices into a dictionary of these names ([`super::names`]), with
    /// min/max statistics of the names held.
    Names(&'static [&'static str]),
}

impl GridPage {
    /// Rows in the page.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// Compresses the page's body with `codec` (nothing for
    /// [`PageCodec::Uncompressed`]).
    ///
    /// # Errors
    /// The compressor failed (never expected).
    pub(super) fn compress(&mut self, codec: &mut PageCodec) -> Result<(), ParquetError> {
        if let Some(compressed) = codec.compress(&self.body)? {
            self.uncompressed = Some(self.body.len());
            self.body = Bytes::from(compressed);
        }
        Ok(())
    }

    /// The body's bytes before it was compressed.
    fn size(&self) -> usize {
        self.uncompressed.unwrap_or(self.body.len())
    }
}

/// How the pages made here are compressed: as the chunk's metadata says
/// ([`PageCodec::compression`]), each page's body (levels and values) as
/// one block, as a data page v1 holds it; snappy's raw format and a zstd
/// frame at level 1, as arrow-rs compresses its own pages.
pub(super) enum PageCodec {
    /// Written as made.
    Uncompressed,
    /// Snappy.
    Snappy(Box<snap::raw::Encoder>),
    /// zstd, with its context kept for the pages to come.
    Zstd(zstd::bulk::Compressor<'static>),
}

impl PageCodec {
    /// A codec of `compression` (uncompressed, snappy or zstd).
    ///
    /// # Errors
    /// Another codec, or zstd's context cannot be made.
    pub(super) fn new(compression: Compression) -> Result<PageCodec, ParquetError> {
        match compression {
            Compression::UNCOMPRESSED => Ok(PageCodec::Uncompressed),
            Compression::SNAPPY => Ok(PageCodec::Snappy(Box::new(snap::raw::Encoder::new()))),
            Compression::ZSTD(level) => zstd::bulk::Compressor::new(level.compression_level())
                .map(PageCodec::Zstd)
                .map_err(|e| ParquetError::External(Box::new(e))),
            other => Err(ParquetError::General(format!(
                "pages made here are not written {other}"
            ))),
        }
    }

    /// `body` compressed, or `None` when pages are written uncompressed.
    fn compress(&mut self, body: &[u8]) -> Result<Option<Vec<u8>>, ParquetError> {
        match self {
            PageCodec::Uncompressed => Ok(None),
            PageCodec::Snappy(encoder) => encoder
                .compress_vec(body)
                .map(Some)
                .map_err(|e| ParquetError::External(Box::new(e))),
            PageCodec::Zstd(compressor) => compressor
                .compress(body)
                .map(Some)
                .map_err(|e| ParquetError::External(Box::new(e))),
        }
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
    /// Nulls in the page being made, and the range of its numbers.
    nulls: usize,
    range: Option<(f64, f64)>,
    /// Bytes to reserve for a page's values.
    page_bytes: usize,
}

impl GridPages {
    /// A column of `n` rows to come, room made for 9x9 grids.
    pub(super) fn with_capacity(n: usize) -> GridPages {
        GridPages::with_room(n, 4 + CELLS)
    }

    /// A column of `n` rows to come, room made for `bytes` a value (its
    /// length included: 0 for a column of mostly nulls, as `message`; 8
    /// for numbers).
    pub(super) fn with_room(n: usize, bytes: usize) -> GridPages {
        let page_bytes = HEAD_ROOM + n.min(PAGE_ROWS) * bytes;
        let mut values = Vec::with_capacity(page_bytes);
        values.resize(HEAD_ROOM, 0);
        GridPages {
            pages: Vec::new(),
            levels: Vec::with_capacity(PAGE_ROWS / 8),
            values,
            rows: 0,
            nulls: 0,
            range: None,
            page_bytes,
        }
    }

    /// Appends a value, or a null.
    pub(super) fn append(&mut self, value: Option<&[u8]>) {
        self.level(value.is_some());
        if let Some(value) = value {
            // Longer than 4 GiB would not fit a page anyway (grids are at
            // most 4,096 characters).
            let len = u32::try_from(value.len()).unwrap_or(u32::MAX);
            self.values.extend_from_slice(&len.to_le_bytes());
            self.values.extend_from_slice(value);
        }
        self.end_row();
    }

    /// Appends a 9x9 grid's 81 characters (`blank` for its blanks), or a
    /// null: written straight into the page in one pass, not made into a
    /// line first and copied.
    #[inline(always)]
    pub(super) fn append_grid(&mut self, grid: Option<&Grid>, blank: u8) {
        self.level(grid.is_some());
        if let Some(grid) = grid {
            let mut value = [0; 4 + CELLS];
            let (len, line) = value.split_at_mut(4);
            len.copy_from_slice(&(CELLS as u32).to_le_bytes());
            // Branch-free over a zip, so that it vectorises.
            for (byte, &v) in line.iter_mut().zip(grid.cells()) {
                *byte = if v == 0 { blank } else { b'0' + v };
            }
            self.values.extend_from_slice(&value);
        }
        self.end_row();
    }

    /// Appends a 64-bit float (PLAIN: its 8 bytes, little-endian), or a
    /// null.
    #[inline(always)]
    pub(super) fn append_double(&mut self, value: Option<f64>) {
        self.level(value.is_some());
        if let Some(value) = value {
            self.values.extend_from_slice(&value.to_le_bytes());
            let (least, most) = self.range.get_or_insert((value, value));
            *least = least.min(value);
            *most = most.max(value);
        }
        self.end_row();
    }

    /// Starts a row: its definition level, 1 when it holds a value.
    #[inline(always)]
    fn level(&mut self, present: bool) {
        push_level(&mut self.levels, self.rows, present);
        if !present {
            self.nulls += 1;
        }
    }

    /// Ends a row, and the page at [`PAGE_ROWS`] rows.
    #[inline(always)]
    fn end_row(&mut self) {
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
        let mut levels = Vec::with_capacity(HEAD_ROOM);
        write_levels(&self.levels, &mut levels);
        let start = HEAD_ROOM - levels.len();
        self.values[start..HEAD_ROOM].copy_from_slice(&levels);
        let mut next = Vec::with_capacity(self.page_bytes);
        next.resize(HEAD_ROOM, 0);
        let values = std::mem::replace(&mut self.values, next);
        self.pages.push(GridPage {
            body: Bytes::from(values).slice(start..),
            uncompressed: None,
            rows: self.rows,
            names: 0,
            nulls: self.nulls,
            range: self.range.take(),
            ints: None,
        });
        self.levels.clear();
        self.rows = 0;
        self.nulls = 0;
    }

    /// The column's pages.
    pub(super) fn finish(mut self) -> Vec<GridPage> {
        self.seal();
        self.pages
    }
}

/// Sets row `row`'s definition level in `levels` (8 rows a byte, the
/// first row in the lowest bit): 1 when `present`, else 0 (a null).
#[inline(always)]
pub(super) fn push_level(levels: &mut Vec<u8>, row: usize, present: bool) {
    if row.is_multiple_of(8) {
        levels.push(0);
    }
    if present {
        if let Some(byte) = levels.last_mut() {
            *byte |= 1 << (row % 8);
        }
    }
}

/// Appends a page's definition `levels` ([`push_level`]) as a data page v1
/// holds them: their length in bytes (4, little-endian), then one
/// bit-packed run of the RLE/bit-packing hybrid (bit width 1): its header,
/// the number of groups of 8 values shifted left by one with the low bit
/// set, as a varint, and the bytes.
pub(super) fn write_levels(levels: &[u8], out: &mut Vec<u8>) {
    let groups = levels.len();
    let mut run = Vec::with_capacity(2);
    uleb(&mut run, ((groups << 1) | 1) as u64);
    out.extend_from_slice(&((run.len() + groups) as u32).to_le_bytes());
    out.extend_from_slice(&run);
    out.extend_from_slice(levels);
}

/// Appends `value` as an unsigned varint (ULEB128): the hybrid's run
/// headers, the delta encoding's counts and Thrift's compact integers.
pub(super) fn uleb(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A grid column's chunk of a row group: its pages' headers and bodies,
/// in order, read by `append_column` where they are (putting them together
/// in one buffer first was a tenth of all samples of a run to Parquet, on
/// the writer's thread: fresh memory for every row group, and a round trip
/// through it).
pub(super) struct GridChunk {
    pieces: Vec<Bytes>,
    len: u64,
}

/// A column's chunk of a row group, from its `pages` in order, and what
/// the row group records of it (for
/// [`parquet::file::writer::SerializedRowGroupWriter::append_column`]):
/// PLAIN pages, or for [`Paged::Names`], the dictionary page of those
/// names first and pages of their indices ([`super::names`]); with the
/// chunk's min/max statistics but for text. The pages are compressed with
/// `compression` already ([`GridPage::compress`]); the dictionary page is
/// compressed here.
///
/// # Errors
/// A page of 2 GiB or more, which a page header cannot give the size of
/// (never expected: [`PAGE_ROWS`] grids of at most 4,096 characters), or
/// a `compression` the pages cannot have ([`PageCodec::new`]).
pub(super) fn column_chunk<'a>(
    descr: ColumnDescPtr,
    paged: Paged,
    compression: Compression,
    pages: impl Iterator<Item = &'a GridPage>,
) -> Result<(GridChunk, ColumnCloseResult), ParquetError> {
    let names = match paged {
        Paged::Names(names) => Some(names),
        Paged::Text | Paged::Doubles | Paged::Deltas => None,
    };
    let mut pieces = Vec::new();
    let mut rows = 0;
    // The chunk's bytes as written, and before compression.
    let mut len = 0;
    let mut size = 0;
    let (mut used, mut nulls) = (0u64, 0);
    let mut range: Option<(f64, f64)> = None;
    let mut ints: Option<(i64, i64)> = None;
    if let Some(names) = names {
        let mut body = Vec::new();
        for name in names {
            body.extend_from_slice(&(name.len() as u32).to_le_bytes());
            body.extend_from_slice(name.as_bytes());
        }
        let mut page = GridPage {
            body: Bytes::from(body),
            uncompressed: None,
            rows: 0,
            names: 0,
            nulls: 0,
            range: None,
            ints: None,
        };
        page.compress(&mut PageCodec::new(compression)?)?;
        let header = dictionary_header(page.size(), page.body.len(), names.len())?;
        len += header.len() + page.body.len();
        size += header.len() + page.size();
        pieces.push(Bytes::from(header));
        pieces.push(page.body);
    }
    let dictionary_len = len;
    let encoding = match paged {
        Paged::Names(_) => RLE_DICTIONARY,
        Paged::Deltas => DELTA_BINARY_PACKED,
        Paged::Text | Paged::Doubles => PLAIN,
    };
    for page in pages {
        let header = header(page.size(), page.body.len(), page.rows, encoding)?;
        len += header.len() + page.body.len();
        size += header.len() + page.size();
        pieces.push(Bytes::from(header));
        pieces.push(page.body.clone());
        rows += page.rows;
        used |= page.names;
        nulls += page.nulls;
        if let Some((least, most)) = page.range {
            let (l, m) = range.get_or_insert((least, most));
            *l = l.min(least);
            *m = m.max(most);
        }
        if let Some((least, most)) = page.ints {
            let (l, m) = ints.get_or_insert((least, most));
            *l = (*l).min(least);
            *m = (*m).max(most);
        }
    }
    let written = i64::try_from(len).map_err(|_| too_big(len))?;
    let size = i64::try_from(size).map_err(|_| too_big(size))?;
    let mut metadata = ColumnChunkMetaData::builder(descr)
        .set_compression(compression)
        .set_num_values(i64::try_from(rows).map_err(|_| too_big(rows))?)
        .set_total_compressed_size(written)
        .set_total_uncompressed_size(size);
    metadata = match paged {
        Paged::Text => metadata
            .set_encodings(vec![Encoding::PLAIN, Encoding::RLE])
            .set_data_page_offset(0),
        Paged::Doubles => metadata
            .set_encodings(vec![Encoding::PLAIN, Encoding::RLE])
            .set_data_page_offset(0)
            .set_statistics(Statistics::Double(ValueStatistics::new(
                range.map(|(least, _)| least),
                range.map(|(_, most)| most),
                None,
                Some(nulls as u64),
                false,
            ))),
        Paged::Deltas => metadata
            .set_encodings(vec![Encoding::RLE, Encoding::DELTA_BINARY_PACKED])
            .set_data_page_offset(0)
            .set_statistics(Statistics::Int64(ValueStatistics::new(
                ints.map(|(least, _)| least),
                ints.map(|(_, most)| most),
                None,
                Some(nulls as u64),
                false,
            ))),
        Paged::Names(names) => {
            let held = names
                .iter()
                .enumerate()
                .filter(|(i, _)| used & (1 << i) != 0)
                .map(|(_, name)| name.as_bytes());
            let bytes = |name: &[u8]| ByteArray::from(name.to_vec());
            let min = held.clone().min().map(bytes);
            let max = held.max().map(bytes);
            let statistics = Statistics::ByteArray(ValueStatistics::new(
                min,
                max,
                None,
                Some(nulls as u64),
                false,
            ));
            metadata
                .set_encodings(vec![
                    Encoding::PLAIN,
                    Encoding::RLE,
                    Encoding::RLE_DICTIONARY,
                ])
                .set_dictionary_page_offset(Some(0))
                .set_data_page_offset(dictionary_len as i64)
                .set_statistics(statistics)
        }
    };
    let close = ColumnCloseResult {
        bytes_written: len as u64,
        rows_written: rows as u64,
        metadata: metadata.build()?,
        bloom_filter: None,
        column_index: None,
        offset_index: None,
    };
    let chunk = GridChunk {
        pieces,
        len: len as u64,
    };
    Ok((chunk, close))
}

/// The error of a page or chunk too big for its header's sizes.
fn too_big(size: usize) -> ParquetError {
    ParquetError::General(format!("a grid page or column chunk of {size} bytes"))
}

/// Parquet's number of the PLAIN encoding.
const PLAIN: i32 = 0;

/// Parquet's number of the RLE_DICTIONARY encoding.
const RLE_DICTIONARY: i32 = 8;

/// Parquet's number of the DELTA_BINARY_PACKED encoding.
const DELTA_BINARY_PACKED: i32 = 5;

/// A field of type i32 (5) whose id is one past the last one's (Thrift's
/// compact protocol).
const NEXT_I32: u8 = 0x15;

/// The Thrift header (compact protocol) of a data page (v1) of `rows` rows
/// whose body (levels and values) is `compressed` bytes, `size`
/// uncompressed, its values in `encoding` (PLAIN, or RLE_DICTIONARY
/// indices), RLE levels, no statistics.
///
/// # Errors
/// `size` or `rows` past `i32`.
fn header(
    size: usize,
    compressed: usize,
    rows: usize,
    encoding: i32,
) -> Result<Vec<u8>, ParquetError> {
    let size = i32::try_from(size).map_err(|_| too_big(size))?;
    let compressed = i32::try_from(compressed).map_err(|_| too_big(compressed))?;
    let rows = i32::try_from(rows).map_err(|_| too_big(rows))?;
    let mut header = Vec::with_capacity(24);
    // PageHeader: 1 type (DATA_PAGE, 0), 2 uncompressed_page_size,
    // 3 compressed_page_size, 5 data_page_header (a struct, 12: the id 2
    // past the last one).
    for value in [0, size, compressed] {
        header.push(NEXT_I32);
        varint(&mut header, value);
    }
    header.push(0x2c);
    // DataPageHeader: 1 num_values, 2 encoding, 3 and 4 the definition and
    // repetition levels' encodings (RLE, 3).
    for value in [rows, encoding, 3, 3] {
        header.push(NEXT_I32);
        varint(&mut header, value);
    }
    // The ends of DataPageHeader and PageHeader.
    header.extend_from_slice(&[0, 0]);
    Ok(header)
}

/// The Thrift header of a dictionary page of `values` PLAIN values whose
/// body is `compressed` bytes, `size` uncompressed.
///
/// # Errors
/// `size`, `compressed` or `values` past `i32`.
fn dictionary_header(
    size: usize,
    compressed: usize,
    values: usize,
) -> Result<Vec<u8>, ParquetError> {
    let size = i32::try_from(size).map_err(|_| too_big(size))?;
    let compressed = i32::try_from(compressed).map_err(|_| too_big(compressed))?;
    let values = i32::try_from(values).map_err(|_| too_big(values))?;
    let mut header = Vec::with_capacity(24);
    // PageHeader: 1 type (DICTIONARY_PAGE, 2), 2 and 3 the sizes,
    // 7 dictionary_page_header (a struct, 12: the id 4 past the last one).
    for value in [2, size, compressed] {
        header.push(NEXT_I32);
        varint(&mut header, value);
    }
    header.push(0x4c);
    // DictionaryPageHeader: 1 num_values, 2 encoding (PLAIN), 3 is_sorted
    // (false: a bool field's type is its value, 2).
    for value in [values, PLAIN] {
        header.push(NEXT_I32);
        varint(&mut header, value);
    }
    header.push(0x12);
    header.extend_from_slice(&[0, 0]);
    Ok(header)
}

/// Appends `value` zigzag-encoded as a varint (Thrift's compact i32).
fn varint(out: &mut Vec<u8>, value: i32) {
    uleb(out, u64::from(((value << 1) ^ (value >> 31)) as u32));
}

impl Length for GridChunk {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for GridChunk {
    type T = PiecesReader;

    fn get_read(&self, start: u64) -> Result<PiecesReader, ParquetError> {
        let mut reader = PiecesReader {
            pieces: self.pieces.clone().into_iter(),
            current: Bytes::new(),
        };
        let mut skip = usize::try_from(start).unwrap_or(usize::MAX);
        while skip > 0 {
            if reader.current.is_empty() {
                match reader.pieces.next() {
                    Some(piece) => reader.current = piece,
                    None => break,
                }
            }
            let n = skip.min(reader.current.len());
            reader.current.advance(n);
            skip -= n;
        }
        Ok(reader)
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes, ParquetError> {
        let mut bytes = vec![0; length];
        self.get_read(start)?.read_exact(&mut bytes)?;
        Ok(bytes.into())
    }
}

/// Reads a [`GridChunk`]'s pieces in order.
pub(super) struct PiecesReader {
    pieces: std::vec::IntoIter<Bytes>,
    /// What is left of the piece being read.
    current: Bytes,
}

impl Read for PiecesReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            match self.pieces.next() {
                Some(piece) => self.current = piece,
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        self.current.advance(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_header_is_the_one_parquet_writes() {
        use parquet::column::page::{CompressedPage, Page, PageWriter};
        use parquet::file::writer::{SerializedPageWriter, TrackedWrite};

        let theirs = |page: Page, size: usize| {
            let mut sink = TrackedWrite::new(Vec::new());
            {
                let mut writer = SerializedPageWriter::new(&mut sink);
                writer.write_page(CompressedPage::new(page, size)).unwrap();
                writer.close().unwrap();
            }
            sink.into_inner().unwrap()
        };
        let sizes = [(1, 1), (174_603, 2048), (300, 70), (1 << 30, 4096)];
        for (size, rows) in sizes {
            for (encoding, number) in [
                (Encoding::PLAIN, PLAIN),
                (Encoding::RLE_DICTIONARY, RLE_DICTIONARY),
            ] {
                let page = Page::DataPage {
                    buf: Bytes::new(),
                    num_values: rows as u32,
                    encoding,
                    def_level_encoding: Encoding::RLE,
                    rep_level_encoding: Encoding::RLE,
                    statistics: None,
                };
                // Their page's body is empty: 0 bytes compressed.
                let ours = header(size, 0, rows, number).unwrap();
                assert_eq!(ours, theirs(page, size), "{size} bytes, {rows} rows");
            }
            let page = Page::DictionaryPage {
                buf: Bytes::new(),
                num_values: rows as u32,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            };
            // Their dictionary page's body is empty too.
            let ours = dictionary_header(size, 0, rows).unwrap();
            assert_eq!(ours, theirs(page, size), "dictionary of {rows}");
        }
    }

    #[test]
    fn a_chunk_reads_back_whole_from_any_start() {
        let pages = [GridPage {
            body: Bytes::from_static(b"levels and values"),
            uncompressed: None,
            rows: 3,
            names: 0,
            nulls: 0,
            range: None,
            ints: None,
        }];
        let descr = {
            use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
            use parquet::schema::types::{ColumnDescriptor, ColumnPath, Type};
            let leaf = Type::primitive_type_builder("puzzle", PhysicalType::BYTE_ARRAY)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(Some(LogicalType::String))
                .build()
                .unwrap();
            std::sync::Arc::new(ColumnDescriptor::new(
                std::sync::Arc::new(leaf),
                1,
                0,
                ColumnPath::from("puzzle"),
            ))
        };
        let (chunk, close) =
            column_chunk(descr, Paged::Text, Compression::UNCOMPRESSED, pages.iter()).unwrap();
        let mut whole = Vec::new();
        chunk.get_read(0).unwrap().read_to_end(&mut whole).unwrap();
        assert_eq!(whole.len() as u64, chunk.len());
        assert_eq!(close.metadata.compressed_size(), whole.len() as i64);
        assert!(whole.ends_with(b"levels and values"));
        assert_eq!(chunk.get_bytes(3, 5).unwrap(), whole[3..8]);
    }
}
