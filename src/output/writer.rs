//! The results writer ([`ResultsWriter`]): a text format's rows as bytes,
//! or Parquet's row groups, to a [`Destination`]; `--resume`'s continued
//! files; and what a failed write left in the file.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::Error;
use crate::output::claim::{self, Claim};
use crate::output::csv::CsvRows;
use crate::output::destination::Destination;
use crate::output::discard::{is_null_device, Discarded};
use crate::output::format::{Compression, OutputFormat, ParquetCompression};
use crate::output::jsonl::JsonlRows;
use crate::output::members::GzipMembers;
use crate::output::parquet::{self, Columns, ParquetRows, Salvaged};
use crate::output::result::PuzzleResult;
use crate::output::shape::Shape;
use crate::output::sink::{whole_rows, write_all_vectored, Sink};
use crate::output::stats::Tally;
use crate::output::{replace, resumed, RowFormat};
use crate::process::words;

/// What a [`ResultsWriter`] writes through.
enum Body {
    /// A text format: rows formatted and sealed by `rows` (on the workers
    /// or here) and written as bytes.
    Text {
        sink: Sink,
        rows: Arc<dyn RowFormat>,
        /// A buffer for rows formatted here.
        text: Vec<u8>,
        /// Nothing written yet: an empty table still gets `rows`' seal of
        /// nothing (an empty gzip member), so that it is a valid file.
        empty: bool,
    },
    /// Parquet: typed columns built by its [`RowFormat::columns`] (on the
    /// workers) or here, written in row groups (boxed: the writer is
    /// large).
    Parquet(Box<ParquetRows>),
}

/// Writes results rows to a [`Destination`] in an [`OutputFormat`].
pub struct ResultsWriter {
    body: Body,
    destination: Destination,
    /// Stdout was closed before the header could be written: every write
    /// is [`Error::BrokenPipe`], so the caller decides at its first row
    /// whether to stop or go on without writing (`check`).
    closed: bool,
    /// `--resume`: the length the file is cut to (dropping a row cut
    /// short) before the first row is appended, so that a run refused
    /// before it appends anything leaves the file as it was.
    cut_at: Option<u64>,
    /// A failed write to a plain text file: the rows of it that reached
    /// the file whole, and whether a row cut short follows them.
    cut_rows: Option<(u64, bool)>,
    /// The rows are CSV (a line end in quotes is inside a field).
    csv: bool,
    /// `--resume` of Parquet: the file written under a temporary name,
    /// renamed over the file it continues when the writer ends.
    staged: Option<Staged>,
    /// A results file that replaces an existing one, written under a
    /// temporary name until its first row ([`ResultsWriter::publish`]).
    fresh: Option<Fresh>,
    /// The results file this writer writes, checked at its end to be
    /// still where its name leads ([`Claim::check`]); `None` for stdout,
    /// devices, and a continued Parquet file (renamed into place at the
    /// end).
    claim: Option<Claim>,
}

/// The tag of a results file's temporary name (`.NAME.results-PID.partial`).
const TAG: &str = "results";

/// A results file written under a temporary name beside the file it is
/// for, so that a run refused before its first row (an unclear puzzle
/// column found on the records read ahead, an unreadable input) leaves
/// that file as it was, or leaves none where there was none: renamed over
/// it at the first row, or when the run ends; removed when dropped before
/// that. Where no file can be created beside an existing one (a directory
/// the user cannot write), a text table is written to an unnamed file
/// elsewhere until then ([`Fresh::elsewhere`]); where the rename is
/// refused though the file may be written (a sticky directory, a mount
/// point), the table is written into it in place then
/// ([`replace::in_place_after`]).
struct Fresh {
    /// Where the table is written until it is published.
    place: Place,
    /// The writer's descriptors of the file the table is written to until
    /// it is published: its sink's, and Parquet's second handle for salvage
    /// ([`ParquetRows::spare_descriptor`]); each made a duplicate of the
    /// target's when the table goes on in the target itself (a table
    /// written elsewhere, or one whose rename was refused), so that the
    /// writer goes on there.
    #[cfg(unix)]
    sinks: Vec<std::os::fd::RawFd>,
    /// The file it replaces (where a symbolic link leads), or creates.
    target: PathBuf,
    /// The target was there when the run started.
    existed: bool,
    published: bool,
    /// The claim of the target, written in place when the rename over it
    /// was refused: the run's rows are there, not in its temporary file.
    in_place: Option<Claim>,
}

/// Where a [`Fresh`] table is written until it is published.
enum Place {
    /// A temporary file beside the target, renamed over it.
    Beside(PathBuf),
    /// An unnamed file in the temporary directory, copied into the target
    /// (cut then, not before) at the first row.
    #[cfg(unix)]
    Elsewhere(Elsewhere),
}

/// The target of a [`Place::Elsewhere`] table, and the unnamed file the
/// table is written to until then.
#[cfg(unix)]
struct Elsewhere {
    /// The target, opened for writing (not cut) when the run started.
    target: File,
    /// A second handle on the unnamed file, to read what was written.
    written: File,
}

#[cfg(unix)]
impl Elsewhere {
    /// Cuts the target and copies into it what was written so far, the
    /// target's offset left at the copy's end.
    fn publish(&self) -> io::Result<()> {
        let end = replace::copy_over(&self.written, &self.target)?;
        (&self.target).seek(SeekFrom::Start(end))?;
        Ok(())
    }
}

