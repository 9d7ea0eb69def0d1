//! Results rows as CSV ([`CsvRows`]), formatted straight into byte
//! buffers by the solver workers; the `file` field's guard against
//! spreadsheet formulas ([`file_field`]) and the check of an
//! `--output-delimiter` ([`check_delimiter`]).

use crate::kept::KeptValue;
use crate::output::rating::RatingColumns;
use crate::output::result::{PuzzleResult, RowFields, SizedResult};
use crate::output::row::{in_place, push_micros, push_number, Row, ROW_BYTES};
use crate::output::shape::{clean_message, Blank, Shape};
use crate::output::{PlainRows, RowFormat};

/// A file name as the CSV `file` column holds it: a name that starts like
/// a spreadsheet formula (`=`, `+`, `-`, `@`), or with the `'` this adds,
/// gets a `'` in front, so a spreadsheet shows it as text and
/// [`file_name`] gives the name back exactly. JSON Lines and Parquet hold
/// names as they are.
pub fn file_field(name: &str) -> std::borrow::Cow<'_, str> {
    if name.starts_with(['=', '+', '-', '@', '\'']) {
        format!("'{name}").into()
    } else {
        name.into()
    }
}

/// The file name a CSV `file` field holds (see [`file_field`]).
pub fn file_name(field: &str) -> &str {
    field.strip_prefix('\'').unwrap_or(field)
}

/// Formats results rows as CSV text (RFC 4180: a field is quoted only when
/// it holds the delimiter, a quote or a line end), straight into a byte
/// buffer: no allocation per row but for a row's message and kept text.
/// Shared by the workers, which format their rows before the writer takes
/// them.
#[derive(Clone, Debug)]
pub struct CsvRows {
    /// Each input's `file` field, ready to write (escaped and quoted), when
    /// the run has several inputs.
    files: Option<Vec<Vec<u8>>>,
    /// The header line.
    header: Vec<u8>,
    /// The field delimiter.
    delimiter: u8,
    blank: Blank,
    rating: RatingColumns,
}

impl Default for CsvRows {
    fn default() -> CsvRows {
        CsvRows::new(&Shape::default(), b',')
    }
}

impl CsvRows {
    /// Rows of `shape`, fields separated by `delimiter` (a comma unless
    /// `--output-delimiter` says otherwise; see [`check_delimiter`]).
    pub fn new(shape: &Shape, delimiter: u8) -> CsvRows {
        let files = shape.files.as_ref().map(|names| {
            names
                .iter()
                .map(|name| {
                    let mut field = Vec::with_capacity(name.len() + 3);
                    push_field(&mut field, file_field(name).as_bytes(), delimiter);
                    field
                })
                .collect()
        });
        let mut header = Vec::new();
        for (i, name) in shape.column_names().iter().enumerate() {
            if i > 0 {
                header.push(delimiter);
            }
            push_field(&mut header, name.as_bytes(), delimiter);
        }
        header.push(b'\n');
        CsvRows {
            files,
            header,
            delimiter,
            blank: shape.blank,
            rating: shape.rating,
        }
    }

