"""Solve Sudoku puzzles in bulk from Python, on the sudoku-batch Rust core.

>>> import sudoku_batch
>>> table = sudoku_batch.solve(
...     ["016400000200009000400000062070230100100000003003087040960000005000800007000006820"]
... )
>>> table.column("status").to_pylist()
['solved']

Every puzzle goes through the same pipeline as the ``sudoku-batch solve``
command: the same per-record classification (``solved``, ``multiple``,
``unsolvable``, ``invalid``, ``malformed``, ``timeout``), the same solver,
run on a Rust thread pool with the GIL released.

- :func:`solve` takes puzzles in memory (a list, a NumPy array, a PyArrow
  array, a pandas or Polars Series) and returns a :class:`pyarrow.Table`.
- :func:`solve_file` runs the ``solve`` command's job on files and returns
  its summary as a dict.
- :mod:`sudoku_batch.pandas`, :mod:`sudoku_batch.polars` and
  :mod:`sudoku_batch.dask` append the result columns to a frame; they are
  loaded on first access (``sudoku_batch.pandas.solve(...)``), so pandas,
  Polars and Dask stay optional.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple, Union

import pyarrow as pa

from . import _native

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["SCHEMA", "RATED_SCHEMA", "RATE_SCHEMA", "MODES", "solve", "rate", "solve_file", "pandas", "polars", "dask"]
__version__: str = _native.__version__

#: The columns of :func:`solve`'s table, with their meanings as in the
#: results CSV: ``status`` (never null), ``solution`` (81 digits, only when
#: solved), ``guesses`` (null when malformed), ``solve_us`` (the puzzle's
#: classification and search time in microseconds with one decimal, as the
#: CLI writes it, null when malformed) and
#: ``message`` (why: the parser's message for malformed, the conflict for
#: invalid, the limit for timeout).
SCHEMA: pa.Schema = pa.schema(
    [
        pa.field("status", pa.string(), nullable=False),
        pa.field("solution", pa.string()),
        pa.field("guesses", pa.uint64()),
        pa.field("solve_us", pa.float64()),
        pa.field("message", pa.string()),
    ]
)

#: The columns of :func:`solve` with ``rate=True``: :data:`SCHEMA`'s, then
#: ``rating`` (the Sudoku Explainer rating, one decimal) and ``hardest``
#: (the hardest technique), as ``solve --rate`` adds them after
#: ``message``; both null unless the puzzle is solved and rated.
RATED_SCHEMA: pa.Schema = SCHEMA.append(pa.field("rating", pa.float64())).append(
    pa.field("hardest", pa.string())
)

#: The columns of :func:`rate`, in order: the Sudoku Explainer rating (one
#: decimal), the hardest technique, the steps of the solve path (null unless
#: the puzzle is solved and rated), the status and the message.
RATE_SCHEMA: pa.Schema = pa.schema(
    [
        pa.field("rating", pa.float64()),
        pa.field("hardest", pa.string()),
        pa.field("steps", pa.uint64()),
        pa.field("status", pa.string(), nullable=False),
        pa.field("message", pa.string()),
    ]
)

#: The search modes: ``unique`` proves a solution is the only one (else the
#: status is ``multiple``); ``first`` stops at the first solution.
MODES = ("unique", "first")

#: Most solver threads a call may ask for (the CLI's bound on ``-j``).
MAX_THREADS: int = _native.MAX_THREADS

_LAZY_SUBMODULES = ("pandas", "polars", "dask")


def solve(
    puzzles: Any,
    *,
    mode: str = "unique",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    rate: bool = False,
) -> pa.Table:
    """Solve every puzzle and return one result row per puzzle, in order.

    Parameters
    ----------
    puzzles
        One column of puzzles, each 81 cells of digits ``1``-``9`` and
        blanks (``.``, ``0``, ``_`` or ``-``), surrounding whitespace
        ignored, or 81 integers (0 blank; or numbered from 0 with ``-1``
        blanks, as 0-based data sets write them, the solution then written
        from 0 too) as one list or as 9 lists of 9 (the shapes the command
        line reads from Parquet and JSON Lines).
        Grids of other sizes (4x4 to 64x64) as the command line reads
        them: n*n characters (``1-9A-G`` or letters for 16x16, ...) or n*n
        values separated by commas or spaces, or n*n integers (0 blank)
        as one list or n lists of n; their solutions are written in the
        puzzle's alphabet (lists: comma-separated numbers).
        Accepted containers: a list (or tuple or other ordered iterable) of
        ``str``/``bytes``/lists; a NumPy array of ``str`` or ``bytes`` (or
        an integer array of shape ``(n, 81)`` or ``(n, 9, 9)``); a PyArrow
        ``Array`` or ``ChunkedArray`` of ``string``, ``large_string``,
        ``string_view``, ``binary`` (any width), dictionary-encoded strings,
        lists of 81 integers or lists of 9 lists of 9 (any list type); a
        pandas ``Series``; a Polars ``Series``; any object with
        ``__arrow_c_array__``. Arrow data is read in place through the
        Arrow C data interface, without a copy.
    mode
        ``"unique"`` (default) proves the solution unique, ``"first"`` stops
        at the first one.
    threads
        Solver threads, 1 to 1024; ``None`` means one per core.
    max_guesses
        Give up on a puzzle after this many guesses (status ``timeout``).
    symbols
        The alphabet of grids of other sizes, as the command line's
        ``--symbols``: ``"1-9A-Z"``, ``"0-9A-Z"``, ``"A-Z"``, ``"numbers"``
        or the n symbols in order; ``None`` finds it from each puzzle.
        Lists of integers are numbers whatever it says.
    box
        The boxes of grids of side R*C, ``"RxC"`` as ``--box`` (``"3x2"``
        for 6x6 grids of 3-row boxes; ``"1x9"`` or ``"9x1"`` for 9x9 grids
        whose boxes are rows or columns); other sides, and ``None``, take
        the usual boxes.
    rate
        Also rate each solved puzzle on the Sudoku Explainer scale, as
        ``solve --rate`` does: ``rating`` and ``hardest`` after ``message``
        (:data:`RATED_SCHEMA`), null for other statuses and for grids the
        rater does not rate (the message says why). Under ``mode="first"``
        a solved puzzle is still checked to have one solution (else
        ``multiple``), as a rating needs.

    Returns
    -------
    pyarrow.Table
        Columns as in :data:`SCHEMA`: ``status``, ``solution``, ``guesses``,
        ``solve_us``, ``message`` (with ``rate``, then ``rating`` and
        ``hardest``); one row per input, in input order.

    A bad record (``None``, a number, a string of the wrong length) is a row
    with status ``malformed`` and a message; it never stops the batch.

    Raises
    ------
    TypeError
        ``puzzles`` is not one column of puzzles: a single ``str``; a
        table or data frame (``pyarrow.Table``, ``RecordBatch``, a struct
        array, a pandas, Polars or Dask ``DataFrame``: pass its puzzle
        column, e.g. ``df["quizzes"]``); a ``set`` (no order, so rows could
        not be matched to puzzles); a ``dict``. Or an option has the wrong
        type.
    ValueError
        An option is out of range (an unknown mode, ``threads=0``, a
        ``symbols`` or ``box`` the command line would refuse, among them
        one that fits none of the puzzles: ``box="2x2"`` for 9x9 grids,
        raised before any is solved); or the
        environment variable ``SUDOKU_BATCH_SIMD`` names no level
        (``scalar``, ``avx2``, ``avx512``) or one this CPU lacks, with the
        command line's message (read once per process, at the first call).
    KeyboardInterrupt
        Ctrl-C while solving; the solver threads stop promptly.
    """
    return _solve(
        puzzles,
        whole=True,
        mode=mode,
        threads=threads,
        max_guesses=max_guesses,
        symbols=symbols,
        box=box,
        rate=rate,
    )


def _solve(
    puzzles: Any,
    *,
    whole: bool,
    mode: str,
    threads: Optional[int],
    max_guesses: Optional[int],
    symbols: Optional[str],
    box: Optional[str],
    rate: bool,
) -> pa.Table:
    """:func:`solve` of every puzzle of a set (``whole``), or of one part of
    a larger set (a Dask partition, a batch of a Polars LazyFrame): then a
    ``symbols`` or ``box`` that fits none of the part's puzzles is no
    error, since other parts may hold the grids it is for (as the command
    line warns of it in one ``--shard``)."""
    _check_options(mode, threads, max_guesses)
    _check_sizes(symbols, box)
    _check_bool("rate", rate)
    parts = _to_parts(puzzles)
    batches = _native.solve(
        parts,
        mode=mode,
        threads=threads,
        max_guesses=max_guesses,
        symbols=symbols,
        shape=box,
        rate=rate,
        whole=whole,
    )
    schema = RATED_SCHEMA if rate else SCHEMA
    return pa.Table.from_batches([pa.record_batch(b) for b in batches], schema=schema)


def rate(
    puzzles: Any,
    *,
    threads: Optional[int] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
) -> pa.Table:
    """Rate every puzzle's difficulty on the Sudoku Explainer scale.

    Each puzzle is solved first (mode ``unique``); a solved one gets the
    rating of the hardest technique a human-style solver needs, as Sukaku
    Explainer's ``serate`` rates it (1.0 to 11+; see ``docs/rate.md``).

    Parameters
    ----------
    puzzles
        As for :func:`solve`.
    threads
        Rating threads, 1 to 1024; ``None`` means one per core.
    symbols, box
        As for :func:`solve`.

    Returns
    -------
    pyarrow.Table
        Columns as in :data:`RATE_SCHEMA`: ``rating``, ``hardest``,
        ``steps``, ``status``, ``message``; one row per input, in order.
        Any status but ``solved``, and a puzzle beyond the rater's
        techniques (its ``message`` says so), leave the rating null, and
        so does a grid of another size than 9x9 (the rater is for 9x9
        grids only; its ``message`` says so).

    Raises
    ------
    TypeError, ValueError, KeyboardInterrupt
        As for :func:`solve`.
    """
    _check_options("unique", threads, None)
    _check_sizes(symbols, box)
    parts = _to_parts(puzzles)
    batches = _native.rate(parts, threads=threads, symbols=symbols, shape=box)
    return pa.Table.from_batches([pa.record_batch(b) for b in batches], schema=RATE_SCHEMA)


def solve_file(
    inputs: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    output: Union[str, "os.PathLike[str]"],
    *,
    mode: str = "unique",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    solver: str = "fast",
    format: str = "auto",
    column: Union[str, int, None] = None,
    solutions: Union[str, "os.PathLike[str]", None] = None,
    limit: Optional[int] = None,
    resume: bool = False,
    keep: Union[str, int, Sequence[Union[str, int]], None] = None,
    keep_all: bool = False,
    delimiter: str = "auto",
    output_format: Optional[str] = None,
    output_delimiter: str = ",",
    blank: str = ".",
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    keep_types: Union[Mapping[str, str], str, Sequence[str], None] = None,
    rate: bool = False,
    shard: Union[str, Tuple[int, int], None] = None,
    summary_json: Union[str, "os.PathLike[str]", None] = None,
    summary_html: Union[str, "os.PathLike[str]", None] = None,
    parquet_compression: Optional[str] = None,
) -> dict:
    """Run the ``sudoku-batch solve`` job: read puzzle files, write the results.

    The same job as the command line, option for option (``mode="first"``
    is ``--first``): the inputs are streamed in bounded memory, solved on
    every core, and one results row per record is written to ``output`` in
    input order. The output's name chooses its format, as for the command
    line: CSV (``.csv``, ``.txt``, ``-``), JSON Lines (``.jsonl``,
    ``.ndjson``) or Parquet (``.parquet``); ``.gz`` and ``.zst`` after a
    CSV or JSON Lines name compress it.

    Parameters
    ----------
    inputs
        One input file or a list of them (``.gz`` decompressed).
    output
        The results file (``"-"`` is standard output).
    mode, threads, max_guesses
        As for :func:`solve`.
    timeout_ms
        Give up on a puzzle after this many milliseconds (status ``timeout``).
    solver
        ``"fast"`` (default) or ``"naive"``.
    format
        The input layout: ``"auto"``, ``"lines"``, ``"csv"``, ``"grid"``,
        ``"jsonl"`` or ``"parquet"``.
    column
        The puzzle column: a header name or a 1-based field number.
    solutions
        A file of solutions paired record by record with the one input.
    limit
        Stop after this many records.
    resume
        Continue a results file that an interrupted run left (CSV, JSON
        Lines or Parquet, not compressed).
    keep
        Input columns copied into every results row, after the results
        columns: header names or 1-based numbers (one, or a list).
    keep_all
        Keep every input column.
    delimiter
        The CSV input's field separator: ``"auto"`` (a header with no comma
        but ``;``, a tab or ``|`` selects it), ``"tab"`` or one character.
    output_format
        ``"csv"``, ``"jsonl"`` or ``"parquet"``, whatever the output's name.
    output_delimiter
        The CSV output's field separator (default ``","``).
    blank
        The blank in the output's ``puzzle`` column: ``"."`` or ``"0"``.
    symbols, box
        Grids of other sizes than 9x9 (``--symbols``, ``--box``): as for
        :func:`solve`.
    keep_types
        Kept columns written in another type than the input's
        (``--keep-types``): ``{"rating": "int64"}``, by input name, each
        ``"int64"``, ``"float64"`` or ``"string"``; or the command line's
        ``"rating=int64,score=float64"``. Empty is null; a value that does
        not parse makes its row ``malformed``, its message naming the
        column and the value; a type that fits no value of its column
        raises ``ValueError`` before anything is written, as the command
        line stops (exit 2).
    rate
        Add ``rating`` and ``hardest`` after ``message`` (``--rate``): each
        solved puzzle's difficulty on the Sudoku Explainer scale, as
        :func:`rate` gives it; empty for other statuses and grids other
        than 9x9 (the message says why). The summary then has the ratings'
        distribution.
    shard
        Handle only shard K of N (``--shard K/N``): ``"2/4"`` or ``(2, 4)``,
        the records whose 0-based number across all inputs is K-1 modulo N,
        keeping their ``file`` and ``line``; ``limit`` counts the records
        of the whole inputs. ``sudoku-batch merge`` joins the shards'
        results, CSV or JSON Lines (``.jsonl`` shards merge into the
        whole run's ``.jsonl``, or into its CSV).
    summary_json
        Also write the summary JSON to this file (``--summary-json``;
        ``"-"`` is standard output, when ``output`` is a file).
    summary_html
        Also write the summary as an HTML page to this file
        (``--summary-html``).
    parquet_compression
        How Parquet results are compressed (``--parquet-compression``):
        ``"fast"`` (the default: the columns of every run uncompressed, at
        the solver's pace, the others zstd), ``"none"``, ``"snappy"`` or
        ``"zstd"`` (every column). Only for Parquet output.

    Returns
    -------
    dict
        The summary, as ``--summary-json`` writes it: ``puzzles``, ``solved``,
        ``multiple``, ``unsolvable``, ``invalid``, ``malformed``, ``timeout``,
        ``mismatches``, ``wall_s``, ``puzzles_per_s``, ``solve_us``,
        ``guesses``, ...

    Raises
    ------
    FileNotFoundError, PermissionError, OSError
        An input cannot be read or the output cannot be written.
    ValueError
        Options that do not fit (``threads=0``, an unknown format, an output
        that is an input, a results file that cannot be resumed, a
        ``symbols``, ``box`` or ``keep_types`` the command line would
        refuse); a ``SUDOKU_BATCH_SIMD`` that cannot be used, as for
        :func:`solve`.
    TypeError
        An option has the wrong type.
    KeyboardInterrupt
        Ctrl-C: the rows finished before it are written.
    """
    _check_options(mode, threads, max_guesses)
    _check_sizes(symbols, box)
    casts = _kept_casts(keep_types)
    for name, value in (("resume", resume), ("keep_all", keep_all), ("rate", rate)):
        _check_bool(name, value)
    for name, value in (
        ("solver", solver),
        ("format", format),
        ("delimiter", delimiter),
        ("output_delimiter", output_delimiter),
        ("blank", blank),
    ):
        _check_str(name, value)
    _check_str("output_format", output_format, optional=True)
    _check_str("parquet_compression", parquet_compression, optional=True)
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    if not isinstance(inputs, Iterable) or isinstance(inputs, (bytes, Mapping)):
        raise TypeError(
            "inputs must be a path (str or os.PathLike) or a list of them, "
            f"not {type(inputs).__name__}"
        )
    names = [_path("inputs", path) for path in inputs]
    for name, value in (("timeout_ms", timeout_ms), ("limit", limit)):
        _check_int(name, value, minimum=1 if name == "timeout_ms" else 0)
    _check_column("column", column)
    if keep is not None and not isinstance(keep, (str, int, list, tuple)):
        raise TypeError(
            "keep must be a column name (str), a 1-based number (int) or a list of them, "
            f"not {type(keep).__name__}"
        )
    keep = [keep] if isinstance(keep, (str, int)) else keep
    for item in keep or ():
        _check_column("keep", item)
    summary = _native.solve_file(
        names,
        _path("output", output),
        mode=mode,
        threads=threads,
        max_guesses=max_guesses,
        timeout_ms=timeout_ms,
        solver=solver,
        format=format,
        column=column,
        solutions=None if solutions is None else _path("solutions", solutions),
        limit=limit,
        resume=resume,
        keep=keep,
        keep_all=keep_all,
        delimiter=delimiter,
        output_format=output_format,
        output_delimiter=output_delimiter,
        blank=blank,
        symbols=symbols,
        shape=box,
        keep_types=casts,
        rate=rate,
        shard=_shard(shard),
        summary_json=None if summary_json is None else _path("summary_json", summary_json),
        summary_html=None if summary_html is None else _path("summary_html", summary_html),
        parquet_compression=parquet_compression,
    )
    return json.loads(summary)


def _check_bool(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")


def _check_str(name: str, value: Any, *, optional: bool = False) -> None:
    if not isinstance(value, str) and not (optional and value is None):
        expected = "a str or None" if optional else "a str"
        raise TypeError(f"{name} must be {expected}, not {type(value).__name__}")


def _path(name: str, value: Any) -> str:
    """A path keyword's value as text: ``str`` or ``os.PathLike`` of text."""
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    raise TypeError(f"{name} must be a path (str or os.PathLike), not {type(value).__name__}")


def _check_column(name: str, value: Any) -> None:
    """A column as the command line names one: a header name or a 1-based
    field number (``None``: the default)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
        raise TypeError(
            f"{name} must be a header name (str) or a 1-based field number (int), "
            f"not {type(value).__name__}"
        )


def _shard(shard: Any) -> Optional[str]:
    """``shard`` as the command line's ``K/N``: from ``"K/N"`` or ``(K, N)``."""
    if shard is None or isinstance(shard, str):
        return shard
    if (
        isinstance(shard, tuple)
        and len(shard) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
    ):
        return f"{shard[0]}/{shard[1]}"
    raise TypeError(
        f"shard must be 'K/N' (str) or (K, N) (a tuple of two ints), not {type(shard).__name__}"
    )


def _kept_casts(keep_types: Any) -> Optional[list]:
    """``keep_types`` as the command line's ``COL=TYPE`` items: from a
    mapping of names to types, ``"COL=TYPE,..."`` or a list of items."""
    if keep_types is None:
        return None
    if isinstance(keep_types, Mapping):
        items = list(keep_types.items())
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in items):
            raise TypeError(
                "keep_types must map column names (str) to types (str), e.g. {'rating': 'int64'}"
            )
        return [f"{column}={to}" for column, to in items]
    if isinstance(keep_types, str):
        keep_types = keep_types.split(",")
    if isinstance(keep_types, (list, tuple)) and all(isinstance(c, str) for c in keep_types):
        return list(keep_types)
    raise TypeError(
        "keep_types must be a dict of column names to types ({'rating': 'int64'}), "
        f"or 'COL=TYPE,...', not {type(keep_types).__name__}"
    )


def _check_int(name: str, value: Any, *, minimum: int, maximum: Optional[int] = None) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
        raise ValueError(f"{name} must be {bound}, not {value}")


def _check_options(mode: Any, threads: Any, max_guesses: Any) -> None:
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a str, not {type(mode).__name__}")
    if mode not in MODES:
        raise ValueError(f"mode must be 'unique' or 'first', not {mode!r}")
    _check_int("threads", threads, minimum=1, maximum=MAX_THREADS)
    _check_int("max_guesses", max_guesses, minimum=0, maximum=2**64 - 1)


def _check_sizes(symbols: Any, box: Any) -> None:
    for name, value in (("symbols", symbols), ("box", box)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str or None, not {type(value).__name__}")


def _to_parts(puzzles: Any) -> list:
    """The puzzles as parts the native module reads: Arrow arrays (anything
    with ``__arrow_c_array__``) and Python lists."""
    if isinstance(puzzles, (str, bytes, bytearray)):
        raise TypeError(
            "puzzles must be a collection of puzzles, not a single "
            f"{type(puzzles).__name__}; for one puzzle pass [puzzle]"
        )
    if isinstance(puzzles, (set, frozenset)):
        raise TypeError(
            f"puzzles must be in order, not a {type(puzzles).__name__} (its order is arbitrary, "
            "so rows could not be matched to puzzles); pass a list, e.g. sorted(puzzles)"
        )
    _refuse_frames(puzzles)
    if isinstance(puzzles, pa.ChunkedArray):
        _refuse_struct(puzzles.type)
        return [_arrow_part(chunk) for chunk in puzzles.chunks]
    if isinstance(puzzles, pa.Array):
        _refuse_struct(puzzles.type)
        return [_arrow_part(puzzles)]
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(puzzles, numpy.ndarray):
        return _numpy_parts(numpy, puzzles)
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(puzzles, pandas.Series):
        return _pandas_parts(puzzles)
    polars = sys.modules.get("polars")
    if polars is not None and isinstance(puzzles, polars.Series):
        if puzzles.dtype == polars.Object:
            return [puzzles.to_list()]
        return _to_parts(puzzles.to_arrow())
    if hasattr(puzzles, "__arrow_c_array__"):
        return _to_parts(pa.array(puzzles))
    if hasattr(puzzles, "__arrow_c_stream__"):
        return _to_parts(pa.chunked_array(puzzles))
    if isinstance(puzzles, list):
        return [puzzles]
    if isinstance(puzzles, Iterable) and not isinstance(puzzles, Mapping):
        return [list(puzzles)]
    raise TypeError(
        "puzzles must be a list, a NumPy array, a PyArrow Array or ChunkedArray, "
        f"a pandas or Polars Series, not {type(puzzles).__name__}"
    )


#: Tables and data frames, by top-level package and class name, so that
#: checking for them imports nothing: each holds columns, and solve() takes
#: one column.
_FRAMES = {
    ("pyarrow", "Table"),
    ("pyarrow", "RecordBatch"),
    ("pandas", "DataFrame"),
    ("polars", "DataFrame"),
    ("polars", "LazyFrame"),
    ("dask", "DataFrame"),
}


def _column_names(frame: Any) -> list:
    """A table's or frame's column names, computing nothing (a Polars
    LazyFrame's from its schema); empty when they cannot be had."""
    try:
        if hasattr(frame, "collect_schema"):
            return [str(name) for name in frame.collect_schema().names()]
        names = getattr(frame, "column_names", None)
        if names is None:
            names = getattr(frame, "columns", None)
        return [str(name) for name in names] if names is not None else []
    except Exception:  # noqa: BLE001 - the names only improve the message
        return []


def _refuse_frames(puzzles: Any) -> None:
    """Raises TypeError for a table or data frame: read as a collection it
    would give one malformed row per record (its rows as structs) or per
    column (iterating a pandas frame gives its column names)."""
    kind = type(puzzles)
    if not any((c.__module__.split(".")[0], c.__name__) in _FRAMES for c in kind.__mro__):
        return
    columns = _column_names(puzzles)
    listed = ", ".join(columns[:8]) + (", ..." if len(columns) > 8 else "")
    # The CLI's puzzle column names, else a made-up one.
    named = [c for c in columns if c.lower() in ("puzzle", "quizzes", "quiz", "question", "grid")]
    example = repr(named[0]) if named else "'quizzes'"
    raise TypeError(
        f"puzzles must be one column of puzzles, not a {kind.__module__.split('.')[0]}."
        f"{kind.__name__}{f' (columns: {listed})' if columns else ''}; pass its puzzle "
        f"column, e.g. frame[{example}]"
    )


def _refuse_struct(arrow_type: pa.DataType) -> None:
    """Raises TypeError for a struct array: a table's rows, not a column of
    puzzles (what a RecordBatch or a frame gives through the Arrow C
    interfaces)."""
    if pa.types.is_struct(arrow_type):
        names = [arrow_type.field(i).name for i in range(arrow_type.num_fields)]
        example = repr(names[0]) if names else "'quizzes'"
        raise TypeError(
            f"puzzles must be one column of puzzles, not a struct array (rows of a table, "
            f"fields: {', '.join(names)}); pass one field, e.g. array.field({example})"
        )


def _arrow_part(array: pa.Array) -> pa.Array:
    if isinstance(array.type, pa.ExtensionType):
        array = array.storage
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    return array


def _numpy_parts(numpy: "ModuleType", array: Any) -> list:
    if array.ndim == 3 and array.dtype.kind in "iu":
        # (n, 9, 9): each puzzle as 9 rows of 9 cells, as a Parquet column
        # of 9 lists of 9 integers holds it; (n, s, s) for other sides.
        side = array.shape[1]
        if array.shape[2] != side or not 4 <= side <= 64:
            raise ValueError(
                f"a 3-D integer array must have shape (n, 9, 9) or (n, s, s) for a side s "
                f"of 4 to 64, not {array.shape}"
            )
        array = array.reshape(array.shape[0], side * side)
    if array.ndim == 2 and array.dtype.kind in "iu":
        cells_per_grid = array.shape[1]
        side = math.isqrt(cells_per_grid)
        if side * side != cells_per_grid or not 4 <= side <= 64:
            raise ValueError(
                f"a 2-D integer array must have 81 columns (one per cell), or n*n for a grid "
                f"of side n from 4 to 64, not {cells_per_grid}"
            )
        cells = pa.array(numpy.ascontiguousarray(array).reshape(-1))
        return [pa.FixedSizeListArray.from_arrays(cells, cells_per_grid)]
    if array.ndim != 1:
        raise ValueError(
            f"puzzles must be a 1-D array (or integers of shape (n, 81), (n, 9, 9), "
            f"(n, s*s) or (n, s, s)), "
            f"not {array.ndim}-D"
        )
    if array.dtype.kind in "US":
        return [pa.array(array)]
    return [array.tolist()]


def _pandas_parts(series: Any) -> list:
    try:
        array = pa.array(series, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError):
        # Mixed objects (None, numbers, strings), or integers too big for
        # int64 (a Kaggle column read as numbers, as pandas 3 reads it):
        # judged item by item.
        return [series.tolist()]
    return _to_parts(array)


def __getattr__(name: str) -> "ModuleType":
    """Loads :mod:`sudoku_batch.pandas`, ``.polars`` and ``.dask`` on first access."""
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))
