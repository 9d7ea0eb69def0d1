//! The clock that times each solve (the results' `solve_us`): the CPU's
//! time-stamp counter where it ticks at a constant rate (x86-64 with an
//! invariant counter), the system clock elsewhere. Two counter reads cost
//! about 20 ns instead of about 40 ns, and an easy puzzle is solved in
//! about 250 ns.
//!
//! The counter's rate is learnt from the run itself, not from a calibration
//! loop: such a loop (as in the `quanta` crate) reads the system clock for
//! 0.6 to 3 ms on a core the workers want at `-j 2`, 1.5 % of an 80 ms run.
//! [`calibrate_early`] reads the counter and the system clock together at
//! start-up, and the first stopwatch started 1 ms or more later reads
//! them together again (once: should that fail, the system clock stays):
//! the rate is the ratio of the two spans. A pair's two counter readings
//! are typically 60 ticks apart and at most 2,000, so over 1 ms the rate
//! is typically right to 1 part in 10,000, and at worst to 0.08 % at
//! 2.5 GHz. Stopwatches started before then read the system clock.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long after the first pair the second is read: long enough that the
/// nanoseconds between the readings of a pair hardly count.
const CALIBRATION_SPAN: Duration = Duration::from_millis(1);

/// A pair whose two counter readings are further apart than this was
/// interrupted between them (reading a pair takes about 60 ticks, a
/// preemption microseconds), and is read again. Either end of a pair is
/// then off by at most half of it: 0.04 % of the 1 ms span at 2.5 GHz.
const MAX_PAIR_TICKS: u64 = 2_000;

/// Nanoseconds per counter tick, in 32.32 fixed point; 0 while unknown.
static NS_PER_TICK: AtomicU64 = AtomicU64::new(0);

/// Whether the second pair was read: it is tried once per process, so
/// that a failure does not cost every later stopwatch another try.
static SECOND_PAIR_READ: AtomicBool = AtomicBool::new(false);

/// The first pair; `None` where the counter is not used.
static ANCHOR: OnceLock<Option<Pair>> = OnceLock::new();

/// Times one solve.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch(Start);

/// When a stopwatch started, on the clock it reads.
#[derive(Clone, Copy, Debug)]
enum Start {
    /// The counter's reading, and the rate calibrated when it was taken.
    Counter { ticks: u64, ns_per_tick: u64 },
    /// The system clock, while the counter is not calibrated.
    System(Instant),
}

impl Stopwatch {
    /// Starts timing now; never waits for the counter's calibration.
    /// Inlined always, as [`Stopwatch::elapsed_ns`]: a puzzle's time is
    /// read around its solve on every row.
    #[inline(always)]
    pub fn start() -> Stopwatch {
        match NS_PER_TICK.load(Ordering::Relaxed) {
            0 => Stopwatch(Start::System(system_start())),
            ns_per_tick => Stopwatch(Start::Counter {
                ticks: counter::read(),
                ns_per_tick,
            }),
        }
    }

    /// Nanoseconds since [`Stopwatch::start`] or the last lap, and the
    /// next lap started at the same reading: consecutive solves timed with
    /// one clock reading each, not two (a counter reading costs about 12
    /// ns on a 2-core AMD EPYC, an easy puzzle about 400 ns on two cores).
    #[inline(always)]
    pub fn lap_ns(&mut self) -> u64 {
        match &mut self.0 {
            Start::Counter { ticks, ns_per_tick } => {
                let now = counter::read();
                let ns = ticks_to_ns(now.saturating_sub(*ticks), *ns_per_tick);
                *ticks = now;
                ns
            }
            Start::System(start) => {
                let now = Instant::now();
                let ns = u64::try_from(now.saturating_duration_since(*start).as_nanos())
                    .unwrap_or(u64::MAX);
                *start = now;
                ns
            }
        }
    }

    /// Nanoseconds since [`Stopwatch::start`] (`u64::MAX` after 584 years):
    /// the lap of a copy.
    #[inline(always)]
    pub fn elapsed_ns(&self) -> u64 {
        let mut copy = *self;
        copy.lap_ns()
    }
}

