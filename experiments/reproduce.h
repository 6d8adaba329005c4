// `mmsim reproduce`: every table (md, csv, json) and every figure, written to one folder.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace mmsim::experiments {

/// Writes each table of tables() with its default settings as OUT/NAME.{md,csv,json}, and each
/// figure of figures() into OUT/, printing one progress line per item to `progress`. An item that
/// throws ends its line with " failed" before the exception goes on, so that the caller's error
/// message starts a line of its own. Returns one line per table whose own correctness check failed
/// (report::failed_rows); such a table is still written, so that its rows can be read.
std::vector<std::string> reproduce(const std::string& out_dir, std::ostream& progress);

}  // namespace mmsim::experiments
