// `mmsim gpu enumeration`: GL's transpositions on the GPU (gpu_enumeration.h), swept over
// square orders (throughput against the order, Figs. 9-11) and over rows x cols shapes out of place
// (the heat maps, Figs. 12-13), and the 3D involutions over orders and depths (Figs. 14-15), within a
// time budget; and the tables made from the sweeps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda/enumeration/gpu_enumeration.h"
#include "report/table.h"

namespace mmsim::gpu::enumeration {

struct EnumerationOptions {
  double budget_s = 90;  ///< the square sweep gets about half, the 3D sweep a fifth, the heat map the rest
  int runs = 10, heat_runs = 5;
  int warmup = 2;     ///< of the square sweep; the heat map's shapes have one warm-up run each
  u64 band = 8;       ///< V1B and V1BF bands, in tiles
  u64 region = 64;    ///< super-grid regions, in tiles per side
  u64 max_order = 0;  ///< largest square order (0: the grid's last, 4096 K)
  u64 heat_step = 4096, heat_max = 65536;

  /// The first bad field and its rule, or nothing.
  std::optional<std::string> validate() const;
};

struct EnumerationRun {
  std::string device;  ///< name, SMs, memory, compute capability, driver and runtime
  std::vector<Result> square, heat;
  std::vector<Result> involution;  ///< the 3D sweep: every order, depths 2, 3 and 4 (GL Figs. 14-15)
  u64 largest_ip = 0, largest_oop = 0;
  u64 largest_3d = 0;
  std::string ip_stop, oop_stop, stop_3d;  ///< why each sweep over orders stopped
  double seconds = 0;
  /// Cells found wrong over every run of both sweeps.
  u64 mismatched_cells() const;
};

/// Runs both sweeps (options already valid), one progress line per measurement on stderr. Throws
/// GpuError.
EnumerationRun run_enumeration(const EnumerationOptions& o);

/// The files of one run, each one table: enumeration.csv (square), enumeration_3d.csv (involution),
/// enumeration_heatmap.csv (heat),
/// one rows x cols grid of GB/s per out-of-place algorithm (enumeration_heatmap_<alg>.csv), and the
/// three tables of enumeration.md.
struct EnumerationTables {
  report::Table square, involution, heat, heat_nvidia, heat_v1bf;
  report::Table throughput, throughput_3d, stability, heat_summary;
};
EnumerationTables enumeration_tables(const EnumerationOptions& o, const EnumerationRun& run);

/// enumeration.md: a title and the four Markdown tables.
std::string enumeration_markdown(const EnumerationTables& t);

}  // namespace mmsim::gpu::enumeration
