// printf-style formatting for the measured tables' text. The files these functions write were first
// written by awk, bash and Python with the same formats, and are kept byte for byte.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mmsim::experiments::measured {

/// snprintf into a string.
[[gnu::format(printf, 1, 2)]] inline std::string formatted(const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string out(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  return out;
}

/// A number given as text, formatted as bash's printf formats it: read as a long double (so that
/// "nan" stays "nan"), then `format` (a long double conversion such as "%.3Lg").
inline std::string reformatted(const char* format, const std::string& number) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, std::strtold(number.c_str(), nullptr));
  return buf;
}

/// A number as awk prints it: a whole value as an integer, any other with "%.6g".
inline std::string awk_number(double v) {
  if (v > -1e15 && v < 1e15 && v == static_cast<double>(static_cast<long long>(v)))
    return std::to_string(static_cast<long long>(v));
  return formatted("%.6g", v);
}

}  // namespace mmsim::experiments::measured
