// `mmsim access --model umm --sectors`: a warp access in the GPU's 32-byte sectors and 128-byte
// lines, counted by the predictor's coalescer (models/gpu_memory/coalescer.h), against hand-worked
// accesses and against Nsight Compute's sectors for the global-memory cases of the GPU's access
// catalogue (results/gpu-*/ncu-accesses.csv).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>

#include "experiments/accesses.h"
#include "io/input_error.h"
#include "teaching/access.h"

using namespace mmsim;
using namespace mmsim::teaching;

namespace {

constexpr int kW = 32;

// One warp of 32 threads, thread t at index(t) (kNoAddress: inactive), on a UMM, with its sector view.
template <class F>
AccessResult one_warp(F index, std::uint32_t element_bytes = 4, std::uint32_t vector = 1, Op op = Op::Read,
                      AtomicOp atomic = AtomicOp::None) {
  std::vector<Address> warp(kW);
  for (int t = 0; t < kW; ++t) warp[static_cast<std::size_t>(t)] = index(static_cast<Address>(t));
  AccessResult r = simulate_access({.model = ModelKind::Umm, .w = kW, .l = 1}, {warp}, {},
                                   {.element_bytes = element_bytes, .vector = vector, .atomic = atomic}, op);
  add_sectors(r);
  return r;
}

// sectors, lines, ideal sectors, ideal lines, bytes asked of warp 0.
std::vector<std::uint64_t> counts(const AccessResult& r) {
  const WarpSectors& v = r.sectors.at(0);
  return {v.sectors.size(), v.lines.size(), v.ideal_sectors, v.ideal_lines, v.bytes_asked};
}

using Counts = std::vector<std::uint64_t>;

}  // namespace

TEST_CASE("32 lanes x 4 bytes, contiguous: 4 sectors in 1 line, the ideal") {
  const auto r = one_warp([](Address t) { return t; });
  CHECK(counts(r) == Counts{4, 1, 4, 1, 128});
  const WarpSectors& v = r.sectors[0];
  // Lanes 0-7 in sector 0, 8-15 in sector 1, ...: each sector wholly asked for.
  CHECK(v.thread_sectors[0] == std::vector<std::uint64_t>{0});
  CHECK(v.thread_sectors[7] == std::vector<std::uint64_t>{0});
  CHECK(v.thread_sectors[8] == std::vector<std::uint64_t>{1});
  CHECK(v.thread_sectors[31] == std::vector<std::uint64_t>{3});
  for (const auto& s : v.sectors) {
    CHECK(s.bytes_used == 32);
    CHECK(s.threads.size() == 8);
  }
  CHECK(v.lines == std::vector<std::uint64_t>{0});
  // The papers' UMM beside it: one address group of w = 32 cells.
  CHECK(r.slots == std::vector<int>{1});
}

TEST_CASE("stride 2 x 4 bytes: 8 sectors in 2 lines, half of each used; ideal 4 in 1") {
  const auto r = one_warp([](Address t) { return 2 * t; });
  CHECK(counts(r) == Counts{8, 2, 4, 1, 128});
  for (const auto& s : r.sectors[0].sectors) CHECK(s.bytes_used == 16);
  CHECK(r.sectors[0].lines == std::vector<std::uint64_t>{0, 1});
}

TEST_CASE("8-byte elements: 256 bytes, 8 sectors in 2 lines, coalesced") {
  CHECK(counts(one_warp([](Address t) { return t; }, 8)) == Counts{8, 2, 8, 2, 256});
  // A double at a[2t]: 16 sectors in 4 lines, ideal 8 in 2.
  CHECK(counts(one_warp([](Address t) { return 2 * t; }, 8)) == Counts{16, 4, 8, 2, 256});
}

TEST_CASE("16-byte vectors: a float4 a lane, 512 bytes in 16 sectors and 4 lines; a 16-byte element the same") {
  const auto r = one_warp([](Address t) { return 4 * t; }, 4, 4);
  CHECK(counts(r) == Counts{16, 4, 16, 4, 512});
  // Lane t's 16 bytes are bytes 16t .. 16t + 15: half a sector.
  CHECK(r.sectors[0].thread_sectors[3] == std::vector<std::uint64_t>{1});
  CHECK(counts(one_warp([](Address t) { return t; }, 16)) == Counts{16, 4, 16, 4, 512});
  // float4 at a4[2t]: every other 16 bytes, 32 sectors in 8 lines.
  CHECK(counts(one_warp([](Address t) { return 8 * t; }, 4, 4)) == Counts{32, 8, 16, 4, 512});
}

TEST_CASE("a misaligned access straddles lines: one more sector and one more line than the ideal") {
  // float a[t + 1]: bytes 4 .. 131, sectors 0-4, lines 0 and 1.
  const auto r = one_warp([](Address t) { return t + 1; });
  CHECK(counts(r) == Counts{5, 2, 4, 1, 128});
  const WarpSectors& v = r.sectors[0];
  CHECK(v.sectors.front().sector == 0);
  CHECK(v.sectors.front().bytes_used == 28);
  CHECK(v.sectors.back().sector == 4);
  CHECK(v.sectors.back().line == 1);
  CHECK(v.sectors.back().bytes_used == 4);
  CHECK(v.sectors.back().threads == std::vector<ThreadId>{31});
  // double a[t + 2]: bytes 16 .. 271, sectors 0-8, lines 0-2; ideal 8 in 2.
  CHECK(counts(one_warp([](Address t) { return t + 2; }, 8)) == Counts{9, 3, 8, 2, 256});
}

