//! A grid of any shape: n * n cells, 0 blank and 1..=n a symbol's value.

use super::shape::Shape;
use crate::grid::UnitKind;

/// A grid of any [`Shape`]: n * n cell values in row-major order, 0 for a
/// blank and 1..=n for the value of a symbol (see
/// [`Symbols`](super::symbols::Symbols), which also writes it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SizedGrid {
    shape: Shape,
    cells: Vec<u8>,
}

/// A repeated value in a unit: the puzzle is `invalid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizedConflict {
    /// The repeated value, 1..=n.
    pub value: u8,
    /// The kind of unit.
    pub kind: UnitKind,
    /// The unit's index within its kind, 0-based.
    pub index: usize,
    /// The first two cells holding the value (row-major indices), in unit
    /// order.
    pub cells: (usize, usize),
}

/// A cell's name, `r3c12` (1-based row and column).
pub fn cell_name(shape: Shape, cell: usize) -> String {
    let n = shape.side();
    format!("r{}c{}", cell / n + 1, cell % n + 1)
}

impl SizedGrid {
    /// The empty grid of `shape`.
    pub fn empty(shape: Shape) -> SizedGrid {
        SizedGrid {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// A grid of `shape` from its n * n values; `None` when the count is
    /// wrong or a value is above n.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Option<SizedGrid> {
        let n = shape.side();
        (cells.len() == shape.cells() && cells.iter().all(|&v| usize::from(v) <= n))
            .then_some(SizedGrid { shape, cells })
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Side of the grid, n.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The n * n values (0 blank).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value of one cell (0 blank).
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets one cell (0 blank).
    ///
    /// # Panics
    /// If `value` is above n.
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(
            usize::from(value) <= self.side(),
            "value {value} out of range"
        );
        self.cells[cell] = value;
    }

    /// Number of givens (filled cells).
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when every cell is filled.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first repeated value, checking rows, then columns, then boxes,
    /// each unit in order. `None` when the givens are consistent.
    pub fn first_conflict(&self) -> Option<SizedConflict> {
        let n = self.side();
        let (r, c) = (self.shape.box_rows(), self.shape.box_cols());
        let kinds = [UnitKind::Row, UnitKind::Column, UnitKind::Box];
        for (k, kind) in kinds.into_iter().enumerate() {
            for index in 0..n {
                let mut seen = [usize::MAX; 65];
                for j in 0..n {
                    let cell = match k {
                        0 => index * n + j,
                        1 => j * n + index,
                        _ => (index / r * r + j / c) * n + index % r * c + j % c,
                    };
                    let v = usize::from(self.cells[cell]);
                    if v == 0 {
                        continue;
                    }
                    if seen[v] != usize::MAX {
                        return Some(SizedConflict {
                            value: v as u8,
                            kind,
                            index,
                            cells: (seen[v], cell),
                        });
                    }
                    seen[v] = cell;
                }
            }
        }
        None
    }

    /// True when `self` is a complete grid of the same shape with no
    /// repeated value that keeps every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &SizedGrid) -> bool {
        self.shape == puzzle.shape
            && self.is_complete()
            && self.first_conflict().is_none()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&p, &s)| p == 0 || p == s)
    }
}
