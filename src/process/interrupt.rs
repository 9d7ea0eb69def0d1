//! Stopping a run early. While a run is on, SIGINT and SIGTERM only raise a
//! shared [`Interrupt`] flag: the reader stops reading, the solver workers
//! stop taking puzzles, and the writer writes every row finished so far (as
//! far as they run without a gap), the summary marked `interrupted`, and the
//! process exits with 128 + the signal's number (130 or 143).
//!
//! Outside a run (before [`SignalGuard::install`] or after every guard is
//! dropped) the two signals keep their default action: they end the process.
//!
//! SIGXFSZ, which a file size limit (`ulimit -f`) sends on a write past it,
//! is ignored for the whole process ([`fail_writes_past_size_limit`]).

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use signal_hook::consts::{SIGINT, SIGTERM};

/// Makes a write past the file size limit (`ulimit -f`, `RLIMIT_FSIZE`)
/// fail with `EFBIG` instead of ending the process by SIGXFSZ, whose default
/// action killed it (exit 153) without a message, leaving a Parquet file
/// without its footer and a summary empty: so the run ends as on a full
/// disk, with one message, exit 2, and a readable file (see solve.md, "When
/// the results cannot be written"). Call it first thing in `main`, before
/// other threads start; elsewhere than Unix it does nothing.
pub fn fail_writes_past_size_limit() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" installs no
    // handler; no other thread runs yet to race on it.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// How often a thread waiting for work looks at the interrupt flag.
pub const POLL: Duration = Duration::from_millis(50);

/// A signal that stops a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT (Ctrl-C).
    Interrupt,
    /// SIGTERM (`kill`, service managers, `timeout`).
    Terminate,
}

impl Signal {
    /// The signals handled, in the order they are registered.
    pub const ALL: [Signal; 2] = [Signal::Interrupt, Signal::Terminate];

    /// The signal's number (2 or 15).
    pub fn number(self) -> i32 {
        match self {
            Signal::Interrupt => SIGINT,
            Signal::Terminate => SIGTERM,
        }
    }

    /// The signal with this number, if it is one of [`Signal::ALL`].
    pub fn from_number(number: i32) -> Option<Signal> {
        Signal::ALL.into_iter().find(|s| s.number() == number)
    }

    /// The signal's name: `SIGINT` or `SIGTERM`.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
        }
    }

    /// The exit code of a run it stopped, as shells report a process the
    /// signal killed: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    pub fn exit_code(self) -> u8 {
        match self {
            Signal::Interrupt => 130,
            Signal::Terminate => 143,
        }
    }
}

/// A stop request shared by the threads of one run: cheap to clone, cheap
/// to check (one atomic load).
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// The number of the signal that stopped the run; 0 while running.
    raised: Arc<AtomicUsize>,
}

impl Interrupt {
    /// A flag that only [`Interrupt::raise`] raises (for library callers and
    /// tests); see [`SignalGuard::install`] for one that signals raise.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Asks the run to stop, as if `signal` had arrived.
    pub fn raise(&self, signal: Signal) {
        self.raised
            .store(signal.number().unsigned_abs() as usize, Ordering::SeqCst);
    }

    /// The signal that asked the run to stop, if any.
    pub fn signal(&self) -> Option<Signal> {
        match self.raised.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok().and_then(Signal::from_number),
        }
    }

    /// True once the run has been asked to stop.
    #[inline]
    pub fn is_raised(&self) -> bool {
        self.raised.load(Ordering::Relaxed) != 0
    }

    /// Runs `work` on a thread named `name` and returns its value, unless
    /// the flag is raised before the value is handed back: then returns the
    /// signal (within [`POLL`] when `work` is still running),
    /// leaving the thread to end with the process (it may be blocked for
    /// good, e.g. on a stdin that sends nothing). A panic in `work` is
    /// passed on.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn wait_for<T: Send + 'static>(
        &self,
        name: &str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> io::Result<Result<T, Signal>> {
        let (done_tx, done) = mpsc::channel();
        let handle = thread::Builder::new().name(name.into()).spawn(move || {
            let value = work();
            // The waiter may have stopped waiting; the value is then unused.
            let _ = done_tx.send(());
            value
        })?;
        loop {
            if let Some(signal) = self.signal() {
                return Ok(Err(signal));
            }
            match done.recv_timeout(POLL) {
                Err(RecvTimeoutError::Timeout) => {}
                // Sent, or the thread ended without sending: it panicked.
                Ok(()) | Err(RecvTimeoutError::Disconnected) => {
                    let value = match handle.join() {
                        Ok(value) => value,
                        Err(panic) => std::panic::resume_unwind(panic),
                    };
                    // A signal raised while `work` ended wins: the run
                    // stops before it starts, as when the signal came first.
                    return Ok(self.signal().map_or(Ok(value), Err));
                }
            }
        }
    }
}

