// The parallel schedule builder: the edge colouring, the row schedules and the scheduled
// permutation's three steps are the same for 1, 2, 3 and 8 threads, and still correct.
#include <doctest/doctest.h>

#include <numeric>
#include <stdexcept>

#include "algorithms/offline/edge_colouring.h"
#include "algorithms/offline/row_schedule.h"
#include "algorithms/permutations/permutation.h"
#include "sim/random.h"

using namespace mmsim;
using namespace mmsim::offline;

namespace {

constexpr unsigned kThreadCounts[] = {1, 2, 3, 8};

// A `degree`-regular bipartite multigraph grouped by left node: edge x degree + i is left node x's
// i-th edge, from a union of random perfect matchings, shuffled within each node's run.
std::vector<std::uint32_t> random_grouped(std::uint32_t nodes, std::uint32_t degree, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::uint32_t> v(std::size_t{nodes} * degree), p(nodes);
  for (std::uint32_t d = 0; d < degree; ++d) {
    std::iota(p.begin(), p.end(), 0u);
    rng.shuffle(std::span<std::uint32_t>(p));
    for (std::uint32_t x = 0; x < nodes; ++x) v[std::size_t{x} * degree + d] = p[x];
  }
  for (std::uint32_t x = 0; x < nodes; ++x)
    rng.shuffle(std::span<std::uint32_t>(v.data() + std::size_t{x} * degree, degree));
  return v;
}

// The colouring with one thread and chains walked one at a time, against every thread count, both
// chain walks, and every split on its threads (the pairing in pieces, walks meeting across threads).
void check_same_colouring(std::uint32_t nodes, std::uint32_t degree, const std::vector<std::uint32_t>& v) {
  std::vector<std::uint32_t> u(v.size());
  for (std::size_t e = 0; e < v.size(); ++e) u[e] = static_cast<std::uint32_t>(e / degree);
  std::vector<std::uint32_t> one(v.size());
  RegularBipartiteColourer c1;
  c1.set_interleave_threshold(std::size_t{1} << 30);
  c1.colour_grouped(nodes, v, one, 1);
  CHECK(is_proper_colouring(nodes, u, v, one, degree));
  for (const std::size_t interleave : {std::size_t{2}, std::size_t{1} << 30}) {
    CAPTURE(interleave);
    for (const unsigned threads : kThreadCounts) {
      CAPTURE(threads);
      RegularBipartiteColourer c;
      c.set_parallel_threshold(1);  // every split of a small graph goes to the threads
      c.set_interleave_threshold(interleave);
      std::vector<std::uint32_t> colour(v.size());
      c.colour_grouped(nodes, v, colour, threads);
      CHECK(colour == one);
      // Reused, as the row schedule reuses its colourer row after row.
      c.colour_grouped(nodes, v, colour, threads);
      CHECK(colour == one);
    }
  }
}

}  // namespace

TEST_CASE("edge colouring: the same colouring for every thread count, odd degrees on the way included") {
  std::uint64_t seed = 1;
  for (const std::uint32_t nodes : {1u, 3u, 40u, 97u})
    for (const std::uint32_t degree : {2u, 7u, 12u, 26u, 64u, 99u}) {
      CAPTURE(nodes);
      CAPTURE(degree);
      check_same_colouring(nodes, degree, random_grouped(nodes, degree, seed++));
    }
}

TEST_CASE("edge colouring: the same colouring for every thread count on many walk chunks") {
  // 2^15 and 3 x 2^13 pairs at the top: dozens of chunks of walks, walks meeting across threads.
  check_same_colouring(256, 256, random_grouped(256, 256, 41));
  check_same_colouring(384, 128, random_grouped(384, 128, 42));
}

TEST_CASE("edge colouring: the same colouring for every thread count, chains of one pair") {
  // Each left node's edges all go to one right node: every left pair is a chain of its own.
  const std::uint32_t nodes = 50, degree = 64;
  std::vector<std::uint32_t> v(std::size_t{nodes} * degree);
  for (std::size_t e = 0; e < v.size(); ++e) v[e] = static_cast<std::uint32_t>((e / degree * 7) % nodes);
  check_same_colouring(nodes, degree, v);
}

TEST_CASE("three-step schedule: the same tables for every thread count, composing to P") {
  // 2^18 elements: the row multigraph's halves are large enough for threads and interleaved walks.
  struct Case {
    std::uint64_t n;
    int w;
    const char* perm;
  };
  for (const auto& [n, w, name] : {Case{std::uint64_t{1} << 18, 32, "random"}, Case{9216, 8, "random"},
                                   Case{std::uint64_t{1} << 16, 16, "bit-reversal"}}) {
    CAPTURE(n);
    const Permutation p = named_permutation(name, n, 3);
    const ThreeStepSchedule one = three_step_schedule(p.p, w, nullptr, 1);
    std::string why;
    const auto composed = composed_permutation(one, why);
    REQUIRE_MESSAGE(composed.has_value(), why);
    CHECK(*composed == p.p);
    for (const unsigned threads : kThreadCounts) {
      CAPTURE(threads);
      ScheduleTiming timing;
      const ThreeStepSchedule s = three_step_schedule(p.p, w, &timing, threads);
      CHECK(timing.threads == threads);
      for (int t = 0; t < 3; ++t) {
        CHECK(s.step[t].s == one.step[t].s);
        CHECK(s.step[t].d == one.step[t].d);
      }
    }
  }
}

TEST_CASE("row schedule: a bad row is reported as the first one, for every thread count") {
  const std::uint64_t N = 64;
  std::vector<Word> rows(N * N);
  for (std::uint64_t r = 0; r < N; ++r)
    std::iota(rows.begin() + static_cast<std::ptrdiff_t>(r * N),
              rows.begin() + static_cast<std::ptrdiff_t>((r + 1) * N), Word{0});
  rows[17 * N + 3] = 5;  // rows 17 and 50 repeat a value
  rows[50 * N] = 9;
  for (const unsigned threads : kThreadCounts) {
    std::string what;
    try {
      (void)row_schedule(rows, N, 8, threads);
    } catch (const std::invalid_argument& e) {
      what = e.what();
    }
    CHECK(what == "row schedule: row 17 is not a permutation of 0..N-1");
  }
}
