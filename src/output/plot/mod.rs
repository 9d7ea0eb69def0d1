//! Pictures, for people who would rather look than read: SVG charts drawn
//! with plotters' SVG backend, and [`Page`], the self-contained HTML page
//! that holds them (no scripts, no styles, fonts or images loaded from
//! elsewhere; the only URLs are the SVG's XML namespace).
//!
//! The charts take plain data ([`Bar`], [`Curve`], [`Distribution`]), so
//! `bench --export-html` and `solve --summary-html` ([`summary`]) draw
//! alike.

pub mod summary;

use std::error::Error as StdError;
use std::fmt::Write as _;

use hdrhistogram::Histogram;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Width of every chart, pixels.
const WIDTH: u32 = 960;

/// Pixels per bar in the bar charts.
const BAR_PITCH: u32 = 28;

/// The series colors, in order (Tableau 10, told apart by most readers,
/// colour-blind ones included, but for its red: red means a problem here,
/// [`ALERT`]).
const PALETTE: [RGBColor; 9] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xba, 0xb0, 0xac),
];

/// Bars and text flagged as a problem (wrong answers, a status other than
/// `solved`).
const ALERT: RGBColor = RGBColor(0xc0, 0x1c, 0x28);

/// Drawing a chart failed (plotters reports its backend's error).
#[derive(Debug, thiserror::Error)]
#[error("drawing the {chart} chart: {message}")]
pub struct PlotError {
    /// Which chart.
    pub chart: &'static str,
    /// plotters' message.
    pub message: String,
}

/// One bar of a bar chart: a measured value with its spread.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The text beside the bar (e.g. `data/top95.txt  fast unique  1
    /// thread`).
    pub label: String,
    /// The series it belongs to, which picks its colour (e.g. the solver).
    pub series: String,
    /// The bar's length (e.g. the median puzzles/s).
    pub value: f64,
    /// The error bar's left end (e.g. the slowest run); no error bar when
    /// it equals `max`.
    pub min: f64,
    /// The error bar's right end (e.g. the fastest run).
    pub max: f64,
    /// The value as printed at the bar's end.
    pub text: String,
    /// Drawn as a problem: the bar and its label in red, whatever the
    /// series (e.g. a solver that gave wrong answers, a status other than
    /// `solved`).
    pub flagged: bool,
}

/// The horizontal scale of a bar chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Linear from 0.
    Linear,
    /// Logarithmic when the values span more than a factor of 50, so that
    /// a fast and a slow solver both show; linear otherwise.
    Auto,
}

/// The colour of each series (a solver, say) for all the charts of a
/// page, so that one series has one colour in every chart, as the page's
/// text says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Palette {
    series: Vec<String>,
}

impl Palette {
    /// A palette giving `series` the page's colours in order; a series not
    /// among them gets one after theirs, in order of first appearance.
    pub fn new<S: AsRef<str>>(series: impl IntoIterator<Item = S>) -> Palette {
        let mut palette = Palette::default();
        for name in series {
            palette.add(name.as_ref());
        }
        palette
    }

    fn add(&mut self, name: &str) {
        if !self.series.iter().any(|n| n == name) {
            self.series.push(name.to_string());
        }
    }

    /// This palette with the series of `names` it lacks added.
    fn with<'a>(&self, names: impl Iterator<Item = &'a str>) -> Palette {
        let mut palette = self.clone();
        for name in names {
            palette.add(name);
        }
        palette
    }

    /// The colour of `series`.
    fn color(&self, series: &str) -> RGBColor {
        let at = self.series.iter().position(|n| n == series).unwrap_or(0);
        PALETTE[at % PALETTE.len()]
    }
}

/// One line of a line chart: points in order of x.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The legend text.
    pub name: String,
    /// The series it belongs to, which picks its colour (e.g. the solver);
    /// curves of one series are told apart by their dashes.
    pub series: String,
    /// `(x, y)` points.
    pub points: Vec<(f64, f64)>,
}

/// A distribution of solve times: the share of puzzles per logarithmic
/// bucket of time.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// The legend text (e.g. the data set).
    pub name: String,
    /// The series it belongs to, which picks its colour (e.g. the solver);
    /// outlines of one series are told apart by their dashes.
    pub series: String,
    /// `(low, high, percent)`: buckets of solve time in microseconds, ten per
    /// decade, in ascending order, with the share of puzzles in each.
    pub buckets: Vec<(f64, f64, f64)>,
}

