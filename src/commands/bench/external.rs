//! External solvers (`--cmd NAME=COMMAND`): anyone's solver, measured and
//! verified beside the built-in ones.
//!
//! The protocol: COMMAND runs under `sh -c` and reads puzzles on stdin, one
//! 81-character line each (`.` for blanks, or `0` with `--cmd-blank 0`),
//! and writes one line per puzzle, in order: a solution (81 digits), or any
//! other text meaning "no solution". At `-j N` the harness starts N copies
//! and deals the puzzles round-robin; each copy is a long-lived process that
//! gets its whole share of a run on stdin (then end of file) and answers
//! line by line.
//!
//! Every answer is verified: a solution must keep the puzzle's givens and
//! repeat no digit in a row, column or box; "no solution" is right only for
//! a puzzle that has none (found by the built-in solver beforehand). Wrong
//! answers, and puzzles left without an answer line (the process crashed,
//! stopped early, or gave no answer within `--cmd-timeout-s`, when it is
//! killed), are counted, never hidden.
//!
//! Start-up (the shell, an interpreter, loading tables) is left out of
//! puzzles/s: each copy is timed from its first answer line to its last.
//! It is also measured apart, for the report: the copies are started with
//! empty input and timed until they exit. When the answers come in bursts
//! (a solver that buffers its output, or one so fast that many answers
//! share a pipe read), the first answer does not mark the end of start-up,
//! so the run's wall-clock time less that start-up is used instead.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sudoku_core::grid::{Grid, CELLS};
use sudoku_core::solver::{FastSolver, Limits, Mode, Solver, Status};

use super::measure::{Orders, Plan};
use crate::error::Error;

/// Puzzles each copy answers in the first estimating batch; later batches
/// double until the warm-up time is used.
const FIRST_BATCH: usize = 8;

/// Bytes of stderr kept per copy, to quote when it fails.
const STDERR_TAIL: usize = 2048;

/// How long a copy may take to exit after its last answer (or end of
/// output) before it is killed: at most `--cmd-timeout-s`.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// How often the harness looks for copies that stopped answering.
const POLL: Duration = Duration::from_millis(10);

/// One `--cmd NAME=COMMAND`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    /// The name in the rows' `solver` field.
    pub name: String,
    /// The command line, run by `sh -c`.
    pub command: String,
}

impl ExternalSolver {
    /// Parses `NAME=COMMAND`: NAME is not empty and has no `=` or blank;
    /// COMMAND is not empty.
    ///
    /// # Errors
    /// A message saying what is missing.
    pub fn parse(value: &str) -> Result<ExternalSolver, String> {
        let (name, command) = value
            .split_once('=')
            .ok_or_else(|| format!("'{value}' is not NAME=COMMAND"))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!(
                "'{value}': the NAME before '=' must be a word (no blanks)"
            ));
        }
        if command.trim().is_empty() {
            return Err(format!("'{value}': the COMMAND after '=' is empty"));
        }
        Ok(ExternalSolver {
            name: name.to_string(),
            command: command.to_string(),
        })
    }
}

/// How external solvers are fed and bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Protocol {
    /// The blank character sent in puzzle lines: `.` or `0`.
    pub blank: u8,
    /// The longest wait for one answer line before the copy is killed and
    /// its remaining puzzles count as missing.
    pub timeout: Duration,
}

/// What each puzzle of a data set allows as an answer, found once by the
/// built-in solver: whether it has a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// Per puzzle: `Some(true)` when it has a solution, `Some(false)` when
    /// it has none (its givens clash, or no grid completes it), `None` when
    /// the built-in solver gave up (then either answer is accepted).
    solvable: Vec<Option<bool>>,
}

impl Expected {
    /// Solves every puzzle once (mode `first`) with the built-in fast
    /// solver, on rayon's pool.
    pub fn of(puzzles: &[Grid]) -> Expected {
        let solvable = puzzles
            .par_iter()
            .map_init(FastSolver::new, |solver, puzzle| {
                match solver.solve(puzzle, Mode::First, &Limits::default()).status {
                    Status::Solved | Status::Multiple => Some(true),
                    Status::Invalid | Status::Unsolvable => Some(false),
                    Status::Timeout | Status::Malformed => None,
                }
            })
            .collect();
        Expected { solvable }
    }

