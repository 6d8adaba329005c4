#!/usr/bin/env python3
"""The tables of docs/prediction.md's "A calibration run again" and "Held out", from committed CSVs.

  compare.py heldout HELDOUT_CSV...
      per GPU and profile: runs, median |error|, worst factor, share inside the interval, the
      median |error| of D- and of S-designated runs, and the median error of the D/S time ratio
  compare.py calibrations OLD_VALIDATE_CSV OLD_MODEL NEW_VALIDATE_CSV NEW_MODEL
      the KNI runs both tables price: the median and worst change of the prediction (each table
      with its model), and each one's median |error|
  compare.py predict-again MMSIM HELDOUT_CSV PERMS_DIR OUT_CSV PROFILE...
      the runs HELDOUT_CSV measured, predicted again from each PROFILE (`mmsim predict --perm-file`
      on PERMS_DIR's files, as run.sh writes them): OUT_CSV has run.sh's columns, one row per run,
      profile (named as given) and model of the profile (`chosen`: yes for the profile's own), and
      the summary of every model is printed (as `models` prints it). No GPU is needed: the measured
      times are HELDOUT_CSV's.
  compare.py models PREDICT_AGAIN_CSV...
      per GPU, profile and model: runs, median |error|, worst factor, share inside the model's own
      interval, and the median |error| of D- and of S-designated runs
  compare.py ds GPU_FOLDER...
      per GPU folder (results/gpu-DEVICE): the measured S-designated / D-designated time, by n, of
      the held-out patterns whose two kernels move the same sectors (heldout-DEVICE.csv) and of the
      KNI tables' identical permutation (validate*.csv)
  compare.py choices PROFILE...
      per profile: its L2, the model its cross-validation chose, that model's held-out median on
      the microbenchmarks beside the other memory models', and its interval"""
import collections
import csv
import json
import os
import statistics
import subprocess
import sys


def refuse(why):
    print(f"compare.py: {why}", file=sys.stderr)
    sys.exit(2)


def rows_of(path):
    """The rows of a CSV file, or a one-line refusal when it cannot be read."""
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        refuse(f"{path}: {e.strerror}")


def factor(a, b):
    return max(a / b, b / a)


def heldout(files):
    print("| GPU | profile (model) | runs | median abs error | worst factor | inside the interval "
          "| median abs error, D- / S-designated | D/S ratio's error, median |")
    print("|---|---|---|---|---|---|---|---|")
    for path in files:
        # A predict-again file holds every model of a profile: the profile's own is its prediction.
        rows = [r for r in csv.DictReader(open(path)) if r.get("chosen", "yes") == "yes"]
        for profile in sorted({r["profile"] for r in rows}):
            rs = [r for r in rows if r["profile"] == profile]
            err = lambda sel: statistics.median(abs(float(r["error"])) for r in sel)
            pairs = collections.defaultdict(dict)
            for r in rs:
                pairs[(r["pattern"], r["n"])][r["kernel"]] = r
            ratio = [abs((float(p["d-designated"]["predicted_ms"]) / float(p["s-designated"]["predicted_ms"])) /
                         (float(p["d-designated"]["measured_ms"]) / float(p["s-designated"]["measured_ms"])) - 1)
                     for p in pairs.values()]
            worst = max(factor(float(r["predicted_ms"]), float(r["measured_ms"])) for r in rs)
            inside = sum(r["inside_interval"] == "yes" for r in rs) / len(rs)
            print(f"| {rs[0]['device']} | {profile} ({rs[0]['model']}) | {len(rs)} | {err(rs):.3f} | {worst:.2f}x | "
                  f"{100 * inside:.0f} % | {err([r for r in rs if r['kernel'] == 'd-designated']):.3f} / "
                  f"{err([r for r in rs if r['kernel'] == 's-designated']):.3f} | {statistics.median(ratio):.3f} |")


def kni(path, model):
    column = model.replace("-", "_") + "_ms"
    out = {}
    for r in csv.DictReader(open(path)):
        if r["family"] in ("conventional", "scheduled", "in-place") and r.get(column):
            out[(r["kernel"], r["permutation"], r["type"], r["n"])] = (float(r[column]), float(r["measured_ms"]))
    if not out:
        refuse(f"{path}: no KNI run priced by {model}")
    return out


