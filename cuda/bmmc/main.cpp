// mmsim_gpu_bmmc: random BPC, random BMMC and bit-reversal permutations on the GPU with the naive
// and tiled kernels of papers/002, from 2^20 to 2^30 floats, timed against a copy in the same run
// and checked cell by cell; writes bmmc.md, bmmc.csv and the matrices used (papers/002 Fig. 9-11).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "algorithms/bmmc/f2.h"
#include "algorithms/bmmc/kernels.h"
#include "algorithms/input_error.h"
#include "cuda/bmmc/gpu_bmmc.h"
#include "cuda/bmmc/plan.h"
#include "cuda/gpu.h"
#include "report/table.h"
#include "sim/random.h"

namespace {

using mmsim::InputError;
using mmsim::bmmc::KernelKind;
namespace f2 = mmsim::f2;
namespace gb = mmsim::gpu::bmmc;
namespace report = mmsim::report;

// Sizes up to 2^kManyRunsBits are timed kManyRuns times at least.
constexpr int kManyRunsBits = 24, kManyRuns = 100;

struct Options {
  std::string out = "results/gpu";
  int min_bits = 20, max_bits = 30;
  std::uint64_t seed = 1;
  int warmup = 3, runs = 20;
  double budget_s = 55;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
};

const char* kUsage =
    "usage: mmsim_gpu_bmmc [--out DIR] [--min-bits B] [--max-bits B] [--seed S] [--runs R] [--warmup W]\n"
    "                      [--budget-s SECONDS] [--threads T]\n"
    "  Times the naive, tile, tile-banks and tile-banks-iters kernels of papers/002 on random BPC,\n"
    "  random BMMC and bit-reversal permutations of 2^B floats (default B = 20..30) against a copy,\n"
    "  checks every output cell, and writes DIR/bmmc.md, DIR/bmmc.csv and DIR/bmmc-matrices.txt.\n";

long long parse_int(const std::string& flag, const std::string& v, long long lo, long long hi) {
  std::size_t used = 0;
  long long x = 0;
  try {
    x = std::stoll(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty() || x < lo || x > hi)
    throw InputError(flag + ": must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got '" +
                     v + "')");
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    static const char* const known[] = {"--out",  "--min-bits", "--max-bits", "--seed",
                                        "--runs", "--warmup",   "--budget-s", "--threads"};
    if (std::find(std::begin(known), std::end(known), flag) == std::end(known))
      throw InputError(flag + ": unknown option (see --help)");
    if (i + 1 >= argc) throw InputError(flag + ": needs a value");
    const std::string v = argv[++i];
    if (flag == "--out")
      o.out = v;
    else if (flag == "--min-bits")
      o.min_bits = static_cast<int>(parse_int(flag, v, 12, gb::kMaxBits));
    else if (flag == "--max-bits")
      o.max_bits = static_cast<int>(parse_int(flag, v, 12, gb::kMaxBits));
    else if (flag == "--seed")
      o.seed = static_cast<std::uint64_t>(parse_int(flag, v, 0, 1LL << 62));
    else if (flag == "--runs")
      o.runs = static_cast<int>(parse_int(flag, v, 20, 10000));
    else if (flag == "--warmup")
      o.warmup = static_cast<int>(parse_int(flag, v, 0, 1000));
    else if (flag == "--budget-s")
      o.budget_s = static_cast<double>(parse_int(flag, v, 1, 100000));
    else
      o.threads = static_cast<unsigned>(parse_int(flag, v, 1, 1024));
  }
  if (o.out.empty()) throw InputError("--out: must not be empty");
  if (o.min_bits > o.max_bits) throw InputError("--min-bits: must not exceed --max-bits");
  return o;
}

// dst[A x + c] must hold source cell x for every x; equivalently, since f is a bijection, cell y must
// hold source cell f^-1(y), which reads dst in order (fast on the host) instead of scattered. f^-1 is
// evaluated from three tables of 2^11 images each (it is affine), built with the host algebra,
// independent of the kernels' index arithmetic.
class Reference {
 public:
  explicit Reference(const f2::Bmmc& f) {
    const f2::Bmmc inv = f2::inverse(f);
    c_ = static_cast<std::uint32_t>(inv.c);
    for (int k = 0; k < 3; ++k) {
      t_[k].resize(kChunk);
      for (std::uint32_t v = 0; v < kChunk; ++v)
        t_[k][v] = static_cast<std::uint32_t>(inv.a.apply((f2::BitVector{v} << (11 * k)) & f2::low_bits(inv.bits())));
    }
  }
  /// The source cell whose value belongs in cell y.
  std::uint32_t source_of(std::uint32_t y) const {
    return t_[0][y & (kChunk - 1)] ^ t_[1][(y >> 11) & (kChunk - 1)] ^ t_[2][y >> 22] ^ c_;
  }

