// Opening an input file safely, apart from parsing it. Every file mmsim reads (permutation,
// schedule, BMMC matrix, keys, sweep grid, trace) goes through InputFile: only a regular file is
// read (a FIFO would block for ever, a device such as /dev/zero never ends), its size is checked
// against what the run implies before the first byte, and reading stops at that bound. The parsers
// take a std::istream or bytes, so that they can be tested and fuzzed without any file.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace mmsim {

/// An input file opened for reading. The constructor throws InputError, one line naming the option,
/// the file and what is wrong ("--perm-file: 'p' is a FIFO, not a regular file"; "... has 9 GiB,
/// more than the 16 KiB that n = 1024 allows"), so that nothing is read from a file that is refused.
class InputFile {
 public:
  /// Opens `path` as the value of `option`; `max_bytes` bounds its size and `why_bound` says where
  /// the bound comes from, for the message ("n = 1024 allows"). With `stdin_dash`, "-" means the
  /// standard input, which may be a pipe; it is read with the same bound.
  InputFile(std::string option, std::string path, std::uint64_t max_bytes, std::string why_bound,
            bool stdin_dash = false);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// The content, read at most max_bytes bytes far.
  std::istream& stream();
  /// Everything at once (for small formats); throws InputError when it passes max_bytes.
  std::string read_all();
  /// After a parser read stream() to its end: throws InputError, as read_all does, when the file
  /// (a pipe too) went past max_bytes or a read failed, so that a bounded read never passes for a
  /// whole one.
  void check_read_whole() const;
  const std::string& path() const { return path_; }

 private:
  class Buffer;
  std::string option_, path_, why_;
  std::uint64_t max_bytes_;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::istream> stream_;
};

/// Reads a file's lines one at a time with a bound on each: a line longer than `max_chars` is
/// returned cut to that many characters with too_long() set, so that a 10-million-character line
/// costs neither memory nor a 10 MB message. Line breaks are "\n"; a final line without one counts.
class LineReader {
 public:
  LineReader(std::istream& in, std::size_t max_chars) : in_(in), max_(max_chars) {}
  /// False at the end of the input; else the next line (without "\n") and its 1-based number.
  bool next(std::string& line);
  bool too_long() const { return too_long_; }
  std::uint64_t number() const { return number_; }

 private:
  std::istream& in_;
  std::size_t max_;
  bool too_long_ = false;
  std::uint64_t number_ = 0;
};

/// "9 GiB", "16 KiB", "812 bytes": a size for a message.
std::string format_bytes(std::uint64_t bytes);

}  // namespace mmsim
