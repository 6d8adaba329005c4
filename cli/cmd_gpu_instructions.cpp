// `mmsim gpu instructions`: the instruction microbenchmarks (experiments/gpu/instructions_driver.h);
// writes instructions.md and .csv, the copy benches' instructions-copy.md and .csv, the tile
// benches' instructions-tiles.md and .csv, and the stream benches' instructions-stream.md and .csv,
// to --out.
// With --ncu-launches it only makes the one-block launches Nsight Compute profiles; with --ncu-csv
// FILE it only reads ncu's output of those and writes instructions-ncu.csv and
// instructions-stream-ncu.csv (cuda/ncu_instructions.sh runs both).
#include "cli/gpu_common.h"
#include "experiments/gpu/instructions_driver.h"

namespace mmsim::cli {

GpuSubcommand add_gpu_instructions_command(CLI::App& gpu) {
  struct Opts {
    std::string ncu_csv;
    bool ncu_launches = false;
    int runs = 20, warmup = gpu::kWarmups;
    std::optional<std::string> validate() const {
      if (runs < 1 || runs > 10000) return "--runs: 1 to 10000";
      if (warmup < 0 || warmup > 1000) return "--warmup: 0 to 1000";
      return std::nullopt;
    }
  };
  const GpuCommand<Opts> c(
      gpu, "instructions",
      "microbenchmarks of a warp's work besides memory (ALU chains, shared-memory chases, "
      "branches), alone and 32 warps per SM, copies through shared memory at a few warps per SM, and tiles "
      "through a barrier at 1 to 8 blocks per SM, and a polynomial an element over large arrays (held out), every "
      "output checked (instructions.md, .csv; instructions-copy.md, .csv; instructions-tiles.md, .csv; "
      "instructions-stream.md, .csv)",
      "folder for instructions.md and .csv (instructions-ncu.csv with --ncu-csv)");
  Opts& opts = c.opts();
  c.options({{"--runs", opts.runs, "timed launches per bench, 1 to 10000"},
             {"--warmup", opts.warmup, "untimed launches before them, 0 to 1000"}});
  auto* launches = c.app()->add_flag("--ncu-launches", opts.ncu_launches,
                                     "only one launch of one block per bench for Nsight Compute, each checked");
  c.app()
      ->add_option("--ncu-csv", opts.ncu_csv,
                   "only read Nsight Compute's --csv output of --ncu-launches: instructions-ncu.csv")
      ->excludes(launches);
  return c.runs([](const Opts& o, OutFolder& out) {
    namespace gi = gpu::instructions;
    if (o.ncu_launches) return gi::run_profiled_launches() ? kCheckFailed : kOk;
    const std::filesystem::path dir = out.make();
    if (!o.ncu_csv.empty()) {
      const gi::NcuTables t = gi::instructions_ncu_tables(o.ncu_csv);
      write_file(dir / "instructions-ncu.csv", report::to_csv(t.benches));
      if (!t.streams.rows.empty()) write_file(dir / "instructions-stream-ncu.csv", report::to_csv(t.streams));
      std::fprintf(stderr, "mmsim gpu instructions: wrote %s/instructions-ncu.csv%s\n", out.str().c_str(),
                   t.streams.rows.empty() ? "" : " and instructions-stream-ncu.csv");
      return kOk;
    }
    const gi::InstructionsRun run = gi::run_instructions({o.warmup, o.runs});
    write_file(dir / "instructions.md", report::to_markdown(run.table));
    write_file(dir / "instructions.csv", report::to_csv(run.table));
    write_file(dir / "instructions-copy.md", report::to_markdown(run.copies));
    write_file(dir / "instructions-copy.csv", report::to_csv(run.copies));
    write_file(dir / "instructions-tiles.md", report::to_markdown(run.tiles));
    write_file(dir / "instructions-tiles.csv", report::to_csv(run.tiles));
    write_file(dir / "instructions-stream.md", report::to_markdown(run.streams));
    write_file(dir / "instructions-stream.csv", report::to_csv(run.streams));
    std::fprintf(stderr,
                 "mmsim gpu instructions: %s; wrote %s/instructions.{md,csv}, instructions-copy.{md,csv}, "
                 "instructions-tiles.{md,csv} and instructions-stream.{md,csv}\n",
                 run.failed ? "SOME OUTPUTS WRONG" : "every output checked right", out.str().c_str());
    return run.failed ? kCheckFailed : kOk;
  });
}

}  // namespace mmsim::cli
