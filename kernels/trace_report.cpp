#include "kernels/trace_report.h"

#include <map>
#include <tuple>

namespace mmsim::kernels {

namespace {

std::string machine_words(const MachineParams& m) {
  return std::string(to_string(m.model)) + ", w = " + std::to_string(m.w) + ", l = " + std::to_string(m.l) +
         (m.model == ModelKind::Hmm ? ", L = " + std::to_string(m.L) + ", k = " + std::to_string(m.k) : "");
}

double per_warp(const LineStats& s) {
  return s.warps ? static_cast<double>(s.slots) / static_cast<double>(s.warps) : 0.0;
}

}  // namespace

std::vector<std::string> line_columns(std::vector<std::string> counts) {
  std::vector<std::string> c = {"kernel", "line", "array", "memory", "op", "steps"};
  c.insert(c.end(), counts.begin(), counts.end());
  return c;
}

std::vector<LineStats> line_stats(const RunStats& stats) {
  std::vector<LineStats> out;
  std::map<std::tuple<std::string, std::string, std::string, int>, std::size_t> at;
  for (const RoundStats& r : stats.rounds) {
    const auto key = std::make_tuple(r.kernel, r.name, r.array, static_cast<int>(r.op));
    auto it = at.find(key);
    if (it == at.end()) {
      it = at.emplace(key, out.size()).first;
      LineStats s;
      s.kernel = r.kernel;
      s.line = r.name;
      s.array = r.array;
      s.memory = r.memory;
      s.op = r.op;
      out.push_back(std::move(s));
    }
    LineStats& s = out[it->second];
    ++s.steps;
    s.requests += r.requests;
    s.warps += r.warps;
    s.slots += r.slots;
    s.bank_conflicts += r.bank_conflicts;
    s.max_congestion = std::max(s.max_congestion, r.max_congestion);
    s.time_units += r.time_units.value_or(0);
  }
  return out;
}

report::Table lines_table(const ProgramSpec& p, const ProgramRun& run) {
  report::Table t;
  t.title = "Trace " + p.source + ": " + std::to_string(run.stats.time_units) + " time units";
  t.header = {"machine: " + machine_words(p.machine)};
  t.columns = line_columns(
      {"requests", "warps", "slots", "slots_per_warp", "max_slots_of_a_warp", "bank_conflicts", "time_units"});
  for (const LineStats& s : line_stats(run.stats))
    t.add_row({s.kernel, s.line, s.array, std::string(to_string(s.memory)), std::string(to_string(s.op)),
               static_cast<long long>(s.steps), static_cast<long long>(s.requests), static_cast<long long>(s.warps),
               static_cast<long long>(s.slots), per_warp(s), static_cast<long long>(s.max_congestion),
               s.memory == Space::Shared ? report::Cell(static_cast<long long>(s.bank_conflicts)) : report::Cell(),
               static_cast<long long>(s.time_units)});
  return t;
}

report::Json lines_json(const ProgramSpec& p, const ProgramRun& run) {
  report::Json out = report::Json::object();
  out.set("source", p.source).set("machine", machine_words(p.machine)).set("time_units", run.stats.time_units);
  report::Json lines = report::Json::array();
  for (const LineStats& s : line_stats(run.stats)) {
    report::Json j = report::Json::object();
    j.set("kernel", s.kernel).set("line", s.line).set("array", s.array).set("memory", to_string(s.memory));
    j.set("op", to_string(s.op)).set("steps", s.steps).set("requests", s.requests).set("warps", s.warps);
    j.set("slots", s.slots).set("slots_per_warp", per_warp(s)).set("max_slots_of_a_warp", s.max_congestion);
    j.set("bank_conflicts", s.memory == Space::Shared ? report::Json(s.bank_conflicts) : report::Json());
    j.set("time_units", s.time_units);
    lines.push(std::move(j));
  }
  out.set("lines", std::move(lines));
  return out;
}

}  // namespace mmsim::kernels
