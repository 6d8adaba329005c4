// The figure rap-congestion: expected congestion of a warp access against w, for every layout and
// access pattern of NMI (Sect. V for w x w matrices, Sect. VII for w^4 arrays), by Monte Carlo.
#include <cmath>
#include <cstdio>
#include <map>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/patterns.h"
#include "experiments/figures.h"
#include "experiments/layouts/rap_tables.h"
#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"
#include "report/csv.h"
#include "report/table.h"

namespace mmsim::experiments {

namespace {

constexpr std::uint64_t kTrials = 4000;
constexpr std::uint64_t kSeed = 1;
// Two curves "coincide" when they are within 3% at every w: on these log axes that is less than a
// marker, so one would hide the other; the figure then says so in the panel's title.
constexpr double kCoincide = 0.03;
// Each layout's markers sit this many octaves to the side of their w (layout i of n at
// (i - (n - 1) / 2) times it), so that markers of coinciding curves stand side by side.
constexpr double kShiftOctaves = 0.05;

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

struct Point {
  std::uint32_t w;
  double mean;
};
// pattern -> layout -> points in increasing w.
using Curves = std::map<std::string, std::map<std::string, std::vector<Point>>>;

bool close(double a, double b) { return std::abs(a - b) <= kCoincide * std::max(a, b); }

// The first index from which two curves coincide to the end (a.size() when they differ at the last w).
std::size_t coincide_from(const std::vector<Point>& a, const std::vector<Point>& b) {
  std::size_t from = a.size();
  while (from > 0 && close(a[from - 1].mean, b[from - 1].mean)) --from;
  return from;
}

// A pattern whose every layout gives exactly 1 at every w has nothing to compare: its panel would
// be a single line on the frame, so it is named in the notes instead of drawn.
bool all_one(const std::map<std::string, std::vector<Point>>& by_layout) {
  for (const auto& [l, pts] : by_layout)
    for (const auto& p : pts)
      if (p.mean != 1.0) return false;
  return true;
}

// What the panel's subtitle says about curves that hide each other: groups of layouts that coincide
// at every w ("ras = w2p = 1pw2r", greedy cliques, so that a chain of near neighbours is never one
// group), then pairs of groups that coincide only from some w on ("ras = rap from w = 16").
std::vector<std::string> coinciding(const std::vector<std::string>& layouts,
                                    const std::map<std::string, std::vector<Point>>& by_layout) {
  const auto curve = [&](std::size_t i) -> const std::vector<Point>& { return by_layout.at(layouts[i]); };
  std::vector<std::vector<std::size_t>> groups;
  std::vector<bool> used(layouts.size(), false);
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    if (used[i]) continue;
    std::vector<std::size_t> g{i};
    used[i] = true;
    for (std::size_t j = i + 1; j < layouts.size(); ++j) {
      bool with_all = !used[j];
      for (std::size_t m : g) with_all = with_all && coincide_from(curve(m), curve(j)) == 0;
      if (with_all) g.push_back(j), used[j] = true;
    }
    groups.push_back(g);
  }
  const auto name = [&](const std::vector<std::size_t>& g) {
    std::string s;
    for (std::size_t m : g) s += (s.empty() ? "" : " = ") + layouts[m];
    return s;
  };
  std::vector<std::string> said;
  for (const auto& g : groups)
    if (g.size() > 1) said.push_back(name(g));
  // Two groups meet from some w on when every member of one coincides with every member of the
  // other from there; a meeting at the last w alone is not reported (the markers still show it).
  for (std::size_t a = 0; a < groups.size(); ++a)
    for (std::size_t b = a + 1; b < groups.size(); ++b) {
      std::size_t from = 0;
      for (std::size_t i : groups[a])
        for (std::size_t j : groups[b]) from = std::max(from, coincide_from(curve(i), curve(j)));
      const std::size_t points = curve(groups[a][0]).size();
      if (from + 1 < points)
        said.push_back(name(groups[a]) + " = " + name(groups[b]) +
                       " from w = " + std::to_string(curve(groups[a][0])[from].w));
    }
  return said;
}

// One panel per pattern that has something to compare, one curve per layout, drawn by
// experiments/figures/rap-congestion.gp; the last panel holds the one legend and the notes.
GnuplotVariables variables(const Curves& curves, const std::vector<std::string>& patterns,
                           const std::vector<std::string>& layouts, const std::string& title, const std::string& csv) {
  std::vector<std::string> drawn, skipped;
  for (const auto& p : patterns) (all_one(curves.at(p)) ? skipped : drawn).push_back(p);
  const std::size_t panels = drawn.size() + 1;
  const int cols = panels <= 4 ? 2 : 3;
  const int rows = static_cast<int>((panels + static_cast<std::size_t>(cols) - 1) / static_cast<std::size_t>(cols));
  const auto& any = curves.at(patterns.front()).at(layouts.front());
  std::vector<std::string> subtitles, shifts;
  for (const auto& p : drawn) {
    const auto groups = coinciding(layouts, curves.at(p));
    std::string sub = groups.empty() ? "no two curves coincide" : "coincide:";
    for (std::size_t g = 0; g < groups.size(); ++g) sub += (g ? "; " : " ") + groups[g];
    subtitles.push_back(sub);
  }
  const double centre = (static_cast<double>(layouts.size()) - 1) / 2;
  for (std::size_t i = 0; i < layouts.size(); ++i)
    shifts.push_back(number(std::exp2((static_cast<double>(i) - centre) * kShiftOctaves)));
  const long percent = std::lround(100 * (std::exp2(centre * kShiftOctaves) - 1));
  std::string notes = "each layout's markers are shifted sideways by at most " + std::to_string(percent) +
                      "% of w,\nso that curves that coincide stay visible; every point is at a power of two\n"
                      "coincide: within " +
                      std::to_string(std::lround(100 * kCoincide)) +
                      "% of each other at every w (closer than a marker)";
  for (const auto& p : skipped)
    notes = "access " + p + " not drawn: congestion 1 for every layout at every w\n" + notes;
  GnuplotVariables v;
  v.number("width", 520 * cols)
      .number("height", 420 * rows + 30)
      .text("csv", csv)
      .number("layout_rows", rows)
      .number("layout_cols", cols)
      .text("title", title)
      .number("xmin", number(any.front().w / 1.3))
      .number("xmax", number(any.back().w * 1.3))
      .texts("layout", layouts)
      .numbers("shift", shifts)
      .number("panels", static_cast<long long>(drawn.size()))
      .texts("pattern", drawn)
      .texts("coincide", subtitles)
      .text("notes", notes);
  return v;
}

// Runs every (layout, pattern, w) of one figure, writes its CSV, and returns the curves.
Curves simulate(const std::vector<std::string>& lays, const std::vector<std::string>& pats, int dims,
                std::uint32_t max_w, std::uint64_t trials, std::string& csv) {
  Curves curves;
  csv = "layout,pattern,w,mean,stderr,trials,seed\n";
  for (const auto& l : lays)
    for (const auto& p : pats)
      for (std::uint32_t w = 4; w <= max_w; w *= 2) {
        const auto s = layouts::simulate_congestion(
            {.dims = dims, .layout = l, .pattern = p, .w = w, .trials = trials, .seed = kSeed});
        curves[p][l].push_back({w, s.mean});
        csv += report::csv_line({l, p, std::to_string(w), number(s.mean), number(s.stderr_mean), std::to_string(trials),
                                 std::to_string(kSeed)}) +
               "\n";
      }
  return curves;
}

}  // namespace

