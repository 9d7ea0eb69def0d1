//! Solving puzzles the caller already holds in memory (a column of a data
//! frame, an Arrow array), with no files involved: the entry point of the
//! Python package and of any other front end that brings its own data.
//!
//! Every record goes through the same per-record classification as the
//! `solve` subcommand ([`crate::job::solved::solve_record`]), on a rayon pool of its
//! own. Records are cut into blocks; each block is solved by one worker,
//! which then hands the block's results to the caller's `collect` (to turn
//! them into the caller's columns while still on the worker), and the
//! blocks come back in input order.
//!
//! ```
//! use sudoku_batch::job::in_memory::{puzzle_field, BatchOptions, BatchSolver};
//! use sudoku_batch::process::interrupt::Interrupt;
//! use sudoku_core::solver::Status;
//!
//! let fields: [&[u8]; 2] = [
//!     b"016400000200009000400000062070230100100000003003087040960000005000800007000006820",
//!     b"12",
//! ];
//! let solver = BatchSolver::new(&BatchOptions::default())?;
//! let blocks = solver
//!     .solve_blocks(fields.len(), |i| puzzle_field(fields[i]), |results| results, &Interrupt::new())
//!     .expect("nothing raised the interrupt");
//! let statuses: Vec<Status> = blocks.concat().iter().map(|r| r.status).collect();
//! assert_eq!(statuses, [Status::Solved, Status::Malformed]);
//! # Ok::<(), sudoku_batch::error::Error>(())
//! ```

use rayon::prelude::*;
use sudoku_core::grid::Grid;
use sudoku_core::sizes::Shape;
use sudoku_core::solver::{Limits, Mode, SolverKind};

use crate::error::Error;
use crate::input::sized::{
    self as sized_input, with_boxes, Numbering, SizeOptions, SizedRecord, Vote,
};
use crate::input::{self, Record};
use crate::job::config::MAX_THREADS;
use crate::job::rating::rate_result;
use crate::job::solved::solve_record;
use crate::output::result::PuzzleResult;
use crate::process::interrupt::{Interrupt, Signal};

/// Most records per block: small enough that a block's results are a few
/// hundred KiB, large enough that handing blocks out costs nothing.
pub const MAX_BLOCK: usize = 4096;

/// How to solve a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchOptions {
    /// Solver threads, at least 1; `None` means one per core.
    pub threads: Option<usize>,
    /// The solver each worker builds.
    pub solver: SolverKind,
    /// The search mode.
    pub mode: Mode,
    /// Per-puzzle limits.
    pub limits: Limits,
    /// Rate every solved puzzle after solving it (see
    /// [`crate::job::rating`]).
    pub rate: bool,
    /// The boxes of 9x9 grids when not the usual 3x3 ones (`box=1x9`, as
    /// `--box 1x9`: [`SizeOptions::nine_boxes`]): every 9x9 puzzle is then
    /// solved with them.
    pub nine_boxes: Option<Shape>,
}

/// One record's puzzle as a front end classifies it: a 9x9 grid (the 9x9
/// readers' and solver's path, as before), or a grid of another size
/// (4x4 to 64x64, solved as the `solve` subcommand solves such records);
/// either one or why the record is `malformed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// A 9x9 grid, or the 9x9 reader's message.
    Nine(Result<Grid, String>),
    /// A grid of another size with its alphabet, or the sized reader's
    /// message (naming `--symbols` where it helps).
    Sized(Result<SizedRecord, String>),
}

impl From<Result<Grid, String>> for Puzzle {
    fn from(grid: Result<Grid, String>) -> Puzzle {
        Puzzle::Nine(grid)
    }
}

impl Puzzle {
    /// The record numbered `line` holding this puzzle.
    fn record(self, line: u64) -> Record {
        match self {
            Puzzle::Nine(grid) => Record::new(line, grid, None),
            Puzzle::Sized(read) => {
                let mut record = Record::new(line, Err(String::new()), None);
                record.set_sized((read, None));
                record
            }
        }
    }
}

