// The engine against hand-worked examples of docs/model.md and KNI Fig. 2: one timing fact each.
#include <doctest/doctest.h>

#include <numeric>

#include "models/congestion.h"
#include "models/machines.h"
#include "sim/engine.h"
#include "teaching/access.h"

using namespace mmsim;

namespace {

// One kernel of a single block whose threads present table[thread] (kNoAddress = idle).
Kernel table_kernel(const std::vector<std::vector<Address>>& per_step, ArrayId array, Op op = Op::Read) {
  Kernel k;
  k.name = "k";
  k.threads_per_block = static_cast<std::uint32_t>(per_step.front().size());
  for (std::size_t s = 0; s < per_step.size(); ++s) {
    const auto& table = per_step[s];
    k.steps.push_back(
        Access{"s" + std::to_string(s), op, array, 0, [table](const Thread& t) { return table[t.id()]; }});
  }
  return k;
}

MachineParams dmm(int w, int l) { return {ModelKind::Dmm, w, l, 1, 1}; }
MachineParams umm(int w, int l) { return {ModelKind::Umm, w, l, 1, 1}; }

TimeUnits run_table(const MachineParams& p, const std::vector<std::vector<Address>>& steps, Execution e,
                    std::vector<SlotEvent>* trace = nullptr) {
  const Machine m(p);
  Engine engine(m.view(), {e, trace != nullptr});
  const ArrayId a = engine.add_array({"m", p.model == ModelKind::Umm ? Space::Global : Space::Shared, 64});
  engine.launch(table_kernel(steps, a));
  if (trace) *trace = engine.trace();
  return engine.stats().time_units;
}

}  // namespace

TEST_CASE("KNI Fig. 2: DMM 3 slots in 7 time units, UMM 5 slots in 9") {
  const std::vector<std::vector<Address>> warps{{7, 5, 15, 0}, {10, 11, 12, 9}};
  const auto d = teaching::simulate_access(dmm(4, 5), warps);
  CHECK(d.slots == std::vector<int>{2, 1});
  CHECK(d.time_units == 7);
  const auto u = teaching::simulate_access(umm(4, 5), warps);
  CHECK(u.slots == std::vector<int>{3, 2});
  CHECK(u.time_units == 9);
  // The slots enter one per time unit and complete latency - 1 later.
  REQUIRE(u.trace.size() == 5);
  for (std::size_t i = 0; i < u.trace.size(); ++i) {
    CHECK(u.trace[i].enter == static_cast<TimeUnits>(i));
    CHECK(u.trace[i].complete == static_cast<TimeUnits>(i) + 4);
  }
}

TEST_CASE("one slot takes exactly the latency, not one time unit less") {
  for (int l : {1, 2, 7}) {
    CHECK(run_table(dmm(4, l), {{0, 1, 2, 3}}, Execution::RoundSynchronous) == l);
    CHECK(run_table(umm(4, l), {{0, 1, 2, 3}}, Execution::RoundSynchronous) == l);
  }
}

TEST_CASE("textbook congestion: contiguous 1, stride w gives w, equal addresses merge") {
  const int w = 8;
  std::vector<Address> contiguous(w), stride(w), same(w, 5), diagonal(w);
  for (int t = 0; t < w; ++t) {
    contiguous[t] = static_cast<Address>(t);
    stride[t] = static_cast<Address>(t * w);
    diagonal[t] = static_cast<Address>(t * w + t);
  }
  CHECK(congestion(contiguous, w) == 1);
  CHECK(congestion(stride, w) == w);
  CHECK(congestion(same, w) == 1);
  // Equal addresses merge also when the warp spans several groups: {0, 4, 0, 4} at w = 4 is two
  // requests in bank 0, not four.
  CHECK(congestion(std::vector<Address>{0, 4, 0, 4}, 4) == 2);
  CHECK(bank_cost(std::vector<Address>{0, 4, 0, 4}, 4).extra_bank_requests == 1);
  CHECK(congestion(diagonal, w) == 1);
  CHECK(bank_cost(stride, w).extra_bank_requests == w - 1);
  CHECK(group_cost(stride, w).slots == w);
  CHECK(group_cost(diagonal, w).slots == w);
  CHECK(group_cost(same, w).slots == 1);
  // Width that is not a power of two.
  CHECK(congestion(std::vector<Address>{0, 3, 6, 1}, 3) == 3);        // banks 0, 0, 0, 1
  CHECK(group_cost(std::vector<Address>{0, 3, 6, 1}, 3).slots == 3);  // groups 0, 1, 2, 0
}

