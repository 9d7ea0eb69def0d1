//! Solver tests: the shared cases (copied into `tests/cases/`), limits, and
//! property tests comparing the fast solver with the naive one.

use proptest::prelude::*;

use super::*;
use crate::grid::{Cell, Grid};

const ANTI_BACKTRACKING: &str = include_str!("../../../../tests/cases/01-anti-backtracking.txt");
const DUPLICATE_GIVENS: &str = include_str!("../../../../tests/cases/02-duplicate-givens.txt");
const NO_SOLUTION: &str = include_str!("../../../../tests/cases/04-no-solution.txt");
const MULTIPLE: &str = include_str!("../../../../tests/cases/05-multiple-solutions.txt");
const LAST_CELL: &str = include_str!("../../../../tests/cases/07-last-cell.txt");

fn grids(text: &str) -> Vec<Grid> {
    text.lines()
        .map(|line| Grid::parse(line.trim_end().as_bytes()).expect("case line is a puzzle"))
        .collect()
}

fn solvers() -> Vec<Box<dyn Solver>> {
    SolverKind::ALL.iter().map(|kind| kind.build()).collect()
}

fn solve(solver: &mut dyn Solver, grid: &Grid, mode: Mode) -> Outcome {
    solver.solve(grid, mode, &Limits::default())
}

#[test]
fn anti_backtracking_puzzle_is_solved_and_its_typo_is_multiple() {
    let cases = grids(ANTI_BACKTRACKING);
    let mut fast = FastSolver::new();
    let solved = solve(&mut fast, &cases[0], Mode::Unique);
    assert_eq!(solved.status, Status::Solved);
    let solution = solved.solution.expect("solved has a solution");
    assert!(solution.to_line().starts_with("987654321"));
    assert!(solution.is_solution_of(&cases[0]));
    let typo = solve(&mut fast, &cases[1], Mode::Unique);
    assert_eq!(typo.status, Status::Multiple);
    assert_eq!(typo.solution, None);
}

#[test]
fn naive_solver_times_out_on_anti_backtracking_puzzle_never_unsolvable() {
    let grid = grids(ANTI_BACKTRACKING)[0];
    let mut naive = NaiveSolver::with_max_placements(100_000);
    let outcome = solve(&mut naive, &grid, Mode::First);
    assert_eq!(outcome.status, Status::Timeout);
    assert_eq!(
        outcome.message.as_deref(),
        Some("placement limit 100000 exceeded")
    );
}

#[test]
fn duplicate_givens_are_invalid_before_search() {
    let cases = grids(DUPLICATE_GIVENS);
    for mut solver in solvers() {
        for grid in &cases[..5] {
            let outcome = solve(solver.as_mut(), grid, Mode::Unique);
            assert_eq!(outcome.status, Status::Invalid, "{grid}");
            assert_eq!(outcome.guesses, 0);
            assert!(outcome
                .message
                .expect("invalid has a message")
                .contains(" twice in "));
        }
        let last = solve(solver.as_mut(), &cases[5], Mode::Unique);
        assert_eq!(last.status, Status::Solved);
    }
    let first = solve(&mut FastSolver::new(), &cases[0], Mode::Unique);
    assert_eq!(
        first.message.as_deref(),
        Some("9 twice in row 1: r1c2, r1c3")
    );
}

#[test]
fn no_solution_cases_are_invalid_then_unsolvable() {
    let cases = grids(NO_SOLUTION);
    let mut fast = FastSolver::new();
    assert_eq!(
        solve(&mut fast, &cases[0], Mode::Unique).status,
        Status::Invalid
    );
    for grid in &cases[1..] {
        for mode in [Mode::Unique, Mode::First] {
            let outcome = solve(&mut fast, grid, mode);
            assert_eq!(outcome.status, Status::Unsolvable, "{grid}");
            assert_eq!(outcome.solution, None);
        }
    }
}

#[test]
fn multiple_solutions_never_report_a_solution() {
    for mut solver in solvers() {
        for grid in grids(MULTIPLE) {
            let outcome = solve(solver.as_mut(), &grid, Mode::Unique);
            assert_eq!(outcome.status, Status::Multiple, "{} {grid}", solver.name());
            assert_eq!(outcome.solution, None);
        }
    }
}

