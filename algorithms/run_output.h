// The one set of writers of a RunReport, used by every family: JSON (`mmsim run --json`), text, and
// the trace CSV. Their keys and columns come from one field table (algorithms/run_report_fields.h),
// which also makes the tables of docs/report.md.
#pragma once

#include <functional>
#include <ostream>
#include <span>
#include <string>

#include "algorithms/run_report.h"
#include "algorithms/run_report_fields.h"
#include "report/json.h"
#include "sim/trace_sink.h"

namespace mmsim {

/// The machine as run: model, w, l, and for the HMM L and k.
report::Json to_json(const MachineParams& m);
/// One round: the keys of round_fields().
report::Json to_json(const RoundStats& r);
/// The whole report: the keys of report_fields(), the same for every algorithm (absent facts are null).
report::Json to_json(const RunReport& r);

std::string to_text(const RunReport& r);

/// "global" for the global memory (the UMM's memory), "shared<d>" for the shared memory of DMM d.
std::string memory_name(int memory);
/// Writes the header (trace_header()) and one line per slot of a report's in-memory trace, in the
/// columns of trace_columns(); returns false when the stream failed.
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
