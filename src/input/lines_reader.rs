//! Reading lines inputs record by record: [`LinesReader`] cuts the bytes
//! into records for a [`RecordBatch`], parsed later with the per-record
//! rules of [`super::lines`].

use super::ahead::Ahead;
use super::frame::{too_long, Framer};
use super::keep::Keep;
use super::record_batch::{Parser, RecordBatch, Scratch};
use super::sized::{Numbering, SizeOptions, Vote};
use super::{Column, InputError, Record};
use crate::kept::KeptColumn;
use std::io::BufRead;
use std::sync::Arc;

use super::lines::*;

/// Records from a text input, one per line.
pub struct LinesReader<R> {
    framer: Framer<R>,
    /// The records after the first, read ahead to choose the numbering for
    /// the whole input ([`LinesReader::look_ahead`]).
    ahead: Ahead,
    rules: LineRules,
    name: String,
    /// The rules, shared with the workers, once settled.
    parser: Option<Arc<Parser>>,
}

impl<R: BufRead> LinesReader<R> {
    /// A reader over `src` (named `name` in errors) whose records keep the
    /// fields `keep` asks for.
    pub fn new(src: R, column: Option<Column>, name: String, keep: Keep) -> LinesReader<R> {
        let mut rules = LineRules::new(column);
        rules.keep = keep;
        LinesReader {
            framer: Framer::new(src, false).with_sized_lines(),
            ahead: Ahead::default(),
            rules,
            name,
            parser: None,
        }
    }

    /// The reader, reading records of other sizes than 9x9 with `sizes`.
    /// A `--symbols` or `--box` makes every line a record (no headers).
    pub fn with_sizes(mut self, sizes: SizeOptions) -> LinesReader<R> {
        self.rules.headers &= sizes.symbols.is_none() && sizes.shape.is_none();
        self.rules.sizes = sizes;
        self
    }

    /// The reader with no header lines: every line is a record
    /// (`--format lines` given).
    pub fn without_headers(mut self) -> LinesReader<R> {
        self.rules.headers = false;
        self
    }

    /// The kept columns, once the first record is read.
    pub fn kept_columns(&self) -> Vec<KeptColumn> {
        self.rules.kept_columns.clone()
    }

    /// The next record, `None` at the end of the input.
    pub fn next_record(&mut self) -> Option<Result<Record, InputError>> {
        loop {
            let frame = match self.ahead.next(&mut self.framer) {
                Ok(Some(frame)) => frame,
                Ok(None) => return None,
                Err(source) => return Some(Err(InputError::io(&self.name, source))),
            };
            if frame.too_long {
                self.rules.saw_record();
                return Some(Ok(Record::new(
                    frame.line,
                    Err(too_long(self.framer.limit())),
                    None,
                )));
            }
            match self.rules.line(self.ahead.bytes(&self.framer)) {
                Ok(Line::Skip) => continue,
                Ok(Line::Record(puzzle, solution)) => {
                    let first;
                    let bytes = if self.ahead.taken() {
                        self.ahead.bytes(&self.framer)
                    } else {
                        first = self.framer.bytes().to_vec();
                        self.ahead.look(None, &mut self.framer);
                        self.look_ahead(frame.line, &first);
                        &first
                    };
                    if let Err(e) = self.rules.settle_kept(bytes, &self.name) {
                        return Some(Err(e));
                    }
                    let kept = self.rules.kept_values(bytes, &mut Vec::new());
                    if let Some(why) = self.rules.shifted(bytes, &mut Vec::new()) {
                        return Some(Ok(Record {
                            kept,
                            ..Record::new(frame.line, Err(why), None)
                        }));
                    }
                    let mut record = Record {
                        kept,
                        ..Record::of_line(frame.line, puzzle, solution)
                    };
                    if record.puzzle.is_err() {
                        self.rules.refused(bytes, &mut Vec::new(), &mut record);
                    }
                    return Some(Ok(record));
                }
                Err(column) => {
                    return Some(Err(InputError::UnknownColumn {
                        path: self.name.clone().into(),
                        column,
                        header: None,
                    }))
                }
            }
        }
    }

