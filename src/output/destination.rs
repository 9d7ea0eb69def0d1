//! Where an output goes: stdout or a file, named by a flag
//! ([`Destination`]).

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::output::format::Compression;
use crate::output::replace;

/// The name that means stdin or stdout.
pub const STDIO: &str = "-";

/// Where an output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output.
    Stdout,
    /// A file, created, or replaced when it exists (`output/replace.rs`).
    File {
        /// The file's path.
        path: PathBuf,
        /// How the file is compressed: gzip when the name ends in `.gz`,
        /// zstd in `.zst`.
        compression: Compression,
    },
}

impl Destination {
    /// The destination named by a flag: absent or `-` is stdout.
    pub fn from_arg(arg: Option<&Path>) -> Destination {
        match arg {
            None => Destination::Stdout,
            Some(path) if path.as_os_str() == STDIO => Destination::Stdout,
            Some(path) => Destination::File {
                path: path.to_path_buf(),
                compression: Compression::of_name(path),
            },
        }
    }

    /// The name used in messages: the path, or `-` for stdout.
    pub fn name(&self) -> &Path {
        match self {
            Destination::Stdout => Path::new(STDIO),
            Destination::File { path, .. } => path,
        }
    }

    /// Refuses an existing results file that this user may not write (a
    /// read-only file, `chmod 444`), before anything is written: it would
    /// otherwise be replaced by a new file renamed over it, which needs
    /// only the directory's permission, where the shell's `>`, a
    /// `--summary-json` file and `--resume` refuse it. A file not there
    /// yet, stdout, devices and pipes pass.
    ///
    /// # Errors
    /// [`Error::Write`] naming the file, saying it is not writable and left
    /// as it was.
    pub fn refuse_unwritable(&self) -> Result<(), Error> {
        let Destination::File { path, .. } = self else {
            return Ok(());
        };
        replace::writable(path).map_err(|e| {
            Error::write("results", path, e).noting(&format!(
                "{} is not writable for this user, and is left as it was",
                path.display()
            ))
        })
    }
}
