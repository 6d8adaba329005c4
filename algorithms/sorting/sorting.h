// Sorting, w-way partition and permutation without bank conflicts on the DMM (papers/003,
// Afshani-Sitchinava, Sect. 2-3), and the direct baselines that ignore the conflict avoidance
// condition (CAC), all run step by step on the engine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "algorithms/sorting/matrix_dmm.h"

namespace mmsim::sorting {

/// One run: what ran, the engine's figures, and the cell-by-cell check.
struct SortingRun {
  std::string algorithm;
  std::string method;  ///< which lemma / theorem / composition ran
  int w = 0;
  std::uint64_t m = 0;
  StepSummary summary;
  bool correct = false;
  std::vector<std::pair<std::string, std::int64_t>> figures;  ///< e.g. iterations, leftover labels
};

/// Throws InputError unless w and m are powers of two with w <= 1024, m <= 65536, w m <= 2^22.
void check_shape(int w, std::uint64_t m);

/// The input of row i, column j is input[i m + j]. Sorting ends in row-major order.
SortingRun as_sort(int w, std::uint64_t m, const std::vector<Word>& keys);
/// Labels in [0, w), m of each: label a must end in row a (papers/003 Corollary 1, Theorem 1, and
/// Lemma 2 for w > m where its assumption on m holds).
SortingRun as_partition(int w, std::uint64_t m, const std::vector<Word>& labels);
/// The same partition always by the sorting algorithms (for w > m: Theorem 2's path), for contrast
/// with Lemma 2.
SortingRun as_partition_sort_based(int w, std::uint64_t m, const std::vector<Word>& labels);
/// Labels a m + b, a permutation of [0, w m): the item goes to row a, column b (papers/003 Sect. 3).
SortingRun as_permute(int w, std::uint64_t m, const std::vector<Word>& labels, std::uint64_t seed);

/// Baselines: Batcher's bitonic network over the row-major flat array (w comparators per step),
/// and direct sends of every item to its destination, one column per step.
SortingRun bitonic_flat(int w, std::uint64_t m, const std::vector<Word>& keys);
SortingRun direct_partition(int w, std::uint64_t m, const std::vector<Word>& labels);
SortingRun direct_permute(int w, std::uint64_t m, const std::vector<Word>& labels);

/// Inputs: random keys, a random arrangement of m copies of each label, a random permutation.
std::vector<Word> random_keys(int w, std::uint64_t m, std::uint64_t seed);
std::vector<Word> random_partition(int w, std::uint64_t m, std::uint64_t seed);
std::vector<Word> random_permutation(int w, std::uint64_t m, std::uint64_t seed);

/// Checks a user's input for the task ("sort", "partition", "permute"); throws InputError naming
/// the first bad line (1-based) of `source`.
void check_input(const std::string& task, int w, std::uint64_t m, const std::vector<Word>& input,
                 const std::string& source);
/// Reads one unsigned 32-bit value per line; throws InputError naming the file and the bad line.
std::vector<Word> read_keys_file(const std::string& path, std::uint64_t count);

/// Names a run family answers for: as-sort, as-partition, as-permute and the baselines.
bool is_sorting_algorithm(const std::string& name);
SortingRun run_by_name(const std::string& name, int w, std::uint64_t m, const std::vector<Word>& input,
                       std::uint64_t seed);
/// The task an algorithm solves: "sort", "partition" or "permute".
std::string task_of(const std::string& name);

/// The lines `mmsim list` prints for this family.
std::vector<CatalogueEntry> catalogue_entries();

}  // namespace mmsim::sorting
