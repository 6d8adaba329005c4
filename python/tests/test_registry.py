"""mmsim.algorithms and mmsim.run: the registry and the report exactly as the program gives them,
through the registry's generic interface (so every family's algorithms are covered once merged)."""
import re

import pytest

from module_or_skip import import_mmsim

mmsim = import_mmsim()



def as_keywords(line):
    """The command's line as Python words it: each flag as the keyword (-n -> n=, --perm-file -> perm_file=)."""
    return re.sub(r"(?<![\w-])--?([A-Za-z][\w-]*)(?![\w-])",
                  lambda m: {"width": "w", "latency": "l", "global-latency": "L", "dmms": "k"}.get(
                      m.group(1), m.group(1).replace("-", "_")) + "=", line)


def _same_report(ours, theirs):
    """Equal, but for the digits of real numbers: the JSON prints ten significant ones (and a whole
    number without a point, which json reads as an int), Python gets the double itself."""
    if isinstance(ours, float) and isinstance(theirs, (int, float)) and not isinstance(theirs, bool):
        return ours == pytest.approx(theirs, rel=1e-9)
    if isinstance(theirs, dict):
        return list(ours) == list(theirs) and all(_same_report(ours[k], theirs[k]) for k in theirs)
    if isinstance(theirs, list):
        return len(ours) == len(theirs) and all(_same_report(a, b) for a, b in zip(ours, theirs))
    return type(ours) is type(theirs) and ours == theirs


def test_version_is_the_programs(cli):
    status, out, _ = cli("--version")
    assert status == 0
    info = mmsim.build_info()
    assert out.splitlines() == ["mmsim " + mmsim.__version__, "commit: " + info["commit"],
                                "CUDA backend: " + ("on" if info["cuda"] else "off")]


def test_algorithms_are_the_registry_with_typed_parameters(cli_json):
    ours = mmsim.algorithms()
    listed = cli_json("list")["algorithms"]
    assert [a["name"] for a in ours] == [a["name"] for a in listed]
    d = next(a for a in ours if a["name"] == "d-designated")
    params = {p["name"]: p for p in d["parameters"]}
    assert params["w"]["type"] == "integer" and params["w"]["default"] == 32
    assert params["n"]["required"] and params["n"]["default"] is None
    assert params["perm"]["type"] == "choice" and "random" in params["perm"]["choices"]
    for a in ours:
        for p in a["parameters"]:
            assert p["type"] != "flag" or p["default"] is False


def test_run_returns_the_report_mmsim_run_json_prints(cli_json):
    ours = mmsim.run("d-designated", perm="random", n=4096, w=32, seed=7)
    assert ours == cli_json("run", "d-designated", "--perm", "random", "-n", 4096, "-w", 32, "--seed", 7)
    assert ours["correct"] and ours["time_units"] == ours["predicted_time_units"]


@pytest.mark.parametrize("name", ["d-designated", "s-designated", "row-wise", "scheduled"])
def test_small_runs_match_the_program_report_for_report(cli_json, name):
    if name not in {a["name"] for a in mmsim.algorithms()}:
        pytest.skip(name + " is not registered in this build")
    ours = mmsim.run(name, n=1024, w=8)
    theirs = cli_json("run", name, "-n", 1024, "-w", 8)
    for report in (ours, theirs):  # host times differ from run to run
        report["figures"] = {k: v for k, v in report["figures"].items() if "seconds" not in k}
    assert ours == theirs


def test_the_report_is_the_same_for_every_thread_count():
    one = mmsim.run("d-designated", n=4096, w=16, threads=1)
    assert one == mmsim.run("d-designated", n=4096, w=16, threads=3) == mmsim.run("d-designated", n=4096, w=16)
    with pytest.raises(ValueError, match="threads="):
        mmsim.run("d-designated", n=16, threads=5000)


