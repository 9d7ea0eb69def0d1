"""sudoku_batch.solve: input types, statuses, bad input, arguments, the GIL."""

from __future__ import annotations

import threading
import time

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import sudoku_batch
from conftest import CASES, DATA, first_fields, kaggle_table

PUZZLE = "016400000200009000400000062070230100100000003003087040960000005000800007000006820"
SOLUTION = "316452978285679314497318562879234156142965783653187249968721435521843697734596821"
INVALID = ".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6.."
MULTIPLE = "." * 81
UNSOLVABLE = "..9.287..8.6..4..5..3.....46.........2.71345.........23.....5..9..4..8.7..125.3.."
HARD = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"

MIXED = [PUZZLE, INVALID, MULTIPLE, UNSOLVABLE, HARD, PUZZLE[:80], "x" * 81]
MIXED_STATUSES = ["solved", "invalid", "multiple", "unsolvable", "solved", "malformed", "malformed"]


def without_times(table: pa.Table) -> pa.Table:
    return table.drop_columns(["solve_us"])


def test_a_puzzle_is_solved_with_the_results_csv_columns():
    table = sudoku_batch.solve([PUZZLE])
    assert table.schema == sudoku_batch.SCHEMA
    assert table.column_names == ["status", "solution", "guesses", "solve_us", "message"]
    row = table.to_pylist()[0]
    assert row["status"] == "solved"
    assert row["solution"] == SOLUTION
    assert isinstance(row["guesses"], int) and row["guesses"] >= 0
    assert row["solve_us"] > 0
    assert row["message"] is None


def test_solve_us_has_one_decimal_as_the_cli_writes_it():
    times = [t for t in sudoku_batch.solve([HARD, PUZZLE] * 20)["solve_us"].to_pylist()]
    assert all(t == round(t, 1) for t in times), times


def test_statuses_and_messages_of_a_mixed_batch():
    table = sudoku_batch.solve(MIXED)
    assert table.column("status").to_pylist() == MIXED_STATUSES
    messages = table.column("message").to_pylist()
    assert messages[1] == "9 twice in row 1: r1c2, r1c3"
    assert messages[5] == "80 cells, expected 81"
    assert messages[6] == "bad character 'x' at position 1"
    solutions = table.column("solution").to_pylist()
    assert solutions[0] == SOLUTION and solutions[4].startswith("987654321")
    assert solutions[1:4] == [None, None, None]
    malformed = table.slice(5).to_pylist()
    assert all(r["guesses"] is None and r["solve_us"] is None for r in malformed)


def every_input_type():
    """The MIXED puzzles in every container solve() accepts."""
    as_bytes = [p.encode() for p in MIXED]
    return {
        "list of str": MIXED,
        "tuple of str": tuple(MIXED),
        "generator of str": (p for p in MIXED),
        "list of bytes": as_bytes,
        "numpy str": np.array(MIXED),
        "numpy bytes": np.array(as_bytes),
        "numpy object": np.array(MIXED, dtype=object),
        "pyarrow string": pa.array(MIXED, pa.string()),
        "pyarrow large_string": pa.array(MIXED, pa.large_string()),
        "pyarrow string_view": pa.array(MIXED, pa.string_view()),
        "pyarrow binary": pa.array(as_bytes, pa.binary()),
        "pyarrow large_binary": pa.array(as_bytes, pa.large_binary()),
        "pyarrow dictionary": pa.array(MIXED).dictionary_encode(),
        "pyarrow chunked": pa.chunked_array([MIXED[:2], MIXED[2:3], [], MIXED[3:]]),
        "pyarrow sliced": pa.array(["pad"] + MIXED + ["pad"]).slice(1, len(MIXED)),
        "pandas object": pd.Series(MIXED, dtype=object),
        "pandas string": pd.Series(MIXED, dtype="string"),
        "pandas arrow string": pd.Series(MIXED, dtype=pd.ArrowDtype(pa.string())),
        "pandas categorical": pd.Series(MIXED, dtype="category"),
        "polars": pl.Series(MIXED),
        "polars categorical": pl.Series(MIXED, dtype=pl.Categorical),
    }


