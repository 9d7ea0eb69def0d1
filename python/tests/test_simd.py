"""SUDOKU_BATCH_SIMD in the package: a value the command line refuses is
refused here too (ValueError with its message), never run at another level.
The variable is read once per process, so each case runs in a fresh
interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import find_cli

P = "016400000200009000400000062070230100100000003003087040960000005000800007000006820"

# Each call prints what it raised (or `ran`), one line per call; the input
# file and the output path come as arguments.
CALLS = textwrap.dedent(
    """
    import json, os, sys
    import sudoku_batch
    puzzles, output = sys.argv[1], sys.argv[2]
    calls = {
        "solve": lambda: sudoku_batch.solve([open(puzzles).read().strip()]),
        "rate": lambda: sudoku_batch.rate([open(puzzles).read().strip()]),
        "solve_file": lambda: sudoku_batch.solve_file(puzzles, output),
        "solve again": lambda: sudoku_batch.solve([open(puzzles).read().strip()]),
    }
    said = {}
    for name, call in calls.items():
        try:
            call()
            said[name] = "ran"
        except ValueError as error:
            said[name] = f"ValueError: {error}"
    said["output written"] = os.path.exists(output)
    print(json.dumps(said))
    """
)


def run_calls(tmp_path, value: str) -> dict:
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(P + "\n")
    output = tmp_path / "out.csv"
    env = dict(os.environ, SUDOKU_BATCH_SIMD=value)
    # Run elsewhere than python/, whose sudoku_batch (no extension built
    # in place) would shadow the installed package.
    done = subprocess.run(
        [sys.executable, "-c", CALLS, str(puzzles), str(output)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("value", ["AVX2", " avx2", "sse4", "avx-512"])
def test_an_unknown_level_raises_value_error_with_the_cli_message(tmp_path, value):
    said = run_calls(tmp_path, value)
    message = f"{value}: unknown level; the levels are scalar, avx2 and avx512"
    expected = f"ValueError: SUDOKU_BATCH_SIMD={message}"
    assert said == {
        "solve": expected,
        "rate": expected,
        "solve_file": expected,
        "solve again": expected,
        "output written": False,
    }
    binary = find_cli()
    if binary is not None:
        env = dict(os.environ, SUDOKU_BATCH_SIMD=value)
        cli = subprocess.run(
            [binary, "solve", str(tmp_path / "p.txt"), "--quiet"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert cli.returncode == 2
        assert cli.stderr == f"sudoku-batch: error: SUDOKU_BATCH_SIMD={message}\n"


@pytest.mark.parametrize("value", ["scalar", ""])
def test_a_level_this_cpu_has_or_none_runs(tmp_path, value):
    said = run_calls(tmp_path, value)
    assert said == {
        "solve": "ran",
        "rate": "ran",
        "solve_file": "ran",
        "solve again": "ran",
        "output written": True,
    }
