// The offline permutation suite of KNI Sect. 5-7 on the engine: output checked cell by
// cell, time equal to Table 1's closed form, every shared round conflict-free and every global
// round coalesced, round counts as in Table 1, asynchronous time never above round-synchronous.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "algorithms/closed_forms.h"
#include "algorithms/offline/entries.h"
#include "algorithms/offline/row_schedule.h"
#include "sim/random.h"

using namespace mmsim;

namespace {

struct Kinds {
  int coalesced_read = 0, coalesced_write = 0, cf_read = 0, cf_write = 0, other = 0;
};

struct Setting {
  int w, L, k, l;
  std::uint64_t mult;  // sqrt(n) = mult * w, or n = mult^2 * w^2 for the power-of-two algorithms
};

// 20 settings: w in {4, 8, 16, 32} times five (L, k, l) combinations.
std::vector<Setting> settings() {
  std::vector<Setting> out;
  const int combos[5][3] = {{1, 1, 1}, {5, 3, 1}, {100, 8, 1}, {7, 2, 2}, {20, 5, 3}};
  for (const int w : {4, 8, 16, 32})
    for (int c = 0; c < 5; ++c)
      out.push_back({w, combos[c][0], combos[c][1], combos[c][2], 1 + static_cast<std::uint64_t>(c % 3)});
  return out;
}

MachineParams machine_of(const Setting& s) {
  MachineParams m;
  m.model = ModelKind::Hmm;
  m.w = s.w;
  m.L = s.L;
  m.k = s.k;
  m.l = s.l;
  return m;
}

// Runs `algorithm` on `perm` both ways and checks everything the issue asks for.
void check_run(const std::string& algorithm, const Permutation& perm, const MachineParams& m, Kinds expected) {
  CAPTURE(algorithm);
  CAPTURE(perm.name);
  CAPTURE(perm.size());
  CAPTURE(m.w);
  CAPTURE(m.L);
  CAPTURE(m.k);
  CAPTURE(m.l);
  const PermutationAlgorithm* algo = find_permutation_algorithm(algorithm);
  REQUIRE(algo != nullptr);
  PermutationInput in;
  in.perm = &perm;
  in.seed = 3;
  algo->check(m, in);
  const Machine machine(m);
  const RunReport sync = algo->run(machine, in, {Execution::RoundSynchronous, false});
  CHECK(sync.correct);
  REQUIRE(sync.predicted_time_units.has_value());
  CHECK(sync.stats.time_units == *sync.predicted_time_units);
  Kinds k;
  for (const auto& r : sync.stats.rounds) {
    if (r.memory == Space::Shared) {
      CHECK(r.max_congestion == 1);
      CHECK(r.bank_conflicts == 0);
      (r.op == Op::Read ? k.cf_read : k.cf_write)++;
    } else {
      CHECK(r.slots == r.warps);  // one address group per warp
      (r.op == Op::Read ? k.coalesced_read : k.coalesced_write)++;
    }
  }
  CHECK(k.coalesced_read == expected.coalesced_read);
  CHECK(k.coalesced_write == expected.coalesced_write);
  CHECK(k.cf_read == expected.cf_read);
  CHECK(k.cf_write == expected.cf_write);
  const RunReport async = algo->run(machine, in, {Execution::Asynchronous, false});
  CHECK(async.correct);
  CHECK(async.stats.time_units <= sync.stats.time_units);
}

constexpr Kinds kRegular{1, 1, 1, 1, 0}, kRow{3, 1, 2, 2, 0}, kColumn{5, 3, 4, 4, 0}, kScheduled{11, 5, 8, 8, 0};

// A permutation that keeps every row: row r rotated by r + 1 and reversed on odd rows.
Permutation row_keeping(std::uint64_t N) {
  Permutation p{"rows rotated", std::vector<Word>(N * N)};
  for (std::uint64_t r = 0; r < N; ++r)
    for (std::uint64_t j = 0; j < N; ++j) {
      const std::uint64_t c = (j + r + 1) % N;
      p.p[r * N + j] = static_cast<Word>(r * N + (r % 2 ? N - 1 - c : c));
    }
  return p;
}

Permutation column_keeping(std::uint64_t N) {
  const Permutation rows = row_keeping(N);
  Permutation p{"columns rotated", std::vector<Word>(N * N)};
  // Transpose the row-keeping permutation: (j, r) -> (column of its image, r).
  for (std::uint64_t r = 0; r < N; ++r)
    for (std::uint64_t j = 0; j < N; ++j) p.p[j * N + r] = static_cast<Word>((rows.p[r * N + j] % N) * N + r);
  return p;
}

}  // namespace