@pytest.mark.parametrize("name", list(every_input_type()))
def test_every_input_type_gives_the_same_table(name):
    expected = without_times(sudoku_batch.solve(MIXED))
    table = sudoku_batch.solve(every_input_type()[name])
    assert without_times(table).equals(expected), name


def cells(puzzle: str) -> list:
    return [0 if c in ".0" else int(c) for c in puzzle]


GOOD = [PUZZLE, INVALID, MULTIPLE, UNSOLVABLE, HARD]


@pytest.mark.parametrize(
    "make",
    [
        lambda rows: pa.array(rows, pa.list_(pa.int8())),
        lambda rows: pa.array(rows, pa.large_list(pa.int64())),
        lambda rows: pa.array(rows, pa.list_(pa.uint8(), 81)),
        lambda rows: np.array(rows, dtype=np.int32),
        lambda rows: rows,
        lambda rows: pl.Series(rows, dtype=pl.List(pl.Int16)),
    ],
    ids=["list<int8>", "large_list<int64>", "fixed_size_list<uint8,81>", "numpy 2-D", "python lists", "polars list"],
)
def test_lists_of_81_integers_give_the_same_table_as_strings(make):
    expected = without_times(sudoku_batch.solve(GOOD))
    table = sudoku_batch.solve(make([cells(p) for p in GOOD]))
    assert without_times(table).equals(expected)


def test_arrow_input_is_read_in_place():
    # A large array solved twice: pyarrow's allocation does not grow by a
    # copy of the input's character data.
    puzzles = pa.array([PUZZLE] * 20000)
    sudoku_batch.solve(puzzles[:10], threads=1)
    before = pa.total_allocated_bytes()
    table = sudoku_batch.solve(puzzles, threads=2)
    assert table.num_rows == 20000
    # The results are allocated by Rust, not pyarrow's pool: nothing of the
    # input was copied into it.
    assert pa.total_allocated_bytes() - before < puzzles.nbytes // 2


def test_bad_records_are_malformed_rows_and_never_stop_the_batch():
    bad = [None, 5, 3.5, PUZZLE[:-1], PUZZLE + "1", "", b"\xff" * 81, [1, 2, 3], [10] * 81, {"a": 1}, PUZZLE]
    table = sudoku_batch.solve(bad)
    statuses = table.column("status").to_pylist()
    assert statuses == ["malformed"] * 10 + ["solved"]
    messages = table.column("message").to_pylist()
    assert messages[0] == "found null, expected 81 cells or 9 lists of 9"
    assert messages[1].startswith("int value: a number, not a puzzle (read the column as text")
    assert messages[9] == "dict value, not a puzzle string or a list of 81 integers"
    assert messages[3] == "80 cells, expected 81"
    assert messages[4] == "82 cells, expected 81"
    assert messages[5] == "empty field, expected 81 cells"
    assert messages[6] == "byte 0xFF at position 1"
    assert messages[7] == "found a list of 3 values, expected 81 cells or 9 lists of 9"
    assert messages[8] == "item 1 is 10, expected 0-9"


def test_list_records_get_the_messages_the_cli_gives_them_in_parquet(cli, tmp_path):
    """python.md promises the CLI's messages: a list puzzle's are those of
    the same list in a Parquet column (they were Python's own: `value 10 at
    position 1`, and `a int at position 1, not an integer` for 2**70)."""
    import pyarrow.parquet as pq

    flat = [int(c) for c in PUZZLE.replace(".", "0")]
    rows = [flat[:80], None, flat[:5] + [12] + flat[6:], [None] + flat[1:], [-5] + flat[1:]]
    column = pa.array(rows, pa.list_(pa.int64()))
    path = tmp_path / "lists.parquet"
    pq.write_table(pa.table({"puzzle": column}), path)
    want = [row["message"] for row in cli(str(path))]
    assert sudoku_batch.solve(column).column("message").to_pylist() == want
    assert sudoku_batch.solve(rows).column("message").to_pylist() == want
    odd = sudoku_batch.solve([[2**70] + flat[1:], [1.5] + flat[1:], [True] + flat[1:]])
    assert odd.column("message").to_pylist() == [
        "item 1 is an integer (1180591620717411303424), expected an integer 0-9",
        "item 1 is a number (1.5), expected an integer 0-9",
        "item 1 is a boolean (true), expected an integer 0-9",
    ]


