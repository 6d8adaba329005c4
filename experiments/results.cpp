#include "experiments/results.h"

#include "experiments/bmmc/bmmc_experiments.h"
#include "experiments/enumeration/enumeration_experiments.h"
#include "experiments/layouts/rap_figures.h"
#include "experiments/layouts/rap_tables.h"
#include "experiments/offline/kasagi_figures.h"
#include "experiments/sorting/as_bounds.h"
#include "experiments/sorting/as_theorem4.h"

namespace mmsim::experiments {

namespace {

using TableDriver = std::function<report::Table(const TableOptions&)>;
using FigureDriver = std::function<std::vector<std::string>(const std::string&)>;

// A table that `mmsim reproduce` writes as NAME.md, NAME.csv and NAME.json.
ResultEntry cpu_table(std::string name, std::string paper, std::string description, TableDriver driver,
                      std::vector<Excerpt> excerpts) {
  ResultEntry e{.name = name,
                .kind = ResultKind::Table,
                .platform = Platform::Cpu,
                .paper = std::move(paper),
                .description = std::move(description),
                .command = "mmsim table " + name,
                .stage = "",
                .files = {name + ".md", name + ".csv", name + ".json"},
                .excerpts = std::move(excerpts),
                .table = std::move(driver),
                .figure = {}};
  return e;
}

// A figure that `mmsim reproduce` (or `mmsim figure NAME`) draws through gnuplot; `files` are all
// it writes: its data, its gnuplot scripts, the PNG and the SVG.
ResultEntry cpu_figure(std::string name, std::string paper, std::string description, FigureDriver driver,
                       std::vector<std::string> files) {
  ResultEntry e{.name = name,
                .kind = ResultKind::Figure,
                .platform = Platform::Cpu,
                .paper = std::move(paper),
                .description = std::move(description),
                .command = "mmsim figure " + name + " --out results",
                .stage = "",
                .files = std::move(files),
                .excerpts = {},
                .table = {},
                .figure = std::move(driver)};
  return e;
}

// A figure's usual files: NAME.csv, its two gnuplot scripts, PNG and SVG.
std::vector<std::string> gnuplot_files(const std::string& name, const std::vector<std::string>& data) {
  std::vector<std::string> files = data;
  for (const char* ext : {"-png.gp", "-svg.gp", ".png", ".svg"}) files.push_back(name + ext);
  return files;
}

// A figure drawn from its table's data: NAME.csv, NAME.dat, NAME.gp, PNG and SVG.
std::vector<std::string> dat_files(const std::string& name) {
  return {name + ".csv", name + ".dat", name + ".gp", name + ".png", name + ".svg"};
}

ResultEntry gpu(ResultKind kind, std::string name, std::string paper, std::string description, std::string command,
                std::string stage, std::vector<std::string> files, std::vector<Excerpt> excerpts = {}) {
  ResultEntry e{.name = std::move(name),
                .kind = kind,
                .platform = Platform::Gpu,
                .paper = std::move(paper),
                .description = std::move(description),
                .command = std::move(command),
                .stage = std::move(stage),
                .files = std::move(files),
                .excerpts = std::move(excerpts),
                .table = {},
                .figure = {}};
  return e;
}

constexpr ResultKind kTable = ResultKind::Table;
constexpr ResultKind kFigure = ResultKind::Figure;

std::vector<ResultEntry> make_results() {
  std::vector<ResultEntry> all;
  // The CPU tables, in the order `mmsim reproduce` writes them (and `mmsim list` lists them).
  all.push_back(cpu_table(
      "rap-t1", "NMI Table I",
      "congestion of contiguous, stride and other accesses under raw, ras, rap at w = 16 .. 1024, fitted c", rap_t1,
      {{.csv = "rap-t1.csv",
        .keys = {"access", "layout"},
        .rows = {{"stride", "raw"}, {"stride", "ras"}, {"any: diagonal", "rap"}, {"any: random", "rap"}},
        .columns = {"paper", "w = 32", "w = 1024", "fitted c"}}}));
  all.push_back(cpu_table(
      "rap-t2", "NMI Table II", "expected congestion of a warp access to a w x w matrix beside the paper's values",
      rap_t2,
      {{.csv = "rap-t2.csv",
        .keys = {"access", "layout", "w"},
        .rows = {{"stride", "ras", "32"}, {"diagonal", "rap", "32"}, {"random", "raw", "32"}, {"random", "rap", "256"}},
        .columns = {"measured", "standard error", "paper", "difference", "within 4 s.e."}}}));
  all.push_back(cpu_table("rap-t3", "NMI Table III",
                          "read/write congestion and DMM time units of the CRSW, SRCW, DRDW transposes per layout",
                          rap_t3,
                          {{.csv = "rap-t3.csv",
                            .keys = {"transpose", "layout"},
                            .rows = {{"crsw", "raw"}, {"crsw", "ras"}, {"crsw", "rap"}, {"drdw", "rap"}},
                            .columns = {"read congestion", "write congestion", "time units (DMM)"}}}));
  all.push_back(cpu_table("rap-t4", "NMI Table IV",
                          "expected congestion on a w^4 array per RAP scheme, and the random numbers used", rap_t4,
                          {{.csv = "rap-t4.csv",
                            .keys = {"access", "w"},
                            .rows = {{"stride1", "32"}, {"stride2", "32"}, {"stride3", "32"}, {"malicious", "32"}},
                            .columns = {"raw", "ras", "1p", "r1p", "3p", "w2p", "1pw2r"}}}));
  all.push_back(cpu_table(
      "enumeration-bands", "GL Sect. 5.1, 7", "band width of V1B / V1BF under a TLB: time units and misses per width",
      enumeration_bands_table,
      {{.csv = "enumeration-bands.csv",
        .keys = {"order", "algorithm", "band (tiles)"},
        .rows =
            {{"1024", "IP V1B", "1"}, {"1024", "IP V1B", "8"}, {"1024", "OOP V1BF", "1"}, {"1024", "OOP V1BF", "8"}},
        .columns = {"time units (TLB)", "TLB slow-down", "TLB misses"}}}));
  all.push_back(cpu_table(
      "enumeration-tlb", "GL Sect. 3.1, 7",
      "transposition block orders (naive, super grid, V1, V1R, V1B, NVIDIA, V1BF) with and without "
      "a TLB: time units and misses by order",
      enumeration_tlb_table,
      {{.csv = "enumeration-tlb.csv",
        .keys = {"order", "algorithm"},
        .rows = {{"1024", "IP naive"}, {"1024", "IP V1B w=4"}, {"1024", "OOP NVIDIA"}, {"1024", "OOP V1BF w=4"}},
        .columns = {"time units (no TLB)", "time units (TLB)", "TLB slow-down"}}}));
  all.push_back(cpu_table(
      "enumeration-3d", "GL Sect. 3.3, Figs. 14-15",
      "3D involutions T_yxz and T_zyx in place, original grid and V1B, with and without a TLB: time units and misses",
      enumeration_3d_table,
      {{.csv = "enumeration-3d.csv",
        .keys = {"order", "depth", "involution", "grid"},
        .rows = {{"1280", "2", "T_yxz", "original"},
                 {"1280", "2", "T_yxz", "V1B"},
                 {"1280", "4", "T_zyx", "original"},
                 {"1280", "4", "T_zyx", "V1B"}},
        .columns = {"time units (no TLB)", "TLB slow-down", "time / V1B time"}}}));
  all.push_back(cpu_table("bmmc-optimisations", "BDS Fig. 9-10",
                          "each BPC/BMMC kernel on random BPCs, random BMMCs and bit-reversal (time units, % of copy)",
                          bmmc_optimisations_table,
                          {{.csv = "bmmc-optimisations.csv",
                            .keys = {"permutation", "kernel"},
                            .rows = {{"random BPC", "naive"},
                                     {"random BPC", "tile-banks"},
                                     {"random BMMC", "tile-banks"},
                                     {"bit-reversal", "tile-banks-iters"}},
                            .columns = {"time units", "closed form", "max |difference|", "% of copy bandwidth"}}}));
  all.push_back(cpu_table("bmmc-sizes", "BDS Fig. 11",
                          "speed-up of the optimised BPC/BMMC kernels over the naive one by array size",
                          bmmc_sizes_table,
                          {{.csv = "bmmc-sizes.csv",
                            .keys = {"log2 n", "permutation"},
                            .rows = {{"18", "random BPC"}, {"18", "random BMMC"}, {"18", "bit-reversal"}},
                            .columns = {"optimised kernel", "optimised time units", "closed form", "speed-up"}}}));
  all.push_back(cpu_table("parm-sort", "BDS Sect. 7",
                          "the parm sorting network, direct or through BMMC permutations, by size", parm_sort_table,
                          {{.csv = "parm-sort.csv",
                            .keys = {"log2 n", "permutations"},
                            .rows = {{"12", "direct (none)"}, {"12", "naive"}, {"12", "tile-banks"}},
                            .columns = {"kernel passes", "time units", "speed-up over direct", "sorted"}}}));
  all.push_back(cpu_table("kasagi-t1", "KNI Table 1",
                          "rounds of each kind and time units of the permutation algorithms on the HMM", kasagi_t1,
                          {{.csv = "kasagi-t1.csv",
                            .keys = {"algorithm", "permutation"},
                            .rows = {{"d-designated", "random"},
                                     {"transpose", "transpose"},
                                     {"column-wise", "random (each column)"},
                                     {"scheduled", "random"}},
                            .columns = {"time units", "closed form", "difference", "async time units"}}}));
  all.push_back(cpu_table(
      "as-bounds", "AS Sect. 2-3",
      "steps of conflict-free sorting, partition, permutation on the DMM beside their bounds", as_bounds_table,
      {{.csv = "as-bounds.csv",
        .keys = {"w", "m", "algorithm"},
        .rows = {{"32", "16", "as-sort"},
                 {"32", "16", "as-sort-bitonic"},
                 {"32", "16", "as-partition"},
                 {"32", "16", "as-permute"}},
        .columns = {"method", "steps", "cac violations", "steps/(m log2 mw)", "steps/m", "steps/(m log_m^3 w)"}}}));
  all.push_back(cpu_table(
      "as-bounds-theorem4", "AS Theorem 4, Appendix B",
      "the randomized permutation phase by phase with Appendix B's packing and Lemma 2, against each term, and its "
      "three finishes compared",
      as_theorem4_table,
      {{.csv = "as-bounds-theorem4.csv",
        .keys = {"w", "m"},
        .rows = {{"64", "32"}, {"256", "64"}, {"1024", "64"}},
        .columns = {"m'", "steps/m", "finish lemma2", "finish packed sort", "finish full sort", "lemma2 wins"}}}));
  // The same table on a larger grid: by hand, not by `mmsim reproduce` (34 minutes on one core).
  all.push_back(ResultEntry{
      .name = "as-bounds-theorem4-n1048576",
      .kind = kTable,
      .platform = Platform::Cpu,
      .paper = "AS Theorem 4, Appendix B",
      .description = "as-bounds-theorem4 up to w m = 2^20",
      .command = "mmsim table as-bounds-theorem4 -n 1048576 --format csv > results/as-bounds-theorem4-n1048576.csv",
      .stage = "",
      .files = {"as-bounds-theorem4-n1048576.csv"},
      .excerpts = {{.csv = "as-bounds-theorem4-n1048576.csv",
                    .keys = {"w", "m"},
                    .rows = {{"1024", "32"}, {"1024", "1024"}},
                    .columns = {"m'", "finish lemma2", "finish packed sort", "finish full sort", "lemma2 wins"}}},
      .table = {},
      .figure = {}});

  // The CPU figures, in the order `mmsim reproduce` draws them.
  all.push_back(cpu_figure(
      "kasagi-fig4", "KNI Fig. 4",
      "data movement of the in-place shuffle, bit-reversal and transpose through one DMM's tile (n = 256, w = 4)",
      kasagi_fig4, gnuplot_files("kasagi-fig4", {"kasagi-fig4.csv"})));
  all.push_back(cpu_figure("kasagi-fig6", "KNI Fig. 6",
                           "the scheduled permutation's three steps at sqrt(n) = 4, each cell painted with its colour",
                           kasagi_fig6, gnuplot_files("kasagi-fig6", {"kasagi-fig6.csv"})));
  all.push_back(
      cpu_figure("kasagi-fig7", "KNI Fig. 7",
                 "the bipartite multigraph of kasagi-fig6's permutation, each edge in the colour the run gave it",
                 kasagi_fig7, gnuplot_files("kasagi-fig7", {"kasagi-fig7.csv"})));
  {
    std::vector<std::string> files = gnuplot_files("rap-congestion", {"rap-congestion.csv"});
    for (auto& f : gnuplot_files("rap-congestion-4d", {"rap-congestion-4d.csv"})) files.push_back(std::move(f));
    all.push_back(cpu_figure("rap-congestion", "NMI Sect. V, VII",
                             "expected congestion against w for every layout and access (w x w and w^4)",
                             rap_congestion_figure, std::move(files)));
  }
  all.push_back(cpu_figure("rap-lemma4", "NMI Lemma 4, Theorem 2",
                           "congestion distribution of every layout and access against the tail bound for rap",
                           rap_lemma4_figure, gnuplot_files("rap-lemma4", {"rap-lemma4.csv"})));
  all.push_back(
      cpu_figure("rap-fixed-r", "NMI Fig. 6",
                 "the paper's fixed r = (2, 0, 3, 1) drawn from the layouts; a fixed r against a fresh r at w = 32",
                 rap_fixed_r_figure,
                 gnuplot_files("rap-fixed-r", {"rap-fixed-r.csv", "rap-fixed-r-cells.csv", "rap-fixed-r-warps.csv"})));
  all.push_back(cpu_figure("enumeration-tlb", "GL Fig. 2, 9-11",
                           "throughput and TLB misses of the transposition block orders against the matrix order",
                           enumeration_tlb_figure, dat_files("enumeration-tlb")));
  all.push_back(cpu_figure("enumeration-3d", "GL Figs. 14-15",
                           "cells per time unit of the 3D involutions T_yxz and T_zyx, original grid and V1B, by order",
                           enumeration_3d_figure, dat_files("enumeration-3d")));
  all.push_back(cpu_figure("bmmc-optimisations", "BDS Fig. 9", "time units of each BPC/BMMC kernel per workload",
                           bmmc_optimisations_figure, dat_files("bmmc-optimisations")));
  all.push_back(
      cpu_figure("bmmc-sizes", "BDS Fig. 11",
                 "speed-up of the optimised BPC/BMMC kernels over the naive one by size (simulator; the GPU's "
                 "2^20 .. 2^30: scripts/gpu_bmmc_figures.sh)",
                 bmmc_sizes_figure, dat_files("bmmc-sizes")));
  all.push_back(cpu_figure("as-bounds", "AS Sect. 2-3",
                           "normalised steps of conflict-free sorting, partition, permutation against m",
                           as_bounds_figure, dat_files("as-bounds")));
  all.push_back(cpu_figure(
      "as-bounds-theorem4", "AS Theorem 4, Appendix B",
      "Theorem 4's phases over their terms against m, and the finish by Lemma 2, by the sort path, by a full sort",
      as_theorem4_figure, dat_files("as-bounds-theorem4")));

  // The GPU's tables and figures: `./mmsim.sh gpu-reproduce` on a CUDA machine, one folder per
  // device; `mmsim` there is the CUDA build's (build-gpu/bin/mmsim).
  const std::string out = " --out results/gpu-<device>";
  all.push_back(gpu(kTable, "kasagi-t2", "KNI Table 2",
                    "offline permutation times in float and double, as a ratio to D-designated identical and as % of "
                    "a float4 copy, the paper's GTX 680 ratios beside",
                    "mmsim gpu reproduce" + out, "tables", {"kasagi-t2.md", "kasagi-t2.csv"},
                    {{.csv = "kasagi-t2.csv",
                      .keys = {"type", "sqrt(n)", "permutation", "algorithm"},
                      .rows = {{"float", "4096", "random", "d-designated"},
                               {"float", "4096", "random", "s-designated"},
                               {"float", "4096", "random", "scheduled-paper"},
                               {"float", "4096", "bit-reversal", "in-place"}},
                      .columns = {"ms", "ratio to D identical", "GTX 680 ratio (paper)"}}}));
  all.push_back(gpu(kTable, "bench", "KNI Table 2",
                    "every kernel's time, bandwidth and % of the copy, up to n = 2^28 (the scale goals' data)",
                    "mmsim gpu reproduce" + out, "tables", {"bench.md", "bench.csv", "progress.log"},
                    {{.csv = "bench.csv",
                      .keys = {"type", "n", "kernel", "permutation"},
                      .rows = {{"float", "268435456", "copy", "-"},
                               {"float", "268435456", "d-designated", "random"},
                               {"float", "268435456", "s-designated", "random"},
                               {"float", "268435456", "scheduled-pipelined", "random"}},
                      .columns = {"median ms", "GB/s", "% of copy", "correct"}}}));
  all.push_back(gpu(kTable, "table1-bounds", "KNI Table 1",
                    "each row's bound in time units on the GPU profile's machine, beside the measured times",
                    "mmsim table1-bounds --profile results/gpu-<device>/profile-<device>.json --measured "
                    "results/gpu-<device>" +
                        out,
                    "bounds", {"table1-bounds.md", "table1-bounds.csv"}));
  all.push_back(gpu(
      kFigure, "table1_bounds", "KNI Table 1",
      "measured ms against each row's bound, with ms = c x bound fitted through the origin per kernel "
      "and type",
      "scripts/gpu_table1_figures.sh results/gpu-<device>", "bounds",
      {"table1_bounds_fit.csv", "table1_bounds.dat", "table1_bounds.png", "table1_bounds.svg"},
      {{.csv = "table1_bounds_fit.csv",
        .keys = {"kernel", "type"},
        .rows =
            {{"d-designated", "float"}, {"s-designated", "float"}, {"in-place", "float"}, {"scheduled-paper", "float"}},
        .columns = {"points", "r2", "max_rel_residual_n_ge_2^22"}}}));
  all.push_back(gpu(kTable, "rap-t3", "NMI Table III",
                    "the 32 x 32 transposes under every layout: congestion, DMM time units and GPU time, the paper's "
                    "GTX TITAN times beside",
                    "mmsim gpu reproduce" + out, "tables", {"rap-t3.md", "rap-t3.csv"},
                    {{.csv = "rap-t3.csv",
                      .keys = {"transpose", "layout"},
                      .rows = {{"crsw", "raw"}, {"crsw", "ras"}, {"crsw", "rap"}, {"drdw", "rap"}},
                      .columns = {"time units (DMM)", "GPU cycles (double, median)", "GPU ns (double, median)",
                                  "GTX TITAN ns (paper, double)"}}}));
  all.push_back(gpu(kTable, "rap-ncu", "NMI Table III",
                    "Nsight Compute's shared-memory bank conflicts of the transposes beside the simulator's",
                    "bash cuda/ncu_rap.sh build-gpu/bin/mmsim results/gpu-<device>", "ncu",
                    {"rap-ncu.md", "ncu-rap.csv", "ncu-rap.log"}));
  all.push_back(gpu(kTable, "bmmc", "BDS Figs. 9-10",
                    "BPC and BMMC kernels from 2^20 to 2^30 as % of the copy's effective bandwidth, with the goals "
                    "set from BDS Sect. 6",
                    "mmsim gpu bmmc" + out, "bmmc", {"bmmc.md", "bmmc.csv", "bmmc-matrices.txt", "bmmc-progress.log"},
                    {{.csv = "bmmc.csv",
                      .keys = {"log2_n", "permutation", "kernel"},
                      .rows = {{"30", "random BPC", "tile-banks-iters"},
                               {"30", "random BMMC", "tile-banks-iters"},
                               {"30", "bit-reversal", "tile-banks-iters"}},
                      .columns = {"median_ms", "pct_of_copy_bandwidth", "goal_pct", "goal"}}}));
  all.push_back(gpu(kFigure, "bmmc_speedup", "BDS Fig. 11",
                    "speed-up of each optimised kernel over the naive one, 2^20 .. 2^30",
                    "scripts/gpu_bmmc_figures.sh results/gpu-<device>", "",
                    {"bmmc_speedup.dat", "bmmc_speedup.png", "bmmc_speedup.svg"},
                    {{.csv = "bmmc.csv",
                      .keys = {"log2_n", "permutation", "kernel"},
                      .rows = {{"20", "random BPC", "tile-banks-iters"},
                               {"20", "bit-reversal", "tile-banks-iters"},
                               {"30", "random BPC", "tile-banks-iters"},
                               {"30", "bit-reversal", "tile-banks-iters"}},
                      .columns = {"speedup_over_naive"}}}));
  all.push_back(
      gpu(kTable, "parm-gpu", "BDS Sect. 7",
          "the parm sorting network on the GPU, direct and through each BMMC kernel, beside the simulated "
          "time units of the same network",
          "mmsim gpu parm" + out, "parm", {"parm-gpu.md", "parm-gpu.csv", "parm-progress.log"},
          {{.csv = "parm-gpu.csv",
            .keys = {"log2_n", "variant"},
            .rows = {{"16", "direct"}, {"16", "tile-banks-iters"}, {"24", "direct"}, {"24", "tile-banks-iters"}},
            .columns = {"launches", "median_ms", "sim_time_units", "correct"}}}));
  all.push_back(gpu(kTable, "parm-ncu", "BDS Sect. 7",
                    "Nsight Compute's sectors per request and bank conflicts of the parm sort's kernels at 2^12",
                    "bash cuda/ncu_parm.sh build-gpu/bin/mmsim results/gpu-<device>", "parm", {"parm-ncu.md"}));
  all.push_back(
      gpu(kTable, "as-gpu", "AS Sect. 2-3",
          "as-sort, as-partition, as-permute and their baselines as one warp per w x m matrix: cycles per "
          "instance beside the simulated steps",
          "mmsim gpu sorting" + out, "sorting", {"as-gpu.md", "as-gpu.csv", "sorting-progress.log"},
          {{.csv = "as-gpu.csv",
            .keys = {"algorithm", "m"},
            .rows = {{"as-sort", "32"}, {"as-sort-bitonic", "32"}, {"as-sort", "512"}, {"as-sort-bitonic", "512"}},
            .columns = {"sim_steps", "gpu_cycles_alone", "cycles_per_step_alone", "ms"}}}));
  all.push_back(gpu(kTable, "as-ncu", "AS Sect. 1",
                    "Nsight Compute's shared-memory bank conflicts and instructions of the AS kernels beside the "
                    "simulator's counts",
                    "bash cuda/ncu_sorting.sh build-gpu/bin/mmsim results/gpu-<device>", "sorting",
                    {"as-ncu.md", "as-ncu.csv", "ncu-sorting.csv", "ncu-sorting.log"}));
  all.push_back(gpu(
      kTable, "instructions", "",
      "a warp's work besides memory (ALU chains, shared-memory chases and loads, branches), alone and 32 "
      "warps per SM, with Nsight Compute's count of each one's warp instructions; and copies through "
      "shared memory at 1 to 32 warps per SM; tiles through a barrier at 1 to 8 blocks per SM; and a "
      "polynomial an element over large arrays (held out from every fit)",
      "mmsim gpu instructions" + out +
          "; bash cuda/ncu_instructions.sh build-gpu/bin/mmsim "
          "results/gpu-<device>",
      "instructions",
      {"instructions.md", "instructions.csv", "instructions-copy.md", "instructions-copy.csv", "instructions-tiles.md",
       "instructions-tiles.csv", "instructions-stream.md", "instructions-stream.csv", "instructions-ncu.csv",
       "instructions-stream-ncu.csv", "ncu-instructions.csv", "ncu-instructions.log", "instructions-progress.log"}));
  all.push_back(gpu(kFigure, "as_sort_bound", "AS Theorems 1-2",
                    "one instance's cycles against m log2(m w), the constant fitted through the origin",
                    "scripts/gpu_bounds_figures.sh results/gpu-<device>", "",
                    {"as_sort_bound.dat", "as_sort_bound.png", "as_sort_bound.svg"}));
  all.push_back(gpu(kFigure, "as_partition_bound", "AS Corollary 1, Theorem 1, Lemma 2",
                    "one instance's cycles against m max(1, log_m w)^3",
                    "scripts/gpu_bounds_figures.sh results/gpu-<device>", "",
                    {"as_partition_bound.dat", "as_partition_bound.png", "as_partition_bound.svg"}));
  all.push_back(gpu(kFigure, "as_permute_bound", "AS Theorem 4",
                    "one instance's cycles against m log log log_m w (m on every shape of the grid)",
                    "scripts/gpu_bounds_figures.sh results/gpu-<device>", "",
                    {"as_permute_bound.dat", "as_permute_bound.png", "as_permute_bound.svg"}));
  all.push_back(gpu(kTable, "enumeration", "GL Sect. 7, Figs. 9-15",
                    "the 2D schemes and the thread-wise transposition by order, the out-of-place heat maps and the 3D "
                    "involutions at depths 2, 3 and 4",
                    "mmsim gpu enumeration" + out, "enumeration",
                    {"enumeration.md", "enumeration.csv", "enumeration_3d.csv", "enumeration_heatmap.csv",
                     "enumeration_heatmap_nvidia.csv", "enumeration_heatmap_v1bf.csv", "enumeration-progress.log"},
                    {{.csv = "enumeration.csv",
                      .keys = {"kind", "algorithm", "rows"},
                      .rows = {{"in-place", "naive", "16384"},
                               {"in-place", "v1b", "16384"},
                               {"in-place", "tw", "16384"},
                               {"out-of-place", "nvidia", "16384"},
                               {"out-of-place", "v1bf", "16384"}},
                      .columns = {"median_ms", "GBps", "status"}}}));
  all.push_back(gpu(kFigure, "enumeration_throughput", "GL Figs. 9-11",
                    "throughput of every 2D scheme against the matrix order",
                    "scripts/gpu_enumeration_figures.sh results/gpu-<device>", "",
                    {"enumeration_throughput.png", "enumeration_throughput.svg"}));
  all.push_back(gpu(kFigure, "enumeration_heatmap", "GL Figs. 12-13",
                    "out-of-place throughput by shape, NVIDIA's order beside V1BF",
                    "scripts/gpu_enumeration_figures.sh results/gpu-<device>", "",
                    {"enumeration_heatmap.png", "enumeration_heatmap.svg"}));
  all.push_back(gpu(kFigure, "enumeration_3d", "GL Figs. 14-15",
                    "the 3D involutions T_yxz and T_zyx against the order, original grid and V1B",
                    "scripts/gpu_enumeration_figures.sh results/gpu-<device>", "",
                    {"enumeration_3d.png", "enumeration_3d.svg"}));

  // mmsim's own measurements on the GPU: they reproduce no paper (docs/gpu.md, docs/prediction.md).
  all.push_back(gpu(kTable, "goals", "",
                    "the scale goals cell by cell: the scheduled permutation against a copy and the conventional "
                    "algorithms, BMMC bit-reversal against the copy",
                    "mmsim gpu-goals results/gpu-<device> > results/gpu-<device>/goals.md", "tables", {"goals.md"}));
  all.push_back(
      gpu(kTable, "calibration", "", "the calibration microbenchmarks' times and the GPU profile fitted on them alone",
          "mmsim gpu calibrate" + out, "calibrate",
          {"calibration-<device>.csv", "calibration-spread-<device>.csv", "profile-<device>.json", "full-l2/",
           "write-reach/", "calibration-2026-11-23/", "recalibration-2026-11-26/", "recalibration-2026-12-07/"},
          {{.csv = "calibration-<device>.csv",
            .keys = {"bench", "n", "element_bytes"},
            .rows = {{"copy", "4194304", "4"}, {"empty", "32", "4"}},
            .columns = {"median_ms", "correct"},
            .first_of_each = true}}));  // the H100's calibration lists each bench once a pass
  all.push_back(gpu(kTable, "heldout", "",
                    "permutations and sizes no table or microbenchmark uses, timed and predicted from each profile "
                    "(docs/prediction.md, \"Held out\")",
                    "experiments/heldout/run.sh build/cli/mmsim DIR results/gpu-<device>/profile-<device>.json", "",
                    {"heldout-<device>.csv"}));
  all.push_back(
      gpu(kTable, "heldout-by-model", "",
          "the held-out runs predicted again with every model of the committed profile and of the "
          "recalibrations (the H100's of 2026-12-07: the same command with their profiles, its rows appended), the "
          "measured times the held-out table's (docs/prediction.md, \"Every model on the same runs\")",
          "python3 experiments/heldout/compare.py predict-again build/cli/mmsim "
          "results/gpu-<device>/heldout-<device>.csv PERMS results/gpu-<device>/heldout-<device>-by-model.csv "
          "results/gpu-<device>/profile-<device>.json "
          "results/gpu-<device>/recalibration-2026-11-26/profile-<device>.json",
          "", {"heldout-<device>-by-model.csv"}));
  all.push_back(gpu(kTable, "validate", "",
                    "every measured table predicted from the profile, per cost model, and the errors per family (the "
                    "H200's A-S rows priced with the H100's instruction files, `--instructions-from results/gpu-h100`, "
                    "until the H200 has its own: docs/prediction.md)",
                    "mmsim validate --profile results/gpu-<device>/profile-<device>.json --measured "
                    "results/gpu-<device>" +
                        out,
                    "validate",
                    {"validate.md",
                     "validate.csv",
                     "validate-summary.md",
                     "validate-summary.csv",
                     "validate-counts.csv",
                     "validate-parm.md",
                     "validate-parm.csv",
                     "validate-parm-counts.csv",
                     "validate-parm-summary.md",
                     "validate-parm-summary.csv",
                     "validate-n67108864.md",
                     "validate-n67108864.csv",
                     "validate-n67108864-summary.md",
                     "validate-n67108864-summary.csv",
                     "validate-n268435456.md",
                     "validate-n268435456.csv",
                     "validate-n268435456-summary.md",
                     "validate-n268435456-summary.csv",
                     "counts-n67108864.csv",
                     "counts-n268435456.csv"},
                    {{.csv = "validate-summary.csv",
                      .keys = {"family", "cost model"},
                      .rows = {{"conventional", "rmw-rows"}, {"scheduled", "rmw-rows"}, {"in-place", "rmw-rows"}},
                      .columns = {"runs", "median abs error", "worst factor"}}}));
  all.push_back(gpu(kTable, "ncu-accesses", "",
                    "Nsight Compute's counts of the real-access catalogue (106 warp instructions of 1- to 16-byte "
                    "elements, vectors and atomics), and the simulator's slots beside them (docs/model.md, \"Real "
                    "accesses\")",
                    "bash cuda/ncu_accesses.sh build-gpu/bin/mmsim results/gpu-<device>; mmsim accesses --ncu "
                    "results/gpu-<device>/ncu-accesses.csv > results/gpu-<device>/accesses-ncu.md",
                    "accesses", {"ncu-accesses.csv", "accesses-ncu.md"}));
  all.push_back(
      gpu(kTable, "histograms", "",
          "256-bin histograms of 2^24 keys (uniform, zipf, hot, one-bin), global and privatized in shared "
          "memory, timed and checked, and the atomic adds' ns per warp instruction; the simulated "
          "histograms beside them",
          "mmsim gpu accesses" + out +
              "; mmsim accesses --histograms --gpu "
              "results/gpu-<device>/histograms-gpu.csv > results/gpu-<device>/histograms.md",
          "accesses", {"accesses-atomics.csv", "histograms-gpu.md", "histograms-gpu.csv", "histograms.md"},
          {{.csv = "histograms-gpu.csv",
            .keys = {"distribution", "kind"},
            .rows = {{"uniform", "global"}, {"hot", "global"}, {"uniform", "shared-atom"}, {"hot", "shared-atom"}},
            .columns = {"median_ms", "correct"}}}));
  all.push_back(gpu(kTable, "traced", "",
                    "the traced CUDA examples (examples/traced/): each kernel's untraced time beside the prediction "
                    "of its replayed trace, the tracing overhead, and each one's per-line table",
                    "scripts/traced_examples.sh build-gpu OUT results/gpu-<device>/profile-<device>.json", "",
                    {"traced/"}));
  all.push_back(gpu(kTable, "bench-schedule", "",
                    "time and memory of the scheduled permutation's schedule at n = 2^28 on the GPU machine's host",
                    "mmsim bench-schedule -n 268435456 --threads 16", "", {"bench-schedule-n268435456.txt"}));
  all.push_back(gpu(kTable, "device", "",
                    "the run's record: the GPU (`mmsim gpu info`), its driver and clocks before and after the stages "
                    "(nvidia-smi), and the output of the GPU tests (test_cuda_*)",
                    "mmsim gpu info > results/gpu-<device>/device.md", "tests",
                    {"device.md", "nvidia-smi.csv", "gpu-tests.txt", "gpu-tests-enumeration.txt",
                     "gpu-tests-sorting.txt", "gpu-tests-parm.txt"}));
  return all;
}

}  // namespace

const std::vector<ResultEntry>& results() {
  static const std::vector<ResultEntry> all = make_results();
  return all;
}

std::string paper_key(const ResultEntry& e) { return e.paper.substr(0, e.paper.find(' ')); }

std::string for_device(const std::string& name, const std::string& device) {
  static const std::string marker = "<device>";
  std::string out = name;
  for (std::size_t at = out.find(marker); at != std::string::npos; at = out.find(marker, at + device.size()))
    out.replace(at, marker.size(), device);
  return out;
}

}  // namespace mmsim::experiments
