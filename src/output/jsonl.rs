//! Results rows as JSON Lines (jsonlines.org): one object per row, the
//! CSV's columns as its keys in the same order, numbers as JSON numbers
//! (`solve_us` with the CSV's one decimal) and `null` where the CSV field
//! is empty. Formatted straight into byte buffers by the solver workers,
//! as CSV is.

use crate::output::rating::RatingColumns;
use crate::output::result::{PuzzleResult, RowFields, SizedResult};
use crate::output::row::{in_place, push_number, Row};
use crate::output::{clean_message, Blank, PlainRows, RowFormat, Shape, FILE_COLUMN};

/// The longest run of members a row builds on the stack: `line` to
/// `message` (its value `null`) and the row's end, with numbers of 20
/// digits, both grids and the longest status and check. A message, or
/// another size's grids, go straight into the output instead.
const JSON_ROW_BYTES: usize =
    8 + 20 + 10 + 83 + 12 + 10 + 14 + 83 + 11 + 20 + 12 + 22 + 9 + 10 + 11 + 6;

/// Formats results rows as JSON Lines.
#[derive(Clone, Debug)]
pub struct JsonlRows {
    /// Each input's `"file":"..."` member and its comma, when the run has
    /// several inputs.
    files: Option<Vec<Vec<u8>>>,
    /// Each results column's key, quoted, with its colon (and the comma
    /// before it but for the first).
    keys: Vec<Vec<u8>>,
    /// Each kept column's `,"name":`.
    kept_keys: Vec<Vec<u8>>,
    blank: Blank,
    rating: RatingColumns,
}

impl JsonlRows {
    /// Rows of `shape`.
    pub fn new(shape: &Shape) -> JsonlRows {
        let key = |name: &str, comma: bool| {
            let mut key = Vec::new();
            if comma {
                key.push(b',');
            }
            push_string(&mut key, name);
            key.push(b':');
            key
        };
        let files = shape.files.as_ref().map(|names| {
            names
                .iter()
                .map(|name| {
                    let mut member = key(FILE_COLUMN, false);
                    push_string(&mut member, name);
                    member.push(b',');
                    member
                })
                .collect()
        });
        JsonlRows {
            files,
            keys: shape
                .result_columns()
                .iter()
                .enumerate()
                .map(|(i, name)| key(name, i > 0))
                .collect(),
            kept_keys: shape
                .kept_names()
                .iter()
                .map(|name| key(name, true))
                .collect(),
            blank: shape.blank,
            rating: shape.rating,
        }
    }

