// The series of the GPU figures that fit nothing: BDS Fig. 11's speed-ups, recomputed from the
// median times, and GL's throughput lines and heat maps.
#include <cmath>
#include <map>
#include <set>

#include "experiments/measured/measured.h"
#include "experiments/measured/text.h"
#include "io/input_error.h"
#include "report/table.h"

namespace mmsim::experiments::measured {

namespace {

const std::vector<std::string> kWorkloads{"random BPC", "random BMMC", "bit-reversal"};
const std::vector<std::string> kOptimised{"tile", "tile-banks", "tile-banks-iters"};

}  // namespace

Speedups bmmc_speedups(const report::CsvTable& bmmc) {
  bmmc.require({"device", "log2_n", "permutation", "kernel", "median_ms", "speedup_over_naive", "correct"});
  Speedups s;
  if (!bmmc.rows().empty()) s.device = bmmc.rows().front()["device"];
  // (workload, log2 n, kernel) -> (median ms, the CSV's speed-up) of the checked rows; a later row wins.
  std::map<std::tuple<std::string, std::int64_t, std::string>, std::pair<double, double>> ms;
  std::set<std::int64_t> sizes;
  std::set<std::string> workloads;
  for (const auto& r : bmmc.rows()) {
    if (r["correct"] != "yes") continue;
    const std::int64_t size = r.integer("log2_n");
    const std::string& said = r["speedup_over_naive"];
    ms[{r["permutation"], size, r["kernel"]}] = {r.number("median_ms"),
                                                 said.empty() ? 0.0 : r.number("speedup_over_naive")};
    sizes.insert(size);
    workloads.insert(r["permutation"]);
  }
  bool any = false;
  for (const auto& w : kWorkloads) {
    if (!workloads.count(w)) continue;
    s.present.push_back(w);
    for (std::int64_t size = 20; size <= 40; ++size) {
      const auto naive = ms.find({w, size, "naive"});
      if (!sizes.count(size) || naive == ms.end()) continue;
      Speedups::Row row{.workload = w, .log2_n = static_cast<int>(size), .speedup = {}};
      for (const auto& k : kOptimised) {
        const auto it = ms.find({w, size, k});
        if (it == ms.end()) {
          row.speedup.emplace_back();
          continue;
        }
        const double x = naive->second.first / it->second.first;
        // The CSV rounds to six significant digits: a difference beyond 1e-4 relative is a real disagreement.
        if (std::abs(x - it->second.second) > 1e-4 * x)
          throw InputError(bmmc.name() + ": the speed-up of " + k + " on " + w + " at 2^" + std::to_string(size) +
                           " is " + formatted("%.6g", x) + " from the times but " +
                           formatted("%.6g", it->second.second) + " in the CSV");
        row.speedup.emplace_back(x);
      }
      s.rows.push_back(std::move(row));
      any = true;
    }
  }
  if (!any) throw InputError(bmmc.name() + ": no checked rows with the naive kernel's time");
  return s;
}

report::Table speedup_table(const Speedups& s) {
  report::Table t;
  t.title = "BDS Fig. 11 on the GPU: speed-up over the naive kernel by array size";
  t.header = {"device: " + s.device,
              "speed-up: the naive kernel's median time over the kernel's, same workload and size, checked rows "
              "only"};
  t.columns = {"workload", "log2_n", "kernel", "speedup_over_naive"};
  for (const auto& r : s.rows)
    for (std::size_t k = 0; k < kOptimised.size(); ++k)
      if (r.speedup[k]) t.add_row({r.workload, static_cast<long long>(r.log2_n), kOptimised[k], *r.speedup[k]});
  return t;
}

std::string speedup_dat(const Speedups& s, const std::string& csv) {
  std::string out = "# speed-up over the naive kernel (median times, same workload and size), from " + csv +
                    "\n# workload log2_n tile tile-banks tile-banks-iters\n";
  for (const auto& w : s.present) {
    for (const auto& r : s.rows) {
      if (r.workload != w) continue;
      out += "\"" + w + "\" " + std::to_string(r.log2_n);
      for (const auto& x : r.speedup) out += x ? formatted(" %.4f", *x) : " NaN";
      out += "\n";
    }
    out += "\n\n";  // gnuplot's index: one block per workload
  }
  return out;
}

GnuplotVariables speedup_figure_variables(const Speedups& s, const std::string& dir) {
  GnuplotVariables v;
  v.text("output", dir + "/bmmc_speedup").text("points", dir + "/bmmc_speedup.dat").text("device", s.device);
  return v;
}

namespace {

// The 2D schemes in the figure's order: in place, then out of place.
const std::vector<std::pair<std::string, std::string>> kSquare{
    {"in-place", "naive"}, {"in-place", "supergrid"}, {"in-place", "v1"},         {"in-place", "v1r"},
    {"in-place", "v1b"},   {"in-place", "tw"},        {"out-of-place", "nvidia"}, {"out-of-place", "v1bf"}};

ThroughputSeries series_of(const report::CsvTable& t, const std::string& kind, const std::string& algorithm,
                           int depth) {
  ThroughputSeries s{.kind = kind, .algorithm = algorithm, .depth = depth, .points = {}};
  for (const auto& r : t.rows())
    if (r["kind"] == kind && r["algorithm"] == algorithm && r["status"] == "ok" &&
        (depth == 0 || r.integer("depth") == depth))
      s.points.emplace_back(r.integer("rows"), r["gbps"]);
  return s;
}

// A heat map's cell counts as measured when it is a positive number.
bool measured(const std::string& cell) {
  char* end = nullptr;
  const double v = std::strtod(cell.c_str(), &end);
  return end != cell.c_str() && v > 0;
}

}  // namespace

Throughput enumeration_throughput(const report::CsvTable& square, const report::CsvTable* cube,
                                  const std::vector<std::pair<std::string, const report::CsvTable*>>& heat) {
  square.require({"kind", "algorithm", "rows", "gbps", "status"});
  Throughput t;
  for (const auto& [kind, algorithm] : kSquare)
    if (auto s = series_of(square, kind, algorithm, 0); !s.points.empty()) t.square.push_back(std::move(s));
  if (t.square.empty()) throw InputError(square.name() + ": no measured rows (status ok)");
  if (cube) {
    cube->require({"kind", "algorithm", "rows", "gbps", "status", "depth"});
    for (const char* involution : {"yxz", "zyx"})
      for (const char* algorithm : {"naive", "v1b"})
        for (int depth : {2, 3, 4})
          if (auto s = series_of(*cube, involution, algorithm, depth); !s.points.empty())
            t.cube.push_back(std::move(s));
  }
  for (const auto& [algorithm, csv] : heat) {
    if (!csv) continue;
    HeatMap h{.algorithm = algorithm, .cols = {}, .rows = {}, .cells = {}};
    // The header's first cell names the axes ("rows_cols"); the others are the columns, up to the
    // parameters (`device` first) or the build's own columns (report::kVersionColumn), which every
    // table's CSV ends with (docs/report.md); a grid written before either has neither.
    const auto after_grid = [](const std::string& name) { return name == "device" || name == report::kVersionColumn; };
    for (std::size_t i = 1; i < csv->columns().size() && !after_grid(csv->columns()[i]); ++i) {
      try {
        h.cols.push_back(std::stoll(csv->columns()[i]));
      } catch (const std::exception&) {
        throw InputError(csv->name() + ": column " + std::to_string(i + 1) +
                         " of the header is not a number of columns");
      }
    }
    const std::string first = csv->columns().front();
    for (const auto& r : csv->rows()) {
      h.rows.push_back(r.integer(first));
      h.cells.emplace_back(r.fields().begin() + 1, r.fields().begin() + 1 + static_cast<std::ptrdiff_t>(h.cols.size()));
    }
    t.heat.push_back(std::move(h));
  }
  return t;
}

report::Table throughput_table(const Throughput& t) {
  report::Table out;
  out.title = "GL on the GPU: transposition throughput of the measured rows";
  out.columns = {"kind", "algorithm", "depth", "order", "GBps"};
  for (const auto* group : {&t.square, &t.cube})
    for (const auto& s : *group)
      for (const auto& [order, gbps] : s.points)
        out.add_row({s.kind, s.algorithm, s.depth ? report::Cell(static_cast<long long>(s.depth)) : std::monostate{},
                     static_cast<long long>(order), gbps});
  return out;
}

GnuplotVariables throughput_figure_variables(const Throughput& t, const std::string& dir) {
  GnuplotVariables v;
  v.text("output", dir + "/enumeration");
  // The 2D lines: one block of (order, GB/s) per scheme, so that each line is unbroken.
  std::string blocks;
  std::vector<std::string> title, kinds;
  for (const auto& s : t.square) {
    for (const auto& [order, gbps] : s.points) blocks += std::to_string(order) + " " + gbps + "\n";
    blocks += "\n\n";
    title.push_back((s.kind == "in-place" ? "IP " : "OOP ") + s.algorithm);
    kinds.push_back(s.kind);
  }
  v.data("square", blocks).texts("square_title", title).texts("square_kind", kinds);
  // The 3D involutions, one panel each: original grid dashed, V1B solid, one colour per depth.
  for (const char* involution : {"yxz", "zyx"}) {
    std::string lines;
    std::vector<std::string> titles, algorithms, depths;
    for (const auto& s : t.cube) {
      if (s.kind != involution) continue;
      for (const auto& [order, gbps] : s.points) lines += std::to_string(order) + " " + gbps + "\n";
      lines += "\n\n";
      titles.push_back((s.algorithm == "naive" ? "original" : "V1B") + std::string(", depth ") +
                       std::to_string(s.depth));
      algorithms.push_back(s.algorithm);
      depths.push_back(std::to_string(s.depth));
    }
    const std::string name = std::string("cube_") + involution;
    v.number(name + "_lines", static_cast<long long>(titles.size()));
    v.data(name, lines)
        .texts(name + "_title", titles)
        .texts(name + "_algorithm", algorithms)
        .texts(name + "_depth", depths);
  }
  // The heat maps as (cols, rows, GB/s) in K, a row per line; an unmeasured cell is NaN, which
  // leaves it unpainted instead of giving it the scale's bottom colour.
  std::optional<double> lo, hi;
  for (const char* algorithm : {"nvidia", "v1bf"}) {
    const HeatMap* h = nullptr;
    for (const auto& m : t.heat)
      if (m.algorithm == algorithm) h = &m;
    v.number(std::string("has_heat_") + algorithm, h ? 1 : 0);
    std::string lines;
    if (h)
      for (std::size_t r = 0; r < h->rows.size(); ++r) {
        for (std::size_t c = 0; c < h->cols.size() && c < h->cells[r].size(); ++c) {
          const std::string& cell = h->cells[r][c];
          const bool is = measured(cell);
          lines += awk_number(static_cast<double>(h->cols[c]) / 1024) + " " +
                   awk_number(static_cast<double>(h->rows[r]) / 1024) + " " + (is ? cell : "NaN") + "\n";
          if (!is) continue;
          const double x = std::strtod(cell.c_str(), nullptr);
          if (!lo || x < *lo) lo = x;
          if (!hi || x > *hi) hi = x;
        }
        lines += "\n";
      }
    v.data(std::string("heat_") + algorithm, lines);
  }
  // One colour scale for both panels, from the lowest to the highest measured cell of either, rounded
  // out to 100 GB/s: with a scale per panel the same colour meant different speeds on the two sides.
  if (lo) {
    const auto floor100 = [](double x) { return static_cast<long long>(x / 100) * 100; };
    const long long low = floor100(*lo), high = floor100(*hi) + (*hi > static_cast<double>(floor100(*hi)) ? 100 : 0);
    v.number("cb_low", low).number("cb_high", high);
  } else {
    v.number("cb_low", 0).number("cb_high", 0);
  }
  return v;
}

}  // namespace mmsim::experiments::measured
