// Runs independent jobs on host threads while their estimated memory fits a budget: a job starts
// only when the estimates of the jobs running plus its own stay within it, so that many large
// simulations (`mmsim validate --threads`) share a host without swapping. Progress goes to a
// stream: each job as it starts and ends, with its number, label and the time since the start.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace mmsim::predict {

struct MemoryJob {
  std::string label;        ///< what progress lines name it by
  std::uint64_t bytes = 0;  ///< its estimated peak memory
};

/// Calls run(i) for every job on at most `threads` threads (at least one). Jobs are started in
/// the order given, skipping those that do not fit for the moment in favour of later ones that
/// do; a job larger than the whole budget runs when nothing else is running. Every job runs even
/// when an earlier one throws: the first exception (in job order) is rethrown at the end.
/// `progress` (may be null) gets one line per start and per end.
void run_within_memory(const std::vector<MemoryJob>& jobs, unsigned threads, std::uint64_t max_bytes,
                       const std::function<void(std::size_t)>& run, std::ostream* progress);

}  // namespace mmsim::predict
