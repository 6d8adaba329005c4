// Running a sweep (sweep/sweep.h): its rows on every core of this process and, under MPI,
// of every rank; finished rows appended to a journal as they come, so that an interrupted sweep
// resumes without redoing them; the final CSV and JSON in grid order, the same bytes however the
// sweep was run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "sweep/sweep.h"
#include "sweep/sweep_comm.h"

namespace mmsim::sweep {

struct SweepOptions {
  std::string grid;      ///< the grid file
  std::string csv;       ///< the CSV to write; the JSON and the journal go beside it (sweep_paths)
  unsigned threads = 0;  ///< rows at once on each process (each row's engine on one thread); 0: every core
};

struct SweepSummary {
  std::uint64_t rows = 0;          ///< rows of the grid
  std::uint64_t from_journal = 0;  ///< finished by an earlier, interrupted run
  std::uint64_t run_now = 0;       ///< run by this one (over every rank)
  std::uint64_t incorrect = 0;     ///< rows whose output check failed
  std::uint64_t refused = 0;       ///< rows their algorithm refused (the reason is in their `error` cell)
  SweepPaths paths;
};

/// Called on rank 0 as rows finish: rows finished so far (journal included) and in all.
using SweepProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

/// Runs the sweep on every rank of `comm`. Throws InputError for a bad grid or output path (on
/// rank 0 with the reason; on the others with a message not worth printing twice) and WriteError
/// when rank 0 cannot write.
SweepSummary run_sweep(const SweepOptions& options, SweepComm& comm, const SweepProgress& progress = {});

}  // namespace mmsim::sweep
