"""pandas helper: append the result columns to a DataFrame.

>>> import pandas as pd, sudoku_batch
>>> df = pd.DataFrame({"id": [7], "puzzle": [
...     "016400000200009000400000062070230100100000003003087040960000005000800007000006820"]})
>>> sudoku_batch.pandas.solve(df, "puzzle")[["id", "status"]].to_dict("records")
[{'id': 7, 'status': 'solved'}]
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Optional

import pandas as pd
import pyarrow as pa

import sudoku_batch
from sudoku_batch._frames import result_names

__all__ = ["solve"]


def solve(
    df: pd.DataFrame,
    column: str,
    *,
    mode: str = "unique",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    prefix: str = "",
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    rate: bool = False,
) -> pd.DataFrame:
    """Solve the puzzles in ``df[column]``; return ``df`` with the result columns appended.

    The returned frame has every input column and the input's index and row
    order, then ``status``, ``solution``, ``guesses`` (nullable ``UInt64``),
    ``solve_us`` and ``message`` (see :data:`sudoku_batch.SCHEMA`), with
    ``rate=True`` then ``rating`` and ``hardest`` (as ``solve --rate`` adds
    them), each name preceded by ``prefix``. ``df`` itself is not changed.

    Options as for :func:`sudoku_batch.solve`. The frame's other columns
    are carried through with their own dtypes, so the command line's
    ``--keep-types`` has no counterpart here: cast them with
    ``DataFrame.astype``.

    Raises
    ------
    KeyError
        ``column`` is not a column of ``df``.
    ValueError
        A result column's name is already taken (pass ``prefix``), or an
        option is out of range.
    TypeError
        ``df`` is not a pandas DataFrame, or an option has the wrong type.
    """
    return _solve(
        df,
        column,
        whole=True,
        mode=mode,
        threads=threads,
        max_guesses=max_guesses,
        prefix=prefix,
        symbols=symbols,
        box=box,
        rate=rate,
    )


def _solve(
    df: pd.DataFrame,
    column: str,
    *,
    whole: bool,
    mode: str,
    threads: Optional[int],
    max_guesses: Optional[int],
    prefix: str,
    symbols: Optional[str],
    box: Optional[str],
    rate: bool,
) -> pd.DataFrame:
    """:func:`solve` of a whole frame, or of a part of a larger one (not
    ``whole``: a Dask partition; see :func:`sudoku_batch._solve`)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a pandas DataFrame, not {type(df).__name__}")
    if not isinstance(column, Hashable):
        raise TypeError(f"column must be a column name, not {type(column).__name__}")
    if column not in df.columns:
        raise KeyError(f"no column {column!r} in the frame (columns: {list(df.columns)})")
    sudoku_batch._check_bool("rate", rate)
    names = result_names(df.columns, prefix, rate)
    table = sudoku_batch._solve(
        df[column],
        whole=whole,
        mode=mode,
        threads=threads,
        max_guesses=max_guesses,
        symbols=symbols,
        box=box,
        rate=rate,
    )
    results = to_pandas(table, df.index)
    results.columns = names
    return pd.concat([df, results], axis=1)


def to_pandas(table: pa.Table, index: Optional[pd.Index] = None) -> pd.DataFrame:
    """The result table as a DataFrame: ``guesses`` as nullable ``UInt64``,
    the text columns as pandas' string type (``solve_us`` and ``rating``
    float64, NaN where null), on ``index``."""
    types = {pa.uint64(): pd.UInt64Dtype(), pa.string(): pd.StringDtype()}
    frame = table.to_pandas(types_mapper=types.get)
    if index is not None:
        frame.index = index
    return frame
