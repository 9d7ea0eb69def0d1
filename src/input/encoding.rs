//! Telling text input from what is not, on the first bytes read.
//!
//! Every layout sudoku-batch reads is text. A file that is not (an image, a
//! spreadsheet, an archive, UTF-16 text) would otherwise give one
//! `malformed` row per line of garbage, each naming a byte, and bury the
//! one fact that matters. So the first chunk of each input (as one read
//! returns it, never waiting for more: a slow stdin is not held up) is
//! looked at once, as ripgrep does for binary files:
//!
//! - UTF-16 with a byte-order mark (`FF FE` or `FE FF`, as Windows tools
//!   write "Unicode" text) is decoded to UTF-8 and read as usual.
//! - UTF-16 without a mark (a NUL in every other byte) is refused by name.
//! - Binary data (a NUL byte, and control bytes making up at least one in
//!   [`CONTROL_SHARE`] of the first [`LOOK`] bytes, as in any compressed or
//!   packed format) is refused, naming the offset of the first NUL.
//!
//! A text file with a stray line of garbage is still text: that line, like
//! a NUL later in a file, is left to its record (`malformed`).

/// Most bytes of the first chunk looked at.
const LOOK: usize = 8192;

/// Binary data has at least one control byte in this many (random bytes:
/// about one in nine); text with a stray garbage line has far fewer.
const CONTROL_SHARE: usize = 20;

/// What the first chunk of an input says about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sniffed {
    /// Text (or too little to tell): read as it is.
    Text,
    /// UTF-16 with a byte-order mark: decode it.
    Utf16Bom,
    /// UTF-16 without a byte-order mark, little- or big-endian.
    Utf16 {
        /// True for big-endian (the NULs come first in each pair).
        big_endian: bool,
    },
    /// Binary data: the offset of the first NUL byte.
    Binary {
        /// 0-based offset of the first NUL byte.
        offset: usize,
    },
}

/// Looks at the first chunk of an input (after decompression).
pub(super) fn sniff(chunk: &[u8]) -> Sniffed {
    let chunk = &chunk[..chunk.len().min(LOOK)];
    if chunk.starts_with(&[0xFF, 0xFE]) || chunk.starts_with(&[0xFE, 0xFF]) {
        return Sniffed::Utf16Bom;
    }
    let Some(offset) = memchr::memchr(0, chunk) else {
        return Sniffed::Text;
    };
    // UTF-16 of ASCII text: each character is its byte and a NUL. Take it
    // for UTF-16 when almost every byte on one side of the pairs is NUL.
    let pairs = chunk.len() / 2;
    if pairs >= 2 {
        let nul_at = |side: usize| chunk.chunks_exact(2).filter(|p| p[side] == 0).count();
        let (even, odd) = (nul_at(0), nul_at(1));
        if odd * 10 >= pairs * 9 && even * 10 < pairs {
            return Sniffed::Utf16 { big_endian: false };
        }
        if even * 10 >= pairs * 9 && odd * 10 < pairs {
            return Sniffed::Utf16 { big_endian: true };
        }
    }
    let control = chunk
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r') || b == 0x7F)
        .count();
    if control * CONTROL_SHARE >= chunk.len() {
        Sniffed::Binary { offset }
    } else {
        Sniffed::Text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    }

    #[test]
    fn text_is_text() {
        assert_eq!(sniff(b""), Sniffed::Text);
        assert_eq!(sniff(b"puzzle,solution\n1..2\n"), Sniffed::Text);
        assert_eq!(sniff("caf\u{e9}\r\n".as_bytes()), Sniffed::Text);
    }

    #[test]
    fn utf16_with_a_mark_is_decoded_and_without_one_is_named() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
        let mut le = vec![0xFF, 0xFE];
        le.extend(utf16(line, false));
        assert_eq!(sniff(&le), Sniffed::Utf16Bom);
        let mut be = vec![0xFE, 0xFF];
        be.extend(utf16(line, true));
        assert_eq!(sniff(&be), Sniffed::Utf16Bom);
        assert_eq!(
            sniff(&utf16(line, false)),
            Sniffed::Utf16 { big_endian: false }
        );
        assert_eq!(
            sniff(&utf16(line, true)),
            Sniffed::Utf16 { big_endian: true }
        );
    }

    #[test]
    fn other_nul_bytes_are_binary() {
        let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00";
        assert_eq!(sniff(png), Sniffed::Binary { offset: 8 });
        assert_eq!(sniff(b"123\x00456"), Sniffed::Binary { offset: 3 });
    }

    #[test]
    fn a_stray_garbage_line_in_text_is_left_to_its_record() {
        let mut text = b"puzzle\n".repeat(200);
        text.extend_from_slice(b"\x00\x01\x02\xff garbage\n");
        assert_eq!(sniff(&text), Sniffed::Text);
    }
}
