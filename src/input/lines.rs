//! Plain text: one puzzle per line, its fields split by one rule per
//! file ([`FieldRule`]), chosen on the first record.

use sudoku_core::grid::{Grid, CELLS};

use super::choose::{PUZZLE_NAMES, SOLUTION_NAMES};
use super::field;
use super::frame::{too_long, MAX_RECORD};
use super::keep::{self, Keep};
use super::sized::{self, SizeOptions, SizedRecord};
use super::{Column, InputError, Record};
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

/// True for a line to skip whatever the layout: blank (only whitespace), a
/// `#` comment, or a lone DOS end-of-file byte. A `#` line that is a
/// spreadsheet's value ([`spreadsheet_value`]) is a value, not a comment.
pub fn is_skipped(line: &[u8]) -> bool {
    match line.iter().position(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(i) => {
            let rest = &line[i..];
            (rest[0] == b'#' && !spreadsheet_value(rest)) || rest == b"\x1A"
        }
    }
}

/// True for a `#` line (leading whitespace trimmed) that a spreadsheet or
/// a data tool wrote as a value, not a comment: the line, or its first
/// field up to a `,`, `;`, `|` or tab, is a placeholder of a missing
/// value (`#N/A`, `#NULL!`, pandas' `#NA`, `#N/A N/A`: [`field::missing`])
/// or a formula's error value (`#REF!`, `#DIV/0!`, `#NAME?`, any `#`, word
/// and `!` or `?` with no space: [`field::spreadsheet_error`]). A column
/// exported from a spreadsheet holds one where its value is missing or
/// failed, and a one-column file is then a line of it alone: skipping it
/// would drop its row (and shift every `--solutions` pairing after it). A
/// comment has words after a space (`# from magictour`), is `#` alone or
/// a rule of them, or is a word without a closing `!` or `?` (`#hardest`):
/// those stay comments.
pub fn spreadsheet_value(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    let first = line
        .split(|b| matches!(b, b',' | b';' | b'|' | b'\t'))
        .next()
        .unwrap_or_default()
        .trim_ascii();
    field::no_data(line) || field::no_data(first)
}

/// True for a text line to pass over: one [`is_skipped`] skips, unless it
/// is a `#` line that holds a record of a delimited file: cut by its
/// delimiter (`,`, `;`, `|` or a tab: the file's `rule`, or the line's own
/// before the first record), a field after the first holds a grid, and
/// the first, the one the `#` starts, is none (`#2,<puzzle>`: an id `#2`,
/// as a CSV read as text lines from stdin has it). A `#` line of one
/// field or of fields split on spaces, or whose `#` starts the grid
/// (`# <puzzle>`, `#<puzzle>,...`: a puzzle commented out), is a comment.
pub fn skipped(line: &[u8], rule: Option<FieldRule>, sizes: &SizeOptions) -> bool {
    if !is_skipped(line) {
        return false;
    }
    if !line.trim_ascii_start().starts_with(b"#") {
        return true;
    }
    let rule = rule.unwrap_or_else(|| FieldRule::of(line));
    if !matches!(rule, FieldRule::Delimiter(_)) {
        return true;
    }
    let mut fields = Vec::new();
    rule.split(line, &mut fields);
    let grid = |&(s, e): &(usize, usize)| {
        let f = &line[s..e];
        field::looks_like_puzzle(f) || field::near_puzzle(f) || sized::could_be_record(f, sizes)
    };
    match fields.split_first() {
        Some((first, rest)) => grid(first) || !rest.iter().any(grid),
        None => true,
    }
}