 private:
  static constexpr std::uint32_t kChunk = 1u << 11;
  std::array<std::vector<std::uint32_t>, 3> t_;
  std::uint32_t c_ = 0;
};

struct Check {
  std::uint64_t mismatches = 0;
  std::string first;
};

Check check_output(const std::uint32_t* out, std::uint64_t n, const Reference& ref, unsigned threads) {
  std::vector<std::uint64_t> bad(threads, 0), first(threads, ~0ull);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const std::uint64_t lo = n * t / threads, hi = n * (t + 1) / threads;
      for (std::uint64_t y = lo; y < hi; ++y)
        if (out[y] != mmsim::gpu::source_bits32(ref.source_of(static_cast<std::uint32_t>(y))) && bad[t]++ == 0)
          first[t] = y;
    });
  for (auto& th : pool) th.join();
  Check c;
  for (unsigned t = 0; t < threads; ++t) {
    if (bad[t] && c.mismatches == 0)
      c.first = "cell " + std::to_string(first[t]) + " should hold source cell " +
                std::to_string(ref.source_of(static_cast<std::uint32_t>(first[t])));
    c.mismatches += bad[t];
  }
  return c;
}

struct Perm {
  std::string name;
  f2::Bmmc f;
  double goal_pct;  // papers/002 Sect. 6's goals: BPC 90 %, BMMC 85 % of the copy
};

struct Row {
  int bits = 0;
  std::string perm, kernel, overlap;
  int passes = 0, iters = 0;
  gb::Timing t;
  double copy_ms = 0;
  Check check;
  double goal_pct = 0;
  double pct() const { return 100.0 * passes * copy_ms / t.median_ms; }
};

std::string overlaps(const std::vector<gb::Pass>& passes) {
  if (passes.front().naive) return "-";
  std::string s;
  for (const auto& p : passes) s += (s.empty() ? "" : "+") + std::to_string(__builtin_popcount(p.args.over));
  return s;
}

const Row* find(const std::vector<Row>& rows, int bits, const std::string& perm, KernelKind k) {
  for (const auto& r : rows)
    if (r.bits == bits && r.perm == perm && r.kernel == mmsim::bmmc::to_string(k)) return &r;
  return nullptr;
}

// A number, or an empty cell where there is none (g++ 12 warns falsely on a conditional of variants).
report::Cell optional_cell(bool present, double v) {
  report::Cell c;
  if (present) c = v;
  return c;
}
report::Cell optional_cell(const Row* present, double v) { return optional_cell(present != nullptr, v); }

// For the Markdown tables: percentages to 0.1, speed-ups to 0.01, times to 4 significant digits.
double round_to(double v, double step) { return std::round(v / step) * step; }
std::string ms_text(double v) { return report::format_number(v, 4); }

std::string goal_status(const Row& r) {
  if (r.check.mismatches) return "wrong output";
  return r.pct() >= r.goal_pct ? "held" : "missed";
}

