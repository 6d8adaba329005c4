// mmsim: the program is a thin wrapper over the command as a function (cli/mmsim_main.h), with what
// belongs to a process: what a closed pipe does and the final check of standard output.
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

// Whether standard output is a pipe (or socket) whose reader is gone: it polls as an error.
bool stdout_reader_gone() {
  pollfd out{STDOUT_FILENO, POLLOUT, 0};
  return ::poll(&out, 1, 0) == 1 && (out.revents & POLLERR) != 0;
}

// SIGPIPE: when the closed pipe is standard output, its reader stopped early (`mmsim list | head
// -1`), and mmsim ends at once and quietly, as the standard tools do, with status 0: nobody reads
// on. Any other closed pipe (an output named as a file that is a FIFO, gnuplot's input) only
// fails its write with EPIPE, which is reported as a failed write. poll and _exit are safe in a
// signal handler.
extern "C" void on_sigpipe(int) {
  if (stdout_reader_gone()) ::_exit(mmsim::cli::kOk);
}

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
    if (stdout_reader_gone())
      err = EPIPE;
    else if (::write(STDOUT_FILENO, "", 0) < 0)
      err = errno;
  }
  // A reader that stopped early (SIGPIPE blocked, so on_sigpipe never ran): quiet, as above.
  if (err == EPIPE && stdout_reader_gone()) return status;
  std::fprintf(stderr, "mmsim: cannot write standard output%s%s\n", err ? ": " : "", err ? std::strerror(err) : "");
  return mmsim::cli::kCheckFailed;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed standard output ends mmsim quietly (on_sigpipe); any other closed pipe is a failed
  // write to report (EPIPE, status 1).
  struct sigaction pipe_action {};
  pipe_action.sa_handler = on_sigpipe;
  sigemptyset(&pipe_action.sa_mask);
  sigaction(SIGPIPE, &pipe_action, nullptr);
  return with_stdout_checked(mmsim::cli::mmsim_main(argc, argv));
}
