// Sampled prediction (predict/sampled.h) against the exact one: on every KNI family, the counts the
// sampling leaves whole are equal, the sampled ones lie near the exact ones and within their
// stated interval; a run within the budget is the exact one to the unit; a seed gives one answer;
// `mmsim validate`'s runs (predict_runs) sampled and exact agree on KNI rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "algorithms/registry.h"
#include "models/gpu_memory/dram_rows.h"
#include "predict/sampled.h"
#include "predict/simulate.h"
#include "predict/validate/prediction_table.h"
#include "tests/predict/mid_gpu.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

constexpr std::int64_t kSampledN = std::int64_t{1} << 18;

ParamValues request(const std::string& algorithm, std::int64_t n) {
  const std::string perm =
      algorithm == "transpose" || algorithm == "shuffle" || algorithm == "bit-reversal" ? algorithm : "random";
  return {{"n", n}, {"perm", perm}};
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
  REQUIRE(!p.models.empty());
  CHECK(sampled.counts.half_width_ms(p.models.front()) == 0);
  CHECK(sampled.report.correct);
}

TEST_CASE("sampled counts are seeded: one seed, one answer; another seed, another sample") {
  const GpuProfile p = mid_gpu_profile();
  const AlgorithmEntry* d = find_algorithm("d-designated");
  const SamplingOptions one{.budget = 4096, .seed = 1}, two{.budget = 4096, .seed = 2};
  const auto a = count_algorithm_sampled(p, *d, request("d-designated", 65536), 4, 1, one);
  const auto c = count_algorithm_sampled(p, *d, request("d-designated", 65536), 4, 1, two);
  CHECK(a.counts.shift > 0);
  CHECK(a.counts.recorded != c.counts.recorded);
  // The record is made on several threads at once (2048 warps: four chunks of the engine's), and
  // put back in dispatch order: the same sample, served in the same order, for every thread count.
  for (const unsigned threads : {2u, 3u, 4u}) {
    CAPTURE(threads);
    const auto b = count_algorithm_sampled(p, *d, request("d-designated", 65536), 4, threads, one);
    CHECK(b.counts.shift == a.counts.shift);
    CHECK(b.counts.recorded == a.counts.recorded);
    CHECK(same(a.counts.counts, b.counts.counts));
    for (std::size_t g = 0; g < a.counts.groups.size(); ++g) CHECK(same(a.counts.groups[g], b.counts.groups[g]));
  }
}

TEST_CASE("a record made on several threads is the exact run's when it fits: the L2 sees dispatch order") {
  // Whole (no row left out) on four threads, the record must reach the L2 in the order of the
  // exact run's one thread, or its hits, fills and write-backs would differ.
  const GpuProfile p = mid_gpu_profile();
  for (const std::string name : {"d-designated", "s-designated", "scheduled"}) {
    CAPTURE(name);
    const AlgorithmEntry* entry = find_algorithm(name);
    const auto exact = count_algorithm(p, *entry, request(name, 65536), 4, 1);
    const auto sampled =
        count_algorithm_sampled(p, *entry, request(name, 65536), 4, 4, {.budget = std::uint64_t{1} << 24});
    CHECK(sampled.counts.shift == 0);
    CHECK(same(sampled.counts.counts, exact.counts));
  }
}

TEST_CASE("sampled and exact predictions agree within their interval or 2 % on every KNI family") {
  const GpuProfile p = mid_gpu_profile();
  for (const std::string name : {"d-designated", "s-designated", "transpose", "shuffle", "bit-reversal", "row-wise",
                                 "column-wise", "scheduled"}) {
    CAPTURE(name);
    const AlgorithmEntry* entry = find_algorithm(name);
    REQUIRE(entry != nullptr);
    const auto exact = count_algorithm(p, *entry, request(name, kSampledN), 4, 2);
    // A sixteenth of the run's sectors or fewer: the sampling leaves rows out.
    const std::uint64_t budget = exact.counts.memory.sectors() / 16;
    const auto sampled = count_algorithm_sampled(p, *entry, request(name, kSampledN), 4, 2, {.budget = budget});
    CHECK(sampled.counts.shift >= 4);
    CHECK(sampled.report.correct);
    const RunCounts& s = sampled.counts.counts;
    const RunCounts& e = exact.counts;
    for (const CountField& f : count_fields()) {
      CAPTURE(f.name);
      const double half = sampled.counts.half_width(f);
      const auto se = static_cast<double>(f.of(s)), ee = static_cast<double>(f.of(e));
      if (counted_whole(f)) {
        CHECK(f.of(s) == f.of(e));
        continue;
      }
      // Within three times its interval's half width (the interval treats its groups as
      // independent, which the L2 sets they share make them nearly but not quite), or within 1 % of
      // the sectors the run moves (a small count's relative error says little).
      CHECK(std::abs(se - ee) <= std::max(3 * half, 0.01 * static_cast<double>(e.memory.sectors())));
    }
    // Every model's predicted ms within 2 % of the exact one, or within three half widths of its
    // interval. A 1/16 sample of this 1 MiB L2 (128 sets) is coarser than the 2^21-sector budget
    // on a GPU's L2 at 2^20..2^28, where the 2 % goal is measured (mmsim bench-predict,
    // docs/performance.md): here the sampled ms of a random permutation spreads about 1 % (sd) over
    // seeds, and its stated interval (2-4 % half width) covers it.
    REQUIRE(p.models.size() >= 3);
    for (const CostModel& m : p.models) {
      CAPTURE(m.name);
      const double se = predicted_ms(m, s), ee = predicted_ms(m, e);
      CHECK(std::abs(se - ee) <= std::max(3 * sampled.counts.half_width_ms(m), 0.02 * ee));
    }
  }
}

