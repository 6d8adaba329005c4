// One memory's pipelined MMU: at most one slot enters per time unit (KNI Sect. 2, Fig. 2).
#pragma once

#include <algorithm>
#include <cassert>

#include "sim/types.h"

namespace mmsim {

class Pipeline {
 public:
  explicit Pipeline(int latency, TimeUnits start = 0) : latency_(latency), next_entry_(start) { assert(latency >= 1); }

  int latency() const { return latency_; }
  /// First time unit at which a new slot may enter.
  TimeUnits next_entry() const { return next_entry_; }

  /// Issues `slots` consecutive slots, the first not before `earliest`. Returns the time unit the
  /// first slot enters. A request entering at t completes at the end of t + latency - 1.
  TimeUnits issue(int slots, TimeUnits earliest) {
    assert(slots > 0);
    const TimeUnits first = std::max(earliest, next_entry_);
    next_entry_ = first + slots;
    last_completion_ = std::max(last_completion_, completion_of(first + slots - 1));
    return first;
  }

  TimeUnits completion_of(TimeUnits entry) const { return entry + latency_ - 1; }
  /// Time unit at whose end the last issued request completes (-1 before any issue).
  TimeUnits last_completion() const { return last_completion_; }

 private:
  int latency_;
  TimeUnits next_entry_;
  TimeUnits last_completion_ = -1;
};

}  // namespace mmsim
