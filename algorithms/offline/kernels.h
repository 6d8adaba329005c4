// The SIMT kernels of KNI Sect. 5-6: a w x w tile in shared memory with the diagonal
// arrangement, the transpose through it, and the row-wise permutation through alpha and beta.
#pragma once

#include <cstdint>
#include <string>

#include "sim/program.h"

namespace mmsim::offline {

/// alpha[r][c] of a w x w tile lives at r w + (r + c) mod w, in bank (r + c) mod w: a row (fixed r,
/// all c) and a column (fixed c, all r) both meet the w banks once each (KNI Sect. 5).
inline Address diagonal(std::uint64_t r, std::uint64_t c, std::uint64_t w) { return r * w + (r + c) % w; }

/// One block of w^2 threads per tile; thread j of block i is (r, c) = (j / w, j mod w).
///   round 1: T(r, c) reads src[source(i, r, c)]            (coalesced when, for fixed r, the w
///                                                           addresses fill one address group)
///   round 2: T(r, c) writes alpha[r][c]                     (conflict-free: a warp is one row)
///   round 3: T(j) reads alpha[cell(j)]                      (conflict-free when a warp's cells
///                                                           lie on w distinct diagonals)
///   round 4: T(j) writes dst[destination(i, j)]             (coalesced as round 1)
/// `cell(j)` returns the tile coordinates as a pair (r, c).
template <class Source, class Cell, class Destination>
Kernel tile_kernel(std::string name, std::uint64_t blocks, std::uint64_t w, ArrayId src, ArrayId dst, ArrayId tile,
                   Source source, Cell cell, Destination destination) {
  Kernel k;
  k.name = std::move(name);
  k.blocks = blocks;
  k.threads_per_block = static_cast<std::uint32_t>(w * w);
  k.registers = 1;
  k.steps = {
      Access{"read global", Op::Read, src, 0,
             [=](const Thread& t) -> Address { return source(t.block(), t.local() / w, t.local() % w); }},
      Access{"write tile", Op::Write, tile, 0,
             [=](const Thread& t) -> Address { return diagonal(t.local() / w, t.local() % w, w); }},
      BlockBarrier{},
      Access{"read tile", Op::Read, tile, 0,
             [=](const Thread& t) -> Address {
               const auto [r, c] = cell(t.local());
               return diagonal(r, c, w);
             }},
      Access{"write global", Op::Write, dst, 0,
             [=](const Thread& t) -> Address { return destination(t.block(), t.local()); }},
  };
  return k;
}

/// Transpose of an N x N matrix (N a multiple of w) from src to dst: block (tr, tc) holds tile row
/// tr, tile column tc. T(r, c) reads src[(tr w + r) N + tc w + c]; T(r, c) then takes alpha[c][r]
/// (column r of the tile) and writes it to dst[(tc w + r) N + tr w + c]: both global rounds touch
/// w consecutive cells starting at a multiple of w, i.e. one address group.
Kernel transpose_kernel(std::string name, std::uint64_t N, std::uint64_t w, ArrayId src, ArrayId dst, ArrayId tile);

/// Row-wise permutation of an N x N matrix (KNI Sect. 6): block r of N threads owns row r;
/// T_r(j): src[r N + j] -> alpha[j]; reads s[r N + j] and d[r N + j]; alpha[S] -> beta[D];
/// beta[j] -> dst[r N + j]. Eight rounds; the two shared rounds through S and D are conflict-free
/// when the tables come from row_schedule().
Kernel row_wise_kernel(std::string name, std::uint64_t N, ArrayId src, ArrayId dst, ArrayId s, ArrayId d, ArrayId alpha,
                       ArrayId beta);

/// The GPU's fused row-wise kernel (scheduled-fused, cuda/gpu.cu's k_row_gather): block b of R N
/// threads owns rows b R .. b R + R - 1; thread T(t) (t = local index):
///   src[b R N + t] -> alpha[t]                       (one coalesced chunk into shared memory)
///   barrier
///   reads q[b R N + t], the source column of its output cell (fused_gather_table)
///   alpha[rr N + q] -> dst                           transposed: rr = t mod R, output column
///                                                    c = t / R, dst[c N + b R + rr] (a warp
///                                                    writes 32 / R runs of R cells); else
///                                                    rr = t / N, dst[b R N + t]
/// Its gathers from alpha meet whatever bank conflicts the permutation makes: no colouring.
Kernel fused_row_kernel(std::string name, std::uint64_t N, std::uint32_t R, bool transposed, ArrayId src, ArrayId dst,
                        ArrayId q, ArrayId alpha);

}  // namespace mmsim::offline
