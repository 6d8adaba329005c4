// The one field table of a run's results: every key of the report's JSON (`mmsim run --json`), of
// each of its rounds and phases, and every column of the trace, each with its unit and meaning.
// The JSON writer, the trace's writers (the CSV of --trace, Python's NumPy columns) and the tables
// of docs/report.md (`mmsim list --fields TABLE`) are all generated from it, so they cannot drift.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/run_report.h"
#include "report/json.h"

namespace mmsim {

/// One key of a JSON object written from a `Record`, in the order the writer writes it.
template <typename Record>
struct Field {
  const char* name;
  const char* unit;  ///< "" where it has none (a name, a word, an object)
  const char* meaning;
  report::Json (*json)(const Record&);
};

/// The report's top-level keys: the same for every algorithm (a fact a family lacks is null).
const std::vector<Field<RunReport>>& report_fields();
/// The keys of each of `rounds`.
const std::vector<Field<RoundStats>>& round_fields();
/// The keys of each of `phases`.
const std::vector<Field<PhaseSummary>>& phase_fields();

enum class TraceColumnKind : std::uint8_t {
  Integer,    ///< a whole number
  Text,       ///< a word
  Addresses,  ///< the slot's merged requests, space separated in the CSV
};

/// One column of the trace: one row per pipeline slot, with the round the slot belongs to.
struct TraceColumn {
  const char* name;
  const char* unit;
  const char* meaning;
  TraceColumnKind kind;
  std::int64_t (*integer)(const SlotEvent&, const RoundStats&);         ///< Integer columns
  void (*text)(std::string& out, const SlotEvent&, const RoundStats&);  ///< Text columns: appends the cell
};
const std::vector<TraceColumn>& trace_columns();

/// The trace CSV's header line, the columns' names joined by commas.
const std::string& trace_header();

/// The tables `mmsim list --fields` prints: report, round, phase, trace.
const std::vector<std::string>& field_table_names();
/// One table in Markdown (| key | unit | meaning |, or | column | ... for the trace), as
/// docs/report.md holds it. Throws std::invalid_argument for a name not in field_table_names().
std::string field_table_markdown(std::string_view table);

}  // namespace mmsim
