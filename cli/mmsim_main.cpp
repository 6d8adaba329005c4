// The command-line front end as a function (cli/mmsim_main.h). Each command lives in its own file;
// this one wires them and turns every error into one line on stderr and an exit status
// (cli/common.h).
#include "cli/mmsim_main.h"

#include <unistd.h>

#include <cstdio>
#include <map>

#include "algorithms/params.h"
#include "cli/common.h"
#include "io/printable.h"
#include "io/quote.h"
#include "report/build_info.h"
#include "sim/progress.h"

namespace {

// The innermost subcommand that was parsed (the app itself when none was).
const CLI::App* innermost(const CLI::App* app) {
  for (const auto* sub : app->get_subcommands()) return innermost(sub);
  return app;
}

std::string command_path(const CLI::App* app) {
  std::string path;
  for (const CLI::App* a = app; a && a->get_parent(); a = a->get_parent())
    path = a->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

// One line for arguments a command does not take: the first such option, by name, and where its
// command's options are listed.
std::string unexpected_arguments(const CLI::App& app, int argc, char** argv) {
  const CLI::App* sub = innermost(&app);
  const std::string path = command_path(sub);
  const std::string where = path.empty() ? "mmsim" : path;
  bool after = path.empty();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!after) {
      after = arg == sub->get_name();
      continue;
    }
    if (arg.size() < 2 || arg[0] != '-') continue;
    std::string name = arg.substr(0, arg.find('='));
    if (name[1] != '-') name = name.substr(0, 2);  // -k4 is -k with the value 4
    if (sub->get_option_no_throw(name) == nullptr)
      return where + ": " + mmsim::quote(name) + " is not an option of " + where + " (see mmsim " + where + " --help)";
  }
  return where + ": unexpected argument (see mmsim " + where + " --help)";
}

// `message` with every argument of more than a few dozen bytes (or its value after '=') that it
// repeats cut as quote() cuts a value, for the messages of CLI11, which paste arguments whole.
std::string with_arguments_cut(std::string message, int argc, char** argv) {
  constexpr std::size_t kShown = 40;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t eq = arg.find('=');
    for (const std::string& text : {arg, eq == std::string::npos ? std::string() : arg.substr(eq + 1)}) {
      if (text.size() <= kShown) continue;
      const std::string quoted = mmsim::quote(text, kShown);
      const std::string shown = quoted.substr(1, quoted.size() - 2);  // without its quotes
      for (std::size_t at = message.find(text); at != std::string::npos; at = message.find(text, at + shown.size()))
        message.replace(at, text.size(), shown);
    }
  }
  return message;
}

}  // namespace

namespace mmsim::cli {

// `mmsim replay` (cli/cmd_replay.cpp), declared here rather than in common.h, which every command
// includes: only the program adds it.
Runner add_replay_command(CLI::App& app);

namespace {

// Parses and runs; the errors a command throws are turned into statuses by mmsim_main.
int parse_and_run(int argc, char** argv) {
  CLI::App app{"mmsim: cycle-level simulator of the memory machine models (DMM, UMM, HMM)", "mmsim"};
  app.require_subcommand(1);
  app.set_version_flag("--version", mmsim::report::version_text());
  std::map<const CLI::App*, Runner> runners;
  const auto add = [&](Runner (*adder)(CLI::App&)) {
    const std::size_t before = app.get_subcommands({}).size();
    Runner r = adder(app);
    runners[app.get_subcommands({}).at(before)] = std::move(r);
  };
  add(add_access_command);
  add(add_accesses_command);
  add(add_layout_command);
  add(add_trace_command);
  add(add_run_command);
  add(add_predict_command);
  add(add_replay_command);
  add(add_list_command);
  add(add_table_command);
  add(add_bench_command);
  add(add_bench_predict_command);
  add(add_reproduce_command);
  add(add_figure_command);
#ifdef MMSIM_HAVE_CUDA
  add(add_gpu_command);
#endif
  add(add_validate_command);
  add(add_table1_bounds_command);
  add(add_fit_bounds_command);
  add(add_fit_instructions_command);
  add(add_gpu_speedups_command);
  add(add_gpu_throughput_command);
  add(add_gpu_goals_command);
  add(add_congestion_command);
  add(add_schedule_command);
  add(add_bench_schedule_command);
  add(add_sweep_command);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    std::fprintf(stderr, "mmsim: %s\n", mmsim::one_line(unexpected_arguments(app, argc, argv)).c_str());
    return kBadInput;
  } catch (const CLI::ParseError& e) {
    // CLI11's own messages paste the argument as typed: each long argument is cut as quote() cuts
    // it, and the line kept to one printable line.
    std::fprintf(stderr, "mmsim: %s\n", mmsim::one_line(with_arguments_cut(e.what(), argc, argv)).c_str());
    return kBadInput;
  }
  // On a terminal, long runs show which kernel is running (one line, rewritten in place). The
  // listener refers to this call's state: whichever way the call ends (an error is printed after
  // this), the line is cleared and the listener removed.
  struct ProgressLine {
    bool shown = false;
    ~ProgressLine() {
      mmsim::set_progress_listener({});
      if (shown) std::fprintf(stderr, "\r\033[K");
    }
  } progress;
  if (isatty(STDERR_FILENO)) {
    mmsim::set_progress_listener(
        [&progress, launches = 0ull](const std::string& kernel, std::uint64_t threads) mutable {
          ++launches;
          if (threads < (1u << 20)) return;  // small launches finish before anyone could read it
          std::fprintf(stderr, "\r\033[K[launch %llu] %s, %llu threads", launches, kernel.c_str(),
                       static_cast<unsigned long long>(threads));
          progress.shown = true;
        });
  }
  for (const auto* sub : app.get_subcommands()) return runners.at(sub)();
  return kBadInput;
}

}  // namespace

int mmsim_main(int argc, char** argv) {
  try {
    return parse_and_run(argc, argv);
  } catch (const mmsim::InputError& e) {
    // Every message quotes the user's text it echoes (io/quote.h); one_line() (io/printable.h) is the last guard
    // that the line printed is one printable line of bounded length.
    std::fprintf(stderr, "mmsim: %s\n", mmsim::one_line(e.what()).c_str());
    return kBadInput;
  } catch (const mmsim::WriteError& e) {
    std::fprintf(stderr, "mmsim: %s\n", mmsim::one_line(e.what()).c_str());
    return kCheckFailed;
  } catch (const std::bad_alloc&) {
    // A run names its own size options (algorithms/registry.cpp); this catches the other commands.
    std::fprintf(stderr, "mmsim: out of memory: choose a smaller size (-n, -m, --order, -k, --trials)\n");
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mmsim: internal error: %s\n", mmsim::one_line(e.what()).c_str());
    return kInternalError;
  } catch (...) {
    std::fprintf(stderr, "mmsim: internal error: an exception of unknown type\n");
    return kInternalError;
  }
}

}  // namespace mmsim::cli
