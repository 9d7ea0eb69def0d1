//! The parallel pipeline: a reader thread cuts the inputs' records into
//! chunks, a rayon pool of `-j` workers parses and solves them (every worker
//! with its own solver and parsing buffers), and the calling thread receives
//! the solved chunks in input order, their rows already formatted.
//!
//! ```text
//! reader thread --chunk--> pool (up to window(threads) chunks at once) --done--> caller (writer)
//!      ^                                                                           |
//!      +------------------------- empty chunk, reused ----------------------------+
//! ```
//!
//! At most [`window`] chunks exist, each reused once written, so
//! memory stays bounded by a few chunks however long the input is; their
//! records share [`IN_FLIGHT_BYTES`] however many workers there are
//! (long records end a chunk by bytes, [`chunk_bytes`]). Several
//! chunks are solved at once, so a worker never waits for another's slow
//! puzzle while a later chunk has work; the caller passes chunks on strictly
//! in input order (a reorder window), so the results are the same for any
//! thread count (solve times aside).
//!
//! An input that never waits for long ([`RecordStream::steady`]: an
//! uncompressed regular file of text) is read on the calling thread
//! instead, between passing chunks on: no thread to wake for every chunk or
//! two handed back (a wake-up is a switch on a busy core).
//!
//! The reader only finds where records start and end (see
//! [`RecordStream::fill`]); parsing, classifying, solving, the per-chunk
//! tally and formatting the rows happen on the workers. A worker takes a
//! chunk's records in short runs, each parsed, solved and formatted into
//! the run's own buffers, so a record costs no hand-off of its own.
//!
//! A run's results grow a few finished records at a time (a stretch of
//! easy puzzles is written once all of them are solved, so that each is
//! timed by one clock reading). So when an [`Interrupt`] is raised, the
//! caller need not wait for a slow puzzle: it passes on the written records
//! up to the first one not written yet, and returns at once, leaving the
//! other threads to end with the process (the reader may be blocked on a
//! stdin that never ends; it is never joined).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread::{self, Thread};

use sudoku_core::sizes::Shape;
use sudoku_core::solver::{Limits, Mode, Outcome, Solver, SolverKind, Status};

use super::difference::Difference;
use crate::error::Error;
use crate::input::sized::with_boxes;
use crate::input::{
    InputError, Parsed, PlainRecord, Record, RecordBatch, RecordStream, Scratch, IN_FLIGHT_BYTES,
};
use crate::job::rating::rate_result;
use crate::job::solved::{check_solution, solve_record, Solved};
use crate::output::result::{PuzzleResult, RowFields};
use crate::output::stats::{Mark, Marks, Tally};
use crate::output::{Columns, PlainRows, RowFormat};
use crate::process::clock::Stopwatch;
use crate::process::interrupt::{Interrupt, Signal, POLL};
use crate::process::simd;

/// Records per chunk by default.
pub const CHUNK_RECORDS: usize = 2048;

/// Chunks in flight at once, at most, for `threads` workers: being filled,
/// solved, or waiting for an earlier chunk to be passed on. Two per worker,
/// so that the others always have a chunk to take while one finishes a slow
/// puzzle, and at least 4 and at most 16: each chunk's buffers are touched
/// anew the first time (on top1465 repeated 20 times at `-j 2`, a window of
/// 4 instead of 8 is 4 % faster and peaks 3 MiB lower; on the forum set it
/// is as fast).
pub fn window(threads: usize) -> usize {
    threads.saturating_mul(2).clamp(4, 16)
}

/// Bytes of records at which a chunk is full for `threads` workers
/// ([`RecordBatch::set_fill_bytes`]): [`IN_FLIGHT_BYTES`] shared among
/// the [`window`]'s chunks.
pub fn chunk_bytes(threads: usize) -> usize {
    IN_FLIGHT_BYTES / window(threads)
}

/// Records per run: the records of a chunk a worker takes in one go,
/// solving and formatting them into the run's own buffers, so that no
/// record costs a hand-off of its own.
const RUN_RECORDS: usize = 32;

/// One input's records, as the reader yields them.
pub struct Source {
    /// The records, in input order; an `Err` ends the run.
    pub records: Box<dyn RecordStream>,
    /// The input's raw bytes read so far, if counted (for progress).
    pub bytes_read: Option<Arc<AtomicU64>>,
}

impl Source {
    /// A source over already parsed records.
    pub fn parsed(
        records: impl Iterator<Item = Result<Record, InputError>> + Send + 'static,
    ) -> Source {
        Source {
            records: Box::new(Parsed(records)),
            bytes_read: None,
        }
    }
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
    /// The boxes of 9x9 records when `--box` gives others than 3x3
    /// ([`crate::input::SizeOptions::nine_boxes`]): each 9x9 record is then
    /// solved as a grid of these boxes by the solver for other sizes.
    pub nine_boxes: Option<Shape>,
    /// Rate every solved puzzle after solving it (`rate`, `solve --rate`;
    /// see [`crate::job::rating`]).
    pub rate: bool,
    /// Whether every [`Batch`] carries its records' results
    /// ([`Batch::results`]); without, a batch carries its tally and rows
    /// only, and the results are dropped where they were made, which spares
    /// the caller's thread moving each of them.
    pub results: bool,
}

/// The results of one chunk, in input order, with their tally and rows
/// (built on the solver threads).
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// One result per record, in input order, in the runs the workers made
    /// them in (see [`Batch::results`]); empty unless [`Settings::results`].
    /// Each run's vector is handed over whole, so that no result is copied
    /// on the caller's thread (copying them into one vector was 5 % of the
    /// instructions of a run to Parquet).
    runs: Vec<Vec<PuzzleResult>>,
    /// The tally of `results`.
    pub tally: Tally,
    /// The rows of `results`, formatted and sealed by the run's
    /// [`RowFormat`], when they are put together in one buffer: for a
    /// format that seals them ([`RowFormat::seals`]), and the start of a
    /// chunk passed on when interrupted. Else empty, and the rows are in
    /// `pieces`; [`Batch::texts`] gives them either way.
    pub text: Vec<u8>,
    /// The rows of each run of the chunk, in order, when not in `text`:
    /// the runs' buffers handed over whole, so that no row is copied
    /// before it is written (putting them together was 3-4 % of the
    /// samples of a run to JSON Lines).
    pieces: Vec<Vec<u8>>,
    /// The rows as columns, when the run's [`RowFormat`] builds them
    /// ([`RowFormat::columns`]: Parquet), built by the worker that finished
    /// the chunk.
    columns: Option<Columns>,
    /// The inputs' raw bytes read when the chunk was cut, summed over the
    /// inputs that count them: where progress stands once it is written.
    pub bytes_read: u64,
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

/// A chunk: its records, cut into runs of [`RUN_RECORDS`] each filled by
/// the worker that solves it, and the batch passed on.
#[derive(Default)]
struct Chunk {
    records: RecordBatch,
    runs: Vec<Run>,
    /// The next run for a worker to take.
    next_run: AtomicUsize,
    /// Runs not finished yet: the worker that finishes the last one makes
    /// the chunk's tally and rows.
    runs_left: AtomicUsize,
    batch: Mutex<Batch>,
    /// The chunk's place among those the reader started (0 for the
    /// first), by which the caller says which chunk it waits for
    /// ([`Bell`]).
    seq: u64,
    /// Set once the chunk's tally and rows are made, by the worker that
    /// finished its last run.
    done: AtomicBool,
}

