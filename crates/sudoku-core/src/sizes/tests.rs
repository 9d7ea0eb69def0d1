//! Property tests: the fast solver against the reference on random
//! puzzles of every shape up to 16x16.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};

use super::*;
use crate::solver::{Limits, Mode, Status};

/// Every box shape up to 16x16.
const SHAPES: [(usize, usize); 8] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (3, 3),
    (2, 5),
    (3, 4),
    (4, 4),
];

/// A random puzzle of `shape`: a generated solution grid with each cell
/// kept with probability `keep`, and `noise` cells set to random values
/// (which may make it invalid, unsolvable or give it several solutions).
fn puzzle(shape: Shape, seed: u64, keep: f64, noise: usize) -> SizedGrid {
    let mut generator = SizedGenerator::new(shape);
    let solution = generator
        .generate(seed, 0, false, &|| false)
        .unwrap()
        .solution;
    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(seed ^ 0x5eed);
    let n = shape.side();
    let cells = solution
        .cells()
        .iter()
        .map(|&v| if rng.random::<f64>() < keep { v } else { 0 })
        .collect();
    let mut grid = SizedGrid::from_cells(shape, cells).unwrap();
    for _ in 0..noise {
        let cell = rng.random_range(0..n * n);
        grid.set(cell, rng.random_range(0..=n as u8));
    }
    grid
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fast_agrees_with_the_reference(
        which in 0..SHAPES.len(),
        seed in any::<u64>(),
        keep in 0.3f64..0.95,
        noise in 0usize..3,
        first in any::<bool>(),
    ) {
        let (r, c) = SHAPES[which];
        let shape = Shape::new(r, c).unwrap();
        // The reference is slow on sparse large grids: keep more there.
        let keep = if shape.side() >= 12 { keep.max(0.6) } else { keep };
        let grid = puzzle(shape, seed, keep, noise);
        let mode = if first { Mode::First } else { Mode::Unique };
        let symbols = Symbols::for_side(shape.side());
        let limits = Limits::default();
        let reference = ReferenceSolver::with_max_placements(2_000_000).solve(&grid, &symbols, mode, &limits);
        prop_assume!(reference.status != Status::Timeout);
        for mut fast in [SizedSolver::new(), SizedSolver::basic()] {
            let fast = fast.solve(&grid, &symbols, mode, &limits);
            prop_assert_eq!(fast.status, reference.status);
            match (fast.status, mode) {
                (Status::Solved, Mode::Unique) => prop_assert_eq!(&fast.solution, &reference.solution),
                (Status::Solved, Mode::First) => prop_assert!(fast.solution.unwrap().is_solution_of(&grid)),
                (Status::Invalid, _) => prop_assert_eq!(&fast.message, &reference.message),
                _ => {}
            }
        }
    }
}

#[test]
fn generated_puzzles_are_unique_and_minimal() {
    for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)] {
        let shape = Shape::new(r, c).unwrap();
        let minimal = shape.side() <= 16;
        let made = SizedGenerator::new(shape)
            .generate(7, 1, minimal, &|| false)
            .unwrap();
        let symbols = Symbols::for_side(shape.side());
        let mut solver = SizedSolver::new();
        let outcome = solver.solve(&made.puzzle, &symbols, Mode::Unique, &Limits::default());
        assert_eq!(outcome.status, Status::Solved, "{shape}");
        assert_eq!(outcome.solution.as_ref(), Some(&made.solution));
        assert!(made.solution.is_solution_of(&made.puzzle));
        if minimal {
            // Every given is needed: removing any gives several solutions.
            for cell in (0..made.puzzle.cells().len())
                .filter(|&c| made.puzzle.get(c) != 0)
                .take(12)
            {
                let mut less = made.puzzle.clone();
                less.set(cell, 0);
                let status = solver
                    .solve(&less, &symbols, Mode::Unique, &Limits::default())
                    .status;
                assert_eq!(status, Status::Multiple, "{shape} cell {cell}");
            }
        }
    }
}

#[test]
fn statuses_and_messages_name_symbols() {
    let symbols = Symbols::for_side(16);
    let mut grid = SizedGrid::empty(Shape::usual(16).unwrap());
    grid.set(2 * 16 + 1, 20 - 9);
    grid.set(2 * 16 + 8, 20 - 9);
    let outcome = SizedSolver::new().solve(&grid, &symbols, Mode::Unique, &Limits::default());
    assert_eq!(outcome.status, Status::Invalid);
    assert_eq!(
        outcome.message.as_deref(),
        Some("B twice in row 3: r3c2, r3c9")
    );
    let empty = SizedGrid::empty(Shape::usual(16).unwrap());
    let outcome = SizedSolver::new().solve(&empty, &symbols, Mode::Unique, &Limits::default());
    assert_eq!(outcome.status, Status::Multiple);
    assert!(outcome.message.unwrap().contains("in one solution and"));
    let limits = Limits {
        max_guesses: Some(3),
        timeout: None,
    };
    let outcome = SizedSolver::new().solve(&empty, &symbols, Mode::Unique, &limits);
    assert_eq!(outcome.status, Status::Timeout);
    assert_eq!(outcome.message.as_deref(), Some("guess limit 3 exceeded"));
}

