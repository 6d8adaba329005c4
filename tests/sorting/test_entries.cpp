// The sorting family through the registry, as `mmsim run` reaches it: every entry runs from its
// declared defaults, reports the engine's rounds and phases, checks the rule that joins -w and -m,
// checks a keys file against its problem, and traces when asked.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "algorithms/registry.h"
#include "algorithms/sorting/sorting.h"
#include "io/input_error.h"

using namespace mmsim;

namespace {

std::vector<const AlgorithmEntry*> sorting_entries() {
  std::vector<const AlgorithmEntry*> out;
  for (const auto& e : algorithms())
    if (e.family == "sorting") out.push_back(&e);
  return out;
}

std::int64_t integer_figure(const RunReport& r, const std::string& name) {
  for (const auto& f : r.figures)
    if (f.name == name) return std::get<std::int64_t>(f.value);
  FAIL("no figure " << name);
  return -1;
}

const AlgorithmEntry& entry(const std::string& name) {
  const AlgorithmEntry* e = find_algorithm(name);
  REQUIRE(e != nullptr);
  return *e;
}

// The algorithms of the paper keep the CAC in every step; the baselines do not try to.
const std::set<std::string> kConflictFree{"as-sort", "as-partition", "as-partition-sort", "as-permute"};

}  // namespace

TEST_CASE("the family's entries are its seven algorithms, all on the DMM without a latency option") {
  std::vector<std::string> names;
  for (const auto* e : sorting_entries()) {
    names.push_back(e->name);
    CHECK(e->machine == ModelKind::Dmm);
    CHECK(e->paper.rfind("AS Sect. ", 0) == 0);
    CHECK_FALSE(e->asynchronous);
    CHECK(e->traces);
    std::vector<std::string> params;
    for (const auto& p : e->params) params.push_back(p.name);
    CHECK(params == std::vector<std::string>{"w", "m", "keys_file", "seed"});
  }
  CHECK(names == std::vector<std::string>{"as-sort", "as-partition", "as-partition-sort", "as-permute",
                                          "as-sort-bitonic", "as-partition-direct", "as-permute-direct"});
}

TEST_CASE("every sorting entry runs with its defaults and a small -m: correct, the paper's ones conflict-free") {
  for (const auto* e : sorting_entries()) {
    for (const std::int64_t m : {1, 8, 64}) {
      INFO(e->name << " -m " << m);
      const RunReport r = run_algorithm(*e, {{"m", m}});
      CHECK(r.correct);
      CHECK(r.machine.w == 32);  // MachineParams' default
      CHECK(r.machine.l == 1);   // AS Sect. 1: every access takes one time unit
      CHECK(r.n == 32u * static_cast<std::uint64_t>(m));
      CHECK_FALSE(r.predicted_time_units.has_value());
      // One step is one round of the engine.
      CHECK(integer_figure(r, "steps") == static_cast<std::int64_t>(r.stats.rounds.size()));
      if (kConflictFree.count(e->name)) {
        CHECK(integer_figure(r, "cac_violations") == 0);
        CHECK(integer_figure(r, "max_congestion") == 1);
        CHECK(r.stats.time_units == integer_figure(r, "steps"));  // latency 1, congestion 1
      }
    }
  }
}

TEST_CASE("a run's phases are its kernel names, and their time units add up to the run's") {
  for (const char* name : {"as-sort", "as-partition", "as-permute"}) {
    INFO(name);
    const RunReport r = run_algorithm(entry(name), {{"w", 64}, {"m", 8}});
    const auto phases = phases_of(r.stats);
    REQUIRE_FALSE(phases.empty());
    TimeUnits sum = 0;
    std::uint64_t rounds = 0;
    for (const auto& p : phases) {
      sum += p.time_units;
      rounds += p.rounds;
      CHECK(p.launches == p.rounds);  // one launch per step
    }
    CHECK(sum == r.stats.time_units);
    CHECK(rounds == r.stats.rounds.size());
  }
  // Lemma 2's phases name the recursion depth; the permutation's name its own phases.
  const RunReport lemma2 = run_algorithm(entry("as-partition"), {{"w", 64}, {"m", 8}});
  CHECK(phases_of(lemma2.stats).front().name.rfind("lemma2 d0: ", 0) == 0);
  std::set<std::string> names;
  for (const auto& p : phases_of(run_algorithm(entry("as-permute"), {{"w", 16}, {"m", 4}}).stats)) names.insert(p.name);
  for (const char* phase : {"preprocess", "hash", "colour", "communicate", "compact", "sync", "finish: fill"})
    CHECK(names.count(phase) == 1);
}

