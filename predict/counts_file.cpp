#include "predict/counts_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "io/input_file.h"

namespace mmsim::predict {

namespace {

// Every counter of the memory, by name. The sizes below are tripwires: a field added to
// GpuMemoryStats or GpuMemoryParams fails the build here until it is named in the file, so that
// no counter is ever left out of it (and read back as zero).
using MemoryCounter = std::uint64_t GpuMemoryStats::*;
const std::vector<std::pair<std::string, MemoryCounter>>& memory_counters() {
  static const std::vector<std::pair<std::string, MemoryCounter>> all{
      {"accesses", &GpuMemoryStats::accesses},
      {"umm_slots", &GpuMemoryStats::umm_groups},
      {"l2_transactions", &GpuMemoryStats::lines},
      {"read_sectors", &GpuMemoryStats::read_sectors},
      {"write_sectors", &GpuMemoryStats::write_sectors},
      {"l2_hits", &GpuMemoryStats::hits},
      {"dram_reads", &GpuMemoryStats::dram_reads},
      {"dram_fills", &GpuMemoryStats::fills},
      {"dram_writes", &GpuMemoryStats::dram_writes},
      {"dram_activations", &GpuMemoryStats::activations},
      {"dram_read_activations", &GpuMemoryStats::read_activations},
      {"dram_write_activations", &GpuMemoryStats::write_activations},
      {"dram_rmw_activations", &GpuMemoryStats::rmw_activations},
  };
  return all;
}
static_assert(sizeof(GpuMemoryStats) == 13 * sizeof(std::uint64_t),
              "GpuMemoryStats changed: name every counter in memory_counters()");
static_assert(sizeof(GpuMemoryParams) == 40, "GpuMemoryParams changed: name every field in machine_fields()");

constexpr const char* kRunColumns[] = {"algorithm", "permutation", "type", "n"};
constexpr const char* kCorrectColumn = "correct";
// A machine column added after files were written, with the value those files' runs had.
constexpr const char* kWriteRowsColumn = "dram_write_rows";
constexpr std::uint64_t kWriteRowsBefore = 65536;
// Counters added after files were written. A file without them is still read: the value is
// implied exactly where a run merged no write-back (0) or every one (all the rows its
// write-backs opened); a row where neither holds is left out, so that its run is simulated again.
constexpr const char* kRmwColumns[] = {"dram_rmw_activations", "line_dram_rmw_activations"};

bool added_later(const std::string& name) {
  return name == kWriteRowsColumn ||
         std::find(std::begin(kRmwColumns), std::end(kRmwColumns), name) != std::end(kRmwColumns);
}

// The rows opened by merged write-backs, from the counts of a file that lacks them; nullopt when
// they are not implied.
std::optional<std::uint64_t> implied_rmw_activations(const GpuMemoryStats& s) {
  if (s.fills == 0) return 0;
  if (s.fills == s.dram_writes) return s.write_activations;
  return std::nullopt;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',')
      out.emplace_back();
    else if (c != '\r')
      out.back() += c;
  }
  return out;
}

std::vector<std::string> machine_names() {
  std::vector<std::string> out;
  for (const auto& [name, value] : machine_fields(GpuProfile{}, 4)) out.push_back(name);
  return out;
}

std::string list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " ") + n;
  return out.empty() ? "none" : out;
}

}  // namespace

MachineFields machine_fields(const GpuProfile& profile, std::uint32_t element_bytes) {
  const MachineParams& m = profile.machine;
  const GpuMemoryParams& g = profile.memory;
  const auto u = [](int v) { return static_cast<std::uint64_t>(v); };
  return {{"w", u(m.w)},
          {"l", u(m.l)},
          {"L", u(m.L)},
          {"k", u(m.k)},
          {"sector_bytes", g.sector_bytes},
          {"element_bytes", element_bytes},
          {"cache_bytes", g.cache_bytes},
          {"cache_ways", g.cache_ways},
          {"cache_line_bytes", g.cache_line_bytes},
          {"dram_row_bytes", g.dram_row_bytes},
          {"dram_banks", g.dram_banks},
          {"dram_write_rows", g.dram_write_rows}};
}

std::vector<std::string> counter_names() {
  std::vector<std::string> out{"launches", "shared_time_units"};
  for (const auto& [name, member] : memory_counters()) out.push_back(name);
  // The L2 of 128-byte lines that runs beside the sector cache (RunCounts::line_memory).
  for (const auto& [name, member] : memory_counters()) out.push_back("line_" + name);
  return out;
}

std::vector<std::uint64_t> counter_values(const RunCounts& c) {
  std::vector<std::uint64_t> out{c.launches, c.shared_time_units};
  for (const auto& [name, member] : memory_counters()) out.push_back(c.memory.*member);
  for (const auto& [name, member] : memory_counters()) out.push_back(c.line_memory.*member);
  return out;
}

