// AS Theorem 4 measured phase by phase: the randomized permutation with the finish of its Appendix B
// (packing, Lemma 2, the three sends) over w and m, each phase's steps beside its term, the random
// words beside the theorem's count, and the three finishes compared.
#pragma once

#include <string>
#include <vector>

#include "experiments/tables.h"

namespace mmsim::experiments {

/// `mmsim table as-bounds-theorem4`: w in {16, 64, 256, 1024} (or -w alone), m = 2, 4, ... while
/// w m <= -n (default 2^16; the simulator allows 2^22).
report::Table as_theorem4_table(const TableOptions& options);
/// `mmsim figure as-bounds-theorem4`: each phase's steps over its term against m, and the finish's
/// steps by packed Lemma 2, packed sort path and full sort (PNG and SVG).
std::vector<std::string> as_theorem4_figure(const std::string& out_dir);

}  // namespace mmsim::experiments
