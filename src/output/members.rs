//! gzip results compressed a chunk at a time on the solver workers: each
//! chunk's rows become one gzip member, and members written one after
//! another are one gzip file (RFC 1952, section 2.2), which gzip, zcat,
//! Python's `gzip`, pandas and Polars read whole. The writer thread then
//! only writes bytes, and compression runs on every solver thread instead
//! of holding the run to the speed of one.

use std::io::Write;
use std::sync::Arc;

use flate2::write::GzEncoder;
use flate2::Crc;

use super::{Compression, PlainRows, RowFormat};
use crate::output::result::PuzzleResult;
use crate::output::sink::LEVEL;

/// The rows of another format, each chunk of them sealed as one gzip
/// member ([`RowFormat::seal`]).
pub(crate) struct GzipMembers {
    /// The rows' own format.
    pub(crate) rows: Arc<dyn RowFormat>,
}

impl GzipMembers {
    /// `rows` for a text output compressed by `compression`: sealed a
    /// gzip member per chunk for gzip, as they are otherwise (a zstd
    /// output is one stream, compressed by its `Sink`).
    pub(crate) fn around(rows: Arc<dyn RowFormat>, compression: Compression) -> Arc<dyn RowFormat> {
        match compression {
            Compression::Gzip => Arc::new(GzipMembers { rows }),
            Compression::None | Compression::Zstd => rows,
        }
    }
}

impl RowFormat for GzipMembers {
    fn row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        self.rows.row(result, out);
    }

    fn plain_rows(&self) -> Option<PlainRows<'_>> {
        self.rows.plain_rows()
    }

    fn seal(&self, text: &mut Vec<u8>) {
        *text = member(text);
    }

    fn seals(&self) -> bool {
        true
    }
}

/// `text` as one gzip member.
fn member(text: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(
        Vec::with_capacity(text.len() / 2 + 64),
        flate2::Compression::new(LEVEL),
    );
    match encoder.write_all(text).and_then(|()| encoder.finish()) {
        Ok(member) => member,
        // Writing to memory cannot fail, and deflate fails only on a
        // misused stream; should it fail all the same, the rows go
        // uncompressed, still a valid member.
        Err(_) => stored(text),
    }
}

/// `text` as a gzip member of stored (uncompressed) deflate blocks
/// (RFC 1951, section 3.2.4).
fn stored(text: &[u8]) -> Vec<u8> {
    const BLOCK: usize = 0xFFFF;
    let mut out = Vec::with_capacity(text.len() + text.len() / BLOCK * 5 + 23);
    // Magic, deflate, no flags, no time, no extra flags, unknown system.
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    let blocks = text.len().div_ceil(BLOCK).max(1);
    for b in 0..blocks {
        let block = &text[(b * BLOCK).min(text.len())..((b + 1) * BLOCK).min(text.len())];
        out.push(u8::from(b + 1 == blocks));
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    let mut crc = Crc::new();
    crc.update(text);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    // The size modulo 2^32, as the format says.
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use flate2::read::MultiGzDecoder;

    use super::*;

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        MultiGzDecoder::new(bytes)
            .read_to_end(&mut out)
            .expect("valid gzip");
        out
    }

    fn text(len: usize) -> Vec<u8> {
        (0..len).map(|i| b"123456789,.\n"[i * 7 % 12]).collect()
    }

    #[test]
    fn members_one_after_another_are_one_gzip_file() {
        let (a, b) = (text(100_000), text(3));
        let mut file = member(&a);
        file.extend(member(&[]));
        file.extend(member(&b));
        assert_eq!(gunzip(&file), [a, b].concat());
        assert!(member(&text(100_000)).len() < 50_000);
    }

    #[test]
    fn stored_members_read_back_at_every_block_boundary() {
        for len in [0, 1, 0xFFFE, 0xFFFF, 0x10000, 3 * 0xFFFF + 7] {
            let t = text(len);
            let member = stored(&t);
            assert_eq!(member.len(), t.len() + len.div_ceil(0xFFFF).max(1) * 5 + 18);
            assert_eq!(gunzip(&member), t, "{len} bytes");
        }
    }
}
