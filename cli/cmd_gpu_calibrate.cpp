// `mmsim gpu calibrate`: the calibration microbenchmarks of predict/microbench.h on the GPU
// (experiments/gpu/calibrate_driver.h), written to --out as calibration-<device>.csv; from them the GPU profile
// (profile-<device>.json) that `mmsim predict` reads.
#include "cli/gpu_common.h"
#include "experiments/gpu/calibrate_driver.h"
#include "predict/gpu_profile.h"
#include "report/table.h"

namespace mmsim::cli {

namespace {

// One row per microbenchmark, tidy: the device's slug in every row, so that tables of several GPUs
// concatenate.
report::Table calibration_table(const std::string& slug, const std::vector<predict::MicrobenchTiming>& timings) {
  report::Table t;
  t.columns = {"device",        "bench",     "kind",   "n",      "stride", "repeats",
               "element_bytes", "median_ms", "min_ms", "max_ms", "correct"};
  for (const auto& x : timings) {
    const predict::Microbench& m = x.bench;
    t.add_row({slug, m.name(), std::string(predict::to_string(m.kind)), static_cast<long long>(m.n),
               static_cast<long long>(m.stride), static_cast<long long>(m.repeats),
               static_cast<long long>(m.element_bytes), x.median_ms, x.min_ms, x.max_ms,
               std::string(x.correct ? "yes" : "NO")});
  }
  return t;
}

}  // namespace

GpuSubcommand add_gpu_calibrate_command(CLI::App& gpu) {
  const GpuCommand<NoOptions> c(gpu, "calibrate",
                                "the cost model's microbenchmarks (copy, strides, random, shared congestion, an empty "
                                "launch), every cell checked (calibration-<device>.csv)",
                                "folder for calibration-<device>.csv");
  return c.runs([](const NoOptions&, OutFolder& out) {
    const std::filesystem::path dir = out.make();
    const predict::GpuFacts facts = gpu::calibrate::gpu_facts();
    const std::string slug = predict::device_slug(facts.name);
    const std::vector<predict::MicrobenchTiming> timings = gpu::calibrate::run_calibration(predict::calibration_set());
    const std::filesystem::path csv = dir / ("calibration-" + slug + ".csv");
    write_file(csv, report::to_csv(calibration_table(slug, timings)));
    bool all_correct = true;
    for (const auto& x : timings) all_correct = all_correct && x.correct;
    // A profile is fitted only on outputs checked right.
    if (all_correct)
      std::fprintf(stderr, "mmsim gpu calibrate: wrote %s\n",
                   predict::write_profile_from_calibration(dir, slug, facts, timings).string().c_str());
    std::fprintf(stderr, "mmsim gpu calibrate: %zu microbenchmarks on %s, %s; wrote %s\n", timings.size(),
                 facts.name.c_str(), all_correct ? "every output cell checked right" : "SOME OUTPUTS WRONG",
                 csv.string().c_str());
    return all_correct ? kOk : kCheckFailed;
  });
}

}  // namespace mmsim::cli
