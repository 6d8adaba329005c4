#include "predict/sampled.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/gpu_memory/coalescer.h"
#include "models/gpu_memory/hierarchy.h"
#include "sim/engine.h"

namespace mmsim::predict {

namespace {

// Rows that choose the sample when the memory models none: 1 KiB, a DRAM row's order of size, so
// that a stream's neighbouring sectors are kept or left out together as with rows.
constexpr std::uint32_t kUnitBytesWithoutRows = 1024;
// t(31, 0.975): the 95 % two-sided quantile of Student's t with kSampleGroups - 1 degrees of freedom.
constexpr double kT31 = 2.0395;
// How many recorded sectors ahead a replay prefetches the L2 set (GpuMemoryHierarchy::prefetch).
constexpr std::size_t kPrefetchAhead = 8;

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// One recorded sector of a request: the sector and its direction in one word, and its bytes.
struct Touch {
  std::uint64_t sector_write;  // sector << 1 | (op == Write)
  std::uint64_t mask;
};

// The largest shift the DRAM tables can be divided by: 2^s must divide the banks and the
// write-back reach (DramRows' slot_shift); without rows, any.
int max_shift(const GpuMemoryParams& p) {
  int s = 0;
  while (s < 40 && (!p.has_dram_rows() || (p.dram_banks % (2u << s) == 0 && p.dram_write_rows % (2u << s) == 0))) ++s;
  return s;
}

// What the sampling run keeps: the coalescer's counts, whole, and the sectors of the chosen rows,
// in the order the warps were dispatched.
struct Record {
  Record(int w, const GpuMemoryParams& p, const SamplingOptions& s)
      : coalescer(w, p.sector_bytes, p.element_bytes),
        sectors_per_unit((p.has_dram_rows() ? p.dram_row_bytes : kUnitBytesWithoutRows) / p.sector_bytes),
        seed(mix(s.seed + 0x9E3779B97F4A7C15ull)),
        budget(std::max<std::uint64_t>(s.budget, 1)),
        largest_shift(max_shift(p)) {}

  std::uint64_t row(std::uint64_t sector) const { return sector / sectors_per_unit; }
  // A row is kept at shift s when the low s bits of its DRAM slot hash, xor the seed, are 0: the
  // rows of 1/2^s of the DRAM's bank and write-back slots, whole. Rows that share a slot with a
  // kept row are kept too, so the DRAM tables of the sampled memory (DramRows' slot_shift) see
  // the same collisions as the full memory's; each halving keeps a subset.
  bool kept(std::uint64_t sector) const {
    return ((DramRows::slot_hash(row(sector)) ^ seed) & ((std::uint64_t{1} << shift) - 1)) == 0;
  }
  // The interval's group of a kept sector: a hash of its row.
  std::size_t group(std::uint64_t sector) const { return mix(row(sector)) % kSampleGroups; }

  void add(const WarpRequest& r) {
    add_request(r, exact);
    const std::uint64_t write = r.op == Op::Write ? 1 : 0;
    for (const SectorTouch& t : r.sectors)
      if (kept(t.sector)) touches.push_back({t.sector << 1 | write, t.mask});
    while (touches.size() > budget && shift < largest_shift) {
      ++shift;
      std::erase_if(touches, [&](const Touch& t) { return !kept(t.sector_write >> 1); });
    }
  }

  Coalescer coalescer;
  std::uint64_t sectors_per_unit, seed, budget;
  int largest_shift;
  int shift = 0;
  GpuMemoryStats exact;
  std::vector<Touch> touches;
};

// The engine's global memory in the sampling run: slots as GpuGlobalMemory gives them (one per
// sector), the requests recorded. Not order-free: the record follows dispatch order.
class RecordingMemory final : public MemoryModel {
 public:
  RecordingMemory(int w, int latency, Record& record) : w_(w), latency_(latency), record_(record) {}
  std::string_view name() const override { return "gpu-global-sampled"; }
  int width() const override { return w_; }
  int latency() const override { return latency_; }
  WarpCost cost(std::span<const Address> warp) const override { return cost_access(warp, AccessContext{}); }
  WarpCost cost_access(std::span<const Address> warp, const AccessContext& context) const override {
    const WarpRequest& r = record_.coalescer(warp, context);
    if (r.sectors.empty()) return {};
    record_.add(r);
    const auto sectors = static_cast<int>(r.sectors.size());
    return {sectors, sectors, 0};
  }
  std::vector<std::vector<Address>> partition(std::span<const Address> /*warp*/) const override {
    throw std::logic_error("a sampled prediction is not traced");
  }