    /// Appends the header line.
    pub fn header(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.header);
    }

    /// Appends one row: [`COLUMNS`](crate::output::COLUMNS), after
    /// [`FILE_COLUMN`](crate::output::FILE_COLUMN) when the run has
    /// several inputs, then the kept columns.
    pub fn csv_row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        let delimiter = self.delimiter;
        self.push_file(result.input, out);
        if self.rating == RatingColumns::Only {
            self.rate_row(result, out);
            return;
        }
        if let Some(sized) = &result.sized {
            self.csv_row_sized(result, sized, out);
            return;
        }
        let mut row: Row = Row::new();
        self.push_fields(&RowFields::of(result), &mut row);
        let appended = self.rating == RatingColumns::Appended;
        if result.message.is_none() && result.kept.is_empty() && !appended {
            row.byte(b'\n');
            out.extend_from_slice(row.bytes());
            return;
        }
        out.extend_from_slice(row.bytes());
        if let Some(message) = &result.message {
            push_field(out, clean_message(message).as_bytes(), delimiter);
        }
        if appended {
            out.push(delimiter);
            if let Some(r) = &result.rating {
                out.extend_from_slice(r.to_decimal().as_bytes());
            }
            out.push(delimiter);
            if let Some(r) = &result.rating {
                push_field(out, r.hardest.as_bytes(), delimiter);
            }
        }
        for value in &result.kept {
            out.push(delimiter);
            push_kept(out, value, delimiter);
        }
        out.push(b'\n');
    }

    /// Appends input `input`'s `file` field and its delimiter, when the run
    /// has several inputs.
    fn push_file(&self, input: usize, out: &mut Vec<u8>) {
        if let Some(files) = &self.files {
            if let Some(file) = files.get(input) {
                out.extend_from_slice(file);
            }
            out.push(self.delimiter);
        }
    }

    /// Appends the fields from `line` to `check`, each followed by the
    /// delimiter.
    #[inline(always)]
    fn push_fields<B: AsMut<[u8]>>(&self, fields: &RowFields<'_>, row: &mut Row<B>) {
        let delimiter = self.delimiter;
        row.number(fields.line);
        row.byte(delimiter);
        if let Some(puzzle) = fields.puzzle {
            row.grid(puzzle, self.blank.nine());
        }
        row.byte(delimiter);
        row.status(fields.status);
        row.byte(delimiter);
        if let Some(solution) = fields.solution {
            row.grid(solution, b'.');
        }
        row.byte(delimiter);
        if let Some(guesses) = fields.guesses {
            row.number(guesses);
        }
        row.byte(delimiter);
        if let Some(ns) = fields.solve_ns {
            row.micros(ns);
        }
        row.byte(delimiter);
        if let Some(check) = fields.check {
            row.check(check);
        }
        row.byte(delimiter);
    }

    /// Appends one row of `rate`:
    /// [`RATE_COLUMNS`](crate::output::rating::RATE_COLUMNS), after
    /// [`FILE_COLUMN`](crate::output::FILE_COLUMN) when the run has several
    /// inputs, then the kept columns.
    fn rate_row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        let delimiter = self.delimiter;
        let mut row: Row = Row::new();
        row.number(result.line);
        row.byte(delimiter);
        if let Some(puzzle) = &result.puzzle {
            row.grid(puzzle, self.blank.nine());
        }
        out.extend_from_slice(row.bytes());
        if let Some(sized) = &result.sized {
            self.push_sized_puzzle(sized, out);
        }
        out.push(delimiter);
        if let Some(r) = &result.rating {
            out.extend_from_slice(r.to_decimal().as_bytes());
            out.push(delimiter);
            push_field(out, r.hardest.as_bytes(), delimiter);
            out.push(delimiter);
            push_number(out, u64::from(r.steps));
        } else {
            out.push(delimiter);
            out.push(delimiter);
        }
        out.push(delimiter);
        out.extend_from_slice(result.status.name().as_bytes());
        out.push(delimiter);
        if let Some(message) = &result.message {
            push_field(out, clean_message(message).as_bytes(), delimiter);
        }
        for value in &result.kept {
            out.push(delimiter);
            push_kept(out, value, delimiter);
        }
        out.push(b'\n');
    }

    /// A grid of another size's puzzle field, in its alphabet with the
    /// blank for it, quoted when it holds the delimiter.
    fn push_sized_puzzle(&self, sized: &SizedResult, out: &mut Vec<u8>) {
        let text = sized.puzzle_text(self.blank.byte(&sized.symbols));
        push_field(out, text.as_bytes(), self.delimiter);
    }

    /// [`CsvRows::csv_row`] past the `file` field for a grid of another
    /// size: its puzzle and solution in its alphabet, quoted when they
    /// hold the delimiter (comma-separated numbers).
    fn csv_row_sized(&self, result: &PuzzleResult, sized: &SizedResult, out: &mut Vec<u8>) {
        let delimiter = self.delimiter;
        push_number(out, result.line);
        out.push(delimiter);
        self.push_sized_puzzle(sized, out);
        out.push(delimiter);
        out.extend_from_slice(result.status.name().as_bytes());
        out.push(delimiter);
        if let Some(solution) = sized.solution_text() {
            push_field(out, solution.as_bytes(), delimiter);
        }
        out.push(delimiter);
        if let Some(guesses) = result.guesses {
            push_number(out, guesses);
        }
        out.push(delimiter);
        if let Some(ns) = result.solve_ns {
            push_micros(out, ns);
        }
        out.push(delimiter);
        if let Some(check) = result.check {
            out.extend_from_slice(check.name().as_bytes());
        }
        out.push(delimiter);
        if let Some(message) = &result.message {
            push_field(out, clean_message(message).as_bytes(), delimiter);
        }
        if self.rating == RatingColumns::Appended {
            // Not rated: the rater is for 9x9 grids (the message says so).
            out.push(delimiter);
            out.push(delimiter);
        }
        for value in &result.kept {
            out.push(delimiter);
            push_kept(out, value, delimiter);
        }
        out.push(b'\n');
    }

    /// A plain row ([`RowFormat::plain_rows`]): its `file` field, then its
    /// fields and line end written where they end up in `out`.
    #[inline(always)]
    pub(crate) fn plain_row(&self, fields: &RowFields<'_>, out: &mut Vec<u8>) {
        self.push_file(fields.input, out);
        self.plain_in_place(fields, out);
    }

    /// A plain row's fields and line end, written where they end up in
    /// `out`.
    #[inline(always)]
    fn plain_in_place(&self, fields: &RowFields<'_>, out: &mut Vec<u8>) {
        in_place::<ROW_BYTES>(
            out,
            #[inline(always)]
            |row| {
                self.push_fields(fields, row);
                row.byte(b'\n');
            },
        );
    }

    /// Appends every row of `results`, in order.
    pub fn rows(&self, results: &[PuzzleResult], out: &mut Vec<u8>) {
        for result in results {
            self.csv_row(result, out);
        }
    }
}

