// The figure rap-lemma4: the distribution of the congestion of one warp access, from the Monte
// Carlo, for every w x w layout and access pattern, beside the tail bound that NMI's Lemma 4 and the
// proof of Theorem 2 give for RAP (algorithms/layouts/rap_tail_bound.h).
#include <cmath>
#include <cstdio>
#include <map>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/patterns.h"
#include "algorithms/layouts/rap_tail_bound.h"
#include "experiments/figures.h"
#include "experiments/layouts/rap_figures.h"
#include "models/layouts/matrix_layout.h"
#include "report/csv.h"
#include "report/table.h"

namespace mmsim::experiments {

namespace {

constexpr std::uint64_t kTrials = 100000;
constexpr std::uint64_t kSeed = 1;
// w = 32 is today's warp; 256 is the largest w of NMI Table II.
const std::vector<std::uint32_t> kWidths{32, 256};

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

struct Tail {
  int max = 0;
  std::vector<double> at_least;  ///< at_least[c] = Pr[congestion >= c], c = 0 .. max
};

Tail tail_of(const layouts::CongestionStats& s) {
  Tail t;
  t.max = s.max;
  t.at_least.assign(static_cast<std::size_t>(s.max) + 1, 0.0);
  std::uint64_t above = 0;
  for (int c = s.max; c >= 0; --c) {
    if (static_cast<std::size_t>(c) < s.histogram.size()) above += s.histogram[static_cast<std::size_t>(c)];
    t.at_least[static_cast<std::size_t>(c)] = static_cast<double>(above) / static_cast<double>(s.trials);
  }
  return t;
}

}  // namespace

std::vector<std::string> rap_lemma4_figure(const std::string& out_dir) {
  const std::string name = "rap-lemma4";
  std::vector<std::string> lays, pats;
  for (auto k : layouts::matrix_layout_kinds()) lays.push_back(layouts::to_string(k));
  for (auto p : layouts::matrix_patterns()) pats.push_back(layouts::to_string(p));

  // w -> pattern -> layout -> tail; and whether rap stays under the bound everywhere.
  std::map<std::uint32_t, std::map<std::string, std::map<std::string, Tail>>> tails;
  std::string csv = "w,layout,pattern,congestion,trials,pr_at_least,rap_bound,seed\n";
  int rap_points = 0, rap_above = 0;
  for (std::uint32_t w : kWidths)
    for (const auto& p : pats)
      for (const auto& l : lays) {
        const auto s = layouts::simulate_congestion(
            {.dims = 2, .layout = l, .pattern = p, .w = w, .trials = kTrials, .seed = kSeed});
        const Tail t = tail_of(s);
        for (int c = 1; c <= t.max; ++c) {
          const double bound = layouts::rap_congestion_tail_bound(w, c);
          const double pr = t.at_least[static_cast<std::size_t>(c)];
          if (l == "rap") ++rap_points, rap_above += pr > bound;
          csv += report::csv_line({std::to_string(w), l, p, std::to_string(c), std::to_string(kTrials), number(pr),
                                   number(bound), std::to_string(kSeed)}) +
                 "\n";
        }
        tails[w][p][l] = t;
      }
  write_file(out_dir + "/" + name + ".csv", report::with_build_columns(csv));

  // A pattern whose every layout gives congestion 1 at every w has no distribution to show.
  std::vector<std::string> drawn, skipped;
  for (const auto& p : pats) {
    bool any = false;
    for (std::uint32_t w : kWidths)
      for (const auto& l : lays) any = any || tails[w][p][l].max > 1;
    (any ? drawn : skipped).push_back(p);
  }
  const std::string verdict = std::to_string(rap_points - rap_above) + " of " + std::to_string(rap_points) +
                              " rap points on or under the bound";
  const int cols = static_cast<int>(drawn.size()), rows = static_cast<int>(kWidths.size());
  std::string sub =
      "bound: min(1, 2w e^{k-1}/k^k), k = ceil(c/2) (Lemma 4's Chernoff tail, union over w banks, two "
      "half warps); dotted: Lemma 4's threshold e^2 ln w / ln ln w}\n{/*0.85 " +
      verdict;
  for (const auto& p : skipped) sub += "; access " + p + " not drawn: congestion 1 for every layout";
  const std::string title = "Congestion distribution of one warp access to a w x w matrix (" + std::to_string(kTrials) +
                            " trials per curve, seed " + std::to_string(kSeed) +
                            ") beside NMI Lemma 4's tail bound for rap\n{/*0.85 " + sub + "}";
  std::vector<std::string> widths, xmax, threshold, ones;
  std::string bound;
  for (std::uint32_t w : kWidths) {
    widths.push_back(std::to_string(w));
    xmax.push_back(number(w * 1.1));
    threshold.push_back(number(layouts::lemma4_threshold(w)));
    for (const auto& p : drawn) {
      std::string one;
      for (const auto& l : lays)
        if (tails[w][p][l].max == 1) one += (one.empty() ? "" : ", ") + l;
      ones.push_back(one);
    }
    // The bound as a step function of integer c up to w.
    for (int c = 1; c <= static_cast<int>(w); ++c)
      bound += report::csv_line({std::to_string(c), number(layouts::rap_congestion_tail_bound(w, c))}) + "\n";
    bound += "\n\n";
  }
  GnuplotVariables v;
  v.number("width", 480 * cols)
      .number("height", 400 * rows + 60)
      .text("csv", name + ".csv")
      .text("title", title)
      .number("ymin", number(0.5 / static_cast<double>(kTrials)))
      .texts("layout", lays)
      .number("panels", cols)
      .texts("pattern", drawn)
      .numbers("width_w", widths)
      .numbers("xmax", xmax)
      .numbers("threshold", threshold)
      .texts("ones", ones)
      .data("bound", bound);
  run_gnuplot_png_svg(out_dir, name, v, "rap-lemma4");
  std::vector<std::string> written;
  for (const char* ext : {".csv", ".png", ".svg"}) written.push_back(out_dir + "/" + name + ext);
  return written;
}

}  // namespace mmsim::experiments
