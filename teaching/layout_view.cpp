#include "teaching/layout_view.h"

#include <algorithm>
#include <sstream>

#include "io/input_error.h"
#include "io/quote.h"
#include "models/layouts/draws.h"
#include "teaching/access.h"
#include "teaching/posed_access.h"
#include "teaching/svg.h"

namespace mmsim::teaching {

namespace {

std::string names_4d() {
  std::string s;
  for (auto k : layouts::array4_layout_kinds()) s += (s.empty() ? "" : ", ") + std::string(layouts::to_string(k));
  return s;
}

}  // namespace

DrawnLayout::DrawnLayout(std::string_view name, int dims, int w, std::uint64_t seed)
    : name_(name), dims_(dims), seed_(seed) {
  if (dims != 2 && dims != 4) throw InputError("--dims: must be 2 (w x w matrix) or 4 (w^4 array)");
  if (dims == 2) {
    matrix_.emplace(parse_layout(name, w, seed));
    w_ = matrix_->w();
  } else {
    const auto kind = layouts::array4_layout_from_name(name);
    if (!kind) throw InputError("--layout: unknown " + quote(name_) + " for a w^4 array (one of " + names_4d() + ")");
    if (w < 2 || w > kMaxWidth4)
      throw InputError("-w: a w^4 layout here needs 2 <= w <= 64 (got " + std::to_string(w) + ")");
    w_ = static_cast<std::uint32_t>(w);
    kind4_ = *kind;
    layouts::Array4Layout layout(kind4_, w_);
    layouts::Draws draws(seed);
    shift4_.resize(static_cast<std::size_t>(w_) * w_ * w_);
    std::size_t at = 0;
    for (std::uint32_t i = 0; i < w_; ++i)
      for (std::uint32_t j = 0; j < w_; ++j)
        for (std::uint32_t k = 0; k < w_; ++k) shift4_[at++] = layout.shift(i, j, k, draws);
  }
}

bool DrawnLayout::random() const {
  if (dims_ == 2) return matrix_->named() && !matrix_->named()->shifts().empty();
  return kind4_ != layouts::Array4LayoutKind::Raw;
}

Address DrawnLayout::address(const std::uint32_t* c) const {
  if (dims_ == 2) return matrix_->address(c[0], c[1]);

  const std::uint32_t f = shift4_[(static_cast<std::size_t>(c[0]) * w_ + c[1]) * w_ + c[2]];
  const std::uint32_t col = c[3] + f >= w_ ? c[3] + f - w_ : c[3] + f;
  return ((static_cast<Address>(c[0]) * w_ + c[1]) * w_ + c[2]) * w_ + col;
}

std::string DrawnLayout::describe() const {
  if (dims_ == 2) return matrix_->describe();
  std::string s = name_ + " (w^4 array, w = " + std::to_string(w_);
  if (!random()) return s + ")";
  return s + ", seed " + std::to_string(seed_) + ": " + std::to_string(layouts::random_numbers(kind4_, w_)) +
         " random numbers)";
}

std::uint64_t shown_cells(const DrawnLayout& l, const SliceChoice& slice) {
  const std::uint64_t w = l.w();
  if (l.dims() == 2 || slice.ij) return w * w;
  return w * w * w * w;
}

namespace {

// Calls f(i, j, cells of the slice) for every slice shown: one slice (i, j) = (0, 0) for a matrix.
template <typename F>
void for_each_slice(const DrawnLayout& l, const SliceChoice& slice, F&& f) {
  if (l.dims() == 2) return f(0u, 0u);
  if (slice.ij) return f(slice.ij->first, slice.ij->second);
  for (std::uint32_t i = 0; i < l.w(); ++i)
    for (std::uint32_t j = 0; j < l.w(); ++j) f(i, j);
}

// Bank of row r, column c of slice (i, j).
std::uint32_t bank_at(const DrawnLayout& l, std::uint32_t i, std::uint32_t j, std::uint32_t r, std::uint32_t c) {
  if (l.dims() == 2) {
    const std::uint32_t cell[2] = {r, c};
    return l.bank(cell);
  }
  const std::uint32_t cell[4] = {i, j, r, c};
  return l.bank(cell);
}

}  // namespace

std::string layout_text(const DrawnLayout& l, bool colour, const SliceChoice& slice) {
  std::ostringstream out;
  const std::uint32_t w = l.w();
  const std::size_t cw = std::to_string(w - 1).size() + 1;
  const std::size_t rw = std::max<std::size_t>(std::to_string(w - 1).size(), 1);
  out << "layout " << l.describe() << "\n";
  out << "bank of every cell (bank = address mod " << w << ")";
  if (l.dims() == 2)
    out << "; row i, column j is cell (i, j)\n";
  else
    out << "; slice a[i][j][*][*], row k, column l is a[i][j][k][l]\n";
  for_each_slice(l, slice, [&](std::uint32_t i, std::uint32_t j) {
    out << "\n";
    if (l.dims() == 4) out << "a[" << i << "][" << j << "][k][l]:\n";
    out << std::string(rw, ' ') << " |";
    for (std::uint32_t c = 0; c < w; ++c) {
      const std::string h = std::to_string(c);
      out << std::string(cw - h.size(), ' ') << h;
    }
    out << "\n" << std::string(rw, '-') << "-+" << std::string(cw * w, '-') << "\n";
    for (std::uint32_t r = 0; r < w; ++r) {
      const std::string h = std::to_string(r);
      out << std::string(rw - h.size(), ' ') << h << " |";
      for (std::uint32_t c = 0; c < w; ++c) {
        const std::uint32_t b = bank_at(l, i, j, r, c);
        const std::string v = std::to_string(b);
        if (colour) {
          const int x = svg::xterm256(svg::hue_colour(b, w));
          out << std::string(cw - v.size(), ' ') << "\033[30;48;5;" << x << "m" << v << "\033[0m";
        } else {
          out << std::string(cw - v.size(), ' ') << v;
        }
      }
      out << "\n";
    }
  });
  return out.str();
}

report::Json layout_json(const DrawnLayout& l, const SliceChoice& slice) {
  using report::Json;
  const std::uint32_t w = l.w();
  Json j = Json::object();
  j.set("layout", l.name()).set("dims", l.dims()).set("w", static_cast<unsigned>(w));
  j.set("seed", l.random() ? Json(static_cast<unsigned long long>(l.seed())) : Json());
  j.set("description", l.describe());
  if (slice.ij) j.set("slice", Json::array().push(slice.ij->first).push(slice.ij->second));
  const auto grid = [&](std::uint32_t i, std::uint32_t jj) {
    Json rows = Json::array();
    for (std::uint32_t r = 0; r < w; ++r) {
      Json row = Json::array();
      for (std::uint32_t c = 0; c < w; ++c) row.push(bank_at(l, i, jj, r, c));
      rows.push(std::move(row));
    }
    return rows;
  };
  if (l.dims() == 2) {
    j.set("banks", grid(0, 0));
  } else if (slice.ij) {
    j.set("banks", grid(slice.ij->first, slice.ij->second));
  } else {
    Json outer = Json::array();
    for (std::uint32_t i = 0; i < w; ++i) {
      Json mid = Json::array();
      for (std::uint32_t jj = 0; jj < w; ++jj) mid.push(grid(i, jj));
      outer.push(std::move(mid));
    }
    j.set("banks", std::move(outer));
  }
  return j;
}

std::string layout_svg(const DrawnLayout& l, const SliceChoice& slice) {
  const std::uint32_t w = l.w();
  // A matrix, or one slice: w x w squares. Every slice of a w^4 array: a w x w arrangement of
  // slices (i down, j across), each w x w squares (k down, l across), with a gap between slices.
  const bool tiled = l.dims() == 4 && !slice.ij;
  const std::uint32_t side = tiled ? w * w : w;
  const double cell = std::clamp(900.0 / side, 3.0, 30.0);
  const double gap = tiled ? std::max(2.0, cell) : 0.0;
  const bool labels = tiled && w * cell >= 20;  // i and j beside the slices, where they fit
  const double left = labels ? 64 : 40, top = labels ? 74 : 56;
  const double size = side * cell + (tiled ? (w - 1) * gap : 0.0);
  const bool numbers = cell >= 14;
  const std::string title = "layout " + l.describe();
  std::string sub = l.dims() == 2 ? "bank of cell (i, j): row i, column j" : "bank of a[i][j][k][l]";
  if (tiled)
    sub += ": slices a[i][j][*][*], i down, j across; inside a slice row k, column l";
  else if (l.dims() == 4)
    sub += " for i = " + std::to_string(slice.ij->first) + ", j = " + std::to_string(slice.ij->second) +
           ": row k, column l";
  sub += "; colour = bank";
  // Wide enough for the two lines of text (monospace: about 0.6 em a character).
  const double width = std::max(
      {left + size + 20, 20 + 9.0 * static_cast<double>(title.size()), 20 + 7.2 * static_cast<double>(sub.size())});
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << svg::num(width) << "\" height=\""
    << svg::num(top + size + 40) << "\" font-family=\"monospace\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"10\" y=\"22\" font-size=\"15\">" << svg::escape(title) << "</text>\n";
  o << "<text x=\"10\" y=\"42\" font-size=\"12\">" << svg::escape(sub) << "</text>\n";
  if (labels)
    for (std::uint32_t k = 0; k < w; ++k) {
      const double at = k * (w * cell + gap) + w * cell / 2;
      o << "<text x=\"" << svg::num(left + at) << "\" y=\"" << svg::num(top - 8)
        << "\" font-size=\"12\" text-anchor=\"middle\">j = " << k << "</text><text x=\"" << svg::num(left - 8)
        << "\" y=\"" << svg::num(top + at + 4) << "\" font-size=\"12\" text-anchor=\"end\">i = " << k << "</text>\n";
    }
  for_each_slice(l, slice, [&](std::uint32_t i, std::uint32_t j) {
    const double x0 = left + (tiled ? j * (w * cell + gap) : 0.0);
    const double y0 = top + (tiled ? i * (w * cell + gap) : 0.0);
    for (std::uint32_t r = 0; r < w; ++r)
      for (std::uint32_t c = 0; c < w; ++c) {
        const std::uint32_t b = bank_at(l, i, j, r, c);
        const double x = x0 + c * cell, y = y0 + r * cell;
        o << "<rect x=\"" << svg::num(x) << "\" y=\"" << svg::num(y) << "\" width=\"" << svg::num(cell)
          << "\" height=\"" << svg::num(cell) << "\" fill=\"" << svg::hex(svg::hue_colour(b, w)) << "\""
          << (numbers ? " stroke=\"white\"" : "") << "><title>bank " << b << "</title></rect>";
        if (numbers)
          o << "<text x=\"" << svg::num(x + cell / 2) << "\" y=\"" << svg::num(y + cell * 0.68) << "\" font-size=\""
            << svg::num(cell * 0.45) << "\" text-anchor=\"middle\">" << b << "</text>";
        o << "\n";
      }
  });
  if (!tiled && numbers) {  // row and column indices
    for (std::uint32_t k = 0; k < w; ++k) {
      o << "<text x=\"" << svg::num(left - 6) << "\" y=\"" << svg::num(top + k * cell + cell * 0.68)
        << "\" font-size=\"11\" text-anchor=\"end\">" << k << "</text>";
      o << "<text x=\"" << svg::num(left + k * cell + cell / 2) << "\" y=\"" << svg::num(top + size + 14)
        << "\" font-size=\"11\" text-anchor=\"middle\">" << k << "</text>\n";
    }
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace mmsim::teaching

namespace mmsim::teaching {

std::vector<LayoutAccess> layout_accesses(const DrawnLayout& l, const AccessShape& shape) {
  const std::uint32_t w = l.w(), v = shape.vector, vw = std::max<std::uint32_t>(w / v, 1);
  MachineParams m;
  m.model = ModelKind::Dmm;
  m.w = static_cast<int>(w);
  m.l = 1;
  struct Pattern {
    const char* name;
    const char* cells;
  };
  const bool vec = v > 1;
  const Pattern patterns[] = {{"row", vec ? "k, v t" : "k, t"},
                              {"column", vec ? "t, v k" : "t, k"},
                              {"diagonal", vec ? "t, v ((k + t) mod w/v)" : "t, (k + t) mod w"}};
  std::optional<F2Congestion> closed;
  if (l.tile().f2_matrix() && plain_access(shape, Op::Read)) closed = f2_congestion(*l.tile().f2_matrix(), w);
  std::vector<LayoutAccess> out;
  for (int p = 0; p < 3; ++p) {
    // Row: w warps of w / v threads; column and diagonal: w / v warps of w threads.
    const std::uint32_t warps = p == 0 ? w : vw, threads = p == 0 ? vw : w;
    std::vector<std::vector<Address>> addr(warps, std::vector<Address>(w, kNoAddress));
    for (std::uint32_t k = 0; k < warps; ++k)
      for (std::uint32_t t = 0; t < threads; ++t) {
        const std::uint32_t i = p == 0 ? k : t;
        const std::uint32_t j = p == 0 ? v * t : p == 1 ? v * k : v * ((k + t) % vw);
        const std::uint32_t cell[2] = {i, j};
        const Address a = l.address(cell);
        if (a % v != 0)
          throw InputError("--vector: cell (" + std::to_string(i) + ", " + std::to_string(j) + ") is at address " +
                           std::to_string(a) + " under " + l.tile().text() + ", not a multiple of the vector (" +
                           std::to_string(v) + "): a vector access is aligned to its size");
        addr[k][t] = a;
      }
    const AccessResult r = simulate_access(m, addr, {}, shape, Op::Read);
    LayoutAccess a;
    a.name = patterns[p].name;
    a.cells = patterns[p].cells;
    for (std::size_t k = 0; k < r.views.size(); ++k) {
      a.congestion = std::max(a.congestion, r.views[k].congestion);
      a.wavefronts = std::max(a.wavefronts, r.slots[k]);
      a.slots += static_cast<std::uint64_t>(r.slots[k]);
    }
    if (closed && p == 0) a.closed_form = closed->row();
    if (closed && p == 1) a.closed_form = closed->column();
    out.push_back(std::move(a));
  }
  return out;
}

std::string layout_accesses_text(const std::vector<LayoutAccess>& a, const DrawnLayout& l, const AccessShape& shape) {
  std::ostringstream out;
  const bool f2 = l.tile().f2_matrix().has_value();
  out << "\nwarp k reads row, column or diagonal k, every k at once: one instruction, simulated on a DMM (w = " << l.w()
      << ", latency 1), " << shape.element_bytes << "-byte elements";
  if (shape.vector > 1) out << ", vectors of " << shape.vector;
  out << ":\n";
  out << "  access    thread t's cell              congestion  wavefronts  slots of all warps";
  // congestion and wavefronts: the worst warp's.
  if (f2) out << "  from the F2 rank";
  out << "\n";
  for (const auto& x : a) {
    std::string line = "  " + x.name + std::string(10 - x.name.size(), ' ') + "(" + x.cells + ")";
    line.resize(std::max<std::size_t>(line.size(), 39), ' ');
    const auto col = [&](const std::string& s, std::size_t width) {
      line += std::string(width > s.size() ? width - s.size() : 1, ' ') + s;
    };
    col(std::to_string(x.congestion), 10);
    col(std::to_string(x.wavefronts), 12);
    col(std::to_string(x.slots), 20);
    if (f2) col(x.closed_form ? std::to_string(*x.closed_form) : std::string("-"), 19);
    out << line << "\n";
  }
  if (f2) {
    if (plain_access(shape, Op::Read)) {
      const auto c = f2_congestion(*l.tile().f2_matrix(), l.w());
      out << "  F2: the bank bits over j's bits have rank " << c.row_rank << ", over i's " << c.column_rank << " of "
          << c.bank_bits << ": a row meets 2^(" << c.bank_bits << " - " << c.row_rank << ") = " << c.row()
          << " requests in a bank, a column 2^(" << c.bank_bits << " - " << c.column_rank << ") = " << c.column()
          << "\n";
    } else {
      out << "  F2: the rank's figure is for 4-byte elements, one a thread\n";
    }
  }
  return out.str();
}

report::Json layout_accesses_json(const std::vector<LayoutAccess>& a) {
  using report::Json;
  Json arr = Json::array();
  for (const auto& x : a) {
    Json o = Json::object();
    o.set("access", x.name).set("cells", x.cells).set("congestion", x.congestion).set("wavefronts", x.wavefronts);
    o.set("slots", static_cast<unsigned long long>(x.slots));
    o.set("f2_rank_congestion", x.closed_form ? Json(static_cast<unsigned long long>(*x.closed_form)) : Json());
    arr.push(std::move(o));
  }
  return arr;
}

report::Json matrix_layout_report(std::string_view text, int w, std::uint64_t seed, std::int64_t element_bytes,
                                  std::int64_t vector) {
  for (const auto& [spec, v] :
       {std::pair{access_element_bytes_param(), element_bytes}, std::pair{access_vector_param(), vector}})
    if (const auto err = integer_error(v, spec)) throw InputError(spec.flags + ": " + *err);
  const PosedShape shaped =
      pose_shape(static_cast<std::uint32_t>(element_bytes), static_cast<std::uint32_t>(vector), "read");
  const DrawnLayout layout(text, 2, w, seed);
  report::Json j = layout_json(layout);
  j.set("language", to_string(layout.tile().language()));
  if (static_cast<std::uint64_t>(layout.w()) * layout.w() <= kMaxPosedThreads)
    j.set("accesses", layout_accesses_json(layout_accesses(layout, shaped.shape)));
  return j;
}

namespace {

// The tile: for every row its w cells' banks, then the banks of its padding (the addresses of its
// stretch that no cell has), and which cells are outlined.
struct TileGrid {
  std::uint32_t w = 0, pad = 0;
  std::vector<std::uint32_t> bank;      // (i, c) at i (w + pad) + c, c < w a cell, else padding
  std::vector<char> marked;             // outlined cells
  std::vector<std::int64_t> thread_of;  // the outlining thread of a cell (-1: none)
};

TileGrid tile_grid(const DrawnLayout& l, const std::vector<std::vector<std::int64_t>>& outlined) {
  TileGrid g;
  const MatrixTile& tile = l.tile();
  g.w = l.w();
  const std::uint64_t pitch = tile.pitch();
  g.pad = pitch > g.w ? static_cast<std::uint32_t>(std::min<std::uint64_t>(pitch - g.w, g.w)) : 0;
  const std::uint32_t cols = g.w + g.pad;
  g.bank.assign(static_cast<std::size_t>(g.w) * cols, 0);
  g.marked.assign(g.bank.size(), 0);
  g.thread_of.assign(g.bank.size(), -1);
  Address least0 = ~Address{0};
  for (std::uint32_t j = 0; j < g.w; ++j) least0 = std::min(least0, tile.address(0, j));
  for (std::uint32_t i = 0; i < g.w; ++i) {
    std::vector<char> used(g.pad ? pitch : 0, 0);
    const Address base = least0 + i * pitch;
    for (std::uint32_t j = 0; j < g.w; ++j) {
      const Address a = tile.address(i, j);
      g.bank[static_cast<std::size_t>(i) * cols + j] = static_cast<std::uint32_t>(a % g.w);
      if (g.pad) used[a - base] = 1;
    }
    std::uint32_t c = g.w;
    for (std::uint64_t off = 0; off < used.size() && c < cols; ++off)
      if (!used[off]) g.bank[static_cast<std::size_t>(i) * cols + c++] = static_cast<std::uint32_t>((base + off) % g.w);
  }
  for (std::size_t t = 0; t < outlined.size(); ++t) {
    const auto& cell = outlined[t];
    if (cell.size() != 2 || cell[0] < 0 || cell[1] < 0 || cell[0] >= g.w || cell[1] >= g.w) continue;
    const std::size_t at = static_cast<std::size_t>(cell[0]) * cols + static_cast<std::size_t>(cell[1]);
    g.marked[at] = 1;
    if (g.thread_of[at] < 0) g.thread_of[at] = static_cast<std::int64_t>(t);
  }
  return g;
}

}  // namespace

std::string tile_text(const DrawnLayout& l, const std::vector<std::vector<std::int64_t>>& outlined, bool colour,
                      const std::string& caption) {
  const TileGrid g = tile_grid(l, outlined);
  const std::uint32_t cols = g.w + g.pad;
  const std::size_t digits = std::to_string(std::max<std::uint32_t>(g.w, cols) - 1).size();
  const std::size_t rw = std::to_string(g.w - 1).size();
  std::ostringstream out;
  out << "tile of " << l.describe() << ": cell (i, j) shows its bank";
  if (!caption.empty()) out << "; [b] marks " << caption;
  if (g.pad)
    out << (g.pad > 1 ? "; columns " + std::to_string(g.w) + " .. " + std::to_string(cols - 1) + " are padding"
                      : "; column " + std::to_string(g.w) + " is padding");
  out << "\n" << std::string(rw, ' ') << " |";
  for (std::uint32_t c = 0; c < cols; ++c) {
    if (c == g.w) out << " |";
    const std::string h = c < g.w ? std::to_string(c) : "p";
    out << std::string(digits + 2 - h.size() - 1, ' ') << h << " ";
  }
  out << "\n" << std::string(rw, '-') << "-+" << std::string((digits + 2) * cols + (g.pad ? 2 : 0), '-') << "\n";
  for (std::uint32_t i = 0; i < g.w; ++i) {
    const std::string h = std::to_string(i);
    out << std::string(rw - h.size(), ' ') << h << " |";
    for (std::uint32_t c = 0; c < cols; ++c) {
      if (c == g.w) out << " |";
      const std::size_t at = static_cast<std::size_t>(i) * cols + c;
      const std::string b = std::to_string(g.bank[at]);
      const bool mark = g.marked[at];
      std::string s = std::string(mark ? "[" : " ") + std::string(digits - b.size(), ' ') + b + (mark ? "]" : " ");
      if (colour) {
        const int x = c < g.w ? svg::xterm256(svg::hue_colour(g.bank[at], g.w)) : 250;
        s = "\033[30;48;5;" + std::to_string(x) + "m" + s + "\033[0m";
      }
      out << s;
    }
    out << "\n";
  }
  return out.str();
}

std::string tile_svg(const DrawnLayout& l, const std::vector<std::vector<std::int64_t>>& outlined,
                     const std::string& caption) {
  const TileGrid g = tile_grid(l, outlined);
  const std::uint32_t cols = g.w + g.pad;
  const double cell = std::clamp(900.0 / cols, 6.0, 36.0);
  const double left = 40, top = 60, gap = g.pad ? cell / 3 : 0;
  const bool numbers = cell >= 14;
  const std::string title = "tile of " + l.describe();
  std::string sub = "bank of cell (i, j): row i, column j; colour = bank";
  if (g.pad) sub += "; grey = padding";
  if (!caption.empty()) sub += "; outlined: " + caption;
  const double width = std::max({left + cols * cell + gap + 20, 20 + 9.0 * static_cast<double>(title.size()),
                                 20 + 7.2 * static_cast<double>(sub.size())});
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << svg::num(width) << "\" height=\""
    << svg::num(top + g.w * cell + 40) << "\" font-family=\"monospace\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"10\" y=\"22\" font-size=\"15\">" << svg::escape(title) << "</text>\n";
  o << "<text x=\"10\" y=\"42\" font-size=\"12\">" << svg::escape(sub) << "</text>\n";
  std::ostringstream marks;  // drawn last, over their neighbours
  for (std::uint32_t i = 0; i < g.w; ++i)
    for (std::uint32_t c = 0; c < cols; ++c) {
      const std::size_t at = static_cast<std::size_t>(i) * cols + c;
      const std::uint32_t b = g.bank[at];
      const double x = left + c * cell + (c >= g.w ? gap : 0), y = top + i * cell;
      const std::string fill = c < g.w ? svg::hex(svg::hue_colour(b, g.w)) : "#d9d9d9";
      o << "<rect x=\"" << svg::num(x) << "\" y=\"" << svg::num(y) << "\" width=\"" << svg::num(cell) << "\" height=\""
        << svg::num(cell) << "\" fill=\"" << fill << "\" stroke=\"white\"><title>"
        << (c < g.w ? "cell (" + std::to_string(i) + ", " + std::to_string(c) + ")" : std::string("padding"))
        << ", bank " << b << (g.thread_of[at] >= 0 ? ", thread " + std::to_string(g.thread_of[at]) : std::string())
        << "</title></rect>";
      if (numbers)
        o << "<text x=\"" << svg::num(x + cell / 2) << "\" y=\"" << svg::num(y + cell * 0.68) << "\" font-size=\""
          << svg::num(cell * 0.45) << "\" text-anchor=\"middle\"" << (c < g.w ? "" : " fill=\"#666666\"") << ">" << b
          << "</text>";
      o << "\n";
      if (g.marked[at])
        marks << "<rect x=\"" << svg::num(x + 1.5) << "\" y=\"" << svg::num(y + 1.5) << "\" width=\""
              << svg::num(cell - 3) << "\" height=\"" << svg::num(cell - 3)
              << "\" fill=\"none\" stroke=\"black\" stroke-width=\"3\"/>\n";
    }
  o << marks.str();
  if (numbers)
    for (std::uint32_t k = 0; k < g.w; ++k) {
      o << "<text x=\"" << svg::num(left - 6) << "\" y=\"" << svg::num(top + k * cell + cell * 0.68)
        << "\" font-size=\"11\" text-anchor=\"end\">" << k << "</text>";
      o << "<text x=\"" << svg::num(left + k * cell + cell / 2) << "\" y=\"" << svg::num(top + g.w * cell + 14)
        << "\" font-size=\"11\" text-anchor=\"middle\">" << k << "</text>\n";
    }
  o << "</svg>\n";
  return o.str();
}

std::optional<AccessTile> access_tile(const PosedAccess& posed, std::string_view layout, int w, std::uint64_t seed,
                                      std::uint64_t warp) {
  if (posed.cells.empty() ||
      std::any_of(posed.cells.begin(), posed.cells.end(), [](const auto& c) { return c.size() != 2; }))
    return std::nullopt;
  if (warp >= posed.warps.size())
    throw InputError("--tile-warp: warp " + std::to_string(warp) + " does not exist (the access has " +
                     std::to_string(posed.warps.size()) + " warp" + (posed.warps.size() == 1 ? "" : "s") + ")");
  const auto uw = static_cast<std::size_t>(w), first = static_cast<std::size_t>(warp) * uw;
  const auto end = std::min(posed.cells.size(), first + uw);
  return AccessTile{DrawnLayout(layout, 2, w, seed),
                    std::vector<std::vector<std::int64_t>>(posed.cells.begin() + static_cast<std::ptrdiff_t>(first),
                                                           posed.cells.begin() + static_cast<std::ptrdiff_t>(end)),
                    "the cells of warp " + std::to_string(warp) + "'s access"};
}

}  // namespace mmsim::teaching
