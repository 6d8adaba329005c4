#!/usr/bin/env python3
"""Property test of the surfaces that read a user's files and texts and write where a user says: GPU
profiles, counts files, sweep grids, output paths, kernel files and layouts (`--layout` texts of
`layout`, `access` and `congestion`), each drawn at random from hostile pieces (control bytes,
escapes, bytes that are not UTF-8, names of hundreds of bytes, '../' in names, symbolic links planted
beside an output, numbers such as 1e308). Whatever the input, mmsim either does the work (status 0)
or refuses it (status 2) with at most one line on stderr; that line holds no control byte, is valid
UTF-8, and echoes no more than 80 characters of any text the user gave; no link's target is ever
written.

usage: cli_hostile_inputs.py MMSIM REPO_ROOT [SEED] [CASES]   (MMSIM_PROPERTY_SEED / _LINES override)
"""
import json
import os
import random
import subprocess
import sys
import tempfile

TIMEOUT_S = int(os.environ.get("MMSIM_PROPERTY_TIMEOUT", "60"))
ECHO_LIMIT = 80

PIECES = ["\x1b[31m", "\n", "\r", "\t", "\x00", "\x07", "\x7f", "\xff", "\xc3", "\xed\xa0\x80", "é", "../",
          "/../../", "%26", "&", "'", '"', "$(true)", ",", ";", "*", "-", "nan", "inf", "1e308"]


def hostile_text(rng, longest=3000):
    """A string of hostile pieces and long runs of one letter (so that an echo is easy to find)."""
    out = []
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.4:
            out.append(rng.choice("QZXKW") * rng.choice([1, 30, 90, 300, longest]))
        else:
            out.append(rng.choice(PIECES))
    return "".join(out)


def as_bytes(text):
    # Lone bytes above 0x7f in PIECES are meant as raw bytes (latin-1), the rest as UTF-8.
    return text.encode("utf-8", "surrogateescape") if all(ord(c) < 0x80 or c == "é" for c in text) else \
        text.encode("latin-1", "replace")


def echoed_too_much(stderr, texts):
    """True when stderr holds more than ECHO_LIMIT consecutive bytes of one of `texts`."""
    for t in texts:
        b = as_bytes(t) if isinstance(t, str) else t
        for i in range(0, max(0, len(b) - ECHO_LIMIT), 7):
            if b[i:i + ECHO_LIMIT + 1] in stderr:
                return True
    return False


def broken_promises(status, err, allowed, texts):
    """What a run with this status and stderr broke of the promise: status in `allowed`, at most one
    line on stderr, no control byte, valid UTF-8, no more than ECHO_LIMIT characters of `texts`."""
    why = []
    if status not in allowed:
        why.append(f"status {status}, wanted one of {allowed}")
    if err.count(10) > 1 or (err and not err.endswith(b"\n")):
        why.append(f"{err.count(10)} lines on stderr")
    if any(b < 0x20 and b != 0x0a for b in err) or 0x7f in err:
        why.append("a control byte on stderr")
    try:
        err.decode("utf-8")
    except UnicodeDecodeError:
        why.append("stderr is not UTF-8")
    if echoed_too_much(err, texts):
        why.append(f"more than {ECHO_LIMIT} characters of the user's text echoed")
    return why


class Case:
    def __init__(self, what, args, texts, allowed=(0, 2)):
        self.what, self.args, self.texts, self.allowed = what, args, texts, allowed


