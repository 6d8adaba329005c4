// What `mmsim replay` reports of a traced run without a GPU profile: the simulator's rounds grouped
// by source line (the steps a trace made are named "file:line"), so that which line costs what, and
// why, is one table: its occurrences, requests, warp accesses, slots, the most slots one warp took
// and the bank conflicts of its shared accesses.
#pragma once

#include "kernels/kernel_spec.h"
#include "report/json.h"
#include "report/table.h"

namespace mmsim::kernels {

/// One source line's access to one array with one op, over every occurrence (loop iteration).
struct LineStats {
  std::string kernel, line, array;
  Space memory = Space::Global;
  Op op = Op::Read;
  std::uint64_t steps = 0, requests = 0, warps = 0, slots = 0, bank_conflicts = 0;
  int max_congestion = 0;  ///< the most slots one warp access took
  std::int64_t time_units = 0;
};

/// The run's rounds grouped by (kernel, line, array, op), in the order first run.
std::vector<LineStats> line_stats(const RunStats& stats);

/// The columns that name a line's row (kernel, line, array, memory, op, steps), then `counts`.
std::vector<std::string> line_columns(std::vector<std::string> counts);

/// One row a line: kernel, line, array, memory, op, steps, requests, warps, slots, slots per warp,
/// the most slots of a warp, bank conflicts (shared) and time units (round-synchronous).
report::Table lines_table(const ProgramSpec& p, const ProgramRun& run);

/// {"source", "machine", "time_units", "lines": [{...as the table}]}.
report::Json lines_json(const ProgramSpec& p, const ProgramRun& run);

}  // namespace mmsim::kernels
