// The Monte Carlo's fast draws and shortcuts against plain ones: uniform permutations from batched
// draws, uniform bit fields and bounded draws, and congestion statistics equal to a straightforward
// Monte Carlo that draws every layout in full (NMI Sect. V).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/patterns.h"
#include "models/bank_counter.h"
#include "models/layouts/draws.h"
#include "models/layouts/matrix_layout.h"

using namespace mmsim;
using namespace mmsim::layouts;

namespace {

// Pearson's chi-square of counts against equal expectations.
double chi_square(const std::vector<std::uint64_t>& counts) {
  double total = 0;
  for (auto c : counts) total += static_cast<double>(c);
  const double e = total / static_cast<double>(counts.size());
  double x = 0;
  for (auto c : counts) x += (static_cast<double>(c) - e) * (static_cast<double>(c) - e) / e;
  return x;
}
// A loose upper limit for chi-square with k degrees of freedom (about 5 standard deviations).
double chi_limit(double k) { return k + 5 * std::sqrt(2 * k); }

struct MeanSe {
  double mean, se;
};

// The plain Monte Carlo: a full MatrixLayout drawn each trial, the access from draw_matrix_cells, the
// congestion from BankCounter with addresses (so merging is by address, not by cell).
MeanSe plain_monte_carlo(MatrixLayoutKind kind, MatrixPattern pattern, std::uint32_t w, std::uint64_t trials,
                         std::uint64_t seed) {
  Draws draws(seed);
  MatrixLayout layout(kind, w, draws);
  BankCounter counter(w);
  std::vector<std::uint32_t> rows(w), cols(w), banks(w);
  std::vector<Address> addrs(w);
  double sum = 0, sq = 0;
  for (std::uint64_t t = 0; t < trials; ++t) {
    layout.redraw(draws);
    draw_matrix_pattern(pattern, w, draws, rows.data(), cols.data());
    for (std::uint32_t k = 0; k < w; ++k)
      banks[k] = layout.bank(rows[k], cols[k]), addrs[k] = layout.address(rows[k], cols[k]);
    const double c = counter.congestion(banks.data(), addrs.data(), w, false);
    sum += c, sq += c * c;
  }
  const double n = static_cast<double>(trials), mean = sum / n;
  return {mean, std::sqrt(std::max(0.0, sq / n - mean * mean) / n)};
}

}  // namespace

TEST_CASE("Shuffler: every draw a permutation; all 24 permutations of 4 equally often") {
  FastDraws d(5);
  for (std::uint32_t n : {1u, 2u, 3u, 17u, 32u, 33u, 1000u, 4096u}) {
    Shuffler s(n);
    std::vector<std::uint32_t> r(n, 7);
    for (int k = 0; k < 20; ++k) {
      s.shuffle(d, r.data());
      auto sorted = r;
      std::sort(sorted.begin(), sorted.end());
      for (std::uint32_t i = 0; i < n; ++i) REQUIRE(sorted[i] == i);
    }
  }
  Shuffler s(4);
  std::map<std::vector<std::uint32_t>, std::uint64_t> seen;
  std::vector<std::uint32_t> r(4);
  for (int k = 0; k < 48000; ++k) {
    s.shuffle(d, r.data());
    ++seen[r];
  }
  REQUIRE(seen.size() == 24);
  std::vector<std::uint64_t> counts;
  for (const auto& [p, c] : seen) counts.push_back(c);
  CHECK(chi_square(counts) < chi_limit(23));
}

TEST_CASE("Shuffler at w = 32: each position takes each value equally often") {
  FastDraws d(6);
  Shuffler s(32);
  std::vector<std::uint32_t> r(32);
  std::vector<std::uint64_t> pos0(32, 0), pos31(32, 0);
  for (int k = 0; k < 64000; ++k) {
    s.shuffle(d, r.data());
    ++pos0[r[0]], ++pos31[r[31]];
  }
  CHECK(chi_square(pos0) < chi_limit(31));
  CHECK(chi_square(pos31) < chi_limit(31));
}

TEST_CASE("FastDraws: bit fields and bounded draws are uniform") {
  FastDraws d(7);
  for (unsigned bits : {1u, 5u, 10u}) {
    std::vector<std::uint64_t> counts(std::size_t{1} << bits, 0);
    std::vector<std::uint32_t> out(37);
    for (int k = 0; k < 3000; ++k) {
      d.fill_bits(out.data(), 37, bits);
      for (auto v : out) {
        REQUIRE(v < counts.size());
        ++counts[v];
      }
    }
    CHECK(chi_square(counts) < chi_limit(static_cast<double>(counts.size() - 1)));
  }
  for (std::uint32_t bound : {3u, 7u, 33u, 1000u}) {
    std::vector<std::uint64_t> counts(bound, 0);
    for (std::uint32_t k = 0; k < 200 * bound; ++k) {
      const auto v = d.below(bound);
      REQUIRE(v < bound);
      ++counts[v];
    }
    CHECK(chi_square(counts) < chi_limit(bound - 1.0));
  }
}

TEST_CASE("fast Monte Carlo = a plain one that draws every layout in full") {
  for (std::uint32_t w : {5u, 8u, 16u}) {
    for (auto kind : matrix_layout_kinds()) {
      for (auto pattern : matrix_patterns()) {
        const std::uint64_t trials = 6000;
        const MeanSe plain = plain_monte_carlo(kind, pattern, w, trials, 100 + w);
        CongestionQuery q;
        q.layout = to_string(kind), q.pattern = to_string(pattern), q.w = w, q.trials = trials, q.seed = 3 + w;
        const auto fast = simulate_congestion(q);
        INFO(q.layout << " " << q.pattern << " w = " << w << ": fast " << fast.mean << " +- " << fast.stderr_mean
                      << ", plain " << plain.mean << " +- " << plain.se);
        if (plain.se == 0 && fast.stderr_mean == 0) {
          CHECK(fast.mean == plain.mean);
        } else {
          CHECK(std::fabs(fast.mean - plain.mean) <=
                5 * std::sqrt(plain.se * plain.se + fast.stderr_mean * fast.stderr_mean));
        }
      }
    }
  }
}

TEST_CASE("fast Monte Carlo beyond the stamped table: random at w = 300 and 512 (merging by chains)") {
  // Fast against plain in standard errors of the difference, 5 of them (a false alarm about once in
  // 1.7 million). Power: the congestion's standard deviation is below 0.75 here, so with n trials on
  // each side the difference has se <= 0.75 sqrt(2 / n); a shift of the fast mean by 0.1 fails with
  // probability >= 99% once 0.1 >= (5 + 2.33) se, that is n >= 6,050: 6,400 trials, and the test checks
  // that the measured se stays within that bound.
  constexpr double kShift = 0.1, kZ = 5.0;
  constexpr std::uint64_t kTrials = 6400;
  for (std::uint32_t w : {300u, 512u}) {
    CongestionQuery q;
    q.layout = "rap", q.pattern = "random", q.w = w, q.trials = kTrials, q.seed = 4;
    const auto fast = simulate_congestion(q);
    const MeanSe plain = plain_monte_carlo(MatrixLayoutKind::Rap, MatrixPattern::Random, w, kTrials, 40 + w);
    const double se = std::sqrt(plain.se * plain.se + fast.stderr_mean * fast.stderr_mean);
    INFO("w = " << w << ": fast " << fast.mean << ", plain " << plain.mean << ", se of the difference " << se);
    CHECK(fast.trials == kTrials);
    CHECK(se <= kShift / (kZ + 2.33));
    CHECK(std::fabs(fast.mean - plain.mean) <= kZ * se);
  }
}
