#!/usr/bin/env python3
"""The tree's one-way dependencies, checked: every #include of a project header, and every source a
CMakeLists.txt names, must stay inside what its folder may use (README.md, "How the tree is built").

Usage: check_layers.py ROOT. Prints one line per back arrow and exits 1 if there is any."""
import pathlib
import re
import sys

BASE = {"sim", "io", "report"}
BELOW_ALGORITHMS = {"sim", "models", "io", "report"}
UPPER = BELOW_ALGORITHMS | {"algorithms"}
# folder -> the folders its sources may include (besides its own)
ALLOWED = {
    "sim": set(),
    "io": set(),
    "report": set(),
    "models": {"sim"},
    "algorithms": BELOW_ALGORITHMS,
    "teaching": UPPER,
    "kernels": UPPER | {"teaching"},
    "sweep": UPPER,
    # a kernel of one's own (kernels/) is predicted as an algorithm is (predict/kernel_prediction.h);
    # kernels/ never asks for a prediction, so the arrow points one way
    "predict": UPPER | {"kernels"},
    "experiments": UPPER,
    "cuda": UPPER,
    # a kernel file dropped on the page runs as `mmsim run --kernel` runs it (explorer_api.h:
    # kernel); kernels/ knows nothing of the page, so the arrow points one way
    "explorer": UPPER | {"teaching", "kernels"},
    "python": UPPER | {"teaching", "kernels", "sweep", "predict", "experiments"},
    "cli": UPPER | {"teaching", "kernels", "sweep", "predict", "experiments", "cuda"},
}
# narrower exceptions, each with its reason
EXCEPTIONS = {
    # the GPU's tables drive the kernels and the calibration writes a profile (experiments/gpu/)
    ("experiments/gpu/", "cuda"), ("experiments/gpu/", "predict"),
    # the calibration kernels are the microbenchmarks that predict/ defines and simulates
    ("cuda/calibrate/", "predict/microbench.h"), ("cuda/calibrate/", "predict/microbench_values.h"),
    # and the instruction kernels the instruction microbenchmarks that predict/ defines and prices
    ("cuda/instructions/", "predict/instruction_bench.h"),
    # the GPU's layout cases are the layout texts `mmsim layout` reads, parsed by the one parser, so
    # that a row of the GPU's table and the CLI's figures are the same layout (teaching never
    # includes experiments: one way)
    ("experiments/accesses.cpp", "teaching/tile_layout.h"),
    # the JSON writer keeps its output UTF-8 by the one UTF-8 rule of io/printable.h (io includes nothing of report)
    ("report/json.cpp", "io/printable.h"),
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.M)


def allowed(path, folder, target, header):
    if target == folder or target in ALLOWED[folder]:
        return True
    return any(path.startswith(p) and (target == t or f"{target}/{header}" == t) for p, t in EXCEPTIONS)


def main():
    root = pathlib.Path(sys.argv[1])
    bad = []
    for folder in ALLOWED:
        for f in sorted((root / folder).rglob("*")):
            rel = f.relative_to(root).as_posix()
            if f.suffix in {".h", ".cpp", ".cu", ".cuh"}:
                for target, header in INCLUDE.findall(f.read_text(encoding="utf-8")):
                    if target in ALLOWED and not allowed(rel, folder, target, header):
                        bad.append(f"{rel}: includes {target}/{header}, which {folder}/ may not use")
            elif f.name == "CMakeLists.txt":
                for m in re.finditer(r"\$\{PROJECT_SOURCE_DIR\}/([a-z_]+)/\S+\.(?:cpp|cu)\b", f.read_text()):
                    if m.group(1) != folder:
                        bad.append(f"{rel}: compiles {m.group(0)}, a source of another folder")
    for line in bad:
        print(line)
    print(f"layers: {len(bad)} back arrow(s)" if bad else "layers: every include and source points one way")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
