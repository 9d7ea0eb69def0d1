//! The results' format, chosen by the output's name (or `--output-format`):
//! `.csv`, `.txt`, no extension, `-` and files that are not regular
//! (`/dev/null`, a pipe) are CSV; `.parquet` is Parquet; `.jsonl` and
//! `.ndjson` are JSON Lines; `.gz` or `.zst` after a CSV or JSON Lines name
//! compresses it. Any other name is refused before any work starts: never
//! a silently different format.

use std::fmt;
use std::path::Path;

/// A results format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum OutputFormat {
    /// CSV text (RFC 4180), a header line first.
    #[default]
    Csv,
    /// JSON Lines: one JSON object per row, numbers as JSON numbers and
    /// `null` for an empty field.
    Jsonl,
    /// Apache Parquet: typed columns, compressed as
    /// [`ParquetCompression`] says, written in row groups as the run goes.
    Parquet,
}

impl OutputFormat {
    /// The format's name, as `--output-format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Csv => "csv",
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Parquet => "parquet",
        }
    }

    /// The format a name ending in `extension` (without its dot, compared
    /// without regard to case) gives: `None` for an extension that names no
    /// results format.
    pub fn of_extension(extension: &str) -> Option<OutputFormat> {
        match extension.to_ascii_lowercase().as_str() {
            "csv" | "txt" => Some(OutputFormat::Csv),
            "jsonl" | "ndjson" => Some(OutputFormat::Jsonl),
            "parquet" => Some(OutputFormat::Parquet),
            _ => None,
        }
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputFormat::Csv => "CSV",
            OutputFormat::Jsonl => "JSON Lines",
            OutputFormat::Parquet => "Parquet",
        })
    }
}

/// How an output file's bytes are compressed, by its name's last extension.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Written as is.
    #[default]
    None,
    /// gzip (`.gz`).
    Gzip,
    /// zstd (`.zst`).
    Zstd,
}

impl Compression {
    /// The compression a file name asks for: `.gz` is gzip, `.zst` zstd
    /// (without regard to case), anything else none.
    pub fn of_name(path: &Path) -> Compression {
        match extension(path).as_deref() {
            Some("gz") => Compression::Gzip,
            Some("zst") => Compression::Zstd,
            _ => Compression::None,
        }
    }
}

/// How the pages of Parquet results are compressed
/// (`--parquet-compression`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ParquetCompression {
    /// The columns every run writes (`line` to `message`: the grids, the
    /// statuses, the numbers) uncompressed, so that writing keeps the
    /// solver's pace; the others (`file`, the ratings, kept columns) zstd.
    #[default]
    Fast,
    /// Every column uncompressed.
    None,
    /// Every column snappy-compressed.
    Snappy,
    /// Every column zstd-compressed (level 1): the smallest file.
    Zstd,
}

impl ParquetCompression {
    /// Every choice, in the order `--help` lists them.
    pub const ALL: [ParquetCompression; 4] = [
        ParquetCompression::Fast,
        ParquetCompression::None,
        ParquetCompression::Snappy,
        ParquetCompression::Zstd,
    ];

    /// The choice's name, as `--parquet-compression` takes it.
    pub fn name(self) -> &'static str {
        match self {
            ParquetCompression::Fast => "fast",
            ParquetCompression::None => "none",
            ParquetCompression::Snappy => "snappy",
            ParquetCompression::Zstd => "zstd",
        }
    }

    /// The choice named `name` (as [`ParquetCompression::name`] gives it).
    pub fn from_name(name: &str) -> Option<ParquetCompression> {
        ParquetCompression::ALL
            .into_iter()
            .find(|choice| choice.name() == name)
    }
}

/// Why an output's name and `--output-format` do not give a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The name's extension names no results format.
    #[error(
        "-o {name}: `.{extension}` is not a results format; name the output .csv, .txt, \
         .jsonl, .ndjson or .parquet (.gz or .zst after .csv, .txt, .jsonl or .ndjson \
         compresses it), or say which with --output-format csv|jsonl|parquet"
    )]
    UnknownExtension {
        /// The output's name.
        name: String,
        /// The extension that names nothing (after `.gz`/`.zst` is taken off).
        extension: String,
    },
    /// Parquet was asked for in a `.gz` or `.zst` name.
    #[error(
        "-o {name}: Parquet output cannot be gzip- or zstd-compressed as a whole (its columns \
         are compressed inside); name it .parquet"
    )]
    CompressedParquet {
        /// The output's name.
        name: String,
    },
}

/// Refuses an output name that says another format than CSV, for the
/// subcommands that write CSV tables only (`merge`, `generate`, `canon`,
/// `augment`): never a silently different format.
///
/// # Errors
/// A usage message: `who` (e.g. `merge writes`), then the output and the
/// format its name says, or why the name says none.
pub fn require_csv(who: &str, path: Option<&Path>) -> Result<(), String> {
    let name = path.map(|p| p.display().to_string()).unwrap_or_default();
    match choose(path, None) {
        Ok(OutputFormat::Csv) => Ok(()),
        Ok(format) => Err(format!(
            "{who} CSV, but -o {name} names {format}; give a .csv name \
             (.csv.gz and .csv.zst compress it)"
        )),
        Err(e) => Err(format!("{who} CSV: {e}")),
    }
}

