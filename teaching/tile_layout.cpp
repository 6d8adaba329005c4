#include "teaching/tile_layout.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <unordered_map>

#include "io/input_error.h"
#include "io/quote.h"
#include "models/layouts/draws.h"
#include "teaching/expression.h"

namespace mmsim::teaching {

const char* to_string(LayoutLanguage l) {
  switch (l) {
    case LayoutLanguage::Named:
      return "named layout";
    case LayoutLanguage::Expression:
      return "address expression";
    case LayoutLanguage::Cute:
      return "CuTe layout";
    default:
      return "F2 linear layout";
  }
}

std::int64_t Swizzle::apply(std::int64_t offset) const {
  // CuTe's swizzle.hpp: yyy = the B bits at M + max(0, S), shifted right by S onto the B bits at
  // M - min(0, S), and xored there.
  const std::int64_t bits = (std::int64_t{1} << b) - 1;
  const std::int64_t yyy = bits << (m + std::max(0, s));
  const std::int64_t moved = s >= 0 ? (offset & yyy) >> s : (offset & yyy) << -s;
  return offset ^ moved;
}

std::int64_t CuteLayout::offset(std::int64_t i, std::int64_t j) const {
  std::int64_t off = 0;
  const std::int64_t coord[2] = {i, j};
  for (int mode = 0; mode < 2; ++mode) {
    std::int64_t c = coord[mode];
    for (std::size_t k = 0; k < shape[mode].size(); ++k) {  // colexicographic: the first leaf fastest
      off += (c % shape[mode][k]) * stride[mode][k];
      c /= shape[mode][k];
    }
  }
  return swizzle ? swizzle->apply(off) : off;
}

namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

[[noreturn]] void syntax(const std::string& option, std::string_view text, std::size_t at, const std::string& why,
                         int length = 1) {
  throw InputError(option + ": " + describe(ExpressionError(static_cast<int>(at) + 1, why, length), text));
}

// A nested tuple of integers: a leaf holds a value, an inner node its children.
struct Tuple {
  std::int64_t value = 0;
  std::vector<Tuple> children;
  bool leaf = true;
  std::size_t column = 0;
};

// Recursive descent over CuTe's printed form: (a,(b,c)):(d,(e,f)), an integer optionally written as
// CuTe prints a static one (_32).
class CuteParser {
 public:
  CuteParser(std::string_view text, const std::string& option) : s_(text), option_(option) {}

