// BPC and BMMC kernels on the simulated HMM: exact time units against hand-worked examples and the
// closed forms, data checked cell by cell (BDS Sect. 4-5, KNI Sect. 5).
#include <doctest/doctest.h>

#include "algorithms/bmmc/bmmc_time.h"
#include "algorithms/bmmc/kernels.h"
#include "algorithms/bmmc/tiled.h"
#include "algorithms/closed_forms.h"
#include "io/input_error.h"

using namespace mmsim;
using namespace mmsim::bmmc;

namespace {

MachineParams hmm(int w, int L, int k, int l = 1) {
  MachineParams m;
  m.model = ModelKind::Hmm;
  m.w = w;
  m.L = L;
  m.k = k;
  m.l = l;
  return m;
}

BmmcRun run(const MachineParams& m, const f2::Bmmc& f, KernelKind kind, std::optional<int> iters = {},
            Execution ex = Execution::RoundSynchronous) {
  return run_bmmc(Machine(m), f, {kind, iters}, {ex, false});
}

// Every global round coalesced (one address group per warp), every shared round conflict-free.
void check_clean_rounds(const RunStats& s) {
  for (const auto& r : s.rounds) {
    CAPTURE(r.name);
    if (r.memory == Space::Global)
      CHECK(r.slots == r.warps);
    else
      CHECK(r.max_congestion == 1);
  }
}

}  // namespace

TEST_CASE("hand-worked: bit-reversal of 16 cells, w = 4, L = 5, k = 2") {
  const auto m = hmm(4, 5, 2);
  const auto f = f2::bit_reversal(4);
  // One block of 16 threads (tile rows = bits 2, 3; no overlap) on DMM 0: global read 4 + 5 - 1 = 8,
  // shared write 4, shared read 4, global write 8.
  const BmmcRun banks = run(m, f, KernelKind::TileBanks);
  CHECK(banks.correct);
  CHECK(banks.stats.time_units == 24);
  CHECK(banks.predicted == 24);
  check_clean_rounds(banks.stats);
  // Without the shifted rows every warp reads one tile column: 4 slots each, 16 in all.
  const BmmcRun tile = run(m, f, KernelKind::Tile);
  CHECK(tile.correct);
  CHECK(tile.stats.time_units == 8 + 4 + 16 + 8);
  CHECK(tile.predicted == 36);
  // Naive: each warp writes 4 address groups: 4 + 5 - 1 + 16 + 5 - 1 = 28.
  const BmmcRun naive = run(m, f, KernelKind::Naive);
  CHECK(naive.correct);
  CHECK(naive.distribution == 16);
  CHECK(naive.stats.time_units == 28);
}

TEST_CASE("a BPC pass costs exactly the in-place regular time 2n/w + 2 S_busy + 2L - 2") {
  struct Case {
    int w, L, k, bits;
  };
  const std::vector<Case> cases{{4, 5, 2, 6},    {4, 7, 3, 8},     {8, 10, 4, 9},   {8, 20, 5, 11},
                                {16, 30, 2, 12}, {32, 100, 8, 14}, {32, 50, 3, 12}, {2, 3, 1, 5}};
  Rng rng(41);
  for (const auto& c : cases) {
    const auto m = hmm(c.w, c.L, c.k);
    const std::int64_t n = std::int64_t{1} << c.bits;
    for (int trial = 0; trial < 3; ++trial) {
      const f2::Bmmc f = trial == 0 ? f2::bit_reversal(c.bits) : f2::random_bpc(c.bits, rng);
      CAPTURE(c.w);
      CAPTURE(c.L);
      CAPTURE(c.k);
      CAPTURE(c.bits);
      CAPTURE(trial);
      const BmmcRun r = run(m, f, KernelKind::TileBanks);
      REQUIRE(r.passes.size() == 1);
      CHECK(r.correct);
      const auto& p = r.passes[0];
      const std::int64_t busy =
          closed_form::busiest_dmm_slots(static_cast<std::int64_t>(p.blocks), p.threads_per_block, c.w, c.k);
      CHECK(r.stats.time_units == 2 * n / c.w + 2 * busy + 2 * c.L - 2);
      if (p.blocks % static_cast<std::uint64_t>(c.k) == 0)
        CHECK(r.stats.time_units == 2 * n / c.w + 2 * n / (c.k * c.w) + 2 * c.L - 2);
      CHECK(r.stats.rounds.size() == 4);
      check_clean_rounds(r.stats);
    }
  }
}

