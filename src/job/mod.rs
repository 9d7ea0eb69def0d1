//! Running a job: the validated settings of a run ([`config`]), the
//! parallel [`pipeline`] that reads, solves and hands rows on in input
//! order, puzzles held in memory instead of files ([`in_memory`], for the
//! Python package and other front ends), rating solved puzzles
//! ([`rating`]), continuing an unfinished results file ([`resume`]) and
//! one shard of a corpus ([`shard`]); one record solved, timed and
//! checked ([`solved`]); where a solution differs from the one given
//! ([`difference`]).

pub mod config;
pub mod difference;
pub mod in_memory;
pub mod pipeline;
pub mod rating;
pub mod resume;
pub mod shard;
pub mod solved;
