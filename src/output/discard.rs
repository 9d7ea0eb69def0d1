//! Rows nobody will read: text results written to the null device
//! (`-o /dev/null`, the usual way to get only the summary, or to time a
//! run) are not formatted at all. Formatting a Kaggle row into bytes the
//! kernel then drops cost about 490 instructions of the ~4,500 a run spent
//! on it (callgrind, 100,000 rows, `-j 1`), 11 % of the run, for nothing
//! anyone can see: the tallies, summary and exit code come from the
//! results, not from the rows. GNU tar skips reading files it archives to
//! `/dev/null` for the same reason.

use std::fs::File;

use super::{PlainRows, RowFormat};
use crate::output::result::PuzzleResult;

/// A row format that writes nothing: for a text output on the null device
/// ([`is_null_device`]).
pub(crate) struct Discarded;

impl RowFormat for Discarded {
    fn row(&self, _result: &PuzzleResult, _out: &mut Vec<u8>) {}

    /// Takes every plain record's row (none), so that no result is made
    /// for it either.
    fn plain_rows(&self) -> Option<PlainRows<'_>> {
        Some(PlainRows::Discarded)
    }
}

/// Whether `file` is the null device: a character device with the device
/// number of `/dev/null`. False where that cannot be told (not Unix, no
/// `/dev/null`, metadata unreadable): the rows are then written.
#[cfg(unix)]
pub(crate) fn is_null_device(file: &File) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let (Ok(this), Ok(null)) = (file.metadata(), std::fs::metadata("/dev/null")) else {
        return false;
    };
    this.file_type().is_char_device()
        && null.file_type().is_char_device()
        && this.rdev() == null.rdev()
}

/// Whether `file` is the null device: never told apart here.
#[cfg(not(unix))]
pub(crate) fn is_null_device(_file: &File) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_null_device_is_told_from_a_plain_file() {
        let null = File::options().write(true).open("/dev/null").unwrap();
        assert!(is_null_device(&null));
        let dir = tempfile::tempdir().unwrap();
        let plain = File::create(dir.path().join("r.csv")).unwrap();
        assert!(!is_null_device(&plain));
    }
}
