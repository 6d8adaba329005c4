#!/usr/bin/env python3
"""The tables of docs/prediction.md's "A calibration run again" and "Held out", from committed CSVs.

  compare.py heldout HELDOUT_CSV...
      per GPU and profile: runs, median |error|, worst factor, share inside the interval, the
      median |error| of D- and of S-designated runs, and the median error of the D/S time ratio
  compare.py calibrations OLD_VALIDATE_CSV OLD_MODEL NEW_VALIDATE_CSV NEW_MODEL
      the KNI runs both tables price: the median and worst change of the prediction (each table
      with its model), and each one's median |error|"""
import collections
import csv
import statistics
import sys


def refuse(why):
    print(f"compare.py: {why}", file=sys.stderr)
    sys.exit(2)


def factor(a, b):
    return max(a / b, b / a)


def heldout(files):
    print("| GPU | profile (model) | runs | median abs error | worst factor | inside the interval "
          "| median abs error, D- / S-designated | D/S ratio's error, median |")
    print("|---|---|---|---|---|---|---|---|")
    for path in files:
        rows = list(csv.DictReader(open(path)))
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


def main():
    args = sys.argv[1:]
    if args[:1] == ["heldout"] and len(args) > 1:
        heldout(args[1:])
    elif args[:1] == ["calibrations"] and len(args) == 5:
        calibrations(*args[1:])
    else:
        refuse("usage: compare.py heldout CSV... | compare.py calibrations OLD_CSV OLD_MODEL NEW_CSV NEW_MODEL")


if __name__ == "__main__":
    main()
