// Placeholder until the family's entries are written.
#include "algorithms/bmmc/entries.h"

namespace mmsim::bmmc {

std::vector<AlgorithmEntry> algorithm_entries() { return {}; }
void append_catalogue(std::vector<CatalogueEntry>&) {}

}  // namespace mmsim::bmmc
