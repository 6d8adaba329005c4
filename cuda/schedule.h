// The host side of the scheduled offline permutation on the GPU (KNI Sects. 6-7): the
// schedule that algorithms/offline builds for the simulator, in the forms the kernels read.
#pragma once

#include <cstdint>
#include <vector>

namespace mmsim::offline {
struct ThreeStepSchedule;
}  // namespace mmsim::offline

namespace mmsim::gpu {

/// The paper's conflict-free row-wise arrays for one step (KNI Sect. 6): for row i and slot
/// t = c * w + k, s[i * side + t] is the source cell and d[i * side + t] its destination; the w slots
/// of warp c read w distinct banks and write w distinct banks. These are algorithms/offline's S and D
/// tables (RowSchedule) narrowed to 16 bits.
struct BankSchedule {
  std::vector<std::uint16_t> s, d;
};

/// The three row-wise steps of KNI Sect. 7 for a permutation p of n = side^2 cells, as
/// algorithms/offline builds them (the simulator's `scheduled` runs the same tables): step 1 moves
/// each cell within its row of a to the column of its colour, step 2 moves it within its column to
/// its destination row, step 3 within that row to its destination column. Each step is kept in two
/// forms: the S/D tables (bank[k]) and the destinations of the rows it permutes (step[k]):
///   step[0][i * side + j]: new column of the cell at (i, j) of a;
///   step[1][c * side + i]: new row of the cell at (i, c) after step 1 (row c of the transpose);
///   step[2][r * side + c]: new column of the cell at (r, c) after step 2.
struct OfflineSchedule {
  std::uint32_t side = 0;
  std::vector<std::uint32_t> step[3];
  BankSchedule bank[3];
  double seconds_colouring = 0, seconds_tables = 0;  ///< the offline builder's two phases (wall clock)
};

/// Builds the schedule with algorithms/offline (w = 32). Throws std::invalid_argument when p is not
/// a permutation of side^2 cells or side is not a power of two from 32 to 65536 (one line naming
/// the rule).
OfflineSchedule make_offline_schedule(const std::vector<std::uint32_t>& p, std::uint32_t side);

/// The same from tables built elsewhere (e.g. read from the file `mmsim schedule` writes); they must
/// be for w = 32 and side <= 65536 (16-bit indices).
OfflineSchedule offline_schedule_of(const offline::ThreeStepSchedule& t);

/// The S/D tables of one row-wise permutation (step[i * side + j]: new column of cell (i, j)), built
/// by algorithms/offline's row_schedule for w = 32.
BankSchedule bank_schedule(const std::vector<std::uint32_t>& step, std::uint32_t side);

/// algorithms/offline's fused_rows_per_block: the fused kernel's rows per block (host code, for the
/// .cu files, which do not include the algorithms' C++20 headers).
std::uint32_t fused_rows_for(std::uint32_t side, std::uint32_t element_bytes, std::uint64_t shared_bytes);

/// The gather form of one step for the fused kernel, narrowed to 16 bits: algorithms/offline's
/// fused_gather_table (the source column of each output cell, in the order the kernel writes them).
std::vector<std::uint16_t> gather_schedule(const std::vector<std::uint32_t>& step, std::uint32_t side,
                                           std::uint32_t rows_per_block);

/// The destination array of the whole permutation that one row-wise step performs on a side x side
/// matrix (cell i * side + j moves to i * side + step[i * side + j]); `transposed` for step 2, whose
/// rows are the matrix's columns.
std::vector<std::uint32_t> step_permutation(const std::vector<std::uint32_t>& step, std::uint32_t side,
                                            bool transposed);

}  // namespace mmsim::gpu
