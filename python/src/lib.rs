//! `sudoku_batch._native`: the extension module behind the `sudoku_batch`
//! Python package. The package's Python code turns the caller's puzzles
//! into Arrow arrays or a list and calls `solve`; every puzzle is solved
//! by the `sudoku-batch` library ([`sudoku_batch::job::in_memory`]) on its own thread
//! pool while the GIL is released. `solve_file` runs the `solve`
//! subcommand's job on files.

mod arrow_ffi;
mod puzzles;
mod results;

use std::path::{Path, PathBuf};
use std::time::Duration;

use arrow_array::StructArray;
use pyo3::exceptions::{
    PyFileNotFoundError, PyOSError, PyPermissionError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::PyList;
use sudoku_batch::error::Error;
use sudoku_batch::input::{Column, Delimiter, Format, InputError, Keep, ReadOptions, SizeOptions};
use sudoku_batch::job::config::Config;
use sudoku_batch::job::in_memory::{unfit, BatchOptions, BatchSolver};
use sudoku_batch::job::shard::Shard;
use sudoku_batch::kept::KeptCast;
use sudoku_batch::output::format::OutputFormat;
use sudoku_batch::output::rating::RatingColumns;
use sudoku_batch::output::result::PuzzleResult;
use sudoku_batch::output::{check_delimiter, Blank, Compression, Destination, ParquetCompression};
use sudoku_batch::process::interrupt::{Interrupt, Signal};
use sudoku_core::sizes::{Shape, Symbols};
use sudoku_core::solver::{Limits, Mode, SolverKind};

use crate::arrow_ffi::{import_array, ArrowBatch};
use crate::puzzles::{Items, Part, Puzzles};

/// How often a call waiting for the solver threads looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Solves the puzzles of `parts` (each an object with `__arrow_c_array__`
/// or a list) and returns the results as batches in input order, each an
/// object with `__arrow_c_array__` (a struct array of the result columns).
/// Grids of other sizes than 9x9 are read with `symbols` and `shape` (the
/// Python `box=`), as `--symbols` and `--box` say; `box=1x9` or `9x1`
/// gives 9x9 grids those boxes, and options that fit no puzzle raise
/// `ValueError` before any is solved, as the command line refuses them,
/// unless the puzzles are not `whole` (a part of a larger set: a Dask
/// partition, a batch of a Polars LazyFrame, whose other parts may hold
/// the grids the options are for). With `rate`, each solved
/// puzzle is rated and the batches have `solve --rate`'s two more columns.
#[pyfunction]
#[pyo3(signature = (
    parts, *, mode = "unique", threads = None, max_guesses = None, symbols = None, shape = None,
    rate = false, whole = true,
))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    parts: &Bound<'_, PyList>,
    mode: &str,
    threads: Option<usize>,
    max_guesses: Option<u64>,
    symbols: Option<&str>,
    shape: Option<&str>,
    rate: bool,
    whole: bool,
) -> PyResult<Vec<ArrowBatch>> {
    simd_level()?;
    let sizes = size_options(symbols, shape)?;
    let options = BatchOptions {
        threads,
        solver: SolverKind::Fast,
        mode: parse_mode(mode)?,
        limits: Limits {
            max_guesses,
            timeout: None,
        },
        rate,
        nine_boxes: sizes.nine_boxes(),
    };
    let columns = if rate {
        results::rated_to_arrow
    } else {
        results::to_arrow
    };
    solve_parts(py, parts, &options, &sizes, whole, columns, "solve")
}

/// Rates the puzzles of `parts` on the Sudoku Explainer scale (each is
/// solved first, as `solve` does; only a solved one is rated) and returns
/// the rating columns as batches in input order.
#[pyfunction]
#[pyo3(signature = (parts, *, threads = None, symbols = None, shape = None))]
fn rate(
    py: Python<'_>,
    parts: &Bound<'_, PyList>,
    threads: Option<usize>,
    symbols: Option<&str>,
    shape: Option<&str>,
) -> PyResult<Vec<ArrowBatch>> {
    simd_level()?;
    let sizes = size_options(symbols, shape)?;
    let options = BatchOptions {
        threads,
        solver: SolverKind::Fast,
        mode: Mode::Unique,
        limits: Limits::default(),
        rate: true,
        nine_boxes: sizes.nine_boxes(),
    };
    solve_parts(
        py,
        parts,
        &options,
        &sizes,
        true,
        results::rate_to_arrow,
        "rate",
    )
}

