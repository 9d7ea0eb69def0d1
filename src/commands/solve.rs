//! The `solve` subcommand: opens every input, streams the records through
//! the [`pipeline`], writes the results (CSV, JSON Lines or Parquet) and
//! the summaries.

use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{Error, Verdict};
use crate::input;
use crate::job::config::Config;
use crate::job::pipeline::{self, Batch, Ending, Settings, Source, CHUNK_RECORDS};
use crate::job::resume::{self, Kept, Matching};
use crate::job::shard;
use crate::kept::KeptColumn;
use crate::output::claim;
use crate::output::progress::{Progress, ProgressOptions};
use crate::output::rating::RatingColumns;
use crate::output::stats::{RunInfo, RunOptions, Summary, Tally};
use crate::output::{Destination, OutputFormat, ResultsWriter, Shape};
use crate::process::clock;
use crate::process::interrupt::{Interrupt, Signal, SignalGuard};

/// Runs `solve` with `config`: every input is opened (and its layout
/// checked) before any work starts, then every record gets a results row,
/// in input order.
///
/// Prints a warning when the inputs hold no puzzle, the human summary on
/// stderr unless `--quiet`, and writes the JSON summary when asked.
///
/// While it runs, SIGINT and SIGTERM stop it early: the rows finished so far
/// (as far as they run without a gap) are written and flushed, the summary
/// says `interrupted`, and the verdict is [`Verdict::Interrupted`].
///
/// With `--resume`, the complete rows already in the results file are kept,
/// checked against the inputs and skipped, the rest appended; the summary
/// and the verdict cover the whole file (after a signal that comes before
/// the kept rows are all checked, the rows checked).
///
/// # Errors
/// [`Error::Guard`] when `-o` or `--summary-json` is an input by any name
/// (checked before anything is opened);
/// [`Error::Input`] when an input cannot be opened or read (rows before a
/// read error are written and flushed first); [`Error::Resume`] when the
/// results file cannot be resumed; [`Error::Write`] when the results or the
/// summary cannot be written; [`Error::BrokenPipe`] when stdout is closed.
pub fn run(config: &Config) -> Result<(Verdict, Summary), Error> {
    let (_signals, interrupt) = SignalGuard::install().map_err(Error::Signals)?;
    run_observed_until(config, &interrupt, None::<fn(&Batch) -> Result<(), Error>>)
}

/// [`run`], calling `observe` with each batch of results, in input order,
/// after it is written (`check` verifies results and compares them with a
/// baseline this way). An error from `observe` stops the run like a write
/// error: the rows written so far are kept.
///
/// # Errors
/// As for [`run`], and the first error `observe` returns.
pub fn run_observed(
    config: &Config,
    observe: impl FnMut(&Batch) -> Result<(), Error>,
) -> Result<(Verdict, Summary), Error> {
    let (_signals, interrupt) = SignalGuard::install().map_err(Error::Signals)?;
    run_observed_until(config, &interrupt, Some(observe))
}

/// [`run`] for a library caller that handles signals itself (the Python
/// package): no signal handler is installed; the run stops as for a signal
/// when `interrupt` is raised.
///
/// # Errors
/// As for [`run`].
pub fn run_with_interrupt(
    config: &Config,
    interrupt: &Interrupt,
) -> Result<(Verdict, Summary), Error> {
    run_observed_until(config, interrupt, None::<fn(&Batch) -> Result<(), Error>>)
}

