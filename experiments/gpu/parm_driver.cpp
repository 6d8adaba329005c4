// The sweep and the table of `mmsim gpu parm` (experiments/gpu/parm_driver.h).
#include "experiments/gpu/parm_driver.h"

#include <chrono>
#include <cstdio>
#include <future>

#include "algorithms/bmmc/parm.h"
#include "cuda/bmmc/parm_plan.h"
#include "cuda/harness/device.h"
#include "cuda/harness/poison.h"
#include "experiments/gpu/timing_parameters.h"
#include "models/machines.h"
#include "sim/random.h"

namespace mmsim::gpu::bmmc {

namespace {

// The machine of the simulator's parm-sort table (its defaults: `mmsim table parm-sort`).
MachineParams table_hmm() { return {.model = ModelKind::Hmm, .w = 32, .l = 1, .L = 100, .k = 8}; }

struct Simulated {
  long long time_units = 0, launches = 0;
  bool sorted = false;
};

// The simulator's round-synchronous run of the same network and kernel (its own keys: the time
// units of these kernels do not depend on the values).
Simulated simulate(int bits, const ParmVariant& v, std::uint64_t seed) {
  const Machine machine(table_hmm());
  const mmsim::bmmc::BmmcOptions ko{v.kernel.value_or(mmsim::bmmc::KernelKind::Naive), {}};
  const auto s = mmsim::bmmc::run_parm_sort(machine, bits, ko, !v.kernel, seed, {Execution::RoundSynchronous, false});
  return {static_cast<long long>(s.stats.time_units), s.passes + s.compare_stages, s.sorted};
}

// Fresh keys below the poison (all ones), so that an unwritten cell never passes for a key.
std::vector<std::uint32_t> random_keys(std::uint64_t n, Rng& rng) {
  std::vector<std::uint32_t> k(n);
  for (auto& x : k) x = static_cast<std::uint32_t>(rng.next() % 0xFFFFFFFFull);
  return k;
}

}  // namespace

std::optional<std::string> ParmOptions::validate() const {
  const auto in = [](long long v, long long lo, long long hi) { return v >= lo && v <= hi; };
  const std::string bits_rule = " must be an integer in [12, " + std::to_string(kMaxBits) + "]";
  if (!in(min_bits, 12, kMaxBits)) return "--min-bits:" + bits_rule;
  if (!in(max_bits, 12, kMaxBits)) return "--max-bits:" + bits_rule;
  if (min_bits > max_bits) return "--min-bits: must not exceed --max-bits";
  if (!in(sim_max_bits, 0, 20)) return "--sim-max-bits: must be an integer in [0, 20]";
  if (seed > (std::uint64_t{1} << 62)) return "--seed: must be an integer in [0, 4611686018427387904]";
  if (!in(runs, 1, 10000)) return "--runs: must be an integer in [1, 10000]";
  if (!in(warmup, 0, 1000)) return "--warmup: must be an integer in [0, 1000]";
  if (!in(threads, 1, 1024)) return "--threads: must be an integer in [1, 1024]";
  return std::nullopt;
}

ParmRun run_parm(const ParmOptions& o) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  ParmRun out;
  out.device = device_summary(device_info());
  const std::vector<ParmVariant> variants = parm_variants();

  // Four arrays of the largest size (input, A, B, Mid), with room to spare for the runtime.
  const std::uint64_t free = device_free_bytes();
  int capacity = o.max_bits;
  while (capacity >= o.min_bits && 4 * (std::uint64_t{4} << capacity) + (std::uint64_t{512} << 20) > free) --capacity;
  if (capacity < o.min_bits) throw GpuError("memory: 2^" + std::to_string(o.min_bits) + " keys x 4 do not fit");
  if (capacity < o.max_bits)
    out.notes.push_back("Sizes above 2^" + std::to_string(capacity) + " skipped: four arrays of them do not fit.");
  ParmRunner runner(static_cast<std::uint32_t>(capacity));
  Rng rng(o.seed);

