// `mmsim schedule`: precomputes the scheduled permutation's S/D tables (KNI Sect. 7) into a
// file (format: algorithms/offline/schedule_file.h). `mmsim bench-schedule`: how long that takes.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>

#include "algorithms/offline/common.h"
#include "algorithms/offline/row_schedule.h"
#include "algorithms/offline/schedule_file.h"
#include "cli/common.h"
#include "io/output_path.h"

namespace mmsim::cli {

namespace {

constexpr std::int64_t kMaxScheduleN = std::int64_t{1} << 28;

struct ScheduleOptions {
  std::string perm;
  std::string perm_file;
  std::uint64_t n = 0;
  int w = 32;
  std::uint64_t seed = 1;
  ThreadsOption threads;
};

Permutation load_permutation(const ScheduleOptions& o) {
  if (o.perm.empty() && o.perm_file.empty()) throw InputError("--perm: give --perm NAME or --perm-file F");
  MachineParams m;
  m.w = o.w;
  if (auto err = m.validate()) throw InputError(*err);
  offline::square_side("scheduled", o.n, o.w);
  return o.perm_file.empty() ? named_permutation(o.perm, o.n, o.seed) : read_permutation_file(o.perm_file, o.n);
}

// n's rule as the help states it; N = sqrt(n) a multiple of w is checked with w.
ParamSpec n_param() {
  return integer_param("n", "-n", "number of elements: N^2 with N a multiple of w", 1, kMaxScheduleN, std::nullopt,
                       IntegerShape::PerfectSquare);
}

ParamSpec schedule_seed_param() {
  ParamSpec s = seed_param();
  s.help = "seed of --perm random";
  return s;
}

double peak_resident_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux reports kibibytes
}

}  // namespace

Runner add_schedule_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("schedule", "precompute the scheduled permutation's S/D tables into a file");
  auto o = std::make_shared<ScheduleOptions>();
  auto out = std::make_shared<std::string>();
  auto* perm = cmd->add_option("--perm", o->perm, "named permutation (see mmsim list)");
  auto* file = cmd->add_option("--perm-file", o->perm_file, "permutation file: one destination P(i) per line");
  perm->excludes(file);
  add_integer_option(*cmd, o->n, n_param())->required();
  add_integer_option(*cmd, o->w, integer_param("w", "-w,--width", "width the tables are conflict-free for", 1, 65536));
  add_integer_option(*cmd, o->seed, schedule_seed_param());
  cmd->add_option("-o,--output", *out, "schedule file to write")->required();
  o->threads.add_to(*cmd, "host threads that build the schedule (the file is the same for every count)");
  return [o, out] {
    const unsigned threads = o->threads.value();
    // Before the schedule, which takes seconds and hundreds of MiB at n = 2^24.
    check_output_file("-o", *out);
    const Permutation p = load_permutation(*o);
    offline::ScheduleTiming timing;
    const auto sched = offline::three_step_schedule(p.p, o->w, &timing, threads);
    offline::write_schedule_file(*out, sched, p.p);
    std::printf("schedule of %s, n = %llu, w = %d: row colouring %.3f s, S/D tables %.3f s; wrote %s (%llu bytes)\n",
                p.name.c_str(), static_cast<unsigned long long>(o->n), o->w, timing.colouring, timing.tables,
                out->c_str(), static_cast<unsigned long long>(offline::kScheduleHeaderBytes + 24 * o->n));
    return kOk;
  };
}

Runner add_bench_schedule_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench-schedule", "time and memory of computing a scheduled-permutation schedule");
  auto o = std::make_shared<ScheduleOptions>();
  o->n = std::uint64_t{1} << 24;
  o->perm = "random";
  auto json = std::make_shared<bool>(false);
  auto* perm = cmd->add_option("--perm", o->perm, "named permutation")->capture_default_str();
  auto* file = cmd->add_option("--perm-file", o->perm_file, "permutation file");
  perm->excludes(file);
  add_integer_option(*cmd, o->n, n_param());
  add_integer_option(*cmd, o->w, integer_param("w", "-w,--width", "width the tables are conflict-free for", 1, 65536));
  add_integer_option(*cmd, o->seed, schedule_seed_param());
  cmd->add_flag("--json", *json, "print one JSON object");
  o->threads.add_to(*cmd, "host threads that build the schedule");
  return [o, json] {
    const unsigned threads = o->threads.value();
    const Permutation p = load_permutation(*o);
    offline::ScheduleTiming timing;
    const auto t0 = std::chrono::steady_clock::now();
    const auto sched = offline::three_step_schedule(p.p, o->w, &timing, threads);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double peak = peak_resident_mib();
    // Check the schedule outside the timed part: conflict-free tables that compose to P.
    std::string why;
    const auto composed = offline::composed_permutation(sched, why);
    const bool ok = composed && *composed == p.p;
    if (*json) {
      print_json(report::Json::object()
                     .set("permutation", p.name)
                     .set("n", static_cast<unsigned long long>(o->n))
                     .set("w", o->w)
                     .set("threads", timing.threads)
                     .set("colouring_seconds", timing.colouring)
                     .set("tables_seconds", timing.tables)
                     .set("total_seconds", total)
                     .set("colouring_cpu_seconds", timing.colouring_cpu)
                     .set("tables_cpu_seconds", timing.tables_cpu)
                     .set("peak_resident_mib", peak)
                     .set("schedule_correct", ok));
    } else {
      std::printf("schedule of %s, n = %llu (N = %llu), w = %d, %u host thread%s\n", p.name.c_str(),
                  static_cast<unsigned long long>(o->n), static_cast<unsigned long long>(sched.N), o->w, timing.threads,
                  timing.threads == 1 ? "" : "s");
      std::printf("                                       wall clock   processor time (all threads)\n");
      std::printf("  row multigraph colouring (N colours): %8.3f s   %8.3f s\n", timing.colouring,
                  timing.colouring_cpu);
      std::printf("  bank colourings and S/D tables:       %8.3f s   %8.3f s\n", timing.tables, timing.tables_cpu);
      std::printf("  total:                                %8.3f s   %8.3f s\n", total,
                  timing.colouring_cpu + timing.tables_cpu);
      std::printf("  peak resident memory of the process:  %8.1f MiB\n", peak);
      std::printf("  schedule conflict-free and composes to P: %s\n", ok ? "yes" : ("NO: " + why).c_str());
    }
    return ok ? kOk : kCheckFailed;
  };
}

}  // namespace mmsim::cli
