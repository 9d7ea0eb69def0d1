//! Plain text: one puzzle per line, its fields split by one rule per
//! file ([`FieldRule`]), chosen on the first record.

use sudoku_core::grid::Grid;

use super::field;
use super::keep::{self, Keep};
use super::sized::{self, SizeOptions, SizedRecord};
use super::{Column, InputError};
use crate::kept::{KeptColumn, KeptValue};

/// True for a byte that separates fields on some text line: whitespace,
/// `,`, `;` or `|`.
#[inline]
fn is_separator(b: u8) -> bool {
    is_space(b) || matches!(b, b',' | b';' | b'|')
}

/// True for the whitespace bytes of a text line (space, tab, CR, VT, FF).
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0B | 0x0C)
}

/// The message of a record over the length cap, `cap` bytes
/// ([`super::MAX_RECORD`] for text lines).
pub fn too_long(cap: usize) -> String {
    format!("line too long (over {cap} bytes)")
}

/// True for a line to skip whatever the layout: blank (only whitespace), a
/// `#` comment, or a lone DOS end-of-file byte.
pub fn is_skipped(line: &[u8]) -> bool {
    match line.iter().position(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(i) => line[i] == b'#' || &line[i..] == b"\x1A",
    }
}

/// How the fields of a file's text lines are split: one rule for every
/// line of the file, so that field N (`--column N`, `--keep fieldN`) is
/// the same column on every row. It is chosen on the file's first record
/// (the first line that is not blank, a comment or a header) by
/// [`FieldRule::of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldRule {
    /// Runs of spaces and tabs separate; leading and trailing ones are
    /// ignored. `,`, `;` and `|` are part of a field.
    Whitespace,
    /// This byte (`,`, `;` or `|`) separates, and every one counts: two in
    /// a row hold an empty field. Spaces and tabs around a field are
    /// trimmed.
    Delimiter(u8),
    /// Any of whitespace, `,`, `;` and `|` separates and runs collapse: the
    /// rule of a file whose first record is one field (there is no second
    /// field whose place could shift), and of header lines, judged before
    /// the first record.
    Any,
}

impl FieldRule {
    /// The rule a line shows: the separator after its first field (leading
    /// and trailing whitespace aside) is the delimiter if that gap holds a
    /// `,`, `;` or `|` (the first of them), else whitespace; a line of one
    /// field shows [`FieldRule::Any`].
    pub fn of(line: &[u8]) -> FieldRule {
        let line = line.trim_ascii();
        let Some(gap) = line.iter().position(|&b| is_separator(b)) else {
            return FieldRule::Any;
        };
        line[gap..]
            .iter()
            .take_while(|&&b| is_separator(b))
            .find(|&&b| !is_space(b))
            .map_or(FieldRule::Whitespace, |&b| FieldRule::Delimiter(b))
    }

    /// Splits `line` into field ranges by this rule.
    pub fn split(self, line: &[u8], fields: &mut Vec<(usize, usize)>) {
        match self {
            FieldRule::Whitespace => split_on(line, is_space, fields),
            FieldRule::Any => split(line, fields),
            FieldRule::Delimiter(d) => {
                fields.clear();
                let (mut start, end) = trimmed(line, 0, line.len());
                if start == end {
                    return;
                }
                while let Some(at) = memchr::memchr(d, &line[start..end]) {
                    fields.push(trimmed(line, start, start + at));
                    start += at + 1;
                }
                fields.push(trimmed(line, start, end));
            }
        }
    }
}

/// `start..end` of `line` without the whitespace at either end.
fn trimmed(line: &[u8], mut start: usize, mut end: usize) -> (usize, usize) {
    while start < end && is_space(line[start]) {
        start += 1;
    }
    while end > start && is_space(line[end - 1]) {
        end -= 1;
    }
    (start, end)
}

/// Splits `line` into field ranges on any separator ([`FieldRule::Any`]:
/// runs of separators between fields collapse; leading and trailing
/// separators are ignored).
pub fn split(line: &[u8], fields: &mut Vec<(usize, usize)>) {
    split_on(line, is_separator, fields)
}

/// Splits `line` into the runs of bytes between runs of `sep` bytes.
fn split_on(line: &[u8], sep: fn(u8) -> bool, fields: &mut Vec<(usize, usize)>) {
    fields.clear();
    let mut i = 0;
    let n = line.len();
    while i < n {
        while i < n && sep(line[i]) {
            i += 1;
        }
        if i == n {
            break;
        }
        let start = i;
        while i < n && !sep(line[i]) {
            i += 1;
        }
        fields.push((start, i));
    }
}

/// What one line holds.
// Returned and matched at once, never kept: boxing the record to shrink
// `Skip` would cost an allocation per line instead.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// Nothing to report: blank, comment or header.
    Skip,
    /// A record: the puzzle or why there is none, and a given solution.
    Record(Result<Grid, String>, Option<Grid>),
}

