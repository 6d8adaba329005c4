// AS Sect. 2, partition: every label a in [0, w), m of each, ends in row a. Labels are small keys, so
// rows are radix-sorted: O(m) by AS Corollary 1 (w^2 <= m) and Theorem 1 (w = m); for w > m, AS
// Lemma 2 (balancing, convert and divide, columns by recursion) where its assumption on m holds,
// otherwise the sort of Theorem 2.
#include <algorithm>

#include "algorithms/sorting/common.h"
#include "algorithms/sorting/lemma2.h"
#include "algorithms/sorting/sort.h"

namespace mmsim::sorting {

namespace {

// The partition: Lemma 2 for w > m where its assumption on m holds (unless sort_based), otherwise the
// sorting algorithms with radix-sorted rows (Corollary 1, Theorem 1, Theorem 2, compositions).
SortingRun partition_run(const std::string& name, int w, std::uint64_t m, const std::vector<Word>& labels,
                         bool sort_based, const EngineOptions& engine) {
  check_shape(w, m);
  const auto dmm = std::make_shared<MatrixDmm>(w, 3 * m, engine);
  MatrixDmm& g = *dmm;
  Work k{g, m, {0}, {m}, {2 * m}, ""};
  load(g, k.cur, m, labels);
  const auto W = static_cast<std::uint64_t>(w);
  std::string method;
  if (!sort_based && W > m && lemma2_applies(W, m)) {
    method = lemma2_sort(k, W);
  } else {
    method = sort_matrix(k, radix_rows(W), false);
    if (W == m) method = "theorem1 partition: " + method;
    if (!sort_based && W > m)
      method += " [lemma2 does not apply: its dirty rows would exceed m/2 (m too small for log_m w)]";
  }
  std::vector<Word> expected(labels.size());
  for (std::size_t x = 0; x < expected.size(); ++x) expected[x] = static_cast<Word>(x / m);
  return finish_run(name, method, w, m, dmm, holds(g, k.cur, m, expected));
}

}  // namespace

SortingRun as_partition(int w, std::uint64_t m, const std::vector<Word>& labels, const EngineOptions& engine) {
  return partition_run("as-partition", w, m, labels, false, engine);
}

SortingRun as_partition_sort_based(int w, std::uint64_t m, const std::vector<Word>& labels,
                                   const EngineOptions& engine) {
  return partition_run("as-partition-sort", w, m, labels, true, engine);
}

}  // namespace mmsim::sorting