impl RowFormat for CsvRows {
    fn row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        self.csv_row(result, out);
    }

    fn plain_rows(&self) -> Option<PlainRows<'_>> {
        (self.rating == RatingColumns::None).then_some(PlainRows::Csv(self))
    }
}

/// Checks an `--output-delimiter`: one ASCII character that no unquoted
/// field of the results can hold (not a letter, a digit, `.`, `"`, or a
/// line end).
///
/// # Errors
/// Why the character cannot separate the fields.
pub fn check_delimiter(delimiter: char) -> Result<u8, String> {
    let byte = u8::try_from(delimiter)
        .ok()
        .filter(u8::is_ascii)
        .ok_or_else(|| format!("{delimiter:?} is not an ASCII character"))?;
    if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'"' | b'\n' | b'\r') {
        return Err(format!(
            "{delimiter:?} appears in the results fields themselves (letters, digits, `.`, quotes \
             and line ends cannot separate them)"
        ));
    }
    Ok(byte)
}

/// Appends a kept value as a CSV field: its bytes ([`KeptValue::bytes`]:
/// empty for null, text that is not UTF-8 as the input held it), quoted as
/// needed, and otherwise as it is. No formula
/// guard: a `'` in front of `@a1` would make it `'@a1`, another value and
/// another join key (see [`crate::kept`]).
fn push_kept(out: &mut Vec<u8>, value: &KeptValue, delimiter: u8) {
    push_field(out, &value.bytes(), delimiter);
}