    /// True when `answer` (one output line, blanks around it ignored) is a
    /// right answer to puzzle `i` of `puzzles`: a solution of it, or, for a
    /// puzzle without one, anything that is not a complete grid.
    pub fn accepts(&self, puzzles: &[Grid], i: usize, answer: &[u8]) -> bool {
        let answer = answer.trim_ascii();
        let grid = (answer.len() == CELLS)
            .then(|| Grid::parse(answer).ok())
            .flatten()
            .filter(Grid::is_complete);
        match grid {
            Some(grid) => grid.is_solution_of(&puzzles[i]),
            None => self.solvable[i] != Some(true),
        }
    }
}

/// The result of one external measurement: a solver at a number of copies
/// on one data set.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalMeasurement {
    /// The solver's name.
    pub name: String,
    /// Copies run side by side (`-j`).
    pub copies: usize,
    /// Puzzles per second of each timed run (answer lines over wall-clock
    /// time less start-up), in run order.
    pub rates: Vec<f64>,
    /// Start-up time of the copies (median of the probes before each run).
    pub startup: Duration,
    /// Puzzles dealt in the timed runs.
    pub dealt: u64,
    /// Answer lines received in the timed runs (right or wrong).
    pub answered: u64,
    /// Wrong answers in the timed runs.
    pub wrong: u64,
    /// Puzzles dealt in the timed runs that got no answer line.
    pub missing: u64,
    /// Full passes over the data set in all runs, or `None` when the runs
    /// sampled puzzles in random order.
    pub passes: Option<u64>,
    /// Wall-clock time of the timed runs, summed (start-up included).
    pub elapsed: Duration,
    /// What went wrong on the way (crashes, timeouts, extra lines), one
    /// sentence each.
    pub notes: Vec<String>,
}

/// Measures `solver` with `copies` copies on `puzzles` (not empty): a
/// start-up probe and an estimating warm-up, then `plan.runs` timed runs,
/// each full passes or a random sample sized from the estimate to last
/// about `plan.time` (see the module docs).
///
/// # Errors
/// [`Error::Threads`] when a copy, or a thread to feed or read it, cannot
/// be started.
pub fn measure_external(
    solver: &ExternalSolver,
    copies: usize,
    puzzles: &Arc<[Grid]>,
    expected: &Arc<Expected>,
    orders: &Orders,
    plan: &Plan,
    protocol: &Protocol,
) -> Result<ExternalMeasurement, Error> {
    let runner = Runner {
        solver,
        copies,
        puzzles,
        expected,
        protocol,
    };
    let n = puzzles.len();
    let mut notes = Vec::new();

    // Warm-up: growing samples until the warm-up time is used (one at
    // least, to estimate the speed the timed runs are sized by).
    let warmup_start = Instant::now();
    let mut size = FIRST_BATCH * copies;
    let mut rate;
    loop {
        let startup = runner.probe(&mut notes)?;
        let batch = runner.batch(&cycle(&orders.sample, 0, size), startup)?;
        rate = batch.rate(startup);
        notes.extend(batch.notes.iter().cloned());
        if batch.answered == 0 || warmup_start.elapsed() >= plan.warmup {
            break;
        }
        size *= 2;
    }

    let wanted = rate * plan.time.as_secs_f64();
    let full_passes = n as f64 <= 2.0 * wanted;
    let mut m = ExternalMeasurement {
        name: solver.name.clone(),
        copies,
        rates: Vec::with_capacity(plan.runs),
        startup: Duration::ZERO,
        dealt: 0,
        answered: 0,
        wrong: 0,
        missing: 0,
        passes: full_passes.then_some(0),
        elapsed: Duration::ZERO,
        notes: Vec::new(),
    };
    let mut startups = Vec::with_capacity(plan.runs);
    for run in 0..plan.runs.max(1) {
        let startup = runner.probe(&mut notes)?;
        startups.push(startup.as_secs_f64());
        let order = if full_passes {
            let passes = ((wanted / n as f64).round() as usize).max(1);
            m.passes = m.passes.map(|p| p + passes as u64);
            cycle(&orders.pass, 0, passes * n)
        } else {
            // A fresh stretch of the random order each run, not smaller
            // than the first warm-up batch.
            let size = (wanted.round() as usize).max(FIRST_BATCH * copies);
            cycle(&orders.sample, run * size, size)
        };
        let batch = runner.batch(&order, startup)?;
        m.rates.push(batch.rate(startup));
        m.dealt += order.len() as u64;
        m.answered += batch.answered;
        m.wrong += batch.wrong;
        m.missing += batch.missing;
        m.elapsed += batch.elapsed;
        notes.extend(batch.notes);
    }
    m.startup = Duration::from_secs_f64(super::spread::Spread::of(&startups).median);
    let mut seen = Vec::with_capacity(notes.len());
    notes.retain(|n| {
        let new = !seen.contains(n);
        if new {
            seen.push(n.clone());
        }
        new
    });
    m.notes = notes;
    Ok(m)
}

