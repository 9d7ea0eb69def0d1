//! Record accounting for every input format: a list of records, each a
//! puzzle-like field and extra fields, written out as text lines, CSV,
//! JSON Lines or Parquet (optionally gzip- or zstd-compressed, with mixed
//! line ends and a byte-order mark), then read back through the real
//! reader (`Input::from_reader`, `Input::records`) with `--keep-all`.
//!
//! Invariants:
//! - exactly one record per record written, in order: none dropped, none
//!   merged into another, none split (a leading line of text with nothing
//!   puzzle-like in it and nothing that could be a grid of another size,
//!   before the first record of a text-lines input read under `auto`, is a
//!   header by the reader's documented rule, and is expected to be skipped;
//!   `--format lines` makes every line a record);
//! - each record's line is the physical line (`\n`, `\r\n` and a lone `\r`
//!   each end one) where it starts, or the row number for Parquet;
//! - its puzzle is the grid written, and a malformed field stays a
//!   malformed record (never skipped);
//! - its kept fields are the values written (CSV fields with their
//!   spaces, as the reader documents), null where the record has none.
#![no_main]

use std::io::{Cursor, Write};
use std::sync::Arc;

use arbitrary::Arbitrary;
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use libfuzzer_sys::fuzz_target;
use parquet::arrow::ArrowWriter;
use sudoku_batch::input::sized::cells_of;
use sudoku_batch::input::{Delimiter, Format, Input, InputError, Keep, ReadOptions};
use sudoku_batch::kept::KeptValue;
use sudoku_core::grid::{Grid, CELLS};

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum Layout {
    Lines,
    Csv,
    Jsonl,
    Parquet,
}

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum Compression {
    None,
    Gzip,
    Zstd,
}

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum LineEnd {
    Lf,
    CrLf,
    Cr,
    /// None: only for the last record (a line end elsewhere).
    Missing,
}

impl LineEnd {
    fn bytes(self, last: bool) -> &'static [u8] {
        match self {
            LineEnd::Lf => b"\n",
            LineEnd::CrLf => b"\r\n",
            LineEnd::Cr => b"\r",
            LineEnd::Missing if last => b"",
            LineEnd::Missing => b"\n",
        }
    }
}

/// The puzzle field of a record.
#[derive(Arbitrary, Debug, Clone)]
enum Puzzle {
    /// An 81-cell puzzle: each byte's digit (`b % 10`), blanks written as
    /// `zero_blank ? '0' : '.'`.
    Grid {
        cells: [u8; CELLS],
        zero_blank: bool,
    },
    /// A run of digits of the wrong length (17 to 120, never 81).
    Length { len: u8, digit: u8 },
    /// 81 cells with one bad character (a letter) at `at`.
    BadChar { at: u8, letter: u8 },
    /// A few letters: text with nothing puzzle-like.
    Text { letters: Vec<u8> },
}

impl Puzzle {
    fn text(&self) -> String {
        match self {
            Puzzle::Grid { cells, zero_blank } => cells
                .iter()
                .map(|&b| match b % 10 {
                    0 if *zero_blank => '0',
                    0 => '.',
                    d => char::from(b'0' + d),
                })
                .collect(),
            Puzzle::Length { len, digit } => {
                let mut n = 17 + usize::from(*len) % 104;
                if n == CELLS {
                    n += 1;
                }
                let d = char::from(b'1' + digit % 9);
                std::iter::repeat_n(d, n).collect()
            }
            Puzzle::BadChar { at, letter } => {
                let mut cells = vec![b'.'; CELLS];
                cells[usize::from(*at) % CELLS] = b'g' + letter % 20;
                String::from_utf8(cells).expect("ASCII")
            }
            Puzzle::Text { letters } => {
                let mut text: String = letters
                    .iter()
                    .take(12)
                    .map(|&b| char::from(b'a' + b % 26))
                    .collect();
                if text.is_empty() {
                    text.push('z');
                }
                text
            }
        }
    }

    /// The grid the reader should give, `None` for a malformed record.
    fn grid(&self) -> Option<Grid> {
        match self {
            Puzzle::Grid { cells, .. } => {
                let mut digits = [0u8; CELLS];
                for (d, &b) in digits.iter_mut().zip(cells) {
                    *d = b % 10;
                }
                Grid::from_cells(digits)
            }
            _ => None,
        }
    }

    fn is_text(&self) -> bool {
        matches!(self, Puzzle::Text { .. })
    }
}

