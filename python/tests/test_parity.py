"""solve_file and dask.solve at parity with the CLI's `solve`: each option
gives the rows the command line gives on the same input."""

from __future__ import annotations

import csv
import json
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


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """The CLI's `solve` with `args` (results to a file with `-o`)."""
    binary = find_cli()
    if binary is None:
        pytest.skip("no sudoku-batch binary: run `cargo build` or set SUDOKU_BATCH_BIN")
    done = subprocess.run(
        [binary, "solve", "--quiet", *args], capture_output=True, text=True, check=False
    )
    assert done.returncode in (0, 1), done.stderr
    return done


def parquet_rows(path) -> tuple:
    """A Parquet results file's schema and rows, `solve_us` left out."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    return table.schema, without_time(table.to_pylist())


RATED = DATA / "serate_ratings.csv"


@pytest.mark.parametrize(
    "keep_types",
    [
        {"rating": "float64", "source": "string"},
        "rating=float64,source=string",
        ["rating=FLOAT64", "source=string"],
    ],
    ids=["dict", "cli-text", "list"],
)
def test_solve_file_keep_types_gives_the_cli_parquet(tmp_path, keep_types):
    mine, theirs = tmp_path / "mine.parquet", tmp_path / "cli.parquet"
    sudoku_batch.solve_file(
        RATED, mine, keep=["rating", "source"], keep_types=keep_types, limit=30, threads=1
    )
    flags = ["--keep", "rating,source", "--keep-types", "rating=float64,source=string"]
    run_cli(str(RATED), *flags, "--limit", "30", "-j", "1", "-o", str(theirs))
    schema, rows = parquet_rows(mine)
    assert (schema, rows) == parquet_rows(theirs)
    assert str(schema.field("rating").type) == "double"
    assert rows[0]["rating"] == 1.2
    # Without keep_types a CSV field is kept as text.
    sudoku_batch.solve_file(RATED, tmp_path / "text.parquet", keep="rating", limit=3)
    assert str(parquet_rows(tmp_path / "text.parquet")[0].field("rating").type) == "string"


def test_solve_file_keep_types_int64_to_json_lines_and_malformed_rows_as_the_cli(cli, tmp_path):
    # A CSV `007` kept as the number 7 (docs/formats.md's example).
    source = tmp_path / "rated.csv"
    source.write_text(
        "puzzle,rating\n"
        ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.,007\n"
        ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.,n/a\n"
        ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.,\n"
    )
    mine, theirs = tmp_path / "mine.jsonl", tmp_path / "cli.jsonl"
    summary = sudoku_batch.solve_file(source, mine, keep="rating", keep_types={"rating": "int64"})
    run_cli(str(source), "--keep", "rating", "--keep-types", "rating=int64", "-o", str(theirs))
    lines = [json.loads(line) for line in mine.read_text().splitlines()]
    assert without_time(lines) == without_time(
        [json.loads(line) for line in theirs.read_text().splitlines()]
    )
    assert [line["rating"] for line in lines] == [7, None, None]
    assert [line["status"] for line in lines] == ["solved", "malformed", "solved"]
    assert "rating" in lines[1]["message"] and "n/a" in lines[1]["message"]
    assert summary["malformed"] == 1
    # CSV results: the CLI's rows.
    sudoku_batch.solve_file(source, tmp_path / "r.csv", keep="rating", keep_types="rating=int64")
    expected = cli(str(source), "--keep", "rating", "--keep-types", "rating=int64")
    assert without_time(read_rows(tmp_path / "r.csv")) == without_time(expected)


def test_solve_file_refuses_keep_types_the_cli_refuses(tmp_path):
    out = tmp_path / "o.csv"
    with pytest.raises(ValueError, match='keep_types: "int32" is not a type: the types are int64'):
        sudoku_batch.solve_file(RATED, out, keep="rating", keep_types={"rating": "int32"})
    with pytest.raises(ValueError, match="COL=TYPE"):
        sudoku_batch.solve_file(RATED, out, keep="rating", keep_types="rating")
    with pytest.raises(ValueError, match="no kept column is named \"score\""):
        sudoku_batch.solve_file(RATED, out, keep="rating", keep_types={"score": "int64"})
    with pytest.raises(TypeError, match="keep_types"):
        sudoku_batch.solve_file(RATED, out, keep="rating", keep_types={"rating": 64})
    with pytest.raises(TypeError, match="keep_types"):
        sudoku_batch.solve_file(RATED, out, keep="rating", keep_types=5)


def test_solve_file_refuses_a_keep_type_that_fits_no_value_as_the_cli_does(tmp_path):
    # serate_ratings.csv's `source` is text (`kaggle1m`): float64 fits none.
    out = tmp_path / "o.csv"
    out.write_text("the previous results\n")
    flags = ["--keep", "source", "--keep-types", "source=float64", "--limit", "30"]
    binary = find_cli()
    if binary is None:
        pytest.skip("no sudoku-batch binary: run `cargo build` or set SUDOKU_BATCH_BIN")
    done = subprocess.run(
        [binary, "solve", "--quiet", str(RATED), *flags, "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    with pytest.raises(ValueError, match="fits no value of \"source\"") as raised:
        sudoku_batch.solve_file(RATED, out, keep="source", keep_types="source=float64", limit=30)
    assert str(raised.value) in done.stderr
    assert "each of the 30 values read is refused" in str(raised.value)
    assert out.read_text() == "the previous results\n"


@pytest.mark.parametrize(
    "path, options, flags",
    [
        (RATED, {"limit": 40}, ["--limit", "40"]),
        # Invalid, multiple, malformed and unrated puzzles beside rated ones.
        (CASES / "r4-30-rate-misc.txt", {}, []),
        (SIZES / "4x4_puzzle_solution_crlf.csv", {"limit": 5}, ["--limit", "5"]),
    ],
    ids=["serate-sample", "mixed", "4x4"],
)
def test_solve_file_rate_gives_the_cli_rows(cli, tmp_path, path, options, flags):
    output = tmp_path / "results.csv"
    summary = sudoku_batch.solve_file(path, output, rate=True, threads=1, **options)
    mine = read_rows(output)
    assert without_time(mine) == without_time(cli(str(path), "--rate", "-j", "1", *flags))
    assert list(mine[0])[-2:] == ["rating", "hardest"]
    bands = summary["ratings"]["bands"]
    assert sum(bands.values()) == sum(1 for row in mine if row["rating"])
    assert sudoku_batch.solve_file(path, tmp_path / "plain.csv", limit=1)["ratings"] is None


def test_solve_file_rate_matches_serate_and_keeps_columns_in_parquet(tmp_path):
    mine, theirs = tmp_path / "mine.parquet", tmp_path / "cli.parquet"
    options = dict(keep=["rating"], keep_types={"rating": "float64"}, limit=40, threads=1)
    sudoku_batch.solve_file(RATED, mine, rate=True, **options)
    flags = ["--keep", "rating", "--keep-types", "rating=float64", "--limit", "40", "-j", "1"]
    run_cli(str(RATED), "--rate", *flags, "-o", str(theirs))
    schema, rows = parquet_rows(mine)
    assert (schema, rows) == parquet_rows(theirs)
    # solve --rate's `rating` beside the kept serate rating, which the CLI
    # names apart; they agree on nearly every puzzle (see test_rate.py).
    assert schema.names[-3:] == ["rating", "hardest", "input_rating"]
    assert str(schema.field("input_rating").type) == "double"
    same = [r for r in rows if r["rating"] and abs(r["rating"] - r["input_rating"]) < 0.05]
    assert len(same) >= 0.9 * len(rows)
    with pytest.raises(TypeError, match="rate"):
        sudoku_batch.solve_file(RATED, tmp_path / "x.csv", rate="yes")
