"""Kernels of one's own from Python: NumPy arrays of per-thread addresses, run by the engine in both
execution modes, against the same kernel written in C++ (examples/custom_kernel) and docs/model.md."""
import pytest

from module_or_skip import import_mmsim

mmsim = import_mmsim()

np = pytest.importorskip("numpy", reason="python3-numpy is not installed")


def strided_gather(machine, blocks, threads, stride, execution, host_threads=0):
    """examples/custom_kernel/main.cpp, round for round, with NumPy rounds."""
    n = blocks * threads
    engine = mmsim.Engine(machine, execution=execution, threads=host_threads)
    engine.add_array("a", "global", n)
    engine.add_array("b", "global", n)
    engine.add_array("tile", "shared", threads)
    a = engine.global_array("a")
    a[:] = 1000 + np.arange(n)
    i = np.arange(n)
    local = i % threads
    k = mmsim.Kernel("strided-gather", blocks=blocks, threads_per_block=threads)
    k.read("a", i, name="load")
    k.write("tile", local, name="stage")
    k.barrier()
    k.read("tile", local * stride % threads, name="gather")
    k.write("b", i, name="store")
    engine.launch(k)
    expected = a[i // threads * threads + local * stride % threads]
    assert np.array_equal(engine.global_array("b"), expected), "the data did not move as the kernel says"
    return engine.stats()


ROUND_KEYS = ("kernel", "name", "array", "memory", "op", "warps", "requests", "slots", "time_units",
              "max_congestion", "bank_conflicts", "extra_bank_requests")


@pytest.mark.parametrize("w, blocks, threads, stride", [(32, 16, 64, 3), (8, 5, 16, 2), (4, 9, 12, 6)])
@pytest.mark.parametrize("execution", ["round-synchronous", "asynchronous"])
def test_the_numpy_kernel_takes_the_time_of_the_same_kernel_in_cpp(custom_kernel, w, blocks, threads, stride,
                                                                   execution):
    ours = strided_gather(mmsim.Machine("hmm", w=w), blocks, threads, stride, execution)
    args = ["-w", w, "--blocks", blocks, "--threads", threads, "--stride", stride]
    theirs = custom_kernel(*args, *(["--async"] if execution == "asynchronous" else []))
    assert theirs["correct"]
    assert ours["time_units"] == theirs["time_units"]
    assert [{k: r[k] for k in ROUND_KEYS} for r in ours["rounds"]] == theirs["rounds"]


def test_engine_threads_change_nothing_but_the_speed():
    one = strided_gather(mmsim.Machine("hmm", w=8), 40, 16, 3, "round-synchronous")
    assert one == strided_gather(mmsim.Machine("hmm", w=8), 40, 16, 3, "round-synchronous", host_threads=3)


def test_the_staged_gather_costs_what_model_md_says():
    # w = 32, L = 100, l = 1, k = 8; 16 blocks of 64: 2 (32 + 99) + 2 (2 * 2 + 0) = 270.
    stats = strided_gather(mmsim.Machine("hmm"), 16, 64, 3, "round-synchronous")
    assert stats["time_units"] == 270
    assert [r["time_units"] for r in stats["rounds"]] == [131, 4, 4, 131]
    assert [r["max_congestion"] for r in stats["rounds"]] == [1, 1, 1, 1]


def test_a_strided_global_read_costs_a_slot_per_address_group():
    # One warp of w = 8 reading with stride 8 touches 8 address groups: 8 slots, 8 + L - 1 time units.
    m = mmsim.Machine("umm", w=8, l=5)
    e = mmsim.Engine(m)
    e.add_array("a", "global", 64)
    k = mmsim.Kernel("stride", blocks=1, threads_per_block=8)
    k.read("a", np.arange(8) * 8)
    assert e.launch(k)["time_units"] == 8 + 5 - 1
    assert e.stats()["rounds"][0]["slots"] == 8


def test_negative_addresses_are_idle_threads_and_an_idle_warp_is_not_dispatched():
    e = mmsim.Engine(mmsim.Machine("dmm", w=4, l=5))
    e.add_array("m", "shared", 16)
    k = mmsim.Kernel("fig2", blocks=1, threads_per_block=12)
    k.read("m", np.array([7, 5, 15, 0, 10, 11, 12, 9, -1, -1, -1, -1]))
    assert e.launch(k)["time_units"] == 7  # KNI Fig. 2; the third warp requests nothing
    assert e.stats()["rounds"][0]["warps"] == 2


def test_strided_views_and_other_integer_types_are_accepted():
    e = mmsim.Engine(mmsim.Machine("umm", w=4, l=1))
    e.add_array("a", "global", 8)
    k = mmsim.Kernel("k", blocks=1, threads_per_block=4)
    k.read("a", np.arange(8, dtype=np.int64)[::2])  # a view, read in place
    k.read(0, np.arange(4, dtype=np.int32), reg=0)  # converted once
    e.launch(k)
    assert [r["slots"] for r in e.stats()["rounds"]] == [2, 1]


def test_int64_address_arrays_are_read_in_place_not_copied():
    e = mmsim.Engine(mmsim.Machine("umm", w=4, l=1))
    e.add_array("a", "global", 16)
    addresses = np.arange(4) * 4  # four address groups
    k = mmsim.Kernel("k", blocks=1, threads_per_block=4)
    k.read("a", addresses)
    addresses[:] = 0  # the step sees this: it holds the array, not a copy
    e.launch(k)
    assert e.stats()["rounds"][0]["slots"] == 1


def test_global_arrays_are_views_of_the_engines_cells_and_set_writes_registers():
    e = mmsim.Engine(mmsim.Machine("hmm", w=4))
    e.add_array("out", "global", 8)
    view = e.global_array("out")
    k = mmsim.Kernel("fill", blocks=2, threads_per_block=4)
    k.set(0, np.arange(8) * 10)
    k.write("out", np.arange(8)[::-1].copy())
    e.launch(k)
    assert list(view) == [70, 60, 50, 40, 30, 20, 10, 0]
    assert e.global_array("out").base is not None


def test_shared_arrays_are_per_block():
    e = mmsim.Engine(mmsim.Machine("hmm", w=4, k=2))
    e.add_array("s", "shared", 4)
    k = mmsim.Kernel("k", blocks=3, threads_per_block=4)
    k.set(0, np.arange(12))
    k.write("s", np.arange(12) % 4)
    e.launch(k)
    assert list(e.shared_array("s", 2)) == [8, 9, 10, 11]
    with pytest.raises(ValueError, match="block must be in \\[0, 3\\)"):
        e.shared_array("s", 3)


def test_asynchronous_time_is_never_above_round_synchronous_on_random_kernels():
    rng = np.random.default_rng(5)
    for _ in range(20):
        w = int(rng.choice([4, 8, 16]))
        blocks, tpb = int(rng.integers(1, 6)), w * int(rng.integers(1, 4))
        n = blocks * tpb
        machine = mmsim.Machine("hmm", w=w, L=int(rng.integers(1, 50)), k=2)
        seed = int(rng.integers(1 << 30))
        times = []
        for execution in ("round-synchronous", "asynchronous"):
            e = mmsim.Engine(machine, execution=execution)
            e.add_array("g", "global", 4 * n)
            e.add_array("s", "shared", tpb)
            k = mmsim.Kernel("random", blocks=blocks, threads_per_block=tpb)
            rounds = np.random.default_rng(seed)  # the same program in both modes
            for _ in range(3):
                k.read("g", rounds.integers(-1, 4 * n, n))
                k.write("s", rounds.integers(-1, tpb, n))
                k.barrier()
            e.launch(k)
            times.append(e.stats()["time_units"])
        assert times[1] <= times[0]


def test_user_errors_are_value_errors_naming_the_kernel_and_step():
    e = mmsim.Engine(mmsim.Machine("hmm", w=4))
    e.add_array("a", "global", 4)
    k = mmsim.Kernel("k", blocks=1, threads_per_block=4)
    with pytest.raises(ValueError, match="one 1-D array of blocks x threads_per_block = 4 entries"):
        k.read("a", np.arange(3))
    with pytest.raises(ValueError, match="register 1 outside 0 .. 0"):
        k.read("a", np.arange(4), reg=1)
    k.read("a", np.arange(4) + 1)
    with pytest.raises(ValueError, match="thread 3 addresses 4 outside a\\[4\\]"):
        e.launch(k)
    odd = mmsim.Kernel("odd", blocks=1, threads_per_block=6)
    odd.read("a", np.zeros(6, dtype=np.int64))
    with pytest.raises(ValueError, match="multiple of w"):
        e.launch(odd)
    missing = mmsim.Kernel("missing", blocks=1, threads_per_block=4)
    missing.read("b", np.arange(4))
    with pytest.raises(ValueError, match="no array named 'b'"):
        e.launch(missing)
    with pytest.raises(ValueError, match="the machine has no shared memory"):
        mmsim.Engine(mmsim.Machine("umm", w=4)).add_array("s", "shared", 4)
    with pytest.raises(ValueError, match="^w=: must be an integer in"):
        mmsim.Machine("hmm", w=1 << 40)
    with pytest.raises(ValueError, match="execution: must be round-synchronous or asynchronous"):
        mmsim.Engine(mmsim.Machine(), execution="eventually")
