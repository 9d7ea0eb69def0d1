//! Reading jsonl inputs record by record: [`JsonlReader`] cuts the bytes
//! into records for a [`RecordBatch`], parsed later with the per-record
//! rules of [`super::jsonl`].

use super::ahead::Ahead;
use super::frame::too_long;
use super::frame::{Framer, MAX_TABLE_RECORD};
use super::lines::is_skipped;
use super::record_batch::{Parser, RecordBatch};
use super::sized::{Numbering, Vote};
use super::{Column, InputError, Record, SizeOptions};
use crate::kept::KeptColumn;
use std::io::BufRead;
use std::sync::Arc;

use super::jsonl::*;

/// Records from a JSON Lines input.
pub struct JsonlReader<R> {
    framer: Framer<R>,
    /// The first records, read ahead to choose the puzzle key and the
    /// numbering for the whole input ([`JsonlReader::look_ahead`]).
    ahead: Ahead,
    rules: JsonRules,
    column: Option<Column>,
    settled: bool,
    name: String,
    /// The rules, shared with the workers, once settled.
    parser: Option<Arc<Parser>>,
}

impl<R: BufRead> JsonlReader<R> {
    /// A reader over `src` (named `name` in errors) whose records keep the
    /// keys `kept` (see [`KeyScan`]).
    pub fn new(
        src: R,
        column: Option<Column>,
        name: String,
        kept: Vec<KeptColumn>,
    ) -> JsonlReader<R> {
        JsonlReader {
            framer: Framer::new(src, false).with_cap(MAX_TABLE_RECORD),
            ahead: Ahead::default(),
            rules: JsonRules {
                kept,
                ..JsonRules::default()
            },
            column,
            settled: false,
            name,
            parser: None,
        }
    }

    /// This reader, reading grids of other sizes than 9x9 with `sizes`
    /// (`--symbols`, `--box`).
    pub fn with_sizes(mut self, sizes: SizeOptions) -> JsonlReader<R> {
        self.rules.sizes = sizes;
        self
    }

    /// The kept columns.
    pub fn kept_columns(&self) -> Vec<KeptColumn> {
        self.rules.kept.clone()
    }

    /// The next record, `None` at the end of the input.
    pub fn next_record(&mut self) -> Option<Result<Record, InputError>> {
        loop {
            let frame = match self.ahead.next(&mut self.framer) {
                Ok(Some(frame)) => frame,
                Ok(None) => return None,
                Err(e) => return Some(Err(InputError::io(&self.name, e))),
            };
            if frame.too_long {
                return Some(Ok(Record::new(
                    frame.line,
                    Err(too_long(self.framer.limit())),
                    None,
                )));
            }
            let bytes = self.ahead.bytes(&self.framer);
            if is_skipped(bytes) {
                continue;
            }
            if !self.ahead.taken() {
                self.ahead.look(Some(frame), &mut self.framer);
                if let Err(e) = self.look_ahead() {
                    return Some(Err(e));
                }
                continue;
            }
            if self.settled {
                return Some(Ok(self.rules.record(frame.line, bytes)));
            }
            let parsed = match serde_json::from_slice::<Line>(bytes) {
                Ok(parsed) => parsed,
                Err(e) => {
                    let message = format!("not valid JSON: {e}");
                    return Some(Ok(Record::new(frame.line, Err(message), None)));
                }
            };
            if let Line::Object(entries) = &parsed {
                let column = self.column.as_ref();
                if let Err(e) = self.rules.settle(entries, column, frame.line, &self.name) {
                    return Some(Err(e));
                }
                self.settled = self.rules.puzzle.is_some();
            }
            return Some(Ok(self.rules.record_of(frame.line, &parsed)));
        }
    }

