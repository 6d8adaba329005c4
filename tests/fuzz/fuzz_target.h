// Fuzz targets: one function per parser (and one for the command line) that takes any bytes and
// must return normally. A target states what must hold with fuzz_require; anything else the code
// does wrong (a crash, undefined behaviour, a leak) is caught by the sanitizers.
//
// Each target is built twice (tests/fuzz/CMakeLists.txt):
//  - with clang's libFuzzer (MMSIM_FUZZ=ON), one program per target, run by scripts/fuzz.sh;
//  - into `fuzz_replay`, with any compiler, which feeds every file of the target's corpus
//    (tests/fuzz/<target>/: seeds and regressions) to it in every ctest run.
// docs/fuzzing.md says how to add one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace mmsim::fuzz {

using Bytes = std::span<const std::uint8_t>;
using TargetFunction = void (*)(Bytes);

/// Records a target under its name (done by MMSIM_FUZZ_TARGET); returns true.
bool register_target(const char* name, TargetFunction f);
/// The target of that name, or nullptr; the only one when `name` is empty and there is one.
TargetFunction find_target(std::string_view name);

/// Prints "fuzz: property failed: WHAT" and aborts (a crash to libFuzzer, a failure to ctest).
[[noreturn]] void fail(const std::string& what);
inline void require(bool holds, const std::string& what) {
  if (!holds) fail(what);
}

/// The bytes as text.
inline std::string_view text_of(Bytes data) { return {reinterpret_cast<const char*>(data.data()), data.size()}; }

/// Writes the bytes to this process's scratch file for `tag` and returns its path (a regular file
/// under the temporary folder, rewritten at each call, removed when the process ends): the file
/// readers take a path.
std::string scratch_file(const std::string& tag, Bytes data);

}  // namespace mmsim::fuzz

/// Defines a target: MMSIM_FUZZ_TARGET(permutation_file) { ... uses `data` ... }
#define MMSIM_FUZZ_TARGET(name)                                     \
  static void mmsim_fuzz_##name(::mmsim::fuzz::Bytes data);         \
  [[maybe_unused]] static const bool mmsim_fuzz_registered_##name = \
      ::mmsim::fuzz::register_target(#name, mmsim_fuzz_##name);     \
  static void mmsim_fuzz_##name(::mmsim::fuzz::Bytes data)