/// Reads the counter and the system clock together for the first time, so
/// that stopwatches started 1 ms later read the counter.
/// Called while a run is starting; without it, the first stopwatch does it.
pub fn calibrate_early() {
    anchor();
}

/// The first pair, read on the first call; `None` where the counter is not
/// used.
fn anchor() -> Option<Pair> {
    *ANCHOR.get_or_init(|| counter::is_invariant().then(Pair::read).flatten())
}

/// The system clock's reading for a stopwatch, calibrating the counter
/// first once the first pair is old enough (the stopwatch's time then
/// starts after that work). One system clock reading otherwise, also
/// after the calibration tried and failed.
#[cold]
#[inline(never)]
fn system_start() -> Instant {
    let now = Instant::now();
    if SECOND_PAIR_READ.load(Ordering::Relaxed) {
        return now;
    }
    let Some(anchor) = anchor() else {
        return now;
    };
    if now.saturating_duration_since(anchor.at) < CALIBRATION_SPAN
        || SECOND_PAIR_READ.swap(true, Ordering::Relaxed)
    {
        return now;
    }
    if let Some(ns_per_tick) = Pair::read().and_then(|pair| anchor.ns_per_tick_until(pair)) {
        NS_PER_TICK.store(ns_per_tick, Ordering::Relaxed);
    }
    Instant::now()
}

/// `ticks` in nanoseconds at `ns_per_tick` (32.32 fixed point), saturating.
fn ticks_to_ns(ticks: u64, ns_per_tick: u64) -> u64 {
    u64::try_from((u128::from(ticks) * u128::from(ns_per_tick)) >> 32).unwrap_or(u64::MAX)
}

/// A counter reading and a system clock reading taken together.
#[derive(Clone, Copy, Debug)]
struct Pair {
    /// The counter, midway between its readings before and after `at`.
    ticks: u64,
    /// The system clock.
    at: Instant,
}

impl Pair {
    /// Reads a pair, trying again (up to 3 times in all) when the thread
    /// was interrupted between the readings or moved to a core whose
    /// counter is behind.
    fn read() -> Option<Pair> {
        (0..3).find_map(|_| {
            let before = counter::read();
            let at = Instant::now();
            let gap = counter::read().checked_sub(before)?;
            (gap <= MAX_PAIR_TICKS).then_some(Pair {
                ticks: before + gap / 2,
                at,
            })
        })
    }

    /// The counter's rate from this pair to a later one, in nanoseconds per
    /// tick (32.32 fixed point); `None` unless both clocks went forward.
    fn ns_per_tick_until(self, later: Pair) -> Option<u64> {
        let ns = later.at.checked_duration_since(self.at)?.as_nanos();
        let ticks = later.ticks.checked_sub(self.ticks).filter(|&t| t > 0)?;
        u64::try_from((ns << 32) / u128::from(ticks))
            .ok()
            .filter(|&rate| rate > 0)
    }
}

/// The time-stamp counter, on x86-64.
#[cfg(target_arch = "x86_64")]
mod counter {
    use std::arch::x86_64::{__cpuid, _rdtsc};

    /// Whether the counter ticks at a constant rate whatever the core's
    /// power state (CPUID leaf `0x8000_0007`, EDX bit 8, "invariant TSC").
    // `__cpuid` is a safe function in recent Rust (1.95 here) but unsafe in
    // 1.89, the crate's rust-version.
    #[allow(unused_unsafe)]
    pub fn is_invariant() -> bool {
        // SAFETY: CPUID only reads registers, and every x86-64 CPU has it;
        // leaf 0x8000_0007 is read only when leaf 0x8000_0000 lists it.
        unsafe {
            __cpuid(0x8000_0000).eax >= 0x8000_0007 && __cpuid(0x8000_0007).edx & (1 << 8) != 0
        }
    }

    /// The counter's reading, in ticks.
    #[inline]
    pub fn read() -> u64 {
        // SAFETY: RDTSC only reads a register, and every x86-64 CPU has it.
        unsafe { _rdtsc() }
    }
}

/// No counter elsewhere: stopwatches read the system clock.
#[cfg(not(target_arch = "x86_64"))]
mod counter {
    /// Never: the counter is only read on x86-64.
    pub fn is_invariant() -> bool {
        false
    }

