// KNI's worked examples drawn from simulator runs: Fig. 4 (the in-place permutations' data movement
// through one DMM's tile), Fig. 6 (the scheduled permutation's three steps at sqrt(n) = 4) and
// Fig. 7 (the bipartite graph of that permutation, painted with sqrt(n) colours).
#pragma once

#include <string>
#include <vector>

namespace mmsim::experiments {

/// kasagi-fig4: n = 256, w = 4: for transpose, shuffle and bit-reversal, the cells of a that block 0
/// reads, the diagonal tile alpha it writes them to, and where they land in b, all read back from
/// the engine's memory after the run.
std::vector<std::string> kasagi_fig4(const std::string& out_dir);

/// kasagi-fig6: the scheduled permutation of a random P at sqrt(n) = 4, w = 4: a, after step 1, after
/// step 2 and b, each cell labelled with its destination (row, column) and painted with its colour
/// (the column it took in step 1), read back from the engine after each step.
std::vector<std::string> kasagi_fig6(const std::string& out_dir);

/// kasagi-fig7: the same run's bipartite multigraph (source row -> destination row, one edge per
/// element) with each edge in its colour; each colour class is checked to be a perfect matching.
std::vector<std::string> kasagi_fig7(const std::string& out_dir);

}  // namespace mmsim::experiments
