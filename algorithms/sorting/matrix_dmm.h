// The w x m matrix view of one DMM used by AS Sect. 1 (Afshani-Sitchinava): w processors (one warp),
// latency 1, row i of the matrix is bank i, and one time step is one warp access.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/machines.h"
#include "sim/engine.h"

namespace mmsim::sorting {

/// A region of `cols` columns of the matrix starting at column `col0`: cell (row, col) of the
/// region is address (col0 + col) * w + row, so it always lies in bank `row`.
struct Region {
  std::uint64_t col0 = 0;
};

/// One DMM (latency 1, p = w threads) whose memory is one shared array of w x `columns` cells.
/// Every access an algorithm makes is one warp step launched on the engine, so every step is
/// costed by the DMM rule; processors' local state (a constant number of words each) lives in the
/// host driver, which mirrors the processors' sequential control flow.
class MatrixDmm {
 public:
  /// `options` reach the engine (its trace records every step's slots); execution must be
  /// round-synchronous, or std::logic_error.
  MatrixDmm(int w, std::uint64_t columns, EngineOptions options = {});
  // The step kernels capture `this`: the object stays where it was made.
  MatrixDmm(const MatrixDmm&) = delete;
  MatrixDmm& operator=(const MatrixDmm&) = delete;

  int w() const { return w_; }
  std::uint64_t columns() const { return columns_; }
  Address at(Region r, std::uint64_t row, std::uint64_t col) const {
    return (r.col0 + col) * static_cast<std::uint64_t>(w_) + row;
  }

  /// Names the phase that the following steps belong to (the engine's kernel name).
  void phase(const std::string& name);
  const std::string& current_phase() const { return read_.name; }

  /// One step: processor p reads addr[p] into val[p] (kNoAddress: p is idle, val[p] unchanged).
  void read(const std::vector<Address>& addr, std::vector<Word>& val);
  /// One step: processor p writes val[p] to addr[p] (kNoAddress: idle).
  void write(const std::vector<Address>& addr, const std::vector<Word>& val);

  /// Host view, only to load the input and to check the output.
  std::span<Word> cells() { return engine_->shared(array_, 0); }
  const RunStats& stats() const { return engine_->stats(); }
  const std::vector<SlotEvent>& trace() const { return engine_->trace(); }

 private:
  int w_;
  std::uint64_t columns_;
  std::unique_ptr<Machine> machine_;
  std::unique_ptr<Engine> engine_;
  ArrayId array_ = 0;
  std::vector<Address> addr_;
  std::vector<Word> val_;
  Kernel read_, write_;
};

/// Figures of one run on the matrix DMM, read from the engine's per-round statistics. The time
/// per phase is not here: the phases are the engine's kernel names, and phases_of() (run_report.h)
/// sums them from the same statistics.
struct StepSummary {
  std::int64_t steps = 0;           ///< warp accesses (rounds)
  std::int64_t time_units = 0;      ///< round-synchronous time, latency 1: sum of congestions
  std::int64_t cac_violations = 0;  ///< steps whose congestion exceeds 1 (the CAC is broken)
  int max_congestion = 0;
};

StepSummary summarize(const RunStats& stats);

}  // namespace mmsim::sorting