/// What a line that is not blank or a comment holds, judged on its own.
enum Judged {
    /// A puzzle, and a given solution.
    Found(Grid, Option<Grid>),
    /// Text with nothing like a puzzle: a header, if before the first
    /// record.
    Text,
    /// Not a puzzle: why.
    Bad(String),
}

/// The rules that turn text lines into records; keeps the state that spans
/// lines (has a record been seen yet, which column). Once a record was
/// seen, every line is judged on its own ([`LineRules::record`]), on any
/// thread.
#[derive(Clone, Debug)]
pub struct LineRules {
    pub(super) column: Option<Column>,
    pub(super) seen_record: bool,
    pub(super) fields: Vec<(usize, usize)>,
    /// How fields are split, once the first record chose it.
    pub(super) rule: Option<FieldRule>,
    /// The `--keep` asked for.
    pub(super) keep: Keep,
    /// The kept fields (0-based) and their columns, once the first record
    /// named them (`field1`, `field2`, ...).
    pub(super) kept: Vec<usize>,
    pub(super) kept_columns: Vec<KeptColumn>,
    /// How records of other sizes are read.
    pub(super) sizes: SizeOptions,
}

impl LineRules {
    /// Rules for the given `--column`, if any.
    pub fn new(column: Option<Column>) -> LineRules {
        LineRules {
            column,
            seen_record: false,
            fields: Vec::with_capacity(16),
            rule: None,
            keep: Keep::Nothing,
            kept: Vec::new(),
            kept_columns: Vec::new(),
            sizes: SizeOptions::default(),
        }
    }

    /// The line's puzzle field read as a grid of another size than 9x9,
    /// when it is one by its shape ([`sized::looks_sized`]), with the next
    /// field as its given solution when that is one too; `fields` is
    /// scratch space. Asked only of lines that hold no 9x9 puzzle.
    pub fn sized(
        &self,
        line: &[u8],
        fields: &mut Vec<(usize, usize)>,
    ) -> Option<(Result<SizedRecord, String>, Option<String>)> {
        split(line, fields);
        let at = match &self.column {
            Some(Column::Index(n)) => n.checked_sub(1)?,
            Some(Column::Name(_)) => return None,
            None => 0,
        };
        let get = |i: usize| fields.get(i).map(|&(s, e)| &line[s..e]);
        let field = get(at).filter(|f| sized::looks_sized(f))?;
        let solution = get(at + 1).filter(|f| sized::looks_sized(f));
        Some(sized::read(field, solution, &self.sizes))
    }

    /// Resolves `--keep` on the first record's fields (`field1`, ...).
    pub(super) fn settle_kept(&mut self, line: &[u8], name: &str) -> Result<(), InputError> {
        if self.keep.is_nothing() || !self.kept_columns.is_empty() {
            return Ok(());
        }
        let mut fields = Vec::new();
        self.field_rule().split(line, &mut fields);
        let names = keep::field_names(fields.len(), &self.keep);
        self.kept = self.keep.resolve(&names, name)?;
        self.kept_columns = keep::text_columns(&names, &self.kept);
        Ok(())
    }

    /// The kept fields of a line (null where the line has fewer fields);
    /// `fields` is scratch space.
    pub fn kept_values(&self, line: &[u8], fields: &mut Vec<(usize, usize)>) -> Vec<KeptValue> {
        if self.kept.is_empty() {
            return Vec::new();
        }
        self.field_rule().split(line, fields);
        self.kept
            .iter()
            .map(|&i| {
                fields
                    .get(i)
                    .map_or(KeptValue::Null, |&(s, e)| keep::text(&line[s..e]))
            })
            .collect()
    }

    /// The file's rule for fields; [`FieldRule::Any`] before the first
    /// record.
    pub fn field_rule(&self) -> FieldRule {
        self.rule.unwrap_or(FieldRule::Any)
    }

    /// True once a record was seen: later lines are never headers, so each
    /// can be judged on its own with [`LineRules::record`].
    pub fn settled(&self) -> bool {
        self.seen_record && !matches!(self.column, Some(Column::Name(_)))
    }

    /// Judges one line (without its terminator). `Err` holds the name of a
    /// `--column NAME` no header line had, when the first record comes.
    pub fn line(&mut self, line: &[u8]) -> Result<Line, String> {
        if is_skipped(line) {
            return Ok(Line::Skip);
        }
        let mut fields = std::mem::take(&mut self.fields);
        // Before the first record, each line is split by the rule it shows;
        // the first record's rule is the file's.
        let rule = self.rule.unwrap_or_else(|| FieldRule::of(line));
        let judged = self.judge(line, rule, &mut fields, !self.seen_record);
        if !matches!(judged, Judged::Text) && self.rule.is_none() {
            self.rule = Some(rule);
        }
        let outcome = match judged {
            Judged::Found(grid, solution) => {
                self.seen_record = true;
                Ok(Line::Record(Ok(grid), solution))
            }
            Judged::Text => {
                // A header: a title, a count, column names.
                if let Some(Column::Name(name)) = &self.column {
                    if let Some(i) = fields
                        .iter()
                        .position(|&(s, e)| line[s..e].eq_ignore_ascii_case(name.as_bytes()))
                    {
                        self.column = Some(Column::Index(i + 1));
                    }
                }
                Ok(Line::Skip)
            }
            Judged::Bad(_) if matches!(self.column, Some(Column::Name(_))) => {
                let Some(Column::Name(name)) = &self.column else {
                    unreachable!("matched above")
                };
                Err(name.clone())
            }
            Judged::Bad(message) => {
                self.seen_record = true;
                Ok(Line::Record(Err(message), None))
            }
        };
        self.fields = fields;
        outcome
    }

