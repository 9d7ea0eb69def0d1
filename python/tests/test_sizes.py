"""Grids of every size (issue 33) in the in-memory functions: solve() and
rate() read 4x4 to 64x64 puzzles as the command line reads them, and write
each solution in its puzzle's alphabet. Solutions are checked here cell by
cell (rows, columns, boxes, givens kept), and against the CLI's rows."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import sudoku_batch
from conftest import CASES, DATA, first_fields

FOUR = "3102200002100320"
FOUR_SOLUTION = "3142243142131324"
#: Unique with boxes of 3 rows by 2 columns, invalid with the usual 2x3.
SIX_3X2 = (CASES / "sizes-6x6-box-3x2.txt").read_text().split()[0]
SIXTEEN_DIGITS = (DATA / "sizes/16x16_1-9A-G_dots.txt").read_text().split()
#: The same puzzles in Alphadoku's letters A-P.
LETTERS = str.maketrans("123456789ABCDEFG", "ABCDEFGHIJKLMNOP")
SIXTEEN_LETTERS = [p.translate(LETTERS) for p in SIXTEEN_DIGITS]
BLANKS = set(".0-_+")


def grid_file(path) -> str:
    """A one-grid `--format grid` file of comma-separated numbers as one
    record: its n*n values joined by commas."""
    return ",".join(v for v in re.split(r"[,\s]+", path.read_text()) if v)


TWENTY_FIVE = grid_file(DATA / "sizes/25x25_comma_grid.txt")


def cells(text: str) -> list:
    """A record's cells as tokens: comma-separated values, else characters."""
    return [t for t in re.split(r"[,\s]+", text) if t] if "," in text else list(text)


def box_shape(side: int, rows: int | None = None) -> tuple:
    """The boxes of a side: `rows` rows, else the usual ones (the most
    nearly square with fewer rows than columns)."""
    if rows is None:
        rows = max(r for r in range(1, math.isqrt(side) + 1) if side % r == 0)
    return rows, side // rows


def assert_solves(puzzle: str, solution: str, rows: int | None = None) -> None:
    """`solution` is a complete grid whose rows, columns and boxes hold each
    symbol once, keeping every given of `puzzle`, in the same alphabet."""
    given, solved = cells(puzzle), cells(solution)
    side = math.isqrt(len(given))
    assert side * side == len(given) == len(solved)
    assert "." not in solved and "0" not in solution.split(",")
    for g, s in zip(given, solved):
        if g not in BLANKS:
            assert g == s, (puzzle, solution)
    r, c = box_shape(side, rows)
    units = [[row * side + col for col in range(side)] for row in range(side)]
    units += [[row * side + col for row in range(side)] for col in range(side)]
    units += [
        [(br + i) * side + bc + j for i in range(r) for j in range(c)]
        for br in range(0, side, r)
        for bc in range(0, side, c)
    ]
    for unit in units:
        assert len({solved[k] for k in unit}) == side, (solution, unit)


def solutions(table: pa.Table) -> list:
    assert table.column("status").to_pylist() == ["solved"] * table.num_rows, table.to_pylist()
    return table.column("solution").to_pylist()


@pytest.mark.parametrize(
    "make",
    [list, pa.array, pd.Series],
    ids=["list", "pyarrow", "pandas"],
)
def test_text_puzzles_of_every_size_are_solved_in_their_alphabet(make):
    puzzles = [FOUR, SIXTEEN_DIGITS[0], SIXTEEN_LETTERS[0], TWENTY_FIVE, SIXTEEN_DIGITS[1]]
    found = solutions(sudoku_batch.solve(make(puzzles)))
    assert found[0] == FOUR_SOLUTION
    for puzzle, solution in zip(puzzles, found):
        assert_solves(puzzle, solution)
    assert re.fullmatch(r"[1-9A-G]{256}", found[1])
    assert re.fullmatch(r"[A-P]{256}", found[2])
    assert len(found[3].split(",")) == 625


def test_nine_by_nine_puzzles_beside_other_sizes_keep_their_rows():
    nine = "016400000200009000400000062070230100100000003003087040960000005000800007000006820"
    alone = sudoku_batch.solve([nine]).drop_columns(["solve_us"])
    mixed = sudoku_batch.solve([FOUR, nine]).drop_columns(["solve_us"])
    assert mixed.slice(1).to_pylist() == alone.to_pylist()


def test_six_by_six_takes_the_usual_boxes_or_box():
    usual = sudoku_batch.solve([SIX_3X2])
    assert usual.column("status").to_pylist() == ["invalid"]
    (solution,) = solutions(sudoku_batch.solve([SIX_3X2], box="3x2"))
    assert_solves(SIX_3X2, solution, rows=3)


