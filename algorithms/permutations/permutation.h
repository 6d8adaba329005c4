// Permutations of 0..n-1: the named ones of KNI Sect. 4, random ones, and files.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "io/input_error.h"
#include "sim/types.h"

namespace mmsim {

/// P as the array p with p[i] = P(i): a[i] moves to b[P(i)] (KNI Sect. 4).
struct Permutation {
  std::string name;
  std::vector<Word> p;

  std::uint64_t size() const { return p.size(); }
};

/// Names accepted by named_permutation, in the order `mmsim list` prints them.
const std::vector<std::string>& permutation_names();

/// identical, shuffle, bit-reversal (n a power of two), transpose (n a perfect square), random.
/// Throws InputError naming the rule a bad name or n breaks.
Permutation named_permutation(const std::string& name, std::uint64_t n, std::uint64_t seed);

/// A permutation file's line holds one destination and blanks around it: longer lines are refused
/// (and a file of more than n such lines, before it is read).
inline constexpr std::size_t kMaxPermutationLineChars = 64;

/// Parses one destination P(i) per line of `in` (named `file` in messages). Throws InputError naming
/// the first bad line and why: not a number, out of range, duplicate of line j, too long, or wrong count.
Permutation parse_permutation(std::istream& in, std::uint64_t n, const std::string& file);
/// Opens `path` safely (io/input_file.h: a regular file of at most 65 n bytes) and parses it.
Permutation read_permutation_file(const std::string& path, std::uint64_t n);

/// Empty if p is a permutation of 0..n-1, else why not.
std::optional<std::string> check_permutation(const std::vector<Word>& p);

/// The inverse permutation, on `threads` host threads (0: every core); p must be a permutation.
std::vector<Word> inverse(const std::vector<Word>& p, unsigned threads = 1);

/// D_w(P) = sum over warps j of |{ floor(P(jw + t) / w) }| (KNI Sect. 4). n % w == 0. On `threads`
/// host threads (0: every core); the same sum for every count.
std::uint64_t distribution(const std::vector<Word>& p, std::uint64_t w, unsigned threads = 1);

/// sqrt(n) when n is a perfect square, else 0.
std::uint64_t exact_sqrt(std::uint64_t n);

}  // namespace mmsim
