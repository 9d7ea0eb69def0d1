//! The progress display on stderr: an indicatif bar sized in input bytes
//! (so gzip and huge inputs get an ETA without counting lines first), or a
//! spinner when a size is unknown (stdin), showing puzzles done and
//! puzzles/s. It is updated once per chunk written, never per puzzle, and
//! stands where the reader stood when it cut that chunk: so it follows the
//! rows written, not the read-ahead, and a gzip input (whose compressed
//! bytes are all read a little before its last rows are solved) never shows
//! 100 % before the end.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// How often the display is redrawn, at most, per second.
const REDRAW_HZ: u8 = 8;

/// How often the display is redrawn when stderr is not a terminal
/// (`--progress always` into a log), per second.
const LOG_HZ: u8 = 1;

/// Whether and how progress is drawn on stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Draw {
    /// Not at all.
    #[default]
    Off,
    /// In place, on a terminal.
    Terminal,
    /// One plain line per update, for a stderr that is not a terminal
    /// (`--progress always` into a log).
    Log,
}

/// Where the progress goes and what it measures.
#[derive(Clone, Debug, Default)]
pub struct ProgressOptions {
    /// How to draw.
    pub draw: Draw,
    /// Colour allowed.
    pub color: bool,
    /// Total input bytes, when every input's size is known.
    pub total_bytes: Option<u64>,
    /// Puzzles already done before this run (the rows `--resume` keeps):
    /// counted in the total shown, not in the rate.
    pub kept: u64,
}

/// The live progress of a run. Does nothing when disabled.
pub struct Progress {
    bar: Option<ProgressBar>,
    bytes_read: Vec<Arc<AtomicU64>>,
    total_bytes: Option<u64>,
    kept: u64,
    /// When and at which byte this run's pace starts to count for the
    /// ETA: the start, or after `--resume` the first chunk shown (which
    /// jumps over the kept rows' bytes, read at another pace); `None`
    /// until then.
    since: Mutex<Option<(Instant, u64)>>,
    start: Instant,
}

impl Progress {
    /// Starts the display. `bytes_read` are the inputs' raw byte counters
    /// (bytes taken from the file, before decompression), summed for the
    /// bar's position by [`Progress::update`]; a caller that knows where its
    /// written rows stand gives none and calls [`Progress::update_to`].
    pub fn start(options: &ProgressOptions, bytes_read: Vec<Arc<AtomicU64>>) -> Progress {
        let target = match options.draw {
            Draw::Off => ProgressDrawTarget::hidden(),
            Draw::Terminal => ProgressDrawTarget::stderr_with_hz(REDRAW_HZ),
            Draw::Log => ProgressDrawTarget::term_like_with_hz(Box::new(LogLines), LOG_HZ),
        };
        Progress::start_on(options, bytes_read, target)
    }

    fn start_on(
        options: &ProgressOptions,
        bytes_read: Vec<Arc<AtomicU64>>,
        target: ProgressDrawTarget,
    ) -> Progress {
        let bar = (options.draw != Draw::Off).then(|| {
            let bar = ProgressBar::with_draw_target(options.total_bytes, target);
            bar.set_style(style(options.total_bytes.is_some(), options.color));
            bar
        });
        let progress = Progress {
            bar,
            bytes_read,
            total_bytes: options.total_bytes,
            kept: options.kept,
            since: Mutex::new((options.kept == 0).then(|| (Instant::now(), 0))),
            start: Instant::now(),
        };
        if let Some(bar) = &progress.bar {
            bar.set_message(format!(
                "{}, 0/s",
                crate::process::words::count(options.kept, "puzzle", "puzzles")
            ));
        }
        if let Some(bar) = &progress.bar {
            bar.enable_steady_tick(Duration::from_millis(250));
        }
        progress
    }

