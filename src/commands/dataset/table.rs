//! A CSV table of serde rows written to a [`Destination`]: stdout, a file,
//! or a gzip file (`.gz`). The data-set subcommands write their rows here.

use std::io;

use serde::Serialize;

use crate::error::Error;
use crate::output::Destination;
use crate::output::Sink;

/// Writes rows of one shape, header first.
pub struct TableWriter {
    csv: csv::Writer<Sink>,
    destination: Destination,
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
        let mut writer = TableWriter {
            csv: csv::WriterBuilder::new()
                .has_headers(false)
                .buffer_capacity(1 << 16)
                .from_writer(sink),
            destination: destination.clone(),
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

    /// Flushes everything and ends the compressed stream.
    ///
    /// # Errors
    /// As for [`TableWriter::create`].
    pub fn finish(mut self) -> Result<(), Error> {
        let name = self.destination.name().to_path_buf();
        self.csv
            .flush()
            .map_err(|e| Error::write("results", name.clone(), e))?;
        let sink = self
            .csv
            .into_inner()
            .map_err(|e| Error::write("results", name.clone(), e.into_error()))?;
        sink.finish().map_err(|e| Error::write("results", name, e))
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
    /// symbolic link are left as they are.
    pub fn discard(self) {
        let destination = self.destination.clone();
        drop(self);
        if let Destination::File { path, .. } = destination {
            if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_file()) {
                let _ = std::fs::remove_file(&path);
            }
        }
    }

    fn error(&self, e: csv::Error) -> Error {
        let source = match e.into_kind() {
            csv::ErrorKind::Io(io) => io,
            // Rows are plain strings and numbers: serializing cannot fail.
            kind => io::Error::other(format!("{kind:?}")),
        };
        Error::write("results", self.destination.name(), source)
    }
}
