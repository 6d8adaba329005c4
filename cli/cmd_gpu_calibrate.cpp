// `mmsim gpu calibrate`: the calibration microbenchmarks of predict/microbench.h on the GPU
// (experiments/gpu/calibrate_driver.h), timed in --passes passes and written to --out as
// calibration-<device>.csv; from them the GPU profile (profile-<device>.json) that `mmsim predict`
// reads, and the spread of its constants over the passes (calibration-spread-<device>.csv).
// With --check PROFILE it times the profile's own microbenchmarks again and says how far this GPU
// is from the profile (predict/calibration_check.h), writing nothing but check-<device>*.csv.
#include "cli/gpu_common.h"
#include "cli/profile_option.h"
#include "experiments/gpu/calibrate_driver.h"
#include "predict/calibration_check.h"
#include "predict/gpu_profile.h"
#include "report/table.h"

namespace mmsim::cli {

namespace {

// One row per microbenchmark and pass, tidy: the device's slug in every row, so that tables of
// several GPUs concatenate.
report::Table calibration_table(const std::string& slug,
                                const std::vector<std::vector<predict::MicrobenchTiming>>& passes) {
  report::Table t;
  t.parameters = {{"device", slug}, {"passes", static_cast<long long>(passes.size())}};
  t.columns = {"pass",          "bench", "kind",      "n",      "stride", "repeats",
               "element_bytes", "cold",  "median_ms", "min_ms", "max_ms", "correct"};
  for (std::size_t p = 0; p < passes.size(); ++p)
    for (const auto& x : passes[p]) {
      const predict::Microbench& m = x.bench;
      t.add_row({static_cast<long long>(p + 1), m.name(), std::string(predict::to_string(m.kind)),
                 static_cast<long long>(m.n), static_cast<long long>(m.stride), static_cast<long long>(m.repeats),
                 static_cast<long long>(m.element_bytes), std::string(m.cold ? "yes" : "no"), x.median_ms, x.min_ms,
                 x.max_ms, std::string(x.correct ? "yes" : "NO")});
    }
  return t;
}

// Every constant of the profile beside its median, least and greatest value over the passes.
report::Table spread_table(const predict::GpuProfile& profile) {
  report::Table t;
  t.title = "The constants of each pass fitted alone";
  t.parameters = {{"device", profile.device}, {"passes", static_cast<long long>(profile.passes.size())}};
  t.columns = {"model", "constant", "profile_ms", "median_ms", "min_ms", "max_ms", "max_vs_min"};
  for (const predict::ConstantSpread& c : predict::constant_spread(profile))
    t.add_row({c.model, c.constant, c.profile_ms, c.median_ms, c.min_ms, c.max_ms,
               c.min_ms > 0 ? report::Cell{c.max_ms / c.min_ms} : report::Cell{"-"}});
  std::string capacities, chosen;
  for (const predict::CalibrationPass& p : profile.passes) {
    capacities += (capacities.empty() ? "" : ", ") + std::to_string(p.cache_bytes);
    chosen += (chosen.empty() ? "" : ", ") + p.chosen;
  }
  t.notes = {"L2 capacity fitted by each pass (bytes): " + capacities +
                 "; the profile's: " + std::to_string(profile.memory.cache_bytes),
             "model chosen by each pass: " + chosen + "; the profile's: " + profile.default_model()};
  return t;
}

struct CalibrateOptions {
  int passes = 3;
  std::string check, counts;
  std::optional<std::string> validate() const {
    if (passes < 1 || passes > 20) return "--passes: between 1 and 20 (got " + std::to_string(passes) + ")";
    if (!counts.empty() && check.empty()) return std::string("--counts: only with --check");
    return std::nullopt;
  }
};

bool all_correct(const std::vector<std::vector<predict::MicrobenchTiming>>& passes) {
  for (const auto& pass : passes)
    for (const auto& x : pass)
      if (!x.correct) return false;
  return true;
}

int check(const CalibrateOptions& o, OutFolder& out) {
  // Every input read before the GPU runs a minute.
  const predict::GpuProfile profile = read_profile_option(o.check, "--check");
  std::optional<predict::CountsFile> counts;
  if (!o.counts.empty()) counts = read_counts_option(o.counts);
  if (profile.timing_counts.size() != profile.timings.size() || profile.timings.empty())
    throw InputError("--check: " + quote(o.check) + " records no simulated counts of its microbenchmarks");
  std::vector<predict::Microbench> benches;
  for (const auto& t : profile.timings) benches.push_back(t.bench);
  const std::filesystem::path dir = out.make();
  const predict::GpuFacts facts = gpu::calibrate::gpu_facts();
  const std::string slug = predict::device_slug(facts.name);
  const auto passes = gpu::calibrate::run_calibration(benches, o.passes);
  if (!all_correct(passes)) {
    std::fprintf(stderr, "mmsim gpu calibrate: SOME OUTPUTS WRONG\n");
    return kCheckFailed;
  }
  const predict::CalibrationCheck c =
      predict::check_calibration(profile, predict::pool_passes(passes), counts ? &*counts : nullptr);
  write_file(dir / ("check-" + slug + ".csv"), report::to_csv(predict::check_bench_table(c, slug)));
  write_file(dir / ("check-" + slug + "-constants.csv"), report::to_csv(predict::check_constant_table(c, slug)));
  std::cout << report::to_markdown(predict::check_summary_table(c, profile)) << "\n"
            << report::to_markdown(predict::check_constant_table(c, slug));
  return kOk;
}

}  // namespace

GpuSubcommand add_gpu_calibrate_command(CLI::App& gpu) {
  const GpuCommand<CalibrateOptions> c(
      gpu, "calibrate",
      "the cost model's microbenchmarks (copy, strides, transposes, random, cold, shared "
      "congestion, empty launches alone and back to back), every cell checked: calibration-<device>.csv, "
      "the profile and its spread over the passes; --check PROFILE: how far this "
      "GPU is from a profile",
      "folder for calibration-<device>.csv (with --check: check-<device>*.csv)");
  c.option("--passes", c.opts().passes, "passes over the whole set (each fitted alone for the spread), 1 to 20");
  c.option("--check", c.opts().check,
           "profile to check: time its microbenchmarks again and compare, writing no profile");
  c.option("--counts", c.opts().counts,
           "with --check: a counts file (mmsim validate --counts) whose runs' predictions are compared");
  return c.runs([](const CalibrateOptions& o, OutFolder& out) {
    if (!o.check.empty()) return check(o, out);
    const std::filesystem::path dir = out.make();
    const predict::GpuFacts facts = gpu::calibrate::gpu_facts();
    const std::string slug = predict::device_slug(facts.name);
    const auto passes = gpu::calibrate::run_calibration(predict::calibration_set(), o.passes);
    const std::filesystem::path csv = dir / ("calibration-" + slug + ".csv");
    write_file(csv, report::to_csv(calibration_table(slug, passes)));
    const bool correct = all_correct(passes);
    // A profile is fitted only on outputs checked right.
    if (correct) {
      const auto file = predict::write_profile_from_calibration(dir, slug, facts, predict::pool_passes(passes), 0,
                                                                o.passes > 1 ? passes : decltype(passes){});
      std::fprintf(stderr, "mmsim gpu calibrate: wrote %s\n", file.string().c_str());
      if (o.passes > 1) {
        const report::Table spread = spread_table(predict::read_profile(file));
        write_file(dir / ("calibration-spread-" + slug + ".csv"), report::to_csv(spread));
        std::cout << report::to_markdown(spread);
      }
    }
    std::fprintf(stderr, "mmsim gpu calibrate: %zu microbenchmarks x %d passes on %s, %s; wrote %s\n",
                 passes.front().size(), o.passes, facts.name.c_str(),
                 correct ? "every output cell checked right" : "SOME OUTPUTS WRONG", csv.string().c_str());
    return correct ? kOk : kCheckFailed;
  });
}

}  // namespace mmsim::cli