def bad_lists(side: int) -> dict:
    """Lists of cell values of a grid of `side` that are no grid, flat (n * n
    integers) or nested (n lists of n), each wrong in its last item or row."""
    cells = [int(c) for c in PUZZLE] if side == 9 else [0] * (side * side)
    rows = [cells[r * side : (r + 1) * side] for r in range(side)]
    return {
        "flat": {
            "above": cells[:-1] + [side + 1],
            "null item": cells[:-1] + [None],
            "negative": cells[:-1] + [-2],
        },
        "nested": {
            "short row": rows[:-1] + [rows[-1][:-1]],
            "null row": rows[:-1] + [None],
            "null item": rows[:-1] + [rows[-1][:-1] + [None]],
            "above": rows[:-1] + [rows[-1][:-1] + [side + 1]],
        },
    }


@pytest.mark.parametrize("side", [4, 9, 16, 25])
def test_bad_lists_of_every_size_get_the_cli_messages_as_python_lists_and_arrow(cli, tmp_path, side):
    """trial58 F2-1: a 16x16 list with a 17 said `number 17 at cell 256 ...
    (give --symbols)`, a null item `expected an integer 0-9`, a short row of
    a nested 16x16 `found a list of 16 values` (pyarrow) or `item 1 is a
    list` (Python lists) where the CLI names the item, its cell and the
    range, or the row. Each shape is compared with the CLI's messages for
    the same column in Parquet and in JSON Lines."""
    import json

    import pyarrow.parquet as pq

    for shape, records in bad_lists(side).items():
        rows = list(records.values())
        item = pa.int64() if shape == "flat" else pa.list_(pa.int64())
        column = pa.array(rows, pa.list_(item))
        parquet = tmp_path / f"{shape}.parquet"
        pq.write_table(pa.table({"puzzle": column}), parquet)
        jsonl = tmp_path / f"{shape}.jsonl"
        jsonl.write_text("".join(json.dumps({"puzzle": row}) + "\n" for row in rows))
        want = [(row["status"], row["message"]) for row in cli(str(parquet))]
        assert [(row["status"], row["message"]) for row in cli(str(jsonl))] == want
        assert all(status == "malformed" and message for status, message in want), want
        for puzzles in (column, rows, [tuple(row) if row else row for row in rows]):
            table = sudoku_batch.solve(puzzles)
            got = list(zip(table.column("status").to_pylist(), table.column("message").to_pylist()))
            assert got == want, (shape, list(records), type(puzzles))


def test_none_and_characters_outside_ascii_get_the_cli_messages(cli, tmp_path):
    """trial58 F2-1: `None` was `missing puzzle (None)` where the CLI says
    `found null ...` for a JSON null, and a full-width digit was written as
    itself where the CLI escapes it in every format (`'\\u{ff11}'`)."""
    import json

    records = [None, "\uff11" + PUZZLE[1:], "\u00e9" * 81, PUZZLE[:40] + "\t" + PUZZLE[41:]]
    jsonl = tmp_path / "odd.jsonl"
    jsonl.write_text("".join(json.dumps({"puzzle": p}) + "\n" for p in records))
    want = [(row["status"], row["message"]) for row in cli(str(jsonl))]
    assert want[:2] == [
        ("malformed", "found null, expected 81 cells or 9 lists of 9"),
        ("malformed", "bad character '\\u{ff11}' at position 1"),
    ]
    for puzzles in (records, pa.array(records, pa.string())):
        table = sudoku_batch.solve(puzzles)
        got = list(zip(table.column("status").to_pylist(), table.column("message").to_pylist()))
        assert got == want


