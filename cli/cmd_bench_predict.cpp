// `mmsim bench-predict --profile FILE`: how long a prediction takes and how much memory it holds,
// exact and sampled, beside `mmsim run` of the same permutation in the papers' model, with the
// sampled figures' difference from the exact ones (a benchmark, not a test). Each measurement runs
// in a child process of its own, so that its peak resident memory (getrusage) is its own.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "algorithms/registry.h"
#include "cli/common.h"
#include "cli/profile_option.h"
#include "predict/sampled.h"
#include "predict/simulate.h"
#include "sim/workers.h"

namespace mmsim::cli {

namespace {

enum class Mode { Run, Sampled, Exact };

// What a child sends back: seconds, peak resident MiB, predicted ms (0 for a run), the stored counts.
struct Measured {
  double seconds = 0, peak_mib = 0, ms = 0, ms_half = 0;
  int shift = 0;
  std::uint64_t counts[32] = {};
};

Measured measure_here(Mode mode, const predict::GpuProfile& profile, const AlgorithmEntry& entry,
                      const ParamValues& given, unsigned threads, const predict::SamplingOptions& sampling) {
  Measured m;
  const auto t0 = std::chrono::steady_clock::now();
  predict::SampledCounts counts;
  if (mode == Mode::Run) {
    EngineOptions o;
    o.threads = threads;
    (void)run_algorithm(entry, given, o);
  } else if (mode == Mode::Exact) {
    counts.counts = predict::count_algorithm(profile, entry, given, 4, threads).counts;
  } else {
    counts = predict::count_algorithm_sampled(profile, entry, given, 4, threads, sampling).counts;
  }
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  m.peak_mib = static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
  if (mode != Mode::Run) {
    const auto& model = profile.model(profile.default_model());
    m.ms = predict::predicted_ms(model, counts.counts);
    m.ms_half = counts.half_width_ms(model);
    m.shift = counts.shift;
    const auto fields = predict::count_fields();
    for (std::size_t i = 0; i < fields.size() && i < 32; ++i) m.counts[i] = fields[i].of(counts.counts);
  }
  return m;
}

// Runs one measurement in a child process and reads its result back through a pipe.
Measured measure(Mode mode, const predict::GpuProfile& profile, const AlgorithmEntry& entry, const ParamValues& given,
                 unsigned threads, const predict::SamplingOptions& sampling) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("bench-predict: no pipe");
  std::fflush(stdout);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("bench-predict: no child process");
  if (child == 0) {
    close(fd[0]);
    const Measured m = measure_here(mode, profile, entry, given, threads, sampling);
    const bool sent = write(fd[1], &m, sizeof m) == static_cast<ssize_t>(sizeof m);
    _exit(sent ? 0 : 1);
  }
  close(fd[1]);
  Measured m;
  const bool got = read(fd[0], &m, sizeof m) == static_cast<ssize_t>(sizeof m);
  close(fd[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("bench-predict: a measurement's child process failed");
  return m;
}

}  // namespace

Runner add_bench_predict_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bench-predict", "time and peak memory of mmsim predict, exact and sampled, beside mmsim run (a benchmark)");
  struct Opts {
    std::string profile, algorithm = "d-designated", perm = "random";
    std::vector<int> log2n{20, 24};
    bool exact = true, json = false;
    std::uint64_t budget = predict::SamplingOptions{}.budget;
    ThreadsOption threads;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--profile", o->profile, "the GPU profile (results/gpu-<device>/profile-<device>.json)")->required();
  cmd->add_option("--algorithm", o->algorithm, "an HMM permutation algorithm (see mmsim list)")->capture_default_str();
  cmd->add_option("--perm", o->perm, "named permutation")->capture_default_str();
  cmd->add_option("--log2n", o->log2n, "sizes, as log2 n (10..28), one measurement row each")
      ->check(CLI::Range(10, 28))
      ->capture_default_str();
  cmd->add_flag("--exact,!--no-exact", o->exact, "also time the exact prediction (minutes at 2^28)");
  add_integer_option(*cmd, o->budget,
                     integer_param("sample-budget", "--sample-budget", "sectors a sampled prediction records at most",
                                   1024, std::int64_t{1} << 30));
  cmd->add_flag("--json", o->json, "print one JSON object");
  o->threads.add_to(*cmd, "host threads of every measurement");
  return [o] {
    const predict::GpuProfile profile = read_profile_option(o->profile);
    const AlgorithmEntry* entry = find_algorithm(o->algorithm);
    if (entry == nullptr || entry->machine != ModelKind::Hmm)
      throw InputError("--algorithm: " + quote(o->algorithm) + " is not an HMM algorithm (see mmsim list)");
    const unsigned threads = o->threads.value();
    report::Json rows = report::Json::array();
    if (!o->json)
      std::printf("%-14s %-9s %5s | %9s %9s | %9s %8s | %12s %10s | %s\n", o->algorithm.c_str(), o->perm.c_str(),
                  "log2n", "seconds", "peak MiB", "x run", "fraction", "predicted ms", "+- (95 %)",
                  "sampled / exact - 1");
    for (const int lg : o->log2n) {
      const auto n = std::int64_t{1} << lg;
      const ParamValues given = parse_params(*entry, {{"n", std::to_string(n)}, {"perm", o->perm}});
      const ParamValues on_profile = predict::on_profile_machine(profile, *entry, given);
      const Measured run = measure(Mode::Run, profile, *entry, given, threads, {});
      const Measured sampled = measure(Mode::Sampled, profile, *entry, on_profile, threads, {.budget = o->budget});
      Measured exact;
      if (o->exact) exact = measure(Mode::Exact, profile, *entry, on_profile, threads, {});
      // The sampled figures against the exact ones: the predicted ms, and the worst count.
      double ms_diff = 0, worst = 0;
      std::string worst_name;
      if (o->exact) {
        ms_diff = sampled.ms / exact.ms - 1;
        const auto fields = predict::count_fields();
        for (std::size_t i = 0; i < fields.size() && i < 32; ++i) {
          if (exact.counts[i] == 0) continue;
          const double d = static_cast<double>(sampled.counts[i]) / static_cast<double>(exact.counts[i]) - 1;
          if (std::abs(d) > std::abs(worst)) {
            worst = d;
            worst_name = std::string(fields[i].name);
          }
        }
      }
      const auto row = [&](const char* what, const Measured& m, bool priced) {
        if (o->json) {
          rows.push(report::Json::object()
                        .set("what", what)
                        .set("log2n", lg)
                        .set("seconds", m.seconds)
                        .set("peak_resident_mib", m.peak_mib)
                        .set("times_run", m.seconds / run.seconds)
                        .set("sampled_fraction", std::ldexp(1.0, -m.shift))
                        .set("predicted_ms", m.ms)
                        .set("predicted_ms_ci95", m.ms_half));
          return;
        }
        std::printf("%-24s %5d | %9.3f %9.1f | %9.2f ", what, lg, m.seconds, m.peak_mib, m.seconds / run.seconds);
        if (priced)
          std::printf("%8s | %12.5g %10.3g |", ("1/" + std::to_string(1ull << m.shift)).c_str(), m.ms, m.ms_half);
        else
          std::printf("%8s | %12s %10s |", "", "", "");
        std::printf("\n");
      };
      row("run (papers' model)", run, false);
      row("predict, sampled", sampled, true);
      if (o->exact) {
        row("predict --exact", exact, true);
        if (o->json)
          rows.push(report::Json::object()
                        .set("what", "sampled / exact - 1")
                        .set("log2n", lg)
                        .set("predicted_ms", ms_diff)
                        .set("worst_count", worst_name)
                        .set("worst_count_difference", worst));
        else
          std::printf("%-24s %5d | predicted ms %+.3f %%, worst count %s %+.3f %%\n", "sampled / exact - 1", lg,
                      100 * ms_diff, worst_name.c_str(), 100 * worst);
      }
    }
    if (o->json)
      print_json(report::Json::object()
                     .set("algorithm", o->algorithm)
                     .set("perm", o->perm)
                     .set("profile", o->profile)
                     .set("threads", resolve_threads(threads))
                     .set("results", std::move(rows)));
    return kOk;
  };
}

}  // namespace mmsim::cli
