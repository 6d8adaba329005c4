// The congestion Monte Carlo on several host threads: the trials are cut into blocks of
// kBlockTrials, each drawing from a stream of its own, so every thread count gives the same histogram.
#include <doctest/doctest.h>

#include <algorithm>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/patterns.h"
#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"

using namespace mmsim::layouts;

namespace {

CongestionStats run(CongestionQuery q, unsigned threads) {
  q.threads = threads;
  return simulate_congestion(q);
}

void check_thread_counts(const CongestionQuery& q) {
  const auto one = run(q, 1);
  std::uint64_t total = 0;
  for (auto n : one.histogram) total += n;
  CHECK(total == q.trials);
  for (unsigned threads : {2u, 3u, 8u}) {
    const auto many = run(q, threads);
    INFO(q.layout << " x " << q.pattern << ", dims " << q.dims << ", w = " << q.w << ", " << threads << " threads");
    const auto blocks = (q.trials + kBlockTrials - 1) / kBlockTrials;  // no more threads than blocks
    CHECK(many.threads == std::min<std::uint64_t>(threads, blocks));
    CHECK(many.histogram == one.histogram);
  }
}

}  // namespace

TEST_CASE("every 2D layout and pattern gives the same histogram on 1, 2, 3 and 8 threads") {
  for (std::uint32_t w : {8u, 12u}) {  // a power of two and not (two code paths)
    for (auto k : matrix_layout_kinds()) {
      for (auto p : matrix_patterns()) {
        CongestionQuery q;
        q.layout = std::string(to_string(k)), q.pattern = std::string(to_string(p)), q.w = w;
        q.trials = 3 * kBlockTrials + 17, q.seed = 5;  // three whole blocks and a short one
        check_thread_counts(q);
      }
    }
  }
}

TEST_CASE("every 4D layout and pattern gives the same histogram on 1, 2, 3 and 8 threads") {
  for (auto k : array4_layout_kinds()) {
    for (auto p : array4_patterns()) {
      CongestionQuery q;
      q.dims = 4, q.layout = std::string(to_string(k)), q.pattern = std::string(to_string(p)), q.w = 4;
      q.trials = 2 * kBlockTrials + 5, q.seed = 7;
      check_thread_counts(q);
    }
  }
}

TEST_CASE("the blocks draw different trials: a run of two blocks is not the first block twice") {
  CongestionQuery q;
  q.layout = "rap", q.pattern = "random", q.w = 16, q.seed = 3, q.threads = 1;
  q.trials = kBlockTrials;
  const auto first = simulate_congestion(q);
  q.trials = 2 * kBlockTrials;
  auto both = simulate_congestion(q);
  // The second block's histogram is both's minus first's; it must differ from first's.
  std::vector<std::uint64_t> second(both.histogram.size(), 0);
  for (std::size_t c = 0; c < both.histogram.size(); ++c)
    second[c] = both.histogram[c] - (c < first.histogram.size() ? first.histogram[c] : 0);
  auto a = first.histogram;
  a.resize(second.size(), 0);
  CHECK(second != a);
}

TEST_CASE("a thread count above 1024 is refused") {
  CongestionQuery q;
  q.threads = 1025;
  CHECK_THROWS(simulate_congestion(q));
}