#[test]
fn multiple_names_a_cell_where_two_solutions_differ() {
    for mut solver in solvers() {
        for grid in grids(MULTIPLE) {
            let outcome = solve(solver.as_mut(), &grid, Mode::Unique);
            let message = outcome.message.expect("multiple has a message");
            // `r1c3 is 4 in one solution and 7 in another`
            let words: Vec<&str> = message.split(' ').collect();
            assert_eq!(words.len(), 10, "{message}");
            assert_eq!(
                words[1..].join(" "),
                format!(
                    "is {} in one solution and {} in another",
                    words[2], words[7]
                )
            );
            let cell = words[0].as_bytes();
            assert_eq!((cell.len(), cell[0], cell[2]), (4, b'r', b'c'), "{message}");
            let (row, col) = (cell[1] - b'1', cell[3] - b'1');
            assert!(row < 9 && col < 9, "{message}");
            assert_eq!(grid.get(Cell(row * 9 + col)), 0, "{message}: a given");
            assert_ne!(words[2], words[7], "{message}");
        }
    }
}

#[test]
fn difference_names_the_first_differing_cell() {
    let a = Grid::parse(SOLUTIONS[0].as_bytes()).expect("grid");
    let mut b = a;
    assert_eq!(difference(&a, &b), None);
    b.set(Cell(2), 9);
    b.set(Cell(40), 1);
    assert_eq!(
        difference(&a, &b).as_deref(),
        Some("r1c3 is 6 in one solution and 9 in another")
    );
}

#[test]
fn first_mode_solves_a_puzzle_with_several_solutions() {
    for grid in grids(MULTIPLE) {
        let outcome = solve(&mut FastSolver::new(), &grid, Mode::First);
        assert_eq!(outcome.status, Status::Solved);
        assert!(outcome.solution.expect("solution").is_solution_of(&grid));
    }
}

#[test]
fn last_cell_is_kept() {
    let cases = grids(LAST_CELL);
    let mut fast = FastSolver::new();
    let outcome = solve(&mut fast, &cases[0], Mode::Unique);
    assert_eq!(outcome.status, Status::Solved);
    assert_eq!(outcome.solution.expect("solution").get(Cell(80)), 7);
    assert_eq!(
        solve(&mut fast, &cases[1], Mode::Unique).status,
        Status::Multiple
    );
}

#[test]
fn guess_limit_gives_timeout_with_the_limit_in_the_message() {
    // A forum-hardest puzzle (data/forum_hardest_2000.txt, line 3).
    let grid = Grid::parse(
        b"98.7..6..7.5....9..43.....78..2....6..7.1..2......48..3..9...6.....5.3.......1..9",
    )
    .expect("puzzle");
    let unlimited = FastSolver::new().solve(&grid, Mode::Unique, &Limits::default());
    assert!(unlimited.guesses > 1);
    let limits = Limits {
        max_guesses: Some(1),
        timeout: None,
    };
    let outcome = FastSolver::new().solve(&grid, Mode::Unique, &limits);
    assert_eq!(outcome.status, Status::Timeout);
    assert_eq!(outcome.message.as_deref(), Some("guess limit 1 exceeded"));
    assert_eq!(outcome.guesses, 1, "the refused guess is not counted");
    let naive = NaiveSolver::new().solve(&grid, Mode::Unique, &limits);
    assert_eq!((naive.status, naive.guesses), (Status::Timeout, 1));
    assert_eq!(outcome.solution, None);
}

#[test]
fn guesses_count_every_candidate_tried_in_a_branching_cell() {
    let empty = FastSolver::new().solve(&Grid::EMPTY, Mode::First, &Limits::default());
    assert_eq!(empty.status, Status::Solved);
    assert!(empty.guesses >= 1);
    // The first puzzle of the Kaggle 1M slice: solved by singles alone.
    let easy = Grid::parse(
        b"004300209005009001070060043006002087190007400050083000600000105003508690042910300",
    )
    .expect("puzzle");
    let outcome = FastSolver::new().solve(&easy, Mode::Unique, &Limits::default());
    assert_eq!((outcome.status, outcome.guesses), (Status::Solved, 0));
}

