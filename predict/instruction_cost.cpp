#include "predict/instruction_cost.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "predict/fit.h"
#include "predict/instruction_bench.h"

namespace mmsim::predict {

namespace {

// The terms of a sample as its setting prices them: a warp's counts alone, or the SM's warps' sum.
std::vector<double> terms(const InstructionSample& s) {
  const double w = s.many ? kInstructionWarpsPerSm : 1;
  return {w * s.warp_instructions, w * s.steps, w * s.extra_slots};
}

double priced(const std::vector<double>& x, const InstructionSample& s) {
  const std::vector<double> t = terms(s);
  return x[0] * t[0] + x[1] * t[1] + x[2] * t[2];
}

std::vector<double> fit(const std::vector<InstructionSample>& samples) {
  std::vector<std::vector<double>> rows;
  std::vector<double> cycles;
  for (const InstructionSample& s : samples) {
    rows.push_back(terms(s));
    cycles.push_back(s.cycles);
  }
  return nonnegative_relative_fit(rows, cycles);
}

struct SettingFit {
  std::vector<double> x;
  double held_out = 0, fitted = 0;
};

SettingFit fit_setting(const std::vector<InstructionSample>& samples) {
  if (samples.size() < 3) throw std::invalid_argument("instruction costs: fewer than three microbenchmarks to fit on");
  for (const InstructionSample& s : samples)
    if (!(s.cycles > 0)) throw std::invalid_argument("instruction costs: " + s.bench + ": cycles must be positive");
  SettingFit out;
  out.x = fit(samples);
  std::vector<double> fitted, held_out;
  for (const InstructionSample& s : samples) fitted.push_back(std::abs(priced(out.x, s) / s.cycles - 1));
  std::set<std::string> kinds;
  for (const InstructionSample& s : samples) kinds.insert(s.kind);
  for (const std::string& k : kinds) {
    std::vector<InstructionSample> rest;
    for (const InstructionSample& s : samples)
      if (s.kind != k) rest.push_back(s);
    if (rest.size() < 3) continue;
    const std::vector<double> x = fit(rest);
    for (const InstructionSample& s : samples)
      if (s.kind == k) held_out.push_back(std::abs(priced(x, s) / s.cycles - 1));
  }
  out.fitted = median_of(fitted);
  out.held_out = median_of(held_out);
  return out;
}

}  // namespace

InstructionCosts fit_instruction_costs(const std::vector<InstructionSample>& samples) {
  std::vector<InstructionSample> lone, many;
  for (const InstructionSample& s : samples) (s.many ? many : lone).push_back(s);
  const SettingFit l = fit_setting(lone), m = fit_setting(many);
  InstructionCosts c;
  c.lone_instruction = l.x[0];
  c.lone_step = l.x[1];
  c.lone_extra_slot = l.x[2];
  c.many_instruction = m.x[0];
  c.many_step = m.x[1];
  c.many_extra_slot = m.x[2];
  c.lone_held_out = l.held_out;
  c.many_held_out = m.held_out;
  c.lone_fitted = l.fitted;
  c.many_fitted = m.fitted;
  c.lone_samples = static_cast<int>(lone.size());
  c.many_samples = static_cast<int>(many.size());
  return c;
}

double lone_cycles(const InstructionCosts& c, double warp_instructions, double steps, double extra_slots) {
  return c.lone_instruction * warp_instructions + c.lone_step * steps + c.lone_extra_slot * extra_slots;
}

double sm_cycles(const InstructionCosts& c, double warp_instructions, double steps, double extra_slots, double warps) {
  const double throughput =
      warps * (c.many_instruction * warp_instructions + c.many_step * steps + c.many_extra_slot * extra_slots);
  return std::max(lone_cycles(c, warp_instructions, steps, extra_slots), throughput);
}

}  // namespace mmsim::predict
