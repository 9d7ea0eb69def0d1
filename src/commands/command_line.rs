//! The command line as a whole: the subcommands (defined with clap's derive
//! API, each with its own flags from its module) and [`run`], which hands
//! each to the module that does its work. Only the binary starts here; the
//! library's other front ends (the Python package) call those modules
//! directly.

use clap::{Parser, Subcommand};

use crate::commands::flags::SolveArgs;
use crate::commands::{bench, check, dataset, merge, solve};
use crate::error::{Error, Verdict};
use crate::output::rating::RatingColumns;
use crate::process::clock;

/// Solve Sudoku puzzles in bulk: a streaming reader, every core solving, a
/// results CSV in input order and a timing summary.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of the inputs and write one results row per record.
    ///
    /// A column named `solution`, `solutions` or `answer` (CSV, JSON Lines,
    /// Parquet) is the given solution: each result is checked against it
    /// (`check` `ok` or `mismatch`), as with `--solutions FILE`.
    ///
    /// Exit codes: 0 when every puzzle is solved and no given solution
    /// mismatched (or there are no puzzles), 1 otherwise, 2 on usage and
    /// I/O errors.
    Solve(SolveArgs),
    /// Rate every puzzle on the Sudoku Explainer difficulty scale.
    ///
    /// The scale runs from 1.0 to 11+, as Sukaku Explainer's serate rates
    /// it. One row per record: `line,puzzle,rating,hardest,steps,status,message`. Takes
    /// `solve`'s options; each puzzle is classified first, and only a
    /// `solved` one is rated (others keep their status, rating empty).
    ///
    /// Exit codes: as `solve`: 0 when every puzzle is solved, 1 otherwise,
    /// 2 on usage and I/O errors.
    #[command(mut_arg("rate", |arg| arg.hide(true)))]
    Rate(SolveArgs),
    /// Measure solver throughput in memory: puzzles/s, guesses and speedup
    /// per data set, solver, mode and thread count.
    ///
    /// Exit codes: 0 when every measurement ran, 2 on usage and I/O errors.
    Bench(bench::BenchArgs),
    /// `solve` for CI: verify every result, require `solved` (or an allowed
    /// or expected status) and compare with a baseline.
    ///
    /// Exit codes: 0 when everything holds, 1 when anything failed (the
    /// report on stderr says what) or the inputs held no puzzle (nothing
    /// was checked; a --shard holding none of their puzzles is 0), 2 on usage and I/O errors (also a baseline that belongs to
    /// other inputs), 130/143 on SIGINT/SIGTERM (the report then says
    /// `interrupted after N puzzles` and lists the failures so far).
    Check(check::CheckArgs),
    /// Merge the results files of the shards of a run (`--shard K/N`) into
    /// the one a single run would write, in input order, and its summary.
    ///
    /// Exit codes: 0 when the merge is written (or stdout is a pipe its
    /// reader closed, `| head`), 2 on usage and I/O errors,
    /// results that overlap or, with `--inputs`, miss a record, or with
    /// `--summaries`, of a shard a signal stopped (both unless
    /// `--allow-missing`).
    Merge(merge::MergeArgs),
    /// Make N fresh puzzles, each with one solution and minimal.
    ///
    /// Minimal: removing any given leaves several solutions. Columns
    /// `index,puzzle,solution,clues,guesses`, or a layout of --columns
    /// (`sudoku-extreme`: `source,question,answer,rating`). Puzzle i depends only on the
    /// seed and i, so every -j gives the same bytes and --start continues a
    /// run.
    ///
    /// Exit codes: 0 when done, 2 on usage and I/O errors, 130/143 on
    /// SIGINT/SIGTERM (the rows finished before it are kept).
    Generate(dataset::generate::GenerateArgs),
    /// Canonical (minlex) forms: duplicates, and leaks into an --against
    /// corpus.
    ///
    /// Columns `line,puzzle,canonical,duplicate_of,against,message` (`file`
    /// first with several inputs), then the input columns of --keep or
    /// --keep-all.
    ///
    /// Exit codes: 0 when every record was canonicalised and nothing leaked,
    /// 1 when a record was malformed or invalid or an --against record
    /// matched, 2 on usage and I/O errors and on a grid of another size than
    /// 9x9 (the output file is then left as it was), 130/143 on
    /// SIGINT/SIGTERM.
    Canon(dataset::canon::CanonArgs),
    /// K random equivalent copies of every record, with their solutions.
    ///
    /// Columns `line,copy,puzzle,solution,transform,status,message` (`file`
    /// first with several inputs), then the input columns of --keep or
    /// --keep-all.
    ///
    /// Exit codes: 0 when no record was malformed, 1 otherwise, 2 on usage
    /// and I/O errors and on a grid of another size than 9x9 (the output
    /// file is then left as it was), 130/143 on SIGINT/SIGTERM.
    Augment(dataset::augment::AugmentArgs),
}

