#include "algorithms/sorting/blocks.h"

#include <algorithm>

namespace mmsim::sorting {

namespace {

using Addrs = std::vector<Address>;
using Vals = std::vector<Word>;

bool before(Word a, Word b, bool desc) { return desc ? a > b : a < b; }

// Merges runs [lo, mid) and [mid, hi) of every row of `src` into `dst`: 2 steps per output.
void merge_runs(Work& k, Region src, Region dst, std::uint64_t lo, std::uint64_t mid, std::uint64_t hi,
                const Directions& desc) {
  const auto w = static_cast<std::size_t>(k.w());
  Addrs addr(w);
  Vals ha(w), hb(w), out(w);
  std::vector<std::uint64_t> pa(w, lo), pb(w, mid);
  for (std::size_t r = 0; r < w; ++r) addr[r] = k.g.at(src, r, lo);
  k.g.read(addr, ha);
  if (mid < hi) {
    for (std::size_t r = 0; r < w; ++r) addr[r] = k.g.at(src, r, mid);
    k.g.read(addr, hb);
  }
  std::vector<char> took_a(w);
  for (std::uint64_t o = lo; o < hi; ++o) {
    for (std::size_t r = 0; r < w; ++r) {
      const bool a_ok = pa[r] < mid, b_ok = pb[r] < hi;
      // Ties go to the left run: the merge is stable.
      took_a[r] = a_ok && (!b_ok || !before(hb[r], ha[r], desc[r] != 0));
      out[r] = took_a[r] ? ha[r] : hb[r];
      addr[r] = k.g.at(dst, r, o);
    }
    k.g.write(addr, out);
    if (o + 1 == hi) break;
    for (std::size_t r = 0; r < w; ++r) {
      std::uint64_t& p = took_a[r] ? pa[r] : pb[r];
      ++p;
      const std::uint64_t end = took_a[r] ? mid : hi;
      addr[r] = p < end ? k.g.at(src, r, p) : kNoAddress;
    }
    // Reads into the head of the run that advanced.
    Vals next(w);
    k.g.read(addr, next);
    for (std::size_t r = 0; r < w; ++r)
      if (addr[r] != kNoAddress) (took_a[r] ? ha[r] : hb[r]) = next[r];
  }
}

// Digit `d` of key x in base `base` (a power of two), complemented for descending rows so that a
// stable ascending LSD pass orders them descending.
Word digit(Word x, unsigned shift, std::uint64_t base, bool desc) {
  const auto d = static_cast<Word>((x >> shift) & (base - 1));
  return desc ? static_cast<Word>(base - 1 - d) : d;
}

}  // namespace

void row_merge_sort(Work& k, const Directions& desc) {
  for (std::uint64_t width = 1; width < k.m; width *= 2) {
    for (std::uint64_t lo = 0; lo < k.m; lo += 2 * width)
      merge_runs(k, k.cur, k.tmp, lo, std::min(lo + width, k.m), std::min(lo + 2 * width, k.m), desc);
    k.swap();
  }
}

void row_radix_sort(Work& k, const Directions& desc, std::uint64_t key_range) {
  if (k.m < 2) return;  // a row of one cell is sorted (and leaves no room for two counters)
  const auto w = static_cast<std::size_t>(k.w());
  std::uint64_t base = 2;
  while (base < std::min<std::uint64_t>(key_range, k.m)) base *= 2;
  unsigned bits = 0;
  while ((std::uint64_t{1} << bits) < base) ++bits;
  unsigned key_bits = 0;
  while ((std::uint64_t{1} << key_bits) < key_range) ++key_bits;
  Addrs addr(w);
  Vals x(w), c(w);
  std::vector<Word> d(w);
  const unsigned passes_bits = std::max(key_bits, 1u);
  for (unsigned shift = 0; shift < passes_bits; shift += bits) {
    // Zero the counts (each processor in its own row of aux).
    std::fill(c.begin(), c.end(), 0);
    for (std::uint64_t b = 0; b < base; ++b) {
      for (std::size_t r = 0; r < w; ++r) addr[r] = k.g.at(k.aux, r, b);
      k.g.write(addr, c);
    }
    // Count: read the element, read its digit's counter, write it back incremented.
    for (std::uint64_t col = 0; col < k.m; ++col) {
      for (std::size_t r = 0; r < w; ++r) addr[r] = k.g.at(k.cur, r, col);
      k.g.read(addr, x);
      for (std::size_t r = 0; r < w; ++r) {
        d[r] = digit(x[r], shift, base, desc[r] != 0);
        addr[r] = k.g.at(k.aux, r, d[r]);
      }
      k.g.read(addr, c);
      for (auto& v : c) ++v;
      k.g.write(addr, c);
    }
    // Exclusive prefix sums of the counts, a running total in each processor.
    Vals sum(w, 0);
    for (std::uint64_t b = 0; b < base; ++b) {
      for (std::size_t r = 0; r < w; ++r) addr[r] = k.g.at(k.aux, r, b);
      k.g.read(addr, c);
      k.g.write(addr, sum);
      for (std::size_t r = 0; r < w; ++r) sum[r] += c[r];
    }
    // Place: element to tmp at its digit's next position (stable).
    for (std::uint64_t col = 0; col < k.m; ++col) {
      for (std::size_t r = 0; r < w; ++r) addr[r] = k.g.at(k.cur, r, col);
      k.g.read(addr, x);
      Addrs caddr(w);
      for (std::size_t r = 0; r < w; ++r) caddr[r] = k.g.at(k.aux, r, digit(x[r], shift, base, desc[r] != 0));
      k.g.read(caddr, c);
      for (std::size_t r = 0; r < w; ++r) addr[r] = k.g.at(k.tmp, r, c[r]);
      k.g.write(addr, x);
      for (auto& v : c) ++v;
      k.g.write(caddr, c);
    }
    k.swap();
  }
}

// Both conversions move every cell once: processor r reads (r, src col) in its own bank and writes
// (dst row, dst col). The schedules below pick, in each step, source columns whose destination rows
// are distinct over the processors of a block (and blocks use disjoint rows), so both steps are
// conflict-free. Rows are block-local: r in [0, h), m = number of columns.
// Where one cell goes: processor r reads (r, src_col) and writes (dst_row, dst_col) of its block.
struct CellMove {
  std::uint64_t src_col, dst_row, dst_col;
};

// m steps, each a read and a write of one cell per processor; place(t, r) says which cell
// processor r (block-local) moves in step t.
template <typename Place>
void move_every_cell(Work& k, std::uint64_t h, Place place) {
  const auto w = static_cast<std::size_t>(k.w());
  Addrs src(w), dst(w);
  Vals v(w);
  for (std::uint64_t t = 0; t < k.m; ++t) {
    for (std::size_t row = 0; row < w; ++row) {
      const std::uint64_t base = row / h * h;
      const CellMove c = place(t, row % h);
      src[row] = k.g.at(k.cur, row, c.src_col);
      dst[row] = k.g.at(k.tmp, base + c.dst_row, c.dst_col);
    }
    k.g.read(src, v);
    k.g.write(dst, v);
  }
  k.swap();
}

void row_to_column_major(Work& k, std::uint64_t h) {
  const std::uint64_t m = k.m;
  move_every_cell(k, h, [h, m](std::uint64_t t, std::uint64_t r) {
    std::uint64_t c;
    if (h <= m) {
      // t = q h + s: column q h + ((s + r) mod h) goes to row (s + r) mod h.
      c = t / h * h + (t % h + r) % h;
    } else {
      // r = u (h / m) + v: column (t + u) mod m goes to row v m + (t + u) mod m.
      c = (t + r / (h / m)) % m;
    }
    const std::uint64_t x = r * m + c;
    return CellMove{c, x % h, x / h};
  });
}

void column_to_row_major(Work& k, std::uint64_t h) {
  const std::uint64_t m = k.m;
  move_every_cell(k, h, [h, m](std::uint64_t t, std::uint64_t i) {
    std::uint64_t j;
    if (h <= m) {
      // g = m / h, t = q h + s: column ((s + i) mod h) g + q goes to row (s + i) mod h.
      const std::uint64_t g = m / h;
      j = (t % h + i) % h * g + t / h;
    } else {
      // Column (t + i) mod m goes to row ((t + i) mod m)(h / m) + i / m.
      j = (t + i) % m;
    }
    const std::uint64_t x = j * h + i;
    return CellMove{j, x / m, x % m};
  });
}

void transpose_tiles(Work& k, std::uint64_t q) {
  const auto w = static_cast<std::size_t>(k.w());
  Addrs src(w), dst(w);
  Vals v(w);
  for (std::uint64_t t = 0; t < k.m; ++t) {
    const std::uint64_t c0 = t / q * q;  // the tile column this step works in
    for (std::size_t row = 0; row < w; ++row) {
      const std::uint64_t base = row / q * q, r = row % q, c = (t + r) % q;
      src[row] = k.g.at(k.cur, row, c0 + c);
      dst[row] = k.g.at(k.tmp, base + c, c0 + r);
    }
    k.g.read(src, v);
    k.g.write(dst, v);
  }
  k.swap();
}

void column_bitonic_sort(Work& k, std::uint64_t b, const Directions& desc) {
  const auto w = static_cast<std::size_t>(k.w());
  Addrs own(w), other(w);
  Vals v(w), u(w);
  for (std::uint64_t size = 2; size <= b; size *= 2)
    for (std::uint64_t j = size / 2; j >= 1; j /= 2)
      for (std::uint64_t col = 0; col < k.m; ++col) {
        for (std::size_t r = 0; r < w; ++r) {
          own[r] = k.g.at(k.cur, r, col);
          other[r] = k.g.at(k.cur, r ^ j, col);
        }
        k.g.read(own, v);
        k.g.read(other, u);
        for (std::size_t r = 0; r < w; ++r) {
          // Bitonic network: subsequences of `size` alternate direction; the block's direction
          // flips the whole network.
          const bool block_desc = desc[r / b * b] != 0;
          const std::uint64_t rl = r % b;
          const bool up = ((rl & size) == 0) != block_desc;
          const bool lower = (rl & j) == 0;
          const Word lo = std::min(v[r], u[r]), hi = std::max(v[r], u[r]);
          v[r] = (lower == up) ? lo : hi;
        }
        k.g.write(own, v);
      }
}

}  // namespace mmsim::sorting
