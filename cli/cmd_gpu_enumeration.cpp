// `mmsim gpu enumeration`: GL's transpositions on the GPU (experiments/gpu/enumeration_driver.h);
// writes enumeration.{csv,md}, enumeration_3d.csv, enumeration_heatmap.csv and
// enumeration_heatmap_{nvidia,v1bf}.csv to --out.
#include "cli/gpu_common.h"
#include "experiments/gpu/enumeration_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_enumeration_command(CLI::App& gpu) {
  const GpuCommand<gpu::enumeration::EnumerationOptions> c(
      gpu, "enumeration",
      "GL's transpositions (TW and the 3D involutions among them) by order and as a heat map, "
      "every cell checked (enumeration*.csv, .md)",
      "folder for the tables");
  auto& opt = c.opts();
  c.options(
      {{"--budget-s", opt.budget_s, "seconds for the three sweeps, 1 to 86400 (1/2 orders, 1/5 3D, the rest heat map)"},
       {"--runs", opt.runs, "timed runs per order and algorithm, 1 to 1000"},
       {"--heat-runs", opt.heat_runs, "timed runs per heat-map shape, 1 to 1000"},
       {"--warmup", opt.warmup, "untimed runs before the timed ones of an order, 0 to 100"},
       {"--band", opt.band, "V1B and V1BF bands, in tiles"},
       {"--region", opt.region, "super-grid regions, in tiles per side, 1 to 1024"},
       {"--max-order", opt.max_order, "largest square order (0: the grid's last, 4194304)"},
       {"--heat-step", opt.heat_step, "heat map: step of rows and cols"},
       {"--heat-max", opt.heat_max, "heat map: largest rows and cols, at most 64 steps"}});
  return c.runs([](const gpu::enumeration::EnumerationOptions& e, OutFolder& out) {
    const std::filesystem::path dir = out.make();
    namespace en = gpu::enumeration;
    const en::EnumerationRun run = en::run_enumeration(e);
    const en::EnumerationTables t = en::enumeration_tables(e, run);
    write_file(dir / "enumeration.csv", report::to_csv(t.square));
    write_file(dir / "enumeration_3d.csv", report::to_csv(t.involution));
    write_file(dir / "enumeration_heatmap.csv", report::to_csv(t.heat));
    write_file(dir / "enumeration_heatmap_nvidia.csv", report::to_csv(t.heat_nvidia));
    write_file(dir / "enumeration_heatmap_v1bf.csv", report::to_csv(t.heat_v1bf));
    write_file(dir / "enumeration.md", en::enumeration_markdown(t));
    const unsigned long long bad = run.mismatched_cells();
    std::fprintf(stderr,
                 "enumeration: %zu square, %zu 3D and %zu heat-map measurements in %.1f s, %llu mismatched "
                 "cells\n",
                 run.square.size(), run.involution.size(), run.heat.size(), run.seconds, bad);
    return bad ? kCheckFailed : kOk;
  });
}

}  // namespace mmsim::cli
