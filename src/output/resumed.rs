//! The temporary file of a Parquet `--resume` and what other resumes of
//! the same results left beside it.
//!
//! A resume of `NAME.parquet` writes the continued file beside it as
//! `.NAME.parquet.resume-PID.partial` (the process's id, as every staged
//! file: [`replace::staged`]), so that two resumes at once never write one
//! file, and holds an exclusive lock on it ([`File::try_lock`]) while it
//! writes. A resume killed outright (SIGKILL, a crash) leaves its file
//! there. The next resume of the same results looks for such files
//! ([`leftovers`]): one whose run is provably gone (no process has the id
//! in its name, and none holds its lock) is removed; any other (a run
//! still writing it, in this or another process namespace, or a file of an
//! earlier version, `.NAME.parquet.resume.partial`, whose writer took no
//! lock) is named in a warning and left alone.
//!
//! The files `merge`, `canon` and `augment` write under a temporary name
//! ([`super::staged`]) are locked and looked for the same way
//! ([`leftovers_of`]).

use std::fs::File;
use std::path::{Path, PathBuf};

use super::replace;

/// The tag of a resume's temporary name (`.NAME.resume-PID.partial`).
const TAG: &str = "resume";

/// Where the continuation of the results file `path` is written:
/// `(temporary, target)` as [`replace::staged`] gives them, or `None` when
/// a rename would not replace `path` (a device, a named pipe, a file of
/// several links).
pub(crate) fn staged(path: &Path) -> Option<(PathBuf, PathBuf)> {
    replace::staged(path, TAG)
}

/// Locks `file`, this run's temporary file, for as long as it is open, so
/// that another resume never takes it for a leftover. A file system that
/// has no locks leaves it unlocked: the process id in its name still
/// keeps other resumes from removing it.
pub(crate) fn lock(file: &File) {
    let _ = file.try_lock();
}

/// The temporary files of other resumes of `target` beside it, but `ours`:
/// each whose run is gone is removed; each of the others is left alone.
/// One message for each, for a warning.
pub(crate) fn leftovers(target: &Path, ours: &Path) -> Vec<String> {
    leftovers_of(target, ours, TAG, "resume")
}

/// The temporary files `.NAME.{tag}-PID.partial` of other runs writing
/// `target` beside it, but `ours`, as [`leftovers`] does for resumes:
/// `writer` names such a run in the messages (`resume`, `merge`).
pub(crate) fn leftovers_of(target: &Path, ours: &Path, tag: &str, writer: &str) -> Vec<String> {
    partials_beside(target)
        .into_iter()
        .filter(|partial| partial.tag == tag && partial.path.file_name() != ours.file_name())
        .map(|Partial { path, pid, .. }| {
            let shown = path.display();
            let results = target.display();
            match pid {
                Some(pid) if gone(&path, pid) => match std::fs::remove_file(&path) {
                    Ok(()) => format!(
                        "removed {shown}, what a {writer} of {results} killed outright left \
                         (process {pid} is gone)"
                    ),
                    Err(e) => format!(
                        "{shown} is what a {writer} of {results} killed outright left (process \
                         {pid} is gone), and it cannot be removed ({e}); remove it"
                    ),
                },
                _ => format!(
                    "{shown} is another {writer}'s temporary file of {results}: a run still \
                     writing it, or one killed outright; left as it is (remove it once no \
                     run is writing {results})"
                ),
            }
        })
        .collect()
}

/// A temporary file beside a results file, `.NAME.TAG-PID.partial`: what
/// a run writing the file (TAG: `results`, `resume`, `merge`) made.
pub(crate) struct Partial {
    pub(crate) path: PathBuf,
    /// The word after the results file's name.
    pub(crate) tag: String,
    /// The process id in the name (`None` in a name without one).
    pub(crate) pid: Option<u32>,
}

/// The temporary files beside `target` named for it, `.NAME.TAG-PID.partial`
/// or `.NAME.TAG.partial` (TAG a lowercase word), in the order of their
/// paths; none where the directory cannot be read.
pub(crate) fn partials_beside(target: &Path) -> Vec<Partial> {
    let Some(name) = target.file_name().and_then(|name| name.to_str()) else {
        return Vec::new();
    };
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let prefix = format!(".{name}.");
    let mut found: Vec<Partial> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let file_name = entry.file_name();
            let middle = file_name
                .to_str()?
                .strip_prefix(&prefix)?
                .strip_suffix(".partial")?;
            let (tag, pid) = match middle.split_once('-') {
                Some((tag, pid)) => (tag, Some(pid.parse::<u32>().ok()?)),
                None => (middle, None),
            };
            if tag.is_empty() || !tag.bytes().all(|b| b.is_ascii_lowercase()) {
                return None;
            }
            Some(Partial {
                path: entry.path(),
                tag: tag.to_owned(),
                pid,
            })
        })
        .collect();
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

/// True when the resume that wrote `path` is provably gone: no process
/// has its id `pid`, and no process holds a lock on the file.
fn gone(path: &Path, pid: u32) -> bool {
    let Ok(file) = File::options().write(true).open(path) else {
        return false;
    };
    !alive(pid) && file.try_lock().is_ok()
}

/// True when a process of id `pid` may be running (any answer but "no
/// such process" counts as running).
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // Signal 0 sends nothing: it only asks whether the process exists.
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Where processes cannot be asked, every one may be running.
#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leftover_of_a_gone_process_is_removed_and_others_are_named_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.parquet");
        let (ours, _) = staged(&target).unwrap();
        assert_eq!(
            ours.file_name().unwrap().to_string_lossy(),
            format!(".r.parquet.resume-{}.partial", std::process::id())
        );
        let mine = File::create(&ours).unwrap();
        lock(&mine);
        // Process ids past the kernel's largest (4,194,304) are never
        // running; the second file's lock is held (as by a resume running
        // in another process namespace); the third is an earlier
        // version's, and the last another file's.
        let gone = dir.path().join(".r.parquet.resume-999999999.partial");
        let held = dir.path().join(".r.parquet.resume-999999998.partial");
        let old = dir.path().join(".r.parquet.resume.partial");
        let other = dir.path().join(".s.parquet.resume-999999999.partial");
        for path in [&gone, &held, &old, &other] {
            std::fs::write(path, b"PAR1").unwrap();
        }
        let holder = File::options().write(true).open(&held).unwrap();
        holder.try_lock().unwrap();

        let messages = leftovers(&target, &ours);
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(!gone.exists());
        let said = |start: String| messages.iter().any(|m| m.starts_with(&start));
        assert!(said(format!("removed {}", gone.display())), "{messages:?}");
        assert!(held.exists() && old.exists() && other.exists() && ours.exists());
        for path in [&old, &held] {
            let named = format!("{} is another resume's temporary file", path.display());
            assert!(said(named), "{messages:?}");
        }
    }
}
