// Sorting, w-way partition and permutation without bank conflicts on the DMM (AS Sect. 2-3), and the
// direct baselines that ignore the conflict avoidance condition (CAC), all run step by step on the
// engine. One file per result of the paper: sort.cpp (Lemma 1, Theorems 1-2), partition.cpp
// (Corollary 1, Theorem 1's partition), lemma2.cpp (Lemma 2), permute.cpp (Sect. 3, Theorem 4) and
// permute_finish.cpp (its Appendix B finish), baselines.cpp;
// the inputs are in inputs.h and the registry entries in entries.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/sorting/inputs.h"
#include "algorithms/sorting/matrix_dmm.h"

namespace mmsim::sorting {

/// One run: what ran, the engine's statistics and the figures read from them, and the cell-by-cell
/// check.
struct SortingRun {
  std::string algorithm;
  std::string method;  ///< which lemma / theorem / composition ran
  int w = 0;
  std::uint64_t m = 0;
  /// The matrix DMM as the run left it. Its engine holds the statistics (one round per step, the
  /// kernel name is the phase) and the trace when one was asked for; they are kept there rather than
  /// copied, since a large run has millions of rounds.
  std::shared_ptr<const MatrixDmm> machine;
  StepSummary summary;  ///< steps, CAC violations, max congestion, from stats()
  bool correct = false;
  std::vector<std::pair<std::string, std::int64_t>> figures;  ///< e.g. iterations, leftover labels

  const RunStats& stats() const { return machine->stats(); }
  const std::vector<SlotEvent>& trace() const { return machine->trace(); }
};

/// Throws InputError unless w and m are powers of two with w <= 1024, m <= 65536, w m <= 2^22.
void check_shape(int w, std::uint64_t m);

/// Every algorithm below takes the input of row i, column j as input[i m + j], and passes `engine`
/// to the engine of its matrix DMM (round-synchronous only; its trace, if asked for, comes back in
/// SortingRun::trace()).
///
/// Sorting ends in row-major order.
SortingRun as_sort(int w, std::uint64_t m, const std::vector<Word>& keys, const EngineOptions& engine = {});
/// Labels in [0, w), m of each: label a must end in row a (AS Corollary 1, Theorem 1, and Lemma 2
/// for w > m where its assumption on m holds).
SortingRun as_partition(int w, std::uint64_t m, const std::vector<Word>& labels, const EngineOptions& engine = {});
/// The same partition always by the sorting algorithms (for w > m: Theorem 2's path), for contrast
/// with Lemma 2.
SortingRun as_partition_sort_based(int w, std::uint64_t m, const std::vector<Word>& labels,
                                   const EngineOptions& engine = {});
/// How Theorem 4 finishes the labels left after its synchronisation steps.
enum class Theorem4Finish {
  PackedLemma2,  ///< AS Appendix B: pack into w x m', sort by Lemma 2 (the sort path where it does not apply)
  PackedSort,    ///< the same packing, the packed matrix sorted by the sort path (Theorem 2 for w > m')
  FullSort,      ///< no packing: the whole w x m matrix sorted by the conflict-free sort
};
/// Labels a m + b, a permutation of [0, w m): the item goes to row a, column b (AS Sect. 3).
SortingRun as_permute(int w, std::uint64_t m, const std::vector<Word>& labels, std::uint64_t seed,
                      const EngineOptions& engine = {}, Theorem4Finish finish = Theorem4Finish::PackedLemma2);

/// Baselines: Batcher's bitonic network over the row-major flat array (w comparators per step),
/// and direct sends of every item to its destination, one column per step.
SortingRun bitonic_flat(int w, std::uint64_t m, const std::vector<Word>& keys, const EngineOptions& engine = {});
SortingRun direct_partition(int w, std::uint64_t m, const std::vector<Word>& labels, const EngineOptions& engine = {});
SortingRun direct_permute(int w, std::uint64_t m, const std::vector<Word>& labels, const EngineOptions& engine = {});

}  // namespace mmsim::sorting
