// NMI's tables (I to IV) and its congestion figure, reproduced by simulation.
#pragma once

#include <string>
#include <vector>

#include "experiments/tables.h"

namespace mmsim::experiments {

/// Table I: congestion of contiguous, stride and other accesses under raw, ras, rap, measured at
/// w = 16 .. 1024, with c of c ln w / ln ln w fitted where the paper's entry is O~(log w / log log w).
report::Table rap_t1(const TableOptions& options);
/// Table II: expected congestion at w = 16 .. 256 beside the paper's values.
report::Table rap_t2(const TableOptions& options);
/// Table III: read / write congestion and DMM time units of the CRSW, SRCW, DRDW transposes.
report::Table rap_t3(const TableOptions& options);
/// Table IV: expected congestion on a w^4 array at w = 16, 32, 64 and the random numbers per scheme.
report::Table rap_t4(const TableOptions& options);

/// The figure rap-congestion: expected congestion against w for every layout and pattern.
std::vector<std::string> rap_congestion_figure(const std::string& out_dir);

}  // namespace mmsim::experiments
