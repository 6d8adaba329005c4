// BPC and BMMC permutation kernels on the HMM (BDS Sect. 4-5): naive, tiled, tiled with
// shifted tile rows (no bank conflicts), and tiled with several tiles per block (iterations).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algorithms/bmmc/f2.h"
#include "models/machines.h"
#include "sim/engine.h"

namespace mmsim::bmmc {

enum class KernelKind { Naive, Tile, TileBanks, TileBanksIters };

const char* to_string(KernelKind k);
/// "naive", "tile", "tile-banks", "tile-banks-iters"; nullopt otherwise.
std::optional<KernelKind> parse_kernel(const std::string& name);
std::span<const KernelKind> all_kernels();

/// The iterations a tile-banks-iters pass uses unless told otherwise (BDS Sect. 4.3: 3).
inline constexpr int kDefaultIters = 3;

/// How one tiled pass splits the index bits (BDS Sect. 4.1 and 4.3): the t = log2 w tile
/// column bits (the low bits), the t tile row bits (tile_row_bits()), their overlap, the iteration
/// bits (the lowest `iters` of the rest) and the thread-block bits (the others).
struct TileLayout {
  int bits = 0;
  int t = 0;
  int iters = 0;
  f2::BitVector col = 0, row = 0, over = 0, iter = 0, block = 0;

  int overlap() const { return __builtin_popcountll(over); }
  /// Cells of one tile: 2^(2t - over); also the threads of a block.
  std::uint64_t tile_cells() const { return std::uint64_t{1} << (2 * t - overlap()); }
  std::uint32_t threads_per_block() const { return static_cast<std::uint32_t>(tile_cells()); }
  std::uint64_t blocks() const { return std::uint64_t{1} << __builtin_popcountll(block); }
  /// Shared cells one block needs: 2^iters tiles.
  std::uint64_t shared_cells() const { return tile_cells() << iters; }
  /// Largest `iters` this pass allows: the bits outside the tile.
  int free_bits() const { return bits - (2 * t - overlap()); }
};

/// Throws std::invalid_argument when f is not tiled for 2^t or iters is out of [0, free bits].
TileLayout tile_layout(const f2::Bmmc& f, int t, int iters);

/// One tiled pass dst[f(x)] <- src[x] through the shared array `tile` (Sect. 4.1; rows shifted when
/// `banks`, Sect. 4.2; 2^iters tiles per block, Sect. 4.3). Warps read 2^t consecutive cells of src
/// and write 2^t consecutive cells of dst.
Kernel tiled_kernel(const f2::Bmmc& f, const TileLayout& layout, bool banks, ArrayId src, ArrayId tile, ArrayId dst,
                    std::string name);

/// The naive kernel of BDS Appendix A: thread x performs dst[f(x)] <- src[x].
Kernel naive_kernel(const f2::Bmmc& f, int w, ArrayId src, ArrayId dst, std::string name);

/// One launched pass and its round-synchronous closed form.
struct PassReport {
  std::string kernel;
  int overlap = 0;
  int iters = 0;
  std::uint64_t blocks = 0;
  std::uint32_t threads_per_block = 0;
  TimeUnits time_units = 0;
  TimeUnits predicted = 0;  ///< closed form (bmmc_time.h) for round-synchronous execution
};

struct BmmcOptions {
  KernelKind kernel = KernelKind::TileBanks;
  std::optional<int> iters;  ///< tile-banks-iters only; default min(3, free bits) per pass
};

/// Throws InputError when the kernels cannot run f on this machine: the HMM only, w a power of two,
/// w <= 2^n <= 2^kMaxSimulatedBits, iters in range.
void check_bmmc(const MachineParams& m, const f2::Bmmc& f, const BmmcOptions& o);

/// Shared cells per block that launch_bmmc needs for f on this machine.
std::uint64_t shared_cells_needed(const MachineParams& m, const f2::Bmmc& f, const BmmcOptions& o);

/// Launches the passes that move global array src to dst along f: one naive pass, or the tiled
/// factors of f (one pass for a BPC or a tiled BMMC, two otherwise, through `scratch`).
std::vector<PassReport> launch_bmmc(Engine& engine, const MachineParams& m, const f2::Bmmc& f, const BmmcOptions& o,
                                    ArrayId src, ArrayId dst, ArrayId scratch, ArrayId tile);

struct BmmcRun {
  RunStats stats;
  std::vector<PassReport> passes;
  TimeUnits predicted = 0;         ///< sum of the passes' closed forms (round-synchronous)
  bool correct = false;            ///< b[f(x)] == a[x] for every x, cell by cell
  std::uint64_t distribution = 0;  ///< D_w of f as a permutation: the naive write's slots
  std::vector<SlotEvent> trace;
};

/// Runs f on a fresh engine: a holds distinct values, b receives them, the check is cell by cell.
BmmcRun run_bmmc(const Machine& machine, const f2::Bmmc& f, const BmmcOptions& o, const EngineOptions& eo);

/// A copy b[i] <- a[i] of 2^bits cells simulated on `machine` (the naive kernel on the identity: one
/// coalesced read round and one coalesced write round): the yardstick BDS Sect. 6 divides by, run on
/// the same machine and execution as the permutation it is compared with. Its closed form,
/// closed_form::copy, is a cross-check beside it, never its replacement.
TimeUnits simulated_copy_time(const Machine& machine, int bits, Execution execution);

/// D_w(f): the number of distinct address groups each warp of the naive kernel writes, summed.
std::uint64_t bmmc_distribution(const f2::Bmmc& f, int w);

}  // namespace mmsim::bmmc
