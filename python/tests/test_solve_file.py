"""sudoku_batch.solve_file: the `solve` command's job, summary as a dict."""

from __future__ import annotations

import ast
import csv
import inspect
import json
import warnings

import pytest

import sudoku_batch
from conftest import CASES, DATA, REPO


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_solve_file_writes_the_results_and_returns_the_summary(tmp_path, cli):
    output = tmp_path / "results.csv"
    summary = sudoku_batch.solve_file(CASES / "10-wrong-length.txt", output, threads=1)
    assert summary["puzzles"] == 7
    assert summary["solved"] == 2 and summary["malformed"] == 5
    assert summary["threads"] == 1
    expected = cli(str(CASES / "10-wrong-length.txt"))
    rows = read_rows(output)
    assert [(r["line"], r["status"], r["message"]) for r in rows] == [
        (r["line"], r["status"], r["message"]) for r in expected
    ]


def test_solve_file_options(tmp_path):
    output = tmp_path / "results.csv.gz"
    summary = sudoku_batch.solve_file(
        [DATA / "kaggle1m_10000.csv"], str(output), limit=100, mode="first", max_guesses=5
    )
    assert summary["puzzles"] == 100 and summary["solved"] == 100
    assert summary["mode"] == "first"
    assert output.read_bytes()[:2] == b"\x1f\x8b"
    csv_summary = sudoku_batch.solve_file(
        CASES / "11-radcliffe-3m.csv", tmp_path / "r.csv", format="csv", column="puzzle"
    )
    assert csv_summary["solved"] == csv_summary["puzzles"] > 0


def without_timing(text):
    """JSON Lines results with every `solve_us` value masked."""
    rows = [json.loads(line) for line in text.splitlines()]
    for row in rows:
        row["solve_us"] = None
    return rows


@pytest.mark.parametrize("name", ["results.jsonl", "results.csv"])
def test_solve_file_resumes_a_results_file_cut_short(tmp_path, name):
    source = DATA / "kaggle1m_10000.csv"
    full = tmp_path / f"full-{name}"
    whole = sudoku_batch.solve_file(source, full, limit=300, threads=2)
    output = tmp_path / name
    sudoku_batch.solve_file(source, output, limit=120, threads=2)
    # The kept rows and the next one cut short, as a killed run leaves it
    # (the next row's first bytes: the two files' rows differ in length,
    # as their solve_us do, so the same offset in the other file may fall
    # on a line end, and leave a blank line, which is no row).
    kept = output.read_bytes()
    next_row = full.read_bytes().splitlines(keepends=True)[len(kept.splitlines())]
    output.write_bytes(kept + next_row[:50])
    summary = sudoku_batch.solve_file(source, output, limit=300, resume=True, threads=2)
    assert summary["puzzles"] == whole["puzzles"] == 300
    assert summary["solved"] == 300
    if name.endswith(".jsonl"):
        assert without_timing(output.read_text()) == without_timing(full.read_text())
    else:

        def drop(rows):
            return [{**row, "solve_us": ""} for row in rows]

        assert drop(read_rows(output)) == drop(read_rows(full))
    # Another run's file (other inputs) is refused and left as it was.
    before = output.read_bytes()
    with pytest.raises(ValueError, match="does not match the inputs"):
        sudoku_batch.solve_file(DATA / "top95.txt", output, resume=True, threads=2)
    assert output.read_bytes() == before


