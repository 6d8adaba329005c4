#include "predict/calibration_check.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "predict/fit.h"

namespace mmsim::predict {

namespace {

double factor(double a, double b) { return std::max(a / b, b / a); }

template <typename T, typename F>
std::vector<double> each(const std::vector<T>& v, F f) {
  std::vector<double> out;
  for (const T& x : v) out.push_back(f(x));
  return out;
}

double worst(const std::vector<double>& v) { return v.empty() ? 1 : *std::max_element(v.begin(), v.end()); }

}  // namespace

double CalibrationCheck::median_timing_change() const {
  return median_of(each(benches, [](const Bench& b) { return std::abs(b.now.median_ms / b.then.median_ms - 1); }));
}
double CalibrationCheck::worst_timing_factor() const {
  return worst(each(benches, [](const Bench& b) { return factor(b.now.median_ms, b.then.median_ms); }));
}
double CalibrationCheck::median_prediction_change() const {
  return runs.empty() ? 0 : median_of(each(runs, [](const Run& r) { return std::abs(r.now_ms / r.profile_ms - 1); }));
}
double CalibrationCheck::worst_prediction_factor() const {
  return worst(each(runs, [](const Run& r) { return factor(r.now_ms, r.profile_ms); }));
}

CalibrationCheck check_calibration(const GpuProfile& profile, const std::vector<MicrobenchTiming>& now,
                                   const CountsFile* counts) {
  if (profile.timing_counts.size() != profile.timings.size() || profile.timings.empty())
    throw std::invalid_argument("the profile records no simulated counts of its microbenchmarks");
  if (now.size() != profile.timings.size())
    throw std::invalid_argument("the timings are not those of the profile's microbenchmarks");
  for (std::size_t i = 0; i < now.size(); ++i) {
    const Microbench &a = now[i].bench, &b = profile.timings[i].bench;
    if (a.name() != b.name() || a.n != b.n || a.element_bytes != b.element_bytes)
      throw std::invalid_argument("the timings are not those of the profile's microbenchmarks");
  }
  CalibrationCheck c;
  c.model = profile.default_model();
  const CostModel& before = profile.model(c.model);
  GpuProfile refit = profile;
  refit.timings = now;
  refit_recorded(refit);
  const CostModel& after = refit.model(c.model);
  for (std::size_t i = 0; i < now.size(); ++i)
    c.benches.push_back({profile.timings[i], now[i], predicted_ms(before, profile.timing_counts[i])});
  for (std::size_t i = 0; i < before.prices.size() && i < after.prices.size(); ++i)
    c.constants.push_back({before.prices[i].constant, before.prices[i].ms, after.prices[i].ms});
  if (counts != nullptr)
    for (const CountsRow& row : counts->rows()) {
      const std::uint32_t bytes = row.run.type == "double" ? 8 : 4;
      if (row.machine != machine_fields(profile, bytes)) continue;  // simulated on another machine
      const double p = predicted_ms(before, row.counts);
      if (p > 0) c.runs.push_back({row.run, p, predicted_ms(after, row.counts)});
    }
  return c;
}

report::Table check_bench_table(const CalibrationCheck& check, const std::string& device) {
  report::Table t;
  t.title = "Microbenchmarks timed again against the profile";
  t.parameters = {{"device", device}, {"cost_model", check.model}};
  t.columns = {"bench",           "n", "element_bytes", "profile_ms", "now_ms", "now_vs_profile", "predicted_ms",
               "predicted_vs_now"};
  for (const auto& b : check.benches)
    t.add_row({b.now.bench.name(), static_cast<long long>(b.now.bench.n),
               static_cast<long long>(b.now.bench.element_bytes), b.then.median_ms, b.now.median_ms,
               b.now.median_ms / b.then.median_ms, b.predicted_ms, b.predicted_ms / b.now.median_ms});
  return t;
}

report::Table check_constant_table(const CalibrationCheck& check, const std::string& device) {
  report::Table t;
  t.title = "The model's constants fitted again on the new timings";
  t.parameters = {{"device", device}, {"cost_model", check.model}};
  t.columns = {"constant", "profile_ms", "now_ms", "now_vs_profile"};
  for (const auto& k : check.constants)
    t.add_row({k.constant, k.profile_ms, k.now_ms, k.profile_ms > 0 ? report::Cell{k.now_ms / k.profile_ms} : "-"});
  return t;
}

report::Table check_summary_table(const CalibrationCheck& check, const GpuProfile& profile) {
  report::Table t;
  t.title = "How far this GPU is from the profile";
  t.header = {"profile: " + profile.device + " of " + profile.date + " (" + profile.gpu.name + ")"};
  t.columns = {"measure", "median", "worst factor", "over"};
  t.add_row({"microbenchmark time, now against the profile's", check.median_timing_change(),
             check.worst_timing_factor(), static_cast<long long>(check.benches.size())});
  const auto errors = [&](bool now) {
    return each(check.benches, [now](const CalibrationCheck::Bench& b) {
      return std::abs(b.predicted_ms / (now ? b.now.median_ms : b.then.median_ms) - 1);
    });
  };
  t.add_row({"the profile's prediction against the profile's timings", median_of(errors(false)), "-",
             static_cast<long long>(check.benches.size())});
  t.add_row({"the profile's prediction against the timings now", median_of(errors(true)), "-",
             static_cast<long long>(check.benches.size())});
  if (!check.runs.empty())
    t.add_row({"predicted ms of the counts file's runs, refit against profile", check.median_prediction_change(),
               check.worst_prediction_factor(), static_cast<long long>(check.runs.size())});
  t.notes = {
      "median of |a / b - 1|; worst factor: max(a / b, b / a). The refit keeps the profile's simulated "
      "machine (its L2 capacity) and model (" +
      check.model + ")."};
  return t;
}

}  // namespace mmsim::predict
