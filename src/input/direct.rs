//! Reading a large regular file past the page cache: `O_DIRECT` reads on a
//! thread of their own, a few blocks ahead of the reader.
//!
//! Why: a read through the page cache is a copy of every byte by the
//! kernel, on the process's own cores. On a 2-core VM, reading a 164 MB
//! CSV of a million puzzles so took 55-60 ms of CPU at any block size, a
//! tenth of the whole run's CPU, and as much again when the run wrote its
//! results at the same time (the copies compete for memory). A direct read
//! is filled by the device (DMA, or the hypervisor's I/O thread), and the
//! reader takes the bytes from a block that is still in the CPU's cache.
//!
//! A direct read pays only while the device keeps ahead of the reader: a
//! file already in the page cache on a slow disk reads faster through it.
//! So reading goes on through the page cache, from the next byte, for good,
//! once the reader has had to wait for a block [`Sizes::stalls`] times, or
//! when the file system refuses `O_DIRECT` or a direct read fails (a file
//! whose length is no multiple of the device's block ends so: its last
//! bytes are read through the page cache). The first [`Sizes::head`] bytes
//! are read through the page cache too (the sniffing and the look-ahead at
//! the first records, all that a Parquet file's magic number takes), and a
//! file under [`Sizes::min_file`] bytes never starts the thread.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TryRecvError};
use std::sync::Arc;
use std::thread;

/// Alignment of a direct read's buffer, file offset and length: a page,
/// which is a multiple of every block device's logical block.
const ALIGN: usize = 4096;

/// When and how much a [`DirectReader`] reads directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Bytes read through the page cache first; a multiple of 4,096.
    pub head: u64,
    /// Bytes of one direct read; a multiple of 4,096.
    pub block: usize,
    /// Blocks read ahead at most (the memory taken is this many blocks).
    pub blocks: usize,
    /// The smallest file read directly, in bytes.
    pub min_file: u64,
    /// Waits for a block after which reading goes back to the page cache.
    pub stalls: u32,
}

impl Sizes {
    /// Direct reads of 4 MiB, three ahead (12 MiB), of files of 32 MiB or
    /// more, after their first 4 MiB. On the 2-core VM above, the device
    /// gave 1.3-1.6 GB/s in reads of 4 MiB and 0.7-1.2 GB/s in reads of
    /// 1 MiB; the solver takes about 0.8 GB/s of easy puzzles.
    pub const DEFAULT: Sizes = Sizes {
        head: 4 << 20,
        block: 4 << 20,
        blocks: 3,
        min_file: 32 << 20,
        stalls: 3,
    };
}

/// A regular file read in order, the bytes after its head read directly
/// when it is large (see the module docs). Each `read` returns the next
/// bytes of the file, as a `File` would.
pub struct DirectReader {
    /// The file as opened (through the page cache), read with `pread`.
    file: File,
    path: PathBuf,
    /// Offset in the file of the next byte to return.
    offset: u64,
    sizes: Sizes,
    /// Where direct reading starts, while it is still to start.
    direct_from: Option<u64>,
    ahead: Option<Ahead>,
    /// Bytes returned from direct reads, for tests.
    direct_bytes: u64,
}

/// The thread's blocks, and the one being taken from.
struct Ahead {
    filled: Receiver<Block>,
    free: SyncSender<Vec<u8>>,
    current: Option<Block>,
    stop: Arc<AtomicBool>,
    stalls: u32,
}

/// A block of the file: its bytes are `bytes[start..end]`.
struct Block {
    bytes: Vec<u8>,
    start: usize,
    end: usize,
}

impl DirectReader {
    /// Reads `file`, opened from `path`, `size` bytes long. Direct reading
    /// opens the same file again with `O_DIRECT` ([`open_direct`]).
    pub fn new(file: File, path: &Path, size: u64, sizes: Sizes) -> DirectReader {
        DirectReader {
            file,
            path: path.to_path_buf(),
            offset: 0,
            sizes,
            direct_from: (size >= sizes.min_file).then_some(sizes.head),
            ahead: None,
            direct_bytes: 0,
        }
    }

    /// Bytes returned so far from direct reads.
    #[cfg(test)]
    pub fn direct_bytes(&self) -> u64 {
        self.direct_bytes
    }

