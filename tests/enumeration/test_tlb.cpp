// The TLB model: hand-worked hits, misses, LRU eviction, associativity, and its cost in the engine.
#include <doctest/doctest.h>

#include <vector>

#include "models/tlb/tlb.h"
#include "sim/engine.h"

using namespace mmsim;

namespace {
TlbParams params(std::uint64_t page, int entries, int ways, int penalty) {
  TlbParams p;
  p.page_cells = page;
  p.entries = entries;
  p.ways = ways;
  p.miss_penalty = penalty;
  return p;
}
}  // namespace

TEST_CASE("a miss installs the page, a repeat hits") {
  Tlb t(params(8, 4, 2, 1));
  CHECK_FALSE(t.access(0));
  CHECK(t.access(0));
  CHECK(t.stats().lookups == 2);
  CHECK(t.stats().hits == 1);
  CHECK(t.stats().misses == 1);
}

TEST_CASE("eviction is least-recently used, not first-in") {
  Tlb t(params(8, 4, 2, 1));  // two sets of two ways; even pages map to set 0
  CHECK_FALSE(t.access(0));
  CHECK_FALSE(t.access(2));
  CHECK(t.access(0));        // 0 is now the most recent
  CHECK_FALSE(t.access(4));  // set 0 full: evicts 2, the least recent
  CHECK(t.access(0));
  CHECK(t.access(4));
  CHECK_FALSE(t.access(2));  // 2 was the one evicted; now evicts 0
  CHECK_FALSE(t.access(0));
  CHECK(t.stats().misses == 5);
  CHECK(t.stats().hits == 3);
}

TEST_CASE("associativity: pages of another set do not evict") {
  Tlb t(params(8, 4, 2, 1));
  t.access(0);
  t.access(2);
  for (std::uint64_t odd : {1, 3, 5, 7, 9}) CHECK_FALSE(t.access(odd));  // set 1 thrashes
  CHECK(t.access(0));
  CHECK(t.access(2));
  // Direct mapped (one way): two pages of one set evict each other even with free entries elsewhere.
  Tlb d(params(8, 4, 1, 1));
  CHECK_FALSE(d.access(0));
  CHECK_FALSE(d.access(4));
  CHECK_FALSE(d.access(0));
  // Fully associative, three entries, four pages in a loop: LRU misses every time.
  Tlb f(params(8, 3, 3, 1));
  for (int i = 0; i < 12; ++i) CHECK_FALSE(f.access(static_cast<std::uint64_t>(i % 4)));
  f.reset();
  CHECK(f.stats().lookups == 0);
  CHECK_FALSE(f.access(0));
}

TEST_CASE("TlbMemory adds the penalty per missed page to the inner model's slots") {
  const UmmMemory umm(4, 5);
  const TlbMemory m(umm, params(8, 2, 1, 3));  // pages of 8 cells, two sets, direct mapped
  const std::vector<Address> a{0, 1, 2, 3};
  CHECK(m.cost(a).slots == 1 + 3);    // page 0 misses
  CHECK(m.partition(a).size() == 4);  // the walk's slots carry no request
  CHECK(m.partition(a)[1].empty());
  CHECK(m.cost(a).slots == 1);  // now it hits
  CHECK(m.partition(a).size() == 1);
  const std::vector<Address> b{6, 7, 8, 9};
  CHECK(m.cost(b).slots == 2 + 3);  // two address groups; page 0 hits, page 1 misses
  const std::vector<Address> c{16, kNoAddress, kNoAddress, kNoAddress};
  CHECK(m.cost(c).slots == 1 + 3);  // page 2 shares set 0 with page 0 and evicts it
  CHECK(m.cost(a).slots == 1 + 3);
  const std::vector<Address> none(4, kNoAddress);
  CHECK(m.cost(none).slots == 0);
  CHECK(m.stats().lookups == 6);
  CHECK(m.stats().misses == 4);
  CHECK(m.cost(a).congestion == umm.cost(a).congestion);
}

TEST_CASE("on the engine a miss delays the pipeline by its penalty; off, the HMM is unchanged") {
  const MachineParams mp{.w = 4, .l = 1, .L = 5, .k = 1};
  const auto run = [&](const TlbParams& tp) {
    TlbMachine machine(mp, tp);
    Engine e(machine.view());
    const ArrayId a = e.add_array({"a", Space::Global, 64});
    Kernel k;
    k.name = "read";
    k.threads_per_block = 8;  // two warps: the first misses on page 0, the second hits it
    k.steps.push_back(Access{"r", Op::Read, a, 0, [](const Thread& t) { return Address{t.id() % 4}; }});
    e.launch(k);
    return std::pair{e.stats().time_units, machine.tlb_stats()};
  };
  const auto [off, off_stats] = run(TlbParams{});
  CHECK(off == 2 + 5 - 1);  // two slots, latency 5
  CHECK(off_stats.lookups == 0);
  const auto [on, on_stats] = run(params(8, 2, 1, 3));
  CHECK(on == 2 + 3 + 5 - 1);  // plus three walk slots
  CHECK(on_stats.misses == 1);
  CHECK(on_stats.hits == 1);
  // The plain machine gives the same time as the TLB machine with the TLB off.
  Machine plain(mp);
  Engine e(plain.view());
  const ArrayId a = e.add_array({"a", Space::Global, 64});
  Kernel k;
  k.name = "read";
  k.threads_per_block = 8;
  k.steps.push_back(Access{"r", Op::Read, a, 0, [](const Thread& t) { return Address{t.id() % 4}; }});
  e.launch(k);
  CHECK(e.stats().time_units == off);
}

TEST_CASE("bad TLB parameters name their field") {
  CHECK(params(8, 6, 4, 1).validate().value().rfind("tlb-ways", 0) == 0);
  CHECK(params(0, 4, 4, 1).validate().value().rfind("page-cells", 0) == 0);
  CHECK(params(8, -1, 1, 1).validate().value().rfind("tlb-entries", 0) == 0);
  CHECK(params(8, 4, 4, -2).validate().value().rfind("tlb-penalty", 0) == 0);
  CHECK_FALSE(TlbParams{}.validate().has_value());
  CHECK_FALSE(TlbParams{}.enabled());
  MachineParams dmm;
  dmm.model = ModelKind::Dmm;
  CHECK_THROWS_AS(TlbMachine(dmm, TlbParams{}), std::invalid_argument);
}