/// A run of a chunk's records: the results and rows of those finished so
/// far (from the run's first record on, in order), and whether all of them
/// are in. Aligned to 128 bytes (two cache lines, which Intel's adjacent-
/// line prefetcher pairs), so that two workers' runs never share a line:
/// every record takes its run's lock.
#[derive(Default)]
#[repr(align(128))]
struct Run {
    done: AtomicBool,
    out: Mutex<RunOut>,
}

/// What a worker makes of a run: its records' row and their counts, and
/// their results when the run keeps results ([`Settings::results`]).
#[derive(Default)]
struct RunOut {
    results: Vec<PuzzleResult>,
    marks: Marks,
    text: Vec<u8>,
}

impl Run {
    /// The run's results and rows so far (the worker holds the lock only
    /// while it adds a record's).
    fn out(&self) -> std::sync::MutexGuard<'_, RunOut> {
        self.out.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }
}

/// The chunks the reader started, in input order, not yet taken into the
/// caller's window. The reader appends to it without waking the caller
/// (a wake-up costs 25-50 µs here, one per chunk); the caller takes them
/// before it looks for finished chunks, and a chunk is appended before its
/// tasks start, so it is in the window before it can be done.
type Started = Mutex<VecDeque<Arc<Chunk>>>;

/// How the reader stopped, as it tells the caller.
enum ReaderEnd {
    /// Every record was cut and every chunk started.
    End,
    /// An input failed to read, after the chunks before the failure were
    /// started.
    Failed(Error),
    /// Stopped otherwise: the caller gone, the interrupt raised, or a
    /// panic (the caller then joins the thread to pass the panic on).
    Stopped,
}

/// How the workers and the reader wake the caller: without a message or a
/// lock. The caller says which chunk it waits for ([`Chunk::seq`]) and
/// parks; the worker that finishes that chunk unparks it, and the workers
/// that finish any other chunk do not (a wake-up costs a switch on a busy
/// core, and, through a channel, a second one: the woken caller waited
/// again for the channel's lock, which the sender held while it woke it).
/// The reader wakes the caller when it stops.
struct Bell {
    /// The caller's thread.
    caller: Thread,
    /// The chunk the caller waits for, or [`NOBODY`].
    wanted: AtomicU64,
    /// How the reader stopped, once it has and until the caller takes it.
    reader: Mutex<Option<ReaderEnd>>,
}

/// [`Bell::wanted`] when the caller waits for no chunk.
const NOBODY: u64 = u64::MAX;

impl Bell {
    /// On a worker, after it set `chunk`'s `done` flag: whether the caller
    /// waits for it, and is to be unparked.
    fn wants(&self, chunk: &Chunk) -> bool {
        // Sequentially consistent with the caller's store of what it waits
        // for and its load of the flag (see `Bell::wait`): either the
        // caller sees the flag set, or this sees the caller waiting.
        self.wanted.load(Ordering::SeqCst) == chunk.seq
    }

    /// On the reader, once: tells the caller how the reader stopped.
    fn reader_stopped(&self, end: ReaderEnd) {
        *self.reader.lock().unwrap_or_else(PoisonError::into_inner) = Some(end);
        self.caller.unpark();
    }