    /// Shows `puzzles` done and the bytes the counters given to
    /// [`Progress::start`] say were read so far.
    pub fn update(&self, puzzles: u64) {
        let bytes = self
            .bytes_read
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum();
        self.update_to(puzzles, bytes);
    }

    /// Shows `puzzles` done in all (kept rows included) and the raw input
    /// bytes read up to the last row written. Below 100 % until
    /// [`Progress::finish`].
    pub fn update_to(&self, puzzles: u64, bytes_read: u64) {
        let Some(bar) = &self.bar else { return };
        let secs = self.start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 {
            puzzles.saturating_sub(self.kept) as f64 / secs
        } else {
            0.0
        };
        let position = match self.total_bytes {
            Some(total) => bytes_read.min(total.saturating_sub(1)),
            None => bytes_read,
        };
        let eta = self.total_bytes.and_then(|total| self.eta(position, total));
        bar.set_message(format!(
            "{}, {rate:.0}/s{}",
            crate::process::words::count(puzzles, "puzzle", "puzzles"),
            eta.map(|eta| format!(", ETA {:#}", HumanDuration(eta)))
                .unwrap_or_default()
        ));
        bar.set_position(position);
    }

    /// The time left at this run's pace so far, at byte `position` of
    /// `total`: `None` until this run has gone forward. Computed here, not
    /// by indicatif's estimator, which took the jump over the kept rows'
    /// bytes after `--resume` for this run's pace (an ETA of 0 s to the
    /// end).
    fn eta(&self, position: u64, total: u64) -> Option<Duration> {
        let mut since = self.since.lock().unwrap_or_else(|e| e.into_inner());
        let (at, from) = *since.get_or_insert((Instant::now(), position));
        let done = position.checked_sub(from).filter(|&done| done > 0)?;
        let left = total.saturating_sub(position) as f64;
        Some(at.elapsed().mul_f64(left / done as f64))
    }

    /// A bar counting items towards `total` (puzzles to make, say) instead
    /// of input bytes; [`Progress::count`] moves it.
    pub fn start_counting(options: &ProgressOptions, total: u64) -> Progress {
        let target = match options.draw {
            Draw::Off => ProgressDrawTarget::hidden(),
            Draw::Terminal => ProgressDrawTarget::stderr_with_hz(REDRAW_HZ),
            Draw::Log => ProgressDrawTarget::term_like_with_hz(Box::new(LogLines), LOG_HZ),
        };
        let bar = (options.draw != Draw::Off).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), target);
            let template = if options.color {
                "{spinner:.green} {elapsed_precise} [{bar:30.cyan/blue}] {pos}/{len} {msg}, ETA {eta}"
            } else {
                "{spinner} {elapsed_precise} [{bar:30}] {pos}/{len} {msg}, ETA {eta}"
            };
            bar.set_style(
                ProgressStyle::with_template(template)
                    .expect("the progress templates are valid")
                    .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Progress {
            bar,
            bytes_read: Vec::new(),
            total_bytes: None,
            kept: 0,
            since: Mutex::new(None),
            start: Instant::now(),
        }
    }

    /// Shows `done` items of a [`Progress::start_counting`] bar, and
    /// `message` after the count.
    pub fn count(&self, done: u64, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(message.to_string());
        }
    }

    /// Removes the display.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn style(sized: bool, color: bool) -> ProgressStyle {
    let template = match (sized, color) {
        (true, true) => {
            "{spinner:.green} {elapsed_precise} [{bar:30.cyan/blue}] {percent:>3}% {msg}"
        }
        (true, false) => "{spinner} {elapsed_precise} [{bar:30}] {percent:>3}% {msg}",
        (false, true) => "{spinner:.green} {elapsed_precise} {bytes} read, {msg}",
        (false, false) => "{spinner} {elapsed_precise} {bytes} read, {msg}",
    };
    ProgressStyle::with_template(template)
        .expect("the progress templates are valid")
        .progress_chars("=> ")
}

