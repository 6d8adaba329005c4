// Conventions every mmsim command shares: exit statuses, error lines, JSON output.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "algorithms/params.h"
#include "io/input_error.h"
#include "models/machines.h"
#include "report/json.h"
#include "report/table.h"

namespace mmsim::cli {

/// Exit statuses (docs/exit-status.md): 0 done; 1 the work ran but a check of its output failed, or
/// an output could not be written; 2 bad input, refused before any work; 3 an internal error (a bug
/// of mmsim); 4 no usable GPU (no device, or a CUDA call failed), in builds with the CUDA backend.
inline constexpr int kOk = 0;
inline constexpr int kCheckFailed = 1;
inline constexpr int kBadInput = 2;
inline constexpr int kInternalError = 3;
inline constexpr int kNoGpu = 4;

/// Machine options shared by the commands that run algorithms.
struct MachineOptions {
  MachineParams params;
  void add_to(CLI::App& cmd, bool with_hmm = true) {
    cmd.add_option("-w,--width", params.w, "width: banks, threads per warp, address-group size")->capture_default_str();
    cmd.add_option("-l,--latency", params.l, "latency of a DMM/UMM memory (shared memory in the HMM)")
        ->capture_default_str();
    if (with_hmm) {
      cmd.add_option("-L,--global-latency", params.L, "latency of the HMM's global memory")->capture_default_str();
      cmd.add_option("-k,--dmms", params.k, "number of DMMs (streaming multiprocessors) in the HMM")
          ->capture_default_str();
    }
  }
  /// Throws InputError naming the first bad field.
  void validate() const {
    if (auto err = params.validate()) throw InputError(*err);
  }
};

/// --threads N of the commands that simulate or build schedules: how many host threads share the
/// work. Absent: every core. Checked like every integer of mmsim, when the command runs.
struct ThreadsOption {
  std::string text;
  CLI::Option* option = nullptr;
  void add_to(CLI::App& cmd, const std::string& help) {
    option =
        cmd.add_option("--threads", text, help + " [an integer in [1, 1024]; default: every core]")->type_name("INT");
  }
  /// 0 (every core) when absent; throws InputError naming --threads and its rule.
  unsigned value() const {
    if (option == nullptr || option->count() == 0) return 0;
    static const ParamSpec spec = integer_param("threads", "--threads", "host threads", 1, 1024);
    return static_cast<unsigned>(std::get<std::int64_t>(parse_value(spec, text)));
  }
};

/// Adds an integer option bound to `field` that goes through the one strict parser (algorithms/
/// params.h) rather than CLI11's conversions, which take "-1" for an unsigned field or clamp: the
/// value is refused at parse time, naming the option and the rule, which the help also states.
template <class T>
CLI::Option* add_integer_option(CLI::App& cmd, T& field, ParamSpec spec) {
  const std::string help = spec.help + " [" + spec.rule() + "]";
  auto* o = cmd.add_option_function<std::string>(
      spec.flags,
      [&field, spec](const std::string& text) {
        field = static_cast<T>(std::get<std::int64_t>(parse_integer(text, spec)));  // checked below, first
      },
      help);
  o->check(CLI::Validator(
      [spec](std::string& text) {
        auto r = parse_integer(text, spec);
        const auto* err = std::get_if<std::string>(&r);
        return err ? *err : std::string();
      },
      "", "strict integer"));
  o->type_name("INT");
  o->default_str(std::to_string(field));
  return o;
}

inline void print_json(const report::Json& j) { std::cout << j.dump() << "\n"; }

/// --format md|csv|json of every command that prints a table; throws InputError quoting the value.
inline report::Format parse_format_option(const std::string& text) {
  if (text != "md" && text != "csv" && text != "json")
    throw InputError("--format: must be md, csv or json (got " + quote(text) + ")");
  return report::parse_format(text);
}

// Each command: registers itself on the app and returns the function that runs it after parsing.
using Runner = std::function<int()>;
Runner add_access_command(CLI::App& app);
Runner add_accesses_command(CLI::App& app);  // cli/cmd_accesses.cpp
Runner add_layout_command(CLI::App& app);    // cli/cmd_layout.cpp
Runner add_trace_command(CLI::App& app);     // cli/cmd_trace.cpp
Runner add_run_command(CLI::App& app);
Runner add_predict_command(CLI::App& app);
Runner add_list_command(CLI::App& app);
Runner add_table_command(CLI::App& app);
Runner add_bench_command(CLI::App& app);
Runner add_reproduce_command(CLI::App& app);
Runner add_figure_command(CLI::App& app);
Runner add_gpu_command(CLI::App& app);  // cli/cmd_gpu*.cpp, built with the CUDA backend
Runner add_validate_command(CLI::App& app);
Runner add_table1_bounds_command(CLI::App& app);     // cli/cmd_table1_bounds.cpp
Runner add_fit_bounds_command(CLI::App& app);        // cli/cmd_measured.cpp
Runner add_fit_instructions_command(CLI::App& app);  // cli/cmd_measured.cpp
Runner add_gpu_speedups_command(CLI::App& app);
Runner add_gpu_throughput_command(CLI::App& app);
Runner add_gpu_goals_command(CLI::App& app);
Runner add_congestion_command(CLI::App& app);
Runner add_schedule_command(CLI::App& app);  // cli/cmd_schedule.cpp
Runner add_bench_schedule_command(CLI::App& app);
Runner add_bench_predict_command(CLI::App& app);
Runner add_sweep_command(CLI::App& app);  // cli/cmd_sweep.cpp

}  // namespace mmsim::cli
