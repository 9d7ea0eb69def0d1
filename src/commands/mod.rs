//! The subcommands, one module each, and the command line that calls them:
//! [`command_line`] (the subcommands and the hand-over to each) and
//! [`flags`] (`solve`'s flags and the argument groups others share). They
//! sit behind the default `cli` feature, except [`solve`], which the
//! library's other front ends (the Python package) call with a
//! [`Config`](crate::job::config::Config).

#[cfg(feature = "cli")]
pub mod bench;
#[cfg(feature = "cli")]
pub mod check;
#[cfg(feature = "cli")]
pub mod command_line;
#[cfg(feature = "cli")]
pub mod dataset;
#[cfg(feature = "cli")]
pub mod flags;
#[cfg(feature = "cli")]
pub mod merge;
pub mod solve;
