"""Solve Sudoku puzzles in bulk from Python, on the sudoku-batch Rust core."""

import os
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

import pyarrow as pa

from . import dask as dask
from . import pandas as pandas
from . import polars as polars

__version__: str
SCHEMA: pa.Schema
RATED_SCHEMA: pa.Schema
RATE_SCHEMA: pa.Schema
MODES: Tuple[str, str]
MAX_THREADS: int

_Path = Union[str, "os.PathLike[str]"]

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
    """Solve every puzzle; one result row per puzzle, in order (see SCHEMA, RATED_SCHEMA)."""

def rate(
    puzzles: Any,
    *,
    threads: Optional[int] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
) -> pa.Table:
    """Rate every puzzle on the Sudoku Explainer scale; one row each (see RATE_SCHEMA)."""

def solve_file(
    inputs: Union[_Path, Sequence[_Path]],
    output: _Path,
    *,
    mode: str = "unique",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    solver: str = "fast",
    format: str = "auto",
    column: Union[str, int, None] = None,
    solutions: Optional[_Path] = None,
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
    summary_json: Optional[_Path] = None,
    summary_html: Optional[_Path] = None,
    parquet_compression: Optional[str] = None,
) -> dict:
    """Run the ``sudoku-batch solve`` job on files; return the summary."""
