"""The Rust extension behind :mod:`sudoku_batch` (use the package's functions)."""

from typing import Any, List, Optional, Sequence, Tuple, Union

__version__: str
MAX_THREADS: int

class ArrowBatch:
    """One block of results: a struct array of the result columns."""

    def __arrow_c_array__(self, requested_schema: Optional[Any] = None) -> Tuple[Any, Any]: ...
    def __len__(self) -> int: ...

def solve(
    parts: List[Any],
    *,
    mode: str = "unique",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    symbols: Optional[str] = None,
    shape: Optional[str] = None,
    rate: bool = False,
    whole: bool = True,
) -> List[ArrowBatch]:
    """Solves ``parts`` (Arrow arrays and lists) in order; GIL released.
    Unless ``whole`` is false (a part of a larger set), ``symbols`` and
    ``shape`` must fit one of the puzzles (``ValueError``)."""

def rate(
    parts: List[Any],
    *,
    threads: Optional[int] = None,
    symbols: Optional[str] = None,
    shape: Optional[str] = None,
) -> List[ArrowBatch]:
    """Rates ``parts`` (Arrow arrays and lists) in order; GIL released."""

def solve_file(
    inputs: Sequence[str],
    output: str,
    *,
    mode: str = "unique",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    solver: str = "fast",
    format: str = "auto",
    column: Optional[Any] = None,
    solutions: Optional[str] = None,
    limit: Optional[int] = None,
    resume: bool = False,
    keep: Optional[Sequence[Union[str, int]]] = None,
    keep_all: bool = False,
    delimiter: str = "auto",
    output_format: Optional[str] = None,
    output_delimiter: str = ",",
    blank: str = ".",
    symbols: Optional[str] = None,
    shape: Optional[str] = None,
    keep_types: Optional[Sequence[str]] = None,
    rate: bool = False,
    shard: Optional[str] = None,
    summary_json: Optional[str] = None,
    summary_html: Optional[str] = None,
    parquet_compression: Optional[str] = None,
) -> str:
    """Runs the ``solve`` job; returns the summary JSON text."""
