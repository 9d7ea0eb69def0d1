"""Shared fixtures: the repository's shipped data and the CLI to compare with."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "cases"
DATA = REPO / "data"


def find_cli() -> str | None:
    """The sudoku-batch binary: $SUDOKU_BATCH_BIN, else the repository's
    release or debug build, else one on PATH."""
    candidates = [os.environ.get("SUDOKU_BATCH_BIN")]
    candidates += [str(REPO / "target" / kind / "sudoku-batch") for kind in ("release", "debug")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("sudoku-batch")


@pytest.fixture(scope="session")
def cli():
    """Runs the CLI's `solve` and returns its result rows as dicts."""
    binary = find_cli()
    if binary is None:
        pytest.skip("no sudoku-batch binary: run `cargo build` or set SUDOKU_BATCH_BIN")

    def run(*args: str) -> list:
        done = subprocess.run(
            [binary, "solve", "--quiet", *args], capture_output=True, check=False
        )
        assert done.returncode in (0, 1), done.stderr.decode()
        return list(csv.DictReader(io.StringIO(done.stdout.decode())))

    return run


def first_fields(path: Path) -> dict:
    """Line number -> first whitespace-separated field, for every line that
    is not blank: the field the CLI reads as the puzzle of a lines file."""
    fields = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.split():
            fields[number] = line.split()[0]
    return fields


def kaggle_table():
    """The 10,000 shipped Kaggle puzzles as a pyarrow Table, read as text
    (read as numbers, `004300209...` would lose its leading zeros)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    text = pacsv.ConvertOptions(column_types={"quizzes": pa.string(), "solutions": pa.string()})
    return pacsv.read_csv(DATA / "kaggle1m_10000.csv", convert_options=text)
