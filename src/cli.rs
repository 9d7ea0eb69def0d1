//! The command line, defined once with clap's derive API (it also feeds
//! `--help`). These are raw flags; [`crate::config`] turns them into a
//! validated [`crate::config::Config`].

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::input::{Column, Delimiter, Format, ReadOptions};
use crate::shard::Shard;
use crate::solver::SolverKind;

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
    /// Exit codes: 0 when every puzzle is solved and no given solution
    /// mismatched (or there are no puzzles), 1 otherwise, 2 on usage and
    /// I/O errors.
    Solve(SolveArgs),
    /// Measure solver throughput in memory: puzzles/s, guesses and speedup
    /// per data set, solver, mode and thread count.
    ///
    /// Exit codes: 0 when every measurement ran, 2 on usage and I/O errors.
    Bench(crate::bench::BenchArgs),
    /// `solve` for CI: verify every result, require `solved` (or an allowed
    /// or expected status) and compare with a baseline.
    ///
    /// Exit codes: 0 when everything holds, 1 when anything failed (the
    /// report on stderr says what) or no puzzle was read (nothing was
    /// checked), 2 on usage and I/O errors (also a baseline that belongs to
    /// other inputs), 130/143 on SIGINT/SIGTERM (the report then says
    /// `interrupted after N puzzles` and lists the failures so far).
    Check(crate::check::CheckArgs),
    /// Merge the results files of the shards of a run (`--shard K/N`) into
    /// the one a single run would write, in input order, and its summary.
    ///
    /// Exit codes: 0 when the merge is written, 2 on usage and I/O errors,
    /// results that overlap or, with `--inputs`, miss a record (unless
    /// `--allow-missing`).
    Merge(crate::merge::MergeArgs),
    /// Make N fresh puzzles, each with one solution and minimal (removing
    /// any given leaves several solutions): columns
    /// `index,puzzle,solution,clues,guesses`. Puzzle i depends only on the
    /// seed and i, so every -j gives the same bytes and --start continues a
    /// run.
    ///
    /// Exit codes: 0 when done, 2 on usage and I/O errors, 130/143 on
    /// SIGINT/SIGTERM (the rows finished before it are kept).
    Generate(crate::dataset::generate::GenerateArgs),
    /// Minlex canonical form of every record, with duplicates and --against
    /// leaks: columns `line,puzzle,canonical,duplicate_of,against,message`
    /// (`file` first with several inputs).
    ///
    /// Exit codes: 0 when every record was canonicalised and nothing leaked,
    /// 1 when a record was malformed or invalid or an --against record
    /// matched, 2 on usage and I/O errors, 130/143 on SIGINT/SIGTERM.
    Canon(crate::dataset::canon::CanonArgs),
    /// K random equivalent copies of every record, with their solutions:
    /// columns `line,copy,puzzle,solution,transform,status,message` (`file`
    /// first with several inputs).
    ///
    /// Exit codes: 0 when no record was malformed, 1 otherwise, 2 on usage
    /// and I/O errors, 130/143 on SIGINT/SIGTERM.
    Augment(crate::dataset::augment::AugmentArgs),
}

/// The options of `solve`, kept in one struct so that other subcommands
/// with the same inputs and outputs (e.g. `check`) can flatten it.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle files; `-` or none means stdin. Names ending in `.gz` are
    /// decompressed on the fly.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// The results CSV; `-` or absent means stdout. A name ending in `.gz` is
    /// written gzip-compressed.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Solver threads [default: all cores], at most 1024; more than the
    /// cores is allowed, with a warning. Reading and writing run on their own
    /// threads beside them.
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,

    /// Write the run's summary as JSON to FILE (`-` for stdout, only when
    /// `-o` names a file).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,

    /// Write the run's summary as one self-contained HTML page to FILE: SVG
    /// charts of the status counts and of the solve-time distribution (log
    /// scale), and the summary's figures.
    #[arg(long, value_name = "FILE")]
    pub summary_html: Option<PathBuf>,

    /// Stop at the first solution (mode `first`) instead of checking that it
    /// is the only one (mode `unique`).
    #[arg(long)]
    pub first: bool,

    /// The solver: `fast`, or `naive`, the plain backtracking reference,
    /// which gives up on a puzzle after 10,000,000 placements (status
    /// `timeout`, the limit in `message`) so that no puzzle can stall a run.
    #[arg(long, value_name = "NAME", default_value = "fast", value_parser = solver_parser())]
    pub solver: SolverKind,

    /// Give up on a puzzle after N guesses (status `timeout`); deterministic.
    #[arg(long, value_name = "N")]
    pub max_guesses: Option<u64>,

    /// Give up on a puzzle after N milliseconds of wall-clock time (status
    /// `timeout`, the limit in `message`); the run goes on. Depends on the
    /// machine and its load, so CI and regression checks should prefer the
    /// deterministic `--max-guesses`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout_ms: Option<u64>,

    /// Continue the results file of `-o FILE` that an earlier run left
    /// unfinished (interrupted, killed): its complete rows are kept (a row cut
    /// short is dropped) and checked against the inputs, those records are
    /// skipped and the rest appended. The summary, and `--limit`, cover the
    /// whole file. Not for stdout or gzip output.
    #[arg(long, requires = "output")]
    pub resume: bool,

    /// Stop after N puzzle records (malformed ones included). With
    /// `--shard`, N counts the records of the whole inputs: the shard takes
    /// its share of the first N.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// Handle only shard K of N: the records whose 0-based number across all
    /// inputs, in order, is K-1 modulo N, keeping their `file` and `line`.
    /// N runs with K = 1..N cover every record once; `merge` joins their
    /// results.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,

    /// How the inputs are laid out.
    #[command(flatten)]
    pub layout: LayoutArgs,

    /// A file of solutions paired with the input record by record (as the
    /// `solved_*` files of some corpora), each checked against the result
    /// like a solution column; read as CSV for a `.csv` name, else as lines.
    /// Only with one input.
    #[arg(long, value_name = "FILE")]
    pub solutions: Option<PathBuf>,

    /// No progress bar and no human summary (errors still go to stderr).
    #[arg(long)]
    pub quiet: bool,

    /// Progress bar on stderr: `auto` shows it only when stderr is a terminal
    /// and `--quiet` is absent.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ProgressArg::Auto)]
    pub progress: ProgressArg,
}

