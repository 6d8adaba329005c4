// How a user's text appears inside a message: quoted, cut short, and on one printable line, so that
// a value pasted into an error can neither flood the terminal nor drive it.
#pragma once

#include <cstddef>
#include <string>

namespace mmsim {

/// A user's value as a message shows it: between single quotes, the first `limit` bytes of it at
/// most, cut only where a UTF-8 character begins, and "..." before the closing quote when text was
/// left out ('abc...'). Each "\n", "\r" and "\t" reads as a space; every other control byte (below
/// 0x20, and DEL) and every byte that is not part of a valid UTF-8 character (io/printable.h,
/// utf8_length) reads as '?'. So the result is one printable line of valid UTF-8 of at most
/// limit + 5 bytes, whatever the text.
std::string quote(const std::string& text, std::size_t limit = 40);

}  // namespace mmsim
