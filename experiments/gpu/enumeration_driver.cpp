// The sweeps of `mmsim gpu enumeration` (experiments/gpu/enumeration_driver.h): which shapes run, in which
// order, and where the memory or the time budget stops them.
#include "experiments/gpu/enumeration_driver.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>

#include "cuda/enumeration/tiles.h"
#include "cuda/harness/device.h"

namespace mmsim::gpu::enumeration {

namespace {

constexpr u64 kMargin = u64{512} << 20;  // left free for the context, counters and fragmentation

void progress(const Result& r) {
  std::fprintf(stderr, "%s %s %llux%llu: %.3f ms, %.1f GB/s, %s\n", r.kind.c_str(), r.alg.c_str(),
               (unsigned long long)r.rows, (unsigned long long)r.cols, r.t.median_ms, r.gbps(), r.status.c_str());
}

Result not_run(const char* kind, const char* alg, u64 rows, u64 cols, u64 band, const char* why) {
  return {.kind = kind, .alg = alg, .rows = rows, .cols = cols, .band = band, .status = why};
}

// Orders: every 1K to 16K, every 2K to 32K, every 4K to 64K, then every 8K.
std::vector<u64> square_orders(u64 cap) {
  std::vector<u64> v;
  for (u64 k = 1; k <= 4096; k += k < 16 ? 1 : k < 32 ? 2 : k < 64 ? 4 : 8)
    if (cap == 0 || k * 1024 <= cap) v.push_back(k * 1024);
  return v;
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string fmt(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string device_line(const DeviceInfo& d) {
  return d.name + ", " + std::to_string(d.sm_count) + " SMs, " + fmt(double(d.global_bytes) / double(1u << 30), 1) +
         " GiB, compute capability " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + ", driver " +
         std::to_string(d.driver_version) + ", runtime " + std::to_string(d.runtime_version);
}

void run_square(Transposer& gpu, const EnumerationOptions& opt, Clock::time_point t0, double deadline,
                EnumerationRun& sw) {
  const auto orders = square_orders(opt.max_order);
  const TimingPlan plan{opt.warmup, opt.runs};
  double last_s = 0;
  u64 last_n = 0;
  bool oop_on = true;
  for (u64 n : orders) {
    const u64 cells = n * n, bytes = cells * sizeof(float), nb = (n + kTile - 1) / kTile;
    if (last_n) {
      const double predicted = last_s * double(n) * double(n) / (double(last_n) * double(last_n));
      if (since(t0) + predicted > deadline) {
        sw.ip_stop = "time budget: order " + std::to_string(n) + " was predicted to take " +
                     std::to_string(int(predicted)) + " s, past the square sweep's share of the budget";
        if (oop_on) sw.oop_stop = sw.ip_stop;
        break;
      }
    }
    if (bytes + kMargin > device_free_bytes()) {
      sw.ip_stop = "memory: order " + std::to_string(n) + " needs " + std::to_string(bytes >> 20) + " MiB, " +
                   std::to_string(device_free_bytes() >> 20) + " MiB free";
      if (oop_on) sw.oop_stop = sw.ip_stop;
      break;
    }
    const auto t1 = Clock::now();
    DeviceMatrix M = DeviceMatrix::try_alloc(cells);
    if (!M) {
      sw.ip_stop = "memory: cudaMalloc of order " + std::to_string(n) + " failed";
      if (oop_on) sw.oop_stop = sw.ip_stop;
      break;
    }
    constexpr InPlaceAlg kInPlace[] = {InPlaceAlg::Naive, InPlaceAlg::SuperGrid, InPlaceAlg::V1,
                                       InPlaceAlg::V1R,   InPlaceAlg::V1B,       InPlaceAlg::TW};
    for (InPlaceAlg a : kInPlace) sw.square.push_back(gpu.in_place(a, M.get(), n, opt.band, opt.region, plan));
    for (auto it = sw.square.end() - std::size(kInPlace); it != sw.square.end(); ++it) progress(*it);
    M.release();
    sw.largest_ip = n;
    if (oop_on) {
      DeviceMatrix in = 2 * bytes + kMargin <= device_free_bytes() ? DeviceMatrix::try_alloc(cells) : DeviceMatrix();
      DeviceMatrix out = in ? DeviceMatrix::try_alloc(cells) : DeviceMatrix();
      if (!out) {
        in.release();
        oop_on = false;
        sw.oop_stop =
            "memory: order " + std::to_string(n) + " needs two matrices of " + std::to_string(bytes >> 20) + " MiB";
      } else {
        gpu.fill(in.get(), n, n);
        for (OutOfPlaceAlg a : {OutOfPlaceAlg::Nvidia, OutOfPlaceAlg::V1BF})
          sw.square.push_back(gpu.out_of_place(a, in.get(), out.get(), n, n, opt.band, plan));
        progress(sw.square.end()[-2]);
        progress(sw.square.back());
        in.release();
        out.release();
        sw.largest_oop = n;
      }
    }
    if (!oop_on) {
      sw.square.push_back(not_run("out-of-place", "nvidia", n, n, 0, "too-large"));
      sw.square.push_back(not_run("out-of-place", "v1bf", n, n, clamp_band(opt.band, nb), "too-large"));
    }
    last_s = since(t1);
    last_n = n;
  }
  if (sw.ip_stop.empty()) sw.ip_stop = "the order grid ends here (--max-order or the grid's last order)";
  if (sw.oop_stop.empty()) sw.oop_stop = sw.ip_stop;
}

// The 3D involutions at each order for depths 2, 3 and 4 (GL Figs. 14-15 take 2 to 4), in one
// allocation of the largest depth's cells.
void run_3d(Transposer& gpu, const EnumerationOptions& opt, Clock::time_point t0, double deadline, EnumerationRun& sw) {
  constexpr u64 kDepths[] = {2, 3, 4};
  constexpr u64 kDeepest = 4;
  constexpr InvolutionAlg kAlgs[] = {InvolutionAlg::YxzNaive, InvolutionAlg::YxzV1B, InvolutionAlg::ZyxNaive,
                                     InvolutionAlg::ZyxV1B};
  const TimingPlan plan{opt.warmup, opt.runs};
  double last_s = 0;
  u64 last_n = 0;
  for (u64 n : square_orders(opt.max_order)) {
    const u64 cells = n * n * kDeepest, bytes = cells * sizeof(float);
    if (last_n) {
      const double predicted = last_s * double(n) * double(n) / (double(last_n) * double(last_n));
      if (since(t0) + predicted > deadline) {
        sw.stop_3d = "time budget: order " + std::to_string(n) + " was predicted to take " +
                     std::to_string(int(predicted)) + " s, past the 3D sweep's share of the budget";
        break;
      }
    }
    if (bytes + kMargin > device_free_bytes()) {
      sw.stop_3d = "memory: order " + std::to_string(n) + " at depth " + std::to_string(kDeepest) + " needs " +
                   std::to_string(bytes >> 20) + " MiB, " + std::to_string(device_free_bytes() >> 20) + " MiB free";
      break;
    }
    const auto t1 = Clock::now();
    DeviceMatrix M = DeviceMatrix::try_alloc(cells);
    if (!M) {
      sw.stop_3d = "memory: cudaMalloc of order " + std::to_string(n) + " at depth 4 failed";
      break;
    }
    for (u64 depth : kDepths)
      for (InvolutionAlg a : kAlgs) {
        sw.involution.push_back(gpu.involution(a, M.get(), n, depth, opt.band, plan));
        const Result& r = sw.involution.back();
        std::fprintf(stderr, "3d %s %s %llux%llu depth %llu: %.3f ms, %.1f GB/s, %s\n", r.kind.c_str(), r.alg.c_str(),
                     (unsigned long long)n, (unsigned long long)n, (unsigned long long)depth, r.t.median_ms, r.gbps(),
                     r.status.c_str());
      }
    M.release();
    sw.largest_3d = n;
    last_s = since(t1);
    last_n = n;
  }
  if (sw.stop_3d.empty()) sw.stop_3d = "the order grid ends here (--max-order or the grid's last order)";
}

void run_heat(Transposer& gpu, const EnumerationOptions& opt, Clock::time_point t0, double deadline,
              EnumerationRun& sw) {
  // One warm-up run per shape: 512 shapes share the heat map's part of the budget.
  const TimingPlan plan{1, opt.heat_runs};
  std::vector<std::pair<u64, u64>> cells;
  for (u64 r = opt.heat_step; r <= opt.heat_max; r += opt.heat_step)
    for (u64 c = opt.heat_step; c <= opt.heat_max; c += opt.heat_step) cells.emplace_back(r, c);
  // Smallest first, so that a time-limited map is complete up to some size.
  std::stable_sort(cells.begin(), cells.end(),
                   [](const auto& a, const auto& b) { return a.first * a.second < b.first * b.second; });
  double s_per_cell = 0;  // wall seconds per matrix cell of the last measured shape
  for (auto [rows, cols] : cells) {
    const u64 n = rows * cols, cb = (cols + kTile - 1) / kTile;
    const u64 band = clamp_band(opt.band, cb);
    const char* skip = nullptr;
    if (2 * n * sizeof(float) + kMargin > device_free_bytes())
      skip = "too-large";
    else if (s_per_cell > 0 && since(t0) + s_per_cell * double(n) > deadline)
      skip = "time";
    DeviceMatrix in, out;
    if (!skip) {
      in = DeviceMatrix::try_alloc(n);
      if (in) out = DeviceMatrix::try_alloc(n);
      if (!out) {
        in.release();
        skip = "too-large";
      }
    }
    if (skip) {
      sw.heat.push_back(not_run("out-of-place", "nvidia", rows, cols, 0, skip));
      sw.heat.push_back(not_run("out-of-place", "v1bf", rows, cols, band, skip));
      continue;
    }
    const auto t1 = Clock::now();
    gpu.fill(in.get(), rows, cols);
    for (OutOfPlaceAlg a : {OutOfPlaceAlg::Nvidia, OutOfPlaceAlg::V1BF})
      sw.heat.push_back(gpu.out_of_place(a, in.get(), out.get(), rows, cols, opt.band, plan));
    progress(sw.heat.end()[-2]);
    progress(sw.heat.back());
    in.release();
    out.release();
    s_per_cell = since(t1) / double(n);
  }
}

}  // namespace

std::optional<std::string> EnumerationOptions::validate() const {
  const auto between = [](const std::string& name, long double v, long double lo,
                          long double hi) -> std::optional<std::string> {
    if (v >= lo && v <= hi) return std::nullopt;
    return name + ": must be between " + std::to_string(static_cast<unsigned long long>(lo)) + " and " +
           std::to_string(static_cast<unsigned long long>(hi));
  };
  for (const auto& err :
       {between("--budget-s", budget_s, 1, 86400), between("--runs", runs, 1, 1000),
        between("--heat-runs", heat_runs, 1, 1000), between("--warmup", warmup, 0, 100),
        between("--band", band, 1, u64{1} << 20), between("--region", region, 1, 1024),
        between("--max-order", max_order, 0, u64{1} << 22), between("--heat-step", heat_step, kTile, u64{1} << 20),
        between("--heat-max", heat_max, kTile, u64{1} << 20)})
    if (err) return err;
  if (heat_max < heat_step) return "--heat-max: must be at least --heat-step";
  if (heat_max / heat_step > 64) return "--heat-max: at most 64 steps of --heat-step per side";
  return std::nullopt;
}

u64 EnumerationRun::mismatched_cells() const {
  u64 bad = 0;
  for (const auto* v : {&square, &involution, &heat})
    for (const auto& r : *v) bad += r.mismatches;
  return bad;
}

EnumerationRun run_enumeration(const EnumerationOptions& opt) {
  const auto t0 = Clock::now();
  EnumerationRun sw;
  sw.device = device_line(device_info());
  std::fprintf(stderr, "%s\n", sw.device.c_str());
  Transposer gpu;
  // The order sweep gets about half of the budget, the 3D sweep a fifth, the heat map the rest.
  run_square(gpu, opt, t0, opt.budget_s * 0.5, sw);
  run_3d(gpu, opt, t0, opt.budget_s * 0.7, sw);
  run_heat(gpu, opt, t0, opt.budget_s, sw);
  sw.seconds = since(t0);
  return sw;
}

}  // namespace mmsim::gpu::enumeration
