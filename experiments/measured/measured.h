// The GPU's measured tables read back, on any machine (no GPU, no CUDA): the folder that `mmsim gpu
// ...` and `mmsim table1-bounds` wrote (results/gpu-<device>/) in, fits, decisions and the series of
// its figures out. Each function takes the CSVs already read (report/csv.h) and returns values; the
// commands (`mmsim fit-bounds`, `gpu-speedups`, `gpu-throughput`, `gpu-goals`) write them, and
// the figures' kept gnuplot scripts (scripts/gpu_*.gp) read the variables made here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/figures.h"
#include "report/csv.h"
#include "report/table.h"

namespace mmsim::experiments::measured {

/// Reads one of the folder's CSVs whole (bounded, refused in one line naming `option` and the file
/// when it is missing or malformed: InputError).
report::CsvTable read_measured_csv(const std::string& path, const std::string& option);

/// What the figures say about the GPU and the machine it was simulated as; empty when unknown.
struct GpuIdentity {
  std::string name;     ///< the device's name ("NVIDIA H200")
  std::string machine;  ///< "w = 32, l = 1, L = 400, k = 132"
};

// ---- KNI Table 1's bounds against the measured ms (table1-bounds.csv) ----

struct BoundPoint {
  std::string permutation;
  std::int64_t n = 0;
  double bound = 0, ms = 0, fitted_ms = 0, rel_residual = 0;
};

/// ms = c x bound by least squares through the origin, for one kernel and element type.
struct Table1Fit {
  std::string kernel, row, type;
  std::vector<BoundPoint> points;  ///< in the CSV's order
  double c = 0;                    ///< ms per time unit: sum(x y) / sum(x x)
  std::optional<double> r2;        ///< 1 - residual / total sum of squares; none when the ms do not vary
  double max_rel_residual = 0;     ///< the largest |ms / (c x bound) - 1|
  std::string worst_permutation;
  std::int64_t worst_n = 0, min_n = 0, max_n = 0;
  std::optional<double> max_rel_residual_large;  ///< the same over n >= 2^22; none when no such n
};

/// One fit per (kernel, type), in the order the CSV first names them. Throws CsvError (naming the
/// line) when a bound or an ms is not a positive number, InputError when there is no run.
std::vector<Table1Fit> fit_table1_bounds(const report::CsvTable& bounds);
/// The tidy table of the fits (table1_bounds_fit.csv): kernel, row, type, points, min_n, max_n,
/// ms_per_time_unit, r2, max_rel_residual, worst_permutation, worst_n, max_rel_residual_n_ge_2^22.
report::Table table1_fit_table(const std::vector<Table1Fit>& fits);
/// The points with their fitted ms (table1_bounds.dat), for the figure.
std::string table1_points_dat(const std::vector<Table1Fit>& fits);
/// The variables of scripts/gpu_table1_bounds.gp for the figure DIR/table1_bounds.{png,svg}.
GnuplotVariables table1_figure_variables(const std::vector<Table1Fit>& fits, const std::string& dir,
                                         const GpuIdentity& gpu);

// ---- AS's bounds against one instance's GPU cycles (as-gpu.csv) ----

/// One AS result: its figure, algorithm, the bound's expression in m and w, and its words.
struct AsBound {
  std::string figure;     ///< as_sort_bound, ...
  std::string algorithm;  ///< as-sort, as-partition, as-permute
  std::string xlabel;     ///< the expression as the axis names it
  std::string heading;    ///< the figure's title, before the device
  double (*expression)(double m, double w);
};
const std::vector<AsBound>& as_bounds();

struct AsBoundFit {
  const AsBound* bound = nullptr;
  std::vector<std::int64_t> w, m, sim_steps;
  std::vector<double> x, cycles;  ///< the expression, the GPU cycles of one instance alone
  double c = 0, steps_c = 0;      ///< cycles = c x expression, steps = steps_c x expression (least squares)
};

/// The fit of each AS result that has checked rows (correct = yes), in as_bounds() order; a
/// result without one is left out (its figure is not drawn).
std::vector<AsBoundFit> fit_as_bounds(const report::CsvTable& as_gpu);
report::Table as_fit_table(const std::vector<AsBoundFit>& fits);
/// DIR/<figure>.dat; `csv` is how its header names the CSV it came from.
std::string as_points_dat(const AsBoundFit& fit, const std::string& csv);
/// The variables of scripts/gpu_as_bounds.gp: one figure per fit.
GnuplotVariables as_figure_variables(const std::vector<AsBoundFit>& fits, const std::string& dir,
                                     const GpuIdentity& gpu);

// ---- BDS Fig. 11 on the GPU: speed-up over the naive kernel (bmmc.csv) ----

struct Speedups {
  std::string device;  ///< the first row's device
  struct Row {
    std::string workload;
    int log2_n = 0;
    std::vector<std::optional<double>> speedup;  ///< tile, tile-banks, tile-banks-iters; none: not run
  };
  std::vector<std::string> present;  ///< the workloads with a checked row: random BPC, random BMMC, bit-reversal
  std::vector<Row> rows;             ///< by workload in that order, then size
};

/// The speed-ups naive time / kernel time from the checked rows' median times, each compared with
/// the CSV's own speedup_over_naive: a difference beyond 1e-4 relative (the CSV rounds to six
/// digits) is a disagreement, and throws InputError naming the kernel, workload and size.
Speedups bmmc_speedups(const report::CsvTable& bmmc);
report::Table speedup_table(const Speedups& s);
/// DIR/bmmc_speedup.dat: one block per workload; `csv` is how its header names the CSV.
std::string speedup_dat(const Speedups& s, const std::string& csv);
GnuplotVariables speedup_figure_variables(const Speedups& s, const std::string& dir);

// ---- GL on the GPU: throughput series and heat maps (enumeration*.csv) ----

struct ThroughputSeries {
  std::string kind, algorithm;  ///< in-place / out-of-place, or yxz / zyx for the 3D involutions
  int depth = 0;                ///< 3D only
  std::vector<std::pair<std::int64_t, std::string>> points;  ///< (order, GB/s as written), measured rows
};

struct HeatMap {
  std::string algorithm;  ///< nvidia, v1bf
  std::vector<std::int64_t> cols, rows;
  std::vector<std::vector<std::string>> cells;  ///< GB/s as written; "0" not measured
};

struct Throughput {
  std::vector<ThroughputSeries> square;  ///< the 2D schemes with a measured row, in the figure's order
  std::vector<ThroughputSeries> cube;    ///< the 3D involutions (empty without enumeration_3d.csv)
  std::vector<HeatMap> heat;             ///< the heat maps whose CSV is there
};

/// `cube` and `heat` may be null (their CSVs are absent). Throws InputError when no 2D row was measured.
Throughput enumeration_throughput(const report::CsvTable& square, const report::CsvTable* cube,
                                  const std::vector<std::pair<std::string, const report::CsvTable*>>& heat);
report::Table throughput_table(const Throughput& t);
GnuplotVariables throughput_figure_variables(const Throughput& t, const std::string& dir);

// ---- The goals of the scale work (bench.csv, bmmc.csv) ----

/// The goals page, cell by cell (DIR/goals.md): the fastest scheduled variant within 3.5x a
/// float4 copy and faster than both conventional algorithms, from n = 2^24; BMMC bit-reversal
/// (tile-banks-iters) at >= 90 % of the copy from n = 2^22. A failed run never counts.
std::string goals_page(const report::CsvTable& bench, const report::CsvTable& bmmc);

}  // namespace mmsim::experiments::measured
