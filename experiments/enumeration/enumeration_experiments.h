// GL on the simulator: the transpositions' block orders under a TLB model (Sect. 3.1, 7), and the 3D
// involutions (Sect. 3.3, Figs. 14-15).
#pragma once

#include <string>
#include <vector>

#include "experiments/tables.h"

namespace mmsim::experiments {

/// `mmsim table enumeration-tlb`: time units and TLB misses of every in-place and out-of-place
/// ordering by matrix order, with the TLB on and off (-n: one order; -w -l -L -k: the machine).
report::Table enumeration_tlb_table(const TableOptions& options);
/// `mmsim table enumeration-bands`: V1B and V1BF under the TLB for band widths 1 .. 16 tiles.
report::Table enumeration_bands_table(const TableOptions& options);
/// `mmsim table enumeration-3d`: the 3D involutions T_yxz and T_zyx, original grid and V1B, at
/// depths 2 and 4, with and without the TLB (-n: one order; -w -l -L -k: the machine).
report::Table enumeration_3d_table(const TableOptions& options);
/// `mmsim figure enumeration-3d`: cells per time unit against the order, per involution (GL Figs. 14-15).
std::vector<std::string> enumeration_3d_figure(const std::string& out_dir);
/// `mmsim figure enumeration-tlb`: slow-down (TLB on / off) against the matrix order, per ordering.
std::vector<std::string> enumeration_tlb_figure(const std::string& out_dir);

}  // namespace mmsim::experiments
