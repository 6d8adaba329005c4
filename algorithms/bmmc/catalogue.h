// What `mmsim list` shows of the BPC/BMMC family (papers/002).
#pragma once

#include <vector>

#include "algorithms/registry.h"

namespace mmsim::bmmc {

/// Appends the bmmc and parm-sort runs, their kernels and named BPCs to the catalogue.
void append_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace mmsim::bmmc
