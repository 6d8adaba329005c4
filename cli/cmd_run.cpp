// `mmsim run ALGORITHM ...`: one subcommand per registry entry, its options generated from the
// entry's typed parameters, so that an algorithm accepts exactly what it declares. `mmsim run
// --kernel FILE` runs a kernel file instead (docs/kernel-files.md).
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <optional>

#include "algorithms/registry.h"
#include "algorithms/run_output.h"
#include "cli/common.h"
#include "cli/kernel_option.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "kernels/kernel_file.h"
#include "kernels/kernel_report.h"
#include "report/table.h"

namespace mmsim::cli {

namespace {

std::string describe(const ParamSpec& s) {
  std::string d = s.help;
  if (s.kind != ParamKind::Flag && s.kind != ParamKind::Text && s.kind != ParamKind::Matrix) d += " [" + s.rule() + "]";
  if (s.required) d += " (required)";
  return d;
}

const char* type_name(ParamKind k) {
  switch (k) {
    case ParamKind::Integer:
      return "INT";
    case ParamKind::Choice:
      return "WORD";
    case ParamKind::Text:
      return "TEXT";
    case ParamKind::Flag:
      return "";
    case ParamKind::Matrix:
      return "FILE";
  }
  return "";
}

struct AlgorithmOptions {
  const AlgorithmEntry* entry = nullptr;
  CLI::App* command = nullptr;
  std::vector<std::pair<const ParamSpec*, CLI::Option*>> options;
  std::vector<std::unique_ptr<std::string>> storage;
  bool async = false, json = false;
  ThreadsOption threads;
  std::string trace_file;
  CLI::Option* trace = nullptr;  ///< --trace, where the entry traces
};

// True when writing `path` would write to this process's standard output (/dev/stdout, /dev/fd/1,
// or the very file stdout was redirected to).
bool same_as_stdout(const std::string& path) {
  struct stat file {
  }, out{};
  if (::stat(path.c_str(), &file) != 0 || ::fstat(STDOUT_FILENO, &out) != 0) return false;
  return file.st_dev == out.st_dev && file.st_ino == out.st_ino;
}

int run_one(const AlgorithmOptions& a) {
  std::map<std::string, std::string> given;
  for (const auto& [spec, opt] : a.options) {
    if (opt->count() == 0) continue;
    given[spec->name] = spec->kind == ParamKind::Flag ? "true" : opt->as<std::string>();
  }
  if (!a.trace_file.empty() && a.json && same_as_stdout(a.trace_file))
    throw InputError(a.entry->name + ": --trace " + quote(a.trace_file) +
                     " is standard output, where --json prints: the CSV and the JSON would interleave");
  // Before the run: a trace that cannot be written would waste it (and --trace "" is no file).
  if (a.trace && a.trace->count() > 0) check_output_file("--trace", a.trace_file);
  EngineOptions engine;
  engine.execution = a.async ? Execution::Asynchronous : Execution::RoundSynchronous;
  engine.trace = !a.trace_file.empty();
  try {
    engine.threads = a.threads.value();
  } catch (const InputError& e) {
    throw InputError(a.entry->name + ": " + e.what());  // every message of a run names its algorithm
  }
  // The trace streams to its file while the run goes (bounded memory), under a temporary name that
  // becomes the real one only when the run and every write succeeded.
  std::optional<OutputFile> trace_file;
  std::optional<mmsim::TraceCsvWriter> trace_writer;
  if (engine.trace) {
    trace_file.emplace(a.trace_file, "--trace");
    trace_writer.emplace(trace_file->stream(), [&trace_file] { trace_file->check(); });
    engine.trace_sink = &*trace_writer;
  }
  // The command line's text, parsed once here into typed values.
  const RunReport r = run_algorithm(*a.entry, parse_params(*a.entry, given), engine);
  if (trace_file) trace_file->commit();
  if (a.json)
    print_json(mmsim::to_json(r));
  else
    std::cout << mmsim::to_text(r);
  return r.correct ? kOk : kCheckFailed;
}

// A kernel file's options, given to `run` itself.
struct KernelFileOptions {
  std::string file;
  bool json = false, arrays = false;
  ThreadsOption threads;
};

int run_kernel_file(const KernelFileOptions& o) {
  const kernels::ProgramSpec spec = kernels::read_kernel_file("--kernel", o.file);
  EngineOptions engine;
  engine.threads = o.threads.value();
  const kernels::ProgramRun run = kernels::run_program(spec, engine);
  if (o.json) {
    print_json(kernels::run_json(spec, run, o.arrays));
  } else {
    std::cout << report::to_markdown(kernels::steps_table(spec, run));
    if (o.arrays)
      for (const auto& [name, values] : run.arrays) {
        std::cout << "\n" << name << ":";
        for (Word v : values) std::cout << " " << v;
        std::cout << "\n";
      }
  }
  return kOk;
}

}  // namespace

Runner add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "run one algorithm on the simulated machine (see `mmsim list`)");
  cmd->require_subcommand(0, 1);
  auto all = std::make_shared<std::vector<std::unique_ptr<AlgorithmOptions>>>();
  auto kernel = std::make_shared<KernelFileOptions>();
  auto* kernel_option = cmd->add_option("--kernel", kernel->file,
                                        "run the kernels of this kernel file instead of an algorithm "
                                        "(docs/kernel-files.md)")
                            ->type_name("FILE");
  cmd->add_flag("--json", kernel->json, "with --kernel: print one JSON object");
  cmd->add_flag("--arrays", kernel->arrays, "with --kernel: print every global array's final values too");
  kernel->threads.add_to(*cmd, "with --kernel: host threads for round-synchronous rounds");
  for (const auto& entry : algorithms()) {
    auto a = std::make_unique<AlgorithmOptions>();
    a->entry = &entry;
    a->command = cmd->add_subcommand(entry.name, entry.description);
    a->command->footer(entry.name + " runs on the " + to_string(entry.machine) + "; family " + entry.family + ", " +
                       entry.paper + " (docs/references.md).\n");
    for (const auto& spec : entry.params) {
      a->storage.push_back(std::make_unique<std::string>());
      CLI::Option* o = nullptr;
      if (spec.kind == ParamKind::Flag) {
        o = a->command->add_flag(spec.flags)->description(describe(spec));
      } else {
        o = a->command->add_option(spec.flags, *a->storage.back(), describe(spec))->type_name(type_name(spec.kind));
        if (const auto d = spec.default_text()) o->default_str(*d);
      }
      a->options.emplace_back(&spec, o);
    }
    if (entry.asynchronous)
      a->command->add_flag("--async", a->async, "asynchronous execution: barriers only where the algorithm needs them");
    if (entry.traces)
      a->trace =
          a->command->add_option("--trace", a->trace_file, "write every slot's entry and completion to this CSV file");
    a->threads.add_to(*a->command,
                      "host threads for round-synchronous rounds (the report is the same for every count)");
    a->command->add_flag("--json", a->json, "print one JSON object");
    all->push_back(std::move(a));
  }
  // What follows `run` and names no algorithm is kept, to say so in one line.
  cmd->allow_extras();
  for (auto& a : *all) a->command->allow_extras(false);

  return [cmd, all, kernel, kernel_option] {
    if (const auto status = algorithm_or_kernel(
            *cmd, *all, *kernel_option, "runs", [](const AlgorithmOptions& a) { return run_one(a); },
            [&kernel] { return run_kernel_file(*kernel); }))
      return *status;
    const auto rest = cmd->remaining();
    if (rest.empty()) throw InputError("run: name an algorithm (see mmsim list)");
    throw InputError("run: unknown algorithm " + quote(rest.front()) + " (see mmsim list)");
  };
}

}  // namespace mmsim::cli
