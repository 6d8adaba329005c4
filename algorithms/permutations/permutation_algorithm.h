// What every permutation algorithm of KNI offers the CLI, the tables and the tests.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/permutations/permutation.h"
#include "algorithms/run_report.h"
#include "models/machines.h"
#include "sim/engine.h"

namespace mmsim {

/// Everything a run of a permutation algorithm may need besides the machine.
struct PermutationInput {
  const Permutation* perm = nullptr;
  std::optional<std::string> schedule_file;  ///< precomputed schedule (scheduled permutations)
  std::uint32_t block_rows = 0;              ///< scheduled-fused: rows per block (0: as the GPU's for 4-byte cells)
  std::uint64_t seed = 1;
  /// An observer for figures and tests (the offline algorithms of KNI Sect. 5-7 call it): after each
  /// kernel a run launches, with the engine, whose arrays then hold what that kernel left, and the
  /// kernel, whose steps name the arrays it read and wrote. Empty: nothing is called.
  std::function<void(Engine&, const Kernel&)> after_launch;
};

/// The stats (and trace) an engine collected, as the start of a run's report.
inline RunReport collect(const Engine& engine) {
  RunReport r;
  r.stats = engine.stats();
  r.trace = engine.trace();
  return r;
}

/// Contract: `run` returns the run's report with what only the run knows: stats, trace, the paper's
/// closed form for this machine and P (predicted_time_units), `correct` (b[P(i)] == a[i] for every
/// i, checked cell by cell) and its figures; where it moved the data along a permutation derived
/// from P rather than P (row-wise and column-wise, from a P that does not keep the lines), also
/// `permutation` and the distributions of what it moved. offline::run_permutation fills the rest.
struct PermutationAlgorithm {
  std::string name;
  std::string description;
  std::string paper;  ///< paper and section
  /// Throws InputError when the algorithm cannot run this input on this machine.
  std::function<void(const MachineParams&, const PermutationInput&)> check;
  std::function<RunReport(const Machine&, const PermutationInput&, const EngineOptions&)> run;
};

/// Distinct values for the source array, so that a misplaced cell cannot go unnoticed.
inline Word source_value(std::uint64_t i) { return static_cast<Word>(i * 2654435761u + 12345u); }

/// True when b[P(i)] == source_value(i) for every i; checked on `threads` host threads (0: every core).
bool holds_permutation(std::span<const Word> b, const std::vector<Word>& p, unsigned threads = 1);

}  // namespace mmsim