    /// Starts the thread that reads from `offset` on, if the file opens
    /// for direct reads and a thread starts; reading stays with the page
    /// cache otherwise.
    fn start(&mut self) {
        self.direct_from = None;
        let Ok(file) = open_direct(&self.file, &self.path) else {
            return;
        };
        let sizes = self.sizes;
        let (free, empty) = sync_channel::<Vec<u8>>(sizes.blocks);
        let (to_reader, filled) = sync_channel::<Block>(sizes.blocks);
        for _ in 0..sizes.blocks {
            // Room to align the block's start wherever the allocator put it.
            if free.send(vec![0; sizes.block + ALIGN]).is_err() {
                return;
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let offset = self.offset;
        let stopped = Arc::clone(&stop);
        let started = thread::Builder::new()
            .name("read-ahead".into())
            .spawn(move || read_ahead(&file, offset, sizes.block, &empty, &to_reader, &stopped));
        if started.is_ok() {
            self.ahead = Some(Ahead {
                filled,
                free,
                current: None,
                stop,
                stalls: 0,
            });
        }
    }
}

/// Opens the file that `file` is open on again, for direct reads: through
/// `/proc/self/fd`, else by `path`; either way only if it is still the same
/// file (device and inode). A name is not enough: a file renamed over
/// `path` while it is read (an atomic update), or a symlink switched, would
/// splice another file's bytes into the input.
#[cfg(target_os = "linux")]
fn open_direct(file: &File, path: &Path) -> io::Result<File> {
    use std::os::fd::AsRawFd;
    let by_fd = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    same_file_direct(file, &by_fd).or_else(|_| same_file_direct(file, path))
}

/// Opens `path` with `O_DIRECT` if it names the file `file` is open on.
#[cfg(target_os = "linux")]
fn same_file_direct(file: &File, path: &Path) -> io::Result<File> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let direct = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECT)
        .open(path)?;
    let (was, now) = (file.metadata()?, direct.metadata()?);
    if (was.dev(), was.ino()) == (now.dev(), now.ino()) {
        Ok(direct)
    } else {
        Err(io::Error::other("another file by that name now"))
    }
}

/// Direct reads are taken only where they are known to pay (Linux).
#[cfg(not(target_os = "linux"))]
fn open_direct(_file: &File, _path: &Path) -> io::Result<File> {
    Err(io::ErrorKind::Unsupported.into())
}

