//! The parallel pipeline: a reader thread cuts the inputs' records into
//! chunks, a rayon pool of `-j` threads solves each chunk (every worker with
//! its own solver), and the calling thread receives the solved chunks in
//! input order.
//!
//! ```text
//! reader thread --chunks--> solver pool --chunks being solved--> caller (writer)
//!                (bounded)               (bounded)
//! ```
//!
//! Both queues hold at most [`QUEUE_CHUNKS`] chunks, so memory stays bounded
//! by a few chunks however long the input is. Chunks are solved one after
//! another, each spread over the whole pool, so results come out in input
//! order and are the same for any thread count (solve times aside).
//!
//! A chunk reaches the caller as soon as its solving starts, as one slot per
//! record that a worker fills when it finishes that record. So when an
//! [`Interrupt`] is raised, the caller need not wait for a slow chunk: it
//! passes on the finished records up to the first one still unfinished, and
//! returns at once, leaving the other threads to end with the process (the
//! reader may be blocked on a stdin that never ends; it is never joined).

use std::collections::VecDeque;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::Instant;

use rayon::prelude::*;

use crate::error::Error;
use crate::input::{InputError, Record};
use crate::interrupt::{Interrupt, Signal, POLL};
use crate::result::{Check, PuzzleResult};
use crate::solver::{Limits, Mode, Solver, SolverKind, Status};
use crate::stats::Tally;

/// Records per chunk by default.
pub const CHUNK_RECORDS: usize = 2048;

/// Chunks waiting in each queue, at most.
pub const QUEUE_CHUNKS: usize = 2;

/// One input's records, as the reader yields them.
pub struct Source {
    /// The records, in input order; an `Err` ends the run.
    pub records: Box<dyn Iterator<Item = Result<Record, InputError>> + Send>,
}

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Solver threads, at least 1.
    pub threads: usize,
    /// The solver each worker builds.
    pub solver: SolverKind,
    /// The search mode.
    pub mode: Mode,
    /// Per-puzzle limits.
    pub limits: Limits,
    /// Stop after this many records in all.
    pub limit: Option<u64>,
    /// Records per chunk, at least 1.
    pub chunk_records: usize,
}

/// The results of one chunk, in input order, with their tally (built on
/// the solver threads).
#[derive(Clone, Debug)]
pub struct Batch {
    /// One result per record.
    pub results: Vec<PuzzleResult>,
    /// The tally of `results`.
    pub tally: Tally,
}

/// How a run that did not fail ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every record was read and solved.
    Finished,
    /// The interrupt was raised: the records finished before it, as far as
    /// they run without a gap, went to the sink; the rest did not.
    Interrupted(Signal),
}

/// A chunk of records tagged with their input's index.
type Chunk = Vec<(usize, Record)>;

/// A chunk being solved: one slot per record, filled by the worker that
/// solves it.
type Slots = Vec<OnceLock<PuzzleResult>>;

/// What the solving thread tells the caller, in input order.
enum Solving {
    /// A chunk's solving has started.
    Started(Arc<Slots>),
    /// The oldest started chunk is complete; its tally.
    Finished(Tally),
    /// The run failed (an input error).
    Failed(Error),
}

/// Solves every record of `sources`, in order, calling `sink` with each
/// solved chunk in input order on the calling thread.
///
/// # Errors
/// As for [`run_until`].
pub fn run(
    sources: Vec<Source>,
    settings: &Settings,
    sink: impl FnMut(Batch) -> Result<(), Error>,
) -> Result<(), Error> {
    run_until(sources, settings, &Interrupt::new(), sink).map(|_| ())
}

