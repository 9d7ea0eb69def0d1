//! `--solutions FILE`: a file of solutions paired with the input record by
//! record (the `solved_*` files some corpora ship beside their puzzles).
//!
//! Row by row, as a solution column is read: each physical line (or CSV
//! record) stands for the input record at the same place. A blank line
//! stands for its record too (no solution given: an empty check), so it
//! never shifts the pairings after it; a value that is not a complete grid
//! is kept as the reason (the record's check becomes `mismatch`), so one
//! junk line never stops the run. A placeholder of a missing value (`NA`,
//! `#N/A`, as R and spreadsheets write one) gives no solution, as a blank
//! does; a spreadsheet's error value (`#REF!`) is that record's reason.
//! A `#` line that is such a value is none of the `#` comment lines
//! ([`lines::spreadsheet_value`]). `#` comment lines, and header lines
//! before the first solution
//! (text with nothing like a grid in it), are skipped; a `#` line that is
//! a record of the file is none (CSV: [`skipped`]; a text line of
//! delimited fields: [`lines::skipped`]), and in CSV a `#` line of the
//! first record's fields before it is the header (`#,solution`).
//! A CSV file's fields are separated by `,` or the delimiter its first
//! line shows, as an input's are. Blank lines after the last solution are
//! not extra solutions.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use csv::{ByteRecord, ReaderBuilder, Trim};
use sudoku_core::grid::Grid;
use sudoku_core::sizes::{self, SizedGrid, Symbols};

use super::ahead::Ahead;
use super::choose::{PUZZLE_NAMES, SOLUTION_NAMES};
use super::csv::{header_in_hash, is_spread, numbered_cells, row_test, skipped, RecordShape};
use super::field;
use super::frame::{Framer, MAX_TABLE_RECORD};
use super::lines::{self, split};
use super::sized::{self, SizeOptions};
use super::InputError;

/// One solutions record: the line it is on, and what it gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    /// Its physical line in the solutions file.
    pub line: u64,
    /// `None` for a blank line; else the grid, or why the value is not one.
    pub solution: Option<Result<Grid, String>>,
    /// The value as written, for a record of another size than 9x9 (see
    /// [`Given::sized`]).
    pub value: Vec<u8>,
    /// The whole line, trimmed.
    pub whole: Vec<u8>,
}

impl Given {
    /// The solution of another size than 9x9 this record gives, read in
    /// the alphabet and boxes of `puzzle` (the input record's grid, in
    /// `symbols`): the value, or the whole line when that is one grid of
    /// numbers (`1,3,4,2,...`). Why it is no complete grid of that size
    /// otherwise, naming the line.
    pub fn sized(&self, puzzle: &SizedGrid, symbols: &Symbols) -> Result<SizedGrid, String> {
        let side = puzzle.side();
        let read = |field: &[u8]| sizes::read(field, Some(symbols), Some(puzzle.shape()));
        let mut why = None;
        let whole = Some(&self.whole[..]).filter(|w| *w != self.value && sized::looks_sized(w));
        for field in whole.into_iter().chain([&self.value[..]]) {
            match read(field) {
                Ok(r) if r.grid.side() == side && r.grid.is_complete() => return Ok(r.grid),
                Ok(r) if r.grid.side() == side => why = why.or(Some("it has blanks".to_string())),
                Ok(r) => {
                    let n = r.grid.side();
                    why = why.or(Some(format!("a {n}x{n} grid, expected {side}x{side}")));
                }
                Err(e) => why = why.or(Some(e.to_string())),
            }
        }
        let why = why.unwrap_or_else(|| "no grid".to_string());
        Err(format!(
            "solutions file line {}: not a {side}x{side} grid: {why}",
            self.line
        ))
    }
}