/// An extra field's value.
#[derive(Arbitrary, Debug, Clone)]
enum Extra {
    /// Any text.
    Str(String),
    /// Text written in JSON as `\uXXXX` escapes of these UTF-16 units
    /// (lone surrogates included); as its lossy decoding elsewhere.
    Escaped(Vec<u16>),
    /// An integer.
    Int(i64),
    /// No value (JSON null, Parquet null, an empty CSV field).
    Null,
}

impl Extra {
    fn text(&self) -> String {
        match self {
            Extra::Str(s) => s.clone(),
            Extra::Escaped(units) => String::from_utf16_lossy(units),
            Extra::Int(n) => n.to_string(),
            Extra::Null => String::new(),
        }
    }
}

#[derive(Arbitrary, Debug, Clone)]
struct Rec {
    puzzle: Puzzle,
    extras: Vec<Extra>,
    end: LineEnd,
    /// CSV: quote every field; JSON: escape every non-ASCII character.
    quote: bool,
    /// CSV: write this record's own extras, not padded or cut to the
    /// header's width (a malformed record unless they fit it).
    ragged: bool,
}

impl Rec {
    /// Its puzzle is an 81-cell grid.
    fn grid_first(&self) -> bool {
        matches!(self.puzzle, Puzzle::Grid { .. })
    }
}

#[derive(Arbitrary, Debug, Clone)]
struct Case {
    layout: Layout,
    compression: Compression,
    bom: bool,
    /// Read under `Format::Auto` with a name that says the layout.
    auto: bool,
    /// CSV delimiter: `,` `;` tab `|`, and whether `--delimiter` names it.
    delimiter: u8,
    named_delimiter: bool,
    /// CSV and Parquet: extra columns in the header.
    width: u8,
    /// Lines: the separator between fields.
    separator: u8,
    records: Vec<Rec>,
}

/// What the reader should give for one record.
#[derive(Debug)]
struct Expected {
    /// Byte offset of the record's start in the text (Parquet: row index).
    start: usize,
    grid: Option<Grid>,
    kept: Vec<KeptValue>,
}

/// The 1-based line of each offset in `offsets` (ascending) in `text`.
fn lines_at(text: &[u8], offsets: &[usize]) -> Vec<u64> {
    let mut out = Vec::with_capacity(offsets.len());
    let mut line = 1u64;
    let mut i = 0;
    for &offset in offsets {
        while i < offset {
            match text[i] {
                b'\n' => line += 1,
                b'\r' if text.get(i + 1) != Some(&b'\n') => line += 1,
                _ => {}
            }
            i += 1;
        }
        out.push(line);
    }
    out
}

/// A field of text lines: no separator, line end, `#`, quote or brace,
/// at most 8 characters; no digits when `digits` is false.
fn plain_field(text: &str, digits: bool) -> String {
    let mut out: String = text
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '+' | ':' | '/'))
        .filter(|c| digits || !c.is_ascii_digit())
        .take(8)
        .collect();
    if out.is_empty() {
        out.push('e');
    }
    out
}

/// The blanks of every alphabet (`0` aside: a text line has no digits).
const BLANKS: &[u8] = b".-_+";

/// True when `line`, a text line with no digits before the first record
/// (see `write_lines`), is a header by docs/formats.md's rule: it cannot be
/// a record of any size. With no digits, no field looks like a 9x9 puzzle
/// (17 digits and blanks in a row, or 81 characters: the line is shorter),
/// so it is a header unless a field (split on whitespace, `,`, `;`, `|`),
/// a word (split on whitespace) or the whole line could be a grid of
/// another size.
fn is_header(line: &str) -> bool {
    assert!(!line.bytes().any(|b| b.is_ascii_digit()), "{line:?}");
    let line = line.trim_matches(|c: char| c.is_ascii_whitespace());
    let fields = line.split(|c: char| c.is_ascii_whitespace() || matches!(c, ',' | ';' | '|'));
    let words = line.split(|c: char| c.is_ascii_whitespace());
    line.len() != CELLS
        && !fields
            .chain(words)
            .chain([line])
            .any(|f| !f.is_empty() && could_be_grid(f.as_bytes()))
}

/// The side of a grid of `count` cells, 4 to 64.
fn side_of(count: usize) -> Option<usize> {
    (4..=64).find(|n| n * n == count)
}

