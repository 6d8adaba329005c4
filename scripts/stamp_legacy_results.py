#!/usr/bin/env python3
"""Appends what made them to the GPU tables measured before their writers recorded it.

  scripts/stamp_legacy_results.py [FILE...]   stamp these files (default: every file --list names)
  scripts/stamp_legacy_results.py --list      print the files it knows, one a line, from the root

Every CSV mmsim writes ends its rows with the parameters that made the table and then
`mmsim_version` and `mmsim_commit` (docs/report.md, "The tables' CSV"). The GPU tables listed
below were measured on the GPUs before their writers had those columns, and measuring them again
costs GPU time; their rows are kept as measured and given the columns the writer of today would
append: the same names in the same order, each valued as the code that made the file ran it. Those
values were read from the history, not guessed: the commit that last changed the file's measured
values, that commit's (or its parent's) sources, defaults and constants, and the options that
`./mmsim.sh gpu-reproduce` (or `scripts/traced_examples.sh`) passed then; the device as that run's
own files name it (`device.md`, the `.md` beside the CSV, the progress log). Each entry cites its
source. `mmsim_version` is the project's version then (0.1.0, CMakeLists.txt, the only version the
project has had); `mmsim_commit` is left empty: which commit the GPU's build was made from was not
recorded, and an empty build cell is what the project's readers already take for a row made before
these columns (predict/counts_file.h, CountsRow). A rerun of `./mmsim.sh gpu-reproduce` writes the
files anew, with the build's commit, and they then leave this list (tests/cli_measured.sh).

Only a suffix is added: each record keeps every byte it had and its line ending; the heat maps'
grids get the columns after their last width. A file that ends with the build's columns already,
a file not in the list, a record whose field count differs from the header's, or a parameter that
is a column already is refused with one line and status 2, and then no file is written.
"""
import csv
import os
import signal
import sys

VERSION = "0.1.0"  # CMakeLists.txt, project(mmsim VERSION 0.1.0) at every commit
BUILD = ["mmsim_version", "mmsim_commit"]

# How the code of the time named each GPU: device_info().name (cuda/harness/device.cu), as device.md
# and every table's configuration line print it; the `summary` of device_summary() (as-gpu.md line 3,
# bmmc.md line 3) and the `line` of the enumeration driver's device_line() (enumeration-progress.log
# line 1, enumeration.md line 5), the forms the current writers of those tables put in `device`.
DEVICES = {
    "h100": {
        "name": "NVIDIA H100 80GB HBM3",
        "summary": "NVIDIA H100 80GB HBM3 (compute capability 9.0, 132 SMs)",
        "line": "NVIDIA H100 80GB HBM3, 132 SMs, 79.2 GiB, compute capability 9.0, driver 13000, runtime 13000",
    },
    "h200": {
        "name": "NVIDIA H200",
        "summary": "NVIDIA H200 (compute capability 9.0, 132 SMs)",
        "line": "NVIDIA H200, 132 SMs, 139.8 GiB, compute capability 9.0, driver 13000, runtime 13000",
    },
}


def device(form):
    return lambda dev: DEVICES[dev][form]


# Per file of results/gpu-<device>/ (<device> in the name stands for the folder's): the columns the
# writer of today appends after the table's own (experiments/gpu/timing_parameters.h and its callers,
# cli/cmd_gpu_calibrate.cpp, scripts/traced_examples.sh), with the values of the run that made it.
# The commits that last changed the files' measured values add results and prose only, so the code
# that made them is the same at the commit and at its parent; the sources, commit:file:line:
# - kasagi-t2, bench, rap-t3, bmmc, enumeration* (fb51a1b): cli/cuda/cmd_gpu.cpp:45,47 (runs 20,
#   seed 1), :82,95 (rap-t3: trials 2000, the sweep's seed); cuda/harness/timer.h:19 (kWarmups 3),
#   cuda/gpu.h:33 (the benches' warm-ups); cuda/rap_table.cpp:55 (w 32),
#   experiments/layouts/rap_tables.cpp:143 (l 1); cuda/bmmc/driver.h:20-21 (seed 1, warm-ups 3);
#   cuda/enumeration/driver.h:19-20 (runs 10, heat-map runs 5, warm-ups 2), driver.cpp:61,132,175
#   (the heat map's one warm-up), :52,248 (device_line); mmsim.sh:138,141,144 pass none of them.
# - as-gpu (f2cf389): cuda/sorting/driver.h:20-21, driver.cpp:134 (device_summary); mmsim.sh:149.
# - parm-gpu (6521a49 on the H100, f2e30f4 on the H200): cuda/bmmc/parm_driver.h:21-22; mmsim.sh:162.
# - calibration-<device> (a57a2e7) and full-l2/calibration-<device> (f49c800; a57a2e7 moved it):
#   cli/cuda/cmd_gpu_calibrate.cpp:43, the set timed once (no --passes then: one pass).
# - traced/traced.csv (acf7b40): scripts/traced_examples.sh:20 (reps 20; docs/traced-runs.md:123 of
#   that commit, "the mean of 20"); the profile as traced/traced.md line 1 names it.
KNI = [("device", device("name")), ("runs", 20), ("warmup", 3), ("seed", 1)]
ENUMERATION = [("device", device("line")), ("warmup", 2)]
TABLES = {
    "kasagi-t2.csv": KNI,
    "bench.csv": KNI,
    "rap-t3.csv": [("device", device("name")), ("w", 32), ("l", 1), ("trials", 2000), ("seed", 1)],
    "bmmc.csv": [("warmup", 3), ("seed", 1)],  # device and runs are columns
    "parm-gpu.csv": [("warmup", 3), ("seed", 1)],  # device and runs are columns
    "as-gpu.csv": [("device", device("summary")), ("runs", 20), ("warmup", 3), ("seed", 1)],
    "enumeration.csv": ENUMERATION,  # runs is a column
    "enumeration_3d.csv": ENUMERATION,
    "enumeration_heatmap.csv": [("device", device("line")), ("warmup", 1)],
    "enumeration_heatmap_nvidia.csv": [("device", device("line")), ("runs", 5), ("warmup", 1)],
    "enumeration_heatmap_v1bf.csv": [("device", device("line")), ("runs", 5), ("warmup", 1)],
    # The device's slug is the first column of these (today's writer has it last, as a parameter).
    "calibration-<device>.csv": [("passes", 1)],
    "full-l2/calibration-<device>.csv": [("passes", 1)],
    # The H100's calibration of then, kept with its profile since 2026-12-08 (the H200 has none).
    "calibration-2026-11-23/calibration-<device>.csv": [("passes", 1)],
    "traced/traced.csv": [("reps", 20), ("profile", lambda dev: "profile-%s.json" % dev)],
}