/// Refuses a `SUDOKU_BATCH_SIMD` that names no level, or one this CPU
/// lacks, with the command line's message (`SUDOKU_BATCH_SIMD=AVX2:
/// unknown level; the levels are scalar, avx2 and avx512`), as the command
/// line does, so a measurement never names a level it did not use. The
/// variable is read once per process, at the first call.
fn simd_level() -> PyResult<()> {
    sudoku_core::solver::Simd::chosen()
        .map(drop)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// How grids of other sizes than 9x9 are read: `symbols` as `--symbols`
/// takes it (`1-9A-Z`, `0-9A-Z`, `A-Z`, `numbers` or the n symbols in
/// order), `shape` as `--box` (`RxC`).
fn size_options(symbols: Option<&str>, shape: Option<&str>) -> PyResult<SizeOptions> {
    let symbols = symbols
        .map(Symbols::from_name)
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("symbols: {e}")))?;
    let shape = shape
        .map(str::parse::<Shape>)
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("box: {e}")))?;
    Ok(SizeOptions {
        symbols,
        shape,
        ..SizeOptions::default()
    })
}

/// Solves the puzzles of `parts` (each an object with `__arrow_c_array__`
/// or a list) under `options` on the library's thread pool, the GIL
/// released, and turns each block of results into a batch with `columns`,
/// in input order. Grids of other sizes are read with `sizes`, which, when
/// the puzzles are the whole set (`whole`), must fit one of them
/// (`ValueError` naming `function`, as the command line refuses them).
/// Ctrl-C raises `KeyboardInterrupt` naming `function`.
fn solve_parts(
    py: Python<'_>,
    parts: &Bound<'_, PyList>,
    options: &BatchOptions,
    sizes: &SizeOptions,
    whole: bool,
    columns: fn(&[PuzzleResult]) -> StructArray,
    function: &str,
) -> PyResult<Vec<ArrowBatch>> {
    let parts = parts
        .iter()
        .map(|part| match part.cast::<PyList>() {
            Ok(list) => Ok(Part::Items(Items::from_list(list))),
            Err(_) => import_array(&part).map(Part::Arrow),
        })
        .collect::<PyResult<Vec<Part>>>()?;
    let puzzles = Puzzles::new(parts, sizes.clone());
    let unfit = whole
        .then(|| unfit(sizes, puzzles.len(), |i| puzzles.puzzle(i)))
        .flatten();
    if let Some(why) = unfit {
        // The command line's words, in the names Python gives the options.
        let why = why
            .replace("--box ", "box=")
            .replace("--symbols ", "symbols=");
        return Err(PyValueError::new_err(format!("{function}(): {why}")));
    }
    let solver = BatchSolver::new(options).map_err(to_py_err)?;
    let blocks = interruptible(py, |interrupt| {
        solver.solve_blocks(
            puzzles.len(),
            |i| puzzles.puzzle(i),
            |results| columns(&results),
            interrupt,
        )
    })?;
    match blocks {
        Ok(blocks) => Ok(blocks
            .into_iter()
            .map(|batch| ArrowBatch { batch })
            .collect()),
        Err(_) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(format!(
            "{function}() interrupted"
        ))),
    }
}

