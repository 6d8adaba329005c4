// The GPU-like global memory (models/gpu_memory): the coalescer's sectors counted by hand for
// coalesced, strided and narrow accesses; the L2's hits, fills and write-backs and the DRAM rows on
// small worked examples; the hierarchy that composes them; and an algorithm run on it through
// EngineOptions::global_memory, moving the same data as on the UMM.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "algorithms/registry.h"
#include "models/gpu_memory/gpu_memory.h"

using namespace mmsim;

namespace {

std::vector<Address> lanes(std::uint64_t first, std::uint64_t stride, int w = 32) {
  std::vector<Address> a(static_cast<std::size_t>(w));
  for (int t = 0; t < w; ++t) a[static_cast<std::size_t>(t)] = first + static_cast<std::uint64_t>(t) * stride;
  return a;
}

GpuMemoryParams no_cache(std::uint32_t element_bytes) {
  GpuMemoryParams p;
  p.element_bytes = element_bytes;
  return p;
}

}  // namespace

TEST_CASE("sectors: one slot per distinct 32-byte sector a warp touches") {
  GpuMemoryHierarchy fh(32, no_cache(4)), dh(32, no_cache(8));
  const GpuGlobalMemory f(1, fh), d(1, dh);
  CHECK(f.cost_access(lanes(0, 1), {}).slots == 4);   // 32 floats = 128 B
  CHECK(d.cost_access(lanes(0, 1), {}).slots == 8);   // 32 doubles = 256 B
  CHECK(f.cost_access(lanes(4, 1), {}).slots == 5);   // misaligned by half a sector
  CHECK(f.cost_access(lanes(0, 2), {}).slots == 8);   // stride 2: 256 B span
  CHECK(f.cost_access(lanes(0, 8), {}).slots == 32);  // one float per sector
  CHECK(f.cost_access(lanes(0, 1000), {}).slots == 32);
  CHECK(f.cost_access(lanes(0, 0), {}).slots == 1);  // 32 requests to one cell merge
  // An index array of uint16 the engine declares as such: 64 B.
  CHECK(f.cost_access(lanes(0, 1), {Op::Read, 1, 2}).slots == 2);
  std::vector<Address> idle(32, kNoAddress);
  CHECK(f.cost_access(idle, {}).slots == 0);
  // The papers' address groups are counted beside: w = 32 cells per group.
  CHECK(fh.stats().umm_groups == 1 + 2 + 2 + 8 + 32 + 1 + 1);
  CHECK(fh.stats().accesses == 7);  // the idle warp is no access
  // The model keeps no state of its own: it says so, and the engine asks it in dispatch order.
  CHECK_FALSE(f.order_free());
  CHECK(f.width() == 32);
}

TEST_CASE("the coalescer: the sectors and 128-byte lines of one warp access, each byte it touches") {
  Coalescer c(32, 32, 4);
  const WarpRequest& r = c(lanes(4, 1), {Op::Write, 0, 0});  // floats 4..35: bytes 16..143
  CHECK(r.op == Op::Write);
  REQUIRE(r.sectors.size() == 5);
  CHECK(r.sectors[0].sector == 0);
  CHECK(r.sectors[0].mask == 0xFFFF0000ull);  // the upper half of sector 0
  CHECK(r.sectors[1].mask == 0xFFFFFFFFull);
  CHECK(r.sectors[4].sector == 4);
  CHECK(r.sectors[4].mask == 0xFFFFull);
  CHECK(r.l2_transactions == 2);  // bytes 16..143 cross one 128-byte line boundary
  CHECK(r.umm_groups == 2);       // cells 4..35: groups 0 and 1 of w = 32
  // A function of the access alone: the same warp again gives the same request.
  const WarpRequest& again = c(lanes(4, 1), {Op::Write, 0, 0});
  CHECK(again.sectors.size() == 5);
  CHECK(again.l2_transactions == 2);
  // Array 1 starts at byte 2^40: its sectors are not array 0's.
  CHECK(c(lanes(0, 1), {Op::Read, 1, 0}).sectors[0].sector == (std::uint64_t{1} << 40) / 32);
}

