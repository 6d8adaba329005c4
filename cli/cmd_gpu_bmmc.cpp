// `mmsim gpu bmmc`: the BPC / BMMC benchmark of BDS Sect. 6 (experiments/gpu/bmmc_driver.h); writes
// bmmc.md, bmmc.csv and bmmc-matrices.txt to --out.
#include "cli/gpu_common.h"
#include "experiments/gpu/bmmc_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_bmmc_command(CLI::App& gpu) {
  auto* cmd = gpu.add_subcommand(
      "bmmc", "BDS's BPC and BMMC kernels against a copy, every cell checked (bmmc.md, .csv, -matrices.txt)");
  struct Opts {
    OutFolder out;
    gpu::bmmc::BmmcOptions b;
  };
  auto o = std::make_shared<Opts>();
  o->out.add_to(cmd, "folder for bmmc.md, bmmc.csv and bmmc-matrices.txt");
  add_log2_n_range(cmd, o->b.min_bits, o->b.max_bits);
  cmd->add_option("--seed", o->b.seed, "seed of the random BPC and BMMC matrices")->capture_default_str();
  cmd->add_option("--runs", o->b.runs, "timed runs per kernel, 20 to 10000 (at least 100 up to 2^24)")
      ->capture_default_str();
  cmd->add_option("--warmup", o->b.warmup, "untimed runs before them, 0 to 1000")->capture_default_str();
  cmd->add_option("--budget-s", o->b.budget_s, "seconds: no size is started that would end past them")
      ->capture_default_str();
  cmd->add_option("--threads", o->b.threads, "host threads for the check, 1 to 1024")->capture_default_str();
  return {cmd, [o] {
            if (auto err = o->b.validate()) throw InputError(*err);
            const std::filesystem::path dir = o->out.make();
            const gpu::bmmc::BmmcRun run = gpu::bmmc::run_bmmc(o->b);
            const gpu::bmmc::BmmcTables t = gpu::bmmc::bmmc_tables(o->b, run);
            write_file(dir / "bmmc.md", report::to_markdown(t.pct) + "\n" + report::to_markdown(t.ms) + "\n" +
                                            report::to_markdown(t.speed));
            write_file(dir / "bmmc.csv", report::to_csv(t.csv));
            write_file(dir / "bmmc-matrices.txt", run.matrices);
            std::fprintf(stderr, "mmsim gpu bmmc: %zu runs in %.1f s, %s; wrote %s/bmmc.md and bmmc.csv\n",
                         run.rows.size(), run.seconds,
                         run.failed ? "SOME OUTPUTS WRONG" : "every output cell checked right", o->out.str().c_str());
            return run.failed ? kCheckFailed : kOk;
          }};
}

}  // namespace mmsim::cli
