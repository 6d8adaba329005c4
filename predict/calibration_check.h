// `mmsim gpu calibrate --check PROFILE`: how far the GPU in hand is from a profile. The profile's
// microbenchmarks are timed again; each is set beside the time the profile recorded and beside
// what the profile's model predicts for it, and the constants are fitted again on the new times
// (the counts the profile records: the same simulated machine, L2 capacity included), so that the
// change of every constant, and of every prediction a counts file holds, is a number.
#pragma once

#include <string>
#include <vector>

#include "predict/counts_file.h"
#include "predict/gpu_profile.h"
#include "report/table.h"

namespace mmsim::predict {

struct CalibrationCheck {
  std::string model;  ///< the profile's default model, refitted under the same name
  struct Bench {
    MicrobenchTiming then, now;
    double predicted_ms = 0;  ///< by the profile's model
  };
  std::vector<Bench> benches;
  struct Constant {
    std::string constant;
    double profile_ms = 0, now_ms = 0;
  };
  std::vector<Constant> constants;  ///< the model's, profile against refit
  struct Run {
    RunIdentity run;
    double profile_ms = 0, now_ms = 0;  ///< predicted from the profile, and from the refit
  };
  std::vector<Run> runs;  ///< the counts file's runs simulated on the profile's machine

  double median_timing_change() const;      ///< median |now / then - 1| over the benches
  double worst_timing_factor() const;       ///< max of max(now / then, then / now)
  double median_prediction_change() const;  ///< median |now_ms / profile_ms - 1| over runs (0 without)
  double worst_prediction_factor() const;
};

/// Compares `now` (the profile's microbenchmarks timed again, in the profile's order) with the
/// profile. `counts` (may be null): the runs whose predictions are compared. Throws
/// std::invalid_argument when the profile records no counts of its microbenchmarks, or `now` does
/// not time the same benches.
CalibrationCheck check_calibration(const GpuProfile& profile, const std::vector<MicrobenchTiming>& now,
                                   const CountsFile* counts);

/// The check bench by bench (tidy: one row per microbenchmark), the constants, and a summary.
report::Table check_bench_table(const CalibrationCheck& check, const std::string& device);
report::Table check_constant_table(const CalibrationCheck& check, const std::string& device);
report::Table check_summary_table(const CalibrationCheck& check, const GpuProfile& profile);

}  // namespace mmsim::predict
