//! No input is ever overwritten: before a run creates or truncates any
//! file, every file it will write is compared with every file it reads,
//! by identity (device and inode on Unix), not by name. A hard link, a
//! symlink, `./in.txt` against `in.txt`, and stdin redirected from the file
//! (`solve -o in.txt < in.txt`) are all the same file.
//!
//! One [`FileGuard`] collects both sides; each subcommand registers what it
//! reads (inputs, stdin, `--solutions`, `--baseline`, ...) and what it
//! writes (`-o`, stdout, `--summary-json`, exports, ...) and calls
//! [`FileGuard::check`] before opening any output. Only regular files are
//! compared: devices such as `/dev/null` and pipes may be named on both
//! sides. A file that does not exist yet cannot be an input (every
//! subcommand opens its inputs before it creates an output, so a missing
//! input fails as missing).
//!
//! Two outputs that are one file are refused too, since one would
//! overwrite or mix into the other; they are compared by what they will
//! be: an existing file by identity, a name that does not exist yet by
//! where it will be created (its directory resolved, a symbolic link that
//! leads nowhere followed to the name it leads to), so `-o r.csv
//! --summary-html ./r.csv` is refused before either is there; and `-`
//! (stdout) named twice, whatever stdout is.

use std::fs::{self, File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why the files of a run do not fit together.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum GuardError {
    /// An output is one of the inputs.
    #[error(
        "{output_role} {output} is the same file as {input_role} {input}: writing it would \
         destroy that input; nothing was written"
    )]
    OutputIsInput {
        /// The output's flag, e.g. `-o`.
        output_role: String,
        /// The output's name as given.
        output: String,
        /// The input's role, e.g. `input` or `--baseline`.
        input_role: String,
        /// The input's name as given (`-` for stdin).
        input: String,
    },
    /// Two outputs are one file (or both stdout).
    #[error(
        "{first_role} {first} and {second_role} {second} are the same file: one output would \
         overwrite or mix into the other; give each its own file; nothing was written"
    )]
    SameOutput {
        /// The first output's flag.
        first_role: String,
        /// Its name.
        first: String,
        /// The second output's flag.
        second_role: String,
        /// Its name.
        second: String,
    },
}

/// Which file a name stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    Path(PathBuf),
    Stdin,
    Stdout,
}

/// A file the run reads or writes, with the flag or role it came from.
#[derive(Clone, Debug)]
struct Entry {
    role: String,
    target: Target,
}

impl Entry {
    fn name(&self) -> String {
        match &self.target {
            Target::Path(path) => path.display().to_string(),
            Target::Stdin => "- (stdin)".into(),
            Target::Stdout => "- (stdout)".into(),
        }
    }

    /// The file's identity, when it is an existing regular file: what an
    /// input is compared by.
    fn identity(&self) -> Option<Identity> {
        let meta = match &self.target {
            Target::Path(path) => fs::metadata(path).ok(),
            Target::Stdin => std_metadata(StdStream::In),
            Target::Stdout => std_metadata(StdStream::Out),
        }?;
        meta.is_file().then(|| Identity::of(&meta, &self.target))
    }

    /// The file an output will be, for comparing outputs with each other:
    /// its [`identity`](Entry::identity) when it is an existing regular
    /// file, else for a name where it will be created
    /// ([`Identity::Created`]) and for stdout that stream
    /// ([`Identity::Stdout`]). `None` for devices, pipes and names that
    /// cannot be created (their directory is missing): writing such a name
    /// twice overwrites no file, or fails before anything is written.
    fn destination(&self) -> Option<Identity> {
        match &self.target {
            Target::Path(path) => match fs::metadata(path) {
                Ok(meta) => meta.is_file().then(|| Identity::of(&meta, &self.target)),
                Err(_) => to_be_created(path).map(Identity::Created),
            },
            Target::Stdin => self.identity(),
            Target::Stdout => Some(self.identity().unwrap_or(Identity::Stdout)),
        }
    }
}

/// Symbolic links followed from a name that does not exist, at most, as
/// Linux's `open` follows at most 40 (`ELOOP`).
const MAX_LINKS: usize = 40;

