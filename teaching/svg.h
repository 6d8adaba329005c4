// What the teaching views share to draw SVG and colour terminals: escaping, and one colour per bank
// or round (hues around the circle, so that neighbouring banks shade into each other and a shifted
// row shows as a rotated rainbow).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace mmsim::teaching::svg {

inline std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

struct Rgb {
  int r, g, b;
};

/// Colour k of n: hue 360 k / n at fixed saturation and lightness (light enough for black text).
inline Rgb hue_colour(std::uint64_t k, std::uint64_t n, double lightness = 0.72) {
  const double h = n ? 6.0 * static_cast<double>(k % n) / static_cast<double>(n) : 0.0;
  const double s = 0.65, l = lightness;
  const double c = (1 - std::fabs(2 * l - 1)) * s;
  const double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (h < 1)
    r = c, g = x;
  else if (h < 2)
    r = x, g = c;
  else if (h < 3)
    g = c, b = x;
  else if (h < 4)
    g = x, b = c;
  else if (h < 5)
    r = x, b = c;
  else
    r = c, b = x;
  const double m = l - c / 2;
  const auto to = [m](double v) { return static_cast<int>(std::lround((v + m) * 255)); };
  return {to(r), to(g), to(b)};
}

inline std::string hex(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r & 0xff, c.g & 0xff, c.b & 0xff);
  return buf;
}

/// The xterm 256-colour index nearest to c in the 6 x 6 x 6 cube.
inline int xterm256(Rgb c) {
  const auto q = [](int v) { return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40; };
  return 16 + 36 * q(c.r) + 6 * q(c.g) + q(c.b);
}

/// A number with at most `digits` significant digits, for SVG coordinates.
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) {
    const bool dot = s.back() == '.';
    s.pop_back();
    if (dot) break;
  }
  return s;
}

}  // namespace mmsim::teaching::svg
