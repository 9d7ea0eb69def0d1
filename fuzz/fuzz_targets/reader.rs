//! The whole reader under every format: any bytes give records or an input
//! error, never a panic; record lines only grow and, unless the bytes are
//! gzip or zstd (decompressed by content), stay within the input's line
//! count, where `\n`, `\r\n` and a lone `\r` each end a line as they do
//! for the reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::input::{Format, Input, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let lines = if data.starts_with(&[0x1F, 0x8B]) || data.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
        u64::MAX
    } else {
        line_count(data)
    };
    for (name, format) in [
        ("fuzz.txt", Format::Auto),
        ("fuzz.csv", Format::Auto),
        ("fuzz.txt", Format::Lines),
        ("fuzz.txt", Format::Csv),
        ("fuzz.txt", Format::Grid),
    ] {
        let input = Input::from_reader(name, std::io::Cursor::new(data.to_vec()));
        let options = ReadOptions {
            format,
            ..ReadOptions::default()
        };
        let Ok(records) = input.records(&options) else {
            continue;
        };
        let mut last = 0;
        for record in records {
            let Ok(record) = record else { break };
            assert!(
                record.line > last && record.line <= lines,
                "line {}",
                record.line
            );
            last = record.line;
        }
    }
});

/// The lines of `data`, the last one unterminated included: `\n`, `\r\n`
/// and a lone `\r` each end one (so `[13, 14, 240, 195]` has two lines).
fn line_count(data: &[u8]) -> u64 {
    let ends = data
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && data.get(i + 1) != Some(&b'\n')))
        .count();
    ends as u64 + 1
}
