//! One results file, one run writing it: the lock a run holds on the file
//! it writes tells other runs to keep off ([`refuse_if_written`]), and the
//! file's identity, taken when the run opens it, tells the run at its end
//! whether the name still leads to the file it wrote ([`Claim::check`]).
//!
//! A run of `solve`, `check` or `rate` writes its results beside the file
//! they are for (`.NAME.results-PID.partial`), locked (an exclusive
//! `flock`, [`File::try_lock`]), and renames that file over `-o` at its
//! first row: the lock stays on the file, now `-o`'s. A results file
//! written in place (`--resume` of a text table, a file with no room
//! beside it, a file of several links) is locked itself. A second run
//! into the same `-o` while one is writing it would rename its own file
//! over the first one's at its first row, and the first would go on
//! writing a file no name leads to, its rows lost with exit 0: so a run
//! looks at `-o`, and at the temporary files of other runs beside it,
//! before it writes anything, and is refused when a live run holds one of
//! their locks. A run that starts at the very same moment as another, or
//! a file replaced by hand (`mv`), is found at the run's end instead: the
//! run says that its rows are not in `-o` and fails.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::output::resumed::partials_beside;

/// Refuses to write the results file `path` when another run is writing
/// it: the file itself is locked (a run that has written its first row,
/// or writes it in place), or a temporary file of another run beside it
/// is (`.NAME.TAG-PID.partial`: a run before its first row, a Parquet
/// `--resume`, a `merge`). Nothing is locked or written here; a file
/// system without locks refuses nothing.
///
/// # Errors
/// [`Error::Write`] naming `path` and the file whose lock is held.
pub(crate) fn refuse_if_written(path: &Path) -> Result<(), Error> {
    let writing = match locked(path) {
        true => Some(format!(
            "another run is writing {} (it holds the file's lock)",
            path.display()
        )),
        false => locked_partial(path).map(|(partial, pid)| {
            format!(
                "another run is writing {} (process {pid} holds the lock of its temporary file \
                 {})",
                path.display(),
                partial.display()
            )
        }),
    };
    match writing {
        Some(why) => Err(refusal(path, why)),
        None => Ok(()),
    }
}

/// Locks `file`, the results file `path` opened to be written in place
/// (`--resume` of a text table), for as long as it is open, as a run's
/// temporary file is locked: other runs keep off it. A file system without
/// locks leaves it unlocked.
///
/// # Errors
/// Another run holds its lock (one that started since this run looked:
/// [`refuse_if_written`]): nothing was written.
pub(crate) fn lock_in_place(file: &File, path: &Path) -> Result<(), Error> {
    match file.try_lock() {
        Err(std::fs::TryLockError::WouldBlock) => Err(refusal(
            path,
            format!(
                "another run is writing {} (it holds the file's lock)",
                path.display()
            ),
        )),
        _ => Ok(()),
    }
}

/// The refusal to write the results file `path` that another run writes,
/// `why` saying which.
fn refusal(path: &Path, why: String) -> Error {
    Error::write(
        "results",
        path,
        io::Error::other(format!(
            "{why}; nothing was written: wait for that run to end, or give this one another \
             file"
        )),
    )
}

/// True when `path` is a regular file whose lock another open file holds.
fn locked(path: &Path) -> bool {
    // A named pipe is never opened here: its open would wait for a writer.
    if !std::fs::metadata(path).is_ok_and(|meta| meta.is_file()) {
        return false;
    }
    let Ok(file) = File::open(path) else {
        return false;
    };
    // A shared lock, given back at once: two runs looking at one file at
    // the same moment never take each other for its writer.
    matches!(
        file.try_lock_shared(),
        Err(std::fs::TryLockError::WouldBlock)
    )
}

/// The first temporary file of a run writing `path` beside it
/// (`.NAME.TAG-PID.partial`, TAG a word) whose lock is held, with the
/// process id in its name.
fn locked_partial(path: &Path) -> Option<(PathBuf, u32)> {
    // Beside the file a symbolic link leads to, where its runs write.
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path).ok()?,
        _ => path.to_path_buf(),
    };
    partials_beside(&target)
        .into_iter()
        .filter_map(|partial| Some((partial.path, partial.pid?)))
        .find(|(partial, _)| locked(partial))
}