TEST_CASE("the coalescer counts every byte of a lane's vector, in each sector and line it falls in") {
  Coalescer c(32, 32, 4);
  // float4 a4[t]: lane t moves bytes 16t .. 16t + 15, 512 bytes in 16 sectors and 4 lines (the
  // H100's and H200's count, results/gpu-*/ncu-accesses.csv, global-float4-contiguous).
  AccessContext float4{Op::Read, 0, 4, 4};
  const WarpRequest& r = c(lanes(0, 4), float4);
  CHECK(r.sectors.size() == 16);
  CHECK(r.l2_transactions == 4);
  CHECK(r.lines.size() == 4);
  CHECK(r.sectors[0].mask == 0xFFFFFFFFull);
  // A vector wider than a sector: 8-byte sectors, 16 bytes a lane, two sectors a lane.
  Coalescer narrow(32, 8, 4);
  std::vector<Address> one(32, kNoAddress);
  one[0] = 4;  // bytes 16 .. 31
  const WarpRequest& two = narrow(one, float4);
  REQUIRE(two.sectors.size() == 2);
  CHECK(two.sectors[0].sector == 2);
  CHECK(two.sectors[0].mask == 0xFFull);
  CHECK(two.sectors[1].sector == 3);
  CHECK(two.lines.size() == 1);
  // A whole warp of them on 4-byte sectors: 128 sectors, more than the w the tables start with.
  Coalescer tiny(32, 4, 4);
  CHECK(tiny(lanes(0, 4), float4).sectors.size() == 128);
  CHECK(tiny(lanes(0, 4), float4).lines.size() == 4);
  CHECK(tiny(lanes(0, 1), {Op::Read, 0, 4, 1}).sectors.size() == 32);
  // Lines in the order the lanes first touch them.
  one[0] = 64;  // bytes 256 ..: line 2
  one[1] = 0;   // line 0
  const WarpRequest& order = c(one, {Op::Read, 0, 4, 1});
  CHECK(order.lines[0] == 2);
  CHECK(order.lines[1] == 0);
}

TEST_CASE("the coalescer's transactions: the sectors, and for an atomic the most threads on one address a sector") {
  Coalescer c(32, 32, 4);
  CHECK(c(lanes(0, 1), {Op::Read, 0, 4}).transactions == 4);
  // atomicAdd(&a[0]) from every lane: one sector, 32 transactions (the H100's and H200's count).
  const AccessContext add{.op = Op::Atomic, .array = 0, .element_bytes = 4, .vector = 1, .atomic = AtomicOp::Add};
  const WarpRequest& same = c(lanes(0, 0), add);
  CHECK(same.sectors.size() == 1);
  CHECK(same.transactions == 32);
  // atomicAdd(&a[t mod 4]): 8 threads on each of 4 words of one sector: 8.
  std::vector<Address> mod4(32);
  for (std::size_t t = 0; t < 32; ++t) mod4[t] = t % 4;
  CHECK(c(mod4, add).transactions == 8);
  // Distinct addresses: one a sector, as a read.
  CHECK(c(lanes(0, 8), add).transactions == 32);
  CHECK(c(lanes(0, 1), add).transactions == 4);
  // The same addresses read: merged.
  CHECK(c(mod4, {Op::Read, 0, 4}).transactions == 1);
}

TEST_CASE("sectors without a cache: every sector a DRAM transfer of its direction") {
  GpuMemoryHierarchy m(32, no_cache(4));
  m.access(lanes(0, 1), {Op::Read, 0, 0});
  m.access(lanes(0, 8), {Op::Write, 1, 0});
  CHECK(m.stats().read_sectors == 4);
  CHECK(m.stats().write_sectors == 32);
  CHECK(m.stats().dram_reads == 4);
  CHECK(m.stats().dram_writes == 32);
  CHECK(m.stats().hits == 0);
}

TEST_CASE("arrays never share a sector") {
  GpuMemoryHierarchy m(32, no_cache(4));
  std::vector<Address> one(32, kNoAddress);
  one[0] = 0;
  CHECK(m.access(one, {Op::Read, 0, 0}) == 1);
  CHECK(m.access(one, {Op::Read, 1, 0}) == 1);
  CHECK(m.stats().read_sectors == 2);
}

TEST_CASE("L2: hits, fills of partial sectors, write-backs, LRU") {
  // One set of two ways: every sector competes for the same two places. No DRAM rows behind it.
  DramRows none(32, 0, 1, 1);
  L2Cache c(2, 2, 0xFFFFFFFFull, none);
  GpuMemoryStats s;
  CHECK_FALSE(c.read(10, 0xF, s));  // miss: fetched whole
  CHECK(c.read(10, 0xF0, s));       // hit: other bytes, same sector
  CHECK(s.dram_reads == 1);
  CHECK_FALSE(c.write(20, 0xF, s));            // write-allocate without fetch: 4 of 32 bytes known
  CHECK(c.read(10, 0xF, s));                   // 10 becomes the most recent
  CHECK_FALSE(c.write(30, 0xFFFFFFFFull, s));  // evicts 20, the least recent: dirty and partial
  CHECK(s.fills == 1);
  CHECK(s.dram_reads == 2);
  CHECK(s.dram_writes == 1);
  CHECK_FALSE(c.read(40, 0xF, s));  // evicts 10: clean, nothing written back
  CHECK(s.dram_writes == 1);
  CHECK(s.dram_reads == 3);
  c.flush(s);  // 30: dirty and whole: written back without a fill
  CHECK(s.dram_writes == 2);
  CHECK(s.fills == 1);
  // A read of bytes a write did not bring in is not a hit.
  GpuMemoryStats t;
  L2Cache d(2, 2, 0xFFFFFFFFull, none);
  d.write(7, 0xF, t);
  CHECK_FALSE(d.read(7, 0xF0, t));
  CHECK(t.dram_reads == 1);
  CHECK(d.read(7, 0xF, t));
}

