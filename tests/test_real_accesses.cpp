// The real-access extensions (docs/model.md, "Real accesses"): element widths, vectors and their
// phases, atomics and addresses from data, against hand-worked cases, the papers' rule where the two
// must agree, and the GPU's own counts of the catalogue (results/gpu-*/ncu-accesses.csv).
#include <doctest/doctest.h>

#include <numeric>

#include "experiments/accesses.h"
#include "models/congestion.h"
#include "models/machines.h"
#include "models/real_accesses.h"
#include "sim/engine.h"
#include "sim/random.h"
#include "teaching/layout_view.h"

using namespace mmsim;

namespace {

constexpr Extensions kOn{.widths = true, .atomics = true};

// One warp of 32 threads: thread t presents index(t) (kNoAddress: idle) once.
struct OneWarp {
  Space space = Space::Shared;
  std::uint32_t element_bytes = 4, vector = 1;
  Op op = Op::Read;
  AtomicOp atomic = AtomicOp::None;
  Extensions extensions = kOn;
};

RoundStats run_warp(const OneWarp& o, const std::function<Address(std::uint64_t)>& index, int w = 32) {
  const bool shared = o.space == Space::Shared;
  const Machine m(
      {.model = shared ? ModelKind::Dmm : ModelKind::Umm, .w = w, .l = 1, .L = 1, .k = 1, .extensions = o.extensions});
  Engine engine(m.view());
  const ArrayId a =
      engine.add_array({.name = "a", .space = o.space, .size = 1 << 16, .element_bytes = o.element_bytes});
  Kernel k{.name = "k", .blocks = 1, .threads_per_block = static_cast<std::uint32_t>(w), .registers = 4, .steps = {}};
  k.steps.emplace_back(Access{.name = "s",
                              .op = o.op,
                              .array = a,
                              .reg = 0,
                              .address = [&index](const Thread& t) { return index(t.id()); },
                              .vector = o.vector,
                              .atomic = o.atomic,
                              .result = -1});
  engine.launch(k);
  return engine.stats().rounds.at(0);
}

}  // namespace

TEST_CASE("a double column of a padded 32 x 33 tile takes 2 slots, of an unpadded one 32") {
  const OneWarp f64{.element_bytes = 8};
  const auto padded = run_warp(f64, [](auto t) { return 33 * t; });
  CHECK(padded.slots == 2);  // two half-warp phases, each covering the 32 banks once
  CHECK(padded.bank_conflicts == 0);
  const auto unpadded = run_warp(f64, [](auto t) { return 32 * t; });
  CHECK(unpadded.slots == 32);           // 16 + 16: every thread's words in banks 0 and 1
  CHECK(unpadded.bank_conflicts == 30);  // the wavefronts beyond one per phase
}

TEST_CASE("a float4 load is served in four quarter-warp phases: a contiguous one takes 4 slots") {
  const OneWarp f4{.element_bytes = 4, .vector = 4};
  CHECK(run_warp(f4, [](auto t) { return 4 * t; }).slots == 4);
  CHECK(run_warp(f4, [](auto t) { return 8 * t; }).slots == 8);    // each quarter two words a bank
  CHECK(run_warp(f4, [](auto t) { return 32 * t; }).slots == 32);  // every thread in banks 0..3
  // Lanes 0..7 alone: one phase holds a request.
  const auto first = run_warp(f4, [](auto t) { return t < 8 ? 4 * t : kNoAddress; });
  CHECK(first.slots == 1);
  CHECK(first.bank_conflicts == 0);
}

TEST_CASE("pairs of threads that ask for one address fuse, and a phase holds twice the threads") {
  const OneWarp f64{.element_bytes = 8};
  CHECK(run_warp(f64, [](auto t) { return t / 2; }).slots == 1);   // 16 pairs: one phase, 32 words
  CHECK(run_warp(f64, [](auto t) { return t % 16; }).slots == 2);  // no pair asks for one address
  CHECK(run_warp(f64, [](auto) { return 0; }).slots == 1);         // a broadcast: every pair fuses
  // One pair asking for two addresses breaks the fusion for the whole warp.
  CHECK(run_warp(f64, [](auto t) { return t < 28 ? t / 2 : t < 30 ? t - 14 : kNoAddress; }).slots == 2);
  const OneWarp f4{.element_bytes = 4, .vector = 4};
  CHECK(run_warp(f4, [](auto) { return 0; }).slots == 2);  // pairs fuse, but 16 pairs are two phases
}

