// How a user's text appears inside a message: quoted, cut short, and on one printable line, so that
// a value pasted into an error can neither flood the terminal nor drive it.
#pragma once

#include <cstddef>
#include <string>

namespace mmsim {

/// Quotes at most `limit` characters of a user's text for a message (longer text ends in "...");
/// line breaks and tabs read as a space, other control bytes as '?'.
std::string quote(const std::string& text, std::size_t limit = 40);

}  // namespace mmsim
