//! Solve times counted in the buckets of an hdrhistogram at 3 significant
//! figures, by a plain array of counts: recording a time is an index and an
//! increment, and adding a chunk's counts touches only the buckets between
//! its shortest and longest time. The [`Histogram`] the summary reads is
//! made from the counts when asked for, equal to one that recorded every
//! time itself (counts, total, minimum and maximum).

use hdrhistogram::Histogram;

/// Significant figures kept by the solve-time histogram.
const SIGFIGS: u8 = 3;

/// Buckets of exact values at the bottom of the layout: hdrhistogram's
/// sub-bucket count for 3 significant figures (2 x 10^3, rounded up to a
/// power of two) with a lowest discernible value of 1.
const EXACT: u32 = 2048;

/// Buckets per further power of two (half the exact ones: from there on each
/// bucket is twice as wide as the one below).
const HALF_MAGNITUDE: u32 = 10;

/// The index of the bucket holding `ns` in hdrhistogram's layout: values
/// below [`EXACT`] have one each; above, a value is kept to its top 11 bits
/// (`shift` bits dropped), and each `shift` has 1,024 buckets.
fn index(ns: u64) -> usize {
    let shift = (u64::BITS - (ns | u64::from(EXACT - 1)).leading_zeros()) - EXACT.trailing_zeros();
    ((shift as usize) << HALF_MAGNITUDE) + (ns >> shift) as usize
}

/// The lowest value of bucket `index` (the inverse of [`index`]).
fn lowest(index: usize) -> u64 {
    let shift = (index >> HALF_MAGNITUDE).saturating_sub(1);
    ((index - (shift << HALF_MAGNITUDE)) as u64) << shift
}

/// Solve times, nanoseconds, kept as their buckets ([`index`], two bytes a
/// time: the highest index, that of `u64::MAX`, is 56,319), in the order
/// they came, with the shortest and the longest: what a worker records
/// for each row of a run, for [`TimeCounts::add_buckets`] to count.
#[derive(Clone, Debug)]
pub(super) struct TimeBuckets {
    buckets: Vec<u16>,
    /// The shortest time (`u64::MAX` when none) and the longest (0 when
    /// none).
    min: u64,
    max: u64,
}

impl Default for TimeBuckets {
    fn default() -> TimeBuckets {
        TimeBuckets {
            buckets: Vec::new(),
            min: u64::MAX,
            max: 0,
        }
    }
}

impl TimeBuckets {
    /// Keeps one time's bucket: on the solver threads, once a row.
    #[inline]
    pub(super) fn record(&mut self, ns: u64) {
        // Never truncated: every index fits in 16 bits (see above).
        self.buckets.push(index(ns) as u16);
        self.min = self.min.min(ns);
        self.max = self.max.max(ns);
    }

    /// Forgets every time, keeping the storage.
    pub(super) fn clear(&mut self) {
        self.buckets.clear();
        (self.min, self.max) = (u64::MAX, 0);
    }
}

/// Solve times, nanoseconds, counted per bucket of a 3-significant-figure
/// hdrhistogram. Counts of disjoint sets of times add into the counts of
/// their union.
#[derive(Clone, Debug)]
pub(super) struct TimeCounts {
    /// Times per bucket, indexed by [`index`]; grown to the highest bucket
    /// used, never shrunk (a tally reused chunk after chunk allocates once).
    counts: Vec<u64>,
    /// Times counted.
    total: u64,
    /// The shortest time (`u64::MAX` when none) and the longest (0 when
    /// none): only the buckets between theirs are added and cleared, and
    /// the histogram keeps both exactly.
    min: u64,
    max: u64,
}

impl Default for TimeCounts {
    fn default() -> TimeCounts {
        TimeCounts {
            counts: Vec::new(),
            total: 0,
            min: u64::MAX,
            max: 0,
        }
    }
}

impl TimeCounts {
    /// Counts one time: on the solver threads, once a row.
    #[inline]
    pub(super) fn record(&mut self, ns: u64) {
        let at = index(ns);
        match self.counts.get_mut(at) {
            Some(count) => *count += 1,
            None => self.grow_and_count(at),
        }
        self.total += 1;
        self.min = self.min.min(ns);
        self.max = self.max.max(ns);
    }

    /// Grows the counts to hold bucket `at` and counts one time there.
    #[cold]
    #[inline(never)]
    fn grow_and_count(&mut self, at: usize) {
        self.counts.resize(at + 1, 0);
        self.counts[at] += 1;
    }

    /// The buckets between the shortest and the longest time (empty when
    /// there is none).
    fn used(&self) -> std::ops::Range<usize> {
        if self.total == 0 {
            0..0
        } else {
            index(self.min)..index(self.max) + 1
        }
    }

