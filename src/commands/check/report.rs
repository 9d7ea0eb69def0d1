//! What `check` found wrong, and the report on stderr: every failure with
//! its place (`file:line`) and the old and new values, the first
//! [`SHOWN`] in full, then a count of the rest.

use crate::process::words;
use std::fmt;

use sudoku_core::grid::Grid;
use sudoku_core::sizes::{SizedGrid, Symbols};
use sudoku_core::solver::Status;

use crate::job::difference::Difference;
use crate::output::rating::RowRating;
use crate::output::result::PuzzleResult;

/// Failures listed in full; the rest are counted.
pub const SHOWN: usize = 20;

/// One thing that did not hold.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The status is not the one wanted: `solved`, or the input's expected
    /// status, or one of `--allow`.
    Status {
        /// The status found.
        found: Status,
        /// The status wanted (`solved` unless the input says otherwise).
        wanted: Status,
        /// The statuses `--allow` accepts as well.
        allowed: Vec<Status>,
    },
    /// A `solved` result whose grid is not complete, repeats a digit or
    /// changes a given.
    NotASolution {
        /// The grid the solver returned (`None`: none at all).
        solution: Option<Solution>,
    },
    /// A `solved` result that differs from the solution the input gives,
    /// or a given solution that is not a grid.
    Mismatch {
        /// The solver's solution.
        solution: Option<Solution>,
        /// The row's message, which says why when the given solution is
        /// not a grid or the expected status names no status.
        why: Option<String>,
    },
    /// The status differs from the baseline's.
    StatusChanged {
        /// The baseline's.
        old: Status,
        /// This run's.
        new: Status,
    },
    /// The solution differs from the baseline's.
    SolutionChanged {
        /// The baseline's.
        old: Option<Solution>,
        /// This run's.
        new: Option<Solution>,
    },
    /// The guess count differs from the baseline's.
    GuessesChanged {
        /// The baseline's (`None`: empty, a malformed row).
        old: Option<u64>,
        /// This run's.
        new: Option<u64>,
    },
    /// The rating or the hardest technique differs from the baseline's
    /// (both have rating columns: `solve --rate`, `check --rate`).
    RatingChanged {
        /// The baseline's (`None`: empty, not rated).
        old: Option<RowRating>,
        /// This run's.
        new: Option<RowRating>,
    },
    /// This run has a record the baseline has no row for.
    NotInBaseline,
    /// The baseline has a row this run has no record for.
    NotInRun {
        /// The baseline row's status.
        old: Status,
    },
    /// A summary baseline's total guesses changed by more than allowed.
    TotalGuesses {
        /// The baseline's total.
        old: u64,
        /// This run's total.
        new: u64,
        /// The change allowed, percent.
        max_pct: f64,
    },
    /// The run read no puzzle record at all: nothing was checked, which
    /// must not pass for a regression check.
    NoPuzzles {
        /// The inputs, as named on the command line, comma-separated.
        inputs: String,
    },
    /// Puzzles/s fell below `--min-speed-ratio` times the baseline's.
    Speed {
        /// The baseline's puzzles/s.
        old: f64,
        /// This run's puzzles/s.
        new: f64,
        /// The least ratio allowed.
        min_ratio: f64,
        /// The solver threads of the baseline and of this run, when they
        /// differ (the speeds then measure different machines' worth).
        threads: Option<(u64, u64)>,
    },
    /// A summary baseline's count of rows with a status changed.
    StatusCount {
        /// The status counted.
        status: Status,
        /// The baseline's count.
        old: u64,
        /// This run's count.
        new: u64,
    },
}

/// Where a problem is: an input's line, or the run as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A record: the input's name and the record's line.
    Line {
        /// The input's name.
        file: String,
        /// The record's 1-based line.
        line: u64,
    },
    /// The whole run (summary baselines).
    Run,
}

/// One failure: a place and every problem found there.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// Where.
    pub place: Place,
    /// What, in the order found; never empty.
    pub problems: Vec<Problem>,
}

/// A solution as a report names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// A 9x9 grid.
    Nine(Grid),
    /// A grid of another size, with the alphabet its puzzle is written in.
    Sized(SizedGrid, Symbols),
    /// A baseline's `solution` field that is no grid of the puzzle's size
    /// in its alphabet, as written.
    Text(String),
}

impl Solution {
    /// The solution of `result`, of any size.
    pub fn of(result: &PuzzleResult) -> Option<Solution> {
        match &result.sized {
            Some(sized) => sized
                .solution
                .clone()
                .map(|grid| Solution::Sized(grid, sized.symbols.clone())),
            None => result.solution.map(Solution::Nine),
        }
    }
}

