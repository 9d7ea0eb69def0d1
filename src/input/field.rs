//! Judging one field: is it a puzzle, does it look like one, and if not,
//! why not.

use sudoku_core::grid::{Grid, ParseError, BLANKS, CELLS};
use sudoku_core::sizes::symbols::excerpt_of;
use sudoku_core::solver::Status;

/// True for a digit or one of the blank characters `.0_-`.
#[inline]
pub fn is_cell(b: u8) -> bool {
    b.is_ascii_digit() || BLANKS.contains(&b)
}

/// The field as a 9x9 puzzle, when it is one.
#[inline]
pub fn puzzle(field: &[u8]) -> Option<Grid> {
    <&[u8; CELLS]>::try_from(field)
        .ok()
        .and_then(Grid::from_line)
}

/// The field as a complete 9x9 grid (a solution), when it is one.
#[inline]
pub fn complete(field: &[u8]) -> Option<Grid> {
    <&[u8; CELLS]>::try_from(field)
        .ok()
        .and_then(Grid::complete_from_line)
}

/// The field as a 9x9 grid written as 81 one-character values separated
/// by commas or whitespace (`4,8,3,9,...`, `4 . . 8 ...`): its 81 cells, for
/// [`Grid`]'s readers.
fn values(field: &[u8]) -> Option<[u8; CELLS]> {
    let mut cells = [0u8; CELLS];
    let mut n = 0;
    for token in field
        .split(|&b| b == b',' || b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
    {
        let [b] = token else { return None };
        *cells.get_mut(n)? = *b;
        n += 1;
    }
    (n == CELLS).then_some(cells)
}

/// The field as a complete 9x9 grid written as 81 numbers `1`-`9`
/// separated by commas or whitespace (`4,8,3,9,...`), the solution of a
/// puzzle written either way; asked only of a field [`complete`] refuses.
pub fn complete_values(field: &[u8]) -> Option<Grid> {
    values(field).and_then(|cells| Grid::complete_from_line(&cells))
}

/// A field after the puzzle as its given solution, when it is a complete
/// 9x9 grid written either way: 81 characters ([`complete`]) or 81
/// numbers `1`-`9` separated by commas or whitespace
/// ([`complete_values`]). The one rule of text lines, of CSV records
/// (a solution column or a later field), of JSON strings and of
/// `--solutions`; [`solution_error`] says why a field is none.
#[inline]
pub fn solution(field: &[u8]) -> Option<Grid> {
    complete(field).or_else(|| complete_values(field))
}

/// Values data tools write for a missing value, compared without case:
/// R's `NA`, pandas' `nan`, `None` and `<NA>`, SQL's `NULL`, a
/// spreadsheet's `#N/A` and `#NULL!`, the `?`, `-` and `x` of hand-made
/// tables, and the rest of pandas' default NA strings (`#NA`, `#N/A N/A`,
/// `-nan`, and C runtimes' `1.#IND`, `-1.#QNAN`...).
const MISSING: [&str; 21] = [
    "na", "n/a", "#n/a", "nan", "none", "null", "nil", "<na>", "nat", "?", "-", "--", "x",
    "#null!", "#na", "#n/a n/a", "-nan", "1.#ind", "-1.#ind", "1.#qnan", "-1.#qnan",
];

/// The longest value in [`MISSING`]: a longer field is none.
const MISSING_LEN: usize = 8;

/// True for a field that marks a missing value ([`MISSING`]): no puzzle
/// and no solution, as an empty field is none. Choosing the puzzle
/// column counts it as empty, and a row holding it as its puzzle is
/// `malformed` saying so ([`error`]).
pub fn missing(field: &[u8]) -> bool {
    field.len() <= MISSING_LEN
        && MISSING
            .iter()
            .any(|m| field.eq_ignore_ascii_case(m.as_bytes()))
}

/// True for the error value a spreadsheet exports in a cell whose formula
/// failed (which no data tool reads as missing): Excel's `#DIV/0!`,
/// `#VALUE!`, `#REF!`, `#NAME?`, `#NUM!`, `#SPILL!`, `#CALC!`, `#FIELD!`,
/// `#BLOCKED!`, `#CONNECT!`, `#BUSY!`, `#UNKNOWN!` and `#GETTING_DATA`,
/// Google Sheets' `#ERROR!`, and any other of their shape, compared without case: `#`, a letter, letters, digits, `/` or
/// `_`, and a closing `!` or `?`, 16 bytes at most. (`#N/A` and `#NULL!`
/// are [`missing`] values.) Such a field is no puzzle and no solution, and
/// a row holding it is `malformed` saying so ([`error`]); a line that is
/// only one is a value, never a `#` comment
/// ([`super::lines::is_skipped`]).
pub fn spreadsheet_error(field: &[u8]) -> bool {
    if field.eq_ignore_ascii_case(b"#getting_data") {
        return true;
    }
    let Some([b'#', first, middle @ .., b'!' | b'?']) = (field.len() <= 16).then_some(field) else {
        return false;
    };
    first.is_ascii_alphabetic()
        && middle
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'_'))
}

