#!/usr/bin/env python3
"""docs/prediction.md's table of the A-S runs priced with the instruction term, from committed CSVs.

  compare.py as GPU_DIR...
      per GPU folder (its validate.csv and as-gpu.csv) and setting: runs, median |error| and worst
      factor of the chosen model's A-S predictions; the launches of many split by the warps each SM
      holds (ceil(instances / SMs)), since with few warps the copies in and out of global memory
      dominate the launch. A folder without instructions.csv whose A-S rows were priced with the
      instruction term (`mmsim validate --instructions-from` another GPU's folder) is labelled so
  compare.py fit GPU_DIR...
      per GPU folder: the instruction term's fit and the copy term's as its validate-summary.md's
      header gives them (`mmsim validate` writes them), one row per GPU ("none" where the folder
      has no copy microbenchmarks; a folder without instructions.csv is labelled as priced with
      another GPU's microbenchmarks)"""
import csv
import math
import os
import re
import statistics
import sys


def refuse(why):
    print(f"compare.py: {why}", file=sys.stderr)
    sys.exit(2)


def chosen_model(gpu_dir):
    import json
    profiles = [f for f in os.listdir(gpu_dir) if f.startswith("profile-") and f.endswith(".json")]
    if len(profiles) != 1:
        refuse(f"{gpu_dir}: expected one profile-*.json")
    p = json.load(open(os.path.join(gpu_dir, profiles[0])))
    return p["model_choice"]["chosen"], p["gpu"]["sm_count"]


def as_table(dirs):
    for d in dirs:
        for f in ("validate.csv", "as-gpu.csv"):
            if not os.path.exists(os.path.join(d, f)):
                refuse(f"{d} has no {f}")
    print("| GPU | A-S runs | runs | median abs error | worst factor |")
    print("|---|---|---|---|---|")
    for d in dirs:
        model, sms = chosen_model(d)
        column = model.replace("-", "_") + "_error"
        instances = {}
        for r in csv.DictReader(open(os.path.join(d, "as-gpu.csv"))):
            instances[(r["algorithm"], int(r["w"]) * int(r["m"]))] = int(r["instances"])
        borrowed = not os.path.exists(os.path.join(d, "instructions.csv"))
        groups = {"one alone": [], "a launch of many, 16 to 32 warps per SM": [],
                  "a launch of many, 1 to 15 warps per SM": []}
        for r in csv.DictReader(open(os.path.join(d, "validate.csv"))):
            if not r["family"].startswith("A-S"):
                continue
            if not r.get("interval_factor"):  # written only for the rows the instruction term priced
                refuse(f"{d}: its A-S rows were not priced with the instruction term")
            e = float(r[column])
            if r["family"] == "A-S, one alone":
                groups["one alone"].append(e)
                continue
            warps = math.ceil(instances[(r["kernel"], int(r["n"]))] / sms)
            groups["a launch of many, " + ("16 to 32" if warps >= 16 else "1 to 15") + " warps per SM"].append(e)
        gpu = os.path.basename(os.path.normpath(d)).replace("gpu-", "").upper()
        source = ", another GPU's microbenchmarks" if borrowed else ""
        for name, es in groups.items():
            if not es:
                continue
            worst = max(max(1 + e, 1 / (1 + e)) for e in es)
            print(f"| {gpu} ({model}{source}) | {name} | {len(es)} | {statistics.median(abs(e) for e in es):.3f} | {worst:.2f}x |")


SETTING = (r"(\w+), ([\d.e+-]+) cycles per warp instruction, ([\d.e+-]+) per shared access, ([\d.e+-]+) per "
           r"extra slot \((\d+) microbenchmarks: median error ([\d.]+) fitted, ([\d.]+) held out, worst ([\d.]+)x\)")


COPY = (r"(\w+), ([\d.e+-]+) cycles \+ rows x \w+\(([\d.e+-]+), warps x ([\d.e+-]+)\) \((\d+) microbenchmarks: "
        r"median error ([\d.]+) fitted, ([\d.]+) held out, worst ([\d.]+)x\)")


def copy_cell(path):
    line = next((l for l in open(path) if l.startswith("copy term")), None)
    if line is None:
        return "none"
    m = re.search(COPY, line)
    if not m:
        refuse(f"{path}: its copy term cannot be read")
    g = m.groups()
    return f"{g[0]}: {g[1]}, {g[2]}, {g[3]}; {g[4]} benches, {g[5]} fitted, {g[6]} held out, worst {g[7]}x"


def fit_table(dirs):
    rows = []
    for d in dirs:
        path = os.path.join(d, "validate-summary.md")
        if not os.path.exists(path):
            refuse(f"{d} has no validate-summary.md")
        line = next((l for l in open(path) if l.startswith("instruction term")), None)
        m = line and re.search("a warp alone " + SETTING + ".*; 32 warps per SM " + SETTING, line)
        if not m:
            refuse(f"{path} gives no instruction term")
        g = m.groups()
        gpu = os.path.basename(os.path.normpath(d)).replace("gpu-", "").upper()
        if not os.path.exists(os.path.join(d, "instructions.csv")):
            gpu += " (another GPU's microbenchmarks)"
        rows.append(f"| {gpu} | {g[0]}: {g[1]}, {g[2]}, {g[3]}; {g[4]} benches, {g[5]} fitted, {g[6]} held out, "
                    f"worst {g[7]}x | {g[8]}: {g[9]}, {g[10]}, {g[11]}; {g[12]} benches, {g[13]}, {g[14]}, {g[15]}x "
                    f"| {copy_cell(path)} |")
    print("| GPU | a warp alone | 32 warps per SM | copies in and out |")
    print("|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("as", "fit"):
        refuse("usage: compare.py as|fit GPU_DIR...")
    (as_table if sys.argv[1] == "as" else fit_table)(sys.argv[2:])
