"""The pandas, Polars and Dask helpers: input columns and row order kept."""

from __future__ import annotations

import ast
import os
import re

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sudoku_batch
from conftest import DATA, REPO, kaggle_table
from test_solve import MIXED, MIXED_STATUSES, PUZZLE

RESULT_COLUMNS = ["status", "solution", "guesses", "solve_us", "message"]


def frame_data():
    n = len(MIXED)
    return {"id": list(range(100, 100 + n)), "puzzle": MIXED, "rating": [i / 2 for i in range(n)]}


def taken_frame_data(taken: str) -> dict:
    """frame_data() with an input column named like a result column."""
    data = frame_data()
    data[taken] = [f"input {taken} {i}" for i in range(len(MIXED))]
    return data


def test_pandas_keeps_the_index_the_columns_and_the_row_order():
    df = pd.DataFrame(frame_data(), index=[f"r{i}" for i in reversed(range(len(MIXED)))])
    out = sudoku_batch.pandas.solve(df, "puzzle")
    assert list(out.columns) == ["id", "puzzle", "rating"] + RESULT_COLUMNS
    assert list(out.index) == list(df.index)
    pd.testing.assert_frame_equal(out[["id", "puzzle", "rating"]], df)
    assert out["status"].tolist() == MIXED_STATUSES
    assert str(out["guesses"].dtype) == "UInt64"
    assert out["guesses"].isna().tolist() == [s == "malformed" for s in MIXED_STATUSES]
    assert list(df.columns) == ["id", "puzzle", "rating"], "the input frame is not changed"


def test_pandas_rows_in_shuffled_order_keep_their_own_results():
    df = pd.DataFrame(frame_data()).sample(frac=1, random_state=3)
    out = sudoku_batch.pandas.solve(df, "puzzle")
    expected = dict(zip(MIXED, MIXED_STATUSES))
    assert [expected[p] for p in out["puzzle"]] == out["status"].tolist()
    assert out["id"].tolist() == df["id"].tolist()


@pytest.mark.parametrize("taken", RESULT_COLUMNS)
def test_pandas_with_a_prefix_keeps_an_input_column_named_like_a_result(taken):
    df = pd.DataFrame(taken_frame_data(taken))
    with pytest.raises(ValueError, match=f"'{taken}'.*prefix"):
        sudoku_batch.pandas.solve(df, "puzzle")
    out = sudoku_batch.pandas.solve(df, "puzzle", prefix="r_")
    assert list(out.columns) == list(df.columns) + ["r_" + name for name in RESULT_COLUMNS]
    pd.testing.assert_frame_equal(out[list(df.columns)], df)
    assert out["r_status"].tolist() == MIXED_STATUSES


def test_pandas_argument_errors():
    df = pd.DataFrame({"puzzle": [PUZZLE]})
    with pytest.raises(KeyError, match="quizzes"):
        sudoku_batch.pandas.solve(df, "quizzes")
    with pytest.raises(TypeError):
        sudoku_batch.pandas.solve(df["puzzle"], "puzzle")
    with pytest.raises(ValueError, match="mode"):
        sudoku_batch.pandas.solve(df, "puzzle", mode="slow")


def test_polars_dataframe_keeps_columns_and_order():
    df = pl.DataFrame(frame_data())
    out = sudoku_batch.polars.solve(df, "puzzle")
    assert out.columns == ["id", "puzzle", "rating"] + RESULT_COLUMNS
    assert out.select("id", "puzzle", "rating").equals(df)
    assert out.get_column("status").to_list() == MIXED_STATUSES
    assert out.schema["guesses"] == pl.UInt64


def test_polars_lazyframe_stays_lazy_and_gives_the_same_frame():
    df = pl.DataFrame(frame_data())
    lazy = sudoku_batch.polars.solve(df.lazy().filter(pl.col("id") >= 100), "puzzle")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect_schema().names() == ["id", "puzzle", "rating"] + RESULT_COLUMNS
    eager = sudoku_batch.polars.solve(df, "puzzle")
    assert lazy.collect().drop("solve_us").equals(eager.drop("solve_us"))


def test_polars_lazyframe_over_many_batches(tmp_path):
    # A Parquet scan in several row groups, collected by the streaming engine.
    table = kaggle_table().slice(0, 3000)
    path = tmp_path / "puzzles.parquet"
    pq.write_table(table, path, row_group_size=500)
    out = sudoku_batch.polars.solve(pl.scan_parquet(path), "quizzes").collect(engine="streaming")
    assert out.height == 3000
    assert out.get_column("quizzes").to_list() == table.column("quizzes").to_pylist()
    assert out.get_column("solution").to_list() == table.column("solutions").to_pylist()


