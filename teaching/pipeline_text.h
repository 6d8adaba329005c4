// The text pipeline diagram of KNI Fig. 2: one row per time unit, one column per stage of each
// pipeline, naming the slot that occupies the stage. Shared by `mmsim access` and `mmsim trace`.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/stats.h"

namespace mmsim::teaching {

/// One pipeline of the diagram: the memory it serves (SlotEvent::memory) and its latency.
struct PipelineLane {
  int memory = 0;
  int latency = 1;
  std::string name;  ///< "global", "shared0", ...
};

/// Limits past which the grid is not drawn (the caller says so and shows a summary instead).
struct GridLimits {
  int max_stage_columns = 24;  ///< stages over all lanes
  TimeUnits max_rows = 400;    ///< time units
};

/// The grid from time unit 0 to the last completion, or nullopt when it would pass `limits`; then
/// `why_not` (when given) says which limit, in words.
std::optional<std::string> stage_grid(const std::vector<SlotEvent>& events, const std::vector<PipelineLane>& lanes,
                                      const std::function<std::string(const SlotEvent&)>& label,
                                      const GridLimits& limits = {}, std::string* why_not = nullptr);

}  // namespace mmsim::teaching