impl Distribution {
    /// The distribution of the values of `histogram` (solve times in
    /// nanoseconds), bucketed ten to a decade of microseconds. Empty
    /// buckets between full ones are kept, so the outline drops to 0.
    pub fn of(name: &str, histogram: &Histogram<u64>) -> Distribution {
        let total = histogram.len();
        let mut counts: Vec<(i32, u64)> = Vec::new();
        for v in histogram.iter_recorded() {
            let us = v.value_iterated_to().max(1) as f64 / 1e3;
            let bucket = (us.log10() * 10.0).floor() as i32;
            match counts.last_mut() {
                Some((b, n)) if *b == bucket => *n += v.count_at_value(),
                _ => counts.push((bucket, v.count_at_value())),
            }
        }
        let mut buckets = Vec::new();
        if let (Some(&(first, _)), Some(&(last, _))) = (counts.first(), counts.last()) {
            let mut next = counts.iter().peekable();
            for b in first..=last {
                let n = match next.peek() {
                    Some(&&(at, n)) if at == b => {
                        next.next();
                        n
                    }
                    _ => 0,
                };
                let edge = |b: i32| 10f64.powf(f64::from(b) / 10.0);
                buckets.push((edge(b), edge(b + 1), n as f64 * 100.0 / total as f64));
            }
        }
        Distribution {
            name: name.to_string(),
            series: name.to_string(),
            buckets,
        }
    }
}

/// Runs `draw` on a fresh white SVG canvas of `WIDTH` x `height` and
/// returns the SVG text.
fn svg(
    chart: &'static str,
    height: u32,
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), Box<dyn StdError>>,
) -> Result<String, PlotError> {
    let failed = |e: &dyn StdError| PlotError {
        chart,
        message: e.to_string(),
    };
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        draw(&root).map_err(|e| failed(e.as_ref()))?;
        root.present().map_err(|e| failed(&e))?;
    }
    Ok(text)
}

fn font(size: u32) -> TextStyle<'static> {
    ("sans-serif", size).into_font().into()
}

/// A horizontal bar chart of `bars`, top to bottom in order, each with its
/// error bar and printed value; colours by series. `axis` names the
/// horizontal axis.
///
/// # Errors
/// [`PlotError`] when plotters fails (not expected for an in-memory SVG).
pub fn bar_chart(
    chart: &'static str,
    axis: &str,
    bars: &[Bar],
    scale: Scale,
    palette: &Palette,
) -> Result<String, PlotError> {
    let n = bars.len().max(1);
    let height = 70 + BAR_PITCH * n as u32 + 50;
    let hi = bars
        .iter()
        .map(|b| b.max.max(b.value))
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let lo = bars
        .iter()
        .map(|b| b.min.min(b.value))
        .filter(|&v| v > 0.0)
        .fold(f64::INFINITY, f64::min)
        .min(hi);
    let label_chars = bars
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(0);
    let label_width = (label_chars as u32 * 7 + 24).clamp(80, WIDTH / 2);
    let series = palette.with(bars.iter().map(|b| b.series.as_str()));
    svg(chart, height, |root| {
        if scale == Scale::Auto && hi / lo > 50.0 {
            // Room on the right for the printed values.
            let range = (lo / 2.0..hi * 6.0).log_scale();
            draw_bars(root, range, lo / 2.0, axis, bars, &series, label_width)
        } else {
            draw_bars(root, 0.0..hi * 1.3, 0.0, axis, bars, &series, label_width)
        }
    })
}

