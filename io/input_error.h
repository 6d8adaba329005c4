// Folder io/ (target mmsim::io): files in and out, apart from what they hold. It owns the two errors
// a user meets (this header), the bounded opening of input files (input_file.h), outputs that
// appear whole or not at all (output_file.h), the check of output paths before any work
// (output_path.h), the memory bound of a run (work_bounds.h) and how a user's text is quoted in a
// message (quote.h). It may include the standard library only.
//
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
