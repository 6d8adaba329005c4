#include "predict/tile_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "predict/fit.h"
#include "predict/form_choice.h"

namespace mmsim::predict {

namespace {

double error(const TileCosts& c, const TileSample& s) { return c.cycles(s) / s.cycles - 1; }

// Non-negative relative least squares with each bench charged to the latency part or to the
// throughput part as `on_latency` says (the additive form: to both).
TileCosts fit_assigned(CostForm form, const std::vector<const TileSample*>& samples,
                       const std::vector<bool>& on_latency) {
  std::vector<std::vector<double>> rows;
  std::vector<double> cycles;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const TileSample& s = *samples[i];
    const bool latency = form == CostForm::Additive || on_latency[i];
    const bool throughput = form == CostForm::Additive || !on_latency[i];
    rows.push_back({1, latency && !s.beyond_l2 ? s.waves : 0, latency && s.beyond_l2 ? s.waves : 0,
                    latency ? s.waves * s.loads : 0, throughput && !s.beyond_l2 ? s.words_per_sm : 0,
                    throughput && s.beyond_l2 ? s.words_per_sm : 0});
    cycles.push_back(s.cycles);
  }
  const std::vector<double> x = nonnegative_relative_fit(rows, cycles);
  TileCosts c;
  c.form = form;
  c.fixed = x[0];
  c.round_l2 = x[1];
  c.round_dram = x[2];
  c.per_load = x[3];
  c.per_word_l2 = x[4];
  c.per_word_dram = x[5];
  return c;
}

double throughput_cycles(const TileCosts& c, const TileSample& s) {
  return s.words_per_sm * (s.beyond_l2 ? c.per_word_dram : c.per_word_l2);
}

TileCosts fit_form(CostForm form, const std::vector<const TileSample*>& samples) {
  // The bound form starts with one block a round's single load bound by its latency, or every
  // bench whose waves outnumber its words per SM a thousandfold, and every other by throughput;
  // then moves each bench to the part that binds it under the fit, until none moves.
  std::vector<bool> on_latency;
  for (const TileSample* s : samples) on_latency.push_back(s->waves * 1000 >= s->words_per_sm);
  TileCosts c = fit_assigned(form, samples, on_latency);
  for (int round = 0; form == CostForm::Bound && round < 50; ++round) {
    bool moved = false;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const TileSample& x = *samples[i];
      const bool binds = c.latency_cycles(x.waves, x.loads, x.beyond_l2) >= throughput_cycles(c, x);
      moved |= binds != on_latency[i];
      on_latency[i] = binds;
    }
    if (!moved) break;
    c = fit_assigned(form, samples, on_latency);
  }
  return c;
}

// Each bench predicted by the form fitted without its K.
std::vector<double> held_out_errors(CostForm form, const std::vector<const TileSample*>& samples) {
  return held_out_by_group(
      samples, [](const TileSample& s) { return s.loads; }, 5,
      [&](const std::vector<const TileSample*>& rest) { return fit_form(form, rest); },
      [](const TileCosts& c, const TileSample& s) { return error(c, s); });
}

}  // namespace

TileSample tile_sample(const TileBench& b, double sms, double l2_bytes, double cycles) {
  TileSample s;
  s.bench = b.name();
  s.loads = b.loads;
  s.waves = std::ceil(static_cast<double>(b.blocks()) / (sms * b.blocks_per_sm));
  s.words_per_sm = 2 * static_cast<double>(b.words()) / sms;
  s.beyond_l2 = static_cast<double>(b.words()) * 4 * (b.in_place ? 1 : 2) > l2_bytes;
  s.cycles = cycles;
  return s;
}

double TileCosts::cycles(const TileSample& s) const {
  const double latency = latency_cycles(s.waves, s.loads, s.beyond_l2), throughput = throughput_cycles(*this, s);
  return fixed + (form == CostForm::Additive ? latency + throughput : std::max(latency, throughput));
}

TileCosts fit_tile_costs(const std::vector<TileSample>& samples) {
  std::vector<const TileSample*> all;
  std::set<double> loads;
  for (const TileSample& s : samples) {
    if (!(s.loads > 0 && s.waves > 0 && s.words_per_sm > 0 && s.cycles > 0))
      throw std::invalid_argument("tile costs: " + s.bench + ": loads, waves, words and cycles must be positive");
    all.push_back(&s);
    loads.insert(s.loads);
  }
  if (all.size() < 6 || loads.size() < 2)
    throw std::invalid_argument("tile costs: at least six microbenchmarks of two load counts are needed");
  return fit_better_form<TileCosts>(all, fit_form, held_out_errors,
                                    [](const TileCosts& c, const TileSample& s) { return error(c, s); });
}

std::string describe(const TileCosts& c) {
  char text[400];
  std::snprintf(text, sizeof text,
                "%s, %.4g cycles + %s(waves x (%.4g or %.4g + loads x %.4g), words per SM x %.4g or %.4g), "
                "within or beyond the L2 (%d microbenchmarks: median error %.3f fitted, %.3f held out, worst %.2fx)",
                to_string(c.form), c.fixed, c.form == CostForm::Additive ? "sum" : "max", c.round_l2, c.round_dram,
                c.per_load, c.per_word_l2, c.per_word_dram, c.samples, c.fitted, c.held_out, c.worst_held_out);
  return text;
}

}  // namespace mmsim::predict
