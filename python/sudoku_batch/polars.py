"""Polars helper: append the result columns to a DataFrame or LazyFrame.

>>> import polars as pl, sudoku_batch
>>> df = pl.DataFrame({"id": [7], "puzzle": [
...     "016400000200009000400000062070230100100000003003087040960000005000800007000006820"]})
>>> sudoku_batch.polars.solve(df, "puzzle").select("id", "status").rows()
[(7, 'solved')]
"""

from __future__ import annotations

import functools
from typing import Optional, TypeVar

import polars as pl

import sudoku_batch
from sudoku_batch._frames import result_columns, result_names

__all__ = ["solve", "RESULT_DTYPE", "RATED_DTYPE"]

#: The result columns as a Polars struct (the dtype of the mapped column).
RESULT_DTYPE = pl.Struct(
    {
        "status": pl.String,
        "solution": pl.String,
        "guesses": pl.UInt64,
        "solve_us": pl.Float64,
        "message": pl.String,
    }
)

#: The result columns with ``rate=True``: :data:`RESULT_DTYPE`'s, then
#: ``rating`` and ``hardest``.
RATED_DTYPE = pl.Struct(
    [*RESULT_DTYPE.fields, pl.Field("rating", pl.Float64), pl.Field("hardest", pl.String)]
)

Frame = TypeVar("Frame", pl.DataFrame, pl.LazyFrame)


def solve(
    df: Frame,
    column: str,
    *,
    mode: str = "unique",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    prefix: str = "",
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    rate: bool = False,
) -> Frame:
    """Solve the puzzles in column ``column``; return the frame with the result columns appended.

    ``df`` may be a ``DataFrame`` (solved now) or a ``LazyFrame`` (solved
    when collected, through ``map_batches``: the plan stays lazy and
    streaming engines hand over the column batch by batch). Every input
    column is kept, in row order, then ``status``, ``solution``,
    ``guesses``, ``solve_us`` and ``message`` (see
    :data:`sudoku_batch.SCHEMA`), with ``rate=True`` then ``rating`` and
    ``hardest`` (as ``solve --rate`` adds them), each name preceded by
    ``prefix``.

    Options as for :func:`sudoku_batch.solve` (a LazyFrame's batches are
    parts of the column: ``symbols`` or ``box`` that fits none of one
    batch's puzzles is not refused). The frame's other columns
    keep their dtypes, so the command line's ``--keep-types`` has no
    counterpart here: cast them with ``cast``.

    Raises
    ------
    KeyError
        ``column`` is not a column of a DataFrame (a LazyFrame fails when collected).
    ValueError
        A result column's name is already taken (pass ``prefix``), or an
        option is out of range.
    TypeError
        ``df`` is neither a Polars DataFrame nor a LazyFrame, or an option
        has the wrong type.
    """
    if isinstance(df, (pl.DataFrame, pl.LazyFrame)):
        if not isinstance(column, str):
            raise TypeError(f"column must be a column name (str), not {type(column).__name__}")
        sudoku_batch._check_bool("rate", rate)
    if isinstance(df, pl.DataFrame):
        names = result_names(df.columns, prefix, rate)
        if column not in df.columns:
            raise KeyError(f"no column {column!r} in the frame (columns: {df.columns})")
        table = sudoku_batch.solve(
            df.get_column(column),
            mode=mode,
            threads=threads,
            max_guesses=max_guesses,
            symbols=symbols,
            box=box,
            rate=rate,
        )
        results = pl.from_arrow(table)
        return df.hstack(results.rename(dict(zip(result_columns(rate), names))).get_columns())
    if isinstance(df, pl.LazyFrame):
        existing = df.collect_schema().names()
        names = result_names(existing, prefix, rate)
        sudoku_batch._check_options(mode, threads, max_guesses)
        sudoku_batch._check_sizes(symbols, box)
        solve_batch = functools.partial(
            _solve_series,
            mode=mode,
            threads=threads,
            max_guesses=max_guesses,
            symbols=symbols,
            box=box,
            rate=rate,
        )
        # The struct's fields take their final names before it is unnested:
        # unnested under the plain names, a `solution` or `message` of the
        # input would be a duplicate column. The struct itself is named
        # after no input column, which with_columns would replace.
        struct = "__sudoku_batch_results"
        while struct in existing:
            struct += "_"
        return df.with_columns(
            pl.col(column)
            .map_batches(
                solve_batch,
                return_dtype=RATED_DTYPE if rate else RESULT_DTYPE,
                is_elementwise=True,
            )
            .struct.rename_fields(names)
            .alias(struct)
        ).unnest(struct)
    raise TypeError(f"df must be a Polars DataFrame or LazyFrame, not {type(df).__name__}")


def _solve_series(
    series: pl.Series,
    *,
    mode: str,
    threads: Optional[int],
    max_guesses: Optional[int],
    symbols: Optional[str],
    box: Optional[str],
    rate: bool,
) -> pl.Series:
    """One batch of a LazyFrame's puzzle column, solved, as a struct Series."""
    table = sudoku_batch._solve(
        series,
        whole=False,
        mode=mode,
        threads=threads,
        max_guesses=max_guesses,
        symbols=symbols,
        box=box,
        rate=rate,
    )
    return pl.from_arrow(table).to_struct(series.name)
