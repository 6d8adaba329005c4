// Launches run in bands (sim/engine.h): a launch whose threads share nothing runs a band of blocks
// at a time through all its steps, and leaves the same time units, statistics and memory as one
// run round by round; a launch that shares data between its threads is run round by round whatever
// the band; input arrays are read in place and never written.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>

#include "algorithms/permutations/conventional.h"
#include "algorithms/permutations/permutation_algorithm.h"
#include "models/machines.h"
#include "sim/engine.h"
#include "sim/random.h"

using namespace mmsim;

namespace {

struct Outcome {
  RunStats stats;
  std::vector<std::vector<Word>> memory;  // every array the engine owns, in order
};

void check_same(const Outcome& a, const Outcome& b) {
  CHECK(a.stats.time_units == b.stats.time_units);
  REQUIRE(a.stats.rounds.size() == b.stats.rounds.size());
  for (std::size_t i = 0; i < a.stats.rounds.size(); ++i) {
    CAPTURE(i);
    CHECK(a.stats.rounds[i] == b.stats.rounds[i]);
  }
  CHECK(a.memory == b.memory);
}

// A random launch whose threads share nothing: reads of the input array `in` (read in place) and of
// `a`, at coalesced, random or register-made addresses; writes, each to an array of its own, many
// threads on few cells now and then (so that bands and chunks collide); computations that also
// read registers no step has set (a new band's registers must start at 0).
struct SharingNothing {
  MachineParams machine;
  std::uint64_t cells = 0;
  int outputs = 0;
  Kernel kernel;
};

SharingNothing sharing_nothing(std::uint64_t seed) {
  Rng rng(seed);
  SharingNothing p;
  p.machine = {rng.below(2) == 0 ? ModelKind::Umm : ModelKind::Hmm, static_cast<int>(1 + rng.below(8)),
               static_cast<int>(1 + rng.below(5)), static_cast<int>(1 + rng.below(20)),
               static_cast<int>(1 + rng.below(4))};
  const auto w = static_cast<std::uint64_t>(p.machine.w);
  p.cells = 1 + rng.below(300);
  Kernel& k = p.kernel;
  k.name = "k";
  k.blocks = 1 + rng.below(12);
  k.threads_per_block = static_cast<std::uint32_t>(w * (1 + rng.below(4)));
  k.registers = 3;
  const std::uint64_t threads = k.threads();
  const int steps = static_cast<int>(2 + rng.below(8));
  for (int s = 0; s < steps; ++s) {
    const std::uint64_t kind = rng.below(4);
    const int reg = static_cast<int>(rng.below(3));
    if (kind == 0) {
      const Word salt = static_cast<Word>(rng.next());
      k.steps.push_back(Compute{[salt, reg](const Thread& t) {
        t.set(reg, static_cast<Word>(t.reg(0) * 31u + t.reg(1) + t.reg(2) + salt + static_cast<Word>(t.id() % 5)));
      }});
      continue;
    }
    const std::uint64_t range = rng.below(3) == 0 ? std::min<std::uint64_t>(p.cells, 1 + rng.below(4)) : p.cells;
    auto table = std::make_shared<std::vector<Address>>(threads);
    for (auto& a : *table) a = rng.below(6) == 0 ? kNoAddress : rng.below(range);
    const bool write = kind == 3;
    // Arrays: 0 the input, 1 `a` (read only), 2.. one per write step.
    const ArrayId array = write ? 2 + p.outputs++ : static_cast<ArrayId>(rng.below(2));
    Access access{"s" + std::to_string(s), write ? Op::Write : Op::Read, array, reg, nullptr};
    const std::uint64_t shape = rng.below(3);
    if (shape == 0 && !write && threads <= p.cells)
      access.address = ThreadIndexAddress{};
    else if (shape == 1)
      access.address = [range](const Thread& t) -> Address { return (t.reg(2) + t.id()) % range; };
    else
      access.address = [table](const Thread& t) { return (*table)[t.id()]; };
    k.steps.push_back(std::move(access));
  }
  return p;
}

Outcome run_sharing_nothing(const SharingNothing& p, unsigned threads, std::uint64_t chunk_warps,
                            std::uint64_t band_threads) {
  const Machine machine(p.machine);
  EngineOptions o;
  o.threads = threads;
  o.chunk_warps = chunk_warps;
  o.band_threads = band_threads;
  Engine engine(machine.view(), o);
  std::vector<Word> input(p.cells);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<Word>(7 * i + 3);
  engine.add_input_array({"in", Space::Global, p.cells}, input);
  const ArrayId a = engine.add_array({"a", Space::Global, p.cells});
  for (std::size_t i = 0; i < p.cells; ++i) engine.global(a)[i] = static_cast<Word>(1000 + i);
  for (int o2 = 0; o2 < p.outputs; ++o2) engine.add_array({"out" + std::to_string(o2), Space::Global, p.cells});
  engine.launch(p.kernel);
  Outcome out;
  out.stats = engine.stats();
  for (ArrayId id = 1; id < 2 + p.outputs; ++id)
    out.memory.emplace_back(engine.global(id).begin(), engine.global(id).end());
  return out;
}

}  // namespace

TEST_CASE("a launch whose threads share nothing gives the same results in bands of any size") {
  for (std::uint64_t seed = 1; seed <= 80; ++seed) {
    CAPTURE(seed);
    const SharingNothing p = sharing_nothing(seed);
    const Outcome whole = run_sharing_nothing(p, 1, 0, p.kernel.threads());
    for (const unsigned threads : {1u, 3u, 8u})
      for (const std::uint64_t band :
           {std::uint64_t{1}, std::uint64_t{p.kernel.threads_per_block} * 2, std::uint64_t{37}}) {
        CAPTURE(threads);
        CAPTURE(band);
        check_same(whole, run_sharing_nothing(p, threads, 1, band));
      }
  }
}