  CuteLayout parse() {
    CuteLayout out;
    skip();
    if (word("Swizzle") || word("Sw")) {
      out.swizzle = swizzle();
      skip();
      if (!word("o")) fail("expected 'o' (composition) after the swizzle");
      skip();
      // CuTe prints a composed layout as Sw<B,M,S> o _0 o LAYOUT: the offset 0 between.
      const std::size_t mark = at_;
      eat('_');
      if (eat('0')) {
        skip();
        if (!word("o")) at_ = mark;
        skip();
      } else {
        at_ = mark;
      }
    }
    const std::size_t shape_at = at_;
    const Tuple shape = tuple();
    skip();
    if (!eat(':')) fail("expected ':' between the shape and the stride");
    skip();
    const std::size_t stride_at = at_;
    const Tuple stride = tuple();
    skip();
    if (at_ != s_.size()) fail("unexpected '" + std::string(1, s_[at_]) + "'");
    if (shape.leaf || shape.children.size() != 2)
      syntax(option_, s_, shape_at,
             "a CuTe layout of a w x w matrix has two modes, (rows, columns), and this shape has " +
                 std::to_string(shape.leaf ? 1 : shape.children.size()));
    if (!congruent(shape, stride))
      syntax(option_, s_, stride_at, "the stride is not congruent with the shape (CuTe pairs them leaf by leaf)");
    for (int mode = 0; mode < 2; ++mode) {
      flatten(shape.children[mode], out.shape[mode]);
      flatten(stride.children[mode], out.stride[mode]);
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& why) { syntax(option_, s_, at_, why); }
  void skip() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t')) ++at_;
  }
  bool eat(char c) {
    if (at_ < s_.size() && s_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool word(std::string_view w) {
    if (s_.substr(at_, w.size()) != w) return false;
    const std::size_t end = at_ + w.size();
    if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_')) return false;
    at_ = end;
    return true;
  }
  std::int64_t integer(bool allow_negative) {
    skip();
    eat('_');
    const std::size_t from = at_;
    if (allow_negative) eat('-');
    while (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_]))) ++at_;
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s_.data() + from, s_.data() + at_, v);
    if (at_ == from || ec != std::errc{} || ptr != s_.data() + at_) {
      at_ = from;
      fail(at_ < s_.size() ? "expected an integer" : "expected an integer, the text ends");
    }
    if (v > (std::int64_t{1} << 32) || v < -(std::int64_t{1} << 32)) {
      at_ = from;
      fail("integer out of range (at most 2^32)");
    }
    return v;
  }
  Swizzle swizzle() {
    skip();
    if (!eat('<')) fail("expected '<' after Swizzle");
    Swizzle z;
    const std::size_t at_b = at_;
    z.b = static_cast<int>(integer(false));
    skip();
    if (!eat(',')) fail("expected ',' in Swizzle<B,M,S>");
    z.m = static_cast<int>(integer(false));
    skip();
    if (!eat(',')) fail("expected ',' in Swizzle<B,M,S>");
    z.s = static_cast<int>(integer(true));
    skip();
    if (!eat('>')) fail("expected '>' closing Swizzle<B,M,S>");
    if (at_ + 1 < s_.size() && s_[at_] == '{' && s_[at_ + 1] == '}') at_ += 2;
    if (z.b > 16 || z.m > 32 || std::abs(z.s) > 32)
      syntax(option_, s_, at_b, "Swizzle<B,M,S> needs B <= 16, M <= 32 and |S| <= 32");
    if (std::abs(z.s) < z.b)
      syntax(option_, s_, at_b,
             "Swizzle<B,M,S> needs |S| >= B (CuTe's rule: the bits moved and "
             "the bits they land on must not overlap)");
    return z;
  }
  Tuple tuple() {
    skip();
    Tuple t;
    t.column = at_;
    if (eat('(')) {
      t.leaf = false;
      if (++depth_ > 16) fail("tuples nested more than 16 deep");
      do {
        t.children.push_back(tuple());
        skip();
      } while (eat(','));
      if (!eat(')')) fail("expected ',' or ')'");
      --depth_;
      return t;
    }
    t.value = integer(true);
    return t;
  }
  static bool congruent(const Tuple& a, const Tuple& b) {
    if (a.leaf || b.leaf) return a.leaf == b.leaf;
    if (a.children.size() != b.children.size()) return false;
    for (std::size_t k = 0; k < a.children.size(); ++k)
      if (!congruent(a.children[k], b.children[k])) return false;
    return true;
  }
  static void flatten(const Tuple& t, std::vector<std::int64_t>& out) {
    if (t.leaf) return out.push_back(t.value);
    for (const auto& c : t.children) flatten(c, out);
  }

  std::string_view s_;
  const std::string& option_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

bool looks_cute(std::string_view t) {
  return t.rfind("Swizzle", 0) == 0 || t.rfind("Sw<", 0) == 0 ||
         (t.find(':') != std::string_view::npos && t.find('?') == std::string_view::npos);
}

bool identifier(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  }) && std::any_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

std::string names() {
  std::string s;
  for (auto k : layouts::matrix_layout_kinds()) s += (s.empty() ? "" : ", ") + std::string(layouts::to_string(k));
  return s;
}

