#!/usr/bin/env python3
"""Cost-model candidates, each fitted on a profile's microbenchmarks alone and pooled over the KNI
runs, from the committed files: the table of docs/prediction.md ("Rows opened for
read-modify-write") that shows how rmw-rows was chosen.

  scripts/model_candidates.py [--root DIR]                the candidates' table
  scripts/model_candidates.py --write-random [--root DIR]  each model's write-random, predicted/measured

A candidate is a list of counted quantities. Its constants are fitted as predict/gpu_profile.cpp
fits a cost model (non-negative least squares on relative errors, every subset of the counts tried)
on the microbenchmarks that the profile records with their timings and counts; it then prices
every KNI float run of validate.md, validate-n67108864.md and validate-n268435456.md that the
counts files hold for the profile's machine. Three candidates are models of mmsim (dram-rows,
l2-lines, rmw-rows): their pooled figures must equal the README's third table, which checks the
script. Needs NumPy.

The profile records a microbenchmark's counts but not its L2 transactions; they are recovered from
its recorded dram-rows prediction, which is linear in them.
"""
import argparse
import csv
import json
import pathlib
import sys

import numpy as np

from prediction_tables import pooled  # the README's pooling, so that the shared rows must agree

GPUS = [("H100", "results/gpu-h100", "profile-h100.json"), ("H200", "results/gpu-h200", "profile-h200.json")]
COUNTS = ["validate-counts.csv", "counts-n67108864.csv", "counts-n268435456.csv"]
TABLES = ["validate.md", "validate-n67108864.md", "validate-n268435456.md"]
KNI = ("conventional", "in-place", "scheduled")


def base(c):
    return [c["launches"], c["l2_transactions"], c["read_sectors"] + c["write_sectors"]]


def tail(c):
    return [c["shared_time_units"]]


def fills_apart(c, p):
    return [c[p + "dram_reads"] - c[p + "dram_fills"], c[p + "dram_fills"], c[p + "dram_writes"]]


def other_rows(c, p):
    return c[p + "dram_read_activations"] + c[p + "dram_write_activations"] - c[p + "dram_rmw_activations"]


# name -> the counts it prices; "line_" counts are the L2 of lines' (l2-lines), the others the L2
# of sectors'.
CANDIDATES = [
    ("dram-rows", lambda c: base(c) + [c["dram_reads"], c["dram_writes"], c["dram_activations"]] + tail(c)),
    ("l2-lines", lambda c: base(c) + [c["line_dram_reads"], c["line_dram_writes"], c["line_dram_read_activations"],
                                      c["line_dram_write_activations"]] + tail(c)),
    ("l2-lines' counts, fills priced apart from other DRAM reads",
     lambda c: base(c) + fills_apart(c, "line_") + [c["line_dram_read_activations"],
                                                    c["line_dram_write_activations"]] + tail(c)),
    ("the same without write-back rows",
     lambda c: base(c) + fills_apart(c, "line_") + [c["line_dram_read_activations"]] + tail(c)),
    ("the same with one price for every row opened",
     lambda c: base(c) + fills_apart(c, "line_") + [c["line_dram_read_activations"] +
                                                    c["line_dram_write_activations"]] + tail(c)),
    ("dram-rows' counts, fills priced apart",
     lambda c: base(c) + fills_apart(c, "") + [c["dram_activations"]] + tail(c)),
    ("read-modify-write rows apart, on the lines' counts",
     lambda c: base(c) + [c["line_dram_reads"], c["line_dram_writes"], other_rows(c, "line_"),
                          c["line_dram_rmw_activations"]] + tail(c)),
    ("read rows, whole-write rows and read-modify-write rows, three prices",
     lambda c: base(c) + [c["dram_reads"], c["dram_writes"], c["dram_read_activations"],
                          c["dram_write_activations"] - c["dram_rmw_activations"],
                          c["dram_rmw_activations"]] + tail(c)),
    ("the same with fills priced apart",
     lambda c: base(c) + fills_apart(c, "") + [c["dram_read_activations"],
                                               c["dram_write_activations"] - c["dram_rmw_activations"],
                                               c["dram_rmw_activations"]] + tail(c)),
    ("rmw-rows", lambda c: base(c) + [c["dram_reads"], c["dram_writes"], other_rows(c, ""),
                                      c["dram_rmw_activations"]] + tail(c)),
]


