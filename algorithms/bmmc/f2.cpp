#include "algorithms/bmmc/f2.h"

#include <numeric>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "algorithms/params.h"
#include "io/input_error.h"
#include "io/input_file.h"

namespace mmsim::f2 {

namespace {

void check_bits(int n, const char* who) {
  if (n < 1 || n > kMaxBits) throw std::invalid_argument(std::string(who) + ": bits must be between 1 and 64");
}

// Swaps bits i and j of x.
BitVector swap_bits(BitVector x, int i, int j) {
  const BitVector d = ((x >> i) ^ (x >> j)) & 1u;
  return x ^ ((d << i) | (d << j));
}

// R X R, R the bit-reversal matrix: entry (i, j) becomes X(n-1-i, n-1-j).
BitMatrix reverse_both(const BitMatrix& x) {
  const int n = x.size();
  BitMatrix r(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (x.get(n - 1 - i, n - 1 - j)) r.set(i, j, true);
  return r;
}

}  // namespace

BitVector deposit(BitVector value, BitVector mask) {
  BitVector out = 0;
  for (BitVector m = mask; m != 0; m &= m - 1, value >>= 1)
    if (value & 1u) out |= m & (~m + 1);
  return out;
}

BitVector extract(BitVector x, BitVector mask) {
  BitVector out = 0;
  int k = 0;
  for (BitVector m = mask; m != 0; m &= m - 1, ++k)
    if (x & m & (~m + 1)) out |= BitVector{1} << k;
  return out;
}

BitMatrix::BitMatrix(int n) : n_(n) {
  check_bits(n, "BitMatrix");
  rows_.assign(static_cast<std::size_t>(n), 0);
}

BitMatrix BitMatrix::identity(int n) {
  BitMatrix m(n);
  for (int i = 0; i < n; ++i) m.set(i, i, true);
  return m;
}

BitMatrix BitMatrix::from_rows(std::vector<BitVector> rows) {
  BitMatrix m(static_cast<int>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if ((rows[i] & ~low_bits(m.n_)) != 0) throw std::invalid_argument("BitMatrix: row wider than the matrix");
    m.rows_[i] = rows[i];
  }
  return m;
}

void BitMatrix::set(int i, int j, bool v) {
  auto& r = rows_[static_cast<std::size_t>(i)];
  const BitVector bit = BitVector{1} << j;
  r = v ? (r | bit) : (r & ~bit);
}

BitVector BitMatrix::column(int j) const {
  BitVector c = 0;
  for (int i = 0; i < n_; ++i) c |= static_cast<BitVector>(get(i, j)) << i;
  return c;
}

BitVector BitMatrix::apply(BitVector x) const {
  BitVector y = 0;
  for (int i = 0; i < n_; ++i) y |= static_cast<BitVector>(dot(rows_[static_cast<std::size_t>(i)], x)) << i;
  return y;
}

BitMatrix BitMatrix::transposed() const {
  BitMatrix t(n_);
  for (int j = 0; j < n_; ++j) t.rows_[static_cast<std::size_t>(j)] = column(j);
  return t;
}

BitMatrix operator*(const BitMatrix& a, const BitMatrix& b) {
  if (a.n_ != b.n_) throw std::invalid_argument("BitMatrix product: sizes differ");
  // Row i of AB is the sum of the rows of B picked by the ones of row i of A.
  BitMatrix p(a.n_);
  for (int i = 0; i < a.n_; ++i) {
    BitVector r = 0;
    for (BitVector m = a.row(i); m != 0; m &= m - 1) r ^= b.row(__builtin_ctzll(m));
    p.rows_[static_cast<std::size_t>(i)] = r;
  }
  return p;
}

int rank(const BitMatrix& a) {
  std::vector<BitVector> rows;
  for (int i = 0; i < a.size(); ++i) rows.push_back(a.row(i));
  int r = 0;
  for (int col = 0; col < a.size() && r < a.size(); ++col) {
    const BitVector bit = BitVector{1} << col;
    std::size_t pivot = static_cast<std::size_t>(r);
    while (pivot < rows.size() && !(rows[pivot] & bit)) ++pivot;
    if (pivot == rows.size()) continue;
    std::swap(rows[pivot], rows[static_cast<std::size_t>(r)]);
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (i != static_cast<std::size_t>(r) && (rows[i] & bit)) rows[i] ^= rows[static_cast<std::size_t>(r)];
    ++r;
  }
  return r;
}

std::optional<BitMatrix> inverse(const BitMatrix& a) {
  const int n = a.size();
  BitMatrix m = a, inv = BitMatrix::identity(n);
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    while (pivot < n && !m.get(pivot, col)) ++pivot;
    if (pivot == n) return std::nullopt;
    if (pivot != col) {
      const BitVector t = m.row(pivot), ti = inv.row(pivot);
      m.set_row(pivot, m.row(col));
      inv.set_row(pivot, inv.row(col));
      m.set_row(col, t);
      inv.set_row(col, ti);
    }
    for (int i = 0; i < n; ++i)
      if (i != col && m.get(i, col)) {
        m.set_row(i, m.row(i) ^ m.row(col));
        inv.set_row(i, inv.row(i) ^ inv.row(col));
      }
  }
  return inv;
}

bool is_upper_unit_triangular(const BitMatrix& a) {
  for (int i = 0; i < a.size(); ++i)
    if ((a.row(i) & low_bits(i + 1)) != (BitVector{1} << i)) return false;
  return true;
}

bool is_lower_unit_triangular(const BitMatrix& a) {
  for (int i = 0; i < a.size(); ++i)
    if ((a.row(i) & ~low_bits(i)) != (BitVector{1} << i)) return false;
  return true;
}

std::optional<std::vector<int>> bit_permutation(const BitMatrix& a) {
  const int n = a.size();
  std::vector<int> p(static_cast<std::size_t>(n), -1);
  BitVector seen_cols = 0;
  for (int i = 0; i < n; ++i) {
    const BitVector r = a.row(i);
    if (r == 0 || (r & (r - 1)) != 0) return std::nullopt;  // not exactly one 1 in the row
    const int j = __builtin_ctzll(r);
    if (seen_cols & (BitVector{1} << j)) return std::nullopt;
    seen_cols |= BitVector{1} << j;
    p[static_cast<std::size_t>(j)] = i;
  }
  return p;
}

BitMatrix permutation_matrix(const std::vector<int>& p) {
  const int n = static_cast<int>(p.size());
  check_bits(n, "permutation_matrix");
  BitMatrix m(n);
  BitVector seen = 0;
  for (int j = 0; j < n; ++j) {
    const int d = p[static_cast<std::size_t>(j)];
    if (d < 0 || d >= n || (seen >> d & 1u)) throw std::invalid_argument("permutation_matrix: not a permutation");
    seen |= BitVector{1} << d;
    m.set(d, j, true);
  }
  return m;
}

Ulp ulp(const BitMatrix& a) {
  // Invariant A = U M P. From the last row up, pick a pivot column for row i among columns <= i
  // (columns above i already hold their single upper one on the diagonal), move it to column i,
  // then clear column i above the diagonal by adding row i to the rows above: an upper unit
  // triangular row operation, undone on U as a column operation.
  const int n = a.size();
  BitMatrix u = BitMatrix::identity(n), m = a, p = BitMatrix::identity(n);
  for (int i = n - 1; i >= 0; --i) {
    const BitVector candidates = m.row(i) & low_bits(i + 1);
    if (candidates == 0) throw std::invalid_argument("ulp: singular matrix");
    const int j = (m.row(i) >> i & 1u) ? i : __builtin_ctzll(candidates);
    if (j != i) {
      for (int r = 0; r < n; ++r) m.set_row(r, swap_bits(m.row(r), i, j));
      const BitVector pi = p.row(i);
      p.set_row(i, p.row(j));
      p.set_row(j, pi);
    }
    for (int r = 0; r < i; ++r)
      if (m.get(r, i)) {
        m.set_row(r, m.row(r) ^ m.row(i));
        for (int q = 0; q < n; ++q)
          if (u.get(q, r)) u.set(q, i, !u.get(q, i));
      }
  }
  return {u, m, p};
}

Lup lup(const BitMatrix& a) {
  // R A R = U' L' P' gives A = (R U' R)(R L' R)(R P' R), and conjugating by R swaps upper and lower.
  const Ulp f = ulp(reverse_both(a));
  return {reverse_both(f.u), reverse_both(f.l), reverse_both(f.p)};
}

Bmmc compose(const Bmmc& f, const Bmmc& g) {
  if (f.bits() != g.bits()) throw std::invalid_argument("compose: BMMCs of different sizes");
  return {f.a * g.a, f.a.apply(g.c) ^ f.c};
}

Bmmc inverse(const Bmmc& f) {
  const auto ai = inverse(f.a);
  if (!ai) throw std::invalid_argument("inverse: singular matrix");
  return {*ai, ai->apply(f.c)};
}

Bmmc identity(int n) { return {BitMatrix::identity(n), 0}; }

Bmmc bit_reversal(int n) {
  std::vector<int> p(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) p[static_cast<std::size_t>(j)] = n - 1 - j;
  return bpc(p, 0);
}

Bmmc transpose(int rows, int cols) {
  if (rows < 0 || cols < 0) throw std::invalid_argument("transpose: negative dimension");
  // The column index j (low cols bits) moves above the row index i (rows bits).
  std::vector<int> p(static_cast<std::size_t>(rows + cols));
  for (int j = 0; j < cols; ++j) p[static_cast<std::size_t>(j)] = j + rows;
  for (int i = 0; i < rows; ++i) p[static_cast<std::size_t>(cols + i)] = i;
  return bpc(p, 0);
}

Bmmc rotate_left(int n, int r) {
  check_bits(n, "rotate_left");
  const int s = ((r % n) + n) % n;
  std::vector<int> p(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) p[static_cast<std::size_t>(j)] = (j + s) % n;
  return bpc(p, 0);
}

Bmmc shuffle(int n) { return rotate_left(n, 1); }
Bmmc unshuffle(int n) { return rotate_left(n, -1); }

Bmmc complement(int n, BitVector c) {
  check_bits(n, "complement");
  if ((c & ~low_bits(n)) != 0) throw std::invalid_argument("complement: vector wider than n bits");
  return {BitMatrix::identity(n), c};
}

Bmmc bpc(const std::vector<int>& p, BitVector c) {
  BitMatrix a = permutation_matrix(p);
  if ((c & ~low_bits(a.size())) != 0) throw std::invalid_argument("bpc: complement wider than n bits");
  return {std::move(a), c};
}

Bmmc parm_matrix(int n, BitVector mask) {
  check_bits(n, "parm_matrix");
  if (mask == 0 || (mask & ~low_bits(n)) != 0) throw std::invalid_argument("parm_matrix: mask must be in [1, 2^n)");
  const int lsb = __builtin_ctzll(mask);
  BitMatrix a(n);
  for (int i = 0; i < n - 1; ++i) a.set(i, i < lsb ? i : i + 1, true);
  a.set_row(n - 1, mask);
  return {a, 0};
}

BitMatrix random_invertible(int n, Rng& rng) {
  BitMatrix a(n);
  do {
    for (int i = 0; i < n; ++i) a.set_row(i, rng.next());
  } while (!invertible(a));
  return a;
}

Bmmc random_bpc(int n, Rng& rng) {
  check_bits(n, "random_bpc");
  std::vector<int> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  rng.shuffle(std::span<int>(p));
  return bpc(p, rng.next() & low_bits(n));
}

Bmmc random_bmmc(int n, Rng& rng) {
  check_bits(n, "random_bmmc");
  BitMatrix a = random_invertible(n, rng);
  return {std::move(a), rng.next() & low_bits(n)};
}

std::string to_text(const Bmmc& f) {
  std::string s;
  const int n = f.bits();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) s += f.a.get(i, j) ? '1' : '0';
    s += '\n';
  }
  for (int i = 0; i < n; ++i) s += (f.c >> i & 1u) ? '1' : '0';
  s += '\n';
  return s;
}

