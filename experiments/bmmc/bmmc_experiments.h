// Simulator-side tables and figures for BPC/BMMC permutations and the parm sort (BDS
// Fig. 9-11 and Sect. 7), every time from the engine with the closed form beside it.
#pragma once

#include <string>
#include <vector>

#include "experiments/tables.h"

namespace mmsim::experiments {

/// BDS Fig. 9 and 10 on the HMM: each kernel on random BPCs, random BMMCs and bit-reversal.
report::Table bmmc_optimisations_table(const TableOptions& options);
/// BDS Fig. 11 on the HMM: speed-up of the optimised kernels over the naive one by size.
report::Table bmmc_sizes_table(const TableOptions& options);
/// BDS Sect. 7: the parm sorting network, direct or through BMMC permutations, by size.
report::Table parm_sort_table(const TableOptions& options);

std::vector<std::string> bmmc_optimisations_figure(const std::string& out_dir);
std::vector<std::string> bmmc_sizes_figure(const std::string& out_dir);

}  // namespace mmsim::experiments
