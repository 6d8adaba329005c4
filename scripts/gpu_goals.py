#!/usr/bin/env python3
"""The GPU goals of the scale work, cell by cell, from the CSVs `mmsim gpu reproduce` and `mmsim gpu bmmc`
write: usage `scripts/gpu_goals.py DIR` (DIR holds bench.csv and bmmc.csv) prints DIR's goals.md.

Goals (n from 2^24 to 2^28, float and double, random and bit-reversal):
  - the fastest scheduled variant within 3.5x the time of a float4 copy of the same bytes;
  - the fastest scheduled variant faster than both conventional algorithms (D- and S-designated);
  - BMMC bit-reversal (tile-banks-iters) at >= 90 % of the copy at every size from 2^22.
Beside each scheduled cell stands the traffic floor of a scheduled permutation that reads its schedule
from memory: three passes over the data (each reads and writes n elements) and three 16-bit index
arrays, so (3 * 2e + 3 * 2) / (2e) times the copy's bytes for elements of e bytes: 3.75 for float and
3.375 for double. No kernel of that kind can be nearer to the copy than its floor at the copy's own
bandwidth.
"""
import csv
import math
import sys
from pathlib import Path

SCHEDULED = ("scheduled-paper", "scheduled-pipelined", "scheduled-fused")
CONVENTIONAL = ("d-designated", "s-designated")
ELEM = {"float": 4, "double": 8}
COPY_GOAL, BMMC_GOAL = 3.5, 90.0


def floor_ratio(elem_bytes):
    return (3 * 2 * elem_bytes + 3 * 2) / (2 * elem_bytes)


def scheduled_rows(bench):
    ms = {}
    for r in bench:
        if r["correct"] != "yes":
            continue
        ms[(r["type"], int(r["n"]), r["kernel"], r["permutation"])] = float(r["median ms"])
    sizes = sorted({int(r["n"]) for r in bench if int(r["n"]) >= 1 << 24})
    out = []
    for t in ("float", "double"):
        for perm in ("random", "bit-reversal"):
            for n in sizes:
                copy = ms.get((t, n, "copy", "-"))
                if copy is None:  # this type or size did not run
                    continue
                conv = {k: ms.get((t, n, k, perm)) for k in CONVENTIONAL}
                sched = {k: ms[(t, n, k, perm)] for k in SCHEDULED if (t, n, k, perm) in ms}
                row = {"type": t, "perm": perm, "log2n": int(math.log2(n)), "copy": copy, "conv": conv}
                if sched:
                    best = min(sched, key=sched.get)
                    row.update(best=best, best_ms=sched[best], ratio=sched[best] / copy)
                    row["copy_goal"] = "held" if row["ratio"] <= COPY_GOAL else "missed"
                    if all(conv.values()):
                        row["conv_goal"] = "held" if sched[best] < min(conv.values()) else "missed"
                    else:
                        row["conv_goal"] = "not run"
                else:
                    row.update(best=None, copy_goal="not run", conv_goal="not run")
                out.append(row)
    return out


def bmmc_rows(bmmc):
    out = []
    for r in bmmc:
        if r["permutation"] == "bit-reversal" and r["kernel"] == "tile-banks-iters" and int(r["log2_n"]) >= 22:
            pct = float(r["copy_over_time_pct"])
            out.append({"log2n": int(r["log2_n"]), "ms": float(r["median_ms"]), "copy": float(r["copy_ms"]),
                        "pct": pct, "goal": "held" if pct >= BMMC_GOAL and r["correct"] == "yes" else "missed"})
    return sorted(out, key=lambda r: r["log2n"])


def main():
    if len(sys.argv) != 2:
        print("usage: gpu_goals.py DIR (with bench.csv and bmmc.csv)", file=sys.stderr)
        return 2
    d = Path(sys.argv[1])
    try:
        with open(d / "bench.csv", newline="") as f:
            bench = list(csv.DictReader(f))
        with open(d / "bmmc.csv", newline="") as f:
            bmmc = list(csv.DictReader(f))
    except OSError as e:
        print(f"gpu_goals.py: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    device = bmmc[0]["device"] if bmmc else "?"
    print(f"## GPU goals of the scale work, cell by cell\n\ndevice: {device}  ")
    print("from bench.csv and bmmc.csv of this folder (median times, every output checked cell by cell); "
          "`scripts/gpu_goals.py DIR` writes this page\n")
    print(f"### The scheduled permutation: fastest variant within {COPY_GOAL}x a float4 copy, "
          "and faster than both conventional algorithms\n")
    print("floor: the copy's bytes times (3 passes x 2e + 3 x 2-byte schedule) / 2e for e-byte elements "
          f"({floor_ratio(4):g} for float, {floor_ratio(8):g} for double): a kernel that reads its schedule from "
          "memory cannot come nearer to the copy than this at the copy's bandwidth\n")
    print("| type | permutation | n | copy ms | D-designated ms | S-designated ms | fastest scheduled | ms | x copy "
          "| floor x copy | within 3.5x | faster than both |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = scheduled_rows(bench)
    for r in rows:
        def f(x):
            return "-" if x is None else f"{x:.4g}"
        if r["best"]:
            tail = f"{r['best']} | {r['best_ms']:.4g} | {r['ratio']:.2f} "
        else:
            tail = "not run | - | - "
        print(f"| {r['type']} | {r['perm']} | 2^{r['log2n']} | {f(r['copy'])} | {f(r['conv']['d-designated'])} | "
              f"{f(r['conv']['s-designated'])} | {tail}| {floor_ratio(ELEM[r['type']]):g} | {r['copy_goal']} | "
              f"{r['conv_goal']} |")
    held = sum(r["copy_goal"] == "held" for r in rows), sum(r["conv_goal"] == "held" for r in rows)
    print(f"\nwithin 3.5x: held in {held[0]} of {len(rows)} cells; faster than both conventional: held in "
          f"{held[1]} of {len(rows)}\n")
    print(f"### BMMC bit-reversal (tile-banks-iters) at >= {BMMC_GOAL:g} % of the copy from 2^22\n")
    print("| n | ms | copy ms | % of copy | goal |")
    print("|---|---|---|---|---|")
    brows = bmmc_rows(bmmc)
    for r in brows:
        print(f"| 2^{r['log2n']} | {r['ms']:.4g} | {r['copy']:.4g} | {r['pct']:.1f} | {r['goal']} |")
    print(f"\nheld at {sum(r['goal'] == 'held' for r in brows)} of {len(brows)} sizes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
