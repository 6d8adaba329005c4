#include "experiments/gpu/kni_tables.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <map>
#include <optional>

#include "algorithms/offline/entries.h"
#include "algorithms/offline/schedule_file.h"
#include "algorithms/permutations/permutation.h"
#include "experiments/gpu/timing_parameters.h"
#include "sim/random.h"

namespace mmsim::gpu {

namespace {

using report::Cell;

const std::vector<std::string> kPerms{"identical", "random", "transpose", "shuffle", "bit-reversal"};

// KNI Table 2 (GeForce GTX 680), in the paper's printed unit, as reference data for the
// ratios: Kasagi, Nakano, Ito, IEICE Trans. Inf. & Syst. E97-D(12), 2014, Sect. 8, Table 2(a)
// float at sqrt(n) = 512..4096 and 2(b) double at sqrt(n) = 256..2048. Order: kPerms.
struct PaperRow {
  const char* algorithm;
  double v[5][4];
};
constexpr std::uint32_t kPaperFloatSides[4] = {512, 1024, 2048, 4096};
constexpr std::uint32_t kPaperDoubleSides[4] = {256, 512, 1024, 2048};
constexpr PaperRow kPaperFloat[] = {
    {"d-designated",
     {{2.48, 9.06, 33.2, 130},
      {15.1, 93.9, 425, 1756},
      {21.2, 127, 636, 2850},
      {3.05, 11.5, 44.7, 186},
      {15.6, 95.3, 459, 2328}}},
    {"s-designated",
     {{2.49, 9.13, 33.1, 129},
      {15.7, 89.8, 398, 1644},
      {17.8, 87.0, 370, 2037},
      {2.47, 9.09, 33.6, 133},
      {20.8, 96.6, 414, 1870}}},
    {"scheduled",
     {{11.7, 46.9, 173, 780},
      {11.7, 47.0, 173, 780},
      {11.7, 46.9, 173, 780},
      {11.7, 46.9, 174, 780},
      {11.7, 47.0, 173, 780}}},
    {"in-place",
     {{0, 0, 0, 0}, {0, 0, 0, 0}, {2.13, 8.70, 36.5, 149}, {2.44, 9.28, 38.9, 146}, {2.66, 10.1, 41.4, 157}}},
};
constexpr PaperRow kPaperDouble[] = {
    {"d-designated",
     {{1.07, 3.57, 13.5, 54.6},
      {2.98, 21.6, 104, 452},
      {2.07, 22.2, 134, 638},
      {1.44, 5.14, 19.7, 82.2},
      {3.00, 22.0, 108, 559}}},
    {"s-designated",
     {{1.07, 3.60, 13.8, 54.6},
      {3.40, 21.3, 100, 424},
      {2.99, 15.4, 80.3, 358},
      {1.08, 3.57, 13.6, 54.6},
      {3.36, 25.0, 104, 498}}},
    {"scheduled",
     {{5.07, 16.9, 66.6, 275},
      {5.09, 17.0, 66.6, 275},
      {5.12, 17.0, 66.6, 275},
      {5.09, 17.0, 66.7, 275},
      {5.09, 17.0, 66.6, 275}}},
    {"in-place",
     {{0, 0, 0, 0}, {0, 0, 0, 0}, {1.00, 3.04, 12.6, 56.9}, {0.92, 3.29, 12.5, 51.7}, {1.10, 3.88, 14.1, 70.3}}},
};

// The paper's ratio to its own D-designated identical at the same size, when it measured both.
std::optional<double> paper_ratio(Elem e, std::uint32_t side, const std::string& perm, const std::string& algorithm) {
  const auto* sides = e == Elem::F32 ? kPaperFloatSides : kPaperDoubleSides;
  const auto* rows = e == Elem::F32 ? kPaperFloat : kPaperDouble;
  int col = -1;
  for (int c = 0; c < 4; ++c)
    if (sides[c] == side) col = c;
  const auto pi = std::find(kPerms.begin(), kPerms.end(), perm) - kPerms.begin();
  if (col < 0 || pi >= static_cast<long>(kPerms.size())) return std::nullopt;
  std::string family = algorithm.rfind("scheduled", 0) == 0 ? "scheduled" : algorithm;
  for (int r = 0; r < 4; ++r)
    if (family == rows[r].algorithm && rows[r].v[pi][col] > 0) return rows[r].v[pi][col] / rows[0].v[0][col];
  return std::nullopt;
}

double gbps(const SweepRow& r) {
  return 2.0 * static_cast<double>(std::uint64_t{r.side} * r.side * elem_bytes(r.elem)) / (r.m.median_ms * 1e-3) / 1e9;
}

TileMap tile_map(const std::string& perm, std::uint32_t side) {
  TileMap m;
  m.side = side;
  m.log_n = 2 * static_cast<unsigned>(std::countr_zero(side));
  m.kind = perm == "transpose" ? TileKind::Transpose : perm == "shuffle" ? TileKind::Shuffle : TileKind::BitReversal;
  return m;
}

// Progress lines carry the seconds since the first one, so that a run's log shows where its time went.
void progress(const SweepOptions& o, const std::string& line) {
  static const auto start = std::chrono::steady_clock::now();
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.verbose) std::fprintf(stderr, "gpu: [%7.1f s] %s\n", t, line.c_str());
}

std::string ms_text(const Measure& m) { return report::format_number(m.median_ms, 4) + " ms"; }

}  // namespace

