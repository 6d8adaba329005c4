// --matrix (algorithms/bmmc/f2.h) and the F2 algebra on 64-bit words behind it. The whole input is
// parsed as a matrix file; a matrix that is read must print back to itself and compose with its
// inverse to the identity. The same bytes, taken as 64-bit words, also drive the bit manipulations
// that no file of at most 24 bits reaches (rows of up to 64 bits, deposit and extract), under
// UBSan's shift checks.
#include <bit>
#include <cstring>
#include <stdexcept>

#include "algorithms/bmmc/f2.h"
#include "fuzz_target.h"
#include "io/input_error.h"

namespace {

using namespace mmsim::f2;

std::uint64_t word_at(mmsim::fuzz::Bytes data, std::size_t i) {
  std::uint64_t v = 0;
  for (std::size_t b = 0; b < 8 && i * 8 + b < data.size(); ++b) v |= std::uint64_t{data[i * 8 + b]} << (8 * b);
  return v;
}

void parsed_matrix(mmsim::fuzz::Bytes data) {
  Bmmc f;
  try {
    f = parse_bmmc(std::string(mmsim::fuzz::text_of(data)), "--matrix fuzz");
  } catch (const mmsim::InputError&) {
    return;
  }
  mmsim::fuzz::require(f.bits() >= 1 && f.bits() <= kMaxSimulatedBits, "a matrix of a refused size was read");
  mmsim::fuzz::require(parse_bmmc(to_text(f), "--matrix again") == f, "a matrix does not print back to itself");
  mmsim::fuzz::require(compose(f, inverse(f)) == identity(f.bits()), "f o f^-1 is not the identity");
  for (std::uint64_t x = 0; x < 8; ++x) {
    const BitVector y = f.apply(x & low_bits(f.bits()));
    mmsim::fuzz::require(y <= low_bits(f.bits()), "f maps an index outside 0 .. 2^n - 1");
  }
}

void algebra(mmsim::fuzz::Bytes data) {
  if (data.size() < 16) return;
  const BitVector x = word_at(data, 0), mask = word_at(data, 1);
  const int kept = std::popcount(mask);
  mmsim::fuzz::require(extract(deposit(x, mask), mask) == (x & low_bits(kept)), "extract(deposit(x)) != x");
  mmsim::fuzz::require((deposit(x, mask) & ~mask) == 0, "deposit sets a bit outside the mask");
  // A square matrix of 1 to 64 rows from the next words.
  const int n = static_cast<int>(data[0] % 64) + 1;
  std::vector<BitVector> rows;
  for (int i = 0; i < n; ++i) rows.push_back(word_at(data, 2 + static_cast<std::size_t>(i)) & low_bits(n));
  const BitMatrix a = BitMatrix::from_rows(rows);
  mmsim::fuzz::require(a.transposed().transposed() == a, "transposing twice changes a matrix");
  const auto inv = inverse(a);
  mmsim::fuzz::require(inv.has_value() == invertible(a), "inverse and rank disagree");
  if (!inv) return;
  mmsim::fuzz::require(a * *inv == BitMatrix::identity(n), "A A^-1 is not the identity");
  const Ulp d = ulp(a);
  mmsim::fuzz::require(is_upper_unit_triangular(d.u) && is_lower_unit_triangular(d.l) && bit_permutation(d.p),
                       "ULP factors of the wrong shape");
  mmsim::fuzz::require(d.u * d.l * d.p == a, "U L P != A");
  const Lup e = lup(a);
  mmsim::fuzz::require(e.l * e.u * e.p == a, "L U P != A");
}

}  // namespace

MMSIM_FUZZ_TARGET(bmmc_matrix) {
  parsed_matrix(data);
  algebra(data);
}
