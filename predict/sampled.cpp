#include "predict/sampled.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <utility>

#include "models/gpu_memory/coalescer.h"
#include "models/gpu_memory/hierarchy.h"
#include "report/table.h"
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

// A recorded sector with its place in dispatch order: its round, then its warp. The round is kept
// one up, so that an access without one (AccessContext::round -1) is 0 and comes first.
struct OrderedTouch {
  std::uint64_t order;  // (round + 1) << kWarpBits | warp
  Touch touch;
};
constexpr int kWarpBits = 40;

// Consecutive recorded sectors of one round: those before `end` and after the previous run's end.
struct RoundRun {
  std::uint64_t round_plus_one;  // 0: no round
  std::size_t end;
};
// Sectors a part adds between two publications of its counts to the record.
constexpr std::uint64_t kPublishEvery = 4096;

// The largest shift the DRAM tables can be divided by: 2^s must divide the banks and the
// write-back reach (DramRows' slot_shift); without rows, any.
int max_shift(const GpuMemoryParams& p) {
  int s = 0;
  while (s < 40 && (!p.has_dram_rows() || (p.dram_banks % (2u << s) == 0 && p.dram_write_rows % (2u << s) == 0))) ++s;
  return s;
}

// What the sampling run keeps: the coalescer's counts, whole, and the sectors of the chosen rows,
// in the order the warps were dispatched.
//
// The engine costs a round's warps on several threads (the recording memory is order-free in its
// costs), so each thread adds to a part of its own: its coalescer, its exact counts and its kept
// sectors, each tagged with its round and warp; finish() sums the counts and merges the sectors
// back into dispatch order (round by round, warp by warp: the order of a one-thread run). An
// asynchronous run is costed on one thread in its own order, which is kept as it came.
//
// The fraction: a sector's level is the number of low bits of its row's slot hash (xor the seed)
// that are 0, so it is kept at every shift up to its level. Each part counts its sectors by level
// and publishes the counts every kPublishEvery sectors; the shift is raised while the published
// sectors kept at it exceed the budget. Published counts never exceed the true ones, so the shift
// never passes the smallest one whose sectors fit, and finish() settles on exactly that one: the
// same sample for every number of threads.
class Record {
 public:
  Record(int w, const GpuMemoryParams& p, const SamplingOptions& s, bool dispatch_order_by_round, bool per_round)
      : w_(w),
        params_(p),
        sectors_per_unit_((p.has_dram_rows() ? p.dram_row_bytes : kUnitBytesWithoutRows) / p.sector_bytes),
        seed_(mix(s.seed + 0x9E3779B97F4A7C15ull)),
        budget_(std::max<std::uint64_t>(s.budget, 1)),
        largest_shift_(max_shift(p)),
        by_round_(dispatch_order_by_round),
        per_round_(per_round) {}

  std::uint64_t row(std::uint64_t sector) const { return sector / sectors_per_unit_; }
  // A row is kept at shift s when the low s bits of its DRAM slot hash, xor the seed, are 0: the
  // rows of 1/2^s of the DRAM's bank and write-back slots, whole. Rows that share a slot with a
  // kept row are kept too, so the DRAM tables of the sampled memory (DramRows' slot_shift) see
  // the same collisions as the full memory's; each halving keeps a subset.
  int level(std::uint64_t sector) const {
    const std::uint64_t h = DramRows::slot_hash(row(sector)) ^ seed_;
    return h == 0 ? largest_shift_ : std::min(std::countr_zero(h), largest_shift_);
  }
  // The interval's group of a kept sector: a hash of its row.
  std::size_t group(std::uint64_t sector) const { return mix(row(sector)) % kSampleGroups; }

  // The coalesced request of one warp access, recorded; safe from several threads at once.
  const WarpRequest& add(std::span<const Address> warp, const AccessContext& context) {
    Part& p = part();
    const WarpRequest& r = p.coalescer(warp, context);
    if (r.sectors.empty()) return r;
    add_request(r, p.exact);
    if (per_round_ && context.round >= 0) {
      const auto round = static_cast<std::size_t>(context.round);
      if (p.rounds.size() <= round) p.rounds.resize(round + 1);
      add_request(r, p.rounds[round]);
    }
    const int s = shift_.load(std::memory_order_relaxed);
    if (p.shift < s) drop_below(p, s);
    const std::uint64_t write = r.op == Op::Write ? 1 : 0;
    const std::uint64_t order = static_cast<std::uint64_t>(std::max(context.round, -1) + 1) << kWarpBits | context.warp;
    for (const SectorTouch& t : r.sectors) {
      const int l = level(t.sector);
      ++p.unpublished[static_cast<std::size_t>(l)];
      if (l >= s) p.touches.push_back({order, {t.sector << 1 | write, t.mask}});
    }
    p.pending += r.sectors.size();
    if (p.pending >= kPublishEvery) publish(p);
    return r;
  }

