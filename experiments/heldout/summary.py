#!/usr/bin/env python3
"""summary.py OUT_DIR DEVICE VERSION PROFILE...: the held-out runs of run.sh, measured beside
predicted, as OUT_DIR/heldout-DEVICE.csv (tidy: one row per run and profile, with the build that
made it) and a summary per profile on standard output: median |predicted / measured - 1|, the
worst factor, and how often the measured time falls inside the printed interval."""
import csv
import glob
import json
import os
import statistics
import sys


def gpu_rows(path):
    """The kernel rows of `mmsim gpu run`'s Markdown table: name -> (median ms, correct)."""
    rows = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] in ("d-designated", "s-designated"):
            rows[cells[0]] = (float(cells[2]), cells[5] == "yes")
    return rows


def main():
    out, device, build, profiles = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
    # `mmsim --version` on one line: "mmsim VERSION commit: COMMIT"
    version = build[1] if len(build) > 1 else ""
    commit = build[build.index("commit:") + 1] if "commit:" in build[:-1] else ""
    records = []
    for md in sorted(glob.glob(f"{out}/gpu/*.md")):
        name = os.path.basename(md)[:-3]
        pattern, n = name.rsplit("-n", 1)
        measured = gpu_rows(md)
        for profile in profiles:
            tag = os.path.basename(profile)[:-5]
            for kernel, (ms, correct) in sorted(measured.items()):
                with open(f"{out}/predict/{tag}.{name}.{kernel}.json") as f:
                    p = json.load(f)
                lo, hi = p["interval_ms"]
                records.append({
                    "device": device, "pattern": pattern, "n": int(n), "type": "float", "kernel": kernel,
                    "measured_ms": ms, "correct": "yes" if correct and p["correct"] else "NO",
                    "profile": os.path.basename(profile), "model": p["model"], "predicted_ms": p["predicted_ms"],
                    "interval_low_ms": lo, "interval_high_ms": hi, "error": p["predicted_ms"] / ms - 1,
                    "inside_interval": "yes" if lo <= ms <= hi else "no", "mmsim_version": version, "mmsim_commit": commit})
    with open(f"{out}/heldout-{device}.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(records[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(records)
    print(f"| GPU | profile | model | runs | median abs error | worst factor | inside the interval |")
    print("|---|---|---|---|---|---|---|")
    for profile in profiles:
        rs = [r for r in records if r["profile"] == os.path.basename(profile)]
        errors = [abs(r["error"]) for r in rs]
        worst = max(max(r["predicted_ms"] / r["measured_ms"], r["measured_ms"] / r["predicted_ms"]) for r in rs)
        inside = sum(r["inside_interval"] == "yes" for r in rs) / len(rs)
        print(f"| {device} | {os.path.basename(profile)} | {rs[0]['model']} | {len(rs)} | "
              f"{statistics.median(errors):.3f} | {worst:.2f}x | {100 * inside:.0f} % |")
    if any(r["correct"] != "yes" for r in records):
        sys.exit("summary.py: some output was WRONG")


if __name__ == "__main__":
    main()
