// Placeholder until the family's entries are written.
#include "algorithms/enumeration/entries.h"

namespace mmsim::enumeration {

std::vector<AlgorithmEntry> algorithm_entries() { return {}; }
void append_catalogue(std::vector<CatalogueEntry>&) {}

}  // namespace mmsim::enumeration