# Stamped tables measured again since, by a writer that records what made them: they name their
# commit and leave the list (and a table one device never had: the H200's calibration-2026-11-23/).
REMADE = {("h100", "as-gpu.csv"), ("h100", "calibration-<device>.csv"),
          ("h200", "calibration-2026-11-23/calibration-<device>.csv")}


class Refused(Exception):
    pass


def known_files():
    """(device, path relative to the repository's root) of every file the table stamps."""
    return [(dev, "results/gpu-%s/%s" % (dev, name.replace("<device>", dev)))
            for dev in DEVICES for name in TABLES if (dev, name) not in REMADE]


def suffix_of(path):
    """The device and the (column, value) pairs for `path`, found by its last components."""
    norm = "/" + os.path.abspath(path).replace(os.sep, "/")
    for dev in DEVICES:
        for name, columns in TABLES.items():
            if (dev, name) in REMADE:
                continue
            if norm.endswith("/gpu-%s/%s" % (dev, name.replace("<device>", dev))):
                return [(c, v(dev) if callable(v) else v) for c, v in columns]
    raise Refused("not a GPU table measured before its writer recorded its parameters (see --list)")


def cell(value):
    """A CSV cell as mmsim writes it (report/csv.cpp, csv_cell): quoted only where it must be."""
    text = str(value)
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def records(text):
    """Splits `text` into (body, line ending, field count) records; a quoted field may hold a line break."""
    out = []
    start = i = 0
    fields, quoted = 1, False
    while i < len(text):
        c = text[i]
        if quoted:
            if c == '"':
                if i + 1 < len(text) and text[i + 1] == '"':
                    i += 1
                else:
                    quoted = False
        elif c == '"':
            quoted = True
        elif c == ",":
            fields += 1
        elif c in "\r\n":
            end = i + 2 if text.startswith("\r\n", i) else i + 1
            out.append((text[start:i], text[i:end], fields))
            start = i = end
            fields = 1
            continue
        i += 1
    if quoted:
        raise Refused("a quoted field is not closed")
    if start < len(text):
        out.append((text[start:], "", fields))
    return out


def names(header):
    return next(csv.reader([header]))


def shown(path):
    """A file's name in a message: on one line, cut to 120 characters."""
    text = "".join(c if c.isprintable() else "?" for c in path)
    return text[:120] + ("..." if len(text) > 120 else "")


def stamped(path):
    """The file's new text, every record with its suffix; raises Refused."""
    columns = suffix_of(path)
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    rows = records(text)
    if not rows:
        raise Refused("empty: no header")
    header = rows[0][0]
    if names(header)[-2:] == BUILD:
        raise Refused("ends with %s already: stamped, or written by a writer that records them" % ",".join(BUILD))
    for c, _ in columns:
        if c in names(header):
            raise Refused("the parameter %s is a column already" % c)
    width = rows[0][2]
    head = "," + ",".join([c for c, _ in columns] + BUILD)
    tail = "," + ",".join([cell(v) for _, v in columns] + [VERSION, ""])
    out = []
    for n, (body, ending, fields) in enumerate(rows):
        if fields != width:
            raise Refused("record %d has %d fields, the header %d" % (n + 1, fields, width))
        out.append(body + (head if n == 0 else tail) + ending)
    return "".join(out)


def write(path, text):
    """Replaces `path` whole (a hidden file beside it, renamed), keeping its permission bits."""
    folder, name = os.path.split(os.path.abspath(path))
    tmp = os.path.join(folder, "." + name + ".stamp")
    with open(tmp, "wb") as f:
        f.write(text.encode("utf-8"))
    os.chmod(tmp, os.stat(path).st_mode & 0o7777)
    os.replace(tmp, path)


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader of --list that stops early is no error
    if argv == ["--list"]:
        for _, rel in known_files():
            print(rel)
        return 0
    if any(a.startswith("-") for a in argv):
        print("usage: stamp_legacy_results.py [--list | FILE...]", file=sys.stderr)
        return 2
    files = argv or [os.path.join(root, rel) for _, rel in known_files()]
    texts = []
    for path in files:  # every file checked before any is written
        try:
            texts.append((path, stamped(path)))
        except (Refused, OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) else str(e)
            print("stamp_legacy_results.py: %s: %s" % (shown(path), why), file=sys.stderr)
            return 2
    for path, text in texts:
        write(path, text)
    print("stamp_legacy_results.py: %d files stamped" % len(texts), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