impl fmt::Display for Solution {
    /// The grid as results write it: 81 digits, or in its alphabet.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Solution::Nine(grid) => f.write_str(&grid.to_line()),
            Solution::Sized(grid, symbols) => f.write_str(&symbols.format(grid, b'.')),
            Solution::Text(text) => f.write_str(text),
        }
    }
}

fn grid(g: &Option<Solution>) -> String {
    g.as_ref()
        .map_or_else(|| "(none)".to_string(), Solution::to_string)
}

/// A rating as a report names it: `7.2 Nishio Forcing Chains`, `0.0` for
/// a grid with no blank (no technique), `(none)` when not rated.
fn rating(r: &Option<RowRating>) -> String {
    match r {
        None => "(none)".to_string(),
        Some(r) if r.hardest.is_empty() => r.to_decimal(),
        Some(r) => format!("{} {}", r.to_decimal(), r.hardest),
    }
}

fn count(n: &Option<u64>) -> String {
    n.map_or_else(|| "(none)".to_string(), |n| n.to_string())
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Status {
                found,
                wanted,
                allowed,
            } => {
                write!(f, "status {found}, expected {wanted}")?;
                if !allowed.is_empty() {
                    let names: Vec<&str> = allowed.iter().map(|s| s.name()).collect();
                    write!(f, " (or allowed: {})", names.join(", "))?;
                }
                Ok(())
            }
            Problem::NotASolution { solution } => write!(
                f,
                "solved, but {} is not a solution of the puzzle (incomplete, a repeated digit \
                 or a given changed)",
                grid(solution)
            ),
            Problem::Mismatch { why: Some(why), .. } => write!(f, "check mismatch: {why}"),
            Problem::Mismatch {
                solution,
                why: None,
            } => write!(
                f,
                "solution {} differs from the solution the input gives",
                grid(solution)
            ),
            Problem::StatusChanged { old, new } => {
                write!(f, "status changed from the baseline: {old} -> {new}")
            }
            Problem::SolutionChanged {
                old: Some(old),
                new: Some(new),
            } => {
                f.write_str("solution changed from the baseline: ")?;
                changed_cells(f, old, new)
            }
            Problem::SolutionChanged { old, new } => write!(
                f,
                "solution changed from the baseline: {} -> {}",
                grid(old),
                grid(new)
            ),
            Problem::GuessesChanged { old, new } => write!(
                f,
                "guesses changed from the baseline: {} -> {}",
                count(old),
                count(new)
            ),
            Problem::RatingChanged { old, new } => write!(
                f,
                "rating changed from the baseline: {} -> {}",
                rating(old),
                rating(new)
            ),
            Problem::NotInBaseline => f.write_str("a record the baseline has no row for"),
            Problem::NotInRun { old } => write!(
                f,
                "the baseline has a row here (status {old}) but this run has no record"
            ),
            Problem::TotalGuesses { old, new, max_pct } => write!(
                f,
                "total guesses changed from the baseline: {old} -> {new} ({}; \
                 --max-guess-change allows {max_pct}%)",
                change_pct(*old, *new)
            ),
            Problem::NoPuzzles { inputs } => {
                write!(f, "no puzzles read from {inputs}: nothing was checked")
            }
            Problem::Speed {
                old,
                new,
                min_ratio,
                threads,
            } => {
                write!(
                    f,
                    "puzzles/s fell from the baseline: {old:.0} -> {new:.0} ({:.2}x; \
                     --min-speed-ratio asks for {min_ratio}x)",
                    new / old
                )?;
                if let Some((old, new)) = threads {
                    write!(f, "; {}", threads_differ(*old, *new))?;
                }
                Ok(())
            }
            Problem::StatusCount { status, old, new } => write!(
                f,
                "{status} count changed from the baseline: {old} -> {new} ({:+})",
                i128::from(*new) - i128::from(*old)
            ),
        }
    }
}

/// Names the first cell where two grids of the same size differ and its
/// two values (`r4c7: 3 -> 8`, `r12c3: K -> G`), and how many cells differ
/// when more than one; shows both whole otherwise.
fn changed_cells(f: &mut fmt::Formatter<'_>, old: &Solution, new: &Solution) -> fmt::Result {
    let difference = match (old, new) {
        (Solution::Nine(old), Solution::Nine(new)) => Difference::nine(old, new),
        (Solution::Sized(old, symbols), Solution::Sized(new, _)) if old.shape() == new.shape() => {
            Difference::sized(old, new, symbols)
        }
        _ => return write!(f, "{old} -> {new}"),
    };
    let Some(Difference {
        cell,
        first,
        second,
        cells,
    }) = difference
    else {
        return f.write_str("the same grid");
    };
    write!(f, "{cell}: {first} -> {second}")?;
    if cells > 1 {
        write!(f, " (the first of {cells} changed cells)")?;
    }
    Ok(())
}