/// Where writing `path`, a name that does not exist yet, creates the file:
/// a symbolic link that leads nowhere is followed to the name it leads to
/// (relative to the link's directory), then the directory is resolved
/// ([`fs::canonicalize`]: `.`, `..` and links taken as the system takes
/// them) and the file name joined to it. `None` when the directory does
/// not exist, the name ends in `..`, or the links go round.
fn to_be_created(path: &Path) -> Option<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::read_link(&path) {
            Ok(target) => {
                let directory = path.parent().unwrap_or(Path::new(""));
                path = directory.join(target);
            }
            Err(_) => {
                let name = path.file_name()?;
                let directory = match path.parent() {
                    Some(directory) if !directory.as_os_str().is_empty() => directory,
                    _ => Path::new("."),
                };
                return Some(fs::canonicalize(directory).ok()?.join(name));
            }
        }
    }
    None
}

/// The reads and writes of one run, compared before anything is written.
#[derive(Clone, Debug, Default)]
pub struct FileGuard {
    reads: Vec<Entry>,
    writes: Vec<Entry>,
}

impl FileGuard {
    /// An empty guard.
    pub fn new() -> FileGuard {
        FileGuard::default()
    }

    /// Registers an input named `name` as given on the command line: `-` is
    /// stdin. `role` names it in messages (`input`, `--solutions`, ...).
    pub fn reads(&mut self, role: &str, name: impl AsRef<Path>) -> &mut FileGuard {
        let name = name.as_ref();
        let target = if name.as_os_str() == "-" {
            Target::Stdin
        } else {
            Target::Path(name.to_path_buf())
        };
        self.reads.push(Entry {
            role: role.into(),
            target,
        });
        self
    }

    /// Registers an output named `name`: `-` is stdout. `role` is its flag
    /// (`-o`, `--summary-json`, `--export-csv`, ...).
    pub fn writes(&mut self, role: &str, name: impl AsRef<Path>) -> &mut FileGuard {
        let name = name.as_ref();
        let target = if name.as_os_str() == "-" {
            Target::Stdout
        } else {
            Target::Path(name.to_path_buf())
        };
        self.writes.push(Entry {
            role: role.into(),
            target,
        });
        self
    }

    /// Compares every output with every input by identity, and the
    /// outputs with each other by what they will be (see the module docs).
    /// Reads metadata and symbolic links only: never opens, creates or
    /// reads a file, so it cannot block on a FIFO.
    ///
    /// # Errors
    /// [`GuardError::OutputIsInput`] for the first output that is an input;
    /// [`GuardError::SameOutput`] for two outputs that are one file.
    pub fn check(&self) -> Result<(), GuardError> {
        let reads: Vec<(&Entry, Identity)> = self
            .reads
            .iter()
            .filter_map(|e| Some(e).zip(e.identity()))
            .collect();
        let mut writes: Vec<(&Entry, Identity)> = Vec::new();
        for output in &self.writes {
            let Some(id) = output.destination() else {
                continue;
            };
            if let Some((input, _)) = reads.iter().find(|(_, r)| *r == id) {
                return Err(GuardError::OutputIsInput {
                    output_role: output.role.clone(),
                    output: output.name(),
                    input_role: input.role.clone(),
                    input: input.name(),
                });
            }
            if let Some((first, _)) = writes.iter().find(|(_, w)| *w == id) {
                return Err(GuardError::SameOutput {
                    first_role: first.role.clone(),
                    first: first.name(),
                    second_role: output.role.clone(),
                    second: output.name(),
                });
            }
            writes.push((output, id));
        }
        Ok(())
    }
}

/// What makes a file the same file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    /// Device and inode.
    #[cfg(unix)]
    Inode(u64, u64),
    /// Elsewhere: the canonical path (stdin and stdout cannot be told).
    #[cfg(not(unix))]
    Canonical(Option<PathBuf>),
    /// An output not there yet: the path it will be created at (see
    /// [`to_be_created`]).
    Created(PathBuf),
    /// Standard output that is not a regular file (a pipe, a terminal,
    /// `/dev/null`): every output named `-` goes to it.
    Stdout,
}

impl Identity {
    #[cfg(unix)]
    fn of(meta: &Metadata, _target: &Target) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity::Inode(meta.dev(), meta.ino())
    }

    #[cfg(not(unix))]
    fn of(_meta: &Metadata, target: &Target) -> Identity {
        match target {
            Target::Path(path) => Identity::Canonical(fs::canonicalize(path).ok()),
            _ => Identity::Canonical(None),
        }
    }
}

enum StdStream {
    In,
    Out,
}

/// The metadata of the file behind stdin or stdout (`fstat` of a
/// duplicate of the descriptor).
#[cfg(unix)]
fn std_metadata(stream: StdStream) -> Option<Metadata> {
    use std::os::fd::AsFd;
    let fd = match stream {
        StdStream::In => io::stdin().as_fd().try_clone_to_owned(),
        StdStream::Out => io::stdout().as_fd().try_clone_to_owned(),
    };
    File::from(fd.ok()?).metadata().ok()
}

