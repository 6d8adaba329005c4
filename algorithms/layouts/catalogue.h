// The layouts family's lines of `mmsim list`: layouts, access patterns and the transposes (papers/001).
#pragma once

#include <vector>

#include "algorithms/registry.h"

namespace mmsim {

/// Appends the layouts, patterns (with what `malicious` means under each w^4 scheme) and the
/// CRSW / SRCW / DRDW transposes.
void append_layout_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace mmsim
