// The sweep and the tables of `mmsim gpu bmmc` (experiments/gpu/bmmc_driver.h).
#include "experiments/gpu/bmmc_driver.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "algorithms/bmmc/f2.h"
#include "algorithms/bmmc/kernels.h"
#include "cuda/bmmc/plan.h"
#include "cuda/harness/device.h"
#include "cuda/harness/poison.h"
#include "experiments/gpu/timing_parameters.h"
#include "sim/random.h"

namespace mmsim::gpu::bmmc {

namespace {

using mmsim::bmmc::KernelKind;

// Sizes up to 2^kManyRunsBits are timed kManyRuns times at least.
constexpr int kManyRunsBits = 24, kManyRuns = 100;

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

// Every cell of the fetched dst against the reference (cuda/harness/poison.h); the first wrong cell
// as text.
Mismatches check_output(const std::uint32_t* out, std::uint64_t n, const Reference& ref, unsigned threads,
                        std::string& first) {
  const Mismatches m = compare_cells(n, threads, [&](std::uint64_t y) {
    return out[y] == source_bits32(ref.source_of(static_cast<std::uint32_t>(y)));
  });
  first.clear();
  if (m.count)
    first = "cell " + std::to_string(m.first) + " should hold source cell " +
            std::to_string(ref.source_of(static_cast<std::uint32_t>(m.first)));
  return m;
}

struct Perm {
  std::string name;
  f2::Bmmc f;
  double goal_pct;  // BDS Sect. 6's goals: BPC 90 %, BMMC 85 % of the copy
};

std::string overlaps(const std::vector<Pass>& passes) {
  if (passes.front().naive) return "-";
  std::string s;
  for (const auto& p : passes) s += (s.empty() ? "" : "+") + std::to_string(__builtin_popcount(p.args.over));
  return s;
}

}  // namespace

std::optional<std::string> BmmcOptions::validate() const {
  const auto in = [](long long v, long long lo, long long hi) { return v >= lo && v <= hi; };
  const std::string bits_rule = " must be an integer in [12, " + std::to_string(kMaxBits) + "]";
  if (!in(min_bits, 12, kMaxBits)) return "--min-bits:" + bits_rule;
  if (!in(max_bits, 12, kMaxBits)) return "--max-bits:" + bits_rule;
  if (min_bits > max_bits) return "--min-bits: must not exceed --max-bits";
  if (seed > (std::uint64_t{1} << 62)) return "--seed: must be an integer in [0, 4611686018427387904]";
  if (!in(runs, 20, 10000)) return "--runs: must be an integer in [20, 10000]";
  if (!in(warmup, 0, 1000)) return "--warmup: must be an integer in [0, 1000]";
  if (!(budget_s >= 1 && budget_s <= 100000)) return "--budget-s: must be in [1, 100000]";
  if (!in(threads, 1, 1024)) return "--threads: must be an integer in [1, 1024]";
  return std::nullopt;
}

BmmcRun run_bmmc(const BmmcOptions& o) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  BmmcRun out;
  out.device = device_summary(device_info());
  out.perms = {"random BPC", "random BMMC", "bit-reversal"};

  // Three arrays of the largest size, with room to spare for the runtime.
  const std::uint64_t free = device_free_bytes();
  int capacity = o.max_bits;
  while (capacity >= o.min_bits && 3 * (std::uint64_t{4} << capacity) + (std::uint64_t{512} << 20) > free) --capacity;
  if (capacity < o.min_bits) throw GpuError("memory: 2^" + std::to_string(o.min_bits) + " floats x 3 do not fit");
  if (capacity < o.max_bits)
    out.notes.push_back("Sizes above 2^" + std::to_string(capacity) +
                        " skipped: three arrays of them do not fit in the " + std::to_string(free >> 20) +
                        " MiB free.");
  Runner runner(static_cast<std::uint32_t>(capacity));

