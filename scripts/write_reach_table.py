#!/usr/bin/env python3
"""The table of docs/prediction.md "The write-backs' reach, measured", from the refitted profiles.

  scripts/write_reach_table.py [--root DIR]

Reads results/gpu-h100/write-reach/profile-h100-R.json and results/gpu-h200/write-reach/profile-h200-R.json
(written by `mmsim validate --refit --dram-write-rows R ... --out DIR`) and prints one row per GPU and
reach: each model's microbenchmark median and worst |error|, the rows a 128 MiB float copy's
write-backs open, and write-random at 48, 64 and 128 MiB, predicted / measured.
"""
import argparse
import json
import pathlib

GPUS = [("H100", "results/gpu-h100/write-reach", "h100"), ("H200", "results/gpu-h200/write-reach", "h200")]
MIB = 1 << 20


def row(gpu, profile):
    models = {m["model"]: m for m in profile["models"]}
    err = lambda name: "%.2f, %.2f" % (models[name]["microbench_median_abs_error"],
                                       models[name]["microbench_worst_abs_error"])
    floats = [b for b in profile["microbenchmarks"] if b["element_bytes"] == 4]
    copy = next(b for b in floats if b["bench"] == "copy" and b["n"] * 4 == 128 * MIB)
    writes = {b["n"] * 4 // MIB: b for b in floats if b["bench"] == "write-random"}
    ratio = lambda model: ", ".join("%.2fx" % (writes[s]["predicted_ms"][model] / writes[s]["median_ms"])
                                    for s in (48, 64, 128))
    c = copy["counts"]
    return "| %s | %d | %s | %s | %s | %d of %d | %s | %s |" % (
        gpu, profile["memory"]["dram_write_rows"], err("dram-rows"), err("dram-rmw"), err("l2-lines"),
        c["dram_write_activations"], c["dram_writes"], ratio("dram-rows"), ratio("dram-rmw"))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", default=".", help="the repository's root (default: here)")
    root = pathlib.Path(p.parse_args().root)
    print("| GPU | reach (rows) | dram-rows | dram-rmw | l2-lines | copy 128 MiB: rows opened by write-backs "
          "| write-random 48, 64, 128 MiB (dram-rows) | same, dram-rmw |")
    print("|---|---|---|---|---|---|---|---|")
    for gpu, folder, device in GPUS:
        files = sorted((root / folder).glob("profile-%s-*.json" % device),
                       key=lambda f: int(f.stem.rsplit("-", 1)[1]))
        for f in files:
            print(row(gpu, json.loads(f.read_text())))


if __name__ == "__main__":
    main()