#[test]
fn status_names_round_trip() {
    for status in Status::ALL {
        assert_eq!(status.name().parse::<Status>(), Ok(status));
    }
    assert!("done".parse::<Status>().is_err());
}

#[test]
fn a_status_index_is_its_place_in_all() {
    for (i, status) in Status::ALL.into_iter().enumerate() {
        assert_eq!(status.index(), i);
    }
}

/// Solution grids to build random puzzles from (cases 08 and 11).
const SOLUTIONS: [&str; 3] = [
    "316452978285679314497318562879234156142965783653187249968721435521843697734596821",
    "321597864497816253865243197579182436642375981138964725986751342214639578753428619",
    "987654321246173985351928746128537694634892157795461832519286473472319568863745219",
];

/// A valid solution grid: one of [`SOLUTIONS`] with its digits relabelled,
/// optionally transposed.
fn solution_grid() -> impl Strategy<Value = Grid> {
    (
        0..SOLUTIONS.len(),
        Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        any::<bool>(),
    )
        .prop_map(|(which, relabel, transpose)| {
            let base = Grid::parse(SOLUTIONS[which].as_bytes()).expect("solution");
            let mut grid = Grid::EMPTY;
            for cell in 0..81u8 {
                let from = if transpose {
                    cell % 9 * 9 + cell / 9
                } else {
                    cell
                };
                grid.set(Cell(cell), relabel[base.get(Cell(from)) as usize - 1]);
            }
            grid
        })
}

/// A solution grid and a puzzle made from it by blanking cells.
fn blanked_puzzle() -> impl Strategy<Value = (Grid, Grid)> {
    (
        solution_grid(),
        prop::collection::vec(0..100u8, 81),
        20..90u8,
    )
        .prop_map(|(solution, rolls, blank_pct)| {
            let mut puzzle = solution;
            for (cell, roll) in rolls.into_iter().enumerate() {
                if roll < blank_pct {
                    puzzle.set(Cell(cell as u8), 0);
                }
            }
            (solution, puzzle)
        })
}

/// Arbitrary givens: often invalid or unsolvable.
fn random_givens() -> impl Strategy<Value = Grid> {
    prop::collection::vec(prop_oneof![6 => Just(0u8), 1 => 1..=9u8], 81).prop_map(|cells| {
        let mut grid = Grid::EMPTY;
        for (cell, value) in cells.into_iter().enumerate() {
            grid.set(Cell(cell as u8), value);
        }
        grid
    })
}

proptest! {
    #[test]
    fn solved_means_a_valid_grid_keeping_the_givens(
        grid in prop_oneof![blanked_puzzle().prop_map(|(_, p)| p), random_givens()],
        first in any::<bool>(),
    ) {
        let mode = if first { Mode::First } else { Mode::Unique };
        let outcome = FastSolver::new().solve(&grid, mode, &Limits::default());
        match outcome.status {
            Status::Solved => {
                let solution = outcome.solution.expect("solved has a solution");
                prop_assert!(solution.is_solution_of(&grid));
            }
            _ => prop_assert_eq!(outcome.solution, None),
        }
        if grid.first_conflict().is_some() {
            prop_assert_eq!(outcome.status, Status::Invalid);
        }
    }

    #[test]
    fn blanking_a_solved_grid_never_gives_unsolvable_or_invalid(
        (solution, puzzle) in blanked_puzzle(),
    ) {
        let outcome = FastSolver::new().solve(&puzzle, Mode::Unique, &Limits::default());
        prop_assert!(matches!(outcome.status, Status::Solved | Status::Multiple));
        if outcome.status == Status::Solved {
            prop_assert_eq!(outcome.solution, Some(solution));
        }
    }

    #[test]
    fn fast_and_naive_agree_where_naive_finishes(
        grid in prop_oneof![blanked_puzzle().prop_map(|(_, p)| p), random_givens()],
    ) {
        let limits = Limits::default();
        let fast = FastSolver::new().solve(&grid, Mode::Unique, &limits);
        let naive = NaiveSolver::with_max_placements(200_000).solve(&grid, Mode::Unique, &limits);
        if naive.status != Status::Timeout {
            prop_assert_eq!(fast.status, naive.status);
            prop_assert_eq!(fast.solution, naive.solution);
        }
    }

    #[test]
    fn guess_count_is_the_same_on_every_run(
        grid in prop_oneof![blanked_puzzle().prop_map(|(_, p)| p), random_givens()],
    ) {
        let mut solver = FastSolver::new();
        let once = solver.solve(&grid, Mode::Unique, &Limits::default());
        let again = solver.solve(&grid, Mode::Unique, &Limits::default());
        prop_assert_eq!(once, again);
    }
}