/// Runs the `solve` subcommand's job: reads `inputs`, writes the results
/// to `output`, and returns the summary as JSON text. Grids of other sizes
/// than 9x9 are read with `symbols` and `shape` as for [`solve`];
/// `keep_types` is `--keep-types` (each `COL=TYPE`), `rate` is `--rate`,
/// `shard` is `--shard K/N`, `summary_json` and `summary_html` are
/// `--summary-json` and `--summary-html`.
#[pyfunction]
#[pyo3(signature = (
    inputs, output, *, mode = "unique", threads = None, max_guesses = None, timeout_ms = None,
    solver = "fast", format = "auto", column = None, solutions = None, limit = None,
    resume = false, keep = None, keep_all = false, delimiter = "auto", output_format = None,
    output_delimiter = ",", blank = ".", symbols = None, shape = None, keep_types = None,
    rate = false, shard = None, summary_json = None, summary_html = None,
    parquet_compression = None,
))]
#[allow(clippy::too_many_arguments)]
fn solve_file(
    py: Python<'_>,
    inputs: Vec<String>,
    output: PathBuf,
    mode: &str,
    threads: Option<usize>,
    max_guesses: Option<u64>,
    timeout_ms: Option<u64>,
    solver: &str,
    format: &str,
    column: Option<Bound<'_, PyAny>>,
    solutions: Option<PathBuf>,
    limit: Option<u64>,
    resume: bool,
    keep: Option<Vec<Bound<'_, PyAny>>>,
    keep_all: bool,
    delimiter: &str,
    output_format: Option<&str>,
    output_delimiter: &str,
    blank: &str,
    symbols: Option<&str>,
    shape: Option<&str>,
    keep_types: Option<Vec<String>>,
    rate: bool,
    shard: Option<&str>,
    summary_json: Option<PathBuf>,
    summary_html: Option<PathBuf>,
    parquet_compression: Option<&str>,
) -> PyResult<String> {
    simd_level()?;
    if inputs.is_empty() {
        return Err(PyValueError::new_err("inputs: give at least one file"));
    }
    if timeout_ms == Some(0) {
        return Err(PyValueError::new_err("timeout_ms must be at least 1"));
    }
    let solver = SolverKind::ALL
        .into_iter()
        .find(|kind| kind.name() == solver)
        .ok_or_else(|| {
            PyValueError::new_err(format!("solver must be 'fast' or 'naive', not {solver:?}"))
        })?;
    let format = match format {
        "auto" => Format::Auto,
        "lines" => Format::Lines,
        "csv" => Format::Csv,
        "grid" => Format::Grid,
        "jsonl" => Format::Jsonl,
        "parquet" => Format::Parquet,
        other => {
            return Err(PyValueError::new_err(format!(
                "format must be 'auto', 'lines', 'csv', 'grid', 'jsonl' or 'parquet', not {other:?}"
            )))
        }
    };
    let column = column.map(|c| parse_column(&c)).transpose()?;
    let keep = match (keep, keep_all) {
        (Some(_), true) => {
            return Err(PyValueError::new_err(
                "keep and keep_all: give one (keep_all keeps every column)",
            ))
        }
        (_, true) => Keep::All,
        (None, false) => Keep::Nothing,
        (Some(columns), false) => Keep::Columns(
            columns
                .iter()
                .map(parse_column)
                .collect::<PyResult<Vec<Column>>>()?,
        ),
    };
    let delimiter = Delimiter::parse(delimiter)
        .map_err(|e| PyValueError::new_err(format!("delimiter {delimiter:?}: {e}")))?;
    let output_format = match output_format {
        None => None,
        Some("csv") => Some(OutputFormat::Csv),
        Some("jsonl") => Some(OutputFormat::Jsonl),
        Some("parquet") => Some(OutputFormat::Parquet),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "output_format must be 'csv', 'jsonl' or 'parquet', not {other:?}"
            )))
        }
    };
    let parquet_compression = parquet_compression
        .map(|name| {
            ParquetCompression::from_name(name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "parquet_compression must be 'fast', 'none', 'snappy' or 'zstd', not {name:?}"
                ))
            })
        })
        .transpose()?;
    let output_delimiter = match output_delimiter.chars().collect::<Vec<_>>()[..] {
        [c] => check_delimiter(c),
        _ => Err("expected one character".to_string()),
    }
    .map_err(|e| PyValueError::new_err(format!("output_delimiter {output_delimiter:?}: {e}")))?;
    let blank = match blank {
        "." => Blank::Dot,
        "0" => Blank::Zero,
        other => {
            return Err(PyValueError::new_err(format!(
                "blank must be '.' or '0', not {other:?}"
            )))
        }
    };
    let output = Destination::from_arg(Some(&output));
    if resume
        && !matches!(
            output,
            Destination::File {
                compression: Compression::None,
                ..
            }
        )
    {
        return Err(PyValueError::new_err(
            "resume needs a plain (not compressed) output file",
        ));
    }
    let shard = shard
        .map(str::parse::<Shard>)
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("shard: {e}")))?;
    let summary_json = summary_json.map(|path| Destination::from_arg(Some(&path)));
    check_summaries(&output, summary_json.as_ref(), summary_html.as_deref())?;
    let mut config = Config::new(inputs, output);
    config.shard = shard;
    config.summary_json = summary_json;
    config.summary_html = summary_html;
    config.read = ReadOptions {
        format,
        column,
        solutions,
        delimiter,
        keep,
        kept_types: false,
        sizes: size_options(symbols, shape)?,
    };
    config.keep_types = keep_types
        .unwrap_or_default()
        .iter()
        .map(|cast| cast.parse::<KeptCast>())
        .collect::<Result<_, _>>()
        .map_err(|e| PyValueError::new_err(format!("keep_types: {e}")))?;
    config.rating = if rate {
        RatingColumns::Appended
    } else {
        RatingColumns::None
    };
    config.output_format = output_format;
    config.output_delimiter = output_delimiter;
    config.parquet_compression = parquet_compression;
    config.blank = blank;
    config.resume = resume;
    match threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => config.threads = n,
        None => {}
    }
    config.solver = solver;
    config.mode = parse_mode(mode)?;
    config.limits = Limits {
        max_guesses,
        timeout: timeout_ms.map(Duration::from_millis),
    };
    config.limit = limit;
    let (_, summary) = interruptible(py, |interrupt| {
        sudoku_batch::commands::solve::run_with_interrupt(&config, interrupt)
    })?
    .map_err(to_py_err)?;
    if summary.interrupted {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "solve_file() interrupted; the rows finished before it are written",
        ));
    }
    Ok(summary.to_json())
}

