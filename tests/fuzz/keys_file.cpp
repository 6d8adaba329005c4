// --keys-file (algorithms/sorting/inputs.h): the first byte picks the task, w in {2, 4} and m in
// [1, 4]; the rest is the file. What is read has exactly w m values, and check_input either
// accepts it or throws InputError.
#include "algorithms/sorting/inputs.h"
#include "fuzz_target.h"
#include "io/input_error.h"

MMSIM_FUZZ_TARGET(keys_file) {
  using namespace mmsim::sorting;
  if (data.empty()) return;
  const Task task = static_cast<Task>(data[0] % 3);
  const int w = (data[0] >> 2) % 2 == 0 ? 2 : 4;
  const std::uint64_t m = (data[0] >> 3) % 4 + 1;
  const std::string path = mmsim::fuzz::scratch_file("keys", data.subspan(1));
  try {
    const auto keys = read_keys_file(path, static_cast<std::uint64_t>(w) * m);
    mmsim::fuzz::require(keys.size() == static_cast<std::uint64_t>(w) * m, "a keys file was read with the wrong count");
    check_input(task, w, m, keys, path);
  } catch (const mmsim::InputError&) {
  }
}