TEST_CASE("packed bytes of one word merge: char s[t] is one slot, char s[128 t] 32") {
  const OneWarp u8{.element_bytes = 1};
  CHECK(run_warp(u8, [](auto t) { return t; }).slots == 1);
  CHECK(run_warp(u8, [](auto t) { return 128 * t; }).slots == 32);
  const OneWarp u16{.element_bytes = 2};
  CHECK(run_warp(u16, [](auto t) { return 2 * t; }).slots == 1);
}

TEST_CASE("shared atomics on one word serialise, an unused increment merges, and with atomics off both merge") {
  const OneWarp add{.op = Op::Atomic, .atomic = AtomicOp::Add};
  const auto same = run_warp(add, [](auto) { return 0; });
  CHECK(same.slots == 32);
  CHECK(same.bank_conflicts == 31);
  CHECK(run_warp(add, [](auto t) { return t % 2; }).slots == 16);
  CHECK(run_warp(add, [](auto t) { return t; }).slots == 1);
  const OneWarp inc{.op = Op::Atomic, .atomic = AtomicOp::Increment};
  CHECK(run_warp(inc, [](auto) { return 0; }).slots == 1);
  CHECK(run_warp(inc, [](auto t) { return (t % 2) * 32; }).slots == 2);  // two words of bank 0
  OneWarp papers = add;
  papers.extensions = {};
  CHECK(run_warp(papers, [](auto) { return 0; }).slots == 1);  // the papers' CRCW rule
}

TEST_CASE("global memory: a warp costs its address groups; an atomic as many per group as threads on an address") {
  const OneWarp f4{.space = Space::Global, .element_bytes = 4, .vector = 4};
  CHECK(run_warp(f4, [](auto t) { return 4 * t; }).slots == 4);  // 512 bytes: four 128-byte groups
  const OneWarp u8{.space = Space::Global, .element_bytes = 1};
  CHECK(run_warp(u8, [](auto t) { return t; }).slots == 1);
  const OneWarp add{.space = Space::Global, .op = Op::Atomic, .atomic = AtomicOp::Add};
  CHECK(run_warp(add, [](auto) { return 0; }).slots == 32);
  CHECK(run_warp(add, [](auto t) { return t % 4; }).slots == 8);
  const OneWarp inc{.space = Space::Global, .op = Op::Atomic, .atomic = AtomicOp::Increment};
  CHECK(run_warp(inc, [](auto) { return 0; }).slots == 32);  // global memory serves increments one by one
  const std::vector<Address> one_sector{0, 1, 2, 3, 4, 5, 6, 7};
  CHECK(segment_transactions(one_sector, 32, {.element_bytes = 4}) == 1);
  CHECK(segment_transactions(one_sector, 32, {.element_bytes = 8}) == 2);
}

TEST_CASE("with widths on, 4-byte words read one a thread cost exactly what the papers' rule says") {
  Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int w = 1 << (1 + rng.below(6));
    std::vector<Address> warp(static_cast<std::size_t>(w));
    for (auto& a : warp) a = rng.below(4) == 0 ? kNoAddress : rng.below(static_cast<std::uint64_t>(4 * w));
    const AccessShape word{};
    const WarpCost papers = bank_cost(warp, w), shaped = shaped_bank_cost(warp, w, word);
    CHECK(shaped.slots == papers.slots);
    CHECK(shaped.extra_bank_requests == papers.extra_bank_requests);
    CHECK(shaped_group_cost(warp, w, word).slots == group_cost(warp, w).slots);
    // Bytes at 4a are the words a: the same banks, the same cost.
    std::vector<Address> bytes = warp;
    for (auto& a : bytes)
      if (a != kNoAddress) a *= 4;
    CHECK(shaped_bank_cost(bytes, w, {.element_bytes = 1}).slots == papers.slots);
  }
}

TEST_CASE("the papers' model refuses a vector access, naming the widths extension") {
  const Machine m({.model = ModelKind::Dmm, .w = 4, .l = 1});
  Engine engine(m.view());
  const ArrayId a = engine.add_array({.name = "a", .space = Space::Shared, .size = 64});
  Kernel k{.name = "k", .blocks = 1, .threads_per_block = 4, .registers = 2, .steps = {}};
  k.steps.emplace_back(Access{.name = "s",
                              .op = Op::Read,
                              .array = a,
                              .reg = 0,
                              .address = [](const Thread& t) { return 2 * t.id(); },
                              .vector = 2});
  CHECK_THROWS_WITH_AS(engine.launch(k), doctest::Contains("widths extension"), std::logic_error);
}

