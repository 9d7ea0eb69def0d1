//! Reading csv inputs record by record: [`CsvReader`] cuts the bytes
//! into records for a [`RecordBatch`], parsed later with the per-record
//! rules of [`super::csv`].

use super::ahead::Ahead;
use super::choose::{self, Seen};
use super::field;
use super::frame::{Framer, MAX_TABLE_RECORD};
use super::keep::{self, Keep};
use super::lines::unmark_first_name;
use super::record_batch::{unterminated, Parser, RecordBatch};
use super::sized::{Numbering, SizeOptions, Vote};
use super::{Column, InputError, Record};
use crate::kept::KeptColumn;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::choose::{PUZZLE_NAMES, SOLUTION_NAMES, STATUS_NAME};
use super::csv::*;

/// The name of the column of row names that R's `write.table` writes
/// first in every row and not in its header: empty, as R's `write.csv`
/// and pandas' `to_csv` name it.
const ROW_NAMES: &str = "";

/// Records from a CSV input.
pub struct CsvReader<R> {
    framer: Framer<R>,
    /// The first data records, read ahead to choose the puzzle column and
    /// the numbering for the whole input ([`CsvReader::look_ahead`]).
    ahead: Ahead,
    scratch: CsvScratch,
    rules: CsvRules,
    first: bool,
    /// A `#` line before the first record that may be its header
    /// ([`header_in_hash`]): its bytes and field count, until the line
    /// after it tells.
    hash_header: Option<(Vec<u8>, usize)>,
    name: String,
    /// The header's names, when it has one (for messages).
    names: Vec<String>,
    /// A column `--column` or `--keep` names that the header has not,
    /// until the records read ahead tell whether the header is short of
    /// a name for their first field ([`CsvReader::name_rows`]): the
    /// refusal, unless they are.
    unknown: Option<InputError>,
    /// The rules, shared with the workers, once settled.
    parser: Option<Arc<Parser>>,
}

impl<R: BufRead> CsvReader<R> {
    /// A reader over `src` (named `name` in errors) with fields separated
    /// by `delimiter`, whose records keep the columns `keep` asks for.
    pub fn new(
        src: R,
        column: Option<Column>,
        name: String,
        delimiter: u8,
        keep: Keep,
    ) -> CsvReader<R> {
        let mut reader = CsvReader {
            framer: Framer::new(src, true)
                .with_delimiter(delimiter)
                .with_cap(MAX_TABLE_RECORD),
            ahead: Ahead::default(),
            scratch: CsvScratch::default(),
            rules: CsvRules {
                column,
                cols: Columns::default(),
                delimiter,
                keep,
                kept_columns: Vec::new(),
                sizes: SizeOptions::default(),
            },
            first: true,
            hash_header: None,
            name,
            names: Vec::new(),
            unknown: None,
            parser: None,
        };
        // The header is framed minding stray quotes too, before any field
        // count is known.
        reader.mind_stray_quotes();
        reader
    }

    /// The reader, reading records of other sizes than 9x9 with `sizes`.
    pub fn with_sizes(mut self, sizes: SizeOptions) -> CsvReader<R> {
        self.rules.sizes = sizes;
        self
    }

    /// The kept columns, once the first record is read.
    pub fn kept_columns(&self) -> Vec<KeptColumn> {
        self.rules.kept_columns.clone()
    }

    fn error(&self, e: io::Error) -> InputError {
        InputError::io(&self.name, e)
    }

    /// Takes the first record as a header when none of its fields looks
    /// like a puzzle, or could be a grid of another size, and it is no grid
    /// written a value to a field ([`spread_grid`]). Returns
    /// whether it was one.
    fn header(
        rules: &mut CsvRules,
        name: &str,
        text: bool,
        rec: &Fields<'_>,
    ) -> Result<bool, InputError> {
        if !Self::may_be_header(rules, text, rec) {
            if let Some(Column::Name(column)) = &rules.column {
                return Err(InputError::NoHeader {
                    path: name.into(),
                    column: column.clone(),
                });
            }
            return Ok(false);
        }
        Self::name_columns(rules, name, &names_of(rec))?;
        Ok(true)
    }

