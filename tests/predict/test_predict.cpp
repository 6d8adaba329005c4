// The profile: the fit recovers constants that generated the timings exactly, the file round-trips
// and a broken one is refused naming the field; a prediction runs on the profile's machine only.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/input_error.h"
#include "predict/gpu_profile.h"
#include "predict/simulate.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

// A small machine: a 64 KiB cache, so that small microbenchmarks fall both sides of it.
GpuProfile small_profile() {
  GpuFacts gpu;
  gpu.name = "test GPU";
  gpu.sm_count = 4;
  gpu.l2_bytes = 64 * 1024;
  return profile_skeleton(gpu, "test", "2026-01-01");
}

std::vector<Microbench> small_set() {
  std::vector<Microbench> set{{MicrobenchKind::Empty, 32, 1, 0, 4}};
  for (const std::uint64_t n : {std::uint64_t{1} << 12, std::uint64_t{1} << 16}) {
    set.push_back({MicrobenchKind::Copy, n, 1, 0, 4});
    set.push_back({MicrobenchKind::ReadStride, n, 8, 0, 4});
    set.push_back({MicrobenchKind::WriteStride, n, 8, 0, 4});
    set.push_back({MicrobenchKind::ReadRandom, n, 1, 0, 4});
    set.push_back({MicrobenchKind::WriteRandom, n, 1, 0, 4});
    set.push_back({MicrobenchKind::Copy, n, 1, 0, 8});
  }
  for (const std::uint32_t c : {1u, 4u, 32u}) set.push_back({MicrobenchKind::Shared, 4096, c, 8, 4});
  return set;
}

std::filesystem::path temp_file(const std::string& name) { return std::filesystem::temp_directory_path() / name; }

}  // namespace

TEST_CASE("the fit recovers the constants that made the timings") {
  GpuProfile p = small_profile();
  const FittedModel truth{CostModel::SectorsReadWriteCache, {0.005, 4e-6, 1e-6, 3e-6, 7e-6, 2e-7}, 0, 0};
  std::vector<MicrobenchTiming> timings;
  for (const Microbench& b : small_set()) {
    MicrobenchTiming t;
    t.bench = b;
    t.median_ms = predicted_ms(truth, count_microbench(p, b));
    timings.push_back(t);
  }
  fit_profile(p, timings);
  const FittedModel& f = p.model(CostModel::SectorsReadWriteCache);
  REQUIRE(f.constants.size() == truth.constants.size());
  REQUIRE(features(CostModel::SectorsReadWriteCache, RunCounts{}).size() == truth.constants.size());
  CHECK(f.worst_abs_error < 1e-6);
  for (std::size_t i = 0; i < truth.constants.size(); ++i)
    CHECK(f.constants[i] == doctest::Approx(truth.constants[i]).epsilon(1e-4));
  // Every model is fitted, each constant non-negative.
  CHECK(p.models.size() == kCostModels.size());
  for (const FittedModel& m : p.models)
    for (double c : m.constants) CHECK(c >= 0);
}

TEST_CASE("the L2's capacity is fitted back from timings made at a capacity below the GPU's") {
  // A GPU whose random walks find 3/8 of its 64 KiB L2: timings priced by the default model on a
  // simulated cache of 24 KiB. Random reads and writes of 16 to 64 KiB fall both sides of it.
  GpuProfile truth_machine = small_profile();
  truth_machine.memory.cache_bytes = 24 * 1024;
  const FittedModel truth{kCacheFitCostModel, {0.005, 4e-6, 1e-6, 3e-6, 5e-7, 7e-6, 2e-7}, 0, 0};
  REQUIRE(features(kCacheFitCostModel, RunCounts{}).size() == truth.constants.size());
  std::vector<Microbench> set = small_set();
  for (const std::uint64_t n : {std::uint64_t{1} << 13, std::uint64_t{3} << 12, std::uint64_t{1} << 14}) {
    set.push_back({MicrobenchKind::ReadRandom, n, 1, 0, 4});
    set.push_back({MicrobenchKind::WriteRandom, n, 1, 0, 4});
  }
  std::vector<MicrobenchTiming> timings;
  for (const Microbench& b : set) {
    MicrobenchTiming t;
    t.bench = b;
    t.median_ms = predicted_ms(truth, count_microbench(truth_machine, b));
    timings.push_back(t);
  }
  GpuProfile p = small_profile();
  fit_cache_capacity(p, timings);
  CHECK(p.memory.cache_bytes == 24 * 1024);
  CHECK(p.model(kCacheFitCostModel).worst_abs_error < 1e-6);
  REQUIRE(p.cache_fit.size() == 8);
  CHECK(p.cache_fit.front().cache_bytes == 8 * 1024);
  CHECK(p.cache_fit.back().cache_bytes == 64 * 1024);
  // Every other capacity fits the default model worse.
  const std::size_t d = static_cast<std::size_t>(kCacheFitCostModel);
  for (const CacheCandidate& c : p.cache_fit)
    if (c.cache_bytes != 24 * 1024) CHECK(c.mean_abs_log_error[d] > p.cache_fit[2].mean_abs_log_error[d] + 1e-3);

  // The capacities tried survive the profile file.
  const auto file = temp_file("mmsim_test_profile_cache_fit.json");
  {
    std::ofstream out(file);
    out << profile_json(p);
  }
  const GpuProfile q = read_profile(file);
  std::filesystem::remove(file);
  CHECK(q.memory.cache_bytes == 24 * 1024);
  REQUIRE(q.cache_fit.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(q.cache_fit[i].cache_bytes == p.cache_fit[i].cache_bytes);
    REQUIRE(q.cache_fit[i].mean_abs_log_error.size() == kCostModels.size());
    CHECK(q.cache_fit[i].mean_abs_log_error[d] == doctest::Approx(p.cache_fit[i].mean_abs_log_error[d]));
  }
}