Sweep run_sweep(const SweepOptions& o, const std::function<void(const Sweep&)>& after_size) {
  Sweep s;
  s.options = o;
  s.device = device_info();
  const unsigned th = o.host_threads;
  for (std::uint32_t side = o.min_side; side <= o.max_side; side *= 2) {
    const std::uint64_t n = std::uint64_t{side} * side;
    // Benches for each type: the sweep skips a size whose arrays do not fit the device.
    std::map<Elem, std::unique_ptr<Bench>> benches;
    std::map<Elem, double> copy_ms;
    for (Elem e : o.elems) {
      const std::uint64_t need = n * (4ull * elem_bytes(e) + 4 + 12);
      if (need > s.device.global_bytes * 9 / 10) {
        s.notes.push_back(std::string(to_string(e)) + " at sqrt(n) = " + std::to_string(side) + ": skipped, needs " +
                          std::to_string(need >> 20) + " MiB of device memory");
        continue;
      }
      BenchConfig cfg;
      cfg.runs = o.runs;
      cfg.host_threads = th;
      benches[e] = std::make_unique<Bench>(n, e, cfg);
      SweepRow r{e, side, "-", "copy", benches[e]->copy(), 0, "16-byte vectors"};
      copy_ms[e] = r.m.median_ms;
      r.copy_ms = r.m.median_ms;
      progress(o, std::string(to_string(e)) + " sqrt(n)=" + std::to_string(side) + " copy " + ms_text(r.m));
      s.rows.push_back(r);
    }
    if (benches.empty()) continue;
    std::vector<std::uint32_t> row_step;
    BankSchedule row_bank;
    const auto add = [&](Elem e, const std::string& perm, const std::string& algo, Measure m, std::string note = "") {
      progress(o, std::string(to_string(e)) + " sqrt(n)=" + std::to_string(side) + " " + algo + " " + perm + " " +
                      ms_text(m) + (m.correct ? "" : " MISMATCH"));
      s.rows.push_back({e, side, perm, algo, std::move(m), copy_ms[e], std::move(note)});
    };
    // The schedules come from algorithms/offline's builder (the one the simulator's `scheduled`
    // runs), single-threaded per permutation: the permutations' builds run side by side on the host
    // while the GPU measures the earlier permutations. Their time is excluded, as in KNI Sect. 8.
    const bool scheduled = side <= o.max_scheduled_side;
    std::vector<Permutation> perms;
    std::vector<std::future<OfflineSchedule>> builds;
    if (scheduled) {
      for (const std::string& perm : kPerms) perms.push_back(named_permutation(perm, n, o.seed));
      for (const Permutation& P : perms)
        builds.push_back(std::async(std::launch::async, [&P, side] { return make_offline_schedule(P.p, side); }));
    }
    for (std::size_t pi = 0; pi < kPerms.size(); ++pi) {
      const std::string& perm = kPerms[pi];
      // The builds read perms[pi] until their future is ready: referred to, never moved.
      std::optional<Permutation> own;
      if (!scheduled) own = named_permutation(perm, n, o.seed);
      const Permutation& P = scheduled ? perms[pi] : *own;
      for (auto& [e, bench] : benches) {
        add(e, perm, "d-designated", bench->d_designated(P.p));
        add(e, perm, "s-designated", bench->s_designated(P.p));
        if (perm != "identical" && perm != "random") add(e, perm, "in-place", bench->tiled(tile_map(perm, side), P.p));
      }
      if (!scheduled) continue;
      const OfflineSchedule sched = builds[pi].get();
      if (perm == "random") {  // a row-wise step, with its S/D tables, for the row-wise benchmarks
        row_step = sched.step[0];
        row_bank = sched.bank[0];
      }
      const std::string pre = "schedule precomputed on the host by the offline builder in " +
                              report::format_number(sched.seconds_colouring, 3) + " s (row colouring) + " +
                              report::format_number(sched.seconds_tables, 3) + " s (S/D tables), not in the time";
      for (auto& [e, bench] : benches) {
        const bool paper_fits = 2ull * side * elem_bytes(e) <= s.device.shared_per_block_optin;
        const GpuSchedule g = build_schedule(sched, e, paper_fits);
        if (paper_fits) {
          add(e, perm, "scheduled-paper", bench->scheduled_paper(g, P.p), pre);
          add(e, perm, "scheduled-pipelined", bench->scheduled_paper(g, P.p, true), pre);
        }
        add(e, perm, "scheduled-fused", bench->scheduled_fused(g, P.p),
            pre + "; gather arrays " + report::format_number(g.seconds_arrays, 3) + " s; " +
                std::to_string(g.fused_rows[0]) + " rows per block");
      }
    }
    if (!scheduled)
      s.notes.push_back(
          "sqrt(n) = " + std::to_string(side) +
          ": the scheduled permutation and the row-wise and "
          "column-wise benchmarks not run: the host's schedule of " +
          std::to_string(n) + " cells is past this sweep's --max-scheduled-side (" +
          std::to_string(o.max_scheduled_side) +
          " by default, n = 2^24, so that gpu-reproduce fits one 10-minute call: the offline builder "
          "is single-threaded and its time grows as n log n, 4 to 7 times longer per doubling of sqrt(n))");
    // Row-wise and column-wise permutations (benchmark table): step 1 of the random permutation's
    // schedule, with the S/D tables the offline builder made for it.
    if (!row_step.empty()) {
      const BankSchedule& bs = row_bank;
      for (auto& [e, bench] : benches) {
        if (2ull * side * elem_bytes(e) > s.device.shared_per_block_optin) continue;
        add(e, "random's step 1", "row-wise", bench->row_wise(row_step, bs, side));
        add(e, "random's step 1", "row-wise-pipelined", bench->row_wise(row_step, bs, side, true));
        add(e, "random's step 1 on columns", "column-wise", bench->column_wise(row_step, bs, side));
      }
    }
    if (after_size) after_size(s);
  }
  return s;
}

