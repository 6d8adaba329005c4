// `mmsim gpu sorting`: the Afshani-Sitchinava kernels beside the simulator (experiments/gpu/sorting_driver.h);
// writes as-gpu.md and as-gpu.csv to --out. With --ncu-launches it only makes the single-instance
// launches Nsight Compute profiles; with --ncu-csv FILE it only reads ncu's output of those and
// writes as-ncu.md and as-ncu.csv (cuda/ncu_sorting.sh runs both).
#include "cli/gpu_common.h"
#include "experiments/gpu/sorting_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_sorting_command(CLI::App& gpu) {
  struct Opts {
    std::string ncu_csv;
    bool ncu_launches = false;
    gpu::sorting::SortingOptions s;
    std::optional<std::string> validate() const { return s.validate(); }
  };
  const GpuCommand<Opts> c(gpu, "sorting",
                           "AS's kernels (one warp per w x m matrix in shared memory) beside the simulator's steps, "
                           "every cell checked (as-gpu.md, .csv)",
                           "folder for as-gpu.md and as-gpu.csv (as-ncu.md and .csv with --ncu-csv)");
  Opts& opts = c.opts();
  auto& s = opts.s;
  c.options({{"--min-m", s.min_m, "smallest m, a power of two"},
             {"--max-m", s.max_m, "largest m, a power of two (shapes that do not fit are skipped)"},
             {"--seed", s.seed, "instance b's input comes from seed + b"},
             {"--runs", s.runs, "timed launches per shape, 1 to 10000"},
             {"--warmup", s.warmup, "untimed launches before them, 0 to 1000"},
             {"--max-instances", s.max_instances, "at most this many instances per launch (0: one full wave)"}});
  auto* launches = c.app()->add_flag("--ncu-launches", opts.ncu_launches,
                                     "only the single-instance launches for Nsight Compute, each checked");
  c.app()
      ->add_option("--ncu-csv", opts.ncu_csv,
                   "only read Nsight Compute's --csv output of --ncu-launches: as-ncu.md and .csv")
      ->excludes(launches);
  return c.runs([](const Opts& o, OutFolder& out) {
    namespace gs = gpu::sorting;
    if (o.ncu_launches) {
      const int wrong = gs::run_profiled_launches(o.s);
      return wrong ? kCheckFailed : kOk;
    }
    const std::filesystem::path dir = out.make();
    if (!o.ncu_csv.empty()) {
      const report::Table t = gs::sorting_ncu_table(o.s, o.ncu_csv);
      write_file(dir / "as-ncu.md", report::to_markdown(t));
      write_file(dir / "as-ncu.csv", report::to_csv(t));
      const auto bad = report::failed_rows(t);
      std::fprintf(stderr, "mmsim gpu sorting: wrote %s/as-ncu.md and as-ncu.csv%s\n", out.str().c_str(),
                   bad ? " (some counts differ from the simulator's)" : "");
      return kOk;
    }
    const gs::SortingRun run = gs::run_sorting(o.s);
    const report::Table t = gs::sorting_table(o.s, run);
    write_file(dir / "as-gpu.md", report::to_markdown(t));
    write_file(dir / "as-gpu.csv", report::to_csv(t));
    std::fprintf(stderr, "mmsim gpu sorting: %zu shapes in %.1f s, %s; wrote %s/as-gpu.md and as-gpu.csv\n",
                 run.rows.size(), run.seconds, run.failed ? "SOME OUTPUTS WRONG" : "every output cell checked right",
                 out.str().c_str());
    return run.failed ? kCheckFailed : kOk;
  });
}

}  // namespace mmsim::cli