/// [`run_observed`] until `interrupt` is raised; without `observe`, the
/// batches carry no results (their rows and tallies are all it needs).
fn run_observed_until(
    config: &Config,
    interrupt: &Interrupt,
    mut observe: Option<impl FnMut(&Batch) -> Result<(), Error>>,
) -> Result<(Verdict, Summary), Error> {
    let start = Instant::now();
    // Before anything is opened: the output's name must say its format, and
    // no output may be an input by another name.
    let format = config.output_format()?;
    config.file_guard().check()?;
    // A read-only results file is refused as the shell's `>` refuses it,
    // not replaced by a file renamed over it.
    config.output.refuse_unwritable()?;
    // One run writes a results file at a time.
    if let Destination::File { path, .. } = &config.output {
        claim::refuse_if_written(path)?;
    }
    // What runs of the same results file killed outright before their
    // first row left beside it.
    for leftover in ResultsWriter::leftovers(&config.output) {
        crate::stderrln!("sudoku-batch: warning: {leftover}");
    }
    // Opened now (not cut), so that a bad path fails at once. A run that
    // fails once it has written results leaves a summary saying so, never
    // the previous run's; a run refused before that leaves it as it was,
    // as it leaves the results.
    let mut summary_file = config
        .summary_json
        .as_ref()
        .map(SummaryFile::open)
        .transpose()?;
    let mut tally = Tally::new();
    let mut touched = false;
    let outcome = run_opened(
        config,
        interrupt,
        observe.as_mut(),
        format,
        start,
        &mut summary_file,
        &mut tally,
        &mut touched,
    );
    match (&outcome, summary_file) {
        (Err(e), Some(file)) if touched => failed(config, &tally, start, file, e),
        (Err(_), Some(file)) => file.leave(),
        _ => {}
    }
    outcome
}

