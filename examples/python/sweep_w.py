"""Sweep the width w: the expected congestion of reading a column of a w x w matrix under the RAW,
RAS and RAP layouts (NMI Sect. IV-V), and the time of a random permutation of n elements on the HMM
by the D-designated and the scheduled algorithms (KNI Sect. 4, 7); one PNG.

    PYTHONPATH=build/python python3 examples/python/sweep_w.py --out sweep_w.png
"""
import argparse

import matplotlib
matplotlib.use("Agg")  # a file, no window
import matplotlib.pyplot as plt  # noqa: E402

import mmsim  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--out", default="sweep_w.png")
parser.add_argument("--quick", action="store_true", help="fewer trials and a smaller n (a smoke test)")
args = parser.parse_args()
trials, n = (2000, 4096) if args.quick else (20000, 1 << 16)
ws = [4, 8, 16, 32, 64]

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
for layout in ("raw", "ras", "rap"):
    runs = [mmsim.congestion(layout, "stride", w=w, trials=trials) for w in ws]
    left.errorbar(ws, [r["mean"] for r in runs], yerr=[r["stderr"] for r in runs], marker="o", label=layout)
left.set(title="column of a w x w matrix (NMI Sect. V)", xlabel="w", ylabel="expected congestion")
for name in ("d-designated", "scheduled"):
    right.plot(ws, [mmsim.run(name, perm="random", n=n, w=w)["time_units"] for w in ws], marker="o", label=name)
right.set(title="random permutation, n = %d (KNI Sect. 4, 7)" % n, xlabel="w",
          ylabel="time units (HMM, L = 100, k = 8)")
for ax in (left, right):
    ax.set(xscale="log", yscale="log")
    ax.set_xticks(ws, [str(w) for w in ws])
    ax.legend()
fig.suptitle("mmsim %s: sweeping the width w" % mmsim.__version__)
fig.tight_layout()
fig.savefig(args.out, dpi=120)
print(args.out)
