//! The flags of `solve` and the argument groups other subcommands share,
//! defined with clap's derive API (they also feed `--help`). These are raw
//! flags; [`SolveArgs::config`] turns them into a validated
//! [`Config`], taking every decision that depends on the machine or the
//! terminal (the thread count, whether to draw a progress bar, colour)
//! there, once. The command line as a whole (the subcommands)
//! is [`crate::commands::command_line`].

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};
use sudoku_core::solver::{Limits, Mode, SolverKind};

use crate::error::Error;
use crate::input::{Column, Delimiter, Format, Keep, ReadOptions, SizeOptions};
use crate::job::config::{check_threads, Config, Environment};
use crate::job::shard::Shard;
use crate::kept::KeptCast;
use crate::output::progress::Draw;
use crate::output::rating::RatingColumns;
use crate::output::{check_delimiter, Blank, Destination, OutputFormat, ParquetCompression, STDIO};
use sudoku_core::sizes::{Shape, ShapeError, Symbols};

/// The options of `solve`, kept in one struct so that other subcommands
/// with the same inputs and outputs (e.g. `check`) can flatten it.
///
/// Each option's first paragraph is its line in `-h`; `--help` prints the
/// whole text. The options are grouped under the headings below, so that
/// `-h` fits on one screen.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle files (text, CSV, JSON Lines, Parquet; `-` or none: stdin).
    ///
    /// Text lines, CSV, JSON Lines or Parquet; `-` or none means stdin.
    /// gzip and zstd (a `.gz` or `.zst` name, or content starting with
    /// their magic bytes, stdin included) are decompressed on the fly.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// How the inputs are laid out.
    #[command(flatten)]
    pub layout: LayoutArgs,

    /// A file of solutions to check the results against, record by record.
    ///
    /// A file of solutions paired with the input record by record (as the
    /// `solved_*` files of some corpora), each checked against the result
    /// like a solution column (a column named `solution`, `solutions` or
    /// `answer` is checked without it); read as CSV for a `.csv` name, else
    /// as lines. Only with one input.
    #[arg(long, value_name = "FILE", help_heading = INPUT)]
    pub solutions: Option<PathBuf>,

    /// The results file (`-` or absent: stdout); its name picks the format.
    ///
    /// The results; `-` or absent means stdout. The name chooses the format:
    /// `.csv`, `.txt`, no extension, `-` and devices or pipes are CSV,
    /// `.jsonl`/`.ndjson` JSON Lines, `.parquet` Parquet; `.gz` or `.zst`
    /// after a CSV or JSON Lines name compresses it. Any other name needs
    /// --output-format.
    #[arg(short, long, value_name = "FILE", help_heading = OUTPUT)]
    pub output: Option<PathBuf>,

    /// The results' format, whatever the output's name says.
    #[arg(long, value_name = "FORMAT", value_enum, help_heading = OUTPUT)]
    pub output_format: Option<OutputFormat>,

    /// The field delimiter of CSV results [default: ,].
    ///
    /// One character (`tab` or `\t` for a tab) [default: ,].
    #[arg(long, value_name = "C", value_parser = parse_output_delimiter, help_heading = OUTPUT)]
    pub output_delimiter: Option<u8>,

    /// How Parquet results are compressed [default: fast].
    ///
    /// How Parquet results are compressed: `fast` (the default) writes the
    /// columns of every run (`line` to `message`) uncompressed, so that
    /// writing keeps the solver's pace, and the others (`file`, ratings,
    /// kept columns) zstd; `none` compresses nothing; `snappy` and `zstd`
    /// compress every column, on the solver threads (a million Kaggle
    /// rows: 179 MB `fast`, 112 MB `snappy`, 67 MB `zstd`, for about twice
    /// the CPU time of the run). Only for Parquet results.
    #[arg(long, value_name = "CODEC", value_enum, help_heading = OUTPUT)]
    pub parquet_compression: Option<ParquetCompression>,

    /// The blank of the results' `puzzle` column: `.` or `0`.
    #[arg(long, value_name = "C", value_enum, default_value_t = Blank::Dot, help_heading = OUTPUT)]
    pub blank: Blank,

    /// Add `rating` and `hardest` (the Sudoku Explainer scale; see `rate`).
    ///
    /// Add each solved puzzle's difficulty on the Sudoku Explainer scale:
    /// `rating` (one decimal) and `hardest` (the hardest technique) after
    /// `message`; empty for other statuses and for a puzzle beyond the
    /// rater; in every results format (a double and a string column in
    /// Parquet). See `rate`.
    #[arg(long, help_heading = OUTPUT)]
    pub rate: bool,

    /// Copy these input columns into every results row.
    ///
    /// Copy these input columns into every results row, after the results
    /// columns, under their input names: header names (any case) or 1-based
    /// numbers; a JSON key or Parquet column likewise (types kept); `field1`,
    /// `field2`, ... for text lines (split by the delimiter after the first
    /// record's first field, the same for every row; a header line of as
    /// many fields names them too) and CSV without a header.
    #[arg(long, value_name = "COL,...", value_delimiter = ',', value_parser = parse_column, conflicts_with = "keep_all", help_heading = OUTPUT)]
    pub keep: Vec<Column>,

    /// Copy every input column into every results row.
    ///
    /// Copy every input column into every results row (those of the first
    /// record of text lines).
    #[arg(long, help_heading = OUTPUT)]
    pub keep_all: bool,

    /// Write kept columns as int64, float64 or string (`rating=int64`).
    ///
    /// Write kept columns in these types rather than the input's (a CSV
    /// field is text): int64, float64 or string, by the column's input
    /// name (`rating=int64,score=float64`). Empty is null; a value that
    /// does not parse makes its record `malformed`, naming the column and
    /// the value. A type that fits no value of its column stops the run
    /// (exit 2) before anything is written.
    #[arg(long, value_name = "COL=TYPE,...", value_delimiter = ',', help_heading = OUTPUT)]
    pub keep_types: Vec<KeptCast>,

    /// Stop at the first solution instead of proving it is the only one.
    ///
    /// Stop at the first solution (mode `first`) instead of checking that it
    /// is the only one (mode `unique`).
    #[arg(long, help_heading = SOLVING)]
    pub first: bool,

    /// The solver: `fast`, or `naive`, the plain backtracking reference.
    ///
    /// The solver: `fast`, or `naive`, the plain backtracking reference,
    /// which gives up on a puzzle after 10,000,000 placements (status
    /// `timeout`, the limit in `message`) so that no puzzle can stall a run.
    #[arg(long, value_name = "NAME", default_value = "fast", value_parser = solver_parser(), help_heading = SOLVING)]
    pub solver: SolverKind,

    /// Give up on a puzzle after N guesses (status `timeout`); deterministic.
    #[arg(long, value_name = "N", help_heading = SOLVING)]
    pub max_guesses: Option<u64>,

    /// Give up on a puzzle after N milliseconds (status `timeout`).
    ///
    /// Give up on a puzzle after N milliseconds of wall-clock time (status
    /// `timeout`, the limit in `message`); the run goes on. Depends on the
    /// machine and its load, so CI and regression checks should prefer the
    /// deterministic `--max-guesses`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = SOLVING)]
    pub timeout_ms: Option<u64>,

    /// Solver threads [default: all cores].
    ///
    /// Solver threads [default: all cores], at most 1024; more than the
    /// cores is allowed, with a warning. Reading and writing run on their own
    /// threads beside them.
    #[arg(short = 'j', long = "threads", value_name = "N", help_heading = SOLVING)]
    pub threads: Option<usize>,

    /// Continue the unfinished results file of `-o FILE`.
    ///
    /// Continue the results file of `-o FILE` that an earlier run left
    /// unfinished (interrupted, killed): its complete rows are kept (a row cut
    /// short is dropped) and checked against the inputs, those records are
    /// skipped and the rest appended. The summary, and `--limit`, cover the
    /// whole file. For CSV and JSON Lines, plain or `.gz` (a `.gz` file is
    /// kept up to its last complete gzip member); not for stdout, `.zst` or
    /// Parquet.
    #[arg(long, requires = "output", help_heading = RUN)]
    pub resume: bool,

    /// Stop after N puzzle records (malformed ones included).
    ///
    /// Stop after N puzzle records (malformed ones included). With
    /// `--shard`, N counts the records of the whole inputs: the shard takes
    /// its share of the first N.
    #[arg(long, value_name = "N", help_heading = RUN)]
    pub limit: Option<u64>,

    /// Handle only shard K of N (`merge` joins the shards' results).
    ///
    /// Handle only shard K of N: the records whose 0-based number across all
    /// inputs, in order, is K-1 modulo N, keeping their `file` and `line`.
    /// N runs with K = 1..N cover every record once; `merge` joins their
    /// results.
    #[arg(long, value_name = "K/N", help_heading = RUN)]
    pub shard: Option<Shard>,

    /// Write the run's summary as JSON to FILE.
    ///
    /// Write the run's summary as JSON to FILE (`-` for stdout, only when
    /// `-o` names a file).
    #[arg(long, value_name = "FILE", help_heading = RUN)]
    pub summary_json: Option<PathBuf>,

    /// Write the run's summary as one HTML page with charts to FILE.
    ///
    /// Write the run's summary as one self-contained HTML page to FILE: SVG
    /// charts of the status counts and of the solve-time distribution (log
    /// scale), and the summary's figures.
    #[arg(long, value_name = "FILE", help_heading = RUN)]
    pub summary_html: Option<PathBuf>,

    /// No progress bar and no human summary (errors still go to stderr).
    #[arg(long, help_heading = RUN)]
    pub quiet: bool,

    /// Progress bar on stderr: `auto` (a terminal), `always` or `never`.
    ///
    /// Progress bar on stderr: `auto` shows it only when stderr is a terminal
    /// and `--quiet` is absent.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ProgressArg::Auto, help_heading = RUN)]
    pub progress: ProgressArg,
}