/// `len` indices of `order` starting at position `from`, wrapping around.
fn cycle(order: &[u32], from: usize, len: usize) -> Vec<u32> {
    order
        .iter()
        .copied()
        .cycle()
        .skip(from % order.len())
        .take(len)
        .collect()
}

/// The fixed parts of one external measurement.
struct Runner<'a> {
    solver: &'a ExternalSolver,
    copies: usize,
    puzzles: &'a Arc<[Grid]>,
    expected: &'a Arc<Expected>,
    protocol: &'a Protocol,
}

/// One batch of puzzles answered by the copies.
#[derive(Debug, Default)]
struct Batch {
    answered: u64,
    wrong: u64,
    missing: u64,
    /// Per copy: answers to its deal, the time from the first to the last
    /// of them, and how many of them arrived apart from the line before
    /// (not in one burst).
    spans: Vec<(u64, Duration, u64)>,
    /// From starting the copies to the last answer line.
    elapsed: Duration,
    notes: Vec<String>,
}

impl Batch {
    /// Answer lines per second, start-up excluded. When most of every
    /// copy's answers came apart (a solver that flushes each line), each
    /// copy is timed from its first answer to its last, and the copies'
    /// rates are summed. When any copy's came in bursts (a solver that
    /// buffers its output, or one so fast that many answers share a pipe
    /// read), its first answer says nothing of the start-up, and its span
    /// can be next to nothing (one copy's 8 answers in one read once sized
    /// a run of 0.3 s at 85 s): then wall-clock time less the `startup`
    /// measured apart (at least a tenth of the wall-clock time is left, so
    /// that a start-up measured long by chance cannot make the rate soar).
    fn rate(&self, startup: Duration) -> f64 {
        let streamed = !self.spans.is_empty()
            && self
                .spans
                .iter()
                .all(|&(n, span, apart)| n >= 2 && !span.is_zero() && apart * 2 >= n);
        if streamed {
            return self
                .spans
                .iter()
                .map(|&(n, span, _)| (n - 1) as f64 / span.as_secs_f64())
                .sum();
        }
        let wall = self.elapsed.as_secs_f64();
        let solving = (wall - startup.as_secs_f64()).max(wall / 10.0);
        if solving > 0.0 {
            self.answered as f64 / solving
        } else {
            0.0
        }
    }
}

/// Answers closer than this to the line before count as one burst.
const BURST: Duration = Duration::from_micros(50);

/// What a copy's reader thread counted.
#[derive(Debug, Default)]
struct Answers {
    answered: u64,
    wrong: u64,
    extra: u64,
    /// Answers that arrived more than [`BURST`] after the line before.
    apart: u64,
    /// Nanoseconds from the batch start to the first and the last answer
    /// to the deal.
    first: u64,
    last: u64,
}

