// The command line itself (cli/mmsim_main.h), in this process: the input is an argument vector, one
// argument per line. The property is the README's promise: every command line either succeeds
// (status 0), or is refused as bad input (status 2) with exactly one line on stderr and nothing on
// stdout, or ran and failed a check or a write (status 1, one line on stderr). Status 3 (an
// internal error) is a bug, and so is a crash, undefined behaviour or a hang.
//
// The fuzzer must not touch the machine it runs on, nor run for minutes, so a command line is
// skipped (not run) when it could: any argument holding '/' or "..", so that every file named is
// in this process's own scratch folder (the working directory, made at the first call, holding a
// few small input files to name); the commands that start other programs or whose defaults run for
// seconds to minutes (figure, reproduce, bench, bench-schedule, table, gpu, validate, and
// congestion's --bench and --bench-all); and argument vectors whose numbers, multiplied together,
// exceed kMaxProduct (n, w, m, k, trials ...: every run stays small). With MMSIM_FUZZ_SHOW_OUTPUT set, the command's
// output is not captured (to read a crash's report when replaying it).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <vector>

#include "cli/mmsim_main.h"
#include "fuzz_target.h"

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxProduct = 4096;

// Small real inputs for commands that read files, written once into the scratch folder.
void write_inputs() {
  std::ofstream("perm16.txt") << "3\n0\n15\n1\n2\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n";
  std::ofstream("keys8.txt") << "7\n3\n3\n0\n9\n1\n4\n2\n";
  std::ofstream("matrix4.txt") << "# a 4-bit BMMC\n0100\n1000\n0010\n0001\n1010\n";
  std::ofstream("grid.json")
      << R"({"runs": [{"algorithm": "d-designated", "parameters": {"n": [64], "perm": ["random"]}}]})";
  // A trace and a schedule made by mmsim itself.
  const char* trace[] = {"mmsim", "run", "row-wise", "--perm", "random", "-n", "64", "-w", "4", "--trace", "trace.csv"};
  const char* schedule[] = {"mmsim", "schedule", "--perm", "random", "-n", "64", "-w", "4", "-o", "sched.bin"};
  std::vector<std::vector<std::string>> setup = {
      {trace, trace + std::size(trace)},
      {schedule, schedule + std::size(schedule)},
  };
  for (auto& args : setup) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    const int saved = dup(STDOUT_FILENO);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    const int status = mmsim::cli::mmsim_main(static_cast<int>(args.size()), argv.data());
    std::cout.flush();
    std::fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    close(null);
    mmsim::fuzz::require(status == 0, "the command line target could not make its input files");
  }
}

// The scratch folder: made once, this process's working directory from then on, removed at exit.
// Standard input is /dev/null (`mmsim trace -` must not wait for a person).
struct Sandbox {
  fs::path dir;
  std::set<fs::path> inputs;
  Sandbox() {
    dir = fs::temp_directory_path() / ("mmsim_fuzz_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::current_path(dir);
    const int null = open("/dev/null", O_RDONLY);
    dup2(null, STDIN_FILENO);
    close(null);
    write_inputs();
    for (const auto& e : fs::directory_iterator(dir)) inputs.insert(e.path());
  }
  // Back to the input files alone, so that no run sees what an earlier one wrote (a sweep's
  // journal, say): each input gives the same outcome whenever it runs.
  void tidy() const {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (!inputs.count(e.path())) fs::remove_all(e.path(), ec);
  }
  ~Sandbox() {
    std::error_code ec;
    fs::current_path(fs::temp_directory_path(), ec);
    fs::remove_all(dir, ec);
  }
};

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> args;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (end == text.size() && start == text.size()) break;  // no empty argument after a last newline
    args.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return args;
}

