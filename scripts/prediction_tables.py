#!/usr/bin/env python3
"""docs/prediction.md's prediction tables, made from the files `mmsim validate` wrote under results/.

  scripts/prediction_tables.py --write docs/prediction.md   replace the tables between their markers
  scripts/prediction_tables.py --check docs/prediction.md   exit 1 when the document's tables differ
  scripts/prediction_tables.py --overall FILE...   the pooled KNI figure of some per-run tables

Three tables: the KNI families (conventional, scheduled, in-place) per GPU and size, from
validate-summary.md (n = 2^20..2^24), validate-n67108864.md and validate-n268435456.md; and every
other family per GPU from validate-summary.md, with parm's from validate-parm.md; and per GPU, the
KNI runs of validate.md, validate-n67108864.md and validate-n268435456.md pooled. Each cell is
median |error|, worst factor. A family
with runs that its counts file lacks (`--counts-only`) reads "simulated of mirrored".
"""
import argparse
import math
import pathlib
import sys

GPUS = [("H100", "results/gpu-h100"), ("H200", "results/gpu-h200")]
KNI = ["conventional", "scheduled", "in-place"]
SIZES = ["validate-summary.md", "validate-n67108864.md", "validate-n268435456.md"]
# A size whose runs were priced by another profile than the others would be labelled here.
NOTE = {}
# The per-run tables pooled per GPU for the overall figure.
OVERALL = ["validate.md", "validate-n67108864.md", "validate-n268435456.md"]


def md_tables(path):
    """Every markdown table of a file, as lists of rows of stripped cells (header first)."""
    tables, current = [], []
    for line in pathlib.Path(path).read_text().splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-") for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def read(path):
    """(summary rows by (family, model), model order, not-in-counts rows per family) of one file."""
    tables = md_tables(path)
    summary, rows = tables[0], tables[1] if len(tables) > 1 else [["family", "simulated"]]
    head = summary[0]
    col = {name: i for i, name in enumerate(head)}
    by, models = {}, []
    for r in summary[1:]:
        model = r[col["cost model"]]
        if model not in models:
            models.append(model)
        by[(r[col["family"]], model)] = r
    missing = {}
    rhead = {name: i for i, name in enumerate(rows[0])}
    for r in rows[1:]:
        if r[rhead["simulated"]] == "not in the counts file":
            missing[r[rhead["family"]]] = missing.get(r[rhead["family"]], 0) + 1
    return by, models, missing, col


def cell(row, col):
    med, worst = float(row[col["median abs error"]]), float(row[col["worst factor"]])
    return "%.2f, %s" % (med, ("%.2fx" if worst < 10 else "%.1fx") % worst)


def power(n):
    return "2^%d" % round(math.log2(int(n)))


def kni_table(root):
    out, models = [], None
    for gpu, folder in GPUS:
        for name in SIZES:
            by, ms, missing, col = read(root / folder / name)
            models = models or ms
            first = True
            for fam in KNI:
                if (fam, models[0]) not in by:
                    continue
                r = by[(fam, models[0])]
                lo, hi = power(r[col["n from"]]), power(r[col["n to"]])
                runs = int(r[col["runs"]])
                count = "%d of %d" % (runs, runs + missing[fam]) if fam in missing else "%d" % runs
                label = "%s, %s%s" % (gpu, lo if lo == hi else lo + ".." + hi, NOTE.get(name, "")) if first else ""
                first = False
                out.append([label, "%s (%s)" % (fam, count)] + [cell(by[(fam, m)], col) for m in models])
    return render(["GPU, n", "family"] + models, out)


