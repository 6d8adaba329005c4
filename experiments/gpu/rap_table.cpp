#include "experiments/gpu/rap_table.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "algorithms/layouts/transposes.h"
#include "experiments/gpu/timing_parameters.h"
#include "experiments/layouts/rap_tables.h"
#include "experiments/ncu_csv.h"
#include "io/input_error.h"
#include "models/layouts/matrix_layout.h"

namespace mmsim::gpu {

namespace {

using report::Cell;

double round_to(double v, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

// NMI Table III, GTX TITAN, double, ns: (raw, ras, rap) per transpose; pad and xor not measured.
constexpr double kTitanNs[3][3] = {{1595, 303.6, 154.5}, {1596, 297.1, 159.1}, {158.4, 427.4, 433.3}};

}  // namespace

report::Table rap_t3_gpu_table(const RapTableOptions& o) {
  if (o.sim.w && *o.sim.w != static_cast<int>(kW)) throw InputError("-w: the GPU transposes take w = 32 (32 banks)");
  experiments::TableOptions so = o.sim;
  so.w = static_cast<int>(kW);
  const report::Table sim = experiments::rap_t3(so);
  const std::uint64_t trials = so.trials ? static_cast<std::uint64_t>(*so.trials) : 2000;
  const DeviceInfo dev = device_info();

  report::Table t;
  t.title = "NMI Table III on this GPU: congestion, DMM time and GPU time of the 32 x 32 transposes";
  t.header = sim.header;
  t.header.push_back("device: " + device_summary(dev));
  t.header.push_back(
      "GPU: one block of 1024 threads per matrix (thread T(32 i + j) moves one cell, NMI Sect. VI), one "
      "block per SM; block b uses layout b mod " +
      std::to_string(trials) +
      " for ras and rap (the simulator's layouts, same seeds), the one layout for raw, pad and xor; " +
      std::to_string(o.gpu.reps) + " timed transposes per block (a into b, b into a, ...) after " +
      std::to_string(o.gpu.warmup_reps) +
      " untimed, each followed by a block barrier; ns = global timer "
      "and cycles = clock64 of thread 0 around them, divided by their number; median over blocks x " +
      std::to_string(o.gpu.launches) +
      " launches after a warm-up launch; both matrices poisoned in shared "
      "and global memory and checked cell by cell");
  t.columns = {"transpose", "layout",    "read congestion", "write congestion",
               "read max",  "write max", "time units (DMM)"};
  for (Elem e : o.elems) {
    const std::string ty = to_string(e);
    t.columns.push_back("GPU ns (" + ty + ", median)");
    t.columns.push_back("GPU ns (" + ty + ", mean)");
    t.columns.push_back("GPU cycles (" + ty + ", median)");
  }
  t.columns.push_back("GTX TITAN ns (paper, double)");
  t.columns.push_back("correct");
  t.parameters = timing_parameters(dev.name, -1, -1, std::nullopt);  // then rap-t3's own (w, l, trials, seed)
  t.parameters.insert(t.parameters.end(), sim.parameters.begin(), sim.parameters.end());
  std::vector<std::string> clocks;
  std::size_t row = 0;
  for (int ti = 0; ti < kSmemTransposes; ++ti)
    for (int ki = 0; ki < kSmemLayouts; ++ki, ++row) {
      const auto tr = static_cast<SmemTranspose>(ti);
      const auto k = static_cast<SmemLayout>(ki);
      const auto& s = sim.rows.at(row);
      // rap-t3's columns: transpose, layout, read, write, read max, write max, time units, GPU, correct.
      if (std::get<std::string>(s.at(0)) != layouts::to_string(transpose_of(tr)) ||
          std::get<std::string>(s.at(1)) != layouts::to_string(kind_of(k)))
        throw std::logic_error("rap-t3's rows are not in the order transposes x layouts");
      std::vector<Cell> out(s.begin(), s.begin() + 7);
      bool ok = std::get<std::string>(s.at(8)) == "yes";
      const std::vector<std::uint8_t> shifts = rap_shifts(k, so.seed, random_layout(k) ? trials : 1);
      for (Elem e : o.elems) {
        const RapMeasure m = rap_transpose(tr, k, e, shifts, o.gpu);
        out.push_back(round_to(m.median_ns, 1));
        out.push_back(round_to(m.mean_ns, 1));
        out.push_back(round_to(m.median_cycles, 0));
        ok = ok && m.correct;
        if (!m.correct)
          t.notes.push_back("- MISMATCH " + std::string(to_string(e)) + " " + layouts::to_string(transpose_of(tr)) +
                            " " + layouts::to_string(kind_of(k)) + ": " + m.detail);
        clocks.push_back(report::format_number(m.clock_mhz, 4));
      }
      if (ki <= 2)
        out.push_back(kTitanNs[ti][ki]);
      else
        out.push_back(std::monostate{});
      out.push_back(std::string(ok ? "yes" : "NO"));
      t.add_row(std::move(out));
    }
  const auto [lo, hi] =
      std::minmax_element(clocks.begin(), clocks.end(),
                          [](const std::string& a, const std::string& b) { return std::stod(a) < std::stod(b); });
  t.notes.push_back("SM clock during the timed loops (cycles / ns): " + *lo + " .. " + *hi + " MHz.");
  t.notes.push_back(
      "The simulator's bank is address mod 32 with one word per cell: that is the GPU's float exactly (32 "
      "banks of 4 bytes). A double spans two banks, so a warp's 256 bytes take at least two shared-memory "
      "wavefronts and a column of rap or ras (32 distinct columns, 16 bank pairs) costs 2 wavefronts, not 1.");
  t.notes.push_back(
      "The addresses are loop-invariant (each thread computes its read and write address once, from the "
      "shifts the host drew), so the GPU time is that of the shared-memory read, write and barrier; the paper's "
      "kernel unpacked r_i from registers on every transpose, an overhead not measured here.");
  t.notes.push_back(
      "The paper measured double on a GTX TITAN (compute capability 3.5, 8-byte bank mode): compare the "
      "ratios between layouts, not the ns.");
  for (const auto& n : sim.notes)
    if (n.rfind("The GPU column", 0) != 0) t.notes.push_back(n);
  return t;
}

int rap_profile(std::uint64_t seed) {
  std::vector<std::uint8_t> shifts;
  for (int k = 0; k < kSmemLayouts; ++k) {
    const auto row = rap_shifts(static_cast<SmemLayout>(k), seed, 1);
    shifts.insert(shifts.end(), row.begin(), row.end());
  }
  return rap_profile_launches(Elem::F32, shifts);
}

report::Table rap_ncu_table(const std::string& csv_path, std::uint64_t seed) {
  const NcuMetrics by_id = read_ncu_metrics(csv_path);
  const std::size_t expected = std::size_t{kSmemTransposes} * kSmemLayouts;
  if (by_id.size() != expected)
    throw InputError("--ncu-csv: " + csv_path + ": " + std::to_string(by_id.size()) + " kernels profiled, expected " +
                     std::to_string(expected));

  report::Table t;
  t.title = "Shared-memory bank conflicts of the 32 x 32 transposes: Nsight Compute on the GPU beside the simulator";
  t.header = {
      "GPU: float, one block, one transpose per kernel; l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.sum "
      "over the whole kernel (its other shared accesses are row accesses, conflict-free under every layout)",
      "simulator: DMM, w = 32, the same layout (seed " + std::to_string(seed) +
          " for ras and rap); bank_conflicts = slots - warps = sum over warps of (congestion - 1), the "
          "wavefronts beyond one per warp; extra_bank_requests = sum over warps and banks of (distinct "
          "addresses - 1), which an earlier version reported as bank_conflicts"};
  t.columns = {"transpose",
               "layout",
               "ncu load conflicts",
               "sim read bank_conflicts",
               "sim read extra_bank_requests",
               "ncu store conflicts",
               "sim write bank_conflicts",
               "sim write extra_bank_requests"};
  auto it = by_id.begin();
  const std::string ld = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
  const std::string st = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
  for (int ti = 0; ti < kSmemTransposes; ++ti)
    for (int ki = 0; ki < kSmemLayouts; ++ki, ++it) {
      const auto k = static_cast<SmemLayout>(ki);
      layouts::Draws draws(seed);
      const layouts::MatrixLayout layout(kind_of(k), kW, draws);
      const auto run = layouts::run_transpose(transpose_of(static_cast<SmemTranspose>(ti)), layout, 1, {});
      const auto& r = run.stats.rounds.at(0);
      const auto& w = run.stats.rounds.at(1);
      const auto metric = [&](const std::string& name) -> Cell {
        const auto m = it->second.find(name);
        if (m == it->second.end()) return std::monostate{};
        return static_cast<long long>(std::llround(m->second));
      };
      t.add_row({std::string(layouts::to_string(transpose_of(static_cast<SmemTranspose>(ti)))),
                 std::string(layouts::to_string(kind_of(k))), metric(ld), static_cast<long long>(r.bank_conflicts),
                 static_cast<long long>(r.extra_bank_requests), metric(st), static_cast<long long>(w.bank_conflicts),
                 static_cast<long long>(w.extra_bank_requests)});
    }
  t.notes.push_back(
      "Kernels are matched to rows by Nsight Compute's launch ID, in launch order (transposes x layouts).");
  return t;
}

}  // namespace mmsim::gpu
