//! `--export-html`: one self-contained page (see [`crate::output::plot`]) with
//! three pictures and the rows:
//!
//! 1. puzzles/s per data set and solver, one bar per row, the runs' spread
//!    as error bars (logarithmic when solvers differ by more than 50x);
//! 2. thread scaling: each solver's speedup over threads against the ideal
//!    line, the machine's cores marked;
//! 3. solve times per data set: the share of puzzles per logarithmic bucket
//!    of solve time, from a pass with each puzzle timed alone (built-in
//!    solvers only: an external solver's answers arrive in bursts).

use std::io;

use super::{
    display_cells, flag_line, machine_line, Exporter, Report, DISPLAY_FIELDS, TEXT_COLUMNS,
};
use crate::commands::bench::row::BenchRow;
use crate::output::plot::{self, Bar, Curve, Distribution, Page, Palette, Scale};
use crate::process::words::count;

/// Writes the rows (and solve times) as an HTML page with SVG charts.
#[derive(Clone, Copy, Debug, Default)]
pub struct HtmlExporter;

impl Exporter for HtmlExporter {
    fn serialize(&self, rows: &[BenchRow]) -> io::Result<Vec<u8>> {
        self.serialize_report(&Report {
            rows,
            solve_times: &[],
        })
    }

    fn serialize_report(&self, report: &Report<'_>) -> io::Result<Vec<u8>> {
        page(report)
            .map(String::into_bytes)
            .map_err(io::Error::other)
    }
}

/// The page for `report`.
fn page(report: &Report<'_>) -> Result<String, plot::PlotError> {
    let rows = report.rows;
    let mut page = Page::new("sudoku-batch bench");
    page.paragraph(&machine_line(rows));
    let flag = flag_line(rows);
    if !flag.is_empty() {
        for row in rows.iter().filter(|r| r.flagged()) {
            page.warning(&if row.given_up() {
                format!(
                    "{} on {} ({}): {:.1}% finished, the rest given up at the solver's limit",
                    row.solver,
                    row.dataset,
                    count(row.threads as u64, "thread", "threads"),
                    row.finished_pct
                )
            } else {
                format!(
                    "{} on {} ({}): {}, {} without an answer",
                    row.solver,
                    row.dataset,
                    count(row.threads as u64, "copy", "copies"),
                    count(row.wrong.unwrap_or(0), "wrong answer", "wrong answers"),
                    count(row.missing.unwrap_or(0), "puzzle", "puzzles")
                )
            });
        }
    }

    // One colour per solver in every chart, as the page's text says.
    let palette = Palette::new(rows.iter().map(|r| r.solver.as_str()));
    page.heading("Throughput");
    let bars: Vec<Bar> = rows.iter().map(bar).collect();
    page.figure(
        &plot::bar_chart("throughput", "puzzles/s", &bars, Scale::Auto, &palette)?,
        "Puzzles per second, all threads together: the bar is the median of the runs, \
         the whiskers reach from the slowest to the fastest run. The scale is logarithmic \
         when the solvers differ by more than 50 times.",
    );

    page.heading("Thread scaling");
    let curves = scaling_curves(rows);
    if curves.is_empty() {
        page.paragraph("Only one thread count was measured (-j 1,2,... measures several).");
    } else {
        let cores = rows.first().map_or(1, |r| r.cores);
        page.figure(
            &plot::scaling_chart(&curves, cores, &palette)?,
            "Speedup (puzzles/s over the same solver's at 1 thread) against threads; the \
             dashed diagonal is perfect scaling. External solvers run one copy per thread.",
        );
    }

    page.heading("Solve times");
    if report.solve_times.is_empty() {
        page.paragraph("No built-in solver was measured, so no solve times were taken.");
    } else {
        let several = report
            .solve_times
            .iter()
            .any(|t| t.solver != report.solve_times[0].solver);
        let distributions: Vec<Distribution> = report
            .solve_times
            .iter()
            .map(|t| {
                let name = if several {
                    format!("{} ({})", t.dataset, t.solver)
                } else {
                    t.dataset.clone()
                };
                Distribution {
                    series: t.solver.clone(),
                    ..Distribution::of(&name, &t.histogram)
                }
            })
            .collect();
        page.figure(
            &plot::distribution_chart(&distributions, &palette)?,
            &format!(
                "Share of puzzles per solve time (logarithmic, ten buckets a decade), each \
                 puzzle timed alone on one thread in a pass apart from the timed runs \
                 (solver {}).",
                report
                    .solve_times
                    .iter()
                    .map(|t| t.solver.as_str())
                    .fold(Vec::<&str>::new(), |mut v, s| {
                        if !v.contains(&s) {
                            v.push(s);
                        }
                        v
                    })
                    .join(", ")
            ),
        );
    }

    page.heading("Rows");
    let cells: Vec<Vec<String>> = rows.iter().map(|r| display_cells(r).to_vec()).collect();
    let numeric: Vec<usize> = (TEXT_COLUMNS..DISPLAY_FIELDS.len()).collect();
    page.table(&DISPLAY_FIELDS, &cells, &numeric);
    if !flag.is_empty() {
        page.paragraph(&flag);
    }
    Ok(page.render())
}