  // After the run, on one thread: the shift, the exact counts and the kept sectors in dispatch order;
  // when kept per round, the exact counts of each round and the rounds of the kept sectors.
  struct Result {
    int shift = 0;
    GpuMemoryStats exact;
    std::vector<Touch> touches;
    std::vector<GpuMemoryStats> exact_rounds;
    std::vector<RoundRun> runs;
  };
  Result finish() {
    Result out;
    for (auto& p : parts_) publish(*p);
    int s = shift_.load();
    while (s < largest_shift_ && kept_at(s) > budget_) ++s;
    out.shift = s;
    std::size_t kept = 0;
    for (auto& p : parts_) {
      out.exact += p->exact;
      if (out.exact_rounds.size() < p->rounds.size()) out.exact_rounds.resize(p->rounds.size());
      for (std::size_t r = 0; r < p->rounds.size(); ++r) out.exact_rounds[r] += p->rounds[r];
      drop_below(*p, s);
      kept += p->touches.size();
    }
    out.touches.reserve(kept);
    const auto emit = [&](const OrderedTouch& t) {
      out.touches.push_back(t.touch);
      if (!per_round_) return;
      const std::uint64_t round_plus_one = t.order >> kWarpBits;
      if (out.runs.empty() || out.runs.back().round_plus_one != round_plus_one) out.runs.push_back({round_plus_one, 0});
      out.runs.back().end = out.touches.size();
    };
    if (by_round_)
      merge_in_dispatch_order(emit);
    else
      for (auto& p : parts_)
        for (const OrderedTouch& t : p->touches) emit(t);
    for (auto& p : parts_) std::vector<OrderedTouch>().swap(p->touches);
    return out;
  }

 private:
  static constexpr int kLevels = 41;  // levels 0..40 (max_shift's bound)
  struct Part {
    Part(int w, const GpuMemoryParams& p) : coalescer(w, p.sector_bytes, p.element_bytes) {}
    Coalescer coalescer;
    GpuMemoryStats exact;
    std::vector<GpuMemoryStats> rounds;  // the exact counts of each round, when kept per round
    std::vector<OrderedTouch> touches;
    std::array<std::uint64_t, kLevels> unpublished{};
    std::uint64_t pending = 0;
    int shift = 0;  // the shift its touches were last cut to
  };

  // This thread's part, made at its first access.
  Part& part() {
    thread_local std::uint64_t owner = 0;  // the id of the record `mine` belongs to
    thread_local Part* mine = nullptr;
    if (owner == id_) return *mine;
    const std::lock_guard lock(mutex_);
    parts_.push_back(std::make_unique<Part>(w_, params_));
    owner = id_;
    mine = parts_.back().get();
    return *mine;
  }
  // The parts' kept sectors in the dispatch order of a round-synchronous run: by (round, warp). One
  // warp's sectors come from one call, so from one part, in order; a part is in that order already
  // when its thread took a round's chunks in warp order, round after round (a launch run in bands
  // is not, and is sorted first). The parts are then merged, the lower part first on a tie: the
  // order of a stable sort of all of them, without sorting the whole.
  template <typename Emit>
  void merge_in_dispatch_order(const Emit& emit) {
    const auto by_order = [](const OrderedTouch& a, const OrderedTouch& b) { return a.order < b.order; };
    using Head = std::pair<std::uint64_t, std::size_t>;  // (order, part) of each part's next sector
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    std::vector<std::size_t> next(parts_.size(), 0);
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      auto& touches = parts_[i]->touches;
      if (!std::is_sorted(touches.begin(), touches.end(), by_order))
        std::stable_sort(touches.begin(), touches.end(), by_order);
      if (!touches.empty()) heads.emplace(touches.front().order, i);
    }
    while (!heads.empty()) {
      const std::size_t i = heads.top().second;
      heads.pop();
      const auto& touches = parts_[i]->touches;
      // This part's sectors up to the next part's head (a warp's run of sectors at least).
      const std::uint64_t limit = heads.empty() ? ~std::uint64_t{0} : heads.top().first;
      const std::size_t limit_part = heads.empty() ? parts_.size() : heads.top().second;
      std::size_t& at = next[i];
      do emit(touches[at++]);
      while (at < touches.size() && (touches[at].order < limit || (touches[at].order == limit && i < limit_part)));
      if (at < touches.size()) heads.emplace(touches[at].order, i);
    }
  }
  void drop_below(Part& p, int s) const {
    if (p.shift >= s) return;
    std::erase_if(p.touches, [&](const OrderedTouch& t) { return level(t.touch.sector_write >> 1) < s; });
    p.shift = s;
  }
  std::uint64_t kept_at(int s) const {
    std::uint64_t n = 0;
    for (int l = s; l < kLevels; ++l) n += published_[static_cast<std::size_t>(l)].load(std::memory_order_relaxed);
    return n;
  }
  void publish(Part& p) {
    for (std::size_t l = 0; l < p.unpublished.size(); ++l)
      if (p.unpublished[l] != 0) published_[l].fetch_add(p.unpublished[l], std::memory_order_relaxed);
    p.unpublished.fill(0);
    p.pending = 0;
    int s = shift_.load();
    if (s >= largest_shift_ || kept_at(s) <= budget_) return;
    const std::lock_guard lock(mutex_);
    s = shift_.load();
    while (s < largest_shift_ && kept_at(s) > budget_) ++s;
    shift_.store(s);
    drop_below(p, s);
  }

  static std::uint64_t next_id() {
    static std::atomic<std::uint64_t> ids{0};
    return ++ids;
  }

  int w_;
  GpuMemoryParams params_;
  std::uint64_t sectors_per_unit_, seed_, budget_;
  int largest_shift_;
  bool by_round_, per_round_;
  const std::uint64_t id_ = next_id();  // a record made where an earlier one was is another record
  std::atomic<int> shift_{0};
  std::array<std::atomic<std::uint64_t>, kLevels> published_{};
  std::mutex mutex_;
  std::vector<std::unique_ptr<Part>> parts_;
};

