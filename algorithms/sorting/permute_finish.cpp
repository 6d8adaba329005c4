// AS Appendix B, the finish of Theorem 4: the labels left after the last synchronisation are packed
// into a w x m' matrix (m' much smaller than m) by transfers between rows paired by random offsets,
// the packed matrix is sorted by Lemma 2, and every row sends its sorted labels in three conflict-free
// groups. FullSort skips the packing and sorts the whole w x m matrix, for contrast.
#include <algorithm>

#include "algorithms/sorting/lemma2.h"
#include "algorithms/sorting/sort.h"
#include "algorithms/sorting/theorem4.h"

namespace mmsim::sorting {

namespace {

std::uint64_t pow2_at_least(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p < x) p *= 2;
  return p;
}

// Empty cells of the first `width` columns of `work` become P.empty(), so that the sort puts them
// last.
void fill_empty(Theorem4Run& P, std::uint64_t width) {
  MatrixDmm& g = P.g;
  Addrs addr(P.wz);
  const Vals empty(P.wz, P.empty());
  g.phase("finish: fill");
  for (std::uint64_t c = 0; c < width; ++c) {
    for (std::size_t r = 0; r < P.wz; ++r) addr[r] = c >= P.left[r] ? g.at(P.work, r, c) : kNoAddress;
    g.write(addr, empty);
  }
}

// The t random offsets of the packing, t a power of two (Theta(log^2 w), at most w): row i < t draws
// offset i in [1, w) and writes it to column 0 of its row of `table`; doubling copies offset i to
// every row i' = i mod t (log2(w / t) rounds of a read and a write, each from distinct rows); then
// in step s every row reads offset (i + s) mod t from the row of its own block of t that holds it
// (a rotation within the block: distinct banks) into its own column 1 + that index. About 2t +
// 2 log2(w / t) + 1 steps: the paper's broadcast of a few words, O(t + log w).
std::uint64_t broadcast_offsets(Theorem4Run& P) {
  MatrixDmm& g = P.g;
  const std::uint64_t W = P.W;
  std::uint64_t lg = 0;
  while ((std::uint64_t{1} << lg) < W) ++lg;
  const std::uint64_t t = std::min(W, pow2_at_least(std::max<std::uint64_t>(1, lg * lg)));
  Addrs addr(P.wz), addr2(P.wz);
  Vals v(P.wz);
  g.phase("finish: pack offsets");
  for (std::size_t r = 0; r < P.wz; ++r) {
    v[r] = r < t ? static_cast<Word>(W > 1 ? 1 + P.draw(W - 1) : 0) : 0;
    addr[r] = r < t ? g.at(P.table, r, 0) : kNoAddress;
  }
  g.write(addr, v);
  for (std::uint64_t d = t; d < W; d *= 2) {
    for (std::size_t r = 0; r < P.wz; ++r) {
      addr[r] = r < d ? g.at(P.table, r, 0) : kNoAddress;
      addr2[r] = r < d ? g.at(P.table, r + d, 0) : kNoAddress;
    }
    g.read(addr, v);
    g.write(addr2, v);
  }
  for (std::uint64_t s = 0; s < t; ++s) {
    for (std::size_t r = 0; r < P.wz; ++r) {
      const std::uint64_t i = (r % t + s) % t;
      addr[r] = g.at(P.table, r - r % t + i, 0);
      addr2[r] = g.at(P.table, r, 1 + i);
    }
    g.read(addr, v);
    g.write(addr2, v);
  }
  return t;
}

// The packing rounds at width mp. Every row first writes its count to its state cell (column 0 of
// `sync`). In round i, a row holding more than mp labels (a wide row: the paper's unlucky rows)
// reads offset i from its own copy, reads the state of row j' = j + t_i (mod w), and moves up to
// min(excess, room of j', quota) of its last labels to the end of j''s labels, then writes j''s new
// count. Row j -> j + t_i is a bijection, so every step touches distinct banks; a wide row's state
// stays above mp, so it never receives, and only wide rows take steps. At the end every row reads its
// own state. The paper's quota is 2m/t per transfer (O(m) steps over the t rounds). Returns whether
// every row now holds at most mp labels.
bool pack_rounds(Theorem4Run& P, std::uint64_t t, std::uint64_t mp) {
  MatrixDmm& g = P.g;
  const std::size_t wz = P.wz;
  const std::uint64_t quota = std::max<std::uint64_t>(1, (2 * P.m + t - 1) / t);
  Addrs addr(wz), addr2(wz);
  Vals v(wz), off(wz), state(wz);
  g.phase("finish: pack");
  std::vector<std::uint64_t> count = P.left;  // what each row knows of its own count
  for (std::size_t r = 0; r < wz; ++r) {
    v[r] = static_cast<Word>(count[r]);
    addr[r] = g.at(P.sync, r, 0);
  }
  g.write(addr, v);
  for (std::uint64_t i = 0; i < t; ++i) {
    const auto wide = [&](std::size_t r) { return count[r] > mp; };
    for (std::size_t r = 0; r < wz; ++r) addr[r] = wide(r) ? g.at(P.table, r, 1 + i) : kNoAddress;
    g.read(addr, off);
    std::vector<std::size_t> partner(wz);
    for (std::size_t r = 0; r < wz; ++r) {
      partner[r] = static_cast<std::size_t>((r + off[r]) % P.W);
      addr[r] = wide(r) ? g.at(P.sync, partner[r], 0) : kNoAddress;
    }
    g.read(addr, state);
    std::vector<std::uint64_t> move(wz, 0);
    std::uint64_t most = 0;
    for (std::size_t r = 0; r < wz; ++r) {
      if (!wide(r) || state[r] >= mp) continue;
      move[r] = std::min({count[r] - mp, mp - state[r], quota});
      most = std::max(most, move[r]);
    }
    for (std::uint64_t s = 0; s < most; ++s) {
      for (std::size_t r = 0; r < wz; ++r) {
        addr[r] = s < move[r] ? g.at(P.work, r, count[r] - 1 - s) : kNoAddress;
        addr2[r] = s < move[r] ? g.at(P.work, partner[r], state[r] + s) : kNoAddress;
      }
      g.read(addr, v);
      g.write(addr2, v);
    }
    for (std::size_t r = 0; r < wz; ++r) {
      addr[r] = move[r] > 0 ? g.at(P.sync, partner[r], 0) : kNoAddress;
      v[r] = static_cast<Word>(state[r] + move[r]);
      count[r] -= move[r];
    }
    g.write(addr, v);
  }
  for (std::size_t r = 0; r < wz; ++r) addr[r] = g.at(P.sync, r, 0);
  g.read(addr, state);
  bool fits = true;
  for (std::size_t r = 0; r < wz; ++r) {
    // A row that gave labels away keeps its own count; one that received reads its new count.
    P.left[r] = count[r] < P.left[r] ? count[r] : state[r];
    fits = fits && P.left[r] <= mp;
  }
  return fits;
}

// The last part, on the matrix sorted by the conflict-free sort (in `sorted`, `width` columns): each
// row sends its labels in three conflict-free groups: middle labels (their destination row appears in
// no other row), then the labels of its first and of its last destination, label (a, j) in step j.
void send_sorted(Theorem4Run& P, Region sorted, std::uint64_t width) {
  MatrixDmm& g = P.g;
  const std::uint64_t m = P.m;
  const std::size_t wz = P.wz;
  const Word none = P.empty();
  Addrs addr(wz), addr2(wz);
  g.phase("finish: send");
  std::vector<Word> first(wz, none), last(wz, none);
  std::vector<std::uint64_t> last_at(wz, width), count(wz, 0);
  Vals x(wz);
  for (std::uint64_t c = 0; c < width; ++c) {  // scan: first and last destination rows
    for (std::size_t r = 0; r < wz; ++r) addr[r] = g.at(sorted, r, c);
    g.read(addr, x);
    for (std::size_t r = 0; r < wz; ++r) {
      if (x[r] == none) continue;
      const auto a = static_cast<Word>(P.dest_row(x[r]));
      if (count[r]++ == 0) first[r] = a;
      if (last[r] != a) {
        last[r] = a;
        last_at[r] = c;
      }
    }
  }
  for (std::uint64_t c = 0; c < width; ++c) {  // middle labels
    for (std::size_t r = 0; r < wz; ++r) addr[r] = c < count[r] ? g.at(sorted, r, c) : kNoAddress;
    g.read(addr, x);
    for (std::size_t r = 0; r < wz; ++r) {
      const bool middle = c < count[r] && P.dest_row(x[r]) != first[r] && P.dest_row(x[r]) != last[r];
      addr2[r] = middle ? g.at(P.out, P.dest_row(x[r]), P.dest_col(x[r])) : kNoAddress;
    }
    g.write(addr2, x);
  }
  // First group from column 0, last group from last_at (when it is another row): label (a, j)
  // leaves in step j.
  for (int group = 0; group < 2; ++group) {
    std::vector<std::uint64_t> ptr(wz);
    for (std::size_t r = 0; r < wz; ++r) ptr[r] = group == 0 ? 0 : (last[r] != first[r] ? last_at[r] : width);
    const auto& target = group == 0 ? first : last;
    for (std::uint64_t j = 0; j < m; ++j) {
      for (std::size_t r = 0; r < wz; ++r) addr[r] = ptr[r] < count[r] ? g.at(sorted, r, ptr[r]) : kNoAddress;
      g.read(addr, x);
      for (std::size_t r = 0; r < wz; ++r) {
        const bool send = addr[r] != kNoAddress && P.dest_row(x[r]) == target[r] && P.dest_col(x[r]) == j;
        addr2[r] = send ? g.at(P.out, target[r], j) : kNoAddress;
        if (send) ++ptr[r];
      }
      g.write(addr2, x);
    }
  }
}

// The packed width: a power of two with room for twice the average count (the paper's
// O(m / log_m^3 w)); when Lemma 2 is to sort it and its assumption fails there, the smallest larger
// width where it holds (if any below m). At least 2, at most m.
std::uint64_t packed_width(const Theorem4Run& P, std::uint64_t total, Theorem4Finish finish) {
  std::uint64_t mp = std::max<std::uint64_t>(2, pow2_at_least(2 * ((total + P.W - 1) / P.W)));
  if (finish == Theorem4Finish::PackedLemma2 && P.W > mp && !lemma2_applies(P.W, mp)) {
    std::uint64_t c = mp;
    while (c < P.m && !lemma2_applies(P.W, c)) c *= 2;
    if (c < P.m) mp = c;
  }
  return std::min(mp, P.m);
}

}  // namespace

