#include "teaching/layout_view.h"

#include <algorithm>
#include <sstream>

#include "io/input_error.h"
#include "io/quote.h"
#include "models/layouts/draws.h"
#include "teaching/svg.h"

namespace mmsim::teaching {

namespace {

std::string names_2d() {
  std::string s;
  for (auto k : layouts::matrix_layout_kinds()) s += (s.empty() ? "" : ", ") + std::string(layouts::to_string(k));
  return s;
}
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
    const auto kind = layouts::matrix_layout_from_name(name);
    if (!kind)
      throw InputError("--layout: unknown " + quote(name_) + " for a w x w matrix (one of " + names_2d() +
                       "; the w^4 schemes take --dims 4 or four cell expressions)");
    if (w < 2 || w > kMaxWidth2) throw InputError("-w: a layout needs 2 <= w <= 65536 (got " + std::to_string(w) + ")");
    w_ = static_cast<std::uint32_t>(w);
    layouts::Draws draws(seed);
    matrix_.emplace(*kind, w_, draws);
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
  if (dims_ == 2) return !matrix_->shifts().empty();
  return kind4_ != layouts::Array4LayoutKind::Raw;
}

Address DrawnLayout::address(const std::uint32_t* c) const {
  if (dims_ == 2) return matrix_->address(c[0], c[1]);
  const std::uint32_t f = shift4_[(static_cast<std::size_t>(c[0]) * w_ + c[1]) * w_ + c[2]];
  const std::uint32_t col = c[3] + f >= w_ ? c[3] + f - w_ : c[3] + f;
  return ((static_cast<Address>(c[0]) * w_ + c[1]) * w_ + c[2]) * w_ + col;
}

std::string DrawnLayout::describe() const {
  std::string s = name_ + " (" + (dims_ == 2 ? "w x w matrix" : "w^4 array") + ", w = " + std::to_string(w_);
  if (!random()) return s + ")";
  s += ", seed " + std::to_string(seed_);
  if (dims_ == 2) {
    s += ": r =";
    for (auto r : matrix_->shifts()) s += " " + std::to_string(r);
  } else {
    s += ": " + std::to_string(layouts::random_numbers(kind4_, w_)) + " random numbers";
  }
  return s + ")";
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
