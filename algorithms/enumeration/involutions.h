// GL's other in-place transpositions on the simulated HMM: the thread-wise algorithm (TW, GL
// Sect. 3.2 and 7, after the authors' DSAA 2014 algorithm) and the 3D involutions T_yxz and T_zyx
// (GL Sect. 3.3, Listings 6-7, Figs. 14-15).
//
// TW: one thread per entry strictly below the diagonal, thread k decoded by V1 into (x, y), x < y;
// it swaps cells (y, x) and (x, y) straight through the global memory (no tiles, no shared memory),
// so that one warp's upper cells lie a whole row apart.
//
// The 3D matrix is stored x fastest, then y, then z (cell x + X y + X Y z). T_yxz exchanges x and
// y (X = Y = N): each of the Z planes is an N x N matrix transposed in place. T_zyx exchanges x and
// z (X = Z = N): for each y, the cells (x, y, z) form an N x N matrix with rows z (X Y cells apart)
// and columns x (adjacent), transposed in place; each of its cells is one element of a "column
// element" of GL's description. Both run the tile-pair kernel of the 2D transposition with the
// matrix index as the grid's outermost dimension, its tile pairs in CUDA's full-grid order (the
// original kernel, blocks above the diagonal idle) or decoded by V1B (the optimised one).
#pragma once

#include <cstdint>

#include "algorithms/enumeration/transpose.h"

namespace mmsim::enumeration {

enum class Involution {
  Yxz,  ///< T_yxz: (x, y, z) -> (y, x, z), the xy planes transposed
  Zyx,  ///< T_zyx: (x, y, z) -> (z, y, x), the xz slices transposed
};
const char* to_string(Involution i);

struct ThreadWiseConfig {
  std::uint64_t order = 0;     ///< N: the matrix is N x N
  std::uint32_t resident = 2;  ///< blocks per DMM at a time (asynchronous execution); 0: all
};

struct Involution3DConfig {
  Involution which = Involution::Yxz;
  std::uint64_t order = 0;     ///< N: the two exchanged sides
  std::uint64_t depth = 2;     ///< the third side: Z for T_yxz, Y for T_zyx
  bool banded = true;          ///< false: full grid of tile pairs (Listing 6); true: V1B (Listing 7)
  std::uint64_t band = 8;      ///< V1B band width, in tiles
  std::uint32_t resident = 2;  ///< blocks per DMM at a time (asynchronous execution); 0: all
};

/// Largest 3D matrix the simulator takes, in cells (as the out-of-place transposition's).
inline constexpr std::uint64_t kMaxInvolutionCells = std::uint64_t{1} << 24;

/// Throw InputError naming the first bad parameter.
void check_thread_wise(const MachineParams& m, const ThreadWiseConfig& c);
void check_involution(const MachineParams& m, const Involution3DConfig& c);

/// Runs TW on `machine` (its TLB reset first) and checks every cell against the transpose.
TransposeRun run_thread_wise(const TlbMachine& machine, const ThreadWiseConfig& c, const EngineOptions& eo);
/// Runs the involution `times` times on one matrix (1: the transposition; 2: it must give the input
/// back) and checks every cell against the input or its image.
TransposeRun run_involution(const TlbMachine& machine, const Involution3DConfig& c, const EngineOptions& eo,
                            int times = 1);

/// The cell that cell `i` of an N x N x depth matrix moves to under the involution (the image of
/// the image is i again).
std::uint64_t involution_image(Involution which, std::uint64_t order, std::uint64_t depth, std::uint64_t i);

}  // namespace mmsim::enumeration
