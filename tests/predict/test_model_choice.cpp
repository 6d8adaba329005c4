// The model choice (predict/model_choice.h): leave-one-pattern-out cross-validation on the
// microbenchmarks alone. A model that made the timings predicts every pattern left out exactly; a
// pattern's own times never reach its held-out prediction; the interval covers 80 % of the held-out
// microbenchmarks; the profile file keeps the choice and refuses a broken one.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "predict/gpu_profile.h"
#include "predict/model_choice.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

// Counts made up by hand, varied enough that every constant matters: a pattern per kind and stride,
// each at three sizes.
struct Data {
  std::vector<MicrobenchTiming> timings;
  std::vector<RunCounts> counts;
};

Data made_up_data(const CostModel& truth) {
  Data d;
  const std::vector<std::pair<MicrobenchKind, std::uint32_t>> patterns = {
      {MicrobenchKind::Copy, 1},        {MicrobenchKind::ReadStride, 4}, {MicrobenchKind::WriteStride, 4},
      {MicrobenchKind::ReadStride, 32}, {MicrobenchKind::ReadRandom, 1}, {MicrobenchKind::WriteRandom, 1},
      {MicrobenchKind::Shared, 2},      {MicrobenchKind::Shared, 8},     {MicrobenchKind::Empty, 1}};
  std::uint64_t seed = 7;
  const auto next = [&seed] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % 1000 + 1;
  };
  for (const auto& [kind, stride] : patterns)
    for (std::uint64_t scale = 1; scale <= 3; ++scale) {
      MicrobenchTiming t;
      t.bench = {kind, 4096 * scale, stride, kind == MicrobenchKind::Shared ? 8u : 0u, 4};
      RunCounts c;
      c.launches = 1;
      c.shared_time_units = kind == MicrobenchKind::Shared ? next() * scale : 0;
      c.memory.umm_groups = next() * scale * 100;
      c.memory.lines = next() * scale * 100;
      c.memory.read_sectors = next() * scale * 100;
      c.memory.write_sectors = next() * scale * 100;
      c.memory.dram_reads = next() * scale * 50;
      c.memory.dram_writes = next() * scale * 50;
      c.memory.activations = next() * scale * 10;
      c.memory.rmw_activations = c.memory.activations / 3;
      t.median_ms = predicted_ms(truth, c);
      d.timings.push_back(t);
      d.counts.push_back(c);
    }
  return d;
}

CostModel model_of(std::string_view name, double scale) {
  for (const CostModelSpec& spec : fitted_models())
    if (spec.name == name) {
      CostModel m = unfitted(spec);
      for (std::size_t i = 0; i < m.prices.size(); ++i) m.prices[i].ms = scale * static_cast<double>(i + 1);
      return m;
    }
  FAIL("no model " << name);
  return {};
}

std::vector<CostModel> every_model() {
  std::vector<CostModel> models;
  for (const CostModelSpec& spec : fitted_models()) models.push_back(unfitted(spec));
  return models;
}

}  // namespace

TEST_CASE("the model that made the timings predicts each pattern left out exactly, and is chosen") {
  const CostModel truth = model_of("dram-rows", 1e-6);
  const Data d = made_up_data(truth);
  const ModelChoice choice = choose_model(every_model(), d.timings, d.counts);
  REQUIRE(choice.models.size() == fitted_models().size());
  CHECK(choice.chosen == "dram-rows");
  const HeldOutError* e = choice.of("dram-rows");
  REQUIRE(e != nullptr);
  CHECK(e->patterns == 9);
  CHECK(e->median_abs_error < 1e-6);
  CHECK(e->interval_factor == doctest::Approx(1).epsilon(1e-6));
  // papers prices none of the DRAM counts: it cannot reproduce timings made by them.
  CHECK(choice.of("papers")->median_abs_error > 0.01);
  CHECK(choice.of("papers")->interval_factor > 1.01);
}

TEST_CASE("a pattern's own timings never reach its held-out prediction") {
  const Data d = made_up_data(model_of("rmw-rows", 2e-6));
  const CostModel& model = unfitted(fitted_models()[2]);
  const std::vector<double> before = held_out_predictions(model, d.timings, d.counts);
  Data changed = d;
  for (MicrobenchTiming& t : changed.timings)
    if (t.bench.name() == "write-random") t.median_ms *= 5;  // that pattern measured five times slower
  const std::vector<double> after = held_out_predictions(model, changed.timings, changed.counts);
  int write_random = 0;
  for (std::size_t i = 0; i < d.timings.size(); ++i)
    if (d.timings[i].bench.name() == "write-random") {
      CHECK(after[i] == doctest::Approx(before[i]).epsilon(1e-9));
      ++write_random;
    }
  CHECK(write_random == 3);
  // The other patterns' fits did see it: some of their predictions moved.
  bool moved = false;
  for (std::size_t i = 0; i < d.timings.size(); ++i)
    if (d.timings[i].bench.name() != "write-random" && std::abs(after[i] / before[i] - 1) > 1e-6) moved = true;
  CHECK(moved);
}

