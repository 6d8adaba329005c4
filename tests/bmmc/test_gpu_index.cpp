// CPU tests of the GPU BPC / BMMC kernels' index arithmetic (cuda/bmmc/bmmc_index.h): each kernel is
// emulated thread by thread with the very functions the device runs, ballots gathered lane by lane,
// and checked for the permutation (every cell), coalescing and shared-memory bank conflicts.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "algorithms/bmmc/f2.h"
#include "algorithms/bmmc/kernels.h"
#include "cuda/bmmc/bmmc_index.h"
#include "cuda/bmmc/plan.h"
#include "sim/random.h"

namespace {

namespace f2 = mmsim::f2;
namespace gb = mmsim::gpu::bmmc;
using mmsim::bmmc::KernelKind;

constexpr std::uint32_t kPoison = 0xFFFFFFFFu;

// A warp-wide ballot: bit L is lane L's predicate.
template <typename Pred>
std::uint32_t ballot(Pred pred) {
  std::uint32_t b = 0;
  for (std::uint32_t lane = 0; lane < 32; ++lane) b |= (pred(lane) & 1u) << lane;
  return b;
}

struct Observed {
  bool cells_once = true;       // no tile or output cell written twice, none read unwritten
  bool reads_coalesced = true;  // every warp access of src / dst: 32 cells of one aligned group
  bool writes_coalesced = true;
  int tile_store_conflict = 0;  // largest number of lanes of one warp access on one bank
  int tile_load_conflict = 0;
};

int conflict(const std::array<std::uint32_t, 32>& cells) {
  std::array<int, 32> per_bank{};
  for (auto c : cells) ++per_bank[c % 32];
  return *std::max_element(per_bank.begin(), per_bank.end());
}

bool one_aligned_group(std::array<std::uint32_t, 32> addr) {
  std::sort(addr.begin(), addr.end());
  for (std::uint32_t i = 0; i < 32; ++i)
    if (addr[i] != addr[0] + i) return false;
  return addr[0] % 32 == 0;
}

// k_tiled<Banks, Iters> of cuda/bmmc/kernels.cu, one block, warp and lane at a time.
void emulate_tiled(const gb::Pass& p, const std::vector<std::uint32_t>& src, std::vector<std::uint32_t>& dst,
                   Observed& o) {
  const gb::PassArgs& a = p.args;
  const std::uint32_t cells = a.warps * 32, reps = 1u << p.iters;
  std::array<std::uint32_t, 32> s_rows{}, s_lane_tile{}, s_lane_out{};
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    s_rows[lane] = a.rows[lane];
    s_lane_tile[lane] = gb::lane_tile(a, lane, p.banks);
    s_lane_out[lane] = gb::lane_out(a, lane);
  }
  std::uint32_t e_in[3] = {};
  for (int k = 0; k < p.iters; ++k) e_in[k] = gb::nth_bit(a.iter, static_cast<std::uint32_t>(k));
  std::uint32_t e_out[3] = {};
  for (int k = 0; k < p.iters; ++k)
    e_out[k] = ballot([&](std::uint32_t lane) { return gb::parity_bit(s_rows[lane], e_in[k]); });
  std::vector<std::uint32_t> tile(std::size_t{cells} * reps);
  for (std::uint32_t blk = 0; blk < a.blocks; ++blk) {
    std::fill(tile.begin(), tile.end(), kPoison);
    std::vector<std::uint32_t> words(a.warps);
    for (std::uint32_t warp = 0; warp < a.warps; ++warp)
      words[warp] = ballot([&](std::uint32_t lane) { return gb::read_word_bit(a, lane, warp, blk); });
    for (std::uint32_t warp = 0; warp < a.warps; ++warp)
      for (std::uint32_t it = 0; it < reps; ++it) {
        std::array<std::uint32_t, 32> addr{}, cell{};
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
          addr[lane] = gb::read_source(a, words[warp], lane, 0) | gb::iter_combo(it, e_in[0], e_in[1], e_in[2]);
          cell[lane] = it * cells + gb::read_tile_cell(words[warp], warp, lane, p.banks);
          if (tile[cell[lane]] != kPoison) o.cells_once = false;
          tile[cell[lane]] = src[addr[lane]];
        }
        o.reads_coalesced = o.reads_coalesced && one_aligned_group(addr);
        o.tile_store_conflict = std::max(o.tile_store_conflict, conflict(cell));
      }
    for (std::uint32_t warp = 0; warp < a.warps; ++warp) {
      const std::uint32_t word = words[warp];
      const std::uint32_t high =
          ballot([&](std::uint32_t lane) { return gb::parity_bit(s_rows[lane], gb::warp_out_operand(a, word)); });
      for (std::uint32_t it = 0; it < reps; ++it) {
        std::array<std::uint32_t, 32> addr{}, cell{};
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
          const std::uint32_t out = high ^ a.c ^ s_lane_out[lane];
          cell[lane] = it * cells + gb::write_tile_cell(s_lane_tile[lane], word);
          addr[lane] = out ^ gb::iter_combo(it, e_out[0], e_out[1], e_out[2]);
          if (tile[cell[lane]] == kPoison || dst[addr[lane]] != kPoison) o.cells_once = false;
          dst[addr[lane]] = tile[cell[lane]];
        }
        o.writes_coalesced = o.writes_coalesced && one_aligned_group(addr);
        o.tile_load_conflict = std::max(o.tile_load_conflict, conflict(cell));
      }
    }
  }
}

