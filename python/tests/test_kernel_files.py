"""Kernel descriptions from Python (docs/kernel-files.md): a gather through an index array and a
histogram whose addresses the simulated threads compute from data they loaded, checked element by
element against NumPy; the example files give the same run as the dicts; bad descriptions raise."""
import json
import pathlib

import pytest

from module_or_skip import import_mmsim

mmsim = import_mmsim()

np = pytest.importorskip("numpy", reason="python3-numpy is not installed")

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "kernels"


def gather(n, seed):
    return {"machine": {"model": "hmm", "w": 32, "l": 1, "L": 100, "k": 4},
            "arrays": [{"name": "idx", "size": n, "init": {"random_below": n, "seed": seed}},
                       {"name": "a", "size": n, "init": {"random_below": 1000000, "seed": seed + 1}},
                       {"name": "b", "size": n}],
            "kernels": [{"name": "gather", "blocks": n // 128, "threads_per_block": 128, "registers": 2,
                         "steps": [{"read": "idx", "address": "t", "reg": 0},
                                   {"read": "a", "address": "r0", "reg": 1},
                                   {"write": "b", "address": "t", "reg": 1}]}]}


@pytest.mark.parametrize("n,seed", [(1024, 1), (4096, 5)])
def test_gather_through_an_index_array(n, seed):
    r = mmsim.run_kernel(gather(n, seed))
    idx, a, b = (r["arrays"][k] for k in ("idx", "a", "b"))
    assert len(np.unique(idx)) > n // 4
    np.testing.assert_array_equal(b, a[idx])
    # The index load is coalesced; the gather through it is not.
    assert r["steps"][1]["slots"] > r["steps"][0]["slots"]


def test_the_example_files_run_as_their_dicts():
    for name in ("gather.json", "histogram.json"):
        path = EXAMPLES / name
        from_file = mmsim.run_kernel(str(path))
        from_dict = mmsim.run_kernel(json.loads(path.read_text()))
        assert from_file["time_units"] == from_dict["time_units"]
        assert from_file["steps"] == from_dict["steps"]


def test_histogram_counts_every_key():
    r = mmsim.run_kernel(EXAMPLES / "histogram.json")
    keys, hist = r["arrays"]["keys"], r["arrays"]["hist"]
    np.testing.assert_array_equal(hist, np.bincount(keys, minlength=256))


def test_bad_descriptions_name_the_place():
    d = gather(1024, 1)
    d["kernels"][0]["steps"][1]["address"] = "r0 + 1024"
    with pytest.raises(mmsim.InputError, match="gather"):
        mmsim.run_kernel(d)
    d = gather(1024, 1)
    d["kernels"][0]["steps"][0]["colour"] = "red"
    with pytest.raises(mmsim.InputError, match="unknown key"):
        mmsim.run_kernel(d)
    with pytest.raises(TypeError):
        mmsim.run_kernel([1, 2])
    d = gather(1024, 1)
    d["arrays"][0]["size"] = 1024.5
    with pytest.raises(mmsim.InputError, match="size must be an integer"):
        mmsim.run_kernel(d)
    d["arrays"][0]["size"] = object()
    with pytest.raises(mmsim.InputError, match="type object"):
        mmsim.run_kernel(d)


def test_numpy_integers_are_integers():
    d = gather(1024, 1)
    d["arrays"][0]["size"] = np.int64(1024)
    assert mmsim.run_kernel(d)["time_units"] == mmsim.run_kernel(gather(1024, 1))["time_units"]
