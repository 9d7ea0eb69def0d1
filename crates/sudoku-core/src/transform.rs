//! Equivalence transforms of a grid: the symmetries that map every valid
//! Sudoku to another valid Sudoku with the same number of solutions.
//!
//! A [`Transform`] is an optional transposition, then a permutation of the
//! rows that keeps bands together (the bands in any order, the rows inside
//! each band in any order), the same for the columns and stacks, and a
//! relabelling of the digits: 2 x 6^8 = 3,359,232 position transforms times
//! 9! = 362,880 relabellings. Two puzzles are *equivalent* when one
//! transform maps one onto the other; [`crate::minlex`] picks one
//! representative per class.
//!
//! A transform has a short text form (its [`Display`](fmt::Display) and
//! [`FromStr`]), used by `augment`'s `transform` column:
//!
//! ```text
//! transpose rows 312456978 cols 123789456 digits 513627849
//! ```
//!
//! read as: transpose the grid (only when the word is there); then row `i`
//! of the copy is row `rows[i]` of that grid and column `j` is column
//! `cols[j]` (1-based); then digit `d` becomes `digits[d]`.

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use thiserror::Error;

use crate::grid::{Grid, CELLS};

/// One equivalence transform; see the module docs for its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Transpose before permuting.
    transpose: bool,
    /// Row `i` of the result is row `rows[i]` (0-based) of the source.
    rows: [u8; 9],
    /// Column `j` of the result is column `cols[j]` (0-based) of the source.
    cols: [u8; 9],
    /// Digit `d` becomes `digits[d]`; `digits[0]` is 0 (blanks stay blank).
    digits: [u8; 10],
}

/// Why a text is not a transform, or arrays are not a valid one.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TransformError {
    /// The text does not have the shape `[transpose] rows R cols C digits D`.
    #[error("expected '[transpose] rows NNNNNNNNN cols NNNNNNNNN digits NNNNNNNNN', got '{0}'")]
    Shape(String),
    /// A row or column order mixes bands (stacks) or repeats a line.
    #[error("{what} {order} is not an order of bands and of the lines inside them")]
    Lines {
        /// `rows` or `cols`.
        what: &'static str,
        /// The order as written.
        order: String,
    },
    /// The digit map is not a permutation of 1-9.
    #[error("digits {0} is not a permutation of 1-9")]
    Digits(String),
}

/// True when `order` (0-based) is a permutation of 0..9 that moves whole
/// bands: each output band takes the three lines of one source band.
fn is_line_order(order: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    let mut bands = 0u8;
    for band in order.chunks_exact(3) {
        let source = band[0] / 3;
        for &line in band {
            if line > 8 || line / 3 != source || seen & (1 << line) != 0 {
                return false;
            }
            seen |= 1 << line;
        }
        bands |= 1 << source;
    }
    bands == 0b111
}

/// A random order of bands and of the lines inside each band.
fn random_lines<R: Rng + ?Sized>(rng: &mut R) -> [u8; 9] {
    let mut bands = [0u8, 1, 2];
    bands.shuffle(rng);
    let mut order = [0u8; 9];
    for (out, band) in order.chunks_exact_mut(3).zip(bands) {
        let mut lines = [3 * band, 3 * band + 1, 3 * band + 2];
        lines.shuffle(rng);
        out.copy_from_slice(&lines);
    }
    order
}

impl Transform {
    /// The transform that changes nothing.
    pub const IDENTITY: Transform = Transform {
        transpose: false,
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// Builds a transform from 0-based row and column orders and a digit
    /// map (`digits[d - 1]` is the new label of digit `d`, 1..=9).
    ///
    /// # Errors
    /// [`TransformError::Lines`] when an order does not keep bands (stacks)
    /// together, [`TransformError::Digits`] when `digits` is not a
    /// permutation of 1..=9.
    pub fn new(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 9],
    ) -> Result<Transform, TransformError> {
        let one_based = |order: &[u8; 9]| order.iter().map(|&x| (b'1' + x) as char).collect();
        if !is_line_order(&rows) {
            return Err(TransformError::Lines {
                what: "rows",
                order: one_based(&rows),
            });
        }
        if !is_line_order(&cols) {
            return Err(TransformError::Lines {
                what: "cols",
                order: one_based(&cols),
            });
        }
        let mut seen = 0u16;
        for &d in &digits {
            if (1..=9).contains(&d) {
                seen |= 1 << d;
            }
        }
        if seen != 0x3FE {
            return Err(TransformError::Digits(
                digits.iter().map(|&d| (b'0' + d.min(9)) as char).collect(),
            ));
        }
        let mut map = [0u8; 10];
        map[1..].copy_from_slice(&digits);
        Ok(Transform {
            transpose,
            rows,
            cols,
            digits: map,
        })
    }

    /// A transform drawn uniformly from all 2 x 6^8 x 9! of them.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Transform {
        let transpose = rng.random_bool(0.5);
        let rows = random_lines(rng);
        let cols = random_lines(rng);
        let mut digits = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        digits[1..].shuffle(rng);
        Transform {
            transpose,
            rows,
            cols,
            digits,
        }
    }

    /// Whether the grid is transposed first.
    pub fn transposes(&self) -> bool {
        self.transpose
    }

    /// The grid this transform makes of `grid`. Blanks stay blank; a valid
    /// puzzle stays valid with as many solutions, and the image of its
    /// solution is the image's solution.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let source = grid.cells();
        let mut cells = [0u8; CELLS];
        for (r, &row) in self.rows.iter().enumerate() {
            for (c, &col) in self.cols.iter().enumerate() {
                let (row, col) = (usize::from(row), usize::from(col));
                let from = if self.transpose {
                    col * 9 + row
                } else {
                    row * 9 + col
                };
                cells[r * 9 + c] = self.digits[usize::from(source[from])];
            }
        }
        // Every value is a digit map entry (0..=9), so this cannot fail.
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }
}

