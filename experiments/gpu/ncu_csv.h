// Nsight Compute's CSV (ncu --csv --metrics ...) read back: one value per kernel launch and metric,
// for the tables that set its bank-conflict counts beside the simulator's (rap-ncu, as-ncu).
#pragma once

#include <map>
#include <string>

namespace mmsim::gpu {

/// Launch ID -> metric name -> value.
using NcuMetrics = std::map<long long, std::map<std::string, double>>;

/// The metrics of an ncu CSV. Lines that are not records (ncu's own "==PROF==" messages) are
/// skipped; the records are read through report/csv.h by the columns "ID", "Metric Name" and
/// "Metric Value" (whose thousands separators are dropped). Throws InputError, one line naming
/// --ncu-csv and the file, when it cannot be read, has no such header, or holds a malformed record or
/// a value that is not a number.
NcuMetrics read_ncu_metrics(const std::string& path);

}  // namespace mmsim::gpu
