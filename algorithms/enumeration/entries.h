// The enumeration family as registry entries: the enumeration-scheme transpositions, in place and out of place ([GL]).
#pragma once

#include <vector>

#include "algorithms/registry.h"

namespace mmsim::enumeration {

/// One entry per algorithm of the family, in the order `mmsim list` prints them.
std::vector<AlgorithmEntry> algorithm_entries();
/// The family's other lines of `mmsim list` (layouts, patterns, kernels, named inputs...).
void append_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace mmsim::enumeration