Bmmc parse_bmmc(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::pair<int, std::string>> lines;  // (line number, content)
  for (int number = 1; std::getline(in, line); ++number) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    std::size_t start = 0;
    while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) ++start;
    line.erase(0, start);
    if (line.empty() || line[0] == '#') continue;
    lines.emplace_back(number, line);
  }
  if (lines.empty()) throw InputError(what + ": no matrix rows (expected n lines of n bits, then the complement)");
  const std::size_t n = lines.front().second.size();
  if (n > static_cast<std::size_t>(kMaxSimulatedBits))
    throw InputError(what + ": line " + std::to_string(lines.front().first) + ": " + std::to_string(n) +
                     " bits per row; the simulator runs at most " + std::to_string(kMaxSimulatedBits) + " (n = 2^" +
                     std::to_string(kMaxSimulatedBits) + " cells)");
  for (const auto& [number, l] : lines) {
    if (l.size() != n)
      throw InputError(what + ": line " + std::to_string(number) + ": expected " + std::to_string(n) +
                       " characters 0/1, got " + std::to_string(l.size()));
    for (char ch : l)
      if (ch != '0' && ch != '1')
        throw InputError(what + ": line " + std::to_string(number) + ": only 0 and 1 allowed, found " +
                         quote(std::string(1, ch)));
  }
  if (lines.size() != n + 1)
    throw InputError(what + ": expected " + std::to_string(n) + " matrix rows and one complement line, got " +
                     std::to_string(lines.size()) + " lines");
  const int bits = static_cast<int>(n);
  Bmmc f{BitMatrix(bits), 0};
  for (int i = 0; i < bits; ++i)
    for (int j = 0; j < bits; ++j)
      f.a.set(i, j, lines[static_cast<std::size_t>(i)].second[static_cast<std::size_t>(j)] == '1');
  for (int i = 0; i < bits; ++i)
    if (lines.back().second[static_cast<std::size_t>(i)] == '1') f.c |= BitVector{1} << i;
  if (!invertible(f.a))
    throw InputError(what + ": the matrix is singular over F2 (rank " + std::to_string(rank(f.a)) + " of " +
                     std::to_string(bits) + "), so it permutes nothing");
  return f;
}

Bmmc read_bmmc_file(const std::string& path) {
  InputFile file(
      "--matrix", path, kMaxBmmcFileBytes,
      "a matrix file may have (one of at most " + std::to_string(kMaxSimulatedBits) + " bits is far smaller)");
  return parse_bmmc(file.read_all(), "--matrix " + quote(path, 60));
}

}  // namespace mmsim::f2
