//! The shape of a grid of any size: n x n cells in boxes of r x c (n = r*c),
//! and its geometry (units and peers), built once per shape.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Largest side supported: candidate sets are 64-bit sets.
pub const MAX_SIDE: usize = 64;

/// Boxes of `box_rows` x `box_cols` cells in a grid of side
/// `box_rows * box_cols`: 2x2 for 4x4, 2x3 for 6x6, 3x3 for 9x9, 4x4 for
/// 16x16, 5x5 for 25x25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

/// Why a box shape cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShapeError {
    /// `--box RxC` that is not two numbers joined by `x`.
    #[error("'{0}' is not a box shape: expected RxC, as 2x3 or 5x5")]
    Syntax(String),
    /// A side of 0, or above [`MAX_SIDE`].
    #[error("boxes of {rows}x{cols} make a {side}x{side} grid: sides 4 to 64 are supported")]
    Side {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
        /// `rows * cols`.
        side: usize,
    },
    /// A side whose only box shapes are a whole row or column (a prime).
    #[error("a {0}x{0} grid has no box shape but 1x{0}: give it with --box")]
    NoUsualBox(usize),
    /// Boxes that do not fit the record's side.
    #[error("boxes of {rows}x{cols} do not fit a {side}x{side} grid")]
    Misfit {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
        /// The record's side.
        side: usize,
    },
}

impl Shape {
    /// Boxes of `rows` x `cols`: a side `rows * cols` from 4 to 64.
    ///
    /// # Errors
    /// [`ShapeError::Side`] outside that range.
    pub fn new(rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        let side = rows * cols;
        if rows == 0 || cols == 0 || !(4..=MAX_SIDE).contains(&side) {
            return Err(ShapeError::Side { rows, cols, side });
        }
        Ok(Shape {
            box_rows: rows as u8,
            box_cols: cols as u8,
        })
    }

    /// The usual boxes of a side: the most nearly square r x c with r <= c
    /// (2x3 for 6, 3x4 for 12, 5x5 for 25).
    ///
    /// # Errors
    /// [`ShapeError::Side`] for a side outside 4..=64, and
    /// [`ShapeError::NoUsualBox`] for a prime side.
    pub fn usual(side: usize) -> Result<Shape, ShapeError> {
        let rows = (1..=side)
            .take_while(|r| r * r <= side)
            .filter(|r| side.is_multiple_of(*r))
            .last()
            .unwrap_or(1);
        if rows == 1 && (4..=MAX_SIDE).contains(&side) {
            return Err(ShapeError::NoUsualBox(side));
        }
        Shape::new(rows, side / rows.max(1))
    }

    /// `self` when it fits a grid of `side`, else why not.
    ///
    /// # Errors
    /// [`ShapeError::Misfit`].
    pub fn fits(self, side: usize) -> Result<Shape, ShapeError> {
        if self.side() == side {
            Ok(self)
        } else {
            Err(ShapeError::Misfit {
                rows: self.box_rows(),
                cols: self.box_cols(),
                side,
            })
        }
    }

    /// Rows of a box (r).
    pub fn box_rows(self) -> usize {
        usize::from(self.box_rows)
    }

    /// Columns of a box (c).
    pub fn box_cols(self) -> usize {
        usize::from(self.box_cols)
    }

    /// Side of the grid, n = r * c: also the number of symbols.
    pub fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// True for the 9x9 grid with 3x3 boxes: the grid of the 9x9 model
    /// ([`crate::grid::Grid`]) and its engines, whatever alphabet it is
    /// written in (see [`super::solve_as_nine`]).
    pub fn is_nine(self) -> bool {
        (self.box_rows, self.box_cols) == (3, 3)
    }

    /// Cells of the grid, n * n.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The box (row-major, 0-based) of the cell at `row`, `col`.
    pub fn box_of(self, row: usize, col: usize) -> usize {
        row / self.box_rows() * self.box_rows() + col / self.box_cols()
    }
}

impl fmt::Display for Shape {
    /// Formats as `RxC`, as `--box` takes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    /// Parses `RxC` (`2x3`, `5X5`).
    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax(s.to_string());
        let (r, c) = s.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let r: usize = r.trim().parse().map_err(|_| syntax())?;
        let c: usize = c.trim().parse().map_err(|_| syntax())?;
        Shape::new(r, c)
    }
}

/// The units and peers of one shape, as cell indices (row-major). Built
/// once per shape and shared by the solvers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    shape: Shape,
    /// 3n units of n cells, flattened: rows, then columns, then boxes.
    units: Vec<u16>,
    /// The peers of every cell, flattened, [`Geometry::peer_count`] each.
    peers: Vec<u16>,
    /// The row, column and box unit of every cell.
    units_of: Vec<[u8; 3]>,
}

