// The GPU kernels' index arithmetic, run on the CPU: the tile maps of the in-place permutations
// (KNI Sect. 5), the schedule of the scheduled permutation (Sects. 6-7) and its index arrays,
// each checked against the permutation it must perform and for coalescing / bank conflicts.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "algorithms/permutations/permutation.h"
#include "cuda/index.h"
#include "cuda/schedule.h"
#include "sim/random.h"

using namespace mmsim;
using namespace mmsim::gpu;

namespace {

TileMap make_map(TileKind kind, unsigned log_n) {
  TileMap m;
  m.kind = kind;
  m.log_n = log_n;
  m.side = 1u << (log_n / 2);
  return m;
}

const char* perm_name(TileKind k) {
  return k == TileKind::Transpose ? "transpose" : k == TileKind::Shuffle ? "shuffle" : "bit-reversal";
}

bool distinct_banks(const std::vector<std::uint32_t>& addr) {
  std::set<std::uint32_t> banks;
  for (auto a : addr) banks.insert(a % kW);
  return banks.size() == addr.size();
}

// Applies one row-wise step (rows of a side x side matrix; transposed: the rows are columns).
std::vector<std::uint32_t> apply_step(const std::vector<std::uint32_t>& m, const std::vector<std::uint32_t>& step,
                                      std::uint32_t side, bool transposed) {
  std::vector<std::uint32_t> out(m.size(), ~0u);
  const auto p = step_permutation(step, side, transposed);
  for (std::size_t x = 0; x < m.size(); ++x) out[p[x]] = m[x];
  return out;
}

}  // namespace

TEST_CASE("reverse_bits reverses the low bits") {
  CHECK(reverse_bits(0b00001u, 5) == 0b10000u);
  CHECK(reverse_bits(0b10110u, 5) == 0b01101u);
  CHECK(reverse_bits(7, 0) == 0);
  CHECK(reverse_bits(1, 32) == 0x80000000u);
}

TEST_CASE("the diagonal arrangement is a bijection of the tile") {
  std::set<std::uint32_t> seen;
  for (std::uint32_t e = 0; e < kTile; ++e) seen.insert(diagonal(e));
  CHECK(seen.size() == kTile);
  CHECK(*seen.rbegin() == kTile - 1);
}

TEST_CASE("tile maps perform their permutation, coalesced and conflict-free") {
  for (TileKind kind : {TileKind::Transpose, TileKind::Shuffle, TileKind::BitReversal})
    for (unsigned log_n : {10u, 12u, 14u, 16u}) {
      CAPTURE(perm_name(kind));
      CAPTURE(log_n);
      const TileMap m = make_map(kind, log_n);
      const std::uint64_t n = std::uint64_t{1} << log_n;
      const Permutation P = named_permutation(perm_name(kind), n, 1);
      REQUIRE(m.blocks() * kTile == n);
      std::vector<std::uint8_t> read(n, 0), written(n, 0);
      bool ok = true, coalesced = true, conflict_free = true;
      for (std::uint32_t blk = 0; blk < m.blocks(); ++blk) {
        for (std::uint32_t o = 0; o < kTile; ++o) {
          const std::uint32_t src = m.source(blk, m.gather(o)), dst = m.destination(blk, o);
          ok = ok && P.p[src] == dst;
          read[m.source(blk, o)]++;
          written[dst]++;
        }
        for (std::uint32_t warp = 0; warp < kTile / kW; ++warp) {
          std::vector<std::uint32_t> s1, s2;
          const std::uint32_t a0 = m.source(blk, warp * kW), b0 = m.destination(blk, warp * kW);
          for (std::uint32_t t = 0; t < kW; ++t) {
            const std::uint32_t e = warp * kW + t;
            coalesced = coalesced && m.source(blk, e) == a0 + t && m.destination(blk, e) == b0 + t;
            s1.push_back(diagonal(e));
            s2.push_back(diagonal(m.gather(e)));
          }
          conflict_free = conflict_free && distinct_banks(s1) && distinct_banks(s2);
        }
      }
      CHECK(ok);
      CHECK(coalesced);
      CHECK(conflict_free);
      CHECK(std::all_of(read.begin(), read.end(), [](auto c) { return c == 1; }));
      CHECK(std::all_of(written.begin(), written.end(), [](auto c) { return c == 1; }));
    }
}

