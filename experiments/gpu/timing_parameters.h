// The parameters every GPU table's CSV repeats on its rows after its own columns (docs/report.md):
// the device the times were measured on and how they were measured (timed runs after warm-ups, the
// seed of the inputs), so that rows of two GPUs or two settings can be told apart once concatenated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/table.h"

namespace mmsim::gpu {

using TableParameters = std::vector<std::pair<std::string, report::Cell>>;

/// `device`, `runs`, `warmup` and `seed`, in that order; an empty device, a runs or warmup below 0
/// and no seed are left out (a table that has the value as a column of its own already).
inline TableParameters timing_parameters(const std::string& device, long long runs, long long warmup,
                                         std::optional<std::uint64_t> seed) {
  TableParameters p;
  if (!device.empty()) p.emplace_back("device", device);
  if (runs >= 0) p.emplace_back("runs", runs);
  if (warmup >= 0) p.emplace_back("warmup", warmup);
  if (seed) p.emplace_back("seed", static_cast<long long>(*seed));
  return p;
}

}  // namespace mmsim::gpu
