// Layouts of a w x w matrix from Python: the report `mmsim layout --json` prints, and the pictures
// `mmsim layout --svg` and `mmsim access --layout L --svg` draw, through teaching::parse_layout (the
// one parser of every layout text), so that Python refuses and draws a layout as the CLI does.
#include <pybind11/stl.h>

#include "bindings.h"
#include "io/input_error.h"
#include "teaching/layout_view.h"

namespace mmsim::python {

namespace {

int width(std::int64_t w) { return saturate(w); }

py::object layout(const std::string& text, std::int64_t w, std::uint64_t seed, std::int64_t element_bytes,
                  std::int64_t vector) {
  return to_python(teaching::matrix_layout_report(text, width(w), seed, element_bytes, vector));
}

std::string layout_svg(const std::string& text, std::int64_t w, std::uint64_t seed) {
  return teaching::layout_svg(teaching::DrawnLayout(text, 2, width(w), seed));
}

// The tile with `cells` ((i, j) pairs, one warp's access) outlined.
std::string tile_svg(const std::string& text, std::int64_t w, std::uint64_t seed,
                     const std::vector<std::vector<std::int64_t>>& cells, const std::string& caption) {
  for (const auto& c : cells)
    if (c.size() != 2) throw InputError("cells: each cell is a pair (i, j)");
  return teaching::tile_svg(teaching::DrawnLayout(text, 2, width(w), seed), cells, caption);
}

}  // namespace

void bind_layouts(py::module_& m) {
  m.def("layout", &layout, py::arg("text"), py::arg("w"), py::arg("seed"), py::arg("element_bytes"), py::arg("vector"));
  m.def("layout_svg", &layout_svg, py::arg("text"), py::arg("w"), py::arg("seed"));
  m.def("tile_svg", &tile_svg, py::arg("text"), py::arg("w"), py::arg("seed"), py::arg("cells"), py::arg("caption"));
}

}  // namespace mmsim::python
