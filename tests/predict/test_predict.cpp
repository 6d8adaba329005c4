// The profile: the fit recovers constants that generated the timings exactly, the file round-trips
// and a broken one is refused naming the field; a prediction runs on the profile's machine only.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/input_error.h"
#include "predict/fit.h"
#include "predict/gpu_profile.h"
#include "predict/simulate.h"
#include "tests/predict/small_gpu.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

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

// What a GPU priced by `truth` would measure for each bench, simulated on `machine`.
std::vector<MicrobenchTiming> timed_by(const CostModel& truth, const GpuProfile& machine,
                                       const std::vector<Microbench>& set) {
  std::vector<MicrobenchTiming> timings;
  for (const Microbench& b : set) {
    MicrobenchTiming t;
    t.bench = b;
    t.median_ms = predicted_ms(truth, count_microbench(machine, b));
    timings.push_back(t);
  }
  return timings;
}

std::filesystem::path temp_file(const std::string& name) { return std::filesystem::temp_directory_path() / name; }

// A model of fitted_models() with the constants given, in the order of its prices.
CostModel fitted(std::string_view name, const std::vector<double>& ms) {
  for (const CostModelSpec& spec : fitted_models())
    if (spec.name == name) {
      CostModel m = unfitted(spec);
      REQUIRE(m.prices.size() == ms.size());
      for (std::size_t i = 0; i < ms.size(); ++i) m.prices[i].ms = ms[i];
      return m;
    }
  FAIL("no fitted model " << name);
  return {};
}

// A model defined as data alone, as a profile file may add one: L2 transactions and sectors, DRAM
// reads and writes, no rows.
CostModel by_hand(const std::vector<double>& ms) {
  const CostModelSpec spec{"cache-only",
                           {{"launch_ms", "launches"},
                            {"l2_line_ms", "l2_transactions"},
                            {"l2_sector_ms", "sectors"},
                            {"dram_read_ms", "dram_reads"},
                            {"dram_write_ms", "dram_writes"},
                            {"shared_time_unit_ms", "shared_time_units"}}};
  CostModel m = unfitted(spec);
  for (std::size_t i = 0; i < ms.size(); ++i) m.prices[i].ms = ms[i];
  return m;
}

std::string write_and_read_back(const std::string& text, const std::string& name) {
  const auto file = temp_file(name);
  {
    std::ofstream out(file);
    out << text;
  }
  std::string error;
  try {
    read_profile(file);
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  std::filesystem::remove(file);
  return error;
}

}  // namespace

TEST_CASE("the fit recovers the constants that made the timings, for a model added to the profile as data") {
  GpuProfile p = small_gpu_profile();
  const CostModel truth = by_hand({0.005, 4e-6, 1e-6, 3e-6, 7e-6, 2e-7});
  const std::vector<MicrobenchTiming> timings = timed_by(truth, p, small_set());
  p.models = {by_hand({0, 0, 0, 0, 0, 0})};
  fit_profile(p, timings);
  const CostModel& f = p.model("cache-only");
  REQUIRE(f.prices.size() == truth.prices.size());
  CHECK(f.worst_abs_error < 1e-6);
  for (std::size_t i = 0; i < truth.prices.size(); ++i) {
    CHECK(f.prices[i].ms == doctest::Approx(truth.prices[i].ms).epsilon(1e-4));
    CHECK(f.prices[i].count == truth.prices[i].count);
  }
  // The models a calibration fits come first, then the one added; each constant non-negative.
  REQUIRE(p.models.size() == fitted_models().size() + 1);
  for (std::size_t i = 0; i < fitted_models().size(); ++i) CHECK(p.models[i].name == fitted_models()[i].name);
  for (const CostModel& m : p.models)
    for (const PricedCount& c : m.prices) CHECK(c.ms >= 0);
}

