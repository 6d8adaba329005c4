#include "experiments/tables.h"

#include "experiments/bmmc/bmmc_experiments.h"
#include "experiments/enumeration/enumeration_experiments.h"
#include "experiments/layouts/rap_tables.h"
#include "experiments/sorting/as_bounds.h"
#include "experiments/sorting/as_theorem4.h"
#include "io/input_error.h"

namespace mmsim::experiments {

const std::vector<TableSpec>& tables() {
  static const std::vector<TableSpec> all{
      {"rap-t1", "congestion of contiguous, stride and other accesses under raw, ras, rap at w = 16 .. 1024, fitted c",
       "NMI Table I", rap_t1},
      {"rap-t2", "expected congestion of a warp access to a w x w matrix beside the paper's values", "NMI Table II",
       rap_t2},
      {"rap-t3", "read/write congestion and DMM time units of the CRSW, SRCW, DRDW transposes per layout",
       "NMI Table III", rap_t3},
      {"rap-t4", "expected congestion on a w^4 array per RAP scheme, and the random numbers used", "NMI Table IV",
       rap_t4},
      {"enumeration-bands", "band width of V1B / V1BF under a TLB: time units and misses per width", "GL Sect. 5.1, 7",
       enumeration_bands_table},
      {"enumeration-tlb",
       "transposition block orders (naive, super grid, V1, V1R, V1B, NVIDIA, V1BF) with and without a TLB: time units "
       "and misses by order",
       "GL Sect. 3.1, 7", enumeration_tlb_table},
      {"enumeration-3d",
       "3D involutions T_yxz and T_zyx in place, original grid and V1B, with and without a TLB: time units and misses",
       "GL Sect. 3.3, Figs. 14-15", enumeration_3d_table},
      {"bmmc-optimisations",
       "each BPC/BMMC kernel on random BPCs, random BMMCs and bit-reversal (time units, % of copy)", "BDS Fig. 9-10",
       bmmc_optimisations_table},
      {"bmmc-sizes", "speed-up of the optimised BPC/BMMC kernels over the naive one by array size", "BDS Fig. 11",
       bmmc_sizes_table},
      {"parm-sort", "the parm sorting network, direct or through BMMC permutations, by size", "BDS Sect. 7",
       parm_sort_table},
      {"kasagi-t1", "rounds of each kind and time units of the permutation algorithms on the HMM", "KNI Table 1",
       kasagi_t1},
      {"as-bounds", "steps of conflict-free sorting, partition, permutation on the DMM beside their bounds",
       "AS Sect. 2-3", as_bounds_table},
      {"as-bounds-theorem4",
       "the randomized permutation phase by phase with Appendix B's packing and Lemma 2, against each term, and its "
       "three finishes compared",
       "AS Theorem 4, Appendix B", as_theorem4_table},
  };
  return all;
}

MachineParams table_machine(const TableOptions& o) {
  MachineParams m{.model = ModelKind::Hmm,
                  .w = o.w.value_or(32),
                  .l = o.l.value_or(1),
                  .L = o.L.value_or(100),
                  .k = o.k.value_or(8)};
  if (auto err = m.validate()) throw InputError(*err);
  return m;
}

const TableSpec* find_table(const std::string& name) {
  for (const auto& t : tables())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace mmsim::experiments