/// The `--help` heading of the options that choose and read the inputs.
pub const INPUT: &str = "Input";
/// The `--help` heading of the options that shape the results.
pub const OUTPUT: &str = "Output";
/// The `--help` heading of the solver's options.
pub const SOLVING: &str = "Solving";
/// The `--help` heading of the options of the run as a whole: resuming,
/// shards, the summary and the progress bar.
pub const RUN: &str = "Run and summary";

/// `--keep`/`--keep-all` of the data-set subcommands (`canon`, `augment`):
/// `solve`'s options, resolved by the same code ([`Keep`]).
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct KeepArgs {
    /// Copy these input columns into every row, after the table's columns,
    /// under their input names (`input_` in front of a name the table
    /// has): header names (any case) or 1-based numbers, as `solve --keep`
    /// takes them.
    #[arg(long, value_name = "COL,...", value_delimiter = ',', value_parser = parse_column, conflicts_with = "keep_all")]
    pub keep: Vec<Column>,

    /// Copy every input column into every row (those of the first record
    /// of text lines).
    #[arg(long)]
    pub keep_all: bool,
}

impl KeepArgs {
    /// The columns these flags keep.
    pub fn keep(&self) -> Keep {
        if self.keep_all {
            Keep::All
        } else if self.keep.is_empty() {
            Keep::Nothing
        } else {
            Keep::Columns(self.keep.clone())
        }
    }
}

