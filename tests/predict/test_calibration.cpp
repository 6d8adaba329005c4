// A calibration of several passes: the passes pooled, each fitted alone for the spread of the
// constants (and the file keeps them); the cold microbenchmarks' first run counted on an empty
// cache; `gpu calibrate --check`'s comparison of a profile with timings made again.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "predict/calibration_check.h"
#include "predict/gpu_profile.h"
#include "predict/microbench_values.h"
#include "predict/simulate.h"
#include "tests/predict/small_gpu.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

MicrobenchTiming timing(const Microbench& b, double ms, double lo, double hi, bool correct = true) {
  MicrobenchTiming t;
  t.bench = b;
  t.median_ms = ms;
  t.min_ms = lo;
  t.max_ms = hi;
  t.runs = 100;
  t.correct = correct;
  return t;
}

// Random reads and writes both sides of the small GPU's 64 KiB L2, strides, copies and a launch.
std::vector<Microbench> benches() {
  std::vector<Microbench> set{{MicrobenchKind::Empty, 32, 1, 0, 4}};
  for (const std::uint64_t n : {std::uint64_t{1} << 12, std::uint64_t{1} << 13, std::uint64_t{3} << 12,
                                std::uint64_t{1} << 14, std::uint64_t{1} << 16}) {
    set.push_back({MicrobenchKind::ReadRandom, n, 1, 0, 4});
    set.push_back({MicrobenchKind::WriteRandom, n, 1, 0, 4});
  }
  for (const std::uint64_t n : {std::uint64_t{1} << 12, std::uint64_t{1} << 16}) {
    set.push_back({MicrobenchKind::Copy, n, 1, 0, 4});
    set.push_back({MicrobenchKind::ReadStride, n, 8, 0, 4});
    set.push_back({MicrobenchKind::WriteStride, n, 8, 0, 4});
  }
  set.push_back({MicrobenchKind::WriteRandom, std::uint64_t{1} << 12, 1, 0, 4, true});
  return set;
}

// The kCacheFitCostModel with these constants, in its order.
CostModel truth_model(double scale) {
  for (const CostModelSpec& spec : fitted_models())
    if (spec.name == kCacheFitCostModel) {
      CostModel m = unfitted(spec);
      const double ms[] = {0.005, 4e-6, 1e-6, 3e-6, 5e-7, 7e-6, 2e-7};
      REQUIRE(m.prices.size() == std::size(ms));
      for (std::size_t i = 0; i < m.prices.size(); ++i) m.prices[i].ms = ms[i] * scale;
      return m;
    }
  FAIL("no model " << kCacheFitCostModel);
  return {};
}

// The timings a GPU whose walks find 24 KiB of the L2 would give, every time scaled by `scale`.
std::vector<MicrobenchTiming> timings_at(double scale) {
  GpuProfile machine = small_gpu_profile();
  machine.memory.cache_bytes = 24 * 1024;
  const CostModel truth = truth_model(scale);
  std::vector<MicrobenchTiming> out;
  for (const Microbench& b : benches()) {
    const double ms = predicted_ms(truth, count_microbench(machine, b));
    out.push_back(timing(b, ms, ms * 0.9, ms * 1.2));
  }
  return out;
}

}  // namespace

TEST_CASE("passes pool into the median of their medians, the extremes of their runs, correct when all were") {
  const Microbench b{MicrobenchKind::Copy, 1024, 1, 0, 4};
  const std::vector<std::vector<MicrobenchTiming>> passes{
      {timing(b, 3, 2, 5)}, {timing(b, 1, 0.5, 2)}, {timing(b, 2, 1.5, 9, false)}};
  const auto pooled = pool_passes(passes);
  REQUIRE(pooled.size() == 1);
  CHECK(pooled[0].median_ms == 2);
  CHECK(pooled[0].min_ms == 0.5);
  CHECK(pooled[0].max_ms == 9);
  CHECK(pooled[0].runs == 300);
  CHECK_FALSE(pooled[0].correct);
  CHECK(pool_passes({{timing(b, 3, 2, 5)}, {timing(b, 1, 1, 1)}})[0].median_ms == 2);  // even: the mean of two
  const Microbench other{MicrobenchKind::Copy, 2048, 1, 0, 4};
  CHECK_THROWS_AS(pool_passes({{timing(b, 1, 1, 1)}, {timing(other, 1, 1, 1)}}), std::invalid_argument);
  CHECK_THROWS_AS(pool_passes({{timing(b, 1, 1, 1)}, {}}), std::invalid_argument);
}

