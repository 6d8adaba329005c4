// fuzz_replay TARGET PATH...: feeds every file named, or found under a folder named, to TARGET, one
// at a time, as libFuzzer would. The normal test suite runs it over each target's corpus
// (tests/fuzz/<target>/), so the seeds and every regression found by fuzzing stay tested with
// whichever compiler and sanitizers the suite is built with.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_target.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc < 3) {
    std::fprintf(stderr, "usage: fuzz_replay TARGET PATH...\n");
    return 2;
  }
  const auto target = mmsim::fuzz::find_target(argv[1]);
  if (target == nullptr) {
    std::fprintf(stderr, "fuzz_replay: no target named %s\n", argv[1]);
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) {
    const fs::path p = fs::absolute(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "fuzz_replay: no input files for %s\n", argv[1]);
    return 1;
  }
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in.eof() && !in) {
      std::fprintf(stderr, "fuzz_replay: cannot read %s\n", f.c_str());
      return 1;
    }
    std::fprintf(stderr, "fuzz_replay %s: %s\n", argv[1], f.filename().c_str());
    target(mmsim::fuzz::Bytes(bytes.data(), bytes.size()));
  }
  std::fprintf(stderr, "fuzz_replay %s: %zu inputs, all passed\n", argv[1], files.size());
  return 0;
}