TEST_CASE("vector reads and writes move v cells between memory and v registers; an unaligned one is refused") {
  const Machine m({.model = ModelKind::Umm, .w = 4, .l = 1, .extensions = kOn});
  for (const Execution e : {Execution::RoundSynchronous, Execution::Asynchronous}) {
    Engine engine(m.view(), {.execution = e});
    const ArrayId a = engine.add_array({.name = "a", .space = Space::Global, .size = 32});
    const ArrayId b = engine.add_array({.name = "b", .space = Space::Global, .size = 32});
    std::iota(engine.global(a).begin(), engine.global(a).end(), Word{100});
    Kernel k{.name = "copy4", .blocks = 1, .threads_per_block = 8, .registers = 4, .steps = {}};
    const auto at = [](const Thread& t) { return 4 * t.id(); };
    k.steps.emplace_back(Access{.name = "ld", .op = Op::Read, .array = a, .reg = 0, .address = at, .vector = 4});
    k.steps.emplace_back(Access{.name = "st", .op = Op::Write, .array = b, .reg = 0, .address = at, .vector = 4});
    engine.launch(k);
    const auto out = engine.global(b);
    for (Word i = 0; i < 32; ++i) CHECK(out[i] == 100 + i);
  }
  Engine engine(m.view());
  const ArrayId a = engine.add_array({.name = "a", .space = Space::Global, .size = 32});
  Kernel k{.name = "bad", .blocks = 1, .threads_per_block = 4, .registers = 2, .steps = {}};
  k.steps.emplace_back(Access{.name = "ld",
                              .op = Op::Read,
                              .array = a,
                              .reg = 0,
                              .address = [](const Thread& t) { return 2 * t.id() + 1; },
                              .vector = 2});
  CHECK_THROWS_WITH_AS(engine.launch(k), doctest::Contains("not a multiple of its vector"), std::logic_error);
}

TEST_CASE("atomics are exact and deterministic: lowest thread first, old values returned, CAS and min/max") {
  const Machine m({.model = ModelKind::Hmm, .w = 4, .l = 1, .L = 1, .k = 2, .extensions = kOn});
  for (const Execution e : {Execution::RoundSynchronous, Execution::Asynchronous}) {
    Engine engine(m.view(), {.execution = e, .threads = 2, .chunk_warps = 1});
    const ArrayId c = engine.add_array({.name = "c", .space = Space::Global, .size = 4});
    // 16 threads: r0 = t + 1; all add into c[0], r1 gets the old value; c[1] gets the max, c[2] the
    // min, c[3] swaps 0 -> t + 1 for the lowest thread only.
    Kernel k{.name = "atomics", .blocks = 2, .threads_per_block = 8, .registers = 4, .steps = {}};
    k.steps.emplace_back(Compute{[](const Thread& t) { t.set(0, static_cast<Word>(t.id() + 1)); }});
    const auto cell = [](Address a) { return [a](const Thread&) { return a; }; };
    k.steps.emplace_back(Access{.name = "add",
                                .op = Op::Atomic,
                                .array = c,
                                .reg = 0,
                                .address = cell(0),
                                .atomic = AtomicOp::Add,
                                .result = 1});
    k.steps.emplace_back(
        Access{.name = "max", .op = Op::Atomic, .array = c, .reg = 0, .address = cell(1), .atomic = AtomicOp::Max});
    k.steps.emplace_back(Compute{[](const Thread& t) { t.set(2, 0), t.set(3, static_cast<Word>(t.id() + 1)); }});
    k.steps.emplace_back(Access{
        .name = "cas", .op = Op::Atomic, .array = c, .reg = 2, .address = cell(3), .atomic = AtomicOp::CompareAndSwap});
    engine.launch(k);
    const auto cells = engine.global(c);
    CHECK(cells[0] == 16 * 17 / 2);
    CHECK(cells[1] == 16);
    CHECK(cells[3] == 1);  // thread 0 swapped first; the others found 1, not 0
  }
}

TEST_CASE("an address may come from a register an earlier step loaded: a gather through an index array") {
  const Machine m({.model = ModelKind::Umm, .w = 4, .l = 1});
  Engine engine(m.view());
  const ArrayId idx = engine.add_array({.name = "idx", .space = Space::Global, .size = 8});
  const ArrayId a = engine.add_array({.name = "a", .space = Space::Global, .size = 8});
  const ArrayId b = engine.add_array({.name = "b", .space = Space::Global, .size = 8});
  const std::vector<Word> perm{3, 7, 0, 5, 1, 6, 2, 4};
  std::copy(perm.begin(), perm.end(), engine.global(idx).begin());
  std::iota(engine.global(a).begin(), engine.global(a).end(), Word{10});
  Kernel k{.name = "gather", .blocks = 1, .threads_per_block = 8, .registers = 2, .steps = {}};
  const auto own = [](const Thread& t) { return t.id(); };
  k.steps.emplace_back(Access{.name = "index", .op = Op::Read, .array = idx, .reg = 0, .address = own});
  k.steps.emplace_back(Access{.name = "gather", .op = Op::Read, .array = a, .reg = 1, .address = [](const Thread& t) {
                                return static_cast<Address>(t.reg(0));
                              }});
  k.steps.emplace_back(Access{.name = "store", .op = Op::Write, .array = b, .reg = 1, .address = own});
  engine.launch(k);
  for (std::size_t i = 0; i < perm.size(); ++i) CHECK(engine.global(b)[i] == 10 + perm[i]);
}