def fit(rows, times):
    """Non-negative constants minimising the sum of squared relative errors: every subset of the
    counts solved by least squares, the best one with no negative constant kept."""
    a = np.array(rows, float) / np.array(times, float)[:, None]
    ones = np.ones(len(times))
    k = a.shape[1]
    best, best_residual = np.zeros(k), float(ones @ ones)
    for mask in range(1, 1 << k):
        cols = [j for j in range(k) if mask >> j & 1]
        x, *_ = np.linalg.lstsq(a[:, cols], ones, rcond=None)
        if (x < 0).any():
            continue
        residual = float(((a[:, cols] @ x - ones) ** 2).sum())
        if residual < best_residual:
            best_residual, best = residual, np.zeros(k)
            best[cols] = x
    return best


def microbenchmarks(profile):
    """(counts, measured ms) of every microbenchmark the profile records."""
    k = {m["model"]: m["constants"] for m in profile["models"]}["dram-rows"]
    out = []
    for b in profile["microbenchmarks"]:
        c = {name: float(v) for name, v in b["counts"].items()}
        rest = (k["launch_ms"] * c["launches"] + k["l2_sector_ms"] * (c["read_sectors"] + c["write_sectors"]) +
                k["dram_read_ms"] * c["dram_reads"] + k["dram_write_ms"] * c["dram_writes"] +
                k["activation_ms"] * c["dram_activations"] + k["shared_time_unit_ms"] * c["shared_time_units"])
        c["l2_transactions"] = (b["predicted_ms"]["dram-rows"] - rest) / k["l2_line_ms"] if k["l2_line_ms"] else 0
        out.append((c, b["median_ms"]))
    return out


def runs(folder, profile):
    """(counts, measured ms) of every KNI float run measured and held in the counts files."""
    machine = {name: str(v) for name, v in profile["memory"].items() if name in ("cache_bytes", "dram_write_rows")}
    counts = {}
    for name in COUNTS:
        for r in csv.DictReader(open(folder / name)):
            if r["type"] == "float" and all(r[f] == v for f, v in machine.items()):
                counts[(r["algorithm"], r["permutation"], r["n"])] = {
                    f: float(v) for f, v in r.items() if f not in ("algorithm", "permutation", "type", "correct")}
    out = []
    for name in TABLES:
        head = None
        for line in open(folder / name):
            cells = [x.strip() for x in line.strip().strip("|").split("|")]
            if "measured ms" in cells:
                head = {h: i for i, h in enumerate(cells)}
                continue
            if not head or len(cells) != len(head) or cells[head["family"]] not in KNI:
                continue
            key = (cells[head["simulated"]], cells[head["permutation"]], cells[head["n"]])
            if cells[head["type"]] == "float" and key in counts:
                out.append((counts[key], float(cells[head["measured ms"]])))
    return out


def write_random(root):
    for gpu, folder, file in GPUS:
        profile = json.loads((root / folder / file).read_text())
        benches = sorted((b for b in profile["microbenchmarks"] if b["bench"] == "write-random" and
                          b["element_bytes"] == 4), key=lambda b: b["n"])
        if not benches:
            continue
        sizes = ["%d MiB" % (b["n"] * 4 >> 20) for b in benches]
        print("| %s | %s |" % (gpu, " | ".join(sizes)))
        print("|" + "---|" * (len(sizes) + 1))
        for m in profile["models"]:
            ratios = ["%.2fx" % (b["predicted_ms"][m["model"]] / b["median_ms"]) for b in benches]
            print("| %s | %s |" % (m["model"], " | ".join(ratios)))
        print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    parser.add_argument("--write-random", action="store_true",
                        help="print each model's write-random (float) predicted / measured, per GPU and size, "
                        "from the predictions the profiles record")
    args = parser.parse_args()
    if args.write_random:
        return write_random(args.root)
    cells, head = {}, ["candidate"]
    for gpu, folder, file in GPUS:
        profile = json.loads((args.root / folder / file).read_text())
        bench, measured = microbenchmarks(profile), runs(args.root / folder, profile)
        head.append("%s (%d runs)" % (gpu, len(measured)))
        for name, counts in CANDIDATES:
            x = fit([counts(c) for c, _ in bench], [t for _, t in bench])
            errors = [float(np.dot(counts(c), x)) / t - 1 for c, t in measured]
            cells.setdefault(name, []).append(pooled(errors))
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, _ in CANDIDATES:
        print("| " + " | ".join([name] + cells[name]) + " |")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, KeyError, ValueError, json.JSONDecodeError) as e:
        print("model_candidates.py: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        sys.exit(2)
