// The enumeration family through the registry, as `mmsim run transpose-*` runs it: which options
// each transposition declares, that every one runs correct at its smallest sizes, the declared
// bounds and joint rules, and the figures (blocks, band, TLB counters).
#include <doctest/doctest.h>

#include <limits>
#include <set>

#include "algorithms/enumeration/entries.h"
#include "io/input_error.h"
#include "tests/entry_checks.h"

using namespace mmsim;
using namespace mmsim::testing;

namespace {

bool out_of_place(const AlgorithmEntry& e) { return e.name.rfind("transpose-oop-", 0) == 0; }
bool three_d(const AlgorithmEntry& e) { return e.name.rfind("transpose3d-", 0) == 0; }

}  // namespace

TEST_CASE("the family has the twelve transpositions on the HMM, with the paper's key") {
  const auto all = enumeration::algorithm_entries();
  std::vector<std::string> names;
  for (const auto& e : all) {
    names.push_back(e.name);
    CHECK(e.family == "enumeration");
    CHECK(e.machine == ModelKind::Hmm);
    CHECK(e.paper.rfind("GL Sect. ", 0) == 0);
  }
  CHECK(names == std::vector<std::string>{"transpose-ip-naive", "transpose-ip-supergrid", "transpose-ip-v1",
                                          "transpose-ip-v1r", "transpose-ip-v1b", "transpose-ip-tw",
                                          "transpose-oop-nvidia", "transpose-oop-v1bf", "transpose3d-yxz-naive",
                                          "transpose3d-yxz-v1b", "transpose3d-zyx-naive", "transpose3d-zyx-v1b"});
}

TEST_CASE("an option is declared only by the transpositions that read it") {
  const std::set<std::string> common{"w",        "l",           "L",          "k",        "order",
                                     "resident", "tlb_entries", "page_cells", "tlb_ways", "tlb_penalty"};
  for (const auto& e : enumeration::algorithm_entries()) {
    INFO(e.name);
    std::set<std::string> want = common;
    if (out_of_place(e)) want.insert({"rows", "cols"});
    if (three_d(e)) want.insert("depth");
    if (e.name.size() > 4 && (e.name.substr(e.name.size() - 4) == "-v1b" || e.name == "transpose-oop-v1bf"))
      want.insert("band");
    if (e.name == "transpose-ip-supergrid") want.insert("region");
    CHECK(declared(e) == want);
    for (const auto& p : e.params) {
      if (p.name == "order") CHECK(p.required == !out_of_place(e));
      // Every integer states a maximum tied to the simulator's sizes: none past 2^24.
      if (p.kind == ParamKind::Integer) CHECK(p.max <= std::int64_t{1} << 24);
    }
  }
}

TEST_CASE("every transposition runs correct with its defaults at the smallest order, and off the tile grid") {
  for (const auto& e : enumeration::algorithm_entries()) {
    INFO(e.name);
    const RunReport one = run_algorithm(e, {{"order", 1}});
    CHECK(one.correct);
    CHECK(one.n == (three_d(e) ? 2 : 1));  // the depth defaults to 2
    CHECK(one.permutation.value_or("").rfind("transpose", 0) == 0);
    const RunReport odd = run_algorithm(e, {{"order", 33}, {"w", 8}, {"k", 3}});
    CHECK(odd.correct);
    const std::string shape = e.name.find("-yxz-") != std::string::npos   ? "33 x 33 x 2"
                              : e.name.find("-zyx-") != std::string::npos ? "33 x 2 x 33"
                                                                          : "33 x 33";
    CHECK(figure<std::string>(odd, "matrix") == shape);
    CHECK(run_algorithm(e, {{"order", 33}, {"w", 8}, {"k", 3}}, Execution::Asynchronous).correct);
  }
}

TEST_CASE("in place: the naive grid idles the blocks above the diagonal, the schemes none") {
  // 64 x 64 with w = 8: an 8 x 8 tile grid, 36 tiles on or below the diagonal.
  const RunReport naive = run_algorithm(entry("transpose-ip-naive"), {{"order", 64}, {"w", 8}});
  CHECK(figure<std::int64_t>(naive, "blocks") == 64);
  CHECK(figure<std::int64_t>(naive, "idle_blocks") == 28);
  CHECK(figure<std::int64_t>(naive, "launches") == 1);
  for (const auto* name : {"transpose-ip-v1", "transpose-ip-v1r", "transpose-ip-v1b"}) {
    const RunReport r = run_algorithm(entry(name), {{"order", 64}, {"w", 8}});
    CHECK(figure<std::int64_t>(r, "blocks") == 36);
    CHECK(figure<std::int64_t>(r, "idle_blocks") == 0);
    CHECK(has_figure(r, "band") == (std::string(name) == "transpose-ip-v1b"));
  }
  // Regions of 2 x 2 tiles: 4 x 4 regions, 10 on or below the diagonal, one launch each.
  const RunReport super = run_algorithm(entry("transpose-ip-supergrid"), {{"order", 64}, {"w", 8}, {"region", 2}});
  CHECK(figure<std::int64_t>(super, "launches") == 10);
}

