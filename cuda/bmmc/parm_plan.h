// The launches of a GPU parm sort, from the simulator's own flattened network
// (mmsim::bmmc::parm_sort_stages, BDS Sect. 7.2): each Permute stage becomes the GPU passes of the
// chosen BMMC kernel (plan.h, the same factorisation the simulator's launch_bmmc uses), each
// CompareExchange stage one column launch. Plain C++, shared by the driver and the GPU test.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/bmmc/parm.h"
#include "cuda/bmmc/gpu_parm.h"
#include "cuda/bmmc/plan.h"

namespace mmsim::gpu::bmmc {

/// A parm-sort variant: `direct` (no permutation moves data; each column reads the cells where
/// the un-permuted array holds its pairs), or the permutations run with one BMMC kernel.
struct ParmVariant {
  std::optional<mmsim::bmmc::KernelKind> kernel;  ///< empty: direct
  std::string name() const { return kernel ? mmsim::bmmc::to_string(*kernel) : "direct"; }
};

/// The variants `mmsim gpu parm` runs: direct and every BMMC kernel.
inline std::vector<ParmVariant> parm_variants() {
  std::vector<ParmVariant> v{{std::nullopt}};
  for (const auto k : mmsim::bmmc::all_kernels()) v.push_back({k});
  return v;
}

/// The launches sorting 2^bits keys that start in buffer A; `result` is set to the buffer that
/// holds the sorted keys at the end. bits in [12, 30] (throws std::invalid_argument otherwise).
inline std::vector<ParmLaunch> parm_launches(int bits, const ParmVariant& v, ParmBuffer& result) {
  using mmsim::bmmc::ParmStage;
  std::vector<ParmLaunch> out;
  ParmBuffer cur = ParmBuffer::A, other = ParmBuffer::B;
  f2::Bmmc placed = f2::identity(bits);  // direct: virtual position -> cell is placed^-1
  for (const ParmStage& s : mmsim::bmmc::parm_sort_stages(bits)) {
    ParmLaunch l;
    if (s.kind == ParmStage::Kind::Permute) {
      if (!v.kernel) {
        placed = f2::compose(s.perm, placed);
        continue;
      }
      const std::vector<Pass> passes = gpu_passes(s.perm, *v.kernel);
      for (std::size_t p = 0; p < passes.size(); ++p) {
        l.kind = ParmLaunch::Kind::Pass;
        l.pass = passes[p];
        l.in = p == 0 ? cur : ParmBuffer::Mid;
        l.out = p + 1 == passes.size() ? other : ParmBuffer::Mid;
        out.push_back(l);
      }
    } else if (v.kernel) {
      l.kind = ParmLaunch::Kind::Compare;
      l.in = cur;
      l.out = other;
      out.push_back(l);
    } else {
      l.kind = ParmLaunch::Kind::CompareMapped;
      l.where = matrix_args(f2::inverse(placed));
      l.in = cur;
      l.out = other;
      out.push_back(l);
    }
    std::swap(cur, other);
  }
  result = cur;
  return out;
}

}  // namespace mmsim::gpu::bmmc
