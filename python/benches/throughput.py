"""Throughput of sudoku_batch.solve on a PyArrow array against the CLI on
the same puzzles, run alternately (A B A B ...) so that machine drift hits
both alike.

    python python/benches/throughput.py PUZZLES.csv --column quizzes \
        --cli target/release/sudoku-batch --threads 2 --rounds 5

PUZZLES.csv is read once into a PyArrow string array (not timed); each
round then times one `sudoku_batch.solve(array)` call and one whole CLI run
(`solve PUZZLES.csv -o /dev/null --quiet`, process start to exit). Prints
puzzles/s per round, the medians, and the median ratio Python / CLI.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

import pyarrow as pa
import pyarrow.csv as pacsv

import sudoku_batch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles")
    parser.add_argument("--column", default="quizzes")
    parser.add_argument("--cli", required=True)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    text = pacsv.ConvertOptions(column_types={args.column: pa.string()}, include_columns=[args.column])
    array = pacsv.read_csv(args.puzzles, convert_options=text).column(args.column).combine_chunks()
    n = len(array)
    cli = [args.cli, "solve", args.puzzles, "-o", "/dev/null", "--quiet"]
    if args.threads:
        cli += ["-j", str(args.threads)]
    rates = {"python": [], "cli": []}
    for round_ in range(args.rounds):
        start = time.perf_counter()
        table = sudoku_batch.solve(array, threads=args.threads)
        rates["python"].append(n / (time.perf_counter() - start))
        assert table.num_rows == n
        start = time.perf_counter()
        subprocess.run(cli, check=False)
        rates["cli"].append(n / (time.perf_counter() - start))
        print(f"round {round_ + 1}: python {rates['python'][-1]:,.0f}/s, cli {rates['cli'][-1]:,.0f}/s")
    ratios = [p / c for p, c in zip(rates["python"], rates["cli"])]
    for name, values in rates.items():
        print(f"{name}: median {statistics.median(values):,.0f} puzzles/s "
              f"(min {min(values):,.0f}, max {max(values):,.0f})")
    print(f"python / cli: median {statistics.median(ratios):.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f}) over {n:,} puzzles")


if __name__ == "__main__":
    main()