    /// Finds the columns the header's `names` name: the puzzle's (or
    /// `--column`'s), the solution's, the status's, the kept ones.
    fn name_columns(rules: &mut CsvRules, name: &str, names: &[String]) -> Result<(), InputError> {
        // A name is matched past spaces and quotes around it: a header
        // written `"puzzle", "solution"` has the field ` "solution"`.
        let find = |wanted: &[&str]| {
            names.iter().position(|f| {
                let f = f.trim_ascii();
                let f = f
                    .strip_prefix('"')
                    .and_then(|f| f.strip_suffix('"'))
                    .unwrap_or(f);
                wanted.iter().any(|n| f.eq_ignore_ascii_case(n))
            })
        };
        rules.cols.puzzle = match &rules.column {
            Some(Column::Name(column)) => match keep::find_name(names, column, name)? {
                Some(i) => Some(i),
                None => {
                    return Err(InputError::UnknownColumn {
                        path: name.into(),
                        column: column.clone(),
                        header: Some(header_text(names)),
                    })
                }
            },
            Some(Column::Index(n)) if *n > names.len() => {
                return Err(InputError::UnknownColumn {
                    path: name.into(),
                    column: n.to_string(),
                    header: Some(header_text(names)),
                })
            }
            Some(Column::Index(n)) => Some(n.saturating_sub(1)),
            None => find(&PUZZLE_NAMES),
        };
        if rules.cols.puzzle.is_none() {
            rules.cols.cells = numbered_cells(names);
        }
        rules.cols.solution = find(&SOLUTION_NAMES);
        rules.cols.status = find(&[STATUS_NAME]);
        rules.cols.header_fields = Some(
            names
                .iter()
                .rposition(|n| !n.is_empty())
                .map_or(0, |i| i + 1),
        );
        rules.settle_kept(names, name)
    }

    /// True for a first record that may be a header: text (`text`) with
    /// no field that looks like a puzzle or could be a grid of another
    /// size, and no grid written a value to a field ([`spread_grid`]).
    fn may_be_header(rules: &CsvRules, text: bool, rec: &Fields<'_>) -> bool {
        text && spread_grid(rec).is_none()
            && !rec.iter().any(|f| {
                field::looks_like_puzzle(f)
                    || field::near_puzzle(f)
                    || super::sized::could_be_record(f, &rules.sizes)
            })
    }

    /// Takes `hash`, a `#` line read before the first record
    /// ([`header_in_hash`]: its bytes and field count), as the header when
    /// it may be one and has the fields of the first record, `rec` (its
    /// text `text`), which may be none (`#,quizzes,solutions`: a
    /// spreadsheet's row-number column named `#`). Returns its names when
    /// it did; else the line was a comment.
    fn header_of_hash(
        rules: &mut CsvRules,
        name: &str,
        hash: Option<(Vec<u8>, usize)>,
        text: bool,
        rec: &Fields<'_>,
    ) -> Result<Option<Vec<String>>, InputError> {
        let Some((line, count)) = hash else {
            return Ok(None);
        };
        if count != rec.len() || Self::may_be_header(rules, text, rec) {
            return Ok(None);
        }
        let mut scratch = CsvScratch::default();
        let Some(header) = scratch.split(&line, false, rules.delimiter) else {
            return Ok(None);
        };
        if !Self::may_be_header(rules, field::is_text_any(&line), &header) {
            return Ok(None);
        }
        let mut names = names_of(&header);
        unmark_first_name(&mut names);
        Self::name_columns(rules, name, &names)?;
        Ok(Some(names))
    }

