#!/usr/bin/env bash
# examples/notebooks/*.ipynb run top to bottom in a fresh kernel, against the module in the build
# folder: a cell that raises (an assert of the tutorial's answers) fails the test. Skipped, with the
# reason, where Debian's python3-nbclient or python3-ipykernel is missing (exit 77: ctest's skip).
#   notebook_check.sh PYTHON PYTHONPATH NOTEBOOK...
set -u
PY=$1
export PYTHONPATH=$2
shift 2
for mod in nbclient nbformat ipykernel; do
  if ! "$PY" -c "import $mod" 2>/dev/null; then
    echo "notebook_check.sh: skipped: $PY has no $mod (apt-get install python3-nbclient python3-ipykernel)"
    exit 77
  fi
done
status=0
for nb in "$@"; do
  if "$PY" - "$nb" <<'PY'
import sys
import nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, timeout=120, kernel_name="python3").execute()
svgs = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
           if "image/svg+xml" in o.get("data", {}))
print(f"{sys.argv[1]}: {len(nb.cells)} cells run, {svgs} drawn as SVG")
if svgs == 0:
    sys.exit("no cell drew itself as SVG")
PY
  then :; else
    echo "FAIL: $nb"
    status=1
  fi
done
exit $status