    /// How the reader stopped, if it has and it was not taken before.
    fn take_reader_end(&self) -> Option<ReaderEnd> {
        self.reader
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// On the caller: waits until the chunk `seq` is done, the reader
    /// stops or [`POLL`] passes (for the interrupt), unless `ready`, asked
    /// once the chunk is wanted, finds a chunk to pass on already. May
    /// return early (a wake-up meant for an earlier wait).
    fn wait(&self, seq: u64, ready: impl FnOnce() -> bool) {
        self.wanted.store(seq, Ordering::SeqCst);
        if !ready() {
            thread::park_timeout(POLL);
        }
        self.wanted.store(NOBODY, Ordering::SeqCst);
    }
}

/// What a worker keeps from record to record: its solver and parsing
/// buffers.
struct WorkerState {
    kind: SolverKind,
    solver: Box<dyn Solver>,
    scratch: Scratch,
    /// A stretch of a run's plain records, with the status each expects
    /// where the run keeps results, read before they are solved
    /// ([`solve_stretch`]).
    stretch: Vec<(PlainRecord, Option<Status>)>,
    /// The outcomes and solve times of `stretch`'s records solved so far
    /// whose rows are not written yet.
    solved: Vec<(Outcome, u64)>,
}

thread_local! {
    static WORKER: RefCell<Option<WorkerState>> = const { RefCell::new(None) };
}

/// A worker's state, taken from its thread for a run of records and put
/// back when dropped, so each pool thread builds its solver once.
struct Lease(Option<WorkerState>);

impl Lease {
    fn take(kind: SolverKind) -> Lease {
        let state = WORKER
            .with(|w| w.borrow_mut().take())
            .filter(|w| w.kind == kind)
            .unwrap_or_else(|| WorkerState {
                kind,
                solver: kind.build(),
                scratch: Scratch::default(),
                stretch: Vec::with_capacity(RUN_RECORDS),
                solved: Vec::with_capacity(RUN_RECORDS),
            });
        Lease(Some(state))
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let state = self.0.take();
        WORKER.with(|w| *w.borrow_mut() = state);
    }
}

/// Solves every record of `sources`, in order, calling `sink` with each
/// solved chunk in input order on the calling thread.
///
/// # Errors
/// As for [`run_until`].
pub fn run(
    sources: Vec<Source>,
    settings: &Settings,
    sink: impl FnMut(&Batch) -> Result<(), Error>,
) -> Result<(), Error> {
    run_until(sources, settings, &Interrupt::new(), None, sink).map(|_| ())
}

/// As [`run`], until `interrupt` is raised: then the records finished so
/// far go to `sink` (as far as they run without a gap) and the run returns
/// [`Ending::Interrupted`] within [`POLL`] plus the time `sink`
/// takes, however slow the puzzles being solved. Raised while the pool's
/// threads start, it stops their start. With `format`, every batch comes
/// with its rows formatted ([`Batch::text`]).
///
/// # Errors
/// The first of: the thread pool cannot start ([`Error::Threads`]); an input
/// fails to read ([`Error::Input`], after every chunk before the failure has
/// gone to `sink`); `sink` fails (its error is returned and the run stops).
pub fn run_until(
    sources: Vec<Source>,
    settings: &Settings,
    interrupt: &Interrupt,
    format: Option<Arc<dyn RowFormat>>,
    mut sink: impl FnMut(&Batch) -> Result<(), Error>,
) -> Result<Ending, Error> {
    let Some(pool) = start_pool(settings.threads, interrupt)? else {
        return Ok(Ending::Interrupted(
            interrupt.signal().unwrap_or(Signal::Interrupt),
        ));
    };
    let bell = Arc::new(Bell {
        caller: thread::current(),
        wanted: AtomicU64::new(NOBODY),
        reader: Mutex::new(None),
    });
    let started = Arc::new(Started::default());
    let window = window(settings.threads);
    let (free_tx, free_rx) = sync_channel(window);
    let free_tx = Arc::new(free_tx);
    for _ in 0..window {
        // The queue holds the whole window: never full here.
        let _ = free_tx.send(Arc::new(Chunk::default()));
    }
    let mut reader = Reader {
        limit: settings.limit,
        chunk_records: settings.chunk_records.max(1),
        chunk_bytes: chunk_bytes(settings.threads),
        settings: *settings,
        interrupt: interrupt.clone(),
        format: format.clone(),
        pool,
        started: Arc::downgrade(&started),
        free: Arc::downgrade(&free_tx),
        bell: Arc::clone(&bell),
        reported: false,
        seq: 0,
        on_caller: false,
    };
    let mut window = Window {
        started,
        flight: VecDeque::new(),
        next: 0,
        hand_back: HandBack {
            queue: free_tx,
            held: None,
            window,
        },
    };
    let reader = if sources.iter().all(|source| source.records.steady()) {
        // Read here, between passing chunks on, when reading never waits
        // long: no reader thread to wake for every two chunks handed back.
        reader.on_caller = true;
        let mut sink_error = None;
        reader.read(sources, &mut || loop {
            if let Ok(chunk) = free_rx.try_recv() {
                return Some(chunk);
            }
            if interrupt.is_raised() {
                return None;
            }
            if let Err(e) = window.pass_on(settings.results, &mut sink) {
                sink_error = Some(e);
                return None;
            }
            if let Ok(chunk) = free_rx.try_recv() {
                return Some(chunk);
            }
            window.wait(&bell);
        });
        if let Some(e) = sink_error {
            return Err(e);
        }
        None
    } else {
        // The reader is not joined on an early return: it may be blocked
        // reading a stdin that never ends. Closing the queues stops it at
        // its next send or receive.
        let reader = thread::Builder::new()
            .name("reader".into())
            .spawn(move || reader.read(sources, &mut || free_rx.recv().ok()))
            .map_err(|e| thread_error("the reader thread".into(), e))?;
        Some(reader)
    };
    let mut failed = None;
    let mut ended = false;
    let mut stopped = false;
    loop {
        if let Some(signal) = interrupt.signal() {
            // The chunks finished, then the finished start of the first
            // one still being solved.
            window.pass_on(settings.results, &mut sink)?;
            if let Some(chunk) = window.flight.front() {
                // Finished since, the chunk's runs may have spent their
                // results on its columns: its columns are taken as they
                // are.
                let finished = chunk.batch.lock().unwrap_or_else(PoisonError::into_inner);
                let batch = if finished.columns.is_some() {
                    finished_copy(&chunk.runs, &finished)
                } else {
                    finished_start(&chunk.runs, format.as_deref())
                };
                drop(finished);
                if batch.tally.puzzles > 0 {
                    sink(&batch)?;
                }
            }
            return Ok(Ending::Interrupted(signal));
        }
        // Taken before the chunks: the reader starts them all before it
        // stops.
        match bell.take_reader_end() {
            Some(ReaderEnd::End) => ended = true,
            Some(ReaderEnd::Failed(e)) => failed = Some(e),
            Some(ReaderEnd::Stopped) => stopped = true,
            None => {}
        }
        window.pass_on(settings.results, &mut sink)?;
        if window.flight.is_empty() {
            if let Some(e) = failed {
                return Err(e);
            }
            // Stopped by the interrupt, the reader leaves it to the top of
            // the loop; else it panicked, which joining it passes on.
            if ended || (stopped && !interrupt.is_raised()) {
                break;
            }
        }
        window.wait(&bell);
    }
    if let Some(Err(panic)) = reader.map(thread::JoinHandle::join) {
        std::panic::resume_unwind(panic);
    }
    Ok(Ending::Finished)
}

/// Starts the pool of `threads` solver workers, one thread at a time,
/// stopping when `interrupt` is raised (`Ok(None)`).
fn start_pool(threads: usize, interrupt: &Interrupt) -> Result<Option<rayon::ThreadPool>, Error> {
    let stop = interrupt.clone();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(move |thread| {
            if stop.is_raised() {
                return Err(std::io::Error::other("interrupted"));
            }
            let name = format!("solver-{}", thread.index());
            thread::Builder::new().name(name).spawn(|| thread.run())?;
            Ok(())
        })
        .build();
    match pool {
        Ok(pool) => Ok(Some(pool)),
        Err(_) if interrupt.is_raised() => Ok(None),
        Err(e) => Err(thread_error(format!("{threads} solver threads"), e)),
    }
}

/// The caller's side of the chunks: those started and not passed on yet.
struct Window {
    /// The chunks the reader started since the caller last looked.
    started: Arc<Started>,
    /// The chunks started and not passed on yet, in input order.
    flight: VecDeque<Arc<Chunk>>,
    /// The place of the next chunk to start, once those started are taken.
    next: u64,
    hand_back: HandBack,
}

impl Window {
    /// Takes the chunks started so far into the window, in input order.
    fn take_started(&mut self) {
        let mut started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
        self.flight.extend(started.drain(..));
        if let Some(last) = self.flight.back() {
            self.next = last.seq + 1;
        }
    }

    /// Takes the chunks started so far, then passes on those finished at
    /// the front ([`pass_on_finished`]).
    fn pass_on(
        &mut self,
        results: bool,
        sink: &mut impl FnMut(&Batch) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.take_started();
        pass_on_finished(&mut self.flight, &mut self.hand_back, results, sink)
    }

