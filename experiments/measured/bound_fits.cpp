// The fits of the bounds: KNI Table 1's rows against the measured ms, and AS's results against one
// instance's GPU cycles. Both fit y = c x by least squares through the origin, c = sum(x y) /
// sum(x x), summed in the CSV's order (the numbers are kept byte for byte from the first fits).
#include <cmath>
#include <map>

#include "experiments/measured/measured.h"
#include "experiments/measured/text.h"
#include "io/input_error.h"
#include "io/input_file.h"

namespace mmsim::experiments::measured {

report::CsvTable read_measured_csv(const std::string& path, const std::string& option) {
  // A measured table has some thousand rows; the bound leaves room for many more.
  InputFile file(option, path, std::uint64_t{1} << 28, "a measured table may have");
  try {
    return report::CsvTable(file.stream(), path);
  } catch (const report::CsvError& e) {
    throw InputError(option + ": " + e.what());
  }
}

namespace {

// Table 1's kernels in the table's order, with the expression of each one's row.
const std::vector<std::string> kTable1Kernels{"d-designated",    "s-designated",        "in-place",
                                              "scheduled-paper", "scheduled-pipelined", "scheduled-fused"};
// The permutations, in the order of the figure's colours.
const std::vector<std::string> kPermutations{"identical", "shuffle", "bit-reversal", "transpose", "random"};
// Below n = 2^22 a kernel takes about one launch's time, a term no bound of Table 1 has.
constexpr std::int64_t kLargeN = std::int64_t{1} << 22;

std::string nan_or(const std::optional<double>& v) { return v ? formatted("%.6g", *v) : "nan"; }

}  // namespace

std::vector<Table1Fit> fit_table1_bounds(const report::CsvTable& bounds) {
  bounds.require({"kernel", "type", "row", "bound_time_units", "ms", "permutation", "n"});
  struct Sums {
    double xy = 0, xx = 0, y = 0;
  };
  std::vector<Table1Fit> fits;
  std::vector<Sums> sums;
  std::map<std::pair<std::string, std::string>, std::size_t> group;
  for (const auto& r : bounds.rows()) {
    const auto [it, fresh] = group.emplace(std::make_pair(r["kernel"], r["type"]), fits.size());
    if (fresh) {
      Table1Fit f;
      f.kernel = r["kernel"], f.row = r["row"], f.type = r["type"];
      fits.push_back(std::move(f));
      sums.emplace_back();
    }
    const double x = r.number("bound_time_units"), y = r.number("ms");
    if (!(x > 0) || !(y > 0)) throw r.error("bound_time_units and ms must be positive");
    BoundPoint p;
    p.permutation = r["permutation"], p.n = r.integer("n"), p.bound = x, p.ms = y;
    fits[it->second].points.push_back(std::move(p));
    Sums& s = sums[it->second];
    s.xy += x * y;
    s.xx += x * x;
    s.y += y;
  }
  if (fits.empty()) throw InputError(bounds.name() + ": no runs");
  for (std::size_t g = 0; g < fits.size(); ++g) {
    Table1Fit& f = fits[g];
    f.c = sums[g].xy / sums[g].xx;
    const double mean = sums[g].y / static_cast<double>(f.points.size());
    double residual = 0, total = 0, worst = -1, large = -1;
    f.min_n = f.max_n = f.points.front().n;
    for (auto& p : f.points) {
      p.fitted_ms = f.c * p.bound;
      const double e = p.ms - p.fitted_ms;
      residual += e * e;
      total += (p.ms - mean) * (p.ms - mean);
      p.rel_residual = p.ms / p.fitted_ms - 1;
      const double a = std::abs(p.rel_residual);
      if (a > worst) worst = a, f.worst_permutation = p.permutation, f.worst_n = p.n;
      if (p.n >= kLargeN && a > large) large = a;
      f.min_n = std::min(f.min_n, p.n);
      f.max_n = std::max(f.max_n, p.n);
    }
    f.max_rel_residual = worst;
    // One point, or equal times, leave no spread to explain: R^2 is then undefined.
    if (total > 0) f.r2 = 1 - residual / total;
    if (large >= 0) f.max_rel_residual_large = large;
  }
  return fits;
}

report::Table table1_fit_table(const std::vector<Table1Fit>& fits) {
  report::Table t;
  t.title = "KNI Table 1 on the GPU: ms = c x bound, least squares through the origin, per kernel and type";
  t.columns = {"kernel",
               "row",
               "type",
               "points",
               "min_n",
               "max_n",
               "ms_per_time_unit",
               "r2",
               "max_rel_residual",
               "worst_permutation",
               "worst_n",
               "max_rel_residual_n_ge_2^22"};
  for (const auto& f : fits)
    t.add_row({f.kernel, f.row, f.type, static_cast<long long>(f.points.size()), static_cast<long long>(f.min_n),
               static_cast<long long>(f.max_n), f.c, nan_or(f.r2), f.max_rel_residual, f.worst_permutation,
               static_cast<long long>(f.worst_n), nan_or(f.max_rel_residual_large)});
  t.notes.push_back(
      "r2: 1 - residual / total sum of squares about the mean (nan: the times do not vary); max_rel_residual: the "
      "largest |ms / (c x bound) - 1|, over every size and over n >= 2^22 (below that the kernels take about one "
      "launch's time, a term no bound of Table 1 has).");
  return t;
}

std::string table1_points_dat(const std::vector<Table1Fit>& fits) {
  std::string out = "# kernel type permutation n bound_time_units ms fitted_ms rel_residual\n";
  for (const auto& f : fits)
    for (const auto& p : f.points)
      out += formatted("%s %s %s %lld %.10g %.10g %.10g %.6g\n", f.kernel.c_str(), f.type.c_str(),
                       p.permutation.c_str(), static_cast<long long>(p.n), p.bound, p.ms, p.fitted_ms, p.rel_residual);
  return out;
}

GnuplotVariables table1_figure_variables(const std::vector<Table1Fit>& fits, const std::string& dir,
                                         const GpuIdentity& gpu) {
  std::vector<std::string> kernels, perms, c_float, c_double, label_float, label_double;
  for (const auto& k : kTable1Kernels) {
    const Table1Fit* by_type[2] = {nullptr, nullptr};
    bool ran = false;
    for (const auto& f : fits) {
      ran = ran || f.kernel == k;
      if (f.kernel == k && (f.type == "float" || f.type == "double")) by_type[f.type == "double"] = &f;
    }
    if (!ran) continue;
    kernels.push_back(k);
    std::string words;
    for (const auto& p : kPermutations) {
      bool present = false;
      for (const auto& f : fits)
        for (const auto& pt : f.points) present = present || (f.kernel == k && pt.permutation == p);
      if (present) words += (words.empty() ? "" : " ") + p;
    }
    perms.push_back(words);
    for (int t = 0; t < 2; ++t) {
      std::string c = "NaN", label;
      if (const Table1Fit* f = by_type[t]) {
        // The numbers as the fit's CSV holds them, shortened for the panel's corner.
        c = formatted("%.6g", f->c);
        label = f->type + ": c = " + reformatted("%.3Lg", c) +
                " ms/unit, R^2 = " + reformatted("%.4Lf", nan_or(f->r2)) + ", max |res| " +
                reformatted("%.3Lg", formatted("%.6g", f->max_rel_residual)) + ", from 2^{22} " +
                reformatted("%.3Lg", nan_or(f->max_rel_residual_large));
      }
      (t ? c_double : c_float).push_back(c);
      (t ? label_double : label_float).push_back(label);
    }
  }
  GnuplotVariables v;
  v.text("output", dir + "/table1_bounds")
      .text("points", dir + "/table1_bounds.dat")
      .text("device", gpu.name.empty() ? "" : " (" + gpu.name + ")")
      .text("machine", gpu.machine.empty() ? "on the GPU profile's machine" : gpu.machine)
      .texts("kernel", kernels)
      .texts("perms", perms)
      .numbers("c_float", c_float)
      .numbers("c_double", c_double)
      .texts("label_float", label_float)
      .texts("label_double", label_double);
  return v;
}

namespace {

double lg(double x, double b) { return std::log(x) / std::log(b); }

// AS Theorems 1-2: m log2(m w).
double sort_bound(double m, double w) { return m * lg(m * w, 2); }
// AS Corollary 1, Theorem 1 (O(m), w <= m) and Lemma 2 (O(m log_m^3 w), w > m): m max(1, log_m w)^3.
double partition_bound(double m, double w) {
  const double l = m > 1 ? lg(w, m) : w;
  return m * (l > 1 ? l * l * l : 1);
}
// AS Theorem 4: O(m log log log_m w) expected, as m max(1, log2 log2 log_m w), the inner logarithms
// taken only where they exceed 1 (on every shape of the GPU's grid, w = 32 and m >= 4, it is m).
double permute_bound(double m, double w) {
  double l = m > 1 ? lg(w, m) : w;
  if (l <= 2) return m;
  l = lg(lg(l, 2), 2);
  return m * (l > 1 ? l : 1);
}

}  // namespace

const std::vector<AsBound>& as_bounds() {
  // (AS Theorem 3 is the hash family that Theorem 4 draws from: it bounds no running time.)
  static const std::vector<AsBound> all{
      {"as_sort_bound", "as-sort", "m log_2(m w)",
       "AS Theorems 1-2 on the GPU: the conflict-free sort of a w x m matrix (w = 32) against its bound", sort_bound},
      {"as_partition_bound", "as-partition", "m max(1, log_m w)^3",
       "AS Corollary 1, Theorem 1, Lemma 2 on the GPU: the w-way partition (w = 32) against its bound",
       partition_bound},
      {"as_permute_bound", "as-permute", "m max(1, log_2 log_2 log_m w)",
       "AS Theorem 4 on the GPU: the randomized permutation (w = 32) against its bound", permute_bound},
  };
  return all;
}

std::vector<AsBoundFit> fit_as_bounds(const report::CsvTable& as_gpu) {
  as_gpu.require({"algorithm", "correct", "w", "m", "gpu_cycles_alone", "sim_steps"});
  std::vector<AsBoundFit> fits;
  for (const auto& b : as_bounds()) {
    AsBoundFit f;
    f.bound = &b;
    double xy = 0, xx = 0, xs = 0;
    for (const auto& r : as_gpu.rows()) {
      if (r["algorithm"] != b.algorithm || r["correct"] != "yes") continue;
      const std::int64_t w = r.integer("w"), m = r.integer("m"), steps = r.integer("sim_steps");
      const double x = b.expression(static_cast<double>(m), static_cast<double>(w));
      const double y = r.number("gpu_cycles_alone");
      f.w.push_back(w), f.m.push_back(m), f.sim_steps.push_back(steps), f.x.push_back(x), f.cycles.push_back(y);
      xy += x * y;
      xx += x * x;
      xs += x * static_cast<double>(steps);
    }
    if (f.x.empty()) continue;
    f.c = xy / xx;
    f.steps_c = xs / xx;
    fits.push_back(std::move(f));
  }
  return fits;
}

report::Table as_fit_table(const std::vector<AsBoundFit>& fits) {
  report::Table t;
  t.title = "AS bounds on the GPU: one instance's cycles and the simulated steps over the bound's expression";
  t.columns = {"algorithm", "expression", "points", "gpu_cycles_per_unit", "sim_steps_per_unit"};
  for (const auto& f : fits)
    t.add_row({f.bound->algorithm, f.bound->xlabel, static_cast<long long>(f.x.size()), formatted("%.4g", f.c),
               formatted("%.4g", f.steps_c)});
  t.notes.push_back(
      "One warp alone on its SM, cycles by clock64(), checked rows only; each constant fitted by least squares "
      "through the origin.");
  return t;
}

std::string as_points_dat(const AsBoundFit& f, const std::string& csv) {
  const char* x = f.bound->xlabel.c_str();
  std::string out = formatted("# %s, one instance alone, from %s\n", f.bound->algorithm.c_str(), csv.c_str());
  out += formatted("# fitted: cycles = %.4g * %s; simulated steps = %.4g * %s\n", f.c, x, f.steps_c, x);
  out += "# w m bound gpu_cycles fitted_cycles sim_steps cycles/bound\n";
  for (std::size_t i = 0; i < f.x.size(); ++i)
    out += formatted("%lld %lld %.6g %.6g %.6g %lld %.4g\n", static_cast<long long>(f.w[i]),
                     static_cast<long long>(f.m[i]), f.x[i], f.cycles[i], f.c * f.x[i],
                     static_cast<long long>(f.sim_steps[i]), f.cycles[i] / f.x[i]);
  return out;
}

GnuplotVariables as_figure_variables(const std::vector<AsBoundFit>& fits, const std::string& dir,
                                     const GpuIdentity& gpu) {
  std::vector<std::string> output, points, heading, xlabel, c, steps_c;
  for (const auto& f : fits) {
    output.push_back(dir + "/" + f.bound->figure);
    points.push_back(dir + "/" + f.bound->figure + ".dat");
    heading.push_back(f.bound->heading);
    xlabel.push_back(f.bound->xlabel);
    c.push_back(formatted("%.4g", f.c));
    steps_c.push_back(formatted("%.4g", f.steps_c));
  }
  GnuplotVariables v;
  v.number("figures", static_cast<long long>(fits.size()))
      .text("device", gpu.name.empty() ? "" : "(" + gpu.name + ")")
      .texts("output", output)
      .texts("points", points)
      .texts("heading", heading)
      .texts("xlabel", xlabel)
      .texts("c", c)
      .texts("steps_c", steps_c);
  return v;
}

}  // namespace mmsim::experiments::measured
