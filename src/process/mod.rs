//! Small process-wide helpers, used by every stage: the [`clock`] that
//! times each solve, [`interrupt`] (SIGINT and SIGTERM as a clean stop),
//! [`stderr`] (messages that never panic on a closed stderr), [`memory`]
//! (freed memory kept for reuse),
//! [`file_guard`] (no input is ever overwritten), [`simd`] (the vector width
//! of the byte work, chosen at run time) and [`words`] (`1 puzzle`, never
//! `1 puzzles`).

pub mod clock;
pub mod file_guard;
pub mod interrupt;
pub mod memory;
pub mod simd;
pub mod stderr;
pub mod words;