    /// The next record, `None` at the end of the input.
    pub fn next_record(&mut self) -> Option<Result<Record, InputError>> {
        loop {
            let frame = match self.ahead.next(&mut self.framer) {
                Ok(Some(frame)) => frame,
                Ok(None) => return self.unknown.take().map(Err),
                Err(e) => return Some(Err(self.error(e))),
            };
            if frame.too_long {
                // A refusal waiting on the records read ahead comes before
                // any row.
                if let Some(e) = self.unknown.take() {
                    return Some(Err(e));
                }
                self.first = false;
                return Some(Ok(Record::new(
                    frame.line,
                    Err(frame.too_long_message(self.framer.limit())),
                    None,
                )));
            }
            let bytes = self.ahead.bytes(&self.framer);
            if self.rules.skips(bytes) {
                if self.first && !frame.open_quote {
                    if let Some(count) = header_in_hash(bytes, self.rules.delimiter) {
                        self.hash_header = Some((bytes.to_vec(), count));
                    }
                }
                continue;
            }
            if frame.open_quote {
                if let Some(e) = self.unknown.take() {
                    return Some(Err(e));
                }
                self.first = false;
                return Some(Ok(unterminated(&frame, self.framer.limit())));
            }
            let text = field::is_text_any(bytes);
            let Some(rec) = self.scratch.split(bytes, false, self.rules.delimiter) else {
                return Some(Ok(Record::new(
                    frame.line,
                    Err("unreadable CSV record".into()),
                    None,
                )));
            };
            if std::mem::replace(&mut self.first, false) {
                self.rules.cols.fields = Some(rec.len());
                let hash = self.hash_header.take();
                match Self::header_of_hash(&mut self.rules, &self.name, hash, text, &rec) {
                    Ok(Some(names)) => self.names = names,
                    Ok(None) => match Self::header(&mut self.rules, &self.name, text, &rec) {
                        Ok(true) => {
                            self.names = names_of(&rec);
                            self.mind_stray_quotes();
                            continue;
                        }
                        Ok(false) => {
                            let names = keep::field_names(rec.len(), &self.rules.keep);
                            if let Err(e) = self.rules.settle_kept(&names, &self.name) {
                                return Some(Err(e));
                            }
                        }
                        Err(e @ InputError::UnknownColumn { .. }) => {
                            self.names = names_of(&rec);
                            self.unknown = Some(e);
                            self.mind_stray_quotes();
                            continue;
                        }
                        Err(e) => return Some(Err(e)),
                    },
                    Err(e) => return Some(Err(e)),
                }
            }
            if !self.ahead.taken() {
                // The records read ahead framed knowing the field count.
                self.mind_stray_quotes();
                self.ahead.look(Some(frame), &mut self.framer);
                if let Err(e) = self.look_ahead() {
                    return Some(Err(e));
                }
                self.mind_stray_quotes();
                continue;
            }
            if !self.rules.settled() {
                let seen = self.rules.seen(&rec);
                let place = format!("line {}", frame.line);
                if let Err(e) = Self::settle(&mut self.rules, &self.names, &self.name, &seen, place)
                {
                    return Some(Err(e));
                }
            }
            return Some(Ok(self.rules.record(frame.line, &rec)));
        }
    }

    /// Settles the puzzle column by what the fields show (`seen`, at
    /// `place`: `line 7`, `lines 2-1001`), or says why it is unclear.
    /// `names` are the header's, `name` the input's.
    fn settle(
        rules: &mut CsvRules,
        names: &[String],
        name: &str,
        seen: &[Seen],
        place: String,
    ) -> Result<(), InputError> {
        rules.settle(seen).map_err(|(complete, empty)| {
            let column = |i: usize| match names.get(i) {
                Some(name) => name.clone(),
                None => format!("field{}", i + 1),
            };
            InputError::PuzzleColumnUnclear {
                path: name.into(),
                place,
                columns: super::choose::describe(&complete, &empty, column),
            }
        })
    }

