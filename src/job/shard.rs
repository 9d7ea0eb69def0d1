//! `--shard K/N`: a run handles only every N-th record of its inputs, so
//! that N jobs (a CI matrix, a Slurm array, GNU parallel slots) split one
//! corpus between them and `merge` puts their results back together.
//!
//! Records are numbered from 0 across all inputs, in order (malformed
//! records included: every record that would get a results row counts),
//! and shard K keeps the records whose number is congruent to K-1 modulo N.
//! Taking every N-th record rather than a contiguous block spreads the hard
//! puzzles of a corpus sorted by difficulty evenly over the shards. The
//! records kept are not renumbered: their `file` and `line` are those of
//! the whole inputs.
//!
//! `solve`, `check` and `augment` take `--shard`; `merge` joins the
//! shards' outputs.
//!
//! `--limit L` counts records of the whole inputs, before sharding: shard K
//! of N handles the records of the first L that fall to it, so the shards of
//! a limited run together cover exactly the single run with `--limit L`.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::input::{InputError, Record, RecordBatch, RecordStream};
use crate::job::pipeline::Source;

/// One shard of N: `K/N` on the command line, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, 1-based: 1..=count.
    number: u64,
    /// N, at least 1.
    count: u64,
}

impl Shard {
    /// Shard `number` (1-based) of `count`.
    ///
    /// # Errors
    /// A message when `count` is 0 or `number` is not in `1..=count`.
    pub fn new(number: u64, count: u64) -> Result<Shard, String> {
        if count == 0 {
            return Err("the shard count N of K/N must be at least 1".into());
        }
        if number == 0 || number > count {
            return Err(format!(
                "the shard number K of K/N runs from 1 to N ({count}), not {number}"
            ));
        }
        Ok(Shard { number, count })
    }

    /// K, 1-based.
    pub fn number(self) -> u64 {
        self.number
    }

    /// N.
    pub fn count(self) -> u64 {
        self.count
    }

