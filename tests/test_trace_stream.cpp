// A trace streamed to its file while the run goes (algorithms/run_output.h TraceCsvWriter) is the
// in-memory trace's CSV byte for byte, at every thread count and in asynchronous execution; and the
// engine hands its slots on per round, holding no more than a round (or a batch) at a time.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "algorithms/run_output.h"
#include "io/input_error.h"

using namespace mmsim;

namespace {

struct Case {
  std::string algorithm;
  ParamValues given;
  bool async = false;
};

// One case of every family, with multi-round kernels, several memories and both executions.
const std::vector<Case>& cases() {
  static const std::vector<Case> all{
      {"d-designated", {{"n", 4096}, {"w", 8}, {"k", 3}, {"perm", "random"}}},
      {"d-designated", {{"n", 4096}, {"w", 8}, {"k", 3}, {"perm", "random"}}, true},
      {"transpose", {{"n", 4096}, {"w", 8}}},
      {"scheduled", {{"n", 4096}, {"w", 8}, {"k", 5}}},
      {"crsw", {{"w", 16}, {"layout", "ras"}}},
      {"bmmc", {{"n", 1024}, {"random_bmmc", true}, {"w", 8}}},
      {"parm-sort", {{"n", 256}, {"w", 8}}},
      {"as-sort", {{"w", 8}, {"m", 16}}},
      {"transpose-ip-v1", {{"order", 100}, {"w", 8}, {"tlb_entries", 8}}},
  };
  return all;
}

EngineOptions options(const Case& c, unsigned threads) {
  EngineOptions o;
  o.trace = true;
  o.threads = threads;
  o.chunk_warps = 1;  // small programs split as large ones are
  if (c.async) o.execution = Execution::Asynchronous;
  return o;
}

// Counts the batches and the largest one, and passes every slot on to a CSV writer.
struct CountingSink : TraceSink {
  mmsim::TraceCsvWriter csv;
  std::size_t batches = 0, largest = 0;
  std::vector<int> rounds_seen;  // the rounds of each batch's first slot
  explicit CountingSink(std::ostream& out) : csv(out) {}
  void consume(std::span<const SlotEvent> slots, const RunStats& stats) override {
    ++batches;
    largest = std::max(largest, slots.size());
    rounds_seen.push_back(slots.front().round);
    csv.consume(slots, stats);
  }
};

}  // namespace

TEST_CASE("a streamed trace is the in-memory trace's CSV byte for byte, at 1 and 3 threads") {
  for (const auto& c : cases()) {
    CAPTURE(c.algorithm);
    CAPTURE(c.async);
    const AlgorithmEntry* entry = find_algorithm(c.algorithm);
    REQUIRE(entry != nullptr);
    for (const unsigned threads : {1u, 3u}) {
      CAPTURE(threads);
      const RunReport in_memory = run_algorithm(*entry, c.given, options(c, threads));
      REQUIRE(in_memory.correct);
      REQUIRE(!in_memory.trace.empty());
      std::ostringstream whole;
      REQUIRE(mmsim::write_trace_csv(whole, in_memory));

      std::ostringstream streamed;
      CountingSink sink(streamed);
      EngineOptions o = options(c, threads);
      o.trace_sink = &sink;
      const RunReport r = run_algorithm(*entry, c.given, o);
      CHECK(r.trace.empty());  // nothing kept in memory
      CHECK(r.stats.time_units == in_memory.stats.time_units);
      CHECK(streamed.str() == whole.str());
      // Handed on as it went: more than once, never more than a round's slots at a time
      // (round-synchronous), each batch beginning at a later round than the one before.
      if (!c.async && r.stats.rounds.size() > 1) {
        CHECK(sink.batches > 1);
        std::map<int, std::size_t> per_round;
        for (const auto& e : in_memory.trace) ++per_round[e.round];
        std::size_t biggest_round = 0;
        for (const auto& [round, count] : per_round) biggest_round = std::max(biggest_round, count);
        CHECK(sink.largest <= biggest_round);
        CHECK(std::is_sorted(sink.rounds_seen.begin(), sink.rounds_seen.end()));
      }
    }
  }
}

TEST_CASE("an asynchronous run hands its slots on in bounded batches") {
  const Case c{"d-designated", {{"n", 262144}, {"w", 8}, {"k", 2}, {"perm", "random"}}, true};
  std::ostringstream streamed;
  CountingSink sink(streamed);
  EngineOptions o = options(c, 1);
  o.trace_sink = &sink;
  const RunReport r = run_algorithm(*find_algorithm(c.algorithm), c.given, o);
  CHECK(r.correct);
  CHECK(sink.batches > 4);
  CHECK(sink.largest < (std::size_t{1} << 15) + 8);  // a batch, and the last warp access (at most w slots)
}

TEST_CASE("a sink that fails stops the run with its error") {
  struct FailingSink : TraceSink {
    void consume(std::span<const SlotEvent>, const RunStats&) override { throw WriteError("disk full"); }
  } sink;
  EngineOptions o;
  o.trace = true;
  o.trace_sink = &sink;
  CHECK_THROWS_WITH_AS(run_algorithm(*find_algorithm("transpose"), {{"n", 4096}, {"w", 8}}, o), "disk full",
                       WriteError);
}
