// What a kernel file's run reports: one row per step of each kernel (the engine's rounds) and the
// global arrays' final values, as a table for people and as one JSON object for programs.
#pragma once

#include <string>

#include "kernels/kernel_spec.h"
#include "report/json.h"
#include "report/table.h"

namespace mmsim::kernels {

/// The machine in words: "hmm, w = 32, l = 1, L = 100, k = 4, widths".
std::string machine_text(const MachineParams& m);

/// The rounds of the run, one row a memory step: kernel, step, array, memory, op, requests, warps,
/// slots, the most slots one warp took, bank conflicts (shared) and time units.
report::Table steps_table(const ProgramSpec& p, const ProgramRun& run);

/// {"source", "machine", "time_units", "kernels": [{name, time_units}], "steps": [...as the table],
///  "arrays": {name: [values]}} (arrays only when `with_arrays`).
report::Json run_json(const ProgramSpec& p, const ProgramRun& run, bool with_arrays);

}  // namespace mmsim::kernels
