// `mmsim gpu enumeration`: GL's transpositions on the GPU (experiments/gpu/enumeration_driver.h);
// writes enumeration.{csv,md}, enumeration_3d.csv, enumeration_heatmap.csv and
// enumeration_heatmap_{nvidia,v1bf}.csv to --out.
#include "cli/gpu_common.h"
#include "experiments/gpu/enumeration_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_enumeration_command(CLI::App& gpu) {
  auto* cmd = gpu.add_subcommand(
      "enumeration",
      "GL's transpositions (TW and the 3D involutions among them) by order and as a heat map, every cell checked "
      "(enumeration*.csv, .md)");
  struct Opts {
    OutFolder out;
    gpu::enumeration::EnumerationOptions e;
  };
  auto o = std::make_shared<Opts>();
  auto& e = o->e;
  o->out.add_to(cmd, "folder for the tables");
  cmd->add_option("--budget-s", e.budget_s,
                  "seconds for the three sweeps, 1 to 86400 (1/2 orders, 1/5 3D, the rest heat map)")
      ->capture_default_str();
  cmd->add_option("--runs", e.runs, "timed runs per order and algorithm, 1 to 1000")->capture_default_str();
  cmd->add_option("--heat-runs", e.heat_runs, "timed runs per heat-map shape, 1 to 1000")->capture_default_str();
  cmd->add_option("--warmup", e.warmup, "untimed runs before the timed ones of an order, 0 to 100")
      ->capture_default_str();
  cmd->add_option("--band", e.band, "V1B and V1BF bands, in tiles")->capture_default_str();
  cmd->add_option("--region", e.region, "super-grid regions, in tiles per side, 1 to 1024")->capture_default_str();
  cmd->add_option("--max-order", e.max_order, "largest square order (0: the grid's last, 4194304)")
      ->capture_default_str();
  cmd->add_option("--heat-step", e.heat_step, "heat map: step of rows and cols")->capture_default_str();
  cmd->add_option("--heat-max", e.heat_max, "heat map: largest rows and cols, at most 64 steps")->capture_default_str();
  return {cmd, [o] {
            if (auto err = o->e.validate()) throw InputError(*err);
            const std::filesystem::path dir = o->out.make();
            namespace en = gpu::enumeration;
            const en::EnumerationRun run = en::run_enumeration(o->e);
            const en::EnumerationTables t = en::enumeration_tables(o->e, run);
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
          }};
}

}  // namespace mmsim::cli