def test_solve_file_resumes_a_parquet_results_file(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    source = DATA / "kaggle1m_10000.csv"
    full = tmp_path / "full.parquet"
    sudoku_batch.solve_file(source, full, threads=2, keep="solutions")
    output = tmp_path / "results.parquet"
    # Stopped after 4,000 rows (as an interrupt leaves it: a readable file).
    sudoku_batch.solve_file(source, output, limit=4000, threads=2, keep="solutions")
    assert pq.read_metadata(output).num_rows == 4000
    summary = sudoku_batch.solve_file(
        source, output, resume=True, threads=2, keep="solutions"
    )
    assert summary["puzzles"] == summary["solved"] == 10000
    resumed = pq.read_table(output)
    expected = pq.read_table(full)
    assert resumed.schema == expected.schema
    assert resumed.drop_columns(["solve_us"]).equals(expected.drop_columns(["solve_us"]))
    assert list(tmp_path.glob(".results.parquet.resume*.partial")) == []
    # A file without its footer (a run killed outright) is refused by name
    # and left as it was.
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(full.read_bytes()[:100_000])
    with pytest.raises(ValueError, match="cut.parquet cannot be resumed: it has no Parquet footer"):
        sudoku_batch.solve_file(source, cut, resume=True, threads=2, keep="solutions")
    assert cut.read_bytes() == full.read_bytes()[:100_000]


def test_solve_file_takes_the_parquet_compression_of_the_command_line(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    source = DATA / "kaggle1m_10000.csv"
    tables = {}
    for choice in ("fast", "none", "snappy", "zstd"):
        output = tmp_path / f"{choice}.parquet"
        sudoku_batch.solve_file(source, output, threads=2, limit=3000, parquet_compression=choice)
        group = pq.read_metadata(output).row_group(0)
        codecs = {group.column(i).compression for i in range(group.num_columns)}
        assert codecs == {"fast": {"UNCOMPRESSED"}, "none": {"UNCOMPRESSED"}}.get(
            choice, {choice.upper()}
        ), choice
        tables[choice] = pq.read_table(output).drop_columns(["solve_us"])
    assert all(table.equals(tables["fast"]) for table in tables.values())
    with pytest.raises(ValueError, match="parquet_compression must be 'fast', 'none', 'snappy'"):
        sudoku_batch.solve_file(source, tmp_path / "r.parquet", parquet_compression="gzip")
    with pytest.raises(ValueError, match="--parquet-compression is for Parquet results"):
        sudoku_batch.solve_file(source, tmp_path / "r.csv", parquet_compression="zstd")
    assert not (tmp_path / "r.csv").exists()


def test_solve_file_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        sudoku_batch.solve_file(tmp_path / "missing.txt", tmp_path / "out.csv")
    with pytest.raises(ValueError, match="format"):
        sudoku_batch.solve_file(CASES / "07-last-cell.txt", tmp_path / "o.csv", format="xlsx")
    with pytest.raises(ValueError, match="threads"):
        sudoku_batch.solve_file(CASES / "07-last-cell.txt", tmp_path / "o.csv", threads=0)
    with pytest.raises(TypeError):
        sudoku_batch.solve_file(CASES / "07-last-cell.txt", tmp_path / "o.csv", colour=True)
    source = tmp_path / "in.txt"
    source.write_text((CASES / "07-last-cell.txt").read_text())
    with pytest.raises(ValueError, match="input"):
        sudoku_batch.solve_file(source, source)
    assert source.read_text() == (CASES / "07-last-cell.txt").read_text()


def test_solve_file_keeps_columns_and_writes_every_output_format(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    # A `;`-separated Excel export, read with the delimiter it names.
    source = DATA / "semicolon_excel_200.csv"
    out = tmp_path / "r.parquet"
    summary = sudoku_batch.solve_file(source, out, keep="solutions", delimiter=";", limit=20)
    assert summary["puzzles"] == 20
    table = pq.read_table(out)
    assert table.num_rows == 20
    assert table.column_names[-1] == "solutions"
    rows = table.to_pylist()
    assert all(r["status"] == "solved" and r["solution"] == r["solutions"] for r in rows)
    assert rows[0]["line"] == 2 and isinstance(rows[0]["guesses"], int)

    # JSON Lines with every column kept and `0` blanks; CSV with `;`.
    jsonl = tmp_path / "r.jsonl"
    sudoku_batch.solve_file(DATA / "puzzles_200.jsonl", jsonl, keep_all=True, blank="0", limit=5)
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(lines) == 5
    assert set(lines[0]) >= {"line", "puzzle", "status", "id", "level"}
    assert lines[0]["id"] == 1 and "." not in lines[0]["puzzle"]
    semi = tmp_path / "r.txt"
    sudoku_batch.solve_file(
        DATA / "puzzles_200.jsonl", semi, output_format="csv", output_delimiter=";", limit=3
    )
    assert semi.read_text().splitlines()[0].startswith("line;puzzle;status")

    with pytest.raises(ValueError, match="keep"):
        sudoku_batch.solve_file(source, tmp_path / "x.csv", keep=["solutions"], keep_all=True)
    with pytest.raises(ValueError, match="output_format"):
        sudoku_batch.solve_file(source, tmp_path / "x.csv", output_format="xlsx")
    with pytest.raises(ValueError, match="blank"):
        sudoku_batch.solve_file(source, tmp_path / "x.csv", blank="_")
    with pytest.raises(ValueError):
        sudoku_batch.solve_file(source, tmp_path / "x.xlsx")


def test_the_formats_page_reads_puzzles_and_solutions_back_as_text(tmp_path, monkeypatch):
    # docs/formats.md's recipe for data people, on the files it names, with
    # `0` blanks: numeric-looking text must not come back as numbers.
    pd = pytest.importorskip("pandas")
    pytest.importorskip("polars")
    for name in ("results.parquet", "results.jsonl", "results.csv.gz"):
        sudoku_batch.solve_file(DATA / "kaggle1m_10000.csv", tmp_path / name, blank="0", limit=50)
    text = (REPO / "docs/formats.md").read_text()
    (block,) = [b.split("```")[0] for b in text.split("```python\n")[1:] if "pd.read_json(" in b]
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        # pandas 3.1 deprecates the pandas 2 line's convert_dates.
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        exec(block, {})
    rows = pd.read_parquet("results.parquet")
    assert rows["puzzle"].str.startswith("0").any()
    calls = [line.split("#")[0] for line in block.splitlines() if "pd.read_" in line]
    readers = ["pd.read_" + call.split("pd.read_", 1)[1] for call in calls]
    assert [r.split("(")[0] for r in readers] == [
        "pd.read_parquet",
        "pd.read_json",
        "pd.read_json",
        "pd.read_csv",
    ]
    for reader in readers:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            frame = eval(reader, {"pd": pd})
        assert frame["puzzle"].tolist() == rows["puzzle"].tolist(), reader
        assert frame["solution"].tolist() == rows["solution"].tolist(), reader


@pytest.mark.parametrize(
    "stub, module", [("__init__.pyi", sudoku_batch), ("_native.pyi", sudoku_batch._native)]
)
def test_the_stubs_have_the_functions_keywords_and_defaults(stub, module):
    tree = ast.parse((REPO / "python/sudoku_batch" / stub).read_text())
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert {f.name for f in functions} >= {"solve", "rate", "solve_file"}
    for function in functions:
        parameters = inspect.signature(getattr(module, function.name)).parameters.values()
        keywords = {p.name: p.default for p in parameters if p.kind is p.KEYWORD_ONLY}
        args = function.args
        stubbed = {a.arg: ast.literal_eval(d) for a, d in zip(args.kwonlyargs, args.kw_defaults)}
        assert stubbed == keywords, f"{stub}: {function.name}"
        assert list(stubbed) == list(keywords), f"{stub}: {function.name}: the order"
        positional = [p.name for p in parameters if p.kind is not p.KEYWORD_ONLY]
        assert [a.arg for a in args.args] == positional, f"{stub}: {function.name}"


def test_the_guide_names_every_option_of_solve_rate_and_solve_file():
    text = (REPO / "docs/python.md").read_text()
    section = text.split("## Files: `sudoku_batch.solve_file`")[1].split("\n## ")[0]
    parameters = inspect.signature(sudoku_batch.solve_file).parameters.values()
    keywords = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
    assert len(keywords) == 24
    assert [k for k in keywords if f"`{k}`" not in section] == []
    # solve and rate: their signatures as written in the guide.
    for function in (sudoku_batch.solve, sudoku_batch.rate):
        parameters = inspect.signature(function).parameters.values()
        written = ", ".join(
            [p.name for p in parameters if p.kind is not p.KEYWORD_ONLY]
            + ["*"]
            + [f"{p.name}={p.default!r}" for p in parameters if p.kind is p.KEYWORD_ONLY]
        ).replace("'", '"')
        assert f"`sudoku_batch.{function.__name__}({written})`" in " ".join(text.split())


def test_the_formats_page_reads_kept_columns_named_like_dates_as_written(tmp_path, monkeypatch):
    # Kept columns that pandas 2's read_json turns into dates by their names
    # (`*_at`, `*_time`, `date`): the page's read_json line for the pandas
    # installed gives them back as the JSON Lines results hold them.
    pd = pytest.importorskip("pandas")
    source = tmp_path / "dated.csv"
    puzzle = (CASES / "07-last-cell.txt").read_text().split()[0]
    source.write_text(
        "puzzle,created_at,date,finish_time,modified\n"
        f"{puzzle},1700000000,2024-01-05,12:30,7\n"
        f"{puzzle},,2023-12-31,08:15,\n"
    )
    sudoku_batch.solve_file(
        source,
        tmp_path / "results.jsonl",
        keep=["created_at", "date", "finish_time", "modified"],
        keep_types={"created_at": "int64", "modified": "int64"},
    )
    text = (REPO / "docs/formats.md").read_text()
    lines = [line for line in text.splitlines() if line.startswith("pd.read_json(")]
    assert len(lines) == 2 and "pandas 3" in lines[0] and "pandas 2" in lines[1]
    line = lines[0] if int(pd.__version__.split(".")[0]) >= 3 else lines[1]
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        frame = eval(line.split("#")[0], {"pd": pd})
    kept = frame[["created_at", "date", "finish_time", "modified"]].astype(object)
    kept = kept.where(kept.notna(), None).values.tolist()
    assert kept == [[1700000000, "2024-01-05", "12:30", 7], [None, "2023-12-31", "08:15", None]]


def test_solve_file_reads_pandas_default_csv_of_an_array(tmp_path):
    """pandas' ``DataFrame(array).to_csv(path)`` writes its index first
    (``,0,1,...,80``): each row is the index and one grid, at every size,
    numbered from 1 (0 blanks) or from 0 (-1 blanks)."""
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    puzzle = "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
    solution = "864371259325849761971265843436192587198657432257483916689734125713528694542916378"
    cells = np.array([[0 if c == "." else int(c) for c in puzzle]] * 3)
    frame = tmp_path / "frame.csv"
    pd.DataFrame(cells).to_csv(frame)
    assert frame.read_text().startswith(",0,1,2,")
    output = tmp_path / "results.csv"
    summary = sudoku_batch.solve_file(frame, output, keep=1)
    assert summary["solved"] == 3 and summary["malformed"] == 0
    rows = read_rows(output)
    assert [(r["line"], r["puzzle"], r["solution"], r[""]) for r in rows] == [
        (str(line), puzzle, solution, str(line - 2)) for line in (2, 3, 4)
    ]
    # Read back and written again: `Unnamed: 0`, a second index column.
    again = tmp_path / "again.csv"
    pd.read_csv(frame).to_csv(again)
    assert again.read_text().startswith(",Unnamed: 0,0,1,")
    summary = sudoku_batch.solve_file(again, tmp_path / "again-results.csv")
    assert summary["solved"] == 3
    # Numbered from 0, and a 4x4: solved as the same grid in one field.
    zero = tmp_path / "zero.csv"
    pd.DataFrame(np.where(cells == 0, -1, cells - 1)).to_csv(zero)
    summary = sudoku_batch.solve_file(zero, tmp_path / "zero-results.csv")
    assert summary["solved"] == 3
    four = tmp_path / "four.csv"
    pd.DataFrame([[3, 1, 0, 2, 2, 0, 0, 0, 0, 2, 1, 0, 0, 3, 2, 0]]).to_csv(four)
    sudoku_batch.solve_file(four, tmp_path / "four-results.csv")
    assert read_rows(tmp_path / "four-results.csv")[0]["solution"] == (
        "3,1,4,2,2,4,3,1,4,2,1,3,1,3,2,4"
    )


def test_solve_file_results_numbered_from_zero_read_back_as_written(tmp_path):
    """A puzzle numbered from 0 with no `0` given is written with `-1`
    blanks, so the results read back in the same numbering: as the next
    run's input the rows are the same and every check is ok."""
    given = "..43..2.9.....9..1.7..6..43..6..2.8719...74......83...6.....1....3..869..4291.3.."
    solved = "864371259325849761971265843436192587198657432257483916689734125713528694542916378"
    # From 0 with `5` as 0: no 0 among the givens.
    label = {"5": "0", "6": "5", "7": "6", "8": "7", "9": "8"}

    def from_zero(grid):
        return ",".join("-1" if c == "." else label.get(c, c) for c in grid)

    source = tmp_path / "zero.csv"
    source.write_text(f'puzzle,solution\n"{from_zero(given)}","{from_zero(solved)}"\n')
    first = tmp_path / "first.csv"
    sudoku_batch.solve_file(source, first)
    written = read_rows(first)
    assert written[0]["puzzle"] == from_zero(given)
    assert (written[0]["status"], written[0]["check"]) == ("solved", "ok")
    second = tmp_path / "second.csv"
    summary = sudoku_batch.solve_file(first, second)
    assert summary["mismatches"] == 0
    read_back = read_rows(second)
    assert [(r["puzzle"], r["solution"], r["check"]) for r in read_back] == [
        (written[0]["puzzle"], written[0]["solution"], "ok")
    ]