@pytest.mark.parametrize(
    "bad",
    [
        pa.array([None, PUZZLE, None], pa.string()),
        pa.array([None, None]),
        pa.array([1, 2], pa.int64()),
        pd.Series([None, 7, PUZZLE]),
        pl.Series([None, PUZZLE]),
        np.array([1, 2, 3]),
        pa.array([[1] * 80, None, [1, None] + [0] * 79], pa.list_(pa.int64())),
    ],
    ids=["arrow nulls", "arrow null type", "arrow ints", "pandas mixed", "polars nulls", "numpy ints", "arrow lists"],
)
def test_bad_values_of_every_container_are_malformed_rows(bad):
    table = sudoku_batch.solve(bad)
    assert table.num_rows == len(bad)
    statuses = table.column("status").to_pylist()
    assert set(statuses) <= {"malformed", "solved"}
    assert "malformed" in statuses
    for row in table.to_pylist():
        if row["status"] == "malformed":
            assert row["message"], row


def test_puzzles_read_as_numbers_say_so():
    table = sudoku_batch.solve(pa.array([4.3e78, None], pa.float64()))
    assert table.column("status").to_pylist() == ["malformed", "malformed"]
    assert "read the column as text" in table.column("message")[0].as_py()


def test_a_pandas_column_of_puzzles_read_as_big_integers_gives_malformed_rows():
    # pandas reads Kaggle's `0`-blank puzzles as Python ints past int64.
    series = pd.Series([int(PUZZLE.replace(".", "0")), 2**70, None], dtype=object)
    table = sudoku_batch.solve(series)
    assert table.column("status").to_pylist() == ["malformed"] * 3
    assert "read the column as text" in table.column("message")[0].as_py()


def test_an_empty_input_gives_an_empty_table():
    for empty in ([], pa.array([], pa.string()), np.array([], dtype=str), pd.Series([], dtype=str)):
        table = sudoku_batch.solve(empty)
        assert table.num_rows == 0 and table.schema == sudoku_batch.SCHEMA


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"mode": "fast"}, ValueError),
        ({"mode": 1}, TypeError),
        ({"threads": 0}, ValueError),
        ({"threads": 5000}, ValueError),
        ({"threads": "2"}, TypeError),
        ({"threads": True}, TypeError),
        ({"max_guesses": -1}, ValueError),
        ({"max_guesses": 1.5}, TypeError),
    ],
)
def test_wrong_arguments_raise_clear_errors(kwargs, error):
    with pytest.raises(error, match=next(iter(kwargs))):
        sudoku_batch.solve([PUZZLE], **kwargs)


@pytest.mark.parametrize("puzzles", [PUZZLE, PUZZLE.encode(), 42, None, {"puzzle": PUZZLE}])
def test_puzzles_that_are_not_a_collection_raise_type_error(puzzles):
    with pytest.raises(TypeError, match="puzzles"):
        sudoku_batch.solve(puzzles)


def test_two_dimensional_arrays_need_81_columns():
    with pytest.raises(ValueError, match="81 columns"):
        sudoku_batch.solve(np.zeros((2, 80), dtype=int))


def test_first_mode_and_the_guess_limit():
    first = sudoku_batch.solve([MULTIPLE, HARD], mode="first")
    assert first.column("status").to_pylist() == ["solved", "solved"]
    free = sudoku_batch.solve([HARD, PUZZLE]).column("guesses").to_pylist()
    limited = sudoku_batch.solve([HARD, PUZZLE], max_guesses=0).to_pylist()
    assert any(free), "one puzzle needs a guess"
    for guesses, row in zip(free, limited):
        if guesses:
            assert (row["status"], row["message"]) == ("timeout", "guess limit 0 exceeded")
        else:
            assert row["status"] == "solved"