def profile_case(rng, tmp, base_profile, k):
    p = json.loads(json.dumps(base_profile))
    texts = []
    choice = rng.randrange(6)
    if choice == 0:
        p["device"] = hostile_text(rng)
        texts.append(p["device"])
    elif choice == 1:
        p["models"][0]["model"] = hostile_text(rng)
        texts.append(p["models"][0]["model"])
    elif choice == 2:
        p["models"][0]["prices"][0]["ms"] = rng.choice([1e308, -1.0, 1e300, 5e9, 0.0])
    elif choice == 3:
        p["models"][0]["prices"][0]["count"] = hostile_text(rng)
        texts.append(p["models"][0]["prices"][0]["count"])
    elif choice == 4:
        p["gpu"]["name"] = hostile_text(rng)
    text = json.dumps(p, ensure_ascii=False)
    if choice == 5:  # raw bytes where JSON wants text
        text = text.replace('"h100"', '"' + hostile_text(rng, 200).replace('"', "").replace("\\", "") + '"', 1)
    path = os.path.join(tmp, f"profile{k}.json")
    with open(path, "wb") as f:
        f.write(as_bytes(text))
    return Case("profile", ["predict", "d-designated", "--perm", "random", "-n", "4096", "--profile", path], texts)


def counts_case(rng, tmp, counts_text, profile, k):
    lines = counts_text.splitlines()
    texts = []
    row = lines[1].split(",")
    field = rng.randrange(len(row))
    row[field] = hostile_text(rng).replace(",", "")
    texts.append(row[field])
    if rng.random() < 0.3:
        header = lines[0].split(",")
        header[rng.randrange(len(header))] = hostile_text(rng, 300).replace(",", "")
        lines[0] = ",".join(header)
        texts.append(lines[0])
    lines[1] = ",".join(row)
    path = os.path.join(tmp, f"counts{k}.csv")
    with open(path, "wb") as f:
        f.write(as_bytes("\n".join(lines) + "\n"))
    return Case("counts", ["validate", "--profile", profile, "--families", "kni", "--counts", path, "--counts-only",
                           "--measured", os.path.join(tmp, "measured")], texts, allowed=(0, 1, 2))


def grid_case(rng, tmp, k):
    texts = []
    run = {"algorithm": "d-designated", "parameters": {"n": [64], "perm": "identical"}}
    choice = rng.randrange(5)
    if choice == 0:
        run["algorithm"] = hostile_text(rng)
        texts.append(run["algorithm"])
    elif choice == 1:
        key = hostile_text(rng)
        run["parameters"][key] = [1]
        texts.append(key)
    elif choice == 2:
        run["parameters"]["perm"] = hostile_text(rng)
        texts.append(run["parameters"]["perm"])
    elif choice == 3:
        key = hostile_text(rng)
        run[key] = 1
        texts.append(key)
    grid = {"runs": [run]}
    if choice == 4:
        grid[hostile_text(rng)] = 1
        texts.extend(k for k in grid if k != "runs")
    path = os.path.join(tmp, f"grid{k}.json")
    with open(path, "wb") as f:
        f.write(as_bytes(json.dumps(grid, ensure_ascii=False)))
    return Case("grid", ["sweep", path, "-o", os.path.join(tmp, f"out{k}.csv")], texts)


def output_case(rng, tmp, k):
    folder = os.path.join(tmp, f"o{k}")
    os.makedirs(folder, exist_ok=True)
    choice = rng.randrange(5)
    if choice == 0:  # a name up to and past the 255 bytes a file system takes
        name = "n" * rng.choice([1, 200, 241, 250, 255, 256, 300, 5000])
    elif choice == 1:
        name = hostile_text(rng, 200).replace("/", "_").replace("\x00", "_") or "x"
    elif choice == 2:
        name = "/".join(["d" * 10, hostile_text(rng, 100).replace("\x00", "_")])
    else:
        name = "o.csv"
    path = os.path.join(folder, name)
    if choice in (3, 4):  # links planted beside a sweep's output, at the names the user never gave
        target = os.path.join(tmp, f"target{k}")
        with open(target, "w") as f:
            f.write("kept\n")
        os.symlink(target, os.path.join(folder, "o.json" if choice == 3 else "o.csv.partial"))
        grid = os.path.join(tmp, f"grid-ok{k}.json")
        with open(grid, "w") as f:
            json.dump({"runs": [{"algorithm": "d-designated", "parameters": {"n": [64], "perm": "identical"}}]}, f)
        return Case("beside", ["sweep", grid, "-o", path], [], allowed=(2,)), target
    if rng.random() < 0.5:
        return Case("output", ["run", "d-designated", "--perm", "identical", "-n", "64", "--trace", path],
                    [name]), None
    return Case("output", ["schedule", "--perm", "random", "-n", "256", "-w", "4", "-o", path], [name]), None

