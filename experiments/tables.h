// Folder experiments/ (target mmsim::experiments): the papers' reproduced tables and figures. It owns
// one registry of every table and figure, CPU and GPU (results.h), one driver per CPU table (this
// header's tables(), taken from the registry) and per CPU figure (figures.h), `reproduce`, which
// writes them all, and results/README.md, written from the registry (results_readme.h); gpu/ (target
// mmsim_experiments_gpu, built with CUDA) holds the GPU's tables, which drive the kernels of cuda/.
// It may include sim/, models/, io/, report/ and algorithms/ (gpu/ also cuda/ and predict/).
//
// The reproduced CPU tables: one driver per table, each returning a tidy report::Table.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/params.h"
#include "models/machines.h"
#include "report/table.h"

namespace mmsim::experiments {

/// Command-line settings a table may take; each table says which it reads and fills its defaults.
struct TableOptions {
  std::optional<std::uint64_t> n;
  std::optional<int> w, l, L, k;
  std::uint64_t seed = 1;
  std::optional<int> trials;
  /// The paper's layout where a table has one besides its tidy long form (rap-t2: the widths across).
  bool wide = false;
};

struct TableSpec {
  std::string name;
  std::string description;
  std::string paper;
  std::function<report::Table(const TableOptions&)> make;
  /// The options the table reads, each with its rule for this table (as an algorithm of `run`
  /// declares its parameters): `mmsim table` refuses any other, and any value outside its rule.
  /// Names are TableOptions' fields: n, w, l, L, k, trials, seed.
  std::vector<ParamSpec> params;
};

/// Every option `mmsim table` knows, with its widest rule: each table takes a subset of these, with
/// rules that may be narrower (TableSpec::params).
const std::vector<ParamSpec>& table_option_specs();

/// The CPU tables of the registry (results.h), in its order.
const std::vector<TableSpec>& tables();

/// Typed values of a table's own parameters (TableSpec::params, each already checked by its rule)
/// as its options; `wide` as given. Throws InputError "table NAME: --wide: ..." where the table has no wide form.
TableOptions table_options(const std::string& table, const ParamValues& given, bool wide);

/// The HMM a table runs on: -w, -l, -L, -k as given, else KNI's setting (w = 32, l = 1, L = 100,
/// k = 8); throws InputError naming a bad field.
MachineParams table_machine(const TableOptions& o);
const TableSpec* find_table(const std::string& name);

/// A table's `parameters` (report::Table): `first` (n, trials, ...), then the machine's w, l, L and
/// k, then `last` (seed, ...); each as run.
using TableParameters = std::vector<std::pair<std::string, report::Cell>>;
TableParameters with_machine(TableParameters first, const MachineParams& m, TableParameters last);
/// An integer as a table's cell.
inline report::Cell integer_cell(std::uint64_t v) { return static_cast<long long>(v); }

/// KNI Table 1 (rounds and time units of the permutation algorithms on the HMM).
report::Table kasagi_t1(const TableOptions& options);

}  // namespace mmsim::experiments
