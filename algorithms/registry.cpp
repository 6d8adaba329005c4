#include "algorithms/registry.h"

#include <stdexcept>

#include "algorithms/bmmc/entries.h"
#include "algorithms/enumeration/entries.h"
#include "algorithms/layouts/entries.h"
#include "algorithms/offline/entries.h"
#include "algorithms/sorting/entries.h"
#include "io/input_error.h"
#include "io/quote.h"
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
    refuse(entry, quote(name) + " is not a parameter (see mmsim run " + entry.name + " --help)");
}

// With --trace, the slots of a round are held until the round is merged and handed to the file
// (sim/trace_sink.h): a round that touches every cell (a scatter) holds about one slot record per
// cell. Measured: d-designated random at n = 2^22 peaks at 501 MB traced against 107 MB untraced,
// 94 bytes a cell more; rounded up.
constexpr std::uint64_t kTraceBytesPerCell = 128;

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

RunSize run_size(const AlgorithmEntry& entry, const RunRequest& req) {
  if (!entry.size) return {};
  RunSize size = entry.size(req);
  if (req.engine.trace) size.bytes_per_cell += kTraceBytesPerCell;
  return size;
}

std::string size_options(const AlgorithmEntry& entry, const RunRequest& req, const RunSize& size) {
  std::string out;
  for (const auto& name : size.options) {
    const ParamSpec* spec = spec_of(entry, name);
    const ParamValue* v = req.params.find(name);
    if (!spec || !v) throw std::logic_error(entry.name + ": size option " + name + " not given");
    out += (out.empty() ? "" : " ") + spec->flag() + " " + display(*v);
  }
  return out;
}

RunReport run_algorithm(const AlgorithmEntry& entry, const ParamValues& given, Execution execution, bool trace) {
  EngineOptions engine;
  engine.execution = execution;
  engine.trace = trace;
  return run_algorithm(entry, given, engine);
}

RunReport run_algorithm(const AlgorithmEntry& entry, const ParamValues& given, const EngineOptions& engine) {
  const RunRequest req = check_request(entry, given, engine);
  const RunSize size = run_size(entry, req);
  const std::string options = size_options(entry, req, size);
  if (!options.empty())
    check_memory(entry.name, options + (engine.trace ? " with --trace" : ""), size.cells * size.bytes_per_cell);
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
