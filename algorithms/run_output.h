// The one set of writers of a RunReport, used by every family: JSON (`mmsim run --json`), text, and
// the trace CSV. Their keys and columns are documented in docs/report.md.
#pragma once

#include <functional>
#include <ostream>
#include <span>
#include <string>

#include "algorithms/run_report.h"
#include "report/json.h"
#include "sim/trace_sink.h"

namespace mmsim {

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
/// Writes the header and one line per slot of a report's in-memory trace; returns false when the
/// stream failed.
bool write_trace_csv(std::ostream& out, const RunReport& r);

/// The same CSV, written while the run goes (a sim/trace_sink.h sink for EngineOptions::trace_sink):
/// the header when made, then each batch of slots as the engine hands it on, byte for byte what
/// write_trace_csv writes for the same run. After each batch `check` runs (it throws to stop the
/// run when the file failed, OutputFile::check); without one, a failed stream throws WriteError.
class TraceCsvWriter : public TraceSink {
 public:
  explicit TraceCsvWriter(std::ostream& out, std::function<void()> check = {});
  void consume(std::span<const SlotEvent> slots, const RunStats& stats) override;

 private:
  std::ostream& out_;
  std::function<void()> check_;
};

}  // namespace mmsim
