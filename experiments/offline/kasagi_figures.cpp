#include "experiments/offline/kasagi_figures.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <variant>

#include "algorithms/offline/offline.h"
#include "algorithms/permutations/permutation_algorithm.h"
#include "experiments/figures.h"
#include "report/csv.h"
#include "report/table.h"

namespace mmsim::experiments {

namespace {

// KNI's worked examples use w = 4 (Sect. 5: n = 256; Sect. 7: sqrt(n) = 4). Latencies and k do not
// move any value; they are the smallest that keep the HMM's rules (one DMM: block 0 is "the first DMM").
MachineParams example_machine() { return {.model = ModelKind::Hmm, .w = 4, .l = 1, .L = 5, .k = 1}; }
constexpr std::uint64_t kSeed = 1;
// Colour i of a figure; linetype 20 is a cell the figure does not follow.
const std::vector<std::string> kPalette{"#e41a1c", "#377eb8", "#4daf4a", "#984ea3",
                                        "#ff7f00", "#a6cee3", "#f781bf", "#b2df8a"};

// What one kernel left in memory: its destination (the global array its last write goes to) and
// block 0's copy of the shared array its first shared write goes to (empty when it has none).
struct Snapshot {
  std::string kernel;
  std::vector<Word> destination;
  std::vector<Word> tile;
};

struct ObservedRun {
  RunReport run;
  std::vector<Snapshot> after;  ///< one per kernel, in launch order
};

ObservedRun run_observed(const PermutationAlgorithm& algo, const Permutation& p) {
  const Machine machine(example_machine());
  PermutationInput in;
  in.perm = &p;
  in.seed = kSeed;
  std::vector<Snapshot> after;
  in.after_launch = [&after](Engine& engine, const Kernel& k) {
    std::optional<ArrayId> destination, tile;
    for (const Step& step : k.steps)
      if (const auto* a = std::get_if<Access>(&step); a && a->op == Op::Write) {
        if (engine.array(a->array).space == Space::Global)
          destination = a->array;
        else if (!tile)
          tile = a->array;
      }
    Snapshot s{k.name, {}, {}};
    if (destination) s.destination.assign(engine.global(*destination).begin(), engine.global(*destination).end());
    if (tile) s.tile.assign(engine.shared(*tile, 0).begin(), engine.shared(*tile, 0).end());
    after.push_back(std::move(s));
  };
  algo.check(machine.params(), in);
  RunReport run = algo.run(machine, in, {});
  return {std::move(run), std::move(after)};
}

// The source index of every value the source array started with (source_value is one-to-one on 0..n-1).
std::unordered_map<Word, std::uint64_t> source_indices(std::uint64_t n) {
  std::unordered_map<Word, std::uint64_t> idx;
  for (std::uint64_t i = 0; i < n; ++i) idx[source_value(i)] = i;
  return idx;
}

std::uint64_t index_of(const std::unordered_map<Word, std::uint64_t>& idx, Word v) {
  const auto it = idx.find(v);
  if (it == idx.end()) throw std::logic_error("figure: a cell holds a value the source never had");
  return it->second;
}

// Panels of cells drawn from a figure's CSV by experiments/figures/kasagi-cells.gp, one per
// (figure, panel) of the CSV's rows.
struct CellPanels {
  std::vector<std::string> key, panel, caption, rows, cols, font;
  void add(const std::string& k, const std::string& p, int r, int c, const std::string& title, int size) {
    key.push_back(k), panel.push_back(p), caption.push_back(title);
    rows.push_back(std::to_string(r)), cols.push_back(std::to_string(c)), font.push_back(std::to_string(size));
  }
};

// The figure `name` as NAME-png.gp and NAME-svg.gp, each drawing one image.
void draw_cells(const std::string& out_dir, const std::string& name, int width, int height, int layout_rows,
                int layout_cols, const std::string& title, const CellPanels& p) {
  GnuplotVariables v;
  v.number("width", width)
      .number("height", height)
      .text("csv", name + ".csv")
      .number("layout_rows", layout_rows)
      .number("layout_cols", layout_cols)
      .text("title", title)
      .texts("key", p.key)
      .texts("panel", p.panel)
      .texts("caption", p.caption)
      .numbers("rows", p.rows)
      .numbers("cols", p.cols)
      .numbers("font", p.font);
  run_gnuplot_png_svg(out_dir, name, v, "kasagi-cells");
}

std::vector<std::string> written(const std::string& out_dir, const std::string& name) {
  std::vector<std::string> w;
  for (const char* ext : {".csv", ".png", ".svg"}) w.push_back(out_dir + "/" + name + ext);
  return w;
}

// The scheduled permutation of KNI Fig. 6-7, observed: P, every element's colour (the column it takes
// in step 1) and the matrix after each step as source indices.
struct ScheduledExample {
  std::uint64_t N = 4;
  Permutation perm;
  RunReport run;
  std::vector<std::vector<std::uint64_t>> stages;  ///< a, after step 1, after step 2, b: source index per cell
  std::vector<std::uint64_t> colour;               ///< colour[x] of source element x
};

ScheduledExample scheduled_example() {
  ScheduledExample e;
  const std::uint64_t n = e.N * e.N;
  e.perm = named_permutation("random", n, kSeed);
  ObservedRun o = run_observed(scheduled_algorithm(), e.perm);
  // Kernels: row-wise 1 (step 1), transpose, row-wise 2, transpose (step 2 ends), row-wise 3 (step 3).
  if (o.after.size() != 5) throw std::logic_error("figure: the scheduled permutation launched other kernels");
  const auto idx = source_indices(n);
  std::vector<std::uint64_t> input(n);
  for (std::uint64_t i = 0; i < n; ++i) input[i] = i;
  e.stages.push_back(input);
  for (std::size_t k : {0u, 3u, 4u}) {
    std::vector<std::uint64_t> cells;
    for (Word v : o.after[k].destination) cells.push_back(index_of(idx, v));
    e.stages.push_back(cells);
  }
  e.colour.assign(n, 0);
  for (std::uint64_t q = 0; q < n; ++q) e.colour[e.stages[1][q]] = q % e.N;
  e.run = std::move(o.run);
  return e;
}

}  // namespace

std::vector<std::string> kasagi_fig4(const std::string& out_dir) {
  const std::string name = "kasagi-fig4";
  const std::uint64_t n = 256;
  const auto w = static_cast<std::uint64_t>(example_machine().w);
  const std::uint64_t side = 16;  // a and b drawn as 16 x 16, u_8 .. u_5 the row, u_4 .. u_1 the column
  const std::vector<PermutationAlgorithm> algos{shuffle_algorithm(), bit_reversal_algorithm(), transpose_algorithm()};
  const auto idx = source_indices(n);
  std::string csv = "figure,panel,row,col,label,colour\n";
  std::map<std::string, std::string> said;
  for (const auto& algo : algos) {
    const Permutation p = named_permutation(algo.name, n, kSeed);
    const ObservedRun o = run_observed(algo, p);
    if (o.after.size() != 1 || o.after[0].tile.size() != w * w) throw std::logic_error("figure: unexpected kernels");
    // Colour of a source element: the tile row (the warp of step 1) block 0 stored it in.
    std::map<std::uint64_t, std::uint64_t> colour;
    for (std::uint64_t q = 0; q < w * w; ++q) {
      const std::uint64_t x = index_of(idx, o.after[0].tile[q]);
      colour[x] = q / w;
      csv += report::csv_line({algo.name, "alpha", std::to_string(q / w), std::to_string(q % w), std::to_string(x),
                               std::to_string(q / w)}) +
             "\n";
    }
    std::uint64_t landed = 0;
    for (std::uint64_t y = 0; y < n; ++y) {
      const std::uint64_t from = index_of(idx, o.after[0].destination[y]);
      const auto in_a = colour.find(y), in_b = colour.find(from);
      csv += report::csv_line({algo.name, "a", std::to_string(y / side), std::to_string(y % side), std::to_string(y),
                               in_a == colour.end() ? "-1" : std::to_string(in_a->second)}) +
             "\n";
      csv += report::csv_line({algo.name, "b", std::to_string(y / side), std::to_string(y % side), std::to_string(from),
                               in_b == colour.end() ? "-1" : std::to_string(in_b->second)}) +
             "\n";
      landed += in_b != colour.end();
    }
    // What the run's rounds say: every global round one address group per warp, every shared round
    // congestion 1 (KNI Lemma 5), read from the statistics, not assumed.
    int global = 0, shared = 0;
    for (const auto& r : o.run.stats.rounds) {
      int& most = r.memory == Space::Global ? global : shared;
      most = std::max(most, r.max_congestion);
    }
    said[algo.name] = "{/*0.9 run: " + std::to_string(o.run.stats.time_units) +
                      " time units, correct: " + (o.run.correct ? "yes" : "NO") + ", " + std::to_string(landed) +
                      " of block 0's values in b}\n{/*0.9 most address groups per warp " + std::to_string(global) +
                      ", most congestion " + std::to_string(shared) + "}";
  }
  write_file(out_dir + "/" + name + ".csv", report::with_build_columns(csv));
  CellPanels panels;
  for (const auto& algo : algos) {
    panels.add(algo.name, "a", 16, 16, algo.name + ": a, the cells block 0 reads", 7);
    panels.add(algo.name, "alpha", 4, 4, algo.name + ": alpha of block 0 (cell = a's index)\n" + said[algo.name], 12);
    panels.add(algo.name, "b", 16, 16, algo.name + ": b, where block 0 writes them", 7);
  }
  draw_cells(out_dir, name, 1500, 1560, 3, 3,
             "KNI Fig. 4 from a run: the in-place permutations at n = 256, w = 4, block 0 (16 threads) on the first "
             "DMM\n{/*0.9 colour: the tile row (step-1 warp) a value went through; alpha is drawn as stored (the "
             "diagonal arrangement: bank = column); values read back from the engine}",
             panels);
  return written(out_dir, name);
}

std::vector<std::string> kasagi_fig6(const std::string& out_dir) {
  const std::string name = "kasagi-fig6";
  const ScheduledExample e = scheduled_example();
  const std::uint64_t N = e.N;
  const std::vector<std::string> panels{"a", "step1", "step2", "b"};
  std::string csv = "figure,panel,row,col,label,colour\n";
  bool b_in_place = true;
  for (std::size_t st = 0; st < panels.size(); ++st)
    for (std::uint64_t q = 0; q < N * N; ++q) {
      const std::uint64_t x = e.stages[st][q], to = e.perm.p[x];
      csv += report::csv_line({"fig6", panels[st], std::to_string(q / N), std::to_string(q % N),
                               "(" + std::to_string(to / N) + " " + std::to_string(to % N) + ")",
                               std::to_string(e.colour[x])}) +
             "\n";
      if (st == 3) b_in_place = b_in_place && to == q;
    }
  write_file(out_dir + "/" + name + ".csv", report::with_build_columns(csv));
  CellPanels cells;
  cells.add("fig6", "a", 4, 4, "a (input)", 12);
  cells.add("fig6", "step1", 4, 4, "after step 1 (row-wise):\ncolour c to column c", 12);
  cells.add("fig6", "step2", 4, 4, "after step 2 (column-wise):\nto the destination row", 12);
  cells.add("fig6", "b", 4, 4, "b, after step 3 (row-wise):\nto the destination column", 12);
  draw_cells(out_dir, name, 1500, 480, 1, 4,
             "KNI Fig. 6 from a run: the scheduled permutation of a random P (seed " + std::to_string(kSeed) +
                 "), sqrt(n) = 4, w = 4; " + std::to_string(e.run.stats.time_units) +
                 " time units\n{/*0.9 each cell: (row, column) of its destination P; colour: the column it takes in "
                 "step 1 (its edge colour); b[i][j] holds (i j) everywhere: " +
                 (b_in_place && e.run.correct ? "yes" : "NO") + "}",
             cells);
  return written(out_dir, name);
}

std::vector<std::string> kasagi_fig7(const std::string& out_dir) {
  const std::string name = "kasagi-fig7";
  const ScheduledExample e = scheduled_example();
  const std::uint64_t N = e.N;
  // Edges: source row x / N -> destination row P(x) / N, in colour c(x). Each edge bends once, at
  // x = kBend of the way across, where parallel edges are spread apart and the edge's label sits.
  constexpr double kBend = 0.2, kSpread = 0.15;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<std::uint64_t>> parallel;
  for (std::uint64_t x = 0; x < N * N; ++x) parallel[{x / N, e.perm.p[x] / N}].push_back(x);
  std::string csv = "x,source_row,destination_row,destination_col,colour,bend_y\n";
  for (const auto& [ends, xs] : parallel)
    for (std::size_t k = 0; k < xs.size(); ++k) {
      const double off = (static_cast<double>(k) - (static_cast<double>(xs.size()) - 1) / 2) * kSpread;
      const auto from = static_cast<double>(ends.first), to = static_cast<double>(ends.second);
      const std::uint64_t x = xs[k];
      csv += report::csv_line({std::to_string(x), std::to_string(ends.first), std::to_string(ends.second),
                               std::to_string(e.perm.p[x] % N), std::to_string(e.colour[x]),
                               std::to_string(from + kBend * (to - from) + off)}) +
             "\n";
    }
  // Koenig's theorem as the run used it: each colour class meets every source and every destination
  // row exactly once (a perfect matching), checked here on the colours read back from the run.
  bool matchings = true;
  for (std::uint64_t c = 0; c < N; ++c) {
    std::vector<int> src(N, 0), dst(N, 0);
    for (std::uint64_t x = 0; x < N * N; ++x)
      if (e.colour[x] == c) ++src[x / N], ++dst[e.perm.p[x] / N];
    for (std::uint64_t r = 0; r < N; ++r) matchings = matchings && src[r] == 1 && dst[r] == 1;
  }
  write_file(out_dir + "/" + name + ".csv", report::with_build_columns(csv));
  GnuplotVariables v;
  v.text("csv", name + ".csv")
      .number("rows", static_cast<long long>(N))
      .number("bend", std::to_string(kBend))
      .text("matchings", matchings ? "yes" : "NO");
  run_gnuplot_png_svg(out_dir, name, v, "kasagi-fig7");
  return written(out_dir, name);
}

}  // namespace mmsim::experiments