/// As [`run`], until `interrupt` is raised: then the records finished so
/// far go to `sink` (as far as they run without a gap) and the run returns
/// [`Ending::Interrupted`] within [`POLL`] plus the time `sink`
/// takes, however slow the puzzles being solved.
///
/// # Errors
/// The first of: the thread pool cannot start ([`Error::Threads`]); an input
/// fails to read ([`Error::Input`], after every chunk before the failure has
/// gone to `sink`); `sink` fails (its error is returned and the run stops).
pub fn run_until(
    sources: Vec<Source>,
    settings: &Settings,
    interrupt: &Interrupt,
    mut sink: impl FnMut(Batch) -> Result<(), Error>,
) -> Result<Ending, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .thread_name(|i| format!("solver-{i}"))
        .build()
        .map_err(|e| thread_error(format!("{} solver threads", settings.threads), e))?;
    let (chunk_tx, chunk_rx) = sync_channel(QUEUE_CHUNKS);
    // Two messages per chunk: `Started` and `Finished`.
    let (solving_tx, solving_rx) = sync_channel(2 * QUEUE_CHUNKS);
    // Neither thread is joined on an early return: the reader may be
    // blocked reading a stdin that never ends. Closing the queues stops
    // them at their next send.
    let limit = settings.limit;
    let chunk_records = settings.chunk_records.max(1);
    let stop = interrupt.clone();
    let reader = thread::Builder::new()
        .name("reader".into())
        .spawn(move || read(sources, limit, chunk_records, &stop, chunk_tx))
        .map_err(|e| thread_error("the reader thread".into(), e))?;
    let settings = *settings;
    let stop = interrupt.clone();
    let solver = thread::Builder::new()
        .name("solve".into())
        .spawn(move || pool.install(|| solve(chunk_rx, &settings, &stop, solving_tx)))
        .map_err(|e| thread_error("the solver thread".into(), e))?;
    let mut started = VecDeque::new();
    loop {
        if let Some(signal) = interrupt.signal() {
            // What is already queued, then the finished start of the chunks
            // still being solved.
            while let Ok(message) = solving_rx.try_recv() {
                receive(message, &mut started, &mut sink)?;
            }
            for slots in started {
                let results = finished_start(&slots);
                let complete = results.len() == slots.len();
                if !results.is_empty() {
                    let tally = Tally::of(&results);
                    sink(Batch { results, tally })?;
                }
                if !complete {
                    break;
                }
            }
            return Ok(Ending::Interrupted(signal));
        }
        match solving_rx.recv_timeout(POLL) {
            Ok(message) => receive(message, &mut started, &mut sink)?,
            Err(RecvTimeoutError::Timeout) => {}
            // The threads also end when they see the interrupt: back to the
            // top, which handles it.
            Err(RecvTimeoutError::Disconnected) if interrupt.signal().is_some() => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    // Both queues closed: the threads are done or have panicked.
    for handle in [reader, solver] {
        if let Err(panic) = handle.join() {
            std::panic::resume_unwind(panic);
        }
    }
    Ok(Ending::Finished)
}

/// Handles one message of the solving thread: a started chunk waits in
/// `started` until its `Finished` comes, then goes to `sink` whole.
fn receive(
    message: Solving,
    started: &mut VecDeque<Arc<Slots>>,
    sink: &mut impl FnMut(Batch) -> Result<(), Error>,
) -> Result<(), Error> {
    match message {
        Solving::Started(slots) => started.push_back(slots),
        Solving::Failed(e) => return Err(e),
        Solving::Finished(tally) => {
            let slots = started.pop_front().unwrap_or_default();
            // The solving thread has let go of the chunk before saying it is
            // finished, so the results move out without a copy.
            let results = match Arc::try_unwrap(slots) {
                Ok(slots) => slots.into_iter().filter_map(OnceLock::into_inner).collect(),
                Err(shared) => shared.iter().filter_map(|s| s.get().cloned()).collect(),
            };
            sink(Batch { results, tally })?;
        }
    }
    Ok(())
}

/// The results of a chunk being solved, from its first record up to the
/// first one not finished yet.
fn finished_start(slots: &Slots) -> Vec<PuzzleResult> {
    slots.iter().map_while(|slot| slot.get().cloned()).collect()
}

fn thread_error(what: String, cause: impl std::fmt::Display) -> Error {
    Error::Threads {
        what,
        cause: cause.to_string(),
    }
}

/// The reader thread: fills chunks and sends them, stopping at the limit,
/// at the first input error (sent on), when the queue is closed, or when the
/// interrupt is raised (the chunk being filled is dropped).
fn read(
    sources: Vec<Source>,
    limit: Option<u64>,
    chunk_records: usize,
    interrupt: &Interrupt,
    tx: SyncSender<Result<Chunk, InputError>>,
) {
    let mut left = limit.unwrap_or(u64::MAX);
    let mut chunk = Vec::with_capacity(chunk_records);
    for (input, source) in sources.into_iter().enumerate() {
        for record in source.records {
            if interrupt.is_raised() {
                return;
            }
            if left == 0 {
                break;
            }
            match record {
                Ok(record) => chunk.push((input, record)),
                Err(e) => {
                    if !chunk.is_empty() && tx.send(Ok(chunk)).is_err() {
                        return;
                    }
                    // The run ends here whether or not the error is received.
                    let _ = tx.send(Err(e));
                    return;
                }
            }
            left -= 1;
            if chunk.len() == chunk_records {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(chunk_records));
                if tx.send(Ok(full)).is_err() {
                    return;
                }
            }
        }
    }
    if !chunk.is_empty() {
        // A closed queue means the run already stopped; nothing to do.
        let _ = tx.send(Ok(chunk));
    }
}

