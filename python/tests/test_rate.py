"""``sudoku_batch.rate``: Sudoku Explainer ratings of in-memory puzzles."""

import csv
import pathlib

import pyarrow as pa
import pytest

import sudoku_batch

DATA = pathlib.Path(__file__).resolve().parents[2] / "data" / "serate_ratings.csv"


def _rated(limit):
    with DATA.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return rows[:limit]


def test_ratings_match_serate_on_the_shipped_sample():
    rows = _rated(120)
    table = sudoku_batch.rate([r["puzzle"] for r in rows], threads=2)
    assert table.schema == sudoku_batch.RATE_SCHEMA
    assert table.num_rows == len(rows)
    ours = table.column("rating").to_pylist()
    same = sum(1 for r, o in zip(rows, ours) if o is not None and abs(o - float(r["rating"])) < 0.05)
    assert same >= len(rows) * 0.98
    assert all(s == "solved" for s in table.column("status").to_pylist())
    assert all(n > 0 for n in table.column("steps").to_pylist())


def test_other_statuses_have_a_null_rating():
    bad = [
        "11" + "." * 79,  # invalid: a repeated digit
        "." * 81,  # multiple solutions
        "123",  # malformed
    ]
    table = sudoku_batch.rate(bad)
    assert table.column("status").to_pylist() == ["invalid", "multiple", "malformed"]
    assert table.column("rating").to_pylist() == [None, None, None]
    assert table.column("hardest").to_pylist() == [None, None, None]


def test_rate_takes_arrow_arrays_and_checks_options():
    puzzles = pa.array([r["puzzle"] for r in _rated(5)])
    assert sudoku_batch.rate(puzzles).column("rating").null_count == 0
    with pytest.raises(ValueError):
        sudoku_batch.rate(["." * 81], threads=0)
