// The calibration microbenchmarks as simulator programs: for each Microbench (predict/microbench.h)
// the Program that does what its GPU kernel (cuda/calibrate/kernels.cu) does, thread for thread, so
// that a profile relates the GPU's time to the time units of the same accesses.
#pragma once

#include "predict/microbench.h"
#include "sim/program.h"

namespace mmsim::predict {

/// One kernel of blocks of 256 threads (Empty: one block of 32, without a step), over the global
/// arrays "a" (absent for Shared and Empty) and "b" of the bench's element_bytes, and for Shared the
/// block's array "s" of kSharedWords words. The caller fills a with microbench_source and b with
/// the poison (predict/microbench_reference.h). Threads past microbench_threads (a last partial
/// block) request nothing. Throws std::invalid_argument for a bench microbench_error refuses.
Program microbench_program(const Microbench& m);

}  // namespace mmsim::predict
