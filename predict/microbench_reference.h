// What every calibration microbenchmark (predict/microbench.h) starts from and what it must leave
// in b, for both sides: the GPU driver (cuda/calibrate/) checks its output with it cell by cell, and
// the simulator's programs (predict/microbench_programs.h) are tested with it.
#pragma once

#include <cstdint>
#include <span>

#include "predict/microbench.h"
#include "predict/microbench_values.h"

namespace mmsim::predict {

/// The outcome of checking b against the bench's semantics.
struct OutputCheck {
  std::uint64_t wrong = 0;  ///< cells that hold what they should not
  std::uint64_t first = 0;  ///< the lowest wrong cell, when wrong > 0
};

/// Checks every cell of `b` (microbench_output_size cells), a having been microbench_source:
/// what each kind must write is there, and every cell it must not write still holds `untouched`
/// (the poison). WriteRandom: a cell written holds a[i] of some i whose hash lands there (any one
/// of the colliding writes may land). Values are compared modulo 2^(8 element_bytes).
OutputCheck check_output(const Microbench& m, std::span<const std::uint32_t> b, std::uint64_t untouched);
OutputCheck check_output(const Microbench& m, std::span<const std::uint64_t> b, std::uint64_t untouched);

}  // namespace mmsim::predict
