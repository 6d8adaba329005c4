// D- and S-designated permutations: output, time against KNI Table 1, permutations and files.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "algorithms/closed_forms.h"
#include "algorithms/permutations/conventional.h"
#include "sim/random.h"

using namespace mmsim;

namespace {

// D_w(P) computed here independently of the library: sets of address groups per warp.
std::int64_t naive_distribution(const std::vector<Word>& p, std::uint64_t w) {
  std::int64_t d = 0;
  for (std::size_t j = 0; j < p.size(); j += w) {
    std::set<std::uint64_t> groups;
    for (std::uint64_t t = 0; t < w; ++t) groups.insert(p[j + t] / w);
    d += static_cast<std::int64_t>(groups.size());
  }
  return d;
}

RunReport run(const PermutationAlgorithm& algo, const MachineParams& m, const Permutation& p,
              Execution e = Execution::RoundSynchronous) {
  PermutationInput in;
  in.perm = &p;
  algo.check(m, in);
  return algo.run(Machine(m), in, {e, false});
}

std::string temp_file(const std::string& text) {
  static int counter = 0;
  const std::string path = "mmsim_test_perm_" + std::to_string(counter++) + ".txt";
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("named permutations on 8 elements") {
  CHECK(named_permutation("identical", 8, 1).p == std::vector<Word>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(named_permutation("shuffle", 8, 1).p == std::vector<Word>{0, 2, 4, 6, 1, 3, 5, 7});
  CHECK(named_permutation("bit-reversal", 8, 1).p == std::vector<Word>{0, 4, 2, 6, 1, 5, 3, 7});
  CHECK(named_permutation("transpose", 9, 1).p == std::vector<Word>{0, 3, 6, 1, 4, 7, 2, 5, 8});
  const auto r = named_permutation("random", 1000, 7);
  CHECK_FALSE(check_permutation(r.p).has_value());
  CHECK(r.p == named_permutation("random", 1000, 7).p);
  CHECK(r.p != named_permutation("random", 1000, 8).p);
  CHECK_THROWS_AS(named_permutation("shuffle", 12, 1), InputError);
  CHECK_THROWS_AS(named_permutation("transpose", 8, 1), InputError);
  CHECK_THROWS_AS(named_permutation("sideways", 8, 1), InputError);
}

TEST_CASE("D_w of the named permutations (KNI Sect. 4)") {
  const std::uint64_t n = 1 << 12;
  for (std::uint64_t w : {4u, 8u, 16u, 32u}) {
    CHECK(distribution(named_permutation("identical", n, 1).p, w) == n / w);
    CHECK(distribution(named_permutation("shuffle", n, 1).p, w) == 2 * n / w);
    CHECK(distribution(inverse(named_permutation("shuffle", n, 1).p), w) == 2 * n / w);
    CHECK(distribution(named_permutation("bit-reversal", n, 1).p, w) == n);
    CHECK(distribution(named_permutation("transpose", n, 1).p, w) == n);
    const auto r = named_permutation("random", n, 3);
    CHECK(distribution(r.p, w) == static_cast<std::uint64_t>(naive_distribution(r.p, w)));
  }
}

TEST_CASE("D_w, the inverse and the output check on several threads: the answers of one thread") {
  // 2^19 elements: above the size from which they run on a pool of threads.
  const std::uint64_t n = 1 << 19;
  const auto r = named_permutation("random", n, 5);
  const std::vector<Word> q = inverse(r.p, 1);
  for (std::size_t i = 0; i < n; i += 997) CHECK(q[r.p[i]] == i);
  std::vector<Word> b(n);
  for (std::size_t i = 0; i < n; ++i) b[r.p[i]] = source_value(i);
  for (const unsigned threads : {2u, 3u, 0u}) {
    CAPTURE(threads);
    CHECK(inverse(r.p, threads) == q);
    for (std::uint64_t w : {32u, 1024u})
      CHECK(distribution(r.p, w, threads) == static_cast<std::uint64_t>(naive_distribution(r.p, w)));
    CHECK(holds_permutation(b, r.p, threads));
    // One wrong cell, first or last: every piece's verdict counts.
    for (const std::size_t at : {std::size_t{0}, n - 1}) {
      b[r.p[at]] ^= 1;
      CHECK_FALSE(holds_permutation(b, r.p, threads));
      b[r.p[at]] ^= 1;
    }
  }
}

TEST_CASE("D- and S-designated time equals Table 1 over the parameter grid") {
  int sets = 0;
  const std::string file = temp_file([] {
    std::string s;
    const auto p = named_permutation("random", 256, 99).p;
    for (Word v : p) s += std::to_string(v) + "\n";
    return s;
  }());
  for (int w : {4, 8, 16, 32})
    for (int L : {1, 5, 100})
      for (int k : {1, 2, 8}) {
        const std::uint64_t n = 256;
        const MachineParams m{ModelKind::Hmm, w, 1, L, k};
        std::vector<Permutation> perms;
        for (const auto& name : permutation_names()) perms.push_back(named_permutation(name, n, 5));
        perms.push_back(read_permutation_file(file, n));
        for (const auto& p : perms) {
          const auto d = run(d_designated(), m, p);
          CHECK(d.correct);
          CHECK(d.stats.time_units == naive_distribution(p.p, w) + 2 * static_cast<std::int64_t>(n) / w + 3 * L - 3);
          CHECK(d.stats.time_units == *d.predicted_time_units);
          const auto s = run(s_designated(), m, p);
          CHECK(s.correct);
          CHECK(s.stats.time_units ==
                naive_distribution(inverse(p.p), w) + 2 * static_cast<std::int64_t>(n) / w + 3 * L - 3);
          ++sets;
        }
      }
  std::remove(file.c_str());
  CHECK(sets >= 20);
}

TEST_CASE("random permutations and machines: output is P(a), asynchronous <= round-synchronous") {
  Rng rng(2024);
  for (int trial = 0; trial < 30; ++trial) {
    const int w = 1 << (1 + rng.below(5));  // 2 .. 32
    const std::uint64_t n = static_cast<std::uint64_t>(w) * (1 + rng.below(64));
    const MachineParams m{ModelKind::Hmm, w, 1 + static_cast<int>(rng.below(3)), 1 + static_cast<int>(rng.below(200)),
                          1 + static_cast<int>(rng.below(8))};
    const auto p = named_permutation("random", n, rng.next());
    for (const PermutationAlgorithm& algo : {d_designated(), s_designated()}) {
      const auto sync = run(algo, m, p);
      const auto async = run(algo, m, p, Execution::Asynchronous);
      CHECK(sync.correct);
      CHECK(async.correct);
      CHECK(async.stats.time_units <= sync.stats.time_units);
      CHECK(sync.stats.time_units == *sync.predicted_time_units);
    }
  }
}

TEST_CASE("a permutation file that is not a permutation is refused, naming the first bad line") {
  const auto message = [](const std::string& text, std::uint64_t n) {
    const std::string f = temp_file(text);
    std::string what;
    try {
      read_permutation_file(f, n);
    } catch (const InputError& e) {
      what = e.what();
    }
    std::remove(f.c_str());
    return what;
  };
  CHECK(message("1\n0\n2\n", 3).empty());
  CHECK(message("1\nx\n2\n", 3).find(":2: not a number") != std::string::npos);
  CHECK(message("1\n0\n3\n", 3).find(":3: 3 out of range") != std::string::npos);
  CHECK(message("1\n0\n1\n", 3).find(":3: 1 duplicate of line 1") != std::string::npos);
  CHECK(message("1\n0\n", 3).find("wrong count: 2") != std::string::npos);
  CHECK(message("1\n0\n2\n3\n", 3).find(":4: more than n = 3 destinations") != std::string::npos);
  CHECK(message("1\n\n2\n", 3).find(":2: not a number") != std::string::npos);
  CHECK(message("-1\n0\n2\n", 3).find(":1: not a number") != std::string::npos);
  CHECK_THROWS_AS(read_permutation_file("/nonexistent/perm.txt", 3), InputError);
}

TEST_CASE("n must be a multiple of w") {
  const auto p = named_permutation("identical", 12, 1);
  PermutationInput in;
  in.perm = &p;
  CHECK_THROWS_AS(d_designated().check(MachineParams{ModelKind::Hmm, 8, 1, 1, 1}, in), InputError);
  CHECK_NOTHROW(d_designated().check(MachineParams{ModelKind::Hmm, 4, 1, 1, 1}, in));
}