def test_integer_lists_of_other_sizes_are_read_as_numbers():
    values = [int(v) for v in TWENTY_FIVE.split(",")]
    four = [0 if c == "0" else int(c) for c in FOUR]
    rows = [values[r * 25 : (r + 1) * 25] for r in range(25)]
    for puzzles in (
        [four, values, rows],
        pa.array([four, values, [v for row in rows for v in row]], pa.list_(pa.int16())),
    ):
        found = solutions(sudoku_batch.solve(puzzles))
        assert found[0] == ",".join(FOUR_SOLUTION)
        assert found[1] == found[2]
        assert_solves(TWENTY_FIVE, found[1])
    nested = pa.array([rows], pa.list_(pa.list_(pa.int64())))
    assert solutions(sudoku_batch.solve(nested)) == found[1:2]
    grids = np.array([four, four], dtype=np.int8)
    assert solutions(sudoku_batch.solve(grids.reshape(2, 4, 4))) == [found[0]] * 2


def test_malformed_records_of_other_sizes_carry_the_cli_message(cli, tmp_path):
    bad = [FOUR[:-1] + "x", FOUR[:-1] + "7", [1] * 15 + [17]]
    table = sudoku_batch.solve(bad)
    assert table.column("status").to_pylist() == ["malformed"] * 3
    messages = table.column("message").to_pylist()
    path = tmp_path / "bad.csv"
    path.write_text("puzzle\n" + "\n".join(bad[:2]) + "\n")
    assert messages[:2] == [row["message"] for row in cli(str(path), "--format", "csv")]
    # A list as the CLI words the same list in JSON Lines (it was the
    # text reader's `number 17 at cell 16 ... (give --symbols)`).
    listed = tmp_path / "bad.jsonl"
    listed.write_text(json.dumps({"puzzle": bad[2]}) + "\n")
    assert messages[2:] == [row["message"] for row in cli(str(listed))]
    assert messages[2] == "item 16 (r4c4) is 17, expected 0-4"


def test_symbols_names_the_alphabet_as_the_cli_does(cli, tmp_path):
    # Hexadecimal 16x16 with 0 a symbol: `.` blanks; without `symbols`
    # a 1-9A-G reading would take 0 for a blank.
    hexa = SIXTEEN_DIGITS[0].translate(str.maketrans("123456789ABCDEFG", "0123456789ABCDEF"))
    (found,) = solutions(sudoku_batch.solve([hexa], symbols="0-9A-Z"))
    assert_solves(hexa, found)
    path = tmp_path / "hex.txt"
    path.write_text(hexa + "\n")
    (row,) = cli(str(path), "--symbols", "0-9A-Z")
    assert row["solution"] == found
    with pytest.raises(ValueError, match="symbols"):
        sudoku_batch.solve([FOUR], symbols="no such alphabet!!")
    with pytest.raises(ValueError, match="box"):
        sudoku_batch.solve([FOUR], box="3 by 2")
    with pytest.raises(TypeError, match="box"):
        sudoku_batch.solve([FOUR], box=3)


@pytest.mark.parametrize(
    "name, args",
    [
        ("16x16_1-9A-G_dots.txt", ()),
        ("16x16_A-P_dots.txt", ()),
        ("4x4_puzzle_solution_crlf.csv", ()),
        ("25x25_comma_grid.txt", ("--format", "grid")),
    ],
)
def test_results_equal_the_cli_solve_rows(cli, name, args):
    path = DATA / "sizes" / name
    rows = cli(str(path), "--first", *args)
    if args:
        puzzles = [grid_file(path)]
    elif name.endswith(".csv"):
        puzzles = [line.split(",")[0] for line in path.read_text().splitlines()[1:]]
    else:
        # The CLI's puzzle field of each line it reads (this file also has
        # lines of notes, malformed rows both ways).
        fields = first_fields(path)
        puzzles = [fields[int(row["line"])] for row in rows]
    assert len(rows) == len(puzzles)
    table = sudoku_batch.solve(puzzles, mode="first")
    for row, mine in zip(rows, table.to_pylist()):
        assert (mine["status"], mine["solution"] or "", mine["guesses"]) == (
            row["status"],
            row["solution"],
            int(row["guesses"]) if row["guesses"] else None,
        )


def test_rate_leaves_other_sizes_unrated_saying_why():
    table = sudoku_batch.rate([FOUR])
    assert table.to_pylist() == [
        {
            "rating": None,
            "hardest": None,
            "steps": None,
            "status": "solved",
            "message": "not rated: the rater is for 9x9 grids only",
        }
    ]


