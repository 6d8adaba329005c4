// `mmsim gpu accesses`: the real-access catalogue on the GPU (experiments/gpu/accesses_driver.h).
// By default it times the atomic adds and the histograms (accesses-atomics.csv,
// histograms-gpu.{md,csv}); with --profile it only makes the launches Nsight Compute counts
// (cuda/ncu_accesses.sh runs both and keeps ncu's CSV as ncu-accesses.csv).
#include "cli/gpu_common.h"
#include "experiments/gpu/accesses_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_accesses_command(CLI::App& gpu) {
  struct Opts {
    bool profile = false;
    gpu::accesses::HistogramOptions h;
    int runs = 20;
  };
  const GpuCommand<Opts> c(gpu, "accesses",
                           "single warp instructions of every width for Nsight Compute, atomics and histograms timed",
                           "folder for accesses-atomics.csv and histograms-gpu.{md,csv}");
  Opts& opts = c.opts();
  c.app()->add_flag("--profile", opts.profile, "only launch every case of the catalogue once, for Nsight Compute");
  c.option("--keys", opts.h.keys, "keys of each histogram")->check(CLI::Range(1024ull, 1ull << 28));
  c.option("--seed", opts.h.seed, "seed of the histograms' keys");
  c.option("--runs", opts.runs, "timed runs of each, 5 to 1000")->check(CLI::Range(5, 1000));
  return c.runs([](const Opts& o, OutFolder& out) {
    namespace ga = gpu::accesses;
    if (o.profile) {
      std::fprintf(stderr, "mmsim gpu accesses: %zu launches for Nsight Compute\n", ga::profile_launches());
      return kOk;
    }
    const std::filesystem::path dir = out.make();
    const gpu::TimingPlan plan{.warmups = gpu::kWarmups, .runs = o.runs};
    const report::Table atomics = ga::atomic_times(plan);
    write_file(dir / "accesses-atomics.csv", report::to_csv(atomics));
    bool correct = false;
    const report::Table hist = ga::histogram_times(o.h, plan, correct);
    write_file(dir / "histograms-gpu.md", report::to_markdown(hist));
    write_file(dir / "histograms-gpu.csv", report::to_csv(hist));
    std::fprintf(stderr, "mmsim gpu accesses: %s; wrote %s/accesses-atomics and histograms-gpu\n",
                 correct ? "every histogram checked right" : "SOME HISTOGRAMS WRONG", out.str().c_str());
    return correct ? kOk : kCheckFailed;
  });
}

}  // namespace mmsim::cli
