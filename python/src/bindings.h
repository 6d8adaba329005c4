// The two halves of the extension mmsim._mmsim: module.cpp (the registry, runs, warp accesses, the
// congestion Monte Carlo, errors) and kernels.cpp (a machine, an engine and kernels of one's own).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/params.h"
#include "predict/gpu_profile.h"
#include "predict/sampled.h"
#include "report/json.h"

namespace mmsim::python {

namespace py = pybind11;

/// A JSON value as Python objects (dict, list, str, int, float, bool, None), read back by Python's
/// json module: the C++ writers that print `mmsim ... --json` are the only writers, and Python
/// sees exactly their keys and numbers.
py::object to_python(const report::Json& j);

/// A Python integer as an int field of MachineParams, saturated, so that validate() names the
/// field and its rule for any value rather than a wrapped one passing.
int saturate(std::int64_t v);

/// Host threads for round-synchronous rounds as `--threads` takes them: 0 (every core) or [1, 1024],
/// else InputError with the option's line.
unsigned host_threads(std::int64_t threads);

/// mmsim.predict's exact=, sample_budget= and sample_seed= as `--exact`, `--sample-budget` and
/// `--sample-seed` take them (predict/sampled.h): nullopt when exact, else InputError naming the
/// keyword for a value out of its bounds.
std::optional<predict::SamplingOptions> sampling_argument(bool exact, std::int64_t budget, std::int64_t seed);

/// A GPU profile file, read as the user's input (InputError naming the argument profile=).
predict::GpuProfile read_profile_argument(const std::string& path);

void bind_kernels(py::module_& m);
/// mmsim.table, mmsim.sweep's rows and mmsim.access (loop.cpp).
void bind_loop(py::module_& m);

/// `message` with each of `flags` (a flag of the command, and the Python keyword that stands for
/// it) written as the keyword: "-n: must be >= 1" -> "n=: must be >= 1". A flag counts only as a
/// whole word.
std::string with_keywords(const std::string& message, std::vector<std::pair<std::string, std::string>> flags);
/// Every flag of `specs` ("-w,--width") paired with its parameter's name (w).
std::vector<std::pair<std::string, std::string>> flags_of(const std::vector<ParamSpec>& specs);
/// Layouts of a w x w matrix (layouts.cpp).
void bind_layouts(py::module_& m);

}  // namespace mmsim::python