TEST_CASE("the shared latency l adds l - 1 to each shared round") {
  const auto m = hmm(8, 12, 4, 3);
  const auto f = f2::transpose(5, 5);
  const BmmcRun r = run(m, f, KernelKind::TileBanks);
  CHECK(r.correct);
  CHECK(r.stats.time_units == 2 * 1024 / 8 + 2 * 1024 / (4 * 8) + 2 * 12 - 2 + 2 * (3 - 1));
}

TEST_CASE("tile without shifted rows: the write phase reads 2^(t - over) cells of one bank per warp") {
  Rng rng(43);
  for (int trial = 0; trial < 6; ++trial) {
    const auto m = hmm(8, 9, 3);
    const auto f = trial == 0 ? f2::bit_reversal(10) : f2::random_bpc(10, rng);
    const BmmcRun r = run(m, f, KernelKind::Tile);
    CHECK(r.correct);
    CHECK(r.stats.time_units == r.predicted);
    const int over = r.passes[0].overlap;
    for (const auto& round : r.stats.rounds)
      if (round.name == "read tile") CHECK(round.max_congestion == (1 << (3 - over)));
  }
}

TEST_CASE("random BMMCs: two tiled passes, each at the regular time") {
  Rng rng(47);
  struct Case {
    int w, L, k, bits;
  };
  for (const Case c : std::vector<Case>{{4, 5, 2, 7}, {8, 16, 3, 10}, {32, 100, 8, 13}, {16, 40, 4, 9}}) {
    const auto m = hmm(c.w, c.L, c.k);
    const std::int64_t n = std::int64_t{1} << c.bits;
    for (int trial = 0; trial < 4; ++trial) {
      const f2::Bmmc f = f2::random_bmmc(c.bits, rng);
      const BmmcRun r = run(m, f, KernelKind::TileBanks);
      CHECK(r.correct);
      REQUIRE(r.passes.size() == (f2::is_tiled(f.a, __builtin_ctz(static_cast<unsigned>(c.w))) ? 1u : 2u));
      std::int64_t expect = 0;
      for (const auto& p : r.passes) {
        const std::int64_t busy =
            closed_form::busiest_dmm_slots(static_cast<std::int64_t>(p.blocks), p.threads_per_block, c.w, c.k);
        CHECK(p.time_units == 2 * n / c.w + 2 * busy + 2 * c.L - 2);
        expect += p.time_units;
      }
      CHECK(r.stats.time_units == expect);
      check_clean_rounds(r.stats);
      // The other kernels move the same data; their times are their closed forms.
      for (KernelKind k : {KernelKind::Naive, KernelKind::Tile, KernelKind::TileBanksIters}) {
        const BmmcRun o = run(m, f, k);
        CHECK(o.correct);
        CHECK(o.stats.time_units == o.predicted);
      }
    }
  }
}

TEST_CASE("naive kernel: n/w + D_w(P) + 2L - 2, and D_w(bit-reversal) = n") {
  const auto m = hmm(8, 11, 4);
  const auto f = f2::bit_reversal(9);
  const BmmcRun r = run(m, f, KernelKind::Naive);
  CHECK(r.correct);
  CHECK(r.distribution == 512);
  CHECK(r.stats.time_units == 512 / 8 + 512 + 2 * 11 - 2);
  // The identity is a copy: 2n/w + 2L - 2.
  const BmmcRun id = run(m, f2::identity(9), KernelKind::Naive);
  CHECK(id.stats.time_units == closed_form::copy(512, 8, 11));
}

