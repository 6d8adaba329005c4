// The one report of a run, for every algorithm of every family: the machine and parameters as run,
// the simulated time with its rounds, the paper's closed form where one exists, the family's own
// figures as named values, and the cell-by-cell check. algorithms/run_output.h writes it as JSON,
// text and the trace CSV; nothing else formats a run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "algorithms/params.h"
#include "models/machines.h"
#include "sim/engine.h"
#include "sim/stats.h"

namespace mmsim {

/// A named figure a family reports beside the time (D_w(P), cac_violations, method, TLB misses...).
struct ReportFigure {
  std::string name;  ///< snake_case key of the JSON `figures` object
  std::variant<std::int64_t, double, std::string> value;
  std::string unit;  ///< for the text report only ("s", "time units", "" for counts)
};

struct RunReport {
  std::string algorithm;
  std::string family;
  std::string paper;  ///< reference key and section (docs/references.md)
  MachineParams machine;
  ParamValues parameters;  ///< every declared parameter as run, defaults included
  Execution execution = Execution::RoundSynchronous;
  std::uint64_t n = 0;  ///< elements the run moves or sorts
  /// The permutation P the run moves the data along, where it moves along one.
  std::optional<std::string> permutation;
  std::optional<std::uint64_t> distribution;          ///< D_w(P), where P is known
  std::optional<std::uint64_t> distribution_inverse;  ///< D_w(P^-1)
  RunStats stats;                                     ///< time units, kernels, rounds (the engine's)
  std::optional<TimeUnits> predicted_time_units;      ///< the paper's closed form, if any
  std::vector<ReportFigure> figures;
  bool correct = false;          ///< the output checked cell by cell
  std::vector<SlotEvent> trace;  ///< every slot, when the run traced

  void figure(std::string name, std::variant<std::int64_t, double, std::string> value, std::string unit = {}) {
    figures.push_back({std::move(name), std::move(value), std::move(unit)});
  }
};

/// Consecutive kernel launches of one name, summed: the phases of a run.
struct PhaseSummary {
  std::string name;
  std::uint64_t launches = 0;
  std::uint64_t rounds = 0;
  TimeUnits time_units = 0;
};
std::vector<PhaseSummary> phases_of(const RunStats& stats);

}  // namespace mmsim