/// True for the fields of a `#` line, before a file's first record, that
/// are shaped like a header rather than a comment: two or more, the first
/// the `#` starts with no space in it (`#`, a spreadsheet's row-number
/// column; `#id`), or a later one naming a puzzle or solution column
/// (`# id,quizzes,solutions`). A comment's words follow its `#` after a
/// space (`# a, b`, `# exported, by hand`), and name no such column.
pub fn header_shaped<'a>(fields: impl IntoIterator<Item = &'a [u8]>) -> bool {
    let mut fields = fields.into_iter().map(|f| {
        let f = f.trim_ascii();
        f.strip_prefix(b"\"")
            .and_then(|f| f.strip_suffix(b"\""))
            .unwrap_or(f)
    });
    let Some(name) = fields.next().and_then(|f| f.strip_prefix(b"#")) else {
        return false;
    };
    let (mut count, mut names_grid) = (1, false);
    for field in fields {
        count += 1;
        names_grid |= PUZZLE_NAMES
            .iter()
            .chain(&SOLUTION_NAMES)
            .any(|n| field.eq_ignore_ascii_case(n.as_bytes()));
    }
    count >= 2 && (!name.iter().any(u8::is_ascii_whitespace) || names_grid)
}

/// Takes the mark `numpy.savetxt` writes before its header (its
/// `comments`, `# ` by default) off a header's first name: `# id,puzzle`
/// names the columns `id` and `puzzle`. A `#` with no space after it
/// (`#`, `#id`) is part of the name.
pub fn unmark_first_name(names: &mut [String]) {
    if let Some(first) = names.first_mut() {
        if let Some(name) = first.strip_prefix("# ") {
            *first = name.trim_ascii_start().to_owned();
        }
    }
}

/// True for a `#` line of text shaped like a header ([`header_shaped`]),
/// its fields cut by the first of `,`, `;`, `|` and tab in it:
/// `#,quizzes,solutions` or `#<TAB>quizzes<TAB>...` as a spreadsheet
/// writes a row-number column named `#`. Before the first record it is a
/// header line, not a comment, for text lines and for the look at a
/// stream's first lines that tells CSV from text.
pub fn hash_header(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    let Some(d) = line
        .iter()
        .copied()
        .find(|b| matches!(b, b',' | b';' | b'|' | b'\t'))
    else {
        return false;
    };
    line.starts_with(b"#") && header_shaped(line.split(|&b| b == d))
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
    /// This byte (`,`, `;`, `|` or a tab) separates, and every one counts:
    /// two in a row hold an empty field. Spaces and tabs around a field
    /// are trimmed.
    Delimiter(u8),
    /// Any of whitespace, `,`, `;` and `|` separates and runs collapse: the
    /// rule of a file whose first record is one field (there is no second
    /// field whose place could shift), and of header lines, judged before
    /// the first record.
    Any,
}

impl FieldRule {
    /// Tab-separated values: a tab separates, and a space is part of a
    /// field (`hello world`).
    pub const TAB: FieldRule = FieldRule::Delimiter(b'\t');

    /// The rule a line shows: the separator after its first field (leading
    /// and trailing whitespace aside) is the delimiter if that gap holds a
    /// `,`, `;` or `|` (the first of them), else a tab if it holds one
    /// (tab-separated values, whose values may hold spaces), else
    /// whitespace; a line of one field shows [`FieldRule::Any`].
    pub fn of(line: &[u8]) -> FieldRule {
        let line = line.trim_ascii();
        let Some(gap) = line.iter().position(|&b| is_separator(b)) else {
            return FieldRule::Any;
        };
        let gap = line[gap..].iter().take_while(|&&b| is_separator(b));
        let mut tab = false;
        for &b in gap {
            if !is_space(b) {
                return FieldRule::Delimiter(b);
            }
            tab |= b == b'\t';
        }
        if tab {
            FieldRule::TAB
        } else {
            FieldRule::Whitespace
        }
    }

    /// Splits `line` into field ranges by this rule.
    pub fn split(self, line: &[u8], fields: &mut Vec<(usize, usize)>) {
        match self {
            FieldRule::Whitespace => split_on(line, is_space, fields),
            FieldRule::Any => split(line, fields),
            FieldRule::Delimiter(d) => {
                fields.clear();
                let (mut start, end) = trimmed_but(line, 0, line.len(), Some(d));
                if start == end {
                    return;
                }
                while let Some(at) = memchr::memchr(d, &line[start..end]) {
                    fields.push(trimmed_but(line, start, start + at, Some(d)));
                    start += at + 1;
                }
                fields.push(trimmed_but(line, start, end, Some(d)));
            }
        }
    }
}

