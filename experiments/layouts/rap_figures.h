// NMI's figures beyond rap-congestion: Lemma 4's tail bound beside the congestion distribution, and
// Fig. 6's fixed r.
#pragma once

#include <string>
#include <vector>

namespace mmsim::experiments {

/// The figure rap-lemma4: Pr[congestion >= c] of every layout and pattern at w = 32 and 256 (Monte
/// Carlo) beside the tail bound of NMI Lemma 4 and Theorem 2's proof for RAP.
std::vector<std::string> rap_lemma4_figure(const std::string& out_dir);

/// The figure rap-fixed-r: NMI Fig. 6 (w = 4, r = (2, 0, 3, 1)) from the layout model, the congestion
/// of every row, column and diagonal warp at that r, and a fixed r against a fresh r at w = 32.
std::vector<std::string> rap_fixed_r_figure(const std::string& out_dir);

}  // namespace mmsim::experiments
