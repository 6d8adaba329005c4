// One run of AS Theorem 4 (the randomized permutation) on the matrix DMM: its regions and the
// processors' own state, shared by the main loop (permute.cpp) and the finish of Appendix B
// (permute_finish.cpp). Internal to the family.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/sorting/common.h"
#include "algorithms/sorting/sorting.h"
#include "sim/random.h"

namespace mmsim::sorting {

// One run of the algorithm: the matrix and its regions, and the processors' own state, which lives
// in the host driver (a constant number of words per processor: how many labels it still holds).
struct Theorem4Run {
  Theorem4Run(int w_, std::uint64_t m_, std::uint64_t seed, const EngineOptions& engine)
      : m(m_),
        W(static_cast<std::uint64_t>(w_)),
        wz(static_cast<std::size_t>(w_)),
        table{4 * m_},
        sync{4 * m_ + W + 1},
        dmm(std::make_shared<MatrixDmm>(w_, 4 * m_ + W + 2, engine)),
        g(*dmm),
        rng(seed),
        left(wz, m_) {}

  std::uint64_t dest_row(Word label) const { return static_cast<std::uint64_t>(label) / m; }
  std::uint64_t dest_col(Word label) const { return static_cast<std::uint64_t>(label) % m; }
  // Label (a, b) under hash value h(a) gets colour (b - h(a)) mod m.
  std::uint64_t colour_of(Word label, Word h) const { return (dest_col(label) + m - h % m) % m; }
  // An empty cell in the finish: one past the largest label, so that it sorts last and the keys of
  // the finish's radix sorts stay below w m + 1.
  Word empty() const { return static_cast<Word>(W * m); }
  std::uint64_t draw(std::uint64_t bound) {
    ++random_words;
    return rng.below(bound);
  }

  std::uint64_t m, W;
  std::size_t wz;
  // Regions: labels still to send, labels sorted by colour, counters, the output, each row's copy of
  // the hash table (w columns; in the finish, the packing's offsets: a staging column and up to w
  // more) and one column for the synchronisation sums (in the finish, each row's count).
  Region work{0}, bycolour{m}, counts{2 * m}, out{3 * m}, table, sync;
  std::shared_ptr<MatrixDmm> dmm;
  MatrixDmm& g;
  Rng rng;
  std::vector<std::uint64_t> left;  // labels each row still holds, in work[0, left)
  std::uint64_t random_words = 0;   // every value drawn from rng, as the theorem counts them
};

/// What the finish did, for the run's figures and method.
struct FinishReport {
  std::string method;
  std::uint64_t packed_width = 0;  ///< m': columns of the matrix that was sorted (m when not packed)
  std::uint64_t pack_offsets = 0;  ///< t: random row offsets of the packing
  std::uint64_t pack_attempts = 0;
  std::uint64_t widest_row = 0;  ///< most labels one row held before the packing
};

/// Appendix B: packs the labels left in `work` into a w x m' matrix, sorts it (Lemma 2 where its
/// assumption on m' holds, or the sort path) and sends the three groups; or, for
/// Theorem4Finish::FullSort, sorts the whole w x m matrix instead. `total` is the number of labels
/// left (> 0).
FinishReport theorem4_finish(Theorem4Run& P, std::uint64_t total, Theorem4Finish finish);

}  // namespace mmsim::sorting
