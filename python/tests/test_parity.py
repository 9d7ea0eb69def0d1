"""solve_file and dask.solve at parity with the CLI's `solve`: each option
gives the rows the command line gives on the same input."""

from __future__ import annotations

import csv
import subprocess

import pandas as pd
import pytest

import sudoku_batch
from conftest import CASES, DATA, find_cli
from test_sizes import SIX_3X2, SIXTEEN_DIGITS, SIXTEEN_LETTERS

SIZES = DATA / "sizes"


def read_rows(path) -> list:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def without_time(rows: list) -> list:
    """The rows but for `solve_us`, a wall time that differs run to run."""
    return [{k: v for k, v in row.items() if k != "solve_us"} for row in rows]


@pytest.mark.parametrize(
    "path, options, flags",
    [
        (SIZES / "16x16_A-P_dots.txt", {"symbols": "A-Z"}, ["--symbols", "A-Z"]),
        (
            SIZES / "4x4_puzzle_solution_crlf.csv",
            {"symbols": "1-9A-Z", "limit": 40},
            ["--symbols", "1-9A-Z", "--limit", "40"],
        ),
        (
            SIZES / "4x4_comma_grid.txt",
            {"symbols": "numbers", "format": "grid"},
            ["--symbols", "numbers", "--format", "grid"],
        ),
        (CASES / "sizes-6x6-box-3x2.txt", {"box": "3x2"}, ["--box", "3x2"]),
    ],
    ids=["16x16-letters", "4x4-csv", "4x4-grid", "6x6-box-3x2"],
)
def test_solve_file_symbols_and_box_give_the_cli_rows(cli, tmp_path, path, options, flags):
    output = tmp_path / "results.csv"
    summary = sudoku_batch.solve_file(path, output, mode="first", threads=1, **options)
    mine = read_rows(output)
    theirs = cli(str(path), "--first", "-j", "1", *flags)
    assert without_time(mine) == without_time(theirs)
    assert summary["puzzles"] == len(mine) > 0


def test_solve_file_symbols_and_box_change_the_reading(tmp_path):
    # Without them the same files read otherwise: the options reach the job.
    six = CASES / "sizes-6x6-box-3x2.txt"
    assert sudoku_batch.solve_file(six, tmp_path / "a.csv", box="3x2")["solved"] == 1
    assert sudoku_batch.solve_file(six, tmp_path / "b.csv")["solved"] == 0


def test_solve_file_symbols_reads_hexadecimal_as_the_cli_does(cli, tmp_path):
    # 0 a symbol, G none: the solutions are written in the same digits.
    hexa = tmp_path / "hex.txt"
    digits = str.maketrans("123456789ABCDEFG", "0123456789ABCDEF")
    hexa.write_text("\n".join(p.translate(digits) for p in SIXTEEN_DIGITS[:4]) + "\n")
    summary = sudoku_batch.solve_file(hexa, tmp_path / "r.csv", mode="first", symbols="0-9A-Z")
    assert summary["solved"] == 4
    mine = read_rows(tmp_path / "r.csv")
    assert without_time(mine) == without_time(cli(str(hexa), "--first", "--symbols", "0-9A-Z"))
    assert all("0" in row["solution"] and "G" not in row["solution"] for row in mine)


def test_symbols_that_fit_no_record_raise_the_cli_error(tmp_path):
    # The CLI stops with exit 2 and this message; solve_file raises it.
    path = SIZES / "16x16_1-9A-G_dots.txt"
    binary = find_cli()
    if binary is None:
        pytest.skip("no sudoku-batch binary: run `cargo build` or set SUDOKU_BATCH_BIN")
    output = str(tmp_path / "c.csv")
    done = subprocess.run(
        [binary, "solve", "--quiet", str(path), "--symbols", "0-9A-Z", "-o", output],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    with pytest.raises(ValueError, match="fits no record") as raised:
        sudoku_batch.solve_file(path, tmp_path / "p.csv", symbols="0-9A-Z")
    assert str(raised.value) in done.stderr


def test_solve_file_refuses_symbols_and_box_the_cli_refuses(tmp_path):
    source = CASES / "sizes-6x6-box-3x2.txt"
    with pytest.raises(ValueError, match="symbols"):
        sudoku_batch.solve_file(source, tmp_path / "o.csv", symbols="no such alphabet!!")
    with pytest.raises(ValueError, match="box"):
        sudoku_batch.solve_file(source, tmp_path / "o.csv", box="3 by 2")
    with pytest.raises(TypeError, match="box"):
        sudoku_batch.solve_file(source, tmp_path / "o.csv", box=3)
    with pytest.raises(TypeError, match="symbols"):
        sudoku_batch.solve_file(source, tmp_path / "o.csv", symbols=["A-Z"])
    assert not (tmp_path / "o.csv").exists()


def test_dask_symbols_and_box_give_the_cli_rows(cli, tmp_path):
    import dask.dataframe as dd

    for puzzles, options, flags in (
        (SIXTEEN_LETTERS, {"symbols": "A-Z"}, ["--symbols", "A-Z"]),
        ([SIX_3X2] * 3, {"box": "3x2"}, ["--box", "3x2"]),
    ):
        path = tmp_path / "puzzles.txt"
        path.write_text("\n".join(puzzles) + "\n")
        theirs = cli(str(path), "--first", *flags)
        ddf = dd.from_pandas(pd.DataFrame({"puzzle": puzzles}), npartitions=2)
        out = sudoku_batch.dask.solve(ddf, "puzzle", mode="first", threads=1, **options)
        mine = out.compute(scheduler="sync")
        assert mine["status"].tolist() == [row["status"] for row in theirs] == ["solved"] * len(
            puzzles
        )
        assert mine["solution"].tolist() == [row["solution"] for row in theirs]
        assert mine["guesses"].tolist() == [int(row["guesses"]) for row in theirs]
    # Without box the 6x6 puzzle is read with the usual 2x3 boxes.
    ddf = dd.from_pandas(pd.DataFrame({"puzzle": [SIX_3X2]}), npartitions=1)
    assert sudoku_batch.dask.solve(ddf, "puzzle").compute(scheduler="sync")["status"].tolist() == [
        "invalid"
    ]


def test_dask_refuses_bad_symbols_and_box_before_computing():
    import dask.dataframe as dd

    ddf = dd.from_pandas(pd.DataFrame({"puzzle": SIXTEEN_DIGITS}), npartitions=2)
    with pytest.raises(ValueError, match="symbols"):
        sudoku_batch.dask.solve(ddf, "puzzle", symbols="no such alphabet!!")
    with pytest.raises(ValueError, match="box"):
        sudoku_batch.dask.solve(ddf, "puzzle", box="3 by 2")
    with pytest.raises(TypeError, match="box"):
        sudoku_batch.dask.solve(ddf, "puzzle", box=3)