TEST_CASE("a warp with no request is not dispatched") {
  const Address x = kNoAddress;
  // Warp 1 idle: only warp 0's slot enters.
  CHECK(run_table(umm(2, 3), {{0, 1, x, x}}, Execution::RoundSynchronous) == 3);
  // Everything idle: no time at all.
  CHECK(run_table(umm(2, 3), {{x, x, x, x}}, Execution::RoundSynchronous) == 0);
  CHECK(run_table(umm(2, 3), {{x, x, x, x}}, Execution::Asynchronous) == 0);
}

TEST_CASE("round-robin dispatch: a warp waits for its previous requests (asynchronous)") {
  // w = 2, latency 3, two warps with two one-slot instructions each.
  // t=0 W0 enters, t=1 W1 enters; W0 is ready at 3, W1 at 4; the last completes at the end of 6.
  std::vector<SlotEvent> trace;
  const TimeUnits async = run_table(umm(2, 3), {{0, 1, 2, 3}, {4, 5, 6, 7}}, Execution::Asynchronous, &trace);
  CHECK(async == 7);
  REQUIRE(trace.size() == 4);
  CHECK(trace[0].warp == 0);
  CHECK(trace[0].enter == 0);
  CHECK(trace[1].warp == 1);
  CHECK(trace[1].enter == 1);
  CHECK(trace[2].warp == 0);
  CHECK(trace[2].enter == 3);
  CHECK(trace[3].warp == 1);
  CHECK(trace[3].enter == 4);
  // Round-synchronous: (2 + 3 - 1) per round.
  CHECK(run_table(umm(2, 3), {{0, 1, 2, 3}, {4, 5, 6, 7}}, Execution::RoundSynchronous) == 8);
}

TEST_CASE("round-robin dispatch: the next ready warp after the last dispatched, not the lowest ready one") {
  // w = 2, latency 1, three warps with two one-slot instructions each. At t = 1 warps 0 (its first
  // request done at the end of 0) and 1 are both ready: round robin takes warp 1, then 2 at t = 2,
  // then warp 0 again. Lowest-first would give 0, 0, 1, 1, 2, 2: the same 6 time units, another order.
  std::vector<SlotEvent> trace;
  const TimeUnits t = run_table(umm(2, 1), {{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}}, Execution::Asynchronous, &trace);
  CHECK(t == 6);
  std::vector<std::uint64_t> order;
  for (const auto& e : trace) order.push_back(e.warp);
  CHECK(order == std::vector<std::uint64_t>{0, 1, 2, 0, 1, 2});
}

TEST_CASE("a busy pipeline delays a ready warp; S slots back to back take S + latency - 1") {
  // W0 occupies 4 slots (stride), W1 one slot: 5 slots, latency 2 -> 6 time units.
  CHECK(run_table(dmm(4, 2), {{0, 4, 8, 12, 1, 2, 3, 0}}, Execution::RoundSynchronous) == 6);
  CHECK(run_table(dmm(4, 2), {{0, 4, 8, 12, 1, 2, 3, 0}}, Execution::Asynchronous) == 6);
}

