//! Single-thread solver costs per data set shipped in `data/`, split into
//! the fixed cost per puzzle and the rest:
//!
//! - `parse`: [`Grid::parse`] of the 81-character field;
//! - `conflict_check`: [`Grid::first_conflict`];
//! - `set_up/LEVEL`: the fast solver's set-up ([`FastSolver::set_up`]: unit
//!   masks, repeated-given check, open cells), at every SIMD level the CPU
//!   has;
//! - `propagate/LEVEL`: the fixed cost per puzzle apart from the search
//!   ([`FastSolver::propagate_only`]: set-up, singles and the strong
//!   engine's propagation before its first guess);
//! - `solve_unique/LEVEL`, `solve_first/LEVEL`: the whole classification;
//!   what it costs beyond `propagate` is the search.
//!
//! Throughput is in puzzles (criterion's elements). Printed once per data
//! set: the open cells propagation leaves and the share of puzzles it
//! solves, and per mode the nodes of the search per puzzle: its guesses
//! (each one a propagation) and the puzzles needing none. The naive solver is the baseline on
//! the easy Kaggle slice, the only set it finishes in reasonable time.
//!
//! Run with `cargo bench -p sudoku-batch-bench` (from the workspace root).

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_core::grid::Grid;
use sudoku_core::solver::{FastSolver, Limits, Mode, NaiveSolver, Simd, Solver};

/// The puzzle fields of a shipped data file: the first field of every line
/// that parses as a puzzle (comments, headers and blank lines fall out).
fn load(name: &str, take: usize) -> Vec<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| line.split([',', ' ', '\t']).next())
        .filter(|field| Grid::parse(field.as_bytes()).is_ok())
        .take(take)
        .map(|field| field.as_bytes().to_vec())
        .collect()
}

fn bench_set(c: &mut Criterion, label: &str, file: &str, take: usize) {
    let fields = load(file, take);
    let grids: Vec<Grid> = fields.iter().filter_map(|f| Grid::parse(f).ok()).collect();
    let limits = Limits::default();
    let n = grids.len().max(1) as f64;
    let open: Vec<Option<usize>> = grids
        .iter()
        .map(|g| FastSolver::new().propagate_only(g))
        .collect();
    eprintln!(
        "{label}: {} puzzles; propagation before any guess leaves {:.1} open cells/puzzle and solves {:.1} %",
        grids.len(),
        open.iter().flatten().sum::<usize>() as f64 / n,
        100.0 * open.iter().filter(|o| **o == Some(0)).count() as f64 / n
    );
    for mode in [Mode::Unique, Mode::First] {
        let mut solver = FastSolver::new();
        let guesses: Vec<u64> = grids
            .iter()
            .map(|g| solver.solve(g, mode, &limits).guesses)
            .collect();
        eprintln!(
            "{label}, {mode}: {:.2} nodes (guesses)/puzzle, {:.1} % of puzzles without a guess",
            guesses.iter().sum::<u64>() as f64 / n,
            100.0 * guesses.iter().filter(|g| **g == 0).count() as f64 / n
        );
    }
    let mut group = c.benchmark_group(label);
    group.throughput(Throughput::Elements(grids.len() as u64));
    group.sample_size(10);
    group.bench_function("parse", |b| {
        b.iter(|| {
            for field in &fields {
                let _ = black_box(Grid::parse(black_box(field)));
            }
        })
    });
    group.bench_function("conflict_check", |b| {
        b.iter(|| {
            for grid in &grids {
                black_box(black_box(grid).first_conflict());
            }
        })
    });
    for simd in Simd::available() {
        let Some(mut solver) = FastSolver::with_simd(simd) else {
            continue;
        };
        group.bench_function(format!("set_up/{simd}"), |b| {
            b.iter(|| {
                for grid in &grids {
                    black_box(solver.set_up(black_box(grid)));
                }
            })
        });
        group.bench_function(format!("propagate/{simd}"), |b| {
            b.iter(|| {
                for grid in &grids {
                    black_box(solver.propagate_only(black_box(grid)));
                }
            })
        });
        for mode in [Mode::Unique, Mode::First] {
            group.bench_function(format!("solve_{mode}/{simd}"), |b| {
                b.iter(|| {
                    for grid in &grids {
                        black_box(solver.solve(black_box(grid), mode, &limits));
                    }
                })
            });
        }
    }
    group.finish();
}

fn naive_baseline(c: &mut Criterion) {
    let grids: Vec<Grid> = load("kaggle1m_10000.csv", 1000)
        .iter()
        .filter_map(|f| Grid::parse(f).ok())
        .collect();
    let mut naive = NaiveSolver::new();
    let limits = Limits::default();
    let mut group = c.benchmark_group("kaggle");
    group.throughput(Throughput::Elements(grids.len() as u64));
    group.sample_size(10);
    group.bench_function("naive_unique", |b| {
        b.iter(|| {
            for grid in &grids {
                black_box(naive.solve(black_box(grid), Mode::Unique, &limits));
            }
        })
    });
    group.finish();
}

fn solvers(c: &mut Criterion) {
    bench_set(c, "kaggle", "kaggle1m_10000.csv", usize::MAX);
    bench_set(c, "17_clue", "17_clue_10000.txt", usize::MAX);
    bench_set(c, "top1465", "magictour_top1465.txt", usize::MAX);
    bench_set(c, "forum_hardest", "forum_hardest_2000.txt", usize::MAX);
    naive_baseline(c);
}

criterion_group!(benches, solvers);
criterion_main!(benches);