/// The note that a speed comparison spans different thread counts.
pub fn threads_differ(old: u64, new: u64) -> String {
    format!(
        "the baseline ran {old} solver thread{}, this run {new}: puzzles/s are not comparable",
        if old == 1 { "" } else { "s" }
    )
}

/// A change from `old` to `new` in percent, signed (`+5.00%`), or
/// `from 0` when `old` is 0.
pub fn change_pct(old: u64, new: u64) -> String {
    if old == 0 {
        if new == 0 {
            "+0.00%".to_string()
        } else {
            "from 0".to_string()
        }
    } else {
        format!("{:+.2}%", (new as f64 - old as f64) / old as f64 * 100.0)
    }
}

impl fmt::Display for Failure {
    /// `file:line: problem; problem`, or the problems alone for the run.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Place::Line { file, line } = &self.place {
            write!(f, "{file}:{line}: ")?;
        }
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

/// The failures of a run, one per place: the first [`SHOWN`] kept, all
/// counted. Problems pushed one after another for the same place make one
/// failure.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    shown: Vec<Failure>,
    total: u64,
    last: Option<Place>,
    hint: Option<String>,
    notes: Vec<String>,
}

impl Report {
    /// An empty report.
    pub fn new() -> Report {
        Report::default()
    }

    /// Records a problem: part of the last failure when it has the same
    /// place, else a new failure.
    pub fn push(&mut self, place: Place, problem: Problem) {
        if self.last.as_ref() == Some(&place) {
            if let Some(last) = self.shown.last_mut().filter(|f| f.place == place) {
                last.problems.push(problem);
            }
            return;
        }
        self.total += 1;
        self.last = Some(place.clone());
        if self.shown.len() < SHOWN {
            self.shown.push(Failure {
                place,
                problems: vec![problem],
            });
        }
    }

    /// Failures recorded (places with a problem).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The failures kept in full, in the order found.
    pub fn shown(&self) -> &[Failure] {
        &self.shown
    }

    /// A likely cause of the failures, shown at the end of the report's
    /// first line when anything failed.
    pub fn set_hint(&mut self, hint: String) {
        self.hint = Some(hint);
    }

    /// Adds a note shown under the report's first line whether or not
    /// anything failed (e.g. that speeds were compared across thread
    /// counts); notes are not failures.
    pub fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    fn push_notes(&self, out: &mut String) {
        for note in &self.notes {
            out.push_str(&format!("  note: {note}\n"));
        }
    }

    fn push_failures(&self, out: &mut String) {
        for failure in &self.shown {
            out.push_str(&format!("  {failure}\n"));
        }
        let rest = self.total - self.shown.len() as u64;
        if rest > 0 {
            out.push_str(&format!(
                "  ... and {rest} more failure{} (the first {SHOWN} are shown)\n",
                if rest == 1 { "" } else { "s" }
            ));
        }
    }

    /// The report's text for a run a signal stopped after `puzzles`
    /// puzzles: never `ok`, since not everything was checked; the failures
    /// found so far, if any, follow as in [`Report::render`].
    pub fn render_interrupted(&self, puzzles: u64) -> String {
        let mut out = format!(
            "sudoku-batch check: interrupted after {}",
            words::count(puzzles, "puzzle", "puzzles")
        );
        if self.total == 0 {
            out.push_str(": no failures so far, the rest not checked\n");
        } else {
            out.push_str(&format!(
                ": {} failure{} so far\n",
                self.total,
                if self.total == 1 { "" } else { "s" }
            ));
            self.push_failures(&mut out);
        }
        out
    }

