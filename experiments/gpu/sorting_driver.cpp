#include "experiments/gpu/sorting_driver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "algorithms/registry.h"
#include "algorithms/sorting/inputs.h"
#include "cuda/harness/device.h"
#include "experiments/gpu/timing_parameters.h"
#include "experiments/ncu_csv.h"
#include "io/input_error.h"

namespace mmsim::gpu::sorting {

namespace {

namespace as = ::mmsim::sorting;

as::Task task_of(Algo a) {
  switch (a) {
    case Algo::Sort:
    case Algo::SortBitonic:
      return as::Task::Sort;
    case Algo::Partition:
    case Algo::PartitionDirect:
      return as::Task::Partition;
    case Algo::Permute:
    case Algo::PermuteDirect:
      return as::Task::Permute;
  }
  return as::Task::Sort;
}

// The simulator's input for (m, seed) (row i, column j at input[i m + j]) in the DMM layout of the
// kernels' slices (word j w + i).
void append_dmm_layout(const std::vector<Word>& row_major, std::uint32_t m, std::vector<std::uint32_t>& out) {
  const std::size_t base = out.size();
  out.resize(base + row_major.size());
  for (std::uint32_t i = 0; i < kW; ++i)
    for (std::uint32_t j = 0; j < m; ++j) out[base + std::size_t{j} * kW + i] = row_major[std::size_t{i} * m + j];
}

// What the output must be, in row-major order: the keys sorted, label x / m (each row full of its
// own label), or x itself (item x at row x / m, column x % m), as the simulator's checks.
std::vector<Word> expected_of(Algo a, std::uint32_t m, std::vector<Word> input) {
  switch (task_of(a)) {
    case as::Task::Sort:
      std::sort(input.begin(), input.end());
      return input;
    case as::Task::Partition:
      for (std::size_t x = 0; x < input.size(); ++x) input[x] = static_cast<Word>(x / m);
      return input;
    case as::Task::Permute:
      for (std::size_t x = 0; x < input.size(); ++x) input[x] = static_cast<Word>(x);
      return input;
  }
  return input;
}

// Instances' inputs (instance b from seed + b) and their expected outputs, both in the DMM layout.
struct Inputs {
  std::vector<std::uint32_t> in, expected;
};
Inputs make_inputs(Algo a, std::uint32_t m, std::uint32_t instances, std::uint64_t seed) {
  Inputs r;
  r.in.reserve(std::size_t{instances} * kW * m);
  r.expected.reserve(r.in.capacity());
  for (std::uint32_t b = 0; b < instances; ++b) {
    const auto input = as::random_input(task_of(a), kW, m, seed + b);
    append_dmm_layout(input, m, r.in);
    append_dmm_layout(expected_of(a, m, input), m, r.expected);
  }
  return r;
}

std::uint64_t mismatches(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want) {
  std::uint64_t bad = 0;
  for (std::size_t x = 0; x < want.size(); ++x) bad += got[x] != want[x];
  return bad;
}

double median_cycles(const std::vector<long long>& c) {
  std::vector<double> v(c.begin(), c.end());
  return gpu::summarize(std::move(v)).median;
}

// The simulator's run of the same algorithm on instance 0's input: its registry entry, w = 32.
RunReport simulate(Algo a, std::uint32_t m, std::uint64_t seed) {
  const AlgorithmEntry* e = find_algorithm(registry_name(a));
  if (!e) throw GpuError(std::string("the simulator has no algorithm ") + registry_name(a));
  return run_algorithm(*e, {{"w", static_cast<std::int64_t>(kW)},
                            {"m", static_cast<std::int64_t>(m)},
                            {"seed", static_cast<std::int64_t>(seed)}});
}

std::int64_t steps_of(const RunReport& r) {
  for (const auto& f : r.figures)
    if (f.name == "steps") return std::get<std::int64_t>(f.value);
  throw GpuError("the simulator's report has no steps figure");
}

std::vector<std::uint32_t> grid(const SortingOptions& o) {
  std::vector<std::uint32_t> ms;
  for (std::uint32_t m = o.min_m; m <= o.max_m; m *= 2) ms.push_back(m);
  return ms;
}

// The simulator's bitonic baseline stops at w m = 2^16 cells in the as-bounds table (its runtime
// grows as n log^2 n); the GPU's rows follow the same grid.
constexpr std::uint64_t kBitonicMaxCells = std::uint64_t{1} << 16;

bool in_table(Algo a, std::uint32_t m) { return a != Algo::SortBitonic || std::uint64_t{kW} * m <= kBitonicMaxCells; }

std::string shape(Algo a, std::uint32_t m) { return std::string(registry_name(a)) + " m = " + std::to_string(m); }

}  // namespace

std::optional<std::string> SortingOptions::validate() const {
  const auto pow2 = [](std::uint32_t m) { return m >= 1 && (m & (m - 1)) == 0; };
  if (!pow2(min_m) || min_m > 65536) return "--min-m: must be a power of two between 1 and 65536";
  if (!pow2(max_m) || max_m > 65536) return "--max-m: must be a power of two between 1 and 65536";
  if (min_m > max_m) return "--min-m: must be at most --max-m";
  if (runs < 1 || runs > 10000) return "--runs: must be between 1 and 10000";
  if (warmup < 0 || warmup > 1000) return "--warmup: must be between 0 and 1000";
  if (max_instances > 1000000) return "--max-instances: must be at most 1000000 (0: one full wave)";
  return std::nullopt;
}

SortingRun run_sorting(const SortingOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const DeviceInfo dev = device_info();
  SortingRun run;
  run.device = device_summary(dev);
  const TimingPlan plan{o.warmup, o.runs};
  for (const Algo a : kAlgos)
    for (const std::uint32_t m : grid(o)) {
      if (!in_table(a, m)) continue;
      if (!fits(a, m)) {
        run.notes.push_back(shape(a, m) + ": " + std::to_string(shared_bytes(a, m)) +
                            " bytes of shared memory, more than one block may have here (" +
                            std::to_string(dev.shared_per_block_optin) + ")");
        continue;
      }
      SortingRow row;
      row.algorithm = registry_name(a);
      row.m = m;
      row.instances = static_cast<std::uint32_t>(dev.sm_count * instances_per_sm(a, m));
      if (o.max_instances) row.instances = std::min(row.instances, o.max_instances);
      const Inputs in = make_inputs(a, m, row.instances, o.seed);
      const Batch full = run_batch(a, m, row.instances, in.in, plan, o.seed);
      row.mismatches = mismatches(full.out, in.expected);
      row.cycles = median_cycles(full.cycles);
      row.timing = full.timing;
      // Instance 0 alone on the GPU: no other warp competes for its SM's shared memory.
      const std::vector<std::uint32_t> first(in.in.begin(), in.in.begin() + std::ptrdiff_t{kW} * m);
      const Batch alone = run_batch(a, m, 1, first, {1, std::max(1, std::min(o.runs, 5))}, o.seed);
      row.mismatches +=
          mismatches(alone.out, std::vector<std::uint32_t>(in.expected.begin(), in.expected.begin() + first.size()));
      row.cycles_alone = static_cast<double>(alone.cycles.at(0));
      const RunReport sim = simulate(a, m, o.seed);
      row.sim_steps = steps_of(sim);
      row.sim_time_units = static_cast<std::int64_t>(sim.stats.time_units);
      row.sim_correct = sim.correct;
      run.failed = run.failed || row.mismatches != 0 || !row.sim_correct;
      std::fprintf(stderr, "gpu sorting: %-22s m = %5u: %u instances, %.0f cycles (%.0f alone), %lld steps, %s\n",
                   row.algorithm.c_str(), m, row.instances, row.cycles, row.cycles_alone,
                   static_cast<long long>(row.sim_steps), row.mismatches ? "WRONG" : "checked");
      run.rows.push_back(row);
    }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

report::Table sorting_table(const SortingOptions& o, const SortingRun& run) {
  report::Table t;
  t.title =
      "AS on the GPU: one warp per w x m matrix in shared memory, cycles per instance beside the simulator's steps";
  t.header = {
      "device: " + run.device,
      "w = 32 (one warp, p = w), m = " + std::to_string(o.min_m) + " .. " + std::to_string(o.max_m) +
          " (the as-bounds grid at w = 32), 32-bit keys; instance b's input from seed " + std::to_string(o.seed) +
          " + b, the simulator's run is instance 0's (seed " + std::to_string(o.seed) + ")",
      "instances: one full wave (SMs x blocks per SM by the occupancy calculator), one block of one warp each; "
      "gpu_cycles_per_instance: median over instances of clock64() around the algorithm (shared-memory load and "
      "store outside); gpu_cycles_alone: instance 0 launched alone; ms: median of " +
          std::to_string(o.runs) + " event-timed launches of the full wave, load and store included"};
  t.parameters = timing_parameters(run.device, o.runs, o.warmup, o.seed);
  t.columns = {"algorithm",
               "w",
               "m",
               "instances",
               "sim_steps",
               "gpu_cycles_per_instance",
               "cycles_per_step",
               "ms",
               "correct",
               "sim_time_units",
               "gpu_cycles_alone",
               "cycles_per_step_alone",
               "cycles_per_time_unit_alone"};
  for (const auto& r : run.rows) {
    const double steps = static_cast<double>(r.sim_steps);
    t.add_row(
        {r.algorithm, static_cast<long long>(kW), static_cast<long long>(r.m), static_cast<long long>(r.instances),
         static_cast<long long>(r.sim_steps), r.cycles, steps > 0 ? report::Cell(r.cycles / steps) : report::Cell(),
         r.timing.median_ms, std::string(r.mismatches == 0 && r.sim_correct ? "yes" : "NO"),
         static_cast<long long>(r.sim_time_units), r.cycles_alone,
         steps > 0 ? report::Cell(r.cycles_alone / steps) : report::Cell(),
         r.sim_time_units > 0 ? report::Cell(r.cycles_alone / static_cast<double>(r.sim_time_units)) : report::Cell()});
  }
  t.notes = run.notes;
  t.notes.push_back(
      "Kernels: as-sort (AS Sect. 2: Theorem 2 for m < 32, Theorem 1 at m = 32, the composition for m > 32; "
      "algorithms/sorting/sort.cpp, blocks.cpp), as-partition (radix-sorted rows, AS Corollary 1 and Theorem 1; "
      "Lemma 2 for m = 8, 16, Theorem 2's path for m = 4, where Lemma 2's assumption fails; partition.cpp, "
      "lemma2.cpp), as-permute (AS Theorem 4 and Appendix B's finish; permute.cpp, permute_finish.cpp; instance "
      "b draws from the simulator's generator seeded with seed + b, so instance 0 makes the simulator's run) and "
      "the baselines as-sort-bitonic, as-partition-direct and as-permute-direct (AS Sect. 1, baselines.cpp), step "
      "for step. sim_time_units: the sum of the steps' congestions (= sim_steps where the CAC holds).");
  t.notes.push_back(
      "as-partition-direct: the simulator hands each processor its destination (an oracle); the kernel computes "
      "it in registers (ballots and a shuffle per column), which adds instructions but no shared-memory access.");
  t.notes.push_back(
      "correct: every output cell of every instance equals the CPU reference (std::sort, the "
      "partition's or the permutation's target), and the simulator's own run checked itself.");
  return t;
}

std::vector<ProfiledLaunch> profiled_launches(const SortingOptions& o) {
  std::vector<ProfiledLaunch> out;
  for (const Algo a : kAlgos)
    for (const std::uint32_t m : grid(o))
      if (in_table(a, m) && fits(a, m)) out.push_back({a, m});
  return out;
}

std::vector<std::uint32_t> profiled_copies(const SortingOptions& o) {
  std::vector<std::uint32_t> ms;
  for (const auto& p : profiled_launches(o))
    if (std::find(ms.begin(), ms.end(), p.m) == ms.end()) ms.push_back(p.m);
  std::sort(ms.begin(), ms.end());
  return ms;
}

int run_profiled_launches(const SortingOptions& o) {
  int wrong = 0;
  for (const auto& p : profiled_launches(o)) {
    const Inputs in = make_inputs(p.algo, p.m, 1, o.seed);
    const Batch b = run_batch(p.algo, p.m, 1, in.in, {0, 1}, o.seed);
    if (mismatches(b.out, in.expected)) {
      ++wrong;
      std::fprintf(stderr, "gpu sorting: %s: WRONG output\n", shape(p.algo, p.m).c_str());
    }
  }
  for (const std::uint32_t m : profiled_copies(o))
    if (!run_copy_only(m)) {
      ++wrong;
      std::fprintf(stderr, "gpu sorting: the copy alone at m = %u: WRONG output\n", m);
    }
  return wrong;
}

report::Table sorting_ncu_table(const SortingOptions& o, const std::string& ncu_csv) {
  const NcuMetrics by_id = read_ncu_metrics(ncu_csv);
  const auto launches = profiled_launches(o);
  const auto copy_ms = profiled_copies(o);
  // A file made before the copies were profiled holds the algorithms' launches alone.
  const bool with_copies = by_id.size() == launches.size() + copy_ms.size();
  if (by_id.size() != launches.size() && !with_copies)
    throw InputError("--ncu-csv: " + ncu_csv + ": " + std::to_string(by_id.size()) + " kernels profiled, expected " +
                     std::to_string(launches.size() + copy_ms.size()));
  const std::string all_inst = "smsp__inst_executed.sum";
  std::map<std::uint32_t, double> copy_instructions;  // m -> warp instructions of the copy alone
  if (with_copies) {
    auto c = std::next(by_id.begin(), static_cast<std::ptrdiff_t>(launches.size()));
    for (const std::uint32_t m : copy_ms) {
      if (const auto v = c->second.find(all_inst); v != c->second.end()) copy_instructions[m] = v->second;
      ++c;
    }
  }
  report::Table t;
  t.title = "AS on the GPU: shared-memory bank conflicts, Nsight Compute beside the simulator";
  t.header = {"GPU: one instance (one block of one warp) per launch on instance 0's input (seed " +
                  std::to_string(o.seed) +
                  "); l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.sum over the whole kernel (its load and "
                  "store of the matrix are word x by lane x mod 32, conflict-free)",
              "simulator: the registry entry on the same input, w = 32; bank_conflicts = sum over steps of "
              "(congestion - 1), split by reads and writes"};
  t.columns = {"algorithm",
               "m",
               "ncu load conflicts",
               "sim read bank_conflicts",
               "ncu store conflicts",
               "sim write bank_conflicts",
               "ncu load instructions - m",
               "sim read steps",
               "ncu store instructions - m",
               "sim write steps",
               "conflicts equal",
               "instructions = steps",
               "ncu warp instructions",
               "copy warp instructions"};
  const std::string ld = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
  const std::string st = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
  const std::string ld_inst = "smsp__inst_executed_op_shared_ld.sum";
  const std::string st_inst = "smsp__inst_executed_op_shared_st.sum";
  auto it = by_id.begin();
  for (const auto& p : launches) {
    const RunReport sim = simulate(p.algo, p.m, o.seed);
    long long sim_ld = 0, sim_st = 0, ld_steps = 0, st_steps = 0;
    for (const auto& r : sim.stats.rounds) {
      if (r.warps == 0) continue;
      (r.op == Op::Read ? sim_ld : sim_st) += static_cast<long long>(r.bank_conflicts);
      ++(r.op == Op::Read ? ld_steps : st_steps);
    }
    // Besides the steps, the kernel copies the matrix in (m warp stores) and out (m warp loads).
    const auto metric = [&](const std::string& name, long long minus) -> report::Cell {
      const auto m = it->second.find(name);
      if (m == it->second.end()) return std::monostate{};
      return static_cast<long long>(std::llround(m->second)) - minus;
    };
    const auto copies = static_cast<long long>(p.m);
    const report::Cell g_ld = metric(ld, 0), g_st = metric(st, 0);
    const report::Cell i_ld = metric(ld_inst, copies), i_st = metric(st_inst, copies);
    const bool conflicts_equal = g_ld == report::Cell(sim_ld) && g_st == report::Cell(sim_st);
    report::Cell steps_equal;  // empty where ncu did not give the instruction counts
    if (!std::holds_alternative<std::monostate>(i_ld) && !std::holds_alternative<std::monostate>(i_st))
      steps_equal = std::string(i_ld == report::Cell(ld_steps) && i_st == report::Cell(st_steps) ? "yes" : "NO");
    const report::Cell all = metric(all_inst, 0);
    report::Cell copy;
    if (const auto c = copy_instructions.find(p.m); c != copy_instructions.end())
      copy = static_cast<long long>(std::llround(c->second));
    t.add_row({std::string(registry_name(p.algo)), static_cast<long long>(p.m), g_ld, sim_ld, g_st, sim_st, i_ld,
               ld_steps, i_st, st_steps, std::string(conflicts_equal ? "yes" : "NO"), steps_equal, all, copy});
    ++it;
  }
  t.notes.push_back("Kernels are matched to rows by Nsight Compute's launch ID, in launch order (algorithms x m).");
  t.notes.push_back(
      "ncu load / store instructions: smsp__inst_executed_op_shared_ld/st.sum, warp-level shared-memory "
      "instructions, less the m of the kernel's copy in (stores) and out (loads): one per simulated step when "
      "the kernel makes the simulator's steps. More where a step's lanes diverge: a warp whose lanes take "
      "different branches issues one instruction per branch for what the simulator counts as one step (for "
      "as-sort, likely its merge, which reads the head of whichever run advanced). Empty where ncu did not give the "
      "counter.");
  t.notes.push_back(
      "ncu warp instructions: smsp__inst_executed.sum of the launch, every warp instruction it executed; of them "
      "copy warp instructions: the same counter for a launch that copies the matrix in and out with no algorithm "
      "between "
      "(k_as_copy, same m). Their difference is what the algorithm executes between its clock64 reads, which "
      "predict/instruction_cost.h prices. Empty where ncu did not give the counter.");
  return t;
}

}  // namespace mmsim::gpu::sorting
