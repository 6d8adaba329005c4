// mmsim: the program is a thin wrapper over the command as a function (cli/mmsim_main.h), with what
// belongs to a process: the SIGPIPE disposition and the final check of standard output.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/common.h"
#include "cli/mmsim_main.h"

namespace {

// Standard output is checked last: a report that never reached its reader (a closed pipe, a full
// disk, /dev/full) is a failed write, status 1 with one line, never a silent success. A command
// that already failed has said why on its one line and keeps its status.
int with_stdout_checked(int status) {
  std::cout.flush();
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout.good();
  if (!failed || status != mmsim::cli::kOk) return status;
  int err = errno;
  // The write that failed may have been long before (stdio keeps only the error flag): ask again.
  // A pipe whose reader is gone polls as an error; a device that refuses writes (/dev/full)
  // refuses one of no bytes too.
  if (err == 0) {
    pollfd out{STDOUT_FILENO, POLLOUT, 0};
    if (::poll(&out, 1, 0) == 1 && (out.revents & POLLERR) != 0)
      err = EPIPE;
    else if (::write(STDOUT_FILENO, "", 0) < 0)
      err = errno;
  }
  std::fprintf(stderr, "mmsim: cannot write standard output%s%s\n", err ? ": " : "", err ? std::strerror(err) : "");
  return mmsim::cli::kCheckFailed;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe is an error to report (EPIPE, status 1), not a signal that ends mmsim silently
  // with its output half written.
  std::signal(SIGPIPE, SIG_IGN);
  return with_stdout_checked(mmsim::cli::mmsim_main(argc, argv));
}
