"""Round 3 of "Nothing lost", kind 6: solve() refuses what is not one column
of puzzles (tables, data frames, sets) with a TypeError naming what to pass,
and reads every puzzle shape the CLI reads from Parquet (9 lists of 9).
The case scripts r3-27 and r3-27b (tests/cases/) are run as written too."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sudoku_batch
from conftest import CASES, DATA, REPO

PUZZLE = "016400000200009000400000062070230100100000003003087040960000005000800007000006820"
SOLUTION = "316452978285679314497318562879234156142965783653187249968721435521843697734596821"
MULTIPLE = "." * 81
GOOD = [PUZZLE, MULTIPLE]


def cells(puzzle: str) -> list:
    return [0 if c in ".0" else int(c) for c in puzzle]


def rows_of(puzzle: str) -> list:
    flat = cells(puzzle)
    return [flat[r * 9 : r * 9 + 9] for r in range(9)]


def without_times(table: pa.Table) -> pa.Table:
    return table.drop_columns(["solve_us"])


@pytest.mark.parametrize(
    "frame",
    [
        pa.table({"quizzes": GOOD}),
        pa.record_batch({"quizzes": GOOD}),
        pa.table({"quizzes": GOOD}).to_struct_array(),
        pa.array([{"quizzes": p} for p in GOOD]),
        pd.DataFrame({"quizzes": GOOD}),
        pl.DataFrame({"quizzes": GOOD}),
        pl.DataFrame({"quizzes": GOOD}).lazy(),
    ],
    ids=["pyarrow.Table", "pyarrow.RecordBatch", "chunked struct", "struct array", "pandas", "polars", "polars lazy"],
)
def test_a_table_or_frame_raises_type_error_saying_to_pass_a_column(frame):
    with pytest.raises(TypeError, match="one column of puzzles") as raised:
        sudoku_batch.solve(frame)
    # The message names the column to pass.
    assert "quizzes" in str(raised.value)


def test_a_dask_frame_raises_type_error_too():
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(pd.DataFrame({"quizzes": GOOD}), npartitions=1)
    with pytest.raises(TypeError, match="one column of puzzles"):
        sudoku_batch.solve(frame)


@pytest.mark.parametrize("unordered", [set(GOOD), frozenset(GOOD)], ids=["set", "frozenset"])
def test_a_set_raises_type_error_it_has_no_order(unordered):
    with pytest.raises(TypeError, match="order"):
        sudoku_batch.solve(unordered)


def test_a_column_of_a_frame_is_what_to_pass():
    expected = without_times(sudoku_batch.solve(GOOD))
    for column in (
        pa.table({"quizzes": GOOD})["quizzes"],
        pd.DataFrame({"quizzes": GOOD})["quizzes"],
        pl.DataFrame({"quizzes": GOOD})["quizzes"],
    ):
        assert without_times(sudoku_batch.solve(column)).equals(expected)


@pytest.mark.parametrize(
    "make",
    [
        lambda grids: pa.array(grids),
        lambda grids: pa.array(grids, pa.large_list(pa.list_(pa.int8()))),
        lambda grids: pa.array(grids, pa.list_(pa.list_(pa.uint8(), 9), 9)),
        lambda grids: pa.chunked_array([pa.array(grids[:1]), pa.array(grids[1:])]),
        lambda grids: grids,
        lambda grids: [tuple(map(tuple, g)) for g in grids],
        lambda grids: np.array(grids, dtype=np.int16),
        lambda grids: pl.Series(grids),
        lambda grids: pl.Series(grids, dtype=pl.Array(pl.Int8, (9, 9))),
    ],
    ids=[
        "list<list<int64>>",
        "large_list<list<int8>>",
        "fixed_size_list<fixed_size_list<uint8,9>,9>",
        "chunked",
        "python lists",
        "python tuples",
        "numpy (n, 9, 9)",
        "polars list of lists",
        "polars array (9, 9)",
    ],
)
def test_nine_lists_of_nine_solve_like_strings(make):
    expected = without_times(sudoku_batch.solve(GOOD))
    table = sudoku_batch.solve(make([rows_of(p) for p in GOOD]))
    assert without_times(table).equals(expected)
    assert table.column("solution")[0].as_py() == SOLUTION


def test_nested_lists_that_are_not_grids_are_malformed_rows_saying_why():
    good = rows_of(PUZZLE)
    short_row = [list(r) for r in good]
    short_row[3] = short_row[3][:8]
    null_cell = [list(r) for r in good]
    null_cell[8][8] = None
    big = [list(r) for r in good]
    big[0][0] = 10
    bad = [good[:8], short_row, None, null_cell, big, [[1] * 9] * 9]
    table = sudoku_batch.solve(pa.array(bad, pa.list_(pa.list_(pa.int64()))))
    assert table.column("status").to_pylist() == ["malformed"] * 5 + ["invalid"]
    messages = table.column("message").to_pylist()
    # The command line's words for the same values in Parquet (a row of
    # the wrong length named by its row, as at other sizes).
    assert messages[0] == "found a list of 8 values, expected 81 cells or 9 lists of 9"
    assert messages[1] == "row 4 is a list of 8 values, expected 9"
    assert messages[2] == "found null, expected 81 cells or 9 lists of 9"
    assert messages[3] == "item 81 is null, expected an integer 0-9"
    assert "10" in messages[4]
    # Python lists say the same.
    listed = sudoku_batch.solve([good[:8], short_row])
    assert listed.column("message").to_pylist()[1] == "row 4 is a list of 8 values, expected 9"


def test_a_parquet_column_of_nine_lists_gives_the_cli_statuses(cli, tmp_path):
    # The shipped nested-grid file, as the CLI and as pyarrow read it.
    path = DATA / "nested_grid_1000.parquet"
    column = pq.read_table(path, columns=["grid"])["grid"]
    table = sudoku_batch.solve(column)
    rows = cli(str(path))
    assert table.column("status").to_pylist() == [r["status"] for r in rows]
    assert table.column("solution").to_pylist() == [r["solution"] or None for r in rows]
    assert set(table.column("status").to_pylist()) == {"solved"}


def test_max_guesses_past_u64_is_a_value_error():
    with pytest.raises(ValueError, match="max_guesses"):
        sudoku_batch.solve(GOOD, max_guesses=2**70)


def run_case(name: str) -> dict:
    """Runs a case script from the repository root (it reads data/) and
    returns its lines by the name before the first colon."""
    done = subprocess.run(
        [sys.executable, str(CASES / name)], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = {}
    for line in done.stdout.splitlines():
        # A keyword case is named by its dict, which holds ": " itself.
        if line.startswith("kw {"):
            name, _, rest = line.partition("}: ")
            name += "}"
        else:
            name, _, rest = line.partition(": ")
        lines[name] = rest
    return lines


def test_case_r3_27b_frames_raise_and_nested_lists_solve():
    lines = run_case("r3-27b-python-frames.py")
    for frame in ("pyarrow.Table", "pandas.DataFrame", "polars.DataFrame"):
        assert lines[frame].startswith("TypeError: puzzles must be one column of puzzles"), lines
        assert "quizzes" in lines[frame]
    assert lines["nested 9x9 lists (CLI Parquet reads these)"].startswith(
        "no exception, 1 rows, statuses ['solved']"
    ), lines


def test_case_r3_27_bad_types():
    lines = run_case("r3-27-python-bad-types.py")
    for name in ("pa table", "pd DataFrame", "set", "pa struct", "dict", "None", "int", "str", "bytes"):
        assert lines[name].startswith("EXC TypeError"), (name, lines[name])
    assert lines["pa nested 9x9"].startswith("rows=1 statuses=['solved']"), lines["pa nested 9x9"]
    assert lines["np int 3d"].startswith("rows=2 statuses=['multiple', 'multiple']"), lines["np int 3d"]
    for name in ("generator", "tuple", "pl list", "pl array", "pa fixed list"):
        assert lines[name].startswith("rows="), (name, lines[name])
    assert lines["kw {'max_guesses': 1180591620717411303424}"].startswith("EXC ValueError")
    assert lines["kw {'bogus': 1}"].startswith("EXC TypeError")
