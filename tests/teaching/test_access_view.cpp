// `mmsim access` explained: each request's bank or group, its slot, the merges, and what sets a
// warp's slots (KNI Sect. 2 Fig. 2, NMI Sect. II), for accesses given by warps, by expression and
// through layouts.
#include <doctest/doctest.h>

#include "io/input_error.h"
#include "teaching/access.h"
#include "teaching/layout_view.h"
#include "teaching/posed_access.h"

using namespace mmsim;
using namespace mmsim::teaching;

namespace {
MachineParams dmm(int w, int l) { return {.model = ModelKind::Dmm, .w = w, .l = l}; }
MachineParams umm(int w, int l) { return {.model = ModelKind::Umm, .w = w, .l = l}; }
const std::vector<std::vector<Address>> kFig2{{7, 5, 15, 0}, {10, 11, 12, 9}};
}  // namespace

TEST_CASE("KNI Fig. 2 on the DMM: 7 time units; W(0)'s congestion 2 is set by bank 3 (m[7], m[15])") {
  const auto r = simulate_access(dmm(4, 5), kFig2);
  CHECK(r.time_units == 7);
  REQUIRE(r.views.size() == 2);
  const auto& v = r.views[0];
  CHECK(v.slots == 2);
  CHECK(v.congestion == 2);
  CHECK(v.congested_banks == std::vector<std::uint64_t>{3});
  std::vector<int> per_bank;
  for (const auto& [b, n] : v.per_unit) per_bank.push_back(n);
  CHECK(per_bank == std::vector<int>{1, 1, 0, 2});
  // Thread order is kept; m[15] (thread 2) is the second distinct address of bank 3: slot 1.
  std::vector<int> slots;
  std::vector<std::uint64_t> banks;
  for (const auto& t : v.threads) slots.push_back(t.slot), banks.push_back(t.unit);
  CHECK(slots == std::vector<int>{0, 0, 1, 0});
  CHECK(banks == std::vector<std::uint64_t>{3, 1, 3, 0});
  CHECK(r.views[1].congestion == 1);
}

TEST_CASE("KNI Fig. 2 on the UMM: 9 time units; W(0) touches groups 1, 3, 0 in that order") {
  const auto r = simulate_access(umm(4, 5), kFig2);
  CHECK(r.time_units == 9);
  const auto& v = r.views[0];
  CHECK(v.slots == 3);
  REQUIRE(v.per_unit.size() == 3);
  CHECK(v.per_unit[0] == std::pair<std::uint64_t, int>{1, 2});
  CHECK(v.per_unit[1] == std::pair<std::uint64_t, int>{3, 1});
  CHECK(v.per_unit[2] == std::pair<std::uint64_t, int>{0, 1});
  std::vector<int> slots;
  for (const auto& t : v.threads) slots.push_back(t.slot);
  CHECK(slots == std::vector<int>{0, 0, 1, 2});
}

TEST_CASE("equal addresses merge: the later thread is marked with the first, and counts once") {
  const auto r = simulate_access(dmm(4, 1), {{5, 1, 5, kNoAddress}});
  const auto& v = r.views[0];
  CHECK(v.slots == 2);  // m[5] and m[1] share bank 1; the second m[5] adds nothing
  CHECK_FALSE(v.threads[0].merged_with.has_value());
  REQUIRE(v.threads[2].merged_with.has_value());
  CHECK(*v.threads[2].merged_with == 0);
  CHECK(v.threads[3].slot == -1);
  CHECK(v.per_unit[1].second == 2);  // m[5] and m[1] in bank 1: two distinct, not three
}

TEST_CASE("the text keeps thread order in the slot table, where the engine's slot is in bank order") {
  const auto text = diagram(simulate_access(dmm(4, 5), kFig2));
  CHECK(text.find("W0a         0          4  m[7] m[5] m[0]") != std::string::npos);
  CHECK(text.find("congestion 2, set by bank 3 (m[7], m[15])") != std::string::npos);
  CHECK(text.find("2 warps, 3 slots, 7 time units") != std::string::npos);
}

