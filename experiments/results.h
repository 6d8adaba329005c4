// The registry of every reproduced table and figure, on the CPU and on the GPU: one entry each,
// naming the paper's table, figure or section, the command that makes it, the files it writes and
// a few of its cells to set beside the paper's. tables() and figures() are its CPU drivers, and
// results/README.md is written from it (results_readme.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "experiments/tables.h"
#include "report/table.h"

namespace mmsim::experiments {

enum class ResultKind { Table, Figure };
/// Where the entry is made: on any machine (`mmsim reproduce`), or on a CUDA GPU machine
/// (`./mmsim.sh gpu-reproduce`), once per device into results/gpu-<device>/.
enum class Platform { Cpu, Gpu };

/// A few representative rows of one CSV of the entry: the rows whose `keys` columns hold the values
/// of one element of `rows`, shown with the `keys` and then `columns`. The numbers shown are read
/// from the CSV when results/README.md is written; the registry holds only which rows and columns.
struct Excerpt {
  std::string csv;                             ///< a file of the entry's folder
  std::vector<std::string> keys;               ///< the columns that pick a row
  std::vector<std::vector<std::string>> rows;  ///< one value per key, for each row shown
  std::vector<std::string> columns;            ///< shown beside the keys: ours, and the paper's where the CSV has it
  /// A table that may list each key once per pass (a calibration timed in passes): the first row
  /// of the key is shown. Otherwise a key must pick exactly one row.
  bool first_of_each = false;
};

struct ResultEntry {
  std::string name;
  ResultKind kind = ResultKind::Table;
  Platform platform = Platform::Cpu;
  /// The paper's short key and its table, figure or section ("KNI Table 1"); empty for mmsim's own
  /// measurements, which reproduce no paper (the GPU's prediction and goals).
  std::string paper;
  std::string description;
  /// What makes it, typed from the repository's root; `<device>` stands for the GPU's short name
  /// (h100, h200), as `mmsim gpu info --slug` prints it.
  std::string command;
  /// GPU entries: the stage of `./mmsim.sh gpu-reproduce` that runs the command (MMSIM_GPU_STAGES),
  /// or empty where the command is run by hand.
  std::string stage;
  /// The files it writes, relative to results/ (CPU) or to results/gpu-<device>/ (GPU), where
  /// `<device>` is that folder's device; a name ending in '/' is a folder.
  std::vector<std::string> files;
  std::vector<Excerpt> excerpts;
  /// The drivers of the CPU entries that `mmsim reproduce` makes (one of the two is set): tables()
  /// and figures() are these entries, in this order.
  std::function<report::Table(const TableOptions&)> table;
  std::function<std::vector<std::string>(const std::string& out_dir)> figure;
};

/// Every entry: the CPU tables, the CPU figures, then the GPU's tables and figures.
const std::vector<ResultEntry>& results();

/// The paper's short key of an entry ("KNI" for "KNI Table 1"), empty for mmsim's own.
std::string paper_key(const ResultEntry& e);

/// `name` with every `<device>` replaced by `device` ("calibration-<device>.csv" -> "calibration-h100.csv").
std::string for_device(const std::string& name, const std::string& device);

}  // namespace mmsim::experiments
