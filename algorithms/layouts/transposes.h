// The CRSW, SRCW and DRDW transposes of a w x w matrix on the DMM, over any layout (NMI Sect. III, VI).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "models/layouts/matrix_layout.h"
#include "sim/engine.h"

namespace mmsim::layouts {

/// NMI Sect. III, with thread T(i w + j) (warp i) moving one cell from a to b, both in the
/// same layout (the paper keeps a and b in one layout with the same r):
///  - crsw: reads a(i, j), writes b(j, i)                      (contiguous read, stride write);
///  - srcw: reads a(j, i), writes b(i, j)                      (stride read, contiguous write);
///  - drdw: reads a((i + j) mod w, j), writes b(j, (i + j) mod w)  (diagonal read and write).
enum class Transpose { Crsw, Srcw, Drdw };

std::span<const Transpose> transposes();
const char* to_string(Transpose t);
std::optional<Transpose> transpose_from_name(std::string_view name);

struct TransposeRun {
  RunStats stats;
  bool correct = false;         ///< b(x, y) == a(y, x) for every cell, checked cell by cell
  int read_max_congestion = 0;  ///< largest congestion of a warp's read
  int write_max_congestion = 0;
  double read_mean_congestion = 0;  ///< slots / warps of the read round: mean congestion of a warp
  double write_mean_congestion = 0;
  std::vector<SlotEvent> trace;
};

/// [NMI] Sect. III: w warps of congestion c take c w + l - 1 time units on the DMM; contiguous and
/// diagonal accesses have c = 1 (w + l - 1), the stride access c = w (w^2 + l - 1).
constexpr std::int64_t conflict_free_access(std::int64_t w, std::int64_t l) { return w + l - 1; }
constexpr std::int64_t stride_access(std::int64_t w, std::int64_t l) { return w * w + l - 1; }

/// The round-synchronous time the paper gives for a transpose under a layout, where it gives one:
/// raw (Sect. III: CRSW and SRCW one stride access each, DRDW none) and rap's CRSW and SRCW
/// (Sect. IV: rows and columns conflict-free). nullopt for ras (a random congestion), rap's DRDW
/// and the layouts beyond the paper (pad, xor).
std::optional<std::int64_t> transpose_closed_form(Transpose t, MatrixLayoutKind layout, std::int64_t w, std::int64_t l);

/// Runs one transpose as a kernel of w^2 threads (one block) on a DMM of width layout.w() and
/// latency `latency`: both arrays are shared arrays of layout.cells() cells; time and congestion come
/// from the engine.
TransposeRun run_transpose(Transpose t, const MatrixLayout& layout, int latency, const EngineOptions& options);

}  // namespace mmsim::layouts
