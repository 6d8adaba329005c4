// Folder algorithms/ (target mmsim::algorithms): the papers' algorithms as SIMT programs, one folder
// per family, the papers' closed forms (closed_forms.h), typed parameters (params.h), the registry
// (this header), the one report of a run (run_report.h) and its writers (run_output.h,
// registry_output.h). It may include sim/, models/, io/ and report/.
//
// The explicit registry of what mmsim can run: every algorithm of every family is one entry (name,
// family, paper, machine, typed parameters, run function returning one RunReport). The families
// export their entries (algorithms/<family>/entries.h); registry.cpp joins them, one line a family.
// `mmsim list`, `mmsim run`, the tables and the bindings all go through it.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "algorithms/params.h"
#include "algorithms/run_report.h"
#include "models/machines.h"
#include "sim/engine.h"

namespace mmsim {

/// One run as the registry hands it to an entry: the machine (model fixed by the entry, w, l, L, k
/// from the parameters it declares), every declared parameter with its value or default, and the
/// engine's options.
struct RunRequest {
  MachineParams machine;
  ParamValues params;
  EngineOptions engine;
};

/// Bytes a run holds per cell, where an entry knows no better figure of its own: the peak resident
/// memory over n of the heaviest runs at n = 2^22 (scheduled 74, row-wise 58, d-designated 27): the
/// input, output and permutation arrays, the offline tables, the engine's per-cell marks. Rounded
/// up, so that the memory check refuses only what cannot fit.
inline constexpr std::uint64_t kBytesPerCell = 80;

/// What a run holds in memory, as its entry states it from the checked request: the cells, the
/// bytes each takes, and the parameters that set the size, in the order a message names them
/// ("-w 32 -m 65536"). The memory check (io/work_bounds.h) and the explorer's size limit read it.
struct RunSize {
  std::uint64_t cells = 0;
  std::uint64_t bytes_per_cell = kBytesPerCell;
  std::vector<std::string> options;
};

/// Contract:
///  - `params` lists every option the algorithm accepts, machine options included (an algorithm on
///    a DMM declares no L or k); `mmsim run NAME` accepts exactly these, plus --async where
///    `asynchronous`, --trace where `traces`, and --json;
///  - `size` says what a run of a checked request holds, before anything is allocated;
///  - `run` gets values that already satisfy each declared rule; it checks what depends on several
///    values at once (throwing InputError, one line naming the option and the rule) and returns a
///    report whose `correct` comes from a cell-by-cell check.
struct AlgorithmEntry {
  std::string name;
  std::string family;  ///< offline-permutation, layouts, bmmc, sorting, enumeration
  std::string paper;   ///< reference key and section, e.g. "KNI Sect. 7" (docs/references.md)
  std::string description;
  ModelKind machine = ModelKind::Hmm;
  std::vector<ParamSpec> params;
  bool asynchronous = true;  ///< accepts --async
  bool traces = true;        ///< accepts --trace
  std::function<RunSize(const RunRequest&)> size;
  std::function<RunReport(const RunRequest&)> run;
};

/// Machine parameters as an algorithm declares them: w and l for a DMM or UMM, w, l, L and k for
/// the HMM, with MachineParams' defaults and bounds. `w_min` / `w_max` / `w_shape` narrow w.
std::vector<ParamSpec> machine_params(ModelKind model, std::int64_t w_min = 1, std::int64_t w_max = 65536,
                                      IntegerShape w_shape = IntegerShape::Any, bool with_latency = true);

/// Every algorithm, in family order.
const std::vector<AlgorithmEntry>& algorithms();
/// nullptr when no algorithm has that name.
const AlgorithmEntry* find_algorithm(const std::string& name);

/// The edge for text (the command line, a URL, a grid): each value a person typed (parameter name
/// -> text, a flag's as "true") parsed once by its declared rule (parse_value). Throws InputError
/// naming the algorithm: an undeclared name first, then the first value, in declaration order,
/// that breaks its rule ("d-designated: -n: must be an integer in [1, 2^28] (got '0')").
ParamValues parse_params(const AlgorithmEntry& entry, const std::map<std::string, std::string>& given);

/// Checks typed values against the entry's declared rules (unknown names, each value's kind and
/// rule, the machine) and fills the defaults, without running: the request run_algorithm runs.
/// Throws InputError naming the algorithm, the option and the rule. (Rules joining several values
/// are the run's.)
RunRequest check_request(const AlgorithmEntry& entry, const ParamValues& given, const EngineOptions& engine);

/// What a checked request holds in memory (the entry's `size`), and the options that set it as a
/// person types them ("-n 268435456"), for the message that refuses it.
RunSize run_size(const AlgorithmEntry& entry, const RunRequest& req);
std::string size_options(const AlgorithmEntry& entry, const RunRequest& req, const RunSize& size);

/// Checks the request (check_request), refuses a run whose memory cannot fit (io/work_bounds.h),
/// builds the machine and runs. Throws InputError naming the option, the algorithm and the rule.
/// The engine's options include the host threads (a run option, not a parameter: the report is
/// the same for every number of threads).
RunReport run_algorithm(const AlgorithmEntry& entry, const ParamValues& given, const EngineOptions& engine = {});
RunReport run_algorithm(const AlgorithmEntry& entry, const ParamValues& given, Execution execution, bool trace = false);

/// Sets w, l, L and k to a given machine's, as typed values, for those the entry declares: a run on
/// a fixed machine (a GPU profile's).
void set_machine(ParamValues& values, const AlgorithmEntry& entry, const MachineParams& machine);

/// One line of `mmsim list` for what is not an algorithm (permutations, layouts, patterns, kernels).
struct CatalogueEntry {
  std::string kind;  ///< permutation, layout, pattern, kernel, bpc, matrix, option, gpu, table, figure
  std::string name;
  std::string description;
  std::string paper;
};

/// Every named permutation, layout, pattern and kernel with its paper and section.
std::vector<CatalogueEntry> catalogue();

}  // namespace mmsim
