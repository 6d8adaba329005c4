"""Hostile calls of kinds test_hostile.py does not draw, one case each: names and values with an ESC,
a CR, a NUL or 10 KB of UTF-8 where the congestion's layouts and patterns, a sweep's grid, a table
and a kernel take text; -0.0, huge and non-finite numbers, bools, NumPy scalars and strings of digits
where integers are wanted; grids nested deep or of the wrong shape, executors that are not
executors, files that are folders or empty. Each call works or raises a documented exception
(InputError, TypeError) whose message is one printable line of at most 400 characters that echoes
no more than 80 characters of the value given."""
import concurrent.futures
import os

import pytest

from module_or_skip import import_mmsim

mmsim = import_mmsim()

np = pytest.importorskip("numpy", reason="python3-numpy is not installed")

ECHO_LIMIT = 80
LONG = "\u00e9" * 5000
GRID = {"runs": [{"algorithm": "d-designated", "parameters": {"n": [64], "perm": "identical"}}]}


def _grid(**run):
    g = {"runs": [dict(GRID["runs"][0])]}
    g["runs"][0].update(run)
    return g


def _nested(depth):
    v = []
    for _ in range(depth):
        v = [v]
    return v


def _circular():
    g = {"runs": []}
    g["runs"].append(g)
    return g


CASES = [
    ("congestion layout with an ESC", lambda: mmsim.congestion("\x1b[2Jrap", "random", w=4, trials=10)),
    ("congestion pattern with a CR", lambda: mmsim.congestion("rap", "random\r", w=4, trials=10)),
    ("congestion pattern of 10 KB of UTF-8", lambda: mmsim.congestion("rap", LONG, w=4, trials=10)),
    ("congestion layout with a NUL", lambda: mmsim.congestion("ra\x00p", "random", w=4, trials=10)),
    ("congestion w=-0.0", lambda: mmsim.congestion("rap", "random", w=-0.0, trials=10)),
    ("congestion seed=nan", lambda: mmsim.congestion("rap", "random", w=4, trials=10, seed=float("nan"))),
    ("congestion trials=True", lambda: mmsim.congestion("rap", "random", w=4, trials=True)),
    ("sweep algorithm with an ESC", lambda: mmsim.sweep(_grid(algorithm="d\x1b[31mx"))),
    ("sweep algorithm of 10 KB of UTF-8", lambda: mmsim.sweep(_grid(algorithm=LONG))),
    ("sweep parameter key with a NUL", lambda: mmsim.sweep(_grid(parameters={"n\x00": [64]}))),
    ("sweep n=[-0.0]", lambda: mmsim.sweep(_grid(parameters={"n": [-0.0], "perm": "identical"}))),
    ("sweep n=[1e308]", lambda: mmsim.sweep(_grid(parameters={"n": [1e308], "perm": "identical"}))),
    ("sweep n=[inf]", lambda: mmsim.sweep(_grid(parameters={"n": [float("inf")], "perm": "identical"}))),
    ("sweep runs nested 10,000 deep", lambda: mmsim.sweep({"runs": _nested(10000)})),
    ("sweep grid that holds itself", lambda: mmsim.sweep(_circular())),
    ("sweep grid of the wrong shape", lambda: mmsim.sweep({"runs": "d-designated"})),
    ("sweep grid a folder", lambda: mmsim.sweep(os.path.dirname(os.path.abspath(__file__)))),
    ("sweep grid path with a newline", lambda: mmsim.sweep("no\nsuch\x1b.json")),
    ("sweep executor not an executor", lambda: mmsim.sweep(GRID, executor=object())),
    ("sweep chunk=2**70", lambda: mmsim.sweep(GRID, chunk=2 ** 70)),
    ("table name with an ESC", lambda: mmsim.table("\x1b[2Jkasagi-t1")),
    ("table name of 10 KB of UTF-8", lambda: mmsim.table(LONG)),
    ("table n='4096'", lambda: mmsim.table("kasagi-t1", n="4096")),
    ("table n=-0.0", lambda: mmsim.table("kasagi-t1", n=-0.0)),
    ("table n=np.int64(-1)", lambda: mmsim.table("kasagi-t1", n=np.int64(-1))),
    ("table seed=2**64", lambda: mmsim.table("rap-t2", seed=2 ** 64, trials=10)),
    ("table wide=object()", lambda: mmsim.table("rap-t2", wide=object(), trials=10)),
    ("access addr with a CR", lambda: mmsim.access("dmm", 4, 1, addr="t\r")),
    ("access addr of 10 KB", lambda: mmsim.access("dmm", 4, 1, addr="t+" * 5000 + "1")),
    ("access layout with a NUL", lambda: mmsim.access("dmm", 4, 1, layout="r\x00ap", cell="t, t")),
    ("access warps of NaN", lambda: mmsim.access("dmm", 4, 1, [[float("nan")] * 4])),
    ("access warps of -0.0", lambda: mmsim.access("dmm", 4, 1, [[-0.0, 1, 2, 3]])),
    ("Machine w=np.float64(nan)", lambda: mmsim.Machine("dmm", w=np.float64("nan"))),
    ("Machine model with a CR", lambda: mmsim.Machine("dmm\r")),
    ("Kernel name of 10 KB with an ESC", lambda: mmsim.Kernel("\x1b" + LONG, 1, 4)),
    ("Kernel read of a 0-d array", lambda: mmsim.Kernel("k", 1, 4).read("a", np.array(3))),
    ("Kernel read of a huge uint64 view", lambda: mmsim.Kernel("k", 1, 4).read("a", np.full(4, 2 ** 63,
                                                                                          dtype=np.uint64))),
    ("run_kernel of a folder", lambda: mmsim.run_kernel(os.path.dirname(os.path.abspath(__file__)))),
    ("run_kernel of nested lists", lambda: mmsim.run_kernel({"kernels": _nested(5000)})),
    ("launch with names of 10 KB and an address outside", lambda: _launch_outside("\x1b" + LONG)),
    ("Kernel name of 10 KB with a bad address", lambda: mmsim.Kernel("\x1b" + LONG, 1, 4).read("a", [0.5, 1, 2, 3])),
    ("global_array of a shared array of a long name", lambda: _global_of_shared("\x1b" + LONG)),
    ("run_kernel name with an ESC", lambda: mmsim.run_kernel({"arrays": [{"name": "\x1b[2J", "size": 4}],
                                                              "kernels": []})),
]


