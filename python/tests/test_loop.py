"""The researcher's loop from Python: mmsim.table and mmsim.sweep return the command's rows as
records (the same columns, parameters and build as its CSV), mmsim.sweep gives the same rows on any
concurrent.futures executor, and mmsim.access poses an access every way `mmsim access` does. Errors
name Python's keywords (n=), not the command's flags (-n)."""
import concurrent.futures
import csv
import io
import json

import pytest

from module_or_skip import import_mmsim

mmsim = import_mmsim()

GRID = {"runs": [
    {"algorithm": "d-designated", "execution": ["round-synchronous", "asynchronous"],
     "parameters": {"seed": [1, 2], "n": [1024, 4096], "perm": ["random", "transpose"]}},
    {"algorithm": "congestion", "parameters": {"layout": ["raw", "rap"], "pattern": ["stride"], "w": [8, 16],
                                               "trials": [200]}},
]}


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def same_cell(record_value, csv_text):
    if record_value is None:
        return csv_text == ""
    if isinstance(record_value, bool):
        return csv_text == ("true" if record_value else "false")
    if isinstance(record_value, int):
        return csv_text == str(record_value)
    if isinstance(record_value, float):
        return float(csv_text) == pytest.approx(record_value, rel=1e-5, abs=1e-9)
    return csv_text == record_value


def test_table_records_are_the_csv_rows_with_parameters_and_build(cli):
    records = mmsim.table("kasagi-t1", n=4096, k=4)
    status, out, err = cli("table", "kasagi-t1", "-n", 4096, "-k", 4, "--format", "csv")
    assert status == 0, err
    rows = csv_rows(out)
    assert len(records) == len(rows) > 0
    assert list(records[0]) == list(rows[0])  # the same names in the same order
    for record, row in zip(records, rows):
        for key, value in record.items():
            assert same_cell(value, row[key]), (key, value, row[key])
    build = mmsim.build_info()
    first = records[0]
    assert (first["n"], first["w"], first["l"], first["L"], first["k"], first["seed"]) == (4096, 32, 1, 100, 4, 1)
    assert (first["mmsim_version"], first["mmsim_commit"]) == (build["version"], build["commit"])
    assert "casual_read" in first and "time_units" in first


def test_table_wide_is_the_papers_layout_of_the_same_cells():
    long = mmsim.table("rap-t2", trials=300)
    wide = mmsim.table("rap-t2", trials=300, wide=True)
    assert len(long) == 60 and len(wide) == 12
    for r in long:
        row = next(x for x in wide if (x["access"], x["layout"]) == (r["access"], r["layout"]))
        assert row["w_%d" % r["w"]] == r["measured"]
        assert row["se_w_%d" % r["w"]] == r["standard_error"]
        assert row["paper_w_%d" % r["w"]] == r["paper"]


def test_pandas_takes_the_records_as_they_are():
    pandas = pytest.importorskip("pandas", reason="python3-pandas is not installed")
    frame = pandas.DataFrame(mmsim.table("rap-t4", trials=50))
    assert {"access", "w", "raw", "se_raw", "trials", "seed", "mmsim_commit"} <= set(frame.columns)


