// Placeholder until the family's entries are written.
#include "algorithms/sorting/entries.h"

namespace mmsim::sorting {

std::vector<AlgorithmEntry> algorithm_entries() { return {}; }
void append_catalogue(std::vector<CatalogueEntry>&) {}

}  // namespace mmsim::sorting
