// What a kernel pays to stage each warp's data through shared memory when few warps share an SM:
// the concurrency term beside the instruction term (instruction_cost.h), fitted on the copy
// microbenchmarks (instruction_bench.h, CopyBench) alone.
//
// A warp that copies R rows of 32 words in and out keeps only a few loads in flight, so alone it
// pays about a latency per few rows; W such warps on an SM overlap their waits until the SM's or
// the L2's throughput binds. With `fixed` the cycles that do not grow with R (the launch itself,
// the first load's latency, the last store's drain), two forms are fitted:
//     additive   cycles = fixed + R * (latency + W * throughput)
//     bound      cycles = fixed + R * max(latency, W * throughput)
// by non-negative least squares on relative errors (predict/fit.h; the bound form by assigning each
// sample to the part that binds it and fitting again until none moves), each once per row count
// left out, predicting the row count it did not see; the form with the smaller median held-out
// error is kept. No algorithm's timing takes part in the choice or the fit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "predict/instruction_cost.h"

namespace mmsim::predict {

/// One copy microbenchmark as timed: its launch's ms at the SM clock, as one SM's cycles. The launch
/// is not subtracted: an empty launch timed another day differs by more than the smallest copies
/// take (about 5 us in all on an H100), so `fixed` holds it, measured in the same run.
struct CopySample {
  std::string bench;  ///< CopyBench's name, e.g. copy-r24-w4
  double rows = 0, warps = 0;
  double cycles = 0;
};

struct CopyCosts {
  CostForm form = CostForm::Additive;
  double fixed = 0, latency = 0, throughput = 0;  ///< cycles; per row; per row and warp
  /// Median |predicted / measured - 1| fitted, and held out (each row count predicted by the fit
  /// that left it out) for the chosen form and the other one; the worst held-out factor.
  double fitted = 0, held_out = 0, held_out_other_form = 0;
  double worst_held_out = 1;
  double interval_factor = 1;  ///< covers kIntervalCoverage of the held-out predictions (predict/fit.h)
  int samples = 0;
  /// One SM's cycles for `warps` warps each copying `rows` rows in and out.
  double cycles(double rows, double warps) const;
};

/// Fits both forms and keeps the one that predicts left-out row counts better. Throws
/// std::invalid_argument with fewer than two row counts, fewer than four samples, or a sample whose
/// rows, warps or cycles are not positive.
CopyCosts fit_copy_costs(const std::vector<CopySample>& samples);

/// One line for people: the form, its constants, the microbenchmarks and the median errors.
std::string describe(const CopyCosts& c);

}  // namespace mmsim::predict