void write_results(const Options& o, const std::string& device, const std::vector<Row>& rows,
                   const std::vector<int>& sizes, const std::vector<std::string>& perms,
                   const std::vector<std::string>& notes, const std::string& matrices) {
  const std::string config = "device: " + device + "; seed " + std::to_string(o.seed) + "; " + std::to_string(o.runs) +
                             " timed runs (at least " + std::to_string(kManyRuns) + " up to 2^" +
                             std::to_string(kManyRunsBits) + ") after " + std::to_string(o.warmup) +
                             " warm-ups; float elements";
  std::vector<std::string> header = {
      config,
      "times: CUDA events around the launches only (median); the output is poisoned before every run (the middle "
      "array of a two-pass BMMC before the first) and every cell checked on the CPU against dst[A x + c] = src[x]",
      "% of copy: effective bandwidth, launches x 2 n x 4 bytes over the median time, against the copy's 2 n x 4 "
      "bytes (16-byte vectors, same run, same size), as in papers/002 Fig. 10: a two-pass BMMC moves the array twice",
      "goals (papers/002 Sect. 6: 92 % and 86 % on an RTX 4090): BPC >= 90 %, BMMC >= 85 %, judged on "
      "tile-banks-iters; bit-reversal is held to the BPC goal"};

  report::Table pct;
  pct.title = "BPC and BMMC permutations on the GPU: % of the copy's effective bandwidth";
  pct.header = header;
  pct.columns = {"log2 n", "permutation", "launches (tiled)", "over bits per pass", "copy ms",
                 "naive",  "tile",        "tile-banks",       "tile-banks-iters",   "goal %",
                 "goal"};
  report::Table ms;
  ms.title = "Median time in ms per kernel (papers/002 Fig. 9)";
  ms.columns = {"log2 n", "permutation", "copy", "naive", "tile", "tile-banks", "tile-banks-iters"};
  report::Table speed;
  speed.title = "Speed-up of tile-banks-iters over naive by size (papers/002 Fig. 11)";
  speed.columns = {"log2 n"};
  for (const auto& p : perms) speed.columns.push_back(p);

  report::Table csv;
  csv.columns = {"device",
                 "log2_n",
                 "n",
                 "permutation",
                 "kernel",
                 "launches",
                 "over_bits",
                 "iters",
                 "median_ms",
                 "min_ms",
                 "max_ms",
                 "runs",
                 "copy_ms",
                 "pct_of_copy_bandwidth",
                 "copy_over_time_pct",
                 "speedup_over_naive",
                 "goal_pct",
                 "goal",
                 "correct",
                 "mismatches",
                 "first_mismatch"};

  int held = 0, judged = 0;
  for (int b : sizes) {
    std::vector<report::Cell> srow{static_cast<long long>(b)};
    for (const auto& p : perms) {
      const Row* tiled = find(rows, b, p, KernelKind::TileBanksIters);
      const Row* naive = find(rows, b, p, KernelKind::Naive);
      if (!tiled || !naive) {
        srow.emplace_back();
        continue;
      }
      std::vector<report::Cell> prow{static_cast<long long>(b), p, static_cast<long long>(tiled->passes),
                                     tiled->overlap, ms_text(tiled->copy_ms)};
      std::vector<report::Cell> mrow{static_cast<long long>(b), p, ms_text(tiled->copy_ms)};
      for (KernelKind k : mmsim::bmmc::all_kernels()) {
        const Row* r = find(rows, b, p, k);
        prow.emplace_back(optional_cell(r, r ? round_to(r->pct(), 0.1) : 0));
        if (r)
          mrow.emplace_back(ms_text(r->t.median_ms));
        else
          mrow.emplace_back();
      }
      prow.emplace_back(tiled->goal_pct);
      prow.emplace_back(goal_status(*tiled));
      ++judged;
      held += goal_status(*tiled) == "held";
      pct.add_row(prow);
      ms.add_row(mrow);
      srow.emplace_back(round_to(naive->t.median_ms / tiled->t.median_ms, 0.01));
    }
    speed.add_row(srow);
  }
  for (const auto& r : rows) {
    const Row* naive = find(rows, r.bits, r.perm, KernelKind::Naive);
    const bool judged_row = r.kernel == mmsim::bmmc::to_string(KernelKind::TileBanksIters);
    csv.add_row({device,
                 static_cast<long long>(r.bits),
                 static_cast<long long>(1LL << r.bits),
                 r.perm,
                 r.kernel,
                 static_cast<long long>(r.passes),
                 r.overlap,
                 static_cast<long long>(r.iters),
                 r.t.median_ms,
                 r.t.min_ms,
                 r.t.max_ms,
                 static_cast<long long>(r.t.runs),
                 r.copy_ms,
                 r.pct(),
                 100.0 * r.copy_ms / r.t.median_ms,
                 optional_cell(naive, naive ? naive->t.median_ms / r.t.median_ms : 0),
                 optional_cell(judged_row, r.goal_pct),
                 judged_row ? goal_status(r) : std::string(),
                 r.check.mismatches ? "no" : "yes",
                 static_cast<long long>(r.check.mismatches),
                 r.check.first});
  }
  std::uint64_t wrong = 0;
  for (const auto& r : rows) wrong += r.check.mismatches ? 1 : 0;
  pct.notes = {
      "Goals held in " + std::to_string(held) + " of " + std::to_string(judged) + " (size, permutation) cases; " +
          std::to_string(wrong) + " of " + std::to_string(rows.size()) + " runs had a wrong output cell.",
      "naive is one launch of the whole map (Appendix A), also for a BMMC; the tiled kernels run one launch per tiled "
      "factor (Sect. 5.2): one for a BPC, two for a BMMC that is not tiled.",
      "The kernels are generic at run time: the rows of A, c and the bit masks are kernel arguments, and each "
      "warp forms A x with one ballot of per-lane parities. By linearity A x + c splits into a warp part, a lane "
      "part and an iteration part, so the iterations of Sect. 4.3 cost one XOR per cell for any tiled BMMC; the "
      "paper applies them to BPCs only, because its generated code relied on a BPC's sparse matrix."};
  for (const auto& n : notes) pct.notes.push_back(n);

  std::filesystem::create_directories(o.out);
  const auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = (std::filesystem::path(o.out) / name).string();
    std::ofstream f(path);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + path);
  };
  write("bmmc.md", report::to_markdown(pct) + "\n" + report::to_markdown(ms) + "\n" + report::to_markdown(speed));
  write("bmmc.csv", report::to_csv(csv));
  write("bmmc-matrices.txt", matrices);
}

