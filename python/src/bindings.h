// The two halves of the extension mmsim._mmsim: module.cpp (the registry, runs, warp accesses, the
// congestion Monte Carlo, errors) and kernels.cpp (a machine, an engine and kernels of one's own).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

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

void bind_kernels(py::module_& m);
/// Layouts of a w x w matrix (layouts.cpp).
void bind_layouts(py::module_& m);

}  // namespace mmsim::python