/// True for a field that holds a spreadsheet's or a data tool's value for
/// no data: a placeholder of a missing value ([`missing`]) or a formula's
/// error ([`spreadsheet_error`]). Choosing the puzzle column counts it as
/// empty.
pub fn no_data(field: &[u8]) -> bool {
    missing(field) || spreadsheet_error(field)
}

/// What an expected-status field (a `status` column or key) says: the
/// status it names, as [`Status`]'s `FromStr` reads it (any case, spaces
/// around it); nothing expected when it is empty or a placeholder of a
/// missing value ([`missing`]); else why it is neither ([`not_a_status`]:
/// `unique`, `ok`, a typo), for the row's check to say, never taken as
/// nothing expected. The names are ASCII, so they are matched on the
/// bytes, without the UTF-8 check and copy of a `str` first (on Parquet
/// results read back, where every row has one, that was a tenth of the
/// reading).
pub fn status(field: &[u8]) -> Result<Option<Status>, String> {
    // A name as results write it, matched exactly first: nearly every
    // field is one (a results file read back), and a slice comparison
    // is a third of the case-blind search's instructions.
    if let Some(status) = Status::ALL
        .into_iter()
        .find(|status| status.name().as_bytes() == field)
    {
        return Ok(Some(status));
    }
    let name = field.trim_ascii();
    if name.is_empty() || missing(name) {
        return Ok(None);
    }
    Status::ALL
        .into_iter()
        .find(|status| status.name().as_bytes().eq_ignore_ascii_case(name))
        .or_else(|| std::str::from_utf8(field).ok()?.parse().ok())
        .map(Some)
        .ok_or_else(|| unknown_status(field))
}

/// [`not_a_status`] of a value written as `value` (a field, a JSON value
/// as written): its first characters, quoted.
pub fn unknown_status(value: &[u8]) -> String {
    not_a_status(&format!("'{}'", excerpt_of(value, STATUS_EXCERPT)))
}

/// Characters of a status field shown in a message, at most: a row's
/// message stays one readable line whatever the field holds.
const STATUS_EXCERPT: usize = 40;

/// Why an expected status (`what`: the value as a message shows it,
/// `'unique'`, `1`, `a float (0.5)`) is none: it names no status, so the
/// row's check is `mismatch`.
pub fn not_a_status(what: &str) -> String {
    format!(
        "expected status {what} is no status name: expected solved, multiple, unsolvable, \
         invalid, malformed or timeout, or empty for none"
    )
}

/// The side of a one-line grid of another size (4, 16 or 25): 16 cells of
/// `1`-`4` or blanks, or 256 or 625 letters, digits or blanks.
pub fn other_size(field: &[u8]) -> Option<usize> {
    let (side, ok): (usize, fn(&u8) -> bool) = match field.len() {
        16 => (4, |&b| (b'1'..=b'4').contains(&b) || BLANKS.contains(&b)),
        256 => (16, |&b| b.is_ascii_alphanumeric() || BLANKS.contains(&b)),
        625 => (25, |&b| b.is_ascii_alphanumeric() || BLANKS.contains(&b)),
        _ => return None,
    };
    field.iter().all(ok).then_some(side)
}