    /// Chooses what belongs to the whole input on the records read ahead,
    /// before any is parsed on the workers: the puzzle key by content when
    /// no `--column` or key names it, and the solution key when no key is
    /// named as one ([`looked_keys`]); then, unless
    /// `--symbols` says, the numbering of its grids ([`Numbering::of`]
    /// the records read alone and in each numbering), so that no record is
    /// read in another.
    fn look_ahead(&mut self) -> Result<(), InputError> {
        let lines: Vec<(u64, Line<'_>)> = self
            .ahead
            .records()
            .filter(|(frame, bytes)| !frame.too_long && !is_skipped(bytes))
            .filter_map(|(frame, bytes)| Some((frame.line, serde_json::from_slice(bytes).ok()?)))
            .collect();
        let objects = lines.iter().filter_map(|(_, line)| match line {
            Line::Object(entries) => Some(&entries[..]),
            Line::Other(_) => None,
        });
        let first = lines.first().map_or(0, |(line, _)| *line);
        let last = lines.last().map_or(0, |(line, _)| *line);
        self.rules.looked = looked_keys(
            objects,
            self.column.as_ref(),
            (first, last),
            &self.name,
            &self.rules.sizes,
        )?;
        if self.rules.sizes.symbols.is_some() {
            return Ok(());
        }
        let mut rules = self.rules.clone();
        let mut votes = Vec::with_capacity(lines.len());
        for (line, parsed) in &lines {
            if let Line::Object(entries) = parsed {
                if rules.puzzle.is_none()
                    && rules
                        .settle(entries, self.column.as_ref(), *line, &self.name)
                        .is_err()
                {
                    break;
                }
            }
            votes.extend(Vote::of(Numbering::READINGS.map(|numbering| {
                rules.sizes.numbering = numbering;
                rules.record_of(*line, parsed)
            })));
        }
        self.rules.sizes.numbering = Numbering::of(votes);
        Ok(())
    }

    /// Puts the next records in `batch`, at least one and at most `max`:
    /// cut raw once the records read ahead are handed out and the keys are
    /// known, parsed before. `None` at the end of the input.
    pub fn next_item(
        &mut self,
        batch: &mut RecordBatch,
        max: usize,
    ) -> Option<Result<(), InputError>> {
        if !self.settled || !self.ahead.taken() || self.ahead.pending() {
            return Some(self.next_record()?.map(|record| batch.push_read(record)));
        }
        let parser = self
            .parser
            .get_or_insert_with(|| Arc::new(Parser::Json(self.rules.clone())));
        batch.push_next_frames(&mut self.framer, &self.name, parser, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::grid::Grid;

    use crate::input::tests::{P, S};

    fn read(data: &str, column: Option<Column>) -> Result<Vec<Record>, InputError> {
        let mut r = JsonlReader::new(data.as_bytes(), column, "t.jsonl".into(), Vec::new());
        std::iter::from_fn(|| r.next_record()).collect()
    }

    #[test]
    fn keys_by_name_by_content_and_by_option() {
        let grid = Grid::parse(P.as_bytes()).unwrap();
        let data = format!(
            "{{\"id\":1,\"Quiz\":\"{P}\",\"answer\":\"{S}\"}}\r\n\n{{\"id\":2,\"Quiz\":\"{}\"}}\n",
            &P[..80]
        );
        let got = read(&data, None).unwrap();
        assert_eq!((got[0].line, got[0].puzzle.clone()), (1, Ok(grid)));
        assert!(got[0].solution.is_some());
        assert_eq!(got[1].line, 3);
        assert_eq!(got[1].puzzle, Err("80 cells, expected 81".into()));
        let digits: Vec<String> = P.chars().map(String::from).collect();
        let data = format!("{{\"n\":\"x\",\"cells\":[{}]}}\n", digits.join(","));
        assert_eq!(read(&data, None).unwrap()[0].puzzle, Ok(grid));
        assert_eq!(
            read(&data, Some(Column::Index(2))).unwrap()[0].puzzle,
            Ok(grid)
        );
        let err = read(&data, Some(Column::Name("grid".into()))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.jsonl: no column named 'grid' (the header is n,cells)"
        );
    }

    #[test]
    fn bad_lines_are_malformed_with_the_reason() {
        let data = format!("{{\"puzzle\":\"{P}\"}}\n{{\"puzzle\":\n{{\"puzzle\":3.5}}\n\"{P}\"\n");
        let got = read(&data, None).unwrap();
        assert!(got[0].puzzle.is_ok());
        assert!(got[1]
            .puzzle
            .as_ref()
            .unwrap_err()
            .starts_with("not valid JSON: EOF"));
        assert!(got[2]
            .puzzle
            .as_ref()
            .unwrap_err()
            .starts_with("found a number (3.5)"));
        assert!(got[3].puzzle.is_ok());
    }
}