// The bases of 'f2:B0,B1,...': integers in decimal, 0x hexadecimal or 0b binary.
std::vector<std::uint64_t> parse_bases(std::string_view text, std::size_t from, const std::string& option) {
  std::vector<std::uint64_t> out;
  std::size_t at = from;
  while (true) {
    while (at < text.size() && text[at] == ' ') ++at;
    const std::size_t start = at;
    int base = 10;
    if (text.substr(at, 2) == "0x" || text.substr(at, 2) == "0X")
      base = 16, at += 2;
    else if (text.substr(at, 2) == "0b" || text.substr(at, 2) == "0B")
      base = 2, at += 2;
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + at, text.data() + text.size(), v, base);
    if (ec != std::errc{} || ptr == text.data() + at)
      syntax(option, text, at,
             at < text.size() ? "expected an integer (decimal, 0x or 0b): the address of one index bit"
                              : "expected an integer, the text ends");
    (void)start;
    at = static_cast<std::size_t>(ptr - text.data());
    out.push_back(v);
    while (at < text.size() && text[at] == ' ') ++at;
    if (at == text.size()) return out;
    if (text[at] != ',') syntax(option, text, at, "expected ',' between the bases");
    ++at;
  }
}

int log2_exact(std::uint32_t w) {
  int b = 0;
  while ((std::uint32_t{1} << b) < w) ++b;
  return (std::uint32_t{1} << b) == w ? b : -1;
}

}  // namespace

CuteLayout parse_cute(std::string_view text, const std::string& option) { return CuteParser(text, option).parse(); }

F2Congestion f2_congestion(const f2::BitMatrix& a, std::uint32_t w) {
  F2Congestion c;
  c.bank_bits = log2_exact(w);
  // The bank bits are the address's low log2 w bits (4-byte elements: one element a word); a row
  // moves the index bits of j (0 .. b-1), a column those of i (b .. 2b-1).
  const auto restricted = [&](int first_input) {
    f2::BitMatrix m(c.bank_bits);
    for (int r = 0; r < c.bank_bits; ++r) m.set_row(r, a.row(r) >> first_input);
    return f2::rank(m);
  };
  c.row_rank = restricted(0);
  c.column_rank = restricted(c.bank_bits);
  return c;
}

std::string MatrixTile::describe() const {
  const std::string size = "w x w matrix, w = " + std::to_string(w_);
  if (language_ == LayoutLanguage::Named) {
    std::string s = text_ + " (" + size;
    if (!named_->shifts().empty()) {
      s += ", seed " + std::to_string(seed_) + ": r =";
      for (auto r : named_->shifts()) s += " " + std::to_string(r);
    }
    return s + ")";
  }
  std::string s = text_ + " (" + to_string(language_);
  if (f2_) s += ", rank " + std::to_string(f2::rank(*f2_)) + " of " + std::to_string(f2_->size());
  return s + ", " + size + ")";
}

