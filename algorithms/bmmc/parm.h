// The parm combinator (BDS Sect. 7) compiled to BMMC permutations, and the sorting network
// built from it, run on the HMM.
#pragma once

#include <functional>
#include <vector>

#include "algorithms/bmmc/kernels.h"

namespace mmsim::bmmc {

/// One stage of a flattened parm program over 2^n cells: a BMMC permutation of the whole array, or
/// a column of compare-exchanges on the pairs (2i, 2i + 1) (minimum to the even cell).
struct ParmStage {
  enum class Kind { Permute, CompareExchange };
  Kind kind = Kind::Permute;
  f2::Bmmc perm;  ///< Permute only
};

/// parm on a host vector, by its definition (Sect. 7.1): split by the parity of i . mask, apply f to
/// both sub-arrays, put them back in place. The reference the compiled stages are checked against.
std::vector<Word> parm_reference(f2::BitVector mask, const std::function<std::vector<Word>(std::vector<Word>)>& f,
                                 const std::vector<Word>& xs);

/// Sect. 7.1's sorting network (sort n = merge n o parm 1 (sort (n-1)); merge n = parm 2^(n-1)
/// (merge (n-1)) o vcolumn n; vcolumn n = parm 3 (vcolumn (n-1))) by the definition above.
std::vector<Word> parm_sort_reference(int n, std::vector<Word> xs);

/// The same network flattened with parm m f = bmmc (A^-1) o parm 2^(n-1) f o bmmc (A) (Sect. 7.2),
/// nested parms acting on contiguous chunks through block-diagonal lifts of A, and consecutive
/// permutations fused by (A, c) o (B, d) = (AB, Ad + c) (identities dropped). 1 <= n <= 64.
std::vector<ParmStage> parm_sort_stages(int n);

/// Applies stages on the host: the semantics the simulated kernels must reproduce.
std::vector<Word> apply_stages(const std::vector<ParmStage>& stages, std::vector<Word> xs);

struct ParmSortRun {
  RunStats stats;
  int permutations = 0;          ///< Permute stages
  int passes = 0;                ///< kernels launched for them
  int compare_stages = 0;        ///< compare-exchange columns
  bool sorted = false;           ///< output nondecreasing and a rearrangement of the input
  std::vector<SlotEvent> trace;  ///< every slot, when the engine traced
};

/// Sorts 2^n random keys (from `seed`) on the simulated HMM. With `direct` the compare-exchange
/// columns read and write the cells where the un-permuted array holds them (Sect. 7.2's
/// straightforward parm, casual accesses); otherwise the permutations run with `o`'s kernels.
ParmSortRun run_parm_sort(const Machine& machine, int n, const BmmcOptions& o, bool direct, std::uint64_t seed,
                          const EngineOptions& eo);

}  // namespace mmsim::bmmc
