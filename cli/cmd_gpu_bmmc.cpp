// `mmsim gpu bmmc`: the BPC / BMMC benchmark of BDS Sect. 6 (experiments/gpu/bmmc_driver.h); writes
// bmmc.md, bmmc.csv and bmmc-matrices.txt to --out.
#include "cli/gpu_common.h"
#include "experiments/gpu/bmmc_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_bmmc_command(CLI::App& gpu) {
  const GpuCommand<gpu::bmmc::BmmcOptions> c(
      gpu, "bmmc", "BDS's BPC and BMMC kernels against a copy, every cell checked (bmmc.md, .csv, -matrices.txt)",
      "folder for bmmc.md, bmmc.csv and bmmc-matrices.txt");
  auto& opt = c.opts();
  c.log2_n_range(opt.min_bits, opt.max_bits);
  c.options({{"--seed", opt.seed, "seed of the random BPC and BMMC matrices"},
             {"--runs", opt.runs, "timed runs per kernel, 20 to 10000 (at least 100 up to 2^24)"},
             {"--warmup", opt.warmup, "untimed runs before them, 0 to 1000"},
             {"--budget-s", opt.budget_s, "seconds: no size is started that would end past them"},
             {"--threads", opt.threads, "host threads for the check, 1 to 1024"}});
  return c.runs([](const gpu::bmmc::BmmcOptions& b, OutFolder& out) {
    const std::filesystem::path dir = out.make();
    const gpu::bmmc::BmmcRun run = gpu::bmmc::run_bmmc(b);
    const gpu::bmmc::BmmcTables t = gpu::bmmc::bmmc_tables(b, run);
    write_file(dir / "bmmc.md",
               report::to_markdown(t.pct) + "\n" + report::to_markdown(t.ms) + "\n" + report::to_markdown(t.speed));
    write_file(dir / "bmmc.csv", report::to_csv(t.csv));
    write_file(dir / "bmmc-matrices.txt", run.matrices);
    std::fprintf(stderr, "mmsim gpu bmmc: %zu runs in %.1f s, %s; wrote %s/bmmc.md and bmmc.csv\n", run.rows.size(),
                 run.seconds, run.failed ? "SOME OUTPUTS WRONG" : "every output cell checked right", out.str().c_str());
    return run.failed ? kCheckFailed : kOk;
  });
}

}  // namespace mmsim::cli