def _launch_outside(name):
    """A kernel, a step and an array all called `name`, one address past the array's end."""
    engine = mmsim.Engine(mmsim.Machine("dmm", w=4))
    engine.add_array(name, "shared", 4)
    k = mmsim.Kernel(name, 1, 4)
    k.read(name, [0, 1, 2, 100], name=name)
    engine.launch(k)


def _global_of_shared(name):
    engine = mmsim.Engine(mmsim.Machine("dmm", w=4))
    engine.add_array(name, "shared", 4)
    engine.global_array(name)


def _values(case):
    """The texts a case gave, to look for in its message."""
    return [LONG, "\x1b" + LONG, "t+" * 5000 + "1"]


@pytest.mark.parametrize("what, call", CASES, ids=[c[0] for c in CASES])
def test_unseen_hostile_call_is_answered_by_a_documented_exception(what, call):
    try:
        call()
    except (mmsim.InputError, TypeError) as e:
        message = str(e)
        assert "\n" not in message and "\r" not in message, (what, message[:300])
        assert not any(ord(c) < 32 or ord(c) == 127 for c in message), (what, message[:300])
        assert len(message) <= 400, (what, len(message), message[:300])
        for value in _values(what):
            for i in range(0, len(value) - ECHO_LIMIT, 7):
                assert value[i:i + ECHO_LIMIT + 1] not in message, (what, message[:300])
    except OverflowError:
        pass  # Python's own refusal of an int past a C long, before mmsim sees it


def test_a_sweep_on_an_executor_that_fails_raises_its_error():
    """An executor whose tasks fail: the failure reaches the caller, never a partial list."""
    class Failing(concurrent.futures.Executor):
        def submit(self, fn, *args, **kwargs):
            f = concurrent.futures.Future()
            f.set_exception(RuntimeError("worker lost"))
            return f

    with pytest.raises(RuntimeError, match="worker lost"):
        mmsim.sweep(GRID, executor=Failing())