/// The docs' rule for a field of digit-free text: n*n characters (or n*n
/// values separated by commas or spaces, 16 or more), n not 9, that read
/// as a grid in some alphabet (one character per cell, blanks `.-_+`,
/// letters `A`-`Z` in either case up to the n-th, boxes for the side: a
/// prime side has none), or of which half or more are blanks.
fn could_be_grid(field: &[u8]) -> bool {
    let cells = cells_of(field);
    let spaced = cells.len() >= 16 && field.iter().any(|&b| b == b',' || b == b' ');
    let looks = side_of(if spaced { cells.len() } else { field.len() });
    if looks.is_none_or(|n| n == 9) {
        return false;
    }
    let reads = side_of(cells.len()).is_some_and(|side| {
        (2..side).any(|rows| side % rows == 0)
            && cells.iter().all(|t| match **t {
                [b] if BLANKS.contains(&b) => true,
                [b] if b.is_ascii_alphabetic() => {
                    side <= 26 && usize::from(b.to_ascii_uppercase() - b'A') < side
                }
                _ => false,
            })
    });
    let blanks = cells
        .iter()
        .filter(|t| t.iter().all(|b| BLANKS.contains(b)))
        .count();
    reads || blanks * 2 >= cells.len()
}

fn write_lines(case: &Case, out: &mut Vec<u8>) -> Vec<Expected> {
    let separator = [" ", ",", ";", "|", "\t", " ,  "][usize::from(case.separator) % 6];
    let mut expected = Vec::new();
    let mut width = None;
    let mut seen_record = false;
    for (i, rec) in case.records.iter().enumerate() {
        let last = i + 1 == case.records.len();
        let start = out.len();
        let mut fields = vec![rec.puzzle.text()];
        fields.extend(
            rec.extras
                .iter()
                .take(4)
                .map(|e| plain_field(&e.text(), !rec.puzzle.is_text())),
        );
        let line = fields.join(separator);
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(rec.end.bytes(last));
        // A header line, by the reader's rule: only under `auto`, since
        // `--format lines` makes every line a record.
        if rec.puzzle.is_text() && !seen_record && case.auto && is_header(&line) {
            continue;
        }
        seen_record = true;
        let width = *width.get_or_insert(fields.len());
        let kept = (0..width)
            .map(|i| {
                fields
                    .get(i)
                    .map_or(KeptValue::Null, |f| KeptValue::Text(f.clone()))
            })
            .collect();
        expected.push(Expected {
            start,
            grid: rec.puzzle.grid(),
            kept,
        });
    }
    expected
}

fn csv_field(out: &mut Vec<u8>, text: &str, quote: bool) {
    let needs = text
        .bytes()
        .any(|b| matches!(b, b',' | b';' | b'\t' | b'|' | b'"' | b'\n' | b'\r'));
    if !(quote || needs) {
        out.extend_from_slice(text.as_bytes());
        return;
    }
    out.push(b'"');
    out.extend_from_slice(text.replace('"', "\"\"").as_bytes());
    out.push(b'"');
}

/// Text as the reader sees a CSV field when it tells whether the field is
/// empty: trimmed of ASCII whitespace (kept values are copied untrimmed,
/// as docs/formats.md says: "a kept ` a ` stays ` a `").
fn trimmed(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// The CSV delimiter written: the one chosen, but a comma for a header of
/// one field read with `--delimiter auto` (which finds no other in it).
fn csv_delimiter(case: &Case) -> u8 {
    let width = usize::from(case.width % 5);
    match [b',', b';', b'\t', b'|'][usize::from(case.delimiter) % 4] {
        _ if width == 0 && !case.named_delimiter => b',',
        d => d,
    }
}

fn write_csv(case: &Case, out: &mut Vec<u8>) -> Vec<Expected> {
    let delimiter = csv_delimiter(case);
    let width = usize::from(case.width % 5);
    let mut header = vec!["puzzle".to_string()];
    header.extend((1..=width).map(|i| format!("x{i}")));
    out.extend_from_slice(header.join(&char::from(delimiter).to_string()).as_bytes());
    out.extend_from_slice(b"\r\n");
    let mut expected = Vec::new();
    for (i, rec) in case.records.iter().enumerate() {
        let last = i + 1 == case.records.len();
        let start = out.len();
        let mut fields = vec![rec.puzzle.text()];
        let extras = rec.extras.iter().map(|e| {
            // No NUL (binary data) or lone 0x1A in a field.
            e.text().replace(['\0', '\x1a'], "_")
        });
        if rec.ragged {
            fields.extend(extras.take(8));
        } else {
            fields.extend(extras.chain(std::iter::repeat(String::new())).take(width));
        }
        for (j, field) in fields.iter().enumerate() {
            if j > 0 {
                out.push(delimiter);
            }
            csv_field(out, field, rec.quote);
        }
        out.extend_from_slice(rec.end.bytes(last));
        let filled = fields
            .iter()
            .rposition(|f| !trimmed(f).is_empty())
            .map_or(0, |i| i + 1);
        let fits = filled <= width + 1 && fields.len() >= width + 1;
        let kept = (0..=width)
            .map(|i| {
                fields
                    .get(i)
                    .map_or(KeptValue::Null, |f| KeptValue::Text(f.clone()))
            })
            .collect();
        expected.push(Expected {
            start,
            grid: rec.puzzle.grid().filter(|_| fits),
            kept,
        });
    }
    expected
}

fn json_string(out: &mut Vec<u8>, text: &str, ascii: bool) {
    out.push(b'"');
    let mut units = [0u16; 2];
    for c in text.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            c if (c as u32) < 0x20 || (ascii && !c.is_ascii()) => {
                for unit in c.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                }
            }
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
}