@pytest.mark.parametrize("taken", RESULT_COLUMNS)
def test_polars_refuses_a_taken_name_unless_prefixed(taken):
    df = pl.DataFrame(taken_frame_data(taken))
    for frame in (df, df.lazy()):
        with pytest.raises(ValueError, match=f"'{taken}'.*prefix"):
            sudoku_batch.polars.solve(frame, "puzzle")


@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
@pytest.mark.parametrize("taken", RESULT_COLUMNS + ["__sudoku_batch_results"])
def test_polars_lazyframe_with_a_prefix_gives_the_eager_frame(taken, engine):
    # An input column named like a result column (or like the struct the
    # lazy plan unnests) stays as it is, beside the prefixed results.
    df = pl.DataFrame(taken_frame_data(taken))
    eager = sudoku_batch.polars.solve(df, "puzzle", prefix="r_")
    lazy = sudoku_batch.polars.solve(df.lazy(), "puzzle", prefix="r_")
    expected = ["id", "puzzle", "rating", taken] + ["r_" + name for name in RESULT_COLUMNS]
    assert eager.columns == expected
    assert lazy.collect_schema() == eager.schema
    out = lazy.collect(engine=engine)
    assert out.drop("r_solve_us").equals(eager.drop("r_solve_us"))
    assert out.select(df.columns).equals(df)
    assert out.get_column("r_status").to_list() == MIXED_STATUSES


@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
def test_polars_lazyframe_on_the_hugging_face_layout_with_a_prefix(engine):
    # The shipped Parquet file has a `solution` column, as Hugging Face sets do.
    scan = pl.scan_parquet(DATA / "ritvik_style_5000.parquet").head(300)
    lazy = sudoku_batch.polars.solve(scan, "puzzle", prefix="r_")
    names = ["puzzle", "solution", "difficulty", "source"]
    assert lazy.collect_schema().names() == names + ["r_" + name for name in RESULT_COLUMNS]
    out = lazy.collect(engine=engine)
    assert out.select(names).equals(scan.collect())
    assert out.get_column("r_solution").to_list() == out.get_column("solution").to_list()
    assert set(out.get_column("r_status").to_list()) == {"solved"}
    eager = sudoku_batch.polars.solve(scan.collect(), "puzzle", prefix="r_")
    assert out.drop("r_solve_us").equals(eager.drop("r_solve_us"))


def test_polars_refuses_other_objects():
    with pytest.raises(TypeError):
        sudoku_batch.polars.solve(pd.DataFrame({"p": [PUZZLE]}), "p")
    with pytest.raises(KeyError):
        sudoku_batch.polars.solve(pl.DataFrame({"p": [PUZZLE]}), "q")


def python_examples(page: str) -> list:
    """The Python examples of a documentation page (relative to the
    repository) that read the shipped Kaggle CSV."""
    text = (REPO / page).read_text()
    blocks = [b.split("```")[0] for b in text.split("```python\n")[1:]]
    return [b for b in blocks if "data/kaggle1m_10000.csv" in b]


def test_the_guide_examples_run_as_written_and_solve_every_kaggle_puzzle(monkeypatch):
    examples = python_examples("docs/python.md")
    assert len(examples) == 3, "the pyarrow, pandas and Polars examples"
    monkeypatch.chdir(REPO)
    names = [{} for _ in examples]
    for example, namespace in zip(examples, names):
        exec(example, namespace)
    arrow, frame, lazy = names
    assert arrow["results"].column("status").to_pylist() == ["solved"] * 10_000
    assert (frame["df"]["solution"] == frame["df"]["solutions"]).all()
    assert lazy["out"].height == 0


def test_the_readme_example_runs_as_written(monkeypatch):
    examples = python_examples("README.md")
    assert len(examples) == 1, "the pandas example"
    monkeypatch.chdir(REPO)
    namespace = {}
    exec(examples[0], namespace)
    assert (namespace["df"]["status"] == "solved").all()
    assert (namespace["df"]["solution"] == namespace["df"]["solutions"]).all()


def test_the_guide_dask_example_runs_as_written_on_the_hugging_face_layout(tmp_path, monkeypatch):
    # The shipped Parquet file has a `solution` column, as Hugging Face sets
    # do: the example must pass a prefix.
    text = (REPO / "docs/python.md").read_text()
    blocks = [b.split("```")[0] for b in text.split("```python\n")[1:]]
    (example,) = [b for b in blocks if "sudoku_batch.dask.solve" in b]
    (tmp_path / "data").symlink_to(DATA)
    monkeypatch.chdir(tmp_path)
    namespace = {}
    try:
        exec(example, namespace)
    finally:
        if "client" in namespace:
            namespace["client"].close()
            namespace["client"].cluster.close()
    written = pq.read_table(tmp_path / "results").to_pandas()
    assert len(written) == 5000
    assert (written["result_status"] == "solved").all()
    assert (written["result_solution"] == written["solution"]).all()


