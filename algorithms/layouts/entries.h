// The layouts family as registry entries: the CRSW / SRCW / DRDW transposes of a w x w matrix
// under a layout ([NMI]), and its lines of `mmsim list` (the layouts and access patterns).
#pragma once

#include <vector>

#include "algorithms/registry.h"

namespace mmsim::layouts {

/// One entry per algorithm of the family, in the order `mmsim list` prints them.
std::vector<AlgorithmEntry> algorithm_entries();
/// The family's other lines of `mmsim list` (layouts, patterns, kernels, named inputs...).
void append_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace mmsim::layouts