impl fmt::Display for Transform {
    /// `[transpose ]rows R cols C digits D`, 1-based (see the module docs).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = |order: &[u8]| -> String { order.iter().map(|&x| (b'1' + x) as char).collect() };
        if self.transpose {
            f.write_str("transpose ")?;
        }
        let digits: String = self.digits[1..]
            .iter()
            .map(|&d| (b'0' + d) as char)
            .collect();
        write!(
            f,
            "rows {} cols {} digits {}",
            line(&self.rows),
            line(&self.cols),
            digits
        )
    }
}

impl FromStr for Transform {
    type Err = TransformError;

    /// Reads the text form written by [`Display`](fmt::Display).
    fn from_str(text: &str) -> Result<Transform, TransformError> {
        let shape = || TransformError::Shape(text.chars().take(80).collect());
        let mut words = text.split_whitespace().peekable();
        let transpose = words.next_if_eq(&"transpose").is_some();
        let mut field = |name: &str| -> Result<[u8; 9], TransformError> {
            if words.next() != Some(name) {
                return Err(shape());
            }
            let value = words.next().ok_or_else(shape)?.as_bytes();
            if value.len() != 9 || !value.iter().all(|b| (b'1'..=b'9').contains(b)) {
                return Err(shape());
            }
            let mut out = [0u8; 9];
            for (o, b) in out.iter_mut().zip(value) {
                *o = b - b'0';
            }
            Ok(out)
        };
        let rows = field("rows")?.map(|x| x - 1);
        let cols = field("cols")?.map(|x| x - 1);
        let digits = field("digits")?;
        if words.next().is_some() {
            return Err(shape());
        }
        Transform::new(transpose, rows, cols, digits)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_xorshift::XorShiftRng;

    use super::*;

    const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";
    const SOLUTION: &[u8] =
        b"316452978285679314497318562879234156142965783653187249968721435521843697734596821";

    fn random(seed: u64) -> Transform {
        Transform::random(&mut XorShiftRng::seed_from_u64(seed))
    }

    #[test]
    fn the_identity_changes_nothing_and_reads_back() {
        let grid = Grid::parse(PUZZLE).unwrap();
        assert_eq!(Transform::IDENTITY.apply(&grid), grid);
        let text = Transform::IDENTITY.to_string();
        assert_eq!(text, "rows 123456789 cols 123456789 digits 123456789");
        assert_eq!(text.parse::<Transform>(), Ok(Transform::IDENTITY));
    }

    #[test]
    fn the_text_form_means_what_the_docs_say() {
        let t: Transform = "transpose rows 213456789 cols 123456789 digits 234567891"
            .parse()
            .unwrap();
        let grid = Grid::parse(SOLUTION).unwrap();
        let image = t.apply(&grid);
        // Row 1 of the image is row 2 of the transpose: column 2 of the grid,
        // with every digit moved up by one (9 -> 1).
        let expected: Vec<u8> = (0..9).map(|r| grid.cells()[r * 9 + 1] % 9 + 1).collect();
        assert_eq!(&image.cells()[..9], &expected[..]);
    }

    #[test]
    fn bad_texts_and_orders_are_refused_with_reasons() {
        let bad = |text: &str| text.parse::<Transform>().unwrap_err().to_string();
        assert!(bad("rows 123").starts_with("expected"));
        assert!(bad("rows 123456789 cols 123456789 digits 123456789 x").starts_with("expected"));
        assert_eq!(
            bad("rows 142356789 cols 123456789 digits 123456789"),
            "rows 142356789 is not an order of bands and of the lines inside them"
        );
        assert_eq!(
            bad("rows 123456789 cols 123456789 digits 113456789"),
            "digits 113456789 is not a permutation of 1-9"
        );
        assert!(Transform::new(false, [0; 9], [0; 9], [1; 9]).is_err());
    }

    proptest! {
        #[test]
        fn every_random_transform_reads_back_from_its_text(seed: u64) {
            let t = random(seed);
            prop_assert_eq!(t.to_string().parse::<Transform>(), Ok(t));
            prop_assert!(is_line_order(&t.rows) && is_line_order(&t.cols));
        }

        #[test]
        fn transforms_keep_solutions_and_givens(seed: u64) {
            let t = random(seed);
            let (puzzle, solution) = (Grid::parse(PUZZLE).unwrap(), Grid::parse(SOLUTION).unwrap());
            let (p, s) = (t.apply(&puzzle), t.apply(&solution));
            prop_assert_eq!(p.givens(), puzzle.givens());
            prop_assert!(s.is_solution_of(&p));
        }

        #[test]
        fn transforms_keep_the_solution_count(seed: u64, blanks in prop::collection::vec(0usize..81, 0..60)) {
            use crate::solver::{FastSolver, Limits, Mode, Solver};
            let mut cells = *Grid::parse(SOLUTION).unwrap().cells();
            for b in blanks {
                cells[b] = 0;
            }
            let grid = Grid::from_cells(cells).unwrap();
            let mut solver = FastSolver::new();
            let before = solver.solve(&grid, Mode::Unique, &Limits::default()).status;
            let after = solver.solve(&random(seed).apply(&grid), Mode::Unique, &Limits::default()).status;
            prop_assert_eq!(before, after);
        }
    }
}