/// True for a field a spreadsheet made of a long number: digits, optionally
/// a dot and more digits, then `E` or `e`, an optional sign and digits (as
/// `4.30021E+78`).
pub fn spreadsheet_number(field: &[u8]) -> bool {
    if field.len() > 32 {
        return false;
    }
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = digits(field);
    if i == 0 {
        return false;
    }
    if field.get(i) == Some(&b'.') {
        i += 1;
        i += digits(&field[i..]);
    }
    if !matches!(field.get(i), Some(b'E' | b'e')) {
        return false;
    }
    i += 1;
    if matches!(field.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let exp = digits(&field[i..]);
    exp > 0 && i + exp == field.len()
}

/// True when the field looks like an attempt at a puzzle: a puzzle, a
/// one-line grid of another size, a spreadsheet number, or a run of 17 or
/// more digits and blanks (with a digit in it, or 81 long), such as a puzzle
/// with a typo or a missing cell. A line or CSV record with no such field
/// may be a header.
pub fn looks_like_puzzle(field: &[u8]) -> bool {
    let mut run = 0;
    let mut digit = false;
    for &b in field {
        if is_cell(b) {
            run += 1;
            digit |= b.is_ascii_digit();
            if run >= CELLS || (run >= 17 && digit) {
                return true;
            }
        } else {
            run = 0;
            digit = false;
        }
    }
    other_size(field).is_some() || spreadsheet_number(field)
}

/// True when a list of `len` values (the first a list of `first_len`
/// values, if it is a list) looks like a grid: 81 values or 9 (lists), as
/// 9x9 grids are written; n*n values (not lists) for a side n from 4 to
/// 64 (16 for 4x4, 256 for 16x16, ...); or n lists of n values.
pub fn looks_like_grid_list(len: usize, first_len: Option<usize>) -> bool {
    use sudoku_core::sizes::side_of;
    len == CELLS
        || len == 9
        || match first_len {
            Some(inner) => inner == len && side_of(len * len).is_some(),
            None => side_of(len).is_some(),
        }
}

/// True for a field (or line) that is a puzzle in all but its characters,
/// though [`looks_like_puzzle`] misses it: exactly 81 characters (UTF-8
/// characters, or bytes), such as a puzzle with `€` blanks; or 17 or more
/// digits where every other character is one and the same foreign blank
/// (`4**3*...`). Such a field is never a header.
pub fn near_puzzle(field: &[u8]) -> bool {
    if field.len() == CELLS {
        return true;
    }
    let Ok(text) = std::str::from_utf8(field) else {
        return false;
    };
    if text.chars().count() == CELLS {
        return true;
    }
    let digits = field.iter().filter(|b| b.is_ascii_digit()).count();
    let mut foreign = text.chars().filter(|&c| !c.is_ascii() || !is_cell(c as u8));
    digits >= 17 && foreign.next().is_some_and(|c| foreign.all(|d| d == c))
}

/// True for a field of digits only, 1 to 21 short of a grid, with `0`s but
/// not first: a puzzle with `0` blanks that a spreadsheet read as a number,
/// dropping the zeros it started with (shown whole, not in scientific
/// notation). A cut-off line still starts as it did, so it is told apart.
fn lost_leading_zeros(field: &[u8]) -> bool {
    (CELLS - 21..CELLS).contains(&field.len())
        && field.iter().all(u8::is_ascii_digit)
        && field.first() != Some(&b'0')
        && field.contains(&b'0')
}

/// True for printable text: valid UTF-8 with no control character but tab
/// and carriage return. Only text can be a header or a note; binary garbage
/// is always reported.
pub fn is_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|&b| b >= 0x20 && b != 0x7F || b == b'\t' || b == b'\r')
        && std::str::from_utf8(bytes).is_ok()
}

/// True for a line of text in any 8-bit encoding: [`is_text`], or no
/// control character but tab and carriage return and at most a quarter
/// of its bytes outside ASCII, as a Latin-1 or cp1252 export's header
/// (`R\xe4tsel;L\xf6sung;Notiz`) is. A CSV header need not be UTF-8: its
/// names are read with U+FFFD for what is not.
pub fn is_text_any(bytes: &[u8]) -> bool {
    is_text(bytes)
        || (bytes
            .iter()
            .all(|&b| b >= 0x20 && b != 0x7F || b == b'\t' || b == b'\r')
            && bytes.iter().filter(|&&b| b >= 0x80).count() * 4 <= bytes.len())
}

/// Why `field`, given as a solution, is not one: `given solution is not a
/// grid: ` and [`solution_error`]'s reason.
pub fn not_a_solution(field: &[u8]) -> String {
    format!("given solution is not a grid: {}", solution_error(field))
}

/// Why `field` is no complete 9x9 grid: `it has blanks` for a puzzle
/// (written as 81 characters or as 81 values), else the parser's reason
/// (`80 cells, expected 81`, a bad character, `80 values, expected 81 (a
/// 9x9 grid)`).
pub fn solution_error(field: &[u8]) -> String {
    let puzzle_values = || values(field).and_then(|cells| Grid::from_line(&cells));
    if puzzle(field).is_some() || puzzle_values().is_some() {
        "it has blanks".to_string()
    } else {
        error(field)
    }
}