TEST_CASE("each pass is fitted alone: a pass 10 % slower gives constants 10 % larger, and the file keeps them") {
  const std::vector<std::vector<MicrobenchTiming>> passes{timings_at(1.0), timings_at(1.1), timings_at(0.9)};
  GpuProfile p = small_gpu_profile();
  fit_cache_capacity(p, pool_passes(passes), 0, passes);
  CHECK(p.memory.cache_bytes == 24 * 1024);
  REQUIRE(p.passes.size() == 3);
  for (const CalibrationPass& pass : p.passes) CHECK(pass.cache_bytes == 24 * 1024);
  const CostModel truth = truth_model(1.0);
  std::size_t checked = 0;
  for (const ConstantSpread& c : constant_spread(p)) {
    if (c.model != kCacheFitCostModel) continue;
    const double want = truth.prices[checked++].ms;
    CHECK(c.profile_ms == doctest::Approx(want).epsilon(1e-6));
    CHECK(c.median_ms == doctest::Approx(want).epsilon(1e-6));
    CHECK(c.min_ms == doctest::Approx(0.9 * want).epsilon(1e-6));
    CHECK(c.max_ms == doctest::Approx(1.1 * want).epsilon(1e-6));
  }
  CHECK(checked == truth.prices.size());

  const auto file = std::filesystem::temp_directory_path() / "mmsim_test_profile_passes.json";
  {
    std::ofstream out(file);
    out << profile_json(p);
  }
  const GpuProfile q = read_profile(file);
  std::filesystem::remove(file);
  REQUIRE(q.passes.size() == 3);
  CHECK(q.passes[1].chosen == p.passes[1].chosen);
  REQUIRE(q.passes[1].constants.size() == p.passes[1].constants.size());
  CHECK(q.passes[1].constants[3].ms == doctest::Approx(p.passes[1].constants[3].ms));
  CHECK(constant_spread(q).size() == constant_spread(p).size());
  // The cold bench survives the file, under its own name.
  CHECK(q.timings.back().bench.cold);
  CHECK(q.timings.back().bench.name() == "write-random-cold");
}

TEST_CASE("a cold microbenchmark counts its first run: what the warm run finds in the L2 comes from DRAM") {
  const GpuProfile p = small_gpu_profile();
  Microbench warm{MicrobenchKind::ReadRandom, 1024, 1, 0, 4};
  Microbench cold = warm;
  cold.cold = true;
  const RunCounts w = count_microbench(p, warm), c = count_microbench(p, cold);
  // 4 KiB of a and 4 KiB of b stay in the 64 KiB L2: warm, nothing is read from DRAM.
  CHECK(w.memory.dram_reads == 0);
  // Cold: every sector of a read comes from DRAM (1024 floats: 128 sectors); b's writes are
  // partial sectors held in the L2 (no fill until written back), so they read nothing.
  CHECK(c.memory.dram_reads == 128);
  CHECK(c.memory.sectors() == w.memory.sectors());
  CHECK(microbench_error({MicrobenchKind::Shared, 4096, 1, 8, 4, true}) != nullptr);
  CHECK(microbench_error({MicrobenchKind::Empty, 32, 1, 0, 4, true}) != nullptr);
}

TEST_CASE("gpu calibrate --check: timings 20 % slower show as 20 % in the times, the constants and predictions") {
  GpuProfile p = small_gpu_profile();
  fit_cache_capacity(p, timings_at(1.0));
  std::vector<MicrobenchTiming> now = timings_at(1.2);
  // A run of a counts file, simulated on the profile's machine, and one of another machine.
  CountsFile counts;
  CountsRow row;
  row.run = {"d-designated", "random", "float", 4096};
  row.machine = machine_fields(p, 4);
  row.counts = p.timing_counts[3];
  row.correct = true;
  counts.put(row);
  row.run.n = 8192;
  row.machine.front().second += 1;
  counts.put(row);
  const CalibrationCheck c = check_calibration(p, now, &counts);
  CHECK(c.model == p.default_model());
  CHECK(c.median_timing_change() == doctest::Approx(0.2));
  CHECK(c.worst_timing_factor() == doctest::Approx(1.2));
  REQUIRE(c.runs.size() == 1);
  CHECK(c.median_prediction_change() == doctest::Approx(0.2).epsilon(1e-6));
  for (const auto& k : c.constants)
    if (k.profile_ms > 1e-12) CHECK(k.now_ms / k.profile_ms == doctest::Approx(1.2).epsilon(1e-6));
  const report::Table summary = check_summary_table(c, p);
  CHECK(summary.rows.size() == 4);
  CHECK(check_bench_table(c, "test").rows.size() == now.size());
  // Timings of other benches are refused.
  now.pop_back();
  CHECK_THROWS_AS(check_calibration(p, now, nullptr), std::invalid_argument);
  GpuProfile bare = p;
  bare.timing_counts.clear();
  CHECK_THROWS_AS(check_calibration(bare, timings_at(1.0), nullptr), std::invalid_argument);
}

TEST_CASE("gpu calibrate --check on the committed H100 profile and its counts file") {
  const std::filesystem::path dir = std::filesystem::path(MMSIM_SOURCE_DIR) / "results" / "gpu-h100";
  const GpuProfile p = read_profile(dir / "profile-h100.json");
  const CountsFile counts = CountsFile::read(dir / "validate-counts.csv");
  std::vector<MicrobenchTiming> now = p.timings;
  for (auto& t : now) t.median_ms *= 1.1;
  const CalibrationCheck c = check_calibration(p, now, &counts);
  CHECK(c.median_timing_change() == doctest::Approx(0.1));
  CHECK_FALSE(c.runs.empty());
  CHECK(c.median_prediction_change() == doctest::Approx(0.1).epsilon(1e-3));
  CHECK(check_summary_table(c, p).rows.size() == 4);
  CHECK(check_constant_table(c, "h100").rows.size() == c.constants.size());
  CHECK_FALSE(report::to_csv(check_bench_table(c, "h100")).empty());
  CHECK_FALSE(report::to_markdown(check_summary_table(c, p)).empty());
  CHECK_FALSE(report::to_markdown(check_constant_table(c, "h100")).empty());
  CHECK_FALSE(report::to_csv(check_constant_table(c, "h100")).empty());
}