TEST_CASE("in-place transpose, shuffle, bit-reversal: 20 settings each") {
  for (const auto& s : settings()) {
    const auto m = machine_of(s);
    const std::uint64_t w = static_cast<std::uint64_t>(s.w);
    // Transpose also for sqrt(n) not a power of two (3w).
    const std::uint64_t N = s.mult * w;
    check_run("transpose", named_permutation("transpose", N * N, 1), m, kRegular);
    std::uint64_t n = w * w << (2 * (s.mult - 1));  // w^2, 4 w^2, 16 w^2
    if (n > 4096 && w == 32) n = 4096;
    check_run("shuffle", named_permutation("shuffle", n, 1), m, kRegular);
    check_run("bit-reversal", named_permutation("bit-reversal", n, 1), m, kRegular);
    // Odd powers of two too: n = 2 w^2.
    check_run("shuffle", named_permutation("shuffle", 2 * w * w, 1), m, kRegular);
    check_run("bit-reversal", named_permutation("bit-reversal", 2 * w * w, 1), m, kRegular);
  }
}

TEST_CASE("in-place permutations: exact time units by hand") {
  // n = 16, w = 2, L = 3, l = 1: each global round 8 slots + 2; the 4 blocks of 4 threads make
  // 8 warps, all on one DMM when k = 1 (8 time units a shared round), 4 per DMM when k = 2.
  MachineParams m{.w = 2, .l = 1, .L = 3, .k = 1};
  const Permutation t = named_permutation("transpose", 16, 1);
  PermutationInput in;
  in.perm = &t;
  const auto* algo = find_permutation_algorithm("transpose");
  CHECK(algo->run(Machine(m), in, {}).stats.time_units == 2 * 10 + 2 * 8);
  m.k = 2;
  CHECK(algo->run(Machine(m), in, {}).stats.time_units == 2 * 10 + 2 * 4);
  // Shuffle on w = 1 (a tile is one cell): still one warp per cell, k = 2 DMMs.
  m.w = 1;
  const Permutation sh = named_permutation("shuffle", 8, 1);
  in.perm = &sh;
  const auto run = find_permutation_algorithm("shuffle")->run(Machine(m), in, {});
  CHECK(run.correct);
  CHECK(run.stats.time_units == 2 * (8 + 2) + 2 * 4);
}

TEST_CASE("row-wise and column-wise: 20 settings each") {
  for (const auto& s : settings()) {
    const auto m = machine_of(s);
    const std::uint64_t N = s.mult * static_cast<std::uint64_t>(s.w);
    const std::uint64_t n = N * N;
    const int pick = s.L % 3;
    const Permutation rows = pick == 0   ? named_permutation("random", n, 7)
                             : pick == 1 ? row_keeping(N)
                                         : named_permutation("identical", n, 1);
    const Permutation cols = pick == 0   ? named_permutation("random", n, 8)
                             : pick == 1 ? column_keeping(N)
                                         : named_permutation("identical", n, 1);
    check_run("row-wise", rows, m, kRow);
    check_run("column-wise", cols, m, kColumn);
  }
}

