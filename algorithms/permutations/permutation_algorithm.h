// What every permutation algorithm of KNI offers the CLI, the tables and the tests.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/permutations/permutation.h"
#include "models/machines.h"
#include "sim/engine.h"

namespace mmsim {

/// Everything a run of a permutation algorithm may need besides the machine.
struct PermutationInput {
  const Permutation* perm = nullptr;
  std::optional<std::string> schedule_file;  ///< precomputed schedule (scheduled permutation)
  std::uint64_t seed = 1;
  /// An observer for figures and tests (the offline algorithms of KNI Sect. 5-7 call it): after each
  /// kernel a run launches, with the engine, whose arrays then hold what that kernel left, and the
  /// kernel, whose steps name the arrays it read and wrote. Empty: nothing is called.
  std::function<void(Engine&, const Kernel&)> after_launch;
};

/// A named figure a run reports beside its time (e.g. the schedule's precomputation in seconds).
struct RunFigure {
  std::string name;
  double value = 0;
  std::string unit;
};

struct PermutationRun {
  RunStats stats;
  std::optional<TimeUnits> predicted;  ///< the paper's closed form for this machine and P, if any
  bool correct = false;                ///< b[P(i)] == a[i] for every i, checked cell by cell
  std::vector<RunFigure> figures;
  std::vector<SlotEvent> trace;  ///< every slot, when the engine traced
  /// The permutation the run performed when it is not the input P (row-wise and column-wise derive
  /// one from a P that does not keep the rows); empty otherwise.
  std::vector<Word> performed;
};

/// The stats (and trace) an engine collected, as the start of a PermutationRun.
inline PermutationRun collect(const Engine& engine) {
  PermutationRun run;
  run.stats = engine.stats();
  run.trace = engine.trace();
  return run;
}

struct PermutationAlgorithm {
  std::string name;
  std::string description;
  std::string paper;  ///< paper and section
  /// Throws InputError when the algorithm cannot run this input on this machine.
  std::function<void(const MachineParams&, const PermutationInput&)> check;
  std::function<PermutationRun(const Machine&, const PermutationInput&, const EngineOptions&)> run;
};

/// Distinct values for the source array, so that a misplaced cell cannot go unnoticed.
inline Word source_value(std::uint64_t i) { return static_cast<Word>(i * 2654435761u + 12345u); }

/// True when b[P(i)] == source_value(i) for every i.
bool holds_permutation(std::span<const Word> b, const std::vector<Word>& p);

}  // namespace mmsim
