#include "algorithms/layouts/congestion_mc.h"

#include <bit>
#include <chrono>
#include <cmath>

#include "algorithms/input_error.h"
#include "algorithms/layouts/bank_counter.h"
#include "algorithms/layouts/patterns.h"
#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"

namespace mmsim::layouts {

namespace {

std::string names_2d() {
  std::string s;
  for (auto k : matrix_layout_kinds()) s += (s.empty() ? "" : ", ") + std::string(to_string(k));
  return s;
}
std::string names_4d() {
  std::string s;
  for (auto k : array4_layout_kinds()) s += (s.empty() ? "" : ", ") + std::string(to_string(k));
  return s;
}
std::string patterns_2d() {
  std::string s;
  for (auto p : matrix_patterns()) s += (s.empty() ? "" : ", ") + std::string(to_string(p));
  return s;
}
std::string patterns_4d() {
  std::string s;
  for (auto p : array4_patterns()) s += (s.empty() ? "" : ", ") + std::string(to_string(p));
  return s;
}

CongestionStats summarize(std::vector<std::uint64_t> histogram, double seconds) {
  CongestionStats s;
  s.seconds = seconds;
  double sum = 0, sq = 0;
  bool first = true;
  for (std::size_t c = 0; c < histogram.size(); ++c) {
    const auto n = histogram[c];
    if (n == 0) continue;
    if (first) s.min = static_cast<int>(c), first = false;
    s.max = static_cast<int>(c);
    s.trials += n;
    sum += static_cast<double>(n) * static_cast<double>(c);
    sq += static_cast<double>(n) * static_cast<double>(c) * static_cast<double>(c);
  }
  histogram.resize(static_cast<std::size_t>(s.max) + 1);
  s.histogram = std::move(histogram);
  const auto t = static_cast<double>(s.trials);
  s.mean = sum / t;
  if (s.trials > 1) {
    const double var = std::max(0.0, (sq - sum * sum / t) / (t - 1));
    s.stderr_mean = std::sqrt(var / t);
  }
  return s;
}

// One (layout, pattern) pair, compiled for it: the loop the speed goal is about. The access's cells
// are made, mapped to banks and counted in one pass (draw_matrix_cells<P> is the same access, written
// out for readers and tests).
template <MatrixLayoutKind K, MatrixPattern P>
CongestionStats run_2d_as(const CongestionQuery& q) {
  const std::uint32_t w = q.w;
  Draws draws(q.seed);
  MatrixLayout layout(K, w, draws);
  std::vector<std::uint64_t> histogram(w + 1, 0);
  BankCounter counter(w);
  // A power-of-two w up to 256 takes a random cell from one 16-bit piece.
  const bool one_piece = (w & (w - 1)) == 0 && w <= 256;
  const auto lg = static_cast<unsigned>(std::countr_zero(w));
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t trial = 0; trial < q.trials; ++trial) {
    if (trial > 0) layout.redraw(draws);
    counter.start();
    std::uint32_t worst = 0;
    if constexpr (P == MatrixPattern::Random) {
      for (std::uint32_t t = 0; t < w; ++t) {
        std::uint32_t i, j;
        if (one_piece) {
          const std::uint32_t v = draws.next16();
          i = (v >> lg) & (w - 1), j = v & (w - 1);
        } else {
          i = draws.below(w), j = draws.below(w);
        }
        worst = std::max(worst, counter.add_unique(layout.template bank_as<K>(i, j), layout.template address_as<K>(i, j), t));
      }
    } else {
      const std::uint32_t x = draws.below(w);  // the row, column or diagonal of the access
      for (std::uint32_t t = 0; t < w; ++t) {
        if constexpr (P == MatrixPattern::Contiguous) {
          worst = std::max(worst, counter.add(layout.template bank_as<K>(x, t)));
        } else if constexpr (P == MatrixPattern::Stride) {
          worst = std::max(worst, counter.add(layout.template bank_as<K>(t, x)));
        } else {
          const std::uint32_t c = x + t;
          worst = std::max(worst, counter.add(layout.template bank_as<K>(t, c >= w ? c - w : c)));
        }
      }
    }
    ++histogram[worst];
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return summarize(std::move(histogram), s);
}

template <MatrixLayoutKind K>
CongestionStats run_2d_layout(const CongestionQuery& q, MatrixPattern p) {
  switch (p) {
    case MatrixPattern::Contiguous: return run_2d_as<K, MatrixPattern::Contiguous>(q);
    case MatrixPattern::Stride: return run_2d_as<K, MatrixPattern::Stride>(q);
    case MatrixPattern::Diagonal: return run_2d_as<K, MatrixPattern::Diagonal>(q);
    case MatrixPattern::Random: break;
  }
  return run_2d_as<K, MatrixPattern::Random>(q);
}

CongestionStats run_2d(const CongestionQuery& q) {
  const auto p = *matrix_pattern_from_name(q.pattern);
  switch (*matrix_layout_from_name(q.layout)) {
    case MatrixLayoutKind::Raw: return run_2d_layout<MatrixLayoutKind::Raw>(q, p);
    case MatrixLayoutKind::Ras: return run_2d_layout<MatrixLayoutKind::Ras>(q, p);
    case MatrixLayoutKind::Rap: return run_2d_layout<MatrixLayoutKind::Rap>(q, p);
    case MatrixLayoutKind::Pad: return run_2d_layout<MatrixLayoutKind::Pad>(q, p);
    case MatrixLayoutKind::Xor: break;
  }
  return run_2d_layout<MatrixLayoutKind::Xor>(q, p);
}

CongestionStats run_4d(const CongestionQuery& q) {
  const auto kind = *array4_layout_from_name(q.layout);
  const auto pattern = *array4_pattern_from_name(q.pattern);
  const std::uint32_t w = q.w;
  Draws draws(q.seed);
  Array4Layout layout(kind, w);
  std::vector<Cell4> cells(w);
  std::vector<std::uint32_t> scratch(w), banks(w);
  std::vector<Address> addrs(w);
  std::vector<std::uint64_t> histogram(w + 1, 0);
  BankCounter counter(w);
  const bool distinct = !may_repeat(pattern);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t trial = 0; trial < q.trials; ++trial) {
    layout.redraw();
    draw_array4_pattern(pattern, kind, w, draws, cells.data(), scratch.data());
    for (std::uint32_t t = 0; t < w; ++t) {
      const Cell4& c = cells[t];
      banks[t] = layout.bank(c.i, c.j, c.k, c.l, draws);
      if (!distinct) addrs[t] = layout.address(c.i, c.j, c.k, c.l, draws);
    }
    ++histogram[static_cast<std::size_t>(counter.congestion(banks.data(), addrs.data(), w, distinct))];
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return summarize(std::move(histogram), s);
}

}  // namespace

void CongestionQuery::validate() const {
  if (dims != 2 && dims != 4) throw InputError("--dims: must be 2 (w x w matrix) or 4 (w^4 array)");
  if (dims == 2) {
    if (!matrix_layout_from_name(layout))
      throw InputError("--layout: unknown '" + layout + "' for --dims 2 (one of " + names_2d() + ")");
    if (!matrix_pattern_from_name(pattern))
      throw InputError("--pattern: unknown '" + pattern + "' for --dims 2 (one of " + patterns_2d() + ")");
    if (w < 2 || w > 65536) throw InputError("-w: must be between 2 and 65536");
  } else {
    if (!array4_layout_from_name(layout))
      throw InputError("--layout: unknown '" + layout + "' for --dims 4 (one of " + names_4d() + ")");
    if (!array4_pattern_from_name(pattern))
      throw InputError("--pattern: unknown '" + pattern + "' for --dims 4 (one of " + patterns_4d() + ")");
    if (w < 2 || w > 4096) throw InputError("-w: must be between 2 and 4096 for --dims 4");
  }
  if (trials < 1) throw InputError("--trials: must be >= 1");
  const std::uint64_t cap = dims == 2 ? kMaxWork2 : kMaxWork4;
  if (trials > cap / w)
    throw InputError("--trials: trials x w must stay below " + std::to_string(cap) + " (at most " +
                     std::to_string(cap / w) + " trials for w = " + std::to_string(w) + ")");
}

CongestionStats simulate_congestion(const CongestionQuery& q) {
  q.validate();
  return q.dims == 2 ? run_2d(q) : run_4d(q);
}

}  // namespace mmsim::layouts