TEST_CASE("the report is the one the algorithm function gives, figure for figure") {
  const RunReport r = run_algorithm(entry("as-permute"), {{"w", 16}, {"m", 4}, {"seed", 5}});
  const auto run = sorting::as_permute(16, 4, sorting::random_permutation(16, 4, 5), 5);
  CHECK(std::get<std::string>(r.figures.at(0).value) == run.method);
  CHECK(integer_figure(r, "steps") == run.summary.steps);
  CHECK(r.stats.time_units == run.summary.time_units);
  CHECK(integer_figure(r, "iterations") == run.figures.at(0).second);
  CHECK(integer_figure(r, "leftover_labels") == run.figures.at(1).second);
}

TEST_CASE("w * m above 2^22 is an InputError naming -w and -m; each alone within its bounds") {
  CHECK_THROWS_WITH_AS(run_algorithm(entry("as-sort"), {{"w", 1024}, {"m", 8192}}),
                       doctest::Contains("-w, -m: w * m must be at most 2^22"), InputError);
  CHECK_THROWS_AS(run_algorithm(entry("as-sort"), {{"w", 8}, {"m", 3}}), InputError);
  CHECK_THROWS_AS(run_algorithm(entry("as-sort"), {{"w", 2048}, {"m", 8}}), InputError);
  CHECK_THROWS_AS(run_algorithm(entry("as-sort"), {{"w", 8}, {"m", 131072}}), InputError);
  CHECK_THROWS_AS(run_algorithm(entry("as-sort"), {{"w", 8}}), InputError);  // -m is required
  CHECK_THROWS_AS(run_algorithm(entry("as-sort"), {{"w", 8}, {"m", 8}, {"l", 2}}), InputError);
  CHECK_THROWS_AS(run_algorithm(entry("as-sort"), {{"m", 8}}, Execution::Asynchronous), InputError);
}

TEST_CASE("a keys file is read and checked against the entry's problem") {
  const std::string path = "test_sorting_entries_keys.txt";
  {
    std::ofstream out(path);
    for (int x : {5, 3, 9, 1, 0, 2, 8, 7}) out << x << "\n";
  }
  const RunReport sorted = run_algorithm(entry("as-sort"), {{"w", 2}, {"m", 4}, {"keys_file", path}});
  CHECK(sorted.correct);
  CHECK(sorted.parameters.text("keys_file") == path);
  // Keys up to 9 are no partition of 2 rows, nor a permutation of 8 cells (9 >= 8).
  CHECK_THROWS_WITH_AS(run_algorithm(entry("as-partition"), {{"w", 2}, {"m", 4}, {"keys_file", path}}),
                       doctest::Contains("line 1"), InputError);
  CHECK_THROWS_WITH_AS(run_algorithm(entry("as-permute"), {{"w", 2}, {"m", 4}, {"keys_file", path}}),
                       doctest::Contains("line 3"), InputError);
  CHECK_THROWS_AS(run_algorithm(entry("as-sort"), {{"w", 4}, {"m", 4}, {"keys_file", path}}), InputError);
  std::remove(path.c_str());
  CHECK_THROWS_AS(run_algorithm(entry("as-sort"), {{"w", 2}, {"m", 4}, {"keys_file", path}}), InputError);
}

TEST_CASE("a traced run records one slot per conflict-free step, and the untraced run is the same run") {
  const auto& e = entry("as-sort");
  const RunReport traced = run_algorithm(e, {{"w", 4}, {"m", 4}}, Execution::RoundSynchronous, true);
  const RunReport plain = run_algorithm(e, {{"w", 4}, {"m", 4}});
  CHECK(plain.trace.empty());
  CHECK(traced.trace.size() == traced.stats.rounds.size());
  CHECK(traced.stats.time_units == plain.stats.time_units);
  for (std::size_t i = 0; i < traced.trace.size(); ++i) {
    CHECK(traced.trace[i].round == static_cast<int>(i));
    CHECK(traced.trace[i].enter == static_cast<TimeUnits>(i));  // latency 1: step i is time unit i
  }
}