  Rng rng(o.seed);
  out.matrices = "# Matrices of mmsim gpu bmmc --seed " + std::to_string(o.seed) +
                 " (row i as a bit string, character j = a_ij; then the complement)\n";
  double last_size_s = 0;
  for (int b = o.min_bits; b <= capacity; ++b) {
    // Each size takes about twice as long as the one below it; stop before the budget runs out.
    if (!out.sizes.empty() && elapsed() + 2.5 * last_size_s > o.budget_s) {
      out.notes.push_back("Sizes from 2^" + std::to_string(b) + " on skipped: the run's time budget of " +
                          std::to_string(static_cast<int>(o.budget_s)) + " s would be exceeded.");
      break;
    }
    const double size_start = elapsed();
    runner.set_size(static_cast<std::uint32_t>(b));
    const std::uint64_t n = runner.n();
    // Short kernels (a few microseconds, near the events' resolution) get more timed runs.
    const TimingPlan plan{o.warmup, b <= kManyRunsBits ? std::max(o.runs, kManyRuns) : o.runs};
    const Timing copy = runner.copy(plan);
    std::string copy_first;
    const Mismatches copy_check = check_output(runner.fetch(), n, Reference(f2::identity(b)), o.threads, copy_first);
    if (copy_check.count) {
      out.failed = true;
      out.notes.push_back("The copy of 2^" + std::to_string(b) + " cells was wrong in " +
                          std::to_string(copy_check.count) + " cells (" + copy_first + ").");
      std::fprintf(stderr, "2^%d copy: %llu wrong cells (%s)\n", b, static_cast<unsigned long long>(copy_check.count),
                   copy_first.c_str());
    }
    const std::vector<Perm> perms = {{out.perms[0], f2::random_bpc(b, rng), 90},
                                     {out.perms[1], f2::random_bmmc(b, rng), 85},
                                     {out.perms[2], f2::bit_reversal(b), 90}};
    for (const auto& p : perms) {
      out.matrices += "# 2^" + std::to_string(b) + " " + p.name + "\n" + f2::to_text(p.f);
      const Reference ref(p.f);
      for (KernelKind k : mmsim::bmmc::all_kernels()) {
        const std::vector<Pass> passes = gpu_passes(p.f, k);
        BmmcRow r;
        r.bits = b;
        r.perm = p.name;
        r.kernel = mmsim::bmmc::to_string(k);
        r.passes = static_cast<int>(passes.size());
        r.iters = passes.front().iters;
        r.overlap = overlaps(passes);
        r.copy_ms = copy.median_ms;
        r.goal_pct = p.goal_pct;
        r.t = runner.run(passes, plan);
        r.mismatches = check_output(runner.fetch(), n, ref, o.threads, r.first_mismatch).count;
        out.failed = out.failed || r.mismatches != 0;
        std::fprintf(stderr, "2^%d %-12s %-16s %9.4f ms  %6.1f %% of copy  %s\n", b, p.name.c_str(), r.kernel.c_str(),
                     r.t.median_ms, r.pct(), r.mismatches ? ("WRONG: " + r.first_mismatch).c_str() : "checked");
        out.rows.push_back(std::move(r));
      }
    }
    out.sizes.push_back(b);
    last_size_s = elapsed() - size_start;
  }
  out.seconds = elapsed();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tables.

namespace {

const BmmcRow* find(const std::vector<BmmcRow>& rows, int bits, const std::string& perm, KernelKind k) {
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
report::Cell optional_cell(const BmmcRow* present, double v) { return optional_cell(present != nullptr, v); }

// For the Markdown tables: percentages to 0.1, speed-ups to 0.01, times to 4 significant digits.
double round_to(double v, double step) { return std::round(v / step) * step; }
std::string ms_text(double v) { return report::format_number(v, 4); }

std::string goal_status(const BmmcRow& r) {
  if (r.mismatches) return "wrong output";
  return r.pct() >= r.goal_pct ? "held" : "missed";
}

}  // namespace

BmmcTables bmmc_tables(const BmmcOptions& o, const BmmcRun& run) {
  const std::vector<BmmcRow>& rows = run.rows;
  const std::string config = "device: " + run.device + "; seed " + std::to_string(o.seed) + "; " +
                             std::to_string(o.runs) + " timed runs (at least " + std::to_string(kManyRuns) +
                             " up to 2^" + std::to_string(kManyRunsBits) + ") after " + std::to_string(o.warmup) +
                             " warm-ups; float elements";
  BmmcTables t;
  report::Table& pct = t.pct;
  pct.title = "BPC and BMMC permutations on the GPU: % of the copy's effective bandwidth";
  pct.header = {
      config,
      "times: CUDA events around the launches only (median); the output is poisoned before every run (the middle "
      "array of a two-pass BMMC before the first) and every cell checked on the CPU against dst[A x + c] = src[x]",
      "% of copy: effective bandwidth, launches x 2 n x 4 bytes over the median time, against the copy's 2 n x 4 "
      "bytes (16-byte vectors, same run, same size), as in BDS Fig. 10: a two-pass BMMC moves the array twice",
      "goals (BDS Sect. 6: 92 % and 86 % on an RTX 4090): BPC >= 90 %, BMMC >= 85 %, judged on "
      "tile-banks-iters; bit-reversal is held to the BPC goal"};
  pct.columns = {"log2 n", "permutation", "launches (tiled)", "over bits per pass", "copy ms",
                 "naive",  "tile",        "tile-banks",       "tile-banks-iters",   "goal %",
                 "goal"};
  report::Table& ms = t.ms;
  ms.title = "Median time in ms per kernel (BDS Fig. 9)";
  ms.columns = {"log2 n", "permutation", "copy", "naive", "tile", "tile-banks", "tile-banks-iters"};
  report::Table& speed = t.speed;
  speed.title = "Speed-up of tile-banks-iters over naive by size (BDS Fig. 11)";
  speed.columns = {"log2 n"};
  for (const auto& p : run.perms) speed.columns.push_back(p);
  t.csv.parameters = timing_parameters("", -1, o.warmup, o.seed);  // device and runs: columns
  t.csv.columns = {"device",
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
  for (int b : run.sizes) {
    std::vector<report::Cell> srow{static_cast<long long>(b)};
    for (const auto& p : run.perms) {
      const BmmcRow* tiled = find(rows, b, p, KernelKind::TileBanksIters);
      const BmmcRow* naive = find(rows, b, p, KernelKind::Naive);
      if (!tiled || !naive) {
        srow.emplace_back();
        continue;
      }
      std::vector<report::Cell> prow{static_cast<long long>(b), p, static_cast<long long>(tiled->passes),
                                     tiled->overlap, ms_text(tiled->copy_ms)};
      std::vector<report::Cell> mrow{static_cast<long long>(b), p, ms_text(tiled->copy_ms)};
      for (KernelKind k : mmsim::bmmc::all_kernels()) {
        const BmmcRow* r = find(rows, b, p, k);
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
    const BmmcRow* naive = find(rows, r.bits, r.perm, KernelKind::Naive);
    const bool judged_row = r.kernel == mmsim::bmmc::to_string(KernelKind::TileBanksIters);
    t.csv.add_row({run.device,
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
                   r.mismatches ? "no" : "yes",
                   static_cast<long long>(r.mismatches),
                   r.first_mismatch});
  }
  std::uint64_t wrong = 0;
  for (const auto& r : rows) wrong += r.mismatches ? 1 : 0;
  pct.notes = {
      "Goals held in " + std::to_string(held) + " of " + std::to_string(judged) + " (size, permutation) cases; " +
          std::to_string(wrong) + " of " + std::to_string(rows.size()) + " runs had a wrong output cell.",
      "naive is one launch of the whole map (Appendix A), also for a BMMC; the tiled kernels run one launch per tiled "
      "factor (Sect. 5.2): one for a BPC, two for a BMMC that is not tiled.",
      "The kernels are generic at run time: the rows of A, c and the bit masks are kernel arguments, and each "
      "warp forms A x with one ballot of per-lane parities. By linearity A x + c splits into a warp part, a lane "
      "part and an iteration part, so the iterations of Sect. 4.3 cost one XOR per cell for any tiled BMMC; the "
      "paper applies them to BPCs only, because its generated code relied on a BPC's sparse matrix."};
  for (const auto& n : run.notes) pct.notes.push_back(n);
  return t;
}

}  // namespace mmsim::gpu::bmmc
