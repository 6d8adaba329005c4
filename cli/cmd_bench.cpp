// `mmsim bench`: simulated thread-requests per second of the engine (a benchmark, not a test).
#include <cstdio>

#include "cli/common.h"
#include "experiments/bench.h"

namespace mmsim::cli {

Runner add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "engine speed: simulated thread-requests per second on one core");
  struct Opts {
    std::uint64_t n = std::uint64_t{1} << 24;
    int repeats = 3;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("-n", o->n, "elements of the D-designated random permutation")->capture_default_str();
  cmd->add_option("--repeats", o->repeats, "runs per mode; the fastest is kept")->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON object");
  return [o] {
    if (o->n < 32 || o->n % 32 != 0 || o->n > (std::uint64_t{1} << 28))
      throw InputError("-n: a multiple of 32 between 32 and 2^28");
    if (o->repeats < 1) throw InputError("--repeats: must be >= 1");
    const auto results = experiments::bench_engine(o->n, o->repeats);
    report::Json arr = report::Json::array();
    for (const auto& r : results) {
      if (o->json)
        arr.push(report::Json::object()
                     .set("what", r.what)
                     .set("thread_requests", static_cast<unsigned long long>(r.requests))
                     .set("seconds", r.seconds)
                     .set("engine_seconds", r.engine_seconds)
                     .set("thread_requests_per_second", r.requests_per_second())
                     .set("engine_thread_requests_per_second", r.engine_requests_per_second()));
      else
        std::printf("%-58s %10llu requests | engine %7.3f s %7.1f M/s | whole run %7.3f s %7.1f M/s\n",
                    r.what.c_str(), static_cast<unsigned long long>(r.requests), r.engine_seconds,
                    r.engine_requests_per_second() / 1e6, r.seconds, r.requests_per_second() / 1e6);
    }
    if (o->json) print_json(report::Json::object().set("results", std::move(arr)));
    return kOk;
  };
}

}  // namespace mmsim::cli
