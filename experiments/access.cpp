#include "experiments/access.h"

#include <algorithm>
#include <sstream>

#include "sim/engine.h"

namespace mmsim::experiments {

AccessResult simulate_access(const MachineParams& params, const std::vector<std::vector<Address>>& warps) {
  AccessResult r;
  r.machine = params;
  r.warps = warps;
  const Machine machine(params);
  const auto w = static_cast<std::size_t>(params.w);
  std::vector<Address> table(std::max<std::size_t>(warps.size(), 1) * w, kNoAddress);
  Address top = 0;
  for (std::size_t j = 0; j < warps.size(); ++j)
    for (std::size_t t = 0; t < warps[j].size(); ++t) {
      table[j * w + t] = warps[j][t];
      if (warps[j][t] != kNoAddress) top = std::max(top, warps[j][t]);
    }
  Engine engine(machine.view(), EngineOptions{Execution::RoundSynchronous, true});
  const Space space = params.model == ModelKind::Umm ? Space::Global : Space::Shared;
  const ArrayId m = engine.add_array({"m", space, top + 1});
  Kernel k;
  k.name = "access";
  k.threads_per_block = static_cast<std::uint32_t>(table.size());
  k.steps = {Access{"access", Op::Read, m, 0, [&table](const Thread& t) { return table[t.id()]; }}};
  engine.launch(k);
  r.time_units = engine.stats().time_units;
  r.trace = engine.trace();
  r.slots.assign(warps.size(), 0);
  for (const auto& e : r.trace) ++r.slots[e.warp];
  return r;
}

namespace {
std::string slot_label(const SlotEvent& e) {
  return "W" + std::to_string(e.warp) + static_cast<char>('a' + std::min(e.slot, 25));
}
}  // namespace

std::string diagram(const AccessResult& r) {
  std::ostringstream out;
  const int lat = r.machine.l;
  std::uint64_t total = 0;
  for (int s : r.slots) total += static_cast<std::uint64_t>(s);
  out << to_string(r.machine.model) << ", w = " << r.machine.w << ", latency " << lat << ": " << total
      << " slots, " << r.time_units << " time units\n\n";
  for (std::size_t j = 0; j < r.warps.size(); ++j) {
    out << "W(" << j << ") = <";
    for (std::size_t t = 0; t < r.warps[j].size(); ++t) {
      out << (t ? ", " : "");
      if (r.warps[j][t] == kNoAddress) out << "-";
      else out << "m[" << r.warps[j][t] << "]";
    }
    out << ">: " << r.slots[j] << " slot" << (r.slots[j] == 1 ? "" : "s") << "\n";
  }
  out << "\nslot  enters  completes  requests\n";
  for (const auto& e : r.trace) {
    std::string req;
    for (Address a : e.requests) req += (req.empty() ? "" : " ") + ("m[" + std::to_string(a) + "]");
    char line[96];
    std::snprintf(line, sizeof line, "%-5s %6lld  %9lld  ", slot_label(e).c_str(), static_cast<long long>(e.enter),
                  static_cast<long long>(e.complete));
    out << line << req << "\n";
  }
  out << "\ntime |";
  for (int s = 1; s <= lat; ++s) {
    char h[32];
    std::snprintf(h, sizeof h, " st%-3d", s);
    out << h;
  }
  out << "\n";
  for (TimeUnits t = 0; t < r.time_units; ++t) {
    char h[32];
    std::snprintf(h, sizeof h, "%4lld |", static_cast<long long>(t));
    out << h;
    for (int s = 1; s <= lat; ++s) {
      std::string cell = ".";
      for (const auto& e : r.trace)
        if (t - e.enter + 1 == s) cell = slot_label(e);
      char c[32];
      std::snprintf(c, sizeof c, " %-5s", cell.c_str());
      out << c;
    }
    out << "\n";
  }
  out << "(a slot enters at stage 1; its requests complete at the end of stage " << lat << ")\n";
  return out.str();
}

report::Json to_json(const AccessResult& r) {
  using report::Json;
  Json j = Json::object();
  j.set("model", to_string(r.machine.model)).set("w", r.machine.w).set("latency", r.machine.l);
  Json slots = Json::array();
  for (int s : r.slots) slots.push(s);
  j.set("slots", std::move(slots));
  j.set("time_units", r.time_units);
  Json trace = Json::array();
  for (const auto& e : r.trace) {
    Json req = Json::array();
    for (Address a : e.requests) req.push(static_cast<unsigned long long>(a));
    trace.push(Json::object()
                   .set("warp", static_cast<unsigned long long>(e.warp))
                   .set("slot", e.slot)
                   .set("enter", e.enter)
                   .set("complete", e.complete)
                   .set("requests", std::move(req)));
  }
  j.set("trace", std::move(trace));
  return j;
}

}  // namespace mmsim::experiments
