//! Nothing but a home for the criterion benchmarks in `benches/` (run
//! `cargo bench -p sudoku-core-bench`).
