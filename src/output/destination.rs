//! Where an output goes: stdout or a file, named by a flag
//! ([`Destination`]).

use std::path::{Path, PathBuf};

use crate::output::format::Compression;

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
}
