//! A block of results as Arrow columns: the results CSV's `status`,
//! `solution`, `guesses`, `solve_us` and `message`, typed (nulls where the
//! CSV leaves a field empty). Messages are escaped as the command line
//! writes them in every format ([`clean_message`]: `bad character
//! '\u{ff11}'`).

use std::sync::{Arc, LazyLock};

use arrow_array::builder::{Float64Builder, StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, StructArray};
use arrow_schema::{DataType, Field, Fields};
use sudoku_batch::output::clean_message;
use sudoku_batch::output::result::PuzzleResult;
use sudoku_core::grid::CELLS;

/// The result columns and their types, in order.
pub static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    Fields::from(vec![
        Field::new("status", DataType::Utf8, false),
        Field::new("solution", DataType::Utf8, true),
        Field::new("guesses", DataType::UInt64, true),
        Field::new("solve_us", DataType::Float64, true),
        Field::new("message", DataType::Utf8, true),
    ])
});

/// The columns of `results`, in order, as one struct array.
pub fn to_arrow(results: &[PuzzleResult]) -> StructArray {
    let n = results.len();
    let mut status = StringBuilder::with_capacity(n, n * 8);
    let mut solution = StringBuilder::with_capacity(n, n * CELLS);
    let mut guesses = UInt64Builder::with_capacity(n);
    let mut solve_us = Float64Builder::with_capacity(n);
    let mut message = StringBuilder::new();
    for result in results {
        status.append_value(result.status.name());
        match (&result.solution, &result.sized) {
            // Grid lines are ASCII digits and dots.
            (Some(grid), _) => {
                solution.append_value(std::str::from_utf8(&grid.line_bytes()).unwrap_or_default())
            }
            (None, Some(sized)) => solution.append_option(sized.solution_text()),
            (None, None) => solution.append_null(),
        }
        guesses.append_option(result.guesses);
        // One decimal, as the CLI writes it.
        solve_us.append_option(result.solve_us());
        message.append_option(result.message.as_deref().map(clean_message));
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(status.finish()),
        Arc::new(solution.finish()),
        Arc::new(guesses.finish()),
        Arc::new(solve_us.finish()),
        Arc::new(message.finish()),
    ];
    StructArray::new(FIELDS.clone(), columns, None)
}

/// The columns of `solve(rate=True)`: [`FIELDS`], then the Sudoku
/// Explainer rating and the hardest technique, as `solve --rate` appends
/// them after `message` (null unless the puzzle is solved and rated).
pub static RATED_FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    let mut fields: Vec<_> = FIELDS.iter().cloned().collect();
    fields.push(Arc::new(Field::new("rating", DataType::Float64, true)));
    fields.push(Arc::new(Field::new("hardest", DataType::Utf8, true)));
    Fields::from(fields)
});

/// The columns of `results` with their ratings (see [`RATED_FIELDS`]),
/// rated on the worker that solved them.
pub fn rated_to_arrow(results: &[PuzzleResult]) -> StructArray {
    let (_, mut columns, _) = to_arrow(results).into_parts();
    let mut rating = Float64Builder::with_capacity(results.len());
    let mut hardest = StringBuilder::new();
    for result in results {
        let rated = result.rating.as_ref();
        rating.append_option(rated.map(|r| r.value()));
        hardest.append_option(rated.map(|r| r.hardest.as_ref()));
    }
    columns.push(Arc::new(rating.finish()));
    columns.push(Arc::new(hardest.finish()));
    StructArray::new(RATED_FIELDS.clone(), columns, None)
}

/// The columns of `rate()`, in order: the Sudoku Explainer rating, the
/// hardest technique, the steps (all null unless the puzzle is solved and
/// rated), the status and the message.
pub static RATE_FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    Fields::from(vec![
        Field::new("rating", DataType::Float64, true),
        Field::new("hardest", DataType::Utf8, true),
        Field::new("steps", DataType::UInt64, true),
        Field::new("status", DataType::Utf8, false),
        Field::new("message", DataType::Utf8, true),
    ])
});

/// The rating columns of `results` (see [`RATE_FIELDS`]), rated on the
/// worker that solved them.
pub fn rate_to_arrow(results: &[PuzzleResult]) -> StructArray {
    let n = results.len();
    let mut rating = Float64Builder::with_capacity(n);
    let mut hardest = StringBuilder::new();
    let mut steps = UInt64Builder::with_capacity(n);
    let mut status = StringBuilder::with_capacity(n, n * 8);
    let mut message = StringBuilder::new();
    for result in results {
        let rated = result.rating.as_ref();
        rating.append_option(rated.map(|r| r.value()));
        hardest.append_option(rated.map(|r| r.hardest.as_ref()));
        steps.append_option(rated.map(|r| u64::from(r.steps)));
        status.append_value(result.status.name());
        // The `rate` subcommand's message: the record's own, or why a
        // solved puzzle has no rating (beyond the rater, or not 9x9).
        message.append_option(result.message.as_deref().map(clean_message));
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(rating.finish()),
        Arc::new(hardest.finish()),
        Arc::new(steps.finish()),
        Arc::new(status.finish()),
        Arc::new(message.finish()),
    ];
    StructArray::new(RATE_FIELDS.clone(), columns, None)
}