TEST_CASE("a run's first launch is priced apart only where launches back to back tell it apart") {
  GpuProfile p = small_gpu_profile();
  // A GPU whose launch costs 3 us after another and 6 us alone: dram-rows-runs with run_ms 3e-3.
  const CostModel truth = fitted("dram-rows-runs", {0.003, 4e-6, 1e-6, 3e-6, 5e-7, 7e-6, 2e-7, 0.003});
  // "runs" is 1 for a run that launches anything: 16 launches back to back are one run.
  const Microbench stream{MicrobenchKind::Empty, 32, 1, 16, 4};
  const RunCounts c = count_microbench(p, stream);
  CHECK(c.launches == 16);
  CHECK(count_fields()[*count_index("runs")].of(c) == 1);
  CHECK(predicted_ms(truth, c) == doctest::Approx(16 * 0.003 + 0.003));

  // With launches back to back among the timings, both prices come back.
  std::vector<Microbench> set = small_set();
  set.push_back(stream);
  set.push_back({MicrobenchKind::Empty, 32, 1, 256, 4});
  GpuProfile with = p;
  fit_profile(with, timed_by(truth, p, set));
  const CostModel& f = with.model("dram-rows-runs");
  CHECK(f.price_of("launches") == doctest::Approx(0.003).epsilon(1e-4));
  CHECK(f.price_of("runs") == doctest::Approx(0.003).epsilon(1e-4));

  // Without them every timing is one launch of one run: the two counts are one column, and the
  // run's price stays 0, so the model predicts as its sibling without runs.
  GpuProfile without = p;
  fit_profile(without, timed_by(truth, p, small_set()));
  CHECK(without.model("dram-rows-runs").price_of("runs") == 0);
  CHECK(without.model("dram-rows-runs").price_of("launches") == doctest::Approx(0.006).epsilon(1e-4));
  const std::vector<double> fitted_ms = nonnegative_relative_fit({{1, 1, 2}, {2, 2, 1}, {3, 3, 1}}, {4, 6, 8});
  CHECK(fitted_ms[1] == 0);  // a column equal to an earlier one in every row is never priced
}

TEST_CASE("the L2's capacity is fitted back from timings made at a capacity below the GPU's") {
  // A GPU whose random walks find 3/8 of its 64 KiB L2: timings priced by the default model on a
  // simulated cache of 24 KiB. Random reads and writes of 16 to 64 KiB fall both sides of it.
  GpuProfile truth_machine = small_gpu_profile();
  truth_machine.memory.cache_bytes = 24 * 1024;
  const CostModel truth = fitted(kCacheFitCostModel, {0.005, 4e-6, 1e-6, 3e-6, 5e-7, 7e-6, 2e-7});
  std::vector<Microbench> set = small_set();
  for (const std::uint64_t n : {std::uint64_t{1} << 13, std::uint64_t{3} << 12, std::uint64_t{1} << 14}) {
    set.push_back({MicrobenchKind::ReadRandom, n, 1, 0, 4});
    set.push_back({MicrobenchKind::WriteRandom, n, 1, 0, 4});
  }
  const std::vector<MicrobenchTiming> timings = timed_by(truth, truth_machine, set);
  GpuProfile p = small_gpu_profile();
  fit_cache_capacity(p, timings);
  CHECK(p.memory.cache_bytes == 24 * 1024);
  CHECK(p.model(kCacheFitCostModel).worst_abs_error < 1e-6);
  REQUIRE(p.cache_fit.size() == 8);
  CHECK(p.cache_fit.front().cache_bytes == 8 * 1024);
  CHECK(p.cache_fit.back().cache_bytes == 64 * 1024);
  // Every other capacity fits the model of the rule worse.
  const auto error = [](const CacheCandidate& c) {
    const auto e = c.error_of(kCacheFitCostModel);
    REQUIRE(e.has_value());
    return *e;
  };
  for (const CacheCandidate& c : p.cache_fit)
    if (c.cache_bytes != 24 * 1024) CHECK(error(c) > error(p.cache_fit[2]) + 1e-3);

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
    REQUIRE(q.cache_fit[i].mean_abs_log_error.size() == fitted_models().size());
    CHECK(error(q.cache_fit[i]) == doctest::Approx(error(p.cache_fit[i])));
  }
}

