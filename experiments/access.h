// A few explicit warp accesses on a DMM or UMM, simulated with a trace: KNI Fig. 2.
#pragma once

#include <string>
#include <vector>

#include "models/machines.h"
#include "report/json.h"
#include "sim/stats.h"

namespace mmsim::experiments {

struct AccessResult {
  MachineParams machine;
  std::vector<std::vector<Address>> warps;
  std::vector<int> slots;             ///< per warp
  TimeUnits time_units = 0;
  std::vector<SlotEvent> trace;
};

/// Runs one memory instruction in which warp j presents warps[j] (padded with idle threads to w).
AccessResult simulate_access(const MachineParams& machine, const std::vector<std::vector<Address>>& warps);

/// The pipeline diagram: which slot enters at which time unit with which requests, and which stage
/// each slot is in at every time unit until the last completes.
std::string diagram(const AccessResult& r);

report::Json to_json(const AccessResult& r);

}  // namespace mmsim::experiments
