// Host side of the GPU BPC / BMMC passes: the kernel arguments of one pass from a BMMC and its tile
// layout (BDS Sect. 4-5), and the passes of each kernel kind (a general BMMC: two tiled passes
// through the factorisation of Sect. 5.2).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "algorithms/bmmc/f2.h"
#include "algorithms/bmmc/kernels.h"
#include "algorithms/bmmc/tiled.h"
#include "cuda/bmmc/bmmc_index.h"
#include "cuda/bmmc/gpu_bmmc.h"

namespace mmsim::gpu::bmmc {

/// log2 of the tile width: w = 32 lanes and 32 banks.
inline constexpr int kTileBits = 5;

/// The matrix and complement of f as kernel arguments; the masks stay zero (the naive kernel).
/// Throws std::invalid_argument unless 12 <= n <= kMaxBits.
inline PassArgs matrix_args(const f2::Bmmc& f) {
  const int n = f.bits();
  if (n < 12 || n > static_cast<int>(kMaxBits)) throw std::invalid_argument("GPU pass: 12 to 30 index bits");
  PassArgs a{};
  for (int i = 0; i < n; ++i) a.rows[i] = static_cast<std::uint32_t>(f.a.row(i));
  a.c = static_cast<std::uint32_t>(f.c);
  a.bits = static_cast<std::uint32_t>(n);
  return a;
}

/// The arguments of one tiled pass of f with layout `lay` (mmsim::bmmc::tile_layout, t = 5).
inline PassArgs tiled_args(const f2::Bmmc& f, const mmsim::bmmc::TileLayout& lay) {
  if (lay.t != kTileBits || lay.bits != f.bits())
    throw std::invalid_argument("GPU pass: layout for tiles of 32 columns");
  PassArgs a = matrix_args(f);
  a.row = static_cast<std::uint32_t>(lay.row);
  a.over = static_cast<std::uint32_t>(lay.over);
  a.col_only = static_cast<std::uint32_t>(lay.col & ~lay.row);
  a.row_only = static_cast<std::uint32_t>(lay.row & ~lay.col);
  a.iter = static_cast<std::uint32_t>(lay.iter);
  a.block = static_cast<std::uint32_t>(lay.block);
  a.warps = 1u << (kTileBits - lay.overlap());
  a.blocks = static_cast<std::uint32_t>(lay.blocks());
  return a;
}

/// The GPU passes of one kernel kind for f: one naive launch of f itself, or one tiled launch per
/// tiled factor of f (a BPC or a tiled BMMC: one; any other BMMC: two). tile-banks-iters uses
/// min(3, free bits) iterations per pass (BDS Sect. 4.3).
inline std::vector<Pass> gpu_passes(const f2::Bmmc& f, mmsim::bmmc::KernelKind kind) {
  using mmsim::bmmc::KernelKind;
  if (kind == KernelKind::Naive) {
    Pass p;
    p.args = matrix_args(f);
    p.naive = true;
    return {p};
  }
  std::vector<Pass> out;
  for (const f2::Bmmc& factor : f2::tiled_factors(f, kTileBits)) {
    const mmsim::bmmc::TileLayout probe = mmsim::bmmc::tile_layout(factor, kTileBits, 0);
    const int iters = kind == KernelKind::TileBanksIters ? std::min(mmsim::bmmc::kDefaultIters, probe.free_bits()) : 0;
    Pass p;
    p.args = tiled_args(factor, mmsim::bmmc::tile_layout(factor, kTileBits, iters));
    p.banks = kind != KernelKind::Tile;
    p.iters = iters;
    out.push_back(p);
  }
  return out;
}

}  // namespace mmsim::gpu::bmmc
