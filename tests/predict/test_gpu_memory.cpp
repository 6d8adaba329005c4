// The GPU-like global memory (models/gpu_memory): sectors counted by hand for coalesced, strided and
// narrow accesses; the cache's hits, fills and write-backs on small worked examples; and an
// algorithm run on it through EngineOptions::global_memory, moving the same data as on the UMM.
#include <doctest/doctest.h>

#include <numeric>
#include <random>
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
  const GpuGlobalMemory f(32, 1, no_cache(4)), d(32, 1, no_cache(8));
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
  CHECK(f.stats().umm_groups == 1 + 2 + 2 + 8 + 32 + 1 + 1);
}

TEST_CASE("sectors without a cache: every sector a DRAM transfer of its direction") {
  const GpuGlobalMemory m(32, 1, no_cache(4));
  m.cost_access(lanes(0, 1), {Op::Read, 0, 0});
  m.cost_access(lanes(0, 8), {Op::Write, 1, 0});
  CHECK(m.stats().read_sectors == 4);
  CHECK(m.stats().write_sectors == 32);
  CHECK(m.stats().dram_reads == 4);
  CHECK(m.stats().dram_writes == 32);
  CHECK(m.stats().hits == 0);
}

TEST_CASE("arrays never share a sector") {
  const GpuGlobalMemory m(32, 1, no_cache(4));
  std::vector<Address> one(32, kNoAddress);
  one[0] = 0;
  CHECK(m.cost_access(one, {Op::Read, 0, 0}).slots == 1);
  CHECK(m.cost_access(one, {Op::Read, 1, 0}).slots == 1);
  CHECK(m.stats().read_sectors == 2);
}

TEST_CASE("sector cache: hits, fills of partial sectors, write-backs, LRU") {
  // One set of two ways: every sector competes for the same two places.
  SectorCache c(2, 2, 0xFFFFFFFFull);
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
  SectorCache d(2, 2, 0xFFFFFFFFull);
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
  const GpuGlobalMemory memory(32, 100, p);
  EngineOptions o;
  o.global_memory = &memory;
  const RunReport gpu = run_algorithm(*entry, given, o);
  CHECK(umm.correct);
  CHECK(gpu.correct);
  // Identical: a, p (uint32) and b each 4096 x 4 B = 512 sectors, read, read, written.
  CHECK(memory.stats().read_sectors == 1024);
  CHECK(memory.stats().write_sectors == 512);
  // The UMM's slots, counted beside, are the papers' run's: 3 x 4096 / 32 groups.
  std::uint64_t umm_slots = 0;
  for (const auto& r : umm.stats.rounds) umm_slots += r.slots;
  CHECK(memory.stats().umm_groups == umm_slots);
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
}

TEST_CASE("DRAM rows: a stream opens a row once per row, scattered sectors once each") {
  GpuMemoryParams p = no_cache(4);
  p.dram_row_bytes = 1024;  // 32 sectors
  p.dram_banks = 4096;
  const GpuGlobalMemory m(32, 1, p);
  for (std::uint64_t warp = 0; warp < 64; ++warp) m.cost_access(lanes(warp * 32, 1), {Op::Read, 0, 0});
  CHECK(m.stats().dram_reads == 64 * 4);
  CHECK(m.stats().activations == 64 * 32 * 4 / 1024);  // 8 KiB of floats: 8 rows
  const GpuGlobalMemory s(32, 1, p);
  s.cost_access(lanes(0, 4096), {Op::Read, 0, 0});  // 32 sectors 16 KiB apart: 32 rows
  CHECK(s.stats().activations == 32);
  // Behind a cache, misses and write-backs open the rows.
  GpuMemoryParams c = p;
  c.cache_bytes = 64 * 1024;
  const GpuGlobalMemory cached(32, 1, c);
  cached.cost_access(lanes(0, 4096), {Op::Read, 0, 0});
  CHECK(cached.stats().activations == 32);
  // Off by default.
  const GpuGlobalMemory off(32, 1, no_cache(4));
  off.cost_access(lanes(0, 4096), {Op::Read, 0, 0});
  CHECK(off.stats().activations == 0);
}

TEST_CASE("read-modify-write rows: a partial sector's fill is served in its write-back's row") {
  GpuMemoryParams p = no_cache(4);
  p.dram_row_bytes = 1024;    // 32 sectors
  p.dram_banks = 2;           // fewer banks than the rows that the cache's evictions mix
  p.cache_bytes = 64 * 1024;  // 2048 sectors
  // A streamed partial write: floats at stride 2 over 256 KiB (8192 sectors, each half written),
  // then a flush: every sector is filled and written back.
  const GpuGlobalMemory stream(32, 1, p);
  for (std::uint64_t warp = 0; warp < 1024; ++warp) stream.cost_access(lanes(warp * 64, 2), {Op::Write, 0, 0});
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
  const GpuGlobalMemory scattered(32, 1, p);
  scattered.cost_access(lanes(0, 4096), {Op::Write, 0, 0});
  scattered.flush();
  CHECK(scattered.stats().fills == 32);
  CHECK(scattered.stats().write_activations == 32);
  CHECK(scattered.stats().rmw_activations == 32);
  CHECK(scattered.stats().activations == 64);
  // Reads count apart from fills.
  scattered.cost_access(lanes(8, 4096), {Op::Read, 0, 0});
  CHECK(scattered.stats().read_activations == 32);
}