/// One running copy and the threads that feed and read it.
struct Copy {
    child: Child,
    writer: Option<JoinHandle<()>>,
    reader: Option<JoinHandle<io::Result<Answers>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
    /// Nanoseconds from the batch start to the latest answer line.
    last_answer: Arc<AtomicU64>,
    /// Answer lines read so far.
    answered: Arc<AtomicU64>,
    /// Set by the reader at end of file.
    done: Arc<AtomicBool>,
    dealt: usize,
    killed: bool,
}

impl Runner<'_> {
    /// Starts a copy of the command, in a process group of its own so that
    /// a kill reaches everything it started.
    fn spawn(&self, stdin: Stdio) -> Result<Child, Error> {
        Command::new("sh")
            .arg("-c")
            .arg(&self.solver.command)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| Error::Threads {
                what: format!("--cmd {} (sh -c)", self.solver.name),
                cause: e.to_string(),
            })
    }

    /// Starts every copy with empty input and times them until all have
    /// exited (or the timeout, when they are killed): the start-up time
    /// that each run's wall-clock time is reduced by.
    fn probe(&self, notes: &mut Vec<String>) -> Result<Duration, Error> {
        let start = Instant::now();
        let mut children = (0..self.copies)
            .map(|_| self.spawn(Stdio::null()))
            .collect::<Result<Vec<Child>, Error>>()?;
        let mut longest = Duration::ZERO;
        for child in &mut children {
            let mut out = child.stdout.take();
            let mut err = child.stderr.take();
            // Drain the pipes so that a chatty command cannot block on them.
            let drain = std::thread::spawn(move || {
                let mut sink = Vec::new();
                if let Some(out) = out.as_mut() {
                    let _ = out.read_to_end(&mut sink);
                }
                if let Some(err) = err.as_mut() {
                    let _ = err.read_to_end(&mut sink);
                }
            });
            loop {
                if has_exited(child) {
                    kill_group(child);
                    let _ = child.wait();
                    break;
                }
                if start.elapsed() > self.protocol.timeout {
                    kill_group(child);
                    let _ = child.wait();
                    notes.push(format!(
                        "{}: did not exit within --cmd-timeout-s on empty input; its \
                         start-up is taken as that long",
                        self.solver.name
                    ));
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = drain.join();
            longest = longest.max(start.elapsed());
        }
        Ok(longest)
    }

    /// Deals `order` round-robin to fresh copies, feeds and reads them
    /// concurrently, kills any that stops answering, and counts. The first
    /// answer may take `startup` longer than the others.
    fn batch(&self, order: &[u32], startup: Duration) -> Result<Batch, Error> {
        let start = Instant::now();
        let mut copies = Vec::with_capacity(self.copies);
        for i in 0..self.copies {
            let deal: Arc<[u32]> = order.iter().skip(i).step_by(self.copies).copied().collect();
            copies.push(self.start_copy(deal, start)?);
        }
        let timeout = self.protocol.timeout.as_nanos() as u64;
        let first_timeout = timeout + startup.as_nanos() as u64;
        let mut notes = Vec::new();
        loop {
            let now = start.elapsed().as_nanos() as u64;
            let mut running = 0;
            for (i, copy) in copies.iter_mut().enumerate() {
                let settled = copy.done.load(Ordering::Acquire)
                    || copy.killed
                    || copy.answered.load(Ordering::Acquire) >= copy.dealt as u64;
                if settled {
                    continue;
                }
                running += 1;
                let last = copy.last_answer.load(Ordering::Acquire);
                let allowed = if copy.answered.load(Ordering::Acquire) == 0 {
                    first_timeout
                } else {
                    timeout
                };
                if now.saturating_sub(last) > allowed {
                    kill_group(&copy.child);
                    copy.killed = true;
                    notes.push(format!(
                        "{} (copy {}): no answer line within --cmd-timeout-s {} after {} \
                         answers; killed",
                        self.solver.name,
                        i + 1,
                        self.protocol.timeout.as_secs_f64(),
                        copy.answered.load(Ordering::Acquire)
                    ));
                }
            }
            if running == 0 {
                break;
            }
            std::thread::sleep(POLL);
        }

        let mut batch = Batch::default();
        let mut last = 0;
        for (i, mut copy) in copies.into_iter().enumerate() {
            // Ended first (killed, if it stays after its answers), so that
            // its output ends and the reader returns.
            let status = finish(&mut copy.child, self.protocol.timeout.min(EXIT_GRACE));
            let read = copy
                .reader
                .take()
                .and_then(|r| r.join().ok())
                .and_then(Result::ok)
                .unwrap_or_default();
            last = last.max(copy.last_answer.load(Ordering::Acquire));
            if let Some(writer) = copy.writer.take() {
                let _ = writer.join();
            }
            let stderr = copy
                .stderr
                .take()
                .and_then(|s| s.join().ok())
                .unwrap_or_default();
            let answered = read.answered.min(copy.dealt as u64);
            batch.answered += answered;
            batch.spans.push((
                answered,
                Duration::from_nanos(read.last - read.first),
                read.apart.min(answered),
            ));
            batch.wrong += read.wrong;
            batch.missing += copy.dealt as u64 - answered;
            if read.extra > 0 {
                notes.push(format!(
                    "{} (copy {}): {} more than puzzles sent, ignored: a line on stdout that \
                     is no answer pairs every answer after it with the next puzzle (write one \
                     line per puzzle, and anything else to stderr)",
                    self.solver.name,
                    i + 1,
                    crate::process::words::count(read.extra, "answer line", "answer lines")
                ));
            }
            if answered < copy.dealt as u64 && !copy.killed {
                notes.push(format!(
                    "{} (copy {}): {} after answering {} of {} {}{}",
                    self.solver.name,
                    i + 1,
                    describe(status),
                    answered,
                    copy.dealt,
                    crate::process::words::noun(copy.dealt as u64, "puzzle", "puzzles"),
                    last_line(&stderr)
                ));
            } else if status.is_some_and(|s| !s.success()) && !copy.killed {
                notes.push(format!(
                    "{} (copy {}): {}{}",
                    self.solver.name,
                    i + 1,
                    describe(status),
                    last_line(&stderr)
                ));
            }
        }
        batch.elapsed = Duration::from_nanos(last);
        batch.notes = notes;
        Ok(batch)
    }

    /// Starts one copy with its deal, and its writer, reader and stderr
    /// threads.
    fn start_copy(&self, deal: Arc<[u32]>, start: Instant) -> Result<Copy, Error> {
        let mut child = self.spawn(Stdio::piped())?;
        let threads = |e: io::Error| Error::Threads {
            what: format!("the threads feeding --cmd {}", self.solver.name),
            cause: e.to_string(),
        };
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let last_answer = Arc::new(AtomicU64::new(0));
        let answered = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));

        let writer = {
            let (deal, puzzles, blank) = (deal.clone(), self.puzzles.clone(), self.protocol.blank);
            std::thread::Builder::new()
                .name("cmd-writer".into())
                .spawn(move || {
                    if let Some(stdin) = stdin {
                        // A copy that exits early closes the pipe: the
                        // write fails and feeding stops.
                        let _ = feed(stdin, &deal, &puzzles, blank);
                    }
                })
                .map_err(threads)?
        };
        let reader = {
            let (deal, puzzles, expected) =
                (deal.clone(), self.puzzles.clone(), self.expected.clone());
            let stamps = Stamps {
                start,
                last_answer: last_answer.clone(),
                answered: answered.clone(),
            };
            let done = done.clone();
            std::thread::Builder::new()
                .name("cmd-reader".into())
                .spawn(move || {
                    let read = match stdout {
                        Some(stdout) => read_answers(stdout, &deal, &puzzles, &expected, &stamps),
                        None => Ok(Answers::default()),
                    };
                    done.store(true, Ordering::Release);
                    read
                })
                .map_err(threads)?
        };
        let stderr = std::thread::Builder::new()
            .name("cmd-stderr".into())
            .spawn(move || stderr.map(tail).unwrap_or_default())
            .map_err(threads)?;
        Ok(Copy {
            child,
            writer: Some(writer),
            reader: Some(reader),
            stderr: Some(stderr),
            last_answer,
            answered,
            done,
            dealt: deal.len(),
            killed: false,
        })
    }
}