/// The input layout options, shared by every subcommand that reads puzzle
/// files.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct LayoutArgs {
    /// Input layout (`auto`: by the name, then by the content).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = FormatArg::Auto, help_heading = INPUT)]
    pub format: FormatArg,

    /// The puzzle field: a header name or a 1-based field number.
    ///
    /// The puzzle field: a header name or a 1-based field number (a key or
    /// column of JSON Lines and Parquet; the fields of text lines split by
    /// the file's one delimiter, as `--keep fieldN` counts them).
    #[arg(long, value_name = "NAME|N", value_parser = parse_column, help_heading = INPUT)]
    pub column: Option<Column>,

    /// The CSV field separator: one character, or `auto`.
    ///
    /// The CSV field separator: one character (`tab` for a tab), or `auto`:
    /// a tab for `.tsv`, `.tab` and tab-separated `.txt` or stdin, or when
    /// the first of `,`, `;`, tab and `|` on the first line (outside
    /// quotes) is a tab; else `,` unless the first line holds no comma but
    /// `;`, a tab or `|` (in that order). Text lines find their own (see
    /// `--format lines`).
    #[arg(long, value_name = "C|auto", default_value = "auto", value_parser = Delimiter::parse, help_heading = INPUT)]
    pub delimiter: Delimiter,

    /// The symbols of grids other than 9x9 (e.g. `1-9A-Z`, `numbers`).
    ///
    /// The symbols of grids other than 9x9: `1-9A-Z` (16x16 as `1-9A-G`),
    /// `0-9A-Z` (hexadecimal, `0` a symbol), `A-Z` (either case),
    /// `numbers` (separated by commas or spaces, `0` blank), `numbers0`
    /// (numbers from 0, blanks `.` or `-1`), or the n symbols in order.
    /// Without it each record's alphabet is found from what it holds;
    /// blanks are `.`, `-`, `_`, `+`, and `0` where it is not a symbol (a
    /// record with other blanks that holds a `0` is numbered from 0). 9x9
    /// records are read as always.
    #[arg(long, value_name = "SYMBOLS", value_parser = Symbols::from_name, help_heading = INPUT)]
    pub symbols: Option<Symbols>,

    /// The boxes of grids of side R*C: R rows by C columns.
    ///
    /// The boxes of grids of side R*C: R rows by C columns (`3x2` for 6x6
    /// grids of 3-row boxes). Without it, and for other sides, the usual
    /// boxes: the most nearly square, with fewer rows than columns (6x6:
    /// 2x3, 12x12: 3x4).
    #[arg(long = "box", value_name = "RxC", value_parser = parse_shape, help_heading = INPUT)]
    pub box_shape: Option<Shape>,
}

