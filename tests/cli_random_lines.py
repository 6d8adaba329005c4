#!/usr/bin/env python3
"""Property test of the command line: random command lines, drawn from each command's options with
valid and invalid values, each either succeed (status 0) or are refused (status 2) with exactly one
line on stderr and nothing on stdout. Never another status, a crash, a second line or a hang.

Algorithms' options come from `mmsim list --json` (every parameter with its rule); the other
commands' options are listed below. Valid integers are drawn small so that every run is quick; an
"invalid" value may happen to be accepted, which is fine: the property is about how mmsim answers,
not which values it takes.

usage: cli_random_lines.py MMSIM [SEED] [LINES]   (MMSIM_PROPERTY_SEED / _LINES override the defaults)
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

# "Promptly": 60 s a line, enough for the largest run a line can ask for within the bounds (a
# traced as-permute at -m 128 -w 256 writes a 191 MB trace: 13-17 s alone on two cores, over 20 s
# beside the other tests), and still a hang's end; the sanitizer build, which runs the same code
# several times slower, sets MMSIM_PROPERTY_TIMEOUT (tests/CMakeLists.txt).
TIMEOUT_S = int(os.environ.get("MMSIM_PROPERTY_TIMEOUT", "60"))
SMALL = 256  # the largest valid integer drawn (beyond a default), so that every valid run is quick

BAD_INTEGERS = ["", "-1", "-0", "+3", "1.5", "1e3", "0x10", "abc", " 7", "7 ", "18446744073709551616",
                "9223372036854775808", "2147483648", "4294967296", "99999999999999999999999", "--", "\n"]
BAD_WORDS = ["", "nonesuch", "-", "RAW", "a b", "'", "$(true)", "x" * 300, "\t"]


class Values:
    """Draws option values. About half the lines are meant to be valid (every value within its
    rule, every required option given); in the others each value is spoiled with some chance."""

    def __init__(self, rng):
        self.rng = rng
        self.spoiling = False

    def new_line(self):
        self.spoiling = self.rng.random() < 0.5

    def bad(self):
        return self.spoiling and self.rng.random() < 0.3

    def integer(self, lo, hi, default=None, rule=""):
        rng = self.rng
        if self.bad():
            return rng.choice(BAD_INTEGERS + [str(lo - 1), str(hi + 1)])
        top = max(lo, min(hi, SMALL))
        if "power of two" in rule and rng.random() < 0.8:
            powers = [2 ** k for k in range(13) if lo <= 2 ** k <= top]
            if powers:
                return str(rng.choice(powers))
        picks = [lo, min(top, lo + rng.randrange(4)), rng.randint(lo, top)]
        picks += [p for p in (2 ** k for k in range(13)) if lo <= p <= top]
        picks += [s * s for s in range(1, 65) if lo <= s * s <= top]
        if default is not None and lo <= default <= top:
            picks += [default] * 4
        return str(rng.choice(picks))

    def word(self, choices):
        return self.rng.choice(BAD_WORDS) if self.bad() or not choices else self.rng.choice(choices)


class Lines:
    """Draws one command line at a time."""

    def __init__(self, rng, catalogue, tmp):
        self.rng, self.catalogue, self.tmp = rng, catalogue, tmp
        self.v = Values(rng)
        self.algorithms = catalogue["algorithms"]
        self.files = self.make_files()

    def make_files(self):
        f = {}
        for name, text in [("garbage", "not a number\n1 2 3\n"), ("empty", ""), ("perm16", "".join(
                f"{(i * 5) % 16}\n" for i in range(16))), ("grid.json", json.dumps({
                "algorithms": ["d-designated"], "parameters": {"n": [64, 256], "w": [4, 8]}})),
                ("bad-grid.json", "{\"algorithms\": 3}"),
                ("trace.csv", "round,kernel,name,array,op,memory,warp,slot,enter,complete,requests\n"
                              "0,k,r,a,read,global,0,0,0,4,0 1 2 3\n")]:
            path = os.path.join(self.tmp, name)
            with open(path, "w") as out:
                out.write(text)
            f[name] = path
        return f

    def input_file(self):
        return self.rng.choice([self.files["garbage"], self.files["empty"], self.files["perm16"],
                                os.path.join(self.tmp, "missing"), self.tmp, ""])

    def output_file(self, ext):
        if not self.v.spoiling:
            return os.path.join(self.tmp, "out" + ext)
        return self.rng.choice([os.path.join(self.tmp, "out" + ext)] * 4 +
                               ["", self.tmp, os.path.join(self.tmp, "no", "such" + ext),
                                os.path.join(self.files["garbage"], "x" + ext), "/dev/null"])

    def options(self, table, required=()):
        """The required options (on a line meant valid) and a random subset of the others, as
        (flag, value-drawer) pairs, in random order."""
        rng = self.rng
        chosen = [o for o in table if (o[0] in required and not self.v.spoiling) or rng.random() < 0.5]
        rng.shuffle(chosen)
        args = []
        for flag, draw in chosen:
            args.append(flag)
            if draw is not None:
                args.append(draw())
        if self.v.spoiling and rng.random() < 0.1:
            args.append(rng.choice(["--nonesuch", "-Z", "extra", "--json=yes", "-"]))
        return args

    def run_line(self):
        rng = self.rng
        entry = rng.choice(self.algorithms)
        table, required = [], []
        for p in entry["parameters"]:
            flag = rng.choice(p["flags"].split(","))
            if p["required"]:
                required.append(flag)
            if p["type"] == "integer":
                default = int(p["default"]) if p.get("default") not in (None, "") else None
                table.append((flag, lambda p=p, d=default: self.v.integer(p["min"], p["max"], d, p["rule"])))
            elif p["type"] == "choice":
                table.append((flag, lambda p=p: self.v.word(p["choices"])))
            elif p["type"] == "flag":
                table.append((flag, None))
            elif "save" in p["name"]:
                table.append((flag, lambda: self.output_file(".txt")))
            elif self.v.spoiling:  # the input files at hand are mostly not right for the run
                table.append((flag, self.input_file))
        if entry["asynchronous"]:
            table.append(("--async", None))
        if entry["traces"]:
            table.append(("--trace", lambda: self.output_file(".csv")))
        table += [("--threads", lambda: self.v.integer(1, 1024, 2)), ("--json", None)]
        return ["run", entry["name"]] + self.options(table, required)

    def other_line(self):
        rng, c = self.rng, self.catalogue
        names = lambda key: [x["name"] for x in c.get(key, [])]
        w = lambda: self.v.integer(1, 1024, 8)
        seed = lambda: self.v.integer(0, 2 ** 63 - 1, 1)
        layouts = names("layouts") or ["raw", "ras", "rap", "pad", "xor"]
        commands = {
            "access": [("--model", lambda: self.v.word(["dmm", "umm"])), ("-w", w),
                       ("-l", lambda: self.v.integer(1, 64, 5)),
                       ("--warp", lambda: ",".join(rng.choice(["0", "1", "5", "_", "x", "-1"]) for _ in range(4))),
                       ("--addr", lambda: rng.choice(["t", "t*33", "i+j*w", "t/", "max(t,", "_", "t%0"])),
                       ("--threads", lambda: self.v.integer(1, 4096, 32)),
                       ("--layout", lambda: self.v.word(layouts)), ("--cell", lambda: rng.choice(
                           ["t, t", "i, j", "t", "", "t, t, t, t"])), ("--seed", seed), ("--json", None)],
            "layout": [("--layout", lambda: self.v.word(layouts)), ("-w", w),
                       ("--dims", lambda: rng.choice(["2", "4", "3", ""])),
                       ("--slice", lambda: rng.choice(["0,0", "1,2", "9,9", "x", ""])), ("--seed", seed),
                       ("--color", lambda: self.v.word(["auto", "always", "never"])),
                       ("--svg", lambda: self.output_file(".svg")), ("--json", None)],
            "table": [("--format", lambda: self.v.word(["md", "csv", "json"])),
                      ("-n", lambda: self.v.integer(1, 1 << 24, 1024)), ("-w", w),
                      ("-l", lambda: self.v.integer(1, 1 << 20, 1)),
                      ("-L", lambda: self.v.integer(1, 1 << 20, 100)),
                      ("-k", lambda: self.v.integer(1, 4096, 2)),
                      ("--trials", lambda: self.v.integer(1, 1000, 100)), ("--seed", seed)],
            "congestion": [("--layout", lambda: self.v.word(layouts)),
                           ("--pattern", lambda: self.v.word(["contiguous", "stride", "diagonal", "random"])),
                           ("-w", w), ("--dims", lambda: rng.choice(["2", "4", "0", "-2"])),
                           ("--trials", lambda: self.v.integer(1, 2000, 100)), ("--seed", seed),
                           ("--json", None)],
            "schedule": [("--perm", lambda: self.v.word(["random", "identical", "transpose"])),
                         ("--perm-file", self.input_file), ("-n", lambda: self.v.integer(1, 1 << 16, 256)),
                         ("-w", w), ("--seed", seed), ("-o", lambda: self.output_file(".sch"))],
            "bench-schedule": [("--perm", lambda: self.v.word(["random", "identical"])),
                               ("-n", lambda: self.v.integer(1, 1 << 16, 256)), ("-w", w), ("--seed", seed),
                               ("--json", None)],
            "bench": [("-n", lambda: self.v.integer(1, 1 << 14, 1024)),
                      ("--repeats", lambda: self.v.integer(1, 2, 1)), ("--json", None)],
            "trace": [("--svg", lambda: self.output_file(".svg")),
                      ("--width", lambda: self.v.integer(200, 20000, 800)), ("--json", None)],
            "sweep": [("-o", lambda: self.output_file(".csv")), ("--json", None)],
            "list": [("--json", None)],
        }
        command = rng.choice(sorted(commands) + ["table", "figure", "reproduce"])
        if command == "figure":  # refused lines only: a figure takes seconds
            return ["figure", rng.choice(["nonesuch", ""] + names("figures")), "--out",
                    rng.choice(["", os.path.join(self.files["garbage"], "x"), os.path.join(self.tmp, "no", "a")])]
        if command == "reproduce":
            return ["reproduce", "--out", rng.choice(["", self.files["garbage"], os.path.join(self.tmp, "no", "a")])]
        args = [command] + self.options(commands[command])
        if command == "table":
            args.insert(1, rng.choice(["nonesuch"] + [t for t in names("tables") if t in QUICK_TABLES]))
            if rng.random() < 0.9:  # every valid table run small
                args += ["-n", "1024", "--trials", "50"]
        elif command == "trace":
            args.insert(1, rng.choice([self.files["trace.csv"], self.files["garbage"], self.files["empty"]]))
        elif command == "sweep":
            args.insert(1, rng.choice([self.files["grid.json"], self.files["bad-grid.json"], self.files["garbage"]]))
            if "-o" not in args:
                args += ["-o", os.path.join(self.tmp, "sweep.csv")]
        elif command in ("bench", "bench-schedule") and "-n" not in args:
            args += ["-n", "1024"]
        return args

    def draw(self):
        self.v.new_line()
        return self.run_line() if self.rng.random() < 0.6 else self.other_line()


# Tables whose default run, with -n 1024 and --trials 50 where they take them, takes well under a second.
QUICK_TABLES = {"rap-t1", "rap-t2", "rap-t3", "rap-t4", "kasagi-t1", "parm-sort", "bmmc-sizes", "as-bounds",
                "enumeration-bands"}


def check(mmsim, args, tmp):
    t0 = time.monotonic()
    try:
        p = subprocess.run([mmsim] + args, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_S,
                           cwd=tmp)
    except subprocess.TimeoutExpired:
        return None, f"no answer within {TIMEOUT_S} s"
    took = time.monotonic() - t0
    err = p.stderr.decode(errors="replace")
    why = None
    if p.returncode not in (0, 2):
        why = f"exit {p.returncode}, stderr: {err[-500:]!r}"
    elif p.returncode == 2 and p.stdout:
        why = f"exit 2 but stdout has {len(p.stdout)} bytes: {p.stdout[:200]!r}"
    elif p.returncode == 2 and (len(err.splitlines()) != 1 or not err.endswith("\n")):
        why = f"exit 2 but stderr is not one line: {err[:500]!r}"
    elif p.returncode == 2 and not err.startswith("mmsim: "):
        why = f"exit 2 but stderr does not begin 'mmsim: ': {err!r}"
    elif p.returncode == 2 and took > 5:
        why = f"refused only after {took:.1f} s"
    return p.returncode, why


def main():
    mmsim = os.path.abspath(sys.argv[1])
    seed = int(os.environ.get("MMSIM_PROPERTY_SEED", sys.argv[2] if len(sys.argv) > 2 else 20261122))
    count = int(os.environ.get("MMSIM_PROPERTY_LINES", sys.argv[3] if len(sys.argv) > 3 else 300))
    catalogue = json.loads(subprocess.run([mmsim, "list", "--json"], capture_output=True, check=True).stdout)
    rng = random.Random(seed)
    failures = []
    statuses = {}
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        lines = Lines(rng, catalogue, tmp)
        for i in range(count):
            args = lines.draw()
            status, why = check(mmsim, args, tmp)
            statuses[status] = statuses.get(status, 0) + 1
            if why:
                failures.append((i, args, why))
    took = time.monotonic() - t0
    for i, args, why in failures:
        print(f"FAIL line {i}: mmsim {' '.join(repr(a) if (not a or ' ' in a) else a for a in args)}\n  {why}")
    print(f"{count} random command lines, seed {seed}: {statuses.get(0, 0)} ran, {statuses.get(2, 0)} refused, "
          f"{len(failures)} failed, {took:.1f} s")
    if failures:
        print(f"rerun with: {sys.argv[0]} {sys.argv[1]} {seed} {count}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