bool all_correct(const Sweep& s) {
  return std::all_of(s.rows.begin(), s.rows.end(), [](const SweepRow& r) { return r.m.correct; });
}

namespace {

const SweepRow* find_row(const Sweep& s, Elem e, std::uint32_t side, const std::string& perm, const std::string& algo) {
  for (const auto& r : s.rows)
    if (r.elem == e && r.side == side && r.permutation == perm && r.algorithm == algo) return &r;
  return nullptr;
}

std::vector<std::string> device_header(const DeviceInfo& d) {
  return {"device: " + d.name + " (compute capability " + std::to_string(d.cc_major) + "." +
              std::to_string(d.cc_minor) + ", " + std::to_string(d.sm_count) + " SMs, " +
              std::to_string(d.global_bytes >> 20) + " MiB, L2 " + std::to_string(d.l2_bytes >> 20) + " MiB)",
          "times: CUDA events around the launches only, median of the timed runs after " + std::to_string(kWarmups) +
              " warm-ups, output poisoned before every run and checked cell by cell against the CPU reference"};
}

// KNI Sect. 8 goals of the issue, evaluated at n >= 2^24 (sqrt(n) >= 4096).
std::vector<std::string> goal_notes(const Sweep& s) {
  std::vector<std::string> out;
  for (Elem e : s.options.elems)
    for (std::uint32_t side = 4096; side <= s.options.max_side; side *= 2) {
      const std::string at = std::string(to_string(e)) + ", n = 2^" + std::to_string(2 * std::countr_zero(side));
      // Scheduled: for every permutation faster than both conventional algorithms on random and bit-reversal.
      double conv = 1e300;
      for (const char* perm : {"random", "bit-reversal"})
        for (const char* algo : {"d-designated", "s-designated"})
          if (const auto* r = find_row(s, e, side, perm, algo)) conv = std::min(conv, r->m.median_ms);
      for (const char* algo : {"scheduled-paper", "scheduled-pipelined", "scheduled-fused"}) {
        double worst = 0;
        bool any = false;
        for (const auto& perm : kPerms)
          if (const auto* r = find_row(s, e, side, perm, algo)) {
            worst = std::max(worst, r->m.median_ms);
            any = true;
          }
        if (!any || conv > 1e299) {
          out.push_back("- goal " + std::string(algo) + " faster than both conventional on random and bit-reversal (" +
                        at + "): not measured");
          continue;
        }
        out.push_back("- goal " + std::string(algo) + " faster than both conventional on random and bit-reversal (" +
                      at + "): " + (worst < conv ? "HELD" : "MISSED") + " (slowest permutation " +
                      report::format_number(worst, 4) + " ms vs fastest conventional " +
                      report::format_number(conv, 4) + " ms)");
      }
      for (const char* perm : {"transpose", "shuffle", "bit-reversal"}) {
        const auto* r = find_row(s, e, side, perm, "in-place");
        if (!r) continue;
        const double x = r->m.median_ms / r->copy_ms;
        out.push_back("- goal in-place " + std::string(perm) + " within 1.25x of the copy (" + at + "): " +
                      (x <= 1.25 ? "HELD" : "MISSED") + " (" + report::format_number(x, 3) + "x the copy's time)");
      }
    }
  return out;
}

}  // namespace

