// The bmmc family through the registry, as `mmsim run bmmc|parm-sort` runs it: what each entry
// declares, that every one runs correct at its smallest sizes, the joint rules, and the figures.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "algorithms/bmmc/entries.h"
#include "io/input_error.h"
#include "tests/entry_checks.h"

using namespace mmsim;
using namespace mmsim::testing;

namespace {

// A file in the temporary folder, removed at the end of the test.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name, const std::string& text)
      : path(std::filesystem::temp_directory_path() / ("mmsim_test_bmmc_" + name)) {
    std::ofstream(path) << text;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

}  // namespace

TEST_CASE("the family has bmmc and parm-sort on the HMM, with the paper's key") {
  const auto all = bmmc::algorithm_entries();
  REQUIRE(all.size() == 2);
  CHECK(all[0].name == "bmmc");
  CHECK(all[0].paper == "BDS Sect. 4-5");
  CHECK(all[1].name == "parm-sort");
  CHECK(all[1].paper == "BDS Sect. 7");
  for (const auto& e : all) {
    CHECK(e.family == "bmmc");
    CHECK(e.machine == ModelKind::Hmm);
  }
}

TEST_CASE("bmmc declares the four sources; parm-sort --direct; both the kernel and its iterations") {
  const std::set<std::string> machine{"w", "l", "L", "k"};
  std::set<std::string> bmmc = machine, sort = machine;
  bmmc.insert({"kernel", "iters", "n", "matrix", "random_bpc", "random_bmmc", "bpc", "save_matrix", "seed"});
  sort.insert({"kernel", "iters", "n", "direct", "seed"});
  CHECK(declared(entry("bmmc")) == bmmc);
  CHECK(declared(entry("parm-sort")) == sort);
  for (const auto* name : {"bmmc", "parm-sort"})
    for (const auto& p : entry(name).params) {
      INFO(name << " " << p.name);
      if (p.kind != ParamKind::Integer || p.name == "seed") continue;
      CHECK(p.max < std::numeric_limits<std::int64_t>::max());
      if (p.name == "n") CHECK(p.max == std::int64_t{1} << 24);
      if (p.name == "n" || p.name == "w") CHECK(p.shape == IntegerShape::PowerOfTwo);
    }
}

TEST_CASE("every bmmc source and kernel runs correct at the smallest n (n = w)") {
  const AlgorithmEntry& e = entry("bmmc");
  std::vector<ParamValues> sources{{{"random_bpc", true}}, {{"random_bmmc", true}}};
  for (const auto& p : e.params)
    if (p.name == "bpc")
      for (const auto& name : p.choices) sources.push_back({{"bpc", name}});
  for (auto given : sources)
    for (const auto* kernel : {"naive", "tile", "tile-banks", "tile-banks-iters"}) {
      given.set("n", 32);
      given.set("kernel", kernel);
      INFO(given.items().front().first << " " << display(given.items().front().second) << " " << kernel);
      const RunReport r = run_algorithm(e, given);
      CHECK(r.correct);
      CHECK(r.n == 32);
      CHECK(r.predicted_time_units == r.stats.time_units);
    }
}

TEST_CASE("parm-sort sorts at the smallest n, through every kernel and directly") {
  const AlgorithmEntry& e = entry("parm-sort");
  for (const auto* kernel : {"naive", "tile", "tile-banks", "tile-banks-iters"}) {
    INFO(kernel);
    CHECK(run_algorithm(e, {{"n", 32}, {"kernel", kernel}}).correct);
  }
  const RunReport direct = run_algorithm(e, {{"n", 32}, {"direct", true}});
  CHECK(direct.correct);
  CHECK(figure<std::string>(direct, "permutations") == "direct");
  CHECK(figure<std::int64_t>(direct, "permutation_passes") == 0);
  // Sect. 7.1's network on 2^5 keys: 5 * 6 / 2 compare-exchange columns.
  CHECK(figure<std::int64_t>(direct, "compare_stages") == 15);
  CHECK(!direct.predicted_time_units);
}

TEST_CASE("bit-reversal of 2^12 cells, w = 32, L = 100, k = 2: 2n/w + 2n/(kw) + 2L - 2 = 582") {
  const RunReport r = run_algorithm(entry("bmmc"), {{"bpc", "bit-reversal"}, {"n", 4096}, {"k", 2}});
  CHECK(r.correct);
  CHECK(r.stats.time_units == 582);
  CHECK(r.predicted_time_units == 582);
  CHECK(r.permutation == "bit-reversal [BPC]");
  CHECK(r.distribution == 4096);  // D_w(bit-reversal) = n
  CHECK(r.distribution_inverse == 4096);
  CHECK(figure<std::int64_t>(r, "tiled_for_w") == 1);
  CHECK(figure<std::int64_t>(r, "passes") == 1);
  CHECK(figure<std::int64_t>(r, "pass1_time_units") == 582);
  CHECK(figure<std::int64_t>(r, "pass1_closed_form") == 582);
  CHECK(figure<std::int64_t>(r, "copy_time_units") == 2 * 4096 / 32 + 2 * 100 - 2);
  CHECK(figure<double>(r, "copy_over_time") == doctest::Approx(454.0 / 582.0));
  CHECK(!has_figure(r, "pass1_iteration_bits"));
}

TEST_CASE("a random BMMC takes two tiled passes, each reported; tile-banks-iters reports its bits") {
  const RunReport r = run_algorithm(entry("bmmc"), {{"random_bmmc", true}, {"n", 1024}, {"w", 8}, {"seed", 3}});
  CHECK(r.correct);
  if (figure<std::int64_t>(r, "tiled_for_w") == 0) {
    CHECK(figure<std::int64_t>(r, "passes") == 2);
    CHECK(figure<std::int64_t>(r, "pass1_time_units") + figure<std::int64_t>(r, "pass2_time_units") ==
          r.stats.time_units);
  }
  const RunReport it = run_algorithm(
      entry("bmmc"), {{"bpc", "transpose"}, {"n", 1024}, {"w", 8}, {"kernel", "tile-banks-iters"}, {"iters", 2}});
  CHECK(it.correct);
  CHECK(figure<std::int64_t>(it, "pass1_iteration_bits") == 2);
}

TEST_CASE("--matrix: a file runs, n follows from it, and --save-matrix writes what ran") {
  const TempFile m("m.txt", "# 3-bit bit reversal with complement\n001\n010\n100\n110\n");
  // The file is read where its name enters (the command line's edge), into the matrix as a value.
  const auto from_file = [&](const std::string& path) {
    return parse_params(entry("bmmc"), {{"matrix", path}}).items().front().second;
  };
  const ParamValue matrix = from_file(m.path.string());
  const RunReport r = run_algorithm(entry("bmmc"), {{"matrix", matrix}, {"w", 4}});
  CHECK(r.correct);
  CHECK(r.n == 8);
  CHECK(r.permutation == "matrix " + m.path.string() + " [BPC]");
  CHECK(refusal("bmmc", {{"matrix", matrix}, {"w", 4}, {"n", 8}}).empty());
  CHECK(refusal("bmmc", {{"matrix", matrix}, {"w", 4}, {"n", 16}}).find("-n") != std::string::npos);

  const TempFile saved("saved.txt", "");
  CHECK(
      run_algorithm(entry("bmmc"), {{"random_bmmc", true}, {"n", 256}, {"w", 4}, {"save_matrix", saved.path.string()}})
          .correct);
  const RunReport again =
      run_algorithm(entry("bmmc"), {{"matrix", from_file(saved.path.string())}, {"w", 4}, {"kernel", "tile"}});
  CHECK(again.correct);
  CHECK(again.n == 256);
}

TEST_CASE("--matrix as a value in memory runs as its file does, and is checked by the file's rules") {
  const TempFile m("m.txt", f2::to_text(f2::bit_reversal(6)));
  const RunReport file = run_algorithm(
      entry("bmmc"), parse_params(entry("bmmc"), {{"matrix", m.path.string()}, {"w", "4"}, {"kernel", "tile"}}));
  const RunReport value = run_algorithm(
      entry("bmmc"),
      {{"matrix", bmmc::matrix_value(f2::bit_reversal(6), "bit reversal")}, {"w", 4}, {"kernel", "tile"}});
  CHECK(value.correct);
  CHECK(value.permutation == "matrix bit reversal [BPC]");
  CHECK(value.stats.time_units == file.stats.time_units);
  CHECK(value.distribution == file.distribution);
  // The rules of the file format hold for a value too.
  BitMatrixValue singular{.rows = {1, 1}, .complement = 0, .source = "made up"};
  CHECK(refusal("bmmc", {{"matrix", singular}}).find("singular") != std::string::npos);
  BitMatrixValue wide{.rows = {4, 1}, .complement = 0, .source = "made up"};
  CHECK(refusal("bmmc", {{"matrix", wide}}).find("made up") != std::string::npos);
}

TEST_CASE("the joint rules are refused in one line naming the options") {
  const std::string none = refusal("bmmc", {{"n", 1024}});
  CHECK(none.find("--matrix") != std::string::npos);
  CHECK(none.find("--random-bpc") != std::string::npos);
  CHECK(refusal("bmmc", {{"n", 1024}, {"random_bpc", true}, {"random_bmmc", true}}) == none);
  CHECK(refusal("bmmc", {{"random_bpc", true}}).find("-n: required") != std::string::npos);
  CHECK(refusal("bmmc", {{"random_bpc", true}, {"n", 1000}}).find("power of two") != std::string::npos);
  CHECK(refusal("bmmc", {{"random_bpc", true}, {"n", 1 << 25}}).find("-n") != std::string::npos);
  CHECK(refusal("bmmc", {{"random_bpc", true}, {"n", 16}}).find("at least w") != std::string::npos);
  CHECK(refusal("bmmc", {{"random_bpc", true}, {"n", 1024}, {"w", 12}}).find("-w") != std::string::npos);
  CHECK(refusal("bmmc", {{"random_bpc", true}, {"n", 1024}, {"iters", 2}}).find("--iters") != std::string::npos);
  CHECK(refusal("bmmc", {{"random_bpc", true}, {"n", 1024}, {"iters", 25}}).find("--iters") != std::string::npos);
  CHECK(refusal("parm-sort", {}).find("-n is required") != std::string::npos);
  CHECK(refusal("parm-sort", {{"n", 64}, {"matrix", "x"}}).find("'matrix' is not a parameter") != std::string::npos);
}

TEST_CASE("parm-sort traces every slot when asked") {
  const RunReport r = run_algorithm(entry("parm-sort"), {{"n", 64}, {"w", 4}}, Execution::RoundSynchronous, true);
  CHECK(r.correct);
  REQUIRE(!r.trace.empty());
  for (const auto& e : r.trace) CHECK(static_cast<std::size_t>(e.round) < r.stats.rounds.size());
}

TEST_CASE("the catalogue lists kernels, named BPCs and the matrix format, and no algorithm") {
  std::vector<CatalogueEntry> lines;
  bmmc::append_catalogue(lines);
  std::set<std::string> kinds;
  for (const auto& c : lines) {
    kinds.insert(c.kind);
    CHECK(c.paper.rfind("BDS ", 0) == 0);
  }
  CHECK(kinds == std::set<std::string>{"kernel", "bpc", "matrix"});
}
