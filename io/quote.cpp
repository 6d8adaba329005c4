#include "io/quote.h"

#include <algorithm>

#include "io/printable.h"

namespace mmsim {

std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = at(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the second byte's range (RFC 3629, Table 3-7 of Unicode)
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c == 0xe0)
    n = 3, lo = 0xa0;
  else if (c == 0xed)
    n = 3, hi = 0x9f;
  else if (c >= 0xe1 && c <= 0xef)
    n = 3;
  else if (c == 0xf0)
    n = 4, lo = 0x90;
  else if (c >= 0xf1 && c <= 0xf3)
    n = 4;
  else if (c == 0xf4)
    n = 4, hi = 0x8f;
  else
    return 0;
  if (i + n > text.size()) return 0;
  if (at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xbf) return 0;
  return n;
}

namespace {

// Up to `limit` bytes of text made printable: "\n", "\r" and "\t" read as a space, other control
// bytes and DEL (a NUL from /dev/zero, an escape that would drive the terminal) and bytes that are
// not UTF-8 as '?'; a character is never cut in two. `cut` says whether text was left out.
std::string printable(const std::string& text, std::size_t limit, bool& cut) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = utf8_length(text, i);
    if (out.size() + (n == 0 ? 1 : n) > limit) break;
    if (n > 1) {
      out.append(text, i, n);
    } else {
      const char c = text[i];
      const auto u = static_cast<unsigned char>(c);
      out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : (n == 0 || u < 0x20 || u == 0x7f) ? '?' : c;
    }
    i += n == 0 ? 1 : n;
  }
  cut = i < text.size();
  return out;
}

}  // namespace

std::string quote(const std::string& text, std::size_t limit) {
  bool cut = false;
  std::string out = printable(text, limit, cut);
  return "'" + out + (cut ? "..." : "") + "'";
}

std::string shown_name(const std::string& name, std::size_t limit) {
  const bool plain =
      name.size() <= limit && std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
  return plain ? name : quote(name, limit);
}

std::string with_names_shown(std::string message, std::vector<std::string> names, std::size_t limit) {
  std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const auto& name : names) {
    const std::string shown = shown_name(name, limit);
    if (name.empty() || shown == name) continue;
    for (std::size_t at = message.find(name); at != std::string::npos; at = message.find(name, at + shown.size())) {
      message.replace(at, name.size(), shown);
    }
  }
  return message;
}

std::string one_line(const std::string& message, std::size_t limit) {
  bool cut = false;
  std::string out = printable(message, limit, cut);
  return cut ? out + "..." : out;
}

}  // namespace mmsim