TEST_CASE("in bands the lowest writer of a cell still wins over the whole round, and registers start at 0") {
  // 16 blocks of 8 threads (w = 4), a band of one block: thread t writes a register no step set,
  // plus one, to counts[t] (1 in every band), and 1000 - t to out[t mod 3] (t even) or out[4].
  const Machine machine(MachineParams{ModelKind::Umm, 4, 2, 1, 1});
  for (const unsigned threads : {1u, 3u}) {
    EngineOptions o;
    o.threads = threads;
    o.chunk_warps = 1;
    o.band_threads = 8;
    Engine engine(machine.view(), o);
    const ArrayId counts = engine.add_array({"counts", Space::Global, 128});
    const ArrayId out = engine.add_array({"out", Space::Global, 5});
    Kernel k;
    k.name = "k";
    k.blocks = 16;
    k.threads_per_block = 8;
    k.registers = 2;
    k.steps = {Compute{[](const Thread& t) {
                 t.set(0, t.reg(0) + 1);
                 t.set(1, static_cast<Word>(1000 - t.id()));
               }},
               Access{"count", Op::Write, counts, 0, ThreadIndexAddress{}},
               Access{"lowest", Op::Write, out, 1,
                      [](const Thread& t) -> Address { return t.id() % 2 == 0 ? t.id() % 3 : 3 + t.id() % 2; }}};
    engine.launch(k);
    for (std::uint64_t t = 0; t < 128; ++t) CHECK(engine.global(counts)[t] == 1);
    // Lowest writers: cell 0 thread 0, cell 1 thread 4, cell 2 thread 2, cell 4 thread 1.
    CHECK(engine.global(out)[0] == 1000);
    CHECK(engine.global(out)[1] == 996);
    CHECK(engine.global(out)[2] == 998);
    CHECK(engine.global(out)[3] == 0);
    CHECK(engine.global(out)[4] == 999);
  }
}

TEST_CASE("a launch whose threads share an array runs round by round whatever the band") {
  // Every thread reads a[t] and then writes it to a[t + 1 mod n]: round by round, every read sees
  // the array before any write. In bands, a later band's read would see an earlier band's write.
  const Machine machine(MachineParams{ModelKind::Umm, 4, 2, 1, 1});
  EngineOptions o;
  o.threads = 1;
  o.band_threads = 8;
  Engine engine(machine.view(), o);
  const std::uint64_t n = 64;
  const ArrayId a = engine.add_array({"a", Space::Global, n});
  for (std::uint64_t i = 0; i < n; ++i) engine.global(a)[i] = static_cast<Word>(i);
  Kernel k;
  k.name = "shift";
  k.blocks = 8;
  k.threads_per_block = 8;
  k.steps = {Access{"read", Op::Read, a, 0, ThreadIndexAddress{}},
             Access{"write", Op::Write, a, 0, [n](const Thread& t) -> Address { return (t.id() + 1) % n; }}};
  engine.launch(k);
  for (std::uint64_t i = 0; i < n; ++i) CHECK(engine.global(a)[i] == static_cast<Word>((i + n - 1) % n));
}

TEST_CASE("an input array is read in place; a kernel that changes it, and global() of it, are refused") {
  const Machine machine(MachineParams{ModelKind::Umm, 4, 2, 1, 1});
  Engine engine(machine.view());
  std::vector<Word> input{5, 6, 7, 8, 9, 10, 11, 12};
  const ArrayId in = engine.add_input_array({"in", Space::Global, 8}, input);
  const ArrayId b = engine.add_array({"b", Space::Global, 8});
  Kernel k;
  k.name = "copy";
  k.blocks = 1;
  k.threads_per_block = 8;
  k.steps = {Access{"read", Op::Read, in, 0, [](const Thread& t) -> Address { return 7 - t.id(); }},
             Access{"write", Op::Write, b, 0, ThreadIndexAddress{}}};
  engine.launch(k);
  for (std::uint64_t i = 0; i < 8; ++i) CHECK(engine.global(b)[i] == input[7 - i]);
  CHECK_THROWS_AS((void)engine.global(in), std::logic_error);
  Kernel bad = k;
  bad.steps = {Access{"write", Op::Write, in, 0, ThreadIndexAddress{}}};
  CHECK_THROWS_WITH_AS(engine.launch(bad), doctest::Contains("input array in"), std::logic_error);
  CHECK_THROWS_AS((void)engine.add_input_array({"short", Space::Global, 9}, input), std::invalid_argument);
}

TEST_CASE("the conventional permutations in bands: the report of the run round by round") {
  const Machine machine(MachineParams{ModelKind::Hmm, 8, 2, 5, 3});
  const Permutation p = named_permutation("random", 8192, 3);
  PermutationInput in;
  in.perm = &p;
  for (const PermutationAlgorithm& algo : {d_designated(), s_designated()}) {
    CAPTURE(algo.name);
    EngineOptions whole;
    whole.threads = 1;
    const RunReport one = algo.run(machine, in, whole);
    for (const unsigned threads : {1u, 4u}) {
      EngineOptions banded;
      banded.threads = threads;
      banded.chunk_warps = 3;
      banded.band_threads = 1000;  // 125 blocks of w = 8 threads, a band; the last one shorter
      const RunReport r = algo.run(machine, in, banded);
      CHECK(r.correct);
      CHECK(r.stats.time_units == one.stats.time_units);
      CHECK(r.stats.rounds == one.stats.rounds);
    }
  }
}