std::vector<std::string> rap_congestion_figure(const std::string& out_dir) {
  std::vector<std::string> written;
  const auto figure = [&](const std::string& name, const std::vector<std::string>& lays,
                          const std::vector<std::string>& pats, int dims, std::uint32_t max_w, std::uint64_t trials,
                          const std::string& what) {
    std::string csv;
    const Curves curves = simulate(lays, pats, dims, max_w, trials, csv);
    write_file(out_dir + "/" + name + ".csv", report::with_build_columns(csv));
    const std::string title = "Expected congestion of one warp access to " + what + "; " + std::to_string(trials) +
                              " trials per point, seed " + std::to_string(kSeed) + ")";
    run_gnuplot_png_svg(out_dir, name, variables(curves, pats, lays, title, name + ".csv"), "rap-congestion");
    for (const char* ext : {".csv", "-png.gp", "-svg.gp", ".png", ".svg"})
      written.push_back(out_dir + "/" + name + ext);
  };
  {
    std::vector<std::string> lays, pats;
    for (auto k : layouts::matrix_layout_kinds()) lays.push_back(layouts::to_string(k));
    for (auto p : layouts::matrix_patterns()) pats.push_back(layouts::to_string(p));
    figure("rap-congestion", lays, pats, 2, 1024, kTrials, "a w x w matrix (NMI Sect. V");
  }
  {
    std::vector<std::string> lays, pats;
    for (auto k : layouts::array4_layout_kinds()) lays.push_back(layouts::to_string(k));
    for (auto p : layouts::array4_patterns()) pats.push_back(layouts::to_string(p));
    figure("rap-congestion-4d", lays, pats, 4, 128, kTrials / 4, "a w^4 array (NMI Sect. VII");
  }
  return written;
}

}  // namespace mmsim::experiments