@pytest.mark.parametrize("call, words", [
    (lambda: mmsim.table("kasagi-t1", n=0), ["n=", "kasagi-t1"]),
    (lambda: mmsim.table("kasagi-t1", k=5000), ["k="]),
    (lambda: mmsim.table("kasagi-t1", n=1.5), ["n=", "integer"]),
    (lambda: mmsim.table("kasagi-t1", nn=3), ["unknown keyword", "nn"]),
    (lambda: mmsim.table("kasagi-t1", wide=True), ["wide=", "rap-t2"]),
    (lambda: mmsim.table("nonesuch"), ["unknown", "nonesuch"]),
    (lambda: mmsim.run("d-designated", n=0), ["n="]),
    (lambda: mmsim.run("d-designated", n=1024, w=0), ["w="]),
    (lambda: mmsim.access(w=0, addr="t"), ["w="]),
    (lambda: mmsim.access(addr="t", layout="rap"), ["layout=", "cell="]),
    (lambda: mmsim.access(layout="nonesuch", cell="t, t"), ["layout="]),
    (lambda: mmsim.access(addr="t", seed=3), ["seed="]),
    (lambda: mmsim.congestion("rap", "random", w=1, trials=10), ["w="]),
])
def test_errors_name_the_keyword_not_the_flag(call, words):
    with pytest.raises(mmsim.InputError) as e:
        call()
    message = str(e.value)
    for w in words:
        assert w in message, message
    for flag in ("-n:", "-w:", "-k:", "--layout", "--cell", "--seed", " -n ", "--width"):
        assert flag not in message, message


def test_access_by_addr_and_by_layout_is_the_commands(cli_json):
    assert mmsim.access("dmm", 8, 3, addr="t*3") == cli_json("access", "--model", "dmm", "-w", 8, "-l", 3,
                                                            "--addr", "t*3")
    ours = mmsim.access("umm", 8, 2, layout="rap", cell="t, t", seed=4)
    assert ours == cli_json("access", "--model", "umm", "-w", 8, "-l", 2, "--layout", "rap", "--cell", "t, t",
                            "--seed", 4)
    regs = mmsim.access("dmm", 4, 1, addr="key", regs={"key": [5, 3, 3, 0]})
    assert regs == cli_json("access", "--model", "dmm", "-w", 4, "-l", 1, "--reg", "key=5,3,3,0", "--addr", "key")


def test_sweep_records_are_the_commands_rows(cli, tmp_path):
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps(GRID))
    status, out, err = cli("sweep", grid, "-o", tmp_path / "out.csv", "--threads", 1)
    assert status == 0, err
    rows = csv_rows((tmp_path / "out.csv").read_text())
    records = mmsim.sweep(str(grid))
    assert records == mmsim.sweep(GRID)
    assert len(records) == len(rows) == 20
    assert list(records[0]) == list(rows[0])
    for record, row in zip(records, rows):
        for key, value in record.items():
            assert same_cell(value, row[key]), (key, value, row[key])


def test_sweep_columns_follow_one_order_whatever_the_grids():
    a = {"runs": [{"algorithm": "d-designated", "parameters": {"seed": [1], "n": [1024], "perm": ["random"]}}]}
    b = {"runs": [{"algorithm": "d-designated", "parameters": {"perm": ["random"], "n": [1024], "seed": [1]}}]}
    ra, rb = mmsim.sweep(a), mmsim.sweep(b)
    assert list(ra[0]) == list(rb[0]) and ra == rb
    keys = list(ra[0])
    assert keys[:2] == ["algorithm", "execution"] and keys.index("n") < keys.index("w") < keys.index("perm")
    assert keys[-2:] == ["mmsim_version", "mmsim_commit"]


def test_a_bad_grid_is_refused_before_any_row_runs():
    with pytest.raises(mmsim.InputError, match="unknown algorithm"):
        mmsim.sweep({"runs": [{"algorithm": "quicksort"}]}, executor=concurrent.futures.ThreadPoolExecutor(1))
    with pytest.raises(TypeError):
        mmsim.sweep(42)


def test_sweep_on_a_thread_and_a_process_pool_gives_the_same_rows():
    alone = mmsim.sweep(GRID)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        assert mmsim.sweep(GRID, executor=pool) == alone
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        assert mmsim.sweep(GRID, executor=pool, chunk=3) == alone


def test_sweep_on_a_local_dask_cluster_gives_the_same_rows():
    distributed = pytest.importorskip(
        "distributed", reason="Dask's python3-distributed is not installed (apt-get install python3-distributed)")
    alone = mmsim.sweep(GRID)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        with distributed.Client(c) as client:
            assert mmsim.sweep(GRID, executor=client.get_executor()) == alone
