// Every time below comes from the engine (round-synchronous, and asynchronous beside it), the copy that
// "% of copy" divides by included; the closed forms of bmmc_time.h are printed next to it with the
// difference. GPU columns (BDS
// measures % of a copy's bandwidth on a GPU) belong to the GPU harness and are left out here.
#include "experiments/bmmc/bmmc_experiments.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "algorithms/bmmc/bmmc_time.h"
#include "algorithms/bmmc/parm.h"
#include "experiments/figures.h"
#include "experiments/tables.h"
#include "io/input_error.h"

namespace mmsim::experiments {

namespace {

MachineParams machine_of(const TableOptions& o) {
  const MachineParams m = table_machine(o);
  if ((m.w & (m.w - 1)) != 0) throw InputError("w: the BMMC kernels need a power of two");
  return m;
}

// log2 of a table's n (a power of two in [lo, hi]).
int bits_option(const TableOptions& o, std::uint64_t fallback, int lo, int hi) {
  const std::uint64_t n = o.n.value_or(fallback);
  if (n == 0 || (n & (n - 1)) != 0) throw InputError("-n: a power of two");
  const int bits = __builtin_ctzll(n);
  if (bits < lo || bits > hi)
    throw InputError("-n: between 2^" + std::to_string(lo) + " and 2^" + std::to_string(hi) + " here");
  return bits;
}

std::string header_line(const MachineParams& m, const std::string& extra) {
  return "HMM w = " + std::to_string(m.w) + ", l = " + std::to_string(m.l) + ", L = " + std::to_string(m.L) +
         ", k = " + std::to_string(m.k) + ", " + extra;
}

// The three workloads of BDS Fig. 9-11.
enum class Workload { RandomBpc, RandomBmmc, BitReversal };
const char* name_of(Workload wl) {
  switch (wl) {
    case Workload::RandomBpc:
      return "random BPC";
    case Workload::RandomBmmc:
      return "random BMMC";
    case Workload::BitReversal:
      return "bit-reversal";
  }
  return "?";
}
f2::Bmmc make(Workload wl, int bits, std::uint64_t seed) {
  Rng rng(seed);
  switch (wl) {
    case Workload::RandomBpc:
      return f2::random_bpc(bits, rng);
    case Workload::RandomBmmc:
      return f2::random_bmmc(bits, rng);
    case Workload::BitReversal:
      return f2::bit_reversal(bits);
  }
  return f2::identity(bits);
}
const std::vector<Workload> kWorkloads{Workload::RandomBpc, Workload::RandomBmmc, Workload::BitReversal};

// Means over trials of one (workload, kernel) cell.
struct Cell {
  double time = 0, predicted = 0, async = 0, passes = 0;
  long long max_diff = 0;
  bool correct = true;
  int trials = 0;
};

Cell measure(const Machine& machine, Workload wl, int bits, bmmc::KernelKind k, std::uint64_t seed, int trials,
             bool async) {
  Cell c;
  c.trials = wl == Workload::BitReversal ? 1 : trials;
  for (int i = 0; i < c.trials; ++i) {
    const f2::Bmmc f = make(wl, bits, seed + static_cast<std::uint64_t>(i));
    const bmmc::BmmcRun s = bmmc::run_bmmc(machine, f, {k, {}}, {Execution::RoundSynchronous, false});
    c.time += static_cast<double>(s.stats.time_units);
    c.predicted += static_cast<double>(s.predicted);
    c.passes += static_cast<double>(s.passes.size());
    c.max_diff = std::max(c.max_diff, static_cast<long long>(std::llabs(s.stats.time_units - s.predicted)));
    c.correct = c.correct && s.correct;
    if (async) {
      const bmmc::BmmcRun a = bmmc::run_bmmc(machine, f, {k, {}}, {Execution::Asynchronous, false});
      c.async += static_cast<double>(a.stats.time_units);
      c.correct = c.correct && a.correct;
    }
  }
  c.time /= c.trials;
  c.predicted /= c.trials;
  c.async /= c.trials;
  c.passes /= c.trials;
  return c;
}

double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

}  // namespace

report::Table bmmc_optimisations_table(const TableOptions& o) {
  const MachineParams m = machine_of(o);
  const int bits = bits_option(o, std::uint64_t{1} << 18, std::max(1, __builtin_ctz(static_cast<unsigned>(m.w))), 22);
  const int trials = o.trials.value_or(3);
  if (trials < 1 || trials > 100) throw InputError("--trials: between 1 and 100");
  const Machine machine(m);
  const std::int64_t n = std::int64_t{1} << bits;
  // The yardstick is a copy simulated on the same machine (round-synchronous, as the time units it
  // divides); its closed form is printed beside it in the notes.
  const auto copy = static_cast<std::int64_t>(bmmc::simulated_copy_time(machine, bits, Execution::RoundSynchronous));

  report::Table t;
  t.title = "BDS Fig. 9-10 on the simulated HMM: impact of each optimisation";
  t.header = {header_line(m, "n = 2^" + std::to_string(bits) + ", seeds " + std::to_string(o.seed) + ".." +
                                 std::to_string(o.seed + static_cast<std::uint64_t>(trials) - 1) +
                                 " (random rows: means over the seeds)"),
              "time units simulated round-synchronously (async beside); closed forms from algorithms/bmmc/bmmc_time.h"};
  // `trials` is a column: bit-reversal is one matrix whatever --trials asks.
  t.parameters = with_machine({{"n", integer_cell(std::uint64_t{1} << bits)}}, m, {{"seed", integer_cell(o.seed)}});
  t.columns = {"permutation",      "kernel",
               "trials",           "passes",
               "time units",       "closed form",
               "max |difference|", "speed-up over naive",
               "time / copy",      "% of copy bandwidth",
               "async time units", "correct"};
  for (Workload wl : kWorkloads) {
    double naive = 0;
    for (bmmc::KernelKind k : bmmc::all_kernels()) {
      const Cell c = measure(machine, wl, bits, k, o.seed, trials, true);
      if (k == bmmc::KernelKind::Naive) naive = c.time;
      // A copy moves the data once; a two-pass BMMC moves it twice (BDS Sect. 6, Fig. 10).
      const double bandwidth = 100.0 * c.passes * static_cast<double>(copy) / c.time;
      t.add_row({std::string(name_of(wl)), std::string(bmmc::to_string(k)), static_cast<long long>(c.trials),
                 round3(c.passes), round3(c.time), round3(c.predicted), c.max_diff, round3(naive / c.time),
                 round3(c.time / static_cast<double>(copy)), round3(bandwidth), round3(c.async),
                 std::string(c.correct ? "yes" : "NO")});
    }
  }
  t.notes.push_back("copy (b[i] <- a[i]) simulated on this machine: " + std::to_string(copy) +
                    " time units (closed form 2n/w + 2L - 2 = " + std::to_string(closed_form::copy(n, m.w, m.L)) +
                    ").");
  t.notes.push_back(
      "tile-banks on a BPC is KNI Sect. 5's in-place regular permutation: 2n/w + 2 S + 2L - 2 "
      "with S the busiest DMM's slots (n/(kw) when k divides the blocks).");
  t.notes.push_back(
      "iters repeats each round 2^iters times over n/2^iters cells: the HMM charges nothing for index "
      "arithmetic (what iters saves on a GPU), so round-synchronously it only adds (2^iters - 1)(L - 1) to "
      "each global phase; asynchronous execution hides that.");
  t.notes.push_back(
      "BDS applies iters to BPCs only (an instruction-count argument); the simulator runs it on "
      "tiled BMMC passes too, shown for completeness.");
  t.notes.push_back("GPU % of copy is measured by the GPU harness, not here.");
  return t;
}

report::Table bmmc_sizes_table(const TableOptions& o) {
  const MachineParams m = machine_of(o);
  const int t_bits = __builtin_ctz(static_cast<unsigned>(m.w));
  const int max_bits = bits_option(o, std::uint64_t{1} << 18, std::max(1, t_bits), 22);
  const int min_bits = std::max(t_bits, std::min(10, max_bits));
  // A random BPC's naive time depends on which address bits land on the bank bits, so one matrix per
  // size made the speed-up zig-zag with the draw (2^16: 3.0, 2^17: 6.5, 2^18: 3.7 from seed 1): each
  // size now averages several seeds and keeps the spread of the per-seed speed-up.
  const int trials = o.trials.value_or(20);
  if (trials < 1 || trials > 100) throw InputError("--trials: between 1 and 100");
  const Machine machine(m);
  report::Table t;
  t.title = "BDS Fig. 11 on the simulated HMM: speed-up of the optimised kernels over the naive one";
  t.header = {header_line(m, "n = 2^" + std::to_string(min_bits) + "..2^" + std::to_string(max_bits) + ", seeds " +
                                 std::to_string(o.seed) + ".." +
                                 std::to_string(o.seed + static_cast<std::uint64_t>(trials) - 1) +
                                 " (random rows: one matrix per seed, the same for both kernels)"),
              "optimised: tile-banks-iters for BPCs, tile-banks for BMMCs (BDS Sect. 6)",
              "time units: means over the seeds; speed-up: mean naive time / mean optimised time; min and max: of "
              "the per-seed speed-up"};
  t.parameters = with_machine({{"n", integer_cell(std::uint64_t{1} << max_bits)}}, m, {{"seed", integer_cell(o.seed)}});
  t.columns = {"log2 n",           "permutation",          "trials",         "naive time units",
               "optimised kernel", "optimised time units", "closed form",    "speed-up",
               "min speed-up",     "max speed-up",         "async speed-up", "correct"};
  for (int bits = min_bits; bits <= max_bits; ++bits)
    for (Workload wl : kWorkloads) {
      const bmmc::KernelKind best =
          wl == Workload::RandomBmmc ? bmmc::KernelKind::TileBanks : bmmc::KernelKind::TileBanksIters;
      const int runs = wl == Workload::BitReversal ? 1 : trials;  // bit-reversal is one matrix
      Cell naive, opt;
      double lo = 0, hi = 0;
      for (int i = 0; i < runs; ++i) {
        const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(i);
        const Cell a = measure(machine, wl, bits, bmmc::KernelKind::Naive, seed, 1, true);
        const Cell b = measure(machine, wl, bits, best, seed, 1, true);
        const double speed_up = a.time / b.time;
        lo = i == 0 ? speed_up : std::min(lo, speed_up);
        hi = i == 0 ? speed_up : std::max(hi, speed_up);
        naive.time += a.time, naive.async += a.async, naive.correct = naive.correct && a.correct;
        opt.time += b.time, opt.async += b.async, opt.predicted += b.predicted, opt.correct = opt.correct && b.correct;
      }
      for (Cell* c : {&naive, &opt}) c->time /= runs, c->async /= runs, c->predicted /= runs;
      t.add_row({static_cast<long long>(bits), std::string(name_of(wl)), static_cast<long long>(runs),
                 round3(naive.time), std::string(bmmc::to_string(best)), round3(opt.time), round3(opt.predicted),
                 round3(naive.time / opt.time), round3(lo), round3(hi), round3(naive.async / opt.async),
                 std::string(naive.correct && opt.correct ? "yes" : "NO")});
    }
  t.notes.push_back("GPU speed-ups (BDS Fig. 11, 2^20..2^30 cells) come from the GPU harness, not here.");
  return t;
}

report::Table parm_sort_table(const TableOptions& o) {
  const MachineParams m = machine_of(o);
  const int t_bits = __builtin_ctz(static_cast<unsigned>(m.w));
  const int max_bits = bits_option(o, std::uint64_t{1} << 12, std::max(1, t_bits), 16);
  const int min_bits = std::max({1, t_bits, max_bits - 4});
  const Machine machine(m);
  report::Table t;
  t.title = "BDS Sect. 7: the parm sorting network on the simulated HMM";
  t.header = {header_line(m, "n = 2^" + std::to_string(min_bits) + "..2^" + std::to_string(max_bits) +
                                 ", keys from seed " + std::to_string(o.seed))};
  t.parameters = with_machine({{"n", integer_cell(std::uint64_t{1} << max_bits)}}, m, {{"seed", integer_cell(o.seed)}});
  t.columns = {"log2 n",        "permutations", "compare-exchange columns", "BMMC permutations",
               "kernel passes", "time units",   "async time units",         "speed-up over direct",
               "sorted"};
  for (int bits = min_bits; bits <= max_bits; ++bits) {
    double direct = 0;
    for (int mode = 0; mode < 3; ++mode) {
      const bool is_direct = mode == 0;
      const bmmc::BmmcOptions ko{mode == 2 ? bmmc::KernelKind::TileBanks : bmmc::KernelKind::Naive, {}};
      const auto s = bmmc::run_parm_sort(machine, bits, ko, is_direct, o.seed, {Execution::RoundSynchronous, false});
      const auto a = bmmc::run_parm_sort(machine, bits, ko, is_direct, o.seed, {Execution::Asynchronous, false});
      const double time = static_cast<double>(s.stats.time_units);
      if (is_direct) direct = time;
      t.add_row({static_cast<long long>(bits), std::string(is_direct ? "direct (none)" : bmmc::to_string(ko.kernel)),
                 static_cast<long long>(s.compare_stages), static_cast<long long>(s.permutations),
                 static_cast<long long>(s.passes), static_cast<long long>(s.stats.time_units),
                 static_cast<long long>(a.stats.time_units), round3(direct / time),
                 std::string(s.sorted && a.sorted ? "yes" : "NO")});
    }
  }
  t.notes.push_back(
      "direct: each compare-exchange column reads and writes the cells where the un-permuted array "
      "holds its pairs (casual accesses); otherwise parm m f = bmmc(A^-1) o parm 2^(n-1) f o bmmc(A), "
      "consecutive permutations fused, and every column reads adjacent pairs (coalesced).");
  return t;
}

std::vector<std::string> bmmc_optimisations_figure(const std::string& out_dir) {
  const report::Table t = bmmc_optimisations_table({});
  write_file(out_dir + "/bmmc-optimisations.csv", report::to_csv(t));
  // One line per workload, one column per kernel: a clustered histogram.
  std::ostringstream dat;
  dat << "workload naive tile tile-banks tile-banks-iters\n";
  for (std::size_t r = 0; r < t.rows.size(); r += 4) {
    dat << '"' << std::get<std::string>(t.rows[r][0]) << '"';
    for (std::size_t k = 0; k < 4; ++k) dat << ' ' << std::get<double>(t.rows[r + k][4]);
    dat << "\n";
  }
  write_file(out_dir + "/bmmc-optimisations.dat", dat.str());
  run_gnuplot(out_dir, "bmmc-optimisations", GnuplotVariables().images("output", "bmmc-optimisations", {"png", "svg"}),
              "bmmc-optimisations");
  return {out_dir + "/bmmc-optimisations.csv", out_dir + "/bmmc-optimisations.dat", out_dir + "/bmmc-optimisations.gp",
          out_dir + "/bmmc-optimisations.png", out_dir + "/bmmc-optimisations.svg"};
}

std::vector<std::string> bmmc_sizes_figure(const std::string& out_dir) {
  const report::Table t = bmmc_sizes_table({});
  write_file(out_dir + "/bmmc-sizes.csv", report::to_csv(t));
  // One line per size; per workload: speed-up, lowest and highest per-seed speed-up, seeds.
  std::ostringstream dat;
  dat << "log2n random-BPC min max seeds random-BMMC min max seeds bit-reversal min max seeds\n";
  for (std::size_t r = 0; r + 2 < t.rows.size(); r += 3) {
    dat << std::get<long long>(t.rows[r][0]);
    for (std::size_t k = 0; k < 3; ++k) {
      const auto& row = t.rows[r + k];
      dat << ' ' << std::get<double>(row[7]) << ' ' << std::get<double>(row[8]) << ' ' << std::get<double>(row[9])
          << ' ' << std::get<long long>(row[2]);
    }
    dat << "\n";
  }
  write_file(out_dir + "/bmmc-sizes.dat", dat.str());
  const long long seeds = std::get<long long>(t.rows.front()[2]);
  run_gnuplot(out_dir, "bmmc-sizes",
              GnuplotVariables().images("output", "bmmc-sizes", {"png", "svg"}).number("seeds", seeds), "bmmc-sizes");
  return {out_dir + "/bmmc-sizes.csv", out_dir + "/bmmc-sizes.dat", out_dir + "/bmmc-sizes.gp",
          out_dir + "/bmmc-sizes.png", out_dir + "/bmmc-sizes.svg"};
}

}  // namespace mmsim::experiments
