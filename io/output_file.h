// A file that appears whole or not at all. mmsim's results are read by scripts and plots; a run
// stopped half-way (Ctrl-C, a full disk, a crash) must never leave a truncated trace, schedule,
// table or figure that looks like a finished one. So a file is written under a hidden temporary
// name in its own folder and renamed onto its real name only after every byte was written and
// synced: the rename is atomic within one file system, so a reader sees the old file or the new one.
//
// Files that cannot be renamed into are written directly, as a stream: an existing path that is
// not a regular file (a character device such as /dev/null, /dev/full or a terminal, /dev/stdout
// when it is one of those, a FIFO, a socket). Such an output is a stream by nature, its reader sees
// bytes as they come; a failed write there still throws.
//
// Every write is checked: the first failing write's errno ends up in the WriteError's one line
// ("cannot write 'F': No space left on device"), never in a file reported as written.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>

namespace mmsim {

/// The longest name of one path component that file systems take (NAME_MAX).
inline constexpr std::size_t kMaxNameBytes = 255;

/// Whether an existing symbolic link at the path is written through (the user named it: their
/// link, their target) or replaced by the new file (a file beside an output that the user never
/// named, where a planted link must not redirect the write).
enum class Links { Follow, Replace };

class OutputFile {
 public:
  /// Opens the temporary file beside `path` (or `path` itself where it is a special file).
  /// Throws WriteError, one line, when that fails. `option` (say "--svg"), when given, begins
  /// every message: "--svg: cannot write 'F': No space left on device".
  explicit OutputFile(std::string path, std::string option = "", Links links = Links::Follow);
  /// Not committed: the temporary file is removed, and the real file keeps its old content.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Where the content goes; buffered, every system write checked.
  std::ostream& stream();
  /// Throws WriteError now if a write has already failed (so a long writer stops at once).
  void check() const;
  /// Flushes, syncs, closes and renames onto the real name; throws WriteError, one line, when any
  /// of it fails (the temporary file is then removed).
  void commit();
  /// True when the file is written directly (a special file), false when through a rename.
  bool direct() const;
  const std::string& path() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// Writes `text` to `path` through an OutputFile, creating the folder (one level and its parents)
/// first. Throws WriteError, one line, when any step fails.
void write_file_atomically(const std::string& path, const std::string& text, const std::string& option = "",
                           Links links = Links::Follow);

}  // namespace mmsim
