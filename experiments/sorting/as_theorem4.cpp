// Every figure is counted by the engine (steps = warp accesses); each phase of AS Theorem 4 is
// divided by its term in the paper's analysis (Sect. 3 and Appendix B): preprocessing O(m), per
// iteration O(m + log w) for colouring, communication and synchronisation (the hash table that stands
// in for Theorem 3 costs O(w) per iteration instead), the packing O(m), Lemma 2 on the w x m' packed
// matrix O(m' log_m'^3 w) (O(m) when m' = O(m / log_m^3 w)), the sends O(m).
#include "experiments/sorting/as_theorem4.h"

#include <cmath>
#include <map>

#include "algorithms/sorting/sorting.h"
#include "experiments/figures.h"
#include "io/input_error.h"

namespace mmsim::experiments {

namespace {

constexpr std::uint64_t kDefaultCells = std::uint64_t{1} << 16;
constexpr std::uint64_t kMaxCells = std::uint64_t{1} << 22;  // the sorting family's limit

// The phase groups of a run, from the engine's kernel names.
struct PhaseSteps {
  std::int64_t preprocess = 0, hash = 0, loop = 0, pack = 0, sort = 0, send = 0, finish = 0;
};

PhaseSteps phase_steps(const sorting::SortingRun& r) {
  PhaseSteps p;
  for (const auto& round : r.stats().rounds) {
    const std::string& k = round.kernel;
    if (k.rfind("finish: ", 0) == 0) {
      ++p.finish;
      if (k == "finish: pack" || k == "finish: pack offsets")
        ++p.pack;
      else if (k == "finish: fill" || k == "finish: send")
        ++p.send;
      else
        ++p.sort;
    } else if (k == "preprocess") {
      ++p.preprocess;
    } else if (k == "hash") {
      ++p.hash;
    } else {
      ++p.loop;
    }
  }
  return p;
}

std::int64_t figure(const sorting::SortingRun& r, const std::string& name) {
  for (const auto& [n, v] : r.figures)
    if (n == name) return v;
  return 0;
}

double log2d(double x) { return std::log2(x); }

report::Table make(const std::vector<int>& widths, std::uint64_t cells, std::uint64_t seed) {
  report::Table t;
  t.title = "AS Theorem 4: the randomized permutation phase by phase, with Appendix B's finish (p = w, latency 1)";
  std::string ws;
  for (int w : widths) ws += (ws.empty() ? "" : ", ") + std::to_string(w);
  t.header = {"w in {" + ws + "}, m = 2, 4, ... while w m <= " + std::to_string(cells) +
                  ", seed = " + std::to_string(seed) + "; steps = warp accesses counted by the engine",
              "each phase's steps over its term; finish: steps of everything after the last synchronisation"};
  t.parameters = {{"n", integer_cell(cells)}, {"l", 1LL}, {"seed", integer_cell(seed)}};
  t.columns = {"w",
               "m",
               "m >= log2^2 w",
               "iterations",
               "leftover",
               "widest row",
               "m'",
               "t",
               "random words",
               "w + m it",
               "preprocess/m",
               "hash/(w it)",
               "loop/(it (m + log2 w))",
               "pack/m",
               "sort/(m' log_m'^3 w)",
               "sort/m",
               "send/m",
               "steps",
               "steps/m",
               "finish lemma2",
               "finish packed sort",
               "finish full sort",
               "lemma2 wins",
               "correct"};
  for (int w : widths) {
    const auto W = static_cast<std::uint64_t>(w);
    for (std::uint64_t m = 2; W * m <= cells; m *= 2) {
      const auto perm = sorting::random_permutation(w, m, seed);
      std::map<sorting::Theorem4Finish, std::int64_t> finish;
      bool correct = true;
      for (auto f : {sorting::Theorem4Finish::PackedSort, sorting::Theorem4Finish::FullSort}) {
        const auto r = sorting::as_permute(w, m, perm, seed, {}, f);
        finish[f] = phase_steps(r).finish;
        correct = correct && r.correct && r.summary.cac_violations == 0;
      }
      const auto r = sorting::as_permute(w, m, perm, seed);
      correct = correct && r.correct && r.summary.cac_violations == 0;
      const PhaseSteps p = phase_steps(r);
      finish[sorting::Theorem4Finish::PackedLemma2] = p.finish;
      const double md = static_cast<double>(m), wd = static_cast<double>(w), lg = log2d(wd);
      const std::int64_t it = figure(r, "iterations"), mp = figure(r, "packed_width");
      report::Cell lemma2_term;
      const bool used_lemma2 = r.method.find("sorted [lemma2") != std::string::npos;
      if (used_lemma2) {
        const double l = lg / log2d(static_cast<double>(mp));
        lemma2_term = static_cast<double>(p.sort) / (static_cast<double>(mp) * l * l * l);
      }
      const auto ratio = [](std::int64_t a, double b) { return report::Cell(static_cast<double>(a) / b); };
      const std::int64_t fl = finish[sorting::Theorem4Finish::PackedLemma2],
                         fs = finish[sorting::Theorem4Finish::PackedSort],
                         ff = finish[sorting::Theorem4Finish::FullSort];
      std::string wins = "-";
      if (used_lemma2) wins = fl < std::min(fs, ff) ? "yes" : "no";
      t.add_row({static_cast<long long>(w),
                 static_cast<long long>(m),
                 std::string(md >= lg * lg ? "yes" : "no"),
                 static_cast<long long>(it),
                 static_cast<long long>(figure(r, "leftover_labels")),
                 static_cast<long long>(figure(r, "widest_leftover_row")),
                 static_cast<long long>(mp),
                 static_cast<long long>(figure(r, "pack_offsets")),
                 static_cast<long long>(figure(r, "random_words")),
                 static_cast<long long>(figure(r, "random_words_theorem4")),
                 ratio(p.preprocess, md),
                 ratio(p.hash, wd * static_cast<double>(it)),
                 ratio(p.loop, static_cast<double>(it) * (md + lg)),
                 ratio(p.pack, md),
                 lemma2_term,
                 ratio(p.sort, md),
                 ratio(p.send, md),
                 static_cast<long long>(r.summary.steps),
                 ratio(r.summary.steps, md),
                 static_cast<long long>(fl),
                 static_cast<long long>(fs),
                 static_cast<long long>(ff),
                 wins,
                 std::string(correct ? "yes" : "NO")});
    }
  }
  t.notes = {
      "Theorem 4 assumes m = Omega(log^O(1) w); 'm >= log2^2 w' marks the shapes where the packing's t = log2^2 w "
      "offsets each move at least one label (its quota is 2m/t).",
      "The loop runs while more than w m / log_m^3 w labels are left (at least once); its phases are colouring, "
      "alpha = 2 communication, compaction and synchronisation. hash: a table of w random values per iteration "
      "stands in for the hash family of Theorem 3 (O(m) words), so 'random words' counts w (shifts) + w per "
      "iteration + t (packing offsets), beside the theorem's w + O(m log log log_m w) taken as w + m per iteration "
      "(log log log_m w is below 1 at every shape here).",
      "Finish (Appendix B): the packed width m' is the smallest power of two >= twice the average leftover per row, "
      "raised where needed to the smallest width at which Lemma 2's assumption holds (below m); rows holding more "
      "than m' labels (the paper's unlucky rows) give up to 2m/t labels to the row t_i ahead, i < t, whenever it "
      "has room. The packing runs only where 'widest row' exceeds m' (pack/m > 0): with the random table nearly "
      "every row is lucky, as the paper expects.",
      "The packed matrix is sorted by label (keys below w m + 1, rows radix-sorted in base m', so every row sort "
      "takes ceil(log_m' (w m + 1)) passes); 'finish packed sort' sorts the same packed matrix by the sort path "
      "(Theorem 2 for w > m'), 'finish full sort' sorts the whole w x m matrix (merge-sorted rows) as before.",
  };
  // What the rows say about Lemma 2 against the other finishes, measured.
  int ran = 0, won = 0;
  double cmin = 1e300, cmax = 0, rmin = 1e300, rmax = 0;
  for (const auto& row : t.rows) {
    const auto* c = std::get_if<double>(&row[14]);
    if (!c) continue;
    ++ran;
    won += std::get<std::string>(row[22]) == "yes" ? 1 : 0;
    cmin = std::min(cmin, *c);
    cmax = std::max(cmax, *c);
    const double r = static_cast<double>(std::get<long long>(row[19])) /
                     static_cast<double>(std::min(std::get<long long>(row[20]), std::get<long long>(row[21])));
    rmin = std::min(rmin, r);
    rmax = std::max(rmax, r);
  }
  if (ran > 0)
    t.notes.push_back(
        "Lemma 2 sorted the packed matrix at " + std::to_string(ran) + " shape(s) and was the cheapest finish at " +
        std::to_string(won) + "; its steps / (m' log_m'^3 w) ran from " + report::format_number(cmin, 4) + " to " +
        report::format_number(cmax, 4) + ", and its finish took " + report::format_number(rmin, 3) + "x to " +
        report::format_number(rmax, 3) + "x the steps of the cheaper other finish." +
        (won > 0 ? std::string()
                 : std::string(" The sort path on the packed matrix costs O(m' log^2 w) (bitonic column stages, a "
                               "few steps each); Lemma 2 costs the constant above times m' log_m'^3 w, so it can "
                               "only win where log_m' w is near 1 and log^2 m' exceeds that constant over a few, "
                               "i.e. m' (and w > m') in the millions: beyond w <= 1024 here.")));
  return t;
}

std::vector<int> widths_of(const TableOptions& o) {
  if (!o.w) return {16, 64, 256, 1024};
  sorting::check_shape(*o.w, 1);
  return {*o.w};
}

std::uint64_t cells_of(const TableOptions& o) {
  const std::uint64_t n = o.n.value_or(kDefaultCells);
  if (n > kMaxCells)
    throw InputError("-n: at most 2^22 = 4194304 cells for this table (got " + std::to_string(n) + ")");
  return n;
}

}  // namespace

report::Table as_theorem4_table(const TableOptions& o) { return make(widths_of(o), cells_of(o), o.seed); }

std::vector<std::string> as_theorem4_figure(const std::string& out_dir) {
  const std::vector<int> widths{16, 64, 256, 1024};
  const report::Table t = make(widths, kDefaultCells, 1);
  write_file(out_dir + "/as-bounds-theorem4.csv", report::to_csv(t));
  // One data block per w: m, then the phase ratios and the three finishes.
  const auto cell = [](const report::Cell& c) {
    if (const auto* d = std::get_if<double>(&c)) return report::format_number(*d, 6);
    if (const auto* i = std::get_if<long long>(&c)) return std::to_string(*i);
    return std::string("NaN");
  };
  std::string data;
  for (int w : widths) {
    data += "# w=" + std::to_string(w) + "\n";
    for (const auto& row : t.rows) {
      if (std::get<long long>(row[0]) != w) continue;
      data += cell(row[1]);
      // The Lemma 2 finish is drawn only where Lemma 2 ran (elsewhere it is the packed sort path).
      const bool lemma2 = std::get<std::string>(row[22]) != "-";
      for (std::size_t c : {10u, 12u, 13u, 15u, 16u, 19u, 20u, 21u, 18u})
        data += " " + (c == 19u && !lemma2 ? std::string("NaN") : cell(row[c]));
      data += "\n";
    }
    data += "\n\n";
  }
  write_file(out_dir + "/as-bounds-theorem4.dat", data);
  std::vector<std::string> width_literals;
  for (int w : widths) width_literals.push_back(std::to_string(w));
  run_gnuplot(
      out_dir, "as-bounds-theorem4",
      GnuplotVariables().images("output", "as-bounds-theorem4", {"png", "svg"}).numbers("width_w", width_literals),
      "as-bounds-theorem4");
  return {out_dir + "/as-bounds-theorem4.csv", out_dir + "/as-bounds-theorem4.png",
          out_dir + "/as-bounds-theorem4.svg"};
}

}  // namespace mmsim::experiments