/// The fast solver at every level this CPU has.
fn fast_paths() -> Vec<FastSolver> {
    let paths: Vec<FastSolver> = Simd::available()
        .into_iter()
        .filter_map(FastSolver::with_simd)
        .collect();
    assert_eq!(paths[0].simd(), Simd::Scalar);
    paths
}

/// Checks that every fast path and the strong engine alone give the same
/// outcome (status, solution, guesses, message) on `grid` in `mode`.
fn assert_paths_agree(paths: &mut [FastSolver], grid: &Grid, mode: Mode, limits: &Limits) {
    let reference = fast::strong_engine_only(grid, mode, limits);
    for path in paths.iter_mut() {
        let outcome = path.solve(grid, mode, limits);
        assert_eq!(outcome, reference, "{} {mode} {grid}", path.simd());
    }
}

/// The first field of every line of a shipped data file that is a puzzle.
fn shipped(name: &str, take: usize) -> Vec<Grid> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("shipped data file");
    text.lines()
        .filter_map(|line| Grid::parse(line.split(',').next()?.as_bytes()).ok())
        .take(take)
        .collect()
}

#[test]
fn every_path_agrees_on_the_shipped_corpora() {
    let mut paths = fast_paths();
    let limits = Limits::default();
    for (name, take) in [
        ("kaggle1m_10000.csv", 3000),
        ("17_clue_10000.txt", 1500),
        ("magictour_top1465.txt", 1465),
        ("forum_hardest_2000.txt", 300),
        ("top95.txt", 95),
    ] {
        let grids = shipped(name, take);
        assert_eq!(grids.len(), take, "{name}");
        for grid in &grids {
            for mode in [Mode::Unique, Mode::First] {
                assert_paths_agree(&mut paths, grid, mode, &limits);
            }
        }
    }
}

#[test]
fn propagation_before_the_first_guess_agrees_with_the_search() {
    let paths = fast_paths();
    let limits = Limits::default();
    let mut searched = 0;
    for (name, take) in [
        ("kaggle1m_10000.csv", 300),
        ("17_clue_10000.txt", 300),
        ("forum_hardest_2000.txt", 100),
    ] {
        for grid in shipped(name, take) {
            let open = paths[0].propagate_only(&grid);
            for path in &paths {
                assert_eq!(path.propagate_only(&grid), open, "{} {grid}", path.simd());
            }
            // No open cell left: solved without a guess; some left: the
            // search has to guess.
            let guesses = fast::strong_engine_only(&grid, Mode::Unique, &limits).guesses;
            assert_eq!(open == Some(0), guesses == 0, "{grid}");
            searched += usize::from(guesses > 0);
        }
    }
    assert!(searched > 100, "{searched} puzzles needed a guess");
    // A repeated given, and givens with no solution (a cell left without
    // candidates by propagation).
    let mut refused = 0;
    for text in [DUPLICATE_GIVENS, NO_SOLUTION] {
        for grid in grids(text) {
            let outcome = solve(&mut FastSolver::new(), &grid, Mode::Unique);
            if outcome.guesses == 0 && outcome.status != Status::Solved {
                refused += 1;
                for path in &paths {
                    assert_eq!(path.propagate_only(&grid), None, "{} {grid}", path.simd());
                }
            }
        }
    }
    assert!(
        refused >= 2,
        "{refused} grids without a solution before any guess"
    );
}

#[test]
fn every_path_stops_at_the_same_guess_limit() {
    let mut paths = fast_paths();
    let limits = Limits {
        max_guesses: Some(7),
        timeout: None,
    };
    for grid in shipped("forum_hardest_2000.txt", 50) {
        assert_paths_agree(&mut paths, &grid, Mode::Unique, &limits);
    }
}

