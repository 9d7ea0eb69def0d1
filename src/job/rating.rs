//! The rating step of a rated run (`rate`, `solve --rate`, the Python
//! package's `rate`): on the worker that solved a record, right after it,
//! a `solved` puzzle is rated and the rating kept in the result
//! ([`PuzzleResult::rating`]), so that every format, the summary and
//! `--resume` read the same value and the writer's thread rates nothing.
//!
//! A rating means something only for a puzzle with exactly one solution,
//! so a rated run checks it in `--first` mode too (a puzzle with several
//! solutions becomes `multiple`), and the time limit (`--timeout-ms`)
//! bounds the solve and the rating together: a rating still running at the
//! limit gives a `timeout` row.

use std::time::{Duration, Instant};

use sudoku_core::grid::Grid;
use sudoku_core::rate;
use sudoku_core::sizes;
use sudoku_core::solver::{Limits, Mode, Solver, Status};

use crate::output::rating::{self, RowRating};
use crate::output::result::PuzzleResult;

/// Rates `result`'s puzzle when it is `solved` (`solver` checks that it has
/// one solution when the run's `mode` is `First`; `limits` are the run's,
/// its `timeout` counting the solve's time already spent). Sets
/// [`PuzzleResult::rating`], or turns the row into `multiple` or `timeout`,
/// or adds why it has no rating to its message.
pub fn rate_result(
    result: &mut PuzzleResult,
    solver: &mut dyn Solver,
    mode: Mode,
    limits: &Limits,
) {
    if result.status != Status::Solved {
        return;
    }
    // A 9x9 grid read in another alphabet (numbers from 0) is rated as any
    // 9x9 grid; other boxes or sizes are not.
    let puzzle = match (&result.sized, result.puzzle) {
        (Some(sized), _) => {
            let shape = sized.puzzle.shape();
            match sizes::nine_grid(&sized.puzzle) {
                Some(grid) => grid,
                None => {
                    let why = match shape.side() {
                        9 => rating::other_boxes_message(shape),
                        _ => rating::NINE_ONLY.to_string(),
                    };
                    rating::add_message(&mut result.message, &why);
                    return;
                }
            }
        }
        (None, Some(puzzle)) => puzzle,
        (None, None) => return,
    };
    let spent = Duration::from_nanos(result.solve_ns.unwrap_or(0));
    let deadline = limits
        .timeout
        .map(|limit| Instant::now() + limit.saturating_sub(spent));
    if mode == Mode::First {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let limits = Limits {
            max_guesses: limits.max_guesses,
            timeout: left,
        };
        let (status, message) = unique(result, &puzzle, solver, &limits);
        match status {
            Status::Multiple => {
                not_solved(result, Status::Multiple);
                result.message = Some(rating::several_message(message.as_deref()));
                return;
            }
            Status::Timeout => {
                not_solved(result, Status::Timeout);
                let why = message.unwrap_or_default();
                result.message = Some(format!(
                    "{why} checking that it has one solution, which a rating needs"
                ));
                return;
            }
            _ => {}
        }
    }
    let r = match deadline {
        Some(deadline) => rate::rate_until(&puzzle, deadline),
        None => rate::rate(&puzzle),
    };
    if r.timed_out {
        not_solved(result, Status::Timeout);
        let limit_ms = limits.timeout.map_or(0, |t| t.as_millis());
        result.message = Some(rating::timeout_message(limit_ms, &r));
        return;
    }
    match RowRating::of(&r) {
        Some(rated) => result.rating = Some(rated),
        None => rating::add_message(&mut result.message, &rating::beyond_message(&r)),
    }
}

/// The status and message of `puzzle`, `result`'s 9x9 puzzle, solved by
/// `solver` in unique mode within `limits`: its evidence of several
/// solutions names digits as the row does, in the record's alphabet for
/// a 9x9 read in another one (numbered from 0).
fn unique(
    result: &PuzzleResult,
    puzzle: &Grid,
    solver: &mut dyn Solver,
    limits: &Limits,
) -> (Status, Option<String>) {
    let sized = result.sized.as_deref().and_then(|sized| {
        sizes::solve_as_nine(solver, &sized.puzzle, &sized.symbols, Mode::Unique, limits)
    });
    match sized {
        Some(outcome) => (outcome.status, outcome.message),
        None => {
            let outcome = solver.solve(puzzle, Mode::Unique, limits);
            (outcome.status, outcome.message)
        }
    }
}

/// Turns a `solved` row into `status`: no solution, so no check of it.
fn not_solved(result: &mut PuzzleResult, status: Status) {
    result.status = status;
    result.solution = None;
    if let Some(sized) = &mut result.sized {
        sized.solution = None;
    }
    result.check = None;
}
