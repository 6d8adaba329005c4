// Nsight Compute's CSV (ncu --csv --metrics ...) read back: one value per kernel launch and metric,
// for the tables that set its counts beside the simulator's (rap-ncu, as-ncu, accesses-ncu). CPU
// only: the tables are made from a committed CSV on any host.
#pragma once

#include <map>
#include <string>

namespace mmsim::gpu {

/// Launch ID -> metric name -> value.
using NcuMetrics = std::map<long long, std::map<std::string, double>>;

/// One launch: its kernel's name as ncu prints it, and its metrics by name.
struct NcuLaunch {
  std::string kernel;
  std::map<std::string, double> metrics;
};
/// Launch ID -> its launch.
using NcuLaunches = std::map<long long, NcuLaunch>;

/// The metrics of an ncu CSV. Lines that are not records (ncu's own "==PROF==" messages) are
/// skipped; the records are read through report/csv.h by the columns "ID", "Metric Name" and
/// "Metric Value" (whose thousands separators are dropped). Throws InputError, one line naming
/// --ncu-csv and the file, when it cannot be read, has no such header, or holds a malformed record or
/// a value that is not a number.
/// `option` names the file in messages (--ncu-csv by default).
NcuLaunches read_ncu_launches(const std::string& path, const std::string& option = "--ncu-csv");
NcuMetrics read_ncu_metrics(const std::string& path);

}  // namespace mmsim::gpu
