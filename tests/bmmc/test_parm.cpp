// The parm combinator compiled to BMMC permutations and its sorting network (BDS Sect. 7).
#include <doctest/doctest.h>

#include <algorithm>

#include "algorithms/bmmc/parm.h"

using namespace mmsim;
using namespace mmsim::bmmc;

namespace {

MachineParams hmm(int w, int L, int k) {
  MachineParams m;
  m.model = ModelKind::Hmm;
  m.w = w;
  m.L = L;
  m.k = k;
  return m;
}

std::vector<Word> random_keys(std::size_t n, Rng& rng) {
  std::vector<Word> v(n);
  for (auto& x : v) x = static_cast<Word>(rng.below(1000));
  return v;
}

}  // namespace

TEST_CASE("parm by definition: BDS Fig. 3 style split") {
  // mask 0b11 on 8 cells: sub-array 0 = cells 0, 3, 4, 7; reversing each sub-array.
  const auto rev = [](std::vector<Word> s) {
    std::reverse(s.begin(), s.end());
    return s;
  };
  const std::vector<Word> xs{0, 1, 2, 3, 4, 5, 6, 7};
  CHECK(parm_reference(3, rev, xs) == std::vector<Word>{7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(parm_reference(1, rev, xs) == std::vector<Word>{6, 7, 4, 5, 2, 3, 0, 1});
  CHECK(parm_reference(4, rev, xs) == std::vector<Word>{3, 2, 1, 0, 7, 6, 5, 4});
}

TEST_CASE("parm m f = bmmc(A^-1) o parm 2^(n-1) f o bmmc(A)") {
  Rng rng(61);
  const auto f = [](std::vector<Word> s) {  // any function of a half: a rotation by one
    std::rotate(s.begin(), s.begin() + 1, s.end());
    return s;
  };
  for (int n = 1; n <= 7; ++n)
    for (int trial = 0; trial < 8; ++trial) {
      const f2::BitVector mask = 1 + rng.below(f2::low_bits(n));
      const std::vector<Word> xs = random_keys(std::size_t{1} << n, rng);
      const f2::Bmmc a = f2::parm_matrix(n, mask);
      std::vector<Word> ys(xs.size()), zs(xs.size());
      for (std::size_t x = 0; x < xs.size(); ++x) ys[a.apply(x)] = xs[x];
      ys = parm_reference(f2::BitVector{1} << (n - 1), f, ys);
      const f2::Bmmc ai = f2::inverse(a);
      for (std::size_t x = 0; x < xs.size(); ++x) zs[ai.apply(x)] = ys[x];
      CHECK(zs == parm_reference(mask, f, xs));
    }
}

TEST_CASE("the parm sorting network sorts (0-1 principle up to 16 inputs, random keys above)") {
  for (int n = 1; n <= 4; ++n)
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << (1 << n)); ++bits) {
      std::vector<Word> xs(std::size_t{1} << n);
      for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<Word>((bits >> i) & 1u);
      auto sorted = xs;
      std::sort(sorted.begin(), sorted.end());
      REQUIRE(parm_sort_reference(n, xs) == sorted);
    }
  Rng rng(67);
  for (int n = 5; n <= 9; ++n) {
    const auto xs = random_keys(std::size_t{1} << n, rng);
    auto sorted = xs;
    std::sort(sorted.begin(), sorted.end());
    CHECK(parm_sort_reference(n, xs) == sorted);
  }
}

TEST_CASE("flattened stages compute the network: n(n+1)/2 columns, permutations fused") {
  Rng rng(71);
  for (int n = 1; n <= 9; ++n) {
    const auto stages = parm_sort_stages(n);
    int columns = 0;
    for (std::size_t i = 0; i < stages.size(); ++i) {
      if (stages[i].kind == ParmStage::Kind::CompareExchange)
        ++columns;
      else if (i > 0)
        CHECK(stages[i - 1].kind == ParmStage::Kind::CompareExchange);  // fused
    }
    CHECK(columns == n * (n + 1) / 2);
    const auto xs = random_keys(std::size_t{1} << n, rng);
    CHECK(apply_stages(stages, xs) == parm_sort_reference(n, xs));
  }
}

TEST_CASE("parm sort on the simulated HMM with each kernel, and the direct version") {
  for (const auto& [w, n] : std::vector<std::pair<int, int>>{{4, 6}, {8, 8}, {2, 5}}) {
    const Machine machine(hmm(w, 10, 3));
    for (KernelKind k : all_kernels()) {
      const ParmSortRun r = run_parm_sort(machine, n, {k, {}}, false, 7, {});
      CAPTURE(w);
      CAPTURE(to_string(k));
      CHECK(r.sorted);
      CHECK(r.compare_stages == n * (n + 1) / 2);
      CHECK(r.passes >= r.permutations);
    }
    const ParmSortRun d = run_parm_sort(machine, n, {}, true, 7, {});
    CHECK(d.sorted);
    CHECK(d.passes == 0);
    const ParmSortRun a = run_parm_sort(machine, n, {}, false, 7, {Execution::Asynchronous, false});
    CHECK(a.sorted);
  }
}
