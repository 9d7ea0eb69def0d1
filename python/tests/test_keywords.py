"""Every keyword of every function refuses a value of the wrong type with a
TypeError naming the keyword and the type it takes, before anything is
read or written."""

from __future__ import annotations

import inspect

import pandas as pd
import polars as pl
import pytest

import sudoku_batch
from conftest import CASES
from test_solve import PUZZLE

#: A value of the wrong type for each keyword, and what the message says
#: the keyword takes.
WRONG = {
    "mode": (1, "a str"),
    "threads": ("2", "an int or None"),
    "max_guesses": (1.5, "an int or None"),
    "timeout_ms": ("5", "an int or None"),
    "solver": (1, "a str"),
    "format": (None, "a str"),
    "column": (1.5, r"a header name \(str\) or a 1-based field number \(int\)"),
    "solutions": (3, r"a path \(str or os.PathLike\)"),
    "limit": ("3", "an int or None"),
    "resume": ("yes", "True or False"),
    "keep": (1.5, r"a column name \(str\), a 1-based number \(int\) or a list of them"),
    "keep_all": ("yes", "True or False"),
    "delimiter": (None, "a str"),
    "output_format": (1, "a str or None"),
    "output_delimiter": (44, "a str"),
    "blank": (0, "a str"),
    "symbols": (1, "a str or None"),
    "box": (3, "a str or None"),
    "keep_types": (5, "a dict of column names to types"),
    "rate": (1, "True or False"),
    "shard": (2.5, r"'K/N' \(str\) or \(K, N\)"),
    "summary_json": (3, r"a path \(str or os.PathLike\)"),
    "summary_html": (b"s.html", r"a path \(str or os.PathLike\)"),
    "parquet_compression": (1, "a str or None"),
    "prefix": (1, "a str"),
}


def keywords(function) -> list:
    parameters = inspect.signature(function).parameters.values()
    return [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]


def expect(name: str, value) -> str:
    return rf"^{name} must be {WRONG[name][1]}.*not {type(value).__name__}"


@pytest.mark.parametrize("name", keywords(sudoku_batch.solve_file))
def test_solve_file_names_the_keyword_and_the_type(tmp_path, name):
    value = WRONG[name][0]
    out = tmp_path / "out.csv"
    with pytest.raises(TypeError, match=expect(name, value)):
        sudoku_batch.solve_file(CASES / "07-last-cell.txt", out, **{name: value})
    assert not out.exists()


@pytest.mark.parametrize(
    "function", [sudoku_batch.solve, sudoku_batch.rate], ids=["solve", "rate"]
)
def test_solve_and_rate_name_the_keyword_and_the_type(function):
    for name in keywords(function):
        value = WRONG[name][0]
        with pytest.raises(TypeError, match=expect(name, value)):
            function([PUZZLE], **{name: value})


def frames():
    import dask.dataframe as dd

    df = pd.DataFrame({"puzzle": [PUZZLE] * 2})
    return [
        ("pandas", sudoku_batch.pandas.solve, df),
        ("polars", sudoku_batch.polars.solve, pl.from_pandas(df)),
        ("polars-lazy", sudoku_batch.polars.solve, pl.from_pandas(df).lazy()),
        ("dask", sudoku_batch.dask.solve, dd.from_pandas(df, npartitions=1)),
    ]


@pytest.mark.parametrize("kind", ["pandas", "polars", "polars-lazy", "dask"])
def test_the_frame_helpers_name_the_keyword_and_the_type(kind):
    _, function, frame = next(f for f in frames() if f[0] == kind)
    for name in keywords(function):
        value = WRONG[name][0]
        with pytest.raises(TypeError, match=expect(name, value)):
            function(frame, "puzzle", **{name: value})
    with pytest.raises(TypeError, match=r"^column must be a column name.*not list"):
        function(frame, ["puzzle"])


@pytest.mark.parametrize(
    "inputs, name, wrong",
    [
        (5, "inputs", "int"),
        ([CASES / "07-last-cell.txt", 5], "inputs", "int"),
        ({"a": 1}, "inputs", "dict"),
        (b"in.txt", "inputs", "bytes"),
    ],
)
def test_solve_file_names_inputs_and_output_of_the_wrong_type(tmp_path, inputs, name, wrong):
    with pytest.raises(TypeError, match=rf"^{name} must be a path .*not {wrong}"):
        sudoku_batch.solve_file(inputs, tmp_path / "out.csv")
    with pytest.raises(TypeError, match=r"^output must be a path .*not int"):
        sudoku_batch.solve_file(CASES / "07-last-cell.txt", 1)


def test_items_of_a_list_keyword_are_checked_too(tmp_path):
    source, out = CASES / "07-last-cell.txt", tmp_path / "out.csv"
    with pytest.raises(TypeError, match=r"^keep must be a header name .*not float"):
        sudoku_batch.solve_file(source, out, keep=["puzzle", 1.5])
    with pytest.raises(TypeError, match=r"^keep must be a header name .*not bool"):
        sudoku_batch.solve_file(source, out, keep=[True])
    with pytest.raises(TypeError, match=r"^shard must be .*not tuple"):
        sudoku_batch.solve_file(source, out, shard=(1, 2, 3))
    with pytest.raises(TypeError, match=r"^keep_types must map"):
        sudoku_batch.solve_file(source, out, keep="rating", keep_types={"rating": 64})
    assert not out.exists()


def test_every_keyword_has_a_wrong_value_here():
    functions = [
        sudoku_batch.solve_file,
        sudoku_batch.solve,
        sudoku_batch.rate,
        sudoku_batch.pandas.solve,
        sudoku_batch.polars.solve,
        sudoku_batch.dask.solve,
    ]
    assert {name for f in functions for name in keywords(f)} == set(WRONG)
