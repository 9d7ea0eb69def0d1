//! The benchmarks' crate: the criterion benchmarks of the solvers in
//! `benches/benches/` (run `cargo bench -p sudoku-batch-bench`), and
//! `benches/pipeline.sh`, which times the main job in every output format
//! against the solver alone (`bench -j 2`). This library holds nothing.
