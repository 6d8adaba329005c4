// AS bounds measured: steps of the conflict-free sort, partition and permutation (and the
// direct baselines) over a grid of w x m shapes, beside the normalisations the theorems predict.
#pragma once

#include <string>
#include <vector>

#include "experiments/tables.h"

namespace mmsim::experiments {

/// `mmsim table as-bounds`: w in {8, 16, 32, 64} (or -w alone), m from w/8 to 64w.
report::Table as_bounds_table(const TableOptions& options);
/// `mmsim figure as-bounds`: the normalised steps against m, one colour per algorithm and one marker
/// per w, and each baseline's time units over its conflict-free counterpart's (PNG and SVG).
std::vector<std::string> as_bounds_figure(const std::string& out_dir);

}  // namespace mmsim::experiments
