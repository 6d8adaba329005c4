// How a user's text appears inside a message: quoted, cut short, and on one printable line, so that
// a value pasted into an error can neither flood the terminal nor drive it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mmsim {

/// A user's value as a message shows it: between single quotes, the first `limit` bytes of it at
/// most, cut only where a UTF-8 character begins, and "..." before the closing quote when text was
/// left out ('abc...'). Each "\n", "\r" and "\t" reads as a space; every other control byte (below
/// 0x20, and DEL) and every byte that is not part of a valid UTF-8 character (io/printable.h,
/// utf8_length) reads as '?'. So the result is one printable line of valid UTF-8 of at most
/// limit + 5 bytes, whatever the text.
std::string quote(const std::string& text, std::size_t limit = 40);

/// A name the user gave (a kernel's, a step's, an array's) as a message shows it: as it is where it
/// is at most `limit` bytes of printable ASCII ("kernel k: step read a"), else quote(name, limit).
std::string shown_name(const std::string& name, std::size_t limit = 32);

/// `message`, composed by code that pastes names whole (the engine's "kernel NAME step 0 (NAME):
/// address ... outside NAME[n]"), with every occurrence of each of `names` that shown_name()
/// changes replaced by its shown form, longest names first: the message then echoes no more of a
/// name than quote() does, and no control byte of one.
std::string with_names_shown(std::string message, std::vector<std::string> names, std::size_t limit = 32);

}  // namespace mmsim
