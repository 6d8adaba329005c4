// What the `mmsim gpu ...` commands share: the exit status of a CUDA failure, writing a result file,
// and the subcommands that live in files of their own (bmmc, enumeration).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/common.h"
#include "cuda/harness/error.h"

namespace mmsim::cli {

/// A CUDA failure (no device, a failed call) is not bad input: one line and this status.
inline constexpr int kGpuFailed = 3;

template <typename F>
int guarded(F f) {
  try {
    return f();
  } catch (const gpu::GpuError& e) {
    std::fprintf(stderr, "mmsim: gpu: %s\n", e.what());
    return kGpuFailed;
  }
}

/// Creates the folder of --out (bad input when it cannot be).
inline std::filesystem::path out_folder(const std::string& out) {
  if (out.empty()) throw InputError("--out: must not be empty");
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw InputError("--out: cannot create " + out + ": " + ec.message());
  return out;
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p);
  if (!out || !(out << text)) throw InputError("--out: cannot write " + p.string());
}

/// A subcommand of `gpu` and what runs it once it was parsed (inside `guarded`).
struct GpuSubcommand {
  CLI::App* app = nullptr;
  Runner run;
};
GpuSubcommand add_gpu_bmmc_command(CLI::App& gpu);         // cmd_gpu_bmmc.cpp
GpuSubcommand add_gpu_enumeration_command(CLI::App& gpu);  // cmd_gpu_enumeration.cpp

}  // namespace mmsim::cli