/// Why `field` is not a 9x9 puzzle, in the parser's words (`empty field,
/// expected 81 cells` for an empty one; for a field that
/// is not one; see [`puzzle`]).
pub fn error(field: &[u8]) -> String {
    if field.is_empty() {
        return String::from("empty field, expected 81 cells");
    }
    if missing(field) {
        return format!(
            "'{}' marks a missing value, not a puzzle",
            String::from_utf8_lossy(field)
        );
    }
    if spreadsheet_error(field) {
        return format!(
            "spreadsheet error value '{}'",
            String::from_utf8_lossy(field)
        );
    }
    if spreadsheet_number(field) {
        return format!(
            "looks like a spreadsheet number ({}): leading zeros lost",
            String::from_utf8_lossy(field)
        );
    }
    if let Some(side) = other_size(field) {
        return ParseError::OtherSize { side }.to_string();
    }
    if lost_leading_zeros(field) {
        let lost = CELLS - field.len();
        return format!(
            "{} cells, expected 81: looks like a spreadsheet number, {lost} leading {} lost",
            field.len(),
            if lost == 1 { "zero" } else { "zeros" }
        );
    }
    if let Some(why) = other_size_length(field) {
        return why;
    }
    // The parser names a size for any field of 16, 256 or 625 bytes; for one
    // that is not a grid of that size, name the bad character instead.
    let err = match field.iter().position(|&b| !is_cell(b)) {
        Some(i) => {
            let (byte, position) = (field[i], i + 1);
            match printable_char(&field[i..]) {
                Some(ch) => ParseError::BadCharacter { ch, position },
                None => ParseError::BadByte { byte, position },
            }
        }
        None if field.len() != CELLS => ParseError::CellCount { count: field.len() },
        None => match Grid::parse(field) {
            Err(e) => e,
            Ok(_) => return String::from("not a puzzle"),
        },
    };
    err.to_string()
}

