#include "io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <streambuf>
#include <vector>

#include "io/input_error.h"
#include "io/quote.h"

namespace mmsim {

namespace {

// What a file that is not a regular file is, for the message.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string format_bytes(std::uint64_t bytes) {
  // The largest unit the size reaches: a whole number of it as it is ("16 KiB"), else one decimal
  // ("745.1 GiB"), which is what a person reads.
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (u < 4 && bytes >= (std::uint64_t{1} << (10 * (u + 1)))) ++u;
  const std::uint64_t unit = std::uint64_t{1} << (10 * u);
  if (bytes % unit == 0) return std::to_string(bytes / unit) + " " + units[u];
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", static_cast<double>(bytes) / static_cast<double>(unit), units[u]);
  return text;
}

// A read buffer over a file descriptor that hands out at most `limit` bytes and then reports the
// end, remembering whether the file had more (it grew after its size was checked, or a pipe).
class InputFile::Buffer : public std::streambuf {
 public:
  Buffer(int fd, bool owned, std::uint64_t limit) : fd_(fd), owned_(owned), left_(limit), data_(1 << 16) {}
  ~Buffer() override {
    if (owned_) ::close(fd_);
  }
  bool passed_limit() const { return passed_; }
  bool failed() const { return error_ != 0; }
  int error() const { return error_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (left_ == 0) {
      // One byte more tells a file at the bound from one past it.
      char probe;
      passed_ = passed_ || read_some(&probe, 1) > 0;
      return traits_type::eof();
    }
    const std::size_t want = left_ < data_.size() ? static_cast<std::size_t>(left_) : data_.size();
    const ssize_t got = read_some(data_.data(), want);
    if (got <= 0) return traits_type::eof();
    left_ -= static_cast<std::uint64_t>(got);
    setg(data_.data(), data_.data(), data_.data() + got);
    return traits_type::to_int_type(*gptr());
  }

 private:
  ssize_t read_some(char* to, std::size_t bytes) {
    for (;;) {
      const ssize_t got = ::read(fd_, to, bytes);
      if (got >= 0) return got;
      if (errno == EINTR) continue;
      error_ = errno;
      return -1;
    }
  }
  int fd_;
  bool owned_;
  std::uint64_t left_;
  std::vector<char> data_;
  bool passed_ = false;
  int error_ = 0;
};

InputFile::InputFile(std::string option, std::string path, std::uint64_t max_bytes, std::string why_bound,
                     bool stdin_dash)
    : option_(std::move(option)), path_(std::move(path)), why_(std::move(why_bound)), max_bytes_(max_bytes) {
  const std::string shown = quote(path_, 60);
  if (stdin_dash && path_ == "-") {
    buffer_ = std::make_unique<Buffer>(STDIN_FILENO, false, max_bytes_);
  } else {
    if (path_.empty()) throw InputError(option_ + ": must not be empty (name the file to read)");
    // Asked before opening: opening a FIFO blocks until a writer comes, and a socket cannot be opened.
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0)
      throw InputError(option_ + ": cannot read " + shown + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
      throw InputError(option_ + ": " + shown + " is " + kind_of(st.st_mode) + ", not a regular file");
    // Non-blocking, in case the name was replaced by a FIFO in between; the descriptor is what is checked.
    const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw InputError(option_ + ": cannot read " + shown + ": " + std::strerror(errno));
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw InputError(option_ + ": " + shown + " is " + kind_of(st.st_mode) + ", not a regular file");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > max_bytes_) {
      ::close(fd);
      throw InputError(option_ + ": " + shown + " has " + format_bytes(size) + ", more than the " +
                       format_bytes(max_bytes_) + " " + why_);
    }
    buffer_ = std::make_unique<Buffer>(fd, true, max_bytes_);
  }
  stream_ = std::make_unique<std::istream>(buffer_.get());
}

InputFile::~InputFile() = default;

std::istream& InputFile::stream() { return *stream_; }

std::string InputFile::read_all() {
  std::string text;
  char chunk[1 << 16];
  while (stream_->read(chunk, sizeof chunk) || stream_->gcount() > 0)
    text.append(chunk, static_cast<std::size_t>(stream_->gcount()));
  check_read_whole();
  return text;
}

void InputFile::check_read_whole() const {
  if (buffer_->failed())
    throw InputError(option_ + ": cannot read " + quote(path_, 60) + ": " + std::strerror(buffer_->error()));
  if (buffer_->passed_limit())
    throw InputError(option_ + ": " + quote(path_, 60) + " has more than the " + format_bytes(max_bytes_) + " " + why_);
}

bool LineReader::next(std::string& line) {
  line.clear();
  too_long_ = false;
  std::streambuf* buf = in_.rdbuf();
  using traits = std::char_traits<char>;
  int c = buf->sbumpc();
  if (c == traits::eof()) return false;
  ++number_;
  for (; c != traits::eof() && c != '\n'; c = buf->sbumpc()) {
    if (line.size() < max_)
      line.push_back(static_cast<char>(c));
    else
      too_long_ = true;
  }
  return true;
}

}  // namespace mmsim
