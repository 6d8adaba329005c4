#include "algorithms/layouts/rap_tail_bound.h"

#include <algorithm>
#include <cmath>

namespace mmsim::layouts {

double lemma4_threshold(std::uint32_t w) {
  const double lw = std::log(static_cast<double>(w));
  return std::exp(2.0) * lw / std::log(lw);
}

double chernoff_mean_one(double k) {
  if (k <= 1) return 1.0;
  // e^delta / (1 + delta)^(1 + delta) with 1 + delta = k, in logarithms so that large k cannot overflow.
  return std::min(1.0, std::exp((k - 1) - k * std::log(k)));
}

double rap_congestion_tail_bound(std::uint32_t w, int c) {
  const int half = (c + 1) / 2;  // ceil(c / 2): what one of the two half warps must reach
  return std::min(1.0, 2.0 * static_cast<double>(w) * chernoff_mean_one(half));
}

}  // namespace mmsim::layouts
