// Which cost model `mmsim predict` uses, and how far to trust it, decided on the calibration
// microbenchmarks alone: never on an algorithm's timings.
//
// Each model is cross-validated by leaving one microbenchmark pattern out at a time (a pattern:
// every size and element size of one kernel shape, "read-stride-8", "write-random",
// "shared-congestion-4"; Microbench::name()): its constants are fitted on the other patterns
// (fit.h), and the left-out pattern is predicted with them. A pattern left out is a kind of access
// the fit has not seen, as an algorithm's mix of accesses is. The model with the smallest median
// held-out |predicted / measured - 1| is chosen (ties: the earlier, simpler model). Its interval is
// the factor that covers 80 % of the held-out predictions: a prediction p is printed with
// [p / factor, p x factor], and `mmsim validate --tables` reports how often the algorithms'
// measured times fall inside.
#pragma once

#include <string>
#include <vector>

#include "predict/cost_model.h"
#include "predict/fit.h"
#include "predict/microbench.h"

namespace mmsim::predict {

/// One model's cross-validated error over the microbenchmarks.
struct HeldOutError {
  std::string model;
  double median_abs_error = 0;  ///< median over every microbenchmark of |held-out predicted / measured - 1|
  double worst_factor = 1;      ///< max over them of max(p / m, m / p)
  double interval_factor = 1;   ///< the smallest f with |ln(p / m)| <= ln f for kIntervalCoverage of them
  std::size_t patterns = 0;     ///< patterns left out in turn
};

struct ModelChoice {
  std::string chosen;  ///< the model with the smallest held-out median error ("" when none was cross-validated)
  std::vector<HeldOutError> models;

  /// The held-out error of `model`, or nullptr.
  const HeldOutError* of(const std::string& model) const;
};

/// Cross-validates `models` (their prices; the constants are refitted) on the timings and their
/// simulated counts (same order and size). Needs at least two patterns; with fewer, or no counts,
/// returns an empty choice. Throws std::invalid_argument when a timing is not positive.
ModelChoice choose_model(const std::vector<CostModel>& models, const std::vector<MicrobenchTiming>& timings,
                         const std::vector<RunCounts>& counts);

/// The held-out predictions of one model, microbenchmark by microbenchmark (each from constants
/// fitted without its pattern): what choose_model's errors are computed from.
std::vector<double> held_out_predictions(const CostModel& model, const std::vector<MicrobenchTiming>& timings,
                                         const std::vector<RunCounts>& counts);

}  // namespace mmsim::predict
