// The baselines that ignore the conflict avoidance condition, for contrast with AS Sect. 2-3 (the
// paper's Sect. 1 names sorting networks as the usual way to sort in shared memory): Batcher's
// bitonic network over the row-major flat array, and direct sends of every item to its destination.
#include <algorithm>
#include <functional>

#include "algorithms/sorting/common.h"

namespace mmsim::sorting {

SortingRun bitonic_flat(int w, std::uint64_t m, const std::vector<Word>& keys, const EngineOptions& engine) {
  check_shape(w, m);
  const auto W = static_cast<std::uint64_t>(w);
  const std::uint64_t n = W * m;
  const auto dmm = std::make_shared<MatrixDmm>(w, m, engine);
  MatrixDmm& g = *dmm;
  const Region data{0};
  load(g, data, m, keys);
  // Rank x lives at row x / m, column x % m: the row-major target order of the paper.
  const auto cell = [&](std::uint64_t x) { return g.at(data, x / m, x % m); };
  const auto wz = static_cast<std::size_t>(w);
  Addrs lo(wz), hi(wz);
  Vals a(wz), b(wz);
  g.phase("bitonic");
  for (std::uint64_t size = 2; size <= n; size *= 2)
    for (std::uint64_t j = size / 2; j >= 1; j /= 2)
      for (std::uint64_t q0 = 0; q0 < n / 2; q0 += W) {
        for (std::size_t t = 0; t < wz; ++t) {
          const std::uint64_t q = q0 + t;
          const std::uint64_t x = (q / j) * 2 * j + q % j;  // comparator (x, x + j)
          lo[t] = q < n / 2 ? cell(x) : kNoAddress;
          hi[t] = q < n / 2 ? cell(x + j) : kNoAddress;
        }
        g.read(lo, a);
        g.read(hi, b);
        for (std::size_t t = 0; t < wz; ++t) {
          const std::uint64_t q = q0 + t, x = (q / j) * 2 * j + q % j;
          const bool up = (x & size) == 0;
          if ((a[t] > b[t]) == up) std::swap(a[t], b[t]);
        }
        g.write(lo, a);
        g.write(hi, b);
      }
  std::vector<Word> expected = keys;
  std::sort(expected.begin(), expected.end());
  return finish_run("as-sort-bitonic", "baseline: bitonic network over the row-major array, w comparators per step", w,
                    m, dmm, holds(g, data, m, expected));
}

namespace {
// Each processor reads its cell of column j and writes it to its destination (given to it by an
// oracle for the partition: the next free column of the label's row in column-major input order).
SortingRun direct(const std::string& name, int w, std::uint64_t m, const std::vector<Word>& labels,
                  const std::function<std::pair<std::uint64_t, std::uint64_t>(std::uint64_t i, std::uint64_t j)>& dest,
                  const std::vector<Word>& expected, const EngineOptions& engine) {
  check_shape(w, m);
  const auto dmm = std::make_shared<MatrixDmm>(w, 2 * m, engine);
  MatrixDmm& g = *dmm;
  const Region in{0}, out{m};
  load(g, in, m, labels);
  const auto wz = static_cast<std::size_t>(w);
  Addrs src(wz), dst(wz);
  Vals v(wz);
  g.phase("direct");
  for (std::uint64_t j = 0; j < m; ++j) {
    for (std::size_t i = 0; i < wz; ++i) {
      src[i] = g.at(in, i, j);
      const auto [a, b] = dest(i, j);
      dst[i] = g.at(out, a, b);
    }
    g.read(src, v);
    g.write(dst, v);
  }
  return finish_run(name, "baseline: direct sends, one column per step (ignores the CAC)", w, m, dmm,
                    holds(g, out, m, expected));
}
}  // namespace

SortingRun direct_partition(int w, std::uint64_t m, const std::vector<Word>& labels, const EngineOptions& engine) {
  check_shape(w, m);
  const auto wz = static_cast<std::size_t>(w);
  std::vector<std::uint64_t> next(wz, 0);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> to(labels.size());
  for (std::uint64_t j = 0; j < m; ++j)
    for (std::size_t i = 0; i < wz; ++i) {
      const Word a = labels[i * m + j];
      to[i * m + j] = {a, next[a]++};
    }
  std::vector<Word> expected(labels.size());
  for (std::size_t x = 0; x < expected.size(); ++x) expected[x] = static_cast<Word>(x / m);
  return direct(
      "as-partition-direct", w, m, labels, [&](std::uint64_t i, std::uint64_t j) { return to[i * m + j]; }, expected,
      engine);
}

SortingRun direct_permute(int w, std::uint64_t m, const std::vector<Word>& labels, const EngineOptions& engine) {
  std::vector<Word> expected(labels.size());
  for (std::size_t x = 0; x < expected.size(); ++x) expected[x] = static_cast<Word>(x);
  return direct(
      "as-permute-direct", w, m, labels,
      [&](std::uint64_t i, std::uint64_t j) {
        const Word x = labels[i * m + j];
        return std::pair<std::uint64_t, std::uint64_t>{x / m, x % m};
      },
      expected, engine);
}

}  // namespace mmsim::sorting
