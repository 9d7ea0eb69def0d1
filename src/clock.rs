//! The clock that times each solve (the results' `solve_us`): the CPU's
//! time-stamp counter through `quanta` where it is reliable, the system
//! clock elsewhere. Two reads cost about 20 ns instead of about 40 ns, and
//! an easy puzzle is solved in about 250 ns.
//!
//! `quanta` calibrates the counter against the system clock once per
//! process, reading the system clock in a loop for about 2 ms; started on
//! the first solve, that delays every worker. [`calibrate_early`] starts it
//! on a thread of its own while the run is still starting.

/// Times one solve.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch(quanta::Instant);

impl Stopwatch {
    /// Starts timing now.
    #[inline]
    pub fn start() -> Stopwatch {
        Stopwatch(quanta::Instant::now())
    }

    /// Nanoseconds since [`Stopwatch::start`] (`u64::MAX` after 584 years).
    #[inline]
    pub fn elapsed_ns(&self) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// Starts the clock's one-off calibration on a thread of its own, so that
/// it overlaps the rest of a run's start-up (parsing the command line,
/// opening the files, starting the threads) rather than holding up the
/// first solve. A [`Stopwatch`] started before it ends waits for it. When
/// the thread cannot start, the first stopwatch calibrates instead.
pub fn calibrate_early() {
    let _ = std::thread::Builder::new()
        .name("clock".into())
        .spawn(Stopwatch::start);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_stopwatch_measures_at_least_the_time_slept() {
        calibrate_early();
        let stopwatch = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(3));
        let ns = stopwatch.elapsed_ns();
        assert!(ns >= 3_000_000, "{ns} ns");
        assert!(ns < 10_000_000_000, "{ns} ns");
    }
}
