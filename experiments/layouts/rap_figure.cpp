// The figure rap-congestion: expected congestion of a warp access against w, for every layout and
// access pattern of NMI (Sect. V for w x w matrices, Sect. VII for w^4 arrays), by Monte Carlo.
#include <cstdio>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/patterns.h"
#include "experiments/figures.h"
#include "experiments/layouts/rap_tables.h"
#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"

namespace mmsim::experiments {

namespace {

constexpr std::uint64_t kTrials = 4000;
constexpr std::uint64_t kSeed = 1;

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

// One panel per pattern; one curve per layout; log-log axes so that raw's w and rap's 1 both show.
std::string script(const std::string& name, const std::vector<std::string>& patterns,
                   const std::vector<std::string>& layouts, int cols, const std::string& title, const std::string& csv,
                   bool png) {
  std::string s;
  const int rows = static_cast<int>((patterns.size() + static_cast<std::size_t>(cols) - 1) / static_cast<std::size_t>(cols));
  if (png) s += "set terminal pngcairo size " + std::to_string(520 * cols) + "," + std::to_string(420 * rows) + " font ',10'\n";
  else s += "set terminal svg size " + std::to_string(520 * cols) + "," + std::to_string(420 * rows) + " font 'sans,10'\n";
  s += "set output '" + name + (png ? ".png" : ".svg") + "'\n";
  s += "set datafile separator ','\nset logscale xy 2\nset grid\nset key top left\nset yrange [0.8:*]\n";
  s += "set xlabel 'w (banks = threads per warp)'\nset ylabel 'expected congestion'\n";
  s += "set multiplot layout " + std::to_string(rows) + "," + std::to_string(cols) + " title '" + title + "'\n";
  for (const auto& p : patterns) {
    s += "set title 'access: " + p + "'\n";
    s += "plot ";
    for (std::size_t i = 0; i < layouts.size(); ++i) {
      if (i) s += ", ";
      s += "'" + csv + "' using (strcol(2) eq '" + p + "' && strcol(1) eq '" + layouts[i] +
           "' ? $3 : 1/0):4 with linespoints lw 2 pt " + std::to_string(static_cast<int>(i) + 4) + " title '" +
           layouts[i] + "'";
    }
    s += "\n";
  }
  s += "unset multiplot\n";
  return s;
}

}  // namespace

std::vector<std::string> rap_congestion_figure(const std::string& out_dir) {
  std::vector<std::string> written;
  // w x w matrices.
  {
    std::string csv = "layout,pattern,w,mean,stderr,trials,seed\n";
    std::vector<std::string> lays, pats;
    for (auto k : layouts::matrix_layout_kinds()) lays.push_back(layouts::to_string(k));
    for (auto p : layouts::matrix_patterns()) pats.push_back(layouts::to_string(p));
    for (const auto& l : lays)
      for (const auto& p : pats)
        for (std::uint32_t w = 4; w <= 1024; w *= 2) {
          layouts::CongestionQuery q;
          q.layout = l, q.pattern = p, q.w = w, q.trials = kTrials, q.seed = kSeed;
          const auto s = layouts::simulate_congestion(q);
          csv += l + "," + p + "," + std::to_string(w) + "," + number(s.mean) + "," + number(s.stderr_mean) + "," +
                 std::to_string(kTrials) + "," + std::to_string(kSeed) + "\n";
        }
    const std::string name = "rap-congestion";
    write_file(out_dir + "/" + name + ".csv", csv);
    const std::string title = "Expected congestion of one warp access to a w x w matrix (NMI Sect. V; " +
                              std::to_string(kTrials) + " trials per point; curves that coincide hide each other)";
    run_gnuplot(out_dir, name + "-png", script(name, pats, lays, 2, title, name + ".csv", true));
    run_gnuplot(out_dir, name + "-svg", script(name, pats, lays, 2, title, name + ".csv", false));
    for (const char* ext : {".csv", ".png", ".svg"}) written.push_back(out_dir + "/" + name + ext);
  }
  // w^4 arrays.
  {
    std::string csv = "layout,pattern,w,mean,stderr,trials,seed\n";
    std::vector<std::string> lays, pats;
    for (auto k : layouts::array4_layout_kinds()) lays.push_back(layouts::to_string(k));
    for (auto p : layouts::array4_patterns()) pats.push_back(layouts::to_string(p));
    for (const auto& l : lays)
      for (const auto& p : pats)
        for (std::uint32_t w = 4; w <= 128; w *= 2) {
          layouts::CongestionQuery q;
          q.dims = 4, q.layout = l, q.pattern = p, q.w = w, q.trials = kTrials / 4, q.seed = kSeed;
          const auto s = layouts::simulate_congestion(q);
          csv += l + "," + p + "," + std::to_string(w) + "," + number(s.mean) + "," + number(s.stderr_mean) + "," +
                 std::to_string(q.trials) + "," + std::to_string(kSeed) + "\n";
        }
    const std::string name = "rap-congestion-4d";
    write_file(out_dir + "/" + name + ".csv", csv);
    const std::string title = "Expected congestion of one warp access to a w^4 array (NMI Sect. VII; " +
                              std::to_string(kTrials / 4) + " trials per point; curves that coincide hide each other)";
    run_gnuplot(out_dir, name + "-png", script(name, pats, lays, 3, title, name + ".csv", true));
    run_gnuplot(out_dir, name + "-svg", script(name, pats, lays, 3, title, name + ".csv", false));
    for (const char* ext : {".csv", ".png", ".svg"}) written.push_back(out_dir + "/" + name + ext);
  }
  return written;
}

}  // namespace mmsim::experiments
