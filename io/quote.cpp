#include "io/quote.h"

namespace mmsim {

std::string quote(const std::string& text, std::size_t limit) {
  std::string out;
  // Blanks and line breaks read as a space, other control bytes (a NUL from /dev/zero, an escape
  // that would drive the terminal) as '?': the message stays one printable line.
  for (char c : text.substr(0, limit)) {
    const auto u = static_cast<unsigned char>(c);
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (text.size() > limit) out += "...";
  return "'" + out + "'";
}

}  // namespace mmsim