def family_table(root):
    out, models = [], None
    for gpu, folder in GPUS:
        by, ms, _, col = read(root / folder / SIZES[0])
        models = models or ms
        first = True
        for fam in dict.fromkeys(f for f, _ in by):
            if fam in KNI:
                continue
            r = by[(fam, models[0])]
            count = "%s; %s" % (r[col["runs"]], r[col["runs the model is known to fail"]])
            out.append([gpu if first else "", "%s (%s)" % (fam, count)] + [cell(by[(fam, m)], col) for m in models])
            first = False
        # parm's network, simulated below 2^20 only (validate --families parm --min-n 4096 --max-n 65536).
        parm = root / folder / "validate-parm.md"
        if parm.exists():
            by, _, _, col = read(parm)
            for fam in dict.fromkeys(f for f, _ in by if f != "all"):
                r = by[(fam, models[0])]
                lo, hi = power(r[col["n from"]]), power(r[col["n to"]])
                count = "%s; %s" % (r[col["runs"]], r[col["runs the model is known to fail"]])
                label = "%s, %s..%s (%s)" % (fam, lo, hi, count)
                out.append([gpu if first else "", label] + [cell(by[(fam, m)], col) for m in models])
                first = False
    return render(["GPU", "family"] + models, out)


def run_errors(paths):
    """{model: [predicted / measured - 1, ...]} over the KNI float runs of per-run validate tables."""
    errors, models = {}, []
    for path in paths:
        for table in md_tables(path):
            head = {name: i for i, name in enumerate(table[0])}
            if "measured ms" not in head:
                continue
            for m in (h[: -len(" error")] for h in table[0] if h.endswith(" error")):
                if m not in models:
                    models.append(m)
            for r in table[1:]:
                if r[head["family"]] not in KNI or r[head["type"]] != "float":
                    continue
                for m in models:
                    cell = r[head[m + " error"]] if m + " error" in head else ""
                    if cell:
                        errors.setdefault(m, []).append(float(cell))
    return errors, models


def pooled(errors):
    """'median |error|, worst factor' of a list of relative errors (predicted / measured - 1)."""
    e = sorted(abs(x) for x in errors)
    h = len(e) // 2
    median = e[h] if len(e) % 2 else (e[h - 1] + e[h]) / 2
    worst = max(max(1 + x, 1 / (1 + x)) for x in errors)
    return "%.3f, %.2fx" % (median, worst)


def overall(errors, model):
    return pooled(errors[model])


def overall_table(root):
    """Per GPU, every KNI float run simulated with its fitted profile (2^20..2^28) pooled."""
    out, models = [], None
    for gpu, folder in GPUS:
        errors, ms = run_errors([root / folder / f for f in OVERALL])
        models = models or ms
        runs = len(errors[models[0]])
        out.append(["%s (%d runs)" % (gpu, runs)] + [overall(errors, m) for m in models])
    return render(["GPU", *models], out)


def render(head, rows):
    head = [h + " (default)" if h == "rmw-rows" else h for h in head]  # mmsim predict's default model
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def between(text, name, body=None):
    """The text between the markers of table `name`, or the text with it replaced by `body`."""
    begin = "<!-- prediction table %s: scripts/prediction_tables.py --write docs/prediction.md -->\n" % name
    end = "<!-- end of prediction table %s -->" % name
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        sys.exit("prediction_tables.py: the markers of table %s are missing" % name)
    i += len(begin)
    return text[i:j] if body is None else text[:i] + body + text[j:]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", metavar="README")
    g.add_argument("--check", metavar="README")
    g.add_argument("--overall", metavar="TABLE", nargs="+",
                   help="print the pooled median and worst factor of the KNI float runs of these per-run "
                   "validate tables (e.g. an earlier validate.md from git) and exit")
    p.add_argument("--root", default=".", help="the repository's root (default: here)")
    a = p.parse_args()
    root = pathlib.Path(a.root)
    if a.overall:
        errors, models = run_errors(a.overall)
        print(render(["runs", *models], [[str(len(errors[models[0]]))] + [overall(errors, m) for m in models]]), end="")
        return 0
    tables = {"kni": kni_table(root), "families": family_table(root), "overall": overall_table(root)}
    path = pathlib.Path(a.write or a.check)
    text = path.read_text()
    if a.write:
        for name, body in tables.items():
            text = between(text, name, body)
        path.write_text(text)
        return 0
    stale = [name for name, body in tables.items() if between(text, name) != body]
    for name in stale:
        print("prediction_tables.py: %s's table %s differs from results/; run --write" % (path, name))
        print(tables[name], end="")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
