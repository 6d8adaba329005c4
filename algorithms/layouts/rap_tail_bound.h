// NMI Lemma 4 and the proof of Theorem 2 as numbers: the tail bound on the congestion of one warp
// access under RAP, set beside the Monte Carlo's congestion distribution (never in its place).
#pragma once

#include <cstdint>

namespace mmsim::layouts {

/// Lemma 4's threshold e^2 ln w / ln ln w (NMI Sect. IV), for w >= 3 (ln ln w > 0).
double lemma4_threshold(std::uint32_t w);

/// NMI Theorem 3 (Chernoff) with mu = 1, as Lemma 4 uses it: Pr[X >= k] < e^(k-1) / k^k for a sum X
/// of independent Poisson trials with mean 1 and k > 1; 1 for k <= 1 (no bound).
double chernoff_mean_one(double k);

/// An upper bound on Pr[congestion >= c] of one warp of w threads (w even, distinct cells) under RAP,
/// following the proof of NMI Theorem 2: the warp's congestion is at most the sum of its two half
/// warps', so one of them reaches k = ceil(c / 2); a half warp reaches k only when some bank's count
/// does, and a bank's count is dominated by Lemma 4's X, whose tail is chernoff_mean_one(k). The
/// union runs over all w banks (the paper's text multiplies by w / 2; w is the safe count), so the
/// bound is min(1, 2 w e^(k-1) / k^k). It holds for every access pattern, malicious ones included.
double rap_congestion_tail_bound(std::uint32_t w, int c);

}  // namespace mmsim::layouts