    /// The report's text for a run of `puzzles` puzzles: one line when all
    /// holds, else a header line, the failures shown and the count of the
    /// rest. `checks` names what was checked (e.g. `baseline base.csv`).
    pub fn render(&self, puzzles: u64, checks: &str) -> String {
        let mut out = String::new();
        if self.total == 0 {
            out.push_str(&format!(
                "sudoku-batch check: ok: {}, {checks}\n",
                words::count(puzzles, "puzzle", "puzzles")
            ));
            self.push_notes(&mut out);
            return out;
        }
        out.push_str(&format!(
            "sudoku-batch check: FAILED: {} in {} ({checks})",
            words::count(self.total, "failure", "failures"),
            words::count(puzzles, "puzzle", "puzzles")
        ));
        if let Some(hint) = &self.hint {
            out.push_str(&format!(": {hint}"));
        }
        out.push('\n');
        self.push_notes(&mut out);
        self.push_failures(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u64) -> Place {
        Place::Line {
            file: "a.txt".into(),
            line,
        }
    }

    #[test]
    fn failures_name_the_place_and_both_values() {
        let f = Failure {
            place: at(12),
            problems: vec![Problem::StatusChanged {
                old: Status::Solved,
                new: Status::Multiple,
            }],
        };
        assert_eq!(
            f.to_string(),
            "a.txt:12: status changed from the baseline: solved -> multiple"
        );
        let f = Failure {
            place: at(3),
            problems: vec![
                Problem::GuessesChanged {
                    old: Some(4),
                    new: Some(6),
                },
                Problem::NotInBaseline,
            ],
        };
        assert_eq!(
            f.to_string(),
            "a.txt:3: guesses changed from the baseline: 4 -> 6; a record the baseline has no \
             row for"
        );
        let f = Failure {
            place: Place::Run,
            problems: vec![Problem::TotalGuesses {
                old: 200,
                new: 210,
                max_pct: 1.0,
            }],
        };
        assert_eq!(
            f.to_string(),
            "total guesses changed from the baseline: 200 -> 210 (+5.00%; \
             --max-guess-change allows 1%)"
        );
        let status = Problem::Status {
            found: Status::Timeout,
            wanted: Status::Solved,
            allowed: vec![Status::Multiple],
        };
        assert_eq!(
            status.to_string(),
            "status timeout, expected solved (or allowed: multiple)"
        );
    }

    #[test]
    fn the_first_twenty_are_shown_then_a_count() {
        let mut report = Report::new();
        assert_eq!(
            report.render(5, "no baseline"),
            "sudoku-batch check: ok: 5 puzzles, no baseline\n"
        );
        for line in 1..=25 {
            report.push(at(line), Problem::NotInBaseline);
            report.push(
                at(line),
                Problem::NotInRun {
                    old: Status::Solved,
                },
            );
        }
        assert_eq!(report.total(), 25);
        assert_eq!(report.shown()[0].problems.len(), 2);
        let text = report.render(30, "baseline b.csv");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + SHOWN + 1);
        assert_eq!(
            lines[0],
            "sudoku-batch check: FAILED: 25 failures in 30 puzzles (baseline b.csv)"
        );
        assert!(lines[20].starts_with("  a.txt:20: "));
        assert_eq!(
            lines[21],
            "  ... and 5 more failures (the first 20 are shown)"
        );
    }

    #[test]
    fn an_interrupted_run_is_never_ok_and_shows_its_failures() {
        let mut report = Report::new();
        assert_eq!(
            report.render_interrupted(7),
            "sudoku-batch check: interrupted after 7 puzzles: no failures so far, the rest not \
             checked\n"
        );
        report.push(at(3), Problem::NotInBaseline);
        assert_eq!(
            report.render_interrupted(7),
            "sudoku-batch check: interrupted after 7 puzzles: 1 failure so far\n  a.txt:3: a \
             record the baseline has no row for\n"
        );
    }

    #[test]
    fn no_puzzles_and_hints() {
        let mut report = Report::new();
        report.push(
            Place::Run,
            Problem::NoPuzzles {
                inputs: "empty.txt".into(),
            },
        );
        report.set_hint("look here".into());
        assert_eq!(
            report.render(0, "no baseline"),
            "sudoku-batch check: FAILED: 1 failure in 0 puzzles (no baseline): look here\n  no \
             puzzles read from empty.txt: nothing was checked\n"
        );
    }

    #[test]
    fn a_changed_solution_names_its_first_differing_cell() {
        let old = Grid::parse(
            b"417369825632158947958724316825437169791586432346912758289643571573291684164875293",
        )
        .unwrap();
        let mut cells = *old.cells();
        // r4c7 (row 4, column 7): 1 -> 8; and r9c9: 3 -> 4.
        cells[3 * 9 + 6] = 8;
        cells[80] = 4;
        let new = Grid::from_cells(cells).unwrap();
        let changed = |new: Grid| {
            Problem::SolutionChanged {
                old: Some(Solution::Nine(old)),
                new: Some(Solution::Nine(new)),
            }
            .to_string()
        };
        assert_eq!(
            changed(new),
            "solution changed from the baseline: r4c7: 1 -> 8 (the first of 2 changed cells)"
        );
        cells[80] = 3;
        assert_eq!(
            changed(Grid::from_cells(cells).unwrap()),
            "solution changed from the baseline: r4c7: 1 -> 8"
        );
        let gone = Problem::SolutionChanged {
            old: Some(Solution::Nine(old)),
            new: None,
        };
        assert!(gone.to_string().ends_with(" -> (none)"), "{gone}");
    }

    #[test]
    fn changes_in_percent() {
        assert_eq!(change_pct(100, 90), "-10.00%");
        assert_eq!(change_pct(0, 0), "+0.00%");
        assert_eq!(change_pct(0, 3), "from 0");
    }
}
