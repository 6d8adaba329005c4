#include "predict/model_choice.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "predict/fit.h"

namespace mmsim::predict {

const HeldOutError* ModelChoice::of(const std::string& model) const {
  for (const HeldOutError& e : models)
    if (e.model == model) return &e;
  return nullptr;
}

std::vector<double> held_out_predictions(const CostModel& model, const std::vector<MicrobenchTiming>& timings,
                                         const std::vector<RunCounts>& counts) {
  if (counts.size() != timings.size()) throw std::invalid_argument("held_out_predictions: one count per timing");
  std::vector<std::string> pattern;
  std::vector<std::vector<double>> rows;
  for (std::size_t i = 0; i < timings.size(); ++i) {
    if (!(timings[i].median_ms > 0))
      throw std::invalid_argument("calibration: " + timings[i].bench.name() + " has no positive time");
    pattern.push_back(timings[i].bench.name());
    rows.push_back(features(model, counts[i]));
  }
  std::vector<double> predicted(timings.size(), 0.0);
  std::vector<std::string> done;
  for (const std::string& left_out : pattern) {
    if (std::find(done.begin(), done.end(), left_out) != done.end()) continue;
    done.push_back(left_out);
    // Fit on every other pattern: the left-out one's times are never read here.
    std::vector<std::vector<double>> fit_rows;
    std::vector<double> fit_times;
    for (std::size_t i = 0; i < timings.size(); ++i)
      if (pattern[i] != left_out) fit_rows.push_back(rows[i]), fit_times.push_back(timings[i].median_ms);
    CostModel fitted = model;
    const std::vector<double> constants = nonnegative_relative_fit(fit_rows, fit_times);
    for (std::size_t c = 0; c < constants.size(); ++c) fitted.prices[c].ms = constants[c];
    for (std::size_t i = 0; i < timings.size(); ++i)
      if (pattern[i] == left_out) predicted[i] = predicted_ms(fitted, counts[i]);
  }
  return predicted;
}

namespace {

// |ln(p / m)|, with a prediction of 0 (a model that prices none of the pattern's counts) counted
// as a factor of 10^6 rather than infinity, so that medians and quantiles stay numbers.
double abs_log_ratio(double predicted, double measured) {
  return std::abs(std::log(std::max(predicted, measured * 1e-6) / measured));
}

}  // namespace

ModelChoice choose_model(const std::vector<CostModel>& models, const std::vector<MicrobenchTiming>& timings,
                         const std::vector<RunCounts>& counts) {
  ModelChoice choice;
  std::vector<std::string> patterns;
  for (const MicrobenchTiming& t : timings)
    if (std::find(patterns.begin(), patterns.end(), t.bench.name()) == patterns.end())
      patterns.push_back(t.bench.name());
  if (patterns.size() < 2 || counts.size() != timings.size()) return choice;
  for (const CostModel& model : models) {
    const std::vector<double> predicted = held_out_predictions(model, timings, counts);
    std::vector<double> errors, abs_errors, logs;
    for (std::size_t i = 0; i < timings.size(); ++i) {
      errors.push_back(predicted[i] / timings[i].median_ms - 1);
      abs_errors.push_back(std::abs(errors.back()));
      logs.push_back(abs_log_ratio(predicted[i], timings[i].median_ms));
    }
    HeldOutError e;
    e.model = model.name;
    e.median_abs_error = median_of(abs_errors);
    e.worst_factor = std::exp(*std::max_element(logs.begin(), logs.end()));
    e.interval_factor = interval_factor_of(errors);
    e.patterns = patterns.size();
    choice.models.push_back(e);
  }
  // The smallest median; a model within rounding of it that comes earlier (simpler) wins the tie.
  double best = 0;
  for (std::size_t i = 0; i < choice.models.size(); ++i)
    if (i == 0 || choice.models[i].median_abs_error < best) best = choice.models[i].median_abs_error;
  for (const HeldOutError& e : choice.models)
    if (e.median_abs_error <= best * (1 + 1e-9) + 1e-12) {
      choice.chosen = e.model;
      break;
    }
  return choice;
}

}  // namespace mmsim::predict
