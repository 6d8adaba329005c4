#include "teaching/trace_file.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <unordered_map>

#include "algorithms/params.h"
#include "algorithms/run_output.h"
#include "algorithms/run_report_fields.h"
#include "io/input_error.h"
#include "io/quote.h"
#include "report/csv.h"

namespace mmsim::teaching {

namespace {

constexpr TimeUnits kMaxTime = TimeUnits{1} << 44;  // far beyond any run mmsim can make
constexpr int kMaxMemories = 1 << 20;

struct LineError {
  std::string why;
};

// The request list: addresses separated by single spaces inside one CSV field.
std::vector<std::string> split_requests(const std::string& field) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (true) {
    const auto at = field.find(' ', from);
    out.push_back(field.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) return out;
    from = at + 1;
  }
}

std::uint64_t number(const std::string& field, const char* column, std::uint64_t max) {
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (field.empty() || ec != std::errc{} || ptr != field.data() + field.size() || v > max)
    throw LineError{std::string(column) + " " + quote(field) + " is not a whole number" +
                    (ec == std::errc{} && ptr == field.data() + field.size() ? " in range" : "")};
  return v;
}

int memory_of(const std::string& field) {
  if (field == "global") return 0;
  if (field.rfind("shared", 0) == 0 && field.size() > 6) {
    const std::string d = field.substr(6);
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
    if (ec == std::errc{} && ptr == d.data() + d.size() && v < kMaxMemories) return 1 + static_cast<int>(v);
  }
  throw LineError{"memory " + quote(field) + " is neither global nor shared<d>"};
}

}  // namespace

bool TraceFile::overlapping() const {
  std::vector<std::pair<TimeUnits, TimeUnits>> spans;
  for (const auto& r : rounds) spans.emplace_back(r.first_enter, r.last_complete);
  std::sort(spans.begin(), spans.end());
  TimeUnits reach = -1;
  for (const auto& [a, b] : spans) {
    if (a <= reach) return true;
    reach = std::max(reach, b);
  }
  return false;
}

