//! Where two grids differ, as messages name it: the first differing cell
//! in reading order (`r3c7`, rows and columns from 1), its value in each
//! grid in the grid's own symbols, and how many cells differ. A `mismatch`
//! row's message ([`Difference::mismatch`]) and `check`'s report of a
//! solution that changed from the baseline both say it this way.

use sudoku_core::grid::{Cell, Grid, CELLS};
use sudoku_core::sizes::grid::cell_name;
use sudoku_core::sizes::{SizedGrid, Symbols};

/// How two grids of one shape differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The first differing cell, `rRcC`.
    pub cell: String,
    /// Its value in the first grid (`.` for a blank).
    pub first: String,
    /// Its value in the second grid.
    pub second: String,
    /// How many cells differ, at least 1.
    pub cells: usize,
}

impl Difference {
    /// How 9x9 grids `a` and `b` differ; `None` when they are the same.
    pub fn nine(a: &Grid, b: &Grid) -> Option<Difference> {
        let differ = |i: &usize| a.cells()[*i] != b.cells()[*i];
        let first = (0..CELLS).find(differ)?;
        let digit = |d: u8| if d == 0 { '.' } else { char::from(b'0' + d) };
        Some(Difference {
            cell: Cell(first as u8).to_string(),
            first: digit(a.cells()[first]).to_string(),
            second: digit(b.cells()[first]).to_string(),
            cells: (0..CELLS).filter(differ).count(),
        })
    }

    /// How grids `a` and `b` of another size differ, their values named
    /// in `symbols`; `None` when they are the same or of different shapes.
    pub fn sized(a: &SizedGrid, b: &SizedGrid, symbols: &Symbols) -> Option<Difference> {
        if a.shape() != b.shape() {
            return None;
        }
        let cells = a.cells().len();
        let differ = |i: &usize| a.get(*i) != b.get(*i);
        let first = (0..cells).find(differ)?;
        let value = |v: u8| {
            if v == 0 {
                ".".to_string()
            } else {
                symbols.name_of(v)
            }
        };
        Some(Difference {
            cell: cell_name(a.shape(), first),
            first: value(a.get(first)),
            second: value(b.get(first)),
            cells: (0..cells).filter(differ).count(),
        })
    }

    /// The message of a `mismatch` row, the first grid the input's given
    /// solution and the second the solver's: `r3c7: given 5, solved 8
    /// (4 cells differ)`, `(1 cell differs)` for one.
    pub fn mismatch(&self) -> String {
        let Difference {
            cell,
            first,
            second,
            cells,
        } = self;
        let differ = if *cells == 1 {
            "1 cell differs".to_string()
        } else {
            format!("{cells} cells differ")
        };
        format!("{cell}: given {first}, solved {second} ({differ})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::sizes::Shape;

    const SOLVED: &str =
        "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

    #[test]
    fn the_first_differing_cell_and_the_count() {
        let solved = Grid::parse(SOLVED.as_bytes()).unwrap();
        assert_eq!(Difference::nine(&solved, &solved), None);
        let swapped = Grid::parse(SOLVED.replacen("316", "361", 1).as_bytes()).unwrap();
        let difference = Difference::nine(&swapped, &solved).unwrap();
        assert_eq!(
            difference.mismatch(),
            "r1c2: given 6, solved 1 (2 cells differ)"
        );
        let mut one = solved;
        one.set(Cell(80), 9);
        assert_eq!(
            Difference::nine(&one, &solved).unwrap().mismatch(),
            "r9c9: given 9, solved 1 (1 cell differs)"
        );
    }

    #[test]
    fn other_sizes_use_their_own_symbols() {
        let shape = Shape::usual(16).unwrap();
        let mut a = SizedGrid::empty(shape);
        let mut b = SizedGrid::empty(shape);
        a.set(16 * 2 + 11, 10);
        b.set(16 * 2 + 11, 16);
        let letters = Difference::sized(&a, &b, &Symbols::for_side(16)).unwrap();
        assert_eq!(
            letters.mismatch(),
            "r3c12: given A, solved G (1 cell differs)"
        );
        let numbers = Difference::sized(&a, &b, &Symbols::Numbers).unwrap();
        assert_eq!(
            numbers.mismatch(),
            "r3c12: given 10, solved 16 (1 cell differs)"
        );
        let other = SizedGrid::empty(Shape::usual(4).unwrap());
        assert_eq!(Difference::sized(&a, &other, &Symbols::Numbers), None);
    }
}
