// NMI Table III on this GPU: the shared-memory transposes' ns per 32 x 32 transpose beside the
// simulated congestion and DMM time of experiments' rap-t3, and the Nsight Compute bank-conflict
// counters beside the simulator's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/rap.h"
#include "cuda/rap_shifts.h"
#include "experiments/tables.h"
#include "report/table.h"

namespace mmsim::gpu {

struct RapTableOptions {
  experiments::TableOptions sim;  ///< rap-t3's options: seed, trials (layouts), l; w must be 32
  RapOptions gpu;
  std::vector<Elem> elems{Elem::F32, Elem::F64};
};

/// rap-t3 with its GPU column filled. Throws GpuError on a CUDA failure.
report::Table rap_t3_gpu_table(const RapTableOptions& o);

/// For Nsight Compute: the float launches of rap_profile_launches with the layouts of seed `seed`.
/// Returns the number of launches whose output was wrong.
int rap_profile(std::uint64_t seed);

/// Reads Nsight Compute's CSV (--csv, the two bank-conflict metrics of the shared loads and stores)
/// of a `rap_profile` run and sets each kernel's counts beside the simulator's bank_conflicts for the
/// same access (DMM, w = 32, the same layouts). Throws InputError on a file it cannot read.
report::Table rap_ncu_table(const std::string& csv_path, std::uint64_t seed);

}  // namespace mmsim::gpu
