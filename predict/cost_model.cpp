#include "predict/cost_model.h"

#include <stdexcept>

namespace mmsim::predict {

namespace {

// A stored count of the memory, by its member.
template <std::uint64_t GpuMemoryStats::*member>
std::uint64_t memory_count(const RunCounts& c) {
  return c.memory.*member;
}

// The sizes are tripwires: a field added to RunCounts or GpuMemoryStats fails the build here until
// it is named below, so that no counter is left out of the counts file (and read back as zero).
static_assert(sizeof(GpuMemoryStats) == 13 * sizeof(std::uint64_t),
              "GpuMemoryStats changed: name every counter in count_fields()");
static_assert(sizeof(RunCounts) == 2 * sizeof(std::uint64_t) + sizeof(GpuMemoryStats),
              "RunCounts changed: name every counter in count_fields()");

constexpr CountField kFields[] = {
    {"launches", "kernel launches", [](const RunCounts& c) { return c.launches; }},
    {"shared_time_units", "sum over shared-memory rounds of the round's time units",
     [](const RunCounts& c) { return c.shared_time_units; }},
    {"accesses", "warp accesses to global memory with at least one request", memory_count<&GpuMemoryStats::accesses>},
    {"umm_slots", "distinct address groups of w cells per warp access: the papers' UMM slots",
     memory_count<&GpuMemoryStats::umm_groups>},
    {"l2_transactions", "distinct 128-byte lines per warp access: the L2's transactions",
     memory_count<&GpuMemoryStats::lines>},
    {"read_sectors", "distinct sectors per warp access, reads", memory_count<&GpuMemoryStats::read_sectors>},
    {"write_sectors", "distinct sectors per warp access, writes", memory_count<&GpuMemoryStats::write_sectors>},
    {"l2_hits", "sectors the L2 served without DRAM", memory_count<&GpuMemoryStats::hits>},
    {"dram_reads", "sectors read from DRAM: misses and fills", memory_count<&GpuMemoryStats::dram_reads>},
    {"dram_fills", "DRAM reads that fill a partial sector before its write-back", memory_count<&GpuMemoryStats::fills>},
    {"dram_writes", "sectors written back to DRAM", memory_count<&GpuMemoryStats::dram_writes>},
    {"dram_activations", "DRAM rows opened, fills as reads", memory_count<&GpuMemoryStats::activations>},
    {"dram_read_activations", "DRAM rows opened by reads, fills left out",
     memory_count<&GpuMemoryStats::read_activations>},
    {"dram_write_activations", "DRAM rows opened by write-backs, each with its fill",
     memory_count<&GpuMemoryStats::write_activations>},
    {"dram_rmw_activations", "of the rows opened by write-backs, those that merged a partial sector",
     memory_count<&GpuMemoryStats::rmw_activations>},
    {"sectors", "read_sectors + write_sectors", [](const RunCounts& c) { return c.memory.sectors(); }, false},
    {"runs", "1 for a run that launches a kernel: the first launch's cost beyond a launch that follows another",
     [](const RunCounts& c) -> std::uint64_t { return c.launches > 0 ? 1 : 0; }, false},
    {"dram_non_rmw_activations",
     "dram_read_activations + dram_write_activations - dram_rmw_activations: rows opened by reads and by "
     "whole-sector write-backs",
     [](const RunCounts& c) {
       return c.memory.read_activations + c.memory.write_activations - c.memory.rmw_activations;
     },
     false},
};

const CostModelSpec kBase[] = {
    {"papers", {{"launch_ms", "launches"}, {"umm_slot_ms", "umm_slots"}, {"shared_time_unit_ms", "shared_time_units"}}},
    {"dram-rows",
     {{"launch_ms", "launches"},
      {"l2_line_ms", "l2_transactions"},
      {"l2_sector_ms", "sectors"},
      {"dram_read_ms", "dram_reads"},
      {"dram_write_ms", "dram_writes"},
      {"activation_ms", "dram_activations"},
      {"shared_time_unit_ms", "shared_time_units"}}},
    {"rmw-rows",
     {{"launch_ms", "launches"},
      {"l2_line_ms", "l2_transactions"},
      {"l2_sector_ms", "sectors"},
      {"dram_read_ms", "dram_reads"},
      {"dram_write_ms", "dram_writes"},
      {"activation_ms", "dram_non_rmw_activations"},
      {"rmw_activation_ms", "dram_rmw_activations"},
      {"shared_time_unit_ms", "shared_time_units"}}},
    // The two models above with the L2's sectors priced apart for reads and writes: a warp's
    // scattered 4-byte writes cost an H100 about 1.8 times its scattered reads of the same sectors
    // while both stay in the L2 (calibration read-random against write-random at 16 MiB), which one
    // price per sector cannot show.
    {"dram-rows-rw",
     {{"launch_ms", "launches"},
      {"l2_line_ms", "l2_transactions"},
      {"l2_read_sector_ms", "read_sectors"},
      {"l2_write_sector_ms", "write_sectors"},
      {"dram_read_ms", "dram_reads"},
      {"dram_write_ms", "dram_writes"},
      {"activation_ms", "dram_activations"},
      {"shared_time_unit_ms", "shared_time_units"}}},
    {"rmw-rows-rw",
     {{"launch_ms", "launches"},
      {"l2_line_ms", "l2_transactions"},
      {"l2_read_sector_ms", "read_sectors"},
      {"l2_write_sector_ms", "write_sectors"},
      {"dram_read_ms", "dram_reads"},
      {"dram_write_ms", "dram_writes"},
      {"activation_ms", "dram_non_rmw_activations"},
      {"rmw_activation_ms", "dram_rmw_activations"},
      {"shared_time_unit_ms", "shared_time_units"}}},
};

// The base models, then the memory models again with a run's first launch priced apart from the
// launches that follow it ("-runs"): a GPU overlaps a launch with the kernel before it, so a
// program of hundreds of kernels (a sorting network) pays less per launch than a kernel alone. The
// microbenchmarks tell the two apart only with launches back to back (empty-x16, empty-x256);
// without those, a run's launch and its first launch are the same count, and the fit leaves the
// run's price at 0.
std::vector<CostModelSpec> all_fitted() {
  std::vector<CostModelSpec> out(std::begin(kBase), std::end(kBase));
  static const std::string_view kRuns[] = {"dram-rows-runs", "rmw-rows-runs", "dram-rows-rw-runs", "rmw-rows-rw-runs"};
  for (std::size_t i = 0; i < std::size(kRuns); ++i) {
    CostModelSpec spec = kBase[1 + i];  // the memory models, in kBase's order
    if (std::string(spec.name) + "-runs" != kRuns[i]) throw std::logic_error("all_fitted: kRuns out of kBase's order");
    spec.name = kRuns[i];
    spec.prices.emplace_back("run_ms", "runs");
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

std::span<const CountField> count_fields() { return kFields; }

std::optional<std::size_t> count_index(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kFields); ++i)
    if (kFields[i].name == name) return i;
  return std::nullopt;
}

void set_count(RunCounts& c, std::size_t index, std::uint64_t value) {
  // The stored counts in kFields' order: launches, shared_time_units, then the memory's.
  static constexpr std::uint64_t GpuMemoryStats::*kMemory[] = {&GpuMemoryStats::accesses,
                                                               &GpuMemoryStats::umm_groups,
                                                               &GpuMemoryStats::lines,
                                                               &GpuMemoryStats::read_sectors,
                                                               &GpuMemoryStats::write_sectors,
                                                               &GpuMemoryStats::hits,
                                                               &GpuMemoryStats::dram_reads,
                                                               &GpuMemoryStats::fills,
                                                               &GpuMemoryStats::dram_writes,
                                                               &GpuMemoryStats::activations,
                                                               &GpuMemoryStats::read_activations,
                                                               &GpuMemoryStats::write_activations,
                                                               &GpuMemoryStats::rmw_activations};
  if (index == 0)
    c.launches = value;
  else if (index == 1)
    c.shared_time_units = value;
  else if (index - 2 < std::size(kMemory))
    c.memory.*kMemory[index - 2] = value;
  else
    throw std::logic_error("set_count: count " + std::to_string(index) + " is not stored");
}

double CostModel::price_of(std::string_view count) const {
  for (const PricedCount& p : prices)
    if (kFields[p.count].name == count) return p.ms;
  return 0;
}

std::span<const CostModelSpec> fitted_models() {
  static const std::vector<CostModelSpec> all = all_fitted();
  return all;
}

CostModel unfitted(const CostModelSpec& spec) {
  CostModel m;
  m.name = std::string(spec.name);
  for (const auto& [constant, count] : spec.prices) {
    const auto i = count_index(count);
    if (!i) throw std::logic_error("cost model " + m.name + ": no count named " + std::string(count));
    m.prices.push_back({std::string(constant), *i, 0});
  }
  return m;
}

std::vector<double> features(const CostModel& model, const RunCounts& counts) {
  std::vector<double> out;
  out.reserve(model.prices.size());
  for (const PricedCount& p : model.prices) out.push_back(static_cast<double>(kFields[p.count].of(counts)));
  return out;
}

double predicted_ms(const CostModel& model, const RunCounts& counts) {
  double ms = 0;
  for (const PricedCount& p : model.prices) ms += p.ms * static_cast<double>(kFields[p.count].of(counts));
  return ms;
}

}  // namespace mmsim::predict