// The product of every number written in the arguments (0 counted as 1), or kMaxProduct + 1 once
// it is larger.
std::uint64_t numbers_product(const std::vector<std::string>& args) {
  std::uint64_t product = 1;
  for (const auto& arg : args) {
    std::uint64_t v = 0;
    bool in_number = false;
    for (std::size_t i = 0; i <= arg.size(); ++i) {
      const char c = i < arg.size() ? arg[i] : ' ';
      if (c >= '0' && c <= '9') {
        v = (in_number ? v * 10 : 0) + static_cast<std::uint64_t>(c - '0');
        in_number = true;
        if (v > kMaxProduct) return kMaxProduct + 1;
      } else if (in_number) {
        product *= std::max<std::uint64_t>(v, 1);
        if (product > kMaxProduct) return kMaxProduct + 1;
        in_number = false;
      }
    }
  }
  return product;
}

bool skipped(const std::vector<std::string>& args) {
  static const std::set<std::string> slow{"figure", "reproduce", "bench",   "bench-schedule", "table",
                                          "gpu",    "validate",  "--bench", "--bench-all"};
  for (const auto& a : args) {
    if (a.find('/') != std::string::npos || a.find("..") != std::string::npos) return true;
    if (a.find('\0') != std::string::npos) return true;  // no such argument can reach main
    if (slow.count(a.substr(0, a.find('=')))) return true;
    // Hexadecimal numbers of teaching expressions: kept small the same way.
    if (a.find("0x") != std::string::npos || a.find("0X") != std::string::npos) return true;
  }
  return numbers_product(args) > kMaxProduct;
}

// Runs the command with stdout and stderr sent to two files; returns (status, stdout, stderr).
struct Outcome {
  int status = 0;
  std::string out, err;
};

std::string slurp(int fd) {
  std::string s;
  lseek(fd, 0, SEEK_SET);
  char buf[4096];
  for (ssize_t got; (got = read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<std::size_t>(got));
  return s;
}

Outcome run_captured(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(args.size());
  Outcome o;
  if (std::getenv("MMSIM_FUZZ_SHOW_OUTPUT")) {
    o.status = mmsim::cli::mmsim_main(argc, argv.data());
    return o;
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  const int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
  const int out = open("stdout.txt", O_RDWR | O_CREAT | O_TRUNC, 0600);
  const int err = open("stderr.txt", O_RDWR | O_CREAT | O_TRUNC, 0600);
  mmsim::fuzz::require(saved_out >= 0 && saved_err >= 0 && out >= 0 && err >= 0, "cannot capture the output");
  dup2(out, STDOUT_FILENO);
  dup2(err, STDERR_FILENO);
  o.status = mmsim::cli::mmsim_main(argc, argv.data());
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved_out, STDOUT_FILENO);
  dup2(saved_err, STDERR_FILENO);
  close(saved_out);
  close(saved_err);
  o.out = slurp(out);
  o.err = slurp(err);
  close(out);
  close(err);
  return o;
}

std::string shown(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

MMSIM_FUZZ_TARGET(command_line) {
  static Sandbox sandbox;
  std::vector<std::string> args = split_lines(mmsim::fuzz::text_of(data));
  if (skipped(args)) return;
  args.insert(args.begin(), "mmsim");
  sandbox.tidy();
  const Outcome o = run_captured(args);
  const auto what = [&](const std::string& why) {
    return "mmsim " + shown({args.begin() + 1, args.end()}) + ": " + why + " (status " + std::to_string(o.status) +
           ", stderr: " + o.err.substr(0, 300) + ")";
  };
  mmsim::fuzz::require(o.status == 0 || o.status == 1 || o.status == 2, what("an exit status other than 0, 1, 2"));
  if (std::getenv("MMSIM_FUZZ_SHOW_OUTPUT")) return;
  const auto lines = std::count(o.err.begin(), o.err.end(), '\n');
  if (o.status == 2) {
    mmsim::fuzz::require(o.out.empty(), what("bad input, yet something on stdout"));
    mmsim::fuzz::require(lines == 1 && o.err.back() == '\n', what("bad input without exactly one line on stderr"));
  }
  if (o.status == 1) mmsim::fuzz::require(lines >= 1, what("a failure with nothing on stderr"));
}
