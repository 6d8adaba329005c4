// The extension mmsim._mmsim: what the program offers, for Python, through the same library calls
// (the registry, runs, warp accesses, the congestion Monte Carlo) and the same JSON writers, so
// that Python gets the numbers and keys `mmsim ... --json` prints and the same one-line errors:
// InputError (bad input) is a ValueError, WriteError an OSError. Keyword arguments are parsed once
// here into typed values. python/mmsim/__init__.py is the Python face; kernels of one's own are in
// kernels.cpp.
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/congestion_output.h"
#include "algorithms/registry.h"
#include "algorithms/registry_output.h"
#include "algorithms/run_output.h"
#include "io/input_error.h"
#include "python/src/bindings.h"
#include "report/build_info.h"
#include "teaching/access.h"
#include "teaching/posed_access.h"

namespace mmsim::python {

py::object to_python(const report::Json& j) { return py::module_::import("json").attr("loads")(j.dump(0)); }

int saturate(std::int64_t v) {
  return static_cast<int>(
      std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

unsigned host_threads(std::int64_t threads) {
  if (threads == 0) return 0;
  static const ParamSpec spec = integer_param("threads", "--threads", "host threads", 1, 1024);
  check_value(spec, threads);
  return static_cast<unsigned>(threads);
}

namespace {

py::dict build_info() {
  const auto b = report::build_info();
  py::dict d;
  d["version"] = b.version;
  d["commit"] = b.commit;
  d["cuda"] = b.cuda;
  return d;
}

py::object algorithms_list() {
  report::Json all = report::Json::array();
  for (const auto& e : algorithms()) all.push(mmsim::to_json(e));
  return to_python(all);
}

// Keyword arguments as typed values, parsed here once: an int is an integer as it is (the registry
// checks its rule with the command line's message), True a flag (False and None leave a
// parameter out), anything else the text a person would type (str(value)), parsed by the
// parameter's rule as the command line parses it.
ParamValues typed_params(const AlgorithmEntry& entry, const py::dict& given) {
  std::map<std::string, std::string> text;
  ParamValues typed;
  for (const auto& [key, value] : given) {
    const auto name = py::cast<std::string>(py::str(key));
    if (value.is_none() || (py::isinstance<py::bool_>(value) && !value.cast<bool>())) continue;
    if (py::isinstance<py::bool_>(value)) {
      text[name] = "true";
    } else if (py::isinstance<py::int_>(value)) {
      try {
        typed.set(name, value.cast<std::int64_t>());
      } catch (const py::cast_error&) {
        text[name] = py::cast<std::string>(py::str(value));  // beyond 64 bits: refused as written
      }
    } else {
      text[name] = py::cast<std::string>(py::str(value));
    }
  }
  ParamValues out = parse_params(entry, text);
  for (const auto& [name, v] : typed.items()) out.set(name, v);
  return out;
}

// One run through the registry, as `mmsim run NAME` does it, with the keyword arguments as given.
// Returns the report and, when traced, the trace CSV (its one writer).
py::tuple run(const std::string& name, const py::dict& given, bool asynchronous, bool trace, std::int64_t threads) {
  const AlgorithmEntry* entry = find_algorithm(name);
  if (entry == nullptr) throw InputError("run: unknown algorithm " + quote(name) + " (see mmsim list)");
  const ParamValues values = typed_params(*entry, given);
  EngineOptions engine;
  engine.execution = asynchronous ? Execution::Asynchronous : Execution::RoundSynchronous;
  engine.trace = trace;
  engine.threads = host_threads(threads);
  RunReport r;
  {
    py::gil_scoped_release release;  // a long run leaves other Python threads free
    r = run_algorithm(*entry, values, engine);
  }
  py::object csv = py::none();
  if (trace) {
    std::ostringstream out;
    mmsim::write_trace_csv(out, r);
    csv = py::str(out.str());
  }
  return py::make_tuple(to_python(mmsim::to_json(r)), csv);
}

// KNI Fig. 2 and its kind, as `mmsim access --warp ...` poses it: each warp is written as the text
// the command takes (a negative entry as _, an inactive thread) and read by the command's own parser,
// so that Python gets its checks and its one-line errors word for word.
py::object warp_access(const std::string& model, std::int64_t w, std::int64_t l,
                       const std::vector<std::vector<std::int64_t>>& warps) {
  MachineParams m;
  const auto kind = model_from_name(model);
  // cli/cmd_access.cpp's wording; test_access.py holds the two together.
  if (!kind || *kind == ModelKind::Hmm) throw InputError("--model: must be dmm or umm (got '" + model + "')");
  m.model = *kind;
  // The command's own rules for -w and -l (teaching/posed_access.h), and its wording:
  // CLI11 names an option by its long flag in a refused value's line.
  for (const auto& [spec, v] :
       {std::pair{teaching::access_width_param(), w}, std::pair{teaching::access_latency_param(), l}}) {
    if (const auto err = integer_error(v, spec))
      throw InputError(spec.flags.substr(spec.flags.rfind(',') + 1) + ": " + *err);
  }
  m.w = saturate(w);
  m.l = saturate(l);
  if (auto err = m.validate()) throw InputError(*err);
  std::vector<std::string> texts;
  for (const auto& warp : warps) {
    std::string t;
    for (std::size_t i = 0; i < warp.size(); ++i) t += (i ? "," : "") + (warp[i] < 0 ? "_" : std::to_string(warp[i]));
    texts.push_back(std::move(t));
  }
  const teaching::PosedAccess posed = teaching::pose_warps(texts, m.w);
  auto result = teaching::simulate_access(m, posed.warps, posed.cells);
  result.posed = posed.posed;
  result.layout = posed.layout;
  return to_python(teaching::to_json(result));
}

py::object congestion(const std::string& layout, const std::string& pattern, std::int64_t w, std::int64_t dims,
                      std::int64_t trials, std::uint64_t seed, bool speed) {
  layouts::CongestionQuery q;
  q.layout = layout;
  q.pattern = pattern;
  // Out-of-range values saturate into what validate() refuses, with its message.
  q.w = static_cast<std::uint32_t>(std::clamp<std::int64_t>(w, 0, std::numeric_limits<std::uint32_t>::max()));
  q.dims = saturate(dims);
  q.trials = static_cast<std::uint64_t>(std::max<std::int64_t>(trials, 0));
  q.seed = seed;
  q.validate();
  layouts::CongestionStats s;
  {
    py::gil_scoped_release release;
    s = layouts::simulate_congestion(q);
  }
  return to_python(mmsim::to_json(q, s, speed));
}

}  // namespace

}  // namespace mmsim::python

PYBIND11_MODULE(_mmsim, m) {
  namespace py = pybind11;
  using namespace mmsim::python;
  m.doc() = "mmsim's compiled half; import mmsim rather than this module.";
  py::register_exception<mmsim::InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<mmsim::WriteError>(m, "WriteError", PyExc_OSError);
  m.def("build_info", &build_info, "version, git commit and CUDA backend of this build");
  m.def("algorithms", &algorithms_list, "the registry, as `mmsim list --json` gives its algorithms");
  m.def("run", &run, py::arg("name"), py::arg("given"), py::arg("asynchronous"), py::arg("trace"), py::arg("threads"));
  m.def("access", &warp_access, py::arg("model"), py::arg("w"), py::arg("l"), py::arg("warps"));
  m.def("congestion", &congestion, py::arg("layout"), py::arg("pattern"), py::arg("w"), py::arg("dims"),
        py::arg("trials"), py::arg("seed"), py::arg("speed"));
  bind_kernels(m);
}