def test_the_guide_example_for_every_size_runs_as_written(monkeypatch):
    text = (DATA.parent / "docs/python.md").read_text()
    blocks = [b.split("```")[0] for b in text.split("```python\n")[1:]]
    (example,) = [b for b in blocks if "data/sizes" in b]
    monkeypatch.chdir(DATA.parent)
    namespace = {}
    exec(example, namespace)
    found = namespace["results"].column("solution").to_pylist()
    # The values the example's comments show.
    assert found[:2] == [FOUR_SOLUTION, "2,1,4,3,4,3,2,1,3,2,1,4,1,4,3,2"]
    assert_solves(namespace["sixteen"], found[2])
    assert namespace["six"].column("status").to_pylist() == ["solved"]


def test_polars_series_and_the_frame_helpers_take_every_size():
    import polars as pl

    (series,) = solutions(sudoku_batch.solve(pl.Series("p", [FOUR])))
    assert series == FOUR_SOLUTION
    frame = {"p": [FOUR, SIX_3X2]}
    for out in (
        sudoku_batch.pandas.solve(pd.DataFrame(frame), "p", box="3x2"),
        sudoku_batch.polars.solve(pl.DataFrame(frame), "p", box="3x2").to_pandas(),
        sudoku_batch.polars.solve(pl.LazyFrame(frame), "p", box="3x2").collect().to_pandas(),
    ):
        assert list(out["status"]) == ["solved", "solved"]
        assert out["solution"][0] == FOUR_SOLUTION
        assert_solves(SIX_3X2, out["solution"][1], rows=3)


def test_a_nine_by_nine_numbered_from_zero_is_solved_as_in_digits(tmp_path):
    """A 9x9 numbered from 0 (`-1` blanks), as a list of integers (flat,
    nested, a NumPy array: they were `malformed`) or as text, in memory or
    in a file, is solved by the 9x9 solver as the same puzzle written 1-9:
    the same statuses and guesses (the solver of other sizes solved it,
    with other guess counts), the solution written from 0."""
    puzzles = (DATA / "forum_hardest_2000.txt").read_text().split()[:6]
    lists = [[-1 if c == "." else int(c) - 1 for c in p] for p in puzzles]
    text = [",".join(map(str, cells)) for cells in lists]
    want = sudoku_batch.solve(puzzles).to_pylist()
    from_zero = [",".join(str(int(c) - 1) for c in w["solution"]) for w in want]
    path = tmp_path / "zero.txt"
    path.write_text("".join(f"{t}\n" for t in text))
    output = tmp_path / "zero.jsonl"
    sudoku_batch.solve_file(path, output, threads=1)
    in_file = [json.loads(line) for line in output.read_text().splitlines()]
    nested = [[cells[r * 9 : r * 9 + 9] for r in range(9)] for cells in lists]
    in_memory = [sudoku_batch.solve(p).to_pylist() for p in (lists, nested, np.array(lists), text)]
    for got in [*in_memory, in_file]:
        assert [(g["status"], g["guesses"]) for g in got] == [
            (w["status"], w["guesses"]) for w in want
        ]
        assert [g["solution"] for g in got] == from_zero


def test_box_1x9_gives_nine_by_nines_those_boxes_as_the_cli_does(cli, tmp_path):
    """`box="1x9"` solves 9x9 puzzles with rows for boxes, as `--box 1x9`
    does (it was ignored: the usual 3x3 boxes, `solved` where the CLI says
    `multiple`), in solve(), rate(), the frame helpers and Dask."""
    import dask.dataframe as dd
    import polars as pl

    puzzles = (DATA / "forum_hardest_2000.txt").read_text().split()[:12]
    path = tmp_path / "p.txt"
    path.write_text("\n".join(puzzles) + "\n")
    rows = cli(str(path), "--box", "1x9")
    want = [(r["status"], r["solution"] or None, int(r["guesses"])) for r in rows]
    assert {status for status, _, _ in want} != {"solved"}
    usual = sudoku_batch.solve(puzzles).column("status").to_pylist()
    assert [status for status, _, _ in want] != usual
    got = sudoku_batch.solve(puzzles, box="1x9").to_pylist()
    assert [(r["status"], r["solution"], r["guesses"]) for r in got] == want
    frame = {"p": puzzles}
    for out in (
        sudoku_batch.pandas.solve(pd.DataFrame(frame), "p", box="1x9"),
        sudoku_batch.polars.solve(pl.DataFrame(frame), "p", box="1x9").to_pandas(),
        sudoku_batch.dask.solve(
            dd.from_pandas(pd.DataFrame(frame), npartitions=3), "p", box="1x9"
        ).compute(),
    ):
        assert list(out["status"]) == [status for status, _, _ in want]
    rated = sudoku_batch.rate(puzzles, box="1x9").to_pylist()
    assert [r["status"] for r in rated] == [status for status, _, _ in want]
    assert all(r["rating"] is None for r in rated)