report::Table kasagi_t2_table(const Sweep& s) {
  report::Table t;
  t.title = "KNI Table 2 on this GPU: offline permutation times, float and double";
  t.header = device_header(s.device);
  t.header.push_back(
      "ratio: to D-designated identical of the same type and size (the paper's comparison); "
      "% of copy: the copy's time over the kernel's; GTX 680 ratio: the same ratio from the paper's Table 2");
  t.parameters = timing_parameters(s.device.name, s.options.runs, kWarmups, s.options.seed);
  t.columns = {"type", "sqrt(n)", "permutation",          "algorithm", "ms", "ratio to D identical", "% of copy",
               "GB/s", "correct", "GTX 680 ratio (paper)"};
  for (const auto& r : s.rows) {
    if (r.algorithm == "copy" || r.algorithm.rfind("row-wise", 0) == 0 || r.algorithm == "column-wise") continue;
    const auto* base = find_row(s, r.elem, r.side, "identical", "d-designated");
    Cell ratio, paper;
    if (base) ratio = r.m.median_ms / base->m.median_ms;
    if (auto p = paper_ratio(r.elem, r.side, r.permutation, r.algorithm)) paper = *p;
    t.add_row({std::string(to_string(r.elem)), static_cast<long long>(r.side), r.permutation, r.algorithm,
               r.m.median_ms, ratio, 100.0 * r.copy_ms / r.m.median_ms, gbps(r),
               std::string(r.m.correct ? "yes" : "NO"), paper});
  }
  t.notes.push_back("Copy (the 100 % line), ms:");
  for (const auto& r : s.rows)
    if (r.algorithm == "copy")
      t.notes.push_back("- " + std::string(to_string(r.elem)) + " sqrt(n) = " + std::to_string(r.side) + ": " +
                        report::format_number(r.m.median_ms, 4) + " ms, " + report::format_number(gbps(r), 4) +
                        " GB/s");
  t.notes.push_back(
      "The paper's times are from a GTX 680 and its unit is not comparable: compare ratios. sqrt(n) <= 1024 "
      "(4 MiB of float) fits in the L2 cache of this GPU, so small sizes measure the cache, not the DRAM.");
  t.notes.push_back(
      "scheduled-paper: the paper's five kernels (row-wise, transpose, row-wise, transpose, row-wise; "
      "16-bit s and d). scheduled-pipelined: the same five kernels, the row-wise one issuing all of a thread's "
      "global loads (cells and both index arrays) before its first shared-memory store. scheduled-fused: three "
      "kernels, each transpose folded into the row-wise kernel "
      "before it, one 16-bit gather index per cell. All three run the schedule of algorithms/offline's builder, "
      "the one the simulator's `scheduled` runs (the S/D tables as they are; the gather arrays derived from "
      "them). The schedule's precomputation is excluded (KNI Sect. 8) and given in the benchmark table.");
  for (const auto& g : goal_notes(s)) t.notes.push_back(g);
  for (const auto& n : s.notes) t.notes.push_back(n);
  return t;
}