// k_naive: blocks of 256 threads, thread x moves cell x.
void emulate_naive(const gb::Pass& p, const std::vector<std::uint32_t>& src, std::vector<std::uint32_t>& dst,
                   Observed& o) {
  const gb::PassArgs& a = p.args;
  std::array<std::uint32_t, 32> s_rows{}, s_lane_out{};
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    s_rows[lane] = a.rows[lane];
    s_lane_out[lane] = gb::apply_rows(a, lane);
  }
  const std::uint32_t n = 1u << a.bits;
  for (std::uint32_t x0 = 0; x0 < n; x0 += 32) {
    const std::uint32_t high =
        ballot([&](std::uint32_t lane) { return gb::parity_bit(s_rows[lane], (x0 + lane) & ~31u); });
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      const std::uint32_t y = high ^ s_lane_out[lane] ^ a.c;
      if (dst[y] != kPoison) o.cells_once = false;
      dst[y] = src[x0 + lane];
    }
  }
}

// Runs the passes src -> (mid ->) dst and checks dst[f(x)] = src[x] for every x.
Observed run_and_check(const f2::Bmmc& f, const std::vector<gb::Pass>& passes) {
  const std::uint32_t n = 1u << f.bits();
  std::vector<std::uint32_t> cur(n);
  for (std::uint32_t x = 0; x < n; ++x) cur[x] = x * 2654435761u + 17u;  // distinct, none the poison
  const std::vector<std::uint32_t> src = cur;
  Observed o;
  for (const auto& p : passes) {
    std::vector<std::uint32_t> next(n, kPoison);
    if (p.naive)
      emulate_naive(p, cur, next, o);
    else
      emulate_tiled(p, cur, next, o);
    cur.swap(next);
  }
  std::uint64_t wrong = 0;
  for (std::uint32_t x = 0; x < n; ++x) wrong += cur[f.apply(x)] != src[x];
  CHECK(wrong == 0);
  CHECK(o.cells_once);
  return o;
}

void check_all_kernels(const f2::Bmmc& f) {
  for (KernelKind k : mmsim::bmmc::all_kernels()) {
    CAPTURE(mmsim::bmmc::to_string(k));
    const auto passes = gb::gpu_passes(f, k);
    const Observed o = run_and_check(f, passes);
    if (k == KernelKind::Naive) {
      CHECK(passes.size() == 1);
      continue;
    }
    CHECK(passes.size() == f2::tiled_factors(f, 5).size());
    CHECK(o.reads_coalesced);
    CHECK(o.writes_coalesced);
    CHECK(o.tile_store_conflict == 1);
    // Without the shift, a warp reading a tile column meets 2^(5 - over) lanes per bank (Sect. 4.2).
    int worst = 1;
    for (const auto& p : passes) worst = std::max(worst, 1 << (5 - __builtin_popcount(p.args.over)));
    CHECK(o.tile_load_conflict == (k == KernelKind::Tile ? worst : 1));
  }
}

}  // namespace