TEST_CASE("the three-step schedule performs the permutation and its index arrays are right") {
  for (std::uint32_t side : {32u, 64u, 128u})
    for (const char* name : {"identical", "random", "transpose", "shuffle", "bit-reversal"}) {
      CAPTURE(side);
      CAPTURE(name);
      const std::uint64_t n = std::uint64_t{side} * side;
      const Permutation P = named_permutation(name, n, 3);
      const OfflineSchedule s = make_offline_schedule(P.p, side);
      // The three steps, applied to cell labels, move every cell x to P(x).
      std::vector<std::uint32_t> m(n);
      for (std::uint64_t x = 0; x < n; ++x) m[x] = static_cast<std::uint32_t>(x);
      m = apply_step(m, s.step[0], side, false);
      m = apply_step(m, s.step[1], side, true);
      m = apply_step(m, s.step[2], side, false);
      bool ok = true;
      for (std::uint64_t x = 0; x < n; ++x) ok = ok && m[P.p[x]] == x;
      CHECK(ok);

      // The paper's s and d (the offline builder's S/D tables): P(s) = d per slot, and each warp reads
      // and writes 32 distinct banks; rebuilt from the row form alone they are the same tables.
      for (int k = 0; k < 3; ++k) {
        const BankSchedule& b = s.bank[k];
        const BankSchedule again = bank_schedule(s.step[k], side);
        CHECK(again.s == b.s);
        CHECK(again.d == b.d);
        bool maps = true, cf = true;
        for (std::uint64_t row = 0; row < side; ++row)
          for (std::uint32_t w0 = 0; w0 < side; w0 += kW) {
            std::vector<std::uint32_t> rs, ws;
            for (std::uint32_t t = w0; t < w0 + kW; ++t) {
              const std::uint64_t slot = row * side + t;
              maps = maps && s.step[k][row * side + b.s[slot]] == b.d[slot];
              rs.push_back(b.s[slot]);
              ws.push_back(b.d[slot]);
            }
            cf = cf && distinct_banks(rs) && distinct_banks(ws);
          }
        CHECK(maps);
        CHECK(cf);
      }

      // The fused kernels emulated on the host: rows per block R, transposed writes, gather reads.
      for (std::uint32_t R : {1u, 4u, 8u}) {
        const std::vector<std::uint16_t> q0 = gather_schedule(s.step[0], side, R),
                                         q1 = gather_schedule(s.step[1], side, R),
                                         q2 = gather_schedule(s.step[2], side, 1);
        std::vector<std::uint32_t> a(n), t1(n, ~0u), t2(n, ~0u), b(n, ~0u);
        for (std::uint64_t x = 0; x < n; ++x) a[x] = static_cast<std::uint32_t>(x);
        const auto transposed_kernel = [&](const std::vector<std::uint32_t>& in, std::vector<std::uint32_t>& out,
                                           const std::vector<std::uint16_t>& q) {
          for (std::uint32_t blk = 0; blk < side / R; ++blk)
            for (std::uint32_t t = 0; t < R * side; ++t) {
              const std::uint32_t c = t / R, rr = t % R, r0 = blk * R;
              out[std::uint64_t{c} * side + r0 + rr] =
                  in[std::uint64_t{r0 + rr} * side + q[std::uint64_t{r0} * side + t]];
            }
        };
        transposed_kernel(a, t1, q0);
        transposed_kernel(t1, t2, q1);
        for (std::uint64_t x = 0; x < n; ++x) b[x] = t2[(x / side) * side + q2[x]];
        bool fused = true;
        for (std::uint64_t x = 0; x < n; ++x) fused = fused && b[P.p[x]] == x;
        CHECK(fused);
      }
    }
  CHECK_THROWS(make_offline_schedule(std::vector<std::uint32_t>(48 * 48, 0), 48));
  std::vector<std::uint32_t> dup(32 * 32, 0);
  CHECK_THROWS(make_offline_schedule(dup, 32));
}

TEST_CASE("source values are distinct, finite and never the poison") {
  CHECK(source_bits32(0) == 0x3F800000u);
  CHECK(source_bits32((1u << 28) - 1) < 0x7F800000u);  // below +infinity
  CHECK(source_bits32(5) != 0xFFFFFFFFu);
  CHECK(source_bits64(1) != source_bits64(2));
}