/// A draw target for a stderr that is not a terminal: every redraw becomes
/// one plain line, with no cursor movement.
#[derive(Debug)]
struct LogLines;

impl TermLike for LogLines {
    fn width(&self) -> u16 {
        100
    }

    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.write_str(s)
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        if s.trim().is_empty() {
            return Ok(());
        }
        writeln!(io::stderr(), "{s}")
    }

    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }

    fn flush(&self) -> io::Result<()> {
        io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden(total_bytes: Option<u64>, kept: u64) -> Progress {
        let options = ProgressOptions {
            draw: Draw::Log,
            color: false,
            total_bytes,
            kept,
        };
        Progress::start_on(&options, vec![], ProgressDrawTarget::hidden())
    }

    #[test]
    fn a_disabled_display_does_nothing() {
        let progress = Progress::start(&ProgressOptions::default(), vec![]);
        assert!(progress.bar.is_none());
        progress.update(5);
        progress.finish();
    }

    #[test]
    fn the_bar_follows_the_bytes_of_the_rows_written_and_stops_short_of_the_end() {
        let progress = hidden(Some(1000), 0);
        progress.update_to(42, 500);
        let bar = progress.bar.as_ref().unwrap();
        assert_eq!(bar.position(), 500);
        assert_eq!(bar.length(), Some(1000));
        assert!(bar.message().starts_with("42 puzzles, "));
        // A gzip input read to its end before its last rows are written.
        progress.update_to(50, 1000);
        assert_eq!(bar.position(), 999);
        progress.finish();
    }

    #[test]
    fn the_bar_can_follow_live_byte_counters() {
        let counters = vec![Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0))];
        let options = ProgressOptions {
            draw: Draw::Log,
            color: false,
            total_bytes: Some(1000),
            kept: 0,
        };
        let progress = Progress::start_on(&options, counters.clone(), ProgressDrawTarget::hidden());
        counters[0].store(300, Ordering::Relaxed);
        counters[1].store(200, Ordering::Relaxed);
        progress.update(42);
        assert_eq!(progress.bar.as_ref().unwrap().position(), 500);
        progress.finish();
    }

    #[test]
    fn the_eta_after_resume_is_this_runs_pace_over_the_bytes_left() {
        // trial56 F2-3: the jump over the kept rows' bytes was taken for
        // this run's pace, an ETA of 0 s all along.
        let progress = hidden(Some(1000), 500);
        let bar = progress.bar.as_ref().unwrap();
        progress.update_to(500, 600);
        assert_eq!(bar.message(), "500 puzzles, 0/s", "no pace yet");
        std::thread::sleep(Duration::from_millis(200));
        progress.update_to(520, 700);
        // 100 bytes in 0.2 s, 300 left: about 0.6 s.
        let message = bar.message();
        let eta = message.split(", ETA ").nth(1).unwrap();
        assert!(["0s", "1s"].contains(&eta), "{message}");
        progress.finish();
        // A fresh run counts from its start.
        let progress = hidden(Some(1000), 0);
        std::thread::sleep(Duration::from_millis(100));
        progress.update_to(10, 100);
        let message = progress.bar.as_ref().unwrap().message();
        assert!(message.contains(", ETA "), "{message}");
        progress.finish();
    }

    #[test]
    fn the_rate_after_resume_counts_only_this_runs_puzzles() {
        let progress = hidden(None, 1_000_000);
        std::thread::sleep(Duration::from_millis(20));
        progress.update_to(1_000_000, 10);
        let bar = progress.bar.as_ref().unwrap();
        assert_eq!(bar.message(), "1000000 puzzles, 0/s");
        progress.update_to(1_000_010, 20);
        let rate: f64 = bar
            .message()
            .trim_start_matches("1000010 puzzles, ")
            .trim_end_matches("/s")
            .parse()
            .unwrap();
        assert!(rate < 10.0 / 0.02, "{}", bar.message());
        progress.finish();
    }
}