/// Appends `field`, quoted (quotes doubled) when it holds the delimiter, a
/// quote or a line end.
fn push_field(out: &mut Vec<u8>, field: &[u8], delimiter: u8) {
    if !field
        .iter()
        .any(|&b| b == delimiter || matches!(b, b'"' | b'\n' | b'\r'))
    {
        out.extend_from_slice(field);
        return;
    }
    out.push(b'"');
    for &b in field {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::result::Check;
    use crate::output::shape::COLUMNS;
    use crate::output::tests::{kept, malformed, plain_rows_match};
    use sudoku_core::grid::Grid;
    use sudoku_core::solver::Status;

    fn format(result: &PuzzleResult, files: Option<&[String]>, header: bool) -> String {
        let rows = CsvRows::new(
            &Shape {
                files: files.map(<[String]>::to_vec),
                ..Shape::default()
            },
            b',',
        );
        let mut out = Vec::new();
        if header {
            rows.header(&mut out);
        }
        rows.csv_row(result, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_row_struct_has_the_documented_columns() {
        let result = malformed();
        let text = format(&result, None, true);
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
        let text = format(
            &result,
            Some(&["a.txt".to_string(), "b,\"c\".txt".to_string()]),
            true,
        );
        assert_eq!(
            text.lines().next().unwrap(),
            format!("file,{}", COLUMNS.join(","))
        );
    }

    #[test]
    fn malformed_rows_leave_the_searched_columns_empty() {
        let text = format(&malformed(), None, false);
        assert_eq!(text, "7,,malformed,,,,,\"80 cells, expected 81\"\n");
    }

    #[test]
    fn solved_rows_have_the_grids_and_the_time_in_tenths_of_a_microsecond() {
        let puzzle = Grid::parse(&[b'0'; 81]).unwrap();
        let mut cells = [1u8; 81];
        cells[80] = 9;
        let solution = Grid::from_cells(cells).unwrap();
        let result = PuzzleResult {
            puzzle: Some(puzzle),
            status: Status::Solved,
            solution: Some(solution),
            guesses: Some(3),
            solve_ns: Some(12_349),
            check: Some(Check::Ok),
            message: None,
            ..malformed()
        };
        let text = format(&result, None, false);
        let expected = format!(
            "7,{},solved,{}9,3,12.3,ok,\n",
            ".".repeat(81),
            "1".repeat(80)
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn plain_rows_are_their_results_rows_at_every_width() {
        let shapes = [
            Shape::default(),
            Shape {
                files: Some(vec!["a.csv".into(), "b;c.csv".into()]),
                blank: Blank::Zero,
                ..Shape::default()
            },
        ];
        for shape in &shapes {
            for delimiter in [b',', b';'] {
                plain_rows_match(&CsvRows::new(shape, delimiter), b"rows before,");
            }
        }
    }

    #[test]
    fn fields_are_quoted_only_when_needed() {
        let field = |text: &str| {
            let mut out = Vec::new();
            push_field(&mut out, text.as_bytes(), b',');
            String::from_utf8(out).unwrap()
        };
        assert_eq!(field("a b"), "a b");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("a\nb"), "\"a\nb\"");
        let mut out = Vec::new();
        push_number(&mut out, u64::MAX);
        assert_eq!(out, u64::MAX.to_string().as_bytes());
    }

    #[test]
    fn a_file_column_comes_first_and_is_quoted_when_needed() {
        let names = ["a.txt".to_string(), "b,\"c\".txt".to_string()];
        let mut result = malformed();
        result.input = 1;
        assert_eq!(
            format(&result, Some(&names), false),
            "\"b,\"\"c\"\".txt\",7,,malformed,,,,,\"80 cells, expected 81\"\n"
        );
    }

    #[test]
    fn csv_rows_take_the_delimiter_the_blank_and_kept_values() {
        let shape = Shape {
            kept: kept(&["source", "rating", "note", "flag", "score", "gap", "a", "b"]),
            blank: Blank::Zero,
            ..Shape::default()
        };
        let rows = CsvRows::new(&shape, b';');
        let mut out = Vec::new();
        rows.header(&mut out);
        let result = PuzzleResult {
            input: 0,
            line: 3,
            puzzle: Some(Grid::parse(&[b'.'; 81]).unwrap()),
            status: Status::Invalid,
            solution: None,
            guesses: Some(0),
            solve_ns: Some(1_000),
            check: None,
            message: Some("a; b".into()),
            expected: None,
            kept: vec![
                KeptValue::Text("x;y".into()),
                KeptValue::Int(-3),
                KeptValue::Text("=1+1".into()),
                KeptValue::Bool(false),
                KeptValue::Text("-2.5".into()),
                KeptValue::Null,
                KeptValue::Text("@a1".into()),
                KeptValue::Text("'@a1".into()),
            ],
            sized: None,
            rating: None,
        };
        rows.csv_row(&result, &mut out);
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next().unwrap(),
            "line;puzzle;status;solution;guesses;solve_us;check;message;source;rating;note;flag;score;gap;a;b"
        );
        assert_eq!(
            lines.next().unwrap(),
            format!(
                "3;{};invalid;;0;1.0;;\"a; b\";\"x;y\";-3;=1+1;false;-2.5;;@a1;'@a1",
                "0".repeat(81)
            )
        );
    }

    #[test]
    fn delimiters_that_fields_hold_are_refused() {
        for ok in [',', ';', '\t', '|', ' '] {
            assert!(check_delimiter(ok).is_ok(), "{ok:?}");
        }
        for bad in ['.', '0', 'a', '"', '\n', 'é'] {
            assert!(check_delimiter(bad).is_err(), "{bad:?}");
        }
    }
}
