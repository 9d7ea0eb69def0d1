//! A CSV table of serde rows written to a [`Destination`]: stdout, a file,
//! or a gzip file (`.gz`). The data-set subcommands write their rows here.

use serde::Serialize;

use crate::error::Error;
use crate::output::staged::StagedFile;
use crate::output::Destination;
use crate::output::Sink;

/// Writes rows of one shape, header first.
pub struct TableWriter {
    csv: csv::Writer<Sink>,
    destination: Destination,
    /// The file written under a temporary name and renamed over the
    /// output when finished ([`TableWriter::create_staged`]); `None` when
    /// written in place. Declared after `csv`, so that a table dropped
    /// unfinished drops its writer before the temporary file is removed.
    staging: Option<StagedFile>,
}

impl TableWriter {
    /// Creates (or truncates) the destination and writes `header`, handed
    /// to the destination at once (see [`TableWriter::flush`]): a run cut
    /// off before its first row, even by SIGKILL, leaves the header.
    ///
    /// # Errors
    /// [`Error::Write`] when the file cannot be created or written,
    /// [`Error::BrokenPipe`] when stdout is closed.
    pub fn create(destination: &Destination, header: &[&str]) -> Result<TableWriter, Error> {
        let sink = Sink::create(destination)
            .map_err(|e| Error::write("results", destination.name(), e))?;
        TableWriter::start(sink, destination, None, header)
    }

    /// As [`TableWriter::create`], but a file that can be renamed over
    /// is written under a temporary name beside it (`output::staged`),
    /// which [`TableWriter::finish`] renames over it (after a failure to
    /// write too, so that it holds the rows written) and
    /// [`TableWriter::discard`] removes, leaving the file as it was (so
    /// does a table dropped unfinished). For a
    /// run from stdin or a pipe, which may be refused part way (see
    /// [`TableWriter::discard`]); stdout, a pipe and a device are written
    /// in place. A run killed (SIGKILL) leaves the temporary file.
    ///
    /// # Errors
    /// As for [`TableWriter::create`].
    pub fn create_staged(destination: &Destination, header: &[&str]) -> Result<TableWriter, Error> {
        let Destination::File { path, compression } = destination else {
            return TableWriter::create(destination, header);
        };
        let Some(staging) = StagedFile::beside(path, "table") else {
            return TableWriter::create(destination, header);
        };
        let sink = staging
            .create("canon or augment run")
            .and_then(|file| Sink::to_file(file, *compression))
            .map_err(|e| Error::write("results", path, e))?;
        TableWriter::start(sink, destination, Some(staging), header)
    }

    /// The writer of `sink`, its header written and handed on.
    fn start(
        sink: Sink,
        destination: &Destination,
        staging: Option<StagedFile>,
        header: &[&str],
    ) -> Result<TableWriter, Error> {
        let mut writer = TableWriter {
            csv: csv::WriterBuilder::new()
                .has_headers(false)
                .buffer_capacity(1 << 16)
                .from_writer(sink),
            destination: destination.clone(),
            staging,
        };
        writer
            .csv
            .write_record(header)
            .map_err(|e| writer.error(e))?;
        writer.flush()?;
        Ok(writer)
    }

    /// Writes one row.
    ///
    /// # Errors
    /// As for [`TableWriter::create`].
    pub fn row(&mut self, row: &impl Serialize) -> Result<(), Error> {
        self.csv.serialize(row).map_err(|e| self.error(e))
    }

    /// Hands the rows written so far to the destination (compressed output is
    /// left to [`TableWriter::finish`], so that it compresses well).
    ///
    /// # Errors
    /// As for [`TableWriter::create`].
    pub fn flush(&mut self) -> Result<(), Error> {
        if self.csv.get_ref().compressed() {
            return Ok(());
        }
        self.csv
            .flush()
            .map_err(|e| Error::write("results", self.destination.name(), e))
    }

    /// Flushes everything and ends the compressed stream; a table written
    /// under a temporary name is renamed over the file, even after a
    /// failure to write it, so that the file holds the rows written (as one
    /// written in place does).
    ///
    /// # Errors
    /// As for [`TableWriter::create`].
    pub fn finish(self) -> Result<(), Error> {
        let TableWriter {
            mut csv,
            destination,
            staging,
        } = self;
        let written = csv.flush().and_then(|()| {
            let sink = csv.into_inner().map_err(|e| e.into_error())?;
            sink.finish()
        });
        let renamed = match staging {
            Some(staging) => staging.commit(),
            None => Ok(()),
        };
        written
            .and(renamed)
            .map_err(|e| Error::write("results", destination.name(), e))
    }

    /// Finishes the table after a run that ended with `ending`: the rows
    /// written before a failure are kept, and the failure, not a flush
    /// error that follows from it, is the one returned.
    ///
    /// # Errors
    /// `ending`'s error, else as for [`TableWriter::finish`].
    /// A failure to write the file says what it holds then.
    pub fn close<T>(self, ending: Result<T, Error>) -> Result<T, Error> {
        let note = self.cut_note();
        let noted = |e: Error| match (&note, e.is_results_write()) {
            (Some(note), true) => e.noting(note),
            _ => e,
        };
        match ending {
            Ok(value) => {
                self.finish().map_err(noted)?;
                Ok(value)
            }
            Err(e) => {
                let _ = self.finish();
                Err(noted(e))
            }
        }
    }

    /// What the file holds after a failure to write it; `None` for stdout
    /// and devices.
    fn cut_note(&self) -> Option<String> {
        self.csv.get_ref().regular_file()?;
        let path = self.destination.name().display();
        Some(match self.csv.get_ref().compressed() {
            true => format!("{path} holds a compressed stream cut short"),
            false => format!(
                "{path} holds the rows written before the failure, the last maybe cut short"
            ),
        })
    }

    /// Ends the table of a run refused part way, on a record it cannot
    /// take (`canon` and `augment` on a grid of another size): the file is
    /// removed, so that no table of part of the inputs is left to pass for
    /// the whole (`merge` leaves none either). Stdout, a device and a
    /// symbolic link are left as they are. A table written under a
    /// temporary name ([`TableWriter::create_staged`]) is removed instead,
    /// and the file left as it was before the run.
    pub fn discard(self) {
        let destination = self.destination.clone();
        let staged = self.staging.is_some();
        // A staged table's temporary file goes with it.
        drop(self);
        if staged {
            return;
        }
        if let Destination::File { path, .. } = destination {
            if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_file()) {
                let _ = std::fs::remove_file(&path);
            }
        }
    }

    fn error(&self, e: csv::Error) -> Error {
        Error::write(
            "results",
            self.destination.name(),
            crate::output::csv_write_error(e),
        )
    }
}