    /// Waits ([`Bell::wait`]) for the later of the first two chunks, so
    /// that the caller wakes once for two (they are mostly done in order);
    /// for the first alone when the second is done already, or not started
    /// (an input may be slow to give its next records).
    fn wait(&mut self, bell: &Bell) {
        let wanted = match (self.flight.front(), self.flight.get(1)) {
            (Some(_), Some(second)) if !second.is_done() => second.seq,
            (Some(first), _) => first.seq,
            (None, _) => self.next,
        };
        bell.wait(wanted, || {
            self.take_started();
            // The first chunk done, or the one wanted (the second).
            let mut first_two = self.flight.iter().take(2).enumerate();
            first_two.any(|(i, chunk)| (i == 0 || chunk.seq == wanted) && chunk.is_done())
        });
    }
}

/// Emptied chunks on their way back to the reader: two at a time while at
/// least half the window is still in flight, so that the reader, waiting
/// for a chunk to fill, wakes once for two (a wake-up is a switch on a busy
/// core; filling a chunk of Kaggle rows takes the reader about a third of
/// the time the pool takes to solve it at `-j 2`, so two chunks in flight
/// keep the workers busy while it fills two), and at once when fewer are.
struct HandBack {
    queue: Arc<SyncSender<Arc<Chunk>>>,
    /// A chunk held back for the next one.
    held: Option<Arc<Chunk>>,
    window: usize,
}

impl HandBack {
    /// Hands `chunk` back, or holds it until the next one, with
    /// `in_flight` chunks of the window still to pass on.
    fn give(&mut self, chunk: Arc<Chunk>, in_flight: usize) {
        if self.held.is_none() && in_flight * 2 >= self.window {
            self.held = Some(chunk);
            return;
        }
        // The reader may be gone (an input error, the limit): then the
        // chunks are simply dropped.
        if let Some(held) = self.held.take() {
            let _ = self.queue.try_send(held);
        }
        let _ = self.queue.try_send(chunk);
    }
}

/// Passes on the solved chunks at the front of the window, in order, with
/// their results when `results`, and hands them back to the reader, empty.
fn pass_on_finished(
    flight: &mut VecDeque<Arc<Chunk>>,
    free: &mut HandBack,
    results: bool,
    sink: &mut impl FnMut(&Batch) -> Result<(), Error>,
) -> Result<(), Error> {
    while flight.front().is_some_and(|chunk| chunk.is_done()) {
        let Some(mut chunk) = flight.pop_front() else {
            break;
        };
        match Arc::get_mut(&mut chunk) {
            Some(owned) => {
                let batch = owned
                    .batch
                    .get_mut()
                    .unwrap_or_else(PoisonError::into_inner);
                let pieces = batch.text.is_empty();
                for run in &mut owned.runs {
                    let out = run.out.get_mut().unwrap_or_else(PoisonError::into_inner);
                    if results {
                        batch.runs.push(std::mem::take(&mut out.results));
                    }
                    if pieces {
                        batch.pieces.push(std::mem::take(&mut out.text));
                    }
                }
                sink(batch)?;
                // The runs' vectors go back to them, emptied, keeping their
                // storage for the chunk's next records.
                for (run, mut taken) in owned.runs.iter_mut().zip(batch.runs.drain(..)) {
                    taken.clear();
                    run.out
                        .get_mut()
                        .unwrap_or_else(PoisonError::into_inner)
                        .results = taken;
                }
                for (run, mut taken) in owned.runs.iter_mut().zip(batch.pieces.drain(..)) {
                    taken.clear();
                    run.out
                        .get_mut()
                        .unwrap_or_else(PoisonError::into_inner)
                        .text = taken;
                }
                owned.empty();
            }
            // A task of the chunk that found no run left to take still
            // holds it (it waited in the pool's queue while the other
            // worker solved every run), or the worker that finished it has
            // not let go of it yet: the rows are passed on from under the
            // lock, and that task hands the chunk back, emptied, when it
            // lets go of it (see `Reader::start`), so that its buffers are
            // reused rather than grown anew in a fresh chunk (about 1 chunk
            // in 16 at `-j 2`).
            None => {
                {
                    let batch = chunk.batch.lock().unwrap_or_else(PoisonError::into_inner);
                    let mut whole = finished_copy(&chunk.runs, &batch);
                    if !results {
                        whole.runs.clear();
                    }
                    sink(&whole)?;
                }
                // Whichever lets go of it last hands it back: the task may
                // have let go since.
                let Some(mut owned) = Arc::into_inner(chunk) else {
                    continue;
                };
                owned.empty();
                chunk = Arc::new(owned);
            }
        }
        free.give(chunk, flight.len());
    }
    Ok(())
}

/// A copy of a finished chunk's `batch` (its runs', `runs`, rows put
/// together unless sealed already, and their results if kept).
fn finished_copy(runs: &[Run], batch: &Batch) -> Batch {
    let mut whole = finished_start(runs, None);
    whole.bytes_read = batch.bytes_read;
    if !batch.text.is_empty() {
        whole.text.clone_from(&batch.text);
    }
    whole.columns.clone_from(&batch.columns);
    whole
}

/// The batch of a chunk being solved, from its first record up to the
/// first one not finished yet: its tally, its rows sealed by `format`, and
/// its results if the runs keep them.
fn finished_start(runs: &[Run], format: Option<&dyn RowFormat>) -> Batch {
    let mut batch = Batch::default();
    for run in runs {
        let out = run.out();
        batch.runs.push(out.results.clone());
        batch.add(&out);
        if !run.is_done() {
            break;
        }
    }
    batch.seal(format);
    if let Some(format) = format {
        let mut runs: Vec<&mut Vec<PuzzleResult>> = batch.runs.iter_mut().collect();
        batch.columns = format.columns(&mut runs, false);
    }
    batch
}

impl Chunk {
    /// Whether the chunk's tally and rows are made.
    fn is_done(&self) -> bool {
        // Sequentially consistent: see `Bell::wants`.
        self.done.load(Ordering::SeqCst)
    }

    /// Empties the chunk for the reader to fill again, keeping its buffers.
    fn empty(&mut self) {
        let batch = self.batch.get_mut().unwrap_or_else(PoisonError::into_inner);
        batch.text.clear();
        batch.columns = None;
        self.records.clear();
    }
}

impl Batch {
    /// The results, one per record in input order; none unless
    /// [`Settings::results`].
    pub fn results(&self) -> impl Iterator<Item = &PuzzleResult> + Clone {
        self.runs.iter().flatten()
    }

    /// The results as the workers' runs made them: [`Batch::results`], cut
    /// into slices.
    pub fn result_runs(&self) -> &[Vec<PuzzleResult>] {
        &self.runs
    }

    /// The rows, formatted and sealed by the run's [`RowFormat`], in
    /// pieces to write in order (empty without a format).
    pub fn texts(&self) -> Vec<&[u8]> {
        if self.pieces.is_empty() {
            vec![&self.text]
        } else {
            self.pieces.iter().map(Vec::as_slice).collect()
        }
    }

    /// True when the batch has rows to write ([`Batch::texts`]).
    pub fn has_text(&self) -> bool {
        !self.text.is_empty() || self.pieces.iter().any(|p| !p.is_empty())
    }

    /// The rows as columns, when the run's [`RowFormat`] builds them
    /// ([`RowFormat::columns`]).
    pub fn columns(&self) -> Option<&Columns> {
        self.columns.as_ref()
    }

    /// Counts a run's marks and appends its rows.
    fn add(&mut self, out: &RunOut) {
        self.count(out);
        self.text.extend_from_slice(&out.text);
    }

    /// Counts a run's marks.
    fn count(&mut self, out: &RunOut) {
        self.tally.add_marks(&out.marks);
    }

