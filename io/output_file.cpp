#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <streambuf>
#include <vector>

#include "io/input_error.h"
#include "io/quote.h"

namespace mmsim {

namespace fs = std::filesystem;

namespace {

// A stream buffer over a file descriptor that keeps the errno of its first failed write: an
// std::ofstream only says "failed", and the user should read "No space left on device".
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd), buffer_(std::size_t{1} << 16) { reset(); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  void reset() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  bool drain() {
    const char* p = pbase();
    std::size_t left = static_cast<std::size_t>(pptr() - pbase());
    while (error_ == 0 && left > 0) {
      const ssize_t put = ::write(fd_, p, left);
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) {
        error_ = put < 0 ? errno : EIO;
        break;
      }
      p += put;
      left -= static_cast<std::size_t>(put);
    }
    reset();  // after a failure, what follows is dropped: the file is lost anyway
    return error_ == 0;
  }

  int fd_;
  int error_ = 0;
  std::vector<char> buffer_;
};

std::string shown(const std::string& path) { return quote(path, 120); }

[[noreturn]] void fail(const std::string& option, const std::string& path, const std::string& why) {
  throw WriteError((option.empty() ? "" : option + ": ") + "cannot write " + shown(path) + ": " + why);
}

// Same file as descriptor `fd` (/dev/stdout, /dev/fd/1, or the file stdout was redirected to).
bool same_file_as(const struct stat& st, int fd) {
  struct stat other {};
  return ::fstat(fd, &other) == 0 && st.st_dev == other.st_dev && st.st_ino == other.st_ino;
}

// The permission bits a new file gets from open(): 0666 less the umask. umask() can only be read
// by setting it, so it is set back at once (mmsim opens files from its main thread only).
mode_t default_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

struct OutputFile::State {
  std::string path;       // the name the user gave
  std::string option;     // the option that named it, for messages
  std::string target;     // what is renamed onto (path with symbolic links resolved)
  std::string temporary;  // empty when written directly
  int fd = -1;
  std::unique_ptr<FdBuffer> buffer;
  std::unique_ptr<std::ostream> stream;
  bool committed = false;
};

OutputFile::OutputFile(std::string path, std::string option, Links links) : s_(std::make_unique<State>()) {
  s_->path = std::move(path);
  s_->option = std::move(option);
  s_->target = s_->path;
  struct stat st {};
  // A file the user never named (a sweep's JSON and journal) is looked at, not through: a link
  // planted there is replaced by the new file (the rename below), its target never written.
  const bool follow = links == Links::Follow;
  const bool exists = (follow ? ::stat(s_->path.c_str(), &st) : ::lstat(s_->path.c_str(), &st)) == 0;
  const bool link = exists && S_ISLNK(st.st_mode);
  // /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N name a descriptor's stream,
  // even where it resolves to a regular file: renaming onto that file would detach it from the
  // descriptor the shell redirected. Elsewhere, anything but a regular file cannot be renamed into.
  const auto starts = [&](const char* prefix) { return s_->path.rfind(prefix, 0) == 0; };
  const bool special_name = follow && (starts("/dev/std") || starts("/dev/fd/") || starts("/proc/"));
  if ((exists && !link && !S_ISREG(st.st_mode)) || special_name) {
    if (exists && same_file_as(st, STDOUT_FILENO))
      s_->fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);  // shares stdout's offset, as a shell's >> does
    else if (exists && same_file_as(st, STDERR_FILENO))
      s_->fd = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
    else
      s_->fd = ::open(s_->path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
    if (s_->fd < 0) fail(s_->option, s_->path, std::strerror(errno));
  } else {
    std::error_code ec;
    if (exists && follow) {
      const fs::path resolved = fs::canonical(s_->path, ec);  // a link is followed, not replaced
      if (!ec) s_->target = resolved.string();
    }
    const fs::path parent = fs::path(s_->target).parent_path();
    const std::string base = fs::path(s_->target).filename().string();
    // The temporary name is the real one with 14 bytes around it; where that would pass a name's
    // limit (NAME_MAX, 255 bytes), a name of mmsim's own, so that any valid name can be written.
    const std::string suffix = ".mmsim-XXXXXX";
    const std::string temp_base = base.size() + 1 + suffix.size() <= kMaxNameBytes ? "." + base + suffix : suffix;
    s_->temporary = (parent.empty() ? std::string() : parent.string() + "/") + temp_base;
    s_->fd = ::mkstemp(s_->temporary.data());
    if (s_->fd < 0) {
      const int err = errno;
      s_->temporary.clear();
      fail(s_->option, s_->path, std::strerror(err));
    }
    ::fchmod(s_->fd, exists && !link ? (st.st_mode & 07777) : default_mode());  // mkstemp makes 0600
  }
  s_->buffer = std::make_unique<FdBuffer>(s_->fd);
  s_->stream = std::make_unique<std::ostream>(s_->buffer.get());
}

OutputFile::~OutputFile() {
  if (s_->committed) return;
  if (s_->fd >= 0) ::close(s_->fd);
  if (!s_->temporary.empty()) ::unlink(s_->temporary.c_str());
}

std::ostream& OutputFile::stream() { return *s_->stream; }

void OutputFile::check() const {
  if (s_->buffer->error() != 0) fail(s_->option, s_->path, std::strerror(s_->buffer->error()));
}

void OutputFile::commit() {
  s_->stream->flush();
  check();
  // Synced before the rename, so that even a machine that stops right after it never shows a
  // renamed file whose blocks were not yet on the disk. A stream (a pipe, a terminal) has no sync.
  if (!s_->temporary.empty() && ::fsync(s_->fd) != 0) fail(s_->option, s_->path, std::strerror(errno));
  const int fd = s_->fd;
  s_->fd = -1;
  if (::close(fd) != 0 && errno != EINTR) fail(s_->option, s_->path, std::strerror(errno));
  if (!s_->temporary.empty() && std::rename(s_->temporary.c_str(), s_->target.c_str()) != 0)
    fail(s_->option, s_->path, std::strerror(errno));
  s_->committed = true;
}

bool OutputFile::direct() const { return s_->temporary.empty(); }

const std::string& OutputFile::path() const { return s_->path; }

void write_file_atomically(const std::string& path, const std::string& text, const std::string& option, Links links) {
  const fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path() && !fs::is_directory(p.parent_path(), ec)) {
    fs::create_directories(p.parent_path(), ec);
    if (ec) fail(option, path, ec.message());
  }
  OutputFile out(path, option, links);
  out.stream() << text;
  out.commit();
}

}  // namespace mmsim
