//! The whole reader under every format: any bytes give records or an input
//! error, never a panic; record lines only grow and, unless the bytes are
//! gzip (decompressed by content), stay within the input's line count.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::input::{Format, Input, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let lines = if data.starts_with(&[0x1F, 0x8B]) {
        u64::MAX
    } else {
        data.iter().filter(|&&b| b == b'\n').count() as u64 + 1
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
