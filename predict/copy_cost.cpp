#include "predict/copy_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "predict/fit.h"
#include "predict/form_choice.h"

namespace mmsim::predict {

namespace {

double error(const CopyCosts& c, const CopySample& s) { return c.cycles(s.rows, s.warps) / s.cycles - 1; }

// Non-negative relative least squares with each sample's row charged to the latency part or to the
// throughput part as `on_latency` says.
CopyCosts fit_assigned(CostForm form, const std::vector<const CopySample*>& samples,
                       const std::vector<bool>& on_latency) {
  std::vector<std::vector<double>> rows;
  std::vector<double> cycles;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const CopySample& s = *samples[i];
    const bool latency = form == CostForm::Additive || on_latency[i];
    const bool throughput = form == CostForm::Additive || !on_latency[i];
    rows.push_back({1, latency ? s.rows : 0, throughput ? s.rows * s.warps : 0});
    cycles.push_back(s.cycles);
  }
  const std::vector<double> x = nonnegative_relative_fit(rows, cycles);
  CopyCosts c;
  c.form = form;
  c.fixed = x[0];
  c.latency = x[1];
  c.throughput = x[2];
  return c;
}

CopyCosts fit_form(CostForm form, const std::vector<const CopySample*>& samples) {
  // The bound form starts with a lone warp bound by its latency and every other by throughput,
  // then moves each sample to the part that binds it under the fit, until none moves.
  std::vector<bool> on_latency;
  for (const CopySample* s : samples) on_latency.push_back(s->warps <= 1);
  CopyCosts c = fit_assigned(form, samples, on_latency);
  for (int round = 0; form == CostForm::Bound && round < 50; ++round) {
    bool moved = false;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const bool binds = c.latency >= c.throughput * samples[i]->warps;
      moved |= binds != on_latency[i];
      on_latency[i] = binds;
    }
    if (!moved) break;
    c = fit_assigned(form, samples, on_latency);
  }
  return c;
}

// Each sample predicted by the form fitted without its row count.
std::vector<double> held_out_errors(CostForm form, const std::vector<const CopySample*>& samples) {
  return held_out_by_group(
      samples, [](const CopySample& s) { return s.rows; }, 3,
      [&](const std::vector<const CopySample*>& rest) { return fit_form(form, rest); },
      [](const CopyCosts& c, const CopySample& s) { return error(c, s); });
}

}  // namespace

double CopyCosts::cycles(double rows, double warps) const {
  const double per_row =
      form == CostForm::Additive ? latency + warps * throughput : std::max(latency, warps * throughput);
  return fixed + rows * per_row;
}

CopyCosts fit_copy_costs(const std::vector<CopySample>& samples) {
  std::vector<const CopySample*> all;
  std::set<double> counts;
  for (const CopySample& s : samples) {
    if (!(s.rows > 0 && s.warps > 0 && s.cycles > 0))
      throw std::invalid_argument("copy costs: " + s.bench + ": rows, warps and cycles must be positive");
    all.push_back(&s);
    counts.insert(s.rows);
  }
  if (all.size() < 4 || counts.size() < 2)
    throw std::invalid_argument("copy costs: at least four microbenchmarks of two row counts are needed");
  return fit_better_form<CopyCosts>(all, fit_form, held_out_errors,
                                    [](const CopyCosts& c, const CopySample& s) { return error(c, s); });
}

std::string describe(const CopyCosts& c) {
  char text[320];
  std::snprintf(text, sizeof text,
                "%s, %.4g cycles + rows x %s(%.4g, warps x %.4g) (%d microbenchmarks: median error %.3f fitted, "
                "%.3f held out, worst %.2fx)",
                to_string(c.form), c.fixed, c.form == CostForm::Additive ? "sum" : "max", c.latency, c.throughput,
                c.samples, c.fitted, c.held_out, c.worst_held_out);
  return text;
}

}  // namespace mmsim::predict