TEST_CASE("the profile file round-trips, and a broken one names its field") {
  GpuProfile p = small_profile();
  p.models = {{CostModel::Papers, {0.004, 2e-8, 5e-7}, 0.1, 0.2},
              {CostModel::SectorsReadWriteCache, {0.005, 4e-8, 1e-8, 2e-8, 3e-8, 5e-7}, 0.1, 0.3}};
  p.timings = {{{MicrobenchKind::Copy, 1024, 1, 0, 8}, 0.01}};
  const auto file = temp_file("mmsim_test_profile.json");
  {
    std::ofstream out(file);
    out << profile_json(p);
  }
  const GpuProfile q = read_profile(file);
  CHECK(q.gpu.name == "test GPU");
  CHECK(q.machine.k == 4);
  CHECK(q.memory.cache_bytes == 64 * 1024);
  CHECK(q.model(CostModel::SectorsReadWriteCache).constants[4] == doctest::Approx(3e-8));
  CHECK(q.model(CostModel::SectorsReadWriteCache).worst_abs_error == doctest::Approx(0.3));
  REQUIRE(q.timings.size() == 1);
  CHECK(q.timings[0].bench.element_bytes == 8);
  CHECK_THROWS_AS(q.model(CostModel::Sectors), std::invalid_argument);

  std::string text = profile_json(p);
  text.replace(text.find("\"sector_bytes\""), 14, "\"sector_byte\"");
  {
    std::ofstream out(file);
    out << text;
  }
  try {
    read_profile(file);
    FAIL("a profile without memory.sector_bytes was read");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("memory.sector_bytes is missing") != std::string::npos);
  }
  std::filesystem::remove(file);
  CHECK_THROWS_AS(read_profile(temp_file("mmsim_no_such_profile.json")), std::invalid_argument);
}

TEST_CASE("a prediction runs on the profile's machine, and only HMM algorithms") {
  const GpuProfile p = small_profile();
  const AlgorithmEntry* d = find_algorithm("d-designated");
  REQUIRE(d != nullptr);
  const auto r = count_algorithm(p, *d, {{"n", 1024}, {"perm", "random"}}, 4);
  CHECK(r.report.correct);
  CHECK(r.report.machine.k == 4);
  CHECK(r.counts.launches == 1);
  CHECK(r.counts.memory.write_sectors > 0);
  CHECK_THROWS_AS(count_algorithm(p, *d, {{"n", 1024}, {"w", 16}}, 4), InputError);
  const AlgorithmEntry* crsw = find_algorithm("crsw");
  REQUIRE(crsw != nullptr);
  CHECK_THROWS_AS(count_algorithm(p, *crsw, {}, 4), InputError);
}

TEST_CASE("the warm run counts what a repeated GPU run sees: a small run stays in the cache") {
  const GpuProfile p = small_profile();  // 64 KiB
  const AlgorithmEntry* d = find_algorithm("d-designated");
  // a, p, b of 1024 x 4 B = 12 KiB: the counted run finds a and p in the cache.
  const auto small = count_algorithm(p, *d, {{"n", 1024}, {"perm", "identical"}}, 4);
  CHECK(small.counts.memory.dram_reads == 0);
  // 3 x 64 KiB: nothing survives from the first run.
  const auto large = count_algorithm(p, *d, {{"n", 16384}, {"perm", "identical"}}, 4);
  CHECK(large.counts.memory.dram_reads >= 2 * 16384 * 4 / 32);
}

TEST_CASE("rmw-rows prices the rows of merged write-backs apart from every other row opened") {
  RunCounts c;
  c.launches = 2;
  c.shared_time_units = 11;
  c.memory.lines = 3;
  c.memory.read_sectors = 4;
  c.memory.write_sectors = 5;
  c.memory.dram_reads = 6;
  c.memory.dram_writes = 7;
  c.memory.read_activations = 8;
  c.memory.write_activations = 9;
  c.memory.rmw_activations = 4;           // of the 9
  c.line_memory.write_activations = 100;  // the L2 of lines' counts are not this model's
  const std::vector<double> f = features(CostModel::RmwRows, c);
  const std::vector<std::string> names = constant_names(CostModel::RmwRows);
  REQUIRE(f.size() == names.size());
  const auto at = [&](const std::string& name) {
    const auto i = std::find(names.begin(), names.end(), name);
    REQUIRE(i != names.end());
    return f[static_cast<std::size_t>(i - names.begin())];
  };
  CHECK(at("launch_ms") == 2);
  CHECK(at("l2_line_ms") == 3);
  CHECK(at("l2_sector_ms") == 9);
  CHECK(at("dram_read_ms") == 6);
  CHECK(at("dram_write_ms") == 7);
  CHECK(at("activation_ms") == 8 + 9 - 4);  // reads' rows and whole-sector write-backs' rows
  CHECK(at("rmw_activation_ms") == 4);
  CHECK(at("shared_time_unit_ms") == 11);
  CHECK(kDefaultCostModel == CostModel::RmwRows);
  CHECK(cost_model_from_name("rmw-rows") == CostModel::RmwRows);
}