/// [`run_observed_until`] once the summary file is open: `summary_file` is
/// taken when the summary is written; `tally` counts the rows written;
/// `touched` is set once the results file is created, cut or appended to.
#[allow(clippy::too_many_arguments)]
fn run_opened(
    config: &Config,
    interrupt: &Interrupt,
    mut observe: Option<&mut impl FnMut(&Batch) -> Result<(), Error>>,
    format: OutputFormat,
    start: Instant,
    summary_file: &mut Option<SummaryFile>,
    tally: &mut Tally,
    touched: &mut bool,
) -> Result<(Verdict, Summary), Error> {
    // Opening the inputs reads their first bytes (to tell their layout), and
    // --resume reads the results file: on a thread of their own, so that a
    // signal ends the run at once even while stdin sends nothing.
    let prepared = {
        let config = config.clone();
        move || prepare(&config, format)
    };
    let prepared = interrupt
        .wait_for("open", prepared)
        .map_err(|e| Error::Threads {
            what: "the thread opening the inputs".into(),
            cause: e.to_string(),
        })?;
    let Prepared {
        names,
        total_bytes,
        sources,
        resume,
        shape,
        fit_checked,
        shard_records,
    } = match prepared {
        Ok(prepared) => prepared?,
        Err(signal) => {
            return stopped_before_start(config, format, signal, start, summary_file.take())
        }
    };

    // The tally is this run's rows; with --resume, the kept rows' tally is
    // added once they are all matched (see `resume::Matching::finish`). A
    // resumed file that keeps nothing (none there, or not even a whole
    // header) is written anew, as without --resume: created or replaced at
    // the first row, so that a run refused on its inputs leaves it as it
    // was.
    let (mut writer, kept_rows, limit) = match (&resume, &config.output) {
        (Some((done, _)), Destination::File { path, .. })
            if done.parquet.is_some() || (done.format != OutputFormat::Parquet && done.len > 0) =>
        {
            let writer = match &done.parquet {
                Some(metadata) => ResultsWriter::continue_parquet(
                    path,
                    &shape,
                    config.parquet_compression.unwrap_or_default(),
                    metadata,
                )?,
                None => ResultsWriter::append(
                    path,
                    done.format,
                    &shape,
                    done.len,
                    config.output_delimiter,
                )?,
            };
            (
                writer,
                done.rows,
                config.limit.map(|n| n.saturating_sub(done.rows)),
            )
        }
        _ => {
            let created = ResultsWriter::create(
                &config.output,
                format,
                &shape,
                config.output_delimiter,
                config.parquet_compression.unwrap_or_default(),
            );
            // Created or cut, even when the header then failed (a full
            // disk); not when it could not be opened at all (no such
            // directory), nor while it waits for the first row to be
            // created or replaced (`ResultsWriter::publish`).
            *touched = match &created {
                Ok(writer) => !writer.held_back(),
                Err(_) => {
                    matches!(&config.output, Destination::File { path, .. } if path.exists())
                }
            };
            (created?, 0, config.limit)
        }
    };
    // A shard's records are already cut at the limit (see `prepare`).
    let limit = if config.shard.is_some() { None } else { limit };
    let progress = Progress::start(
        &ProgressOptions {
            draw: config.progress,
            color: config.color,
            total_bytes,
            kept: kept_rows,
        },
        vec![],
    );

    // Text rows are formatted on the workers, and Parquet's columns built
    // there: without an observer the results are not needed here.
    let rows = writer.row_format();
    let settings = Settings {
        threads: config.threads,
        solver: config.solver,
        mode: config.mode,
        limits: config.limits,
        limit,
        chunk_records: CHUNK_RECORDS,
        rate: config.rating != RatingColumns::None,
        results: observe.is_some(),
        nine_boxes: config.read.sizes.nine_boxes(),
    };
    // Stdout closed early; with `finish_when_stdout_closes` the later
    // records are still solved and observed, but not written.
    let mut stdout_closed = false;
    let outcome = pipeline::run_until(sources, &settings, interrupt, Some(rows), |batch| {
        // Observed before it is written: a refusal in the first batch
        // (`check --baseline`'s first rows) leaves the results file as it
        // was.
        if let Some(observe) = &mut observe {
            observe(batch)?;
        }
        if !stdout_closed {
            *touched |= batch.results().next().is_some()
                || batch.has_text()
                || batch.columns().is_some_and(|c| c.rows() > 0);
            if *touched {
                writer.publish()?;
            }
            match writer.write_formatted(batch.result_runs(), &batch.texts(), batch.columns()) {
                Err(Error::BrokenPipe) if config.finish_when_stdout_closes => {
                    stdout_closed = true;
                }
                written => written?,
            }
        }
        tally.merge(&batch.tally);
        progress.update_to(kept_rows + tally.puzzles, batch.bytes_read);
        Ok(())
    });
    progress.finish();
    let ending = match outcome {
        Ok(ending) => ending,
        // Keep the rows finished before the failure; after a failure to
        // write them, say what the results file holds, and count in the
        // summary the rows of a Parquet file read back (those handed to its
        // writer may not all have reached it).
        Err(e) => {
            let (e, held) = writer.finish_after(e, kept_rows + tally.puzzles);
            if let Some(held) = held {
                *tally = held;
            }
            return Err(e);
        }
    };
    let interrupted = match ending {
        Ending::Finished => interrupt.signal(),
        Ending::Interrupted(signal) => Some(signal),
    };
    // Before the results are ended: a resumed run refused here appended
    // nothing, and a continued Parquet file must not replace the old one.
    let kept_tally = match &resume {
        Some((_, matching)) => match matching.finish(interrupted.is_some()) {
            Ok(kept) => Some(kept),
            Err(e) => {
                let _ = writer.leave_unchanged();
                return Err(e.into());
            }
        },
        None => None,
    };
    if interrupted.is_some() && writer.held_back() {
        // Stopped before its first row: nothing to write, and the results
        // file stays as it was (or is not created), as for a refusal.
        if let Some(left) = writer.leave_unchanged() {
            crate::stderrln!("sudoku-batch: {left}: the run was stopped before its first row");
        }
    } else if let Err(failed) = writer.finish_counted() {
        match *failed {
            (Error::BrokenPipe, _) if config.finish_when_stdout_closes => stdout_closed = true,
            (e, held) => {
                if let Some(held) = held {
                    *tally = held;
                }
                return Err(e);
            }
        }
    }
    if stdout_closed {
        crate::stderrln!(
            "sudoku-batch: standard output closed early; all {} {} still solved and checked",
            crate::process::words::count(tally.puzzles, "record", "records"),
            crate::process::words::noun(tally.puzzles, "was", "were")
        );
    }
    if let Some(kept) = kept_tally {
        tally.merge(&kept);
    }
    // Inputs read once (a pipe) could not be checked before the run: only a
    // run that read every record knows that none fits.
    if interrupted.is_none() && !fit_checked {
        if let Some(why) = config.read.sizes.unfit(tally.sides, tally.puzzles) {
            unfit_after_the_run(config, resume.is_some(), why)?;
        }
    }
    let kept_columns: Vec<String> = shape.kept.iter().map(|c| c.name.clone()).collect();
    if let Some(warning) = tally.unfit_texts.warning(format, &names, &kept_columns) {
        crate::stderrln!("sudoku-batch: warning: {warning}");
    }
    let (verdict, mut summary) = report(
        config,
        names,
        tally,
        start,
        interrupted,
        summary_file.take(),
    )?;
    summary.shard_of = shard_records.map(|n| n.load(Ordering::Relaxed));
    Ok((verdict, summary))
}

