//! The second stage of the command line: raw flags ([`SolveArgs`]) become a
//! validated [`Config`]. Every decision that depends on the machine or the
//! terminal (the thread count, whether to draw a progress bar, colour) is
//! taken here, once.

use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
#[cfg(feature = "cli")]
use std::time::Duration;

use sudoku_core::solver::{Limits, Mode, SolverKind};

#[cfg(feature = "cli")]
use crate::commands::flags::{ProgressArg, SolveArgs};
use crate::error::Error;
#[cfg(feature = "cli")]
use crate::input::Keep;
use crate::input::ReadOptions;
use crate::job::shard::Shard;
use crate::kept::KeptCast;
use crate::output::progress::Draw;
use crate::output::rating::RatingColumns;
#[cfg(feature = "cli")]
use crate::output::STDIO;
use crate::output::{Blank, Compression, Destination, OutputFormat};
use crate::process::file_guard::FileGuard;

/// The facts about the process's surroundings that flags are resolved
/// against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Environment {
    /// Whether stderr is a terminal.
    pub stderr_is_terminal: bool,
    /// Whether `NO_COLOR` is set to a non-empty value (no-color.org).
    pub no_color: bool,
    /// Cores available to this process (at least 1).
    pub cores: usize,
}

impl Environment {
    /// The current process's environment.
    pub fn detect() -> Environment {
        Environment {
            stderr_is_terminal: std::io::stderr().is_terminal(),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// A validated `solve` configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The inputs' names in order, never empty; `-` is stdin. A name that
    /// is not UTF-8 is shown with `\u{FFFD}` for its other bytes.
    pub inputs: Vec<String>,
    /// The same inputs as the paths to open, exactly as given (names that
    /// are not UTF-8 included).
    pub input_paths: Vec<PathBuf>,
    /// How to read each input.
    pub read: ReadOptions,
    /// The types kept columns are written in (`--keep-types`), by input
    /// name; the other kept columns keep the input's.
    pub keep_types: Vec<KeptCast>,
    /// Where the results go.
    pub output: Destination,
    /// The results' format when `--output-format` gives it; else the
    /// output's name chooses (see [`Config::output_format`]).
    pub output_format: Option<OutputFormat>,
    /// The field delimiter of CSV results.
    pub output_delimiter: u8,
    /// The blank of the results' `puzzle` column.
    pub blank: Blank,
    /// Continue the results file (`--resume`): always a file, CSV or JSON
    /// Lines, plain or gzip.
    pub resume: bool,
    /// Where the JSON summary goes, if anywhere.
    pub summary_json: Option<Destination>,
    /// The file for the HTML summary page, if any.
    pub summary_html: Option<PathBuf>,
    /// Solver threads, at least 1.
    pub threads: usize,
    /// The solver.
    pub solver: SolverKind,
    /// The search mode.
    pub mode: Mode,
    /// Per-puzzle search limits.
    pub limits: Limits,
    /// Stop after this many puzzle records (of the whole inputs, with a
    /// shard).
    pub limit: Option<u64>,
    /// Handle only this shard of the records (`--shard K/N`).
    pub shard: Option<Shard>,
    /// How to draw progress on stderr.
    pub progress: Draw,
    /// Print the human summary on stderr.
    pub human_summary: bool,
    /// Colour is allowed on stderr.
    pub color: bool,
    /// When stdout closes early (`| head`), go on solving every record
    /// without writing it, instead of stopping quietly: `check` must
    /// verify every record. `false` unless set by the subcommand.
    pub finish_when_stdout_closes: bool,
    /// The rating columns: `solve --rate` adds `rating,hardest`; `rate`
    /// writes its own columns (see [`crate::output::rating`]).
    pub rating: RatingColumns,
}

impl Config {
    /// A quiet run of `inputs` into `output` with every other setting at
    /// its default (as `solve` with no other flag, but no progress bar and
    /// no human summary): the starting point of a library caller, which
    /// then sets the fields it needs.
    pub fn new(inputs: Vec<String>, output: Destination) -> Config {
        Config {
            input_paths: inputs.iter().map(PathBuf::from).collect(),
            inputs,
            read: ReadOptions::default(),
            keep_types: Vec::new(),
            output,
            output_format: None,
            output_delimiter: b',',
            blank: Blank::Dot,
            resume: false,
            summary_json: None,
            summary_html: None,
            threads: Environment::detect().cores.max(1),
            solver: SolverKind::default(),
            mode: Mode::default(),
            limits: Limits::default(),
            limit: None,
            shard: None,
            progress: Draw::Off,
            human_summary: false,
            color: false,
            finish_when_stdout_closes: false,
            rating: RatingColumns::None,
        }
    }

    /// The results' format: `--output-format`, else the one the output's
    /// name says (see [`crate::output::format`]).
    ///
    /// # Errors
    /// [`Error::Usage`] when the name says no format, for Parquet in a `.gz`
    /// or `.zst` name, for `--resume` of anything but a CSV (with commas),
    /// JSON Lines (plain or gzip) or Parquet file,
    /// and for a delimiter other than a comma in any format but CSV.
    pub fn output_format(&self) -> Result<OutputFormat, Error> {
        let path = match &self.output {
            Destination::Stdout => None,
            Destination::File { path, .. } => Some(path.as_path()),
        };
        let format = crate::output::format::choose(path, self.output_format)
            .map_err(|e| Error::Usage(e.to_string()))?;
        if self.output_delimiter != b',' && format != OutputFormat::Csv {
            return Err(Error::Usage(format!(
                "--output-delimiter is for CSV results; {} names {format} results",
                self.output.name().display()
            )));
        }
        if self.resume {
            match &self.output {
                Destination::Stdout => {
                    return Err(Error::Usage(
                        "--resume needs -o FILE: it continues a results file".into(),
                    ))
                }
                Destination::File { path, compression } if *compression == Compression::Zstd => {
                    return Err(Error::Usage(format!(
                        "--resume cannot continue a zstd file ({}): a cut-off zstd stream \
                         cannot be appended to; write plain or .gz results to resume",
                        path.display()
                    )))
                }
                Destination::File { .. } => {}
            }
        }
        Ok(format)
    }

    /// The files this run reads (inputs, stdin, `--solutions`) and writes
    /// (the results, `--summary-json`), for [`FileGuard::check`]; a
    /// subcommand registers its own (`--baseline`) before checking.
    pub fn file_guard(&self) -> FileGuard {
        let mut guard = FileGuard::new();
        for input in &self.input_paths {
            guard.reads("input", input);
        }
        if let Some(solutions) = &self.read.solutions {
            guard.reads("--solutions", solutions);
        }
        guard.writes("-o", self.output.name());
        if let Some(summary) = &self.summary_json {
            guard.writes("--summary-json", summary.name());
        }
        if let Some(html) = &self.summary_html {
            guard.writes("--summary-html", html);
        }
        guard
    }

    /// Validates `args` against the current environment.
    ///
    /// # Errors
    /// [`Error::Usage`] for flags that do not fit together; see
    /// [`Config::with_environment`].
    #[cfg(feature = "cli")]
    pub fn from_args(args: &SolveArgs) -> Result<Config, Error> {
        Config::with_environment(args, Environment::detect())
    }

    /// Validates `args` against a given environment.
    ///
    /// # Errors
    /// [`Error::Usage`] when `-j` is 0 or above [`MAX_THREADS`], when stdin is named twice, when
    /// `--summary-json -` is given without `-o FILE` (stdout already carries
    /// the results), when `--summary-html` names stdout,
    /// when `--solutions` is given with several inputs, and when the output
    /// is refused by [`Config::output_format`] (an unknown extension,
    /// `--resume` of anything but a CSV or JSON Lines file);
    /// [`crate::input::InputError::SameName`] for two inputs that would
    /// have the same name in rows and messages.
    #[cfg(feature = "cli")]
    pub fn with_environment(args: &SolveArgs, env: Environment) -> Result<Config, Error> {
        let threads = match args.threads {
            Some(0) => return Err(Error::Usage("-j/--threads must be at least 1".into())),
            Some(n) => {
                check_threads(&[n], env.cores)?;
                n
            }
            None => env.cores.max(1),
        };
        let input_paths: Vec<PathBuf> = if args.inputs.is_empty() {
            vec![PathBuf::from(STDIO)]
        } else {
            args.inputs.clone()
        };
        let inputs = crate::input::input_names(&input_paths)?;
        if inputs.iter().filter(|p| *p == STDIO).count() > 1 {
            return Err(Error::Usage("stdin (`-`) can be read only once".into()));
        }
        if args.solutions.is_some() && inputs.len() > 1 {
            return Err(Error::Usage(
                "--solutions pairs its file with one input; give one input".into(),
            ));
        }
        let output = Destination::from_arg(args.output.as_deref());
        let summary_json = args
            .summary_json
            .as_deref()
            .map(|p| Destination::from_arg(Some(p)));
        // Two outputs that are one file, by any name, are refused by
        // `file_guard` before anything is written; this one says how to
        // mend it.
        if let (Some(Destination::Stdout), Destination::Stdout) = (&summary_json, &output) {
            return Err(Error::Usage(
                "--summary-json - needs -o FILE: stdout already carries the results CSV".into(),
            ));
        }
        if args
            .summary_html
            .as_ref()
            .is_some_and(|html| html.as_os_str() == STDIO)
        {
            return Err(Error::Usage("--summary-html needs a file name".into()));
        }
        let progress = match (args.progress, env.stderr_is_terminal) {
            (ProgressArg::Never, _) | (ProgressArg::Auto, false) => Draw::Off,
            (ProgressArg::Auto, true) if args.quiet => Draw::Off,
            (ProgressArg::Auto | ProgressArg::Always, true) => Draw::Terminal,
            (ProgressArg::Always, false) => Draw::Log,
        };
        let config = Config {
            inputs,
            input_paths,
            read: ReadOptions {
                keep: if args.keep_all {
                    Keep::All
                } else if args.keep.is_empty() {
                    Keep::Nothing
                } else {
                    Keep::Columns(args.keep.clone())
                },
                ..args.layout.read_options(args.solutions.clone())
            },
            keep_types: args.keep_types.clone(),
            output,
            output_format: args.output_format,
            output_delimiter: args.output_delimiter.unwrap_or(b','),
            blank: args.blank,
            resume: args.resume,
            summary_json,
            summary_html: args.summary_html.clone(),
            threads,
            solver: args.solver,
            mode: if args.first {
                Mode::First
            } else {
                Mode::Unique
            },
            limits: Limits {
                max_guesses: args.max_guesses,
                timeout: args.timeout_ms.map(Duration::from_millis),
            },
            limit: args.limit,
            shard: args.shard,
            progress,
            human_summary: !args.quiet,
            color: !env.no_color,
            finish_when_stdout_closes: false,
            rating: if args.rate {
                RatingColumns::Appended
            } else {
                RatingColumns::None
            },
        };
        config.output_format()?;
        Ok(config)
    }
}

/// The most threads `-j` may ask for: more is a usage error (exit 2),
/// refused before any thread starts.
pub const MAX_THREADS: usize = 1024;

/// Checks `-j` thread counts against [`MAX_THREADS`], and warns once on
/// stderr when the largest is more than the machine's `cores` (allowed, but
/// the threads then share cores and gain nothing).
///
/// # Errors
/// [`Error::Usage`] when a count is above [`MAX_THREADS`].
pub fn check_threads(counts: &[usize], cores: usize) -> Result<(), Error> {
    let Some(&most) = counts.iter().max() else {
        return Ok(());
    };
    if most > MAX_THREADS {
        return Err(Error::Usage(format!(
            "-j/--threads {most}: at most {MAX_THREADS} threads (this machine has {})",
            crate::process::words::count(cores as u64, "core", "cores")
        )));
    }
    if most > cores {
        // A closed stderr loses the warning, nothing else.
        let _ = writeln!(
            std::io::stderr().lock(),
            "sudoku-batch: warning: -j {most} is more threads than the {} of this machine; \
             the extra threads share cores and add no speed",
            crate::process::words::count(cores as u64, "core", "cores")
        );
    }
    Ok(())
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use clap::Parser;

    use super::*;

    /// `solve`'s flags alone, as the command line parses them.
    #[derive(Parser)]
    struct Solve {
        #[command(flatten)]
        args: SolveArgs,
    }

    const TERMINAL: Environment = Environment {
        stderr_is_terminal: true,
        no_color: false,
        cores: 4,
    };

    fn config(args: &[&str], env: Environment) -> Result<Config, Error> {
        let solve = Solve::try_parse_from(["solve"].iter().chain(args)).expect("flags parse");
        Config::with_environment(&solve.args, env)
    }

    #[test]
    fn defaults_read_stdin_and_use_every_core() {
        let c = config(&[], TERMINAL).unwrap();
        assert_eq!(c.inputs, ["-"]);
        assert_eq!(c.output, Destination::Stdout);
        assert_eq!(c.threads, 4);
        assert_eq!(c.mode, Mode::Unique);
        assert_eq!(c.progress, Draw::Terminal);
        assert!(c.human_summary && c.color);
    }

    #[test]
    fn progress_auto_needs_a_terminal_and_no_quiet() {
        let piped = Environment {
            stderr_is_terminal: false,
            ..TERMINAL
        };
        let draw = |args: &[&str], env| config(args, env).unwrap().progress;
        assert_eq!(draw(&[], piped), Draw::Off);
        assert_eq!(draw(&["--quiet"], TERMINAL), Draw::Off);
        assert_eq!(draw(&["--progress", "always"], piped), Draw::Log);
        assert_eq!(
            draw(&["--progress", "always", "--quiet"], TERMINAL),
            Draw::Terminal
        );
        assert_eq!(draw(&["--progress", "never"], TERMINAL), Draw::Off);
    }

    #[test]
    fn gz_output_and_first_mode() {
        let c = config(&["-o", "r.csv.gz", "--first", "-j", "1"], TERMINAL).unwrap();
        assert_eq!(
            c.output,
            Destination::File {
                path: "r.csv.gz".into(),
                compression: Compression::Gzip
            }
        );
        assert_eq!((c.mode, c.threads), (Mode::First, 1));
    }

    #[test]
    fn summary_on_stdout_needs_an_output_file() {
        for args in [
            &["--summary-json", "-"][..],
            &["--summary-json", "-", "-o", "-"],
        ] {
            let err = config(args, TERMINAL).unwrap_err();
            assert!(matches!(err, Error::Usage(_)), "{args:?}");
        }
        let c = config(&["--summary-json", "-", "-o", "r.csv"], TERMINAL).unwrap();
        assert_eq!(c.summary_json, Some(Destination::Stdout));
    }

    #[test]
    fn usage_errors() {
        for args in [
            &["-j", "0"][..],
            &["-", "-"],
            &["a.txt", "b.txt", "--solutions", "s.txt"],
            &["--summary-html", "-", "-o", "r.csv"],
        ] {
            assert!(
                matches!(config(args, TERMINAL), Err(Error::Usage(_))),
                "{args:?}"
            );
        }
    }

    #[test]
    fn two_outputs_that_are_one_file_are_refused_by_the_file_guard() {
        for args in [
            &["-o", "x.csv", "--summary-json", "x.csv"][..],
            &["-o", "x.csv", "--summary-json", "./x.csv"],
            &["-o", "r.csv", "--summary-html", "r.csv"],
            &[
                "-o",
                "r.csv",
                "--summary-json",
                "s.json",
                "--summary-html",
                "./s.json",
            ],
        ] {
            let c = config(args, TERMINAL).unwrap();
            let err = c.file_guard().check().unwrap_err();
            assert!(
                err.to_string().contains("are the same file"),
                "{args:?}: {err}"
            );
        }
    }

    #[test]
    fn resume_needs_a_csv_json_lines_or_parquet_output_file_not_zstd() {
        for args in [
            &["--resume", "-o", "-"][..],
            &["--resume", "-o", "r.csv.zst"],
            &["--resume", "-o", "r.jsonl.zst"],
        ] {
            let err = config(args, TERMINAL).unwrap_err();
            assert!(err.to_string().contains("--resume"), "{err}");
        }
        for name in [
            "r.csv",
            "r.csv.gz",
            "r.jsonl",
            "r.ndjson",
            "r.jsonl.gz",
            "r.parquet",
        ] {
            assert!(config(&["--resume", "-o", name], TERMINAL).unwrap().resume);
        }
    }

    #[test]
    fn timeout_ms_becomes_the_time_limit() {
        let c = config(&["--timeout-ms", "1500"], TERMINAL).unwrap();
        assert_eq!(c.limits.timeout, Some(Duration::from_millis(1500)));
        assert_eq!(config(&[], TERMINAL).unwrap().limits.timeout, None);
    }

    #[test]
    fn a_library_config_is_quiet_and_otherwise_the_default() {
        let c = Config::new(vec!["a.txt".into()], Destination::Stdout);
        let flags = config(&["a.txt", "--quiet"], TERMINAL).unwrap();
        assert_eq!((c.progress, c.human_summary), (Draw::Off, false));
        assert_eq!(
            (c.mode, c.limits, c.limit),
            (flags.mode, flags.limits, flags.limit)
        );
        assert_eq!(
            (c.read, c.solver, c.resume),
            (flags.read, flags.solver, flags.resume)
        );
        assert!(c.threads >= 1);
    }

    #[test]
    fn no_color_is_honoured() {
        let env = Environment {
            no_color: true,
            ..TERMINAL
        };
        assert!(!config(&[], env).unwrap().color);
    }
}