/// A thread pool ready to solve batches with fixed [`BatchOptions`].
#[derive(Debug)]
pub struct BatchSolver {
    pool: rayon::ThreadPool,
    options: BatchOptions,
}

impl BatchSolver {
    /// Starts the pool.
    ///
    /// # Errors
    /// [`Error::Usage`] for 0 threads or more than [`MAX_THREADS`];
    /// [`Error::Threads`] when the
    /// operating system refuses the threads.
    pub fn new(options: &BatchOptions) -> Result<BatchSolver, Error> {
        let threads = match options.threads {
            Some(0) => return Err(Error::Usage("threads must be at least 1".into())),
            Some(n) if n > MAX_THREADS => {
                return Err(Error::Usage(format!(
                    "threads {n}: at most {MAX_THREADS} threads"
                )))
            }
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("solver-{i}"))
            .build()
            .map_err(|e| Error::Threads {
                what: format!("{threads} solver threads"),
                cause: e.to_string(),
            })?;
        Ok(BatchSolver {
            pool,
            options: *options,
        })
    }

    /// The number of solver threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Solves records `0..count`, where `puzzle(i)` classifies record `i`
    /// (a [`Puzzle`], or a 9x9 grid or why it is `malformed`; see
    /// [`puzzle_text`] and [`puzzle_field`]). Each result's
    /// `line` is its 1-based record number and `input` is 0. The records are
    /// cut into blocks of at most [`MAX_BLOCK`] (fewer for small batches, so
    /// that every thread gets work); `collect` turns each block's results,
    /// in order, into the caller's form on the worker that solved it. The
    /// blocks' values come back in input order.
    ///
    /// # Errors
    /// The signal, when `interrupt` is raised before every record is
    /// solved: workers stop taking records and the partial results are
    /// dropped.
    pub fn solve_blocks<T, P, Q, C>(
        &self,
        count: usize,
        puzzle: P,
        collect: C,
        interrupt: &Interrupt,
    ) -> Result<Vec<T>, Signal>
    where
        T: Send,
        P: Fn(usize) -> Q + Sync,
        Q: Into<Puzzle>,
        C: Fn(Vec<PuzzleResult>) -> T + Sync,
    {
        let threads = self.threads();
        // Four blocks per thread at least, so that a block of slow puzzles
        // late in the batch does not leave the other threads idle long.
        let block = count.div_ceil(threads * 4).clamp(1, MAX_BLOCK);
        let starts: Vec<usize> = (0..count).step_by(block).collect();
        let options = &self.options;
        let blocks = self.pool.install(|| {
            starts
                .into_par_iter()
                .map_init(
                    || options.solver.build(),
                    |solver, start| {
                        let end = (start + block).min(count);
                        let mut results = Vec::with_capacity(end - start);
                        for i in start..end {
                            if interrupt.is_raised() {
                                return None;
                            }
                            let mut record = puzzle(i).into().record(i as u64 + 1);
                            if let Some(shape) = options.nine_boxes {
                                with_boxes(&mut record, shape);
                            }
                            let mut result = solve_record(
                                solver.as_mut(),
                                0,
                                record,
                                options.mode,
                                &options.limits,
                            );
                            if options.rate {
                                rate_result(
                                    &mut result,
                                    solver.as_mut(),
                                    options.mode,
                                    &options.limits,
                                );
                            }
                            results.push(result);
                        }
                        Some(collect(results))
                    },
                )
                .collect::<Option<Vec<T>>>()
        });
        match (blocks, interrupt.signal()) {
            (Some(blocks), _) => Ok(blocks),
            (None, signal) => Err(signal.unwrap_or(Signal::Interrupt)),
        }
    }
}

