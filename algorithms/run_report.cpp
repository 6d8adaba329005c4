#include "algorithms/run_report.h"

namespace mmsim {

std::vector<PhaseSummary> phases_of(const RunStats& stats) {
  std::vector<PhaseSummary> out;
  for (const auto& k : stats.kernels) {
    if (out.empty() || out.back().name != k.name) out.push_back({k.name, 0, 0, 0});
    ++out.back().launches;
    out.back().time_units += k.time_units;
  }
  // Rounds carry their kernel's name; walk them alongside the phases, in the same order.
  std::size_t p = 0;
  for (const auto& r : stats.rounds) {
    while (p < out.size() && out[p].name != r.kernel) ++p;
    if (p == out.size()) break;
    ++out[p].rounds;
  }
  return out;
}

}  // namespace mmsim