/// Parses `--box RxC`.
fn parse_shape(value: &str) -> Result<Shape, ShapeError> {
    value.parse()
}

impl LayoutArgs {
    /// The reader options these flags give, with `solutions` paired in.
    pub fn read_options(&self, solutions: Option<PathBuf>) -> ReadOptions {
        ReadOptions {
            format: self.format.into(),
            column: self.column.clone(),
            solutions,
            delimiter: self.delimiter,
            keep: Keep::Nothing,
            kept_types: false,
            sizes: SizeOptions {
                symbols: self.symbols.clone(),
                shape: self.box_shape,
                ..SizeOptions::default()
            },
        }
    }
}

/// `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// By name, past a `.gz` or `.zst` ending (`.parquet`, `.jsonl` or
    /// `.ndjson`, `.csv`, `.tsv` or `.tab` for CSV with tabs), then by
    /// content (Parquet's `PAR1`, a first byte `{` for JSON Lines; CSV for
    /// a first line with a tab after its first field, or quoted fields);
    /// anything else (stdin included) is `lines`.
    Auto,
    /// One puzzle per line; fields split by the file's one delimiter.
    Lines,
    /// CSV with an optional header (`--delimiter`).
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

/// Parses `--output-delimiter`: one character, or `tab`/`\t` for a tab.
///
/// # Errors
/// Not one character, or one that cannot separate the results' fields
/// (see [`check_delimiter`]).
pub fn parse_output_delimiter(text: &str) -> Result<u8, String> {
    let mut chars = text.chars();
    let delimiter = match (text, chars.next(), chars.next()) {
        ("tab" | "\\t", _, _) => '\t',
        (_, Some(c), None) => c,
        _ => return Err(format!("{text:?} is not one character")),
    };
    check_delimiter(delimiter)
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

impl SolveArgs {
    /// These flags as a run's [`Config`], validated against the current environment.
    ///
    /// # Errors
    /// [`Error::Usage`] for flags that do not fit together; see
    /// [`SolveArgs::config_in`].
    pub fn config(&self) -> Result<Config, Error> {
        self.config_in(Environment::detect())
    }

    /// These flags as a run's [`Config`], validated against a given environment.
    ///
    /// # Errors
    /// [`Error::Usage`] when `-j` is 0 or above [`MAX_THREADS`](crate::job::config::MAX_THREADS), when stdin is named twice, when
    /// `--summary-json -` is given without `-o FILE` (stdout already carries
    /// the results), when `--summary-html` names stdout,
    /// when `--solutions` is given with several inputs, and when the output
    /// is refused by [`Config::output_format`] (an unknown extension,
    /// `--resume` of anything but a CSV or JSON Lines file);
    /// [`crate::input::InputError::SameName`] for two inputs that would
    /// have the same name in rows and messages.
    pub fn config_in(&self, env: Environment) -> Result<Config, Error> {
        let args = self;
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
            parquet_compression: args.parquet_compression,
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

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::output::Compression;

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
        solve.args.config_in(env)
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