TEST_CASE("the profile file round-trips, and a broken one names its field") {
  GpuProfile p = small_gpu_profile();
  p.models = {fitted("papers", {0.004, 2e-8, 5e-7}), by_hand({0.005, 4e-8, 1e-8, 2e-8, 3e-8, 5e-7})};
  p.models[1].median_abs_error = 0.1;
  p.models[1].worst_abs_error = 0.3;
  // The last kind too: a profile stores a bench's kind as its number.
  p.timings = {{{MicrobenchKind::Copy, 1024, 1, 0, 8}, 0.01},
               {{MicrobenchKind::WriteTranspose, 1024, 8, 0, 4, true}, 0.02}};
  const auto file = temp_file("mmsim_test_profile.json");
  {
    std::ofstream out(file);
    out << profile_json(p);
  }
  const GpuProfile q = read_profile(file);
  CHECK(q.gpu.name == "test GPU");
  CHECK(q.machine.k == 4);
  CHECK(q.memory.cache_bytes == 64 * 1024);
  // The model as data: each count it prices, its constant's name and value, in order.
  const CostModel& m = q.model("cache-only");
  REQUIRE(m.prices.size() == 6);
  CHECK(m.prices[4].constant == "dram_write_ms");
  CHECK(count_fields()[m.prices[4].count].name == "dram_writes");
  CHECK(m.prices[4].ms == doctest::Approx(3e-8));
  CHECK(m.worst_abs_error == doctest::Approx(0.3));
  REQUIRE(q.timings.size() == 2);
  CHECK(q.timings[0].bench.element_bytes == 8);
  CHECK(q.timings[1].bench.name() == "write-transpose-8-cold");
  CHECK_THROWS_AS(q.model("sectors"), std::invalid_argument);

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
  // A model that prices a count the program does not have is refused, naming the count.
  std::string unknown = profile_json(p);
  unknown.replace(unknown.find("\"dram_writes\""), 13, "\"dram_wrotes\"");
  CHECK(write_and_read_back(unknown, "mmsim_test_profile_count.json").find("unknown count 'dram_wrotes'") !=
        std::string::npos);
}

TEST_CASE("the instruction term round-trips through the profile file, and a broken one names its field") {
  GpuProfile p = small_gpu_profile();
  p.models = {fitted("papers", {0.004, 2e-8, 5e-7})};
  InstructionTerm t;
  t.fitted_on = "made-up benches";
  t.costs.lone = {CostForm::Additive, 1.75, 22.5, 1.95, 0.09, 0.24, 0.3, 3.0, 2.5, 10};
  t.costs.many = {CostForm::Bound, 0.369, 1.01, 0.998, 0.006, 0.014, 0.02, 1.25, 1.1, 14};
  t.costs.lone_outside = 2.19;
  t.costs.lone_outside_samples = 4;
  p.instruction_term = t;
  const auto file = temp_file("mmsim_test_profile_term.json");
  {
    std::ofstream out(file);
    out << profile_json(p);
  }
  const GpuProfile q = read_profile(file);
  std::filesystem::remove(file);
  REQUIRE(q.instruction_term.has_value());
  const InstructionTerm& r = *q.instruction_term;
  CHECK(r.fitted_on == "made-up benches");
  for (const auto& [got, want] : {std::pair{r.costs.lone, t.costs.lone}, std::pair{r.costs.many, t.costs.many}}) {
    CHECK(got.form == want.form);
    CHECK(got.instruction == doctest::Approx(want.instruction));
    CHECK(got.access == doctest::Approx(want.access));
    CHECK(got.extra_slot == doctest::Approx(want.extra_slot));
    CHECK(got.held_out == doctest::Approx(want.held_out));
    CHECK(got.worst_held_out == doctest::Approx(want.worst_held_out));
    CHECK(got.interval_factor == doctest::Approx(want.interval_factor));
    CHECK(got.samples == want.samples);
  }
  CHECK(r.costs.lone_outside == doctest::Approx(2.19));
  CHECK(r.costs.lone_outside_samples == 4);
  // A profile without the term reads without one.
  p.instruction_term.reset();
  CHECK(profile_json(p).find("instruction_term") == std::string::npos);
  p.instruction_term = t;
  std::string text = profile_json(p);
  text.replace(text.find("\"bound\""), 7, "\"bond\"");
  CHECK(write_and_read_back(text, "mmsim_test_profile_term_form.json").find("instruction_term.many.form") !=
        std::string::npos);
  text = profile_json(p);
  text.replace(text.find("\"cycles_per_access\""), 19, "\"cycles_per_acces\"");
  CHECK(write_and_read_back(text, "mmsim_test_profile_term_field.json")
            .find("instruction_term.lone.cycles_per_access is missing") != std::string::npos);
}