/// Reads a solutions file, one [`Given`] per record.
pub struct SolutionsReader<R> {
    framer: Framer<R>,
    /// CSV: the first records, read ahead to choose the solution column
    /// when no header names it ([`SolutionsReader::look_ahead`]).
    ahead: Ahead,
    /// CSV: a header named the solution column (or the cells).
    named: bool,
    csv: bool,
    path: PathBuf,
    /// A solution (or a blank) was seen: no more header lines.
    started: bool,
    /// CSV: the 0-based solution field, from the header.
    column: usize,
    /// CSV: the 0-based fields of the cells of a grid written a value
    /// to a field under a header that numbers its cells
    /// ([`numbered_cells`]); the fields before them are the index.
    cells: Option<std::ops::Range<usize>>,
    record: ByteRecord,
    fields: Vec<(usize, usize)>,
    /// CSV: the fields of the file's first record (its header, if any),
    /// once read, for the test of a line a quoted field takes in
    /// ([`SolutionsReader::mind_stray_quotes`]) and of a `#` line that is
    /// a record ([`skipped`]).
    field_count: Option<usize>,
    /// CSV: the field separator (`,` unless [`SolutionsReader::with_delimiter`]
    /// says).
    delimiter: u8,
    /// CSV: a `#` line before the first record that may be its header
    /// ([`header_in_hash`]): its bytes and field count, until the line
    /// after it tells.
    hash_header: Option<(Vec<u8>, usize)>,
}

impl<R: BufRead> SolutionsReader<R> {
    /// A reader over `src`, the file `path`; `csv` for a CSV file.
    pub fn new(src: R, csv: bool, path: &Path) -> SolutionsReader<R> {
        SolutionsReader {
            framer: if csv {
                Framer::new(src, csv)
                    .with_cap(MAX_TABLE_RECORD)
                    .with_row_test(row_test(RecordShape {
                        delimiter: b',',
                        fields: None,
                        puzzle: None,
                        sizes: SizeOptions::default(),
                    }))
            } else {
                Framer::new(src, csv)
            },
            ahead: Ahead::default(),
            named: false,
            csv,
            path: path.to_path_buf(),
            started: false,
            column: 0,
            cells: None,
            record: ByteRecord::new(),
            fields: Vec::new(),
            field_count: None,
            delimiter: b',',
            hash_header: None,
        }
    }

    /// The reader of a CSV file whose fields `delimiter` separates (as an
    /// input's, given by `--delimiter` or found on its first line).
    pub fn with_delimiter(mut self, delimiter: u8) -> SolutionsReader<R> {
        self.delimiter = delimiter;
        self.framer = self.framer.with_delimiter(delimiter);
        self.mind_stray_quotes();
        self
    }