TEST_CASE("rows opened by write-backs that merge a partial sector are counted apart from whole sectors'") {
  GpuMemoryParams p = no_cache(4);
  p.dram_row_bytes = 1024;  // 32 sectors of 8 floats
  p.dram_banks = 64;
  p.cache_bytes = 64 * 1024;
  const GpuGlobalMemory m(32, 1, p);
  // Rows 0 and 1: whole sectors (a warp writes 32 consecutive floats: 4 sectors), 8 warps a row.
  for (std::uint64_t warp = 0; warp < 16; ++warp) m.cost_access(lanes(warp * 32, 1), {Op::Write, 0, 0});
  // Rows 2 to 33: one float in sector 0 of each, 256 floats apart: 32 partial sectors, 32 rows.
  m.cost_access(lanes(2 * 256, 256), {Op::Write, 0, 0});
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

TEST_CASE("caches on threads of their own count exactly what the caches inline count") {
  GpuMemoryParams p = no_cache(4);
  p.cache_bytes = 64 * 1024;  // small, so that the accesses below evict, fill and write back
  p.cache_line_bytes = 128;
  p.dram_row_bytes = 1024;
  p.dram_banks = 16;
  const GpuGlobalMemory inline_caches(32, 1, p), threaded(32, 1, p, true);
  const auto same = [&] {
    const GpuMemoryStats &a = inline_caches.stats(), &b = threaded.stats();
    const GpuMemoryStats &la = inline_caches.line_stats(), &lb = threaded.line_stats();
    CHECK(a.accesses == b.accesses);
    CHECK(a.hits == b.hits);
    CHECK(a.dram_reads == b.dram_reads);
    CHECK(a.fills == b.fills);
    CHECK(a.dram_writes == b.dram_writes);
    CHECK(a.activations == b.activations);
    CHECK(a.read_activations == b.read_activations);
    CHECK(a.write_activations == b.write_activations);
    CHECK(a.rmw_activations == b.rmw_activations);
    CHECK(la.hits == lb.hits);
    CHECK(la.dram_reads == lb.dram_reads);
    CHECK(la.dram_writes == lb.dram_writes);
    CHECK(la.write_activations == lb.write_activations);
    return a.dram_writes > 0 && a.fills > 0 && la.hits > 0;  // the walk exercised the caches
  };
  // Scattered and streamed warps over two arrays of 1 MiB: 20000 warps of up to 32 sectors, many
  // more requests than the threads' queue holds at once.
  std::mt19937_64 rng(7);
  const auto walk = [&](int warps) {
    for (int k = 0; k < warps; ++k) {
      std::vector<Address> warp(32);
      const bool scattered = rng() % 2 == 0;
      const std::uint64_t base = rng() % (1u << 18);
      for (std::size_t t = 0; t < warp.size(); ++t) warp[t] = scattered ? rng() % (1u << 18) : base + t;
      const AccessContext c{rng() % 3 == 0 ? Op::Write : Op::Read, static_cast<int>(rng() % 2), 0};
      inline_caches.cost_access(warp, c);
      threaded.cost_access(warp, c);
    }
  };
  walk(20000);
  CHECK(same());
  inline_caches.reset_counters();
  threaded.reset_counters();
  walk(5000);
  inline_caches.flush();
  threaded.flush();
  CHECK(same());
}

TEST_CASE("L2 of lines: a sector taken in claims its whole 128-byte line") {
  GpuMemoryParams p = no_cache(4);
  p.cache_bytes = 64 * 1024;  // 2048 sectors, 512 lines of 128 B
  p.cache_line_bytes = 128;
  // 1024 sectors one per line (floats at stride 32: 128 B apart), read twice: the sectors fit a
  // cache of sectors, their lines do not fit a cache of lines.
  const GpuGlobalMemory strided(32, 1, p);
  const auto pass = [](const GpuGlobalMemory& m, std::uint64_t stride) {
    for (std::uint64_t warp = 0; warp < 32; ++warp) m.cost_access(lanes(warp * 32 * stride, stride), {Op::Read, 0, 0});
  };
  pass(strided, 32);
  strided.reset_counters();
  pass(strided, 32);
  CHECK(strided.stats().hits > 1000);  // all but a few sets that the hash overfills
  CHECK(strided.line_stats().hits < 256);
  CHECK(strided.line_stats().dram_reads == 1024 - strided.line_stats().hits);
  // The same 1024 sectors side by side fill 256 lines: both caches hold them.
  const GpuGlobalMemory packed(32, 1, p);
  pass(packed, 8);  // a sector per lane, the sectors side by side
  packed.reset_counters();
  pass(packed, 8);
  CHECK(packed.stats().hits == 1024);
  CHECK(packed.line_stats().hits == 1024);
  // Without the option there is no cache of lines.
  GpuMemoryParams off = p;
  off.cache_line_bytes = 0;
  const GpuGlobalMemory none(32, 1, off);
  pass(none, 32);
  CHECK(none.line_stats().dram_reads == 0);
  // Its size: a power of two from a sector to 1024 B, behind a cache.
  GpuMemoryParams bad = p;
  bad.cache_line_bytes = 48;
  CHECK(bad.validate());
  bad.cache_line_bytes = 16;
  CHECK(bad.validate());
  bad = no_cache(4);
  bad.cache_line_bytes = 128;
  CHECK(bad.validate());
}