/// Runs a parsed command line: the whole program but for the process exit
/// code, which [`crate::error::exit_code`] derives from the result.
///
/// # Errors
/// Usage and I/O errors; see [`Error`].
pub fn run(cli: Cli) -> Result<Verdict, Error> {
    // A `SUDOKU_BATCH_SIMD` that cannot be used is refused by every
    // command, before it reads anything.
    sudoku_core::solver::Simd::chosen()?;
    match cli.command {
        Command::Solve(args) => {
            clock::calibrate_early();
            let config = args.config()?;
            solve::say_when_reading_a_terminal(&config);
            solve::run(&config).map(|(verdict, _)| verdict)
        }
        Command::Rate(args) => {
            clock::calibrate_early();
            let mut config = args.config()?;
            config.rating = RatingColumns::Only;
            config.output_format()?;
            solve::run(&config).map(|(verdict, _)| verdict)
        }
        Command::Bench(args) => bench::run(&args),
        Command::Check(args) => {
            clock::calibrate_early();
            check::run(&args)
        }
        Command::Generate(args) => dataset::generate::run(&args),
        Command::Canon(args) => dataset::canon::run(&args),
        Command::Augment(args) => dataset::augment::run(&args),
        Command::Merge(args) => merge::run(&args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    use sudoku_core::solver::SolverKind;

    use crate::commands::flags::*;
    use crate::input::Column;
    use crate::job::shard::Shard;

    fn solve_args(args: &[&str]) -> SolveArgs {
        let cli = Cli::try_parse_from(["sudoku-batch", "solve"].iter().chain(args)).unwrap();
        match cli.command {
            Command::Solve(args) => args,
            other => panic!("parsed as another subcommand: {other:?}"),
        }
    }

    #[test]
    fn the_cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn reading_a_terminal_says_so_unless_quiet() {
        let env = crate::job::config::Environment {
            stderr_is_terminal: true,
            no_color: false,
            cores: 2,
        };
        let config = |args: &[&str]| solve_args(args).config_in(env).unwrap();
        let hint = solve::stdin_hint(&config(&[]), true).unwrap();
        assert!(hint.contains("stdin") && hint.contains("Ctrl-D"), "{hint}");
        assert!(solve::stdin_hint(&config(&["a.txt", "-"]), true).is_some());
        assert_eq!(solve::stdin_hint(&config(&[]), false), None);
        assert_eq!(solve::stdin_hint(&config(&["--quiet"]), true), None);
        assert_eq!(solve::stdin_hint(&config(&["a.txt"]), true), None);
    }

    #[test]
    fn defaults() {
        let args = solve_args(&[]);
        assert!(args.inputs.is_empty());
        assert_eq!(args.solver, SolverKind::Fast);
        assert_eq!(args.layout.format, FormatArg::Auto);
        assert_eq!(args.progress, ProgressArg::Auto);
        assert!(!args.first && !args.quiet);
    }

    #[test]
    fn every_option_parses() {
        let args = solve_args(&[
            "a.txt",
            "-",
            "-o",
            "r.csv.gz",
            "-j",
            "3",
            "--summary-json",
            "s.json",
            "--summary-html",
            "s.html",
            "--first",
            "--solver",
            "naive",
            "--max-guesses",
            "10",
            "--timeout-ms",
            "250",
            "--resume",
            "--limit",
            "5",
            "--shard",
            "2/3",
            "--format",
            "csv",
            "--column",
            "quizzes",
            "--solutions",
            "solved.txt",
            "--quiet",
            "--progress",
            "never",
        ]);
        assert_eq!(args.inputs, [PathBuf::from("a.txt"), PathBuf::from("-")]);
        assert_eq!(args.threads, Some(3));
        assert_eq!(args.summary_html, Some(PathBuf::from("s.html")));
        assert_eq!(args.solver, SolverKind::Naive);
        assert_eq!(args.max_guesses, Some(10));
        assert_eq!(args.timeout_ms, Some(250));
        assert!(args.resume);
        assert_eq!(args.limit, Some(5));
        assert_eq!(args.shard, Some(Shard::new(2, 3).unwrap()));
        assert_eq!(args.layout.column, Some(Column::Name("quizzes".into())));
        assert_eq!(args.solutions, Some(PathBuf::from("solved.txt")));
        assert_eq!(args.progress, ProgressArg::Never);
        assert!(args.first && args.quiet);
    }

    #[test]
    fn column_numbers_and_names() {
        assert_eq!(parse_column("2"), Ok(Column::Index(2)));
        assert_eq!(parse_column("Quiz"), Ok(Column::Name("Quiz".into())));
        assert!(parse_column("0").is_err());
        assert!(parse_column("").is_err());
    }

    #[test]
    fn timeout_must_be_positive_and_resume_needs_an_output() {
        for args in [&["--timeout-ms", "0"][..], &["--resume"]] {
            let err = Cli::try_parse_from(["sudoku-batch", "solve"].iter().chain(args))
                .expect_err("a usage error");
            assert_eq!(err.exit_code(), 2, "{args:?}");
        }
    }

    #[test]
    fn solver_help_states_the_naive_placement_limit() {
        use clap::CommandFactory;
        let mut cli = Cli::command();
        let help = cli
            .find_subcommand_mut("solve")
            .expect("a solve subcommand")
            .render_long_help()
            .to_string();
        let limit = sudoku_core::solver::DEFAULT_MAX_PLACEMENTS;
        assert_eq!(limit, 10_000_000, "update `--solver`'s help and the README");
        assert!(help.contains("10,000,000 placements"), "{help}");
    }

    #[test]
    fn unknown_solver_is_a_usage_error() {
        let err = Cli::try_parse_from(["sudoku-batch", "solve", "--solver", "slow"]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }
}
