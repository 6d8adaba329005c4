// The in-place tile-pair kernel of GL Listing 2 on the simulated HMM, over a batch of square
// matrices that share one array: the 2D transposition is a batch of one, the 3D involution T_yxz
// a batch of z planes and T_zyx a batch of y slices (GL Sect. 3.3), so the three run one kernel.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/enumeration/schemes.h"
#include "sim/program.h"

namespace mmsim::enumeration {

/// Where the batch's matrices lie in the array: matrix p's cell (row, col) is cell
/// p * plane_stride + row * pitch + col, for row, col < order.
struct SquareBatch {
  std::uint64_t order = 0;         ///< N: each matrix is N x N
  std::uint64_t planes = 1;        ///< matrices in the batch (the grid's z extent)
  std::uint64_t plane_stride = 0;  ///< cells from one matrix's first cell to the next one's
  std::uint64_t pitch = 0;         ///< cells from one row to the next
  std::uint64_t cell(std::uint64_t p, std::uint64_t row, std::uint64_t col) const {
    return p * plane_stride + row * pitch + col;
  }
};

/// A tile pair no block of the grid has (an idle block of a full grid).
inline constexpr Cell2 kIdleTile{~std::uint64_t{0}, ~std::uint64_t{0}};

/// One block per (matrix, tile pair): block b moves pair tiles[b mod |tiles|] of matrix
/// b / |tiles| (CUDA's blockIdx.z outermost). Tiles are b x b (b = the machine's width), one thread
/// per cell; both tiles are staged in `tile` (2 b (b + 1) shared cells, rows padded) before either
/// is written back, transposed, where the other was.
Kernel tile_pair_kernel(std::string name, std::shared_ptr<const std::vector<Cell2>> tiles, const SquareBatch& batch,
                        std::uint64_t b, ArrayId mat, ArrayId tile, std::uint32_t resident);

}  // namespace mmsim::enumeration
