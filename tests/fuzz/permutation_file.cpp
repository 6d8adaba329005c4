// --perm-file (algorithms/permutations/permutation.h): the first byte picks n in [1, 64], the rest
// is the file. A file that is read must be a permutation of 0..n-1; any other must be refused
// with InputError.
#include "algorithms/permutations/permutation.h"
#include "fuzz_target.h"
#include "io/input_error.h"

MMSIM_FUZZ_TARGET(permutation_file) {
  if (data.empty()) return;
  const std::uint64_t n = data[0] % 64 + 1;
  const std::string path = mmsim::fuzz::scratch_file("perm", data.subspan(1));
  try {
    const mmsim::Permutation p = mmsim::read_permutation_file(path, n);
    mmsim::fuzz::require(p.p.size() == n, "a permutation file was read with the wrong count");
    mmsim::fuzz::require(!mmsim::check_permutation(p.p), "a permutation file was read that is no permutation");
  } catch (const mmsim::InputError&) {
  }
}