TEST_CASE("scheduled: 20 settings, named, random and arbitrary permutations") {
  int i = 0;
  for (const auto& s : settings()) {
    const auto m = machine_of(s);
    const std::uint64_t N = s.mult * static_cast<std::uint64_t>(s.w);
    const std::uint64_t n = N * N;
    const bool pow2 = (n & (n - 1)) == 0;
    std::vector<Permutation> perms{named_permutation("random", n, 11 + static_cast<std::uint64_t>(i))};
    switch (i++ % 4) {
      case 0:
        perms.push_back(named_permutation("identical", n, 1));
        break;
      case 1:
        perms.push_back(named_permutation("transpose", n, 1));
        break;
      case 2:
        if (pow2) perms.push_back(named_permutation("bit-reversal", n, 1));
        break;
      default: {
        Permutation rev{"reversal", std::vector<Word>(n)};
        for (std::uint64_t x = 0; x < n; ++x) rev.p[x] = static_cast<Word>(n - 1 - x);
        perms.push_back(rev);
        if (pow2) perms.push_back(named_permutation("shuffle", n, 1));
      }
    }
    for (const auto& p : perms) check_run("scheduled", p, m, kScheduled);
  }
}

TEST_CASE("scheduled-fused: 20 settings, rows per block 1 to 8, output checked, reads coalesced") {
  int i = 0;
  for (const auto& s : settings()) {
    const auto m = machine_of(s);
    const std::uint64_t N = s.mult * static_cast<std::uint64_t>(s.w), n = N * N;
    const Permutation perms[] = {named_permutation("random", n, 5 + static_cast<std::uint64_t>(i++)),
                                 named_permutation("transpose", n, 1)};
    for (const std::uint32_t rows : {0u, 1u, 2u, 8u}) {
      if (rows != 0 && N % rows != 0) continue;
      for (const Permutation& p : perms) {
        CAPTURE(m.w);
        CAPTURE(N);
        CAPTURE(rows);
        CAPTURE(p.name);
        PermutationInput in;
        in.perm = &p;
        in.block_rows = rows;
        const PermutationAlgorithm* algo = find_permutation_algorithm("scheduled-fused");
        algo->check(m, in);
        const Machine machine(m);
        const RunReport sync = algo->run(machine, in, {Execution::RoundSynchronous, false});
        CHECK(sync.correct);
        const std::uint32_t R = rows != 0 ? rows : offline::fused_rows_per_block(N, 4);
        // Three kernels of five rounds: chunk, q and the gather read; alpha and the output written.
        REQUIRE(sync.stats.rounds.size() == 15);
        for (std::size_t r = 0; r < sync.stats.rounds.size(); ++r) {
          const auto& round = sync.stats.rounds[r];
          CAPTURE(r);
          if (round.memory == Space::Global && round.op == Op::Read) CHECK(round.slots == round.warps);
          if (r % 5 == 1) CHECK(round.bank_conflicts == 0);  // alpha written in order
          // The first two kernels write each block transposed: a warp's w cells are w / R runs of
          // R cells, each in one address group; the third writes rows.
          if (r % 5 == 4) CHECK(round.slots == round.warps * (r < 10 ? std::max<std::uint64_t>(1, s.w / R) : 1));
        }
        const RunReport async = algo->run(machine, in, {Execution::Asynchronous, false});
        CHECK(async.correct);
        CHECK(async.stats.time_units <= sync.stats.time_units);
      }
    }
  }
}

TEST_CASE("fused gather tables and rows per block, by hand") {
  // N = 4: row r sends column j to (j + r) mod 4. Blocks of R = 2 rows, written transposed:
  // entry b 8 + c 2 + rr is the source column of output column c in row 2 b + rr.
  std::vector<Word> dest(16);
  for (Word r = 0; r < 4; ++r)
    for (Word j = 0; j < 4; ++j) dest[r * 4 + j] = (j + r) % 4;
  const std::vector<Word> q = offline::fused_gather_table(dest, 4, 2);
  CHECK(q == std::vector<Word>{0, 3, 1, 0, 2, 1, 3, 2, 2, 1, 3, 2, 0, 3, 1, 0});
  // R = 1: row by row, entry r 4 + c.
  CHECK(offline::fused_gather_table(dest, 4, 1) == std::vector<Word>{0, 1, 2, 3, 3, 0, 1, 2, 2, 3, 0, 1, 1, 2, 3, 0});
  CHECK_THROWS_AS(offline::fused_gather_table(dest, 4, 3), std::invalid_argument);
  // At most 8 rows in 128 KiB: 8 rows of 4096 floats fit; of 8192 floats, 4; of 8192 doubles, 2;
  // and the rows divide N (N = 12: 4).
  CHECK(offline::fused_rows_per_block(4096, 4) == 8);
  CHECK(offline::fused_rows_per_block(8192, 4) == 4);
  CHECK(offline::fused_rows_per_block(8192, 8) == 2);
  CHECK(offline::fused_rows_per_block(12, 4) == 4);
  CHECK(offline::fused_rows_per_block(65536, 8) == 1);
}

