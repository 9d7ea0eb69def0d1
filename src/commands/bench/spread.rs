//! The spread of repeated measurements (`--runs`): median, extremes and
//! standard deviation of the runs' puzzles/s, and when the spread is large
//! enough to warn about, as hyperfine warns about outliers.

/// Range of the runs, over their median, above which `bench` warns that the
/// measurement is unsteady: 10 %. Runs on a quiet machine stay within a few
/// percent; other programs sharing the cores push them well past this.
pub const LARGE_SPREAD: f64 = 0.10;

/// Statistics of the puzzles/s of repeated runs of one measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// Runs measured.
    pub runs: usize,
    /// The median (the mean of the middle two for an even count).
    pub median: f64,
    /// The slowest run.
    pub min: f64,
    /// The fastest run.
    pub max: f64,
    /// The sample standard deviation (divided by `runs - 1`); 0 for one
    /// run.
    pub stddev: f64,
}

impl Spread {
    /// The spread of `values` (puzzles/s of each run); all zeros when there
    /// are none.
    pub fn of(values: &[f64]) -> Spread {
        let mut sorted = values.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        let n = sorted.len();
        if n == 0 {
            return Spread {
                runs: 0,
                median: 0.0,
                min: 0.0,
                max: 0.0,
                stddev: 0.0,
            };
        }
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let stddev = if n > 1 {
            (sorted.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Spread {
            runs: n,
            median,
            min: sorted[0],
            max: sorted[n - 1],
            stddev,
        }
    }

    /// `(max - min) / median`: 0 when the median is 0.
    pub fn relative_range(&self) -> f64 {
        if self.median > 0.0 {
            (self.max - self.min) / self.median
        } else {
            0.0
        }
    }

    /// `stddev / median`, the coefficient of variation: 0 when the median
    /// is 0.
    pub fn relative_stddev(&self) -> f64 {
        if self.median > 0.0 {
            self.stddev / self.median
        } else {
            0.0
        }
    }

    /// True when the runs differ by more than [`LARGE_SPREAD`] of their
    /// median.
    pub fn is_large(&self) -> bool {
        self.runs > 1 && self.relative_range() > LARGE_SPREAD
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_extremes_and_sample_stddev() {
        // The three runs of one measurement.
        let s = Spread::of(&[35_400.0, 45_614.0, 42_728.0]);
        assert_eq!(
            (s.runs, s.median, s.min, s.max),
            (3, 42_728.0, 35_400.0, 45_614.0)
        );
        let mean = (35_400.0 + 45_614.0 + 42_728.0) / 3.0;
        let var = [35_400.0f64, 45_614.0, 42_728.0]
            .iter()
            .map(|x| (x - mean).powi(2))
            .sum::<f64>()
            / 2.0;
        assert!((s.stddev - var.sqrt()).abs() < 1e-9);
        assert!(s.is_large(), "a 24 % range is large");
        let even = Spread::of(&[4.0, 1.0, 3.0, 2.0]);
        assert_eq!(even.median, 2.5);
    }

    #[test]
    fn one_run_has_no_spread_and_none_has_zeros() {
        let one = Spread::of(&[100.0]);
        assert_eq!(
            (one.median, one.min, one.max, one.stddev),
            (100.0, 100.0, 100.0, 0.0)
        );
        assert!(!one.is_large());
        let none = Spread::of(&[]);
        assert_eq!(
            (none.runs, none.median, none.relative_range()),
            (0, 0.0, 0.0)
        );
    }

    #[test]
    fn steady_runs_are_not_large() {
        let s = Spread::of(&[100.0, 104.0, 98.0]);
        assert!(!s.is_large());
        assert!((s.relative_range() - 0.06).abs() < 1e-12);
    }
}
