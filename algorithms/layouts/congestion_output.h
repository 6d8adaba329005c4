// The one writer of a congestion Monte Carlo (NMI Sect. V, VII): `mmsim congestion --json`
// and the Python module's mmsim.congestion() print the same keys.
#pragma once

#include "algorithms/layouts/congestion_mc.h"
#include "report/json.h"

namespace mmsim {

/// layout, pattern, w, dims, trials, seed, mean, stderr, min, max, histogram [{congestion, count}]
/// for the congestions that occurred; with `speed` also seconds and warp_accesses_per_second (left
/// out otherwise, so that a seed always gives the same object).
report::Json to_json(const layouts::CongestionQuery& q, const layouts::CongestionStats& s, bool speed = false);

}  // namespace mmsim