int run(const Options& o) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  const mmsim::gpu::DeviceInfo dev = mmsim::gpu::device_info();
  const std::string device = dev.name + " (compute capability " + std::to_string(dev.cc_major) + "." +
                             std::to_string(dev.cc_minor) + ", " + std::to_string(dev.sm_count) + " SMs)";
  std::vector<std::string> notes;

  // Three arrays of the largest size, with room to spare for the runtime.
  const std::uint64_t free = gb::device_free_bytes();
  int capacity = o.max_bits;
  while (capacity >= o.min_bits && 3 * (std::uint64_t{4} << capacity) + (std::uint64_t{512} << 20) > free) --capacity;
  if (capacity < o.min_bits)
    throw mmsim::gpu::GpuError("memory: 2^" + std::to_string(o.min_bits) + " floats x 3 do not fit");
  if (capacity < o.max_bits)
    notes.push_back("Sizes above 2^" + std::to_string(capacity) + " skipped: three arrays of them do not fit in the " +
                    std::to_string(free >> 20) + " MiB free.");
  gb::Runner runner(static_cast<std::uint32_t>(capacity));

  mmsim::Rng rng(o.seed);
  std::vector<Row> rows;
  std::vector<int> sizes;
  std::string matrices = "# Matrices of mmsim_gpu_bmmc --seed " + std::to_string(o.seed) +
                         " (row i as a bit string, character j = a_ij; then the complement)\n";
  double last_size_s = 0;
  bool failed = false;
  for (int b = o.min_bits; b <= capacity; ++b) {
    // Each size takes about twice as long as the one below it; stop before the budget runs out.
    if (!sizes.empty() && elapsed() + 2.5 * last_size_s > o.budget_s) {
      notes.push_back("Sizes from 2^" + std::to_string(b) + " on skipped: the run's time budget of " +
                      std::to_string(static_cast<int>(o.budget_s)) + " s would be exceeded.");
      break;
    }
    const double size_start = elapsed();
    runner.set_size(static_cast<std::uint32_t>(b));
    const std::uint64_t n = runner.n();
    // Short kernels (a few microseconds, near the events' resolution) get more timed runs.
    const int runs = b <= kManyRunsBits ? std::max(o.runs, kManyRuns) : o.runs;
    const gb::Timing copy = runner.copy(o.warmup, runs);
    const Check copy_check = check_output(runner.fetch(), n, Reference(f2::identity(b)), o.threads);
    if (copy_check.mismatches) {
      failed = true;
      notes.push_back("The copy of 2^" + std::to_string(b) + " cells was wrong in " +
                      std::to_string(copy_check.mismatches) + " cells (" + copy_check.first + ").");
      std::fprintf(stderr, "2^%d copy: %llu wrong cells (%s)\n", b,
                   static_cast<unsigned long long>(copy_check.mismatches), copy_check.first.c_str());
    }
    std::vector<Perm> perms = {{"random BPC", f2::random_bpc(b, rng), 90},
                               {"random BMMC", f2::random_bmmc(b, rng), 85},
                               {"bit-reversal", f2::bit_reversal(b), 90}};
    for (const auto& p : perms) {
      matrices += "# 2^" + std::to_string(b) + " " + p.name + "\n" + f2::to_text(p.f);
      const Reference ref(p.f);
      for (KernelKind k : mmsim::bmmc::all_kernels()) {
        const std::vector<gb::Pass> passes = gb::gpu_passes(p.f, k);
        Row r;
        r.bits = b;
        r.perm = p.name;
        r.kernel = mmsim::bmmc::to_string(k);
        r.passes = static_cast<int>(passes.size());
        r.iters = passes.front().iters;
        r.overlap = overlaps(passes);
        r.copy_ms = copy.median_ms;
        r.goal_pct = p.goal_pct;
        r.t = runner.run(passes, o.warmup, runs);
        r.check = check_output(runner.fetch(), n, ref, o.threads);
        failed = failed || r.check.mismatches != 0;
        std::fprintf(stderr, "2^%d %-12s %-16s %9.4f ms  %6.1f %% of copy  %s\n", b, p.name.c_str(), r.kernel.c_str(),
                     r.t.median_ms, r.pct(), r.check.mismatches ? ("WRONG: " + r.check.first).c_str() : "checked");
        rows.push_back(std::move(r));
      }
    }
    sizes.push_back(b);
    last_size_s = elapsed() - size_start;
  }
  std::vector<std::string> perm_names = {"random BPC", "random BMMC", "bit-reversal"};
  write_results(o, device, rows, sizes, perm_names, notes, matrices);
  std::fprintf(stderr, "mmsim_gpu_bmmc: %zu runs in %.1f s, %s; wrote %s/bmmc.md and bmmc.csv\n", rows.size(),
               elapsed(), failed ? "SOME OUTPUTS WRONG" : "every output cell checked right", o.out.c_str());
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const InputError& e) {
    std::fprintf(stderr, "mmsim_gpu_bmmc: %s\n", e.what());
    return 2;
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mmsim_gpu_bmmc: %s\n", e.what());
    return 1;
  }
}