TEST_CASE("the interval covers 80 % of the held-out microbenchmarks and no smaller factor does") {
  // Timings of one model, with noise the cross-validation must absorb.
  Data d = made_up_data(model_of("rmw-rows", 1e-6));
  for (std::size_t i = 0; i < d.timings.size(); ++i) d.timings[i].median_ms *= 1 + 0.3 * std::sin(3.0 * i);
  const ModelChoice choice = choose_model(every_model(), d.timings, d.counts);
  for (const HeldOutError& e : choice.models) {
    std::vector<double> logs;
    const std::vector<double> p =
        held_out_predictions(unfitted(*std::find_if(fitted_models().begin(), fitted_models().end(),
                                                    [&](const CostModelSpec& s) { return s.name == e.model; })),
                             d.timings, d.counts);
    std::size_t inside = 0, strictly_inside = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double l = std::abs(std::log(p[i] / d.timings[i].median_ms));
      inside += l <= std::log(e.interval_factor) + 1e-12;
      strictly_inside += l < std::log(e.interval_factor) - 1e-12;
    }
    CHECK(static_cast<double>(inside) >= kIntervalCoverage * static_cast<double>(p.size()));
    CHECK(static_cast<double>(strictly_inside) < kIntervalCoverage * static_cast<double>(p.size()));
  }
}

TEST_CASE("too few patterns, or no counts, give no choice") {
  const Data d = made_up_data(model_of("papers", 1e-6));
  const std::vector<MicrobenchTiming> one(d.timings.begin(), d.timings.begin() + 3);
  const std::vector<RunCounts> one_counts(d.counts.begin(), d.counts.begin() + 3);
  CHECK(choose_model(every_model(), one, one_counts).chosen.empty());
  CHECK(choose_model(every_model(), d.timings, {}).chosen.empty());
}

TEST_CASE("the profile file keeps the choice, and refuses one that names a model it does not price") {
  const CostModel truth = model_of("dram-rows", 1e-6);
  const Data d = made_up_data(truth);
  GpuProfile p;
  p.device = "test";
  p.date = "2026-01-01";
  p.gpu.name = "test GPU";
  p.gpu.sm_count = 4;
  p.machine = MachineParams{ModelKind::Hmm, 32, 1, 400, 4};
  p.memory.sector_bytes = 32;
  p.memory.cache_bytes = 65536;
  p.memory.cache_ways = 16;
  p.memory.dram_row_bytes = 1024;
  p.memory.dram_banks = 16;
  p.models = every_model();
  p.timings = d.timings;
  p.timing_counts = d.counts;
  p.choice = choose_model(p.models, p.timings, p.timing_counts);
  const auto file = std::filesystem::temp_directory_path() / "mmsim-model-choice.json";
  const auto write = [&](const std::string& text) {
    std::ofstream out(file);
    out << text;
  };
  write(profile_json(p));
  const GpuProfile back = read_profile(file);
  CHECK(back.choice.chosen == "dram-rows");
  CHECK(back.default_model() == "dram-rows");
  REQUIRE(back.choice.models.size() == p.choice.models.size());
  CHECK(back.choice.of("papers")->interval_factor ==
        doctest::Approx(p.choice.of("papers")->interval_factor).epsilon(1e-9));
  // Without a recorded choice (a profile of an earlier format), the built-in default.
  GpuProfile old = p;
  old.choice = {};
  write(profile_json(old));
  CHECK(read_profile(file).default_model() == std::string(kDefaultCostModel));
  // A choice naming a model the profile does not hold is refused, naming the field.
  std::string text = profile_json(p);
  const std::string chosen = "\"chosen\": \"dram-rows\"";
  REQUIRE(text.find(chosen) != std::string::npos);
  text.replace(text.find(chosen), chosen.size(), "\"chosen\": \"nope\"");
  write(text);
  CHECK_THROWS_WITH_AS(read_profile(file), doctest::Contains("model_choice.chosen"), std::invalid_argument);
  std::filesystem::remove(file);
}
