"""Dask helper: solve a Dask DataFrame's puzzle column partition by partition.

Each partition goes through :func:`sudoku_batch.pandas.solve` in whichever
process holds it: on a ``distributed`` cluster every worker process solves
its partitions on its own solver threads, so the work scales out across
machines with no scheduler of ours.

>>> import dask.dataframe as dd, sudoku_batch              # doctest: +SKIP
>>> ddf = dd.read_parquet("puzzles/")                        # doctest: +SKIP
>>> out = sudoku_batch.dask.solve(ddf, "puzzle", threads=1)  # doctest: +SKIP
>>> out.to_parquet("results/")                               # doctest: +SKIP
"""

from __future__ import annotations

from typing import Optional

import dask.dataframe as dd

import sudoku_batch
from sudoku_batch import pandas as _pandas

__all__ = ["solve"]


def solve(
    ddf: dd.DataFrame,
    column: str,
    *,
    mode: str = "unique",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    prefix: str = "",
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    rate: bool = False,
) -> dd.DataFrame:
    """Solve the puzzles in ``ddf[column]``; return a Dask DataFrame with the result columns appended.

    Lazy, like any Dask operation: nothing is solved until the result is
    computed or written. Partitions, divisions, the index and every input
    column are kept, in row order; ``status``, ``solution``, ``guesses``,
    ``solve_us`` and ``message`` follow (see :data:`sudoku_batch.SCHEMA`),
    with ``rate=True`` then ``rating`` and ``hardest`` (as ``solve --rate``
    adds them), each preceded by ``prefix``. The frame's other columns keep
    their dtypes (``--keep-types`` has no counterpart: cast them with
    ``astype``).

    ``threads`` is per partition task: with several worker threads per
    process, pass ``threads=1`` (or cores divided by worker threads) so that
    the solver threads do not outnumber the cores. ``symbols`` and ``box``
    read grids of other sizes than 9x9, as for :func:`sudoku_batch.solve`;
    a partition whose puzzles none of them fits is solved as it reads
    (the grids they are for may be in other partitions), not refused.

    Raises
    ------
    KeyError, ValueError, TypeError
        As for :func:`sudoku_batch.pandas.solve`, at once (checked against
        the frame's metadata, before any partition is solved).
    """
    if not isinstance(ddf, dd.DataFrame):
        raise TypeError(f"ddf must be a Dask DataFrame, not {type(ddf).__name__}")
    sudoku_batch._check_options(mode, threads, max_guesses)
    sudoku_batch._check_sizes(symbols, box)
    sudoku_batch._check_bool("rate", rate)
    options = dict(
        mode=mode,
        threads=threads,
        max_guesses=max_guesses,
        prefix=prefix,
        symbols=symbols,
        box=box,
        rate=rate,
    )
    # The empty metadata frame goes through the same helper, so the column
    # checks fail here and the output's dtypes are exactly the partitions'.
    # Each partition is a part of the frame: a `symbols` or `box` that fits
    # none of its puzzles is for another partition's grids.
    meta = _pandas._solve(ddf._meta, column, whole=False, **options)
    return ddf.map_partitions(_pandas._solve, column, meta=meta, whole=False, **options)
