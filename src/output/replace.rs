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
/// that forbids unlinking, a file the user may not write: see [`writable`])
/// the file truncated, as [`File::create`] does.
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
    // A file the user may not write is not replaced: truncating it fails,
    // as the shell's `>` does.
    writable(path).ok()?;
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

/// Whether the existing regular file `path` (a symbolic link's target)
/// may be written by this user; `Ok` too when there is no such file, or
/// it is anything else (a device, a pipe: opening those for writing is
/// their business). A file written anew beside its target and renamed
/// over it needs only the directory's permission, so a read-only file
/// would be replaced where the shell's `>` refuses it: the writers of
/// results ask this first. Asked of the kernel for the effective user
/// (`faccessat` with `AT_EACCESS`), which knows ACLs, read-only mounts and
/// immutable files, and root's rights; nothing is opened or created.
///
/// # Errors
/// The file may not be written (`EACCES`, `EROFS`, `EPERM`).
pub(crate) fn writable(path: &Path) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {}
        _ => return Ok(()),
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;

        let name = std::ffi::CString::new(path.as_os_str().as_bytes())?;
        // SAFETY: `name` is a NUL-terminated path that outlives the call.
        let asked =
            unsafe { libc::faccessat(libc::AT_FDCWD, name.as_ptr(), libc::W_OK, libc::AT_EACCESS) };
        match asked {
            0 => Ok(()),
            _ => Err(io::Error::last_os_error()),
        }
    }
    #[cfg(not(unix))]
    match std::fs::metadata(path)?.permissions().readonly() {
        true => Err(io::Error::from(io::ErrorKind::PermissionDenied)),
        false => Ok(()),
    }
}

/// Whether a file written under a temporary name beside its target is
/// written into the target in place after its rename over the target
/// failed with `e` ([`write_in_place`]): the name cannot be changed though
/// the file may still be writable. `EPERM`: a sticky directory (`/tmp`,
/// `/dev/shm`) lets only the file's owner (or the directory's) replace it;
/// `EBUSY`: the target is a mount point (a file bound into a container,
/// `docker -v r.csv:/out/r.csv`); `EXDEV`: it is on another mount than
/// its directory; `EACCES`: the directory can no longer be written. Any
/// other failure (a full disk, an I/O error) would fail there too.
pub(crate) fn in_place_after(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EPERM | libc::EBUSY | libc::EXDEV | libc::EACCES)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// Why a rename failed with `e`, when [`in_place_after`] takes it, for a
/// message.
fn unrenamable(e: &io::Error) -> &'static str {
    #[cfg(unix)]
    match e.raw_os_error() {
        Some(libc::EPERM) => "in a sticky directory such as /tmp only its owner may replace it",
        Some(libc::EBUSY) => "it is a mount point, as a file bound into a container is",
        Some(libc::EXDEV) => "it is on another mount than its directory",
        Some(libc::EACCES) => "its directory cannot be written",
        _ => "the name cannot be changed",
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        "the name cannot be changed"
    }
}

/// Cuts `to` and copies the whole of `from` into it, reading and writing
/// at positions (neither file's offset moves: another handle may share
/// it); gives the length copied.
///
/// # Errors
/// `to` cannot be cut or written, or `from` read.
#[cfg(unix)]
pub(crate) fn copy_over(from: &File, to: &File) -> io::Result<u64> {
    use std::os::unix::fs::FileExt;

    to.set_len(0)?;
    let mut buffer = vec![0; 64 << 10];
    let mut at = 0;
    loop {
        let read = from.read_at(&mut buffer, at)?;
        if read == 0 {
            return Ok(at);
        }
        to.write_all_at(&buffer[..read], at)?;
        at += read as u64;
    }
}

