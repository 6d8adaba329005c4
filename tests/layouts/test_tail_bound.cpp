// NMI Lemma 4's tail bound (algorithms/layouts/rap_tail_bound.h) against the lemma's own statement
// and against the Monte Carlo's congestion distribution of RAP.
#include <doctest/doctest.h>

#include <cmath>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/rap_tail_bound.h"

using namespace mmsim::layouts;

TEST_CASE("Chernoff with mean 1: e/4 at k = 2, no bound at k <= 1 (NMI Theorem 3)") {
  CHECK(chernoff_mean_one(2) == doctest::Approx(std::exp(1.0) / 4));
  CHECK(chernoff_mean_one(3) == doctest::Approx(std::exp(2.0) / 27));
  CHECK(chernoff_mean_one(1) == 1.0);
  CHECK(chernoff_mean_one(0.5) == 1.0);
}

TEST_CASE("Lemma 4 as stated: past e^2 ln w / ln ln w the Chernoff tail is below 1 / w^2") {
  for (std::uint32_t w = 16; w <= 4096; w *= 2) {
    const double t = lemma4_threshold(w);
    CHECK(t == doctest::Approx(std::exp(2.0) * std::log(w) / std::log(std::log(w))));
    CHECK(chernoff_mean_one(t) < 1.0 / (static_cast<double>(w) * w));
  }
}

TEST_CASE("the warp's tail bound: 1 up to c = 2, then 2w times the half warp's Chernoff tail, never rising") {
  for (std::uint32_t w : {32u, 256u}) {
    CHECK(rap_congestion_tail_bound(w, 1) == 1.0);
    CHECK(rap_congestion_tail_bound(w, 2) == 1.0);
    CHECK(rap_congestion_tail_bound(w, 13) == doctest::Approx(std::min(1.0, 2.0 * w * chernoff_mean_one(7))));
    for (int c = 2; c <= static_cast<int>(w); ++c)
      CHECK(rap_congestion_tail_bound(w, c) <= rap_congestion_tail_bound(w, c - 1));
  }
  // It falls below 1 where the half warps' threshold is a few requests: at w = 32 from c = 11.
  CHECK(rap_congestion_tail_bound(32, 10) == 1.0);
  CHECK(rap_congestion_tail_bound(32, 11) < 0.25);
}

TEST_CASE("RAP's simulated congestion stays under the bound at every c (diagonal and random, w = 32)") {
  for (const char* pattern : {"diagonal", "random"}) {
    const auto s =
        simulate_congestion({.dims = 2, .layout = "rap", .pattern = pattern, .w = 32, .trials = 20000, .seed = 3});
    std::uint64_t above = 0;
    for (int c = s.max; c >= 1; --c) {
      if (static_cast<std::size_t>(c) < s.histogram.size()) above += s.histogram[static_cast<std::size_t>(c)];
      const double tail = static_cast<double>(above) / static_cast<double>(s.trials);
      CHECK(tail <= rap_congestion_tail_bound(32, c));
    }
    // The congestion does reach past 2 (so the comparison above is not only against the cap of 1).
    CHECK(s.max >= 3);
  }
}