    /// Judges a line that is not blank or a comment, once the rules are
    /// [`settled`](LineRules::settled): the puzzle (or why there is none)
    /// and a given solution. `fields` is scratch space.
    pub fn record(
        &self,
        line: &[u8],
        fields: &mut Vec<(usize, usize)>,
    ) -> (Result<Grid, String>, Option<Grid>) {
        match self.judge(line, self.field_rule(), fields, false) {
            Judged::Found(grid, solution) => (Ok(grid), solution),
            Judged::Bad(message) => (Err(message), None),
            Judged::Text => (Err(field::error(line.trim_ascii())), None),
        }
    }

    /// Judges a line on its own, its fields split by `rule`;
    /// [`Judged::Text`] only when `header_possible`.
    fn judge(
        &self,
        line: &[u8],
        rule: FieldRule,
        fields: &mut Vec<(usize, usize)>,
        header_possible: bool,
    ) -> Judged {
        rule.split(line, fields);
        let fields = &*fields;
        let get = |i: usize| fields.get(i).map(|&(s, e)| &line[s..e]);
        let chosen = match &self.column {
            Some(Column::Index(n)) => Some(n.saturating_sub(1)),
            Some(Column::Name(_)) => None,
            None => Some(0),
        };
        let mut found = None;
        let mut ambiguous = None;
        if let Some(c) = chosen {
            if let Some(grid) = get(c).and_then(field::puzzle) {
                found = Some((c, grid));
            } else if self.column.is_none() {
                // `<id> <puzzle> <rating>`: exactly one other field is an
                // incomplete 81-cell puzzle.
                let mut others = (1..fields.len())
                    .filter_map(|i| Some(i).zip(get(i).and_then(field::puzzle)))
                    .filter(|(_, g)| !g.is_complete());
                match (others.next(), others.next()) {
                    (Some(one), None) => found = Some(one),
                    (Some((a, _)), Some((b, _))) => ambiguous = Some((a, b)),
                    _ => {}
                }
            }
        }
        if let Some((at, grid)) = found {
            let solution = (at + 1..fields.len()).find_map(|i| get(i).and_then(field::complete));
            return Judged::Found(grid, solution);
        }
        let evidence = (0..fields.len()).find(|&i| get(i).is_some_and(field::looks_like_puzzle));
        // A puzzle the field rules miss: 81 characters (or bytes) with
        // characters the parser refuses, or digits among a foreign blank.
        let near = || {
            (0..fields.len()).any(|i| get(i).is_some_and(field::near_puzzle))
                || field::near_puzzle(line.trim_ascii())
        };
        // A puzzle grouped into short fields (`016 400 000 ...`) counts too.
        let grouped = || {
            let cells = fields.iter().map(|&(s, e)| &line[s..e]);
            let cells = cells.filter(|f| f.iter().all(|&b| field::is_cell(b)));
            let (len, digit) = cells.fold((0, false), |(n, d), f| {
                (n + f.len(), d || f.iter().any(u8::is_ascii_digit))
            });
            len >= 17 && digit
        };
        if header_possible
            && evidence.is_none()
            && ambiguous.is_none()
            && field::is_text(line)
            && !grouped()
            && !near()
        {
            return Judged::Text;
        }
        let at = match chosen {
            Some(c) if self.column.is_some() => c,
            _ if get(0).is_some_and(field::looks_like_puzzle) => 0,
            _ => evidence.unwrap_or(0),
        };
        let message = match (ambiguous, get(at)) {
            (Some((a, b)), _) if at != 0 || !get(0).is_some_and(field::looks_like_puzzle) => {
                format!(
                    "fields {} and {} both hold a puzzle; choose one with --column",
                    a + 1,
                    b + 1
                )
            }
            (_, Some([])) => format!("field {} is empty", at + 1),
            (_, Some(f)) => field::error(f),
            (_, None) => format!("no field {} (the line has {})", at + 1, fields.len()),
        };
        Judged::Bad(message)
    }

    /// Marks that a record was seen (a line too long), so later non-puzzle
    /// lines are no longer headers.
    pub fn saw_record(&mut self) {
        self.seen_record = true;
    }
}
