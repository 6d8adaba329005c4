#!/usr/bin/env python3
"""Hostile inputs of kinds the other property tests do not draw, one case each: option values with
an ESC, a CR, a TAB or very long UTF-8; numbers written as -0, 0x40, 1e3, 2^64 or in other scripts'
digits; paths with a newline, an empty path, a path through a file, a folder where a file is wanted,
empty files, files of NUL bytes, CRLF line ends, a byte-order mark, JSON nested 500,000 deep,
numbers past a double's range; an option given twice. The promise is cli_hostile_inputs.py's: status
0 (the work is done) or 2 (refused), at most one line on stderr, no control byte on it, valid UTF-8,
no more than 80 characters of any text the user gave; and no file appears outside the path the
user named (each case runs in a fresh folder, which is compared before and after).

usage: cli_hostile_unseen.py MMSIM REPO_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile

from cli_hostile_inputs import ECHO_LIMIT, TIMEOUT_S, broken_promises, report

TRACE_HEADER = "round,kernel,name,array,op,memory,warp,slot,enter,complete,requests"


def files_under(folder):
    out = set()
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            out.add(os.path.relpath(os.path.join(root, name), folder))
    return out


class Case:
    """`args` may hold "{dir}" (the case's folder); `files` are written there first (name -> bytes,
    or None for a folder); `made` are the paths (relative to the folder) the case may create; `links` symbolic links (name ->
    target) made there first."""

    def __init__(self, what, args, allowed=(0, 2), texts=(), files=None, made=(), links=None):
        self.what, self.args, self.allowed = what, args, allowed
        self.texts, self.files, self.made, self.links = list(texts), files or {}, set(made), links or {}


def cases(root):
    long_utf8 = "é" * 5000  # 10,000 bytes of valid UTF-8
    long_name = "\x1b[2J" + "N" * 3000
    grid = b'{"runs": [{"algorithm": "d-designated", "parameters": {"n": [64], "perm": "identical"}}]}'
    run = ["run", "d-designated", "--perm", "identical"]
    profile = os.path.join(root, "results/gpu-h100/profile-h100.json")
    with open(os.path.join(root, "examples/kernels", sorted(
            n for n in os.listdir(os.path.join(root, "examples/kernels")) if n.endswith(".json"))[0]), "rb") as f:
        kernel = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.argv[1]] + run + ["-n", "64", "--trace", os.path.join(tmp, "t.csv")], check=True,
                       capture_output=True)
        with open(os.path.join(tmp, "t.csv"), "rb") as f:
            trace = f.read()
    # Nested arrays just under the 1 MiB that a grid or a kernel file may have: a parser that
    # recurses once per level would overflow its stack here.
    deep = b"[" * 500000 + b"]" * 500000
    return [
        # Option values: control bytes, long UTF-8, numbers in unusual spellings.
        Case("ESC in --perm", run[:2] + ["--perm", "\x1b[2Jrandom", "-n", "64"], (2,), ["\x1b[2Jrandom"]),
        Case("CR in -n", run + ["-n", "64\r"], (2,)),
        Case("TAB before -n's value", run + ["-n", "\t64"], (2,)),
        Case("10 KB of UTF-8 in --perm", run[:2] + ["--perm", long_utf8, "-n", "64"], (2,), [long_utf8]),
        Case("bytes that are not UTF-8 in --perm", run[:2] + ["--perm", b"\xff\xfe\xc3" * 100, "-n", "64"], (2,),
             [b"\xff\xfe\xc3" * 100]),
        Case("-n -0", run + ["-n", "-0"], (2,)),
        Case("-n 0x40", run + ["-n", "0x40"], (2,)),
        Case("-n 1e3", run + ["-n", "1e3"], (2,)),
        Case("-n 64.0", run + ["-n", "64.0"], (2,)),
        Case("-n 2^64", run + ["-n", "18446744073709551616"], (2,)),
        Case("-n in fullwidth digits", run + ["-n", "\uff16\uff14"], (2,)),
        Case("-n in Arabic-Indic digits", run + ["-n", "\u0666\u0664"], (2,)),
        Case("-w -0", run + ["-n", "64", "-w", "-0"], (2,)),
        Case("--seed 2^64", ["run", "d-designated", "--perm", "random", "-n", "64", "--seed",
                             "18446744073709551616"], (2,)),
        Case("--seed -1", ["run", "d-designated", "--perm", "random", "-n", "64", "--seed", "-1"], (2,)),
        Case("-n given twice", run + ["-n", "64", "-n", "128"]),
        Case("--threads -0", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv", "--threads", "-0"], (2,),
             files={"g.json": grid}),
        Case("table -n with a newline", ["table", "kasagi-t1", "-n", "4096\n8192"], (2,)),
        Case("table --trials 1e3", ["table", "rap-t2", "--trials", "1e3"], (2,)),
        Case("access --warp with a CR", ["access", "--model", "dmm", "-w", "4", "--warp", "1,2,3,4\r"], (2,)),
        Case("access --warp 1,,2", ["access", "--model", "dmm", "-w", "4", "--warp", "1,,2,3"], (2,)),
        Case("access --warp of 20,000 numbers", ["access", "--model", "dmm", "-w", "4", "--warp",
                                                 ",".join(["7"] * 20000)], (0, 2), [",".join(["7"] * 200)]),
        Case("layout with a NUL-free ESC run", ["layout", "--layout", "\x1b" * 500, "-w", "4"], (2,)),
        # Paths: a newline in a name, empty, through a file, a folder where a file is wanted.
        Case("--trace named with a newline", run + ["-n", "64", "--trace", "{dir}/a\nb.csv"], (0,),
             made=["a\nb.csv"]),
        Case("--trace ''", run + ["-n", "64", "--trace", ""], (2,)),
        Case("--trace is a folder", run + ["-n", "64", "--trace", "{dir}/d"], (2,), files={"d": None}),
        Case("--trace under a file", run + ["-n", "64", "--trace", "{dir}/f/x.csv"], (2,), files={"f": b"x"}),
        Case("--trace ending in /", run + ["-n", "64", "--trace", "{dir}/t/"], (2,)),
        Case("schedule -o a folder", ["schedule", "--perm", "random", "-n", "256", "-w", "4", "-o", "{dir}/d"],
             (2,), files={"d": None}),
        Case("sweep -o a folder", ["sweep", "{dir}/g.json", "-o", "{dir}/d"], (2,), files={"g.json": grid,
                                                                                     "d": None}),
        Case("sweep -o under a file", ["sweep", "{dir}/g.json", "-o", "{dir}/f/o.csv"], (2,),
             files={"g.json": grid, "f": b"x"}),
        # Input files: empty, folders, NUL bytes, CRLF, a byte-order mark, deep nesting, huge numbers.
        Case("--perm-file empty", ["run", "d-designated", "-n", "4", "--perm-file", "{dir}/p"], (2,),
             files={"p": b""}),
        Case("--perm-file a folder", ["run", "d-designated", "-n", "4", "--perm-file", "{dir}/d"], (2,),
             files={"d": None}),
        Case("--perm-file of NUL bytes", ["run", "d-designated", "-n", "4", "--perm-file", "{dir}/p"], (2,),
             files={"p": b"\0" * 64}),
        Case("--perm-file with CRLF", ["run", "d-designated", "-n", "1024", "--perm-file", "{dir}/p"], (0, 2),
             files={"p": b"".join(b"%d\r\n" % (1023 - i) for i in range(1024))}),
        Case("--perm-file of one huge number", ["run", "d-designated", "-n", "32", "--perm-file", "{dir}/p"], (2,),
             files={"p": b"9" * 5000 + b"\n"}, texts=["9" * 5000]),
        Case("--perm-file named with a newline and an ESC, missing", ["run", "d-designated", "-n", "32",
                                                                      "--perm-file", "{dir}/a\nb\x1b[2J"], (2,)),
        Case("--perm-file a link to itself", ["run", "d-designated", "-n", "32", "--perm-file", "{dir}/loop"], (2,),
             links={"loop": "loop"}),
        Case("--profile named with 5000 bytes", ["predict", "d-designated", "--perm", "random", "-n", "4096",
                                                 "--profile", "{dir}/" + "p\x1b" * 2500], (2,)),
        Case("reproduce --out a file", ["reproduce", "--out", "{dir}/f"], (2,), files={"f": b"x"}),
        Case("sweep -o named with a newline", ["sweep", "{dir}/g.json", "-o", "{dir}/o\n.csv"], (0,),
             files={"g.json": grid}, made=["o\n.csv", "o\n.json"]),
        Case("schedule -o named with 255 bytes", ["schedule", "--perm", "random", "-n", "256", "-w", "4", "-o",
                                                  "{dir}/" + "s" * 255], (0, 2), made=["s" * 255]),
        Case("trace whose times overflow", ["trace", "{dir}/t.csv", "--svg", "{dir}/t.svg"], (0, 2),
             files={"t.csv": (TRACE_HEADER + "\n0,k,r,a,read,global,0,0,9223372036854775708,9223372036854775807,0\n"
                              ).encode()}, made=["t.svg"]),
        Case("trace times past 2^64", ["trace", "{dir}/t.csv"], (2,),
             files={"t.csv": (TRACE_HEADER + "\n0,k,r,a,read,global,0,0,18446744073709551616,"
                              "18446744073709551715,0\n").encode()}),
        Case("trace with a negative time", ["trace", "{dir}/t.csv"], (2,),
             files={"t.csv": (TRACE_HEADER + "\n0,k,r,a,read,global,0,0,-1,98,0\n").encode()}),
        Case("trace with a warp of 2^64", ["trace", "{dir}/t.csv"], (2,),
             files={"t.csv": (TRACE_HEADER + "\n0,k,r,a,read,global,18446744073709551616,0,0,99,0\n").encode()}),
        Case("trace with 100,000 requests in a slot", ["trace", "{dir}/t.csv", "--json"], (0, 2),
             files={"t.csv": (TRACE_HEADER + "\n0,k,r,a,read,global,0,0,0,99," +
                              " ".join(str(i) for i in range(100000)) + "\n").encode()}),
        Case("access -l 2^31", ["access", "--model", "dmm", "-w", "4", "-l", "2147483648", "--warp", "1,2,3,4"],
             (2,)),
        Case("congestion --trials 0", ["congestion", "--layout", "rap", "--pattern", "random", "-w", "4",
                                       "--trials", "0"], (2,)),
        Case("layout f2: of 1000 columns", ["layout", "--layout", "f2:" + "1," * 1000 + "1", "-w", "4"], (2,)),
        Case("trace - of an empty standard input", ["trace", "-"], (2,)),
        Case("table --format CSV", ["table", "kasagi-t1", "--format", "CSV"], (2,)),
        Case("-n ' '", run + ["-n", " "], (2,)),
        Case("-n +64", run + ["-n", "+64"]),
        Case("--trace given twice", run + ["-n", "64", "--trace", "{dir}/x.csv", "--trace", "{dir}/y.csv"],
             made=["x.csv", "y.csv"]),
        Case("trace of an empty file", ["trace", "{dir}/t.csv"], (2,), files={"t.csv": b""}),
        Case("trace of a folder", ["trace", "{dir}/d"], (2,), files={"d": None}),
        Case("trace of its header only", ["trace", "{dir}/t.csv"], (0, 2), files={"t.csv": TRACE_HEADER.encode()
                                                                                   + b"\n"}),
        Case("trace with CRLF line ends", ["trace", "{dir}/t.csv"], (0, 2),
             files={"t.csv": trace.replace(b"\n", b"\r\n")}),
        Case("trace with a NUL inside a line", ["trace", "{dir}/t.csv"], (2,),
             files={"t.csv": trace.replace(b"read", b"re\0ad", 1)}),
        Case("sweep grid empty", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv"], (2,), files={"g.json": b""}),
        Case("sweep grid a folder", ["sweep", "{dir}/g", "-o", "{dir}/o.csv"], (2,), files={"g": None}),
        Case("sweep grid with a byte-order mark", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv"], (0, 2),
             files={"g.json": b"\xef\xbb\xbf" + grid}, made=["o.csv", "o.json"]),
        Case("sweep grid with CRLF", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv"], (0,),
             files={"g.json": grid.replace(b", ", b",\r\n")}, made=["o.csv", "o.json"]),
        Case("sweep grid nested 500,000 deep", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv"], (2,),
             files={"g.json": deep}),
        Case("sweep grid n: [-0.0]", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv"], (2,),
             files={"g.json": grid.replace(b"[64]", b"[-0.0]")}),
        Case("sweep grid n: [1e400]", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv"], (2,),
             files={"g.json": grid.replace(b"[64]", b"[1e400]")}),
        Case("sweep grid with a key twice", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv"], (0, 2),
             files={"g.json": grid.replace(b'"n": [64]', b'"n": [64], "n": [128]')}, made=["o.csv", "o.json"]),
        Case("sweep grid with a NUL escape in a name", ["sweep", "{dir}/g.json", "-o", "{dir}/o.csv"], (2,),
             files={"g.json": grid.replace(b"d-designated", b"d-desig\\u0000nated")}),
        Case("--profile empty", ["predict", "d-designated", "--perm", "random", "-n", "4096", "--profile",
                                 "{dir}/p.json"], (2,), files={"p.json": b""}),
        Case("--profile a folder", ["predict", "d-designated", "--perm", "random", "-n", "4096", "--profile",
                                    "{dir}/d"], (2,), files={"d": None}),
        Case("--profile with a NUL inside", ["predict", "d-designated", "--perm", "random", "-n", "4096",
                                             "--profile", "{dir}/p.json"], (2,),
             files={"p.json": open(profile, "rb").read().replace(b'"device": "', b'"device": "\0', 1)}),
        Case("--kernel with CRLF", ["run", "--kernel", "{dir}/k.json"], (0,),
             files={"k.json": kernel.replace(b"\n", b"\r\n")}),
        Case("--kernel nested 500,000 deep", ["run", "--kernel", "{dir}/k.json"], (2,),
             files={"k.json": b'{"kernels": ' + deep + b"}"}),
        Case("--kernel with 1e400", ["run", "--kernel", "{dir}/k.json"], (2,),
             files={"k.json": b'{"arrays": [{"name": "a", "size": 1e400}], "kernels": []}'}),
        Case("--kernel empty", ["run", "--kernel", "{dir}/k.json"], (2,), files={"k.json": b""}),
        # The engine's message for an address outside its array names the kernel, the step and the
        # array whole: names of 3,000 bytes with an ESC, one address past the end.
        Case("--kernel with long names and an address outside", ["run", "--kernel", "{dir}/k.json"], (2,),
             texts=[long_name], files={"k.json": json.dumps(
                 {"arrays": [{"name": long_name, "size": 32}],
                  "kernels": [{"name": long_name, "threads_per_block": 32,
                               "steps": [{"read": long_name, "address": "t*100", "name": long_name}]}]}).encode()}),
    ]


def main():
    mmsim, root = sys.argv[1], sys.argv[2]
    failures = []
    all_cases = cases(root)
    with tempfile.TemporaryDirectory() as tmp:
        for k, case in enumerate(all_cases):
            folder = os.path.join(tmp, f"c{k}")
            os.makedirs(folder)
            for name, data in case.files.items():
                if data is None:
                    os.makedirs(os.path.join(folder, name))
                else:
                    with open(os.path.join(folder, name), "wb") as f:
                        f.write(data)
            for name, target in case.links.items():
                os.symlink(target, os.path.join(folder, name))
            before = files_under(folder)
            # An argument is text, or bytes where it holds bytes that are not UTF-8.
            args = [a.replace(b"{dir}", folder.encode()) if isinstance(a, bytes) else a.replace("{dir}", folder)
                    for a in case.args]
            try:
                p = subprocess.run([mmsim] + args, capture_output=True, timeout=TIMEOUT_S, cwd=folder, check=False)
            except subprocess.TimeoutExpired:
                failures.append(f"{case.what}: still running after {TIMEOUT_S} s")
                continue
            err = p.stderr
            if os.environ.get("MMSIM_PROPERTY_VERBOSE"):
                print(f"{case.what}: {p.returncode} {err[:150]!r}")
            why = broken_promises(p.returncode, err, case.allowed,
                                  case.texts + [a for a in args if len(a) > ECHO_LIMIT])
            if p.returncode == 2 and p.stdout:
                why.append("a refusal printed on stdout")
            new = files_under(folder) - before - case.made
            if new:
                why.append(f"files outside the named path: {sorted(new)!r}")
            if why:
                failures.append(f"{case.what} (mmsim {' '.join(str(a)[:40] for a in args)[:200]!r}): "
                                f"{'; '.join(why)}; stderr {err[:300]!r}")
    return report(failures, f"hostile inputs not seen before: {len(all_cases)} cases, {len(failures)} failures")


if __name__ == "__main__":
    sys.exit(main())
