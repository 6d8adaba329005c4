// Placeholder until the family's entries are written.
#include "algorithms/layouts/entries.h"

namespace mmsim::layouts {

std::vector<AlgorithmEntry> algorithm_entries() { return {}; }
void append_catalogue(std::vector<CatalogueEntry>&) {}

}  // namespace mmsim::layouts