/// The process-wide registration: the handlers are installed once, the first
/// time a guard is made, and stay; `guards` counts the live guards.
struct Registry {
    raised: Arc<AtomicUsize>,
    guards: usize,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

/// True while no guard is alive: the handlers then run the signal's default
/// action (the process ends), as if they were not installed.
static IDLE: AtomicBool = AtomicBool::new(true);

/// While alive, SIGINT and SIGTERM raise the [`Interrupt`] it came with
/// instead of ending the process. Dropping the last guard gives the signals
/// their default action back.
#[derive(Debug)]
pub struct SignalGuard {
    _private: (),
}

impl SignalGuard {
    /// Installs the handlers (once per process) and returns a guard with the
    /// interrupt flag they raise, lowered.
    ///
    /// # Errors
    /// The operating system refused to install a handler.
    pub fn install() -> io::Result<(SignalGuard, Interrupt)> {
        let mut registry = REGISTRY.lock().unwrap_or_else(PoisonError::into_inner);
        // The run is on before its handlers are installed, and each signal's
        // flag is set before its default action is made conditional: a
        // signal that comes while they are installed stops the run, where
        // one that came between the first handler and the run's start met
        // the handlers idle and ended the process (by SIGTERM, not with
        // 143: seen by a test on a loaded machine).
        let was_idle = IDLE.swap(false, Ordering::SeqCst);
        let registry = match registry.as_mut() {
            Some(registry) => {
                if registry.guards == 0 {
                    registry.raised.store(0, Ordering::SeqCst);
                }
                registry
            }
            None => {
                let raised = Arc::new(AtomicUsize::new(0));
                let registered = Signal::ALL.iter().try_for_each(|signal| {
                    let number = signal.number();
                    signal_hook::flag::register_usize(
                        number,
                        Arc::clone(&raised),
                        number.unsigned_abs() as usize,
                    )?;
                    // Outside a run (after the last guard) this ends the
                    // process, the flag set or not.
                    signal_hook::flag::register_conditional_default(number, &IDLE).map(drop)
                });
                if let Err(e) = registered {
                    IDLE.store(was_idle, Ordering::SeqCst);
                    return Err(e);
                }
                registry.insert(Registry { raised, guards: 0 })
            }
        };
        registry.guards += 1;
        let interrupt = Interrupt {
            raised: Arc::clone(&registry.raised),
        };
        Ok((SignalGuard { _private: () }, interrupt))
    }
}

impl Drop for SignalGuard {
    fn drop(&mut self) {
        let mut registry = REGISTRY.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(registry) = registry.as_mut() {
            registry.guards = registry.guards.saturating_sub(1);
            if registry.guards == 0 {
                IDLE.store(true, Ordering::SeqCst);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_have_shell_exit_codes_and_names() {
        assert_eq!(Signal::Interrupt.exit_code(), 128 + SIGINT as u8);
        assert_eq!(Signal::Terminate.exit_code(), 128 + SIGTERM as u8);
        assert_eq!(Signal::from_number(SIGTERM), Some(Signal::Terminate));
        assert_eq!(Signal::from_number(9), None);
        assert_eq!(Signal::Interrupt.name(), "SIGINT");
    }

    #[test]
    fn a_raised_interrupt_names_its_signal_in_every_clone() {
        let interrupt = Interrupt::new();
        let clone = interrupt.clone();
        assert!(!clone.is_raised());
        assert_eq!(clone.signal(), None);
        interrupt.raise(Signal::Terminate);
        assert!(clone.is_raised());
        assert_eq!(clone.signal(), Some(Signal::Terminate));
    }

    #[test]
    fn waiting_for_work_ends_with_its_value_or_at_the_interrupt() {
        let interrupt = Interrupt::new();
        assert_eq!(interrupt.wait_for("work", || 6 * 7).unwrap(), Ok(42));
        let (_release, blocked) = mpsc::channel::<()>();
        let raiser = interrupt.clone();
        let waited = interrupt.wait_for("blocked", move || {
            raiser.raise(Signal::Interrupt);
            blocked.recv()
        });
        assert_eq!(waited.unwrap(), Err(Signal::Interrupt));

        // Work that sees the signal and ends at once (with a value cut
        // short) still gives the signal, not that value.
        let interrupt = Interrupt::new();
        let raiser = interrupt.clone();
        let waited = interrupt.wait_for("stopping", move || {
            raiser.raise(Signal::Terminate);
            "cut short"
        });
        assert_eq!(waited.unwrap(), Err(Signal::Terminate));
    }

    #[test]
    fn a_real_signal_raises_the_guarded_flag() {
        let (guard, interrupt) = SignalGuard::install().expect("handlers install");
        signal_hook::low_level::raise(SIGTERM).expect("raise works");
        assert_eq!(interrupt.signal(), Some(Signal::Terminate));
        drop(guard);
    }
}