fn write_jsonl(case: &Case, out: &mut Vec<u8>) -> Vec<Expected> {
    // Kept keys, in the order first seen: puzzle, x1, x2, ... up to the
    // most extras of an object line.
    let widest = case
        .records
        .iter()
        .filter(|r| !r.puzzle.is_text())
        .map(|r| r.extras.len().min(8))
        .max();
    let mut expected = Vec::new();
    for (i, rec) in case.records.iter().enumerate() {
        let last = i + 1 == case.records.len();
        let start = out.len();
        let extras = &rec.extras[..rec.extras.len().min(8)];
        let mut kept = Vec::new();
        if rec.puzzle.is_text() {
            // Not JSON: a malformed record with every kept value null.
            out.extend_from_slice(rec.puzzle.text().as_bytes());
            if let Some(widest) = widest {
                kept = vec![KeptValue::Null; widest + 1];
            }
        } else {
            out.extend_from_slice(b"{\"puzzle\":");
            json_string(out, &rec.puzzle.text(), false);
            kept.push(KeptValue::Text(rec.puzzle.text()));
            for (j, extra) in extras.iter().enumerate() {
                out.extend_from_slice(format!(",\"x{}\":", j + 1).as_bytes());
                kept.push(match extra {
                    Extra::Str(s) => {
                        json_string(out, s, rec.quote);
                        KeptValue::Text(s.clone())
                    }
                    Extra::Escaped(units) => {
                        let start = out.len();
                        out.push(b'"');
                        for unit in units {
                            out.extend_from_slice(format!("\\u{unit:04X}").as_bytes());
                        }
                        out.push(b'"');
                        // A lone surrogate is kept as written, with its
                        // text for the formats that need one.
                        match String::from_utf16(units) {
                            Ok(text) => KeptValue::Text(text),
                            Err(_) => KeptValue::LoneSurrogate {
                                json: String::from_utf8_lossy(&out[start..]).into_owned(),
                                text: String::from_utf16_lossy(units),
                            },
                        }
                    }
                    Extra::Int(n) => {
                        out.extend_from_slice(n.to_string().as_bytes());
                        KeptValue::Number(n.to_string())
                    }
                    Extra::Null => {
                        out.extend_from_slice(b"null");
                        KeptValue::Null
                    }
                });
            }
            out.push(b'}');
            kept.resize(widest.map_or(0, |w| w + 1), KeptValue::Null);
        }
        out.extend_from_slice(rec.end.bytes(last));
        expected.push(Expected {
            start,
            grid: rec.puzzle.grid(),
            kept,
        });
    }
    expected
}

fn write_parquet(case: &Case, out: &mut Vec<u8>) -> Vec<Expected> {
    let width = usize::from(case.width % 5);
    let mut columns: Vec<Vec<Option<String>>> = vec![Vec::new(); width + 1];
    let mut expected = Vec::new();
    for (i, rec) in case.records.iter().enumerate() {
        columns[0].push(Some(rec.puzzle.text()));
        let mut kept = vec![KeptValue::Text(rec.puzzle.text())];
        for (j, column) in columns.iter_mut().enumerate().skip(1) {
            let value = match rec.extras.get(j - 1) {
                None | Some(Extra::Null) => None,
                Some(extra) => Some(extra.text()),
            };
            kept.push(value.clone().map_or(KeptValue::Null, KeptValue::Text));
            column.push(value);
        }
        expected.push(Expected {
            start: i,
            grid: rec.puzzle.grid(),
            kept,
        });
    }
    let fields: Vec<Field> = (0..=width)
        .map(|j| {
            let name = if j == 0 {
                "puzzle".into()
            } else {
                format!("x{j}")
            };
            Field::new(name, DataType::Utf8, true)
        })
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let arrays: Vec<ArrayRef> = columns
        .into_iter()
        .map(|c| Arc::new(StringArray::from(c)) as ArrayRef)
        .collect();
    let batch = RecordBatch::try_new(Arc::clone(&schema), arrays).expect("batch");
    let mut writer = ArrowWriter::try_new(&mut *out, schema, None).expect("writer");
    if batch.num_rows() > 0 {
        writer.write(&batch).expect("write");
    }
    writer.close().expect("close");
    expected
}