TEST_CASE("HMM: shared rounds run the k DMMs' pipelines in parallel, blocks on DMM b mod k") {
  // w = 4, 4 blocks of 4 threads, conflict-free: with k = 2 each DMM issues 2 slots (2 + l - 1).
  for (int k : {1, 2, 4}) {
    const MachineParams p{ModelKind::Hmm, 4, 1, 10, k};
    const Machine m(p);
    Engine engine(m.view());
    const ArrayId s = engine.add_array({"s", Space::Shared, 4});
    const ArrayId g = engine.add_array({"g", Space::Global, 16});
    // Distinct values, so that each block's copy of s shows where its cells came from.
    std::iota(engine.global(g).begin(), engine.global(g).end(), Word{100});
    Kernel kern;
    kern.name = "k";
    kern.blocks = 4;
    kern.threads_per_block = 4;
    kern.steps = {Access{"read g", Op::Read, g, 0, [](const Thread& t) { return t.id(); }},
                  Access{"write s", Op::Write, s, 0, [](const Thread& t) { return t.local(); }}};
    engine.launch(kern);
    const auto& r = engine.stats().rounds;
    CHECK(*r[0].time_units == 4 + 10 - 1);  // all 4 warps share the global pipeline
    CHECK(*r[1].time_units == (4 + k - 1) / k);
    CHECK(r[1].max_congestion == 1);
    for (std::uint64_t b = 0; b < 4; ++b)
      for (std::uint64_t i = 0; i < 4; ++i) CHECK(engine.shared(s, b)[i] == engine.global(g)[b * 4 + i]);
  }
}

TEST_CASE("HMM: block b runs on DMM b mod k, not on a contiguous range of DMMs") {
  // w = 4, k = 2, l = 1, 4 blocks of one warp: blocks 0 and 1 write a stride (congestion 4), blocks 2
  // and 3 a row (congestion 1). On DMM b mod 2 each DMM gets 4 + 1 slots: 5 time units. A contiguous
  // mapping (blocks 0, 1 on DMM 0) would give DMM 0 8 slots: 8 time units.
  for (const Execution e : {Execution::RoundSynchronous, Execution::Asynchronous}) {
    const Machine m(MachineParams{ModelKind::Hmm, 4, 1, 10, 2});
    Engine engine(m.view(), {e, false});
    const ArrayId s = engine.add_array({"s", Space::Shared, 16});
    Kernel kern;
    kern.name = "k";
    kern.blocks = 4;
    kern.threads_per_block = 4;
    kern.steps = {
        Access{"write s", Op::Write, s, 0, [](const Thread& t) { return t.block() < 2 ? 4 * t.local() : t.local(); }}};
    engine.launch(kern);
    CHECK(engine.stats().time_units == 5);
  }
}

TEST_CASE("the lowest thread wins a concurrent write") {
  // Within one warp in both executions; across the warps of a round in round-synchronous execution
  // (asynchronous warps of one instruction are not ordered: such writes are a race).
  for (const Execution e : {Execution::RoundSynchronous, Execution::Asynchronous}) {
    const Machine m(umm(4, 2));
    Engine engine(m.view(), {e, false});
    const ArrayId a = engine.add_array({"a", Space::Global, 4});
    Kernel k;
    k.name = "k";
    k.threads_per_block = e == Execution::RoundSynchronous ? 8 : 4;
    k.steps = {Compute{[](const Thread& t) { t.set(0, static_cast<Word>(100 + t.id())); }},
               Access{"write", Op::Write, a, 0, [](const Thread& t) { return t.id() % 2; }}};
    engine.launch(k);
    CHECK(engine.global(a)[0] == 100);
    CHECK(engine.global(a)[1] == 101);
    // Merged: each warp writes two addresses of one group, one slot per warp.
    CHECK(engine.stats().rounds[0].slots == k.threads_per_block / 4);
  }
}

TEST_CASE("asynchronous writes of one instruction land in dispatch order: the last warp dispatched wins") {
  // Asynchronous warps of one instruction are not ordered by a round: each moves its data when it is
  // dispatched, so when warps 0 and 1 write the same cells, round robin dispatches warp 0 first and
  // warp 1's values are the ones left (round-synchronous execution keeps warp 0's, the lowest thread's).
  for (const Execution e : {Execution::RoundSynchronous, Execution::Asynchronous}) {
    const Machine m(umm(2, 3));
    Engine engine(m.view(), {e, false});
    const ArrayId a = engine.add_array({"a", Space::Global, 2});
    Kernel k;
    k.name = "k";
    k.threads_per_block = 4;
    k.steps = {Compute{[](const Thread& t) { t.set(0, static_cast<Word>(100 + t.id())); }},
               Access{"write", Op::Write, a, 0, [](const Thread& t) { return t.id() % 2; }}};
    engine.launch(k);
    const Word first = e == Execution::RoundSynchronous ? 100 : 102;
    CHECK(engine.global(a)[0] == first);
    CHECK(engine.global(a)[1] == first + 1);
  }
}