/// The results file a run writes, as it was when the run opened it: the
/// name it is written under, and the file that name led to then.
#[derive(Debug)]
pub(crate) struct Claim {
    /// The results file's name (where a symbolic link leads).
    target: PathBuf,
    /// The file's device and inode.
    #[cfg(unix)]
    identity: (u64, u64),
}

impl Claim {
    /// The claim of a run writing `file`, which is (or will be renamed to)
    /// the results file `target`; `None` where files have no identity
    /// to compare, or `file` tells none.
    pub(crate) fn of(target: &Path, file: &File) -> Option<Claim> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;

            let meta = file.metadata().ok()?;
            Some(Claim {
                target: target.to_path_buf(),
                identity: (meta.dev(), meta.ino()),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = (target, file);
            None
        }
    }

    /// Checks, at the run's end, that the results file's name still leads
    /// to the file the run wrote.
    ///
    /// # Errors
    /// The name leads to another file, or to none: the file was replaced,
    /// moved or removed while the run wrote it (another run into the same
    /// file, or a rename by hand), and the run's rows are not there.
    pub(crate) fn check(&self) -> io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;

            let now = std::fs::metadata(&self.target)
                .ok()
                .map(|meta| (meta.dev(), meta.ino()));
            let shown = self.target.display();
            match now {
                Some(now) if now == self.identity => Ok(()),
                Some(_) => Err(io::Error::other(format!(
                    "{shown} was replaced by another file while this run wrote it (another run \
                     into the same file, or by hand): this run's rows are not in {shown}"
                ))),
                None => Err(io::Error::other(format!(
                    "{shown} was moved or removed while this run wrote it: this run's rows are \
                     not in {shown}"
                ))),
            }
        }
        #[cfg(not(unix))]
        Ok(())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn a_file_or_a_temporary_file_whose_lock_is_held_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        // No file yet, then one no run holds.
        refuse_if_written(&target).unwrap();
        fs::write(&target, "old\n").unwrap();
        refuse_if_written(&target).unwrap();

        // Held by a writer: its exclusive lock, taken on another open file.
        let writer = File::options().write(true).open(&target).unwrap();
        writer.try_lock().unwrap();
        let refused = refuse_if_written(&target).unwrap_err().to_string();
        let said = format!(
            "writing results to {0}: another run is writing {0} (it holds the file's lock)",
            target.display()
        );
        assert!(refused.starts_with(&said), "{refused}");
        // Only looked at: the writer keeps its lock.
        assert!(matches!(
            File::open(&target).unwrap().try_lock_shared(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
        drop(writer);
        refuse_if_written(&target).unwrap();

        // A temporary file of another run, unlocked (killed, or a file
        // system without locks), then locked; another file's is no matter.
        let partial = dir.path().join(".r.csv.results-999999999.partial");
        let other = dir.path().join(".s.csv.results-999999998.partial");
        fs::write(&partial, "").unwrap();
        fs::write(&other, "").unwrap();
        let other_writer = File::options().write(true).open(&other).unwrap();
        other_writer.try_lock().unwrap();
        refuse_if_written(&target).unwrap();
        let partial_writer = File::options().write(true).open(&partial).unwrap();
        partial_writer.try_lock().unwrap();
        let refused = refuse_if_written(&target).unwrap_err().to_string();
        let said = format!(
            "(process 999999999 holds the lock of its temporary file {})",
            partial.display()
        );
        assert!(refused.contains(&said), "{refused}");
        // Through a symbolic link to it, too.
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(refuse_if_written(&link).is_err());
    }

    #[test]
    fn a_claim_holds_while_its_name_leads_to_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        let file = File::create(&target).unwrap();
        let claim = Claim::of(&target, &file).unwrap();
        claim.check().unwrap();

        // Replaced by a rename (another run's first row), then gone.
        let other = dir.path().join("other.csv");
        fs::write(&other, "theirs\n").unwrap();
        fs::rename(&other, &target).unwrap();
        let replaced = claim.check().unwrap_err().to_string();
        assert!(
            replaced.contains("was replaced by another file"),
            "{replaced}"
        );
        fs::remove_file(&target).unwrap();
        let gone = claim.check().unwrap_err().to_string();
        assert!(gone.contains("was moved or removed"), "{gone}");
    }
}
