#include "experiments/figures.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "algorithms/params.h"
#include "experiments/results.h"
#include "io/input_error.h"
#include "io/output_file.h"

namespace mmsim::experiments {

// The kept scripts, generated from experiments/figures/*.gp at build time (cmake/embed_gnuplot.cmake):
// the script named `name`, or empty.
std::string_view built_in_gnuplot_script(std::string_view name);

// The CPU figures are the registry's entries that have a figure driver (experiments/results.cpp).
const std::vector<FigureSpec>& figures() {
  static const std::vector<FigureSpec> all = [] {
    std::vector<FigureSpec> out;
    for (const auto& e : results())
      if (e.figure) out.push_back({e.name, e.description, e.paper, e.figure});
    return out;
  }();
  return all;
}

const FigureSpec* find_figure(const std::string& name) {
  for (const auto& f : figures())
    if (f.name == name) return &f;
  return nullptr;
}

void write_file(const std::string& path, const std::string& text) { write_file_atomically(path, text); }

namespace {

std::string gnuplot_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '\\' || c == '"')
      out += std::string("\\") + c;
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else
      out += c;
  }
  return out + "\"";
}

}  // namespace

GnuplotVariables& GnuplotVariables::line(const std::string& text) {
  text_ += text + "\n";
  drawing_ += text + "\n";
  return *this;
}

GnuplotVariables& GnuplotVariables::text(const std::string& name, const std::string& value) {
  return line(name + " = " + gnuplot_string(value));
}

GnuplotVariables& GnuplotVariables::number(const std::string& name, const std::string& literal) {
  return line(name + " = " + literal);
}

GnuplotVariables& GnuplotVariables::number(const std::string& name, long long value) {
  return number(name, std::to_string(value));
}

GnuplotVariables& GnuplotVariables::texts(const std::string& name, const std::vector<std::string>& values) {
  std::string items;
  for (const auto& v : values) items += (items.empty() ? "" : ", ") + gnuplot_string(v);
  if (values.empty()) items = gnuplot_string("");
  return line("array " + name + "[" + std::to_string(std::max<std::size_t>(values.size(), 1)) + "] = [" + items + "]");
}

GnuplotVariables& GnuplotVariables::numbers(const std::string& name, const std::vector<std::string>& literals) {
  std::string items;
  for (const auto& v : literals) items += (items.empty() ? "" : ", ") + v;
  if (literals.empty()) items = "NaN";
  return line("array " + name + "[" + std::to_string(std::max<std::size_t>(literals.size(), 1)) + "] = [" + items +
              "]");
}

GnuplotVariables& GnuplotVariables::data(const std::string& name, const std::string& lines) {
  text_ += "$" + name + " << EOD\n" + lines + "EOD\n";
  drawing_ += "$" + name + " << EOD\n" + lines + "EOD\n";
  return *this;
}

GnuplotVariables& GnuplotVariables::images(const std::string& name, const std::string& base,
                                           const std::vector<std::string>& extensions) {
  // The hidden name keeps the folder part, so that the image is drawn beside its real name.
  const auto slash = base.rfind('/');
  const std::string hidden = slash == std::string::npos
                                 ? "." + base + ".mmsim-part"
                                 : base.substr(0, slash + 1) + "." + base.substr(slash + 1) + ".mmsim-part";
  text_ += name + " = " + gnuplot_string(base) + "\n";
  drawing_ += name + " = " + gnuplot_string(hidden) + "\n";
  for (const auto& ext : extensions) hidden_.emplace_back(hidden + "." + ext, base + "." + ext);
  return *this;
}

GnuplotVariables& GnuplotVariables::append(const GnuplotVariables& more) {
  text_ += more.text_;
  drawing_ += more.drawing_;
  hidden_.insert(hidden_.end(), more.hidden_.begin(), more.hidden_.end());
  return *this;
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
  // mmsim ignores SIGPIPE (cli/main.cpp) and an ignored signal stays ignored across exec: the
  // program gets the default back.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
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

std::string_view kept_gnuplot_script(std::string_view name) {
  const std::string_view script = built_in_gnuplot_script(name);
  if (script.empty()) throw std::logic_error("figure: no gnuplot script " + std::string(name) + ".gp is built in");
  return script;
}

void run_gnuplot(const std::string& dir, const std::string& file, const GnuplotVariables& variables,
                 const std::string& script) {
  const std::string kept(kept_gnuplot_script(script));
  const std::string gp = file + ".gp";
  write_file(dir + "/" + gp, variables.str() + kept);  // the script as a reader reruns it, with the real names
  const std::string run_gp = "." + gp + ".mmsim-run";
  write_file(dir + "/" + run_gp, variables.drawing_str() + kept);
  // "./" so that no script name could ever be read as one of gnuplot's options.
  const ProgramResult r = run_in_folder(dir, {"gnuplot", "./" + run_gp});
  ::unlink((dir + "/" + run_gp).c_str());
  const bool drawn = r.spawn_error == 0 && r.failure.empty();
  int rename_error = 0;
  std::string not_renamed;
  for (const auto& [hidden, real] : variables.hidden_images()) {
    const std::string from = dir + "/" + hidden, to = dir + "/" + real;
    if (drawn && rename_error == 0 && std::rename(from.c_str(), to.c_str()) != 0)
      rename_error = errno, not_renamed = to;
    ::unlink(from.c_str());  // what is left of a failed drawing (after a rename, nothing is)
  }
  if (rename_error != 0)
    throw WriteError("figure: cannot write " + quote(not_renamed, 120) + ": " + std::strerror(rename_error));
  // The folder exists (the script was just written into it), so a missing file is gnuplot itself.
  if (r.spawn_error == ENOENT)
    throw WriteError("figure: gnuplot not found on the PATH (install the Debian package gnuplot-nox)");
  if (r.spawn_error != 0)
    throw WriteError("figure: cannot start gnuplot in " + quote(dir, 120) + ": " + std::strerror(r.spawn_error));
  if (!r.failure.empty())
    throw WriteError("figure: gnuplot failed on " + quote(dir + "/" + gp, 120) + ": " + r.failure);
}

void run_gnuplot_png_svg(const std::string& dir, const std::string& name, const GnuplotVariables& figure,
                         const std::string& script) {
  for (const char* term : {"png", "svg"}) {
    GnuplotVariables v;
    v.text("term", term).images("output", name, {term}).append(figure);
    run_gnuplot(dir, name + "-" + term, v, script);
  }
}

}  // namespace mmsim::experiments
