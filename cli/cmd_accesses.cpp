// `mmsim accesses`: the real-access catalogue (experiments/accesses.h) as the simulator serves it,
// with `--ncu FILE` beside Nsight Compute's counts of the same instructions (exit 1 when a row
// differs), and with `--histograms` the histogram kernels simulated, `--gpu FILE` beside the GPU's
// times (results/gpu-*/histograms-gpu.csv).
#include <cstdio>

#include "cli/common.h"
#include "experiments/accesses.h"

namespace mmsim::cli {

Runner add_accesses_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "accesses", "the real-access catalogue (1- to 16-byte elements, vectors, atomics) beside the GPU's counts");
  struct Opts {
    std::string ncu, gpu, format = "md";
    bool histograms = false;
    std::uint64_t keys = 1u << 20, seed = 1;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--ncu", o->ncu, "Nsight Compute's CSV of `mmsim gpu accesses --profile` (cuda/ncu_accesses.sh)");
  auto* hist = cmd->add_flag("--histograms", o->histograms,
                             "instead: the histograms of 256 bins, global and privatized, each key distribution");
  cmd->add_option("--gpu", o->gpu, "with --histograms: the GPU's histograms-gpu.csv, beside the simulation")
      ->needs(hist);
  cmd->add_option("--keys", o->keys, "with --histograms: keys of each histogram, 1024 to 2^24")
      ->check(CLI::Range(std::uint64_t{1024}, std::uint64_t{1} << 24))
      ->needs(hist)
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "with --histograms: seed of the keys")->needs(hist)->capture_default_str();
  cmd->add_option("--format", o->format, "md, csv or json")
      ->check(CLI::IsMember({"md", "csv", "json"}))
      ->capture_default_str();
  hist->excludes(cmd->get_option("--ncu"));
  return [o] {
    const report::Format f = parse_format_option(o->format);
    if (o->histograms) {
      const report::Table t = experiments::histograms_table(o->keys, o->seed, o->gpu);
      std::fputs(report::render(t, f).c_str(), stdout);
      return report::failed_rows(t) ? kCheckFailed : kOk;
    }
    const report::Table t = experiments::accesses_table(o->ncu);
    std::fputs(report::render(t, f).c_str(), stdout);
    if (o->ncu.empty()) return kOk;
    std::size_t differ = 0, not_run = 0;
    for (const auto& row : t.rows) {
      const auto& equal = std::get<std::string>(row.back());
      not_run += equal == experiments::kNotRun;
      differ += equal != "yes" && equal != experiments::kNotRun;
    }
    if (differ)
      std::fprintf(stderr, "mmsim accesses: %zu of %zu rows differ from Nsight Compute's\n", differ, t.rows.size());
    if (not_run)
      std::fprintf(stderr, "mmsim accesses: %zu rows not run: the CSV was made before those cases\n", not_run);
    return differ ? kCheckFailed : kOk;
  };
}

}  // namespace mmsim::cli
