// The multi-core engine: every result of a round-synchronous run (time units, statistics, memory
// contents, the lowest writer of a cell, traces, errors) is the same for 1, 2, 3 and 8 threads, on
// random programs and on algorithms of the registry.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "algorithms/registry.h"
#include "models/machines.h"
#include "sim/engine.h"
#include "sim/random.h"
#include "sim/workers.h"

using namespace mmsim;

namespace {

constexpr unsigned kThreadCounts[] = {1, 2, 3, 8};

// Everything a run leaves behind, to compare runs field by field.
struct Outcome {
  RunStats stats;
  std::vector<SlotEvent> trace;
  std::vector<std::vector<Word>> memory;  // every global array, then every block's shared arrays
  std::string error;                      // what launch() threw, if it threw
};

void check_same(const Outcome& a, const Outcome& b) {
  CHECK(a.error == b.error);
  CHECK(a.stats.time_units == b.stats.time_units);
  REQUIRE(a.stats.kernels.size() == b.stats.kernels.size());
  for (std::size_t i = 0; i < a.stats.kernels.size(); ++i) {
    CHECK(a.stats.kernels[i].name == b.stats.kernels[i].name);
    CHECK(a.stats.kernels[i].time_units == b.stats.kernels[i].time_units);
  }
  REQUIRE(a.stats.rounds.size() == b.stats.rounds.size());
  for (std::size_t i = 0; i < a.stats.rounds.size(); ++i) {
    CAPTURE(i);
    CHECK(a.stats.rounds[i] == b.stats.rounds[i]);
  }
  REQUIRE(a.trace.size() == b.trace.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.trace.size(); ++i) {
    const SlotEvent &x = a.trace[i], &y = b.trace[i];
    differing += !(x.round == y.round && x.memory == y.memory && x.warp == y.warp && x.slot == y.slot &&
                   x.enter == y.enter && x.complete == y.complete && x.requests == y.requests);
  }
  CHECK(differing == 0);
  CHECK(a.memory == b.memory);
}

// A random program: a few kernels of random reads, writes (many threads on few cells, so that
// chunks collide) and computations, addresses drawn per thread, some depending on registers,
// some threads idle.
struct RandomProgram {
  MachineParams machine;
  std::uint64_t global_size = 0, shared_size = 0;
  std::vector<Kernel> kernels;
};

RandomProgram random_program(std::uint64_t seed) {
  Rng rng(seed);
  RandomProgram p;
  const ModelKind kinds[] = {ModelKind::Dmm, ModelKind::Umm, ModelKind::Hmm};
  p.machine.model = kinds[rng.below(3)];
  p.machine.w = static_cast<int>(1 + rng.below(8));
  p.machine.l = static_cast<int>(1 + rng.below(5));
  p.machine.L = static_cast<int>(1 + rng.below(20));
  p.machine.k = static_cast<int>(1 + rng.below(4));
  const auto w = static_cast<std::uint64_t>(p.machine.w);
  p.global_size = 1 + rng.below(300);
  p.shared_size = 1 + rng.below(40);
  const bool has_global = p.machine.model != ModelKind::Dmm, has_shared = p.machine.model != ModelKind::Umm;
  const int kernels = static_cast<int>(1 + rng.below(3));
  for (int kk = 0; kk < kernels; ++kk) {
    Kernel k;
    k.name = "k" + std::to_string(kk);
    k.blocks = p.machine.model == ModelKind::Hmm ? 1 + rng.below(6) : 1;
    k.threads_per_block = static_cast<std::uint32_t>(w * (1 + rng.below(12)));
    k.registers = 3;
    const std::uint64_t threads = k.threads();
    const int steps = static_cast<int>(2 + rng.below(8));
    for (int s = 0; s < steps; ++s) {
      const std::uint64_t kind = rng.below(5);
      if (kind == 0) {
        const Word salt = static_cast<Word>(rng.next());
        k.steps.push_back(Compute{[salt](const Thread& t) {
          t.set(2, static_cast<Word>(t.reg(0) * 31u + t.reg(1) + salt + static_cast<Word>(t.id())));
        }});
        continue;
      }
      const bool shared = has_shared && (!has_global || rng.below(2) == 0);
      const std::uint64_t size = shared ? p.shared_size : p.global_size;
      // Few distinct cells now and then, so that many threads write one cell in one round.
      const std::uint64_t range = rng.below(3) == 0 ? std::min<std::uint64_t>(size, 1 + rng.below(4)) : size;
      auto table = std::make_shared<std::vector<Address>>(threads);
      for (auto& a : *table) a = rng.below(6) == 0 ? kNoAddress : rng.below(range);
      const bool by_register = rng.below(4) == 0;
      const Op op = kind <= 2 ? Op::Read : Op::Write;
      const int reg = static_cast<int>(rng.below(3));
      Access access{"s" + std::to_string(s), op, shared ? 1 : 0, reg, nullptr};
      if (by_register)
        access.address = [range](const Thread& t) -> Address { return (t.reg(2) + t.id()) % range; };
      else
        access.address = [table](const Thread& t) { return (*table)[t.id()]; };
      k.steps.push_back(std::move(access));
    }
    p.kernels.push_back(std::move(k));
  }
  return p;
}

Outcome run_program(const RandomProgram& p, unsigned threads, std::uint64_t chunk_warps) {
  const Machine machine(p.machine);
  EngineOptions o;
  o.trace = true;
  o.threads = threads;
  o.chunk_warps = chunk_warps;
  Engine engine(machine.view(), o);
  // Array 0 is global and array 1 shared, whichever the machine has; the other is never used.
  const bool has_global = p.machine.model != ModelKind::Dmm, has_shared = p.machine.model != ModelKind::Umm;
  if (has_global)
    engine.add_array({"g", Space::Global, p.global_size});
  else
    engine.add_array({"g", Space::Shared, p.global_size});
  if (has_shared)
    engine.add_array({"s", Space::Shared, p.shared_size});
  else
    engine.add_array({"s", Space::Global, p.shared_size});
  if (has_global) {
    auto g = engine.global(0);
    for (std::size_t i = 0; i < g.size(); ++i) g[i] = static_cast<Word>(1000 + i);
  }
  Outcome out;
  for (const auto& k : p.kernels) engine.launch(k);
  out.stats = engine.stats();
  out.trace = engine.trace();
  if (has_global) out.memory.emplace_back(engine.global(0).begin(), engine.global(0).end());
  if (has_shared)
    for (std::uint64_t b = 0; b < 6; ++b)
      out.memory.emplace_back(engine.shared(1, b).begin(), engine.shared(1, b).end());
  return out;
}

// A UMM engine on `threads` threads, one warp a chunk (so that any warp may finish first), with one
// global array `a`; kernel() is a kernel of one block that the test gives its steps.
struct OneArrayEngine {
  Machine machine;
  Engine engine;
  ArrayId a;
  OneArrayEngine(const MachineParams& p, unsigned threads, std::uint64_t cells)
      : machine(p), engine(machine.view(), chunked(threads)), a(engine.add_array({"a", Space::Global, cells})) {}
  static EngineOptions chunked(unsigned threads) {
    EngineOptions o;
    o.threads = threads;
    o.chunk_warps = 1;
    return o;
  }
  static Kernel kernel(std::uint64_t threads_per_block) {
    Kernel k;
    k.name = "k";
    k.threads_per_block = threads_per_block;
    return k;
  }
};

Address slow_for_thread_0(const Thread& t, Address a) {
  if (t.id() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return a;
}

}  // namespace

TEST_CASE("random programs: identical stats, memory and traces for 1, 2, 3 and 8 threads") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    const RandomProgram p = random_program(seed);
    const Outcome one = run_program(p, 1, 0);
    for (const unsigned threads : kThreadCounts)
      for (const std::uint64_t chunk_warps : {1u, 2u, 5u}) {
        CAPTURE(threads);
        CAPTURE(chunk_warps);
        check_same(one, run_program(p, threads, chunk_warps));
      }
  }
}

