//! One record solved: a malformed record's result made of the reader's
//! message, a puzzle solved by the worker's solver and timed (the
//! classification and search of this puzzle alone), and its solution
//! checked against the one the input gives. The [`pipeline`](super::pipeline)
//! calls it for every record (inlined into its workers' runs, at their
//! width), as [`in_memory`](super::in_memory) and `check` do.

use std::cell::RefCell;

use sudoku_core::grid::Grid;
use sudoku_core::sizes::{solve_as_nine, ReferenceSolver, SizedSearcher, SizedSolver};
use sudoku_core::solver::{Limits, Mode, Outcome, Solver, SolverKind, Status};

use super::difference::Difference;
use crate::input::Record;
use crate::output::result::{Check, PuzzleResult, SizedResult};
use crate::process::clock::Stopwatch;

/// Classifies one record: a malformed record becomes a `malformed` result
/// with the reader's message; a puzzle is solved and timed (`solve_ns`
/// covers the classification and search of this puzzle alone), and its
/// solution checked against the one the input gives, if any. An expected
/// status that names no status ([`Record::status_error`]) makes the check
/// `mismatch`, whatever the status, saying why in the message.
pub fn solve_record(
    solver: &mut dyn Solver,
    input: usize,
    mut record: Record,
    mode: Mode,
    limits: &Limits,
) -> PuzzleResult {
    let status_error = record.status_error.take();
    let mut result = solve_checked(solver, input, record, mode, limits);
    if let Some(why) = status_error {
        result.check = Some(Check::Mismatch);
        add_to_message(&mut result.message, &why);
    }
    result
}

/// [`solve_record`] but for an expected status that names no status.
#[inline(always)]
fn solve_checked(
    solver: &mut dyn Solver,
    input: usize,
    record: Record,
    mode: Mode,
    limits: &Limits,
) -> PuzzleResult {
    let grid = match record.puzzle {
        Ok(grid) => grid,
        Err(_) if record.sized.is_some() => {
            return solve_sized(solver, input, record, mode, limits);
        }
        Err(message) => {
            return PuzzleResult {
                input,
                line: record.line,
                puzzle: None,
                status: Status::Malformed,
                solution: None,
                guesses: None,
                solve_ns: None,
                check: None,
                message: Some(message),
                expected: record.expected,
                kept: record.kept,
                sized: None,
                rating: None,
            }
        }
    };
    let solved = Solved::new(
        solver,
        &grid,
        record.solution.as_ref(),
        record.solution_error.as_deref(),
        mode,
        limits,
    );
    PuzzleResult {
        expected: record.expected,
        kept: record.kept,
        ..solved.into_result(input, record.line, grid)
    }
}

/// A 9x9 puzzle solved, timed (`solve_ns` covers its classification and
/// search alone) and its solution checked against the one its input gives,
/// if any: the fields of its result.
pub(crate) struct Solved {
    /// The solver's outcome, its message with the check's added.
    pub(crate) outcome: Outcome,
    /// Nanoseconds of the classification and search.
    pub(crate) solve_ns: u64,
    pub(crate) check: Option<Check>,
}

impl Solved {
    /// Inlined always, so that it runs at the width of the `solve_runs`
    /// copy that calls it: left out of line (compiled at the base width)
    /// it was 3 % of a run's samples, 94 instructions a row of its own.
    #[inline(always)]
    pub(crate) fn new(
        solver: &mut dyn Solver,
        grid: &Grid,
        given: Option<&Grid>,
        solution_error: Option<&str>,
        mode: Mode,
        limits: &Limits,
    ) -> Solved {
        let stopwatch = Stopwatch::start();
        let outcome = solver.solve(grid, mode, limits);
        let solve_ns = stopwatch.elapsed_ns();
        Solved::checked(outcome, solve_ns, given, solution_error)
    }

