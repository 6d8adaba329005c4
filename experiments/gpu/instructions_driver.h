// `mmsim gpu instructions`: the instruction microbenchmarks (predict/instruction_bench.h) on the
// GPU, every output checked, as tidy tables (instructions.csv; the copy benches, instructions-copy.csv; the tile
// benches, instructions-tiles.csv; the stream benches, held out from every fit, instructions-stream.csv); and the
// Nsight Compute side: one launch of one block per bench to profile, and the table of their executed warp instructions
// (instructions-ncu.csv) that predict/instruction_cost.h fits on.
#pragma once

#include <string>

#include "cuda/harness/timer.h"
#include "report/table.h"

namespace mmsim::gpu::instructions {

struct InstructionsRun {
  report::Table table;    ///< instructions.csv: the instruction benches
  report::Table copies;   ///< instructions-copy.csv: the copy benches
  report::Table tiles;    ///< instructions-tiles.csv: the tile benches
  report::Table streams;  ///< instructions-stream.csv: the stream benches
  bool failed = false;    ///< some output was wrong
};

/// Times every bench, then every copy bench, every tile bench and every stream bench (one progress
/// line each on stderr). Throws GpuError.
InstructionsRun run_instructions(const TimingPlan& plan);

/// One launch of one block per bench of the set's lone half, in its order, then one launch of each
/// stream bench, each checked; returns how many were wrong.
int run_profiled_launches();

struct NcuTables {
  report::Table benches;  ///< instructions-ncu.csv
  report::Table streams;  ///< instructions-stream-ncu.csv (no rows: an output of the lone benches alone)
};

/// ncu's --csv output of run_profiled_launches (kernels matched by launch ID, in order): each lone
/// bench's warp instructions (smsp__inst_executed.sum), and each stream bench's, per warp. An
/// output of the lone benches alone (written before the stream benches) gives no stream rows.
/// Throws InputError.
NcuTables instructions_ncu_tables(const std::string& ncu_csv);

}  // namespace mmsim::gpu::instructions
