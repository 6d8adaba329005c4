// The layouts family through the registry, as `mmsim run crsw|srcw|drdw` runs it: what each entry
// declares, that every one runs correct with its defaults, and the report's figures and closed form.
#include <doctest/doctest.h>

#include <limits>
#include <set>

#include "algorithms/layouts/entries.h"
#include "io/input_error.h"
#include "tests/entry_checks.h"

using namespace mmsim;
using namespace mmsim::testing;

TEST_CASE("the family has crsw, srcw and drdw, in that order, on the DMM") {
  const auto all = layouts::algorithm_entries();
  REQUIRE(all.size() == 3);
  CHECK(all[0].name == "crsw");
  CHECK(all[1].name == "srcw");
  CHECK(all[2].name == "drdw");
  for (const auto& e : all) {
    CHECK(e.family == "layouts");
    CHECK(e.paper == "NMI Sect. III, VI");
    CHECK(e.machine == ModelKind::Dmm);
    CHECK(find_algorithm(e.name) != nullptr);
  }
}

TEST_CASE("a transpose declares the DMM's w and l, --layout, -n and --seed; nothing of the HMM") {
  for (const auto& e : layouts::algorithm_entries()) {
    CHECK(declared(e) == std::set<std::string>{"w", "l", "layout", "n", "seed"});
    for (const auto& p : e.params) {
      if (p.kind != ParamKind::Integer) continue;
      INFO(e.name << " " << p.name);
      if (p.name != "seed") CHECK(p.max < std::numeric_limits<std::int64_t>::max());
      if (p.name == "w") CHECK(p.max == 1024);
    }
  }
}

TEST_CASE("every transpose runs correct with its defaults, and under every layout at the smallest w") {
  for (const auto& e : layouts::algorithm_entries()) {
    const RunReport d = run_algorithm(e, {});
    INFO(e.name);
    CHECK(d.correct);
    CHECK(d.n == 32 * 32);
    CHECK(d.permutation == "transpose");
    for (const auto& layout : param(e, "layout").choices) {
      INFO(layout);
      CHECK(run_algorithm(e, {{"w", 2}, {"layout", layout}}).correct);
      CHECK(run_algorithm(e, {{"w", 2}, {"layout", layout}}, Execution::Asynchronous).correct);
    }
  }
}

TEST_CASE("crsw under raw at w = 32: the write round has congestion 32, time as [NMI] Sect. III") {
  const RunReport r = run_algorithm(entry("crsw"), {{"w", 32}, {"layout", "raw"}});
  REQUIRE(r.stats.rounds.size() == 2);
  CHECK(r.stats.rounds[0].max_congestion == 1);
  CHECK(r.stats.rounds[1].max_congestion == 32);
  // Contiguous read w + l - 1, stride write w^2 + l - 1, with l = 1.
  CHECK(r.stats.time_units == 32 + 1024);
  CHECK(r.predicted_time_units == r.stats.time_units);
  CHECK(figure<std::int64_t>(r, "read_congestion_max") == 1);
  CHECK(figure<double>(r, "read_congestion_mean") == 1.0);
  CHECK(figure<std::int64_t>(r, "write_congestion_max") == 32);
  CHECK(figure<double>(r, "write_congestion_mean") == 32.0);
  CHECK(figure<std::string>(r, "layout") == "raw");
  CHECK(!has_figure(r, "shifts"));  // raw shifts no row
}

TEST_CASE("the closed form is printed only where the paper gives one, and then equals the engine") {
  for (const std::string layout : {"raw", "ras", "rap", "pad", "xor"})
    for (const std::string name : {"crsw", "srcw", "drdw"}) {
      const RunReport r = run_algorithm(entry(name), {{"w", 8}, {"l", 3}, {"layout", layout}, {"seed", 5}});
      INFO(name << " " << layout);
      CHECK(r.correct);
      const bool paper = layout == "raw" || (layout == "rap" && name != "drdw");
      CHECK(r.predicted_time_units.has_value() == paper);
      if (paper) CHECK(*r.predicted_time_units == r.stats.time_units);
      // rap: rows and columns conflict-free ([NMI] Sect. IV).
      if (layout == "rap" && name != "drdw") CHECK(figure<std::int64_t>(r, "write_congestion_max") == 1);
      CHECK(has_figure(r, "shifts") == (layout == "ras" || layout == "rap"));
    }
}

TEST_CASE("one seed, one layout: the shifts come out the same twice and differ with the seed") {
  const auto shifts = [](std::int64_t seed) {
    const RunReport r = run_algorithm(entry("srcw"), {{"w", 16}, {"layout", "rap"}, {"seed", seed}});
    for (const auto& f : r.figures)
      if (f.name == "shifts") return std::get<std::string>(f.value);
    return std::string();
  };
  CHECK(shifts(4) == shifts(4));
  CHECK(shifts(4) != shifts(5));
}

TEST_CASE("bad input is refused in one line naming the option") {
  CHECK(refusal("crsw", {{"w", 1}}).find("-w") != std::string::npos);
  CHECK(refusal("crsw", {{"w", 1025}}).find("-w") != std::string::npos);
  CHECK(refusal("srcw", {{"layout", "bogus"}}).find("--layout") != std::string::npos);
  CHECK(refusal("drdw", {{"w", 8}, {"n", 10}}).find("-n") != std::string::npos);
  CHECK(refusal("drdw", {{"w", 8}, {"n", 64}}).empty());
  CHECK(refusal("crsw", {{"k", 4}}).find("'k' is not a parameter") != std::string::npos);
}

TEST_CASE("the catalogue lists layouts and patterns with the paper's key, and no algorithm") {
  std::vector<CatalogueEntry> lines;
  layouts::append_catalogue(lines);
  CHECK(lines.size() > 10);
  for (const auto& c : lines) {
    INFO(c.name);
    CHECK((c.kind == "layout" || c.kind == "pattern"));
    CHECK(c.paper.find("papers/") == std::string::npos);
  }
}
