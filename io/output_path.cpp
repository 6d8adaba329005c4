#include "io/output_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "io/input_error.h"
#include "io/output_file.h"
#include "io/quote.h"

namespace mmsim {

namespace fs = std::filesystem;

namespace {

// A path as the error line shows it: quoted, newlines turned to spaces, long ones cut.
std::string shown(const std::string& path) { return quote(path, 60); }

// "dir/" and "dir//" name the folder "dir"; "/" stays the root.
std::string without_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// The folder a path's last component lives in ("." for a bare name).
std::string parent_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// Makes and removes a file of its own in `folder`; 0 when that worked, else errno. Only trying
// tells: access() says yes to root on a read-only mount such as /sys, or where a file server
// refuses, and the run would then find out after its work.
int probe_folder(const std::string& folder) {
  std::string probe = folder + "/.mmsim-write-test-XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return errno;
  ::close(fd);
  ::unlink(probe.c_str());
  return 0;
}

// Throws unless `folder` exists, is a folder, and new entries can be made in it.
void check_folder_writable(const std::string& option, const std::string& folder, const char* role) {
  std::error_code ec;
  const fs::file_status st = fs::status(folder, ec);
  if (st.type() == fs::file_type::not_found)
    throw InputError(option + ": " + role + " " + shown(folder) + " does not exist");
  if (ec) throw InputError(option + ": cannot reach " + role + " " + shown(folder) + ": " + ec.message());
  if (!fs::is_directory(st)) throw InputError(option + ": " + shown(folder) + " is not a folder");
  if (const int err = probe_folder(folder); err != 0)
    throw InputError(option + ": cannot write in " + role + " " + shown(folder) + ": " + std::strerror(err));
}

}  // namespace

// A name longer than a file system takes (ENAMETOOLONG at write time, after the work) is refused
// up front, as an input's would be.
void check_name_lengths(const std::string& option, const std::string& path) {
  for (const auto& part : fs::path(path))
    if (part.native().size() > kMaxNameBytes)
      throw InputError(option + ": " + shown(path) + " has a name of " + std::to_string(part.native().size()) +
                       " bytes; a file system takes at most " + std::to_string(kMaxNameBytes));
}

void check_output_file(const std::string& option, const std::string& path) {
  if (path.empty()) throw InputError(option + ": must not be empty (name the file to write)");
  check_name_lengths(option, path);
  if (path.back() == '/') throw InputError(option + ": " + shown(path) + " names a folder; name a file in it");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) throw InputError(option + ": " + shown(path) + " is a folder; name a file in it");
  // A special file (/dev/null, /dev/stdout, a FIFO) is written directly and needs only its own
  // permission. A regular file is replaced by renaming a new one onto it (io/output_file.h),
  // which needs its folder to take new files; it must also be writable itself, so that mmsim never
  // replaces a file its user made read-only. It is opened for writing but not truncated: its content
  // stays until the work is done. A pipe or a terminal is only asked about, since opening one could
  // block or disturb it.
  if (fs::is_regular_file(st)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw InputError(option + ": cannot write " + shown(path) + ": " + std::strerror(errno));
    ::close(fd);
    const bool stream_name = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
    if (!stream_name) {
      const fs::path real = fs::canonical(path, ec);
      check_folder_writable(option, ec ? parent_of(path) : real.parent_path().string(), "folder");
    }
    return;
  }
  if (fs::exists(st)) {
    if (::access(path.c_str(), W_OK) != 0)
      throw InputError(option + ": cannot write " + shown(path) + ": " + std::strerror(errno));
    return;
  }
  check_folder_writable(option, parent_of(path), "folder");
}

void check_output_beside(const std::string& option, const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(option + ": " + shown(path) + " is " +
                     (S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file") +
                     "; mmsim writes only a regular file of its own there (remove it, or choose another output name)");
  check_output_file(option, path);
}

void check_output_folder(const std::string& option, const std::string& path) {
  if (path.empty()) throw InputError(option + ": must not be empty (name a folder; . is the current one)");
  check_name_lengths(option, path);
  const std::string folder = without_trailing_slashes(path);
  std::error_code ec;
  const fs::file_status st = fs::status(folder, ec);
  if (fs::exists(st)) {
    check_folder_writable(option, folder, "folder");
    return;
  }
  // Not there yet: the writer makes it, so its parent must take a new entry.
  check_folder_writable(option, parent_of(folder), "parent folder");
}

}  // namespace mmsim
