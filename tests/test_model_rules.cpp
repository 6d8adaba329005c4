// The rules of docs/model.md that tests/test_engine.cpp does not already pin down, one fact each,
// each written so that breaking the rule (a mutant of tests/mutants/list.txt) fails it.
#include <doctest/doctest.h>

#include <numeric>

#include "algorithms/permutations/permutation.h"
#include "algorithms/sorting/matrix_dmm.h"
#include "models/congestion.h"
#include "models/machines.h"
#include "sim/engine.h"

using namespace mmsim;

namespace {

constexpr Address x = kNoAddress;
constexpr Execution kBoth[] = {Execution::RoundSynchronous, Execution::Asynchronous};

MachineParams dmm(int w, int l) { return {.model = ModelKind::Dmm, .w = w, .l = l}; }
MachineParams umm(int w, int l) { return {.model = ModelKind::Umm, .w = w, .l = l}; }

Space space_of(const MachineParams& p) { return p.model == ModelKind::Umm ? Space::Global : Space::Shared; }

// One block whose thread t presents steps[s][t] in memory instruction s (x: inactive).
Kernel table_kernel(const std::vector<std::vector<Address>>& steps, ArrayId array) {
  Kernel k{.name = "k", .threads_per_block = static_cast<std::uint32_t>(steps.front().size()), .steps = {}};
  for (std::size_t s = 0; s < steps.size(); ++s)
    k.steps.push_back(Access{.name = "s" + std::to_string(s),
                             .op = Op::Read,
                             .array = array,
                             .address = [table = steps[s]](const Thread& t) { return table[t.id()]; }});
  return k;
}

struct TableRun {
  TimeUnits time_units = 0;
  RunStats stats;
  std::vector<SlotEvent> trace;
};

TableRun run_table(const MachineParams& p, const std::vector<std::vector<Address>>& steps, Execution e) {
  const Machine m(p);
  Engine engine(m.view(), {.execution = e, .trace = true});
  const ArrayId a = engine.add_array({.name = "m", .space = space_of(p), .size = 64});
  engine.launch(table_kernel(steps, a));
  return {engine.stats().time_units, engine.stats(), engine.trace()};
}

}  // namespace

TEST_CASE("an inactive thread of a UMM warp requests no address group, not group 0") {
  // w = 4: thread 0 inactive, the others in groups 1, 2, 2: two slots. Counting the inactive thread
  // as group 0 would make three.
  const std::vector<Address> warp{x, 4, 8, 9};
  CHECK(group_cost(warp, 4).slots == 2);
  for (const Execution e : kBoth) {
    const auto r = run_table(umm(4, 5), {warp}, e);
    CHECK(r.time_units == 2 + 5 - 1);
    CHECK(r.stats.rounds[0].slots == 2);
    CHECK(r.stats.rounds[0].requests == 3);
  }
}

TEST_CASE("an inactive thread of a DMM warp requests no bank, not address 0") {
  // w = 4: banks 0, 0, 1 for the active threads: congestion 2. An inactive thread at address 0
  // would add a third request to bank 0.
  const std::vector<Address> warp{x, 4, 8, 13};
  CHECK(congestion(warp, 4) == 2);
  CHECK(bank_cost(warp, 4).extra_bank_requests == 1);
  for (const Execution e : kBoth) CHECK(run_table(dmm(4, 3), {warp}, e).time_units == 2 + 3 - 1);
}

TEST_CASE("a warp is w consecutive threads: W(j) = T(jw) .. T(jw + w - 1)") {
  // w = 4, 8 threads: T(0..3) read group 0, T(4..7) group 2. Warps of consecutive threads take one
  // slot each; warps of threads j, j + 2, ... would take two each.
  const auto r = run_table(umm(4, 3), {{0, 1, 2, 3, 8, 9, 10, 11}}, Execution::RoundSynchronous);
  CHECK(r.time_units == 2 + 3 - 1);
  REQUIRE(r.trace.size() == 2);
  CHECK(r.trace[0].warp == 0);
  CHECK(r.trace[0].requests == std::vector<Address>{0, 1, 2, 3});
  CHECK(r.trace[1].warp == 1);
  CHECK(r.trace[1].requests == std::vector<Address>{8, 9, 10, 11});
}

TEST_CASE("a warp is ready for its next instruction when the last slot of its access completes, not the first") {
  // w = 2, latency 3, one warp: its first access spans groups 0 and 1 (slots enter at 0 and 1 and
  // complete at the end of 2 and 3); its second access enters at 4, not at 3, and completes at the
  // end of 6: 7 time units, as the round-synchronous sum (2 + 3 - 1) + (1 + 3 - 1).
  for (const Execution e : kBoth) {
    const auto r = run_table(umm(2, 3), {{0, 2}, {0, 1}}, e);
    CHECK(r.time_units == 7);
    REQUIRE(r.trace.size() == 3);
    CHECK(r.trace[2].enter == 4);
  }
}

