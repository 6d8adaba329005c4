#include "algorithms/permutations/permutation.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <span>

#include "algorithms/params.h"
#include "io/input_file.h"
#include "sim/parallel_for.h"
#include "sim/random.h"

namespace mmsim {

const std::vector<std::string>& permutation_names() {
  static const std::vector<std::string> names{"identical", "shuffle", "bit-reversal", "transpose", "random"};
  return names;
}

std::uint64_t exact_sqrt(std::uint64_t n) {
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n)));
  while (r * r > n) --r;
  while ((r + 1) * (r + 1) <= n) ++r;
  return r * r == n ? r : 0;
}

Permutation named_permutation(const std::string& name, std::uint64_t n, std::uint64_t seed) {
  if (n == 0) throw InputError("n: must be >= 1");
  if (n > (std::uint64_t{1} << 32)) throw InputError("n: must be at most 2^32");
  Permutation perm{name, std::vector<Word>(n)};
  auto& p = perm.p;
  const auto need_pow2 = [&] {
    if (!std::has_single_bit(n))
      throw InputError("n: permutation " + name + " needs a power of two (got " + std::to_string(n) + ")");
    return static_cast<unsigned>(std::countr_zero(n));
  };
  if (name == "identical") {
    for (std::uint64_t i = 0; i < n; ++i) p[i] = static_cast<Word>(i);
  } else if (name == "shuffle") {
    // P(u_m u_{m-1} ... u_1) = u_{m-1} ... u_1 u_m: rotate the m bits left by one.
    const unsigned m = need_pow2();
    for (std::uint64_t u = 0; u < n; ++u)
      p[u] = static_cast<Word>(m == 0 ? u : (((u << 1) | (u >> (m - 1))) & (n - 1)));
  } else if (name == "bit-reversal") {
    const unsigned m = need_pow2();
    for (std::uint64_t u = 0; u < n; ++u) {
      std::uint64_t r = 0;
      for (unsigned b = 0; b < m; ++b) r |= ((u >> b) & 1u) << (m - 1 - b);
      p[u] = static_cast<Word>(r);
    }
  } else if (name == "transpose") {
    // P(i sqrt(n) + j) = j sqrt(n) + i.
    const std::uint64_t s = exact_sqrt(n);
    if (s == 0) throw InputError("n: permutation transpose needs a perfect square (got " + std::to_string(n) + ")");
    for (std::uint64_t i = 0; i < s; ++i)
      for (std::uint64_t j = 0; j < s; ++j) p[i * s + j] = static_cast<Word>(j * s + i);
  } else if (name == "random") {
    for (std::uint64_t i = 0; i < n; ++i) p[i] = static_cast<Word>(i);
    Rng rng(seed);
    rng.shuffle(std::span<Word>(p));
  } else {
    std::string known;
    for (const auto& k : permutation_names()) known += (known.empty() ? "" : ", ") + k;
    throw InputError("--perm: unknown permutation " + quote(name) + " (known: " + known + ")");
  }
  return perm;
}

Permutation parse_permutation(std::istream& in, std::uint64_t n, const std::string& file) {
  Permutation perm{"file:" + file, {}};
  perm.p.reserve(n);
  std::vector<std::uint64_t> seen_at(n, 0);  // 1-based line where each destination appeared
  std::string line;
  LineReader lines(in, kMaxPermutationLineChars);
  const std::string shown = quote(file, 60);
  while (lines.next(line)) {
    const std::string where = "--perm-file: " + file + ":" + std::to_string(lines.number()) + ": ";
    if (lines.too_long())
      throw InputError(where + "longer than " + std::to_string(kMaxPermutationLineChars) +
                       " characters: " + quote(line));
    if (perm.p.size() == n) throw InputError(where + "more than n = " + std::to_string(n) + " destinations");
    const auto first = line.find_first_not_of(" \t\r");
    const auto last = line.find_last_not_of(" \t\r");
    const std::string_view text =
        first == std::string::npos ? std::string_view{} : std::string_view(line).substr(first, last - first + 1);
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size())
      throw InputError(where + "not a number: " + quote(std::string(text)));
    if (v >= n) throw InputError(where + std::to_string(v) + " out of range 0.." + std::to_string(n - 1));
    if (seen_at[v] != 0)
      throw InputError(where + std::to_string(v) + " duplicate of line " + std::to_string(seen_at[v]));
    seen_at[v] = lines.number();
    perm.p.push_back(static_cast<Word>(v));
  }
  if (perm.p.size() != n)
    throw InputError("--perm-file: " + shown + ": wrong count: " + std::to_string(perm.p.size()) +
                     " destinations, expected n = " + std::to_string(n));
  return perm;
}