HOSTILE_NUMBERS = [0, -1, 1, 3, 31, 33, 255, 2 ** 31, 2 ** 32, 2 ** 63, 2 ** 64, -(2 ** 63), 1.5, -0.0, 1e308]
EXPRESSION_PIECES = ["t", "i", "j", "w", "p", "index", "r0", "(", ")", "*", "+", "-", "/", "%", "<<", ">>", "^",
                     "?", ":", "_", "min(", "max(", "0", "1", "4096", "99999999999999999999", ",", " "]


def mutate_json(rng, value, texts, depth=0):
    """`value` with one node replaced, removed or added, picked at random down the tree."""
    if isinstance(value, dict) and value and rng.random() < 0.75:
        key = rng.choice(list(value))
        action = rng.randrange(6)
        if action == 0:
            del value[key]
        elif action == 1:
            extra = hostile_text(rng, 300)
            value[extra] = 1
            texts.append(extra)
        else:
            value[key] = mutate_json(rng, value[key], texts, depth + 1)
        return value
    if isinstance(value, list) and value and rng.random() < 0.75:
        i = rng.randrange(len(value))
        if rng.random() < 0.2:
            value.append(value[i])
        else:
            value[i] = mutate_json(rng, value[i], texts, depth + 1)
        return value
    choice = rng.randrange(6)
    if choice == 0:
        text = hostile_text(rng)
        texts.append(text)
        return text
    if choice == 1:
        return rng.choice(HOSTILE_NUMBERS)
    if choice == 2:  # an address expression, well formed or not
        text = "".join(rng.choice(EXPRESSION_PIECES) for _ in range(rng.randint(1, 12)))
        return "(" * rng.choice([0, 0, 300]) + text
    if choice == 3:
        return rng.choice([None, True, [], {}, [[[]]], "t"])
    if choice == 4 and isinstance(value, int) and not isinstance(value, bool):
        return value * rng.choice([2, 64, 2 ** 20]) + rng.choice([-1, 0, 1])
    return value


def kernel_case(rng, tmp, kernels, k):
    name, text = rng.choice(kernels)
    texts = []
    if rng.random() < 0.15:  # bytes cut short or spoiled where JSON is expected
        raw = text.encode("utf-8")
        cut = rng.randrange(len(raw))
        raw = raw[:cut] + (as_bytes(hostile_text(rng, 200)) if rng.random() < 0.5 else b"")
    else:
        value = json.loads(text)
        for _ in range(rng.randint(1, 3)):
            value = mutate_json(rng, value, texts)
        raw = as_bytes(json.dumps(value, ensure_ascii=False))
    path = os.path.join(tmp, f"kernel{k}.json")
    with open(path, "wb") as f:
        f.write(raw)
    command = rng.choice([["run", "--kernel", path], ["run", "--kernel", path, "--json", "--arrays"],
                          ["trace", "--kernel", path, "-o", os.path.join(tmp, f"kt{k}.svg")]])
    return Case(f"kernel {name}", command, texts)


LAYOUTS = ["raw", "ras", "rap", "pad", "xor", "i*(w+1) + j", "(i + j) % w + w*i", "Swizzle<1,0,2> o (4,4):(4,1)",
           "(4,4):(4,1)", "((2,2),(2,2)):((1,4),(2,8))", "f2:1,2,4,8", "f2:4,8,1,2"]
LAYOUT_PIECES = ["(", ")", ",", ":", "<", ">", " o ", "Swizzle", "f2:", "i", "j", "w", "*", "+", "-", "/", "%",
                 "^", "<<", "0", "1", "2", "4", "-1", "99999999999999999999", "4294967296", " ", "_"]