TEST_CASE("an algorithm on the GPU-like memory moves the same data, and its sectors are counted") {
  const AlgorithmEntry* entry = find_algorithm("d-designated");
  REQUIRE(entry != nullptr);
  const ParamValues given{{"n", 4096}, {"perm", "identical"}};
  const RunReport umm = run_algorithm(*entry, given, EngineOptions{});
  GpuMemoryParams p;
  p.element_bytes = 4;
  GpuMemoryHierarchy hierarchy(32, p);
  const GpuGlobalMemory memory(100, hierarchy);
  EngineOptions o;
  o.global_memory = &memory;
  const RunReport gpu = run_algorithm(*entry, given, o);
  CHECK(umm.correct);
  CHECK(gpu.correct);
  // Identical: a, p (uint32) and b each 4096 x 4 B = 512 sectors, read, read, written.
  const GpuMemoryStats& s = hierarchy.stats();
  CHECK(s.read_sectors == 1024);
  CHECK(s.write_sectors == 512);
  // The UMM's slots, counted beside, are the papers' run's: 3 x 4096 / 32 groups.
  std::uint64_t umm_slots = 0;
  for (const auto& r : umm.stats.rounds) umm_slots += r.slots;
  CHECK(s.umm_groups == umm_slots);
}

TEST_CASE("parameters are checked") {
  GpuMemoryParams p;
  p.sector_bytes = 24;
  CHECK(p.validate());
  p = {};
  p.element_bytes = 3;
  CHECK(p.validate());
  p = {};
  p.cache_bytes = 100;
  CHECK(p.validate());
  p = {};
  CHECK_FALSE(p.validate());
  p.cache_bytes = 32 * 16 - 1;  // less than one set of 16 ways
  CHECK(p.validate());
  CHECK_THROWS_AS(GpuMemoryHierarchy(32, p), std::invalid_argument);
}

TEST_CASE("DRAM rows: a stream opens a row once per row, scattered sectors once each") {
  GpuMemoryParams p = no_cache(4);
  p.dram_row_bytes = 1024;  // 32 sectors
  p.dram_banks = 4096;
  GpuMemoryHierarchy m(32, p);
  for (std::uint64_t warp = 0; warp < 64; ++warp) m.access(lanes(warp * 32, 1), {Op::Read, 0, 0});
  CHECK(m.stats().dram_reads == 64 * 4);
  CHECK(m.stats().activations == 64 * 32 * 4 / 1024);  // 8 KiB of floats: 8 rows
  GpuMemoryHierarchy s(32, p);
  s.access(lanes(0, 4096), {Op::Read, 0, 0});  // 32 sectors 16 KiB apart: 32 rows
  CHECK(s.stats().activations == 32);
  // Behind a cache, misses and write-backs open the rows.
  GpuMemoryParams c = p;
  c.cache_bytes = 64 * 1024;
  GpuMemoryHierarchy cached(32, c);
  cached.access(lanes(0, 4096), {Op::Read, 0, 0});
  CHECK(cached.stats().activations == 32);
  // Off by default.
  GpuMemoryHierarchy off(32, no_cache(4));
  off.access(lanes(0, 4096), {Op::Read, 0, 0});
  CHECK(off.stats().activations == 0);
}

