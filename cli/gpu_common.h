// What the `mmsim gpu ...` commands share: the exit status of a CUDA failure, writing a result file,
// and the subcommands that live in files of their own (bmmc, enumeration, sorting, calibrate).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/common.h"
#include "cuda/harness/error.h"
#include "io/output_file.h"
#include "io/output_path.h"

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

/// Checks and creates the folder of --out before any work (bad input when it cannot be).
inline std::filesystem::path out_folder(const std::string& out) {
  check_output_folder("--out", out);
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw InputError("--out: cannot create " + out + ": " + ec.message());
  return out;
}

/// --out was checked before the work, so a failure here is a full disk or the like: status 1.
inline void write_file(const std::filesystem::path& p, const std::string& text) {
  write_file_atomically(p.string(), text, "--out");
}

/// A subcommand of `gpu` and what runs it once it was parsed (inside `guarded`).
struct GpuSubcommand {
  CLI::App* app = nullptr;
  Runner run;
};
GpuSubcommand add_gpu_bmmc_command(CLI::App& gpu);         // cmd_gpu_bmmc.cpp
GpuSubcommand add_gpu_enumeration_command(CLI::App& gpu);  // cmd_gpu_enumeration.cpp
GpuSubcommand add_gpu_sorting_command(CLI::App& gpu);      // cmd_gpu_sorting.cpp
GpuSubcommand add_gpu_calibrate_command(CLI::App& gpu);    // cmd_gpu_calibrate.cpp
GpuSubcommand add_gpu_parm_command(CLI::App& gpu);         // cmd_gpu_parm.cpp

}  // namespace mmsim::cli