TEST_CASE("local computation costs no time") {
  // The same two reads with and without steps of computation around them, in both executions.
  for (const Execution e : kBoth) {
    const Machine m(dmm(4, 3));
    Engine engine(m.view(), {.execution = e});
    const ArrayId a = engine.add_array({.name = "a", .space = Space::Shared, .size = 8});
    const auto read = [a](const char* name) {
      return Access{.name = name, .op = Op::Read, .array = a, .address = [](const Thread& t) { return t.id(); }};
    };
    const Compute add_one{[](const Thread& t) { t.set(0, t.reg(0) + 1); }};
    const TimeUnits plain =
        engine.launch(Kernel{.name = "plain", .threads_per_block = 4, .steps = {read("r0"), read("r1")}}).time_units;
    const TimeUnits with_compute =
        engine
            .launch(Kernel{.name = "computing",
                           .threads_per_block = 4,
                           .steps = {add_one, read("r0"), add_one, add_one, read("r1"), add_one}})
            .time_units;
    CHECK(plain == 2 * (1 + 3 - 1));
    CHECK(with_compute == plain);
  }
}

TEST_CASE("kernels are separated by a grid barrier: a program's time is the sum of its kernels' times") {
  for (const Execution e : kBoth) {
    const Machine m(umm(4, 5));
    Engine engine(m.view(), {.execution = e});
    const ArrayId a = engine.add_array({.name = "a", .space = Space::Global, .size = 16});
    // Stride 4 over 4 threads: four groups, four slots.
    const Kernel k{.name = "k",
                   .threads_per_block = 4,
                   .steps = {Access{.name = "r", .op = Op::Read, .array = a, .address = [](const Thread& t) {
                                      return 4 * t.id();
                                    }}}};
    const TimeUnits first = engine.launch(k).time_units;
    const TimeUnits second = engine.launch(k).time_units;
    CHECK(first == 4 + 5 - 1);
    CHECK(second == first);
    CHECK(engine.stats().time_units == first + second);
  }
}

TEST_CASE("bank_conflicts counts the slots beyond a warp's first; extra_bank_requests every request behind another") {
  // w = 4, {0, 4, 1, 5}: banks 0, 0, 1, 1. Congestion 2, so 2 slots and one bank conflict (the
  // wavefront beyond the first); two requests wait behind another of their bank (one per bank).
  const auto r = run_table(dmm(4, 1), {{0, 4, 1, 5}}, Execution::RoundSynchronous);
  const RoundStats& round = r.stats.rounds[0];
  CHECK(round.slots == 2);
  CHECK(round.bank_conflicts == 1);
  CHECK(round.extra_bank_requests == 2);
  CHECK(bank_cost(std::vector<Address>{0, 4, 1, 5}, 4).extra_bank_requests == 2);
  // A global round has neither.
  const auto g = run_table(umm(4, 1), {{0, 4, 1, 5}}, Execution::RoundSynchronous);
  CHECK(g.stats.rounds[0].bank_conflicts == 0);
  CHECK(g.stats.rounds[0].extra_bank_requests == 0);
}

TEST_CASE("a round's max_congestion is its most congested warp's, wherever that warp is") {
  // Warp 0 a stride (congestion 4), warp 1 contiguous (1).
  for (const Execution e : kBoth) {
    const auto r = run_table(dmm(4, 1), {{0, 4, 8, 12, 0, 1, 2, 3}}, e);
    CHECK(r.stats.rounds[0].max_congestion == 4);
    CHECK(r.stats.rounds[0].slots == 5);
  }
}

TEST_CASE("HMM: when k does not divide the blocks, block b still runs on DMM b mod k") {
  // w = 4, l = 1, k = 2, 3 blocks of one warp writing a shared array: block 1 a stride (4 slots),
  // blocks 0 and 2 a row (1 slot each). DMM 0 takes blocks 0 and 2 (2 slots), DMM 1 block 1 (4):
  // 4 time units. Blocks 0 and 1 on one DMM would make 5.
  for (const Execution e : kBoth) {
    const Machine m(MachineParams{.model = ModelKind::Hmm, .w = 4, .l = 1, .L = 10, .k = 2});
    Engine engine(m.view(), {.execution = e});
    const ArrayId s = engine.add_array({.name = "s", .space = Space::Shared, .size = 16});
    engine.launch(
        Kernel{.name = "k",
               .blocks = 3,
               .threads_per_block = 4,
               .steps = {Access{.name = "write s", .op = Op::Write, .array = s, .address = [](const Thread& t) {
                                  return t.block() == 1 ? 4 * t.local() : t.local();
                                }}}});
    CHECK(engine.stats().time_units == 4);
  }
}

