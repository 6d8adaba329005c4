"""mmsim from Python: the memory machine models (DMM, UMM, HMM) of Nakano et al.

The same library as the ``mmsim`` program, so the same numbers, the same JSON keys and the same
one-line errors (bad input raises :class:`InputError`, a :class:`ValueError`)::

    import mmsim
    mmsim.access("dmm", w=4, l=5, warps=[[7, 5, 15, 0], [10, 11, 12, 9]])["time_units"]   # 7
    mmsim.run("d-designated", perm="random", n=65536, w=32)["time_units"]
    mmsim.congestion("rap", "random", w=32, trials=10000)["mean"]
    mmsim.table("kasagi-t1", n=4096)                 # records: pandas.DataFrame(...) takes them as they are
    mmsim.sweep({"runs": [...]}, executor=pool)      # any concurrent.futures.Executor (docs/sweep.md)

Kernels of one's own: :class:`Machine`, :class:`Engine` and :class:`Kernel`, whose memory
instructions are NumPy arrays of per-thread addresses (docs/library.md); or :func:`run_kernel` with a
kernel description, whose addresses the simulated threads compute from what they loaded
(docs/kernel-files.md). :func:`predict` gives either one's GPU time from a GPU profile
(docs/your-kernel.md).
"""

import functools
import json
import os

from . import _mmsim
from ._mmsim import Engine, InputError, Kernel, Machine, WriteError
from .layouts import Layout, layout