TEST_CASE("--warp: exactly w fields, _ (or the older -) for an inactive thread; empty or missing fields refused") {
  const auto p = pose_warps({"7,_,15, -"}, 4);
  CHECK(p.warps[0] == std::vector<Address>{7, kNoAddress, 15, kNoAddress});
  CHECK_THROWS_AS(pose_warps({"7,5,15"}, 4), InputError);      // a missing thread
  CHECK_THROWS_AS(pose_warps({"7,5,,0"}, 4), InputError);      // a doubled comma
  CHECK_THROWS_AS(pose_warps({"7,5,15,0,"}, 4), InputError);   // a trailing comma
  CHECK_THROWS_AS(pose_warps({"7,5,15,0,1"}, 4), InputError);  // more than w
  CHECK_THROWS_AS(pose_warps({"7,5,-3,0"}, 4), InputError);
  CHECK_THROWS_AS(pose_warps({"7,5,16777216,0"}, 4), InputError);
}

TEST_CASE("--addr 't*33' with w = 32: 1 slot on the DMM (33 t mod 32 = t), 32 on the UMM") {
  const auto p = pose_addresses("t*33", 32, 32);
  CHECK(simulate_access(dmm(32, 1), p.warps).slots[0] == 1);
  CHECK(simulate_access(umm(32, 1), p.warps).slots[0] == 32);
  const auto s = pose_addresses("(t%w)*w + t/w", 4, 16);
  REQUIRE(s.warps.size() == 4);
  CHECK(s.warps[1] == std::vector<Address>{1, 5, 9, 13});
  CHECK(simulate_access(dmm(4, 1), s.warps).slots == std::vector<int>{4, 4, 4, 4});
}

TEST_CASE("--addr: _ and negative values are inactive; a last warp may be partial") {
  const auto p = pose_addresses("t < 2 ? t : t == 2 ? -1 : _", 4, 6);
  REQUIRE(p.warps.size() == 2);
  CHECK(p.warps[0] == std::vector<Address>{0, 1, kNoAddress, kNoAddress});
  CHECK(p.warps[1].size() == 2);
  CHECK_THROWS_AS(pose_addresses("t*", 4, 4), InputError);
  CHECK_THROWS_AS(pose_addresses("t/0", 4, 4), InputError);
  CHECK_THROWS_AS(pose_addresses("t << 30", 4, 4), InputError);  // above 2^24 - 1
  CHECK_THROWS_AS(pose_addresses("t", 4, 0), InputError);
}

TEST_CASE("--element-bytes, --vector, --op: one rule for mmsim access and the explorer") {
  const auto add = pose_shape(4, 1, "atomic-add");
  CHECK(add.op == Op::Atomic);
  CHECK(add.shape.atomic == AtomicOp::Add);
  const auto float4 = pose_shape(4, 4, "read");
  CHECK(float4.op == Op::Read);
  CHECK(float4.shape.bytes() == 16);
  CHECK_THROWS_AS(pose_shape(4, 1, "add"), InputError);
  CHECK_THROWS_AS(pose_shape(8, 1, "atomic-add"), InputError);  // an atomic updates one 4-byte word
  CHECK_THROWS_AS(pose_shape(8, 4, "read"), InputError);        // 32 bytes a thread
  CHECK(std::holds_alternative<std::string>(parse_integer("3", access_element_bytes_param())));
  CHECK(std::holds_alternative<std::string>(parse_integer("8", access_vector_param())));
  CHECK_THROWS_AS(check_vector_alignment(pose_addresses("t*2", 4, 4), float4.shape), InputError);
  CHECK_NOTHROW(check_vector_alignment(pose_addresses("t*4", 4, 4), float4.shape));
}

TEST_CASE("--cell through xor: the main diagonal (t, t) falls into bank 0 for every thread") {
  const auto p = pose_cells("xor", "t, t", 8, 8, 1);
  const auto r = simulate_access(dmm(8, 1), p.warps, p.cells);
  CHECK(r.slots[0] == 8);
  CHECK(r.views[0].congested_banks == std::vector<std::uint64_t>{0});
  CHECK(r.views[0].threads[3].cell == std::vector<std::int64_t>{3, 3});
}

TEST_CASE("--cell through raw: a column (stride) has congestion w; through rap it has 1 (NMI Sect. IV)") {
  const auto raw = pose_cells("raw", "t, 0", 16, 16, 1);
  CHECK(simulate_access(dmm(16, 1), raw.warps).slots[0] == 16);
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto rap = pose_cells("rap", "t, 5", 16, 16, seed);
    CHECK(simulate_access(dmm(16, 1), rap.warps).slots[0] == 1);
    const auto row = pose_cells("rap", "5, t", 16, 16, seed);
    CHECK(simulate_access(dmm(16, 1), row.warps).slots[0] == 1);
  }
  const auto pad = pose_cells("pad", "t, 3", 16, 16, 1);
  CHECK(simulate_access(dmm(16, 1), pad.warps).slots[0] == 1);
}

