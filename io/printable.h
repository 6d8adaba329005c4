// Text made printable for a message or a JSON string: the UTF-8 rule and the guard of a whole
// message line, beside quote() (io/quote.h), which quotes one value of a user's.
#pragma once

#include <cstddef>
#include <string>

namespace mmsim {

/// The length of the valid UTF-8 character that begins at text[at] (1 to 4 bytes), or 0 where the
/// bytes there are not one (a stray continuation byte, an overlong form, a surrogate, a cut
/// sequence). The one UTF-8 rule of quote(), one_line() and the JSON writer (report/json.cpp).
std::size_t utf8_length(const std::string& text, std::size_t at);

/// A whole message made one printable line of valid UTF-8 of at most `limit` bytes, as quote()
/// makes a value (without the quotes): what the command line prints after "mmsim: ".
std::string one_line(const std::string& message, std::size_t limit = 480);

}  // namespace mmsim