// The engine's global memory in the sampling run: slots as GpuGlobalMemory gives them (one per
// sector), the requests recorded. Its costs depend on the addresses alone, so a round's warps are
// costed on several threads; the record puts them back in dispatch order (Record above).
class RecordingMemory final : public MemoryModel {
 public:
  RecordingMemory(int w, int latency, Record& record) : w_(w), latency_(latency), record_(record) {}
  std::string_view name() const override { return "gpu-global-sampled"; }
  int width() const override { return w_; }
  int latency() const override { return latency_; }
  bool order_free() const override { return true; }
  WarpCost cost(std::span<const Address> warp) const override { return cost_access(warp, AccessContext{}); }
  WarpCost cost_access(std::span<const Address> warp, const AccessContext& context) const override {
    const WarpRequest& r = record_.add(warp, context);
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

double half_width_of(const std::vector<RunCounts>& groups, int shift,
                     const std::function<double(const RunCounts&)>& value) {
  if (shift == 0 || groups.size() != kSampleGroups) return 0;
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

namespace {

// count_sampled, and with `per_round` run_sampled: one run recorded, the record served twice.
SampledRun sample(const GpuProfile& profile, std::uint32_t element_bytes,
                  const std::function<RunStats(const EngineOptions&)>& run, unsigned threads,
                  const SamplingOptions& sampling, bool per_round) {
  GpuMemoryParams params = profile.memory;
  params.element_bytes = element_bytes;
  if (auto err = params.validate()) throw std::invalid_argument(*err);
  EngineOptions options;
  options.threads = threads;
  Record record(profile.machine.w, params, sampling, options.execution == Execution::RoundSynchronous, per_round);
  const RecordingMemory memory(profile.machine.w, profile.machine.L, record);
  options.global_memory = &memory;
  SampledRun out;
  out.stats = run(options);
  const Record::Result kept = record.finish();

  // The record served twice by the scaled memory: the first pass warms its L2 as the first of
  // count_warm's two runs does, the second is counted, group by group (and round by round).
  SampledCounts& c = out.sampled;
  GpuMemoryHierarchy below(profile.machine.w, scaled(params, kept.shift), kept.shift);
  // The record's sectors hit the scaled L2's sets at random: each pass asks the host for the set
  // of the sector kPrefetchAhead on while it serves one, so that the host's misses overlap.
  const std::vector<Touch>& touches = kept.touches;
  const auto pass = [&](auto&& serve) {
    for (std::size_t i = 0; i < touches.size(); ++i) {
      if (i + kPrefetchAhead < touches.size()) below.prefetch(touches[i + kPrefetchAhead].sector_write >> 1);
      serve(i, touches[i].sector_write & 1 ? Op::Write : Op::Read,
            SectorTouch{touches[i].sector_write >> 1, touches[i].mask});
    }
  };
  GpuMemoryStats warm;
  pass([&](std::size_t, Op op, const SectorTouch& t) { below.serve(op, t, warm); });
  // What each group's sectors counted, in all and (per_round) in each round: a round's groups are
  // made at its first recorded sector, so that rounds without one cost no room.
  std::array<GpuMemoryStats, kSampleGroups> counted{};
  std::vector<std::vector<GpuMemoryStats>> rounds(per_round ? out.stats.rounds.size() : 0);
  std::vector<std::uint64_t> recorded(rounds.size());
  std::size_t run_at = 0;  // kept.runs' entry of sector i
  pass([&](std::size_t i, Op op, const SectorTouch& t) {
    const std::size_t g = record.group(t.sector);
    if (!per_round) return below.serve(op, t, counted[g]);
    GpuMemoryStats one;
    below.serve(op, t, one);
    counted[g] += one;
    while (kept.runs[run_at].end <= i) ++run_at;
    const std::uint64_t r = kept.runs[run_at].round_plus_one;
    if (r == 0 || r > rounds.size()) return;
    if (rounds[r - 1].empty()) rounds[r - 1].resize(kSampleGroups);
    rounds[r - 1][g] += one;
    ++recorded[r - 1];
  });
  // Scaled: the estimate of the whole (or of a round) and each group's own (x kSampleGroups more).
  const auto estimate = [&](SampledCounts& to, const GpuMemoryStats* raw) {
    const auto scale = [&](GpuMemoryStats& at, const GpuMemoryStats& from, std::uint64_t times) {
      for (auto field : kSampledFields) at.*field = (from.*field * times) << kept.shift;
    };
    to.shift = kept.shift;
    to.groups.assign(kSampleGroups, to.counts);
    GpuMemoryStats all;
    for (std::size_t g = 0; g < kSampleGroups; ++g) {
      scale(to.groups[g].memory, raw[g], kSampleGroups);
      all += raw[g];
    }
    scale(to.counts.memory, all, 1);
  };
  c.counts = counts_of(out.stats, kept.exact);
  estimate(c, counted.data());
  c.recorded = kept.touches.size();
  out.rounds.resize(rounds.size());
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    SampledCounts& round = out.rounds[r];
    if (r < kept.exact_rounds.size()) round.counts.memory = kept.exact_rounds[r];
    round.shift = kept.shift;
    round.recorded = recorded[r];
    if (!rounds[r].empty()) estimate(round, rounds[r].data());
  }
  return out;
}

}  // namespace

SampledCounts count_sampled(const GpuProfile& profile, std::uint32_t element_bytes,
                            const std::function<RunStats(const EngineOptions&)>& run, unsigned threads,
                            const SamplingOptions& sampling) {
  return sample(profile, element_bytes, run, threads, sampling, false).sampled;
}

SampledRun run_sampled(const GpuProfile& profile, std::uint32_t element_bytes,
                       const std::function<RunStats(const EngineOptions&)>& run, unsigned threads,
                       const SamplingOptions& sampling) {
  return sample(profile, element_bytes, run, threads, sampling, true);
}

ParamSpec sample_budget_param() {
  return integer_param("sample-budget", "--sample-budget",
                       "sectors a sampled prediction records at most (the sampled fraction of the rows is halved "
                       "until they fit)",
                       1024, std::int64_t{1} << 30);
}

ParamSpec sample_seed_param() {
  return integer_param("sample-seed", "--sample-seed", "seed of the choice of sampled rows", 0, std::int64_t{1} << 62);
}

std::string sampling_words(const SampledCounts& counts, bool exact) {
  if (exact) return "";
  if (counts.shift == 0) return ", every DRAM row simulated (the run fits the sample budget)";
  return ", the L2 and DRAM of 1/" + std::to_string(std::uint64_t{1} << counts.shift) +
         " of the DRAM rows simulated and scaled (95 % intervals)";
}

std::string ms_interval_words(int shift, double half_width_ms) {
  if (shift == 0) return "";
  return "  +- " + report::format_number(half_width_ms, 3) + " ms (95 % sampling)";
}

report::Json sampling_json(const SampledCounts& counts, bool exact, const SamplingOptions& sampling) {
  return report::Json::object()
      .set("exact", exact)
      .set("fraction", counts.fraction())
      .set("recorded_sectors", static_cast<unsigned long long>(counts.recorded))
      .set("budget", static_cast<unsigned long long>(sampling.budget))
      .set("seed", static_cast<unsigned long long>(sampling.seed));
}

report::Json counts_ci95_json(const SampledCounts& counts) {
  report::Json half = report::Json::object();
  for (const CountField& f : count_fields()) half.set(std::string(f.name), counts.half_width(f));
  return half;
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
