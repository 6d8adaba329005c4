// The least-squares fit behind every cost model's constants: non-negative constants that minimise
// the squared relative error of the predicted times. Shared by the profile's fit (gpu_profile.h)
// and the cross-validation that chooses a model (model_choice.h).
#pragma once

#include <cstddef>
#include <set>
#include <vector>

namespace mmsim::predict {

/// min over x >= 0 of sum_i ((rows_i . x - times_i) / times_i)^2, exactly, by trying every support
/// set of x (a model has at most 16 constants; the fitted ones at most ten: 1023 small problems).
/// A column equal to an earlier one in every row cannot be priced apart from it: its constant
/// stays 0 (a run's first launch where every sample makes one launch). `times` must be positive;
/// an empty `rows` gives an empty x.
std::vector<double> nonnegative_relative_fit(const std::vector<std::vector<double>>& rows,
                                             const std::vector<double>& times);

/// The median of `v` (0 when empty): the mean of the two middle values for an even size.
double median_of(std::vector<double> v);

/// The median of |e| over `errors` (0 when empty).
double median_abs_of(const std::vector<double>& errors);

/// Cross-validation by group: for each value `group(s)` takes, `fit` on the samples of the other
/// groups (skipped where fewer than `min_rest` remain) predicts the group's samples; returns
/// `error(fitted, s)` of every sample so predicted, group by group in the groups' order.
template <typename Sample, typename Group, typename Fit, typename Error>
std::vector<double> held_out_by_group(const std::vector<const Sample*>& samples, Group group, std::size_t min_rest,
                                      Fit fit, Error error) {
  std::set<decltype(group(*samples.front()))> keys;
  for (const Sample* s : samples) keys.insert(group(*s));
  std::vector<double> out;
  for (const auto& key : keys) {
    std::vector<const Sample*> rest;
    for (const Sample* s : samples)
      if (group(*s) != key) rest.push_back(s);
    if (rest.size() < min_rest) continue;
    const auto fitted = fit(rest);
    for (const Sample* s : samples)
      if (group(*s) == key) out.push_back(error(fitted, *s));
  }
  return out;
}

/// The share of held-out predictions an interval is made to cover.
inline constexpr double kIntervalCoverage = 0.8;

/// The interval factor of held-out errors (each predicted / measured - 1): the smallest f with
/// |ln(1 + e)| <= ln f for kIntervalCoverage of them (the nearest-rank quantile); 1 when empty. An
/// error of -1 (a prediction of 0) counts as a factor of 10^6, so the quantile stays a number.
double interval_factor_of(const std::vector<double>& errors);

}  // namespace mmsim::predict
