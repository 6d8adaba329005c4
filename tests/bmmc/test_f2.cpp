// F2 algebra, the text format, tiled BMMCs and their factorisation (BDS Sect. 3, 5).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "algorithms/bmmc/f2.h"
#include "algorithms/bmmc/tiled.h"
#include "io/input_error.h"

using namespace mmsim;
using namespace mmsim::f2;

namespace {

bool is_permutation_matrix(const BitMatrix& a) { return bit_permutation(a).has_value(); }

std::string error_of(const std::string& text) {
  try {
    parse_bmmc(text, "--matrix m.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A matrix file of `bits` rows as a user would write it: identity plus an all-ones complement.
std::string matrix_file(int bits, const std::string& name) {
  const std::string path = (std::filesystem::temp_directory_path() / ("mmsim_test_f2_" + name)).string();
  std::ofstream(path) << "# " << bits << "-bit identity with every bit complemented\n"
                      << to_text(Bmmc{BitMatrix::identity(bits), low_bits(bits)});
  return path;
}

std::string file_error_of(const std::string& path) {
  try {
    read_bmmc_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("deposit and extract are inverse on the mask") {
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    const BitVector mask = rng.next(), x = rng.next();
    const int bits = __builtin_popcountll(mask);
    CHECK(deposit(extract(x, mask), mask) == (x & mask));
    CHECK(extract(deposit(x, mask), mask) == (x & low_bits(bits)));
  }
  CHECK(deposit(0b101, 0b11010) == 0b10010);
  CHECK(extract(0b10010, 0b11010) == 0b101);
}

TEST_CASE("product acts as composition and inverse undoes it") {
  Rng rng(5);
  for (int n : {1, 2, 3, 7, 16, 31, 63, 64}) {
    for (int trial = 0; trial < 10; ++trial) {
      const BitMatrix a = random_invertible(n, rng), b = random_invertible(n, rng);
      const BitVector x = rng.next() & low_bits(n);
      CHECK((a * b).apply(x) == a.apply(b.apply(x)));
      const auto ai = inverse(a);
      REQUIRE(ai);
      CHECK(a * *ai == BitMatrix::identity(n));
      CHECK(*ai * a == BitMatrix::identity(n));
      CHECK(rank(a) == n);
      CHECK(a.transposed().transposed() == a);
      CHECK(rank(a.transposed()) == n);
    }
  }
}

TEST_CASE("rank of singular matrices") {
  BitMatrix a = BitMatrix::from_rows({0b011, 0b110, 0b101});  // rows sum to zero
  CHECK(rank(a) == 2);
  CHECK_FALSE(inverse(a));
  CHECK(rank(BitMatrix(5)) == 0);
  Rng rng(9);
  BitMatrix b = random_invertible(12, rng);
  b.set_row(7, b.row(2) ^ b.row(11));
  CHECK(rank(b) == 11);
  CHECK_THROWS_AS(ulp(b), std::invalid_argument);
}

TEST_CASE("ULP and LUP factorisations reconstruct random invertible matrices") {
  Rng rng(11);
  for (int n = 1; n <= 64; n += (n < 12 ? 1 : 9)) {
    for (int trial = 0; trial < 20; ++trial) {
      const BitMatrix a = random_invertible(n, rng);
      const Ulp f = ulp(a);
      CHECK(is_upper_unit_triangular(f.u));
      CHECK(is_lower_unit_triangular(f.l));
      CHECK(is_permutation_matrix(f.p));
      CHECK(f.u * f.l * f.p == a);
      const Lup g = lup(a);
      CHECK(is_lower_unit_triangular(g.l));
      CHECK(is_upper_unit_triangular(g.u));
      CHECK(is_permutation_matrix(g.p));
      CHECK(g.l * g.u * g.p == a);
    }
  }
}

TEST_CASE("BPC detection") {
  Rng rng(13);
  for (int n : {1, 4, 10, 64}) {
    const Bmmc f = random_bpc(n, rng);
    const auto p = bit_permutation(f.a);
    REQUIRE(p);
    CHECK(permutation_matrix(*p) == f.a);
    // Output bit p[j] is input bit j.
    const BitVector x = rng.next() & low_bits(n);
    BitVector y = 0;
    for (int j = 0; j < n; ++j) y |= ((x >> j) & 1u) << (*p)[static_cast<std::size_t>(j)];
    CHECK(f.apply(x) == (y ^ f.c));
  }
  CHECK_FALSE(bit_permutation(parm_matrix(4, 3).a));
  CHECK_FALSE(bit_permutation(BitMatrix::from_rows({0b01, 0b01})));
}

TEST_CASE("named BMMCs match their definitions") {
  CHECK(bit_reversal(4).apply(7) == 14);  // BDS Sect. 1: bit-rev(4, 7) = 14
  CHECK(transpose(2, 2).apply(6) == 9);   // BDS Sect. 3: 0b0110 -> 0b1001
  for (int rows : {0, 1, 3}) {
    for (int cols : {1, 2, 4}) {
      const Bmmc t = transpose(rows, cols);
      for (BitVector i = 0; i < (BitVector{1} << rows); ++i)
        for (BitVector j = 0; j < (BitVector{1} << cols); ++j)
          CHECK(t.apply(i * (1u << cols) + j) == j * (1u << rows) + i);
    }
  }
  const int n = 6;
  for (BitVector x = 0; x < 64; ++x) {
    CHECK(shuffle(n).apply(x) == (((x << 1) | (x >> (n - 1))) & 63));  // KNI Sect. 4
    CHECK(unshuffle(n).apply(shuffle(n).apply(x)) == x);
    CHECK(complement(n, 63).apply(x) == 63 - x);  // array reversal
    CHECK(rotate_left(n, 2).apply(x) == (((x << 2) | (x >> 4)) & 63));
    BitVector rev = 0;
    for (int b = 0; b < n; ++b) rev |= ((x >> b) & 1u) << (n - 1 - b);
    CHECK(bit_reversal(n).apply(x) == rev);
  }
  CHECK_THROWS_AS(complement(3, 8), std::invalid_argument);
  CHECK_THROWS_AS(bpc({0, 0}, 0), std::invalid_argument);
}

TEST_CASE("parm matrices: BDS Fig. 14 and Sect. 3, and their defining property") {
  // Fig. 14: n = 3, mask = 0b110, rows written with column 0 first.
  CHECK(parm_matrix(3, 0b110).a == BitMatrix::from_rows({0b001, 0b100, 0b110}));
  // Sect. 3: parm 0b0011.
  CHECK(parm_matrix(4, 0b0011).a == BitMatrix::from_rows({0b0010, 0b0100, 0b1000, 0b0011}));
  CHECK(parm_matrix(5, 0b10000) == identity(5));
  Rng rng(17);
  for (int n : {1, 2, 5, 8}) {
    for (int trial = 0; trial < 10; ++trial) {
      const BitVector mask = 1 + rng.below(low_bits(n));
      const Bmmc a = parm_matrix(n, mask);
      REQUIRE(invertible(a.a));
      // Sub-array 0 fills the first half in index order, sub-array 1 the second half.
      BitVector next[2] = {0, BitVector{1} << (n - 1)};
      for (BitVector x = 0; x < (BitVector{1} << n); ++x) CHECK(a.apply(x) == next[dot(x, mask)]++);
    }
  }
  CHECK_THROWS_AS(parm_matrix(3, 0), std::invalid_argument);
  CHECK_THROWS_AS(parm_matrix(3, 8), std::invalid_argument);
}

TEST_CASE("composition and inverse of BMMCs") {
  Rng rng(19);
  for (int n : {3, 9, 20, 64}) {
    const Bmmc f = random_bmmc(n, rng), g = random_bmmc(n, rng);
    const Bmmc fg = compose(f, g);
    for (int i = 0; i < 20; ++i) {
      const BitVector x = rng.next() & low_bits(n);
      CHECK(fg.apply(x) == f.apply(g.apply(x)));
      CHECK(inverse(f).apply(f.apply(x)) == x);
    }
    CHECK(compose(inverse(f), f) == identity(n));
  }
}

TEST_CASE("text format round trip and comments") {
  Rng rng(23);
  for (int n : {1, 5, kMaxSimulatedBits}) {
    const Bmmc f = random_bmmc(n, rng);
    CHECK(parse_bmmc(to_text(f), "m") == f);
  }
  CHECK(parse_bmmc("# bit reversal\n001\n010\n100\n\n# complement\n101\n", "m") == Bmmc{bit_reversal(3).a, 0b101});
  CHECK(parse_bmmc("01\r\n10\r\n00\r\n", "m") == bit_reversal(2));
}

TEST_CASE("bad matrix files are refused with one line") {
  const std::vector<std::pair<std::string, std::string>> bad{
      {"", "no matrix rows"},
      {"01\n10\n", "expected 2 matrix rows and one complement line"},
      {"01\n10\n00\n00\n", "expected 2 matrix rows"},
      {"01\n1\n00\n", "line 2: expected 2 characters"},
      {"01\n1x\n00\n", "only 0 and 1"},
      {"11\n11\n00\n", "singular"},
      {std::string(65, '1') + "\n", "65 bits per row; the simulator runs at most 24"},
  };
  for (const auto& [text, want] : bad) {
    const std::string msg = error_of(text);
    CAPTURE(text);
    CHECK(msg.find(want) != std::string::npos);
    CHECK(msg.rfind("--matrix m.txt: ", 0) == 0);
    CHECK(msg.find('\n') == std::string::npos);
  }
  CHECK_THROWS_AS(read_bmmc_file("/nonexistent/matrix.txt"), InputError);
}

TEST_CASE("low_bits is all ones at 64 bits and none at 0, without shifting by 64") {
  static_assert(low_bits(0) == 0);
  static_assert(low_bits(-1) == 0);
  static_assert(low_bits(1) == 1);
  static_assert(low_bits(63) == ~BitVector{0} >> 1);
  static_assert(low_bits(64) == ~BitVector{0});
  static_assert(low_bits(65) == ~BitVector{0});
}

TEST_CASE("64-bit BMMCs apply, invert, factor and print with every shift below 64") {
  // Run under the sanitizers (./mmsim.sh test-sanitize), a shift by 64 anywhere here is an error.
  const Bmmc r = bit_reversal(64);
  CHECK(r.apply(1) == BitVector{1} << 63);
  CHECK(r.apply(BitVector{1} << 63) == 1);
  CHECK(complement(64, ~BitVector{0}).apply(0) == ~BitVector{0});
  CHECK(is_upper_unit_triangular(BitMatrix::identity(64)));
  CHECK(is_lower_unit_triangular(BitMatrix::identity(64)));
  CHECK(inverse(rotate_left(64, 5)) == rotate_left(64, -5));
  CHECK(parm_matrix(64, BitVector{1} << 63).a == BitMatrix::identity(64));
  Rng rng(29);
  const BitMatrix a = random_invertible(64, rng);
  const Ulp f = ulp(a);
  CHECK(f.u * f.l * f.p == a);
  const Lup g = lup(a);
  CHECK(g.l * g.u * g.p == a);
  CHECK(to_text(random_bmmc(64, rng)).size() == 65 * 65);
  CHECK(extract(~BitVector{0}, ~BitVector{0}) == ~BitVector{0});
  CHECK(deposit(~BitVector{0}, ~BitVector{0}) == ~BitVector{0});
}

TEST_CASE("a 64-row matrix file is refused in one line naming the simulator's 24 bits") {
  const std::string path = matrix_file(64, "64.txt");
  const std::string msg = file_error_of(path);
  CHECK(msg == "--matrix '" + path + "': line 2: 64 bits per row; the simulator runs at most 24 (n = 2^24 cells)");
  std::filesystem::remove(path);
}

TEST_CASE("matrix files: 1 and 24 rows are read, 25 is one too many") {
  for (int bits : {1, kMaxSimulatedBits}) {
    const std::string path = matrix_file(bits, "ok.txt");
    CAPTURE(bits);
    CHECK(file_error_of(path) == "");
    CHECK(read_bmmc_file(path) == Bmmc{BitMatrix::identity(bits), low_bits(bits)});
    std::filesystem::remove(path);
  }
  const std::string path = matrix_file(kMaxSimulatedBits + 1, "25.txt");
  const std::string msg = file_error_of(path);
  CHECK(msg.find("25 bits per row; the simulator runs at most 24") != std::string::npos);
  CHECK(msg.find('\n') == std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("a matrix file is read up to 1 MiB, not one byte more") {
  const std::string path = (std::filesystem::temp_directory_path() / "mmsim_test_f2_big.txt").string();
  const std::string matrix = to_text(bit_reversal(3));
  const auto write = [&](std::size_t bytes) {
    // A comment fills the file up to `bytes`: a legal file, only long.
    std::ofstream(path) << "#" << std::string(bytes - matrix.size() - 2, 'x') << "\n" << matrix;
  };
  write(kMaxBmmcFileBytes);
  CHECK(file_error_of(path) == "");
  write(kMaxBmmcFileBytes + 1);
  CHECK(file_error_of(path).find("more than the 1 MiB") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("tiled BMMCs: BPCs are tiled on their tile row bits") {
  CHECK(tile_row_bits(bit_reversal(15).a, 5) == BitVector{0b111110000000000});
  CHECK(tile_row_bits(identity(10).a, 5) == BitVector{0b11111});
  Rng rng(29);
  for (int n = 1; n <= 20; ++n)
    for (int t = 0; t <= n; ++t) {
      const Bmmc f = random_bpc(n, rng);
      const auto rows = tile_row_bits(f.a, t);
      REQUIRE(rows);
      const auto p = *bit_permutation(f.a);
      for (int j = 0; j < n; ++j) CHECK((((*rows) >> j) & 1u) == (p[static_cast<std::size_t>(j)] < t ? 1u : 0u));
    }
  // parm 0b0011 on 4 bits is not tiled for t = 2 (its last row mixes the two low columns).
  CHECK_FALSE(is_tiled(parm_matrix(4, 0b0011).a, 2));
}

TEST_CASE("every random BMMC factors into at most two tiled BMMCs") {
  Rng rng(31);
  int two = 0, total = 0;
  for (int n = 1; n <= 24; ++n)
    for (int t : {0, 1, 2, 3, 5, 8}) {
      if (t > n) continue;
      for (int trial = 0; trial < 12; ++trial) {
        const Bmmc f = random_bmmc(n, rng);
        const auto parts = tiled_factors(f, t);
        REQUIRE((parts.size() == 1 || parts.size() == 2));
        Bmmc g = identity(n);
        for (const auto& p : parts) {
          CHECK(is_tiled(p.a, t));
          g = compose(p, g);
        }
        CHECK(g == f);
        CHECK(parts.size() == (is_tiled(f.a, t) ? 1u : 2u));
        two += parts.size() == 2;
        ++total;
      }
    }
  CHECK(two > total / 2);  // most random BMMCs are not tiled themselves
  for (int n : {40, 64}) {
    const Bmmc f = random_bmmc(n, rng);
    Bmmc g = identity(n);
    for (const auto& p : tiled_factors(f, 5)) g = compose(p, g);
    CHECK(g == f);
  }
}