fuzz_target!(|case: Case| {
    if case.records.len() > 64 {
        return;
    }
    let mut text = Vec::new();
    if case.bom && case.layout != Layout::Parquet {
        text.extend_from_slice(b"\xEF\xBB\xBF");
    }
    let mut expected = match case.layout {
        Layout::Lines => write_lines(&case, &mut text),
        Layout::Csv => write_csv(&case, &mut text),
        Layout::Jsonl => write_jsonl(&case, &mut text),
        Layout::Parquet => write_parquet(&case, &mut text),
    };
    let mut lines: Vec<u64> = if case.layout == Layout::Parquet {
        (1..=expected.len() as u64).collect()
    } else {
        let starts: Vec<usize> = expected.iter().map(|e| e.start).collect();
        lines_at(&text, &starts)
    };
    let bytes = match case.compression {
        Compression::None => text.clone(),
        Compression::Gzip => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(&text).expect("gzip");
            gz.finish().expect("gzip")
        }
        Compression::Zstd => zstd::encode_all(&text[..], 1).expect("zstd"),
    };
    let (name, format) = match case.layout {
        Layout::Lines => ("fuzz.txt", Format::Lines),
        Layout::Csv => ("fuzz.csv", Format::Csv),
        Layout::Jsonl => ("fuzz.jsonl", Format::Jsonl),
        Layout::Parquet => ("fuzz.parquet", Format::Parquet),
    };
    let delimiter = csv_delimiter(&case);
    let options = ReadOptions {
        format: if case.auto { Format::Auto } else { format },
        delimiter: if case.named_delimiter && case.layout == Layout::Csv {
            Delimiter::Byte(delimiter)
        } else {
            Delimiter::Auto
        },
        keep: Keep::All,
        ..ReadOptions::default()
    };
    let shown = String::from_utf8_lossy(&text);
    let read = |options: &ReadOptions| {
        Input::from_reader(name, Cursor::new(bytes.clone())).records(options)
    };
    let records = match read(&options) {
        Ok(records) => records,
        // Under `auto`, text whose first two lines holding cells hold 4, 9,
        // 16 or 25 (short puzzles, or one-letter fields) is refused as a
        // grid file, as documented; never with an 81-cell puzzle first.
        // Read as its layout, it must give its records.
        Err(InputError::GridFile { .. })
            if case.auto && !matches!(case.records.first(), Some(r) if r.grid_first()) =>
        {
            let named = ReadOptions { format, ..options };
            if case.layout == Layout::Lines {
                // Read as `--format lines`, a leading text line is a record.
                let plain = Case {
                    auto: false,
                    ..case.clone()
                };
                let mut same = Vec::new();
                if plain.bom {
                    same.extend_from_slice(b"\xEF\xBB\xBF");
                }
                expected = write_lines(&plain, &mut same);
                let starts: Vec<usize> = expected.iter().map(|e| e.start).collect();
                lines = lines_at(&same, &starts);
            }
            read(&named).unwrap_or_else(|e| panic!("{name} refused: {e}\n{shown:?}"))
        }
        Err(e) => panic!("{name} refused: {e}\n{shown:?}"),
    };
    let mut got = Vec::new();
    for record in records {
        match record {
            Ok(record) => got.push(record),
            Err(e) => panic!("{name}: read error {e}\n{shown:?}"),
        }
    }
    let brief = |r: &sudoku_batch::input::Record| (r.line, r.puzzle.is_ok());
    assert_eq!(
        got.len(),
        expected.len(),
        "{name}: records {:?}, expected lines {lines:?}\n{shown:?}",
        got.iter().map(brief).collect::<Vec<_>>()
    );
    for ((record, want), line) in got.iter().zip(&expected).zip(&lines) {
        assert_eq!(record.line, *line, "{name}: {record:?}\n{shown:?}");
        match (&record.puzzle, &want.grid) {
            (Ok(grid), Some(want)) => assert_eq!(grid, want, "{name} line {line}\n{shown:?}"),
            (Err(_), None) => {}
            (got, want) => panic!("{name} line {line}: read {got:?}, wrote {want:?}\n{shown:?}"),
        }
        assert_eq!(
            record.kept, want.kept,
            "{name} line {line}: kept values\n{shown:?}"
        );
    }
});
