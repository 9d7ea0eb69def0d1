//! The `check` subcommand: `solve` for CI. It runs `solve` with the same
//! options and outputs, and on top:
//!
//! - verifies every result: a `solved` grid is complete, valid and keeps
//!   its givens; a solution the input gives matches;
//! - requires every puzzle to be `solved`, or to have the status the input
//!   expects (a `status` column), or one of `--allow`;
//! - compares with `--baseline` (see [`baseline`]);
//! - prints a report on stderr, even with `--quiet`, naming every failure
//!   (see [`report`]).
//!
//! Exit codes: 0 when everything holds, 1 when anything failed, 2 on usage
//! and I/O errors, and for a baseline that belongs to other inputs; 130 or
//! 143 when SIGINT or SIGTERM stopped the run (the report then says
//! `interrupted after N puzzles`, never `ok`, and lists the failures among
//! the rows finished before the signal). A run that reads no puzzle record
//! fails (exit 1): it checked nothing. `--resume` is hidden from `--help`
//! and refused: every row must be verified.

pub mod baseline;
pub mod report;

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use sudoku_core::solver::Status;

use self::baseline::Baseline;
use self::report::{Place, Problem, Report, Solution};
use crate::commands::flags::SolveArgs;
use crate::commands::solve;
use crate::error::{Error, Verdict};
use crate::output::rating::RatingColumns;
use crate::output::result::{Check, PuzzleResult};

/// The options of `check`: those of `solve` (but `--resume`, hidden from
/// `--help` and refused, since every row must be verified), and these.
#[derive(Debug, Args)]
#[command(mut_arg("resume", |arg| arg.hide(true).requires(clap::builder::Resettable::Reset)))]
pub struct CheckArgs {
    /// Every option of `solve`.
    #[command(flatten)]
    pub solve: SolveArgs,

    /// Statuses accepted besides `solved` (or the input's expected status),
    /// comma-separated; e.g. `multiple` for corpora known to hold some.
    #[arg(long, value_name = "STATUS,...", value_delimiter = ',', value_parser = status_parser())]
    pub allow: Vec<Status>,

    /// An earlier run to compare with: a `--summary-json` file (a JSON
    /// object), or its results (`-o`: CSV or JSON Lines, `.gz` allowed, or
    /// Parquet) matched on (`file`, `line`).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// With a summary baseline: how far total guesses may move, in percent
    /// of the baseline's [default: 0].
    #[arg(long, value_name = "PCT", value_parser = parse_non_negative)]
    pub max_guess_change: Option<f64>,

    /// With a summary baseline: fail when puzzles/s falls below R times the
    /// baseline's (off by default: CI machines are noisy).
    #[arg(long, value_name = "R", value_parser = parse_non_negative)]
    pub min_speed_ratio: Option<f64>,
}

fn status_parser() -> impl TypedValueParser<Value = Status> {
    PossibleValuesParser::new(Status::ALL.map(Status::name))
        .map(|name| name.parse().unwrap_or(Status::Solved))
}

fn parse_non_negative(value: &str) -> Result<f64, String> {
    match value.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("'{value}' is not a number of 0 or more")),
    }
}

/// The checks made on each result, whatever the baseline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Statuses accepted besides the wanted one.
    pub allow: Vec<Status>,
}

impl Rules {
    /// Checks one result, reporting what does not hold.
    pub fn verify(&self, result: &PuzzleResult, place: impl Fn() -> Place, report: &mut Report) {
        let wanted = result.expected.unwrap_or(Status::Solved);
        if result.status != wanted && !self.allow.contains(&result.status) {
            report.push(
                place(),
                Problem::Status {
                    found: result.status,
                    wanted,
                    allowed: self.allow.clone(),
                },
            );
        }
        if result.status == Status::Solved {
            let valid = match (&result.puzzle, &result.solution, &result.sized) {
                (Some(puzzle), Some(solution), _) => solution.is_solution_of(puzzle),
                (_, _, Some(sized)) => sized
                    .solution
                    .as_ref()
                    .is_some_and(|solution| solution.is_solution_of(&sized.puzzle)),
                _ => false,
            };
            if !valid {
                report.push(
                    place(),
                    Problem::NotASolution {
                        solution: Solution::of(result),
                    },
                );
            }
        }
        if result.check == Some(Check::Mismatch) {
            report.push(
                place(),
                Problem::Mismatch {
                    solution: Solution::of(result),
                    why: result.message.clone(),
                },
            );
        }
    }
}

