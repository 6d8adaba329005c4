// Checks and set-up shared by the offline permutation algorithms (KNI Sect. 5-7).
#pragma once

#include <cstdint>
#include <string>

#include "algorithms/permutations/permutation_algorithm.h"

namespace mmsim::offline {

/// The HMM, a permutation, and no schedule file unless the algorithm takes one.
void check_basics(const std::string& algorithm, const MachineParams& m, const PermutationInput& in,
                  bool takes_schedule);

/// sqrt(n) for an n = N^2 with N a positive multiple of w; throws InputError otherwise.
std::uint64_t square_side(const std::string& algorithm, std::uint64_t n, int w);

/// log2(n) for n a power of two with n >= w^2 and w a power of two; throws InputError otherwise.
unsigned power_of_two_bits(const std::string& algorithm, std::uint64_t n, int w);

/// Fills a global array with source_value(0..n-1).
void fill_source(Engine& engine, ArrayId a);

}  // namespace mmsim::offline