    /// Seals the rows by `format` ([`RowFormat::seal`]), when there are any.
    fn seal(&mut self, format: Option<&dyn RowFormat>) {
        if let Some(format) = format {
            if !self.text.is_empty() {
                format.seal(&mut self.text);
            }
        }
    }
}

fn thread_error(what: String, cause: impl std::fmt::Display) -> Error {
    Error::Threads {
        what,
        cause: cause.to_string(),
    }
}

/// The reader thread's side: cuts chunks and hands them to the pool.
struct Reader {
    limit: Option<u64>,
    chunk_records: usize,
    /// Bytes of records at which a chunk is full ([`chunk_bytes`]).
    chunk_bytes: usize,
    settings: Settings,
    interrupt: Interrupt,
    format: Option<Arc<dyn RowFormat>>,
    pool: rayon::ThreadPool,
    /// The caller's queue of started chunks; gone when the caller is.
    started: Weak<Started>,
    /// The queue of emptied chunks, for a task that lets go of a chunk
    /// last to hand it back; gone when the caller is.
    free: Weak<SyncSender<Arc<Chunk>>>,
    /// How the reader tells the caller that it stopped, and the workers
    /// that a chunk is done.
    bell: Arc<Bell>,
    /// Whether the reader told the caller how it stopped.
    reported: bool,
    /// The place of the next chunk started ([`Chunk::seq`]).
    seq: u64,
    /// Read on the caller's thread, which then waits for the chunks that
    /// tasks hand back as well as for those done.
    on_caller: bool,
}

impl Drop for Reader {
    /// Tells the caller that the reader stopped, if it did not say how
    /// (the caller gone, the interrupt, a panic).
    fn drop(&mut self) {
        if !self.reported {
            self.bell.reader_stopped(ReaderEnd::Stopped);
        }
    }
}

impl Reader {
    /// Fills chunks taken from `free` and starts each on the pool, stopping
    /// at the limit, at the first input error (sent on), when `free` gives
    /// none (the caller gone, or, read on the caller's thread, the
    /// interrupt or a failed sink), or when the interrupt is raised (the
    /// chunk being filled is dropped).
    fn read(mut self, sources: Vec<Source>, free: &mut dyn FnMut() -> Option<Arc<Chunk>>) {
        let mut left = self.limit.unwrap_or(u64::MAX);
        let counters: Vec<Arc<AtomicU64>> = sources
            .iter()
            .filter_map(|s| s.bytes_read.clone())
            .collect();
        let bytes_read = || counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
        let mut current: Option<Arc<Chunk>> = None;
        for (input, mut source) in sources.into_iter().enumerate() {
            let mut more = true;
            while more && left > 0 {
                let mut chunk = match current.take() {
                    Some(chunk) => chunk,
                    None => match free() {
                        Some(chunk) => chunk,
                        None => return,
                    },
                };
                if self.interrupt.is_raised() {
                    return;
                }
                let owned = match Arc::get_mut(&mut chunk) {
                    Some(owned) => owned,
                    None => {
                        chunk = Arc::new(Chunk::default());
                        match Arc::get_mut(&mut chunk) {
                            Some(owned) => owned,
                            None => return,
                        }
                    }
                };
                owned.records.set_input(input);
                owned.records.set_fill_bytes(self.chunk_bytes);
                let before = owned.records.len();
                let room = (self.chunk_records - before) as u64;
                let max = before + room.min(left) as usize;
                let filled = source.records.fill(&mut owned.records, max);
                left -= (owned.records.len() - before) as u64;
                let full = !owned.records.has_room(self.chunk_records) || left == 0;
                match filled {
                    Ok(going) => more = going,
                    Err(e) => {
                        if !owned.records.is_empty() {
                            self.start(chunk, bytes_read());
                        }
                        self.reported = true;
                        self.bell.reader_stopped(ReaderEnd::Failed(e.into()));
                        return;
                    }
                }
                if full {
                    if !self.start(chunk, bytes_read()) {
                        return;
                    }
                } else {
                    current = Some(chunk);
                }
            }
        }
        if let Some(mut chunk) = current {
            if let Some(owned) = Arc::get_mut(&mut chunk) {
                if !owned.records.is_empty() && !self.start(chunk, bytes_read()) {
                    return;
                }
            }
        }
        self.reported = true;
        self.bell.reader_stopped(ReaderEnd::End);
    }

    /// Tells the caller about `chunk`, cut when the inputs' raw bytes read
    /// came to `bytes_read`, and starts solving it on the pool; false when
    /// the caller is gone.
    fn start(&mut self, mut chunk: Arc<Chunk>, bytes_read: u64) -> bool {
        if let Some(owned) = Arc::get_mut(&mut chunk) {
            owned.seq = self.seq;
            *owned.done.get_mut() = false;
            owned
                .batch
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner)
                .bytes_read = bytes_read;
            let runs = owned.records.len().div_ceil(RUN_RECORDS);
            owned.runs.resize_with(runs, Run::default);
            for run in &mut owned.runs {
                *run.done.get_mut() = false;
                let out = run.out.get_mut().unwrap_or_else(PoisonError::into_inner);
                out.results.clear();
                out.marks.clear();
                out.text.clear();
            }
            *owned.next_run.get_mut() = 0;
            *owned.runs_left.get_mut() = runs;
        }
        self.seq += 1;
        let Some(started) = self.started.upgrade() else {
            return false;
        };
        started
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(Arc::clone(&chunk));
        // One task per worker, each taking runs until none is left. No task
        // waits on another, so a chunk is done the moment its last run is,
        // and the pool takes the chunks' tasks in the order they came.
        let tasks = chunk.runs.len().clamp(1, self.settings.threads.max(1));
        let free = self.free.upgrade();
        // The last task takes the reader's own reference: a reference kept
        // here until the tasks are spawned and dropped after them could be
        // the last one, when the tasks and the caller finish with the chunk
        // before this thread runs again (all of them let go of it with
        // `Arc::into_inner`, which hands it to one of them only if all do),
        // and the chunk would be freed instead of handed back: one chunk
        // less in the window each time, and a run that stops for good once
        // none is left (seen once under `strace -f`).
        let mut references: Vec<Arc<Chunk>> = (1..tasks).map(|_| Arc::clone(&chunk)).collect();
        references.push(chunk);
        for chunk in references {
            let free = free.clone();
            let bell = Arc::clone(&self.bell);
            let on_caller = self.on_caller;
            let settings = self.settings;
            let interrupt = self.interrupt.clone();
            let format = self.format.clone();
            self.pool.spawn(move || {
                let done = solve_runs(&chunk, &settings, &interrupt, format.as_deref());
                let mut wake = false;
                if done {
                    chunk.done.store(true, Ordering::SeqCst);
                    wake = bell.wants(&chunk);
                }
                // Let go of before the caller is woken, so that it finds
                // the chunk its own.
                let last = Arc::into_inner(chunk);
                if wake {
                    bell.caller.unpark();
                }
                if let (Some(mut owned), Some(free)) = (last, free) {
                    // The last to hold a chunk already passed on: hand it
                    // back (a full queue or a gone reader drops it).
                    owned.empty();
                    let _ = free.try_send(Arc::new(owned));
                    if on_caller {
                        // The caller may wait for no other chunk.
                        bell.caller.unpark();
                    }
                }
            });
        }
        true
    }
}

/// Takes runs of `chunk` and solves them, each run's rows formatted by this
/// worker, until no run is left to take; the worker that finishes the
/// chunk's last run makes its tally and rows and returns true. Stops taking
/// records once the interrupt is raised (the chunk is then never done).
fn solve_runs(
    chunk: &Chunk,
    settings: &Settings,
    interrupt: &Interrupt,
    format: Option<&dyn RowFormat>,
) -> bool {
    // Compiled for AVX2 where the CPU has it: the cells of the records
    // read in place, and the grids moved between reading, solving and the
    // row, in fewer vector steps.
    simd::widest(
        #[inline(always)]
        || solve_runs_at_width(chunk, settings, interrupt, format),
    )
}

