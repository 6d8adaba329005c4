#include "predict/counts_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "io/input_file.h"
#include "io/quote.h"
#include "report/table.h"

namespace mmsim::predict {

namespace {

// A field added to GpuMemoryParams fails the build here until it is named in machine_fields(), so
// that no machine field is left out of the file (the counters' tripwires are in cost_model.cpp).
static_assert(sizeof(GpuMemoryParams) == 32, "GpuMemoryParams changed: name every field in machine_fields()");

constexpr const char* kRunColumns[] = {"algorithm", "permutation", "type", "n"};
constexpr const char* kCorrectColumn = "correct";
// The sampling columns (predict/sampled.h), added after files were written: a file without them
// holds exact simulations (shift 0).
constexpr const char* kShiftColumn = "sample_shift";
constexpr const char* kSeedColumn = "sample_seed";
// A machine column added after files were written, with the value those files' runs had.
constexpr const char* kWriteRowsColumn = "dram_write_rows";
constexpr std::uint64_t kWriteRowsBefore = 65536;
// A counter added after files were written. A file without it is still read: the value is
// implied exactly where a run merged no write-back (0) or every one (all the rows its write-backs
// opened); a row where neither holds is left out, so that its run is simulated again.
constexpr const char* kRmwColumn = "dram_rmw_activations";

// The build columns, which files written before them lack: such a row's build reads as empty.
bool added_later(const std::string& name) {
  return name == kWriteRowsColumn || name == kRmwColumn || name == kShiftColumn || name == kSeedColumn ||
         name == report::kVersionColumn || name == report::kCommitColumn;
}

// Columns of files written while an L2 of 128-byte lines was simulated beside the L2 of sectors,
// for the model l2-lines (no longer fitted: docs/prediction.md): the line's size among the machine
// fields, and every counter of that L2 with the prefix line_. The L2 of sectors' counts do not
// depend on them, so they are read past.
bool retired(const std::string& name) {
  if (name == "cache_line_bytes") return true;
  if (name.rfind("line_", 0) != 0) return false;
  const auto index = count_index(name.substr(5));
  return index && *index >= 2 && count_fields()[*index].stored;
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
          {"dram_row_bytes", g.dram_row_bytes},
          {"dram_banks", g.dram_banks},
          {"dram_write_rows", g.dram_write_rows}};
}

std::vector<std::string> counter_names() {
  std::vector<std::string> out;
  for (const CountField& f : count_fields())
    if (f.stored) out.emplace_back(f.name);
  return out;
}

std::vector<std::uint64_t> counter_values(const RunCounts& c) {
  std::vector<std::uint64_t> out;
  for (const CountField& f : count_fields())
    if (f.stored) out.push_back(f.of(c));
  return out;
}

CountsFile CountsFile::read(const std::filesystem::path& file) {
  // A regular file only, of a bounded size (a FIFO would block for ever).
  InputFile input("--counts", file.string(), std::uint64_t{1} << 30, "a counts file");
  std::istream& in = input.stream();
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(quote(file.string(), 60) + ": empty");
  const std::vector<std::string> head = split(line);
  const std::vector<std::string> machine = machine_names(), counters = counter_names();
  // The columns this build writes, in any order, and the retired ones; anything else (a counter
  // added or removed since the file was written) refuses the file.
  std::vector<std::string> expected(std::begin(kRunColumns), std::end(kRunColumns));
  expected.insert(expected.end(), machine.begin(), machine.end());
  expected.insert(expected.end(), counters.begin(), counters.end());
  expected.emplace_back(kShiftColumn);
  expected.emplace_back(kSeedColumn);
  expected.emplace_back(kCorrectColumn);
  expected.emplace_back(report::kVersionColumn);
  expected.emplace_back(report::kCommitColumn);
  std::vector<std::string> missing, unknown;
  const auto has = [&](const std::string& name) { return std::find(head.begin(), head.end(), name) != head.end(); };
  for (const auto& e : expected)
    if (!has(e) && !added_later(e)) missing.push_back(e);
  for (const auto& h : head)
    if (std::find(expected.begin(), expected.end(), h) == expected.end() && !retired(h)) unknown.push_back(quote(h));
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
      return std::invalid_argument(quote(file.string(), 60) + ", line " + std::to_string(number) + ": " + what);
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
      if (s.empty() || used != s.size() || s[0] == '-') throw bad(name + " " + quote(s) + " is not a count");
      return v;
    };
    CountsRow row;
    row.run = {f[column("algorithm")], f[column("permutation")], f[column("type")], number_in("n")};
    for (const auto& m : machine)
      row.machine.emplace_back(m, m == kWriteRowsColumn && !has(m) ? kWriteRowsBefore : number_in(m));
    for (std::size_t i = 0; i < counters.size(); ++i)  // the stored counts lead count_fields()
      if (has(counters[i])) set_count(row.counts, i, number_in(counters[i]));
    if (!has(kRmwColumn)) {
      const auto implied = implied_rmw_activations(row.counts.memory);
      if (!implied) {
        ++out.left_out_;
        continue;
      }
      row.counts.memory.rmw_activations = *implied;
    }
    const std::string& correct = f[column(kCorrectColumn)];
    if (correct != "yes" && correct != "no") throw bad("correct must be yes or no");
    row.correct = correct == "yes";
    if (has(kShiftColumn)) {
      const std::uint64_t shift = number_in(kShiftColumn);
      if (shift > 62) throw bad(std::string(kShiftColumn) + " must be at most 62");
      row.sample_shift = static_cast<int>(shift);
    }
    row.sample_seed = has(kSeedColumn) ? number_in(kSeedColumn) : 0;
    row.version = has(report::kVersionColumn) ? f[column(report::kVersionColumn)] : std::string();
    row.commit = has(report::kCommitColumn) ? f[column(report::kCommitColumn)] : std::string();
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
      if (r.correct == row.correct && counter_values(r.counts) == counter_values(row.counts) &&
          r.sample_shift == row.sample_shift && r.sample_seed == row.sample_seed) {
        row.version = std::move(r.version);
        row.commit = std::move(r.commit);
      }
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
    return h + "," + kShiftColumn + "," + kSeedColumn + "," + kCorrectColumn + "," + report::kVersionColumn + "," +
           report::kCommitColumn;
  };
  out << header() << "\n";
  for (const CountsRow* r : sorted) {
    out << r->run.algorithm << "," << r->run.permutation << "," << r->run.type << "," << r->run.n;
    for (const auto& [name, value] : r->machine) out << "," << value;
    for (std::uint64_t v : counter_values(r->counts)) out << "," << v;
    out << "," << r->sample_shift << "," << r->sample_seed;
    // As the other fields, raw: the reader splits at commas, and a field read holds none.
    out << "," << (r->correct ? "yes" : "no") << "," << r->version << "," << r->commit << "\n";
  }
  return out.str();
}

}  // namespace mmsim::predict