/// A puzzle with more givens than it needs: a blanked solution with a few
/// blanks, so that singles alone fill it.
fn over_clued() -> impl Strategy<Value = Grid> {
    (solution_grid(), prop::collection::vec(0..81u8, 0..12)).prop_map(|(mut grid, blanks)| {
        for cell in blanks {
            grid.set(Cell(cell), 0);
        }
        grid
    })
}

/// A minimal puzzle: givens of a solution grid removed, in random order,
/// while the puzzle keeps one solution.
fn minimal() -> impl Strategy<Value = Grid> {
    (
        solution_grid(),
        Just((0..81u8).collect::<Vec<_>>()).prop_shuffle(),
    )
        .prop_map(|(mut grid, order)| {
            let mut engine = FastSolver::with_simd(Simd::Scalar).expect("scalar");
            for cell in order {
                let value = grid.get(Cell(cell));
                grid.set(Cell(cell), 0);
                if engine.solve(&grid, Mode::Unique, &Limits::default()).status != Status::Solved {
                    grid.set(Cell(cell), value);
                }
            }
            grid
        })
}

/// A valid puzzle with one given changed to another digit: often invalid,
/// else usually unsolvable.
fn contradictory() -> impl Strategy<Value = Grid> {
    (blanked_puzzle(), 0..81u8, 1..=9u8).prop_map(|((_, mut grid), cell, digit)| {
        grid.set(Cell(cell), digit);
        grid
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_path_agrees_on_random_puzzles(
        grid in prop_oneof![
            blanked_puzzle().prop_map(|(_, p)| p),
            random_givens(),
            over_clued(),
            minimal(),
            contradictory(),
        ],
        first in any::<bool>(),
    ) {
        let mode = if first { Mode::First } else { Mode::Unique };
        assert_paths_agree(&mut fast_paths(), &grid, mode, &Limits::default());
    }

    #[test]
    fn every_path_agrees_with_naive_where_naive_finishes(
        grid in prop_oneof![
            blanked_puzzle().prop_map(|(_, p)| p),
            random_givens(),
            over_clued(),
            contradictory(),
        ],
    ) {
        let limits = Limits::default();
        let naive = NaiveSolver::with_max_placements(200_000).solve(&grid, Mode::Unique, &limits);
        if naive.status != Status::Timeout {
            for mut path in fast_paths() {
                let fast = path.solve(&grid, Mode::Unique, &limits);
                prop_assert_eq!(fast.status, naive.status, "{} {}", path.simd(), grid);
                prop_assert_eq!(fast.solution, naive.solution);
            }
        }
    }
}

#[test]
fn the_environment_chooses_a_level_the_cpu_has() {
    use std::ffi::OsString;
    let value = |v: &str| Some(OsString::from(v));
    let every = |_: Simd| true;
    assert_eq!(Simd::force(None, every), Ok(None));
    assert_eq!(Simd::force(value(""), every), Ok(None));
    for level in Simd::ALL {
        assert_eq!(Simd::force(value(level.name()), every), Ok(Some(level)));
    }
    for wrong in ["AVX2", "avx", "avx-512", "sse2", " avx2"] {
        let error = Simd::force(value(wrong), every).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "SUDOKU_BATCH_SIMD={wrong}: unknown level; the levels are scalar, avx2 and avx512"
            )
        );
    }
    let no_avx512 = |s: Simd| s != Simd::Avx512;
    assert_eq!(Simd::force(value("avx2"), no_avx512), Ok(Some(Simd::Avx2)));
    let error = Simd::force(value("avx512"), no_avx512).unwrap_err();
    assert_eq!(
        error.to_string(),
        "SUDOKU_BATCH_SIMD=avx512: this CPU lacks that level (it has scalar, avx2)"
    );
    // The process's own choice: the variable's level, or the best one, and
    // the solver runs at it.
    match Simd::chosen() {
        Ok(level) => {
            assert!(level.is_available());
            assert_eq!(FastSolver::new().simd(), level);
            if Simd::forced() == Ok(None) {
                assert_eq!(level, Simd::detect());
            }
        }
        Err(_) => assert_eq!(FastSolver::new().simd(), Simd::detect()),
    }
}