/// [`solve_runs`]' work, inlined into it for the instruction set it runs
/// with.
#[inline(always)]
fn solve_runs_at_width(
    chunk: &Chunk,
    settings: &Settings,
    interrupt: &Interrupt,
    format: Option<&dyn RowFormat>,
) -> bool {
    let records = chunk.records.len();
    let keep_results = settings.results || format.is_some_and(RowFormat::builds_columns);
    // The format that takes the rows of records in the common form without
    // a result made for them ([`RecordBatch::plain`]), when the run needs
    // no more of them than their rows and marks.
    let common = !settings.rate && settings.nine_boxes.is_none();
    let plain = format.filter(|_| !keep_results && common);
    // Their rows' writer, when the format writes them from the fields
    // alone: matched on, and inlined here.
    let plain_rows = plain.and_then(RowFormat::plain_rows);
    let mut lease = Lease::take(settings.solver);
    let Some(state) = lease.0.as_mut() else {
        return false;
    };
    loop {
        let r = chunk.next_run.fetch_add(1, Ordering::Relaxed);
        let Some(run) = chunk.runs.get(r) else {
            // Only a chunk without records gets here before a last run.
            let empty = r == 0 && chunk.runs.is_empty();
            if empty {
                finish(chunk, format, settings.results);
            }
            return empty;
        };
        let end = ((r + 1) * RUN_RECORDS).min(records);
        let mut i = r * RUN_RECORDS;
        while i < end {
            if interrupt.is_raised() {
                return false;
            }
            // A stretch of records in the common form from `i` on, read,
            // then solved back to back, then written (see `solve_stretch`):
            // the record that ended it, if any, and how its rows go.
            let stretch = match plain {
                Some(format) => {
                    // The plain records from `i` on, up to the first that
                    // is not one. A record in the common form is read in
                    // place; any other is parsed, and solved as one when
                    // it is a plain puzzle all the same.
                    let other = read_stretch(
                        state,
                        &mut i,
                        end,
                        #[inline(always)]
                        |i, stretch, scratch| {
                            match chunk.records.plain(i) {
                                Some(record) => stretch.push((record, None)),
                                None => {
                                    let (input, record) = chunk.records.record(i, scratch);
                                    match PlainRecord::parsed(input, &record) {
                                        Some(plain) => stretch.push((plain, None)),
                                        None => return Some((input, record)),
                                    }
                                }
                            }
                            None
                        },
                    );
                    let rows = Written::Rows {
                        format,
                        rows: plain_rows,
                    };
                    Some((other, rows))
                }
                None if common && keep_results => {
                    // A result is kept for each record, but made from a
                    // record in the common form read in place (a Parquet
                    // row's arrays), not from a `Record` made first: the
                    // stretch of them from `i` on, up to the first that
                    // is not in that form.
                    // The closure inlined always: one left out of line was
                    // compiled at the base width, reading both grids there.
                    let other = read_stretch(
                        state,
                        &mut i,
                        end,
                        #[inline(always)]
                        |i, stretch, scratch| {
                            match chunk.records.plain_expected(i) {
                                Some(entry) => stretch.push(entry),
                                None => return Some(chunk.records.record(i, scratch)),
                            }
                            None
                        },
                    );
                    Some((other, Written::Results(format)))
                }
                None => None,
            };
            let (input, mut record) = match stretch {
                Some((other, written)) => {
                    if !solve_stretch(state, settings, run, interrupt, written) {
                        return false;
                    }
                    match other {
                        Some(taken) => taken,
                        None => continue,
                    }
                }
                None => {
                    i += 1;
                    chunk.records.record(i - 1, &mut state.scratch)
                }
            };
            if let Some(shape) = settings.nine_boxes {
                with_boxes(&mut record, shape);
            }
            let mut result = solve_record(
                state.solver.as_mut(),
                input,
                record,
                settings.mode,
                &settings.limits,
            );
            if settings.rate {
                rate_result(
                    &mut result,
                    state.solver.as_mut(),
                    settings.mode,
                    &settings.limits,
                );
            }
            push_result(run, result, keep_results, format);
        }
        run.done.store(true, Ordering::Release);
        if chunk.runs_left.fetch_sub(1, Ordering::AcqRel) == 1 {
            finish(chunk, format, settings.results);
            return true;
        }
    }
}

/// Reads records from `*i` on (up to `end`) into `state.stretch`: `read`
/// pushes record `i` there when it takes it as a plain one (with the
/// status it expects, if any), else returns it; the first it returns ends
/// the stretch, `*i` past it.
#[inline(always)]
fn read_stretch(
    state: &mut WorkerState,
    i: &mut usize,
    end: usize,
    mut read: impl FnMut(
        usize,
        &mut Vec<(PlainRecord, Option<Status>)>,
        &mut Scratch,
    ) -> Option<(usize, Record)>,
) -> Option<(usize, Record)> {
    state.stretch.clear();
    while *i < end {
        let other = read(*i, &mut state.stretch, &mut state.scratch);
        *i += 1;
        if other.is_some() {
            return other;
        }
    }
    None
}

/// A solve at least this long (in nanoseconds) has the rows of its
/// stretch so far written at once ([`solve_stretch`]): a run of hard
/// puzzles has its rows written one by one, as they are solved, and only
/// easy puzzles solved just before a hard one wait for it.
const WRITE_AFTER_NS: u64 = 50_000;

/// Solves the plain records of `state.stretch` (a stretch of a run) back
/// to back, each timed by one clock reading (a lap: its solve and the few
/// instructions that keep its outcome, not the reading of the next record
/// or the writing of its row), then adds them to `run` under one lock, as
/// `to` says ([`write_stretch`]). Taking the clock twice per puzzle, and
/// the run's lock once, cost about 25 ns a row, an easy puzzle about 400.
///
/// The rows so far are written after a solve of [`WRITE_AFTER_NS`] or
/// more too, and before returning false when the interrupt is raised: an
/// interrupt then passes on the rows of the records before the stretch's
/// unwritten ones, and the easy puzzles solved just before the puzzle a
/// worker is on when it comes are solved again by `--resume`.
#[inline(always)]
fn solve_stretch(
    state: &mut WorkerState,
    settings: &Settings,
    run: &Run,
    interrupt: &Interrupt,
    to: Written<'_>,
) -> bool {
    let WorkerState {
        solver,
        stretch,
        solved,
        ..
    } = state;
    solved.clear();
    let mut written = 0;
    let mut stopwatch = Stopwatch::start();
    for (record, _) in stretch.iter() {
        if interrupt.is_raised() {
            write_stretch(&stretch[written..], solved, run, to);
            return false;
        }
        let outcome = solver.solve(&record.puzzle, settings.mode, &settings.limits);
        let solve_ns = stopwatch.lap_ns();
        solved.push((outcome, solve_ns));
        if solve_ns >= WRITE_AFTER_NS {
            let upto = written + solved.len();
            write_stretch(&stretch[written..upto], solved, run, to);
            written = upto;
            stopwatch = Stopwatch::start();
        }
    }
    write_stretch(&stretch[written..], solved, run, to);
    true
}

/// Where a stretch's plain records go once solved ([`write_stretch`]).
#[derive(Clone, Copy)]
enum Written<'a> {
    /// Their rows and marks, in a run that keeps no results: each row
    /// written by `rows` without a result made for it, unless the outcome
    /// has a message (a mismatch, `invalid`, `multiple`) or `format`
    /// writes more than the fields (no `rows`: [`RowFormat::plain_rows`]).
    Rows {
        format: &'a dyn RowFormat,
        rows: Option<PlainRows<'a>>,
    },
    /// Their results, with rows by the format if any ([`push_solved`]).
    Results(Option<&'a dyn RowFormat>),
}

