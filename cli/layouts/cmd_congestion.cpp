// `mmsim congestion`: Monte Carlo of the expected congestion of one warp access under a random layout
// (papers/001 Sect. V, VII).
#include <cstdio>

#include "algorithms/layouts/congestion_mc.h"
#include "cli/common.h"

namespace mmsim::cli {

Runner add_congestion_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "congestion", "expected congestion of a warp access under a random layout, by Monte Carlo (papers/001)");
  struct Opts {
    layouts::CongestionQuery q;
    bool json = false;
    bool bench = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--layout", o->q.layout, "layout: raw, ras, rap, pad, xor (--dims 2); raw, ras, 1p, r1p, 3p, w2p, 1pw2r (--dims 4)")
      ->required();
  cmd->add_option("--pattern", o->q.pattern,
                  "access: contiguous, stride, diagonal, random (--dims 2); contiguous, stride1, stride2, stride3, "
                  "random, malicious (--dims 4)")
      ->required();
  cmd->add_option("-w,--width", o->q.w, "width: banks and threads per warp")->capture_default_str();
  cmd->add_option("--dims", o->q.dims, "2: w x w matrix, 4: w^4 array")->capture_default_str();
  cmd->add_option("--trials", o->q.trials, "warp accesses, each with a fresh random layout and access")->capture_default_str();
  cmd->add_option("--seed", o->q.seed, "seed of every random draw")->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_flag("--bench", o->bench, "also print the speed in warp accesses per second (one core)");
  return [o] {
    const auto& q = o->q;
    const auto s = layouts::simulate_congestion(q);
    if (o->json) {
      report::Json hist = report::Json::array();
      for (std::size_t c = 0; c < s.histogram.size(); ++c)
        if (s.histogram[c])
          hist.push(report::Json::object().set("congestion", static_cast<unsigned long long>(c))
                        .set("count", static_cast<unsigned long long>(s.histogram[c])));
      report::Json j = report::Json::object();
      j.set("layout", q.layout).set("pattern", q.pattern).set("w", static_cast<unsigned long long>(q.w))
          .set("dims", q.dims).set("trials", static_cast<unsigned long long>(s.trials))
          .set("seed", static_cast<unsigned long long>(q.seed)).set("mean", s.mean).set("stderr", s.stderr_mean)
          .set("min", s.min).set("max", s.max).set("histogram", std::move(hist));
      if (o->bench) j.set("seconds", s.seconds).set("warp_accesses_per_second", s.accesses_per_second());
      print_json(j);
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
      std::printf("speed: %.3f s for %llu warp accesses = %.2f million warp accesses per second (one core)\n",
                  s.seconds, static_cast<unsigned long long>(s.trials), s.accesses_per_second() / 1e6);
    return kOk;
  };
}

}  // namespace mmsim::cli
