// libFuzzer's entry point for a program built from exactly one target (tests/fuzz/CMakeLists.txt).
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto target = mmsim::fuzz::find_target("");
  if (target == nullptr) mmsim::fuzz::fail("the program holds no single fuzz target");
  target(mmsim::fuzz::Bytes(data, size));
  return 0;
}
