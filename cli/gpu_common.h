// What the `mmsim gpu ...` commands share: the exit status of a CUDA failure, writing a result file,
// and the subcommands that live in files of their own (bmmc, enumeration, sorting, calibrate).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cli/common.h"
#include "cuda/harness/device.h"
#include "cuda/harness/error.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "predict/gpu_facts.h"

namespace mmsim::cli {

/// CUDA failures (no device, a failed call) are neither bad input nor a bug of mmsim: one line and
/// a status of their own (kNoGpu, docs/exit-status.md), so that a script can tell "no GPU here" from
/// every other outcome.
template <typename F>
int guarded(F f) {
  try {
    return f();
  } catch (const gpu::GpuError& e) {
    std::fprintf(stderr, "mmsim: gpu: %s\n", e.what());
    return kNoGpu;
  }
}

/// The default of every --out: results are kept in a folder named by the device they ran on.
inline constexpr const char* kDeviceOut = "results/gpu-<device>";

/// --out as given, with "<device>" replaced by the device's short name ("h100", "h200": the
/// file names' slug, predict/gpu_facts.h), so that two GPUs' results never land in one folder.
inline std::string resolve_out(const std::string& out) {
  const std::string mark = "<device>";
  const auto at = out.find(mark);
  if (at == std::string::npos) return out;
  return out.substr(0, at) + predict::device_slug(gpu::device_info().name) + out.substr(at + mark.size());
}

/// Checks and creates the folder of --out before any work (bad input when it cannot be).
inline std::filesystem::path out_folder(const std::string& given) {
  const std::string out = resolve_out(given);
  check_output_folder("--out", out);
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw InputError("--out: cannot create " + out + ": " + ec.message());
  return out;
}

/// The --out of a `gpu` subcommand, kept from parsing to running: the folder of its results.
class OutFolder {
 public:
  void add_to(CLI::App* cmd, const std::string& help) { cmd->add_option("--out", given_, help)->capture_default_str(); }
  /// Checks and creates the folder before any work (out_folder); from then on str() names it as
  /// resolved, for the messages.
  std::filesystem::path make() {
    const std::filesystem::path dir = out_folder(given_);
    given_ = dir.string();
    return dir;
  }
  const std::string& str() const { return given_; }

 private:
  std::string given_ = kDeviceOut;
};

/// --out was checked before the work, so a failure here is a full disk or the like: status 1.
inline void write_file(const std::filesystem::path& p, const std::string& text) {
  write_file_atomically(p.string(), text, "--out");
}

/// A subcommand of `gpu` and what runs it once it was parsed (inside `guarded`).
struct GpuSubcommand {
  CLI::App* app = nullptr;
  Runner run;
};

/// The options of a subcommand that takes only --out (calibrate).
struct NoOptions {};

/// A `gpu` subcommand as it is declared: its --out and the driver's `Options`, kept from parsing to
/// running; every option shows its default in --help.
template <typename Options>
class GpuCommand {
 public:
  GpuCommand(CLI::App& gpu, const std::string& name, const std::string& description, const std::string& out_help)
      : cmd_(gpu.add_subcommand(name, description)), state_(std::make_shared<State>()) {
    state_->out.add_to(cmd_, out_help);
  }
  CLI::App* app() const { return cmd_; }
  Options& opts() const { return state_->options; }
  /// An option bound to `field`.
  template <typename T>
  CLI::Option* option(const std::string& flag, T& field, const std::string& help) const {
    return cmd_->add_option(flag, field, help)->capture_default_str();
  }
  /// A row of options(): the flag, the field it sets and the help.
  struct Option {
    template <typename T>
    Option(const char* flag, T& field, const char* help)
        : add([flag, &field, help](CLI::App* cmd) { cmd->add_option(flag, field, help)->capture_default_str(); }) {}
    std::function<void(CLI::App*)> add;
  };
  /// The options in --help's order.
  void options(std::initializer_list<Option> rows) const {
    for (const Option& o : rows) o.add(cmd_);
  }
  /// --min-bits and --max-bits of the benchmarks that sweep n = 2^12 .. 2^30 (bmmc, parm).
  void log2_n_range(int& min_bits, int& max_bits) const {
    option("--min-bits", min_bits, "smallest log2 n, 12 to 30");
    option("--max-bits", max_bits, "largest log2 n, 12 to 30 (sizes that do not fit are skipped)");
  }
  /// The subcommand, with what runs it once parsed: the options' validate(), where they have one,
  /// refuses bad input before any GPU work; then run(options, --out) gives the exit status.
  GpuSubcommand runs(std::function<int(const Options&, OutFolder&)> run) const {
    return {cmd_, [s = state_, run = std::move(run)] {
              if constexpr (requires { s->options.validate(); })
                if (auto err = s->options.validate()) throw InputError(*err);
              return run(s->options, s->out);
            }};
  }

 private:
  struct State {
    OutFolder out;
    Options options;
  };
  CLI::App* cmd_;
  std::shared_ptr<State> state_;
};

GpuSubcommand add_gpu_bmmc_command(CLI::App& gpu);          // cmd_gpu_bmmc.cpp
GpuSubcommand add_gpu_enumeration_command(CLI::App& gpu);   // cmd_gpu_enumeration.cpp
GpuSubcommand add_gpu_sorting_command(CLI::App& gpu);       // cmd_gpu_sorting.cpp
GpuSubcommand add_gpu_calibrate_command(CLI::App& gpu);     // cmd_gpu_calibrate.cpp
GpuSubcommand add_gpu_parm_command(CLI::App& gpu);          // cmd_gpu_parm.cpp
GpuSubcommand add_gpu_accesses_command(CLI::App& gpu);      // cmd_gpu_accesses.cpp
GpuSubcommand add_gpu_instructions_command(CLI::App& gpu);  // cmd_gpu_instructions.cpp

}  // namespace mmsim::cli