/// Runs `check`: see the module docs.
///
/// # Errors
/// Usage errors (also `--max-guess-change` or `--min-speed-ratio` without
/// a summary baseline), input and output errors as for `solve`, and
/// [`Error::Baseline`] for a baseline that cannot be read or belongs to
/// other inputs.
pub fn run(args: &CheckArgs) -> Result<Verdict, Error> {
    // Before the options are checked together: `--resume` without `-o`
    // is refused for this reason, not for the missing `-o`.
    if args.solve.resume {
        return Err(Error::Usage(
            "check verifies every row, so it cannot --resume: run it again from the start".into(),
        ));
    }
    let mut config = args.solve.config()?;
    solve::say_when_reading_a_terminal(&config);
    // `check ... | head`: every record is still verified.
    config.finish_when_stdout_closes = true;
    let mut guard = config.file_guard();
    if let Some(path) = &args.baseline {
        guard.reads("--baseline", path);
    }
    guard.check()?;
    let rules = Rules {
        allow: args.allow.clone(),
    };
    let mut baseline = args
        .baseline
        .as_deref()
        .map(|path| Baseline::open(path, &config.inputs))
        .transpose()?;
    if let (Some(Baseline::Rows(rows)), Some(shard)) = (&mut baseline, config.shard) {
        rows.set_shard(shard);
    }
    let mut report = Report::new();
    if let Some(Baseline::Rows(rows)) = &mut baseline {
        if let Some(note) = rows.compare_ratings(config.rating != RatingColumns::None) {
            report.note(note);
        }
    }
    let summary_only = |flag: &str| {
        Error::Usage(format!(
            "{flag} compares totals: it needs a --baseline written by --summary-json"
        ))
    };
    match &baseline {
        Some(Baseline::Summary(old)) => {
            old.fits(config.solver, config.mode)
                .map_err(|message| Error::Baseline {
                    path: args.baseline.clone().unwrap_or_default(),
                    message,
                })?
        }
        _ if args.max_guess_change.is_some() => return Err(summary_only("--max-guess-change")),
        _ if args.min_speed_ratio.is_some() => return Err(summary_only("--min-speed-ratio")),
        _ => {}
    }

    let names = config.inputs.clone();
    let (verdict, summary) = solve::run_observed(&config, |batch| {
        for result in batch.results() {
            let place = || Place::Line {
                file: names[result.input].clone(),
                line: result.line,
            };
            // Baseline rows passed over first, so that each record's
            // problems are reported together.
            if let Some(Baseline::Rows(rows)) = &mut baseline {
                rows.pass_before((result.input, result.line), &mut report)?;
            }
            rules.verify(result, place, &mut report);
            if let Some(Baseline::Rows(rows)) = &mut baseline {
                rows.compare(result, &mut report)?;
            }
        }
        Ok(())
    })?;

    let base_name = args
        .baseline
        .as_deref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    if let Verdict::Interrupted(_) = verdict {
        // What was checked before the signal (never `ok`), then the
        // signal's exit code.
        crate::stderr!("{}", report.render_interrupted(summary.puzzles));
        return Ok(verdict);
    }
    // A shard of inputs that hold records may hold none of them (a CI
    // matrix of more shards than records): `solve` has said so, and the
    // other shards check the records.
    let shard_of_records = summary.shard_of.is_some_and(|records| records > 0);
    if summary.puzzles == 0 && !shard_of_records {
        // An empty or header-only input would otherwise pass having
        // checked nothing: a trap for a CI job pointed at the wrong file.
        let names: Vec<&str> = config
            .inputs
            .iter()
            .map(|n| if n == "-" { "stdin" } else { n.as_str() })
            .collect();
        let inputs = names.join(", ");
        report.push(Place::Run, Problem::NoPuzzles { inputs });
    }
    let checks = match &mut baseline {
        None => "no baseline".to_string(),
        Some(Baseline::Rows(rows)) => {
            // Rows after the last record are expected to be missing when
            // the run was cut short on purpose.
            let matched = rows.finish(config.limit.is_some(), &mut report)?;
            if let Some(hint) = rows.hint() {
                report.set_hint(hint);
            }
            match config.shard {
                Some(shard) => format!(
                    "{} of shard {shard} compared with baseline {base_name}",
                    crate::process::words::count(matched, "row", "rows")
                ),
                None => format!(
                    "{} compared with baseline {base_name}",
                    crate::process::words::count(matched, "row", "rows")
                ),
            }
        }
        Some(Baseline::Summary(old)) => {
            old.compare(
                &summary,
                args.max_guess_change.unwrap_or(0.0),
                args.min_speed_ratio,
                &mut report,
            )
            .map_err(|mut message| {
                if let Some(shard) = config.shard {
                    message.push_str(&format!(
                        " (this run is shard {shard}: a summary holds the totals of the run \
                         that wrote it; check a shard against a results CSV of the whole \
                         inputs, or check the merged summary)"
                    ));
                }
                Error::Baseline {
                    path: args.baseline.clone().unwrap_or_default(),
                    message,
                }
            })?;
            format!("totals compared with baseline {base_name}")
        }
    };
    crate::stderr!("{}", report.render(summary.puzzles, &checks));
    Ok(if report.total() == 0 {
        Verdict::Clean
    } else {
        Verdict::Failures
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use sudoku_core::grid::Grid;

    use super::*;
    use crate::commands::command_line::{Cli, Command};

    const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";

    fn args(flags: &[&str]) -> CheckArgs {
        let cli = Cli::try_parse_from(["sudoku-batch", "check"].iter().chain(flags)).unwrap();
        let Command::Check(args) = cli.command else {
            panic!("parsed as another subcommand")
        };
        args
    }

    #[test]
    fn check_takes_every_solve_option_and_its_own() {
        let a = args(&[
            "a.txt",
            "-o",
            "r.csv",
            "-j",
            "2",
            "--quiet",
            "--allow",
            "multiple,timeout",
            "--baseline",
            "b.csv",
            "--max-guess-change",
            "2.5",
            "--min-speed-ratio",
            "0.5",
        ]);
        assert_eq!(a.solve.inputs, [PathBuf::from("a.txt")]);
        assert_eq!(a.solve.threads, Some(2));
        assert!(a.solve.quiet);
        assert_eq!(a.allow, [Status::Multiple, Status::Timeout]);
        assert_eq!(a.max_guess_change, Some(2.5));
        assert_eq!(a.min_speed_ratio, Some(0.5));
        for bad in [&["--allow", "fine"][..], &["--max-guess-change", "-1"]] {
            let err = Cli::try_parse_from(["sudoku-batch", "check"].iter().chain(bad));
            assert_eq!(err.unwrap_err().exit_code(), 2, "{bad:?}");
        }
    }

    fn solved(expected: Option<Status>) -> PuzzleResult {
        let mut solver = sudoku_core::solver::SolverKind::Fast.build();
        let record = crate::input::Record {
            expected,
            ..crate::input::Record::new(4, Ok(Grid::parse(PUZZLE).unwrap()), None)
        };
        crate::job::solved::solve_record(
            solver.as_mut(),
            0,
            record,
            sudoku_core::solver::Mode::Unique,
            &Default::default(),
        )
    }

    fn problems(rules: &Rules, result: &PuzzleResult) -> Vec<String> {
        let mut report = Report::new();
        let place = || Place::Line {
            file: "a.txt".into(),
            line: result.line,
        };
        rules.verify(result, place, &mut report);
        report.shown().iter().map(|f| f.to_string()).collect()
    }

    #[test]
    fn results_are_verified() {
        let rules = Rules::default();
        let good = solved(None);
        assert!(problems(&rules, &good).is_empty());

        let mut broken = good.clone();
        broken.solution = broken.puzzle;
        assert_eq!(problems(&rules, &broken).len(), 1);
        assert!(problems(&rules, &broken)[0].starts_with("a.txt:4: solved, but "));

        let mut mismatched = good.clone();
        mismatched.check = Some(Check::Mismatch);
        assert_eq!(
            problems(&rules, &mismatched),
            [format!(
                "a.txt:4: solution {} differs from the solution the input gives",
                good.solution.unwrap()
            )]
        );
    }

    #[test]
    fn statuses_must_be_solved_expected_or_allowed() {
        let mut multiple = solved(None);
        multiple.status = Status::Multiple;
        multiple.solution = None;
        assert_eq!(
            problems(&Rules::default(), &multiple),
            ["a.txt:4: status multiple, expected solved"]
        );
        let allow = Rules {
            allow: vec![Status::Multiple],
        };
        assert!(problems(&allow, &multiple).is_empty());
        multiple.expected = Some(Status::Multiple);
        assert!(problems(&Rules::default(), &multiple).is_empty());
        let expected_multiple = solved(Some(Status::Multiple));
        assert_eq!(
            problems(&Rules::default(), &expected_multiple),
            ["a.txt:4: status solved, expected multiple"]
        );
    }
}