FinishReport theorem4_finish(Theorem4Run& P, std::uint64_t total, Theorem4Finish finish) {
  FinishReport rep;
  rep.widest_row = *std::max_element(P.left.begin(), P.left.end());
  std::uint64_t mp = P.m;
  if (finish != Theorem4Finish::FullSort) {
    mp = packed_width(P, total, finish);
    if (rep.widest_row > mp) {
      rep.pack_offsets = broadcast_offsets(P);
      // A failed packing (the paper's rare event) retries at twice the width; at m it cannot fail.
      for (++rep.pack_attempts; !pack_rounds(P, rep.pack_offsets, mp); ++rep.pack_attempts) mp = std::min(2 * mp, P.m);
    }
  }
  rep.packed_width = mp;
  fill_empty(P, mp);
  Work k{P.g, mp, P.work, P.bycolour, P.counts, "finish: "};
  const std::uint64_t keys = P.W * P.m + 1;  // labels and the empty mark
  std::string sort;
  if (finish == Theorem4Finish::FullSort) {
    sort = sort_matrix(k, merge_rows(), true);
  } else if (finish == Theorem4Finish::PackedLemma2 && P.W > mp && lemma2_applies(P.W, mp)) {
    sort = lemma2_sort(k, keys);
  } else {
    sort = sort_matrix(k, radix_rows(keys), false);
    if (finish == Theorem4Finish::PackedLemma2) sort += " [lemma2 does not apply at this width]";
  }
  send_sorted(P, k.cur, mp);
  rep.method = finish == Theorem4Finish::FullSort
                   ? "full sort [" + sort + "] + 3-group sends"
                   : "packed into w x " + std::to_string(mp) + " (" + std::to_string(rep.pack_offsets) +
                         " random offsets, " + std::to_string(rep.pack_attempts) + " attempt(s)), sorted [" + sort +
                         "] + 3-group sends";
  return rep;
}

}  // namespace mmsim::sorting