  for (int b = o.min_bits; b <= capacity; ++b) {
    // The simulations of this size run on host threads while the GPU works.
    std::vector<std::future<Simulated>> sims;
    if (b <= o.sim_max_bits && !o.ncu_launches)
      for (const auto& v : variants) sims.push_back(std::async(std::launch::async, simulate, b, v, o.seed));
    for (std::size_t vi = 0; vi < variants.size(); ++vi) {
      const ParmVariant& v = variants[vi];
      const std::vector<std::uint32_t> keys = random_keys(std::uint64_t{1} << b, rng);
      runner.set_keys(static_cast<std::uint32_t>(b), keys);
      ParmBuffer result = ParmBuffer::A;
      const std::vector<ParmLaunch> launches = parm_launches(b, v, result);
      ParmRow r;
      r.bits = b;
      r.variant = v.name();
      r.launches = static_cast<int>(launches.size());
      if (o.ncu_launches) {
        runner.run_once(launches);
      } else {
        r.t = runner.run(launches, {o.warmup, o.runs});
      }
      const std::uint32_t* got = runner.fetch(result);
      std::vector<std::uint32_t> want = keys;
      std::sort(want.begin(), want.end());
      const Mismatches m = compare_cells(want.size(), o.threads, [&](std::uint64_t i) { return got[i] == want[i]; });
      r.mismatches = m.count;
      if (m.count)
        r.first_mismatch = "cell " + std::to_string(m.first) + " holds " + std::to_string(got[m.first]) +
                           ", sorted order has " + std::to_string(want[m.first]);
      out.failed = out.failed || m.count != 0;
      out.rows.push_back(r);
    }
    for (std::size_t vi = 0; vi < sims.size(); ++vi) {
      const Simulated s = sims[vi].get();
      ParmRow& r = out.rows[out.rows.size() - variants.size() + vi];
      r.simulated = true;
      r.sim_time_units = s.time_units;
      r.sim_launches = s.launches;
      if (!s.sorted || s.launches != r.launches) {
        out.failed = true;
        out.notes.push_back(
            "2^" + std::to_string(b) + " " + r.variant + ": the simulator " +
            (s.sorted ? "launched " + std::to_string(s.launches) + " kernels, the GPU " + std::to_string(r.launches)
                      : std::string("did not sort")) +
            ".");
      }
    }
    for (std::size_t vi = 0; vi < variants.size(); ++vi) {
      const ParmRow& r = out.rows[out.rows.size() - variants.size() + vi];
      std::fprintf(stderr, "2^%d %-16s %4d launches %10.4f ms  %s\n", b, r.variant.c_str(), r.launches, r.t.median_ms,
                   r.mismatches ? ("WRONG: " + r.first_mismatch).c_str() : "checked");
    }
  }
  out.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  return out;
}

ParmTables parm_tables(const ParmOptions& o, const ParmRun& run) {
  ParmTables t;
  report::Table& md = t.md;
  md.title = "BDS Sect. 7: the parm sorting network on the GPU";
  md.header = {
      "device: " + run.device + "; seed " + std::to_string(o.seed) + "; " + std::to_string(o.runs) +
          " timed runs after " + std::to_string(o.warmup) + " warm-ups; 32-bit unsigned keys, fresh for every run",
      "times: CUDA events around the launches only (median); before every run the input is copied in and the other "
      "two arrays are poisoned; after the runs every cell is compared with std::sort of the same keys",
      "simulated: `mmsim table parm-sort`'s HMM (w = 32, l = 1, L = 100, k = 8), round-synchronous, the same "
      "network and kernel, up to 2^" +
          std::to_string(o.sim_max_bits)};
  md.columns = {
      "log2 n", "variant", "launches", "median ms", "us per launch", "simulated time units", "simulated launches",
      "correct"};
  t.csv.parameters = timing_parameters("", -1, o.warmup, o.seed);  // device and runs: columns
  t.csv.columns = {"device",         "log2_n",       "n",       "variant",    "launches",
                   "median_ms",      "min_ms",       "max_ms",  "runs",       "us_per_launch",
                   "sim_time_units", "sim_launches", "correct", "mismatches", "first_mismatch"};
  for (const auto& r : run.rows) {
    const double per = r.launches ? 1000.0 * r.t.median_ms / r.launches : 0;
    report::Cell sim, sim_l;
    if (r.simulated) {
      sim = r.sim_time_units;
      sim_l = r.sim_launches;
    }
    const std::string ok = r.mismatches ? "no" : "yes";
    md.add_row({static_cast<long long>(r.bits), r.variant, static_cast<long long>(r.launches),
                report::format_number(r.t.median_ms, 4), report::format_number(per, 3), sim, sim_l, ok});
    t.csv.add_row({run.device, static_cast<long long>(r.bits), static_cast<long long>(1LL << r.bits), r.variant,
                   static_cast<long long>(r.launches), r.t.median_ms, r.t.min_ms, r.t.max_ms,
                   static_cast<long long>(r.t.runs), per, sim, sim_l, ok, static_cast<long long>(r.mismatches),
                   r.first_mismatch});
  }
  std::uint64_t wrong = 0;
  for (const auto& r : run.rows) wrong += r.mismatches ? 1 : 0;
  md.notes = {
      std::to_string(wrong) + " of " + std::to_string(run.rows.size()) + " runs had a wrong output cell.",
      "The host flattens the network with the simulator's own parm_sort_stages (parm m f = bmmc(A^-1) o parm "
      "2^(n-1) f o bmmc(A), consecutive permutations fused); each permutation runs as the GPU passes of the "
      "kernel (naive: one; tiled: one per tiled factor, two for a BMMC that is not tiled), each compare-exchange "
      "column as one launch of one thread per adjacent pair (8-byte loads and stores). direct skips the "
      "permutations: each column reads and writes its pairs where the un-permuted array holds them.",
      "launches: GPU launches of one sort; the simulator's kernel count is shown beside it and must agree."};
  for (const auto& n : run.notes) md.notes.push_back(n);
  return t;
}

}  // namespace mmsim::gpu::bmmc