    /// True when the record numbered `index` (0-based, across all inputs)
    /// belongs to this shard.
    pub fn keeps(self, index: u64) -> bool {
        index % self.count == self.number - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N`, e.g. `2/4`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not K/N (e.g. 2/4: the second of four shards)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse::<u64>().map_err(|_| bad())?;
        let n = n.trim().parse::<u64>().map_err(|_| bad())?;
        Shard::new(k, n)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.number, self.count)
    }
}

/// Keeps only `shard`'s records of `sources` (the inputs, in order), and
/// with `limit`, only those among the first `limit` records of all inputs.
/// The records are numbered as the reader yields them, on its thread; read
/// errors pass through, uncounted. Records the reader cuts raw stay raw
/// ([`RecordStream::fill`]): the other shards' records are never parsed.
/// Also returns the count of records numbered, of all shards: once the
/// inputs are read, the records they hold (within `limit`).
pub fn select(
    sources: Vec<Source>,
    shard: Shard,
    limit: Option<u64>,
) -> (Vec<Source>, Arc<AtomicU64>) {
    // One count across all inputs: the reader takes them one after another.
    let numbered = Arc::new(AtomicU64::new(0));
    let selected = sources
        .into_iter()
        .map(|source| Source {
            records: Box::new(Sharded {
                inner: source.records,
                shard,
                numbered: Arc::clone(&numbered),
                end: limit.unwrap_or(u64::MAX),
            }),
            bytes_read: source.bytes_read,
        })
        .collect();
    (selected, numbered)
}

/// Records read at most at once while filling a batch, of which this shard
/// keeps its share: bounds a batch's memory for any N.
const READ_AT_ONCE: usize = 1 << 16;

/// One input's records, only `shard`'s kept.
struct Sharded {
    inner: Box<dyn RecordStream>,
    shard: Shard,
    /// Records of all inputs numbered so far.
    numbered: Arc<AtomicU64>,
    /// The number of the first record past `--limit`.
    end: u64,
}

impl Iterator for Sharded {
    type Item = Result<Record, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.numbered.load(Ordering::Relaxed) >= self.end {
                return None;
            }
            match self.inner.next()? {
                Err(e) => return Some(Err(e)),
                Ok(record) => {
                    if self
                        .shard
                        .keeps(self.numbered.fetch_add(1, Ordering::Relaxed))
                    {
                        return Some(Ok(record));
                    }
                }
            }
        }
    }
}

impl RecordStream for Sharded {
    fn at_limit(&self) -> bool {
        self.numbered.load(Ordering::Relaxed) >= self.end
    }

    /// Lets the inner stream fill the batch (raw where it can), then keeps
    /// this shard's records of those added, until they leave the batch no
    /// room ([`RecordBatch::has_room`]: by their count or their bytes).
    fn fill(&mut self, batch: &mut RecordBatch, max: usize) -> Result<bool, InputError> {
        while batch.has_room(max) {
            let numbered = self.numbered.load(Ordering::Relaxed);
            if numbered >= self.end {
                return Ok(false);
            }
            let start = batch.len();
            let wanted = ((max - start) as u64)
                .saturating_mul(self.shard.count())
                .min(READ_AT_ONCE as u64)
                .min(self.end - numbered);
            let filled = self.inner.fill(batch, start + wanted as usize);
            let read = batch.len() - start;
            let shard = self.shard;
            batch.retain_since(start, |k| shard.keeps(numbered + k as u64));
            self.numbered
                .store(numbered + read as u64, Ordering::Relaxed);
            if !filled? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Keeps only `shard`'s items of `items`, numbering the `Ok` items from the
/// count in `numbered` (shared by the streams of inputs read one after
/// another), and with `limit`, only those numbered below it; errors pass
/// through, uncounted.
pub fn keep<T, E>(
    items: impl Iterator<Item = Result<T, E>>,
    shard: Shard,
    numbered: Arc<AtomicU64>,
    limit: Option<u64>,
) -> impl Iterator<Item = Result<T, E>> {
    let end = limit.unwrap_or(u64::MAX);
    let counted = Arc::clone(&numbered);
    items
        .take_while(move |item| item.is_err() || counted.load(Ordering::Relaxed) < end)
        .filter(move |item| item.is_err() || shard.keeps(numbered.fetch_add(1, Ordering::Relaxed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::grid::Grid;

    const PUZZLE: &[u8] =
        b"016400000200009000400000062070230100100000003003087040960000005000800007000006820";

    fn source(lines: std::ops::RangeInclusive<u64>) -> Source {
        let records: Vec<Result<Record, InputError>> = lines
            .map(|line| {
                let puzzle = if line % 5 == 0 {
                    Err("malformed".to_string())
                } else {
                    Ok(Grid::parse(PUZZLE).unwrap())
                };
                Ok(Record::new(line, puzzle, None))
            })
            .collect();
        Source::parsed(records.into_iter())
    }

    fn kept(sources: Vec<Source>) -> Vec<(usize, u64)> {
        sources
            .into_iter()
            .enumerate()
            .flat_map(|(i, s)| s.records.map(move |r| (i, r.unwrap().line)))
            .collect()
    }

    #[test]
    fn k_of_n_parses_and_is_checked() {
        assert_eq!("2/4".parse::<Shard>(), Shard::new(2, 4));
        assert_eq!("1/1".parse::<Shard>().unwrap().to_string(), "1/1");
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "-1/4", "2/4/8"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert!("5/4".parse::<Shard>().unwrap_err().contains("1 to N (4)"));
    }

    #[test]
    fn shards_cover_every_record_once_across_inputs() {
        let mut all = vec![];
        for k in 1..=3 {
            let shard = Shard::new(k, 3).unwrap();
            let mine = kept(select(vec![source(1..=7), source(1..=4)], shard, None).0);
            all.extend(mine);
        }
        all.sort_unstable();
        let mut whole = kept(vec![source(1..=7), source(1..=4)]);
        whole.sort_unstable();
        assert_eq!(all, whole);
        // Numbering runs on into the second input: record 7 (b.txt line 1)
        // falls to shard 2.
        let second = kept(
            select(
                vec![source(1..=7), source(1..=4)],
                Shard::new(2, 3).unwrap(),
                None,
            )
            .0,
        );
        assert_eq!(second, [(0, 2), (0, 5), (1, 1), (1, 4)]);
    }

    #[test]
    fn the_limit_counts_records_of_the_whole_inputs() {
        let shard = Shard::new(1, 2).unwrap();
        let (mut sources, numbered) = select(vec![source(1..=3), source(1..=9)], shard, Some(6));
        assert!(!sources[1].records.at_limit());
        let mine: Vec<(usize, u64)> = sources
            .iter_mut()
            .enumerate()
            .flat_map(|(i, s)| s.records.by_ref().map(move |r| (i, r.unwrap().line)))
            .collect();
        assert_eq!(mine, [(0, 1), (0, 3), (1, 2)]);
        // The limit, not the input, ended the second input: what follows
        // is not this run's (a resume keeps those rows).
        assert!(sources[1].records.at_limit());
        assert_eq!(numbered.load(Ordering::Relaxed), 6);
        // Every shard's records are counted: the inputs' records.
        let (sources, numbered) = select(vec![source(1..=3)], Shard::new(4, 4).unwrap(), None);
        assert!(kept(sources).is_empty());
        assert_eq!(numbered.load(Ordering::Relaxed), 3);
    }

    /// The lines of the records `fill` hands over, parsed, with at most
    /// `max` records per batch.
    fn filled(mut sources: Vec<Source>, max: usize) -> Vec<(usize, u64, bool)> {
        let mut scratch = crate::input::Scratch::default();
        let mut out = vec![];
        for (input, source) in sources.iter_mut().enumerate() {
            let mut more = true;
            while more {
                let mut batch = RecordBatch::new();
                batch.set_input(input);
                more = source.records.fill(&mut batch, max).unwrap();
                assert!(batch.len() <= max);
                // A fill that says more is to come filled the batch.
                assert!(!more || !batch.has_room(max), "{} of {max}", batch.len());
                for i in 0..batch.len() {
                    let (input, record) = batch.record(i, &mut scratch);
                    out.push((input, record.line, record.puzzle.is_ok()));
                }
            }
        }
        out
    }

    #[test]
    fn records_cut_raw_stay_raw_and_are_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let text = |n: u64| -> String {
            (1..=n)
                .map(|i| {
                    if i % 4 == 0 {
                        "not a puzzle\n".to_string()
                    } else {
                        format!("{}\n", std::str::from_utf8(PUZZLE).unwrap())
                    }
                })
                .collect()
        };
        let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
        std::fs::write(&a, text(23)).unwrap();
        std::fs::write(&b, text(9)).unwrap();
        let open = || -> Vec<Source> {
            [&a, &b]
                .iter()
                .map(|path| {
                    let input = crate::input::open(path.to_str().unwrap()).unwrap();
                    Source {
                        records: Box::new(input.records(&Default::default()).unwrap()),
                        bytes_read: None,
                    }
                })
                .collect()
        };
        let whole = filled(open(), 5);
        assert_eq!(whole.len(), 32);
        for (shard, limit) in [
            ("1/3", None),
            ("3/3", None),
            ("2/4", Some(25)),
            ("1/1", None),
        ] {
            let shard: Shard = shard.parse().unwrap();
            let end = limit.unwrap_or(u64::MAX) as usize;
            let expected: Vec<_> = whole
                .iter()
                .enumerate()
                .filter(|(i, _)| *i < end && shard.keeps(*i as u64))
                .map(|(_, r)| *r)
                .collect();
            for max in [1, 4, 100] {
                let got = filled(select(open(), shard, limit).0, max);
                assert_eq!(got, expected, "{shard} limit {limit:?} max {max}");
                let iterated = kept(select(open(), shard, limit).0);
                let lines: Vec<_> = expected.iter().map(|&(i, l, _)| (i, l)).collect();
                assert_eq!(iterated, lines);
            }
        }
    }

    #[test]
    fn a_batch_its_kept_values_fill_ends_the_fill_whatever_the_shard_drops() {
        // Records keeping a megabyte each: 17 fill a batch's bytes long
        // before its count. A fill went on asking the inner stream for
        // more, which had no room left to add any.
        let note = crate::kept::KeptValue::Text("n".repeat(1 << 20));
        let records = || -> Source {
            let records: Vec<Result<Record, InputError>> = (1..=40)
                .map(|line| {
                    let puzzle = Grid::parse(PUZZLE).unwrap();
                    Ok(Record {
                        kept: vec![note.clone()],
                        ..Record::new(line, Ok(puzzle), None)
                    })
                })
                .collect();
            Source::parsed(records.into_iter())
        };
        for shard in ["1/2", "2/2", "1/9"] {
            let shard: Shard = shard.parse().unwrap();
            let got = filled(select(vec![records()], shard, None).0, 2048);
            let lines: Vec<u64> = got.iter().map(|&(_, line, _)| line).collect();
            let expected: Vec<u64> = (1..=40).filter(|l| shard.keeps(l - 1)).collect();
            assert_eq!(lines, expected, "{shard}");
        }
    }

    #[test]
    fn read_errors_pass_through() {
        let records: Vec<Result<Record, InputError>> = vec![
            Ok(Record::new(1, Err("x".into()), None)),
            Err(InputError::Io {
                path: "bad.txt".into(),
                source: std::io::Error::other("disk on fire"),
            }),
        ];
        let source = Source::parsed(records.into_iter());
        let out: Vec<_> = select(vec![source], Shard::new(2, 2).unwrap(), None)
            .0
            .remove(0)
            .records
            .collect();
        assert_eq!(out.len(), 1);
        assert!(out[0].is_err());
    }
}