/// Adds `records` so solved (`solved`: their outcomes and solve times, in
/// order, taken out) to `run`, under one lock, as `to` says.
#[inline(always)]
fn write_stretch(
    records: &[(PlainRecord, Option<Status>)],
    solved: &mut Vec<(Outcome, u64)>,
    run: &Run,
    to: Written<'_>,
) {
    let mut guard = run.out();
    let out = &mut *guard;
    match to {
        Written::Rows { format, rows } => {
            // Read where they are: moving each outcome out first (168
            // bytes) was a tenth of the workers' own samples on a run to
            // JSON Lines.
            for ((record, _), (outcome, solve_ns)) in records.iter().zip(solved.iter_mut()) {
                let check = check_solution(
                    outcome.status,
                    outcome.solution.as_ref(),
                    record.solution.as_ref(),
                    None,
                    &mut outcome.message,
                    Difference::nine,
                );
                if let (Some(rows), None) = (rows, &outcome.message) {
                    let fields = RowFields {
                        input: record.input,
                        line: record.line,
                        puzzle: Some(&record.puzzle),
                        status: outcome.status,
                        solution: outcome.solution.as_ref(),
                        guesses: Some(outcome.guesses),
                        solve_ns: Some(*solve_ns),
                        check,
                    };
                    rows.row(&fields, &mut out.text);
                    out.marks.mark(Mark::of_fields(&fields));
                    continue;
                }
                let solved = Solved {
                    outcome: Outcome {
                        message: outcome.message.take(),
                        ..*outcome
                    },
                    solve_ns: *solve_ns,
                    check,
                };
                let result = solved.into_result(record.input, record.line, record.puzzle);
                format.row(&result, &mut out.text);
                out.marks.add(&result);
            }
            solved.clear();
        }
        Written::Results(format) => {
            out.results.reserve(records.len());
            let pairs = records.iter().zip(solved.drain(..));
            for ((record, expected), (outcome, solve_ns)) in pairs {
                let solved = Solved::checked(outcome, solve_ns, record.solution.as_ref(), None);
                push_solved(out, record, *expected, solved, format);
            }
        }
    }
}

/// [`push_result`] of a plain puzzle ([`PlainRecord`]) so `solved`,
/// expecting the status `expected` (the result [`solve_record`] makes of
/// the same record), into `out`, a run's that keeps its results: made
/// where the run keeps it, not made and then moved there (a result is 300
/// bytes).
#[inline(always)]
fn push_solved(
    out: &mut RunOut,
    record: &PlainRecord,
    expected: Option<Status>,
    solved: Solved,
    format: Option<&dyn RowFormat>,
) {
    // Written straight into the vector's room: a `push` made the result on
    // the stack first and then copied its 300 bytes with a call to
    // `memcpy` (64 instructions a row).
    out.results.reserve(1);
    let len = out.results.len();
    let Some(room) = out.results.spare_capacity_mut().first_mut() else {
        return;
    };
    room.write(solved.into_result(record.input, record.line, record.puzzle));
    // SAFETY: the element at `len`, within the capacity, was just written.
    unsafe { out.results.set_len(len + 1) };
    let Some(result) = out.results.last_mut() else {
        return;
    };
    result.expected = expected;
    if let Some(format) = format {
        format.row(result, &mut out.text);
    }
    out.marks.add(result);
}

/// Adds a record's result to `run`: its row formatted by `format`, its
/// mark and rating, and the result itself when `keep_results`.
fn push_result(
    run: &Run,
    result: PuzzleResult,
    keep_results: bool,
    format: Option<&dyn RowFormat>,
) {
    // Locked per record, not per run, so that an interrupt finds every
    // finished record of a run without waiting for a slow one (as
    // `write_stretch` does for a stretch of plain records).
    let mut out = run.out();
    if let Some(format) = format {
        format.row(&result, &mut out.text);
    }
    out.marks.add(&result);
    if keep_results {
        out.results.push(result);
    }
}

