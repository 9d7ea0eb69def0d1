"""solve_file's ``shard``, ``summary_json`` and ``summary_html``: the CLI's
``--shard K/N``, ``--summary-json`` and ``--summary-html``."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

import sudoku_batch
from conftest import DATA, find_cli
from test_parity import read_rows, without_time

KAGGLE = DATA / "kaggle1m_10000.csv"
TIMED = {"wall_s", "puzzles_per_s", "solve_cpu_s", "solve_us"}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    binary = find_cli()
    if binary is None:
        pytest.skip("no sudoku-batch binary: run `cargo build` or set SUDOKU_BATCH_BIN")
    done = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    return done


def untimed(summary: dict) -> dict:
    """A summary but for what is measured in time and the file names."""
    return {k: v for k, v in summary.items() if k not in TIMED | {"inputs", "output"}}


@pytest.mark.parametrize("shard", ["2/3", (2, 3)], ids=["text", "tuple"])
def test_a_shard_gives_the_cli_rows_and_summary(tmp_path, shard):
    mine, theirs = tmp_path / "mine.csv", tmp_path / "cli.csv"
    summary = sudoku_batch.solve_file(KAGGLE, mine, shard=shard, limit=30, threads=1)
    run_cli("solve", "--quiet", str(KAGGLE), "--shard", "2/3", "--limit", "30", "-j", "1",
            "-o", str(theirs), "--summary-json", str(tmp_path / "cli.json"))
    rows = read_rows(mine)
    assert without_time(rows) == without_time(read_rows(theirs))
    # Every third record of the first 30, numbered as in the whole input.
    assert [int(r["line"]) for r in rows] == list(range(3, 32, 3))
    assert summary["puzzles"] == 10
    cli_summary = json.loads((tmp_path / "cli.json").read_text())
    assert untimed(summary) == untimed(cli_summary)


def test_the_shards_merge_into_the_single_run(tmp_path):
    whole = tmp_path / "whole.csv"
    sudoku_batch.solve_file(KAGGLE, whole, limit=20)
    parts = []
    for k in (1, 2, 3):
        parts.append(tmp_path / f"part{k}.csv")
        sudoku_batch.solve_file(KAGGLE, parts[-1], limit=20, shard=(k, 3))
    merged = tmp_path / "merged.csv"
    run_cli("merge", *map(str, parts), "-o", str(merged))
    assert without_time(read_rows(merged)) == without_time(read_rows(whole))


def untimed_text(path) -> str:
    """JSON Lines results' text with every `solve_us` value null."""
    return re.sub(r'"solve_us":[0-9.]+', '"solve_us":null', path.read_text())


def test_json_lines_shards_merge_into_the_single_run(tmp_path):
    """Shards written as JSON Lines (Hugging Face's format) merge into the
    single run's JSON Lines, row for row as written, and into its CSV."""
    whole, whole_csv = tmp_path / "whole.jsonl", tmp_path / "whole.csv"
    sudoku_batch.solve_file(KAGGLE, whole, limit=20)
    sudoku_batch.solve_file(KAGGLE, whole_csv, limit=20)
    parts = []
    for k in (1, 2, 3):
        parts.append(tmp_path / f"part{k}.jsonl.gz")
        sudoku_batch.solve_file(KAGGLE, parts[-1], limit=20, shard=(k, 3))
    merged = tmp_path / "merged.jsonl"
    run_cli("merge", *map(str, parts), "-o", str(merged))
    assert untimed_text(merged) == untimed_text(whole)
    merged_csv = tmp_path / "merged.csv"
    run_cli("merge", *map(str, parts), "-o", str(merged_csv))
    assert without_time(read_rows(merged_csv)) == without_time(read_rows(whole_csv))


def test_summary_json_is_the_returned_summary_as_the_cli_writes_it(tmp_path):
    path = tmp_path / "summary.json"
    summary = sudoku_batch.solve_file(KAGGLE, tmp_path / "r.csv", limit=25, summary_json=path)
    assert json.loads(path.read_text()) == summary
    run_cli("solve", "--quiet", str(KAGGLE), "--limit", "25", "-o", str(tmp_path / "c.csv"),
            "--summary-json", str(tmp_path / "cli.json"))
    cli_summary = json.loads((tmp_path / "cli.json").read_text())
    assert list(summary) == list(cli_summary)
    assert untimed(summary) == untimed(cli_summary)


def test_summary_html_is_the_cli_page(tmp_path):
    page = tmp_path / "summary.html"
    sudoku_batch.solve_file(KAGGLE, tmp_path / "r.csv", limit=25, summary_html=page)
    run_cli("solve", "--quiet", str(KAGGLE), "--limit", "25", "-o", str(tmp_path / "c.csv"),
            "--summary-html", str(tmp_path / "cli.html"))
    mine, theirs = page.read_text(), (tmp_path / "cli.html").read_text()
    assert mine.lstrip().lower().startswith("<!doctype html")
    # The same sections and counts (the solve times differ run to run).
    def headings(html: str) -> list:
        return re.findall(r"<h[1-3][^>]*>([^<]*)", html)

    assert headings(mine) == headings(theirs) and "Status counts" in headings(mine)
    counts = re.search(r"Guesses: [^<]*", mine)
    assert counts and counts.group(0) in theirs


def test_summaries_and_shards_the_cli_refuses_are_value_errors(tmp_path):
    out = tmp_path / "r.csv"
    with pytest.raises(ValueError, match="summary_json and output both name"):
        sudoku_batch.solve_file(KAGGLE, out, limit=1, summary_json=out)
    with pytest.raises(ValueError, match="summary_json='-' needs an output file"):
        sudoku_batch.solve_file(KAGGLE, "-", limit=1, summary_json="-")
    with pytest.raises(ValueError, match="summary_html needs a file name"):
        sudoku_batch.solve_file(KAGGLE, out, limit=1, summary_html="-")
    with pytest.raises(ValueError, match="summary_html and output both name"):
        sudoku_batch.solve_file(KAGGLE, out, limit=1, summary_html=str(out))
    with pytest.raises(ValueError, match="summary_html and summary_json both name"):
        sudoku_batch.solve_file(
            KAGGLE, out, limit=1, summary_json=tmp_path / "s", summary_html=tmp_path / "s"
        )
    # Outputs that are one file by two names: refused when the files are checked.
    (tmp_path / "s.json").write_text("{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "s.json")
    with pytest.raises(ValueError, match="same file"):
        sudoku_batch.solve_file(
            KAGGLE, out, limit=1, summary_json=tmp_path / "s.json",
            summary_html=tmp_path / "link.json",
        )
    assert not out.exists()
    for bad in ("5/4", "0/4", "2of4", (3, 2)):
        with pytest.raises(ValueError, match="shard: .*K/N|shard: the shard"):
            sudoku_batch.solve_file(KAGGLE, out, limit=1, shard=bad)
    cli = run_cli_refused("solve", str(KAGGLE), "--shard", "5/4", "-o", str(out))
    with pytest.raises(ValueError) as raised:
        sudoku_batch.solve_file(KAGGLE, out, shard="5/4")
    assert str(raised.value).removeprefix("shard: ") in cli
    assert not out.exists()


def run_cli_refused(*args: str) -> str:
    binary = find_cli()
    if binary is None:
        pytest.skip("no sudoku-batch binary: run `cargo build` or set SUDOKU_BATCH_BIN")
    done = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    return done.stderr
