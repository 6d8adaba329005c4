// --schedule (algorithms/offline/schedule_file.h) for one fixed permutation (random, n = 64, seed
// 3) on w = 4: the whole input is the file. A schedule that is read must compose to the
// permutation (the reader checks it; this checks the reader); any other must be refused.
#include "algorithms/offline/schedule_file.h"

#include "algorithms/permutations/permutation.h"
#include "fuzz_target.h"
#include "io/input_error.h"

MMSIM_FUZZ_TARGET(schedule_file) {
  using namespace mmsim::offline;
  static const mmsim::Permutation perm = mmsim::named_permutation("random", 64, 3);
  const std::string path = mmsim::fuzz::scratch_file("schedule", data);
  try {
    const ThreeStepSchedule s = read_schedule_file(path, perm.p, 4);
    std::string why;
    const auto composed = composed_permutation(s, why);
    mmsim::fuzz::require(composed && *composed == perm.p, "a schedule was read that does not compose to P");
  } catch (const mmsim::InputError&) {
  }
}
