//! Solver agreement: any 81-cell grid through every SIMD path of the fast
//! solver this CPU has (scalar, AVX2, AVX-512) and the naive solver.
//!
//! Invariants:
//! - every SIMD path gives the same outcome (status, solution, guesses,
//!   message), in `unique` and in `first` mode;
//! - the naive solver (placement-limited) gives the same status whenever
//!   neither solver hit its limit, and in `unique` mode the same solution;
//! - a `solved` outcome's solution is a complete grid that keeps every
//!   given; `unique` and `first` mode agree (`solved` in one and `multiple`
//!   in the other only, same solution when both are `solved`);
//! - `invalid` happens exactly when the grid repeats a digit in a unit,
//!   and its message (`9 twice in row 1: r1c2, r1c3`) names two cells of
//!   that unit holding that digit.
//!
//! The grid is either raw (each byte a digit, most bytes a blank) or a
//! known solution relabelled, with cells blanked and a few changed, so that
//! solved, multiple, unsolvable and invalid grids are all common.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::solver::{FastSolver, Limits, Mode, NaiveSolver, Outcome, Simd, Solver, Status};

/// Guesses the fast solver may make: enough for any grid fuzzing makes in
/// practice, few enough that a run stays fast.
const MAX_GUESSES: u64 = 20_000;
/// Placements the naive solver may make.
const MAX_PLACEMENTS: u64 = 200_000;

/// A valid complete grid, relabelled and masked by the fuzz input.
const SOLUTION: &[u8; CELLS] =
    b"534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[derive(Arbitrary, Debug)]
enum Input {
    /// Each byte a cell: below 150 a blank, else a digit 1-9 (or 0).
    Raw([u8; CELLS]),
    /// [`SOLUTION`] with digits relabelled by `labels`, the cells whose
    /// bit in `mask` is clear blanked, and each `(cell, digit)` of `edits`
    /// written over.
    Derived {
        labels: [u8; 9],
        mask: [u8; 11],
        edits: Vec<(u8, u8)>,
    },
}

fn grid(input: &Input) -> Grid {
    let mut cells = [0u8; CELLS];
    match input {
        Input::Raw(bytes) => {
            for (cell, &b) in cells.iter_mut().zip(bytes) {
                *cell = if b < 150 { 0 } else { b % 10 };
            }
        }
        Input::Derived {
            labels,
            mask,
            edits,
        } => {
            // A permutation of 1..=9 from `labels`, by selection.
            let mut digits: Vec<u8> = (1..=9).collect();
            let mut relabel = [0u8; 10];
            for (d, &l) in (1..=9).zip(labels) {
                relabel[d] = digits.remove(usize::from(l) % digits.len());
            }
            for (i, cell) in cells.iter_mut().enumerate() {
                if mask[i / 8] >> (i % 8) & 1 == 1 {
                    *cell = relabel[usize::from(SOLUTION[i] - b'0')];
                }
            }
            for &(cell, digit) in edits.iter().take(8) {
                cells[usize::from(cell) % CELLS] = digit % 10;
            }
        }
    }
    Grid::from_cells(cells).expect("cells are 0-9")
}

/// Checks that `message` names a real repeat of `grid`:
/// `D twice in KIND N: rRcC, rRcC`.
fn check_invalid(grid: &Grid, message: &str) {
    let bad = || panic!("invalid message {message:?} names no repeat of {grid}");
    let Some((head, cells)) = message.split_once(": ") else {
        bad()
    };
    let mut words = head.split(' ');
    let digit: u8 = words
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| bad());
    let kind = words.nth(2).unwrap_or_else(|| bad());
    let index: usize = words
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| bad());
    let cell = |text: &str| -> (usize, usize) {
        let text = text.trim();
        let (r, c) = text
            .strip_prefix('r')
            .and_then(|t| t.split_once('c'))
            .unwrap_or_else(|| bad());
        let (r, c): (usize, usize) = (
            r.parse().unwrap_or_else(|_| bad()),
            c.parse().unwrap_or_else(|_| bad()),
        );
        assert!((1..=9).contains(&r) && (1..=9).contains(&c), "{message}");
        (r - 1, c - 1)
    };
    let Some((a, b)) = cells.split_once(',') else {
        bad()
    };
    let (a, b) = (cell(a), cell(b));
    assert_ne!(a, b, "{message}");
    for (r, c) in [a, b] {
        assert_eq!(grid.cells()[r * 9 + c], digit, "{message} on {grid}");
        let unit = match kind {
            "row" => r,
            "column" => c,
            "box" => r / 3 * 3 + c / 3,
            _ => bad(),
        };
        assert_eq!(unit + 1, index, "{message}");
    }
}

