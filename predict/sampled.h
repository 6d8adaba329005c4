// Sampled prediction: one run of the program records the sectors of a seeded part of the DRAM rows
// (those of 1/2^s of the DRAM's slots); the L2 and DRAM stages then serve that part twice (the first
// pass warms the cache, the second is counted) on a memory cut down in the same proportion, and the
// counts are scaled back up, each with a 95 % confidence interval.
//
// Why it holds: the DRAM spreads rows over its banks and its write-back table by a multiplicative
// hash, which places consecutive rows far more evenly than chance would, so a memory with fewer
// banks fed every 2^s-th row would collide more than the full one does (an early version did so,
// and overcounted the write-back rows by a third at 2^24). The sample is therefore cut by slot: a
// row is kept when the low s bits of its slot hash match a seeded residue, and the cut-down DRAM
// indexes its 1/2^s tables by the hash's other bits (DramRows' slot_shift), so the kept rows
// collide with each other exactly as in the full memory and with no others. The L2 picks sets by
// a mixing hash, so 1/2^s of its sets, serving the kept sectors under their own addresses, are
// loaded as the full L2's sets are, in distribution. Every row keeps all its sectors, so streams
// still open a row once per row. The coalescer's counts (accesses, UMM slots, L2 transactions,
// sectors read and written), the launches and the shared-memory time units are counted whole, not
// sampled. The fraction is the largest 2^-s whose recorded sectors fit a budget (and whose 2^s
// divides the DRAM's banks and reach): a run smaller than the budget is simulated whole, and its
// counts are those of the exact simulation (predict/simulate.h), to the unit.
//
// The interval: the sampled rows fall, by a hash, into 32 groups of equal
// expected size; each group's counts scaled by 32 x 2^s estimate the whole, and the interval is
// the mean of the 32 estimates +- t(31, 0.975) x their standard deviation / sqrt(32). It treats the
// groups as independent, which the sets and banks they share make them nearly but not quite.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/params.h"
#include "predict/cost_model.h"
#include "predict/gpu_profile.h"
#include "predict/simulate.h"
#include "report/json.h"

namespace mmsim::predict {

struct SamplingOptions {
  /// Sectors recorded at most: the fraction is halved until the recorded sectors fit. 2^21 keeps
  /// the record within 32 MiB and the sampled memory's L2 in the host's caches.
  std::uint64_t budget = std::uint64_t{1} << 21;
  std::uint64_t seed = 1;
};

/// SamplingOptions' fields as the CLI's options (--sample-budget, --sample-seed) and the Python
/// keywords take them: names, help and bounds.
ParamSpec sample_budget_param();
ParamSpec sample_seed_param();

inline constexpr int kSampleGroups = 32;

/// The counts of a sampled run: the estimate, and what its interval is made of.
struct SampledCounts {
  RunCounts counts;            ///< the estimate (the exact counts when `shift` is 0)
  int shift = 0;               ///< 1/2^shift of the rows were simulated
  std::uint64_t recorded = 0;  ///< sectors recorded and served (each pass)
  /// Each group's own estimate of the whole (its counts x kSampleGroups x 2^shift), for the
  /// interval: kSampleGroups of them, or none where no sector was recorded (no interval).
  std::vector<RunCounts> groups;

  double fraction() const { return 1.0 / static_cast<double>(std::uint64_t{1} << shift); }
  /// Half the width of the 95 % interval of a count (0 when nothing was left out).
  double half_width(const CountField& field) const;
  /// Half the width of the 95 % interval of a model's predicted ms.
  double half_width_ms(const CostModel& model) const;
};

/// Like count_warm, sampled: `run` is called once (the engine's global memory records what the
/// sampling keeps), and the memory below the coalescer serves the record twice. `run` must run
/// with the options it is given: their threads cost the warps of a round at once, and their
/// execution says the order the record is put back in.
SampledCounts count_sampled(const GpuProfile& profile, std::uint32_t element_bytes,
                            const std::function<RunStats(const EngineOptions&)>& run, unsigned threads = 0,
                            const SamplingOptions& sampling = {});

/// run_warm, sampled: the counts of count_sampled, the engine's statistics of its one run, and what
/// each round counted (RunStats::rounds' order, as WarmRun::rounds), with its own interval: the
/// coalescer's counts whole, the L2's and DRAM's those of the round's recorded sectors in the
/// counted pass (its `recorded`), scaled by 2^shift, so that the rounds' counts.memory add up to
/// sampled.counts.memory. A round's counts are memory counts alone (no launches, no shared time
/// units); its groups are those of its own recorded sectors (none when it has none: no interval).
struct SampledRun {
  SampledCounts sampled;
  RunStats stats;
  std::vector<SampledCounts> rounds;
};
SampledRun run_sampled(const GpuProfile& profile, std::uint32_t element_bytes,
                       const std::function<RunStats(const EngineOptions&)>& run, unsigned threads = 0,
                       const SamplingOptions& sampling = {});

/// What a prediction says of its sampling, after "from the simulated run (the second of two; the
/// first warms the cache)": "" for the exact simulation, else how much of the rows was simulated.
std::string sampling_words(const SampledCounts& counts, bool exact);
/// "  +- H ms (95 % sampling)", H the half width of the ms' interval, when rows were left out
/// (shift > 0), else "".
std::string ms_interval_words(int shift, double half_width_ms);
/// {"exact", "fraction", "recorded_sectors", "budget", "seed"}: `mmsim predict`'s "sampling".
report::Json sampling_json(const SampledCounts& counts, bool exact, const SamplingOptions& sampling);
/// Each count's half width of its 95 % interval, by count name: `mmsim predict`'s "counts_ci95".
report::Json counts_ci95_json(const SampledCounts& counts);

/// count_algorithm, sampled.
struct SampledAlgorithmCounts {
  SampledCounts counts;
  RunReport report;
};
SampledAlgorithmCounts count_algorithm_sampled(const GpuProfile& profile, const AlgorithmEntry& entry,
                                               ParamValues given, std::uint32_t element_bytes, unsigned threads = 0,
                                               const SamplingOptions& sampling = {});

}  // namespace mmsim::predict
