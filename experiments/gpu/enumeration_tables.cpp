// The tables of `mmsim gpu enumeration` (experiments/gpu/enumeration_driver.h), every one a report::Table.
// Numbers keep the fixed decimals the result files have always had (ms to 4, GB/s to 2 in the
// CSVs, to 1 in the Markdown), so those cells are text already formatted.
#include <cstdio>
#include <map>

#include "cuda/enumeration/tiles.h"
#include "experiments/gpu/enumeration_driver.h"
#include "experiments/gpu/timing_parameters.h"

namespace mmsim::gpu::enumeration {

namespace {

using report::Cell;

std::string fmt(double v, int digits = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

Cell count(u64 v) { return static_cast<long long>(v); }

bool measured(const Result& r) { return r.status != "too-large" && r.status != "time"; }

// One row per measurement (tidy): enumeration.csv and enumeration_heatmap.csv; enumeration_3d.csv
// has the depth as a last column (so the 2D files keep their columns).
report::Table results_table(const std::vector<Result>& rs, bool with_depth = false) {
  report::Table t;
  t.columns = {"kind",   "algorithm", "rows", "cols", "band",       "region", "median_ms",
               "min_ms", "max_ms",    "GBps", "runs", "mismatches", "status"};
  if (with_depth) t.columns.push_back("depth");
  for (const auto& r : rs) {
    std::vector<Cell> row{r.kind,
                          r.alg,
                          count(r.rows),
                          count(r.cols),
                          count(r.band),
                          count(r.region),
                          fmt(r.t.median_ms, 4),
                          fmt(r.t.min_ms, 4),
                          fmt(r.t.max_ms, 4),
                          fmt(r.gbps(), 2),
                          static_cast<long long>(r.t.runs),
                          count(r.mismatches),
                          r.status};
    if (with_depth) row.emplace_back(count(r.depth));
    t.add_row(std::move(row));
  }
  return t;
}

// One algorithm's heat map as a grid: first row the column counts, first column the row counts;
// GB/s in the cells, 0 where the shape was not measured (too large, or out of time).
report::Table heat_grid(const std::vector<Result>& rs, const std::string& alg, const EnumerationOptions& opt) {
  std::map<std::pair<u64, u64>, double> v;
  for (const auto& r : rs)
    if (r.alg == alg) v[{r.rows, r.cols}] = r.gbps();
  report::Table t;
  t.columns = {"rows\\cols"};
  for (u64 c = opt.heat_step; c <= opt.heat_max; c += opt.heat_step) t.columns.push_back(std::to_string(c));
  for (u64 r = opt.heat_step; r <= opt.heat_max; r += opt.heat_step) {
    std::vector<Cell> row{count(r)};
    for (u64 c = opt.heat_step; c <= opt.heat_max; c += opt.heat_step) row.emplace_back(fmt(v[{r, c}], 2));
    t.add_row(std::move(row));
  }
  return t;
}

const std::vector<std::pair<std::string, std::string>> kAlgs{
    {"in-place", "naive"}, {"in-place", "supergrid"}, {"in-place", "v1"},         {"in-place", "v1r"},
    {"in-place", "v1b"},   {"in-place", "tw"},        {"out-of-place", "nvidia"}, {"out-of-place", "v1bf"}};

std::string label(const std::pair<std::string, std::string>& a) {
  return std::string(a.first == "in-place" ? "IP " : "OOP ") + a.second;
}

report::Table throughput_table(const EnumerationRun& sw, const EnumerationOptions& opt) {
  report::Table t;
  t.title = "Throughput (GB/s) against the matrix order";
  t.header = {"Device: " + sw.device + ".",
              "float matrices; tiles of " + std::to_string(kTile) + " x " + std::to_string(kTile) +
                  " cells, blocks of " + std::to_string(kTile) + " x " + std::to_string(kRows) +
                  " threads; V1B and V1BF bands of " + std::to_string(opt.band) + " tiles; super-grid regions of " +
                  std::to_string(opt.region) + " x " + std::to_string(opt.region) +
                  " tiles (one launch each). Throughput = 8 bytes per cell (one read, one write) / median time of " +
                  std::to_string(opt.runs) + " timed runs after " + std::to_string(opt.warmup) +
                  " warm-up runs (CUDA events around the launches only)."};
  t.columns = {"order"};
  for (const auto& a : kAlgs) t.columns.push_back(label(a));
  std::map<u64, std::map<std::string, const Result*>> by;
  for (const auto& r : sw.square) by[r.rows][r.kind + "/" + r.alg] = &r;
  for (const auto& [n, m] : by) {
    std::vector<Cell> row{count(n)};
    for (const auto& a : kAlgs) {
      const auto it = m.find(a.first + "/" + a.second);
      if (it == m.end() || !measured(*it->second))
        row.emplace_back(std::string("-"));
      else
        row.emplace_back(fmt(it->second->gbps()) + (it->second->mismatches ? " (WRONG)" : ""));
    }
    t.add_row(std::move(row));
  }
  return t;
}

// GB/s of each involution (original full grid, banded V1B) by order, one column per depth.
report::Table throughput_3d_table(const EnumerationRun& sw, const EnumerationOptions& opt) {
  report::Table t;
  t.title = "3D involutions in place: throughput (GB/s) against the order (GL Figs. 14-15)";
  t.header = {
      "T_yxz: n x n x depth, the depth xy planes transposed; T_zyx: n x depth x n, the depth xz slices "
      "transposed. naive: full grid of tile pairs per plane, blocks above the diagonal idle (Listing 6); v1b: "
      "tile pairs decoded by V1B, bands of " +
      std::to_string(opt.band) + " tiles (Listing 7). Same tiles, blocks and timing as the 2D table."};
  t.columns = {"order"};
  const std::vector<std::string> kinds{"yxz", "zyx"}, algs{"naive", "v1b"};
  const std::vector<u64> depths{2, 3, 4};
  for (const auto& k : kinds)
    for (const auto& a : algs)
      for (u64 d : depths) t.columns.push_back("T_" + k + " " + a + " d=" + std::to_string(d));
  std::map<u64, std::map<std::string, const Result*>> by;
  for (const auto& r : sw.involution) by[r.rows][r.kind + "/" + r.alg + "/" + std::to_string(r.depth)] = &r;
  for (const auto& [n, m] : by) {
    std::vector<Cell> row{count(n)};
    for (const auto& k : kinds)
      for (const auto& a : algs)
        for (u64 d : depths) {
          const auto it = m.find(k + "/" + a + "/" + std::to_string(d));
          if (it == m.end() || !measured(*it->second))
            row.emplace_back(std::string("-"));
          else
            row.emplace_back(fmt(it->second->gbps()) + (it->second->mismatches ? " (WRONG)" : ""));
        }
    t.add_row(std::move(row));
  }
  t.notes = {"- Largest order measured: " + std::to_string(sw.largest_3d) + " (stopped by " + sw.stop_3d + ")."};
  return t;
}

report::Table stability_table(const EnumerationRun& sw) {
  report::Table t;
  t.title = "Stability per algorithm";
  t.header = {
      "best/worst: the best order's throughput over the worst order's. largest/peak: the throughput at the "
      "largest order measured over the peak. Small orders are also slow for reasons other than address "
      "translation (too few blocks to fill the GPU, launch overhead), hence the third ratio over orders of "
      "16384 and more only."};
  t.columns = {"algorithm",  "orders",       "peak GB/s (order)",         "worst GB/s (order)",
               "best/worst", "largest/peak", "best/worst, order >= 16384"};
  for (const auto& a : kAlgs) {
    const Result *best = nullptr, *worst = nullptr, *last = nullptr, *best16 = nullptr, *worst16 = nullptr;
    long long orders = 0;
    for (const auto& r : sw.square) {
      if (r.kind != a.first || r.alg != a.second || r.status != "ok") continue;
      ++orders;
      if (!best || r.gbps() > best->gbps()) best = &r;
      if (!worst || r.gbps() < worst->gbps()) worst = &r;
      if (!last || r.rows > last->rows) last = &r;
      if (r.rows >= 16384) {
        if (!best16 || r.gbps() > best16->gbps()) best16 = &r;
        if (!worst16 || r.gbps() < worst16->gbps()) worst16 = &r;
      }
    }
    if (!best) {
      t.add_row(
          {label(a), orders, std::string("-"), std::string("-"), std::string("-"), std::string("-"), std::string("-")});
      continue;
    }
    t.add_row({label(a), orders, fmt(best->gbps()) + " (" + std::to_string(best->rows) + ")",
               fmt(worst->gbps()) + " (" + std::to_string(worst->rows) + ")", fmt(best->gbps() / worst->gbps(), 2),
               fmt(last->gbps() / best->gbps(), 2),
               best16 ? fmt(best16->gbps() / worst16->gbps(), 2) : std::string("-")});
  }
  return t;
}

report::Table heat_summary_table(const EnumerationRun& sw, const EnumerationOptions& opt) {
  report::Table t;
  t.title = "Heat map: out of place, rows x cols (GB/s)";
  t.header = {"Shapes from " + std::to_string(opt.heat_step) + " to " + std::to_string(opt.heat_max) + " in steps of " +
              std::to_string(opt.heat_step) + ", " + std::to_string(opt.heat_runs) +
              " timed runs each; grids in enumeration_heatmap_nvidia.csv and enumeration_heatmap_v1bf.csv (0 = not "
              "measured)."};
  t.columns = {"algorithm",        "shapes measured",  "too large", "out of time",
               "min GB/s (shape)", "max GB/s (shape)", "max/min"};
  for (const char* alg : {"nvidia", "v1bf"}) {
    const Result *lo = nullptr, *hi = nullptr;
    long long ok = 0, big = 0, late = 0;
    for (const auto& r : sw.heat) {
      if (r.alg != alg) continue;
      if (r.status == "too-large")
        ++big;
      else if (r.status == "time")
        ++late;
      else {
        ++ok;
        if (!lo || r.gbps() < lo->gbps()) lo = &r;
        if (!hi || r.gbps() > hi->gbps()) hi = &r;
      }
    }
    const std::string name = std::string("OOP ") + alg;
    if (!lo) {
      t.add_row({name, ok, big, late, std::string("-"), std::string("-"), std::string("-")});
      continue;
    }
    const auto shape = [](const Result* r) { return std::to_string(r->rows) + " x " + std::to_string(r->cols); };
    t.add_row({name, ok, big, late, fmt(lo->gbps()) + " (" + shape(lo) + ")", fmt(hi->gbps()) + " (" + shape(hi) + ")",
               fmt(hi->gbps() / lo->gbps(), 2)});
  }
  const u64 bad = sw.mismatched_cells();
  t.notes = {
      "- Largest order measured in place: " + std::to_string(sw.largest_ip) + " (stopped by " + sw.ip_stop + ").",
      "- Largest order measured out of place: " + std::to_string(sw.largest_oop) + " (stopped by " + sw.oop_stop + ").",
      "- Checks: in place (2D and 3D), the matrix is filled with distinct cell values, checked on the GPU against its "
      "transpose (3D: the involution's image) "
      "after one run and again after the timed runs (against the parity of the number of runs); out of place, the "
      "output is poisoned (all-ones NaN, no cell's value) before every run and the last run's output is checked "
      "cell by cell on the GPU. Mismatched cells over all runs: " +
          std::to_string(bad) + (bad ? " -- SOME RESULTS ARE WRONG." : "."),
      "- Whether the \"seashore\" degradation of GL (throughput falling with the order, Figs. 9-11, and "
      "the cold shore of the heat maps, Figs. 12-13) shows on this device is read from the ratios above; this "
      "file does not judge it.",
      "- Whole run: " + fmt(sw.seconds, 1) + " s (budget " + fmt(opt.budget_s, 0) + " s)."};
  return t;
}

}  // namespace

EnumerationTables enumeration_tables(const EnumerationOptions& o, const EnumerationRun& run) {
  EnumerationTables t;
  t.square = results_table(run.square);
  t.involution = results_table(run.involution, true);
  t.throughput_3d = throughput_3d_table(run, o);
  t.heat = results_table(run.heat);
  t.heat_nvidia = heat_grid(run.heat, "nvidia", o);
  t.heat_v1bf = heat_grid(run.heat, "v1bf", o);
  // Every CSV's rows end with the device and the warm-ups (runs is a column of the tidy tables; the
  // grids' cells are medians of heat_runs runs after one warm-up run each).
  t.square.parameters = timing_parameters(run.device, -1, o.warmup, std::nullopt);
  t.involution.parameters = t.square.parameters;
  t.heat.parameters = timing_parameters(run.device, -1, 1, std::nullopt);
  t.heat_nvidia.parameters = timing_parameters(run.device, o.heat_runs, 1, std::nullopt);
  t.heat_v1bf.parameters = t.heat_nvidia.parameters;
  t.throughput = throughput_table(run, o);
  t.stability = stability_table(run);
  t.heat_summary = heat_summary_table(run, o);
  return t;
}

std::string enumeration_markdown(const EnumerationTables& t) {
  return "# Enumeration-scheme transposition on the GPU (GL Sect. 7, Figs. 9-15)\n\n" +
         report::to_markdown(t.throughput) + "\n" + report::to_markdown(t.stability) + "\n" +
         report::to_markdown(t.throughput_3d) + "\n" + report::to_markdown(t.heat_summary);
}

}  // namespace mmsim::gpu::enumeration
