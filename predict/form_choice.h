// The choice between a cost term's two forms (additive and bound) that the copy and tile terms
// share: each form's held-out errors, the form with the smaller median kept and fitted on every
// sample, and its errors recorded in the costs (fitted, held out, the other form's held out, the
// worst held-out factor, the interval's factor, the samples).
#pragma once

#include <algorithm>
#include <vector>

#include "predict/fit.h"
#include "predict/instruction_cost.h"

namespace mmsim::predict {

/// `fit_form(form, samples)` fits one form; `held_out(form, samples)` gives each sample's error
/// predicted by that form fitted without it (held_out_by_group); `error(costs, sample)` a sample's
/// predicted / measured - 1. Costs has the members form, fitted, held_out, held_out_other_form,
/// worst_held_out, interval_factor and samples.
template <typename Costs, typename Sample, typename FitForm, typename HeldOut, typename Error>
Costs fit_better_form(const std::vector<const Sample*>& all, FitForm fit_form, HeldOut held_out, Error error) {
  std::vector<double> held[2];
  const CostForm forms[2] = {CostForm::Additive, CostForm::Bound};
  for (int f = 0; f < 2; ++f) held[f] = held_out(forms[f], all);
  const int best = median_abs_of(held[1]) < median_abs_of(held[0]) ? 1 : 0;
  Costs c = fit_form(forms[best], all);
  c.held_out = median_abs_of(held[best]);
  c.held_out_other_form = median_abs_of(held[1 - best]);
  for (const double e : held[best]) c.worst_held_out = std::max(c.worst_held_out, std::max(1 + e, 1 / (1 + e)));
  c.interval_factor = interval_factor_of(held[best]);
  std::vector<double> fitted;
  for (const Sample* s : all) fitted.push_back(error(c, *s));
  c.fitted = median_abs_of(fitted);
  c.samples = static_cast<int>(all.size());
  return c;
}

}  // namespace mmsim::predict