def test_the_dask_extra_installs_what_the_guide_dask_example_imports():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((REPO / "python/pyproject.toml").read_text())["project"]
    # Each requirement's name and its extras: dask's extras are named after
    # its subpackages (dask[dataframe] for dask.dataframe).
    provided = set()
    for requirement in project["optional-dependencies"]["dask"]:
        name, extras = re.fullmatch(r"([\w.-]+)(?:\[([\w,]+)\])?.*", requirement).groups()
        provided.add(name)
        provided.update(extras.split(",") if extras else [])
    text = (REPO / "docs/python.md").read_text()
    blocks = [b.split("```")[0] for b in text.split("```python\n")[1:]]
    (example,) = [b for b in blocks if "sudoku_batch.dask.solve" in b]
    modules = []
    for node in ast.walk(ast.parse(example)):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules.append(node.module)
    assert "distributed" in modules
    for module in modules:
        top, _, sub = module.partition(".")
        if top != "sudoku_batch":
            assert top in provided, f"{module}: not in the dask extra {sorted(provided)}"
            assert not sub or sub in provided, f"{module}: not in the dask extra"


@pytest.fixture(scope="module")
def parquet_dir(tmp_path_factory):
    """The 10,000 shipped Kaggle puzzles as a directory of four Parquet files."""
    table = kaggle_table()
    table = table.append_column("row", pa.array(range(table.num_rows), pa.int64()))
    directory = tmp_path_factory.mktemp("puzzles")
    for k in range(4):
        pq.write_table(table.slice(k * 2500, 2500), directory / f"part-{k}.parquet")
    return directory, table


@pytest.fixture(scope="module")
def cluster():
    import dask

    distributed = pytest.importorskip("distributed")
    # Generous timeouts: a loaded CI machine can take long to start workers.
    timeouts = {"distributed.comm.timeouts.connect": "120s", "distributed.comm.timeouts.tcp": "120s"}
    with dask.config.set(timeouts), distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster, timeout="120s") as client:
        yield client


def test_dask_on_a_local_cluster_keeps_rows_and_columns(parquet_dir, cluster):
    import dask.dataframe as dd

    directory, table = parquet_dir
    ddf = dd.read_parquet(str(directory))
    out = sudoku_batch.dask.solve(ddf, "quizzes", threads=1)
    assert list(out.columns) == ["quizzes", "solutions", "row"] + RESULT_COLUMNS
    assert out.npartitions == ddf.npartitions
    result = cluster.compute(out).result()
    assert result["row"].tolist() == list(range(10000))
    assert (result["status"] == "solved").all()
    assert result["solution"].tolist() == result["solutions"].tolist()
    # Both worker processes took part.
    pids = set(cluster.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids


def test_dask_output_writes_to_parquet(parquet_dir, cluster, tmp_path):
    import dask.dataframe as dd

    directory, _ = parquet_dir
    out = sudoku_batch.dask.solve(dd.read_parquet(str(directory)), "quizzes", threads=1)
    out.to_parquet(str(tmp_path / "results"), compute_kwargs={"scheduler": cluster})
    written = pq.read_table(tmp_path / "results")
    assert written.num_rows == 10000
    assert set(written.column("status").to_pylist()) == {"solved"}


def test_dask_checks_arguments_before_computing():
    import dask.dataframe as dd

    ddf = dd.from_pandas(pd.DataFrame({"puzzle": [PUZZLE] * 4}), npartitions=2)
    with pytest.raises(KeyError):
        sudoku_batch.dask.solve(ddf, "quiz")
    with pytest.raises(ValueError, match="threads"):
        sudoku_batch.dask.solve(ddf, "puzzle", threads=0)
    with pytest.raises(TypeError):
        sudoku_batch.dask.solve(pd.DataFrame({"puzzle": [PUZZLE]}), "puzzle")
    local = sudoku_batch.dask.solve(ddf, "puzzle").compute(scheduler="sync")
    assert local["status"].tolist() == ["solved"] * 4


@pytest.mark.parametrize("taken", RESULT_COLUMNS)
def test_dask_with_a_prefix_gives_the_pandas_frame(taken):
    import dask.dataframe as dd

    df = pd.DataFrame(taken_frame_data(taken))
    ddf = dd.from_pandas(df, npartitions=3)
    with pytest.raises(ValueError, match=f"'{taken}'.*prefix"):
        sudoku_batch.dask.solve(ddf, "puzzle")
    out = sudoku_batch.dask.solve(ddf, "puzzle", prefix="r_")
    # Dask holds the text columns in its own string type: the partitions'
    # frame, not df, is what pandas.solve would be given.
    expected = sudoku_batch.pandas.solve(ddf.compute(scheduler="sync"), "puzzle", prefix="r_")
    assert list(out.columns) == list(expected.columns)
    result = out.compute(scheduler="sync")
    pd.testing.assert_frame_equal(
        result.drop(columns="r_solve_us"), expected.drop(columns="r_solve_us")
    )
