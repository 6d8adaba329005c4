// The error every algorithm, reader and parameter check throws for input a user gave.
#pragma once

#include <stdexcept>

namespace mmsim {

/// A user's bad input: the message is one line "parameter: rule" that the CLI prints on stderr
/// before it exits with status 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An output that could not be written whole (a full disk, a closed pipe, a missing folder): the
/// CLI prints the one-line message and exits with status 1, never reporting the run as done.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace mmsim
