//! The record parser: any bytes give a grid or a typed error, never a panic,
//! and a grid formats back to a line that parses to the same grid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::grid::Grid;

fuzz_target!(|data: &[u8]| {
    if let Ok(grid) = Grid::parse(data) {
        let line = grid.to_line();
        assert_eq!(line.len(), 81);
        assert_eq!(Grid::parse(line.as_bytes()), Ok(grid));
    }
});
