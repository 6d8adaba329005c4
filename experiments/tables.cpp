#include "experiments/tables.h"

#include "experiments/results.h"
#include "io/input_error.h"

namespace mmsim::experiments {

// The CPU tables are the registry's entries that have a table driver (experiments/results.cpp).
const std::vector<TableSpec>& tables() {
  static const std::vector<TableSpec> all = [] {
    std::vector<TableSpec> out;
    for (const auto& e : results())
      if (e.table) out.push_back({e.name, e.description, e.paper, e.table});
    return out;
  }();
  return all;
}

const std::vector<ParamSpec>& table_params() {
  // A Monte Carlo table runs `trials` accesses per cell over dozens of cells, and -n sizes simulations.
  static const std::vector<ParamSpec> specs{
      integer_param("n", "-n", "number of elements (tables that take it)", 1, std::int64_t{1} << 24),
      integer_param("w", "-w,--width", "width", 1, 1024),
      integer_param("l", "-l,--latency", "latency of the shared memory (DMM)", 1, 1 << 20),
      integer_param("L", "-L,--global-latency", "latency of the global memory", 1, 1 << 20),
      integer_param("k", "-k,--dmms", "number of DMMs", 1, 4096),
      integer_param("trials", "--trials", "Monte Carlo trials per cell (tables that take it)", 1, 1'000'000),
      seed_param(),
  };
  return specs;
}

TableOptions table_options(const std::string& table, const ParamValues& given, bool wide) {
  TableOptions t;
  // Only NMI Table II is printed long by default and has the paper's wide layout beside it.
  if (wide && table != "rap-t2") throw InputError("table " + table + ": --wide: only rap-t2 has a wide form");
  t.wide = wide;
  for (const auto& [name, value] : given.items()) {
    const std::int64_t v = std::get<std::int64_t>(value);
    if (name == "n")
      t.n = static_cast<std::uint64_t>(v);
    else if (name == "w")
      t.w = static_cast<int>(v);
    else if (name == "l")
      t.l = static_cast<int>(v);
    else if (name == "L")
      t.L = static_cast<int>(v);
    else if (name == "k")
      t.k = static_cast<int>(v);
    else if (name == "trials")
      t.trials = static_cast<int>(v);
    else if (name == "seed")
      t.seed = static_cast<std::uint64_t>(v);
  }
  return t;
}

MachineParams table_machine(const TableOptions& o) {
  MachineParams m{.model = ModelKind::Hmm,
                  .w = o.w.value_or(32),
                  .l = o.l.value_or(1),
                  .L = o.L.value_or(100),
                  .k = o.k.value_or(8)};
  if (auto err = m.validate()) throw InputError(*err);
  return m;
}

TableParameters with_machine(TableParameters first, const MachineParams& m, TableParameters last) {
  for (const char* name : {"w", "l", "L", "k"}) {
    const int v = name[0] == 'w' ? m.w : name[0] == 'l' ? m.l : name[0] == 'L' ? m.L : m.k;
    first.emplace_back(name, static_cast<long long>(v));
  }
  first.insert(first.end(), last.begin(), last.end());
  return first;
}

const TableSpec* find_table(const std::string& name) {
  for (const auto& t : tables())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace mmsim::experiments
