// NMI Table II at every w of the table (16 .. 256) by Monte Carlo, with a tolerance in standard
// errors and a number of trials chosen for power (fixed seed: deterministic, not tuned).
#include <doctest/doctest.h>

#include <cmath>

#include "algorithms/layouts/congestion_mc.h"

using namespace mmsim::layouts;

namespace {

// The rule: a cell passes when |measured - paper| <= kZ standard errors + the paper's rounding to two
// decimals. kZ = 4 makes a false alarm about 1 in 16000 per cell. Power: if the true mean sits
// kShift away from the paper's value, the measured difference is normal around kShift with the same
// standard error, and the cell fails unless it falls kShift - 0.005 - kZ se below it; with
// se <= kMaxSe = (kShift - 0.005) / (kZ + 2.33) that happens with probability below 1% (2.33 is the
// normal 99% quantile). The congestion's standard deviation is below 0.82 in every random cell
// (0.73 .. 0.80 measured, rap diagonal the largest), so kTrials = (0.82 / kMaxSe)^2 = 13,300, rounded up
// to 14,000, give se <= kMaxSe, which the test checks: a shift of 0.05 in any random cell is caught
// with probability >= 99%. The cells whose value is 1 or w (contiguous; stride and diagonal under raw;
// stride under rap) are exact: every trial must give that value.
constexpr double kZ = 4.0;
constexpr double kRounding = 0.005;
constexpr double kShift = 0.05;
constexpr double kMaxSe = (kShift - kRounding) / (kZ + 2.33);
constexpr std::uint64_t kTrials = 14000;

struct Row {
  const char *layout, *pattern;
  double paper[5];  // at w = 16, 32, 64, 128, 256
};

}  // namespace

TEST_CASE("Table II at every w, within 4 standard errors, a shift of 0.05 caught with probability 99%") {
  const std::uint32_t widths[5] = {16, 32, 64, 128, 256};
  const Row rows[] = {
      {"raw", "contiguous", {1, 1, 1, 1, 1}},
      {"raw", "stride", {16, 32, 64, 128, 256}},
      {"raw", "diagonal", {1, 1, 1, 1, 1}},
      {"raw", "random", {2.92, 3.44, 3.90, 4.34, 4.75}},
      {"ras", "contiguous", {1, 1, 1, 1, 1}},
      {"ras", "stride", {3.08, 3.53, 3.96, 4.38, 4.77}},
      {"ras", "diagonal", {3.08, 3.53, 3.96, 4.38, 4.77}},
      {"ras", "random", {2.92, 3.44, 3.90, 4.34, 4.75}},
      {"rap", "contiguous", {1, 1, 1, 1, 1}},
      {"rap", "stride", {1, 1, 1, 1, 1}},
      {"rap", "diagonal", {3.20, 3.61, 4.00, 4.41, 4.78}},
      {"rap", "random", {2.92, 3.44, 3.90, 4.34, 4.75}},
  };
  std::uint64_t seed = 2024;
  for (const auto& r : rows)
    for (int i = 0; i < 5; ++i) {
      CongestionQuery q;
      q.layout = r.layout, q.pattern = r.pattern, q.w = widths[i], q.trials = kTrials, q.seed = seed++;
      const auto s = simulate_congestion(q);
      INFO(r.layout << " " << r.pattern << " w = " << widths[i] << ": mean " << s.mean << " +- " << s.stderr_mean);
      std::uint64_t total = 0;
      for (auto n : s.histogram) total += n;
      CHECK(total == q.trials);
      if (r.paper[i] == 1 || r.paper[i] == widths[i]) {
        CHECK(s.stderr_mean == 0);  // exact: every trial gives the same
        CHECK(s.mean == r.paper[i]);
      } else {
        CHECK(s.stderr_mean <= kMaxSe);  // the power stated above holds for this cell
        CHECK(std::fabs(s.mean - r.paper[i]) <= kZ * s.stderr_mean + kRounding);
      }
    }
}

TEST_CASE("one seed, one result") {
  CongestionQuery q;
  q.layout = "rap", q.pattern = "random", q.w = 20, q.trials = 3000, q.seed = 9;
  const auto a = simulate_congestion(q), b = simulate_congestion(q);
  CHECK(a.histogram == b.histogram);
  q.seed = 10;
  CHECK(simulate_congestion(q).histogram != a.histogram);
}
