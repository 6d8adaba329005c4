// The bmmc family as registry entries: BPC / BMMC permutations and the parm sorting network ([BDS]).
#pragma once

#include <string>
#include <vector>

#include "algorithms/bmmc/f2.h"
#include "algorithms/registry.h"

namespace mmsim::bmmc {

/// A map as the value of `bmmc --matrix`, for a caller that holds it in memory; `source` is how the
/// report names it ("matrix SOURCE").
BitMatrixValue matrix_value(const f2::Bmmc& f, std::string source);

/// One entry per algorithm of the family, in the order `mmsim list` prints them.
std::vector<AlgorithmEntry> algorithm_entries();
/// The family's other lines of `mmsim list` (layouts, patterns, kernels, named inputs...).
void append_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace mmsim::bmmc