TEST_CASE("gpu bmmc: kernel arguments mirror the tile layout") {
  mmsim::Rng rng(3);
  for (int n : {12, 17, 30}) {
    const f2::Bmmc f = f2::random_bpc(n, rng);
    const auto passes = gb::gpu_passes(f, KernelKind::TileBanksIters);
    REQUIRE(passes.size() == 1);
    const gb::PassArgs& a = passes[0].args;
    CHECK(passes[0].iters == 3);
    CHECK(a.bits == static_cast<std::uint32_t>(n));
    CHECK((a.row | a.col_only | a.iter | a.block) == (n == 32 ? ~0u : (1u << n) - 1));
    CHECK(std::uint64_t{a.blocks} * a.warps * 32 * 8 == std::uint64_t{1} << n);
    for (int i = n; i < 32; ++i) CHECK(a.rows[i] == 0);
    for (std::uint32_t lane = 0; lane < 32; ++lane) CHECK(gb::lane_out(a, lane) < 32);
  }
  CHECK_THROWS(gb::matrix_args(f2::bit_reversal(31)));
  CHECK_THROWS(gb::matrix_args(f2::bit_reversal(11)));
}

TEST_CASE("gpu bmmc: deposit, extract and the read word") {
  CHECK(gb::deposit32(0b101, 0b11010) == 0b10010);
  CHECK(gb::extract32(0b10010, 0b11010) == 0b101);
  CHECK(gb::nth_bit(0b101100, 0) == 0b100);
  CHECK(gb::nth_bit(0b101100, 2) == 0b100000);
  CHECK(gb::nth_bit(0b101100, 3) == 0);
  mmsim::Rng rng(5);
  const f2::Bmmc f = f2::random_bpc(16, rng);
  const auto passes = gb::gpu_passes(f, KernelKind::TileBanks);
  const gb::PassArgs& a = passes[0].args;
  for (std::uint32_t blk = 0; blk < a.blocks; blk += 7)
    for (std::uint32_t warp = 0; warp < a.warps; ++warp) {
      const std::uint32_t word = ballot([&](std::uint32_t lane) { return gb::read_word_bit(a, lane, warp, blk); });
      CHECK(gb::word_block(a, word) == gb::deposit32(blk, a.block));
      CHECK(gb::word_row(a, word) == gb::deposit32(warp, a.row_only));
      CHECK(gb::word_col(word) == gb::deposit32(warp, a.col_only));
    }
}

TEST_CASE("gpu bmmc: named BPCs through every kernel") {
  for (int n : {12, 15}) {
    CAPTURE(n);
    check_all_kernels(f2::bit_reversal(n));
    check_all_kernels(f2::identity(n));  // every tile row bit overlaps: one warp per block
    check_all_kernels(f2::complement(n, f2::low_bits(n)));
    check_all_kernels(f2::transpose(n / 2, n - n / 2));
    check_all_kernels(f2::shuffle(n));
    check_all_kernels(f2::unshuffle(n));
    check_all_kernels(f2::rotate_left(n, 3));
  }
}

TEST_CASE("gpu bmmc: random BPCs and BMMCs with complements through every kernel") {
  mmsim::Rng rng(2024);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 12 + trial % 4;
    CAPTURE(n);
    CAPTURE(trial);
    const f2::Bmmc bpc = f2::random_bpc(n, rng);
    check_all_kernels(bpc);
    const f2::Bmmc bmmc = f2::random_bmmc(n, rng);
    check_all_kernels(bmmc);
  }
}

TEST_CASE("gpu bmmc: one to three iterations per block") {
  mmsim::Rng rng(77);
  for (int iters = 1; iters <= 3; ++iters) {
    const f2::Bmmc f = f2::random_bmmc(13, rng);
    std::vector<gb::Pass> passes;
    for (const auto& factor : f2::tiled_factors(f, 5)) {
      gb::Pass p;
      p.args = gb::tiled_args(factor, mmsim::bmmc::tile_layout(factor, 5, iters));
      p.banks = true;
      p.iters = iters;
      passes.push_back(p);
    }
    const Observed o = run_and_check(f, passes);
    CHECK(o.reads_coalesced);
    CHECK(o.writes_coalesced);
    CHECK(o.tile_store_conflict == 1);
    CHECK(o.tile_load_conflict == 1);
  }
}
