#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "fuzz_target.h"

namespace mmsim::fuzz {

namespace {

std::map<std::string, TargetFunction, std::less<>>& targets() {
  static std::map<std::string, TargetFunction, std::less<>> all;
  return all;
}

// The scratch files of this process, removed at exit.
struct ScratchFiles {
  std::map<std::string, std::string> paths;
  ~ScratchFiles() {
    std::error_code ec;
    for (const auto& [tag, path] : paths) std::filesystem::remove(path, ec);
  }
};

}  // namespace

bool register_target(const char* name, TargetFunction f) {
  targets()[name] = f;
  return true;
}

TargetFunction find_target(std::string_view name) {
  if (name.empty()) return targets().size() == 1 ? targets().begin()->second : nullptr;
  const auto it = targets().find(name);
  return it == targets().end() ? nullptr : it->second;
}

void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz: property failed: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string scratch_file(const std::string& tag, Bytes data) {
  static ScratchFiles scratch;
  auto& path = scratch.paths[tag];
  if (path.empty())
    path = (std::filesystem::temp_directory_path() / ("mmsim_fuzz_" + std::to_string(::getpid()) + "_" + tag)).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  out.close();
  require(static_cast<bool>(out), "could not write the scratch file " + path);
  return path;
}

}  // namespace mmsim::fuzz