    /// A puzzle solved with `outcome` in `solve_ns`, its solution checked
    /// against the one its input gives (`given`), if any. Inlined always,
    /// as [`Solved::new`].
    #[inline(always)]
    pub(crate) fn checked(
        mut outcome: Outcome,
        solve_ns: u64,
        given: Option<&Grid>,
        solution_error: Option<&str>,
    ) -> Solved {
        let check = check_solution(
            outcome.status,
            outcome.solution.as_ref(),
            given,
            solution_error,
            &mut outcome.message,
            Difference::nine,
        );
        Solved {
            outcome,
            solve_ns,
            check,
        }
    }

    /// The result of the puzzle `puzzle` of input `input`'s line `line` so
    /// solved, with no expected status or kept value.
    pub(crate) fn into_result(self, input: usize, line: u64, puzzle: Grid) -> PuzzleResult {
        PuzzleResult {
            input,
            line,
            puzzle: Some(puzzle),
            status: self.outcome.status,
            solution: self.outcome.solution,
            guesses: Some(self.outcome.guesses),
            solve_ns: Some(self.solve_ns),
            check: self.check,
            message: self.outcome.message,
            expected: None,
            kept: Vec::new(),
            sized: None,
            rating: None,
        }
    }
}

/// The check of a found solution against the record's given one, for a
/// grid of any size: `Ok` or `Mismatch` for a solved puzzle with a given
/// solution, else none. A mismatch adds to `message` where the grids
/// differ, as `differ` finds it ([`Difference::mismatch`]: `r3c7: given 5,
/// solved 8 (4 cells differ)`). A given solution that is not a grid never
/// passes, whatever the status: `solution_error` says why and is added to
/// `message`.
///
/// The common cases (no given solution, or one found again) are inlined
/// into the caller, at its width: out of line, the grids' comparison ran
/// at the base width, 44 instructions a row.
#[inline(always)]
pub(crate) fn check_solution<G: PartialEq>(
    status: Status,
    found: Option<&G>,
    given: Option<&G>,
    solution_error: Option<&str>,
    message: &mut Option<String>,
    differ: impl Fn(&G, &G) -> Option<Difference>,
) -> Option<Check> {
    if solution_error.is_none() {
        match (found, given) {
            (_, None) => return None,
            (Some(found), Some(given)) if status == Status::Solved && found == given => {
                return Some(Check::Ok);
            }
            _ => {}
        }
    }
    check_the_rest(status, found, given, solution_error, message, differ)
}

/// [`check_solution`] of what its inlined part leaves.
fn check_the_rest<G: PartialEq>(
    status: Status,
    found: Option<&G>,
    given: Option<&G>,
    solution_error: Option<&str>,
    message: &mut Option<String>,
    differ: impl Fn(&G, &G) -> Option<Difference>,
) -> Option<Check> {
    let mut add = |why: &str| add_to_message(message, why);
    if let Some(why) = solution_error {
        add(why);
        return Some(Check::Mismatch);
    }
    match (found, given) {
        (Some(found), Some(given)) if status == Status::Solved => {
            if found == given {
                return Some(Check::Ok);
            }
            if let Some(difference) = differ(given, found) {
                add(&difference.mismatch());
            }
            Some(Check::Mismatch)
        }
        _ => None,
    }
}

/// `message` with `why` added: after what it says, if anything.
fn add_to_message(message: &mut Option<String>, why: &str) {
    *message = Some(match message.take() {
        Some(first) => format!("{first}; {why}"),
        None => why.to_string(),
    });
}

thread_local! {
    /// Each worker's solver for grids of other sizes (it keeps its
    /// geometry and search stack between puzzles).
    static SIZED: RefCell<SizedSolver> = RefCell::new(SizedSolver::new());
}