/// What is ready before the run: the opened inputs, the results' shape
/// (with the input columns every row keeps, `--keep`) and, with
/// `--resume`, the rows already in the results file.
struct Prepared {
    names: Vec<String>,
    total_bytes: Option<u64>,
    sources: Vec<Source>,
    resume: Option<(Kept, Matching)>,
    shape: Shape,
    /// `--box` and `--symbols` were checked against the inputs before the
    /// run ([`refuse_unfit`]): false when an input can be read only once.
    fit_checked: bool,
    /// With `--shard`, the records of the whole inputs read so far, every
    /// shard's ([`shard::select`]).
    shard_records: Option<Arc<AtomicU64>>,
}

/// Opens every input, in order, failing on the first that cannot be read
/// or is refused (a grid file under `--format auto`), and with `--resume` reads the results file.
fn prepare(config: &Config, format: OutputFormat) -> Result<Prepared, Error> {
    let inputs = open_inputs(config)?;
    let names: Vec<String> = inputs.iter().map(|i| i.name().to_string()).collect();
    let total_bytes = inputs.iter().map(input::Input::size).sum::<Option<u64>>();
    // Parquet output types each kept column once, for every row.
    let read = input::ReadOptions {
        kept_types: format == OutputFormat::Parquet,
        ..config.read.clone()
    };
    let mut opened = inputs
        .into_iter()
        .map(|i| {
            let bytes_read = Some(i.consumed());
            Ok((i.records(&read)?, bytes_read))
        })
        .collect::<Result<Vec<_>, input::InputError>>()?;
    let formats: Vec<(&str, input::Format)> = opened
        .iter()
        .map(|(records, _)| (records.name(), records.format()))
        .collect();
    input::options_apply(&formats, &read)?;
    drop(formats);
    refuse_later_inputs(config, &read)?;
    let fit_checked = refuse_unfit(config, &read)?;
    // The run's kept columns hold every input's (see `input::layout`).
    let own: Vec<(&str, Vec<KeptColumn>)> = opened
        .iter()
        .map(|(records, _)| (records.name(), records.kept_columns()))
        .collect();
    let mut layout = input::layout(&config.read.keep, &own)?;
    drop(own);
    let types = match config.keep_types.is_empty() {
        true => None,
        false => {
            Some(input::kept_types(&config.keep_types, &mut layout.columns).map_err(Error::Usage)?)
        }
    };
    if let Some(types) = &types {
        refuse_unfit_types(config, &read, &layout.maps, types)?;
    }
    for ((records, _), map) in opened.iter_mut().zip(layout.maps) {
        if let Some(map) = map {
            records.set_kept_map(map);
        }
        if let Some(types) = &types {
            records.set_kept_types(types.clone());
        }
    }
    let sources: Vec<Source> = opened
        .into_iter()
        .map(|(records, bytes_read)| Source {
            records: Box::new(records),
            bytes_read,
        })
        .collect();
    // Sharding numbers the records of the whole inputs, so it comes before
    // --resume, which skips the shard's own rows already written.
    let (sources, shard_records) = match config.shard {
        Some(shard) => {
            let (sources, numbered) = shard::select(sources, shard, config.limit);
            (sources, Some(numbered))
        }
        None => (sources, None),
    };
    let shape = Shape {
        files: (names.len() > 1).then(|| names.clone()),
        kept: layout.columns,
        blank: config.blank,
        rating: config.rating,
    };
    let (sources, resume) = match &config.output {
        Destination::File { path, .. } if config.resume => {
            let done = match format {
                OutputFormat::Parquet => resume::scan_parquet(path, &names, &shape, config.rating)?,
                _ => resume::scan(
                    path,
                    format,
                    &names,
                    &shape.column_names(),
                    config.rating,
                    config.output_delimiter,
                )?,
            };
            // The previous run's summary, where this run writes its own,
            // tells the options it ran with.
            if let Some(Destination::File { path: summary, .. }) = &config.summary_json {
                if let Ok(text) = std::fs::read_to_string(summary) {
                    let run = Summary::new(
                        &Tally::new(),
                        run_info(config, names.clone(), Instant::now(), false),
                    );
                    resume::check_summary(path, summary, &text, &run)?;
                }
            }
            let options = resume::RowOptions {
                blank: config.blank,
                solver: config.solver,
                mode: config.mode,
                max_guesses: config.limits.max_guesses,
                timeout_ms: run_info(config, Vec::new(), Instant::now(), false)
                    .options
                    .timeout_ms,
                nine_boxes: config.read.sizes.nine_boxes(),
                rated: config.rating != RatingColumns::None,
            };
            let (sources, matching) = resume::skip_kept(&done, &names, sources, options)?;
            (sources, Some((done, matching)))
        }
        _ => (sources, None),
    };
    Ok(Prepared {
        names,
        total_bytes,
        sources,
        resume,
        shape,
        fit_checked,
        shard_records,
    })
}