def calibrations(old_csv, old_model, new_csv, new_model):
    old, new = kni(old_csv, old_model), kni(new_csv, new_model)
    both = sorted(set(old) & set(new))
    change = [abs(new[k][0] / old[k][0] - 1) for k in both]
    worst = max(factor(new[k][0], old[k][0]) for k in both)
    e_old = statistics.median(abs(old[k][0] / old[k][1] - 1) for k in both)
    e_new = statistics.median(abs(new[k][0] / new[k][1] - 1) for k in both)
    print(f"{len(both)} runs: median change {100 * statistics.median(change):.1f} %, worst {worst:.2f}x; "
          f"median |error| {e_old:.3f} ({old_model}) / {e_new:.3f} ({new_model})")


def predict_again(mmsim, heldout_csv, perms, out_csv, profiles):
    measured = {}
    for r in rows_of(heldout_csv):
        measured.setdefault((r["pattern"], int(r["n"]), r["kernel"]), r)
    if not measured:
        refuse(f"{heldout_csv}: no runs")
    version = subprocess.run([mmsim, "--version"], capture_output=True, text=True, check=True).stdout.split()
    commit = version[version.index("commit:") + 1] if "commit:" in version[:-1] else ""
    records = []
    for profile in profiles:
        # Each model's own interval factor, from the profile's cross-validation.
        try:
            with open(profile) as f:
                factors = {c["model"]: c["interval_factor"] for c in json.load(f)["model_choice"]["models"]}
        except (OSError, ValueError, KeyError) as e:
            refuse(f"{profile}: not a profile with a cross-validated model choice ({e})")
        for (pattern, n, kernel), m in sorted(measured.items()):
            perm = os.path.join(perms, f"{pattern}-n{n}.txt")
            if not os.path.exists(perm):
                refuse(f"{perm} is missing (perms.py writes it)")
            out = subprocess.run([mmsim, "predict", kernel, "--perm-file", perm, "-n", str(n), "--profile", profile,
                                  "--json"], capture_output=True, text=True)
            if out.returncode != 0:
                refuse(f"mmsim predict {kernel} {perm}: {out.stderr.strip()}")
            p = json.loads(out.stdout)
            ms = float(m["measured_ms"])
            for model, predicted in sorted(p["predicted_ms_by_model"].items()):
                lo, hi = predicted / factors[model], predicted * factors[model]
                records.append({
                    "device": m["device"], "pattern": pattern, "n": n, "type": "float", "kernel": kernel,
                    "measured_ms": ms, "correct": "yes" if m["correct"] == "yes" and p["correct"] else "NO",
                    "profile": profile, "model": model, "chosen": "yes" if model == p["model"] else "no",
                    "predicted_ms": predicted, "interval_low_ms": lo, "interval_high_ms": hi,
                    "error": predicted / ms - 1, "inside_interval": "yes" if lo <= ms <= hi else "no",
                    "mmsim_version": version[1] if len(version) > 1 else "", "mmsim_commit": commit})
            print(f"{profile} {pattern} n={n} {kernel}: {p['model']} {p['predicted_ms']:.4f} ms, "
                  f"measured {ms:.4f}", file=sys.stderr, flush=True)
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(records[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(records)
    by_model([out_csv])


def by_model(files):
    print("| GPU | profile | model | chosen | runs | median abs error | worst factor | inside its interval "
          "| median abs error, D- / S-designated |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in files:
        records = rows_of(path)
        if not records or "chosen" not in records[0]:
            refuse(f"{path}: not a file of predict-again (no column chosen)")
        for profile, model in sorted({(r["profile"], r["model"]) for r in records}):
            rs = [r for r in records if r["profile"] == profile and r["model"] == model]
            err = lambda sel: statistics.median(abs(float(r["error"])) for r in sel)
            worst = max(factor(float(r["predicted_ms"]), float(r["measured_ms"])) for r in rs)
            inside = sum(r["inside_interval"] == "yes" for r in rs) / len(rs)
            print(f"| {rs[0]['device']} | {profile} | {model} | {rs[0]['chosen']} | {len(rs)} | {err(rs):.3f} | "
                  f"{worst:.2f}x | {100 * inside:.0f} % | {err([r for r in rs if r['kernel'] == 'd-designated']):.3f} / "
                  f"{err([r for r in rs if r['kernel'] == 's-designated']):.3f} |")


def choices(profiles):
    """Per profile: its simulated L2, the model its cross-validation chose, that model's held-out
    median on the microbenchmarks beside the other memory models' (not papers, nor the chosen one's
    -runs sibling, which has its prices), and its interval."""
    rows = []
    for path in profiles:
        try:
            with open(path) as f:
                profile = json.load(f)
            choice = profile["model_choice"]
            chosen = choice["chosen"]
            held = {m["model"]: m for m in choice["models"]}
            l2 = profile["memory"]["cache_bytes"] / 2**20
        except (OSError, ValueError, KeyError, TypeError) as e:
            refuse(f"{path}: not a profile with a model choice ({e})")
        others = [m["heldout_median_abs_error"] for name, m in held.items()
                  if name not in ("papers", chosen, chosen + "-runs")]
        rows.append(f"| {path} | {l2:g} MiB | {chosen} | {held[chosen]['heldout_median_abs_error']:.3f} "
                    f"({min(others):.3f}-{max(others):.3f}) | x/{held[chosen]['interval_factor']:.2f} |")
    print("| profile | L2 | chosen by the cross-validation | its held-out median on the microbenchmarks "
          "(the other memory models') | interval |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


# The held-out patterns whose D- and S-designated kernels move the same sectors: a warp's
# addresses stay together either way.
TOGETHER = ("reverse", "shift-half", "xor-spread")


def ds_ratio(folders):
    """Per GPU folder: the measured S-designated / D-designated time of the held-out patterns that
    keep a warp's addresses together, and of the KNI tables' identical permutation (float), by n."""
    print("| GPU | permutations | n | S / D measured, min-max |")
    print("|---|---|---|---|")
    for folder in folders:
        gpu = os.path.basename(os.path.normpath(folder)).removeprefix("gpu-")
        groups = collections.defaultdict(lambda: collections.defaultdict(dict))
        for r in rows_of(os.path.join(folder, f"heldout-{gpu}.csv")):
            if r["pattern"] in TOGETHER and r.get("correct", "yes") == "yes":
                groups[f"held out: {', '.join(TOGETHER)}"][(r["pattern"], int(r["n"]))][r["kernel"]] = \
                    float(r["measured_ms"])
        for name in ("validate.csv", "validate-n67108864.csv", "validate-n268435456.csv"):
            for r in rows_of(os.path.join(folder, name)):
                if r["family"] == "conventional" and r["permutation"] == "identical" and r["type"] == "float":
                    groups["KNI identical"][("identical", int(r["n"]))][r["kernel"]] = float(r["measured_ms"])
        for what, pairs in groups.items():
            by_n = collections.defaultdict(list)
            for (_, n), k in pairs.items():
                if "d-designated" in k and "s-designated" in k:
                    by_n[n].append(k["s-designated"] / k["d-designated"])
            for n in sorted(by_n):
                lo, hi = f"{min(by_n[n]):.2f}", f"{max(by_n[n]):.2f}"
                print(f"| {gpu} | {what} | 2^{n.bit_length() - 1} | {lo if lo == hi else lo + '-' + hi} |")


def main():
    args = sys.argv[1:]
    if args[:1] == ["heldout"] and len(args) > 1:
        heldout(args[1:])
    elif args[:1] == ["calibrations"] and len(args) == 5:
        calibrations(*args[1:])
    elif args[:1] == ["predict-again"] and len(args) > 5:
        predict_again(args[1], args[2], args[3], args[4], args[5:])
    elif args[:1] == ["models"] and len(args) > 1:
        by_model(args[1:])
    elif args[:1] == ["choices"] and len(args) > 1:
        choices(args[1:])
    elif args[:1] == ["ds"] and len(args) > 1:
        ds_ratio(args[1:])
    else:
        refuse("usage: compare.py heldout CSV... | compare.py calibrations OLD_CSV OLD_MODEL NEW_CSV NEW_MODEL | "
               "compare.py predict-again MMSIM HELDOUT_CSV PERMS_DIR OUT_CSV PROFILE... | compare.py models CSV... | "
               "compare.py ds GPU_FOLDER... | compare.py choices PROFILE...")


if __name__ == "__main__":
    main()