def _one_line(f, name):
    """f, with pybind11's refusal of an argument's type (several lines, each overload and every
    argument's repr) cut to one short line; every other exception as it is."""
    @functools.wraps(f)
    def call(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except TypeError as e:
            if "incompatible" not in str(e):
                raise
            raise TypeError("%s: an argument of the wrong type (help(mmsim.%s) lists them)" % (name, name)) from None
    return call


# Every method of the classes (and the extension's functions below) refuses a wrong type in one line.
for _cls in (Machine, Kernel, Engine):
    for _name, _value in list(vars(_cls).items()):
        if callable(_value) and (not _name.startswith("__") or _name in ("__init__", "__len__")):
            setattr(_cls, _name, _one_line(_value, "%s.%s" % (_cls.__name__, _name)))
for _name in ("run", "congestion", "table", "read_grid", "sweep_size", "sweep_rows", "access_posed",
              "run_kernel_dict", "run_kernel_file"):
    setattr(_mmsim, _name, _one_line(getattr(_mmsim, _name), _name))

__all__ = ["Engine", "InputError", "Kernel", "Layout", "Machine", "WriteError", "access", "algorithms", "build_info",
           "congestion", "layout", "predict", "run", "run_kernel", "sweep", "table", "tables"]

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


def access(model="dmm", w=4, l=5, warps=None, *, addr=None, layout=None, cell=None, threads=None, seed=None,
           element_bytes=4, vector=1, op="read", regs=None, sectors=False):
    """One memory instruction of a few warps on a DMM or a UMM, as ``mmsim access ... --json`` gives
    it, posed one of the command's three ways:

    - ``warps``: ``warps[j]`` lists the w addresses warp j presents (None or a negative number: an
      inactive thread), as ``--warp``;
    - ``addr``: the address of thread t as an expression (``"t*33"``, ``"(t%w)*w + t/w"``), as
      ``--addr``, with ``regs`` (``{"key": [5, 3, 3, 0]}``) as ``--reg``;
    - ``layout`` and ``cell``: thread t requests cell ``cell`` of a matrix stored under ``layout``
      (``layout="rap", cell="t, t"``), as ``--layout --cell``; ``seed`` draws a random layout.

    The layout is read by the command's own parser, so every layout ``mmsim access`` takes is taken
    here. ``threads`` (default w), ``element_bytes``, ``vector`` and ``op`` are the command's options.
    Returns the command's object: slots (per warp), time_units, the trace of every slot and each
    warp's requests explained. ``sectors=True`` (UMM only) is ``--sectors``: each warp also gets
    the GPU's view, ``sectors``, ``lines``, ``ideal_sectors``, ``ideal_lines``, ``bytes_asked``,
    ``bytes_moved``, ``sectors_touched`` and ``lines_touched`` (32-byte sectors, 128-byte lines, as
    the predictor's coalescer counts them), and each thread its ``sectors``. A refusal is an InputError naming the keyword (``w=: ...``).
    KNI Fig. 2: ``access("dmm", 4, 5, [[7, 5, 15, 0], [10, 11, 12, 9]])`` takes 7 time units,
    on the UMM 9.
    """
    given = {"model": model, "w": w, "l": l, "warps": warps, "addr": addr, "layout": layout, "cell": cell,
             "threads": threads, "seed": seed, "element_bytes": element_bytes, "vector": vector, "op": op,
             "regs": regs, "sectors": bool(sectors)}
    return _mmsim.access_posed(given)


def tables():
    """The reproduced tables ``mmsim table`` makes: name, paper and description of each."""
    return _mmsim.tables()


def table(name, *, wide=False, **params):
    """One reproduced table as ``mmsim table NAME --format csv`` makes it, as records: a list of
    dicts, one per row, with the CSV's columns as keys (snake_case, docs/report.md), then every
    parameter that made the table and ``mmsim_version`` and ``mmsim_commit``; ``pandas.DataFrame``
    takes the list as it is. ``params`` are the command's: n, w, l, L, k, trials, seed (ints);
    ``wide=True`` is ``--wide`` (rap-t2 in the paper's layout). A refusal is an InputError naming
    the keyword. ``mmsim.table("rap-t2", trials=1000)``.
    """
    return _mmsim.table(name, params, bool(wide))


def _grid_text(grid):
    if isinstance(grid, dict):
        # A dict nested past Python's recursion limit, or holding itself, is bad input like any
        # other grid: InputError, not json's RecursionError or ValueError.
        try:
            return json.dumps(grid), "grid"
        except RecursionError:
            raise InputError("sweep: grid=: nested deeper than Python can write as JSON") from None
        except ValueError as e:
            raise InputError("sweep: grid=: not writable as JSON (%s)" % str(e)[:60]) from None
    if isinstance(grid, (str, os.PathLike)):
        path = os.fspath(grid)
        return _mmsim.read_grid(path), path
    raise TypeError("sweep: a grid is a dict in the grid format (docs/sweep.md) or a grid file's path, not %s" %
                    type(grid).__name__)


def _sweep_rows(text, name, indices):
    """Rows ``indices`` of a grid, run in this process: the task an executor runs (module-level, so
    that a process pool, an MPI pool or a Dask worker finds it by name)."""
    return _mmsim.sweep_rows(text, name, list(indices))


def sweep(grid, executor=None, *, chunk=1):
    """Runs a sweep's grid (a dict in the grid format of docs/sweep.md, or a grid file's path) and
    returns its rows as records in grid order, each a dict with the keys of ``mmsim sweep``'s CSV
    (algorithm, execution, every parameter, the figures, correct, error, mmsim_version,
    mmsim_commit); ``pandas.DataFrame`` takes the list as it is.

    ``executor`` is any ``concurrent.futures.Executor``: a ``ProcessPoolExecutor``, an
    ``mpi4py.futures.MPIPoolExecutor`` (under ``mpirun``), a Dask ``Client(...).get_executor()``.
    Each task runs ``chunk`` rows; every row is the same whichever executor runs it, and the list
    is the one ``executor=None`` (this process, one row after another) returns. The grid is checked
    whole before any row runs: a bad grid raises InputError with ``mmsim sweep``'s line.
    """
    text, name = _grid_text(grid)
    count = _mmsim.sweep_size(text, name)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise InputError("sweep: chunk=: must be an integer >= 1 (got %s)" % type(chunk).__name__)
    batches = [range(i, min(i + chunk, count)) for i in range(0, count, chunk)]
    if executor is None:
        return _sweep_rows(text, name, range(count))
    if not callable(getattr(executor, "submit", None)):
        raise TypeError("sweep: executor=: a concurrent.futures.Executor (with submit), not %s" %
                        type(executor).__name__)
    futures = [executor.submit(_sweep_rows, text, name, list(b)) for b in batches]
    rows = []
    for f in futures:
        rows.extend(f.result())
    return rows


def congestion(layout, pattern, *, w=32, dims=2, trials=100000, seed=1, speed=False):
    """Monte Carlo of the congestion of one warp access under a random layout (NMI Sect. V), as
    ``mmsim congestion --json``: mean, stderr, min, max and the histogram over ``trials`` accesses,
    each with a fresh layout and pattern; ``seed`` fixes every draw. ``speed=True`` adds the time.
    """
    if seed < 0:
        raise InputError("seed=: must be >= 0 (got %d)" % seed)
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


def predict(kernel, *, profile, model="", threads=0, exact=False, sample_budget=2**21, sample_seed=1):
    """Predicts the GPU time of a kernel of one's own from a GPU profile (``mmsim gpu calibrate``'s
    ``profile-<device>.json``), exactly as ``mmsim predict`` prices a registry algorithm: the kernels
    run twice on the profile's machine with the GPU-like global memory, the first run warming the
    L2, and the profile's cost model ``model`` ("": the one its cross-validation chose) prices the
    counts of the second. As ``mmsim predict`` does, the L2 and DRAM serve a seeded sample of the DRAM rows
    (``sample_seed``), at most ``sample_budget`` sectors, and the counts are scaled with a 95 %
    interval (``predicted_ms_ci95``, ``counts_ci95``, ``sampling``); a run within the budget is
    simulated whole, and ``exact=True`` simulates every sector of any run. ``kernel`` is a kernel description (a dict in the kernel-file format or a file's path,
    as for :func:`run_kernel`) or an :class:`Engine` (every kernel it launched so far, again; its
    machine must be an HMM of the profile's width w, and l, L and k are the profile's).

    Returns what ``mmsim predict --kernel FILE --json`` prints: predicted_ms with its
    ``interval_ms`` (the profile's cross-validated interval, ``interval_coverage`` of the
    microbenchmarks left out fall inside), counts, and per
    kernel its predicted_ms, launch_ms, counts and steps, each step with its slots, congestion,
    bank_conflicts (shared), sectors_per_request and l2_hit_rate (global), dram_bytes, predicted_ms
    and share of its kernel's time::

        p = mmsim.predict("examples/kernels/transpose_tiled_32x33.json",
                          profile="results/gpu-h100/profile-h100.json")
        p["predicted_ms"], [(s["step"], s["share"]) for s in p["kernels"][0]["steps"]]
    """
    profile = os.fspath(profile)
    if isinstance(kernel, Engine):
        return kernel._predict(profile, model, threads, exact, sample_budget, sample_seed)
    if isinstance(kernel, (str, os.PathLike)):
        return _mmsim.predict_kernel(os.fspath(kernel), profile, model, threads, exact, sample_budget, sample_seed)
    if isinstance(kernel, dict):
        return _mmsim.predict_kernel(kernel, profile, model, threads, exact, sample_budget, sample_seed)
    raise TypeError("predict: a kernel description (dict or file path) or an mmsim.Engine, not %s" %
                    type(kernel).__name__)