namespace {

void set_counter(RunCounts& c, std::size_t i, std::uint64_t v) {
  if (i == 0)
    c.launches = v;
  else if (i == 1)
    c.shared_time_units = v;
  else if (const std::size_t k = memory_counters().size(); i - 2 < k)
    c.memory.*(memory_counters()[i - 2].second) = v;
  else
    c.line_memory.*(memory_counters()[i - 2 - k].second) = v;
}

}  // namespace

CountsFile CountsFile::read(const std::filesystem::path& file) {
  // A regular file only, of a bounded size (a FIFO would block for ever).
  InputFile input("--counts", file.string(), std::uint64_t{1} << 30, "a counts file");
  std::istream& in = input.stream();
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(file.string() + ": empty");
  const std::vector<std::string> head = split(line);
  const std::vector<std::string> machine = machine_names(), counters = counter_names();
  // The columns this build writes, in any order; anything else (a counter added or removed since
  // the file was written) refuses the file.
  std::vector<std::string> expected(std::begin(kRunColumns), std::end(kRunColumns));
  expected.insert(expected.end(), machine.begin(), machine.end());
  expected.insert(expected.end(), counters.begin(), counters.end());
  expected.emplace_back(kCorrectColumn);
  std::vector<std::string> missing, unknown;
  const auto has = [&](const std::string& name) { return std::find(head.begin(), head.end(), name) != head.end(); };
  for (const auto& e : expected)
    if (!has(e) && !added_later(e)) missing.push_back(e);
  for (const auto& h : head)
    if (std::find(expected.begin(), expected.end(), h) == expected.end()) unknown.push_back(h);
  if (!missing.empty() || !unknown.empty())
    throw std::invalid_argument(file.string() +
                                ": its columns are not this build's counters (missing: " + list(missing) +
                                "; unknown: " + list(unknown) + "); remove the file to simulate every run again");
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
  };
  CountsFile out;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> f = split(line);
    const auto bad = [&](const std::string& what) {
      return std::invalid_argument(file.string() + ", line " + std::to_string(number) + ": " + what);
    };
    if (f.size() != head.size())
      throw bad("has " + std::to_string(f.size()) + " fields, the header " + std::to_string(head.size()));
    const auto number_in = [&](const std::string& name) {
      const std::string& s = f[column(name)];
      std::uint64_t v = 0;
      std::size_t used = 0;
      try {
        v = std::stoull(s, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (s.empty() || used != s.size() || s[0] == '-') throw bad(name + " '" + s + "' is not a count");
      return v;
    };
    CountsRow row;
    row.run = {f[column("algorithm")], f[column("permutation")], f[column("type")], number_in("n")};
    for (const auto& m : machine)
      row.machine.emplace_back(m, m == kWriteRowsColumn && !has(m) ? kWriteRowsBefore : number_in(m));
    for (std::size_t i = 0; i < counters.size(); ++i)
      if (has(counters[i])) set_counter(row.counts, i, number_in(counters[i]));
    if (!has(kRmwColumns[0]) || !has(kRmwColumns[1])) {
      const auto sector = implied_rmw_activations(row.counts.memory);
      const auto by_line = implied_rmw_activations(row.counts.line_memory);
      if (!sector || !by_line) {
        ++out.left_out_;
        continue;
      }
      row.counts.memory.rmw_activations = *sector;
      row.counts.line_memory.rmw_activations = *by_line;
    }
    const std::string& correct = f[column(kCorrectColumn)];
    if (correct != "yes" && correct != "no") throw bad("correct must be yes or no");
    row.correct = correct == "yes";
    out.put(std::move(row));
  }
  return out;
}

const CountsRow* CountsFile::find(const RunIdentity& run, const MachineFields& machine) const {
  for (const CountsRow& r : rows_)
    if (r.run == run && r.machine == machine) return &r;
  return nullptr;
}

void CountsFile::put(CountsRow row) {
  for (CountsRow& r : rows_)
    if (r.run == row.run && r.machine == row.machine) {
      r = std::move(row);
      return;
    }
  rows_.push_back(std::move(row));
}

std::string CountsFile::csv() const {
  std::vector<const CountsRow*> sorted;
  for (const CountsRow& r : rows_) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](const CountsRow* a, const CountsRow* b) {
    return std::tie(a->machine, a->run) < std::tie(b->machine, b->run);
  });
  std::ostringstream out;
  const auto header = [&] {
    std::string h;
    for (const char* c : kRunColumns) h += std::string(h.empty() ? "" : ",") + c;
    for (const auto& m : machine_names()) h += "," + m;
    for (const auto& c : counter_names()) h += "," + c;
    return h + "," + kCorrectColumn;
  };
  out << header() << "\n";
  for (const CountsRow* r : sorted) {
    out << r->run.algorithm << "," << r->run.permutation << "," << r->run.type << "," << r->run.n;
    for (const auto& [name, value] : r->machine) out << "," << value;
    for (std::uint64_t v : counter_values(r->counts)) out << "," << v;
    out << "," << (r->correct ? "yes" : "no") << "\n";
  }
  return out.str();
}

}  // namespace mmsim::predict
