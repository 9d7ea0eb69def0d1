"""What the frame helpers share: option passing and column naming."""

from __future__ import annotations

from typing import Iterable

RESULT_COLUMNS = ("status", "solution", "guesses", "solve_us", "message")

#: The columns ``rate=True`` adds after :data:`RESULT_COLUMNS`, as
#: ``solve --rate`` does.
RATING_COLUMNS = ("rating", "hardest")


def result_columns(rate: bool) -> tuple:
    """The result columns in order: with ``rate``, the rating columns too."""
    return RESULT_COLUMNS + RATING_COLUMNS if rate else RESULT_COLUMNS


def result_names(existing: Iterable[str], prefix: str, rate: bool = False) -> list:
    """The result columns' names with ``prefix``, refusing any that the
    frame already has (the helpers never overwrite or rename an input
    column)."""
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a str, not {type(prefix).__name__}")
    names = [prefix + name for name in result_columns(rate)]
    clashes = [name for name in names if name in set(existing)]
    if clashes:
        raise ValueError(
            f"the frame already has column(s) {', '.join(map(repr, clashes))}; "
            "pass a prefix for the result columns, e.g. prefix='result_'"
        )
    return names
