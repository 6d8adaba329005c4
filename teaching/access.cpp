#include "teaching/access.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "sim/engine.h"
#include "teaching/pipeline_text.h"

namespace mmsim::teaching {

namespace {

// The annotation of warp j from the engine's trace: which slot carries each thread's address is
// read off the slots the memory model made (MemoryModel::partition), never recomputed here.
WarpView annotate(const MachineParams& m, std::uint64_t j, const std::vector<Address>& warp,
                  const std::vector<SlotEvent>& trace, const std::vector<std::vector<std::int64_t>>& cells) {
  const auto w = static_cast<std::uint64_t>(m.w);
  const bool dmm = m.model == ModelKind::Dmm;
  WarpView v;
  std::map<Address, int> slot_of;
  for (const auto& e : trace)
    if (e.warp == j) {
      for (Address a : e.requests) slot_of[a] = e.slot;
      v.slots = std::max(v.slots, e.slot + 1);
    }
  std::map<Address, ThreadId> first;
  for (std::size_t t = 0; t < warp.size(); ++t) {
    ThreadRequest r;
    r.thread = j * w + t;
    r.address = warp[t];
    if (r.thread < cells.size()) r.cell = cells[r.thread];
    if (r.address != kNoAddress) {
      r.unit = dmm ? r.address % w : r.address / w;
      r.slot = slot_of.at(r.address);
      const auto [it, fresh] = first.emplace(r.address, r.thread);
      if (!fresh) r.merged_with = it->second;
    }
    v.threads.push_back(std::move(r));
  }
  // Distinct requests per bank (every bank) or per group (in slot order).
  if (dmm) {
    for (std::uint64_t b = 0; b < w; ++b) v.per_unit.emplace_back(b, 0);
    for (const auto& [a, t] : first) ++v.per_unit[a % w].second;
    for (const auto& [b, n] : v.per_unit) v.congestion = std::max(v.congestion, n);
    for (const auto& [b, n] : v.per_unit)
      if (n == v.congestion && n > 0) v.congested_banks.push_back(b);
  } else {
    std::vector<int> count(static_cast<std::size_t>(v.slots), 0);
    std::vector<std::uint64_t> group(static_cast<std::size_t>(v.slots), 0);
    for (const auto& [a, t] : first) {
      const auto s = static_cast<std::size_t>(slot_of.at(a));
      ++count[s];
      group[s] = a / w;
    }
    for (std::size_t s = 0; s < count.size(); ++s) v.per_unit.emplace_back(group[s], count[s]);
  }
  return v;
}

std::string cell_text(const std::vector<std::int64_t>& cell) {
  std::string s = "(";
  for (std::size_t k = 0; k < cell.size(); ++k) s += (k ? "," : "") + std::to_string(cell[k]);
  return s + ")";
}

// Rows of a table, `label` then one column per thread, wrapped so that a line stays within about
// 100 characters.
void thread_table(std::ostringstream& out, const std::vector<std::pair<std::string, std::vector<std::string>>>& rows) {
  std::size_t label = 0, col = 1, n = 0;
  for (const auto& [name, cells] : rows) {
    label = std::max(label, name.size());
    n = std::max(n, cells.size());
    for (const auto& c : cells) col = std::max(col, c.size());
  }
  col += 1;
  const std::size_t per_line = std::max<std::size_t>(1, (100 - label - 2) / col);
  for (std::size_t from = 0; from < n; from += per_line) {
    if (from) out << "\n";
    for (const auto& [name, cells] : rows) {
      std::string line = "  " + name + std::string(label - name.size(), ' ');
      for (std::size_t t = from; t < std::min(n, from + per_line); ++t) {
        const std::string c = t < cells.size() ? cells[t] : "";
        line += std::string(col - c.size(), ' ') + c;
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << "\n";
    }
  }
}

// "T1, T3-T5": thread indices, consecutive runs shortened.
std::string thread_ranges(const std::vector<ThreadId>& ts) {
  std::string out;
  for (std::size_t a = 0; a < ts.size();) {
    std::size_t b = a;
    while (b + 1 < ts.size() && ts[b + 1] == ts[b] + 1) ++b;
    out += (out.empty() ? "" : ", ") + ("T" + std::to_string(ts[a]));
    if (b > a) out += (b == a + 1 ? ", T" : "-T") + std::to_string(ts[b]);
    a = b + 1;
  }
  return out;
}

std::string plural(long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string slot_name(int slot, bool numeric) {
  if (numeric || slot >= 26) return std::to_string(slot);
  return std::string(1, static_cast<char>('a' + slot));
}

AccessResult simulate_access(const MachineParams& params, const std::vector<std::vector<Address>>& warps,
                             const std::vector<std::vector<std::int64_t>>& cells) {
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
  for (std::size_t j = 0; j < warps.size(); ++j) r.views.push_back(annotate(params, j, warps[j], r.trace, cells));
  return r;
}

std::string diagram(const AccessResult& r) {
  std::ostringstream out;
  const int lat = r.machine.l;
  const bool dmm = r.machine.model == ModelKind::Dmm;
  const bool numeric = std::any_of(r.slots.begin(), r.slots.end(), [](int s) { return s > 26; });
  long total = 0;
  for (int s : r.slots) total += s;
  out << (dmm ? "DMM" : "UMM") << ", w = " << r.machine.w << ", latency " << lat << ": "
      << plural(static_cast<long>(r.warps.size()), "warp", "warps") << ", " << plural(total, "slot", "slots") << ", "
      << plural(static_cast<long>(r.time_units), "time unit", "time units") << "\n";
  if (!r.posed.empty()) out << "access: " << r.posed << "\n";
  if (!r.layout.empty()) out << "layout: " << r.layout << "\n";
  out << (dmm ? "bank = address mod " : "address group = floor(address / ") << r.machine.w << (dmm ? "" : ")")
      << (dmm ? "; a warp takes as many slots as its congestion, the most distinct addresses in one bank (KNI Sect. 2)"
              : "; a warp takes one slot per address group it touches (KNI Sect. 2)")
      << "\n";

  for (std::size_t j = 0; j < r.views.size(); ++j) {
    const WarpView& v = r.views[j];
    out << "\nW(" << j << "): " << plural(v.slots, "slot", "slots");
    if (v.slots == 0) {
      out << " (no thread requests: not dispatched)\n";
      continue;
    }
    if (dmm) {
      out << ", congestion " << v.congestion;
      if (v.congestion == 1) {
        out << " (conflict-free)";
      } else {
        out << ", set by bank" << (v.congested_banks.size() > 1 ? "s" : "");
        for (std::size_t b = 0; b < v.congested_banks.size(); ++b) out << (b ? ", " : " ") << v.congested_banks[b];
        if (v.congested_banks.size() == 1) {  // name the addresses that queue in it
          std::vector<Address> in_bank;
          for (const auto& t : v.threads)
            if (t.address != kNoAddress && !t.merged_with && t.unit == v.congested_banks[0])
              in_bank.push_back(t.address);
          const auto m = [](Address a) { return "m[" + std::to_string(a) + "]"; };
          out << " (";
          if (in_bank.size() <= 6) {
            for (std::size_t k = 0; k < in_bank.size(); ++k) out << (k ? ", " : "") << m(in_bank[k]);
          } else {  // a long list, shortened where it says so
            out << m(in_bank[0]) << ", " << m(in_bank[1]) << ", " << m(in_bank[2]) << ", ..., " << m(in_bank.back())
                << ": " << in_bank.size() << " addresses";
          }
          out << ")";
        }
      }
    } else {
      out << ", one per address group" << (v.slots == 1 ? " (coalesced)" : "");
    }
    out << "\n";
    std::vector<std::pair<std::string, std::vector<std::string>>> rows(4);
    rows[0].first = "thread";
    rows[1].first = "address";
    rows[2].first = dmm ? "bank" : "group";
    rows[3].first = "slot";
    const bool any_cell =
        std::any_of(v.threads.begin(), v.threads.end(), [](const auto& t) { return !t.cell.empty(); });
    const bool any_merge =
        std::any_of(v.threads.begin(), v.threads.end(), [](const auto& t) { return t.merged_with.has_value(); });
    if (any_cell) rows.insert(rows.begin() + 1, {"cell", {}});
    if (any_merge) rows.push_back({"merged", {}});
    for (const auto& t : v.threads) {
      std::size_t k = 0;
      rows[k++].second.push_back("T" + std::to_string(t.thread));
      if (any_cell) rows[k++].second.push_back(t.cell.empty() || t.address == kNoAddress ? "_" : cell_text(t.cell));
      const bool on = t.address != kNoAddress;
      rows[k++].second.push_back(on ? std::to_string(t.address) : "_");
      rows[k++].second.push_back(on ? std::to_string(t.unit) : "_");
      rows[k++].second.push_back(on ? slot_name(t.slot, numeric) : "_");
      if (any_merge) rows[k++].second.push_back(t.merged_with ? "=T" + std::to_string(*t.merged_with) : "");
    }
    thread_table(out, rows);
    std::vector<std::pair<std::string, std::vector<std::string>>> counts{{dmm ? "bank" : "group", {}},
                                                                         {"requests", {}}};
    for (const auto& [u, n] : v.per_unit) {
      counts[0].second.push_back(std::to_string(u));
      counts[1].second.push_back(std::to_string(n));
    }
    out << "  distinct requests per " << (dmm ? "bank" : "address group, in slot order") << ":\n";
    thread_table(out, counts);
    // One line per merged address: the threads that ask for it after the first one.
    std::map<ThreadId, std::vector<ThreadId>> merged;
    for (const auto& t : v.threads)
      if (t.merged_with) merged[*t.merged_with].push_back(t.thread);
    for (const auto& [first, later] : merged) {
      const Address a = v.threads[first - v.threads.front().thread].address;
      out << "  " << thread_ranges(later) << (later.size() == 1 ? " asks" : " ask") << " for m[" << a << "] as T"
          << first << " does: " << later.size() + 1 << " requests merge into one\n";
    }
  }

  out << "\n"
      << (dmm ? "Slot s of a warp carries the s-th distinct address of every bank, in thread order"
              : "Slot s of a warp carries every address of its s-th address group, groups in the order of their first "
                "thread")
      << "; the requests below keep the threads' order.\n";
  out << "slot   enters  completes  requests\n";
  for (const auto& e : r.trace) {
    const WarpView& v = r.views.at(e.warp);
    std::string req;
    for (const auto& t : v.threads)
      if (t.slot == e.slot && !t.merged_with)
        req += (req.empty() ? "" : " ") + ("m[" + std::to_string(t.address) + "]");
    char line[96];
    const std::string name = "W" + std::to_string(e.warp) + (numeric ? "." : "") + slot_name(e.slot, numeric);
    std::snprintf(line, sizeof line, "%-6s %6lld  %9lld  ", name.c_str(), static_cast<long long>(e.enter),
                  static_cast<long long>(e.complete));
    out << line << req << "\n";
  }
  std::string why;
  const auto grid = stage_grid(
      r.trace, {{dmm ? 1 : 0, lat, dmm ? "shared0" : "global"}},
      [numeric](const SlotEvent& e) {
        return "W" + std::to_string(e.warp) + (numeric ? "." : "") + slot_name(e.slot, numeric);
      },
      GridLimits{}, &why);
  if (grid) {
    out << "\n" << *grid << "(a slot enters at stage 1; its requests complete at the end of stage " << lat << ")\n";
  } else if (!r.trace.empty()) {
    out << "\n(pipeline diagram left out: " << why << "; the slot table above has every slot)\n";
  }
  return out.str();
}

report::Json to_json(const AccessResult& r) {
  using report::Json;
  const bool dmm = r.machine.model == ModelKind::Dmm;
  Json j = Json::object();
  j.set("model", to_string(r.machine.model)).set("w", r.machine.w).set("latency", r.machine.l);
  j.set("posed", r.posed.empty() ? Json() : Json(r.posed));
  j.set("layout", r.layout.empty() ? Json() : Json(r.layout));
  Json slots = Json::array();
  for (int s : r.slots) slots.push(s);
  j.set("slots", std::move(slots));
  j.set("time_units", r.time_units);
  Json warps = Json::array();
  for (std::size_t k = 0; k < r.views.size(); ++k) {
    const WarpView& v = r.views[k];
    Json wj = Json::object();
    wj.set("warp", static_cast<unsigned long long>(k)).set("slots", v.slots);
    if (dmm) {
      wj.set("congestion", v.congestion);
      Json banks = Json::array();
      for (auto b : v.congested_banks) banks.push(static_cast<unsigned long long>(b));
      wj.set("congested_banks", std::move(banks));
      Json per = Json::array();
      for (const auto& [b, n] : v.per_unit) per.push(n);
      wj.set("requests_per_bank", std::move(per));
    } else {
      Json per = Json::array();
      for (const auto& [g, n] : v.per_unit)
        per.push(Json::object().set("group", static_cast<unsigned long long>(g)).set("requests", n));
      wj.set("requests_per_group", std::move(per));
    }
    Json threads = Json::array();
    for (const auto& t : v.threads) {
      const bool on = t.address != kNoAddress;
      Json tj = Json::object();
      tj.set("thread", static_cast<unsigned long long>(t.thread));
      if (!t.cell.empty()) {
        Json c = Json::array();
        for (auto x : t.cell) c.push(static_cast<long long>(x));
        tj.set("cell", on ? std::move(c) : Json());
      }
      tj.set("address", on ? Json(static_cast<unsigned long long>(t.address)) : Json());
      tj.set(dmm ? "bank" : "group", on ? Json(static_cast<unsigned long long>(t.unit)) : Json());
      tj.set("slot", on ? Json(t.slot) : Json());
      tj.set("merged_with", t.merged_with ? Json(static_cast<unsigned long long>(*t.merged_with)) : Json());
      threads.push(std::move(tj));
    }
    wj.set("threads", std::move(threads));
    warps.push(std::move(wj));
  }
  j.set("warps", std::move(warps));
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

}  // namespace mmsim::teaching
