// The goals of the scale work, decided cell by cell from the CSVs of `mmsim gpu reproduce` (bench.csv)
// and `mmsim gpu bmmc` (bmmc.csv).
#include <cmath>
#include <map>
#include <set>

#include "experiments/measured/measured.h"
#include "experiments/measured/text.h"

namespace mmsim::experiments::measured {

namespace {

const std::vector<std::string> kScheduled{"scheduled-paper", "scheduled-pipelined", "scheduled-fused"};
constexpr double kCopyGoal = 3.5;   // the fastest scheduled variant within 3.5x the copy's time
constexpr double kBmmcGoal = 90.0;  // BMMC bit-reversal at >= 90 % of the copy
constexpr std::int64_t kFromN = std::int64_t{1} << 24;
constexpr std::int64_t kBmmcFromLog2 = 22;

// The traffic floor of a scheduled permutation that reads its schedule from memory, in copies of
// the data: three passes (each reads and writes n elements of e bytes) and three 16-bit index
// arrays, (3 * 2e + 3 * 2) / (2e); 3.75 for float, 3.375 for double.
double floor_ratio(double elem_bytes) { return (3 * 2 * elem_bytes + 3 * 2) / (2 * elem_bytes); }

struct Cell {
  std::string type, perm;
  int log2n = 0;
  double copy = 0;
  std::optional<double> d, s;  // the conventional algorithms' ms
  std::string best;            // empty: no scheduled variant ran
  double best_ms = 0, ratio = 0;
  std::string copy_goal, conv_goal;
};

std::string ms4(const std::optional<double>& x) { return x ? formatted("%.4g", *x) : "-"; }

}  // namespace

std::string goals_page(const report::CsvTable& bench, const report::CsvTable& bmmc) {
  bench.require({"type", "n", "kernel", "permutation", "median_ms", "correct"});
  bmmc.require({"device", "permutation", "kernel", "log2_n", "median_ms", "copy_ms", "copy_over_time_pct", "correct"});
  // (type, n, kernel, permutation) -> median ms of the checked runs; a later row wins.
  std::map<std::tuple<std::string, std::int64_t, std::string, std::string>, double> ms;
  std::set<std::int64_t> sizes;
  for (const auto& r : bench.rows()) {
    const std::int64_t n = r.integer("n");
    if (n >= kFromN) sizes.insert(n);
    if (r["correct"] == "yes") ms[{r["type"], n, r["kernel"], r["permutation"]}] = r.number("median_ms");
  }
  const auto find = [&](const std::string& t, std::int64_t n, const std::string& k,
                        const std::string& p) -> std::optional<double> {
    const auto it = ms.find({t, n, k, p});
    return it == ms.end() ? std::nullopt : std::optional<double>(it->second);
  };
  std::vector<Cell> cells;
  for (const char* type : {"float", "double"})
    for (const char* perm : {"random", "bit-reversal"})
      for (const std::int64_t n : sizes) {
        const auto copy = find(type, n, "copy", "-");
        if (!copy) continue;  // this type or size did not run
        Cell c;
        c.type = type, c.perm = perm, c.log2n = static_cast<int>(std::log2(static_cast<double>(n))), c.copy = *copy;
        c.d = find(type, n, "d-designated", perm), c.s = find(type, n, "s-designated", perm);
        for (const auto& k : kScheduled)
          if (const auto t = find(type, n, k, perm); t && (c.best.empty() || *t < c.best_ms))
            c.best = k, c.best_ms = *t;
        if (c.best.empty()) {
          c.copy_goal = c.conv_goal = "not run";
        } else {
          c.ratio = c.best_ms / c.copy;
          c.copy_goal = c.ratio <= kCopyGoal ? "held" : "missed";
          // A conventional time of 0 is no run either.
          if (c.d && c.s && *c.d != 0 && *c.s != 0)
            c.conv_goal = c.best_ms < std::min(*c.d, *c.s) ? "held" : "missed";
          else
            c.conv_goal = "not run";
        }
        cells.push_back(std::move(c));
      }

  const std::string device = bmmc.rows().empty() ? "?" : bmmc.rows().front()["device"];
  std::string out = "## GPU goals of the scale work, cell by cell\n\ndevice: " + device + "  \n";
  out +=
      "from bench.csv and bmmc.csv of this folder (median times, every output checked cell by cell); "
      "`mmsim gpu-goals DIR` writes this page\n\n";
  out += formatted(
      "### The scheduled permutation: fastest variant within %gx a float4 copy, and faster than both conventional "
      "algorithms\n\n",
      kCopyGoal);
  out += formatted(
      "floor: the copy's bytes times (3 passes x 2e + 3 x 2-byte schedule) / 2e for e-byte elements (%g for float, "
      "%g for double): a kernel that reads its schedule from memory cannot come nearer to the copy than this at the "
      "copy's bandwidth\n\n",
      floor_ratio(4), floor_ratio(8));
  out +=
      "| type | permutation | n | copy ms | D-designated ms | S-designated ms | fastest scheduled | ms | x copy | "
      "floor "
      "x copy | within 3.5x | faster than both |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  int copy_held = 0, conv_held = 0;
  for (const auto& c : cells) {
    const std::string tail =
        c.best.empty() ? "not run | - | - "
                       : c.best + " | " + formatted("%.4g", c.best_ms) + " | " + formatted("%.2f", c.ratio) + " ";
    out += "| " + c.type + " | " + c.perm + " | 2^" + std::to_string(c.log2n) + " | " + ms4(c.copy) + " | " + ms4(c.d) +
           " | " + ms4(c.s) + " | " + tail + "| " + formatted("%g", floor_ratio(c.type == "float" ? 4 : 8)) + " | " +
           c.copy_goal + " | " + c.conv_goal + " |\n";
    copy_held += c.copy_goal == "held";
    conv_held += c.conv_goal == "held";
  }
  out += formatted("\nwithin 3.5x: held in %d of %zu cells; faster than both conventional: held in %d of %zu\n\n",
                   copy_held, cells.size(), conv_held, cells.size());

  struct Size {
    std::int64_t log2n;
    double ms, copy, pct;
    std::string goal;
  };
  std::vector<Size> bsizes;
  for (const auto& r : bmmc.rows())
    if (r["permutation"] == "bit-reversal" && r["kernel"] == "tile-banks-iters" &&
        r.integer("log2_n") >= kBmmcFromLog2) {
      const double pct = r.number("copy_over_time_pct");
      bsizes.push_back({r.integer("log2_n"), r.number("median_ms"), r.number("copy_ms"), pct,
                        pct >= kBmmcGoal && r["correct"] == "yes" ? "held" : "missed"});
    }
  std::stable_sort(bsizes.begin(), bsizes.end(), [](const Size& a, const Size& b) { return a.log2n < b.log2n; });
  out += formatted("### BMMC bit-reversal (tile-banks-iters) at >= %g %% of the copy from 2^22\n\n", kBmmcGoal);
  out += "| n | ms | copy ms | % of copy | goal |\n|---|---|---|---|---|\n";
  int held = 0;
  for (const auto& s : bsizes) {
    out += formatted("| 2^%lld | %.4g | %.4g | %.1f | %s |\n", static_cast<long long>(s.log2n), s.ms, s.copy, s.pct,
                     s.goal.c_str());
    held += s.goal == "held";
  }
  out += formatted("\nheld at %d of %zu sizes\n", held, bsizes.size());
  return out;
}

}  // namespace mmsim::experiments::measured