TEST_CASE("the lowest thread wins a concurrent write over the whole round, whatever chunk ran first") {
  // 64 warps of w = 4, one warp per chunk: every thread writes cell t mod 3 and cell 7; the lowest
  // writers are threads 0, 1, 2 and 0. Thread 0 takes its time to present its address, so that
  // higher chunks write those cells first and chunk 0 has to take them over.
  for (const unsigned threads : kThreadCounts)
    for (int repeat = 0; repeat < 5; ++repeat) {
      OneArrayEngine run(MachineParams{ModelKind::Umm, 4, 2, 1, 1}, threads, 8);
      const ArrayId a = run.a;
      Kernel k = OneArrayEngine::kernel(256);
      // Higher threads' values are smaller, so a wrong winner cannot go unnoticed.
      k.steps = {Compute{[](const Thread& t) { t.set(0, static_cast<Word>(1000 - t.id())); }},
                 Access{"write", Op::Write, a, 0, [](const Thread& t) { return slow_for_thread_0(t, t.id() % 3); }},
                 Access{"write 7", Op::Write, a, 0, [](const Thread& t) { return slow_for_thread_0(t, 7); }}};
      run.engine.launch(k);
      CHECK(run.engine.global(a)[0] == 1000);
      CHECK(run.engine.global(a)[1] == 999);
      CHECK(run.engine.global(a)[2] == 998);
      CHECK(run.engine.global(a)[7] == 1000);
    }
}

