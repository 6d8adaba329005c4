// What the family's algorithm files share: loading the input into the matrix, checking the output
// cell by cell, and turning the engine's statistics into a SortingRun. Internal to the family.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/sorting/sorting.h"

namespace mmsim::sorting {

/// One address and one value per processor: what every step of the host driver hands the engine.
using Addrs = std::vector<Address>;
using Vals = std::vector<Word>;

/// Cell (i, j) of region r gets input[i m + j] (host side, no step).
void load(MatrixDmm& g, Region r, std::uint64_t m, const std::vector<Word>& input);
/// Cell (i, j) of region r equals expected[i m + j] for every cell.
bool holds(MatrixDmm& g, Region r, std::uint64_t m, const std::vector<Word>& expected);
/// The run record of the steps `machine` made.
SortingRun finish_run(std::string algorithm, std::string method, int w, std::uint64_t m,
                      std::shared_ptr<const MatrixDmm> machine, bool correct);

}  // namespace mmsim::sorting