/// [`solve_record`] for a grid read in another alphabet than the digits
/// `1`-`9` or of another size than 9x9: the same statuses, guesses,
/// timing and check. A 9x9 grid with 3x3 boxes (numbered from 0:
/// `3,-1,-1,7,...`) is solved by the run's 9x9 `solver`, as the same
/// puzzle written in digits is ([`solve_as_nine`]); any other by the fast
/// solver of every size, or the reference one when the run asks for the
/// `naive` solver. Messages name values in the record's alphabet.
fn solve_sized(
    solver: &mut dyn Solver,
    input: usize,
    record: Record,
    mode: Mode,
    limits: &Limits,
) -> PuzzleResult {
    let Some(sized) = record.sized else {
        unreachable!("solve_sized is called for sized records")
    };
    let nine = sized.puzzle.shape().is_nine();
    let naive = solver.name() == SolverKind::Naive.name();
    // The grid's geometry is the solver's, built once per worker and
    // shape, off the puzzle's clock (its time and its `--timeout-ms`).
    if !naive && !nine {
        SIZED.with(|s| s.borrow_mut().prepare(sized.puzzle.shape()));
    }
    let stopwatch = Stopwatch::start();
    let outcome = match solve_as_nine(solver, &sized.puzzle, &sized.symbols, mode, limits) {
        Some(outcome) => outcome,
        None if naive => ReferenceSolver::new().solve(&sized.puzzle, &sized.symbols, mode, limits),
        None => SIZED.with(|s| {
            s.borrow_mut()
                .solve(&sized.puzzle, &sized.symbols, mode, limits)
        }),
    };
    let solve_ns = stopwatch.elapsed_ns();
    let mut message = outcome.message;
    let check = check_solution(
        outcome.status,
        outcome.solution.as_ref(),
        sized.solution.as_ref(),
        record.solution_error.as_deref(),
        &mut message,
        |given, found| Difference::sized(given, found, &sized.symbols),
    );
    PuzzleResult {
        input,
        line: record.line,
        puzzle: None,
        status: outcome.status,
        solution: None,
        guesses: Some(outcome.guesses),
        solve_ns: Some(solve_ns),
        check,
        message,
        expected: record.expected,
        kept: record.kept,
        sized: Some(Box::new(SizedResult {
            puzzle: sized.puzzle,
            symbols: sized.symbols,
            solution: outcome.solution,
        })),
        rating: None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use sudoku_core::sizes::{Shape, SizedGenerator, SizedGrid, Symbols};

    use super::*;
    use crate::input::SizedRecord;

    /// A puzzle of one solution.
    pub(crate) const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";

    /// Line `line`'s record of the 9x9 grid `text` (malformed when it is none).
    pub(crate) fn record(line: u64, text: &[u8]) -> Record {
        Record::new(line, Grid::parse(text).map_err(|e| e.to_string()), None)
    }

    #[test]
    fn given_solutions_are_checked() {
        let mut solver = SolverKind::Fast.build();
        let plain = record(3, PUZZLE);
        let solved = solve_record(
            solver.as_mut(),
            0,
            plain.clone(),
            Mode::Unique,
            &Limits::default(),
        );
        let solution = solved.solution.expect("the puzzle has one solution");
        assert!(solution.is_solution_of(&solved.puzzle.unwrap()));
        assert_eq!(solved.check, None);

        let right = Record {
            solution: Some(solution),
            ..plain.clone()
        };
        let ok = solve_record(solver.as_mut(), 0, right, Mode::Unique, &Limits::default());
        assert_eq!(ok.check, Some(Check::Ok));

        let wrong = Record {
            solution: Some(Grid::parse(PUZZLE).unwrap()),
            ..plain
        };
        let bad = solve_record(solver.as_mut(), 0, wrong, Mode::Unique, &Limits::default());
        assert_eq!(bad.check, Some(Check::Mismatch));
        assert!(bad.is_failure());
        let message = bad.message.unwrap_or_default();
        assert!(message.starts_with("r1c1: given ."), "{message}");
        assert!(message.ends_with(" cells differ)"), "{message}");

        let junk = Record {
            solution_error: Some("given solution is not a grid: 80 cells, expected 81".into()),
            ..record(3, PUZZLE)
        };
        let junk = solve_record(solver.as_mut(), 0, junk, Mode::Unique, &Limits::default());
        assert_eq!(
            (junk.status, junk.check),
            (Status::Solved, Some(Check::Mismatch))
        );
        assert_eq!(
            junk.message.as_deref(),
            Some("given solution is not a grid: 80 cells, expected 81")
        );
        assert!(junk.is_failure());
    }

    /// `message`, a 9x9 row's message, with the values it names written in
    /// `symbols`: every word that is a digit 1-9, alone or before a comma
    /// (`invalid`'s `5 twice`, `multiple`'s `is 4 ... and 7`, a
    /// mismatch's `given 5, solved 8`); rows, columns and counts are never
    /// so written (`row 1:`, `r1c2`, `(1 cell differs)`).
    fn relabelled(message: &str, symbols: &Symbols) -> String {
        let words: Vec<String> = message
            .split(' ')
            .map(|word| match word.as_bytes() {
                [d @ b'1'..=b'9'] => symbols.name_of(d - b'0'),
                [d @ b'1'..=b'9', b','] => format!("{},", symbols.name_of(d - b'0')),
                _ => word.to_string(),
            })
            .collect();
        words.join(" ")
    }

    /// The alphabets other than the digits `1`-`9` a 9x9 may be written in.
    fn alphabet(which: usize) -> Symbols {
        match which {
            0 => Symbols::ZeroNumbers,
            1 => Symbols::ZeroDigitsLetters { lower: false },
            2 => Symbols::Letters { lower: true },
            _ => Symbols::Chars(b"ZYXWVUTSR".to_vec()),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

        /// Any 9x9 grid written in another alphabet (numbered from 0, as
        /// 0-based data sets write it) is solved by the run's 9x9 solver
        /// as the same grid written in digits: the same status, guesses
        /// and check, the solution's cells the same, and every value the
        /// messages name written in its alphabet.
        #[test]
        fn a_nine_by_nine_in_another_alphabet_is_solved_as_in_digits(
            seed in proptest::prelude::any::<u64>(),
            keep in proptest::collection::vec(0u8..100, 81),
            kept in 15u8..90,
            noise in proptest::collection::vec((0usize..81, 0u8..=9), 0..3),
            given in 0u8..3,
            which in 0usize..4,
            naive in proptest::prelude::any::<bool>(),
            first in proptest::prelude::any::<bool>(),
        ) {
            let shape = Shape::new(3, 3).unwrap();
            let solution = SizedGenerator::new(shape)
                .generate(seed, 0, false, &|| false)
                .unwrap()
                .solution;
            let mut cells: Vec<u8> = solution
                .cells()
                .iter()
                .zip(&keep)
                .map(|(&v, &k)| if k < kept { v } else { 0 })
                .collect();
            for &(cell, value) in &noise {
                cells[cell] = value;
            }
            // None, the solution, or a solution of another puzzle.
            let given = match given {
                0 => None,
                1 => Some(solution.clone()),
                _ => {
                    let mut other = solution.cells().to_vec();
                    other.rotate_left(9);
                    Some(SizedGrid::from_cells(shape, other).unwrap())
                }
            };
            let nine = |g: &SizedGrid| Grid::from_cells(g.cells().try_into().unwrap()).unwrap();
            let puzzle = SizedGrid::from_cells(shape, cells).unwrap();
            let symbols = alphabet(which);
            let digits = Record::new(1, Ok(nine(&puzzle)), given.as_ref().map(nine));
            let mut other = Record::new(1, Err(String::new()), None);
            other.set_sized((
                Ok(SizedRecord { puzzle, symbols: symbols.clone(), solution: given }),
                None,
            ));
            let kind = if naive { SolverKind::Naive } else { SolverKind::Fast };
            let mode = if first { Mode::First } else { Mode::Unique };
            let limits = Limits { max_guesses: Some(20_000), timeout: None };
            let mut solver = kind.build();
            let want = solve_record(solver.as_mut(), 0, digits, mode, &limits);
            let got = solve_record(solver.as_mut(), 0, other, mode, &limits);
            proptest::prop_assert_eq!(got.status, want.status);
            proptest::prop_assert_eq!(got.guesses, want.guesses);
            proptest::prop_assert_eq!(got.check, want.check);
            let sized = got.sized.unwrap();
            proptest::prop_assert_eq!(
                sized.solution.as_ref().map(|s| s.cells().to_vec()),
                want.solution.map(|s| s.cells().to_vec())
            );
            proptest::prop_assert_eq!(
                got.message,
                want.message.map(|m| relabelled(&m, &symbols))
            );
        }
    }
}