TraceFile read_trace(std::istream& in, const std::string& file) {
  TraceFile t;
  std::map<int, TraceRound> rounds;
  std::map<int, std::set<std::uint64_t>> warps;
  std::map<int, std::pair<int, int>> latency;       // memory -> (latency, line)
  std::unordered_map<std::uint64_t, int> entering;  // (memory, enter) -> line
  int n = 0;
  report::CsvReader records(in, file, {.max_record_chars = kMaxTraceLineChars});
  const auto header = report::split_csv_record(trace_header());
  report::CsvRecord record;
  try {
    while (true) {
      try {
        if (!records.next(record)) break;
      } catch (const report::CsvError& e) {
        n = static_cast<int>(e.line);
        throw LineError{e.why + (e.excerpt.empty() ? "" : ": " + quote(e.excerpt))};
      }
      n = static_cast<int>(record.line);
      const std::vector<std::string>& f = record.fields;
      if (n == 1) {
        if (f != header) throw LineError{"expected the header '" + trace_header() + "'"};
        continue;
      }
      if (record.blank()) throw LineError{"empty line"};
      if (f.size() != 11) throw LineError{std::to_string(f.size()) + " fields, expected 11"};
      SlotEvent e;
      e.round = static_cast<int>(number(f[0], "round", 1u << 30));
      // An atomic round (a kernel file's atomic step) is written "atomic", as to_string(Op) names it.
      if (f[4] != "read" && f[4] != "write" && f[4] != "atomic")
        throw LineError{"op " + quote(f[4]) + " is neither read, write nor atomic"};
      const Op op = f[4] == "read" ? Op::Read : f[4] == "write" ? Op::Write : Op::Atomic;
      e.memory = memory_of(f[5]);
      e.warp = number(f[6], "warp", std::uint64_t{1} << 48);
      e.slot = static_cast<int>(number(f[7], "slot", 1u << 30));
      e.enter = static_cast<TimeUnits>(number(f[8], "enter", kMaxTime));
      e.complete = static_cast<TimeUnits>(number(f[9], "complete", kMaxTime));
      if (e.complete < e.enter) throw LineError{"complete " + f[9] + " is before enter " + f[8]};
      for (const auto& a : split_requests(f[10])) e.requests.push_back(number(a, "request", ~std::uint64_t{0} - 1));
      // One latency per pipeline (docs/model.md "The pipelined MMU and its timing").
      const int lat = static_cast<int>(e.complete - e.enter + 1);
      const auto [it, fresh] = latency.emplace(e.memory, std::make_pair(lat, n));
      if (!fresh && it->second.first != lat)
        throw LineError{f[5] + " has latency " + std::to_string(lat) + " here but " + std::to_string(it->second.first) +
                        " on line " + std::to_string(it->second.second)};
      // At most one slot enters a pipeline per time unit.
      const auto key = (static_cast<std::uint64_t>(e.memory) << 44) | static_cast<std::uint64_t>(e.enter);
      const auto [at, first] = entering.emplace(key, n);
      if (!first)
        throw LineError{"a second slot enters " + f[5] + " at time unit " + f[8] + " (the first is on line " +
                        std::to_string(at->second) + ")"};
      auto [rit, new_round] = rounds.try_emplace(e.round);
      TraceRound& r = rit->second;
      if (new_round) {
        r.index = e.round, r.kernel = f[1], r.name = f[2], r.array = f[3], r.op = op, r.line = n;
        r.first_enter = e.enter, r.last_complete = e.complete;
      } else if (r.kernel != f[1] || r.name != f[2] || r.array != f[3] || r.op != op) {
        throw LineError{"round " + f[0] + " is " +
                        quote(r.kernel + "," + r.name + "," + r.array + "," + to_string(r.op), 60) + " on line " +
                        std::to_string(r.line) + " but " + quote(f[1] + "," + f[2] + "," + f[3] + "," + f[4], 60) +
                        " here"};
      }
      if (std::find(r.memories.begin(), r.memories.end(), e.memory) == r.memories.end()) {
        r.memories.push_back(e.memory);
        std::sort(r.memories.begin(), r.memories.end());
        if (r.memories.front() == 0 && r.memories.size() > 1)
          throw LineError{"round " + f[0] + " mixes the global memory and a shared memory"};
      }
      ++r.slots;
      warps[e.round].insert(e.warp);
      r.first_enter = std::min(r.first_enter, e.enter);
      r.last_complete = std::max(r.last_complete, e.complete);
      t.end = std::max(t.end, e.complete + 1);
      t.slots.push_back(std::move(e));
    }
    if (n == 0) throw LineError{"empty file: expected the header '" + trace_header() + "'"};
  } catch (const LineError& err) {
    throw InputError("trace " + quote(file, 60) + ": line " + std::to_string(std::max(n, 1)) + ": " + err.why);
  }
  if (in.bad()) throw InputError("trace " + quote(file, 60) + ": cannot read the file");
  for (auto& [index, r] : rounds) {
    r.warps = warps[index].size();
    t.rounds.push_back(std::move(r));
  }
  std::map<int, std::uint64_t> per_memory;
  for (const auto& e : t.slots) ++per_memory[e.memory];
  for (const auto& [memory, lat] : latency)
    t.lanes.push_back({memory, memory_name(memory), lat.first, per_memory[memory]});
  return t;
}

TraceFile trace_of(const RunStats& stats, std::span<const SlotEvent> slots) {
  TraceFile t;
  std::map<int, TraceRound> rounds;
  std::map<int, std::set<std::uint64_t>> warps;
  std::map<int, std::pair<int, std::uint64_t>> lanes;  // memory -> (latency, slots)
  for (const SlotEvent& e : slots) {
    const RoundStats& round = stats.rounds.at(static_cast<std::size_t>(e.round));
    auto [it, fresh] = rounds.try_emplace(e.round);
    TraceRound& r = it->second;
    if (fresh) {
      r.index = e.round, r.kernel = round.kernel, r.name = round.name, r.array = round.array, r.op = round.op;
      r.first_enter = e.enter, r.last_complete = e.complete;
    }
    if (std::find(r.memories.begin(), r.memories.end(), e.memory) == r.memories.end()) {
      r.memories.push_back(e.memory);
      std::sort(r.memories.begin(), r.memories.end());
    }
    ++r.slots;
    warps[e.round].insert(e.warp);
    r.first_enter = std::min(r.first_enter, e.enter);
    r.last_complete = std::max(r.last_complete, e.complete);
    t.end = std::max(t.end, e.complete + 1);
    auto& lane = lanes.try_emplace(e.memory, static_cast<int>(e.complete - e.enter + 1), 0).first->second;
    ++lane.second;
  }
  t.slots.assign(slots.begin(), slots.end());
  for (auto& [index, r] : rounds) {
    r.warps = warps[index].size();
    t.rounds.push_back(std::move(r));
  }
  for (const auto& [memory, lane] : lanes) t.lanes.push_back({memory, memory_name(memory), lane.first, lane.second});
  return t;
}

}  // namespace mmsim::teaching
