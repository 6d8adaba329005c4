// Every figure is counted by the engine (steps = warp accesses, time units = sum of congestions);
// the normalised columns divide the simulated steps by the papers' bounds: m log2(mw) for sorting
// (Theorems 1-2), m for partition (Corollary 1, Theorem 1) and m log_m^3 w for Lemma 2.
#include "experiments/sorting/as_bounds.h"

#include <cmath>

#include "algorithms/input_error.h"
#include "algorithms/sorting/sorting.h"
#include "experiments/figures.h"

namespace mmsim::experiments {

namespace {

// The bitonic baseline makes n log2^2 n / (2w) steps of 4 accesses: it stops at this many cells so
// that the whole table stays within about a minute on one core.
constexpr std::uint64_t kBitonicMaxCells = std::uint64_t{1} << 16;

std::string short_method(const std::string& m) {
  const auto cut = m.find_first_of("(:");
  std::string s = m.substr(0, cut);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

report::Table make(const std::vector<int>& widths, std::uint64_t seed) {
  report::Table t;
  t.title = "AS: steps of conflict-free sorting, partition and permutation on the DMM (p = w, latency 1)";
  t.header = {"w in {" + [&] {
                std::string s;
                for (int w : widths) s += (s.empty() ? "" : ", ") + std::to_string(w);
                return s;
              }() + "}, m = w/8 ... 64w (powers of two, m >= 1), seed = " + std::to_string(seed),
              "steps = warp accesses counted by the engine; time units = sum of congestions (= steps when the CAC holds)",
              "as-sort-bitonic only up to w m = " + std::to_string(kBitonicMaxCells) + " cells (its runtime grows as n log^2 n)"};
  t.columns = {"w", "m", "algorithm", "method", "steps", "time units", "cac violations", "steps/(m log2 mw)",
               "steps/m", "steps/(m log_m^3 w)", "correct"};
  for (int w : widths) {
    const auto W = static_cast<std::uint64_t>(w);
    for (std::uint64_t m = std::max<std::uint64_t>(1, W / 8); m <= 64 * W; m *= 2) {
      const auto keys = sorting::random_keys(w, m, seed);
      const auto part = sorting::random_partition(w, m, seed);
      const auto perm = sorting::random_permutation(w, m, seed);
      // One row per run, made as soon as the run ends: a run carries every round of its engine, so
      // only one is held at a time.
      const auto add = [&](const sorting::SortingRun& r) {
        const double steps = static_cast<double>(r.summary.steps), md = static_cast<double>(m);
        const double lg = std::log2(md * static_cast<double>(w));
        report::Cell lemma2;
        if (m > 1 && W > m) {
          const double l = std::log(static_cast<double>(w)) / std::log(md);
          lemma2 = steps / (md * l * l * l);
        }
        t.add_row({static_cast<long long>(w), static_cast<long long>(m), r.algorithm, short_method(r.method),
                   static_cast<long long>(r.summary.steps), static_cast<long long>(r.summary.time_units),
                   static_cast<long long>(r.summary.cac_violations), lg > 0 ? report::Cell(steps / (md * lg)) : report::Cell(),
                   steps / md, lemma2, std::string(r.correct ? "yes" : "NO")});
      };
      add(sorting::as_sort(w, m, keys));
      if (W * m <= kBitonicMaxCells) add(sorting::bitonic_flat(w, m, keys));
      add(sorting::as_partition(w, m, part));
      if (W > m) add(sorting::as_partition_sort_based(w, m, part));  // Theorem 2's path, for contrast
      add(sorting::direct_partition(w, m, part));
      add(sorting::as_permute(w, m, perm, seed));
      add(sorting::direct_permute(w, m, perm));
    }
  }
  t.notes = {
      "steps/(m log_m^3 w) is shown only where w > m (log_m w > 1), the regime of AS Lemma 2.",
      "as-sort: Lemma 1 (w^2 <= m) and Theorem 1 (w = m) as in the paper (one extra cleanup round when m is not a "
      "perfect square); Theorem 2 (w > m) with columns sorted by Batcher's bitonic network (O(m log^2 w)) instead of "
      "Cole's EREW sort; sqrt(m) < w < m by a composition of Lemma 1 pieces and bitonic column sorts.",
      "as-partition: radix-sorted rows: O(m) for Corollary 1 and Theorem 1; for w > m Lemma 2 (balancing in "
      "ceil(log_m w) rounds, convert and divide until sub-problems have at most m rows, columns sorted by recursion on "
      "w/m x m blocks, then the plain and the half-shifted m x m squares sorted by Theorem 1), where the bound on "
      "the dirty rows it leaves is at most m/2 (m large enough for log_m w, as the lemma assumes); otherwise, and as "
      "as-partition-sort for every w > m, Theorem 2's path: rows O(m log_m w), columns by bitonic network O(m log^2 w). "
      "Sub-problems of fewer than m rows are sorted by Lemma 1 pieces and bitonic column sorts, and every row sort "
      "is a radix sort costing O(m log_m w), not O(m), so the constant in front of m log_m^3 w is large on this grid.",
      "as-permute: Theorem 4's main loop (random shift, tile transposes, a random table in place of the Pagh-Pagh hash "
      "family, colouring, alpha = 2 communication, synchronisation); its finish sorts the whole matrix (O(m log mw)) "
      "instead of Appendix B's packing, so its total follows the sorting bound.",
      "baselines: as-sort-bitonic runs Batcher's network on the row-major array; the direct baselines send each item "
      "straight to its destination one column per step; both break the CAC.",
  };
  return t;
}

}  // namespace

report::Table as_bounds_table(const TableOptions& o) {
  std::vector<int> widths{8, 16, 32, 64};
  if (o.w) {
    sorting::check_shape(*o.w, 1);
    if (*o.w > 128) throw InputError("-w: at most 128 for this table (its largest m is 64 w)");
    widths = {*o.w};
  }
  return make(widths, o.seed);
}

std::vector<std::string> as_bounds_figure(const std::string& out_dir) {
  const report::Table t = make({8, 16, 32, 64}, 1);
  write_file(out_dir + "/as-bounds.csv", report::to_csv(t));
  // One data file per (algorithm, w): m, steps/(m log2 mw), steps/m.
  std::string data;
  const std::vector<std::string> algos{"as-sort", "as-partition", "as-permute", "as-sort-bitonic",
                                       "as-partition-direct", "as-permute-direct"};
  for (const auto& a : algos)
    for (int w : {8, 16, 32, 64}) {
      data += "# " + a + " w=" + std::to_string(w) + "\n";
      for (const auto& row : t.rows) {
        if (std::get<std::string>(row[2]) != a || std::get<long long>(row[0]) != w) continue;
        const auto cell = [](const report::Cell& c) {
          if (const auto* d = std::get_if<double>(&c)) return report::format_number(*d, 6);
          return std::string("NaN");
        };
        data += std::to_string(std::get<long long>(row[1])) + " " + cell(row[7]) + " " + cell(row[8]) + " " +
                std::to_string(std::get<long long>(row[5])) + "\n";
      }
      data += "\n\n";
    }
  write_file(out_dir + "/as-bounds.dat", data);
  std::string plots;
  const auto panel = [&](const std::string& title, int algo, const std::string& ylabel, int col, int base_algo) {
    std::string s = "set title '" + title + "'\nset ylabel '" + ylabel + "'\nplot ";
    for (int i = 0; i < 4; ++i) {
      const int w = 8 << i;
      s += "'as-bounds.dat' index " + std::to_string(algo * 4 + i) + " using 1:" + std::to_string(col) +
           " with linespoints lw 2 pt 7 title 'w = " + std::to_string(w) + "', ";
    }
    for (int i = 0; i < 4; ++i) {
      const int w = 8 << i;
      s += "'as-bounds.dat' index " + std::to_string(base_algo * 4 + i) + " using 1:(column(" + std::to_string(col) +
           ")) with linespoints dt 2 pt 6 title 'baseline w = " + std::to_string(w) + "'" + (i < 3 ? ", " : "\n");
    }
    return s;
  };
  plots += panel("as-sort (dashed: bitonic on the flat array)", 0, "steps / (m log2 mw)", 2, 3);
  plots += panel("as-partition (dashed: direct sends)", 1, "steps / m", 3, 4);
  plots += panel("as-permute (dashed: direct sends)", 2, "steps / m", 3, 5);
  // The baselines' steps hide their conflicts; time units / m shows them.
  std::string tu = "set title 'time units / m: baselines pay for conflicts'\nset ylabel 'time units / m'\nplot ";
  for (int i = 0; i < 4; ++i)
    tu += "'as-bounds.dat' index " + std::to_string(5 * 4 + i) + " using 1:($4/$1) with linespoints lw 2 pt 7 title 'permute-direct w = " +
          std::to_string(8 << i) + "', 'as-bounds.dat' index " + std::to_string(2 * 4 + i) +
          " using 1:($4/$1) with linespoints dt 2 pt 6 title 'as-permute w = " + std::to_string(8 << i) + "'" + (i < 3 ? ", " : "\n");
  const std::string common = "set logscale x 2\nset xlabel 'm (columns)'\nset grid\nset key outside right top font ',8'\n";
  const std::string body = "set multiplot layout 2,2 title 'AS on the DMM: simulated steps over the bounds'\n" + common +
                           plots + tu + "unset multiplot\n";
  run_gnuplot(out_dir, "as-bounds",
              "set terminal pngcairo size 1600,1000\nset output 'as-bounds.png'\n" + body +
                  "set terminal svg size 1600,1000\nset output 'as-bounds.svg'\n" + body);
  return {out_dir + "/as-bounds.csv", out_dir + "/as-bounds.png", out_dir + "/as-bounds.svg"};
}

}  // namespace mmsim::experiments
