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
      another GPU's microbenchmarks)
  compare.py kernels VALIDATE_CSV FAMILY MODEL
      per kernel of one family of a validate.csv (any commit's): runs, median |error| and worst
      factor of MODEL's predictions (dram-rows, rmw-rows, papers), and the family's
  compare.py tiles GPU_DIR
      the tile microbenchmarks (instructions-tiles.csv): in place against out of place, the time of
      a wave of one-load rounds from the DRAM, and the bandwidth of eight loads in flight
  compare.py siblings GPU_DIR GPU_DIR
      two GPUs' A-S kernels (as-gpu.csv): the second's cycles alone and launches of many over the
      first's
  compare.py stream MMSIM GPU_DIR PROFILE
      the stream microbenchmarks (instructions-stream.csv, with Nsight Compute's instructions per
      warp in instructions-stream-ncu.csv), held out from every fit, each written as a kernel file
      that declares those instructions and predicted by `MMSIM predict --kernel` on PROFILE: per
      bench the measured and predicted ms, which part bound, the error and whether the measured ms
      fell inside the prediction's interval; then the median |error| and worst factor, what adding
      the parts instead of taking the larger would have given, and how many fell inside"""
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


def rows_of(path, columns):
    if not os.path.exists(path):
        refuse(f"{path} does not exist")
    rows = list(csv.DictReader(open(path)))
    for c in columns:
        if rows and c not in rows[0]:
            refuse(f"{path} has no column {c}")
    return rows


def summary(errors):
    return f"{statistics.median(abs(e) for e in errors):.3f}, {max(max(1 + e, 1 / (1 + e)) for e in errors):.2f}x"


def kernels_table(args):
    if len(args) != 3:
        refuse("usage: compare.py kernels VALIDATE_CSV FAMILY MODEL")
    path, family, model = args
    column = model.replace("-", "_") + "_error"
    per = {}
    for r in rows_of(path, ("family", "kernel", column)):
        if r["family"] == family and r[column]:
            per.setdefault(r["kernel"], []).append(float(r[column]))
    if not per:
        refuse(f"{path} has no priced run of family {family}")
    print(f"| {family} kernel ({model}) | runs | median abs error, worst factor |")
    print("|---|---|---|")
    for k, es in per.items():
        print(f"| {k} | {len(es)} | {summary(es)} |")
    every = [e for es in per.values() for e in es]
    print(f"| all | {len(every)} | {summary(every)} |")


def tiles_table(args):
    if len(args) != 1:
        refuse("usage: compare.py tiles GPU_DIR")
    path = os.path.join(args[0], "instructions-tiles.csv")
    rows = rows_of(path, ("bench", "blocks", "blocks_per_sm", "loads", "mib", "ms"))
    ms = {r["bench"]: float(r["ms"]) for r in rows}
    by = {r["bench"]: r for r in rows}
    ratios = [ms[b] / ms[b.replace("-in-place", "")] for b in ms if "-in-place" in b and b.replace("-in-place", "") in ms]
    sms = int(re.search(r"(\d+) SMs", open(os.path.join(args[0], "instructions-tiles.md")).read()).group(1))

    def wave_us(bench):
        r = by.get(bench) or refuse(f"{path} has no bench {bench}")
        waves = math.ceil(int(r["blocks"]) / (sms * int(r["blocks_per_sm"])))
        return 1000 * ms[bench] / waves

    big = by.get("tile-k8-b8-m256") or refuse(f"{path} has no bench tile-k8-b8-m256")
    tbps = 2 * (int(big["mib"]) << 20) / (ms["tile-k8-b8-m256"] * 1e-3) / 1e12
    print("| tile benches | value |")
    print("|---|---|")
    print(f"| in place / out of place, {len(ratios)} pairs: median (min-max) | "
          f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) |")
    print(f"| a wave of one-load rounds from the DRAM, one 256-thread block an SM (us) | {wave_us('tile-k1-b1-m256'):.2f} |")
    print(f"| the same, two 1024-thread blocks an SM (us) | {wave_us('tile-k1-b2-m256-t1024'):.2f} |")
    print(f"| eight loads in flight, eight blocks an SM: TB/s in and out | {tbps:.2f} |")


def siblings_table(args):
    if len(args) != 2:
        refuse("usage: compare.py siblings GPU_DIR GPU_DIR")
    cols = ("algorithm", "m", "gpu_cycles_alone", "ms")
    a, b = ({(r["algorithm"], r["m"]): r for r in rows_of(os.path.join(d, "as-gpu.csv"), cols)} for d in args)
    both = [k for k in a if k in b]
    if not both:
        refuse("the two folders share no A-S run")
    names = [os.path.basename(os.path.normpath(d)).replace("gpu-", "").upper() for d in args]
    print(f"| A-S runs, {names[1]} / {names[0]} ({len(both)} runs) | median | min | max |")
    print("|---|---|---|---|")
    for label, col in (("cycles alone", "gpu_cycles_alone"), ("ms of a launch of many", "ms")):
        r = [float(b[k][col]) / float(a[k][col]) for k in both]
        print(f"| {label} | {statistics.median(r):.3f} | {min(r):.3f} | {max(r):.3f} |")


def stream_kernel(n, instructions, stride=0):
    """The stream bench as a kernel file: load x[t] (through the block's shared array and a barrier
    when `stride`, as the CUDA kernel does), the polynomial as a set step declaring the instructions
    Nsight Compute counted besides the memory steps, store y[t]."""
    steps = [{"read": "x", "address": "t", "reg": 0}]
    arrays = [{"name": "x", "size": n, "init": "iota"}, {"name": "y", "size": n}]
    if stride:
        rows = 256 // stride
        arrays.append({"name": "s", "space": "shared", "size": 256})
        steps += [{"write": "s", "address": "local", "reg": 0}, "barrier",
                  {"read": "s", "address": f"(local % {rows}) * {stride} + local / {rows}", "reg": 0}]
    steps += [{"set": 1, "value": "r0", "instructions": instructions}, {"write": "y", "address": "t", "reg": 1}]
    return {"machine": {"model": "hmm", "w": 32}, "arrays": arrays,
            "kernels": [{"name": "stream", "blocks": n // 256, "threads_per_block": 256, "registers": 2,
                         "steps": steps}]}


def stream_table(args):
    import json
    import subprocess
    import tempfile
    if len(args) != 3:
        refuse("usage: compare.py stream MMSIM GPU_DIR PROFILE")
    mmsim, gpu_dir, profile = args
    timed = rows_of(os.path.join(gpu_dir, "instructions-stream.csv"), ("bench", "log2_n", "n", "ms", "correct"))
    counted = {r["bench"]: float(r["warp_instructions_per_warp"]) for r in
               rows_of(os.path.join(gpu_dir, "instructions-stream-ncu.csv"), ("bench", "warp_instructions_per_warp"))}
    print("| bench | warp instructions a warp | measured ms | predicted ms | memory ms | instruction ms | bound | "
          "error | inside the interval | error if added |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    errors, added, by_size, inside = [], [], {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for r in timed:
            if r["correct"] != "yes":
                refuse(f"{r['bench']}: its output was wrong")
            if r["bench"] not in counted:
                refuse(f"{r['bench']} has no count in instructions-stream-ncu.csv")
            per_warp = counted[r["bench"]]
            stride = int(r.get("shared_stride") or 0)
            memory_steps = 4 if stride else 2
            path = os.path.join(tmp, r["bench"] + ".json")
            with open(path, "w") as f:
                json.dump(stream_kernel(int(r["n"]), max(0, round(per_warp) - memory_steps), stride), f)
            out = subprocess.run([mmsim, "predict", "--kernel", path, "--profile", profile, "--json", "--threads", "2"],
                                 check=True, capture_output=True, text=True).stdout
            p = json.loads(out)
            k = p["kernels"][0]
            if k["instruction_ms"] is None:
                refuse(f"{profile} carries no instruction term (mmsim fit-instructions)")
            measured = float(r["ms"])
            e = p["predicted_ms"] / measured - 1
            e_added = (k["launch_ms"] + k["memory_ms"] + k["instruction_ms"]) / measured - 1
            errors.append(e)
            added.append(e_added)
            by_size.setdefault((int(r["log2_n"]), stride), []).append(e)
            bound = "instructions" if k["instruction_ms"] > k["memory_ms"] else "memory"
            low, high = p["interval_ms"]
            inside.append(low <= measured <= high)
            print(f"| {r['bench']} | {per_warp:.1f} | {measured:.4g} | {p['predicted_ms']:.4g} | {k['memory_ms']:.4g} | "
                  f"{k['instruction_ms']:.4g} | {bound} | {e:+.3f} | {'yes' if inside[-1] else 'no'} | "
                  f"{e_added:+.3f} |")
    if not errors:
        refuse(f"{gpu_dir}/instructions-stream.csv has no rows")
    print()
    print("| benches | median abs error, worst factor |")
    print("|---|---|")
    groups = [(f"n = 2^{n}" + (f", through shared memory at stride {st}" if st else ""), v)
              for (n, st), v in sorted(by_size.items())]
    for label, es in groups + [("all", errors), ("all, the parts added", added)]:
        print(f"| {label} ({len(es)}) | {summary(es)} |")
    print(f"| inside the interval | {sum(inside)} of {len(inside)} |")


if __name__ == "__main__":
    commands = {"as": as_table, "fit": fit_table, "kernels": kernels_table, "tiles": tiles_table,
                "siblings": siblings_table, "stream": stream_table}
    if len(sys.argv) < 3 or sys.argv[1] not in commands:
        refuse("usage: compare.py as|fit GPU_DIR... | kernels VALIDATE_CSV FAMILY MODEL | tiles GPU_DIR | "
               "siblings GPU_DIR GPU_DIR | stream MMSIM GPU_DIR PROFILE")
    commands[sys.argv[1]](sys.argv[2:])