Permutation read_permutation_file(const std::string& path, std::uint64_t n) {
  InputFile file(
      "--perm-file", path, n * (kMaxPermutationLineChars + 1),
      "that n = " + std::to_string(n) + " allows (" + std::to_string(kMaxPermutationLineChars) + " characters a line)");
  return parse_permutation(file.stream(), n, path);
}

std::optional<std::string> check_permutation(const std::vector<Word>& p) {
  std::vector<bool> seen(p.size(), false);
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] >= p.size()) return "P(" + std::to_string(i) + ") = " + std::to_string(p[i]) + " out of range";
    if (seen[p[i]]) return "P(" + std::to_string(i) + ") = " + std::to_string(p[i]) + " repeated";
    seen[p[i]] = true;
  }
  return std::nullopt;
}

namespace {

// Below this many elements a loop on the caller's thread is quicker than starting a pool.
constexpr std::uint64_t kParallelFrom = std::uint64_t{1} << 18;

unsigned threads_for(std::uint64_t n, unsigned threads) { return n < kParallelFrom ? 1 : resolve_threads(threads); }

}  // namespace

std::vector<Word> inverse(const std::vector<Word>& p, unsigned threads) {
  std::vector<Word> q(p.size());
  WorkerPool pool(threads_for(p.size(), threads));
  // Each i writes its own cell q[P(i)]: pieces never share one.
  parallel_for(pool, p.size(), [&](std::uint64_t first, std::uint64_t end) {
    for (std::uint64_t i = first; i < end; ++i) q[p[i]] = static_cast<Word>(i);
  });
  return q;
}

std::uint64_t distribution(const std::vector<Word>& p, std::uint64_t w, unsigned threads) {
  // On several threads, each warp's distinct address groups are counted in a small open-addressing
  // set of its piece's own (2w slots or more, a generation stamp per slot, so no clearing between
  // warps), not in one table of every group; the pieces' counts are summed in piece order: an
  // integer sum, the same for every number of threads.
  const std::uint64_t warps = p.size() / w;
  WorkerPool pool(threads_for(p.size(), threads));
  if (pool.threads() == 1) {
    // One thread: one table of every group with the last warp that touched it, cheaper per
    // element than the set (no hashing, no probing) where it fits the host's caches.
    std::vector<std::uint64_t> last_warp(p.size() / w + 1, 0);
    std::uint64_t total = 0;
    for (std::uint64_t j = 0; j < warps; ++j)
      for (std::uint64_t t = 0; t < w; ++t) {
        auto& seen = last_warp[p[j * w + t] / w];
        total += seen != j + 1;
        seen = j + 1;
      }
    return total;
  }
  const std::uint64_t pieces = 8 * std::uint64_t{pool.threads()};
  std::vector<std::uint64_t> sums(pieces, 0);
  const int bits = std::bit_width(2 * w - 1);
  pool.run(pieces, [&](std::size_t c) {
    const std::size_t mask = (std::size_t{1} << bits) - 1;
    std::vector<Word> key(mask + 1);
    std::vector<std::uint64_t> stamp(mask + 1, 0);
    std::uint64_t sum = 0;
    for (std::uint64_t j = warps * c / pieces; j < warps * (c + 1) / pieces; ++j) {
      const std::uint64_t gen = j + 1;
      for (std::uint64_t t = 0; t < w; ++t) {
        const auto g = static_cast<Word>(p[j * w + t] / w);
        std::size_t slot = static_cast<std::size_t>((g * 0x9E3779B97F4A7C15ull) >> (64 - bits)) & mask;
        while (stamp[slot] == gen && key[slot] != g) slot = (slot + 1) & mask;
        if (stamp[slot] != gen) {
          stamp[slot] = gen;
          key[slot] = g;
          ++sum;
        }
      }
    }
    sums[c] = sum;
  });
  std::uint64_t total = 0;
  for (const std::uint64_t s : sums) total += s;
  return total;
}

}  // namespace mmsim
