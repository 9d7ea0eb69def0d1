//! The results: one row per record, in input order, as CSV, JSON Lines or
//! Parquet (chosen by the output's name, see [`mod@format`]), written to stdout
//! or a file, compressed by gzip (`.gz`) or zstd (`.zst`) for the text
//! formats.
//!
//! Columns, exactly: `line,puzzle,status,solution,guesses,solve_us,check,message`,
//! with a `file` column first when the run has several inputs and the kept
//! input columns ([`crate::kept`]) after them: the same in every format.
//!
//! The text formats are formatted straight into byte buffers by the solver
//! workers ([`RowFormat`]: [`CsvRows`], [`JsonlRows`]), gzip-compressed
//! there a chunk at a time for a `.gz` output (a gzip member each), and the
//! writer only writes the bytes; Parquet's typed columns are built there
//! too, a chunk's at a time ([`RowFormat::columns`]), and the writer hands
//! them to its encoders ([`parquet`]). Text rows for the null device are
//! not formatted at all (`output/discard.rs`).
//!
//! Each concern has a file of its own: where an output goes
//! (`output/destination.rs`: [`Destination`]), the columns
//! (`output/shape.rs`: [`Shape`], [`Blank`], [`COLUMNS`]), the row formats
//! ([`RowFormat`] and [`PlainRows`], here, over the formats that implement
//! them: CSV in `output/csv.rs`, [`jsonl`], [`parquet`]), a text row built
//! in a fixed buffer (`output/row.rs`), the bytes' way to stdout or a file
//! (`output/sink.rs`) and the results writer over them
//! (`output/writer.rs`: [`ResultsWriter`]).
//!
//! The rest of what a run writes sits here too: the data of one row
//! ([`result`]), the run's tallies and summary ([`stats`]), the progress
//! bar ([`progress`]), the HTML charts ([`plot`]), and a results CSV read
//! back for `--resume` and `merge` ([`read_back`]).

pub(crate) mod claim;
mod csv;
mod destination;
mod discard;
pub mod format;
pub mod jsonl;
mod members;
pub mod parquet;
pub mod plot;
pub mod progress;
pub mod rating;
pub mod read_back;
pub(crate) mod replace;
pub mod result;
mod resumed;
mod row;
mod shape;
mod sink;
// Only the subcommands that write a whole file under a temporary name
// (merge, canon, augment) use it.
#[cfg(feature = "cli")]
pub(crate) mod staged;
pub mod stats;
pub mod unfit_texts;
mod writer;

pub use self::csv::{check_delimiter, file_field, file_name, CsvRows};
pub use self::destination::{Destination, STDIO};
pub use self::format::{Compression, OutputFormat, ParquetCompression};
pub use self::jsonl::JsonlRows;
pub use self::parquet::Columns;
pub use self::shape::{clean_message, kept_names, Blank, Shape, COLUMNS, FILE_COLUMN};
#[cfg(feature = "cli")]
pub(crate) use self::sink::csv_write_error;
pub(crate) use self::sink::Sink;
pub use self::writer::ResultsWriter;
use crate::output::result::{PuzzleResult, RowFields};

/// Formats one results row into a byte buffer: what the solver workers
/// use to format their rows before the writer takes them. A writer with
/// one line of text per row implements it; see [`CsvRows`] and
/// [`JsonlRows`].
pub trait RowFormat: Send + Sync {
    /// Appends the row of `result`, with its line end.
    fn row(&self, result: &PuzzleResult, out: &mut Vec<u8>);

    /// The writer of the rows of records that are all [`RowFields`] (no
    /// message, kept values or ratings), as [`RowFormat::row`] writes them
    /// for results with those fields; `None` when this format's rows hold
    /// more (rating columns, Parquet's columns), so that the caller makes a
    /// [`PuzzleResult`] and calls [`RowFormat::row`]. It spares the solver
    /// workers making a result for each plain puzzle.
    fn plain_rows(&self) -> Option<PlainRows<'_>> {
        None
    }

    /// Turns a chunk's rows (`text`: whole rows, in order, from
    /// [`RowFormat::row`]) into the bytes written for them, on the worker
    /// that made them: a gzip member for a `.gz` output. By default the
    /// rows are written as they are.
    fn seal(&self, _text: &mut Vec<u8>) {}

    /// Whether [`RowFormat::seal`] changes the rows: then a chunk's rows
    /// are put together in one buffer to be sealed; else they are written
    /// in the pieces the workers made.
    fn seals(&self) -> bool {
        false
    }

    /// Whether the rows are columns built from a chunk's results
    /// ([`RowFormat::columns`], Parquet) instead of text: then the workers
    /// keep each run's results for it.
    fn builds_columns(&self) -> bool {
        false
    }

    /// The rows of a chunk's results (`runs`: its runs' results, in order)
    /// as columns, on the worker that finished the chunk; `None` for text.
    /// When `spend`, nobody needs the results after: they may be dropped
    /// as they are read (some or all runs left empty).
    fn columns(&self, _runs: &mut [&mut Vec<PuzzleResult>], _spend: bool) -> Option<Columns> {
        None
    }
}