 private:
  int w_, latency_;
  Record& record_;  // not owned; changed by every access
};

// The L2 scaled to the sample: 1/2^shift of its sets (at least one). Its sets are picked by a
// mixing hash, so the kept sectors spread over the fewer sets as all sectors over all of them;
// the DRAM's tables are cut by slot (DramRows' slot_shift), not here.
GpuMemoryParams scaled(GpuMemoryParams p, int shift) {
  if (p.has_cache()) {
    const std::uint64_t sets = std::max<std::uint64_t>(1, p.cache_bytes / p.sector_bytes / p.cache_ways);
    p.cache_bytes = std::max<std::uint64_t>(1, sets >> shift) * p.cache_ways * p.sector_bytes;
  }
  return p;
}

double half_width_of(const std::array<RunCounts, kSampleGroups>& groups, int shift,
                     const std::function<double(const RunCounts&)>& value) {
  if (shift == 0) return 0;
  double mean = 0, square = 0;
  for (const RunCounts& g : groups) mean += value(g);
  mean /= kSampleGroups;
  for (const RunCounts& g : groups) square += (value(g) - mean) * (value(g) - mean);
  return kT31 * std::sqrt(square / (kSampleGroups - 1)) / std::sqrt(double{kSampleGroups});
}

// The sampled counters of the memory (those the L2 and DRAM stages count), as members, to be
// scaled.
constexpr std::uint64_t GpuMemoryStats::*kSampledFields[] = {&GpuMemoryStats::hits,
                                                             &GpuMemoryStats::dram_reads,
                                                             &GpuMemoryStats::fills,
                                                             &GpuMemoryStats::dram_writes,
                                                             &GpuMemoryStats::activations,
                                                             &GpuMemoryStats::read_activations,
                                                             &GpuMemoryStats::write_activations,
                                                             &GpuMemoryStats::rmw_activations};

}  // namespace

double SampledCounts::half_width(const CountField& field) const {
  return half_width_of(groups, shift, [&](const RunCounts& c) { return static_cast<double>(field.of(c)); });
}

double SampledCounts::half_width_ms(const CostModel& model) const {
  return half_width_of(groups, shift, [&](const RunCounts& c) { return predicted_ms(model, c); });
}

SampledCounts count_sampled(const GpuProfile& profile, std::uint32_t element_bytes,
                            const std::function<RunStats(const EngineOptions&)>& run, unsigned threads,
                            const SamplingOptions& sampling) {
  GpuMemoryParams params = profile.memory;
  params.element_bytes = element_bytes;
  if (auto err = params.validate()) throw std::invalid_argument(*err);
  Record record(profile.machine.w, params, sampling);
  const RecordingMemory memory(profile.machine.w, profile.machine.L, record);
  EngineOptions options;
  options.threads = threads;
  options.global_memory = &memory;
  const RunStats stats = run(options);

  // The record served twice by the scaled memory: the first pass warms its L2 as the first of
  // count_warm's two runs does, the second is counted, group by group.
  SampledCounts out;
  out.shift = record.shift;
  out.recorded = record.touches.size();
  GpuMemoryHierarchy below(profile.machine.w, scaled(params, record.shift), record.shift);
  // The record's sectors hit the scaled L2's sets at random: each pass asks the host for the set
  // of the sector kPrefetchAhead on while it serves one, so that the host's misses overlap.
  const std::vector<Touch>& touches = record.touches;
  const auto pass = [&](auto&& stats_of) {
    for (std::size_t i = 0; i < touches.size(); ++i) {
      if (i + kPrefetchAhead < touches.size()) below.prefetch(touches[i + kPrefetchAhead].sector_write >> 1);
      const std::uint64_t sector = touches[i].sector_write >> 1;
      below.serve(touches[i].sector_write & 1 ? Op::Write : Op::Read, {sector, touches[i].mask}, stats_of(sector));
    }
  };
  GpuMemoryStats warm;
  pass([&](std::uint64_t) -> GpuMemoryStats& { return warm; });
  std::array<GpuMemoryStats, kSampleGroups> counted{};
  pass([&](std::uint64_t sector) -> GpuMemoryStats& { return counted[record.group(sector)]; });
  // Scaled: the whole's estimate, and each group's own (x kSampleGroups more).
  out.counts = counts_of(stats, record.exact);
  for (auto field : kSampledFields) out.counts.memory.*field = 0;
  for (int g = 0; g < kSampleGroups; ++g) {
    out.groups[static_cast<std::size_t>(g)] = out.counts;
    for (auto field : kSampledFields) {
      const std::uint64_t raw = counted[static_cast<std::size_t>(g)].*field;
      out.groups[static_cast<std::size_t>(g)].memory.*field = (raw * kSampleGroups) << record.shift;
    }
  }
  for (const GpuMemoryStats& g : counted)
    for (auto field : kSampledFields) out.counts.memory.*field += (g.*field) << record.shift;
  return out;
}

SampledAlgorithmCounts count_algorithm_sampled(const GpuProfile& profile, const AlgorithmEntry& entry,
                                               ParamValues given, std::uint32_t element_bytes, unsigned threads,
                                               const SamplingOptions& sampling) {
  given = on_profile_machine(profile, entry, std::move(given));
  SampledAlgorithmCounts out;
  out.counts = count_sampled(
      profile, element_bytes,
      [&](const EngineOptions& options) {
        out.report = run_algorithm(entry, given, options);
        return out.report.stats;
      },
      threads, sampling);
  return out;
}

}  // namespace mmsim::predict
