// A counts file: the simulated counts of prediction runs as a tidy CSV, one row per run and
// machine, so that a table can be priced again (another profile of the same machine, a refit)
// without simulating again. `mmsim validate --counts FILE` reads and writes it.
//
// Columns: the run (algorithm, permutation, type, n), the machine it was simulated on (every
// field of the HMM and of the GPU-like memory that a count depends on), every counter by name,
// the sampling the counts come from (sample_shift, sample_seed: 0 for an exact simulation), whether
// the run's output was correct, and the build that counted it (mmsim_version, mmsim_commit,
// as every CSV of mmsim's ends: docs/report.md). A row is reused only when its run and its machine
// both match; a file whose counter columns are not this build's counters is refused as a whole (a
// counter added to the model would otherwise read as zero), except the few added since files were
// written, which are read where the file's other counts imply them exactly, and the columns of the
// L2 of lines that files had while the model l2-lines was fitted, which are read past
// (counts_file.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "predict/cost_model.h"
#include "predict/gpu_profile.h"
#include "report/build_info.h"

namespace mmsim::predict {

/// What a run is, apart from the machine.
struct RunIdentity {
  std::string algorithm;  ///< the registry algorithm simulated
  std::string permutation;
  std::string type;  ///< float or double
  std::uint64_t n = 0;

  auto operator<=>(const RunIdentity&) const = default;
};

/// The machine a run was simulated on, as named fields (w, l, L, k, sector_bytes, element_bytes,
/// cache_bytes, ...), in the order of the file's columns.
using MachineFields = std::vector<std::pair<std::string, std::uint64_t>>;
MachineFields machine_fields(const GpuProfile& profile, std::uint32_t element_bytes);

/// The counters a file holds, by name, in column order: the stored counts of count_fields().
std::vector<std::string> counter_names();
std::vector<std::uint64_t> counter_values(const RunCounts& counts);

struct CountsRow {
  RunIdentity run;
  MachineFields machine;
  RunCounts counts;
  bool correct = false;
  /// The sampling the counts come from (predict/sampled.h): 1/2^sample_shift of the DRAM rows, chosen
  /// with sample_seed; 0 for every row (an exact simulation, and every file written before these columns).
  int sample_shift = 0;
  std::uint64_t sample_seed = 0;
  /// The build that counted the row: this one for a row made here; as read for a row from a file
  /// (empty where the file was written before these columns).
  std::string version = report::build_info().version;
  std::string commit = report::build_info().commit;
};

/// The rows of a counts file, looked up by run and machine.
class CountsFile {
 public:
  /// Reads `file`. Throws std::invalid_argument naming the file (and the line) when it cannot be
  /// read, is malformed, or its counters are not counter_names().
  static CountsFile read(const std::filesystem::path& file);

  const CountsRow* find(const RunIdentity& run, const MachineFields& machine) const;
  /// Adds `row`, replacing a row of the same run and machine; where that row's counts and
  /// correctness are the same, it keeps the build that counted them first.
  void put(CountsRow row);
  const std::vector<CountsRow>& rows() const { return rows_; }
  /// Rows of the file read that lacked a counter added since and did not imply it: their runs
  /// are simulated again.
  std::size_t left_out() const { return left_out_; }
  /// The file's text, rows sorted by machine, then run.
  std::string csv() const;

 private:
  std::vector<CountsRow> rows_;
  std::size_t left_out_ = 0;
};

}  // namespace mmsim::predict