    /// Chooses what belongs to the whole input on the records read ahead,
    /// before any is parsed on the workers: the puzzle column (when no
    /// header or `--column` names it) by what each column shows over them
    /// all, as Parquet chooses on its first rows (an empty first puzzle
    /// does not hide the column); then, unless `--symbols` says, the
    /// numbering of its grids ([`Numbering::of`] the records read alone
    /// and in each numbering), so that no record is read in another.
    fn look_ahead(&mut self) -> Result<(), InputError> {
        self.name_rows()?;
        let mut seen: Vec<Seen> = Vec::new();
        let mut lines = (0, 0);
        let mut votes = Vec::new();
        for pass in [0, 1] {
            for (frame, bytes) in self.ahead.records() {
                if frame.too_long || frame.open_quote || self.rules.skips(bytes) {
                    continue;
                }
                let Some(rec) = self.scratch.split(bytes, false, self.rules.delimiter) else {
                    continue;
                };
                if pass == 0 {
                    let shown = self.rules.seen(&rec);
                    if seen.len() < shown.len() {
                        seen.resize(shown.len(), Seen::Empty);
                    }
                    for (all, one) in seen.iter_mut().zip(shown) {
                        *all = all.and(one);
                    }
                    lines = (if lines.0 == 0 { frame.line } else { lines.0 }, frame.line);
                } else {
                    votes.extend(Vote::of(Numbering::READINGS.map(|numbering| {
                        self.rules.sizes.numbering = numbering;
                        self.rules.record(frame.line, &rec)
                    })));
                }
            }
            if pass == 0 {
                if lines.0 != 0 {
                    let place = super::frame::place(lines.0, lines.1);
                    Self::settle(&mut self.rules, &self.names, &self.name, &seen, place)?;
                }
                if self.rules.sizes.symbols.is_some() {
                    break;
                }
            }
        }
        self.rules.sizes.numbering = Numbering::of(votes);
        Ok(())
    }

    /// Reads the records as R's `write.table` writes them, each row's
    /// name first and no name for that column in the header, when every
    /// record read ahead says so: each has one field more than the header
    /// (one at least not empty there, so that records ending in a
    /// delimiter are not taken for it) and a first field that is no
    /// puzzle or grid. The header then names the fields after the first,
    /// which is the column [`ROW_NAMES`]. A header short of one name for
    /// only some records is left as it is: those records are malformed.
    /// A column the header does not name (`--keep 3`, `--column 3` past
    /// it) is refused here unless the header is read so and names it.
    fn name_rows(&mut self) -> Result<(), InputError> {
        let unknown = self.unknown.take();
        if !self.rows_named() {
            return unknown.map_or(Ok(()), Err);
        }
        let mut names = Vec::with_capacity(self.names.len() + 1);
        names.push(ROW_NAMES.to_owned());
        names.append(&mut self.names);
        self.rules.cols = Columns {
            fields: Some(names.len()),
            ..Columns::default()
        };
        Self::name_columns(&mut self.rules, &self.name, &names)?;
        self.names = names;
        Ok(())
    }

    /// True when the records read ahead are R's rows under a header short
    /// of their row names' column ([`CsvReader::name_rows`]).
    fn rows_named(&mut self) -> bool {
        let names = &self.names;
        let header = names.len();
        if header == 0 || names.last().is_some_and(String::is_empty) {
            return false;
        }
        if self.rules.cols.cells.is_some() {
            return false;
        }
        let mut filled = false;
        for (frame, bytes) in self.ahead.records() {
            if frame.too_long || frame.open_quote || self.rules.skips(bytes) {
                continue;
            }
            let Some(rec) = self.scratch.split(bytes, false, self.rules.delimiter) else {
                return false;
            };
            let named = rec
                .get(0)
                .is_some_and(|f| choose::seen_text(f, &self.rules.sizes) == Seen::Other);
            if rec.len() != header + 1 || !named {
                return false;
            }
            filled |= rec.filled_len() == header + 1;
        }
        filled
    }

    /// Tells the framer what a record of the file is, as far as it is known
    /// (its field count, once the first record is read; its puzzle column,
    /// once a header names it or the records read ahead show it; the
    /// sizes' options): a line a quoted field takes in is a record of the
    /// file when it reads as one ([`reads_as_a_record`]), and the quote a
    /// stray one ([`Framer::with_row_test`]).
    fn mind_stray_quotes(&mut self) {
        let test = row_test(RecordShape {
            delimiter: self.rules.delimiter,
            fields: self.rules.cols.fields,
            puzzle: self.rules.cols.puzzle,
            sizes: self.rules.sizes.clone(),
        });
        self.framer.set_row_test(test);
    }