/// Refuses now an input after the first that its first records refuse
/// (its puzzle column unclear on the records read ahead): found when the
/// run got to it, the refusal came once the rows of the inputs before it
/// had replaced the results file. Each such input that is a regular file
/// is opened once more and its first record read (the records read
/// ahead, up to 1,000 or 4 MiB, then dropped); one read once (stdin, a
/// pipe) is still refused when the run gets to it, and the message then
/// says what the results file holds. With `--column` or `--keep`, every
/// input's first record was read when it was opened ([`input::Input::records`]).
fn refuse_later_inputs(config: &Config, read: &input::ReadOptions) -> Result<(), Error> {
    if read.column.is_some() || !read.keep.is_nothing() {
        return Ok(());
    }
    for path in config.input_paths.iter().skip(1) {
        if !input::read_twice(std::slice::from_ref(path)) {
            continue;
        }
        if let Some(Err(e)) = reread(path, read)?.next() {
            return Err(e.into());
        }
    }
    Ok(())
}

/// Refuses `--box` or `--symbols` that fits none of the records before
/// anything is written: the inputs are read once more up to the first
/// record that fits (the first, as a rule), or to their end (within
/// `--limit`). The whole inputs, whatever `--shard` and `--resume` leave
/// this run: the check is there to catch a mistyped option, and one record
/// of the inputs that fits shows the option is meant. Returns false when
/// the inputs could not be checked: only regular files can be read twice,
/// so a run from stdin or a pipe finds out at its end
/// ([`unfit_after_the_run`]).
fn refuse_unfit(config: &Config, read: &input::ReadOptions) -> Result<bool, Error> {
    let sizes = &config.read.sizes;
    if sizes.shape.is_none() && sizes.symbols.is_none() {
        return Ok(true);
    }
    if !input::read_twice(&config.input_paths) {
        return Ok(false);
    }
    let (mut sides, mut records) = (0u128, 0u64);
    for path in &config.input_paths {
        for record in reread(path, read)? {
            if config.limit.is_some_and(|limit| records >= limit) {
                break;
            }
            let record = record?;
            records += 1;
            sides |= record.side_bit();
            if sizes.unfit(sides, records).is_none() {
                return Ok(true);
            }
        }
    }
    match sizes.unfit(sides, records) {
        Some(why) => Err(Error::Input(input::InputError::NotApplicable(why))),
        None => Ok(true),
    }
}

/// What a run from stdin or a pipe does when, once every record is read,
/// `--box` or `--symbols` fitted none (`why`): a whole run is refused (its
/// rows are written by then, as docs/sizes.md says). A shard saw only its
/// own records (the others are never read as grids), so it cannot tell,
/// and a resumed run has appended its rows (a refused `--resume` appends
/// nothing): both warn instead.
///
/// # Errors
/// The refusal, for a whole run.
fn unfit_after_the_run(config: &Config, resumed: bool, why: String) -> Result<(), Error> {
    let warning = match (config.shard, resumed) {
        (Some(shard), _) => format!(
            "among the records of shard {shard}: {why} (the other shards' records, read once \
             from a pipe, were not looked at)"
        ),
        (None, true) => format!(
            "{why} (found once the rows were appended: an input read once from a pipe cannot \
             be checked before)"
        ),
        (None, false) => return Err(Error::Input(input::InputError::NotApplicable(why))),
    };
    crate::stderrln!("sudoku-batch: warning: {warning}");
    Ok(())
}

