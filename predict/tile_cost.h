// What a kernel pays when its blocks keep too few loads in flight: the tile term, fitted on the tile
// microbenchmarks (instruction_bench.h, TileBench) alone, which `mmsim validate` sets as a floor under
// the memory models' price of a tiled kernel (predict/validate/prediction_table.h, TileFloor).
//
// A block of a tiled kernel loads its tile, waits at a barrier and stores it: each of its rounds
// costs about one load latency however few bytes it moves, and an SM overlaps only the rounds of
// the blocks resident on it. A launch of `blocks` blocks, B resident a SM on S SMs, is then at
// least waves = ceil(blocks / (S x B)) rounds long, one after another; a round whose threads have K
// loads in flight takes `round + K x per_load` cycles (the loads issue one after another), its
// latency that of the L2 where the L2 holds the arrays and that of the DRAM where it does not.
// When enough bytes are in flight the memory's throughput binds instead. The fit takes one SM's
// cycles of each bench as
//     cycles = fixed + max(waves x (round + K x per_load), words_per_sm x per_word)
// with round and per_word apart for arrays the L2 holds and arrays it does not (the bound form), or as the
// sum of the two parts (the additive form): non-negative least squares on relative errors
// (predict/fit.h; the bound form by assigning each bench to the part that binds it and fitting again
// until none moves), each form once per K left out, predicting the K it did not see; the form with
// the smaller median held-out error is kept. No algorithm's timing takes part in the choice or the fit.
#pragma once

#include <string>
#include <vector>

#include "predict/instruction_bench.h"
#include "predict/instruction_cost.h"

namespace mmsim::predict {

/// One tile microbenchmark as timed: its launch's ms at the SM clock, as one SM's cycles (the
/// launch is not subtracted: `fixed` holds it, measured in the same run, as the copy term's does).
struct TileSample {
  std::string bench;        ///< TileBench's name, e.g. tile-k4-b2-m16
  double loads = 0;         ///< K: loads a thread has in flight in its round
  double waves = 0;         ///< ceil(blocks / (SMs x blocks resident a SM))
  double words_per_sm = 0;  ///< words read and written, over the SMs
  bool beyond_l2 = false;   ///< the arrays exceed the L2 (their words priced at the DRAM's rate)
  double cycles = 0;
};

struct TileCosts {
  CostForm form = CostForm::Additive;
  double fixed = 0, per_load = 0;             ///< cycles; a load in flight in a round
  double round_l2 = 0, round_dram = 0;        ///< cycles a round, arrays within and beyond the L2
  double per_word_l2 = 0, per_word_dram = 0;  ///< cycles a word per SM, arrays within and beyond the L2
  /// Median |predicted / measured - 1| fitted and held out (each K predicted by the fit that left it
  /// out) for the chosen form and the other one; the worst held-out factor; the interval's factor.
  double fitted = 0, held_out = 0, held_out_other_form = 0;
  double worst_held_out = 1;
  double interval_factor = 1;
  int samples = 0;
  /// The latency part: `waves` rounds of `loads` loads in flight, one after another.
  double latency_cycles(double waves, double loads, bool beyond_l2) const {
    return waves * ((beyond_l2 ? round_dram : round_l2) + loads * per_load);
  }
  /// One SM's cycles for a bench (both parts and the fixed cycles).
  double cycles(const TileSample& s) const;
};

/// A tile bench as a sample on a GPU of `sms` SMs and an L2 of `l2_bytes`, its launch `cycles`
/// long: waves = ceil(blocks / (sms x blocks_per_sm)); the words it reads and writes over the SMs;
/// beyond the L2 where the arrays it touches (one in place, two else) exceed it.
TileSample tile_sample(const TileBench& b, double sms, double l2_bytes, double cycles);

/// Fits both forms and keeps the one that predicts a left-out K better. Throws
/// std::invalid_argument with fewer than two values of K, fewer than six samples, or a sample whose
/// loads, waves, words or cycles are not positive.
TileCosts fit_tile_costs(const std::vector<TileSample>& samples);

/// One line for people: the form, its constants, the microbenchmarks and the median errors.
std::string describe(const TileCosts& c);

}  // namespace mmsim::predict
