// The extension mmsim._mmsim: what the program offers, for Python, through the same library calls
// (the registry, runs, warp accesses, the congestion Monte Carlo) and the same JSON writers, so
// that Python gets the numbers and keys `mmsim ... --json` prints and the same one-line errors:
// InputError (bad input) is a ValueError, WriteError an OSError. Keyword arguments are parsed once
// here into typed values; results come back as Python objects built from the writers' values (no
// JSON text between), a run's trace as NumPy columns. python/mmsim/__init__.py is the Python face;
// kernels of one's own are in kernels.cpp.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/congestion_output.h"
#include "algorithms/registry.h"
#include "algorithms/registry_output.h"
#include "algorithms/run_output.h"
#include "io/input_error.h"
#include "kernels/kernel_file.h"
#include "kernels/kernel_report.h"
#include "predict/kernel_prediction.h"
#include "python/src/bindings.h"
#include "report/build_info.h"
#include "report/json_reader.h"

namespace mmsim::python {

py::object to_python(const report::Json& j) {
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::nullptr_t>) {
          return py::none();
        } else if constexpr (std::is_same_v<T, bool>) {
          return py::bool_(v);
        } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) {
          return py::int_(v);
        } else if constexpr (std::is_same_v<T, double>) {
          if (!std::isfinite(v)) return py::none();  // as the JSON writer has it: JSON has no NaN
          return py::float_(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return py::str(v);
        } else if constexpr (std::is_same_v<T, report::Json::Array>) {
          py::list out;
          for (const auto& x : v) out.append(to_python(x));
          return std::move(out);
        } else {
          py::dict out;
          for (const auto& [key, x] : v) out[py::str(key)] = to_python(x);
          return std::move(out);
        }
      },
      j.value());
}

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