/// The input layout options, shared by every subcommand that reads puzzle
/// files.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct LayoutArgs {
    /// Input layout. `auto` goes by name, past a `.gz` or `.zst` ending
    /// (`.parquet`, `.jsonl`/`.ndjson`, `.csv`), then by content (Parquet's
    /// `PAR1`, a line starting `{` for JSON Lines); anything else is
    /// `lines` (stdin included).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,

    /// The puzzle field: a header name or a 1-based field number (a key or
    /// column of JSON Lines and Parquet).
    #[arg(long, value_name = "NAME|N", value_parser = parse_column)]
    pub column: Option<Column>,

    /// The CSV field separator: one character (`tab` for a tab), or `auto`:
    /// `,` unless the first line holds no comma but `;`, a tab or `|`.
    #[arg(long, value_name = "C|auto", default_value = "auto", value_parser = parse_delimiter)]
    pub delimiter: Delimiter,
}

impl LayoutArgs {
    /// The reader options these flags give, with `solutions` paired in.
    pub fn read_options(&self, solutions: Option<PathBuf>) -> ReadOptions {
        ReadOptions {
            format: self.format.into(),
            column: self.column.clone(),
            solutions,
            delimiter: self.delimiter,
        }
    }
}

/// `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// `csv` for names ending `.csv` or `.csv.gz`, else `lines`.
    Auto,
    /// One puzzle per line.
    Lines,
    /// CSV with an optional header.
    Csv,
    /// Multi-line grids, one grid row per line.
    Grid,
    /// JSON Lines: one object per line.
    Jsonl,
    /// Parquet (stdin is spooled to a temporary file).
    Parquet,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Format {
        match arg {
            FormatArg::Auto => Format::Auto,
            FormatArg::Lines => Format::Lines,
            FormatArg::Csv => Format::Csv,
            FormatArg::Grid => Format::Grid,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Parquet => Format::Parquet,
        }
    }
}

/// `--progress` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProgressArg {
    /// Only when stderr is a terminal and `--quiet` is absent.
    Auto,
    /// Always, even when stderr is not a terminal.
    Always,
    /// Never.
    Never,
}

/// Parses a solver name (`fast`, `naive`) into a [`SolverKind`]; `--help`
/// lists the names.
pub fn solver_parser() -> impl TypedValueParser<Value = SolverKind> {
    PossibleValuesParser::new(SolverKind::ALL.map(SolverKind::name)).map(|name| {
        SolverKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .unwrap_or_default()
    })
}

/// Parses `--column`: digits are a 1-based field number, anything else a
/// header name.
///
/// # Errors
/// A field number of 0.
pub fn parse_column(value: &str) -> Result<Column, String> {
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        match value.parse::<usize>() {
            Ok(0) => Err("field numbers start at 1".to_string()),
            Ok(n) => Ok(Column::Index(n)),
            Err(e) => Err(e.to_string()),
        }
    } else if value.trim().is_empty() {
        Err("a column name cannot be empty".to_string())
    } else {
        Ok(Column::Name(value.to_string()))
    }
}

/// Parses `--delimiter`: `auto`, `tab`, or one ASCII character other than
/// a quote or a line end.
///
/// # Errors
/// Anything else.
pub fn parse_delimiter(value: &str) -> Result<Delimiter, String> {
    match value {
        "auto" => Ok(Delimiter::Auto),
        "tab" | "\\t" => Ok(Delimiter::Byte(b'\t')),
        _ => match value.as_bytes() {
            [b] if b.is_ascii() && !matches!(b, b'"' | b'\n' | b'\r') => Ok(Delimiter::Byte(*b)),
            _ => Err(
                "expected one ASCII character (not a quote or line end), `tab` or `auto`".into(),
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(args.inputs, ["a.txt", "-"]);
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
        let limit = crate::solver::DEFAULT_MAX_PLACEMENTS;
        assert_eq!(limit, 10_000_000, "update `--solver`'s help and the README");
        assert!(help.contains("10,000,000 placements"), "{help}");
    }

    #[test]
    fn unknown_solver_is_a_usage_error() {
        let err = Cli::try_parse_from(["sudoku-batch", "solve", "--solver", "slow"]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }
}