TEST_CASE("every case of the catalogue equals Nsight Compute's count on the H100 and on the H200") {
  for (const char* gpu : {"gpu-h100", "gpu-h200"}) {
    const auto t = experiments::accesses_table(std::string(MMSIM_SOURCE_DIR) + "/results/" + gpu + "/ncu-accesses.csv");
    REQUIRE(t.rows.size() == experiments::access_cases().size());
    std::size_t shared = 0;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      const auto& row = t.rows[r];
      INFO(gpu << ": " << std::get<std::string>(row[0]));
      // The layout cases came after these CSVs were made: "not run" until the GPU runs them.
      if (r >= experiments::cases_before_layouts() && std::get<std::string>(row.back()) == experiments::kNotRun)
        continue;
      CHECK(std::get<std::string>(row.back()) == "yes");
      shared += std::get<std::string>(row[1]) == "shared";
    }
    CHECK(shared >= 30);
  }
}

TEST_CASE("the histograms' distributions are ordered by cost as the H100 and the H200 order them") {
  for (const char* gpu : {"gpu-h100", "gpu-h200"}) {
    experiments::OrderAgreement a;
    (void)experiments::histograms_table(1 << 16, 1,
                                        std::string(MMSIM_SOURCE_DIR) + "/results/" + gpu + "/histograms-gpu.csv", &a);
    INFO(gpu);
    CHECK(a.pairs >= 10);
    CHECK(a.agreeing == a.pairs);
  }
}

TEST_CASE("histograms count every key, and hot bins cost serialised atomics more, unused increments not") {
  const MachineParams hmm{.model = ModelKind::Hmm, .w = 32, .l = 1, .L = 100, .k = 4, .extensions = kOn};
  std::map<std::string, std::uint64_t> slots;
  for (const auto d : experiments::kKeyDistributions) {
    const auto keys = experiments::histogram_keys(1 << 14, 256, d, 1);
    for (const bool shared : {false, true})
      for (const AtomicOp op : {AtomicOp::Add, AtomicOp::Increment}) {
        const auto h = experiments::simulate_histogram(keys, 256, shared, op, hmm);
        CHECK(h.correct);
        slots[std::string(experiments::to_string(d)) + (shared ? " shared " : " global ") + to_string(op)] =
            h.atomic_slots;
      }
  }
  CHECK(slots["uniform global add"] < slots["hot global add"]);
  CHECK(slots["hot global add"] < slots["one-bin global add"]);
  CHECK(slots["uniform shared add"] < slots["one-bin shared add"]);
  CHECK(slots["one-bin shared increment"] <= slots["uniform shared increment"]);
}

TEST_CASE("the layout cases are the layouts mmsim layout reads, with the congestion it shows") {
  std::size_t layouts = 0;
  for (const auto& c : experiments::access_cases()) {
    if (c.layout.empty()) continue;
    INFO(c.name);
    ++layouts;
    const bool row = c.name.ends_with("-row");
    const teaching::DrawnLayout l(c.layout, 2, 32, 1);
    for (std::uint32_t t = 0; t < experiments::kCaseLanes; ++t) {
      const std::uint32_t cell[2] = {row ? experiments::kLayoutCaseRow : t, row ? t : experiments::kLayoutCaseColumn};
      CHECK(c.index[t] == static_cast<std::int64_t>(l.address(cell)));
    }
    // One 4-byte word a lane: the case's wavefronts are the layout's congestion; an F2 layout's too
    // read off its rank.
    const auto s = experiments::simulate_case(c);
    if (const auto& a = l.tile().f2_matrix()) {
      const auto f = teaching::f2_congestion(*a, 32);
      CHECK(s.slots == (row ? f.row() : f.column()));
    }
  }
  CHECK(layouts >= 20);
  CHECK(experiments::cases_before_layouts() + layouts == experiments::access_cases().size());
}