std::optional<predict::SamplingOptions> sampling_argument(bool exact, std::int64_t budget, std::int64_t seed) {
  const ParamSpec specs[] = {predict::sample_budget_param(), predict::sample_seed_param()};
  try {
    check_value(specs[0], budget);
    check_value(specs[1], seed);
  } catch (const InputError& e) {
    throw InputError(with_keywords(e.what(), {{"--sample-budget", "sample_budget"}, {"--sample-seed", "sample_seed"}}));
  }
  if (exact) return std::nullopt;
  return predict::SamplingOptions{.budget = static_cast<std::uint64_t>(budget),
                                  .seed = static_cast<std::uint64_t>(seed)};
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

// `mmsim list --json`'s algorithms, with each default typed where the command prints its text: an
// int for an integer, False for a flag, the word for a choice.
py::object algorithms_list() {
  py::list out;
  for (const auto& e : algorithms()) {
    py::dict entry = to_python(mmsim::to_json(e));
    py::list params = entry["parameters"];
    for (std::size_t i = 0; i < e.params.size(); ++i) {
      const ParamSpec& spec = e.params[i];
      py::object d = py::none();
      if (spec.kind == ParamKind::Flag)
        d = py::bool_(false);
      else if (const auto* v = spec.default_value ? std::get_if<std::int64_t>(&*spec.default_value) : nullptr)
        d = py::int_(*v);
      else if (const auto* w = spec.default_value ? std::get_if<std::string>(&*spec.default_value) : nullptr)
        d = py::str(*w);
      py::dict param = params[i];
      param["default"] = d;
    }
    out.append(entry);
  }
  return std::move(out);
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

// The trace as NumPy columns, one per column of --trace (algorithms/run_report_fields.h): int64 for
// numbers, str for words, and for `requests` an object array holding each slot's uint64 addresses.
py::dict trace_columns_of(const RunReport& r) {
  const auto n = static_cast<py::ssize_t>(r.trace.size());
  const auto round_of = [&](const SlotEvent& e) -> const RoundStats& {
    return r.stats.rounds.at(static_cast<std::size_t>(e.round));
  };
  const py::module_ numpy = py::module_::import("numpy");
  py::dict out;
  for (const TraceColumn& c : trace_columns()) {
    switch (c.kind) {
      case TraceColumnKind::Integer: {
        py::array_t<std::int64_t> a(n);
        auto* cells = a.mutable_data();
        for (py::ssize_t i = 0; i < n; ++i) {
          const SlotEvent& e = r.trace[static_cast<std::size_t>(i)];
          cells[i] = c.integer(e, round_of(e));
        }
        out[c.name] = std::move(a);
        break;
      }
      case TraceColumnKind::Text: {
        // A column's words repeat (a round's kernel, a memory's name): one Python string each.
        std::unordered_map<std::string, py::str> words;
        py::list cells(n);
        std::string cell;
        for (py::ssize_t i = 0; i < n; ++i) {
          const SlotEvent& e = r.trace[static_cast<std::size_t>(i)];
          cell.clear();
          c.text(cell, e, round_of(e));
          auto it = words.find(cell);
          if (it == words.end()) it = words.emplace(cell, py::str(cell)).first;
          cells[static_cast<std::size_t>(i)] = it->second;
        }
        out[c.name] = numpy.attr("array")(cells, py::arg("dtype") = "str");
        break;
      }
      case TraceColumnKind::Addresses: {
        py::array cells = numpy.attr("empty")(n, py::arg("dtype") = "object");
        auto** slots = static_cast<PyObject**>(cells.mutable_data());
        for (py::ssize_t i = 0; i < n; ++i) {
          const auto& requests = r.trace[static_cast<std::size_t>(i)].requests;
          py::array_t<std::uint64_t> a(static_cast<py::ssize_t>(requests.size()));
          std::copy(requests.begin(), requests.end(), a.mutable_data());
          Py_XDECREF(slots[i]);
          slots[i] = a.release().ptr();
        }
        out[c.name] = std::move(cells);
        break;
      }
    }
  }
  return out;
}

// One run through the registry, as `mmsim run NAME` does it, with the keyword arguments as given.
// Returns the report and, when traced, its trace as NumPy columns.
py::tuple run(const std::string& name, const py::dict& given, bool asynchronous, bool trace, std::int64_t threads) {
  const AlgorithmEntry* entry = find_algorithm(name);
  if (entry == nullptr) throw InputError("run: unknown algorithm " + quote(name) + " (see mmsim list)");
  // The registry's messages name the command's flags ("-n is required"); Python wrote n=.
  auto flags = flags_of(entry->params);
  flags.emplace_back("--threads", "threads");
  RunReport r;
  try {
    const ParamValues values = typed_params(*entry, given);
    EngineOptions engine;
    engine.execution = asynchronous ? Execution::Asynchronous : Execution::RoundSynchronous;
    engine.trace = trace;
    engine.threads = host_threads(threads);
    py::gil_scoped_release release;  // a long run leaves other Python threads free
    r = run_algorithm(*entry, values, engine);
  } catch (const InputError& e) {
    throw InputError(with_keywords(e.what(), flags));
  }
  py::object columns = trace ? py::object(trace_columns_of(r)) : py::none();
  return py::make_tuple(to_python(mmsim::to_json(r)), columns);
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
  try {
    q.validate();
  } catch (const InputError& e) {
    throw InputError(with_keywords(e.what(), {{"-w", "w"},
                                              {"--width", "w"},
                                              {"--dims", "dims"},
                                              {"--trials", "trials"},
                                              {"--seed", "seed"},
                                              {"--layout", "layout"},
                                              {"--pattern", "pattern"}}));
  }
  layouts::CongestionStats s;
  {
    py::gil_scoped_release release;
    s = layouts::simulate_congestion(q);
  }
  return to_python(mmsim::to_json(q, s, speed));
}

// A Python value as the JSON reader's value: dicts (string keys), lists, tuples, str, bool, int and
// float, so that a description from Python is checked by the code that checks a kernel file.
report::JsonValue json_value_of(const py::handle& h, int depth = 0) {
  if (depth > report::kMaxJsonDepth)
    throw InputError("run_kernel: nested deeper than " + std::to_string(report::kMaxJsonDepth) + " levels");
  if (h.is_none()) return report::JsonValue::null_value();
  if (py::isinstance<py::bool_>(h)) return report::JsonValue::boolean_value(h.cast<bool>());
  if (py::isinstance<py::float_>(h)) return report::JsonValue::number_value(py::str(h).cast<std::string>());
  // Python's int and anything that is an integer by __index__ (NumPy's integers).
  if (py::hasattr(h, "__index__"))
    return report::JsonValue::number_value(
        py::str(py::int_(py::reinterpret_borrow<py::object>(h))).cast<std::string>());
  if (py::isinstance<py::str>(h)) return report::JsonValue::string_value(h.cast<std::string>());
  if (py::isinstance<py::dict>(h)) {
    report::JsonValue::Members members;
    for (const auto& [key, value] : h.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw InputError("run_kernel: a key is not a string: " + py::repr(key).cast<std::string>());
      members.emplace_back(key.cast<std::string>(), json_value_of(value, depth + 1));
    }
    return report::JsonValue::object_value(std::move(members));
  }
  if (py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h)) {
    std::vector<report::JsonValue> items;
    for (const auto& x : h) items.push_back(json_value_of(x, depth + 1));
    return report::JsonValue::array_value(std::move(items));
  }
  throw InputError("run_kernel: a value of type " + py::type::of(h).attr("__name__").cast<std::string>() +
                   " (a description holds dicts, lists, strings, numbers and booleans)");
}

// A kernel description in the kernel-file format (docs/kernel-files.md): a dict, read once here
// into the values a kernel file's reader checks. Its run, with every global array's final values.
// Each address is computed by the simulated threads, none by the host.
py::object run_kernel_dict(const py::dict& description, unsigned threads) {
  const kernels::ProgramSpec spec = kernels::read_kernel_description(json_value_of(description), "Python");
  EngineOptions options;
  options.threads = threads;
  return to_python(kernels::run_json(spec, kernels::run_program(spec, options), true));
}

py::object run_kernel_file(const std::string& path, unsigned threads) {
  const kernels::ProgramSpec spec = kernels::read_kernel_file("path", path);
  EngineOptions options;
  options.threads = threads;
  return to_python(kernels::run_json(spec, kernels::run_program(spec, options), true));
}

// A GPU prediction of a kernel description (a dict) or a kernel file on a profile's machine, as
// `mmsim predict --kernel FILE --json` prints it (predict/kernel_prediction.h).
py::object predict_kernel(const py::object& description, const std::string& profile_path, const std::string& model,
                          unsigned threads, bool exact, std::int64_t sample_budget, std::int64_t sample_seed) {
  const auto sampling = sampling_argument(exact, sample_budget, sample_seed);
  const kernels::ProgramSpec spec = py::isinstance<py::dict>(description)
                                        ? kernels::read_kernel_description(json_value_of(description), "Python")
                                        : kernels::read_kernel_file("path", description.cast<std::string>());
  const predict::GpuProfile profile = read_profile_argument(profile_path);
  return to_python(predict::prediction_json(predict::predict_program(profile, spec, model, threads, sampling)));
}

}  // namespace

predict::GpuProfile read_profile_argument(const std::string& path) {
  try {
    return predict::read_profile(path);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("profile: ") + e.what());
  }
}

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
  m.def("congestion", &congestion, py::arg("layout"), py::arg("pattern"), py::arg("w"), py::arg("dims"),
        py::arg("trials"), py::arg("seed"), py::arg("speed"));
  m.def("run_kernel_dict", &run_kernel_dict, py::arg("description"), py::arg("threads"));
  m.def("run_kernel_file", &run_kernel_file, py::arg("path"), py::arg("threads"));
  m.def("predict_kernel", &predict_kernel, py::arg("description"), py::arg("profile"), py::arg("model"),
        py::arg("threads"), py::arg("exact"), py::arg("sample_budget"), py::arg("sample_seed"));
  bind_kernels(m);
  bind_loop(m);
  bind_layouts(m);
}
