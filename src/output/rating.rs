//! The rating columns (issue 34): `solve --rate` adds `rating` and
//! `hardest` after `message`; `rate` writes
//! `line,puzzle,rating,hardest,steps,status,message`. A row's rating is
//! that of its puzzle on the Sudoku Explainer scale
//! ([`sudoku_core::rate`]), computed on the worker that solved the record,
//! right after it ([`crate::job::rating`]), and kept in
//! [`PuzzleResult::rating`](crate::output::result::PuzzleResult::rating): only a `solved` puzzle with one solution is
//! rated; any other status, a puzzle beyond the rater's techniques and a
//! grid of another size than 9x9 leave the rating empty, and the row's
//! message says why.

use std::borrow::Cow;

use sudoku_core::rate::Rating;

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

/// A puzzle's rating as a results row holds it: only a finished rating
/// (a puzzle the rater could not finish has none, and its row's message
/// says why).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowRating {
    /// The rating in tenths of the Sudoku Explainer scale (`72` is 7.2).
    pub tenths: u16,
    /// The hardest technique used, as serate names it; empty for a grid
    /// with no blank (rated 0.0).
    pub hardest: Cow<'static, str>,
    /// Technique applications on the solve path; 0 in a row read back
    /// from `solve --rate`'s columns, which do not hold it.
    pub steps: u32,
}

impl RowRating {
    /// The rating of a finished [`Rating`]; `None` for one the rater could
    /// not finish.
    pub fn of(r: &Rating) -> Option<RowRating> {
        r.complete.then_some(RowRating {
            tenths: r.tenths,
            hardest: Cow::Borrowed(r.hardest),
            steps: r.steps,
        })
    }

    /// The rating as Sudoku Explainer prints it, with one decimal (`7.2`).
    pub fn to_decimal(&self) -> String {
        format!("{}.{}", self.tenths / 10, self.tenths % 10)
    }

    /// The rating as a number (the Parquet and Python `rating` column).
    pub fn value(&self) -> f64 {
        f64::from(self.tenths) / 10.0
    }

    /// Reads a row's `rating` and `hardest` fields back (and `steps`, when
    /// the row has the column): `None` when `rating` is empty.
    ///
    /// # Errors
    /// A rating that is not a number with one decimal, or steps that are
    /// not a count.
    pub fn parse(
        rating: &str,
        hardest: &str,
        steps: Option<&str>,
    ) -> Result<Option<RowRating>, String> {
        if rating.is_empty() {
            return Ok(None);
        }
        let tenths = rating
            .split_once('.')
            .filter(|(whole, tenth)| {
                !whole.is_empty()
                    && whole.bytes().all(|b| b.is_ascii_digit())
                    && tenth.len() == 1
                    && tenth.bytes().all(|b| b.is_ascii_digit())
            })
            .and_then(|(whole, tenth)| {
                let whole: u16 = whole.parse().ok()?;
                whole.checked_mul(10)?.checked_add(tenth.parse().ok()?)
            })
            .ok_or_else(|| format!("rating `{}` is not valid", rating.escape_debug()))?;
        let steps = match steps {
            None => 0,
            Some(steps) => steps
                .parse()
                .map_err(|_| format!("steps `{}` is not valid", steps.escape_debug()))?,
        };
        Ok(Some(RowRating {
            tenths,
            hardest: Cow::Owned(hardest.to_string()),
            steps,
        }))
    }
}

/// Why a `solved` grid of another size than 9x9 has no rating.
pub const NINE_ONLY: &str = "not rated: the rater is for 9x9 grids only";

/// Why a `solved` 9x9 grid solved with other boxes than 3x3 (`--box 1x9`)
/// has no rating: the Sudoku Explainer scale and every technique of the
/// rater are defined on 3x3 boxes.
pub fn other_boxes_message(shape: sudoku_core::sizes::Shape) -> String {
    format!(
        "not rated: the rater knows 3x3 boxes only, and this 9x9 grid was solved with {shape} \
         boxes (--box {shape})"
    )
}

/// The message of a `solved` row whose puzzle the rater could not finish.
pub fn beyond_message(r: &Rating) -> String {
    format!(
        "not rated: needs a technique beyond the rater's (stuck after {}, hardest so far {} {})",
        crate::process::words::count(u64::from(r.steps), "step", "steps"),
        r.to_decimal(),
        r.hardest
    )
}

/// The message of a row whose rating the time limit (`--timeout-ms`,
/// `limit_ms`) stopped: the limit as a solve's `timeout` row names it
/// (so `--resume` can tell the limit a row was written under), and how
/// far the rating came.
pub fn timeout_message(limit_ms: u128, r: &Rating) -> String {
    if r.steps == 0 {
        return format!("time limit {limit_ms} ms exceeded while rating");
    }
    format!(
        "time limit {limit_ms} ms exceeded while rating (after {}, hardest so far {} {})",
        crate::process::words::count(u64::from(r.steps), "step", "steps"),
        r.to_decimal(),
        r.hardest
    )
}

/// The message of a puzzle that `--first` found solved but that has
/// several solutions (`difference` is the solver's evidence): it is
/// `multiple`, and not rated.
pub fn several_message(difference: Option<&str>) -> String {
    let evidence = difference.map_or_else(String::new, |d| format!("{d}: "));
    format!(
        "{evidence}several solutions, so not rated (a rating needs exactly one; the rating checks \
         it under --first too)"
    )
}

/// `why` added to a row's own message (after it, with `; `), or as its
/// message.
pub fn add_message(message: &mut Option<String>, why: &str) {
    *message = Some(match message.take() {
        Some(own) => format!("{own}; {why}"),
        None => why.to_string(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_read_back_as_written() {
        let r = RowRating::parse("11.2", "Nested Forcing Chains", Some("40")).unwrap();
        let r = r.unwrap();
        assert_eq!((r.tenths, r.steps), (112, 40));
        assert_eq!(r.to_decimal(), "11.2");
        assert_eq!(r.hardest, "Nested Forcing Chains");
        assert_eq!(RowRating::parse("", "", Some("")), Ok(None));
        assert_eq!(RowRating::parse("0.0", "", None).unwrap().unwrap().steps, 0);
        for bad in ["7", "7.25", ".5", "-1.0", "x.1", "7.a"] {
            assert!(RowRating::parse(bad, "X", None).is_err(), "{bad}");
        }
        assert!(RowRating::parse("7.2", "X", Some("many")).is_err());
    }

    #[test]
    fn messages_count_one_step_as_one() {
        let rating = |steps| Rating {
            tenths: 23,
            hardest: "Hidden Single",
            steps,
            complete: false,
            timed_out: true,
        };
        assert_eq!(
            timeout_message(300, &rating(1)),
            "time limit 300 ms exceeded while rating (after 1 step, hardest so far 2.3 Hidden \
             Single)"
        );
        assert!(timeout_message(300, &rating(2)).contains("(after 2 steps, "));
        assert!(beyond_message(&rating(1)).contains("(stuck after 1 step, "));
        assert!(beyond_message(&rating(40)).contains("(stuck after 40 steps, "));
    }
}