/// The solving thread, running inside the pool: solves chunk after chunk
/// with every worker, telling the caller when each starts and finishes (or
/// passing the reader's error on), in order. A chunk cut short by the
/// interrupt is never said to be finished.
fn solve(
    rx: Receiver<Result<Chunk, InputError>>,
    settings: &Settings,
    interrupt: &Interrupt,
    tx: SyncSender<Solving>,
) {
    for message in rx {
        if interrupt.is_raised() {
            return;
        }
        let chunk = match message {
            Ok(chunk) => chunk,
            Err(e) => {
                // The run ends here whether or not the error is received.
                let _ = tx.send(Solving::Failed(e.into()));
                return;
            }
        };
        let slots: Arc<Slots> = Arc::new(chunk.iter().map(|_| OnceLock::new()).collect());
        if tx.send(Solving::Started(Arc::clone(&slots))).is_err() {
            return;
        }
        let Some(tally) = solve_chunk(chunk, &slots, settings, interrupt) else {
            return;
        };
        drop(slots);
        if tx.send(Solving::Finished(tally)).is_err() {
            return;
        }
    }
}

/// Solves one chunk on the current pool into `slots`; each rayon job builds
/// its own solver, so workers never share solver state. Workers stop taking
/// records once the interrupt is raised. Returns the chunk's tally, or
/// `None` when the interrupt left records unsolved.
fn solve_chunk(
    chunk: Chunk,
    slots: &Slots,
    settings: &Settings,
    interrupt: &Interrupt,
) -> Option<Tally> {
    chunk.into_par_iter().zip(slots.par_iter()).for_each_init(
        || settings.solver.build(),
        |solver, ((input, record), slot)| {
            if interrupt.is_raised() {
                return;
            }
            let result = solve_record(
                solver.as_mut(),
                input,
                record,
                settings.mode,
                &settings.limits,
            );
            // Each slot belongs to one record, so it is empty here.
            let _ = slot.set(result);
        },
    );
    slots
        .par_iter()
        .with_min_len(256)
        .try_fold(Tally::new, |mut tally, slot| {
            tally.add(slot.get()?);
            Some(tally)
        })
        .try_reduce(Tally::new, |mut a, b| {
            a.merge(&b);
            Some(a)
        })
}

