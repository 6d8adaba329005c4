// `mmsim gpu parm`: BDS Sect. 7's parm sorting network on the GPU (experiments/gpu/parm_driver.h); writes
// parm-gpu.md and parm-gpu.csv to --out.
#include "cli/gpu_common.h"
#include "experiments/gpu/parm_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_parm_command(CLI::App& gpu) {
  auto* cmd = gpu.add_subcommand(
      "parm",
      "BDS's parm sorting network, direct and through each BMMC kernel, every cell checked (parm-gpu.md, .csv)");
  struct Opts {
    OutFolder out;
    gpu::bmmc::ParmOptions p;
  };
  auto o = std::make_shared<Opts>();
  o->out.add_to(cmd, "folder for parm-gpu.md and parm-gpu.csv");
  add_log2_n_range(cmd, o->p.min_bits, o->p.max_bits);
  cmd->add_option("--sim-max-bits", o->p.sim_max_bits, "largest log2 n also simulated, 0 to 20")->capture_default_str();
  cmd->add_option("--seed", o->p.seed, "seed of the keys")->capture_default_str();
  cmd->add_option("--runs", o->p.runs, "timed runs per variant, 1 to 10000")->capture_default_str();
  cmd->add_option("--warmup", o->p.warmup, "untimed runs before them, 0 to 1000")->capture_default_str();
  cmd->add_option("--threads", o->p.threads, "host threads for the check, 1 to 1024")->capture_default_str();
  cmd->add_flag("--ncu-launches", o->p.ncu_launches,
                "for Nsight Compute: each variant run once per size, untimed and checked; no table written");
  return {
      cmd, [o] {
        if (auto err = o->p.validate()) throw InputError(*err);
        const std::filesystem::path dir = o->out.make();
        const gpu::bmmc::ParmRun run = gpu::bmmc::run_parm(o->p);
        if (!o->p.ncu_launches) {
          const gpu::bmmc::ParmTables t = gpu::bmmc::parm_tables(o->p, run);
          write_file(dir / "parm-gpu.md", report::to_markdown(t.md));
          write_file(dir / "parm-gpu.csv", report::to_csv(t.csv));
        }
        std::fprintf(
            stderr, "mmsim gpu parm: %zu runs in %.1f s, %s%s\n", run.rows.size(), run.seconds,
            run.failed ? "SOME OUTPUTS WRONG or launches unlike the simulator's" : "every output cell checked right",
            o->p.ncu_launches ? "" : ("; wrote " + o->out.str() + "/parm-gpu.md and parm-gpu.csv").c_str());
        for (const auto& n : run.notes) std::fprintf(stderr, "  %s\n", n.c_str());
        return run.failed ? kCheckFailed : kOk;
      }};
}

}  // namespace mmsim::cli