@pytest.mark.parametrize(
    "options, named",
    [
        ({"box": "2x2"}, "box=2x2 is for 4x4 grids"),
        ({"box": "3x2"}, "box=3x2 is for 6x6 grids"),
        ({"symbols": "A-Z"}, "symbols=A-Z fits no record read"),
    ],
)
def test_sizes_that_fit_no_puzzle_raise_before_solving(options, named):
    """A `box` or `symbols` that fits none of the puzzles raises, as the
    command line refuses it (it was ignored: every puzzle solved)."""
    puzzles = (DATA / "forum_hardest_2000.txt").read_text().split()[:3]
    for function in (sudoku_batch.solve, sudoku_batch.rate):
        with pytest.raises(ValueError, match=re.escape(named)):
            function(puzzles, **options)
    # The same options fit a batch that holds a grid of their kind.
    assert sudoku_batch.solve(puzzles + [FOUR], box="2x2").num_rows == 4


def test_a_partition_that_holds_no_grid_of_the_options_is_solved():
    """A Dask partition is a part of the frame: `box="3x2"` with the 6x6 in
    another partition is no error there (each partition was refused)."""
    import dask.dataframe as dd

    frame = pd.DataFrame({"p": [FOUR, SIX_3X2]})
    out = sudoku_batch.dask.solve(dd.from_pandas(frame, npartitions=2), "p", box="3x2")
    assert out.npartitions == 2
    assert list(out.compute()["status"]) == ["solved", "solved"]


def test_a_column_of_lists_is_read_in_one_numbering_as_the_cli_reads_it(cli, tmp_path):
    """A list column holding a 9x9 numbered from 0 (`-1` blanks) and the
    same puzzle numbered from 1 (`0` blanks) is read in one numbering, chosen
    on its first records, as the CLI reads the same column of a Parquet
    file: the second is `invalid` there, not read on its own (Python said
    solved, solved)."""
    import pyarrow.parquet as pq

    puzzle = (DATA / "top95.txt").read_text().split()[0]
    from_one = [0 if c == "." else int(c) for c in puzzle]
    from_zero = [c - 1 for c in from_one]
    column = pa.array([from_zero, from_one], type=pa.list_(pa.int64()))
    path = tmp_path / "numbering.parquet"
    pq.write_table(pa.table({"puzzle": column}), path)
    want = [(r["status"], r["message"]) for r in cli(str(path))]
    assert [status for status, _ in want] == ["solved", "invalid"]
    got = sudoku_batch.solve(column).to_pylist()
    assert [(r["status"], r["message"] or "") for r in got] == want
    python_lists = sudoku_batch.solve([from_zero, from_one]).to_pylist()
    assert [r["status"] for r in python_lists] == ["solved", "invalid"]


def test_one_odd_list_among_the_first_is_the_only_one_refused(cli, tmp_path):
    """1,199 lists numbered from 1 and one numbered from 0 (`-1` blanks),
    and the other way round: the numbering most of the first records need
    is chosen, and only the odd one is `malformed`, as the CLI reads the
    same column of a Parquet file (trial60 F1-6: the one list from 0 made
    the 1,199 others `malformed`)."""
    import pyarrow.parquet as pq

    lines = (DATA / "kaggle1m_10000.csv").read_text().splitlines()[1:1201]
    puzzles = [line.split(",")[0] for line in lines]
    for zero, odd in ((False, 0), (True, 1)):
        shifts = [int((i == 3) != zero) for i in range(len(puzzles))]
        lists = [[int(c) - shift for c in p] for p, shift in zip(puzzles, shifts)]
        got = [(r["status"], r["message"] or "") for r in sudoku_batch.solve(lists).to_pylist()]
        assert [i for i, (status, _) in enumerate(got) if status != "solved"] == [3]
        assert got[3][0] == "malformed"
        assert got[3][1].startswith(f"numbered from {odd} (")
        assert got[3][1].endswith(
            f"but most of this input's first 9x9 records are numbered from {1 - odd} "
            "(999 of 1000): one numbering per input"
        )
        path = tmp_path / f"odd{odd}.parquet"
        pq.write_table(pa.table({"puzzle": pa.array(lists, type=pa.list_(pa.int64()))}), path)
        assert [(r["status"], r["message"]) for r in cli(str(path))] == got