    /// Adds every time of `other`.
    pub(super) fn add(&mut self, other: &TimeCounts) {
        let used = other.used();
        if used.end > self.counts.len() {
            self.counts.resize(used.end, 0);
        }
        for (mine, theirs) in self.counts[used.clone()]
            .iter_mut()
            .zip(&other.counts[used])
        {
            *mine += theirs;
        }
        self.total += other.total;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Counts every time of `times`: an increment a time, the counts
    /// grown once to the longest time's bucket.
    pub(super) fn add_buckets(&mut self, times: &TimeBuckets) {
        if times.buckets.is_empty() {
            return;
        }
        let top = index(times.max) + 1;
        if top > self.counts.len() {
            self.counts.resize(top, 0);
        }
        for &at in &times.buckets {
            if let Some(count) = self.counts.get_mut(usize::from(at)) {
                *count += 1;
            }
        }
        self.total += times.buckets.len() as u64;
        self.min = self.min.min(times.min);
        self.max = self.max.max(times.max);
    }

    /// Forgets every time, keeping the storage.
    pub(super) fn clear(&mut self) {
        let used = self.used();
        self.counts[used].fill(0);
        (self.total, self.min, self.max) = (0, u64::MAX, 0);
    }

    /// True when no time was counted.
    pub(super) fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The times as an hdrhistogram: each bucket's count recorded at its
    /// lowest value, but the shortest and longest times at their own (the
    /// same buckets), so that the histogram equals one that recorded every
    /// time (its smallest time above 0 aside, when a time of 0 was counted:
    /// then it is the lowest value of that time's bucket).
    pub(super) fn histogram(&self) -> Histogram<u64> {
        let mut histogram =
            Histogram::new(SIGFIGS).expect("3 significant figures is a valid histogram precision");
        let (min_at, max_at) = (index(self.min), index(self.max));
        let mut record = |ns: u64, count: u64| {
            // An auto-resizing histogram grows to fit; only values beyond
            // its largest possible range are clamped.
            if count > 0 && histogram.record_n(ns, count).is_err() {
                histogram.saturating_record_n(ns, count);
            }
        };
        for at in self.used() {
            let count = self.counts[at];
            match (at == min_at, at == max_at) {
                (true, true) => {
                    record(self.min, 1);
                    record(self.max, count - 1);
                }
                (true, false) => record(self.min, count),
                (false, true) => record(self.max, count),
                (false, false) => record(lowest(at), count),
            }
        }
        histogram
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Values around every power of two, and at the ends of `u64`, in order.
    fn edges() -> Vec<u64> {
        let mut values = vec![0, 1, 2, 3, u64::MAX - 1, u64::MAX];
        for bit in 1..64 {
            let p = 1u64 << bit;
            values.extend([p - 1, p, p + 1, p + p / 3]);
        }
        values.sort_unstable();
        values
    }

    #[test]
    fn buckets_are_the_histograms_own() {
        let h = Histogram::<u64>::new(SIGFIGS).unwrap();
        let mut last = 0;
        for ns in edges() {
            assert_eq!(lowest(index(ns)), h.lowest_equivalent(ns), "{ns}");
            assert!(index(ns) >= last, "{ns}");
            last = index(ns);
        }
        assert_eq!(index(u64::MAX), 53 * 1024 + 2047);
    }

    fn direct(values: &[u64]) -> Histogram<u64> {
        let mut h = Histogram::<u64>::new(SIGFIGS).unwrap();
        for &ns in values {
            if h.record(ns).is_err() {
                h.saturating_record(ns);
            }
        }
        h
    }

    #[test]
    fn edge_values_make_the_histogram_recording_them_makes() {
        let values = edges();
        let mut times = TimeCounts::default();
        for &ns in &values {
            times.record(ns);
        }
        assert_eq!(times.histogram(), direct(&values));
        let mut buckets = TimeBuckets::default();
        for &ns in &values {
            buckets.record(ns);
        }
        let mut counted = TimeCounts::default();
        counted.add_buckets(&buckets);
        counted.add_buckets(&TimeBuckets::default());
        assert_eq!(counted.histogram(), direct(&values));
        assert!(TimeCounts::default().histogram().is_empty());
    }

    proptest! {
        // Times from 1 ns: see `TimeCounts::histogram` for a time of 0.
        #[test]
        fn added_chunks_make_the_histogram_recording_every_time_makes(
            chunks in prop::collection::vec(
                prop::collection::vec(prop_oneof![1u64..3000, 1u64..10_000_000, 1u64..], 0..40),
                0..8,
            )
        ) {
            let mut whole = TimeCounts::default();
            let mut chunk = TimeCounts::default();
            for part in &chunks {
                chunk.clear();
                for &ns in part {
                    chunk.record(ns);
                }
                prop_assert_eq!(chunk.histogram(), direct(part));
                whole.add(&chunk);
            }
            let all: Vec<u64> = chunks.concat();
            let mut kept = TimeCounts::default();
            let mut buckets = TimeBuckets::default();
            for part in &chunks {
                buckets.clear();
                for &ns in part {
                    buckets.record(ns);
                }
                kept.add_buckets(&buckets);
            }
            prop_assert_eq!(kept.histogram(), direct(&all));
            prop_assert_eq!(whole.is_empty(), all.is_empty());
            let h = whole.histogram();
            prop_assert_eq!(&h, &direct(&all));
            for q in [0.0, 0.5, 0.9, 0.99, 1.0] {
                prop_assert_eq!(h.value_at_quantile(q), direct(&all).value_at_quantile(q));
            }
        }
    }
}