report::Table bench_table(const Sweep& s) {
  report::Table t;
  t.title = "GPU benchmark: every kernel's time, achieved bandwidth and % of the copy";
  t.header = device_header(s.device);
  t.header.push_back(
      "GB/s: 2 n x element size (payload read and written once) over the median time; index arrays are "
      "extra traffic not counted");
  t.parameters = timing_parameters(s.device.name, s.options.runs, kWarmups, s.options.seed);
  t.columns = {"type",   "sqrt(n)", "n",    "kernel",    "permutation", "launches", "median ms",
               "min ms", "max ms",  "GB/s", "% of copy", "correct",     "note"};
  for (const auto& r : s.rows)
    t.add_row({std::string(to_string(r.elem)), static_cast<long long>(r.side),
               static_cast<long long>(std::uint64_t{r.side} * r.side), r.algorithm, r.permutation,
               static_cast<long long>(r.m.kernels), r.m.median_ms, r.m.min_ms, r.m.max_ms, gbps(r),
               100.0 * r.copy_ms / r.m.median_ms, std::string(r.m.correct ? "yes" : "NO " + r.m.detail), r.note});
  for (const auto& g : goal_notes(s)) t.notes.push_back(g);
  for (const auto& n : s.notes) t.notes.push_back(n);
  return t;
}

