#include "predict/instruction_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "predict/fit.h"
#include "predict/instruction_bench.h"

namespace mmsim::predict {

namespace {

double warps_of(const InstructionSample& s) { return s.many ? kInstructionWarpsPerSm : 1; }

// The fitted constants of one form.
struct Costs {
  double instruction = 0, access = 0, extra_slot = 0;
};

double priced(CostForm form, const Costs& c, const InstructionSample& s) {
  SettingCosts setting;
  setting.form = form;
  setting.instruction = c.instruction;
  setting.access = c.access;
  setting.extra_slot = c.extra_slot;
  return setting.cycles(s.warp_instructions, s.steps, s.extra_slots, warps_of(s));
}

std::vector<double> fit_rows(const std::vector<const InstructionSample*>& samples, bool issue, bool banks) {
  std::vector<std::vector<double>> rows;
  std::vector<double> cycles;
  for (const InstructionSample* s : samples) {
    const double w = warps_of(*s);
    rows.push_back({issue ? w * s->warp_instructions : 0, banks ? w * s->steps : 0, banks ? w * s->extra_slots : 0});
    cycles.push_back(s->cycles);
  }
  return nonnegative_relative_fit(rows, cycles);
}

Costs fit_additive(const std::vector<const InstructionSample*>& samples) {
  const std::vector<double> x = fit_rows(samples, true, true);
  return {x[0], x[1], x[2]};
}

// The bound form: each sample is bound by its issue or by its banks; start from the samples with
// no shared access on issue and the others on the banks, fit each part on its samples, move every
// sample to the part that now binds it, and again until none moves (at most 50 rounds).
Costs fit_bound(const std::vector<const InstructionSample*>& samples) {
  std::vector<bool> on_issue;
  for (const InstructionSample* s : samples) on_issue.push_back(s->steps == 0);
  Costs c;
  for (int round = 0; round < 50; ++round) {
    std::vector<const InstructionSample*> issue, banks;
    for (std::size_t i = 0; i < samples.size(); ++i) (on_issue[i] ? issue : banks).push_back(samples[i]);
    if (!issue.empty()) c.instruction = fit_rows(issue, true, false)[0];
    if (!banks.empty()) {
      const std::vector<double> x = fit_rows(banks, false, true);
      c.access = x[1];
      c.extra_slot = x[2];
    }
    bool moved = false;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const InstructionSample& s = *samples[i];
      const bool binds = c.instruction * s.warp_instructions >= c.access * s.steps + c.extra_slot * s.extra_slots;
      moved |= binds != on_issue[i];
      on_issue[i] = binds;
    }
    if (!moved) break;
  }
  return c;
}

Costs fit_form(CostForm form, const std::vector<const InstructionSample*>& samples) {
  return form == CostForm::Additive ? fit_additive(samples) : fit_bound(samples);
}

double error(CostForm form, const Costs& c, const InstructionSample& s) { return priced(form, c, s) / s.cycles - 1; }

// Each sample predicted by the form fitted without its kind.
std::vector<double> held_out_errors(CostForm form, const std::vector<const InstructionSample*>& samples) {
  return held_out_by_group(
      samples, [](const InstructionSample& s) { return s.kind; }, 3,
      [&](const std::vector<const InstructionSample*>& rest) { return fit_form(form, rest); },
      [&](const Costs& c, const InstructionSample& s) { return error(form, c, s); });
}

SettingCosts fit_setting(const std::vector<const InstructionSample*>& samples) {
  if (samples.size() < 3) throw std::invalid_argument("instruction costs: fewer than three microbenchmarks to fit on");
  for (const InstructionSample* s : samples)
    if (!(s->cycles > 0)) throw std::invalid_argument("instruction costs: " + s->bench + ": cycles must be positive");
  SettingCosts best;
  std::vector<double> best_held;
  double other = NAN;
  for (const CostForm form : {CostForm::Additive, CostForm::Bound}) {
    const std::vector<double> held = held_out_errors(form, samples);
    const double m = median_abs_of(held);
    if (best_held.empty() || m < best.held_out) {
      other = best_held.empty() ? NAN : best.held_out;
      best.form = form;
      best.held_out = m;
      best_held = held;
    } else {
      other = m;
    }
  }
  const Costs c = fit_form(best.form, samples);
  best.instruction = c.instruction;
  best.access = c.access;
  best.extra_slot = c.extra_slot;
  std::vector<double> fitted;
  for (const InstructionSample* s : samples) fitted.push_back(error(best.form, c, *s));
  best.fitted = median_abs_of(fitted);
  best.held_out_other_form = other;
  for (const double e : best_held) best.worst_held_out = std::max(best.worst_held_out, std::max(1 + e, 1 / (1 + e)));
  best.interval_factor = interval_factor_of(best_held);
  best.samples = static_cast<int>(samples.size());
  return best;
}

}  // namespace

bool accesses_wait(const std::string& kind) { return kind != to_string(InstructionKind::SharedStream); }

const char* to_string(CostForm form) { return form == CostForm::Additive ? "additive" : "bound"; }

double SettingCosts::cycles(double warp_instructions, double steps, double extra_slots, double warps) const {
  const double issue = instruction * warp_instructions, banks = access * steps + extra_slot * extra_slots;
  return warps * (form == CostForm::Additive ? issue + banks : std::max(issue, banks));
}

InstructionCosts fit_instruction_costs(const std::vector<InstructionSample>& samples) {
  std::vector<const InstructionSample*> lone, many, outside;
  for (const InstructionSample& s : samples) {
    if (s.many)
      many.push_back(&s);
    else
      (accesses_wait(s.kind) ? lone : outside).push_back(&s);
  }
  InstructionCosts c;
  c.lone = fit_setting(lone);
  c.many = fit_setting(many);
  std::vector<double> errors;
  for (const InstructionSample* s : outside)
    errors.push_back(c.lone.cycles(s->warp_instructions, s->steps, s->extra_slots, 1) / s->cycles - 1);
  c.lone_outside = median_abs_of(errors);
  c.lone_outside_samples = static_cast<int>(outside.size());
  return c;
}

std::string describe(const InstructionCosts& c) {
  const auto setting = [](const SettingCosts& s) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s, %.3g cycles per warp instruction, %.3g per shared access, %.3g per extra slot (%d "
                  "microbenchmarks: median error %.3f fitted, %.3f held out, worst %.2fx)",
                  to_string(s.form), s.instruction, s.access, s.extra_slot, s.samples, s.fitted, s.held_out,
                  s.worst_held_out);
    return std::string(text);
  };
  char outside[96];
  std::snprintf(outside, sizeof outside, "; shared-stream, outside it: %.3f", c.lone_outside);
  return "a warp alone " + setting(c.lone) + (c.lone_outside_samples ? outside : "") + "; 32 warps per SM " +
         setting(c.many);
}

double lone_cycles(const InstructionCosts& c, double warp_instructions, double steps, double extra_slots) {
  return c.lone.cycles(warp_instructions, steps, extra_slots, 1);
}

double sm_cycles(const InstructionCosts& c, double warp_instructions, double steps, double extra_slots, double warps) {
  return std::max(lone_cycles(c, warp_instructions, steps, extra_slots),
                  c.many.cycles(warp_instructions, steps, extra_slots, warps));
}

}  // namespace mmsim::predict