TEST_CASE("wrong permutations and shapes are refused with InputError") {
  MachineParams m;
  m.w = 8;
  const auto refuse = [&](const std::string& algorithm, const Permutation& p) {
    CAPTURE(algorithm);
    PermutationInput in;
    in.perm = &p;
    CHECK_THROWS_AS(find_permutation_algorithm(algorithm)->check(m, in), InputError);
  };
  refuse("transpose", named_permutation("shuffle", 4096, 1));
  refuse("shuffle", named_permutation("transpose", 4096, 1));
  refuse("bit-reversal", named_permutation("identical", 4096, 1));
  refuse("shuffle", named_permutation("shuffle", 32, 1));       // n < w^2
  refuse("transpose", named_permutation("transpose", 144, 1));  // sqrt(n) = 12 not a multiple of 8
  refuse("row-wise", named_permutation("transpose", 4096, 1));  // moves elements between rows
  refuse("column-wise", named_permutation("shuffle", 4096, 1));
  refuse("scheduled", named_permutation("random", 2048, 1));  // not a perfect square
  refuse("scheduled-fused", named_permutation("random", 2048, 1));
  {
    const Permutation p = named_permutation("random", 4096, 1);  // sqrt(n) = 64
    PermutationInput in;
    in.perm = &p;
    for (const std::uint32_t rows : {3u, 128u}) {
      in.block_rows = rows;
      CHECK_THROWS_AS(find_permutation_algorithm("scheduled-fused")->check(m, in), InputError);
    }
  }
  m.w = 12;
  refuse("shuffle", named_permutation("shuffle", 4096, 1));  // w not a power of two
  m.w = 8;
  m.model = ModelKind::Umm;
  refuse("scheduled", named_permutation("random", 4096, 1));
  m.model = ModelKind::Hmm;
  const Permutation p = named_permutation("transpose", 4096, 1);
  PermutationInput in;
  in.perm = &p;
  in.schedule_file = "x.sched";
  CHECK_THROWS_AS(find_permutation_algorithm("transpose")->check(m, in), InputError);
}

TEST_CASE("row schedules: conflict-free tables that perform the row permutation") {
  for (const int w : {1, 2, 4, 8, 32}) {
    for (const std::uint64_t mult : {1u, 3u, 4u}) {
      const std::uint64_t N = mult * static_cast<std::uint64_t>(w);
      Rng rng(N);
      std::vector<Word> rows(N * N);
      for (std::uint64_t r = 0; r < N; ++r) {
        std::iota(rows.begin() + static_cast<std::ptrdiff_t>(r * N),
                  rows.begin() + static_cast<std::ptrdiff_t>((r + 1) * N), Word{0});
        rng.shuffle(std::span<Word>(rows.data() + r * N, N));
      }
      const auto s = offline::row_schedule(rows, N, w);
      std::string why;
      const auto performed = offline::row_schedule_permutation(s, why);
      REQUIRE_MESSAGE(performed.has_value(), why);
      CHECK(*performed == rows);
    }
  }
}

TEST_CASE("three-step schedule composes to P, also for sqrt(n) not a power of two") {
  for (const auto& [n, w] : std::vector<std::pair<std::uint64_t, int>>{{9216, 32}, {144, 4}, {4096, 8}, {576, 8}}) {
    const Permutation p = named_permutation("random", n, n);
    const auto s = offline::three_step_schedule(p.p, w);
    std::string why;
    const auto composed = offline::composed_permutation(s, why);
    REQUIRE_MESSAGE(composed.has_value(), why);
    CHECK(*composed == p.p);
  }
}