/// Draws the bars on `root` over the horizontal range `x`, bars starting
/// at `base`.
fn draw_bars<X>(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    x: X,
    base: f64,
    axis: &str,
    bars: &[Bar],
    series: &Palette,
    label_width: u32,
) -> Result<(), Box<dyn StdError>>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let n = bars.len();
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(label_width)
        .build_cartesian_2d(x, -0.6..(n as f64 - 0.4))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(TRANSPARENT)
        .y_labels(0)
        .x_desc(axis)
        .x_label_formatter(&|v| axis_number(*v))
        .label_style(font(13))
        .draw()?;
    let row = |i: usize| (n - 1 - i) as f64;
    for (i, bar) in bars.iter().enumerate() {
        let color = if bar.flagged {
            ALERT
        } else {
            series.color(&bar.series)
        };
        let y = row(i);
        chart.draw_series(std::iter::once(Rectangle::new(
            [(base, y - 0.34), (bar.value.max(base), y + 0.34)],
            color.filled(),
        )))?;
        if bar.max > bar.min {
            chart.draw_series(std::iter::once(ErrorBar::new_horizontal(
                y,
                bar.min,
                bar.value,
                bar.max,
                BLACK.stroke_width(1),
                10,
            )))?;
        }
        let (px, py) = chart.backend_coord(&(bar.max.max(bar.value), y));
        root.draw(&Text::new(
            bar.text.clone(),
            (px + 8, py),
            font(12).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        let (lx, ly) = chart.backend_coord(&(base, y));
        let style = font(13).pos(Pos::new(HPos::Right, VPos::Center));
        let style = if bar.flagged {
            style.color(&ALERT)
        } else {
            style
        };
        root.draw(&Text::new(bar.label.clone(), (lx - 8, ly), style))?;
    }
    Ok(())
}

/// The thread-scaling chart: each curve's speedup over threads, with the
/// ideal line (speedup = threads) dashed and the machine's `cores` marked.
///
/// # Errors
/// [`PlotError`] when plotters fails.
pub fn scaling_chart(
    curves: &[Curve],
    cores: usize,
    palette: &Palette,
) -> Result<String, PlotError> {
    let most = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.0))
        .fold(2.0f64, f64::max);
    let top = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .fold(most, f64::max)
        * 1.1;
    let gray = RGBColor(0x88, 0x88, 0x88);
    let lines = line_styles(
        curves.iter().map(|c| (c.name.as_str(), c.series.as_str())),
        palette,
    );
    let mut legend = vec![LegendEntry {
        name: "ideal (speedup = threads)".into(),
        color: gray,
        dash: Some((6, 4)),
    }];
    legend.extend(lines.iter().cloned());
    svg(
        "thread scaling",
        PLOT_HEIGHT + legend_height(&legend),
        |root| {
            let (root, below) = root.split_vertically(PLOT_HEIGHT);
            draw_legend(&below, &legend)?;
            let mut chart = ChartBuilder::on(&root)
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(50)
                .build_cartesian_2d(0.5..most + 0.5, 0.0..top)?;
            chart
                .configure_mesh()
                .light_line_style(TRANSPARENT)
                .x_desc("threads")
                .y_desc("speedup over 1 thread")
                // Threads are whole numbers: no ticks between them.
                .x_label_formatter(&|v| {
                    if v.fract().abs() < 1e-9 {
                        axis_number(*v)
                    } else {
                        String::new()
                    }
                })
                .label_style(font(13))
                .draw()?;
            chart.draw_series(DashedLineSeries::new(
                [(1.0, 1.0), (most, most)],
                6,
                4,
                gray.stroke_width(2),
            ))?;
            if (cores as f64) < most + 0.5 {
                let c = cores as f64;
                chart.draw_series(DashedLineSeries::new(
                    [(c, 0.0), (c, top)],
                    3,
                    3,
                    gray.stroke_width(1),
                ))?;
                let (px, py) = chart.backend_coord(&(c, top));
                root.draw(&Text::new(
                    crate::process::words::count(cores as u64, "core", "cores"),
                    (px + 4, py + 4),
                    font(12).pos(Pos::new(HPos::Left, VPos::Top)),
                ))?;
            }
            for (curve, line) in curves.iter().zip(&lines) {
                let color = line.color;
                draw_line(&mut chart, curve.points.clone(), line)?;
                chart.draw_series(
                    curve
                        .points
                        .iter()
                        .map(|&p| Circle::new(p, 4, color.filled())),
                )?;
            }
            Ok(())
        },
    )
}