/// True when some unit of `grid` holds a digit twice.
fn has_repeat(grid: &Grid) -> bool {
    let cells = grid.cells();
    let units = (0..9).flat_map(|i| {
        [
            (0..9).map(|j| i * 9 + j).collect::<Vec<_>>(),
            (0..9).map(|j| j * 9 + i).collect(),
            (0..9)
                .map(|j| (i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3)
                .collect(),
        ]
    });
    units.into_iter().any(|unit| {
        let mut seen = 0u16;
        unit.iter().any(|&k| {
            let d = cells[k];
            let again = d != 0 && seen >> d & 1 == 1;
            seen |= 1 << d;
            again
        })
    })
}

fn check_outcome(grid: &Grid, outcome: &Outcome, who: &str) {
    match outcome.status {
        Status::Solved => {
            let solution = outcome.solution.as_ref().expect("solved has a solution");
            assert!(
                solution.is_solution_of(grid),
                "{who}: {solution} for {grid}"
            );
        }
        Status::Invalid => {
            assert!(outcome.solution.is_none());
            check_invalid(grid, outcome.message.as_deref().unwrap_or(""));
        }
        _ => assert!(outcome.solution.is_none(), "{who}: {outcome:?}"),
    }
    assert_eq!(
        outcome.status == Status::Invalid,
        has_repeat(grid),
        "{who}: {outcome:?} for {grid}"
    );
}

fuzz_target!(|input: Input| {
    let grid = grid(&input);
    let limits = Limits {
        max_guesses: Some(MAX_GUESSES),
        timeout: None,
    };
    let mut by_mode = Vec::new();
    for mode in [Mode::Unique, Mode::First] {
        let mut fast: Option<(Simd, Outcome)> = None;
        for simd in Simd::available() {
            let mut solver = FastSolver::with_simd(simd).expect("available");
            let outcome = solver.solve(&grid, mode, &limits);
            check_outcome(&grid, &outcome, simd.name());
            match &fast {
                None => fast = Some((simd, outcome)),
                Some((first, expected)) => assert_eq!(
                    &outcome, expected,
                    "{simd} and {first} differ on {grid} ({mode})"
                ),
            }
        }
        let (_, fast) = fast.expect("scalar is always available");
        let naive = NaiveSolver::with_max_placements(MAX_PLACEMENTS).solve(&grid, mode, &limits);
        check_outcome(&grid, &naive, "naive");
        if fast.status != Status::Timeout && naive.status != Status::Timeout {
            assert_eq!(
                naive.status, fast.status,
                "naive and fast on {grid} ({mode})"
            );
            if mode == Mode::Unique {
                assert_eq!(naive.solution, fast.solution, "naive and fast on {grid}");
            }
        }
        by_mode.push(fast);
    }
    let (unique, first) = (&by_mode[0], &by_mode[1]);
    match (unique.status, first.status) {
        (Status::Timeout, _) | (_, Status::Timeout) => {}
        (Status::Multiple, Status::Solved) => {}
        (Status::Solved, Status::Solved) => assert_eq!(unique.solution, first.solution),
        (u, f) => assert_eq!(u, f, "unique and first mode on {grid}"),
    }
});
