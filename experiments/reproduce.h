// `mmsim reproduce`: every table (md, csv, json) and every figure, written to one folder.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "report/json.h"

namespace mmsim::experiments {

inline constexpr const char* kManifestName = "manifest.json";

/// Writes each table of tables() with its default settings as OUT/NAME.{md,csv,json}, and each
/// figure of figures() into OUT/, printing one progress line per item to `progress`. An item that
/// throws ends its line with " failed" before the exception goes on, so that the caller's error
/// message starts a line of its own. Returns one line per table whose own correctness check failed
/// (report::failed_rows); such a table is still written, so that its rows can be read.
/// Last, it writes OUT/manifest.json (kManifestName): the command, mmsim's version and commit, the
/// failed checks, and every file it made with its size in bytes and SHA-256 (docs/report.md). Then
/// OUT/README.md (results_readme.h), which lists them; the manifest does not, since the page only
/// indexes the files that it lists.
std::vector<std::string> reproduce(const std::string& out_dir, std::ostream& progress);

/// The manifest of files `made` in `out_dir` (paths as written, listed by their name in the
/// folder): which mmsim made them, how it was asked, the `failed` checks, and each file with its
/// size and SHA-256, so that a copy of the folder can be checked (sha256sum) and traced. Throws
/// WriteError when a listed file cannot be read.
report::Json manifest_json(const std::string& out_dir, const std::vector<std::string>& made,
                           const std::vector<std::string>& failed);

}  // namespace mmsim::experiments
