// The host side of the scheduled offline permutation on the GPU (papers/000 Sects. 6-7): the three
// row-wise steps found by edge colouring, and the per-row index arrays the kernels read.
#pragma once

#include <cstdint>
#include <vector>

namespace mmsim::gpu {

/// Colours the edges of a d-regular bipartite multigraph with d colours so that no two edges of one
/// colour share a vertex (Koenig's theorem, papers/000 Theorem 6). Edge e joins left vertex u[e] and
/// right vertex v[e], both in [0, vertices); d = edges / vertices must be a power of two. Works by
/// repeated Euler splits: pairing the edges at every vertex and walking the pairs' cycles splits a
/// 2m-regular graph into two m-regular ones. `threads` splits independent subgraphs over threads.
/// Returns colour[e] in [0, d).
std::vector<std::uint32_t> color_regular_bipartite(std::uint32_t vertices, const std::vector<std::uint32_t>& u,
                                                   const std::vector<std::uint32_t>& v, unsigned threads = 1);

/// The three row-wise steps of papers/000 Sect. 7 for a permutation p of n = side^2 cells, side a
/// power of two: step 1 moves each cell within its row of a to the column of its colour, step 2
/// moves it within its column to its destination row, step 3 within that row to its destination
/// column. Each step is stored as destinations of the rows it permutes:
///   row_step1[i * side + j]: new column of the cell at (i, j) of a;
///   col_step2[c * side + i]: new row of the cell at (i, c) after step 1 (row c of the transpose);
///   row_step3[r * side + c]: new column of the cell at (r, c) after step 2.
struct OfflineSchedule {
  std::uint32_t side = 0;
  std::vector<std::uint32_t> step[3];
};

/// Throws std::invalid_argument when p is not a permutation of side^2 cells or side is not a power of
/// two of at least 32 (the message is one line naming the rule).
OfflineSchedule make_offline_schedule(const std::vector<std::uint32_t>& p, std::uint32_t side, unsigned threads = 1);

/// The paper's conflict-free row-wise arrays for one step (papers/000 Sect. 6): for row i and slot
/// t = c * w + k, s[i * side + t] is the source cell and d[i * side + t] its destination, where the
/// w slots of colour c read w distinct banks (k = source mod w) and write w distinct banks.
struct BankSchedule {
  std::vector<std::uint16_t> s, d;
};
BankSchedule bank_schedule(const std::vector<std::uint32_t>& step, std::uint32_t side, unsigned threads = 1);

/// The gather form of one step for the fused kernel: q[fused_order(i, j, side, rows)] = the source
/// column of output column j in row i (the inverse of the row's permutation).
std::vector<std::uint16_t> gather_schedule(const std::vector<std::uint32_t>& step, std::uint32_t side,
                                           std::uint32_t rows_per_block);

/// The destination array of the whole permutation that one row-wise step performs on a side x side
/// matrix (cell i * side + j moves to i * side + step[i * side + j]); `transposed` for step 2, whose
/// rows are the matrix's columns.
std::vector<std::uint32_t> step_permutation(const std::vector<std::uint32_t>& step, std::uint32_t side,
                                            bool transposed);

}  // namespace mmsim::gpu
