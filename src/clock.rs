//! The clock that times each solve (the results' `solve_us`): the CPU's
//! time-stamp counter through `quanta` where it is reliable, the system
//! clock elsewhere. Two reads cost about 20 ns instead of about 40 ns, and
//! an easy puzzle is solved in about 250 ns.
//!
//! `quanta` calibrates the counter against the system clock once per
//! process, reading the system clock in a loop for about 0.6 ms. No solve
//! waits for that: the calibration runs on a thread of its own, started by
//! [`calibrate_early`] while a run is still starting (or by the first
//! [`Stopwatch`]), and stopwatches started before it ends read the system
//! clock instead.

use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

/// The calibration has not been started.
const UNCALIBRATED: u8 = 0;
/// The calibration thread is running.
const CALIBRATING: u8 = 1;
/// The counter is calibrated: stopwatches read it.
const CALIBRATED: u8 = 2;
/// The calibration thread could not start: stopwatches read the system
/// clock for the rest of the process.
const NO_COUNTER: u8 = 3;

/// Where the calibration stands (one of the constants above).
static CALIBRATION: AtomicU8 = AtomicU8::new(UNCALIBRATED);

/// Times one solve.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch(Start);

/// When a stopwatch started, on the clock it reads.
#[derive(Clone, Copy, Debug)]
enum Start {
    /// The calibrated time-stamp counter.
    Counter(quanta::Instant),
    /// The system clock, while the counter is not calibrated.
    System(Instant),
}

impl Stopwatch {
    /// Starts timing now; never waits for the counter's calibration.
    #[inline]
    pub fn start() -> Stopwatch {
        match CALIBRATION.load(Ordering::Acquire) {
            CALIBRATED => Stopwatch(Start::Counter(quanta::Instant::now())),
            UNCALIBRATED => {
                calibrate_early();
                Stopwatch(Start::System(Instant::now()))
            }
            _ => Stopwatch(Start::System(Instant::now())),
        }
    }

    /// Nanoseconds since [`Stopwatch::start`] (`u64::MAX` after 584 years).
    #[inline]
    pub fn elapsed_ns(&self) -> u64 {
        let elapsed = match self.0 {
            Start::Counter(start) => start.elapsed(),
            Start::System(start) => start.elapsed(),
        };
        u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX)
    }
}

/// Starts the counter's one-off calibration on a thread of its own, so
/// that it overlaps the rest of a run's start-up (parsing the command line,
/// opening the files, starting the threads); only the first call does.
/// When the thread cannot start, stopwatches keep to the system clock.
pub fn calibrate_early() {
    if CALIBRATION
        .compare_exchange(
            UNCALIBRATED,
            CALIBRATING,
            Ordering::AcqRel,
            Ordering::Acquire,
        )
        .is_err()
    {
        return;
    }
    let spawned = std::thread::Builder::new().name("clock".into()).spawn(|| {
        // The first reading calibrates quanta's global clock.
        let _ = quanta::Instant::now();
        CALIBRATION.store(CALIBRATED, Ordering::Release);
    });
    if spawned.is_err() {
        CALIBRATION.store(NO_COUNTER, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn measures_the_time_slept(stopwatch: Stopwatch) {
        std::thread::sleep(Duration::from_millis(3));
        let ns = stopwatch.elapsed_ns();
        assert!(ns >= 3_000_000, "{ns} ns");
        assert!(ns < 10_000_000_000, "{ns} ns");
    }

    #[test]
    fn a_stopwatch_measures_at_least_the_time_slept_before_and_after_calibration() {
        calibrate_early();
        measures_the_time_slept(Stopwatch::start());
        let deadline = Instant::now() + Duration::from_secs(10);
        while CALIBRATION.load(Ordering::Acquire) == CALIBRATING && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(CALIBRATION.load(Ordering::Acquire), CALIBRATED);
        let stopwatch = Stopwatch::start();
        assert!(matches!(stopwatch.0, Start::Counter(_)), "{stopwatch:?}");
        measures_the_time_slept(stopwatch);
    }

    #[test]
    fn system_clock_stopwatches_measure_the_time_slept() {
        measures_the_time_slept(Stopwatch(Start::System(Instant::now())));
    }
}
