// What `mmsim list` shows of the enumeration-scheme transpositions (papers/004).
#pragma once

#include <vector>

#include "algorithms/registry.h"

namespace mmsim::enumeration {

/// Appends the transpose-ip-* and transpose-oop-* runs and the TLB options to the catalogue.
void append_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace mmsim::enumeration
