// Offline schedules of the scheduled permutation (KNI Sect. 7) as files, so that the
// simulator and the CUDA backend run the same precomputed S/D tables.
//
// File format, version 1. Every integer is little-endian, unsigned, with no padding.
//
//   offset  size  field
//   ------  ----  -----------------------------------------------------------------------------
//        0     8  magic: the eight ASCII bytes "MMSIMSCH"
//        8     4  version: 1
//       12     4  w: the width the tables are conflict-free for
//       16     8  n: number of elements; n = N * N with N = sqrt(n) a multiple of w
//       24     8  N: sqrt(n) (redundant, checked against n)
//       32     8  permutation hash: hash64 of P(0), ..., P(n-1), each as one 32-bit word
//       40     8  payload size in bytes: always 6 * n * 4
//       48     8  payload hash: hash64 of the payload's 32-bit words
//       56     8  reserved: 0
//       64     .  payload: six tables of n 32-bit words each, in this order:
//                   s1, d1  (step 1, row-wise permutation of the N x N matrix a)
//                   s2, d2  (step 2, the row-wise permutation inside the column-wise step: it runs on
//                            the transposed matrix, so "row" r of these tables is column r)
//                   s3, d3  (step 3, row-wise permutation)
//
// Table t is row-major: entry r * N + j is S_r(j) (in s_t) or D_r(j) (in d_t) of row r, so that
// thread T_r(j) of the row-wise kernel reads alpha_r[S_r(j)] and writes beta_r[D_r(j)]
// (KNI Sect. 6). Each S_r and D_r is a permutation of 0..N-1, the row's permutation is
// P_r(S_r(j)) = D_r(j), and for every warp (j = c w .. c w + w - 1) the banks S_r(j) mod w are
// distinct, as are the banks D_r(j) mod w.
//
// hash64 over 32-bit words x_0, x_1, ... (FNV-1a taken word by word, arithmetic modulo 2^64):
//   h = 0xcbf29ce484222325;  for each x_i: h = (h XOR x_i) * 0x00000100000001b3.
//
// A reader must trust nothing: it checks the magic, version, sizes (a truncated or overlong file
// is refused), both hashes, that n, w and the permutation are the ones asked for, that every
// table row is a permutation of 0..N-1 with conflict-free warps, and that the three steps
// composed move every a[x] to b[P(x)].
#pragma once

#include <cstdint>
#include <istream>
#include <span>
#include <string>

#include "algorithms/offline/row_schedule.h"

namespace mmsim::offline {

inline constexpr char kScheduleMagic[8] = {'M', 'M', 'S', 'I', 'M', 'S', 'C', 'H'};
inline constexpr std::uint32_t kScheduleVersion = 1;
inline constexpr std::uint64_t kScheduleHeaderBytes = 64;

/// hash64 of the format above over 32-bit words.
std::uint64_t hash64(std::span<const std::uint32_t> words, std::uint64_t h = 0xcbf29ce484222325ull);

/// Writes `schedule`, made for `perm`, to `path`. Throws WriteError when the file cannot be written
/// (callers check the path first with check_output_file, so this is a full disk or the like).
void write_schedule_file(const std::string& path, const ThreeStepSchedule& schedule,
                         std::span<const std::uint32_t> perm);

/// Reads and fully checks a schedule for permutation `perm` on width `w` from `in` (named `file` in
/// messages). Throws InputError naming the first problem ("--schedule: 'FILE': ...").
ThreeStepSchedule parse_schedule(std::istream& in, std::span<const std::uint32_t> perm, int w, const std::string& file);
/// Opens `path` safely (io/input_file.h: a regular file of at most the size a schedule for
/// n = perm.size() has) and parses it.
ThreeStepSchedule read_schedule_file(const std::string& path, std::span<const std::uint32_t> perm, int w);

}  // namespace mmsim::offline