TEST_CASE("the DRAM rows cut by slot count what the whole memory counts for the kept rows") {
  // Transfers to random rows whose slot hash has one residue modulo 2^s: the whole tables and the
  // tables cut to 1/2^s (DramRows' slot_shift) must open exactly the same rows.
  for (const int shift : {1, 3, 6}) {
    CAPTURE(shift);
    DramRows whole(32, 1024, 2048, 65536), cut(32, 1024, 2048, 65536, shift);
    GpuMemoryStats a, b;
    std::uint64_t x = 12345;
    int kept = 0;
    while (kept < 200000) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t sector = (x >> 20) % (std::uint64_t{1} << 18);
      if ((DramRows::slot_hash(sector / 32) & ((1u << shift) - 1)) != 5 % (1u << shift)) continue;
      ++kept;
      switch ((x >> 8) % 3) {
        case 0:
          whole.read(sector, a);
          cut.read(sector, b);
          break;
        case 1:
          whole.fill(sector, a);
          cut.fill(sector, b);
          break;
        default:
          whole.write(sector, (x >> 12) & 1, a);
          cut.write(sector, (x >> 12) & 1, b);
      }
    }
    CHECK(a.activations > 0);
    CHECK(a.activations == b.activations);
    CHECK(a.read_activations == b.read_activations);
    CHECK(a.write_activations == b.write_activations);
    CHECK(a.rmw_activations == b.rmw_activations);
  }
}

namespace {

// A KNI Table II row as `mmsim validate` reads it from kasagi-t2.csv (the measured ms is not used).
MeasuredRun kni_row(const std::string& kernel, const std::string& permutation, std::int64_t n) {
  MeasuredRun m;
  m.family = kernel.rfind("scheduled", 0) == 0 ? "scheduled" : kernel == "in-place" ? "in-place" : "conventional";
  m.kernel = kernel;
  m.permutation = permutation;
  m.type = "float";
  m.n = static_cast<std::uint64_t>(n);
  m.ms = 1;
  return m;
}

}  // namespace

TEST_CASE("validate's sampled and exact predictions agree within 2 % on KNI runs; a seed gives one answer") {
  const GpuProfile p = mid_gpu_profile();
  const std::vector<MeasuredRun> rows{
      kni_row("d-designated", "random", kSampledN), kni_row("s-designated", "bit-reversal", kSampledN),
      kni_row("in-place", "transpose", kSampledN), kni_row("scheduled-paper", "random", kSampledN)};
  SimulationPlan plan{2, ~std::uint64_t{0}, nullptr, nullptr, {}};
  const auto exact = predict_runs(p, rows, plan);
  // 2^15 sectors: a half to a 16th of the runs' rows (the in-place transpose moves fewest
  // sectors). Much less would cut the 1 MiB L2 to a few dozen sets (mid_gpu_profile).
  plan.sampling = SamplingOptions{.budget = std::uint64_t{1} << 15, .seed = 3};
  const auto sampled = predict_runs(p, rows, plan);
  REQUIRE(exact.size() == rows.size());
  REQUIRE(sampled.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(rows[i].kernel);
    CAPTURE(rows[i].permutation);
    CHECK(exact[i].sample_shift == 0);
    CHECK(sampled[i].sample_shift >= 1);
    CHECK(sampled[i].sample_seed == 3);
    CHECK(sampled[i].correct);
    REQUIRE(sampled[i].predicted.size() == p.models.size());
    REQUIRE(sampled[i].predicted_ci95.size() == p.models.size());
    double widest = 0;  // a model may price no sampled count (papers: sectors and slots alone)
    for (std::size_t m = 0; m < p.models.size(); ++m) {
      CAPTURE(p.models[m].name);
      CHECK(exact[i].predicted_ci95[m] == 0);
      widest = std::max(widest, sampled[i].predicted_ci95[m]);
      CHECK(std::abs(sampled[i].predicted[m] - exact[i].predicted[m]) <= 0.02 * exact[i].predicted[m]);
    }
    CHECK(widest > 0);
  }
  // The sampled table's columns: the fraction and each model's half-width, after the others.
  const report::Table t = prediction_table(p, sampled);
  REQUIRE(t.rows.size() == rows.size());
  const auto at = std::find(t.columns.begin(), t.columns.end(), "sample fraction");
  REQUIRE(at != t.columns.end());
  CHECK(std::get<double>(t.rows[0][static_cast<std::size_t>(at - t.columns.begin())]) ==
        1.0 / static_cast<double>(std::uint64_t{1} << sampled[0].sample_shift));
  // Seeded: the same seed again gives the same counts, on another thread count.
  plan.threads = 1;
  const auto again = predict_runs(p, {rows.front()}, plan);
  CHECK(same(again.front().counts, sampled.front().counts));
}
