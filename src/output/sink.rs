//! Where a table's bytes go ([`Sink`]): stdout, a plain file, or a gzip-
//! or zstd-compressed file; rows written in pieces, and the whole rows
//! that a write cut short left.

use std::fs::File;
use std::io::{self, IoSlice, Write};

use flate2::write::GzEncoder;

use crate::output::destination::Destination;
use crate::output::format::Compression;
use crate::output::replace;

/// The gzip level of every gzip output: on results rows 2.7 times as fast
/// as the default level 6 for output 5 % larger (level 1 is faster again,
/// but half as large again).
pub(crate) const LEVEL: u32 = 2;

/// Where a table's bytes go: stdout, a plain file, or a gzip- or
/// zstd-compressed file. Shared by every writer of rows (results, data-set
/// tables, merge).
pub(crate) enum Sink {
    /// Standard output.
    Stdout(io::Stdout),
    /// A plain file.
    File(File),
    /// A file written gzip-compressed; [`Sink::finish`] ends the stream.
    Gzip(Box<GzEncoder<File>>),
    /// A file written zstd-compressed; [`Sink::finish`] ends the frame.
    Zstd(zstd::stream::write::Encoder<'static, File>),
}

impl Sink {
    /// Opens `destination`: stdout, or the file created (or replaced),
    /// compressed as its name says.
    ///
    /// # Errors
    /// The file cannot be created.
    pub(crate) fn create(destination: &Destination) -> io::Result<Sink> {
        match destination {
            Destination::Stdout => Ok(Sink::Stdout(io::stdout())),
            Destination::File { path, compression } => {
                Sink::to_file(replace::create(path)?, *compression)
            }
        }
    }

    /// Writes to `file`, compressed by `compression`.
    ///
    /// # Errors
    /// The zstd encoder cannot start.
    pub(crate) fn to_file(file: File, compression: Compression) -> io::Result<Sink> {
        Ok(match compression {
            Compression::None => Sink::File(file),
            Compression::Gzip => Sink::Gzip(Box::new(GzEncoder::new(
                file,
                flate2::Compression::new(LEVEL),
            ))),
            // Level 1: on results rows (digit strings) three times as fast
            // as the default level 3 and no larger, so the writer keeps up
            // with the solvers.
            Compression::Zstd => Sink::Zstd(zstd::stream::write::Encoder::new(file, 1)?),
        })
    }

    /// Flushes everything and ends the compressed stream.
    ///
    /// # Errors
    /// The bytes cannot be written.
    pub(crate) fn finish(self) -> io::Result<()> {
        match self {
            Sink::Stdout(mut w) => w.flush(),
            Sink::File(mut w) => w.flush(),
            Sink::Gzip(w) => (*w).finish().and_then(|mut f| f.flush()),
            Sink::Zstd(w) => w.finish().and_then(|mut f| f.flush()),
        }
    }

    /// The regular file the bytes go to; `None` for stdout and devices,
    /// which hold nothing a failure could leave cut short.
    pub(crate) fn regular_file(&self) -> Option<&File> {
        let file = match self {
            Sink::File(file) => file,
            Sink::Gzip(encoder) => encoder.get_ref(),
            Sink::Zstd(encoder) => encoder.get_ref(),
            Sink::Stdout(_) => return None,
        };
        file.metadata()
            .is_ok_and(|meta| meta.is_file())
            .then_some(file)
    }

    /// True when the bytes are compressed on their way.
    #[cfg(feature = "cli")]
    pub(crate) fn compressed(&self) -> bool {
        matches!(self, Sink::Gzip(_) | Sink::Zstd(_))
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::File(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
            Sink::Zstd(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::File(w) => w.flush(),
            Sink::Gzip(w) => w.flush(),
            Sink::Zstd(w) => w.flush(),
        }
    }
}

/// The [`io::Error`] behind a failed CSV write, so that a closed stdout
/// stays [`io::ErrorKind::BrokenPipe`] (which ends a run quietly, exit 0:
/// [`Error::BrokenPipe`](crate::error::Error::BrokenPipe)) instead of an error that wraps it.
#[cfg(feature = "cli")]
pub(crate) fn csv_write_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(io) => io,
        // Rows are written as plain strings and bytes: only the writing
        // itself can fail.
        kind => io::Error::other(format!("{kind:?}")),
    }
}

/// Writes every byte of `pieces`, in order, in as few system calls as
/// the file takes (`writev`).
///
/// # Errors
/// The cause, and how many bytes of `pieces` were written before it.
pub(crate) fn write_all_vectored(
    file: &mut File,
    pieces: &[&[u8]],
) -> Result<(), (io::Error, usize)> {
    let mut slices: Vec<IoSlice<'_>> = pieces
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| IoSlice::new(p))
        .collect();
    let mut slices = &mut slices[..];
    let mut written = 0;
    while !slices.is_empty() {
        match file.write_vectored(slices) {
            Ok(0) => return Err((io::ErrorKind::WriteZero.into(), written)),
            Ok(n) => {
                written += n;
                IoSlice::advance_slices(&mut slices, n);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err((e, written)),
        }
    }
    Ok(())
}

/// The whole rows in the first `reached` bytes of `pieces` (rows in
/// order, each ending in a line end; in `csv`, a line end in quotes is
/// inside a field), and whether a row cut short follows them.
pub(crate) fn whole_rows(pieces: &[&[u8]], reached: usize, csv: bool) -> (u64, bool) {
    let (mut rows, mut quoted, mut last) = (0, false, b'\n');
    for &b in pieces.iter().flat_map(|p| p.iter()).take(reached) {
        match b {
            b'"' if csv => quoted = !quoted,
            b'\n' if !quoted => rows += 1,
            _ => {}
        }
        last = b;
    }
    (rows, last != b'\n' || quoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_rows_of_a_write_cut_short_are_counted_past_quoted_line_ends() {
        let pieces: [&[u8]; 2] = [b"1,a\n2,\"b\nc\"\n", b"3,d\n4,e"];
        let total = pieces.iter().map(|p| p.len()).sum();
        assert_eq!(whole_rows(&pieces, total, true), (3, true));
        assert_eq!(whole_rows(&pieces, 16, true), (3, false));
        assert_eq!(whole_rows(&pieces, 15, true), (2, true));
        assert_eq!(whole_rows(&pieces, 12, true), (2, false));
        // A line end in quotes ends no row.
        assert_eq!(whole_rows(&pieces, 9, true), (1, true));
        assert_eq!(whole_rows(&pieces, 4, true), (1, false));
        assert_eq!(whole_rows(&pieces, 0, true), (0, false));
        // JSON Lines never holds a line end in a value; its quotes are
        // escaped inside strings.
        let jsonl: [&[u8]; 1] = [b"{\"m\":\"a\\\"\"}\n{\"m\":"];
        assert_eq!(whole_rows(&jsonl, jsonl[0].len(), false), (1, true));
    }
}
