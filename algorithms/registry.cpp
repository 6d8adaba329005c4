#include "algorithms/registry.h"

#include <stdexcept>

#include "algorithms/bmmc/entries.h"
#include "algorithms/enumeration/entries.h"
#include "algorithms/layouts/entries.h"
#include "algorithms/offline/entries.h"
#include "algorithms/sorting/entries.h"
#include "io/input_error.h"
#include "io/work_bounds.h"

namespace mmsim {

std::vector<ParamSpec> machine_params(ModelKind model, std::int64_t w_min, std::int64_t w_max, IntegerShape w_shape,
                                      bool with_latency) {
  const MachineParams d;
  // Latencies past 2^20 and more than 4096 DMMs describe no machine the papers consider, and would
  // only make a run's memory or time explode (every DMM keeps a pipeline and shared arrays).
  constexpr std::int64_t kMaxLatency = std::int64_t{1} << 20;
  constexpr std::int64_t kMaxDmms = 4096;
  std::vector<ParamSpec> out;
  out.push_back(integer_param("w", "-w,--width", "width: banks, threads per warp, address-group size", w_min, w_max,
                              d.w, w_shape));
  if (with_latency)
    out.push_back(integer_param(
        "l", "-l,--latency", model == ModelKind::Hmm ? "latency of each DMM's shared memory" : "latency of the memory",
        1, kMaxLatency, d.l));
  if (model == ModelKind::Hmm) {
    out.push_back(integer_param("L", "-L,--global-latency", "latency of the global memory", 1, kMaxLatency, d.L));
    out.push_back(integer_param("k", "-k,--dmms", "number of DMMs (streaming multiprocessors)", 1, kMaxDmms, d.k));
  }
  return out;
}

const std::vector<AlgorithmEntry>& algorithms() {
  static const std::vector<AlgorithmEntry> all = [] {
    std::vector<AlgorithmEntry> v;
    const auto add = [&v](std::vector<AlgorithmEntry> family) {
      for (auto& e : family) v.push_back(std::move(e));
    };
    // One line a family.
    add(offline::algorithm_entries());      // KNI: conventional, in-place regular, row/column-wise, scheduled
    add(layouts::algorithm_entries());      // NMI: the three transposes under a layout
    add(bmmc::algorithm_entries());         // BDS: BPC / BMMC permutations, parm sorting network
    add(sorting::algorithm_entries());      // AS: conflict-free sort, partition, permutation, baselines
    add(enumeration::algorithm_entries());  // GL: enumeration-scheme transpositions
    return v;
  }();
  return all;
}

const AlgorithmEntry* find_algorithm(const std::string& name) {
  for (const auto& a : algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

namespace {

[[noreturn]] void refuse(const AlgorithmEntry& entry, const std::string& what) {
  throw InputError(entry.name + ": " + what);
}

const ParamSpec* spec_of(const AlgorithmEntry& entry, const std::string& name) {
  for (const auto& s : entry.params)
    if (s.name == name) return &s;
  return nullptr;
}

void refuse_undeclared(const AlgorithmEntry& entry, const std::string& name) {
  if (!spec_of(entry, name))
    refuse(entry, "'" + name + "' is not a parameter (see mmsim run " + entry.name + " --help)");
}

}  // namespace

ParamValues parse_params(const AlgorithmEntry& entry, const std::map<std::string, std::string>& given) {
  for (const auto& [name, text] : given) refuse_undeclared(entry, name);
  ParamValues out;
  for (const auto& spec : entry.params) {
    const auto it = given.find(spec.name);
    if (it == given.end()) continue;
    try {
      out.set(spec.name, parse_value(spec, it->second));
    } catch (const InputError& e) {
      refuse(entry, e.what());
    }
  }
  return out;
}

RunRequest check_request(const AlgorithmEntry& entry, const ParamValues& given, const EngineOptions& engine) {
  for (const auto& [name, value] : given.items()) refuse_undeclared(entry, name);
  if (engine.execution == Execution::Asynchronous && !entry.asynchronous)
    refuse(entry, "--async is not available for this algorithm");
  if (engine.trace && !entry.traces) refuse(entry, "--trace is not available for this algorithm");

  RunRequest req;
  req.machine.model = entry.machine;
  for (const auto& spec : entry.params) {
    if (given.has(spec.name)) {
      const ParamValue& v = *given.find(spec.name);
      try {
        check_value(spec, v);
      } catch (const InputError& e) {
        refuse(entry, e.what());
      }
      req.params.set(spec.name, v);
    } else if (spec.default_value) {
      req.params.set(spec.name, *spec.default_value);
    } else if (spec.required) {
      refuse(entry, spec.flag() + " is required: " + spec.rule());
    } else if (spec.kind == ParamKind::Flag) {
      req.params.set(spec.name, false);
    }
  }
  const auto machine_int = [&](const char* name, int& field) {
    if (auto v = req.params.integer_if(name)) field = static_cast<int>(*v);
  };
  machine_int("w", req.machine.w);
  machine_int("l", req.machine.l);
  machine_int("L", req.machine.L);
  machine_int("k", req.machine.k);
  if (auto err = req.machine.validate()) refuse(entry, *err);
  req.engine = engine;
  return req;
}

namespace {

// The options that size a run, as the user gave them ("-n 268435456", "--rows 4096 --cols 4096",
// "-w 32 -m 65536"), and the cells they make.
struct RunSize {
  std::string options;
  std::uint64_t cells = 0;
};

RunSize run_size(const AlgorithmEntry& entry, const RunRequest& req) {
  RunSize size;
  const auto add = [&](const char* name) -> std::uint64_t {
    const auto v = req.params.integer_if(name);
    if (!v) return 0;
    for (const auto& spec : entry.params)
      if (spec.name == name) size.options += (size.options.empty() ? "" : " ") + spec.flag() + " " + std::to_string(*v);
    return static_cast<std::uint64_t>(*v);
  };
  if (const auto n = add("n")) {
    size.cells = n;
  } else if (const auto m = add("m")) {
    size.options = "-w " + std::to_string(req.machine.w) + " " + size.options;
    size.cells = m * static_cast<std::uint64_t>(req.machine.w);
  } else if (const auto rows = add("rows")) {
    const auto cols = req.params.integer_if("cols") ? add("cols") : rows;
    size.cells = rows * cols;
  } else if (const auto order = add("order")) {
    size.cells = order * order;
  }
  return size;
}

// Bytes per cell of a run: the peak resident memory over n of the heaviest runs at n = 2^22
// (scheduled 74, row-wise 58, d-designated 27): the input, output and permutation arrays, the
// offline tables, the engine's per-cell marks. Rounded up, so that it refuses only what cannot fit.
constexpr std::uint64_t kBytesPerCell = 80;
// With --trace, the slots of a round are held until the round is merged and handed to the file
// (sim/trace_sink.h): a round that touches every cell (a scatter) holds about one slot record per
// cell. Measured: d-designated random at n = 2^22 peaks at 501 MB traced against 107 MB untraced,
// 94 bytes a cell more; rounded up.
constexpr std::uint64_t kTraceBytesPerCell = 128;

}  // namespace

RunReport run_algorithm(const AlgorithmEntry& entry, const ParamValues& given, Execution execution, bool trace) {
  EngineOptions engine;
  engine.execution = execution;
  engine.trace = trace;
  return run_algorithm(entry, given, engine);
}

RunReport run_algorithm(const AlgorithmEntry& entry, const ParamValues& given, const EngineOptions& engine) {
  const RunRequest req = check_request(entry, given, engine);
  const RunSize size = run_size(entry, req);
  const std::string& options = size.options;
  if (!options.empty()) {
    if (engine.trace)
      check_memory(entry.name, options + " with --trace", size.cells * (kBytesPerCell + kTraceBytesPerCell));
    else
      check_memory(entry.name, options, size.cells * kBytesPerCell);
  }
  RunReport r;
  try {
    r = entry.run(req);
  } catch (const std::bad_alloc&) {
    // The estimate let it start; say what to shrink all the same.
    refuse(entry,
           (options.empty() ? std::string("out of memory") : options + ": out of memory") + "; choose a smaller value");
  } catch (const InputError& e) {
    // Every message of a run names its algorithm once, whether a declared rule or a joint one broke.
    const std::string what = e.what();
    if (what.rfind(entry.name + ": ", 0) == 0) throw;
    refuse(entry, what);
  }
  r.algorithm = entry.name;
  r.family = entry.family;
  r.paper = entry.paper;
  r.machine = req.machine;
  r.parameters = req.params;
  r.execution = engine.execution;
  return r;
}

void set_machine(ParamValues& values, const AlgorithmEntry& entry, const MachineParams& machine) {
  const std::pair<const char*, int> fields[] = {{"w", machine.w}, {"l", machine.l}, {"L", machine.L}, {"k", machine.k}};
  for (const auto& [name, value] : fields)
    if (spec_of(entry, name)) values.set(name, std::int64_t{value});
}

std::vector<CatalogueEntry> catalogue() {
  std::vector<CatalogueEntry> out;
  offline::append_catalogue(out);
  layouts::append_catalogue(out);
  bmmc::append_catalogue(out);
  sorting::append_catalogue(out);
  enumeration::append_catalogue(out);
  return out;
}

}  // namespace mmsim
