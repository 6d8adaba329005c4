// The S/D tables of the row-wise permutation (KNI Sect. 6) and of the three steps of the
// scheduled permutation (KNI Sect. 7), computed offline by Koenig edge colouring.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/types.h"

namespace mmsim::offline {

/// The tables of one row-wise permutation of an N x N matrix: thread T_r(j) moves
/// alpha_r[s[r N + j]] to beta_r[d[r N + j]], so the row's permutation is P_r(S_r(j)) = D_r(j).
struct RowSchedule {
  std::uint64_t N = 0;
  int w = 0;
  std::vector<Word> s, d;
};

/// Builds a conflict-free RowSchedule for the row-wise permutation `row_perm`, where
/// row_perm[r N + j] = P_r(j) in 0..N-1 and N is a multiple of w. For each row the w x w bank
/// multigraph (edge: bank j mod w of alpha -> bank P_r(j) mod w of beta) is (N/w)-regular; colour
/// class c becomes warp c, whose w reads and w writes then hit w distinct banks each. The rows are
/// independent, so `threads` host threads (0: every core) take rows of their own; the tables are
/// the same for every number of threads.
RowSchedule row_schedule(std::span<const Word> row_perm, std::uint64_t N, int w, unsigned threads = 0);

/// The row-wise permutation a RowSchedule performs: out[r N + S_r(j)] = D_r(j). Empty optional and
/// `why` set when some S_r or D_r is not a permutation of 0..N-1 or a warp hits a bank twice.
std::optional<std::vector<Word>> row_schedule_permutation(const RowSchedule& s, std::string& why);

/// The three row-wise steps of the scheduled permutation: step 1 and 3 permute the rows of the
/// N x N matrix; step 2 permutes the rows of its transpose (the column-wise step).
struct ThreeStepSchedule {
  std::uint64_t n = 0, N = 0;
  int w = 0;
  RowSchedule step[3];
};

/// Seconds spent in each part of building a schedule.
struct ScheduleTiming {
  unsigned threads = 1;                      ///< host threads that built the schedule
  double colouring = 0;                      ///< the N-colouring of the N x N row multigraph (wall clock)
  double tables = 0;                         ///< the three steps' per-row bank colourings and S/D tables (wall clock)
  double colouring_cpu = 0, tables_cpu = 0;  ///< the same in processor time of this process
};

/// KNI Sect. 7 for P(x) = p[x], n = N^2, N a multiple of w: colour the row multigraph (edge
/// from source row x / N to destination row P(x) / N) with N colours; colour c(x) is the column x
/// takes in step 1, step 2 takes it to row P(x) / N, step 3 to column P(x) mod N. `threads` host
/// threads (0: every core) share the row colouring's Euler splits and the steps' rows; the
/// schedule is the same for every number of threads.
ThreeStepSchedule three_step_schedule(std::span<const Word> p, int w, ScheduleTiming* timing = nullptr,
                                      unsigned threads = 0);

/// The destinations of the row-wise permutation a RowSchedule performs, row by row:
/// out[r N + S_r(j)] = D_r(j), the new column of cell (r, S_r(j)); the tables must be well formed
/// (as row_schedule and three_step_schedule make them).
std::vector<Word> row_destinations(const RowSchedule& s);

/// The fused row-wise kernel's rows per block (the scheduled-fused GPU kernel, cuda/gpu.cu, and its
/// simulator program): the most rows, at most 8 and dividing N, whose cells of `element_bytes`
/// fit `shared_bytes` of shared memory; at least 1.
std::uint32_t fused_rows_per_block(std::uint64_t N, std::uint32_t element_bytes,
                                   std::uint64_t shared_bytes = 128 * 1024);

/// The gather table of the fused kernel for one row-wise permutation (`destinations` as
/// row_destinations gives them) in blocks of R rows: entry b N R + c R + rr (R > 1: the block's
/// output written column by column, transposed) or r N + c (R = 1: row by row) is the source column
/// of output column c in row r = b R + rr, the inverse of the row's permutation. R must divide N.
std::vector<Word> fused_gather_table(std::span<const Word> destinations, std::uint64_t N, std::uint32_t R);

/// The permutation the three steps compose to, or nullopt with `why` when a table is malformed.
std::optional<std::vector<Word>> composed_permutation(const ThreeStepSchedule& s, std::string& why);

}  // namespace mmsim::offline