TEST_CASE("--cell: four coordinates take a w^4 scheme; a cell outside the array is refused") {
  const auto p = pose_cells("1p", "0, 0, t, 2", 4, 4, 1);  // stride1 under 1p: distinct banks
  CHECK(simulate_access(dmm(4, 1), p.warps).slots[0] == 1);
  CHECK_THROWS_AS(pose_cells("1p", "t, t", 4, 4, 1), InputError);  // 1p has no w x w matrix
  CHECK_THROWS_AS(pose_cells("raw", "t, 4", 4, 4, 1), InputError);
  CHECK_THROWS_AS(pose_cells("raw", "t, t, t", 4, 4, 1), InputError);
  const auto idle = pose_cells("raw", "t, t == 1 ? _ : 0", 4, 4, 1);
  CHECK(idle.warps[0][1] == kNoAddress);
}

TEST_CASE("layouts: raw puts cell (i, j) in bank j, pad in (i + j) mod w, xor in j ^ i") {
  const DrawnLayout raw("raw", 2, 8, 1), pad("pad", 2, 8, 1), x("xor", 2, 8, 1);
  for (std::uint32_t i = 0; i < 8; ++i)
    for (std::uint32_t j = 0; j < 8; ++j) {
      const std::uint32_t c[2] = {i, j};
      CHECK(raw.bank(c) == j);
      CHECK(pad.bank(c) == (i + j) % 8);
      CHECK(x.bank(c) == (i ^ j));
    }
}

TEST_CASE("layouts: every row and every column of rap holds each bank once; a seed gives one draw") {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const DrawnLayout l("rap", 2, 16, seed);
    for (std::uint32_t a = 0; a < 16; ++a) {
      std::vector<int> row(16, 0), col(16, 0);
      for (std::uint32_t b = 0; b < 16; ++b) {
        const std::uint32_t r[2] = {a, b}, c[2] = {b, a};
        ++row[l.bank(r)], ++col[l.bank(c)];
      }
      CHECK(row == std::vector<int>(16, 1));
      CHECK(col == std::vector<int>(16, 1));
    }
    CHECK(DrawnLayout("rap", 2, 16, seed).describe() == l.describe());
  }
  CHECK(DrawnLayout("rap", 2, 16, 1).describe() != DrawnLayout("rap", 2, 16, 2).describe());
}

TEST_CASE("layouts: every w^4 scheme keeps a[i][j][k][*] a permutation of the banks; names are checked") {
  for (const char* name : {"raw", "ras", "1p", "r1p", "3p", "w2p", "1pw2r"}) {
    const DrawnLayout l(name, 4, 4, 7);
    for (std::uint32_t i = 0; i < 4; ++i)
      for (std::uint32_t k = 0; k < 4; ++k) {
        std::vector<int> seen(4, 0);
        for (std::uint32_t q = 0; q < 4; ++q) {
          const std::uint32_t c[4] = {i, 1, k, q};
          ++seen[l.bank(c)];
        }
        CHECK(seen == std::vector<int>(4, 1));
      }
  }
  CHECK_THROWS_AS(DrawnLayout("rap", 4, 4, 1), InputError);
  CHECK_THROWS_AS(DrawnLayout("w2p", 2, 4, 1), InputError);
  CHECK_THROWS_AS(DrawnLayout("raw", 3, 4, 1), InputError);
  CHECK_THROWS_AS(DrawnLayout("raw", 2, 1, 1), InputError);
  CHECK_THROWS_AS(DrawnLayout("raw", 4, 65, 1), InputError);
}

TEST_CASE("layout views: the grid's rows are the banks of the rows; JSON carries the same numbers") {
  const DrawnLayout l("rap", 2, 4, 1);
  const auto text = layout_text(l, false);
  std::string row1 = "1 |";
  for (std::uint32_t j = 0; j < 4; ++j) {
    const std::uint32_t c[2] = {1, j};
    row1 += " " + std::to_string(l.bank(c));
  }
  CHECK(text.find(row1 + "\n") != std::string::npos);
  CHECK(text.find("\033[") == std::string::npos);
  CHECK(layout_text(l, true).find("\033[30;48;5;") != std::string::npos);
  CHECK(layout_json(l).dump().find("\"banks\"") != std::string::npos);
  const auto svg = layout_svg(l);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
}
