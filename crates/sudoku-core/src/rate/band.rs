//! A band of ratings (`8.0-9.5`), for keeping the puzzles whose rating
//! falls in it (`generate --rating`).

use std::fmt;
use std::str::FromStr;

use crate::grid::Grid;

use super::{rate_at_most, Rating};

/// Ratings from `low` to `high` tenths, both included (`80..=95` is the
/// band `8.0-9.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    /// The lowest rating kept, in tenths.
    pub low: u16,
    /// The highest rating kept, in tenths.
    pub high: u16,
}

/// Why a band such as `8.0-9.5` could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BandError {
    /// Not two ratings joined by `-`.
    #[error("`{0}` is not a band LO-HI of ratings such as 8.0-9.5")]
    Shape(String),
    /// A rating that is not a number with at most one decimal.
    #[error("`{0}` is not a rating such as 7.2 (a number with at most one decimal)")]
    Rating(String),
    /// The low end above the high end.
    #[error("the band {0} is empty: its low end is above its high end")]
    Empty(String),
}

impl Band {
    /// Whether a rating of `tenths` falls in the band.
    pub fn contains(&self, tenths: u16) -> bool {
        (self.low..=self.high).contains(&tenths)
    }

    /// The puzzle's rating when it is complete and falls in the band, else
    /// `None`. The rater stops at the first step rated above the band (the
    /// rating is the highest step's, so the puzzle can no longer fall in
    /// it), which saves the costliest searches on the many candidates too
    /// hard for a band.
    pub fn rate(&self, puzzle: &Grid) -> Option<Rating> {
        rate_at_most(puzzle, self.high).filter(|r| r.complete && self.contains(r.tenths))
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = |t: u16| format!("{}.{}", t / 10, t % 10);
        write!(f, "{}-{}", tenths(self.low), tenths(self.high))
    }
}

/// Reads `7.2` or `7` as tenths.
fn parse_tenths(text: &str) -> Result<u16, BandError> {
    let bad = || BandError::Rating(text.to_string());
    let (whole, tenth) = match text.split_once('.') {
        Some((whole, tenth)) if tenth.len() == 1 => (whole, tenth),
        Some(_) => return Err(bad()),
        None => (text, "0"),
    };
    let digits = |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(tenth) {
        return Err(bad());
    }
    let whole: u16 = whole.parse().map_err(|_| bad())?;
    let tenth: u16 = tenth.parse().map_err(|_| bad())?;
    Ok(whole * 10 + tenth)
}

impl FromStr for Band {
    type Err = BandError;

    /// Reads `LO-HI` (`8.0-9.5`, `1-4`): ratings with at most one decimal.
    fn from_str(text: &str) -> Result<Band, BandError> {
        let (low, high) = text
            .split_once('-')
            .ok_or_else(|| BandError::Shape(text.to_string()))?;
        let band = Band {
            low: parse_tenths(low.trim())?,
            high: parse_tenths(high.trim())?,
        };
        if band.low > band.high {
            return Err(BandError::Empty(text.to_string()));
        }
        Ok(band)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_read_as_tenths_and_print_back() {
        let band: Band = "8.0-9.5".parse().unwrap();
        assert_eq!(band, Band { low: 80, high: 95 });
        assert_eq!(band.to_string(), "8.0-9.5");
        assert_eq!("1-4".parse::<Band>().unwrap(), Band { low: 10, high: 40 });
        assert!(band.contains(80) && band.contains(95));
        assert!(!band.contains(79) && !band.contains(96));
    }

    #[test]
    fn malformed_bands_are_refused_with_the_cause() {
        assert!(matches!("8.0".parse::<Band>(), Err(BandError::Shape(_))));
        assert!(matches!(
            "8.05-9".parse::<Band>(),
            Err(BandError::Rating(_))
        ));
        assert!(matches!("x-9".parse::<Band>(), Err(BandError::Rating(_))));
        assert!(matches!("-9".parse::<Band>(), Err(BandError::Rating(_))));
        assert!(matches!(
            "9.5-8.0".parse::<Band>(),
            Err(BandError::Empty(_))
        ));
    }

    #[test]
    fn a_puzzle_is_rated_only_inside_its_band() {
        // Rated 1.2 (Hidden Single) by serate and by `rate`.
        let puzzle = Grid::parse(
            b"004300209005009001070060043006002087190007400050083000600000105003508690042910300",
        )
        .unwrap();
        let inside = Band { low: 10, high: 20 }.rate(&puzzle).unwrap();
        assert_eq!(inside.tenths, 12);
        assert_eq!(Band { low: 20, high: 90 }.rate(&puzzle), None);
        assert_eq!(Band { low: 10, high: 11 }.rate(&puzzle), None);
    }
}