impl Geometry {
    /// The geometry of `shape`.
    pub fn new(shape: Shape) -> Geometry {
        let (n, r, c) = (shape.side(), shape.box_rows(), shape.box_cols());
        let mut units = Vec::with_capacity(3 * n * n);
        for row in 0..n {
            units.extend((0..n).map(|col| (row * n + col) as u16));
        }
        for col in 0..n {
            units.extend((0..n).map(|row| (row * n + col) as u16));
        }
        for b in 0..n {
            let (top, left) = (b / r * r, b % r * c);
            for i in 0..r {
                units.extend((0..c).map(|j| ((top + i) * n + left + j) as u16));
            }
        }
        let units_of: Vec<[u8; 3]> = (0..n * n)
            .map(|cell| {
                let (row, col) = (cell / n, cell % n);
                [row, n + col, 2 * n + shape.box_of(row, col)].map(|u| u as u8)
            })
            .collect();
        // Each cell's peers in increasing order, merged from its three
        // units (each already in increasing order), not by testing every
        // other cell (0.24 s for 64x64, 16.7 million pairs) nor by sorting
        // (10 ms for 64x64): both ran on the clock of the first 64x64
        // puzzle's `--timeout-ms`.
        let mut peers = Vec::with_capacity(n * n * 3 * n);
        for (cell, cell_units) in units_of.iter().enumerate() {
            let mut heads = cell_units.map(|u| units[usize::from(u) * n..][..n].iter().peekable());
            loop {
                let next = heads.iter_mut().filter_map(|h| h.peek().copied()).min();
                let Some(&o) = next else { break };
                for head in &mut heads {
                    head.next_if_eq(&&o);
                }
                if usize::from(o) != cell {
                    peers.push(o);
                }
            }
        }
        Geometry {
            shape,
            units,
            peers,
            units_of,
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Peers of one cell: 2(n-1) + (r-1)(c-1).
    pub fn peer_count(&self) -> usize {
        let s = self.shape;
        2 * (s.side() - 1) + (s.box_rows() - 1) * (s.box_cols() - 1)
    }

    /// The cells of unit `u`: rows 0..n, columns n..2n, boxes 2n..3n.
    pub fn unit(&self, u: usize) -> &[u16] {
        let n = self.shape.side();
        &self.units[u * n..(u + 1) * n]
    }

    /// The units of `cell`: its row, column and box (as for
    /// [`Geometry::unit`], below 3 * 64).
    pub fn units_of(&self, cell: usize) -> [u8; 3] {
        self.units_of[cell]
    }

    /// The peers of `cell`, ascending.
    pub fn peers(&self, cell: usize) -> &[u16] {
        let k = self.peer_count();
        &self.peers[cell * k..(cell + 1) * k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_are_the_other_cells_of_a_row_column_or_box_ascending() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (1, 9), (2, 5), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let g = Geometry::new(shape);
            let n = shape.side();
            for cell in 0..n * n {
                let (row, col) = (cell / n, cell % n);
                let b = shape.box_of(row, col);
                let expected: Vec<u16> = (0..n * n)
                    .filter(|&o| {
                        let (orow, ocol) = (o / n, o % n);
                        o != cell && (orow == row || ocol == col || shape.box_of(orow, ocol) == b)
                    })
                    .map(|o| o as u16)
                    .collect();
                assert_eq!(g.peers(cell), expected, "{shape} cell {cell}");
            }
        }
    }

    #[test]
    fn usual_boxes_have_fewer_rows_than_columns() {
        let usual = |n| Shape::usual(n).unwrap().to_string();
        assert_eq!(usual(4), "2x2");
        assert_eq!(usual(6), "2x3");
        assert_eq!(usual(8), "2x4");
        assert_eq!(usual(10), "2x5");
        assert_eq!(usual(12), "3x4");
        assert_eq!(usual(16), "4x4");
        assert_eq!(usual(25), "5x5");
        assert_eq!(usual(64), "8x8");
        assert_eq!(Shape::usual(7), Err(ShapeError::NoUsualBox(7)));
        assert!(Shape::usual(65).is_err());
        assert!(Shape::usual(3).is_err());
    }

    #[test]
    fn shapes_parse_and_fit() {
        let s: Shape = "3x2".parse().unwrap();
        assert_eq!((s.box_rows(), s.box_cols(), s.side()), (3, 2, 6));
        assert!(s.fits(6).is_ok());
        assert_eq!(
            s.fits(4).unwrap_err().to_string(),
            "boxes of 3x2 do not fit a 4x4 grid"
        );
        assert!("3by2".parse::<Shape>().is_err());
        assert!("9x9".parse::<Shape>().is_err());
    }

    #[test]
    fn geometry_matches_the_box_rule() {
        let shape = Shape::new(2, 3).unwrap();
        let g = Geometry::new(shape);
        assert_eq!(g.unit(12), &[0, 1, 2, 6, 7, 8]);
        assert_eq!(g.unit(13), &[3, 4, 5, 9, 10, 11]);
        for cell in 0..36 {
            assert_eq!(g.peers(cell).len(), 10 + 2);
            assert!(!g.peers(cell).contains(&(cell as u16)));
        }
    }
}