TEST_CASE("the band is clamped to the tile grid and reported as used") {
  const RunReport r =
      run_algorithm(entry("transpose-oop-v1bf"), {{"rows", 20}, {"cols", 37}, {"w", 8}, {"band", 1000}});
  CHECK(r.correct);
  CHECK(figure<std::int64_t>(r, "band") == 5);  // ceil(37 / 8) tile columns
  CHECK(figure<std::string>(r, "matrix") == "20 x 37");
  CHECK(r.n == 20 * 37);
}

TEST_CASE("out of place: rows default to --order, columns to the rows") {
  const RunReport square = run_algorithm(entry("transpose-oop-nvidia"), {{"order", 16}, {"w", 8}});
  CHECK(figure<std::string>(square, "matrix") == "16 x 16");
  const RunReport rows = run_algorithm(entry("transpose-oop-nvidia"), {{"rows", 12}, {"w", 8}});
  CHECK(figure<std::string>(rows, "matrix") == "12 x 12");
  const RunReport both = run_algorithm(entry("transpose-oop-nvidia"), {{"order", 16}, {"cols", 5}, {"w", 8}});
  CHECK(figure<std::string>(both, "matrix") == "16 x 5");
}

TEST_CASE("the TLB: off by default with zero counters; on, every lookup a hit or a miss") {
  const RunReport off = run_algorithm(entry("transpose-ip-v1"), {{"order", 64}, {"w", 8}});
  CHECK(figure<std::string>(off, "tlb") == "off");
  CHECK(figure<std::int64_t>(off, "tlb_lookups") == 0);
  const RunReport on = run_algorithm(
      entry("transpose-ip-v1b"), {{"order", 64}, {"w", 8}, {"resident", 1}, {"tlb_entries", 8}, {"page_cells", 512}},
      Execution::Asynchronous);
  CHECK(on.correct);
  CHECK(figure<std::string>(on, "tlb") == "8 entries, 4-way LRU, pages of 512 cells, 16 slots per miss");
  const auto lookups = figure<std::int64_t>(on, "tlb_lookups");
  CHECK(lookups > 0);
  CHECK(figure<std::int64_t>(on, "tlb_hits") + figure<std::int64_t>(on, "tlb_misses") == lookups);
  // Each miss adds 16 slots to the global memory's.
  const RunReport same = run_algorithm(entry("transpose-ip-v1b"), {{"order", 64}, {"w", 8}});
  CHECK(figure<std::int64_t>(on, "global_slots") ==
        figure<std::int64_t>(same, "global_slots") + 16 * figure<std::int64_t>(on, "tlb_misses"));
}

TEST_CASE("values past the declared bounds are refused, the ones a user found among them") {
  CHECK(refusal("transpose-ip-v1b", {{"order", 64}, {"band", 2147483648}}).find("--band") != std::string::npos);
  CHECK(refusal("transpose-ip-v1", {{"order", 64}, {"page_cells", 4294967296}}).find("--page-cells") !=
        std::string::npos);
  CHECK(refusal("transpose-ip-v1", {{"order", 64}, {"tlb_entries", 2097152}}).find("--tlb-entries") !=
        std::string::npos);
  CHECK(refusal("transpose-ip-v1", {{"order", 64}, {"resident", -3}}).find("--resident") != std::string::npos);
  CHECK(refusal("transpose-ip-naive", {{"order", 5000}}).find("--order") != std::string::npos);
  CHECK(refusal("transpose-ip-v1", {{"order", 64}, {"w", 128}}).find("-w") != std::string::npos);
  CHECK(refusal("transpose-ip-supergrid", {{"order", 64}, {"region", 0}}).find("--region") != std::string::npos);
  CHECK(refusal("transpose-ip-naive", {{"order", 64}, {"band", 2}}).find("'band' is not a parameter") !=
        std::string::npos);
}

TEST_CASE("the joint rules are refused in one line naming the options") {
  CHECK(refusal("transpose-ip-v1", {}).find("--order is required") != std::string::npos);
  CHECK(refusal("transpose-oop-nvidia", {}).find("--rows: required") != std::string::npos);
  const std::string big = refusal("transpose-oop-nvidia", {{"rows", 100000}, {"cols", 100000}});
  // Refused up front (the memory estimate or the size rule, whichever the machine meets first),
  // naming both options.
  CHECK(big.find("--rows") != std::string::npos);
  CHECK(big.find("--cols") != std::string::npos);
  CHECK(refusal("transpose-ip-v1", {{"order", 64}, {"tlb_entries", 6}, {"tlb_ways", 4}}).find("--tlb-ways") !=
        std::string::npos);
  // lcm(63, 2^24) cells before the output would be gigabytes of host memory.
  CHECK(refusal("transpose-oop-nvidia",
                {{"rows", 4}, {"cols", 8}, {"w", 63}, {"tlb_entries", 4}, {"page_cells", 16777216}})
            .find("--page-cells") != std::string::npos);
  CHECK(refusal("transpose-oop-nvidia",
                {{"rows", 4}, {"cols", 8}, {"w", 64}, {"tlb_entries", 4}, {"page_cells", 16777216}})
            .empty());
}

TEST_CASE("the catalogue's lines carry the paper's key") {
  std::vector<CatalogueEntry> lines;
  enumeration::append_catalogue(lines);
  REQUIRE(!lines.empty());
  for (const auto& c : lines) {
    CHECK(c.kind != "algorithm");
    CHECK(c.paper.rfind("GL Sect. ", 0) == 0);
  }
}
