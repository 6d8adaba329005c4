// KNI Table 1's bounds beside the GPU's timings: every run of kasagi-t2.csv whose kernel implements
// a row of Table 1, with that row's time expression in time units evaluated on the GPU profile's
// machine (w = 32, l = 1, L = 400, k = its SMs, as `mmsim validate` simulates). The constant
// ms per time unit is fitted, and the figures drawn, by scripts/gpu_table1_figures.sh from the
// table written here. Needs no GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/machines.h"
#include "predict/validate/prediction_table.h"
#include "report/table.h"

namespace mmsim::predict {

/// The Table 1 row a GPU kernel of kasagi-t2.csv implements: "d-designated", "s-designated",
/// "in-place" (transpose, shuffle, bit-reversal) or "scheduled" (the paper's, pipelined and fused
/// kernels alike: the bound is the algorithm's, whatever overlaps the kernel adds); "" for none.
std::string table1_row_of(const std::string& kernel);

struct BoundedRun {
  std::string row;  ///< table1_row_of(measured.kernel)
  MeasuredRun measured;
  std::uint64_t distribution = 0;          ///< D_w(P) of the run's permutation (conventional rows)
  std::uint64_t distribution_inverse = 0;  ///< D_w(P^-1)
  std::int64_t bound = 0;                  ///< the row's expression in time units (algorithms/closed_forms.h)
};

/// The bound of every run that implements a Table 1 row (the others are left out). D_w is computed
/// from the permutation itself (named_permutation with `seed`, as the GPU tables drew it), once per
/// permutation and size, on `threads` host threads. Throws InputError when w^2 does not divide a
/// run's n (every row's expression assumes it).
std::vector<BoundedRun> table1_bounds(const MachineParams& m, const std::vector<MeasuredRun>& runs, std::uint64_t seed,
                                      unsigned threads);

/// One row per run: row, kernel, type, permutation, n, ms, D_w(P), D_w(P^-1), bound.
report::Table table1_bounds_table(const MachineParams& m, std::uint64_t seed, const std::vector<BoundedRun>& runs);

}  // namespace mmsim::predict