def test_asynchronous_time_is_never_above_round_synchronous():
    sync = mmsim.run("s-designated", n=4096, w=16)
    run_async = mmsim.run("s-designated", n=4096, w=16, asynchronous=True)
    assert run_async["execution"] == "asynchronous" and run_async["correct"]
    assert run_async["time_units"] <= sync["time_units"]


def test_trace_gives_every_slot_of_every_round():
    r = mmsim.run("d-designated", n=64, w=8, trace=True)
    t = r["trace"]
    assert sum(x["slots"] for x in r["rounds"]) == len(t["round"])
    assert all(len(column) == len(t["round"]) for column in t.values())
    assert (t["complete"] >= t["enter"]).all()


def test_the_trace_is_numpy_columns_equal_to_the_programs_trace_csv(cli, tmp_path):
    import csv
    import numpy as np
    path = tmp_path / "t.csv"
    status, _, err = cli("run", "transpose", "-n", 1024, "-w", 8, "-k", 3, "-L", 20, "--async", "--trace", path)
    assert status == 0, err
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    t = mmsim.run("transpose", n=1024, w=8, k=3, L=20, asynchronous=True, trace=True)["trace"]
    assert list(t) == list(rows[0])  # the columns of --trace, in order
    for column, values in t.items():
        assert isinstance(values, np.ndarray) and len(values) == len(rows)
        if column == "requests":
            assert all(a.dtype == np.uint64 for a in values)
            assert [" ".join(map(str, a)) for a in values] == [row[column] for row in rows]
        elif values.dtype.kind == "i":
            assert values.tolist() == [int(row[column]) for row in rows]
        else:
            assert values.tolist() == [row[column] for row in rows]


def test_keyword_arguments_are_typed_values_and_text_is_parsed_as_the_command_line_parses_it(cli_json):
    theirs = cli_json("run", "bmmc", "-n", 256, "-w", 8, "--random-bpc", "--seed", 5)
    ours = mmsim.run("bmmc", n=256, w=8, random_bpc=True, seed=5)
    assert isinstance(ours["figures"]["copy_over_time"], float)
    assert _same_report(ours, theirs)
    assert mmsim.run("bmmc", n="256", w="8", random_bpc=True, seed="5") == ours
    assert mmsim.run("bmmc", n=256, w=8, random_bpc=True, random_bmmc=False, bpc=None, seed=5) == ours
    with pytest.raises(mmsim.InputError, match="n=: must be a power of two"):
        mmsim.run("bmmc", n=2 ** 70, random_bpc=True)


@pytest.mark.parametrize("args, kwargs", [
    (["nope"], {}),
    (["d-designated"], {}),
    (["d-designated", "-n", "0"], {"n": 0}),
    (["d-designated", "-n", "16", "--perm", "spiral"], {"n": 16, "perm": "spiral"}),
    (["d-designated", "-n", "16", "-w", "3.5"], {"n": 16, "w": 3.5}),
])
def test_bad_input_raises_value_error_with_the_programs_line(cli_error, args, kwargs):
    with pytest.raises(mmsim.InputError) as e:
        mmsim.run(args[0], **kwargs)
    assert str(e.value) == as_keywords(cli_error("run", *args))


def test_an_unknown_keyword_is_refused_as_the_registry_refuses_it():
    with pytest.raises(ValueError, match="'tile' is not a parameter"):
        mmsim.run("d-designated", n=16, tile=4)


def test_congestion_is_the_programs_monte_carlo(cli_json, cli_error):
    ours = mmsim.congestion("rap", "random", w=16, trials=2000, seed=3)
    assert _same_report(ours, cli_json("congestion", "--layout", "rap", "--pattern", "random", "-w", 16, "--trials",
                                       2000, "--seed", 3))
    assert 1 <= ours["min"] <= ours["mean"] <= ours["max"] <= 16
    with pytest.raises(ValueError) as e:
        mmsim.congestion("spiral", "random", w=16)
    assert str(e.value) == as_keywords(cli_error("congestion", "--layout", "spiral", "--pattern", "random", "-w", 16))
