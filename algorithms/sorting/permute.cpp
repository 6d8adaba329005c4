// AS Sect. 3, Theorem 4: the randomized permutation. Label a m + b goes to row a, column b. After a
// random preprocessing, each iteration draws a hash function, colours the labels so that no two labels
// of one colour are bound for one row, sends them one colour per step without a bank conflict, keeps
// what was not sent, and counts what is left; the finish of Appendix B (permute_finish.cpp) packs,
// sorts and sends the leftover labels. One function per phase below; the phase names are the
// engine's kernel names.
#include <algorithm>
#include <cmath>

#include "algorithms/sorting/blocks.h"
#include "algorithms/sorting/theorem4.h"

namespace mmsim::sorting {

namespace {

constexpr std::uint64_t kAlpha = 2;  // repetitions of the m colour steps in one communication
constexpr int kMaxIterations = 16;   // keeps a bad draw bounded

// Preprocessing (Sect. 3): every row shifts its labels cyclically by its own random amount, then
// q x q tiles are transposed, q = min(w, m) (the paper's m x m matrices when w >= m).
void preprocess(Theorem4Run& P) {
  MatrixDmm& g = P.g;
  const std::uint64_t m = P.m;
  Addrs addr(P.wz), addr2(P.wz);
  Vals v(P.wz);
  g.phase("preprocess");
  std::vector<std::uint64_t> shift(P.wz);
  for (auto& s : shift) s = P.draw(m);
  for (std::uint64_t t = 0; t < m; ++t) {
    for (std::size_t r = 0; r < P.wz; ++r) {
      addr[r] = g.at(P.work, r, t);
      addr2[r] = g.at(P.bycolour, r, (t + shift[r]) % m);
    }
    g.read(addr, v);
    g.write(addr2, v);
  }
  Work k{g, m, P.bycolour, P.work, P.counts, ""};
  k.phase("preprocess");
  transpose_tiles(k, std::min(P.W, m));
  // The transposed labels are in `work` (transpose_tiles swapped cur back to it).
}

// Hash: each processor draws h(i) in [m] for destination row i (a table of random values stands in
// for the Pagh-Pagh family) and writes it to its own copy; in step t processor i reads the entry of
// row i + t from that row's copy, so all reads hit distinct banks.
void hash(Theorem4Run& P) {
  MatrixDmm& g = P.g;
  Addrs addr(P.wz), addr2(P.wz);
  Vals v(P.wz);
  g.phase("hash");
  for (std::size_t r = 0; r < P.wz; ++r) {
    v[r] = static_cast<Word>(P.draw(P.m));
    addr[r] = g.at(P.table, r, r);
  }
  g.write(addr, v);
  for (std::uint64_t t = 1; t < P.W; ++t) {
    for (std::size_t r = 0; r < P.wz; ++r) {
      const std::uint64_t o = (r + t) % P.W;
      addr[r] = g.at(P.table, o, o);
      addr2[r] = g.at(P.table, r, o);
    }
    g.read(addr, v);
    g.write(addr2, v);
  }
}

// Two steps: every processor with a p-th label left reads it from region `from`, then its hash value
// from its own copy of the table.
void read_label_and_hash(Theorem4Run& P, Region from, std::uint64_t p, Vals& label, Vals& h) {
  Addrs addr(P.wz);
  for (std::size_t r = 0; r < P.wz; ++r) addr[r] = p < P.left[r] ? P.g.at(from, r, p) : kNoAddress;
  P.g.read(addr, label);
  for (std::size_t r = 0; r < P.wz; ++r)
    addr[r] = p < P.left[r] ? P.g.at(P.table, r, P.dest_row(label[r])) : kNoAddress;
  P.g.read(addr, h);
}

// Colouring: label (a, b) gets colour k = (b - h(a)) mod m; each row counting-sorts its labels by
// colour into `bycolour`, counters in its own row of `counts` (O(m) steps). Afterwards counts[k] ends
// colour k.
void colour(Theorem4Run& P) {
  MatrixDmm& g = P.g;
  const std::uint64_t m = P.m;
  const std::size_t wz = P.wz;
  Addrs addr(wz), addr2(wz);
  Vals zero(wz, 0), label(wz), h(wz), cnt(wz);
  g.phase("colour");
  for (std::uint64_t c = 0; c < m; ++c) {
    for (std::size_t r = 0; r < wz; ++r) addr[r] = g.at(P.counts, r, c);
    g.write(addr, zero);
  }
  for (std::uint64_t p = 0; p < m; ++p) {
    read_label_and_hash(P, P.work, p, label, h);
    for (std::size_t r = 0; r < wz; ++r)
      addr[r] = p < P.left[r] ? g.at(P.counts, r, P.colour_of(label[r], h[r])) : kNoAddress;
    g.read(addr, cnt);
    for (auto& c : cnt) ++c;
    g.write(addr, cnt);
  }
  Vals sum(wz, 0);
  for (std::uint64_t c = 0; c < m; ++c) {
    for (std::size_t r = 0; r < wz; ++r) addr[r] = g.at(P.counts, r, c);
    g.read(addr, cnt);
    g.write(addr, sum);
    for (std::size_t r = 0; r < wz; ++r) sum[r] += cnt[r];
  }
  for (std::uint64_t p = 0; p < m; ++p) {
    read_label_and_hash(P, P.work, p, label, h);
    for (std::size_t r = 0; r < wz; ++r)
      addr2[r] = p < P.left[r] ? g.at(P.counts, r, P.colour_of(label[r], h[r])) : kNoAddress;
    g.read(addr2, cnt);
    for (std::size_t r = 0; r < wz; ++r) addr[r] = p < P.left[r] ? g.at(P.bycolour, r, cnt[r]) : kNoAddress;
    g.write(addr, label);
    for (auto& c : cnt) ++c;
    g.write(addr2, cnt);
  }
}

// Communication: alpha m steps; in step (rep, k) each row sends its rep-th label of colour k straight
// to its destination. Two labels of one colour bound for one row would have the same column, hence
// be the same label: the CAC holds.
void communicate(Theorem4Run& P) {
  MatrixDmm& g = P.g;
  Addrs addr(P.wz), addr2(P.wz);
  Vals label(P.wz);
  g.phase("communicate");
  for (std::uint64_t rep = 0; rep < kAlpha; ++rep) {
    Vals start(P.wz, 0), end(P.wz);
    for (std::uint64_t c = 0; c < P.m; ++c) {
      for (std::size_t r = 0; r < P.wz; ++r) addr[r] = g.at(P.counts, r, c);
      g.read(addr, end);
      for (std::size_t r = 0; r < P.wz; ++r)
        addr[r] = start[r] + rep < end[r] ? g.at(P.bycolour, r, start[r] + rep) : kNoAddress;
      g.read(addr, label);
      for (std::size_t r = 0; r < P.wz; ++r)
        addr2[r] = addr[r] != kNoAddress ? g.at(P.out, P.dest_row(label[r]), P.dest_col(label[r])) : kNoAddress;
      g.write(addr2, label);
      start = end;
    }
  }
}

// Compaction: a label of rank >= alpha within its colour (in `bycolour`) was not sent; keep it in
// `work`.
void compact(Theorem4Run& P) {
  MatrixDmm& g = P.g;
  Addrs addr(P.wz);
  Vals label(P.wz), h(P.wz);
  g.phase("compact");
  std::vector<std::uint64_t> kept(P.wz, 0);
  for (std::uint64_t p = 0; p < P.m; ++p) {
    read_label_and_hash(P, P.bycolour, p, label, h);
    Vals startk(P.wz, 0);
    for (std::size_t r = 0; r < P.wz; ++r) {
      const std::uint64_t col = p < P.left[r] ? P.colour_of(label[r], h[r]) : 0;
      addr[r] = p < P.left[r] && col > 0 ? g.at(P.counts, r, col - 1) : kNoAddress;
    }
    g.read(addr, startk);
    for (std::size_t r = 0; r < P.wz; ++r) {
      const bool keep = p < P.left[r] && p - (P.colour_of(label[r], h[r]) > 0 ? startk[r] : 0) >= kAlpha;
      addr[r] = keep ? g.at(P.work, r, kept[r]) : kNoAddress;
      if (keep) ++kept[r];
    }
    g.write(addr, label);
  }
  P.left = kept;
}

// Synchronisation: the leftover counts are summed up a binary tree of rows and broadcast back down
// (2 log2 w reads and writes); every processor then holds the total, which is returned.
std::uint64_t synchronise(Theorem4Run& P) {
  MatrixDmm& g = P.g;
  const std::size_t wz = P.wz;
  Addrs addr(wz), addr2(wz);
  Vals v(wz), u(wz);
  g.phase("sync");
  for (std::size_t r = 0; r < wz; ++r) {
    v[r] = static_cast<Word>(P.left[r]);
    addr[r] = g.at(P.sync, r, 0);
  }
  g.write(addr, v);
  Vals part = v;
  for (std::uint64_t d = 1; d < P.W; d *= 2) {
    for (std::size_t r = 0; r < wz; ++r) addr[r] = r % (2 * d) == 0 ? g.at(P.sync, r + d, 0) : kNoAddress;
    g.read(addr, u);
    for (std::size_t r = 0; r < wz; ++r) {
      if (addr[r] != kNoAddress) part[r] += u[r];
      addr2[r] = addr[r] != kNoAddress ? g.at(P.sync, r, 0) : kNoAddress;
    }
    g.write(addr2, part);
  }
  for (std::uint64_t d = P.W / 2; d >= 1; d /= 2) {
    for (std::size_t r = 0; r < wz; ++r) addr[r] = r % (2 * d) == d ? g.at(P.sync, r - d, 0) : kNoAddress;
    g.read(addr, u);
    for (std::size_t r = 0; r < wz; ++r) {
      if (addr[r] != kNoAddress) part[r] = u[r];
      addr2[r] = addr[r] != kNoAddress ? g.at(P.sync, r, 0) : kNoAddress;
    }
    g.write(addr2, part);
  }
  return part[0];
}

}  // namespace

SortingRun as_permute(int w, std::uint64_t m, const std::vector<Word>& labels, std::uint64_t seed,
                      const EngineOptions& engine, Theorem4Finish finish) {
  check_shape(w, m);
  Theorem4Run P(w, m, seed, engine);
  load(P.g, P.work, m, labels);
  preprocess(P);
  std::uint64_t total = P.W * m;
  // AS Sect. 3 repeats while more than n / log_m^3 w labels are left; for w <= m that bound is n, so
  // at least one iteration always runs.
  const double logmw = m > 1 ? std::log(static_cast<double>(P.W)) / std::log(static_cast<double>(m)) : 1.0;
  const double threshold = static_cast<double>(P.W * m) / std::max(1.0, logmw * logmw * logmw);
  int iterations = 0;
  while (iterations < kMaxIterations && (iterations == 0 || static_cast<double>(total) > threshold)) {
    ++iterations;
    hash(P);
    colour(P);
    communicate(P);
    compact(P);
    total = synchronise(P);
  }
  const std::uint64_t leftover = total;
  FinishReport fin;
  if (leftover > 0) fin = theorem4_finish(P, leftover, finish);
  std::vector<Word> expected(labels.size());
  for (std::size_t x = 0; x < expected.size(); ++x) expected[x] = static_cast<Word>(x);
  std::string method = std::string("theorem4") + (P.W >= m ? "" : " (w < m: w x w tiles transposed)") +
                       ": random table for the hash family, alpha = 2, " + std::to_string(iterations) +
                       " iteration(s); finish: " + (leftover > 0 ? fin.method : "none needed");
  SortingRun run = finish_run("as-permute", method, w, m, P.dmm, holds(P.g, P.out, m, expected));
  // AS Theorem 4 counts w + O(m log log log_m w) random words: w for the shifts, O(m) per iteration
  // for the hash function of Theorem 3. The table standing in for it takes w words per iteration;
  // the theorem's count is printed beside the measured one with the iteration count in place of
  // log log log_m w (which is below 1 at every simulated shape) and constant 1.
  run.figures = {
      {"iterations", iterations},
      {"leftover_labels", static_cast<std::int64_t>(leftover)},
      {"widest_leftover_row", static_cast<std::int64_t>(fin.widest_row)},
      {"packed_width", static_cast<std::int64_t>(fin.packed_width)},
      {"pack_offsets", static_cast<std::int64_t>(fin.pack_offsets)},
      {"pack_attempts", static_cast<std::int64_t>(fin.pack_attempts)},
      {"random_words", static_cast<std::int64_t>(P.random_words)},
      {"random_words_theorem4", static_cast<std::int64_t>(P.W + m * static_cast<std::uint64_t>(iterations))}};
  return run;
}

}  // namespace mmsim::sorting
