// The sorting family as registry entries: conflict-free sorting, w-way partition, randomized
// permutation and their baselines (AS), all on the matrix DMM of AS Sect. 1.
#pragma once

#include <vector>

#include "algorithms/registry.h"

namespace mmsim::sorting {

/// One entry per algorithm of the family, in the order `mmsim list` prints them.
std::vector<AlgorithmEntry> algorithm_entries();
/// The family's other lines of `mmsim list`: none (its inputs are described by --keys-file's help).
void append_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace mmsim::sorting