/// Why a field is no grid when it is a one-line grid of another size
/// than 9x9 of the wrong length: one character per cell (letters, digits,
/// blanks), or numbers separated by commas or whitespace, 12 or more but
/// no n*n, with a grid size beside that count whose alphabet holds them.
/// It names those sizes, the closer first, the other only when it is not
/// much farther (`255 cells, expected 256 (a 16x16 grid)`, `240 cells,
/// expected 225 (a 15x15 grid) or 256 (16x16)`), where
/// the 9x9 parser said `bad character 'A'` or `expected 81`. A field of
/// digits only keeps the 9x9 message unless it fits a grid smaller than
/// 9x9 (a 4x4 in `1`-`4` one cell short), as does any count of characters
/// nearer 81; numbers nearer 81 are told that 9x9 has 81.
pub fn other_size_length(field: &[u8]) -> Option<String> {
    use sudoku_core::sizes::{Shape, MAX_SIDE};
    let separated = field.iter().any(|&b| b == b',' || b.is_ascii_whitespace());
    // The count of cells, the least side whose alphabet holds the field's
    // symbols, and whether only grids below 9x9 may be named.
    let (count, least, small_only) = if separated {
        let mut count = 0;
        let mut top = 0usize;
        for token in field
            .split(|&b| b == b',' || b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
        {
            let value = std::str::from_utf8(token).ok()?.parse::<i64>().ok()?;
            top = top.max(usize::try_from(value).unwrap_or(0));
            count += 1;
        }
        (count, top, false)
    } else {
        let (mut digit, mut letter) = (0usize, 0usize);
        for &b in field {
            match b {
                b'1'..=b'9' => digit = digit.max(usize::from(b - b'0')),
                b'a'..=b'z' | b'A'..=b'Z' => {
                    letter = letter.max(usize::from(b.to_ascii_uppercase() - b'A') + 1)
                }
                b'0' | b'.' | b'-' | b'_' | b'+' => {}
                _ => return None,
            }
        }
        let least = match (digit, letter) {
            (_, 0) => digit,
            (0, _) => letter,
            _ => 9 + letter,
        };
        (field.len(), least, letter == 0)
    };
    if count < 12 || count == CELLS || sudoku_core::sizes::side_of(count).is_some() {
        return None;
    }
    let sides: Vec<usize> = (4..=MAX_SIDE)
        .filter(|&n| n == 9 || Shape::usual(n).is_ok())
        .collect();
    let below = sides.iter().rev().find(|&&n| n * n < count);
    let above = sides.iter().find(|&&n| n * n > count);
    let mut near: Vec<usize> = [below, above].into_iter().flatten().copied().collect();
    near.sort_by_key(|&n| (n * n).abs_diff(count));
    // Characters nearest 81 keep the 9x9 parser's message; numbers are
    // no 9x9 field to it (`bad character ','`), so they are told here.
    if near.first() == Some(&9) && !separated {
        return None;
    }
    near.retain(|&n| n >= least && (!small_only || n < 9));
    // A size much farther than the other is no likely one.
    if let [n, m] = near[..] {
        if (m * m).abs_diff(count) > 2 * (n * n).abs_diff(count) {
            near.pop();
        }
    }
    let unit = if separated { "values" } else { "cells" };
    let name = |n: usize| format!("{} ({n}x{n})", n * n);
    match near[..] {
        [] => None,
        [n] => Some(format!(
            "{count} {unit}, expected {} (a {n}x{n} grid)",
            n * n
        )),
        [n, m] => Some(format!(
            "{count} {unit}, expected {} (a {n}x{n} grid) or {}",
            n * n,
            name(m)
        )),
        _ => None,
    }
}

/// The character `bytes` start with when a message can name it: printable
/// ASCII or a space, or any UTF-8 character beyond ASCII (a full-width
/// `１`, an `é`, which the results show escaped: see
/// [`crate::output::clean_message`]); `None` for ASCII control bytes and
/// bytes that are not UTF-8 (named by their value).
fn printable_char(bytes: &[u8]) -> Option<char> {
    let ch = bytes.utf8_chunks().next()?.valid().chars().next()?;
    (ch == ' ' || ch.is_ascii_graphic() || !ch.is_ascii()).then_some(ch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreadsheet_errors_and_pandas_placeholders_hold_no_data() {
        for value in [
            "#VALUE!",
            "#REF!",
            "#DIV/0!",
            "#NAME?",
            "#NUM!",
            "#SPILL!",
            "#CALC!",
            "#FIELD!",
            "#BLOCKED!",
            "#CONNECT!",
            "#BUSY!",
            "#UNKNOWN!",
            "#GETTING_DATA",
            "#ERROR!",
            "#value!",
            "#foo!",
        ] {
            let field = value.as_bytes();
            assert!(
                spreadsheet_error(field) && no_data(field) && !missing(field),
                "{value}"
            );
            assert_eq!(error(field), format!("spreadsheet error value '{value}'"));
        }
        for placeholder in [
            "#N/A", "#NULL!", "#NA", "#N/A N/A", "-1.#IND", "-1.#QNAN", "1.#IND", "1.#QNAN", "-NaN",
        ] {
            assert!(missing(placeholder.as_bytes()), "{placeholder}");
            assert!(no_data(placeholder.as_bytes()), "{placeholder}");
        }
        assert!(MISSING.iter().all(|m| m.len() <= MISSING_LEN));
        // Comments and values of other shapes.
        for other in [
            "#",
            "#!",
            "#?",
            "#####",
            "#hardest",
            "#2",
            "#1!",
            "# REF!",
            "#REF! x",
            "REF!",
            "#GETTING_DATA_LONGER!",
            "#N/A N/A N/A",
        ] {
            assert!(!no_data(other.as_bytes()), "{other}");
        }
    }

    #[test]
    fn a_status_is_read_in_any_case_with_spaces_around_it() {
        for want in Status::ALL {
            let name = want.name();
            for field in [
                name.to_string(),
                name.to_ascii_uppercase(),
                format!(" {name}\t"),
            ] {
                assert_eq!(status(field.as_bytes()), Ok(Some(want)), "{field:?}");
            }
        }
        // Trimmed as `str::trim` trims, no-break spaces too.
        assert_eq!(status("solved\u{a0}".as_bytes()), Ok(Some(Status::Solved)));
        for field in ["", "  ", "NA", " null ", "None", "-"] {
            assert_eq!(status(field.as_bytes()), Ok(None), "{field:?}");
        }
    }

    #[test]
    fn a_status_field_naming_no_status_says_so() {
        for (field, shown) in [
            ("solve", "'solve'"),
            ("solved solved", "'solved solved'"),
            ("ok", "'ok'"),
            ("Solved!", "'Solved!'"),
            (" unique ", "' unique '"),
        ] {
            assert_eq!(
                status(field.as_bytes()),
                Err(not_a_status(shown)),
                "{field:?}"
            );
        }
        assert_eq!(
            status(b"ok"),
            Err(
                "expected status 'ok' is no status name: expected solved, multiple, \
                 unsolvable, invalid, malformed or timeout, or empty for none"
                    .into()
            )
        );
        let long = "x".repeat(100);
        let shown = format!("'{}...'", &long[..STATUS_EXCERPT]);
        assert_eq!(status(long.as_bytes()), Err(not_a_status(&shown)));
        assert_eq!(status(b"\xffok"), Err(not_a_status("'\u{fffd}ok'")));
    }

    #[test]
    fn digits_a_little_short_of_a_grid_get_the_spreadsheet_hint() {
        let puzzle =
            "004300209005009001070060043006002087190007400050083000600000105003508690042910300";
        assert_eq!(
            error(&puzzle.as_bytes()[2..]),
            "79 cells, expected 81: looks like a spreadsheet number, 2 leading zeros lost"
        );
        assert_eq!(error(b"12345"), "5 cells, expected 81");
        // One-line grids of other sizes of the wrong length say so.
        let sixteen = "A.....7..456.E.8.....3..7...B..5....4.C..DBF.2.G.G..1.8..2";
        let sixteen = sixteen.repeat(5);
        assert_eq!(
            error(&sixteen.as_bytes()[..255]),
            "255 cells, expected 256 (a 16x16 grid)"
        );
        assert_eq!(
            error(b"3.....1.......32."),
            "17 cells, expected 16 (a 4x4 grid)"
        );
        assert_eq!(
            error("A.B.".repeat(60).as_bytes()),
            "240 cells, expected 225 (a 15x15 grid) or 256 (16x16)"
        );
        assert_eq!(
            error(b"3.....1.......3"),
            "15 cells, expected 16 (a 4x4 grid)"
        );
        let values = vec!["3"; 15].join(",");
        assert_eq!(
            error(values.as_bytes()),
            "15 values, expected 16 (a 4x4 grid)"
        );
        let values = vec!["3"; 80].join(" ");
        assert_eq!(
            error(values.as_bytes()),
            "80 values, expected 81 (a 9x9 grid)"
        );
        // Digits that no smaller grid holds keep the 9x9 message.
        assert_eq!(error(b"016400000200009"), "15 cells, expected 81");
        assert_eq!(error(&[b'7'; 162]), "162 cells, expected 81");
        assert_eq!(error(&[b'7'; 80]), "80 cells, expected 81");
        assert_eq!(
            error(
                &[b'1'; 80][..79]
                    .iter()
                    .chain(b"x")
                    .copied()
                    .collect::<Vec<u8>>()
            ),
            "bad character 'x' at position 80"
        );
    }

    #[test]
    fn a_solution_is_read_as_characters_or_numbers_and_says_why_not() {
        const S: &str =
            "316452978285679314497318562879234156142965783653187249968721435521843697734596821";
        let values = |s: &str, sep: &str| s.chars().map(String::from).collect::<Vec<_>>().join(sep);
        let read = |field: &str| {
            solution(field.as_bytes()).ok_or_else(|| solution_error(field.as_bytes()))
        };
        let want = Grid::parse(S.as_bytes()).unwrap();
        for field in [
            S.to_string(),
            values(S, ","),
            values(S, " "),
            values(S, ", "),
        ] {
            assert_eq!(read(&field), Ok(want), "{field}");
        }
        let blank = format!("{}0", &S[..80]);
        for field in [
            blank.replace('0', "."),
            values(&blank, ","),
            values(&blank, " "),
        ] {
            assert_eq!(read(&field), Err("it has blanks".into()), "{field}");
        }
        assert_eq!(
            read(&values(&S[1..], ",")),
            Err("80 values, expected 81 (a 9x9 grid)".into())
        );
        assert_eq!(read(&S[1..]), Err("80 cells, expected 81".into()));
        assert_eq!(
            not_a_solution(values(&blank, ",").as_bytes()),
            "given solution is not a grid: it has blanks"
        );
    }

    #[test]
    fn spreadsheet_numbers() {
        for yes in ["4.30021E+78", "4.3E+78", "6.0012E+80", "4E78", "12.5e-3"] {
            assert!(spreadsheet_number(yes.as_bytes()), "{yes}");
        }
        for no in [
            "4.3E+",
            "E+78",
            "4.3",
            "4.3E+78x",
            ".3E+7",
            "",
            "4.30021E+78 ",
        ] {
            assert!(!spreadsheet_number(no.as_bytes()), "{no}");
        }
        assert_eq!(
            error(b"4.30021E+78"),
            "looks like a spreadsheet number (4.30021E+78): leading zeros lost"
        );
    }

    #[test]
    fn messages() {
        assert_eq!(error(b"016"), "3 cells, expected 81");
        assert_eq!(
            error(b"difficulty_range"),
            "bad character 'd' at position 1"
        );
        assert_eq!(error(b"1234123412341235"), "16 cells, expected 81");
        assert_eq!(
            error(b"1234123412341234"),
            "a 4x4 grid: only 9x9 is supported"
        );
        assert_eq!(error(b"9999999999999999"), "16 cells, expected 81");
        assert_eq!(error(&[b'A'; 256]), "a 16x16 grid: only 9x9 is supported");
        assert_eq!(
            error(&[b'1', 0xC3, 0xA9]),
            "bad character 'é' at position 2"
        );
        assert_eq!(error("１".as_bytes()), "bad character '１' at position 1");
        // Not UTF-8, or an ASCII control: the byte's value.
        assert_eq!(error(&[b'1', 0xC3, b'2']), "byte 0xC3 at position 2");
        assert_eq!(
            error("1\u{feff}".as_bytes()),
            "bad character '\u{feff}' at position 2"
        );
        assert_eq!(error(b"1\t2"), "byte 0x09 at position 2");
        assert_eq!(error(b""), "empty field, expected 81 cells");
    }

    #[test]
    fn text() {
        assert!(is_text("Sudoku für Profis\t95".as_bytes()));
        assert!(!is_text(b"\xff\xfegarbage"));
        assert!(!is_text(b"a\x00b"));
        assert!(!is_text(b"caf\xC3"));
        assert!(is_text_any(b"R\xe4tsel;L\xf6sung;Notiz"));
        assert!(!is_text_any(b"\xff\xfe\xfd"));
        assert!(!is_text_any(b"R\xe4tsel\x00"));
    }

    #[test]
    fn grid_lists_of_every_size() {
        assert!(looks_like_grid_list(81, None));
        assert!(looks_like_grid_list(9, Some(9)));
        assert!(looks_like_grid_list(16, None));
        assert!(looks_like_grid_list(256, None));
        assert!(looks_like_grid_list(625, None));
        assert!(looks_like_grid_list(16, Some(16)));
        assert!(looks_like_grid_list(25, Some(25)));
        assert!(!looks_like_grid_list(16, Some(4)));
        assert!(!looks_like_grid_list(12, None));
        assert!(!looks_like_grid_list(3, Some(3)));
        assert!(!looks_like_grid_list(80, None));
    }

    #[test]
    fn puzzle_likeness() {
        assert!(looks_like_puzzle(b"00000000000000000"));
        assert!(!looks_like_puzzle(b"0000000000000000a"));
        assert!(looks_like_puzzle(b"x00000000000000000abc"));
        assert!(!looks_like_puzzle(b"-----------------------"));
        assert!(looks_like_puzzle(&[b'.'; 81]));
        assert!(!looks_like_puzzle(b"1465"));
        assert!(looks_like_puzzle(b"4.3E+78"));
        assert!(!looks_like_puzzle(b"difficulty_range"));
    }

    #[test]
    fn near_puzzles() {
        let euro =
            "4€€€€€8€5€3€€€€€€€€€€7€€€€€€2€€€€€6€€€€€8€4€€€€€€1€€€€€€€6€3€7€5€€2€€€€€1€4€€€€€€";
        assert!(near_puzzle(euro.as_bytes()));
        assert!(near_puzzle(&[b'x'; 81]));
        assert!(near_puzzle(b"4**3*12*5678*9*1*2*3*4*5*6*7*8"));
        assert!(!near_puzzle(b"quizzes"));
        assert!(!near_puzzle(b"49151"));
        assert!(!near_puzzle(b"2024-01-01T12:00:00.123456Z"));
        assert!(!near_puzzle(b"a3f9b2c1d4e5f60718293a4b5c6d7e8f90a1b2c3"));
    }
}
