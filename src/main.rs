//! The `sudoku-batch` binary: parses the command line, runs the library and
//! turns the result into an exit code (see [`sudoku_batch::error`]).

#![warn(clippy::disallowed_macros)]

use std::process::ExitCode;

use clap::Parser;
use sudoku_batch::commands::command_line::{self, Cli};
use sudoku_batch::error::exit_code;

fn main() -> ExitCode {
    sudoku_batch::process::memory::keep_freed_memory();
    sudoku_batch::process::interrupt::fail_writes_past_size_limit();
    let result = command_line::run(Cli::parse());
    if let Err(e) = &result {
        if !e.is_quiet() {
            sudoku_batch::stderrln!("sudoku-batch: error: {e}");
        }
    }
    ExitCode::from(exit_code(&result))
}
