// Index arithmetic that the GPU kernels and the host share: the 32 x 32 tiles of the in-place
// permutations with the diagonal arrangement (KNI Sect. 5) and bit tricks. Plain C++ that
// nvcc also compiles for the device, so that the CPU tests check exactly what the kernels compute.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define MMSIM_HD __host__ __device__ __forceinline__
#else
#define MMSIM_HD inline
#endif

namespace mmsim::gpu {

/// Warp width and tile side of every shared-memory kernel: 32 threads per warp and 32 banks.
inline constexpr std::uint32_t kW = 32;
inline constexpr std::uint32_t kLogW = 5;
/// Elements of one w x w tile.
inline constexpr std::uint32_t kTile = kW * kW;

/// Reverses the low `bits` bits of x (bits <= 32).
MMSIM_HD std::uint32_t reverse_bits(std::uint32_t x, unsigned bits) {
  if (bits == 0) return 0;
#if defined(__CUDA_ARCH__)
  return __brev(x) >> (32u - bits);
#else
  std::uint32_t r = 0;
  for (unsigned b = 0; b < bits; ++b) r |= ((x >> b) & 1u) << (bits - 1 - b);
  return r;
#endif
}

/// Shared-memory address of tile element e = (row e / w, column e mod w) in the diagonal
/// arrangement: alpha[i][j] lives at i w + (i + j) mod w, so bank (i + j) mod w (KNI Sect. 5).
MMSIM_HD std::uint32_t diagonal(std::uint32_t e) {
  const std::uint32_t i = e >> kLogW, j = e & (kW - 1);
  return (i << kLogW) | ((i + j) & (kW - 1));
}

/// The three regular permutations done through one w x w tile per block. Step 1: thread e of block
/// `blk` reads a[source(blk, e)] into tile element e (consecutive e: consecutive addresses, a
/// coalesced read). Step 2: thread o writes b[destination(blk, o)] (consecutive o: consecutive
/// addresses) with tile element gather(o). The maps generalise KNI Sect. 5 from w = 4 to any
/// power-of-two n >= w^2 (transpose: sqrt(n) a multiple of w), and satisfy
/// destination(blk, o) = P(source(blk, gather(o))).
enum class TileKind : std::uint8_t { Transpose, Shuffle, BitReversal };

struct TileMap {
  TileKind kind = TileKind::Transpose;
  unsigned log_n = 0;      ///< n = 2^log_n (shuffle, bit-reversal)
  std::uint32_t side = 0;  ///< sqrt(n) (transpose)

  /// Blocks of the launch: one tile each.
  MMSIM_HD std::uint64_t blocks() const {
    if (kind == TileKind::Transpose) return (std::uint64_t{side} / kW) * (side / kW);
    return (std::uint64_t{1} << log_n) / kTile;
  }

  MMSIM_HD std::uint32_t source(std::uint32_t blk, std::uint32_t e) const {
    switch (kind) {
      case TileKind::Transpose: {
        // Tile (R, C) of the sqrt(n) x sqrt(n) matrix, read row by row.
        const std::uint32_t tiles = side >> kLogW, R = blk / tiles, C = blk % tiles;
        return ((R << kLogW) + (e >> kLogW)) * side + (C << kLogW) + (e & (kW - 1));
      }
      case TileKind::Shuffle:
        // Two half-tiles of w^2/2 cells: one from each half of a (the top address bit is e's).
        return ((e >> (2 * kLogW - 1)) << (log_n - 1)) | (blk << (2 * kLogW - 1)) | (e & (kTile / 2 - 1));
      case TileKind::BitReversal:
      default:
        // e = (h, l): h gives the top log w bits, l the bottom log w bits, blk the middle bits.
        return ((e >> kLogW) << (log_n - kLogW)) | (blk << kLogW) | (e & (kW - 1));
    }
  }

  MMSIM_HD std::uint32_t destination(std::uint32_t blk, std::uint32_t o) const {
    switch (kind) {
      case TileKind::Transpose: {
        const std::uint32_t tiles = side >> kLogW, R = blk / tiles, C = blk % tiles;
        return ((C << kLogW) + (o >> kLogW)) * side + (R << kLogW) + (o & (kW - 1));
      }
      case TileKind::Shuffle:
        return (blk << (2 * kLogW)) | o;
      case TileKind::BitReversal:
      default:
        return ((o >> kLogW) << (log_n - kLogW)) | (reverse_bits(blk, log_n - 2 * kLogW) << kLogW) | (o & (kW - 1));
    }
  }

  /// The tile element that output thread o writes.
  MMSIM_HD std::uint32_t gather(std::uint32_t o) const {
    switch (kind) {
      case TileKind::Transpose:
        return ((o & (kW - 1)) << kLogW) | (o >> kLogW);
      case TileKind::Shuffle:
        // Output cell 2t + h holds the element of half h at offset t.
        return ((o & 1u) << (2 * kLogW - 1)) | (o >> 1);
      case TileKind::BitReversal:
      default:
        // Output (A, B) takes l = rev(A), h = rev(B).
        return (reverse_bits(o & (kW - 1), kLogW) << kLogW) | reverse_bits(o >> kLogW, kLogW);
    }
  }
};

/// Bits of source cell i (i < 2^28): distinct finite values, so a misplaced or unwritten cell (the
/// poison is all ones, a NaN) cannot go unnoticed.
MMSIM_HD std::uint32_t source_bits32(std::uint64_t i) { return 0x3F800000u + static_cast<std::uint32_t>(i); }
MMSIM_HD std::uint64_t source_bits64(std::uint64_t i) { return 0x3FF0000000000000ull + i; }

}  // namespace mmsim::gpu