/// Refuses a `--keep-types` cast that fits no value of its column before
/// anything is written (a mistyped type would make every record
/// `malformed`): the inputs are read once more, as [`refuse_unfit`] reads
/// them, up to the first record where every cast has fitted a value (the
/// first, as a rule), or to their end (within `--limit`). `maps` are the
/// inputs' kept maps ([`input::layout`]). From stdin or a pipe, which
/// cannot be read twice, each refused value's record is `malformed`, as
/// it is beside values that fit.
fn refuse_unfit_types(
    config: &Config,
    read: &input::ReadOptions,
    maps: &[Option<Vec<Option<usize>>>],
    types: &input::KeptTypes,
) -> Result<(), Error> {
    if !input::read_twice(&config.input_paths) {
        return Ok(());
    }
    let mut fit = input::KeptFit::new(types.clone());
    let mut records = 0u64;
    for ((path, name), map) in config.input_paths.iter().zip(&config.inputs).zip(maps) {
        let mut source = reread(path, read)?;
        if let Some(map) = map {
            source.set_kept_map(map.clone());
        }
        for record in source {
            if config.limit.is_some_and(|limit| records >= limit) {
                break;
            }
            records += 1;
            if fit.record(name, &record?) {
                return Ok(());
            }
        }
    }
    match fit.unfit() {
        Some(why) => Err(Error::Input(input::InputError::NotApplicable(why))),
        None => Ok(()),
    }
}

/// The records of the input file at `path` read once more, for a check
/// before the run ([`refuse_unfit`], [`refuse_unfit_types`]): without
/// `--solutions`, which the checks do not need and which may be a pipe
/// (`--solutions -`) that only the run itself can read.
fn reread(path: &std::path::Path, read: &input::ReadOptions) -> Result<input::Records, Error> {
    let read = input::ReadOptions {
        solutions: None,
        ..read.clone()
    };
    Ok(input::open_path(path)?.records(&read)?)
}

/// Ends a run that a signal stopped while the inputs were being opened:
/// a results file is left as it was, or not created (so is a resumed
/// one); stdout gets the table's start (a CSV header).
fn stopped_before_start(
    config: &Config,
    format: OutputFormat,
    signal: Signal,
    start: Instant,
    summary_file: Option<SummaryFile>,
) -> Result<(Verdict, Summary), Error> {
    let names = config.inputs.clone();
    if !config.resume {
        let shape = Shape {
            files: (names.len() > 1).then(|| names.clone()),
            kept: Vec::new(),
            blank: config.blank,
            rating: config.rating,
        };
        let left = ResultsWriter::create(
            &config.output,
            format,
            &shape,
            config.output_delimiter,
            config.parquet_compression.unwrap_or_default(),
        )?
        .leave_unchanged();
        if let Some(left) = left {
            crate::stderrln!("sudoku-batch: {left}: the run was stopped before its first row");
        }
    }
    report(
        config,
        names,
        &Tally::new(),
        start,
        Some(signal),
        summary_file,
    )
}

/// Writes the summaries of a run that is over and gives its verdict.
fn report(
    config: &Config,
    names: Vec<String>,
    tally: &Tally,
    start: Instant,
    interrupted: Option<Signal>,
    summary_file: Option<SummaryFile>,
) -> Result<(Verdict, Summary), Error> {
    let summary = Summary::new(tally, run_info(config, names, start, interrupted.is_some()));
    if let Some(file) = summary_file {
        match file.write(&summary) {
            // Stdout closed early: the verdict still counts.
            Err(Error::BrokenPipe) if config.finish_when_stdout_closes => {}
            written => written?,
        }
    }
    if let Some(path) = &config.summary_html {
        crate::output::plot::summary::write_page(path, &summary, tally)?;
    }
    if tally.puzzles == 0 && interrupted.is_none() {
        // Say what stopped the reading when the inputs may well hold puzzles.
        let within = match (config.limit, &config.shard) {
            (Some(0), _) => " (--limit 0 reads none)".to_string(),
            (Some(limit), Some(shard)) => {
                format!(
                    " for shard {shard} among the first {} (--limit)",
                    crate::process::words::count(limit, "record", "records")
                )
            }
            (_, Some(shard)) => format!(" for shard {shard}"),
            _ => String::new(),
        };
        crate::stderrln!(
            "sudoku-batch: warning: no puzzles found in {}{within}",
            summary.inputs.join(", ")
        );
    }
    if config.human_summary {
        crate::stderr!("{summary}");
        if let Some(warning) = busy_machine(config.resume, &summary, clock::process_cpu()) {
            crate::stderrln!("sudoku-batch: warning: {warning}");
        }
    }
    let verdict = if let Some(signal) = interrupted {
        Verdict::Interrupted(signal)
    } else if tally.all_solved() {
        Verdict::Clean
    } else {
        Verdict::Failures
    };
    Ok((verdict, summary))
}

