// The bmmc family as registry entries: BPC / BMMC permutations and the parm sorting network ([BDS]).
#pragma once

#include <vector>

#include "algorithms/registry.h"

namespace mmsim::bmmc {

/// One entry per algorithm of the family, in the order `mmsim list` prints them.
std::vector<AlgorithmEntry> algorithm_entries();
/// The family's other lines of `mmsim list` (layouts, patterns, kernels, named inputs...).
void append_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace mmsim::bmmc
