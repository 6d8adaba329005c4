// The offline algorithms' after_launch observer, and KNI Sect. 7's three steps read through it:
// what each step leaves in memory is what Sect. 7 says it must be.
#include <doctest/doctest.h>

#include <unordered_map>
#include <variant>

#include "algorithms/offline/offline.h"
#include "algorithms/permutations/permutation_algorithm.h"

using namespace mmsim;

namespace {

struct Observed {
  std::vector<std::string> kernels;
  std::vector<std::vector<Word>> destinations;  ///< the global array each kernel wrote last
  RunReport run;
};

Observed observe(const PermutationAlgorithm& algo, const Permutation& p, int w) {
  const Machine machine({.model = ModelKind::Hmm, .w = w, .l = 1, .L = 5, .k = 2});
  Observed o;
  PermutationInput in;
  in.perm = &p;
  in.after_launch = [&o](Engine& engine, const Kernel& k) {
    o.kernels.push_back(k.name);
    ArrayId last = -1;
    for (const Step& s : k.steps)
      if (const auto* a = std::get_if<Access>(&s);
          a && a->op == Op::Write && engine.array(a->array).space == Space::Global)
        last = a->array;
    REQUIRE(last >= 0);
    o.destinations.emplace_back(engine.global(last).begin(), engine.global(last).end());
  };
  algo.check(machine.params(), in);
  o.run = algo.run(machine, in, {});
  return o;
}

}  // namespace

TEST_CASE(
    "scheduled: step 1 puts one element of every destination row in each column, step 2 every element in its "
    "destination row") {
  for (std::uint64_t N : {4u, 8u, 16u}) {
    const std::uint64_t n = N * N;
    const Permutation p = named_permutation("random", n, 5);
    const Observed o = observe(scheduled_algorithm(), p, 4);
    REQUIRE(o.kernels == std::vector<std::string>{"row-wise 1", "transpose", "row-wise 2", "transpose", "row-wise 3"});
    CHECK(o.run.correct);
    std::unordered_map<Word, std::uint64_t> source;
    for (std::uint64_t i = 0; i < n; ++i) source[source_value(i)] = i;
    const auto& step1 = o.destinations[0];
    const auto& step2 = o.destinations[3];
    for (std::uint64_t q = 0; q < n; ++q) {
      // Step 1 is row-wise: an element stays in its source row.
      CHECK(source.at(step1[q]) / N == q / N);
      // Step 2 moves along columns to the destination row, keeping the column step 1 gave.
      CHECK(p.p[source.at(step2[q])] / N == q / N);
    }
    for (std::uint64_t c = 0; c < N; ++c) {
      std::vector<int> rows(N, 0);
      for (std::uint64_t r = 0; r < N; ++r) ++rows[p.p[source.at(step1[r * N + c])] / N];
      for (int count : rows) CHECK(count == 1);
    }
    for (std::uint64_t q = 0; q < n; ++q) CHECK(p.p[source.at(o.destinations[4][q])] == q);
  }
}

TEST_CASE("in-place transpose: the observer sees its one kernel and the finished b") {
  const Permutation p = named_permutation("transpose", 256, 1);
  const Observed o = observe(transpose_algorithm(), p, 4);
  REQUIRE(o.kernels.size() == 1);
  CHECK(o.run.correct);
  for (std::uint64_t i = 0; i < 256; ++i) CHECK(o.destinations[0][p.p[i]] == source_value(i));
}