/// Points each of the writer's descriptors `sinks` at `target` (made a
/// duplicate of its descriptor), so that the writer goes on in `target`
/// from its offset. Nothing may write to them meanwhile: a text table is
/// written on this thread, and Parquet's file thread has written nothing
/// before the first row group (its start waits in a buffer).
#[cfg(unix)]
fn point_at(target: &File, sinks: &[std::os::fd::RawFd]) -> io::Result<()> {
    use std::os::fd::AsRawFd;

    let target = target.as_raw_fd();
    for &sink in sinks {
        // SAFETY: `sink` is an open descriptor of the writer's (the
        // caller says so), made a duplicate of the target's open
        // descriptor in one step; it stays closed on exec, as std
        // opens it.
        #[cfg(target_os = "linux")]
        let made = unsafe { libc::dup3(target, sink, libc::O_CLOEXEC) };
        #[cfg(not(target_os = "linux"))]
        let made = unsafe {
            match libc::dup2(target, sink) {
                -1 => -1,
                _ => libc::fcntl(sink, libc::F_SETFD, libc::FD_CLOEXEC),
            }
        };
        if made == -1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

impl Fresh {
    /// The temporary file beside `path`, a regular file of one link or no
    /// file yet, with the existing file's permissions (a new file's
    /// otherwise), locked while it is open so that no other run takes it
    /// for a leftover ([`ResultsWriter::leftovers`]); `None` when `path`
    /// is anything else or no temporary file can be created beside it (no
    /// such directory, a directory the user cannot write, a name too long
    /// for the temporary name, a temporary file of the same name that
    /// another run holds): see [`Fresh::elsewhere`], else the file is
    /// created or replaced at once ([`replace::create`]).
    fn beside(path: &Path) -> Option<(Fresh, File)> {
        let (temporary, target) = replace::staged(path, TAG)?;
        let old = std::fs::metadata(&target).ok();
        // One left by a run of the same process id that died is written
        // over; one a live run holds (in this process) is not.
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&temporary)
            .ok()?;
        if let Err(std::fs::TryLockError::WouldBlock) = file.try_lock() {
            return None;
        }
        // Only a leftover is cut: on ext4, cutting a file to nothing (even
        // an empty one) makes its close write back everything written
        // since (auto_da_alloc, for files rewritten in place), and the
        // close then waited for the whole table (87 ms for 188 MB).
        let leftover = file.metadata().is_ok_and(|meta| meta.len() > 0);
        if leftover && file.set_len(0).is_err() {
            drop(file);
            let _ = std::fs::remove_file(&temporary);
            return None;
        }
        if let Some(old) = &old {
            let _ = file.set_permissions(old.permissions());
        }
        let fresh = Fresh {
            place: Place::Beside(temporary),
            #[cfg(unix)]
            sinks: vec![std::os::fd::AsRawFd::as_raw_fd(&file)],
            target,
            existed: old.is_some(),
            published: false,
            in_place: None,
        };
        Some((fresh, file))
    }

    /// When [`Fresh::beside`] cannot be had: the existing
    /// regular file `path` of one link opened for writing but not cut, and
    /// an unnamed file in the temporary directory that takes the table
    /// until its first row, when the file is cut and the table copied into
    /// it ([`Elsewhere::publish`]). `None` when there is no such file, it
    /// cannot be opened for writing, or no unnamed file can be made.
    #[cfg(unix)]
    fn elsewhere(path: &Path) -> Option<(Fresh, File)> {
        use std::os::fd::AsRawFd;

        let (_, target) = replace::staged(path, TAG)?;
        if !std::fs::metadata(&target).ok()?.is_file() {
            return None;
        }
        let kept = OpenOptions::new().write(true).open(&target).ok()?;
        // Locked, as a temporary file beside it would be: other runs keep
        // off a file this one writes (`claim::refuse_if_written`).
        resumed::lock(&kept);
        let file = tempfile::tempfile().ok()?;
        let elsewhere = Elsewhere {
            target: kept,
            written: file.try_clone().ok()?,
        };
        let fresh = Fresh {
            place: Place::Elsewhere(elsewhere),
            sinks: vec![file.as_raw_fd()],
            target,
            existed: true,
            published: false,
            in_place: None,
        };
        Some((fresh, file))
    }

    /// The claim of the run writing this table to `file` (see
    /// [`Fresh::beside`], [`Fresh::elsewhere`]): the file that becomes the
    /// target, which is `file` beside it, or the target itself elsewhere.
    fn claim(&self, file: &File) -> Option<Claim> {
        match &self.place {
            Place::Beside(_) => Claim::of(&self.target, file),
            #[cfg(unix)]
            Place::Elsewhere(elsewhere) => Claim::of(&self.target, &elsewhere.target),
        }
    }

    /// What became of the target when the run failed before its first row.
    fn left(&self) -> String {
        match self.existed {
            true => format!("{} is left as it was", self.target.display()),
            false => format!("{} is not created", self.target.display()),
        }
    }

    /// Renames the temporary file over the one it replaces (or to the name
    /// of the one it creates); the old file's pages are freed on a
    /// short-lived thread beside the run, as [`replace::create`] frees them.
    /// A table written elsewhere is copied into its target instead, as is
    /// one whose rename is refused though the target may be written (a
    /// sticky directory, a mount point: [`replace::in_place_after`]), and
    /// the writer's sink pointed at the target while it is open
    /// (`sink_open`: at the first row, not once the writer has ended).
    fn publish(&mut self, sink_open: bool) -> io::Result<()> {
        if self.published {
            return Ok(());
        }
        match &self.place {
            Place::Beside(temporary) => {
                let old = File::open(&self.target).ok();
                match std::fs::rename(temporary, &self.target) {
                    Ok(()) => {
                        if let Some(old) = old {
                            let _ = std::thread::Builder::new()
                                .name("old-output".into())
                                .spawn(move || drop(old));
                        }
                    }
                    #[cfg(unix)]
                    Err(renamed) if replace::in_place_after(&renamed) => {
                        let target = replace::write_in_place(temporary, &self.target, renamed)?;
                        // Locked and claimed as the temporary file was.
                        resumed::lock(&target);
                        self.in_place = Claim::of(&self.target, &target);
                        if sink_open {
                            point_at(&target, &self.sinks)?;
                        }
                    }
                    Err(renamed) => return Err(renamed),
                }
            }
            #[cfg(unix)]
            Place::Elsewhere(elsewhere) => {
                elsewhere.publish()?;
                if sink_open {
                    point_at(&elsewhere.target, &self.sinks)?;
                }
            }
        }
        self.published = true;
        Ok(())
    }
}

impl Drop for Fresh {
    fn drop(&mut self) {
        // A table written elsewhere goes with its unnamed file.
        if let (false, Place::Beside(temporary)) = (self.published, &self.place) {
            let _ = std::fs::remove_file(temporary);
        }
    }
}

/// A Parquet results file continued under a temporary name
/// ([`ResultsWriter::continue_parquet`]).
struct Staged {
    temporary: PathBuf,
    /// The file it continues, and replaces when it ends.
    target: PathBuf,
    /// The rows of that file: a temporary file that holds fewer (a write
    /// that failed while they were copied) never replaces it.
    kept_rows: u64,
}

impl Staged {
    /// Puts the temporary file in the place of the one it continues: renamed
    /// over it, or copied into it where the rename is refused though the
    /// file may be written ([`replace::in_place_after`]).
    fn rename(&self) -> io::Result<()> {
        match std::fs::rename(&self.temporary, &self.target) {
            #[cfg(unix)]
            Err(renamed) if replace::in_place_after(&renamed) => {
                replace::write_in_place(&self.temporary, &self.target, renamed).map(drop)
            }
            renamed => renamed,
        }
    }

    /// Removes the temporary file, leaving the one it continues as it was;
    /// says so, for a message.
    fn remove(&self) -> String {
        let _ = std::fs::remove_file(&self.temporary);
        format!(
            "{} is left as it was, with its {}",
            self.target.display(),
            words::count(self.kept_rows, "row", "rows")
        )
    }
}

impl ResultsWriter {
    /// Creates (or replaces) the destination and starts the table: the
    /// header line of CSV, the magic bytes of Parquet. The rows have the
    /// columns of `shape`; CSV fields are separated by `delimiter`, Parquet
    /// pages compressed as `parquet` says. A file (an existing regular file
    /// of one link, or one not there yet) is created or replaced only at
    /// the first row ([`ResultsWriter::publish`]) or when the writer ends:
    /// until then the table is written beside it under a temporary name
    /// (`.NAME.results-PID.partial`), removed when the run fails first
    /// ([`ResultsWriter::finish_after`]), so that a run refused on its
    /// inputs leaves no file where there was none.
    ///
    /// # Errors
    /// [`Error::Write`] when the file cannot be created or written,
    /// [`Error::BrokenPipe`] when stdout is closed.
    pub fn create(
        destination: &Destination,
        format: OutputFormat,
        shape: &Shape,
        delimiter: u8,
        parquet: ParquetCompression,
    ) -> Result<ResultsWriter, Error> {
        // gzip text is compressed in members on the workers
        // (`RowFormat::seal`) and written to the file as it is.
        let compression = match destination {
            Destination::File { compression, .. } => *compression,
            Destination::Stdout => Compression::None,
        };
        let members = format != OutputFormat::Parquet && compression == Compression::Gzip;
        let (mut fresh, file) = match destination {
            Destination::File { path, .. } => match Fresh::beside(path) {
                Some((fresh, file)) => (Some(fresh), Some(file)),
                #[cfg(unix)]
                None => match Fresh::elsewhere(path) {
                    Some((fresh, file)) => (Some(fresh), Some(file)),
                    None => (None, None),
                },
                #[cfg(not(unix))]
                None => (None, None),
            },
            Destination::Stdout => (None, None),
        };
        let claim = fresh.as_ref().zip(file.as_ref());
        let claim = claim.and_then(|(fresh, file)| fresh.claim(file));
        let sink = match (destination, file) {
            (_, Some(file)) if members => Ok(Sink::File(file)),
            (_, Some(file)) => Sink::to_file(file, compression),
            (Destination::File { path, .. }, None) if members => {
                replace::create(path).map(Sink::File)
            }
            _ => Sink::create(destination),
        }
        .map_err(|e| Error::write("results", destination.name(), e))?;
        let claim = match fresh {
            Some(_) => claim,
            None => in_place(destination, &sink),
        };
        let (rows, header): (Arc<dyn RowFormat>, Vec<u8>) = match format {
            OutputFormat::Csv => {
                let rows = CsvRows::new(shape, delimiter);
                let mut header = Vec::new();
                rows.header(&mut header);
                (Arc::new(rows), header)
            }
            OutputFormat::Jsonl => (Arc::new(JsonlRows::new(shape)), Vec::new()),
            // Parquet's magic bytes are buffered: nothing can fail here
            // for a closed stdout, which the first row group finds.
            OutputFormat::Parquet => {
                let rows = ParquetRows::create(sink, shape, parquet)
                    .map_err(|e| parquet_error(e, destination.name()))?;
                // Its second handle, for salvage, goes on in the target
                // too once a table written elsewhere, or in place, is
                // published.
                #[cfg(unix)]
                if let (Some(fresh), Some(spare)) = (&mut fresh, rows.spare_descriptor()) {
                    fresh.sinks.push(spare);
                }
                return Ok(ResultsWriter {
                    body: Body::Parquet(Box::new(rows)),
                    destination: destination.clone(),
                    closed: false,
                    cut_at: None,
                    cut_rows: None,
                    csv: false,
                    staged: None,
                    fresh,
                    claim,
                });
            }
        };
        let rows = match &sink {
            Sink::File(file) if is_null_device(file) => Arc::new(Discarded),
            _ => GzipMembers::around(rows, compression),
        };
        let mut writer = ResultsWriter::start(sink, rows, destination, &header, true)?;
        writer.csv = format == OutputFormat::Csv;
        writer.fresh = fresh;
        writer.claim = claim;
        Ok(writer)
    }

    /// Continues the results file `path` (`--resume`) in `format`, CSV
    /// (its fields separated by `delimiter`) or JSON Lines, plain or, for a
    /// `.gz` name, gzip members: keeps its first `keep` bytes (the header
    /// and the complete rows, or complete members), and appends after them;
    /// writes the CSV header when `keep` is 0. The rest (a row cut short) is
    /// dropped when the first row is appended: until then the file is left
    /// as it was.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn append(
        path: &Path,
        format: OutputFormat,
        shape: &Shape,
        keep: u64,
        delimiter: u8,
    ) -> Result<ResultsWriter, Error> {
        let error = |e| Error::write("results", path, e);
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(error)?;
        claim::lock_in_place(&file, path)?;
        let claim = Claim::of(path, &file);
        let len = file.metadata().map_err(error)?.len();
        // Nothing kept (an empty file, or one cut inside its header or
        // first row): the file is emptied now and its header written, so
        // there is nothing left to cut when the first row comes (a cut at
        // 0 then would leave the header's bytes a hole of zeros).
        if keep == 0 {
            file.set_len(0).map_err(error)?;
        }
        file.seek(SeekFrom::Start(keep)).map_err(error)?;
        let compression = Compression::of_name(path);
        let destination = Destination::File {
            path: path.to_path_buf(),
            compression,
        };
        let mut header = Vec::new();
        let rows: Arc<dyn RowFormat> = match format {
            OutputFormat::Jsonl => Arc::new(JsonlRows::new(shape)),
            // CSV: Parquet is continued by `ResultsWriter::continue_parquet`.
            _ => {
                let csv = CsvRows::new(shape, delimiter);
                if keep == 0 {
                    csv.header(&mut header);
                }
                Arc::new(csv)
            }
        };
        let rows = GzipMembers::around(rows, compression);
        // A file with kept rows is a valid gzip file as it is: a run that
        // appends nothing (interrupted, or every record kept) leaves it so,
        // without an empty member.
        let mut writer =
            ResultsWriter::start(Sink::File(file), rows, &destination, &header, keep == 0)?;
        writer.cut_at = (keep > 0 && len > keep).then_some(keep);
        writer.csv = format == OutputFormat::Csv;
        writer.claim = claim;
        Ok(writer)
    }

    /// Continues the Parquet results file `path` (`--resume`), whose
    /// footer is `metadata` and whose columns are `shape`'s (checked by
    /// `resume::scan_parquet`), the rows of this run compressed as
    /// `compression` says (the old row groups keep theirs): the continued
    /// file is written beside
    /// it, under a temporary name (`.NAME.resume-PID.partial`, locked while
    /// it is written; what killed resumes left beside it is removed, or
    /// named in a warning: see `output/resumed.rs`), its row groups copied
    /// first as they are,
    /// and the rows of this run after them. When the writer ends (also
    /// after an interrupt, or a failed write once the file is given its
    /// footer: see [`ResultsWriter::finish_after`]), the temporary file is
    /// renamed over `path`; until then `path` is left as it was, so a run
    /// killed outright loses nothing. [`ResultsWriter::leave_unchanged`]
    /// removes it instead.
    ///
    /// # Errors
    /// [`Error::Write`] when the file cannot be read, the temporary file
    /// cannot be created or the row groups cannot be copied (the temporary
    /// file is removed then), [`Error::Usage`] for a file that a rename
    /// cannot replace (a device, a named pipe, a file of several links).
    pub fn continue_parquet(
        path: &Path,
        shape: &Shape,
        compression: ParquetCompression,
        metadata: &::parquet::file::metadata::ParquetMetaData,
    ) -> Result<ResultsWriter, Error> {
        let error = |e| Error::write("results", path, e);
        let (temporary, target) = resumed::staged(path).ok_or_else(|| {
            Error::Usage(format!(
                "--resume continues a Parquet file by writing it anew beside it and renaming it \
                 over the old one, and {} cannot be replaced so (a device, a named pipe or a \
                 file of several links)",
                path.display()
            ))
        })?;
        let old = File::open(&target).map_err(error)?;
        let file = File::create(&temporary).map_err(error)?;
        resumed::lock(&file);
        for leftover in resumed::leftovers(&target, &temporary) {
            crate::stderrln!("sudoku-batch: warning: {leftover}");
        }
        if let Ok(meta) = old.metadata() {
            let _ = file.set_permissions(meta.permissions());
        }
        let staged = Staged {
            temporary,
            target,
            kept_rows: u64::try_from(metadata.file_metadata().num_rows()).unwrap_or(0),
        };
        let rows = ParquetRows::continued(Sink::File(file), shape, compression, &old, metadata)
            .map_err(|e| parquet_error(e, path).noting(&staged.remove()))?;
        Ok(ResultsWriter {
            body: Body::Parquet(Box::new(rows)),
            destination: Destination::File {
                path: path.to_path_buf(),
                compression: Compression::None,
            },
            closed: false,
            cut_at: None,
            cut_rows: None,
            csv: false,
            staged: Some(staged),
            fresh: None,
            claim: None,
        })
    }

    /// Ends the writer leaving the results file as it was before the run:
    /// for a resumed run refused once its rows were matched against the
    /// inputs (nothing is appended then), and for a run stopped by a
    /// signal before its first row. A continued Parquet file's
    /// temporary file is removed, and so is a file written anew that has
    /// not yet replaced its target ([`ResultsWriter::publish`]); a text
    /// file, appended nothing, is finished as [`ResultsWriter::finish`]
    /// does. Says what became of a file written anew (left as it was, or
    /// not created), for a message.
    pub fn leave_unchanged(mut self) -> Option<String> {
        // A file that has not replaced its target yet is removed (when
        // `fresh` is dropped), not put in its place.
        let fresh = self.fresh.take_if(|fresh| !fresh.published);
        let left = fresh.as_ref().map(Fresh::left);
        match self.staged {
            Some(staged) => {
                if let Body::Parquet(rows) = self.body {
                    // Its thread joined before the file is removed.
                    let _ = rows.finish();
                }
                staged.remove();
            }
            None => {
                let _ = self.finish();
            }
        }
        drop(fresh);
        left
    }

    /// The temporary files that runs writing the results file of
    /// `destination` left beside it when they were killed outright
    /// (SIGKILL, a crash) before their first row (`.NAME.results-PID.partial`:
    /// see [`ResultsWriter::create`]): each whose run is provably gone (no
    /// process has the id in its name, and none holds its lock) is removed;
    /// any other (a run still writing it) is left alone. One message for
    /// each, for a warning; none for stdout.
    pub fn leftovers(destination: &Destination) -> Vec<String> {
        let Destination::File { path, .. } = destination else {
            return Vec::new();
        };
        match replace::staged(path, TAG) {
            Some((ours, target)) => resumed::leftovers_of(&target, &ours, TAG, "run"),
            None => Vec::new(),
        }
    }

    /// A text writer that starts with `header` (none when empty), on a
    /// sink that is `empty` so far.
    fn start(
        sink: Sink,
        rows: Arc<dyn RowFormat>,
        destination: &Destination,
        header: &[u8],
        empty: bool,
    ) -> Result<ResultsWriter, Error> {
        let mut header = header.to_vec();
        if !header.is_empty() {
            rows.seal(&mut header);
        }
        let mut writer = ResultsWriter {
            body: Body::Text {
                sink,
                rows,
                text: Vec::new(),
                empty,
            },
            destination: destination.clone(),
            closed: false,
            cut_at: None,
            cut_rows: None,
            csv: true,
            staged: None,
            fresh: None,
            claim: None,
        };
        if !header.is_empty() {
            match writer.write_text(&header) {
                Err(Error::BrokenPipe) => writer.closed = true,
                written => written?,
            }
        }
        Ok(writer)
    }

    /// Puts a results file written under a temporary name in the place of
    /// the file it replaces or creates, at the run's first row: until then
    /// a run refused on its inputs leaves that file as it was, or none (see
    /// [`ResultsWriter::create`]); nothing for any other file.
    ///
    /// # Errors
    /// [`Error::Write`] when the rename fails and the file cannot be
    /// written in place either (where the rename is refused though the
    /// file may be written, as in a sticky directory or at a mount point,
    /// the table goes on in the file itself).
    pub fn publish(&mut self) -> Result<(), Error> {
        match &mut self.fresh {
            Some(fresh) => fresh
                .publish(true)
                .map_err(|e| Error::write("results", self.destination.name(), e)),
            None => Ok(()),
        }
    }

    /// True while the results go to a temporary file that has not yet
    /// replaced (or become) the file of their name
    /// ([`ResultsWriter::publish`]).
    pub fn held_back(&self) -> bool {
        self.fresh.as_ref().is_some_and(|fresh| !fresh.published)
    }

    /// How this writer formats rows, for rows formatted elsewhere (on the
    /// solver workers) and handed over with
    /// [`ResultsWriter::write_formatted`]: text, or Parquet's columns
    /// ([`RowFormat::columns`]).
    pub fn row_format(&self) -> Arc<dyn RowFormat> {
        match &self.body {
            Body::Text { rows, .. } => Arc::clone(rows),
            Body::Parquet(rows) => rows.table(),
        }
    }

    /// Writes one row per result, in the order given.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write(&mut self, results: &[PuzzleResult]) -> Result<(), Error> {
        if let Body::Text { rows, text, .. } = &mut self.body {
            let mut formatted = std::mem::take(text);
            formatted.clear();
            for result in results {
                rows.row(result, &mut formatted);
            }
            if !formatted.is_empty() {
                rows.seal(&mut formatted);
            }
            let written = self.write_text(&formatted);
            if let Body::Text { text, .. } = &mut self.body {
                *text = formatted;
            }
            return written;
        }
        self.write_formatted(&[results], &[], None)
    }

    /// Writes the rows of the results in `runs` (slices of them, in
    /// order), formatted by [`ResultsWriter::row_format`] already: `text`
    /// holds them formatted and sealed for a text format (the bytes are
    /// written as they are), `columns` for Parquet (else Parquet's columns
    /// are built here from `runs`).
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write_formatted<R: AsRef<[PuzzleResult]>>(
        &mut self,
        runs: &[R],
        text: &[&[u8]],
        columns: Option<&Columns>,
    ) -> Result<(), Error> {
        if self.closed {
            return Err(Error::BrokenPipe);
        }
        let written = match (&mut self.body, columns) {
            (Body::Text { .. }, _) => return self.write_pieces(text),
            (Body::Parquet(rows), Some(columns)) => rows.write_columns(columns),
            (Body::Parquet(rows), None) => rows.write_runs(runs),
        };
        written.map_err(|e| self.failed(parquet_error(e, self.destination.name())))
    }

    /// Writes rows already formatted and sealed by
    /// [`ResultsWriter::row_format`] (whole lines in order, each chunk of
    /// them sealed at once), and hands them to the destination (a
    /// compressor compresses them as they come and is flushed by
    /// [`ResultsWriter::finish`]); nothing for Parquet.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write_text(&mut self, text: &[u8]) -> Result<(), Error> {
        self.write_pieces(&[text])
    }

    /// [`ResultsWriter::write_text`] for rows in pieces, written in order
    /// (a plain file takes them in one vectored write).
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`].
    pub fn write_pieces(&mut self, pieces: &[&[u8]]) -> Result<(), Error> {
        if self.closed {
            return Err(Error::BrokenPipe);
        }
        let nothing = pieces.iter().all(|p| p.is_empty());
        if let Body::Text { empty, .. } = &mut self.body {
            *empty &= nothing;
        }
        if let (Some(len), false) = (self.cut_at, nothing) {
            if let Body::Text {
                sink: Sink::File(file),
                ..
            } = &mut self.body
            {
                file.set_len(len)
                    .map_err(|e| Error::write("results", self.destination.name(), e))?;
            }
            self.cut_at = None;
        }
        let written = match &mut self.body {
            Body::Text {
                sink: Sink::Stdout(w),
                ..
            } => {
                let mut w = w.lock();
                pieces
                    .iter()
                    .try_for_each(|p| w.write_all(p))
                    .and_then(|()| w.flush())
            }
            Body::Text {
                sink: Sink::File(file),
                rows,
                ..
            } => write_all_vectored(file, pieces).map_err(|(e, reached)| {
                // Sealed rows (gzip members) are whole only with their
                // member.
                if !rows.seals() {
                    self.cut_rows = Some(whole_rows(pieces, reached, self.csv));
                }
                e
            }),
            Body::Text { sink, .. } => pieces.iter().try_for_each(|p| sink.write_all(p)),
            Body::Parquet(_) => Ok(()),
        };
        written.map_err(|e| Error::write("results", self.destination.name(), e))
    }

    /// Ends the table (Parquet's row group and footer), flushes everything
    /// and ends a compressed stream.
    ///
    /// # Errors
    /// As for [`ResultsWriter::create`]; a failure to write a file says
    /// what the file holds then (see [`ResultsWriter::finish_after`]).
    pub fn finish(self) -> Result<(), Error> {
        self.finish_counted().map_err(|failed| failed.0)
    }

    /// [`ResultsWriter::finish`], with the tally of the rows a Parquet
    /// file cut short holds, read back from it (see
    /// [`ResultsWriter::finish_after`]).
    ///
    /// # Errors
    /// As for [`ResultsWriter::finish`], and that tally.
    pub fn finish_counted(self) -> Result<(), Box<(Error, Option<Tally>)>> {
        self.end().map_err(|failed| {
            let Failed { error, note, tally } = *failed;
            let error = match note {
                Some(note) => error.noting(&note),
                None => error,
            };
            Box::new((error, tally.map(|tally| *tally)))
        })
    }

    /// Ends the table as [`ResultsWriter::finish`] does after the run
    /// failed with `failure`, once `rows` rows were written through this
    /// writer, and gives `failure` back; when it is a failure to write the
    /// results file, it then says what the file holds: its first `rows`
    /// rows or more, the last maybe cut short (text), a zstd stream cut
    /// short, or the row groups written whole before the failure, cut
    /// after the last and given their footer, so that it is a readable
    /// Parquet file (see `output/parquet/salvage.rs`). With it comes the
    /// tally of the rows such a Parquet file holds, read back from it.
    pub fn finish_after(mut self, failure: Error, rows: u64) -> (Error, Option<Tally>) {
        if let Some(fresh) = self.fresh.take_if(|fresh| !fresh.published) {
            // Failed before its first row: the existing file stays (or
            // none is created), the temporary one goes (when `fresh` is
            // dropped).
            let _ = self.end();
            return (failure.noting(&fresh.left()), None);
        }
        if !failure.is_results_write() {
            // The results so far are kept; the run's own error is the one
            // to report, after a word on what the file holds now: a
            // refusal found past the first row (an input after the first
            // that cannot be read, a `check --baseline` row) comes once
            // the file was replaced.
            let held = self.held(rows);
            let _ = self.finish();
            if let Some(held) = held {
                crate::stderrln!("sudoku-batch: {held}");
            }
            return (failure, None);
        }
        let text = self.text_note(rows);
        let (parquet, tally) = match self.end() {
            Ok(()) => (None, None),
            Err(failed) => (failed.note, failed.tally),
        };
        let failure = match text.or(parquet) {
            Some(note) => failure.noting(&note),
            None => failure,
        };
        (failure, tally.map(|tally| *tally))
    }

    /// What the results file holds when the run fails once `rows` rows
    /// were written through this writer (counting those `--resume` kept),
    /// for a failure other than a write's: those rows, said to replace
    /// the file that was there when they did; `None` for stdout and
    /// devices.
    fn held(&self, rows: u64) -> Option<String> {
        let Destination::File { path, .. } = &self.destination else {
            return None;
        };
        let regular = match &self.body {
            Body::Text { sink, .. } => sink.regular_file().is_some(),
            Body::Parquet(_) => std::fs::metadata(path).is_ok_and(|meta| meta.is_file()),
        };
        if !regular {
            return None;
        }
        let replaced = match &self.fresh {
            Some(fresh) if fresh.existed => format!(
                " (it replaced the {} that was there at this run's first row)",
                path.display()
            ),
            _ => String::new(),
        };
        Some(format!(
            "{} holds its first {}, written before the error below{replaced}",
            path.display(),
            words::count(rows, "row", "rows")
        ))
    }

    /// What a text results file holds after a failed write, once `rows`
    /// rows were written whole; `None` for Parquet and for anything but a
    /// regular file (stdout, a device).
    fn text_note(&self, rows: u64) -> Option<String> {
        let (Body::Text { sink, .. }, Destination::File { path, compression }) =
            (&self.body, &self.destination)
        else {
            return None;
        };
        sink.regular_file()?;
        let path = path.display();
        Some(match (compression, self.cut_rows) {
            (Compression::Zstd, _) => zstd_note(&path),
            (Compression::Gzip, _) => format!(
                "{path} holds its first {} in whole gzip members, and maybe a member cut short",
                words::count(rows, "row", "rows")
            ),
            (_, Some((more, cut))) => format!(
                "{path} holds its first {}{}",
                words::count(rows + more, "row", "rows"),
                if cut { ", then a row cut short" } else { "" }
            ),
            (_, None) => format!(
                "{path} holds its first {}",
                words::count(rows, "row", "rows")
            ),
        })
    }

    /// [`ResultsWriter::finish`], its failure given with what the file
    /// holds then, when that is known here (Parquet, `.zst`).
    fn end(self) -> Result<(), Box<Failed>> {
        let name = self.destination.name();
        let failed = |error, note, tally| Box::new(Failed { error, note, tally });
        let sink = match self.body {
            Body::Text {
                mut sink,
                rows,
                empty,
                ..
            } => {
                if empty {
                    let mut nothing = Vec::new();
                    rows.seal(&mut nothing);
                    sink.write_all(&nothing)
                        .map_err(|e| failed(Error::write("results", name, e), None, None))?;
                }
                sink
            }
            Body::Parquet(rows) => rows.finish().map_err(|(e, salvaged)| {
                let note = match &self.staged {
                    Some(staged) => settle(name, staged, &salvaged),
                    None => salvaged_note(name, &salvaged),
                };
                // The rows the file holds, for the summary.
                let tally = match salvaged {
                    Salvaged::Groups { .. } => parquet::recount(name).ok().map(Box::new),
                    _ => None,
                };
                failed(parquet_error(e, name), note, tally)
            })?,
        };
        if self.closed {
            return Err(failed(Error::BrokenPipe, None, None));
        }
        let zstd = matches!(sink, Sink::Zstd(_));
        sink.finish().map_err(|e| {
            let note = match &self.staged {
                Some(staged) => Some(staged.remove()),
                None => zstd.then(|| zstd_note(&name.display())),
            };
            failed(Error::write("results", name, e), note, None)
        })?;
        let mut claim = self.claim;
        if let Some(mut fresh) = self.fresh {
            // The sink is finished (closed) by now.
            fresh
                .publish(false)
                .map_err(|e| failed(Error::write("results", name, e), None, None))?;
            claim = fresh.in_place.take().or(claim);
        }
        if let Some(claim) = &claim {
            claim
                .check()
                .map_err(|e| failed(Error::write("results", name, e), None, None))?;
        }
        match &self.staged {
            Some(staged) => staged.rename().map_err(|e| {
                let note = staged.remove();
                failed(Error::write("results", name, e), Some(note), None)
            }),
            None => Ok(()),
        }
    }

    /// Remembers a closed stdout, so that later writes stop at once.
    fn failed(&mut self, e: Error) -> Error {
        if matches!(e, Error::BrokenPipe) {
            self.closed = true;
        }
        e
    }
}

/// How ending the results failed: the error, what the file holds then
/// (see [`ResultsWriter::finish_after`]), and the tally of its rows when
/// they were read back (Parquet).
struct Failed {
    error: Error,
    note: Option<String>,
    tally: Option<Box<Tally>>,
}

/// The claim of a run writing its results file in place (a file of
/// several links, one with no room beside it that is not written elsewhere
/// first): the file is locked as a temporary file beside it would be, so
/// that other runs keep off it; `None` for stdout and devices.
fn in_place(destination: &Destination, sink: &Sink) -> Option<Claim> {
    let Destination::File { path, .. } = destination else {
        return None;
    };
    let file = sink.regular_file()?;
    resumed::lock(file);
    Claim::of(path, file)
}

/// What a `.zst` results file `path` holds after a failed write.
fn zstd_note(path: &std::path::Display<'_>) -> String {
    format!("{path} holds a zstd stream cut short (`zstd -dc` reads the rows before the cut)")
}

/// What a continued Parquet file (`staged`) of the results file `path`
/// becomes after a failed write that left it `salvaged`, said as
/// [`salvaged_note`] says it: renamed over the file it continues when it
/// holds every row of that file (the row groups copied, and maybe some of
/// this run's), else removed, the file it continues left as it was.
fn settle(path: &Path, staged: &Staged, salvaged: &Salvaged) -> Option<String> {
    match salvaged {
        Salvaged::Groups { rows, .. } if *rows >= staged.kept_rows => match staged.rename() {
            Ok(()) => salvaged_note(path, salvaged),
            Err(_) => Some(staged.remove()),
        },
        _ => Some(staged.remove()),
    }
}

/// What the Parquet results file `path` holds after a failed write, as
/// [`Error::noting`] says it; `None` for stdout or a device.
fn salvaged_note(path: &Path, salvaged: &Salvaged) -> Option<String> {
    let path = path.display();
    match salvaged {
        Salvaged::Groups { rows, groups, .. } => Some(format!(
            "{path} holds its first {}, readable (cut after the {} written whole before the \
             failure, and given their footer)",
            words::count(*rows, "row", "rows"),
            words::count(*groups as u64, "row group", "row groups")
        )),
        Salvaged::Unreadable(e) => Some(format!(
            "{path} is not a readable Parquet file: its footer could not be written either ({e})"
        )),
        Salvaged::NotAFile => None,
    }
}

/// A Parquet writer's error on `path`: the I/O error under it when there
/// is one (so that a closed stdout is [`Error::BrokenPipe`]).
fn parquet_error(e: ::parquet::errors::ParquetError, path: &Path) -> Error {
    let cause = match e {
        ::parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    };
    Error::write("results", path, cause)
}

#[cfg(all(test, unix))]
mod tests {
    use std::fs;
    use std::io::Write;

    use super::*;
    use crate::output::staged::tests::names;

    #[test]
    fn a_missing_file_appears_only_when_published_and_never_when_dropped_first() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        let temporary = format!(".r.csv.results-{}.partial", std::process::id());
        let (fresh, mut file) = Fresh::beside(&target).unwrap();
        file.write_all(b"header\n").unwrap();
        assert_eq!(names(dir.path()), [temporary.as_str()]);
        assert_eq!(fresh.left(), format!("{} is not created", target.display()));
        drop(fresh);
        assert_eq!(names(dir.path()), Vec::<String>::new());

        let (mut fresh, mut file) = Fresh::beside(&target).unwrap();
        file.write_all(b"header\n").unwrap();
        fresh.publish(true).unwrap();
        drop(fresh);
        assert_eq!(names(dir.path()), ["r.csv"]);
        assert_eq!(fs::read_to_string(&target).unwrap(), "header\n");
    }

    #[test]
    fn a_file_with_no_room_beside_it_is_cut_only_when_published() {
        use std::os::unix::fs::MetadataExt;

        let dir = tempfile::tempdir().unwrap();
        // No room for `.NAME.results-PID.partial` in a name's 255 bytes.
        let target = dir.path().join(format!("{}.csv", "r".repeat(240)));
        fs::write(&target, "old contents, longer than the new\n").unwrap();
        let inode = fs::metadata(&target).unwrap().ino();
        assert!(Fresh::beside(&target).is_none());

        // Dropped before its first row: the file keeps its bytes.
        let (fresh, mut file) = Fresh::elsewhere(&target).unwrap();
        file.write_all(b"header\n").unwrap();
        assert_eq!(
            fresh.left(),
            format!("{} is left as it was", target.display())
        );
        drop(file);
        drop(fresh);
        let old = fs::read_to_string(&target).unwrap();
        assert_eq!(old, "old contents, longer than the new\n");

        // Published at the first row: cut, the header copied in, and the
        // rows written after it through the same handle.
        let (mut fresh, mut file) = Fresh::elsewhere(&target).unwrap();
        file.write_all(b"header\n").unwrap();
        fresh.publish(true).unwrap();
        file.write_all(b"row\n").unwrap();
        drop(file);
        drop(fresh);
        assert_eq!(fs::read_to_string(&target).unwrap(), "header\nrow\n");
        assert_eq!(fs::metadata(&target).unwrap().ino(), inode);

        // Published once the writer has ended (a run of no rows).
        let (mut fresh, mut file) = Fresh::elsewhere(&target).unwrap();
        file.write_all(b"header\n").unwrap();
        drop(file);
        fresh.publish(false).unwrap();
        drop(fresh);
        assert_eq!(fs::read_to_string(&target).unwrap(), "header\n");
        assert_eq!(names(dir.path()).len(), 1);
    }

    #[test]
    fn a_leftover_of_this_process_id_is_written_over_and_a_held_one_is_not_taken() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        fs::write(&target, "old\n").unwrap();
        let temporary = dir
            .path()
            .join(format!(".r.csv.results-{}.partial", std::process::id()));
        // Left by a run that had this process id and died.
        fs::write(&temporary, "an older run's header\n").unwrap();
        let (fresh, file) = Fresh::beside(&target).unwrap();
        assert_eq!(fs::metadata(&temporary).unwrap().len(), 0);
        assert_eq!(
            fresh.left(),
            format!("{} is left as it was", target.display())
        );
        // Held (locked) by a run writing it: another is not given it.
        assert!(Fresh::beside(&target).is_none());
        drop(file);
        drop(fresh);
        assert_eq!(names(dir.path()), ["r.csv"]);
        assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
    }
}
