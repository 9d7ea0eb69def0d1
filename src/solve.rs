//! The `solve` subcommand: opens every input, streams the records through
//! the [`pipeline`], writes the results CSV and the summaries.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::time::Instant;

use crate::config::{Config, Destination};
use crate::error::{Error, Verdict};
use crate::input;
use crate::output::ResultsWriter;
use crate::pipeline::{self, Settings, Source, CHUNK_RECORDS};
use crate::progress::{Progress, ProgressOptions};
use crate::stats::{RunInfo, Summary, Tally};

/// Runs `solve` with `config`: every input is opened (and its layout
/// checked) before any work starts, then every record gets a results row,
/// in input order.
///
/// Prints a warning when the inputs hold no puzzle, the human summary on
/// stderr unless `--quiet`, and writes the JSON summary when asked.
///
/// # Errors
/// [`Error::Input`] when an input cannot be opened or read (rows before a
/// read error are written and flushed first); [`Error::Write`] when the
/// results or the summary cannot be written; [`Error::BrokenPipe`] when
/// stdout is closed.
pub fn run(config: &Config) -> Result<(Verdict, Summary), Error> {
    let start = Instant::now();
    let inputs = open_inputs(config)?;
    let names: Vec<String> = inputs.iter().map(|i| i.name().to_string()).collect();
    let total_bytes = inputs.iter().map(input::Input::size).sum::<Option<u64>>();
    let counters = inputs.iter().map(input::Input::consumed).collect();
    let sources = inputs
        .into_iter()
        .map(|i| {
            Ok(Source {
                records: Box::new(i.records(&config.read)?),
            })
        })
        .collect::<Result<Vec<_>, input::InputError>>()?;

    let summary_file = config
        .summary_json
        .as_ref()
        .map(SummaryFile::open)
        .transpose()?;
    let file_column = (names.len() > 1).then(|| names.clone());
    let mut writer = ResultsWriter::create(&config.output, file_column)?;
    let progress = Progress::start(
        &ProgressOptions {
            draw: config.progress,
            color: config.color,
            total_bytes,
        },
        counters,
    );

    let settings = Settings {
        threads: config.threads,
        solver: config.solver,
        mode: config.mode,
        limits: config.limits,
        limit: config.limit,
        chunk_records: CHUNK_RECORDS,
    };
    let mut tally = Tally::new();
    let outcome = pipeline::run(sources, &settings, |batch| {
        writer.write(&batch.results)?;
        tally.merge(&batch.tally);
        progress.update(tally.puzzles);
        Ok(())
    });
    progress.finish();
    if let Err(e) = outcome {
        // Keep the rows finished before the failure. After a write error the
        // flush fails the same way; the first error is the one to report.
        let _ = writer.finish();
        return Err(e);
    }
    writer.finish()?;

    let summary = Summary::new(
        &tally,
        RunInfo {
            inputs: names,
            wall: start.elapsed(),
            threads: config.threads,
            solver: config.solver,
            mode: config.mode,
            interrupted: false,
        },
    );
    if let Some(file) = summary_file {
        file.write(&summary)?;
    }
    if tally.puzzles == 0 {
        eprintln!(
            "sudoku-batch: warning: no puzzles found in {}",
            summary.inputs.join(", ")
        );
    }
    if config.human_summary {
        eprint!("{summary}");
    }
    let verdict = if tally.all_solved() {
        Verdict::Clean
    } else {
        Verdict::Failures
    };
    Ok((verdict, summary))
}

/// Opens every input, in order, failing on the first that cannot be read.
fn open_inputs(config: &Config) -> Result<Vec<input::Input>, Error> {
    config
        .inputs
        .iter()
        .map(|name| input::open(name).map_err(Error::from))
        .collect()
}

/// The `--summary-json` destination, opened before the run so that a bad
/// path fails at once, and written when the run ends.
enum SummaryFile {
    Stdout,
    File {
        file: File,
        destination: Destination,
    },
}

impl SummaryFile {
    fn open(destination: &Destination) -> Result<SummaryFile, Error> {
        match destination {
            Destination::Stdout => Ok(SummaryFile::Stdout),
            Destination::File { path, .. } => OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .map(|file| SummaryFile::File {
                    file,
                    destination: destination.clone(),
                })
                .map_err(|e| Error::write("summary", path.clone(), e)),
        }
    }

    fn write(self, summary: &Summary) -> Result<(), Error> {
        let json = summary.to_json();
        match self {
            SummaryFile::Stdout => {
                let mut out = io::stdout().lock();
                out.write_all(json.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| Error::write("summary", "-", e))
            }
            SummaryFile::File {
                mut file,
                destination,
            } => file
                .metadata()
                // Only a regular file can be cut: a device such as
                // /dev/stderr or /dev/full, or a pipe, cannot.
                .and_then(|meta| {
                    if meta.is_file() {
                        file.set_len(0)
                    } else {
                        Ok(())
                    }
                })
                .and_then(|()| file.write_all(json.as_bytes()))
                .and_then(|()| file.flush())
                .map_err(|e| Error::write("summary", destination.name(), e)),
        }
    }
}
