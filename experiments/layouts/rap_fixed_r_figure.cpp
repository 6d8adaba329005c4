// The figure rap-fixed-r: NMI Fig. 6 drawn from the layout model (w = 4, the paper's fixed
// r = (2, 0, 3, 1): where RAW and RAP put each a[i][j], and the congestion of every row, column and
// diagonal warp under each), and what a fixed r means at w = 32: a program draws r once, so its
// diagonal (and, under RAS, stride) accesses see the mean congestion of that one r, spread around
// the Monte Carlo's mean over fresh r.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>

#include "algorithms/layouts/congestion_mc.h"
#include "experiments/figures.h"
#include "experiments/layouts/rap_figures.h"
#include "models/congestion.h"
#include "models/layouts/draws.h"
#include "models/layouts/matrix_layout.h"
#include "report/csv.h"
#include "report/table.h"

namespace mmsim::experiments {

namespace {

using layouts::MatrixLayout;
using layouts::MatrixLayoutKind;

// NMI Fig. 6's example (Sect. IV): w = 4 and the permutation r it draws.
const std::vector<std::uint32_t> kPaperR{2, 0, 3, 1};
// The paper's worked cell of Fig. 6: a[2][2] (element 10); where it lands is computed.
constexpr std::uint32_t kExampleRow = 2, kExampleCol = 2;
// The fixed-r comparison at a GPU's width: how many r are drawn, and the fresh-r Monte Carlo beside them.
constexpr std::uint32_t kW = 32;
constexpr std::uint32_t kDraws = 2000;
constexpr std::uint64_t kTrials = 100000;
constexpr std::uint64_t kSeed = 1;

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

using Cells = std::function<std::pair<std::uint32_t, std::uint32_t>(std::uint32_t t)>;

// Congestion of one warp whose thread t takes cell cells(t), by the engine's rule (models/congestion).
int warp_congestion(const MatrixLayout& l, const Cells& cells) {
  std::vector<Address> a;
  for (std::uint32_t t = 0; t < l.w(); ++t) {
    const auto [i, j] = cells(t);
    a.push_back(l.address(i, j));
  }
  return congestion(a, static_cast<int>(l.w()));
}

// The w warps of one access kind: row x (contiguous), column x (stride), offset x (diagonal).
Cells access(const std::string& kind, std::uint32_t x, std::uint32_t w) {
  if (kind == "contiguous") return [x](std::uint32_t t) { return std::pair{x, t}; };
  if (kind == "stride") return [x](std::uint32_t t) { return std::pair{t, x}; };
  return [x, w](std::uint32_t t) { return std::pair{t, (x + t) % w}; };
}

// Mean congestion over the w warps of one access kind under one drawn layout; `alike` becomes false
// when two of those warps differ.
double mean_over_warps(const MatrixLayout& l, const std::string& kind, bool& alike) {
  double sum = 0;
  const int first = warp_congestion(l, access(kind, 0, l.w()));
  for (std::uint32_t x = 0; x < l.w(); ++x) {
    const int c = warp_congestion(l, access(kind, x, l.w()));
    alike = alike && c == first;
    sum += c;
  }
  return sum / l.w();
}

}  // namespace

std::vector<std::string> rap_fixed_r_figure(const std::string& out_dir) {
  const std::string name = "rap-fixed-r";
  const auto w4 = static_cast<std::uint32_t>(kPaperR.size());
  const MatrixLayout raw = MatrixLayout::with_shifts(MatrixLayoutKind::Raw, std::vector<std::uint32_t>(w4, 0));
  const MatrixLayout rap = MatrixLayout::with_shifts(MatrixLayoutKind::Rap, kPaperR);
  const std::vector<std::pair<std::string, const MatrixLayout*>> pair{{"raw", &raw}, {"rap", &rap}};
  const std::vector<std::string> kinds{"contiguous", "stride", "diagonal"};

  // (a, b): every cell of both layouts.
  std::string cells = "layout,i,j,element,column,address,bank\n";
  for (const auto& [lname, l] : pair)
    for (std::uint32_t i = 0; i < w4; ++i)
      for (std::uint32_t j = 0; j < w4; ++j)
        cells += report::csv_line({lname, std::to_string(i), std::to_string(j), std::to_string(i * w4 + j),
                                   std::to_string(l->column(i, j)), std::to_string(l->address(i, j)),
                                   std::to_string(l->bank(i, j))}) +
                 "\n";
  // (c): the congestion of each of the 3 w warps under each layout at this r.
  std::string warps = "index,access,warp,raw,rap\n";
  int index = 0;
  for (const auto& k : kinds)
    for (std::uint32_t x = 0; x < w4; ++x, ++index)
      warps += report::csv_line({std::to_string(index), k, std::to_string(x),
                                 std::to_string(warp_congestion(raw, access(k, x, w4))),
                                 std::to_string(warp_congestion(rap, access(k, x, w4)))}) +
               "\n";
  // (d): at w = 32, the mean congestion each of kDraws fixed r gives, sorted (an empirical CDF), and
  // the Monte Carlo's mean over a fresh r per access.
  struct Series {
    std::string layout, access;
    std::vector<double> per_r;
    double fresh = 0;
  };
  std::vector<Series> series{{"rap", "diagonal", {}, 0}, {"ras", "diagonal", {}, 0}, {"ras", "stride", {}, 0}};
  // Under one r, the w diagonal warps (and RAS's w stride warps) differ only by a rotation of the
  // banks, so they all have the same congestion; checked on every draw and said on the figure.
  bool alike = true;
  for (auto& s : series) {
    const auto kind = *layouts::matrix_layout_from_name(s.layout);
    layouts::Draws draws(kSeed);
    MatrixLayout l(kind, kW, draws);
    for (std::uint32_t d = 0; d < kDraws; ++d, l.redraw(draws)) s.per_r.push_back(mean_over_warps(l, s.access, alike));
    std::sort(s.per_r.begin(), s.per_r.end());
    s.fresh = layouts::simulate_congestion(
                  {.dims = 2, .layout = s.layout, .pattern = s.access, .w = kW, .trials = kTrials, .seed = kSeed})
                  .mean;
  }
  std::string fixed = "layout,access,rank,fraction,mean_congestion_of_this_r,fresh_r_mean,draws,seed\n";
  for (const auto& s : series)
    for (std::size_t r = 0; r < s.per_r.size(); ++r)
      fixed += report::csv_line({s.layout, s.access, std::to_string(r),
                                 number(static_cast<double>(r + 1) / static_cast<double>(s.per_r.size())),
                                 number(s.per_r[r]), number(s.fresh), std::to_string(kDraws), std::to_string(kSeed)}) +
               "\n";
  write_file(out_dir + "/" + name + "-cells.csv", report::with_build_columns(cells));
  write_file(out_dir + "/" + name + "-warps.csv", report::with_build_columns(warps));
  write_file(out_dir + "/" + name + ".csv", report::with_build_columns(fixed));

  std::string r_text;
  for (std::size_t i = 0; i < kPaperR.size(); ++i) r_text += (i ? ", " : "") + std::to_string(kPaperR[i]);
  const std::string example = "a[" + std::to_string(kExampleRow * w4 + kExampleCol) + "] = a[" +
                              std::to_string(kExampleRow) + "][" + std::to_string(kExampleCol) + "] is stored at a[" +
                              std::to_string(rap.address(kExampleRow, kExampleCol)) + "], bank B[" +
                              std::to_string(rap.bank(kExampleRow, kExampleCol)) + "]";
  std::vector<std::string> shifts, kind_names(kinds.begin(), kinds.end()), layout, access_kind, fresh;
  for (std::uint32_t i = 0; i < w4; ++i) shifts.push_back(std::to_string(rap.shifts()[i]));
  for (const auto& s : series)
    layout.push_back(s.layout), access_kind.push_back(s.access), fresh.push_back(number(s.fresh));
  GnuplotVariables v;
  v.number("w4", w4)
      .numbers("r", shifts)
      .text("r_text", r_text)
      .text("example", example)
      .texts("kind", kind_names)
      .number("last_warp", index - 1)
      .number("w", kW)
      .number("draws", kDraws)
      .number("trials", static_cast<long long>(kTrials))
      .text("alike", alike ? "yes" : "NO")
      .texts("layout", layout)
      .texts("access", access_kind)
      .numbers("fresh", fresh)
      .texts("fresh_text", fresh)
      .number("cells_xmax", number(w4 - 0.5))
      .number("c_xmax", number(index - 0.4))
      .number("c_ymax", number(w4 + 0.5));
  run_gnuplot_png_svg(out_dir, name, v, "rap-fixed-r");
  std::vector<std::string> written;
  for (const char* f : {"-cells.csv", "-warps.csv", ".csv", ".png", ".svg"})
    written.push_back(out_dir + "/" + name + f);
  return written;
}

}  // namespace mmsim::experiments