TEST_CASE("asynchronous block barrier: no warp passes before the whole block arrives") {
  // Block of 2 warps: warp 0 writes shared s[0..w), barrier, warp 1 reads them back.
  const Machine m(MachineParams{ModelKind::Hmm, 2, 3, 5, 1});
  Engine engine(m.view(), {Execution::Asynchronous, false});
  const ArrayId s = engine.add_array({"s", Space::Shared, 2});
  const ArrayId out = engine.add_array({"out", Space::Global, 4});
  Kernel k;
  k.name = "k";
  k.threads_per_block = 4;
  k.registers = 2;
  // Warp 0 first waits on a global read (latency 5), so without the barrier warp 1 would read s
  // before warp 0 wrote it.
  k.steps = {
      Compute{[](const Thread& t) { t.set(0, static_cast<Word>(7 + t.id())); }},
      Access{"delay", Op::Read, out, 1, [](const Thread& t) { return t.local() < 2 ? t.local() : kNoAddress; }},
      Access{"write s", Op::Write, s, 0, [](const Thread& t) { return t.local() < 2 ? t.local() : kNoAddress; }},
      BlockBarrier{},
      Access{"read s", Op::Read, s, 0, [](const Thread& t) { return t.local() >= 2 ? t.local() - 2 : kNoAddress; }},
      Access{"write out", Op::Write, out, 0, [](const Thread& t) { return t.id(); }}};
  engine.launch(k);
  CHECK(engine.global(out)[2] == 7);
  CHECK(engine.global(out)[3] == 8);
}

TEST_CASE("an address outside its array is an algorithm bug") {
  const Machine m(umm(2, 1));
  Engine engine(m.view());
  const ArrayId a = engine.add_array({"a", Space::Global, 2});
  Kernel k;
  k.name = "k";
  k.threads_per_block = 2;
  k.steps = {Access{"bad", Op::Read, a, 0, [](const Thread& t) { return t.id() + 1; }}};
  CHECK_THROWS_AS(engine.launch(k), std::logic_error);
  // A machine without shared memory has no shared arrays.
  CHECK_THROWS_AS(engine.add_array({"s", Space::Shared, 2}), std::invalid_argument);
}

TEST_CASE("machine parameters name the bad field") {
  MachineParams p;
  p.w = 0;
  CHECK(p.validate().value().rfind("w:", 0) == 0);
  p = {};
  p.l = 0;
  CHECK(p.validate().value().rfind("l:", 0) == 0);
  p = {};
  p.L = 0;
  CHECK(p.validate().value().rfind("L:", 0) == 0);
  p = {};
  p.k = 0;
  CHECK(p.validate().value().rfind("k:", 0) == 0);
  CHECK_FALSE(MachineParams{}.validate().has_value());
}

TEST_CASE("asynchronous block residency: blocks beyond the resident ones wait for a free DMM") {
  // k = 1, two blocks of one warp, each one global read (latency 4, one slot).
  for (std::uint32_t resident : {0u, 1u}) {
    const Machine m(MachineParams{ModelKind::Hmm, 2, 1, 4, 1});
    Engine engine(m.view(), {Execution::Asynchronous, true});
    const ArrayId g = engine.add_array({"g", Space::Global, 4});
    Kernel k;
    k.name = "k";
    k.blocks = 2;
    k.threads_per_block = 2;
    k.resident_blocks_per_dmm = resident;
    k.steps = {Access{"read", Op::Read, g, 0, [](const Thread& t) { return t.id(); }}};
    engine.launch(k);
    // All resident: slots enter at 0 and 1, done at the end of 4. One at a time: 0..3, then 4..7.
    CHECK(engine.stats().time_units == (resident == 0 ? 5 : 8));
    CHECK(engine.trace().back().enter == (resident == 0 ? 1 : 4));
  }
}