TEST_CASE("read-modify-write rows: a partial sector's fill is served in its write-back's row") {
  GpuMemoryParams p = no_cache(4);
  p.dram_row_bytes = 1024;    // 32 sectors
  p.dram_banks = 2;           // fewer banks than the rows that the cache's evictions mix
  p.cache_bytes = 64 * 1024;  // 2048 sectors
  // A streamed partial write: floats at stride 2 over 256 KiB (8192 sectors, each half written),
  // then a flush: every sector is filled and written back.
  GpuMemoryHierarchy stream(32, p);
  for (std::uint64_t warp = 0; warp < 1024; ++warp) stream.access(lanes(warp * 64, 2), {Op::Write, 0, 0});
  stream.flush();
  const GpuMemoryStats& s = stream.stats();
  CHECK(s.fills == 8192);
  CHECK(s.dram_writes == 8192);
  // Fills and write-backs leave the cache in its hashed order: as reads they open a row nearly
  // each; as one read-modify-write, the write-backs' rows are opened once per row.
  CHECK(s.write_activations == 256 * 1024 / 1024);
  CHECK(s.rmw_activations == s.write_activations);  // every write-back merged a half-written sector
  CHECK(s.read_activations == 0);
  CHECK(s.activations > 4096);
  // Scattered partial writes: one row per sector, for the write-back and its fill together.
  GpuMemoryHierarchy scattered(32, p);
  scattered.access(lanes(0, 4096), {Op::Write, 0, 0});
  scattered.flush();
  CHECK(scattered.stats().fills == 32);
  CHECK(scattered.stats().write_activations == 32);
  CHECK(scattered.stats().rmw_activations == 32);
  CHECK(scattered.stats().activations == 64);
  // Reads count apart from fills.
  scattered.access(lanes(8, 4096), {Op::Read, 0, 0});
  CHECK(scattered.stats().read_activations == 32);
}

TEST_CASE("rows opened by write-backs that merge a partial sector are counted apart from whole sectors'") {
  GpuMemoryParams p = no_cache(4);
  p.dram_row_bytes = 1024;  // 32 sectors of 8 floats
  p.dram_banks = 64;
  p.cache_bytes = 64 * 1024;
  GpuMemoryHierarchy m(32, p);
  // Rows 0 and 1: whole sectors (a warp writes 32 consecutive floats: 4 sectors), 8 warps a row.
  for (std::uint64_t warp = 0; warp < 16; ++warp) m.access(lanes(warp * 32, 1), {Op::Write, 0, 0});
  // Rows 2 to 33: one float in sector 0 of each, 256 floats apart: 32 partial sectors, 32 rows.
  m.access(lanes(2 * 256, 256), {Op::Write, 0, 0});
  m.flush();
  const GpuMemoryStats& s = m.stats();
  CHECK(s.dram_writes == 64 + 32);
  CHECK(s.fills == 32);
  CHECK(s.write_activations == 2 + 32);
  CHECK(s.rmw_activations == 32);
}

TEST_CASE("the write-backs' reach: rows written again within it stay open, beyond it open again") {
  // 64 rows of 32 sectors, one sector of each written back in turn, twice.
  const auto activations = [](std::uint32_t reach) {
    DramRows rows(32, 1024, 2048, reach);
    GpuMemoryStats stats;
    for (int pass = 0; pass < 2; ++pass)
      for (std::uint64_t row = 0; row < 64; ++row)
        rows.write(row * 32 + static_cast<std::uint64_t>(pass), false, stats);
    CHECK(stats.activations == stats.write_activations);
    return stats.write_activations;
  };
  CHECK(activations(65536) == 64);   // the second pass finds every row still open
  CHECK(activations(1) == 2 * 64);   // a reach of one row: every write-back opens its row
  CHECK(activations(16) > 64 + 32);  // 64 rows over 16 slots: most are gone when written again
  GpuMemoryParams p;
  p.dram_write_rows = 3;
  CHECK(p.validate());
  p.dram_write_rows = 1u << 21;
  CHECK(p.validate());
  p.dram_write_rows = 1;
  CHECK_FALSE(p.validate());
}

TEST_CASE("a warm L2 keeps its contents across reset_counters, and a flush empties it") {
  GpuMemoryParams p = no_cache(4);
  p.cache_bytes = 64 * 1024;  // 2048 sectors: 1024 of them fit
  GpuMemoryHierarchy m(32, p);
  const auto pass = [&] {
    for (std::uint64_t warp = 0; warp < 256; ++warp) m.access(lanes(warp * 32, 1), {Op::Read, 0, 0});
  };
  pass();
  CHECK(m.stats().dram_reads == 1024);
  m.reset_counters();
  CHECK(m.stats().read_sectors == 0);
  pass();  // the second run finds every sector but those of a few sets the hash overfills
  CHECK(m.stats().hits > 1000);
  CHECK(m.stats().hits + m.stats().dram_reads == 1024);
  m.flush();  // nothing dirty: no write-back
  CHECK(m.stats().dram_writes == 0);
  m.reset_counters();
  pass();  // empty again
  CHECK(m.stats().dram_reads == 1024);
}