/// A text format's writer of plain rows ([`RowFormat::plain_rows`]): a
/// value the solver workers match on, not a trait object, so that the row
/// is written by code inlined into theirs, at their width (AVX2 where the
/// CPU has it). A call through the trait, which then chose the width
/// again, was 10 % of the samples of the workers' own work on a run to
/// JSON Lines (the call and its `vzeroupper`).
#[derive(Clone, Copy, Debug)]
pub enum PlainRows<'a> {
    /// CSV rows.
    Csv(&'a CsvRows),
    /// JSON Lines rows.
    Jsonl(&'a JsonlRows),
    /// No rows: the output is the null device.
    Discarded,
}

impl PlainRows<'_> {
    /// Appends the row of a record that is all `fields`, with its line
    /// end.
    #[inline(always)]
    pub fn row(self, fields: &RowFields<'_>, out: &mut Vec<u8>) {
        match self {
            PlainRows::Csv(rows) => rows.plain_row(fields, out),
            PlainRows::Jsonl(rows) => rows.plain_row(fields, out),
            PlainRows::Discarded => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kept::KeptColumn;
    use crate::output::result::Check;
    use crate::process::simd;
    use sudoku_core::grid::Grid;
    use sudoku_core::solver::Status;

    pub(super) fn malformed() -> PuzzleResult {
        PuzzleResult {
            input: 0,
            line: 7,
            puzzle: None,
            status: Status::Malformed,
            solution: None,
            guesses: None,
            solve_ns: None,
            check: None,
            message: Some("80 cells, expected 81".into()),
            expected: None,
            kept: Vec::new(),
            sized: None,
            rating: None,
        }
    }

    /// Results of plain records ([`RowFormat::plain_rows`]) with every kind
    /// of field: statuses with and without grids, numbers of one to twenty
    /// digits, both checks and none, both inputs of two.
    pub(super) fn plain_results() -> Vec<PuzzleResult> {
        let puzzle = Grid::parse(
            b"..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..",
        )
        .unwrap();
        let solution = Grid::parse(
            b"864371259325849761971265843436192587198657432257483916689734125713528694542916378",
        )
        .unwrap();
        let numbers = [0, 1, 9, 10, 99, 100, 12_345, 999_950, 1 << 40, u64::MAX];
        let mut results = Vec::new();
        for (i, &n) in numbers.iter().enumerate() {
            for (status, check) in [
                (Status::Solved, Some(Check::Ok)),
                (Status::Solved, Some(Check::Mismatch)),
                (Status::Solved, None),
                (Status::Unsolvable, None),
                (Status::Timeout, None),
            ] {
                results.push(PuzzleResult {
                    input: i % 2,
                    line: n.max(1),
                    puzzle: Some(puzzle),
                    status,
                    solution: (status == Status::Solved).then_some(solution),
                    guesses: Some(numbers[numbers.len() - 1 - i]),
                    solve_ns: Some(n),
                    check,
                    message: None,
                    ..malformed()
                });
            }
        }
        results
    }

    /// Asserts that `rows` writes each of [`plain_results`] through its
    /// plain rows ([`RowFormat::plain_rows`]), at the CPU's widest SIMD
    /// width (AVX2 here) and at the base width, byte for byte as its
    /// [`RowFormat::row`] does, after the bytes `before`.
    pub(super) fn plain_rows_match(rows: &dyn RowFormat, before: &[u8]) {
        let plain = rows.plain_rows().expect("plain rows");
        for result in plain_results() {
            let fields = RowFields::of(&result);
            let mut whole = before.to_vec();
            rows.row(&result, &mut whole);
            let mut widest = before.to_vec();
            simd::widest(
                #[inline(always)]
                || plain.row(&fields, &mut widest),
            );
            let mut base = before.to_vec();
            plain.row(&fields, &mut base);
            let whole = String::from_utf8(whole).unwrap();
            assert_eq!(String::from_utf8(widest).unwrap(), whole);
            assert_eq!(String::from_utf8(base).unwrap(), whole);
        }
    }

    pub(super) fn kept(names: &[&str]) -> Vec<KeptColumn> {
        names.iter().map(|name| KeptColumn::text(*name)).collect()
    }
}