/// Refuses summaries that the command line refuses by name: a JSON summary
/// on standard output beside results there, and two outputs of one name
/// (outputs that are one file by another name are refused when the run
/// checks its files).
fn check_summaries(
    output: &Destination,
    json: Option<&Destination>,
    html: Option<&Path>,
) -> PyResult<()> {
    let file = |destination: Option<&Destination>| match destination {
        Some(Destination::File { path, .. }) => Some(path.clone()),
        _ => None,
    };
    if matches!(json, Some(Destination::Stdout)) && matches!(output, Destination::Stdout) {
        return Err(PyValueError::new_err(
            "summary_json='-' needs an output file: standard output already carries the results",
        ));
    }
    if html.is_some_and(|html| html.as_os_str() == "-") {
        return Err(PyValueError::new_err(
            "summary_html needs a file name, not '-'",
        ));
    }
    let named = [
        ("output", file(Some(output))),
        ("summary_json", file(json)),
        ("summary_html", html.map(Path::to_path_buf)),
    ];
    for (i, (later, path)) in named.iter().enumerate() {
        let Some(path) = path else { continue };
        if let Some((earlier, _)) = named[..i].iter().find(|(_, p)| p.as_ref() == Some(path)) {
            return Err(PyValueError::new_err(format!(
                "{later} and {earlier} both name {}",
                path.display()
            )));
        }
    }
    Ok(())
}

fn parse_mode(mode: &str) -> PyResult<Mode> {
    match mode {
        "unique" => Ok(Mode::Unique),
        "first" => Ok(Mode::First),
        other => Err(PyValueError::new_err(format!(
            "mode must be 'unique' or 'first', not {other:?}"
        ))),
    }
}

/// `column`: a header name (str) or a 1-based field number (int).
fn parse_column(column: &Bound<'_, PyAny>) -> PyResult<Column> {
    if let Ok(name) = column.extract::<String>() {
        if name.trim().is_empty() {
            return Err(PyValueError::new_err("column: a name cannot be empty"));
        }
        return Ok(Column::Name(name));
    }
    match column.extract::<i64>() {
        Ok(n) if n >= 1 => Ok(Column::Index(n as usize)),
        Ok(_) => Err(PyValueError::new_err("column: field numbers start at 1")),
        Err(_) => Err(PyTypeError::new_err(
            "column must be a header name (str) or a 1-based field number (int)",
        )),
    }
}

/// Runs `work` on a thread of its own with the GIL released, looking for
/// Ctrl-C meanwhile: on a KeyboardInterrupt (or any exception a signal
/// handler raises) the interrupt is raised, `work` is waited for (it stops
/// promptly) and the exception is returned.
fn interruptible<T, W>(py: Python<'_>, work: W) -> PyResult<T>
where
    T: Send,
    W: FnOnce(&Interrupt) -> T + Send,
{
    let interrupt = Interrupt::new();
    let waiter = std::thread::current();
    std::thread::scope(|scope| {
        let interrupt = &interrupt;
        let handle = std::thread::Builder::new()
            .name("sudoku-batch".into())
            .spawn_scoped(scope, move || {
                let value = work(interrupt);
                waiter.unpark();
                value
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        while !handle.is_finished() {
            // A spurious wake-up only means one more look.
            py.detach(|| std::thread::park_timeout(SIGNAL_POLL));
            if handle.is_finished() {
                break;
            }
            if let Err(signalled) = py.check_signals() {
                interrupt.raise(Signal::Interrupt);
                // The work stops at the interrupt; its value is dropped.
                let _ = py.detach(|| handle.join());
                return Err(signalled);
            }
        }
        py.detach(|| handle.join())
            .map_err(|panic| std::panic::resume_unwind(panic))
    })
}

/// A library error as the Python exception a caller would expect.
fn to_py_err(error: Error) -> PyErr {
    let message = error.to_string();
    match &error {
        Error::Usage(_) => PyValueError::new_err(message),
        Error::Input(InputError::Io { source, .. }) | Error::Write { source, .. } => {
            match source.kind() {
                std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
                std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
                _ => PyOSError::new_err(message),
            }
        }
        Error::Input(_) | Error::Resume(_) | Error::Guard(_) => PyValueError::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}

/// The extension module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(rate, module)?)?;
    module.add_function(wrap_pyfunction!(solve_file, module)?)?;
    module.add_class::<ArrowBatch>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("MAX_THREADS", sudoku_batch::job::config::MAX_THREADS)?;
    Ok(())
}
