//! The rating columns (issue 34): `solve --rate` adds `rating` and
//! `hardest` after `message`; `rate` writes
//! `line,puzzle,rating,hardest,steps,status,message`. A row's rating is
//! that of its puzzle on the Sudoku Explainer scale
//! ([`sudoku_core::rate`]), computed when the row is formatted, on the
//! worker that formats it: only for a `solved` puzzle; any other status,
//! a puzzle beyond the rater's techniques and a grid of another size than
//! 9x9 leave the rating empty.

use sudoku_core::rate::{rate, Rating};
use sudoku_core::solver::Status;

use crate::output::result::PuzzleResult;

/// Which rating columns a results table has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RatingColumns {
    /// None: `solve`'s columns.
    #[default]
    None,
    /// `solve --rate`: `rating` and `hardest` after `message`.
    Appended,
    /// `rate`: [`RATE_COLUMNS`] instead of `solve`'s columns.
    Only,
}

/// The columns of `rate`, in order.
pub const RATE_COLUMNS: [&str; 7] = [
    "line", "puzzle", "rating", "hardest", "steps", "status", "message",
];

/// The columns `solve --rate` adds after `message`.
pub const APPENDED_COLUMNS: [&str; 2] = ["rating", "hardest"];

/// The rater's outcome for a row's puzzle: `Some` for a `solved` puzzle
/// (check [`Rating::complete`]: a puzzle beyond the rater's techniques gets
/// an empty rating and [`beyond_message`]), `None` for any other status.
pub fn row_rating(result: &PuzzleResult) -> Option<Rating> {
    let puzzle = result
        .puzzle
        .as_ref()
        .filter(|_| result.status == Status::Solved)?;
    Some(rate(puzzle))
}

/// The `message` of a `rate` row: the record's own message, else why a
/// `solved` puzzle has no rating (beyond the rater's techniques, see
/// [`beyond_message`], or a grid of another size than 9x9), else none.
/// `outcome` is [`row_rating`]'s.
pub fn rate_message(result: &PuzzleResult, outcome: Option<&Rating>) -> Option<String> {
    if let Some(message) = &result.message {
        return Some(message.clone());
    }
    if let Some(r) = outcome.filter(|r| !r.complete) {
        return Some(beyond_message(r));
    }
    (result.status == Status::Solved && result.sized.is_some()).then(|| NINE_ONLY.to_string())
}

/// Why a `solved` grid of another size than 9x9 has no rating.
pub const NINE_ONLY: &str = "not rated: the rater is for 9x9 grids only";

/// The message of a `solved` row whose puzzle the rater could not finish.
pub fn beyond_message(r: &Rating) -> String {
    format!(
        "not rated: needs a technique beyond the rater's (stuck after {} steps, hardest so far {} {})",
        r.steps,
        r.to_decimal(),
        r.hardest
    )
}
