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

MachineParams table_machine(const TableOptions& o) {
  MachineParams m{.model = ModelKind::Hmm,
                  .w = o.w.value_or(32),
                  .l = o.l.value_or(1),
                  .L = o.L.value_or(100),
                  .k = o.k.value_or(8)};
  if (auto err = m.validate()) throw InputError(*err);
  return m;
}

const TableSpec* find_table(const std::string& name) {
  for (const auto& t : tables())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace mmsim::experiments
