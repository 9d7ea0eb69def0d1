//! `solve --summary-html`: the run's summary as a self-contained page, with
//! the status counts as bars and the solve-time distribution on a
//! logarithmic axis, drawn as `bench --export-html` draws them.

use std::path::Path;

use super::{bar_chart, distribution_chart, Bar, Distribution, Page, Palette, PlotError, Scale};
use crate::error::Error;
use crate::output::stats::{Summary, Tally, NONE_SEARCHED};

/// The page for a run's `summary` and `tally`.
///
/// # Errors
/// [`PlotError`] when plotters fails.
pub fn page(summary: &Summary, tally: &Tally) -> Result<String, PlotError> {
    let mut page = Page::new("sudoku-batch solve");
    page.paragraph(&format!(
        "{} ({} solver, {} mode, {} thread{}; sudoku-batch {}){}",
        summary.inputs.join(", "),
        summary.solver,
        summary.mode,
        summary.threads,
        if summary.threads == 1 { "" } else { "s" },
        summary.version,
        if summary.interrupted {
            "; interrupted: the figures cover the rows written before the signal"
        } else {
            ""
        }
    ));
    page.paragraph(&format!(
        "{} in {:.3} s: {:.0} puzzles/s.",
        crate::process::words::count(summary.puzzles, "record", "records"),
        summary.wall_s,
        summary.puzzles_per_s
    ));
    if summary.mismatches > 0 {
        page.warning(&format!(
            "{} solved rows differ from the solution given with the puzzle.",
            summary.mismatches
        ));
    }

    page.heading("Status counts");
    let counts = [
        ("solved", summary.solved),
        ("multiple", summary.multiple),
        ("unsolvable", summary.unsolvable),
        ("invalid", summary.invalid),
        ("malformed", summary.malformed),
        ("timeout", summary.timeout),
        ("mismatches", summary.mismatches),
    ];
    let bars: Vec<Bar> = counts
        .iter()
        .map(|&(status, n)| Bar {
            label: status.to_string(),
            series: if status == "solved" {
                "solved"
            } else {
                "other"
            }
            .to_string(),
            value: n as f64,
            min: n as f64,
            max: n as f64,
            text: n.to_string(),
            flagged: n > 0 && status != "solved",
        })
        .collect();
    page.figure(
        &bar_chart(
            "status counts",
            "rows",
            &bars,
            Scale::Linear,
            &Palette::default(),
        )?,
        "Rows per status: solved in blue; a status other than solved, and mismatches \
         (solved rows whose given solution differs), in red when they occur.",
    );

    page.heading("Solve times");
    let times = tally.solve_times();
    let figures = summary
        .solve_us
        .as_ref()
        .map(|t| (t.mean, t.p50, t.p90, t.p99, t.max));
    match (figures, summary.solve_cpu_s, &summary.guesses) {
        (Some(figures), Some(cpu_s), Some(g)) => {
            if let (Some(mean), Some(p50), Some(p90), Some(p99), Some(max)) = figures {
                if !times.is_empty() {
                    let name = summary.inputs.join(", ");
                    page.figure(
                        &distribution_chart(
                            &[Distribution::of(&name, &times)],
                            &Palette::default(),
                        )?,
                        "Share of the searched puzzles per solve time (logarithmic, ten \
                         buckets a decade), as each puzzle was timed in the run.",
                    );
                }
                page.table(
                    &["mean", "p50", "p90", "p99", "max", "solver time"],
                    &[vec![
                        format!("{mean:.1} us"),
                        format!("{p50:.1} us"),
                        format!("{p90:.1} us"),
                        format!("{p99:.1} us"),
                        format!("{max:.1} us"),
                        format!("{cpu_s:.3} s"),
                    ]],
                    &[0, 1, 2, 3, 4, 5],
                );
            } else {
                // The figures are `null` in the JSON summary: none is shown.
                page.paragraph("No puzzle was searched: no solve time was measured.");
            }
            page.paragraph(&match (g.mean, g.no_guess_pct) {
                (Some(mean), Some(none)) => format!(
                    "Guesses: {} in all, {mean:.2} per puzzle; {none:.1} % of the puzzles \
                     needed none.",
                    g.total
                ),
                _ => format!("Guesses: {} in all; {NONE_SEARCHED}.", g.total),
            });
        }
        _ => page.paragraph(&format!(
            "Solve times and guesses: {}.",
            crate::output::stats::UNTIMED
        )),
    }
    Ok(page.render())
}

/// Writes the page for `summary` and `tally` to `path`. A regular file
/// that cannot be written whole (a full disk) is removed, as the JSON
/// summary is: neither the previous run's page nor a part of this one's
/// is left.
///
/// # Errors
/// [`Error::Write`] when the page cannot be drawn or written.
pub fn write_page(path: &Path, summary: &Summary, tally: &Tally) -> Result<(), Error> {
    let error = |e| Error::write("HTML summary", path, e);
    let html = page(summary, tally).map_err(|e| error(std::io::Error::other(e)))?;
    crate::output::replace::write_whole(path, html.as_bytes()).map_err(error)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use sudoku_core::solver::{Mode, SolverKind, Status};

    use super::*;
    use crate::output::result::PuzzleResult;
    use crate::output::stats::RunInfo;

    #[test]
    fn the_page_shows_statuses_and_solve_times() {
        let row = |status, ns| PuzzleResult {
            input: 0,
            line: 1,
            puzzle: None,
            status,
            solution: None,
            guesses: Some(0),
            solve_ns: Some(ns),
            check: None,
            message: None,
            expected: None,
            kept: Vec::new(),
            sized: None,
            rating: None,
        };
        let tally = Tally::of(&[row(Status::Solved, 2_000), row(Status::Invalid, 500)]);
        let summary = Summary::new(
            &tally,
            RunInfo {
                inputs: vec!["a.txt".into()],
                wall: Duration::from_millis(10),
                threads: 1,
                solver: SolverKind::Fast,
                mode: Mode::Unique,
                interrupted: false,
                options: crate::output::stats::RunOptions::default(),
                rated: false,
            },
        );
        let html = page(&summary, &tally).unwrap();
        assert_eq!(html.matches("<svg").count(), 2);
        let text = |t: &str| html.contains(&format!(">\n{t}\n</text>"));
        assert!(text("solved") && text("invalid"));
        assert!(text("a.txt"), "the distribution's legend");
    }
}