    /// The next record; `None` at the end of the file.
    pub fn next_given(&mut self) -> Option<Result<Given, InputError>> {
        loop {
            let frame = match self.ahead.next(&mut self.framer) {
                Ok(Some(frame)) => frame,
                Ok(None) => return None,
                Err(e) => {
                    return Some(Err(InputError::Io {
                        path: self.path.clone(),
                        source: e,
                    }))
                }
            };
            let line = frame.line;
            let whole = self.ahead.bytes(&self.framer).trim_ascii().to_vec();
            let given = |solution, value: &[u8]| {
                Some(Ok(Given {
                    line,
                    solution,
                    value: value.to_vec(),
                    whole,
                }))
            };
            let bytes = self.ahead.bytes(&self.framer);
            if bytes.iter().all(u8::is_ascii_whitespace) {
                self.started = true;
                return given(None, b"");
            }
            let sizes = SizeOptions::default();
            let skip = if self.csv {
                skipped(bytes, self.delimiter, self.field_count, &sizes)
            } else {
                lines::skipped(bytes, None, &sizes)
            };
            if skip {
                if self.csv && self.field_count.is_none() && !frame.open_quote {
                    if let Some(count) = header_in_hash(bytes, self.delimiter) {
                        self.hash_header = Some((bytes.to_vec(), count));
                    }
                }
                continue;
            }
            if frame.too_long {
                self.started = true;
                return given(
                    Some(Err(not_a_grid(
                        line,
                        &frame.too_long_message(self.framer.limit()),
                    ))),
                    b"",
                );
            }
            if frame.open_quote {
                self.started = true;
                let why = frame.unterminated_message(self.framer.limit());
                return given(Some(Err(not_a_grid(line, &why))), b"");
            }
            let value = if self.csv {
                let bytes = self.ahead.bytes(&self.framer);
                if !split_csv(bytes, self.delimiter, &mut self.record) {
                    self.started = true;
                    return given(Some(Err(not_a_grid(line, "unreadable CSV record"))), b"");
                }
                if self.field_count.is_none() {
                    self.field_count = Some(self.record.len());
                    self.mind_stray_quotes();
                    // A `#` line with this record's fields before it is
                    // the header when this record is none.
                    if let Some((header, count)) = self.hash_header.take() {
                        if !self.started && count == self.record.len() && !self.is_header() {
                            let record = std::mem::take(&mut self.record);
                            if split_csv(&header, self.delimiter, &mut self.record)
                                && header_like(&header, &self.record)
                            {
                                self.take_header();
                            }
                            self.record = record;
                        }
                    }
                }
                if !self.started && self.is_header() {
                    self.take_header();
                    continue;
                }
                if !self.ahead.taken() {
                    self.ahead.look(Some(frame), &mut self.framer);
                    self.look_ahead();
                    continue;
                }
                if let Some(cells) = self.cells.clone() {
                    let values: Vec<&[u8]> = self
                        .record
                        .iter()
                        .take(cells.end)
                        .skip(cells.start)
                        .collect();
                    values.join(&b',')
                } else if self.spread() {
                    self.ahead.bytes(&self.framer).trim_ascii().to_vec()
                } else {
                    self.record.get(self.column).unwrap_or_default().to_vec()
                }
            } else {
                let bytes = self.ahead.bytes(&self.framer);
                split(bytes, &mut self.fields);
                let get = |&(s, e): &(usize, usize)| &bytes[s..e];
                let sizes = SizeOptions::default();
                let likely = |f: &&[u8]| {
                    field::looks_like_puzzle(f)
                        || field::near_puzzle(f)
                        || sized::could_be_record(f, &sizes)
                };
                let mut fields = self.fields.iter().map(get);
                if !self.started
                    && field::is_text(bytes)
                    && !fields.clone().any(|f| likely(&f))
                    && !likely(&bytes.trim_ascii())
                    && !field::no_data(bytes.trim_ascii())
                {
                    continue; // a title or column names
                }
                let chosen = fields
                    .clone()
                    .find(|f| field::complete(f).is_some())
                    .or_else(|| values_field(bytes))
                    .or_else(|| fields.clone().find(likely))
                    .or_else(|| fields.next());
                chosen.unwrap_or_default().to_vec()
            };
            self.started = true;
            // A placeholder of a missing value (`NA`, `#N/A`) gives no
            // solution, as in a solution column.
            if value.is_empty() || field::missing(&value) {
                return given(None, b"");
            }
            return given(
                Some(
                    field::solution(&value)
                        .ok_or_else(|| not_a_grid(line, &field::solution_error(&value))),
                ),
                &value,
            );
        }
    }

    /// Tells the framer the field count of the file's first record, and
    /// the solution column once a header names it: a line a quoted field
    /// takes in is a record of its own, and the quote that took it in a
    /// stray one, by the input's CSV reader's rule ([`row_test`],
    /// [`Framer::with_row_test`]): a lone `"` closed by another at a line
    /// end would otherwise take the solutions between into one field, and
    /// pair every later solution with the wrong record.
    fn mind_stray_quotes(&mut self) {
        let test = row_test(RecordShape {
            delimiter: self.delimiter,
            fields: self.field_count,
            puzzle: (self.named && self.cells.is_none()).then_some(self.column),
            sizes: SizeOptions::default(),
        });
        self.framer.set_row_test(test);
    }

