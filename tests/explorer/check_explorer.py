#!/usr/bin/env python3
"""The explorer in a real browser: opens the built page in Debian's headless chromium for every case
below (one browser start, tests/explorer/harness.html walking through them), and compares what the
page shows with `mmsim ... --json` for the same input. Exit 77 (ctest: skipped) when the page was not
built (no emscripten) or there is no chromium.

usage: check_explorer.py MMSIM SITE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "kernels")

# (view, parameters as the URL carries them, named as mmsim access names its options). Access
# cases: KNI Fig. 2 first (the second with the older keys warps= and bytes=, still read).
ACCESS = [
    dict(model="dmm", w="4", l="5", warp="7,5,15,0;10,11,12,9"),
    dict(model="umm", w="4", l="5", warps="7,5,15,0;10,11,12,9"),
    dict(model="dmm", w="32", l="1", addr="t*33", threads="32"),
    dict(model="umm", w="32", l="1", addr="t*33", threads="32"),
    dict(model="dmm", w="8", l="3", addr="(t%w)*w + t/w", threads="64"),
    dict(model="umm", w="8", l="2", addr="t*2", threads="40"),
    dict(model="dmm", w="4", l="2", warp="3,3,_,7;1,_,_,_"),
    dict(model="umm", w="4", l="4", warp="0,1,2,3;4,9,14,19;8,8,8,8"),
    dict(model="dmm", w="8", l="4", layout="xor", cell="t, t"),
    dict(model="dmm", w="8", l="4", layout="rap", cell="t, 3", seed="5"),
    dict(model="dmm", w="16", l="2", layout="pad", cell="t, 0"),
    dict(model="umm", w="8", l="3", layout="ras", cell="t % 4, t % w", seed="2", threads="16"),
    # Real accesses (docs/model.md): a column of doubles, padded and not; a float4 load; atomics on
    # one address; a histogram's increment through a register.
    dict(model="dmm", w="32", l="1", addr="t*33", bytes="8"),
    dict(model="dmm", w="32", l="1", addr="t*32", **{"element-bytes": "8"}),
    dict(model="dmm", w="32", l="2", addr="t*4", vector="4", threads="64"),
    dict(model="dmm", w="8", l="1", addr="0", op="atomic-add"),
    dict(model="umm", w="8", l="1", addr="t%2", op="atomic-add"),
    dict(model="umm", w="8", l="2", addr="t*4", vector="4", threads="16"),
    dict(model="dmm", w="8", l="1", addr="key", reg="key=3,11,3,0,1,3,19,3", op="increment"),
    dict(model="dmm", w="8", l="1", addr="t*2", vector="2", op="write", **{"element-bytes": "2"}),
    # One warp at a long latency: its figures render, the diagram left out (25 million cells).
    dict(model="dmm", w="4", l="5000", warp="1,2,3,4"),
    # The pipeline stepped to a time unit, as the address keeps it.
    dict(model="dmm", w="4", l="5", warp="7,5,15,0;10,11,12,9", time="3"),
]
# The tile view (mmsim access --layout L --cell E --svg F): the layouts people write today, each
# with its banks, congestion and picture equal to the command line's. The SVG is compared byte for
# byte with --svg's file.
SWIZZLE = "Swizzle<3,2,3> o (32,32):(32,1)"
TILES = [
    dict(model="dmm", w="32", l="1", layout=SWIZZLE, cell="t, 0"),
    dict(model="dmm", w="32", l="1", layout=SWIZZLE, cell="0, t"),
    dict(model="dmm", w="32", l="1", layout="Swizzle<5,0,5> o (32,32):(32,1)", cell="t, 7"),
    dict(model="dmm", w="32", l="1", layout="i*w + (j ^ i)", cell="t, 0"),
    dict(model="dmm", w="16", l="2", layout="i*w + (j ^ i)", cell="t % w, t / w", threads="64", **{"tile-warp": "2"}),
    dict(model="dmm", w="32", l="1", layout="f2:1,2,4,8,16,33,66,132,264,528", cell="t, 3"),
    dict(model="dmm", w="8", l="1", layout="f2:1,2,4,9,18,36", cell="t, 0"),
    dict(model="dmm", w="32", l="1", layout="pad", cell="t, 0"),
    dict(model="dmm", w="32", l="1", layout="raw", cell="t, 0"),
    dict(model="dmm", w="16", l="1", layout="i*(w+1) + j", cell="t, t"),
    dict(model="dmm", w="8", l="1", layout="((2,4),8):((8,16),1)", cell="t, 1"),
    dict(model="dmm", w="32", l="1", layout="(32,32):(1,32)", cell="0, t"),
    dict(model="umm", w="32", l="2", layout=SWIZZLE, cell="t, 0"),
    dict(model="dmm", w="32", l="1", layout="pad", cell="t, 0", **{"element-bytes": "8"}),
    dict(model="dmm", w="8", l="3", layout="rap", cell="t % w, t / w", seed="4", threads="16", **{"tile-warp": "1"}),
]
# At w = 32 the page fits 1400 px: the bank grid of every one of these (and of the tiles above).
WIDE = [
    dict(model="dmm", w="32", l="1", addr="t*32", threads="64"),
    dict(model="dmm", w="32", l="2", addr="(t%4)*1000 + t", threads="32"),
    dict(model="umm", w="32", l="1", addr="t*33", threads="64"),
    dict(model="dmm", w="32", l="1", warp=",".join(str(1000 + 31 * k) for k in range(32))),
]
# Links typed by hand: a '+' is a plus (an address expression's), never a space; the parameters
# (view, query as typed, the access's parameters for the command line).
TYPED = [
    ("access", "view=access&w=32&l=1&addr=lane*9+warp&threads=64",
     dict(model="dmm", w="32", l="1", addr="lane*9+warp", threads="64")),
    ("access", "view=access&model=umm&w=8&l=2&addr=t*2+1&threads=16",
     dict(model="umm", w="8", l="2", addr="t*2+1", threads="16")),
    ("layout", "view=layout&w=8&layout=i*(w+1)+j", dict(layout="i*(w+1)+j", w="8", seed="1")),
]
# A view with no parameters (the navigation's links, ?view=access) shows its default figure:
# KNI Fig. 2 on the DMM, 7 time units.
DEFAULTS = [("access", {}, "7")]
LAYOUT = [
    dict(layout="raw", w="4", seed="1"),
    dict(layout=SWIZZLE, w="32", seed="1", show="column", index="5"),
    dict(layout="i*w + (j ^ i)", w="16", seed="1"),
    dict(layout="f2:1,2,4,9,18,36", w="8", seed="1", show="column", index="3"),
    dict(layout="Swizzle<2,0,2> o (8,8):(1,8)", w="8", seed="1"),
    dict(layout="raw", w="8", seed="1", show="column", index="2"),
    dict(layout="ras", w="8", seed="3"),
    dict(layout="rap", w="8", seed="1", show="diagonal", index="1"),
    dict(layout="rap", w="16", seed="7"),
    dict(layout="pad", w="8", seed="1"),
    dict(layout="xor", w="8", seed="1", show="diagonal", index="0"),
    dict(layout="xor", w="12", seed="1"),
    dict(layout="ras", w="32", seed="11"),
    dict(layout="rap", w="64", seed="2", show="column", index="63"),
]
RUN = [
    dict(algo="d-designated", n="256", w="4", k="2", L="10"),
    dict(algo="s-designated", n="256", w="8", k="2", L="20", perm="bit-reversal"),
    dict(algo="transpose", n="256", w="4", k="2", L="8"),
    dict(algo="shuffle", n="1024", w="8", k="4", L="16"),
    dict(algo="bit-reversal", n="256", w="4", l="2", k="3", L="5"),
    dict(algo="row-wise", n="256", w="4", k="2", L="10", seed="3"),
    dict(algo="scheduled", n="256", w="4", k="2", L="10", seed="9"),
    dict(algo="crsw", w="8", layout="rap", seed="4"),
    dict(algo="srcw", w="16", layout="raw", l="3"),
    dict(algo="drdw", w="8", layout="xor"),
    dict(algo="bmmc", n="256", w="4", k="2", L="10", random_bpc="true"),
    dict(algo="transpose-ip-v1", order="32", w="4", k="2", L="10"),
    dict(algo="as-sort", w="8", m="8", seed="2"),
]
# Kernel files (docs/kernel-files.md) dropped on the kernel view, compared with mmsim run --kernel
# FILE --json; the bad ones refused with the command line's line, the file named as given.
KERNELS = ["gather.json", "histogram.json", "transpose_naive.json"]
BAD_KERNELS = [
    ("no-arrays.json", '{"machine": {"model": "hmm", "w": 32}, "arrays": [], "kernels": []}'),
    ("outside.json", '{"machine": {"model": "hmm", "w": 32, "l": 1, "L": 10, "k": 2}, "arrays": [{"name": "a", '
     '"size": 4}], "kernels": [{"name": "k", "blocks": 1, "threads_per_block": 32, "steps": [{"read": "a", '
     '"address": "t"}]}]}'),
    ("cut.json", '{"machine": \n'),
]
# The examples the kernel view offers (kernels.js, from examples/kernels/).
EXAMPLE_KERNELS = ["stencil_2d.json", "transpose_tiled_32x33.json"]
# Trace CSVs written by `mmsim run ... --trace F` and dropped onto the run view.
TRACES = [
    ["transpose", "-n", "256", "-w", "4", "-k", "2", "-L", "8", "--async"],
    ["d-designated", "-n", "64", "-w", "4", "-k", "2", "-L", "10"],
]

# Bad values: the page must say so in #error, never stay blank.
REFUSED = [
    ("access", dict(model="dmm", w="x", l="5", warps="1,2,3,4"), "-w"),
    # A '&' inside a value (%26 in the address) stays in that value: it never sets another parameter.
    ("run", dict(algo="d-designated", n="256", w="4", perm="random&n=64"), "--perm"),
    ("access", dict(model="dmm", w="4", l="5", warps="1,2,3"), "--warp"),
    ("access", dict(model="dmm", w="4", l="5", addr="t*", threads="4"), "--addr"),
    ("access", dict(model="dmm", w="4", l="5", warps="1,2,3,4", seed="3"), "--seed"),
    ("access", dict(model="dmm", w="4", l="5", addr="t", bytes="3"), "--element-bytes"),
    ("access", dict(model="dmm", w="4", l="5", addr="t", vector="3"), "--vector"),
    ("access", dict(model="dmm", w="4", l="5", addr="t", vector="4"), "--vector"),
    ("access", dict(model="dmm", w="4", l="5", addr="t", bytes="8", op="atomic-add"), "--op"),
    ("access", dict(model="dmm", w="4", l="5", addr="t", op="add"), "--op"),
    ("access", dict(model="dmm", w="4", l="5", addr="key", reg="key=1,2"), "--reg"),
    ("access", dict(model="dmm", w="4", l="5", warps="1,2,3,4", reg="key=1,2,3,4"), "--reg"),
    ("layout", dict(layout="nope", w="8", seed="1"), "--layout"),
    # A CuTe shape that is not w x w, a singular F2 matrix: refused with the command line's rule.
    ("access", dict(model="dmm", w="8", l="1", layout="(8,4):(1,8)", cell="t, 0"), "--layout"),
    ("layout", dict(layout="f2:1,2,4,8,16,16", w="8", seed="1"), "--layout"),
    ("access", dict(model="dmm", w="8", l="1", layout="raw", cell="t, 0", **{"tile-warp": "3"}), "--tile-warp"),
    ("access", dict(model="dmm", w="4", l="5", warp="7,5,15,0", time="9"), "time"),
    ("kernel", dict(example="nope.json"), "example"),
    ("layout", dict(layout="raw", w="65"), "-w"),
    ("run", dict(algo="d-designated", n="65536", w="4"), "4096"),
    ("run", dict(algo="d-designated", n="256", w="4", bogus="1"), "bogus"),
    ("nowhere", dict(), "view"),
]


def query(view, params):
    return urllib.parse.urlencode(dict(view=view, **params), safe=",;", quote_via=urllib.parse.quote)


def cli(mmsim, args, cwd=None):
    out = subprocess.run([mmsim] + args, capture_output=True, text=True, check=False, cwd=cwd)
    if out.returncode not in (0, 1):
        raise SystemExit(f"mmsim {' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def access_args(p):
    args = ["access", "--model", p["model"], "-w", p["w"], "-l", p["l"], "--json"]
    if "warps" in p or "warp" in p:
        for warp in p.get("warp", p.get("warps")).split(";"):
            args += ["--warp", warp]
    elif "addr" in p:
        args += ["--addr", p["addr"]]
    else:
        args += ["--layout", p["layout"], "--cell", p["cell"]]
    if "seed" in p:
        args += ["--seed", p["seed"]]
    if "threads" in p:
        args += ["--threads", p["threads"]]
    for key, flag in (("bytes", "--element-bytes"), ("element-bytes", "--element-bytes"), ("vector", "--vector"),
                      ("op", "--op"), ("tile-warp", "--tile-warp")):
        if key in p:
            args += [flag, p[key]]
    for reg in p["reg"].split(";") if "reg" in p else []:
        args += ["--reg", reg]
    return args


def chips(want):
    """The request chips the page should draw for a real access: (title, phase, column) for every
    4-byte word (DMM) or address group (UMM) of every active thread, as mmsim access --json has them."""
    dmm, w = want["model"] == "dmm", want["w"]
    out = []
    for v in want["warps"]:
        for t in v["threads"]:
            if t["address"] is None:
                continue
            words = t["words"] if dmm else t["groups"]
            join = lambda xs: ",".join(map(str, xs))  # noqa: E731
            where = (f"words {join(words)} (banks {join(x % w for x in words)}), phase {t['phase']}, " if dmm else
                     f"groups {join(words)}, ")
            title = (f"thread {t['thread']}, address {t['address']}, bytes {t['bytes'][0]}-{t['bytes'][1]}, {where}"
                     f"slots {join(t['word_slots'])}")
            merged = "" if t["merged_with"] is None else f", merged with T{t['merged_with']}"
            for k, x in enumerate(words):
                part = f", part {k}" if len(words) > 1 else ""
                out.append([title + part + merged, str(t["phase"]) if dmm else None, str(x % w) if dmm else str(x)])
    return sorted(out)


def check_access(mmsim, p, page, fail, tmp):
    want = cli(mmsim, access_args(p))
    got = (page["time-units"], page["warp-slots"], page["warp-congestion"])
    per_warp = [v["congestion"] if p["model"] == "dmm" else v["slots"] for v in want["warps"]]
    expected = (str(want["time_units"]), ",".join(map(str, want["slots"])), ",".join(map(str, per_warp)))
    if got != expected:
        fail(f"page {got}, mmsim access {expected}")
    if "element_bytes" in want:
        phases = [",".join(str(ph["slots"]) for ph in v["phases"]) for v in want["warps"] if "phases" in v]
        if page["phase-slots"] != phases:
            fail(f"slots per phase: page {page['phase-slots']}, mmsim access {phases}")
        if sorted(page["chips"]) != chips(want):
            fail("request chips (thread, bytes, words, banks, phase, slots) differ from mmsim access --json")
    elif any(c[1] is not None for c in page["chips"]) or page["phase-slots"]:
        fail("the papers' access shows phases")
    # Every figure has its SVG download, and each download is an SVG.
    figures = ["access-grid", "pipeline"] + (["tile"] if "layout" in p else [])
    if p["l"] == "5000":
        figures.remove("pipeline")
    if sorted(page["downloads"]) != sorted(figures):
        fail(f"SVG downloads for {page['downloads']}, expected {figures}")
    for fig, svg in page["svgs"].items():
        if not svg["ok"]:
            fail(f"the SVG download of {fig} is not an SVG")
    if "access-grid" in page["svgs"] and not all(c[0].split(",")[1].split()[-1] in page["svgs"]["access-grid"]["text"]
                                                 for c in page["chips"][:50]):
        fail("the access grid's SVG lacks the addresses on the page")
    if page["time-now"] != p.get("time", str(want["time_units"] - 1)):
        fail(f"the pipeline shows time unit {page['time-now']}, the address says {p.get('time', 'the last')}")
    # The warps field is emptied and disabled while an expression poses the access.
    expression = "addr" in p or "cell" in p
    if page["warp"]["disabled"] != expression or (expression and page["warp"]["value"]):
        fail(f"warps field {page['warp']} with {'an expression' if expression else 'warps'}")
    # The tile view: the picture mmsim access --svg writes, byte for byte.
    if "layout" in p:
        svg = os.path.join(tmp, "tile.svg")
        cli(mmsim, access_args(p) + ["--svg", svg])
        with open(svg) as f:
            want_svg = f.read()
        if not page["tile-shown"] or page["svgs"].get("tile", {}).get("text") != want_svg:
            fail("the tile view differs from mmsim access --svg")
    elif page["tile-shown"]:
        fail("a tile view without a layout")
    # w = 32 fits a 1400-px page: nothing sticks out to the right.
    if int(p["w"]) >= 32 and (page["scroll-width"] > page["client-width"] or page["grid-width"] > page["grid-room"]):
        fail(f"the page is {page['scroll-width']} px wide in a {page['client-width']}-px window, its bank grid "
             f"{page['grid-width']} px in {page['grid-room']}")


def check_layout(mmsim, p, page, fail):
    w = int(p["w"])
    if page["downloads"] != ["layout-grid"] or not page["svgs"]["layout-grid"]["ok"]:
        fail(f"SVG downloads for {page['downloads']}, expected the layout's grid")
    want = cli(mmsim, ["layout", "--layout", p["layout"], "-w", p["w"], "--seed", p["seed"], "--json"])
    banks = [str(b) for row in want["banks"] for b in row]
    if page["banks"] != banks:
        fail("banks differ from mmsim layout --json")
    # mmsim layout's table of the worst warps, with the F2 rank's figure beside an F2 layout's.
    f2 = any("f2_rank_congestion" in a for a in want["accesses"])
    table = [[a["access"], f"({a['cells']})", str(a["congestion"]), str(a["wavefronts"]), str(a["slots"])] +
             ([str(a["f2_rank_congestion"]) if a["f2_rank_congestion"] is not None else "-"] if f2 else [])
             for a in want["accesses"]]
    if page["layout-accesses"] != table:
        fail(f"the accesses' table: page {page['layout-accesses']}, mmsim layout {table}")
    # Each warp access of the three transposes (NMI Sect. III), posed by the command line in one
    # call per kind: w warps, warp j (j = t / w) reading row j, column j or diagonal j, thread i of
    # the warp one cell of it.
    cells = {"row": "j, i", "column": "i, j", "diagonal": "i, (i + j) % w"}
    for kind, expr in cells.items():
        a = cli(mmsim, ["access", "--model", "dmm", "-w", p["w"], "-l", "1", "--layout", p["layout"], "--seed", p["seed"],
                        "--cell", expr, "--threads", str(w * w), "--json"])
        expected = ",".join(str(v["congestion"]) for v in a["warps"])
        if page[kind + "-congestion"] != expected:
            fail(f"{kind} congestion: page {page[kind + '-congestion']}, mmsim access {expected}")


def run_args(entry, p, asynchronous):
    flags = {q["name"]: q["flags"].split(",")[0] for q in entry["parameters"]}
    args = ["run", p["algo"], "--json"] + (["--async"] if asynchronous else [])
    for name, value in p.items():
        if name == "algo":
            continue
        args += [flags[name]] if value == "true" else [flags[name], value]
    return args


def check_run(mmsim, p, page, catalogue, fail):
    entry = catalogue[p["algo"]]
    sync = cli(mmsim, run_args(entry, p, False))
    rounds = [[str(r[k]) for k in ("slots", "time_units", "max_congestion", "bank_conflicts")] for r in sync["rounds"]]
    if page["run-time-units"] != str(sync["time_units"]):
        fail(f"time units: page {page['run-time-units']}, mmsim run {sync['time_units']}")
    if page["rounds"] != rounds:
        fail("rounds (slots, time units, max congestion, bank conflicts) differ from mmsim run --json")
    correct = sync["correct"]
    if entry["asynchronous"]:
        asy = cli(mmsim, run_args(entry, p, True))
        correct = correct and asy["correct"]
        if page["run-async-time-units"] != str(asy["time_units"]):
            fail(f"asynchronous time units: page {page['run-async-time-units']}, mmsim run --async {asy['time_units']}")
    if page["run-correct"] != ("correct" if correct else "NOT correct"):
        fail(f"correct: page {page['run-correct']}, mmsim run {correct}")
    # One time axis: the longer run's time units, both pictures as wide in the SVG and on the page.
    axis = max(sync["time_units"], asy["time_units"]) if entry["asynchronous"] else sync["time_units"]
    if page["time-axis"] != str(axis):
        fail(f"time axis of {page['time-axis']} time units, expected {axis}")
    if entry["asynchronous"] and (None in page["traces"] or page["traces"][0] != page["traces"][1]):
        fail(f"the two traces' widths (SVG, page) differ: {page['traces']}")
    want = ["trace-sync"] + (["trace-async"] if entry["asynchronous"] else [])
    if sorted(page["downloads"]) != sorted(want) or not all(svg["ok"] for svg in page["svgs"].values()):
        fail(f"SVG downloads for {page['downloads']}, expected {want}")


def check_kernels(kernels, got, failures):
    """Each dropped kernel file against mmsim run --kernel FILE --json (or its one-line refusal)."""
    for k, page in zip(kernels, got):
        want = k["want"]
        def fail(message, name=k["name"]):
            failures.append(f"dropped kernel {name}: {message}")
        if isinstance(want, str):
            if page["error"] != want.removeprefix("mmsim: "):
                fail(f"page said {page['error']!r}, mmsim said {want!r}")
            continue
        if page["error"]:
            fail("page refused: " + page["error"])
            continue
        cols = ["kernel", "step", "array", "memory", "op", "requests", "warps", "slots", "max_slots_of_a_warp",
                "bank_conflicts", "time_units"]
        steps = [["" if r[c] is None else str(r[c]) for c in cols] for r in want["steps"]]
        got_figures = (page["source"], page["machine"], page["time_units"], page["steps"])
        if got_figures != (want["source"], want["machine"], str(want["time_units"]), steps):
            fail(f"page {got_figures[:3]}, mmsim run --kernel {(want['source'], want['machine'], want['time_units'])}"
                 " (or the steps differ)")
        # The kernel stays in the link: reloading it shows the same run.
        if "kernel=" not in page["url"]:
            fail("the kernel's text is not in the address")


def main():
    mmsim, site = os.path.abspath(sys.argv[1]), sys.argv[2]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not os.path.exists(os.path.join(site, "mmsim.js")):
        print(f"SKIP: the explorer was not built ({site}/mmsim.js missing: install emscripten and node-acorn)")
        return 77
    if not chromium:
        print("SKIP: no chromium to open the explorer in (Debian: apt-get install chromium)")
        return 77
    # (view, parameters, the query the page is opened at)
    cases = [("access", p, query("access", p)) for p in ACCESS + TILES + WIDE]
    cases += [("layout", p, query("layout", p)) for p in LAYOUT]
    cases += [("run", p, query("run", p)) for p in RUN]
    cases += [(view, p, typed) for view, typed, p in TYPED]
    cases += [(view, p, query(view, p)) for view, p, _ in REFUSED]
    cases += [(view, p, query(view, p)) for view, p, _ in DEFAULTS]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in os.listdir(site):
            shutil.copy(os.path.join(site, name), tmp)
        shutil.copy(os.path.join(HERE, "harness.html"), tmp)
        traces = []
        for k, args in enumerate(TRACES):
            csv = os.path.join(tmp, f"trace{k}.csv")
            subprocess.run([mmsim, "run"] + args + ["--trace", csv], capture_output=True, check=True)
            with open(csv) as f:
                traces.append({"name": f"trace{k}.csv", "csv": f.read()})
            traces[-1]["want"] = cli(mmsim, ["trace", csv, "--json"])
        kernels = []
        for name in KERNELS:
            with open(os.path.join(EXAMPLES, name)) as f:
                kernels.append({"name": name, "text": f.read()})
        kernels += [{"name": name, "text": text} for name, text in BAD_KERNELS]
        for k in kernels:  # the command line on the same file, named the same
            with open(os.path.join(tmp, k["name"]), "w") as f:
                f.write(k["text"])
            out = subprocess.run([mmsim, "run", "--kernel", k["name"], "--json"], capture_output=True, text=True,
                                 check=False, cwd=tmp)
            k["want"] = json.loads(out.stdout) if out.returncode == 0 else out.stderr.strip()
        # A kernel in the link itself, as the page writes it after a drop, and the page's examples.
        link = dict(file=kernels[0]["name"], kernel=kernels[0]["text"])
        cases.append(("kernel", link, query("kernel", link)))
        cases += [("kernel", dict(example=name), query("kernel", dict(example=name))) for name in EXAMPLE_KERNELS]
        with open(os.path.join(tmp, "cases.js"), "w") as f:
            f.write("const CASES = " + json.dumps([q for _, _, q in cases]) + ";\n")
            f.write("const TRACES = " + json.dumps([{"name": t["name"], "csv": t["csv"]} for t in traces]) + ";\n")
            f.write("const KERNELS = " + json.dumps([{"name": k["name"], "text": k["text"]} for k in kernels]) + ";\n")
        url = "file://" + os.path.join(tmp, "harness.html")
        # The virtual time budget ends the page's run; it only passes while the page is idle, so a
        # large one costs no real time. --allow-file-access-from-files: the harness reads the frame.
        dom = subprocess.run([chromium, "--headless", "--disable-gpu", "--no-sandbox", "--allow-file-access-from-files",
                              f"--user-data-dir={tmp}/profile", "--virtual-time-budget=100000000", "--dump-dom", url],
                             capture_output=True, text=True, timeout=300, check=False).stdout
        start = dom.find('<pre id="results">')
        if start < 0 or 'data-done="yes"' not in dom:
            print("FAIL: the harness did not finish; chromium's page:\n" + dom[:2000])
            return 1
        import html
        answer = json.loads(html.unescape(dom[start + len('<pre id="results">'):dom.index("</pre>", start)]))
        results = answer["cases"]
        catalogue = {a["name"]: a for a in cli(mmsim, ["list", "--json"])["algorithms"]}
        for (view, p, _), r in zip(cases, results):
            def fail(message, q=r["query"]):
                failures.append(f"{q}: {message}")
            page = r["page"]
            if page is None:
                fail("the page never said it was ready")
                continue
            defaults = [units for v, dp, units in DEFAULTS if v == view and dp == p]
            if defaults:
                if page["error"] or page["time-units"] != defaults[0]:
                    fail(f"the default figure: page said {page['error']!r}, {page['time-units']!r} time units")
                continue
            refused = [why for v, rp, why in REFUSED if v == view and rp == p]
            if refused:
                if not page["error"] or refused[0] not in page["error"]:
                    fail(f"expected a message naming {refused[0]!r}, page said {page['error']!r}")
                elif view in ("access", "layout") and refused[0] not in ("-w", "time"):
                    # The command line refuses the same input with the same line (status 2).
                    args = access_args(p) if view == "access" else ["layout", "--layout", p["layout"], "-w", p["w"],
                                                                    "--seed", p["seed"], "--json"]
                    out = subprocess.run([mmsim] + args, capture_output=True, text=True, check=False)
                    if out.returncode != 2 or out.stderr.strip() != "mmsim: " + page["error"]:
                        fail(f"page said {page['error']!r}, mmsim said {out.stderr.strip()!r} (exit {out.returncode})")
                continue
            if page["error"]:
                fail("page refused: " + page["error"])
            elif view == "access":
                check_access(mmsim, p, page, fail, tmp)
            elif view == "layout":
                check_layout(mmsim, p, page, fail)
            elif view == "run":
                check_run(mmsim, p, page, catalogue, fail)
            elif "example" in p:  # the file of examples/kernels/, named as the page names it
                out = subprocess.run([mmsim, "run", "--kernel", p["example"], "--json"], capture_output=True,
                                     text=True, check=True, cwd=EXAMPLES)
                check_kernels([dict(name=p["example"], want=json.loads(out.stdout))],
                              [dict(page["kernel"], url="kernel=")], failures)
            else:
                check_kernels([kernels[0]], [dict(page["kernel"], url="kernel=")], failures)
        check_kernels(kernels, answer["kernels"], failures)
    # The form, used: an expression typed in --addr empties and disables the warps field, the address
    # written keeps the '+', and the figures are the command line's.
    typed = answer["typed"]
    want = cli(mmsim, ["access", "-w", "32", "-l", "1", "--addr", "lane*9+warp", "--threads", "64", "--json"])
    if not (typed["disabled"] and typed["emptied"] and typed["restored"]) or typed["error"]:
        failures.append(f"the warps field as an expression is typed: {typed}")
    if "addr=lane*9+warp" not in typed["search"] or "warp=" in typed["search"].replace("+warp", ""):
        failures.append(f"the form wrote the address {typed['search']!r}")
    if typed["time_units"] != str(want["time_units"]):
        failures.append(f"typed lane*9+warp: page {typed['time_units']} time units, mmsim access {want['time_units']}")
    for t, got in zip(traces, answer["traces"]):
        want = t["want"]
        expected = (str(want["slots"]), str(want["time_units"]), str(len(want["rounds"])))
        if got["error"] or (got["slots"], got["time_units"], got["rounds"]) != expected:
            failures.append(f"dropped {t['name']}: page {got}, mmsim trace {expected}")
    # KNI Fig. 2, as the issue states it: 7 time units on the DMM, 9 on the UMM.
    if results[0]["page"]["time-units"] != "7" or results[1]["page"]["time-units"] != "9":
        failures.append("KNI Fig. 2: the page does not show 7 (DMM) and 9 (UMM) time units")
    for f in failures:
        print("FAIL:", f)
    compared = len(cases) - len(REFUSED) - len(DEFAULTS)
    print(f"{compared} inputs, {len(traces)} dropped traces and {len(kernels)} dropped kernel files compared with "
          f"mmsim --json, {len(REFUSED)} refusals checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
