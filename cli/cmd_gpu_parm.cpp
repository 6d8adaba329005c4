// `mmsim gpu parm`: BDS Sect. 7's parm sorting network on the GPU (experiments/gpu/parm_driver.h); writes
// parm-gpu.md and parm-gpu.csv to --out.
#include "cli/gpu_common.h"
#include "experiments/gpu/parm_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_parm_command(CLI::App& gpu) {
  const GpuCommand<gpu::bmmc::ParmOptions> c(
      gpu, "parm",
      "BDS's parm sorting network, direct and through each BMMC kernel, every cell checked (parm-gpu.md, .csv)",
      "folder for parm-gpu.md and parm-gpu.csv");
  auto& opt = c.opts();
  c.log2_n_range(opt.min_bits, opt.max_bits);
  c.options({{"--sim-max-bits", opt.sim_max_bits, "largest log2 n also simulated, 0 to 20"},
             {"--seed", opt.seed, "seed of the keys"},
             {"--runs", opt.runs, "timed runs per variant, 1 to 10000"},
             {"--warmup", opt.warmup, "untimed runs before them, 0 to 1000"},
             {"--threads", opt.threads, "host threads for the check, 1 to 1024"}});
  c.app()->add_flag("--ncu-launches", opt.ncu_launches,
                    "for Nsight Compute: each variant run once per size, untimed and checked; no table written");
  return c.runs([](const gpu::bmmc::ParmOptions& p, OutFolder& out) {
    const std::filesystem::path dir = out.make();
    const gpu::bmmc::ParmRun run = gpu::bmmc::run_parm(p);
    if (!p.ncu_launches) {
      const gpu::bmmc::ParmTables t = gpu::bmmc::parm_tables(p, run);
      write_file(dir / "parm-gpu.md", report::to_markdown(t.md));
      write_file(dir / "parm-gpu.csv", report::to_csv(t.csv));
    }
    std::fprintf(
        stderr, "mmsim gpu parm: %zu runs in %.1f s, %s%s\n", run.rows.size(), run.seconds,
        run.failed ? "SOME OUTPUTS WRONG or launches unlike the simulator's" : "every output cell checked right",
        p.ncu_launches ? "" : ("; wrote " + out.str() + "/parm-gpu.md and parm-gpu.csv").c_str());
    for (const auto& n : run.notes) std::fprintf(stderr, "  %s\n", n.c_str());
    return run.failed ? kCheckFailed : kOk;
  });
}

}  // namespace mmsim::cli
