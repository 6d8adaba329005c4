// `mmsim run crsw|srcw|drdw --layout L`: the transposes of papers/001 on a DMM, over any layout.
#include <cstdio>
#include <fstream>

#include "algorithms/layouts/transposes.h"
#include "cli/run_family.h"

namespace mmsim::cli {

namespace {

report::Json round_json(const RoundStats& r) {
  return report::Json::object()
      .set("name", r.name)
      .set("op", to_string(r.op))
      .set("slots", static_cast<unsigned long long>(r.slots))
      .set("warps", static_cast<unsigned long long>(r.warps))
      .set("time_units", r.time_units ? report::Json(static_cast<long long>(*r.time_units)) : report::Json())
      .set("max_congestion", r.max_congestion)
      .set("bank_conflicts", static_cast<unsigned long long>(r.bank_conflicts));
}

}  // namespace

RunHandler add_layout_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common) {
  (void)common;
  auto layout = std::make_shared<std::string>("raw");
  run.add_option("--layout", *layout, "layout of the w x w matrices for crsw, srcw, drdw: raw, ras, rap, pad, xor")
      ->capture_default_str();
  return [layout](const CommonRunOptions& c) -> std::optional<int> {
    const auto which = layouts::transpose_from_name(c.algorithm);
    if (!which) return std::nullopt;
    const auto kind = layouts::matrix_layout_from_name(*layout);
    if (!kind) throw InputError("--layout: unknown '" + *layout + "' (one of raw, ras, rap, pad, xor)");
    MachineParams m = c.machine.params;
    m.model = ModelKind::Dmm;
    if (auto err = m.validate()) throw InputError(*err);
    // One block of w^2 threads: 1024 keeps a run to a million threads.
    if (m.w < 2 || m.w > 1024) throw InputError("-w: the transposes need 2 <= w <= 1024");
    const auto w = static_cast<std::uint64_t>(m.w);
    if (c.n != 0 && c.n != w * w)
      throw InputError("-n: the transposes move one w x w matrix: leave -n out or give n = w^2 = " + std::to_string(w * w));
    layouts::Draws draws(c.seed);
    const layouts::MatrixLayout lay(*kind, static_cast<std::uint32_t>(m.w), draws);
    const EngineOptions eo{c.async ? Execution::Asynchronous : Execution::RoundSynchronous, !c.trace_file.empty()};
    const auto r = layouts::run_transpose(*which, lay, m.l, eo);
    if (!c.trace_file.empty()) {
      std::ofstream out(c.trace_file);
      if (!out) throw InputError("--trace: cannot write " + c.trace_file);
      out << "round,memory,warp,slot,enter,complete,requests\n";
      for (const auto& e : r.trace) {
        out << e.round << "," << e.memory << "," << e.warp << "," << e.slot << "," << e.enter << "," << e.complete << ",";
        for (std::size_t i = 0; i < e.requests.size(); ++i) out << (i ? " " : "") << e.requests[i];
        out << "\n";
      }
    }
    if (c.json) {
      report::Json rounds = report::Json::array();
      for (const auto& rs : r.stats.rounds) rounds.push(round_json(rs));
      report::Json shifts = report::Json::array();
      for (auto s : lay.shifts()) shifts.push(static_cast<unsigned long long>(s));
      print_json(report::Json::object()
                     .set("algorithm", c.algorithm)
                     .set("layout", *layout)
                     .set("seed", static_cast<unsigned long long>(c.seed))
                     .set("shifts", std::move(shifts))
                     .set("machine", machine_json(m))
                     .set("n", static_cast<unsigned long long>(w * w))
                     .set("async", c.async)
                     .set("time_units", static_cast<long long>(r.stats.time_units))
                     .set("read_congestion_max", r.read_max_congestion)
                     .set("read_congestion_mean", r.read_mean_congestion)
                     .set("write_congestion_max", r.write_max_congestion)
                     .set("write_congestion_mean", r.write_mean_congestion)
                     .set("rounds", std::move(rounds))
                     .set("correct", r.correct));
    } else {
      std::printf("%s on the DMM: w = %d, l = %d, n = %llu, %s, seed %llu\n", c.algorithm.c_str(), m.w, m.l,
                  static_cast<unsigned long long>(w * w), c.async ? "asynchronous" : "round-synchronous",
                  static_cast<unsigned long long>(c.seed));
      std::printf("layout: %s\n", layouts::describe(lay).c_str());
      std::printf("read  congestion: max %d, mean over warps %.4f\n", r.read_max_congestion, r.read_mean_congestion);
      std::printf("write congestion: max %d, mean over warps %.4f\n", r.write_max_congestion, r.write_mean_congestion);
      for (const auto& rs : r.stats.rounds)
        std::printf("  round %-8s slots %llu over %llu warps, time units %s\n", rs.name.c_str(),
                    static_cast<unsigned long long>(rs.slots), static_cast<unsigned long long>(rs.warps),
                    rs.time_units ? std::to_string(*rs.time_units).c_str() : "-");
      std::printf("time units: %lld\n", static_cast<long long>(r.stats.time_units));
      std::printf("correct: %s\n", r.correct ? "yes (b(x, y) = a(y, x) for every cell)" : "NO");
    }
    return r.correct ? kOk : kCheckFailed;
  };
}

}  // namespace mmsim::cli