/// Writes the puzzle lines of `deal` to a copy's stdin, then closes it.
fn feed(mut stdin: impl Write, deal: &[u32], puzzles: &[Grid], blank: u8) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(64 * 1024);
    for &i in deal {
        let mut line = puzzles[i as usize].line_bytes();
        if blank != b'.' {
            for b in &mut line {
                if *b == b'.' {
                    *b = blank;
                }
            }
        }
        buffer.extend_from_slice(&line);
        buffer.push(b'\n');
        if buffer.len() >= 60 * 1024 {
            stdin.write_all(&buffer)?;
            buffer.clear();
        }
    }
    stdin.write_all(&buffer)?;
    stdin.flush()
}

/// Where a reader thread stamps each answer line's arrival for the
/// harness watching the time.
struct Stamps {
    start: Instant,
    last_answer: Arc<AtomicU64>,
    answered: Arc<AtomicU64>,
}

/// Reads a copy's answer lines to end of file, judging the first
/// `deal.len()` against their puzzles and stamping each line's arrival.
fn read_answers(
    stdout: impl io::Read,
    deal: &[u32],
    puzzles: &[Grid],
    expected: &Expected,
    stamps: &Stamps,
) -> io::Result<Answers> {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Vec::with_capacity(128);
    let mut read = Answers::default();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(read);
        }
        let now = stamps.start.elapsed().as_nanos() as u64;
        let previous = stamps.last_answer.swap(now, Ordering::AcqRel);
        match deal.get(read.answered as usize) {
            Some(&i) => {
                if read.answered == 0 {
                    read.first = now;
                }
                if read.answered == 0 || now - previous > BURST.as_nanos() as u64 {
                    read.apart += 1;
                }
                read.last = now;
                read.answered += 1;
                if !expected.accepts(puzzles, i as usize, &line) {
                    read.wrong += 1;
                }
            }
            None => read.extra += 1,
        }
        stamps.answered.store(read.answered, Ordering::Release);
    }
}