TEST_CASE("values really move: a read loads each cell into its thread's register, a write stores it") {
  for (const Execution e : kBoth) {
    const Machine m(umm(4, 2));
    Engine engine(m.view(), {.execution = e});
    const ArrayId a = engine.add_array({.name = "a", .space = Space::Global, .size = 8});
    const ArrayId b = engine.add_array({.name = "b", .space = Space::Global, .size = 8});
    std::iota(engine.global(a).begin(), engine.global(a).end(), Word{40});
    // b[t] = a[7 - t]: a reversal through the register.
    engine.launch(Kernel{
        .name = "reverse",
        .threads_per_block = 8,
        .steps = {
            Access{.name = "read a", .op = Op::Read, .array = a, .address = [](const Thread& t) { return 7 - t.id(); }},
            Access{
                .name = "write b", .op = Op::Write, .array = b, .address = [](const Thread& t) { return t.id(); }}}});
    for (Word t = 0; t < 8; ++t) CHECK(engine.global(b)[t] == 47 - t);
  }
}

TEST_CASE("D_w(P) counts the distinct address groups each warp's destinations fall in (KNI Sect. 4)") {
  // n = 16, w = 4. The identity: each warp writes one group, D = 4. The 4 x 4 transpose: each warp
  // writes one cell of every group, D = 16 (its destinations all lie in one bank).
  std::vector<Word> identity(16), transpose(16);
  std::iota(identity.begin(), identity.end(), Word{0});
  for (Word i = 0; i < 16; ++i) transpose[i] = (i % 4) * 4 + i / 4;
  CHECK(distribution(identity, 4) == 4);
  CHECK(distribution(transpose, 4) == 16);
}

TEST_CASE("AS view: every step of congestion above 1 breaks the CAC, congestion 2 included") {
  // w = 4, one warp on the w x m matrix (latency 1). Step 1: processors 0 and 1 write row 0 (bank 0)
  // of two columns, congestion 2. Step 2: every processor writes its own row, congestion 1.
  sorting::MatrixDmm dmm(4, 4);
  const sorting::Region region{};
  dmm.write({dmm.at(region, 0, 0), dmm.at(region, 0, 1), x, x}, {1, 2, 0, 0});
  dmm.write({dmm.at(region, 0, 2), dmm.at(region, 1, 2), dmm.at(region, 2, 2), dmm.at(region, 3, 2)}, {3, 4, 5, 6});
  const auto s = sorting::summarize(dmm.stats());
  CHECK(s.steps == 2);
  CHECK(s.max_congestion == 2);
  CHECK(s.cac_violations == 1);
  CHECK(s.time_units == 2 + 1);
}

TEST_CASE("a block is a whole number of warps: any other size is refused") {
  const Machine m(umm(4, 1));
  Engine engine(m.view());
  const ArrayId a = engine.add_array({.name = "a", .space = Space::Global, .size = 8});
  const auto kernel = [a](std::uint32_t threads) {
    return Kernel{
        .name = "k",
        .threads_per_block = threads,
        .steps = {Access{.name = "r", .op = Op::Read, .array = a, .address = [](const Thread& t) { return t.id(); }}}};
  };
  CHECK_THROWS_AS(engine.launch(kernel(6)), std::logic_error);
  CHECK_THROWS_AS(engine.launch(kernel(0)), std::logic_error);
  CHECK(engine.launch(kernel(8)).time_units == 2 + 1 - 1);
}

TEST_CASE("asynchronous HMM: every pipeline keeps its own round-robin order") {
  // w = 2, k = 2, l = 1: blocks 0 (warps 0, 1) and 1 (warps 2, 3) on DMMs 0 and 1, every warp two
  // one-slot shared reads. Each DMM alternates its own warps: 0, 1, 0, 1 and 2, 3, 2, 3. One order
  // shared by the pipelines would give DMM 0 warp 0 twice first (its "next after" would be warp 2's).
  const Machine m(MachineParams{.model = ModelKind::Hmm, .w = 2, .l = 1, .L = 5, .k = 2});
  Engine engine(m.view(), {.execution = Execution::Asynchronous, .trace = true});
  const ArrayId s = engine.add_array({.name = "s", .space = Space::Shared, .size = 4});
  const auto read = [s](const char* name) {
    return Access{.name = name, .op = Op::Read, .array = s, .address = [](const Thread& t) { return t.local(); }};
  };
  engine.launch(Kernel{.name = "k", .blocks = 2, .threads_per_block = 4, .steps = {read("r0"), read("r1")}});
  std::vector<std::uint64_t> dmm0, dmm1;
  for (const auto& e : engine.trace()) (e.memory == 1 ? dmm0 : dmm1).push_back(e.warp);
  CHECK(dmm0 == std::vector<std::uint64_t>{0, 1, 0, 1});
  CHECK(dmm1 == std::vector<std::uint64_t>{2, 3, 2, 3});
  CHECK(engine.stats().time_units == 4);
}