/// Seconds by which the solve times must exceed the CPU time used before
/// [`busy_machine`] speaks: a short run's figures (a test's, an example's)
/// say little, and runs a benchmarker reads take seconds.
const BUSY_MARGIN_S: f64 = 0.5;

/// Why the solve times of `summary` overstate the work, when they do: they
/// are clock time on each worker's thread, so on a machine busy with other
/// work they count the waits for a core, and their sum then exceeds the CPU
/// time the whole process used (`cpu`), which it never does on a quiet one
/// (the process also reads, writes and starts). A `resumed` run's figures
/// cover rows of earlier runs: not compared.
fn busy_machine(resumed: bool, summary: &Summary, cpu: Option<Duration>) -> Option<String> {
    let (solve_s, cpu_s) = (summary.solve_cpu_s?, cpu?.as_secs_f64());
    (!resumed && solve_s > 1.5 * cpu_s + BUSY_MARGIN_S).then(|| {
        format!(
            "the solve times add up to {solve_s:.3} s, and the process used {cpu_s:.3} s of CPU: \
             the machine was busy, and each puzzle's solve_us (its clock time on its thread) \
             counts the waits for a core, as do solve_cpu_s and the percentiles"
        )
    })
}

/// The run as its summary describes it.
fn run_info(config: &Config, names: Vec<String>, start: Instant, interrupted: bool) -> RunInfo {
    RunInfo {
        inputs: names,
        wall: start.elapsed(),
        threads: config.threads,
        solver: config.solver,
        mode: config.mode,
        interrupted,
        options: RunOptions {
            shard: config.shard.map(|s| s.to_string()),
            limit: config.limit,
            max_guesses: config.limits.max_guesses,
            timeout_ms: config
                .limits
                .timeout
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            blank: match config.blank {
                crate::output::Blank::Dot => ".".into(),
                crate::output::Blank::Zero => "0".into(),
            },
            boxes: config.read.sizes.shape.map(|s| s.to_string()),
            symbols: config.read.sizes.symbols.as_ref().map(|s| match s {
                sudoku_core::sizes::Symbols::Numbers => "numbers".to_string(),
                sudoku_core::sizes::Symbols::ZeroNumbers => "numbers0".to_string(),
                other => other.label(sudoku_core::sizes::MAX_SIDE),
            }),
        },
        rated: config.rating != RatingColumns::None,
    }
}

/// Writes the summary of a run that failed with `error`: its figures
/// cover the rows written before the failure and `error` says why, so the
/// previous run's summary is never left as if it were this one's. When even
/// that cannot be written (a full disk), the file is removed rather than
/// left empty or stale.
fn failed(config: &Config, tally: &Tally, start: Instant, file: SummaryFile, error: &Error) {
    let mut summary = Summary::new(tally, run_info(config, config.inputs.clone(), start, false));
    summary.error = Some(error.to_string());
    // The run's own error is the one reported.
    let _ = file.write(&summary);
}

/// Opens every input, in order, failing on the first that cannot be read.
fn open_inputs(config: &Config) -> Result<Vec<input::Input>, Error> {
    config
        .input_paths
        .iter()
        .map(|path| input::open_path(path).map_err(Error::from))
        .collect()
}