    /// True when the current CSV record is one grid's values, each a field
    /// of its own, as the input's CSV reader reads such a record
    /// ([`is_spread`]): the solution is then the whole line, as a
    /// quoted field of it would be.
    fn spread(&self) -> bool {
        is_spread(self.record.len(), self.record.iter())
    }

    /// True when the current CSV record may be a header ([`header_like`]).
    fn is_header(&self) -> bool {
        header_like(self.ahead.bytes(&self.framer), &self.record)
    }

    /// The solution column: a solution name, else a puzzle name, else the
    /// cells a header numbers ([`numbered_cells`]: pandas' header of an
    /// array), else the first field. The framer's stray-quote test learns
    /// it ([`SolutionsReader::mind_stray_quotes`]).
    fn take_header(&mut self) {
        let find = |names: &[&str]| {
            self.record
                .iter()
                .position(|f| names.iter().any(|n| f.eq_ignore_ascii_case(n.as_bytes())))
        };
        let named = find(&SOLUTION_NAMES).or_else(|| find(&PUZZLE_NAMES));
        if named.is_none() {
            let names: Vec<String> = self
                .record
                .iter()
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .collect();
            self.cells = numbered_cells(&names);
        }
        self.named = named.is_some() || self.cells.is_some();
        self.column = named.unwrap_or(0);
        self.started = true;
        self.mind_stray_quotes();
    }

    /// Chooses the solution column on the records read ahead when no
    /// header names it: the first field that holds a complete grid in any
    /// of them (an empty first solution does not hide it, nor an id before
    /// it), as the input's puzzle column is chosen by what its first
    /// records hold; the first field when none does.
    fn look_ahead(&mut self) {
        if self.named {
            return;
        }
        let mut complete: Vec<bool> = Vec::new();
        let mut record = ByteRecord::new();
        let sizes = SizeOptions::default();
        for (frame, bytes) in self.ahead.records() {
            if frame.too_long
                || frame.open_quote
                || skipped(bytes, self.delimiter, self.field_count, &sizes)
                || bytes.iter().all(u8::is_ascii_whitespace)
            {
                continue;
            }
            if !split_csv(bytes, self.delimiter, &mut record)
                || is_spread(record.len(), record.iter())
            {
                continue;
            }
            if complete.len() < record.len() {
                complete.resize(record.len(), false);
            }
            for (i, f) in record.iter().enumerate() {
                complete[i] |= field::complete(f).is_some();
            }
        }
        self.column = complete.iter().position(|&c| c).unwrap_or(0);
    }
}

/// Parses `bytes` as one CSV record of fields separated by `delimiter`
/// into `record`; false if it cannot be.
fn split_csv(bytes: &[u8], delimiter: u8, record: &mut ByteRecord) -> bool {
    let mut reader = ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .trim(Trim::All)
        .from_reader(bytes);
    matches!(reader.read_byte_record(record), Ok(true))
}

/// True for a first CSV record (`bytes`, split into `record`) that may be
/// a header: text with no field that looks like a grid, that is not one
/// grid's values ([`is_spread`]), and that is not one placeholder of a
/// missing value or spreadsheet error (`NA`, `#REF!`: [`field::no_data`]),
/// which stands for its record.
fn header_like(bytes: &[u8], record: &ByteRecord) -> bool {
    let placeholder = record.len() == 1 && record.get(0).is_some_and(field::no_data);
    field::is_text(bytes)
        && !is_spread(record.len(), record.iter())
        && !placeholder
        && !record
            .iter()
            .any(|f| field::looks_like_puzzle(f) || field::near_puzzle(f))
}