TEST_CASE("an address outside its array reports the lowest such warp for every thread count") {
  for (const unsigned threads : kThreadCounts) {
    OneArrayEngine run(MachineParams{ModelKind::Umm, 2, 1, 1, 1}, threads, 100);
    const ArrayId a = run.a;
    Kernel k = OneArrayEngine::kernel(64);
    k.steps = {Access{"bad", Op::Read, a, 0,
                      [](const Thread& t) -> Address { return t.id() == 11 || t.id() >= 40 ? 100 + t.id() : t.id(); }}};
    std::string what;
    try {
      run.engine.launch(k);
    } catch (const std::logic_error& e) {
      what = e.what();
    }
    CHECK(what.find("thread 11 addresses 111") != std::string::npos);
  }
}

TEST_CASE("the worker pool runs every task once and rethrows the lowest failing task's error") {
  for (const unsigned threads : kThreadCounts) {
    WorkerPool pool(threads);
    CHECK(pool.threads() == threads);
    std::vector<int> ran(100, 0);
    pool.run(ran.size(), [&](std::size_t i) { ++ran[i]; });
    CHECK(ran == std::vector<int>(100, 1));
    std::string what;
    try {
      pool.run(50, [](std::size_t i) {
        if (i % 7 == 3) throw std::runtime_error("task " + std::to_string(i));
      });
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
    CHECK(what == "task 3");
  }
}

TEST_CASE("algorithms of the registry give the same report and trace for every thread count") {
  const std::vector<std::pair<std::string, ParamValues>> runs{
      {"d-designated", {{"n", 4096}, {"w", 8}, {"k", 3}}},
      {"s-designated", {{"n", 4096}, {"w", 8}}},
      {"transpose", {{"n", 4096}, {"w", 8}}},
      {"row-wise", {{"n", 4096}, {"w", 8}}},
      {"scheduled", {{"n", 4096}, {"w", 8}, {"k", 5}}},
      {"crsw", {{"w", 16}, {"layout", "ras"}}},
      {"bmmc", {{"n", 1024}, {"random_bmmc", true}, {"w", 8}}},
      {"parm-sort", {{"n", 256}, {"w", 8}}},
      {"transpose-ip-v1", {{"order", 100}, {"w", 8}, {"tlb_entries", 8}}},
  };
  for (const auto& [name, given] : runs) {
    CAPTURE(name);
    const AlgorithmEntry* entry = find_algorithm(name);
    REQUIRE(entry != nullptr);
    EngineOptions o;
    o.trace = true;
    o.threads = 1;
    const RunReport one = run_algorithm(*entry, given, o);
    CHECK(one.correct);
    for (const unsigned threads : kThreadCounts) {
      CAPTURE(threads);
      o.threads = threads;
      o.chunk_warps = 1;
      const RunReport r = run_algorithm(*entry, given, o);
      CHECK(r.correct);
      CHECK(r.predicted_time_units == one.predicted_time_units);
      check_same({one.stats, one.trace, {}, {}}, {r.stats, r.trace, {}, {}});
    }
  }
}
