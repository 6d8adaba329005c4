"""mmsim.predict (docs/your-kernel.md): the same kernel as NumPy addresses through mmsim.Engine, as a
kernel description (dict) and as the example kernel file gives the same counts, step by step, and
the same milliseconds; the padded tile has no bank conflicts where the unpadded one has 31 a warp;
bad input raises InputError in one line."""
import json
import pathlib

import pytest

from module_or_skip import import_mmsim

mmsim = import_mmsim()

np = pytest.importorskip("numpy", reason="python3-numpy is not installed")

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "kernels"
PROFILE = ROOT / "results" / "gpu-h100" / "profile-h100.json"
MACHINE = {"model": "hmm", "w": 32, "l": 1, "L": 100, "k": 4}
STEP_KEYS = ("step", "array", "memory", "op", "requests", "warps", "slots", "congestion", "bank_conflicts",
             "sectors_per_request", "l2_hit_rate", "dram_bytes", "predicted_ms", "share", "counts")


def tiled_transpose(n, pad):
    """The example files' tiled transpose of an n x n matrix: a 32 x (32 + pad) tile in shared memory."""
    s, nb = 32 + pad, n // 32
    return {"machine": MACHINE,
            "arrays": [{"name": "a", "size": n * n, "init": "iota"},
                       {"name": "tile", "space": "shared", "size": 32 * s},
                       {"name": "b", "size": n * n}],
            "kernels": [{"name": "transpose_tiled_32x%d" % s, "blocks": nb * nb, "threads_per_block": 1024,
                         "steps": [
                             {"read": "a", "address": "((block / %d) * 32 + local / 32) * %d + (block %% %d) * 32 + "
                              "local %% 32" % (nb, n, nb), "name": "load a's tile, rows coalesced"},
                             {"write": "tile", "address": "(local / 32) * %d + local %% 32" % s,
                              "name": "store the tile by rows"},
                             "barrier",
                             {"read": "tile", "address": "(local %% 32) * %d + local / 32" % s,
                              "name": "load the tile by columns"},
                             {"write": "b", "address": "((block %% %d) * 32 + local / 32) * %d + (block / %d) * 32 + "
                              "local %% 32" % (nb, n, nb), "name": "store b's tile, rows coalesced"}]}]}


def tiled_transpose_engine(n, pad):
    """The same kernel with every address computed by NumPy."""
    s, nb = 32 + pad, n // 32
    t = np.arange(n * n, dtype=np.int64)
    block, local = t // 1024, t % 1024
    bx, by, tx, ty = block % nb, block // nb, local % 32, local // 32
    engine = mmsim.Engine(mmsim.Machine("hmm", w=32, l=1, L=100, k=4))
    engine.add_array("a", "global", n * n)
    engine.add_array("tile", "shared", 32 * s)
    engine.add_array("b", "global", n * n)
    k = mmsim.Kernel("transpose_tiled_32x%d" % s, blocks=nb * nb, threads_per_block=1024)
    k.read("a", (by * 32 + ty) * n + bx * 32 + tx, name="load a's tile, rows coalesced")
    k.write("tile", ty * s + tx, name="store the tile by rows")
    k.barrier()
    k.read("tile", tx * s + ty, name="load the tile by columns")
    k.write("b", (bx * 32 + ty) * n + by * 32 + tx, name="store b's tile, rows coalesced")
    engine.launch(k)
    return engine


def histogram(keys, bins, blocks, tpb):
    return {"machine": dict(MACHINE, extensions=["widths", "atomics"]),
            "arrays": [{"name": "keys", "size": len(keys), "init": [int(x) for x in keys]},
                       {"name": "counts", "space": "shared", "size": bins},
                       {"name": "hist", "size": bins}],
            "kernels": [{"name": "histogram", "blocks": blocks, "threads_per_block": tpb, "registers": 3,
                         "register_names": ["key", "one", "mine"],
                         "steps": [{"set": 1, "value": "1", "name": "one"},
                                   {"write": "counts", "address": "local", "reg": 2, "name": "zero the block's counts"},
                                   "barrier",
                                   {"read": "keys", "address": "t", "reg": 0, "name": "load the key"},
                                   {"atomic": "counts", "address": "key", "op": "increment", "reg": 1,
                                    "name": "count it"},
                                   "barrier",
                                   {"read": "counts", "address": "local", "reg": 2,
                                    "name": "read the block's count"},
                                   {"atomic": "hist", "address": "local", "op": "add", "reg": 2,
                                    "name": "add it to the histogram"}]}]}


