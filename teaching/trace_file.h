// Reads the one trace CSV schema (docs/report.md, written by algorithms/run_output.h) back, checking
// every line against the schema and the machine's rules (one pipeline per memory, one latency per
// pipeline, at most one slot entering a pipeline per time unit), for `mmsim trace`; or takes a run's
// slots as they are, for a view of a run made in the same program (the explorer).
#pragma once

#include <cstdint>
#include <istream>
#include <span>
#include <string>
#include <vector>

#include "sim/stats.h"
#include "sim/types.h"

namespace mmsim::teaching {

/// One round as the trace shows it: its instruction, and the span of its slots.
struct TraceRound {
  int index = 0;
  std::string kernel, name, array;
  Op op = Op::Read;
  std::vector<int> memories;  ///< memories its slots entered (SlotEvent::memory), increasing
  std::uint64_t slots = 0;
  std::uint64_t warps = 0;  ///< distinct warps
  TimeUnits first_enter = 0;
  TimeUnits last_complete = 0;
  int line = 0;  ///< first line of the round in the file
};

/// One pipeline: a memory and its latency.
struct TraceLane {
  int memory = 0;  ///< 0: global; 1 + d: shared memory of DMM d
  std::string name;
  int latency = 1;
  std::uint64_t slots = 0;
};

struct TraceFile {
  std::vector<SlotEvent> slots;    ///< in file order
  std::vector<TraceRound> rounds;  ///< by index (every index from 0 to the largest appears)
  std::vector<TraceLane> lanes;    ///< global first, then shared0, shared1, ...
  TimeUnits end = 0;               ///< one past the last completion

  /// True when some round's first slot enters before an earlier round's last slot completes:
  /// asynchronous execution (round-synchronous rounds never overlap).
  bool overlapping() const;
};

/// The largest trace `mmsim trace` reads (every slot is kept in memory, about twice its bytes), and
/// the longest line: eleven fields whose request list holds at most w <= 1024 addresses.
inline constexpr std::uint64_t kMaxTraceBytes = std::uint64_t{1} << 30;
inline constexpr std::size_t kMaxTraceLineChars = 64 * 1024;

/// Reads a trace. Throws InputError "trace FILE: line N: why" (one line) on the first bad line.
TraceFile read_trace(std::istream& in, const std::string& file);

/// The same trace from a run's own slots (RunReport::trace, each naming its round in `stats`), with
/// no file between: what read_trace gives for the CSV of that run (TraceRound::line aside).
TraceFile trace_of(const RunStats& stats, std::span<const SlotEvent> slots);

}  // namespace mmsim::teaching