/// The solve-time chart: one outline per distribution, solve time on a
/// logarithmic axis, share of puzzles upright.
///
/// # Errors
/// [`PlotError`] when plotters fails.
pub fn distribution_chart(
    distributions: &[Distribution],
    palette: &Palette,
) -> Result<String, PlotError> {
    let buckets = || distributions.iter().flat_map(|d| d.buckets.iter());
    let lo = buckets().map(|b| b.0).fold(f64::INFINITY, f64::min);
    let hi = buckets().map(|b| b.1).fold(0.0f64, f64::max);
    let (lo, hi) = if lo < hi { (lo, hi) } else { (0.1, 1e3) };
    let top = buckets().map(|b| b.2).fold(1.0f64, f64::max) * 1.1;
    let legend = line_styles(
        distributions
            .iter()
            .map(|d| (d.name.as_str(), d.series.as_str())),
        palette,
    );
    svg(
        "solve times",
        PLOT_HEIGHT + legend_height(&legend),
        |root| {
            let (root, below) = root.split_vertically(PLOT_HEIGHT);
            draw_legend(&below, &legend)?;
            let mut chart = ChartBuilder::on(&root)
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(50)
                .build_cartesian_2d((lo / 1.5..hi * 1.5).log_scale(), 0.0..top)?;
            chart
                .configure_mesh()
                .light_line_style(TRANSPARENT)
                .x_desc("solve time per puzzle, microseconds (log scale)")
                .y_desc("% of puzzles")
                .x_label_formatter(&|v| axis_number(*v))
                .label_style(font(13))
                .draw()?;
            for (d, line) in distributions.iter().zip(&legend) {
                let mut outline = Vec::with_capacity(d.buckets.len() * 2 + 2);
                if let Some(first) = d.buckets.first() {
                    outline.push((first.0, 0.0));
                }
                for &(low, high, pct) in &d.buckets {
                    outline.push((low, pct));
                    outline.push((high, pct));
                }
                if let Some(last) = d.buckets.last() {
                    outline.push((last.1, 0.0));
                }
                draw_line(&mut chart, outline, line)?;
            }
            Ok(())
        },
    )
}

/// Height of a line chart's plot (axes and their labels), pixels; its
/// legend goes below.
const PLOT_HEIGHT: u32 = 460;

/// Height of one legend line, pixels.
const LEGEND_PITCH: u32 = 20;

/// The longest legend text, characters: about the chart's width at the
/// legend's font.
const LEGEND_CHARS: usize = 120;

/// One line of a legend, and how its line is drawn: the series' colour
/// and, for the second line of a series and after, dashes.
#[derive(Clone, Debug)]
struct LegendEntry {
    name: String,
    color: RGBColor,
    /// Dash and gap lengths, pixels; `None` for a solid line.
    dash: Option<(u32, u32)>,
}

/// The dashes of the lines of one series, in order: solid, then dashed,
/// dotted and long-dashed.
const DASHES: [Option<(u32, u32)>; 4] = [None, Some((8, 4)), Some((2, 3)), Some((14, 5))];

/// The look of each line of a chart, from its `(name, series)`: the
/// series' colour in `palette`, and the dashes of its place among the
/// lines of its series.
fn line_styles<'a>(
    lines: impl Iterator<Item = (&'a str, &'a str)>,
    palette: &Palette,
) -> Vec<LegendEntry> {
    let lines: Vec<(&str, &str)> = lines.collect();
    let palette = palette.with(lines.iter().map(|l| l.1));
    let mut out: Vec<LegendEntry> = Vec::with_capacity(lines.len());
    for (i, &(name, series)) in lines.iter().enumerate() {
        let before = lines[..i].iter().filter(|l| l.1 == series).count();
        out.push(LegendEntry {
            name: name.to_string(),
            color: palette.color(series),
            dash: DASHES[before % DASHES.len()],
        });
    }
    out
}

/// Draws the line through `points` in the look of `line`.
fn draw_line<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    points: Vec<(f64, f64)>,
    line: &LegendEntry,
) -> Result<(), Box<dyn StdError>>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let style = line.color.stroke_width(2);
    match line.dash {
        None => chart.draw_series(LineSeries::new(points, style))?,
        Some((size, gap)) => chart.draw_series(DashedLineSeries::new(points, size, gap, style))?,
    };
    Ok(())
}

/// The height of the legend of `entries`, pixels.
fn legend_height(entries: &[LegendEntry]) -> u32 {
    LEGEND_PITCH * entries.len() as u32 + 12
}