/// The `--summary-json` destination, opened before the run so that a bad
/// path fails at once, and written when the run ends.
enum SummaryFile {
    Stdout,
    File {
        file: File,
        destination: Destination,
        /// The file was there before the run opened it.
        existed: bool,
    },
}

impl SummaryFile {
    fn open(destination: &Destination) -> Result<SummaryFile, Error> {
        match destination {
            Destination::Stdout => Ok(SummaryFile::Stdout),
            Destination::File { path, .. } => {
                let existed = std::fs::symlink_metadata(path).is_ok();
                OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(path)
                    .map(|file| SummaryFile::File {
                        file,
                        destination: destination.clone(),
                        existed,
                    })
                    .map_err(|e| Error::write("summary", path.clone(), e))
            }
        }
    }

    /// Leaves the file as it was before the run: unwritten, and removed
    /// when the run created it (a run refused before it wrote anything).
    fn leave(self) {
        if let SummaryFile::File {
            file,
            destination,
            existed: false,
        } = self
        {
            if file
                .metadata()
                .is_ok_and(|meta| meta.is_file() && meta.len() == 0)
            {
                let _ = std::fs::remove_file(destination.name());
            }
        }
    }

    /// Writes `summary`, replacing what the file held. A regular file that
    /// cannot be written is removed: neither the previous run's summary nor
    /// a part of this one's is left.
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
                ..
            } => {
                let regular = file.metadata().is_ok_and(|meta| meta.is_file());
                // Only a regular file can be cut: a device such as
                // /dev/stderr or /dev/full, or a pipe, cannot.
                let written = if regular { file.set_len(0) } else { Ok(()) }
                    .and_then(|()| file.write_all(json.as_bytes()))
                    .and_then(|()| file.flush());
                if let (Err(_), true) = (&written, regular) {
                    let _ = std::fs::remove_file(destination.name());
                }
                written.map_err(|e| Error::write("summary", destination.name(), e))
            }
        }
    }
}

/// What `solve` and `check` say on stderr before reading puzzles from
/// stdin when it is a terminal (no input named, or `-`): without it, a run
/// waiting for typed lines looks like one that hangs. Not with `--quiet`.
pub fn stdin_hint(config: &Config, stdin_is_terminal: bool) -> Option<&'static str> {
    (stdin_is_terminal && config.human_summary && config.inputs.iter().any(|name| name == "-"))
        .then_some(
            "sudoku-batch: reading puzzles from stdin (the terminal), one per line; \
             Ctrl-D ends the input",
        )
}

/// Writes [`stdin_hint`]'s line when it applies.
pub fn say_when_reading_a_terminal(config: &Config) {
    if let Some(hint) = stdin_hint(config, std::io::stdin().is_terminal()) {
        crate::stderrln!("{hint}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A summary whose solve times add up to `solve_s` seconds.
    fn summary(solve_s: f64) -> Summary {
        let mut summary = Summary::new(&Tally::new(), RunInfo::example());
        summary.solve_cpu_s = Some(solve_s);
        summary
    }

    #[test]
    fn solve_times_beyond_the_cpu_used_say_the_machine_was_busy() {
        let cpu = |s: f64| Some(Duration::from_secs_f64(s));
        let warning = busy_machine(false, &summary(11.97), cpu(1.43)).unwrap();
        assert!(
            warning.contains("11.970 s") && warning.contains("1.430 s") && warning.contains("busy"),
            "{warning}"
        );
        // A quiet machine: the solve times are part of the CPU used.
        assert_eq!(busy_machine(false, &summary(1.2), cpu(1.43)), None);
        // Short runs: a margin.
        assert_eq!(busy_machine(false, &summary(0.46), cpu(0.07)), None);
        // Resumed (rows of earlier runs), untimed, or no CPU time to compare.
        assert_eq!(busy_machine(true, &summary(11.97), cpu(1.43)), None);
        let mut untimed = summary(11.97);
        untimed.solve_cpu_s = None;
        assert_eq!(busy_machine(false, &untimed, cpu(1.43)), None);
        assert_eq!(busy_machine(false, &summary(11.97), None), None);
        // The process's own CPU time is read, and grows.
        let before = clock::process_cpu().unwrap();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(clock::process_cpu().unwrap() > before, "{x}");
    }
}