TEST_CASE("the copy yardstick is simulated: the closed form round-synchronously, less when asynchronous") {
  const Machine machine(hmm(8, 11, 4));
  CHECK(simulated_copy_time(machine, 9, Execution::RoundSynchronous) == closed_form::copy(512, 8, 11));
  // Asynchronously the write of a warp follows its own read, not the last read of the grid: the
  // second latency overlaps the first round, so the copy takes less than 2n/w + 2L - 2.
  CHECK(simulated_copy_time(machine, 9, Execution::Asynchronous) < closed_form::copy(512, 8, 11));
}

TEST_CASE("iterations: 2^iters tiles per block, rounds repeated") {
  const auto m = hmm(4, 6, 2);
  const auto f = f2::bit_reversal(8);  // 256 cells, tiles of 16: 4 free bits
  for (int iters = 0; iters <= 4; ++iters) {
    const BmmcRun r = run(m, f, KernelKind::TileBanksIters, iters);
    CAPTURE(iters);
    CHECK(r.correct);
    CHECK(r.passes[0].iters == iters);
    CHECK(r.stats.rounds.size() == static_cast<std::size_t>(4 << iters));
    // Each global round covers 256 / 2^iters cells: 256/4 slots per phase plus 2^iters (L - 1).
    const std::int64_t blocks = 16 >> iters;
    const std::int64_t busy = closed_form::busiest_dmm_slots(blocks, 16, 4, 2);
    CHECK(r.stats.time_units == 2 * (64 + (std::int64_t{1} << iters) * 5) + 2 * (std::int64_t{1} << iters) * busy);
    check_clean_rounds(r.stats);
  }
  CHECK(run(m, f, KernelKind::TileBanksIters).passes[0].iters == 3);  // the default
  CHECK_THROWS_AS(run(m, f, KernelKind::TileBanksIters, 5), InputError);
  CHECK_THROWS_AS(run(m, f, KernelKind::TileBanks, 2), InputError);
}

TEST_CASE("asynchronous execution is never slower and moves the same data") {
  Rng rng(53);
  const auto m = hmm(8, 20, 3);
  for (KernelKind k : all_kernels()) {
    const f2::Bmmc f = f2::random_bmmc(10, rng);
    const BmmcRun s = run(m, f, k);
    const BmmcRun a = run(m, f, k, {}, Execution::Asynchronous);
    CHECK(a.correct);
    CHECK(a.stats.time_units <= s.stats.time_units);
  }
}

TEST_CASE("complement vectors, small arrays and bad machines") {
  const auto m = hmm(8, 4, 2);
  CHECK(run(m, f2::complement(6, 0b101101), KernelKind::TileBanks).correct);
  CHECK(run(m, f2::complement(3, 0b111), KernelKind::TileBanks).correct);                  // n = w: one tile
  CHECK(run(hmm(1, 3, 2), f2::bit_reversal(4), KernelKind::TileBanks).correct);            // w = 1
  CHECK_THROWS_AS(run(m, f2::bit_reversal(2), KernelKind::TileBanks), InputError);         // n < w
  CHECK_THROWS_AS(run(hmm(6, 4, 2), f2::bit_reversal(6), KernelKind::Naive), InputError);  // w not 2^t
  MachineParams umm = m;
  umm.model = ModelKind::Umm;
  CHECK_THROWS_AS(check_bmmc(umm, f2::identity(4), {}), InputError);
}

TEST_CASE("the kernels take 2^24 cells and refuse 2^25 before allocating them") {
  const auto m = hmm(32, 4, 2);
  CHECK_NOTHROW(check_bmmc(m, f2::identity(f2::kMaxSimulatedBits), {}));
  CHECK_THROWS_WITH_AS(check_bmmc(m, f2::identity(f2::kMaxSimulatedBits + 1), {}),
                       "-n: at most 2^24 cells on the simulator (n = 2^25)", InputError);
  CHECK_THROWS_AS(check_bmmc(m, f2::identity(64), {}), InputError);
}