    /// Never read, as the counter is never calibrated.
    #[inline]
    pub fn read() -> u64 {
        0
    }
}

/// CPU time the process has used so far, user and system, all threads;
/// `None` where it cannot be read. Beside the solve times (clock time on
/// each worker's thread) it tells a busy machine: there the threads wait
/// for a core while the clock runs.
pub fn process_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: `usage` is a valid, writable rusage for the call to fill.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } != 0 {
            return None;
        }
        // SAFETY: getrusage returned 0, so it filled `usage`.
        let usage = unsafe { usage.assume_init() };
        let time = |t: libc::timeval| -> Option<Duration> {
            let micros = u32::try_from(t.tv_usec).ok()?;
            Some(Duration::new(t.tv_sec.try_into().ok()?, micros * 1_000))
        };
        Some(time(usage.ru_utime)? + time(usage.ru_stime)?)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sleeps 3 ms, then checks the stopwatch against the system clock
    /// read just before it started: at least the time slept, and within
    /// 1 % (and 20 µs) of the system clock's span.
    fn agrees_with_the_system_clock(before: Instant, stopwatch: Stopwatch) {
        std::thread::sleep(Duration::from_millis(3));
        let ns = stopwatch.elapsed_ns();
        let outer = before.elapsed().as_nanos();
        assert!(ns >= 3_000_000, "{ns} ns");
        assert!(
            u128::from(ns) <= outer + outer / 100 + 20_000,
            "{ns} ns in {outer} ns"
        );
    }

    #[test]
    fn a_stopwatch_measures_the_time_slept_before_and_after_calibration() {
        calibrate_early();
        agrees_with_the_system_clock(Instant::now(), Stopwatch::start());
        std::thread::sleep(CALIBRATION_SPAN);
        // This one calibrates the counter, if it is used.
        agrees_with_the_system_clock(Instant::now(), Stopwatch::start());
        let uses_counter = counter::is_invariant() && anchor().is_some();
        let before = Instant::now();
        let stopwatch = Stopwatch::start();
        assert_eq!(
            matches!(stopwatch.0, Start::Counter { .. }),
            uses_counter,
            "{stopwatch:?}"
        );
        agrees_with_the_system_clock(before, stopwatch);
    }

    #[test]
    fn laps_follow_one_another_and_add_up_to_the_whole() {
        calibrate_early();
        std::thread::sleep(CALIBRATION_SPAN);
        let before = Instant::now();
        let mut stopwatch = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(2));
        let first = stopwatch.lap_ns();
        std::thread::sleep(Duration::from_millis(3));
        let second = stopwatch.lap_ns();
        let outer = before.elapsed().as_nanos();
        assert!(first >= 2_000_000, "{first} ns");
        assert!(second >= 3_000_000, "{second} ns");
        // The second lap starts where the first ended: it does not count
        // the first lap's 2 ms again.
        assert!(
            u128::from(second) < outer - 2_000_000,
            "{second} ns in {outer} ns"
        );
        assert!(
            u128::from(first + second) <= outer + outer / 100 + 20_000,
            "{first} + {second} ns in {outer} ns"
        );
    }

    #[test]
    fn the_rate_is_the_ratio_of_the_spans() {
        let at = Instant::now();
        let first = Pair { ticks: 1_000, at };
        let later = Pair {
            ticks: 3_001_000,
            at: at + Duration::from_millis(1),
        };
        let rate = first.ns_per_tick_until(later).expect("both went forward");
        assert_eq!(ticks_to_ns(3_000_000, rate), 999_999);
        assert_eq!(ticks_to_ns(3_000_003, rate), 1_000_000);
        assert!(later.ns_per_tick_until(first).is_none());
        assert!(first
            .ns_per_tick_until(Pair {
                ticks: 1_000,
                ..later
            })
            .is_none());
    }

    #[test]
    fn counter_times_saturate() {
        assert_eq!(ticks_to_ns(u64::MAX, u64::MAX), u64::MAX);
        assert_eq!(ticks_to_ns(0, u64::MAX), 0);
        assert_eq!(ticks_to_ns(10, 1 << 32), 10);
    }
}