/// Draws `entries` one per line on `area`, below the plot, where no line
/// or bar of the chart can be under them however many there are; a name
/// too long for the width keeps its end (a file name's most telling part).
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    entries: &[LegendEntry],
) -> Result<(), Box<dyn StdError>> {
    let left = 66;
    for (i, entry) in entries.iter().enumerate() {
        let y = 6 + LEGEND_PITCH as i32 * i as i32 + LEGEND_PITCH as i32 / 2;
        let style = entry.color.stroke_width(2);
        match entry.dash {
            None => area.draw(&PathElement::new([(left, y), (left + 28, y)], style))?,
            Some((size, gap)) => {
                let step = (size + gap) as usize;
                for x in (left..left + 28).step_by(step) {
                    let end = (x + size as i32).min(left + 28);
                    area.draw(&PathElement::new([(x, y), (end, y)], style))?;
                }
            }
        }
        let chars = entry.name.chars().count();
        let name = if chars > LEGEND_CHARS {
            let tail: String = entry.name.chars().skip(chars - LEGEND_CHARS + 1).collect();
            format!("…{tail}")
        } else {
            entry.name.clone()
        };
        area.draw(&Text::new(
            name,
            (left + 32, y),
            font(13).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// An axis tick: `1.5`, `200`, `12k`, `3.4M`.
fn axis_number(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e4 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

/// A number with at most two decimals, trailing zeros dropped.
fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A self-contained HTML page: headings, paragraphs, SVG figures and
/// tables, with its own small style sheet. Nothing is loaded from
/// elsewhere.
#[derive(Clone, Debug, Default)]
pub struct Page {
    title: String,
    body: String,
}

impl Page {
    /// An empty page titled `title` (also its first heading).
    pub fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            body: String::new(),
        }
    }

    /// A section heading.
    pub fn heading(&mut self, text: &str) {
        let _ = writeln!(self.body, "<h2>{}</h2>", escape(text));
    }

    /// A paragraph of plain text.
    pub fn paragraph(&mut self, text: &str) {
        let _ = writeln!(self.body, "<p>{}</p>", escape(text));
    }

    /// A paragraph in the warning style.
    pub fn warning(&mut self, text: &str) {
        let _ = writeln!(self.body, "<p class=\"warn\">{}</p>", escape(text));
    }

    /// An SVG chart (as the chart functions return it) with a caption.
    pub fn figure(&mut self, svg: &str, caption: &str) {
        // The SVG backend writes an XML declaration; inline SVG in HTML
        // starts at the <svg> element.
        let svg = svg.find("<svg").map_or(svg, |i| &svg[i..]);
        let _ = writeln!(
            self.body,
            "<figure>\n{svg}\n<figcaption>{}</figcaption>\n</figure>",
            escape(caption)
        );
    }

    /// A table; cells of the columns listed in `numeric` are right-aligned.
    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>], numeric: &[usize]) {
        let cell = |tag: &str, i: usize, text: &str| {
            let class = if numeric.contains(&i) {
                " class=\"num\""
            } else {
                ""
            };
            format!("<{tag}{class}>{}</{tag}>", escape(text))
        };
        self.body.push_str("<div class=\"wide\">\n<table>\n<tr>");
        for (i, h) in header.iter().enumerate() {
            self.body.push_str(&cell("th", i, h));
        }
        self.body.push_str("</tr>\n");
        for row in rows {
            self.body.push_str("<tr>");
            for (i, c) in row.iter().enumerate() {
                self.body.push_str(&cell("td", i, c));
            }
            self.body.push_str("</tr>\n");
        }
        self.body.push_str("</table>\n</div>\n");
    }

    /// The whole page.
    pub fn render(&self) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
             <h1>{title}</h1>\n{body}</body>\n</html>\n",
            title = escape(&self.title),
            body = self.body
        )
    }
}

