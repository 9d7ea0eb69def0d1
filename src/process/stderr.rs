//! Messages on stderr that never panic. `eprintln!` panics when stderr is
//! closed, full (`2>/dev/full`) or a pipe whose reader is gone; a warning
//! or a summary that cannot be shown must not turn a finished run into a
//! crash (exit 101) after its results were written. So every message goes
//! through [`stderrln!`](crate::stderrln!) or [`stderr!`](crate::stderr!),
//! which drop what cannot be written (clippy's `disallowed-macros`, in
//! `clippy.toml`, keeps `eprintln!` out).
//!
//! A closed descriptor 2 (`2>&-`) is a second trap: the next file the run
//! opens would get descriptor 2, and messages would land in the results.
//! Rust's runtime reopens closed standard descriptors on `/dev/null` before
//! `main` on Linux and the BSDs; the tests of the binary check that it does.

use std::fmt;
use std::io::{self, Write};

/// Writes `args` to stderr, ignoring any error.
pub fn write(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.flush());
}

/// `eprint!` that never panics: see the [module docs](mod@crate::process::stderr).
#[macro_export]
macro_rules! stderr {
    ($($arg:tt)*) => {
        $crate::process::stderr::write(format_args!($($arg)*))
    };
}

/// `eprintln!` that never panics: see the [module docs](mod@crate::process::stderr).
#[macro_export]
macro_rules! stderrln {
    () => {
        $crate::process::stderr::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::process::stderr::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
