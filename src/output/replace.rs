//! Output files created anew rather than truncated, files written whole
//! or not at all ([`write_whole`]), and where a file written whole under a
//! temporary name goes first ([`staged`]).
//!
//! Truncating an existing results file in place costs twice on ext4, the
//! file system of most Linux machines: the `open` itself frees the old
//! file's pages (40 ms for a 188 MB CSV on a 2-core AMD EPYC), and since the
//! file was cut to nothing, ext4's `auto_da_alloc` guard (there for editors
//! that rewrite a file in place) makes the `close` allocate and start
//! writing back all of the new contents (another 60 ms), both on the thread
//! that opens and closes, while the solvers wait. So an existing regular file
//! of one link is unlinked and created again with its permissions, as
//! `cp --remove-destination` does: the old pages are freed on a short-lived
//! thread beside the run and the new file is written back at the kernel's
//! own pace. Symbolic links, files of several links (whose other names must
//! see the new contents) and files that cannot be unlinked are truncated in
//! place as before.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Opens `path` for writing, empty: a new file where none was, an existing
/// regular file of one link replaced by a new one with its permissions, or
/// else (a symbolic link, a file of several links, a device, a directory
/// that forbids unlinking) the file truncated, as [`File::create`] does.
///
/// # Errors
/// The file cannot be created or truncated.
pub(crate) fn create(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    if let Some(file) = replace(path) {
        return Ok(file);
    }
    File::create(path)
}

/// Replaces the existing regular file `path` of one link by a new, empty
/// one; `None` when it is anything else or cannot be replaced (the caller
/// truncates it instead).
#[cfg(unix)]
fn replace(path: &Path) -> Option<File> {
    use std::fs::{self, OpenOptions};
    use std::os::unix::fs::MetadataExt;

    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_file() || meta.nlink() != 1 {
        return None;
    }
    // Held open across the unlink, the old file's pages are freed when this
    // handle closes, on the thread below, not inside `remove_file`.
    let old = File::open(path).ok();
    fs::remove_file(path).ok()?;
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .ok()?;
    // The new file is ours: setting its mode cannot fail for want of rights.
    let _ = file.set_permissions(meta.permissions());
    if let Some(old) = old {
        // A spawn that fails drops the handle (and frees the pages) here.
        let _ = std::thread::Builder::new()
            .name("old-output".into())
            .spawn(move || drop(old));
    }
    Some(file)
}

/// Where a file that is to appear at `path` whole or not at all is
/// written first: `(temporary, target)`, a temporary name beside the file
/// `path` names, ending in `.{tag}-PID.partial`, that is renamed over
/// `target` once complete. `target` is `path`, or the file a symbolic link
/// `path` leads to (the link stays). `None` when a rename would not put the
/// contents where readers of `path` look, so the file is written in place
/// ([`create`]): a named pipe, a device (`/dev/null`: a rename would put a
/// regular file in its place), a file of several links (the other names
/// would keep the old contents), a link that leads nowhere.
pub(crate) fn staged(path: &Path, tag: &str) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    beside(path, &format!(".{tag}-{}.partial", std::process::id()))
}

/// [`staged`] with the temporary name's `suffix`.
fn beside(path: &Path, suffix: &str) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    use std::ffi::OsString;
    use std::fs;

    let target = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => path.to_path_buf(),
        Err(_) => return None,
        Ok(meta) => {
            let target = match meta.file_type().is_symlink() {
                true => fs::canonicalize(path).ok()?,
                false => path.to_path_buf(),
            };
            let meta = fs::metadata(&target).ok()?;
            if !meta.is_file() || !single_link(&meta) {
                return None;
            }
            target
        }
    };
    // Built from the name's bytes, whatever they are.
    let mut name = OsString::from(".");
    name.push(target.file_name()?);
    name.push(suffix);
    Some((target.with_file_name(name), target))
}

/// Whether the file has one name (always, where links are not counted).
fn single_link(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.nlink() == 1
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        true
    }
}

/// Writes `bytes` as the whole of the file `path`, created or truncated
/// (as [`std::fs::write`] does: for pages and exports, written whole at
/// once); a regular file that cannot be written whole (a full disk) is
/// removed rather than left cut short, so that neither the previous
/// contents nor a part of the new ones are taken for the new.
///
/// # Errors
/// The file cannot be created or written.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = File::create(path)?;
    let written = file.write_all(bytes).and_then(|()| file.flush());
    if written.is_err() && file.metadata().is_ok_and(|meta| meta.is_file()) {
        let _ = std::fs::remove_file(path);
    }
    written
}

#[cfg(all(test, unix))]
mod tests {
    use std::fs;
    use std::io::Write;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use super::*;

    fn write(path: &Path, text: &str) {
        create(path).unwrap().write_all(text.as_bytes()).unwrap();
    }

    #[test]
    fn files_staged_whole_go_where_a_rename_reaches_their_readers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let pid = std::process::id();
        let temporary = dir.path().join(format!(".r.csv.merge-{pid}.partial"));
        // Absent, and a regular file of one name: beside it, over it.
        assert_eq!(
            staged(&path, "merge"),
            Some((temporary.clone(), path.clone()))
        );
        fs::write(&path, "old\n").unwrap();
        assert_eq!(staged(&path, "merge"), Some((temporary, path.clone())));
        // A link: beside its target, over the target.
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let target = fs::canonicalize(&path).unwrap();
        let beside = target.with_file_name(format!(".r.csv.merge-{pid}.partial"));
        assert_eq!(staged(&link, "merge"), Some((beside, target)));
        // Written in place: a file of two names, a link to nothing, a
        // device, a named pipe.
        fs::hard_link(&path, dir.path().join("other.csv")).unwrap();
        assert_eq!(staged(&path, "merge"), None);
        let dangling = dir.path().join("dangling.csv");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert_eq!(staged(&dangling, "merge"), None);
        assert_eq!(staged(Path::new("/dev/null"), "merge"), None);
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|status| status.success()));
        assert_eq!(staged(&fifo, "merge"), None);
    }

    #[test]
    fn a_missing_file_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        write(&path, "new\n");
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
    }

    #[test]
    fn an_existing_file_is_replaced_with_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        fs::write(&path, "old contents, longer than the new\n").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        let inode = fs::metadata(&path).unwrap().ino();
        write(&path, "new\n");
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        let meta = fs::metadata(&path).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o640);
        assert_ne!(meta.ino(), inode, "truncated in place, not replaced");
        // Nothing left beside it.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_file_of_two_links_is_truncated_so_both_names_see_the_new_contents() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let other = dir.path().join("other.csv");
        fs::write(&path, "old contents\n").unwrap();
        fs::hard_link(&path, &other).unwrap();
        write(&path, "new\n");
        assert_eq!(fs::read_to_string(&other).unwrap(), "new\n");
        assert_eq!(
            fs::metadata(&path).unwrap().ino(),
            fs::metadata(&other).unwrap().ino()
        );
    }

    #[test]
    fn a_symbolic_link_stays_and_its_target_gets_the_new_contents() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.csv");
        let link = dir.path().join("r.csv");
        fs::write(&target, "old contents\n").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write(&link, "new\n");
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
    }
}
