// The tile term fitted on the tile microbenchmarks: a bench as a sample by hand, the fit recovering
// the costs and the form that made the samples, a left-out K predicted from the others, and the
// refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "predict/instruction_bench.h"
#include "predict/tile_cost.h"

using namespace mmsim::predict;

namespace {

constexpr double kSms = 132, kL2 = 50.0 * (1 << 20);

// The out-of-place tile benches made by 5000 cycles fixed, rounds of 800 (within the L2) or 1500
// (beyond) + 100 a load, and 0.5 or 1.25 cycles a word per SM, in the form given.
std::vector<TileSample> made(CostForm form) {
  std::vector<TileSample> out;
  for (const TileBench& b : tile_benches()) {
    if (b.in_place) continue;
    TileSample s = tile_sample(b, kSms, kL2, 1);
    const double latency = s.waves * ((s.beyond_l2 ? 1500 : 800) + 100 * s.loads);
    const double throughput = s.words_per_sm * (s.beyond_l2 ? 1.25 : 0.5);
    s.cycles = 5000 + (form == CostForm::Bound ? std::max(latency, throughput) : latency + throughput);
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("tile sample: waves, words per SM and the L2 by hand") {
  // 16 MiB = 4 Mi words; K = 2: 8192 blocks of 512 words; 2 a SM on 132 SMs: ceil(8192 / 264) = 32.
  const TileSample s = tile_sample({2, 2, 16, false}, kSms, kL2, 900);
  CHECK(s.bench == "tile-k2-b2-m16");
  CHECK(s.loads == 2);
  CHECK(s.waves == 32);
  CHECK(s.cycles == 900);
  CHECK(s.words_per_sm == doctest::Approx(2.0 * (4 << 20) / 132));
  CHECK_FALSE(s.beyond_l2);  // 32 MiB in and out
  CHECK(tile_sample({2, 2, 16, false}, kSms, 24.0 * (1 << 20), 1).beyond_l2);
  CHECK_FALSE(tile_sample({2, 2, 16, true}, kSms, 24.0 * (1 << 20), 1).beyond_l2);  // in place: one array
  CHECK(tile_sample({1, 8, 256, false}, kSms, kL2, 1).beyond_l2);
}

TEST_CASE("tile costs: the fit recovers the costs that made the samples, and their form") {
  for (const CostForm form : {CostForm::Bound, CostForm::Additive}) {
    CAPTURE(to_string(form));
    const TileCosts c = fit_tile_costs(made(form));
    CHECK(c.form == form);
    CHECK(c.fixed == doctest::Approx(5000).epsilon(1e-6));
    CHECK(c.round_l2 == doctest::Approx(800).epsilon(1e-6));
    CHECK(c.round_dram == doctest::Approx(1500).epsilon(1e-6));
    CHECK(c.per_load == doctest::Approx(100).epsilon(1e-6));
    CHECK(c.per_word_l2 == doctest::Approx(0.5).epsilon(1e-6));
    CHECK(c.per_word_dram == doctest::Approx(1.25).epsilon(1e-6));
    CHECK(c.fitted == doctest::Approx(0).epsilon(1e-6));
    CHECK(c.held_out == doctest::Approx(0).epsilon(1e-5));
    CHECK(c.samples == 96);
  }
  // By hand, the bound form: 3 waves of 4 loads against 1000 words within the L2.
  const TileCosts c = fit_tile_costs(made(CostForm::Bound));
  TileSample s;
  s.loads = 4;
  s.waves = 3;
  s.words_per_sm = 1000;
  CHECK(c.cycles(s) == doctest::Approx(5000 + std::max(3 * 1200.0, 500.0)));
  s.beyond_l2 = true;
  CHECK(c.cycles(s) == doctest::Approx(5000 + std::max(3 * 1900.0, 1250.0)));
  s.words_per_sm = 100000;
  CHECK(c.cycles(s) == doctest::Approx(5000 + 125000.0));
  CHECK(describe(c).find("bound, 5000 cycles + max(waves x (800 or 1500 + loads x 100), words per SM x 0.5 or 1.25), "
                         "within or beyond the L2 (96 microbenchmarks: median error 0.000 fitted") == 0);
}

TEST_CASE("tile costs: a K the fit did not see is predicted from the others") {
  // The K = 8 benches made at twice their cycles: left out, each is predicted at half of them.
  std::vector<TileSample> s = made(CostForm::Bound);
  for (TileSample& x : s)
    if (x.loads == 8) x.cycles *= 2;
  const TileCosts c = fit_tile_costs(s);
  CHECK(c.worst_held_out >= 2 - 1e-6);  // the others, fitted with the K = 8 benches, may miss by more
  CHECK(c.held_out > 0);
}

TEST_CASE("tile costs: too few samples, one K, or a non-positive figure is refused") {
  const std::vector<TileSample> s = made(CostForm::Bound);
  CHECK_THROWS_AS(fit_tile_costs({s.begin(), s.begin() + 5}), std::invalid_argument);
  std::vector<TileSample> one_k;
  for (const TileSample& x : s)
    if (x.loads == 1) one_k.push_back(x);
  CHECK_THROWS_AS(fit_tile_costs(one_k), std::invalid_argument);
  for (double TileSample::*field :
       {&TileSample::loads, &TileSample::waves, &TileSample::words_per_sm, &TileSample::cycles}) {
    std::vector<TileSample> bad = s;
    bad[5].*field = 0;
    CHECK_THROWS_WITH_AS(fit_tile_costs(bad), doctest::Contains(bad[5].bench.c_str()), std::invalid_argument);
  }
}
