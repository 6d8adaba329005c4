"""mmsim from Python: the memory machine models (DMM, UMM, HMM) of Nakano et al.

The same library as the ``mmsim`` program, so the same numbers, the same JSON keys and the same
one-line errors (bad input raises :class:`InputError`, a :class:`ValueError`)::

    import mmsim
    mmsim.access("dmm", w=4, l=5, warps=[[7, 5, 15, 0], [10, 11, 12, 9]])["time_units"]   # 7
    mmsim.run("d-designated", perm="random", n=65536, w=32)["time_units"]
    mmsim.congestion("rap", "random", w=32, trials=10000)["mean"]

Kernels of one's own: :class:`Machine`, :class:`Engine` and :class:`Kernel`, whose memory
instructions are NumPy arrays of per-thread addresses (docs/library.md); or :func:`run_kernel` with a
kernel description, whose addresses the simulated threads compute from what they loaded
(docs/kernel-files.md).
"""

import os

from . import _mmsim
from ._mmsim import Engine, InputError, Kernel, Machine, WriteError
from .layouts import Layout, layout

__all__ = ["Engine", "InputError", "Kernel", "Layout", "Machine", "WriteError", "access", "algorithms", "build_info",
           "congestion", "layout", "run", "run_kernel"]

__version__ = _mmsim.build_info()["version"]


def build_info():
    """This build: ``{"version": "0.1.0", "commit": "<git commit or unknown>", "cuda": False}``."""
    return dict(_mmsim.build_info())


def algorithms():
    """Every registered algorithm as a dict, with the keys of ``mmsim list --json``: name, family,
    paper, machine, description, asynchronous, traces, parameters. Each parameter is a dict with
    name, flags, type (integer, choice, text, flag, matrix), default, required, rule, help, and
    min / max or choices; unlike the command's text, defaults are typed (an int for an integer,
    False for a flag).
    """
    return _mmsim.algorithms()


def run(name, *, asynchronous=False, trace=False, threads=0, **params):
    """Runs one algorithm of the registry as ``mmsim run NAME ... --json`` does and returns that
    report as a dict (docs/report.md: algorithm, machine, parameters, time_units, rounds, correct...).
    ``params`` are the algorithm's parameters by the names of :func:`algorithms` and of the report's
    "parameters" (``n=4096, w=32, perm="random", perm_file="p.txt"``): an int is taken as it is, a
    flag is True (False or None leave a parameter out), anything else as the text ``str(value)``
    the command line would be given. With ``trace=True`` the report also has "trace": a dict of
    NumPy arrays, one per column of ``--trace``, one entry per slot (int64 for the numbers, str for
    the words, and for "requests" an object array of each slot's uint64 addresses).
    ``threads`` are the host threads of round-synchronous rounds, as ``--threads`` (0: every core);
    the report is the same for every count.
    """
    report, columns = _mmsim.run(name, params, asynchronous, trace, threads)
    if columns is not None:
        report["trace"] = columns
    return report


def access(model, w, l, warps):
    """One memory instruction of a few warps on a DMM or a UMM, as ``mmsim access --warp ... --json``
    gives it: ``warps[j]`` lists the w addresses warp j presents (None or a negative number: an
    inactive thread). Returns the command's object: slots (per warp), time_units, the trace of every
    slot and each warp's requests explained (bank or address group, slot, merges).
    KNI Fig. 2: ``access("dmm", 4, 5, [[7, 5, 15, 0], [10, 11, 12, 9]])`` takes 7 time units,
    on the UMM 9.
    """
    rows = [[-1 if a is None else a for a in warp] for warp in warps]
    return _mmsim.access(model, w, l, rows)


def congestion(layout, pattern, *, w=32, dims=2, trials=100000, seed=1, speed=False):
    """Monte Carlo of the congestion of one warp access under a random layout (NMI Sect. V), as
    ``mmsim congestion --json``: mean, stderr, min, max and the histogram over ``trials`` accesses,
    each with a fresh layout and pattern; ``seed`` fixes every draw. ``speed=True`` adds the time.
    """
    if seed < 0:
        raise InputError("--seed: must be >= 0 (got %d)" % seed)
    return _mmsim.congestion(layout, pattern, w, dims, trials, seed, speed)


def run_kernel(description, *, threads=0):
    """Runs a kernel description: a dict in the kernel-file format (docs/kernel-files.md: machine,
    arrays, kernels of steps whose addresses are expressions of the thread and of registers loaded
    by earlier steps), or the path of a kernel file. Returns the run as `mmsim run --kernel FILE
    --json --arrays` prints it: time_units, kernels, steps (slots, bank_conflicts, ... per step) and
    arrays, every global array's final values as a NumPy array. A bad description raises InputError
    naming the kernel, the step and the rule::

        r = mmsim.run_kernel({"arrays": [{"name": "idx", "size": 64, "init": {"random_below": 64}},
                                         {"name": "a", "size": 64, "init": "iota"},
                                         {"name": "b", "size": 64}],
                              "kernels": [{"name": "gather", "threads_per_block": 64, "registers": 2,
                                           "steps": [{"read": "idx", "address": "t", "reg": 0},
                                                     {"read": "a", "address": "r0", "reg": 1},
                                                     {"write": "b", "address": "t", "reg": 1}]}]})
    """
    if isinstance(description, (str, os.PathLike)):
        run = _mmsim.run_kernel_file(os.fspath(description), threads)
    elif isinstance(description, dict):
        # Read once into the values a kernel file's reader checks, key by key.
        run = _mmsim.run_kernel_dict(description, threads)
    else:
        raise TypeError("run_kernel: a dict in the kernel-file format or a file's path, not %s" %
                        type(description).__name__)
    try:
        import numpy
        run["arrays"] = {name: numpy.asarray(values, dtype=numpy.uint32) for name, values in run["arrays"].items()}
    except ImportError:
        pass
    return run