/// Why `sizes` (`symbols=` and `box=`, as `--symbols` and `--box`) fits
/// none of `count` puzzles, `puzzle(i)` classifying puzzle `i` as for
/// [`BatchSolver::solve_blocks`]: an option is applied or refused, never
/// ignored, as [`SizeOptions::unfit`] says for the command line. The
/// puzzles are classified up to the first that the options fit (the first,
/// as a rule), so a front end asks before solving any.
pub fn unfit<Q: Into<Puzzle>>(
    sizes: &SizeOptions,
    count: usize,
    puzzle: impl Fn(usize) -> Q,
) -> Option<String> {
    if sizes.shape.is_none() && sizes.symbols.is_none() {
        return None;
    }
    let mut sides = 0u128;
    for i in 0..count {
        sides |= puzzle(i).into().record(i as u64 + 1).side_bit();
        // Fitted (`None`): nothing to refuse, the rest need not be read.
        sizes.unfit(sides, i as u64 + 1)?;
    }
    sizes.unfit(sides, count as u64)
}

/// The numbering of a batch of `count` puzzles read without `symbols=`,
/// `puzzle(i, sizes)` classifying puzzle `i` with `sizes` as for
/// [`BatchSolver::solve_blocks`]: chosen on the first
/// [`AHEAD_RECORDS`](crate::input::AHEAD_RECORDS), each read in the three
/// [`Numbering::READINGS`] of `sizes` ([`Vote::of`]), as the command line's readers choose
/// an input's ([`Numbering::of`]: the numbering most of them need), so that
/// a column of lists is read in one numbering per grid size, as the same
/// column of a Parquet file is (a 9x9 list 0-8 beside one 1-9: the second
/// is `invalid` in a column numbered from 0, not read alone). A front end
/// puts it in the [`SizeOptions`] it classifies with after.
pub fn numbering_of<Q: Into<Puzzle>>(
    count: usize,
    sizes: &SizeOptions,
    puzzle: impl Fn(usize, &SizeOptions) -> Q,
) -> Numbering {
    let readings = Numbering::READINGS.map(|numbering| SizeOptions {
        numbering,
        ..sizes.clone()
    });
    Numbering::of((0..count.min(crate::input::AHEAD_RECORDS)).filter_map(|i| {
        Vote::of(
            readings
                .each_ref()
                .map(|sizes| puzzle(i, sizes).into().record(i as u64 + 1)),
        )
    }))
}

/// Classifies one field holding a puzzle as text: surrounding whitespace is
/// trimmed (as the CSV reader trims fields), then it must be 81 cells of
/// digits and blanks (`.0_-`). The error is the reader's message for the
/// same field (`80 cells, expected 81`, `bad character 'x' at position 3`).
pub fn puzzle_field(field: &[u8]) -> Result<Grid, String> {
    input::puzzle_field(field.trim_ascii())
}

/// Classifies one field holding a puzzle of any size as text, as the
/// `solve` subcommand's readers do: trimmed, a 9x9 puzzle
/// ([`puzzle_field`]); failing that, a field shaped like a grid of another
/// size ([`sized_input::looks_sized`]: n * n characters, or n * n values
/// separated by commas or whitespace) is read in its alphabet with its
/// boxes, `sizes` saying them as `--symbols` and `--box` do (found from
/// the field, and the usual boxes, when `None`).
pub fn puzzle_text(field: &[u8], sizes: &SizeOptions) -> Puzzle {
    let field = field.trim_ascii();
    match input::puzzle_field(field) {
        Err(_) if sized_input::looks_sized(field) => {
            Puzzle::Sized(sized_input::read(field, None, sizes).0)
        }
        nine => Puzzle::Nine(nine),
    }
}