/// The read-ahead thread: fills the free blocks from `offset` on, in
/// order, until the end of the file, a failed read, `stop`, or the reader
/// gone. A read that ends short of a block leaves the offset unaligned, so
/// the block is the last one either way.
fn read_ahead(
    file: &File,
    mut offset: u64,
    block: usize,
    empty: &Receiver<Vec<u8>>,
    filled: &SyncSender<Block>,
    stop: &AtomicBool,
) {
    while let Ok(mut bytes) = empty.recv() {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let start = (ALIGN - bytes.as_ptr().addr() % ALIGN) % ALIGN;
        let mut end = start;
        let last = loop {
            match file.read_at(&mut bytes[end..start + block], offset) {
                Ok(0) => break true,
                Ok(n) => {
                    end += n;
                    offset += n as u64;
                    if end == start + block {
                        break false;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break true,
            }
        };
        if (end > start && filled.send(Block { bytes, start, end }).is_err()) || last {
            return;
        }
    }
}

impl Ahead {
    /// The next block, `None` when reading should go on through the page
    /// cache: the thread ended (end of file, a failed read) or the reader
    /// waited too often.
    fn next_block(&mut self, stalls: u32) -> Option<Block> {
        if let Some(used) = self.current.take() {
            // The thread may be gone; the block is then dropped.
            let _ = self.free.send(used.bytes);
        }
        match self.filled.try_recv() {
            Ok(block) => Some(block),
            Err(TryRecvError::Disconnected) => None,
            Err(TryRecvError::Empty) => {
                self.stalls += 1;
                if self.stalls > stalls {
                    self.stop.store(true, Ordering::Relaxed);
                    return None;
                }
                self.filled.recv().ok()
            }
        }
    }
}

impl Read for DirectReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(ahead) = &mut self.ahead {
                if let Some(block) = &mut ahead.current {
                    if block.start < block.end {
                        let n = out.len().min(block.end - block.start);
                        out[..n].copy_from_slice(&block.bytes[block.start..block.start + n]);
                        block.start += n;
                        self.offset += n as u64;
                        self.direct_bytes += n as u64;
                        return Ok(n);
                    }
                }
                match ahead.next_block(self.sizes.stalls) {
                    Some(block) => ahead.current = Some(block),
                    // Dropping the blocks and channels ends the thread.
                    None => self.ahead = None,
                }
                continue;
            }
            let mut len = out.len();
            if let Some(from) = self.direct_from {
                if self.offset >= from {
                    self.start();
                    continue;
                }
                len = len.min(usize::try_from(from - self.offset).unwrap_or(usize::MAX));
            }
            let n = self.file.read_at(&mut out[..len], self.offset)?;
            self.offset += n as u64;
            return Ok(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that differ from block to block, so that a block out of place
    /// or twice shows.
    fn content(len: usize) -> Vec<u8> {
        let mut x = 0x9E37_79B9_u32;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x.to_le_bytes()[0]
            })
            .collect()
    }

    /// Reads `path` whole through a `DirectReader` in reads of `step`
    /// bytes; also the bytes read directly.
    fn read_all(path: &Path, sizes: Sizes, step: usize) -> (Vec<u8>, u64) {
        let file = File::open(path).unwrap();
        let size = file.metadata().unwrap().len();
        let mut reader = DirectReader::new(file, path, size, sizes);
        let mut all = Vec::new();
        let mut buf = vec![0; step];
        loop {
            let n = reader.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        (all, reader.direct_bytes())
    }

    const SMALL: Sizes = Sizes {
        head: 8192,
        block: 16384,
        blocks: 2,
        min_file: 20_000,
        stalls: u32::MAX,
    };

    /// Whether this file system takes direct reads (tmpfs, for one, may not).
    fn takes_direct(path: &Path) -> bool {
        let file = File::open(path).unwrap();
        open_direct(&file, path).is_ok_and(|f| {
            let mut buf = vec![0u8; 2 * ALIGN];
            let start = (ALIGN - buf.as_ptr().addr() % ALIGN) % ALIGN;
            f.read_at(&mut buf[start..start + ALIGN], 0).is_ok()
        })
    }

    #[test]
    fn a_large_file_reads_whole_and_in_order_at_any_step() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        // Not a multiple of the device's block: the tail ends direct reads.
        let data = content(100_000 + 333);
        std::fs::write(&path, &data).unwrap();
        for step in [1, 1000, 4096, 16384, 65536, 200_000] {
            let (read, direct) = read_all(&path, SMALL, step);
            assert!(read == data, "step {step}: {} bytes read", read.len());
            if takes_direct(&path) {
                assert!(direct > 0, "step {step}: nothing read directly");
                assert!(
                    direct <= data.len() as u64 - SMALL.head,
                    "step {step}: {direct}"
                );
            }
        }
    }

    #[test]
    fn a_file_under_the_least_size_is_never_read_directly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("small");
        let data = content(19_999);
        std::fs::write(&path, &data).unwrap();
        let (read, direct) = read_all(&path, SMALL, 4096);
        assert_eq!(read, data);
        assert_eq!(direct, 0);
    }

    #[test]
    fn a_reader_that_waits_goes_on_through_the_page_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        let data = content(300_000);
        std::fs::write(&path, &data).unwrap();
        // No wait allowed: the first block not ready ends direct reads,
        // from whichever byte that is.
        for stalls in [0, 1] {
            let sizes = Sizes { stalls, ..SMALL };
            let (read, _) = read_all(&path, sizes, 5000);
            assert!(read == data, "stalls {stalls}: {} bytes read", read.len());
        }
    }

    #[test]
    fn a_file_renamed_over_the_input_while_it_is_read_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input");
        let data = content(100_000);
        std::fs::write(&path, &data).unwrap();
        let file = File::open(&path).unwrap();
        let mut reader = DirectReader::new(file, &path, data.len() as u64, SMALL);
        let mut all = vec![0; 1000];
        reader.read_exact(&mut all).unwrap();
        // The usual atomic update of a file, before direct reads start.
        let newer = dir.path().join("newer");
        std::fs::write(&newer, vec![b'x'; data.len()]).unwrap();
        std::fs::rename(&newer, &path).unwrap();
        reader.read_to_end(&mut all).unwrap();
        assert!(all == data, "{} bytes, not the file opened", all.len());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn another_file_by_the_name_is_not_opened_for_direct_reads() {
        let dir = tempfile::tempdir().unwrap();
        let (one, other) = (dir.path().join("one"), dir.path().join("other"));
        std::fs::write(&one, content(8192)).unwrap();
        std::fs::write(&other, content(8192)).unwrap();
        let file = File::open(&one).unwrap();
        assert!(same_file_direct(&file, &other).is_err());
        if takes_direct(&one) {
            assert!(same_file_direct(&file, &one).is_ok());
        }
    }

    #[test]
    fn an_exact_number_of_blocks_ends_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("exact");
        let data = content(8192 + 4 * 16384);
        std::fs::write(&path, &data).unwrap();
        let (read, direct) = read_all(&path, SMALL, 65536);
        assert_eq!(read, data);
        if takes_direct(&path) {
            assert_eq!(direct, 4 * 16384);
        }
    }
}
