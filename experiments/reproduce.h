// `mmsim reproduce`: every table (md, csv, json) and every figure, written to one folder.
#pragma once

#include <ostream>
#include <string>

namespace mmsim::experiments {

/// Writes each table of tables() with its default settings as OUT/NAME.{md,csv,json}, and each
/// figure of figures() into OUT/, printing one progress line per item to `progress`. An item that
/// throws ends its line with " failed" before the exception goes on, so that the caller's error
/// message starts a line of its own.
void reproduce(const std::string& out_dir, std::ostream& progress);

}  // namespace mmsim::experiments
