#include "teaching/access.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "sim/engine.h"
#include "teaching/pipeline_text.h"

namespace mmsim::teaching {

namespace {

// Thread t of warp j: its id, its address and, when the access was posed through a layout, its cell.
ThreadRequest thread_request(std::uint64_t j, std::uint64_t w, std::size_t t, const std::vector<Address>& warp,
                             const std::vector<std::vector<std::int64_t>>& cells) {
  ThreadRequest r;
  r.thread = j * w + t;
  r.address = warp[t];
  if (r.thread < cells.size()) r.cell = cells[r.thread];
  return r;
}

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
    ThreadRequest r = thread_request(j, w, t, warp, cells);
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

// The annotation of a shaped access (element widths, vectors, atomics): the slot rules of
// models/real_accesses.h tell, thread by thread, the words or address groups, the phase and the
// slots; the engine's trace gave the same slot count (checked by the caller).
WarpView annotate_shaped(const MachineParams& m, std::uint64_t j, const std::vector<Address>& warp,
                         const std::vector<std::vector<std::int64_t>>& cells, const AccessShape& shape) {
  const auto w = static_cast<std::uint64_t>(m.w);
  const bool dmm = m.model == ModelKind::Dmm;
  WarpView v;
  std::vector<Address> full(w, kNoAddress);
  std::copy(warp.begin(), warp.end(), full.begin());
  std::map<std::pair<int, Address>, ThreadId> first;  // (phase, address) -> first thread
  if (dmm) {
    const WarpService sv = serve_in_banks(full, m.w, shape);
    v.phase_threads = sv.phase_threads;
    v.fused_pairs = sv.fused_pairs;
    v.phase_slots = sv.phase_slots;
    for (int s : sv.phase_slots) {
      v.slots += s;
      v.congestion = std::max(v.congestion, s);
    }
    std::vector<int> words_in_bank(w, 0);
    std::map<std::pair<int, std::uint64_t>, int> seen;  // (phase, word) -> requests
    for (std::size_t t = 0; t < warp.size(); ++t) {
      const ThreadService& ts = sv.threads[t];
      if (ts.phase < 0) continue;
      for (std::uint64_t word : ts.words)
        if (seen[{ts.phase, word}]++ == 0 || shape.serialises_in_banks()) ++words_in_bank[word % w];
    }
    for (std::uint64_t b = 0; b < w; ++b) v.per_unit.emplace_back(b, words_in_bank[b]);
  } else {
    const auto slots = shaped_group_slots(full, m.w, shape);
    v.slots = static_cast<int>(slots.size());
    v.congestion = v.slots;
  }
  const auto group_slots = dmm ? std::vector<std::vector<Address>>{} : shaped_group_slots(full, m.w, shape);
  std::map<Address, int> used;  // how many of an address's slots earlier threads took (serialised)
  for (std::size_t t = 0; t < warp.size(); ++t) {
    ThreadRequest r = thread_request(j, w, t, warp, cells);
    if (r.address != kNoAddress) {
      r.first_byte = r.address * shape.element_bytes;
      r.last_byte = r.first_byte + shape.bytes() - 1;
      if (dmm) {
        const ThreadService ts = serve_in_banks(full, m.w, shape).threads[t];
        r.words = ts.words;
        r.word_slots = ts.slots;
        r.phase = ts.phase;
      } else {
        const std::uint64_t group_bytes = 4 * w;
        for (std::uint64_t g = r.first_byte / group_bytes; g <= r.last_byte / group_bytes; ++g) r.words.push_back(g);
        // The k-th thread on an address of a serialised access takes the k-th slot holding it.
        int nth = shape.serialises_in_segments() ? used[r.address]++ : 0;
        for (std::size_t s = 0; s < group_slots.size(); ++s)
          if (std::find(group_slots[s].begin(), group_slots[s].end(), r.address) != group_slots[s].end() &&
              nth-- == 0) {
            r.word_slots.push_back(static_cast<int>(s));
            break;
          }
      }
      r.unit = r.words.empty() ? 0 : (dmm ? r.words[0] % w : r.words[0]);
      r.slot = r.word_slots.empty() ? -1 : r.word_slots[0];
      if (!shape.serialises_in_banks() || !dmm) {
        const auto [it, fresh] = first.emplace(std::pair{r.phase, r.address}, r.thread);
        if (!fresh && !(shape.serialises_in_segments() && !dmm)) r.merged_with = it->second;
      }
    }
    v.threads.push_back(std::move(r));
  }
  if (dmm)
    for (const auto& [b, n] : v.per_unit)
      if (n == v.congestion && n > 0) v.congested_banks.push_back(b);
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

bool plain_access(const AccessShape& shape, Op op) {
  return op != Op::Atomic && (shape.element_bytes == 4 || shape.element_bytes == 0) && shape.vector == 1;
}

AccessResult simulate_access(const MachineParams& params, const std::vector<std::vector<Address>>& warps,
                             const std::vector<std::vector<std::int64_t>>& cells) {
  return simulate_access(params, warps, cells, AccessShape{}, Op::Read);
}

AccessResult simulate_access(const MachineParams& given, const std::vector<std::vector<Address>>& warps,
                             const std::vector<std::vector<std::int64_t>>& cells, const AccessShape& shape, Op op) {
  const bool plain = plain_access(shape, op);
  MachineParams params = given;
  if (!plain) params.extensions = {.widths = true, .atomics = true};
  AccessResult r;
  r.shape = shape;
  r.op = op;
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
  const ArrayId m =
      engine.add_array({.name = "m", .space = space, .size = top + shape.vector, .element_bytes = shape.element_bytes});
  Kernel k;
  k.name = "access";
  k.threads_per_block = static_cast<std::uint32_t>(table.size());
  k.registers = 4;
  k.steps = {Access{.name = "access",
                    .op = op,
                    .array = m,
                    .reg = 0,
                    .address = [&table](const Thread& t) { return table[t.id()]; },
                    .vector = shape.vector,
                    .atomic = op == Op::Atomic ? shape.atomic : AtomicOp::None,
                    .result = -1}};
  engine.launch(k);
  r.time_units = engine.stats().time_units;
  r.trace = engine.trace();
  r.slots.assign(warps.size(), 0);
  for (const auto& e : r.trace) ++r.slots[e.warp];
  for (std::size_t j = 0; j < warps.size(); ++j)
    r.views.push_back(plain ? annotate(params, j, warps[j], r.trace, cells)
                            : annotate_shaped(params, j, warps[j], cells, shape));
  return r;
}

namespace {

// "W(j): N slots" opening warp j's part of a diagram; false (and the line ended) for a warp that
// requests nothing, whose part ends there.
bool warp_heading(std::ostringstream& out, std::size_t j, const WarpView& v) {
  out << "\nW(" << j << "): " << plural(v.slots, "slot", "slots");
  if (v.slots == 0) out << " (no thread requests: not dispatched)\n";
  return v.slots != 0;
}

// The warp's requests per bank (or address group), under the caption line.
void requests_table(std::ostringstream& out, const WarpView& v, const char* unit, const std::string& caption) {
  std::vector<std::pair<std::string, std::vector<std::string>>> counts{{unit, {}}, {"requests", {}}};
  for (const auto& [u, n] : v.per_unit) {
    counts[0].second.push_back(std::to_string(u));
    counts[1].second.push_back(std::to_string(n));
  }
  out << caption;
  thread_table(out, counts);
}

std::string list_text(const std::vector<std::uint64_t>& xs, std::uint64_t modulo = 0) {
  std::string s;
  for (auto x : xs) s += (s.empty() ? "" : ",") + std::to_string(modulo ? x % modulo : x);
  return s;
}

std::string op_text(const AccessResult& r) {
  if (r.op == Op::Atomic) return std::string("atomic ") + to_string(r.shape.atomic);
  return to_string(r.op);
}

// The text of a shaped access: what each thread asks for, where it lands and in which phase.
std::string shaped_diagram(const AccessResult& r) {
  std::ostringstream out;
  const bool dmm = r.machine.model == ModelKind::Dmm;
  const auto w = static_cast<std::uint64_t>(r.machine.w);
  long total = 0;
  for (int s : r.slots) total += s;
  out << (dmm ? "DMM" : "UMM") << ", w = " << r.machine.w << ", latency " << r.machine.l << ": "
      << plural(static_cast<long>(r.warps.size()), "warp", "warps") << ", " << plural(total, "slot", "slots") << ", "
      << plural(static_cast<long>(r.time_units), "time unit", "time units") << "\n";
  if (!r.posed.empty()) out << "access: " << r.posed << "\n";
  if (!r.layout.empty()) out << "layout: " << r.layout << "\n";
  out << op_text(r) << " of " << plural(r.shape.vector, "element", "elements") << " of " << r.shape.element_bytes
      << " bytes a thread (" << r.shape.bytes() << " bytes), with the widths and atomics extensions (docs/model.md)\n";
  if (dmm) {
    out << "bank of a byte = floor(byte / 4) mod " << w << "; requests to one 4-byte word merge"
        << (r.shape.serialises_in_banks() ? " (not for this atomic: each thread's update is a request of its own)" : "")
        << "; a phase costs the most requests in one bank\n";
  } else {
    out << "address group = floor(byte / " << 4 * w << "); a warp takes one slot per group its bytes touch"
        << (r.shape.serialises_in_segments() ? ", and an atomic as many per group as the most threads on one address"
                                             : "")
        << "\n";
  }
  for (std::size_t j = 0; j < r.views.size(); ++j) {
    const WarpView& v = r.views[j];
    if (!warp_heading(out, j, v)) continue;
    if (dmm && v.phase_slots.size() == 1 && !v.fused_pairs) {
      out << " (one phase: the whole warp)";
    } else if (dmm) {
      out << " in " << plural(static_cast<long>(v.phase_slots.size()), "phase", "phases") << " of " << v.phase_threads
          << " threads" << (v.fused_pairs ? " (each pair of threads asks for one address, so the pairs fuse)" : "")
          << ":";
      for (std::size_t p = 0; p < v.phase_slots.size(); ++p) {
        const std::uint64_t lo = j * w + p * v.phase_threads, hi = lo + v.phase_threads - 1;
        out << (p ? "," : "") << " T" << lo << "-T" << hi << " " << plural(v.phase_slots[p], "slot", "slots");
      }
    } else {
      out << ", one per address group" << (r.shape.serialises_in_segments() ? " and repeat on an address" : "");
    }
    out << "\n";
    std::vector<std::pair<std::string, std::vector<std::string>>> rows{
        {"thread", {}}, {"address", {}}, {"bytes", {}}, {dmm ? "words" : "groups", {}}};
    if (dmm) rows.push_back({"banks", {}});
    if (dmm) rows.push_back({"phase", {}});
    rows.push_back({"slots", {}});
    const bool numeric = v.slots > 26;
    for (const auto& t : v.threads) {
      const bool on = t.address != kNoAddress;
      std::size_t k = 0;
      rows[k++].second.push_back("T" + std::to_string(t.thread));
      rows[k++].second.push_back(on ? std::to_string(t.address) : "_");
      rows[k++].second.push_back(on ? std::to_string(t.first_byte) + "-" + std::to_string(t.last_byte) : "_");
      rows[k++].second.push_back(on ? list_text(t.words) : "_");
      if (dmm) rows[k++].second.push_back(on ? list_text(t.words, w) : "_");
      if (dmm) rows[k++].second.push_back(on ? std::to_string(t.phase) : "_");
      std::string s;
      for (int x : t.word_slots) {
        const std::string n = slot_name(x, numeric);
        if (s.find(n) == std::string::npos) s += (s.empty() ? "" : ",") + n;
      }
      rows[k++].second.push_back(on ? s : "_");
    }
    thread_table(out, rows);
    if (dmm) {
      requests_table(out, v, "bank", "  requests per bank, over the phases:\n");
    }
  }
  return out.str();
}

// The papers' view of a one-word read (KNI Fig. 2).
std::string plain_diagram(const AccessResult& r) {
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
    if (!warp_heading(out, j, v)) continue;
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
    requests_table(out, v, dmm ? "bank" : "group",
                   std::string("  distinct requests per ") + (dmm ? "bank" : "address group, in slot order") + ":\n");
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

// "T3: 4-7": the bytes of a thread's request.
std::string bytes_text(const AccessResult& r, Address a) {
  const std::uint64_t element = r.shape.element_bytes == 0 ? 4 : r.shape.element_bytes;
  return std::to_string(a * element) + "-" + std::to_string(a * element + element * r.shape.vector - 1);
}

// The sector view after the address groups (add_sectors).
std::string sectors_text(const AccessResult& r) {
  std::ostringstream out;
  const std::uint64_t element = r.shape.element_bytes == 0 ? 4 : r.shape.element_bytes;
  out << "\nIn the GPU's global memory (the coalescer of mmsim predict, not the papers' UMM): " << kSectorBytes
      << "-byte sectors, 128-byte lines\n"
      << "byte = address x " << element << ", " << element * r.shape.vector << " bytes a thread; sector = floor(byte / "
      << kSectorBytes << "), line = floor(byte / 128); a warp's request moves every sector its bytes touch";
  if (r.op == Op::Atomic) out << "; an atomic's threads on one address are served one by one";
  out << "\n";
  for (std::size_t j = 0; j < r.sectors.size(); ++j) {
    const WarpSectors& v = r.sectors[j];
    out << "\nW(" << j << ") sectors: ";
    if (v.sectors.empty()) {
      out << "none (no thread requests)\n";
      continue;
    }
    const std::uint64_t moved = v.sectors.size() * kSectorBytes;
    out << v.sectors.size() << " in " << plural(static_cast<long>(v.lines.size()), "line", "lines") << "; ideal "
        << v.ideal_sectors << " in " << plural(static_cast<long>(v.ideal_lines), "line", "lines") << " ("
        << v.bytes_asked << " bytes asked, " << moved << " moved: " << (200 * v.bytes_asked + moved) / (2 * moved)
        << "% used)" << (v.sectors.size() == v.ideal_sectors && v.lines.size() == v.ideal_lines ? ", coalesced" : "")
        << "\n";
    if (r.op == Op::Atomic)
      out << "  " << plural(static_cast<long>(v.transactions), "sector transaction", "sector transactions")
          << ": per sector, the most threads on one of its addresses\n";
    std::vector<std::pair<std::string, std::vector<std::string>>> rows{
        {"thread", {}}, {"address", {}}, {"bytes", {}}, {"sector", {}}};
    for (std::size_t t = 0; t < r.warps[j].size(); ++t) {
      const Address a = r.warps[j][t];
      const bool on = a != kNoAddress;
      rows[0].second.push_back("T" + std::to_string(j * static_cast<std::uint64_t>(r.machine.w) + t));
      rows[1].second.push_back(on ? std::to_string(a) : "_");
      rows[2].second.push_back(on ? bytes_text(r, a) : "_");
      rows[3].second.push_back(on ? list_text(v.thread_sectors[t]) : "_");
    }
    thread_table(out, rows);
    std::vector<std::pair<std::string, std::vector<std::string>>> moved_rows{
        {"sector", {}}, {"line", {}}, {"bytes asked", {}}};
    for (const SectorTouched& s : v.sectors) {
      moved_rows[0].second.push_back(std::to_string(s.sector));
      moved_rows[1].second.push_back(std::to_string(s.line));
      moved_rows[2].second.push_back(std::to_string(s.bytes_used));
    }
    out << "  sectors moved, in the order of their first thread:\n";
    thread_table(out, moved_rows);
  }
  return out.str();
}

// The sector view's keys of warp k (add_sectors), and each thread's sectors.
void sector_json(report::Json& wj, const WarpSectors& v) {
  using report::Json;
  const auto u = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
  Json touched = Json::array(), lines = Json::array();
  for (const SectorTouched& s : v.sectors) {
    Json threads = Json::array();
    for (ThreadId t : s.threads) threads.push(u(t));
    touched.push(Json::object()
                     .set("sector", u(s.sector))
                     .set("line", u(s.line))
                     .set("bytes_asked", u(s.bytes_used))
                     .set("threads", std::move(threads)));
  }
  for (std::uint64_t l : v.lines) lines.push(u(l));
  wj.set("sectors", u(v.sectors.size()))
      .set("lines", u(v.lines.size()))
      .set("ideal_sectors", u(v.ideal_sectors))
      .set("ideal_lines", u(v.ideal_lines))
      .set("bytes_asked", u(v.bytes_asked))
      .set("bytes_moved", u(v.sectors.size() * kSectorBytes))
      .set("transactions", u(v.transactions))
      .set("sectors_touched", std::move(touched))
      .set("lines_touched", std::move(lines));
}

}  // namespace

std::string diagram(const AccessResult& r) {
  std::string text = plain_access(r.shape, r.op) ? plain_diagram(r) : shaped_diagram(r);
  if (!r.sectors.empty()) text += sectors_text(r);
  return text;
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
  const bool shaped = !plain_access(r.shape, r.op);
  if (shaped)
    j.set("element_bytes", r.shape.element_bytes)
        .set("vector", r.shape.vector)
        .set("op", op_text(r))
        .set("extensions", Json::array().push("widths").push("atomics"));
  const bool sectors = !r.sectors.empty();
  if (sectors) j.set("sector_bytes", kSectorBytes).set("line_bytes", 128);
  Json warps = Json::array();
  for (std::size_t k = 0; k < r.views.size(); ++k) {
    const WarpView& v = r.views[k];
    Json wj = Json::object();
    wj.set("warp", static_cast<unsigned long long>(k)).set("slots", v.slots);
    if (shaped && dmm) {
      Json phases = Json::array();
      for (std::size_t p = 0; p < v.phase_slots.size(); ++p)
        phases.push(Json::object()
                        .set("first_thread", static_cast<unsigned long long>(k * r.machine.w + p * v.phase_threads))
                        .set("threads", static_cast<unsigned long long>(v.phase_threads))
                        .set("slots", v.phase_slots[p]));
      wj.set("phases", std::move(phases)).set("fused_pairs", v.fused_pairs);
    }
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
      if (shaped) {
        Json bytes = Json::array(), words = Json::array(), slots_of = Json::array();
        if (on)
          bytes.push(static_cast<unsigned long long>(t.first_byte)).push(static_cast<unsigned long long>(t.last_byte));
        for (auto x : t.words) words.push(static_cast<unsigned long long>(x));
        for (int x : t.word_slots) slots_of.push(x);
        tj.set("bytes", on ? std::move(bytes) : Json());
        tj.set(dmm ? "words" : "groups", std::move(words));
        if (dmm) tj.set("phase", on ? Json(t.phase) : Json());
        tj.set("word_slots", std::move(slots_of));
      }
      if (sectors) {
        Json mine = Json::array();
        const auto t_in_warp = static_cast<std::size_t>(t.thread - k * static_cast<std::uint64_t>(r.machine.w));
        for (auto x : r.sectors[k].thread_sectors.at(t_in_warp)) mine.push(static_cast<unsigned long long>(x));
        tj.set("sectors", on ? std::move(mine) : Json());
      }
      threads.push(std::move(tj));
    }
    if (sectors) sector_json(wj, r.sectors[k]);
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
