#include "experiments/figures.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "algorithms/input_error.h"
#include "algorithms/params.h"
#include "experiments/bmmc/bmmc_experiments.h"
#include "experiments/enumeration/enumeration_experiments.h"
#include "experiments/layouts/rap_tables.h"
#include "experiments/sorting/as_bounds.h"
#include "experiments/sorting/as_theorem4.h"

namespace mmsim::experiments {

const std::vector<FigureSpec>& figures() {
  static const std::vector<FigureSpec> all{
      {"rap-congestion", "expected congestion against w for every layout and access (w x w and w^4)",
       "NMI Sect. V, VII", rap_congestion_figure},
      {"enumeration-tlb", "throughput and TLB misses of the transposition block orders against the matrix order",
       "GL Fig. 2, 9-11", enumeration_tlb_figure},
      {"bmmc-optimisations", "time units of each BPC/BMMC kernel per workload", "BDS Fig. 9",
       bmmc_optimisations_figure},
      {"bmmc-sizes", "speed-up of the optimised BPC/BMMC kernels over the naive one by size", "BDS Fig. 11",
       bmmc_sizes_figure},
      {"as-bounds", "normalised steps of conflict-free sorting, partition, permutation against m", "AS Sect. 2-3",
       as_bounds_figure},
      {"as-bounds-theorem4",
       "Theorem 4's phases over their terms against m, and the finish by Lemma 2, by the sort path, by a full sort",
       "AS Theorem 4, Appendix B", as_theorem4_figure},
  };
  return all;
}

const FigureSpec* find_figure(const std::string& name) {
  for (const auto& f : figures())
    if (f.name == name) return &f;
  return nullptr;
}

void write_file(const std::string& path, const std::string& text) {
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(p);
  if (!out || !(out << text) || !out.flush()) throw WriteError("cannot write " + quote(path, 120));
}

namespace {

// The last non-empty line a program wrote, on one line and at most 200 characters: the line that
// says why it stopped.
std::string last_line(const std::string& text) {
  const std::size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return "";
  const std::size_t newline = text.rfind('\n', end);
  const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
  std::string line = text.substr(begin, std::min<std::size_t>(end - begin + 1, 200));
  for (char& c : line)
    if (c == '\r' || c == '\t') c = ' ';
  return line;
}

struct ProgramResult {
  int spawn_error = 0;  ///< errno when the program did not start (ENOENT: not on the PATH)
  std::string failure;  ///< why a started program failed; empty when it exited with status 0
};

// Runs `argv` (argv[0] found on the PATH) in folder `dir` and waits for it. No shell parses any
// word: the arguments reach the program as they are and the child enters the folder itself, so a
// folder named "it's", "$(...)" or "a;b" is a name and nothing else. Standard input and output are
// /dev/null (the figure command's own output is the list of its files); standard error is read, and
// its last line becomes part of the one line that reports a failure.
ProgramResult run_in_folder(const std::string& dir, std::vector<std::string> argv) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return {errno, ""};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(err_pipe[1]);
  if (spawned != 0) {
    ::close(err_pipe[0]);
    return {spawned, ""};
  }
  std::string err;
  char buf[4096];
  for (;;) {
    const ssize_t got = ::read(err_pipe[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // end of file: the program closed standard error, usually by exiting
    err.append(buf, static_cast<std::size_t>(got));
  }
  ::close(err_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return {0, std::string("cannot wait for it: ") + std::strerror(errno)};
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  std::string why = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                      : "killed by signal " + std::to_string(WTERMSIG(status));
  if (const std::string said = last_line(err); !said.empty()) why += ": " + said;
  return {0, why};
}

}  // namespace

void run_gnuplot(const std::string& dir, const std::string& name, const std::string& script) {
  const std::string gp = name + ".gp";
  write_file(dir + "/" + gp, script);
  // "./" so that no script name could ever be read as one of gnuplot's options.
  const ProgramResult r = run_in_folder(dir, {"gnuplot", "./" + gp});
  // The folder exists (the script was just written into it), so a missing file is gnuplot itself.
  if (r.spawn_error == ENOENT)
    throw WriteError("figure: gnuplot not found on the PATH (install the Debian package gnuplot-nox)");
  if (r.spawn_error != 0)
    throw WriteError("figure: cannot start gnuplot in " + quote(dir, 120) + ": " + std::strerror(r.spawn_error));
  if (!r.failure.empty())
    throw WriteError("figure: gnuplot failed on " + quote(dir + "/" + gp, 120) + ": " + r.failure);
}

}  // namespace mmsim::experiments