/// `start..end` of `line` without the whitespace at either end.
fn trimmed(line: &[u8], start: usize, end: usize) -> (usize, usize) {
    trimmed_but(line, start, end, None)
}

/// [`trimmed`], but for the delimiter `d`, which is never trimmed: a
/// tab-separated line's leading tab ends an empty first field.
fn trimmed_but(line: &[u8], mut start: usize, mut end: usize, d: Option<u8>) -> (usize, usize) {
    let space = |b: u8| Some(b) != d && is_space(b);
    while start < end && space(line[start]) {
        start += 1;
    }
    while end > start && space(line[end - 1]) {
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

/// The two halves of `line[start..end]` when it is an even count of
/// values separated by whitespace (or commas): a puzzle and its solution
/// each written as values separated by spaces (`4 . . 8 ... 4 1 3 8 ...`),
/// which no field rule tells apart, as two CSV fields are.
fn halves(line: &[u8], start: usize, end: usize) -> Option<(Span, Span)> {
    let mut values = Vec::new();
    split(&line[start..end], &mut values);
    let values: Vec<Span> = values
        .iter()
        .map(|&(s, e)| (start + s, start + e))
        .collect();
    if values.len() < 32 || !values.len().is_multiple_of(2) {
        return None;
    }
    let half = values.len() / 2;
    let first = (values[0].0, values[half - 1].1);
    let second = (values[half].0, values[values.len() - 1].1);
    Some((first, second))
}

/// True for a line that is a JSON string, list or object
/// (`"3.....1.......32"`, `[0, 6, 0, ...]`), as a line of JSON Lines is;
/// not a CSV record of quoted fields (`"0164...","a note"`).
fn is_json(line: &[u8]) -> bool {
    matches!(
        line.trim_ascii(),
        [b'"', .., b'"'] | [b'[', .., b']'] | [b'{', .., b'}']
    ) && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
}

/// True for a line that is a CSV record with a field in double quotes
/// beside a `,` or `;` (`"0164...","a note"`, `1,".,1,6,4,...",316...`),
/// and no JSON list or object.
pub fn quoted_csv(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    !matches!(line.first(), Some(b'[' | b'{'))
        && line
            .windows(2)
            .any(|w| matches!(w, [b',' | b';', b'"'] | [b'"', b',' | b';']))
}

/// Why a line of numbers is no grid, when their count is no grid's
/// ([`field::other_size_length`]): its first field split on whitespace
/// when that is a list of numbers separated by commas (a puzzle with its
/// solution after it), else the whole line.
fn wrong_count(line: &[u8], fields: &mut Vec<(usize, usize)>) -> Option<String> {
    split_on(line, is_space, fields);
    let first = fields.first().map(|&(s, e)| &line[s..e]);
    match first.filter(|f| f.contains(&b',')) {
        Some(first) => field::other_size_length(first),
        None => field::other_size_length(line.trim_ascii()),
    }
}

/// How sudoku-core's messages for a grid of symbols it cannot read end
/// ([`sudoku_core::sizes::SymbolsError`]).
const SYMBOLS_HINT: &str = " (give --symbols)";

/// A field's place in its line: `start..end`.
type Span = (usize, usize);

/// The solution a line gives after its puzzle: none, the grid, or why
/// what stands there is none (a record's `solution_error`).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Given {
    /// The given solution.
    pub solution: Option<Grid>,
    /// Why what stands where the solution would be is none (a boxed
    /// `str`, a `String` is larger: then every line's judgement was moved
    /// through `memcpy`, 1% of the instructions of a run of text lines).
    pub error: Option<Box<str>>,
}

impl Given {
    /// A solution grid.
    fn grid(solution: Grid) -> Given {
        Given {
            solution: Some(solution),
            error: None,
        }
    }

    /// What stands where the solution would be, that is none: why.
    fn not_a_solution(why: String) -> Given {
        Given {
            solution: None,
            error: Some(why.into_boxed_str()),
        }
    }
}

/// The given solution of a line whose 9x9 puzzle is its last field, `at`
/// of `fields`: a field before it that is a complete grid
/// (`<id> <solution> <puzzle>`), as a CSV's column of complete grids before
/// its puzzle column is its solution column.
fn earlier(line: &[u8], fields: &[Span], at: usize) -> Given {
    fields[..at]
        .iter()
        .find_map(|&(s, e)| field::solution(&line[s..e]))
        .map_or_else(Given::default, Given::grid)
}

/// The given solution of a line whose 9x9 puzzle is field `at` of
/// `fields`, by the rule of CSV fields ([`field::solution`]): a later
/// field that is a complete grid of 81 characters or 81 numbers; else the
/// rest of the line when it is 81 numbers (`<puzzle> 3 1 6 4 ...`,
/// `<puzzle>,3,1,6,4,...`: the field rule cut the list into one field per
/// number). A list of 16 or more integers where the solution would be that
/// is no complete grid is named, as a CSV's solution column is, rather
/// than passed over unchecked.
#[inline(never)]
fn given(line: &[u8], fields: &[Span], at: usize) -> Given {
    let later = fields.get(at + 1..).unwrap_or_default();
    if let Some(grid) = later
        .iter()
        .find_map(|&(s, e)| field::solution(&line[s..e]))
    {
        return Given::grid(grid);
    }
    let Some(&(next, next_end)) = later.first() else {
        return Given::default();
    };
    let rest = line[next..].trim_ascii();
    if let Some(grid) = field::complete_values(rest) {
        return Given::grid(grid);
    }
    let next_field = &line[next..next_end];
    let list = if next_field.contains(&b',') {
        next_field
    } else {
        rest
    };
    let values = || {
        list.split(|&b| b == b',' || b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
    };
    let integers = values().all(|t| {
        std::str::from_utf8(t)
            .ok()
            .is_some_and(|t| t.parse::<i64>().is_ok())
    });
    if !integers || values().count() < 16 {
        return Given::default();
    }
    // 81 one-digit values: named as the 81 characters they write (`it
    // has blanks`, the bad character's cell).
    let cells: Vec<u8> = values().filter_map(|t| t.first().copied()).collect();
    if values().all(|t| t.len() == 1) && cells.len() == CELLS {
        return Given::not_a_solution(field::not_a_solution(&cells));
    }
    Given::not_a_solution(field::not_a_solution(list))
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
    Record(Result<Grid, String>, Given),
}

/// What a line that is not blank or a comment holds, judged on its own.
enum Judged {
    /// A puzzle, and a given solution.
    Found(Grid, Given),
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
    /// Lines before the first record may be headers: false under
    /// `--format lines`, `--symbols` or `--box`, where every line is a
    /// record.
    pub(super) headers: bool,
    /// The last header line before the first record: when it has as many
    /// fields as that record (split by the file's rule), its fields name
    /// the columns for `--keep` (`field1`, ... still name them too).
    pub(super) header: Option<Vec<u8>>,
    /// The fields of [`LineRules::header`], when its names name the kept
    /// columns: a record with more is refused ([`LineRules::shifted`]).
    pub(super) header_fields: Option<usize>,
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
            headers: true,
            header: None,
            header_fields: None,
        }
    }

    /// Reads what the 9x9 readers refused in a text line's `record`: a
    /// grid of another size ([`LineRules::sized`]); and a line that stays
    /// `malformed` and is JSON (JSON Lines whose first line is no object,
    /// read as text lines under `auto`) gets the hint
    /// to read it as JSON Lines, one that is a CSV record with quoted
    /// fields ([`quoted_csv`], in a `.txt` file) the hint to read it as
    /// CSV.
    pub fn refused(&self, line: &[u8], fields: &mut Vec<(usize, usize)>, record: &mut Record) {
        if let Some(read) = self.sized(line, fields) {
            record.set_sized(read);
        }
        if let (Err(why), None) = (&mut record.puzzle, &record.sized) {
            let hint = if is_json(line) {
                " (the line is JSON: for JSON Lines, give --format jsonl)"
            } else if quoted_csv(line) {
                " (looks like CSV: give --format csv)"
            } else {
                return;
            };
            // The line is another format, so `--symbols` (the advice for a
            // grid of other symbols) is not what helps: the hint replaces it.
            if let Some(cut) = why.strip_suffix(SYMBOLS_HINT).map(str::len) {
                why.truncate(cut);
            }
            why.push_str(hint);
        }
    }

    /// The line's puzzle field read as a grid of another size than 9x9,
    /// when it is one by its shape ([`sized::looks_sized`]), with the next
    /// field as its given solution when that is one too; or why a line of
    /// numbers is none, when their count is wrong ([`wrong_count`]:
    /// the field rules split such a line into numbers, and the 9x9
    /// reading of its first says `1 cell`). `fields` is scratch space.
    /// Asked only of lines that hold no 9x9 puzzle.
    pub fn sized(
        &self,
        line: &[u8],
        fields: &mut Vec<(usize, usize)>,
    ) -> Option<(Result<SizedRecord, String>, Option<String>)> {
        let Some((at, solution)) = self.sized_field(line, fields) else {
            // A line too long keeps that message.
            let numbers = self.column.is_none() && line.len() <= MAX_RECORD;
            let why = numbers.then(|| wrong_count(line, fields));
            return why.flatten().map(|why| (Err(why), None));
        };
        let solution = solution.map(|(s, e)| &line[s..e]);
        Some(sized::read(&line[at.0..at.1], solution, &self.sizes))
    }

    /// Where the line's grid of another size is, and the next field's
    /// when it is one too: the puzzle field split by the file's delimiter,
    /// if it has one, else as for any line (on
    /// whitespace, `,`, `;` and `|`), else split on whitespace only (a
    /// field of numbers separated by commas), else the whole line (n*n
    /// values separated by commas or spaces). Without `--column`, when the
    /// first field is none, the only other field that is an incomplete
    /// grid is the puzzle, as for 9x9 ones (`<id> <puzzle> <rating>`, a
    /// CSV's `id,puzzle,solution,size` read as text lines); else, without
    /// `--column`, a line of 2 * n * n values is a puzzle and its solution
    /// ([`halves`]).
    fn sized_field(
        &self,
        line: &[u8],
        fields: &mut Vec<(usize, usize)>,
    ) -> Option<(Span, Option<Span>)> {
        let at = match &self.column {
            Some(Column::Index(n)) => n.checked_sub(1)?,
            Some(Column::Name(_)) => return None,
            None => 0,
        };
        let is_sized = |&(s, e): &(usize, usize)| sized::looks_sized(&line[s..e]);
        // A delimiter's fields first: a tab-separated line's puzzle may be
        // numbers separated by spaces or commas (`0 0 4 2 ...<TAB>note`).
        let delimited = matches!(self.rule, Some(FieldRule::Delimiter(_)));
        for pass in [
            Some(self.field_rule()).filter(|_| delimited),
            None,
            Some(FieldRule::Whitespace),
        ] {
            match pass {
                Some(rule) => rule.split(line, fields),
                None => split(line, fields),
            }
            let found = match fields.get(at) {
                Some(field) if is_sized(field) => Some(at),
                _ if self.column.is_none() => {
                    let mut others = (1..fields.len()).filter(|&i| {
                        let (s, e) = fields[i];
                        sized::is_puzzle(&line[s..e], &self.sizes)
                    });
                    match (others.next(), others.next()) {
                        (Some(one), None) => Some(one),
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some(i) = found {
                let grid = |f: &&(usize, usize)| sized::solution_like(&line[f.0..f.1]);
                let solution = fields.get(i + 1).filter(grid).copied();
                return Some((fields[i], solution));
            }
        }
        let (s, e) = trimmed(line, 0, line.len());
        if at != 0 {
            return None;
        }
        if is_sized(&(s, e)) {
            return Some(((s, e), None));
        }
        halves(line, s, e)
            .filter(|(puzzle, solution)| {
                is_sized(puzzle) && sized::solution_like(&line[solution.0..solution.1])
            })
            .map(|(puzzle, solution)| (puzzle, Some(solution)))
    }

    /// True when some part of the line could be a record of another size
    /// under the options ([`sized::could_be_record`]), or is one in all but
    /// its length ([`sized::damaged_grid`]): then it is never a header,
    /// however damaged, but a `malformed` record.
    fn sized_like(&self, line: &[u8]) -> bool {
        let could = |f: &[u8]| sized::could_be_record(f, &self.sizes) || sized::damaged_grid(f);
        let mut fields = Vec::new();
        split(line, &mut fields);
        if fields.iter().any(|&(s, e)| could(&line[s..e])) {
            return true;
        }
        split_on(line, is_space, &mut fields);
        fields.iter().any(|&(s, e)| could(&line[s..e])) || could(line.trim_ascii())
    }

    /// True for a line that is a puzzle in quotes (`"3.....1.......32"`, a
    /// JSON string read as a text line): a record, never a header.
    fn quoted_puzzle(&self, line: &[u8]) -> bool {
        match line.trim_ascii() {
            [b'"', inner @ .., b'"'] => {
                field::looks_like_puzzle(inner)
                    || field::near_puzzle(inner)
                    || self.sized_like(inner)
            }
            _ => false,
        }
    }

    /// The message of a line over [`MAX_RECORD`] bytes that is no one-line
    /// grid of another size (only those may be longer, up to
    /// [`super::MAX_SIZED_LINE`]).
    fn too_long_line(&self, line: &[u8], fields: &mut Vec<(usize, usize)>) -> Option<String> {
        (line.len() > MAX_RECORD && self.sized_field(line, fields).is_none())
            .then(|| too_long(MAX_RECORD))
    }

    /// Resolves `--keep` on the first record's fields: by the names of a
    /// header line of as many fields before it (a `.txt` or `.tsv` file, or
    /// stdin, with a CSV's header), and by `field1`, `field2`, ... (the
    /// only names without such a header).
    pub(super) fn settle_kept(&mut self, line: &[u8], name: &str) -> Result<(), InputError> {
        if self.keep.is_nothing() || !self.kept_columns.is_empty() {
            return Ok(());
        }
        let mut fields = Vec::new();
        self.field_rule().split(line, &mut fields);
        let numbered = keep::field_names(fields.len(), &self.keep);
        let names = match self.header_names(fields.len()) {
            Some(mut names) => {
                self.header_fields = Some(names.len());
                names.extend(numbered[names.len()..].iter().cloned());
                names
            }
            None => numbered.clone(),
        };
        let header = names != numbered;
        self.kept = self
            .keep
            .resolve_or_numbered(&names, &numbered, name)
            .map_err(|e| match e {
                InputError::UnknownColumn { path, column, .. }
                    if !header && column.parse::<usize>().is_err() =>
                {
                    InputError::UnnamedFields {
                        path,
                        column,
                        count: fields.len(),
                    }
                }
                e => e,
            })?;
        self.kept_columns = keep::text_columns(&names, &self.kept);
        Ok(())
    }

    /// The fields of [`LineRules::header`], split by the file's rule, when
    /// they are `count` and none is empty.
    fn header_names(&self, count: usize) -> Option<Vec<String>> {
        let header = self.header.as_deref()?;
        let mut fields = Vec::new();
        self.field_rule().split(header, &mut fields);
        let mut names: Vec<String> = fields
            .iter()
            .map(|&(s, e)| String::from_utf8_lossy(&header[s..e]).into_owned())
            .collect();
        unmark_first_name(&mut names);
        (names.len() == count && names.iter().all(|n| !n.is_empty())).then_some(names)
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

    /// Why a line's kept values cannot be told apart, when a header named
    /// them and the line has more fields than it: a value held the
    /// separator (a space in a file split on whitespace, a `,` in a
    /// `,`-separated one) and was cut, or a field was added, and every
    /// field after it is shifted. Such a record is `malformed`, as a CSV
    /// record of more fields than its header is, rather than keep a cut
    /// value silently. `fields` is scratch space.
    pub fn shifted(&self, line: &[u8], fields: &mut Vec<(usize, usize)>) -> Option<String> {
        let header = self.header_fields?;
        self.field_rule().split(line, fields);
        if fields.len() <= header {
            return None;
        }
        let separator = match self.field_rule() {
            FieldRule::Delimiter(b'\t') => "a tab".to_string(),
            FieldRule::Delimiter(d) => format!("'{}'", char::from(d)),
            FieldRule::Whitespace => "a space or tab".to_string(),
            FieldRule::Any => "a space, tab, ',', ';' or '|'".to_string(),
        };
        Some(format!(
            "{} fields, but the header has {header}: {separator} separates this file's \
             fields, so a value holding one is cut and the kept values would be shifted",
            fields.len()
        ))
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

    /// True for a line to pass over: blank, or a comment ([`skipped`]: a
    /// `#` line that holds no record of the file).
    pub fn skips(&self, line: &[u8]) -> bool {
        skipped(line, self.rule, &self.sizes)
    }

    /// Judges one line (without its terminator). `Err` holds the name of a
    /// `--column NAME` no header line had, when the first record comes.
    pub fn line(&mut self, line: &[u8]) -> Result<Line, String> {
        let header_possible =
            !self.seen_record && (self.headers || matches!(self.column, Some(Column::Name(_))));
        // A `#` line shaped like a header (`#,quizzes,solutions`) is a
        // header line when it is judged one, as the same file read as CSV
        // reads it; else a comment still.
        let comment = self.skips(line);
        if comment && !(header_possible && line.len() <= MAX_RECORD && hash_header(line)) {
            return Ok(Line::Skip);
        }
        let mut fields = std::mem::take(&mut self.fields);
        if let Some(why) = self.too_long_line(line, &mut fields) {
            self.fields = fields;
            self.seen_record = true;
            return Ok(Line::Record(Err(why), Given::default()));
        }
        // Before the first record, each line is split by the rule it shows;
        // the first record's rule is the file's.
        let rule = self.rule.unwrap_or_else(|| FieldRule::of(line));
        let judged = self.judge(line, rule, &mut fields, header_possible);
        if comment && !matches!(judged, Judged::Text) {
            self.fields = fields;
            return Ok(Line::Skip);
        }
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
                if !self.keep.is_nothing() {
                    self.header = Some(line.to_vec());
                }
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
                Ok(Line::Record(Err(message), Given::default()))
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
    ) -> (Result<Grid, String>, Given) {
        if let Some(why) = self.too_long_line(line, fields) {
            return (Err(why), Given::default());
        }
        match self.judge(line, self.field_rule(), fields, false) {
            Judged::Found(grid, solution) => (Ok(grid), solution),
            Judged::Bad(message) => (Err(message), Given::default()),
            Judged::Text => (Err(field::error(line.trim_ascii())), Given::default()),
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
                if self.column.is_none() && fields.len() > 1 && grid.is_complete() {
                    // `<solution> <puzzle>`: a complete grid first and
                    // exactly one other field an incomplete puzzle, which
                    // is the puzzle, the grid its given solution, as a
                    // CSV's column of puzzles is chosen before one of
                    // complete grids.
                    let mut others = (1..fields.len())
                        .filter_map(|i| Some(i).zip(get(i).and_then(field::puzzle)))
                        .filter(|(_, g)| !g.is_complete());
                    if let (Some((_, puzzle)), None) = (others.next(), others.next()) {
                        return Judged::Found(puzzle, Given::grid(grid));
                    }
                }
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
            // Most lines are the puzzle alone.
            let solution = if at + 1 < fields.len() {
                given(line, fields, at)
            } else if at > 0 {
                earlier(line, fields, at)
            } else {
                Given::default()
            };
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
            && !self.sized_like(line)
            && !self.quoted_puzzle(line)
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
