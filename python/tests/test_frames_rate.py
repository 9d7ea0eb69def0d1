"""``rate=True`` on ``solve`` and the frame helpers: the rows ``solve --rate``
writes, compared with the CLI's on shipped files."""

from __future__ import annotations

import math

import pandas as pd
import polars as pl
import pytest

import sudoku_batch
from conftest import CASES, DATA, first_fields

#: The columns compared with the CLI's CSV (``solve_us`` is a wall time).
COMPARED = ["status", "solution", "guesses", "message", "rating", "hardest"]


def as_cli_text(value) -> str:
    """A frame's value as the CLI's CSV writes it: empty for null, a rating
    with its one decimal."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def frame_rows(records: list, prefix: str = "") -> list:
    return [{name: as_cli_text(r[prefix + name]) for name in COMPARED} for r in records]


def cli_rows(rows: list) -> list:
    return [{name: row[name] for name in COMPARED} for row in rows]


def rated_csv(limit: int) -> pd.DataFrame:
    """serate_ratings.csv's first rows, as text: its own `rating` and
    `hardest` columns take the result columns' names."""
    return pd.read_csv(DATA / "serate_ratings.csv", dtype=str, nrows=limit)


def lines_frame(path) -> pd.DataFrame:
    """A lines file as a frame: the CLI's line number and puzzle field
    (`#` comment lines skipped, as the CLI skips them)."""
    fields = {n: f for n, f in first_fields(path).items() if not f.startswith("#")}
    return pd.DataFrame({"line": list(fields), "puzzle": list(fields.values())})


def mixed_file(directory):
    """r4-30-rate-misc.txt without its 11.0 puzzle (seconds to rate in a
    debug build): invalid, multiple, malformed, other sizes (not rated)
    and rated rows."""
    lines = (CASES / "r4-30-rate-misc.txt").read_text().splitlines(keepends=True)
    path = directory / "mixed.txt"
    path.write_text("".join(line for line in lines if not line.startswith("........1.....2.3")))
    return path


CASES_RATED = [
    # A rated sample whose own columns are named like the rating columns.
    ("serate", lambda _: DATA / "serate_ratings.csv", ["--limit", "40"], "result_", {}),
    ("mixed", mixed_file, [], "", {}),
    # --first still checks a rated puzzle has one solution (else multiple).
    ("mixed-first", mixed_file, ["--first"], "", {"mode": "first"}),
    ("hardest", lambda _: DATA / "magictour_top1465.txt", ["--limit", "6"], "", {}),
]


def input_frame(path, limit) -> pd.DataFrame:
    if path.suffix == ".csv":
        return pd.read_csv(path, dtype=str, nrows=limit)
    return lines_frame(path).head(limit)


@pytest.mark.parametrize(
    "name, make, flags, prefix, options", CASES_RATED, ids=[c[0] for c in CASES_RATED]
)
def test_every_frame_front_end_gives_the_cli_rated_rows(
    cli, tmp_path, name, make, flags, prefix, options
):
    path = make(tmp_path)
    expected = cli_rows(cli(str(path), "--rate", *flags))
    df = input_frame(path, int(flags[1]) if flags[:1] == ["--limit"] else None)
    assert len(df) == len(expected)

    table = sudoku_batch.solve(df["puzzle"], rate=True, threads=1, **options)
    assert table.schema == sudoku_batch.RATED_SCHEMA
    assert frame_rows(table.to_pylist()) == expected

    out = sudoku_batch.pandas.solve(df, "puzzle", rate=True, prefix=prefix, **options)
    assert list(out.columns)[-2:] == [prefix + "rating", prefix + "hardest"]
    assert list(out.columns)[: len(df.columns)] == list(df.columns)
    assert frame_rows(out.to_dict("records"), prefix) == expected

    frame = pl.from_pandas(df)
    eager = sudoku_batch.polars.solve(frame, "puzzle", rate=True, prefix=prefix, **options)
    assert frame_rows(eager.to_dicts(), prefix) == expected
    lazy = sudoku_batch.polars.solve(frame.lazy(), "puzzle", rate=True, prefix=prefix, **options)
    collected = lazy.collect()
    assert collected.schema == eager.schema
    assert frame_rows(collected.to_dicts(), prefix) == expected


def test_dask_gives_the_cli_rated_rows(cli, tmp_path):
    import dask.dataframe as dd

    path = mixed_file(tmp_path)
    expected = cli_rows(cli(str(path), "--rate"))
    ddf = dd.from_pandas(lines_frame(path), npartitions=3)
    out = sudoku_batch.dask.solve(ddf, "puzzle", threads=1, rate=True)
    assert list(out.columns)[-2:] == ["rating", "hardest"]
    computed = out.compute(scheduler="sync")
    assert list(computed.dtypes) == list(out.dtypes)
    assert frame_rows(computed.to_dict("records")) == expected


def test_rate_columns_are_refused_when_taken_and_rate_must_be_a_bool():
    df = rated_csv(3)
    with pytest.raises(ValueError, match="'rating', 'hardest'"):
        sudoku_batch.pandas.solve(df, "puzzle", rate=True)
    with pytest.raises(ValueError, match="'rating', 'hardest'"):
        sudoku_batch.polars.solve(pl.from_pandas(df).lazy(), "puzzle", rate=True)
    # Without rate the input's rating columns are no result's.
    assert sudoku_batch.pandas.solve(df, "puzzle")["rating"].tolist() == df["rating"].tolist()
    for call in (
        lambda: sudoku_batch.solve(df["puzzle"], rate="yes"),
        lambda: sudoku_batch.pandas.solve(df, "puzzle", rate=1),
        lambda: sudoku_batch.polars.solve(pl.from_pandas(df), "puzzle", rate="yes"),
        lambda: sudoku_batch.polars.solve(pl.from_pandas(df).lazy(), "puzzle", rate=None),
    ):
        with pytest.raises(TypeError, match="rate must be True or False"):
            call()


def test_without_rate_the_schema_is_unchanged():
    table = sudoku_batch.solve(rated_csv(2)["puzzle"])
    assert table.schema == sudoku_batch.SCHEMA


def test_the_guide_says_keep_types_has_no_frame_counterpart():
    text = (DATA.parent / "docs/python.md").read_text()
    section = text.split("## pandas, Polars and Dask")[1].split("\n## ")[0]
    assert "rate=True" in section and "keep_types" in section