#[cfg(not(unix))]
fn std_metadata(_stream: StdStream) -> Option<Metadata> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().expect("a temporary directory")
    }

    #[test]
    fn a_hard_link_to_an_input_is_refused_by_any_name() {
        let dir = scratch();
        let input = dir.path().join("in.txt");
        fs::write(&input, "x\n").unwrap();
        let link = dir.path().join("hard.txt");
        fs::hard_link(&input, &link).unwrap();
        let err = FileGuard::new()
            .reads("input", &input)
            .writes("-o", &link)
            .check()
            .unwrap_err();
        assert!(matches!(err, GuardError::OutputIsInput { .. }), "{err}");
        assert!(err.to_string().contains("hard.txt"), "{err}");
        let dotted = dir.path().join(".").join("in.txt");
        assert!(FileGuard::new()
            .reads("--baseline", &input)
            .writes("--summary-json", &dotted)
            .check()
            .is_err());
    }

    #[test]
    fn new_files_devices_and_other_files_pass() {
        let dir = scratch();
        let input = dir.path().join("in.txt");
        fs::write(&input, "x\n").unwrap();
        let other = dir.path().join("other.txt");
        fs::write(&other, "y\n").unwrap();
        let mut guard = FileGuard::new();
        guard
            .reads("input", &input)
            .reads("input", "/dev/null")
            .writes("-o", dir.path().join("new.csv"))
            .writes("--summary-json", &other)
            .writes("--export-csv", "/dev/null");
        assert_eq!(guard.check(), Ok(()));
    }

    #[test]
    fn two_outputs_that_are_one_file_are_refused() {
        let dir = scratch();
        let out = dir.path().join("out.csv");
        fs::write(&out, "").unwrap();
        let link = dir.path().join("link.csv");
        fs::hard_link(&out, &link).unwrap();
        let err = FileGuard::new()
            .writes("-o", &out)
            .writes("--summary-json", &link)
            .check()
            .unwrap_err();
        assert!(matches!(err, GuardError::SameOutput { .. }), "{err}");
    }

    /// Two outputs named alike and under other spellings of one name.
    fn same_output(first: impl AsRef<Path>, second: impl AsRef<Path>) -> bool {
        let err = FileGuard::new()
            .writes("-o", first)
            .writes("--summary-json", second)
            .check();
        matches!(err, Err(GuardError::SameOutput { .. }))
    }

    #[test]
    fn two_outputs_not_there_yet_are_compared_by_where_they_will_be() {
        let dir = scratch();
        let out = dir.path().join("out.csv");
        assert!(same_output(&out, &out));
        assert!(same_output(&out, dir.path().join(".").join("out.csv")));
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        assert!(same_output(&out, sub.join("..").join("out.csv")));
        assert!(!same_output(&out, dir.path().join("other.csv")));
        assert!(!same_output(&out, sub.join("out.csv")));
        // Neither was created.
        assert!(!out.exists());
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_to_the_file_they_will_create() {
        let dir = scratch();
        let out = dir.path().join("out.csv");
        let dangling = dir.path().join("dangling.csv");
        std::os::unix::fs::symlink("out.csv", &dangling).unwrap();
        assert!(same_output(&out, &dangling));
        let chained = dir.path().join("chained.csv");
        std::os::unix::fs::symlink(&dangling, &chained).unwrap();
        assert!(same_output(&chained, &out));
        // A linked directory: the same directory by another path.
        let linked = dir.path().join("linked");
        std::os::unix::fs::symlink(".", &linked).unwrap();
        assert!(same_output(&out, linked.join("out.csv")));
        // Links that go round create nothing: not compared.
        let round = dir.path().join("round.csv");
        std::os::unix::fs::symlink("round.csv", &round).unwrap();
        assert!(!same_output(&round, &out));
        assert!(!out.exists());
    }

    #[test]
    fn stdout_named_twice_is_refused_whatever_it_is() {
        assert!(same_output("-", "-"));
        let dir = scratch();
        assert!(!same_output("-", dir.path().join("out.csv")));
    }

    #[test]
    fn a_name_in_a_missing_directory_is_not_compared() {
        let dir = scratch();
        let out = dir.path().join("missing").join("out.csv");
        assert!(!same_output(&out, &out));
    }
}
