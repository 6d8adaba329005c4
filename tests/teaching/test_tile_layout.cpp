// Layouts of one's own (teaching/tile_layout.h): the five names as instances of the expression,
// CuTe and F2 languages, CuTe's swizzle and nested shapes worked by hand, the F2 rank's figure
// against the simulated congestion on random matrices, the tile view, and every refusal's rule.
#include <doctest/doctest.h>

#include <string>

#include "algorithms/bmmc/f2.h"
#include "io/input_error.h"
#include "teaching/layout_view.h"
#include "teaching/tile_layout.h"

using namespace mmsim;
using namespace mmsim::teaching;

namespace {

bool same_addresses(const MatrixTile& a, const MatrixTile& b) {
  for (std::uint32_t i = 0; i < a.w(); ++i)
    for (std::uint32_t j = 0; j < a.w(); ++j)
      if (a.address(i, j) != b.address(i, j)) return false;
  return true;
}

std::string refusal(const std::string& text, int w) {
  try {
    (void)parse_layout(text, w, 1);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// The bases of the xor layout: j's bits stay, i's bit k goes to address bit b + k and bank bit k.
std::string xor_bases(int b) {
  std::string s = "f2:";
  for (int k = 0; k < b; ++k) s += std::to_string(1 << k) + ",";
  for (int k = 0; k < b; ++k) s += std::to_string((1 << (b + k)) | (1 << k)) + (k + 1 < b ? "," : "");
  return s;
}

}  // namespace

TEST_CASE("the five names are instances: raw, pad and xor spelled as expressions, CuTe and F2 layouts") {
  for (int b : {2, 3, 5}) {
    const int w = 1 << b;
    const std::string W = std::to_string(w), W1 = std::to_string(w + 1), B = std::to_string(b);
    INFO("w = " << w);
    const auto raw = parse_layout("raw", w, 1);
    CHECK(raw.language() == LayoutLanguage::Named);
    CHECK(same_addresses(raw, parse_layout("i*w + j", w, 1)));
    CHECK(same_addresses(raw, parse_layout("(" + W + "," + W + "):(" + W + ",1)", w, 1)));
    std::string identity = "f2:";
    for (int k = 0; k < 2 * b; ++k) identity += std::to_string(1 << k) + (k + 1 < 2 * b ? "," : "");
    CHECK(same_addresses(raw, parse_layout(identity, w, 1)));
    const auto pad = parse_layout("pad", w, 1);
    CHECK(same_addresses(pad, parse_layout("i*(w+1) + j", w, 1)));
    CHECK(same_addresses(pad, parse_layout("(" + W + "," + W + "):(" + W1 + ",1)", w, 1)));
    CHECK(pad.pitch() == static_cast<std::uint64_t>(w + 1));
    CHECK(parse_layout("i*(w+1) + j", w, 1).pitch() == static_cast<std::uint64_t>(w + 1));
    const auto x = parse_layout("xor", w, 1);
    CHECK(same_addresses(x, parse_layout("i*w + (j ^ i)", w, 1)));
    CHECK(
        same_addresses(x, parse_layout("Swizzle<" + B + ",0," + B + "> o (" + W + "," + W + "):(" + W + ",1)", w, 1)));
    CHECK(same_addresses(
        x, parse_layout("Sw<" + B + ",0," + B + "> o _0 o (_" + W + ",_" + W + "):(_" + W + ",_1)", w, 1)));
    CHECK(same_addresses(x, parse_layout(xor_bases(b), w, 1)));
    CHECK(x.pitch() == static_cast<std::uint64_t>(w));
  }
  // Not a power of two: the expression and CuTe spellings of pad still agree with the name.
  CHECK(same_addresses(parse_layout("pad", 6, 1), parse_layout("(6,6):(7,1)", 6, 1)));
}

TEST_CASE("CuTe by hand: column-major, nested modes (colexicographic), Swizzle<3,2,3>") {
  const auto cm = parse_layout("(8,8):(1,8)", 8, 1);
  CHECK(cm.address(3, 2) == 3 + 16);
  // Mode 0 (16,2):(66,33): i = i0 + 16 i1 -> 66 i0 + 33 i1.
  const auto nested = parse_cute("((16,2),32):((66,33),1)");
  CHECK(nested.offset(17, 5) == 66 * 1 + 33 * 1 + 5);
  CHECK(nested.offset(15, 0) == 66 * 15);
  // Swizzle<3,2,3> moves bits 5..7 onto bits 2..4: offset 32 (row 1) becomes 36, 8 * 32 + 4 = 260 stays
  // 260 ^ 0 (row 8: bits 5..7 are 0) and 3 * 32 + 9 = 105 becomes 105 ^ (3 << 2) = 101.
  const Swizzle z{3, 2, 3};
  CHECK(z.apply(32) == 36);
  CHECK(z.apply(256 + 4) == 260);
  CHECK(z.apply(105) == 101);
  CHECK(Swizzle{2, 0, -3}.apply(3) == (3 ^ (3 << 3)));
  const auto sw = parse_layout("Swizzle<3,2,3> o (32,32):(32,1)", 32, 1);
  CHECK(sw.language() == LayoutLanguage::Cute);
  CHECK(sw.address(1, 0) == 36);
}

TEST_CASE("F2: the congestion read off the rank equals the simulated one, on random invertible matrices") {
  Rng rng(2026);
  for (int b : {2, 3, 4, 5}) {
    const int w = 1 << b;
    for (int trial = 0; trial < 12; ++trial) {
      const f2::BitMatrix a = f2::random_invertible(2 * b, rng);
      std::string text = "f2:";
      for (int k = 0; k < 2 * b; ++k) text += std::to_string(a.column(k)) + (k + 1 < 2 * b ? "," : "");
      INFO(text);
      const DrawnLayout l(text, 2, w, 1);
      const auto acc = layout_accesses(l, AccessShape{});
      REQUIRE(acc.size() == 3);
      REQUIRE(acc[0].closed_form);
      REQUIRE(acc[1].closed_form);
      CHECK(static_cast<std::uint64_t>(acc[0].congestion) == *acc[0].closed_form);
      CHECK(static_cast<std::uint64_t>(acc[1].congestion) == *acc[1].closed_form);
      CHECK(!acc[2].closed_form);
    }
  }
  // Hand-worked: bank bits of i's bases 3, 6, 12, 24, 17 sum to 0, rank 4: a column meets 2 requests a bank.
  const auto c = f2_congestion(*parse_layout("f2:1,2,4,8,16,35,70,140,280,529", 32, 1).f2_matrix(), 32);
  CHECK(c.column_rank == 4);
  CHECK(c.column() == 2);
  CHECK(c.row() == 1);
}

TEST_CASE("the row, column and diagonal accesses of the named layouts, simulated") {
  const auto figures = [](const std::string& name, int w) {
    const DrawnLayout l(name, 2, w, 1);
    std::vector<int> out;
    for (const auto& a : layout_accesses(l, AccessShape{})) out.push_back(a.congestion);
    return out;
  };
  CHECK(figures("raw", 8) == std::vector<int>{1, 8, 1});
  CHECK(figures("pad", 8) == std::vector<int>{1, 1, 2});
  CHECK(figures("xor", 8) == std::vector<int>{1, 1, 8});
  CHECK(figures("rap", 8)[1] == 1);
  // Swizzle<3,2,3> keeps 4-float chunks together: a float column meets 4 requests a bank, a float4 column
  // is served in the 4 wavefronts a 512-byte warp needs at least.
  const DrawnLayout sw("Swizzle<3,2,3> o (32,32):(32,1)", 2, 32, 1);
  CHECK(layout_accesses(sw, AccessShape{})[1].congestion == 4);
  const auto v4 = layout_accesses(sw, AccessShape{.element_bytes = 4, .vector = 4});
  CHECK(v4[1].congestion == 1);
  CHECK(v4[1].wavefronts == 4);
  CHECK_THROWS_AS(layout_accesses(DrawnLayout("pad", 2, 8, 1), AccessShape{.element_bytes = 4, .vector = 2}),
                  InputError);
}

TEST_CASE("the tile view: padding column, banks, one warp's cells marked") {
  const DrawnLayout pad("pad", 2, 4, 1);
  const std::vector<std::vector<std::int64_t>> column{{0, 1}, {1, 1}, {2, 1}, {3, 1}};
  CHECK(tile_text(pad, column, false, "column 1") ==
        "tile of pad (w x w matrix, w = 4): cell (i, j) shows its bank; [b] marks column 1; column 4 is padding\n"
        "  | 0  1  2  3  | p \n"
        "--+-----------------\n"
        "0 | 0 [1] 2  3  | 0 \n"
        "1 | 1 [2] 3  0  | 1 \n"
        "2 | 2 [3] 0  1  | 2 \n"
        "3 | 3 [0] 1  2  | 3 \n");
  const std::string svg = tile_svg(pad, column, "column 1");
  CHECK(svg.find("padding, bank 0") != std::string::npos);
  CHECK(svg.find("cell (2, 1), bank 3, thread 2") != std::string::npos);
}

TEST_CASE("refusals name the rule in one line") {
  CHECK(refusal("(32,16):(1,32)", 32).find("the CuTe shape has size 32 x 16, not w x w = 32 x 32") !=
        std::string::npos);
  CHECK(refusal("f2:1,2,4,8,16,1", 8).find("the F2 matrix is singular (rank 5 of 6): cells (0, 0) and (4, 1)") !=
        std::string::npos);
  CHECK(refusal("(8,8):(1,8", 8).find("at column 11") != std::string::npos);
  CHECK(refusal("Swizzle<3,2,2> o (8,8):(8,1)", 8).find("|S| >= B") != std::string::npos);
  CHECK(refusal("(8,8):(8,(1,2))", 8).find("not congruent") != std::string::npos);
  CHECK(refusal("8:1", 8).find("two modes") != std::string::npos);
  CHECK(refusal("i*w", 8).find("cells (0, 0) and (0, 1) both map to address 0") != std::string::npos);
  CHECK(refusal("i*8 + j - 1", 8).find("below 0") != std::string::npos);
  CHECK(refusal("swizzle", 8).find("unknown 'swizzle'") != std::string::npos);
  CHECK(refusal("f2:1,2,4", 6).find("w a power of two") != std::string::npos);
  CHECK(refusal("f2:1,2,4,8,16", 8).find("has 6 bases") != std::string::npos);
  CHECK(refusal("f2:1,2,4,8,16,64", 8).find("not below w^2") != std::string::npos);
  CHECK(refusal("i*w + j", 2048).find("w <= 1024") != std::string::npos);
  CHECK(refusal("(j < 4) ? i*8 + j : _", 8).find("no address") != std::string::npos);
}