/// The format of the output named `path` (`None` for stdout): `explicit`
/// (`--output-format`) when given, else the one its name says.
///
/// # Errors
/// [`FormatError::UnknownExtension`] for a name whose extension (after a
/// `.gz` or `.zst`) names no format and that is not an existing file other
/// than a regular one; [`FormatError::CompressedParquet`] for Parquet in a
/// `.gz` or `.zst` name.
pub fn choose(
    path: Option<&Path>,
    explicit: Option<OutputFormat>,
) -> Result<OutputFormat, FormatError> {
    let Some(path) = path else {
        return Ok(explicit.unwrap_or_default());
    };
    let name = || path.display().to_string();
    let compression = Compression::of_name(path);
    let inner = match compression {
        Compression::None => extension(path),
        Compression::Gzip | Compression::Zstd => {
            path.file_stem().and_then(|stem| extension(Path::new(stem)))
        }
    };
    let format = match (explicit, inner) {
        (Some(format), _) => format,
        (None, None) => OutputFormat::Csv,
        (None, Some(inner)) => match OutputFormat::of_extension(&inner) {
            Some(format) => format,
            // A device or a pipe is named as the system names it (a FIFO
            // in a temporary directory, /dev/fd/3): its results are CSV.
            None if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) => OutputFormat::Csv,
            None => {
                return Err(FormatError::UnknownExtension {
                    name: name(),
                    extension: inner,
                })
            }
        },
    };
    if format == OutputFormat::Parquet && compression != Compression::None {
        return Err(FormatError::CompressedParquet { name: name() });
    }
    Ok(format)
}

/// The name's extension, lower case.
fn extension(path: &Path) -> Option<String> {
    path.extension()
        .map(|ext| ext.to_string_lossy().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_name(name: &str) -> Result<OutputFormat, FormatError> {
        choose(Some(Path::new(name)), None)
    }

    #[test]
    fn names_choose_the_format() {
        for name in [
            "r.csv",
            "r.TXT",
            "results",
            "r.csv.gz",
            "r.txt.zst",
            "r.gz",
            "dir.v2/r",
        ] {
            assert_eq!(by_name(name), Ok(OutputFormat::Csv), "{name}");
        }
        for name in ["r.jsonl", "r.ndjson", "r.jsonl.gz", "r.NDJSON.zst"] {
            assert_eq!(by_name(name), Ok(OutputFormat::Jsonl), "{name}");
        }
        assert_eq!(by_name("r.parquet"), Ok(OutputFormat::Parquet));
        assert_eq!(choose(None, None), Ok(OutputFormat::Csv));
        assert_eq!(
            choose(None, Some(OutputFormat::Parquet)),
            Ok(OutputFormat::Parquet)
        );
    }

    #[test]
    fn other_extensions_are_refused_unless_the_format_is_given() {
        for (name, extension) in [
            ("r.xlsx", "xlsx"),
            ("r.json", "json"),
            ("r.arrow", "arrow"),
            ("r.tsv.gz", "tsv"),
        ] {
            let err = by_name(name).unwrap_err();
            assert_eq!(
                err,
                FormatError::UnknownExtension {
                    name: name.into(),
                    extension: extension.into()
                }
            );
            assert!(err.to_string().contains("--output-format"), "{err}");
        }
        assert!(matches!(
            by_name("r.parquet.gz"),
            Err(FormatError::CompressedParquet { .. })
        ));
        assert!(matches!(
            choose(Some(Path::new("r.zst")), Some(OutputFormat::Parquet)),
            Err(FormatError::CompressedParquet { .. })
        ));
        assert_eq!(
            choose(Some(Path::new("r.xlsx")), Some(OutputFormat::Csv)),
            Ok(OutputFormat::Csv)
        );
        assert_eq!(
            choose(Some(Path::new("r.json.gz")), Some(OutputFormat::Jsonl)),
            Ok(OutputFormat::Jsonl)
        );
    }

    #[test]
    fn devices_are_csv_whatever_their_name() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("results.xlsx");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(choose(Some(&fifo), None), Ok(OutputFormat::Csv));
        assert_eq!(by_name("/dev/null"), Ok(OutputFormat::Csv));
    }

    #[test]
    fn compression_is_the_last_extension() {
        assert_eq!(
            Compression::of_name(Path::new("a.csv.gz")),
            Compression::Gzip
        );
        assert_eq!(
            Compression::of_name(Path::new("a.jsonl.ZST")),
            Compression::Zstd
        );
        assert_eq!(
            Compression::of_name(Path::new("a.gz.csv")),
            Compression::None
        );
        assert_eq!(Compression::of_name(Path::new(".gz")), Compression::None);
    }
}