def histogram_engine(keys, bins, blocks, tpb):
    t = np.arange(blocks * tpb, dtype=np.int64)
    local = t % tpb
    engine = mmsim.Engine(mmsim.Machine("hmm", w=32, l=1, L=100, k=4, extensions=["widths", "atomics"]))
    engine.add_array("keys", "global", len(keys))
    engine.add_array("counts", "shared", bins)
    engine.add_array("hist", "global", bins)
    engine.global_array("keys")[:] = keys
    k = mmsim.Kernel("histogram", blocks=blocks, threads_per_block=tpb, registers=3)
    k.set(1, np.ones(blocks * tpb, dtype=np.uint32), name="one")
    k.write("counts", np.where(local < bins, local, -1), reg=2, name="zero the block's counts")
    k.barrier()
    k.read("keys", t, reg=0, name="load the key")
    k.atomic("counts", np.asarray(keys, dtype=np.int64), op="increment", reg=1, name="count it")
    k.barrier()
    k.read("counts", np.where(local < bins, local, -1), reg=2, name="read the block's count")
    k.atomic("hist", np.where(local < bins, local, -1), op="add", reg=2, name="add it to the histogram")
    engine.launch(k)
    return engine


def same_prediction(a, b):
    assert a["predicted_ms"] == b["predicted_ms"]
    assert a["counts"] == b["counts"]
    assert len(a["kernels"]) == len(b["kernels"])
    for ka, kb in zip(a["kernels"], b["kernels"]):
        assert ka["name"] == kb["name"] and ka["counts"] == kb["counts"]
        assert [[s[k] for k in STEP_KEYS] for s in ka["steps"]] == [[s[k] for k in STEP_KEYS] for s in kb["steps"]]


@pytest.mark.parametrize("pad", [0, 1])
def test_tiled_transpose_from_numpy_a_dict_and_the_example_file(pad):
    from_dict = mmsim.predict(tiled_transpose(1024, pad), profile=PROFILE)
    from_file = mmsim.predict(EXAMPLES / ("transpose_tiled_32x%d.json" % (32 + pad)), profile=PROFILE)
    from_engine = mmsim.predict(tiled_transpose_engine(1024, pad), profile=PROFILE)
    same_prediction(from_dict, from_file)
    same_prediction(from_dict, from_engine)
    steps = from_dict["kernels"][0]["steps"]
    warps = 1024 * 1024 // 32
    # Rows of the tile go to 32 banks; its columns, with 32 floats a row, to one bank (31 conflicts a
    # warp); with 33, to 32 banks.
    assert steps[1]["bank_conflicts"] == 0
    assert steps[2]["bank_conflicts"] == (0 if pad else 31 * warps)
    # The global steps read and write whole rows of 32 floats: 4 sectors a request.
    assert steps[0]["sectors_per_request"] == 4.0 and steps[3]["sectors_per_request"] == 4.0
    assert abs(sum(s["share"] for s in steps) + from_dict["kernels"][0]["launch_ms"] /
               from_dict["kernels"][0]["predicted_ms"] - 1) < 1e-9


def test_padding_the_tile_is_predicted_faster():
    unpadded = mmsim.predict(EXAMPLES / "transpose_tiled_32x32.json", profile=PROFILE)
    padded = mmsim.predict(EXAMPLES / "transpose_tiled_32x33.json", profile=PROFILE)
    assert padded["predicted_ms"] < unpadded["predicted_ms"]
    # The global steps are the same kernel's: same sectors, same DRAM bytes.
    for i in (0, 3):
        p, u = padded["kernels"][0]["steps"][i], unpadded["kernels"][0]["steps"][i]
        assert p["counts"] == u["counts"] and p["dram_bytes"] == u["dram_bytes"]


def test_histogram_from_numpy_a_dict_and_the_example_file():
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 256, 8192)
    from_dict = mmsim.predict(histogram(keys, 256, 32, 256), profile=PROFILE)
    from_engine = mmsim.predict(histogram_engine(keys, 256, 32, 256), profile=PROFILE)
    same_prediction(from_dict, from_engine)
    # The example file's keys come from mmsim's own generator: run it, take its keys, and predict
    # the same kernel from a dict that lists them.
    example = json.loads((EXAMPLES / "histogram.json").read_text())
    file_keys = mmsim.run_kernel(EXAMPLES / "histogram.json")["arrays"]["keys"]
    example["arrays"][0] = {"name": "keys", "size": len(file_keys), "init": [int(x) for x in file_keys]}
    same_prediction(mmsim.predict(EXAMPLES / "histogram.json", profile=PROFILE),
                    mmsim.predict(example, profile=PROFILE))


