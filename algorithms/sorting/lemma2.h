// AS Lemma 2 on the matrix DMM: the sort of small integer keys that the w-way partition and the finish
// of Theorem 4 share. Internal to the family.
#pragma once

#include <cstdint>
#include <string>

#include "algorithms/sorting/sort.h"

namespace mmsim::sorting {

/// Balancing rounds of a block of h > m rows: ceil(log_m h).
std::uint64_t lemma2_balancing_rounds(std::uint64_t h, std::uint64_t m);
/// The most dirty rows that balancing and convert-and-divide leave in a block of h rows; 0 when the
/// recursion does not shrink (Lemma 2's assumption on m fails).
std::uint64_t lemma2_dirty_bound(std::uint64_t h, std::uint64_t m);
/// Whether Lemma 2 sorts a block of h > m rows here: its dirty rows fit in half an m x m square.
bool lemma2_applies(std::uint64_t h, std::uint64_t m);
/// Sorts the w x k.m matrix in k.cur into row-major order, keys < key_range, every row radix-sorted
/// (lemma2_applies(w, k.m) must hold); the phases are named k.prefix + "lemma2 ...". Returns the
/// method, naming where a column sort fell back to the bitonic network.
std::string lemma2_sort(Work& k, std::uint64_t key_range);

}  // namespace mmsim::sorting