/// The page's own style sheet.
const STYLE: &str = "body { font-family: sans-serif; margin: 2em auto; max-width: 1000px; \
color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.9em; }
svg { max-width: 100%; height: auto; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.8em; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; text-align: left; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.warn { color: #c01c28; }
";

/// `text` with `&`, `<`, `>` and `"` escaped for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(label: &str, series: &str, value: f64) -> Bar {
        Bar {
            label: label.into(),
            series: series.into(),
            value,
            min: value * 0.9,
            max: value * 1.1,
            text: format!("{value}"),
            flagged: false,
        }
    }

    #[test]
    fn bar_charts_are_svg_with_the_labels() {
        let bars = [
            bar("top95 fast", "fast", 200_000.0),
            bar("top95 <py>", "py", 300.0),
        ];
        let svg = bar_chart(
            "throughput",
            "puzzles/s",
            &bars,
            Scale::Auto,
            &Palette::default(),
        )
        .unwrap();
        assert!(svg.contains("<svg"), "{svg}");
        assert!(svg.contains("top95 fast"));
        assert!(svg.contains("top95 &lt;py&gt;"), "labels are escaped");
        let linear = bar_chart(
            "statuses",
            "rows",
            &bars[..1],
            Scale::Linear,
            &Palette::default(),
        )
        .unwrap();
        assert!(linear.contains("top95 fast"));
    }

    #[test]
    fn distributions_bucket_ten_to_a_decade() {
        let mut h = Histogram::<u64>::new(3).unwrap();
        for ns in [1_000, 1_000, 1_100, 10_000] {
            h.record(ns).unwrap();
        }
        let d = Distribution::of("x", &h);
        // 1 us to 10 us: buckets 0..=10, the empty ones between kept.
        assert_eq!(d.buckets.len(), 11);
        assert!((d.buckets[0].0 - 1.0).abs() < 1e-9);
        let total: f64 = d.buckets.iter().map(|b| b.2).sum();
        assert!((total - 100.0).abs() < 1e-9);
        assert_eq!(d.buckets[0].2, 75.0);
        assert_eq!(d.buckets[5].2, 0.0);
        let svg = distribution_chart(&[d], &Palette::default()).unwrap();
        assert!(
            svg.contains("<svg") && svg.contains(">\nx\n</text>"),
            "{svg}"
        );
        let empty = Distribution::of("none", &Histogram::<u64>::new(3).unwrap());
        assert!(empty.buckets.is_empty());
        assert!(distribution_chart(&[empty], &Palette::default()).is_ok());
    }

    /// The position (x, y) of the SVG text element that reads `text`.
    fn text_at(svg: &str, text: &str) -> (f64, f64) {
        let end = svg
            .find(&format!(">\n{text}\n</text>"))
            .unwrap_or_else(|| panic!("no text {text:?} in {svg}"));
        let start = svg[..end].rfind("<text").unwrap();
        let attr = |name: &str| -> f64 {
            let at = svg[start..end].find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            let value = &svg[start + at..end];
            value[..value.find('"').unwrap()].parse().unwrap()
        };
        (attr("x"), attr("y"))
    }

    #[test]
    fn legends_go_below_the_plot_and_fit_its_width() {
        let mut h = Histogram::<u64>::new(3).unwrap();
        for ns in [1_000, 2_000, 2_000, 2_000, 50_000] {
            h.record(ns).unwrap();
        }
        let names: Vec<String> = (0..4)
            .map(|i| format!("data/a-long-directory-name/of-inputs/corpus_number_{i}.txt"))
            .collect();
        let distributions: Vec<Distribution> =
            names.iter().map(|n| Distribution::of(n, &h)).collect();
        let svg = distribution_chart(&distributions, &Palette::default()).unwrap();
        let mut last_y = 0.0;
        for name in &names {
            let (x, y) = text_at(&svg, name);
            // Under the plot area (axes and their labels), never over a
            // line, one line each.
            assert!(y > f64::from(PLOT_HEIGHT), "{name} at y {y}");
            assert!(y > last_y);
            last_y = y;
            assert!(
                x + 7.0 * name.len() as f64 <= f64::from(WIDTH),
                "{name} at x {x}"
            );
        }
        let long = "x".repeat(300);
        let svg = distribution_chart(&[Distribution::of(&long, &h)], &Palette::default()).unwrap();
        let shown = format!("…{}", "x".repeat(LEGEND_CHARS - 1));
        let (x, _) = text_at(&svg, &shown);
        assert!(x + 7.0 * LEGEND_CHARS as f64 <= f64::from(WIDTH));
        let curves: Vec<Curve> = names
            .iter()
            .map(|n| Curve {
                name: n.clone(),
                series: "fast".into(),
                points: vec![(1.0, 1.0), (2.0, 1.9)],
            })
            .collect();
        let svg = scaling_chart(&curves, 2, &Palette::default()).unwrap();
        for name in names
            .iter()
            .map(String::as_str)
            .chain(["ideal (speedup = threads)"])
        {
            assert!(text_at(&svg, name).1 > f64::from(PLOT_HEIGHT), "{name}");
        }
    }

    /// `color` as plotters writes it in SVG (`#4E79A7`).
    fn hex(color: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", color.0, color.1, color.2)
    }

    #[test]
    fn a_series_has_one_colour_in_every_chart_and_red_means_a_problem() {
        let palette = Palette::new(["fast", "py", "naive"]);
        let [fast, py, naive] = ["fast", "py", "naive"].map(|s| hex(palette.color(s)));
        assert!(fast != py && py != naive && fast != naive);
        assert!(
            PALETTE.iter().all(|&c| c != ALERT),
            "no series is drawn red"
        );
        // The throughput bars of py only, the solve times of naive only:
        // each keeps the page's colour for its solver.
        let mut wrong = bar("top95 py", "py", 300.0);
        let svg = bar_chart("t", "puzzles/s", &[wrong.clone()], Scale::Auto, &palette).unwrap();
        assert!(svg.contains(&py) && !svg.contains(&fast), "{svg}");
        wrong.flagged = true;
        let svg = bar_chart("t", "puzzles/s", &[wrong], Scale::Auto, &palette).unwrap();
        assert!(
            svg.contains(&hex(ALERT)) && !svg.contains(&py),
            "a flagged bar is red"
        );
        let mut h = Histogram::<u64>::new(3).unwrap();
        h.record(2_000).unwrap();
        let d = Distribution {
            series: "naive".into(),
            ..Distribution::of("top95 (naive)", &h)
        };
        let svg = distribution_chart(&[d], &palette).unwrap();
        assert!(svg.contains(&naive) && !svg.contains(&fast), "{svg}");
        let curves = ["a", "b"].map(|name| Curve {
            name: name.into(),
            series: "naive".into(),
            points: vec![(1.0, 1.0), (2.0, 1.5)],
        });
        let svg = scaling_chart(&curves, 2, &palette).unwrap();
        assert!(svg.contains(&naive) && !svg.contains(&fast), "{svg}");
        // Two lines of one series: the second dashed.
        let styles = line_styles(curves.iter().map(|c| (c.name.as_str(), "naive")), &palette);
        assert_eq!(styles[0].dash, None);
        assert!(styles[1].dash.is_some());
    }

    #[test]
    fn scaling_has_the_ideal_line_and_the_curves() {
        let curve = Curve {
            name: "top95 fast".into(),
            series: "fast".into(),
            points: vec![(1.0, 1.0), (2.0, 1.8)],
        };
        let svg = scaling_chart(&[curve], 2, &Palette::default()).unwrap();
        assert!(svg.contains("ideal") && svg.contains("top95 fast"));
    }

    #[test]
    fn pages_are_self_contained() {
        let mut page = Page::new("bench <1>");
        page.heading("Throughput");
        page.paragraph("a & b");
        page.figure(
            &bar_chart(
                "t",
                "x",
                &[bar("a", "a", 1.0)],
                Scale::Auto,
                &Palette::default(),
            )
            .unwrap(),
            "caption",
        );
        page.table(&["name", "n"], &[vec!["a".into(), "1".into()]], &[1]);
        let html = page.render();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<title>bench &lt;1&gt;</title>"));
        assert!(html.contains("<p>a &amp; b</p>"));
        assert!(!html.contains("<?xml"), "no XML declaration inside HTML");
        assert!(!html.contains("<script") && !html.contains("<link") && !html.contains("<img"));
        let urls: Vec<&str> = html
            .match_indices("http")
            .map(|(i, _)| &html[i..i + 30])
            .collect();
        assert!(
            urls.iter().all(|u| u.starts_with("http://www.w3.org/")),
            "{urls:?}"
        );
    }

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(axis_number(200_000.0), "200k");
        assert_eq!(axis_number(1_500_000.0), "1.5M");
        assert_eq!(axis_number(2.5), "2.5");
        assert_eq!(axis_number(100.0), "100");
    }
}
