// Block-wise matrix transposition on the simulated HMM (GL Sect. 3): in place with a
// full grid (half the blocks idle), with a super grid of regions, or with a triangular grid whose
// block index is decoded by an enumeration scheme; out of place in NVIDIA's order or banded (V1BF).
//
// Tiles are w x w (w = the machine's width, so that one tile row is one coalesced warp access), one
// block of w^2 threads per tile (pair), staged through shared memory with rows padded to w + 1
// cells so that reading a tile column is free of bank conflicts.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/enumeration/schemes.h"
#include "models/tlb/tlb.h"
#include "sim/engine.h"

namespace mmsim::enumeration {

/// How the in-place kernel's blocks find their tile pair.
enum class InPlaceGrid {
  Naive,      ///< nb x nb grid in CUDA's order (x fastest); blocks above the diagonal idle (Listing 2)
  SuperGrid,  ///< one launch per region of r x r tiles on or below the diagonal (Listings 3-4)
  Scheme,     ///< nb(nb+1)/2 blocks, block k decoded by a triangular scheme (Listing 5)
};

struct InPlaceConfig {
  std::uint64_t order = 0;  ///< N: the matrix is N x N
  InPlaceGrid grid = InPlaceGrid::Scheme;
  Scheme scheme = Scheme::V1B;  ///< for InPlaceGrid::Scheme
  std::uint64_t band = 8;       ///< V1B band width, in tiles
  std::uint64_t region = 8;     ///< super-grid region order, in tiles
  std::uint32_t resident = 2;   ///< blocks per DMM at a time (asynchronous execution); 0: all
};

struct OutOfPlaceConfig {
  std::uint64_t rows = 0, cols = 0;  ///< the input is rows x cols, the output cols x rows
  bool banded = false;               ///< false: NVIDIA's row-major grid; true: V1BF over the tiles
  std::uint64_t band = 8;            ///< V1BF band width, in tiles
  std::uint32_t resident = 2;
};

struct TransposeRun {
  RunStats stats;
  TlbStats tlb;                   ///< counters of this run (zero when the TLB is off)
  std::uint64_t blocks = 0;       ///< blocks launched over all kernels
  std::uint64_t idle_blocks = 0;  ///< blocks with no tile to move
  std::uint64_t launches = 0;
  std::uint64_t band_used = 0;     ///< the band actually used (clamped to the tile grid), 0 if none
  std::uint64_t global_slots = 0;  ///< global-memory slots, TLB penalty included
  bool correct = false;            ///< every output cell checked against the input
  std::vector<SlotEvent> trace;
};

/// Largest orders the simulator takes (host memory and time).
inline constexpr std::uint64_t kMaxInPlaceOrder = 4096;
inline constexpr std::uint64_t kMaxOutOfPlaceCells = std::uint64_t{1} << 24;
/// Tiles are w x w with w^2 threads per block: w at most this.
inline constexpr int kMaxTileWidth = 64;

/// Throw InputError naming the first bad parameter.
void check_in_place(const MachineParams& m, const InPlaceConfig& c);
void check_out_of_place(const MachineParams& m, const OutOfPlaceConfig& c);

/// Throws InputError unless the machine is an HMM whose w x w tiles the kernels can take.
void check_tile_machine(const MachineParams& m);
/// The engine's statistics and trace, and the TLB's counters, into a finished run.
void collect_run(const Engine& engine, const TlbMachine& machine, TransposeRun& run);

/// Runs the transposition on `machine` (its TLB is reset first) and checks every cell.
TransposeRun run_in_place(const TlbMachine& machine, const InPlaceConfig& c, const EngineOptions& eo);
TransposeRun run_out_of_place(const TlbMachine& machine, const OutOfPlaceConfig& c, const EngineOptions& eo);

/// The tile pair (x <= y) each block of the triangular grid moves, in block order: the scheme
/// numbers the tiles on and below the diagonal of the nb x nb tile matrix as the entries strictly
/// below the diagonal of an order nb + 1 triangle, (x, y + 1) <-> tile (x, y).
std::vector<Cell2> triangular_grid(Scheme s, std::uint64_t nb, std::uint64_t band);
/// The tile each block of the out-of-place grid moves (tile matrix of cb columns, rb rows).
std::vector<Cell2> rectangular_grid(bool banded, std::uint64_t cb, std::uint64_t rb, std::uint64_t band);

/// Distinct cell contents, so that a misplaced cell cannot go unnoticed.
inline Word cell_value(std::uint64_t i) { return static_cast<Word>(i * 2654435761u + 12345u); }
/// Whether the order-n matrix `cells` holds the transpose of the one cell_value filled in.
bool holds_transpose(std::span<const Word> cells, std::uint64_t n);

}  // namespace mmsim::enumeration
