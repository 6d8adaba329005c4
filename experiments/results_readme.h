// results/README.md: the page that lists every reproduced table and figure of the registry
// (results.h) with the command that made it, links to its files, and a few of its cells read from
// the CSVs of the folder, the paper's beside ours where the CSV carries them.
#pragma once

#include <string>
#include <vector>

namespace mmsim::experiments {

inline constexpr const char* kResultsReadmeName = "README.md";

/// The page for the results folder `dir`, as Markdown: its CPU files at the top of `dir`, the
/// GPU's in each sub-folder gpu-<device>. It reads only the CSVs the entries' excerpts name. A file
/// that is absent is said to be absent (a folder before `mmsim reproduce`, a GPU folder that lacks
/// a stage); a CSV that lacks a column or a row the registry names, or has two such rows, throws
/// InputError naming the file and the row, since the page would then misstate it.
std::string results_readme(const std::string& dir);

/// The GPU folders of `dir` (the sub-folders named gpu-<device>), by name.
std::vector<std::string> device_folders(const std::string& dir);

}  // namespace mmsim::experiments