/// The last [`STDERR_TAIL`] bytes a copy wrote to stderr.
fn tail(mut stderr: impl io::Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = stderr.read(&mut chunk) {
        kept.extend_from_slice(&chunk[..n]);
        if kept.len() > 2 * STDERR_TAIL {
            kept.drain(..kept.len() - STDERR_TAIL);
        }
    }
    kept
}

/// `: LINE`, the last non-blank line of `stderr`, or nothing.
fn last_line(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| format!(": {}", l.trim()))
        .unwrap_or_default()
}

/// How a copy ended, in words.
fn describe(status: Option<ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status {
        Some(s) if s.success() => "exited".to_string(),
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => format!("exited with status {code}"),
            (_, Some(signal)) => format!("was killed by signal {signal}"),
            _ => format!("ended ({s})"),
        },
        None => "did not exit".to_string(),
    }
}

/// Waits up to `grace` for a copy whose answers are in to exit, then kills
/// its process group (so that nothing it left running holds its output
/// open) and reaps it; its exit status, if it exited by itself.
fn finish(child: &mut Child, grace: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    let exited = loop {
        if has_exited(child) {
            break true;
        }
        if start.elapsed() >= grace {
            break false;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    kill_group(child);
    let status = child.wait().ok();
    status.filter(|_| exited)
}

/// True when the copy has exited, without reaping it: its process id, and
/// so its group's, stays reserved until `wait`.
fn has_exited(child: &Child) -> bool {
    let pid: libc::id_t = child.id();
    // SAFETY: an all-zero siginfo_t is a valid value, and waitid(2) writes
    // only into it; WNOWAIT leaves the child to `Child::wait`.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOWAIT | libc::WNOHANG;
        libc::waitid(libc::P_PID, pid, &mut info, flags) == 0 && info.si_pid() != 0
    }
}

/// Sends SIGKILL to a copy's process group (the shell and all it
/// started).
fn kill_group(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) takes plain integers and touches no memory; the
        // group is the copy's own, made by `process_group(0)` at spawn.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";

    #[test]
    fn cmd_values_are_name_equals_command() {
        let s = ExternalSolver::parse("py=python3 solve.py --fast").unwrap();
        assert_eq!(
            (s.name.as_str(), s.command.as_str()),
            ("py", "python3 solve.py --fast")
        );
        let s = ExternalSolver::parse("x=a=b").unwrap();
        assert_eq!(s.command, "a=b");
        for bad in ["nothing", "=cmd", "a b=cmd", "name=", "name=  "] {
            assert!(ExternalSolver::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn answers_are_judged_against_givens_and_rules() {
        let puzzle = Grid::parse(PUZZLE).unwrap();
        let mut clash = PUZZLE.to_vec();
        clash[0] = b'1'; // two 1s in the first row: no solution
        let clash = Grid::parse(&clash).unwrap();
        let puzzles = [puzzle, clash];
        let expected = Expected::of(&puzzles);
        assert_eq!(expected.solvable, [Some(true), Some(false)]);
        let solution = FastSolver::new()
            .solve(&puzzle, Mode::First, &Limits::default())
            .solution
            .unwrap()
            .line_bytes();
        assert!(expected.accepts(&puzzles, 0, &solution));
        assert!(expected.accepts(&puzzles, 0, &[&solution[..], b"\r\n"].concat()));
        // Two cells swapped: a rule or a given broken.
        let mut swapped = solution;
        swapped.swap(0, 1);
        assert!(!expected.accepts(&puzzles, 0, &swapped));
        // "No solution" is wrong for a puzzle that has one, right otherwise.
        assert!(!expected.accepts(&puzzles, 0, b"no solution"));
        assert!(!expected.accepts(&puzzles, 0, PUZZLE));
        assert!(expected.accepts(&puzzles, 1, b"unsolvable"));
        assert!(expected.accepts(&puzzles, 1, b""));
        assert!(
            !expected.accepts(&puzzles, 1, &solution),
            "it breaks a given"
        );
    }

    #[test]
    fn streamed_answers_are_timed_first_to_last_and_bursts_less_start_up() {
        let streamed = Batch {
            answered: 22,
            spans: vec![
                (11, Duration::from_secs(1), 11),
                (11, Duration::from_secs(2), 11),
            ],
            elapsed: Duration::from_secs(9),
            ..Batch::default()
        };
        // 10 answers in 1 s and 10 in 2 s, whatever the start-up.
        assert_eq!(streamed.rate(Duration::from_secs(5)), 15.0);
        let burst = Batch {
            spans: vec![
                (11, Duration::from_secs(1), 1),
                (11, Duration::from_secs(2), 1),
            ],
            ..streamed
        };
        assert_eq!(burst.rate(Duration::from_secs(7)), 11.0);
        assert_eq!(
            burst.rate(Duration::from_secs(60)),
            22.0 / 0.9,
            "a tenth kept"
        );
        // One copy streamed, the other's answers in one read 10 us apart:
        // its span says nothing (it made 1,000,000 answers a second).
        let one_burst = Batch {
            spans: vec![
                (11, Duration::from_secs(1), 11),
                (11, Duration::from_micros(10), 1),
            ],
            ..burst
        };
        assert_eq!(one_burst.rate(Duration::from_secs(7)), 11.0);
    }

    #[test]
    fn deals_cycle_through_the_order() {
        assert_eq!(cycle(&[0, 1, 2], 2, 5), [2, 0, 1, 2, 0]);
        assert_eq!(cycle(&[0, 1, 2], 7, 2), [1, 2]);
    }

    #[test]
    fn feeding_writes_one_line_per_puzzle_with_the_chosen_blank() {
        let puzzles = [Grid::parse(PUZZLE).unwrap()];
        let mut out = Vec::new();
        feed(&mut out, &[0, 0], &puzzles, b'0').unwrap();
        assert_eq!(out, [PUZZLE, b"\n", PUZZLE, b"\n"].concat());
        let mut dots = Vec::new();
        feed(&mut dots, &[0], &puzzles, b'.').unwrap();
        assert_eq!(dots[1], b'1');
        assert_eq!(dots[0], b'.');
    }
}
