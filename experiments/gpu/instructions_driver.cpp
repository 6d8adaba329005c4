#include "experiments/gpu/instructions_driver.h"

#include <cmath>
#include <cstdio>

#include "cuda/harness/device.h"
#include "cuda/instructions/gpu_instructions.h"
#include "experiments/ncu_csv.h"
#include "io/input_error.h"
#include "predict/instruction_bench.h"

namespace mmsim::gpu::instructions {

namespace {

std::vector<predict::InstructionBench> lone_benches() {
  std::vector<predict::InstructionBench> out;
  for (const auto& b : predict::instruction_benches())
    if (!b.many) out.push_back(b);
  return out;
}

// The columns every event-timed table ends with, and their cells for one bench: its launch's median,
// least and greatest ms, the plan, the SM clock and the check; with the bench's progress line.
const std::vector<std::string> kTimedColumns = {"ms", "ms_min", "ms_max", "runs", "warmup", "sm_clock_khz", "correct"};

void add_timed_row(report::Table& t, std::vector<report::Cell> row, const std::string& bench, const Timing& timing,
                   bool correct, const TimingPlan& plan, const DeviceInfo& d) {
  row.insert(row.end(), {timing.median_ms, timing.min_ms, timing.max_ms, static_cast<long long>(plan.runs),
                         static_cast<long long>(plan.warmups), static_cast<long long>(d.sm_clock_khz),
                         std::string(correct ? "yes" : "NO")});
  t.add_row(std::move(row));
  std::fprintf(stderr, "gpu instructions: %s: %.6g ms%s\n", bench.c_str(), timing.median_ms,
               correct ? "" : " WRONG output");
}

report::Table copy_table(const TimingPlan& plan, const DeviceInfo& d, bool& failed) {
  report::Table t;
  t.title = "Copy microbenchmarks: a few warps per SM staging their rows through shared memory";
  t.header = {"GPU: " + device_summary(d) +
              "; blocks of one warp, warps_per_sm of them on every SM, each copying its own rows of 32 words from "
              "global into shared memory and back out; ms of the launch (events, median)"};
  t.columns = {"bench", "rows", "warps_per_sm", "blocks"};
  t.columns.insert(t.columns.end(), kTimedColumns.begin(), kTimedColumns.end());
  for (const predict::CopyBench& b : predict::copy_benches()) {
    const CopyRun run = run_copy(b, plan);
    failed |= !run.correct;
    add_timed_row(t,
                  {b.name(), static_cast<long long>(b.rows), static_cast<long long>(b.warps_per_sm),
                   static_cast<long long>(run.blocks)},
                  b.name(), run.timing, run.correct, plan, d);
  }
  t.notes.push_back(
      "The copy is the A-S kernels' load before and store after their work (cuda/harness/warp_copy.cuh): word x by "
      "lane x mod 32, coalesced and conflict-free. Every launch reads the same input, which stays in the L2 between "
      "launches, as the A-S launches' does; the output is poisoned before each.");
  t.notes.push_back("correct: the output was the input, word for word (last timed launch).");
  return t;
}

report::Table tile_table(const TimingPlan& plan, const DeviceInfo& d, bool& failed) {
  report::Table t;
  t.title = "Tile microbenchmarks: loads in flight before a barrier, at 1 to 8 blocks per SM";
  t.header = {"GPU: " + device_summary(d) +
              "; blocks of threads_per_block threads, each thread loading `loads` words of its block's tile, a "
              "barrier, then storing its "
              "neighbour's; blocks_per_sm resident at once (shared_bytes of dynamic shared memory a block); ms of "
              "the launch (events, median)"};
  t.columns = {"bench", "loads", "blocks_per_sm", "mib", "in_place", "threads_per_block", "shared_bytes", "blocks"};
  t.columns.insert(t.columns.end(), kTimedColumns.begin(), kTimedColumns.end());
  for (const predict::TileBench& b : predict::tile_benches()) {
    const TileRun run = run_tile(b, plan);
    failed |= !run.correct;
    add_timed_row(
        t,
        {b.name(), static_cast<long long>(b.loads), static_cast<long long>(b.blocks_per_sm),
         static_cast<long long>(b.mib), std::string(b.in_place ? "yes" : "no"), static_cast<long long>(b.threads),
         static_cast<long long>(run.shared_bytes), static_cast<long long>(run.blocks)},
        b.name(), run.timing, run.correct, plan, d);
  }
  t.notes.push_back(
      "Each thread's loads are independent and coalesced (word j x threads + thread of its tile), all issued "
      "before its stores into shared memory; in_place: the output is the array read, else a second array. Before "
      "every launch the input is restored from a pristine copy (device to device) and a second output poisoned, "
      "so both settings start from the same L2.");
  t.notes.push_back("correct: every output word was its tile neighbour's input word (last timed launch).");
  return t;
}

report::Table stream_table(const TimingPlan& plan, const DeviceInfo& d, bool& failed) {
  report::Table t;
  t.title = "Stream microbenchmarks: a polynomial an element, held out from every fit";
  t.header = {"GPU: " + device_summary(d) + "; one thread an element, blocks of " +
              std::to_string(predict::kStreamThreads) +
              " threads; each loads x, evaluates the polynomial of degree `steps` (coefficients 0 .. steps - 1) by "
              "Horner's rule and stores it (shared_stride > 0: through a shared array and a barrier, taking the x of "
              "word (local mod (256 / stride)) x stride + local / (256 / stride)); ms of the launch (events, median)"};
  t.columns = {"bench", "steps", "log2_n", "n", "shared_stride", "blocks", "threads_per_block"};
  t.columns.insert(t.columns.end(), kTimedColumns.begin(), kTimedColumns.end());
  for (const predict::StreamBench& b : predict::stream_benches()) {
    const StreamRun run = run_stream(b, plan);
    failed |= !run.correct;
    add_timed_row(t,
                  {b.name(), static_cast<long long>(b.steps), static_cast<long long>(b.log2_n),
                   static_cast<long long>(b.n()), static_cast<long long>(b.shared_stride),
                   static_cast<long long>(run.blocks), static_cast<long long>(predict::kStreamThreads)},
                  b.name(), run.timing, run.correct, plan, d);
  }
  t.notes.push_back(
      "Nothing is fitted on these benches: they check the instruction term of a profile (mmsim fit-instructions) "
      "on kernels that both move memory and compute (experiments/instructions/compare.py stream).");
  t.notes.push_back(
      "Input element i is i mod 4096; the output is poisoned before every launch. 2^22 elements (16 MiB in and out) "
      "stay in the L2 between launches, 2^25 (128 MiB) do not.");
  t.notes.push_back("correct: every element was its input's polynomial (last timed launch).");
  return t;
}

}  // namespace

InstructionsRun run_instructions(const TimingPlan& plan) {
  const DeviceInfo d = device_info();
  InstructionsRun r;
  report::Table& t = r.table;
  t.title = "Instruction microbenchmarks: one warp's work besides memory, alone and 32 warps per SM";
  t.header = {"GPU: " + device_summary(d) +
              "; blocks of one warp; lone: one block on the GPU, cycles = clock64 "
              "around the loop (median of the timed launches); many: 32 blocks on every SM, ms of the launch "
              "(events, median)"};
  t.columns = {"bench",           "kind",         "congestion", "iterations", "setting",
               "blocks",          "cycles",       "cycles_min", "cycles_max", "ms",
               "ms_min",          "ms_max",       "runs",       "warmup",     "sim_steps",
               "sim_extra_slots", "sm_clock_khz", "correct"};
  for (const auto& b : predict::instruction_benches()) {
    const BenchRun run = run_bench(b, plan);
    const predict::SharedSteps sim = predict::simulated_shared_steps(b);
    r.failed |= !run.correct;
    const report::Cell none;
    t.add_row({b.name(), std::string(predict::to_string(b.kind)), static_cast<long long>(b.congestion),
               static_cast<long long>(b.iterations), std::string(b.many ? "many" : "lone"),
               static_cast<long long>(run.blocks), b.many ? none : report::Cell(run.cycles.median),
               b.many ? none : report::Cell(run.cycles.min), b.many ? none : report::Cell(run.cycles.max),
               b.many ? report::Cell(run.timing.median_ms) : none, b.many ? report::Cell(run.timing.min_ms) : none,
               b.many ? report::Cell(run.timing.max_ms) : none, static_cast<long long>(plan.runs),
               static_cast<long long>(plan.warmups), sim.steps, sim.extra_slots, static_cast<long long>(d.sm_clock_khz),
               std::string(run.correct ? "yes" : "NO")});
    std::fprintf(stderr, "gpu instructions: %s %s: %.6g %s%s\n", b.name().c_str(), b.many ? "many" : "lone",
                 b.many ? run.timing.median_ms : run.cycles.median, b.many ? "ms" : "cycles",
                 run.correct ? "" : " WRONG output");
  }
  t.notes.push_back(
      "Kinds (predict/instruction_bench.h): alu-chain, one dependent chain of integer multiply-adds and "
      "xorshifts; alu-parallel, four such chains; shared-chase, a = s[a]; shared-stream, independent loads of one "
      "word through a volatile pointer; branchy, a = s[a] then a branch on the word and the lane. congestion: "
      "lanes per bank of every shared access.");
  t.notes.push_back(
      "sim_steps, sim_extra_slots: the DMM's (w = 32) warp accesses of one warp's loop and their slots beyond one "
      "each (the sum of congestion - 1), from models/congestion.h; 0 for the ALU kinds.");
  t.notes.push_back("correct: every lane of every block wrote the host's reference value (last timed launch).");
  r.copies = copy_table(plan, d, r.failed);
  r.tiles = tile_table(plan, d, r.failed);
  r.streams = stream_table(plan, d, r.failed);
  return r;
}

int run_profiled_launches() {
  int wrong = 0;
  for (const auto& b : lone_benches())
    if (!launch_once(b)) {
      ++wrong;
      std::fprintf(stderr, "gpu instructions: %s: WRONG output\n", b.name().c_str());
    }
  for (const auto& b : predict::stream_benches())
    if (!launch_stream_once(b)) {
      ++wrong;
      std::fprintf(stderr, "gpu instructions: %s: WRONG output\n", b.name().c_str());
    }
  return wrong;
}

NcuTables instructions_ncu_tables(const std::string& ncu_csv) {
  const NcuMetrics by_id = read_ncu_metrics(ncu_csv);
  const auto benches = lone_benches();
  const auto streams = predict::stream_benches();
  const bool with_streams = by_id.size() == benches.size() + streams.size();
  if (by_id.size() != benches.size() && !with_streams)
    throw InputError("--ncu-csv: " + ncu_csv + ": " + std::to_string(by_id.size()) + " kernels profiled, expected " +
                     std::to_string(benches.size()) + " or " + std::to_string(benches.size() + streams.size()));
  const std::string metric = "smsp__inst_executed.sum";
  auto it = by_id.begin();
  const auto next = [&](const std::string& name) {
    const auto v = it->second.find(metric);
    if (v == it->second.end()) throw InputError("--ncu-csv: " + ncu_csv + ": no " + metric + " for " + name);
    ++it;
    return v->second;
  };
  NcuTables out;
  report::Table& t = out.benches;
  t.title = "Instruction microbenchmarks: the warp instructions one block executes, Nsight Compute";
  t.header = {"one launch of one block (one warp) per bench; " + metric + " over the whole kernel"};
  t.columns = {"bench", "iterations", "warp_instructions"};
  for (const auto& b : benches)
    t.add_row({b.name(), static_cast<long long>(b.iterations), static_cast<long long>(std::llround(next(b.name())))});
  t.notes.push_back("Kernels are matched to benches by Nsight Compute's launch ID, in the set's order.");
  report::Table& s = out.streams;
  s.title = "Stream microbenchmarks: the warp instructions each warp executes, Nsight Compute";
  s.header = {"one launch per bench over its n elements; " + metric + " over the whole kernel, and per warp"};
  s.columns = {"bench", "steps", "log2_n", "warps", "warp_instructions", "warp_instructions_per_warp"};
  for (const auto& b : with_streams ? streams : std::vector<predict::StreamBench>{}) {
    const double all = next(b.name());
    const std::uint64_t warps = b.n() / 32;
    s.add_row({b.name(), static_cast<long long>(b.steps), static_cast<long long>(b.log2_n),
               static_cast<long long>(warps), static_cast<long long>(std::llround(all)),
               all / static_cast<double>(warps)});
  }
  s.notes.push_back("Kernels are matched to benches by Nsight Compute's launch ID, after the lone benches.");
  return out;
}

}  // namespace mmsim::gpu::instructions