TEST_CASE("inactive lanes ask for nothing; a warp of none moves no sector") {
  const auto r = one_warp([](Address t) { return t < 16 ? t : kNoAddress; });
  CHECK(counts(r) == Counts{2, 1, 2, 1, 64});
  CHECK(r.sectors[0].thread_sectors[15] == std::vector<std::uint64_t>{1});
  CHECK(r.sectors[0].thread_sectors[16].empty());
  // Every other lane: the bytes asked halve, the sectors do not.
  CHECK(counts(one_warp([](Address t) { return t % 2 ? kNoAddress : t; })) == Counts{4, 1, 2, 1, 64});
  CHECK(counts(one_warp([](Address) { return kNoAddress; })) == Counts{0, 0, 0, 0, 0});
}

TEST_CASE("a broadcast is one sector; a permutation inside a line is the contiguous access's") {
  CHECK(counts(one_warp([](Address) { return Address{0}; })) == Counts{1, 1, 1, 1, 4});
  CHECK(counts(one_warp([](Address t) { return (7 * t) % 32; })) == Counts{4, 1, 4, 1, 128});
  // One line a lane: 32 sectors in 32 lines.
  CHECK(counts(one_warp([](Address t) { return 32 * t; })) == Counts{32, 32, 4, 1, 128});
}

TEST_CASE("the view: later warps number their threads on; text and JSON only when asked; DMM refused") {
  const MachineParams umm{.model = ModelKind::Umm, .w = 4, .l = 5};
  AccessResult r = simulate_access(umm, {{7, 5, 15, 0}, {10, 11, 12, 9}});
  const std::string before = diagram(r);
  const std::string json_before = to_json(r).dump();
  CHECK(before.find("sector") == std::string::npos);
  CHECK(json_before.find("sector") == std::string::npos);
  add_sectors(r);
  REQUIRE(r.sectors.size() == 2);
  CHECK(counts(r) == Counts{2, 1, 1, 1, 16});  // m[7], m[5] in sector 0; m[15] in 1; m[0] in 0
  const WarpSectors& w1 = r.sectors[1];
  REQUIRE(w1.sectors.size() == 1);  // m[9..12]: bytes 36 .. 51, all in sector 1
  CHECK(w1.sectors[0].sector == 1);
  CHECK(w1.sectors[0].threads == std::vector<ThreadId>{4, 5, 6, 7});
  const std::string after = diagram(r);
  CHECK(after.substr(0, before.size()) == before);  // the papers' view first, unchanged
  CHECK(after.find("W(0) sectors: 2 in 1 line; ideal 1 in 1 line (16 bytes asked, 64 moved: 25% used)") !=
        std::string::npos);
  CHECK(after.find("W(1) sectors: 1 in 1 line; ideal 1 in 1 line (16 bytes asked, 32 moved: 50% used), coalesced") !=
        std::string::npos);
  const std::string json = to_json(r).dump();
  CHECK(json.find("\"sector_bytes\": 32") != std::string::npos);
  CHECK(json.find("\"ideal_sectors\": 1") != std::string::npos);
  const std::string svg = sector_svg(r);
  CHECK(svg.find("<svg") == 0);
  CHECK(svg.find("W(1): 1 sector in 1 line") != std::string::npos);

  AccessResult d = simulate_access({.model = ModelKind::Dmm, .w = 4, .l = 5}, {{7, 5, 15, 0}});
  CHECK_THROWS_AS(add_sectors(d), InputError);
}

TEST_CASE(
    "the global cases of the GPU's catalogue: the view's sector transactions equal Nsight Compute's on the H100 and "
    "H200") {
  for (const char* gpu : {"gpu-h100", "gpu-h200"}) {
    const auto t = experiments::accesses_table(std::string(MMSIM_SOURCE_DIR) + "/results/" + gpu + "/ncu-accesses.csv");
    const auto col =
        static_cast<std::size_t>(std::find(t.columns.begin(), t.columns.end(), "gpu_sectors") - t.columns.begin());
    REQUIRE(col < t.columns.size());
    int compared = 0, equal = 0, atomics = 0;
    for (std::size_t i = 0; i < experiments::access_cases().size(); ++i) {
      const experiments::AccessCase& c = experiments::access_cases()[i];
      if (c.space != Space::Global) continue;
      const auto measured = std::get<double>(t.rows[i][col]);
      const bool atomic = c.instr != experiments::AccessInstr::Load && c.instr != experiments::AccessInstr::Store;
      const auto r = one_warp(
          [&c](Address lane) {
            const std::int64_t x = c.index[static_cast<std::size_t>(lane)];
            return x == experiments::kIdleLane ? kNoAddress : static_cast<Address>(x);
          },
          c.element_bytes, c.vector,
          atomic                                       ? Op::Atomic
          : c.instr == experiments::AccessInstr::Store ? Op::Write
                                                       : Op::Read,
          !atomic                                             ? AtomicOp::None
          : c.instr == experiments::AccessInstr::ReduceAddOne ? AtomicOp::Increment
                                                              : AtomicOp::Add);
      const auto ours = static_cast<double>(r.sectors[0].sectors.size());
      const auto transactions = static_cast<double>(r.sectors[0].transactions);
      INFO(gpu << ": " << c.name << ": view " << ours << " sectors, " << transactions << " transactions; ncu "
               << measured);
      // Every case: the transactions are the GPU's sectors, atomics included.
      CHECK(transactions == measured);
      if (!atomic) {
        // Loads and stores: the sectors the view shows are the GPU's, every one.
        CHECK(ours == measured);
        ++compared;
        equal += ours == measured;
      } else {
        // An atomic's distinct sectors are a floor, reached when every thread has its own address.
        CHECK(ours <= measured);
        ++atomics;
      }
    }
    CHECK(atomics == 7);
    CHECK(compared == 20);
    CHECK(equal == compared);
  }
}
