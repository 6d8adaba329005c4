#include "algorithms/run_report_fields.h"

#include <stdexcept>

#include "algorithms/run_output.h"

namespace mmsim {

namespace {

using report::Json;
using ull = unsigned long long;

const char* execution_name(Execution e) { return e == Execution::Asynchronous ? "asynchronous" : "round-synchronous"; }

// A parameter's value as the report writes it: a number, a flag, a word; a matrix by its source.
Json value_json(const ParamValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return Json(static_cast<long long>(*i));
  if (const auto* b = std::get_if<bool>(&v)) return Json(*b);
  return Json(display(v));
}

Json figures_json(const std::vector<ReportFigure>& figures) {
  Json out = Json::object();
  for (const auto& f : figures) {
    if (const auto* i = std::get_if<std::int64_t>(&f.value))
      out.set(f.name, static_cast<long long>(*i));
    else if (const auto* d = std::get_if<double>(&f.value))
      out.set(f.name, *d);
    else
      out.set(f.name, std::get<std::string>(f.value));
  }
  return out;
}

template <typename Record>
Json object_of(const std::vector<Field<Record>>& fields, const Record& x) {
  Json j = Json::object();
  for (const auto& f : fields) j.set(f.name, f.json(x));
  return j;
}

std::optional<ull> wide(const std::optional<std::uint64_t>& v) {
  return v ? std::optional<ull>(static_cast<ull>(*v)) : std::nullopt;
}

}  // namespace

const std::vector<Field<RunReport>>& report_fields() {
  static const std::vector<Field<RunReport>> fields{
      {"algorithm", "", "the registry entry's name", [](const RunReport& r) { return Json(r.algorithm); }},
      {"family", "", "its family: offline-permutation, layouts, bmmc, sorting, enumeration",
       [](const RunReport& r) { return Json(r.family); }},
      {"paper", "", "reference key and section (docs/references.md)", [](const RunReport& r) { return Json(r.paper); }},
      {"machine", "", "`model` (dmm, umm, hmm), `w`, `l`, and for the HMM `L` and `k`, as run",
       [](const RunReport& r) { return to_json(r.machine); }},
      {"parameters", "", "every parameter the algorithm declares, as run (defaults included)",
       [](const RunReport& r) {
         Json params = Json::object();
         for (const auto& [name, v] : r.parameters.items()) params.set(name, value_json(v));
         return params;
       }},
      {"execution", "", "`round-synchronous` or `asynchronous`",
       [](const RunReport& r) { return Json(execution_name(r.execution)); }},
      {"n", "elements", "the elements the run moves or sorts",
       [](const RunReport& r) { return Json(static_cast<ull>(r.n)); }},
      {"permutation", "", "the permutation P the data moves along, where there is one; else null",
       [](const RunReport& r) { return Json(r.permutation); }},
      {"time_units", "time units", "the simulated time", [](const RunReport& r) { return Json(r.stats.time_units); }},
      {"predicted_time_units", "time units",
       "the paper's closed form for this machine and input, or null where there is none",
       [](const RunReport& r) { return Json(r.predicted_time_units); }},
      {"distribution", "address groups", "D_w(P) (KNI Sect. 4), where P is known; else null",
       [](const RunReport& r) { return Json(wide(r.distribution)); }},
      {"distribution_inverse", "address groups", "D_w(P^-1), where P is known; else null",
       [](const RunReport& r) { return Json(wide(r.distribution_inverse)); }},
      {"rounds", "", "every memory instruction, in order: one object each, with the keys of the round table",
       [](const RunReport& r) {
         Json rounds = Json::array();
         for (const auto& x : r.stats.rounds) rounds.push(to_json(x));
         return rounds;
       }},
      {"phases", "", "consecutive launches of one kernel name: one object each, with the keys of the phase table",
       [](const RunReport& r) {
         Json phases = Json::array();
         for (const auto& p : phases_of(r.stats)) phases.push(object_of(phase_fields(), p));
         return phases;
       }},
      {"figures", "",
       "the family's own named figures (numbers or text), e.g. `schedule_seconds`, `cac_violations`, `method`, "
       "TLB `misses`",
       [](const RunReport& r) { return figures_json(r.figures); }},
      {"correct", "", "whether the output was checked cell by cell and found right",
       [](const RunReport& r) { return Json(r.correct); }},
  };
  return fields;
}

const std::vector<Field<RoundStats>>& round_fields() {
  static const std::vector<Field<RoundStats>> fields{
      {"kernel", "", "the kernel the instruction belongs to", [](const RoundStats& x) { return Json(x.kernel); }},
      {"name", "", "the instruction's name", [](const RoundStats& x) { return Json(x.name); }},
      {"array", "", "the array the instruction reads or writes", [](const RoundStats& x) { return Json(x.array); }},
      {"memory", "", "`shared` or `global`", [](const RoundStats& x) { return Json(to_string(x.memory)); }},
      {"op", "", "`read` or `write`", [](const RoundStats& x) { return Json(to_string(x.op)); }},
      {"warps", "warps", "warps dispatched with at least one request",
       [](const RoundStats& x) { return Json(static_cast<ull>(x.warps)); }},
      {"requests", "requests", "thread requests, before merging",
       [](const RoundStats& x) { return Json(static_cast<ull>(x.requests)); }},
      {"slots", "slots", "pipeline slots over all warps",
       [](const RoundStats& x) { return Json(static_cast<ull>(x.slots)); }},
      {"time_units", "time units", "the round's time; null in asynchronous runs, whose rounds overlap",
       [](const RoundStats& x) { return Json(x.time_units); }},
      {"max_congestion", "slots",
       "the largest slot count of one warp: the DMM congestion for shared memory, the number of address groups "
       "for global memory",
       [](const RoundStats& x) { return Json(x.max_congestion); }},
      {"bank_conflicts", "wavefronts", "shared memory: sum over warps of (slots - 1); 0 for global rounds",
       [](const RoundStats& x) { return Json(static_cast<ull>(x.bank_conflicts)); }},
      {"extra_bank_requests", "requests",
       "shared memory: sum over warps and banks of (distinct addresses in the bank - 1); 0 for global rounds",
       [](const RoundStats& x) { return Json(static_cast<ull>(x.extra_bank_requests)); }},
  };
  return fields;
}

const std::vector<Field<PhaseSummary>>& phase_fields() {
  static const std::vector<Field<PhaseSummary>> fields{
      {"name", "", "the kernel's name", [](const PhaseSummary& p) { return Json(p.name); }},
      {"launches", "launches", "consecutive launches of it",
       [](const PhaseSummary& p) { return Json(static_cast<ull>(p.launches)); }},
      {"rounds", "rounds", "their rounds", [](const PhaseSummary& p) { return Json(static_cast<ull>(p.rounds)); }},
      {"time_units", "time units", "their time", [](const PhaseSummary& p) { return Json(p.time_units); }},
  };
  return fields;
}

const std::vector<TraceColumn>& trace_columns() {
  using K = TraceColumnKind;
  static const std::vector<TraceColumn> columns{
      {"round", "", "index into the report's `rounds`", K::Integer,
       [](const SlotEvent& e, const RoundStats&) { return std::int64_t{e.round}; }, nullptr},
      {"kernel", "", "the kernel", K::Text, nullptr,
       [](std::string& out, const SlotEvent&, const RoundStats& r) { out += r.kernel; }},
      {"name", "", "the instruction's name", K::Text, nullptr,
       [](std::string& out, const SlotEvent&, const RoundStats& r) { out += r.name; }},
      {"array", "", "the array the instruction reads or writes; every address of the line is in it", K::Text, nullptr,
       [](std::string& out, const SlotEvent&, const RoundStats& r) { out += r.array; }},
      {"op", "", "`read` or `write`", K::Text, nullptr,
       [](std::string& out, const SlotEvent&, const RoundStats& r) { out += to_string(r.op); }},
      {"memory", "",
       "`global` (the UMM's memory, the HMM's global memory) or `shared<d>` (the shared memory of DMM d; a lone DMM "
       "is `shared0`)",
       K::Text, nullptr, [](std::string& out, const SlotEvent& e, const RoundStats&) { out += memory_name(e.memory); }},
      {"warp", "", "the warp's index over its launch", K::Integer,
       [](const SlotEvent& e, const RoundStats&) { return static_cast<std::int64_t>(e.warp); }, nullptr},
      {"slot", "", "the slot's index within the warp's access (0 .. slots - 1)", K::Integer,
       [](const SlotEvent& e, const RoundStats&) { return std::int64_t{e.slot}; }, nullptr},
      {"enter", "time unit", "the time unit the slot enters the pipeline", K::Integer,
       [](const SlotEvent& e, const RoundStats&) { return std::int64_t{e.enter}; }, nullptr},
      {"complete", "time unit", "the time unit at whose end its requests complete (enter + latency - 1)", K::Integer,
       [](const SlotEvent& e, const RoundStats&) { return std::int64_t{e.complete}; }, nullptr},
      {"requests", "addresses", "the merged addresses the slot carries, space separated", K::Addresses, nullptr,
       nullptr},
  };
  return columns;
}

const std::string& trace_header() {
  static const std::string header = [] {
    std::string h;
    for (const auto& c : trace_columns()) h += (h.empty() ? "" : ",") + std::string(c.name);
    return h;
  }();
  return header;
}

const std::vector<std::string>& field_table_names() {
  static const std::vector<std::string> names{"report", "round", "phase", "trace"};
  return names;
}

namespace {

std::string row(const char* name, const char* unit, const char* meaning) {
  return std::string("| `") + name + "` | " + unit + (*unit ? " | " : "| ") + meaning + " |\n";
}

template <typename Record>
std::string markdown(const std::vector<Field<Record>>& fields) {
  std::string out = "| key | unit | meaning |\n|---|---|---|\n";
  for (const auto& f : fields) out += row(f.name, f.unit, f.meaning);
  return out;
}

}  // namespace

std::string field_table_markdown(std::string_view table) {
  if (table == "report") return markdown(report_fields());
  if (table == "round") return markdown(round_fields());
  if (table == "phase") return markdown(phase_fields());
  if (table == "trace") {
    std::string out = "| column | unit | meaning |\n|---|---|---|\n";
    for (const auto& c : trace_columns()) out += row(c.name, c.unit, c.meaning);
    return out;
  }
  throw std::invalid_argument("no field table '" + std::string(table) + "'");
}

}  // namespace mmsim