    /// Puts the next records in `batch`, at least one and at most `max`:
    /// cut raw once the header is read, the records read ahead handed out
    /// and the puzzle column known, parsed before. `None` at the end of
    /// the input.
    pub fn next_item(
        &mut self,
        batch: &mut RecordBatch,
        max: usize,
    ) -> Option<Result<(), InputError>> {
        if self.first || !self.ahead.taken() || self.ahead.pending() || !self.rules.settled() {
            return Some(self.next_record()?.map(|record| batch.push_read(record)));
        }
        if self.parser.is_none() {
            self.mind_stray_quotes();
        }
        let parser = self
            .parser
            .get_or_insert_with(|| Arc::new(Parser::Csv(self.rules.clone())));
        batch.push_next_frames(&mut self.framer, &self.name, parser, max)
    }
}

/// The names of a header's fields (trimmed, as [`Fields::iter`] gives
/// them).
fn names_of(record: &Fields<'_>) -> Vec<String> {
    record
        .iter()
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect()
}

/// The header's names as read, for an error message, shortened.
fn header_text(names: &[String]) -> String {
    let mut text = names.join(",");
    if text.len() > 80 {
        let mut cut = 77;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("...");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::frame::too_long;
    use sudoku_core::grid::Grid;
    use sudoku_core::solver::Status;

    use crate::input::tests::{P, S};
    use crate::kept::KeptValue;

    fn read(data: &str, column: Option<Column>) -> Result<Vec<Record>, InputError> {
        let mut r = CsvReader::new(data.as_bytes(), column, "t.csv".into(), b',', Keep::Nothing);
        std::iter::from_fn(|| r.next_record()).collect()
    }

    fn grid(s: &str) -> Grid {
        Grid::parse(s.as_bytes()).unwrap()
    }

    fn summary(records: &[Record]) -> Vec<(u64, Result<String, String>, bool)> {
        records
            .iter()
            .map(|r| {
                (
                    r.line,
                    r.puzzle.clone().map(|g| g.to_line()),
                    r.solution.is_some(),
                )
            })
            .collect()
    }

    #[test]
    fn header_by_name_and_solution_column() {
        let data = format!("quizzes,solutions\r\n\r\n{P},{S}\r\n# note\r\n{S},{P}");
        let got = read(&data, None).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].line, got[0].puzzle.clone()), (3, Ok(grid(P))));
        assert_eq!(got[0].solution, Some(grid(S)));
        assert_eq!((got[1].line, got[1].solution), (5, None));
    }

    /// The records of `data` and the names of the columns `--keep`
    /// `columns` keeps.
    fn kept(data: &str, columns: &[Column]) -> Result<(Vec<Record>, Vec<String>), InputError> {
        let keep = Keep::Columns(columns.to_vec());
        let mut r = CsvReader::new(data.as_bytes(), None, "t.csv".into(), b',', keep);
        let records = std::iter::from_fn(|| r.next_record()).collect::<Result<_, _>>()?;
        let names = r.kept_columns().into_iter().map(|c| c.name).collect();
        Ok((records, names))
    }

    #[test]
    fn numpy_s_header_mark_is_no_part_of_the_first_name() {
        let data = format!("# id,puzzle,solution\n1,{P},{S}\n");
        let (got, names) = kept(&data, &[Column::Name("id".into())]).unwrap();
        assert_eq!(summary(&got), [(2, Ok(grid(P).to_line()), true)]);
        assert_eq!(names, ["id"]);
        // An unknown name: the names as read.
        let err = kept(&data, &[Column::Name("# id".into())])
            .unwrap_err()
            .to_string();
        assert!(err.contains("(the header is id,puzzle,solution)"), "{err}");
    }

    #[test]
    fn r_row_names_are_the_first_field_when_every_record_has_one() {
        let data = format!("puzzle,solution\n1,{P},{S}\nsecond,{P},\n");
        let (got, names) = kept(&data, &[Column::Index(1), Column::Name("solution".into())])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            summary(&got),
            [
                (2, Ok(grid(P).to_line()), true),
                (3, Ok(grid(P).to_line()), false)
            ]
        );
        assert_eq!(names, ["", "solution"]);
        assert_eq!(got[1].kept[0], KeptValue::Text("second".into()));
        let (_, names) = kept(&data, &[Column::Index(3)]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(names, ["solution"]);
        // One record short of the extra field: the header is the file's,
        // and a third column none of it.
        let data = format!("puzzle,solution\n1,{P},{S}\n{P},{S}\n");
        let err = kept(&data, &[Column::Index(3)]).unwrap_err().to_string();
        assert!(err.contains("no column named '3'"), "{err}");
        let got = read(&data, None).unwrap();
        assert_eq!(got[0].puzzle, Err("3 fields, but the header has 2".into()));
        assert!(got[1].puzzle.is_ok());
        // Every record ending in a delimiter: no row names.
        let data = format!("puzzle,solution\n{P},{S},\n{P},,\n");
        let got = read(&data, None).unwrap();
        assert_eq!(
            summary(&got),
            [
                (2, Ok(grid(P).to_line()), true),
                (3, Ok(grid(P).to_line()), false)
            ]
        );
        // A puzzle first is no row name.
        let data = format!("puzzle\n{P},{S}\n");
        let got = read(&data, None).unwrap();
        assert_eq!(got[0].puzzle, Err("2 fields, but the header has 1".into()));
    }

    #[test]
    fn a_hash_line_that_is_a_record_is_one_and_a_hash_header_a_header() {
        // An id or note starting with `#`: records, as pandas reads them.
        let data = format!("id,puzzle\n1,{P}\n#2,{P}\n# a comment\n#3 hardest,\n");
        let got = read(&data, None).unwrap();
        let lines: Vec<u64> = got.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 3, 5]);
        assert_eq!(got[2].puzzle, Err("empty field, expected 81 cells".into()));
        // No header: a grid in a field makes the first line a record.
        let got = read(&format!("#1,{P}\n#2,{P}\n"), None).unwrap();
        assert_eq!(
            summary(&got),
            [
                (1, Ok(grid(P).to_line()), false),
                (2, Ok(grid(P).to_line()), false)
            ]
        );
        // A row-number column named `#` heads the records after it.
        let data = format!("# exported\n#,quizzes,solutions\n1,{P},{S}\n");
        let got = read(&data, Some(Column::Name("quizzes".into()))).unwrap();
        assert_eq!(summary(&got), [(3, Ok(grid(P).to_line()), true)]);
        // A `#` line of as many fields before a header is a comment.
        let data = format!("# by, hand\npuzzle,solution\n{P},{S}\n");
        let got = read(&data, Some(Column::Name("puzzle".into()))).unwrap();
        assert_eq!(summary(&got), [(3, Ok(grid(P).to_line()), true)]);
    }

    #[test]
    fn header_names_are_found_past_spaces_and_quotes_around_them() {
        // As a hand-written header has it: `, "status"` is the field
        // ` "status"`, a name all the same.
        let data = format!("\"id\", \"puzzle\", \"status\"\n7, {P}, multiple\n");
        let got = read(&data, None).unwrap();
        assert_eq!(summary(&got), vec![(2, Ok(grid(P).to_line()), false)]);
        assert_eq!(got[0].expected, Some(Status::Multiple));
    }

    #[test]
    fn no_header_index_column_quotes_and_padding() {
        let data = format!(",puzzle,solution\n0,\"{P}\",  {S}  \n");
        let got = read(&data, None).unwrap();
        assert_eq!(summary(&got), vec![(2, Ok(grid(P).to_line()), true)]);
        let data = format!("{P},{S},26\n{},{S},3\n", &P[..76]);
        let got = read(&data, None).unwrap();
        assert_eq!(got[0].solution, Some(grid(S)));
        assert_eq!(got[1].puzzle, Err("76 cells, expected 81".into()));
        assert_eq!(got[1].line, 2);
    }

    #[test]
    fn quoted_field_spanning_lines_keeps_start_line() {
        let data =
            format!("puzzle,note\n\"{P}\",\"multi\nline, note\"\n{P},x\n\n  {P}  ,\"\"\"q\"\"\"");
        let got = read(&data, None).unwrap();
        let lines: Vec<u64> = got.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![2, 4, 6]);
        assert!(got.iter().all(|r| r.puzzle == Ok(grid(P))));
    }

    #[test]
    fn spreadsheet_numbers_and_status_column() {
        let data = "quizzes,solutions\r\n4.30021E+78,8.64371E+80\r\n";
        let got = read(data, None).unwrap();
        assert_eq!(
            got[0].puzzle,
            Err("looks like a spreadsheet number (4.30021E+78): leading zeros lost".into())
        );
        let data = format!("line,puzzle,status,solution\n1,{P},solved,{S}\n2,,malformed,\n");
        let got = read(&data, None).unwrap();
        assert_eq!(got[0].expected, Some(Status::Solved));
        assert_eq!(got[0].solution, Some(grid(S)));
        assert_eq!(got[1].expected, Some(Status::Malformed));
        assert_eq!(got[1].puzzle, Err("empty field, expected 81 cells".into()));
    }

    #[test]
    fn columns_by_option() {
        let data = format!("a,b\n{S},{P}\n");
        let got = read(&data, Some(Column::Name("B".into()))).unwrap();
        assert_eq!(got[0].puzzle, Ok(grid(P)));
        let got = read(&data, Some(Column::Index(2))).unwrap();
        assert_eq!(got[0].puzzle, Ok(grid(P)));
        // A number past the header's fields names nothing: refused.
        let err = read(&data, Some(Column::Index(3))).unwrap_err();
        assert!(matches!(err, InputError::UnknownColumn { .. }), "{err}");
        // Without a header a short record is malformed.
        let got = read(&format!("{S},{P}\n{P}\n"), Some(Column::Index(2))).unwrap();
        assert_eq!(got[1].puzzle, Err("no field 2 (the record has 1)".into()));
        let err = read(&data, Some(Column::Name("c".into()))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.csv: no column named 'c' (the header is a,b)"
        );
        let err = read(&format!("{P}\n"), Some(Column::Name("c".into()))).unwrap_err();
        assert!(err.to_string().contains("no header"), "{err}");
    }

    #[test]
    fn the_puzzle_column_is_chosen_on_the_first_records() {
        // An empty first puzzle does not hide the column.
        let data = format!("board,target\n,{S}\n\n{P},{S}\n");
        let got = read(&data, None).unwrap();
        assert_eq!(got[0].puzzle, Err("empty field, expected 81 cells".into()));
        assert_eq!((got[1].line, got[1].puzzle.clone()), (4, Ok(grid(P))));
        assert_eq!(got[1].solution, Some(grid(S)));
        // A column of complete grids before the puzzles is their solution.
        let got = read(&format!("sol,board\n{S},{P}\n"), None).unwrap();
        assert_eq!(got[0].puzzle, Ok(grid(P)));
        assert_eq!(got[0].solution, Some(grid(S)));
        // Empty throughout beside complete grids: unclear.
        let err = read(&format!("board,target\n,{S}\n,{S}\n"), None).unwrap_err();
        assert!(err.to_string().contains("lines 2-3"), "{err}");
    }

    #[test]
    fn too_long_record_and_unclosed_quote() {
        let long = "9".repeat(5000);
        let huge = "9".repeat(MAX_TABLE_RECORD + 1);
        let note = "x".repeat(100_000);
        let data =
            format!("puzzle,note\n\"{long}\n{long}\",\n{P},{huge}\n{P},\"{note}\"\n{P},\n\"{P}");
        let got = read(&data, None).unwrap();
        let lines: Vec<(u64, Result<Grid, String>)> =
            got.iter().map(|r| (r.line, r.puzzle.clone())).collect();
        // A quoted field over lines (10 KB, within the cap) is one record;
        // a record over the cap is too long; a long field on one line is
        // read; a quote open at the end is cut at its line.
        assert_eq!(lines[0], (2, Err("byte 0x0A at position 5001".into())));
        assert_eq!(
            lines[1..],
            [
                (4, Err(too_long(MAX_TABLE_RECORD))),
                (5, Ok(grid(P))),
                (6, Ok(grid(P))),
                (7, Err("unterminated quote opened on line 7".into()))
            ]
        );
    }
}