/// After the rename of `temporary` over `target` failed with `renamed`
/// (one [`in_place_after`] takes): `target`, an existing regular file,
/// opened for writing (not created), cut, and `temporary`'s contents
/// copied into it; `temporary` is removed. Gives `target`'s handle, its
/// offset at the copy's end. The file keeps its inode, owner and mode.
///
/// # Errors
/// `target` cannot be opened for writing or written: `renamed`, saying why
/// the rename could not be done and what failed then; a failure once
/// `target` is cut (a full disk) says that it holds part of the new file.
#[cfg(unix)]
pub(crate) fn write_in_place(
    temporary: &Path,
    target: &Path,
    renamed: io::Error,
) -> io::Result<File> {
    use std::io::{Seek, SeekFrom};

    let neither = |how: &str, e: io::Error| {
        io::Error::new(
            renamed.kind(),
            format!(
                "{renamed}: it cannot be replaced by a renamed file ({}), and {how}: {e}",
                unrenamable(&renamed)
            ),
        )
    };
    let refused = |e| neither("it cannot be written in place either", e);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(refused)?;
    if !file.metadata().map_err(refused)?.is_file() {
        return Err(refused(io::Error::other("it is no longer a regular file")));
    }
    let written = File::open(temporary).map_err(refused)?;
    let cut = |e| {
        neither(
            "writing it in place failed once it was cut (it holds part of the new file)",
            e,
        )
    };
    let end = copy_over(&written, &file).map_err(cut)?;
    (&file).seek(SeekFrom::Start(end)).map_err(cut)?;
    let _ = std::fs::remove_file(temporary);
    Ok(file)
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
    fn renames_refused_for_the_name_alone_are_written_in_place_and_no_others() {
        let failed = |errno| io::Error::from_raw_os_error(errno);
        // A sticky directory, a mount point, another mount, a directory
        // that can no longer be written.
        for errno in [libc::EPERM, libc::EBUSY, libc::EXDEV, libc::EACCES] {
            assert!(in_place_after(&failed(errno)), "{errno}");
        }
        // A full disk, an I/O error, a read-only file system, a target gone
        // or made a directory: writing in place would fail too, or it is
        // not the file it was.
        for errno in [
            libc::ENOSPC,
            libc::EIO,
            libc::EROFS,
            libc::ENOENT,
            libc::EISDIR,
            libc::ENOTDIR,
        ] {
            assert!(!in_place_after(&failed(errno)), "{errno}");
        }
        assert!(!in_place_after(&io::Error::other("not from the kernel")));
    }

    #[test]
    fn a_file_written_in_place_keeps_its_inode_and_takes_the_rest_through_its_handle() {
        use std::os::fd::AsRawFd;

        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        fs::write(&target, "old contents, longer than the new\n").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o604)).unwrap();
        let inode = fs::metadata(&target).unwrap().ino();
        let temporary = dir.path().join(".r.csv.results-1.partial");
        fs::write(&temporary, "header\n").unwrap();
        let renamed = io::Error::from_raw_os_error(libc::EBUSY);
        let mut file = write_in_place(&temporary, &target, renamed).unwrap();
        file.write_all(b"row\n").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "header\nrow\n");
        let meta = fs::metadata(&target).unwrap();
        assert_eq!((meta.ino(), meta.mode() & 0o777), (inode, 0o604));
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "{temporary:?} left"
        );
        // The offset is the file's own: a descriptor made its duplicate
        // goes on from there.
        let other = tempfile::tempfile().unwrap();
        // SAFETY: both descriptors are open; `other`'s now names `file`'s.
        assert_ne!(
            unsafe { libc::dup2(file.as_raw_fd(), other.as_raw_fd()) },
            -1
        );
        (&other).write_all(b"more\n").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "header\nrow\nmore\n");
    }

    #[test]
    fn a_file_that_cannot_be_written_in_place_either_is_named_with_both_reasons() {
        let dir = tempfile::tempdir().unwrap();
        let temporary = dir.path().join(".r.csv.results-1.partial");
        fs::write(&temporary, "header\n").unwrap();
        // Gone since: nothing is created in its place.
        let target = dir.path().join("r.csv");
        let renamed = io::Error::from_raw_os_error(libc::EPERM);
        let e = write_in_place(&temporary, &target, renamed).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        let said = e.to_string();
        assert!(
            said.starts_with("Operation not permitted (os error 1): it cannot be replaced")
                && said.contains("in a sticky directory such as /tmp only its owner may")
                && said.contains("cannot be written in place either: No such file"),
            "{said}"
        );
        assert!(!target.exists());
        // The temporary file is the caller's to remove.
        assert!(temporary.exists());
        // A directory there now is not written either.
        fs::create_dir(&target).unwrap();
        let renamed = io::Error::from_raw_os_error(libc::EBUSY);
        let said = write_in_place(&temporary, &target, renamed)
            .unwrap_err()
            .to_string();
        assert!(said.contains("it is a mount point"), "{said}");
    }

    #[test]
    fn only_an_existing_regular_file_the_user_may_not_write_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        // Not there, a directory, a device: nothing to ask.
        writable(&path).unwrap();
        writable(dir.path()).unwrap();
        writable(Path::new("/dev/null")).unwrap();
        fs::write(&path, "old\n").unwrap();
        writable(&path).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
        // SAFETY: geteuid has no preconditions.
        match unsafe { libc::geteuid() } {
            // Root may write it (tests/cli/output_permissions.rs runs the
            // binary as another user).
            0 => writable(&path).unwrap(),
            _ => {
                let e = writable(&path).unwrap_err();
                assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
            }
        }
        // Nothing was created or changed.
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
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
