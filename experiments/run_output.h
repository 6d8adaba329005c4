// The one set of writers of a RunReport, used by every family: JSON (`mmsim run --json`), text, and
// the trace CSV. Their keys and columns are documented in docs/report.md.
#pragma once

#include <ostream>
#include <string>

#include "algorithms/run_report.h"
#include "report/json.h"

namespace mmsim::experiments {

/// The machine as run: model, w, l, and for the HMM L and k.
report::Json to_json(const MachineParams& m);
/// One round: kernel, name, array, memory, op, warps, requests, slots, time_units, max_congestion,
/// bank_conflicts, extra_bank_requests.
report::Json to_json(const RoundStats& r);
/// The whole report; the same top-level keys for every algorithm (absent facts are null).
report::Json to_json(const RunReport& r);

std::string to_text(const RunReport& r);

/// The trace CSV header, the same for every family:
/// round,kernel,name,array,op,memory,warp,slot,enter,complete,requests
inline constexpr const char* kTraceHeader = "round,kernel,name,array,op,memory,warp,slot,enter,complete,requests";
/// "global" for the global memory (the UMM's memory), "shared<d>" for the shared memory of DMM d.
std::string memory_name(int memory);
/// Writes the header and one line per slot; returns false when the stream failed.
bool write_trace_csv(std::ostream& out, const RunReport& r);

}  // namespace mmsim::experiments
