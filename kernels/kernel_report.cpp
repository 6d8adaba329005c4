#include "kernels/kernel_report.h"

#include <string>

namespace mmsim::kernels {

std::string machine_text(const MachineParams& m) {
  std::string s = std::string(to_string(m.model)) + ", w = " + std::to_string(m.w) + ", l = " + std::to_string(m.l);
  if (m.model == ModelKind::Hmm) s += ", L = " + std::to_string(m.L) + ", k = " + std::to_string(m.k);
  if (m.extensions.widths) s += ", widths";
  if (m.extensions.atomics) s += ", atomics";
  return s;
}

report::Table steps_table(const ProgramSpec& p, const ProgramRun& run) {
  report::Table t;
  t.title = "Kernel file " + p.source + ": " + std::to_string(run.stats.time_units) + " time units";
  t.header = {"machine: " + machine_text(p.machine)};
  t.columns = {
      "kernel",         "step",      "array", "memory", "op", "requests", "warps", "slots", "max_slots_of_a_warp",
      "bank_conflicts", "time_units"};
  for (const RoundStats& r : run.stats.rounds)
    t.add_row({r.kernel, r.name, r.array, std::string(to_string(r.memory)), std::string(to_string(r.op)),
               static_cast<long long>(r.requests), static_cast<long long>(r.warps), static_cast<long long>(r.slots),
               static_cast<long long>(r.max_congestion),
               r.memory == Space::Shared ? report::Cell(static_cast<long long>(r.bank_conflicts)) : report::Cell(),
               r.time_units ? report::Cell(static_cast<long long>(*r.time_units)) : report::Cell()});
  return t;
}

report::Json run_json(const ProgramSpec& p, const ProgramRun& run, bool with_arrays) {
  report::Json out = report::Json::object();
  out.set("source", p.source).set("machine", machine_text(p.machine)).set("time_units", run.stats.time_units);
  report::Json kernels = report::Json::array();
  for (const KernelStats& k : run.stats.kernels)
    kernels.push(report::Json::object().set("name", k.name).set("time_units", k.time_units));
  out.set("kernels", std::move(kernels));
  report::Json steps = report::Json::array();
  for (const RoundStats& r : run.stats.rounds) {
    report::Json s = report::Json::object();
    s.set("kernel", r.kernel).set("step", r.name).set("array", r.array).set("memory", to_string(r.memory));
    s.set("op", to_string(r.op)).set("requests", r.requests).set("warps", r.warps).set("slots", r.slots);
    s.set("max_slots_of_a_warp", r.max_congestion);
    s.set("bank_conflicts", r.memory == Space::Shared ? report::Json(r.bank_conflicts) : report::Json());
    s.set("time_units", r.time_units);
    steps.push(std::move(s));
  }
  out.set("steps", std::move(steps));
  if (with_arrays) {
    report::Json arrays = report::Json::object();
    for (const auto& [name, values] : run.arrays) {
      report::Json a = report::Json::array();
      for (Word v : values) a.push(static_cast<std::uint64_t>(v));
      arrays.set(name, std::move(a));
    }
    out.set("arrays", std::move(arrays));
  }
  return out;
}

}  // namespace mmsim::kernels