/// The bar of one row: labelled with its data set, solver, mode and
/// threads; coloured by solver.
fn bar(row: &BenchRow) -> Bar {
    let mut label = format!("{}  {}", row.dataset, row.solver);
    if !row.mode.is_empty() {
        label.push(' ');
        label.push_str(&row.mode);
    }
    label.push_str(&format!("  -j {}", row.threads));
    if let Some(what) = flag_label(row) {
        label.push_str(&format!(" ({what}!)"));
    }
    Bar {
        label,
        series: row.solver.clone(),
        value: row.puzzles_per_s,
        min: row.puzzles_per_s_min,
        max: row.puzzles_per_s_max,
        text: format!("{}/s", super::rate(row.puzzles_per_s)),
        flagged: row.flagged(),
    }
}

/// What a flagged row's bar label says happened: puzzles given up, wrong
/// answers, puzzles without one, or both; `None` for a row not flagged.
fn flag_label(row: &BenchRow) -> Option<&'static str> {
    let (wrong, missing) = (row.wrong.unwrap_or(0) > 0, row.missing.unwrap_or(0) > 0);
    Some(match () {
        _ if row.given_up() => "given up",
        _ if wrong && missing => "wrong and missing answers",
        _ if wrong => "wrong answers",
        _ if missing => "missing answers",
        _ if row.flagged() => "no answers",
        _ => return None,
    })
}

/// One curve per data set, solver and mode measured at two thread counts
/// or more, with a speedup (1 thread measured).
fn scaling_curves(rows: &[BenchRow]) -> Vec<Curve> {
    let mut curves: Vec<Curve> = Vec::new();
    for row in rows {
        let Some(speedup) = row.speedup else { continue };
        let name = if row.mode.is_empty() {
            format!("{} {}", row.dataset, row.solver)
        } else {
            format!("{} {} {}", row.dataset, row.solver, row.mode)
        };
        let point = (row.threads as f64, speedup);
        match curves.iter_mut().find(|c| c.name == name) {
            Some(curve) => curve.points.push(point),
            None => curves.push(Curve {
                name,
                series: row.solver.clone(),
                points: vec![point],
            }),
        }
    }
    curves.retain(|c| c.points.len() > 1);
    curves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::bench::export::tests::{external_row, rows};
    use crate::commands::bench::measure::SolveTimes;

    #[test]
    fn the_page_holds_svg_charts_with_the_names() {
        let mut rows = rows();
        rows[1].solver = "fast".into();
        rows[1].speedup = Some(1.9);
        rows.push(external_row());
        let mut histogram = hdrhistogram::Histogram::new(3).unwrap();
        histogram.record(5_000).unwrap();
        let times = [SolveTimes {
            dataset: "data/top95.txt".into(),
            solver: "fast".into(),
            histogram,
        }];
        let html = String::from_utf8(
            HtmlExporter
                .serialize_report(&Report {
                    rows: &rows,
                    solve_times: &times,
                })
                .unwrap(),
        )
        .unwrap();
        assert_eq!(html.matches("<svg").count(), 3, "three charts");
        assert!(html.contains("data/top95.txt  fast unique  -j 1"));
        assert!(html.contains("py  -j 1 (wrong answers!)"));
        assert!(html.contains("ideal (speedup = threads)"));
        assert!(html.contains("class=\"warn\""));
        assert!(!html.contains("<script"));
    }

    /// A trial found a solver that answered 8 puzzles with nothing (no
    /// wrong answer) labelled `(wrong answers!)`.
    #[test]
    fn a_flagged_bar_says_what_happened() {
        let mut row = external_row();
        assert!(bar(&row).label.ends_with("-j 1 (wrong answers!)"));
        row.missing = Some(8);
        assert!(bar(&row).label.ends_with(" (wrong and missing answers!)"));
        row.wrong = Some(0);
        assert!(bar(&row).label.ends_with(" (missing answers!)"));
        row.missing = Some(0);
        assert!(!bar(&row).label.contains('('), "{}", bar(&row).label);
    }

    #[test]
    fn curves_need_two_thread_counts() {
        let rows = rows();
        assert!(scaling_curves(&rows).is_empty(), "different solvers");
        let mut same = rows.clone();
        same[1].solver = "fast".into();
        same[1].speedup = Some(1.8);
        let curves = scaling_curves(&same);
        assert_eq!(curves.len(), 1);
        assert_eq!(curves[0].points, [(1.0, 1.0), (2.0, 1.8)]);
    }
}