MatrixTile parse_layout(std::string_view raw_text, int w, std::uint64_t seed, const std::string& option) {
  MatrixTile tile;
  tile.text_ = trim(raw_text);
  tile.seed_ = seed;
  const std::string& text = tile.text_;
  if (w < 2 || w > 65536) throw InputError("-w: a layout needs 2 <= w <= 65536 (got " + std::to_string(w) + ")");
  tile.w_ = static_cast<std::uint32_t>(w);
  if (const auto kind = layouts::matrix_layout_from_name(text)) {
    layouts::Draws draws(seed);
    tile.named_.emplace(*kind, tile.w_, draws);
    tile.span_ = tile.named_->cells();
    if (*kind == layouts::MatrixLayoutKind::Pad) tile.span_ -= 1;  // the last row's padding is never reached
    tile.pitch_ = tile.named_->pitch();
    return tile;
  }
  if (text.empty())
    throw InputError(option + ": empty (a name: " + names() + "; or an expression, CuTe or f2: layout)");
  // Which language: f2: starts an F2 layout, a swizzle or a ':' outside '? :' a CuTe one.
  if (text.rfind("f2:", 0) == 0)
    tile.language_ = LayoutLanguage::F2;
  else if (looks_cute(text))
    tile.language_ = LayoutLanguage::Cute;
  else
    tile.language_ = LayoutLanguage::Expression;
  if (w > kMaxTileWidth)
    throw InputError("-w: a " + std::string(to_string(tile.language_)) + " needs w <= 1024 (got " + std::to_string(w) +
                     ")");
  const std::uint32_t uw = tile.w_;
  tile.table_.assign(static_cast<std::size_t>(uw) * uw, 0);
  std::vector<std::int64_t> values(tile.table_.size());
  if (tile.language_ == LayoutLanguage::F2) {
    const int b = log2_exact(uw);
    if (b < 0) throw InputError(option + ": an F2 layout needs w a power of two (got w = " + std::to_string(w) + ")");
    const auto bases = parse_bases(text, 3, option);
    if (static_cast<int>(bases.size()) != 2 * b)
      throw InputError(option + ": an F2 layout of a " + std::to_string(w) + " x " + std::to_string(w) +
                       " matrix has " + std::to_string(2 * b) +
                       " bases, one per bit of j + w i (bits of j first), not " + std::to_string(bases.size()));
    f2::BitMatrix a(2 * b);
    for (int k = 0; k < 2 * b; ++k) {
      if (bases[k] >> (2 * b))
        throw InputError(option + ": base " + std::to_string(k) + " (" + std::to_string(bases[k]) +
                         ") is not below w^2 = " + std::to_string(std::uint64_t{uw} * uw) +
                         ": an F2 layout maps the w^2 cells onto the w^2 addresses");
      for (int r = 0; r < 2 * b; ++r)
        if ((bases[k] >> r) & 1u) a.set(r, k, true);
    }
    const int rank = f2::rank(a);
    if (rank < 2 * b) {
      // A nonzero x with A x = 0: cells 0 and x share an address. Gaussian elimination on the bases.
      std::vector<std::pair<std::uint64_t, std::uint64_t>> basis;  // (image, combination of index bits)
      std::uint64_t kernel = 0;
      for (int k = 0; k < 2 * b && !kernel; ++k) {
        std::uint64_t v = bases[k], comb = std::uint64_t{1} << k;
        for (const auto& [img, c] : basis)
          if ((v ^ img) < v) v ^= img, comb ^= c;
        if (v == 0)
          kernel = comb;
        else
          basis.emplace_back(v, comb);
        std::sort(basis.begin(), basis.end(), std::greater<>());
      }
      const std::uint64_t x = kernel, ci = x / uw, cj = x % uw;
      throw InputError(option + ": the F2 matrix is singular (rank " + std::to_string(rank) + " of " +
                       std::to_string(2 * b) + "): cells (0, 0) and (" + std::to_string(ci) + ", " +
                       std::to_string(cj) + ") both map to address 0; a layout needs an invertible matrix");
    }
    tile.f2_ = a;
    for (std::uint32_t i = 0; i < uw; ++i)
      for (std::uint32_t j = 0; j < uw; ++j)
        values[static_cast<std::size_t>(i) * uw + j] = static_cast<std::int64_t>(a.apply(j + std::uint64_t{uw} * i));
  } else if (tile.language_ == LayoutLanguage::Cute) {
    const CuteLayout cute = parse_cute(text, option);
    for (int mode = 0; mode < 2; ++mode) {
      std::int64_t size = 1;
      for (auto s : cute.shape[mode]) {
        if (s < 1) throw InputError(option + ": a CuTe shape's extents are positive (got " + std::to_string(s) + ")");
        size = std::min<std::int64_t>(size * s, std::int64_t{1} << 40);
      }
      if (size != w) {
        std::int64_t other = 1;
        for (auto s : cute.shape[1 - mode]) other = std::min<std::int64_t>(other * s, std::int64_t{1} << 40);
        const std::int64_t rows = mode == 0 ? size : other, cols = mode == 0 ? other : size;
        throw InputError(option + ": the CuTe shape has size " + std::to_string(rows) + " x " + std::to_string(cols) +
                         ", not w x w = " + std::to_string(w) + " x " + std::to_string(w) +
                         " (mode 0 is the rows, mode 1 the columns; give -w to match)");
      }
    }
    for (std::uint32_t i = 0; i < uw; ++i)
      for (std::uint32_t j = 0; j < uw; ++j) values[static_cast<std::size_t>(i) * uw + j] = cute.offset(i, j);
  } else {
    Expression e;
    try {
      e = Expression::parse(text);
    } catch (const ExpressionError& err) {
      if (identifier(text))
        throw InputError(option + ": unknown " + quote(text) + " for a w x w matrix (one of " + names() +
                         "; or an address expression in i, j, w, a CuTe layout SHAPE:STRIDE, or f2:BASES; the w^4 "
                         "schemes take --dims 4 or four cell expressions)");
      throw InputError(option + ": " + describe(err, text));
    }
    for (std::uint32_t i = 0; i < uw; ++i)
      for (std::uint32_t j = 0; j < uw; ++j) {
        // i is t mod w and j is t / w in the expression language: t = i + w j gives them the cell's row
        // and column.
        const std::int64_t t = i + std::int64_t{uw} * j;
        std::optional<std::int64_t> v;
        try {
          v = e.evaluate({.t = t, .w = w, .p = std::int64_t{uw} * uw});
        } catch (const ExpressionError& err) {
          throw InputError(option + ": " + describe(err, text) + " (cell (" + std::to_string(i) + ", " +
                           std::to_string(j) + "))");
        }
        if (!v)
          throw InputError(option + ": " + "'_' gives cell (" + std::to_string(i) + ", " + std::to_string(j) +
                           ") no address; every cell of a layout has one");
        values[static_cast<std::size_t>(i) * uw + j] = *v;
      }
  }
  // The rules every layout obeys: each cell an address of its own, in the simulated memory.
  std::unordered_map<std::int64_t, std::uint32_t> seen;
  seen.reserve(values.size());
  std::int64_t most = 0;
  for (std::size_t c = 0; c < values.size(); ++c) {
    const std::int64_t v = values[c];
    const std::string cell = "(" + std::to_string(c / uw) + ", " + std::to_string(c % uw) + ")";
    if (v < 0 || static_cast<std::uint64_t>(v) > kMaxTileAddress)
      throw InputError(option + ": cell " + cell + " gets address " + std::to_string(v) +
                       (v < 0 ? ", below 0" : ", above 16777215") + ": addresses run from 0 to 16777215");
    const auto [it, fresh] = seen.emplace(v, static_cast<std::uint32_t>(c));
    if (!fresh)
      throw InputError(option + ": cells (" + std::to_string(it->second / uw) + ", " + std::to_string(it->second % uw) +
                       ") and " + cell + " both map to address " + std::to_string(v) +
                       "; a layout gives each cell an address of its own");
    tile.table_[c] = static_cast<Address>(v);
    most = std::max(most, v);
  }
  tile.span_ = static_cast<std::uint64_t>(most) + 1;
  // A pitch: rows in stretches of p >= w addresses, row i inside [m_0 + i p, m_0 + (i + 1) p), m_i the
  // least address of row i.
  std::vector<std::int64_t> least(uw);
  for (std::uint32_t i = 0; i < uw; ++i)
    least[i] = *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(i) * uw,
                                 values.begin() + static_cast<std::ptrdiff_t>(i + 1) * uw);
  std::int64_t p = least[1] - least[0];
  for (std::uint32_t i = 0; i < uw && p >= static_cast<std::int64_t>(uw); ++i)
    for (std::uint32_t j = 0; j < uw; ++j) {
      const std::int64_t off = values[static_cast<std::size_t>(i) * uw + j] - least[0] - p * i;
      if (off < 0 || off >= p) {
        p = 0;
        break;
      }
    }
  tile.pitch_ = p >= static_cast<std::int64_t>(uw) ? static_cast<std::uint64_t>(p) : 0;
  return tile;
}

}  // namespace mmsim::teaching