def test_every_model_of_the_profile_and_bad_input():
    tiny = tiled_transpose(64, 1)
    for model in ("papers", "dram-rows", "rmw-rows"):
        assert mmsim.predict(tiny, profile=PROFILE, model=model)["model"] == model
    # Without model=, the model the profile's cross-validation chose.
    chosen = json.loads(PROFILE.read_text())["model_choice"]["chosen"]
    assert mmsim.predict(tiny, profile=PROFILE)["model"] == chosen
    with pytest.raises(mmsim.InputError, match="no cost model nope"):
        mmsim.predict(tiny, profile=PROFILE, model="nope")
    with pytest.raises(mmsim.InputError, match="profile"):
        mmsim.predict(tiny, profile=ROOT / "no-such-profile.json")
    with pytest.raises(mmsim.InputError, match="warps of w = 32"):
        mmsim.predict(dict(tiny, machine=dict(MACHINE, w=16)), profile=PROFILE)
    engine = mmsim.Engine(mmsim.Machine("hmm", w=32))
    with pytest.raises(mmsim.InputError, match="launched no kernel"):
        mmsim.predict(engine, profile=PROFILE)
    with pytest.raises(mmsim.InputError, match="runs on the HMM"):
        umm = mmsim.Engine(mmsim.Machine("umm", w=32))
        umm.add_array("a", "global", 32)
        k = mmsim.Kernel("k", blocks=1, threads_per_block=32)
        k.read("a", np.arange(32))
        umm.launch(k)
        mmsim.predict(umm, profile=PROFILE)
    with pytest.raises(TypeError):
        mmsim.predict(42, profile=PROFILE)


def test_sampled_by_default_exact_on_request():
    # As `mmsim predict --kernel`: sampled by default (the tiled transpose's 262,144 sectors fit the
    # default budget: the whole run, the exact counts), every sector with exact=True; a small budget
    # simulates a part of the rows, with intervals, the same for one seed from a dict or an Engine.
    kernel = EXAMPLES / "transpose_tiled_32x33.json"
    default = mmsim.predict(kernel, profile=PROFILE)
    exact = mmsim.predict(kernel, profile=PROFILE, exact=True)
    assert default["sampling"]["exact"] is False and default["sampling"]["fraction"] == 1
    assert exact["sampling"]["exact"] is True and exact["predicted_ms_ci95"] == 0
    same_prediction(default, exact)
    small = mmsim.predict(tiled_transpose(1024, 1), profile=PROFILE, sample_budget=4096, sample_seed=2)
    engine = mmsim.predict(tiled_transpose_engine(1024, 1), profile=PROFILE, sample_budget=4096, sample_seed=2)
    assert small["sampling"]["fraction"] < 1 and small["sampling"]["seed"] == 2
    assert small["counts"]["read_sectors"] == exact["counts"]["read_sectors"]
    assert all("predicted_ms_ci95" in s for s in small["kernels"][0]["steps"])
    same_prediction(small, engine)
    assert small["sampling"] == engine["sampling"]
    with pytest.raises(mmsim.InputError, match="sample_budget="):
        mmsim.predict(kernel, profile=PROFILE, sample_budget=5)


def test_declared_instructions_the_same_from_the_file_a_dict_and_the_engine():
    """The polynomial example declares 128 instructions a warp; the same kernel as a dict and as an
    Engine whose set step declares them is priced the same, bound by its instructions."""
    with open(EXAMPLES / "polynomial.json") as f:
        description = json.load(f)
    n = description["arrays"][0]["size"]
    t = np.arange(n, dtype=np.int64)
    engine = mmsim.Engine(mmsim.Machine("hmm", w=32, l=1, L=100, k=4))
    engine.add_array("x", "global", n)
    engine.add_array("y", "global", n)
    k = mmsim.Kernel("polynomial", blocks=n // 256, threads_per_block=256, registers=2)
    k.read("x", t, reg=0, name="load x[t]")
    k.set(1, np.zeros(n, dtype=np.uint32), instructions=128,
          name="Horner's rule, degree 64: a multiply-add a degree")
    k.write("y", t, reg=1, name="store y[t]")
    engine.launch(k)
    from_file = mmsim.predict(EXAMPLES / "polynomial.json", profile=PROFILE, threads=2)
    from_dict = mmsim.predict(description, profile=PROFILE, threads=2)
    from_engine = mmsim.predict(engine, profile=PROFILE, threads=2)
    for p in (from_dict, from_engine):
        same_prediction(from_file, p)
        assert p["kernels"][0]["instruction_ms"] == from_file["kernels"][0]["instruction_ms"]
    kernel = from_file["kernels"][0]
    assert kernel["warp_instructions"] == 130
    assert kernel["instruction_ms"] > kernel["memory_ms"] > 0
    low, high = from_file["interval_ms"]
    assert low < from_file["predicted_ms"] < high
    with pytest.raises(mmsim.InputError, match="instructions must be in"):
        k.read("x", t, instructions=-1)