/// True for text that is one grid's values separated by commas or
/// whitespace: 16 or more (a 4x4's count), as a one-line grid of any size
/// is written, and as a solution column takes a 9x9's (`3,1,6,4,...`).
fn grid_of_values(text: &[u8]) -> bool {
    text.iter().any(|&b| b == b',' || b.is_ascii_whitespace())
        && text
            .split(|&b| b == b',' || b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .count()
            >= 16
}

/// The part of a text line of the solutions file that is a grid written
/// as values ([`grid_of_values`]): a field between whitespace that is
/// one (`id 3,1,6,4,...`), else the whole line (`3 1 6 4 ...`). The field
/// rules split such a line into its values, and none of them is a grid.
fn values_field(line: &[u8]) -> Option<&[u8]> {
    let mut fields = line
        .split(u8::is_ascii_whitespace)
        .filter(|f| f.contains(&b','));
    fields
        .find(|f| grid_of_values(f))
        .or_else(|| Some(line.trim_ascii()).filter(|l| grid_of_values(l)))
}

/// The message of a solutions record that is not a grid, naming its line.
fn not_a_grid(line: u64, why: &str) -> String {
    format!("solutions file line {line}: not a grid: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: &str =
        "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

    fn read(data: &str, csv: bool) -> Vec<(u64, Option<Result<String, String>>)> {
        let mut reader = SolutionsReader::new(data.as_bytes(), csv, Path::new("s"));
        std::iter::from_fn(|| reader.next_given())
            .map(|g| {
                let g = g.unwrap();
                (g.line, g.solution.map(|s| s.map(|g| g.to_line())))
            })
            .collect()
    }

    #[test]
    fn a_csv_solution_column_is_chosen_on_the_first_records() {
        // No header names it: the first column of complete grids, an
        // empty first solution and an id before it notwithstanding.
        let data = format!("id,target\n1,\n2,{S}\n");
        assert_eq!(read(&data, true), [(2, None), (3, Some(Ok(S.to_string())))]);
        let data = format!("1,{S}\n");
        assert_eq!(read(&data, true), [(1, Some(Ok(S.to_string())))]);
    }

    #[test]
    fn blank_lines_stand_for_their_record_and_junk_is_kept_as_a_reason() {
        let data = format!(
            "solutions\n{S}\nx{}\n\n# note\n{}\n{S}{S}\n",
            &S[1..],
            &S[1..]
        );
        assert_eq!(
            read(&data, false),
            [
                (2, Some(Ok(S.to_string()))),
                (
                    3,
                    Some(Err(
                        "solutions file line 3: not a grid: bad character 'x' at position 1".into()
                    ))
                ),
                (4, None),
                (
                    6,
                    Some(Err(
                        "solutions file line 6: not a grid: 80 cells, expected 81".into()
                    ))
                ),
                (
                    7,
                    Some(Err(
                        "solutions file line 7: not a grid: 162 cells, expected 81".into()
                    ))
                ),
            ]
        );
    }

    #[test]
    fn a_nine_by_nine_solution_is_read_as_numbers_as_a_column_reads_it() {
        let values = |sep: &str| S.chars().map(String::from).collect::<Vec<_>>().join(sep);
        let ok = |line| (line, Some(Ok(S.to_string())));
        // A line of numbers, a field of them after an id or a puzzle.
        let text = format!(
            "{}\n{}\nid {}\n{} {}\n",
            values(","),
            values(" "),
            values(","),
            S.replace('3', "."),
            values(",")
        );
        assert_eq!(read(&text, false), [ok(1), ok(2), ok(3), ok(4)]);
        // CSV: a quoted field, or the numbers not quoted, from the first
        // line (no header) or after one.
        let csv = format!("{}\n\"{}\"\n", values(","), values(","));
        assert_eq!(read(&csv, true), [ok(1), ok(2)]);
        let csv = format!("solution\n{}\n", values(","));
        assert_eq!(read(&csv, true), [ok(2)]);
        // Not a grid: said of the whole line, not of its first number.
        let short = format!("{}\n", &values(",")[2..]);
        assert_eq!(
            read(&short, false),
            [(
                1,
                Some(Err(
                    "solutions file line 1: not a grid: 80 values, expected 81 (a 9x9 grid)".into()
                ))
            )]
        );
    }

    #[test]
    fn a_stray_csv_quote_takes_in_no_solution_of_the_rows_after_it() {
        // A lone `"` typed as a ditto mark in a note, closed by the next
        // at a line end: legal CSV of one record over three lines, which
        // paired every later solution with the record before its own.
        let ok = |line| (line, Some(Ok(S.to_string())));
        let stray = |line| {
            let why = format!(
                "solutions file line {line}: not a grid: unterminated quote opened on line {line}"
            );
            (line, Some(Err(why)))
        };
        let rows = format!("1,{S},\"\n2,{S},\n3,{S},\n4,{S},\"\n5,{S},\n");
        assert_eq!(
            read(&format!("id,solution,note\n{rows}"), true),
            [stray(2), ok(3), ok(4), stray(5), ok(6)]
        );
        assert_eq!(read(&rows, true), [stray(1), ok(2), ok(3), stray(4), ok(5)]);
        // A note over lines that holds no grid is one field, as before.
        let data = format!("id,solution,note\n1,{S},\"two\nlines\"\n2,{S},\n");
        assert_eq!(read(&data, true), [ok(2), ok(4)]);
    }

    #[test]
    fn hash_lines_that_are_records_and_placeholders_stand_for_their_record() {
        let ok = |line| (line, Some(Ok(S.to_string())));
        // CSV: a note `#x` is a record's; a row-number column `#` a header.
        let data = format!("note,solution\na,{S}\n#x,{S}\n# comment\nc,NA\nd,#N/A\n");
        assert_eq!(read(&data, true), [ok(2), ok(3), (5, None), (6, None)]);
        let data = format!("#,solution\n1,{S}\n#2,{S}\n");
        assert_eq!(read(&data, true), [ok(2), ok(3)]);
        // Text: `#N/A` and `NA` stand for their record, first line or not;
        // other `#` lines are comments.
        let data = format!("#N/A\n# comment\n{S}\nNA\n{S}\n");
        assert_eq!(read(&data, false), [(1, None), ok(3), (4, None), ok(5)]);
        // A spreadsheet's error value is its record's reason, pandas'
        // `#NA` no solution, CSV or text, first line or not.
        let error = |line, v| {
            let why =
                format!("solutions file line {line}: not a grid: spreadsheet error value '{v}'");
            (line, Some(Err(why)))
        };
        let data = format!("#REF!\n# comment\n{S}\n#NA\n#DIV/0!\n{S}\n");
        let want = [
            error(1, "#REF!"),
            ok(3),
            (4, None),
            error(5, "#DIV/0!"),
            ok(6),
        ];
        assert_eq!(read(&data, false), want);
        assert_eq!(read(&data, true), want);
    }

    #[test]
    fn a_csv_delimiter_other_than_a_comma_is_read_as_given() {
        let data = format!("id;solution\n1;{S}\n2;\n3;NA\n");
        let mut reader =
            SolutionsReader::new(data.as_bytes(), true, Path::new("s")).with_delimiter(b';');
        let got: Vec<(u64, Option<bool>)> = std::iter::from_fn(|| reader.next_given())
            .map(|g| {
                let g = g.unwrap();
                (g.line, g.solution.map(|s| s.is_ok()))
            })
            .collect();
        assert_eq!(got, [(2, Some(true)), (3, None), (4, None)]);
    }

    #[test]
    fn csv_takes_the_solution_column_and_blank_values() {
        let data = format!("puzzle,solution\nq,{S}\n\nq,\nq,{}\n", &S[..80]);
        let got = read(&data, true);
        assert_eq!(got[0], (2, Some(Ok(S.to_string()))));
        assert_eq!(got[1], (3, None));
        assert_eq!(got[2], (4, None));
        assert!(matches!(&got[3], (5, Some(Err(why))) if why.contains("80 cells")));
    }
}