    /// Chooses, unless `--symbols` says, the numbering of the input's
    /// grids ([`Numbering::of`] the records read alone and in each
    /// numbering: the first, `bytes` at `line`, and those read ahead after
    /// it) before any record is parsed on the workers, so that no record is
    /// read in another.
    fn look_ahead(&mut self, line: u64, bytes: &[u8]) {
        if self.rules.sizes.symbols.is_some() {
            return;
        }
        let parsers = Numbering::READINGS.map(|numbering| {
            let mut rules = self.rules.clone();
            rules.sizes.numbering = numbering;
            Parser::Lines(rules)
        });
        let mut scratch = Scratch::default();
        let mut vote = |line: u64, bytes: &[u8]| {
            Vote::of(
                parsers
                    .each_ref()
                    .map(|parser| parser.parse(line, bytes, &mut scratch)),
            )
        };
        let mut votes: Vec<Vote> = vote(line, bytes).into_iter().collect();
        for (frame, bytes) in self.ahead.records() {
            if !frame.too_long && !self.rules.skips(bytes) {
                votes.extend(vote(frame.line, bytes));
            }
        }
        self.rules.sizes.numbering = Numbering::of(votes);
    }

    /// Puts the next records in `batch`, at least one and at most `max`:
    /// cut raw once the rules are settled and the records read ahead
    /// handed out, parsed before. `None` at the end of the input.
    pub fn next_item(
        &mut self,
        batch: &mut RecordBatch,
        max: usize,
    ) -> Option<Result<(), InputError>> {
        if !self.rules.settled() || !self.ahead.taken() || self.ahead.pending() {
            return Some(self.next_record()?.map(|record| batch.push_read(record)));
        }
        let parser = self
            .parser
            .get_or_insert_with(|| Arc::new(Parser::Lines(self.rules.clone())));
        batch.push_next_frames(&mut self.framer, &self.name, parser, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::grid::Grid;

    use crate::input::keep;

    use crate::input::tests::{P, S};

    fn run(rules: &mut LineRules, line: &str) -> Line {
        rules.line(line.as_bytes()).unwrap()
    }

    fn ok(line: &str, solution: Option<&str>) -> Line {
        Line::Record(
            Ok(Grid::parse(line.as_bytes()).unwrap()),
            Given {
                solution: solution.map(|s| Grid::parse(s.as_bytes()).unwrap()),
                error: None,
            },
        )
    }

    fn bad(message: &str) -> Line {
        Line::Record(Err(message.to_string()), Given::default())
    }

    /// The fields of `line` by `rule`, as text.
    fn fields(rule: FieldRule, line: &str) -> Vec<&str> {
        let mut f = Vec::new();
        rule.split(line.as_bytes(), &mut f);
        f.iter().map(|&(s, e)| &line[s..e]).collect()
    }

    #[test]
    fn each_rule_splits_its_own_way() {
        let line = "  a,b;;c|d\te  f,,g \r";
        assert_eq!(
            fields(FieldRule::Any, line),
            ["a", "b", "c", "d", "e", "f", "g"]
        );
        assert_eq!(
            fields(FieldRule::Whitespace, line),
            ["a,b;;c|d", "e", "f,,g"]
        );
        assert_eq!(
            fields(FieldRule::Delimiter(b','), line),
            ["a", "b;;c|d\te  f", "", "g"]
        );
        assert_eq!(
            fields(FieldRule::Delimiter(b';'), "a ;; b;"),
            ["a", "", "b", ""]
        );
        assert!(fields(FieldRule::Delimiter(b'|'), " \t").is_empty());
    }

    #[test]
    fn a_line_shows_the_separator_after_its_first_field() {
        assert_eq!(FieldRule::of(P.as_bytes()), FieldRule::Any);
        assert_eq!(
            FieldRule::of(format!("  {P} \r").as_bytes()),
            FieldRule::Any
        );
        let forum = format!("{P},Thread-00001;tarx0134,tarek,95532,97174,,,,4674,3311");
        assert_eq!(FieldRule::of(forum.as_bytes()), FieldRule::Delimiter(b','));
        assert_eq!(FieldRule::of(b"1 ; x,y"), FieldRule::Delimiter(b';'));
        assert_eq!(FieldRule::of(b"a|b"), FieldRule::Delimiter(b'|'));
        let comment = format!("{P}  // kleinezeitung, 14.09.2020 - leicht");
        assert_eq!(FieldRule::of(comment.as_bytes()), FieldRule::Whitespace);
        assert_eq!(FieldRule::of(b"12\tx"), FieldRule::TAB);
        assert_eq!(FieldRule::of(b"12 \t x y"), FieldRule::TAB);
        assert_eq!(FieldRule::of(b"12\t;x"), FieldRule::Delimiter(b';'));
        assert_eq!(FieldRule::of(b"12  x\ty"), FieldRule::Whitespace);
    }

    #[test]
    fn a_tab_separates_and_a_space_is_part_of_a_value() {
        assert_eq!(
            fields(FieldRule::TAB, "1\thello world \t\t x y\r"),
            ["1", "hello world", "", "x y"]
        );
        // A leading tab ends an empty first field; the line's other ends
        // are trimmed of spaces only.
        assert_eq!(fields(FieldRule::TAB, "\tP\t note"), ["", "P", "note"]);
        assert_eq!(fields(FieldRule::TAB, "a\t"), ["a", ""]);
        // A text-line file whose first record is tab-separated keeps a
        // value with spaces whole.
        let mut r = LineRules::new(None);
        r.keep = Keep::All;
        let first = format!("7\t{P}\thello world");
        assert_eq!(run(&mut r, &first), ok(P, None));
        assert_eq!(r.rule, Some(FieldRule::TAB));
        r.settle_kept(first.as_bytes(), "t.txt").unwrap();
        let kept = r.kept_values(first.as_bytes(), &mut Vec::new());
        assert_eq!(kept[2], keep::text(b"hello world"));
    }

    #[test]
    fn a_record_of_more_fields_than_the_header_naming_the_kept_ones_says_why() {
        let rules = |header: &str, first: &str| {
            let mut r = LineRules::new(None);
            r.keep = Keep::Columns(vec![Column::Name("note".into())]);
            assert_eq!(run(&mut r, header), Line::Skip);
            assert_eq!(run(&mut r, first), ok(P, None));
            r.settle_kept(first.as_bytes(), "s.txt").unwrap();
            r
        };
        let r = rules("id puzzle note", &format!("1 {P} hi"));
        let mut f = Vec::new();
        assert_eq!(r.shifted(format!("2 {P} hi").as_bytes(), &mut f), None);
        assert_eq!(r.shifted(format!("2 {P}").as_bytes(), &mut f), None);
        let why = r.shifted(format!("2 {P} hello world").as_bytes(), &mut f);
        assert_eq!(
            why.as_deref(),
            Some(
                "4 fields, but the header has 3: a space or tab separates this file's fields, \
                 so a value holding one is cut and the kept values would be shifted"
            )
        );
        // A space-separated file whose value holds a tab: cut there too,
        // and said.
        let why = r.shifted(format!("2 {P} hello\tworld").as_bytes(), &mut f);
        assert!(why.is_some_and(|w| w.starts_with("4 fields")));
        // A `;` file keeps spaces in values; a `;` in one shifts them.
        let r = rules("id;puzzle;note", &format!("1;{P};hello world"));
        assert_eq!(r.shifted(format!("2;{P};a b c").as_bytes(), &mut f), None);
        let why = r.shifted(format!("2;{P};a;b").as_bytes(), &mut f);
        assert!(why.is_some_and(|w| w.contains("';' separates")));
        // Without a header naming the fields, `fieldN` is what it counts.
        let mut r = LineRules::new(None);
        r.keep = Keep::All;
        let first = format!("1 {P} hi");
        assert_eq!(run(&mut r, &first), ok(P, None));
        r.settle_kept(first.as_bytes(), "s.txt").unwrap();
        assert_eq!(r.shifted(format!("2 {P} a b").as_bytes(), &mut f), None);
    }

    #[test]
    fn a_header_of_as_many_fields_names_them_for_keep() {
        let first = format!("forum,{P},142");
        // The rules after `header` (if any) and the first record, `keep`
        // settled on it; the kept columns' names.
        let settled = |keep: Keep, header: Option<&str>| {
            let mut r = LineRules::new(None);
            r.keep = keep;
            if let Some(header) = header {
                assert_eq!(run(&mut r, header), Line::Skip);
            }
            assert_eq!(run(&mut r, &first), ok(P, None));
            r.settle_kept(first.as_bytes(), "-").map(|()| {
                let names: Vec<String> = r.kept_columns.iter().map(|c| c.name.clone()).collect();
                (r.kept, names)
            })
        };
        let header = Some("source,question,rating");
        // A CSV's header read as text lines (stdin, a `.tsv` or `.txt`):
        // its names and the fields' numbers both name the columns.
        let columns = Keep::Columns(vec![
            Column::Name("Rating".into()),
            Column::Name("field1".into()),
            Column::Index(2),
        ]);
        let (kept, names) = settled(columns, header).unwrap();
        assert_eq!(kept, [2, 0, 1]);
        assert_eq!(names, ["rating", "source", "question"]);
        let (_, names) = settled(Keep::All, header).unwrap();
        assert_eq!(names, ["source", "question", "rating"]);
        // A header of another field count (a title) names nothing.
        let (_, names) = settled(Keep::All, Some("source,question")).unwrap();
        assert_eq!(names, ["field1", "field2", "field3"]);
        // A `#` line shaped like a header is one (a row-number column `#`,
        // as the same file read as CSV has it); a comment names nothing.
        let (_, names) = settled(Keep::All, Some("#,question,rating")).unwrap();
        assert_eq!(names, ["#", "question", "rating"]);
        let (_, names) = settled(Keep::All, Some("# from, the, forum")).unwrap();
        assert_eq!(names, ["field1", "field2", "field3"]);
        // Without a header, a name is no field's, and the message says
        // how fields are named and how to read the header instead.
        let rating = Keep::Columns(vec![Column::Name("rating".into())]);
        let e = settled(rating, None).unwrap_err().to_string();
        assert!(
            e.contains("no field named 'rating'")
                && e.contains("field1 to field3")
                && e.contains("--format csv"),
            "{e}"
        );
        // With one, a name it lacks is reported against its names.
        let score = Keep::Columns(vec![Column::Name("score".into())]);
        let e = settled(score, header).unwrap_err().to_string();
        assert!(e.contains("(the header is source,question,rating)"), "{e}");
    }

    #[test]
    fn the_first_record_chooses_the_rule_for_every_line() {
        // Forum lists: `,` separates; `;` is inside a field, empty fields
        // count, so field 9 is the same column on every row.
        let mut r = LineRules::new(None);
        r.keep = Keep::All;
        assert_eq!(run(&mut r, "a title; of the list"), Line::Skip);
        assert_eq!(r.rule, None);
        let first = format!("{P},Thread-00001;tarx0134,tarek,95532,97174,,,,4674,3311");
        assert_eq!(run(&mut r, &first), ok(P, None));
        assert_eq!(r.rule, Some(FieldRule::Delimiter(b',')));
        r.settle_kept(first.as_bytes(), "forum.txt").unwrap();
        assert_eq!(r.kept.len(), 10);
        let second = format!("{P};x,Thread-00002,bob,1,2,3,,,5,6");
        let mut f = Vec::new();
        let a = r.kept_values(first.as_bytes(), &mut f);
        let b = r.kept_values(second.as_bytes(), &mut f);
        assert_eq!(a[1], keep::text(b"Thread-00001;tarx0134"));
        assert_eq!((&a[5], &a[8]), (&keep::text(b""), &keep::text(b"4674")));
        assert_eq!(
            (&b[1], &b[8]),
            (&keep::text(b"Thread-00002"), &keep::text(b"5"))
        );
        // `;` is no separator in this file: the second row's first field
        // is not a puzzle, and says so.
        assert_eq!(
            r.record(second.as_bytes(), &mut f).0,
            Err("bad character ';' at position 82".to_string())
        );
        // Whitespace files: `,` is part of a field.
        let mut r = LineRules::new(None);
        let comment = format!("{P}  // kleinezeitung, 14.09.2020 - leicht");
        assert_eq!(run(&mut r, &comment), ok(P, None));
        assert_eq!(r.rule, Some(FieldRule::Whitespace));
        assert_eq!(run(&mut r, &format!("{P} a,b")), ok(P, None));
        let mut r = LineRules::new(Some(Column::Index(3)));
        assert_eq!(run(&mut r, &format!("1,,{P}")), ok(P, None));
        assert_eq!(run(&mut r, &format!("1,{P},")), bad("field 3 is empty"));
    }

    #[test]
    fn headers_only_before_the_first_record() {
        let mut r = LineRules::new(None);
        assert_eq!(run(&mut r, "95"), Line::Skip);
        assert_eq!(run(&mut r, "quizzes,solutions"), Line::Skip);
        assert_eq!(run(&mut r, "# comment"), Line::Skip);
        assert_eq!(run(&mut r, "   "), Line::Skip);
        assert_eq!(run(&mut r, &format!("{P},{S}")), ok(P, Some(S)));
        assert_eq!(
            run(&mut r, "puzzle"),
            bad("bad character 'p' at position 1")
        );
        assert_eq!(run(&mut r, "\x1A"), Line::Skip);
    }

    #[test]
    fn digits_line_before_first_puzzle_is_malformed() {
        let mut r = LineRules::new(None);
        assert_eq!(run(&mut r, &P[..80]), bad("80 cells, expected 81"));
        assert_eq!(run(&mut r, "title"), bad("bad character 't' at position 1"));
    }

    #[test]
    fn free_text_and_long_fields() {
        let mut r = LineRules::new(None);
        assert_eq!(
            run(&mut r, &format!("{P} // from a newspaper 12/3")),
            ok(P, None)
        );
        assert_eq!(
            run(&mut r, &format!("{P}abc")),
            bad("bad character 'a' at position 82")
        );
        let grouped: Vec<&str> = (0..27).map(|i| &P[i * 3..i * 3 + 3]).collect();
        assert_eq!(run(&mut r, &grouped.join(" ")), bad("3 cells, expected 81"));
    }

    #[test]
    fn puzzle_in_another_field() {
        // Each line the first of a file of its own: its separator is the
        // file's.
        let run = |line: &str| LineRules::new(None).line(line.as_bytes()).unwrap();
        assert_eq!(run(&format!("12 {P} 1.5")), ok(P, None));
        assert_eq!(run(&format!("12\t{P}\t{S}")), ok(P, Some(S)));
        assert_eq!(run(&format!("12;{P};;{S}")), ok(P, Some(S)));
        // Never solved from its solution.
        assert_eq!(
            run(&format!("{},{S}", &P[..76])),
            bad("76 cells, expected 81")
        );
        // Two candidates: ambiguous, the first field's message.
        assert_eq!(
            run(&format!("x {P} {P}")),
            bad("fields 2 and 3 both hold a puzzle; choose one with --column")
        );
        // The message names the field that looks like a puzzle.
        assert_eq!(
            run(&format!("7 {} 2.5", &P[..80])),
            bad("80 cells, expected 81")
        );
    }

    #[test]
    fn explicit_column() {
        let mut r = LineRules::new(Some(Column::Index(2)));
        assert_eq!(run(&mut r, "id puzzle"), Line::Skip);
        assert_eq!(run(&mut r, &format!("{S} {P} {S}")), ok(P, Some(S)));
        assert_eq!(run(&mut r, P), bad("no field 2 (the line has 1)"));
        let mut r = LineRules::new(Some(Column::Name("quizzes".into())));
        assert_eq!(run(&mut r, "id,QUIZZES"), Line::Skip);
        assert_eq!(run(&mut r, &format!("1,{P}")), ok(P, None));
        let mut r = LineRules::new(Some(Column::Name("nope".into())));
        assert_eq!(r.line(P.as_bytes()), Err("nope".to_string()));
    }

    #[test]
    fn a_record_of_any_size_is_never_a_header() {
        let sized = |r: &mut LineRules, line: &str| {
            let got = run(r, line);
            assert!(
                matches!(&got, Line::Record(Err(_), given) if *given == Given::default()),
                "{line}: {got:?}"
            );
            r.sized(line.as_bytes(), &mut Vec::new())
                .map(|(read, _)| read.map(|s| s.puzzle.side()))
        };
        let mut r = LineRules::new(None);
        assert_eq!(
            sized(&mut r, "D.......F.DB......EBA.F....A.CA....."),
            Some(Ok(6))
        );
        let mut r = LineRules::new(None);
        assert_eq!(
            sized(&mut r, "0,0,4,2,0,0,0,0,0,1,0,0,0,2,0,3"),
            Some(Ok(4))
        );
        let mut r = LineRules::new(None);
        assert_eq!(
            sized(&mut r, "0 0 4 2 0 0 0 0 0 1 0 0 0 2 0 3"),
            Some(Ok(4))
        );
        // A puzzle with a character no alphabet has is reported, not
        // skipped; so is a 9x9 written as values.
        let mut r = LineRules::new(None);
        assert!(matches!(
            sized(&mut r, &format!("x{}", &".".repeat(35))),
            Some(Err(_))
        ));
        // A 9x9 written as values is read by the field reader (which makes
        // it the 9x9 puzzle it writes), as a CSV field is.
        let mut r = LineRules::new(None);
        let values = P.as_bytes().iter().map(|b| char::from(*b).to_string());
        let values: Vec<String> = values.collect();
        assert_eq!(sized(&mut r, &values.join(",")), Some(Ok(9)));
        // Headers stay headers, unless every line is a record.
        let mut r = LineRules::new(None);
        assert_eq!(run(&mut r, "difficulty_range"), Line::Skip);
        assert_eq!(run(&mut r, "id, puzzle, solution, rating"), Line::Skip);
        r.headers = false;
        assert_eq!(
            run(&mut r, "quizzes"),
            bad("bad character 'q' at position 1")
        );
    }

    #[test]
    fn other_sizes_and_spreadsheet_numbers() {
        let mut r = LineRules::new(None);
        assert_eq!(
            run(&mut r, "4.30021E+78"),
            bad("looks like a spreadsheet number (4.30021E+78): leading zeros lost")
        );
        let mut r = LineRules::new(None);
        assert_eq!(
            run(&mut r, &"..A.".repeat(64)),
            bad("a 16x16 grid: only 9x9 is supported")
        );
        assert_eq!(
            run(&mut r, "3102200002100320"),
            bad("a 4x4 grid: only 9x9 is supported")
        );
    }
}