def layout_case(rng, tmp, k):
    text = rng.choice(LAYOUTS)
    for _ in range(rng.randint(0, 4)):
        at = rng.randrange(len(text) + 1)
        action = rng.randrange(4)
        if action == 0:
            text = text[:at] + rng.choice(LAYOUT_PIECES) + text[at:]
        elif action == 1:
            text = text[:at] + text[at + rng.randint(1, 4):]
        elif action == 2:
            text = text[:at] + rng.choice(PIECES) + text[at:]
        else:
            text = text[:at] + rng.choice(LAYOUT_PIECES) * rng.choice([2, 50, 2000]) + text[at:]
    text = text.replace("\x00", "_")  # a command line cannot hold a NUL
    w = rng.choice(["4", "4", "8", "3", "32"])
    command = rng.choice([["layout", "--layout", text, "-w", w],
                          ["access", "--layout", text, "-w", w, "--cell", "t, t"],
                          ["congestion", "--layout", text, "--pattern", "random", "-w", w, "--trials", "20"]])
    return Case("layout", command, [text])


def main():
    mmsim, root = sys.argv[1], sys.argv[2]
    seed = int(os.environ.get("MMSIM_PROPERTY_SEED", sys.argv[3] if len(sys.argv) > 3 else "1"))
    cases = int(os.environ.get("MMSIM_PROPERTY_LINES", sys.argv[4] if len(sys.argv) > 4 else "240"))
    rng = random.Random(seed)
    with open(os.path.join(root, "results/gpu-h100/profile-h100.json")) as f:
        base_profile = json.load(f)
    with open(os.path.join(root, "results/gpu-h100/counts-n67108864.csv")) as f:
        counts_text = f.read()
    kernels = []
    for name in sorted(os.listdir(os.path.join(root, "examples/kernels"))):
        if name.endswith(".json"):
            with open(os.path.join(root, "examples/kernels", name), encoding="utf-8") as f:
                kernels.append((name, f.read()))
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        # The measured table of one family, copied, so that a counts-only validation is quick.
        os.makedirs(os.path.join(tmp, "measured"))
        with open(os.path.join(root, "results/gpu-h100/kasagi-t2.csv"), "rb") as f:
            kasagi = f.read()
        with open(os.path.join(tmp, "measured", "kasagi-t2.csv"), "wb") as f:
            f.write(kasagi)
        profile = os.path.join(root, "results/gpu-h100/profile-h100.json")
        for k in range(cases):
            kind = k % 6
            target = None
            if kind == 4:
                case = kernel_case(rng, tmp, kernels, k)
            elif kind == 5:
                case = layout_case(rng, tmp, k)
            elif kind == 0:
                case = profile_case(rng, tmp, base_profile, k)
            elif kind == 1:
                case = counts_case(rng, tmp, counts_text, profile, k)
            elif kind == 2:
                case = grid_case(rng, tmp, k)
            else:
                case, target = output_case(rng, tmp, k)
            try:
                p = subprocess.run([mmsim] + case.args, capture_output=True, timeout=TIMEOUT_S, cwd=tmp, check=False)
            except subprocess.TimeoutExpired:
                failures.append(f"{case.what} #{k}: still running after {TIMEOUT_S} s")
                continue
            err = p.stderr
            why = broken_promises(p.returncode, err, case.allowed, case.texts)
            if target is not None:
                with open(target) as f:
                    if f.read() != "kept\n":
                        why.append("a link's target was written")
            if why:
                failures.append(f"{case.what} #{k} (mmsim {' '.join(a[:60] for a in case.args)[:300]!r}): "
                                f"{'; '.join(why)}; stderr {err[:300]!r}")
    return report(failures, f"hostile inputs: {cases} cases (seed {seed}), {len(failures)} failures")


def report(failures, summary):
    """Prints each failure and the summary line; the exit status."""
    for f in failures:
        print("FAIL:", f)
    print(summary)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
