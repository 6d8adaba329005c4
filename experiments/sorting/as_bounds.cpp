// Every figure is counted by the engine (steps = warp accesses, time units = sum of congestions);
// the normalised columns divide the simulated steps by the papers' bounds: m log2(mw) for sorting
// (Theorems 1-2), m for partition (Corollary 1, Theorem 1) and m log_m^3 w for Lemma 2.
#include "experiments/sorting/as_bounds.h"

#include <cmath>

#include "algorithms/sorting/sorting.h"
#include "experiments/figures.h"
#include "io/input_error.h"

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
  t.header = {
      "w in {" +
          [&] {
            std::string s;
            for (int w : widths) s += (s.empty() ? "" : ", ") + std::to_string(w);
            return s;
          }() +
          "}, m = w/8 ... 64w (powers of two, m >= 1), seed = " + std::to_string(seed),
      "steps = warp accesses counted by the engine; time units = sum of congestions (= steps when the CAC holds)",
      "as-sort-bitonic only up to w m = " + std::to_string(kBitonicMaxCells) +
          " cells (its runtime grows as n log^2 n)"};
  t.parameters = {{"l", 1LL}, {"seed", integer_cell(seed)}};
  t.columns = {"w",
               "m",
               "algorithm",
               "method",
               "steps",
               "time units",
               "cac violations",
               "steps/(m log2 mw)",
               "steps/m",
               "steps/(m log_m^3 w)",
               "correct"};
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
                   static_cast<long long>(r.summary.cac_violations),
                   lg > 0 ? report::Cell(steps / (md * lg)) : report::Cell(), steps / md, lemma2,
                   std::string(r.correct ? "yes" : "NO")});
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
      "as-partition-sort for every w > m, Theorem 2's path: rows O(m log_m w), columns by bitonic network O(m log^2 "
      "w). "
      "Sub-problems of fewer than m rows are sorted by Lemma 1 pieces and bitonic column sorts, and every row sort "
      "is a radix sort costing O(m log_m w), not O(m), so the constant in front of m log_m^3 w is large on this grid.",
      "as-permute: Theorem 4's main loop (random shift, tile transposes, a random table in place of the Pagh-Pagh hash "
      "family, colouring, alpha = 2 communication, synchronisation) and Appendix B's finish (packing into w x m', "
      "Lemma 2 where its assumption holds at m', else the sort path, then the three sends); table "
      "as-bounds-theorem4 shows each phase against its term and compares the finishes.",
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

namespace {

// The figure's algorithms in the order of its data blocks (experiments/figures/as-bounds.gp draws
// them in this order, one colour each).
struct Algo {
  std::string name;
  bool baseline;
  int counterpart;  ///< for a baseline, the index of the conflict-free algorithm it is compared with
};
const std::vector<Algo> kAlgos{{"as-sort", false, -1},           {"as-partition", false, -1},
                               {"as-permute", false, -1},        {"as-sort-bitonic", true, 0},
                               {"as-partition-direct", true, 1}, {"as-permute-direct", true, 2}};
const std::vector<int> kWidths{8, 16, 32, 64};

}  // namespace

std::vector<std::string> as_bounds_figure(const std::string& out_dir) {
  const report::Table t = make(kWidths, 1);
  write_file(out_dir + "/as-bounds.csv", report::to_csv(t));
  const auto find = [&](const std::string& a, long long w, long long m) -> const std::vector<report::Cell>* {
    for (const auto& row : t.rows)
      if (std::get<std::string>(row[2]) == a && std::get<long long>(row[0]) == w && std::get<long long>(row[1]) == m)
        return &row;
    return nullptr;
  };
  // One data block per (algorithm, w), index a * 4 + i: m, steps/(m log2 mw), steps/m, time units,
  // and for a baseline its time units over its conflict-free counterpart's at the same shape.
  std::string data;
  std::vector<std::pair<double, double>> ratio_range(kAlgos.size(), {1e300, 0});
  for (std::size_t a = 0; a < kAlgos.size(); ++a)
    for (int w : kWidths) {
      data += "# " + kAlgos[a].name + " w=" + std::to_string(w) + "\n";
      for (const auto& row : t.rows) {
        if (std::get<std::string>(row[2]) != kAlgos[a].name || std::get<long long>(row[0]) != w) continue;
        const auto cell = [](const report::Cell& c) {
          if (const auto* d = std::get_if<double>(&c)) return report::format_number(*d, 6);
          return std::string("NaN");
        };
        const long long m = std::get<long long>(row[1]), time = std::get<long long>(row[5]);
        std::string ratio = "NaN";
        if (kAlgos[a].baseline)
          if (const auto* ref = find(kAlgos[static_cast<std::size_t>(kAlgos[a].counterpart)].name, w, m)) {
            const double r = static_cast<double>(time) / static_cast<double>(std::get<long long>((*ref)[5]));
            ratio = report::format_number(r, 6);
            ratio_range[a] = {std::min(ratio_range[a].first, r), std::max(ratio_range[a].second, r)};
          }
        data += std::to_string(m) + " " + cell(row[7]) + " " + cell(row[8]) + " " + std::to_string(time) + " " + ratio +
                "\n";
      }
      data += "\n\n";
    }
  write_file(out_dir + "/as-bounds.dat", data);
  // The key of the last panel states each baseline's measured range of time units over its
  // conflict-free counterpart's, whichever way they fall (at these sizes direct sends stay far cheaper
  // despite their conflicts).
  std::vector<std::string> ranges;
  for (std::size_t a = 3; a < kAlgos.size(); ++a)
    ranges.push_back("(" + report::format_number(ratio_range[a].first, 2) + "x to " +
                     report::format_number(ratio_range[a].second, 2) + "x)");
  run_gnuplot(out_dir, "as-bounds",
              GnuplotVariables().images("output", "as-bounds", {"png", "svg"}).texts("ranges", ranges), "as-bounds");
  return {out_dir + "/as-bounds.csv", out_dir + "/as-bounds.dat", out_dir + "/as-bounds.gp", out_dir + "/as-bounds.png",
          out_dir + "/as-bounds.svg"};
}

}  // namespace mmsim::experiments
