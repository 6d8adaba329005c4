// The researcher's loop from Python: a reproduced table (mmsim.table), a sweep's rows (mmsim.sweep,
// run here one batch of rows at a time so that any concurrent.futures executor can spread them),
// and one warp access posed every way the command poses it (mmsim.access). Each goes through the
// code of the command (experiments/tables.h, sweep/sweep.h, teaching/posed_access.h), so Python
// gets the command's rows and its refusals, with the command's flags named as Python's keywords.
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "experiments/tables.h"
#include "io/input_error.h"
#include "io/input_file.h"
#include "io/quote.h"
#include "python/src/bindings.h"
#include "report/json_reader.h"
#include "report/table.h"
#include "sweep/sweep.h"
#include "teaching/access.h"
#include "teaching/posed_access.h"

namespace mmsim::python {

namespace {

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

}  // namespace

std::string with_keywords(const std::string& message, std::vector<std::pair<std::string, std::string>> flags) {
  // Longest flags first, so that --global-latency is not read as -L's neighbour; a flag counts only
  // as a whole word ("-n" in "d-designated" or "--n-max" is not one).
  std::sort(flags.begin(), flags.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::string out;
  for (std::size_t i = 0; i < message.size();) {
    bool replaced = false;
    if (message[i] == '-' && (i == 0 || !word_char(message[i - 1])))
      for (const auto& [flag, keyword] : flags) {
        const std::size_t end = i + flag.size();
        if (message.compare(i, flag.size(), flag) != 0 || (end < message.size() && word_char(message[end]))) continue;
        out += keyword + "=";
        i = end;
        replaced = true;
        break;
      }
    if (!replaced) out += message[i++];
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> flags_of(const std::vector<ParamSpec>& specs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const ParamSpec& s : specs)
    for (std::size_t at = 0; at <= s.flags.size();) {
      const std::size_t comma = std::min(s.flags.find(',', at), s.flags.size());
      if (comma > at) out.emplace_back(s.flags.substr(at, comma - at), s.name);
      at = comma + 1;
    }
  return out;
}

namespace {

// A keyword's value as an integer: a Python int (or anything with __index__: NumPy's integers),
// not a bool, a float or text; `keyword` names it in the refusal.
std::int64_t integer_of(const py::handle& value, const std::string& where, const std::string& keyword) {
  if (py::isinstance<py::bool_>(value) || !py::hasattr(value, "__index__"))
    throw InputError(where + keyword + "=: must be an integer (got " +
                     quote(py::str(py::type::of(value).attr("__name__")).cast<std::string>()) + ")");
  try {
    return py::int_(py::reinterpret_borrow<py::object>(value)).cast<std::int64_t>();
  } catch (const py::cast_error&) {
    throw InputError(where + keyword + "=: beyond 64 bits");
  }
}

std::string text_of(const py::handle& value, const std::string& keyword) {
  if (!py::isinstance<py::str>(value))
    throw InputError(keyword + "=: must be a str (got " +
                     quote(py::str(py::type::of(value).attr("__name__")).cast<std::string>()) + ")");
  return value.cast<std::string>();
}

// mmsim.table(name, **params): the table's rows as records, every parameter and the build on each.
py::object table(const std::string& name, const py::dict& given, bool wide) {
  const experiments::TableSpec* spec = experiments::find_table(name);
  if (!spec) throw InputError("table: unknown " + quote(name) + " (see mmsim.tables())");
  // The table's own parameters and rules, as `mmsim table` takes them.
  const std::vector<ParamSpec>& specs = spec->params;
  auto flags = flags_of(experiments::table_option_specs());
  flags.emplace_back("--wide", "wide");
  const std::string where = "table " + name + ": ";
  ParamValues values;
  for (const auto& [key, value] : given) {
    const auto keyword = py::str(key).cast<std::string>();
    const auto it = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == keyword; });
    if (it == specs.end()) {
      std::string known;
      for (const auto& s : specs) known += (known.empty() ? "" : ", ") + s.name;
      throw InputError(where + "unknown keyword " + quote(keyword) + " (" + known + ", wide)");
    }
    if (value.is_none()) continue;
    const std::int64_t v = integer_of(value, where, keyword);
    if (const auto err = integer_error(v, *it)) throw InputError(where + keyword + "=: " + *err);
    values.set(keyword, v);
  }
  report::Table t;
  try {
    const experiments::TableOptions options = experiments::table_options(name, values, wide);
    py::gil_scoped_release release;  // minutes of simulation leave other Python threads free
    t = spec->make(options);
  } catch (const InputError& e) {
    throw InputError(with_keywords(e.what(), flags));
  }
  return to_python(report::to_records(t));
}

py::list tables() {
  py::list out;
  for (const auto& t : experiments::tables()) {
    py::dict d;
    d["name"] = t.name;
    d["paper"] = t.paper;
    d["description"] = t.description;
    out.append(d);
  }
  return out;
}

// A grid file's text, read as `mmsim sweep GRID` reads it (a regular file, bounded).
std::string read_grid(const std::string& path) {
  InputFile file("sweep", path, report::kMaxJsonBytes, "a grid may have");
  return file.read_all();
}

// The grid's rows, parsed and checked whole (every refusal before any run).
std::size_t sweep_size(const std::string& text, const std::string& name) {
  return sweep::parse_grid(text, name).rows.size();
}

// Rows `indices` of the grid, run one after another on this process; records as the sweep's JSON
// has them. The grid travels as its text: the worker of an executor parses it again.
py::object sweep_rows(const std::string& text, const std::string& name, const std::vector<std::uint64_t>& indices) {
  const sweep::SweepGrid grid = sweep::parse_grid(text, name);
  report::Json out = report::Json::array();
  {
    py::gil_scoped_release release;
    for (std::uint64_t i : indices) {
      if (i >= grid.rows.size())
        throw InputError("sweep: row " + std::to_string(i) + " of " + std::to_string(grid.rows.size()));
      out.push(sweep::sweep_record(grid, sweep::run_row(grid, grid.rows[i])));
    }
  }
  return to_python(out);
}

// mmsim.access with the command's three ways (warps, addr, layout + cell) and its options.
py::object access(const py::dict& given) {
  teaching::AccessRequest r;
  bool sectors = false;
  const std::vector<std::pair<std::string, std::string>> flags{
      {"--model", "model"},   {"-w", "w"},
      {"--width", "w"},       {"-l", "l"},
      {"--latency", "l"},     {"--warp", "warps"},
      {"--addr", "addr"},     {"--layout", "layout"},
      {"--cell", "cell"},     {"--threads", "threads"},
      {"--seed", "seed"},     {"--element-bytes", "element_bytes"},
      {"--vector", "vector"}, {"--op", "op"},
      {"--reg", "regs"},      {"--sectors", "sectors"}};
  for (const auto& [key, value] : given) {
    const auto k = py::str(key).cast<std::string>();
    if (value.is_none()) continue;
    if (k == "model")
      r.model = text_of(value, k);
    else if (k == "w")
      r.w = integer_of(value, "", k);
    else if (k == "l")
      r.l = integer_of(value, "", k);
    else if (k == "warps") {
      std::vector<std::vector<std::int64_t>> warps;
      for (const auto& warp : value) {
        std::vector<std::int64_t> row;
        for (const auto& a : warp) row.push_back(a.is_none() ? -1 : integer_of(a, "", "warps"));
        warps.push_back(std::move(row));
      }
      r.warp_values = std::move(warps);
    } else if (k == "addr")
      r.addr = text_of(value, k);
    else if (k == "layout")
      r.layout = text_of(value, k);
    else if (k == "cell")
      r.cell = text_of(value, k);
    else if (k == "threads")
      r.threads = integer_of(value, "", k);
    else if (k == "seed")
      r.seed = integer_of(value, "", k);
    else if (k == "element_bytes")
      r.element_bytes = integer_of(value, "", k);
    else if (k == "vector")
      r.vector = integer_of(value, "", k);
    else if (k == "op")
      r.op = text_of(value, k);
    else if (k == "sectors")
      sectors = value.cast<bool>();
    else if (k == "regs") {
      if (!py::isinstance<py::dict>(value)) throw InputError("regs=: must be a dict of name: [one value per thread]");
      for (const auto& [name, values] : value.cast<py::dict>()) {
        std::string text = py::str(name).cast<std::string>() + "=";
        bool first = true;
        for (const auto& v : values) {
          text += (first ? "" : ",") + std::to_string(integer_of(v, "", "regs"));
          first = false;
        }
        r.registers.push_back(std::move(text));
      }
    } else {
      throw InputError(
          "access: unknown keyword " + quote(k) +
          " (model, w, l, warps, addr, layout, cell, threads, seed, element_bytes, vector, op, regs, sectors)");
    }
  }
  try {
    const teaching::PosedRequest posed = teaching::pose_request(r);
    auto result = teaching::simulate_access(posed.machine, posed.posed.warps, posed.posed.cells, posed.shaped.shape,
                                            posed.shaped.op);
    result.posed = posed.posed.posed;
    result.layout = posed.posed.layout;
    if (sectors) teaching::add_sectors(result);
    return to_python(teaching::to_json(result));
  } catch (const InputError& e) {
    throw InputError(with_keywords(e.what(), flags));
  }
}

}  // namespace

void bind_loop(py::module_& m) {
  m.def("table", &table, py::arg("name"), py::arg("given"), py::arg("wide"));
  m.def("tables", &tables);
  m.def("read_grid", &read_grid, py::arg("path"));
  m.def("sweep_size", &sweep_size, py::arg("text"), py::arg("name"));
  m.def("sweep_rows", &sweep_rows, py::arg("text"), py::arg("name"), py::arg("indices"));
  m.def("access_posed", &access, py::arg("given"));
}

}  // namespace mmsim::python
