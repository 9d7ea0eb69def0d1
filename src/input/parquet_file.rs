//! A Parquet input file as the `parquet` crate reads it ([`ChunkReader`]):
//! one shared handle, a page's header by a positioned read (`pread`), its
//! body by a seek and a read straight into a fresh buffer.
//!
//! The crate's own `ChunkReader for File` duplicates the handle, seeks and
//! closes the duplicate for every piece it reads, twice a page (the page's
//! header through an 8 KiB buffer, then its body): on a results file of a
//! million rows, 2,955 each of `fcntl`, `lseek` and `close` and 6,876
//! `read`s. Here a page's header is one small positioned read, its body
//! an `lseek` and a `read` (`read_exact_at` would need the buffer zeroed
//! first: 4 % more instructions reading a results file, in `memset`). The
//! file is not mapped: a file truncated while it is read would
//! kill the process (SIGBUS) instead of failing its read.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, Length};

/// Bytes read at a time for a page's header (a header is some tens of
/// bytes, a few hundred with statistics; the body is read apart).
const HEADER_BYTES: usize = 1024;

/// A Parquet file read by positioned reads; clones share the handle.
#[derive(Clone)]
pub(crate) struct ParquetFile {
    /// The handle, locked while its position is moved and read from.
    file: Arc<Mutex<File>>,
    /// The file's length when it was opened (the crate finds the footer
    /// from it).
    len: u64,
}

impl ParquetFile {
    /// Reads `file` by positioned reads.
    ///
    /// # Errors
    /// The file's length cannot be read.
    pub(crate) fn new(file: File) -> std::io::Result<ParquetFile> {
        let len = file.metadata()?.len();
        Ok(ParquetFile {
            file: Arc::new(Mutex::new(file)),
            len,
        })
    }
}

/// The handle of `file`, whoever panicked holding it (its position is set
/// again before every read from it).
fn handle(file: &Mutex<File>) -> MutexGuard<'_, File> {
    file.lock().unwrap_or_else(|e| e.into_inner())
}

impl Length for ParquetFile {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for ParquetFile {
    type T = BufReader<ReadAt>;

    fn get_read(&self, start: u64) -> Result<Self::T, ParquetError> {
        Ok(BufReader::with_capacity(
            HEADER_BYTES,
            ReadAt {
                file: Arc::clone(&self.file),
                offset: start,
            },
        ))
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes, ParquetError> {
        let mut buffer = Vec::with_capacity(length);
        let mut file = handle(&self.file);
        file.seek(SeekFrom::Start(start))?;
        (&*file).take(length as u64).read_to_end(&mut buffer)?;
        if buffer.len() != length {
            return Err(ParquetError::EOF(format!(
                "expected {length} bytes at offset {start}, the file ends before"
            )));
        }
        Ok(buffer.into())
    }
}

/// Reads a file on from `offset` by positioned reads (the handle's own
/// position is never used).
pub(crate) struct ReadAt {
    file: Arc<Mutex<File>>,
    offset: u64,
}

impl Read for ReadAt {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = handle(&self.file).read_at(buf, self.offset)?;
        self.offset += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn file(content: &[u8]) -> (tempfile::TempDir, ParquetFile) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        File::create(&path).unwrap().write_all(content).unwrap();
        let file = ParquetFile::new(File::open(&path).unwrap()).unwrap();
        (dir, file)
    }

    #[test]
    fn pieces_read_at_their_offsets_whatever_was_read_before() {
        let content: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        let (_dir, file) = file(&content);
        assert_eq!(file.len(), 5000);
        assert_eq!(file.get_bytes(4000, 1000).unwrap(), &content[4000..]);
        assert_eq!(file.get_bytes(10, 3).unwrap(), &content[10..13]);
        let mut read = Vec::new();
        file.get_read(1500).unwrap().read_to_end(&mut read).unwrap();
        assert_eq!(read, &content[1500..]);
        let mut first = [0; 2];
        let mut reader = file.clone().get_read(7).unwrap();
        reader.read_exact(&mut first).unwrap();
        assert_eq!(first, content[7..9]);
        assert_eq!(file.get_bytes(0, 0).unwrap().len(), 0);
    }

    #[test]
    fn a_piece_past_the_end_is_an_error() {
        let (_dir, file) = file(b"PAR1");
        let e = file.get_bytes(2, 3).unwrap_err();
        assert!(matches!(e, ParquetError::EOF(_)), "{e}");
        assert!(e.to_string().contains("offset 2"), "{e}");
    }
}