def test_results_are_the_same_for_any_thread_count():
    puzzles = (DATA / "forum_hardest_2000.txt").read_text().split()[:300]
    one = without_times(sudoku_batch.solve(puzzles, threads=1))
    assert without_times(sudoku_batch.solve(puzzles, threads=3)).equals(one)
    assert one.num_rows == 300


def test_kaggle_csv_through_pyarrow_matches_its_solution_column():
    table = kaggle_table()
    results = sudoku_batch.solve(table.column("quizzes"))
    assert results.num_rows == 10000
    assert results.column("status").to_pylist() == ["solved"] * 10000
    assert results.column("solution").equals(table.column("solutions").cast(pa.string()))


# Cases of tests/cases/ that are one puzzle field per line, and the options
# to run them with.
LINE_CASES = [
    ("01-anti-backtracking.txt", []),
    ("02-duplicate-givens.txt", []),
    ("04-no-solution.txt", []),
    ("05-multiple-solutions.txt", []),
    ("07-last-cell.txt", []),
    ("10-wrong-length.txt", []),
    ("15-parallel-order.txt", []),
    ("15-parallel-order.txt", ["--max-guesses", "3"]),
    ("05-multiple-solutions.txt", ["--first"]),
]


@pytest.mark.parametrize("case, flags", LINE_CASES, ids=[f"{c} {' '.join(f)}" for c, f in LINE_CASES])
def test_statuses_of_the_shipped_cases_match_the_cli(cli, case, flags):
    rows = cli(str(CASES / case), "-j", "1", *flags)
    fields = first_fields(CASES / case)
    puzzles = [fields[int(row["line"])] for row in rows]
    options = {}
    if "--first" in flags:
        options["mode"] = "first"
    if "--max-guesses" in flags:
        options["max_guesses"] = int(flags[flags.index("--max-guesses") + 1])
    table = sudoku_batch.solve(puzzles, threads=1, **options)
    assert table.column("status").to_pylist() == [row["status"] for row in rows]
    assert table.column("solution").to_pylist() == [row["solution"] or None for row in rows]
    assert [str(g) if g is not None else "" for g in table.column("guesses").to_pylist()] == [
        row["guesses"] for row in rows
    ]
    statuses = set(table.column("status").to_pylist())
    if case.startswith("15") and flags:
        assert "timeout" in statuses


def test_the_cases_cover_every_status(cli):
    seen = set()
    for case, flags in LINE_CASES:
        seen |= {row["status"] for row in cli(str(CASES / case), *flags)}
    assert seen == {"solved", "multiple", "unsolvable", "invalid", "malformed", "timeout"}


def test_another_python_thread_runs_while_solve_works():
    puzzles = (DATA / "forum_hardest_2000.txt").read_text().split()
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        start = time.perf_counter()
        repeats = 1
        while True:
            sudoku_batch.solve(puzzles * repeats, threads=1)
            if time.perf_counter() - start > 0.3:
                break
            repeats *= 2
            ticks.clear()
            start = time.perf_counter()
        end = time.perf_counter()
    finally:
        stop.set()
        ticker.join()
    middle = [t for t in ticks if start + 0.1 * (end - start) < t < end - 0.1 * (end - start)]
    # With the GIL held through the call the ticker could not run at all in
    # its middle; released, it ticks about once a millisecond.
    assert len(middle) > 0.2 * (end - start) * 1000 * 0.8, (len(middle), end - start)


def test_submodules_are_attributes_loaded_on_first_access():
    import importlib
    import sys

    assert {"pandas", "polars", "dask"} <= set(dir(sudoku_batch))
    for name in ("pandas", "polars", "dask"):
        module = getattr(sudoku_batch, name)
        assert module is importlib.import_module(f"sudoku_batch.{name}")
        assert sys.modules[f"sudoku_batch.{name}"] is module
        assert callable(module.solve) and module.solve.__doc__
    with pytest.raises(AttributeError):
        sudoku_batch.spark