/// Classifies one record: a malformed record becomes a `malformed` result
/// with the reader's message; a puzzle is solved and timed (`solve_ns`
/// covers the classification and search of this puzzle alone), and its
/// solution checked against the one the input gives, if any.
pub fn solve_record(
    solver: &mut dyn Solver,
    input: usize,
    record: Record,
    mode: Mode,
    limits: &Limits,
) -> PuzzleResult {
    let Record {
        line,
        puzzle,
        solution: given,
        solution_error,
        expected,
    } = record;
    let grid = match puzzle {
        Ok(grid) => grid,
        Err(message) => {
            return PuzzleResult {
                input,
                line,
                puzzle: None,
                status: Status::Malformed,
                solution: None,
                guesses: None,
                solve_ns: None,
                check: None,
                message: Some(message),
                expected,
            }
        }
    };
    let start = Instant::now();
    let outcome = solver.solve(&grid, mode, limits);
    let solve_ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    let mut message = outcome.message;
    let check = match (&outcome.solution, given, solution_error) {
        // A given solution that is not a grid never passes, whatever the
        // status: the message says why.
        (_, _, Some(why)) => {
            message = Some(match message {
                Some(first) => format!("{first}; {why}"),
                None => why,
            });
            Some(Check::Mismatch)
        }
        (Some(found), Some(given), None) if outcome.status == Status::Solved => {
            Some(if *found == given {
                Check::Ok
            } else {
                Check::Mismatch
            })
        }
        _ => None,
    };
    PuzzleResult {
        input,
        line,
        puzzle: Some(grid),
        status: outcome.status,
        solution: outcome.solution,
        guesses: Some(outcome.guesses),
        solve_ns: Some(solve_ns),
        check,
        message,
        expected,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::grid::Grid;

    const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";

    fn record(line: u64, text: &[u8]) -> Record {
        Record::new(line, Grid::parse(text).map_err(|e| e.to_string()), None)
    }

    fn source(records: Vec<Result<Record, InputError>>) -> Source {
        Source {
            records: Box::new(records.into_iter()),
        }
    }

    fn settings(threads: usize, chunk_records: usize) -> Settings {
        Settings {
            threads,
            solver: SolverKind::Fast,
            mode: Mode::Unique,
            limits: Limits::default(),
            limit: None,
            chunk_records,
        }
    }

    fn collect(
        sources: Vec<Source>,
        settings: &Settings,
    ) -> (Vec<PuzzleResult>, Result<(), Error>) {
        let mut results = vec![];
        let outcome = run(sources, settings, |batch| {
            assert_eq!(batch.tally.puzzles as usize, batch.results.len());
            results.extend(batch.results);
            Ok(())
        });
        (results, outcome)
    }

    fn many(n: u64) -> Vec<Result<Record, InputError>> {
        (1..=n)
            .map(|line| {
                Ok(if line % 7 == 0 {
                    record(line, b"12")
                } else {
                    record(line, PUZZLE)
                })
            })
            .collect()
    }

    fn strip_times(results: &mut [PuzzleResult]) {
        for r in results {
            r.solve_ns = r.solve_ns.map(|_| 0);
        }
    }

    #[test]
    fn results_come_out_in_input_order_for_any_thread_count() {
        let (mut one, ok) = collect(vec![source(many(100))], &settings(1, 8));
        ok.unwrap();
        let (mut four, ok) = collect(vec![source(many(100))], &settings(4, 3));
        ok.unwrap();
        strip_times(&mut one);
        strip_times(&mut four);
        assert_eq!(one, four);
        let lines: Vec<u64> = one.iter().map(|r| r.line).collect();
        assert_eq!(lines, (1..=100).collect::<Vec<_>>());
        assert_eq!(one[6].status, Status::Malformed);
        assert_eq!(one[6].message.as_deref(), Some("2 cells, expected 81"));
        assert_eq!(one[0].status, Status::Solved);
    }

    #[test]
    fn several_sources_are_tagged_and_the_limit_counts_all_records() {
        let mut s = settings(2, 4);
        s.limit = Some(12);
        let (results, ok) = collect(vec![source(many(10)), source(many(10))], &s);
        ok.unwrap();
        let tags: Vec<(usize, u64)> = results.iter().map(|r| (r.input, r.line)).collect();
        let mut expected: Vec<(usize, u64)> = (1..=10).map(|l| (0, l)).collect();
        expected.extend([(1, 1), (1, 2)]);
        assert_eq!(tags, expected);
    }

    #[test]
    fn an_input_error_arrives_after_the_records_before_it() {
        let mut records = many(5);
        records.push(Err(InputError::Io {
            path: PathBuf::from("bad.txt"),
            source: std::io::Error::other("disk on fire"),
        }));
        records.extend(many(5));
        let (results, outcome) = collect(vec![source(records)], &settings(2, 2));
        assert_eq!(results.len(), 5);
        let err = outcome.unwrap_err();
        assert!(err.to_string().contains("bad.txt"), "{err}");
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        let mut calls = 0;
        let outcome = run(vec![source(many(50))], &settings(2, 5), |_| {
            calls += 1;
            Err(Error::BrokenPipe)
        });
        assert!(matches!(outcome, Err(Error::BrokenPipe)));
        assert_eq!(calls, 1);
    }

    #[test]
    fn an_interrupt_raised_before_the_run_stops_it_with_nothing_solved() {
        let interrupt = Interrupt::new();
        interrupt.raise(Signal::Interrupt);
        let mut results = vec![];
        let ending = run_until(vec![source(many(50))], &settings(2, 5), &interrupt, |b| {
            results.extend(b.results);
            Ok(())
        });
        assert_eq!(ending.unwrap(), Ending::Interrupted(Signal::Interrupt));
        assert!(results.is_empty());
    }

    /// Records from `first`, then a wait for a record that never comes
    /// until `release` is dropped, as a stdin left open.
    fn never_ending(
        first: Vec<Result<Record, InputError>>,
    ) -> (Source, std::sync::mpsc::Sender<Record>) {
        let (release, blocked) = std::sync::mpsc::channel::<Record>();
        let records = first.into_iter().chain(blocked.into_iter().map(Ok));
        (
            Source {
                records: Box::new(records),
            },
            release,
        )
    }

    #[test]
    fn an_interrupt_ends_a_run_whose_input_never_ends_with_the_rows_so_far() {
        let (source, release) = never_ending(many(12));
        let interrupt = Interrupt::new();
        let mut results = vec![];
        let ending = run_until(vec![source], &settings(2, 5), &interrupt, |batch| {
            results.extend(batch.results);
            interrupt.raise(Signal::Terminate);
            Ok(())
        });
        assert_eq!(ending.unwrap(), Ending::Interrupted(Signal::Terminate));
        let lines: Vec<u64> = results.iter().map(|r| r.line).collect();
        assert!((5..=10).contains(&lines.len()), "{lines:?}");
        assert_eq!(lines, (1..=lines.len() as u64).collect::<Vec<_>>());
        drop(release);
    }

    #[test]
    fn the_finished_start_of_a_chunk_stops_at_the_first_gap() {
        let mut solver = SolverKind::Fast.build();
        let slots: Slots = (1..=4).map(|_| OnceLock::new()).collect();
        for line in [1, 2, 4] {
            let result = solve_record(
                solver.as_mut(),
                0,
                record(line, PUZZLE),
                Mode::Unique,
                &Limits::default(),
            );
            slots[line as usize - 1].set(result).unwrap();
        }
        let start: Vec<u64> = finished_start(&slots).iter().map(|r| r.line).collect();
        assert_eq!(start, [1, 2]);
        assert!(finished_start(&slots[2..].to_vec()).is_empty());
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
}
