//! A file written whole under a temporary name beside the file it is for,
//! then renamed over it ([`StagedFile`]): `merge`'s output, and the table
//! of `canon` or `augment` over stdin or a pipe (which a record of another
//! size may refuse part way).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::output::{replace, resumed};

/// A file that is to appear at its target whole or not at all: written
/// under a temporary name beside the target ([`replace::staged`]: it ends
/// in `.{tag}-PID.partial`, so two runs at once writing the same target
/// each write their own), and renamed over the target by
/// [`StagedFile::commit`]. Dropped before then (a failure, a refusal), it
/// removes its temporary file, leaving the target as it was; a signal that
/// ends the run while another thread writes it is met by
/// [`StagedName::remove`]. A run killed outright (SIGKILL) leaves the
/// temporary file; the next run writing the same target removes it once
/// that run is provably gone ([`StagedFile::create`]).
#[derive(Debug)]
pub(crate) struct StagedFile {
    temporary: PathBuf,
    target: PathBuf,
    /// The tag of the temporary name (`merge`, `table`).
    tag: String,
    /// Renamed over the target or removed: nothing is left to remove.
    settled: bool,
}

/// The temporary name of a [`StagedFile`], held by the thread that waits
/// for the one writing it, so that a signal which ends the run removes it
/// even when the writing thread is blocked (on a pipe that sends nothing)
/// and never drops the file.
#[derive(Clone, Debug)]
pub(crate) struct StagedName(PathBuf);

impl StagedName {
    /// Removes the temporary file, if it is there (best effort: the run is
    /// ending on a signal).
    pub(crate) fn remove(&self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl StagedFile {
    /// The staged file for the file `path` names, its temporary name ending
    /// in `.{tag}-PID.partial`; `None` when a rename would not put the
    /// contents where readers of `path` look (a named pipe, a device, a
    /// file of several links, a link that leads nowhere): the caller writes
    /// `path` in place. Nothing is created yet ([`StagedFile::create`]).
    pub(crate) fn beside(path: &Path, tag: &str) -> Option<StagedFile> {
        let (temporary, target) = replace::staged(path, tag)?;
        Some(StagedFile {
            temporary,
            target,
            tag: tag.to_string(),
            settled: false,
        })
    }

    /// Creates the temporary file, empty (one left by an earlier run of the
    /// same process id is written over), locked while it is open. The
    /// temporary files that other runs writing the same target left beside
    /// it are looked at, as a Parquet `--resume` looks at its own
    /// ([`resumed::leftovers_of`]): one whose run is provably gone (killed
    /// outright) is removed, any other left alone; each is named in a
    /// warning on stderr, `writer` naming such a run (`merge`).
    ///
    /// # Errors
    /// The file cannot be created.
    pub(crate) fn create(&self, writer: &str) -> io::Result<File> {
        let file = File::create(&self.temporary)?;
        resumed::lock(&file);
        for leftover in resumed::leftovers_of(&self.target, &self.temporary, &self.tag, writer) {
            crate::stderrln!("sudoku-batch: warning: {leftover}");
        }
        Ok(file)
    }

    /// Its temporary name, to remove it from another thread at a signal.
    pub(crate) fn name(&self) -> StagedName {
        StagedName(self.temporary.clone())
    }

    /// Renames the temporary file over the target: the target now holds
    /// what was written. Where the rename is refused though the target may
    /// be written (a sticky directory, a mount point:
    /// [`replace::in_place_after`]), the target is cut and what was written
    /// copied into it instead. Call it once everything is written and
    /// flushed.
    ///
    /// # Errors
    /// The rename failed and the target cannot be written in place either:
    /// the temporary file is removed, and the target is left as it was.
    pub(crate) fn commit(mut self) -> io::Result<()> {
        let renamed = match std::fs::rename(&self.temporary, &self.target) {
            #[cfg(unix)]
            Err(renamed) if replace::in_place_after(&renamed) => {
                replace::write_in_place(&self.temporary, &self.target, renamed).map(drop)
            }
            renamed => renamed,
        };
        // A rename that failed leaves the temporary file for `drop`.
        self.settled = renamed.is_ok();
        renamed
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if !self.settled {
            // Best effort: the run is already failing with its own error.
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

#[cfg(all(test, unix))]
pub(crate) mod tests {
    use std::fs;
    use std::io::Write;

    use super::*;

    /// The names in `dir`, sorted.
    pub(crate) fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_committed_file_replaces_its_target_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        fs::write(&target, "old\n").unwrap();
        let staged = StagedFile::beside(&target, "merge").unwrap();
        let temporary = format!(".r.csv.merge-{}.partial", std::process::id());
        assert_eq!(staged.temporary, dir.path().join(&temporary));
        // Nothing is created before `create`.
        assert_eq!(names(dir.path()), ["r.csv"]);
        staged.create("merge").unwrap().write_all(b"new\n").unwrap();
        assert_eq!(names(dir.path()), [temporary.as_str(), "r.csv"]);
        // The target is left as it was until the rename.
        assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
        staged.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
        assert_eq!(names(dir.path()), ["r.csv"]);
    }

    #[test]
    fn a_file_dropped_before_its_commit_is_removed_and_the_target_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        fs::write(&target, "old\n").unwrap();
        let staged = StagedFile::beside(&target, "table").unwrap();
        staged
            .create("merge")
            .unwrap()
            .write_all(b"part of it\n")
            .unwrap();
        drop(staged);
        assert_eq!(names(dir.path()), ["r.csv"]);
        assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
        // Never created: dropping it removes nothing else.
        drop(StagedFile::beside(&target, "table").unwrap());
        assert_eq!(names(dir.path()), ["r.csv"]);
    }

    #[test]
    fn a_failed_rename_removes_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        let staged = StagedFile::beside(&target, "merge").unwrap();
        staged.create("merge").unwrap();
        // A directory made at the target since: a file cannot replace it.
        fs::create_dir(&target).unwrap();
        fs::write(target.join("inside"), "kept\n").unwrap();
        assert!(staged.commit().is_err());
        assert_eq!(names(dir.path()), ["r.csv"]);
        assert_eq!(names(&target), ["inside"]);
    }

    #[test]
    fn its_name_removes_it_from_another_thread_while_the_writer_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        let staged = StagedFile::beside(&target, "merge").unwrap();
        let mut file = staged.create("merge").unwrap();
        let name = staged.name();
        std::thread::spawn(move || name.remove()).join().unwrap();
        assert_eq!(names(dir.path()), Vec::<String>::new());
        // The writer goes on into a file no name leads to, and its drop
        // finds nothing to remove.
        file.write_all(b"late\n").unwrap();
        drop(staged);
        assert_eq!(names(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn a_link_is_followed_to_its_target_and_a_pipe_is_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        fs::write(&target, "old\n").unwrap();
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let staged = StagedFile::beside(&link, "table").unwrap();
        staged.create("merge").unwrap().write_all(b"new\n").unwrap();
        staged.commit().unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
        assert!(StagedFile::beside(Path::new("/dev/null"), "table").is_none());
    }
}