TEST_CASE("a profile written before models were data is read: constants by name, retired models read past") {
  GpuProfile p = small_gpu_profile();
  p.models = {fitted("papers", {0.004, 2e-8, 5e-7})};
  std::string text = profile_json(p);
  // The models as files had them: the constants by name, and a model no longer fitted beside.
  const auto begin = text.find("\"models\"");
  const auto end = text.find("\"microbenchmarks\"");
  text.replace(begin, end - begin,
               "\"models\": [{\"model\": \"sectors\", \"constants\": {\"launch_ms\": 1, \"sector_ms\": 2, "
               "\"shared_time_unit_ms\": 3}}, {\"model\": \"papers\", \"constants\": {\"launch_ms\": 0.004, "
               "\"umm_slot_ms\": 2e-08, \"shared_time_unit_ms\": 5e-07}}], ");
  const auto file = temp_file("mmsim_test_profile_old.json");
  {
    std::ofstream out(file);
    out << text;
  }
  const GpuProfile q = read_profile(file);
  std::filesystem::remove(file);
  REQUIRE(q.models.size() == 1);
  const CostModel& papers = q.model("papers");
  REQUIRE(papers.prices.size() == 3);
  CHECK(count_fields()[papers.prices[1].count].name == "umm_slots");
  CHECK(papers.prices[1].ms == 2e-8);
  // An unknown model without prices is refused: nothing says what it prices.
  std::string unknown = text;
  unknown.replace(unknown.find("\"sectors\""), 9, "\"sektors\"");
  CHECK(write_and_read_back(unknown, "mmsim_test_profile_unknown.json").find("unknown cost model 'sektors'") !=
        std::string::npos);
}

TEST_CASE("a prediction runs on the profile's machine, and only HMM algorithms") {
  const GpuProfile p = small_gpu_profile();
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
  const GpuProfile p = small_gpu_profile();  // 64 KiB
  const AlgorithmEntry* d = find_algorithm("d-designated");
  // a, p, b of 1024 x 4 B = 12 KiB: the counted run finds a and p in the cache.
  const auto small = count_algorithm(p, *d, {{"n", 1024}, {"perm", "identical"}}, 4);
  CHECK(small.counts.memory.dram_reads == 0);
  // 3 x 64 KiB: nothing survives from the first run.
  const auto large = count_algorithm(p, *d, {{"n", 16384}, {"perm", "identical"}}, 4);
  CHECK(large.counts.memory.dram_reads >= 2 * 16384 * 4 / 32);
}

TEST_CASE("rmw-rows prices the rows of merged write-backs apart from every other row opened") {
  const CostModel rmw = fitted("rmw-rows", {1, 1, 1, 1, 1, 1, 1, 1});
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
  c.memory.rmw_activations = 4;  // of the 9
  c.memory.activations = 100;    // dram-rows' rows, not this model's
  const std::vector<double> f = features(rmw, c);
  REQUIRE(f.size() == rmw.prices.size());
  const auto at = [&](const std::string& name) {
    const auto i =
        std::find_if(rmw.prices.begin(), rmw.prices.end(), [&](const PricedCount& p) { return p.constant == name; });
    REQUIRE(i != rmw.prices.end());
    return f[static_cast<std::size_t>(i - rmw.prices.begin())];
  };
  CHECK(at("launch_ms") == 2);
  CHECK(at("l2_line_ms") == 3);
  CHECK(at("l2_sector_ms") == 9);
  CHECK(at("dram_read_ms") == 6);
  CHECK(at("dram_write_ms") == 7);
  CHECK(at("activation_ms") == 8 + 9 - 4);  // reads' rows and whole-sector write-backs' rows
  CHECK(at("rmw_activation_ms") == 4);
  CHECK(at("shared_time_unit_ms") == 11);
  CHECK(kDefaultCostModel == "rmw-rows");
  // The prediction is the sum of constant x count, in the order of the prices.
  CHECK(predicted_ms(rmw, c) == 2 + 3 + 9 + 6 + 7 + 13 + 4 + 11);
}
