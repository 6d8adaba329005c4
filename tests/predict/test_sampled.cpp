// Sampled prediction (predict/sampled.h) against the exact one: on every KNI family, the counts the
// sampling leaves whole are equal, the sampled ones lie near the exact ones and within their
// stated interval; a run within the budget is the exact one to the unit; a seed gives one answer.
#include <doctest/doctest.h>

#include <cmath>

#include "algorithms/registry.h"
#include "predict/sampled.h"
#include "predict/simulate.h"
#include "tests/predict/small_gpu.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

// A 256 KiB L2 in 512 sets, 1 KiB rows in 256 banks: the runs below (2^16 elements, 256 KiB an
// array) fall both sides of the cache, and a 1/32 sample still keeps 16 sets and 8 banks.
GpuProfile mid_gpu_profile() {
  GpuProfile p = small_gpu_profile();
  p.memory.cache_bytes = 256 * 1024;
  p.memory.dram_banks = 256;
  p.memory.dram_write_rows = 4096;
  return p;
}

ParamValues request(const std::string& algorithm, std::int64_t n) {
  const std::string perm =
      algorithm == "transpose" || algorithm == "shuffle" || algorithm == "bit-reversal" ? algorithm : "random";
  return {{"n", n}, {"perm", perm}};
}

bool same(const RunCounts& a, const RunCounts& b) {
  for (const CountField& f : count_fields())
    if (f.of(a) != f.of(b)) return false;
  return true;
}

}  // namespace

TEST_CASE("a run within the sample budget is simulated whole: the exact counts, no interval") {
  const GpuProfile p = mid_gpu_profile();
  const AlgorithmEntry* d = find_algorithm("d-designated");
  REQUIRE(d != nullptr);
  const auto exact = count_algorithm(p, *d, request("d-designated", 4096), 4, 1);
  const auto sampled = count_algorithm_sampled(p, *d, request("d-designated", 4096), 4, 1);
  CHECK(sampled.counts.shift == 0);
  CHECK(same(sampled.counts.counts, exact.counts));
  CHECK(sampled.counts.half_width_ms(p.model("papers")) == 0);
  CHECK(sampled.report.correct);
}

TEST_CASE("sampled counts are seeded: one seed, one answer; another seed, another sample") {
  const GpuProfile p = mid_gpu_profile();
  const AlgorithmEntry* d = find_algorithm("d-designated");
  const SamplingOptions one{.budget = 4096, .seed = 1}, two{.budget = 4096, .seed = 2};
  const auto a = count_algorithm_sampled(p, *d, request("d-designated", 65536), 4, 1, one);
  const auto b = count_algorithm_sampled(p, *d, request("d-designated", 65536), 4, 2, one);
  const auto c = count_algorithm_sampled(p, *d, request("d-designated", 65536), 4, 1, two);
  CHECK(a.counts.shift > 0);
  CHECK(same(a.counts.counts, b.counts.counts));
  CHECK(a.counts.recorded != c.counts.recorded);
}

TEST_CASE("sampled and exact counts agree on every KNI family") {
  const GpuProfile p = mid_gpu_profile();
  for (const std::string name : {"d-designated", "s-designated", "transpose", "shuffle", "bit-reversal", "row-wise",
                                 "column-wise", "scheduled"}) {
    CAPTURE(name);
    const AlgorithmEntry* entry = find_algorithm(name);
    REQUIRE(entry != nullptr);
    const auto exact = count_algorithm(p, *entry, request(name, 65536), 4, 2);
    // A sixteenth of the run's sectors or fewer: the sampling leaves rows out.
    const std::uint64_t budget = exact.counts.memory.sectors() / 16;
    const auto sampled = count_algorithm_sampled(p, *entry, request(name, 65536), 4, 2, {.budget = budget});
    CHECK(sampled.counts.shift >= 4);
    CHECK(sampled.report.correct);
    const RunCounts& s = sampled.counts.counts;
    const RunCounts& e = exact.counts;
    for (const CountField& f : count_fields()) {
      CAPTURE(f.name);
      const double half = sampled.counts.half_width(f);
      const auto se = static_cast<double>(f.of(s)), ee = static_cast<double>(f.of(e));
      if (half == 0) {
        CHECK(f.of(s) == f.of(e));  // counted whole
        continue;
      }
      // Within its interval, with room for the 1 in 20 it misses, or within 2 % of the sectors the
      // run moves (a small count's relative error says little).
      CHECK(std::abs(se - ee) <= std::max(2 * half, 0.02 * static_cast<double>(e.memory.sectors())));
    }
    for (const CostModel& m : p.models) {
      CAPTURE(m.name);
      const double se = predicted_ms(m, s), ee = predicted_ms(m, e);
      CHECK(std::abs(se - ee) <= std::max(2 * sampled.counts.half_width_ms(m), 0.02 * ee));
    }
  }
}
