"""mmsim.sweep on mpi4py.futures.MPIPoolExecutor gives the rows executor=None gives. Run under MPI:
    mpirun -n 2 python3 -m mpi4py.futures python/tests/sweep_mpi.py
(rank 0 runs this script, the other ranks are the pool's workers). Exit status 0 when the rows are
the same, 1 when they differ; 77 (skipped) without mpi4py or the module."""
import sys

try:
    import mmsim
    from mpi4py.futures import MPIPoolExecutor
except ImportError as e:
    print("skipped: %s (Debian: apt-get install python3-mpi4py; PYTHONPATH=<build>/python)" % e)
    sys.exit(77)

GRID = {"runs": [
    {"algorithm": "d-designated", "execution": ["round-synchronous", "asynchronous"],
     "parameters": {"n": [1024, 4096], "perm": ["random", "transpose"], "seed": [1, 2]}},
    {"algorithm": "congestion", "parameters": {"layout": ["raw", "rap"], "pattern": ["stride"], "w": [8, 16],
                                               "trials": [200]}},
]}

alone = mmsim.sweep(GRID)
with MPIPoolExecutor() as pool:
    pooled = mmsim.sweep(GRID, executor=pool)
if pooled != alone:
    print("FAIL: the MPI pool's rows differ from the single-process rows")
    sys.exit(1)
print("sweep_mpi: %d rows, the same on an MPI pool" % len(alone))