report::Table device_table(const DeviceInfo& d) {
  report::Table t;
  t.title = "The GPU the tables ran on";
  t.columns = {"property", "value"};
  const auto ver = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  t.add_row({std::string("name"), d.name});
  t.add_row({std::string("compute capability"), std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)});
  t.add_row({std::string("SMs"), static_cast<long long>(d.sm_count)});
  t.add_row({std::string("global memory MiB"), static_cast<long long>(d.global_bytes >> 20)});
  t.add_row({std::string("L2 MiB"), static_cast<long long>(d.l2_bytes >> 20)});
  t.add_row(
      {std::string("shared memory per block (opt-in) KiB"), static_cast<long long>(d.shared_per_block_optin >> 10)});
  t.add_row({std::string("shared memory per SM KiB"), static_cast<long long>(d.shared_per_sm >> 10)});
  t.add_row({std::string("SM clock MHz (maximum)"), static_cast<long long>(d.sm_clock_khz / 1000)});
  t.add_row({std::string("memory clock MHz"), static_cast<long long>(d.memory_clock_khz / 1000)});
  t.add_row({std::string("memory bus bits"), static_cast<long long>(d.bus_width_bits)});
  t.add_row({std::string("CUDA driver"), ver(d.driver_version)});
  t.add_row({std::string("CUDA runtime"), ver(d.runtime_version)});
  return t;
}

// ---------------------------------------------------------------------------------------------
// One permutation, optionally with the schedule file that `mmsim schedule` writes.

// The tables of a schedule file are the S/D tables as they are: the GPU runs exactly what the
// simulator's `scheduled` runs from the same file.
GpuSchedule from_schedule_file(const offline::ThreeStepSchedule& t, Elem e) {
  if (t.w != static_cast<int>(kW)) throw InputError("--schedule: the GPU kernels need a schedule made for w = 32");
  if (t.N > 65536) throw InputError("--schedule: sqrt(n) must be at most 65536 for 16-bit indices");
  return build_schedule(offline_schedule_of(t), e, true);
}

report::Table run_one_table(const RunOneOptions& o) {
  const DeviceInfo dev = device_info();
  const std::uint64_t n = o.perm.size();
  const std::uint64_t side = exact_sqrt(n);
  // The scheduled kernels need a square of a power of two; the conventional ones run at any n.
  const bool square = side >= kW && (side & (side - 1)) == 0;
  if (!square && o.schedule_file) throw InputError("--schedule: sqrt(n) must be a power of two of at least 32");
  GpuSchedule g;
  std::string source =
      "no schedule: sqrt(n) is not a power of two of at least 32, so only the conventional kernels run";
  if (square && o.schedule_file) {
    g = from_schedule_file(offline::read_schedule_file(*o.schedule_file, o.perm.p, static_cast<int>(kW)), o.elem);
    source = "schedule read from " + *o.schedule_file;
  } else if (square) {
    g = build_schedule(o.perm.p, static_cast<std::uint32_t>(side), o.elem, true);
    source = "schedule computed on the host";
  }
  BenchConfig cfg;
  cfg.runs = o.runs;
  Bench bench(n, o.elem, cfg);
  report::Table t;
  t.title = "One permutation on the GPU: " + o.perm.name + ", n = " + std::to_string(n) + ", " + to_string(o.elem);
  t.header = device_header(dev);
  t.header.push_back(source);
  t.columns = {"algorithm", "launches", "median ms", "GB/s", "% of copy", "correct"};
  const Measure copy = bench.copy();
  const auto add = [&](const std::string& name, const Measure& m) {
    const double gb = 2.0 * static_cast<double>(n * elem_bytes(o.elem)) / (m.median_ms * 1e-3) / 1e9;
    t.add_row({name, static_cast<long long>(m.kernels), m.median_ms, gb, 100.0 * copy.median_ms / m.median_ms,
               std::string(m.correct ? "yes" : "NO " + m.detail)});
  };
  add("copy", copy);
  add("d-designated", bench.d_designated(o.perm.p));
  add("s-designated", bench.s_designated(o.perm.p));
  if (!square) return t;
  if (2ull * side * elem_bytes(o.elem) <= dev.shared_per_block_optin)
    add("scheduled-paper", bench.scheduled_paper(g, o.perm.p));
  if (2ull * side * elem_bytes(o.elem) <= dev.shared_per_block_optin)
    add("scheduled-pipelined", bench.scheduled_paper(g, o.perm.p, true));
  add("scheduled-fused", bench.scheduled_fused(g, o.perm.p));
  return t;
}

}  // namespace mmsim::gpu