#[test]
fn the_largest_grids_solve() {
    for side in [36, 49, 64] {
        let shape = Shape::usual(side).unwrap();
        let made = SizedGenerator::new(shape)
            .generate(1, 0, false, &|| false)
            .unwrap();
        let outcome = SizedSolver::new().solve(
            &made.puzzle,
            &Symbols::Numbers,
            Mode::First,
            &Limits::default(),
        );
        assert!(
            outcome.solution.unwrap().is_solution_of(&made.puzzle),
            "{side}"
        );
    }
}

#[test]
fn generated_grids_stay_those_of_the_first_release_under_a_seed() {
    // `generate -n 2 --size 16 --no-minimal --seed 7`, row 1, from the
    // binary before the fast solver's guess order changed: the completion
    // keeps the basic solver's order, so a seed gives the same puzzles.
    let shape = Shape::usual(16).unwrap();
    let made = SizedGenerator::new(shape)
        .generate(7, 1, false, &|| false)
        .unwrap();
    let symbols = Symbols::for_side(16);
    assert_eq!(
        symbols.format(&made.puzzle, b'.'),
        "C6.BFD.8A45.G..3.83.6G.5..FB...4..9..E1.3.G.7F.C.GA4B3.7.CE.6..8\
         7..C32E.8.4....FEB..D.5.F.63.7...3.2.F7C...G..6.A54.G.B..7.D9E.2\
         87B52C...9..A6G..C.17..EG52.83.9..G69..F.B8E54.D9EF.5A.G.6D.1B27\
         .45....2.GB8...6..CE.6A.5...D24.B.7.E5G4.FC239..6.2.C.FB.3....7G"
    );
}

#[test]
fn an_interrupt_stops_a_puzzle_being_made() {
    // A minimal 25x25 puzzle takes a minute; asked to stop after a few
    // questions, the generator gives up within them.
    let shape = Shape::usual(25).unwrap();
    let asked = std::cell::Cell::new(0u32);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() > 40
    };
    assert_eq!(SizedGenerator::new(shape).generate(0, 1, true, &stop), None);
    // The search that heard it ends, and the generator asks once more
    // before starting another grid.
    assert!((41..=42).contains(&asked.get()), "{}", asked.get());
}

#[test]
fn a_time_limit_stops_the_first_propagation_not_only_the_guesses() {
    // The clock was read only at every 16th guess, so a big grid's first
    // propagation (0.1 s and more at 64x64) ran past any --timeout-ms; it
    // is read once a round of the rules now, before any guess here.
    for side in [16, 25, 36, 64] {
        let shape = Shape::usual(side).unwrap();
        let limits = Limits {
            max_guesses: None,
            timeout: Some(std::time::Duration::ZERO),
        };
        let outcome = SizedSolver::new().solve(
            &SizedGrid::empty(shape),
            &Symbols::for_side(side),
            Mode::First,
            &limits,
        );
        assert_eq!(outcome.status, Status::Timeout, "{side}");
        assert_eq!(outcome.guesses, 0, "{side}");
    }
}

#[test]
fn only_a_nine_by_nine_with_three_by_three_boxes_is_solved_as_nine() {
    let mut solver = crate::solver::SolverKind::Fast.build();
    let limits = Limits::default();
    let symbols = Symbols::ZeroNumbers;
    for (rows, cols) in [(1, 9), (9, 1), (4, 4)] {
        let shape = Shape::new(rows, cols).unwrap();
        let grid = SizedGrid::empty(shape);
        assert_eq!(nine_grid(&grid), None, "{shape}");
        let outcome = solve_as_nine(solver.as_mut(), &grid, &symbols, Mode::First, &limits);
        assert_eq!(outcome, None, "{shape}");
    }
    // A conflict named from 0 as the solver of every size names it.
    let shape = Shape::new(3, 3).unwrap();
    let mut twice = SizedGrid::empty(shape);
    twice.set(3, 5);
    twice.set(30, 5);
    let nine = solve_as_nine(solver.as_mut(), &twice, &symbols, Mode::Unique, &limits).unwrap();
    let sized = SizedSolver::new().solve(&twice, &symbols, Mode::Unique, &limits);
    assert_eq!(
        nine.message.as_deref(),
        Some("4 twice in column 4: r1c4, r4c4")
    );
    assert_eq!((nine.status, nine.message), (sized.status, sized.message));
    // The 9x9 engine's evidence of two solutions, its values from 0.
    let empty = SizedGrid::empty(shape);
    let nine = solve_as_nine(solver.as_mut(), &empty, &symbols, Mode::Unique, &limits).unwrap();
    let digits = solver.solve(
        &crate::grid::Grid::from_cells([0; 81]).unwrap(),
        Mode::Unique,
        &limits,
    );
    let from_zero: Vec<String> = digits
        .message
        .unwrap()
        .split(' ')
        .enumerate()
        .map(|(i, word)| match (i, word.parse::<u8>()) {
            (2 | 7, Ok(digit)) => (digit - 1).to_string(),
            _ => word.to_string(),
        })
        .collect();
    assert_eq!(
        (nine.status, nine.guesses, nine.message),
        (digits.status, digits.guesses, Some(from_zero.join(" ")))
    );
}