/// Classifies a typed value holding a puzzle (a list of cell values in a
/// data frame, as [`input::Value`]) as the `solve` subcommand classifies
/// the same value in Parquet or JSON Lines, with its messages: a 9x9 grid
/// ([`input::typed_puzzle`]: 81 integers or 9 lists of 9, 0 blank); failing
/// that, a grid of another size, or a 9x9 numbered from 0
/// ([`input::typed_sized`]: n * n integers or n lists of n, read as
/// numbers whatever `sizes.symbols` says, with the boxes of `sizes.shape`
/// when it has side n); else the 9x9 message (`found a list of 80 values,
/// expected 81 cells or 9 lists of 9`, `item 5 is 12, expected 0-9`).
pub fn value_puzzle(value: &input::Value<'_>, sizes: &SizeOptions) -> Puzzle {
    match input::typed_puzzle(value, sizes) {
        Ok(grid) => Puzzle::Nine(Ok(grid)),
        Err(why) => match input::typed_sized(value, sizes) {
            Some(read) => Puzzle::Sized(read),
            None => Puzzle::Nine(Err(why)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::sizes::Symbols;
    use sudoku_core::solver::Status;

    const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";

    fn statuses(fields: &[&[u8]], threads: usize) -> Vec<(u64, Status)> {
        let solver = BatchSolver::new(&BatchOptions {
            threads: Some(threads),
            ..BatchOptions::default()
        })
        .unwrap();
        let blocks = solver
            .solve_blocks(
                fields.len(),
                |i| puzzle_field(fields[i]),
                |results| {
                    results
                        .iter()
                        .map(|r| (r.line, r.status))
                        .collect::<Vec<_>>()
                },
                &Interrupt::new(),
            )
            .unwrap();
        blocks.concat()
    }

    #[test]
    fn blocks_come_back_in_input_order_for_any_thread_count() {
        let fields: Vec<&[u8]> = (0..1000)
            .map(|i| if i % 7 == 3 { &b"12"[..] } else { PUZZLE })
            .collect();
        let one = statuses(&fields, 1);
        assert_eq!(one, statuses(&fields, 3));
        assert_eq!(one.len(), 1000);
        for (i, (line, status)) in one.iter().enumerate() {
            assert_eq!(*line, i as u64 + 1);
            let expected = if i % 7 == 3 {
                Status::Malformed
            } else {
                Status::Solved
            };
            assert_eq!(*status, expected, "record {i}");
        }
    }

    #[test]
    fn an_empty_batch_gives_no_blocks() {
        assert!(statuses(&[], 2).is_empty());
    }

    #[test]
    fn zero_threads_and_too_many_are_usage_errors() {
        for threads in [0, MAX_THREADS + 1] {
            let options = BatchOptions {
                threads: Some(threads),
                ..BatchOptions::default()
            };
            assert!(matches!(BatchSolver::new(&options), Err(Error::Usage(_))));
        }
    }

    #[test]
    fn a_raised_interrupt_stops_the_batch() {
        let solver = BatchSolver::new(&BatchOptions::default()).unwrap();
        let interrupt = Interrupt::new();
        interrupt.raise(Signal::Terminate);
        let outcome = solver.solve_blocks(10, |_| puzzle_field(PUZZLE), |r| r, &interrupt);
        assert_eq!(outcome.unwrap_err(), Signal::Terminate);
    }

    #[test]
    fn nine_boxes_solve_every_nine_by_nine_with_them() {
        // A solved grid with one cell of each row blanked: solved with
        // either boxes, but as a grid of 1x9 boxes only when asked.
        let rows: &[u8] =
            b"123456789456789123789123456234567891567891234891234567345678912678912345912345678";
        let mut puzzle = rows.to_vec();
        for cell in [0, 10, 20, 30, 40, 50, 60, 70, 80] {
            puzzle[cell] = b'.';
        }
        let solve = |nine_boxes| {
            let solver = BatchSolver::new(&BatchOptions {
                threads: Some(1),
                nine_boxes,
                ..BatchOptions::default()
            })
            .unwrap();
            let blocks = solver
                .solve_blocks(1, |_| puzzle_field(&puzzle), |r| r, &Interrupt::new())
                .unwrap();
            blocks.concat().remove(0)
        };
        let one_by_nine: Shape = "1x9".parse().unwrap();
        let boxed = solve(Some(one_by_nine));
        assert_eq!(boxed.status, Status::Solved);
        assert_eq!(
            boxed.sized.as_ref().map(|s| s.puzzle.shape()),
            Some(one_by_nine)
        );
        let usual = solve(None);
        assert_eq!(usual.status, Status::Solved);
        assert!(usual.sized.is_none() && usual.solution.is_some());
    }

    #[test]
    fn sizes_that_fit_no_puzzle_are_refused_before_solving() {
        let fields: [&[u8]; 2] = [b"12", PUZZLE];
        let unfit_with = |symbols: Option<&str>, shape: Option<&str>| {
            let sizes = SizeOptions {
                symbols: symbols.map(|s| Symbols::from_name(s).unwrap()),
                shape: shape.map(|s| s.parse().unwrap()),
                ..SizeOptions::default()
            };
            unfit(&sizes, fields.len(), |i| puzzle_text(fields[i], &sizes))
        };
        assert_eq!(unfit_with(None, None), None);
        assert_eq!(unfit_with(None, Some("3x3")), None);
        assert_eq!(unfit_with(None, Some("1x9")), None);
        let four = unfit_with(None, Some("2x2")).expect("a 4x4 box fits no 9x9");
        assert!(four.starts_with("--box 2x2 is for 4x4 grids"), "{four}");
        assert!(four.contains("2 records: 9x9 grids"), "{four}");
        let letters = unfit_with(Some("A-Z"), None).expect("letters fit no 9x9 of digits");
        assert!(
            letters.starts_with("--symbols A-Z fits no record read"),
            "{letters}"
        );
        assert_eq!(unfit_with(Some("1-9A-Z"), None), None);
    }

    #[test]
    fn fields_are_trimmed_and_judged_as_the_reader_judges_them() {
        let padded = [b"  ", PUZZLE, b"\n"].concat();
        assert!(puzzle_field(&padded).is_ok());
        assert_eq!(puzzle_field(b"016").unwrap_err(), "3 cells, expected 81");
        assert_eq!(
            puzzle_field(b"quiz").unwrap_err(),
            "bad character 'q' at position 1"
        );
    }

    fn list(values: &[i64]) -> input::Value<'static> {
        input::Value::List(values.iter().map(|&v| input::Value::Int(v)).collect())
    }

    #[test]
    fn cell_lists_need_81_values_from_0_to_9() {
        let grid = Grid::parse(PUZZLE).unwrap();
        let values: Vec<i64> = grid.cells().iter().map(|&v| i64::from(v)).collect();
        let sizes = SizeOptions::default();
        assert_eq!(value_puzzle(&list(&values), &sizes), Puzzle::Nine(Ok(grid)));
        let rows = input::Value::List(values.chunks(9).map(list).collect());
        assert_eq!(value_puzzle(&rows, &sizes), Puzzle::Nine(Ok(grid)));
        assert_eq!(
            value_puzzle(&list(&[1, 2]), &sizes),
            Puzzle::Nine(Err(
                "found a list of 2 values, expected 81 cells or 9 lists of 9".into()
            ))
        );
        let mut bad = values;
        bad[4] = 12;
        assert_eq!(
            value_puzzle(&list(&bad), &sizes),
            Puzzle::Nine(Err("item 5 is 12, expected 0-9".into()))
        );
        assert_eq!(
            value_puzzle(&input::Value::Null, &sizes),
            Puzzle::Nine(Err("found null, expected 81 cells or 9 lists of 9".into()))
        );
    }

    #[test]
    fn a_batch_is_read_in_the_numbering_of_its_first_records() {
        let grid = Grid::parse(PUZZLE).unwrap();
        let from_one: Vec<i64> = grid.cells().iter().map(|&v| i64::from(v)).collect();
        let from_zero: Vec<i64> = from_one.iter().map(|v| v - 1).collect();
        let values = [list(&from_zero), list(&from_one)];
        let sizes = SizeOptions::default();
        let numbering = numbering_of(values.len(), &sizes, |i, sizes| {
            value_puzzle(&values[i], sizes)
        });
        assert!(numbering.from_zero(9));
        let batch = SizeOptions {
            numbering,
            ..SizeOptions::default()
        };
        // Read on its own, the second list is a puzzle in digits; in the
        // batch's numbering, from 0, its 9s are out of range.
        assert!(matches!(
            value_puzzle(&values[1], &sizes),
            Puzzle::Nine(Ok(_))
        ));
        assert!(!matches!(
            value_puzzle(&values[1], &batch),
            Puzzle::Nine(Ok(_))
        ));
        let ones = [list(&from_one)];
        let numbering = numbering_of(ones.len(), &sizes, |i, sizes| value_puzzle(&ones[i], sizes));
        assert!(numbering.from_one(9) && !numbering.from_zero(9));
    }

    #[test]
    fn cell_lists_of_a_nine_by_nine_numbered_from_zero_are_read_from_zero() {
        let grid = Grid::parse(PUZZLE).unwrap();
        let from_zero: Vec<i64> = grid.cells().iter().map(|&v| i64::from(v) - 1).collect();
        let sizes = SizeOptions::default();
        let Puzzle::Sized(Ok(read)) = value_puzzle(&list(&from_zero), &sizes) else {
            panic!("a 9x9 numbered from 0")
        };
        assert_eq!(read.symbols, Symbols::ZeroNumbers);
        assert_eq!(read.puzzle.cells(), grid.cells());
        // `numbers` says from 1: a -1 is then no cell value.
        let numbers = SizeOptions {
            symbols: Some(Symbols::Numbers),
            ..SizeOptions::default()
        };
        assert_eq!(
            value_puzzle(&list(&from_zero), &numbers),
            Puzzle::Nine(Err("item 1 is -1, expected 0-9".into()))
        );
        assert_eq!(
            value_puzzle(&list(&from_zero[1..]), &sizes),
            Puzzle::Nine(Err(
                "found a list of 80 values, expected 81 cells or 9 lists of 9".into()
            ))
        );
    }

    #[test]
    fn other_sizes_are_read_in_their_alphabet_and_solved_in_it() {
        let sizes = SizeOptions::default();
        let Puzzle::Sized(Ok(four)) = puzzle_text(b" 3102200002100320\n", &sizes) else {
            panic!("a 4x4 puzzle")
        };
        assert_eq!(four.symbols, Symbols::DigitsLetters { lower: false });
        let values: Vec<i64> = four.puzzle.cells().iter().map(|&v| i64::from(v)).collect();
        let Puzzle::Sized(Ok(listed)) = value_puzzle(&list(&values), &sizes) else {
            panic!("a 4x4 list")
        };
        assert_eq!(
            (listed.puzzle, listed.symbols),
            (four.puzzle, Symbols::Numbers)
        );
        assert!(matches!(puzzle_text(PUZZLE, &sizes), Puzzle::Nine(Ok(_))));
        assert_eq!(
            puzzle_text(b"310220000210032x", &sizes),
            Puzzle::Sized(Err(
                "'x' at position 16 is no symbol of 1-4 (give --symbols)".into()
            ))
        );
        let mut sixteen = vec![0; 256];
        sixteen[255] = 17;
        assert_eq!(
            value_puzzle(&list(&sixteen), &sizes),
            Puzzle::Sized(Err("item 256 (r16c16) is 17, expected 0-16".into()))
        );

        let fields: [&[u8]; 3] = [
            b"3102200002100320",
            b"1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2",
            PUZZLE,
        ];
        let solver = BatchSolver::new(&BatchOptions::default()).unwrap();
        let blocks = solver
            .solve_blocks(
                fields.len(),
                |i| puzzle_text(fields[i], &sizes),
                |results| results,
                &Interrupt::new(),
            )
            .unwrap();
        let results = blocks.concat();
        assert_eq!(results[0].status, Status::Solved);
        let four = results[0].sized.as_ref().unwrap();
        assert_eq!(four.solution_text().unwrap(), "3142243142131324");
        assert_eq!(results[1].status, Status::Multiple);
        assert!(results[2].sized.is_none() && results[2].solution.is_some());
    }
}
