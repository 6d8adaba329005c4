// `mmsim congestion`: Monte Carlo of the expected congestion of one warp access under a random layout
// (NMI Sect. V, VII).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/congestion_output.h"
#include "algorithms/layouts/patterns.h"
#include "cli/common.h"
#include "io/input_error.h"
#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"
#include "sim/workers.h"

namespace mmsim::cli {

namespace {

struct BenchRow {
  std::string layout, pattern;
  double mean = 0;
  std::uint64_t trials = 0;   // per run
  std::vector<double> rates;  // warp accesses per second on one thread, one per run
  std::vector<double> many;   // the same on `threads` threads (empty when threads is 1)
  static double best(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }
};

// Every layout x pattern of q.dims at width q.w: `repeat` timed runs each on one thread and, when
// `threads` > 1, as many on `threads` threads, of `trials` trials when given, else of as many as take
// about `min_seconds` on one thread (measured by a short first run). Each run has its own seed
// (q.seed, q.seed + 1, ...), so that no run repeats another's layouts; the runs on one thread and on
// many draw the same trials, and their means are checked equal.
std::vector<BenchRow> bench_all(layouts::CongestionQuery q, bool trials_given, int repeat, double min_seconds,
                                unsigned threads) {
  std::vector<std::pair<std::string, std::string>> configs;
  if (q.dims == 2) {
    for (auto k : layouts::matrix_layout_kinds())
      for (auto p : layouts::matrix_patterns()) configs.emplace_back(layouts::to_string(k), layouts::to_string(p));
  } else {
    for (auto k : layouts::array4_layout_kinds())
      for (auto p : layouts::array4_patterns()) configs.emplace_back(layouts::to_string(k), layouts::to_string(p));
  }
  const std::uint64_t cap = (q.dims == 2 ? layouts::kMaxWork2 : layouts::kMaxWork4) / q.w;
  const std::uint64_t seed0 = q.seed;
  std::vector<BenchRow> rows;
  for (const auto& [layout, pattern] : configs) {
    q.layout = layout, q.pattern = pattern;
    if (!trials_given) {
      q.trials = std::min<std::uint64_t>(cap, 1u << 16);
      q.seed = seed0;
      q.threads = 1;
      const auto probe = layouts::simulate_congestion(q);
      const double want = std::ceil(1.2 * min_seconds * probe.accesses_per_second());
      q.trials = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(want), 1, cap);
    }
    BenchRow row{layout, pattern, 0, q.trials, {}, {}};
    for (int r = 0; r < repeat; ++r) {
      q.seed = seed0 + static_cast<std::uint64_t>(r);
      q.threads = 1;
      const auto one = layouts::simulate_congestion(q);
      row.rates.push_back(one.accesses_per_second());
      row.mean = one.mean;
      if (threads > 1) {
        q.threads = threads;
        const auto s = layouts::simulate_congestion(q);
        if (s.histogram != one.histogram)
          throw std::logic_error("congestion --bench-all: " + layout + " x " + pattern + " drew other trials on " +
                                 std::to_string(threads) + " threads than on one");
        row.many.push_back(s.accesses_per_second());
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

Runner add_congestion_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("congestion",
                                 "expected congestion of a warp access under a random layout, by Monte Carlo (NMI)");
  struct Opts {
    layouts::CongestionQuery q;
    bool json = false;
    bool bench = false;
    bool bench_all = false;
    ThreadsOption threads;
    int repeat = 3;
    double min_seconds = 0.5;
  };
  auto o = std::make_shared<Opts>();
  auto* layout =
      cmd->add_option("--layout", o->q.layout,
                      "layout: raw, ras, rap, pad, xor (--dims 2); raw, ras, 1p, r1p, 3p, w2p, 1pw2r (--dims 4)");
  auto* pattern =
      cmd->add_option("--pattern", o->q.pattern,
                      "access: contiguous, stride, diagonal, random (--dims 2); contiguous, stride1, stride2, "
                      "stride3, random, malicious (--dims 4)");
  add_integer_option(*cmd, o->q.w, integer_param("w", "-w,--width", "width: banks and threads per warp", 1, 65536));
  add_integer_option(*cmd, o->q.dims, integer_param("dims", "--dims", "2: w x w matrix, 4: w^4 array", 2, 4));
  auto* trials = add_integer_option(
      *cmd, o->q.trials,
      integer_param("trials", "--trials", "warp accesses, each with a fresh random layout and access", 1,
                    static_cast<std::int64_t>(layouts::kMaxWork2)));
  ParamSpec seed_spec = seed_param();
  seed_spec.help = "seed of every random draw";
  add_integer_option(*cmd, o->q.seed, seed_spec);
  cmd->add_flag("--json", o->json, "print one JSON object");
  o->threads.add_to(*cmd, "host threads that run the trials (the numbers are the same for every count)");
  cmd->add_flag("--bench", o->bench, "also print the speed in warp accesses per second");
  cmd->add_flag("--bench-all", o->bench_all,
                "time every layout x pattern of --dims at width -w instead (no --layout, --pattern): the best of "
                "--repeat runs on one thread and on --threads, each of --trials trials or, without --trials, of "
                "about --min-seconds, and the speed-up");
  add_integer_option(*cmd, o->repeat,
                     integer_param("repeat", "--repeat", "--bench-all: timed runs per layout x pattern", 1, 100));
  cmd->add_option("--min-seconds", o->min_seconds, "--bench-all: length of a timed run without --trials")
      ->capture_default_str();
  return [o, layout, pattern, trials] {
    o->q.threads = o->threads.value();
    const auto& q = o->q;
    if (o->bench_all) {
      if (layout->count() || pattern->count())
        throw InputError("--bench-all: times every layout and pattern, so takes no --layout or --pattern");
      if (o->repeat < 1 || o->repeat > 100) throw InputError("--repeat: must be between 1 and 100");
      if (!(o->min_seconds > 0 && o->min_seconds <= 60)) throw InputError("--min-seconds: must be in (0, 60]");
      auto check = q;  // the width, dims and trials must be valid for some layout and pattern
      if (q.dims == 4) check.layout = "raw", check.pattern = "contiguous";
      check.validate();
      const unsigned threads = resolve_threads(q.threads);
      const auto rows = bench_all(q, trials->count() > 0, o->repeat, o->min_seconds, threads);
      if (o->json) {
        report::Json arr = report::Json::array();
        for (const auto& r : rows) {
          report::Json rates = report::Json::array(), many = report::Json::array();
          for (double v : r.rates) rates.push(v);
          for (double v : r.many) many.push(v);
          const double best = BenchRow::best(r.rates), best_many = BenchRow::best(r.many);
          arr.push(report::Json::object()
                       .set("layout", r.layout)
                       .set("pattern", r.pattern)
                       .set("w", static_cast<unsigned long long>(q.w))
                       .set("dims", q.dims)
                       .set("trials_per_run", static_cast<unsigned long long>(r.trials))
                       .set("mean", r.mean)
                       .set("warp_accesses_per_second", std::move(rates))
                       .set("best", best)
                       .set("threads", threads)
                       .set("warp_accesses_per_second_threads", std::move(many))
                       .set("best_threads", threads > 1 ? report::Json(best_many) : report::Json())
                       .set("speedup", threads > 1 ? report::Json(best_many / best) : report::Json()));
        }
        // One JSON object, as every --json prints: the setting once, then a row per layout x pattern.
        print_json(report::Json::object()
                       .set("w", static_cast<unsigned long long>(q.w))
                       .set("dims", q.dims)
                       .set("threads", threads)
                       .set("repeat", o->repeat)
                       .set("seed", static_cast<unsigned long long>(q.seed))
                       .set("rows", std::move(arr)));
        return kOk;
      }
      std::printf(
          "speed of the Monte Carlo, w = %u, dims = %d: million warp accesses per second on one thread and on "
          "%u, best of %d runs (seeds %llu ..)\n",
          q.w, q.dims, threads, o->repeat, static_cast<unsigned long long>(q.seed));
      std::printf("%-8s %-11s %10s %12s %10s %10s %8s  %s\n", "layout", "pattern", "mean", "trials/run", "1 thr M/s",
                  (std::to_string(threads) + " thr M/s").c_str(), "speed-up", "all runs on one thread");
      for (const auto& r : rows) {
        std::string all;
        for (double v : r.rates) {
          char buf[32];
          std::snprintf(buf, sizeof buf, "%s%.2f", all.empty() ? "" : " ", v / 1e6);
          all += buf;
        }
        const double best = BenchRow::best(r.rates), best_many = threads > 1 ? BenchRow::best(r.many) : best;
        std::printf("%-8s %-11s %10.4f %12llu %10.2f %10.2f %8.2f  %s\n", r.layout.c_str(), r.pattern.c_str(), r.mean,
                    static_cast<unsigned long long>(r.trials), best / 1e6, best_many / 1e6, best_many / best,
                    all.c_str());
      }
      return kOk;
    }
    if (!layout->count()) throw InputError("--layout: required (or --bench-all)");
    if (!pattern->count()) throw InputError("--pattern: required (or --bench-all)");
    const auto s = layouts::simulate_congestion(q);
    if (o->json) {
      print_json(mmsim::to_json(q, s, o->bench));
      return kOk;
    }
    std::printf("layout %s, pattern %s, w = %u, dims = %d, trials = %llu, seed = %llu\n", q.layout.c_str(),
                q.pattern.c_str(), q.w, q.dims, static_cast<unsigned long long>(s.trials),
                static_cast<unsigned long long>(q.seed));
    std::printf("mean congestion %.4f (standard error %.4f), min %d, max %d\n", s.mean, s.stderr_mean, s.min, s.max);
    std::printf("histogram (congestion: trials):\n");
    for (std::size_t c = 0; c < s.histogram.size(); ++c)
      if (s.histogram[c])
        std::printf("  %4zu: %llu (%.4f)\n", c, static_cast<unsigned long long>(s.histogram[c]),
                    static_cast<double>(s.histogram[c]) / static_cast<double>(s.trials));
    if (o->bench)
      std::printf("speed: %.3f s for %llu warp accesses = %.2f million warp accesses per second (%u threads)\n",
                  s.seconds, static_cast<unsigned long long>(s.trials), s.accesses_per_second() / 1e6, s.threads);
    return kOk;
  };
}

}  // namespace mmsim::cli
