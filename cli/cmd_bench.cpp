// `mmsim bench`: simulated thread-requests per second of the engine, on one thread and on
// --threads N, with the speed-up of the one over the other (a benchmark, not a test).
#include <cstdio>

#include "cli/bench.h"
#include "cli/common.h"
#include "sim/workers.h"

namespace mmsim::cli {

namespace {
constexpr std::int64_t kMaxBenchRepeats = 100;
}  // namespace

Runner add_bench_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("bench", "engine speed: simulated thread-requests per second, one thread and --threads N");
  struct Opts {
    std::uint64_t n = std::uint64_t{1} << 24;
    int repeats = 3;
    bool json = false;
    ThreadsOption threads;
  };
  auto o = std::make_shared<Opts>();
  add_integer_option(*cmd, o->n,
                     integer_param("n", "-n", "elements of the D-designated random permutation (a multiple of 32)", 32,
                                   std::int64_t{1} << 28));
  // Each run at the default n takes seconds: a hundred keep the benchmark within minutes.
  add_integer_option(*cmd, o->repeats,
                     integer_param("repeats", "--repeats", "runs per mode; the fastest is kept", 1, kMaxBenchRepeats));
  o->threads.add_to(*cmd, "host threads of the multi-core round-synchronous run, compared with one thread");
  cmd->add_flag("--json", o->json, "print one JSON object");
  return [o] {
    if (o->n < 32 || o->n % 32 != 0 || o->n > (std::uint64_t{1} << 28))
      throw InputError("-n: a multiple of 32 between 32 and 2^28");
    const unsigned threads = resolve_threads(o->threads.value());
    const auto results = cli::bench_engine(o->n, o->repeats, threads);
    // The speed-up of the round-synchronous run on `threads` threads over the same run on one.
    const cli::BenchResult* one = &results.front();
    const cli::BenchResult* many = threads > 1 ? &results[1] : nullptr;
    report::Json arr = report::Json::array();
    for (const auto& r : results) {
      if (o->json)
        arr.push(report::Json::object()
                     .set("what", r.what)
                     .set("threads", r.threads)
                     .set("thread_requests", static_cast<unsigned long long>(r.requests))
                     .set("seconds", r.seconds)
                     .set("engine_seconds", r.engine_seconds)
                     .set("thread_requests_per_second", r.requests_per_second())
                     .set("engine_thread_requests_per_second", r.engine_requests_per_second()));
      else
        std::printf("%-70s %10llu requests | engine %7.3f s %7.1f M/s | whole run %7.3f s %7.1f M/s\n", r.what.c_str(),
                    static_cast<unsigned long long>(r.requests), r.engine_seconds, r.engine_requests_per_second() / 1e6,
                    r.seconds, r.requests_per_second() / 1e6);
    }
    const double engine_speedup = many ? one->engine_seconds / many->engine_seconds : 1.0;
    const double run_speedup = many ? one->seconds / many->seconds : 1.0;
    if (o->json) {
      print_json(report::Json::object()
                     .set("results", std::move(arr))
                     .set("threads", threads)
                     .set("hardware_threads", hardware_threads())
                     .set("engine_speedup", engine_speedup)
                     .set("whole_run_speedup", run_speedup));
    } else if (many) {
      std::printf("round-synchronous speed-up on %u threads over one (%u cores here): engine %.2fx, whole run %.2fx\n",
                  threads, hardware_threads(), engine_speedup, run_speedup);
    } else {
      std::printf("one thread only (--threads 1, or a one-core machine): no speed-up to measure\n");
    }
    return kOk;
  };
}

}  // namespace mmsim::cli