    /// The members of a `rate` row after `file`: `line`, `puzzle`,
    /// `rating` (a number), `hardest`, `steps`, `status`, `message`.
    fn rate_members(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        let [line, puzzle, rating_key, hardest, steps, status, message] = &self.keys[..] else {
            return;
        };
        out.extend_from_slice(line);
        push_number(out, result.line);
        out.extend_from_slice(puzzle);
        self.push_puzzle(result, out);
        let rated = result.rating.as_ref();
        out.extend_from_slice(rating_key);
        match &rated {
            Some(r) => out.extend_from_slice(r.to_decimal().as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(hardest);
        match &rated {
            Some(r) => push_string(out, &r.hardest),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(steps);
        match &rated {
            Some(r) => push_number(out, u64::from(r.steps)),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(status);
        push_ascii(out, result.status.name().as_bytes());
        out.extend_from_slice(message);
        match &result.message {
            Some(text) => push_string(out, &clean_message(text)),
            None => out.extend_from_slice(b"null"),
        }
    }

    /// Appends the `puzzle` value: a 9x9 grid's 81 characters, another
    /// size's text in its alphabet, or `null`.
    fn push_puzzle(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        match (&result.puzzle, &result.sized) {
            (Some(grid), _) => push_ascii(out, &self.blank.puzzle_bytes(grid)),
            (None, Some(sized)) => {
                push_string(out, &sized.puzzle_text(self.blank.byte(&sized.symbols)));
            }
            (None, None) => out.extend_from_slice(b"null"),
        }
    }
}

impl JsonlRows {
    /// Appends the members from `line` to the `message` key, for a grid of
    /// another size with its own puzzle and solution (written past the
    /// stack row, flushed into `out` first).
    fn push_members(
        &self,
        fields: &RowFields<'_>,
        sized: Option<&SizedResult>,
        row: &mut Row<[u8; JSON_ROW_BYTES]>,
        out: &mut Vec<u8>,
    ) {
        row.text(b"\"line\":");
        row.number(fields.line);
        row.text(b",\"puzzle\":");
        match (fields.puzzle, sized) {
            (Some(grid), _) => row.quoted_grid(grid, self.blank.nine()),
            (None, Some(sized)) => {
                row.flush(out);
                push_string(out, &sized.puzzle_text(self.blank.byte(&sized.symbols)));
            }
            (None, None) => row.text(b"null"),
        }
        self.push_status(fields, row);
        match (fields.solution, sized.and_then(SizedResult::solution_text)) {
            (Some(grid), _) => row.quoted_grid(grid, b'.'),
            (None, Some(text)) => {
                row.flush(out);
                push_string(out, &text);
            }
            (None, None) => row.text(b"null"),
        }
        self.push_counts(fields, row);
    }
}

impl JsonlRows {
    /// [`JsonlRows::push_members`] for a 9x9 grid's fields, all of them in
    /// `row`.
    #[inline(always)]
    fn push_plain_members<B: AsMut<[u8]>>(&self, fields: &RowFields<'_>, row: &mut Row<B>) {
        row.text(b"\"line\":");
        row.number(fields.line);
        row.text(b",\"puzzle\":");
        match fields.puzzle {
            Some(grid) => row.quoted_grid(grid, self.blank.nine()),
            None => row.text(b"null"),
        }
        self.push_status(fields, row);
        match fields.solution {
            Some(grid) => row.quoted_grid(grid, b'.'),
            None => row.text(b"null"),
        }
        self.push_counts(fields, row);
    }

    /// A plain row ([`RowFormat::plain_rows`]): its start and `file`
    /// member, then its other members and its end written where they end
    /// up in `out`.
    #[inline(always)]
    pub(crate) fn plain_row(&self, fields: &RowFields<'_>, out: &mut Vec<u8>) {
        out.push(b'{');
        if let Some(files) = &self.files {
            if let Some(file) = files.get(fields.input) {
                out.extend_from_slice(file);
            }
        }
        self.plain_in_place(fields, out);
    }

    /// A plain row's members after `file`, and its end, written where they
    /// end up in `out`.
    #[inline(always)]
    fn plain_in_place(&self, fields: &RowFields<'_>, out: &mut Vec<u8>) {
        in_place::<JSON_ROW_BYTES>(
            out,
            #[inline(always)]
            |row| {
                self.push_plain_members(fields, row);
                row.text(b"null}\n");
            },
        );
    }

    /// The `status` member and the `solution` key.
    #[inline(always)]
    fn push_status<B: AsMut<[u8]>>(&self, fields: &RowFields<'_>, row: &mut Row<B>) {
        row.text(b",\"status\":\"");
        row.status(fields.status);
        row.text(b"\",\"solution\":");
    }

    /// The members from `guesses` to the `message` key.
    #[inline(always)]
    fn push_counts<B: AsMut<[u8]>>(&self, fields: &RowFields<'_>, row: &mut Row<B>) {
        row.text(b",\"guesses\":");
        match fields.guesses {
            Some(n) => row.number(n),
            None => row.text(b"null"),
        }
        row.text(b",\"solve_us\":");
        match fields.solve_ns {
            Some(ns) => row.micros(ns),
            None => row.text(b"null"),
        }
        row.text(b",\"check\":");
        match fields.check {
            Some(check) => {
                row.byte(b'"');
                row.check(check);
                row.byte(b'"');
            }
            None => row.text(b"null"),
        }
        row.text(b",\"message\":");
    }
}

impl RowFormat for JsonlRows {
    fn plain_rows(&self) -> Option<PlainRows<'_>> {
        (self.rating == RatingColumns::None).then_some(PlainRows::Jsonl(self))
    }

    fn row(&self, result: &PuzzleResult, out: &mut Vec<u8>) {
        out.push(b'{');
        if let Some(files) = &self.files {
            if let Some(file) = files.get(result.input) {
                out.extend_from_slice(file);
            }
        }
        if self.rating == RatingColumns::Only {
            self.rate_members(result, out);
            for (key, value) in self.kept_keys.iter().zip(&result.kept) {
                out.extend_from_slice(key);
                value.write_json(out);
            }
            out.extend_from_slice(b"}\n");
            return;
        }
        // The members up to `message` are built in one buffer on the stack
        // (the keys are [`crate::output::COLUMNS`]), and the row is copied out once.
        let mut row = Row::<[u8; JSON_ROW_BYTES]>::new();
        self.push_members(
            &RowFields::of(result),
            result.sized.as_deref(),
            &mut row,
            out,
        );
        let appended = self.rating == RatingColumns::Appended;
        if result.message.is_none() && result.kept.is_empty() && !appended {
            row.text(b"null}\n");
            row.flush(out);
            return;
        }
        match &result.message {
            Some(text) => {
                row.flush(out);
                push_string(out, &clean_message(text));
            }
            None => {
                row.text(b"null");
                row.flush(out);
            }
        }
        if let [.., rating_key, hardest] = &self.keys[..] {
            if appended {
                let rated = result.rating.as_ref();
                out.extend_from_slice(rating_key);
                match &rated {
                    Some(r) => out.extend_from_slice(r.to_decimal().as_bytes()),
                    None => out.extend_from_slice(b"null"),
                }
                out.extend_from_slice(hardest);
                match &rated {
                    Some(r) => push_string(out, &r.hardest),
                    None => out.extend_from_slice(b"null"),
                }
            }
        }
        for (key, value) in self.kept_keys.iter().zip(&result.kept) {
            out.extend_from_slice(key);
            value.write_json(out);
        }
        out.extend_from_slice(b"}\n");
    }
}

/// Appends text that needs no escaping (digits, `.`, letters) as a JSON
/// string.
fn push_ascii(out: &mut Vec<u8>, text: &[u8]) {
    out.push(b'"');
    out.extend_from_slice(text);
    out.push(b'"');
}

/// Appends `text` as a JSON string, escaped.
fn push_string(out: &mut Vec<u8>, text: &str) {
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use sudoku_core::grid::Grid;
    use sudoku_core::solver::Status;

    use super::*;
    use crate::kept::{KeptColumn, KeptValue};
    use crate::output::result::Check;

    fn row(rows: &JsonlRows, result: &PuzzleResult) -> Value {
        let mut out = Vec::new();
        rows.row(result, &mut out);
        assert_eq!(out.last(), Some(&b'\n'));
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
        serde_json::from_slice(&out).unwrap()
    }

    fn malformed() -> PuzzleResult {
        PuzzleResult {
            input: 1,
            line: 7,
            puzzle: None,
            status: Status::Malformed,
            solution: None,
            guesses: None,
            solve_ns: None,
            check: None,
            message: Some("bad \"x\"\n".into()),
            expected: None,
            kept: vec![],
            sized: None,
            rating: None,
        }
    }

    #[test]
    fn empty_csv_fields_are_null_and_numbers_are_numbers() {
        let rows = JsonlRows::new(&Shape::default());
        assert_eq!(
            row(&rows, &malformed()),
            json!({"line": 7, "puzzle": null, "status": "malformed", "solution": null,
                   "guesses": null, "solve_us": null, "check": null, "message": "bad \"x\"\\n"})
        );
        let mut cells = [1u8; 81];
        cells[80] = 9;
        let solved = PuzzleResult {
            puzzle: Some(Grid::parse(&[b'0'; 81]).unwrap()),
            status: Status::Solved,
            solution: Some(Grid::from_cells(cells).unwrap()),
            guesses: Some(3),
            solve_ns: Some(12_349),
            check: Some(Check::Ok),
            message: None,
            ..malformed()
        };
        let value = row(
            &JsonlRows::new(&Shape {
                blank: Blank::Zero,
                ..Shape::default()
            }),
            &solved,
        );
        assert_eq!(value["puzzle"], json!("0".repeat(81)));
        assert_eq!(value["solution"], json!(format!("{}9", "1".repeat(80))));
        assert_eq!(
            (value["guesses"].as_u64(), value["solve_us"].as_f64()),
            (Some(3), Some(12.3))
        );
        assert_eq!(value["check"], json!("ok"));
    }

    #[test]
    fn plain_rows_are_their_results_rows_at_every_width() {
        let shapes = [
            Shape::default(),
            Shape {
                files: Some(vec!["a.csv".into(), "b \"2\".csv".into()]),
                blank: Blank::Zero,
                ..Shape::default()
            },
        ];
        for shape in &shapes {
            crate::output::tests::plain_rows_match(&JsonlRows::new(shape), b"{}\n");
        }
    }

    #[test]
    fn the_file_comes_first_and_kept_values_keep_their_types() {
        let kept = ["source", "rating", "score", "ok", "line"];
        let shape = Shape {
            files: Some(vec!["a.csv".into(), "b \"2\".csv".into()]),
            kept: kept.iter().map(|name| KeptColumn::text(*name)).collect(),
            blank: Blank::Dot,
            ..Shape::default()
        };
        let result = PuzzleResult {
            kept: vec![
                KeptValue::Text("kaggle".into()),
                KeptValue::Int(-4),
                KeptValue::Float(f64::NAN),
                KeptValue::Bool(true),
                KeptValue::Float(2.5),
            ],
            ..malformed()
        };
        let mut out = Vec::new();
        JsonlRows::new(&shape).row(&result, &mut out);
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with(r#"{"file":"b \"2\".csv","line":7,"#),
            "{text}"
        );
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["source"], json!("kaggle"));
        assert_eq!(value["rating"], json!(-4));
        assert_eq!(value["score"], json!("NaN"));
        assert_eq!(value["ok"], json!(true));
        assert_eq!(value["input_line"], json!(2.5));
        assert_eq!(value["line"], json!(7));
    }
}
