//! Single-thread solver throughput in unique mode on the corpora shipped in
//! `data/`: puzzles/s (criterion's element throughput) per data set, and
//! guesses per puzzle printed once per data set. The naive solver is the
//! baseline on the easy Kaggle slice, the only set it finishes in reasonable
//! time.
//!
//! Run with `cargo bench --bench solver`.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_batch::grid::Grid;
use sudoku_batch::solver::{Limits, Mode, SolverKind};

/// The puzzles of a shipped data file: the first field of every line that
/// parses as a puzzle (comments, headers and blank lines fall out).
fn load(name: &str) -> Vec<Grid> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| {
            let field = line.split([',', ' ', '\t']).next()?;
            Grid::parse(field.as_bytes()).ok()
        })
        .collect()
}

fn bench_set(c: &mut Criterion, label: &str, file: &str, kind: SolverKind, take: usize) {
    let grids: Vec<Grid> = load(file).into_iter().take(take).collect();
    let mut solver = kind.build();
    let limits = Limits::default();
    let guesses: u64 = grids
        .iter()
        .map(|g| solver.solve(g, Mode::Unique, &limits).guesses)
        .sum();
    eprintln!(
        "{label} ({}): {} puzzles, {:.2} guesses/puzzle",
        kind.name(),
        grids.len(),
        guesses as f64 / grids.len() as f64
    );
    let mut group = c.benchmark_group(label);
    group.throughput(Throughput::Elements(grids.len() as u64));
    group.sample_size(10);
    group.bench_function(kind.name(), |b| {
        b.iter(|| {
            for grid in &grids {
                black_box(solver.solve(black_box(grid), Mode::Unique, &limits));
            }
        })
    });
    group.finish();
}

fn solvers(c: &mut Criterion) {
    bench_set(
        c,
        "17_clue",
        "17_clue_10000.txt",
        SolverKind::Fast,
        usize::MAX,
    );
    bench_set(
        c,
        "top1465",
        "magictour_top1465.txt",
        SolverKind::Fast,
        usize::MAX,
    );
    bench_set(
        c,
        "forum_hardest",
        "forum_hardest_2000.txt",
        SolverKind::Fast,
        usize::MAX,
    );
    bench_set(c, "kaggle", "kaggle1m_10000.csv", SolverKind::Fast, 1000);
    bench_set(c, "kaggle", "kaggle1m_10000.csv", SolverKind::Naive, 1000);
}

criterion_group!(benches, solvers);
criterion_main!(benches);