/// Makes a solved chunk's tally from its runs, and its rows when `format`
/// seals them ([`RowFormat::seals`]): put together and sealed; or its
/// columns when `format` builds them ([`RowFormat::columns`]), the runs'
/// results dropped on the way unless `keep` (the caller takes them:
/// [`Settings::results`]). Else the runs' rows are handed to the sink as
/// they are ([`Batch::texts`]).
fn finish(chunk: &Chunk, format: Option<&dyn RowFormat>, keep: bool) {
    let mut batch = chunk.batch.lock().unwrap_or_else(PoisonError::into_inner);
    let batch = &mut *batch;
    batch.tally.clear();
    let whole = format.is_some_and(RowFormat::seals);
    let mut outs: Vec<_> = chunk.runs.iter().map(Run::out).collect();
    for out in &outs {
        if whole {
            batch.add(out);
        } else {
            batch.count(out);
        }
    }
    batch.seal(format);
    if let Some(format) = format.filter(|f| f.builds_columns()) {
        let mut runs: Vec<&mut Vec<PuzzleResult>> =
            outs.iter_mut().map(|out| &mut out.results).collect();
        batch.columns = format.columns(&mut runs, !keep);
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::input::FILL_BYTES;
    use crate::job::solved::tests::{record, PUZZLE};

    fn source(records: Vec<Result<Record, InputError>>) -> Source {
        Source::parsed(records.into_iter())
    }

    /// Records of a source that never waits ([`RecordStream::steady`]),
    /// which the pipeline reads on the caller's thread.
    struct Steady(std::vec::IntoIter<Result<Record, InputError>>);

    impl Iterator for Steady {
        type Item = Result<Record, InputError>;

        fn next(&mut self) -> Option<Self::Item> {
            self.0.next()
        }
    }

    impl RecordStream for Steady {
        fn steady(&self) -> bool {
            true
        }
    }

    fn steady(records: Vec<Result<Record, InputError>>) -> Source {
        Source {
            records: Box::new(Steady(records.into_iter())),
            bytes_read: None,
        }
    }

    /// A source of records, made one of the ways below.
    type MakeSource = fn(Vec<Result<Record, InputError>>) -> Source;

    /// Both ways of reading: on a thread of its own, and on the caller's.
    const READERS: [MakeSource; 2] = [source, steady];

    fn settings(threads: usize, chunk_records: usize) -> Settings {
        Settings {
            threads,
            solver: SolverKind::Fast,
            mode: Mode::Unique,
            limits: Limits::default(),
            limit: None,
            chunk_records,
            rate: false,
            results: true,
            nine_boxes: None,
        }
    }

    fn collect(
        sources: Vec<Source>,
        settings: &Settings,
    ) -> (Vec<PuzzleResult>, Result<(), Error>) {
        let mut results = vec![];
        let outcome = run(sources, settings, |batch| {
            assert_eq!(batch.tally.puzzles as usize, batch.results().count());
            results.extend(batch.results().cloned());
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

    /// Thousands of one-record chunks through the window (4 to 16 chunks,
    /// handed back to the reader in pairs while half of it is in flight),
    /// read on a thread of their own and on the caller's:
    /// every record comes back, in order, and the run ends. It is watched
    /// from another thread, so that a chunk lost from the window (the run
    /// then waits for it forever) fails the test rather than hangs it.
    #[test]
    fn every_record_comes_back_through_many_tiny_chunks() {
        for (threads, make) in [1, 2, 3, 8]
            .into_iter()
            .flat_map(|t| READERS.map(|r| (t, r)))
        {
            let (done, finished) = std::sync::mpsc::channel();
            thread::spawn(move || {
                let records = 20_000;
                let (results, outcome) = collect(vec![make(many(records))], &settings(threads, 1));
                let lines: Vec<u64> = results.iter().map(|r| r.line).collect();
                let _ = done.send(outcome.map(|()| lines == (1..=records).collect::<Vec<_>>()));
            });
            let outcome = finished.recv_timeout(std::time::Duration::from_secs(60));
            assert!(
                matches!(outcome, Ok(Ok(true))),
                "-j {threads}: the run stopped, failed or lost records ({outcome:?})"
            );
        }
    }

    #[test]
    fn results_come_out_in_input_order_for_any_thread_count() {
        let (mut one, ok) = collect(vec![source(many(100))], &settings(1, 8));
        ok.unwrap();
        let (mut four, ok) = collect(vec![source(many(100))], &settings(4, 3));
        ok.unwrap();
        let (mut read_here, ok) = collect(vec![steady(many(100))], &settings(2, 3));
        ok.unwrap();
        strip_times(&mut read_here);
        strip_times(&mut one);
        strip_times(&mut four);
        assert_eq!(one, four);
        assert_eq!(one, read_here);
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
        for make in READERS {
            let mut records = many(5);
            records.push(Err(InputError::Io {
                path: PathBuf::from("bad.txt"),
                source: std::io::Error::other("disk on fire"),
            }));
            records.extend(many(5));
            let (results, outcome) = collect(vec![make(records)], &settings(2, 2));
            assert_eq!(results.len(), 5);
            let err = outcome.unwrap_err();
            assert!(err.to_string().contains("bad.txt"), "{err}");
        }
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        for make in READERS {
            let mut calls = 0;
            let outcome = run(vec![make(many(50))], &settings(2, 5), |_| {
                calls += 1;
                Err(Error::BrokenPipe)
            });
            assert!(matches!(outcome, Err(Error::BrokenPipe)));
            assert_eq!(calls, 1);
        }
    }

    #[test]
    fn an_interrupt_raised_before_the_run_stops_it_with_nothing_solved() {
        let interrupt = Interrupt::new();
        interrupt.raise(Signal::Interrupt);
        let mut results = vec![];
        let ending = run_until(
            vec![source(many(50))],
            &settings(2, 5),
            &interrupt,
            None,
            |b| {
                results.extend(b.results().cloned());
                Ok(())
            },
        );
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
        (Source::parsed(records), release)
    }

    #[test]
    fn an_interrupt_ends_a_run_whose_input_never_ends_with_the_rows_so_far() {
        let (source, release) = never_ending(many(12));
        let interrupt = Interrupt::new();
        let mut results = vec![];
        let ending = run_until(vec![source], &settings(2, 5), &interrupt, None, |batch| {
            results.extend(batch.results().cloned());
            interrupt.raise(Signal::Terminate);
            Ok(())
        });
        assert_eq!(ending.unwrap(), Ending::Interrupted(Signal::Terminate));
        let lines: Vec<u64> = results.iter().map(|r| r.line).collect();
        assert!((5..=10).contains(&lines.len()), "{lines:?}");
        assert_eq!(lines, (1..=lines.len() as u64).collect::<Vec<_>>());
        drop(release);
    }

    /// Read on the caller's thread, the input stops being read once the
    /// interrupt is raised: the rows passed on are the first ones, in
    /// order, and not all of them.
    #[test]
    fn an_interrupt_stops_reading_on_the_callers_thread() {
        let interrupt = Interrupt::new();
        let mut lines = vec![];
        let ending = run_until(
            vec![steady(many(1000))],
            &settings(2, 5),
            &interrupt,
            None,
            |batch| {
                lines.extend(batch.results().map(|r| r.line));
                interrupt.raise(Signal::Terminate);
                Ok(())
            },
        );
        assert_eq!(ending.unwrap(), Ending::Interrupted(Signal::Terminate));
        assert!((5..1000).contains(&lines.len()), "{}", lines.len());
        assert_eq!(lines, (1..=lines.len() as u64).collect::<Vec<_>>());
    }

    #[test]
    fn the_window_holds_two_chunks_per_worker_within_bounds_and_bytes() {
        assert_eq!(window(1), 4);
        assert_eq!(window(2), 4);
        assert_eq!(window(3), 6);
        assert_eq!(window(8), 16);
        assert_eq!(window(1024), 16);
        assert_eq!(chunk_bytes(1), FILL_BYTES);
        assert_eq!(chunk_bytes(2), FILL_BYTES);
        assert_eq!(chunk_bytes(4), FILL_BYTES / 2);
        for threads in [1, 3, 5, 8, 1024] {
            assert!(chunk_bytes(threads) * window(threads) <= IN_FLIGHT_BYTES);
        }
    }

    #[test]
    fn the_finished_start_of_a_chunk_stops_at_the_first_gap() {
        let mut solver = SolverKind::Fast.build();
        let format = crate::output::CsvRows::default();
        let runs: Vec<Run> = (0..4).map(|_| Run::default()).collect();
        for (r, lines) in [(0, 1..=2), (1, 3..=3), (3, 7..=8)] {
            let mut out = runs[r].out();
            for line in lines {
                let result = solve_record(
                    solver.as_mut(),
                    0,
                    record(line, PUZZLE),
                    Mode::Unique,
                    &Limits::default(),
                );
                format.row(&result, &mut out.text);
                out.marks.add(&result);
                out.results.push(result);
            }
            drop(out);
            runs[r].done.store(true, Ordering::Release);
        }
        let lines = |batch: &Batch| batch.results().map(|r| r.line).collect::<Vec<u64>>();
        let start = finished_start(&runs, Some(&format));
        assert_eq!(lines(&start), [1, 2, 3]);
        assert_eq!(start.tally.puzzles, 3);
        let rows = String::from_utf8(start.text).unwrap();
        let row_lines: Vec<&str> = rows
            .lines()
            .map(|row| row.split(',').next().unwrap())
            .collect();
        assert_eq!(row_lines, ["1", "2", "3"]);
        let none = finished_start(&runs[2..], Some(&format));
        assert!(none.results().next().is_none() && none.text.is_empty());
        assert_eq!(none.tally.puzzles, 0);
        // A run under way counts with the records it has finished.
        runs[1].done.store(false, Ordering::Release);
        assert_eq!(lines(&finished_start(&runs, None)), [1, 2, 3]);
    }

    /// Chunks go back to the reader two at a time while half the window or
    /// more is in flight, one at a time below that, and none is kept back
    /// for longer than the next.
    #[test]
    fn chunks_go_back_in_pairs_while_the_window_is_half_full() {
        let (queue, free) = sync_channel(4);
        let mut hand_back = HandBack {
            queue: Arc::new(queue),
            held: None,
            window: 4,
        };
        let back = |free: &std::sync::mpsc::Receiver<Arc<Chunk>>| free.try_iter().count();
        hand_back.give(Arc::default(), 3);
        assert_eq!(back(&free), 0);
        hand_back.give(Arc::default(), 2);
        assert_eq!(back(&free), 2);
        hand_back.give(Arc::default(), 2);
        assert_eq!(back(&free), 0);
        hand_back.give(Arc::default(), 1);
        assert_eq!(back(&free), 2);
        hand_back.give(Arc::default(), 1);
        assert_eq!(back(&free), 1);
    }
}
